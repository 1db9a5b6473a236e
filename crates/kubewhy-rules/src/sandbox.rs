//! Pods stuck in ContainerCreating because the kubelet cannot create the pod sandbox (the pause
//! container, its network namespace, its cgroup): `FailedCreatePodSandBox` events, classified by
//! the part that failed — the CNI plugin, the sandbox image, the OCI runtime, a memory limit too
//! small to start anything.

use crate::Findings;
use crate::podinfo::PodInfo;
use crate::{Check, Ctx};
use kubewhy_model::{Cause, Confidence, Finding, RiskLevel, Severity};

pub(crate) struct Sandbox;

pub(crate) use kubewhy_model::messages::sandbox::{Part, classify};

impl Check for Sandbox {
    fn name(&self) -> &'static str {
        "sandbox"
    }
    fn causes(&self) -> &'static [Cause] {
        &[Cause::SandboxCreationFailed, Cause::ImageStoreCorrupt]
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for pod in &ctx.snap.pods {
            if pod.metadata.deletion_timestamp.is_some() || pod.status.phase != "Pending" {
                continue;
            }
            let info = PodInfo::new(pod);
            // Only pods whose sandbox is not up: every container still waiting to be created.
            let creating = info.statuses().all(|(c, _)| {
                c.state.waiting.as_ref().is_some_and(|w| {
                    w.reason == "ContainerCreating" || w.reason == "PodInitializing"
                })
            });
            if !creating {
                continue;
            }
            let events = ctx.snap.events_for("Pod", &pod.metadata);
            let Some(e) = events
                .iter()
                .rev()
                .find(|e| e.reason == "FailedCreatePodSandBox")
            else {
                continue;
            };
            // A sandbox created after the failure ends the problem.
            let recovered = events.iter().any(|x| {
                matches!(x.reason.as_str(), "Pulled" | "Created" | "Started")
                    && matches!((x.last_time, e.last_time), (Some(a), Some(b)) if a >= b)
            });
            if recovered {
                continue;
            }
            let part = classify(&e.message);
            // A memory quantity with the wrong unit is the root cause; resource-units-wrong
            // reports it, with this event as its evidence.
            if part == Part::MemoryTooSmall && crate::units::pod_has_absurd_memory(pod) {
                continue;
            }
            out.push(finding(&info, e, part));
        }
    }
}

