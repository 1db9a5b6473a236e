//! `kubewhy watch`'s Prometheus metrics: findings and affected objects by cause, severity and
//! namespace (never an object's name), unexplained pods, each watch's health, the evaluations.

use kubewhy_model::Finding;
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::registry::Registry;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::sync::Mutex;
use std::sync::atomic::AtomicU64;
use std::time::Duration;

/// One watch's health as the metrics show it (a kind watched in several namespaces is summed
/// into one series: up only when every one is).
#[derive(Debug, Clone)]
pub struct WatchState {
    pub resource: &'static str,
    /// Listed and running.
    pub up: bool,
    pub objects: usize,
    pub lists: u64,
    pub undecodable: u64,
    /// Errors by HTTP status (0: no answer).
    pub errors_by_code: BTreeMap<u16, u64>,
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct FindingLabels {
    cause: String,
    severity: String,
    namespace: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ResourceLabels {
    resource: String,
}

/// A watch error's labels: the resource and the HTTP status (`none` when the API server did
/// not answer: a dropped connection, a timeout).
#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct ErrorLabels {
    resource: String,
    code: String,
}

pub struct Metrics {
    registry: Registry,
    findings: Family<FindingLabels, Gauge>,
    affected: Family<FindingLabels, Gauge>,
    unexplained: Gauge,
    watch_up: Family<ResourceLabels, Gauge>,
    watch_objects: Family<ResourceLabels, Gauge>,
    watch_lists: Family<ResourceLabels, Counter>,
    watch_errors: Family<ErrorLabels, Counter>,
    watch_undecodable: Family<ResourceLabels, Counter>,
    synced: Gauge,
    evaluations: Counter,
    evaluation_seconds: Gauge<f64, AtomicU64>,
    last_evaluation: Gauge<f64, AtomicU64>,
    /// Counters are monotonic: the last totals seen, to add the difference.
    totals: Mutex<HashMap<(&'static str, String), u64>>,
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("kubewhy");
        let m = Metrics {
            findings: Family::default(),
            affected: Family::default(),
            unexplained: Gauge::default(),
            watch_up: Family::default(),
            watch_objects: Family::default(),
            watch_lists: Family::default(),
            watch_errors: Family::default(),
            watch_undecodable: Family::default(),
            synced: Gauge::default(),
            evaluations: Counter::default(),
            evaluation_seconds: Gauge::default(),
            last_evaluation: Gauge::default(),
            totals: Mutex::new(HashMap::new()),
            registry: Registry::default(),
        };
        registry.register(
            "findings",
            "Current findings by cause, severity and namespace (a finding spanning several namespaces counts in each)",
            m.findings.clone(),
        );
        registry.register(
            "affected_objects",
            "Objects affected by the current findings, by cause, severity and namespace",
            m.affected.clone(),
        );
        registry.register(
            "unexplained_pods",
            "Unhealthy pods no finding explains",
            m.unexplained.clone(),
        );
        registry.register(
            "watch_up",
            "1 when the watch of this resource has listed and is running, else 0",
            m.watch_up.clone(),
        );
        registry.register(
            "watch_objects",
            "Objects of this resource held",
            m.watch_objects.clone(),
        );
        registry.register(
            "watch_lists",
            "Completed lists of this resource (the first, then one per re-list)",
            m.watch_lists.clone(),
        );
        registry.register(
            "watch_errors",
            "Errors of the watch of this resource by HTTP status (code=\"none\": no answer); each retried with backoff, minutes apart for 401, 403 and 429",
            m.watch_errors.clone(),
        );
        registry.register(
            "watch_undecodable",
            "Objects of this resource that could not be read into kubewhy's view (left out of the findings)",
            m.watch_undecodable.clone(),
        );
        registry.register(
            "synced",
            "1 once every watch has listed (or is known unreadable)",
            m.synced.clone(),
        );
        registry.register(
            "evaluations",
            "Evaluations of the findings",
            m.evaluations.clone(),
        );
        registry.register(
            "evaluation_duration_seconds",
            "Duration of the last evaluation",
            m.evaluation_seconds.clone(),
        );
        registry.register(
            "last_evaluation_timestamp_seconds",
            "When the last evaluation finished (Unix time)",
            m.last_evaluation.clone(),
        );
        Metrics { registry, ..m }
    }

