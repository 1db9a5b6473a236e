//! Pasted text: what people share in tickets and chats. `kubectl describe` of pods, nodes,
//! namespaces, claims and workloads; `kubectl get` tables (pods, events, nodes; `-o wide`, `-A`);
//! YAML or JSON objects and bare `status:` / `metadata:` stanzas; single event lines and
//! messages; kubelet / containerd / kernel log lines; container log excerpts — several in one
//! paste, separated or not.
//!
//! Each block becomes objects in the API's JSON shape, decoded by the loader's own kind dispatch
//! (`yaml::parse_value`), so a paste joins the same snapshot model as a dump. What a block
//! cannot show is recorded as a `Pasted` entry (what it held, what it lacks, the one command
//! that would settle it); objects named only by events or table rows get a state inferred from
//! them (`infer.rs`). Ages (`5m`, `(x3 over 10m)`, `Terminating (lasts 2m)`) count back from
//! the anchor: `--now`, else the moment of reading. Nothing here fails: unknown text is noted.

mod clean;
mod describe;
mod infer;
mod recognise;
pub(crate) use recognise::Kept;
mod table;
#[cfg(test)]
mod tests;

use crate::FileOut;
use jiff::Timestamp;
use kubewhy_model::objects::{ContainerLog, Str};
use kubewhy_model::{ObjectKey, Pasted};
use regex::Regex;
use serde_json::{Value, json};
use std::collections::{HashMap, HashSet};
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// A log line of a node component: klog, journal, syslog, logrus, dmesg, RFC 3339 stamps.
static LOG_LINE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^(?:[IWEF]\d{4} \d\d:\d\d:\d\d|[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d \S+ \S+:|time="\d{4}-|level=\w+ |\[\s*\d+\.\d+\]|\[[A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d |\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\S* \S+ \S+\[\d+\]:|\{"ts":|\{"level")"#,
    )
});
/// One event row copied without its header: `Warning  FailedScheduling  3m  default-scheduler  …`.
static EVENT_ROW: LazyLock<Regex> =
    LazyLock::new(|| re(r"^\s*(?:Normal|Warning)\s+[A-Z][A-Za-z]+\s+\S"));
/// One row of kubectl 1.0-1.2's Events (FirstSeen, LastSeen, Count, From as `{kubelet HOST}`,
/// SubobjectPath, Reason, Message), which documents copied with their tabs turned into spaces:
/// its columns are read by their shape, not by the header's positions.
static OLD_EVENT_ROW: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(\S+)\s+(\S+)\s+(\d+)\s+\{(\S+) ?([^}]*)\}\s+(?:(\S*\{[^}\s]*\})\s+)?([A-Z][A-Za-z]+)\s+(\S.*)$",
    )
});
/// An event's source, alone before its message where a paste kept only an Events section's
/// From and Message columns: the kubelet (`kubelet, node-1` before 1.19) or the scheduler.
static EVENT_SOURCE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:kubelet(?:, \S+)?|default-scheduler)\s{2,}"));
/// `kubectl debug` (and `oc debug`) warning that its container waits: the kubelet's message for
/// the waiting reason follows.
static DEBUG_WAITING: LazyLock<Regex> =
    LazyLock::new(|| re(r"^[Ww]arning: Container \S+ is unable to start due to an error: "));
/// A shell prompt before a command: PowerShell's, `[user@host dir]$`, `host$`, `❯`, or a host
/// name then `➜` / `›`. Optional: a command pasted without one still counts.
const PROMPT: &str = r"(?:PS )?(?:\[[^\]\n]*\]\s?[$#]\s*|\S*[$%#>❯➜›]\s*|\S+\s+[❯➜›]\s*)?";
/// A shell prompt with a kubectl command.
static COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^{PROMPT}(?:kubectl|oc|k)\s+(?:\S+\s+)*?(?:describe|get|logs|events)\b"
    ))
});
/// A container's state as describe prints it, where a fragment of a pod's describe starts.
static CONTAINER_STATE: LazyLock<Regex> =
    LazyLock::new(|| re(r"^(?:Last )?State:\s+(?:Waiting|Running|Terminated)\s*$"));
/// A stanza cut from an object, at any indentation: a key that opens a block.
static FRAGMENT_START: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:status|metadata|spec|containerStatuses|initContainerStatuses|conditions|state|lastState):\s*$",
    )
});
/// A line of `kubectl describe`: a known key and its value (or a section, or a container's
/// name under `Containers:`).
static DESCRIBE_KEY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^\s*(?:(?:Containers|Init Containers|Container ID|Image|Image ID|Port|Ports|Host Port|Host Ports|Command|Args|Limits|Requests|Environment|Mounts|Ready|Restart Count|Started|Finished|Exit Code|Reason|Message|State|Last State):(?:\s|$)|[a-z0-9][-a-z0-9]*:\s*$)",
    )
});
/// A name Kubernetes accepts for what `get` lists (DNS labels and subdomains).
static OBJECT_NAME: LazyLock<Regex> = LazyLock::new(|| re(r"^[a-z0-9]([-a-z0-9._]*[a-z0-9])?$"));
/// Any kubectl command at a prompt (`delete`, `apply`, …): it ends what its previous output was.
static ANY_COMMAND: LazyLock<Regex> = LazyLock::new(|| {
    re(&format!(
        r"^{PROMPT}(?:kubectl|oc|k)\s+(?:-\S+\s+\S+\s+)*(?:get|describe|delete|logs|apply|create|edit|patch|replace|drain|cordon|uncordon|rollout|scale|exec|top|events|label|annotate|taint|wait|debug|run|expose|set|explain|version|cluster-info|config)\b"
    ))
});
/// Where a YAML object or stanza starts.
static YAML_START: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:- (?:apiVersion|kind): |(?:apiVersion|kind|metadata|spec|status|items|containerStatuses|conditions|phase):(?:\s|$))",
    )
});

/// Whether text that is not JSON should be read as a paste rather than YAML objects.
pub(crate) fn is_paste(text: &str) -> bool {
    for l in text.lines().take(200) {
        let t = l.trim_end();
        if t.is_empty() || t.starts_with('#') {
            continue;
        }
        return !(t.starts_with("apiVersion:")
            || t.starts_with("kind:")
            || t.starts_with("---")
            || t.starts_with("items:")
            || t.starts_with("- apiVersion:"));
    }
    // Only `#` lines: YAML would read nothing of them, and a Markdown heading (`## Error: …`) or
    // a root prompt's output is text to read.
    text.lines().take(200).any(|l| l.trim().len() > 1)
}

/// Whether a JSON text should be read as a paste: no `"apiVersion"` near its start, nor a
/// `"kind"` beside `"metadata"` (a bare status object, a fragment, JSON log lines: a
/// controller-runtime line's `"kind":"PodSecurityPolicy.policy"` names what it watched, and has
/// no metadata).
pub(crate) fn is_json_paste(text: &str) -> bool {
    let head = crate::char_floor(text, 4096);
    // `"Items"`: an old cluster-info dump's list of internal types (`internal.rs`).
    !((head.contains("\"kind\"") && head.contains("\"metadata\""))
        || head.contains("\"apiVersion\"")
        || head.contains("\"Items\": [")
        || head.contains("\"Items\":["))
}

/// A text's lines by where each starts: 4 bytes a line below 4 GiB, 8 above (a slice and its
/// number would take 24). `get` gives what `str::lines` gives: without the `\n`, nor a `\r`
/// before it.
pub(super) struct Lines<'a> {
    text: &'a str,
    starts: Starts,
}

enum Starts {
    Small(Vec<u32>),
    Large(Vec<usize>),
}

impl Starts {
    fn len(&self) -> usize {
        match self {
            Starts::Small(v) => v.len(),
            Starts::Large(v) => v.len(),
        }
    }

    fn get(&self, i: usize) -> Option<usize> {
        match self {
            Starts::Small(v) => v.get(i).map(|&s| s as usize),
            Starts::Large(v) => v.get(i).copied(),
        }
    }
}

impl<'a> Lines<'a> {
    pub(super) fn new(text: &'a str) -> Lines<'a> {
        let n = text.bytes().filter(|&b| b == b'\n').count() + 1;
        let starts = std::iter::once(0).filter(|_| !text.is_empty()).chain(
            text.bytes()
                .enumerate()
                .filter(|&(i, b)| b == b'\n' && i + 1 < text.len())
                .map(|(i, _)| i + 1),
        );
        let starts = match u32::try_from(text.len()) {
            Ok(_) => {
                let mut v = Vec::with_capacity(n);
                v.extend(starts.map(|s| s as u32));
                Starts::Small(v)
            }
            Err(_) => {
                let mut v = Vec::with_capacity(n);
                v.extend(starts);
                Starts::Large(v)
            }
        };
        Lines { text, starts }
    }

    pub(super) fn len(&self) -> usize {
        self.starts.len()
    }

    /// The line at index `i` (0-based) with its number (1-based).
    pub(super) fn get(&self, i: usize) -> Option<(u64, &'a str)> {
        let start = self.starts.get(i)?;
        let end = self.starts.get(i + 1).map_or(self.text.len(), |e| e - 1);
        let l = &self.text[start..end];
        let l = l.strip_suffix('\n').unwrap_or(l);
        Some((i as u64 + 1, l.strip_suffix('\r').unwrap_or(l)))
    }

    /// Byte offset of line `i`.
    fn start(&self, i: usize) -> Option<usize> {
        self.starts.get(i)
    }
}

/// (kind, namespace, name) of an object; no namespace for cluster-scoped kinds.
type Key = (Str, Str, Str);

/// An event as a paste shows it.
#[derive(Debug, Clone, Default)]
pub(super) struct EventRow {
    pub kind: Str,
    pub namespace: Str,
    pub name: Str,
    /// `Normal` or `Warning` as the row says it; empty when it does not.
    pub type_: &'static str,
    pub reason: Str,
    pub message: Str,
    pub count: u32,
    pub first: At,
    pub last: At,
    pub source: Str,
    /// The field path and the source's host, which few rows show: boxed, so that the rest
    /// take 8 bytes here instead of 48.
    pub rare: Option<Box<Rare>>,
    pub line: u64,
}

#[derive(Debug, Clone, Default)]
pub(super) struct Rare {
    field_path: Str,
    host: Str,
}

/// A time an event row says, as nanoseconds since the epoch (years 1678 to 2262), or none: 8
/// bytes where `Option<Timestamp>` takes 24, in every event a paste holds until it is read
/// whole. Ordered as the `Option` is: none before every time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(super) struct At(i64);

impl Default for At {
    fn default() -> At {
        At::NONE
    }
}

impl At {
    const NONE: At = At(i64::MIN);

    pub(super) fn new(t: Option<Timestamp>) -> At {
        t.and_then(|t| i64::try_from(t.as_nanosecond()).ok())
            .filter(|&n| n != i64::MIN)
            .map_or(At::NONE, At)
    }

    pub(super) fn get(self) -> Option<Timestamp> {
        if self == At::NONE {
            return None;
        }
        Timestamp::from_nanosecond(i128::from(self.0)).ok()
    }

    /// The earlier of two times, either when only one is known.
    fn earlier(self, other: At) -> At {
        match (self == At::NONE, other == At::NONE) {
            (false, false) => self.min(other),
            (true, _) => other,
            (false, true) => self,
        }
    }
}

/// An event type as kubectl prints it: the API's two, or none (read as `Warning`).
fn event_type(s: &str) -> &'static str {
    match s {
        "Normal" => "Normal",
        "Warning" => "Warning",
        _ => "",
    }
}

