//! `kubewhy watch`: the findings kept current from watches and served over HTTP (`/`, `/findings`,
//! `/metrics`, `/healthz`), and the flight recorder (`--record`). Glue: the store and the watches
//! are `kubewhy_live`'s, the diagnosis `kubewhy_rules`', the page and JSON `kubewhy_report`'s.

use crate::gone::{FlightRecorder, RecordArgs};
use anyhow::{Context, Result};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use clap::Args;
use kubewhy_live::store::{Store, WatchHealth, WatchStatus};
use kubewhy_model::{Finding, InputWarning};
use kubewhy_report::metrics::{Metrics, WatchState};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

pub(crate) const WATCH_LONG: &str = "Watch the cluster and keep the findings current: one watch per kind kubewhy reads (list once, then changes only), every object held in its slim view. A finding appears within seconds of its condition becoming true — time-based ones too, such as a pod Terminating past its grace period — and disappears when it is resolved. A watch that drops is re-established; until its re-list completes, the last known state stays.

Served on --listen (default 127.0.0.1:9090):
  /          the current findings with their evidence and next steps (HTML, no JavaScript)
  /findings  the same as `kubewhy scan -A -o json`
  /metrics   Prometheus metrics: kubewhy_findings{cause,severity,namespace} and the watches' health
  /healthz   200 once every watch has listed and findings are fresh, else 503 with the reason

With --record FILE, also a flight recorder: for every deleted pod its last status, DisruptionTarget reason, owner, node, the events seen for it (kept beyond their one-hour TTL) and its likely initiator, plus the deletions of Jobs, ReplicaSets, StatefulSets, DaemonSets, Nodes and Namespaces that explain pods', the replica changes of Deployments, ReplicaSets and StatefulSets (from, to, when, by which field manager) and the controllers' \"Deleted pod\" events, which tell a scale-down or a rollout from a deletion. SQLite in WAL mode, committed every 0.5 s: killing the recorder loses at most that, never the file. `kubewhy gone --record FILE` reads it, even while the recorder runs.

