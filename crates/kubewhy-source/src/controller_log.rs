//! kube-controller-manager logs: the lines in which the pod garbage collector and the taint
//! manager say which pod they delete, in klog's text format (old printf wording and new
//! structured wording), in its JSON format, with or without a journald / syslog / container-log
//! prefix. Everything else is skipped.
//!
//! Real 1.20 lines (`pkg/controller/podgc/gc_controller.go`):
//! `I1123 00:19:03.552119   10834 gc_controller.go:142] garbage collecting 3 pods`, then one
//! `PodGC is force deleting Pod: rc-scn/done-3` per pod. Every rule logs the force-delete line;
//! what tells them apart is the line beside it: the batch line before it (terminated pods over
//! the threshold), `Found orphaned Pod …` / `Found unscheduled terminating Pod …` before it
//! (V(2), absent at the default verbosity), `Forced deletion of orphaned Pod … succeeded` /
//! `Forced deletion of unscheduled terminating Pod … succeeded` after it (V(0)). A success
//! line settles the rule of the force-delete line before it.

use crate::InputWarning;
use jiff::Timestamp;
use kubewhy_model::history::{ControllerAction, ControllerLogEntry};
use regex::Regex;
use std::collections::{HashMap, HashSet};
use std::io::BufRead;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::LazyLock;

/// Longest line quoted as evidence.
const MAX_QUOTE: usize = 400;

/// klog's header: severity, MMDD, time, thread id, file:line.
static KLOG: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"([IWEF])(\d{2})(\d{2}) (\d{2}:\d{2}:\d{2})(\.\d+)?\s+\d+ [^\]\s]+\] (.*)$")
        .expect("klog regex")
});
/// An RFC 3339 time at the start of a line (container logs, `journalctl -o short-iso-precise`).
static LEADING_TIME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2}))")
        .expect("time regex")
});
static BATCH: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"(?i)garbage collecting (\d+) pods|"Garbage collecting pods".*numPods=(\d+)"#)
        .expect("batch regex")
});
/// `key="value"` or `key=value` in a structured klog line.
static KV: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(\w+)=(?:"([^"]*)"|(\S+))"#).expect("kv regex"));
static OLD_FORCE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"PodGC is force deleting Pod: (\S+)/(\S+)").expect("regex"));
static OLD_ORPHAN: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"Found orphaned Pod (\S+)/(\S+) assigned to the Node (\S+?)\. Deleting")
        .expect("regex")
});
static OLD_UNSCHEDULED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"Found unscheduled terminating Pod (\S+)/(\S+) not assigned to any Node")
        .expect("regex")
});
/// The pod GC's success lines (V(0), so at the default verbosity they are the only lines that
/// name the orphan and unscheduled rules; they follow the pod's force-delete line).
static OLD_ORPHAN_DONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"Forced deletion of orphaned Pod (\S+)/(\S+) succeeded").expect("regex")
});
static OLD_UNSCHEDULED_DONE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"Forced deletion of unscheduled terminating Pod (\S+)/(\S+) succeeded")
        .expect("regex")
});
/// A failed request's error, as `utilruntime.HandleError` logs it: `E… gc_controller.go:233]
/// pods "web-1" not found` (klog text), `"Unhandled Error" err="pods \"web-1\" not found"`
/// (structured), or the same inside a JSON line. It names the pod, not its namespace.
static NOT_FOUND: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"pods \\?"([^"\\\s]+)\\?" not found"#).expect("not-found regex"));
static OLD_TAINT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"NoExecuteTaintManager is deleting [Pp]od: (\S+)/(\S+)").expect("regex")
});

/// A line as evidence: bounded.
fn quote_of(raw: &str) -> String {
    let mut quote: String = raw.chars().take(MAX_QUOTE).collect();
    if quote.len() < raw.len() {
        quote.push('…');
    }
    quote
}

/// Where the line's message is and when it was written.
struct Line<'a> {
    message: &'a str,
    time: Option<Timestamp>,
}