fn finding(info: &PodInfo, e: &kubewhy_model::objects::Event, part: Part) -> Finding {
    let node = info.pod.spec.node_name.clone().unwrap_or_default();
    // A pasted event may not say which node.
    let on = if node.is_empty() {
        String::new()
    } else {
        format!(" on node {node}")
    };
    let (summary, why) = match part {
        Part::Network => (
            format!("The network plugin cannot set up the pod's network{on}"),
            "The kubelet asks the container runtime for a sandbox and the runtime calls the CNI plugin to give it an interface and an address; the plugin failed. Typical causes: the CNI DaemonSet (Calico, Cilium, Flannel…) is not running on this node, its binary or config is missing from /opt/cni/bin or /etc/cni/net.d, or the node's pod address range is exhausted.",
        ),
        Part::Image => (
            format!("The sandbox (pause) image cannot be pulled{on}"),
            "Every pod starts with the sandbox image (pause) configured in the runtime (containerd's sandbox_image, the kubelet's --pod-infra-container-image); if the node cannot pull it — registry unreachable, auth required, wrong name — no pod on that node can start.",
        ),
        Part::MemoryTooSmall => (
            format!("The pod's memory limit is too small to start its sandbox{on}"),
            "runc could not even start the container's init process within the cgroup's memory limit (\"container init was OOM-killed (memory limit too low?)\"): the limit is a few megabytes or less, usually a unit mistake.",
        ),
        Part::Runtime => (
            format!("The container runtime cannot create the pod sandbox{on}"),
            "The OCI runtime (runc) refused to create the sandbox container: a cgroup, seccomp, AppArmor or permission problem on the node, or a runtime misconfiguration.",
        ),
        Part::ImageStore => (
            format!("The node's image store lost part of the sandbox image{on}"),
            "The runtime lists the sandbox (pause) image but cannot unpack it: a layer or blob of it is gone from its content store (a disk cleaned by hand, a snapshotter switched, an interrupted pull). No pod on that node can start until the image is pulled again whole.",
        ),
        Part::Other => (
            format!("The pod sandbox cannot be created{on}"),
            "The kubelet cannot create the pod's sandbox; the event's message says why.",
        ),
    };
    let group = format!("{part:?}/{node}");
    let cause = if part == Part::ImageStore {
        Cause::ImageStoreCorrupt
    } else {
        Cause::SandboxCreationFailed
    };
    let mut f = Finding::new(cause, Severity::Error, summary)
        .object(info.key.clone())
        .group(group)
        .event(Some(&info.key), e)
        .confidence(if part == Part::Other {
            Confidence::Medium
        } else {
            Confidence::High
        })
        .explain(format!(
            "{why} Until the sandbox exists no container of the pod is created, so the pod shows ContainerCreating."
        ))
        .step("Read the full sandbox error", Some(info.describe_cmd()), RiskLevel::None, "");
    f = match part {
        Part::Network => f
            .step(format!("Check the CNI pods on {node}"), Some(format!("kubectl get pods -A -o wide --field-selector spec.nodeName={node} | grep -Ei 'calico|cilium|flannel|weave|cni'")), RiskLevel::None, "")
            .step("On the node: the plugin's files and the runtime's log", Some("ls /etc/cni/net.d /opt/cni/bin; journalctl -u containerd --since '-15min' | grep -i cni".into()), RiskLevel::None, "")
            .step("Restart the CNI pod on that node once the cause is clear", Some(format!("kubectl -n <cni-namespace> delete pod <cni-pod-on-{node}>")), RiskLevel::Medium, "Pods on the node may lose networking while the plugin restarts."),
        Part::Image => f
            .step("See which sandbox image the node's runtime uses", Some("crictl info | grep -i sandboxImage; grep -i sandbox_image /etc/containerd/config.toml".into()), RiskLevel::None, "")
            .step("Make that image pullable from the node (mirror it, fix the registry credentials), or point the runtime at a reachable copy", None, RiskLevel::Medium, "Changing containerd's config needs a restart of containerd on the node."),
        Part::MemoryTooSmall => f
            .step("Check the pod's memory limits for a unit mistake (\"4\" is 4 bytes, \"4Mi\" is 4 MiB)", Some(format!("kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].resources}}'", info.name(), info.ns())), RiskLevel::None, "")
            .step("Raise the limit in the workload", None, RiskLevel::Low, "Rolls the workload's pods."),
        Part::ImageStore => f
            .step("On the node: see which images the runtime lists and which one fails to unpack", Some("crictl images; journalctl -u containerd --since '-15min' | grep -i 'content digest'".into()), RiskLevel::None, "")
            .step("Remove the broken image and pull it again", Some("crictl rmi <sandbox-image>; crictl pull <sandbox-image>".into()), RiskLevel::Low, "Only the node's local copy is removed; pods already running keep theirs."),
        Part::Runtime | Part::Other => f
            .step("On the node: the runtime's log around the failure", Some("journalctl -u containerd --since '-15min'; journalctl -u kubelet --since '-15min' | grep -i sandbox".into()), RiskLevel::None, ""),
    };
    f
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_sandbox_wording() {
        for (msg, want) in [
            (
                r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "3f2a": plugin type="calico" failed (add): stat /var/lib/calico/nodename: no such file or directory: check that the calico/node container is running and has mounted /var/lib/calico/"#,
                Part::Network,
            ),
            (
                r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to set up sandbox container "9c1e" network for pod "web-1": networkPlugin cni failed to set up pod "web-1_shop" network: failed to allocate for range 0: no IP addresses available in range set: 10.244.1.1-10.244.1.254"#,
                Part::Network,
            ),
            (
                r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to setup network for sandbox "77ab": failed to find plugin "bridge" in path [/opt/cni/bin]"#,
                Part::Network,
            ),
            (
                r#"Failed to create pod sandbox: failed to get sandbox image "registry.k8s.io/pause:3.9": failed to pull image "registry.k8s.io/pause:3.9": failed to pull and unpack image "registry.k8s.io/pause:3.9": failed to resolve reference "registry.k8s.io/pause:3.9": failed to do request: Head "https://registry.k8s.io/v2/pause/manifests/3.9": dial tcp: lookup registry.k8s.io: no such host"#,
                Part::Image,
            ),
            // dragonflyoss/nydus issue 1702: the pause image's content lost after a snapshotter switch.
            (
                r#"Failed to create pod sandbox: rpc error: code = NotFound desc = failed to create containerd container: error unpacking image: failed to extract layer sha256:1021ef88c7974bfff89c5a0ec4fd3160daac6c48a075f74cff721f85dd104e68: failed to get reader from content store: content digest sha256:fbe1a72f5dcd08ba4ca3ce3468c742786c1f6578c1f6bb401be1c4620d6ff705: not found"#,
                Part::ImageStore,
            ),
            (
                r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed pulling image "k8s.gcr.io/pause:3.2": Error response from daemon: Get https://k8s.gcr.io/v2/: net/http: request canceled while waiting for connection"#,
                Part::Image,
            ),
            (
                r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?): unknown"#,
                Part::MemoryTooSmall,
            ),
            (
                r#"Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create containerd task: failed to create shim task: OCI runtime create failed: runc create failed: unable to start container process: can't get final child's PID from pipe: EOF: unknown"#,
                Part::Runtime,
            ),
            ("Failed to create pod sandbox: something new", Part::Other),
        ] {
            assert_eq!(classify(msg), want, "{msg}");
        }
    }
}
