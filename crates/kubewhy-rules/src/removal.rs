//! Why a pod that still exists was marked for removal, from its last status: the kubelet's
//! eviction (`status.reason: Evicted` with the pressure message), the kubelet's critical-pod
//! preemption (`Preempting`), and the `DisruptionTarget` condition newer clusters set before
//! deleting a pod (PreemptionByScheduler, DeletionByTaintManager, EvictionByEvictionAPI,
//! DeletionByPodGC, TerminationByKubelet). Events corroborate (Evicted, Preempted,
//! TaintManagerEviction), but the status outlives them.

use crate::Findings;
use crate::disruption::{self, Preemptor, Said};
use crate::{Check, Ctx};
use kubewhy_model::objects::{Pod, condition};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};

pub(crate) struct Removal;

const CAUSES: &[Cause] = &[
    Cause::EvictedNodePressure,
    Cause::EvictedTaint,
    Cause::EvictedApi,
    Cause::Preempted,
    Cause::PodGcOrphaned,
    Cause::NodeShutdown,
];

impl Check for Removal {
    fn name(&self) -> &'static str {
        "removal"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
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

/// Why the pod is being removed, when its status or the data around it says: the cause, and
/// the evidence beyond the status itself.
struct Why {
    cause: Cause,
    confidence: Confidence,
    preemptor: Option<Preemptor>,
    /// The PodDisruptionBudget that granted its eviction, and when.
    pdb: Option<(String, String)>,
}

/// Whether `check` has a finding for the pod (the terminating check leaves such pods to it).
pub(crate) fn explains(ctx: &Ctx, pod: &Pod) -> bool {
    why(ctx, pod).is_some()
}

fn why(ctx: &Ctx, pod: &Pod) -> Option<Why> {
    let (ns, name) = (pod.metadata.ns(), pod.metadata.name.as_str());
    let node = pod.spec.node_name.as_deref().unwrap_or_default();
    let reason = pod.status.reason.as_deref().unwrap_or("");
    let target =
        condition(&pod.status.conditions, "DisruptionTarget").filter(|c| c.status == "True");
    let by_target = target.and_then(|c| disruption::target_cause(&c.reason, &c.message));
    let deleting = pod.metadata.deletion_timestamp.is_some();
    // The pod's events are read only for a pod whose status or deletion calls for them: most
    // pods are neither, and reading every pod's events was this check's whole cost at scale.
    let events = || ctx.snap.events_for("Pod", &pod.metadata);
    let plain = |cause| {
        Some(Why {
            cause,
            confidence: Confidence::High,
            preemptor: None,
            pdb: None,
        })
    };
    let preempted = |confidence| {
        let said: Vec<Said> = events().iter().map(|e| Said::of(e)).collect();
        Some(Why {
            cause: Cause::Preempted,
            confidence,
            preemptor: disruption::preemptor(ctx.snap, (ns, name), pod.spec.priority, node, &said),
            pdb: None,
        })
    };
    let message = pod.status.message.as_deref().unwrap_or("");
    if kubewhy_model::messages::pod::reason_cause(reason, message) == Some(Cause::NodeShutdown) {
        return plain(Cause::NodeShutdown);
    }
    match (reason, by_target) {
        ("Preempting", _) | (_, Some(Cause::Preempted)) => return preempted(Confidence::High),
        ("Evicted", _) => return plain(Cause::EvictedNodePressure),
        (_, Some(c)) => return plain(c),
        _ => {}
    }
    if !deleting {
        return None;
    }
    // Before newer clusters set DisruptionTarget (≈1.26): the scheduler's event on its victim,
    // the PodDisruptionBudget an eviction went through, a higher-priority pod nominated to
    // the node.
    if events()
        .iter()
        .any(|e| kubewhy_model::messages::pod::preempted_victim(&e.reason, &e.message))
    {
        return preempted(Confidence::High);
    }
    if let Some(pdb) = disruption::pdb_disrupted(ctx.snap, ns, name) {
        return Some(Why {
            cause: Cause::EvictedApi,
            confidence: Confidence::High,
            preemptor: None,
            pdb: Some(pdb),
        });
    }
    let nominated = disruption::preemptor(ctx.snap, (ns, name), pod.spec.priority, node, &[])?;
    Some(Why {
        cause: Cause::Preempted,
        confidence: Confidence::Medium,
        preemptor: Some(nominated),
        pdb: None,
    })
}

fn check(ctx: &Ctx, pod: &Pod) -> Option<Finding> {
    let w = why(ctx, pod)?;
    let key = ObjectKey::of("Pod", &pod.metadata);
    let (ns, name) = (pod.metadata.ns(), pod.metadata.name.as_str());
    // A pasted status stanza may not say the node.
    let node = pod
        .spec
        .node_name
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "NODE".into());
    let reason = pod.status.reason.as_deref().unwrap_or("");
    let message = pod.status.message.clone().unwrap_or_default();
    let target =
        condition(&pod.status.conditions, "DisruptionTarget").filter(|c| c.status == "True");
    let cause = w.cause;
    let victim_class = disruption::class_words(
        pod.spec.priority_class_name.as_deref().unwrap_or_default(),
        pod.spec.priority,
    );
    let (summary, group, explanation) = what_happened(&w, &node, ns, &message, &victim_class);
    let mut f = Finding::new(cause, Severity::Warning, summary)
        .object(key.clone())
        .group(group)
        .confidence(w.confidence);
    // The nominated preemptor (an event that names it is quoted below).
    if let Some(p) = w
        .preemptor
        .as_ref()
        .filter(|p| !p.source.starts_with("event "))
    {
        f = f.evidence(EvidenceKind::Field, None, p.source.clone(), p.quote.clone());
    }
    if let Some((pdb, at)) = &w.pdb {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&ObjectKey::new("PodDisruptionBudget", ns, pdb, "")),
            "status.disruptedPods",
            format!("{name}: {at} (the API server granted its eviction then)"),
        );
    }
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
    let after = if cause == Cause::NodeShutdown {
        shutdown_context(ctx, pod, pod.spec.node_name.as_deref().unwrap_or_default())
    } else {
        String::new()
    };
    f = f.explain(format!("{explanation}{after}{grace}"));
    Some(steps(f, cause, ns, name, &node))
}

