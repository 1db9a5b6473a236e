//! The page `kubewhy watch` serves at `/`: the current findings with their evidence and steps,
//! plain HTML and CSS, readable without JavaScript (it reloads itself through a meta refresh).
//! Every string is sanitized, then HTML-escaped.

use crate::{Report, clean_finding, clean_unexplained};
use std::fmt::Write;

/// HTML-escapes text for element content and attribute values.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// What the page says about the watch beside the findings.
pub struct PageInfo<'a> {
    /// Seconds between reloads of the page.
    pub refresh_seconds: u32,
    /// One line per watch that is not healthy (kind and state).
    pub watch_problems: &'a [String],
    /// Whether every watch has listed once; before that the findings are incomplete.
    pub synced: bool,
}

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:75rem;color:#222}\
h1{font-size:1.4rem}h2{font-size:1.1rem;margin:1.5rem 0 .3rem}\
.sev{display:inline-block;padding:0 .4rem;border-radius:.2rem;color:#fff;font-size:.8rem}\
.critical{background:#8b0000}.error{background:#c0392b}.warning{background:#b7791f}.info{background:#2b6cb0}\
table{border-collapse:collapse;margin:.3rem 0;width:100%}td,th{border:1px solid #ccc;padding:.2rem .4rem;text-align:left;vertical-align:top;font-size:.9rem}\
code,pre{font-family:ui-monospace,monospace;font-size:.85rem}pre{background:#f4f4f4;padding:.3rem;white-space:pre-wrap}\
.note{color:#555}.problem{color:#8b0000}";

pub fn page(r: &Report, info: &PageInfo) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta http-equiv=\"refresh\" content=\"{}\"><title>kubewhy: {} finding(s)</title><style>{STYLE}</style></head><body>\n",
        info.refresh_seconds,
        r.findings.len()
    );
    let _ = writeln!(
        out,
        "<h1>kubewhy: {} finding(s), {} unexplained pod(s)</h1>",
        r.findings.len(),
        r.unexplained.len()
    );
    let _ = writeln!(
        out,
        "<p class=\"note\">{} object(s) watched{}. Also as <a href=\"findings\">JSON</a> and <a href=\"metrics\">metrics</a>.</p>",
        r.snapshot.objects,
        r.snapshot
            .now
            .as_deref()
            .map(|n| format!(", evaluated at {}", esc(n)))
            .unwrap_or_default()
    );
    if !info.synced {
        let _ = writeln!(
            out,
            "<p class=\"problem\">Still listing the cluster: the findings are incomplete.</p>"
        );
    }
    for p in info.watch_problems {
        let _ = writeln!(out, "<p class=\"problem\">{}</p>", esc(&crate::sanitize(p)));
    }
    for w in r.warnings {
        let _ = writeln!(
            out,
            "<p class=\"problem\">{}</p>",
            esc(&crate::sanitize(&w.to_string()))
        );
    }
    if r.findings.is_empty() {
        let _ = writeln!(out, "<p>Nothing is stuck.</p>");
    }
    for (i, f) in r.findings.iter().enumerate() {
        let f = clean_finding(f);
        let sev = f.severity.as_str();
        let _ = writeln!(
            out,
            "<section id=\"f{}\"><h2>{}. <span class=\"sev {sev}\">{}</span> <code>{}</code> ({}): {}</h2>",
            i + 1,
            i + 1,
            sev.to_ascii_uppercase(),
            esc(f.cause.slug()),
            esc(f.code),
            esc(&f.summary)
        );
        let objs: Vec<String> = f
            .objects
            .iter()
            .map(|o| format!("<code>{}</code>", esc(&o.to_string())))
            .collect();
        let _ = writeln!(out, "<p><b>Affects:</b> {}</p>", objs.join(", "));
        let _ = writeln!(
            out,
            "<table><tr><th>evidence</th><th>where</th><th>quote</th></tr>"
        );
        for e in &f.evidence {
            let (on, times) = crate::evidence_where(e);
            let _ = writeln!(
                out,
                "<tr><td>{}</td><td>{}{}</td><td><code>{}</code></td></tr>",
                e.kind.as_str(),
                esc(&on),
                esc(&format!("{}{times}", e.source)),
                esc(&e.quote)
            );
        }
        out.push_str("</table>\n");
        if !f.explanation.is_empty() {
            let _ = writeln!(out, "<p><b>Why:</b> {}</p>", esc(&f.explanation));
        }
        if !f.remediation.is_empty() {
            out.push_str("<ol>\n");
            for s in &f.remediation {
                let note = if s.risk_note.is_empty() {
                    String::new()
                } else {
                    format!(": {}", esc(&s.risk_note))
                };
                let _ = write!(
                    out,
                    "<li>{} <span class=\"note\">(risk: {}{note})</span>",
                    esc(&s.action),
                    s.risk.as_str()
                );
                if let Some(c) = &s.command {
                    let _ = write!(out, "<pre>{}</pre>", esc(c));
                }
                out.push_str("</li>\n");
            }
            out.push_str("</ol>\n");
        }
        let _ = writeln!(
            out,
            "<p class=\"note\">Confidence: {:?}. <code>kubewhy explain {}</code></p></section>",
            f.confidence,
            esc(f.cause.slug())
        );
    }
    if !r.unexplained.is_empty() {
        out.push_str(
            "<h2>Not explained</h2>\n<table><tr><th>pod</th><th>status</th><th>next step</th></tr>\n",
        );
        for u in r.unexplained {
            let u = clean_unexplained(u);
            let _ = writeln!(
                out,
                "<tr><td><code>{}</code></td><td>{}</td><td><code>{}</code></td></tr>",
                esc(&u.object.path()),
                esc(&u.status),
                esc(&u.next)
            );
        }
        out.push_str("</table>\n");
    }
    out.push_str("</body></html>\n");
    out
}
