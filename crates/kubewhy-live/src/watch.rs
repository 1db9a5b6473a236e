//! Watches for the flight recorder: pods, their events, and the objects whose deletion explains
//! a pod's (Jobs, ReplicaSets, StatefulSets, DaemonSets, Nodes, Namespaces). One watch per kind,
//! cluster-wide, through kube-runtime's watcher (re-listing after a 410, backing off on errors,
//! at most 5 s between attempts).
//!
//! A deletion that happens while a watch is down is not lost: after each (re)list, what was
//! known before and is absent from the new list is reported as deleted during the gap.

use crate::store::{Store, WatchStatus};
use crate::{RESOURCES, Resource};
use futures::StreamExt;
use jiff::Timestamp;
use kube::api::{Api, ApiResource, DynamicObject, PartialObjectMeta};
use kube::runtime::WatchStreamExt;
use kube::runtime::utils::{Backoff, ResetTimerBackoff};
use kube::runtime::watcher::{self, Event as WEvent};
use kubewhy_model::history::{ObjectRecord, OwnerLink, PodRecord, RecordedEvent, ScaleRecord};
use kubewhy_model::objects::{Condition, Meta, Pod};
use std::collections::{HashMap, HashSet};
use std::sync::Arc;
use tokio::sync::mpsc::UnboundedSender;

pub use kubewhy_model::history::Seen;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pod,
    Event,
    Job,
    Deployment,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Node,
    Namespace,
    Pdb,
}

impl Kind {
    /// The recorder's kinds, by resource name.
    fn of(plural: &str) -> Option<Kind> {
        Some(match plural {
            "pods" => Kind::Pod,
            "events" => Kind::Event,
            "jobs" => Kind::Job,
            "deployments" => Kind::Deployment,
            "replicasets" => Kind::ReplicaSet,
            "statefulsets" => Kind::StatefulSet,
            "daemonsets" => Kind::DaemonSet,
            "nodes" => Kind::Node,
            "namespaces" => Kind::Namespace,
            "poddisruptionbudgets" => Kind::Pdb,
            _ => return None,
        })
    }
    fn kind(self) -> &'static str {
        match self {
            Kind::Pod => "Pod",
            Kind::Event => "Event",
            Kind::Job => "Job",
            Kind::Deployment => "Deployment",
            Kind::ReplicaSet => "ReplicaSet",
            Kind::StatefulSet => "StatefulSet",
            Kind::DaemonSet => "DaemonSet",
            Kind::Node => "Node",
            Kind::Namespace => "Namespace",
            Kind::Pdb => "PodDisruptionBudget",
        }
    }
    fn name(self) -> &'static str {
        match self {
            Kind::Pod => "pods",
            Kind::Event => "events",
            Kind::Job => "jobs",
            Kind::Deployment => "deployments",
            Kind::ReplicaSet => "replicasets",
            Kind::StatefulSet => "statefulsets",
            Kind::DaemonSet => "daemonsets",
            Kind::Node => "nodes",
            Kind::Namespace => "namespaces",
            Kind::Pdb => "poddisruptionbudgets",
        }
    }
}

/// What to keep current: the findings' store, the recorder's channel, or both. One watch per
/// kind serves both.
pub struct Watchers {
    pub store: Option<Arc<Store>>,
    pub recorder: Option<UnboundedSender<Seen>>,
    /// Watch only these namespaces' objects (`watch -n`; cluster-scoped kinds stay
    /// cluster-wide); empty: the whole cluster. With a store, the store's own scope.
    pub namespaces: Vec<String>,
}

/// Runs every watch until the recorder's receiver is dropped (or forever, for the store alone).
pub async fn run(client: kube::Client, w: Watchers) {
    let mut tasks = Vec::new();
    let slots = match &w.store {
        Some(s) => s.slots(),
        None => crate::store::slots(&w.namespaces),
    };
    for (slot, (i, scope)) in slots.into_iter().enumerate() {
        let r = &RESOURCES[i];
        let rec = w
            .recorder
            .as_ref()
            .and_then(|tx| Kind::of(r.plural).map(|k| (k, tx.clone())));
        if w.store.is_none() && rec.is_none() {
            continue;
        }
        tasks.push(tokio::spawn(watch_resource(
            client.clone(),
            (slot, i, scope),
            w.store.clone(),
            rec,
        )));
    }
    futures::future::join_all(tasks).await;
}

/// The first of a kind's API versions the cluster serves, or why none can be watched.
async fn served(
    client: &kube::Client,
    r: &Resource,
    scope: Option<&str>,
) -> Result<&'static str, WatchStatus> {
    let (path, place) = match scope {
        Some(ns) => (
            format!("namespaces/{ns}/{}", r.plural),
            format!("in namespace {ns}"),
        ),
        None => (r.plural.to_string(), "in all namespaces".to_string()),
    };
    for prefix in r.prefixes {
        match crate::get(client, &format!("{prefix}/{path}?limit=1")).await {
            Ok(_) => return Ok(prefix),
            Err(crate::Failure::Status(404, _, _)) => continue,
            // RBAC answers before the API server could say 404: a group the cluster does not
            // serve (Argo not installed) is not "forbidden".
            Err(crate::Failure::Status(403, _, _))
                if *prefix != "/api/v1"
                    && matches!(
                        crate::get(client, prefix).await,
                        Err(crate::Failure::Status(404, _, _))
                    ) =>
            {
                continue;
            }
            Err(crate::Failure::Status(403, msg, _)) => {
                return Err(WatchStatus::Forbidden(crate::forbidden_message(
                    r.plural,
                    prefix,
                    "list, watch",
                    &place,
                    &msg,
                )));
            }
            // Anything else (5xx, timeouts): the watcher retries it with backoff.
            Err(_) => return Ok(r.prefixes[0]),
        }
    }
    Err(WatchStatus::NotServed)
}

