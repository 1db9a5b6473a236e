//! Which of the pod garbage collector's rules deleted a pod.

use super::*;

/// What tells the pod garbage collector's rules apart, from the pod's last state and the
/// cluster now.
pub(super) struct GcState<'a> {
    /// Whether it was bound to a node, when the data shows it.
    pub(super) scheduled: Option<bool>,
    /// Whether it had terminated (Succeeded / Failed), when its last phase is known.
    pub(super) terminated: Option<bool>,
    /// Its node no longer exists (or was deleted while the pod was bound).
    pub(super) node_gone: bool,
    /// A Node of that name registered after the pod went: the one it ran on was deleted.
    pub(super) node_back: bool,
    /// The Node it was bound to is in the data, the same object.
    pub(super) node_there: bool,
    pub(super) node: &'a str,
}

/// Which pod GC rule deleted the pod: only on evidence that separates the rules; else the
/// likeliest at low confidence, with what would settle it.
pub(super) fn gc_rule(g: &GcState, c: Confidence) -> (Cause, String, Confidence) {
    let node = g.node;
    if g.node_gone || (g.node_back && g.terminated != Some(true)) {
        return (
            Cause::PodGcOrphaned,
            format!("the pod garbage collector deleted it: its node {node} no longer existed"),
            c,
        );
    }
    if g.scheduled == Some(false) {
        return (
            Cause::PodGcUnscheduledTerminating,
            "the pod garbage collector deleted it: it was terminating and never scheduled".into(),
            c,
        );
    }
    match g.terminated {
        Some(true) => (
            Cause::PodGcThreshold,
            "the pod garbage collector deleted it: one of the oldest terminated pods over --terminated-pod-gc-threshold".into(),
            if g.node_there || g.scheduled.is_none() && !g.node_back {
                c
            } else {
                Confidence::Medium
            },
        ),
        // Not terminated, bound to a node that is there: the threshold rule takes only
        // terminated pods and the unscheduled one only unbound pods; what is left is its node
        // deleted and registered again in between.
        Some(false) => (
            Cause::PodGcOrphaned,
            format!(
                "the pod garbage collector deleted a pod that had not terminated, on node {node}: of its rules only the orphan one fits (the Node object deleted and registered again)"
            ),
            Confidence::Low,
        ),
        None if g.scheduled == Some(true) && g.node_there => (
            Cause::PodGcThreshold,
            format!("the pod garbage collector deleted it: bound to node {node}, which still exists, so of its rules only the one on terminated pods over --terminated-pod-gc-threshold fits"),
            Confidence::Medium,
        ),
        None => (
            Cause::PodGcThreshold,
            "the pod garbage collector deleted it; the data does not show which of its rules (terminated pods over the threshold, its node gone, or never scheduled)".into(),
            Confidence::Low,
        ),
    }
}

/// The sources that would tell the pod GC's rules apart, for a verdict that could not.
pub(super) fn gc_settle(ns: &str, name: &str, node: &str) -> String {
    let node = if node.is_empty() {
        "its node".to_string()
    } else {
        format!("node {node}")
    };
    format!(
        "Which rule: kube-controller-manager's log line after the deletion (`grep {ns}/{name}` in it: \"Forced deletion of orphaned Pod\" or \"… unscheduled terminating Pod\" name their rule, a \"garbage collecting N pods\" batch the threshold), the pod's last phase (`kubewhy watch --record`), and whether {node} existed then"
    )
}