/// The year a klog header (which has none) most likely belongs to: the year of `reference`,
/// or the one before when that would put the line in the future.
fn klog_time(caps: &regex::Captures, reference: Option<Timestamp>) -> Option<Timestamp> {
    let reference = reference.unwrap_or_else(Timestamp::now);
    let year = reference.to_zoned(jiff::tz::TimeZone::UTC).year();
    let frac = caps.get(5).map_or("", |m| m.as_str());
    for y in [year, year - 1] {
        let s = format!("{y}-{}-{}T{}{frac}Z", &caps[2], &caps[3], &caps[4]);
        if let Ok(t) = s.parse::<Timestamp>()
            && t <= reference + jiff::SignedDuration::from_hours(24)
        {
            return Some(t);
        }
    }
    None
}

fn split_line(raw: &str, reference: Option<Timestamp>) -> Option<Line<'_>> {
    let leading = LEADING_TIME
        .captures(raw)
        .and_then(|c| c[1].parse::<Timestamp>().ok());
    if let Some(c) = KLOG.captures(raw) {
        let m = c.get(6)?;
        return Some(Line {
            message: m.as_str(),
            time: leading.or_else(|| klog_time(&c, reference)),
        });
    }
    // JSON logging: {"ts":1700000000.123,"msg":"…", …}. The message and its keys are read
    // from the raw line below, as for structured text.
    let start = raw.find('{')?;
    let json = &raw[start..];
    if !json.contains("\"msg\"") {
        return None;
    }
    let v: serde_json::Value = serde_json::from_str(json).ok()?;
    let time = v
        .get("ts")
        .and_then(|t| t.as_f64())
        .and_then(|f| Timestamp::from_millisecond((f * 1000.0) as i64).ok())
        .or(leading);
    Some(Line {
        message: json,
        time,
    })
}

/// `ns/name` from a structured `pod` value: `pod="ns/name"` in text, `"pod":"ns/name"` or
/// `"pod":{"name":…,"namespace":…}` in JSON.
fn structured_pod(message: &str, key: &str) -> Option<(String, String)> {
    if message.starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(message).ok()?;
        return match v.get(key)? {
            serde_json::Value::String(s) => {
                let (ns, n) = s.split_once('/')?;
                Some((ns.into(), n.into()))
            }
            serde_json::Value::Object(o) => Some((
                o.get("namespace")?.as_str()?.into(),
                o.get("name")?.as_str()?.into(),
            )),
            _ => None,
        };
    }
    let v = structured_value(message, key)?;
    let (ns, n) = v.split_once('/')?;
    Some((ns.into(), n.into()))
}

fn structured_value(message: &str, key: &str) -> Option<String> {
    if message.starts_with('{') {
        let v: serde_json::Value = serde_json::from_str(message).ok()?;
        return v.get(key)?.as_str().map(String::from);
    }
    KV.captures_iter(message)
        .find(|c| &c[1] == key)
        .map(|c| c.get(2).or(c.get(3)).map_or("", |m| m.as_str()).to_string())
}

