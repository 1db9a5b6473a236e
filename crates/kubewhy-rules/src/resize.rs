//! In-place resizes of a running pod's resources (1.27+) that the kubelet cannot apply: the
//! `PodResizePending` condition (1.33+) with reason `Infeasible` (more than the node can ever
//! give, or a policy forbids it) or `Deferred` (not now: the node's free room is short), or the
//! older `status.resize` field with the same words (1.27–1.32, no message). The pod keeps
//! running with its old resources; nothing restarts it.

use crate::Findings;
use crate::podinfo::PodInfo;
use crate::{Check, Ctx};
use kubewhy_model::objects::condition;
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, RiskLevel, Severity};

pub(crate) struct Resize;

impl Check for Resize {
    fn name(&self) -> &'static str {
        "resize"
    }
    fn causes(&self) -> &'static [Cause] {
        &[Cause::ResizeInfeasible]
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for pod in &ctx.snap.pods {
            let cond = condition(&pod.status.conditions, "PodResizePending")
                .filter(|c| c.status == "True");
            let field = pod
                .status
                .resize
                .as_deref()
                .filter(|r| matches!(*r, "Infeasible" | "Deferred"));
            let state = match (cond, field) {
                (Some(c), _) if !c.reason.is_empty() => c.reason.as_str(),
                (_, Some(r)) => r,
                (Some(_), None) => "Deferred",
                (None, None) => continue,
            };
            let info = PodInfo::new(pod);
            let node = pod.spec.node_name.as_deref().unwrap_or("its node");
            let infeasible = state == "Infeasible";
            let mut f = Finding::new(
                Cause::ResizeInfeasible,
                if infeasible {
                    Severity::Error
                } else {
                    Severity::Warning
                },
                if infeasible {
                    format!("The pod's in-place resize cannot be applied on {node}: it asks for more than the node can give")
                } else {
                    format!("The pod's in-place resize waits: {node} has no room for it now")
                },
            )
            .object(info.key.clone())
            .group(format!("{}|{state}", info.owner_key(ctx.snap)));
            if let Some(c) = cond {
                f = f.evidence(
                    EvidenceKind::Condition,
                    Some(&info.key),
                    format!("status.conditions[PodResizePending] reason={}", c.reason),
                    c.message.clone(),
                );
            }
            if let Some(r) = field {
                f = f.evidence(EvidenceKind::Field, Some(&info.key), "status.resize", r);
            }
            if let Some(e) = ctx
                .snap
                .events_for("Pod", &pod.metadata)
                .into_iter()
                .rev()
                .find(|e| e.reason == "ResizeInfeasible" || e.reason == "ResizeDeferred")
            {
                f = f.event(Some(&info.key), e);
            }
            if cond.is_none_or(|c| c.message.is_empty()) {
                // 1.27–1.31 give no message: which resource is short is not in the data.
                f = f.confidence(Confidence::Medium);
            }
            let why = if infeasible {
                format!(
                    "The kubelet accepts a resize only if the pod's new requests fit the node's allocatable capacity; these do not fit {node} at all (or a CPU / memory manager static policy, swap, a static pod or Windows forbids resizing), so it will never be applied here."
                )
            } else {
                format!(
                    "The new requests fit {node}'s capacity but not what its other pods leave free now; the kubelet retries when room frees up."
                )
            };
            f = f
                .explain(format!(
                    "Resizing a pod in place (kubectl patch --subresource resize, or a VerticalPodAutoscaler in InPlaceOrRecreate mode) asks its node's kubelet to change the running containers' requests and limits. {why} Until then the pod keeps running with its old resources."
                ))
                .step(format!("See what {node} can give (Allocatable, Allocated resources)"), Some(format!("kubectl describe node {node}")), RiskLevel::None, "")
                .step("Compare the resize asked (spec) with what the pod runs with (status)", Some(format!("kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].resources}}{{\"\\n\"}}{{.status.containerStatuses[*].resources}}'", info.name(), info.ns())), RiskLevel::None, "");
            f = if infeasible {
                f.step("Ask for less, or recreate the pod with the new resources so the scheduler places it on a node that has them", Some(info.spec_change(ctx.snap, "rollout restart {wl}")), RiskLevel::Low, "Recreating restarts the pod.")
            } else {
                f.step(
                    "Wait, or free room on the node (or recreate the pod elsewhere)",
                    None,
                    RiskLevel::Low,
                    "",
                )
            };
            out.push(f);
        }
    }
}

#[cfg(test)]
mod tests {
    use kubewhy_model::{Cause, Confidence, Severity};

    /// 1.27–1.32 give only `status.resize`, without a message: medium confidence; `Deferred` is a
    /// warning, `Infeasible` an error.
    #[test]
    fn the_older_resize_field_alone() {
        for (state, severity) in [
            ("Infeasible", Severity::Error),
            ("Deferred", Severity::Warning),
        ] {
            let yaml = format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: a}}\nspec: {{nodeName: node-1, containers: [{{name: c}}]}}\nstatus: {{phase: Running, resize: {state}, conditions: [{{type: Ready, status: 'True'}}], containerStatuses: [{{name: c, ready: true, state: {{running: {{}}}}}}]}}\n"
            );
            let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
            assert_eq!(d.findings.len(), 1, "{state}");
            let f = &d.findings[0];
            assert_eq!(
                (f.cause, f.severity, f.confidence),
                (Cause::ResizeInfeasible, severity, Confidence::Medium),
                "{state}"
            );
        }
    }
}
