//! Pods that are not scheduled: the PodScheduled condition (state, survives event expiry) and
//! FailedScheduling events, parsed in every wording from Kubernetes 1.7 to today, plus the
//! claims the pod references, checked against the snapshot.

use crate::Findings;
use crate::podinfo::{PodInfo, human_duration};
use crate::scheduling::{Cluster, Verdict, simulate};
use crate::{Check, Ctx};
use kubewhy_model::objects::condition;
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};
use std::collections::HashMap;
use std::rc::Rc;

pub(crate) struct Pending;

const CAUSES: &[Cause] = &[
    Cause::InsufficientResources,
    Cause::TooManyPods,
    Cause::NodeSelectorMismatch,
    Cause::UntoleratedTaint,
    Cause::HostPortConflict,
    Cause::NodeUnschedulable,
    Cause::PodAffinityUnsatisfiable,
    Cause::PvcMissing,
    Cause::PvcUnbound,
    Cause::VolumeNodeAffinityConflict,
    Cause::NodePressure,
    Cause::NodeNotReady,
    Cause::NoReadyNodes,
    Cause::SchedulerUnavailable,
    Cause::SchedulingGated,
    Cause::ResourceClaimUnallocatable,
];

/// A Pending pod the scheduler has not looked at for this long has no scheduler acting on it.
const UNSEEN_AFTER_SECS: i64 = 120;

#[cfg(test)]
pub(crate) use kubewhy_model::messages::scheduler::classify_reason;
pub(crate) use kubewhy_model::messages::scheduler::{
    SetAside, parse_scheduler_message, primary_and_set_aside,
};

impl Check for Pending {
    fn name(&self) -> &'static str {
        "pending"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        // The node-by-node analysis needs the nodes; it is built once, and only when a pod
        // waits for a node.
        let mut cluster: Option<Cluster> = None;
        // Replicas of one workload are the same pod to the filters: simulate each distinct pod
        // once (keyed by everything `simulate` reads of it, `Cluster::memo_key`).
        let mut memo: HashMap<String, Rc<Verdict>> = HashMap::new();
        let snap = ctx.snap;
        let no_ready = snap.nodes_known()
            && !snap.nodes.is_empty()
            && snap.nodes.iter().all(|n| n.ready() != Some(true));
        for pod in &ctx.snap.pods {
            let scheduled = pod.spec.node_name.as_deref().is_some_and(|n| !n.is_empty());
            if scheduled
                || pod.status.phase != "Pending"
                || pod.metadata.deletion_timestamp.is_some()
            {
                continue;
            }
            let can_simulate = ctx.snap.nodes_known() && !ctx.snap.nodes.is_empty();
            let sim = can_simulate.then(|| {
                let c = cluster.get_or_insert_with(|| Cluster::new(ctx.snap));
                memo.entry(c.memo_key(pod))
                    .or_insert_with(|| Rc::new(simulate(c, pod).verdict()))
                    .clone()
            });
            check_pod(ctx, &PodInfo::new(pod), no_ready, sim.as_deref(), out);
        }
        unbound_claims(ctx, out);
    }
}

fn check_pod(ctx: &Ctx, info: &PodInfo, no_ready: bool, sim: Option<&Verdict>, out: &mut Findings) {
    let snap = ctx.snap;
    let pod = info.pod;
    // A gated pod is not waiting for a node at all: the scheduler does not look at it.
    if let Some(f) = crate::dra::gated(ctx, info) {
        out.push(f);
        return;
    }
    // State first: with no Ready node at all, whatever the scheduler says (the not-ready taint,
    // "didn't match") follows from that.
    if no_ready {
        out.push(no_ready_nodes(ctx, info));
        return;
    }
    let cond = condition(&pod.status.conditions, "PodScheduled")
        .filter(|c| c.status == "False" && !c.message.is_empty());
    let events = snap.events_for("Pod", &pod.metadata);
    let last_event = events.iter().rev().find(|e| e.reason == "FailedScheduling");

    // The scheduler's own verdict: the condition holds its latest attempt even after events
    // expire; the event is the fallback.
    let verdict = match (cond, last_event) {
        (Some(c), _) => Some((c.message.clone(), true)),
        (None, Some(e)) => Some((e.message.clone(), false)),
        (None, None) => None,
    };
    let Some((message, from_condition)) = verdict else {
        without_verdict(ctx, info, sim, out);
        return;
    };
    let parsed = parse_scheduler_message(&message);
    let Some((primary, aside)) = primary_and_set_aside(&parsed) else {
        // A wording kubewhy does not know: the nodes' state still answers.
        match sim.and_then(|sim| from_simulation(ctx, info, sim)) {
            Some(f) => out.push(f),
            None => claims_from_state(ctx, info, out),
        }
        return;
    };
    let (_, cause, mut detail, reason_text) = primary;
    // kubewhy's evaluation does not model devices: for a claim it has nothing to add.
    let sim = sim.filter(|_| cause != Cause::ResourceClaimUnallocatable);
    // The scheduler's words do not always say which port, claim or taint; the analysis does,
    // and findings must not merge different ones.
    if detail.is_empty()
        && let Some(f) = sim.and_then(|s| s.primary()).filter(|f| f.cause() == cause)
    {
        detail = f.detail();
    }
    let others: Vec<String> = parsed
        .reasons
        .iter()
        .filter(|(_, t)| *t != reason_text && !aside.iter().any(|(_, a, _)| a == t))
        .map(|(n, t)| match n {
            Some(n) => format!("{n} {t}"),
            None => t.clone(),
        })
        .collect();

    let pending_for = pod
        .metadata
        .creation_timestamp
        .map(|t| human_duration(ctx.now.as_second() - t.as_second()))
        .unwrap_or_else(|| "an unknown time".into());
    let mut f = Finding::new(cause, Severity::Error, summary(cause, &detail))
        .object(info.key.clone())
        // Scheduling causes are cluster-wide (capacity, labels, taints): pods of every workload
        // that fail for the same reason and detail are one finding.
        .group(detail.clone());
    f = scheduler_evidence(f, info, cond, last_event.copied(), &aside);
    let mut explanation = explanation(
        &pending_for,
        parsed.nodes,
        &reason_text,
        from_condition,
        &aside,
        &others,
    );
    if let Some(sim) = sim {
        f = simulation_evidence(f, info, sim);
        explanation.push(' ');
        explanation.push_str(&cross_check(sim, cause));
    }
    explanation.push(' ');
    explanation.push_str(why(cause));
    f = f.explain(explanation);
    if sim.is_some_and(|s| !s.fitting().is_empty()) {
        f = f.confidence(Confidence::Medium);
    }
    if cause == Cause::ResourceClaimUnallocatable {
        f = crate::dra::explain_claims(ctx, info, f);
    }
    f = remediation(f, ctx, info, cause, &detail);
    if let Some(sim) = sim {
        f = nearest_miss_step(f, sim, cause);
    }
    out.push(f);
}