/// How the disruption works (`disruption::mechanism`: every cause `why` finds has its text).
fn mechanism(cause: Cause) -> &'static str {
    disruption::mechanism(cause).unwrap_or_default()
}

/// The finding's summary, group key and explanation for the removal `w` found.
fn what_happened(
    w: &Why,
    node: &str,
    ns: &str,
    message: &str,
    victim_class: &str,
) -> (String, String, String) {
    // "The kubelet on node-1", or "The kubelet" when the data does not say the node.
    let kubelet = if node == "NODE" {
        "The kubelet".to_string()
    } else {
        format!("The kubelet on {node}")
    };
    match w.cause {
        Cause::EvictedNodePressure => {
            let what = pressure(message).unwrap_or_else(|| "a resource".into());
            (
                format!("{kubelet} evicted the pod: the node was low on {what}"),
                format!("pressure|{node}|{what}"),
                format!(
                    "{} An evicted pod stays as a Failed object (status.reason Evicted) until the pod garbage collector removes it; its controller, if any, starts a replacement — which may be evicted again if the node is still short of {what}.",
                    mechanism(w.cause)
                ),
            )
        }
        Cause::Preempted => (
            match &w.preemptor {
                Some(p) => format!(
                    "The pod was preempted by {} to make room on {}; its own priority: {victim_class}",
                    p.describe(),
                    if p.node.is_empty() {
                        node
                    } else {
                        p.node.as_str()
                    }
                ),
                None => format!(
                    "The pod was preempted to make room for a higher-priority pod; its own priority: {victim_class}"
                ),
            },
            format!("preempted|{node}"),
            mechanism(w.cause).to_string(),
        ),
        Cause::EvictedTaint => (
            if node == "NODE" {
                "The pod was evicted by a NoExecute taint on its node".to_string()
            } else {
                format!("The pod was evicted by a NoExecute taint on {node}")
            },
            format!("taint|{node}"),
            mechanism(w.cause).to_string(),
        ),
        Cause::EvictedApi => (
            match &w.pdb {
                Some((pdb, _)) => format!(
                    "The pod was evicted through the Eviction API, under PodDisruptionBudget {pdb}"
                ),
                None => "The pod was evicted through the Eviction API".to_string(),
            },
            format!("api|{ns}"),
            format!(
                "{} The API server's audit log names the caller.",
                mechanism(w.cause)
            ),
        ),
        Cause::NodeShutdown => (
            format!("{kubelet} stopped the pod: the node was shutting down"),
            format!("shutdown|{node}"),
            mechanism(w.cause).to_string(),
        ),
        _ => (
            "The pod garbage collector is deleting the pod".to_string(),
            format!("podgc|{node}"),
            format!(
                "{} It marked this one with DisruptionTarget before deleting it.",
                mechanism(Cause::PodGcOrphaned)
            ),
        ),
    }
}

