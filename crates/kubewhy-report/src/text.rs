//! The terminal report: grouped by cause, most severe first. Styles are always emitted; the
//! binary writes through anstream, which drops them when stdout is not a terminal or NO_COLOR
//! is set.

use crate::overview::{OVERVIEW_AFTER, age, overview, thousands, workloads_line};
use crate::{Report, clean_finding, clean_unexplained};
use anstyle::{AnsiColor, Style};
use kubewhy_model::{Finding, Severity};
use std::fmt::Write;

const WIDTH: usize = 100;
const MAX_OBJECTS: usize = 10;
/// Evidence lines shown per finding; a finding merged from thousands of pods can carry more.
const MAX_EVIDENCE: usize = 12;

fn sev_style(s: Severity) -> Style {
    let c = match s {
        Severity::Critical => AnsiColor::BrightRed,
        Severity::Error => AnsiColor::Red,
        Severity::Warning => AnsiColor::Yellow,
        Severity::Info => AnsiColor::Cyan,
    };
    Style::new().fg_color(Some(c.into())).bold()
}

pub(crate) fn paint(style: Style, s: &str) -> String {
    format!("{style}{s}{style:#}")
}

pub(crate) fn render(r: &Report) -> String {
    let bold = Style::new().bold();
    let dim = Style::new().dimmed();
    let mut out = String::new();
    let pods: usize = r
        .findings
        .iter()
        .flat_map(|f| &f.objects)
        .filter(|o| o.kind == "Pod")
        .count();
    let _ = writeln!(
        out,
        "{} {} finding(s){}{}",
        paint(bold, "kubewhy:"),
        r.findings.len(),
        if pods > 0 {
            format!(" affecting {} pod(s)", thousands(pods))
        } else {
            String::new()
        },
        r.snapshot
            .now
            .as_deref()
            .map(|n| format!(" — snapshot as of {n}"))
            .unwrap_or_default()
    );
    if r.findings.is_empty() && r.unexplained.is_empty() {
        if r.snapshot.objects == 0 && !r.snapshot.live {
            // Not "no problems": nothing was there to judge.
            let _ = writeln!(
                out,
                "\nNothing to diagnose: the input held no object and no failure message kubewhy knows."
            );
        } else {
            let _ = writeln!(
                out,
                "\nNo problems found in {} object(s).",
                r.snapshot.objects
            );
        }
    }
    if r.summary_only || r.findings.len() > OVERVIEW_AFTER {
        out.push('\n');
        overview_table(&mut out, r, bold);
    }
    if !r.summary_only {
        for (i, f) in r.findings.iter().enumerate() {
            let f = clean_finding(f);
            out.push('\n');
            finding_block(&mut out, i + 1, &f, bold, dim);
        }
    }
    if !r.unexplained.is_empty() {
        let namespaces = r
            .unexplained
            .iter()
            .filter(|u| u.object.kind == "Namespace")
            .count();
        let pods = r.unexplained.len() - namespaces;
        let what = match (pods, namespaces) {
            (p, 0) => format!("{p} pod(s) are unhealthy"),
            (0, n) => format!("{n} namespace(s) are stuck deleting"),
            (p, n) => format!("{p} pod(s) are unhealthy and {n} namespace(s) stuck deleting"),
        };
        let _ = writeln!(
            out,
            "\n{}  {what} but the data does not show why",
            paint(sev_style(Severity::Warning), "NOT EXPLAINED"),
        );
        let shown = if r.summary_only {
            0
        } else {
            r.unexplained.len()
        };
        for u in r.unexplained.iter().take(shown) {
            let u = clean_unexplained(u);
            let _ = writeln!(
                out,
                "  {:<50} {:<24} → {}",
                u.object.to_string(),
                u.status,
                paint(dim, &u.next)
            );
            if !u.reason.is_empty() {
                for line in wrap(&u.reason, WIDTH - 6) {
                    let _ = writeln!(out, "    {}", paint(dim, &line));
                }
            }
        }
    }
    if !r.warnings.is_empty() {
        let _ = writeln!(
            out,
            "\n{} input problem(s) were reported on stderr; the rest of the input was diagnosed.",
            r.warnings.len()
        );
    }
    out
}

