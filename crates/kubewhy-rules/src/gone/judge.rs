//! The verdict: every source weighed, strongest first. `judge` quotes the evidence, derives
//! what the tiers share (`Case`), asks each tier in turn (`TIERS`) and writes the finding.

use super::*;

/// A cause, the sentence that says why, and how sure.
pub(super) type Choice = (Cause, String, Confidence);

/// What a tier chose; `by_argo`: the Argo workflow controller's pod GC did it (its own advice).
pub(super) struct Chosen {
    choice: Choice,
    by_argo: bool,
}

impl From<Choice> for Chosen {
    fn from(choice: Choice) -> Self {
        Chosen {
            choice,
            by_argo: false,
        }
    }
}

/// What judging one pod derives from its facts, for every tier.
pub(super) struct Case<'a> {
    pub(super) snap: &'a Snapshot,
    pub(super) history: &'a History,
    pub(super) f: &'a Facts<'a>,
    pub(super) ns: &'a str,
    pub(super) name: &'a str,
    /// The node it was bound to: its last state's, else the scheduler's event's.
    pub(super) node: &'a str,
    /// When it went (or its deletion was asked for).
    pub(super) when: Option<jiff::Timestamp>,
    /// Its last phase was Succeeded or Failed.
    pub(super) terminated: bool,
    pub(super) node_gone: bool,
    pub(super) gc: GcState<'a>,
    pub(super) ns_gone: Option<String>,
    pub(super) owner_state: Option<OwnerState>,
    pub(super) argo: Option<ArgoGc>,
    pub(super) removal: crate::scaledown::Removal<'a>,
    /// What events (live and recorded) said, for the preemptor.
    pub(super) said: Vec<Said<'a>>,
    pub(super) victim_priority: Option<i64>,
    pub(super) victim_class: String,
    /// The PodDisruptionBudget an eviction went through: (source, quote, budget).
    pub(super) pdb: Option<(String, String, String)>,
}

impl Case<'_> {
    /// Neither its owner nor its namespace went: what is left may be its own controller's
    /// doing, or an Argo Workflow's pod GC.
    fn owner_and_namespace_stay(&self) -> bool {
        !matches!(
            self.owner_state,
            Some(OwnerState::Deleting | OwnerState::Deleted(_))
        ) && self.ns_gone.is_none()
    }

    /// Preempted: by whom when the data says (the scheduler's event, a nominated pod).
    fn preempted(&self, fd: &mut Finding, confidence: Confidence) -> Choice {
        let p = disruption::preemptor(
            self.snap,
            (self.ns, self.name),
            self.victim_priority,
            self.node,
            &self.said,
        );
        let victim_class = &self.victim_class;
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
                        self.node
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
    }
}

/// The tiers, strongest source first; the first that answers decides.
const TIERS: &[fn(&Case, &mut Finding) -> Option<Chosen>] = &[
    own_word,
    disrupted_under_budget,
    controller_log,
    audit_initiator,
    namespace_deleted_in_audit,
    argo_pod_gc,
    preempted_event,
    own_controller,
    eviction_by_silence,
    rest_implies,
];

pub(super) fn judge(snap: &Snapshot, history: &History, f: &Facts) -> Verdict {
    let last = f.last.as_ref();
    let marked = f.live.is_some_and(|p| {
        p.metadata.deletion_timestamp.is_some()
            || p.status.reason.as_deref() == Some("Evicted")
            || !last.is_none_or(|r| r.disruption_reason.is_empty())
    });
    if f.live.is_some() && !marked {
        return Verdict::Alive;
    }
    let mut fd = evidence(f);
    let c = case(snap, history, f);
    let mut chosen = TIERS.iter().find_map(|tier| tier(&c, &mut fd));
    // "A client deleted it, who is unknown" — unless a higher-priority pod was nominated to its
    // node: the scheduler cleared room there.
    let unknown_client = chosen.as_ref().is_none_or(|ch| {
        let (cause, _, conf) = &ch.choice;
        *cause == Cause::DeletedByClient && *conf == Confidence::Low && !ch.by_argo
    });
    if unknown_client
        && !c.node.is_empty()
        && disruption::preemptor(snap, (c.ns, c.name), c.victim_priority, c.node, &[]).is_some()
    {
        chosen = Some(c.preempted(&mut fd, Confidence::Medium).into());
    }
    match chosen {
        Some(ch) => Verdict::Found(Box::new(found(&c, fd, ch))),
        None => Verdict::Unknown {
            status: if let Some(p) = f.live {
                PodInfo::new(p).status_column()
            } else if f.recorded.is_some() || !f.audit.is_empty() {
                "gone; cause unknown".into()
            } else {
                "not found".into()
            },
            next: what_would_tell(history, f),
        },
    }
}

