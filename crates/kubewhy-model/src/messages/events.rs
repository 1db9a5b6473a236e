//! Event messages that travel without their event: the reason and the kind of object the
//! component emits them for, so a message pasted alone — or quoted inside a sentence, a log
//! line or another tool's output — becomes the event it came from (kubernetes-messages.md §1,
//! §2, §4; the wordings of every era the real pastes of `tests/fixtures/wild` show).

use regex::Regex;
use std::sync::LazyLock;

/// One well-known event message.
pub struct EventMessage {
    /// Where the message starts (unanchored: matched anywhere in a text).
    pub pattern: &'static str,
    /// The event's reason.
    pub reason: &'static str,
    /// The kind of object the component emits it for.
    pub kind: &'static str,
}

const fn m(pattern: &'static str, reason: &'static str, kind: &'static str) -> EventMessage {
    EventMessage {
        pattern,
        reason,
        kind,
    }
}

/// The table, most specific first where two could match one text.
pub const EVENT_MESSAGES: &[EventMessage] = &[
    // kube-scheduler, every era: the envelope, the old predicates, the 2015 fit errors, a bare
    // reason quoted without its envelope.
    m(r"\d+/\d+ nodes are available", "FailedScheduling", "Pod"),
    m(
        r"No nodes are available that match all of the",
        "FailedScheduling",
        "Pod",
    ),
    m(
        r"(?i)failed to find fit for pod|failed to fit in any node|Failed for reason \w+ and possibly others",
        "FailedScheduling",
        "Pod",
    ),
    m(
        r"no nodes available to schedule pods",
        "FailedScheduling",
        "Pod",
    ),
    m(
        r"pod has unbound (?:immediate )?PersistentVolumeClaims",
        "FailedScheduling",
        "Pod",
    ),
    m(
        r#"persistentvolumeclaim "[^"]+" (?:not found|bound to non-existent)"#,
        "FailedScheduling",
        "Pod",
    ),
    m(r"running .* filter plugin", "FailedScheduling", "Pod"),
    // cluster-autoscaler, quoting the scheduler's reasons for its node groups.
    m(r"pod didn't trigger scale-up", "NotTriggerScaleUp", "Pod"),
    m(
        r"\d* ?node\(s\) (?:had|didn't|did not|were|exceed)|\d+ (?:Insufficient \S|Too many pods)",
        "FailedScheduling",
        "Pod",
    ),
    m(r"Successfully assigned ", "Scheduled", "Pod"),
    // Karpenter's and the cluster autoscaler's eviction of a pod (the kubelet's says why).
    // Datadog's copy of the event: `Events from the Pod NS/NAME - Evicted pod - Events emitted
    // by the karpenter seen at …`.
    m(
        r"(?m)\bEvicted pod(?:\s*$| - Events emitted by )",
        "Evicted",
        "Pod",
    ),
    // Image pulls.
    m(r"Failed to apply default image tag", "InspectFailed", "Pod"),
    m(
        r"[Ii]mage \S+ is not present with pull policy of Never",
        "ErrImageNeverPull",
        "Pod",
    ),
    m(r"Failed to pull image ", "Failed", "Pod"),
    m(r"Error: image \S+ not found", "Failed", "Pod"),
    m(r"Back-off pulling image ", "BackOff", "Pod"),
    // The Jenkins Kubernetes plugin's agent log: `Container [jnlp] waiting [ErrImagePull] <the
    // runtime's error>`.
    m(
        r"waiting \[(?:ErrImagePull|ImagePullBackOff)\] ",
        "Failed",
        "Pod",
    ),
    // The waiting reason quoted; `kubectl logs` of a container whose pull fails gets the
    // kubelet's own words for it (kubelet_pods.go validateContainerLogStatus: ErrImagePull →
    // `image can't be pulled`, ImagePullBackOff → `trying and failing to pull image`).
    m(
        r"(?:Error: |is waiting to start: |Waiting: )(?:ErrImagePull|ImagePullBackOff|ErrImageNeverPull|InvalidImageName|image can't be pulled|trying and failing to pull image)",
        "Failed",
        "Pod",
    ),
    m(
        r"(?:Error response from daemon: )?pull access denied for ",
        "Failed",
        "Pod",
    ),
    // crictl's and the CRI client's own words for a pull the runtime refused (`crictl pull`
    // on the node, the kubelet's remote_image.go).
    m(
        r#"PullImage from image service failed|pulling image(?: failed)?: (?:rpc error: |failed to pull and unpack image ")|^["'`]?failed to pull and unpack image ""#,
        "Failed",
        "Pod",
    ),
    // Crash loops.
    m(
        r"Back-off restarting failed (?:docker )?container",
        "BackOff",
        "Pod",
    ),
    m(
        r"(?i)back-off \S+ restarting failed container=",
        "BackOff",
        "Pod",
    ),
    // Container configuration.
    m(
        r#"Error: ?(?:configmaps?|secrets?) "[^"]+" not found"#,
        "Failed",
        "Pod",
    ),
    m(r"(?i)(?:Error: )?couldn't find key \S+ in", "Failed", "Pod"),
    m(
        r"(?:Error: )?container's runAsUser breaks non-root policy",
        "Failed",
        "Pod",
    ),
    m(
        r"(?:Error: )?container has runAsNonRoot and image",
        "Failed",
        "Pod",
    ),
    m(
        r"Error: failed to (?:create|start|generate)",
        "Failed",
        "Pod",
    ),
    // Volumes.
    m(r"MountVolume\.\w+ failed", "FailedMount", "Pod"),
    m(
        r"Unable to (?:attach or )?mount volumes|timeout expired waiting for volumes to attach",
        "FailedMount",
        "Pod",
    ),
    m(r"AttachVolume\.Attach failed", "FailedAttachVolume", "Pod"),
    m(r"Multi-Attach error", "FailedAttachVolume", "Pod"),
    // Sandboxes.
    m(
        r"Failed (?:to )?create pod sandbox|createPodSandbox for pod .* failed|RunPodSandbox from runtime service failed|RunPodSandbox for \S+ failed, error",
        "FailedCreatePodSandBox",
        "Pod",
    ),
    // Probes.
    m(
        r"(?:Readiness|Liveness|Startup) probe (?:failed|errored)",
        "Unhealthy",
        "Pod",
    ),
    m(
        r"Container \S+ failed (?:liveness|startup) probe",
        "Killing",
        "Pod",
    ),
    // Stopping.
    m(r"error killing pod", "FailedKillPod", "Pod"),
    // Controllers' creations that admission refuses.
    m(r"Error creating: ", "FailedCreate", "ReplicaSet"),
    m(
        r"create Pod \S+ in StatefulSet \S+ failed error: ",
        "FailedCreate",
        "StatefulSet",
    ),
    m(
        r#"pods? "?[^"\s]+"? is forbidden: (?:exceeded|failed) quota"#,
        "FailedCreate",
        "ReplicaSet",
    ),
    // The kubelet's evictions and admission refusals.
    m(
        r#"The node was low on resource|exceeded its local ephemeral storage limit|Pod ephemeral local storage usage exceeds|Usage of EmptyDir volume "[^"]*" exceeds the limit|The node had condition: \["#,
        "Evicted",
        "Pod",
    ),
    m(r"Pod Predicate \w+ failed", "Failed", "Pod"),
    // The node's kernel.
    m(
        r"Memory cgroup out of memory|OOM killer",
        "OOMKilling",
        "Node",
    ),
];

