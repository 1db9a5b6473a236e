//! Watches for the flight recorder: pods, their events, and the objects whose deletion explains
//! a pod's (Jobs, ReplicaSets, StatefulSets, DaemonSets, Nodes, Namespaces). One watch per kind,
//! cluster-wide, through kube-runtime's watcher (re-listing after a 410, backing off on errors).
//!
//! A deletion that happens while a watch is down is not lost: after each (re)list, what was
//! known before and is absent from the new list is reported as deleted during the gap.

use futures::StreamExt;
use jiff::Timestamp;
use kube::api::{Api, ApiResource, DynamicObject};
use kube::runtime::WatchStreamExt;
use kube::runtime::watcher::{self, Event as WEvent};
use kubewhy_model::history::{ObjectRecord, OwnerLink, PodRecord, RecordedEvent};
use kubewhy_model::objects::{Condition, Meta, Pod};
use std::collections::{HashMap, HashSet};
use tokio::sync::mpsc::UnboundedSender;

/// What the watches saw that the recorder keeps.
#[derive(Debug, Clone)]
pub enum Seen {
    /// A pod is gone: its last known state.
    PodGone(Box<PodRecord>),
    /// An event about a pod (new, or its count went up).
    PodEvent {
        event_uid: String,
        pod_uid: String,
        namespace: String,
        pod: String,
        event: RecordedEvent,
    },
    /// An owner, node or namespace is gone.
    ObjectGone(Box<ObjectRecord>),
    /// A watch (re)started listing, or failed: `kind`, and the error if any.
    Health {
        kind: &'static str,
        error: Option<String>,
    },
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Pod,
    Event,
    Job,
    ReplicaSet,
    StatefulSet,
    DaemonSet,
    Node,
    Namespace,
}

impl Kind {
    fn resource(self) -> ApiResource {
        let (group, version, kind, plural) = match self {
            Kind::Pod => ("", "v1", "Pod", "pods"),
            Kind::Event => ("", "v1", "Event", "events"),
            Kind::Job => ("batch", "v1", "Job", "jobs"),
            Kind::ReplicaSet => ("apps", "v1", "ReplicaSet", "replicasets"),
            Kind::StatefulSet => ("apps", "v1", "StatefulSet", "statefulsets"),
            Kind::DaemonSet => ("apps", "v1", "DaemonSet", "daemonsets"),
            Kind::Node => ("", "v1", "Node", "nodes"),
            Kind::Namespace => ("", "v1", "Namespace", "namespaces"),
        };
        ApiResource {
            group: group.into(),
            version: version.into(),
            api_version: if group.is_empty() {
                version.into()
            } else {
                format!("{group}/{version}")
            },
            kind: kind.into(),
            plural: plural.into(),
        }
    }
    fn name(self) -> &'static str {
        match self {
            Kind::Pod => "pods",
            Kind::Event => "events",
            Kind::Job => "jobs",
            Kind::ReplicaSet => "replicasets",
            Kind::StatefulSet => "statefulsets",
            Kind::DaemonSet => "daemonsets",
            Kind::Node => "nodes",
            Kind::Namespace => "namespaces",
        }
    }
}

