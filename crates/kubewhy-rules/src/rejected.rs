//! Pods the kubelet refused or ended on its own, read from their status (phase Failed, the
//! kubelet's `status.reason` and `status.message`; wordings in `kubewhy_model::messages::pod`):
//!
//! - `node-admission-rejected`: the kubelet's admission check failed for a pod already bound
//!   to its node (`OutOfcpu`, `OutOfmemory`, `OutOfpods`, `NodeAffinity`, `NodePorts`, …). The
//!   scheduler would not have placed it there, so either something set `spec.nodeName`
//!   itself (a controller or a user bypassing the scheduler: the pod has no PodScheduled
//!   condition) or the node changed between the scheduler's decision and the kubelet's check.
//!   A controller whose pods are refused creates new ones, which are refused too: hundreds of
//!   Failed pods, one finding per workload.
//! - `device-allocation-failed`: `UnexpectedAdmissionError` from a device plugin that could not
//!   hand over the devices the pod was placed for (unhealthy, unregistered, gone).
//! - `deadline-exceeded`: the pod's own `activeDeadlineSeconds` ran out.
//!
//! Node shutdown, the other way the kubelet ends a pod by itself, is a removal (`removal.rs`).
//! Events corroborate (`OutOfcpu`, `UnexpectedAdmissionError`, `DeadlineExceeded`).

use crate::Findings;
use crate::podinfo::{PodInfo, human_duration};
use crate::{Check, Ctx};
use kubewhy_model::messages::pod as words;
use kubewhy_model::objects::{Pod, condition};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, RiskLevel, Severity};

pub(crate) struct Rejected;

const CAUSES: &[Cause] = &[
    Cause::NodeAdmissionRejected,
    Cause::DeviceAllocationFailed,
    Cause::DeadlineExceeded,
    Cause::NodePressure,
];

impl Check for Rejected {
    fn name(&self) -> &'static str {
        "rejected"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for pod in &ctx.snap.pods {
            if pod.status.phase != "Failed" {
                continue;
            }
            let reason = pod.status.reason.as_deref().unwrap_or("");
            let message = pod.status.message.as_deref().unwrap_or("");
            match words::reason_cause(reason, message) {
                Some(c @ (Cause::NodeAdmissionRejected | Cause::DeviceAllocationFailed)) => {
                    // The kubelet could not write its own state (a device-plugin checkpoint)
                    // because the node's disk is full: the disk, not the pod, is the cause.
                    let c = if kubewhy_model::messages::known::find(message)
                        .is_some_and(|(e, _)| e.cause == Cause::NodePressure)
                    {
                        Cause::NodePressure
                    } else {
                        c
                    };
                    out.push(refused(ctx, pod, c, reason, message))
                }
                Some(Cause::DeadlineExceeded) => out.push(deadline(ctx, pod, reason, message)),
                _ => {}
            }
        }
    }
}

/// The pod's status and the kubelet's event about it, as evidence.
fn status_evidence(ctx: &Ctx, info: &PodInfo, f: Finding, reason: &str, message: &str) -> Finding {
    let mut f = f.evidence(
        EvidenceKind::Field,
        Some(&info.key),
        format!("status.phase=Failed status.reason={reason}"),
        message,
    );
    if let Some(e) = ctx
        .snap
        .events_for("Pod", &info.pod.metadata)
        .into_iter()
        .rev()
        .find(|e| e.reason == reason)
    {
        f = f.event(Some(&info.key), e);
    }
    f
}

/// Who put the pod on its node: the scheduler stamps PodScheduled on every pod it places; a
/// pod without it had `spec.nodeName` set by whoever created it.
fn placed_by_scheduler(pod: &Pod) -> bool {
    condition(&pod.status.conditions, "PodScheduled").is_some_and(|c| c.status == "True")
}

/// The devices an `UnexpectedAdmissionError` names (`… unhealthy devices nvidia.com/gpu`,
/// `… unavailable for nvidia.com/gpu. Requested: 4`), else the extended resources the pod asks.
fn device_resource(pod: &Pod, message: &str) -> Option<String> {
    static RESOURCE: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"(?:devices|unavailable for|device) ([a-z0-9.-]+\.[a-z]+/[A-Za-z0-9_.-]+?)[.,]?(?:\s|$)")
            .unwrap()
    });
    if let Some(c) = RESOURCE.captures(message) {
        return Some(c[1].to_string());
    }
    pod.spec
        .containers
        .iter()
        .flat_map(|c| c.resources.limits.iter().map(|(k, _)| k))
        .find(|k| k.contains('/'))
        .map(|k| k.to_string())
}

