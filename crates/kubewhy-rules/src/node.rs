//! Node and status plumbing: nodes that are NotReady or under pressure, a kubelet whose PLEG is
//! unhealthy, pod status that lags reality because the kubelet's API rate limit is exhausted,
//! static pods whose mirror pod did not follow their manifest. Node conditions first; node
//! evidence (`--node-logs`, node-collect bundles) corroborates and adds what only the node shows.
//!
//! Also `PodLines`: as each check pushes a finding, the node lines tied to its pods become
//! evidence on it (kernel OOM kills on an OOMKilled container, unmount errors
//! on a pod that does not go away).

use crate::Findings;
use crate::nodelink::{self, Line, quote_lines};
use crate::podinfo::human_duration;
use crate::{Check, Ctx};
use jiff::Timestamp;
use kubewhy_model::node::{KubeletSettings, Signal, StaticManifest};
use kubewhy_model::objects::{Node, Pod, condition};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};
use std::collections::HashMap;

pub(crate) struct NodeHealth;

const CAUSES: &[Cause] = &[
    Cause::VolumeUnmountStuck,
    Cause::NodeNotReady,
    Cause::NodePressure,
    Cause::PlegUnhealthy,
    Cause::KubeletStatusThrottled,
    Cause::StaticPodStale,
    Cause::NodeRestarted,
];

/// Node log lines older than this (before the snapshot's time) describe the past.
const RECENT_SECS: i64 = 15 * 60;

/// The node's lines with one of `signals` that are current: dated within `RECENT_SECS` of now,
/// or undated (the caller lowers confidence).
fn recent_lines<'a>(ctx: &Ctx<'a>, node: &str, signals: &[Signal]) -> Vec<Line<'a>> {
    let now = ctx.now.as_second();
    ctx.nodes()
        .node_signal_lines(node, signals)
        .into_iter()
        .filter(|l| {
            l.1.time
                .is_none_or(|t| (now - t.as_second()).abs() <= RECENT_SECS)
        })
        .collect()
}

fn running_pods<'a>(ctx: &'a Ctx, node: &str) -> Vec<&'a Pod> {
    ctx.snap
        .pods_on_node(node)
        .filter(|p| p.metadata.deletion_timestamp.is_none())
        .filter(|p| p.status.phase != "Succeeded" && p.status.phase != "Failed")
        .collect()
}

impl Check for NodeHealth {
    fn name(&self) -> &'static str {
        "node"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        let lagging = lagging_pods(ctx);
        for node in &ctx.snap.nodes {
            not_ready_or_pleg(ctx, node, out);
            pressure(ctx, node, out);
            let lag = lagging.get(node.metadata.name.as_str());
            throttled(ctx, node, lag.map_or(&[], Vec::as_slice), out);
            orphaned_volumes(ctx, node, out);
        }
        static_pods(ctx, out);
        restarted(ctx, out);
    }
}

/// The node's Ready condition as evidence: status, reason, message, since when, last heartbeat.
pub(crate) fn ready_evidence(f: Finding, node: &Node) -> Finding {
    let Some(c) = condition(&node.status.conditions, "Ready") else {
        return f;
    };
    f.evidence(
        EvidenceKind::Condition,
        Some(&node_key(node)),
        format!(
            "status.conditions[Ready] status={} reason={}",
            c.status, c.reason
        ),
        format!(
            "{}{}{}",
            c.message,
            c.last_transition_time
                .map(|t| format!(" (since {t})"))
                .unwrap_or_default(),
            c.last_heartbeat_time
                .map(|t| format!(" (last heartbeat {t})"))
                .unwrap_or_default()
        ),
    )
}

/// The node's Lease renewal (kube-node-lease) as evidence, when the snapshot has it.
pub(crate) fn lease_evidence(ctx: &Ctx, f: Finding, node: &str) -> Finding {
    let Some(l) = ctx
        .snap
        .leases
        .iter()
        .find(|l| l.metadata.ns() == "kube-node-lease" && l.metadata.name == node)
    else {
        return f;
    };
    let Some(t) = l.spec.renew_time else {
        return f;
    };
    f.evidence(
        EvidenceKind::Field,
        Some(&ObjectKey::of("Lease", &l.metadata)),
        "spec.renewTime",
        format!(
            "{t} ({} ago; the kubelet renews it every 10 s)",
            human_duration(ctx.now.as_second() - t.as_second())
        ),
    )
}

fn node_key(node: &Node) -> ObjectKey {
    ObjectKey::of("Node", &node.metadata)
}

fn with_pods(mut f: Finding, pods: &[&Pod]) -> Finding {
    for p in pods {
        f = f.object(ObjectKey::of("Pod", &p.metadata));
    }
    f
}

fn not_ready_or_pleg(ctx: &Ctx, node: &Node, out: &mut Findings) {
    let name = &node.metadata.name;
    let ready = condition(&node.status.conditions, "Ready");
    // Without its conditions (a describe cut before them), the node lifecycle controller's
    // taint says it: `unreachable` for Ready=Unknown, `not-ready` for Ready=False.
    let tainted = lifecycle_taint(node).filter(|_| ready.is_none());
    let not_ready = node.ready() == Some(false) || tainted.is_some();
    let pleg_lines = pleg_lines(ctx, node, not_ready);
    let pleg_in_condition = ready.is_some_and(|c| c.message.contains("PLEG is not healthy"));
    if !not_ready && pleg_lines.is_empty() {
        return;
    }
    let pods = running_pods(ctx, name);
    let since = ready
        .and_then(|c| c.last_transition_time)
        .map(|t| {
            format!(
                " for {}",
                human_duration(ctx.now.as_second() - t.as_second())
            )
        })
        .unwrap_or_default();
    if pleg_in_condition || !pleg_lines.is_empty() {
        out.push(pleg_finding(ctx, node, &pods, &pleg_lines, &since));
        return;
    }
    if pods.is_empty() && not_ready_said_elsewhere(ctx, name) {
        return;
    }
    let mut f = not_ready_finding(ctx, node, &pods, &since);
    if let Some(taint) = tainted {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&node_key(node)),
            "spec.taints",
            format!(
                "{taint} (the node lifecycle controller's: the node is {}; its conditions are not in the data)",
                if taint.contains("unreachable") {
                    "not reporting"
                } else {
                    "not ready"
                }
            ),
        );
    }
    out.push(f);
}

/// The taint the node lifecycle controller puts on a node that is not ready
/// (`node.kubernetes.io/unreachable` or `…/not-ready`, NoExecute first), as `key:effect`.
fn lifecycle_taint(node: &Node) -> Option<String> {
    let mut found: Vec<&kubewhy_model::objects::Taint> = node
        .spec
        .taints
        .iter()
        .filter(|t| {
            matches!(
                t.key.as_str(),
                "node.kubernetes.io/unreachable" | "node.kubernetes.io/not-ready"
            )
        })
        .collect();
    found.sort_by_key(|t| t.effect != "NoExecute");
    found.first().map(|t| format!("{}:{}", t.key, t.effect))
}