/// kubectl's human durations: `13s`, `2m46s`, `3h4m`, `5d`, `2y30d`. Seconds.
pub(super) fn parse_age(s: &str) -> Option<i64> {
    let s = s.trim();
    if s.is_empty() || s.starts_with('<') {
        return None;
    }
    let mut total = 0i64;
    let mut num = String::new();
    for ch in s.chars() {
        if ch.is_ascii_digit() {
            num.push(ch);
            continue;
        }
        let n: i64 = num.parse().ok()?;
        num.clear();
        total = total.checked_add(n.checked_mul(match ch {
            'y' => 365 * 86400,
            'd' => 86400,
            'h' => 3600,
            'm' => 60,
            's' => 1,
            _ => return None,
        })?)?;
    }
    num.is_empty().then_some(total)
}

/// describe's times: RFC 1123 with a numeric zone (`Sun, 22 Nov 2026 20:24:40 +0000`), or
/// RFC 3339.
pub(super) fn parse_rfc1123(s: &str) -> Option<Timestamp> {
    let s = s.trim();
    jiff::fmt::strtime::parse("%a, %d %b %Y %H:%M:%S %z", s)
        .ok()
        .and_then(|t| t.to_timestamp().ok())
        .or_else(|| s.parse().ok())
}

fn ago(anchor: Timestamp, age: &str) -> Option<Timestamp> {
    let secs = parse_age(age)?;
    anchor
        .checked_sub(jiff::SignedDuration::from_secs(secs))
        .ok()
}

/// `pod/web-1`, `Pod/web-1`, `replicaset.apps/api-5f` → (Kind, name).
fn object_ref(s: &str) -> Option<(String, String)> {
    let (res, name) = s.split_once('/')?;
    let res = res.split('.').next().unwrap_or(res).to_ascii_lowercase();
    let kind = match res.as_str() {
        "pod" | "pods" => "Pod",
        "node" | "nodes" => "Node",
        "namespace" | "namespaces" => "Namespace",
        "replicaset" | "replicasets" => "ReplicaSet",
        "deployment" | "deployments" => "Deployment",
        "statefulset" | "statefulsets" => "StatefulSet",
        "daemonset" | "daemonsets" => "DaemonSet",
        "job" | "jobs" => "Job",
        "cronjob" | "cronjobs" => "CronJob",
        "persistentvolumeclaim" | "persistentvolumeclaims" | "pvc" => "PersistentVolumeClaim",
        "persistentvolume" => "PersistentVolume",
        "service" => "Service",
        _ => return None,
    };
    Some((kind.to_string(), name.to_string()))
}

impl EventRow {
    /// `involvedObject.fieldPath` as the row shows it (`spec.containers{web}`), or empty.
    pub(super) fn field_path(&self) -> &str {
        self.rare.as_ref().map_or("", |r| r.field_path.as_str())
    }

    /// The source's host (`kubelet, node-1`), or empty.
    pub(super) fn host(&self) -> &str {
        self.rare.as_ref().map_or("", |r| r.host.as_str())
    }

    /// What a row says of its field path and host: nothing allocated when it says neither.
    pub(super) fn rare(field_path: &str, host: &str) -> Option<Box<Rare>> {
        (!field_path.is_empty() || !host.is_empty()).then(|| {
            Box::new(Rare {
                field_path: field_path.into(),
                host: host.into(),
            })
        })
    }

    /// An event from a table's cells: describe's (Type, Reason, Age, From, Message; the old
    /// FirstSeen / LastSeen / Count / SubObjectPath) or `get events`' (LAST SEEN, TYPE, REASON,
    /// OBJECT or KIND + NAME, SUBOBJECT, SOURCE, MESSAGE, FIRST SEEN, COUNT, NAMESPACE).
    pub fn from_cells(
        cells: &[(String, String)],
        involved: (&str, &str, &str),
        anchor: Timestamp,
        line: u64,
    ) -> Option<EventRow> {
        let c = |name: &str| table::get(cells, name);
        let reason = c("Reason");
        let message = c("Message");
        if reason.is_empty() && message.is_empty() {
            return None;
        }
        let (mut kind, mut name) = (involved.0.to_string(), involved.2.to_string());
        if let Some((k, n)) = object_ref(c("Object")) {
            (kind, name) = (k, n);
        } else if !c("Kind").is_empty() && !c("Name").is_empty() {
            kind = c("Kind").to_string();
            // The old layout's NAME is the event's: `web-1.15f2a…`.
            name = c("Name")
                .rsplit_once('.')
                .map_or(c("Name"), |(n, _)| n)
                .to_string();
        }
        if kind.is_empty() || name.is_empty() {
            return None;
        }
        let namespace = match c("Namespace") {
            "" => involved.1.to_string(),
            ns => ns.to_string(),
        };
        let age = [c("Age"), c("Last Seen"), c("LastSeen")]
            .into_iter()
            .find(|a| !a.is_empty())
            .unwrap_or("");
        let (last_age, series) = match age.split_once('(') {
            Some((a, s)) => (a.trim(), s.trim_end_matches(')')),
            None => (age, ""),
        };
        let mut count = c("Count").parse::<i64>().unwrap_or(1);
        let mut first_age = [c("First Seen"), c("FirstSeen")]
            .into_iter()
            .find(|a| !a.is_empty())
            .unwrap_or(last_age)
            .to_string();
        // `x3 over 10m`
        if let Some(rest) = series.strip_prefix('x')
            && let Some((n, over)) = rest.split_once(" over ")
        {
            count = n.trim().parse().unwrap_or(count);
            first_age = over.trim().to_string();
        }
        let from = [c("From"), c("Source")]
            .into_iter()
            .find(|a| !a.is_empty())
            .unwrap_or("");
        let (source, host) = match from.split_once(',') {
            Some((s, h)) => (s.trim(), h.trim()),
            None => (from, ""),
        };
        let mut field_path = [c("SubObjectPath"), c("Subobject")]
            .into_iter()
            .find(|a| !a.is_empty())
            .unwrap_or("");
        // Newer kubectl puts the field path before the message: `spec.containers{main}: …`.
        let mut message = message;
        if let Some((path, rest)) = message.split_once("}: ")
            && path.starts_with("spec.")
            && !path.contains(' ')
        {
            field_path = &message[..path.len() + 1];
            message = rest;
        }
        Some(EventRow {
            kind: kind.into(),
            namespace: namespace.into(),
            name: name.into(),
            type_: event_type(c("Type")),
            reason: reason.into(),
            message: message.into(),
            count: u32::try_from(count.max(1)).unwrap_or(u32::MAX),
            first: At::new(ago(anchor, &first_age)),
            last: At::new(ago(anchor, last_age)),
            source: source.into(),
            rare: EventRow::rare(field_path, host),
            line,
        })
    }

    /// (kind, namespace, name); no namespace for cluster-scoped kinds.
    fn key(&self) -> Key {
        let ns = if cluster_scoped(&self.kind) {
            Str::default()
        } else {
            self.namespace.clone()
        };
        (self.kind.clone(), ns, self.name.clone())
    }

    fn to_json(&self, i: usize) -> Value {
        let namespaced = !cluster_scoped(&self.kind);
        let ns = if namespaced {
            self.namespace.as_str()
        } else {
            "default"
        };
        let mut involved = json!({"kind": self.kind, "name": self.name});
        if namespaced {
            involved["namespace"] = json!(self.namespace);
        }
        if !self.field_path().is_empty() {
            involved["fieldPath"] = json!(self.field_path());
        }
        json!({
            "apiVersion": "v1", "kind": "Event",
            // Short (held inline, not on the heap) and unique in the paste.
            "metadata": {"name": format!("paste.{i}"), "namespace": ns},
            "involvedObject": involved,
            "reason": self.reason, "message": self.message,
            "type": if self.type_.is_empty() { "Warning" } else { self.type_ },
            "count": self.count,
            "firstTimestamp": self.first.get().or(self.last.get()).map(|t| t.to_string()),
            "lastTimestamp": self.last.get().map(|t| t.to_string()),
            // `get events` tables do not show which component spoke.
            "source": {"component": if self.source.is_empty() { "(source not shown)" } else { self.source.as_str() }, "host": self.host()},
        })
    }
}

/// A row of `kubectl get pods` (or nodes, claims, namespaces): its cells, for `infer.rs`.
#[derive(Debug, Clone)]
pub(super) struct Row {
    /// Shown after a `kubectl delete` of it in the same paste: the deletion did not finish.
    pub deleted: bool,
    pub kind: &'static str,
    pub namespace: String,
    pub name: String,
    pub cells: Vec<(String, String)>,
    pub line: u64,
}

/// A vector in chunks of a fixed size: it never reserves more than one chunk ahead, and it is
/// freed chunk by chunk as it is drained.
struct Chunked<T> {
    chunks: Vec<Vec<T>>,
}

impl<T> Default for Chunked<T> {
    fn default() -> Self {
        Chunked { chunks: Vec::new() }
    }
}

impl<T> Chunked<T> {
    const CHUNK: usize = 1024;

    fn len(&self) -> usize {
        self.chunks.iter().map(Vec::len).sum()
    }

    fn push(&mut self, x: T) {
        match self.chunks.last_mut() {
            Some(c) if c.len() < Self::CHUNK => c.push(x),
            _ => {
                let mut c = Vec::with_capacity(Self::CHUNK);
                c.push(x);
                self.chunks.push(c);
            }
        }
    }

    fn iter(&self) -> impl Iterator<Item = &T> {
        self.chunks.iter().flatten()
    }

    fn iter_mut(&mut self) -> impl Iterator<Item = &mut T> {
        self.chunks.iter_mut().flatten()
    }
}

impl<T> std::ops::Index<usize> for Chunked<T> {
    type Output = T;
    fn index(&self, i: usize) -> &T {
        &self.chunks[i / Self::CHUNK][i % Self::CHUNK]
    }
}

impl<T> std::ops::IndexMut<usize> for Chunked<T> {
    fn index_mut(&mut self, i: usize) -> &mut T {
        &mut self.chunks[i / Self::CHUNK][i % Self::CHUNK]
    }
}

