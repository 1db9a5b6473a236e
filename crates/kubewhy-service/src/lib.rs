//! Watch mode's service: the findings kept current from the watch store (`evaluate.rs`: a loop
//! that evaluates within a second of a change and every interval, publishes the page, the
//! findings and the metrics) and served over HTTP (`http.rs`: `/`, `/findings`, `/metrics`,
//! `/healthz`). The store and the watches are `kubewhy_live`'s, the diagnosis `kubewhy_rules`',
//! the page, JSON and metrics `kubewhy_report`'s; the binary starts it.

mod evaluate;
mod http;

pub use evaluate::one_malloc_arena;
pub use http::serve;

use kubewhy_live::store::Store;
use kubewhy_model::{Finding, InputWarning};
use kubewhy_report::metrics::Metrics;
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

/// What the server hands out, replaced whole after each evaluation. The JSON is rendered on
/// request (`View::json`): kept, it would cost as much memory per broken pod as the pod itself.
#[derive(Default)]
struct Published {
    html: String,
    /// What a page filtered to one namespace (`/?namespace=shop`) is rendered from.
    view: Option<Arc<View>>,
    /// When the last evaluation finished.
    at: Option<Instant>,
}

/// The last evaluation's findings, for pages rendered on request.
struct View {
    findings: Vec<Finding>,
    unexplained: Vec<kubewhy_model::Unexplained>,
    warnings: Vec<InputWarning>,
    snapshot: kubewhy_report::SnapshotInfo,
    watch_problems: Vec<String>,
    degraded: Vec<String>,
    synced: bool,
    refresh_seconds: u32,
    namespaces: Vec<String>,
}

impl View {
    /// The findings as `kubewhy scan -o json` prints them.
    fn json(&self) -> String {
        kubewhy_report::render(
            &kubewhy_report::Report {
                findings: &self.findings,
                unexplained: &self.unexplained,
                warnings: &self.warnings,
                snapshot: self.snapshot.clone(),
                summary_only: false,
            },
            kubewhy_report::Format::Json,
        )
    }

    /// The page, whole or for one namespace.
    fn page(&self, namespace: Option<&str>) -> String {
        let (findings, unexplained) = match namespace {
            Some(ns) => kubewhy_report::in_namespace(&self.findings, &self.unexplained, ns),
            None => (self.findings.clone(), self.unexplained.clone()),
        };
        let report = kubewhy_report::Report {
            findings: &findings,
            unexplained: &unexplained,
            warnings: &self.warnings,
            snapshot: self.snapshot.clone(),
            summary_only: false,
        };
        kubewhy_report::html_page(
            &report,
            &kubewhy_report::PageInfo {
                refresh_seconds: self.refresh_seconds,
                watch_problems: &self.watch_problems,
                degraded: &self.degraded,
                synced: self.synced,
                namespace,
                namespaces: &self.namespaces,
            },
        )
    }
}

pub struct Service {
    store: Arc<Store>,
    /// `watch -n`: only the namespaced watches are needed for an honest answer.
    scoped: bool,
    published: RwLock<Published>,
    metrics: Metrics,
    interval: Duration,
    max_namespace_labels: usize,
}

impl Service {
    /// A service over `store`, evaluating at least every `interval` seconds; `max_namespace_labels`
    /// bounds /metrics' namespace label; `scoped` is `watch -n` (only the namespaced watches are
    /// needed for an honest answer).
    pub fn new(
        store: Arc<Store>,
        interval: u64,
        max_namespace_labels: usize,
        scoped: bool,
    ) -> Service {
        Service {
            store,
            scoped,
            published: RwLock::new(Published::default()),
            metrics: Metrics::new(),
            interval: Duration::from_secs(interval),
            max_namespace_labels,
        }
    }
}