/// The kubelet's PLEG lines that count: on a Ready node, only a relist that took too long
/// (it logs "pleg has yet to be successful" at every start) and only lines written after it
/// last became Ready (earlier ones are an outage it recovered from).
fn pleg_lines<'a>(ctx: &Ctx<'a>, node: &Node, not_ready: bool) -> Vec<Line<'a>> {
    let lines = recent_lines(ctx, &node.metadata.name, &[Signal::PlegUnhealthy]);
    if not_ready {
        return lines;
    }
    let ready_since =
        condition(&node.status.conditions, "Ready").and_then(|c| c.last_transition_time);
    lines
        .into_iter()
        .filter(|l| !l.1.detail.contains("starting"))
        .filter(|l| match (l.1.time, ready_since) {
            (Some(t), Some(since)) => t > since,
            _ => true,
        })
        .collect()
}

/// Nothing runs on the node to be affected: terminating pods there get node-unreachable
/// (terminating.rs), and with every node down pending pods get no-ready-nodes (pending.rs). A
/// NotReady node with no pod at all in the data (a pasted `get nodes`) is still said, less
/// certainly.
fn not_ready_said_elsewhere(ctx: &Ctx, name: &str) -> bool {
    let bound = ctx.snap.pods_on_node(name).next().is_some();
    let all_down = ctx.snap.nodes.iter().all(|n| n.ready() != Some(true));
    let pending = ctx.snap.pods.iter().any(|p| p.status.phase == "Pending");
    bound || (all_down && pending)
}

/// PLEG is not healthy on the node: its condition or the kubelet's lines say so.
fn pleg_finding(
    ctx: &Ctx,
    node: &Node,
    pods: &[&Pod],
    pleg_lines: &[Line],
    since: &str,
) -> Finding {
    let name = &node.metadata.name;
    let key = node_key(node);
    let ready = condition(&node.status.conditions, "Ready");
    let not_ready = node.ready() == Some(false);
    let pleg_in_condition = ready.is_some_and(|c| c.message.contains("PLEG is not healthy"));
    let mut f = Finding::new(
        Cause::PlegUnhealthy,
        Severity::Warning,
        if not_ready {
            format!(
                "The kubelet on {name} reports PLEG is not healthy: the node is NotReady{since}"
            )
        } else {
            format!("The kubelet on {name} logs PLEG is not healthy")
        },
    )
    .object(key.clone())
    .group(format!("node|{name}"));
    f = with_pods(ready_evidence(f, node), pods);
    f = quote_lines(f, Some(&key), pleg_lines, 1);
    let runtime = ctx
        .nodes()
        .node_signal_lines(name, &[Signal::RuntimeDown, Signal::StopFailed]);
    f = quote_lines(f, Some(&key), &runtime, 2);
    if !pleg_in_condition && pleg_lines.iter().all(|l| l.1.time.is_none()) {
        f = f.confidence(Confidence::Medium);
    }
    let runtime_down = !runtime.is_empty()
        || ready.is_some_and(|c| c.message.contains("container runtime is down"));
    let why = if runtime_down {
        "Here the runtime does not answer at all (\"container runtime is down\", its socket refuses connections): it has stopped or crashed"
    } else {
        "The runtime is hung or overloaded (a stuck container or shim, too many containers, a slow disk)"
    };
    f = f
        .explain(format!(
            "The kubelet's pod lifecycle event generator (PLEG) lists every container through the runtime once a second; when no relist has succeeded for 3 minutes the kubelet reports PLEG is not healthy, stops syncing pods and marks the node NotReady. {why}, so pods on {name} are neither started, stopped nor updated until it recovers."
        ))
        .step(
            "See whether the runtime answers, and how fast",
            Some("time crictl ps -a | wc -l; journalctl -u containerd -u docker --since -30min | tail -100".into()),
            RiskLevel::None,
            "",
        )
        .step(
            "Read the kubelet's PLEG lines (relist duration)",
            Some("journalctl -u kubelet --since -30min | grep -E 'PLEG|relist'".into()),
            RiskLevel::None,
            "",
        )
        .step(
            "Restart the container runtime, then the kubelet",
            Some("systemctl restart containerd && systemctl restart kubelet".into()),
            RiskLevel::Medium,
            "Containers keep running (shims), but exec, logs and pod starts on the node pause while the runtime restarts; drain the node first if it serves critical traffic.",
        );
    f
}

/// The node is NotReady (or not reporting) with pods on it.
fn not_ready_finding(ctx: &Ctx, node: &Node, pods: &[&Pod], since: &str) -> Finding {
    let name = &node.metadata.name;
    let key = node_key(node);
    let ready = condition(&node.status.conditions, "Ready");
    let mut f = Finding::new(
        Cause::NodeNotReady,
        Severity::Warning,
        format!(
            "Node {name} is {}{since}; {}",
            ready.map_or("NotReady", |c| if c.status == "Unknown" {
                "not reporting (Ready=Unknown)"
            } else {
                "NotReady"
            }),
            if pods.is_empty() {
                "no pod in the data runs on it".to_string()
            } else {
                format!("{} pod(s) run on it", pods.len())
            }
        ),
    )
    .object(key.clone())
    .group(format!("node|{name}"));
    if pods.is_empty() {
        f = f.confidence(Confidence::Medium);
    }
    f = lease_evidence(ctx, with_pods(ready_evidence(f, node), pods), name);
    let runtime = ctx.nodes().node_signal_lines(name, &[Signal::RuntimeDown]);
    f = quote_lines(f, Some(&key), &runtime, 1);
    let unknown = ready.is_some_and(|c| c.status == "Unknown");
    let why = if unknown {
        "The kubelet stopped posting the node's status (the node lifecycle controller set Ready=Unknown after --node-monitor-grace-period): the kubelet is down, the machine is off, or it cannot reach the API server."
    } else {
        "The kubelet itself reports the node not ready; its message says why (the container runtime is down, the network plugin is not ready, …)."
    };
    f = f
        .explain(format!(
            "{why} Pods on {name} are not started, stopped or updated; their status in the API is what it was when the node stopped reporting. The node lifecycle controller taints the node (node.kubernetes.io/{}) and evicts pods that do not tolerate it after their tolerationSeconds (300 s by default), except when every node is down.",
            if unknown { "unreachable" } else { "not-ready" }
        ))
        .step("Read the node's conditions and events", Some(format!("kubectl describe node {name}")), RiskLevel::None, "")
        .step(
            "On the node: is the kubelet running, and what does it say?",
            Some("systemctl status kubelet; journalctl -u kubelet --since -30min | tail -100".into()),
            RiskLevel::None,
            "",
        )
        .step(
            "Restart the kubelet (or the machine) once the cause is known",
            Some("systemctl restart kubelet".into()),
            RiskLevel::Low,
            "Running containers are not stopped by a kubelet restart.",
        )
        .step(
            "If the machine is gone for good, drain and delete the node so its pods are replaced",
            Some(format!("kubectl drain {name} --ignore-daemonsets --delete-emptydir-data; kubectl delete node {name}")),
            RiskLevel::Medium,
            "Only when the machine is really off: pods still running there would run unseen beside their replacements.",
        );
    f
}

