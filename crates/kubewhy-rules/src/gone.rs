//! `kubewhy gone`: why a pod no longer exists, or why it is being removed. Every source is
//! weighed in one place, strongest first:
//!
//! 1. what the pod said about itself last (the snapshot's pod, or the flight recorder's row):
//!    the `DisruptionTarget` condition, `status.reason` Evicted / Preempting;
//! 2. kube-controller-manager log lines that name the pod (pod GC rules, taint manager);
//! 3. the API server audit log: the first request that deleted or evicted it, and who sent it;
//! 4. what the rest of the data implies: its namespace deleted, its owner deleted (a Job by
//!    its TTL or its CronJob's history limit), its node deleted, a terminated pod force-deleted
//!    without a grace period (the pod GC's threshold rule), events (TaintManagerEviction,
//!    Preempted, Evicted, an owner's "Deleted pod").
//!
//! The answer is a finding with one of the Gone causes, or an honest "cannot tell" that names
//! the source that would.

use crate::disruption::{self, Said};
use crate::podinfo::PodInfo;
use kubewhy_model::history::{
    AuditEntry, ControllerAction, ControllerLogEntry, History, ObjectRecord, OwnerLink, PodRecord,
};
use kubewhy_model::objects::{Event, Pod};
use kubewhy_model::selector::Selector;
use kubewhy_model::{
    Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity, Snapshot,
    Unexplained, merge_findings,
};
use std::collections::BTreeSet;

/// Every cause `gone` can answer with.
pub const CAUSES: &[Cause] = &[
    Cause::ScaledDown,
    Cause::RolloutReplaced,
    Cause::PodGcThreshold,
    Cause::PodGcOrphaned,
    Cause::PodGcUnscheduledTerminating,
    Cause::EvictedNodePressure,
    Cause::EvictedTaint,
    Cause::EvictedApi,
    Cause::Preempted,
    Cause::JobTtlExpired,
    Cause::OwnerDeleted,
    Cause::NamespaceDeleted,
    Cause::DeletedByClient,
];

/// What the user asked about, in one namespace.
#[derive(Debug, Clone)]
pub struct Query {
    pub namespace: String,
    /// One pod by name.
    pub pod: Option<String>,
    /// The pods of an owner: `(kind, name)`, kind as in `ownerReferences` (`Job`,
    /// `ReplicaSet`, `Deployment`, `StatefulSet`, `DaemonSet`, `CronJob`).
    pub owner: Option<(String, String)>,
    /// The pods whose labels match (live pods and recorded ones; audit logs carry no labels).
    pub selector: Option<Selector>,
}

/// The answer for every pod the query names.
#[derive(Debug, Default)]
pub struct Answer {
    pub findings: Vec<Finding>,
    /// Pods the data shows gone (or going) without showing why: what would tell.
    pub unknown: Vec<Unexplained>,
    /// Pods that exist and are not being removed.
    pub alive: Vec<ObjectKey>,
    /// Nothing at all matched the query.
    pub nothing: bool,
}

/// Events every pod gets; the recorder keeps them, the answer does not quote them.
const ROUTINE_EVENTS: &[&str] = &["Scheduled", "Pulling", "Pulled", "Created", "Started"];

const GC_SA: &str = "system:serviceaccount:kube-system:";

/// Everything known about one pod.
struct Facts<'a> {
    key: ObjectKey,
    live: Option<&'a Pod>,
    /// The last known state: the live pod's, or the recorder's row.
    last: Option<PodRecord>,
    recorded: Option<&'a PodRecord>,
    owner: Option<(OwnerLink, String)>,
    audit: Vec<&'a AuditEntry>,
    controller: Vec<&'a ControllerLogEntry>,
    events: Vec<&'a Event>,
}

/// Answers the query from the snapshot and the history.
pub fn explain(snap: &Snapshot, history: &History, q: &Query) -> Answer {
    let names = candidates(snap, history, q);
    let mut answer = Answer {
        nothing: names.is_empty(),
        ..Default::default()
    };
    let mut raw = Vec::new();
    for name in names {
        let facts = gather(snap, history, &q.namespace, &name);
        match judge(snap, history, &facts) {
            Verdict::Alive => answer.alive.push(facts.key.clone()),
            Verdict::Found(f) => raw.push(*f),
            Verdict::Unknown { status, next } => answer.unknown.push(Unexplained {
                object: facts.key.clone(),
                status,
                next,
                reason: String::new(),
            }),
        }
    }
    answer.findings = merge_findings(raw);
    answer
}

/// The names of the pods the query is about, from every source.
fn candidates(snap: &Snapshot, history: &History, q: &Query) -> BTreeSet<String> {
    let ns = q.namespace.as_str();
    let mut out = BTreeSet::new();
    if let Some(p) = &q.pod {
        out.insert(p.clone());
        return out;
    }
    if let Some(sel) = &q.selector {
        out.extend(
            snap.pods
                .iter()
                .filter(|p| p.metadata.ns() == ns && sel.matches(&p.metadata.labels))
                .map(|p| p.metadata.name.to_string()),
        );
        out.extend(
            history
                .pods
                .iter()
                .filter(|r| r.namespace == ns && sel.matches(&r.labels))
                .map(|r| r.name.clone()),
        );
    }
    if let Some((kind, name)) = &q.owner {
        // The owner and what it owns in turn (Deployment → ReplicaSets, CronJob → Jobs).
        let mut owners: Vec<(String, String)> = vec![(kind.clone(), name.clone())];
        let mut i = 0;
        while i < owners.len() && owners.len() < 200 {
            let (ok, on) = owners[i].clone();
            i += 1;
            let child_kind = match ok.as_str() {
                "Deployment" => "ReplicaSet",
                "CronJob" => "Job",
                _ => continue,
            };
            let mut children: BTreeSet<String> = snap
                .workloads
                .iter()
                .filter(|w| w.kind == child_kind && w.metadata.ns() == ns)
                .filter(|w| {
                    w.metadata
                        .controller()
                        .is_some_and(|o| o.kind == ok && o.name == on)
                })
                .map(|w| w.metadata.name.to_string())
                .collect();
            children.extend(
                history
                    .objects
                    .iter()
                    .filter(|o| o.kind == child_kind && o.namespace == ns)
                    .filter(|o| {
                        o.owner
                            .as_ref()
                            .is_some_and(|w| w.kind == ok && w.name == on)
                    })
                    .map(|o| o.name.clone()),
            );
            // The controllers' events name their children: "Created job tick-28312345" on a
            // CronJob, "Scaled up replica set web-79c745d8c8 to 2" on a Deployment.
            for e in &snap.events {
                if e.involved.kind == ok && e.involved.name == on && e.namespace == ns {
                    for marker in [
                        "Created job ",
                        "Deleted job ",
                        "Saw completed job: ",
                        "Scaled up replica set ",
                        "Scaled down replica set ",
                    ] {
                        if let Some(rest) = e.message.strip_prefix(marker) {
                            children.insert(rest.split([',', ' ']).next().unwrap_or("").into());
                        }
                    }
                }
            }
            children.remove("");
            owners.extend(children.into_iter().map(|c| (child_kind.to_string(), c)));
        }
        for (ok, on) in &owners {
            out.extend(
                snap.pods
                    .iter()
                    .filter(|p| p.metadata.ns() == ns)
                    .filter(|p| {
                        p.metadata
                            .controller()
                            .is_some_and(|o| o.kind == *ok && o.name == *on)
                    })
                    .map(|p| p.metadata.name.to_string()),
            );
            out.extend(
                history
                    .pods
                    .iter()
                    .filter(|r| r.namespace == ns)
                    .filter(|r| {
                        r.owner
                            .as_ref()
                            .is_some_and(|o| o.kind == *ok && o.name == *on)
                    })
                    .map(|r| r.name.clone()),
            );
            for e in &snap.events {
                if e.involved.kind == *ok && e.involved.name == *on && e.namespace == ns {
                    for marker in ["Created pod: ", "Deleted pod: "] {
                        if let Some(rest) = e.message.strip_prefix(marker) {
                            out.insert(rest.trim().to_string());
                        }
                    }
                }
            }
            // Audit logs and controller logs carry no owner: pods named as the owner names its
            // pods (`owner-x7k2p`, `owner-0`) stand in.
            if matches!(
                ok.as_str(),
                "Job" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Workflow"
            ) {
                let prefix = format!("{on}-");
                // Argo names a workflow's pods `WF-TEMPLATE-HASH` (v3.4+) or `WF-HASH`.
                let workflow = ok == "Workflow";
                let generated = |n: &str| {
                    n.strip_prefix(&prefix).is_some_and(|rest| {
                        !rest.is_empty()
                            && (workflow || !rest.contains('-'))
                            && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
                    })
                };
                out.extend(
                    history
                        .audit
                        .iter()
                        .filter(|a| a.resource == "pods" && a.namespace == ns && generated(&a.name))
                        .map(|a| a.name.clone()),
                );
                out.extend(
                    history
                        .controller
                        .iter()
                        .filter(|c| c.namespace == ns && generated(&c.name))
                        .map(|c| c.name.clone()),
                );
            }
        }
    }
    out
}

fn gather<'a>(snap: &'a Snapshot, history: &'a History, ns: &str, name: &str) -> Facts<'a> {
    let live = snap
        .pods
        .iter()
        .map(|p| &**p)
        .find(|p| p.metadata.ns() == ns && p.metadata.name == name);
    // The newest recorded pod of that name (a name can be reused).
    let recorded = history
        .pods
        .iter()
        .filter(|r| r.namespace == ns && r.name == name)
        .filter(|r| live.is_none_or(|p| p.metadata.uid != r.uid))
        .max_by_key(|r| r.deleted);
    let last = live.map(PodRecord::from_pod).or_else(|| recorded.cloned());
    let uid = last.as_ref().map(|r| r.uid.clone()).unwrap_or_default();
    let key = ObjectKey::new("Pod", ns, name, &uid);
    let meta = kubewhy_model::objects::Meta {
        name: name.into(),
        namespace: Some(ns.into()),
        uid: uid.as_str().into(),
        ..Default::default()
    };
    let events = snap.events_for("Pod", &meta);
    let mut owner = last
        .as_ref()
        .and_then(|r| r.owner.clone())
        .map(|o| (o, "metadata.ownerReferences".to_string()));
    if owner.is_none() {
        // "Created pod: NAME" on the controller that made it.
        owner = snap
            .events
            .iter()
            .find(|e| {
                e.namespace == ns
                    && e.reason == "SuccessfulCreate"
                    && e.message.strip_prefix("Created pod: ") == Some(name)
            })
            .map(|e| {
                (
                    OwnerLink {
                        kind: e.involved.kind.to_string(),
                        name: e.involved.name.to_string(),
                        uid: e.involved.uid.to_string(),
                    },
                    format!(
                        "{} on {}/{}: {}",
                        e.origin(),
                        e.involved.kind,
                        e.involved.name,
                        e.message
                    ),
                )
            });
    }
    if owner.is_none() {
        // A ReplicaSet or Job names its pods OWNER-<5 random characters>, a StatefulSet
        // OWNER-<ordinal>: an owner of that name in the data is the pod's (the controller's
        // "Created pod" events of a large scale-up are folded into one, naming the last pod).
        owner = name.rsplit_once('-').and_then(|(base, suffix)| {
            let kinds: &[&str] = if suffix.bytes().all(|b| b.is_ascii_digit()) {
                &["StatefulSet"]
            } else if suffix.len() == 5 && suffix.bytes().all(|b| b.is_ascii_alphanumeric()) {
                &["ReplicaSet", "Job"]
            } else {
                &[]
            };
            kinds.iter().find_map(|k| {
                snap.workload(k, ns, base).map(|w| {
                    (
                        OwnerLink {
                            kind: k.to_string(),
                            name: base.to_string(),
                            uid: w.metadata.uid.to_string(),
                        },
                        format!("the pod's name ({k} {base} names its pods {base}-…)"),
                    )
                })
            })
        });
    }
    if owner.is_none() {
        // Argo names a workflow's pods after it (`WORKFLOW-TEMPLATE-HASH`); the longest
        // Workflow name that prefixes the pod's stands in when nothing else names the owner.
        owner = snap
            .workloads
            .iter()
            .filter(|w| w.kind == "Workflow" && w.metadata.ns() == ns)
            .filter(|w| {
                name.strip_prefix(w.metadata.name.as_str())
                    .is_some_and(|rest| rest.len() > 1 && rest.starts_with('-'))
            })
            .max_by_key(|w| w.metadata.name.len())
            .map(|w| {
                (
                    OwnerLink {
                        kind: "Workflow".into(),
                        name: w.metadata.name.to_string(),
                        uid: w.metadata.uid.to_string(),
                    },
                    "the pod's name (Argo names a workflow's pods WORKFLOW-…)".to_string(),
                )
            });
    }
    let audit = history
        .audit
        .iter()
        .filter(|a| {
            a.resource == "pods"
                && a.api_group.is_empty()
                && a.namespace == ns
                && a.name == name
                && a.succeeded()
        })
        .collect();
    let controller = history
        .controller
        .iter()
        .filter(|c| c.namespace == ns && c.name == name)
        .collect();
    let mut f = Facts {
        key,
        live,
        last,
        recorded,
        owner,
        audit,
        controller,
        events,
    };
    // A name is reused (a StatefulSet's pods, a test run again): requests and log lines from
    // before this pod existed were about another pod of that name.
    let audit: Vec<&AuditEntry> = f
        .audit
        .iter()
        .copied()
        .filter(|a| !before_the_pod(snap, &f, a.time))
        .collect();
    let controller: Vec<&ControllerLogEntry> = f
        .controller
        .iter()
        .copied()
        .filter(|c| !before_the_pod(snap, &f, c.time))
        .collect();
    f.audit = audit;
    f.controller = controller;
    f
}