fn refused(ctx: &Ctx, pod: &Pod, cause: Cause, reason: &str, message: &str) -> Finding {
    let info = PodInfo::new(pod);
    let node = pod.spec.node_name.as_deref().unwrap_or("its node");
    // In commands, a node the data does not name is the placeholder to fill in.
    let node_arg = pod.spec.node_name.as_deref().unwrap_or("NODE");
    let wl = info.workload_ref(ctx.snap);
    let what = words::rejection_text(message);
    let by_scheduler = placed_by_scheduler(pod);
    let summary = match cause {
        Cause::NodePressure => {
            format!("The kubelet on {node} refused the pod because the node's disk is full: {what}")
        }
        Cause::DeviceAllocationFailed => {
            let dev = device_resource(pod, message).unwrap_or_else(|| "its devices".into());
            format!(
                "The device plugin on {node} could not allocate {dev}; the kubelet refused the pod"
            )
        }
        _ => match words::out_of(reason, message) {
            Some(words::OutOf { resource, .. }) => {
                format!(
                    "The kubelet on {node} refused the pod: not enough {resource} left on the node ({reason})"
                )
            }
            None => format!("The kubelet on {node} refused the pod: {what}"),
        },
    };
    let group = format!("{}|{node}|{reason}", info.owner_key(ctx.snap));
    let mut f = Finding::new(cause, Severity::Error, summary)
        .object(info.key.clone())
        .group(group);
    f = status_evidence(ctx, &info, f, reason, message);
    let placed = if by_scheduler {
        "The scheduler placed it there, so the node changed between the scheduler's decision and the kubelet's check: its labels, taints or free capacity (another pod started first, a static pod, a kubelet reserve), or two schedulers raced."
    } else {
        "It has no PodScheduled condition: the scheduler never placed it. Whoever created it set spec.nodeName directly and so bypassed the scheduler's checks — a controller (an operator, an older DaemonSet controller, a batch system) or a user."
    };
    f = f.evidence(
        EvidenceKind::Analysis,
        Some(&info.key),
        "status.conditions[PodScheduled]",
        if by_scheduler {
            "True: placed by a scheduler"
        } else {
            "absent: spec.nodeName was set without the scheduler"
        },
    );
    let explanation = match cause {
        Cause::NodePressure => format!(
            "Before it starts a pod the kubelet writes its own state under its root directory (/var/lib/kubelet: the device manager's checkpoint, the pod's directories); on {node} that write failed with \"no space left on device\", so it refused the pod ({reason}) and the pod ended Failed without running. The disk holding the kubelet's directory, usually the node's system disk, is full: every pod sent there is refused the same way until space is freed. The kubelet's eviction thresholds did not catch it, or the disk filled faster than they act."
        ),
        Cause::DeviceAllocationFailed => format!(
            "The kubelet runs the device plugins' Allocate for a pod's devices before starting it; on {node} that failed ({what}). The device plugin reports devices unhealthy or is not registered (restarted, crashed, its driver lost the GPU), so the node advertises devices it cannot hand over. The pod ends Failed without running; its controller, if any, creates another, which may land on the same node again. {placed}"
        ),
        _ => {
            let numbers = match words::out_of(reason, message) {
                Some(words::OutOf {
                    resource: r,
                    requested_used_capacity: Some((req, used, cap)),
                }) => format!(
                    " It asked for {req} {r} with {used} already used of the node's {cap}{}.",
                    if r == "cpu" {
                        " (millicores)"
                    } else if r == "memory" || r == "ephemeral-storage" {
                        " (bytes)"
                    } else {
                        ""
                    }
                ),
                _ => String::new(),
            };
            format!(
                "The kubelet checks a pod once more before running it — resources, node selector and affinity, host ports, taints — and refused this one ({reason}): it ends Failed at once, never having run.{numbers} {placed} A controller whose pods are refused creates new ones, which are refused the same way: the Failed pods pile up until they are deleted."
            )
        }
    };
    f = f.explain(explanation);
    f = match cause {
        Cause::NodePressure => f
            .step("See the node's conditions (DiskPressure) and what it reports of its disk", Some(format!("kubectl describe node {node_arg}")), RiskLevel::None, "")
            .step("On the node: find what fills the disk of the kubelet's directory (images, container logs, emptyDir volumes)", Some("df -h /var/lib/kubelet /var/lib/containerd; du -xsh /var/lib/kubelet/pods/* /var/log/pods/* 2>/dev/null | sort -h | tail".into()), RiskLevel::None, "")
            .step("Free space: remove unused images, then delete the refused pods so their controller creates them again", Some(format!("crictl rmi --prune; kubectl delete pods -n {} --field-selector=status.phase=Failed", info.ns())), RiskLevel::Low, "Pruning removes images no container uses (pulled again when needed); deleting Failed pods removes their status, the only record of why they stopped."),
        Cause::DeviceAllocationFailed => {
            let dev = device_resource(pod, message).unwrap_or_else(|| "the device".into());
            f.step(format!("See what {node} advertises of {dev} and what is allocated"), Some(format!("kubectl describe node {node_arg}")), RiskLevel::None, "")
                .step(format!("Check the device plugin pod on {node} (its logs say which devices it marked unhealthy)"), Some(format!("kubectl get pods -A -o wide --field-selector spec.nodeName={node_arg} | grep -i -e device-plugin -e gpu")), RiskLevel::None, "")
                .step("Restart the device plugin on that node, or fix the device (driver, XID errors), then delete the failed pods so their controller creates them again", Some(format!("kubectl delete pods -n {} --field-selector=status.phase=Failed", info.ns())), RiskLevel::Low, "Deleting Failed pods removes their status, the only record of why they stopped; their controller recreates them.")
        }
        _ => {
            let mut f = f.step("See the refused pods and their reasons", Some(format!("kubectl get pods -n {} --field-selector=status.phase=Failed -o custom-columns=NAME:.metadata.name,NODE:.spec.nodeName,REASON:.status.reason", info.ns())), RiskLevel::None, "");
            f = match reason {
                r if r.starts_with("OutOf") => f.step(format!("See what {node} has left (Allocated resources)"), Some(format!("kubectl describe node {node_arg}")), RiskLevel::None, ""),
                _ => f.step(format!("Compare the pod's node selector, affinity and tolerations with {node}'s labels and taints"), Some(format!("kubectl get node {node_arg} --show-labels; kubectl get node {node_arg} -o jsonpath='{{.spec.taints}}'")), RiskLevel::None, ""),
            };
            if !by_scheduler {
                f = f.step(format!("Let the scheduler place the pods: have {wl}'s creator set a nodeSelector or node affinity instead of spec.nodeName"), None, RiskLevel::Low, "");
            }
            f.step("Delete the refused pods: they never ran and their controller does not reuse them", Some(format!("kubectl delete pods -n {} --field-selector=status.phase=Failed", info.ns())), RiskLevel::Low, "Also deletes other Failed pods of the namespace, and the status that is their only record.")
        }
    };
    f
}

