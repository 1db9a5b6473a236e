//! Words of object state that name a cause by themselves: node conditions and the node
//! controller's reasons, namespace deletion conditions, and API errors about a node that is
//! gone (kubernetes-messages.md §4, §5).

use crate::Cause;
use regex::Regex;
use std::sync::LazyLock;

/// A container's exit code as describe (`Exit Code:    127`) or YAML (`exitCode: 127`) shows it.
static EXIT_CODE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(?:Exit Code:|exitCode:)\s*(\d+)\b").unwrap());

/// (a phrase, the cause it names). Order matters: the first phrase found wins.
const PHRASES: &[(&str, Cause)] = &[
    // The namespace controller's condition messages (only written when the condition is True;
    // its type names appear in every describe, True or False, and say nothing alone).
    (
        "Discovery failed for some groups",
        Cause::ApiserviceUnavailable,
    ),
    (
        "unable to retrieve the complete list of server APIs",
        Cause::ApiserviceUnavailable,
    ),
    (
        "Some content in the namespace has finalizers remaining",
        Cause::NsFinalizerPending,
    ),
    // The condition's reason when True (False says `ContentHasNoFinalizers`): a paste cut
    // before the message still shows it.
    ("SomeFinalizersRemain", Cause::NsFinalizerPending),
    ("Some resources are remaining", Cause::NsResourcesRemaining),
    (
        "Failed to delete all resource types",
        Cause::NsResourcesRemaining,
    ),
    // The node controller on a pod whose node stopped answering.
    ("which was running pod", Cause::NodeUnreachable),
    ("reason: NodeLost", Cause::NodeUnreachable),
    ("Reason:        NodeLost", Cause::NodeUnreachable),
    // A node that no longer exists, as the API says it.
    ("(NotFound): nodes \"", Cause::NodeDeleted),
    // The pod garbage collector (kube-controller-manager's log, every era).
    ("Found orphaned Pod", Cause::PodGcOrphaned),
    ("Forced deletion of orphaned Pod", Cause::PodGcOrphaned),
    ("PodGC: node no longer exists", Cause::PodGcOrphaned),
    (
        "Found unscheduled terminating Pod",
        Cause::PodGcUnscheduledTerminating,
    ),
    (
        "Forced deletion of unscheduled terminating Pod",
        Cause::PodGcUnscheduledTerminating,
    ),
    // The scheduler's preemption: its event on the victim (every wording) and the condition.
    ("Preempted by ", Cause::Preempted),
    (
        "preempting to accommodate a higher priority pod",
        Cause::Preempted,
    ),
    ("garbage collecting ", Cause::PodGcThreshold),
    ("Garbage collecting pods", Cause::PodGcThreshold),
    // Node conditions and the kubelet's events about them.
    ("Kubelet stopped posting node status", Cause::NodeNotReady),
    ("Kubelet never posted node status", Cause::NodeNotReady),
    ("container runtime network not ready", Cause::NodeNotReady),
    ("status is now: NodeNotReady", Cause::NodeNotReady),
    ("NodeHasDiskPressure", Cause::NodePressure),
    ("NodeHasInsufficientMemory", Cause::NodePressure),
    ("NodeHasInsufficientPID", Cause::NodePressure),
    ("kubelet has disk pressure", Cause::NodePressure),
    (
        "kubelet has insufficient memory available",
        Cause::NodePressure,
    ),
    (
        "failed to garbage collect required amount of images",
        Cause::NodePressure,
    ),
    ("Attempting to reclaim ", Cause::NodePressure),
    ("node.kubernetes.io/disk-pressure", Cause::NodePressure),
    ("node.kubernetes.io/memory-pressure", Cause::NodePressure),
    ("node.kubernetes.io/pid-pressure", Cause::NodePressure),
    // A finalizer only a deletion sets (the API server adds it with the deletionTimestamp of a
    // foreground delete; the garbage collector removes it when the dependents are gone).
    ("foregroundDeletion", Cause::FinalizerPending),
    // A container's last state, wherever it is quoted (describe, YAML, get pods).
    ("OOMKilled", Cause::OomKilled),
];

/// Every phrase at once, for one cheap pass before finding which.
static ANY: LazyLock<Regex> = LazyLock::new(|| {
    let alternatives: Vec<String> = PHRASES.iter().map(|(p, _)| regex::escape(p)).collect();
    Regex::new(&alternatives.join("|")).unwrap()
});

/// A pod volume still mounted, as `mount` or `/proc/mounts` shows it: `/dev/sdb on
/// /var/lib/kubelet/pods/<uid>/volumes/…` (pasted when the pod will not go away).
static POD_VOLUME_MOUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r" on /var/lib/kubelet/pods/[0-9a-f]{8}-[0-9a-f-]{27}/volumes/\S+ type ").unwrap()
});

/// The cause a state phrase in `text` names, with where it starts.
pub fn classify(text: &str) -> Option<(Cause, usize)> {
    if !ANY.is_match(text) {
        if let Some(m) = POD_VOLUME_MOUNT.find(text) {
            return Some((Cause::VolumeUnmountStuck, m.start()));
        }
        return EXIT_CODE.captures(text).and_then(|c| {
            let at = c.get(0).map_or(0, |m| m.start());
            exit_code_cause(c[1].parse().ok()?).map(|cause| (cause, at))
        });
    }
    // A toleration names a taint without saying any node has it (`Tolerations:
    // node.kubernetes.io/disk-pressure:NoSchedule op=Exists`).
    let toleration = text.contains(" op=Exists") || text.contains(" op=Equal");
    PHRASES
        .iter()
        .filter(|(p, _)| !(toleration && p.starts_with("node.kubernetes.io/")))
        .filter_map(|(p, c)| text.find(p).map(|i| (*c, i)))
        .min_by_key(|(_, i)| *i)
        .or_else(|| {
            let c = EXIT_CODE.captures(text)?;
            let at = c.get(0).map_or(0, |m| m.start());
            exit_code_cause(c[1].parse().ok()?).map(|cause| (cause, at))
        })
}

/// What an exit code alone says: 127 is the shell's "command not found"; 1-125 are the
/// program's own; 0, 126 and the signal codes (128 + n, 255) say nothing by themselves.
pub fn exit_code_cause(code: i64) -> Option<Cause> {
    match code {
        127 => Some(Cause::CommandNotFound),
        1..=125 => Some(Cause::AppExitError),
        _ => None,
    }
}