Needs list and watch, cluster-wide (or in the namespaces of -n), on what `kubewhy scan -A` reads (deploy/ has the ClusterRole). It checks its permissions first and says in one line what it may not watch; the checks that need those kinds run without them. Without pods, events, nodes or namespaces (with -n: the namespaces' pods and events) it is degraded: /healthz answers 503 with the reason. Refused requests are retried minutes apart and throttled ones no sooner than the API server's Retry-After (exponential back-off with jitter), each trouble said once on stderr; the page opens with a Degraded banner while it cannot read what it needs; credentials rejected at start end it (exit 2).";

pub(crate) const WATCH_AFTER: &str = "Examples:
  kubewhy watch                                     serve findings on http://127.0.0.1:9090/
  kubewhy watch --listen 0.0.0.0:9090               in a pod, for a Service and Prometheus
  kubewhy watch --record /var/lib/kubewhy/rec.db    findings, and a flight recorder
  kubewhy watch --no-serve --record rec.db          the flight recorder alone
  kubewhy watch -n shop -n web                      a service account that may read two namespaces
  kubewhy gone shop/web-1 --record /var/lib/kubewhy/rec.db";

#[derive(Args)]
pub(crate) struct WatchArgs {
    /// Where to serve the findings, metrics and health.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:9090")]
    listen: SocketAddr,

    /// Serve nothing and keep no findings: only the flight recorder (needs --record).
    #[arg(long, requires = "record")]
    no_serve: bool,

    /// Re-evaluate at least this often, for conditions that become true with time alone
    /// (a grace period running out). Changes are evaluated within a second anyway.
    #[arg(long, value_name = "SECONDS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=3600))]
    interval: u64,

    /// At most this many distinct namespace labels in /metrics; findings of the namespaces with
    /// fewer findings beyond that are counted under namespace="_other" (bounded cardinality).
    #[arg(long, value_name = "N", default_value_t = 500)]
    max_namespace_labels: usize,

    #[command(flatten)]
    record: RecordArgs,

    /// Watch only this namespace's objects (repeatable): for a service account that may read
    /// only some namespaces. Cluster-scoped kinds (nodes, namespaces, …) are still watched
    /// cluster-wide when permitted; without them the checks that need them run without them.
    #[arg(short, long = "namespace", value_name = "NAMESPACE")]
    namespace: Vec<String>,

    /// The kubeconfig file to use (default: KUBECONFIG, ~/.kube/config, or in-cluster).
    #[arg(long, value_name = "PATH")]
    kubeconfig: Option<PathBuf>,

    /// The kubeconfig context to use.
    #[arg(long, value_name = "NAME")]
    context: Option<String>,
}

pub(crate) fn run(args: WatchArgs) -> Result<u8> {
    one_malloc_arena();
    let recorder = FlightRecorder::open(&args.record)?;
    let opts =
        kubewhy_live::LiveOptions::cluster_wide(args.kubeconfig.clone(), args.context.clone());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let client = rt
        .block_on(kubewhy_live::watch_client(&opts))
        .context("connecting to the cluster")?;
    let store = (!args.no_serve).then(|| Arc::new(Store::scoped(&args.namespace)));
    // What the credentials may read, asked once before watching, said in one line.
    let perms = rt.block_on(kubewhy_live::permissions(
        &client,
        &kubewhy_live::store::slots(&args.namespace),
    ));
    writeln!(
        anstream::stderr(),
        "kubewhy: {}",
        kubewhy_report::sanitize(&kubewhy_live::permissions_summary(&perms))
    )?;
    let (tx, rx) = match recorder {
        Some(_) => {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            (Some(tx), Some(rx))
        }
        None => (None, None),
    };
    let mut err = anstream::stderr();
    if let Some(store) = &store {
        let listener = rt
            .block_on(tokio::net::TcpListener::bind(args.listen))
            .with_context(|| format!("--listen {}: cannot listen there", args.listen))?;
        let shared = Arc::new(Shared::new(
            store.clone(),
            args.interval,
            args.max_namespace_labels,
            !args.namespace.is_empty(),
        ));
        rt.spawn(serve(listener, shared.clone()));
        let (client, handle) = (client.clone(), rt.handle().clone());
        std::thread::Builder::new()
            .name("evaluate".into())
            .spawn(move || evaluate_loop(&shared, &client, &handle))?;
        writeln!(
            err,
            "kubewhy: watching the cluster; findings on http://{}/ (also /findings, /metrics, /healthz)",
            args.listen
        )?;
    }
    rt.spawn(kubewhy_live::watch::run(
        client,
        kubewhy_live::watch::Watchers {
            store,
            recorder: tx,
            namespaces: args.namespace.clone(),
        },
    ));
    // SIGTERM as well as Ctrl-C: as a container's PID 1, an unhandled SIGTERM is ignored.
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        rt.spawn(async move {
            shutdown_signal().await;
            stop.store(true, Ordering::Relaxed);
        });
    }
    match (recorder, rx) {
        (Some(r), Some(rx)) => r.run(&rt, rx, &stop)?,
        _ => rt.block_on(async {
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }),
    }
    writeln!(err, "kubewhy: stopped")?;
    rt.shutdown_timeout(Duration::from_secs(1));
    Ok(0)
}

async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}

// ------------------------------------------------------------------ evaluation

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

struct Shared {
    store: Arc<Store>,
    /// `watch -n`: only the namespaced watches are needed for an honest answer.
    scoped: bool,
    published: RwLock<Published>,
    metrics: Metrics,
    interval: Duration,
    max_namespace_labels: usize,
}

impl Shared {
    fn new(store: Arc<Store>, interval: u64, max_namespace_labels: usize, scoped: bool) -> Shared {
        Shared {
            store,
            scoped,
            published: RwLock::new(Published::default()),
            metrics: Metrics::new(),
            interval: Duration::from_secs(interval),
            max_namespace_labels,
        }
    }
}

/// Events about a pod the watch no longer holds are dropped this many seconds after they
/// happened (an event can arrive before its pod does).
const ORPHAN_EVENT_GRACE: i64 = 120;

/// Namespaces being deleted are listed in full (every served type) at most this often: that
/// costs one request per type, too much for every evaluation.
const CONTENTS_EVERY: Duration = Duration::from_secs(30);

/// Whether to evaluate now: first thing; within a second of a change; and every `interval` even
/// when nothing changed, since time alone makes some conditions true (a grace period running
/// out, a pod Pending for too long).
fn due(since_last: Option<Duration>, changed: bool, interval: Duration) -> bool {
    match since_last {
        None => true,
        Some(d) => (changed && d >= Duration::from_secs(1)) || d >= interval,
    }
}

/// What namespaces being deleted still hold, as last read.
#[derive(Default)]
struct Contents {
    namespaces: BTreeSet<String>,
    pages: Vec<(String, String)>,
    problems: Vec<InputWarning>,
    read: Option<Instant>,
}

