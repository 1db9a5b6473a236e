//! A pod removed with its owner: a Job's TTL, a CronJob's history limit, a cascade.

use super::*;

pub(super) enum OwnerState {
    Exists,
    Deleting,
    Deleted(Option<Box<ObjectRecord>>),
    Unknown,
}

pub(super) fn owner_state(
    snap: &Snapshot,
    history: &History,
    ns: &str,
    o: &OwnerLink,
) -> OwnerState {
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
pub(super) fn gone_before_ttl(
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
pub(super) fn owner_cause(
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
    let ns = f.key.namespace.as_str();
    if let Some(choice) = job_record(o, state, c)
        .or_else(|| job_deletion_audited(history, ns, o, fd))
        .or_else(|| cronjob_history(snap, ns, o, state, fd))
    {
        return choice;
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

/// The recorder's row of the deleted Job: its CronJob, or its TTL run out when it went.
fn job_record(o: &OwnerLink, state: Option<&OwnerState>, c: Confidence) -> Option<Choice> {
    let Some(OwnerState::Deleted(Some(r))) = state.filter(|_| o.kind == "Job") else {
        return None;
    };
    if let Some(cj) = r.owner.as_ref().filter(|w| w.kind == "CronJob") {
        return Some((
            Cause::JobTtlExpired,
            format!(
                "CronJob {}'s history limit removed its Job {}, and the pod with it",
                cj.name, o.name
            ),
            c,
        ));
    }
    if let (Some(ttl), Some(expiry), Some(gone)) =
        (r.ttl_seconds_after_finished, r.ttl_expiry(), r.deleted)
        && gone >= expiry
    {
        return Some((
            Cause::JobTtlExpired,
            format!(
                "its Job {} expired {ttl} s after finishing (ttlSecondsAfterFinished), and the pod went with it",
                o.name
            ),
            c,
        ));
    }
    None
}

/// An audit policy that records Job deletions names who deleted the Job.
fn job_deletion_audited(
    history: &History,
    ns: &str,
    o: &OwnerLink,
    fd: &mut Finding,
) -> Option<Choice> {
    let a = history
        .audit
        .iter()
        .find(|a| {
            a.resource == "jobs"
                && a.api_group == "batch"
                && a.namespace == ns
                && a.name == o.name
                && a.verb == "delete"
                && a.succeeded()
        })
        .filter(|_| o.kind == "Job")?;
    push_audit(fd, None, a);
    let actor = a.actor();
    Some(match actor.strip_prefix(GC_SA) {
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
    })
}

/// A CronJob's history limit: its "Deleted job NAME" event, or the CronJob that names its
/// Jobs like this one.
fn cronjob_history(
    snap: &Snapshot,
    ns: &str,
    o: &OwnerLink,
    state: Option<&OwnerState>,
    fd: &mut Finding,
) -> Option<Choice> {
    if o.kind != "Job" || !matches!(state, Some(OwnerState::Deleting | OwnerState::Deleted(_))) {
        return None;
    }
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
        return Some((
            Cause::JobTtlExpired,
            format!(
                "CronJob {}'s history limit removed its Job {}, and the pod with it",
                e.involved.name, o.name
            ),
            Confidence::High,
        ));
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
        return Some((
            Cause::JobTtlExpired,
            format!(
                "CronJob {cj_name}'s history limit most likely removed its Job {}, and the pod with it",
                o.name
            ),
            Confidence::Medium,
        ));
    }
    None
}