/// What one paste held, before it becomes objects.
#[derive(Default)]
struct Collected {
    /// Objects in API shape, with what they lack (`None`: nothing the checks read), waiting to
    /// be decoded: each is decoded as soon as its block ends (`Collected::emit`), so a paste's
    /// objects are never all held as JSON at once.
    objects: Vec<(u64, Value, Option<Pasted>)>,
    /// What later steps need of the objects already decoded: (kind, namespace, name) → the
    /// pod's node and whether a container of it crashed.
    seen: HashMap<Key, (Option<Str>, bool)>,
    /// Objects seen only as context (the pods a node's describe lists, with their requests):
    /// used when nothing else in the paste shows them.
    context: Vec<(u64, Value)>,
    /// Events, held (smaller than decoded ones) until the text is freed: those about objects
    /// the paste does not show imply their state. In chunks: a paste's events are the largest
    /// thing held besides its text, and a doubling vector would reserve up to twice their size.
    events: Chunked<EventRow>,
    /// Where each event is in `events`, found by a hash of what makes it the same event.
    event_at: hashbrown::HashTable<u32>,
    rows: Vec<Row>,
    /// Event messages with no object (`0/3 nodes are available: …`), with the namespace and
    /// pod the last command named.
    messages: Vec<(u64, String, String, String)>,
    node_log: Vec<String>,
    /// Lines nothing recognised: container log output, if a pod in the paste crashes.
    other: Vec<(u64, String)>,
    /// The namespace of the last `kubectl … -n NS` line.
    namespace: Option<String>,
    /// The pod the last command named (`kubectl describe pod X`, `kubectl logs X`).
    pod: Option<String>,
    /// Another object the last command named (`kubectl get ns X -o yaml`): its kind and name,
    /// for a stanza of it that does not say them.
    named: Option<(&'static str, String)>,
    /// Notes for the user: what was recognised but not read.
    notes: Vec<(u64, String)>,
    /// Whether the last command was `kubectl logs`: what follows is the pod's output.
    logs: bool,
    /// Pods a `kubectl delete` in the paste deleted.
    deleted: Vec<String>,
    /// Output of `kubectl logs POD`: (namespace, pod, line).
    pod_logs: Vec<(String, String, String)>,
    /// Namespaces the paste lists the leftovers of (`kubectl api-resources --verbs=list
    /// --namespaced -o name | xargs -n 1 kubectl get --show-kind -n NS`): what one runs when
    /// a namespace will not finish deleting.
    leftovers_of: Vec<(u64, String)>,
    /// Objects of any kind shown only as `--show-kind` rows (`challenge.acme…/name`), made
    /// when nothing else in the paste shows them.
    shown: Vec<(u64, Value)>,
}

impl Collected {
    /// Decodes what is waiting in `objects` into the file's output, keeping only what later
    /// steps need of each.
    fn emit(&mut self, name: &str, out: &mut FileOut) {
        for (line, v, partial) in std::mem::take(&mut self.objects) {
            let (k, ns, n) = key_of(&v);
            let ns = if cluster_scoped(&k) {
                Str::default()
            } else {
                ns
            };
            let node = v["spec"]["nodeName"].as_str().map(Str::from);
            let crashed = v["kind"] == "Pod" && infer::crashing(&v);
            self.seen.insert((k, ns, n), (node, crashed));
            if let Some(p) = partial {
                out.pasted.push(p);
            }
            crate::yaml::parse_value(name, line, v, out);
        }
    }

    /// Holds an event. One event shown twice — in a describe and in a `get events` table, or
    /// pasted twice — is one event: the copies merge (the larger count, the earliest first and
    /// the latest last time).
    fn event(&mut self, e: EventRow) {
        fn hash(e: &EventRow) -> u64 {
            use std::hash::{Hash, Hasher};
            let mut h = std::collections::hash_map::DefaultHasher::new();
            (e.key(), &e.reason, &e.message, e.field_path()).hash(&mut h);
            h.finish()
        }
        let same = |a: &EventRow, b: &EventRow| {
            (a.key(), &a.reason, &a.message, a.field_path())
                == (b.key(), &b.reason, &b.message, b.field_path())
        };
        let Collected {
            events, event_at, ..
        } = self;
        let h = hash(&e);
        match event_at.find(h, |&j| same(&events[j as usize], &e)) {
            Some(&j) => {
                let a = &mut events[j as usize];
                a.count = a.count.max(e.count);
                a.first = a.first.earlier(e.first);
                a.last = a.last.max(e.last);
                if a.source.is_empty() || a.source.as_str() == "(source not shown)" {
                    a.source = e.source;
                }
            }
            None => {
                let j = u32::try_from(events.len()).unwrap_or(u32::MAX);
                events.push(e);
                event_at.insert_unique(h, j, |&j| hash(&events[j as usize]));
            }
        }
    }

    fn ns(&self) -> String {
        self.namespace.clone().unwrap_or_else(|| UNKNOWN.into())
    }

