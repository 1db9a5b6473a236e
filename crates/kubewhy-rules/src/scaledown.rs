//! `kubewhy gone`'s answer for the commonest disappearance: the pod's own controller removed
//! it. A ReplicaSet (StatefulSet, ReplicationController, Job) deletes the pods it no longer
//! wants — because its desired replicas were lowered (`scaled-down`: by a user, an autoscaler,
//! or the Deployment controller on a user's behalf), or because a rollout moved the wanted
//! pods to a ReplicaSet of the new revision (`rollout-replaced`).
//!
//! What says the controller removed it: the audit log (its service account deleted the pod),
//! its `SuccessfulDelete` event naming the pod (live, or kept by the flight recorder), or the
//! owner's state (a ReplicaSet that wants none, a StatefulSet ordinal past its replicas). What
//! says why: the flight recorder's replica changes (with the field manager that made them), the
//! Deployment controller's `ScalingReplicaSet` events, a newer ReplicaSet of the same Deployment.

use kubewhy_model::history::{History, OwnerLink, RecordedEvent, ScaleRecord};
use kubewhy_model::messages::controller::{WORKLOAD_CONTROLLERS, deleted_pod, scaled_replica_set};
use kubewhy_model::objects::Workload;
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, Snapshot};

/// How long before the pod went a replica change still explains it (a scale-down of 10,000
/// pods takes the controller minutes: it deletes in bursts of 500).
const BEFORE: i64 = 30 * 60;
/// Clocks differ: the recorder's moment of seeing the change may trail the pod's deletion.
const AFTER: i64 = 60;

/// What `gone` knows of the pod that matters here.
pub(crate) struct Removal<'a> {
    pub ns: &'a str,
    pub name: &'a str,
    /// Its controller, when known (ownerReferences, the recorder's row).
    pub owner: Option<&'a OwnerLink>,
    /// Who first asked to delete it, from the audit log.
    pub actor: Option<&'a str>,
    /// Events the recorder kept for it (joined by name: the controller's events name it).
    pub recorded: &'a [RecordedEvent],
    /// When it went (or its deletion was asked for).
    pub when: Option<jiff::Timestamp>,
}

/// What says the pod's own controller removed it, and why.
struct Signs<'a> {
    owner: OwnerLink,
    /// The owner as it is now, when the data has it.
    now_owner: Option<&'a Workload>,
    /// The Deployment above a ReplicaSet.
    deployment: Option<String>,
    /// The controller's `SuccessfulDelete` event naming the pod: live, or kept by the recorder.
    live_event: Option<&'a kubewhy_model::objects::Event>,
    recorded_event: Option<&'a RecordedEvent>,
    /// The controller's service account deleted the pod (audit log).
    by_audit: Option<&'a str>,
    /// The recorder saw the owner's, or its Deployment's, replicas lowered then.
    owner_down: Option<&'a ScaleRecord>,
    deployment_down: Option<&'a ScaleRecord>,
    /// A newer ReplicaSet of the same Deployment came up then: a rollout.
    newer: Option<(String, Option<jiff::Timestamp>)>,
    /// The Deployment controller's "Scaled down replica set" event for the owner.
    scaling_event: Option<&'a kubewhy_model::objects::Event>,
    /// A StatefulSet pod whose ordinal is past the replicas wanted now: (ordinal, replicas).
    ordinal_past: Option<(i64, i64)>,
    /// The owner wants no pod at all now.
    wants_none: bool,
}

impl Signs<'_> {
    fn said_by_controller(&self) -> bool {
        self.by_audit.is_some() || self.live_event.is_some() || self.recorded_event.is_some()
    }
    fn said_by_state(&self) -> bool {
        self.owner_down.is_some()
            || self.deployment_down.is_some()
            || self.newer.is_some()
            || self.scaling_event.is_some()
            || self.ordinal_past.is_some()
            || self.wants_none
    }
}

