//! State inferred for objects a paste names without showing them: a pod seen only in `get
//! events` or `get pods`, a status stanza without its spec, a bare event message. The state is
//! what the events or the row imply (a `FailedScheduling` pod is unscheduled; `Back-off pulling
//! image "X"` is a container waiting in ImagePullBackOff on image X), never more; every such
//! object is recorded as `Pasted`, so its findings are less certain and name the command that
//! would settle them.

use super::{EventRow, Row, UNKNOWN, parse_age, table};
use jiff::Timestamp;
use kubewhy_model::objects::Str;
use kubewhy_model::{Cause, ObjectKey, Pasted};
use regex::Regex;
use serde_json::{Map, Value, json};
use std::sync::LazyLock;

pub(super) use kubewhy_model::messages::events::event_reason as message_reason;

static QUOTED_IMAGE: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"[Ii]mage "([^"]+)""#).expect("image pattern"));
/// The pull's waiting reason a message quotes without the pull's error: the reason itself
/// (`Error: ErrImagePull`), or the kubelet's words for it to `kubectl logs`.
fn waiting_on_pull(m: &str) -> Option<&'static str> {
    match m.strip_prefix("Error: ").map(str::trim) {
        Some("ErrImagePull") => Some("ErrImagePull"),
        Some("ImagePullBackOff") => Some("ImagePullBackOff"),
        Some(_) => None,
        None => kubewhy_model::messages::events::logs_pull_wait(m),
    }
}

static CONTAINER_NAME: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^(?:Created|Started|Stopping) container (\S+)|^Container (\S+) failed")
        .expect("container pattern")
});
static ASSIGNED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"^Successfully assigned (\S+)/(\S+) to (\S+)").expect("assigned pattern")
});

/// The namespace and pod a scheduler's `Successfully assigned NS/POD to NODE` names.
pub(super) fn assigned(message: &str) -> Option<(&str, &str)> {
    let c = ASSIGNED.captures(message)?;
    Some((c.get(1)?.as_str(), c.get(2)?.as_str()))
}

/// Whether a stanza's fields are a pod's own (its containers, its IP, a workload owning it).
pub(super) fn says_pod(map: &Map<String, Value>) -> bool {
    let status = map.get("status").unwrap_or(&Value::Null);
    let spec = map.get("spec").unwrap_or(&Value::Null);
    let owner = map
        .get("metadata")
        .and_then(|m| m.pointer("/ownerReferences/0/kind"))
        .and_then(Value::as_str);
    let has = |v: &Value, k: &str| v.get(k).is_some();
    has(status, "containerStatuses")
        || has(status, "initContainerStatuses")
        || has(status, "podIP")
        || has(status, "qosClass")
        || has(spec, "containers")
        || matches!(
            owner,
            Some("ReplicaSet" | "StatefulSet" | "DaemonSet" | "Job" | "Node")
        )
}

/// The kind a stanza's fields imply, or `None` when they say nothing of it.
pub(super) fn stanza_kind(map: &Map<String, Value>) -> Option<&'static str> {
    let status = map.get("status").cloned().unwrap_or(Value::Null);
    let spec = map.get("spec").cloned().unwrap_or(Value::Null);
    let owner = map
        .get("metadata")
        .and_then(|m| m.pointer("/ownerReferences/0/kind"))
        .and_then(Value::as_str);
    let has = |v: &Value, k: &str| v.get(k).is_some();
    if says_pod(map) {
        Some("Pod")
    } else if has(&spec, "finalizers") {
        // Only a namespace has `spec.finalizers` (`kubernetes`).
        Some("Namespace")
    } else if has(&status, "nodeInfo")
        || has(&status, "allocatable")
        || has(&spec, "podCIDR")
        || conditions_of(
            &status,
            &[
                "MemoryPressure",
                "DiskPressure",
                "PIDPressure",
                "OutOfDisk",
                "NetworkUnavailable",
            ],
        )
    {
        Some("Node")
    } else if has(&status, "accessModes") || has(&spec, "storageClassName") {
        Some("PersistentVolumeClaim")
    } else if has(&status, "desiredNumberScheduled") {
        Some("DaemonSet")
    } else if has(&status, "active") || has(&status, "succeeded") || has(&spec, "completions") {
        Some("Job")
    } else if has(&status, "fullyLabeledReplicas") || owner == Some("Deployment") {
        Some("ReplicaSet")
    } else if has(&status, "replicas") || has(&status, "updatedReplicas") {
        Some("Deployment")
    } else if status
        .get("phase")
        .and_then(Value::as_str)
        .is_some_and(|p| p == "Active" || p == "Terminating")
        || conditions_of(
            &status,
            &[
                "NamespaceDeletionDiscoveryFailure",
                "NamespaceDeletionContentFailure",
                "NamespaceContentRemaining",
                "NamespaceFinalizersRemaining",
                "NamespaceDeletionGroupVersionParsingFailure",
            ],
        )
    {
        Some("Namespace")
    } else {
        None
    }
}