/// The evidence every verdict quotes, in the order the sources are weighed: the pod's last
/// state, the recorder's row and events, the controller-manager's lines, the audit log, the
/// events that name a removal.
fn evidence(f: &Facts) -> Finding {
    let key = &f.key;
    let mut fd = Finding::new(Cause::DeletedByClient, Severity::Info, "").object(key.clone());
    let state_src = if f.live.is_some() {
        "the pod's status"
    } else {
        "flight recorder: the pod's last status"
    };
    if let Some(r) = f.last.as_ref() {
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
            fd = recorded_evidence(fd, key, rec);
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
        push_audit(&mut fd, Some(key), a);
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
    fd
}

/// The flight recorder's row (phase, node, owner, the deletion as seen) and its last five
/// events that are not routine.
fn recorded_evidence(fd: Finding, key: &ObjectKey, rec: &PodRecord) -> Finding {
    let seen = match (rec.deletion_seen, rec.deletion_grace) {
        (Some(t), Some(g)) => format!("deletion requested at {t} with a {g} s grace period"),
        _ => "never seen terminating: deleted at once (grace period 0)".into(),
    };
    let or = |s: &str, none: &'static str| {
        if s.is_empty() {
            none.to_string()
        } else {
            s.to_string()
        }
    };
    let mut fd = fd.evidence(
        EvidenceKind::Field,
        Some(key),
        "flight recorder",
        format!(
            "phase {} on node {}, owner {}; {seen}; gone at {}{}",
            or(&rec.phase, "?"),
            or(&rec.node, "(none)"),
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
    let notable: Vec<_> = rec
        .events
        .iter()
        .filter(|e| e.type_ == "Warning" || !ROUTINE_EVENTS.contains(&e.reason.as_str()))
        .rev()
        .take(5)
        .collect();
    for e in notable.into_iter().rev() {
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
    fd
}

/// What the tiers share, derived once from the facts.
fn case<'a>(snap: &'a Snapshot, history: &'a History, f: &'a Facts<'a>) -> Case<'a> {
    let key = &f.key;
    let (ns, name) = (key.namespace.as_str(), key.name.as_str());
    let last = f.last.as_ref();
    let when = f
        .recorded
        .and_then(|r| r.deleted)
        .or(initiator(f).and_then(|a| a.time))
        .or(f.controller.first().and_then(|c| c.time))
        .or(last.and_then(|r| r.deletion_seen));
    let phase = last.map(|r| r.phase.as_str()).unwrap_or("");
    let terminated = matches!(phase, "Succeeded" | "Failed");
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
    let node_gone = node_gone(snap, history, f, node, scheduled);
    let scheduled_known = (last.is_some() || scheduled.is_some()).then_some(!node.is_empty());
    let node_now = (!node.is_empty()).then(|| snap.node(node)).flatten();
    // The kubelet registers its Node again minutes after it was deleted: one created after the
    // pod went is not the one the pod ran on.
    let registered_since = matches!(
        (node_now.and_then(|n| n.metadata.creation_timestamp), when),
        (Some(c), Some(w)) if c > w
    );
    let gc = GcState {
        scheduled: scheduled_known,
        terminated: (!phase.is_empty()).then_some(terminated),
        node_gone,
        node_back: !node_gone && registered_since,
        node_there: !node_gone && node_now.is_some() && !registered_since,
        node,
    };
    let victim_priority = last.and_then(|r| r.priority);
    Case {
        snap,
        history,
        f,
        ns,
        name,
        node,
        when,
        terminated,
        node_gone,
        gc,
        ns_gone: namespace_gone(snap, history, ns),
        owner_state: f
            .owner
            .as_ref()
            .map(|(o, _)| owner_state(snap, history, ns, o)),
        argo: argo_gc(snap, f),
        removal: crate::scaledown::Removal {
            ns,
            name,
            owner: f.owner.as_ref().map(|(o, _)| o),
            actor: initiator(f).map(|a| a.actor()),
            recorded: f.recorded.map(|r| r.events.as_slice()).unwrap_or_default(),
            when,
        },
        said: said(f),
        victim_priority,
        victim_class: disruption::class_words(
            last.map(|r| r.priority_class.as_str()).unwrap_or_default(),
            victim_priority,
        ),
        pdb: pdb(snap, f, ns, name),
    }
}

/// Its node is gone, or was deleted and registered again since the pod was placed on it: a
/// Node object newer than the pod's Scheduled event is not the one the pod was bound to. (Not
/// the pod's creation: a pending pod may land on a node added after it.)
fn node_gone(
    snap: &Snapshot,
    history: &History,
    f: &Facts,
    node: &str,
    scheduled: Option<&&Event>,
) -> bool {
    let last = f.last.as_ref();
    let bound_since = scheduled.and_then(|e| e.first_time.or(e.last_time));
    !node.is_empty()
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
            }))
}