enum Verdict {
    Alive,
    Found(Box<Finding>),
    Unknown { status: String, next: String },
}

/// The first request that removed the pod: the kubelet's final delete (after the grace period)
/// only completes a deletion someone else asked for.
fn initiator<'a>(f: &Facts<'a>) -> Option<&'a AuditEntry> {
    f.audit
        .iter()
        .copied()
        .find(|a| !a.actor().starts_with("system:node:"))
}

/// The Gone cause a controller identity stands for.
fn cause_of_actor(actor: &str) -> Option<Cause> {
    let sa = actor.strip_prefix(GC_SA)?;
    Some(match sa {
        "pod-garbage-collector" => Cause::PodGcThreshold,
        "generic-garbage-collector" => Cause::OwnerDeleted,
        "namespace-controller" => Cause::NamespaceDeleted,
        "ttl-after-finished-controller" | "cronjob-controller" => Cause::JobTtlExpired,
        "node-controller" | "taint-eviction-controller" => Cause::EvictedTaint,
        _ => return None,
    })
}

fn judge(snap: &Snapshot, history: &History, f: &Facts) -> Verdict {
    let key = &f.key;
    let (ns, name) = (key.namespace.as_str(), key.name.as_str());
    let last = f.last.as_ref();
    let marked = f.live.is_some_and(|p| {
        p.metadata.deletion_timestamp.is_some()
            || p.status.reason.as_deref() == Some("Evicted")
            || !last.is_none_or(|r| r.disruption_reason.is_empty())
    });
    if f.live.is_some() && !marked {
        return Verdict::Alive;
    }
    let when = f
        .recorded
        .and_then(|r| r.deleted)
        .or(initiator(f).and_then(|a| a.time))
        .or(f.controller.first().and_then(|c| c.time))
        .or(last.and_then(|r| r.deletion_seen));
    let mut fd = Finding::new(Cause::DeletedByClient, Severity::Info, "").object(key.clone());
    // Evidence: the pod's last state, then each source, in the order they are weighed.
    let state_src = if f.live.is_some() {
        "the pod's status"
    } else {
        "flight recorder: the pod's last status"
    };
    if let Some(r) = last {
        if !r.disruption_reason.is_empty() {
            fd = fd.evidence(
                EvidenceKind::Condition,
                Some(key),
                format!(
                    "{state_src}: conditions[DisruptionTarget] reason={}",
                    r.disruption_reason
                ),
                r.disruption_message.clone(),
            );
        }
        if !r.reason.is_empty() {
            fd = fd.evidence(
                EvidenceKind::Field,
                Some(key),
                format!("{state_src}: phase={} reason={}", r.phase, r.reason),
                r.message.clone(),
            );
        }
        if let Some(rec) = f.recorded {
            let seen = match (rec.deletion_seen, rec.deletion_grace) {
                (Some(t), Some(g)) => {
                    format!("deletion requested at {t} with a {g} s grace period")
                }
                _ => "never seen terminating: deleted at once (grace period 0)".into(),
            };
            fd = fd.evidence(
                EvidenceKind::Field,
                Some(key),
                "flight recorder",
                format!(
                    "phase {} on node {}, owner {}; {seen}; gone at {}{}",
                    if rec.phase.is_empty() {
                        "?"
                    } else {
                        &rec.phase
                    },
                    if rec.node.is_empty() {
                        "(none)"
                    } else {
                        &rec.node
                    },
                    rec.owner
                        .as_ref()
                        .map(|o| format!("{}/{}", o.kind, o.name))
                        .unwrap_or_else(|| "(none)".into()),
                    rec.deleted
                        .map(|t| t.to_string())
                        .unwrap_or_else(|| "?".into()),
                    if rec.deleted_in_gap {
                        " (noticed after a watch gap)"
                    } else {
                        ""
                    }
                ),
            );
            for e in rec
                .events
                .iter()
                .filter(|e| e.type_ == "Warning" || !ROUTINE_EVENTS.contains(&e.reason.as_str()))
                .rev()
                .take(5)
                .collect::<Vec<_>>()
                .into_iter()
                .rev()
            {
                fd = fd.evidence(
                    EvidenceKind::Event,
                    Some(key),
                    format!(
                        "flight recorder: event {} from {} (x{})",
                        e.reason, e.source, e.count
                    ),
                    e.message.clone(),
                );
            }
        }
    }
    for c in &f.controller {
        fd = fd.evidence(
            EvidenceKind::Log,
            Some(key),
            c.origin.clone(),
            c.line.clone(),
        );
    }
    for a in f.audit.iter().take(3) {
        fd = fd.evidence(
            EvidenceKind::Log,
            Some(key),
            format!("audit log {}", a.origin),
            a.describe(),
        );
    }
    let recorded_events = f.recorded.map(|r| r.events.as_slice()).unwrap_or_default();
    for e in f.events.iter().filter(|e| {
        matches!(
            e.reason.as_str(),
            "Evicted" | "Preempted" | "Preempting" | "TaintManagerEviction" | "Killing"
        ) && !recorded_events
            .iter()
            .any(|r| r.reason == e.reason && r.message == e.message)
    }) {
        fd = fd.event(Some(key), e);
    }

    let who = initiator(f).map(|a| a.actor().to_string());
    let rec_or_live_phase = last.map(|r| r.phase.as_str()).unwrap_or("");
    let terminated = matches!(rec_or_live_phase, "Succeeded" | "Failed");
    // The scheduler's event names the node when no last state does (an audit log alone).
    let scheduled = f.events.iter().find(|e| e.reason == "Scheduled");
    let node_from_event = scheduled.and_then(|e| {
        e.message
            .strip_prefix(&format!("Successfully assigned {ns}/{name} to "))
            .map(str::trim)
    });
    let node = last
        .map(|r| r.node.as_str())
        .filter(|n| !n.is_empty())
        .or(node_from_event)
        .unwrap_or("");
    // Gone, or deleted and registered again since the pod was placed on it: a Node object
    // newer than the pod's Scheduled event is not the one the pod was bound to. (Not the pod's
    // creation: a pending pod may land on a node added after it.)
    let bound_since = scheduled.and_then(|e| e.first_time.or(e.last_time));
    let node_gone = !node.is_empty()
        && ((snap.nodes_known()
            && snap.node(node).is_none_or(|n| {
                matches!((n.metadata.creation_timestamp, bound_since), (Some(c), Some(b)) if c > b)
            }))
            || history.objects.iter().any(|o| {
                // The recorder saw that Node deleted while the pod existed (a node of the same
                // name may have registered again since, and later pods run on it).
                o.kind == "Node"
                    && o.name == node
                    && o.deleted.is_none_or(|d| {
                        last.and_then(|r| r.created).is_none_or(|c| d >= c)
                            && f.recorded.and_then(|r| r.deleted).is_none_or(|g| d <= g)
                    })
            }));
    let scheduled_known = if last.is_some() || scheduled.is_some() {
        Some(!node.is_empty())
    } else {
        None
    };
    let node_now = (!node.is_empty()).then(|| snap.node(node)).flatten();
    let gc = GcState {
        scheduled: scheduled_known,
        terminated: (!rec_or_live_phase.is_empty()).then_some(terminated),
        node_gone,
        // The kubelet registers its Node again minutes after it was deleted: one created after
        // the pod went is not the one the pod ran on.
        node_back: !node_gone
            && matches!(
                (node_now.and_then(|n| n.metadata.creation_timestamp), when),
                (Some(c), Some(w)) if c > w
            ),
        node_there: !node_gone
            && node_now.is_some_and(
                |n| !matches!((n.metadata.creation_timestamp, when), (Some(c), Some(w)) if c > w),
            ),
        node,
    };
    let ns_gone = namespace_gone(snap, history, ns);
    let owner_state = f
        .owner
        .as_ref()
        .map(|(o, _)| owner_state(snap, history, ns, o));
    let argo = argo_gc(snap, f);
    let mut by_argo = false;
    let removal = crate::scaledown::Removal {
        ns,
        name,
        owner: f.owner.as_ref().map(|(o, _)| o),
        actor: initiator(f).map(|a| a.actor()),
        recorded: f.recorded.map(|r| r.events.as_slice()).unwrap_or_default(),
        when,
    };

    // Who preempted it, when the data says: the scheduler's event, a nominated pod.
    let said: Vec<Said> = f
        .events
        .iter()
        .map(|e| Said::of(e))
        .chain(
            f.recorded
                .map(|r| r.events.as_slice())
                .unwrap_or_default()
                .iter()
                .map(|e| Said {
                    reason: &e.reason,
                    message: &e.message,
                    source: format!("flight recorder: event {} from {}", e.reason, e.source),
                }),
        )
        .collect();
    let victim_priority = last.and_then(|r| r.priority);
    let victim_class = disruption::class_words(
        last.map(|r| r.priority_class.as_str()).unwrap_or_default(),
        victim_priority,
    );
    let preempted = |fd: &mut Finding, confidence: Confidence| {
        let p = disruption::preemptor(snap, (ns, name), victim_priority, node, &said);
        let summary = match &p {
            Some(p) => {
                if !p.source.starts_with("event ") && !p.source.starts_with("flight recorder") {
                    push(
                        fd,
                        EvidenceKind::Field,
                        None,
                        p.source.clone(),
                        p.quote.clone(),
                    );
                }
                format!(
                    "{} preempted it to make room on node {}; its own priority: {victim_class}",
                    p.describe(),
                    if p.node.is_empty() {
                        node
                    } else {
                        p.node.as_str()
                    }
                )
            }
            None => format!(
                "it was preempted to make room for a higher-priority pod; its own priority: {victim_class}"
            ),
        };
        (Cause::Preempted, summary, confidence)
    };
    // The PodDisruptionBudget an eviction went through: in the data, or seen by the recorder.
    let pdb = disruption::pdb_disrupted(snap, ns, name)
        .map(|(b, at)| {
            (
                format!("PodDisruptionBudget {ns}/{b}: status.disruptedPods"),
                format!("{name}: {at} (the API server granted its eviction then)"),
                b,
            )
        })
        .or_else(|| {
            f.recorded.filter(|r| !r.evicted_under.is_empty()).map(|r| {
                (
                    "flight recorder: a PodDisruptionBudget's status.disruptedPods".to_string(),
                    format!("{name}: {}", r.evicted_under),
                    r.evicted_under
                        .split(' ')
                        .next()
                        .unwrap_or_default()
                        .to_string(),
                )
            })
        });

    // 1. The pod's own last word.
    let mut chosen: Option<(Cause, String, Confidence)> = None;
    if let Some(r) = last {
        let by_target = disruption::target_cause(&r.disruption_reason, &r.disruption_message);
        chosen = match (by_target, r.reason.as_str()) {
            (Some(Cause::Preempted), _) | (_, "Preempting") => {
                Some(preempted(&mut fd, Confidence::High))
            }
            (Some(Cause::EvictedTaint), _) => Some((
                Cause::EvictedTaint,
                format!(
                    "the taint manager evicted it: a NoExecute taint on {node} it did not tolerate"
                ),
                Confidence::High,
            )),
            (Some(Cause::EvictedApi), _) => Some((
                Cause::EvictedApi,
                "it was evicted through the Eviction API".into(),
                Confidence::High,
            )),
            (Some(Cause::PodGcOrphaned), _) => Some((
                Cause::PodGcOrphaned,
                format!("the pod garbage collector deleted it: its node {node} no longer exists"),
                Confidence::High,
            )),
            (Some(Cause::EvictedNodePressure), _) | (_, "Evicted") => Some((
                Cause::EvictedNodePressure,
                format!("the kubelet on {node} evicted it: the node was short of a resource"),
                Confidence::High,
            )),
            _ => None,
        };
    }
    if chosen.is_none()
        && let Some((source, quote, budget)) = &pdb
    {
        push(
            &mut fd,
            EvidenceKind::Field,
            Some(key),
            source.clone(),
            quote.clone(),
        );
        chosen = Some((
            Cause::EvictedApi,
            format!("it was evicted through the Eviction API, under PodDisruptionBudget {budget}"),
            Confidence::High,
        ));
    }
    // 2. The controller-manager's own words.
    if chosen.is_none()
        && let Some(c) = f.controller.first()
    {
        chosen = Some(match c.action {
            ControllerAction::GcTerminated => (Cause::PodGcThreshold, "the pod garbage collector deleted it: one of the oldest terminated pods over --terminated-pod-gc-threshold".into(), Confidence::High),
            ControllerAction::GcOrphaned => (Cause::PodGcOrphaned, format!("the pod garbage collector deleted it: its node {} no longer exists", c.node.as_deref().unwrap_or(node)), Confidence::High),
            ControllerAction::GcUnscheduledTerminating => (Cause::PodGcUnscheduledTerminating, "the pod garbage collector deleted it: it was terminating and never scheduled".into(), Confidence::High),
            ControllerAction::TaintEviction => (Cause::EvictedTaint, format!("the taint manager deleted it: a NoExecute taint on {node} it did not tolerate"), Confidence::High),
            ControllerAction::GcForceDelete => gc_rule(&gc, Confidence::Medium),
        });
    }
    // 3. The audit log: who asked.
    if chosen.is_none()
        && let Some(a) = initiator(f)
    {
        let actor = a.actor();
        chosen =
            Some(if actor == disruption::SCHEDULER_USER {
                preempted(&mut fd, Confidence::High)
            } else if a.subresource == "eviction" {
                (
                    Cause::EvictedApi,
                    format!("{actor} evicted it through the Eviction API"),
                    Confidence::High,
                )
            } else if kubewhy_model::messages::controller::WORKLOAD_CONTROLLERS.contains(&actor) {
                crate::scaledown::judge(snap, history, &removal, &mut fd).unwrap_or((
                    Cause::DeletedByClient,
                    format!("{actor} deleted it"),
                    Confidence::High,
                ))
            } else {
                match cause_of_actor(actor) {
                Some(Cause::PodGcThreshold) => gc_rule(&gc, Confidence::High),
                Some(Cause::OwnerDeleted) => {
                    owner_cause(snap, history, f, &mut fd, owner_state.as_ref(), Confidence::High)
                }
                Some(Cause::NamespaceDeleted) => (
                    Cause::NamespaceDeleted,
                    format!(
                        "the namespace controller deleted it: namespace {ns} was being deleted"
                    ),
                    Confidence::High,
                ),
                Some(Cause::JobTtlExpired) => (
                    Cause::JobTtlExpired,
                    format!("{actor} removed it with its Job"),
                    Confidence::High,
                ),
                Some(Cause::EvictedTaint) => (
                    Cause::EvictedTaint,
                    "the node lifecycle controller's taint manager deleted it (NoExecute taint)"
                        .into(),
                    Confidence::High,
                ),
                _ => match argo.as_ref().filter(|g| g.applies != Some(false)) {
                    // A pod of an Argo Workflow whose pod GC covers it, deleted by a service
                    // account: the workflow controller's, when it is named like it.
                    Some(g) if actor.starts_with("system:serviceaccount:") => {
                        by_argo = true;
                        let named = actor.contains("argo") || actor.contains("workflow");
                        (
                            Cause::DeletedByClient,
                            format!(
                                "the Argo workflow controller ({actor}) deleted it: {}",
                                g.why
                            ),
                            if named {
                                Confidence::High
                            } else {
                                Confidence::Medium
                            },
                        )
                    }
                    _ => (
                        Cause::DeletedByClient,
                        format!("{actor} deleted it"),
                        Confidence::High,
                    ),
                },
            }
            });
    }
    // A namespace deletion names itself in the audit log even when the pods' deletions are not
    // — one of this pod's namespace: not before the pod existed, nor before the namespace of
    // that name that exists now was created (a namespace deleted and made again).
    let earlier = |t: Option<jiff::Timestamp>| before_the_pod(snap, f, t);
    if chosen.is_none()
        && let Some(a) = history.audit.iter().find(|a| {
            a.resource == "namespaces"
                && a.name == ns
                && a.verb == "delete"
                && a.succeeded()
                && !earlier(a.time)
        })
    {
        fd = fd.evidence(
            EvidenceKind::Log,
            None,
            format!("audit log {}", a.origin),
            a.describe(),
        );
        chosen = Some((
            Cause::NamespaceDeleted,
            format!("its namespace was deleted by {}", a.actor()),
            Confidence::High,
        ));
    }
    // 4. What the rest implies: an Argo Workflow's pod GC, then the rest.
    if chosen.is_none()
        && !matches!(
            owner_state,
            Some(OwnerState::Deleting | OwnerState::Deleted(_))
        )
        && ns_gone.is_none()
        && let Some(g) = argo.as_ref().filter(|g| g.applies != Some(false))
    {
        by_argo = true;
        chosen = Some((
            Cause::DeletedByClient,
            format!("the Argo workflow controller deleted it: {}", g.why),
            if g.applies == Some(true) {
                Confidence::Medium
            } else {
                Confidence::Low
            },
        ));
    }
    // The scheduler's event on its victim.
    if chosen.is_none()
        && said
            .iter()
            .any(|e| e.reason == "Preempted" && e.message.contains("Preempted by"))
    {
        chosen = Some(preempted(&mut fd, Confidence::High));
    }
    // Its own controller removed it: scaled down, or replaced by a rollout (not when the owner
    // itself went: the garbage collector took its pods).
    if chosen.is_none()
        && !matches!(
            owner_state,
            Some(OwnerState::Deleting | OwnerState::Deleted(_))
        )
        && ns_gone.is_none()
    {
        chosen = crate::scaledown::judge(snap, history, &removal, &mut fd);
    }
    // An audit log that records pod deletions, and none of this one by a client.
    if chosen.is_none()
        && let Some((quote, confidence)) = eviction_by_absence(snap, history, f)
    {
        push(
            &mut fd,
            EvidenceKind::Absence,
            Some(key),
            "audit log",
            quote,
        );
        if let Some(e) = replacement(snap, f) {
            let owner = ObjectKey::new(
                &e.involved.kind,
                &e.namespace,
                &e.involved.name,
                &e.involved.uid,
            );
            fd = fd.event(Some(&owner), e);
        }
        chosen = Some((
            Cause::EvictedApi,
            "it was deleted gracefully and no client's delete request for it is in an audit log that records them: it was evicted through the Eviction API (drain, descheduler, autoscaler), which that audit policy does not record".into(),
            confidence,
        ));
    }
    if chosen.is_none() {
        chosen = implied(
            snap,
            history,
            f,
            &mut fd,
            terminated,
            node_gone,
            node,
            ns_gone,
            owner_state.as_ref(),
        );
    }
    // "A client deleted it, who is unknown" — unless a higher-priority pod was nominated to its
    // node: the scheduler cleared room there.
    let unknown_client = chosen.as_ref().is_none_or(|(c, _, conf)| {
        *c == Cause::DeletedByClient && *conf == Confidence::Low && !by_argo
    });
    if unknown_client
        && !node.is_empty()
        && disruption::preemptor(snap, (ns, name), victim_priority, node, &[]).is_some()
    {
        chosen = Some(preempted(&mut fd, Confidence::Medium));
    }
    let Some((cause, summary, confidence)) = chosen else {
        let status = if let Some(p) = f.live {
            PodInfo::new(p).status_column()
        } else if f.recorded.is_some() || !f.audit.is_empty() {
            "gone; cause unknown".into()
        } else {
            "not found".into()
        };
        return Verdict::Unknown {
            status,
            next: what_would_tell(history, f),
        };
    };
    if let Some((o, origin)) = &f.owner {
        fd = fd.evidence(
            EvidenceKind::Field,
            Some(key),
            origin.clone(),
            format!(
                "owner {}/{}{}",
                o.kind,
                o.name,
                match &owner_state {
                    Some(OwnerState::Exists) => " (exists)",
                    Some(OwnerState::Deleting) => " (being deleted)",
                    Some(OwnerState::Deleted(_)) => " (deleted)",
                    _ => "",
                }
            ),
        );
    }
    if let Some(g) = &argo {
        fd = fd.evidence(
            EvidenceKind::Field,
            Some(&g.workflow),
            "spec.podGC, status.phase",
            format!("{}; {}", g.spec, g.why),
        );
    }
    let going = f.live.is_some();
    let verb = if going { "is being removed" } else { "is gone" };
    let at = when.map(|t| format!(" (at {t})")).unwrap_or_default();
    fd.summary = format!("Pod {ns}/{name} {verb}: {summary}{at}");
    fd.cause = cause;
    fd.code = cause.code();
    fd.confidence = confidence;
    fd.severity = if matches!(
        cause,
        Cause::EvictedNodePressure | Cause::EvictedTaint | Cause::Preempted
    ) {
        Severity::Warning
    } else {
        Severity::Info
    };
    fd.group_key = format!("gone|{}|{}", who.clone().unwrap_or_default(), summary);
    fd = if by_argo {
        fd.explain("Argo Workflows deletes a workflow's pods itself when the Workflow's spec.podGC says so (OnPodCompletion, OnPodSuccess, OnWorkflowCompletion, OnWorkflowSuccess, optionally after deleteDelayDuration and only the pods its labelSelector matches); their logs go with them unless the workflow archives them.")
            .step(
                "Keep failed pods for their logs: strategy OnPodSuccess or OnWorkflowSuccess, a deleteDelayDuration, or archiveLogs",
                argo.as_ref().map(|g| format!("kubectl get workflow {} -n {ns} -o jsonpath='{{.spec.podGC}}'", g.workflow.name)),
                RiskLevel::Low,
                "",
            )
            .step("What this cause means", Some(format!("kubewhy explain {}", cause.slug())), RiskLevel::None, "")
    } else {
        advise(fd, cause, ns, node, who.as_deref())
    };
    if matches!(
        cause,
        Cause::PodGcThreshold | Cause::PodGcOrphaned | Cause::PodGcUnscheduledTerminating
    ) && confidence != Confidence::High
    {
        fd = fd.step(gc_settle(ns, name, node), None, RiskLevel::None, "");
    }
    Verdict::Found(Box::new(fd))
}

