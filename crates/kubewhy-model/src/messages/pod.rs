//! A pod's (or a Job's) own words about why it ended or never ran: what the kubelet writes into
//! `status` when it refuses a pod it was given (admission), ends one (activeDeadlineSeconds,
//! graceful node shutdown) or cannot resize one; lifecycle hooks that fail; the Job
//! controller's failure conditions; the eviction API's refusal under a PodDisruptionBudget;
//! scheduling gates. Wordings of Kubernetes 1.22–1.34, each with the source it comes from
//! (`kubernetes/kubernetes` unless said):
//!
//! | words | source |
//! |---|---|
//! | reason `OutOf<resource>`, `Node didn't have enough resource: cpu, requested: …` | `pkg/kubelet/lifecycle/predicate.go` |
//! | reason `NodeAffinity` / `NodeName` / `NodePorts` / `TaintToleration`, `Predicate NodeAffinity failed[: node(s) …]` (the description from 1.31) | `pkg/kubelet/lifecycle/predicate.go` |
//! | message prefix `Pod ` (≤1.25) or `Pod was rejected: ` (1.26+) | `pkg/kubelet/kubelet.go` (`rejectPod`) |
//! | reason `UnexpectedAdmissionError`, `Allocate failed due to …, which is unexpected` | `pkg/kubelet/cm/admission/errors.go`, `cm/devicemanager/manager.go` |
//! | reason `TopologyAffinityError`, `SMTAlignmentError`, `SysctlForbidden`, `PodOSNotSupported` | `cm/topologymanager`, `cm/cpumanager/policy_static.go`, `sysctl/allowlist.go`, `lifecycle/predicate.go` |
//! | reason `Terminated`, `Pod was terminated in response to imminent node shutdown.` (≤1.21: `Shutdown`, `Node is shutting, evicting pods`); `NodeShutdown`, `Pod was rejected as the node is shutting down.` | `pkg/kubelet/nodeshutdown/nodeshutdown_manager*.go` |
//! | reason `DeadlineExceeded`, `Pod was active on the node longer than the specified deadline` | `pkg/kubelet/active_deadline.go` |
//! | `PodResizePending` (1.33+) / `status.resize` (1.27–1.32) `Infeasible` / `Deferred`, `Node didn't have enough capacity: …`, events `ResizeInfeasible` / `ResizeDeferred` (1.32) | `pkg/kubelet/kubelet.go`, `pkg/kubelet/allocation/allocation_manager.go` (1.34) |
//! | waiting reason `PostStartHookError`; events `FailedPostStartHook` / `FailedPreStopHook` (`PostStartHook failed` from 1.26, the hook's message before); `Exec lifecycle hook ([…]) for Container … failed - error: …` | `pkg/kubelet/kuberuntime/kuberuntime_container.go`, `pkg/kubelet/lifecycle/handlers.go` |
//! | Job conditions `Failed` / `FailureTarget` (1.31+ first): `BackoffLimitExceeded` `Job has reached the specified backoff limit`, `DeadlineExceeded` `Job was active longer than specified deadline`, `PodFailurePolicy` `… matching FailJob rule at index N`, `MaxFailedIndexesExceeded` `… maximal number of failed indexes`, `FailedIndexes` | `pkg/controller/job/job_controller.go`, `pod_failure_policy.go` |
//! | 429 `Cannot evict pod as it would violate the pod's disruption budget.`, `The disruption budget NAME needs N healthy pods and has M currently`; kubectl drain's `error when evicting pods/"NAME" -n "NS" (will retry after 5s): …` | `pkg/registry/core/pod/storage/eviction.go`; `kubernetes/kubectl` `pkg/drain/drain.go` |
//! | PodScheduled reason `SchedulingGated`, `Scheduling is blocked due to non-empty scheduling gates` | `pkg/registry/core/pod/strategy.go` |

use crate::Cause;
use regex::Regex;
use std::sync::LazyLock;