fn pressure(ctx: &Ctx, node: &Node, out: &mut Findings) {
    let name = &node.metadata.name;
    let key = node_key(node);
    let conds: Vec<_> = ["MemoryPressure", "DiskPressure", "PIDPressure"]
        .iter()
        .filter_map(|t| condition(&node.status.conditions, t))
        .filter(|c| c.status == "True")
        .collect();
    if conds.is_empty() {
        return;
    }
    let kinds: Vec<&str> = conds.iter().map(|c| c.type_.as_str()).collect();
    let pods = running_pods(ctx, name);
    let mut f = Finding::new(
        Cause::NodePressure,
        Severity::Warning,
        format!("Node {name} reports {}", kinds.join(", ")),
    )
    .object(key.clone())
    .group(format!("node|{name}"));
    f = with_pods(f, &pods);
    for c in &conds {
        f = f.evidence(
            EvidenceKind::Condition,
            Some(&key),
            format!(
                "status.conditions[{}] status=True reason={}",
                c.type_, c.reason
            ),
            format!(
                "{}{}",
                c.message,
                c.last_transition_time
                    .map(|t| format!(" (since {t})"))
                    .unwrap_or_default()
            ),
        );
    }
    let taints: Vec<String> = node
        .spec
        .taints
        .iter()
        .filter(|t| t.key.ends_with("-pressure"))
        .map(|t| format!("{}:{}", t.key, t.effect))
        .collect();
    if !taints.is_empty() {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&key),
            "spec.taints",
            taints.join(", "),
        );
    }
    let oom = ctx.nodes().node_signal_lines(name, &[Signal::OomKill]);
    f = quote_lines(f, Some(&key), &oom, 1);
    let fixes: Vec<&str> = kinds
        .iter()
        .map(|k| match *k {
            "MemoryPressure" => "memory: find the pods using the most memory (kubectl top pods -A --sort-by=memory) and set limits",
            "DiskPressure" => "disk: free space on the kubelet's filesystem and the image filesystem (crictl rmi --prune; old logs; emptyDir volumes)",
            _ => "PIDs: find the pod forking processes and set a pids limit",
        })
        .collect();
    f = f
        .explain(format!(
            "The kubelet on {name} is below an eviction threshold. Until the pressure ends it admits no new pods of the affected kind (the node is tainted node.kubernetes.io/*-pressure) and evicts pods, lowest priority and largest overuse first."
        ))
        .step("See the node's conditions, usage and evictions", Some(format!("kubectl describe node {name}")), RiskLevel::None, "")
        .step(format!("Relieve it — {}", fixes.join("; ")), None, RiskLevel::Low, "Deleting images or logs others still need makes them pull or lose history.");
    out.push(f);
}

/// A container of the pod whose status still waits (ContainerCreating) although the runtime
/// or a `Started` event says it started more than two minutes ago.
fn status_lag(ctx: &Ctx, pod_idx: usize, pod: &Pod) -> Option<String> {
    // A pod deleted moments after it started may keep its first status for good: the kubelet
    // stops reporting it while it tears it down (seen on the real cluster). Not throttling.
    if pod.metadata.deletion_timestamp.is_some() {
        return None;
    }
    let waiting: Vec<&str> =
        pod.status
            .container_statuses
            .iter()
            .filter(|c| c.restart_count == 0)
            .filter(|c| {
                c.state.waiting.as_ref().is_some_and(|w| {
                    w.reason == "ContainerCreating" || w.reason == "PodInitializing"
                })
            })
            .map(|c| c.name.as_str())
            .collect();
    if waiting.is_empty() {
        return None;
    }
    if let Some(r) = ctx.nodes().records.get(&pod_idx).and_then(|rs| {
        rs.iter().find(|r| {
            r.running == Some(true) && r.tool != "crictl pods" && waiting.contains(&r.name.as_str())
        })
    }) {
        return Some(format!(
            "{} lists container {} as {} ({}), while the pod's status says it is still being created",
            r.tool, r.name, r.state, r.origin
        ));
    }
    let events = ctx.snap.events_for("Pod", &pod.metadata);
    if events.iter().any(|e| e.reason == "SandboxChanged") {
        return None;
    }
    let started = events.iter().find(|e| {
        e.reason == "Started"
            && waiting
                .iter()
                .any(|c| e.field_path.contains(&format!("{{{c}}}")))
            && e.last_time
                .or(e.first_time)
                .is_some_and(|t| ctx.now.as_second() - t.as_second() > 120)
    })?;
    Some(format!(
        "event Started ({}) at {}, while the pod's status still says ContainerCreating",
        started.field_path,
        started
            .last_time
            .or(started.first_time)
            .map(|t| t.to_string())
            .unwrap_or_default()
    ))
}

fn settings_of<'a>(ctx: &'a Ctx, node: &str) -> Option<&'a KubeletSettings> {
    ctx.snap
        .node
        .configz
        .iter()
        .find(|(n, _)| n == node)
        .map(|(_, s)| s)
        .or_else(|| {
            ctx.nodes()
                .bundles
                .get(node)
                .and_then(|bs| bs.iter().find_map(|b| b.kubelet.as_ref()))
        })
}

/// Pods of one node whose status lags, without the kubelet's throttling lines, at which its
/// rate limit is the likely cause.
const LAGGING_PODS: usize = 3;

/// The pods whose status lags (`status_lag`), by node: one pass over the pods.
fn lagging_pods<'a>(ctx: &'a Ctx) -> HashMap<&'a str, Vec<(ObjectKey, String)>> {
    let mut by_node: HashMap<&str, Vec<(ObjectKey, String)>> = HashMap::new();
    for (i, p) in ctx.snap.pods.iter().enumerate() {
        if let Some(node) = p.spec.node_name.as_deref()
            && let Some(why) = status_lag(ctx, i, p)
        {
            by_node
                .entry(node)
                .or_default()
                .push((ObjectKey::of("Pod", &p.metadata), why));
        }
    }
    by_node
}

