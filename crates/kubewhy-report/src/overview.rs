//! The answer first: one row per cause (severity, findings, workloads, pods, namespaces, since),
//! which the text and Markdown reports open with when the findings do not fit a screen, the
//! page always shows, and JSON carries as `summary.causes`. And the workloads a finding
//! affects, said the way people name them ("50 Deployments in scale: big-0 … big-49 — 10,000
//! pods").

use kubewhy_model::workload::natural_cmp;
use kubewhy_model::{Cause, Finding, Severity, WorkloadRef};
use serde::Serialize;
use std::collections::{BTreeSet, HashSet};

/// More findings than this and the text and Markdown reports open with the overview table
/// (a finding's block is about twenty lines: three fill a screen).
pub const OVERVIEW_AFTER: usize = 3;

/// One cause's share of the findings.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CauseRow {
    pub cause: Cause,
    pub code: &'static str,
    /// The most severe of its findings.
    pub severity: Severity,
    pub findings: usize,
    pub workloads: usize,
    pub pods: usize,
    pub namespaces: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<jiff::Timestamp>,
    /// The position (from 0) of its first finding in the report.
    #[serde(skip)]
    pub first: usize,
}

/// One row per cause, in the order of the findings (which `kubewhy_model::finding::order`
/// sorts by severity, then the cause's size).
pub fn overview(findings: &[Finding]) -> Vec<CauseRow> {
    struct Acc<'a> {
        row: CauseRow,
        workloads: HashSet<(&'a str, &'a str, &'a str)>,
        namespaces: HashSet<&'a str>,
    }
    let mut rows: Vec<Acc> = Vec::new();
    for (i, f) in findings.iter().enumerate() {
        let at = match rows.iter().position(|r| r.row.cause == f.cause) {
            Some(at) => at,
            None => {
                rows.push(Acc {
                    row: CauseRow {
                        cause: f.cause,
                        code: f.code,
                        severity: f.severity,
                        findings: 0,
                        workloads: 0,
                        pods: 0,
                        namespaces: 0,
                        since: None,
                        first: i,
                    },
                    workloads: HashSet::new(),
                    namespaces: HashSet::new(),
                });
                rows.len() - 1
            }
        };
        let acc = &mut rows[at];
        acc.row.severity = acc.row.severity.max(f.severity);
        acc.row.findings += 1;
        acc.row.pods += f.objects.iter().filter(|o| o.kind == "Pod").count();
        acc.row.since = match (acc.row.since, f.since) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        acc.workloads.extend(
            f.workloads
                .iter()
                .map(|w| (w.kind.as_str(), w.namespace.as_str(), w.name.as_str())),
        );
        acc.namespaces.extend(f.objects.iter().filter_map(|o| {
            if o.kind == "Namespace" {
                Some(o.name.as_str())
            } else {
                Some(o.namespace.as_str()).filter(|n| !n.is_empty())
            }
        }));
    }
    rows.into_iter()
        .map(|a| CauseRow {
            workloads: a.workloads.len(),
            namespaces: a.namespaces.len(),
            ..a.row
        })
        .collect()
}

/// `10,000`.
pub fn thousands(n: usize) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

fn plural(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{} {word}s", thousands(n))
    }
}

/// At most this many kind-and-namespace groups are named; the rest are counted.
const GROUPS: usize = 6;
/// A group of more workloads than this names its first and last only.
const NAMES: usize = 4;

