//! Pods that were deleted but do not go away. `metadata.deletionTimestamp` is the moment the
//! grace period ends; before it the pod is not stuck. After it, the cause is found in order:
//! finalizers (nothing else can remove the object), the node (no kubelet to confirm), the
//! kubelet's own reports (unmount and stop failures), else the kubelet's reclaim checks. A pod
//! known only from a pasted `get` row (the row does not say when its deletion began) whose
//! Deployment's other pods show why it goes (a rollout, a scale-down) is said so, at low
//! confidence, before the kubelet is suspected (`replaced`).

use crate::Findings;
use crate::podinfo::{PodInfo, human_duration};
use crate::{Check, Ctx};
use crate::{node, nodelink};
use kubewhy_model::Snapshot;
use kubewhy_model::node::Signal;
use kubewhy_model::objects::Meta;
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};

pub(crate) struct Terminating;

/// Seconds past the end of the grace period after which a pod counts as stuck.
pub(crate) const STUCK_AFTER_SECS: i64 = 60;

const CAUSES: &[Cause] = &[
    Cause::GracePeriodPending,
    Cause::LifecycleHookFailed,
    Cause::FinalizerPending,
    Cause::NodeUnreachable,
    Cause::NodeDeleted,
    Cause::VolumeUnmountStuck,
    Cause::ContainerStopTimeout,
    Cause::RuntimeStateInconsistent,
    Cause::KubeletCleanupPending,
    Cause::KubeletStatusThrottled,
    Cause::RolloutReplaced,
    Cause::ScaledDown,
];

/// Runtime answers that mean it does not know a container the kubelet still tracks: docker's
/// `No such container`, CRI `NotFound`, containerd's `not found`, the prober's `No ref for
/// container`.
fn says_unknown_container(msg: &str) -> bool {
    msg.contains("No such container")
        || msg.contains("code = NotFound")
        || msg.contains("No ref for container")
        || (msg.contains("not found")
            && (msg.contains("container") || msg.contains("sandbox") || msg.contains("task")))
}

impl Check for Terminating {
    fn name(&self) -> &'static str {
        "terminating"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for (i, pod) in ctx.snap.pods.iter().enumerate() {
            if let Some(deadline) = pod.metadata.deletion_timestamp {
                check_pod(ctx, i, &PodInfo::new(pod), deadline, out);
            }
        }
        for w in &ctx.snap.workloads {
            if let Some(f) = foreground_owner(ctx, w) {
                out.push(f);
            }
        }
        held_objects(ctx, out);
    }
}

/// Objects other than pods and workloads that a deletion left waiting on their finalizers: a
/// ServiceAccount an operator protects, a claim, a custom resource (outside a namespace being
/// deleted, whose own finding lists what is left in it).
fn held_objects(ctx: &Ctx, out: &mut Findings) {
    let snap = ctx.snap;
    let terminating_ns = |ns: &str| {
        snap.namespaces
            .iter()
            .any(|n| n.metadata.name == ns && n.status.phase == "Terminating")
    };
    let metas = snap
        .service_accounts
        .iter()
        .map(|o| ("ServiceAccount", &o.metadata))
        .chain(snap.config_maps.iter().map(|o| ("ConfigMap", &o.metadata)))
        .chain(snap.secrets.iter().map(|o| ("Secret", &o.metadata)))
        .chain(
            snap.pvcs
                .iter()
                .map(|o| ("PersistentVolumeClaim", &o.metadata)),
        )
        .chain(snap.pvs.iter().map(|o| ("PersistentVolume", &o.metadata)))
        .chain(snap.others.iter().map(|o| (o.kind.as_str(), &o.metadata)));
    // Dependents of an owner deleted in the foreground: the owner's finding names what holds it.
    let foreground: std::collections::HashSet<&str> = snap
        .workloads
        .iter()
        .map(|w| &w.metadata)
        .chain(snap.pods.iter().map(|p| &p.metadata))
        .chain(snap.others.iter().map(|o| &o.metadata))
        .filter(|m| {
            m.deletion_timestamp.is_some() && m.finalizers.iter().any(|f| f == "foregroundDeletion")
        })
        .map(|m| m.uid.as_str())
        .filter(|u| !u.is_empty())
        .collect();
    for (kind, m) in metas {
        if m.owner_references
            .iter()
            .any(|o| foreground.contains(o.uid.as_str()))
        {
            continue;
        }
        let Some(deleted) = m.deletion_timestamp else {
            continue;
        };
        if m.finalizers.is_empty()
            || ctx.now.as_second() - deleted.as_second() < STUCK_AFTER_SECS
            || terminating_ns(m.ns())
        {
            continue;
        }
        let key = ObjectKey::of(kind, m);
        let fins = m.finalizers.join(", ");
        let owners: Vec<String> = m.finalizers.iter().map(|f| finalizer_owner(f)).collect();
        let patch = if m.ns().is_empty() {
            format!(
                "kubectl patch {} {} --type=json -p '[{{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}}]'",
                kind.to_ascii_lowercase(),
                m.name
            )
        } else {
            format!(
                "kubectl patch {} {} -n {} --type=json -p '[{{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}}]'",
                kind.to_ascii_lowercase(),
                m.name,
                m.ns()
            )
        };
        let f = Finding::new(
            Cause::FinalizerPending,
            Severity::Warning,
            format!("{key} is being deleted but waits on finalizer(s) {fins}"),
        )
        .object(key.clone())
        .group(format!("{kind}|{fins}"))
        .evidence(EvidenceKind::Field, Some(&key), "metadata.finalizers", format!("[{fins}]"))
        .evidence(
            EvidenceKind::Field,
            Some(&key),
            "metadata.deletionTimestamp",
            format!("{deleted} ({} ago)", human_duration(ctx.now.as_second() - deleted.as_second())),
        )
        .explain(format!(
            "The API server keeps an object until its finalizers list is empty, and only the controller that added a finalizer should remove it. {}",
            owners.join(" ")
        ))
        .step("See who added the finalizer (the manager of f:finalizers) and whether its controller runs", None, RiskLevel::None, "")
        .step("Start or fix the controller that owns the finalizer so it finishes its cleanup", None, RiskLevel::None, "")
        .step("Only if that controller is gone for good: remove the finalizer", Some(patch), RiskLevel::High, "Skips the cleanup the finalizer guards (external resources, data) for good.");
        out.push(f);
    }
}

/// A pod being deleted, and what every finding about it shares.
struct Deleting<'a, 'c> {
    ctx: &'a Ctx<'c>,
    pod_idx: usize,
    info: &'a PodInfo<'a>,
    deadline: jiff::Timestamp,
    /// Seconds past the deadline (negative: inside the grace period).
    past: i64,
    in_grace: bool,
    /// Every container stopped: the states, for evidence.
    stopped: Option<String>,
    stuck_for: String,
    node_name: kubewhy_model::objects::Str,
    force_cmd: String,
    force_note: &'static str,
}

impl Deleting<'_, '_> {
    /// The deletion itself as evidence.
    fn del_ev(&self, f: Finding) -> Finding {
        f.evidence(
            EvidenceKind::Field,
            Some(&self.info.key),
            "metadata.deletionTimestamp",
            format!(
                "{} (grace period {}s)",
                self.deadline,
                self.info
                    .pod
                    .metadata
                    .deletion_grace_period_seconds
                    .unwrap_or(0)
            ),
        )
    }
}

