//! Containers that cannot be configured or mounted: CreateContainerConfigError messages,
//! FailedMount events, and every ConfigMap / Secret reference resolved against the snapshot
//! (when the snapshot holds that namespace's ConfigMaps / Secrets).

use crate::Findings;
use crate::podinfo::PodInfo;
use crate::{Check, Ctx};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, RiskLevel, Severity};

pub(crate) struct ConfigAndMounts;

const CAUSES: &[Cause] = &[
    Cause::ConfigmapMissing,
    Cause::SecretMissing,
    Cause::ConfigError,
    Cause::VolumeMountFailed,
];

pub(crate) use kubewhy_model::messages::volume::missing_reference;

/// A reference from the pod spec to a ConfigMap or Secret.
struct Reference {
    cause: Cause,
    name: String,
    key: Option<String>,
    optional: bool,
    field: String,
}

fn references(info: &PodInfo) -> Vec<Reference> {
    let spec = &info.pod.spec;
    let mut refs = Vec::new();
    for v in &spec.volumes {
        if let Some(cm) = &v.config_map {
            refs.push(Reference {
                cause: Cause::ConfigmapMissing,
                name: cm.name.to_string(),
                key: None,
                optional: cm.optional == Some(true),
                field: format!("spec.volumes[{}].configMap", v.name),
            });
        }
        if let Some(s) = &v.secret {
            refs.push(Reference {
                cause: Cause::SecretMissing,
                name: s.secret_name.to_string(),
                key: None,
                optional: s.optional == Some(true),
                field: format!("spec.volumes[{}].secret", v.name),
            });
        }
    }
    for c in spec.containers.iter().chain(&spec.init_containers) {
        for e in &c.env {
            let Some(src) = &e.value_from else { continue };
            if let Some(k) = &src.config_map_key_ref {
                refs.push(Reference {
                    cause: Cause::ConfigmapMissing,
                    name: k.name.to_string(),
                    key: Some(k.key.to_string()),
                    optional: k.optional == Some(true),
                    field: format!(
                        "spec.containers[{}].env[{}].valueFrom.configMapKeyRef",
                        c.name, e.name
                    ),
                });
            }
            if let Some(k) = &src.secret_key_ref {
                refs.push(Reference {
                    cause: Cause::SecretMissing,
                    name: k.name.to_string(),
                    key: Some(k.key.to_string()),
                    optional: k.optional == Some(true),
                    field: format!(
                        "spec.containers[{}].env[{}].valueFrom.secretKeyRef",
                        c.name, e.name
                    ),
                });
            }
        }
        for ef in &c.env_from {
            if let Some(r) = &ef.config_map_ref {
                refs.push(Reference {
                    cause: Cause::ConfigmapMissing,
                    name: r.name.to_string(),
                    key: None,
                    optional: r.optional == Some(true),
                    field: format!("spec.containers[{}].envFrom.configMapRef", c.name),
                });
            }
            if let Some(r) = &ef.secret_ref {
                refs.push(Reference {
                    cause: Cause::SecretMissing,
                    name: r.name.to_string(),
                    key: None,
                    optional: r.optional == Some(true),
                    field: format!("spec.containers[{}].envFrom.secretRef", c.name),
                });
            }
        }
    }
    refs
}

impl Check for ConfigAndMounts {
    fn name(&self) -> &'static str {
        "config-and-mounts"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for pod in &ctx.snap.pods {
            let info = PodInfo::new(pod);
            if info.is_terminating() || matches!(pod.status.phase.as_str(), "Succeeded" | "Failed")
            {
                continue;
            }
            let started = pod
                .status
                .container_statuses
                .iter()
                .any(|c| c.state.running.is_some() || c.restart_count > 0);
            if started {
                // A container that ran before and now waits in CreateContainerConfigError (its
                // next start cannot be configured: a kubelet upgraded before its API server) is
                // judged by that state; its old mount events are not.
                let mut found = Vec::new();
                config_errors(ctx, &info, &mut found);
                for f in found {
                    out.push(f);
                }
                continue;
            }
            check_pod(ctx, &info, out);
        }
    }
}

