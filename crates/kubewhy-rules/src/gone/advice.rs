//! Next steps per Gone cause, and the source that would settle what the data cannot.

use super::*;

/// The source that would settle a question the data cannot answer.
pub(super) fn what_would_tell(history: &History, f: &Facts) -> String {
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
pub(super) fn advise(f: Finding, cause: Cause, ns: &str, node: &str, who: Option<&str>) -> Finding {
    let page = format!("kubewhy explain {}", cause.slug());
    match cause {
        Cause::PodGcThreshold => f
            .explain("kube-controller-manager's pod garbage collector keeps at most --terminated-pod-gc-threshold terminated (Succeeded or Failed) pods cluster-wide (12500 by default) and deletes the oldest beyond that, with their logs.")
            .step("See how close the cluster is to the threshold now, and which pods go next", Some("kubewhy scan -A".into()), RiskLevel::None, "")
            .step("Collect logs of finished pods that matter before the collector takes them; clean up finished pods at their source (Job TTL, CronJob history limits, Argo podGC)", None, RiskLevel::Low, ""),
        Cause::PodGcOrphaned => f
            .explain(mechanism(cause))
            .step("See whether the node came back, and why it was removed", Some(format!("kubectl get node {node}")), RiskLevel::None, ""),
        Cause::PodGcUnscheduledTerminating => f
            .explain(mechanism(cause))
            .step("Nothing to repair: the pod was already being deleted", None, RiskLevel::None, ""),
        Cause::NodeShutdown => f
            .explain(mechanism(cause))
            .step("See whether the node came back, and its shutdown events", Some(format!("kubectl describe node {node}")), RiskLevel::None, "")
            .step("If spot or preemptible nodes carry this workload, spread it over nodes and zones and keep singletons on on-demand nodes", None, RiskLevel::Low, ""),
        Cause::DeadlineExceeded => f
            .explain("The kubelet stops a pod whose spec.activeDeadlineSeconds has passed since it started (phase Failed, reason DeadlineExceeded); a Job's own activeDeadlineSeconds ends all its pods the same way. The Failed pod was then removed like any finished pod.")
            .step("See the deadline its owner sets", Some(format!("kubectl get jobs,cronjobs -n {ns} -o custom-columns=NAME:.metadata.name,DEADLINE:.spec.activeDeadlineSeconds")), RiskLevel::None, "")
            .step("Raise activeDeadlineSeconds, or find why the work took longer than it allows", None, RiskLevel::Low, ""),
        Cause::NodeAdmissionRejected | Cause::DeviceAllocationFailed => f
            .explain("The kubelet checks every pod it is given again before running it; a pod it refuses ends Failed at once, never having run, and its controller creates another. Such pods pile up when something sets spec.nodeName itself (bypassing the scheduler) or when the node changed between the scheduler's decision and the kubelet's check.")
            .step("See what the node can give and its labels", Some(format!("kubectl describe node {node}")), RiskLevel::None, "")
            .step("Find refused pods still there", Some(format!("kubectl get pods -n {ns} --field-selector=status.phase=Failed")), RiskLevel::None, ""),
        Cause::EvictedNodePressure => f
            .explain(mechanism(cause))
            .step("See the node's pressure", Some(format!("kubectl describe node {node}")), RiskLevel::None, ""),
        Cause::EvictedTaint => f
            .explain(mechanism(cause))
            .step("See why the node was tainted", Some(format!("kubectl describe node {node}")), RiskLevel::None, ""),
        Cause::EvictedApi => f
            .explain(mechanism(cause))
            .step("See the budgets that govern evictions in the namespace", Some(format!("kubectl get pdb -n {ns}")), RiskLevel::None, "")
            .step("To have the caller named next time, record `create` on `pods/eviction` (Metadata level) in the API server's audit policy", None, RiskLevel::Low, "")
            .step("Protect the workload with a PodDisruptionBudget if it has none", None, RiskLevel::Low, ""),
        Cause::Preempted => f
            .explain(mechanism(cause))
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

/// How a disruption works: the same words as for a pod being removed (`removal`).
fn mechanism(cause: Cause) -> &'static str {
    crate::disruption::mechanism(cause).unwrap_or_default()
}

/// Next steps for a pod the Argo workflow controller's pod GC deleted.
pub(super) fn argo_advice(f: Finding, argo: Option<&ArgoGc>, ns: &str, cause: Cause) -> Finding {
    f.explain("Argo Workflows deletes a workflow's pods itself when the Workflow's spec.podGC says so (OnPodCompletion, OnPodSuccess, OnWorkflowCompletion, OnWorkflowSuccess, optionally after deleteDelayDuration and only the pods its labelSelector matches); their logs go with them unless the workflow archives them.")
        .step(
            "Keep failed pods for their logs: strategy OnPodSuccess or OnWorkflowSuccess, a deleteDelayDuration, or archiveLogs",
            argo.map(|g| format!("kubectl get workflow {} -n {ns} -o jsonpath='{{.spec.podGC}}'", g.workflow.name)),
            RiskLevel::Low,
            "",
        )
        .step("What this cause means", Some(format!("kubewhy explain {}", cause.slug())), RiskLevel::None, "")
}
