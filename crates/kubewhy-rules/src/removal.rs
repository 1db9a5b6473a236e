//! Why a pod that still exists was marked for removal, from its last status: the kubelet's
//! eviction (`status.reason: Evicted` with the pressure message), the kubelet's critical-pod
//! preemption (`Preempting`), and the `DisruptionTarget` condition newer clusters set before
//! deleting a pod (PreemptionByScheduler, DeletionByTaintManager, EvictionByEvictionAPI,
//! DeletionByPodGC, TerminationByKubelet). Events corroborate (Evicted, Preempted,
//! TaintManagerEviction), but the status outlives them.

use crate::{Check, Ctx};
use kubewhy_model::objects::{Pod, condition};
use kubewhy_model::{Cause, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};

pub(crate) struct Removal;

const CAUSES: &[Cause] = &[
    Cause::EvictedNodePressure,
    Cause::EvictedTaint,
    Cause::EvictedApi,
    Cause::Preempted,
    Cause::PodGcOrphaned,
];

impl Check for Removal {
    fn name(&self) -> &'static str {
        "removal"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Vec<Finding>) {
        for pod in &ctx.snap.pods {
            if let Some(f) = check(ctx, pod) {
                out.push(f);
            }
        }
    }
}

/// The pressure a kubelet eviction message names: `The node was low on resource: memory.` →
/// `memory`; `The node had condition: [DiskPressure].` → `DiskPressure`.
fn pressure(msg: &str) -> Option<String> {
    for marker in ["low on resource: ", "had condition: "] {
        if let Some(rest) = msg.split(marker).nth(1) {
            let word: String = rest
                .trim_start_matches('[')
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '.')
                .collect();
            let word = word.trim_end_matches('.').to_string();
            if !word.is_empty() {
                return Some(word);
            }
        }
    }
    None
}