fn check_pod(
    ctx: &Ctx,
    pod_idx: usize,
    info: &PodInfo,
    deadline: jiff::Timestamp,
    out: &mut Findings,
) {
    let pod = info.pod;
    let past = ctx.now.as_second() - deadline.as_second();
    let is_sts = pod
        .metadata
        .controller()
        .is_some_and(|o| o.kind == "StatefulSet");
    let has_claims = pod
        .spec
        .volumes
        .iter()
        .any(|v| v.persistent_volume_claim.is_some());
    let d = Deleting {
        ctx,
        pod_idx,
        info,
        deadline,
        past,
        in_grace: past <= STUCK_AFTER_SECS,
        stopped: containers_stopped(pod),
        stuck_for: human_duration(past),
        node_name: pod.spec.node_name.clone().unwrap_or_default(),
        force_cmd: format!(
            "kubectl delete pod {} -n {} --grace-period=0 --force",
            info.name(),
            info.ns()
        ),
        force_note: if is_sts || has_claims {
            "The pod belongs to a StatefulSet or holds persistent volumes: if its containers still run on the node, force deletion lets a replacement start beside them — two writers on the same data, and possible corruption."
        } else {
            "Force deletion only removes the API object: if the containers still run on the node they keep running, unseen."
        },
    };
    // A pod whose node is gone or not Ready will not go away when its grace period ends: no
    // kubelet will confirm it stopped. Say so now rather than "terminating normally". Every
    // container stopped and a finalizer of some controller left: waiting for the grace period
    // to end changes nothing.
    let held = held_by_finalizer(pod);
    if d.in_grace && !node_down(ctx.snap, pod) && !held {
        out.extend(in_grace(&d));
        return;
    }
    // Finalizers: the object stays until they are removed, whatever the kubelet does.
    if (!d.in_grace || held) && !pod.metadata.finalizers.is_empty() {
        out.push(finalizers(&d));
    }
    // The node: without a kubelet nothing confirms the containers stopped.
    if d.node_name.is_empty() {
        match node_lost(&d) {
            Some(f) => out.push(f),
            None => out.extend(replaced(&d)),
        }
        return;
    }
    if let Some(f) = node_gone_or_down(&d) {
        out.push(f);
        return;
    }
    if !pod.metadata.finalizers.is_empty() {
        return;
    }
    if let Some(f) = replaced(&d) {
        out.push(f);
        return;
    }
    if let Some(f) = node_silent(&d) {
        out.push(f);
        return;
    }
    out.push(kubelet(&d));
}

/// How long a pod bound to a node may wait for its kubelet before that kubelet counts as silent.
const KUBELET_SILENT_AFTER_SECS: i64 = 600;

/// The node is not in the data (a `get pods -o wide` pasted without `get nodes`), but its other
/// pods show its kubelet is not there: pods bound to it that it has not started for ten minutes
/// (DaemonSet pods above all), or every pod of the data on it being deleted, none confirmed.
/// Low confidence: the node's own state settles it.
fn node_silent(d: &Deleting) -> Option<Finding> {
    let (info, snap, now) = (d.info, d.ctx.snap, d.ctx.now);
    let node_name = d.node_name.as_str();
    if node_name.is_empty() || snap.node(node_name).is_some() || snap.nodes_known() {
        return None;
    }
    let on_node: Vec<&kubewhy_model::objects::Pod> = snap.pods_on_node(node_name).collect();
    let unstarted: Vec<&kubewhy_model::objects::Pod> = on_node
        .iter()
        .copied()
        .filter(|p| {
            p.metadata.deletion_timestamp.is_none()
                && p.status.phase == "Pending"
                && !p
                    .status
                    .container_statuses
                    .iter()
                    .any(|c| c.state.running.is_some())
                && p.metadata
                    .creation_timestamp
                    .is_some_and(|t| now.as_second() - t.as_second() > KUBELET_SILENT_AFTER_SECS)
        })
        .collect();
    let deleting = on_node
        .iter()
        .filter(|p| p.metadata.deletion_timestamp.is_some())
        .count();
    let all_deleting = deleting >= 2 && deleting == on_node.len();
    if unstarted.is_empty() && !all_deleting {
        return None;
    }
    let mut said = Vec::new();
    if !unstarted.is_empty() {
        let daemons = unstarted
            .iter()
            .filter(|p| {
                p.metadata
                    .controller()
                    .is_some_and(|o| o.kind == "DaemonSet")
            })
            .count();
        let oldest = unstarted
            .iter()
            .filter_map(|p| p.metadata.creation_timestamp)
            .min()
            .map(|t| human_duration(now.as_second() - t.as_second()))
            .unwrap_or_default();
        let names: Vec<&str> = unstarted
            .iter()
            .take(3)
            .map(|p| p.metadata.name.as_str())
            .collect();
        said.push(format!(
            "{} pod(s) bound to {node_name} not started by its kubelet, the oldest for {oldest}{} ({}{})",
            unstarted.len(),
            if daemons > 0 {
                format!(", {daemons} of them a DaemonSet's, which run on every working node")
            } else {
                String::new()
            },
            names.join(", "),
            if unstarted.len() > names.len() { ", …" } else { "" }
        ));
    }
    if all_deleting {
        said.push(format!(
            "every pod of the data on {node_name} ({deleting}) is being deleted and none has been confirmed stopped"
        ));
    }
    let f = Finding::new(
        Cause::NodeUnreachable,
        Severity::Warning,
        format!("The pod's node {node_name} looks down: its kubelet neither starts nor stops pods, so nothing confirms the pod stopped"),
    )
    .object(info.key.clone())
    .group(format!("node|{node_name}"))
    .confidence(Confidence::Low)
    .evidence(
        EvidenceKind::Analysis,
        Some(&info.key),
        format!("the pods on node {node_name}"),
        said.join("; "),
    )
    .evidence(
        EvidenceKind::Absence,
        Some(&info.key),
        "spec.nodeName",
        format!("Node {node_name} is not in the data: its Ready condition would settle it"),
    );
    Some(
        d.del_ev(f)
            .explain(format!("The API server waits for the kubelet on {node_name} to report the pod's containers stopped before removing it. The node is not in the data, but its other pods say its kubelet is not working: pods bound to it are neither started nor stopped. A node whose kubelet is down (the machine off, a crash, a network partition) keeps its pods Terminating until it comes back or its Node object is deleted."))
            .step("Settle it: the node's state", Some(format!("kubectl get node {node_name}; kubectl describe node {node_name}")), RiskLevel::None, "")
            .step("Bring the node back (kubelet, network, machine)", None, RiskLevel::None, "")
            .step("If the machine is gone for good, delete the Node object: the pod GC then removes its pods", Some(format!("kubectl delete node {node_name}")), RiskLevel::Medium, "Only when the machine is really off: its pods would otherwise run unseen.")
            .step("Force-delete the pod only when you know the machine is down", Some(d.force_cmd.clone()), RiskLevel::High, d.force_note),
    )
}

/// Inside its grace period: nothing is stuck yet (unless its data says why it is being
/// removed: removal.rs has that finding).
fn in_grace(d: &Deleting) -> Option<Finding> {
    let (info, pod, past) = (d.info, d.info.pod, d.past);
    // A pod whose data says why it is being removed gets that finding instead (removal.rs).
    if crate::removal::explains(d.ctx, pod) {
        return None;
    }
    // A preStop hook that failed (or hangs until the kubelet gives up on it) is why the pod
    // takes its whole grace period.
    if let Some(e) = d
        .ctx
        .snap
        .events_for("Pod", &pod.metadata)
        .into_iter()
        .rev()
        .find(|e| e.reason == "FailedPreStopHook")
    {
        let f = Finding::new(
            Cause::LifecycleHookFailed,
            Severity::Warning,
            format!(
                "The pod's preStop hook failed{}; it is stopped when its grace period ends",
                e.container()
                    .map(|c| format!(" (container {c})"))
                    .unwrap_or_default()
            ),
        )
        .object(info.key.clone())
        .group(format!("{}|prestop", info.owner_key(d.ctx.snap)));
        return Some(
            d.del_ev(f)
                .event(Some(&info.key), e)
                .explain("On deletion the kubelet runs each container's preStop hook before sending SIGTERM; a hook that fails is reported (FailedPreStopHook) and one that hangs uses up the grace period, so the pod stays Terminating for all of terminationGracePeriodSeconds and the application gets no orderly shutdown. Before 1.26 the event carries the hook's own error; later it says only \"PreStopHook failed\" and the kubelet's log has the rest.")
                .step("Read the hook's error", Some(info.describe_cmd()), RiskLevel::None, "")
                .step("See the hook", Some(format!("kubectl get pod {} -n {} -o jsonpath='{{.spec.containers[*].lifecycle.preStop}}'", info.name(), info.ns())), RiskLevel::None, "")
                .step("Fix the hook (a command present in the image, an endpoint that answers, shorter than the grace period) or remove it", None, RiskLevel::Low, "Rolls the workload."),
        );
    }
    let f = Finding::new(
        Cause::GracePeriodPending,
        Severity::Info,
        if past < 0 {
            format!(
                "Terminating normally: the grace period ends in {}",
                human_duration(-past)
            )
        } else {
            "Terminating normally: the grace period just ended".to_string()
        },
    )
    .object(info.key.clone())
    .group("grace");
    let f = d.del_ev(f).explain("The pod was deleted and is inside its grace period: the kubelet runs preStop hooks and sends SIGTERM, then SIGKILL when the period ends. Nothing is stuck yet.")
        .step("Wait, or follow it", Some(format!("kubectl get pod {} -n {} -w", info.name(), info.ns())), RiskLevel::None, "");
    Some(f)
}

