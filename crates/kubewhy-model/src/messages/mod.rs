//! The catalogue of known failure messages: every wording kubewhy recognises, from the
//! scheduler, the kubelet, the container runtimes, the volume manager, admission and the
//! controllers, in one place. The checks classify event messages, container states and node
//! log lines with it, and the paste reader recognises the same messages in whatever text
//! people paste — so a wording added once is known everywhere.
//!
//! | module | what it reads | used by |
//! |---|---|---|
//! | [`events`] | a message alone: the event (reason, involved kind) it belongs to | paste reader |
//! | [`scheduler`] | `0/N nodes are available: …` in every era; each reason → its cause | `pending`, paste |
//! | [`image`] | pull errors of containerd, dockershim, CRI-O → the image cause | `image`, paste |
//! | [`sandbox`] | `Failed to create pod sandbox: …` → the part that failed | `sandbox`, `units` |
//! | [`volume`] | missing ConfigMap / Secret (key); FailedMount / FailedAttachVolume kinds | `mounts` |
//! | [`admission`] | `Error creating: …` refusals: quota, LimitRange, Pod Security, webhooks | `creation` |
//! | [`app`] | application output before an exit: unreachable dependencies, exec format, RBAC… | `crash`, `loglines`, paste |
//! | [`status`] | node and namespace conditions, the node controller's words, API errors | paste |
//! | [`known`] | the components around a pod, by component and source: kubelet start-up, runtimes, runc and the kernel's security modules, node agents, CNI, CSI, registries, evictors, the aggregator | paste |
//! | [`pod`] | a pod's or Job's own end: kubelet rejections, deadlines, node shutdown, hooks, resize, Job failures, PDB refusals, gates | `rejected`, `job`, `crash`, `removal`, paste |
//! | [`node`] | kubelet, runtime and kernel log lines → a [`crate::node::Signal`] | node logs, paste |
//! | [`controller`] | workload controllers deleting their pods, the Deployment controller scaling ReplicaSets | `gone` |
//! | [`vocabulary`] | the last resort: a failure in unknown words, by what it names (a volume, the sandbox, a pull…) | paste |
//!
//!
//! [`recognise`] puts them together: the cause one line of any text shows, whoever wrote it.
//!
//! Patterns follow `kubernetes-messages.md` (the shared reference of every wording across
//! versions) and the real pastes of `tests/fixtures/wild`. Order inside each table matters: the
//! more specific wordings come first.

pub mod admission;
pub mod app;
pub mod controller;
pub mod events;
pub mod image;
pub mod known;
pub mod node;
pub mod pod;
pub mod sandbox;
pub mod scheduler;
pub mod status;
pub mod vocabulary;
pub mod volume;

use crate::node::Signal;
use crate::{Cause, Confidence};

/// Who wrote a recognised message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Speaker {
    /// An event's message (its reason and the kind of object it is about).
    Event {
        reason: &'static str,
        kind: &'static str,
    },
    /// A kubelet, runtime or kernel log line.
    NodeLog,
    /// An object's state: a condition, a pod's reason, an API error.
    State,
    /// An application's own output.
    Application(&'static str),
    /// A message of a component of [`known`], by its name.
    Component(&'static str),
}

impl Speaker {
    /// For people: `a FailedScheduling event`, `a kubelet or runtime log line`.
    pub fn describe(&self) -> String {
        match self {
            Speaker::Event { reason, .. } => format!("a {reason} event message"),
            Speaker::NodeLog => "a kubelet, runtime or kernel log line".into(),
            Speaker::State => "an object's status".into(),
            Speaker::Application(_) => "the application's output".into(),
            Speaker::Component(c) => format!("a message of {c}"),
        }
    }
}

/// Who speaks in a paste's error-level line that no catalogue knows (`Speaker::describe`'s
/// counterpart for the paste reader's last resort).
pub const ERROR_LINE: &str = "an application's error-level line";

/// Who speaks in a failure line that no table knows, read by its words ([`vocabulary`]); the
/// words follow (`…, about \`volume\``).
pub const VOCABULARY: &str = "a failure in words the catalogue does not know";

/// A known failure message in a text, and the cause it shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recognition {
    pub cause: Cause,
    /// How directly the wording names the cause: a scheduler reason or a pull error does; a
    /// mount timeout or an application's error only points at it.
    pub confidence: Confidence,
    /// Byte offset of the message in the text.
    pub start: usize,
    pub speaker: Speaker,
}