/// The condition types of a stanza that shows no pod's field and whose conditions are all of
/// types a pod never has (a custom resource's `Initializing`, `Deleting`): `None` when it may
/// be a pod's.
pub(super) fn foreign_conditions(map: &Map<String, Value>) -> Option<Vec<String>> {
    const POD: &[&str] = &[
        "PodScheduled",
        "Ready",
        "Initialized",
        "ContainersReady",
        "PodReadyToStartContainers",
        "PodHasNetwork",
        "DisruptionTarget",
        "PodResizePending",
        "PodResizeInProgress",
    ];
    const POD_FIELDS: &[&str] = &[
        "phase",
        "containerStatuses",
        "initContainerStatuses",
        "ephemeralContainerStatuses",
        "podIP",
        "podIPs",
        "hostIP",
        "qosClass",
        "startTime",
        "nominatedNodeName",
    ];
    if map.contains_key("spec") {
        return None;
    }
    let status = map.get("status")?.as_object()?;
    if POD_FIELDS.iter().any(|f| status.contains_key(*f)) {
        return None;
    }
    let types: Vec<String> = status
        .get("conditions")?
        .as_array()?
        .iter()
        .map(|c| c["type"].as_str().map(str::to_string))
        .collect::<Option<_>>()?;
    (!types.is_empty() && types.iter().all(|t| !POD.contains(&t.as_str()))).then_some(types)
}

/// Whether a status has a condition of one of these types.
fn conditions_of(status: &Value, types: &[&str]) -> bool {
    status
        .get("conditions")
        .and_then(Value::as_array)
        .is_some_and(|a| {
            a.iter()
                .any(|c| c["type"].as_str().is_some_and(|t| types.contains(&t)))
        })
}

/// A pod stanza without a spec: its containers, from their statuses (name and image).
pub(super) fn containers_from_status(map: &mut Map<String, Value>) {
    let spec = map.entry("spec").or_insert_with(|| json!({}));
    if spec.get("containers").is_some() {
        return;
    }
    let status = map.get("status").cloned().unwrap_or(Value::Null);
    let list = |key: &str| -> Vec<Value> {
        status
            .get(key)
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .map(|s| json!({"name": s["name"], "image": s["image"]}))
                    .collect()
            })
            .unwrap_or_default()
    };
    let containers = list("containerStatuses");
    let init = list("initContainerStatuses");
    // A `spec` that is not a mapping (pasted text is anything) is left for decoding to refuse.
    if let Some(spec) = map.get_mut("spec").and_then(Value::as_object_mut) {
        spec.insert("containers".into(), json!(containers));
        spec.insert("initContainers".into(), json!(init));
    }
}

/// Whether a pod (API shape) has a container that crashed: its output is worth attaching.
pub(super) fn crashing(v: &Value) -> bool {
    v.pointer("/status/containerStatuses")
        .and_then(Value::as_array)
        .is_some_and(|a| {
            a.iter().any(|s| {
                s.pointer("/state/waiting/reason") == Some(&json!("CrashLoopBackOff"))
                    || s.pointer("/lastState/terminated").is_some()
                    || s.pointer("/state/terminated/exitCode")
                        .and_then(Value::as_i64)
                        .is_some_and(|c| c != 0)
            })
        })
}