async fn watch_resource(
    client: kube::Client,
    (index, kind, scope): (usize, usize, Option<String>),
    store: Option<Arc<Store>>,
    recorder: Option<(Kind, UnboundedSender<Seen>)>,
) {
    let r = &RESOURCES[kind];
    let prefix = match served(&client, r, scope.as_deref()).await {
        Ok(p) => p,
        Err(status) => {
            if let Some((kind, tx)) = &recorder {
                let _ = tx.send(Seen::Health {
                    kind: kind.name(),
                    error: Some(format!("{status:?}")),
                });
            }
            if let Some(s) = &store {
                s.set_status(index, status);
            }
            return;
        }
    };
    let ar = api_resource(r, prefix);
    if let Some(s) = &store {
        s.set_api_version(index, &ar.api_version);
    }
    let class = ErrorClass::default();
    let seed = (index as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15)
        ^ std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
    let mut stream = if crate::metadata_only(r.plural) {
        // Secrets and ConfigMaps: their metadata alone is listed and watched (no value ever
        // travels); the store reads them as objects whose keys were not read.
        let api: Api<PartialObjectMeta<DynamicObject>> = match &scope {
            Some(ns) if r.namespaced => Api::namespaced_with(client, ns, &ar),
            _ => Api::all_with(client, &ar),
        };
        let kind = r.kind;
        watcher::watcher(api, watcher::Config::default())
            .backoff(watch_backoff(class.clone(), seed))
            .map(move |item| item.map(|ev| metadata_event(ev, kind)))
            .boxed()
    } else {
        let api: Api<DynamicObject> = match &scope {
            Some(ns) if r.namespaced => Api::namespaced_with(client, ns, &ar),
            _ => Api::all_with(client, &ar),
        };
        watcher::watcher(api, watcher::Config::default())
            .backoff(watch_backoff(class.clone(), seed))
            .boxed()
    };
    let mut tracker = recorder.map(|(k, tx)| (Tracker::new(k), tx));
    while let Some(item) = stream.next().await {
        match item {
            Ok(ev) => {
                if let Some(s) = &store {
                    s.apply(index, &ev);
                }
                if let Some((t, tx)) = &mut tracker {
                    for seen in t.handle(ev, Timestamp::now()) {
                        if tx.send(seen).is_err() {
                            return; // the recorder stopped
                        }
                    }
                }
            }
            Err(e) => {
                let code = error_code(&e);
                class.set(code, retry_after(&e));
                if let Some(s) = &store {
                    s.failed(index, code, describe_error(&e, code));
                }
                if let Some((t, tx)) = &tracker
                    && tx
                        .send(Seen::Health {
                            kind: t.kind.name(),
                            error: Some(e.to_string()),
                        })
                        .is_err()
                {
                    return;
                }
            }
        }
    }
}

/// A metadata-only watch's event as the store takes it: the object with its metadata alone,
/// apiVersion `meta.k8s.io/v1` (its keys were not read).
fn metadata_event(
    ev: WEvent<PartialObjectMeta<DynamicObject>>,
    kind: &str,
) -> WEvent<DynamicObject> {
    let object = |p: PartialObjectMeta<DynamicObject>| DynamicObject {
        types: Some(kube::api::TypeMeta {
            api_version: kubewhy_model::objects::METADATA_ONLY.into(),
            kind: kind.into(),
        }),
        metadata: p.metadata,
        data: serde_json::json!({}),
    };
    match ev {
        WEvent::Apply(p) => WEvent::Apply(object(p)),
        WEvent::Delete(p) => WEvent::Delete(object(p)),
        WEvent::InitApply(p) => WEvent::InitApply(object(p)),
        WEvent::Init => WEvent::Init,
        WEvent::InitDone => WEvent::InitDone,
    }
}

/// `/apis/batch/v1` → group `batch`, version `v1`.
fn api_resource(r: &Resource, prefix: &str) -> ApiResource {
    let (group, version, gv) = crate::group_version(prefix);
    ApiResource {
        group: group.into(),
        version: version.into(),
        api_version: gv.into(),
        kind: r.kind.into(),
        plural: r.plural.into(),
    }
}

/// The JSON of a dynamic object, read into one of kubewhy's slim views.
fn slim<T: serde::de::DeserializeOwned + Default>(o: &DynamicObject) -> T {
    serde_json::to_value(o)
        .ok()
        .and_then(|v| serde_json::from_value(v).ok())
        .unwrap_or_default()
}