/// The cause the first known failure message in `text` shows, wherever it stands: alone, in
/// an event row, inside a log line, a sentence or quotes. Events come first (their wording is
/// the most specific), then node log lines, object state, and applications' output.
pub fn recognise(text: &str) -> Option<Recognition> {
    if text.len() > 64 * 1024 {
        return None;
    }
    // The kubelet runs the scheduler's predicates again when it admits a pod, and quotes them
    // (`Predicate TaintToleration failed: node(s) had taints …`): the scheduler's words, but the
    // kubelet's refusal of a pod already bound.
    if let Some(at) = text.find("Predicate ")
        && text[at..]
            .split_once(' ')
            .and_then(|(_, rest)| rest.split_once(' '))
            .is_some_and(|(name, rest)| {
                !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_alphanumeric())
                    && rest.starts_with("failed")
            })
    {
        return Some(Recognition {
            cause: Cause::NodeAdmissionRejected,
            confidence: Confidence::Medium,
            start: at,
            speaker: Speaker::Component("kubelet"),
        });
    }
    if let Some(f) = events::find(text) {
        let msg = &text[f.start..];
        if let Some((cause, confidence)) = event_cause(f.message.reason, msg) {
            return Some(Recognition {
                cause,
                confidence,
                start: f.start,
                speaker: Speaker::Event {
                    reason: f.message.reason,
                    kind: f.message.kind,
                },
            });
        }
    }
    if let Some((e, start)) = known::find(text)
        // The kubelet's "skipping pod synchronization - [… PLEG is not healthy …]": PLEG is the
        // more precise of the two, unless no relist has succeeded yet (the kubelet is starting)
        // and the message goes on to say why the node is not ready (its network).
        && !(e.cause == Cause::NodeNotReady
            && !text.contains("pleg has yet to be successful")
            && matches!(node::classify(text), Some((Signal::PlegUnhealthy, _))))
    {
        // An application's generic last words (logrus's `level=fatal msg="…"`) that quote a
        // well-known failure (`dial tcp …: i/o timeout`, a DNS name not found): that failure.
        if e.cause == Cause::AppExitError
            && e.component == "applications"
            && let Some(a) = app::classify(&text[start..])
            && let Some(cause) = a.cause.filter(|c| *c != Cause::AppExitError)
        {
            return Some(Recognition {
                cause,
                confidence: Confidence::Low,
                start,
                speaker: Speaker::Application(a.name),
            });
        }
        return Some(Recognition {
            cause: e.cause,
            confidence: if matches!(e.component, "applications" | known::EXIT_CODES) {
                Confidence::Low
            } else {
                Confidence::Medium
            },
            start,
            speaker: Speaker::Component(e.component),
        });
    }
    if node::may_matter(text)
        && let Some((signal, _)) = node::classify(text)
        && let Some(cause) = signal_cause(signal)
        // Every client-go program throttles itself and says so; the kubelet's own throttling
        // (its node's and pods' status) is the one that holds pods up.
        && (signal != Signal::ClientThrottled
            || text.contains("kubelet")
            || text.contains("/status"))
    {
        return Some(Recognition {
            cause,
            confidence: Confidence::Medium,
            start: 0,
            speaker: Speaker::NodeLog,
        });
    }
    let state = match (status::classify(text), pod::classify(text)) {
        (Some(a), Some(b)) => Some(if b.1 < a.1 { b } else { a }),
        (a, b) => a.or(b),
    };
    if let Some((cause, start)) = state {
        return Some(Recognition {
            cause,
            confidence: Confidence::Medium,
            start,
            speaker: Speaker::State,
        });
    }
    let a = app::classify(text)?;
    Some(Recognition {
        cause: a.cause.unwrap_or(Cause::AppExitError),
        confidence: Confidence::Low,
        start: 0,
        speaker: Speaker::Application(a.name),
    })
}

/// The cause a node log signal shows about the pods it names.
pub fn signal_cause(s: Signal) -> Option<Cause> {
    Some(match s {
        Signal::StopFailed | Signal::RuntimeDown | Signal::NetdevHang => {
            Cause::ContainerStopTimeout
        }
        Signal::UnknownContainer => Cause::RuntimeStateInconsistent,
        // A pasted line saying the pod's volumes are not cleaned up names what the kubelet
        // waits for: their teardown (with the node's whole log, `terminating` weighs it
        // against the runtime's lists and says which check waits).
        Signal::UnmountFailed
        | Signal::OrphanedVolumes
        | Signal::MountPresent
        | Signal::MountHeld
        | Signal::CleanupVolumes => Cause::VolumeUnmountStuck,
        Signal::PlegUnhealthy => Cause::PlegUnhealthy,
        Signal::OomKill => Cause::OomKilled,
        Signal::CleanupContainers | Signal::CleanupStatus | Signal::CleanupCgroup => {
            Cause::KubeletCleanupPending
        }
        Signal::ClientThrottled => Cause::KubeletStatusThrottled,
        Signal::MirrorPod => Cause::StaticPodStale,
        _ => return None,
    })
}