/// What tells the pod garbage collector's rules apart, from the pod's last state and the
/// cluster now.
struct GcState<'a> {
    /// Whether it was bound to a node, when the data shows it.
    scheduled: Option<bool>,
    /// Whether it had terminated (Succeeded / Failed), when its last phase is known.
    terminated: Option<bool>,
    /// Its node no longer exists (or was deleted while the pod was bound).
    node_gone: bool,
    /// A Node of that name registered after the pod went: the one it ran on was deleted.
    node_back: bool,
    /// The Node it was bound to is in the data, the same object.
    node_there: bool,
    node: &'a str,
}

/// Which pod GC rule deleted the pod: only on evidence that separates the rules; else the
/// likeliest at low confidence, with what would settle it.
fn gc_rule(g: &GcState, c: Confidence) -> (Cause, String, Confidence) {
    let node = g.node;
    if g.node_gone || (g.node_back && g.terminated != Some(true)) {
        return (
            Cause::PodGcOrphaned,
            format!("the pod garbage collector deleted it: its node {node} no longer existed"),
            c,
        );
    }
    if g.scheduled == Some(false) {
        return (
            Cause::PodGcUnscheduledTerminating,
            "the pod garbage collector deleted it: it was terminating and never scheduled".into(),
            c,
        );
    }
    match g.terminated {
        Some(true) => (
            Cause::PodGcThreshold,
            "the pod garbage collector deleted it: one of the oldest terminated pods over --terminated-pod-gc-threshold".into(),
            if g.node_there || g.scheduled.is_none() && !g.node_back {
                c
            } else {
                Confidence::Medium
            },
        ),
        // Not terminated, bound to a node that is there: the threshold rule takes only
        // terminated pods and the unscheduled one only unbound pods; what is left is its node
        // deleted and registered again in between.
        Some(false) => (
            Cause::PodGcOrphaned,
            format!(
                "the pod garbage collector deleted a pod that had not terminated, on node {node}: of its rules only the orphan one fits (the Node object deleted and registered again)"
            ),
            Confidence::Low,
        ),
        None if g.scheduled == Some(true) && g.node_there => (
            Cause::PodGcThreshold,
            format!("the pod garbage collector deleted it: bound to node {node}, which still exists, so of its rules only the one on terminated pods over --terminated-pod-gc-threshold fits"),
            Confidence::Medium,
        ),
        None => (
            Cause::PodGcThreshold,
            "the pod garbage collector deleted it; the data does not show which of its rules (terminated pods over the threshold, its node gone, or never scheduled)".into(),
            Confidence::Low,
        ),
    }
}

/// The sources that would tell the pod GC's rules apart, for a verdict that could not.
fn gc_settle(ns: &str, name: &str, node: &str) -> String {
    let node = if node.is_empty() {
        "its node".to_string()
    } else {
        format!("node {node}")
    };
    format!(
        "Which rule: kube-controller-manager's log line after the deletion (`grep {ns}/{name}` in it: \"Forced deletion of orphaned Pod\" or \"… unscheduled terminating Pod\" name their rule, a \"garbage collecting N pods\" batch the threshold), the pod's last phase (`kubewhy watch --record`), and whether {node} existed then"
    )
}

enum OwnerState {
    Exists,
    Deleting,
    Deleted(Option<Box<ObjectRecord>>),
    Unknown,
}

fn owner_state(snap: &Snapshot, history: &History, ns: &str, o: &OwnerLink) -> OwnerState {
    if let Some(w) = snap.workload(&o.kind, ns, &o.name)
        && (o.uid.is_empty() || w.metadata.uid == o.uid)
    {
        return if w.metadata.deletion_timestamp.is_some() {
            OwnerState::Deleting
        } else {
            OwnerState::Exists
        };
    }
    let rec = history.objects.iter().rev().find(|r| {
        r.kind == o.kind
            && r.namespace == ns
            && r.name == o.name
            && (o.uid.is_empty() || r.uid == o.uid)
    });
    if let Some(r) = rec {
        return OwnerState::Deleted(Some(Box::new(r.clone())));
    }
    if snap.kinds_loaded.contains_key(&o.kind) {
        OwnerState::Deleted(None)
    } else {
        OwnerState::Unknown
    }
}

/// When the recorder saw the pod go (outside a watch gap) clearly before its Job's
/// `ttlSecondsAfterFinished` ran out: the pod's deletion time, the expiry and the Job's name.
/// Two seconds of slack cover whole-second condition times and the recorder's clock.
fn gone_before_ttl(
    f: &Facts,
    job: &ObjectRecord,
) -> Option<(jiff::Timestamp, jiff::Timestamp, String)> {
    let r = f.recorded.filter(|r| !r.deleted_in_gap)?;
    let gone = r.deleted?;
    if job.kind != "Job" {
        return None;
    }
    let expiry = job.ttl_expiry()?;
    (gone + jiff::SignedDuration::from_secs(2) < expiry).then(|| (gone, expiry, job.name.clone()))
}