static COMPILED: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    EVENT_MESSAGES
        .iter()
        .map(|e| Regex::new(e.pattern).unwrap_or_else(|x| panic!("{}: {x}", e.pattern)))
        .collect()
});

/// One message found in a text: the table entry and where the message starts.
pub struct Found {
    pub message: &'static EventMessage,
    /// Byte offset of the message in the text.
    pub start: usize,
}

/// Every pattern at once: one pass over a text says which patterns can match at all.
static SET: LazyLock<regex::RegexSet> = LazyLock::new(|| {
    regex::RegexSet::new(EVENT_MESSAGES.iter().map(|e| e.pattern)).expect("event patterns")
});

/// The first well-known event message in a text (the leftmost; on a tie, the table's order).
pub fn find(text: &str) -> Option<Found> {
    let hits = SET.matches(text);
    if !hits.matched_any() {
        return None;
    }
    let mut best: Option<Found> = None;
    for i in hits.iter() {
        if let Some(hit) = COMPILED[i].find(text)
            && best.as_ref().is_none_or(|b| hit.start() < b.start)
        {
            best = Some(Found {
                message: &EVENT_MESSAGES[i],
                start: hit.start(),
            });
        }
    }
    best
}

/// The waiting reason the kubelet's words to `kubectl logs` stand for, for a container waiting
/// on its pull (kubelet_pods.go validateContainerLogStatus: ErrImagePull → `image can't be
/// pulled`, ImagePullBackOff → `trying and failing to pull image`).
/// Whatever follows the words (a closing quote of a quoted paste) is no matter.
pub fn logs_pull_wait(msg: &str) -> Option<&'static str> {
    let said = msg.split_once("is waiting to start: ")?.1;
    [
        ("image can't be pulled", "ErrImagePull"),
        ("trying and failing to pull image", "ImagePullBackOff"),
    ]
    .into_iter()
    .find_map(|(words, reason)| said.starts_with(words).then_some(reason))
}

/// The reason and involved kind of a message that starts a text (a message pasted alone).
pub fn event_reason(text: &str) -> Option<(&'static str, &'static str)> {
    find(text)
        .filter(|f| f.start == 0)
        .map(|f| (f.message.reason, f.message.kind))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_found_inside_other_text() {
        let f = find(r#"It said `Warning  Failed  Failed to pull image "x": denied`"#).unwrap();
        assert_eq!(f.message.reason, "Failed");
        let f = find("the output is \" Warning FailedScheduling 61s default-scheduler 0/1 nodes are available: 1 node(s) had untolerated taint\"").unwrap();
        assert_eq!(f.message.reason, "FailedScheduling");
        assert_eq!(
            event_reason("Back-off pulling image \"x\""),
            Some(("BackOff", "Pod"))
        );
        assert_eq!(event_reason("hello"), None);
        // The kubelet's local storage eviction of an emptyDir over its sizeLimit (eviction_manager).
        let f = find(
            r#"    message: 'Usage of EmptyDir volume "models-dir" exceeds the limit "1536Mi". '"#,
        )
        .unwrap();
        assert_eq!((f.message.reason, f.message.kind), ("Evicted", "Pod"));
        // kubectl logs' words for a pull's waiting reason, quoted or not.
        for (text, reason) in [
            (
                r#"container "s" in pod "s" is waiting to start: trying and failing to pull image"#,
                Some("ImagePullBackOff"),
            ),
            (
                r#""container \"s\" in pod \"s\" is waiting to start: image can't be pulled""#,
                Some("ErrImagePull"),
            ),
            (
                r#"container "s" in pod "s" is waiting to start: ContainerCreating"#,
                None,
            ),
        ] {
            assert_eq!(logs_pull_wait(text), reason, "{text}");
        }
        // crictl pull's own words (containerd/containerd#10344).
        assert_eq!(
            event_reason(
                r#"pulling image: failed to pull and unpack image "r:5000/a:1": failed to resolve reference"#
            ),
            Some(("Failed", "Pod"))
        );
    }
}