    fn pod_name(&self) -> String {
        self.pod.clone().unwrap_or_else(|| UNKNOWN.into())
    }
}

#[derive(Clone, Copy, PartialEq)]
enum State {
    None,
    Describe,
    Table,
    Yaml,
    /// One container's part of a pod's describe (`State:`, `Last State:`, `Restart Count:`)
    /// without the pod around it.
    Fragment,
}

/// What begins a new block, for a line at column 0.
fn starts_block(line: &str) -> bool {
    line.starts_with("Name:")
        || table::is_header(line)
        || YAML_START.is_match(line)
        || line.starts_with('{')
        || LOG_LINE.is_match(line)
        || ANY_COMMAND.is_match(line)
}

/// Tabs as a terminal shows them (stops every 8 columns): old kubectl aligned describe's tables
/// with tabs, and columns are cut by position.
fn expand_tabs(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.contains('\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    let mut col = 0usize;
    for ch in text.chars() {
        match ch {
            '\t' => {
                let n = 8 - col % 8;
                out.extend(std::iter::repeat_n(' ', n));
                col += n;
            }
            '\n' => {
                out.push(ch);
                col = 0;
            }
            _ => {
                out.push(ch);
                col += 1;
            }
        }
    }
    std::borrow::Cow::Owned(out)
}

/// What a paste held once read, before its held events are decoded and its stubs made:
/// `FileOut::finish_paste` completes it after the caller freed the text.
pub(crate) struct Pending {
    name: String,
    c: Collected,
    anchor: Timestamp,
}

impl Pending {
    pub(crate) fn finish(self, out: &mut FileOut) {
        finish(&self.name, self.c, self.anchor, out);
    }
}

/// Reads a paste whole (`read` then `Pending::finish`).
pub(crate) fn parse(name: &str, text: &str, anchor: Timestamp, out: &mut FileOut) {
    read(name, text, anchor, out).finish(out);
}

/// Reads a paste's lines into objects (decoded as each block ends) and events (held, small,
/// for the state they imply): what needs the text. The rest waits in the `Pending`.
pub(crate) fn read(name: &str, text: &str, anchor: Timestamp, out: &mut FileOut) -> Pending {
    let text = clean::text(text);
    let text = expand_tabs(&text);
    let text = text.as_ref();
    let mut c = Collected::default();
    let lines = Lines::new(text);
    out.pasted_messages = recognise::lines(name, &lines);
    // Every line was matched against the catalogue: its search state (megabytes on a long
    // paste) is given back before the objects are built.
    kubewhy_model::messages::known::release();
    let mut state = State::None;
    let mut block: Vec<(u64, &str)> = Vec::new();
    let mut header: Option<Vec<(String, usize)>> = None;
    let mut yaml_base = 0usize;
    let mut i = 0;
    let mut json_eof = false;
    while i < lines.len() {
        let Some((no, line)) = lines.get(i) else {
            break;
        };
        let col0 = !line.starts_with([' ', '\t']);
        let blank = line.trim().is_empty();
        if continues(state, line, yaml_base) {
            if state == State::Table {
                // An indented table (a quoted paste) is read from its header's indentation.
                let indent = line.len() - line.trim_start().len();
                let row = &line[indent.min(yaml_base)..];
                if table::is_header(row) {
                    header = Some(table::columns(row));
                } else if let Some(h) = &header {
                    table_row(h, no, row, anchor, &mut c);
                }
            } else {
                block.push((no, line));
            }
            i += 1;
            continue;
        }
        flush(&mut state, &mut block, yaml_base, anchor, &mut c, name, out);
        header = None;
        if blank {
            i += 1;
            continue;
        }
        let trimmed = line.trim_start();
        if let Some((_, ns, pod)) = crate::logs::parse_header(trimmed) {
            // A dump's `==== START logs for container C of pod NS/NAME ====`: what follows is
            // that pod's output, as after `kubectl logs NAME -n NS`.
            c.pod = Some(pod).filter(|n| OBJECT_NAME.is_match(n));
            c.namespace = Some(ns).filter(|n| OBJECT_NAME.is_match(n));
            c.logs = true;
        } else if trimmed.starts_with(crate::logs::END_MARKER) {
            // The block's end: its output ends with the next command or block.
        } else if COMMAND.is_match(trimmed) || ANY_COMMAND.is_match(trimmed) {
            command(no, trimmed, &mut c);
        } else if col0 && line.starts_with("Name:") {
            state = State::Describe;
            block.push((no, line));
        } else if table::is_header(trimmed) {
            state = State::Table;
            yaml_base = line.len() - trimmed.len();
            header = Some(table::columns(trimmed));
        } else if col0 && YAML_START.is_match(line) || FRAGMENT_START.is_match(trimmed) {
            // A whole object, or a stanza cut from one at any indentation (`  status:`,
            // `    state:`): read from its own indentation.
            state = State::Yaml;
            yaml_base = line.len() - trimmed.len();
            block.push((no, line));
        } else if CONTAINER_STATE.is_match(trimmed) {
            state = State::Fragment;
            yaml_base = line.len() - trimmed.len();
            block.push((no, line));
        } else if elision(line) {
            // `...` where a paste left lines out.
        } else if LOG_LINE.is_match(trimmed) {
            // Before JSON: klog's JSON lines (`{"ts":…}`) are log lines, not objects.
            c.node_log.push(trimmed.to_string());
        } else if trimmed.starts_with('{') || trimmed.starts_with('[') || trimmed.starts_with('"') {
            let start = lines.start(i).unwrap_or(0) + (line.len() - trimmed.len());
            let until = if json_eof {
                lines.start(i + 1).unwrap_or(text.len())
            } else {
                text.len()
            };
            let value = json_value(&text[start..until]).or_else(|eof| {
                // A JSON object cut off by the paste (an excerpt, a screen): what was whole
                // before the cut, closed — once per paste, so that many unclosed `{` stay linear.
                if eof && !json_eof {
                    json_eof = true;
                    if let Some(v) = close_cut_json(&text[start..until]) {
                        return Ok((v, until - start));
                    }
                }
                Err(eof)
            });
            match value {
                Ok((v, used)) => {
                    stanza_or_object(name, no, v, &mut c, out);
                    c.emit(name, out);
                    // Skip the lines the value spanned.
                    let end = start + used;
                    while lines.start(i).is_some_and(|s| s < end) {
                        i += 1;
                    }
                    continue;
                }
                Err(eof) => {
                    json_eof |= eof;
                    c.other.push((no, line.to_string()));
                }
            }
        } else {
            loose_line(no, line, anchor, &mut c);
        }
        i += 1;
    }
    flush(&mut state, &mut block, yaml_base, anchor, &mut c, name, out);
    Pending {
        name: name.to_string(),
        c,
        anchor,
    }
}

/// Whether `line` continues the current block (`state`, read from indentation `yaml_base`).
fn continues(state: State, line: &str, yaml_base: usize) -> bool {
    let col0 = !line.starts_with([' ', '\t']);
    let blank = line.trim().is_empty();
    match state {
        State::None => false,
        State::Describe => blank || !col0 || (!starts_block(line) && describe_line(line)),
        State::Table => {
            let indent = line.len() - line.trim_start().len();
            !(blank
                || indent < yaml_base
                || ANY_COMMAND.is_match(line.trim_start())
                || col0 && starts_block(line) && !table::is_header(line))
        }
        State::Fragment => {
            let indent = line.len() - line.trim_start().len();
            !blank && indent >= yaml_base && !LOG_LINE.is_match(line.trim_start())
        }
        State::Yaml => {
            let indent = line.len() - line.trim_start().len();
            let at = &line[indent.min(yaml_base)..];
            blank
                || elision(line)
                || indent > yaml_base
                || indent == yaml_base
                    && (at.starts_with("- ")
                        || at.starts_with("---")
                        || (at.contains(':')
                            && at.chars().next().is_some_and(|ch| ch.is_ascii_lowercase())
                            && !LOG_LINE.is_match(at)
                            && !COMMAND.is_match(at)))
        }
    }
}

/// `Events:` (or `Events: <none>`), the section's column heads in any kubectl's layout
/// (`Type Reason Age From Message`, 1.5's `FirstSeen LastSeen Count From SubObjectPath Type Reason
/// Message`), and the dashes under them.
fn events_heading(trimmed: &str) -> bool {
    let words: Vec<&str> = trimmed.split_whitespace().collect();
    match words.as_slice() {
        ["Events:"] | ["Events:", "<none>"] => true,
        ["Type", "Reason", "Age", "From", "Message"] => true,
        ["FirstSeen", "LastSeen", "Count", "From", ..] => true,
        [] => false,
        w => w
            .iter()
            .all(|d| d.len() > 1 && d.bytes().all(|b| b == b'-')),
    }
}

/// A line outside any block that is neither a command, an object nor JSON: an event row, a
/// known message, `kubectl logs` output, or something unrecognised.
fn loose_line(no: u64, line: &str, anchor: Timestamp, c: &mut Collected) {
    let trimmed = line.trim_start();
    // `kubectl version` / `oc version` output: known, and nothing to diagnose.
    if [
        "Client Version:",
        "Server Version:",
        "Kustomize Version:",
        "Kubernetes Version:",
        "OpenShift Version:",
    ]
    .iter()
    .any(|p| trimmed.starts_with(p))
    {
        return;
    }
    // The head of a describe's Events section pasted alone: the rows below it are read.
    if events_heading(trimmed) {
        return;
    }
    // An event row without its header: today's (Type, Reason, Age, From, Message) or kubectl
    // 1.0-1.2's, read by its shape.
    let event_cells = if EVENT_ROW.is_match(line) {
        let cols = table::columns("Type  Reason  Age  From  Message");
        Some(table::cells(&cols, trimmed))
    } else {
        OLD_EVENT_ROW.captures(trimmed).map(|m| old_event_cells(&m))
    };
    if let Some(cells) = event_cells {
        let (ns, pod) = (c.ns(), c.pod_name());
        match EventRow::from_cells(&cells, ("Pod", &ns, &pod), anchor, no) {
            Some(e) => c.event(e),
            None => c.other.push((no, line.to_string())),
        }
    } else if let Some(h) = table::headerless(trimmed) {
        // A `get pods` / `get nodes` row without its header (`| grep Terminating`).
        table_row(&h, no, trimmed, anchor, c);
    } else if infer::message_reason(trimmed).is_some() {
        c.messages
            .push((no, trimmed.to_string(), c.ns(), c.pod_name()));
    } else if let Some(m) = [&EVENT_SOURCE, &DEBUG_WAITING]
        .into_iter()
        .find_map(|envelope| envelope.find(trimmed).map(|s| &trimmed[s.end()..]))
        .filter(|m| infer::message_reason(m).is_some())
    {
        // A message behind what a paste kept before it: an Events section cut down to its From
        // and Message columns (`kubelet   Back-off restarting failed container …`), or a debug
        // command's warning that its container waits.
        c.messages.push((no, m.to_string(), c.ns(), c.pod_name()));
    } else if c.logs && c.pod.is_some() {
        c.pod_logs.push((c.ns(), c.pod_name(), line.to_string()));
    } else {
        c.other.push((no, line.to_string()));
    }
}

fn cluster_scoped(kind: &str) -> bool {
    matches!(kind, "Node" | "Namespace" | "PersistentVolume")
}

/// The name given to what a paste does not name.
pub(super) const UNKNOWN: &str = Pasted::UNKNOWN;

/// Lines describe prints at column 0: `Key:  value`, and the key-less lines of a namespace's
/// quotas and limits.
fn describe_line(line: &str) -> bool {
    let key = line.split(':').next().unwrap_or("");
    (line.contains(':')
        && !key.contains("  ")
        && key.chars().next().is_some_and(|c| c.is_ascii_uppercase()))
        || line.starts_with("No ")
        || line.starts_with("Resource Quotas")
        || line.starts_with("Resource Limits")
}

/// `kubectl -n NS describe pod X`, `kubectl logs X -n NS`: the namespace and pod of what follows.
fn command(no: u64, line: &str, c: &mut Collected) {
    let whole = line;
    // What a pipe (`| grep x`) or a redirection (`> out.txt`) feeds is not kubectl's argument
    // (a prompt's own `>`, before the command, is).
    let line = line.split('|').next().unwrap_or(line);
    let line = match line.find("kubectl").or_else(|| line.find("oc ")) {
        Some(at) => line[at..]
            .find(" > ")
            .or_else(|| line[at..].find(" >> "))
            .map_or(line, |r| &line[..at + r]),
        None => line,
    };
    let words: Vec<&str> = line.split_whitespace().collect();
    if whole.contains("api-resources") && whole.contains("--namespaced") {
        // The last `-n` is kubectl's (`xargs -n 1` comes first).
        let ns = whole
            .split_whitespace()
            .collect::<Vec<_>>()
            .windows(2)
            .filter(|w| matches!(w[0], "-n" | "--namespace"))
            .map(|w| w[1].to_string())
            .next_back();
        if let Some(ns) = ns.filter(|n| OBJECT_NAME.is_match(n)) {
            // What the pipeline lists is that namespace's.
            c.namespace = Some(ns.clone());
            c.leftovers_of.push((no, ns));
        }
    }
    // The pod it names: `describe pod X`, `get po X`, `describe pod/X`, `logs X`.
    c.pod = None;
    c.logs = false;
    let args: Vec<&str> = words
        .iter()
        .enumerate()
        .filter(|(i, w)| {
            !(w.starts_with('-')
                || *i > 0
                    && matches!(
                        words[i - 1],
                        "-n" | "--namespace" | "-c" | "-o" | "--context"
                    ))
        })
        .map(|(_, w)| *w)
        .collect();
    // `kubectl delete pod X` (or `pod/X`): if X is listed after, its deletion did not finish.
    if let Some(at) = args.iter().position(|w| *w == "delete") {
        match &args[at + 1..] {
            [res, name, ..] if matches!(*res, "pod" | "pods" | "po") => {
                c.deleted.push(name.to_string())
            }
            [res, ..] if res.starts_with("pod/") || res.starts_with("pods/") => {
                if let Some((_, n)) = res.split_once('/') {
                    c.deleted.push(n.to_string());
                }
            }
            _ => {}
        }
    }
    if let Some(verb) = args
        .iter()
        .position(|w| matches!(*w, "describe" | "get" | "logs"))
    {
        let rest = &args[verb + 1..];
        c.logs = args[verb] == "logs";
        c.pod = match (args[verb], rest) {
            ("logs", [name, ..]) if !name.contains('/') => Some(name.to_string()),
            (_, [res, ..]) if res.starts_with("pod/") || res.starts_with("pods/") => {
                res.split_once('/').map(|(_, n)| n.to_string())
            }
            ("describe" | "get", [res, name, ..]) if matches!(*res, "pod" | "pods" | "po") => {
                Some(name.to_string())
            }
            _ => None,
        }
        // A placeholder where the name was left out (`describe pod ......`, `<pod-name>`) names
        // no pod.
        .filter(|n| OBJECT_NAME.is_match(n));
        let kind = |r: &str| match r {
            "ns" | "namespace" | "namespaces" => Some("Namespace"),
            "no" | "node" | "nodes" => Some("Node"),
            "pvc" | "persistentvolumeclaim" | "persistentvolumeclaims" => {
                Some("PersistentVolumeClaim")
            }
            _ => None,
        };
        c.named = match rest {
            [res, ..] if res.contains('/') => res
                .split_once('/')
                .and_then(|(r, n)| Some((kind(r)?, n.to_string()))),
            [res, name, ..] => kind(res).map(|k| (k, name.to_string())),
            _ => None,
        }
        .filter(|(_, n)| OBJECT_NAME.is_match(n));
    } else {
        c.named = None;
    }
    // A placeholder (`--namespace=<NAMESPACE>`, `-n $NS`) names no namespace.
    for (i, w) in words.iter().enumerate() {
        let ns = if let Some(ns) = w.strip_prefix("--namespace=") {
            Some(ns)
        } else if *w == "-n" || *w == "--namespace" {
            words.get(i + 1).copied()
        } else {
            w.strip_prefix("-n").filter(|n| !n.is_empty())
        };
        if let Some(ns) = ns.filter(|n| OBJECT_NAME.is_match(n)) {
            c.namespace = Some(ns.to_string());
        }
    }
}

/// The cells of a kubectl 1.0-1.2 event row (`OLD_EVENT_ROW`) under the names
/// `EventRow::from_cells` reads: its `{kubelet HOST}` as `kubelet, HOST`, its `containers{x}` as
/// the field path `spec.containers{x}`.
fn old_event_cells(m: &regex::Captures) -> Vec<(String, String)> {
    let cell = |i: usize| m.get(i).map_or("", |g| g.as_str());
    let from = match cell(5).trim() {
        "" => cell(4).to_string(),
        host => format!("{}, {host}", cell(4)),
    };
    let path = match cell(6) {
        p if p.starts_with("containers{") => format!("spec.{p}"),
        p => p.to_string(),
    };
    [
        ("FirstSeen", cell(1).to_string()),
        ("LastSeen", cell(2).to_string()),
        ("Count", cell(3).to_string()),
        ("From", from),
        ("SubObjectPath", path),
        ("Reason", cell(7).to_string()),
        ("Message", cell(8).trim_end().to_string()),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_string(), v))
    .collect()
}

/// One JSON value at the start of `text` (a `"status": {…}` fragment is read as `{"status":
/// {…}}`), with the bytes it used.
///
/// `Err(true)` when the value ran into the end of the text unfinished: the caller then reads
/// later values within their own line, so a paste of many unclosed `{` lines stays linear.
fn json_value(text: &str) -> Result<(Value, usize), bool> {
    let mut it = serde_json::Deserializer::from_str(text).into_iter::<Value>();
    let mut eof = false;
    match it.next() {
        Some(Ok(v)) if v.is_object() || v.is_array() => return Ok((v, it.byte_offset())),
        Some(Err(e)) => eof = e.is_eof(),
        _ => {}
    }
    if text.starts_with('"') {
        // `"status": {` … `}` cut from a larger document: wrap it.
        let line = &text[..text.find('\n').unwrap_or(text.len())];
        let Some((k, _)) = line.split_once(':') else {
            return Err(eof);
        };
        let Ok(key) = serde_json::from_str::<String>(k.trim()) else {
            return Err(eof);
        };
        let rest = &text[k.len() + 1..];
        let mut it = serde_json::Deserializer::from_str(rest).into_iter::<Value>();
        match it.next() {
            Some(Ok(v)) => return Ok((json!({ key: v }), k.len() + 1 + it.byte_offset())),
            Some(Err(e)) => eof |= e.is_eof(),
            None => {}
        }
    }
    Err(eof)
}

/// A JSON text cut off before its end, made whole: it is cut back to the last point where an
/// element of an object or array had ended, and the brackets still open there are closed.
/// `None` when nothing whole is left (or the text is larger than a paste should be).
fn close_cut_json(text: &str) -> Option<Value> {
    if text.len() > 1 << 20 {
        return None;
    }
    let b = text.as_bytes();
    let mut stack: Vec<u8> = Vec::new();
    // (where to cut, the brackets open there)
    let mut safe: Option<(usize, usize)> = None;
    let (mut in_str, mut esc) = (false, false);
    for (i, &c) in b.iter().enumerate() {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => stack.push(c),
            b'}' | b']' => {
                stack.pop();
                if stack.is_empty() {
                    return None; // whole after all: not this function's case
                }
                safe = Some((i + 1, stack.len()));
            }
            b',' if !stack.is_empty() => safe = Some((i, stack.len())),
            _ => {}
        }
    }
    let (cut, depth) = safe?;
    let mut whole = text[..cut].trim_end().trim_end_matches(',').to_string();
    // Which brackets were open at the cut: replay the prefix.
    let mut open: Vec<u8> = Vec::new();
    let (mut in_str, mut esc) = (false, false);
    for &c in whole.as_bytes() {
        if in_str {
            match (esc, c) {
                (true, _) => esc = false,
                (false, b'\\') => esc = true,
                (false, b'"') => in_str = false,
                _ => {}
            }
            continue;
        }
        match c {
            b'"' => in_str = true,
            b'{' | b'[' => open.push(c),
            b'}' | b']' => {
                open.pop();
            }
            _ => {}
        }
    }
    if open.len() != depth && open.len() + 1 != depth {
        return None;
    }
    for c in open.iter().rev() {
        whole.push(if *c == b'{' { '}' } else { ']' });
    }
    serde_json::from_str(&whole)
        .ok()
        .filter(|v: &Value| v.is_object() || v.is_array())
}

