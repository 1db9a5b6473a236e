//! Jobs that failed, read from the Job's own conditions (`Failed`, or from 1.31 first
//! `FailureTarget`) with the Job controller's reasons (`kubewhy_model::messages::pod`):
//!
//! - `job-backoff-exceeded`: `BackoffLimitExceeded` (the Job's pods failed `backoffLimit`
//!   times, 6 by default), `MaxFailedIndexesExceeded` / `FailedIndexes` (an indexed Job's
//!   `backoffLimitPerIndex`), `PodFailurePolicy` (a `FailJob` rule matched). The Job is only
//!   the messenger: the finding names its pods' own failure (an exit code, an OOM kill, a
//!   refusal by the kubelet), which is what to fix.
//! - `deadline-exceeded`: `DeadlineExceeded`, the Job's `activeDeadlineSeconds` ran out.
//!
//! The Job's pods are the finding's objects with the Job, so a failed Job's pods are not left
//! unexplained. A CronJob's failed Jobs are one finding.

use crate::Findings;
use crate::{Check, Ctx};
use kubewhy_model::messages::pod as words;
use kubewhy_model::objects::{Pod, Workload};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};
use std::collections::BTreeMap;

pub(crate) struct JobFailed;

const CAUSES: &[Cause] = &[Cause::JobBackoffExceeded, Cause::DeadlineExceeded];

/// Failed pods quoted one by one; the rest are counted.
const PODS_QUOTED: usize = 3;

impl Check for JobFailed {
    fn name(&self) -> &'static str {
        "job"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for job in ctx.snap.workloads.iter().filter(|w| w.kind == "Job") {
            if let Some(f) = check(ctx, job) {
                out.push(f);
            }
        }
    }
}

/// Why one failed pod of the Job failed: the cause and the words that show it.
fn pod_failure(pod: &Pod) -> Option<(Cause, String)> {
    let reason = pod.status.reason.as_deref().unwrap_or("");
    let message = pod.status.message.as_deref().unwrap_or("");
    if let Some(c) = words::reason_cause(reason, message) {
        return Some((c, format!("{reason}: {}", words::rejection_text(message))));
    }
    if reason == "Evicted" {
        return Some((Cause::EvictedNodePressure, format!("Evicted: {message}")));
    }
    pod.status
        .container_statuses
        .iter()
        .chain(&pod.status.init_container_statuses)
        .find_map(|cs| {
            let t = cs
                .state
                .terminated
                .as_deref()
                .or(cs.last_state.terminated.as_deref())
                .filter(|t| t.exit_code.is_some_and(|c| c != 0) || t.reason == "OOMKilled")?;
            let cause = crate::crash::termination_cause(t)?;
            Some((
                cause,
                format!(
                    "container {} ended: reason={}{}",
                    cs.name,
                    if t.reason.is_empty() {
                        "(none)"
                    } else {
                        &t.reason
                    },
                    t.exit_code
                        .map(|c| format!(" exitCode={c}"))
                        .unwrap_or_default()
                ),
            ))
        })
}

