//! Foresight of the pod garbage collector (kube-controller-manager's podgc controller): which
//! pods it is about to delete, while their logs and status can still be collected.
//!
//! - Terminated pods (Succeeded or Failed) over `--terminated-pod-gc-threshold` (12500 unless the
//!   kube-controller-manager pod in the data says otherwise) are deleted, oldest first by
//!   creation time. Reported from 80 % of the threshold, with the pods next in line.
//! - Pods bound to a node that no longer exists are force-deleted after a 40 s quarantine.

use crate::Findings;
use crate::{Check, Ctx};
use kubewhy_model::objects::Pod;
use kubewhy_model::{Cause, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};

pub(crate) struct PodGc;

/// kube-controller-manager's default `--terminated-pod-gc-threshold`.
pub const DEFAULT_THRESHOLD: usize = 12_500;
/// Reported from this share of the threshold.
const WARN_PERCENT: usize = 80;
/// Pods named one by one as next in line; the rest are counted.
const NEXT_MAX: usize = 20;

const CAUSES: &[Cause] = &[
    Cause::PodGcThreshold,
    Cause::PodGcOrphaned,
    Cause::JobTtlExpired,
];

/// Jobs whose TTL ends within this many seconds are reported (their pods go with them).
const TTL_WINDOW_SECS: i64 = 3600;

impl Check for PodGc {
    fn name(&self) -> &'static str {
        "podgc"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        terminated(ctx, out);
        orphaned(ctx, out);
        job_ttl(ctx, out);
    }
}

/// The threshold the kube-controller-manager pod in the data runs with, and where it was read.
fn threshold(ctx: &Ctx) -> (usize, Option<(ObjectKey, String)>) {
    if let Some(t) = ctx.snap.gc_threshold {
        return (t, None);
    }
    for p in &ctx.snap.pods {
        for c in &p.spec.containers {
            if !c
                .command
                .iter()
                .chain(&c.args)
                .any(|w| w.contains("kube-controller-manager"))
            {
                continue;
            }
            for w in c.command.iter().chain(&c.args) {
                if let Some(v) = w.strip_prefix("--terminated-pod-gc-threshold=")
                    && let Ok(n) = v.trim().parse::<usize>()
                {
                    return (n, Some((ObjectKey::of("Pod", &p.metadata), w.to_string())));
                }
            }
        }
    }
    (DEFAULT_THRESHOLD, None)
}

fn is_terminated(p: &Pod) -> bool {
    matches!(p.status.phase.as_str(), "Succeeded" | "Failed")
}

/// The pods next in line and where the threshold comes from, as evidence.
fn threshold_evidence(
    ctx: &Ctx,
    mut f: Finding,
    next: &[&Pod],
    count: usize,
    limit: usize,
    source: Option<(ObjectKey, String)>,
) -> Finding {
    let listed: Vec<String> = next
        .iter()
        .map(|p| {
            format!(
                "{}/{} ({}, created {})",
                p.metadata.ns(),
                p.metadata.name,
                p.status.phase,
                p.metadata
                    .creation_timestamp
                    .map(|t| t.to_string())
                    .unwrap_or_else(|| "?".into())
            )
        })
        .collect();
    f = f.evidence(
        EvidenceKind::Analysis,
        None,
        "terminated pods (Succeeded and Failed) in the data, oldest first",
        format!(
            "{count} terminated, threshold {limit}; next in line:\n{}",
            listed.join("\n")
        ),
    );
    f = match source {
        Some((key, flag)) => f.evidence(
            EvidenceKind::Field,
            Some(&key),
            "kube-controller-manager command line",
            flag,
        ),
        None if ctx.snap.gc_threshold.is_some() => f.evidence(
            EvidenceKind::Analysis,
            None,
            "threshold",
            format!("{limit}: as given with --gc-threshold"),
        ),
        None => f.evidence(
            EvidenceKind::Analysis,
            None,
            "threshold",
            format!("{limit}: kube-controller-manager's default (no kube-controller-manager pod with --terminated-pod-gc-threshold in the data; --gc-threshold sets it)"),
        ),
    };
    f
}

