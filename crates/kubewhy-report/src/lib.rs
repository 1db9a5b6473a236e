//! Renders a diagnosis as text, JSON, Markdown or an HTML page (watch mode): the only place that knows output formats.
//!
//! Every string that came from the cluster or from logs passes through [`sanitize`] before it
//! is written, in every format: terminal escape sequences and control characters never reach
//! the user's terminal.

pub mod catalogue;
pub mod fleet;
mod gone;
mod html;
mod markdown;
pub mod metrics;
pub mod overview;
mod plan;
mod sanitize;
mod text;

use kubewhy_model::{Finding, InputWarning, Severity, Unexplained};
use serde::Serialize;
use std::collections::BTreeMap;

pub use gone::{GoneReport, gone_json, gone_text};
pub use html::{PageInfo, page as html_page};
pub use plan::{journal_text, plan_text, undo_json, undo_text, waited_text};
pub use sanitize::sanitize;

/// `kubewhy fix -o json`: the plan, and the journal when it was applied. JSON escapes every
/// control character, so strings from the cluster cannot reach a terminal raw.
pub fn fix_json(
    plan: &kubewhy_model::plan::Plan,
    journal: Option<&kubewhy_model::plan::Journal>,
    backup: Option<&str>,
) -> String {
    let v = serde_json::json!({"schemaVersion": SCHEMA_VERSION, "plan": plan, "journal": journal, "backup": backup});
    serde_json::to_string_pretty(&v).unwrap_or_default() + "\n"
}

/// What was read of a `--node-logs` bundle, and what could not be collected: the notes said on
/// stderr (sanitized).
pub fn node_bundle_notes(b: &kubewhy_model::node::NodeBundle) -> Vec<String> {
    let node = match (&b.node, &b.hostname) {
        (Some(n), _) => format!("node {n}"),
        (None, Some(h)) => format!("host {h}"),
        (None, None) => {
            "node not named (lines are tied to nodes by their host names and pods)".into()
        }
    };
    let mut parts = vec![
        node,
        format!("{} lines read, {} that matter", b.lines_read, b.lines.len()),
    ];
    if !b.lists.is_empty() {
        parts.push(format!("lists: {}", b.lists.join(", ")));
    }
    let origin = sanitize(&b.origin);
    let mut notes = vec![format!(
        "node evidence {origin}: {}",
        sanitize(&parts.join("; "))
    )];
    for n in &b.notes {
        notes.push(format!("{origin}: not collected: {}", sanitize(n)));
    }
    notes
}

/// The version of the JSON document's layout (docs/json-schema.md). Bumped on any breaking change.
pub const SCHEMA_VERSION: u32 = 1;

/// Everything a report shows.
pub struct Report<'a> {
    pub findings: &'a [Finding],
    pub unexplained: &'a [Unexplained],
    pub warnings: &'a [InputWarning],
    pub snapshot: SnapshotInfo,
    /// Only the overview (one row per cause), not each finding's details (`--summary`).
    pub summary_only: bool,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnapshotInfo {
    /// The moment the diagnosis is made for (RFC 3339).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub now: Option<String>,
    pub files: usize,
    pub objects: usize,
    /// Objects read per kind.
    pub kinds: BTreeMap<String, usize>,
    /// Read from a live cluster: no object read means an empty scope, not missing input.
    #[serde(skip)]
    pub live: bool,
}

