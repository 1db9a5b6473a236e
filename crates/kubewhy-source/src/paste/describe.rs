//! `kubectl describe` text: an indentation tree first (keys, values, their continuation lines,
//! and the key-less rows of tables), then, per kind, the object it shows in the API's own JSON
//! shape, so the loader's kind dispatch decodes it like any other input.
//!
//! Layouts of kubectl 1.1x to today: `From` as `kubelet, NODE` (old) or `kubelet`, `Age` with
//! `(xN over M)`, `Events:  <none>`, the old `FirstSeen LastSeen Count …` event table.

use super::{EventRow, parse_age, parse_rfc1123};
use jiff::Timestamp;
use serde_json::{Map, Value, json};

/// One line of describe output with the lines below it.
#[derive(Debug, Default, Clone)]
pub(super) struct DNode {
    pub key: String,
    pub value: String,
    indent: usize,
    /// Rows of a table (Events, Conditions) or lines without a key (`No resource quota.`).
    pub rows: Vec<(u64, String)>,
    pub children: Vec<DNode>,
    table: bool,
}

/// Sections whose lines are table rows, not keys, even when a message holds `: `.
const TABLE_KEYS: &[&str] = &[
    "Events",
    "Conditions",
    "Non-terminated Pods",
    "Allocated resources",
    "Environment Variables from",
];

impl DNode {
    pub fn get(&self, key: &str) -> Option<&DNode> {
        self.children.iter().find(|c| c.key == key)
    }

    /// A key's value, without kubectl's `<none>` / `<unset>` placeholders.
    pub fn val(&self, key: &str) -> Option<&str> {
        let v = self.get(key)?.value.trim();
        (!v.is_empty() && !v.starts_with('<')).then_some(v)
    }

    fn has(&self, key: &str) -> bool {
        self.get(key).is_some()
    }
}

/// `Key:   value` → (key, value, the value's column); `None` for rows.
fn split_key(body: &str) -> Option<(&str, &str, usize)> {
    let bytes = body.as_bytes();
    let p = body.find(':')?;
    if !(p + 1 == bytes.len() || bytes[p + 1] == b' ' || bytes[p + 1] == b'\t') {
        return None;
    }
    let key = &body[..p];
    if key.is_empty()
        || key.len() > 60
        || key.contains("  ")
        || key.contains('\t')
        || key.starts_with(['-', '"', '(', '/', '['])
    {
        return None;
    }
    let rest = &body[p + 1..];
    let value = rest.trim_start();
    Some((key, value.trim_end(), p + 1 + (rest.len() - value.len())))
}

/// The tree of one describe block (its lines, numbered).
pub(super) fn tree(lines: &[(u64, &str)]) -> DNode {
    let mut stack: Vec<DNode> = vec![DNode::default()];
    let mut cont_col: Option<usize> = None;
    fn close(stack: &mut Vec<DNode>) {
        if stack.len() > 1 {
            let n = stack.pop().unwrap_or_default();
            if let Some(parent) = stack.last_mut() {
                parent.children.push(n);
            }
        }
    }
    for &(no, raw) in lines {
        let line = raw.trim_end();
        if line.trim().is_empty() {
            continue;
        }
        let indent = line.len() - line.trim_start().len();
        let body = line.trim_start();
        if indent > 0 && Some(indent) == cont_col {
            if let Some(top) = stack.last_mut() {
                top.value.push('\n');
                top.value.push_str(body);
            }
            continue;
        }
        while stack.len() > 1 && stack.last().is_some_and(|n| n.indent >= indent) {
            close(&mut stack);
        }
        let in_table = stack.iter().any(|n| n.table);
        match split_key(body).filter(|_| !in_table) {
            Some((k, v, vcol)) => {
                cont_col = (!v.is_empty()).then_some(indent + vcol);
                stack.push(DNode {
                    key: k.to_string(),
                    value: v.to_string(),
                    indent,
                    table: TABLE_KEYS.contains(&k),
                    ..Default::default()
                });
            }
            None => {
                cont_col = None;
                if let Some(top) = stack.last_mut() {
                    top.rows.push((no, line.to_string()));
                }
            }
        }
    }
    while stack.len() > 1 {
        close(&mut stack);
    }
    stack.pop().unwrap_or_default()
}

