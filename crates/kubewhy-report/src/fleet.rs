//! Several clusters in one report (`kubewhy scan --context a --context b`, `--all-contexts`): the
//! fleet summary — one row per cluster, then one row per cause and cluster — before each
//! cluster's own report; and the fleet's JSON document, the cluster named on every finding.

use crate::overview::CauseRow;
use crate::{SCHEMA_VERSION, sanitize};
use kubewhy_model::Severity;
use serde_json::{Value, json};

/// One cluster of a fleet scan, diagnosed or not.
pub struct Cluster {
    /// The kubeconfig context.
    pub context: String,
    /// The API server's URL (empty when the context's configuration could not be read).
    pub server: String,
    pub seconds: f64,
    pub outcome: Outcome,
}

pub enum Outcome {
    /// The cluster could not be read at all: why (unreachable, credentials rejected, no such
    /// context).
    Failed(String),
    Read(Box<Read>),
}

/// What one readable cluster's diagnosis says.
pub struct Read {
    /// Its overview: one row per cause.
    pub rows: Vec<CauseRow>,
    pub findings: usize,
    pub unexplained: usize,
    pub worst: Option<Severity>,
    /// Lists it could not read (not permitted, not served) and other input problems.
    pub problems: usize,
    /// Those problems, said (sanitized), for the command to print.
    pub warnings: Vec<String>,
    /// The cluster's own report in the format asked for (text or Markdown); for JSON, empty.
    pub report: String,
    /// The cluster's `scan -o json` document (JSON only).
    pub json: Option<Value>,
}

/// The fleet summary as text: a line of totals, one row per cluster, one row per cause and
/// cluster. Every string from a kubeconfig or a cluster is sanitized.
pub fn summary_text(clusters: &[Cluster]) -> String {
    let read = clusters
        .iter()
        .filter(|c| matches!(c.outcome, Outcome::Read(_)))
        .count();
    let findings: usize = clusters
        .iter()
        .map(|c| match &c.outcome {
            Outcome::Read(r) => r.findings,
            Outcome::Failed(_) => 0,
        })
        .sum();
    let mut out = format!(
        "Fleet: {} cluster(s), {read} read{}; {findings} finding(s)\n\n",
        clusters.len(),
        match clusters.len() - read {
            0 => String::new(),
            n => format!(", {n} could not be read"),
        }
    );
    let mut rows = vec![[
        "CLUSTER".to_string(),
        "SERVER".into(),
        "READ".into(),
        "FINDINGS".into(),
        "WORST".into(),
        "PODS".into(),
        "NOTE".into(),
    ]];
    for c in clusters {
        let (read, findings, worst, pods, note) = match &c.outcome {
            Outcome::Failed(why) => (
                "no".to_string(),
                "-".to_string(),
                "-".to_string(),
                "-".to_string(),
                sanitize(why),
            ),
            Outcome::Read(r) => (
                format!("{:.1} s", c.seconds),
                r.findings.to_string(),
                r.worst.map(|s| s.as_str()).unwrap_or("-").to_string(),
                r.rows.iter().map(|row| row.pods).sum::<usize>().to_string(),
                match (r.problems, r.unexplained) {
                    (0, 0) => String::new(),
                    (p, 0) => format!("{p} input problem(s), see its report"),
                    (0, u) => format!("{u} pod(s) not explained"),
                    (p, u) => format!("{p} input problem(s), {u} pod(s) not explained"),
                },
            ),
        };
        rows.push([
            sanitize(&c.context),
            sanitize(&c.server),
            read,
            findings,
            worst,
            pods,
            note,
        ]);
    }
    out.push_str(&table(&rows));
    let mut causes = vec![[
        "CAUSE".to_string(),
        "CODE".into(),
        "CLUSTER".into(),
        "SEVERITY".into(),
        "FINDINGS".into(),
        "WORKLOADS".into(),
        "PODS".into(),
    ]];
    // Causes in the order of their worst severity across the fleet, then by name.
    let mut all: Vec<(&CauseRow, &str)> = clusters
        .iter()
        .filter_map(|c| match &c.outcome {
            Outcome::Read(r) => Some(r.rows.iter().map(move |row| (row, c.context.as_str()))),
            Outcome::Failed(_) => None,
        })
        .flatten()
        .collect();
    all.sort_by(|a, b| {
        b.0.severity
            .cmp(&a.0.severity)
            .then(a.0.cause.slug().cmp(b.0.cause.slug()))
            .then(a.1.cmp(b.1))
    });
    for (row, context) in &all {
        causes.push([
            row.cause.slug().to_string(),
            row.code.to_string(),
            sanitize(context),
            row.severity.as_str().to_string(),
            row.findings.to_string(),
            row.workloads.to_string(),
            row.pods.to_string(),
        ]);
    }
    if causes.len() > 1 {
        out.push('\n');
        out.push_str(&table(&causes));
    }
    out
}

