//! The page `kubewhy watch` serves at `/`: an overview table (one row per cause) that fits the
//! first screen, then each finding with its workloads, a capped and sorted pod list, its
//! evidence and steps. Plain HTML and CSS, readable without JavaScript (it reloads itself
//! through a meta refresh; the namespace filter is a GET form). Every string is sanitized, then
//! HTML-escaped. Bounded at any scale: 10,000 broken pods make a page of tens of kilobytes, the
//! JSON at `/findings` holds everything.

use crate::overview::{age, overview, thousands, workloads_line};
use crate::{Report, clean_finding, clean_unexplained};
use kubewhy_model::workload::natural_cmp;
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

/// Percent-encodes a query value (namespace names are DNS labels; be exact anyway).
fn query(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// What the page says about the watch beside the findings.
pub struct PageInfo<'a> {
    /// Seconds between reloads of the page.
    pub refresh_seconds: u32,
    /// One line per watch that is not healthy (kind and state).
    pub watch_problems: &'a [String],
    /// Whether every watch has listed once; before that the findings are incomplete.
    pub synced: bool,
    /// What the findings need and cannot be read (pods, events, nodes, namespaces refused or
    /// failing): the page says it is degraded and never "Nothing is stuck".
    pub degraded: &'a [String],
    /// The namespace the page shows (`/?namespace=shop`); `None`: all.
    pub namespace: Option<&'a str>,
    /// The namespaces the filter offers (those with a finding or an unexplained pod).
    pub namespaces: &'a [String],
}

/// Findings shown in full; beyond, the overview still counts them and the filter narrows.
const MAX_FINDINGS: usize = 60;
/// Pods listed per finding, sorted; the rest are counted.
const MAX_PODS: usize = 30;
/// Evidence rows per finding.
const MAX_EVIDENCE: usize = 12;
/// Unexplained pods listed.
const MAX_UNEXPLAINED: usize = 100;

const STYLE: &str = "body{font-family:system-ui,sans-serif;margin:1rem 1.5rem;max-width:90rem;color:#222}\
h1{font-size:1.3rem;margin:.2rem 0}h2{font-size:1.1rem;margin:1.2rem 0 .3rem}h3{font-size:1rem;margin:1.4rem 0 .3rem}\
.sev{display:inline-block;padding:0 .4rem;border-radius:.2rem;color:#fff;font-size:.8rem}\
.critical{background:#8b0000}.error{background:#c0392b}.warning{background:#b7791f}.info{background:#2b6cb0}\
table{border-collapse:collapse;margin:.3rem 0;width:100%}td,th{border:1px solid #ccc;padding:.2rem .4rem;text-align:left;vertical-align:top;font-size:.9rem}\
th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums}\
code,pre{font-family:ui-monospace,monospace;font-size:.85rem}pre{background:#f4f4f4;padding:.3rem;white-space:pre-wrap;margin:.2rem 0}\
details{margin:.3rem 0}summary{cursor:pointer}ul.pods{columns:3 22rem;margin:.3rem 0}\
.note{color:#555}.problem{color:#8b0000;margin:.2rem 0}form{margin:.4rem 0}";