/// The kubelet's admission reasons other than `OutOf<resource>`: the scheduler's filters it runs
/// again (by the names of every era), and its own checks.
const REFUSED: &[&str] = &[
    "NodeAffinity",
    "NodeName",
    "NodePorts",
    "TaintToleration",
    "MatchNodeSelector",
    "PodFitsHostPorts",
    "PodFitsResources",
    "HostName",
    "PodOSNotSupported",
    "PodOSSelectorNodeLabelDoesNotMatch",
    "SysctlForbidden",
    "AppArmor",
    "TopologyAffinityError",
    "SMTAlignmentError",
    "InitContainerRestartPolicyForbidden",
    "SupplementalGroupsPolicyNotSupported",
    "InvalidNodeInfo",
    "UnexpectedPredicateFailureType",
];

/// What a pod's `status.reason` (with its `status.message`) says about why it ended or never
/// ran; `None` for reasons that are not about the pod's end (or that other catalogues read:
/// `Evicted`, `Preempting`, `NodeLost`).
pub fn reason_cause(reason: &str, message: &str) -> Option<Cause> {
    match reason {
        "UnexpectedAdmissionError" if device_failure(message) || message.is_empty() => {
            Some(Cause::DeviceAllocationFailed)
        }
        "UnexpectedAdmissionError" | "UnknownReason" => Some(Cause::NodeAdmissionRejected),
        r if r.starts_with("OutOf") && r.len() > "OutOf".len() => {
            Some(Cause::NodeAdmissionRejected)
        }
        r if REFUSED.contains(&r) => Some(Cause::NodeAdmissionRejected),
        "NodeShutdown" => Some(Cause::NodeShutdown),
        "Terminated" | "Shutdown" if shutdown(message) => Some(Cause::NodeShutdown),
        // 1.21's reason is the shutdown's alone, and a pod's own reason `Terminated` is set by
        // nothing but the shutdown manager (a container's Terminated is a state, not this).
        "Shutdown" => Some(Cause::NodeShutdown),
        "Terminated" if message.is_empty() => Some(Cause::NodeShutdown),
        "DeadlineExceeded" => Some(Cause::DeadlineExceeded),
        _ => None,
    }
}

/// Whether an admission message is a device plugin's failure to hand over a device.
pub fn device_failure(message: &str) -> bool {
    // The static CPU manager's refusal reaches the pod through the same `Allocate failed due to
    // …, which is unexpected` (the topology manager's wording for every resource manager).
    if message.contains("cpus available") {
        return false;
    }
    [
        "Allocate failed",
        "devices unavailable for",
        "unhealthy devices",
        "unregistered device",
        "device plugin",
    ]
    .iter()
    .any(|p| message.contains(p))
}

/// Whether a termination message is the graceful node shutdown's (every era).
pub fn shutdown(message: &str) -> bool {
    message.contains("imminent node shutdown")
        || message.contains("Node is shutting")
        || message.contains("node is shutting down")
}

/// The kubelet's rejection message without the prefix its era put before it: `Pod was rejected:
/// ` (1.26+) or `Pod ` (≤1.25).
pub fn rejection_text(message: &str) -> &str {
    message
        .strip_prefix("Pod was rejected: ")
        .or_else(|| message.strip_prefix("Pod "))
        .unwrap_or(message)
        .trim()
}

/// What an `OutOf<resource>` rejection says: the resource, and the request, use and capacity its
/// message gives (cpu in millicores, memory and ephemeral-storage in bytes, others as counts).
#[derive(Debug, PartialEq, Eq)]
pub struct OutOf {
    pub resource: String,
    pub requested_used_capacity: Option<(i64, i64, i64)>,
}

/// The `OutOf<resource>` rejection a pod's reason and message say.
pub fn out_of(reason: &str, message: &str) -> Option<OutOf> {
    static NUMBERS: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"enough resource: (\S+), requested: (\d+), used: (\d+), capacity: (\d+)")
            .unwrap()
    });
    let resource = reason.strip_prefix("OutOf").filter(|r| !r.is_empty())?;
    let numbers = NUMBERS
        .captures(message)
        .and_then(|c| Some((c[2].parse().ok()?, c[3].parse().ok()?, c[4].parse().ok()?)));
    Some(OutOf {
        resource: resource.to_string(),
        requested_used_capacity: numbers,
    })
}