/// Its finalizers hold it: who added them, and what removing one skips.
fn finalizers(d: &Deleting) -> Finding {
    let (info, pod, snap, stuck_for) = (d.info, d.info.pod, d.ctx.snap, &d.stuck_for);
    let fins = pod.metadata.finalizers.join(", ");
    let mut f = Finding::new(
        Cause::FinalizerPending,
        Severity::Warning,
        format!("Deletion waits on finalizer(s) {fins}"),
    )
    .object(info.key.clone())
    .group(format!("pod|{fins}"))
    .evidence(
        EvidenceKind::Field,
        Some(&info.key),
        "metadata.finalizers",
        format!("[{fins}]"),
    );
    f = d.del_ev(f);
    if let Some(states) = &d.stopped {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            "status.containerStatuses",
            states.clone(),
        );
    }
    let mut owners: Vec<String> = Vec::new();
    for fin in &pod.metadata.finalizers {
        owners.push(finalizer_owner(fin));
        if fin == "foregroundDeletion" {
            let deps = dependents(snap, &pod.metadata.uid);
            let quote = if deps.is_empty() {
                "none in the data: the garbage collector should finish the deletion".to_string()
            } else {
                deps.iter()
                    .take(10)
                    .map(|k| format!("{} {}/{}", k.kind, k.namespace, k.name))
                    .collect::<Vec<_>>()
                    .join(", ")
            };
            f = f.evidence(
                EvidenceKind::Field,
                Some(&info.key),
                "dependents still alive (their ownerReferences name this pod)",
                quote,
            );
        }
    }
    let when = if d.in_grace {
        "Its containers have all stopped, so the rest of its grace period changes nothing"
            .to_string()
    } else {
        format!("The pod is past its grace period by {stuck_for}")
    };
    f = f.explain(format!(
        "{when}: the API server keeps an object until its finalizers list is empty, and only the controller that added a finalizer should remove it. {}",
        owners.join(" ")
    ))
    .step("See who added the finalizer: the manager of f:finalizers in managedFields (kubectl before 1.21 prints them without --show-managed-fields, and refuses the flag)", Some(format!("kubectl get pod {} -n {} -o yaml --show-managed-fields", info.name(), info.ns())), RiskLevel::None, "")
    .step("Start or fix the controller that owns the finalizer so it finishes its cleanup", None, RiskLevel::None, "")
    .step(
        "Only if that controller is gone for good: remove the finalizer",
        Some(format!("kubectl patch pod {} -n {} --type=json -p '[{{\"op\":\"remove\",\"path\":\"/metadata/finalizers\"}}]'", info.name(), info.ns())),
        RiskLevel::High,
        "Skips the cleanup the finalizer guards (external resources, data) for good.",
    );
    f
}

/// Unknown (reason NodeLost) without the node's name (a `get pods` without -o wide): the node
/// controller's verdict. Else, unscheduled: only finalizers can hold it (the pod GC removes it
/// otherwise).
fn node_lost(d: &Deleting) -> Option<Finding> {
    let (info, pod, stuck_for, force_cmd, force_note) =
        (d.info, d.info.pod, &d.stuck_for, &d.force_cmd, d.force_note);
    let lost = pod.status.phase == "Unknown" || pod.status.reason.as_deref() == Some("NodeLost");
    if lost {
        // The node controller's verdict, without the node's name (a `get pods` without -o wide).
        let f = Finding::new(Cause::NodeUnreachable, Severity::Warning, "The pod is Unknown: its node stopped reporting, so no kubelet confirms it stopped")
            .object(info.key.clone())
            .group("node|(not shown)")
            .evidence(EvidenceKind::Field, Some(&info.key), "status.phase", format!("{}{}", pod.status.phase, pod.status.reason.as_deref().map(|r| format!(" (reason {r})")).unwrap_or_default()))
            .explain(format!("The pod is past its grace period by {stuck_for}. The node lifecycle controller sets a pod's status to Unknown (reason NodeLost) only when its node stopped posting status: the API server waits for that node's kubelet to confirm the containers stopped, and it does not answer. The pod stays Terminating until the node comes back or its Node object is deleted."))
            .step("Find the pod's node and its state", Some(format!("kubectl get pod {} -n {} -o wide; kubectl get nodes", info.name(), info.ns())), RiskLevel::None, "")
            .step("Bring the node back, or if the machine is gone for good delete the Node object: the pod GC then removes its pods", Some("kubectl delete node NODE".into()), RiskLevel::Medium, "Only when the machine is really off: its pods would otherwise run unseen.")
            .step("Force-delete the pod only when you know the machine is down", Some(force_cmd.clone()), RiskLevel::High, force_note);
        return Some(d.del_ev(f));
    }
    None
}

/// k8s.io/apimachinery's `rand.SafeEncodeString` alphabet: a ReplicaSet's generated pod names
/// end in five of these, and a Deployment's ReplicaSet in its pod-template-hash made of them
/// (before 1.8, its decimal digits). No vowels: words of a chosen name rarely fit.
fn generated(s: &str, len: std::ops::RangeInclusive<usize>) -> bool {
    len.contains(&s.len())
        && s.bytes()
            .all(|b| b.is_ascii_digit() || b"bcdfghjklmnpqrstvwxz".contains(&b))
}

/// A ReplicaSet's pod as its owner (or, pasted, its name: RS-xxxxx) shows it: the ReplicaSet.
fn replica_set_of(meta: &Meta) -> Option<&str> {
    match meta.controller() {
        Some(o) if o.kind == "ReplicaSet" => Some(o.name.as_str()),
        Some(_) => None,
        None => {
            let (rs, suffix) = meta.name.rsplit_once('-')?;
            (generated(suffix, 5..=5) && !rs.is_empty()).then_some(rs)
        }
    }
}

/// A Deployment's ReplicaSet as its name (and its pods' pod-template-hash label) shows it:
/// (the Deployment, the template hash). `None` for a ReplicaSet of its own.
fn revision_of<'a>(meta: &Meta, rs: &'a str) -> Option<(&'a str, &'a str)> {
    let (deployment, hash) = rs.rsplit_once('-')?;
    let hash_ok = match meta.labels.get("pod-template-hash") {
        Some(h) => h.as_str() == hash,
        None => generated(hash, 5..=10),
    };
    (hash_ok && !deployment.is_empty()).then_some((deployment, hash))
}

