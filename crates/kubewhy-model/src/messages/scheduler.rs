//! kube-scheduler's messages: the envelope of every era (`0/N nodes are available: …`, the old
//! `No nodes are available that match all of the predicates`) split into per-node reasons, and
//! each reason mapped to its cause (kubernetes-messages.md §1).

use crate::Cause;
use regex::Regex;
use std::sync::LazyLock;

/// One scheduler message, split into its per-node reasons.
#[derive(Debug, PartialEq)]
pub struct SchedulerMessage {
    pub nodes: Option<u32>,
    pub reasons: Vec<(Option<u32>, String)>,
}

static ENVELOPE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^0/(\d+) nodes are available:\s*(.*)$").unwrap());
static OLD_ENVELOPE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^No nodes are available that match all of the (?:following )?predicates:*\s*(.*)$")
        .unwrap()
});
static COUNTED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(\d+) (.+)$").unwrap());
static OLD_COUNTED: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^(.+?) \((\d+)\)$").unwrap());

pub fn parse_scheduler_message(msg: &str) -> SchedulerMessage {
    let msg = msg.trim();
    if msg.starts_with("no nodes available to schedule pods") {
        return SchedulerMessage {
            nodes: Some(0),
            reasons: vec![(None, "no nodes available to schedule pods".into())],
        };
    }
    if let Some(c) = OLD_ENVELOPE.captures(msg) {
        let body = c[1].trim_end_matches('.');
        let reasons = body
            .split(", ")
            .filter(|s| !s.is_empty())
            .map(|p| match OLD_COUNTED.captures(p) {
                Some(c) => (c[2].parse().ok(), c[1].to_string()),
                None => (None, p.to_string()),
            })
            .collect();
        return SchedulerMessage {
            nodes: None,
            reasons,
        };
    }
    let Some(c) = ENVELOPE.captures(msg) else {
        return SchedulerMessage {
            nodes: None,
            reasons: vec![(None, msg.trim_end_matches('.').to_string())],
        };
    };
    let nodes = c[1].parse().ok();
    let mut body = c[2].to_string();
    // The PostFilter (preemption, DRA) text follows the histogram; it is not a node reason.
    for cut in [
        " preemption: ",
        "preemption: ",
        " no new claims to deallocate",
    ] {
        if let Some(i) = body.find(cut) {
            body.truncate(i);
        }
    }
    let body = body.trim().trim_end_matches('.').trim_end_matches(',');
    // Reasons are joined with ", " but a reason may itself contain ", " (old taint wording):
    // a piece that does not start with a count continues the previous reason.
    let mut pieces: Vec<String> = Vec::new();
    for p in body.split(", ") {
        if pieces.is_empty() || COUNTED.is_match(p) {
            pieces.push(p.to_string());
        } else if let Some(last) = pieces.last_mut() {
            last.push_str(", ");
            last.push_str(p);
        }
    }
    let reasons = pieces
        .into_iter()
        .filter(|p| !p.is_empty())
        .map(|p| match COUNTED.captures(&p) {
            Some(c) => (c[1].parse().ok(), c[2].to_string()),
            None => (None, p),
        })
        .collect();
    SchedulerMessage { nodes, reasons }
}

static INSUFFICIENT: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"^Insufficient (\S+)").unwrap());
static TAINT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"had (?:untolerated )?taints? (\{.*\})|had taints that the pod didn't tolerate|had untolerated taint\(s\)").unwrap()
});
static PVC_NOT_FOUND: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"persistentvolumeclaim "([^"]+)" not found"#).unwrap());

/// Maps one scheduler reason to its cause and a detail (resource, taint, claim).
pub fn classify_reason(r: &str) -> Option<(Cause, String)> {
    let r = r.trim();
    if let Some(c) = INSUFFICIENT.captures(r) {
        return Some((Cause::InsufficientResources, c[1].to_string()));
    }
    if r.starts_with("Too many pods") {
        return Some((Cause::TooManyPods, String::new()));
    }
    if let Some(c) = TAINT.captures(r) {
        let detail = c.get(1).map(|m| m.as_str().to_string()).unwrap_or_default();
        return Some((Cause::UntoleratedTaint, detail));
    }
    if let Some(c) = PVC_NOT_FOUND.captures(r) {
        return Some((Cause::PvcMissing, c[1].to_string()));
    }
    let table: &[(&str, Cause)] = &[
        (
            "didn't match Pod's node affinity",
            Cause::NodeSelectorMismatch,
        ),
        ("didn't match node selector", Cause::NodeSelectorMismatch),
        ("MatchNodeSelector", Cause::NodeSelectorMismatch),
        (
            "didn't match the requested node name",
            Cause::NodeSelectorMismatch,
        ),
        (
            "didn't match the requested hostname",
            Cause::NodeSelectorMismatch,
        ),
        (
            "didn't match scheduler-enforced node affinity",
            Cause::NodeSelectorMismatch,
        ),
        ("were unschedulable", Cause::NodeUnschedulable),
        ("didn't have free ports", Cause::HostPortConflict),
        ("PodFitsHostPorts", Cause::HostPortConflict),
        (
            "volume node affinity conflict",
            Cause::VolumeNodeAffinityConflict,
        ),
        (
            "didn't match PersistentVolume's node affinity",
            Cause::VolumeNodeAffinityConflict,
        ),
        (
            "had no available volume zone",
            Cause::VolumeNodeAffinityConflict,
        ),
        (
            "unbound immediate PersistentVolumeClaims",
            Cause::PvcUnbound,
        ),
        (
            "didn't find available persistent volumes to bind",
            Cause::PvcUnbound,
        ),
        ("did not have enough free storage", Cause::PvcUnbound),
        ("waiting for ephemeral volume controller", Cause::PvcUnbound),
        ("bound to non-existent persistentvolume", Cause::PvcUnbound),
        ("pvc(s) bound to non-existent pv(s)", Cause::PvcUnbound),
        ("is being deleted", Cause::PvcUnbound),
        ("pod affinity", Cause::PodAffinityUnsatisfiable),
        ("pod anti-affinity", Cause::PodAffinityUnsatisfiable),
        (
            "existing pods anti-affinity",
            Cause::PodAffinityUnsatisfiable,
        ),
        (
            "pod affinity/anti-affinity",
            Cause::PodAffinityUnsatisfiable,
        ),
        (
            "topology spread constraints",
            Cause::PodAffinityUnsatisfiable,
        ),
        ("no nodes available to schedule pods", Cause::NoReadyNodes),
        ("exceed max volume count", Cause::InsufficientResources),
    ];
    table
        .iter()
        .find(|(needle, _)| r.contains(needle))
        .map(|(_, c)| (*c, String::new()))
}