fn throttled(ctx: &Ctx, node: &Node, lagging: &[(ObjectKey, String)], out: &mut Findings) {
    let name = &node.metadata.name;
    let key = node_key(node);
    let lines: Vec<Line> = recent_lines(ctx, name, &[Signal::ClientThrottled])
        .into_iter()
        .filter(|l| l.1.component.is_empty() || l.1.component.contains("kubelet"))
        .collect();
    // One pod whose status lags proves nothing about a rate limit (a pod torn down early, a
    // slow image): the kubelet's own throttling lines, or several pods lagging, do.
    if lines.is_empty() && lagging.len() < LAGGING_PODS {
        return;
    }
    let on_node = ctx.snap.pods_on_node(name).count();
    let settings = settings_of(ctx, name);
    let mut f = Finding::new(
        Cause::KubeletStatusThrottled,
        Severity::Warning,
        format!(
            "Pod status from {name} lags behind the node: the kubelet is held back by its own API rate limit ({on_node} pods on the node)"
        ),
    )
    .object(key.clone())
    .group(format!("node|{name}"));
    // Pods named by throttled status requests (…/namespaces/NS/pods/NAME/status).
    for (_, l) in &lines {
        if let Some(rest) = l.detail.split("/namespaces/").nth(1) {
            let parts: Vec<&str> = rest.split('/').collect();
            if parts.len() >= 3 && parts[1] == "pods" {
                let k = ObjectKey::new(
                    "Pod",
                    parts[0],
                    parts[2].split('?').next().unwrap_or(""),
                    "",
                );
                if !f.objects.contains(&k)
                    && ctx
                        .snap
                        .pods
                        .iter()
                        .any(|p| p.metadata.ns() == k.namespace && p.metadata.name == k.name)
                {
                    f = f.object(k);
                }
            }
        }
    }
    for (k, why) in lagging {
        f = f.object(k.clone()).evidence(
            EvidenceKind::Analysis,
            Some(k),
            "status vs runtime",
            why.clone(),
        );
    }
    f = quote_lines(f, Some(&key), &lines, 1);
    let limits = match settings {
        Some(s) => {
            f = f.evidence(
                EvidenceKind::Field,
                Some(&key),
                format!("kubelet configuration ({})", s.origin),
                format!(
                    "kubeAPIQPS {}, kubeAPIBurst {}{}",
                    s.kube_api_qps.map_or("unset (default)".into(), |q| q.to_string()),
                    s.kube_api_burst.map_or("unset (default)".into(), |b| b.to_string()),
                    s.max_pods.map(|m| format!(", maxPods {m}")).unwrap_or_default()
                ),
            );
            format!(
                "Its limit is {} requests per second.",
                s.kube_api_qps.map_or("the default".into(), |q| q.to_string())
            )
        }
        None => "Its limit is not in the data (kubeAPIQPS: 5 by default before Kubernetes 1.27, 50 since).".into(),
    };
    if lines.is_empty() {
        f = f.confidence(Confidence::Medium);
    }
    f = f
        .explain(format!(
            "The kubelet sends every pod status change, event and lease renewal to the API server through one client rate limit (kubeAPIQPS/kubeAPIBurst). With many pods on a node the updates queue up and client-go waits before each request (\"client-side throttling\"): pods have started, or stopped, long before the API shows it, so they look stuck in ContainerCreating or Terminating for minutes or hours, and Services route to what the API believes. {limits} {on_node} pods run on {name}."
        ))
        .step(
            "Confirm on the node: the kubelet waits before its requests",
            Some("journalctl -u kubelet --since -30min | grep -c 'client-side throttling'".into()),
            RiskLevel::None,
            "",
        )
        .step(
            "Compare what the runtime runs with what the API shows",
            Some(format!("crictl ps -a   # on {name}; then: kubectl get pods -A --field-selector spec.nodeName={name}")),
            RiskLevel::None,
            "",
        )
        .snippet_step(
            "Raise the kubelet's limits (kubeAPIQPS: 50, kubeAPIBurst: 100 are the 1.27+ defaults; eventRecordQPS too) in its configuration file (/var/lib/kubelet/config.yaml) and restart it",
            "kubeAPIQPS: 50\nkubeAPIBurst: 100\neventRecordQPS: 50\neventBurst: 100",
            RiskLevel::Low,
            "More requests per kubelet add load on the API server: raise it gradually on large clusters (API Priority and Fairness protects the server).",
        );
    out.push(f);
}

/// Volumes the kubelet cannot unmount for pods that are no longer in the API: a pod
/// force-deleted while something held its volume leaves the mount, the pod directory and the
/// kubelet's retries behind, with no pod to show them on.
fn orphaned_volumes(ctx: &Ctx, node: &Node, out: &mut Findings) {
    let name = &node.metadata.name;
    if !ctx.snap.kinds_loaded.contains_key("Pod") {
        return; // no pods in the data: their absence says nothing
    }
    let view = ctx.nodes();
    let lines = recent_lines(ctx, name, &[Signal::UnmountFailed, Signal::OrphanedVolumes]);
    if lines.is_empty() {
        return;
    }
    let known: std::collections::HashSet<&str> = ctx
        .snap
        .pods
        .iter()
        .map(|p| p.metadata.uid.as_str())
        .collect();
    let held = view.node_signal_lines(name, &[Signal::MountHeld, Signal::MountPresent]);
    // Still failing: the mount is still there, or the kubelet's last retry (every 2m2s at
    // most) is recent. An unmount that failed once and then succeeded is not reported.
    let current = |uid: &str| {
        held.iter().any(|(_, l)| l.uids.iter().any(|u| u == uid))
            || lines.iter().any(|(_, l)| {
                l.uids.iter().any(|u| u == uid)
                    && l.time
                        .is_some_and(|t| ctx.now.as_second() - t.as_second() <= 180)
            })
    };
    let mut uids: Vec<&str> = Vec::new();
    for (_, l) in &lines {
        for u in &l.uids {
            if !known.contains(u.as_str()) && !uids.contains(&u.as_str()) && current(u) {
                uids.push(u);
            }
        }
    }
    if uids.is_empty() {
        return;
    }
    let key = node_key(node);
    let mut f = Finding::new(
        Cause::VolumeUnmountStuck,
        Severity::Warning,
        format!(
            "The kubelet on {name} cannot unmount the volumes of {} pod(s) no longer in the API",
            uids.len()
        ),
    )
    .object(key.clone())
    .group(format!("orphans|{name}"));
    for uid in uids.iter().take(5) {
        f = f.evidence(
            EvidenceKind::Absence,
            Some(&key),
            format!("pod {uid}"),
            "not in the data (pods were): deleted, or outside what was read",
        );
        // The latest line of each kind about this pod (its own count is not said: the
        // lines are the kubelet's retries for several pods).
        for ls in [&lines, &held] {
            let of_uid = ls
                .iter()
                .map(|(_, l)| *l)
                .filter(|l| l.uids.iter().any(|u| u == uid));
            for (l, _) in nodelink::latest_per_signal(of_uid) {
                f.evidence.push(nodelink::log_evidence(Some(&key), l, 1));
            }
        }
        for b in view.bundles.get(name.as_str()).into_iter().flatten() {
            for l in b.leftovers.iter().filter(|l| l.uid == *uid).take(2) {
                f = f.evidence(
                    EvidenceKind::Field,
                    Some(&key),
                    format!("{} on the node ({})", l.what, l.origin),
                    format!("{} {}", l.path, l.detail),
                );
            }
        }
    }
    let uid = uids[0];
    f = f
        .explain(format!(
            "These pods are gone from the API — typically force-deleted (`--grace-period=0 --force`) while something held their volumes — but the kubelet on {name} still tries to unmount their volumes and fails, so their mounts and directories stay on the node, and whatever held them still runs there. Force deletion removes only the API object; the cleanup it skipped is left to the kubelet."
        ))
        .step(
            "On the node: find what holds the volumes (working directories, open files)",
            Some(format!(
                "grep {uid} /proc/1/mountinfo; ls -l /proc/[0-9]*/cwd /proc/[0-9]*/fd 2>/dev/null | grep {uid}"
            )),
            RiskLevel::None,
            "",
        )
        .step(
            "Stop the processes that hold them; the kubelet then unmounts the volumes and removes the pod directory by itself",
            None,
            RiskLevel::Medium,
            "The holder may be a container of another pod or a host agent (backup, antivirus): stopping it affects whatever it does.",
        )
        .step(
            "Next time, before force-deleting a pod stuck Terminating, find what keeps it there",
            Some("kubewhy pod NAME -n NAMESPACE --node-logs <node-collect bundle>".into()),
            RiskLevel::None,
            "",
        );
    out.push(f);
}

fn static_pods(ctx: &Ctx, out: &mut Findings) {
    for (node, bundles) in &ctx.nodes().bundles {
        for m in bundles.iter().flat_map(|b| &b.manifests) {
            let mirror_name = format!("{}-{node}", m.name);
            let mirror = ctx
                .snap
                .pods
                .iter()
                .find(|p| p.metadata.ns() == m.namespace && p.metadata.name == mirror_name);
            let found = match mirror {
                Some(mirror) => stale_mirror(node, m, mirror),
                None => missing_mirror(ctx, node, m, &mirror_name),
            };
            if let Some(f) = found {
                let lines = ctx.nodes().node_signal_lines(node, &[Signal::MirrorPod]);
                let node_key = ObjectKey::new("Node", "", node, "");
                out.push(stale_steps(
                    quote_lines(f, Some(&node_key), &lines, 2),
                    node,
                    &m.path,
                ));
            }
        }
    }
}

