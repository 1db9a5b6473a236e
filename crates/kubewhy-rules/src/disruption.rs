//! Why a pod was taken away, as the evidence of a disruption says it: the one mapping of the
//! `DisruptionTarget` condition's reasons, who preempted a pod, and what shows an eviction
//! through the Eviction API when no audit log records it. `removal` (pods being removed now)
//! and `gone` (pods that vanished) both read them from here.

use kubewhy_model::objects::{Event, Pod};
use kubewhy_model::{Cause, Snapshot};
use regex::Regex;
use std::sync::LazyLock;

/// The cause a `DisruptionTarget` reason names (kubernetes-messages.md §4.5), and the older
/// spelling of the scheduler's. The kubelet's reason covers three acts its message tells apart:
/// critical-pod preemption (`Pod was preempted by Kubelet to accommodate a critical pod.`),
/// graceful node shutdown (`… imminent node shutdown.`) and eviction for pressure.
pub(crate) fn target_cause(reason: &str, message: &str) -> Option<Cause> {
    Some(match reason {
        "PreemptionByScheduler" | "PreemptionByKubeScheduler" => Cause::Preempted,
        "TerminationByKubelet" if message.contains("preempted by Kubelet") => Cause::Preempted,
        "DeletionByTaintManager" => Cause::EvictedTaint,
        "EvictionByEvictionAPI" => Cause::EvictedApi,
        "DeletionByPodGC" => Cause::PodGcOrphaned,
        "TerminationByKubelet" if kubewhy_model::messages::pod::shutdown(message) => {
            Cause::NodeShutdown
        }
        "TerminationByKubelet" => Cause::EvictedNodePressure,
        _ => return None,
    })
}

/// How each disruption works, in one sentence or two: the explanation `removal` (a pod being
/// removed now) and `gone` (a pod that vanished) both open with, each adding what it knows of
/// the pod. Every cause `target_cause` can name has its text (`every_disruption_is_explained`).
pub(crate) fn mechanism(cause: Cause) -> Option<&'static str> {
    Some(match cause {
        Cause::EvictedNodePressure => {
            "When a node runs low on memory, disk or PIDs, its kubelet evicts pods to protect itself: first those using more than they requested, lowest priority first."
        }
        Cause::Preempted => {
            "The scheduler (or, for critical pods, the kubelet) deletes lower-priority pods when a higher-priority pod cannot be placed otherwise. The victims are chosen by priority (PriorityClass); a pod without one has priority 0."
        }
        Cause::EvictedTaint => {
            "The taint eviction controller deletes pods that do not tolerate a NoExecute taint on their node (for node.kubernetes.io/not-ready and unreachable: after their tolerationSeconds, 300 s by default) — typically because the node stopped reporting."
        }
        Cause::EvictedApi => {
            "Something called the Eviction API for the pod: `kubectl drain`, the cluster autoscaler scaling a node down, a descheduler, or an operator. Evictions honour PodDisruptionBudgets; the pod is deleted gracefully and its controller, if any, replaces it."
        }
        Cause::PodGcOrphaned => {
            "When a Node object is deleted (the node was removed, or a cloud instance disappeared), the pod garbage collector force-deletes the pods still bound to it after a 40 s quarantine; their controllers create replacements elsewhere."
        }
        Cause::NodeShutdown => {
            "The node was shutting down (a spot or preemptible instance reclaimed, a maintenance reboot, an upgrade), and its kubelet's graceful node shutdown (shutdownGracePeriod) stopped every pod on it first: they end as Failed with reason Terminated, \"Pod was terminated in response to imminent node shutdown\". Their controllers create replacements elsewhere; bare pods are not replaced."
        }
        Cause::PodGcUnscheduledTerminating => {
            "A pod deleted before the scheduler placed it has no kubelet to finish its deletion; the pod garbage collector force-deletes such pods."
        }
        _ => return None,
    })
}

/// The identity kube-scheduler deletes its preemption victims as (audit log).
pub(crate) const SCHEDULER_USER: &str = "system:kube-scheduler";

/// Who preempted a pod, and how that is known.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Preemptor {
    /// `ns/name`, or `pod UID` when only that is known; empty when the evidence names no pod.
    pub pod: String,
    pub node: String,
    /// Its PriorityClass and priority, when the preemptor is in the data.
    pub class: String,
    pub priority: Option<i64>,
    /// Where it was read, for evidence: the event, or the preemptor's nominated node.
    pub source: String,
    pub quote: String,
}