/// Owner deleted: a Job's TTL or its CronJob's history limit, or a plain cascade.
fn owner_cause(
    snap: &Snapshot,
    history: &History,
    f: &Facts,
    fd: &mut Finding,
    state: Option<&OwnerState>,
    c: Confidence,
) -> (Cause, String, Confidence) {
    let Some((o, _)) = &f.owner else {
        return (
            Cause::OwnerDeleted,
            "the garbage collector deleted it after its owner was deleted".into(),
            c,
        );
    };
    if o.kind == "Job"
        && let Some(OwnerState::Deleted(Some(r))) = state
    {
        if let Some(cj) = r.owner.as_ref().filter(|w| w.kind == "CronJob") {
            return (
                Cause::JobTtlExpired,
                format!(
                    "CronJob {}'s history limit removed its Job {}, and the pod with it",
                    cj.name, o.name
                ),
                c,
            );
        }
        if let (Some(ttl), Some(expiry), Some(gone)) =
            (r.ttl_seconds_after_finished, r.ttl_expiry(), r.deleted)
            && gone >= expiry
        {
            return (
                Cause::JobTtlExpired,
                format!(
                    "its Job {} expired {ttl} s after finishing (ttlSecondsAfterFinished), and the pod went with it",
                    o.name
                ),
                c,
            );
        }
    }
    let ns = f.key.namespace.as_str();
    // An audit policy that records Job deletions names who deleted the Job.
    if o.kind == "Job"
        && let Some(a) = history.audit.iter().find(|a| {
            a.resource == "jobs"
                && a.api_group == "batch"
                && a.namespace == ns
                && a.name == o.name
                && a.verb == "delete"
                && a.succeeded()
        })
    {
        push(
            fd,
            EvidenceKind::Log,
            None,
            format!("audit log {}", a.origin),
            a.describe(),
        );
        let actor = a.actor();
        return match actor.strip_prefix(GC_SA) {
            Some("ttl-after-finished-controller") => (
                Cause::JobTtlExpired,
                format!(
                    "its Job {} expired: the TTL-after-finished controller deleted it (ttlSecondsAfterFinished), and the pod went with it",
                    o.name
                ),
                Confidence::High,
            ),
            Some("cronjob-controller") => (
                Cause::JobTtlExpired,
                format!(
                    "the CronJob controller deleted its Job {} (history limit), and the pod went with it",
                    o.name
                ),
                Confidence::High,
            ),
            _ => (
                Cause::OwnerDeleted,
                format!(
                    "{actor} deleted its Job {}, and the garbage collector deleted the pod",
                    o.name
                ),
                Confidence::High,
            ),
        };
    }
    if o.kind == "Job" && matches!(state, Some(OwnerState::Deleting | OwnerState::Deleted(_))) {
        // A CronJob's "Deleted job NAME" names the history limit.
        if let Some(e) = snap.events.iter().find(|e| {
            e.namespace == ns
                && e.involved.kind == "CronJob"
                && e.message == format!("Deleted job {}", o.name)
        }) {
            push(
                fd,
                EvidenceKind::Event,
                Some(&ObjectKey::new(
                    "CronJob",
                    ns,
                    &e.involved.name,
                    &e.involved.uid,
                )),
                e.origin(),
                e.message.clone(),
            );
            return (
                Cause::JobTtlExpired,
                format!(
                    "CronJob {}'s history limit removed its Job {}, and the pod with it",
                    e.involved.name, o.name
                ),
                Confidence::High,
            );
        }
        // The CronJob controller names its Jobs CRONJOB-<scheduled time in minutes>; the
        // CronJob is still there (its event may not be).
        if let Some((cj_name, stamp)) = o.name.rsplit_once('-')
            && stamp.len() >= 8
            && stamp.bytes().all(|b| b.is_ascii_digit())
            && let Some(cj) = snap.workload("CronJob", ns, cj_name)
        {
            push(
                fd,
                EvidenceKind::Field,
                Some(&ObjectKey::of("CronJob", &cj.metadata)),
                "spec.successfulJobsHistoryLimit, spec.failedJobsHistoryLimit",
                format!(
                    "CronJob {cj_name} names its Jobs {cj_name}-<scheduled minute>; it keeps {} succeeded and {} failed Jobs",
                    cj.spec.successful_jobs_history_limit.unwrap_or(3),
                    cj.spec.failed_jobs_history_limit.unwrap_or(1)
                ),
            );
            return (
                Cause::JobTtlExpired,
                format!(
                    "CronJob {cj_name}'s history limit most likely removed its Job {}, and the pod with it",
                    o.name
                ),
                Confidence::Medium,
            );
        }
    }
    (
        Cause::OwnerDeleted,
        format!(
            "the garbage collector deleted it after its owner {}/{} was deleted",
            o.kind, o.name
        ),
        c,
    )
}

/// What Argo Workflows' pod GC says about a pod its Workflow owns.
struct ArgoGc {
    workflow: ObjectKey,
    /// `spec.podGC` as found, for evidence.
    spec: String,
    /// Does the strategy cover this pod (None: the pod's last phase is unknown)?
    applies: Option<bool>,
    why: String,
}

/// The pod's owner is an Argo Workflow in the data: whether its `spec.podGC` deletes the pod.
fn argo_gc(snap: &Snapshot, f: &Facts) -> Option<ArgoGc> {
    let (o, _) = f.owner.as_ref().filter(|(o, _)| o.kind == "Workflow")?;
    let ns = f.key.namespace.as_str();
    let wf = snap.workload("Workflow", ns, &o.name)?;
    let workflow = ObjectKey::of("Workflow", &wf.metadata);
    let wf_phase = wf.status.phase.as_str();
    let wf_shown = if wf_phase.is_empty() { "?" } else { wf_phase };
    let Some(gc) = wf.spec.pod_gc.as_ref().filter(|g| !g.strategy.is_empty()) else {
        return Some(ArgoGc {
            workflow,
            spec: "no spec.podGC".into(),
            applies: Some(false),
            why: format!(
                "Workflow {} has no spec.podGC: the Argo workflow controller does not delete its pods",
                o.name
            ),
        });
    };
    let mut spec = format!("spec.podGC.strategy={}", gc.strategy);
    if !gc.delete_delay_duration.is_empty() {
        spec.push_str(&format!(
            " deleteDelayDuration={}",
            gc.delete_delay_duration
        ));
    }
    if gc.label_selector.is_some() {
        spec.push_str(" (with a labelSelector)");
    }
    let phase = f
        .last
        .as_ref()
        .map(|r| r.phase.as_str())
        .filter(|p| !p.is_empty());
    let (applies, moment) = match gc.strategy.as_str() {
        "OnPodCompletion" => (
            phase.map(|p| matches!(p, "Succeeded" | "Failed")),
            format!(
                "when each pod completes (this one: {})",
                phase.unwrap_or("phase unknown")
            ),
        ),
        "OnPodSuccess" => (
            phase.map(|p| p == "Succeeded"),
            format!(
                "when each pod succeeds (this one: {})",
                phase.unwrap_or("phase unknown")
            ),
        ),
        "OnWorkflowCompletion" => (
            Some(matches!(wf_phase, "Succeeded" | "Failed" | "Error")),
            format!("when the workflow completes (it is {})", wf_shown),
        ),
        "OnWorkflowSuccess" => (
            Some(wf_phase == "Succeeded"),
            format!("when the workflow succeeds (it is {})", wf_shown),
        ),
        other => (None, format!("strategy {other} is not one kubewhy knows")),
    };
    let labelled_out = match (&gc.label_selector, f.last.as_ref()) {
        (Some(sel), Some(r)) => !sel.matches(&r.labels),
        _ => false,
    };
    let applies = if labelled_out { Some(false) } else { applies };
    let why = match applies {
        Some(true) => format!("Workflow {}'s pod GC deletes its pods {moment}", o.name),
        Some(false) if labelled_out => format!(
            "Workflow {}'s pod GC only deletes pods its labelSelector matches, and this pod's labels do not",
            o.name
        ),
        Some(false) => format!(
            "Workflow {}'s pod GC deletes its pods {moment}: not this pod, not yet",
            o.name
        ),
        None => format!("Workflow {}'s pod GC deletes its pods {moment}", o.name),
    };
    Some(ArgoGc {
        workflow,
        spec,
        applies,
        why,
    })
}

#[allow(clippy::too_many_arguments)]
fn implied(
    snap: &Snapshot,
    history: &History,
    f: &Facts,
    fd: &mut Finding,
    terminated: bool,
    node_gone: bool,
    node: &str,
    ns_gone: Option<String>,
    owner: Option<&OwnerState>,
) -> Option<(Cause, String, Confidence)> {
    let key = &f.key;
    let ns = key.namespace.as_str();
    // Events that name the act.
    if f.events.iter().any(|e| {
        e.reason == "TaintManagerEviction" && e.message.starts_with("Marking for deletion")
    }) {
        return Some((
            Cause::EvictedTaint,
            format!("the taint manager marked it for deletion: a NoExecute taint on {node}"),
            Confidence::High,
        ));
    }
    if let Some(why) = ns_gone {
        push(
            fd,
            EvidenceKind::Absence,
            None,
            format!("namespace {ns}"),
            why.clone(),
        );
        return Some((
            Cause::NamespaceDeleted,
            format!("its namespace {ns} {why}"),
            Confidence::High,
        ));
    }
    // A pod the recorder saw go before its Job's TTL ran out did not go with the Job (the pod
    // GC takes the oldest terminated pods, a finished Job's among them).
    let before_ttl = match owner {
        Some(OwnerState::Deleted(Some(r))) => gone_before_ttl(f, r),
        _ => None,
    };
    if let Some((gone, expiry, job)) = &before_ttl {
        push(
            fd,
            EvidenceKind::Field,
            Some(key),
            "flight recorder: the pod's deletion, its Job's completion and ttlSecondsAfterFinished",
            format!(
                "gone at {gone}, before Job {job}'s TTL expired at {expiry}: not removed with its Job"
            ),
        );
    }
    if let Some(owner_state) = owner
        && matches!(owner_state, OwnerState::Deleting | OwnerState::Deleted(_))
        && before_ttl.is_none()
    {
        return Some(owner_cause(
            snap,
            history,
            f,
            fd,
            Some(owner_state),
            Confidence::Medium,
        ));
    }
    if node_gone {
        push(
            fd,
            EvidenceKind::Absence,
            None,
            format!("node {node}"),
            "the Node object no longer exists",
        );
        return Some((
            Cause::PodGcOrphaned,
            format!("the pod garbage collector deletes pods whose node {node} no longer exists"),
            Confidence::Medium,
        ));
    }
    if let Some(r) = f.recorded {
        if r.deletion_seen.is_none() || r.deletion_grace == Some(0) {
            if terminated {
                return Some((Cause::PodGcThreshold, "a terminated pod deleted at once, without a grace period: how the pod garbage collector removes terminated pods over its threshold".into(), Confidence::Medium));
            }
            if r.node.is_empty() {
                return Some((Cause::PodGcUnscheduledTerminating, "never scheduled and deleted at once: how the pod garbage collector removes unscheduled terminating pods".into(), Confidence::Medium));
            }
        }
        if let Some(g) = r.deletion_grace.filter(|g| *g > 0) {
            return Some((
                Cause::DeletedByClient,
                format!(
                    "a client deleted it with a {g} s grace period (no controller rule explains it; an audit log would name who)"
                ),
                Confidence::Low,
            ));
        }
    }
    if let Some(p) = f.live
        && let Some(t) = p.metadata.deletion_timestamp
    {
        push(
            fd,
            EvidenceKind::Field,
            Some(key),
            "metadata.deletionTimestamp, spec.nodeName",
            format!(
                "deletionTimestamp {t} (grace {} s); nodeName {}",
                p.metadata.deletion_grace_period_seconds.unwrap_or(0),
                p.spec.node_name.as_deref().unwrap_or("unset")
            ),
        );
    }
    if let Some(p) = f.live
        && p.metadata.deletion_timestamp.is_some()
        && p.spec.node_name.is_none()
    {
        return Some((Cause::PodGcUnscheduledTerminating, "it is terminating and was never scheduled: the pod garbage collector deletes such pods within 20 s".into(), Confidence::High));
    }
    if let Some(p) = f.live
        && let Some(g) = p
            .metadata
            .deletion_grace_period_seconds
            .filter(|_| p.metadata.deletion_timestamp.is_some())
    {
        return Some((
            Cause::DeletedByClient,
            format!(
                "a client asked to delete it with a {g} s grace period (no controller rule explains it; an audit log would name who)"
            ),
            Confidence::Low,
        ));
    }
    None
}