/// A static-pod-stale finding about manifest `m` on `node`: its objects, its group, the
/// manifest as read.
fn stale(node: &str, m: &StaticManifest, summary: String, objects: [&ObjectKey; 2]) -> Finding {
    let node_key = ObjectKey::new("Node", "", node, "");
    let images = if m.images.is_empty() {
        String::new()
    } else {
        format!(
            ": {}",
            m.images
                .iter()
                .map(|(c, i)| format!("{c}={i}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let manifest_ev = format!(
        "{} (sha256 {}, modified {}){images}",
        m.path,
        m.sha256.chars().take(16).collect::<String>(),
        m.modified
            .map(|t| t.to_string())
            .unwrap_or_else(|| "?".into()),
    );
    Finding::new(Cause::StaticPodStale, Severity::Warning, summary)
        .object(objects[0].clone())
        .object(objects[1].clone())
        .group(format!("static|{node}|{}", m.path))
        .evidence(
            EvidenceKind::Field,
            Some(&node_key),
            format!("static pod manifest ({})", m.origin),
            manifest_ev,
        )
}

/// A manifest on the node without its mirror pod in the API (when the data holds that
/// namespace's pods at all).
fn missing_mirror(ctx: &Ctx, node: &str, m: &StaticManifest, mirror_name: &str) -> Option<Finding> {
    if !ctx.snap.pods.iter().any(|p| p.metadata.ns() == m.namespace) {
        return None; // that namespace's pods are not in the data
    }
    let node_key = ObjectKey::new("Node", "", node, "");
    let pod_key = ObjectKey::new("Pod", &m.namespace, mirror_name, "");
    let summary = format!(
        "Static pod manifest {} on {node} has no mirror pod {}/{mirror_name}",
        m.path, m.namespace
    );
    let f = stale(node, m, summary, [&node_key, &pod_key])
        .evidence(
            EvidenceKind::Absence,
            Some(&pod_key),
            "pods",
            format!(
                "no pod {}/{mirror_name} in the data (pods of {} were)",
                m.namespace, m.namespace
            ),
        )
        .confidence(Confidence::Medium);
    Some(f)
}

/// A mirror pod whose images differ from its manifest's, or older than the manifest's change.
fn stale_mirror(node: &str, m: &StaticManifest, mirror: &Pod) -> Option<Finding> {
    let node_key = ObjectKey::new("Node", "", node, "");
    let pod_key = ObjectKey::of("Pod", &mirror.metadata);
    let differs: Vec<String> = m
        .images
        .iter()
        .filter_map(|(c, img)| {
            let running = mirror
                .spec
                .containers
                .iter()
                .chain(&mirror.spec.init_containers)
                .find(|x| x.name == *c);
            match running {
                Some(x) if x.image != *img => Some(format!(
                    "container {c}: manifest {img}, mirror pod {}",
                    x.image
                )),
                None => Some(format!(
                    "container {c}: in the manifest, not in the mirror pod"
                )),
                _ => None,
            }
        })
        .collect();
    let newer = match (m.modified, mirror.metadata.creation_timestamp) {
        (Some(mt), Some(ct)) => mt.as_second() > ct.as_second() + 120,
        _ => false,
    };
    if differs.is_empty() && !newer {
        return None;
    }
    let summary = format!(
        "Mirror pod {}/{} does not follow its static pod manifest {} on {node}",
        mirror.metadata.ns(),
        mirror.metadata.name,
        m.path
    );
    let mut f = stale(node, m, summary, [&pod_key, &node_key]);
    if let Some(h) = mirror.metadata.annotations.get("kubernetes.io/config.hash") {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&pod_key),
            "metadata.annotations[kubernetes.io/config.hash]",
            h.clone(),
        );
    }
    if let Some(ct) = mirror.metadata.creation_timestamp {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&pod_key),
            "metadata.creationTimestamp",
            ct.to_string(),
        );
    }
    for d in &differs {
        f = f.evidence(
            EvidenceKind::Analysis,
            Some(&pod_key),
            "manifest vs mirror pod",
            d.clone(),
        );
    }
    if differs.is_empty() {
        f = f
            .evidence(EvidenceKind::Analysis, Some(&pod_key), "manifest vs mirror pod", "the manifest was modified after the mirror pod was created, and the mirror pod was not recreated (a change that leaves the pod identical, such as a touch, does not recreate it)")
            .confidence(Confidence::Low);
    }
    Some(f)
}

fn stale_steps(f: Finding, node: &str, path: &str) -> Finding {
    f.explain(format!(
        "The kubelet on {node} runs static pods from the files in its static pod path and publishes each as a read-only mirror pod, named after the file's pod and the node, with the hash of what it read in kubernetes.io/config.hash. When the manifest changes, the kubelet should start the new pod and replace the mirror pod. Here the API shows something other than the manifest: the kubelet has not re-read the file (an editor that writes a new inode in a watched directory, a manifest it cannot parse), or cannot update the mirror pod (its API access, admission webhooks)."
    ))
    .step("See what the kubelet says about the manifest and the mirror pod", Some(format!("journalctl -u kubelet --since -1h | grep -iE 'mirror|{}'", path.rsplit('/').next().unwrap_or(path))), RiskLevel::None, "")
    .step("Check the manifest parses (the kubelet skips a file it cannot decode)", Some(format!("kubectl create --dry-run=client -f {path}")), RiskLevel::None, "")
    .step(
        "Make the kubelet re-read it: move the file out of the static pod path and back",
        Some(format!("mv {path} /tmp/ && sleep 20 && mv /tmp/{} {path}", path.rsplit('/').next().unwrap_or(path))),
        RiskLevel::Medium,
        "The static pod stops while the file is away (for the API server or etcd, the control plane of this node is down meanwhile).",
    )
}

/// The signals that corroborate a cause when the node shows them for the pod.
fn signals_for(cause: Cause) -> &'static [Signal] {
    match cause {
        Cause::OomKilled | Cause::KilledBySignal => &[Signal::OomKill],
        Cause::VolumeUnmountStuck => &[
            Signal::UnmountFailed,
            Signal::MountHeld,
            Signal::OrphanedVolumes,
            Signal::MountPresent,
            Signal::CleanupVolumes,
        ],
        Cause::ContainerStopTimeout => &[
            Signal::StopFailed,
            Signal::RuntimeDown,
            Signal::CleanupContainers,
            Signal::HungTask,
        ],
        Cause::RuntimeStateInconsistent => &[Signal::UnknownContainer, Signal::StopFailed],
        Cause::KubeletCleanupPending => &[
            Signal::CleanupContainers,
            Signal::CleanupStatus,
            Signal::CleanupVolumes,
            Signal::CleanupCgroup,
        ],
        Cause::SandboxCreationFailed | Cause::ContainerStartFailed => &[Signal::RuntimeDown],
        _ => &[],
    }
}

/// The node log lines tied to pods, for the findings about those pods (only when node logs were
/// read and name pods).
pub(crate) struct PodLines<'c, 'a> {
    view: &'c nodelink::NodeView<'a>,
    by_name: HashMap<(&'a str, &'a str), usize>,
}

impl<'c, 'a> PodLines<'c, 'a> {
    pub(crate) fn new(ctx: &'c Ctx<'a>) -> Option<Self> {
        if ctx.snap.node.bundles.is_empty() {
            return None;
        }
        let view = ctx.nodes();
        if view.lines.is_empty() {
            return None;
        }
        let by_name = ctx
            .snap
            .pods
            .iter()
            .enumerate()
            .map(|(i, p)| ((p.metadata.ns(), p.metadata.name.as_str()), i))
            .collect();
        Some(PodLines { view, by_name })
    }