/// Columns padded to their widest cell, two spaces apart; the last column unpadded.
fn table<const N: usize>(rows: &[[String; N]]) -> String {
    let mut widths = [0usize; N];
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let mut out = String::new();
    for row in rows {
        let mut line = String::new();
        for (i, cell) in row.iter().enumerate() {
            if i + 1 == N {
                line.push_str(cell);
            } else {
                line.push_str(cell);
                line.push_str(&" ".repeat(widths[i] - cell.chars().count() + 2));
            }
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Each cluster's report under a heading naming it, after the summary (text or Markdown).
pub fn reports(clusters: &[Cluster], markdown: bool) -> String {
    let mut out = String::new();
    for c in clusters {
        let Outcome::Read(r) = &c.outcome else {
            continue;
        };
        let name = sanitize(&c.context);
        let server = sanitize(&c.server);
        if markdown {
            out.push_str(&format!("\n# Cluster `{name}` ({server})\n\n"));
        } else {
            out.push_str(&format!("\n=== cluster {name} ({server}) ===\n\n"));
        }
        out.push_str(&r.report);
    }
    out
}

/// The fleet's JSON document: each cluster's row (its summary, snapshot and input problems, or
/// why it could not be read), then every finding and unexplained pod of every cluster, each
/// with `cluster` (docs/json-schema.md).
pub fn json_doc(clusters: &[Cluster]) -> String {
    let mut rows = Vec::new();
    let mut findings = Vec::new();
    let mut unexplained = Vec::new();
    for c in clusters {
        let mut row = json!({
            "context": sanitize(&c.context),
            "server": sanitize(&c.server),
            "seconds": (c.seconds * 10.0).round() / 10.0,
        });
        match &c.outcome {
            Outcome::Failed(why) => {
                row["status"] = json!("failed");
                row["error"] = json!(sanitize(why));
            }
            Outcome::Read(r) => {
                row["status"] = json!("read");
                let doc = r.json.clone().unwrap_or(Value::Null);
                for key in ["snapshot", "inputProblems", "summary"] {
                    row[key] = doc[key].clone();
                }
                for (list, into) in [
                    ("findings", &mut findings),
                    ("unexplained", &mut unexplained),
                ] {
                    for mut item in doc[list].as_array().cloned().unwrap_or_default() {
                        if let Some(o) = item.as_object_mut() {
                            o.insert("cluster".into(), json!(sanitize(&c.context)));
                        }
                        into.push(item);
                    }
                }
            }
        }
        rows.push(row);
    }
    let failed = rows.iter().filter(|r| r["status"] == "failed").count();
    let doc = json!({
        "schemaVersion": SCHEMA_VERSION,
        "tool": {"name": "kubewhy", "version": env!("CARGO_PKG_VERSION")},
        "fleet": {
            "clusters": clusters.len(),
            "read": clusters.len() - failed,
            "failed": failed,
            "findings": findings.len(),
        },
        "clusters": rows,
        "findings": findings,
        "unexplained": unexplained,
    });
    let mut s = serde_json::to_string_pretty(&doc).unwrap_or_default();
    s.push('\n');
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_model::Cause;

    fn row(cause: Cause, severity: Severity, pods: usize) -> CauseRow {
        CauseRow {
            cause,
            code: cause.code(),
            severity,
            findings: 1,
            workloads: 1,
            pods,
            namespaces: 1,
            since: None,
            first: 0,
        }
    }

    fn fleet() -> Vec<Cluster> {
        vec![
            Cluster {
                context: "prod".into(),
                server: "https://10.0.0.1:6443".into(),
                seconds: 1.23,
                outcome: Outcome::Read(Box::new(Read {
                    rows: vec![
                        row(Cause::OomKilled, Severity::Error, 3),
                        row(Cause::InsufficientResources, Severity::Critical, 10),
                    ],
                    findings: 2,
                    unexplained: 0,
                    worst: Some(Severity::Critical),
                    problems: 0,
                    warnings: Vec::new(),
                    report: "the report of prod\n".into(),
                    json: Some(json!({
                        "summary": {"findings": 2},
                        "findings": [{"cause": "oom-killed"}, {"cause": "insufficient-resources"}],
                        "unexplained": [],
                    })),
                })),
            },
            Cluster {
                context: "lab\x1b[31m".into(),
                server: "https://127.0.0.1:9".into(),
                seconds: 0.1,
                outcome: Outcome::Failed(
                    "cannot reach the API server at https://127.0.0.1:9: connection refused".into(),
                ),
            },
        ]
    }

    #[test]
    fn the_summary_has_a_row_per_cluster_and_per_cause_and_cluster() {
        let text = summary_text(&fleet());
        assert!(
            text.starts_with("Fleet: 2 cluster(s), 1 read, 1 could not be read; 2 finding(s)\n"),
            "{text}"
        );
        assert!(
            text.contains("prod     https://10.0.0.1:6443  1.2 s  2         critical  13"),
            "{text}"
        );
        assert!(text.contains("lab"), "{text}");
        assert!(!text.contains('\x1b'), "a context's name is sanitized");
        assert!(text.contains("connection refused"));
        let causes: Vec<&str> = text
            .lines()
            .filter(|l| l.contains(" prod ") && l.contains(" KW"))
            .collect();
        assert_eq!(causes.len(), 2, "{text}");
        assert!(
            causes[0].starts_with(
                "insufficient-resources  KW101  prod     critical  1         1          10"
            ),
            "{text}"
        );
        assert!(causes[1].starts_with("oom-killed"), "{text}");
        let reports = reports(&fleet(), false);
        assert_eq!(
            reports,
            "\n=== cluster prod (https://10.0.0.1:6443) ===\n\nthe report of prod\n"
        );
    }

    #[test]
    fn every_finding_names_its_cluster_in_json() {
        let v: Value = serde_json::from_str(&json_doc(&fleet())).unwrap();
        assert_eq!(
            v["fleet"],
            json!({"clusters": 2, "read": 1, "failed": 1, "findings": 2})
        );
        assert_eq!(v["clusters"][0]["status"], "read");
        assert_eq!(v["clusters"][1]["status"], "failed");
        assert!(
            v["clusters"][1]["error"]
                .as_str()
                .unwrap()
                .contains("connection refused")
        );
        for f in v["findings"].as_array().unwrap() {
            assert_eq!(f["cluster"], "prod");
        }
    }
}