fn check_pod(ctx: &Ctx, info: &PodInfo, out: &mut Findings) {
    let snap = ctx.snap;
    let mut found: Vec<Finding> = Vec::new();
    // 1. What the kubelet said: waiting messages and FailedMount events.
    config_errors(ctx, info, &mut found);
    let events = snap.events_for("Pod", &info.pod.metadata);
    for e in &events {
        if !matches!(
            e.reason.as_str(),
            "FailedMount" | "FailedAttachVolume" | "FailedMapVolume"
        ) {
            continue;
        }
        if mounted_since(info, &events, e) {
            continue;
        }
        let src = e.origin();
        let f = match missing_reference(&e.message) {
            Some((cause, name, key)) => base(ctx, info, cause, &name, key.as_deref()),
            None => mount_failure(ctx, info, &e.message),
        };
        found.push(f.evidence(EvidenceKind::Event, Some(&info.key), src, e.message.clone()));
    }
    // 2. State: references the snapshot shows are missing (events may have expired).
    missing_references(ctx, info, &mut found);
    // A specific cause makes the generic mount failure (the timeout line that repeats it)
    // redundant.
    let generic = |f: &Finding| f.cause == Cause::VolumeMountFailed && f.group_key.is_empty();
    let specific = found.iter().any(|f| !generic(f));
    for f in found {
        if specific && generic(&f) {
            continue;
        }
        out.push(f);
    }
}

/// Containers waiting in CreateContainerConfigError: the reference their message (or the
/// kubelet's `Failed` event) names.
fn config_errors(ctx: &Ctx, info: &PodInfo, found: &mut Vec<Finding>) {
    let snap = ctx.snap;
    for (cs, init) in info.statuses() {
        let Some(w) = &cs.state.waiting else { continue };
        if w.reason != "CreateContainerConfigError" {
            continue;
        }
        let field = format!(
            "status.{}[{}].state.waiting",
            if init {
                "initContainerStatuses"
            } else {
                "containerStatuses"
            },
            cs.name
        );
        // `kubectl describe` prints no message under a waiting state: the kubelet's `Failed`
        // event (`Error: configmap "x" not found`) says the same.
        let said = (w.message.is_empty())
            .then(|| {
                snap.events_for("Pod", &info.pod.metadata)
                    .into_iter()
                    .rev()
                    .find(|e| {
                        e.reason == "Failed"
                            && e.message.starts_with("Error: ")
                            && e.container().is_none_or(|c| c == cs.name)
                    })
            })
            .flatten();
        let message = said.map_or(w.message.as_str(), |e| {
            e.message.trim_start_matches("Error: ")
        });
        let (cause, name, key) = match missing_reference(message) {
            Some(m) => m,
            // The kubelet cannot make a subPath inside the volume (`failed to create subPath
            // directory for volumeMount …`): the volume, not the container's configuration.
            None if kubewhy_model::messages::known::find(message)
                .is_some_and(|(e, _)| e.cause == Cause::VolumeMountFailed) =>
            {
                (Cause::VolumeMountFailed, String::new(), None)
            }
            None => (Cause::ConfigError, String::new(), None),
        };
        let mut f = base(ctx, info, cause, &name, key.as_deref()).evidence(
            EvidenceKind::Field,
            Some(&info.key),
            format!("{field} reason={}", w.reason),
            w.message.clone(),
        );
        if let Some(e) = said {
            f = f.evidence(
                EvidenceKind::Event,
                Some(&info.key),
                e.origin(),
                e.message.clone(),
            );
        }
        found.push(f);
    }
}