/// No verdict of the scheduler at all: it never looked at the pod (it stamps PodScheduled on
/// every pod it tries), unless the pod was created moments ago; else the nodes' state answers.
fn without_verdict(ctx: &Ctx, info: &PodInfo, sim: Option<&Verdict>, out: &mut Findings) {
    if condition(&info.pod.status.conditions, "PodScheduled").is_none()
        && info
            .age_secs(ctx.now)
            .is_some_and(|a| a > UNSEEN_AFTER_SECS)
    {
        out.push(scheduler_unavailable(ctx, info, sim));
    } else if let Some(sim) = sim {
        if let Some(f) = from_simulation(ctx, info, sim) {
            out.push(f);
        }
    } else {
        claims_from_state(ctx, info, out);
    }
}

/// The scheduler's own words as evidence: its condition, its latest event, the nodes set aside.
fn scheduler_evidence(
    mut f: Finding,
    info: &PodInfo,
    cond: Option<&kubewhy_model::objects::Condition>,
    last_event: Option<&kubewhy_model::objects::Event>,
    aside: &[(Option<u32>, String, SetAside)],
) -> Finding {
    if let Some(c) = cond {
        f = f.evidence(
            EvidenceKind::Condition,
            Some(&info.key),
            format!("status.conditions[PodScheduled] reason={}", c.reason),
            c.message.clone(),
        );
    }
    if let Some(e) = last_event {
        f = f.event(Some(&info.key), e);
    }
    if !aside.is_empty() {
        f = f.evidence(
            EvidenceKind::Analysis,
            Some(&info.key),
            "nodes set aside (they explain nothing)",
            aside
                .iter()
                .map(|(n, t, why)| match n {
                    Some(n) => format!("{n} {t} ({})", why.why()),
                    None => format!("{t} ({})", why.why()),
                })
                .collect::<Vec<_>>()
                .join("; "),
        );
    }
    f
}

/// What the scheduler found, for the finding's explanation: the reason to fix first, the nodes
/// set aside and the other reasons.
fn explanation(
    pending_for: &str,
    nodes: Option<u32>,
    reason_text: &str,
    from_condition: bool,
    aside: &[(Option<u32>, String, SetAside)],
    others: &[String],
) -> String {
    let nodes = nodes
        .map(|n| format!("{n} node(s)"))
        .unwrap_or_else(|| "the nodes".into());
    let mut explanation = format!(
        "The scheduler checked {nodes} and none can take the pod (Pending for {pending_for}). \
         The reason to fix first is \"{reason_text}\"{}.",
        if from_condition {
            ""
        } else {
            " (from the latest FailedScheduling event; the PodScheduled condition was not in the data)"
        }
    );
    if !aside.is_empty() {
        explanation.push_str(&set_aside_sentence(
            aside.iter().map(|(n, t, why)| (*n, t.as_str(), *why)),
        ));
    }
    if !others.is_empty() {
        explanation.push_str(&format!(
            " Other nodes were ruled out by: {}.",
            others.join("; ")
        ));
    }
    explanation
}

/// The exact change that lets the nearest miss take the pod, as the second step, when one
/// change of the finding's own cause is all it needs.
fn nearest_miss_step(f: Finding, sim: &Verdict, cause: Cause) -> Finding {
    let Some(miss) = sim.nearest_miss() else {
        return f;
    };
    let [only] = &miss.failures[..] else {
        return f;
    };
    if only.cause() != cause {
        return f;
    }
    match only.fix(&miss.node) {
        Some((action, command, risk, note)) => f.step_at(1, action, command, risk, note),
        None => f,
    }
}

/// The analysis as evidence: the scheduler-style summary and the nearest miss.
fn simulation_evidence(mut f: Finding, info: &PodInfo, sim: &Verdict) -> Finding {
    f = f.evidence(
        EvidenceKind::Analysis,
        Some(&info.key),
        "the scheduler's filters, evaluated on every node from their state",
        sim.summary(),
    );
    if let Some(miss) = sim.nearest_miss() {
        let key = ObjectKey {
            kind: "Node".into(),
            name: miss.node.as_str().into(),
            ..Default::default()
        };
        f = f.evidence(
            EvidenceKind::Analysis,
            Some(&key),
            "nearest miss",
            format!("{}: {}", miss.node, miss.needs()),
        );
    }
    f
}

/// The reasons set aside for the primary one, as a sentence of the explanation.
fn set_aside_sentence<'a>(aside: impl Iterator<Item = (Option<u32>, &'a str, SetAside)>) -> String {
    let parts: Vec<String> = aside
        .map(|(n, t, why)| match n {
            Some(n) => format!("{n} {t} ({})", why.why()),
            None => format!("{t} ({})", why.why()),
        })
        .collect();
    format!(
        " Set aside, because those nodes were never candidates: {}.",
        parts.join("; ")
    )
}