/// What a describe block shows.
#[derive(Debug, PartialEq, Clone, Copy)]
pub(super) enum Kind {
    Pod,
    Node,
    Namespace,
    Pvc,
    Deployment,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Job,
    Unknown,
}

pub(super) fn kind_of(t: &DNode) -> Kind {
    // A describe cut before its containers still has a pod's own keys.
    if t.has("Containers")
        || t.has("Init Containers")
        || (t.has("Node") && (t.has("IP") || t.has("Start Time") || t.has("Priority")))
        || t.has("QoS Class")
    {
        Kind::Pod
    } else if t.has("Roles") || t.has("Taints") || t.has("System Info") || t.has("Addresses") {
        Kind::Node
    } else if t.has("Reclaim Policy") {
        // A PersistentVolume: not read.
        Kind::Unknown
    } else if t.has("StorageClass") && (t.has("Access Modes") || t.has("VolumeMode")) {
        Kind::Pvc
    } else if t.has("StrategyType") || t.has("NewReplicaSet") {
        Kind::Deployment
    } else if t.has("Desired Number of Nodes Scheduled") {
        Kind::DaemonSet
    } else if t.has("Completions") || t.has("Parallelism") {
        Kind::Job
    } else if t.has("Update Strategy") && t.has("Pods Status") {
        Kind::StatefulSet
    } else if t.has("Pods Status") && t.has("Replicas") {
        Kind::ReplicaSet
    } else if t.has("Status")
        && t.children.iter().all(|c| {
            matches!(
                c.key.as_str(),
                "Name" | "Labels" | "Annotations" | "Status" | "Conditions"
            ) || c.indent > 0
        })
    {
        // Only these keys: a namespace (its quotas are key-less lines and indented ones).
        Kind::Namespace
    } else {
        Kind::Unknown
    }
}

impl Kind {
    pub fn api(self) -> (&'static str, &'static str) {
        match self {
            Kind::Pod => ("Pod", "v1"),
            Kind::Node => ("Node", "v1"),
            Kind::Namespace => ("Namespace", "v1"),
            Kind::Pvc => ("PersistentVolumeClaim", "v1"),
            Kind::Deployment => ("Deployment", "apps/v1"),
            Kind::ReplicaSet => ("ReplicaSet", "apps/v1"),
            Kind::StatefulSet => ("StatefulSet", "apps/v1"),
            Kind::DaemonSet => ("DaemonSet", "apps/v1"),
            Kind::Job => ("Job", "batch/v1"),
            Kind::Unknown => ("", ""),
        }
    }
}

/// `a=b` lines (Labels, Node-Selectors) → a map.
fn pairs(v: Option<&str>, sep: char) -> Map<String, Value> {
    let mut m = Map::new();
    for l in v.unwrap_or("").lines() {
        if let Some((k, v)) = l.trim().split_once(sep) {
            m.insert(k.trim().to_string(), Value::String(v.trim().to_string()));
        }
    }
    m
}

/// A table's rows split by its header's columns (the header is the first row; `----` lines
/// skipped).
pub(super) fn table_rows(rows: &[(u64, String)]) -> Vec<(u64, Vec<(String, String)>)> {
    let mut out = Vec::new();
    let mut header: Option<Vec<(String, usize)>> = None;
    for (no, row) in rows {
        let t = row.trim_start();
        if t.starts_with("--") {
            continue;
        }
        match &header {
            None => header = Some(super::table::columns(row)),
            Some(h) => out.push((*no, super::table::cells(h, row))),
        }
    }
    out
}

use super::table::get as cell;

/// The Events section's rows, for the object `involved` (kind, namespace, name).
pub(super) fn events(t: &DNode, involved: (&str, &str, &str), anchor: Timestamp) -> Vec<EventRow> {
    let Some(ev) = t.get("Events") else {
        return Vec::new();
    };
    table_rows(&ev.rows)
        .into_iter()
        .filter_map(|(no, cells)| EventRow::from_cells(&cells, involved, anchor, no))
        .collect()
}