/// Reads again what the namespaces being deleted still hold, when they changed or every
/// `CONTENTS_EVERY` (one request per served resource type; nothing when none is being deleted).
fn refresh_contents(
    contents: &mut Contents,
    snap: &kubewhy_model::Snapshot,
    client: &kubewhy_live::Client,
    rt: &tokio::runtime::Handle,
) {
    let dying: BTreeSet<String> = snap
        .namespaces
        .iter()
        .filter(|n| n.metadata.deletion_timestamp.is_some())
        .map(|n| n.metadata.name.to_string())
        .collect();
    if dying.is_empty() {
        *contents = Contents::default();
    } else if dying != contents.namespaces
        || contents.read.is_none_or(|t| t.elapsed() >= CONTENTS_EVERY)
    {
        let names: Vec<String> = dying.iter().cloned().collect();
        let (pages, problems) = rt.block_on(kubewhy_live::namespace_contents(client, &names));
        *contents = Contents {
            namespaces: dying,
            pages,
            problems,
            read: Some(Instant::now()),
        };
    }
}

/// Each watch's trouble said once on stderr when it starts and when it ends, not per retry
/// (watches failing the same way in one line); /healthz and the page keep saying it meanwhile.
fn say_watch_trouble(health: &[WatchHealth], said: &mut Said) {
    let mut troubled: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut ended: Vec<String> = Vec::new();
    for h in health {
        let key = (h.resource, h.scope.clone());
        // A refusal (Forbidden) was said once at start by the permissions line; the page
        // and /healthz keep saying it.
        let now = failing(h).map(|e| format!("{e} (retried with back-off)"));
        let before = said.get(&key).cloned().flatten();
        if now != before {
            match &now {
                Some(n) => troubled.entry(n.clone()).or_default().push(where_(h)),
                None => ended.push(where_(h)),
            }
            said.insert(key, now);
        }
    }
    let mut err = anstream::stderr();
    for (why, watches) in &troubled {
        let _ = writeln!(
            err,
            "kubewhy: warning: cannot watch {}: {}",
            list_of(watches),
            kubewhy_report::sanitize(why)
        );
    }
    if !ended.is_empty() {
        let _ = writeln!(err, "kubewhy: the watch of {} works again", list_of(&ended));
    }
}