/// Runs every watch until the receiver is dropped.
pub async fn watch_for_recorder(client: kube::Client, tx: UnboundedSender<Seen>) {
    let kinds = [
        Kind::Pod,
        Kind::Event,
        Kind::Job,
        Kind::ReplicaSet,
        Kind::StatefulSet,
        Kind::DaemonSet,
        Kind::Node,
        Kind::Namespace,
    ];
    let tasks = kinds
        .into_iter()
        .map(|k| tokio::spawn(watch_kind(client.clone(), k, tx.clone())));
    futures::future::join_all(tasks).await;
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
struct SlimEvent {
    metadata: Meta,
    involved_object: Involved,
    reason: String,
    message: String,
    #[serde(rename = "type")]
    type_: String,
    count: Option<i64>,
    #[serde(deserialize_with = "kubewhy_model::objects::lenient_time")]
    last_timestamp: Option<Timestamp>,
    #[serde(deserialize_with = "kubewhy_model::objects::lenient_time")]
    event_time: Option<Timestamp>,
    source: EventSource,
    reporting_component: String,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct Involved {
    kind: String,
    namespace: String,
    name: String,
    uid: String,
}

#[derive(serde::Deserialize, Default)]
#[serde(default)]
struct EventSource {
    component: String,
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
        kind: kind.resource().kind,
        namespace: meta.ns().to_string(),
        name: meta.name.clone(),
        uid: meta.uid.clone(),
        owner: meta.controller().map(|c| OwnerLink {
            kind: c.kind.clone(),
            name: c.name.clone(),
            uid: c.uid.clone(),
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

async fn watch_kind(client: kube::Client, kind: Kind, tx: UnboundedSender<Seen>) {
    let api: Api<DynamicObject> = Api::all_with(client, &kind.resource());
    let mut stream = watcher::watcher(api, watcher::Config::default())
        .default_backoff()
        .boxed();
    let mut pods: HashMap<String, PodRecord> = HashMap::new();
    let mut objects: HashMap<String, ObjectRecord> = HashMap::new();
    // Event uid → count last sent, so an unchanged resync is not written again.
    let mut event_counts: HashMap<String, i64> = HashMap::new();
    let mut relist: Option<HashSet<String>> = None;
    while let Some(item) = stream.next().await {
        let ev = match item {
            Ok(ev) => ev,
            Err(e) => {
                if tx
                    .send(Seen::Health {
                        kind: kind.name(),
                        error: Some(e.to_string()),
                    })
                    .is_err()
                {
                    return;
                }
                continue;
            }
        };
        let now = Timestamp::now();
        let sent = match ev {
            WEvent::Init => {
                relist = Some(HashSet::new());
                tx.send(Seen::Health {
                    kind: kind.name(),
                    error: None,
                })
            }
            WEvent::InitApply(o) | WEvent::Apply(o) => {
                let uid = o.metadata.uid.clone().unwrap_or_default();
                if let Some(seen) = relist.as_mut() {
                    seen.insert(uid.clone());
                }
                match kind {
                    Kind::Pod => {
                        let p: Pod = slim(&o);
                        let rec = merge_pod(pods.get(&uid), PodRecord::from_pod(&p));
                        pods.insert(uid, rec);
                        Ok(())
                    }
                    Kind::Event => {
                        let e: SlimEvent = slim(&o);
                        let count = e.count.unwrap_or(1);
                        if e.involved_object.kind != "Pod" || event_counts.get(&uid) == Some(&count)
                        {
                            Ok(())
                        } else {
                            event_counts.insert(uid.clone(), count);
                            tx.send(Seen::PodEvent {
                                event_uid: uid,
                                pod_uid: e.involved_object.uid,
                                namespace: e.involved_object.namespace,
                                pod: e.involved_object.name,
                                event: RecordedEvent {
                                    time: e.last_timestamp.or(e.event_time),
                                    type_: e.type_,
                                    reason: e.reason,
                                    source: if e.source.component.is_empty() {
                                        e.reporting_component
                                    } else {
                                        e.source.component
                                    },
                                    message: e.message,
                                    count,
                                },
                            })
                        }
                    }
                    _ => {
                        objects.insert(uid, object_record(kind, &o));
                        Ok(())
                    }
                }
            }
            WEvent::InitDone => {
                // Known before the (re)list, absent from it: deleted while the watch was down.
                let seen = relist.take().unwrap_or_default();
                let mut r = Ok(());
                if kind == Kind::Pod {
                    let gone: Vec<String> = pods
                        .keys()
                        .filter(|u| !seen.contains(*u))
                        .cloned()
                        .collect();
                    for uid in gone {
                        if let Some(mut rec) = pods.remove(&uid) {
                            rec.deleted = Some(now);
                            rec.deleted_in_gap = true;
                            r = r.and(tx.send(Seen::PodGone(Box::new(rec))));
                        }
                    }
                } else if kind == Kind::Event {
                    event_counts.retain(|u, _| seen.contains(u));
                } else {
                    let gone: Vec<String> = objects
                        .keys()
                        .filter(|u| !seen.contains(*u))
                        .cloned()
                        .collect();
                    for uid in gone {
                        if let Some(mut rec) = objects.remove(&uid) {
                            rec.deleted = Some(now);
                            r = r.and(tx.send(Seen::ObjectGone(Box::new(rec))));
                        }
                    }
                }
                r
            }
            WEvent::Delete(o) => {
                let uid = o.metadata.uid.clone().unwrap_or_default();
                match kind {
                    Kind::Pod => {
                        let p: Pod = slim(&o);
                        let mut rec =
                            merge_pod(pods.remove(&uid).as_ref(), PodRecord::from_pod(&p));
                        rec.deleted = Some(now);
                        tx.send(Seen::PodGone(Box::new(rec)))
                    }
                    Kind::Event => {
                        event_counts.remove(&uid);
                        Ok(())
                    }
                    _ => {
                        objects.remove(&uid);
                        let mut rec = object_record(kind, &o);
                        rec.deleted = Some(now);
                        tx.send(Seen::ObjectGone(Box::new(rec)))
                    }
                }
            }
        };
        if sent.is_err() {
            return; // the recorder stopped
        }
    }
}
