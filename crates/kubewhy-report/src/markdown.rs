//! Markdown, to paste into a ticket: one section per finding, evidence as a table.

use crate::{Report, clean_finding, clean_unexplained};
use std::fmt::Write;

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
    for (i, f) in r.findings.iter().enumerate() {
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
        let objs: Vec<String> = f.objects.iter().map(|o| code(&o.to_string())).collect();
        let _ = writeln!(out, "**Affects:** {}\n", objs.join(", "));
        let _ = writeln!(
            out,
            "**Evidence**\n\n| kind | where | quote |\n|---|---|---|"
        );
        for e in &f.evidence {
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
                if let Some(c) = &s.command {
                    let _ = writeln!(out, "   ```sh\n   {}\n   ```", c.replace("```", "'''"));
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
    if !r.unexplained.is_empty() {
        let _ = writeln!(
            out,
            "### Not explained\n\n| pod | status | next step |\n|---|---|---|"
        );
        for u in r.unexplained {
            let u = clean_unexplained(u);
            let _ = writeln!(
                out,
                "| {} | {} | {} |",
                cell(&u.object.path()),
                cell(&u.status),
                code(&u.next)
            );
        }
        out.push('\n');
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(out, "### Input problems\n");
        for w in r.warnings {
            let _ = writeln!(out, "- {}", text(&crate::clean_warning(w).to_string()));
        }
    }
    out
}