/// What a Job's `Failed` (or, 1.31+, `FailureTarget`) condition reason says.
pub fn job_failure_cause(reason: &str) -> Option<Cause> {
    match reason {
        "BackoffLimitExceeded"
        | "PodFailurePolicy"
        | "MaxFailedIndexesExceeded"
        | "FailedIndexes" => Some(Cause::JobBackoffExceeded),
        "DeadlineExceeded" => Some(Cause::DeadlineExceeded),
        _ => None,
    }
}

/// What an event's reason alone says of these states (the kubelet's rejection events carry
/// the reason and the message without the `Pod was rejected` prefix).
pub fn event_cause(reason: &str, message: &str) -> Option<Cause> {
    match reason {
        _ if preempted_victim(reason, message) => Some(Cause::Preempted),
        "FailedPostStartHook" | "FailedPreStopHook" => Some(Cause::LifecycleHookFailed),
        "BackoffLimitExceeded" => Some(Cause::JobBackoffExceeded),
        "ResizeInfeasible" | "ResizeDeferred" => Some(Cause::ResizeInfeasible),
        // The Job controller's DeadlineExceeded event and the kubelet's share the reason.
        _ => reason_cause(reason, message),
    }
}

/// The scheduler's event on a pod it preempted (its victim, which it deletes): `Preempted by
/// NS/NAME on node X` (≤1.26), `Preempted by a pod on node X`, `Preempted by pod UID on node X`
/// (current), and before 1.16 (pkg/scheduler/scheduler.go, `preempt`) `by NS/NAME on node X`.
pub fn preempted_victim(reason: &str, message: &str) -> bool {
    reason == "Preempted"
        && (message.starts_with("Preempted by ")
            || message.strip_prefix("by ").is_some_and(|rest| {
                rest.split_once(" on node ")
                    .is_some_and(|(pod, _)| pod.contains('/') && !pod.contains(' '))
            }))
}

/// (a phrase, the cause it names) for these states in any text: a status, an event, a log
/// line or a sentence. The first phrase found in a text wins.
const PHRASES: &[(&str, Cause)] = &[
    (
        "Scheduling is blocked due to non-empty scheduling gates",
        Cause::SchedulingGated,
    ),
    ("reason: SchedulingGated", Cause::SchedulingGated),
    ("SchedulingGated", Cause::SchedulingGated),
    ("kueue.x-k8s.io/admission", Cause::SchedulingGated),
    (
        "Allocate failed due to not enough cpus",
        Cause::NodeAdmissionRejected,
    ),
    ("Allocate failed due to", Cause::DeviceAllocationFailed),
    (
        "cannot allocate unhealthy devices",
        Cause::DeviceAllocationFailed,
    ),
    (
        "requested number of devices unavailable for",
        Cause::DeviceAllocationFailed,
    ),
    ("UnexpectedAdmissionError", Cause::DeviceAllocationFailed),
    (
        "Node didn't have enough capacity: ",
        Cause::ResizeInfeasible,
    ),
    ("PodResizePending", Cause::ResizeInfeasible),
    ("resize: Infeasible", Cause::ResizeInfeasible),
    ("resize: Deferred", Cause::ResizeInfeasible),
    ("\"resize\":\"Infeasible\"", Cause::ResizeInfeasible),
    ("\"resize\": \"Infeasible\"", Cause::ResizeInfeasible),
    ("ResizeInfeasible", Cause::ResizeInfeasible),
    ("ResizeDeferred", Cause::ResizeInfeasible),
    (
        "Pod was rejected: Node didn't have enough resource",
        Cause::NodeAdmissionRejected,
    ),
    (
        "Pod Node didn't have enough resource",
        Cause::NodeAdmissionRejected,
    ),
    (
        "Node didn't have enough resource: ",
        Cause::NodeAdmissionRejected,
    ),
    ("imminent node shutdown", Cause::NodeShutdown),
    ("Node is shutting, evicting pods", Cause::NodeShutdown),
    (
        "Pod was rejected as the node is shutting down",
        Cause::NodeShutdown,
    ),
    (
        "Pod was active on the node longer than the specified deadline",
        Cause::DeadlineExceeded,
    ),
    (
        "Job was active longer than specified deadline",
        Cause::DeadlineExceeded,
    ),
    (
        "Job has reached the specified backoff limit",
        Cause::JobBackoffExceeded,
    ),
    ("BackoffLimitExceeded", Cause::JobBackoffExceeded),
    (
        "maximal number of failed indexes",
        Cause::JobBackoffExceeded,
    ),
    ("rule at index", Cause::JobBackoffExceeded),
    (
        "violate the pod's disruption budget",
        Cause::DisruptionBudgetBlocking,
    ),
    (
        "needs to be evicted but the pod disruption budget",
        Cause::DisruptionBudgetBlocking,
    ),
    (
        "not enough pod disruption budget to move",
        Cause::DisruptionBudgetBlocking,
    ),
    ("PostStartHookError", Cause::LifecycleHookFailed),
    ("FailedPostStartHook", Cause::LifecycleHookFailed),
    ("FailedPreStopHook", Cause::LifecycleHookFailed),
    ("PostStartHook failed", Cause::LifecycleHookFailed),
    ("PreStopHook failed", Cause::LifecycleHookFailed),
];

