//! Workloads whose pods are never created: the API server refuses them at admission
//! (ResourceQuota, LimitRange, PodSecurity, a webhook, a missing service account), so there is
//! no pod to look at — only the controller's `FailedCreate` events and the ReplicaSet's
//! `ReplicaFailure` condition, which stays while the refusal lasts.

use crate::Findings;
use crate::scheduling::{Cluster, Failure, simulate};
use crate::{Check, Ctx};
use kubewhy_model::objects::{Meta, Pod, Toleration, Workload, condition};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};
use std::collections::HashMap;

pub(crate) struct PodCreation;

pub(crate) use kubewhy_model::messages::admission::{Refusal, classify, inner_error};

impl Check for PodCreation {
    fn name(&self) -> &'static str {
        "creation"
    }
    fn causes(&self) -> &'static [Cause] {
        &[Cause::PodCreationRejected, Cause::HostPortConflict]
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        daemonsets_without_ports(ctx, out);
        // The ReplicaSets by the namespace and name of the Deployment that owns them: one pass,
        // not one per Deployment.
        let mut replica_sets: HashMap<(&str, &str), Vec<&Meta>> = HashMap::new();
        for rs in ctx.snap.workloads.iter().filter(|w| w.kind == "ReplicaSet") {
            for o in rs
                .metadata
                .owner_references
                .iter()
                .filter(|o| o.kind == "Deployment")
            {
                replica_sets
                    .entry((rs.metadata.ns(), o.name.as_str()))
                    .or_default()
                    .push(&rs.metadata);
            }
        }
        for w in &ctx.snap.workloads {
            // A Deployment copies its ReplicaSet's ReplicaFailure: it speaks for it only when
            // the data holds none of its ReplicaSets (a pasted `describe deployment`).
            let deployment_alone = w.kind == "Deployment"
                && !replica_sets
                    .get(&(w.metadata.ns(), w.metadata.name.as_str()))
                    .is_some_and(|rss| rss.iter().any(|rs| rs.owned_by("Deployment", &w.metadata)));
            if !deployment_alone
                && !matches!(
                    w.kind.as_str(),
                    "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job"
                )
            {
                continue;
            }
            if let Some(f) = check_workload(ctx, w) {
                out.push(f);
            }
        }
    }
}

/// Tolerations the DaemonSet controller adds to every daemon pod.
const DAEMON_TOLERATIONS: &[(&str, &str)] = &[
    ("node.kubernetes.io/not-ready", "NoExecute"),
    ("node.kubernetes.io/unreachable", "NoExecute"),
    ("node.kubernetes.io/disk-pressure", "NoSchedule"),
    ("node.kubernetes.io/memory-pressure", "NoSchedule"),
    ("node.kubernetes.io/pid-pressure", "NoSchedule"),
    ("node.kubernetes.io/unschedulable", "NoSchedule"),
];