/// What a pod's events imply: its node, containers and images, and the state of the latest
/// warning.
struct PodState {
    node: Option<String>,
    containers: Vec<(String, String)>,
    phase: &'static str,
    unschedulable: Option<String>,
    waiting: Option<(String, String)>,
    restarts: i64,
    unready: bool,
    /// The kubelet refused the pod at admission (`OutOfcpu`, `UnexpectedAdmissionError`): the
    /// event's reason and message, which are the pod's `status.reason` and `status.message`.
    rejected: Option<(String, String)>,
    /// A row's `Init:…` STATUS: what its init container is doing (`CrashLoopBackOff`, `Error`,
    /// `0/1` while it runs). The table does not name the init container.
    init: Option<String>,
    /// The scheduler preempted the pod (its `Preempted` event on the victim): it deleted the
    /// pod then (the event's time, when the paste shows it).
    deleted: Option<Option<Timestamp>>,
}

fn pod_state(events: &[&EventRow]) -> PodState {
    let mut st = PodState {
        node: None,
        containers: Vec::new(),
        phase: "Pending",
        unschedulable: None,
        waiting: None,
        restarts: 0,
        unready: false,
        rejected: None,
        init: None,
        deleted: None,
    };
    let mut sorted: Vec<&&EventRow> = events.iter().collect();
    sorted.sort_by_key(|e| e.last);
    let add_container = |name: Option<&str>, image: Option<&str>, st: &mut PodState| {
        let name = name.unwrap_or(UNKNOWN);
        match st
            .containers
            .iter_mut()
            .find(|(n, _)| n == name || n == UNKNOWN)
        {
            Some(c) => {
                if name != UNKNOWN {
                    c.0 = name.to_string();
                }
                if let Some(i) = image {
                    c.1 = i.to_string();
                }
            }
            None => st
                .containers
                .push((name.to_string(), image.unwrap_or("").to_string())),
        }
    };
    for e in sorted {
        let from_path = e
            .field_path()
            .split_once('{')
            .map(|(_, c)| c.trim_end_matches('}'));
        let named = CONTAINER_NAME
            .captures(&e.message)
            .and_then(|c| c.get(1).or(c.get(2)))
            .map(|m| m.as_str());
        let image = QUOTED_IMAGE
            .captures(&e.message)
            .map(|c| c.get(1).map_or("", |m| m.as_str()));
        if from_path.or(named).is_some() || image.is_some() {
            add_container(from_path.or(named), image, &mut st);
        }
        let m = e.message.as_str();
        match e.reason.as_str() {
            "Scheduled" => {
                st.unschedulable = None;
                if let Some(c) = ASSIGNED.captures(m) {
                    st.node = Some(c[3].to_string());
                }
            }
            "FailedScheduling" => st.unschedulable = Some(m.to_string()),
            r if kubewhy_model::messages::pod::preempted_victim(r, m) => {
                st.deleted = Some(e.last.get().or(e.first.get()));
            }
            r if matches!(
                kubewhy_model::messages::pod::event_cause(r, m),
                Some(Cause::NodeAdmissionRejected | Cause::DeviceAllocationFailed)
            ) =>
            {
                st.rejected = Some((r.to_string(), m.to_string()))
            }
            "BackOff" if m.contains("pulling image") => {
                st.waiting = Some(("ImagePullBackOff".into(), m.to_string()))
            }
            "Failed" if m.starts_with("Failed to pull image") => {
                st.waiting = Some(("ErrImagePull".into(), m.to_string()))
            }
            // The waiting reason alone (the kubelet's `Error: ErrImagePull` beside its pull
            // error; `kubectl logs`' `is waiting to start: trying and failing to pull image`):
            // the container waits on its pull, for a reason a pull error, when any, says.
            "Failed" if waiting_on_pull(m).is_some() => {
                st.waiting = st
                    .waiting
                    .take()
                    .or_else(|| waiting_on_pull(m).map(|r| (r.to_string(), m.to_string())));
            }
            // kubelet 1.2's reason was `Backoff`, its message `… failed docker container`.
            "BackOff" | "Backoff"
                if m.contains("restarting failed container")
                    || m.contains("restarting failed docker container") =>
            {
                st.phase = "Running";
                st.restarts = st.restarts.max(i64::from(e.count));
                st.waiting = Some(("CrashLoopBackOff".into(), m.to_string()));
            }
            "Failed" if m.starts_with("Error: ") => {
                let err = m.trim_start_matches("Error: ");
                let reason = if err.contains("not found")
                    || err.contains("couldn't find key")
                    || err.contains("runAsNonRoot")
                    || err.contains("non-root policy")
                    // Any other configuration error the catalogue knows (the kubelet before its
                    // Service informer synced: `cannot construct envvars`).
                    || kubewhy_model::messages::known::find(err)
                        .is_some_and(|(e, _)| e.cause == Cause::ConfigError)
                {
                    "CreateContainerConfigError"
                } else {
                    "RunContainerError"
                };
                st.waiting = Some((reason.into(), err.to_string()));
            }
            "FailedMount" | "FailedAttachVolume" | "FailedCreatePodSandBox" => {
                st.waiting = Some(("ContainerCreating".into(), String::new()))
            }
            // The kubelet kills a container whose liveness or startup probe failed and starts
            // it again: each such event is a restart.
            "Killing" if m.contains("probe, will be restarted") => {
                st.phase = "Running";
                st.restarts = st.restarts.max(i64::from(e.count));
            }
            "Unhealthy" if m.starts_with("Readiness") => {
                st.phase = "Running";
                st.unready = true;
            }
            // A later step clears what an earlier failure implied: the container got past it.
            "Pulled"
                if st
                    .waiting
                    .as_ref()
                    .is_some_and(|(r, _)| r.contains("Image")) =>
            {
                st.waiting = None
            }
            "Created" | "Started" => {
                st.waiting = None;
                if e.reason == "Started" {
                    st.phase = "Running";
                }
            }
            _ => {}
        }
    }
    // A refused pod never ran: what came after (a mount of its volumes retried) is noise.
    if st.rejected.is_some() {
        st.phase = "Failed";
        st.waiting = None;
        st.unschedulable = None;
    }
    if st.containers.is_empty() && (st.waiting.is_some() || st.phase == "Running") {
        st.containers.push((UNKNOWN.into(), String::new()));
    }
    st
}

