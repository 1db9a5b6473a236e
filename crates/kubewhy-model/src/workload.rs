//! The workload a pod belongs to: the top of its owner chain (a ReplicaSet's Deployment, a
//! Job's CronJob), the unit people scale, edit and roll back. At scale a finding speaks in these
//! ("50 Deployments in scale — 10,000 pods"), not in pod names.

use crate::objects::{Meta, ObjectKey, Pod, Str};
use crate::snapshot::Snapshot;
use serde::Serialize;
use std::collections::HashMap;

/// One workload a finding affects, with how many of the finding's pods it owns. A pod without
/// an owner is its own workload (kind `Pod`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct WorkloadRef {
    pub kind: Str,
    #[serde(skip_serializing_if = "Str::is_empty")]
    pub namespace: Str,
    pub name: Str,
    /// The finding's pods this workload owns (0 when the finding names the workload itself and
    /// none of its pods).
    pub pods: usize,
}

impl WorkloadRef {
    /// `namespace/name`, or `name` for cluster-scoped objects.
    pub fn path(&self) -> String {
        if self.namespace.is_empty() {
            self.name.to_string()
        } else {
            format!("{}/{}", self.namespace, self.name)
        }
    }
}

/// The kinds whose objects are workloads people change (and that own pods, directly or not).
const WORKLOAD_KINDS: &[&str] = &[
    "Deployment",
    "ReplicaSet",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
    "ReplicationController",
];

/// How many owners up the chain is followed: Pod → ReplicaSet → Deployment (→ a custom
/// controller's object, e.g. an Argo Rollout) is three; a loop in the data ends here.
const MAX_DEPTH: usize = 4;

impl Snapshot {
    /// The workload at the top of an object's owner chain, as far as the data shows it: a
    /// ReplicaSet's Deployment (also without the ReplicaSet in the data: a Deployment's
    /// ReplicaSet is named DEPLOYMENT-HASH, HASH being the pod's `pod-template-hash` label), a
    /// Job's CronJob, a custom controller's object. `None` for an object without an owner.
    pub fn top_owner(&self, meta: &Meta) -> Option<(Str, Str)> {
        let ns = meta.ns();
        let first = meta.controller()?;
        let mut top = (first.kind.clone(), first.name.clone());
        if top.0 == "ReplicaSet"
            && self.workload("ReplicaSet", ns, &top.1).is_none()
            && let Some(hash) = meta.labels.get("pod-template-hash")
            && let Some(d) = top.1.strip_suffix(hash.as_str())
            && let Some(d) = d.strip_suffix('-')
            && !d.is_empty()
        {
            return Some(("Deployment".into(), d.into()));
        }
        for _ in 0..MAX_DEPTH {
            let Some(up) = self
                .workload(&top.0, ns, &top.1)
                .and_then(|w| w.metadata.controller())
            else {
                break;
            };
            top = (up.kind.clone(), up.name.clone());
        }
        Some(top)
    }

    /// The workloads at the top of the owner chains of `objects`' pods, with the number of
    /// pods each owns; workloads named directly count themselves with no pods. Largest first,
    /// then by kind, namespace and name (names in natural order: `big-2` before `big-10`).
    /// Nodes, namespaces, claims and other objects that are not workloads are left out.
    pub fn workloads_of(&self, objects: &[ObjectKey], pods: &PodIndex) -> Vec<WorkloadRef> {
        let mut counts: HashMap<(Str, Str, Str), usize> = HashMap::new();
        // What a paste does not name is no workload anyone can act on.
        for o in objects.iter().filter(|o| o.named()) {
            let (kind, name, is_pod) = if o.kind == "Pod" {
                match pods
                    .get(self, &o.namespace, &o.name)
                    .and_then(|p| self.top_owner(&p.metadata))
                {
                    Some((k, n)) => (k, n, true),
                    None => (o.kind.clone(), o.name.clone(), true),
                }
            } else if WORKLOAD_KINDS.contains(&o.kind.as_str()) {
                match self.workload(&o.kind, &o.namespace, &o.name) {
                    Some(w) => self
                        .top_owner(&w.metadata)
                        .map(|(k, n)| (k, n, false))
                        .unwrap_or((o.kind.clone(), o.name.clone(), false)),
                    None => (o.kind.clone(), o.name.clone(), false),
                }
            } else {
                continue;
            };
            if name == crate::snapshot::Pasted::UNKNOWN {
                continue;
            }
            let namespace = if o.namespace == crate::snapshot::Pasted::UNKNOWN {
                Str::default()
            } else {
                o.namespace.clone()
            };
            *counts.entry((kind, namespace, name)).or_default() += usize::from(is_pod);
        }
        let mut out: Vec<WorkloadRef> = counts
            .into_iter()
            .map(|((kind, namespace, name), pods)| WorkloadRef {
                kind,
                namespace,
                name,
                pods,
            })
            .collect();
        out.sort_by(|a, b| {
            b.pods
                .cmp(&a.pods)
                .then_with(|| a.kind.cmp(&b.kind))
                .then_with(|| a.namespace.cmp(&b.namespace))
                .then_with(|| natural_cmp(&a.name, &b.name))
        });
        out
    }
}