/// The Conditions table (Type, Status, and for nodes the times, reason and message).
fn conditions(t: &DNode) -> Vec<Value> {
    let Some(c) = t.get("Conditions") else {
        return Vec::new();
    };
    table_rows(&c.rows)
        .into_iter()
        .filter_map(|(_, cells)| {
            let ty = cell(&cells, "Type");
            let status = cell(&cells, "Status");
            if ty.is_empty() || status.is_empty() {
                return None;
            }
            let mut m = json!({"type": ty, "status": status});
            for (col, field) in [
                ("Reason", "reason"),
                ("Message", "message"),
                ("LastHeartbeatTime", "lastHeartbeatTime"),
                ("LastTransitionTime", "lastTransitionTime"),
            ] {
                let v = cell(&cells, col);
                if v.is_empty() {
                    continue;
                }
                let v = if field.ends_with("Time") {
                    match parse_rfc1123(v) {
                        Some(ts) => ts.to_string(),
                        None => continue,
                    }
                } else {
                    v.to_string()
                };
                m[field] = Value::String(v);
            }
            Some(m)
        })
        .collect()
}

fn meta(t: &DNode, namespace: Option<&str>) -> Value {
    let mut m = json!({"name": t.val("Name").unwrap_or("")});
    if let Some(ns) = t.val("Namespace").or(namespace) {
        m["namespace"] = json!(ns);
    }
    let labels = pairs(t.val("Labels"), '=');
    if !labels.is_empty() {
        m["labels"] = Value::Object(labels);
    }
    let annotations = pairs(t.val("Annotations"), ':');
    if !annotations.is_empty() {
        m["annotations"] = Value::Object(annotations);
    }
    if let Some(f) = t.val("Finalizers") {
        let list: Vec<&str> = f
            .trim_matches(['[', ']'])
            .split([' ', ','])
            .filter(|s| !s.is_empty())
            .collect();
        m["finalizers"] = json!(list);
    }
    if let Some(ts) = t
        .val("CreationTimestamp")
        .or(t.val("Creation Timestamp"))
        .and_then(parse_rfc1123)
    {
        m["creationTimestamp"] = json!(ts.to_string());
    }
    if let Some((kind, name)) = t.val("Controlled By").and_then(|c| c.split_once('/')) {
        let api = match kind {
            "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Deployment" => "apps/v1",
            "Job" => "batch/v1",
            _ => "v1",
        };
        m["ownerReferences"] =
            json!([{"apiVersion": api, "kind": kind, "name": name, "controller": true}]);
    }
    m
}

/// `cpu: 100m` children of Requests/Limits/Capacity → a map.
fn quantities(t: Option<&DNode>) -> Map<String, Value> {
    let mut m = Map::new();
    for c in t.map(|t| t.children.as_slice()).unwrap_or(&[]) {
        if !c.value.is_empty() {
            m.insert(c.key.clone(), json!(c.value));
        }
    }
    m
}

/// A container State / Last State node → the API's state object.
fn state(s: Option<&DNode>) -> Value {
    let Some(s) = s else {
        return json!({});
    };
    let word = s.value.split_whitespace().next().unwrap_or("");
    let time = |k: &str| s.val(k).and_then(parse_rfc1123).map(|t| t.to_string());
    match word {
        "Waiting" => {
            json!({"waiting": {"reason": s.val("Reason").unwrap_or(""), "message": s.val("Message").unwrap_or("")}})
        }
        "Running" => json!({"running": {"startedAt": time("Started")}}),
        "Terminated" => json!({"terminated": {
            "reason": s.val("Reason").unwrap_or(""),
            "message": s.val("Message").unwrap_or(""),
            "exitCode": s.val("Exit Code").and_then(|c| c.parse::<i64>().ok()).unwrap_or(0),
            "signal": s.val("Signal").and_then(|c| c.parse::<i64>().ok()),
            "startedAt": time("Started"),
            "finishedAt": time("Finished"),
        }}),
        _ => json!({}),
    }
}