fn pod_json(ns: &str, name: &str, st: &PodState, anchor: Timestamp) -> Value {
    let containers: Vec<Value> = st
        .containers
        .iter()
        .map(|(n, i)| json!({"name": n, "image": i}))
        .collect();
    let statuses: Vec<Value> = st
        .containers
        .iter()
        .map(|(n, i)| {
            let state = match &st.waiting {
                Some((reason, message)) => json!({"waiting": {"reason": reason, "message": message}}),
                None if st.init.is_some() => json!({"waiting": {"reason": "PodInitializing"}}),
                None if st.phase == "Running" => json!({"running": {}}),
                None => json!({"waiting": {"reason": "ContainerCreating"}}),
            };
            json!({"name": n, "image": i, "ready": st.phase == "Running" && !st.unready && st.waiting.is_none(),
                   "restartCount": st.restarts, "state": state})
        })
        .collect();
    let mut conditions = Vec::new();
    if let Some(m) = &st.unschedulable {
        conditions.push(json!({"type": "PodScheduled", "status": "False", "reason": "Unschedulable", "message": m}));
    } else if st.node.is_some() {
        conditions.push(json!({"type": "PodScheduled", "status": "True"}));
    }
    if st.unready {
        conditions
            .push(json!({"type": "Ready", "status": "False", "reason": "ContainersNotReady"}));
    }
    let mut containers = containers;
    if st.unready {
        // A readiness probe failed: the container has one.
        for c in &mut containers {
            c["readinessProbe"] = json!({});
        }
    }
    let mut spec = json!({"containers": containers});
    let mut init_statuses = Vec::new();
    if let Some(r) = &st.init {
        let name = format!("{UNKNOWN}-init");
        spec["initContainers"] = json!([{"name": name, "image": ""}]);
        // `Init:0/1` counts init containers done: the first is running. Otherwise STATUS is its
        // reason: why it waits, or how it last ended.
        let state = if r.contains('/') {
            json!({"running": {}})
        } else if matches!(r.as_str(), "Error" | "OOMKilled" | "ContainerCannotRun") {
            json!({"terminated": ended(r)})
        } else {
            json!({"waiting": {"reason": r, "message": ""}})
        };
        init_statuses.push(json!({"name": name, "image": "", "ready": false,
                                  "restartCount": st.restarts, "state": state}));
    }
    if let Some(n) = &st.node {
        spec["nodeName"] = json!(n);
    }
    let mut pod = json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns},
        "spec": spec,
        "status": {"phase": st.phase, "conditions": conditions,
                   "containerStatuses": if st.unschedulable.is_some() || st.rejected.is_some() { json!([]) } else { json!(statuses) }},
    });
    if !init_statuses.is_empty() {
        pod["status"]["initContainerStatuses"] = json!(init_statuses);
    }
    if let Some((reason, message)) = &st.rejected {
        pod["status"]["reason"] = json!(reason);
        pod["status"]["message"] = json!(message);
    }
    if let Some(t) = st.deleted {
        pod["metadata"]["deletionTimestamp"] = json!(t.unwrap_or(anchor).to_string());
        pod["metadata"]["deletionGracePeriodSeconds"] = json!(0);
    }
    pod
}