/// How the analysis compares with the scheduler's verdict, in a sentence or two.
fn cross_check(sim: &Verdict, said: Cause) -> String {
    let fitting = sim.fitting();
    if !fitting.is_empty() {
        let names: Vec<&str> = fitting.iter().take(3).map(String::as_str).collect();
        return format!(
            "Evaluated from the nodes' state now, {} could take the pod ({}): the cluster changed since the scheduler's last attempt, or the data lacks pods of other namespaces that also use the nodes.",
            names.join(", "),
            sim.summary()
        );
    }
    let own = sim
        .pod_level
        .as_ref()
        .map(|p| p.cause)
        .or_else(|| sim.primary().map(|f| f.cause()));
    let mut s = "kubewhy's own evaluation of every node from its state agrees.".to_string();
    if own.is_some_and(|c| c != said) {
        s = format!(
            "Evaluated from the nodes' state now, the main obstacle differs ({}): the cluster changed since the scheduler's last attempt.",
            sim.summary()
        );
    }
    if let Some(miss) = sim.nearest_miss() {
        s.push_str(&format!(
            " The nearest miss is node {}: {}.",
            miss.node,
            miss.needs()
        ));
    }
    s
}

/// A finding from the analysis alone (no scheduler verdict in the data, or a wording kubewhy
/// does not know). `None` when some node can take the pod: the scheduler will place it.
fn from_simulation(ctx: &Ctx, info: &PodInfo, sim: &Verdict) -> Option<Finding> {
    let (cause, detail) = match (&sim.pod_level, sim.primary()) {
        (Some(p), _) => (p.cause, p.claim.clone()),
        (None, Some(f)) if sim.fitting().is_empty() => (f.cause(), f.detail()),
        _ => return None,
    };
    let mut f = Finding::new(cause, Severity::Error, summary(cause, &detail))
        .object(info.key.clone())
        .group(detail.clone())
        .confidence(Confidence::Medium);
    f = simulation_evidence(f, info, sim);
    let mut explanation = format!(
        "The data holds no scheduler verdict for this pod (no PodScheduled condition message, no FailedScheduling event: they may have expired), so kubewhy ran the scheduler's filters on the {} node(s) of the snapshot: {}.",
        sim.node_count,
        sim.summary()
    );
    if !sim.set_aside().is_empty() {
        explanation.push_str(&set_aside_sentence(
            sim.set_aside()
                .iter()
                .map(|(n, t, why)| (Some(*n), t.as_str(), *why)),
        ));
    }
    if let Some(miss) = sim.nearest_miss() {
        explanation.push_str(&format!(
            " The nearest miss is node {}: {}.",
            miss.node,
            miss.needs()
        ));
    }
    explanation.push(' ');
    explanation.push_str(why(cause));
    f = f.explain(explanation);
    let f = remediation(f, ctx, info, cause, &detail);
    Some(nearest_miss_step(f, sim, cause))
}

fn scheduler_unavailable(ctx: &Ctx, info: &PodInfo, sim: Option<&Verdict>) -> Finding {
    let snap = ctx.snap;
    let name = info
        .pod
        .spec
        .scheduler_name
        .clone()
        .filter(|n| !n.is_empty())
        .unwrap_or_else(|| "default-scheduler".into());
    let age = info
        .age_secs(ctx.now)
        .map(human_duration)
        .unwrap_or_default();
    let mut f = Finding::new(Cause::SchedulerUnavailable, Severity::Error, format!("No scheduler is acting on the pod (schedulerName {name})"))
        .object(info.key.clone())
        .group(name.clone())
        .evidence(
            EvidenceKind::Absence,
            Some(&info.key),
            "status.conditions[PodScheduled]",
            format!("absent after {age}, and no FailedScheduling event: no scheduler has tried to place the pod"),
        )
        .evidence(EvidenceKind::Field, Some(&info.key), "spec.schedulerName", name.clone())
        .confidence(Confidence::Medium);
    // kube-scheduler's leader-election lease says whether it is alive (when leader election is on).
    let lease_name = if name == "default-scheduler" {
        "kube-scheduler"
    } else {
        name.as_str()
    };
    if let Some(l) = snap
        .leases
        .iter()
        .find(|l| l.metadata.ns() == "kube-system" && l.metadata.name == lease_name)
    {
        let key = ObjectKey::of("Lease", &l.metadata);
        if let Some(renew) = l.spec.renew_time {
            let stale = ctx.now.as_second() - renew.as_second();
            let duration = l.spec.lease_duration_seconds.unwrap_or(15);
            if stale > duration {
                f = f
                    .evidence(
                        EvidenceKind::Field,
                        Some(&key),
                        "spec.renewTime",
                        format!(
                            "{renew}: not renewed for {} (lease duration {duration}s; holder {})",
                            human_duration(stale),
                            l.spec.holder_identity.as_deref().unwrap_or("none")
                        ),
                    )
                    .confidence(Confidence::High);
            }
        }
    }
    // Whether a scheduler would find a node: if one would, the pod waits for nothing else.
    if let Some(sim) = sim {
        f = f.evidence(
            EvidenceKind::Analysis,
            Some(&info.key),
            "the scheduler's filters, evaluated on every node from their state",
            sim.summary(),
        );
    }
    let custom = name != "default-scheduler";
    f.explain(format!(
        "The pod has been Pending for {age} without a PodScheduled condition or a scheduling event: the scheduler sets that condition on every pod it tries to place, so none has tried. {}",
        if custom { format!("The pod asks for a scheduler named \"{name}\"; if no running scheduler has that name, the pod waits forever.") } else { "kube-scheduler is down, cannot reach the API server, or has lost its leader lease.".to_string() }
    ))
    .step("Check the scheduler runs", Some("kubectl -n kube-system get pods -l component=kube-scheduler -o wide; kubectl -n kube-system get lease kube-scheduler -o yaml".into()), RiskLevel::None, "")
    .step(
        if custom { format!("Start the scheduler named \"{name}\", or remove schedulerName from the workload to use the default one") } else { "Restart kube-scheduler (static pod manifest on the control-plane nodes, or its service) and read its log".to_string() },
        None,
        RiskLevel::Low,
        "",
    )
}