/// `Some` when the pod's own controller removed it: the cause (scaled-down or rollout-replaced),
/// the sentence, and how sure. Evidence is added to `fd`.
pub(crate) fn judge(
    snap: &Snapshot,
    history: &History,
    r: &Removal,
    fd: &mut Finding,
) -> Option<(Cause, String, Confidence)> {
    let s = signs(snap, history, r)?;
    if !s.said_by_controller() && !s.said_by_state() {
        return None;
    }
    let who = quote(&s, history, r, fd);
    let (ns, owner) = (r.ns, &s.owner);
    let (deployment, deployment_down, owner_down) =
        (&s.deployment, s.deployment_down, s.owner_down);
    let (scaling_event, ordinal_past) = (s.scaling_event, s.ordinal_past);
    let said_by_controller = s.said_by_controller();
    let newer = s.newer.clone();
    let controller = match owner.kind.as_str() {
        "StatefulSet" => "the StatefulSet controller",
        "ReplicationController" => "the replication controller",
        "Job" => "the Job controller",
        _ => "the ReplicaSet controller",
    };
    let confidence = if said_by_controller || owner_down.is_some() || deployment_down.is_some() {
        Confidence::High
    } else {
        Confidence::Medium
    };

    // A rollout, unless the Deployment itself was scaled down then.
    if let Some((new_rs, at)) = newer.filter(|_| deployment_down.is_none()) {
        let d = deployment.clone().unwrap_or_default();
        fd.evidence.push(evidence(
            EvidenceKind::Field,
            Some(&ObjectKey::new("ReplicaSet", ns, &new_rs, "")),
            "the Deployment's ReplicaSets",
            format!(
                "ReplicaSet {new_rs} of Deployment {d}{} replaces {} (the pod's revision)",
                at.map(|t| format!(" (new at {t})")).unwrap_or_default(),
                owner.name
            ),
        ));
        return Some((
            Cause::RolloutReplaced,
            format!(
                "a rollout of Deployment {d} replaced it: its ReplicaSet {} was scaled down as ReplicaSet {new_rs} of the new revision came up, and {controller} removed it",
                owner.name
            ),
            confidence,
        ));
    }
    let by = who.map(|w| format!(" by {w}")).unwrap_or_default();
    let what = match (deployment_down, owner_down, &deployment) {
        (Some(s), _, _) => format!(
            "Deployment {} was scaled down from {} to {}{by}",
            s.name, s.from, s.to
        ),
        (None, Some(s), _) => format!(
            "{} {} was scaled down from {} to {}{by}",
            s.kind, s.name, s.from, s.to
        ),
        (None, None, Some(d)) => format!(
            "{} {} of Deployment {d} was scaled down{}{by}",
            owner.kind,
            owner.name,
            scaling_event
                .and_then(|e| scaled_replica_set(&e.message))
                .map(|(_, _, to, _)| format!(" to {to}"))
                .unwrap_or_default()
        ),
        (None, None, None) => match ordinal_past {
            Some((ord, replicas)) => format!(
                "StatefulSet {} wants {replicas} replica(s) now, and its pods from ordinal {replicas} on are removed (this one is {ord}){by}",
                owner.name
            ),
            None => format!("{} {} was scaled down{by}", owner.kind, owner.name),
        },
    };
    Some((
        Cause::ScaledDown,
        format!("{what}, and {controller} removed it"),
        confidence,
    ))
}

/// What the data says of the pod's owner and its replicas around the time the pod went.
fn signs<'a>(snap: &'a Snapshot, history: &'a History, r: &Removal<'a>) -> Option<Signs<'a>> {
    let ns = r.ns;
    // The controller's own word, live or recorded.
    let live_event = snap.events.iter().find(|e| {
        e.namespace == ns
            && e.reason == "SuccessfulDelete"
            && deleted_pod(&e.message) == Some(r.name)
    });
    let recorded_event = r
        .recorded
        .iter()
        .find(|e| e.reason == "SuccessfulDelete" && deleted_pod(&e.message) == Some(r.name));
    let by_audit = r.actor.filter(|a| WORKLOAD_CONTROLLERS.contains(a));
    let owner: Option<OwnerLink> = r.owner.cloned().or_else(|| {
        live_event.map(|e| OwnerLink {
            kind: e.involved.kind.to_string(),
            name: e.involved.name.to_string(),
            uid: e.involved.uid.to_string(),
        })
    });
    let owner = owner?;
    if !matches!(
        owner.kind.as_str(),
        "ReplicaSet" | "StatefulSet" | "ReplicationController" | "Job"
    ) {
        return None;
    }
    let now_owner = snap
        .workload(&owner.kind, ns, &owner.name)
        .filter(|w| owner.uid.is_empty() || w.metadata.uid == owner.uid);
    // The Deployment above a ReplicaSet: from the ReplicaSet, a recorded change, or its name.
    let deployment: Option<String> = if owner.kind == "ReplicaSet" {
        now_owner
            .and_then(|w| w.metadata.controller())
            .filter(|c| c.kind == "Deployment")
            .map(|c| c.name.to_string())
            .or_else(|| {
                history
                    .scalings
                    .iter()
                    .find(|s| s.kind == "ReplicaSet" && s.namespace == ns && s.name == owner.name)
                    .and_then(|s| s.owner.as_ref())
                    .filter(|o| o.kind == "Deployment")
                    .map(|o| o.name.clone())
            })
    } else {
        None
    };
    let near = |t: Option<jiff::Timestamp>| match (t, r.when) {
        (Some(t), Some(w)) => {
            let d = w.as_second() - t.as_second();
            (-AFTER..=BEFORE).contains(&d)
        }
        _ => true,
    };
    let scaled = |kind: &str, name: &str| -> Option<&ScaleRecord> {
        history
            .scalings
            .iter()
            .filter(|s| s.kind == kind && s.namespace == ns && s.name == name && near(s.at))
            .filter(|s| s.to < s.from)
            .max_by_key(|s| s.at)
    };
    let owner_down = scaled(&owner.kind, &owner.name);
    let deployment_down = deployment.as_deref().and_then(|d| scaled("Deployment", d));
    // A rollout: another ReplicaSet of the same Deployment came up around then.
    let newer = deployment
        .as_deref()
        .and_then(|d| newer_replica_set(snap, history, ns, d, &owner, now_owner, r.when));
    let scaling_event = deployment.as_deref().and_then(|d| {
        snap.events.iter().rev().find(|e| {
            e.namespace == ns
                && e.involved.kind == "Deployment"
                && e.involved.name == d
                && scaled_replica_set(&e.message)
                    .is_some_and(|(down, rs, _, _)| down && rs == owner.name)
        })
    });
    let ordinal_past = match (owner.kind.as_str(), now_owner) {
        ("StatefulSet", Some(w)) => r
            .name
            .strip_prefix(&format!("{}-", owner.name))
            .and_then(|o| o.parse::<i64>().ok())
            .zip(w.spec.replicas)
            .filter(|(ord, replicas)| ord >= replicas),
        _ => None,
    };
    let wants_none = now_owner.is_some_and(|w| w.spec.replicas == Some(0));
    Some(Signs {
        owner,
        now_owner,
        deployment,
        live_event: live_event.map(|e| &**e),
        recorded_event,
        by_audit,
        owner_down,
        deployment_down,
        newer,
        scaling_event: scaling_event.map(|e| &**e),
        ordinal_past,
        wants_none,
    })
}