/// A state whose details lost their indentation (a document or a tracker that flattened the
/// paste: `State: Terminated` then `Reason: OOMKilled` at the same column): the container's keys
/// that follow it, up to the next key that is not a state's, as the state's own children.
/// `None` when the state has its details indented under it, or no details at all.
fn flat_state(c: &DNode, key: &str) -> Option<DNode> {
    const DETAILS: &[&str] = &[
        "Reason",
        "Message",
        "Exit Code",
        "Signal",
        "Started",
        "Finished",
    ];
    let at = c.children.iter().position(|n| n.key == key)?;
    if !c.children[at].children.is_empty() {
        return None;
    }
    let details: Vec<DNode> = c.children[at + 1..]
        .iter()
        .take_while(|n| DETAILS.contains(&n.key.as_str()))
        .cloned()
        .collect();
    (!details.is_empty()).then(|| DNode {
        children: details,
        ..c.children[at].clone()
    })
}

/// `80/TCP` → (80, TCP).
fn port(v: &str) -> Option<(i64, &str)> {
    let (p, proto) = v.split_once('/').unwrap_or((v, "TCP"));
    Some((p.trim().parse().ok()?, proto.trim()))
}

/// `<set to the key 'password' in secret 'db-password'>  Optional: false` and
/// `<set to the key 'k' of config map 'cfg'>` → a valueFrom. Plain values are not kept.
fn env_var(name: &str, value: &str) -> Value {
    let quoted: Vec<&str> = value.split('\'').skip(1).step_by(2).collect();
    let optional = value.contains("Optional: true");
    let mut v = json!({"name": name});
    if value.starts_with("<set to the key") && quoted.len() >= 2 {
        let r = json!({"name": quoted[1], "key": quoted[0], "optional": optional});
        if value.contains("in secret") {
            v["valueFrom"] = json!({"secretKeyRef": r});
        } else if value.contains("config map") {
            v["valueFrom"] = json!({"configMapKeyRef": r});
        }
    }
    v
}

fn containers(section: Option<&DNode>) -> (Vec<Value>, Vec<Value>) {
    let mut specs = Vec::new();
    let mut statuses = Vec::new();
    for c in section.map(|s| s.children.as_slice()).unwrap_or(&[]) {
        let mut spec = json!({"name": c.key, "image": c.val("Image").unwrap_or("")});
        let mut ports = Vec::new();
        let host = c.val("Host Port").and_then(port);
        for p in c.val("Port").or(c.val("Ports")).unwrap_or("").split(',') {
            if let Some((n, proto)) = port(p) {
                let mut pv = json!({"containerPort": n, "protocol": proto});
                if let Some((h, _)) = host.filter(|(h, _)| *h > 0) {
                    pv["hostPort"] = json!(h);
                }
                ports.push(pv);
            }
        }
        if !ports.is_empty() {
            spec["ports"] = json!(ports);
        }
        for (key, field) in [("Command", "command"), ("Args", "args")] {
            if let Some(n) = c.get(key) {
                let lines: Vec<&str> = n.rows.iter().map(|(_, r)| r.trim()).collect();
                spec[field] = json!(lines);
            }
        }
        spec["resources"] = json!({
            "requests": quantities(c.get("Requests")),
            "limits": quantities(c.get("Limits")),
        });
        for (key, field) in [
            ("Liveness", "livenessProbe"),
            ("Readiness", "readinessProbe"),
            ("Startup", "startupProbe"),
        ] {
            if c.has(key) {
                spec[field] = json!({});
            }
        }
        if let Some(env) = c.get("Environment") {
            let vars: Vec<Value> = env
                .children
                .iter()
                .map(|v| env_var(&v.key, &v.value))
                .collect();
            spec["env"] = json!(vars);
        }
        if let Some(from) = c.get("Environment Variables from") {
            let refs: Vec<Value> = from
                .rows
                .iter()
                .filter_map(|(_, r)| {
                    let mut w = r.split_whitespace();
                    let name = w.next()?;
                    let kind = w.next()?;
                    let optional = r.contains("Optional: true");
                    let r = json!({"name": name, "optional": optional});
                    Some(match kind {
                        "Secret" => json!({"secretRef": r}),
                        _ => json!({"configMapRef": r}),
                    })
                })
                .collect();
            spec["envFrom"] = json!(refs);
        }
        specs.push(spec);
        // A container's status is shown by any of its status lines (a fragment may hold only
        // `Last State:`).
        if ["State", "Last State", "Ready", "Restart Count"]
            .iter()
            .any(|k| c.has(k))
        {
            statuses.push(json!({
                "name": c.key,
                "image": c.val("Image").unwrap_or(""),
                "imageID": c.val("Image ID").unwrap_or(""),
                "containerID": c.val("Container ID").unwrap_or(""),
                "ready": c.val("Ready") == Some("True"),
                "restartCount": c.val("Restart Count").and_then(|r| r.parse::<i64>().ok()).unwrap_or(0),
                "state": state(flat_state(c, "State").as_ref().or(c.get("State"))),
                "lastState": state(flat_state(c, "Last State").as_ref().or(c.get("Last State"))),
            }));
        }
    }
    (specs, statuses)
}