/// Labels by which clouds and node provisioners mark spot / preemptible capacity.
const SPOT_LABELS: &[(&str, &str)] = &[
    ("cloud.google.com/gke-spot", "true"),
    ("cloud.google.com/gke-preemptible", "true"),
    ("eks.amazonaws.com/capacityType", "SPOT"),
    ("karpenter.sh/capacity-type", "spot"),
    ("kubernetes.azure.com/scalesetpriority", "spot"),
    ("node.kubernetes.io/lifecycle", "spot"),
    ("node-lifecycle", "spot"),
];

/// What the data says around a pod stopped by a node shutdown: whether the node was spot or
/// preemptible capacity (or is gone), and whether its controller replaced it.
fn shutdown_context(ctx: &Ctx, pod: &Pod, node: &str) -> String {
    let mut out = String::new();
    match ctx.snap.node(node) {
        Some(n) => {
            if let Some((k, v)) = SPOT_LABELS
                .iter()
                .find(|(k, v)| n.metadata.labels.get(k).is_some_and(|x| x.eq_ignore_ascii_case(v)))
            {
                out.push_str(&format!(
                    " Node {node} is spot / preemptible capacity ({k}={v}): the cloud reclaims such nodes at short notice, so this will happen again."
                ));
            }
        }
        None if ctx.snap.nodes_known() && !node.is_empty() => out.push_str(&format!(
            " Node {node} is no longer in the cluster (a reclaimed spot or preemptible instance's Node is deleted with it)."
        )),
        None => {}
    }
    let Some(owner) = pod.metadata.controller() else {
        out.push_str(" It is a bare pod: nothing creates it again.");
        return out;
    };
    let running = ctx
        .snap
        .pods
        .iter()
        .filter(|p| {
            p.metadata.ns() == pod.metadata.ns()
                && p.status.phase == "Running"
                && p.metadata.deletion_timestamp.is_none()
                && p.metadata.controller().is_some_and(|o| {
                    o.kind == owner.kind
                        && if owner.uid.is_empty() || o.uid.is_empty() {
                            o.name == owner.name
                        } else {
                            o.uid == owner.uid
                        }
                })
        })
        .count();
    if running > 0 {
        out.push_str(&format!(
            " Its {} {} has {running} running pod(s) now: it was replaced.",
            owner.kind, owner.name
        ));
    } else if ctx.snap.kinds_loaded.contains_key("Pod") {
        out.push_str(&format!(
            " Its {} {} has no running pod in the data: look at why the replacement does not run.",
            owner.kind, owner.name
        ));
    }
    out
}