#[derive(serde::Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct SlimJob {
    metadata: Meta,
    spec: JobSpec,
    status: JobStatus,
}

#[derive(serde::Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct JobSpec {
    ttl_seconds_after_finished: Option<i64>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct JobStatus {
    conditions: Vec<Condition>,
    #[serde(deserialize_with = "kubewhy_model::objects::lenient_time")]
    completion_time: Option<Timestamp>,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct MetaOnly {
    metadata: Meta,
}

fn object_record(kind: Kind, o: &DynamicObject) -> ObjectRecord {
    let (meta, ttl, finished) = if kind == Kind::Job {
        let j: SlimJob = slim(o);
        let finished = j.status.completion_time.or_else(|| {
            j.status
                .conditions
                .iter()
                .find(|c| (c.type_ == "Complete" || c.type_ == "Failed") && c.status == "True")
                .and_then(|c| c.last_transition_time)
        });
        (j.metadata, j.spec.ttl_seconds_after_finished, finished)
    } else {
        (slim::<MetaOnly>(o).metadata, None, None)
    };
    ObjectRecord {
        kind: kind.kind().to_string(),
        namespace: meta.ns().to_string(),
        name: meta.name.to_string(),
        uid: meta.uid.to_string(),
        owner: meta.controller().map(|c| OwnerLink {
            kind: c.kind.to_string(),
            name: c.name.to_string(),
            uid: c.uid.to_string(),
        }),
        deleted: None,
        ttl_seconds_after_finished: ttl,
        finished,
    }
}

/// The newest state of a pod, keeping when its deletion was first seen (the final object of a
/// graceful deletion may carry a grace period of 0: the kubelet's closing request).
fn merge_pod(old: Option<&PodRecord>, mut new: PodRecord) -> PodRecord {
    if let Some(o) = old
        && o.deletion_seen.is_some()
    {
        new.deletion_seen = o.deletion_seen;
        new.deletion_grace = o.deletion_grace;
    }
    new
}

/// What one watch remembers, and what each watch event means for the recorder. Pure state, so
/// gap detection and event de-duplication are tested without a cluster.
struct Tracker {
    kind: Kind,
    pods: HashMap<String, PodRecord>,
    objects: HashMap<String, ObjectRecord>,
    /// Event uid → count last sent, so an unchanged resync is not written again.
    event_counts: HashMap<String, i64>,
    /// During a (re)list: the uids listed so far.
    relist: Option<HashSet<String>>,
    /// Evictions already reported: (namespace, pod, time).
    evictions: HashSet<(String, String, String)>,
    /// Desired replicas last seen, by uid (Deployments, ReplicaSets, StatefulSets).
    replicas: HashMap<String, i64>,
}

impl Tracker {
    fn new(kind: Kind) -> Self {
        Tracker {
            kind,
            pods: HashMap::new(),
            objects: HashMap::new(),
            event_counts: HashMap::new(),
            relist: None,
            evictions: HashSet::new(),
            replicas: HashMap::new(),
        }
    }

    /// What a watch event means, as of `now`.
    fn handle(&mut self, ev: WEvent<DynamicObject>, now: Timestamp) -> Vec<Seen> {
        let mut out = Vec::new();
        match ev {
            WEvent::Init => {
                self.relist = Some(HashSet::new());
                out.push(Seen::Health {
                    kind: self.kind.name(),
                    error: None,
                });
            }
            WEvent::InitApply(o) | WEvent::Apply(o) => self.applied(&o, now, &mut out),
            WEvent::InitDone => self.listed(now, &mut out),
            WEvent::Delete(o) => self.deleted(&o, now, &mut out),
        }
        out
    }

    /// An object listed, added or changed.
    fn applied(&mut self, o: &DynamicObject, now: Timestamp, out: &mut Vec<Seen>) {
        let kind = self.kind;
        let uid = o.metadata.uid.clone().unwrap_or_default();
        let listing = self.relist.is_some();
        if let Some(seen) = self.relist.as_mut() {
            seen.insert(uid.clone());
        }
        match kind {
            Kind::Pod => {
                let p: Pod = slim(o);
                let rec = merge_pod(self.pods.get(&uid), PodRecord::from_pod(&p));
                self.pods.insert(uid, rec);
            }
            Kind::Event => out.extend(self.event(uid, o)),
            Kind::Pdb => self.budget(o, out),
            _ => {
                if matches!(
                    kind,
                    Kind::Deployment | Kind::ReplicaSet | Kind::StatefulSet
                ) && let Some(seen) = self.scaled(kind, &uid, o, listing, now)
                {
                    out.push(seen);
                }
                self.objects.insert(uid, object_record(kind, o));
            }
        }
    }

    /// An event about a pod, when new or its count went up; a controller's "Deleted pod: NAME",
    /// kept for that pod by name (the correlator folds them into one event whose message names
    /// the last).
    fn event(&mut self, uid: String, o: &DynamicObject) -> Option<Seen> {
        let e = serde_json::to_value(o)
            .ok()
            .and_then(kubewhy_source::core_event)
            .unwrap_or_default();
        let recorded = |e: &kubewhy_model::objects::Event| RecordedEvent {
            time: e.last_time.or(e.first_time),
            type_: e.type_.to_string(),
            reason: e.reason.to_string(),
            source: e.source.to_string(),
            message: e.message.to_string(),
            count: e.count,
        };
        let deleted = (e.reason == "SuccessfulDelete")
            .then(|| kubewhy_model::messages::controller::deleted_pod(&e.message))
            .flatten()
            .map(str::to_string);
        if let Some(pod) = deleted {
            let key = format!("{uid}/{pod}");
            if self.event_counts.contains_key(&key) {
                return None;
            }
            self.event_counts.insert(key.clone(), e.count);
            return Some(Seen::PodEvent {
                event_uid: key,
                pod_uid: String::new(),
                namespace: e.namespace.to_string(),
                pod,
                event: recorded(&e),
            });
        }
        if e.involved.kind != "Pod" || self.event_counts.get(&uid) == Some(&e.count) {
            return None;
        }
        self.event_counts.insert(uid.clone(), e.count);
        Some(Seen::PodEvent {
            event_uid: uid,
            pod_uid: e.involved.uid.to_string(),
            namespace: e.involved.namespace.to_string(),
            pod: e.involved.name.to_string(),
            event: recorded(&e),
        })
    }

    /// The pods a PodDisruptionBudget's `status.disruptedPods` names, each once.
    fn budget(&mut self, o: &DynamicObject, out: &mut Vec<Seen>) {
        let b: kubewhy_model::objects::PodDisruptionBudget = slim(o);
        // Bounded: entries live for seconds; old ones need not be remembered.
        if self.evictions.len() > 10_000 {
            self.evictions.clear();
        }
        for (pod, at) in &b.status.disrupted_pods {
            let key = (b.metadata.ns().to_string(), pod.to_string(), at.to_string());
            if self.evictions.insert(key.clone()) {
                out.push(Seen::Evicted {
                    namespace: key.0,
                    pod: key.1,
                    pdb: b.metadata.name.to_string(),
                    at: key.2,
                });
            }
        }
    }

    /// A (re)list finished: what was known before it and is absent from it was deleted while
    /// the watch was down. (An InitDone with no list in progress lists nothing: it deletes
    /// nothing.)
    fn listed(&mut self, now: Timestamp, out: &mut Vec<Seen>) {
        let Some(seen) = self.relist.take() else {
            return;
        };
        match self.kind {
            Kind::Pod => {
                for (_, mut rec) in self.pods.extract_if(|u, _| !seen.contains(u)) {
                    rec.deleted = Some(now);
                    rec.deleted_in_gap = true;
                    out.push(Seen::PodGone(Box::new(rec)));
                }
            }
            Kind::Event => self
                .event_counts
                .retain(|u, _| seen.contains(u.split('/').next().unwrap_or(u))),
            Kind::Pdb => {}
            _ => {
                for (_, mut rec) in self.objects.extract_if(|u, _| !seen.contains(u)) {
                    rec.deleted = Some(now);
                    out.push(Seen::ObjectGone(Box::new(rec)));
                }
            }
        }
    }

    /// An object deleted.
    fn deleted(&mut self, o: &DynamicObject, now: Timestamp, out: &mut Vec<Seen>) {
        let uid = o.metadata.uid.clone().unwrap_or_default();
        match self.kind {
            Kind::Pod => {
                let p: Pod = slim(o);
                let mut rec = merge_pod(self.pods.remove(&uid).as_ref(), PodRecord::from_pod(&p));
                rec.deleted = Some(now);
                out.push(Seen::PodGone(Box::new(rec)));
            }
            Kind::Event => {
                let prefix = format!("{uid}/");
                self.event_counts
                    .retain(|u, _| *u != uid && !u.starts_with(&prefix));
            }
            Kind::Pdb => {}
            kind => {
                self.objects.remove(&uid);
                self.replicas.remove(&uid);
                let mut rec = object_record(kind, o);
                rec.deleted = Some(now);
                out.push(Seen::ObjectGone(Box::new(rec)));
            }
        }
    }
}

impl Tracker {
    /// A change of desired replicas seen on a Deployment, ReplicaSet or StatefulSet (or a new
    /// one that wants pods, seen outside a list: a rollout's ReplicaSet), with the field
    /// manager that last set `spec.replicas`.
    fn scaled(
        &mut self,
        kind: Kind,
        uid: &str,
        o: &DynamicObject,
        listing: bool,
        now: Timestamp,
    ) -> Option<Seen> {
        let to = o.data.get("spec")?.get("replicas")?.as_i64()?;
        let from = match self.replicas.insert(uid.to_string(), to) {
            Some(from) => from,
            // Known from before, or listed: nothing changed that the recorder saw.
            None if listing || kind != Kind::ReplicaSet => return None,
            None => 0,
        };
        if from == to {
            return None;
        }
        let meta = slim::<MetaOnly>(o).metadata;
        Some(Seen::Scaled(Box::new(ScaleRecord {
            kind: kind.kind().to_string(),
            namespace: meta.ns().to_string(),
            name: meta.name.to_string(),
            uid: uid.to_string(),
            owner: meta.controller().map(|c| OwnerLink {
                kind: c.kind.to_string(),
                name: c.name.to_string(),
                uid: c.uid.to_string(),
            }),
            from,
            to,
            at: Some(now),
            by: replicas_manager(o, now),
        })))
    }
}

/// The field manager whose managedFields entry owns `spec.replicas` and was written at the
/// moment of the change (the latest if several). A scale through the `/scale` subresource left
/// no entry before Kubernetes 1.21: the entry is then the creator's, older than the change,
/// and names nobody.
fn replicas_manager(o: &DynamicObject, now: Timestamp) -> String {
    o.metadata
        .managed_fields
        .iter()
        .flatten()
        .filter(|m| {
            m.fields_v1
                .as_ref()
                .and_then(|f| f.0.get("f:spec"))
                .is_some_and(|spec| spec.get("f:replicas").is_some())
        })
        .filter_map(|m| Some((m.time.as_ref()?.0, m.manager.clone()?)))
        .max_by_key(|(t, _)| *t)
        .filter(|(t, _)| now.as_second() - t.as_second() <= 60)
        .map(|(_, m)| m)
        .unwrap_or_default()
}

/// What the last error of a watch was, shared by the watch loop (which sees the error) and its
/// back-off (which chooses the next delay): its class, and the seconds a 429 asked to wait.
#[derive(Clone, Default)]
pub(crate) struct ErrorClass(
    Arc<std::sync::atomic::AtomicU8>,
    Arc<std::sync::atomic::AtomicU32>,
);

impl ErrorClass {
    const OTHER: u8 = 0;
    /// 401 or 403: credentials rejected or permission missing; retrying soon changes nothing.
    const DENIED: u8 = 1;
    /// 429: the API server asks clients to slow down.
    const THROTTLED: u8 = 2;

    /// `retry_after`: the seconds the API server asked for (a 429's `Retry-After`, which it
    /// also writes in the Status as `details.retryAfterSeconds`).
    fn set(&self, code: Option<u16>, retry_after: Option<u32>) {
        let c = match code {
            Some(401 | 403) => Self::DENIED,
            Some(429) => Self::THROTTLED,
            _ => Self::OTHER,
        };
        self.0.store(c, std::sync::atomic::Ordering::Relaxed);
        self.1.store(
            retry_after.unwrap_or(0),
            std::sync::atomic::Ordering::Relaxed,
        );
    }
    fn get(&self) -> u8 {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
    fn retry_after(&self) -> u32 {
        self.1.load(std::sync::atomic::Ordering::Relaxed)
    }
}

/// The seconds the API server asked a client to wait before retrying, from the Status it
/// answered with (kube-rs hands the body, not the `Retry-After` header; the API server writes
/// the same number in both).
pub(crate) fn retry_after(e: &watcher::Error) -> Option<u32> {
    let s = match e {
        watcher::Error::InitialListFailed(kube::Error::Api(s))
        | watcher::Error::WatchStartFailed(kube::Error::Api(s))
        | watcher::Error::WatchFailed(kube::Error::Api(s)) => s,
        watcher::Error::WatchError(s) => s,
        _ => return None,
    };
    s.details
        .as_ref()
        .map(|d| d.retry_after_seconds)
        .filter(|&n| n > 0)
}

/// The HTTP status of a watch error, when the API server answered.
pub(crate) fn error_code(e: &watcher::Error) -> Option<u16> {
    match e {
        watcher::Error::InitialListFailed(kube::Error::Api(s))
        | watcher::Error::WatchStartFailed(kube::Error::Api(s))
        | watcher::Error::WatchFailed(kube::Error::Api(s)) => Some(s.code),
        watcher::Error::WatchError(s) => Some(s.code),
        _ => None,
    }
}

/// A watch error in one line, without kube's debug dump of the API server's Status.
fn describe_error(e: &watcher::Error, code: Option<u16>) -> String {
    let status = match e {
        watcher::Error::InitialListFailed(kube::Error::Api(s))
        | watcher::Error::WatchStartFailed(kube::Error::Api(s))
        | watcher::Error::WatchFailed(kube::Error::Api(s)) => Some(s),
        watcher::Error::WatchError(s) => Some(s),
        _ => None,
    };
    match (code, status) {
        (Some(401), _) => "HTTP 401 Unauthorized: the API server rejects the credentials".into(),
        (Some(403), Some(s)) => format!("HTTP 403 Forbidden: {}", s.message),
        (Some(429), _) => {
            "HTTP 429 Too Many Requests: the API server asks clients to slow down".into()
        }
        (Some(c), Some(s)) => format!("HTTP {c} {}: {}", s.reason, s.message),
        // The same words whether the list or the watch failed to start.
        _ => match e {
            watcher::Error::InitialListFailed(k)
            | watcher::Error::WatchStartFailed(k)
            | watcher::Error::WatchFailed(k) => format!("no answer from the API server: {k}"),
            e => e.to_string(),
        },
    }
}

/// One retry policy for every watch: exponential with jitter, by what failed — 0.5 s doubling
/// to 5 s for a dropped connection or a 5xx (a recorder is blind while it waits), 1 s to 60 s
/// for a 429, 5 s to 5 min for a 401 or 403 (rejected credentials are not fixed by hammering
/// the API server: a few requests a minute after the first minute). Back to the start after two
/// quiet minutes (`ResetTimerBackoff`).
pub(crate) struct WatchBackoff {
    class: ErrorClass,
    /// The class the current run of attempts is for, and how many there were.
    run: (u8, u32),
    seed: u64,
}

impl WatchBackoff {
    fn bounds(class: u8) -> (std::time::Duration, std::time::Duration) {
        use std::time::Duration;
        match class {
            ErrorClass::DENIED => (Duration::from_secs(5), Duration::from_secs(300)),
            ErrorClass::THROTTLED => (Duration::from_secs(1), Duration::from_secs(60)),
            _ => (Duration::from_millis(500), Duration::from_secs(5)),
        }
    }

    /// A number in [0, 1): xorshift, seeded per watch (no dependency for a jitter).
    fn unit(&mut self) -> f64 {
        self.seed ^= self.seed << 13;
        self.seed ^= self.seed >> 7;
        self.seed ^= self.seed << 17;
        (self.seed >> 11) as f64 / (1u64 << 53) as f64
    }
}

impl Iterator for WatchBackoff {
    type Item = std::time::Duration;
    fn next(&mut self) -> Option<std::time::Duration> {
        let class = self.class.get();
        if self.run.0 != class {
            self.run = (class, 0);
        }
        let (min, max) = Self::bounds(class);
        let d = min.saturating_mul(1 << self.run.1.min(16)).min(max);
        self.run.1 += 1;
        // A 429's Retry-After is a floor (up to 10 min): never sooner than asked, then spread
        // over the next fifth so that the watches throttled together do not return together.
        let asked = std::time::Duration::from_secs(u64::from(self.class.retry_after().min(600)));
        if class == ErrorClass::THROTTLED && asked > d {
            return Some(asked.mul_f64(1.0 + 0.2 * self.unit()));
        }
        // ±20 %, so that many watches refused at once do not retry in step.
        Some(d.mul_f64(0.8 + 0.4 * self.unit()))
    }
}

impl Backoff for WatchBackoff {
    fn reset(&mut self) {
        self.run = (ErrorClass::OTHER, 0);
        self.class.set(None, None);
    }
}

pub(crate) fn watch_backoff(class: ErrorClass, seed: u64) -> ResetTimerBackoff<WatchBackoff> {
    ResetTimerBackoff::new(
        WatchBackoff {
            class,
            run: (ErrorClass::OTHER, 0),
            seed: seed | 1,
        },
        std::time::Duration::from_secs(120),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn obj(kind: Kind, json: serde_json::Value) -> DynamicObject {
        let mut v = json;
        v["apiVersion"] = if kind == Kind::Job { "batch/v1" } else { "v1" }.into();
        v["kind"] = kind.kind().into();
        serde_json::from_value(v).unwrap()
    }

    fn pod(uid: &str, extra: serde_json::Value) -> DynamicObject {
        let mut meta =
            serde_json::json!({"name": format!("p-{uid}"), "namespace": "shop", "uid": uid});
        if let Some(m) = extra.as_object() {
            for (k, v) in m {
                meta[k] = v.clone();
            }
        }
        obj(
            Kind::Pod,
            serde_json::json!({"metadata": meta, "spec": {"nodeName": "node-1"}, "status": {"phase": "Running"}}),
        )
    }

    fn now() -> Timestamp {
        "2026-11-23T10:00:00Z".parse().unwrap()
    }

    #[test]
    fn a_pod_deleted_while_the_watch_was_down_is_reported_at_the_relist() {
        let mut t = Tracker::new(Kind::Pod);
        t.handle(WEvent::Init, now());
        t.handle(WEvent::InitApply(pod("a", serde_json::json!({}))), now());
        t.handle(WEvent::InitApply(pod("b", serde_json::json!({}))), now());
        t.handle(WEvent::InitDone, now());
        // The watch drops; b is deleted meanwhile; the re-list shows only a.
        t.handle(WEvent::Init, now());
        t.handle(WEvent::InitApply(pod("a", serde_json::json!({}))), now());
        let seen = t.handle(WEvent::InitDone, now());
        assert_eq!(seen.len(), 1);
        let Seen::PodGone(r) = &seen[0] else {
            panic!("{seen:?}")
        };
        assert_eq!(
            (r.name.as_str(), r.deleted_in_gap, r.deleted),
            ("p-b", true, Some(now()))
        );
        assert!(
            t.handle(WEvent::InitDone, now()).is_empty(),
            "reported once"
        );
    }

    #[test]
    fn a_graceful_deletion_keeps_when_it_was_first_seen() {
        let mut t = Tracker::new(Kind::Pod);
        t.handle(WEvent::Apply(pod("a", serde_json::json!({}))), now());
        t.handle(
            WEvent::Apply(pod("a", serde_json::json!({"deletionTimestamp": "2026-11-23T09:59:30Z", "deletionGracePeriodSeconds": 30}))),
            now(),
        );
        // The kubelet's closing delete: grace 0.
        let seen = t.handle(
            WEvent::Delete(pod("a", serde_json::json!({"deletionTimestamp": "2026-11-23T09:59:10Z", "deletionGracePeriodSeconds": 0}))),
            now(),
        );
        let Seen::PodGone(r) = &seen[0] else {
            panic!("{seen:?}")
        };
        assert_eq!(r.deletion_grace, Some(30));
        assert_eq!(r.deletion_seen, "2026-11-23T09:59:00Z".parse().ok());
        assert!(!r.deleted_in_gap);
    }

    #[test]
    fn pod_events_are_sent_when_new_or_counted_again_only() {
        let mut t = Tracker::new(Kind::Event);
        let ev = |count: i64, kind: &str| {
            obj(
                Kind::Event,
                serde_json::json!({
                    "metadata": {"name": "e", "namespace": "shop", "uid": "e1"},
                    "involvedObject": {"kind": kind, "name": "p-a", "namespace": "shop", "uid": "a"},
                    "reason": "BackOff", "message": "Back-off restarting failed container", "type": "Warning",
                    "count": count, "source": {"component": "kubelet"},
                    "lastTimestamp": "2026-11-23T09:59:00Z"
                }),
            )
        };
        assert_eq!(t.handle(WEvent::Apply(ev(1, "Pod")), now()).len(), 1);
        assert!(
            t.handle(WEvent::Apply(ev(1, "Pod")), now()).is_empty(),
            "a resync is not news"
        );
        let seen = t.handle(WEvent::Apply(ev(4, "Pod")), now());
        let Seen::PodEvent { pod_uid, event, .. } = &seen[0] else {
            panic!("{seen:?}")
        };
        assert_eq!(
            (pod_uid.as_str(), event.count, event.source.as_str()),
            ("a", 4, "kubelet")
        );
        let mut t = Tracker::new(Kind::Event);
        assert!(t.handle(WEvent::Apply(ev(1, "Node")), now()).is_empty());
    }

    #[test]
    fn a_controllers_deleted_pod_event_is_kept_for_each_pod_it_names() {
        let mut t = Tracker::new(Kind::Event);
        let ev = |count: i64, msg: &str| {
            obj(
                Kind::Event,
                serde_json::json!({
                    "metadata": {"name": "big-0-5d8f.1", "namespace": "scale", "uid": "e9"},
                    "involvedObject": {"kind": "ReplicaSet", "name": "big-0-5d8f", "namespace": "scale", "uid": "rs"},
                    "reason": "SuccessfulDelete", "message": msg, "type": "Normal",
                    "count": count, "source": {"component": "replicaset-controller"},
                    "lastTimestamp": "2026-11-23T09:59:00Z"
                }),
            )
        };
        let first = t.handle(WEvent::Apply(ev(1, "Deleted pod: big-0-5d8f-a")), now());
        // The correlator folds the next ones into the same event, naming the latest pod.
        let second = t.handle(
            WEvent::Apply(ev(
                12,
                "(combined from similar events): Deleted pod: big-0-5d8f-b",
            )),
            now(),
        );
        let pods: Vec<(String, String, String)> = first
            .iter()
            .chain(&second)
            .map(|s| match s {
                Seen::PodEvent {
                    event_uid,
                    pod_uid,
                    pod,
                    ..
                } => (event_uid.clone(), pod_uid.clone(), pod.clone()),
                other => panic!("{other:?}"),
            })
            .collect();
        assert_eq!(
            pods,
            [
                (
                    "e9/big-0-5d8f-a".into(),
                    String::new(),
                    "big-0-5d8f-a".into()
                ),
                (
                    "e9/big-0-5d8f-b".into(),
                    String::new(),
                    "big-0-5d8f-b".into()
                )
            ]
        );
    }

    #[test]
    fn replica_changes_are_seen_with_the_manager_that_made_them() {
        let mut t = Tracker::new(Kind::Deployment);
        let deploy = |replicas: i64, manager_time: &str| {
            serde_json::from_value::<DynamicObject>(serde_json::json!({
                "apiVersion": "apps/v1", "kind": "Deployment",
                "metadata": {"name": "big-0", "namespace": "scale", "uid": "d0",
                    "managedFields": [{"manager": "kubectl-edit", "operation": "Update", "apiVersion": "apps/v1",
                        "time": manager_time, "fieldsType": "FieldsV1",
                        "fieldsV1": {"f:spec": {"f:replicas": {}}}}]},
                "spec": {"replicas": replicas}
            }))
            .unwrap()
        };
        // Listed: known, nothing changed.
        t.handle(WEvent::Init, now());
        assert!(
            t.handle(
                WEvent::InitApply(deploy(200, "2026-11-20T00:00:00Z")),
                now()
            )
            .iter()
            .all(|s| matches!(s, Seen::Health { .. }))
        );
        t.handle(WEvent::InitDone, now());
        let seen = t.handle(WEvent::Apply(deploy(0, "2026-11-23T09:59:58Z")), now());
        let [Seen::Scaled(s)] = seen.as_slice() else {
            panic!("{seen:?}")
        };
        assert_eq!(
            (
                s.kind.as_str(),
                s.name.as_str(),
                s.from,
                s.to,
                s.by.as_str()
            ),
            ("Deployment", "big-0", 200, 0, "kubectl-edit")
        );
        // A scale through /scale left the creator's old entry: it names nobody.
        let seen = t.handle(WEvent::Apply(deploy(5, "2026-11-20T00:00:00Z")), now());
        let [Seen::Scaled(s)] = seen.as_slice() else {
            panic!("{seen:?}")
        };
        assert_eq!((s.from, s.to, s.by.as_str()), (0, 5, ""));
        // A ReplicaSet a rollout creates counts as scaled up from nothing.
        let mut t = Tracker::new(Kind::ReplicaSet);
        let rs = serde_json::from_value::<DynamicObject>(serde_json::json!({
            "apiVersion": "apps/v1", "kind": "ReplicaSet",
            "metadata": {"name": "web-7b9c", "namespace": "shop", "uid": "r2",
                "ownerReferences": [{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web", "uid": "d", "controller": true}]},
            "spec": {"replicas": 1}
        }))
        .unwrap();
        let seen = t.handle(WEvent::Apply(rs), now());
        let [Seen::Scaled(s)] = seen.as_slice() else {
            panic!("{seen:?}")
        };
        assert_eq!((s.from, s.to), (0, 1));
        assert_eq!(s.owner.as_ref().map(|o| o.name.as_str()), Some("web"));
    }

    #[test]
    fn a_deleted_job_keeps_its_ttl_and_cronjob() {
        let mut t = Tracker::new(Kind::Job);
        let job = obj(
            Kind::Job,
            serde_json::json!({
                "metadata": {"name": "tick-1", "namespace": "shop", "uid": "j1",
                    "ownerReferences": [{"apiVersion": "batch/v1", "kind": "CronJob", "name": "tick", "uid": "c1", "controller": true}]},
                "spec": {"ttlSecondsAfterFinished": 60},
                "status": {"completionTime": "2026-11-23T09:58:00Z"}
            }),
        );
        let seen = t.handle(WEvent::Delete(job), now());
        let Seen::ObjectGone(r) = &seen[0] else {
            panic!("{seen:?}")
        };
        assert_eq!(r.kind, "Job");
        assert_eq!(r.owner.as_ref().map(|o| o.name.as_str()), Some("tick"));
        assert_eq!(r.ttl_seconds_after_finished, Some(60));
        assert_eq!(r.finished, "2026-11-23T09:58:00Z".parse().ok());
        assert_eq!(r.deleted, Some(now()));
    }

    #[test]
    fn retries_back_off_by_what_failed() {
        let class = ErrorClass::default();
        let mut b = watch_backoff(class.clone(), 7);
        let ms = |b: &mut ResetTimerBackoff<WatchBackoff>| b.next().unwrap().as_millis() as u64;
        // A dropped connection: 0.5 s doubling to 5 s, ±20 %.
        let d: Vec<u64> = (0..6).map(|_| ms(&mut b)).collect();
        for (got, want) in d.iter().zip([500u64, 1000, 2000, 4000, 5000, 5000]) {
            assert!(*got >= want * 8 / 10 && *got <= want * 12 / 10, "{d:?}");
        }
        // Rejected credentials: 5 s doubling to 5 min; after the first minute, a few a minute.
        class.set(Some(401), None);
        let d: Vec<u64> = (0..10).map(|_| ms(&mut b)).collect();
        for (got, want) in d.iter().zip([
            5_000u64, 10_000, 20_000, 40_000, 80_000, 160_000, 300_000, 300_000,
        ]) {
            assert!(*got >= want * 8 / 10 && *got <= want * 12 / 10, "{d:?}");
        }
        let first_ten_minutes = {
            let (mut t, mut n) = (0u64, 0);
            let mut b = watch_backoff(class.clone(), 11);
            while t < 600_000 {
                t += ms(&mut b);
                n += 1;
            }
            n
        };
        assert!(
            first_ten_minutes <= 10,
            "{first_ten_minutes} requests in ten minutes"
        );
        // Throttled: 1 s doubling to 60 s.
        class.set(Some(429), None);
        let d = ms(&mut b);
        assert!((800..=1200).contains(&d), "{d}");
        // ... unless the API server asked for longer (Retry-After): never sooner.
        class.set(Some(429), Some(30));
        let d = ms(&mut b);
        assert!((30_000..=36_000).contains(&d), "{d}");
        class.set(Some(429), None);
        b.reset();
        let d = ms(&mut b);
        assert!((400..=600).contains(&d), "{d}");
    }

    /// The 429 that API Priority and Fairness answers, as the API server writes it.
    #[test]
    fn a_throttled_answer_says_how_long_to_wait() {
        let status: kube::core::Status = serde_json::from_str(
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Too many requests, please try again later.","reason":"TooManyRequests","details":{"retryAfterSeconds":4},"code":429}"#,
        )
        .unwrap();
        let e = watcher::Error::InitialListFailed(kube::Error::Api(Box::new(status)));
        assert_eq!((error_code(&e), retry_after(&e)), (Some(429), Some(4)));
        let status: kube::core::Status = serde_json::from_str(
            r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Unauthorized","reason":"Unauthorized","code":401}"#,
        )
        .unwrap();
        let e = watcher::Error::WatchFailed(kube::Error::Api(Box::new(status)));
        assert_eq!((error_code(&e), retry_after(&e)), (Some(401), None));
    }
}