fn terminated(ctx: &Ctx, out: &mut Findings) {
    let (limit, source) = threshold(ctx);
    if limit == 0 {
        return; // 0 disables terminated-pod GC
    }
    let mut dead: Vec<&Pod> = ctx
        .snap
        .pods
        .iter()
        .map(|p| &**p)
        .filter(|p| is_terminated(p) && p.metadata.deletion_timestamp.is_none())
        .collect();
    let count = dead.len();
    if count * 100 < limit * WARN_PERCENT {
        return;
    }
    // Oldest first, as the collector deletes them (ties by name, for a stable answer).
    dead.sort_by(|a, b| {
        (a.metadata.creation_timestamp, &a.metadata.name)
            .cmp(&(b.metadata.creation_timestamp, &b.metadata.name))
    });
    let over = count.saturating_sub(limit);
    let next: Vec<&Pod> = dead
        .iter()
        .copied()
        .take(if over > 0 {
            over.min(NEXT_MAX)
        } else {
            NEXT_MAX
        })
        .collect();
    let (severity, summary) = if over > 0 {
        (
            Severity::Warning,
            format!(
                "{count} terminated pods exceed the pod GC threshold {limit}: the oldest {over} are being deleted"
            ),
        )
    } else {
        (
            Severity::Info,
            format!(
                "{count} terminated pods are close to the pod GC threshold {limit}: {} more and the oldest start being deleted",
                limit - count + 1
            ),
        )
    };
    let mut f = Finding::new(Cause::PodGcThreshold, severity, summary).group("podgc");
    for p in &next {
        f = f.object(ObjectKey::of("Pod", &p.metadata));
    }
    f = threshold_evidence(ctx, f, &next, count, limit, source);
    let failed_jobs = next.iter().filter(|p| p.status.phase == "Failed").count();
    f = f
        .explain(format!(
            "kube-controller-manager's pod garbage collector keeps at most {limit} terminated pods cluster-wide; above that it deletes the oldest (by creation time) every 20 s. A deleted pod takes its logs and exit status with it: nobody deleted it by hand, it just vanished.{}",
            if failed_jobs > 0 {
                format!(" {failed_jobs} of the pods next in line failed: their logs are the only record of why.")
            } else {
                String::new()
            }
        ))
        .step(
            "Collect the logs of the pods next in line now, if they matter (failed Jobs, workflow steps)",
            next.first().map(|p| format!("kubectl logs {} -n {} --all-containers", p.metadata.name, p.metadata.ns())),
            RiskLevel::None,
            "",
        )
        .step(
            "Clean up finished pods at their source: ttlSecondsAfterFinished on Jobs, history limits on CronJobs, podGC on Argo workflows",
            None,
            RiskLevel::Low,
            "",
        )
        .step(
            "Or raise kube-controller-manager's --terminated-pod-gc-threshold",
            None,
            RiskLevel::Low,
            "More terminated pods kept means more objects in etcd and in every LIST.",
        );
    out.push(f);
}

fn orphaned(ctx: &Ctx, out: &mut Findings) {
    let snap = ctx.snap;
    if !snap.nodes_known() {
        return;
    }
    for p in &snap.pods {
        // Pods being deleted already have their finding (node-deleted).
        if p.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let Some(node) = p.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
            continue;
        };
        if snap.node(node).is_some() {
            continue;
        }
        let key = ObjectKey::of("Pod", &p.metadata);
        let f = Finding::new(
            Cause::PodGcOrphaned,
            Severity::Warning,
            format!("The pod's node {node} no longer exists: the pod garbage collector will delete it"),
        )
        .object(key.clone())
        .group(format!("orphan|{node}"))
        .evidence(
            EvidenceKind::Absence,
            Some(&key),
            "spec.nodeName",
            format!("Node {node} is not in the data (nodes were)"),
        )
        .explain(format!("The pod is bound to node {node}, which was deleted. The pod garbage collector force-deletes pods of vanished nodes after a 40 s quarantine (then every 20 s): the pod will vanish without anyone deleting it, and its controller, if any, creates a replacement. If it is still here long after, kube-controller-manager is not running."))
        .step("Save what matters about it now (status, logs are gone with the node)", Some(format!("kubectl get pod {} -n {} -o yaml", p.metadata.name, p.metadata.ns())), RiskLevel::None, "")
        .step("Check the controller manager runs", Some("kubectl -n kube-system get pods -l component=kube-controller-manager".into()), RiskLevel::None, "");
        out.push(f);
    }
}