    /// Adds the lines of the finding's pods (its first 20) for the signals that bear on its
    /// cause.
    pub(crate) fn attach(&self, f: &mut Finding) {
        let signals = signals_for(f.cause);
        if signals.is_empty() {
            return;
        }
        let pods: Vec<ObjectKey> = f
            .objects
            .iter()
            .filter(|o| o.kind == "Pod")
            .take(20)
            .cloned()
            .collect();
        for key in pods {
            let Some(&idx) = self
                .by_name
                .get(&(key.namespace.as_str(), key.name.as_str()))
            else {
                continue;
            };
            let lines = self.view.pod_lines(idx, signals);
            nodelink::add_lines(f, Some(&key), &lines, 3);
        }
    }
}

/// Pods on a node at which its kubelet's API rate limit is worth reading even without a sign
/// of lag (110 is the default maxPods).
const BUSY_NODE_PODS: usize = 100;

/// Nodes whose kubelet configuration (kubeAPIQPS) the rate-limit check would use: those with a
/// pod whose status lags, then the busiest; at most `max`, busiest first.
pub fn configz_candidates(snap: &kubewhy_model::Snapshot, max: usize) -> Vec<String> {
    let now = snap.judged_at();
    let ctx = Ctx::new(snap, now);
    let lagging = lagging_pods(&ctx);
    let mut out: Vec<(bool, usize, String)> = Vec::new();
    for node in &snap.nodes {
        let name = &node.metadata.name;
        let pods = snap.pods_on_node(name).count();
        let lag = lagging.contains_key(name.as_str());
        if lag || pods >= BUSY_NODE_PODS {
            out.push((lag, pods, name.to_string()));
        }
    }
    out.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    out.into_iter().take(max).map(|(_, _, n)| n).collect()
}

/// How long before the snapshot a failure that every container has recovered from is history:
/// reported as such (severity info), not as a problem of now.
pub(crate) const HISTORY_AFTER: jiff::SignedDuration = jiff::SignedDuration::from_hours(1);

/// Whether a termination record is what a node or runtime restart leaves: exit code 255 and
/// the reason `Unknown` (or none: a paste cut before it).
pub(crate) fn lost_to_restart(t: &kubewhy_model::objects::StateTerminated) -> bool {
    t.exit_code == Some(255) && matches!(t.reason.as_str(), "Unknown" | "")
}

/// A container that ended under a restart: its pod, the field, when, the quote, and whether it
/// is running and ready again.
type Ended<'a> = (&'a Pod, String, Option<Timestamp>, String, bool);

/// Containers that ended with exit code 255 and reason Unknown: what the kubelet records when
/// the node (or its container runtime) restarted under them. One finding per node; certain
/// when several containers there ended within the same two minutes.
fn restarted(ctx: &Ctx, out: &mut Findings) {
    let mut by_node: HashMap<&str, Vec<Ended>> = HashMap::new();
    for pod in &ctx.snap.pods {
        let node = pod.spec.node_name.as_deref().unwrap_or("");
        let lists = [
            ("initContainerStatuses", &pod.status.init_container_statuses),
            ("containerStatuses", &pod.status.container_statuses),
        ];
        for (list, statuses) in lists {
            for cs in statuses {
                for (field, t) in [
                    ("lastState", cs.last_state.terminated.as_deref()),
                    ("state", cs.state.terminated.as_deref()),
                ] {
                    if let Some(t) = t.filter(|t| lost_to_restart(t)) {
                        by_node.entry(node).or_default().push((
                            pod,
                            format!("status.{list}[{}].{field}.terminated", cs.name),
                            t.finished_at,
                            format!(
                                "reason={} exitCode=255{}",
                                if t.reason.is_empty() {
                                    "(not shown)"
                                } else {
                                    &t.reason
                                },
                                t.finished_at
                                    .map(|f| format!(" finishedAt={f}"))
                                    .unwrap_or_default()
                            ),
                            cs.ready && cs.state.running.is_some(),
                        ));
                        break;
                    }
                }
            }
        }
    }
    let mut nodes: Vec<_> = by_node.into_iter().collect();
    nodes.sort_by_key(|(n, _)| *n);
    for (node, ended) in nodes {
        let times: Vec<i64> = ended
            .iter()
            .filter_map(|e| e.2.map(|t| t.as_second()))
            .collect();
        let together = times.len() >= 2
            && times.iter().max().unwrap_or(&0) - times.iter().min().unwrap_or(&0) <= 120;
        let where_ = if node.is_empty() {
            "their node".to_string()
        } else {
            format!("node {node}")
        };
        // History, not now: every container is running and ready again and the restart ended
        // over an hour before the snapshot.
        let last = times
            .iter()
            .max()
            .and_then(|t| Timestamp::from_second(*t).ok());
        let history = ended.iter().all(|e| e.4)
            && last.is_some_and(|t| ctx.now.duration_since(t) > HISTORY_AFTER);
        let mut f = Finding::new(
            Cause::NodeRestarted,
            if history {
                Severity::Info
            } else {
                Severity::Warning
            },
            match last.filter(|_| history) {
                Some(t) => format!(
                    "Before collection: {} container(s) on {where_} ended with exit code 255 and reason Unknown at {t} (the node or its container runtime restarted); all run again",
                    ended.len()
                ),
                None => format!(
                    "{} container(s) on {where_} ended with exit code 255 and reason Unknown: the node or its container runtime restarted",
                    ended.len()
                ),
            },
        )
        .group(format!("restart|{node}"))
        .confidence(if together {
            Confidence::High
        } else {
            Confidence::Medium
        });
        if !node.is_empty() {
            f = f.object(ObjectKey {
                kind: "Node".into(),
                name: node.into(),
                ..Default::default()
            });
        }
        for (pod, field, _, quote, _) in ended.iter().take(10) {
            let key = ObjectKey::of("Pod", &pod.metadata);
            if !f.objects.contains(&key) {
                f = f.object(key.clone());
            }
            f = f.evidence(
                EvidenceKind::Field,
                Some(&key),
                field.clone(),
                quote.clone(),
            );
        }
        let describe = if node.is_empty() {
            "kubectl get pods -A -o wide | grep -v Running; kubectl get nodes".to_string()
        } else {
            format!("kubectl describe node {node}")
        };
        f = f
            .explain(format!(
                "Exit code 255 with reason Unknown is what the kubelet records for a container whose runtime lost it: the machine rebooted, or containerd / the kubelet restarted and could not find the running task. Nothing in the application failed; {} {}",
                if together {
                    "several containers ended within the same two minutes, which only a restart under all of them does."
                } else {
                    "with one container on record, a crash of the runtime itself is as likely as a reboot."
                },
                "The pods restart by themselves; what matters is whether the restart was planned."
            ))
            .step(
                "See when the node started and what its events say (Rebooted, Starting kubelet)",
                Some(describe),
                RiskLevel::None,
                "",
            )
            .step(
                "On the node: the boots, and the runtime's last lines before this one",
                Some("journalctl --list-boots | tail -3; journalctl -u containerd -u kubelet -b -1 | tail -50".into()),
                RiskLevel::None,
                "",
            )
            .step(
                "If the restart was not planned, find why (kernel panic, the node out of memory, power) and drain nodes before planned reboots",
                Some("kubectl drain NODE --ignore-daemonsets --delete-emptydir-data".into()),
                RiskLevel::Low,
                "Draining evicts the node's pods; PodDisruptionBudgets may hold it.",
            );
        out.push(f);
    }
}