fn table_row(h: &[(String, usize)], no: u64, line: &str, anchor: Timestamp, c: &mut Collected) {
    let cells = table::cells(h, line);
    let has = |n: &str| h.iter().any(|(k, _)| k == n);
    let ns = {
        let v = table::get(&cells, "NAMESPACE");
        if v.is_empty() {
            c.namespace.clone().unwrap_or_else(|| UNKNOWN.into())
        } else {
            v.to_string()
        }
    };
    if has("REASON") && has("MESSAGE") {
        // A table without OBJECT (a describe's, or an old layout's) is about the paste's pod.
        let pod = c.pod_name();
        let about = if has("OBJECT") || has("INVOLVED OBJECT") || has("NAME") {
            ("", ns.as_str(), "")
        } else {
            ("Pod", ns.as_str(), pod.as_str())
        };
        if let Some(e) = EventRow::from_cells(&cells, about, anchor, no) {
            c.event(e);
        }
        return;
    }
    let name = table::get(&cells, "NAME").to_string();
    if name.is_empty() {
        return;
    }
    let kind = if has("READY") && has("RESTARTS") {
        "Pod"
    } else if has("ROLES") || (has("VERSION") && has("STATUS")) {
        "Node"
    } else if has("VOLUME") && has("CAPACITY") {
        "PersistentVolumeClaim"
    } else if has("UP-TO-DATE") {
        "Deployment"
    } else if has("STATUS") && h.len() <= 3 {
        "Namespace"
    } else {
        // `--show-kind` rows of any resource (`challenge.acme.cert-manager.io/grafana-tls`): an
        // object of that kind, for what a namespace still holds.
        if let Some((res, n)) = name.split_once('/')
            && object_ref(&name).is_none()
            && OBJECT_NAME.is_match(n)
        {
            let (plural, group) = res.split_once('.').unwrap_or((res, ""));
            let singular = plural.strip_suffix('s').unwrap_or(plural);
            let mut kind: Vec<char> = singular.chars().collect();
            if let Some(f) = kind.first_mut() {
                *f = f.to_ascii_uppercase();
            }
            let api = if group.is_empty() {
                "v1".to_string()
            } else {
                format!("{group}/v1")
            };
            // Held to the end: a describe or YAML of the same object says more.
            c.shown.push((
                no,
                json!({"apiVersion": api, "kind": kind.into_iter().collect::<String>(), "metadata": {"name": n, "namespace": ns}}),
            ));
            return;
        }
        return c.other.push((no, line.to_string()));
    };
    // `pod/web-1` under `kubectl get pods -o name`-style NAME columns.
    let name = object_ref(&name).map_or(name, |(_, n)| n);
    // A line that is no row (a prompt, prose) under a header is not an object. A name with a
    // part redacted (`pvc-<vol-id>-rep-1`) is a row of a pod the paste does not name: "the pod"
    // (no report prints a name Kubernetes would refuse).
    let name = if OBJECT_NAME.is_match(&name) {
        name
    } else if name.contains('<') && table::name(&name) {
        UNKNOWN.to_string()
    } else {
        return c.other.push((no, line.to_string()));
    };
    // A row of an object the paste already shows whole adds nothing.
    let key_ns = if cluster_scoped(kind) {
        String::new()
    } else {
        ns.clone()
    };
    if c.seen
        .contains_key(&(kind.into(), key_ns.into(), name.as_str().into()))
    {
        return;
    }
    let deleted = kind == "Pod" && c.deleted.contains(&name);
    c.rows.push(Row {
        deleted,
        kind,
        namespace: ns,
        name,
        cells,
        line: no,
    });
}

fn flush(
    state: &mut State,
    block: &mut Vec<(u64, &str)>,
    yaml_base: usize,
    anchor: Timestamp,
    c: &mut Collected,
    name: &str,
    out: &mut FileOut,
) {
    match std::mem::replace(state, State::None) {
        State::Describe => describe_block(block, anchor, c),
        State::Yaml => yaml_block(name, block, yaml_base, c, out),
        State::Fragment => fragment_block(block, yaml_base, anchor, c),
        State::Table | State::None => {}
    }
    block.clear();
    c.emit(name, out);
}

/// A container's lines of a pod's describe, without the pod: read as the describe of a pod
/// (the one the last command named, else unnamed) with that one container.
fn fragment_block(block: &[(u64, &str)], base: usize, anchor: Timestamp, c: &mut Collected) {
    let Some(&(line, _)) = block.first() else {
        return;
    };
    let (ns, pod) = (c.ns(), c.pod_name());
    let crashed = block.iter().any(|(_, l)| {
        let t = l.trim_start();
        t.starts_with("Last State:") || t.contains("CrashLoopBackOff")
    });
    let head = [
        format!("Name:         {pod}"),
        format!("Namespace:    {ns}"),
        format!(
            "Status:       {}",
            if crashed { "Running" } else { "Pending" }
        ),
        "Containers:".to_string(),
        // A describe key cannot start with `(`: renamed below.
        "  unnamed-container:".to_string(),
    ];
    let body: Vec<String> = block
        .iter()
        .map(|(_, l)| format!("    {}", dedent(l, base)))
        .collect();
    let lines: Vec<(u64, &str)> = head
        .iter()
        .map(|h| (line, h.as_str()))
        .chain(
            block
                .iter()
                .map(|(n, _)| *n)
                .zip(body.iter().map(String::as_str)),
        )
        .collect();
    let t = describe::tree(&lines);
    let ns_opt = Some(ns.as_str()).filter(|n| *n != UNKNOWN);
    let mut v = describe::pod(&t, ns_opt, anchor);
    for list in ["/spec/containers", "/status/containerStatuses"] {
        if let Some(Value::Array(a)) = v.pointer_mut(list) {
            for cs in a {
                cs["name"] = json!(UNKNOWN);
            }
        }
    }
    let p = Pasted {
        object: ObjectKey {
            kind: "Pod".into(),
            namespace: ns.clone().into(),
            name: pod.clone().into(),
            uid: String::new().into(),
        },
        from: "a fragment of kubectl describe (one container's state)".into(),
        missing: "the rest of the pod: its spec, other containers and events".into(),
        settle: if pod == UNKNOWN {
            "kubectl describe pod NAME -n NAMESPACE".into()
        } else {
            format!(
                "kubectl describe pod {pod} -n {}",
                if ns == UNKNOWN { "NAMESPACE" } else { &ns }
            )
        },
    };
    c.objects.push((line, v, Some(p)));
}

fn describe_block(block: &[(u64, &str)], anchor: Timestamp, c: &mut Collected) {
    use describe::Kind;
    let t = describe::tree(block);
    let line = block.first().map_or(1, |b| b.0);
    let ns_hint = c.namespace.clone();
    let kind = describe::kind_of(&t);
    let name = t.val("Name").unwrap_or("").to_string();
    let ns = t
        .val("Namespace")
        .map(str::to_string)
        .or(ns_hint.clone())
        .unwrap_or_else(|| UNKNOWN.into());
    let (k, _) = kind.api();
    let namespaced = !matches!(kind, Kind::Node | Kind::Namespace);
    let key = ObjectKey {
        kind: k.into(),
        namespace: if namespaced {
            ns.clone().into()
        } else {
            String::new().into()
        },
        name: name.clone().into(),
        uid: String::new().into(),
    };
    let has_events = t.get("Events").is_some();
    let settle_events = if namespaced {
        format!("kubectl get events -n {ns} --field-selector involvedObject.name={name}")
    } else {
        format!("kubectl get events -A --field-selector involvedObject.name={name}")
    };
    let lacking = |what: &str| Pasted {
        object: key.clone(),
        from: "kubectl describe".into(),
        missing: what.into(),
        settle: settle_events.clone(),
    };
    let ns_opt = Some(ns.as_str()).filter(|n| *n != UNKNOWN);
    let values: Vec<Value> = match kind {
        Kind::Pod => vec![describe::pod(&t, ns_opt, anchor)],
        Kind::Node => {
            c.context
                .extend(describe::node_pods(&t).into_iter().map(|p| (line, p)));
            describe::node(&t)
        }
        Kind::Namespace => describe::namespace(&t, block),
        Kind::Pvc => vec![describe::pvc(&t, ns_opt)],
        Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet | Kind::DaemonSet | Kind::Job => {
            vec![describe::workload(&t, kind, ns_opt)]
        }
        Kind::Unknown => {
            if let Some(v) = describe::custom(&t, ns_opt) {
                c.objects.push((line, v, None));
                return;
            }
            let last = block.last().map_or(line, |b| b.0);
            c.notes.push((
                line,
                format!(
                    "lines {line}-{last}: kubectl describe of {name:?}, a kind kubewhy does not read (it reads pods, nodes, namespaces, claims and workloads); ignored"
                ),
            ));
            return;
        }
    };
    if name.is_empty() {
        return;
    }
    for e in describe::events(&t, (k, &ns, &name), anchor) {
        c.event(e);
    }
    // describe prints neither a pod's finalizers nor its node's state: what a stuck deletion
    // hinges on.
    let terminating = kind == Kind::Pod
        && t.val("Status")
            .is_some_and(|s| s.starts_with("Terminating"));
    for (i, v) in values.into_iter().enumerate() {
        // The main object is the first; the rest (a node's pods, a namespace's quotas) are
        // partial by nature but only context.
        let partial = if i > 0 || kind == Kind::Namespace {
            None
        } else if terminating {
            Some(Pasted {
                missing: if has_events {
                    "its finalizers and its node's state (describe prints neither)".into()
                } else {
                    "its events, finalizers and its node's state".into()
                },
                settle: infer::settle_deletion(&ns, &name, v["spec"]["nodeName"].as_str()),
                ..lacking("")
            })
        } else {
            (!has_events).then(|| lacking("its events (the describe output was cut before them)"))
        };
        c.objects.push((line, v, partial));
    }
}

/// A line that stands for lines left out: `...`, `…`, `[...]`, `# ...`, `(snip)`.
fn elision(line: &str) -> bool {
    let t = line.trim().trim_start_matches('#').trim();
    t.len() <= 16
        && (t.contains("...") || t.contains('…'))
        && t.trim_matches(['.', '…', '[', ']', '(', ')', ' '])
            .is_empty()
        || t.eq_ignore_ascii_case("(snip)")
        || t.eq_ignore_ascii_case("[snip]")
}