fn volumes(t: &DNode) -> Vec<Value> {
    let mut out = Vec::new();
    for v in t
        .get("Volumes")
        .map(|v| v.children.as_slice())
        .unwrap_or(&[])
    {
        let ty = v.val("Type").unwrap_or("");
        let optional = v.val("Optional") == Some("true");
        let mut vol = json!({"name": v.key});
        if ty.starts_with("ConfigMap") {
            vol["configMap"] = json!({"name": v.val("Name").unwrap_or(""), "optional": optional});
        } else if ty.starts_with("Secret") {
            vol["secret"] =
                json!({"secretName": v.val("SecretName").unwrap_or(""), "optional": optional});
        } else if ty.starts_with("PersistentVolumeClaim") {
            vol["persistentVolumeClaim"] = json!({"claimName": v.val("ClaimName").unwrap_or("")});
        } else if ty.starts_with("EmptyDir") {
            vol["emptyDir"] = json!({});
        }
        out.push(vol);
    }
    out
}

/// `key=value:Effect op=Exists for 300s`, `key:NoExecute op=Exists`, `op=Exists` → toleration.
fn toleration(t: &str) -> Option<Value> {
    let mut words = t.split_whitespace();
    let first = words.next()?;
    let mut tol = Map::new();
    let rest: Vec<&str> = words.collect();
    if first.starts_with("op=") {
        tol.insert("operator".into(), json!("Exists"));
    } else {
        let (kv, effect) = match first.rsplit_once(':') {
            Some((kv, e)) if matches!(e, "NoSchedule" | "PreferNoSchedule" | "NoExecute") => {
                (kv, Some(e))
            }
            _ => (first, None),
        };
        let (k, v) = kv.split_once('=').map_or((kv, None), |(k, v)| (k, Some(v)));
        tol.insert("key".into(), json!(k));
        if let Some(v) = v {
            tol.insert("value".into(), json!(v));
            tol.insert("operator".into(), json!("Equal"));
        }
        if let Some(e) = effect {
            tol.insert("effect".into(), json!(e));
        }
    }
    if rest.contains(&"op=Exists") {
        tol.insert("operator".into(), json!("Exists"));
    }
    if let Some(i) = rest.iter().position(|w| *w == "for")
        && let Some(s) = rest.get(i + 1).and_then(|s| s.strip_suffix('s'))
        && let Ok(n) = s.parse::<i64>()
    {
        tol.insert("tolerationSeconds".into(), json!(n));
    }
    Some(Value::Object(tol))
}

/// `key=value:NoSchedule` → taint.
fn taint(t: &str) -> Option<Value> {
    let (kv, effect) = t.trim().rsplit_once(':')?;
    let (k, v) = kv.split_once('=').map_or((kv, ""), |(k, v)| (k, v));
    Some(json!({"key": k, "value": v, "effect": effect}))
}