/// What `say_watch_trouble` last said of each watch (kind and scope).
type Said = BTreeMap<(&'static str, Option<String>), Option<String>>;

fn evaluate_loop(shared: &Shared, client: &kubewhy_live::Client, rt: &tokio::runtime::Handle) {
    let mut last_changes = u64::MAX;
    let mut last_eval: Option<Instant> = None;
    let mut contents = Contents::default();
    let mut said = Said::new();
    loop {
        std::thread::sleep(Duration::from_millis(250));
        let changes = shared.store.changes();
        if !due(
            last_eval.map(|t| t.elapsed()),
            changes != last_changes,
            shared.interval,
        ) {
            continue;
        }
        last_changes = changes;
        let started = Instant::now();
        shared
            .store
            .forget_events_of_gone_pods(jiff::Timestamp::now(), ORPHAN_EVENT_GRACE);
        let (snap, mut problems) = shared.store.snapshot();
        refresh_contents(&mut contents, &snap, client, rt);
        problems.extend(contents.problems.iter().cloned());
        let inputs = contents
            .pages
            .iter()
            .map(|(name, text)| kubewhy_source::Input::Text {
                name: name.clone(),
                text: text.clone(),
            })
            .collect();
        let mut loaded = kubewhy_source::load_onto(snap, inputs, Some(jiff::Timestamp::now()));
        problems.append(&mut loaded.warnings);
        let snap = &loaded.snapshot;
        let diagnosis = kubewhy_rules::diagnose(snap);
        let report = kubewhy_report::Report {
            findings: &diagnosis.findings,
            unexplained: &diagnosis.unexplained,
            warnings: &problems,
            snapshot: kubewhy_report::SnapshotInfo::of(snap, 0, true),
            summary_only: false,
        };
        let health = shared.store.health();
        let degraded = degraded(&health, shared.scoped);
        // Never "synced" from nothing: a kind the findings need that cannot be read.
        let synced = shared.store.synced() && degraded.is_empty();
        say_watch_trouble(&health, &mut said);
        let watch_problems: Vec<String> = health
            .iter()
            .filter_map(|h| match &h.status {
                WatchStatus::Starting => Some(format!("{}: still listing", where_(h))),
                _ => None,
            })
            .collect();
        let view = View {
            namespaces: kubewhy_report::namespaces_of(&diagnosis.findings, &diagnosis.unexplained),
            snapshot: report.snapshot.clone(),
            warnings: problems.clone(),
            watch_problems,
            degraded,
            synced,
            refresh_seconds: shared.interval.as_secs().max(5) as u32,
            findings: Vec::new(),
            unexplained: Vec::new(),
        };
        let html = {
            let report = kubewhy_report::Report {
                snapshot: view.snapshot.clone(),
                ..report
            };
            kubewhy_report::html_page(
                &report,
                &kubewhy_report::PageInfo {
                    refresh_seconds: view.refresh_seconds,
                    watch_problems: &view.watch_problems,
                    degraded: &view.degraded,
                    synced,
                    namespace: None,
                    namespaces: &view.namespaces,
                },
            )
        };
        let states: Vec<WatchState> = health
            .iter()
            .map(|h| WatchState {
                resource: h.resource,
                up: h.status == WatchStatus::Up,
                objects: h.objects,
                lists: h.lists,
                undecodable: h.undecodable,
                errors_by_code: h.errors_by_code.clone(),
            })
            .collect();
        shared.metrics.update(
            &diagnosis.findings,
            diagnosis.unexplained.len(),
            &states,
            synced,
            started.elapsed(),
            shared.max_namespace_labels,
            jiff::Timestamp::now(),
        );
        let view = View {
            findings: diagnosis.findings,
            unexplained: diagnosis.unexplained,
            ..view
        };
        let mut p = shared.published.write().unwrap_or_else(|p| p.into_inner());
        *p = Published {
            html,
            view: Some(Arc::new(view)),
            at: Some(Instant::now()),
        };
        drop(p);
        drop(loaded);
        release_free_memory();
        last_eval = Some(Instant::now());
    }
}

/// glibc gives each thread that allocates its own arena, and memory freed in one is not reused
/// by another: with the watches and the evaluation on different threads, the resident size was
/// 145 MiB instead of 100 MiB for 5,000 watched pods (bench/live.py). One arena is plenty for a
/// process that is idle between evaluations.
fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator tuning; it is called before any other thread runs.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// Hands the memory an evaluation freed (its copy of the snapshot, the diagnosis) back to the
/// system: glibc's allocator keeps freed memory otherwise, and the resident size would stay at
/// the evaluation's high-water mark instead of what the watches hold.
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap pages to the kernel; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// `pods`, `pods and events`, or `24 kinds (nodes, namespaces, … replicasets)`.
fn list_of(watches: &[String]) -> String {
    match watches {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        many if many.len() <= 4 => many.join(", "),
        many => format!(
            "{} kinds ({}, … {})",
            many.len(),
            many[..3].join(", "),
            many[many.len() - 1]
        ),
    }
}

/// `pods` or `pods in shop`.
fn where_(h: &WatchHealth) -> String {
    match &h.scope {
        Some(ns) => format!("{} in {ns}", h.resource),
        None => h.resource.to_string(),
    }
}

/// Without these, watch mode would answer "nothing is stuck" from nothing: pods and their
/// events, and — watching the whole cluster — the nodes they run on and the namespaces they
/// live in. Other kinds sharpen the answers; what cannot be read of them is said on the page
/// and in /findings, and the checks that need them run without them.
const NEEDED: &[&str] = &["pods", "events", "nodes", "namespaces"];

/// The watches the findings need and that cannot be read or keep failing: what makes watch
/// mode degraded (503 on /healthz, a banner on the page) instead of healthy with nothing. With
/// `watch -n`, the namespaces' own pods and events.
fn degraded(health: &[WatchHealth], scoped: bool) -> Vec<String> {
    health
        .iter()
        .filter(|h| NEEDED.contains(&h.resource) && (!scoped || h.scope.is_some()))
        .filter_map(|h| match &h.status {
            WatchStatus::Forbidden(e) => Some(format!("{}: not readable: {e}", where_(h))),
            _ => failing(h).map(|e| format!("{}: failing: {e}", where_(h))),
        })
        .collect()
}

/// A watch's failure that is trouble, not a blip: it has never listed, or the API server
/// refuses it (401, 403, 429 …) and retrying does not help.
fn failing(h: &WatchHealth) -> Option<&str> {
    match &h.status {
        WatchStatus::Failing(e) if h.lists == 0 || e.starts_with("HTTP 4") => Some(e),
        _ => None,
    }
}

// ------------------------------------------------------------------ HTTP

async fn serve(listener: tokio::net::TcpListener, shared: Arc<Shared>) {
    let app = axum::Router::new()
        .route("/", axum::routing::get(page))
        .route("/findings", axum::routing::get(findings))
        .route("/metrics", axum::routing::get(metrics))
        .route("/healthz", axum::routing::get(healthz))
        .with_state(shared);
    if let Err(e) = axum::serve(listener, app).await {
        let _ = writeln!(anstream::stderr(), "kubewhy: the server stopped: {e}");
    }
}

fn not_yet() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "2")],
        "kubewhy: the first evaluation has not finished yet\n",
    )
        .into_response()
}

