//! What the rest of the data implies when no source names the act: events, an Argo
//! Workflow's pod GC, an audit log's silence, a deleted namespace or node.

use super::*;

/// What Argo Workflows' pod GC says about a pod its Workflow owns.
pub(super) struct ArgoGc {
    pub(super) workflow: ObjectKey,
    /// `spec.podGC` as found, for evidence.
    pub(super) spec: String,
    /// Does the strategy cover this pod (None: the pod's last phase is unknown)?
    pub(super) applies: Option<bool>,
    pub(super) why: String,
}

/// The pod's owner is an Argo Workflow in the data: whether its `spec.podGC` deletes the pod.
pub(super) fn argo_gc(snap: &Snapshot, f: &Facts) -> Option<ArgoGc> {
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

/// What the rest of the data implies: an event that names the act, then what went with the
/// pod (its namespace, its owner, its node), then how it was deleted.
pub(super) fn implied(c: &Case, fd: &mut Finding) -> Option<Choice> {
    named_by_event(c)
        .or_else(|| went_with(c, fd))
        .or_else(|| deletion_manner(c, fd))
}

/// The taint manager's event that marked it for deletion.
fn named_by_event(c: &Case) -> Option<Choice> {
    c.f.events
        .iter()
        .any(|e| {
            e.reason == "TaintManagerEviction" && e.message.starts_with("Marking for deletion")
        })
        .then(|| {
            (
                Cause::EvictedTaint,
                format!(
                    "the taint manager marked it for deletion: a NoExecute taint on {}",
                    c.node
                ),
                Confidence::High,
            )
        })
}

/// Its namespace, its owner or its node went: the pod with it.
fn went_with(c: &Case, fd: &mut Finding) -> Option<Choice> {
    let (f, node, ns) = (c.f, c.node, c.ns);
    let key = &f.key;
    if let Some(why) = &c.ns_gone {
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
    let owner = c.owner_state.as_ref();
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
            c.snap,
            c.history,
            f,
            fd,
            Some(owner_state),
            Confidence::Medium,
        ));
    }
    if c.node_gone {
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
    None
}

/// How it was deleted: at once (the pod GC's way) or with a grace period (a client's), as the
/// recorder or the live pod shows it.
fn deletion_manner(c: &Case, fd: &mut Finding) -> Option<Choice> {
    let (f, terminated) = (c.f, c.terminated);
    let key = &f.key;
    if let Some(r) = f.recorded {
        if r.deletion_seen.is_none() || r.deletion_grace == Some(0) {
            if terminated {
                return Some((Cause::PodGcThreshold, "a terminated pod deleted at once, without a grace period: how the pod garbage collector removes terminated pods over its threshold".into(), Confidence::Medium));
            }
            if r.node.is_empty() {
                // The API server removes a pod that never ran the moment a client deletes it
                // (the pod GC, seeing it terminating for that instant, may race the request, but
                // asked nothing first). Only a pod seen left terminating past one of the
                // collector's 20 s passes is the collector's to finish — the state a live pod
                // shows below. (`deleted` is when the recorder saw it go: late when it lags.)
                let lingered = match (r.deletion_seen, r.deleted) {
                    (Some(seen), Some(gone)) if !r.deleted_in_gap => {
                        gone.duration_since(seen) >= jiff::SignedDuration::from_secs(20)
                    }
                    _ => false,
                };
                return Some(if lingered {
                    (Cause::PodGcUnscheduledTerminating, "never scheduled, left terminating, then deleted without a grace period: how the pod garbage collector removes unscheduled terminating pods".into(), Confidence::Medium)
                } else {
                    (Cause::DeletedByClient, "a client deleted it before it was ever scheduled (the API server removes such a pod at once, without a grace period; an audit log would name who)".into(), Confidence::Low)
                });
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
pub(super) fn eviction_by_absence(
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
pub(super) fn before_the_pod(snap: &Snapshot, f: &Facts, t: Option<jiff::Timestamp>) -> bool {
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
pub(super) fn deletion_began(f: &Facts) -> Option<jiff::Timestamp> {
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
pub(super) fn replacement<'a>(snap: &'a Snapshot, f: &Facts) -> Option<&'a Event> {
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

/// An audit log entry as evidence: where it is in the log, and the request it records.
pub(super) fn push_audit(fd: &mut Finding, object: Option<&ObjectKey>, a: &AuditEntry) {
    push(
        fd,
        EvidenceKind::Log,
        object,
        format!("audit log {}", a.origin),
        a.describe(),
    );
}

pub(super) fn push(
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
pub(super) fn namespace_gone(snap: &Snapshot, history: &History, ns: &str) -> Option<String> {
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