    /// Sets every series from an evaluation: its findings (at most `max_namespaces` namespace
    /// labels), the unexplained pods, each watch's health, and when it finished (`now`).
    #[allow(clippy::too_many_arguments)]
    pub fn update(
        &self,
        findings: &[Finding],
        unexplained: usize,
        health: &[WatchState],
        synced: bool,
        took: Duration,
        max_namespaces: usize,
        now: jiff::Timestamp,
    ) {
        let counts = finding_counts(findings, max_namespaces);
        self.findings.clear();
        self.affected.clear();
        for (labels, (n, objects)) in counts {
            self.findings.get_or_create(&labels).set(n as i64);
            self.affected.get_or_create(&labels).set(objects as i64);
        }
        self.unexplained.set(unexplained as i64);
        let mut totals = self.totals.lock().unwrap_or_else(|p| p.into_inner());
        // One series per resource: `watch -n` runs one watch per namespace of a kind.
        let mut per_resource: BTreeMap<&'static str, WatchState> = BTreeMap::new();
        for h in health {
            match per_resource.get_mut(h.resource) {
                None => {
                    per_resource.insert(h.resource, h.clone());
                }
                Some(a) => {
                    a.up &= h.up;
                    a.objects += h.objects;
                    a.lists += h.lists;
                    a.undecodable += h.undecodable;
                    for (code, n) in &h.errors_by_code {
                        *a.errors_by_code.entry(*code).or_insert(0) += n;
                    }
                }
            }
        }
        for h in per_resource.values() {
            let l = ResourceLabels {
                resource: h.resource.to_string(),
            };
            self.watch_up.get_or_create(&l).set(h.up as i64);
            self.watch_objects.get_or_create(&l).set(h.objects as i64);
            for (counter, total, family) in [
                ("lists", h.lists, &self.watch_lists),
                ("undecodable", h.undecodable, &self.watch_undecodable),
            ] {
                let last = totals.entry((h.resource, counter.to_string())).or_insert(0);
                family.get_or_create(&l).inc_by(total.saturating_sub(*last));
                *last = total;
            }
            for (code, total) in &h.errors_by_code {
                let code = if *code == 0 {
                    "none".to_string()
                } else {
                    code.to_string()
                };
                let last = totals
                    .entry((h.resource, format!("errors {code}")))
                    .or_insert(0);
                self.watch_errors
                    .get_or_create(&ErrorLabels {
                        resource: h.resource.to_string(),
                        code,
                    })
                    .inc_by(total.saturating_sub(*last));
                *last = *total;
            }
        }
        self.synced.set(synced as i64);
        self.evaluations.inc();
        self.evaluation_seconds.set(took.as_secs_f64());
        self.last_evaluation
            .set(now.as_millisecond() as f64 / 1000.0);
    }

    /// The OpenMetrics text of every series.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        let _ = prometheus_client::encoding::text::encode(&mut out, &self.registry);
        out
    }
}

/// Findings and affected objects per (cause, severity, namespace), with at most `max_namespaces`
/// distinct namespaces: the ones with the fewest findings beyond that are folded into `_other`.
/// Cluster-scoped objects (nodes, APIServices) count under namespace "".
fn finding_counts(
    findings: &[Finding],
    max_namespaces: usize,
) -> BTreeMap<FindingLabels, (usize, usize)> {
    let mut per_ns: BTreeMap<String, usize> = BTreeMap::new();
    let mut raw: BTreeMap<(String, String, String), (usize, usize)> = BTreeMap::new();
    for f in findings {
        let mut objects: BTreeMap<&str, usize> = BTreeMap::new();
        for o in &f.objects {
            *objects.entry(o.namespace.as_str()).or_insert(0) += 1;
        }
        for (ns, n) in objects {
            *per_ns.entry(ns.to_string()).or_insert(0) += 1;
            let e = raw
                .entry((
                    f.cause.slug().to_string(),
                    f.severity.as_str().to_string(),
                    ns.to_string(),
                ))
                .or_insert((0, 0));
            e.0 += 1;
            e.1 += n;
        }
    }
    let mut ranked: Vec<(&String, &usize)> = per_ns.iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
    let kept: BTreeSet<&String> = ranked
        .iter()
        .take(max_namespaces)
        .map(|(n, _)| *n)
        .collect();
    let mut out: BTreeMap<FindingLabels, (usize, usize)> = BTreeMap::new();
    for ((cause, severity, ns), (n, objects)) in &raw {
        // Namespace names are DNS labels in a real cluster; a label value is still sanitized
        // like every string from the cluster, for whoever reads /metrics in a terminal.
        let namespace = if kept.contains(ns) {
            crate::sanitize(ns)
        } else {
            "_other".to_string()
        };
        let e = out
            .entry(FindingLabels {
                cause: cause.clone(),
                severity: severity.clone(),
                namespace,
            })
            .or_insert((0, 0));
        e.0 += n;
        e.1 += objects;
    }
    out
}