/// A pod its own ReplicaSet removed, as the pods beside it show, when the paste shows no other
/// reason: a rollout (pods of another template hash of the same Deployment, younger and not
/// being deleted, replace it: rollout-replaced), or a lowered replica count (siblings of its
/// ReplicaSet stay and none is younger: nothing replaces it, scaled-down). Only for a pod
/// known from a pasted `get` row, whose deletion time the row does not give (so nothing says it
/// is stuck); low confidence: the Deployment's events and ReplicaSets settle it.
fn replaced(d: &Deleting) -> Option<Finding> {
    let (ctx, info, pod) = (d.ctx, d.info, d.info.pod);
    let (ns, name) = (info.ns(), info.name());
    let from_row = ctx.snap.pasted.iter().any(|q| {
        q.object.kind == "Pod"
            && q.object.namespace == ns
            && q.object.name == name
            && q.from.starts_with("a kubectl get ")
    });
    if !from_row {
        return None;
    }
    let old_rs = replica_set_of(&pod.metadata)?;
    let revision = revision_of(&pod.metadata, old_rs);
    let born = pod.metadata.creation_timestamp;
    let younger = |m: &Meta| match (born, m.creation_timestamp) {
        (Some(a), Some(b)) => b > a,
        _ => true,
    };
    let older = |m: &Meta| matches!((born, m.creation_timestamp), (Some(a), Some(b)) if b < a);
    let mut newer: Vec<&str> = Vec::new();
    let mut new_hash = "";
    let mut siblings = 0;
    let mut replacement = false;
    let mut older_sibling = false;
    for p in ctx.snap.pods.iter() {
        let m = &p.metadata;
        if m.ns() != ns || m.name == name {
            continue;
        }
        let Some(rs) = replica_set_of(m) else {
            continue;
        };
        let staying = m.deletion_timestamp.is_none();
        if rs == old_rs {
            // Its siblings: one that stays and is younger replaced a pod deleted otherwise.
            if staying {
                siblings += 1;
                replacement |= younger(m);
                older_sibling |= older(m);
            }
        } else if let Some((deployment, _)) = revision
            && let Some((dep, h)) = revision_of(m, rs)
            && dep == deployment
            && staying
            && younger(m)
        {
            newer.push(m.name.as_str());
            new_hash = h;
        }
    }
    let owner = match revision {
        Some((deployment, _)) => format!("ReplicaSet {old_rs} (Deployment {deployment})"),
        None => format!("ReplicaSet {old_rs}"),
    };
    let (cause, summary, why, describe) = match revision {
        Some((deployment, _)) if !newer.is_empty() => (
            Cause::RolloutReplaced,
            format!(
                "Deployment {deployment} is rolling out: ReplicaSet {deployment}-{new_hash}'s pods replace {old_rs}'s, and this pod is one of the old revision's"
            ),
            format!(
                "A Deployment's rollout scales its new ReplicaSet up and its old one down as the new pods become ready: the old ReplicaSet deletes its pods, which stay Terminating for their grace period. The paste shows {} pod(s) of another template hash of Deployment {deployment} ({}), younger than this pod and not being deleted. Low confidence: read from the pods' names; the Deployment's events (ScalingReplicaSet) and its ReplicaSets settle it. A pod that stays Terminating long after its grace period has another cause: its finalizers, its node, its kubelet.",
                newer.len(),
                newer.iter().take(3).copied().collect::<Vec<_>>().join(", ")
            ),
            format!("kubectl describe deployment {deployment} -n {ns}"),
        ),
        // A Deployment's ReplicaSet only, by its template hash: a DaemonSet's or a Job's pods
        // are named the same way, and one of them deleted is not replaced on the spot either.
        // A sibling strictly older: pods of one age may all be on their way out.
        Some((deployment, _)) if siblings > 0 && !replacement && older_sibling => (
            Cause::ScaledDown,
            format!(
                "ReplicaSet {old_rs} removed the pod: its desired replicas were lowered (by a user or an autoscaler)"
            ),
            format!(
                "A ReplicaSet deletes the pods it no longer wants when its replicas are lowered; a pod deleted for any other reason is replaced by a younger one. The paste shows {siblings} other pod(s) of {old_rs} staying and none younger than this one: nothing replaced it. Low confidence: read from the pods' names and ages; the HorizontalPodAutoscaler's or the Deployment's events (ScalingReplicaSet, SuccessfulRescale) settle who lowered the count."
            ),
            format!("kubectl describe deployment {deployment} -n {ns}"),
        ),
        _ => return None,
    };
    let f = Finding::new(cause, Severity::Info, summary)
        .object(info.key.clone())
        .group(format!("{}|{old_rs}", cause.slug()))
        .confidence(Confidence::Low)
        .evidence(
            EvidenceKind::Analysis,
            Some(&info.key),
            "metadata.name",
            format!("{name}: a pod of {owner}, being deleted"),
        )
        .explain(why)
        .step(
            "See the rollout and scaling events",
            Some(describe),
            RiskLevel::None,
            "",
        )
        .step(
            "See the ReplicaSets and their desired replicas",
            Some(format!("kubectl get rs -n {ns} -o wide")),
            RiskLevel::None,
            "",
        )
        .step(
            "If the pod stays Terminating past its grace period, see what holds it (finalizers, node)",
            Some(format!(
                "kubectl get pod {name} -n {ns} -o jsonpath='{{.metadata.finalizers}} {{.spec.nodeName}}'"
            )),
            RiskLevel::None,
            "",
        );
    Some(f)
}

/// Its node is deleted or not Ready: no kubelet will confirm the pod stopped.
fn node_gone_or_down(d: &Deleting) -> Option<Finding> {
    let (info, pod, snap) = (d.info, d.info.pod, d.ctx.snap);
    let (node_name, force_cmd, force_note) = (&d.node_name, &d.force_cmd, d.force_note);
    match snap.node(node_name) {
        None if snap.nodes_known() => {
            let f = Finding::new(Cause::NodeDeleted, Severity::Warning, format!("The pod's node {node_name} no longer exists"))
                .object(info.key.clone())
                .group(format!("node|{node_name}"))
                .evidence(EvidenceKind::Absence, Some(&info.key), "spec.nodeName", format!("Node {node_name} is not in the data (nodes were)"))
                .explain(format!("The pod is bound to node {node_name}, which was deleted. No kubelet will ever confirm the pod stopped; the pod garbage collector force-deletes pods of vanished nodes after a 40 s quarantine, so a pod still here points at a stopped or failing kube-controller-manager."))
                .step("Check the controller manager (pod GC) runs", Some("kubectl -n kube-system get pods -l component=kube-controller-manager".into()), RiskLevel::None, "")
                .step("Force-delete the pod: its node is gone, so its containers are gone too", Some(force_cmd.clone()), RiskLevel::Low, "Safe only because the node is confirmed deleted; a node that is merely unreachable may still run the containers.");
            Some(d.del_ev(f))
        }
        Some(node) if node.ready() != Some(true) => {
            let f = Finding::new(Cause::NodeUnreachable, Severity::Warning, format!("The pod's node {node_name} is not Ready, so no kubelet confirms the pod stopped"))
                .object(info.key.clone())
                .group(format!("node|{node_name}"));
            let mut f = node::lease_evidence(d.ctx, node::ready_evidence(f, node), node_name);
            let all_down = snap.nodes.iter().all(|n| n.ready() != Some(true));
            let toleration = pod
                .spec
                .tolerations
                .iter()
                .filter(|t| {
                    matches!(
                        t.key.as_deref(),
                        Some("node.kubernetes.io/unreachable" | "node.kubernetes.io/not-ready")
                    )
                })
                .filter_map(|t| t.toleration_seconds)
                .min();
            let next = if all_down {
                "Every node is NotReady, so the node lifecycle controller evicts nothing (full disruption mode): nothing will happen until a node comes back.".to_string()
            } else {
                format!(
                    "The node lifecycle controller taints the node node.kubernetes.io/unreachable; pods that do not tolerate it are evicted after their tolerationSeconds ({}) — but an evicted pod is only marked for deletion, which this pod already is. The pod garbage collector removes it only once the Node object is deleted (after a 40 s quarantine).",
                    toleration
                        .map(|s| format!("{s} s for this pod"))
                        .unwrap_or_else(|| "300 s by default".into())
                )
            };
            f = d.del_ev(f)
                .explain(format!("The API server waits for the kubelet on {node_name} to report the pod's containers stopped before removing it. That kubelet is not reporting (node NotReady/Unknown), so the pod stays Terminating until the node comes back or is deleted. {next}"))
                .step("Bring the node back (kubelet, network, machine)", Some(format!("kubectl describe node {node_name}")), RiskLevel::None, "")
                .step("If the machine is gone for good, delete the Node object: the pod GC then removes its pods", Some(format!("kubectl delete node {node_name}")), RiskLevel::Medium, "Only when the machine is really off: its pods would otherwise run unseen.")
                .step("Force-delete the pod only when you know the machine is down", Some(force_cmd.clone()), RiskLevel::High, force_note);
            Some(f)
        }
        _ => None,
    }
}