impl Preemptor {
    /// `shop/urgent (PriorityClass high, 1000)`.
    pub fn describe(&self) -> String {
        let mut s = if self.pod.is_empty() {
            "a higher-priority pod".to_string()
        } else {
            self.pod.clone()
        };
        if !self.class.is_empty() || self.priority.is_some() {
            s.push_str(&format!(" ({})", class_words(&self.class, self.priority)));
        }
        s
    }
}

/// `PriorityClass high, 1000`, `no PriorityClass, priority 0`.
pub(crate) fn class_words(class: &str, priority: Option<i64>) -> String {
    match (class.is_empty(), priority) {
        (false, Some(p)) => format!("PriorityClass {class}, {p}"),
        (false, None) => format!("PriorityClass {class}"),
        (true, p) => format!("no PriorityClass, priority {}", p.unwrap_or(0)),
    }
}

/// The victim event's wordings (`kubewhy_model::messages::pod::preempted_victim`): `Preempted
/// by ns/name on node X` (≤1.26; `by ns/name on node X` before 1.16), `Preempted by a pod on node
/// X`, `Preempted by pod UID on node X` (current).
static PREEMPTED_BY: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:Preempted )?by (?:a pod|pod (\S+)|(\S+)/(\S+)) on node (\S+)").expect("regex")
});

/// An event as the victim's evidence holds it: live, or kept by the flight recorder.
pub(crate) struct Said<'a> {
    pub reason: &'a str,
    pub message: &'a str,
    /// Where it was read: `event Preempted from default-scheduler`.
    pub source: String,
}

impl<'a> Said<'a> {
    pub fn of(e: &'a Event) -> Said<'a> {
        Said {
            reason: &e.reason,
            message: &e.message,
            source: format!("event {} from {}", e.reason, e.origin()),
        }
    }
}

/// Who preempted the victim: the `Preempted` event's words, else a higher-priority pod the
/// scheduler nominated to the victim's node (it clears room there for that pod).
pub(crate) fn preemptor(
    snap: &Snapshot,
    victim: (&str, &str),
    victim_priority: Option<i64>,
    node: &str,
    events: &[Said],
) -> Option<Preemptor> {
    let with_pod = |pod: Option<&Pod>, mut p: Preemptor| {
        if let Some(pod) = pod {
            p.pod = format!("{}/{}", pod.metadata.ns(), pod.metadata.name);
            p.class = pod
                .spec
                .priority_class_name
                .as_deref()
                .unwrap_or_default()
                .to_string();
            p.priority = pod.spec.priority;
        }
        p
    };
    if let Some(e) = events
        .iter()
        .rev()
        .find(|e| kubewhy_model::messages::pod::preempted_victim(e.reason, e.message))
        && let Some(c) = PREEMPTED_BY.captures(e.message)
    {
        let node = c[4].trim_end_matches('.').to_string();
        let base = Preemptor {
            pod: String::new(),
            node,
            class: String::new(),
            priority: None,
            source: e.source.clone(),
            quote: e.message.to_string(),
        };
        if let Some(uid) = c.get(1) {
            let pod = snap
                .pods
                .iter()
                .map(|p| &**p)
                .find(|p| p.metadata.uid == uid.as_str());
            let mut p = with_pod(pod, base);
            if pod.is_none() {
                p.pod = format!("pod {}", uid.as_str());
            }
            return Some(p);
        }
        if let (Some(ns), Some(name)) = (c.get(2), c.get(3)) {
            let pod = snap
                .pods
                .iter()
                .map(|p| &**p)
                .find(|p| p.metadata.ns() == ns.as_str() && p.metadata.name == name.as_str());
            let mut p = with_pod(pod, base);
            p.pod = format!("{}/{}", ns.as_str(), name.as_str());
            return Some(p);
        }
        // "a pod": a nominated pod may still say which.
        let nominated = nominated_to(snap, victim, victim_priority, &base.node);
        return Some(match nominated {
            Some(pod) => with_pod(Some(pod), base),
            None => base,
        });
    }
    if node.is_empty() {
        return None;
    }
    let pod = nominated_to(snap, victim, victim_priority, node)?;
    Some(with_pod(
        Some(pod),
        Preemptor {
            pod: String::new(),
            node: node.to_string(),
            class: String::new(),
            priority: None,
            source: format!(
                "Pod {}/{}: status.nominatedNodeName, spec.priority",
                pod.metadata.ns(),
                pod.metadata.name
            ),
            quote: format!(
                "nominatedNodeName {node}, priority {}",
                pod.spec.priority.unwrap_or(0)
            ),
        },
    ))
}

/// The pod of highest priority the scheduler nominated to `node`, above the victim's priority.
fn nominated_to<'a>(
    snap: &'a Snapshot,
    victim: (&str, &str),
    victim_priority: Option<i64>,
    node: &str,
) -> Option<&'a Pod> {
    let floor = victim_priority.unwrap_or(0);
    snap.pods
        .iter()
        .map(|p| &**p)
        .filter(|p| p.status.nominated_node_name.as_deref() == Some(node))
        .filter(|p| (p.metadata.ns(), p.metadata.name.as_str()) != victim)
        .filter(|p| p.spec.priority.unwrap_or(0) > floor)
        .max_by_key(|p| p.spec.priority.unwrap_or(0))
}