pub fn page(r: &Report, info: &PageInfo) -> String {
    let mut out = String::new();
    let pods: usize = r
        .findings
        .iter()
        .flat_map(|f| &f.objects)
        .filter(|o| o.kind == "Pod")
        .count();
    let title_scope = info
        .namespace
        .map(|n| format!(" in {}", esc(&crate::sanitize(n))))
        .unwrap_or_default();
    let _ = write!(
        out,
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width,initial-scale=1\">\
<meta http-equiv=\"refresh\" content=\"{}\"><title>kubewhy: {} finding(s){title_scope}</title><style>{STYLE}</style></head><body>\n",
        info.refresh_seconds,
        r.findings.len()
    );
    let _ = writeln!(
        out,
        "<h1>kubewhy: {} finding(s) affecting {} pod(s){title_scope}, {} unexplained</h1>",
        thousands(r.findings.len()),
        thousands(pods),
        thousands(r.unexplained.len())
    );
    let _ = writeln!(
        out,
        "<p class=\"note\">{} object(s) watched{}. Also as <a href=\"findings\">JSON</a> and <a href=\"metrics\">metrics</a>.</p>",
        thousands(r.snapshot.objects),
        r.snapshot
            .now
            .as_deref()
            .map(|n| format!(", evaluated at {}", esc(n)))
            .unwrap_or_default()
    );
    if !info.degraded.is_empty() {
        let _ = writeln!(
            out,
            "<div class=\"problem\" id=\"degraded\"><strong>Degraded:</strong> what the findings need cannot be read, so they are incomplete.<ul>"
        );
        for d in info.degraded {
            let _ = writeln!(out, "<li>{}</li>", esc(&crate::sanitize(d)));
        }
        let _ = writeln!(out, "</ul></div>");
    } else if !info.synced {
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
    filter_form(&mut out, info);
    if r.findings.is_empty() && !info.degraded.is_empty() {
        let _ = writeln!(out, "<p>Nothing found in what could be read.</p>");
    } else if r.findings.is_empty() {
        let _ = writeln!(out, "<p>Nothing is stuck.</p>");
    } else {
        overview_table(&mut out, r);
    }
    for (i, f) in r.findings.iter().enumerate().take(MAX_FINDINGS) {
        finding_section(&mut out, i, &clean_finding(f));
    }
    if r.findings.len() > MAX_FINDINGS {
        let _ = writeln!(
            out,
            "<p class=\"note\">{} more finding(s) are in the overview above and in the <a href=\"findings\">JSON</a>; choose a namespace to see them here.</p>",
            thousands(r.findings.len() - MAX_FINDINGS)
        );
    }
    if !r.unexplained.is_empty() {
        out.push_str(
            "<h2 id=\"unexplained\">Not explained</h2>\n<table><tr><th>pod</th><th>status</th><th>next step</th></tr>\n",
        );
        for u in r.unexplained.iter().take(MAX_UNEXPLAINED) {
            let u = clean_unexplained(u);
            let _ = writeln!(
                out,
                "<tr><td><code>{}</code></td><td>{}{}</td><td><code>{}</code></td></tr>",
                esc(&u.object.path()),
                esc(&u.status),
                if u.reason.is_empty() {
                    String::new()
                } else {
                    format!("<br><span class=\"note\">{}</span>", esc(&u.reason))
                },
                esc(&u.next)
            );
        }
        out.push_str("</table>\n");
        if r.unexplained.len() > MAX_UNEXPLAINED {
            let _ = writeln!(
                out,
                "<p class=\"note\">and {} more (the JSON lists them all).</p>",
                thousands(r.unexplained.len() - MAX_UNEXPLAINED)
            );
        }
    }
    out.push_str("</body></html>\n");
    out
}

/// The namespace filter: a GET form (no JavaScript), shown when there is more than one
/// namespace to choose from or a filter to clear.
fn filter_form(out: &mut String, info: &PageInfo) {
    if info.namespaces.len() < 2 && info.namespace.is_none() {
        return;
    }
    out.push_str("<form method=\"get\" action=\"./\"><label>Namespace <select name=\"namespace\">");
    let _ = write!(
        out,
        "<option value=\"\"{}>all</option>",
        if info.namespace.is_none() {
            " selected"
        } else {
            ""
        }
    );
    let mut shown = false;
    for n in info.namespaces {
        let n = crate::sanitize(n);
        let selected = info.namespace == Some(n.as_str());
        shown |= selected;
        let _ = write!(
            out,
            "<option value=\"{}\"{}>{}</option>",
            esc(&n),
            if selected { " selected" } else { "" },
            esc(&n)
        );
    }
    if let (Some(n), false) = (info.namespace, shown) {
        let n = crate::sanitize(n);
        let _ = write!(
            out,
            "<option value=\"{}\" selected>{} (nothing found)</option>",
            esc(&n),
            esc(&n)
        );
    }
    out.push_str("</select></label> <button type=\"submit\">Show</button>");
    if let Some(n) = info.namespace {
        let _ = write!(
            out,
            " <a href=\"./\">all namespaces</a> · <a href=\"findings\">JSON</a> · this view: <code>?namespace={}</code>",
            esc(&query(&crate::sanitize(n)))
        );
    }
    out.push_str("</form>\n");
}

fn overview_table(out: &mut String, r: &Report) {
    out.push_str(
        "<table id=\"overview\"><tr><th>#</th><th>severity</th><th>cause</th><th>namespaces</th><th>workloads</th><th>pods</th><th>findings</th><th>since</th></tr>\n",
    );
    for row in overview(r.findings) {
        let sev = row.severity.as_str();
        let first = &r.findings[row.first];
        let _ = writeln!(
            out,
            "<tr><td class=\"n\"><a href=\"#f{n}\">{n}</a></td><td><span class=\"sev {sev}\">{}</span></td><td><a href=\"#f{n}\"><code>{}</code></a> <span class=\"note\">{}</span></td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            sev.to_ascii_uppercase(),
            esc(row.cause.slug()),
            esc(&crate::sanitize(&first.summary)),
            thousands(row.namespaces),
            thousands(row.workloads),
            thousands(row.pods),
            thousands(row.findings),
            esc(&age(row.since, r.snapshot.now.as_deref())),
            n = row.first + 1,
        );
    }
    out.push_str("</table>\n");
}

fn finding_section(out: &mut String, i: usize, f: &kubewhy_model::Finding) {
    let sev = f.severity.as_str();
    let _ = writeln!(
        out,
        "<section id=\"f{n}\"><h3>{n}. <span class=\"sev {sev}\">{}</span> <code>{}</code> ({}): {}</h3>",
        sev.to_ascii_uppercase(),
        esc(f.cause.slug()),
        esc(f.code),
        esc(&f.summary),
        n = i + 1,
    );
    let workloads = workloads_line(&f.workloads);
    if !workloads.is_empty() {
        let _ = writeln!(out, "<p><b>Workloads:</b> {}</p>", esc(&workloads));
    }
    // The pods, sorted, capped; other objects (nodes, namespaces, claims) always named.
    let mut pods: Vec<String> = f
        .objects
        .iter()
        .filter(|o| o.kind == "Pod")
        .map(|o| o.path())
        .collect();
    pods.sort_by(|a, b| natural_cmp(a, b));
    let others: Vec<String> = f
        .objects
        .iter()
        .filter(|o| o.kind != "Pod")
        .map(|o| format!("<code>{}</code>", esc(&o.to_string())))
        .collect();
    if !others.is_empty() {
        let _ = writeln!(out, "<p><b>Affects:</b> {}</p>", others.join(", "));
    }
    if !pods.is_empty() {
        let _ = write!(
            out,
            "<details{}><summary>{} pod(s)</summary><ul class=\"pods\">",
            if pods.len() <= 5 { " open" } else { "" },
            thousands(pods.len())
        );
        for p in pods.iter().take(MAX_PODS) {
            let _ = write!(out, "<li><code>{}</code></li>", esc(p));
        }
        out.push_str("</ul>");
        if pods.len() > MAX_PODS {
            let _ = write!(
                out,
                "<p class=\"note\">and {} more (the JSON lists every pod)</p>",
                thousands(pods.len() - MAX_PODS)
            );
        }
        out.push_str("</details>\n");
    }
    let _ = writeln!(
        out,
        "<details open><summary>Evidence</summary><table><tr><th>evidence</th><th>where</th><th>quote</th></tr>"
    );
    for e in f.evidence.iter().take(MAX_EVIDENCE) {
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
    out.push_str("</table>");
    if f.evidence.len() > MAX_EVIDENCE {
        let _ = write!(
            out,
            "<p class=\"note\">and {} more evidence line(s) in the JSON</p>",
            f.evidence.len() - MAX_EVIDENCE
        );
    }
    out.push_str("</details>\n");
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
            if let Some(c) = &s.snippet {
                let _ = write!(out, "<pre class=\"snippet\">{}</pre>", esc(c));
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