fn deadline(ctx: &Ctx, pod: &Pod, reason: &str, message: &str) -> Finding {
    let info = PodInfo::new(pod);
    let wl = info.workload_ref(ctx.snap);
    let limit = pod.spec.active_deadline_seconds;
    let ran = pod
        .status
        .start_time
        .zip(
            pod.status
                .container_statuses
                .iter()
                .filter_map(|c| c.state.terminated.as_ref()?.finished_at)
                .max(),
        )
        .map(|(s, e)| human_duration(e.as_second() - s.as_second()));
    let summary = match limit {
        Some(l) => format!(
            "The kubelet stopped the pod when its activeDeadlineSeconds ({}) ran out",
            human_duration(l)
        ),
        None => "The kubelet stopped the pod when its activeDeadlineSeconds ran out".to_string(),
    };
    let mut f = Finding::new(Cause::DeadlineExceeded, Severity::Error, summary)
        .object(info.key.clone())
        .group(format!("{}|deadline", info.owner_key(ctx.snap)));
    f = status_evidence(ctx, &info, f, reason, message);
    if let Some(l) = limit {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            "spec.activeDeadlineSeconds",
            l.to_string(),
        );
    } else {
        f = f.confidence(Confidence::Medium);
    }
    f.explain(format!(
        "A pod's spec.activeDeadlineSeconds bounds how long it may run, counted from when the kubelet started it; when it passes, the kubelet kills its containers and the pod ends Failed with reason DeadlineExceeded{}. Nothing crashed: the work took longer than its owner allows (slow input, a hang, a deadline set for a smaller job). A Job sets the same field on its pods from its template.",
        ran.map(|r| format!(" (it ran {r})")).unwrap_or_default()
    ))
    .step("See the deadline and when the pod started", Some(format!("kubectl get pod {} -n {} -o jsonpath='{{.spec.activeDeadlineSeconds}} {{.status.startTime}}'", info.name(), info.ns())), RiskLevel::None, "")
    .step("Read what it was doing when it was stopped", Some(format!("kubectl logs {} -n {} --all-containers", info.name(), info.ns())), RiskLevel::None, "")
    .step(format!("Raise activeDeadlineSeconds in {wl}, or make the work finish in time"), None, RiskLevel::Low, "")
}