/// A YAML block (dedented by its first line's indentation, without elision lines). A paste cut
/// mid-object is read without its last lines when it cannot be read whole.
fn yaml_block(
    name: &str,
    block: &[(u64, &str)],
    base: usize,
    c: &mut Collected,
    out: &mut FileOut,
) {
    let Some(&(line, _)) = block.first() else {
        return;
    };
    if let Some(end) = cut_stanza_end(block, base)
        && end < block.len()
    {
        yaml_block(name, &block[..end], base, c, out);
        return yaml_block(name, &block[end..], base, c, out);
    }
    let mut lines: Vec<std::borrow::Cow<str>> = block
        .iter()
        .filter(|(_, l)| !elision(l))
        .map(|(_, l)| dedent(l, base).into())
        .collect();
    reindent_cut_first_line(&mut lines);
    let mut keep = lines.len();
    let mut first_error = None;
    while keep > 0 && lines.len() - keep <= 3 {
        let text: String = lines[..keep].iter().map(|l| format!("{l}\n")).collect();
        match crate::yaml::from_str::<Value>(&text) {
            Ok(v) => return stanza_or_object(name, line, v, c, out),
            Err(e) => {
                first_error.get_or_insert(e);
                keep -= 1;
                while keep > 0 && lines[keep - 1].trim().is_empty() {
                    keep -= 1;
                }
            }
        }
    }
    if let Some(e) = first_error {
        let msg = e.to_string();
        out.warn(crate::warn_at(
            name,
            line,
            1,
            format!(
                "YAML that cannot be read ({}); skipped",
                msg.lines().next().unwrap_or("")
            ),
        ));
    }
}

/// The width of a line's leading whitespace, in bytes.
fn indent(l: &str) -> usize {
    l.len() - l.trim_start().len()
}

/// A line of a block without the block's own indentation (`base`), or as much of it as it has.
fn dedent(l: &str, base: usize) -> &str {
    &l[indent(l).min(base)..]
}

/// A stanza copied from the middle of a line on: its first line lost the indentation its
/// siblings keep (`phase: Failed` then `  podIP: …`, `  reason: Evicted`): the indentation of
/// its second line, when the first is a key with a value (nothing can be nested under it) at
/// the block's own indentation and the second is indented more.
fn cut_first_line(lines: &[&str]) -> Option<usize> {
    let first = lines.first()?;
    let scalar_key = first.split_once(": ").is_some_and(|(k, v)| {
        !k.is_empty()
            && !k.starts_with(['-', ' ', '#'])
            && !v.trim().is_empty()
            && !v.trim().starts_with(['|', '>'])
    });
    let second = indent(lines[1..].iter().find(|l| !l.trim().is_empty())?);
    (indent(first) == 0 && scalar_key && second > 0).then_some(second)
}

/// Where a stanza whose first line was cut (`cut_first_line`) ends: at the first later line
/// indented less than its siblings, which begins another block.
fn cut_stanza_end(block: &[(u64, &str)], base: usize) -> Option<usize> {
    let dedented: Vec<&str> = block.iter().map(|(_, l)| dedent(l, base)).collect();
    let kept: Vec<&str> = dedented.iter().copied().filter(|l| !elision(l)).collect();
    let siblings = cut_first_line(&kept)?;
    let end = dedented
        .iter()
        .enumerate()
        .skip(1)
        .position(|(_, l)| !l.trim().is_empty() && !elision(l) && indent(l) < siblings);
    Some(end.map_or(block.len(), |p| p + 1))
}

/// `cut_first_line`'s repair: the first line indented as its siblings.
fn reindent_cut_first_line(lines: &mut [std::borrow::Cow<str>]) {
    let plain: Vec<&str> = lines.iter().map(|l| l.as_ref()).collect();
    if let Some(siblings) = cut_first_line(&plain) {
        lines[0] = format!("{}{}", " ".repeat(siblings), lines[0]).into();
    }
}

/// A whole object (or list) goes to the loader as is; a stanza (`status:`, `metadata:`, a bare
/// status object) gets the kind its fields imply and the name its metadata gives, if any.
fn stanza_or_object(name: &str, line: u64, mut v: Value, c: &mut Collected, out: &mut FileOut) {
    state_into_container(&mut v);
    if v.get("kind").is_some() || v.is_array() {
        if let Value::Array(items) = v {
            for item in items {
                stanza_or_object(name, line, item, c, out);
            }
            return;
        }
        // A pod's YAML pasted without its name (`....` where the metadata was): the pod the
        // paste is about, not an object to refuse.
        let nameless = v["kind"] == "Pod"
            && v["metadata"]["name"].as_str().is_none_or(str::is_empty)
            && v.get("metadata").is_none_or(Value::is_object);
        if !nameless {
            c.objects.push((line, v, None));
            return;
        }
        let name_ = c.pod_name();
        // Another fragment of the same unnamed pod came first (a status stanza): that one is
        // the pod, and fragments are not merged field by field.
        let same = |k: &str, n: &str| k == "Pod" && n == name_;
        if c.seen.keys().any(|(k, _, n)| same(k, n))
            || c.objects.iter().any(|(_, o, _)| {
                same(
                    o["kind"].as_str().unwrap_or_default(),
                    o["metadata"]["name"].as_str().unwrap_or_default(),
                )
            })
        {
            return;
        }
        let ns = v["metadata"]["namespace"]
            .as_str()
            .map(str::to_string)
            .or_else(|| c.namespace.clone())
            .unwrap_or_else(|| UNKNOWN.into());
        v["metadata"]["name"] = json!(name_);
        v["metadata"]["namespace"] = json!(ns);
        let partial = Pasted {
            object: ObjectKey::new("Pod", &ns, &name_, ""),
            from: "a pod's YAML without its name".into(),
            missing: "its name and events".into(),
            settle: format!(
                "kubectl get pod {} -n {} -o yaml",
                if name_ == UNKNOWN { "NAME" } else { &name_ },
                if ns == UNKNOWN { "NAMESPACE" } else { &ns }
            ),
        };
        c.objects.push((line, v, Some(partial)));
        return;
    }
    let Value::Object(mut map) = v else { return };
    // One container's status, or its `state:` / `lastState:` alone.
    if (map.contains_key("state") || map.contains_key("lastState"))
        && !map.contains_key("status")
        && !map.contains_key("containerStatuses")
    {
        map.entry("name").or_insert_with(|| json!(UNKNOWN));
        map = serde_json::Map::from_iter([(
            "containerStatuses".to_string(),
            json!([Value::Object(map)]),
        )]);
    }
    // A bare status object (`kubectl get pod x -o jsonpath='{.status}'`), known by a field every
    // status has; a document without `kind` that is no status is no object (a tool's own JSON:
    // `{"info": …}`, a list of rules) and none is invented from it.
    if !map.contains_key("status") && !map.contains_key("metadata") && !map.contains_key("spec") {
        if !STATUS_FIELDS.iter().any(|f| map.contains_key(*f)) {
            // A structured log line (`{"level":…,"msg":…}`): its words are read by the message
            // catalogue like any other line's; it is no object and no problem.
            if ["msg", "level", "ts"].iter().any(|k| map.contains_key(*k)) {
                return;
            }
            out.warn(crate::warn_at(
                name,
                line,
                1,
                "a document without kind that is no object's status: not kubectl output, an event or a log line kubewhy knows; ignored".into(),
            ));
            return;
        }
        map = serde_json::Map::from_iter([("status".to_string(), Value::Object(map))]);
    }
    if !map.contains_key("status") && !map.contains_key("spec") {
        // `metadata:` alone says which object, not what is wrong with it.
        out.warn(crate::warn_at(
            name,
            line,
            1,
            "a metadata stanza alone: no state to diagnose; paste its status too".into(),
        ));
        return;
    }
    // Conditions no pod has, and no command naming the kind: another kind's status (a custom
    // resource's), not a pod to invent.
    if c.named.is_none()
        && infer::stanza_kind(&map).is_none()
        && let Some(types) = infer::foreign_conditions(&map)
    {
        out.warn(crate::warn_at(
            name,
            line,
            1,
            format!(
                "a status whose conditions ({}) are no pod's, of a kind the paste does not name: not diagnosed; paste the object with its kind (kubectl get KIND NAME -o yaml)",
                types.join(", ")
            ),
        ));
        return;
    }
    let p = stanza_object(&mut map, c);
    c.objects.push((line, Value::Object(map), Some(p)));
}

/// Where a paste left lines out, a key may be left with nothing (`containerStatuses:` then
/// `...`): absent rather than null; a `state:` cut loose from its container goes back in one.
fn state_into_container(v: &mut Value) {
    prune_nulls(v);
    if let Some(status) = v.get_mut("status").and_then(Value::as_object_mut)
        && (status.contains_key("state") || status.contains_key("lastState"))
    {
        let mut cs = serde_json::Map::new();
        for k in [
            "name",
            "state",
            "lastState",
            "restartCount",
            "ready",
            "image",
        ] {
            if let Some(x) = status.remove(k) {
                cs.insert(k.to_string(), x);
            }
        }
        cs.entry("name").or_insert_with(|| json!(UNKNOWN));
        if !status.contains_key("containerStatuses") {
            status.insert("containerStatuses".into(), json!([cs]));
        }
    }
}

/// A stanza made an object of its kind (guessed from its fields), named by what the paste
/// said before it; what it lacks and the command that settles it.
fn stanza_object(map: &mut serde_json::Map<String, Value>, c: &Collected) -> Pasted {
    let implied = infer::stanza_kind(map);
    // A stanza whose fields say nothing of its kind (`spec: finalizers: [kubernetes]`) is of
    // the kind the command before it named; with neither, it is a pod.
    let named = c
        .named
        .as_ref()
        .filter(|(k, _)| implied.is_none_or(|i| i == *k));
    let kind = match (named, implied) {
        (Some((k, _)), _) => *k,
        (None, Some(i)) => i,
        (None, None) => "Pod",
    };
    let meta = map.entry("metadata").or_insert_with(|| json!({}));
    let namespaced = !cluster_scoped(kind);
    // A `metadata` that is not a mapping (pasted text is anything) is left for decoding to refuse.
    if let Some(m) = meta.as_object_mut() {
        if m.get("name").and_then(Value::as_str).is_none() {
            let name = match named {
                Some((_, n)) => n.clone(),
                None if kind == "Pod" => c.pod_name(),
                None => UNKNOWN.into(),
            };
            m.insert("name".into(), json!(name));
        }
        if namespaced && m.get("namespace").and_then(Value::as_str).is_none() {
            let ns = c.namespace.clone().unwrap_or_else(|| UNKNOWN.into());
            m.insert("namespace".into(), json!(ns));
        }
    }
    let obj_name = meta["name"].as_str().unwrap_or(UNKNOWN).to_string();
    let obj_ns = if namespaced {
        meta["namespace"].as_str().unwrap_or(UNKNOWN).to_string()
    } else {
        String::new()
    };
    let (api, resource) = match kind {
        "Pod" => ("v1", "pod"),
        "Node" => ("v1", "node"),
        "Namespace" => ("v1", "namespace"),
        "PersistentVolumeClaim" => ("v1", "pvc"),
        "Job" => ("batch/v1", "job"),
        k => (
            "apps/v1",
            if k == "Deployment" {
                "deployment"
            } else {
                "replicaset"
            },
        ),
    };
    let missing = if map.contains_key("spec") {
        "its events"
    } else if kind == "Namespace" {
        "what is left in it (only a status stanza was pasted)"
    } else {
        "its spec and events (only a status stanza was pasted)"
    };
    map.insert("kind".into(), json!(kind));
    map.insert("apiVersion".into(), json!(api));
    if kind == "Pod" {
        infer::containers_from_status(map);
    }
    let settle = if obj_name == UNKNOWN && namespaced {
        format!("kubectl describe {resource} NAME -n NAMESPACE")
    } else if obj_name == UNKNOWN {
        format!("kubectl describe {resource} NAME")
    } else if namespaced {
        format!("kubectl describe {resource} {obj_name} -n {obj_ns}")
    } else {
        format!("kubectl describe {resource} {obj_name}")
    };
    Pasted {
        object: ObjectKey {
            kind: kind.into(),
            namespace: obj_ns.into(),
            name: obj_name.into(),
            uid: String::new().into(),
        },
        from: "a YAML/JSON stanza".into(),
        missing: missing.into(),
        settle,
    }
}