/// DaemonSets with no pod on nodes they target because the template's hostPort is taken there.
/// Older DaemonSet controllers leave such nodes out of `desiredNumberScheduled` (no Pending pod
/// ever shows the problem); newer ones create a pod that stays Pending, which the Pending check
/// explains — so only nodes without any pod of the DaemonSet are reported here.
fn daemonsets_without_ports(ctx: &Ctx, out: &mut Findings) {
    let snap = ctx.snap;
    if !snap.nodes_known() {
        return;
    }
    let candidates: Vec<&Workload> = snap
        .workloads
        .iter()
        .filter(|w| w.kind == "DaemonSet" && w.metadata.deletion_timestamp.is_none())
        .filter(|w| {
            w.spec.template.as_ref().is_some_and(|t| {
                t.spec
                    .containers
                    .iter()
                    .flat_map(|c| &c.ports)
                    .any(|p| p.host_port.is_some_and(|h| h > 0))
            })
        })
        .collect();
    if candidates.is_empty() {
        return;
    }
    let cluster = Cluster::new(snap);
    for w in candidates {
        let Some(template) = &w.spec.template else {
            continue;
        };
        let mut pod = Pod {
            spec: template.spec.clone(),
            ..Default::default()
        };
        pod.metadata.namespace = w.metadata.namespace.clone();
        pod.metadata.labels = template.metadata.labels.clone();
        for (key, effect) in DAEMON_TOLERATIONS {
            pod.spec.tolerations.push(Toleration {
                key: Some((*key).into()),
                operator: Some("Exists".into()),
                effect: Some((*effect).into()),
                ..Default::default()
            });
        }
        let served: std::collections::HashSet<&str> = snap
            .pods
            .iter()
            .map(|p| &**p)
            .filter(|p| p.metadata.owned_by("DaemonSet", &w.metadata))
            .flat_map(daemon_pod_nodes)
            .collect();
        let sim = simulate(&cluster, &pod);
        let blocked: Vec<(&str, &Failure)> = sim
            .nodes
            .iter()
            .filter(|n| !served.contains(n.node.metadata.name.as_str()))
            // A node the DaemonSet does not target (selector, taints) is not a gap.
            .filter(|n| {
                !n.failures.iter().any(|f| {
                    matches!(
                        f,
                        Failure::Unschedulable | Failure::Taint(_) | Failure::NodeAffinity(_)
                    )
                })
            })
            .filter_map(|n| {
                n.failures
                    .iter()
                    .find(|f| matches!(f, Failure::HostPort { .. }))
                    .map(|f| (n.node.metadata.name.as_str(), f))
            })
            .collect();
        if blocked.is_empty() {
            continue;
        }
        out.push(port_gap(w, &blocked));
    }
}

/// The finding of a DaemonSet with no pod on the nodes `blocked`, where another pod holds its
/// hostPort.
fn port_gap(w: &Workload, blocked: &[(&str, &Failure)]) -> Finding {
    let key = ObjectKey::of("DaemonSet", &w.metadata);
    let ns = w.metadata.ns();
    let mut f = Finding::new(
        Cause::HostPortConflict,
        Severity::Error,
        format!(
            "DaemonSet {} has no pod on {} node(s) where its hostPort is taken",
            w.metadata.name,
            blocked.len()
        ),
    )
    .object(key.clone())
    .group(format!("daemonset/{ns}/{}", w.metadata.name))
    .evidence(
        EvidenceKind::Field,
        Some(&key),
        "status.desiredNumberScheduled / currentNumberScheduled",
        format!(
            "{} / {}",
            w.status
                .desired_number_scheduled
                .map_or("?".into(), |n| n.to_string()),
            w.status
                .current_number_scheduled
                .map_or("?".into(), |n| n.to_string())
        ),
    );
    for (node, failure) in blocked.iter().take(5) {
        let node_key = ObjectKey {
            kind: "Node".into(),
            name: (*node).into(),
            ..Default::default()
        };
        f = f.evidence(
            EvidenceKind::Analysis,
            Some(&node_key),
            "the DaemonSet's pod template against the node",
            format!("{node}: {}", failure.need()),
        );
    }
    let holder = match blocked[0].1 {
        Failure::HostPort { holder, .. } => Some(holder.clone()),
        _ => None,
    };
    f = f
        .explain(format!(
            "A hostPort can be bound by one pod per node. On {} node(s) the DaemonSet targets, another pod already holds the template's hostPort, so the DaemonSet has no pod there: older controllers leave such nodes out of desiredNumberScheduled, so nothing is Pending and the gap is easy to miss. Often it is a second copy of the same agent (an old DaemonSet, a static pod, a hostNetwork pod).",
            blocked.len()
        ))
        .step("See the pods holding the port", holder.map(|h| format!("kubectl get pod {} -n {} -o wide", h.name, h.namespace)), RiskLevel::None, "")
        .step(format!("Remove the duplicate agent, or change the hostPort of daemonset/{}", w.metadata.name), Some(format!("kubectl -n {ns} edit daemonset {}", w.metadata.name)), RiskLevel::Medium, "Clients that reach the agent on the node's port must follow a port change.");
    f
}