/// A Ready node and no finalizer: what the kubelet's and the node's own reports say holds it.
fn kubelet(d: &Deleting) -> Finding {
    let (info, node_name, stuck_for) = (d.info, d.node_name.as_str(), &d.stuck_for);
    let n = node_says(d);
    let Held {
        cause,
        ev,
        quotes: node_quotes,
        summary,
        explanation,
        mut confidence,
    } = held(&n);
    let mut f = Finding::new(cause, Severity::Warning, summary)
        .object(info.key.clone())
        .group(format!("node|{node_name}"));
    if let Some(e) = ev {
        f = f.event(Some(&info.key), e);
    }
    f = nodelink::quote_lines(f, Some(&info.key), &node_quotes, 4);
    if cause == Cause::RuntimeStateInconsistent
        && let Some((what, rows)) = &n.disagreement
    {
        f = f.evidence(
            EvidenceKind::Analysis,
            Some(&info.key),
            "runtime lists compared",
            what.clone(),
        );
        for r in rows {
            f = f.evidence(
                EvidenceKind::Log,
                Some(&info.key),
                format!("{} ({})", r.tool, r.origin),
                r.text.clone(),
            );
        }
    }
    if let Some(lists) = &n.gone_from_runtime {
        f = f.evidence(
            EvidenceKind::Analysis,
            Some(&info.key),
            "runtime lists compared",
            format!(
                "{} on {node_name} list nothing of the pod running",
                lists.join(", ")
            ),
        );
    }
    for p in n.stuck_procs.iter().take(5) {
        f = f.evidence(
            EvidenceKind::Log,
            Some(&info.key),
            format!("process in state {} ({})", p.state, p.origin),
            format!("pid {} {} cgroup {}", p.pid, p.command, p.cgroup),
        );
    }
    if ev.is_none() && f.evidence.is_empty() {
        confidence = Confidence::Low;
    }
    f = f.confidence(confidence);
    f = d.del_ev(f).explain(format!(
        "Past its grace period by {stuck_for} on node {node_name}. {explanation}"
    ));
    f = kubelet_steps(f, cause, d);
    f.step(
        "Force-delete only as a last resort",
        Some(d.force_cmd.clone()),
        RiskLevel::High,
        d.force_note,
    )
}

/// What the kubelet's events and the node's own evidence (`--node-logs`: log lines, runtime
/// lists, processes) say about a pod that does not go away.
struct NodeSays<'a> {
    unmount: Option<&'a kubewhy_model::objects::Event>,
    stop: Option<&'a kubewhy_model::objects::Event>,
    unknown: Option<&'a kubewhy_model::objects::Event>,
    node_unmount: Vec<nodelink::Line<'a>>,
    mounts: Vec<nodelink::Line<'a>>,
    node_unknown: Vec<nodelink::Line<'a>>,
    disagreement: Option<(String, Vec<&'a kubewhy_model::node::RuntimeRecord>)>,
    node_stop: Vec<nodelink::Line<'a>>,
    runtime_down: Vec<nodelink::Line<'a>>,
    stuck_procs: Vec<&'a kubewhy_model::node::NodeProcess>,
    hangs: Vec<nodelink::Line<'a>>,
    cleanup: Vec<nodelink::Line<'a>>,
    throttled: Vec<nodelink::Line<'a>>,
    /// The runtime lists that show nothing of the pod running (with the kubelet throttled).
    gone_from_runtime: Option<Vec<String>>,
}

fn node_says<'a>(d: &Deleting<'_, 'a>) -> NodeSays<'a> {
    let (ctx, snap, pod, pod_idx) = (d.ctx, d.ctx.snap, d.info.pod, d.pod_idx);
    let (node_name, deadline) = (d.node_name.as_str(), d.deadline);
    // The kubelet's own reports.
    let events = snap.events_for("Pod", &pod.metadata);
    let (unmount, stop, unknown) = kubelet_events(&events);
    // The node's own evidence (`--node-logs`): log lines, runtime lists, processes.
    let view = ctx.nodes();
    let lines_of = |signals: &[Signal]| view.pod_lines(pod_idx, signals);
    let node_unmount = lines_of(&[Signal::UnmountFailed, Signal::OrphanedVolumes]);
    let mounts = lines_of(&[Signal::MountHeld, Signal::MountPresent]);
    let node_unknown = lines_of(&[Signal::UnknownContainer]);
    let disagreement = nodelink::runtime_disagreement(snap, view, pod_idx);
    let node_stop = lines_of(&[Signal::StopFailed]);
    // Node-wide lines bear on this pod from ten minutes before its deletion deadline on.
    let node_lines_since_deletion = |signals: &[Signal]| -> Vec<nodelink::Line> {
        view.node_signal_lines(node_name, signals)
            .into_iter()
            .filter(|(_, l)| {
                l.time
                    .is_none_or(|t| t.as_second() >= deadline.as_second() - 600)
            })
            .collect()
    };
    let runtime_down = node_lines_since_deletion(&[Signal::RuntimeDown]);
    let stuck_procs: Vec<_> = view
        .processes
        .get(&pod_idx)
        .map(|v| {
            v.iter()
                .filter(|p| p.state == 'Z' || p.state == 'D')
                .copied()
                .collect()
        })
        .unwrap_or_default();
    let hangs = view.node_signal_lines(node_name, &[Signal::NetdevHang, Signal::HungTask]);
    let cleanup = lines_of(&[
        Signal::CleanupContainers,
        Signal::CleanupStatus,
        Signal::CleanupVolumes,
        Signal::CleanupCgroup,
    ]);
    // The runtime has nothing of the pod running while the kubelet waits on its API rate limit:
    // the pod is gone from the node, and the API has not been told (seed 002).
    let throttled = node_lines_since_deletion(&[Signal::ClientThrottled]);
    let gone_from_runtime = if throttled.is_empty() {
        None
    } else {
        nodelink::runtime_shows_nothing_running(view, pod_idx, node_name)
    };
    NodeSays {
        unmount,
        stop,
        unknown,
        node_unmount,
        mounts,
        node_unknown,
        disagreement,
        node_stop,
        runtime_down,
        stuck_procs,
        hangs,
        cleanup,
        throttled,
        gone_from_runtime,
    }
}

/// What holds the pod, from what the node says: the cause, the event and node lines that show
/// it, the summary and explanation, and how sure.
struct Held<'a> {
    cause: Cause,
    ev: Option<&'a kubewhy_model::objects::Event>,
    quotes: Vec<nodelink::Line<'a>>,
    summary: &'static str,
    explanation: &'static str,
    confidence: Confidence,
}

fn held<'a>(n: &NodeSays<'a>) -> Held<'a> {
    let mut node_quotes: Vec<nodelink::Line> = Vec::new();
    let mut confidence = Confidence::High;
    let (cause, ev, summary, explanation) = if n.unmount.is_some() || !n.node_unmount.is_empty() {
        node_quotes = n.node_unmount.clone();
        node_quotes.extend(n.mounts.iter().copied());
        (
            Cause::VolumeUnmountStuck,
            n.unmount,
            "The kubelet cannot unmount the pod's volumes",
            "The kubelet removes a pod only after its volumes are unmounted; the unmount fails (a process still holds the mount, a CSI driver error, a subPath mount left busy).",
        )
    } else if n.unknown.is_some() || !n.node_unknown.is_empty() || n.disagreement.is_some() {
        node_quotes = n.node_unknown.clone();
        (
            Cause::RuntimeStateInconsistent,
            n.unknown,
            "The container runtime does not know a container the kubelet is stopping",
            "The kubelet asks the runtime to stop a container the runtime says does not exist, or the runtime's layers (docker and containerd, or containerd and its shim) disagree about the container, so the kubelet's stop never succeeds and the pod is never reclaimed.",
        )
    } else if n.stop.is_some()
        || !n.node_stop.is_empty()
        || !n.runtime_down.is_empty()
        || !n.stuck_procs.is_empty()
        || !n.hangs.is_empty()
    {
        node_quotes = n.node_stop.clone();
        node_quotes.extend(n.runtime_down.iter().copied());
        if n.stop.is_none() && node_quotes.is_empty() && n.stuck_procs.is_empty() {
            confidence = Confidence::Medium; // a kernel hang on the node, not tied to the pod
        }
        node_quotes.extend(n.hangs.iter().copied());
        (
            Cause::ContainerStopTimeout,
            n.stop,
            "The container runtime does not stop the pod's containers",
            "The kubelet asked the runtime to stop the containers and the call fails or times out: a hung or stopped runtime, a process that cannot die (zombie, or stuck in the kernel in state D), a kernel hang in network teardown, or the runtime's layers disagreeing about the container (docker vs containerd).",
        )
    } else if !n.mounts.is_empty() {
        confidence = Confidence::Medium;
        node_quotes = n.mounts.clone();
        node_quotes.extend(n.cleanup.iter().copied());
        (
            Cause::VolumeUnmountStuck,
            None,
            "The pod's volumes are still mounted on its node",
            "No stop failure is in the data, yet the node still has mounts under the pod's directory: the kubelet removes a pod only after its volumes are unmounted, and these are not (a process holds them, or the unmount fails without an error in the logs given).",
        )
    } else if n.gone_from_runtime.is_some() {
        confidence = Confidence::Medium;
        node_quotes = n.throttled.clone();
        (
            Cause::KubeletStatusThrottled,
            None,
            "The pod is gone from its node, but the kubelet has not told the API server yet",
            "The runtime's lists show nothing of the pod running, so the kubelet has stopped it; the API still shows it Terminating because the kubelet's requests wait on its client-side rate limit (kubeAPIQPS, 5 by default before Kubernetes 1.27), which a node with many pods exhausts.",
        )
    } else if let Some((_, last)) = n.cleanup.last() {
        confidence = Confidence::Medium;
        let summary = match last.signal {
            Some(Signal::CleanupContainers) => "The kubelet waits for the pod's containers to stop",
            Some(Signal::CleanupStatus) => {
                "The kubelet waits for the final status of the pod's containers"
            }
            Some(Signal::CleanupVolumes) => {
                "The kubelet waits for the pod's volumes to be cleaned up"
            }
            _ => "The kubelet waits for the pod's cgroup to be removed",
        };
        node_quotes = n.cleanup.clone();
        (
            Cause::KubeletCleanupPending,
            None,
            summary,
            "The node is Ready and no finalizer holds the pod; the kubelet's reclaim checks (verbosity 3) say which resource it still waits for, and no error about it is in the data.",
        )
    } else {
        confidence = Confidence::Low;
        (
            Cause::KubeletCleanupPending,
            None,
            "The kubelet has not finished reclaiming the pod",
            "The node is Ready and no finalizer holds the pod, so the kubelet has not confirmed its reclaim checks: no running containers, volumes cleaned up, pod cgroup removed. Which one fails is only in the kubelet's log, and its lines (\"Pod is terminated, but some … \") need kubelet verbosity 3 or more.",
        )
    };
    Held {
        cause,
        ev,
        quotes: node_quotes,
        summary,
        explanation,
        confidence,
    }
}