/// Phrases that need a pattern: the kubelet's predicate rejection (`Pod Predicate NodeAffinity
/// failed`, `Predicate NodeAffinity failed: node(s) …`), an `OutOf<resource>` reason in a
/// status or `get pods` row, a hook's failure text.
static PATTERNS: LazyLock<Vec<(Regex, Cause)>> = LazyLock::new(|| {
    [
        (r"Predicate \w+ failed", Cause::NodeAdmissionRejected),
        (
            r"(?:^|[\s:=])OutOf(?:cpu|memory|pods|ephemeral-storage|[a-z0-9.-]+/[a-zA-Z0-9_.-]+)\b",
            Cause::NodeAdmissionRejected,
        ),
        (
            r"(?:Exec|HTTP|Sleep) lifecycle hook \(",
            Cause::LifecycleHookFailed,
        ),
        // `kubectl get pod X -o jsonpath='{.status.resize}'` and what it printed.
        (
            r"\.status\.resize\}'?\s+(?:Infeasible|Deferred)\b",
            Cause::ResizeInfeasible,
        ),
    ]
    .into_iter()
    .map(|(p, c)| (Regex::new(p).unwrap(), c))
    .collect()
});

/// Every phrase at once, for one cheap pass before finding which.
static ANY: LazyLock<Regex> = LazyLock::new(|| {
    let mut alternatives: Vec<String> = PHRASES.iter().map(|(p, _)| regex::escape(p)).collect();
    alternatives.extend(PATTERNS.iter().map(|(r, _)| r.as_str().to_string()));
    Regex::new(&alternatives.join("|")).unwrap()
});