fn settle(kind: &str, ns: &str, name: &str) -> String {
    let resource = match kind {
        "PersistentVolumeClaim" => "pvc".to_string(),
        k => k.to_ascii_lowercase(),
    };
    let name = if name == UNKNOWN && ns != UNKNOWN {
        UNKNOWN
    } else {
        name
    };
    let ns = if ns == UNKNOWN { "NAMESPACE" } else { ns };
    if name == UNKNOWN && ns == "NAMESPACE" {
        "kubectl get events -A --field-selector type=Warning".to_string()
    } else if name == UNKNOWN {
        format!("kubectl get events -n {ns} --field-selector type=Warning")
    } else if matches!(kind, "Node" | "Namespace") {
        format!("kubectl describe {resource} {name}")
    } else {
        format!("kubectl describe {resource} {name} -n {ns}")
    }
}

/// What settles a pod stuck deleting: its finalizers and its node, which neither describe nor
/// `get pods` shows.
pub(super) fn settle_deletion(ns: &str, name: &str, node: Option<&str>) -> String {
    let ns = if ns == UNKNOWN { "NAMESPACE" } else { ns };
    format!(
        "kubectl get pod {name} -n {ns} -o jsonpath='{{.metadata.finalizers}}' && kubectl get node {}",
        node.unwrap_or("NODE")
    )
}

/// What settles why a namespace is stuck deleting: its conditions, and what is left in it.
pub(super) fn settle_namespace_deletion(name: &str) -> String {
    format!(
        "kubectl get namespace {name} -o jsonpath='{{.status.conditions}}' && kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n {name}"
    )
}

/// A node known only through its pods' `NodeNotReady` events: Ready Unknown since the event.
pub(super) fn node_not_ready(node: &str, e: &EventRow) -> (Value, Pasted) {
    let since = e.first.get().or(e.last.get()).map(|t| t.to_string());
    let v = json!({
        "apiVersion": "v1", "kind": "Node", "metadata": {"name": node},
        "status": {"conditions": [{"type": "Ready", "status": "Unknown", "reason": "NodeNotReady",
            "message": format!("{} (the node controller's event on pod {}/{})", e.message, e.namespace, e.name),
            "lastTransitionTime": since}]},
    });
    let p = Pasted {
        object: ObjectKey {
            kind: "Node".into(),
            namespace: String::new().into(),
            name: node.into(),
            uid: String::new().into(),
        },
        from: "its pods' NodeNotReady events".into(),
        missing: "its conditions, heartbeats and Lease".into(),
        settle: format!("kubectl describe node {node}"),
    };
    (v, p)
}

/// An object named only by events: a pod with the state they imply, or a workload, node, claim
/// or namespace with nothing but its name (its events carry the evidence).
pub(super) fn from_events(
    kind: &str,
    ns: &str,
    name: &str,
    events: &[&EventRow],
    anchor: Timestamp,
) -> Option<(Value, Pasted)> {
    let namespaced = !matches!(kind, "Node" | "Namespace");
    let from = if name == UNKNOWN {
        "an event message"
    } else {
        "events"
    };
    let missing = if name == UNKNOWN {
        format!(
            "which {} it is about, and its state",
            kind.to_ascii_lowercase()
        )
    } else {
        "its state (only its events were pasted)".to_string()
    };
    let v = match kind {
        "Pod" => pod_json(ns, name, &pod_state(events), anchor),
        "ReplicaSet" | "Deployment" | "StatefulSet" | "DaemonSet" | "Job" => {
            let api = if kind == "Job" { "batch/v1" } else { "apps/v1" };
            json!({"apiVersion": api, "kind": kind, "metadata": {"name": name, "namespace": ns}})
        }
        "Node" => json!({"apiVersion": "v1", "kind": "Node", "metadata": {"name": name}}),
        "PersistentVolumeClaim" => {
            json!({"apiVersion": "v1", "kind": kind, "metadata": {"name": name, "namespace": ns}})
        }
        _ => return None,
    };
    let p = Pasted {
        object: ObjectKey {
            kind: kind.into(),
            namespace: if namespaced {
                ns.into()
            } else {
                Str::default()
            },
            name: name.into(),
            uid: Str::default(),
        },
        from: from.into(),
        missing,
        settle: settle(kind, ns, name),
    };
    Some((v, p))
}