/// The Secrets and ConfigMaps whose keys the checks need and the snapshot lacks (a live scan
/// lists them as metadata only): those a pod that has not started references by key, and the
/// pull secrets (its own and its service account's) of a pod whose image is not pulled. Each
/// once, as `(kind, namespace, name)`; at most `max`.
pub fn keys_needed(
    snap: &kubewhy_model::Snapshot,
    max: usize,
) -> Vec<(&'static str, String, String)> {
    let mut out: Vec<(&'static str, String, String)> = Vec::new();
    let mut want = |kind: &'static str, ns: &str, name: &str| {
        let obj = match kind {
            "ConfigMap" => snap.config_map(ns, name),
            _ => snap.secret(ns, name),
        };
        let entry = (kind, ns.to_string(), name.to_string());
        if obj.is_some_and(|o| !o.keys_known) && out.len() < max && !out.contains(&entry) {
            out.push(entry);
        }
    };
    for pod in &snap.pods {
        let info = PodInfo::new(pod);
        if info.is_terminating() || matches!(pod.status.phase.as_str(), "Succeeded" | "Failed") {
            continue;
        }
        let statuses = || {
            pod.status
                .container_statuses
                .iter()
                .chain(&pod.status.init_container_statuses)
        };
        let started = statuses().any(|c| c.state.running.is_some() || c.restart_count > 0);
        if !started {
            for r in references(&info).iter().filter(|r| r.key.is_some()) {
                let kind = if r.cause == Cause::ConfigmapMissing {
                    "ConfigMap"
                } else {
                    "Secret"
                };
                want(kind, info.ns(), &r.name);
            }
        }
        let pulling = statuses().any(|c| {
            c.state
                .waiting
                .as_ref()
                .is_some_and(|w| matches!(w.reason.as_str(), "ImagePullBackOff" | "ErrImagePull"))
        });
        if pulling {
            for n in crate::podinfo::pull_secret_names(snap, pod) {
                want("Secret", info.ns(), &n);
            }
        }
    }
    out
}

/// References the snapshot shows are missing: a ConfigMap or Secret, or one of its keys.
fn missing_references(ctx: &Ctx, info: &PodInfo, found: &mut Vec<Finding>) {
    let snap = ctx.snap;
    for r in references(info) {
        if r.optional {
            continue;
        }
        let (known, obj) = match r.cause {
            Cause::ConfigmapMissing => (
                snap.config_maps_known(info.ns()),
                snap.config_map(info.ns(), &r.name),
            ),
            _ => (
                snap.secrets_known(info.ns()),
                snap.secret(info.ns(), &r.name),
            ),
        };
        if !known {
            continue;
        }
        let kind = if r.cause == Cause::ConfigmapMissing {
            "ConfigMap"
        } else {
            "Secret"
        };
        let quote = match (obj, &r.key) {
            (None, _) => format!("{kind} {}/{} does not exist", info.ns(), r.name),
            // Listed as metadata only and not read since: its keys are unknown, not absent.
            (Some(o), Some(k)) if o.keys_known && !o.keys.iter().any(|x| x == k) => format!(
                "{kind} {}/{} has no key \"{k}\" (keys: {})",
                info.ns(),
                r.name,
                o.keys.join(", ")
            ),
            _ => continue,
        };
        let key = if obj.is_some() { r.key.clone() } else { None };
        let mut f = base(ctx, info, r.cause, &r.name, key.as_deref()).evidence(
            EvidenceKind::Absence,
            Some(&info.key),
            r.field.clone(),
            quote,
        );
        if obj.is_none() {
            f = elsewhere(ctx, info, kind, &r.name, f);
        }
        found.push(f);
    }
}

/// Whether the pod got past mounting after this mount failure. The kubelet mounts every volume
/// before it creates the sandbox and pulls images, so a later sandbox (even a failed one),
/// pull/create/start event, or a
/// container waiting for anything but its creation, means the volumes are there and the event
/// is history (a transient "failed to sync secret cache" is common on a busy kubelet).
fn mounted_since(
    info: &PodInfo,
    events: &[&kubewhy_model::objects::Event],
    failure: &kubewhy_model::objects::Event,
) -> bool {
    let past_creation = info.statuses().any(|(c, _)| {
        c.state.running.is_some()
            || c.state.terminated.is_some()
            || c.state.waiting.as_ref().is_some_and(|w| {
                !matches!(
                    w.reason.as_str(),
                    "" | "ContainerCreating" | "PodInitializing" | "CreateContainerConfigError"
                )
            })
    });
    if past_creation {
        return true;
    }
    events.iter().any(|x| {
        matches!(
            x.reason.as_str(),
            "Pulling"
                | "Pulled"
                | "Created"
                | "Started"
                | "BackOff"
                | "FailedCreatePodSandBox"
                | "SandboxChanged"
        ) && matches!((x.last_time, failure.last_time), (Some(a), Some(b)) if a >= b)
    })
}