/// The node a daemon pod is for: its `nodeName` once bound; before that, the node its
/// controller pinned it to with `matchFields metadata.name` (DaemonSets scheduled by
/// kube-scheduler, 1.12+).
fn daemon_pod_nodes(p: &Pod) -> Vec<&str> {
    if let Some(n) = p.spec.node_name.as_deref().filter(|n| !n.is_empty()) {
        return vec![n];
    }
    p.spec
        .affinity
        .node_affinity
        .iter()
        .flat_map(|a| &a.required)
        .flat_map(|r| &r.node_selector_terms)
        .flat_map(|t| &t.match_fields)
        .filter(|f| f.key == "metadata.name" && f.operator == "In")
        .flat_map(|f| f.values.iter().map(|v| v.as_str()))
        .collect()
}

/// Pods the workload owns now.
fn owned_pods(ctx: &Ctx, w: &Workload) -> i64 {
    ctx.snap
        .pods
        .iter()
        .filter(|p| p.metadata.owned_by(&w.kind, &w.metadata))
        .count() as i64
}

/// How many pods the workload wants, when its state says (Jobs: at least one while active).
fn desired(w: &Workload) -> Option<i64> {
    match w.kind.as_str() {
        "ReplicaSet" | "StatefulSet" => Some(w.spec.replicas.unwrap_or(1)),
        "DaemonSet" => w.status.desired_number_scheduled,
        _ => None,
    }
}

fn check_workload(ctx: &Ctx, w: &Workload) -> Option<Finding> {
    let key = ObjectKey::of(&w.kind, &w.metadata);
    let cond = condition(&w.status.conditions, "ReplicaFailure")
        .filter(|c| c.status == "True" && c.reason == "FailedCreate");
    let events = ctx.snap.events_for(&w.kind, &w.metadata);
    let event = events
        .iter()
        .rev()
        .find(|e| e.reason == "FailedCreate" && e.type_ != "Normal");
    // A FailedCreate event may be old news: only a workload still short of pods is stuck.
    let have = owned_pods(ctx, w);
    let short = match desired(w) {
        Some(want) => have < want,
        None => have == 0,
    };
    let message = match (cond, event) {
        (Some(c), _) if !c.message.is_empty() => c.message.to_string(),
        (_, Some(e)) if short || cond.is_some() => e.message.to_string(),
        // `kubectl describe` prints the condition without its message: refused, but why is
        // in the controller's events.
        (Some(_), None) => String::new(),
        _ => return None,
    };
    let refusal = classify(inner_error(&message));
    let (summary, group, why, mut confidence) = describe(ctx, w, &refusal);
    if message.is_empty() {
        confidence = Confidence::Low;
    }
    let mut f = Finding::new(Cause::PodCreationRejected, Severity::Error, summary)
        .object(key.clone())
        .group(group)
        .confidence(confidence);
    if let Some(c) = cond {
        f = f.evidence(
            EvidenceKind::Condition,
            Some(&key),
            format!("status.conditions[ReplicaFailure] reason={}", c.reason),
            c.message.clone(),
        );
    }
    if let Some(e) = event {
        f = f.event(Some(&key), e);
    }
    if let Some(want) = desired(w) {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&key),
            "pods owned / wanted",
            format!("{have} of {want}"),
        );
    }
    f = related_evidence(ctx, w, &refusal, f);
    let owner = workload_ref(w);
    f = f.explain(format!(
        "The {} controller asks the API server for pods and admission refuses them, so no pod exists to be scheduled or started; the controller retries with a back-off. {why}",
        w.kind
    ));
    Some(steps(f, w, &owner, &refusal))
}

/// `deployment/web` for a ReplicaSet a Deployment owns, else `replicaset/web-abc`.
fn workload_ref(w: &Workload) -> String {
    if w.kind == "ReplicaSet"
        && let Some(o) = w.metadata.controller()
        && o.kind == "Deployment"
    {
        return format!("deployment/{}", o.name);
    }
    format!("{}/{}", w.kind.to_lowercase(), w.metadata.name)
}