impl Snapshot {
    /// When the trouble of the oldest of `objects` began, as its state shows it: a pod being
    /// deleted since its deletion was asked for; otherwise since its Ready (or, Pending,
    /// PodScheduled) condition turned False, else since it was created; a namespace since its
    /// deletion; a node since its Ready condition changed.
    pub fn since_of(&self, objects: &[ObjectKey], pods: &PodIndex) -> Option<jiff::Timestamp> {
        use crate::objects::condition;
        objects
            .iter()
            .filter_map(|o| match o.kind.as_str() {
                "Pod" => {
                    let p = pods.get(self, &o.namespace, &o.name)?;
                    let false_since = |t: &str| {
                        condition(&p.status.conditions, t)
                            .filter(|c| c.status == "False")
                            .and_then(|c| c.last_transition_time)
                    };
                    p.metadata
                        .deletion_timestamp
                        .or_else(|| false_since("Ready"))
                        .or_else(|| false_since("PodScheduled"))
                        .or(p.metadata.creation_timestamp)
                }
                "Namespace" => self.namespace(&o.name)?.metadata.deletion_timestamp,
                "Node" => condition(&self.node(&o.name)?.status.conditions, "Ready")
                    .filter(|c| c.status != "True")
                    .and_then(|c| c.last_transition_time),
                _ => None,
            })
            .min()
    }
}

/// Pods by namespace and name, built once for a report (the snapshot keeps no such index: no
/// check needs one).
#[derive(Default)]
pub struct PodIndex {
    by_name: HashMap<(Str, Str), usize>,
}

impl PodIndex {
    pub fn new(snap: &Snapshot) -> PodIndex {
        PodIndex {
            by_name: snap
                .pods
                .iter()
                .enumerate()
                .map(|(i, p)| ((p.metadata.ns().into(), p.metadata.name.clone()), i))
                .collect(),
        }
    }
    pub fn get<'s>(&self, snap: &'s Snapshot, ns: &str, name: &str) -> Option<&'s Pod> {
        self.by_name
            .get(&(ns.into(), name.into()))
            .and_then(|&i| snap.pods.get(i))
            .map(|p| &**p)
    }
}

/// Compares names the way people count: runs of digits by value (`big-2` < `big-10`).
pub fn natural_cmp(a: &str, b: &str) -> std::cmp::Ordering {
    use std::cmp::Ordering;
    let (mut a, mut b) = (a.as_bytes(), b.as_bytes());
    loop {
        match (a.first(), b.first()) {
            (None, None) => return Ordering::Equal,
            (None, Some(_)) => return Ordering::Less,
            (Some(_), None) => return Ordering::Greater,
            (Some(x), Some(y)) if x.is_ascii_digit() && y.is_ascii_digit() => {
                let da = a.iter().take_while(|c| c.is_ascii_digit()).count();
                let db = b.iter().take_while(|c| c.is_ascii_digit()).count();
                let (na, nb) = (trim_zeros(&a[..da]), trim_zeros(&b[..db]));
                let o = na
                    .len()
                    .cmp(&nb.len())
                    .then_with(|| na.cmp(nb))
                    .then(da.cmp(&db));
                if o != Ordering::Equal {
                    return o;
                }
                a = &a[da..];
                b = &b[db..];
            }
            (Some(x), Some(y)) => {
                if x != y {
                    return x.cmp(y);
                }
                a = &a[1..];
                b = &b[1..];
            }
        }
    }
}