/// When the row's AGE says the object was created.
pub(super) fn created_by_age(row: &Row, anchor: Timestamp) -> Option<Timestamp> {
    table::get(&row.cells, "AGE")
        .split_whitespace()
        .next()
        .and_then(parse_age)
        .and_then(|age| {
            anchor
                .checked_sub(jiff::SignedDuration::from_secs(age))
                .ok()
        })
}

/// A pod from its `kubectl get pods` row and its events.
fn pod_from_row(row: &Row, events: &[&EventRow], deleted: bool, anchor: Timestamp) -> Value {
    let cell = |n: &str| table::get(&row.cells, n);
    let status = cell("STATUS");
    let mut st = pod_state(events);
    let node = cell("NODE");
    if !node.is_empty() && !node.starts_with('<') {
        st.node = Some(node.to_string());
    }
    let restarts = cell("RESTARTS").split_whitespace().next().unwrap_or("0");
    st.restarts = st.restarts.max(restarts.parse().unwrap_or(0));
    let (ready, total) = cell("READY")
        .split_once('/')
        .and_then(|(a, b)| Some((a.parse::<usize>().ok()?, b.parse::<usize>().ok()?)))
        .unwrap_or((0, 1));
    while st.containers.len() < total {
        st.containers
            .push((format!("{UNKNOWN}-{}", st.containers.len()), String::new()));
    }
    // Deleted by a command in the paste and listed after it: still being deleted.
    let (terminated, deleting) = read_pod_status(&mut st, status, ready < total);
    let deleting = deleting || deleted;
    let mut v = pod_json(&row.namespace, &row.name, &st, anchor);
    if let Some(list) = v["status"]["containerStatuses"].as_array_mut() {
        for (i, s) in list.iter_mut().enumerate() {
            // READY says how many are ready, not which: the first ones.
            s["ready"] = json!(i < ready);
            if let Some(reason) = terminated {
                let t = ended(reason);
                s["state"] = json!({"terminated": t});
                if st.restarts > 0 {
                    s["lastState"] = json!({"terminated": t});
                }
            }
        }
    }
    // STATUS shows a reason when the pod has one; "Unknown" is the phase alone.
    if matches!(status, "Evicted" | "NodeLost") || kubelet_reason(status) {
        v["status"]["reason"] = json!(status);
    }
    let created = created_by_age(row, anchor);
    if let Some(t) = created {
        v["metadata"]["creationTimestamp"] = json!(t.to_string());
    }
    if deleting {
        // The table does not say when the deletion began: at the earliest, when the pod
        // was created (the paste is shared because it has lasted).
        v["metadata"]["deletionTimestamp"] = json!(created.unwrap_or(anchor).to_string());
        v["metadata"]["deletionGracePeriodSeconds"] = json!(0);
    }
    v
}

/// How a container ended, as a row's STATUS says it: the reason, not the exit code. OOMKilled is
/// 137 and Completed 0 by definition; for the others the code is unknown, and none is invented.
fn ended(reason: &str) -> Value {
    let mut t = json!({"reason": reason});
    match reason {
        "OOMKilled" => t["exitCode"] = json!(137),
        "Completed" => t["exitCode"] = json!(0),
        _ => {}
    }
    t
}

/// A STATUS that is the kubelet's own reason for ending or refusing a pod (`OutOfcpu`,
/// `NodeAffinity`, `MatchNodeSelector`, `UnexpectedAdmissionError`, `DeadlineExceeded`, …): the
/// pod is Failed with that reason (`kubewhy_model::messages::pod`).
fn kubelet_reason(status: &str) -> bool {
    kubewhy_model::messages::pod::reason_cause(status, "").is_some()
}