fn describe(ctx: &Ctx, w: &Workload, r: &Refusal) -> (String, String, String, Confidence) {
    let ns = w.metadata.ns();
    match r {
        Refusal::Quota { name, detail } => (
            format!("ResourceQuota \"{name}\" refuses the pods of {} {}", w.kind, w.metadata.name),
            format!("quota/{ns}/{name}"),
            format!("ResourceQuota {ns}/{name} caps what the namespace's pods may request or how many may exist: {detail}. A quota on requests or limits also refuses pods that do not set them."),
            Confidence::High,
        ),
        Refusal::LimitRange(detail) => (
            format!("A LimitRange refuses the pods of {} {}", w.kind, w.metadata.name),
            format!("limitrange/{ns}"),
            format!("A LimitRange in namespace {ns} bounds each container's requests and limits, and the pod template is outside them: {detail}."),
            Confidence::High,
        ),
        Refusal::PodSecurity(detail) => (
            format!("Pod security admission refuses the pods of {} {}", w.kind, w.metadata.name),
            format!("podsecurity/{ns}"),
            format!("The namespace enforces a Pod Security level (label pod-security.kubernetes.io/enforce) or a PodSecurityPolicy that the pod template violates: {detail}."),
            Confidence::High,
        ),
        Refusal::WebhookDenied { webhook, detail } => (
            format!("Admission webhook \"{webhook}\" denies the pods of {} {}", w.kind, w.metadata.name),
            format!("webhook/{webhook}"),
            format!("The webhook \"{webhook}\" examined the pod and refused it: {detail}. It is a policy decision of whoever runs that webhook (OPA Gatekeeper, Kyverno, a vendor's controller)."),
            Confidence::High,
        ),
        Refusal::WebhookUnreachable { webhook, detail } => (
            format!("Admission webhook \"{webhook}\" cannot be called, so pods of {} {} are refused", w.kind, w.metadata.name),
            format!("webhook/{webhook}"),
            format!("The API server must call the webhook \"{webhook}\" for every pod, and the call fails ({detail}); with failurePolicy Fail that refuses the pod. The webhook's service is down, has no endpoints, or its certificate is not trusted."),
            Confidence::High,
        ),
        Refusal::ServiceAccountMissing(sa) => {
            let known = ctx.snap.kinds_loaded.contains_key("ServiceAccount");
            (
                format!("ServiceAccount {sa} that the pods of {} {} use does not exist", w.kind, w.metadata.name),
                format!("serviceaccount/{sa}"),
                format!("Admission rejects a pod whose serviceAccountName does not exist in its namespace{}.", if known { "; the snapshot's ServiceAccounts confirm it is missing" } else { "" }),
                Confidence::High,
            )
        }
        Refusal::NamespaceTerminating => (
            format!("Namespace {ns} is being deleted, so no pod can be created in it"),
            format!("ns-terminating/{ns}"),
            "A namespace that is Terminating accepts no new objects; the workload's pods will never come back there.".to_string(),
            Confidence::High,
        ),
        Refusal::Other(err) => (
            format!("The API server refuses the pods of {} {}", w.kind, w.metadata.name),
            format!("other/{ns}/{}", w.metadata.name),
            format!("The refusal: {err}"),
            Confidence::Medium,
        ),
    }
}