impl SnapshotInfo {
    /// What a report says of `snap`: its time, objects and kinds; `files` read; `live`.
    pub fn of(snap: &kubewhy_model::Snapshot, files: usize, live: bool) -> SnapshotInfo {
        SnapshotInfo {
            now: snap.now.map(|t| t.to_string()),
            files,
            objects: snap.object_count(),
            kinds: snap.kinds_loaded.clone(),
            live,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    Text,
    Json,
    Markdown,
}

/// Writes the report: JSON straight to the writer (a report of thousands of findings is never
/// held as one string), text and Markdown rendered first.
pub fn write(report: &Report, format: Format, w: &mut dyn std::io::Write) -> std::io::Result<()> {
    match format {
        Format::Json => {
            serde_json::to_writer_pretty(&mut *w, &json_doc(report))
                .map_err(std::io::Error::other)?;
            w.write_all(b"\n")
        }
        _ => w.write_all(render(report, format).as_bytes()),
    }
}

pub fn render(report: &Report, format: Format) -> String {
    match format {
        Format::Text => text::render(report),
        Format::Json => json(report),
        Format::Markdown => markdown::render(report),
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct JsonDoc<'a> {
    schema_version: u32,
    tool: Tool,
    snapshot: SnapshotInfo,
    input_problems: Vec<InputWarning>,
    summary: Summary,
    /// Left out with `--summary`.
    #[serde(skip_serializing_if = "Option::is_none")]
    findings: Option<Vec<std::borrow::Cow<'a, Finding>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    unexplained: Option<Vec<Unexplained>>,
}

#[derive(Serialize)]
struct Tool {
    name: &'static str,
    version: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct Summary {
    findings: usize,
    affected_objects: usize,
    by_severity: BTreeMap<&'static str, usize>,
    by_cause: BTreeMap<&'static str, usize>,
    /// One row per cause, in the order of the findings: what the text report's overview shows.
    causes: Vec<overview::CauseRow>,
    unexplained: usize,
}

fn summary(r: &Report) -> Summary {
    let mut by_severity = BTreeMap::new();
    let mut by_cause = BTreeMap::new();
    for f in r.findings {
        *by_severity.entry(f.severity.as_str()).or_insert(0) += 1;
        *by_cause.entry(f.cause.slug()).or_insert(0) += 1;
    }
    Summary {
        findings: r.findings.len(),
        affected_objects: r.findings.iter().map(|f| f.objects.len()).sum(),
        by_severity,
        by_cause,
        causes: overview::overview(r.findings),
        unexplained: r.unexplained.len(),
    }
}

/// An evidence line's object ("Pod shop/web-1: ") and repeat count (" (×3)"), as the Markdown
/// and HTML formats show them.
pub(crate) fn evidence_where(e: &kubewhy_model::Evidence) -> (String, String) {
    let on = e
        .object
        .as_ref()
        .map(|o| format!("{o}: "))
        .unwrap_or_default();
    let times = if e.occurrences > 1 {
        format!(" (×{})", e.occurrences)
    } else {
        String::new()
    };
    (on, times)
}

/// A deep copy with every cluster-sourced string sanitized.
pub(crate) fn clean_finding(f: &Finding) -> Finding {
    let mut f = f.clone();
    f.summary = sanitize(&f.summary);
    f.explanation = sanitize(&f.explanation);
    for o in &mut f.objects {
        clean_key(o);
    }
    for w in &mut f.workloads {
        w.kind = sanitize(&w.kind).into();
        w.namespace = sanitize(&w.namespace).into();
        w.name = sanitize(&w.name).into();
    }
    for e in &mut f.evidence {
        e.source = sanitize(&e.source);
        e.quote = sanitize(&e.quote);
        if let Some(o) = &mut e.object {
            clean_key(o);
        }
    }
    for s in &mut f.remediation {
        s.action = sanitize(&s.action);
        s.command = s.command.as_deref().map(sanitize);
        s.snippet = s.snippet.as_deref().map(sanitize);
        s.risk_note = sanitize(&s.risk_note);
    }
    f
}

fn finding_is_clean(f: &Finding) -> bool {
    let key = |o: &kubewhy_model::ObjectKey| {
        [&o.kind, &o.namespace, &o.name, &o.uid]
            .iter()
            .all(|s| sanitize::is_clean(s))
    };
    sanitize::is_clean(&f.summary)
        && sanitize::is_clean(&f.explanation)
        && f.objects.iter().all(key)
        && f.workloads.iter().all(|w| {
            [&w.kind, &w.namespace, &w.name]
                .iter()
                .all(|s| sanitize::is_clean(s))
        })
        && f.evidence.iter().all(|e| {
            sanitize::is_clean(&e.source)
                && sanitize::is_clean(&e.quote)
                && e.object.as_ref().is_none_or(key)
        })
        && f.remediation.iter().all(|s| {
            sanitize::is_clean(&s.action)
                && s.command.as_deref().is_none_or(sanitize::is_clean)
                && s.snippet.as_deref().is_none_or(sanitize::is_clean)
                && sanitize::is_clean(&s.risk_note)
        })
}

pub(crate) fn clean_key(o: &mut kubewhy_model::ObjectKey) {
    o.kind = sanitize(&o.kind).into();
    o.namespace = sanitize(&o.namespace).into();
    o.name = sanitize(&o.name).into();
    o.uid = sanitize(&o.uid).into();
}

pub(crate) fn clean_unexplained(u: &Unexplained) -> Unexplained {
    let mut u = u.clone();
    clean_key(&mut u.object);
    u.status = sanitize(&u.status);
    u.next = sanitize(&u.next);
    u.reason = sanitize(&u.reason);
    u
}

pub(crate) fn clean_warning(w: &InputWarning) -> InputWarning {
    let mut w = w.clone();
    w.file = sanitize(&w.file);
    w.message = sanitize(&w.message);
    w
}

fn json_doc<'a>(r: &Report<'a>) -> JsonDoc<'a> {
    // Kinds come from the data too (a custom resource's kind is whatever the dump says).
    let snapshot = SnapshotInfo {
        kinds: r
            .snapshot
            .kinds
            .iter()
            .map(|(k, n)| (sanitize(k), *n))
            .collect(),
        ..r.snapshot.clone()
    };
    JsonDoc {
        schema_version: SCHEMA_VERSION,
        tool: Tool {
            name: "kubewhy",
            version: env!("CARGO_PKG_VERSION"),
        },
        snapshot,
        input_problems: r.warnings.iter().map(clean_warning).collect(),
        summary: summary(r),
        // Borrowed when already clean (almost always): a large report is not held twice.
        findings: (!r.summary_only).then(|| {
            r.findings
                .iter()
                .map(|f| {
                    if finding_is_clean(f) {
                        std::borrow::Cow::Borrowed(f)
                    } else {
                        std::borrow::Cow::Owned(clean_finding(f))
                    }
                })
                .collect()
        }),
        unexplained: (!r.summary_only)
            .then(|| r.unexplained.iter().map(clean_unexplained).collect()),
    }
}

fn json(r: &Report) -> String {
    let mut s = serde_json::to_string_pretty(&json_doc(r))
        .unwrap_or_else(|e| format!("{{\"error\":\"{e}\"}}"));
    s.push('\n');
    s
}

/// The findings and unexplained pods of one namespace (the page's `?namespace=` filter):
/// objects, workloads and evidence of other namespaces left out, findings left with nothing
/// dropped. Cluster-scoped objects (a node) stay with the namespace's findings.
pub fn in_namespace(
    findings: &[Finding],
    unexplained: &[Unexplained],
    ns: &str,
) -> (Vec<Finding>, Vec<Unexplained>) {
    let keep =
        |o: &kubewhy_model::ObjectKey| o.namespace == ns || (o.kind == "Namespace" && o.name == ns);
    let found = findings
        .iter()
        .filter(|f| f.objects.iter().any(keep))
        .map(|f| {
            let mut f = f.clone();
            f.objects
                .retain(|o| keep(o) || (o.namespace.is_empty() && o.kind != "Namespace"));
            f.workloads.retain(|w| w.namespace == ns);
            f.evidence.retain(|e| {
                e.object
                    .as_ref()
                    .is_none_or(|o| o.namespace.is_empty() || o.namespace == ns)
            });
            f
        })
        .collect();
    let unexplained = unexplained
        .iter()
        .filter(|u| keep(&u.object))
        .cloned()
        .collect();
    (found, unexplained)
}

/// Every namespace that has a finding or an unexplained pod, sorted: what the page's filter
/// offers.
pub fn namespaces_of(findings: &[Finding], unexplained: &[Unexplained]) -> Vec<String> {
    let mut set = std::collections::BTreeSet::new();
    for o in findings
        .iter()
        .flat_map(|f| &f.objects)
        .chain(unexplained.iter().map(|u| &u.object))
    {
        if !o.namespace.is_empty() {
            set.insert(o.namespace.as_str());
        } else if o.kind == "Namespace" {
            set.insert(o.name.as_str());
        }
    }
    set.into_iter().map(str::to_string).collect()
}

/// The most severe finding, for exit codes.
pub fn worst(findings: &[Finding]) -> Option<Severity> {
    findings.iter().map(|f| f.severity).max()
}

#[cfg(test)]
mod tests;