/// The next steps per removal cause.
fn steps(f: Finding, cause: Cause, ns: &str, name: &str, node: &str) -> Finding {
    match cause {
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
    Cause::NodeShutdown => f
        .step("See whether the node is still there, and its events (a reclaimed spot instance's Node object is deleted)", Some(format!("kubectl describe node {node}")), RiskLevel::None, "")
        .step("Check the replacements run elsewhere", Some(format!("kubectl get pods -n {ns} -o wide")), RiskLevel::None, "")
        .step("Delete the stopped pod objects once inspected", Some(format!("kubectl delete pods -n {ns} --field-selector=status.phase=Failed")), RiskLevel::Low, "Removes their status, the only record of why they stopped.")
        .step("If spot or preemptible nodes carry this workload, spread it over several nodes and zones, give it a PodDisruptionBudget, and keep stateful or singleton pods on on-demand nodes", None, RiskLevel::Low, ""),
    _ => f.step("Check the controller manager runs", Some("kubectl -n kube-system get pods -l component=kube-controller-manager".into()), RiskLevel::None, ""),
}
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

    /// 1.20 sets no DisruptionTarget: a Terminating pod with the scheduler's Preempted event is
    /// preempted (with the preemptor), not "terminating normally"; a budget's disruptedPods
    /// naming a Terminating pod is an eviction.
    #[test]
    fn preemption_and_eviction_of_a_1_20_pod_being_removed() {
        let base = "apiVersion: v1\nkind: Pod\nmetadata: {name: victim, namespace: shop, uid: v1, labels: {app: batch}, deletionTimestamp: '2026-11-22T12:14:00Z', deletionGracePeriodSeconds: 900}\nspec: {nodeName: node-1, containers: [{name: c}]}\nstatus: {phase: Running, containerStatuses: [{name: c, state: {running: {}}}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: urgent, namespace: shop, uid: u1}\nspec: {priorityClassName: e2e-high, priority: 1000, containers: [{name: c}]}\nstatus: {phase: Pending, nominatedNodeName: node-1}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {conditions: [{type: Ready, status: 'True'}]}\n";
        let event = "---\napiVersion: v1\nkind: Event\nmetadata: {name: victim.1, namespace: shop}\ninvolvedObject: {kind: Pod, name: victim, namespace: shop, uid: v1}\nreason: Preempted\nmessage: Preempted by shop/urgent on node node-1\ntype: Normal\nsource: {component: default-scheduler}\nfirstTimestamp: '2026-11-22T11:59:00Z'\n";
        let f = findings(&format!("{base}{event}"));
        let f: Vec<&Finding> = f.iter().filter(|f| f.objects[0].name == "victim").collect();
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(
            (f[0].cause, f[0].confidence),
            (Cause::Preempted, kubewhy_model::Confidence::High)
        );
        assert_eq!(
            f[0].summary,
            "The pod was preempted by shop/urgent (PriorityClass e2e-high, 1000) to make room on node-1; its own priority: no PriorityClass, priority 0"
        );
        // Without the event, the nominated pod alone: medium.
        let f = findings(base);
        let f: Vec<&Finding> = f.iter().filter(|f| f.objects[0].name == "victim").collect();
        assert_eq!(
            (f[0].cause, f[0].confidence),
            (Cause::Preempted, kubewhy_model::Confidence::Medium)
        );
        // An eviction the API server granted under a budget.
        let evicted = base.replace(
            "status: {phase: Pending, nominatedNodeName: node-1}",
            "status: {phase: Pending}",
        ) + "---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {name: batch-pdb, namespace: shop}\nspec: {maxUnavailable: 1, selector: {matchLabels: {app: batch}}}\nstatus: {disruptedPods: {victim: '2026-11-22T11:59:00Z'}}\n";
        let f = findings(&evicted);
        let f: Vec<&Finding> = f.iter().filter(|f| f.objects[0].name == "victim").collect();
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].cause, Cause::EvictedApi);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.source == "status.disruptedPods"
                    && e.quote.starts_with("victim: 2026-11-22T11:59:00Z"))
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
