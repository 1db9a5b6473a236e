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
    // The pod count's wording before "Too many pods" (kube-scheduler ≤1.17).
    if r == "Insufficient pods" {
        return Some((Cause::TooManyPods, String::new()));
    }
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
        // Dynamic resource allocation (`plugins/dynamicresources/dynamicresources.go`, 1.26–1.34):
        // the PreFilter's whole-pod reasons (no count) and the Filter's per-node ones.
        (
            "cannot allocate all claims",
            Cause::ResourceClaimUnallocatable,
        ),
        (
            "ResourceClaim not created yet",
            Cause::ResourceClaimUnallocatable,
        ),
        (
            "could not find ResourceClaim",
            Cause::ResourceClaimUnallocatable,
        ),
        (
            "resourceclaim.resource.k8s.io",
            Cause::ResourceClaimUnallocatable,
        ),
        ("resourceclaim", Cause::ResourceClaimUnallocatable),
        ("ResourceClaim", Cause::ResourceClaimUnallocatable),
        ("resource claim", Cause::ResourceClaimUnallocatable),
        (
            "waiting for resource driver",
            Cause::ResourceClaimUnallocatable,
        ),
        (
            "waiting for dynamic resource controller",
            Cause::ResourceClaimUnallocatable,
        ),
        (
            "excluded by resource class node filter",
            Cause::ResourceClaimUnallocatable,
        ),
        (
            "excluded by device class node filter",
            Cause::ResourceClaimUnallocatable,
        ),
        ("resource class", Cause::ResourceClaimUnallocatable),
        ("device class", Cause::ResourceClaimUnallocatable),
        ("class parameters", Cause::ResourceClaimUnallocatable),
        ("claim parameters", Cause::ResourceClaimUnallocatable),
        (
            "checking structured parameters failed",
            Cause::ResourceClaimUnallocatable,
        ),
        (
            "trying to allocate devices",
            Cause::ResourceClaimUnallocatable,
        ),
        ("stop allocating devices", Cause::ResourceClaimUnallocatable),
        (
            "cannot schedule extended resource claim",
            Cause::ResourceClaimUnallocatable,
        ),
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

/// Why a reason in a scheduling verdict explains nothing by itself: the nodes it rules out
/// were never candidates.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum SetAside {
    /// The pod's own placement rules ruled them out: its nodeSelector / required node affinity,
    /// its required pod affinity (to run beside certain pods).
    PodIntent,
    /// The control plane's nodes, kept free of ordinary pods by their standard taints.
    ControlPlane,
    /// Cordoned.
    Cordoned,
    /// Not ready or unreachable.
    NotReady,
}

impl SetAside {
    /// Why, in words, for explanations.
    pub fn why(self) -> &'static str {
        match self {
            SetAside::PodIntent => "the pod's own nodeSelector / affinity rules them out",
            SetAside::ControlPlane => "control-plane nodes, kept for the control plane by design",
            SetAside::Cordoned => "cordoned: out of service on purpose",
            SetAside::NotReady => "not ready: out of service",
        }
    }
    /// The pod's own wishes rank below nodes out of service (see [`pick_primary`]).
    fn is_intent(self) -> bool {
        self == SetAside::PodIntent
    }
}

/// Taint keys the control plane's nodes carry so that ordinary pods stay off them.
pub const CONTROL_PLANE_TAINTS: &[&str] = &[
    "node-role.kubernetes.io/master",
    "node-role.kubernetes.io/control-plane",
];

/// Whether a reason (its cause and text) only says the pod never wanted those nodes, or the
/// nodes are out of service.
pub fn set_aside(cause: Cause, text: &str) -> Option<SetAside> {
    match cause {
        Cause::NodeSelectorMismatch => Some(SetAside::PodIntent),
        Cause::PodAffinityUnsatisfiable
            if text.contains("pod affinity") && !text.contains("anti-affinity") =>
        {
            Some(SetAside::PodIntent)
        }
        Cause::NodeUnschedulable => Some(SetAside::Cordoned),
        Cause::NodeNotReady => Some(SetAside::NotReady),
        Cause::UntoleratedTaint if CONTROL_PLANE_TAINTS.iter().any(|k| text.contains(k)) => {
            Some(SetAside::ControlPlane)
        }
        _ => None,
    }
}