/// What the pod's events said, live and recorded, for the preemptor.
fn said<'a>(f: &'a Facts) -> Vec<Said<'a>> {
    f.events
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
        .collect()
}

/// The PodDisruptionBudget an eviction went through: in the data, or seen by the recorder.
fn pdb(snap: &Snapshot, f: &Facts, ns: &str, name: &str) -> Option<(String, String, String)> {
    disruption::pdb_disrupted(snap, ns, name)
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
        })
}

// ------------------------------------------------------------------ the tiers

/// 1. The pod's own last word: its DisruptionTarget condition, `status.reason`.
fn own_word(c: &Case, fd: &mut Finding) -> Option<Chosen> {
    let r = c.f.last.as_ref()?;
    let node = c.node;
    let by_target = disruption::target_cause(&r.disruption_reason, &r.disruption_message);
    let choice = match (by_target, r.reason.as_str()) {
        (Some(Cause::Preempted), _) | (_, "Preempting") => c.preempted(fd, Confidence::High),
        (Some(Cause::EvictedTaint), _) => (
            Cause::EvictedTaint,
            format!(
                "the taint manager evicted it: a NoExecute taint on {node} it did not tolerate"
            ),
            Confidence::High,
        ),
        (Some(Cause::EvictedApi), _) => (
            Cause::EvictedApi,
            "it was evicted through the Eviction API".into(),
            Confidence::High,
        ),
        (Some(Cause::PodGcOrphaned), _) => (
            Cause::PodGcOrphaned,
            format!("the pod garbage collector deleted it: its node {node} no longer exists"),
            Confidence::High,
        ),
        (Some(Cause::NodeShutdown), _) => shutdown(node),
        (Some(Cause::EvictedNodePressure), _) | (_, "Evicted") => (
            Cause::EvictedNodePressure,
            format!("the kubelet on {node} evicted it: the node was short of a resource"),
            Confidence::High,
        ),
        // The kubelet ended it (or never ran it) before anyone deleted it: that is why it went.
        (_, reason) => match kubewhy_model::messages::pod::reason_cause(reason, &r.message)? {
            Cause::NodeShutdown => shutdown(node),
            Cause::DeadlineExceeded => (
                Cause::DeadlineExceeded,
                format!("the kubelet on {node} stopped it when its activeDeadlineSeconds ran out"),
                Confidence::High,
            ),
            c @ (Cause::NodeAdmissionRejected | Cause::DeviceAllocationFailed) => (
                c,
                format!(
                    "the kubelet on {node} refused to run it ({reason}: {})",
                    kubewhy_model::messages::pod::rejection_text(&r.message)
                ),
                Confidence::High,
            ),
            _ => return None,
        },
    };
    Some(choice.into())
}

/// The graceful node shutdown's verdict.
fn shutdown(node: &str) -> (Cause, String, Confidence) {
    (
        Cause::NodeShutdown,
        format!("the kubelet on {node} stopped it because the node was shutting down"),
        Confidence::High,
    )
}

/// A PodDisruptionBudget that granted its eviction.
fn disrupted_under_budget(c: &Case, fd: &mut Finding) -> Option<Chosen> {
    let (source, quote, budget) = c.pdb.as_ref()?;
    push(
        fd,
        EvidenceKind::Field,
        Some(&c.f.key),
        source.clone(),
        quote.clone(),
    );
    Some(
        (
            Cause::EvictedApi,
            format!("it was evicted through the Eviction API, under PodDisruptionBudget {budget}"),
            Confidence::High,
        )
            .into(),
    )
}