/// The kubelet's events that say what holds a pod: an unmount that fails, a stop that fails or
/// times out, a container the runtime does not know.
#[allow(clippy::type_complexity)]
fn kubelet_events<'e>(
    events: &[&'e kubewhy_model::objects::Event],
) -> (
    Option<&'e kubewhy_model::objects::Event>,
    Option<&'e kubewhy_model::objects::Event>,
    Option<&'e kubewhy_model::objects::Event>,
) {
    let unmount = events.iter().rev().copied().find(|e| {
        (e.reason == "FailedUnmount" || e.reason == "FailedMount")
            && (e.message.contains("UnmountVolume")
                || e.message.contains("device or resource busy")
                || e.message.contains("target is busy")
                || e.message.contains("error cleaning subPath mounts"))
    });
    let stop = events.iter().rev().copied().find(|e| {
        (e.reason == "FailedKillPod"
            || e.reason == "ExceededGracePeriod"
            || e.reason == "FailedSync"
            || e.reason == "Failed")
            && (e.message.contains("KillPodSandbox")
                || e.message.contains("KillContainer")
                || e.message.contains("StopContainer")
                || e.message.contains("did not kill the pod")
                || e.message.contains("context deadline exceeded")
                || e.message.contains("operation timeout"))
    });
    let unknown = events.iter().rev().copied().find(|e| {
        e.reason != "Killing"
            && (e.message.contains("KillContainer")
                || e.message.contains("StopContainer")
                || e.message.contains("KillPodSandbox")
                || e.message.contains("StopPodSandbox")
                || e.message.contains("No ref for container"))
            && says_unknown_container(&e.message)
    });
    (unmount, stop, unknown)
}

/// The next steps on the node for what holds the pod, after its kubelet's log.
fn kubelet_steps(f: Finding, cause: Cause, d: &Deleting) -> Finding {
    let (info, pod, node_name) = (d.info, d.info.pod, &d.node_name);
    let f = f.step(
        format!(
            "Read the kubelet's log on {node_name} about the pod (uid {})",
            pod.metadata.uid
        ),
        Some(format!(
            "journalctl -u kubelet | grep {}",
            if pod.metadata.uid.is_empty() {
                info.name()
            } else {
                &pod.metadata.uid
            }
        )),
        RiskLevel::None,
        "",
    );
    match cause {
        Cause::VolumeUnmountStuck => f
            .step(
                "On the node: find the processes that hold the pod's mounts (their working directory or open files), and stop them",
                Some(format!(
                    "grep -l {uid} /proc/[0-9]*/mountinfo; ls -l /proc/[0-9]*/cwd 2>/dev/null | grep {uid}; fuser -vm <mount path>",
                    uid = if pod.metadata.uid.is_empty() { "<pod-uid>" } else { &pod.metadata.uid }
                )),
                RiskLevel::Low,
                "Stopping a process outside the pod that holds the mount (a backup agent, a shell left in the directory) affects whatever that process does.",
            ),
        Cause::RuntimeStateInconsistent => f
            .step("Compare each layer's view of the container: the kubelet's (crictl), docker's, containerd's", Some("crictl ps -a; docker ps -a; ctr -n k8s.io task ls; ctr -n moby task ls".into()), RiskLevel::None, "")
            .step("Restart the runtime layer that holds the stale record (usually docker or the container's shim), so it re-reads containerd's state", None, RiskLevel::Medium, "Restarting docker without live-restore stops every container on the node."),
        Cause::ContainerStopTimeout => f
            .step("Compare the runtime's view of the containers", Some("crictl ps -a; crictl pods".into()), RiskLevel::None, "")
            .step("Look for processes of the pod that cannot die (state Z or D) and kernel hangs", Some(format!("ps -eo pid,stat,comm,cgroup | grep {} | awk '$2 ~ /^[ZD]/'; dmesg | grep -E 'blocked for more than|unregister_netdevice'", if pod.metadata.uid.is_empty() { "<pod-uid>" } else { &pod.metadata.uid })), RiskLevel::None, "")
            .step("Restart the container runtime on the node (docker/containerd)", None, RiskLevel::Medium, "Restarts may briefly disturb other pods' exec/log streams; containers keep running with live-restore/shims."),
        _ => f,
    }
}

/// The pod's node is gone (while nodes were loaded) or not Ready: no kubelet will confirm the
/// pod stopped.
pub(crate) fn node_down(snap: &kubewhy_model::Snapshot, pod: &kubewhy_model::objects::Pod) -> bool {
    // The node controller marks a pod Unknown (NodeLost) only when its node stopped reporting.
    if pod.status.phase == "Unknown" || pod.status.reason.as_deref() == Some("NodeLost") {
        return pod
            .spec
            .node_name
            .as_deref()
            .and_then(|n| snap.node(n))
            .is_none_or(|node| node.ready() != Some(true));
    }
    pod.spec
        .node_name
        .as_deref()
        .filter(|n| !n.is_empty())
        .is_some_and(|n| match snap.node(n) {
            None => snap.nodes_known(),
            Some(node) => node.ready() != Some(true),
        })
}

/// Finalizers Kubernetes' own controllers add and remove: a pod held by one of them alone is
/// the garbage collector's or the Job controller's business, not an operator's.
pub(crate) fn is_system_finalizer(fin: &str) -> bool {
    matches!(
        fin,
        "foregroundDeletion" | "orphan" | "batch.kubernetes.io/job-tracking"
    )
}

/// Every container stopped and a controller's finalizer left: only that finalizer keeps the
/// pod, and the rest of its grace period changes nothing (the fix planner agrees).
pub(crate) fn held_by_finalizer(pod: &kubewhy_model::objects::Pod) -> bool {
    pod.metadata
        .finalizers
        .iter()
        .any(|f| !is_system_finalizer(f))
        && containers_stopped(pod).is_some()
}

/// Whether every container of the pod has stopped, as the kubelet reports them (or its phase
/// is final): the states, in words, as evidence.
fn containers_stopped(pod: &kubewhy_model::objects::Pod) -> Option<String> {
    let statuses = &pod.status.container_statuses;
    let terminal = matches!(pod.status.phase.as_str(), "Succeeded" | "Failed");
    if !terminal && (statuses.is_empty() || statuses.iter().any(|s| s.state.running.is_some())) {
        return None;
    }
    let states: Vec<String> = statuses
        .iter()
        .map(|s| match &s.state.terminated {
            Some(t) => format!(
                "{}: terminated{}{}",
                s.name,
                if t.reason.is_empty() {
                    String::new()
                } else {
                    format!(" ({})", t.reason)
                },
                t.exit_code
                    .map(|c| format!(", exit code {c}"))
                    .unwrap_or_default()
            ),
            None => format!("{}: not running", s.name),
        })
        .collect();
    Some(if states.is_empty() {
        format!("phase {}", pod.status.phase)
    } else {
        states.join("; ")
    })
}