/// The overview: one row per cause, in the order of the details below it.
fn overview_table(out: &mut String, r: &Report, bold: Style) {
    let rows = overview(r.findings);
    let head = [
        "#",
        "SEVERITY",
        "CAUSE",
        "FINDINGS",
        "WORKLOADS",
        "PODS",
        "NAMESPACES",
        "SINCE",
    ];
    let cells: Vec<[String; 8]> = rows
        .iter()
        .map(|row| {
            [
                (row.first + 1).to_string(),
                row.severity.as_str().to_ascii_uppercase(),
                row.cause.slug().to_string(),
                thousands(row.findings),
                thousands(row.workloads),
                thousands(row.pods),
                thousands(row.namespaces),
                age(row.since, r.snapshot.now.as_deref()),
            ]
        })
        .collect();
    let mut width = head.map(str::len);
    for c in &cells {
        for (w, s) in width.iter_mut().zip(c) {
            *w = (*w).max(s.chars().count());
        }
    }
    // Numbers right-aligned, words left-aligned.
    let numeric = [true, false, false, true, true, true, true, false];
    let line = |cells: &[String], style: Option<(usize, Style)>| -> String {
        let mut l = String::from("  ");
        for (i, c) in cells.iter().enumerate() {
            let padded = if numeric[i] {
                format!("{c:>w$}", w = width[i])
            } else {
                format!("{c:<w$}", w = width[i])
            };
            match style {
                Some((col, st)) if col == i => l.push_str(&paint(st, &padded)),
                _ => l.push_str(&padded),
            }
            l.push_str("  ");
        }
        l.trim_end().to_string()
    };
    let head: Vec<String> = head.iter().map(|h| h.to_string()).collect();
    let _ = writeln!(out, "{}", paint(bold, &line(&head, None)));
    for (row, c) in rows.iter().zip(&cells) {
        let _ = writeln!(out, "{}", line(c, Some((1, sev_style(row.severity)))));
    }
    if r.summary_only {
        let _ = writeln!(
            out,
            "\nThe details of each finding: the same command without --summary (# is the finding's number)."
        );
    }
}

pub(crate) fn finding_block(out: &mut String, n: usize, f: &Finding, bold: Style, dim: Style) {
    let _ = writeln!(
        out,
        "{n}. {} {} {}  {}",
        paint(
            sev_style(f.severity),
            &f.severity.as_str().to_ascii_uppercase()
        ),
        paint(bold, f.cause.slug()),
        paint(dim, f.code),
        paint(bold, &f.summary)
    );
    let shown: Vec<String> = f
        .objects
        .iter()
        .take(MAX_OBJECTS)
        .map(|o| o.to_string())
        .collect();
    let more = f.objects.len().saturating_sub(MAX_OBJECTS);
    let workloads = workloads_line(&f.workloads);
    if !workloads.is_empty() {
        let _ = writeln!(out, "   {}  {}", paint(bold, "workloads"), workloads);
    }
    let _ = writeln!(
        out,
        "   {}  {}{}",
        paint(bold, "affects"),
        shown.join(", "),
        if more > 0 {
            format!(" … and {} more", thousands(more))
        } else {
            String::new()
        }
    );
    let _ = writeln!(out, "   {}", paint(bold, "evidence"));
    let hidden = f.evidence.len().saturating_sub(MAX_EVIDENCE);
    for e in f.evidence.iter().take(MAX_EVIDENCE) {
        let on = e
            .object
            .as_ref()
            .map(|o| format!("{o} "))
            .unwrap_or_default();
        let times = if e.occurrences > 1 {
            format!(" (on {} objects)", e.occurrences)
        } else {
            String::new()
        };
        let _ = writeln!(
            out,
            "     {:<9} {}{}{}",
            e.kind.as_str(),
            paint(dim, &on),
            paint(dim, &e.source),
            paint(dim, &times)
        );
        for line in e.quote.lines() {
            let _ = writeln!(out, "               │ {line}");
        }
    }
    if hidden > 0 {
        let _ = writeln!(
            out,
            "     {}",
            paint(
                dim,
                &format!("… and {hidden} more evidence line(s): -o json holds them all")
            )
        );
    }
    if !f.explanation.is_empty() {
        let _ = writeln!(out, "   {}", paint(bold, "why"));
        for line in wrap(&f.explanation, WIDTH - 5) {
            let _ = writeln!(out, "     {line}");
        }
    }
    if !f.remediation.is_empty() {
        let _ = writeln!(out, "   {}", paint(bold, "fix"));
        for (i, s) in f.remediation.iter().enumerate() {
            let _ = writeln!(
                out,
                "     {}. {} {}",
                i + 1,
                s.action,
                paint(dim, &format!("[risk: {}]", s.risk.as_str()))
            );
            if let Some(c) = &s.command {
                for line in c.lines() {
                    let _ = writeln!(out, "        $ {line}");
                }
            }
            if let Some(snippet) = &s.snippet {
                for line in snippet.lines() {
                    let _ = writeln!(out, "        │ {line}");
                }
            }
            if !s.risk_note.is_empty() {
                for line in wrap(&s.risk_note, WIDTH - 10) {
                    let _ = writeln!(out, "        {}", paint(dim, &line));
                }
            }
        }
    }
    let _ = writeln!(
        out,
        "   {}",
        paint(
            dim,
            &format!(
                "confidence {:?} · more: kubewhy explain {}",
                f.confidence,
                f.cause.slug()
            )
            .to_lowercase()
        )
    );
}

fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    for para in text.lines() {
        let mut line = String::new();
        for word in para.split(' ') {
            if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
                lines.push(std::mem::take(&mut line));
            }
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
        lines.push(line);
    }
    lines
}