/// The cause an event message shows, by its reason; `None` for a symptom (`Back-off restarting
/// failed container`, `Error: ImagePullBackOff`) that does not say why.
/// The scheduler's reasons without their `0/3 nodes are available:` envelope, as a bare reason
/// or a list of them is quoted (`1 node(s) had untolerated taint …, 2 Insufficient cpu`).
fn bare_reasons(msg: &str) -> scheduler::SchedulerMessage {
    scheduler::SchedulerMessage {
        nodes: None,
        reasons: msg
            .split(", ")
            .map(|r| {
                let r = r.trim().trim_end_matches(['.', '"', '\'']);
                match r.split_once(' ') {
                    Some((n, rest)) if n.parse::<u32>().is_ok() => {
                        (n.parse().ok(), rest.to_string())
                    }
                    _ => (None, r.to_string()),
                }
            })
            .collect(),
    }
}

pub fn event_cause(reason: &str, msg: &str) -> Option<(Cause, Confidence)> {
    use Confidence::*;
    // A message quoted in prose ends where its quotes do.
    let msg = msg.split('`').next().unwrap_or(msg);
    let pull = || image::classify_pull_error(msg);
    match reason {
        "FailedScheduling" => {
            let envelope = if msg.starts_with("0/")
                || msg.starts_with("No nodes are available")
                || msg.starts_with("no nodes available")
            {
                scheduler::parse_scheduler_message(msg)
            } else {
                // A bare reason (`1 node(s) had untolerated taint …`) or an old fit error.
                bare_reasons(msg)
            };
            scheduler::primary_reason(&envelope).map(|p| (p.1, High))
        }
        // cluster-autoscaler's `pod didn't trigger scale-up: 1 node(s) had taint …, 1 in
        // backoff after failed scale-up`: the node groups' templates, not the nodes the pod
        // waits for; what the scheduler says of those comes first.
        "NotTriggerScaleUp" => {
            let (_, reasons) = msg.split_once(": ")?;
            scheduler::primary_reason(&bare_reasons(reasons)).map(|p| (p.1, Low))
        }
        "InspectFailed" => Some(pull().unwrap_or((Cause::ImageNameInvalid, High))),
        "ErrImageNeverPull" => Some((Cause::ImageNeverPull, High)),
        "Failed" | "BackOff" => {
            if msg.contains("ErrImageNeverPull") || msg.contains("with pull policy of Never") {
                return Some((Cause::ImageNeverPull, High));
            }
            if msg.contains("InvalidImageName") {
                return Some((Cause::ImageNameInvalid, High));
            }
            // `kubectl logs` of a container waiting on its pull: the kubelet's words for the
            // waiting reason, no pull error. Read as the pod checks read a back-off whose
            // error is not in the data.
            if events::logs_pull_wait(msg).is_some() {
                return Some((Cause::ImageNotFound, Low));
            }
            if msg.starts_with("Failed to pull image")
                || msg.starts_with("waiting [ErrImagePull] ")
                || msg.starts_with("waiting [ImagePullBackOff] ")
                || msg.starts_with("Error: image ")
                || msg.contains("pull access denied")
                || msg.starts_with("Error response from daemon")
                || msg.starts_with("PullImage from image service failed")
                || msg.starts_with("pulling image: rpc error: ")
                || msg.starts_with("pulling image: failed to pull and unpack image ")
                || msg.starts_with("pulling image failed: rpc error: ")
                || msg
                    .trim_start_matches(['"', '\'', '`'])
                    .starts_with("failed to pull and unpack image ")
            {
                return pull();
            }
            if let Some((cause, _, _)) = volume::missing_reference(msg) {
                return Some((cause, High));
            }
            if msg.contains("runAsNonRoot") || msg.contains("breaks non-root policy") {
                return Some((Cause::ConfigError, High));
            }
            // The kubelet refusing a pod the scheduler placed (its status message, quoted).
            if msg.starts_with("Pod Predicate ") || msg.starts_with("Pod was rejected: ") {
                return Some((Cause::NodeAdmissionRejected, High));
            }
            if msg.starts_with("Error: failed to") {
                return Some(match app::classify(msg).and_then(|a| a.cause) {
                    Some(c @ (Cause::CommandNotFound | Cause::ImagePlatformMismatch)) => (c, High),
                    // What the runtime adds after its "failed to create" may name a cause of
                    // its own (a snapshot its image store lost). A dead mount (`transport
                    // endpoint is not connected`, a stale handle) met while creating the
                    // container is the pod's volume failing to mount, not one held at removal.
                    _ => match known::find(msg) {
                        Some((e, _)) if e.cause == Cause::VolumeUnmountStuck => {
                            (Cause::VolumeMountFailed, Medium)
                        }
                        Some((e, _))
                            if e.component != "applications"
                                && e.cause != Cause::ContainerStartFailed =>
                        {
                            (e.cause, Medium)
                        }
                        _ => (Cause::ContainerStartFailed, Medium),
                    },
                });
            }
            None
        }
        // A kubelet that had not synced its Secret / ConfigMap cache yet when the pod started
        // says so once and mounts on the next try: history, not a cause.
        "FailedMount"
            if msg.contains("failed to sync secret cache")
                || msg.contains("failed to sync configmap cache")
                || msg.contains("not registered") =>
        {
            None
        }
        "FailedMount" => Some(match volume::missing_reference(msg) {
            Some((cause, _, _)) => (cause, High),
            None => (Cause::VolumeMountFailed, Medium),
        }),
        "FailedAttachVolume" => Some((Cause::VolumeMountFailed, Medium)),
        "FailedCreatePodSandBox" => Some(match sandbox::classify(msg) {
            sandbox::Part::ImageStore => (Cause::ImageStoreCorrupt, Medium),
            _ => (Cause::SandboxCreationFailed, High),
        }),
        "Unhealthy" if msg.starts_with("Readiness") => Some((Cause::ReadinessProbeFailing, Medium)),
        "Unhealthy" | "Killing" => Some((Cause::LivenessProbeFailing, Medium)),
        "FailedKillPod" => Some(match node::classify(msg) {
            Some((Signal::UnknownContainer, _)) => (Cause::RuntimeStateInconsistent, Medium),
            _ => (Cause::ContainerStopTimeout, Medium),
        }),
        "FailedCreate" => Some((Cause::PodCreationRejected, High)),
        // The kubelet evicts for pressure (or a pod over its ephemeral-storage limit); others
        // (Karpenter, the cluster autoscaler: "Evicted pod", Karpenter ≥1.1 "Evicted pod: node
        // NODECLAIM/NODE drifted") evict through the Eviction API.
        "Evicted"
            if msg.trim_end_matches('.') == "Evicted pod"
                || msg.starts_with("Evicted pod: ")
                || msg.contains("Evicted pod - Events emitted by ") =>
        {
            Some((Cause::EvictedApi, Medium))
        }
        "Evicted" => Some((Cause::EvictedNodePressure, High)),
        "OOMKilling" => Some((Cause::OomKilled, Medium)),
        _ => pod::event_cause(reason, msg).map(|c| (c, High)),
    }
}