/// A missing ConfigMap or Secret that exists under the same name in other namespaces: a pod
/// only sees its own namespace's.
fn elsewhere(ctx: &Ctx, info: &PodInfo, kind: &str, name: &str, mut f: Finding) -> Finding {
    let list = if kind == "ConfigMap" {
        &ctx.snap.config_maps
    } else {
        &ctx.snap.secrets
    };
    let others: Vec<&str> = list
        .iter()
        .filter(|o| o.metadata.name == name && o.metadata.ns() != info.ns())
        .map(|o| o.metadata.ns())
        .collect();
    if others.is_empty() {
        return f;
    }
    f = f.evidence(
        EvidenceKind::Field,
        None,
        format!("{kind}s named {name} in other namespaces"),
        format!(
            "{kind} \"{name}\" exists in namespace(s) {}, not in {}: a pod only sees its own namespace's",
            others.join(", "),
            info.ns()
        ),
    );
    let lc = kind.to_ascii_lowercase();
    let from = others[0];
    let ns = info.ns();
    let (risk, note) = if kind == "Secret" {
        (
            RiskLevel::Medium,
            "Copies credentials into another namespace: everyone who can read that namespace's Secrets can read them.",
        )
    } else {
        (
            RiskLevel::Low,
            "The copy does not follow later changes to the original.",
        )
    };
    f.step_at(
        1,
        format!("If the one in {from} is the right one, copy it into {ns}"),
        Some(format!(
            "kubectl get {lc} {name} -n {from} -o json | jq 'del(.metadata.namespace,.metadata.uid,.metadata.resourceVersion,.metadata.creationTimestamp,.metadata.ownerReferences,.metadata.managedFields)' | kubectl apply -n {ns} -f -"
        )),
        risk,
        note,
    )
}

pub(crate) use kubewhy_model::messages::volume::{MountProblem, classify_mount};