/// Fields by which a bare status is known: one of them is in every pod's, node's, claim's or
/// namespace's status.
const STATUS_FIELDS: &[&str] = &[
    "phase",
    "conditions",
    "containerStatuses",
    "initContainerStatuses",
    "podIP",
    "hostIP",
    "startTime",
    "qosClass",
    "nodeInfo",
    "capacity",
    "allocatable",
    "accessModes",
];

fn prune_nulls(v: &mut Value) {
    match v {
        Value::Object(m) => {
            m.retain(|_, x| !x.is_null());
            m.values_mut().for_each(prune_nulls);
        }
        Value::Array(a) => a.iter_mut().for_each(prune_nulls),
        _ => {}
    }
}

fn key_of(v: &Value) -> Key {
    let s = |p: &str| Str::from(v.pointer(p).and_then(Value::as_str).unwrap_or(""));
    (s("/kind"), s("/metadata/namespace"), s("/metadata/name"))
}

/// One pod, fused: in a paste about one pod, the fragments that name no pod (a container's
/// `State:` block, a status stanza, messages) are that pod, and a namespace the paste gives is
/// its namespace. The pod named is the only one any row, object or event of the paste names; the
/// unnamed pods already decoded take its name, the events and messages about no pod are its, and
/// its table row adds nothing the fragments do not say better (no stub is made of it). Nothing
/// is fused when the paste names two pods or more: which one a fragment is about is not known.
fn fuse(c: &mut Collected, out: &mut FileOut) {
    let unknown = |s: &str| s == UNKNOWN;
    // A paste that shows one node: the pods whose node it does not say run there.
    let nodes: HashSet<&str> = c
        .seen
        .keys()
        .filter(|(k, _, _)| k == "Node")
        .map(|(_, _, n)| n.as_str())
        .chain(
            c.rows
                .iter()
                .filter(|r| r.kind == "Node")
                .map(|r| r.name.as_str()),
        )
        .collect();
    if let [node] = nodes.into_iter().collect::<Vec<_>>()[..] {
        let node = Str::from(node);
        for part in out
            .parts
            .iter_mut()
            .chain(std::iter::once(&mut out.objects))
        {
            for p in part
                .pods
                .iter_mut()
                .filter(|p| p.spec.node_name.as_deref().is_none_or(str::is_empty))
            {
                // A pod the scheduler never placed is on no node.
                if p.status.phase == "Pending" && p.metadata.deletion_timestamp.is_none() {
                    continue;
                }
                std::sync::Arc::make_mut(p).spec.node_name = Some(node.clone());
            }
        }
    }
    let mut named: Vec<(String, String)> = Vec::new();
    let mut add = |ns: &str, n: &str| {
        // A document without a name (refused when decoded) names no pod.
        if !unknown(n) && !n.is_empty() && !named.iter().any(|(_, m)| m == n) {
            named.push((ns.to_string(), n.to_string()));
        }
    };
    for (k, ns, n) in c.seen.keys() {
        if k == "Pod" {
            add(ns, n);
        }
    }
    for r in c.rows.iter().filter(|r| r.kind == "Pod") {
        add(&r.namespace, &r.name);
    }
    for e in c.events.iter().filter(|e| e.kind == "Pod") {
        // An Events section pasted without its pod names it in the scheduler's words.
        match infer::assigned(&e.message).filter(|_| unknown(&e.name)) {
            Some((ns, n)) => add(ns, n),
            None => add(&e.namespace, &e.name),
        }
    }
    let chosen = match &named[..] {
        [one] => one.clone(),
        _ => match troubled(c, &named) {
            Some(one) => one,
            None => return,
        },
    };
    let (ns, pod) = (&chosen.0, &chosen.1);
    let unnamed: Vec<Key> = c
        .seen
        .keys()
        .filter(|(k, _, n)| k == "Pod" && unknown(n))
        .cloned()
        .collect();
    let ns = if unknown(ns) {
        c.namespace.clone().unwrap_or_else(|| ns.clone())
    } else {
        ns.clone()
    };
    let fused = |pns: &mut Str, pname: &mut Str| {
        *pname = pod.as_str().into();
        if unknown(pns) || pns.is_empty() {
            *pns = ns.as_str().into();
        }
    };
    if !unnamed.is_empty() {
        for part in out
            .parts
            .iter_mut()
            .chain(std::iter::once(&mut out.objects))
        {
            for p in part.pods.iter_mut().filter(|p| unknown(&p.metadata.name)) {
                let p = std::sync::Arc::make_mut(p);
                let mut m_ns = p.metadata.namespace.clone().unwrap_or_default();
                fused(&mut m_ns, &mut p.metadata.name);
                p.metadata.namespace = Some(m_ns);
                restarts_from_row(c, p);
            }
        }
        for p in out
            .pasted
            .iter_mut()
            .filter(|p| p.object.kind == "Pod" && unknown(&p.object.name))
        {
            fused(&mut p.object.namespace, &mut p.object.name);
            // The command that settles it names the pod now known.
            p.settle = p
                .settle
                .split(' ')
                .map(|w| if w == "NAME" { pod.as_str() } else { w })
                .collect::<Vec<_>>()
                .join(" ");
            if !unknown(&ns) {
                p.settle = p.settle.replace("-n NAMESPACE", &format!("-n {ns}"));
            }
        }
        for k in unnamed {
            let v = c.seen.remove(&k).unwrap_or_default();
            c.seen
                .insert(("Pod".into(), ns.as_str().into(), pod.as_str().into()), v);
        }
    }
    for e in c
        .events
        .iter_mut()
        .filter(|e| e.kind == "Pod" && unknown(&e.name))
    {
        fused(&mut e.namespace, &mut e.name);
    }
    for m in &mut c.messages {
        if unknown(&m.3) {
            m.3 = pod.clone();
            if unknown(&m.2) {
                m.2 = ns.clone();
            }
        }
    }
}

/// A fragment fused with a pod's `get` row: the row's restarts belong to the fragment's one
/// container that shows a last termination, when the fragment itself does not count them (a
/// `Last State:` block pasted without its `Restart Count:`).
fn restarts_from_row(c: &Collected, p: &mut kubewhy_model::objects::Pod) {
    let Some(n) = pod_row(c, &p.metadata.name).and_then(row_restarts) else {
        return;
    };
    let statuses = &mut p.status.container_statuses;
    if n > 0 && statuses.iter().all(|cs| cs.restart_count == 0) {
        let mut ended = statuses
            .iter_mut()
            .filter(|cs| cs.last_state.terminated.is_some());
        if let (Some(cs), None) = (ended.next(), ended.next()) {
            cs.restart_count = n;
        }
    }
}

/// The pod's `get` row; of rows pasted again (`get pods -w`), the last.
fn pod_row<'c>(c: &'c Collected, name: &str) -> Option<&'c Row> {
    c.rows
        .iter()
        .rev()
        .find(|r| r.kind == "Pod" && r.name == name)
}

/// The restarts a pod's row shows (`7`, or `7 (2m42s ago)`).
fn row_restarts(row: &Row) -> Option<i64> {
    table::get(&row.cells, "RESTARTS")
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Of several pods a paste names, the one its unnamed fragments are about: the only one whose
/// `get` row shows trouble (restarts, a container not ready, a status other than Running or
/// Completed), when every pod named has a row. A container's `Last State: … OOMKilled` pasted
/// under a `get pods` of five healthy pods and one restarting belongs to that one.
fn troubled(c: &Collected, named: &[(String, String)]) -> Option<(String, String)> {
    let mut found = None;
    for (ns, n) in named {
        let row = pod_row(c, n)?;
        let cell = |h: &str| table::get(&row.cells, h);
        let restarts = row_restarts(row).unwrap_or(0);
        let unready = cell("READY")
            .split_once('/')
            .is_some_and(|(a, b)| a.trim() != b.trim());
        let status = cell("STATUS");
        if restarts > 0 || unready || !matches!(status, "Running" | "Completed" | "Succeeded") {
            if found.is_some() {
                return None;
            }
            found = Some((ns.clone(), n.clone()));
        }
    }
    found
}

/// A pod the paste shows whole (its YAML, a describe) and also as a `get` row saying
/// `Terminating` (or listed after its `kubectl delete`): the row says what the fragment cut
/// off, that it is being deleted. When the deletion began is not said: at the earliest, when
/// the pod was created, as for a pod known only by its row.
fn deleting_by_row(c: &Collected, anchor: Timestamp, out: &mut FileOut) {
    let rows: Vec<&Row> = c
        .rows
        .iter()
        .filter(|r| r.kind == "Pod")
        .filter(|r| {
            r.deleted
                || r.cells
                    .iter()
                    .any(|(k, v)| k == "STATUS" && v == "Terminating")
        })
        .collect();
    if rows.is_empty() {
        return;
    }
    let mut marked = Vec::new();
    for part in out
        .parts
        .iter_mut()
        .chain(std::iter::once(&mut out.objects))
    {
        for p in part.pods.iter_mut() {
            if p.metadata.deletion_timestamp.is_some() {
                continue;
            }
            let Some(row) = rows.iter().find(|r| {
                r.name == p.metadata.name.as_str()
                    && (r.namespace == UNKNOWN
                        || r.namespace.is_empty()
                        || r.namespace == p.metadata.ns())
            }) else {
                continue;
            };
            let at = p
                .metadata
                .creation_timestamp
                .or_else(|| infer::created_by_age(row, anchor))
                .unwrap_or(anchor);
            let p = std::sync::Arc::make_mut(p);
            p.metadata.deletion_timestamp = Some(at);
            p.metadata.deletion_grace_period_seconds.get_or_insert(0);
            marked.push(ObjectKey::of("Pod", &p.metadata));
        }
    }
    // What the pod's fragment lacked is said, and its findings are one level less certain.
    for key in marked {
        let lacks = "when its deletion began (a row says Terminating; the rest of the paste was cut before deletionTimestamp)";
        match out.pasted.iter_mut().find(|p| p.object == key) {
            Some(p) if p.missing.is_empty() => p.missing = lacks.into(),
            Some(p) => p.missing = format!("{}, and {lacks}", p.missing),
            None => out.pasted.push(Pasted {
                settle: format!(
                    "kubectl get pod {} -n {} -o jsonpath='{{.metadata.deletionTimestamp}} {{.metadata.finalizers}}'",
                    key.name,
                    if key.namespace == UNKNOWN { "NAMESPACE" } else { &key.namespace }
                ),
                object: key,
                from: "its YAML and a kubectl get pods row".into(),
                missing: lacks.into(),
            }),
        }
    }
}

/// Turns what was collected into objects, events, stubs, node lines and container logs.
fn finish(name: &str, mut c: Collected, anchor: Timestamp, out: &mut FileOut) {
    c.emit(name, out);
    fuse(&mut c, out);
    deleting_by_row(&c, anchor, out);
    let known: HashSet<Key> = c.seen.keys().cloned().collect();
    let context = std::mem::take(&mut c.context);
    for (line, v) in std::mem::take(&mut c.shown).into_iter().chain(context) {
        let (k, ns, n) = key_of(&v);
        if !known.contains(&(k, ns, n)) {
            c.objects.push((line, v, None));
            c.emit(name, out);
        }
    }
    leftovers(&mut c, &known);
    messages_as_events(&mut c, anchor);
    stubs(name, &mut c, &known, anchor, out);
    c.emit(name, out);
    nodes_not_ready(&mut c, &known);
    decode_events(name, &mut c, out);
    // Container output beside a crashing pod is its log.
    c.emit(name, out);
    for (line, note) in std::mem::take(&mut c.notes) {
        out.warn(crate::warn_at(name, line, 1, note));
    }
    logs(name, &mut c, out);
    node_log(name, &mut c, anchor, out);
    out.pasted_text = true;
}

/// A namespace whose leftovers the paste lists is one being deleted (that is why one lists
/// them): it gets a stub, Terminating, when the paste does not show it.
fn leftovers(c: &mut Collected, known: &HashSet<Key>) {
    for (no, ns) in std::mem::take(&mut c.leftovers_of) {
        let key: Key = ("Namespace".into(), Str::default(), ns.as_str().into());
        if known.contains(&key) {
            continue;
        }
        let p = Pasted {
            object: ObjectKey::new("Namespace", "", &ns, ""),
            from: "the command that lists what is left in a namespace being deleted".into(),
            missing: "the namespace's own status and conditions".into(),
            settle: format!("kubectl get namespace {ns} -o yaml"),
        };
        c.objects.push((
            no,
            json!({"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": ns, "deletionTimestamp": null}, "status": {"phase": "Terminating"}}),
            Some(p),
        ));
    }
}