/// What the snapshot holds about the refusing object: the quota's numbers, the webhook's
/// service, the missing service account.
fn related_evidence(ctx: &Ctx, w: &Workload, r: &Refusal, mut f: Finding) -> Finding {
    let snap = ctx.snap;
    let ns = w.metadata.ns();
    match r {
        Refusal::Quota { name, .. } => {
            if let Some(q) = snap
                .resource_quotas
                .iter()
                .find(|q| q.metadata.ns() == ns && q.metadata.name == *name)
            {
                let usage: Vec<String> = q
                    .status
                    .hard
                    .iter()
                    .map(|(k, hard)| {
                        let used = q.status.used.get(k).map(|u| u.0.as_str()).unwrap_or("?");
                        format!("{k}: {used}/{}", hard.0)
                    })
                    .collect();
                f = f.evidence(
                    EvidenceKind::Field,
                    Some(&ObjectKey::of("ResourceQuota", &q.metadata)),
                    "status.used / status.hard",
                    usage.join(", "),
                );
            }
        }
        Refusal::WebhookDenied { webhook, .. } | Refusal::WebhookUnreachable { webhook, .. } => {
            f = webhook_evidence(snap, webhook, f, "");
        }
        Refusal::ServiceAccountMissing(sa) if snap.kinds_loaded.contains_key("ServiceAccount") => {
            let name = sa.rsplit('/').next().unwrap_or(sa);
            if !snap
                .service_accounts
                .iter()
                .any(|s| s.metadata.ns() == ns && s.metadata.name == name)
            {
                f = f.evidence(
                    EvidenceKind::Absence,
                    None,
                    "ServiceAccounts of the namespace",
                    format!("ServiceAccount {ns}/{name} is not in the data"),
                );
            }
        }
        _ => {}
    }
    f
}

/// The named webhook's configuration as evidence: where it calls and its failure policy, then
/// `note`.
pub(crate) fn webhook_evidence(
    snap: &kubewhy_model::Snapshot,
    webhook: &str,
    mut f: Finding,
    note: &str,
) -> Finding {
    for cfg in &snap.webhook_configurations {
        if let Some(h) = cfg.webhooks.iter().find(|h| h.name == webhook) {
            let target = match (&h.client_config.service, &h.client_config.url) {
                (Some(s), _) => format!("service {}/{}", s.namespace, s.name),
                (None, Some(u)) => format!("url {u}"),
                _ => "no client config".into(),
            };
            f = f.evidence(
                EvidenceKind::Field,
                Some(&ObjectKey::of(&cfg.kind, &cfg.metadata)),
                format!("webhooks[{webhook}]"),
                format!(
                    "{target}, failurePolicy {}{note}",
                    h.failure_policy.as_deref().unwrap_or("Fail")
                ),
            );
        }
    }
    f
}