/// The evidence, strongest first; who asked for the change, when the data says.
fn quote(s: &Signs, history: &History, r: &Removal, fd: &mut Finding) -> Option<String> {
    let (ns, owner, now_owner, deployment) = (r.ns, &s.owner, s.now_owner, &s.deployment);
    let (live_event, recorded_event) = (s.live_event, s.recorded_event);
    let (owner_down, deployment_down, scaling_event) =
        (s.owner_down, s.deployment_down, s.scaling_event);
    let owner_key = ObjectKey::new(&owner.kind, ns, &owner.name, &owner.uid);
    if let Some(e) = live_event {
        fd.evidence.push(evidence(
            EvidenceKind::Event,
            Some(&owner_key),
            format!("{} on {}/{}", e.origin(), e.involved.kind, e.involved.name),
            e.message.to_string(),
        ));
    } else if let Some(e) = recorded_event {
        fd.evidence.push(evidence(
            EvidenceKind::Event,
            Some(&owner_key),
            format!(
                "flight recorder: event {} from {} (x{})",
                e.reason, e.source, e.count
            ),
            e.message.clone(),
        ));
    }
    for s in [deployment_down, owner_down].into_iter().flatten() {
        fd.evidence.push(evidence(
            EvidenceKind::Field,
            Some(&ObjectKey::new(&s.kind, ns, &s.name, &s.uid)),
            "flight recorder: spec.replicas",
            describe_scale(s),
        ));
    }
    if let Some(e) = scaling_event {
        fd.evidence.push(evidence(
            EvidenceKind::Event,
            Some(&ObjectKey::new(
                "Deployment",
                ns,
                &e.involved.name,
                &e.involved.uid,
            )),
            e.origin(),
            e.message.to_string(),
        ));
    }
    if let Some(w) = now_owner {
        fd.evidence.push(evidence(
            EvidenceKind::Field,
            Some(&owner_key),
            "spec.replicas (now)",
            format!(
                "{} {} wants {} replica(s) now",
                owner.kind,
                owner.name,
                w.spec.replicas.map_or("?".into(), |n| n.to_string())
            ),
        ));
    }
    let request = scale_request(history, ns, owner, deployment.as_deref(), r.when);
    if let Some(a) = request {
        fd.evidence.push(evidence(
            EvidenceKind::Log,
            None,
            format!("audit log {}", a.origin),
            a.describe(),
        ));
    }
    request.map(|a| actor_words(a.actor())).or_else(|| {
        // The recorder names a field manager only when its managedFields entry was written at
        // the change; a scale through /scale left none before 1.21, and the creator's older
        // entry names nobody.
        deployment_down.or(owner_down).map(|s| {
            if s.by.is_empty() {
                "a client the data does not name (the API server's audit log would: the update of its spec.replicas or scale subresource)".to_string()
            } else {
                s.by.clone()
            }
        })
    })
}