/// 2. The controller-manager's own words.
///
/// The pod GC's unscheduled-terminating rule only finishes a deletion a client asked for (it
/// takes pods already terminating), and a bare force-delete line names no rule: when the audit
/// log shows someone else's request first, that request removed the pod (the API server deletes
/// an unscheduled pod at once, and the collector's own request, racing it, is answered "already
/// deleting") — tier 3 names them.
fn controller_log(c: &Case, _: &mut Finding) -> Option<Chosen> {
    let line = c.f.controller.first()?;
    let completes = matches!(
        line.action,
        ControllerAction::GcUnscheduledTerminating | ControllerAction::GcForceDelete
    );
    if completes
        && initiator(c.f)
            .is_some_and(|a| a.actor().strip_prefix(GC_SA) != Some("pod-garbage-collector"))
    {
        return None;
    }
    let node = c.node;
    Some(match line.action {
        ControllerAction::GcTerminated => (Cause::PodGcThreshold, "the pod garbage collector deleted it: one of the oldest terminated pods over --terminated-pod-gc-threshold".into(), Confidence::High),
        ControllerAction::GcOrphaned => (Cause::PodGcOrphaned, format!("the pod garbage collector deleted it: its node {} no longer exists", line.node.as_deref().unwrap_or(node)), Confidence::High),
        ControllerAction::GcUnscheduledTerminating => (Cause::PodGcUnscheduledTerminating, "the pod garbage collector deleted it: it was terminating and never scheduled".into(), Confidence::High),
        ControllerAction::TaintEviction => (Cause::EvictedTaint, format!("the taint manager deleted it: a NoExecute taint on {node} it did not tolerate"), Confidence::High),
        ControllerAction::GcForceDelete => gc_rule(&c.gc, Confidence::Medium),
    }.into())
}

/// 3. The audit log: who asked first.
fn audit_initiator(c: &Case, fd: &mut Finding) -> Option<Chosen> {
    let first = initiator(c.f)?;
    let actor = first.actor();
    if actor == disruption::SCHEDULER_USER {
        return Some(c.preempted(fd, Confidence::High).into());
    }
    if first.subresource == "eviction" {
        return Some(
            (
                Cause::EvictedApi,
                format!("{actor} evicted it through the Eviction API"),
                Confidence::High,
            )
                .into(),
        );
    }
    let deleted_by = || {
        (
            Cause::DeletedByClient,
            format!("{actor} deleted it"),
            Confidence::High,
        )
    };
    if kubewhy_model::messages::controller::WORKLOAD_CONTROLLERS.contains(&actor) {
        return Some(
            crate::scaledown::judge(c.snap, c.history, &c.removal, fd)
                .unwrap_or_else(deleted_by)
                .into(),
        );
    }
    let ns = c.ns;
    let choice = match cause_of_actor(actor) {
        Some(Cause::PodGcThreshold) => gc_rule(&c.gc, Confidence::High),
        Some(Cause::OwnerDeleted) => owner_cause(
            c.snap,
            c.history,
            c.f,
            fd,
            c.owner_state.as_ref(),
            Confidence::High,
        ),
        Some(Cause::NamespaceDeleted) => (
            Cause::NamespaceDeleted,
            format!("the namespace controller deleted it: namespace {ns} was being deleted"),
            Confidence::High,
        ),
        Some(Cause::JobTtlExpired) => (
            Cause::JobTtlExpired,
            format!("{actor} removed it with its Job"),
            Confidence::High,
        ),
        Some(Cause::EvictedTaint) => (
            Cause::EvictedTaint,
            "the node lifecycle controller's taint manager deleted it (NoExecute taint)".into(),
            Confidence::High,
        ),
        _ => match c.argo.as_ref().filter(|g| g.applies != Some(false)) {
            // A pod of an Argo Workflow whose pod GC covers it, deleted by a service account:
            // the workflow controller's, when it is named like it.
            Some(g) if actor.starts_with("system:serviceaccount:") => {
                let named = actor.contains("argo") || actor.contains("workflow");
                return Some(Chosen {
                    choice: (
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
                    ),
                    by_argo: true,
                });
            }
            _ => deleted_by(),
        },
    };
    Some(choice.into())
}

/// A namespace deletion names itself in the audit log even when the pods' deletions are not —
/// one of this pod's namespace: not before the pod existed, nor before the namespace of that
/// name that exists now was created (a namespace deleted and made again).
fn namespace_deleted_in_audit(c: &Case, fd: &mut Finding) -> Option<Chosen> {
    let a = c.history.audit.iter().find(|a| {
        a.resource == "namespaces"
            && a.name == c.ns
            && a.verb == "delete"
            && a.succeeded()
            && !before_the_pod(c.snap, c.f, a.time)
    })?;
    push_audit(fd, None, a);
    Some(
        (
            Cause::NamespaceDeleted,
            format!("its namespace was deleted by {}", a.actor()),
            Confidence::High,
        )
            .into(),
    )
}