/// Messages name no object: the pod the last command named holds them, else one unnamed pod
/// (or workload, for admission refusals).
fn messages_as_events(c: &mut Collected, anchor: Timestamp) {
    for (no, m, ns, pod) in std::mem::take(&mut c.messages) {
        let (reason, kind) = infer::message_reason(&m).unwrap_or(("Failed", "Pod"));
        c.events.push(EventRow {
            kind: kind.into(),
            namespace: ns.into(),
            name: if kind == "Pod" {
                pod.into()
            } else {
                UNKNOWN.into()
            },
            type_: "Warning",
            reason: reason.into(),
            message: m.into(),
            count: 1,
            last: At::new(Some(anchor)),
            first: At::new(Some(anchor)),
            line: no,
            ..Default::default()
        });
    }
}

/// Objects shown only by table rows or events: a stub with the state they imply.
fn stubs(
    name: &str,
    c: &mut Collected,
    known: &HashSet<Key>,
    anchor: Timestamp,
    out: &mut FileOut,
) {
    /// What a stub is made from: a row (by its index) or the events of an object no row shows.
    enum From {
        Row(usize, bool),
        Events(Key),
    }
    // Events by object, in the order objects first appear (one pass, not one per row), as
    // indexes into `c.events`, so that each stub can be made and emitted in turn.
    let mut order: Vec<Key> = Vec::new();
    let mut by_object: HashMap<Key, Vec<usize>> = HashMap::new();
    for (i, e) in c.events.iter().enumerate() {
        let key = e.key();
        by_object
            .entry(key.clone())
            .or_insert_with(|| {
                order.push(key);
                Vec::new()
            })
            .push(i);
    }
    let deleted: HashSet<&str> = c
        .rows
        .iter()
        .filter(|r| r.deleted)
        .map(|r| r.name.as_str())
        .collect();
    let mut stubbed: HashSet<Key> = HashSet::new();
    // Which stubs to make, by the line they come from: made one at a time in that order and
    // decoded at once, never all held as JSON together (a paste of thousands of rows).
    let mut plan: Vec<(u64, Key, From)> = Vec::new();
    // A row without its namespace (`get pods` in the current one) is the object of that name
    // the paste shows in full (its describe says `Namespace: X`).
    let shown: HashSet<(&str, &str)> = known
        .iter()
        .map(|(k, _, n)| (k.as_str(), n.as_str()))
        .collect();
    // Rows of one object pasted more than once (`get pods -w`, two `get`s in a row): the last
    // is the latest state, so it is the one that stands.
    for (i, row) in c.rows.iter().enumerate().rev() {
        let ns = if cluster_scoped(row.kind) {
            ""
        } else {
            row.namespace.as_str()
        };
        let key: Key = (row.kind.into(), ns.into(), row.name.as_str().into());
        if known.contains(&key)
            || (ns == UNKNOWN && shown.contains(&(row.kind, row.name.as_str())))
            || !stubbed.insert(key.clone())
        {
            continue;
        }
        let gone = deleted.contains(row.name.as_str());
        plan.push((row.line, key, From::Row(i, gone)));
    }
    drop((deleted, shown));
    for key in order {
        if known.contains(&key) || stubbed.contains(&key) {
            continue;
        }
        let line = c.events[by_object[&key][0]].line;
        plan.push((line, key.clone(), From::Events(key)));
    }
    plan.sort_by_key(|m| m.0);
    for (line, key, from) in plan {
        let none = Vec::new();
        let events: Vec<&EventRow> = by_object
            .get(&key)
            .unwrap_or(&none)
            .iter()
            .map(|&i| &c.events[i])
            .collect();
        let made = match from {
            From::Row(i, gone) => Some(infer::from_row(&c.rows[i], &events, gone, anchor)),
            From::Events((kind, _, obj)) => {
                // The namespace as the events give it (cluster-scoped kinds have none in the key).
                let ns = events[0].namespace.clone();
                infer::from_events(&kind, &ns, &obj, &events, anchor)
            }
        };
        drop(events);
        if let Some((v, p)) = made {
            c.objects.push((line, v, Some(p)));
            c.emit(name, out);
        }
    }
}

/// The node controller's `NodeNotReady` on a pod says its node is not ready: the node, when
/// the paste does not show it, gets that much.
fn nodes_not_ready(c: &mut Collected, known: &HashSet<Key>) {
    let mut nodes_seen: HashSet<Str> = HashSet::new();
    for e in c.events.iter().filter(|e| e.reason == "NodeNotReady") {
        let pod: Key = ("Pod".into(), e.namespace.clone(), e.name.clone());
        let Some(node) = c.seen.get(&pod).and_then(|(n, _)| n.clone()) else {
            continue;
        };
        if known.contains(&("Node".into(), Str::default(), node.clone()))
            || !nodes_seen.insert(node.clone())
        {
            continue;
        }
        let (v, p) = infer::node_not_ready(&node, e);
        c.objects.push((e.line, v, Some(p)));
    }
}

/// Decoded one by one, each row freed as it goes: a paste's events are never held twice.
fn decode_events(name: &str, c: &mut Collected, out: &mut FileOut) {
    let events = std::mem::take(&mut c.events);
    let mut decoded = 0;
    for chunk in events.chunks {
        for e in chunk {
            crate::yaml::parse_value(name, e.line, e.to_json(decoded), out);
            decoded += 1;
        }
    }
}

/// `kubectl logs POD` output, per pod; other container output beside the one crashing pod is its
/// log (else a note per run of lines nothing recognised).
fn logs(name: &str, c: &mut Collected, out: &mut FileOut) {
    let mut crashing: Vec<(String, String)> = c
        .seen
        .iter()
        .filter(|((k, _, _), (_, crashed))| k == "Pod" && *crashed)
        .map(|((_, ns, n), _)| (ns.to_string(), n.to_string()))
        .collect();
    crashing.sort();
    let mut pod_logs: Vec<ContainerLog> = Vec::new();
    for (ns, pod, l) in std::mem::take(&mut c.pod_logs) {
        match pod_logs
            .iter_mut()
            .find(|p| p.namespace == ns && p.pod == pod)
        {
            Some(p) => p.tail.push(l),
            None => pod_logs.push(ContainerLog {
                origin: format!("{name} (kubectl logs {pod})"),
                namespace: ns,
                pod,
                container: String::new(),
                previous: false,
                tail: vec![l],
            }),
        }
    }
    for mut p in pod_logs {
        p.tail = crate::logs::tail_lines(&p.tail.join("\n"));
        out.logs.push(p);
    }
    let mut other = std::mem::take(&mut c.other);
    // Lines of a describe that no block took (`Containers:`, `  api:`, `Image:` before a
    // container's `State:`) are no container's output.
    other.retain(|(_, l)| !DESCRIBE_KEY.is_match(l));
    if other.is_empty() {
        return;
    }
    if let [(ns, pod)] = crashing.as_slice() {
        out.logs.push(ContainerLog {
            namespace: ns.clone(),
            pod: pod.clone(),
            container: String::new(),
            origin: format!(
                "{name} (pasted lines {}-{})",
                other[0].0,
                other[other.len() - 1].0
            ),
            previous: false,
            tail: crate::logs::tail_lines(
                &other
                    .iter()
                    .map(|(_, l)| format!("{l}\n"))
                    .collect::<String>(),
            ),
        });
    } else {
        // A line the message catalogue read (`Error from server (BadRequest): container "x" …
        // is waiting to start: …`) was not ignored, whatever no reader of objects made of it.
        let read: HashSet<u64> = out
            .pasted_messages
            .iter()
            .filter_map(|m| m.file_line().map(|(_, n)| n))
            .collect();
        other.retain(|(n, _)| !read.contains(n));
        if !other.is_empty() {
            note_unknown(name, &other, out);
        }
    }
}

/// Node log lines in the paste, read as a node bundle of their own.
fn node_log(name: &str, c: &mut Collected, anchor: Timestamp, out: &mut FileOut) {
    if c.node_log.is_empty() {
        return;
    }
    let mut bundle = kubewhy_model::node::NodeBundle {
        origin: name.to_string(),
        ..Default::default()
    };
    let text = c.node_log.join("\n");
    let mut warnings = Vec::new();
    crate::nodelog::parse_node_log(
        name,
        std::io::Cursor::new(text.as_bytes()),
        Some(anchor),
        &mut bundle,
        &mut warnings,
    );
    for w in warnings {
        out.warn(w);
    }
    out.bundles.push(bundle);
}

/// One note per run of lines nothing recognised.
fn note_unknown(name: &str, other: &[(u64, String)], out: &mut FileOut) {
    let mut start = other[0].0;
    let mut prev = start;
    let mut runs = Vec::new();
    for &(n, _) in &other[1..] {
        if n > prev + 1 {
            runs.push((start, prev));
            start = n;
        }
        prev = n;
    }
    runs.push((start, prev));
    for (a, b) in runs {
        // The position names the first line; a run of lines says where it ends.
        let what = if a == b {
            String::new()
        } else {
            format!("lines {a}-{b}: ")
        };
        out.warn(crate::warn_at(
            name,
            a,
            1,
            format!("{what}not kubectl output, an event or a log line kubewhy knows; ignored"),
        ));
    }
}