/// The deletion came through the Eviction API, shown by absence: the audit log records pod
/// deletions (the kubelet's final delete of this very pod, or others'), covers the moment it
/// was deleted, and holds no request from a client that deleted it — yet it was deleted with a
/// grace period. The quote, and the confidence.
fn eviction_by_absence(
    snap: &Snapshot,
    history: &History,
    f: &Facts,
) -> Option<(String, Confidence)> {
    if initiator(f).is_some() || !history.sources.iter().any(|s| s == "audit log") {
        return None;
    }
    let deletes = history
        .audit
        .iter()
        .filter(|a| a.resource == "pods" && a.subresource.is_empty() && a.verb == "delete")
        .count();
    // A deletecollection names no pod: one in the pod's namespace, since the pod existed, may
    // have been it.
    let collection = history.audit.iter().any(|a| {
        a.resource == "pods"
            && a.verb == "deletecollection"
            && a.namespace == f.key.namespace
            && !before_the_pod(snap, f, a.time)
    });
    if deletes == 0 || collection {
        return None;
    }
    // Graceful: the kubelet's final delete (only a graceful deletion leaves it one), a grace
    // period on the pod, or its Killing event.
    let kubelet = f
        .audit
        .iter()
        .find(|a| a.actor().starts_with("system:node:"));
    let grace = f
        .live
        .and_then(|p| p.metadata.deletion_grace_period_seconds)
        .or(f.recorded.and_then(|r| r.deletion_grace))
        .filter(|g| *g > 0);
    let killing = f.events.iter().any(|e| e.reason == "Killing");
    if kubelet.is_none() && grace.is_none() && !killing {
        return None;
    }
    let began = deletion_began(f);
    let from = history.audit.iter().filter_map(|a| a.time).min();
    let to = history.audit.iter().filter_map(|a| a.time).max();
    // Only a log that covers the moment can show absence.
    if !matches!((from, began), (Some(a), Some(b)) if a <= b) {
        return None;
    }
    let span = match (from, to) {
        (Some(a), Some(b)) => format!(" from {a} to {b}"),
        _ => String::new(),
    };
    let how = match (kubelet, grace) {
        (Some(k), _) => format!(
            "only the kubelet's final delete ({}), which follows a graceful deletion",
            k.actor()
        ),
        (None, Some(g)) => format!("the pod was deleted with a {g} s grace period"),
        (None, None) => "the kubelet stopped its containers (Killing)".into(),
    };
    Some((
        format!("{deletes} pod deletion(s) recorded{span}; none of this pod by a client, {how}"),
        Confidence::Medium,
    ))
}

/// Whether a moment is before this pod existed, or before the namespace of its name that
/// exists now was created: a request then (a namespace deleted and made again, with its pods)
/// was about something else.
fn before_the_pod(snap: &Snapshot, f: &Facts, t: Option<jiff::Timestamp>) -> bool {
    let Some(t) = t else {
        return false;
    };
    let pod_born = f.last.as_ref().and_then(|r| r.created).or_else(|| {
        f.events
            .iter()
            .filter_map(|e| e.first_time.or(e.last_time))
            .min()
    });
    let ns_born = snap
        .namespace(&f.key.namespace)
        .and_then(|n| n.metadata.creation_timestamp);
    pod_born.is_some_and(|b| t < b) || ns_born.is_some_and(|c| t < c)
}

/// When the pod's deletion began: the recorder saw it, the live pod's deadline less its grace
/// period, its Killing event.
fn deletion_began(f: &Facts) -> Option<jiff::Timestamp> {
    f.recorded
        .and_then(|r| r.deletion_seen)
        .or_else(|| {
            let p = f.live?;
            let end = p.metadata.deletion_timestamp?;
            Some(
                end - jiff::SignedDuration::from_secs(
                    p.metadata.deletion_grace_period_seconds.unwrap_or(0),
                ),
            )
        })
        .or_else(|| {
            f.events
                .iter()
                .find(|e| e.reason == "Killing")
                .and_then(|e| e.first_time.or(e.last_time))
        })
}

/// The owner's replacement for the pod, created as it was being deleted: what a controller does
/// after an eviction (or any deletion), for evidence.
fn replacement<'a>(snap: &'a Snapshot, f: &Facts) -> Option<&'a Event> {
    let (o, _) = f.owner.as_ref()?;
    let began = deletion_began(f)?;
    snap.events.iter().map(|e| &**e).find(|e| {
        e.reason == "SuccessfulCreate"
            && e.involved.kind == o.kind
            && e.involved.name == o.name
            && e.namespace == f.key.namespace
            && e.message.strip_prefix("Created pod: ") != Some(f.key.name.as_str())
            && e.first_time
                .or(e.last_time)
                .is_some_and(|t| (t.as_second() - began.as_second()).abs() <= 30)
    })
}

fn push(
    fd: &mut Finding,
    kind: EvidenceKind,
    object: Option<&ObjectKey>,
    source: impl Into<String>,
    quote: impl Into<String>,
) {
    fd.evidence.push(kubewhy_model::Evidence {
        kind,
        object: object.cloned(),
        source: source.into(),
        quote: quote.into(),
        occurrences: 1,
    });
}

/// Why the namespace counts as deleted, when it does.
fn namespace_gone(snap: &Snapshot, history: &History, ns: &str) -> Option<String> {
    if let Some(n) = snap.namespace(ns) {
        return n
            .metadata
            .deletion_timestamp
            .map(|t| format!("is being deleted (since {t})"));
    }
    if let Some(r) = history
        .objects
        .iter()
        .rev()
        .find(|o| o.kind == "Namespace" && o.name == ns)
    {
        return Some(format!(
            "was deleted{}",
            r.deleted.map(|t| format!(" (at {t})")).unwrap_or_default()
        ));
    }
    (snap.kinds_loaded.get("Namespace").copied().unwrap_or(0) > 0)
        .then(|| "no longer exists".to_string())
}

/// The source that would settle a question the data cannot answer.
fn what_would_tell(history: &History, f: &Facts) -> String {
    let has = |s: &str| history.sources.iter().any(|x| x == s);
    let mut want = Vec::new();
    if !has("audit log") {
        want.push("the API server audit log (--audit-log FILE) names who deleted it and when");
    } else if f.audit.is_empty() {
        want.push("the audit log has no deletion of this pod: check its policy records delete on pods (and create on pods/eviction) at Metadata level, and that it covers the time");
    }
    if !has("flight recorder") {
        want.push("`kubewhy watch --record DB` keeps every deleted pod's last status and events for `kubewhy gone --record DB`");
    }
    if !has("controller log") {
        want.push("kube-controller-manager's log (--controller-logs FILE) names the pods the pod GC and the taint manager delete");
    }
    want.join("; ")
}

