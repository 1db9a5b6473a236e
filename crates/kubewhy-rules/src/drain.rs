//! Drains that can never finish: a pod on a cordoned node (`spec.unschedulable`, what `kubectl
//! drain`, the cluster autoscaler's scale-down and node upgrades start with) is protected by a
//! PodDisruptionBudget that allows no disruption (`status.disruptionsAllowed: 0`). Every
//! eviction of it is refused with 429 `Cannot evict pod as it would violate the pod's
//! disruption budget.`, the drain retries every 5 s for ever, and the node is never emptied.
//! Read from state: the node's cordon, the budget's status and spec, the pod's labels. One
//! finding per budget.

use crate::Findings;
use crate::{Check, Ctx};
use kubewhy_model::objects::{Pod, PodDisruptionBudget};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};

pub(crate) struct Drain;

impl Check for Drain {
    fn name(&self) -> &'static str {
        "drain"
    }
    fn causes(&self) -> &'static [Cause] {
        &[Cause::DisruptionBudgetBlocking]
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        let snap = ctx.snap;
        if snap.pdbs.is_empty() || !snap.nodes.iter().any(|n| n.spec.unschedulable) {
            return;
        }
        for pod in &snap.pods {
            let Some(node) = pod
                .spec
                .node_name
                .as_deref()
                .and_then(|n| snap.node(n))
                .filter(|n| n.spec.unschedulable)
            else {
                continue;
            };
            if !evictable(pod) {
                continue;
            }
            for pdb in blocking(&snap.pdbs, pod) {
                out.push(finding(ctx, pod, pdb, &node.metadata.name));
            }
        }
    }
}

/// Whether a drain would evict the pod: it runs (finished pods are deleted, not evicted), is not
/// being deleted, and is neither a DaemonSet's (skipped by drain) nor a static pod's mirror.
fn evictable(pod: &Pod) -> bool {
    matches!(pod.status.phase.as_str(), "Running" | "Pending")
        && pod.metadata.deletion_timestamp.is_none()
        && !pod
            .metadata
            .controller()
            .is_some_and(|o| o.kind == "DaemonSet" || o.kind == "Node")
        && !pod
            .metadata
            .annotations
            .contains_key("kubernetes.io/config.mirror")
}

/// The budgets of the pod's namespace that select it and allow no disruption now.
fn blocking<'a>(
    pdbs: &'a [PodDisruptionBudget],
    pod: &'a Pod,
) -> impl Iterator<Item = &'a PodDisruptionBudget> {
    pdbs.iter().filter(move |b| {
        b.metadata.ns() == pod.metadata.ns()
            && b.status.disruptions_allowed <= 0
            // A budget whose status was never written (a manifest, not the API's object)
            // says nothing about what it allows.
            && (b.status.expected_pods > 0 || b.status.desired_healthy > 0 || b.status.current_healthy > 0)
            && b.spec
                .selector
                .as_ref()
                .is_some_and(|s| s.matches(&pod.metadata.labels))
    })
}