/// `Terminating (lasts 5m3s)` → the deletion timestamp it implies.
fn deletion(status: &str, anchor: Timestamp) -> Option<Timestamp> {
    let lasts = status.strip_prefix("Terminating")?.trim();
    let age = lasts
        .trim_start_matches("(lasts ")
        .trim_end_matches(')')
        .trim();
    match parse_age(age) {
        Some(secs) => anchor
            .checked_sub(jiff::SignedDuration::from_secs(secs))
            .ok(),
        None => Some(anchor),
    }
}

/// A custom resource's describe (`Kind:` and `API Version:` at the top, its metadata under
/// `Metadata:`): the object with what a namespace's deletion hinges on, its finalizers and its
/// deletion time. `None` for a describe that does not print its kind.
pub(super) fn custom(t: &DNode, namespace: Option<&str>) -> Option<Value> {
    let kind = t.val("Kind")?;
    let api = t.val("API Version")?;
    let name = t.val("Name")?;
    let mut m = json!({"name": name});
    if let Some(ns) = t.val("Namespace").or(namespace) {
        m["namespace"] = json!(ns);
    }
    let md = t.get("Metadata");
    let time = |key: &str| {
        md.and_then(|md| md.val(key))
            .and_then(|v| v.parse::<Timestamp>().ok().or_else(|| parse_rfc1123(v)))
    };
    if let Some(ts) = time("Creation Timestamp") {
        m["creationTimestamp"] = json!(ts.to_string());
    }
    if let Some(ts) = time("Deletion Timestamp") {
        m["deletionTimestamp"] = json!(ts.to_string());
    }
    // `Finalizers:` with one finalizer per line under it (or, cut short, on its own line).
    if let Some(f) = md.and_then(|md| md.get("Finalizers")) {
        let list: Vec<&str> = f
            .value
            .lines()
            .chain(f.rows.iter().map(|(_, r)| r.as_str()))
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect();
        if !list.is_empty() {
            m["finalizers"] = json!(list);
        }
    }
    Some(json!({"apiVersion": api, "kind": kind, "metadata": m}))
}

/// The pod a describe block shows.
pub(super) fn pod(t: &DNode, namespace: Option<&str>, anchor: Timestamp) -> Value {
    let mut metadata = meta(t, namespace);
    let status_text = t.val("Status").unwrap_or("");
    let grace = t
        .val("Termination Grace Period")
        .and_then(|g| g.trim_end_matches('s').parse::<i64>().ok());
    if let Some(d) = deletion(status_text, anchor) {
        metadata["deletionTimestamp"] = json!(d.to_string());
        metadata["deletionGracePeriodSeconds"] = json!(grace.unwrap_or(30));
    }
    let (init, init_statuses) = containers(t.get("Init Containers"));
    let (containers, statuses) = containers(t.get("Containers"));
    let mut spec = json!({
        "containers": containers,
        "initContainers": init,
        "volumes": volumes(t),
        "nodeSelector": pairs(t.val("Node-Selectors"), '='),
    });
    if let Some(node) = t.val("Node").map(|n| n.split('/').next().unwrap_or(n)) {
        spec["nodeName"] = json!(node);
    }
    if let Some(g) = grace {
        spec["terminationGracePeriodSeconds"] = json!(g);
    }
    for (key, field) in [
        ("Priority Class Name", "priorityClassName"),
        ("Service Account", "serviceAccountName"),
    ] {
        if let Some(v) = t.val(key) {
            spec[field] = json!(v);
        }
    }
    let tolerations: Vec<Value> = t
        .val("Tolerations")
        .unwrap_or("")
        .lines()
        .filter_map(toleration)
        .collect();
    spec["tolerations"] = json!(tolerations);
    let phase = match status_text.split_whitespace().next().unwrap_or("") {
        p @ ("Pending" | "Running" | "Succeeded" | "Failed" | "Unknown") => p.to_string(),
        // A pod being deleted shows "Terminating" where its phase would be.
        _ if statuses.iter().any(|s| s["state"].get("running").is_some()) => "Running".into(),
        _ => "Pending".into(),
    };
    let mut status = json!({
        "phase": phase,
        "conditions": conditions(t),
        "containerStatuses": statuses,
        "initContainerStatuses": init_statuses,
    });
    for (key, field) in [
        ("Reason", "reason"),
        ("Message", "message"),
        ("NominatedNodeName", "nominatedNodeName"),
    ] {
        if let Some(v) = t.val(key) {
            status[field] = json!(v);
        }
    }
    if let Some(ts) = t.val("Start Time").and_then(parse_rfc1123) {
        status["startTime"] = json!(ts.to_string());
        if metadata.get("creationTimestamp").is_none() {
            metadata["creationTimestamp"] = json!(ts.to_string());
        }
    }
    json!({"apiVersion": "v1", "kind": "Pod", "metadata": metadata, "spec": spec, "status": status})
}