/// Who removes a finalizer, in a sentence: the well-known ones by name, custom ones by their
/// prefix (usually the operator's domain).
pub(crate) fn finalizer_owner(fin: &str) -> String {
    match fin {
        "foregroundDeletion" => "foregroundDeletion: the garbage collector removes it once every dependent with blockOwnerDeletion is deleted.".into(),
        "orphan" => "orphan: the garbage collector removes it once it has orphaned the dependents.".into(),
        "batch.kubernetes.io/job-tracking" => "batch.kubernetes.io/job-tracking: the Job controller (in kube-controller-manager) removes it once it has counted the pod in its Job's status; if the Job is gone or kube-controller-manager is down, nothing will.".into(),
        "kubernetes.io/pvc-protection" | "kubernetes.io/pv-protection" => format!("{fin}: kube-controller-manager removes it once no pod uses the volume."),
        other => {
            let domain = other.split('/').next().unwrap_or(other);
            format!("{other}: added by a controller of its own (prefix \"{domain}\", usually an operator); if that controller is not running, nothing will ever remove it.")
        }
    }
}

/// What holds a foreground deletion: following dependents that are themselves deleted in the
/// foreground, the first one kept by a finalizer of its own (or still running), with the path.
struct Holder<'a> {
    kind: &'a str,
    meta: &'a Meta,
    /// `ReplicaSet shop/web-7d9f → Pod shop/web-7d9f-abcde`.
    path: Vec<String>,
}

fn holder<'a>(snap: &'a Snapshot, uid: &str, depth: usize) -> Option<Holder<'a>> {
    if depth > 4 {
        return None;
    }
    let deps = dependents_meta(snap, uid);
    let name = |kind: &str, m: &Meta| format!("{kind} {}/{}", m.ns(), m.name);
    // A dependent held by a controller's finalizer first, then one deleted in the foreground
    // in turn (follow it), then any dependent still there.
    if let Some((kind, m)) = deps
        .iter()
        .find(|(_, m)| m.finalizers.iter().any(|f| !is_system_finalizer(f)))
    {
        return Some(Holder {
            kind,
            meta: m,
            path: vec![name(kind, m)],
        });
    }
    for (kind, m) in &deps {
        if m.finalizers.iter().any(|f| f == "foregroundDeletion")
            && let Some(mut h) = holder(snap, &m.uid, depth + 1)
        {
            h.path.insert(0, name(kind, m));
            return Some(h);
        }
    }
    deps.first().map(|(kind, m)| Holder {
        kind,
        meta: m,
        path: vec![name(kind, m)],
    })
}

/// A workload deleted in the foreground (`--cascade=foreground`, or the TTL controller's
/// Job deletion) that waits on a dependent: reported on the owner, with the dependent that
/// holds it. Grouped with that dependent's own finding when a finalizer holds it.
fn foreground_owner(ctx: &Ctx, w: &kubewhy_model::objects::Workload) -> Option<Finding> {
    let m = &w.metadata;
    let since = m.deletion_timestamp?;
    if !m.finalizers.iter().any(|f| f == "foregroundDeletion") {
        return None;
    }
    let h = holder(ctx.snap, &m.uid, 0)?;
    let fins: Vec<&str> = h.meta.finalizers.iter().map(|f| f.as_str()).collect();
    let custom = fins.iter().any(|f| !is_system_finalizer(f));
    let waited = ctx.now.as_second() - since.as_second();
    // The garbage collector deletes dependents within seconds; a dependent a controller's
    // finalizer holds will not go by waiting.
    if !custom && waited <= STUCK_AFTER_SECS {
        return None;
    }
    let key = ObjectKey::of(&w.kind, m);
    let holder_name = h.path.last().cloned().unwrap_or_default();
    let fins_text = fins.join(", ");
    let chain = format!("{} {}/{} → {}", w.kind, m.ns(), m.name, h.path.join(" → "));
    let group = if h.kind == "Pod" && custom {
        format!("pod|{fins_text}")
    } else {
        format!("foreground|{}|{}", key.namespace, holder_name)
    };
    let mut f = Finding::new(
        Cause::FinalizerPending,
        Severity::Warning,
        format!(
            "Deletion of {} {}/{} waits on its dependent {holder_name}{}",
            w.kind,
            m.ns(),
            m.name,
            if fins.is_empty() {
                String::new()
            } else {
                format!(" (finalizer {fins_text})")
            }
        ),
    )
    .object(key.clone())
    .group(group)
    .evidence(
        EvidenceKind::Field,
        Some(&key),
        "metadata.finalizers, metadata.deletionTimestamp",
        format!(
            "[foregroundDeletion], deleted at {since} ({} ago)",
            human_duration(waited.max(0))
        ),
    )
    .evidence(
        EvidenceKind::Field,
        Some(&key),
        "the dependent that holds the foreground deletion",
        if fins.is_empty() {
            format!("{chain}: still there")
        } else {
            format!("{chain}, held by finalizer(s) {fins_text}")
        },
    );
    for fin in fins.iter().filter(|f| !is_system_finalizer(f)) {
        f = f.evidence(
            EvidenceKind::Field,
            None,
            format!("{holder_name}: metadata.finalizers"),
            finalizer_owner(fin),
        );
    }
    let (kind_lc, ns) = (h.kind.to_ascii_lowercase(), h.meta.ns());
    f = f
        .explain(format!(
            "A foreground deletion keeps the owner (with the foregroundDeletion finalizer) until the garbage collector has deleted every dependent with blockOwnerDeletion; {holder_name} is still there, so {} {} stays too. Resolve what holds the dependent and the owner goes by itself.",
            w.kind, m.name
        ))
        .step(
            format!("See what holds {holder_name}"),
            Some(format!("kubectl get {kind_lc} {} -n {ns} -o yaml --show-managed-fields", h.meta.name)),
            RiskLevel::None,
            "",
        )
        .step(
            "Start or fix the controller that owns the dependent's finalizer; the deletion then finishes by itself",
            None,
            RiskLevel::None,
            "",
        );
    Some(f)
}

/// Objects in the snapshot whose ownerReferences name `uid`, with their kind.
fn dependents_meta<'a>(snap: &'a Snapshot, uid: &str) -> Vec<(&'a str, &'a Meta)> {
    if uid.is_empty() {
        return Vec::new();
    }
    let mut out: Vec<(&'a str, &'a Meta)> = Vec::new();
    let owned = |m: &Meta| m.owner_references.iter().any(|o| o.uid == uid);
    out.extend(
        snap.pods
            .iter()
            .filter(|p| owned(&p.metadata))
            .map(|p| ("Pod", &p.metadata)),
    );
    out.extend(
        snap.workloads
            .iter()
            .filter(|w| owned(&w.metadata))
            .map(|w| (w.kind.as_str(), &w.metadata)),
    );
    out.extend(
        snap.pvcs
            .iter()
            .filter(|c| owned(&c.metadata))
            .map(|c| ("PersistentVolumeClaim", &c.metadata)),
    );
    out.extend(
        snap.config_maps
            .iter()
            .filter(|c| owned(&c.metadata))
            .map(|c| ("ConfigMap", &c.metadata)),
    );
    out.extend(
        snap.secrets
            .iter()
            .filter(|c| owned(&c.metadata))
            .map(|c| ("Secret", &c.metadata)),
    );
    out.extend(
        snap.others
            .iter()
            .filter(|o| owned(&o.metadata))
            .map(|o| (o.kind.as_str(), &o.metadata)),
    );
    out
}