/// 4. What the rest implies: an Argo Workflow's pod GC first.
fn argo_pod_gc(c: &Case, _: &mut Finding) -> Option<Chosen> {
    if !c.owner_and_namespace_stay() {
        return None;
    }
    let g = c.argo.as_ref().filter(|g| g.applies != Some(false))?;
    Some(Chosen {
        choice: (
            Cause::DeletedByClient,
            format!("the Argo workflow controller deleted it: {}", g.why),
            if g.applies == Some(true) {
                Confidence::Medium
            } else {
                Confidence::Low
            },
        ),
        by_argo: true,
    })
}

/// The scheduler's event on its victim.
fn preempted_event(c: &Case, fd: &mut Finding) -> Option<Chosen> {
    c.said
        .iter()
        .any(|e| e.reason == "Preempted" && e.message.contains("Preempted by"))
        .then(|| c.preempted(fd, Confidence::High).into())
}

/// Its own controller removed it: scaled down, or replaced by a rollout (not when the owner
/// itself went: the garbage collector took its pods).
fn own_controller(c: &Case, fd: &mut Finding) -> Option<Chosen> {
    if !c.owner_and_namespace_stay() {
        return None;
    }
    crate::scaledown::judge(c.snap, c.history, &c.removal, fd).map(Into::into)
}

/// An audit log that records pod deletions, and none of this one by a client.
fn eviction_by_silence(c: &Case, fd: &mut Finding) -> Option<Chosen> {
    let (quote, confidence) = eviction_by_absence(c.snap, c.history, c.f)?;
    push(
        fd,
        EvidenceKind::Absence,
        Some(&c.f.key),
        "audit log",
        quote,
    );
    if let Some(e) = replacement(c.snap, c.f) {
        let owner = ObjectKey::new(
            &e.involved.kind,
            &e.namespace,
            &e.involved.name,
            &e.involved.uid,
        );
        push(
            fd,
            EvidenceKind::Event,
            Some(&owner),
            e.origin(),
            e.message.clone(),
        );
    }
    Some((
        Cause::EvictedApi,
        "it was deleted gracefully and no client's delete request for it is in an audit log that records them: it was evicted through the Eviction API (drain, descheduler, autoscaler), which that audit policy does not record".into(),
        confidence,
    ).into())
}

/// The rest of the data: events, a deleted namespace, owner or node, a force deletion.
fn rest_implies(c: &Case, fd: &mut Finding) -> Option<Chosen> {
    implied(c, fd).map(Into::into)
}

// ------------------------------------------------------------------ the finding

/// The finding for a chosen cause: the owner and Argo evidence, the summary, severity, and the
/// cause's advice.
fn found(c: &Case, mut fd: Finding, chosen: Chosen) -> Finding {
    let Chosen {
        choice: (cause, summary, confidence),
        by_argo,
    } = chosen;
    let (ns, name, node, key) = (c.ns, c.name, c.node, &c.f.key);
    if let Some((o, origin)) = &c.f.owner {
        fd = fd.evidence(
            EvidenceKind::Field,
            Some(key),
            origin.clone(),
            format!(
                "owner {}/{}{}",
                o.kind,
                o.name,
                match &c.owner_state {
                    Some(OwnerState::Exists) => " (exists)",
                    Some(OwnerState::Deleting) => " (being deleted)",
                    Some(OwnerState::Deleted(_)) => " (deleted)",
                    _ => "",
                }
            ),
        );
    }
    if let Some(g) = &c.argo {
        fd = fd.evidence(
            EvidenceKind::Field,
            Some(&g.workflow),
            "spec.podGC, status.phase",
            format!("{}; {}", g.spec, g.why),
        );
    }
    let verb = if c.f.live.is_some() {
        "is being removed"
    } else {
        "is gone"
    };
    let at = c.when.map(|t| format!(" (at {t})")).unwrap_or_default();
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
    let who = initiator(c.f).map(|a| a.actor().to_string());
    fd.group_key = format!("gone|{}|{}", who.clone().unwrap_or_default(), summary);
    fd = if by_argo {
        argo_advice(fd, c.argo.as_ref(), ns, cause)
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
    fd
}