fn no_ready_nodes(ctx: &Ctx, info: &PodInfo) -> Finding {
    let snap = ctx.snap;
    let mut f = Finding::new(
        Cause::NoReadyNodes,
        Severity::Critical,
        format!(
            "None of the cluster's {} node(s) is Ready: nothing can be scheduled",
            snap.nodes.len()
        ),
    )
    .object(info.key.clone())
    .group("no-ready-nodes");
    for n in snap.nodes.iter().take(5) {
        let key = ObjectKey::of("Node", &n.metadata);
        let quote = match condition(&n.status.conditions, "Ready") {
            Some(c) => format!(
                "Ready={} reason={} {}{}",
                c.status,
                c.reason,
                c.message,
                c.last_heartbeat_time
                    .map(|t| format!(" (last heartbeat {t})"))
                    .unwrap_or_default()
            ),
            None => "no Ready condition reported".to_string(),
        };
        f = f.evidence(
            EvidenceKind::Condition,
            Some(&key),
            "status.conditions[Ready]",
            quote,
        );
    }
    if let Some(c) =
        condition(&info.pod.status.conditions, "PodScheduled").filter(|c| c.status == "False")
    {
        f = f.evidence(
            EvidenceKind::Condition,
            Some(&info.key),
            format!("status.conditions[PodScheduled] reason={}", c.reason),
            c.message.clone(),
        );
    }
    f.explain("Every node is NotReady or Unknown (kubelet down, runtime down, network partition, or the nodes were shut down), so the scheduler has nowhere to place pods; Kubernetes also taints such nodes node.kubernetes.io/not-ready or …/unreachable, which is what the scheduler's message shows. Fix the nodes, not the pods.")
        .step("See the nodes and their conditions", Some("kubectl get nodes -o wide; kubectl describe nodes".into()), RiskLevel::None, "")
        .step("On a node: check the kubelet and the container runtime", Some("systemctl status kubelet containerd; journalctl -u kubelet --since '-15min'".into()), RiskLevel::None, "")
}

/// Without any scheduler verdict, the claims the pod references can still be checked.
fn claims_from_state(ctx: &Ctx, info: &PodInfo, out: &mut Findings) {
    let snap = ctx.snap;
    if !snap.kinds_loaded.contains_key("PersistentVolumeClaim") {
        return;
    }
    for v in &info.pod.spec.volumes {
        let Some(claim) = &v.persistent_volume_claim else {
            continue;
        };
        match snap.pvc(info.ns(), &claim.claim_name) {
            None => {
                let f = Finding::new(
                    Cause::PvcMissing,
                    Severity::Error,
                    summary(Cause::PvcMissing, &claim.claim_name),
                )
                .object(info.key.clone())
                .evidence(
                    EvidenceKind::Absence,
                    Some(&info.key),
                    format!("spec.volumes[{}].persistentVolumeClaim.claimName", v.name),
                    format!(
                        "PersistentVolumeClaim {}/{} is not in the data",
                        info.ns(),
                        claim.claim_name
                    ),
                )
                .confidence(Confidence::Medium)
                .explain(format!(
                    "{} The snapshot holds PersistentVolumeClaims but not this one.",
                    why(Cause::PvcMissing)
                ))
                .group(claim.claim_name.clone());
                out.push(remediation(
                    f,
                    ctx,
                    info,
                    Cause::PvcMissing,
                    &claim.claim_name,
                ));
            }
            Some(pvc) if pvc.status.phase == "Pending" => {
                let f = Finding::new(
                    Cause::PvcUnbound,
                    Severity::Error,
                    summary(Cause::PvcUnbound, &claim.claim_name),
                )
                .object(info.key.clone())
                .evidence(
                    EvidenceKind::Field,
                    Some(&ObjectKey::of("PersistentVolumeClaim", &pvc.metadata)),
                    "status.phase",
                    "Pending",
                )
                .confidence(Confidence::Medium)
                .explain(why(Cause::PvcUnbound))
                .group(claim.claim_name.clone());
                out.push(remediation(
                    f,
                    ctx,
                    info,
                    Cause::PvcUnbound,
                    &claim.claim_name,
                ));
            }
            Some(_) => {}
        }
    }
}