/// The node a describe block shows (and its Lease, when the block has one).
pub(super) fn node(t: &DNode) -> Vec<Value> {
    let name = t.val("Name").unwrap_or("");
    let mut metadata = meta(t, None);
    if let Some(m) = metadata.as_object_mut() {
        m.remove("namespace");
    }
    let taints: Vec<Value> = t
        .val("Taints")
        .unwrap_or("")
        .lines()
        .filter_map(taint)
        .collect();
    let mut status = json!({
        "conditions": conditions(t),
        "capacity": quantities(t.get("Capacity")),
        "allocatable": quantities(t.get("Allocatable")),
    });
    if let Some(v) = t.get("System Info").and_then(|s| s.val("Kubelet Version")) {
        status["nodeInfo"] = json!({"kubeletVersion": v});
    }
    let mut out = vec![json!({
        "apiVersion": "v1", "kind": "Node", "metadata": metadata,
        "spec": {"taints": taints, "unschedulable": t.val("Unschedulable") == Some("true")},
        "status": status,
    })];
    if let Some(renew) = t
        .get("Lease")
        .and_then(|l| l.val("RenewTime"))
        .and_then(parse_rfc1123)
    {
        out.push(json!({
            "apiVersion": "coordination.k8s.io/v1", "kind": "Lease",
            "metadata": {"name": name, "namespace": "kube-node-lease"},
            "spec": {"holderIdentity": name, "renewTime": renew.to_string()},
        }));
    }
    out
}

/// The pods a node's describe lists under `Non-terminated Pods`, with their requests: they
/// count in the node's usage. Rows: namespace, name, CPU requests, CPU limits, memory requests,
/// memory limits, age.
pub(super) fn node_pods(t: &DNode) -> Vec<Value> {
    let node = t.val("Name").unwrap_or("");
    let Some(section) = t.get("Non-terminated Pods") else {
        return Vec::new();
    };
    table_rows(&section.rows)
        .into_iter()
        .filter_map(|(_, cells)| {
            let ns = cell(&cells, "Namespace");
            let name = cell(&cells, "Name");
            if ns.is_empty() || name.is_empty() {
                return None;
            }
            let q = |col: &str| {
                cell(&cells, col)
                    .split_whitespace()
                    .next()
                    .unwrap_or("0")
                    .to_string()
            };
            Some(json!({
                "apiVersion": "v1", "kind": "Pod",
                "metadata": {"name": name, "namespace": ns},
                "spec": {"nodeName": node, "containers": [{"name": "(unknown)", "resources": {
                    "requests": {"cpu": q("CPU Requests"), "memory": q("Memory Requests")},
                    "limits": {"cpu": q("CPU Limits"), "memory": q("Memory Limits")}}}]},
                "status": {"phase": "Running"},
            }))
        })
        .collect()
}

