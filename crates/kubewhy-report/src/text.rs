//! The terminal report: grouped by cause, most severe first. Styles are always emitted; the
//! binary writes through anstream, which drops them when stdout is not a terminal or NO_COLOR
//! is set.

use crate::{Report, clean_finding, clean_unexplained};
use anstyle::{AnsiColor, Style};
use kubewhy_model::{Finding, Severity};
use std::fmt::Write;

const WIDTH: usize = 100;
const MAX_OBJECTS: usize = 10;

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
            format!(" affecting {pods} pod(s)")
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
        if r.snapshot.objects == 0 {
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
    for (i, f) in r.findings.iter().enumerate() {
        let f = clean_finding(f);
        out.push('\n');
        finding_block(&mut out, i + 1, &f, bold, dim);
    }
    if !r.unexplained.is_empty() {
        let _ = writeln!(
            out,
            "\n{}  {} pod(s) are unhealthy but the data does not show why",
            paint(sev_style(Severity::Warning), "NOT EXPLAINED"),
            r.unexplained.len()
        );
        for u in r.unexplained {
            let u = clean_unexplained(u);
            let _ = writeln!(
                out,
                "  {:<50} {:<24} → {}",
                u.object.to_string(),
                u.status,
                paint(dim, &u.next)
            );
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
    let _ = writeln!(
        out,
        "   {}  {}{}",
        paint(bold, "affects"),
        shown.join(", "),
        if more > 0 {
            format!(" … and {more} more")
        } else {
            String::new()
        }
    );
    let _ = writeln!(out, "   {}", paint(bold, "evidence"));
    for e in &f.evidence {
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
                let _ = writeln!(out, "        $ {c}");
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