fn check(ctx: &Ctx, job: &Workload) -> Option<Finding> {
    let failed = job
        .status
        .conditions
        .iter()
        .find(|c| (c.type_ == "Failed" || c.type_ == "FailureTarget") && c.status == "True")?;
    let cause = words::job_failure_cause(&failed.reason)?;
    let ns = job.metadata.ns();
    let name = job.metadata.name.as_str();
    let key = ObjectKey::of("Job", &job.metadata);
    let pods: Vec<&Pod> = ctx
        .snap
        .pods
        .iter()
        .filter(|p| p.metadata.owned_by("Job", &job.metadata))
        .map(|p| &**p)
        .collect();
    let failures: Vec<(&Pod, Cause, String)> = pods
        .iter()
        .filter(|p| p.status.phase == "Failed")
        .filter_map(|p| pod_failure(p).map(|(c, w)| (*p, c, w)))
        .collect();
    // The pods' own causes, most frequent first.
    let mut by_cause: BTreeMap<Cause, usize> = BTreeMap::new();
    for (_, c, _) in &failures {
        *by_cause.entry(*c).or_default() += 1;
    }
    let mut ranked: Vec<(Cause, usize)> = by_cause.into_iter().collect();
    ranked.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let behind = ranked.first().map(|(c, _)| *c);
    let top = job
        .metadata
        .controller()
        .filter(|o| o.kind == "CronJob")
        .map(|o| format!("cronjob/{}", o.name))
        .unwrap_or_else(|| format!("job/{name}"));
    let summary = match (cause, behind) {
        (Cause::DeadlineExceeded, _) => format!(
            "Job {name} failed: it ran longer than its activeDeadlineSeconds{}",
            job.spec
                .active_deadline_seconds
                .map(|s| format!(" ({s}s)"))
                .unwrap_or_default()
        ),
        (_, Some(c)) => format!(
            "Job {name} failed after {} failed pod(s): they fail with {}",
            job.status.failed.unwrap_or(failures.len() as i64),
            c.slug()
        ),
        (_, None) => format!("Job {name} failed ({})", failed.reason),
    };
    let mut f = Finding::new(cause, Severity::Error, summary)
        .object(key.clone())
        .group(format!("{ns}/{top}|{}", failed.reason));
    for p in &pods {
        if p.status.phase == "Failed" {
            f = f.object(ObjectKey::of("Pod", &p.metadata));
        }
    }
    f = f.evidence(
        EvidenceKind::Condition,
        Some(&key),
        format!(
            "status.conditions[{}] reason={}",
            failed.type_, failed.reason
        ),
        failed.message.clone(),
    );
    let mut settings = Vec::new();
    if let Some(b) = job.spec.backoff_limit {
        settings.push(format!("backoffLimit={b}"));
    } else if cause == Cause::JobBackoffExceeded {
        settings.push("backoffLimit unset (6)".to_string());
    }
    if let Some(b) = job.spec.backoff_limit_per_index {
        settings.push(format!("backoffLimitPerIndex={b}"));
    }
    if let Some(d) = job.spec.active_deadline_seconds {
        settings.push(format!("activeDeadlineSeconds={d}"));
    }
    if job.spec.pod_failure_policy {
        settings.push("podFailurePolicy set".to_string());
    }
    if let Some(n) = job.status.failed {
        settings.push(format!("status.failed={n}"));
    }
    if !settings.is_empty() {
        f = f.evidence(EvidenceKind::Field, Some(&key), "spec", settings.join(" "));
    }
    for (p, c, w) in failures.iter().take(PODS_QUOTED) {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&ObjectKey::of("Pod", &p.metadata)),
            format!("failed pod ({})", c.slug()),
            w.clone(),
        );
    }
    if let Some(e) = ctx
        .snap
        .events_for("Job", &job.metadata)
        .into_iter()
        .rev()
        .find(|e| e.reason == failed.reason)
    {
        f = f.event(Some(&key), e);
    }
    let pods_say = match (&ranked[..], pods.is_empty()) {
        ([], true) => " Its pods are not in the data (a failed Job's pods stay until the Job is deleted, unless its podFailurePolicy or a TTL removed them): their own status or logs say why they failed.".to_string(),
        ([], false) => " Its failed pods' status does not say why (no termination record).".to_string(),
        (r, _) => format!(
            " Its pods' own failure is what to fix: {}.",
            r.iter()
                .map(|(c, n)| format!("{n} pod(s) {}", c.slug()))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let first_pod = failures
        .first()
        .map(|(p, _, _)| p.metadata.name.to_string());
    let explanation = match cause {
        Cause::DeadlineExceeded => format!(
            "A Job's spec.activeDeadlineSeconds bounds its whole run, retries included; when it passes, the Job controller stops its running pods and marks the Job Failed with reason DeadlineExceeded. The work took longer than allowed, or its pods kept failing and retrying until the time was up.{pods_say}"
        ),
        _ => format!(
            "The Job controller retries a Job's failed pods with a growing delay and gives up when failures reach backoffLimit (6 by default; per index with backoffLimitPerIndex) or a podFailurePolicy FailJob rule matches: the Job is Failed ({}) and creates no more pods. The Job only reports; the cause is in its pods.{pods_say}",
            failed.reason
        ),
    };
    f = f.explain(explanation);
    f = f.step(
        "See the Job's pods and how they ended",
        Some(format!(
            "kubectl get pods -n {ns} -l job-name={name} -o wide"
        )),
        RiskLevel::None,
        "",
    );
    if let Some(p) = &first_pod {
        f = f.step(
            "Read the failed pod's output",
            Some(format!("kubectl logs {p} -n {ns} --all-containers")),
            RiskLevel::None,
            "",
        );
    }
    if let Some(c) = behind.filter(|c| *c != cause) {
        f = f.step(
            format!("Fix what the pods fail with ({})", c.slug()),
            Some(format!("kubewhy explain {}", c.slug())),
            RiskLevel::None,
            "",
        );
    }
    f = match cause {
        Cause::DeadlineExceeded => f.step("Raise the Job's activeDeadlineSeconds if the work needs longer", None, RiskLevel::Low, ""),
        _ => f.step("Once fixed, run the Job again: a Failed Job never restarts (delete and re-create it, or let its CronJob start the next one)", Some(format!("kubectl get job {name} -n {ns} -o yaml > {name}.yaml  # remove status, uid, selector and controller-uid labels, then: kubectl replace --force -f {name}.yaml")), RiskLevel::Low, "Replacing deletes the failed Job and its pods with their logs."),
    };
    if failures.is_empty() && !pods.is_empty() {
        f = f.confidence(Confidence::Medium);
    }
    Some(f)
}

#[cfg(test)]
mod tests {
    use kubewhy_model::Cause;

    fn job(name: &str, owner: &str, conditions: &str) -> String {
        format!(
            "---\napiVersion: batch/v1\nkind: Job\nmetadata: {{name: {name}, namespace: ops, uid: {name}{owner}}}\nspec: {{backoffLimit: 2}}\nstatus: {{failed: 3, conditions: [{conditions}]}}\n"
        )
    }
    fn failed_pod(job: &str, i: usize, term: &str) -> String {
        format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: {job}-{i}, namespace: ops, ownerReferences: [{{kind: Job, name: {job}, uid: {job}, controller: true}}]}}\nspec: {{nodeName: node-1, restartPolicy: Never, containers: [{{name: c, image: x}}]}}\nstatus: {{phase: Failed, containerStatuses: [{{name: c, restartCount: 0, state: {{terminated: {term}}}}}]}}\n"
        )
    }

    /// 1.31+ writes FailureTarget before Failed; the pods' own cause (an OOM kill) is named.
    #[test]
    fn failure_target_and_the_pods_own_cause() {
        let yaml = job(
            "etl",
            "",
            "{type: FailureTarget, status: 'True', reason: BackoffLimitExceeded, message: Job has reached the specified backoff limit}",
        ) + &failed_pod("etl", 1, "{exitCode: 137, reason: OOMKilled}")
            + &failed_pod("etl", 2, "{exitCode: 137, reason: OOMKilled}")
            + &failed_pod("etl", 3, "{exitCode: 1, reason: Error}");
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
        assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
        let f = &d.findings[0];
        assert_eq!(f.cause, Cause::JobBackoffExceeded);
        assert_eq!(
            f.summary,
            "Job etl failed after 3 failed pod(s): they fail with oom-killed"
        );
        assert!(
            f.explanation
                .contains("2 pod(s) oom-killed, 1 pod(s) app-exit-error"),
            "{}",
            f.explanation
        );
        assert!(
            f.remediation
                .iter()
                .any(|s| s.command.as_deref() == Some("kubewhy explain oom-killed"))
        );
        assert_eq!(f.objects.len(), 4);
        assert!(d.unexplained.is_empty());
    }

    /// A podFailurePolicy FailJob rule, an indexed Job's per-index limit, the Job's deadline.
    #[test]
    fn every_reason_of_the_job_controller() {
        for (reason, cause) in [
            ("PodFailurePolicy", Cause::JobBackoffExceeded),
            ("MaxFailedIndexesExceeded", Cause::JobBackoffExceeded),
            ("FailedIndexes", Cause::JobBackoffExceeded),
            ("DeadlineExceeded", Cause::DeadlineExceeded),
        ] {
            let yaml = job(
                "j",
                "",
                &format!("{{type: Failed, status: 'True', reason: {reason}, message: m}}"),
            );
            let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
            let causes: Vec<Cause> = d.findings.iter().map(|f| f.cause).collect();
            assert_eq!(causes, [cause], "{reason}");
        }
        // A Job that completed, or whose condition is False, is not a finding.
        let yaml = job("ok", "", "{type: Complete, status: 'True'}")
            + &job(
                "unfailed",
                "",
                "{type: Failed, status: 'False', reason: BackoffLimitExceeded}",
            );
        assert!(
            crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z")
                .findings
                .is_empty()
        );
    }

    /// The failed Jobs of one CronJob are one finding.
    #[test]
    fn a_cronjobs_failed_jobs_are_one_finding() {
        let with_owner = |name: &str| {
            job(name, "", "{type: Failed, status: 'True', reason: BackoffLimitExceeded, message: x}").replace(
                &format!("uid: {name}}}"),
                &format!("uid: {name}, ownerReferences: [{{kind: CronJob, name: nightly, uid: cj, controller: true}}]}}"),
            )
        };
        let yaml = with_owner("nightly-29001") + &with_owner("nightly-29002");
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
        assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
        assert_eq!(d.findings[0].objects.len(), 2);
    }
}
