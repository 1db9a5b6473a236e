//! Markdown, to paste into a ticket: one section per finding, evidence as a table.

use crate::overview::{OVERVIEW_AFTER, age, overview, thousands, workloads_line};
use crate::{Report, clean_finding, clean_unexplained};
use std::fmt::Write;

/// Objects named per finding; the rest are counted (the JSON output lists them all).
const MAX_OBJECTS: usize = 20;
/// Evidence rows per finding.
const MAX_EVIDENCE: usize = 20;

/// Escapes text for a table cell: pipes, and newlines as <br>.
fn cell(s: &str) -> String {
    s.replace('\\', "\\\\")
        .replace('|', "\\|")
        .replace('\n', "<br>")
        .replace('<', "&lt;")
        .replace("&lt;br>", "<br>")
}

/// Inline code that survives backticks in the content.
fn code(s: &str) -> String {
    let fence = if s.contains('`') { "``" } else { "`" };
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{}{pad}{fence}", s.replace('\n', " "))
}

fn text(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        if "\\`*_[]<>#|".contains(c) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

pub(crate) fn render(r: &Report) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "## kubewhy report\n");
    let _ = writeln!(
        out,
        "{} finding(s), {} unexplained pod(s); {} object(s) from {} file(s){}.\n",
        r.findings.len(),
        r.unexplained.len(),
        r.snapshot.objects,
        r.snapshot.files,
        r.snapshot
            .now
            .as_deref()
            .map(|n| format!(", snapshot as of {n}"))
            .unwrap_or_default()
    );
    if r.summary_only || r.findings.len() > OVERVIEW_AFTER {
        overview_table(r, &mut out);
    }
    let details = if r.summary_only { 0 } else { r.findings.len() };
    for (i, f) in r.findings.iter().take(details).enumerate() {
        finding(i, f, &mut out);
    }
    if !r.unexplained.is_empty() && !r.summary_only {
        unexplained(r, &mut out);
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(out, "### Input problems\n");
        for w in r.warnings {
            let _ = writeln!(out, "- {}", text(&crate::clean_warning(w).to_string()));
        }
    }
    out
}

/// One row per cause.
fn overview_table(r: &Report, out: &mut String) {
    let _ = writeln!(
        out,
        "| # | severity | cause | findings | workloads | pods | namespaces | since |\n|---:|---|---|---:|---:|---:|---:|---|"
    );
    for row in overview(r.findings) {
        let _ = writeln!(
            out,
            "| {} | {} | `{}` | {} | {} | {} | {} | {} |",
            row.first + 1,
            row.severity.as_str().to_ascii_uppercase(),
            row.cause.slug(),
            thousands(row.findings),
            thousands(row.workloads),
            thousands(row.pods),
            thousands(row.namespaces),
            age(row.since, r.snapshot.now.as_deref())
        );
    }
    out.push('\n');
}

/// One finding in full: workloads, objects, evidence, why, fix.
fn finding(i: usize, f: &kubewhy_model::Finding, out: &mut String) {
    let f = clean_finding(f);
    let _ = writeln!(
        out,
        "### {}. {} `{}` ({}): {}\n",
        i + 1,
        f.severity.as_str().to_ascii_uppercase(),
        f.cause.slug(),
        f.code,
        text(&f.summary)
    );
    let workloads = workloads_line(&f.workloads);
    if !workloads.is_empty() {
        let _ = writeln!(out, "**Workloads:** {}\n", text(&workloads));
    }
    let objs: Vec<String> = f
        .objects
        .iter()
        .take(MAX_OBJECTS)
        .map(|o| code(&o.to_string()))
        .collect();
    let more = f.objects.len().saturating_sub(MAX_OBJECTS);
    let more = if more > 0 {
        format!(" … and {} more", thousands(more))
    } else {
        String::new()
    };
    let _ = writeln!(out, "**Affects:** {}{more}\n", objs.join(", "));
    let _ = writeln!(
        out,
        "**Evidence**\n\n| kind | where | quote |\n|---|---|---|"
    );
    for e in f.evidence.iter().take(MAX_EVIDENCE) {
        let (on, times) = crate::evidence_where(e);
        let _ = writeln!(
            out,
            "| {} | {}{}{} | {} |",
            e.kind.as_str(),
            cell(&on),
            cell(&e.source),
            times,
            cell(&e.quote)
        );
    }
    let hidden = f.evidence.len().saturating_sub(MAX_EVIDENCE);
    if hidden > 0 {
        let _ = writeln!(
            out,
            "\n… and {hidden} more evidence line(s): the JSON output holds them all."
        );
    }
    if !f.explanation.is_empty() {
        let _ = writeln!(out, "\n**Why:** {}\n", text(&f.explanation));
    }
    if !f.remediation.is_empty() {
        let _ = writeln!(out, "**Fix:**\n");
        for (n, s) in f.remediation.iter().enumerate() {
            let note = if s.risk_note.is_empty() {
                String::new()
            } else {
                format!(" — {}", text(&s.risk_note))
            };
            let _ = writeln!(
                out,
                "{}. {} (risk: {}{})",
                n + 1,
                text(&s.action),
                s.risk.as_str(),
                note
            );
            for (block, lang) in [(&s.command, "sh"), (&s.snippet, "yaml")] {
                if let Some(c) = block {
                    let body = c.replace("```", "'''").replace('\n', "\n   ");
                    let _ = writeln!(out, "   ```{lang}\n   {body}\n   ```");
                }
            }
        }
        out.push('\n');
    }
    let _ = writeln!(
        out,
        "Confidence: {:?}. `kubewhy explain {}`\n",
        f.confidence,
        f.cause.slug()
    );
}

/// The pods no check explains.
fn unexplained(r: &Report, out: &mut String) {
    let _ = writeln!(
        out,
        "### Not explained\n\n| pod | status | next step |\n|---|---|---|"
    );
    for u in r.unexplained {
        let u = clean_unexplained(u);
        let status = if u.reason.is_empty() {
            u.status.clone()
        } else {
            format!("{}: {}", u.status, u.reason)
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} |",
            cell(&u.object.path()),
            cell(&status),
            code(&u.next)
        );
    }
    out.push('\n');
}