/// The index of the reason to fix first among `(nodes ruled out, cause, reason text)`, and the
/// indexes of the reasons set aside for it. The rule, shared by the scheduler's verdicts and
/// kubewhy's own evaluation of every node:
///
/// - nodes the pod's own rules exclude, and nodes out of service by design, explain nothing
///   while other nodes fail for another reason: the answer is why those nodes fail;
/// - when every reason is of that kind, nodes out of service come before the pod's intent (a
///   node that passed the pod's node selector and was then rejected is the one it wants), and
///   nodes out of service by accident (not ready, cordoned) before the control plane's;
/// - when the pod's node selector or affinity set nodes aside, the reasons of filters that run
///   after it (resources, ports, volumes, pod affinity) come first: their nodes passed it, while
///   a tainted or cordoned node may be one the pod never wanted;
/// - among what is left, the reason that rules out the most nodes; on a tie the later filter
///   (`filter_stage`: its nodes passed every earlier one), or with old overlapping counts a
///   cordon first, then the cause's order. A reason without a count (a PreFilter failure)
///   rules out every node.
///
/// A reason that rules out every node (`total`, when known) is never set aside: old schedulers
/// listed every failing predicate of each node, and a selector no node matches is the answer.
///
/// Old schedulers (≤1.16) listed every failing predicate of each node, so counts overlap
/// (`0/4 nodes are available: 1 Insufficient cpu, 1 NodeUnschedulable, 3 MatchNodeSelector`:
/// one node, cordoned and full). There a cordoned or not-ready node may be the very node
/// that fails the other way, and is not set aside.
pub fn pick_primary(
    reasons: &[(u32, Cause, &str)],
    total: Option<u32>,
) -> Option<(usize, Vec<usize>)> {
    // A node is counted once per reason of the filter it fails, and one filter may give it
    // several (`1 Insufficient memory, 2 Insufficient cpu` may be two nodes): the reasons of
    // one cause count as many nodes as the largest of them, at least.
    let mut per_cause: Vec<(Cause, u32)> = Vec::new();
    for r in reasons.iter().filter(|r| r.0 != u32::MAX) {
        match per_cause.iter_mut().find(|(c, _)| *c == r.1) {
            Some((_, n)) => *n = (*n).max(r.0),
            None => per_cause.push((r.1, r.0)),
        }
    }
    let counted: u64 = per_cause.iter().map(|(_, n)| u64::from(*n)).sum();
    let overlap = total.is_some_and(|t| counted > u64::from(t));
    let tier = |i: usize| match set_aside(reasons[i].1, reasons[i].2) {
        _ if total.is_some_and(|t| reasons[i].0 >= t) => 0,
        None => 0,
        Some(a) if a.is_intent() => 2,
        Some(_) if overlap => 0,
        Some(_) => 1,
    };
    let best_tier = (0..reasons.len()).map(tier).min()?;
    let rank = |c: Cause| u8::from(c != Cause::NodeUnschedulable);
    // Each node is reported under the first filter it fails. When the pod's own node
    // selector or affinity set nodes aside, a reason of a later filter is about nodes the pod
    // may run on (they passed it); a cordon's or a taint's may be about nodes it never wanted.
    let intent_aside = !overlap
        && (0..reasons.len()).any(|i| reasons[i].1 == Cause::NodeSelectorMismatch && tier(i) == 2);
    let wanted = |i: usize| filter_stage(reasons[i].1) > filter_stage(Cause::NodeSelectorMismatch);
    let mut candidates: Vec<usize> = (0..reasons.len())
        .filter(|&i| tier(i) == best_tier)
        .collect();
    if intent_aside && candidates.iter().any(|&i| wanted(i)) {
        candidates.retain(|&i| wanted(i));
    }
    // Among nodes all out of service, the control plane's are so by design: the others (not
    // ready, cordoned) are the ones to bring back, however many control-plane nodes there are.
    let by_design =
        |i: usize| set_aside(reasons[i].1, reasons[i].2) == Some(SetAside::ControlPlane);
    let chosen = candidates.into_iter().max_by(|&a, &b| {
        let (x, y) = (&reasons[a], &reasons[b]);
        let design = if best_tier == 1 {
            by_design(b).cmp(&by_design(a))
        } else {
            std::cmp::Ordering::Equal
        };
        // On a tie of real reasons without overlap, the later filter: its nodes passed every
        // earlier one.
        let later = if overlap || best_tier > 0 {
            std::cmp::Ordering::Equal
        } else {
            filter_stage(x.1).cmp(&filter_stage(y.1))
        };
        design
            .then(x.0.cmp(&y.0))
            .then(later)
            .then(rank(y.1).cmp(&rank(x.1)))
            .then(y.1.cmp(&x.1))
            .then(b.cmp(&a))
    })?;
    let aside = (0..reasons.len())
        .filter(|&i| tier(i) > best_tier)
        .collect();
    Some((chosen, aside))
}