/// Next steps, per cause.
fn advise(f: Finding, cause: Cause, ns: &str, node: &str, who: Option<&str>) -> Finding {
    let page = format!("kubewhy explain {}", cause.slug());
    match cause {
        Cause::PodGcThreshold => f
            .explain("kube-controller-manager's pod garbage collector keeps at most --terminated-pod-gc-threshold terminated (Succeeded or Failed) pods cluster-wide (12500 by default) and deletes the oldest beyond that, with their logs.")
            .step("See how close the cluster is to the threshold now, and which pods go next", Some("kubewhy scan -A".into()), RiskLevel::None, "")
            .step("Collect logs of finished pods that matter before the collector takes them; clean up finished pods at their source (Job TTL, CronJob history limits, Argo podGC)", None, RiskLevel::Low, ""),
        Cause::PodGcOrphaned => f
            .explain("When a Node object is deleted (the node was removed, or a cloud instance disappeared), the pod garbage collector force-deletes the pods still bound to it after a 40 s quarantine. Their controllers create replacements elsewhere.")
            .step("See whether the node came back, and why it was removed", Some(format!("kubectl get node {node}")), RiskLevel::None, ""),
        Cause::PodGcUnscheduledTerminating => f
            .explain("A pod deleted before the scheduler placed it has no kubelet to finish its deletion; the pod garbage collector force-deletes such pods.")
            .step("Nothing to repair: the pod was already being deleted", None, RiskLevel::None, ""),
        Cause::EvictedNodePressure => f
            .explain("The kubelet evicts pods when its node runs short of memory, disk or PIDs, lowest priority and highest usage over requests first.")
            .step("See the node's pressure", Some(format!("kubectl describe node {node}")), RiskLevel::None, ""),
        Cause::EvictedTaint => f
            .explain("Pods that do not tolerate a NoExecute taint on their node are deleted: for node.kubernetes.io/not-ready and unreachable after their tolerationSeconds (300 s by default), i.e. when the node stopped reporting.")
            .step("See why the node was tainted", Some(format!("kubectl describe node {node}")), RiskLevel::None, ""),
        Cause::EvictedApi => f
            .explain("Something called the Eviction API: kubectl drain, the cluster autoscaler, a descheduler, an operator. Evictions honour PodDisruptionBudgets; the pod is deleted gracefully and its controller replaces it.")
            .step("See the budgets that govern evictions in the namespace", Some(format!("kubectl get pdb -n {ns}")), RiskLevel::None, "")
            .step("To have the caller named next time, record `create` on `pods/eviction` (Metadata level) in the API server's audit policy", None, RiskLevel::Low, "")
            .step("Protect the workload with a PodDisruptionBudget if it has none", None, RiskLevel::Low, ""),
        Cause::Preempted => f
            .explain("The scheduler deleted this pod to make room for a pod of higher priority.")
            .step("Give the workload a PriorityClass, or add capacity", Some("kubectl get priorityclasses".into()), RiskLevel::Low, ""),
        Cause::JobTtlExpired => f
            .explain("A finished Job is deleted with its pods ttlSecondsAfterFinished seconds after it finishes, and a CronJob deletes its oldest Jobs beyond successfulJobsHistoryLimit (default 3) and failedJobsHistoryLimit (default 1).")
            .step("Keep finished Jobs longer if their pods' logs matter (raise the TTL or the history limits), or ship logs elsewhere", None, RiskLevel::Low, ""),
        Cause::OwnerDeleted => f
            .explain("The garbage collector deletes objects whose owners (ownerReferences) were deleted, unless the owner was deleted with --cascade=orphan.")
            .step("Find who deleted the owner (the audit log, or the owner's own `kubewhy gone`)", None, RiskLevel::None, ""),
        Cause::NamespaceDeleted => f
            .explain("Deleting a namespace deletes everything in it, pods included.")
            .step("See what deleted the namespace (audit log: delete namespaces)", Some(format!("kubectl get ns {ns}")), RiskLevel::None, ""),
        Cause::ScaledDown => f
            .explain("A ReplicaSet (StatefulSet, ReplicationController, Job) keeps exactly as many pods as it wants and deletes the rest: lowering its replicas — kubectl scale, an edited manifest, a HorizontalPodAutoscaler, the Deployment controller after its Deployment was scaled — removes pods, newest and least ready first (a StatefulSet: highest ordinal first). Nothing failed.")
            .step("See who changed the workloads last (their field managers, by time)", Some(format!("kubectl get deployments,replicasets,statefulsets -n {ns} -o jsonpath='{{range .items[*]}}{{.kind}}/{{.metadata.name}}:{{range .metadata.managedFields[*]}} {{.manager}} {{.operation}} {{.time}};{{end}}{{\"\\n\"}}{{end}}'")), RiskLevel::None, "")
            .step("If an autoscaler scaled it, see its decisions", Some(format!("kubectl describe hpa -n {ns}")), RiskLevel::None, ""),
        Cause::RolloutReplaced => f
            .explain("A Deployment rollout (a changed pod template, or kubectl rollout restart) creates a ReplicaSet for the new revision and scales the old one down as new pods become ready: the old revision's pods are deleted by design. Nothing failed.")
            .step("See the rollout's revisions and what changed", Some(format!("kubectl rollout history deployment -n {ns}")), RiskLevel::None, ""),
        Cause::DeletedByClient => f
            .explain(format!("A client deleted the pod through the API{}.", who.map(|w| format!(": {w}")).unwrap_or_default()))
            .step("Ask its owner, or check what automation runs as that identity", None, RiskLevel::None, ""),
        // A cause of another family (the pod's state when it went) has no removal advice of
        // its own; every cause of the Gone family has its arm above
        // (`every_gone_cause_has_its_own_advice`).
        other => {
            debug_assert!(
                other.family() != kubewhy_model::Family::Gone,
                "{} is a Gone cause without advice of its own in gone::advise",
                other.slug()
            );
            f.explain(format!("A client deleted the pod through the API{}.", who.map(|w| format!(": {w}")).unwrap_or_default()))
                .step("Ask its owner, or check what automation runs as that identity", None, RiskLevel::None, "")
        }
    }
    .step("What this cause means", Some(page), RiskLevel::None, "")
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_source::{Input, load};

    /// A new cause of the Gone family cannot silently get "deleted by a client" advice.
    #[test]
    fn every_gone_cause_has_its_own_advice() {
        let gone: Vec<Cause> = Cause::ALL
            .iter()
            .copied()
            .filter(|c| c.family() == kubewhy_model::Family::Gone)
            .collect();
        assert!(gone.len() >= 13, "{gone:?}");
        for c in gone {
            let f = advise(
                Finding::new(c, Severity::Info, "test"),
                c,
                "shop",
                "node-1",
                None,
            );
            assert!(!f.remediation.is_empty(), "{}", c.slug());
        }
    }

    const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/history");

    /// The real 1.20 cluster's state after the deletions, its audit log, its controller-manager
    /// log and the flight recorder's rows (see tests/fixtures/history/README.md).
    fn sources(
        audit: bool,
        controller: bool,
        recorder: bool,
        cluster: bool,
    ) -> (Snapshot, History) {
        let snap = if cluster {
            let loaded = load(&[Input::Path(format!("{DIR}/cluster.json").into())], None);
            assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
            loaded.snapshot
        } else {
            Snapshot::default()
        };
        let mut h = History::default();
        let mut w = Vec::new();
        if audit {
            kubewhy_source::read_audit_log(
                format!("{DIR}/audit.log").as_ref(),
                &mut h.audit,
                &mut w,
            );
            h.sources.push("audit log".into());
        }
        if controller {
            kubewhy_source::read_controller_log(
                format!("{DIR}/kube-controller-manager.log").as_ref(),
                "2026-11-23T01:00:00Z".parse().ok(),
                &mut h.controller,
                &mut w,
            );
            h.sources.push("controller log".into());
        }
        if recorder {
            let v: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(format!("{DIR}/recorder.json")).unwrap(),
            )
            .unwrap();
            h.pods = serde_json::from_value(v["pods"].clone()).unwrap();
            h.objects = serde_json::from_value(v["objects"].clone()).unwrap();
            h.sources.push("flight recorder".into());
        }
        assert!(w.is_empty(), "{w:?}");
        (snap, h)
    }

    fn ask(snap: &Snapshot, h: &History, ns: &str, pod: &str) -> Answer {
        explain(
            snap,
            h,
            &Query {
                namespace: ns.into(),
                pod: Some(pod.into()),
                owner: None,
                selector: None,
            },
        )
    }

    /// Each pod's single cause.
    /// Successful deletions in namespace `data`, as an audit log records them, added to `h`:
    /// `(resource, apiGroup, name, user)`.
    fn audit_deletions(h: &mut History, rows: &[(&str, &str, &str, &str)]) {
        let lines: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(i, (res, group, name, user))| {
                format!(
                    r#"{{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a{i}","stage":"ResponseComplete","verb":"delete","user":{{"username":"{user}"}},"objectRef":{{"resource":"{res}","namespace":"data","name":"{name}","apiGroup":"{group}","apiVersion":"v1"}},"responseStatus":{{"code":200}},"stageTimestamp":"2026-11-22T11:20:00.000000Z"}}"#
                )
            })
            .collect();
        let mut w = Vec::new();
        kubewhy_source::parse_audit(
            "audit.log",
            lines.join("\n").as_bytes(),
            &mut h.audit,
            &mut w,
        );
        assert!(w.is_empty(), "{w:?}");
        if !h.sources.iter().any(|s| s == "audit log") {
            h.sources.push("audit log".into());
        }
    }

    fn assert_causes(snap: &Snapshot, h: &History, cases: &[(&str, &str, Cause)]) {
        for (ns, pod, want) in cases {
            let a = ask(snap, h, ns, pod);
            assert_eq!(
                a.findings.first().map(|f| f.cause),
                Some(*want),
                "{ns}/{pod}: {a:#?}"
            );
        }
    }

    fn cause(a: &Answer) -> (Cause, Confidence) {
        assert_eq!(a.findings.len(), 1, "{a:#?}");
        (a.findings[0].cause, a.findings[0].confidence)
    }

    #[test]
    fn pod_gc_threshold_from_the_controller_log_and_from_the_audit_log() {
        let (snap, h) = sources(false, true, false, false);
        let a = ask(&snap, &h, "rc-scn", "done-1");
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::High));
        assert_eq!(
            a.findings[0].evidence[0].quote,
            "I1123 00:19:03.552597   10834 gc_controller.go:78] PodGC is force deleting Pod: rc-scn/done-1"
        );
        let (snap, h) = sources(true, false, false, false);
        let a = ask(&snap, &h, "rc-scn", "done-2");
        assert_eq!(a.findings[0].cause, Cause::PodGcThreshold);
        assert!(
            a.findings[0].evidence[0]
                .quote
                .contains("delete pods rc-scn/done-2 by system:serviceaccount:kube-system:pod-garbage-collector (kube-controller-manager/v1.20.2) → 200"),
            "{:#?}",
            a.findings[0].evidence
        );
        // A terminated pod the GC took, but the audit log alone cannot see it was terminated.
        assert_eq!(a.findings[0].confidence, Confidence::Low);
    }

    #[test]
    fn every_deletion_of_the_real_run_from_the_audit_log_alone() {
        let (snap, h) = sources(true, false, false, false);
        assert_causes(
            &snap,
            &h,
            &[
                ("rc-gone", "manual", Cause::DeletedByClient),
                ("rc-gone", "web-79c745d8c8-x97fq", Cause::OwnerDeleted),
                ("rc-gone", "web-79c745d8c8-wn2gm", Cause::OwnerDeleted),
                ("rc-gone-ns", "doomed", Cause::NamespaceDeleted),
            ],
        );
        let a = ask(&snap, &h, "rc-gone", "manual");
        assert!(
            a.findings[0].summary.contains("admin deleted it"),
            "{}",
            a.findings[0].summary
        );
    }

    #[test]
    fn every_deletion_of_the_real_run_from_the_recorder_alone() {
        let (snap, h) = sources(false, false, true, false);
        assert_causes(
            &snap,
            &h,
            &[
                ("rc-gone", "manual", Cause::DeletedByClient),
                ("rc-gone", "web-79c745d8c8-x97fq", Cause::OwnerDeleted),
                ("rc-gone", "tick-1795393680-n2qf8", Cause::JobTtlExpired),
                ("rc-gone-ns", "doomed", Cause::NamespaceDeleted),
            ],
        );
        let a = ask(&snap, &h, "rc-gone", "tick-1795393680-n2qf8");
        assert_eq!(
            a.findings[0].summary.split(" (at ").next().unwrap(),
            "Pod rc-gone/tick-1795393680-n2qf8 is gone: CronJob tick's history limit removed its Job tick-1795393680, and the pod with it"
        );
        // Without an audit log, a plain client deletion is only likely, and says what would tell.
        let a = ask(&snap, &h, "rc-gone", "manual");
        assert_eq!(a.findings[0].confidence, Confidence::Low);
        assert!(
            a.findings[0]
                .summary
                .contains("an audit log would name who")
        );
    }

    #[test]
    fn the_owner_query_finds_the_pods_of_a_deployment_through_its_replicaset() {
        let (snap, h) = sources(true, false, true, true);
        let a = explain(
            &snap,
            &h,
            &Query {
                namespace: "rc-gone".into(),
                pod: None,
                owner: Some(("Deployment".into(), "web".into())),
                selector: None,
            },
        );
        let pods: Vec<&str> = a
            .findings
            .iter()
            .flat_map(|f| &f.objects)
            .map(|o| o.name.as_str())
            .collect();
        assert_eq!(
            pods,
            vec!["web-79c745d8c8-wn2gm", "web-79c745d8c8-x97fq"],
            "{a:#?}"
        );
        assert!(a.findings.iter().all(|f| f.cause == Cause::OwnerDeleted));
    }

    #[test]
    fn nothing_known_says_what_would_tell() {
        let (snap, h) = sources(false, false, false, true);
        let a = ask(&snap, &h, "rc-gone", "never-existed");
        assert!(a.findings.is_empty());
        assert_eq!(a.unknown.len(), 1);
        assert_eq!(a.unknown[0].status, "not found");
        assert!(
            a.unknown[0].next.contains("--audit-log"),
            "{}",
            a.unknown[0].next
        );
        assert!(a.unknown[0].next.contains("kubewhy watch --record"));
    }

    #[test]
    fn a_live_pod_is_not_gone_and_marked_ones_are_explained() {
        let (snap, h) = sources(false, false, false, true);
        let live = snap
            .pods
            .iter()
            .find(|p| p.metadata.deletion_timestamp.is_none())
            .unwrap();
        let a = ask(&snap, &h, live.metadata.ns(), &live.metadata.name);
        assert_eq!(a.alive.len(), 1, "{a:#?}");

        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: w, namespace: shop, uid: u1, deletionTimestamp: '2026-11-22T11:59:50Z', deletionGracePeriodSeconds: 30}\nspec: {containers: [{name: c}]}\nstatus: {phase: Pending}\n";
        let snap = crate::tests::snapshot_of(yaml, "2026-11-22T11:59:40Z");
        let a = ask(&snap, &History::default(), "shop", "w");
        assert_eq!(cause(&a).0, Cause::PodGcUnscheduledTerminating);
        assert!(
            a.findings[0].summary.starts_with(
                "Pod shop/w is being removed: it is terminating and was never scheduled"
            )
        );
    }

    #[test]
    fn disruption_target_and_evictions_in_the_recorder() {
        for (reason, status_reason, want) in [
            ("DeletionByTaintManager", "", Cause::EvictedTaint),
            ("EvictionByEvictionAPI", "", Cause::EvictedApi),
            ("PreemptionByScheduler", "", Cause::Preempted),
            ("DeletionByPodGC", "", Cause::PodGcOrphaned),
            ("", "Evicted", Cause::EvictedNodePressure),
        ] {
            let h = History {
                pods: vec![PodRecord {
                    namespace: "shop".into(),
                    name: "w".into(),
                    uid: "u".into(),
                    node: "node-1".into(),
                    phase: "Failed".into(),
                    reason: status_reason.into(),
                    message: "The node was low on resource: memory.".into(),
                    disruption_reason: reason.into(),
                    deleted: "2026-11-20T10:00:00Z".parse().ok(),
                    ..Default::default()
                }],
                ..Default::default()
            };
            let a = ask(&Snapshot::default(), &h, "shop", "w");
            assert_eq!(
                cause(&a),
                (want, Confidence::High),
                "{reason}{status_reason}"
            );
        }
    }

    #[test]
    fn eviction_and_orphans_in_the_audit_and_controller_logs() {
        let line = |user: &str, sub: &str, verb: &str| AuditEntry {
            origin: "a.log:1".into(),
            time: "2026-11-20T10:00:00Z".parse().ok(),
            verb: verb.into(),
            user: user.into(),
            impersonated: None,
            user_agent: String::new(),
            resource: "pods".into(),
            subresource: sub.into(),
            api_group: String::new(),
            namespace: "shop".into(),
            name: "w".into(),
            code: Some(201),
        };
        let h = History {
            audit: vec![line(
                "system:serviceaccount:kube-system:cluster-autoscaler",
                "eviction",
                "create",
            )],
            ..Default::default()
        };
        let a = ask(&Snapshot::default(), &h, "shop", "w");
        assert_eq!(cause(&a).0, Cause::EvictedApi);
        assert!(
            a.findings[0]
                .summary
                .contains("cluster-autoscaler evicted it")
        );

        let h = History {
            audit: vec![line(
                "system:serviceaccount:kube-system:node-controller",
                "",
                "delete",
            )],
            ..Default::default()
        };
        assert_eq!(
            cause(&ask(&Snapshot::default(), &h, "shop", "w")).0,
            Cause::EvictedTaint
        );

        let mut h = History::default();
        let mut w = Vec::new();
        kubewhy_source::parse_controller_log(
            "kcm.log",
            "I1120 10:00:00.000000       1 gc_controller.go:160] Found orphaned Pod shop/w assigned to the Node node-9. Deleting.\n".as_bytes(),
            None,
            &mut h.controller,
            &mut w,
        );
        let a = ask(&Snapshot::default(), &h, "shop", "w");
        assert_eq!(cause(&a), (Cause::PodGcOrphaned, Confidence::High));
        assert!(
            a.findings[0]
                .summary
                .contains("its node node-9 no longer exists")
        );
    }

    /// Seed 003: pods of Argo workflows vanished; the first suspect is Argo's own pod GC.
    #[test]
    fn argo_workflow_pod_gc_is_weighed_and_ruled_out_when_it_cannot_apply() {
        let yaml = "\
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: etl, namespace: data, uid: w1}
spec: {podGC: {strategy: OnPodCompletion}}
status: {phase: Running}
---
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: report, namespace: data, uid: w2}
spec: {}
status: {phase: Failed}
---
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: nightly, namespace: data, uid: w3}
spec: {podGC: {strategy: OnWorkflowSuccess, labelSelector: {matchLabels: {cleanup: 'yes'}}}}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Namespace
metadata: {name: data}
";
        let snap = crate::tests::snapshot_of(yaml, "2026-11-22T12:00:00Z");
        let owner = |wf: &str, uid: &str| {
            Some(OwnerLink {
                kind: "Workflow".into(),
                name: wf.into(),
                uid: uid.into(),
            })
        };
        let rec = |name: &str, wf: &str, uid: &str, phase: &str, grace: Option<i64>| PodRecord {
            namespace: "data".into(),
            name: name.into(),
            uid: format!("u-{name}"),
            owner: owner(wf, uid),
            node: "node-1".into(),
            phase: phase.into(),
            deletion_seen: grace.and("2026-11-22T11:00:00Z".parse().ok()),
            deletion_grace: grace,
            deleted: "2026-11-22T11:00:01Z".parse().ok(),
            labels: [("cleanup".to_string(), "no".to_string())].into(),
            ..Default::default()
        };
        let mut h = History {
            pods: vec![
                rec("etl-extract-1234", "etl", "w1", "Failed", Some(30)),
                rec("report-render-77", "report", "w2", "Failed", None),
                rec("nightly-load-5", "nightly", "w3", "Succeeded", Some(30)),
            ],
            ..Default::default()
        };
        // The workflow controller's deletion, in the audit log (a pod without a recorder row).
        audit_deletions(
            &mut h,
            &[("pods", "", "etl-load-99", "system:serviceaccount:argo:argo")],
        );

        // Recorded, graceful: Argo's OnPodCompletion covers a failed pod.
        let a = ask(&snap, &h, "data", "etl-extract-1234");
        assert_eq!(cause(&a), (Cause::DeletedByClient, Confidence::Medium));
        let f = &a.findings[0];
        assert!(
            f.summary.contains("the Argo workflow controller deleted it: Workflow etl's pod GC deletes its pods when each pod completes (this one: Failed)"),
            "{}",
            f.summary
        );
        assert!(f.evidence.iter().any(|e| {
            e.source == "spec.podGC, status.phase"
                && e.quote.starts_with("spec.podGC.strategy=OnPodCompletion; ")
                && e.object
                    .as_ref()
                    .is_some_and(|o| o.kind == "Workflow" && o.name == "etl")
        }));
        assert!(
            f.remediation
                .iter()
                .any(|s| s.action.starts_with("Keep failed pods for their logs"))
        );

        // In the audit log, deleted by the workflow controller's service account: High.
        let a = ask(&snap, &h, "data", "etl-load-99");
        assert_eq!(cause(&a), (Cause::DeletedByClient, Confidence::High));
        assert!(
            a.findings[0].summary.contains(
                "the Argo workflow controller (system:serviceaccount:argo:argo) deleted it"
            )
        );

        // No podGC (seed 003): Argo is ruled out, and the pod GC's threshold rule explains it.
        let a = ask(&snap, &h, "data", "report-render-77");
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::Medium));
        assert!(a.findings[0].evidence.iter().any(|e| e.quote
            == "no spec.podGC; Workflow report has no spec.podGC: the Argo workflow controller does not delete its pods"));

        // The labelSelector leaves this pod out: not Argo, and nothing else explains it.
        let a = ask(&snap, &h, "data", "nightly-load-5");
        assert_eq!(cause(&a), (Cause::DeletedByClient, Confidence::Low));
        assert!(
            !a.findings[0].summary.contains("Argo"),
            "{}",
            a.findings[0].summary
        );
        assert!(a.findings[0].evidence.iter().any(|e| {
            e.quote
                .contains("only deletes pods its labelSelector matches")
        }));

        // `--owner Workflow/etl` finds the recorded pod and the audit log's (by name).
        let a = explain(
            &snap,
            &h,
            &Query {
                namespace: "data".into(),
                pod: None,
                owner: Some(("Workflow".into(), "etl".into())),
                selector: None,
            },
        );
        let mut pods: Vec<&str> = a
            .findings
            .iter()
            .flat_map(|f| f.objects.iter().map(|o| o.name.as_str()))
            .collect();
        pods.sort();
        assert_eq!(pods, ["etl-extract-1234", "etl-load-99"]);
    }

    /// Preemption: the scheduler's identity in the audit log, its event on the victim (every
    /// wording), a DisruptionTarget of any era, a higher-priority pod nominated to the node —
    /// each with the preemptor and both priorities.
    #[test]
    fn preemption_from_every_source_names_the_preemptor() {
        let snap = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: urgent, namespace: data, uid: u-urgent}\nspec: {nodeName: node-1, priorityClassName: high, priority: 1000, containers: [{name: c}]}\nstatus: {phase: Running, nominatedNodeName: node-1}\n---\napiVersion: v1\nkind: Event\nmetadata: {name: victim.1, namespace: data}\ninvolvedObject: {kind: Pod, name: victim, namespace: data, uid: u-victim}\nreason: Preempted\nmessage: 'Preempted by data/urgent on node node-1'\ntype: Normal\nsource: {component: default-scheduler}\nfirstTimestamp: '2026-11-22T11:20:00Z'\n",
            "2026-11-22T12:00:00Z",
        );
        let victim = |h: &mut History| {
            h.pods.push(PodRecord {
                namespace: "data".into(),
                name: "victim".into(),
                uid: "u-victim".into(),
                node: "node-1".into(),
                phase: "Running".into(),
                deletion_seen: "2026-11-22T11:20:00Z".parse().ok(),
                deletion_grace: Some(30),
                deleted: "2026-11-22T11:20:31Z".parse().ok(),
                ..Default::default()
            });
            h.sources.push("flight recorder".into());
        };
        // The audit log: system:kube-scheduler deleted it (today's deleted-by-client).
        let mut h = History::default();
        audit_deletions(&mut h, &[("pods", "", "victim", "system:kube-scheduler")]);
        let a = ask(&Snapshot::default(), &h, "data", "victim");
        assert_eq!(cause(&a), (Cause::Preempted, Confidence::High));
        // The event names the preemptor; the cluster shows its class.
        let mut h = History::default();
        victim(&mut h);
        let a = ask(&snap, &h, "data", "victim");
        assert_eq!(cause(&a), (Cause::Preempted, Confidence::High));
        assert!(
            a.findings[0].summary.contains("data/urgent (PriorityClass high, 1000) preempted it to make room on node node-1; its own priority: no PriorityClass, priority 0"),
            "{}",
            a.findings[0].summary
        );
        assert!(
            a.findings[0]
                .evidence
                .iter()
                .any(|e| e.quote == "Preempted by data/urgent on node node-1")
        );
        // DisruptionTarget, the older reason.
        let mut h = History::default();
        victim(&mut h);
        h.pods[0].disruption_reason = "PreemptionByKubeScheduler".into();
        h.pods[0].priority_class = "batch".into();
        h.pods[0].priority = Some(10);
        let a = ask(&Snapshot::default(), &h, "data", "victim");
        assert_eq!(a.findings[0].cause, Cause::Preempted);
        assert!(
            a.findings[0]
                .summary
                .contains("its own priority: PriorityClass batch, 10")
        );
        // No event, no condition: a graceful deletion beside a pod nominated to its node.
        let nominated = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: urgent, namespace: data, uid: u-urgent}\nspec: {priorityClassName: high, priority: 1000, containers: [{name: c}]}\nstatus: {phase: Pending, nominatedNodeName: node-1}\n",
            "2026-11-22T12:00:00Z",
        );
        let mut h = History::default();
        victim(&mut h);
        let a = ask(&nominated, &h, "data", "victim");
        assert_eq!(cause(&a), (Cause::Preempted, Confidence::Medium));
        assert!(
            a.findings[0]
                .evidence
                .iter()
                .any(|e| e.quote == "nominatedNodeName node-1, priority 1000")
        );
    }

    /// Evictions the audit policy does not record: a PodDisruptionBudget's disruptedPods (in
    /// the data, or seen by the recorder), the DisruptionTarget, and absence in an audit log
    /// that records pod deletions.
    #[test]
    fn evictions_without_an_audited_eviction_request() {
        let gone = |h: &mut History| {
            h.pods.push(PodRecord {
                namespace: "data".into(),
                name: "web-1".into(),
                uid: "u-web-1".into(),
                node: "node-1".into(),
                phase: "Running".into(),
                owner: Some(OwnerLink {
                    kind: "ReplicaSet".into(),
                    name: "web-5d8f".into(),
                    uid: "rs".into(),
                }),
                deletion_seen: "2026-11-22T11:20:00Z".parse().ok(),
                deletion_grace: Some(30),
                deleted: "2026-11-22T11:20:31Z".parse().ok(),
                ..Default::default()
            });
            h.sources.push("flight recorder".into());
        };
        // The recorder saw the budget name it.
        let mut h = History::default();
        gone(&mut h);
        h.pods[0].evicted_under = "web-pdb at 2026-11-22T11:20:00Z".into();
        let a = ask(&Snapshot::default(), &h, "data", "web-1");
        assert_eq!(cause(&a), (Cause::EvictedApi, Confidence::High));
        assert!(
            a.findings[0]
                .summary
                .contains("under PodDisruptionBudget web-pdb")
        );
        // A dump read at the moment: the budget's status names it.
        let snap = crate::tests::snapshot_of(
            "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web-pdb, namespace: data}\nspec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\nstatus: {disruptedPods: {web-1: '2026-11-22T11:20:00Z'}, disruptionsAllowed: 0}\n",
            "2026-11-22T12:00:00Z",
        );
        let mut h = History::default();
        gone(&mut h);
        let a = ask(&snap, &h, "data", "web-1");
        assert_eq!(cause(&a), (Cause::EvictedApi, Confidence::High));
        assert!(
            a.findings[0]
                .evidence
                .iter()
                .any(|e| e.source == "PodDisruptionBudget data/web-pdb: status.disruptedPods")
        );
        // The audit log records pod deletions from before the pod's deletion began; of this pod
        // only the kubelet's final delete.
        let entry = |name: &str, user: &str, at: &str| AuditEntry {
            origin: format!("audit.log:{name}"),
            time: at.parse().ok(),
            verb: "delete".into(),
            user: user.into(),
            resource: "pods".into(),
            namespace: "data".into(),
            name: name.into(),
            code: Some(200),
            ..Default::default()
        };
        let mut h = History::default();
        gone(&mut h);
        h.audit = vec![
            entry("other", "admin", "2026-11-22T11:00:00Z"),
            entry("web-1", "system:node:node-1", "2026-11-22T11:20:31Z"),
        ];
        h.sources.push("audit log".into());
        // A namespace of that name deleted before the pod existed (and made again) explains
        // nothing (seen on the real cluster: the e2e suite recreates its namespaces).
        h.pods[0].created = "2026-11-22T11:10:00Z".parse().ok();
        h.audit.push(AuditEntry {
            resource: "namespaces".into(),
            namespace: "data".into(),
            ..entry("data", "admin", "2026-11-22T11:05:00Z")
        });
        let a = ask(&Snapshot::default(), &h, "data", "web-1");
        assert_eq!(cause(&a), (Cause::EvictedApi, Confidence::Medium));
        h.audit.pop();
        assert!(a.findings[0].evidence.iter().any(|e| e.quote == "2 pod deletion(s) recorded from 2026-11-22T11:00:00Z to 2026-11-22T11:20:31Z; none of this pod by a client, only the kubelet's final delete (system:node:node-1), which follows a graceful deletion"), "{:#?}", a.findings[0].evidence);
        // A log that starts after the deletion began cannot show absence.
        h.audit[0].time = "2026-11-22T11:20:10Z".parse().ok();
        assert_ne!(
            ask(&Snapshot::default(), &h, "data", "web-1").findings[0].cause,
            Cause::EvictedApi
        );
        // A client's delete in that log is the answer instead.
        h.audit[0] = entry("web-1", "admin", "2026-11-22T11:20:00Z");
        assert_eq!(
            ask(&Snapshot::default(), &h, "data", "web-1").findings[0].cause,
            Cause::DeletedByClient
        );
    }

    /// A name used again (a test run twice, a StatefulSet's pod): requests from before this pod
    /// existed were about its namesake, and say nothing of when or why this one went.
    #[test]
    fn requests_about_an_earlier_pod_of_the_same_name_are_ignored() {
        let snap = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Event\nmetadata: {name: done-1.1, namespace: data}\ninvolvedObject: {kind: Pod, name: done-1, namespace: data}\nreason: Scheduled\nmessage: Successfully assigned data/done-1 to node-1\nfirstTimestamp: '2026-11-22T11:00:00Z'\nsource: {component: default-scheduler}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1, creationTimestamp: '2026-11-22T10:30:00Z'}\n",
            "2026-11-22T12:00:00Z",
        );
        let gc = "system:serviceaccount:kube-system:pod-garbage-collector";
        let entry = |at: &str| AuditEntry {
            origin: format!("audit.log:{at}"),
            time: at.parse().ok(),
            verb: "delete".into(),
            user: gc.into(),
            resource: "pods".into(),
            namespace: "data".into(),
            name: "done-1".into(),
            code: Some(200),
            ..Default::default()
        };
        let h = History {
            audit: vec![entry("2026-11-22T10:00:00Z"), entry("2026-11-22T11:20:00Z")],
            sources: vec!["audit log".into()],
            ..Default::default()
        };
        let a = ask(&snap, &h, "data", "done-1");
        // The node registered at 10:30 is not "newer than the deletion" of the pod of 11:00.
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::Medium));
        assert!(
            a.findings[0].summary.ends_with("(at 2026-11-22T11:20:00Z)"),
            "{}",
            a.findings[0].summary
        );
    }

    /// The pod GC's force-delete line is the same for every rule: the success line beside it,
    /// or the state, separates them; without either the answer says it cannot.
    #[test]
    fn which_pod_gc_rule_from_the_line_beside_it_or_the_state() {
        let controller = |text: &str| {
            let mut h = History::default();
            let mut w = Vec::new();
            kubewhy_source::parse_controller_log(
                "kcm.log",
                text.as_bytes(),
                "2026-11-22T12:00:00Z".parse().ok(),
                &mut h.controller,
                &mut w,
            );
            assert!(w.is_empty());
            h.sources.push("controller log".into());
            h
        };
        // node-1 registered again at 11:25, after the pod went at 11:20.
        let snap = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, creationTimestamp: '2026-11-22T11:25:00Z'}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n",
            "2026-11-22T12:00:00Z",
        );
        // 1.20 at the default verbosity: the success line names the orphan rule.
        let h = controller(
            "I1122 11:20:00.100000   10834 gc_controller.go:78] PodGC is force deleting Pod: data/orphan
I1122 11:20:00.110000   10834 gc_controller.go:185] Forced deletion of orphaned Pod data/orphan succeeded
",
        );
        let a = ask(&snap, &h, "data", "orphan");
        assert_eq!(cause(&a), (Cause::PodGcOrphaned, Confidence::High));
        assert!(
            a.findings[0].evidence.iter().any(|e| e
                .quote
                .ends_with("Forced deletion of orphaned Pod data/orphan succeeded")),
            "{:#?}",
            a.findings[0].evidence
        );
        // The force-delete line alone, nothing else known: the family, at low confidence, and
        // what would settle it.
        let h = controller(
            "I1122 11:20:00.100000   10834 gc_controller.go:78] PodGC is force deleting Pod: data/lone\n",
        );
        let a = ask(&Snapshot::default(), &h, "data", "lone");
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::Low));
        assert!(
            a.findings[0]
                .summary
                .contains("does not show which of its rules")
        );
        assert!(
            a.findings[0].remediation.iter().any(|s| s
                .action
                .starts_with("Which rule: kube-controller-manager's log line")),
            "{:#?}",
            a.findings[0].remediation
        );
        // The force-delete line, and the recorder's last state: Running on node-1, whose Node
        // now is newer than the deletion: the orphan rule, not the threshold (the old answer).
        let mut h = controller(
            "I1122 11:20:00.100000   10834 gc_controller.go:78] PodGC is force deleting Pod: data/orphan\n",
        );
        h.pods.push(PodRecord {
            namespace: "data".into(),
            name: "orphan".into(),
            uid: "u-orphan".into(),
            node: "node-1".into(),
            phase: "Running".into(),
            deleted: "2026-11-22T11:20:00Z".parse().ok(),
            ..Default::default()
        });
        h.sources.push("flight recorder".into());
        let a = ask(&snap, &h, "data", "orphan");
        assert_eq!(a.findings[0].cause, Cause::PodGcOrphaned, "{a:#?}");
        // Terminated on a node that is still the same object: the threshold.
        let snap_same = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, creationTimestamp: '2026-11-01T00:00:00Z'}\n",
            "2026-11-22T12:00:00Z",
        );
        h.pods[0].phase = "Succeeded".into();
        let a = ask(&snap_same, &h, "data", "orphan");
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::Medium));
    }

    /// An audit log alone, with what the cluster shows now: the Scheduled event names the node
    /// (a Node registered again after it is not the one the pod was bound to), and a CronJob's
    /// naming ties a deleted Job to its history limit when its event is missing.
    #[test]
    fn audit_log_alone_with_the_cluster_of_now() {
        let ev = |pod: &str, reason: &str, kind: &str, obj: &str, msg: &str| {
            format!(
                "---\napiVersion: v1\nkind: Event\nmetadata: {{name: {pod}.{reason}, namespace: data}}\ninvolvedObject: {{kind: {kind}, name: {obj}, namespace: data}}\nreason: {reason}\nmessage: '{msg}'\nfirstTimestamp: '2026-11-22T11:00:00Z'\nsource: {{component: x}}\n"
            )
        };
        let mut yaml = String::from(
            "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, creationTimestamp: '2026-11-22T11:30:00Z'}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-2, creationTimestamp: '2026-11-01T00:00:00Z'}\n---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: tick, namespace: data}\nspec: {successfulJobsHistoryLimit: 0}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n---\napiVersion: batch/v1\nkind: JobList\nitems: []\n",
        );
        yaml += &ev(
            "orphan",
            "Scheduled",
            "Pod",
            "orphan",
            "Successfully assigned data/orphan to node-1",
        );
        yaml += &ev(
            "done-1",
            "Scheduled",
            "Pod",
            "done-1",
            "Successfully assigned data/done-1 to node-2",
        );
        yaml += &ev(
            "tick-29400000-abcde",
            "SuccessfulCreate",
            "Job",
            "tick-29400000",
            "Created pod: tick-29400000-abcde",
        );
        let snap = crate::tests::snapshot_of(&yaml, "2026-11-22T12:00:00Z");
        let mut h = History::default();
        let gc = |sa: &str| format!("system:serviceaccount:kube-system:{sa}");
        audit_deletions(
            &mut h,
            &[
                ("pods", "", "orphan", &gc("pod-garbage-collector")),
                ("pods", "", "done-1", &gc("pod-garbage-collector")),
                (
                    "pods",
                    "",
                    "tick-29400000-abcde",
                    &gc("generic-garbage-collector"),
                ),
            ],
        );
        assert_causes(
            &snap,
            &h,
            &[
                ("data", "orphan", Cause::PodGcOrphaned),
                ("data", "done-1", Cause::PodGcThreshold),
                ("data", "tick-29400000-abcde", Cause::JobTtlExpired),
            ],
        );
        assert_eq!(
            cause(&ask(&snap, &h, "data", "done-1")).1,
            Confidence::Medium
        );
        let a = ask(&snap, &h, "data", "tick-29400000-abcde");
        assert_eq!(cause(&a).1, Confidence::Medium);
        assert!(a.findings[0].evidence.iter().any(|e| e.quote
            == "CronJob tick names its Jobs tick-<scheduled minute>; it keeps 0 succeeded and 1 failed Jobs"));
    }

    /// An audit policy that records Job deletions: the TTL controller named as the Job's deleter.
    #[test]
    fn a_job_deleted_by_the_ttl_controller_in_the_audit_log() {
        let yaml = "apiVersion: v1\nkind: Event\nmetadata: {name: e1, namespace: data}\ninvolvedObject: {kind: Job, name: batch, namespace: data}\nreason: SuccessfulCreate\nmessage: 'Created pod: batch-x7k2p'\nsource: {component: job-controller}\n---\napiVersion: batch/v1\nkind: JobList\nitems: []\n";
        let snap = crate::tests::snapshot_of(yaml, "2026-11-22T12:00:00Z");
        let mut h = History::default();
        audit_deletions(
            &mut h,
            &[
                (
                    "jobs",
                    "batch",
                    "batch",
                    "system:serviceaccount:kube-system:ttl-after-finished-controller",
                ),
                (
                    "pods",
                    "",
                    "batch-x7k2p",
                    "system:serviceaccount:kube-system:generic-garbage-collector",
                ),
            ],
        );
        let a = ask(&snap, &h, "data", "batch-x7k2p");
        assert_eq!(cause(&a), (Cause::JobTtlExpired, Confidence::High));
        assert!(
            a.findings[0]
                .summary
                .contains("the TTL-after-finished controller deleted it")
        );
    }

    /// The recorder saw node-1 deleted (it registered again since): only pods that existed
    /// then were orphaned by it; later pods on the new node-1 are not (a real e2e run's case).
    #[test]
    fn a_recorded_node_deletion_only_orphans_the_pods_of_its_time() {
        let t = |s: &str| s.parse().ok();
        let rec = |name: &str, phase: &str, created: &str, deleted: &str| PodRecord {
            namespace: "data".into(),
            name: name.into(),
            uid: name.into(),
            node: "node-1".into(),
            phase: phase.into(),
            created: t(created),
            deleted: t(deleted),
            ..Default::default()
        };
        let h = History {
            pods: vec![
                rec(
                    "before",
                    "Running",
                    "2026-11-22T09:00:00Z",
                    "2026-11-22T10:00:45Z",
                ),
                rec(
                    "after",
                    "Succeeded",
                    "2026-11-22T11:00:00Z",
                    "2026-11-22T11:05:00Z",
                ),
            ],
            objects: vec![ObjectRecord {
                kind: "Node".into(),
                name: "node-1".into(),
                deleted: t("2026-11-22T10:00:00Z"),
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_causes(
            &Snapshot::default(),
            &h,
            &[
                ("data", "before", Cause::PodGcOrphaned),
                ("data", "after", Cause::PodGcThreshold),
            ],
        );
    }

    #[test]
    fn a_job_pod_gone_before_its_ttl_ran_out_was_not_removed_with_the_job() {
        // The pod GC took batch-early (the oldest terminated pod: creationTimestamp ties break
        // by name) 2 s after the Job finished; the TTL controller removed the Job 5 s after.
        let t = |s: &str| s.parse().ok();
        let job = OwnerLink {
            kind: "Job".into(),
            name: "batch".into(),
            uid: "job-uid".into(),
        };
        let rec = |name: &str, deleted: &str| PodRecord {
            namespace: "data".into(),
            name: name.into(),
            uid: name.into(),
            owner: Some(job.clone()),
            node: "node-1".into(),
            phase: "Succeeded".into(),
            deleted: t(deleted),
            ..Default::default()
        };
        let h = History {
            pods: vec![
                rec("batch-early", "2026-11-22T11:00:02Z"),
                rec("batch-late", "2026-11-22T11:00:06Z"),
            ],
            objects: vec![ObjectRecord {
                kind: "Job".into(),
                namespace: "data".into(),
                name: "batch".into(),
                uid: "job-uid".into(),
                deleted: t("2026-11-22T11:00:07Z"),
                ttl_seconds_after_finished: Some(5),
                finished: t("2026-11-22T11:00:00Z"),
                ..Default::default()
            }],
            sources: vec!["flight recorder".into()],
            ..Default::default()
        };
        let snap = Snapshot::default();
        assert_causes(
            &snap,
            &h,
            &[
                ("data", "batch-early", Cause::PodGcThreshold),
                ("data", "batch-late", Cause::JobTtlExpired),
            ],
        );
        let a = ask(&snap, &h, "data", "batch-early");
        assert!(
            a.findings[0].evidence.iter().any(|e| e.quote
                == "gone at 2026-11-22T11:00:02Z, before Job batch's TTL expired at 2026-11-22T11:00:05Z: not removed with its Job"),
            "{:#?}",
            a.findings[0].evidence
        );
    }
}

#[cfg(test)]
mod scaled_down_tests {
    use super::*;
    use kubewhy_model::history::{OwnerLink, ScaleRecord};

    fn at(s: &str) -> Option<jiff::Timestamp> {
        s.parse().ok()
    }

    /// What the flight recorder kept when `kubectl scale --replicas=0` removed a Pending pod of
    /// a 200-replica Deployment: never scheduled and gone at once (the API server deletes an
    /// unscheduled pod without a grace period), which alone reads like the pod GC's
    /// unscheduled-terminating rule; and the replica changes seen a moment before.
    fn recorded(scalings: bool) -> History {
        let owner = |kind: &str, name: &str| OwnerLink {
            kind: kind.into(),
            name: name.into(),
            uid: format!("u-{name}"),
        };
        let mut h = History {
            pods: vec![PodRecord {
                namespace: "scale".into(),
                name: "big-0-5d8f7c9b6-xk2p9".into(),
                uid: "p1".into(),
                owner: Some(owner("ReplicaSet", "big-0-5d8f7c9b6")),
                phase: "Pending".into(),
                created: at("2026-11-23T09:00:00Z"),
                deleted: at("2026-11-23T10:00:03Z"),
                ..Default::default()
            }],
            sources: vec!["flight recorder".into()],
            ..Default::default()
        };
        if scalings {
            h.scalings = vec![
                ScaleRecord {
                    kind: "Deployment".into(),
                    namespace: "scale".into(),
                    name: "big-0".into(),
                    uid: "u-big-0".into(),
                    owner: None,
                    from: 200,
                    to: 0,
                    at: at("2026-11-23T10:00:00Z"),
                    by: "kubectl-edit".into(),
                },
                ScaleRecord {
                    kind: "ReplicaSet".into(),
                    namespace: "scale".into(),
                    name: "big-0-5d8f7c9b6".into(),
                    uid: "u-big-0-5d8f7c9b6".into(),
                    owner: Some(owner("Deployment", "big-0")),
                    from: 200,
                    to: 0,
                    at: at("2026-11-23T10:00:01Z"),
                    by: "kube-controller-manager".into(),
                },
            ];
        }
        h
    }

    fn ask(h: &History) -> Answer {
        explain(
            &Snapshot::default(),
            h,
            &Query {
                namespace: "scale".into(),
                pod: Some("big-0-5d8f7c9b6-xk2p9".into()),
                owner: None,
                selector: None,
            },
        )
    }

    #[test]
    fn a_pending_pod_removed_by_a_scale_down_is_scaled_down_with_the_replicas_quoted() {
        let a = ask(&recorded(true));
        let f = &a.findings[0];
        assert_eq!(f.cause, Cause::ScaledDown, "{f:#?}");
        assert_eq!(f.confidence, Confidence::High);
        assert!(
            f.summary
                .contains("Deployment big-0 was scaled down from 200 to 0 by kubectl-edit"),
            "{}",
            f.summary
        );
        let quotes: Vec<&str> = f.evidence.iter().map(|e| e.quote.as_str()).collect();
        assert!(
            quotes.contains(
                &"Deployment big-0: spec.replicas 200 → 0 at 2026-11-23T10:00:00Z (field manager kubectl-edit)"
            ),
            "{quotes:#?}"
        );
        // Without the replica changes, the recorder's row alone still reads as the pod GC's.
        let a = ask(&recorded(false));
        assert_eq!(a.findings[0].cause, Cause::PodGcUnscheduledTerminating);
    }

    #[test]
    fn the_replicaset_controller_in_the_audit_log_is_a_scale_down_not_a_client() {
        let mut h = recorded(true);
        let line = r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"s1","stage":"ResponseComplete","verb":"delete","user":{"username":"system:serviceaccount:kube-system:replicaset-controller"},"objectRef":{"resource":"pods","namespace":"scale","name":"big-0-5d8f7c9b6-xk2p9","apiVersion":"v1"},"responseStatus":{"code":200},"stageTimestamp":"2026-11-23T10:00:02.000000Z"}"#;
        let mut w = Vec::new();
        kubewhy_source::parse_audit("audit.log", line.as_bytes(), &mut h.audit, &mut w);
        assert!(w.is_empty(), "{w:?}");
        h.sources.push("audit log".into());
        let f = &ask(&h).findings[0];
        assert_eq!(f.cause, Cause::ScaledDown, "{f:#?}");
        // Without any sign of fewer replicas, the controller's delete is still its own.
        h.scalings.clear();
        let f = &ask(&h).findings[0];
        assert_eq!(f.cause, Cause::ScaledDown, "{f:#?}");
        assert!(
            f.summary
                .contains("ReplicaSet big-0-5d8f7c9b6 was scaled down"),
            "{}",
            f.summary
        );
    }
}