fn finding(ctx: &Ctx, pod: &Pod, pdb: &PodDisruptionBudget, node: &str) -> Finding {
    let (ns, name) = (pdb.metadata.ns(), pdb.metadata.name.as_str());
    let st = &pdb.status;
    let pdb_key = ObjectKey::of("PodDisruptionBudget", &pdb.metadata);
    let pod_key = ObjectKey::of("Pod", &pod.metadata);
    let rule = match (&pdb.spec.min_available, &pdb.spec.max_unavailable) {
        (Some(m), _) => format!("minAvailable={}", m.0),
        (None, Some(m)) => format!("maxUnavailable={}", m.0),
        (None, None) => "no minAvailable or maxUnavailable".into(),
    };
    let why = if st.current_healthy < st.desired_healthy {
        format!(
            "Its pods are not healthy enough: {} of {} are healthy and it needs {}, so not one may go until the others are Ready.",
            st.current_healthy, st.expected_pods, st.desired_healthy
        )
    } else if st.expected_pods > 0 && st.desired_healthy >= st.expected_pods {
        format!(
            "It demands every one of its {} pod(s) ({rule}): with minAvailable equal to the replicas (or maxUnavailable 0) no voluntary disruption is ever allowed.",
            st.expected_pods
        )
    } else {
        format!(
            "It allows {} disruption(s) now ({rule}; {} healthy, {} needed).",
            st.disruptions_allowed, st.current_healthy, st.desired_healthy
        )
    };
    let f = Finding::new(
        Cause::DisruptionBudgetBlocking,
        Severity::Warning,
        format!("PodDisruptionBudget {name} allows no disruption, so pods on cordoned node(s) cannot be evicted and the drain never finishes"),
    )
    .object(pod_key.clone())
    .object(pdb_key.clone())
    .group(format!("{ns}/{name}"))
    .evidence(
        EvidenceKind::Field,
        Some(&pdb_key),
        "status",
        format!(
            "disruptionsAllowed={} currentHealthy={} desiredHealthy={} expectedPods={}",
            st.disruptions_allowed, st.current_healthy, st.desired_healthy, st.expected_pods
        ),
    )
    .evidence(EvidenceKind::Field, Some(&pdb_key), "spec", rule.clone())
    .evidence(
        EvidenceKind::Field,
        Some(&ObjectKey::new("Node", "", node, "")),
        "spec.unschedulable",
        format!("true: {node} is cordoned (drained, scaled down or upgraded), and pod {} runs on it", pod.metadata.name),
    );
    let mut f = f.explain(format!(
        "Draining a node evicts its pods through the Eviction API, which refuses any eviction a PodDisruptionBudget does not allow (429 \"Cannot evict pod as it would violate the pod's disruption budget.\"); kubectl drain retries every 5 seconds until its timeout, the cluster autoscaler gives up on the node, a managed node upgrade stalls or forces it after its own timeout. {why} The pod stays, and so does the node."
    ));
    // The workload the budget protects: scaling it up is the safe way to let one pod go.
    let owner = crate::podinfo::PodInfo::new(pod).workload_ref(ctx.snap);
    if !owner.starts_with("pod/") {
        f = f.step(
            format!(
                "Scale {owner} up by one so the budget allows a disruption, drain, then scale back"
            ),
            Some(format!(
                "kubectl -n {ns} scale {owner} --replicas=<current + 1>"
            )),
            RiskLevel::Low,
            "A new pod needs room on another (uncordoned) node.",
        );
    }
    if st.current_healthy < st.desired_healthy {
        f = f.step(
            "Make the budget's unhealthy pods Ready first (they count against it)",
            Some(format!("kubewhy scan -n {ns}")),
            RiskLevel::None,
            "",
        );
    }
    f.step_at(
        0,
        "See the budget and the pods it selects",
        Some(format!("kubectl get pdb {name} -n {ns} -o wide; kubectl describe pdb {name} -n {ns}")),
        RiskLevel::None,
        "",
    )
    .step(
        "Or relax the budget while the node drains (allow one pod to go), and restore it after",
        Some(format!("kubectl -n {ns} patch pdb {name} --type=merge -p '{{\"spec\":{{\"minAvailable\":null,\"maxUnavailable\":1}}}}'")),
        RiskLevel::Medium,
        "While relaxed, the workload may lose a replica it was meant to keep.",
    )
    .step(
        "Last resort: delete the pods instead of evicting them",
        Some(format!("kubectl drain {node} --ignore-daemonsets --disable-eviction")),
        RiskLevel::High,
        "Bypasses every PodDisruptionBudget: the workload can lose availability (or quorum) outright.",
    )
    .confidence(Confidence::High)
}

#[cfg(test)]
mod tests {
    use kubewhy_model::Cause;

    fn snapshot(cordoned: bool, pdb_status: &str, owner: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Node\nmetadata: {{name: node-1}}\nspec: {{unschedulable: {cordoned}}}\nstatus: {{conditions: [{{type: Ready, status: 'True'}}]}}\n---\napiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {{name: db, namespace: data}}\nspec: {{maxUnavailable: 0, selector: {{matchLabels: {{app: db}}}}}}\nstatus: {pdb_status}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: db-0, namespace: data, labels: {{app: db}}, ownerReferences: [{{kind: {owner}, name: db, uid: s1, controller: true}}]}}\nspec: {{nodeName: node-1, containers: [{{name: c, image: x}}]}}\nstatus: {{phase: Running, conditions: [{{type: Ready, status: 'True'}}], containerStatuses: [{{name: c, ready: true, state: {{running: {{}}}}}}]}}\n"
        )
    }

    #[test]
    fn a_budget_that_allows_nothing_blocks_the_drain_of_a_cordoned_node() {
        let blocked =
            "{disruptionsAllowed: 0, currentHealthy: 2, desiredHealthy: 3, expectedPods: 3}";
        let d = crate::tests::diagnose_yaml(
            &snapshot(true, blocked, "StatefulSet"),
            "2026-11-22T10:00:00Z",
        );
        assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
        let f = &d.findings[0];
        assert_eq!(f.cause, Cause::DisruptionBudgetBlocking);
        assert!(
            f.explanation
                .contains("Its pods are not healthy enough: 2 of 3 are healthy and it needs 3"),
            "{}",
            f.explanation
        );
        assert!(f.remediation.iter().any(|s| s.command.as_deref()
            == Some("kubectl -n data scale statefulset/db --replicas=<current + 1>")));
        // Not cordoned, a budget that allows one, a budget without status, a DaemonSet's pod.
        for yaml in [
            snapshot(false, blocked, "StatefulSet"),
            snapshot(
                true,
                "{disruptionsAllowed: 1, currentHealthy: 3, desiredHealthy: 2, expectedPods: 3}",
                "StatefulSet",
            ),
            snapshot(true, "{}", "StatefulSet"),
            snapshot(true, blocked, "DaemonSet"),
        ] {
            let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
            assert!(
                d.findings
                    .iter()
                    .all(|f| f.cause != Cause::DisruptionBudgetBlocking),
                "{yaml}"
            );
        }
    }
}