fn steps(f: Finding, w: &Workload, owner: &str, r: &Refusal) -> Finding {
    let ns = w.metadata.ns();
    let see = (
        format!("Read the controller's events for {}", w.metadata.name),
        Some(format!(
            "kubectl describe {} {} -n {ns}",
            w.kind.to_lowercase(),
            w.metadata.name
        )),
    );
    let f = f.step(see.0, see.1, RiskLevel::None, "");
    match r {
        Refusal::Quota { name, .. } => f
            .step("See the quota's limits and what is used", Some(format!("kubectl describe resourcequota {name} -n {ns}")), RiskLevel::None, "")
            .step(format!("Lower the requests of {owner}, or free quota by scaling down other workloads of the namespace"), Some(format!("kubectl -n {ns} set resources {owner} --requests=cpu=<smaller>,memory=<smaller>")), RiskLevel::Low, "Rolls the workload's pods; requests below real use invite throttling and eviction.")
            .step("Or raise the quota, if the namespace's owner agrees", Some(format!("kubectl -n {ns} edit resourcequota {name}")), RiskLevel::Medium, "The quota protects the cluster's capacity for other teams."),
        Refusal::LimitRange(_) => f
            .step("See the namespace's bounds", Some(format!("kubectl describe limitrange -n {ns}")), RiskLevel::None, "")
            .step(format!("Bring the requests and limits of {owner} inside the bounds"), Some(format!("kubectl -n {ns} set resources {owner} --requests=... --limits=...")), RiskLevel::Low, "Rolls the workload's pods."),
        Refusal::PodSecurity(_) => f
            .step("See the level the namespace enforces", Some(format!("kubectl get namespace {ns} --show-labels")), RiskLevel::None, "")
            .step(format!("Make the pod template of {owner} meet the level (runAsNonRoot, allowPrivilegeEscalation: false, dropped capabilities, a seccomp profile)"), None, RiskLevel::Low, "The application must work without the privileges removed.")
            .step("Or lower the namespace's enforced level, if the workload truly needs privileges", Some(format!("kubectl label --overwrite namespace {ns} pod-security.kubernetes.io/enforce=baseline")), RiskLevel::High, "Every pod of the namespace gets the weaker protection."),
        Refusal::WebhookDenied { webhook, .. } => f
            .step(format!("Read the policy behind webhook \"{webhook}\" and change the pod template of {owner} to meet it"), Some("kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations".into()), RiskLevel::None, "")
            .step("Or ask the policy's owner for an exception", None, RiskLevel::Low, ""),
        Refusal::WebhookUnreachable { webhook, .. } => f
            .step(format!("Find the service behind webhook \"{webhook}\" and check it has ready endpoints"), Some("kubectl get validatingwebhookconfigurations,mutatingwebhookconfigurations -o wide; kubectl get endpoints -A | grep <service>".into()), RiskLevel::None, "")
            .step("Restore the webhook's pods (they are often themselves unschedulable or crashing: look at them first)", None, RiskLevel::Low, "")
            .step(format!("As a last resort, set failurePolicy: Ignore on \"{webhook}\" or delete its configuration while the service is down"), None, RiskLevel::High, "Pods are admitted without the webhook's checks or mutations (security policy, sidecar injection)."),
        Refusal::ServiceAccountMissing(sa) => {
            let name = sa.rsplit('/').next().unwrap_or(sa);
            f.step(format!("Create the service account, or fix serviceAccountName in {owner}"), Some(format!("kubectl -n {ns} create serviceaccount {name}")), RiskLevel::Low, "A new service account has no RBAC permissions until bound.")
        }
        Refusal::NamespaceTerminating => f.step("See why the namespace is not gone yet", Some(format!("kubewhy ns {ns}")), RiskLevel::None, ""),
        Refusal::Other(_) => f,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_daemonset_without_pods_where_its_host_port_is_taken() {
        let node = |name: &str, taints: &str| {
            format!(
                "apiVersion: v1\nkind: Node\nmetadata: {{name: {name}}}\nspec: {{taints: [{taints}]}}\nstatus:\n  allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}\n  conditions: [{{type: Ready, status: 'True'}}]\n---\n"
            )
        };
        let yaml = format!(
            "{}{}{}apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: node-exporter, namespace: monitoring, uid: ds1}}\nspec:\n  template:\n    metadata: {{labels: {{app: node-exporter}}}}\n    spec:\n      containers: [{{name: exporter, image: 'prom/node-exporter:v1.8.0', ports: [{{containerPort: 9100, hostPort: 9100}}]}}]\nstatus: {{desiredNumberScheduled: 1, currentNumberScheduled: 1}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: node-exporter-a1, namespace: monitoring, ownerReferences: [{{kind: DaemonSet, name: node-exporter, uid: ds1, controller: true}}]}}\nspec: {{nodeName: node-a, containers: [{{name: exporter, ports: [{{containerPort: 9100, hostPort: 9100}}]}}]}}\nstatus: {{phase: Running}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: old-exporter, namespace: legacy}}\nspec: {{nodeName: node-b, containers: [{{name: x, ports: [{{containerPort: 9100, hostPort: 9100}}]}}]}}\nstatus: {{phase: Running}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: gpu-agent, namespace: legacy}}\nspec: {{nodeName: node-c, containers: [{{name: x, ports: [{{containerPort: 9100, hostPort: 9100}}]}}]}}\nstatus: {{phase: Running}}\n",
            node("node-a", ""),
            node("node-b", ""),
            node("node-c", "{key: dedicated, value: gpu, effect: NoSchedule}"),
        );
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
        assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
        let f = &d.findings[0];
        assert_eq!(f.cause, Cause::HostPortConflict);
        assert_eq!(f.objects[0].kind, "DaemonSet");
        assert_eq!(
            f.summary,
            "DaemonSet node-exporter has no pod on 1 node(s) where its hostPort is taken"
        );
        // node-c is tainted: the DaemonSet does not target it, so it is no gap.
        // (A Pending daemon pod pinned to node-b would be the Pending check's: see below.)
        let quotes: Vec<&str> = f.evidence.iter().map(|e| e.quote.as_str()).collect();
        assert_eq!(
            quotes,
            [
                "1 / 1",
                "node-b: hostPort 9100/TCP is held there by Pod legacy/old-exporter"
            ]
        );
    }

    #[test]
    fn a_pending_daemon_pod_pinned_by_node_affinity_serves_its_node() {
        let pod: Pod = serde_json::from_str(r#"{"spec":{"affinity":{"nodeAffinity":{"requiredDuringSchedulingIgnoredDuringExecution":{"nodeSelectorTerms":[{"matchFields":[{"key":"metadata.name","operator":"In","values":["node-b"]}]}]}}}}}"#).unwrap();
        assert_eq!(daemon_pod_nodes(&pod), ["node-b"]);
    }

    #[test]
    fn every_admission_wording() {
        assert_eq!(
            classify(inner_error(
                r#"Error creating: pods "web-7d4b9c-x2x" is forbidden: exceeded quota: compute, requested: requests.cpu=2, used: requests.cpu=3, limited: requests.cpu=4"#
            )),
            Refusal::Quota {
                name: "compute".into(),
                detail: "requested: requests.cpu=2, used: requests.cpu=3, limited: requests.cpu=4"
                    .into()
            }
        );
        assert_eq!(
            classify(
                r#"pods "web-x" is forbidden: failed quota: compute: must specify limits.cpu for: web; limits.memory for: web"#
            ),
            Refusal::Quota {
                name: "compute".into(),
                detail: "must specify limits.cpu for: web; limits.memory for: web".into()
            }
        );
        // A quota the controller has not counted yet refuses too.
        assert_eq!(
            classify(
                r#"pods "api-x" is forbidden: status unknown for quota: compute, resource: requests.cpu"#
            ),
            Refusal::Quota {
                name: "compute".into(),
                detail: "resource: requests.cpu".into()
            }
        );
        assert_eq!(
            classify(inner_error(r#"create Pod db-0 in StatefulSet db failed error: pods "db-0" is forbidden: [maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi]"#)),
            Refusal::LimitRange("maximum cpu usage per Container is 1, but limit is 2, maximum memory usage per Container is 1Gi, but limit is 2Gi".into())
        );
        assert_eq!(
            classify(r#"pods "web-x" is forbidden: violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false)"#),
            Refusal::PodSecurity(r#"violates PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false)"#.into())
        );
        assert!(matches!(
            classify(
                r#"pods "x" is forbidden: PodSecurityPolicy: unable to admit pod: [spec.containers[0].securityContext.privileged: Invalid value: true: Privileged containers are not allowed]"#
            ),
            Refusal::PodSecurity(_)
        ));
        assert_eq!(
            classify(
                r#"admission webhook "validation.gatekeeper.sh" denied the request: [must-have-owner] missing required label owner"#
            ),
            Refusal::WebhookDenied {
                webhook: "validation.gatekeeper.sh".into(),
                detail: "[must-have-owner] missing required label owner".into()
            }
        );
        assert_eq!(
            classify(r#"Internal error occurred: failed calling webhook "policy.example.com": failed to call webhook: Post "https://policy.policy.svc:443/validate?timeout=10s": dial tcp 10.0.0.12:443: connect: connection refused"#),
            Refusal::WebhookUnreachable { webhook: "policy.example.com".into(), detail: r#"failed to call webhook: Post "https://policy.policy.svc:443/validate?timeout=10s": dial tcp 10.0.0.12:443: connect: connection refused"#.into() }
        );
        assert_eq!(
            classify(
                r#"pods "job-x" is forbidden: error looking up service account shop/builder: serviceaccount "builder" not found"#
            ),
            Refusal::ServiceAccountMissing("shop/builder".into())
        );
        assert_eq!(
            classify(
                r#"pods "x" is forbidden: unable to create new content in namespace old because it is being terminated"#
            ),
            Refusal::NamespaceTerminating
        );
        assert!(matches!(classify("something else"), Refusal::Other(_)));
    }
}