/// A PodDisruptionBudget's `status.disruptedPods` naming the pod: the API server writes it
/// when it grants an eviction, before it deletes the pod (the disruption controller drops the
/// entry once the pod is being deleted, so it shows only in data read at that moment).
pub(crate) fn pdb_disrupted(snap: &Snapshot, ns: &str, pod: &str) -> Option<(String, String)> {
    snap.pdbs
        .iter()
        .filter(|b| b.metadata.ns() == ns)
        .find_map(|b| {
            b.status
                .disrupted_pods
                .get(pod)
                .map(|t| (b.metadata.name.to_string(), t.to_string()))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_disruption_is_explained() {
        for reason in [
            "PreemptionByScheduler",
            "PreemptionByKubeScheduler",
            "DeletionByTaintManager",
            "EvictionByEvictionAPI",
            "DeletionByPodGC",
            "TerminationByKubelet",
        ] {
            let cause = target_cause(reason, "").unwrap();
            assert!(mechanism(cause).is_some(), "{reason}: {cause:?}");
        }
        assert!(mechanism(Cause::PodGcUnscheduledTerminating).is_some());
        assert!(mechanism(Cause::ConfigmapMissing).is_none());
    }

    #[test]
    fn every_disruption_reason_has_one_cause() {
        for (reason, cause) in [
            ("PreemptionByScheduler", Cause::Preempted),
            ("PreemptionByKubeScheduler", Cause::Preempted),
            ("DeletionByTaintManager", Cause::EvictedTaint),
            ("EvictionByEvictionAPI", Cause::EvictedApi),
            ("DeletionByPodGC", Cause::PodGcOrphaned),
            ("TerminationByKubelet", Cause::EvictedNodePressure),
        ] {
            assert_eq!(target_cause(reason, ""), Some(cause), "{reason}");
        }
        assert_eq!(target_cause("SomethingNew", ""), None);
        assert_eq!(
            target_cause(
                "TerminationByKubelet",
                "Pod was preempted by Kubelet to accommodate a critical pod."
            ),
            Some(Cause::Preempted)
        );
    }

    #[test]
    fn the_preempted_event_names_the_preemptor_in_every_wording() {
        let snap = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: urgent, namespace: shop, uid: 5f1c}\nspec: {priorityClassName: high, priority: 1000, containers: [{name: c}]}\nstatus: {phase: Pending, nominatedNodeName: node-1}\n",
            "2026-11-22T12:00:00Z",
        );
        let ev = |msg: &str| Event {
            reason: "Preempted".into(),
            message: msg.into(),
            ..Default::default()
        };
        let ask = |msg: &str| {
            let e = ev(msg);
            preemptor(&snap, ("shop", "batch"), Some(0), "node-1", &[Said::of(&e)]).unwrap()
        };
        let p = ask("Preempted by shop/urgent on node node-1");
        assert_eq!(
            (p.pod.as_str(), p.node.as_str(), p.describe().as_str()),
            (
                "shop/urgent",
                "node-1",
                "shop/urgent (PriorityClass high, 1000)"
            )
        );
        assert_eq!(
            ask("Preempted by pod 5f1c on node node-1").pod,
            "shop/urgent"
        );
        assert_eq!(ask("Preempted by pod 9999 on node node-1").pod, "pod 9999");
        // "a pod": the pod nominated to that node says which.
        assert_eq!(ask("Preempted by a pod on node node-1").pod, "shop/urgent");
        // No event: the nominated pod of higher priority.
        let p = preemptor(&snap, ("shop", "batch"), Some(0), "node-1", &[]).unwrap();
        assert_eq!(p.quote, "nominatedNodeName node-1, priority 1000");
        // Not above the victim's priority: no preemptor.
        assert!(preemptor(&snap, ("shop", "batch"), Some(1000), "node-1", &[]).is_none());
    }
}