fn summary(cause: Cause, detail: &str) -> String {
    match cause {
        Cause::InsufficientResources => {
            format!("No node has enough free {detail} for the pod's requests")
        }
        Cause::TooManyPods => "Every candidate node already runs its maximum number of pods".into(),
        Cause::NodeSelectorMismatch => "No node matches the pod's node selector / affinity".into(),
        Cause::UntoleratedTaint if !detail.is_empty() => {
            format!("Nodes carry taint {detail} that the pod does not tolerate")
        }
        Cause::UntoleratedTaint => "Nodes carry taints that the pod does not tolerate".into(),
        Cause::HostPortConflict if !detail.is_empty() => {
            format!("hostPort {detail} is already taken on every candidate node")
        }
        Cause::HostPortConflict => {
            "The pod's hostPort is already taken on every candidate node".into()
        }
        Cause::NodeUnschedulable => "The candidate nodes are cordoned (unschedulable)".into(),
        Cause::PodAffinityUnsatisfiable => {
            "The pod's (anti-)affinity or topology spread rules cannot be met".into()
        }
        Cause::PvcMissing => {
            format!("The pod uses PersistentVolumeClaim \"{detail}\", which does not exist")
        }
        Cause::PvcUnbound if !detail.is_empty() => {
            format!("PersistentVolumeClaim \"{detail}\" is not bound to a volume")
        }
        Cause::PvcUnbound => "A PersistentVolumeClaim of the pod is not bound to a volume".into(),
        Cause::VolumeNodeAffinityConflict => {
            "The pod's volume can only be used on nodes that cannot take the pod".into()
        }
        Cause::NoReadyNodes => "The cluster has no nodes to schedule on".into(),
        Cause::NodePressure if !detail.is_empty() => {
            format!("The nodes that would fit are under resource pressure (taint {detail})")
        }
        Cause::NodePressure => "The nodes that would fit are under resource pressure".into(),
        Cause::NodeNotReady => "The nodes that would fit are not ready".into(),
        Cause::ResourceClaimUnallocatable => {
            "The pod's resource claims (DRA) cannot be allocated on any node".into()
        }
        _ => cause.meaning().into(),
    }
}

fn why(cause: Cause) -> &'static str {
    match cause {
        Cause::InsufficientResources => {
            "The scheduler compares the pod's requests (not its actual use) with each node's allocatable capacity minus the requests of the pods already there; limits do not matter."
        }
        Cause::TooManyPods => {
            "Each kubelet accepts at most max-pods pods (110 by default), whatever the free CPU and memory."
        }
        Cause::NodeSelectorMismatch => {
            "nodeSelector and required node affinity are hard constraints: a node lacking the labels is never used."
        }
        Cause::UntoleratedTaint => {
            "A NoSchedule or NoExecute taint keeps off every pod that does not tolerate it; the fitting nodes are reserved or unhealthy."
        }
        Cause::HostPortConflict => {
            "A hostPort can be used by one pod per node (per IP and protocol); every node that would fit already has a pod on that port."
        }
        Cause::NodeUnschedulable => {
            "Cordoned nodes (spec.unschedulable) take no new pods until uncordoned."
        }
        Cause::PodAffinityUnsatisfiable => {
            "Required inter-pod (anti-)affinity and topology spread constraints depend on where other pods run; no node satisfies them now."
        }
        Cause::PvcMissing => {
            "A pod cannot be scheduled until every PersistentVolumeClaim it mounts exists."
        }
        Cause::PvcUnbound => {
            "With Immediate binding the claim must be bound before the pod can be scheduled: no PersistentVolume matches it and no provisioner created one."
        }
        Cause::VolumeNodeAffinityConflict => {
            "A bound PersistentVolume (local or zonal storage) can only be attached in its node or zone, and those nodes cannot take the pod."
        }
        Cause::NoReadyNodes => "There is no node for the scheduler to choose from.",
        Cause::NodePressure => {
            "The kubelet taints a node that runs low on disk, memory or PIDs (node.kubernetes.io/disk-pressure, memory-pressure, pid-pressure) and keeps new pods off until it recovers; tolerating the taint would place the pod on a failing node."
        }
        Cause::ResourceClaimUnallocatable => {
            "With dynamic resource allocation the scheduler places a pod only on a node where every claim of the pod can be allocated devices (of the claims' DeviceClasses, from the ResourceSlices the DRA drivers publish) or where its allocated claims are available; a claim that does not exist, a class or driver that is missing, or devices all held by other claims keep it Pending."
        }
        Cause::NodeNotReady => {
            "The node controller taints a node whose kubelet stopped reporting (node.kubernetes.io/not-ready, unreachable); no pod lands there until it is Ready again."
        }
        _ => "",
    }
}

