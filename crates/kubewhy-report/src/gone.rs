//! `kubewhy gone`'s answer, as text or JSON.

use crate::text::{finding_block, paint};
use crate::{SCHEMA_VERSION, clean_finding, clean_key, clean_unexplained, clean_warning, sanitize};
use anstyle::{AnsiColor, Style};
use kubewhy_model::{Finding, InputWarning, ObjectKey, Unexplained};
use std::fmt::Write;

/// What `gone` found, for rendering.
pub struct GoneReport<'a> {
    pub findings: &'a [Finding],
    /// Pods gone (or going) that the data cannot explain, with the source that would.
    pub unknown: &'a [Unexplained],
    /// Pods that exist and are not being removed.
    pub alive: &'a [ObjectKey],
    /// The sources read, as phrases (`audit log: 2 files, 310 deletions`).
    pub sources: &'a [String],
    pub warnings: &'a [InputWarning],
    /// What was asked, for "nothing matched".
    pub query: &'a str,
}

pub fn gone_text(r: &GoneReport) -> String {
    let bold = Style::new().bold();
    let dim = Style::new().dimmed();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} {} answered, {} not explained, {} still there — from {}",
        paint(bold, "kubewhy gone:"),
        r.findings.iter().map(|f| f.objects.len()).sum::<usize>(),
        r.unknown.len(),
        r.alive.len(),
        sanitize(&r.sources.join("; "))
    );
    if r.findings.is_empty() && r.unknown.is_empty() && r.alive.is_empty() {
        let _ = writeln!(
            out,
            "\nNo pod matches {} in any source. Check the namespace (-n), or give the source that saw it: --audit-log, --controller-logs, --record.",
            sanitize(r.query)
        );
    }
    for (i, f) in r.findings.iter().enumerate() {
        out.push('\n');
        finding_block(&mut out, i + 1, &clean_finding(f), bold, dim);
    }
    if !r.unknown.is_empty() {
        let warn = Style::new().fg_color(Some(AnsiColor::Yellow.into())).bold();
        let _ = writeln!(
            out,
            "\n{}  {} pod(s): the data does not show why",
            paint(warn, "CANNOT TELL"),
            r.unknown.len()
        );
        for u in r.unknown {
            let u = clean_unexplained(u);
            let _ = writeln!(
                out,
                "  {}  ({})\n    what would tell: {}",
                u.object,
                u.status,
                paint(dim, &u.next)
            );
        }
    }
    for a in r.alive {
        let mut a = a.clone();
        clean_key(&mut a);
        let _ = writeln!(
            out,
            "\n{a} exists and is not being removed; `kubewhy pod {} -n {}` says whether it is healthy.",
            a.name, a.namespace
        );
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(
            out,
            "\n{} input problem(s) were reported on stderr.",
            r.warnings.len()
        );
    }
    out
}

pub fn gone_json(r: &GoneReport) -> String {
    let v = serde_json::json!({
        "schemaVersion": SCHEMA_VERSION,
        "tool": {"name": "kubewhy", "version": env!("CARGO_PKG_VERSION")},
        "sources": r.sources.iter().map(|s| sanitize(s)).collect::<Vec<_>>(),
        "inputProblems": r.warnings.iter().map(clean_warning).collect::<Vec<_>>(),
        "findings": r.findings.iter().map(clean_finding).collect::<Vec<_>>(),
        "cannotTell": r.unknown.iter().map(clean_unexplained).collect::<Vec<_>>(),
        "alive": r.alive.iter().map(|a| { let mut a = a.clone(); clean_key(&mut a); a }).collect::<Vec<_>>(),
    });
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}