/// The controller-manager entries of a reader. `reference` dates klog lines (they carry no
/// year): normally the snapshot's time.
pub fn parse_controller_log<R: BufRead>(
    name: &str,
    reader: R,
    reference: Option<Timestamp>,
    out: &mut Vec<ControllerLogEntry>,
    warnings: &mut Vec<InputWarning>,
) {
    let mut batch_left = 0usize;
    // Pods an orphaned / unscheduled line already named: their force-delete line is the same act.
    let mut named: HashSet<(String, String)> = HashSet::new();
    // This reader's entries start here (a success line only settles a line of the same log).
    let first = out.len();
    // The pod GC's deletions not yet settled, by pod name: the entry's index in `out`. A
    // "not found" error right after one says the pod was already gone (a client's deletion won
    // the race): the collector deleted nothing, and its line is dropped.
    let mut pending: HashMap<String, usize> = HashMap::new();
    let mut failed: Vec<usize> = Vec::new();
    crate::for_each_line(name, reader, warnings, |line_no, buf, _| {
        let raw = String::from_utf8_lossy(buf);
        let raw = raw.trim();
        // Cheap filter first: every line kept names one of these.
        if !(raw.contains("arbage collecting")
            || raw.contains("not found")
            || raw.contains("PodGC")
            || raw.contains("rphaned Pod")
            || raw.contains("unscheduled terminating Pod")
            || raw.contains("Forced deletion")
            || raw.contains("NoExecuteTaintManager"))
        {
            return ControlFlow::Continue(());
        }
        let Some(line) = split_line(raw, reference) else {
            return ControlFlow::Continue(());
        };
        let msg = line.message;
        let entry = |action, namespace, pod, node| ControllerLogEntry {
            origin: format!("{name}:{line_no}"),
            time: line.time,
            action,
            namespace,
            name: pod,
            node,
            line: quote_of(raw),
        };
        if let Some(c) = BATCH.captures(msg) {
            batch_left = c
                .get(1)
                .or(c.get(2))
                .and_then(|m| m.as_str().parse().ok())
                .unwrap_or(0);
        } else if let Some((action, ns, pod)) = success_line(msg) {
            pending.remove(&pod);
            let e = entry(action, ns, pod, None);
            if let Some(e) = settle(&mut out[first..], e, &mut batch_left) {
                out.push(e);
            }
        } else if let Some((action, ns, pod, node)) = found_line(msg) {
            named.insert((ns.clone(), pod.clone()));
            pending.insert(pod.clone(), out.len());
            out.push(entry(action, ns, pod, node));
        } else if let Some((ns, pod)) = force_delete_line(msg) {
            if !named.remove(&(ns.clone(), pod.clone())) {
                let action = if batch_left > 0 {
                    batch_left -= 1;
                    ControllerAction::GcTerminated
                } else {
                    ControllerAction::GcForceDelete
                };
                pending.insert(pod.clone(), out.len());
                out.push(entry(action, ns, pod, None));
            }
        } else if let Some(pod) = not_found_line(raw) {
            if let Some(i) = pending.remove(&pod) {
                failed.push(i);
            }
        } else if let Some((ns, pod)) = taint_line(msg) {
            out.push(entry(ControllerAction::TaintEviction, ns, pod, None));
        }
        ControlFlow::Continue(())
    });
    failed.sort_unstable();
    for i in failed.into_iter().rev() {
        out.remove(i);
    }
}