fn remediation(mut f: Finding, ctx: &Ctx, info: &PodInfo, cause: Cause, detail: &str) -> Finding {
    let (ns, wl) = (info.ns(), info.workload_ref(ctx.snap));
    match cause {
        Cause::InsufficientResources => {
            f = f
                .step("See what each node has left (Allocated resources)", Some("kubectl describe nodes".into()), RiskLevel::None, "")
                .step(
                    format!("Lower the pod's {detail} request if it asks for more than it needs"),
                    Some(info.spec_change(ctx.snap, &format!("set resources {{wl}} --requests={detail}=<smaller>"))),
                    RiskLevel::Low,
                    "Rolls the workload's pods; too small a request invites eviction and CPU starvation.",
                )
                .step("Or add capacity: scale the node group, or free space by removing unused workloads", None, RiskLevel::Low, "New nodes cost money; removed workloads are gone.");
        }
        Cause::TooManyPods => {
            f = f.step("Count the pods per node", Some("kubectl get pods -A -o wide --field-selector=status.phase=Running".into()), RiskLevel::None, "")
                .step("Add nodes, or raise the kubelet's maxPods where the pod network has room for more addresses", None, RiskLevel::Medium, "maxPods beyond the node's pod CIDR size leaves pods without IPs; needs a kubelet restart.");
        }
        Cause::NodeSelectorMismatch => {
            f = f.step("Compare the pod's selector with the nodes' labels", Some(format!("kubectl get pod {} -n {ns} -o jsonpath='{{.spec.nodeSelector}}{{.spec.affinity.nodeAffinity}}'; kubectl get nodes --show-labels", info.name())), RiskLevel::None, "")
                .step("Fix the selector in the workload, or label the node that should run it", Some("kubectl label node <node> <key>=<value>".into()), RiskLevel::Low, "Labelling a node may attract other workloads that select the same label.");
        }
        Cause::UntoleratedTaint => {
            f = f.step("List the nodes' taints", Some("kubectl get nodes -o custom-columns=NAME:.metadata.name,TAINTS:.spec.taints".into()), RiskLevel::None, "")
                .step(format!("If the pod belongs on those nodes, add a matching toleration to {wl}"), None, RiskLevel::Low, "Tolerating a taint that marks an unhealthy node (not-ready, pressure) places the pod on a failing node.")
                .step("If the taint is left over, remove it", Some("kubectl taint nodes <node> <key>[:effect]-".into()), RiskLevel::Medium, "Other pods that were kept off the node will start landing on it.");
        }
        Cause::HostPortConflict => {
            f = f.step("Find the pods holding the port", Some("kubectl get pods -A -o wide | grep <node>; kubectl get pods -A -o jsonpath='{range .items[*]}{.metadata.namespace}/{.metadata.name} {.spec.containers[*].ports[*].hostPort}{\"\\n\"}{end}'".into()), RiskLevel::None, "")
                .step("Use another hostPort, or expose the pod through a Service instead of a hostPort", None, RiskLevel::Low, "Clients that reach the node port directly must follow the change.");
        }
        Cause::NodeUnschedulable => {
            f = f
                .step(
                    "See which nodes are cordoned",
                    Some("kubectl get nodes".into()),
                    RiskLevel::None,
                    "",
                )
                .step(
                    "Uncordon a node once its maintenance is over",
                    Some("kubectl uncordon <node>".into()),
                    RiskLevel::Low,
                    "Do not uncordon a node that is being drained or is unhealthy.",
                );
        }
        Cause::PodAffinityUnsatisfiable => {
            f = f.step("Read the pod's affinity and spread rules", Some(format!("kubectl get pod {} -n {ns} -o yaml", info.name())), RiskLevel::None, "")
                .step("Relax required rules to preferred ones, or add nodes in the needed topology domains", None, RiskLevel::Low, "Preferred rules may co-locate replicas you meant to spread.");
        }
        Cause::PvcMissing => {
            f = f
                .step(
                    "List the namespace's claims",
                    Some(format!("kubectl get pvc -n {ns}")),
                    RiskLevel::None,
                    "",
                )
                .step(
                    format!("Create claim \"{detail}\", or fix the claim name in {wl}"),
                    None,
                    RiskLevel::Low,
                    "",
                );
        }
        Cause::PvcUnbound => {
            let target = if detail.is_empty() {
                "<claim>".to_string()
            } else {
                detail.to_string()
            };
            f = f.step("See why the claim is not bound", Some(format!("kubectl describe pvc {target} -n {ns}")), RiskLevel::None, "")
                .step("Check the storage class exists and its provisioner runs, or create a PersistentVolume that matches the claim", Some("kubectl get storageclass; kubectl get pv".into()), RiskLevel::Low, "");
        }
        Cause::VolumeNodeAffinityConflict => {
            f = f.step("Compare the volume's node affinity with the nodes", Some("kubectl get pv -o custom-columns=NAME:.metadata.name,CLAIM:.spec.claimRef.name,AFFINITY:.spec.nodeAffinity".into()), RiskLevel::None, "")
                .step("Free capacity on the node or zone that holds the volume, or move the data", None, RiskLevel::Medium, "Moving a volume's data means copying it; deleting the claim deletes the data with a Delete reclaim policy.");
        }
        Cause::NodePressure => {
            f = f
                .step("See which pressure the nodes report and how full their disks are", Some("kubectl describe nodes | grep -E 'Name:|Pressure|Taints'".into()), RiskLevel::None, "")
                .step("Free the resource on the node: remove unused images (crictl rmi --prune), old logs and emptyDir data, or grow its disk", None, RiskLevel::Low, "Pruned images are pulled again when needed.")
                .step("Or lower the kubelet's eviction thresholds only if they are set above what the node needs", None, RiskLevel::Medium, "Thresholds too low let the node run out before the kubelet reacts.");
        }
        Cause::NodeNotReady => {
            f = f
                .step("See the nodes' Ready condition", Some("kubectl get nodes; kubectl describe nodes | grep -E 'Name:|Ready|Taints'".into()), RiskLevel::None, "")
                .step("Bring the kubelet back on the node (systemctl status kubelet; journalctl -u kubelet)", None, RiskLevel::Low, "");
        }
        Cause::NoReadyNodes => {
            f = f.step(
                "Check the nodes",
                Some("kubectl get nodes -o wide".into()),
                RiskLevel::None,
                "",
            );
        }
        _ => {}
    }
    f.step(
        "Confirm with the pod's own events",
        Some(info.describe_cmd()),
        RiskLevel::None,
        "",
    )
}

/// A claim Pending this long is not being provisioned (dynamic provisioning takes seconds).
const CLAIM_STUCK_AFTER_SECS: i64 = 5 * 60;