#[cfg(test)]
mod tests {
    use crate::tests::{add_node_log, snapshot_of};
    use kubewhy_model::{Confidence, Finding};

    const NOW: &str = "2026-11-22T10:00:00Z";
    const CID: &str = "ff329173246bdc6e0c4db8fa0b3d4902380412664f74331b70197c6999f33d4e";
    const UID: &str = "6d5c3a9e-1b2c-11ea-8d3c-525400a1b2c3";

    /// A node (Ready) and a pod on it, deleted at 09:50 with a 30 s grace period.
    fn stuck_pod() -> String {
        format!(
            r#"apiVersion: v1
kind: Node
metadata: {{name: tke-node, uid: n1}}
status:
  conditions:
  - {{type: Ready, status: "True", reason: KubeletReady, message: kubelet is posting ready status}}
---
apiVersion: v1
kind: Pod
metadata:
  name: zookeeper0-0
  namespace: default
  uid: {UID}
  creationTimestamp: "2026-11-20T00:00:00Z"
  deletionTimestamp: "2026-11-22T09:50:00Z"
  deletionGracePeriodSeconds: 30
  ownerReferences: [{{apiVersion: apps/v1, kind: StatefulSet, name: zookeeper0, uid: s1, controller: true}}]
spec:
  nodeName: tke-node
  containers: [{{name: zookeeper, image: zookeeper:3.5}}]
status:
  phase: Running
  containerStatuses:
  - name: zookeeper
    image: zookeeper:3.5
    ready: true
    restartCount: 0
    containerID: docker://{CID}
    state: {{running: {{startedAt: "2026-11-20T00:00:05Z"}}}}
"#
        )
    }

    fn diagnose_with(yaml: &str, node_log: &str) -> Vec<Finding> {
        let mut snap = snapshot_of(yaml, NOW);
        add_node_log(&mut snap, "node.log", node_log);
        crate::diagnose(&snap).findings
    }

    fn only(findings: &[Finding]) -> &Finding {
        assert_eq!(
            findings.len(),
            1,
            "{:#?}",
            findings.iter().map(|f| f.cause).collect::<Vec<_>>()
        );
        &findings[0]
    }

    fn quotes(f: &Finding) -> Vec<(String, String)> {
        f.evidence
            .iter()
            .map(|e| (e.source.clone(), e.quote.clone()))
            .collect()
    }

    #[test]
    fn seed_001_docker_up_but_containerd_task_stopped_is_runtime_state_inconsistent() {
        let log = format!(
            "$ docker ps\n\
             CONTAINER ID        IMAGE               COMMAND                  CREATED             STATUS              PORTS               NAMES\n\
             ff329173246b        zookeeper           \"/docker-entrypoint.…\"   2 days ago          Up 2 days                               k8s_zookeeper_zookeeper0-0_default_{UID}_0\n\
             \n\
             $ ctr --namespace moby --address /var/run/docker/containerd/containerd.sock task list\n\
             TASK                                                                PID      STATUS\n\
             {CID}    12345    STOPPED\n"
        );
        let findings = diagnose_with(&stuck_pod(), &log);
        let f = only(&findings);
        assert_eq!(f.cause.slug(), "runtime-state-inconsistent");
        assert_eq!(f.confidence, Confidence::High);
        let q = quotes(f);
        assert!(q.contains(&(
            "runtime lists compared".into(),
            "docker lists container ff329173246b as \"Up 2 days\", but containerd's task for it is STOPPED".into()
        )), "{q:#?}");
        assert!(
            q.iter()
                .any(|(s, t)| s.starts_with("docker ps (node.log:3)")
                    && t.starts_with("ff329173246b"))
        );
        assert!(
            q.iter()
                .any(|(s, t)| s.starts_with("ctr task ls (node.log:7)") && t.ends_with("STOPPED"))
        );
    }

    #[test]
    fn seed_001_stop_timeouts_are_container_stop_timeout() {
        let log = format!(
            "Aug 20 10:25:54 tke-node kubelet: E0820 10:25:54.561334 12170 remote_runtime.go:243] StopContainer \"{CID}\" from runtime service failed: rpc error: code = Unknown desc = operation timeout: context deadline exceeded\n\
             Aug 20 10:25:54 tke-node kubelet: E0820 10:25:54.562667 12170 kuberuntime_container.go:590] Container \"docker://{CID}\" termination failed with gracePeriod 30: rpc error: code = Unknown desc = operation timeout: context deadline exceeded\n"
        );
        let findings = diagnose_with(&stuck_pod(), &log);
        let f = only(&findings);
        assert_eq!(f.cause.slug(), "container-stop-timeout");
        assert_eq!(f.confidence, Confidence::High);
        let q = quotes(f);
        assert_eq!(
            q[0].0,
            "kubelet: stop failed, timed out (node.log:2), the last of 2 such lines"
        );
        assert!(q[0].1.contains("termination failed with gracePeriod 30"));
    }

    #[test]
    fn no_ref_for_container_is_runtime_state_inconsistent() {
        let log = format!(
            "Aug 20 10:25:51 tke-node kubelet: E0820 10:25:51.123456 12170 prober.go:103] No ref for container \"docker://{CID}\" (zookeeper0-0_default({UID}):zookeeper)\n"
        );
        let f = diagnose_with(&stuck_pod(), &log);
        assert_eq!(only(&f).cause.slug(), "runtime-state-inconsistent");
    }

    #[test]
    fn the_reclaim_check_that_fails_is_named_with_medium_confidence() {
        let log = "I1122 09:59:00.000000 1 kubelet_pods.go:980] \"Pod is terminated, but some volumes have not been cleaned up\" pod=\"default/zookeeper0-0\"\n";
        let f = diagnose_with(&stuck_pod(), log);
        let f = only(&f);
        assert_eq!(f.cause.slug(), "kubelet-cleanup-pending");
        assert_eq!(
            f.summary,
            "The kubelet waits for the pod's volumes to be cleaned up"
        );
        assert_eq!(f.confidence, Confidence::Medium);
    }

    #[test]
    fn a_process_stuck_in_the_kernel_is_container_stop_timeout() {
        let log = format!(
            "# kubewhy node-collect: node\nnode\ttke-node\n# kubewhy node-collect: processes\n4242\tD\tjava\t/kubepods/burstable/pod{UID}/{CID}\n"
        );
        let f = diagnose_with(&stuck_pod(), &log);
        let f = only(&f);
        assert_eq!(f.cause.slug(), "container-stop-timeout");
        assert!(
            quotes(f)
                .iter()
                .any(|(s, q)| s == "process in state D (node.log:4)"
                    && q.starts_with("pid 4242 java cgroup /kubepods/burstable/pod"))
        );
    }

    #[test]
    fn a_kernel_netdevice_hang_on_the_node_is_container_stop_timeout_with_medium_confidence() {
        let log = "Nov 22 09:55:00 tke-node kernel: unregister_netdevice: waiting for eth0 to become free. Usage count = 1\n";
        let f = diagnose_with(&stuck_pod(), log);
        let f = only(&f);
        assert_eq!(f.cause.slug(), "container-stop-timeout");
        assert_eq!(f.confidence, Confidence::Medium);
    }