/// Finished Jobs whose `ttlSecondsAfterFinished` ends soon: the TTL-after-finished controller
/// deletes the Job and, by cascade, its pods and their logs.
fn job_ttl(ctx: &Ctx, out: &mut Findings) {
    let snap = ctx.snap;
    for job in snap.workloads.iter().filter(|w| w.kind == "Job") {
        let Some(ttl) = job.spec.ttl_seconds_after_finished else {
            continue;
        };
        if job.metadata.deletion_timestamp.is_some() {
            continue;
        }
        let Some(done) = job
            .status
            .conditions
            .iter()
            .find(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
        else {
            continue;
        };
        let Some(finished) = done.last_transition_time else {
            continue;
        };
        let expires = finished.as_second() + ttl;
        let left = expires - ctx.now.as_second();
        if left > TTL_WINDOW_SECS {
            continue;
        }
        let failed = done.type_ == "Failed";
        let key = ObjectKey::of("Job", &job.metadata);
        let pods: Vec<&Pod> = snap
            .pods
            .iter()
            .map(|p| &**p)
            .filter(|p| p.metadata.owned_by("Job", &job.metadata))
            .collect();
        let when = jiff::Timestamp::from_second(expires)
            .map(|t| t.to_string())
            .unwrap_or_default();
        let summary = if left > 0 {
            format!(
                "Job {} and its {} pod(s) will be deleted in {} (ttlSecondsAfterFinished {ttl})",
                job.metadata.name,
                pods.len(),
                crate::podinfo::human_duration(left)
            )
        } else {
            format!(
                "Job {} is past its ttlSecondsAfterFinished ({ttl}) and is due for deletion with its {} pod(s)",
                job.metadata.name,
                pods.len()
            )
        };
        let mut f = Finding::new(
            Cause::JobTtlExpired,
            if failed {
                Severity::Warning
            } else {
                Severity::Info
            },
            summary,
        )
        .object(key.clone())
        .group(format!("ttl|{}|{}", job.metadata.ns(), job.metadata.name))
        .evidence(
            EvidenceKind::Condition,
            Some(&key),
            format!("status.conditions[{}] lastTransitionTime", done.type_),
            format!("{finished} + ttlSecondsAfterFinished {ttl} s = {when}"),
        );
        for p in &pods {
            f = f.object(ObjectKey::of("Pod", &p.metadata));
        }
        let ns = job.metadata.ns();
        f = f
            .explain(format!(
                "The TTL-after-finished controller deletes a finished Job {ttl} s after it finished, with foreground propagation: its pods go with it, and their logs and exit status with them.{}",
                if failed { " This Job failed: its pods' logs are the only record of why." } else { "" }
            ))
            .step(
                "Collect what matters now",
                Some(format!("kubectl logs -n {ns} job/{} --all-containers", job.metadata.name)),
                RiskLevel::None,
                "",
            )
            .step(
                "To keep it longer, raise or remove ttlSecondsAfterFinished (it can be changed on the Job)",
                Some(format!("kubectl patch job {} -n {ns} --type=merge -p '{{\"spec\":{{\"ttlSecondsAfterFinished\":null}}}}'", job.metadata.name)),
                RiskLevel::Low,
                "Finished Jobs and pods then stay until deleted by hand or by the pod GC threshold.",
            );
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn done(name: &str, phase: &str, created: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: jobs, creationTimestamp: '{created}'}}\nspec: {{nodeName: node-1, restartPolicy: Never, containers: [{{name: c}}]}}\nstatus: {{phase: {phase}}}\n---\n"
        )
    }

    const NODE: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {conditions: [{type: Ready, status: 'True'}]}\n---\n";

    const KCM: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: kube-controller-manager-cp, namespace: kube-system, labels: {component: kube-controller-manager}}\nspec: {nodeName: node-1, containers: [{name: kcm, command: [kube-controller-manager, --terminated-pod-gc-threshold=5, --leader-elect=true]}]}\nstatus: {phase: Running}\n---\n";

    #[test]
    fn over_the_threshold_the_oldest_are_named_first() {
        let mut yaml = format!("{NODE}{KCM}");
        for (i, phase) in [
            "Succeeded",
            "Failed",
            "Succeeded",
            "Succeeded",
            "Failed",
            "Succeeded",
            "Succeeded",
        ]
        .iter()
        .enumerate()
        {
            yaml.push_str(&done(
                &format!("run-{i}"),
                phase,
                &format!("2026-11-22T0{i}:00:00Z"),
            ));
        }
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T12:00:00Z");
        let f: Vec<_> = d
            .findings
            .iter()
            .filter(|f| f.cause == Cause::PodGcThreshold)
            .collect();
        assert_eq!(f.len(), 1);
        assert_eq!(f[0].severity, Severity::Warning);
        let names: Vec<&str> = f[0].objects.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, vec!["run-0", "run-1"]);
        assert!(
            f[0].summary
                .starts_with("7 terminated pods exceed the pod GC threshold 5")
        );
        let flag = f[0]
            .evidence
            .iter()
            .find(|e| e.source == "kube-controller-manager command line")
            .unwrap();
        assert_eq!(flag.quote, "--terminated-pod-gc-threshold=5");
        assert!(
            f[0].explanation
                .contains("1 of the pods next in line failed")
        );
    }

    #[test]
    fn a_threshold_given_on_the_command_line_is_named_as_given() {
        let mut yaml = String::new();
        for i in 0..3 {
            yaml.push_str(&done(
                &format!("run-{i}"),
                "Succeeded",
                &format!("2026-11-22T0{i}:00:00Z"),
            ));
        }
        let mut snap = crate::tests::snapshot_of(&yaml, "2026-11-22T12:00:00Z");
        snap.gc_threshold = Some(2);
        let d = crate::diagnose(&snap);
        let f = d
            .findings
            .iter()
            .find(|f| f.cause == Cause::PodGcThreshold)
            .expect("over the threshold");
        let quotes: Vec<&str> = f.evidence.iter().map(|e| e.quote.as_str()).collect();
        assert!(
            quotes.contains(&"2: as given with --gc-threshold"),
            "{quotes:?}"
        );
        assert!(!quotes.iter().any(|q| q.contains("default")), "{quotes:?}");
    }

    #[test]
    fn below_80_percent_nothing_is_said() {
        let mut yaml = format!("{NODE}{KCM}");
        for i in 0..3 {
            yaml.push_str(&done(
                &format!("run-{i}"),
                "Succeeded",
                &format!("2026-11-22T0{i}:00:00Z"),
            ));
        }
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T12:00:00Z");
        assert!(d.findings.iter().all(|f| f.cause != Cause::PodGcThreshold));
        // 4 of 5 is 80 %: close, said as info.
        yaml.push_str(&done("run-3", "Succeeded", "2026-11-22T03:00:00Z"));
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T12:00:00Z");
        let f = d
            .findings
            .iter()
            .find(|f| f.cause == Cause::PodGcThreshold)
            .unwrap();
        assert_eq!(f.severity, Severity::Info);
        assert!(
            f.summary
                .contains("2 more and the oldest start being deleted"),
            "{}",
            f.summary
        );
    }

    #[test]
    fn a_failed_job_near_its_ttl_is_named_with_its_pods() {
        let yaml = "apiVersion: batch/v1\nkind: Job\nmetadata: {name: nightly, namespace: batch, uid: j1}\nspec: {ttlSecondsAfterFinished: 3600}\nstatus: {conditions: [{type: Failed, status: 'True', reason: BackoffLimitExceeded, lastTransitionTime: '2026-11-22T11:30:00Z'}]}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: nightly-abc, namespace: batch, ownerReferences: [{apiVersion: batch/v1, kind: Job, name: nightly, uid: j1, controller: true}]}\nspec: {restartPolicy: Never, containers: [{name: c}]}\nstatus: {phase: Failed}\n";
        let d = crate::tests::diagnose_yaml(yaml, "2026-11-22T12:00:00Z");
        let f = d
            .findings
            .iter()
            .find(|f| f.cause == Cause::JobTtlExpired)
            .unwrap();
        assert_eq!(f.severity, Severity::Warning);
        assert_eq!(
            f.summary,
            "Job nightly and its 1 pod(s) will be deleted in 30m0s (ttlSecondsAfterFinished 3600)"
        );
        let names: Vec<&str> = f.objects.iter().map(|o| o.name.as_str()).collect();
        assert_eq!(names, vec!["nightly", "nightly-abc"]);
        // Two hours before the end: nothing yet.
        let d = crate::tests::diagnose_yaml(&yaml.replace("3600", "9000"), "2026-11-22T12:00:00Z");
        assert!(d.findings.iter().all(|f| f.cause != Cause::JobTtlExpired));
    }

    #[test]
    fn a_pod_on_a_vanished_node_is_about_to_be_collected() {
        let yaml = "apiVersion: v1\nkind: Node\nmetadata: {name: node-2}\n---\napiVersion: v1\nkind: Pod\nmetadata: {name: web, namespace: shop}\nspec: {nodeName: node-1, containers: [{name: c}]}\nstatus: {phase: Running}\n";
        let d = crate::tests::diagnose_yaml(yaml, "2026-11-22T12:00:00Z");
        let f = d
            .findings
            .iter()
            .find(|f| f.cause == Cause::PodGcOrphaned)
            .unwrap();
        assert_eq!(f.objects[0].name, "web");
    }
}