/// Where a reason's filter runs in the scheduler's default profile (NodeUnschedulable,
/// TaintToleration, NodeAffinity, NodePorts, NodeResourcesFit, volume limits, VolumeBinding,
/// PodTopologySpread, InterPodAffinity, DynamicResources): a node is counted under the first
/// filter it fails, so it passed every filter before.
fn filter_stage(c: Cause) -> u8 {
    match c {
        Cause::NodeUnschedulable | Cause::NodeNotReady => 0,
        Cause::UntoleratedTaint | Cause::NodePressure => 1,
        Cause::NodeSelectorMismatch => 2,
        Cause::InsufficientResources | Cause::TooManyPods => 4,
        Cause::VolumeNodeAffinityConflict | Cause::PvcUnbound | Cause::PvcMissing => 6,
        Cause::PodAffinityUnsatisfiable => 8,
        Cause::ResourceClaimUnallocatable => 9,
        _ => 3,
    }
}

/// The reason to fix first: (node count, cause, detail, the reason's text); see
/// [`pick_primary`].
pub fn primary_reason(parsed: &SchedulerMessage) -> Option<(u32, Cause, String, String)> {
    primary_and_set_aside(parsed).map(|(p, _)| p)
}

/// [`primary_reason`], with the reasons set aside for it (`(count, text, why)`).
#[allow(clippy::type_complexity)]
pub fn primary_and_set_aside(
    parsed: &SchedulerMessage,
) -> Option<(
    (u32, Cause, String, String),
    Vec<(Option<u32>, String, SetAside)>,
)> {
    let classified: Vec<(u32, Cause, String, String, Option<u32>)> = parsed
        .reasons
        .iter()
        .filter_map(|(n, text)| {
            classify_reason(text).map(|(c, d)| (n.unwrap_or(u32::MAX), c, d, text.clone(), *n))
        })
        .collect();
    let view: Vec<(u32, Cause, &str)> = classified
        .iter()
        .map(|c| (c.0, c.1, c.3.as_str()))
        .collect();
    let (i, aside) = pick_primary(&view, parsed.nodes)?;
    let c = &classified[i];
    let aside = aside
        .into_iter()
        .filter_map(|j| {
            let a = &classified[j];
            set_aside(a.1, &a.3).map(|why| (a.4, a.3.clone(), why))
        })
        .collect();
    Some(((c.0, c.1, c.2.clone(), c.3.clone()), aside))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn primary(msg: &str) -> (Cause, String, Vec<String>) {
        let (p, aside) = primary_and_set_aside(&parse_scheduler_message(msg)).expect("a reason");
        (p.1, p.3, aside.into_iter().map(|(_, t, _)| t).collect())
    }

    /// One filter may count a node under two of its reasons (rancher/local-path-provisioner#476:
    /// six nodes, seven counted): the resources' reasons stand for two nodes, as many as the
    /// volume's, and on that tie the later filter, the volume's, is the cause.
    #[test]
    fn reasons_of_one_filter_count_a_node_once() {
        let (cause, text, _) = primary(
            "0/6 nodes are available: 1 Insufficient memory, 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable, 2 Insufficient cpu, 2 node(s) had volume node affinity conflict.",
        );
        assert_eq!(cause, Cause::VolumeNodeAffinityConflict);
        assert_eq!(text, "node(s) had volume node affinity conflict");
    }

    #[test]
    fn the_control_plane_taint_explains_nothing_beside_a_real_reason() {
        let (cause, text, aside) = primary(
            "0/6 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/master: }, 3 node(s) had volume node affinity conflict.",
        );
        assert_eq!(cause, Cause::VolumeNodeAffinityConflict);
        assert_eq!(text, "node(s) had volume node affinity conflict");
        assert_eq!(
            aside,
            ["node(s) had untolerated taint {node-role.kubernetes.io/master: }"]
        );
        // 1.20's wording, and the newer control-plane key.
        let (cause, _, _) = primary(
            "0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 Insufficient cpu.",
        );
        assert_eq!(cause, Cause::InsufficientResources);
        let (cause, _, _) = primary(
            "0/5 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 2 node(s) didn't match pod topology spread constraints. preemption: 0/5 nodes are available: 5 Preemption is not helpful for scheduling.",
        );
        assert_eq!(cause, Cause::PodAffinityUnsatisfiable);
        // Every node out of service: the worker that went unreachable, not the control plane
        // kept for itself (a killercoda lab, wild 3098), even when the masters outnumber it.
        let (cause, _, _) = primary(
            "0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        );
        assert_eq!(cause, Cause::NodeNotReady);
        let (cause, _, _) = primary(
            "0/4 nodes are available: 3 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) were unschedulable.",
        );
        assert_eq!(cause, Cause::NodeUnschedulable);
    }

    /// DRA's reasons of 1.26–1.34 (dynamicresources.go): a claim the allocator cannot satisfy
    /// comes before a cordoned node; the PreFilter's whole-pod reasons carry no count.
    #[test]
    fn resource_claims_of_every_version() {
        let (cause, _, aside) = primary(
            "0/2 nodes are available: 1 cannot allocate all claims, 1 node(s) were unschedulable. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.",
        );
        assert_eq!(cause, Cause::ResourceClaimUnallocatable);
        assert_eq!(aside, ["node(s) were unschedulable"]);
        for msg in [
            "0/3 nodes are available: pod \"default/gpu-pod\": ResourceClaim not created yet.",
            "0/3 nodes are available: could not find ResourceClaim \"default/my-claim\".",
            "0/3 nodes are available: resourceclaim.resource.k8s.io \"my-claim\" not found.",
            "0/3 nodes are available: resourceclaim in use.",
            "0/3 nodes are available: request gpu: device class gpu.example.com does not exist.",
            "0/1 nodes are available: 1 waiting for resource driver to allocate resource.",
            "0/3 nodes are available: 3 resourceclaim not available on the node.",
        ] {
            assert_eq!(primary(msg).0, Cause::ResourceClaimUnallocatable, "{msg}");
        }
    }

    #[test]
    fn the_pods_own_selector_explains_nothing_beside_a_real_reason() {
        let (cause, text, aside) = primary(
            "0/4 nodes are available: 1 Insufficient pods, 3 node(s) didn't match node selector.",
        );
        assert_eq!(
            (cause, text.as_str()),
            (Cause::TooManyPods, "Insufficient pods")
        );
        assert_eq!(aside, ["node(s) didn't match node selector"]);
    }

    #[test]
    fn cordoned_and_not_ready_nodes_are_set_aside_when_others_fail_otherwise() {
        let (cause, _, aside) = primary(
            "0/3 nodes are available: 1 node(s) were unschedulable, 1 node(s) had taint {node.kubernetes.io/not-ready: }, that the pod didn't tolerate, 1 Insufficient memory.",
        );
        assert_eq!(cause, Cause::InsufficientResources);
        assert_eq!(aside.len(), 2);
        // Every node out of service: that is the answer, the cordon first on a tie.
        let (cause, _, _) = primary(
            "0/2 nodes are available: 1 node(s) were unschedulable, 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate.",
        );
        assert_eq!(cause, Cause::NodeUnschedulable);
        // The selector leaves only control-plane nodes: they are the ones the pod wants.
        let (cause, _, _) = primary(
            "0/3 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 2 node(s) didn't match node selector.",
        );
        assert_eq!(cause, Cause::UntoleratedTaint);
        // A selector no node matches is the answer.
        let (cause, _, aside) =
            primary("0/3 nodes are available: 3 node(s) didn't match node selector.");
        assert_eq!(cause, Cause::NodeSelectorMismatch);
        assert!(aside.is_empty());
    }

    /// Real pastes (tests/fixtures/wild 730, 808, 880): each node is counted under the first
    /// filter it fails.
    #[test]
    fn a_later_filter_speaks_of_nodes_the_pod_may_run_on() {
        // A DaemonSet pod: its affinity leaves one node, which passed the taints and lacks cpu
        // (the node Karpenter made is too small for every DaemonSet).
        let (cause, _, _) = primary(
            "0/26 nodes are available: 1 Insufficient cpu, 22 node(s) didn't match Pod's node affinity/selector, 3 node(s) had taint {CriticalAddonsOnly: }, that the pod didn't tolerate.",
        );
        assert_eq!(cause, Cause::InsufficientResources);
        // Nodes dedicated to others (a taint each) beside the one the selector leaves, which
        // the anti-affinity refuses.
        let (cause, _, _) = primary(
            "0/12 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 1 node(s) had untolerated taint {dedicated: 937f8800}, 1 node(s) had untolerated taint {dedicated: adb4b9b9}, 2 node(s) didn't match Pod's node affinity/selector.",
        );
        assert_eq!(cause, Cause::PodAffinityUnsatisfiable);
        // A tie: the volume's node passed the resources filter.
        let (cause, _, _) = primary(
            "0/3 nodes are available: 1 Insufficient memory, 1 Too many pods, 1 node(s) had volume node affinity conflict.",
        );
        assert_eq!(cause, Cause::VolumeNodeAffinityConflict);
        // More nodes for one reason still decide.
        let (cause, _, _) = primary(
            "0/4 nodes are available: 3 Insufficient memory, 1 node(s) had volume node affinity conflict.",
        );
        assert_eq!(cause, Cause::InsufficientResources);
    }

    #[test]
    fn overlapping_counts_of_old_schedulers_keep_the_cordon() {
        // ≤1.16 listed every failing predicate per node: the one matching node is cordoned.
        let (cause, _, _) = primary(
            "0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 NodeUnschedulable, 3 MatchNodeSelector.",
        );
        assert_eq!(cause, Cause::NodeUnschedulable);
    }
}