fn mount_failure(ctx: &Ctx, info: &PodInfo, msg: &str) -> Finding {
    let problem = classify_mount(msg);
    let node = info.pod.spec.node_name.as_deref().unwrap_or("its node");
    let (summary, group, explanation) = match &problem {
        MountProblem::MultiAttach { volume } => (
            format!("Volume \"{volume}\" is still attached to another node"),
            format!("multi-attach|{volume}"),
            format!("A ReadWriteOnce volume can be attached to one node at a time. \"{volume}\" is still attached elsewhere: another pod on another node uses it (two replicas of a Deployment sharing one claim), or a pod on a failed node was never cleanly detached (the attach-detach controller force-detaches after 6 minutes once that pod is gone)."),
        ),
        MountProblem::CsiDriverMissing { driver } => {
            let known = ctx.snap.csi_drivers.iter().any(|d| d.metadata.name == *driver);
            (
                format!("CSI driver \"{driver}\" is not registered on node {node}"),
                format!("csi|{driver}|{node}"),
                format!("The volume needs CSI driver \"{driver}\", and its node plugin is not registered with the kubelet on {node}: the driver's DaemonSet does not run there (or crashes), or the driver is not installed at all.{}", if ctx.snap.kinds_loaded.contains_key("CSIDriver") { if known { " A CSIDriver object exists, so the driver is installed: look at its node pod on this node." } else { " No CSIDriver object of that name is in the snapshot: the driver is probably not installed." } } else { "" }),
            )
        }
        MountProblem::Timeout | MountProblem::Other => (
            "A volume of the pod cannot be mounted".to_string(),
            String::new(),
            "The kubelet could not attach or mount one of the pod's volumes; the event names the volume and the error.".to_string(),
        ),
    };
    let mut f = Finding::new(Cause::VolumeMountFailed, Severity::Error, summary)
        .object(info.key.clone())
        .group(group)
        .explain(explanation)
        .step(
            "Read the FailedMount / FailedAttachVolume events",
            Some(info.describe_cmd()),
            RiskLevel::None,
            "",
        );
    if problem == MountProblem::Timeout {
        f = f.confidence(Confidence::Low);
    }
    f = match &problem {
        MountProblem::MultiAttach { volume } => {
            // Other pods using the same claim: the likely holders.
            let claims: Vec<&str> = info.pod.spec.volumes.iter().filter_map(|v| v.persistent_volume_claim.as_ref().map(|c| c.claim_name.as_str())).collect();
            let holders: Vec<String> = ctx.snap.pods.iter().filter(|p| {
                p.metadata.uid != info.pod.metadata.uid
                    && p.metadata.ns() == info.ns()
                    && p.spec.volumes.iter().any(|v| v.persistent_volume_claim.as_ref().is_some_and(|c| claims.contains(&c.claim_name.as_str())))
            }).map(|p| format!("{} (node {})", p.metadata.name, p.spec.node_name.as_deref().unwrap_or("none"))).collect();
            if !holders.is_empty() {
                f = f.evidence(EvidenceKind::Field, None, "other pods of the namespace using the same claim", holders.join(", "));
            }
            f.step("See where the volume is attached", Some(format!("kubectl get volumeattachments | grep {volume}")), RiskLevel::None, "")
                .step("Run one pod per ReadWriteOnce claim (a StatefulSet with volumeClaimTemplates, or replicas: 1 with strategy Recreate), or use a ReadWriteMany volume", None, RiskLevel::Low, "")
                .step("If the other node is dead and its pod gone, delete the stale VolumeAttachment", Some("kubectl delete volumeattachment <name>".into()), RiskLevel::High, "Detaching a volume a live node still writes to corrupts the data.")
        }
        MountProblem::CsiDriverMissing { driver } => f
            .step("See the registered drivers and the driver's node pods", Some(format!("kubectl get csidrivers; kubectl get csinode {node} -o yaml; kubectl get pods -A -o wide | grep -i {driver}")), RiskLevel::None, "")
            .step(format!("Install the driver, or fix its node DaemonSet on {node}"), None, RiskLevel::Low, ""),
        _ => f,
    };
    info.confirm_with_events(f)
}