/// The cause one of these states' words in `text` names, with where they start.
pub fn classify(text: &str) -> Option<(Cause, usize)> {
    if !ANY.is_match(text) {
        return None;
    }
    PHRASES
        .iter()
        .filter_map(|(p, c)| text.find(p).map(|i| (*c, i)))
        .chain(
            PATTERNS
                .iter()
                .filter_map(|(r, c)| r.find(text).map(|m| (*c, m.start()))),
        )
        .min_by_key(|(_, i)| *i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubelet_reasons_of_every_era() {
        let r = reason_cause;
        assert_eq!(
            r(
                "OutOfcpu",
                "Pod was rejected: Node didn't have enough resource: cpu, requested: 4000, used: 1500, capacity: 4000"
            ),
            Some(Cause::NodeAdmissionRejected)
        );
        assert_eq!(
            r("OutOfnvidia.com/gpu", ""),
            Some(Cause::NodeAdmissionRejected)
        );
        assert_eq!(
            r("NodeAffinity", "Pod Predicate NodeAffinity failed"),
            Some(Cause::NodeAdmissionRejected)
        );
        assert_eq!(
            r(
                "UnexpectedAdmissionError",
                "Pod was rejected: Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected"
            ),
            Some(Cause::DeviceAllocationFailed)
        );
        assert_eq!(
            r(
                "UnexpectedAdmissionError",
                "Pod was rejected: Update plugin resources failed due to boom, which is unexpected."
            ),
            Some(Cause::NodeAdmissionRejected)
        );
        assert_eq!(
            r(
                "Terminated",
                "Pod was terminated in response to imminent node shutdown."
            ),
            Some(Cause::NodeShutdown)
        );
        assert_eq!(
            r("Shutdown", "Node is shutting, evicting pods"),
            Some(Cause::NodeShutdown)
        );
        assert_eq!(r("Terminated", "something else"), None);
        assert_eq!(
            r(
                "DeadlineExceeded",
                "Pod was active on the node longer than the specified deadline"
            ),
            Some(Cause::DeadlineExceeded)
        );
        assert_eq!(r("Evicted", "The node was low on resource: memory."), None);
        assert_eq!(r("OutOf", ""), None);
    }

    #[test]
    fn rejection_prefix_of_each_era_is_cut() {
        assert_eq!(
            rejection_text("Pod was rejected: Predicate NodeAffinity failed"),
            "Predicate NodeAffinity failed"
        );
        assert_eq!(
            rejection_text("Pod Predicate NodeAffinity failed"),
            "Predicate NodeAffinity failed"
        );
        assert_eq!(
            out_of(
                "OutOfmemory",
                "Pod was rejected: Node didn't have enough resource: memory, requested: 2147483648, used: 0, capacity: 1073741824"
            ),
            Some(OutOf {
                resource: "memory".into(),
                requested_used_capacity: Some((2147483648, 0, 1073741824))
            })
        );
        assert_eq!(out_of("Evicted", ""), None);
    }

    #[test]
    fn the_words_are_found_in_any_text() {
        let c = |t: &str| classify(t).map(|(c, _)| c);
        assert_eq!(
            c("test-pod   0/1     OutOfcpu   0          5s"),
            Some(Cause::NodeAdmissionRejected)
        );
        assert_eq!(
            c("Message:      Pod Predicate PodFitsHostPorts failed"),
            Some(Cause::NodeAdmissionRejected)
        );
        assert_eq!(
            c(
                r#"error when evicting pods/"web-0" -n "default" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget."#
            ),
            Some(Cause::DisruptionBudgetBlocking)
        );
        assert_eq!(
            c(
                "  Warning  FailedPostStartHook  5s  kubelet  Exec lifecycle hook ([/bin/sh -c exit 1]) for Container \"app\" in Pod \"web-0_default(3c1f)\" failed - error: command '/bin/sh -c exit 1' exited with 1: , message: \"\""
            ),
            Some(Cause::LifecycleHookFailed)
        );
        assert_eq!(
            c("    message: Scheduling is blocked due to non-empty scheduling gates"),
            Some(Cause::SchedulingGated)
        );
        assert_eq!(
            c(
                "  Type     Reason                Age   From     Message\n  Warning  BackoffLimitExceeded  2m    job-controller  Job has reached the specified backoff limit"
            ),
            Some(Cause::JobBackoffExceeded)
        );
        assert_eq!(
            c(
                "Status:  Failed\nReason:  Terminated\nMessage: Pod was terminated in response to imminent node shutdown."
            ),
            Some(Cause::NodeShutdown)
        );
        assert_eq!(c("all good: OutOfOrder is a word"), None);
        assert_eq!(c("nothing here"), None);
    }
}