/// Claims Pending for minutes that no pending pod's finding covers (a pod's own verdict names
/// its claims): one finding per storage class. A claim of a WaitForFirstConsumer class waits
/// for its pod by design and is left alone.
fn unbound_claims(ctx: &Ctx, out: &mut Findings) {
    let snap = ctx.snap;
    let used_by_pending: std::collections::HashSet<(&str, &str)> = snap
        .pods
        .iter()
        .filter(|p| p.status.phase == "Pending")
        .flat_map(|p| {
            p.spec.volumes.iter().filter_map(move |v| {
                v.persistent_volume_claim
                    .as_ref()
                    .map(|c| (p.metadata.ns(), c.claim_name.as_str()))
            })
        })
        .collect();
    let classes_known = snap.kinds_loaded.contains_key("StorageClass");
    let mut by_class: std::collections::BTreeMap<
        String,
        Vec<&kubewhy_model::objects::PersistentVolumeClaim>,
    > = Default::default();
    for pvc in &snap.pvcs {
        if pvc.status.phase != "Pending"
            || pvc.metadata.deletion_timestamp.is_some()
            || used_by_pending.contains(&(pvc.metadata.ns(), pvc.metadata.name.as_str()))
        {
            continue;
        }
        let age = pvc
            .metadata
            .creation_timestamp
            .map(|t| ctx.now.as_second() - t.as_second());
        if age.is_some_and(|a| a < CLAIM_STUCK_AFTER_SECS) {
            continue;
        }
        let class = pvc
            .spec
            .storage_class_name
            .as_deref()
            .unwrap_or("")
            .to_string();
        let sc = snap
            .storage_classes
            .iter()
            .find(|c| c.metadata.name == class);
        if sc.is_some_and(|c| c.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer")) {
            continue;
        }
        by_class.entry(class).or_default().push(pvc);
    }
    for (class, claims) in by_class {
        let sc = snap
            .storage_classes
            .iter()
            .find(|c| c.metadata.name == class);
        let (what, confidence) = match (class.is_empty(), sc, classes_known) {
            (true, _, _) => (
                "They name no storage class: with no default StorageClass (or none that matches), nothing provisions them and no PersistentVolume was created to match them.".to_string(),
                Confidence::Medium,
            ),
            (false, None, true) => (
                format!("Their storage class \"{class}\" does not exist, so no provisioner serves them."),
                Confidence::High,
            ),
            (false, Some(c), _) => (
                format!("Storage class \"{class}\" names provisioner {}, which has not created their volumes: it is not running, or it fails (its events on the claims say why).", c.provisioner),
                Confidence::High,
            ),
            (false, None, false) => (
                format!("Their storage class \"{class}\" has not provisioned them: its provisioner is missing or failing, or the class does not exist (the data does not show StorageClasses). A class with volumeBindingMode WaitForFirstConsumer waits for a pod by design."),
                Confidence::Medium,
            ),
        };
        let first = &claims[0];
        let ns = first.metadata.ns();
        let mut f = Finding::new(
            Cause::PvcUnbound,
            Severity::Warning,
            format!(
                "{} PersistentVolumeClaim(s) {} stay Pending: no volume is provisioned for them",
                claims.len(),
                if class.is_empty() {
                    "without a storage class".to_string()
                } else {
                    format!("of storage class \"{class}\"")
                }
            ),
        )
        .group(format!("claims|{class}"))
        .confidence(confidence);
        for c in claims.iter().take(20) {
            let key = ObjectKey::of("PersistentVolumeClaim", &c.metadata);
            f = f.object(key.clone()).evidence(
                EvidenceKind::Field,
                Some(&key),
                "status.phase",
                format!(
                    "Pending{}",
                    c.metadata
                        .creation_timestamp
                        .map(|t| format!(
                            " for {}",
                            human_duration(ctx.now.as_second() - t.as_second())
                        ))
                        .unwrap_or_default()
                ),
            );
        }
        f = f
            .explain(format!("A claim is bound when a PersistentVolume matches it or its class's provisioner creates one, normally within seconds. {what} Pods that mount these claims cannot be scheduled until they are bound."))
            .step("See why a claim is not bound (its events name the provisioner's error)", Some(format!("kubectl describe pvc {} -n {ns}", first.metadata.name)), RiskLevel::None, "")
            .step("Check the storage classes, the default one, and that the provisioner runs", Some("kubectl get storageclass; kubectl get pods -A | grep -i -E 'provisioner|csi'".into()), RiskLevel::None, "")
            .step("Install or fix the provisioner, set a default StorageClass, or create PersistentVolumes that match the claims", None, RiskLevel::Low, "Marking a class default changes where every later claim without a class goes.");
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn diagnose(yaml: &str) -> Vec<Finding> {
        crate::tests::diagnose_yaml(yaml, "2026-11-22T12:00:00Z").findings
    }

    const NODE: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, labels: {kubernetes.io/hostname: node-1}}\nstatus:\n  allocatable: {cpu: '8', memory: 16Gi, pods: '110'}\n  conditions: [{type: Ready, status: 'True'}]\n---\n";

    /// The scheduler said "Insufficient cpu" an hour ago; the node has room now (a pod went
    /// away, or the data lacks other namespaces' pods): the verdict stays, the disagreement is
    /// said, and confidence drops.
    #[test]
    fn the_analysis_says_when_the_scheduler_verdict_is_stale() {
        let yaml = format!(
            "{NODE}apiVersion: v1\nkind: Pod\nmetadata: {{name: web, namespace: shop, creationTimestamp: '2026-11-22T10:00:00Z'}}\nspec:\n  containers: [{{name: web, resources: {{requests: {{cpu: '2'}}}}}}]\nstatus:\n  phase: Pending\n  conditions: [{{type: PodScheduled, status: 'False', reason: Unschedulable, message: '0/1 nodes are available: 1 Insufficient cpu.'}}]\n"
        );
        let f = diagnose(&yaml);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].cause, Cause::InsufficientResources);
        assert_eq!(f[0].confidence, Confidence::Medium);
        assert!(
            f[0].explanation.contains("Evaluated from the nodes' state now, node-1 could take the pod (1/1 nodes can take the pod): the cluster changed since the scheduler's last attempt"),
            "{}",
            f[0].explanation
        );
    }

    /// No verdict in the data (events expired, condition without a message): the analysis alone
    /// names the cause, the nearest miss and the fix.
    #[test]
    fn the_analysis_decides_alone_without_a_verdict() {
        let yaml = format!(
            "{NODE}apiVersion: v1\nkind: Pod\nmetadata: {{name: indexer, namespace: shop, creationTimestamp: '2026-11-22T11:59:00Z'}}\nspec:\n  nodeSelector: {{disktype: ssd}}\n  containers: [{{name: c}}]\nstatus:\n  phase: Pending\n  conditions: [{{type: PodScheduled, status: 'False', reason: Unschedulable}}]\n"
        );
        let f = diagnose(&yaml);
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].cause, Cause::NodeSelectorMismatch);
        assert_eq!(f[0].confidence, Confidence::Medium);
        let quotes: Vec<&str> = f[0].evidence.iter().map(|e| e.quote.as_str()).collect();
        assert_eq!(
            quotes,
            [
                "0/1 nodes: 1 node(s) didn't match Pod's node affinity/selector",
                "node-1: it fits if it had label disktype=ssd"
            ]
        );
        assert!(
            f[0].remediation
                .iter()
                .any(|s| s.command.as_deref() == Some("kubectl label node node-1 disktype=ssd"))
        );
    }

    fn reasons(m: &str) -> Vec<(Option<u32>, String)> {
        parse_scheduler_message(m).reasons
    }

    #[test]
    fn every_envelope_wording() {
        assert_eq!(
            reasons("0/1 nodes are available: 1 Insufficient cpu."),
            vec![(Some(1), "Insufficient cpu".into())]
        );
        // v1.24-1.29: double dot and preemption suffix.
        assert_eq!(
            reasons(
                "0/3 nodes are available: 3 Insufficient memory. preemption: 0/3 nodes are available: 3 No preemption victims found for incoming pod.."
            ),
            vec![(Some(3), "Insufficient memory".into())]
        );
        // PreFilter, no count.
        assert_eq!(
            reasons(
                "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims. preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling."
            ),
            vec![(
                None,
                "pod has unbound immediate PersistentVolumeClaims".into()
            )]
        );
        // Old taint wording contains ", ".
        assert_eq!(
            reasons("0/4 nodes are available: 1 node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate, 3 Insufficient cpu."),
            vec![(Some(1), "node(s) had taint {node-role.kubernetes.io/master: }, that the pod didn't tolerate".into()), (Some(3), "Insufficient cpu".into())]
        );
        // Pre-1.8.
        assert_eq!(
            reasons(
                "No nodes are available that match all of the following predicates:: Insufficient pods (3), MatchNodeSelector (2)."
            ),
            vec![
                (Some(3), "Insufficient pods".into()),
                (Some(2), "MatchNodeSelector".into())
            ]
        );
        assert_eq!(
            parse_scheduler_message("no nodes available to schedule pods").nodes,
            Some(0)
        );
        // DRA post-filter text.
        assert_eq!(
            reasons(
                "0/17 nodes are available: 17 node(s) had untolerated taint(s). no new claims to deallocate, preemption: 0/17 nodes are available: 17 Preemption is not helpful for scheduling."
            ),
            vec![(Some(17), "node(s) had untolerated taint(s)".into())]
        );
    }

    #[test]
    fn every_reason_wording() {
        let c = |r: &str| classify_reason(r).map(|x| x.0);
        assert_eq!(
            classify_reason("Insufficient nvidia.com/gpu"),
            Some((Cause::InsufficientResources, "nvidia.com/gpu".into()))
        );
        assert_eq!(c("Too many pods"), Some(Cause::TooManyPods));
        for r in [
            "node(s) didn't match Pod's node affinity/selector",
            "node(s) didn't match Pod's node affinity",
            "node(s) didn't match node selector",
            "MatchNodeSelector",
            "node(s) didn't match the requested node name",
        ] {
            assert_eq!(c(r), Some(Cause::NodeSelectorMismatch), "{r}");
        }
        assert_eq!(
            classify_reason("node(s) had untolerated taint {dedicated: gpu}"),
            Some((Cause::UntoleratedTaint, "{dedicated: gpu}".into()))
        );
        assert_eq!(
            classify_reason(
                "node(s) had taint {node.kubernetes.io/unreachable: }, that the pod didn't tolerate"
            ),
            // The node controller's taint: the node's state, not a reservation.
            Some((
                Cause::NodeNotReady,
                "{node.kubernetes.io/unreachable: }".into()
            ))
        );
        assert_eq!(
            c("node(s) had taints that the pod didn't tolerate"),
            Some(Cause::UntoleratedTaint)
        );
        assert_eq!(
            c("node(s) had untolerated taint(s)"),
            Some(Cause::UntoleratedTaint)
        );
        assert_eq!(
            c("node(s) were unschedulable"),
            Some(Cause::NodeUnschedulable)
        );
        assert_eq!(
            c("node(s) didn't have free ports for the requested pod ports"),
            Some(Cause::HostPortConflict)
        );
        assert_eq!(
            c("node(s) had volume node affinity conflict"),
            Some(Cause::VolumeNodeAffinityConflict)
        );
        assert_eq!(
            c("node(s) didn't match PersistentVolume's node affinity"),
            Some(Cause::VolumeNodeAffinityConflict)
        );
        assert_eq!(
            c("pod has unbound immediate PersistentVolumeClaims"),
            Some(Cause::PvcUnbound)
        );
        assert_eq!(
            c("node(s) didn't find available persistent volumes to bind"),
            Some(Cause::PvcUnbound)
        );
        assert_eq!(
            classify_reason("persistentvolumeclaim \"data\" not found"),
            Some((Cause::PvcMissing, "data".into()))
        );
        assert_eq!(
            c("node(s) didn't match pod anti-affinity rules"),
            Some(Cause::PodAffinityUnsatisfiable)
        );
        assert_eq!(
            c("node(s) didn't match pod affinity/anti-affinity"),
            Some(Cause::PodAffinityUnsatisfiable)
        );
        assert_eq!(
            c("node(s) didn't match pod topology spread constraints"),
            Some(Cause::PodAffinityUnsatisfiable)
        );
        assert_eq!(c("something new"), None);
    }
}