fn trim_zeros(d: &[u8]) -> &[u8] {
    let z = d.iter().take_while(|c| **c == b'0').count();
    &d[z.min(d.len().saturating_sub(1))..]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::objects::{OwnerRef, Workload};

    fn meta(ns: &str, name: &str, owner: Option<(&str, &str)>) -> Meta {
        Meta {
            name: name.into(),
            namespace: Some(ns.into()),
            owner_references: owner
                .map(|(k, n)| OwnerRef {
                    kind: k.into(),
                    name: n.into(),
                    controller: Some(true),
                    ..Default::default()
                })
                .into_iter()
                .collect(),
            ..Default::default()
        }
    }

    fn pod(ns: &str, name: &str, owner: Option<(&str, &str)>) -> std::sync::Arc<Pod> {
        Pod {
            metadata: meta(ns, name, owner),
            ..Default::default()
        }
        .into()
    }

    fn workload(kind: &str, ns: &str, name: &str, owner: Option<(&str, &str)>) -> Workload {
        Workload {
            kind: kind.into(),
            metadata: meta(ns, name, owner),
            ..Default::default()
        }
    }

    fn key(ns: &str, name: &str) -> ObjectKey {
        ObjectKey::new("Pod", ns, name, "")
    }

    #[test]
    fn pods_count_under_the_top_of_their_owner_chain() {
        let mut snap = Snapshot::default();
        snap.pods = vec![
            pod("shop", "web-7d-a", Some(("ReplicaSet", "web-7d"))),
            pod("shop", "web-7d-b", Some(("ReplicaSet", "web-7d"))),
            pod(
                "batch",
                "nightly-28000000-x",
                Some(("Job", "nightly-28000000")),
            ),
            pod("shop", "debug", None),
            pod("shop", "db-0", Some(("StatefulSet", "db"))),
        ];
        snap.workloads = vec![
            workload("ReplicaSet", "shop", "web-7d", Some(("Deployment", "web"))),
            workload(
                "Job",
                "batch",
                "nightly-28000000",
                Some(("CronJob", "nightly")),
            ),
        ];
        snap.finish(None);
        let pods = PodIndex::new(&snap);
        let keys: Vec<ObjectKey> = snap
            .pods
            .iter()
            .map(|p| ObjectKey::of("Pod", &p.metadata))
            .chain([ObjectKey::new("Node", "", "node-1", "")])
            .collect();
        let got: Vec<(String, String, usize)> = snap
            .workloads_of(&keys, &pods)
            .into_iter()
            .map(|w| (w.kind.to_string(), w.path(), w.pods))
            .collect();
        assert_eq!(
            got,
            vec![
                ("Deployment".into(), "shop/web".into(), 2),
                ("CronJob".into(), "batch/nightly".into(), 1),
                ("Pod".into(), "shop/debug".into(), 1),
                ("StatefulSet".into(), "shop/db".into(), 1),
            ]
        );
    }

    #[test]
    fn a_deployment_is_named_from_the_template_hash_without_its_replicaset() {
        let mut snap = Snapshot::default();
        let mut p = pod(
            "scale",
            "big-3-5d8f7c9b6-xk2p9",
            Some(("ReplicaSet", "big-3-5d8f7c9b6")),
        );
        std::sync::Arc::make_mut(&mut p)
            .metadata
            .labels
            .insert("pod-template-hash", "5d8f7c9b6".into());
        snap.pods = vec![p];
        snap.finish(None);
        let w = snap.workloads_of(
            &[key("scale", "big-3-5d8f7c9b6-xk2p9")],
            &PodIndex::new(&snap),
        );
        assert_eq!(
            (w[0].kind.as_str(), w[0].name.as_str(), w[0].pods),
            ("Deployment", "big-3", 1)
        );
    }

    #[test]
    fn an_owner_loop_in_the_data_ends() {
        let mut snap = Snapshot::default();
        snap.pods = vec![pod("x", "p", Some(("ReplicaSet", "a")))];
        snap.workloads = vec![
            workload("ReplicaSet", "x", "a", Some(("ReplicaSet", "b"))),
            workload("ReplicaSet", "x", "b", Some(("ReplicaSet", "a"))),
        ];
        snap.finish(None);
        let w = snap.workloads_of(&[key("x", "p")], &PodIndex::new(&snap));
        assert_eq!(w.len(), 1);
    }

    #[test]
    fn natural_order() {
        let mut v = vec!["big-10", "big-2", "big-1", "big-02", "a"];
        v.sort_by(|a, b| natural_cmp(a, b));
        assert_eq!(v, vec!["a", "big-1", "big-2", "big-02", "big-10"]);
    }
}