/// What a pod row's STATUS says of its state: set on `st`; returns the reason its containers
/// terminated with, if STATUS is one, and whether the pod is being deleted.
fn read_pod_status<'a>(
    st: &mut PodState,
    status: &'a str,
    unready: bool,
) -> (Option<&'a str>, bool) {
    match status {
        "Pending" if st.node.is_none() && st.unschedulable.is_none() => {
            st.containers.clear();
        }
        "Pending" => {}
        "Running" => {
            st.phase = "Running";
            st.unready = unready;
        }
        "Terminating" => return (None, true),
        "OOMKilled" | "Error" | "Completed" | "ContainerCannotRun" => {
            st.phase = "Running";
            return (Some(status), false);
        }
        // The node controller's verdict on a pod whose node stopped reporting: its
        // phase is Unknown, not over.
        "NodeLost" | "Unknown" => st.phase = "Unknown",
        "Evicted" => st.phase = "Failed",
        s if kubelet_reason(s) => st.phase = "Failed",
        s if s.starts_with("Init:") => st.init = Some(s["Init:".len()..].to_string()),
        s if !s.is_empty() => {
            if st.waiting.as_ref().is_none_or(|(r, _)| r != s) {
                st.waiting = Some((s.to_string(), String::new()));
            }
            if s == "CrashLoopBackOff" {
                st.phase = "Running";
            }
        }
        _ => {}
    }
    (None, false)
}

/// An object known from a `kubectl get` row: pods by STATUS, READY, RESTARTS and NODE; nodes by
/// STATUS (`Ready`, `NotReady`, `SchedulingDisabled`); claims and namespaces by STATUS.
pub(super) fn from_row(
    row: &Row,
    events: &[&EventRow],
    deleted: bool,
    anchor: Timestamp,
) -> (Value, Pasted) {
    let cell = |n: &str| table::get(&row.cells, n);
    let status = cell("STATUS");
    let namespaced = !matches!(row.kind, "Node" | "Namespace");
    let v = match row.kind {
        "Pod" => pod_from_row(row, events, deleted, anchor),
        "Node" => {
            let ready = status.split(',').any(|s| s == "Ready");
            let unknown = status.split(',').any(|s| s == "Unknown");
            json!({
                "apiVersion": "v1", "kind": "Node", "metadata": {"name": row.name},
                "spec": {"unschedulable": status.contains("SchedulingDisabled")},
                "status": {"conditions": [{"type": "Ready",
                    "status": if ready { "True" } else if unknown { "Unknown" } else { "False" }}]},
            })
        }
        "Namespace" => json!({
            "apiVersion": "v1", "kind": "Namespace", "metadata": {"name": row.name},
            "status": {"phase": status},
        }),
        "PersistentVolumeClaim" => json!({
            "apiVersion": "v1", "kind": "PersistentVolumeClaim",
            "metadata": {"name": row.name, "namespace": row.namespace},
            "spec": {"storageClassName": cell("STORAGECLASS")},
            "status": {"phase": status},
        }),
        _ => json!({
            "apiVersion": "apps/v1", "kind": row.kind,
            "metadata": {"name": row.name, "namespace": row.namespace},
        }),
    };
    // Every kind's AGE says when it was created.
    let mut v = v;
    if v["metadata"].get("creationTimestamp").is_none()
        && let Some(t) = created_by_age(row, anchor)
    {
        v["metadata"]["creationTimestamp"] = json!(t.to_string());
    }
    let p = Pasted {
        object: ObjectKey {
            kind: row.kind.into(),
            namespace: if namespaced {
                row.namespace.clone().into()
            } else {
                String::new().into()
            },
            name: row.name.clone().into(),
            uid: String::new().into(),
        },
        from: format!("a kubectl get {} table", row.kind.to_ascii_lowercase()),
        missing: if events.is_empty() {
            "its state beyond the table's columns, and its events".into()
        } else {
            "its state beyond the table's columns".into()
        },
        settle: if row.kind == "Namespace" && status == "Terminating" {
            settle_namespace_deletion(&row.name)
        } else if status == "Terminating" || deleted {
            settle_deletion(&row.namespace, &row.name, v["spec"]["nodeName"].as_str())
        } else {
            settle(row.kind, &row.namespace, &row.name)
        },
    };
    (v, p)
}