/// The runtime's own error inside gRPC envelopes: kubelets before 1.28 wrote `rpc error: code =
/// Unknown desc = <error>`, nested when the error passed through several layers.
pub fn strip_rpc(msg: &str) -> &str {
    let mut m = msg;
    while let Some(i) = m.find("rpc error: code = ") {
        let rest = &m[i..];
        match rest.find(" desc = ") {
            Some(d) => m = &rest[d + " desc = ".len()..],
            None => break,
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_are_recognised_wherever_they_stand() {
        let c = |t: &str| recognise(t).map(|r| r.cause);
        // The wordings issue 24 taught the rules, read from pastes too.
        assert_eq!(
            c(
                "  Normal  Preempted  2m  default-scheduler  Preempted by shop/urgent on node node-1"
            ),
            Some(Cause::Preempted)
        );
        assert_eq!(
            c("default-scheduler: preempting to accommodate a higher priority pod"),
            Some(Cause::Preempted)
        );
        assert_eq!(
            c(
                "I1125 15:23:42.044805 1 gc_controller.go:212] Forced deletion of unscheduled terminating Pod shop/w succeeded"
            ),
            Some(Cause::PodGcUnscheduledTerminating)
        );
        assert_eq!(
            c("as a result `Cannot schedule pods: node(s) had volume node affinity conflict.`"),
            Some(Cause::VolumeNodeAffinityConflict)
        );
        assert_eq!(
            c(
                "No nodes are available that match all of the predicates: Insufficient cpu (19), Insufficient memory (19), PodToleratesNodeTaints (10)."
            ),
            Some(Cause::InsufficientResources)
        );
        assert_eq!(
            c(
                "0/4 nodes are available: 1 Insufficient cpu, 1 Insufficient memory, 1 NodeUnschedulable, 3 MatchNodeSelector."
            ),
            Some(Cause::NodeUnschedulable)
        );
        assert_eq!(
            c(
                "If the reason given is \"0 nodes available 1 node(s) had taint {node.kubernetes.io/disk-pressure: }\""
            ),
            Some(Cause::NodePressure)
        );
        assert_eq!(
            c("Error: container has runAsNonRoot and image will run as root"),
            Some(Cause::ConfigError)
        );
        assert_eq!(
            c(
                "one of the worker node went NotReady due to PLEG is not healthy: pleg was last seen active ~30m ago; threshold is 3m0s."
            ),
            Some(Cause::PlegUnhealthy)
        );
        assert_eq!(
            c("Error from server (NotFound): nodes \"ip-172-20-92-136\" not found"),
            Some(Cause::NodeDeleted)
        );
        assert_eq!(
            c("Ping to Katib db failed: dial tcp 10.233.28.55:3306: connect: connection refused"),
            Some(Cause::DependencyUnreachable)
        );
        // client-go throttling: the kubelet's status updates, not another program's calls.
        assert_eq!(
            c(
                "Jan 10 10:00:00 n1 kubelet[812]: I0110 10:00:00.000000 812 request.go:665] Waited for 1.2s due to client-side throttling, not priority and fairness, request: PATCH:https://10.0.0.1:6443/api/v1/nodes/n1/status"
            ),
            Some(Cause::KubeletStatusThrottled)
        );
        assert_eq!(
            c(
                "I0830 13:51:16.267105 1 request.go:665] Waited for 1.046205241s due to client-side throttling, not priority and fairness, request: GET:https://api.example:443/apis/admissionregistration.k8s.io/v1?timeout=32s"
            ),
            None
        );
        assert_eq!(c("Back-off restarting failed container"), None);
        assert_eq!(c("all good"), None);
        // The kubelet's `Error: failed to …` names the runtime's own cause when it has one.
        let failed = |m: &str| event_cause("Failed", m);
        assert_eq!(
            failed(
                "Error: failed to create containerd container: failed to stat parent: stat /var/lib/rancher/rke2/agent/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/214/fs: no such file or directory"
            ),
            Some((Cause::ImageStoreCorrupt, Confidence::Medium))
        );
        assert_eq!(
            failed(
                r#"Error: failed to generate container "b3835a07" spec: failed to apply OCI options: failed to stat "/var/lib/kubelet/pods/a70b4271/volumes/kubernetes.io~csi/pvc-a7eb6f61/mount": stat /var/lib/kubelet/pods/a70b4271/volumes/kubernetes.io~csi/pvc-a7eb6f61/mount: stale NFS file handle"#
            ),
            Some((Cause::VolumeMountFailed, Confidence::Medium))
        );
        assert_eq!(
            failed("Error: failed to start container \"x\": something else"),
            Some((Cause::ContainerStartFailed, Confidence::Medium))
        );
    }

    #[test]
    fn a_fatal_line_quoting_a_known_failure_is_that_failure() {
        // tests/fixtures/wild 2227: a Cilium agent that cannot reach the API server.
        let r = recognise(r#"level=fatal msg="failed to start: Get \"https://api:443/api/v1/namespaces/kube-system\": dial tcp api:443: i/o timeout""#).unwrap();
        assert_eq!(
            (r.cause, r.confidence),
            (Cause::DependencyUnreachable, Confidence::Low)
        );
        // Without a known failure in it, it is the application's own end.
        let r = recognise(r#"level=fatal msg="the config file is empty""#).unwrap();
        assert_eq!(r.cause, Cause::AppExitError);
    }

    #[test]
    fn rpc_prefix_is_stripped() {
        assert_eq!(
            strip_rpc(
                "Failed to pull image \"x\": rpc error: code = Unknown desc = failed to pull"
            ),
            "failed to pull"
        );
        assert_eq!(strip_rpc("plain"), "plain");
    }
}