/// A namespace's describe, and the quotas it lists (`Resource Quotas`, then per quota
/// `Name: q` and a Resource / Used / Hard table), read from the block's lines.
pub(super) fn namespace(t: &DNode, lines: &[(u64, &str)]) -> Vec<Value> {
    let name = t.val("Name").unwrap_or("");
    let mut metadata = meta(t, None);
    if let Some(m) = metadata.as_object_mut() {
        m.remove("namespace");
    }
    let phase = t.val("Status").unwrap_or("Active");
    let mut out = vec![json!({
        "apiVersion": "v1", "kind": "Namespace", "metadata": metadata,
        "status": {"phase": phase, "conditions": conditions(t)},
    })];
    let mut quota: Option<(String, Vec<(u64, String)>)> = None;
    let flush = |q: Option<(String, Vec<(u64, String)>)>, out: &mut Vec<Value>| {
        let Some((qname, rows)) = q else { return };
        let mut used = Map::new();
        let mut hard = Map::new();
        for (_, cells) in table_rows(&rows) {
            let r = cell(&cells, "Resource");
            if !r.is_empty() {
                used.insert(r.into(), json!(cell(&cells, "Used")));
                hard.insert(r.into(), json!(cell(&cells, "Hard")));
            }
        }
        out.push(json!({
            "apiVersion": "v1", "kind": "ResourceQuota",
            "metadata": {"name": qname, "namespace": name},
            "spec": {"hard": hard.clone()},
            "status": {"hard": hard, "used": used},
        }));
    };
    for &(no, l) in lines {
        let body = l.trim();
        if l.starts_with(' ')
            && let Some(("Name", v, _)) = split_key(body)
        {
            flush(quota.take(), &mut out);
            quota = Some((v.to_string(), Vec::new()));
        } else if body.is_empty() || !l.starts_with(' ') {
            flush(quota.take(), &mut out);
        } else if let Some((_, rows)) = &mut quota {
            rows.push((no, l.to_string()));
        }
    }
    flush(quota.take(), &mut out);
    out
}

pub(super) fn pvc(t: &DNode, namespace: Option<&str>) -> Value {
    let mut spec = json!({});
    if let Some(sc) = t.val("StorageClass") {
        spec["storageClassName"] = json!(sc);
    }
    if let Some(v) = t.val("Volume") {
        spec["volumeName"] = json!(v);
    }
    let modes: Vec<&str> = t
        .val("Access Modes")
        .unwrap_or("")
        .split(',')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(|m| match m {
            "RWO" => "ReadWriteOnce",
            "ROX" => "ReadOnlyMany",
            "RWX" => "ReadWriteMany",
            "RWOP" => "ReadWriteOncePod",
            m => m,
        })
        .collect();
    spec["accessModes"] = json!(modes);
    json!({
        "apiVersion": "v1", "kind": "PersistentVolumeClaim",
        "metadata": meta(t, namespace), "spec": spec,
        "status": {"phase": t.val("Status").unwrap_or("")},
    })
}

/// `3 desired | 1 updated | 3 total | 0 available | 3 unavailable` and
/// `1 current / 1 desired` → (desired, current/total, ready/available).
fn replicas(v: &str) -> (Option<i64>, Option<i64>, Option<i64>) {
    let num = |word: &str| -> Option<i64> {
        v.split(['|', '/'])
            .map(str::trim)
            .find(|p| p.ends_with(word))
            .and_then(|p| p.split_whitespace().next()?.parse().ok())
    };
    (
        num("desired"),
        num("current").or(num("total")),
        num("available"),
    )
}

pub(super) fn workload(t: &DNode, kind: Kind, namespace: Option<&str>) -> Value {
    let (k, api) = kind.api();
    let mut spec = json!({});
    let mut status = json!({"conditions": conditions(t)});
    if let Some(r) = t.val("Replicas") {
        let (desired, current, available) = replicas(r);
        spec["replicas"] = json!(desired);
        status["replicas"] = json!(current);
        status["readyReplicas"] = json!(available);
    }
    if let Some(d) = t.val("Desired Number of Nodes Scheduled") {
        status["desiredNumberScheduled"] = json!(d.parse::<i64>().ok());
    }
    if let Some(c) = t.val("Current Number of Nodes Scheduled") {
        status["currentNumberScheduled"] = json!(c.parse::<i64>().ok());
    }
    if let Some(tpl) = t.get("Pod Template") {
        let (containers, _) = containers(tpl.get("Containers"));
        spec["template"] = json!({
            "metadata": {"labels": pairs(tpl.val("Labels"), '=')},
            "spec": {"containers": containers, "volumes": volumes(tpl)},
        });
    }
    json!({"apiVersion": api, "kind": k, "metadata": meta(t, namespace), "spec": spec, "status": status})
}