#[cfg(test)]
mod tests {
    use kubewhy_model::{Cause, Confidence};

    fn pod(i: usize, reason: &str, message: &str, scheduled: bool) -> String {
        format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: w-5f7d9c8b6-{i:05}, namespace: shop, uid: u{i}, creationTimestamp: '2026-11-22T09:00:00Z', ownerReferences: [{{kind: ReplicaSet, name: w-5f7d9c8b6, uid: rs1, controller: true}}]}}\nspec: {{nodeName: node-1, containers: [{{name: c, image: x}}]}}\nstatus: {{phase: Failed, reason: {reason}, message: \"{message}\"{}}}\n",
            if scheduled {
                ", conditions: [{type: PodScheduled, status: 'True'}]"
            } else {
                ""
            }
        )
    }

    /// A controller that leaves 300 refused pods is one finding on the workload, with the count.
    #[test]
    fn three_hundred_refused_pods_are_one_finding() {
        let yaml: String = (0..300)
            .map(|i| pod(i, "OutOfmemory", "Pod was rejected: Node didn't have enough resource: memory, requested: 8589934592, used: 1073741824, capacity: 8589934592", false))
            .collect();
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
        assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
        let f = &d.findings[0];
        assert_eq!(f.cause, Cause::NodeAdmissionRejected);
        assert_eq!(f.objects.len(), 300);
        assert_eq!(f.workloads.len(), 1);
        assert_eq!(f.workloads[0].pods, 300);
        assert!(d.unexplained.is_empty());
    }

    /// Every era's wording: `Pod ` before 1.26, the predicate's description from 1.31; a pod the
    /// scheduler placed is a race, not a bypass.
    #[test]
    fn rejections_of_every_version() {
        for (reason, message, scheduled, cause, says) in [
            (
                "NodeAffinity",
                "Pod Predicate NodeAffinity failed",
                false,
                Cause::NodeAdmissionRejected,
                "bypassed the scheduler",
            ),
            (
                "NodeAffinity",
                "Pod was rejected: Predicate NodeAffinity failed: node(s) didn't match Pod's node affinity/selector",
                true,
                Cause::NodeAdmissionRejected,
                "the node changed between",
            ),
            (
                "OutOfpods",
                "Pod Node didn't have enough resource: pods, requested: 1, used: 110, capacity: 110",
                true,
                Cause::NodeAdmissionRejected,
                "It asked for 1 pods with 110 already used of the node's 110.",
            ),
            (
                "UnexpectedAdmissionError",
                "Pod was rejected: Allocate failed due to requested number of devices unavailable for nvidia.com/gpu. Requested: 4, Available: 0, which is unexpected",
                true,
                Cause::DeviceAllocationFailed,
                "nvidia.com/gpu",
            ),
            (
                "SysctlForbidden",
                "Pod was rejected: forbidden sysctl: \\\"net.core.somaxconn\\\" not allowlisted",
                true,
                Cause::NodeAdmissionRejected,
                "SysctlForbidden",
            ),
        ] {
            let d = crate::tests::diagnose_yaml(
                &pod(1, reason, message, scheduled),
                "2026-11-22T10:00:00Z",
            );
            assert_eq!(d.findings.len(), 1, "{reason}: {:#?}", d.findings);
            let f = &d.findings[0];
            assert_eq!(
                (f.cause, f.confidence),
                (cause, Confidence::High),
                "{reason}"
            );
            let all = format!("{} {} {:?}", f.summary, f.explanation, f.evidence);
            assert!(all.contains(says), "{reason}: {all}");
        }
    }

    #[test]
    fn a_deadline_without_its_spec_is_less_certain() {
        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: r, namespace: a}\nspec: {nodeName: node-1}\nstatus: {phase: Failed, reason: DeadlineExceeded, message: Pod was active on the node longer than the specified deadline}\n";
        let d = crate::tests::diagnose_yaml(yaml, "2026-11-22T10:00:00Z");
        assert_eq!(d.findings.len(), 1);
        assert_eq!(
            (d.findings[0].cause, d.findings[0].confidence),
            (Cause::DeadlineExceeded, Confidence::Medium)
        );
    }
}