/// An error line saying a pod was not found: the pod's name. Only error lines (klog's `E`
/// severity, or an `"Unhandled Error"`) count: an informational line may quote such an error.
fn not_found_line(raw: &str) -> Option<String> {
    let error = KLOG.captures(raw).is_some_and(|c| &c[1] == "E")
        || raw.contains("Unhandled Error")
        || raw.contains(r#""level":"error""#);
    if !error {
        return None;
    }
    NOT_FOUND.captures(raw).map(|c| c[1].to_string())
}

/// A success line ("Forced deletion of orphaned Pod … succeeded"): the rule, namespace and pod.
fn success_line(msg: &str) -> Option<(ControllerAction, String, String)> {
    let old = |re: &Regex, action| {
        re.captures(msg)
            .map(|c| (action, c[1].to_string(), c[2].to_string()))
    };
    old(&OLD_ORPHAN_DONE, ControllerAction::GcOrphaned)
        .or_else(|| {
            old(
                &OLD_UNSCHEDULED_DONE,
                ControllerAction::GcUnscheduledTerminating,
            )
        })
        .or_else(|| {
            let action = if msg.contains("Forced deletion of orphaned Pod succeeded") {
                ControllerAction::GcOrphaned
            } else if msg.contains("Forced deletion of unscheduled terminating Pod succeeded") {
                ControllerAction::GcUnscheduledTerminating
            } else {
                return None;
            };
            structured_pod(msg, "pod").map(|(ns, pod)| (action, ns, pod))
        })
}

/// A success line settles the pod's force-delete line before it (`earlier`: this log's entries):
/// that line takes its rule and quote. Returns the entry when no line came before.
fn settle(
    earlier: &mut [ControllerLogEntry],
    done: ControllerLogEntry,
    batch_left: &mut usize,
) -> Option<ControllerLogEntry> {
    let before = earlier.iter_mut().rev().find(|e| {
        e.namespace == done.namespace
            && e.name == done.name
            && matches!(
                e.action,
                ControllerAction::GcForceDelete
                    | ControllerAction::GcTerminated
                    | ControllerAction::GcOrphaned
                    | ControllerAction::GcUnscheduledTerminating
            )
    });
    match before {
        // Already named by its "Found …" line.
        Some(e) if e.action == done.action => None,
        Some(e) => {
            if e.action == ControllerAction::GcTerminated {
                // Counted against a batch it was not part of.
                *batch_left += 1;
            }
            e.action = done.action;
            e.origin = done.origin;
            e.line = done.line;
            None
        }
        None => Some(done),
    }
}

/// A "Found orphaned Pod …" or "Found unscheduled terminating Pod …" line: the rule, namespace,
/// pod and (orphaned) node.
fn found_line(msg: &str) -> Option<(ControllerAction, String, String, Option<String>)> {
    if let Some(c) = OLD_ORPHAN.captures(msg) {
        return Some((
            ControllerAction::GcOrphaned,
            c[1].into(),
            c[2].into(),
            Some(c[3].into()),
        ));
    }
    if msg.contains("Found orphaned Pod assigned to the Node") {
        let (ns, pod) = structured_pod(msg, "pod")?;
        let node = structured_value(msg, "node");
        return Some((ControllerAction::GcOrphaned, ns, pod, node));
    }
    if let Some(c) = OLD_UNSCHEDULED.captures(msg) {
        return Some((
            ControllerAction::GcUnscheduledTerminating,
            c[1].into(),
            c[2].into(),
            None,
        ));
    }
    if msg.contains("Found unscheduled terminating Pod not assigned to any Node") {
        let (ns, pod) = structured_pod(msg, "pod")?;
        return Some((ControllerAction::GcUnscheduledTerminating, ns, pod, None));
    }
    None
}

/// The pod GC's force deletion of a pod: namespace and pod.
fn force_delete_line(msg: &str) -> Option<(String, String)> {
    pod_line(msg, &OLD_FORCE, "PodGC is force deleting Pod")
}

/// The taint manager's deletion of a pod: namespace and pod.
fn taint_line(msg: &str) -> Option<(String, String)> {
    pod_line(msg, &OLD_TAINT, "NoExecuteTaintManager is deleting")
}

/// A line naming one pod in the old wording (`old`: namespace and name captured) or the
/// structured one (`structured`, then `pod="ns/name"`).
fn pod_line(msg: &str, old: &Regex, structured: &str) -> Option<(String, String)> {
    old.captures(msg)
        .map(|c| (c[1].to_string(), c[2].to_string()))
        .or_else(|| {
            msg.contains(structured)
                .then(|| structured_pod(msg, "pod"))
                .flatten()
        })
}

/// Reads a controller-manager log file, or every file of a directory.
pub fn read_controller_log(
    path: &Path,
    reference: Option<Timestamp>,
    out: &mut Vec<ControllerLogEntry>,
    warnings: &mut Vec<InputWarning>,
) {
    for (name, file) in crate::open_files(path, warnings) {
        parse_controller_log(
            &name,
            std::io::BufReader::new(file),
            reference,
            out,
            warnings,
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Vec<ControllerLogEntry> {
        let (mut out, mut w) = (Vec::new(), Vec::new());
        let reference = "2026-11-23T12:00:00Z".parse().ok();
        parse_controller_log("kcm.log", text.as_bytes(), reference, &mut out, &mut w);
        assert!(w.is_empty());
        out
    }

    #[test]
    fn real_1_20_terminated_batch() {
        let out = parse(
            "I1123 00:16:39.534155   10834 controllermanager.go:554] Started \"podgc\"
I1123 00:19:03.552119   10834 gc_controller.go:142] garbage collecting 2 pods
I1123 00:19:03.552204   10834 gc_controller.go:78] PodGC is force deleting Pod: rc-scn/done-3
I1123 00:19:03.552597   10834 gc_controller.go:78] PodGC is force deleting Pod: rc-scn/done-1
I1123 00:19:04.000000   10834 gc_controller.go:78] PodGC is force deleting Pod: rc-scn/other
",
        );
        assert_eq!(out.len(), 3);
        assert_eq!(out[0].action, ControllerAction::GcTerminated);
        assert_eq!(
            (out[0].namespace.as_str(), out[0].name.as_str()),
            ("rc-scn", "done-3")
        );
        assert_eq!(out[0].origin, "kcm.log:3");
        assert_eq!(
            out[0].time.unwrap().to_string(),
            "2026-11-23T00:19:03.552204Z"
        );
        assert_eq!(out[1].action, ControllerAction::GcTerminated);
        assert_eq!(out[2].action, ControllerAction::GcForceDelete);
    }

    #[test]
    fn orphaned_and_unscheduled_old_and_new() {
        let out = parse(
            "I0101 10:00:00.000000       1 gc_controller.go:160] Found orphaned Pod shop/web-1 assigned to the Node node-9. Deleting.
I0101 10:00:00.000001       1 gc_controller.go:78] PodGC is force deleting Pod: shop/web-1
2026-11-20T10:00:00.5Z stderr F I1120 10:00:00.500000       1 gc_controller.go:250] \"Found orphaned Pod assigned to the Node, deleting\" pod=\"shop/web-2\" node=\"node-9\"
Nov 20 10:00:01 host kube-controller-manager[1]: I1120 10:00:01.000000       1 gc_controller.go:280] \"Found unscheduled terminating Pod not assigned to any Node, deleting\" pod=\"shop/web-3\"
{\"ts\":1763632802.5,\"caller\":\"podgc/gc_controller.go:250\",\"msg\":\"Found orphaned Pod assigned to the Node, deleting\",\"v\":0,\"pod\":{\"name\":\"web-4\",\"namespace\":\"shop\"},\"node\":\"node-9\"}
I1120 10:00:03.000000       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: shop/web-5
",
        );
        let got: Vec<(ControllerAction, &str, Option<&str>)> = out
            .iter()
            .map(|e| (e.action, e.name.as_str(), e.node.as_deref()))
            .collect();
        assert_eq!(
            got,
            vec![
                (ControllerAction::GcOrphaned, "web-1", Some("node-9")),
                (ControllerAction::GcOrphaned, "web-2", Some("node-9")),
                (ControllerAction::GcUnscheduledTerminating, "web-3", None),
                (ControllerAction::GcOrphaned, "web-4", Some("node-9")),
                (ControllerAction::TaintEviction, "web-5", None),
            ]
        );
        // The container-log prefix's time wins over klog's year-less header.
        assert_eq!(out[1].time.unwrap().to_string(), "2026-11-20T10:00:00.5Z");
        // A January line read in late November is from January of the same year.
        assert_eq!(out[0].time.unwrap().to_string(), "2026-01-01T10:00:00Z");
        assert_eq!(out[3].time.unwrap().to_string(), "2025-11-20T10:00:02.5Z");
    }

    #[test]
    fn a_success_line_settles_the_rule_of_the_force_delete_before_it() {
        // 1.20 at the default verbosity: the force-delete line, then the rule's success line;
        // a batch count left over must not make the orphan a terminated pod.
        let out = parse(
            "I1123 10:20:03.552119   10834 gc_controller.go:142] garbage collecting 2 pods
I1123 10:20:03.552204   10834 gc_controller.go:78] PodGC is force deleting Pod: rc-scn/done-3
I1123 10:20:43.100000   10834 gc_controller.go:78] PodGC is force deleting Pod: e2e-gone-node/orphan
I1123 10:20:43.110000   10834 gc_controller.go:185] Forced deletion of orphaned Pod e2e-gone-node/orphan succeeded
I1123 10:20:45.000000   10834 gc_controller.go:78] PodGC is force deleting Pod: shop/early
I1123 10:20:45.010000   10834 gc_controller.go:212] Forced deletion of unscheduled terminating Pod shop/early succeeded
I1123 10:21:00.000000       1 gc_controller.go:329] \"PodGC is force deleting Pod\" pod=\"shop/web-7\"
I1123 10:21:00.010000       1 gc_controller.go:260] \"Forced deletion of orphaned Pod succeeded\" pod=\"shop/web-7\"
{\"ts\":1795616470.5,\"msg\":\"PodGC is force deleting Pod\",\"pod\":{\"name\":\"web-8\",\"namespace\":\"shop\"}}
{\"ts\":1795616470.6,\"msg\":\"Forced deletion of unscheduled terminating Pod succeeded\",\"pod\":{\"name\":\"web-8\",\"namespace\":\"shop\"}}
I1123 10:21:10.000000       1 gc_controller.go:260] \"Forced deletion of orphaned Pod succeeded\" pod=\"shop/web-9\"
",
        );
        let got: Vec<(ControllerAction, &str, &str)> = out
            .iter()
            .map(|e| (e.action, e.name.as_str(), e.origin.as_str()))
            .collect();
        assert_eq!(
            got,
            vec![
                (ControllerAction::GcTerminated, "done-3", "kcm.log:2"),
                (ControllerAction::GcOrphaned, "orphan", "kcm.log:4"),
                (
                    ControllerAction::GcUnscheduledTerminating,
                    "early",
                    "kcm.log:6"
                ),
                (ControllerAction::GcOrphaned, "web-7", "kcm.log:8"),
                (
                    ControllerAction::GcUnscheduledTerminating,
                    "web-8",
                    "kcm.log:10"
                ),
                (ControllerAction::GcOrphaned, "web-9", "kcm.log:11"),
            ]
        );
        assert!(
            out[1]
                .line
                .contains("Forced deletion of orphaned Pod e2e-gone-node/orphan succeeded")
        );
        // The force-delete line's time is kept: when the pod went.
        assert_eq!(out[1].time.unwrap().to_string(), "2026-11-23T10:20:43.1Z");
    }

    /// Real 1.20 lines (the e2e churn, 2026-11-26): a client's deletion of an unscheduled pod
    /// raced the pod GC, whose own request then found the pod gone. The collector deleted
    /// nothing; its force-delete line must not count as the deletion. Newer wordings of the
    /// same error (structured klog, JSON) likewise; an info line quoting it does not count.
    #[test]
    fn a_force_delete_that_found_the_pod_gone_is_dropped() {
        let out = parse(
            r#"I1126 11:16:20.913984    6388 gc_controller.go:78] PodGC is force deleting Pod: e2e-churn/churn-143-18
E1126 11:16:20.926731    6388 gc_controller.go:233] pods "churn-143-18" not found
I1126 11:16:20.926751    6388 gc_controller.go:78] PodGC is force deleting Pod: e2e-churn/churn-143-16
E1126 11:16:20.933075    6388 gc_controller.go:233] pods "churn-143-16" not found
I1126 11:16:21.000000    6388 gc_controller.go:78] PodGC is force deleting Pod: e2e-churn/kept
I1126 11:16:21.100000    6388 gc_controller.go:233] Forced deletion of unscheduled terminating Pod e2e-churn/kept succeeded
E1126 11:16:21.200000    6388 gc_controller.go:233] pods "kept" not found
I1126 11:16:22.000000       1 gc_controller.go:300] "PodGC is force deleting Pod" pod="shop/new-1"
E1126 11:16:22.000100       1 gc_controller.go:270] "Unhandled Error" err="pods \"new-1\" not found" logger="UnhandledError"
{"ts":1764155783.0,"caller":"podgc/gc_controller.go:300","msg":"PodGC is force deleting Pod","v":0,"pod":{"name":"new-2","namespace":"shop"}}
{"ts":1764155783.1,"caller":"runtime/runtime.go:100","msg":"Unhandled Error","err":"pods \"new-2\" not found"}
I1126 11:16:24.000000       1 gc_controller.go:300] "PodGC is force deleting Pod" pod="shop/new-3"
I1126 11:16:24.000100       1 other.go:1] "retrying" err="pods \"new-3\" not found"
"#,
        );
        let got: Vec<(ControllerAction, &str)> =
            out.iter().map(|e| (e.action, e.name.as_str())).collect();
        assert_eq!(
            got,
            vec![
                (ControllerAction::GcUnscheduledTerminating, "kept"),
                (ControllerAction::GcForceDelete, "new-3"),
            ]
        );
    }

    #[test]
    fn garbage_never_panics() {
        for text in [
            "\u{0}I1123",
            "garbage collecting x pods",
            "PodGC is force deleting Pod: /",
            "{\"msg\": PodGC",
            "I9999 99:99:99.9 1 a.go:1] PodGC is force deleting Pod: a/b",
        ] {
            let _ = parse(text);
        }
    }
}
