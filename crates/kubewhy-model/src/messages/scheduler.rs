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
        let key = detail
            .trim_start_matches('{')
            .split(':')
            .next()
            .unwrap_or("");
        return Some((taint_cause(key.trim()), detail));
    }
    // The kubelet's own taints and conditions, as the old predicates named them.
    if r.contains("node(s) had disk pressure")
        || r.contains("node(s) had memory pressure")
        || r.contains("node(s) had pid pressure")
        || r.starts_with("NodeUnderDiskPressure")
        || r.starts_with("NodeUnderMemoryPressure")
        || r.starts_with("NodeUnderPIDPressure")
    {
        return Some((Cause::NodePressure, String::new()));
    }
    if r.contains("node(s) were not ready") || r.contains("node(s) were out of disk space") {
        return Some((Cause::NodeNotReady, String::new()));
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
        ("NodeUnschedulable", Cause::NodeUnschedulable),
        // The predicates of 2015-2019 by name: `PodFitsResources`, `PodToleratesNodeTaints`.
        ("PodFitsResources", Cause::InsufficientResources),
        ("PodExceedsFreeCPU", Cause::InsufficientResources),
        ("PodExceedsFreeMemory", Cause::InsufficientResources),
        ("PodToleratesNodeTaints", Cause::UntoleratedTaint),
        ("PodFitsPorts", Cause::HostPortConflict),
        ("CheckNodeCondition", Cause::NodeNotReady),
        ("NoVolumeZoneConflict", Cause::VolumeNodeAffinityConflict),
        ("MaxVolumeCount", Cause::InsufficientResources),
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

/// What a taint the scheduler names says is wrong: the kubelet's and node controller's own
/// taints are the node's state (pressure, not ready, cordoned), not a reservation to tolerate.
pub fn taint_cause(key: &str) -> Cause {
    match key {
        "node.kubernetes.io/disk-pressure"
        | "node.kubernetes.io/memory-pressure"
        | "node.kubernetes.io/pid-pressure" => Cause::NodePressure,
        "node.kubernetes.io/not-ready"
        | "node.kubernetes.io/unreachable"
        | "node.kubernetes.io/network-unavailable"
        | "node.kubernetes.io/out-of-disk" => Cause::NodeNotReady,
        "node.kubernetes.io/unschedulable" => Cause::NodeUnschedulable,
        _ => Cause::UntoleratedTaint,
    }
}

/// The reason to fix first: (node count, cause, detail, the reason's text).
///
/// The reason that rules out the most nodes, with two refinements. Nodes the pod's own node
/// selector or pod affinity rules out are nodes it never wanted: when some nodes match them,
/// what rules out those is the answer. On a tie a cordon wins (the scheduler's first filter: a cordoned node
/// that is also full is out because of the cordon). A reason without a count (a PreFilter
/// failure) rules out every node.
pub fn primary_reason(parsed: &SchedulerMessage) -> Option<(u32, Cause, String, String)> {
    let classified: Vec<(u32, Cause, String, String)> = parsed
        .reasons
        .iter()
        .filter_map(|(n, text)| {
            classify_reason(text).map(|(c, d)| (n.unwrap_or(u32::MAX), c, d, text.clone()))
        })
        .collect();
    // The pod's own placement rules: node selector / affinity, and required pod affinity (to
    // be beside certain pods; anti-affinity is about room, not wishes).
    let unwanted = |c: &(u32, Cause, String, String)| {
        (c.1 == Cause::NodeSelectorMismatch
            || c.1 == Cause::PodAffinityUnsatisfiable
                && c.3.contains("pod affinity")
                && !c.3.contains("anti-affinity"))
            && parsed.nodes.is_some_and(|n| c.0 < n)
    };
    let wanted: Vec<&(u32, Cause, String, String)> =
        classified.iter().filter(|c| !unwanted(c)).collect();
    let pool = if wanted.is_empty() {
        classified.iter().collect()
    } else {
        wanted
    };
    let rank = |c: Cause| u8::from(c != Cause::NodeUnschedulable);
    pool.into_iter()
        .max_by(|a, b| {
            a.0.cmp(&b.0)
                .then(rank(b.1).cmp(&rank(a.1)))
                .then(b.1.cmp(&a.1))
        })
        .cloned()
}