impl PartialOrd for FindingLabels {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for FindingLabels {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        (&self.cause, &self.severity, &self.namespace).cmp(&(
            &other.cause,
            &other.severity,
            &other.namespace,
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_model::{Cause, ObjectKey, Severity};

    fn finding(cause: Cause, objects: &[(&str, &str)]) -> Finding {
        let mut f = Finding::new(cause, Severity::Error, "x");
        for (ns, name) in objects {
            f = f.object(ObjectKey::new("Pod", ns, name, ""));
        }
        f
    }

    #[test]
    fn findings_are_counted_per_namespace_and_extra_namespaces_fold_into_other() {
        let f = vec![
            finding(
                Cause::ImageNotFound,
                &[("shop", "a"), ("shop", "b"), ("web", "c")],
            ),
            finding(Cause::ImageNotFound, &[("shop", "d")]),
            finding(Cause::OomKilled, &[("tiny", "e")]),
        ];
        let all = finding_counts(&f, 10);
        let get = |m: &BTreeMap<FindingLabels, (usize, usize)>, c: &str, ns: &str| {
            m.get(&FindingLabels {
                cause: c.into(),
                severity: "error".into(),
                namespace: ns.into(),
            })
            .copied()
        };
        assert_eq!(get(&all, "image-not-found", "shop"), Some((2, 3)));
        assert_eq!(get(&all, "image-not-found", "web"), Some((1, 1)));
        assert_eq!(get(&all, "oom-killed", "tiny"), Some((1, 1)));
        // One namespace label allowed: shop (2 findings) stays, web and tiny fold.
        let capped = finding_counts(&f, 1);
        assert_eq!(get(&capped, "image-not-found", "shop"), Some((2, 3)));
        assert_eq!(get(&capped, "image-not-found", "_other"), Some((1, 1)));
        assert_eq!(get(&capped, "oom-killed", "_other"), Some((1, 1)));
        assert_eq!(capped.len(), 3);
    }

    #[test]
    fn metrics_carry_no_pod_names() {
        let m = Metrics::new();
        let f = vec![finding(
            Cause::ImageNotFound,
            &[("shop", "secret-pod-name")],
        )];
        m.update(
            &f,
            2,
            &[],
            true,
            Duration::from_millis(3),
            10,
            jiff::Timestamp::UNIX_EPOCH,
        );
        let text = m.encode();
        assert!(
            text.contains(
                "kubewhy_findings{cause=\"image-not-found\",severity=\"error\",namespace=\"shop\"} 1"
            ),
            "{text}"
        );
        assert!(text.contains("kubewhy_unexplained_pods 2"), "{text}");
        assert!(!text.contains("secret-pod-name"));
        // Resolved: the series goes.
        m.update(
            &[],
            0,
            &[],
            true,
            Duration::from_millis(3),
            10,
            jiff::Timestamp::UNIX_EPOCH,
        );
        assert!(!m.encode().contains("kubewhy_findings{"), "{}", m.encode());
    }

    #[test]
    fn watches_of_one_kind_in_several_namespaces_are_one_series() {
        let m = Metrics::new();
        let w = |up, objects, errors: &[(u16, u64)]| WatchState {
            resource: "pods",
            up,
            objects,
            lists: 1,
            undecodable: 0,
            errors_by_code: errors.iter().copied().collect(),
        };
        let now = jiff::Timestamp::UNIX_EPOCH;
        m.update(
            &[],
            0,
            &[w(true, 3, &[]), w(false, 4, &[(403, 2), (0, 1)])],
            false,
            Duration::ZERO,
            10,
            now,
        );
        let text = m.encode();
        assert!(
            text.contains("kubewhy_watch_up{resource=\"pods\"} 0"),
            "{text}"
        );
        assert!(
            text.contains("kubewhy_watch_objects{resource=\"pods\"} 7"),
            "{text}"
        );
        assert!(
            text.contains("kubewhy_watch_lists_total{resource=\"pods\"} 2"),
            "{text}"
        );
        assert!(
            text.contains("kubewhy_watch_errors_total{resource=\"pods\",code=\"403\"} 2"),
            "{text}"
        );
        assert!(
            text.contains("kubewhy_watch_errors_total{resource=\"pods\",code=\"none\"} 1"),
            "{text}"
        );
        // Counters follow the watches' totals: they grow by what is new, and only by that.
        m.update(
            &[],
            0,
            &[w(true, 3, &[]), w(true, 4, &[(403, 3), (0, 1)])],
            true,
            Duration::ZERO,
            10,
            now,
        );
        let text = m.encode();
        assert!(
            text.contains("kubewhy_watch_up{resource=\"pods\"} 1"),
            "{text}"
        );
        assert!(
            text.contains("kubewhy_watch_errors_total{resource=\"pods\",code=\"403\"} 3"),
            "{text}"
        );
        assert!(
            text.contains("kubewhy_watch_lists_total{resource=\"pods\"} 2"),
            "{text}"
        );
    }
}