fn base(ctx: &Ctx, info: &PodInfo, cause: Cause, name: &str, key: Option<&str>) -> Finding {
    let ns = info.ns();
    let wl = info.workload_ref(ctx.snap);
    let what = if cause == Cause::ConfigmapMissing {
        "ConfigMap"
    } else {
        "Secret"
    };
    let summary = match (cause, key) {
        (Cause::ConfigmapMissing | Cause::SecretMissing, Some(k)) => {
            format!("{what} \"{name}\" has no key \"{k}\" that the pod needs")
        }
        (Cause::ConfigmapMissing | Cause::SecretMissing, None) => {
            format!("{what} \"{name}\" that the pod needs does not exist")
        }
        (Cause::ConfigError, _) => "The kubelet cannot build the container's configuration".into(),
        _ => "A volume of the pod cannot be mounted".into(),
    };
    let mut f = Finding::new(cause, Severity::Error, summary)
        .object(info.key.clone())
        .group(format!("{name}|{}", key.unwrap_or("")));
    match cause {
        Cause::ConfigmapMissing | Cause::SecretMissing => {
            let lc = what.to_ascii_lowercase();
            f = f
                .explain(format!(
                    "The pod references {what} \"{name}\"{} in namespace {ns} and the reference is not optional, so the kubelet will not start the container (CreateContainerConfigError for env, ContainerCreating with FailedMount for volumes) until it exists. It may have been deleted, never created, misspelt, or created in another namespace.",
                    key.map(|k| format!(" (key \"{k}\")")).unwrap_or_default()
                ))
                .step(format!("Check what exists in {ns}"), Some(format!("kubectl get {lc} -n {ns}")), RiskLevel::None, "")
                .step(
                    match key {
                        Some(k) => format!("Add key \"{k}\" to {what} \"{name}\", or fix the key name in {wl}"),
                        None => format!("Create {what} \"{name}\" in {ns}, or fix the name in {wl}"),
                    },
                    Some(match (cause, key) {
                        (Cause::ConfigmapMissing, None) => format!("kubectl -n {ns} create configmap {name} --from-file=<path>"),
                        (Cause::SecretMissing, None) => format!("kubectl -n {ns} create secret generic {name} --from-literal=<key>=<value>"),
                        (_, Some(_)) => format!("kubectl -n {ns} edit {lc} {name}"),
                        _ => String::new(),
                    }),
                    RiskLevel::Low,
                    "The pod starts with whatever content you give it: make sure it is the real configuration.",
                )
                .step("Or mark the reference optional: true if the workload can run without it", None, RiskLevel::Low, "The container then starts without those values.");
        }
        Cause::ConfigError => {
            f = f
                .explain("CreateContainerConfigError without a missing object: the message says what the kubelet refused, e.g. runAsNonRoot with an image that runs as root.")
                .step("Read the full message and the container's securityContext", Some(info.describe_cmd()), RiskLevel::None, "")
                .step("For runAsNonRoot: set runAsUser to a non-zero UID or use an image with a numeric non-root USER", None, RiskLevel::Low, "");
        }
        _ => {
            f = f
                .explain("The kubelet could not attach or mount one of the pod's volumes; the event names the volume and the error.")
                .step("Read the FailedMount / FailedAttachVolume events", Some(info.describe_cmd()), RiskLevel::None, "");
        }
    }
    info.confirm_with_events(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnose_yaml(yaml: &str) -> Vec<&'static str> {
        crate::tests::diagnose_yaml(yaml, "2026-11-22T13:30:00Z")
            .findings
            .iter()
            .map(|f| f.cause.slug())
            .collect()
    }

    /// Captured on the real cluster (scenario tls): the kubelet complained once about the token
    /// volume, mounted it, and went on to pull the image.
    #[test]
    fn a_mount_failure_the_pod_got_past_is_history() {
        let pod = |waiting: &str| {
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: untrusted, namespace: e2e-tls, uid: u1, creationTimestamp: '2026-11-22T13:20:00Z'}}\nspec:\n  nodeName: node-1\n  containers: [{{name: main, image: 'localhost:5443/private/busybox:1'}}]\nstatus:\n  phase: Pending\n  containerStatuses:\n  - {{name: main, image: 'localhost:5443/private/busybox:1', state: {{waiting: {{reason: {waiting}}}}}}}\n---\napiVersion: v1\nkind: Event\nmetadata: {{name: e1, namespace: e2e-tls}}\ninvolvedObject: {{kind: Pod, namespace: e2e-tls, name: untrusted, uid: u1}}\nreason: FailedMount\ntype: Warning\ncount: 1\nsource: {{component: kubelet}}\nlastTimestamp: '2026-11-22T13:20:02Z'\nmessage: 'MountVolume.SetUp failed for volume \"default-token-q64xf\" : failed to sync secret cache: timed out waiting for the condition'\n---\n"
            )
        };
        let pulling = "apiVersion: v1\nkind: Event\nmetadata: {name: e2, namespace: e2e-tls}\ninvolvedObject: {kind: Pod, namespace: e2e-tls, name: untrusted, uid: u1}\nreason: Pulling\ntype: Normal\nsource: {component: kubelet}\nlastTimestamp: '2026-11-22T13:21:00Z'\nmessage: 'Pulling image \"localhost:5443/private/busybox:1\"'\n";
        // Past creation: waiting on the image.
        assert!(!diagnose_yaml(&pod("ImagePullBackOff")).contains(&"volume-mount-failed"));
        // Still creating, but the kubelet pulled after the failure.
        assert!(diagnose_yaml(&format!("{}{pulling}", pod("ContainerCreating"))).is_empty());
        // Still creating, the sandbox failing after the mount did (seen in CI on scenario units:
        // a 4-byte memory limit; volumes are mounted before the sandbox is created).
        let sandbox = "apiVersion: v1\nkind: Event\nmetadata: {name: e3, namespace: e2e-tls}\ninvolvedObject: {kind: Pod, namespace: e2e-tls, name: untrusted, uid: u1}\nreason: FailedCreatePodSandBox\ntype: Warning\nsource: {component: kubelet}\nlastTimestamp: '2026-11-22T13:21:00Z'\nmessage: 'Failed to create pod sandbox: rpc error: code = Unknown desc = failed to create containerd task: OCI runtime create failed: unable to apply cgroup configuration: cannot allocate memory'\n";
        assert!(
            !diagnose_yaml(&format!("{}{sandbox}", pod("ContainerCreating")))
                .contains(&"volume-mount-failed")
        );
        // Still creating and nothing since: the mount is the problem.
        assert_eq!(
            diagnose_yaml(&pod("ContainerCreating")),
            ["volume-mount-failed"]
        );
    }

    #[test]
    fn mount_failure_wordings() {
        assert_eq!(
            classify_mount(
                "Multi-Attach error for volume \"pvc-3f1c\" Volume is already used by pod(s) db-7d4f9c-x2x9k"
            ),
            MountProblem::MultiAttach {
                volume: "pvc-3f1c".into()
            }
        );
        assert_eq!(
            classify_mount(
                "Multi-Attach error for volume \"pvc-3f1c\" Volume is already exclusively attached to one node and can't be attached to another"
            ),
            MountProblem::MultiAttach {
                volume: "pvc-3f1c".into()
            }
        );
        assert_eq!(
            classify_mount(
                "MountVolume.MountDevice failed for volume \"pvc-9a\" : kubernetes.io/csi: attacher.MountDevice failed to create newCsiDriverClient: driver name ebs.csi.aws.com not found in the list of registered CSI drivers"
            ),
            MountProblem::CsiDriverMissing {
                driver: "ebs.csi.aws.com".into()
            }
        );
        assert_eq!(
            classify_mount(
                "Unable to attach or mount volumes: unmounted volumes=[data], unattached volumes=[data kube-api-access-x]: timed out waiting for the condition"
            ),
            MountProblem::Timeout
        );
        assert_eq!(
            classify_mount(
                "MountVolume.SetUp failed for volume \"nfs\" : mount failed: exit status 32"
            ),
            MountProblem::Other
        );
    }

    #[test]
    fn kubelet_wordings() {
        assert_eq!(
            missing_reference("configmap \"app-config\" not found"),
            Some((Cause::ConfigmapMissing, "app-config".into(), None))
        );
        assert_eq!(
            missing_reference(
                "MountVolume.SetUp failed for volume \"cfg\" : configmap \"app\" not found"
            ),
            Some((Cause::ConfigmapMissing, "app".into(), None))
        );
        assert_eq!(
            missing_reference("secret \"db\" not found"),
            Some((Cause::SecretMissing, "db".into(), None))
        );
        assert_eq!(
            missing_reference(
                "MountVolume.SetUp failed for volume \"s\" : secrets \"tls\" not found"
            ),
            Some((Cause::SecretMissing, "tls".into(), None))
        );
        assert_eq!(
            missing_reference("couldn't find key password in Secret shop/db"),
            Some((Cause::SecretMissing, "db".into(), Some("password".into())))
        );
        assert_eq!(
            missing_reference("Couldn't find key url in ConfigMap shop/app"),
            Some((Cause::ConfigmapMissing, "app".into(), Some("url".into())))
        );
        assert_eq!(
            missing_reference("container has runAsNonRoot and image will run as root"),
            None
        );
    }
}