/// Objects in the snapshot whose ownerReferences name `uid` and block its deletion.
pub(crate) fn dependents(snap: &Snapshot, uid: &str) -> Vec<ObjectKey> {
    dependents_meta(snap, uid)
        .into_iter()
        .map(|(kind, m)| ObjectKey::of(kind, m))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn findings(yaml: &str) -> Vec<Finding> {
        crate::tests::diagnose_yaml(yaml, "2026-11-22T12:00:00Z").findings
    }

    fn deleted_pod(finalizers: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: worker, namespace: shop, uid: pod-uid-1, deletionTimestamp: '2026-11-22T11:00:00Z', deletionGracePeriodSeconds: 30, finalizers: [{finalizers}]}}\nspec: {{containers: [{{name: c}}]}}\nstatus: {{phase: Running}}\n---\n"
        )
    }

    #[test]
    fn foreground_deletion_lists_the_dependents_still_alive() {
        let yaml = format!(
            "{}apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: worker-state, namespace: shop, ownerReferences: [{{apiVersion: v1, kind: Pod, name: worker, uid: pod-uid-1, blockOwnerDeletion: true}}]}}\ndata: {{k: v}}\n",
            deleted_pod("foregroundDeletion")
        );
        let f = findings(&yaml);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].cause, Cause::FinalizerPending);
        let dep = f[0]
            .evidence
            .iter()
            .find(|e| e.source.starts_with("dependents still alive"))
            .unwrap();
        assert_eq!(dep.quote, "ConfigMap shop/worker-state");
        assert!(
            f[0].explanation
                .contains("the garbage collector removes it once every dependent")
        );
    }

    /// Containers stopped, a controller's finalizer left: finalizer-pending at once, not
    /// "nothing is stuck yet" until the grace period ends (real 1.20 states).
    #[test]
    fn a_finalizer_alone_holding_stopped_containers_is_reported_at_once() {
        let pod = |state: &str| {
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: held, namespace: shop, uid: u1, deletionTimestamp: '2026-11-22T12:09:00Z', deletionGracePeriodSeconds: 600, finalizers: [e2e.kubewhy.dev/hold]}}\nspec: {{nodeName: node-1, containers: [{{name: main}}]}}\nstatus: {{phase: Running, containerStatuses: [{{name: main, state: {state}}}]}}\n---\napiVersion: v1\nkind: Node\nmetadata: {{name: node-1}}\nstatus: {{conditions: [{{type: Ready, status: 'True'}}]}}\n"
            )
        };
        let f = findings(&pod(
            "{terminated: {exitCode: 0, reason: Completed, startedAt: '2026-11-22T11:50:00Z', finishedAt: '2026-11-22T11:59:01Z'}}",
        ));
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].cause, Cause::FinalizerPending);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.source == "status.containerStatuses"
                    && e.quote == "main: terminated (Completed), exit code 0")
        );
        assert!(
            f[0].explanation
                .starts_with("Its containers have all stopped")
        );
        // Still running: the grace period is the answer.
        let f = findings(&pod("{running: {startedAt: '2026-11-22T11:50:00Z'}}"));
        assert_eq!(f[0].cause, Cause::GracePeriodPending);
    }

    /// A Deployment deleted in the foreground waits on its ReplicaSet, which waits on a pod a
    /// finalizer holds: one finding names the pod, and the owners with the chain.
    #[test]
    fn a_foreground_deletion_is_reported_on_the_owner_with_the_dependent_that_holds_it() {
        let yaml = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web, namespace: shop, uid: d1, deletionTimestamp: '2026-11-22T11:59:30Z', finalizers: [foregroundDeletion]}\n---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-7d9f, namespace: shop, uid: r1, deletionTimestamp: '2026-11-22T11:59:30Z', finalizers: [foregroundDeletion], ownerReferences: [{kind: Deployment, name: web, uid: d1, controller: true, blockOwnerDeletion: true}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web-7d9f-abcde, namespace: shop, uid: p1, deletionTimestamp: '2026-11-22T11:59:32Z', deletionGracePeriodSeconds: 2, finalizers: [e2e.kubewhy.dev/hold], ownerReferences: [{kind: ReplicaSet, name: web-7d9f, uid: r1, controller: true, blockOwnerDeletion: true}]}\nspec: {nodeName: node-1, containers: [{name: web}]}\nstatus: {phase: Running, containerStatuses: [{name: web, state: {terminated: {exitCode: 137, reason: Error}}}]}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {conditions: [{type: Ready, status: 'True'}]}\n";
        let f = findings(yaml);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].cause, Cause::FinalizerPending);
        let objects: Vec<String> = f[0]
            .objects
            .iter()
            .map(|o| format!("{}/{}", o.kind, o.name))
            .collect();
        assert_eq!(
            objects,
            [
                "Pod/web-7d9f-abcde",
                "Deployment/web",
                "ReplicaSet/web-7d9f"
            ]
        );
        assert!(f[0].evidence.iter().any(|e| e.quote
            == "Deployment shop/web → ReplicaSet shop/web-7d9f → Pod shop/web-7d9f-abcde, held by finalizer(s) e2e.kubewhy.dev/hold"), "{:#?}", f[0].evidence);
    }

    #[test]
    fn known_finalizers_name_their_controller() {
        let f = findings(&deleted_pod(
            "batch.kubernetes.io/job-tracking, example.com/cleanup",
        ));
        assert_eq!(f.len(), 1);
        assert!(
            f[0].explanation
                .contains("the Job controller (in kube-controller-manager) removes it"),
            "{}",
            f[0].explanation
        );
        assert!(
            f[0].explanation
                .contains("(prefix \"example.com\", usually an operator)"),
            "{}",
            f[0].explanation
        );
    }

    #[test]
    fn an_unreachable_node_quotes_its_lease_and_says_nothing_is_evicted_when_all_nodes_are_down() {
        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: worker, namespace: shop, uid: u1, deletionTimestamp: '2026-11-22T11:00:00Z'}\nspec: {nodeName: node-1, containers: [{name: c}]}\nstatus: {phase: Running}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {conditions: [{type: Ready, status: Unknown, reason: NodeStatusUnknown, message: Kubelet stopped posting node status., lastHeartbeatTime: '2026-11-22T10:50:00Z'}]}\n---\napiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: node-1, namespace: kube-node-lease}\nspec: {holderIdentity: node-1, renewTime: '2026-11-22T10:50:05.000000Z'}\n";
        let f = findings(yaml);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].cause, Cause::NodeUnreachable);
        let lease = f[0]
            .evidence
            .iter()
            .find(|e| e.source == "spec.renewTime")
            .expect("lease evidence");
        assert!(
            lease.quote.starts_with("2026-11-22T10:50:05Z (1h9m ago"),
            "{}",
            lease.quote
        );
        assert!(
            f[0].explanation.contains("full disruption mode"),
            "{}",
            f[0].explanation
        );
    }

    #[test]
    fn a_container_the_runtime_does_not_know_is_runtime_state_inconsistent() {
        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: worker, namespace: shop, uid: u1, deletionTimestamp: '2026-11-22T11:00:00Z'}\nspec: {nodeName: node-1, containers: [{name: c}]}\nstatus: {phase: Running}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {conditions: [{type: Ready, status: 'True'}]}\n---\napiVersion: v1\nkind: Event\nmetadata: {name: e1, namespace: shop}\ninvolvedObject: {kind: Pod, name: worker, namespace: shop, uid: u1}\nreason: FailedKillPod\ntype: Warning\nmessage: 'error killing pod: failed to \"KillPodSandbox\" for \"u1\" with KillPodSandboxError: \"rpc error: code = NotFound desc = an error occurred when try to find sandbox: not found\"'\nlastTimestamp: '2026-11-22T11:59:00Z'\n";
        let f = findings(yaml);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].cause, Cause::RuntimeStateInconsistent);
        assert!(
            f[0].evidence
                .iter()
                .any(|e| e.quote.contains("code = NotFound"))
        );
    }

    #[test]
    fn inside_its_grace_period_a_pod_on_a_dead_node_is_already_stuck() {
        // Deleted a second before the snapshot, node Unknown: the grace period changes nothing.
        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: worker, namespace: shop, uid: u1, deletionTimestamp: '2026-11-22T11:59:59Z'}\nspec: {nodeName: node-1, containers: [{name: c}]}\nstatus: {phase: Running}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {conditions: [{type: Ready, status: Unknown, reason: NodeStatusUnknown}]}\n";
        let f = findings(yaml);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].cause, Cause::NodeUnreachable);
        // A Ready node: terminating normally.
        let f = findings(&yaml.replace(
            "status: Unknown, reason: NodeStatusUnknown",
            "status: 'True'",
        ));
        assert_eq!(f[0].cause, Cause::GracePeriodPending);
    }
}
