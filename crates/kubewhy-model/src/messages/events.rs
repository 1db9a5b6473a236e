//! Event messages that travel without their event: the reason and the kind of object the
//! component emits them for, so a message pasted alone becomes the event it came from
//! (kubernetes-messages.md §1, §2).

use regex::Regex;
use std::sync::LazyLock;

/// Well-known event messages (kubernetes-messages.md), with the reason and the kind of object
/// the component emits them for.
static MESSAGES: LazyLock<Vec<(Regex, &'static str, &'static str)>> = LazyLock::new(|| {
    [
        (r"^\d+/\d+ nodes are available", "FailedScheduling", "Pod"),
        (
            r"^no nodes available to schedule pods",
            "FailedScheduling",
            "Pod",
        ),
        (
            r"^pod has unbound (immediate )?PersistentVolumeClaims",
            "FailedScheduling",
            "Pod",
        ),
        (r"^running .* filter plugin", "FailedScheduling", "Pod"),
        (r"^Successfully assigned ", "Scheduled", "Pod"),
        (r"^Failed to pull image ", "Failed", "Pod"),
        (r"^Back-off pulling image ", "BackOff", "Pod"),
        (
            r"^Error: (ErrImagePull|ImagePullBackOff|ErrImageNeverPull|InvalidImageName)",
            "Failed",
            "Pod",
        ),
        (r"^Back-off restarting failed container", "BackOff", "Pod"),
        (
            r#"^Error: (configmap|secret) "[^"]+" not found"#,
            "Failed",
            "Pod",
        ),
        (r"^Error: couldn't find key ", "Failed", "Pod"),
        (
            r"^Error: failed to (create|start|generate)",
            "Failed",
            "Pod",
        ),
        (r"^Error: container has runAsNonRoot", "Failed", "Pod"),
        (r"^MountVolume\.\w+ failed", "FailedMount", "Pod"),
        (
            r"^Unable to (attach or )?mount volumes",
            "FailedMount",
            "Pod",
        ),
        (r"^AttachVolume\.Attach failed", "FailedAttachVolume", "Pod"),
        (r"^Multi-Attach error", "FailedAttachVolume", "Pod"),
        (
            r"^Failed to create pod sandbox",
            "FailedCreatePodSandBox",
            "Pod",
        ),
        (
            r"^(Readiness|Liveness|Startup) probe (failed|errored)",
            "Unhealthy",
            "Pod",
        ),
        (
            r"^Container \S+ failed (liveness|startup) probe",
            "Killing",
            "Pod",
        ),
        (r"^error killing pod", "FailedKillPod", "Pod"),
        (r"^Error creating: ", "FailedCreate", "ReplicaSet"),
        (
            r"^(Memory cgroup out of memory|OOM killer)",
            "OOMKilling",
            "Node",
        ),
        (r"^The node was low on resource", "Evicted", "Pod"),
    ]
    .into_iter()
    .map(|(r, reason, kind)| (Regex::new(r).expect("message pattern"), reason, kind))
    .collect()
});

/// The reason and involved kind of a well-known event message.
pub fn event_reason(m: &str) -> Option<(&'static str, &'static str)> {
    MESSAGES
        .iter()
        .find(|(r, _, _)| r.is_match(m))
        .map(|(_, reason, kind)| (*reason, *kind))
}