/// The workloads a finding affects, in a line: "50 Deployments in scale: big-0 … big-49 —
/// 10,000 pods; Pod rc-scn/pending-cpu". Grouped by kind and namespace, the groups with the
/// most pods first. Empty when there is nothing to say beyond the objects themselves (no
/// workload, or only bare pods).
pub fn workloads_line(ws: &[WorkloadRef]) -> String {
    if ws.iter().all(|w| w.kind == "Pod") {
        return String::new();
    }
    let mut groups: Vec<((&str, &str), Vec<&WorkloadRef>)> = Vec::new();
    for w in ws {
        let key = (w.kind.as_str(), w.namespace.as_str());
        match groups.iter_mut().find(|(k, _)| *k == key) {
            Some((_, v)) => v.push(w),
            None => groups.push((key, vec![w])),
        }
    }
    let pods = |v: &[&WorkloadRef]| v.iter().map(|w| w.pods).sum::<usize>();
    groups.sort_by(|a, b| pods(&b.1).cmp(&pods(&a.1)).then(a.0.cmp(&b.0)));
    let mut parts: Vec<String> = Vec::new();
    for ((kind, ns), members) in groups.iter().take(GROUPS) {
        let total = pods(members);
        let count = if *kind == "Pod" || total == 0 {
            String::new()
        } else {
            format!(" ({})", plural(total, "pod"))
        };
        if let [one] = members.as_slice() {
            parts.push(format!("{kind} {}{count}", one.path()));
            continue;
        }
        let mut names: Vec<&str> = members.iter().map(|w| w.name.as_str()).collect();
        names.sort_by(|a, b| natural_cmp(a, b));
        let names = if names.len() <= NAMES {
            names.join(", ")
        } else {
            format!("{} … {}", names[0], names[names.len() - 1])
        };
        let place = if ns.is_empty() {
            String::new()
        } else {
            format!(" in {ns}")
        };
        let count = if *kind == "Pod" || total == 0 {
            String::new()
        } else {
            format!(" — {}", plural(total, "pod"))
        };
        parts.push(format!(
            "{} {kind}s{place}: {names}{count}",
            thousands(members.len())
        ));
    }
    if groups.len() > GROUPS {
        let rest: Vec<&WorkloadRef> = groups[GROUPS..]
            .iter()
            .flat_map(|(_, v)| v.iter().copied())
            .collect();
        let namespaces: BTreeSet<&str> = rest.iter().map(|w| w.namespace.as_str()).collect();
        parts.push(format!(
            "and {} more workload{} in {}",
            thousands(rest.len()),
            if rest.len() == 1 { "" } else { "s" },
            plural(namespaces.len(), "namespace")
        ));
    }
    parts.join("; ")
}

/// How long ago `since` was, seen from the report's moment: `3d4h`, `2h5m`, `40s`.
pub fn age(since: Option<jiff::Timestamp>, now: Option<&str>) -> String {
    let (Some(since), Some(now)) = (since, now.and_then(|n| n.parse::<jiff::Timestamp>().ok()))
    else {
        return String::new();
    };
    let secs = (now.as_second() - since.as_second()).max(0);
    let (d, h, m, s) = (
        secs / 86400,
        secs % 86400 / 3600,
        secs % 3600 / 60,
        secs % 60,
    );
    if d > 0 {
        format!("{d}d{h}h")
    } else if h > 0 {
        format!("{h}h{m}m")
    } else if m > 0 {
        format!("{m}m{s}s")
    } else {
        format!("{s}s")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn w(kind: &str, ns: &str, name: &str, pods: usize) -> WorkloadRef {
        WorkloadRef {
            kind: kind.into(),
            namespace: ns.into(),
            name: name.into(),
            pods,
        }
    }

    #[test]
    fn fifty_deployments_and_a_bare_pod_in_one_line() {
        let mut ws: Vec<WorkloadRef> = (0..50)
            .map(|i| w("Deployment", "scale", &format!("big-{i}"), 200))
            .collect();
        ws.push(w("Pod", "rc-scn", "pending-cpu", 1));
        assert_eq!(
            workloads_line(&ws),
            "50 Deployments in scale: big-0 … big-49 — 10,000 pods; Pod rc-scn/pending-cpu"
        );
    }

    #[test]
    fn a_few_are_named() {
        let ws = vec![
            w("Deployment", "shop", "report-builder", 3),
            w("StatefulSet", "shop", "db", 1),
            w("Deployment", "shop", "web", 1),
        ];
        assert_eq!(
            workloads_line(&ws),
            "2 Deployments in shop: report-builder, web — 4 pods; StatefulSet shop/db (1 pod)"
        );
        assert_eq!(workloads_line(&[w("Pod", "x", "y", 1)]), "");
    }

    #[test]
    fn many_groups_are_counted() {
        let ws: Vec<WorkloadRef> = (0..10)
            .map(|i| w("Deployment", &format!("ns-{i}"), "web", 10 - i))
            .collect();
        let line = workloads_line(&ws);
        assert!(
            line.ends_with("; and 4 more workloads in 4 namespaces"),
            "{line}"
        );
        assert!(
            line.starts_with("Deployment ns-0/web (10 pods); "),
            "{line}"
        );
    }

    #[test]
    fn numbers_and_ages() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(10000), "10,000");
        assert_eq!(thousands(1234567), "1,234,567");
        let t: jiff::Timestamp = "2026-11-22T08:55:00Z".parse().unwrap();
        assert_eq!(age(Some(t), Some("2026-11-22T10:00:00Z")), "1h5m");
        assert_eq!(age(None, Some("2026-11-22T10:00:00Z")), "");
    }
}