fn evidence(
    kind: EvidenceKind,
    object: Option<&ObjectKey>,
    source: impl Into<String>,
    quote: impl Into<String>,
) -> kubewhy_model::Evidence {
    kubewhy_model::Evidence {
        kind,
        object: object.cloned(),
        source: source.into(),
        quote: quote.into(),
        occurrences: 1,
    }
}

fn describe_scale(s: &ScaleRecord) -> String {
    format!(
        "{} {}: spec.replicas {} → {}{}{}",
        s.kind,
        s.name,
        s.from,
        s.to,
        s.at.map(|t| format!(" at {t}")).unwrap_or_default(),
        if s.by.is_empty() {
            String::new()
        } else {
            format!(" (field manager {})", s.by)
        }
    )
}

/// Another ReplicaSet of the Deployment that is newer than the pod's and wants pods (in the
/// data now, or scaled up around the moment the pod went): its name and since when.
fn newer_replica_set(
    snap: &Snapshot,
    history: &History,
    ns: &str,
    deployment: &str,
    owner: &OwnerLink,
    now_owner: Option<&Workload>,
    when: Option<jiff::Timestamp>,
) -> Option<(String, Option<jiff::Timestamp>)> {
    let created = now_owner.and_then(|w| w.metadata.creation_timestamp);
    let live = snap
        .workloads
        .iter()
        .filter(|w| {
            w.kind == "ReplicaSet" && w.metadata.ns() == ns && w.metadata.name != owner.name
        })
        .filter(|w| {
            w.metadata
                .controller()
                .is_some_and(|c| c.kind == "Deployment" && c.name == deployment)
        })
        .filter(|w| w.spec.replicas.unwrap_or(0) > 0)
        .filter(|w| match (w.metadata.creation_timestamp, created) {
            (Some(a), Some(b)) => a > b,
            // Without the pod's ReplicaSet to compare with: newer than the pod's going.
            (Some(a), None) => when.is_none_or(|t| a.as_second() <= t.as_second() + AFTER),
            _ => false,
        })
        .max_by_key(|w| w.metadata.creation_timestamp)
        .map(|w| (w.metadata.name.to_string(), w.metadata.creation_timestamp));
    live.or_else(|| {
        history
            .scalings
            .iter()
            .filter(|s| s.kind == "ReplicaSet" && s.namespace == ns && s.name != owner.name)
            .filter(|s| {
                s.owner
                    .as_ref()
                    .is_some_and(|o| o.kind == "Deployment" && o.name == deployment)
            })
            .filter(|s| s.to > s.from)
            .filter(|s| match (s.at, when) {
                (Some(a), Some(w)) => (-BEFORE..=AFTER).contains(&(a.as_second() - w.as_second())),
                _ => true,
            })
            .max_by_key(|s| s.at)
            .map(|s| (s.name.clone(), s.at))
    })
}

/// An actor, for people: a HorizontalPodAutoscaler is named as such.
fn actor_words(actor: &str) -> String {
    if actor.ends_with(":horizontal-pod-autoscaler") {
        format!("a HorizontalPodAutoscaler ({actor})")
    } else {
        actor.to_string()
    }
}

/// Who changed the replicas, when an audit log that records it says: the latest successful
/// update, patch or scale of the owner (or its Deployment) shortly before the pod went.
fn scale_request<'a>(
    history: &'a History,
    ns: &str,
    owner: &OwnerLink,
    deployment: Option<&str>,
    when: Option<jiff::Timestamp>,
) -> Option<&'a kubewhy_model::history::AuditEntry> {
    let targets: Vec<(&str, &str)> = deployment
        .map(|d| ("deployments", d))
        .into_iter()
        .chain(std::iter::once((plural(&owner.kind), owner.name.as_str())))
        .collect();
    history
        .audit
        .iter()
        .filter(|a| a.namespace == ns && a.succeeded())
        .filter(|a| matches!(a.verb.as_str(), "update" | "patch"))
        .filter(|a| a.subresource.is_empty() || a.subresource == "scale")
        .filter(|a| {
            targets
                .iter()
                .any(|(r, n)| a.resource == *r && a.name == *n)
        })
        // The Deployment controller scaling a ReplicaSet is not who asked.
        .filter(|a| !a.actor().ends_with(":deployment-controller"))
        .filter(|a| match (a.time, when) {
            (Some(t), Some(w)) => (-AFTER..=BEFORE).contains(&(w.as_second() - t.as_second())),
            _ => true,
        })
        .max_by_key(|a| a.time)
}

fn plural(kind: &str) -> &'static str {
    match kind {
        "StatefulSet" => "statefulsets",
        "ReplicationController" => "replicationcontrollers",
        "Job" => "jobs",
        _ => "replicasets",
    }
}