fn check(ctx: &Ctx, pod: &Pod) -> Option<Finding> {
    let key = ObjectKey::of("Pod", &pod.metadata);
    let (ns, name) = (pod.metadata.ns(), pod.metadata.name.as_str());
    let node = pod.spec.node_name.clone().unwrap_or_default();
    let reason = pod.status.reason.as_deref().unwrap_or("");
    let message = pod.status.message.clone().unwrap_or_default();
    let target =
        condition(&pod.status.conditions, "DisruptionTarget").filter(|c| c.status == "True");

    let (cause, summary, group, explanation) = match (reason, target.map(|c| c.reason.as_str())) {
        ("Evicted", _) | (_, Some("TerminationByKubelet")) if reason != "Preempting" => {
            let what = pressure(&message).unwrap_or_else(|| "a resource".into());
            (
                Cause::EvictedNodePressure,
                format!("The kubelet on {node} evicted the pod: the node was low on {what}"),
                format!("pressure|{node}|{what}"),
                format!("When a node runs low on memory, disk or PIDs, its kubelet evicts pods to protect itself: first those using more than they requested, lowest priority first. An evicted pod stays as a Failed object (status.reason Evicted) until the pod garbage collector removes it; its controller, if any, starts a replacement — which may be evicted again if the node is still short of {what}."),
            )
        }
        (_, Some("PreemptionByScheduler")) | ("Preempting", _) => (
            Cause::Preempted,
            "The pod was preempted to make room for a higher-priority pod".to_string(),
            format!("preempted|{node}"),
            "The scheduler (or, for critical pods, the kubelet) deletes lower-priority pods when a higher-priority pod cannot be placed otherwise. The victims are chosen by priority (PriorityClass); a pod without one has priority 0.".to_string(),
        ),
        (_, Some("DeletionByTaintManager")) => (
            Cause::EvictedTaint,
            format!("The pod was evicted by a NoExecute taint on {node}"),
            format!("taint|{node}"),
            "The taint eviction controller deletes pods that do not tolerate a NoExecute taint on their node (for node.kubernetes.io/not-ready and unreachable: after their tolerationSeconds, 300 s by default) — typically because the node stopped reporting.".to_string(),
        ),
        (_, Some("EvictionByEvictionAPI")) => (
            Cause::EvictedApi,
            "The pod was evicted through the Eviction API".to_string(),
            format!("api|{ns}"),
            "Something called the Eviction API for this pod: `kubectl drain`, the cluster autoscaler scaling a node down, a descheduler, or an operator. Evictions respect PodDisruptionBudgets. The API server's audit log names the caller.".to_string(),
        ),
        (_, Some("DeletionByPodGC")) => (
            Cause::PodGcOrphaned,
            "The pod garbage collector is deleting the pod".to_string(),
            format!("podgc|{node}"),
            "The pod garbage collector deletes pods whose node no longer exists (after a 40 s quarantine) and terminating pods that were never scheduled; it marked this one with DisruptionTarget before deleting it.".to_string(),
        ),
        _ => return None,
    };
    let mut f = Finding::new(cause, Severity::Warning, summary)
        .object(key.clone())
        .group(group);
    if !reason.is_empty() {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&key),
            format!("status.reason={reason}"),
            message.clone(),
        );
    }
    if let Some(c) = target {
        f = f.evidence(
            EvidenceKind::Condition,
            Some(&key),
            format!("status.conditions[DisruptionTarget] reason={}", c.reason),
            c.message.clone(),
        );
    }
    let wanted: &[&str] = match cause {
        Cause::EvictedNodePressure => &["Evicted"],
        Cause::Preempted => &["Preempted", "Preempting"],
        Cause::EvictedTaint => &["TaintManagerEviction"],
        _ => &[],
    };
    if let Some(e) = ctx
        .snap
        .events_for("Pod", &pod.metadata)
        .into_iter()
        .rev()
        .find(|e| wanted.contains(&e.reason.as_str()))
    {
        f = f.event(Some(&key), e);
    }
    let grace = match pod.metadata.deletion_timestamp {
        Some(end) if end.as_second() > ctx.now.as_second() => {
            format!(" The deletion is under way: the grace period ends at {end}.")
        }
        _ => String::new(),
    };
    f = f.explain(format!("{explanation}{grace}"));
    f = match cause {
        Cause::EvictedNodePressure => f
            .step("See the node's pressure conditions and what uses the resource", Some(format!("kubectl describe node {node}")), RiskLevel::None, "")
            .step("Set requests that match real usage (pods over their requests are evicted first), or limits", None, RiskLevel::Low, "")
            .step("Delete the evicted pod objects once inspected", Some(format!("kubectl delete pods -n {ns} --field-selector=status.phase=Failed")), RiskLevel::Low, "Removes their status, the only record of why they stopped."),
        Cause::Preempted => f
            .step("See the pod's priority and the priority classes", Some(format!("kubectl get pod {name} -n {ns} -o jsonpath='{{.spec.priorityClassName}} {{.spec.priority}}'; kubectl get priorityclasses")), RiskLevel::None, "")
            .step("Give the workload a PriorityClass, or add capacity so preemption is not needed", None, RiskLevel::Low, ""),
        Cause::EvictedTaint => f
            .step("See the node's taints and conditions", Some(format!("kubectl describe node {node}")), RiskLevel::None, "")
            .step("If the workload must ride out short outages, raise its tolerationSeconds for not-ready/unreachable", None, RiskLevel::Low, ""),
        Cause::EvictedApi => f
            .step("Find who evicted it in the API server's audit log (verb create, subresource eviction)", None, RiskLevel::None, "")
            .step("Protect the workload with a PodDisruptionBudget", None, RiskLevel::Low, ""),
        _ => f.step("Check the controller manager runs", Some("kubectl -n kube-system get pods -l component=kube-controller-manager".into()), RiskLevel::None, ""),
    };
    Some(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(yaml: &str) -> Vec<Finding> {
        crate::tests::diagnose_yaml(yaml, "2026-11-22T12:00:00Z").findings
    }

    #[test]
    fn the_pressure_is_read_from_the_eviction_message() {
        assert_eq!(
            pressure(
                "The node was low on resource: memory. Threshold quantity: 100Mi, available: 50Mi. "
            )
            .as_deref(),
            Some("memory")
        );
        assert_eq!(
            pressure("Pod was rejected: The node had condition: [DiskPressure]. ").as_deref(),
            Some("DiskPressure")
        );
        assert_eq!(
            pressure("The node was low on resource: ephemeral-storage. ").as_deref(),
            Some("ephemeral-storage")
        );
    }

    #[test]
    fn disruption_target_reasons_map_to_their_causes() {
        for (reason, cause) in [
            ("PreemptionByScheduler", Cause::Preempted),
            ("DeletionByTaintManager", Cause::EvictedTaint),
            ("EvictionByEvictionAPI", Cause::EvictedApi),
            ("DeletionByPodGC", Cause::PodGcOrphaned),
        ] {
            let yaml = format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: w, namespace: shop, deletionTimestamp: '2026-11-22T11:59:50Z', deletionGracePeriodSeconds: 30}}\nspec: {{nodeName: node-1, containers: [{{name: c}}]}}\nstatus: {{phase: Running, conditions: [{{type: DisruptionTarget, status: 'True', reason: {reason}, message: x}}]}}\n---\napiVersion: v1\nkind: Node\nmetadata: {{name: node-1}}\nstatus: {{conditions: [{{type: Ready, status: 'True'}}]}}\n"
            );
            let f = findings(&yaml);
            let got: Vec<Cause> = f.iter().map(|f| f.cause).collect();
            assert!(got.contains(&cause), "{reason}: {got:?}");
        }
    }
}