/// `/`, or `/?namespace=NS`: the page of one namespace, rendered on request from the last
/// evaluation (the whole page is rendered once per evaluation).
async fn page(State(s): State<Arc<Shared>>, uri: axum::http::Uri) -> Response {
    let namespace = uri
        .query()
        .and_then(|q| query_value(q, "namespace"))
        .filter(|n| !n.is_empty());
    let p = s.published.read().unwrap_or_else(|p| p.into_inner());
    if p.at.is_none() {
        return not_yet();
    }
    match (namespace, &p.view) {
        (Some(ns), Some(view)) => {
            let view = view.clone();
            drop(p);
            Html(view.page(Some(&ns))).into_response()
        }
        _ => Html(p.html.clone()).into_response(),
    }
}

/// The value of `key` in a query string, percent-decoded (`+` is a space in a form's GET).
fn query_value(query: &str, key: &str) -> Option<String> {
    let raw = query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))?;
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

async fn findings(State(s): State<Arc<Shared>>) -> Response {
    let view = {
        let p = s.published.read().unwrap_or_else(|p| p.into_inner());
        match (&p.view, p.at) {
            (Some(v), Some(_)) => v.clone(),
            _ => return not_yet(),
        }
    };
    ([(header::CONTENT_TYPE, "application/json")], view.json()).into_response()
}

async fn metrics(State(s): State<Arc<Shared>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        s.metrics.encode(),
    )
        .into_response()
}

/// 200 when every watch has listed once (or is known unreadable) and the findings are fresh;
/// 503 otherwise. The body lists each watch.
async fn healthz(State(s): State<Arc<Shared>>) -> Response {
    let at = s.published.read().unwrap_or_else(|p| p.into_inner()).at;
    let stale_after = (s.interval * 6).max(Duration::from_secs(60));
    let mut body = String::new();
    let mut ok = true;
    match at {
        None => {
            ok = false;
            body.push_str("evaluation: not yet\n");
        }
        Some(t) if t.elapsed() > stale_after => {
            ok = false;
            body.push_str(&format!(
                "evaluation: stale, last {} s ago\n",
                t.elapsed().as_secs()
            ));
        }
        Some(t) => body.push_str(&format!("evaluation: {} s ago\n", t.elapsed().as_secs())),
    }
    if !s.store.synced() {
        ok = false;
    }
    let health = s.store.health();
    for d in degraded(&health, s.scoped) {
        ok = false;
        body.push_str(&format!("degraded: {d}\n"));
    }
    for h in health {
        let state = match &h.status {
            WatchStatus::Starting => "listing".to_string(),
            WatchStatus::Up => "up".to_string(),
            WatchStatus::Failing(e) => format!("failing: {e}"),
            WatchStatus::Forbidden(e) => format!("not readable: {e}"),
            WatchStatus::NotServed => "not served by this cluster".to_string(),
        };
        body.push_str(&format!(
            "{}: {} ({} objects, {} lists, {} errors{})\n",
            where_(&h),
            state,
            h.objects,
            h.lists,
            h.errors,
            if h.undecodable > 0 {
                format!(", {} not readable", h.undecodable)
            } else {
                String::new()
            }
        ));
    }
    let body = kubewhy_report::sanitize(&body);
    if ok {
        (StatusCode::OK, body).into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, body).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_follows_changes_within_a_second_and_time_alone_every_interval() {
        let s = Duration::from_secs;
        let i = s(5);
        assert!(due(None, false, i), "first thing");
        assert!(
            !due(Some(Duration::from_millis(300)), true, i),
            "changes batch for 1 s"
        );
        assert!(due(Some(s(1)), true, i));
        assert!(
            !due(Some(s(4)), false, i),
            "nothing changed, interval not over"
        );
        assert!(
            due(Some(s(5)), false, i),
            "a grace period may have run out meanwhile"
        );
    }
}