    #[test]
    fn a_sandbox_id_from_crictl_pods_ties_a_containerd_line_to_the_pod() {
        let sid = "4a1f0a2b3c4d5e6f".repeat(4);
        let log = format!(
            "POD ID              CREATED             STATE               NAME                NAMESPACE           ATTEMPT             RUNTIME\n\
             4a1f0a2b3c4d5       2 days ago          Ready               zookeeper0-0        default             0                   (default)\n\
             \n\
             time=\"2026-11-22T09:58:00Z\" level=error msg=\"StopPodSandbox for \\\"{sid}\\\" failed\" error=\"failed to destroy network for sandbox: context deadline exceeded\"\n"
        );
        let f = diagnose_with(&stuck_pod(), &log);
        let f = only(&f);
        assert_eq!(f.cause.slug(), "container-stop-timeout");
        assert!(quotes(f)[0].1.contains("StopPodSandbox"));
    }

    #[test]
    fn throttled_status_requests_name_the_node_and_the_pods() {
        let yaml = stuck_pod().replace(
            "  deletionTimestamp: \"2026-11-22T09:50:00Z\"\n  deletionGracePeriodSeconds: 30\n",
            "",
        );
        let log = "# kubewhy node-collect: node\nnode\ttke-node\n# kubewhy node-collect: kubelet-settings\nkubeAPIQPS\t5\nkubeAPIBurst\t10\n# kubewhy node-collect: log kubelet\n\
                   I1122 09:59:00.000000 1 request.go:655] Throttling request took 1.171s, request: PATCH:https://10.0.0.1:443/api/v1/namespaces/default/pods/zookeeper0-0/status\n";
        let f = diagnose_with(&yaml, log);
        let f = only(&f);
        assert_eq!(f.cause.slug(), "kubelet-status-throttled");
        let objects: Vec<String> = f
            .objects
            .iter()
            .map(|o| format!("{} {}", o.kind, o.name))
            .collect();
        assert_eq!(objects, ["Node tke-node", "Pod zookeeper0-0"]);
        assert_eq!(f.confidence, Confidence::High);
        assert!(
            quotes(f)
                .iter()
                .any(|(s, q)| s.starts_with("kubelet configuration (")
                    && q == "kubeAPIQPS 5, kubeAPIBurst 10")
        );
    }

    #[test]
    fn a_terminating_pod_the_runtime_no_longer_runs_on_a_throttled_kubelet() {
        let log = "# kubewhy node-collect: node\nnode\ttke-node\n# kubewhy node-collect: command crictl pods\n\
                   POD ID              CREATED             STATE               NAME                NAMESPACE           ATTEMPT             RUNTIME\n\
                   5b1f0a2b3c4d5       2 days ago          Ready               other-0             default             0                   (default)\n\
                   \n# kubewhy node-collect: log kubelet\n\
                   I1122 09:59:00.000000 1 request.go:697] Waited for 4.1s due to client-side throttling, not priority and fairness, request: PATCH:https://10.0.0.1:443/api/v1/namespaces/default/pods/other-0/status\n";
        let findings = diagnose_with(&stuck_pod(), log);
        let f = only(&findings);
        assert_eq!(f.cause.slug(), "kubelet-status-throttled");
        let objects: Vec<String> = f.objects.iter().map(|o| o.name.to_string()).collect();
        assert_eq!(objects, ["zookeeper0-0", "tke-node"]);
        assert!(quotes(f).contains(&(
            "runtime lists compared".into(),
            "crictl pods on tke-node list nothing of the pod running".into()
        )));
    }

    /// `n` pods on node-4 whose container started at 09:50 and whose status still says
    /// ContainerCreating at 10:00.
    fn lagging(n: usize) -> String {
        let mut y = "apiVersion: v1\nkind: Node\nmetadata: {name: node-4, uid: n4}\nstatus:\n  conditions:\n  - {type: Ready, status: \"True\"}\n".to_string();
        for i in 0..n {
            y.push_str(&format!(
                r#"---
apiVersion: v1
kind: Pod
metadata: {{name: worker-{i}, namespace: batch, uid: w{i}, creationTimestamp: "2026-11-22T09:49:00Z"}}
spec: {{nodeName: node-4, containers: [{{name: worker, image: worker:3}}]}}
status:
  phase: Pending
  containerStatuses:
  - {{name: worker, image: worker:3, ready: false, restartCount: 0, state: {{waiting: {{reason: ContainerCreating}}}}}}
---
apiVersion: v1
kind: Event
metadata: {{name: worker-{i}.started, namespace: batch}}
involvedObject: {{kind: Pod, namespace: batch, name: worker-{i}, uid: w{i}, fieldPath: "spec.containers{{worker}}"}}
reason: Started
message: Started container worker
source: {{component: kubelet, host: node-4}}
firstTimestamp: "2026-11-22T09:50:00Z"
lastTimestamp: "2026-11-22T09:50:00Z"
count: 1
"#
            ));
        }
        y
    }

    #[test]
    fn one_pod_whose_status_lags_does_not_make_a_throttled_kubelet_but_three_do() {
        let throttled = |n| {
            crate::diagnose(&snapshot_of(&lagging(n), NOW))
                .findings
                .into_iter()
                .filter(|f| f.cause == kubewhy_model::Cause::KubeletStatusThrottled)
                .collect::<Vec<_>>()
        };
        assert!(throttled(1).is_empty());
        assert!(throttled(2).is_empty());
        let three = throttled(3);
        assert_eq!(three.len(), 1);
        let pods: Vec<&str> = three[0]
            .objects
            .iter()
            .filter(|o| o.kind == "Pod")
            .map(|o| o.name.as_str())
            .collect();
        assert_eq!(pods, ["worker-0", "worker-1", "worker-2"]);
        assert_eq!(three[0].confidence, Confidence::Medium);
        // The configuration to change is a snippet, not a command.
        let raise = three[0]
            .remediation
            .iter()
            .find(|s| s.action.starts_with("Raise the kubelet's limits"))
            .expect("the step that raises the limits");
        assert_eq!(raise.command, None);
        assert_eq!(
            raise.snippet.as_deref(),
            Some("kubeAPIQPS: 50\nkubeAPIBurst: 100\neventRecordQPS: 50\neventBurst: 100")
        );
    }

    #[test]
    fn a_manifest_without_its_mirror_pod_is_static_pod_stale() {
        let yaml = format!(
            "{}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: etcd-other, namespace: kube-system, uid: e1}}\nspec: {{nodeName: tke-node, containers: [{{name: etcd, image: etcd:3}}]}}\nstatus: {{phase: Running}}\n",
            stuck_pod().replace(
                "  deletionTimestamp: \"2026-11-22T09:50:00Z\"\n  deletionGracePeriodSeconds: 30\n",
                ""
            )
        );
        let log = "# kubewhy node-collect: node\nnode\ttke-node\n# kubewhy node-collect: static-pods\n/etc/kubernetes/manifests/kube-scheduler.yaml\tabc\t2026-11-22T09:00:00Z\tkube-system/kube-scheduler\tkube-scheduler=k8s.gcr.io/kube-scheduler:v1.20.2\n";
        let f = diagnose_with(&yaml, log);
        let f = only(&f);
        assert_eq!(f.cause.slug(), "static-pod-stale");
        assert_eq!(f.confidence, Confidence::Medium);
        assert_eq!(f.objects[1].name, "kube-scheduler-tke-node");
    }
}
