//! Watch mode's copy of the cluster: every kind a scan lists, kept current by one watch per kind
//! (`watch::run`), each object held only in its slim view (`kubewhy_source::Object`: no
//! managedFields, no fields the checks do not read, Secret and ConfigMap values never).
//!
//! A re-list (after a dropped watch or a 410) fills a new map beside the current one and replaces
//! it only when complete: until then the last known state stays visible, so a watch that drops
//! loses nothing and never shows a half-listed cluster.

use crate::{RESOURCES, Resource, problem};
use kube::api::DynamicObject;
use kube::runtime::watcher::Event as WEvent;
use kubewhy_model::{InputWarning, Snapshot};
use kubewhy_source::Object;
use std::collections::HashMap;
use std::sync::Mutex;

mod compact;
use compact::{Atoms, Held};

/// The state of one kind's watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum WatchStatus {
    /// The first list has not completed.
    Starting,
    /// Listed, and watching.
    Up,
    /// The watch failed within the last `FAILING_FOR` and is retried with backoff (at most 5 s
    /// apart); what was known before stays.
    Failing(String),
    /// RBAC forbids listing or watching this kind: the checks that need it run without it.
    Forbidden(String),
    /// The cluster does not serve this kind (e.g. Argo Workflows not installed).
    NotServed,
}

/// One kind's watch, as `/healthz` and `/metrics` show it.
#[derive(Debug, Clone)]
pub struct WatchHealth {
    pub resource: &'static str,
    /// The namespace it watches (`watch -n`), or `None`: the whole cluster.
    pub scope: Option<String>,
    pub status: WatchStatus,
    pub objects: usize,
    /// Completed lists: the first one, then one per re-list.
    pub lists: u64,
    /// Watch errors since start.
    pub errors: u64,
    /// Watch errors since start by HTTP status (0: no answer — a dropped connection, a
    /// timeout).
    pub errors_by_code: std::collections::BTreeMap<u16, u64>,
    /// Objects that could not be decoded (malformed beyond what the loader tolerates).
    pub undecodable: u64,
}

/// A watch error older than this, with none since, was followed by a successful reconnect (a
/// failing watch retries within 5 s): the watch counts as up again.
const FAILING_FOR: std::time::Duration = std::time::Duration::from_secs(30);

struct KindState {
    resource: &'static Resource,
    /// Its index in `RESOURCES` (a `const`: its items have no stable address to compare).
    kind: usize,
    scope: Option<String>,
    /// The last watch error, its HTTP status, and when it happened; cleared by the next event.
    failed: Option<(String, Option<u16>, std::time::Instant)>,
    errors_by_code: std::collections::BTreeMap<u16, u64>,
    objects: HashMap<Uid, Object>,
    /// Events, held compact (`compact`): `objects` holds none.
    events: HashMap<Uid, Held>,
    /// Pods: the specs and labels their replicas share.
    shared: kubewhy_source::SharedParts,
    /// During a (re)list: what it has listed so far.
    relist: Option<(HashMap<Uid, Object>, HashMap<Uid, Held>)>,
    status: WatchStatus,
    lists: u64,
    errors: u64,
    undecodable: u64,
    api_version: String,
}

/// An object's uid as the store keys it: a UUID (what the API server assigns, in lower case) in
/// 16 bytes, anything else as its text. One string allocation less per watched object.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Uid {
    /// Two halves rather than a `u128`, whose alignment would make every key 32 bytes.
    Uuid(u64, u64),
    Text(Box<str>),
}

impl std::fmt::Display for Uid {
    /// The uid as the API server wrote it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Uid::Uuid(hi, lo) => write!(
                f,
                "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}",
                hi >> 32,
                (hi >> 16) & 0xffff,
                hi & 0xffff,
                lo >> 48,
                lo & 0xffff_ffff_ffff
            ),
            Uid::Text(t) => f.write_str(t),
        }
    }
}

impl Uid {
    fn new(s: &str) -> Uid {
        let b = s.as_bytes();
        let dashes = [8, 13, 18, 23];
        let canonical = b.len() == 36
            && b.iter().enumerate().all(|(i, &c)| {
                if dashes.contains(&i) {
                    c == b'-'
                } else {
                    c.is_ascii_digit() || (b'a'..=b'f').contains(&c)
                }
            });
        if canonical {
            let hex: String = s.chars().filter(|&c| c != '-').collect();
            if let Ok(n) = u128::from_str_radix(&hex, 16) {
                return Uid::Uuid((n >> 64) as u64, n as u64);
            }
        }
        Uid::Text(s.into())
    }
}

/// Every watched kind's objects. Shared between the watch tasks and whoever evaluates.
pub struct Store {
    inner: Mutex<Inner>,
}

struct Inner {
    kinds: Vec<KindState>,
    /// The texts the held events share.
    atoms: Atoms,
    /// Bumped by every change: evaluation can skip when nothing moved.
    changes: u64,
}

impl Default for Store {
    fn default() -> Self {
        Store::new()
    }
}

/// What one watch covers: a kind (its index in `RESOURCES`), cluster-wide or in one namespace.
pub type Slot = (usize, Option<String>);

/// The watches kubewhy runs for `namespaces` (empty: the whole cluster): cluster-scoped kinds
/// cluster-wide; namespaced kinds once per namespace (leases also in the namespaces of the
/// nodes' heartbeats and of the scheduler's lease, as a scan of one namespace reads them).
pub fn slots(namespaces: &[String]) -> Vec<Slot> {
    let mut out = Vec::new();
    for (i, r) in RESOURCES.iter().enumerate() {
        if !r.namespaced || namespaces.is_empty() {
            out.push((i, None));
            continue;
        }
        let mut scopes: Vec<String> = namespaces.to_vec();
        if r.plural == "leases" {
            for extra in crate::LEASE_NAMESPACES {
                if !scopes.iter().any(|n| n == extra) {
                    scopes.push(extra.to_string());
                }
            }
        }
        out.extend(scopes.into_iter().map(|n| (i, Some(n))));
    }
    out
}

impl Store {
    /// A store for every kind, cluster-wide.
    pub fn new() -> Store {
        Store::scoped(&[])
    }

    /// A store for the watches of `slots(namespaces)`, in that order (`apply`'s index).
    pub fn scoped(namespaces: &[String]) -> Store {
        Store {
            inner: Mutex::new(Inner {
                kinds: slots(namespaces)
                    .into_iter()
                    .map(|(i, scope)| KindState {
                        resource: &RESOURCES[i],
                        kind: i,
                        scope,
                        objects: HashMap::new(),
                        events: HashMap::new(),
                        shared: Default::default(),
                        relist: None,
                        failed: None,
                        errors_by_code: Default::default(),
                        status: WatchStatus::Starting,
                        lists: 0,
                        errors: 0,
                        undecodable: 0,
                        api_version: String::new(),
                    })
                    .collect(),
                atoms: Atoms::default(),
                changes: 0,
            }),
        }
    }

    /// The watches this store is fed by, in `apply`'s order.
    pub fn slots(&self) -> Vec<Slot> {
        self.lock()
            .kinds
            .iter()
            .map(|k| (k.kind, k.scope.clone()))
            .collect()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Inner> {
        // A panic while holding the lock cannot leave a map half-updated in a way that matters
        // more than stopping would: keep serving.
        self.inner.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// A counter that changes whenever the stored state does.
    pub fn changes(&self) -> u64 {
        self.lock().changes
    }

    /// Whether every kind has either listed once or is known unreadable.
    pub fn synced(&self) -> bool {
        self.lock().kinds.iter().all(|k| {
            k.lists > 0 || matches!(k.status, WatchStatus::Forbidden(_) | WatchStatus::NotServed)
        })
    }

    pub fn health(&self) -> Vec<WatchHealth> {
        self.lock()
            .kinds
            .iter()
            .map(|k| WatchHealth {
                resource: k.resource.plural,
                scope: k.scope.clone(),
                status: k.status(),
                objects: k.len(),
                lists: k.lists,
                errors: k.errors,
                errors_by_code: k.errors_by_code.clone(),
                undecodable: k.undecodable,
            })
            .collect()
    }

    /// The current state as a snapshot, not yet finished (`kubewhy_source::load_onto` adds to it
    /// and finishes it), and what the report must say about kinds that could not be read.
    pub fn snapshot(&self) -> (Snapshot, Vec<InputWarning>) {
        let inner = self.lock();
        let mut problems = Vec::new();
        let mut empty = Vec::new();
        let mut forbidden = Vec::new();
        for k in &inner.kinds {
            let r = k.resource;
            match &k.status() {
                WatchStatus::Forbidden(_) => forbidden.push((r, k.scope.clone())),
                WatchStatus::Failing(e) => problems.push(problem(
                    r.plural,
                    format!(
                        "the watch of {} fails and is retried: {e}; what was known before is used",
                        r.plural
                    ),
                )),
                _ => {}
            }
            if k.lists > 0 && k.len() == 0 {
                empty.push(r.kind);
            }
        }
        if !forbidden.is_empty() {
            problems.insert(0, crate::permission_summary(&forbidden));
        }
        let events: Vec<Object> = inner
            .kinds
            .iter()
            .flat_map(|k| k.events.values())
            .map(|h| Object::event(h.event(&inner.atoms)))
            .collect();
        let snap = kubewhy_source::snapshot_of(
            inner
                .kinds
                .iter()
                .flat_map(|k| k.objects.values())
                .chain(&events),
            empty,
        );
        (snap, problems)
    }

    /// Drops the events about pods that are gone (listed, and absent), once they are older than
    /// `grace` before `now` (an event may arrive before its pod): they explain nothing a finding
    /// can show, and a busy cluster leaves several per deleted pod for an hour. Returns how many
    /// were dropped.
    pub fn forget_events_of_gone_pods(&self, now: jiff::Timestamp, grace: i64) -> usize {
        let mut inner = self.lock();
        let pods: Vec<&KindState> = inner
            .kinds
            .iter()
            .filter(|k| k.resource.plural == "pods")
            .collect();
        if pods.is_empty() || pods.iter().any(|k| k.lists == 0) {
            return 0;
        }
        let alive: std::collections::HashSet<Uid> = pods
            .iter()
            .flat_map(|k| k.objects.keys().cloned())
            .collect();
        let mut dropped = 0;
        let Inner { kinds, atoms, .. } = &mut *inner;
        for k in kinds.iter_mut() {
            let before = k.events.len();
            k.events
                .retain(|_, h| !h.about_gone_pod(atoms, &alive, now, grace));
            dropped += before - k.events.len();
        }
        dropped
    }

    pub(crate) fn set_status(&self, index: usize, status: WatchStatus) {
        let mut inner = self.lock();
        let k = &mut inner.kinds[index];
        if k.status != status {
            k.status = status;
            inner.changes += 1;
        }
    }

    /// A watch error: shown as `Failing` until an event arrives or `FAILING_FOR` passes.
    pub(crate) fn failed(&self, index: usize, code: Option<u16>, error: String) {
        let mut inner = self.lock();
        let k = &mut inner.kinds[index];
        k.errors += 1;
        *k.errors_by_code.entry(code.unwrap_or(0)).or_insert(0) += 1;
        k.failed = Some((error, code, std::time::Instant::now()));
        inner.changes += 1;
    }

    /// The API version a kind is watched at (the first its cluster serves).
    pub fn set_api_version(&self, index: usize, api_version: &str) {
        self.lock().kinds[index].api_version = api_version.to_string();
    }

    /// The index (`apply`'s) of the cluster-wide watch of a kind by its plural (`pods`), if this
    /// store has one.
    pub fn index_of(&self, plural: &str) -> Option<usize> {
        self.lock()
            .kinds
            .iter()
            .position(|k| k.resource.plural == plural && k.scope.is_none())
    }

    /// Applies one watch event to kind `index` (what `watch::run` feeds; public for the memory
    /// benchmark, which feeds a store without a cluster).
    pub fn apply(&self, index: usize, ev: &WEvent<DynamicObject>) {
        let mut inner = self.lock();
        let Inner {
            kinds,
            atoms,
            changes,
        } = &mut *inner;
        let k = &mut kinds[index];
        // A (re)list starting says nothing yet: the failure stands until something is read.
        if !matches!(ev, WEvent::Init) {
            k.failed = None;
        }
        let decode = |k: &mut KindState, atoms: &mut Atoms, o: &DynamicObject| {
            let uid = Uid::new(o.metadata.uid.as_deref()?);
            let v = serde_json::to_value(o).ok()?;
            match Object::decode(k.resource.kind, &k.api_version, &v) {
                Ok(obj) => match obj.as_event() {
                    Some(e) => Some((uid, Decoded::Event(Held::new(e, atoms)))),
                    None => {
                        let mut obj = obj;
                        obj.share(&v, &mut k.shared);
                        Some((uid, Decoded::Object(obj)))
                    }
                },
                Err(_) => {
                    k.undecodable += 1;
                    None
                }
            }
        };
        let mut held_events = false;
        match ev {
            WEvent::Init => k.relist = Some(Default::default()),
            WEvent::InitApply(o) => {
                if let Some((uid, obj)) = decode(k, atoms, o)
                    && let Some((objects, events)) = k.relist.as_mut()
                {
                    held_events |= obj.insert_into(uid, objects, events);
                }
            }
            WEvent::InitDone => {
                if let Some((objects, events)) = k.relist.take() {
                    k.objects = objects;
                    k.events = events;
                }
                k.lists += 1;
                k.status = WatchStatus::Up;
                *changes += 1;
            }
            WEvent::Apply(o) => {
                if let Some((uid, obj)) = decode(k, atoms, o) {
                    held_events |= obj.insert_into(uid, &mut k.objects, &mut k.events);
                }
                k.status = WatchStatus::Up;
                *changes += 1;
            }
            WEvent::Delete(o) => {
                if let Some(uid) = &o.metadata.uid {
                    let uid = Uid::new(uid);
                    k.objects.remove(&uid);
                    k.events.remove(&uid);
                }
                *changes += 1;
            }
        }
        if held_events && atoms.sweep_due() {
            let mut held: Vec<&mut Held> = kinds
                .iter_mut()
                .flat_map(|k| {
                    let relisted = k.relist.as_mut().map(|(_, e)| e.values_mut());
                    k.events.values_mut().chain(relisted.into_iter().flatten())
                })
                .collect();
            atoms.sweep(&mut held);
        }
    }
}

/// One watched object, decoded for the store.
enum Decoded {
    Object(Object),
    Event(Held),
}

impl Decoded {
    /// Puts it in the map for its sort; says whether it was an event.
    fn insert_into(
        self,
        uid: Uid,
        objects: &mut HashMap<Uid, Object>,
        events: &mut HashMap<Uid, Held>,
    ) -> bool {
        match self {
            Decoded::Object(o) => {
                objects.insert(uid, o);
                false
            }
            Decoded::Event(e) => {
                events.insert(uid, e);
                true
            }
        }
    }
}

impl KindState {
    /// Objects held.
    fn len(&self) -> usize {
        self.objects.len() + self.events.len()
    }

    fn status(&self) -> WatchStatus {
        match &self.failed {
            // Refused or throttled: retried minutes apart, failing until an event arrives.
            Some((e, Some(401 | 403 | 429), _)) => WatchStatus::Failing(e.clone()),
            Some((e, _, at)) if at.elapsed() < FAILING_FOR => WatchStatus::Failing(e.clone()),
            _ => self.status.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index(plural: &str) -> usize {
        RESOURCES.iter().position(|r| r.plural == plural).unwrap()
    }

    fn pod(uid: &str, name: &str, phase: &str) -> DynamicObject {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": name, "namespace": "shop", "uid": uid,
                "managedFields": [{"manager": "kubectl", "operation": "Update"}]},
            "spec": {"containers": [{"name": "app", "image": "web:1"}]},
            "status": {"phase": phase}
        }))
        .unwrap()
    }

    fn pods(store: &Store) -> Vec<(String, String)> {
        let (mut s, _) = store.snapshot();
        s.finish(None);
        let mut v: Vec<_> = s
            .pods
            .iter()
            .map(|p| (p.metadata.name.to_string(), p.status.phase.to_string()))
            .collect();
        v.sort();
        v
    }

    #[test]
    fn uuids_are_keyed_in_sixteen_bytes_and_nothing_else_is_mistaken_for_one() {
        let a = "0b9a6f0e-3f43-4c1a-9d1e-2f4b5c6d7e8f";
        assert!(matches!(Uid::new(a), Uid::Uuid(..)));
        assert_eq!(Uid::new(a), Uid::new(a));
        assert_ne!(
            Uid::new(a),
            Uid::new("0b9a6f0e-3f43-4c1a-9d1e-2f4b5c6d7e80")
        );
        // Upper case, no dashes, other lengths: kept as text, never folded into a UUID.
        let upper = a.to_uppercase();
        assert!(matches!(Uid::new(&upper), Uid::Text(_)));
        assert_ne!(Uid::new(&upper), Uid::new(a));
        assert!(matches!(Uid::new("u1"), Uid::Text(_)));
        assert!(matches!(Uid::new(&a.replace('-', "")), Uid::Text(_)));
    }

    #[test]
    fn pods_listed_and_watched_share_what_replicas_have_in_common() {
        let store = Store::new();
        let i = index("pods");
        store.set_api_version(i, "v1");
        store.apply(i, &WEvent::Init);
        store.apply(i, &WEvent::InitApply(pod("u1", "web-1", "Running")));
        store.apply(i, &WEvent::InitDone);
        store.apply(i, &WEvent::Apply(pod("u2", "web-2", "Pending")));
        let (s, _) = store.snapshot();
        assert_eq!(s.pods.len(), 2);
        assert!(std::sync::Arc::ptr_eq(
            &s.pods[0].spec.shared,
            &s.pods[1].spec.shared
        ));
    }

    #[test]
    fn a_relist_replaces_the_state_only_when_complete() {
        let store = Store::new();
        let i = index("pods");
        store.set_api_version(i, "v1");
        store.apply(i, &WEvent::Init);
        store.apply(i, &WEvent::InitApply(pod("a", "web-a", "Running")));
        store.apply(i, &WEvent::InitApply(pod("b", "web-b", "Pending")));
        assert!(
            pods(&store).is_empty(),
            "nothing until the first list is complete"
        );
        store.apply(i, &WEvent::InitDone);
        assert_eq!(pods(&store).len(), 2);
        store.apply(i, &WEvent::Apply(pod("b", "web-b", "Running")));
        assert_eq!(
            pods(&store)[1],
            ("web-b".to_string(), "Running".to_string())
        );

        // The watch drops and re-lists: the old state stays visible until the list completes;
        // then web-b, deleted meanwhile, is gone.
        store.failed(i, None, "connection reset".into());
        assert!(matches!(store.health()[i].status, WatchStatus::Failing(_)));
        store.apply(i, &WEvent::Init);
        store.apply(i, &WEvent::InitApply(pod("a", "web-a", "Failed")));
        assert_eq!(pods(&store).len(), 2);
        store.apply(i, &WEvent::InitDone);
        assert_eq!(pods(&store), [("web-a".to_string(), "Failed".to_string())]);
        let h = &store.health()[i];
        assert_eq!((h.lists, h.errors, &h.status), (2, 1, &WatchStatus::Up));
        assert_eq!(h.errors_by_code.get(&0), Some(&1));

        // Rejected credentials: failing until the watch lists again, however long that takes.
        store.failed(i, Some(401), "HTTP 401 Unauthorized".into());
        assert!(matches!(store.health()[i].status, WatchStatus::Failing(_)));
        store.apply(i, &WEvent::Init);
        store.apply(i, &WEvent::InitApply(pod("a", "web-a", "Failed")));
        store.apply(i, &WEvent::InitDone);
        assert_eq!(store.health()[i].status, WatchStatus::Up);
        assert_eq!(store.health()[i].errors_by_code.get(&401), Some(&1));

        // A pod whose status is not an object cannot be read: counted (/metrics, /healthz),
        // left out, the rest kept.
        let mut bad = pod("c", "web-c", "Running");
        bad.data["status"] = serde_json::json!("broken");
        store.apply(i, &WEvent::Apply(bad));
        assert_eq!(store.health()[i].undecodable, 1);
        assert_eq!(pods(&store), [("web-a".to_string(), "Failed".to_string())]);

        store.apply(i, &WEvent::Delete(pod("a", "web-a", "Failed")));
        assert!(pods(&store).is_empty());
        let (s, _) = store.snapshot();
        assert_eq!(
            s.kinds_loaded.get("Pod"),
            Some(&0),
            "listed and empty: known empty"
        );
    }

    fn event(uid: &str, name: &str, pod_uid: &str, at: &str, message: &str) -> DynamicObject {
        serde_json::from_value(serde_json::json!({
            "apiVersion": "v1", "kind": "Event",
            "metadata": {"name": name, "namespace": "shop", "uid": uid},
            "involvedObject": {"kind": "Pod", "namespace": "shop", "name": "web-1",
                "uid": pod_uid, "fieldPath": "spec.containers{app}"},
            "reason": "FailedScheduling", "message": message, "type": "Warning",
            "source": {"component": "default-scheduler"},
            "firstTimestamp": at, "lastTimestamp": at, "count": 3
        }))
        .unwrap()
    }

    /// What the store's snapshot holds of events, as the loader's view prints them.
    fn events(store: &Store) -> Vec<String> {
        let (s, _) = store.snapshot();
        let mut v: Vec<String> = s.events.iter().map(|e| format!("{e:?}")).collect();
        v.sort();
        v
    }

    #[test]
    fn events_held_compact_come_back_as_decoded_and_go_with_their_pod() {
        let store = Store::new();
        let (pods_i, events_i) = (index("pods"), index("events"));
        let pod_uid = "0b9a6f0e-3f43-4c1a-9d1e-2f4b5c6d7e8f";
        let gone_uid = "1b9a6f0e-3f43-4c1a-9d1e-2f4b5c6d7e8f";
        store.apply(pods_i, &WEvent::Init);
        store.apply(pods_i, &WEvent::InitApply(pod(pod_uid, "web-1", "Pending")));
        store.apply(pods_i, &WEvent::InitDone);
        let long = "0/3 nodes are available: 3 node(s) didn't match Pod's node affinity/selector.";
        let listed = [
            event(
                "e1",
                "web-1.17a8b3c4d5e6f708",
                pod_uid,
                "2026-11-25T10:00:01Z",
                long,
            ),
            event(
                "e2",
                "web-1.17a8b3c4d5e6f709",
                gone_uid,
                "2026-11-25T10:00:01Z",
                long,
            ),
            event(
                "e3",
                "unrelated-name",
                gone_uid,
                "2026-11-25T11:59:30Z",
                "short",
            ),
        ];
        store.apply(events_i, &WEvent::Init);
        for e in &listed {
            store.apply(events_i, &WEvent::InitApply(e.clone()));
        }
        store.apply(events_i, &WEvent::InitDone);
        // Field for field what the loader makes of the same objects.
        let mut decoded: Vec<String> = listed
            .iter()
            .map(|e| {
                let v = serde_json::to_value(e).unwrap();
                let o = Object::decode("Event", "v1", &v).unwrap();
                format!("{:?}", o.as_event().unwrap())
            })
            .collect();
        decoded.sort();
        assert_eq!(events(&store), decoded);
        assert_eq!(store.health()[events_i].objects, 3);
        // The event about a pod that is gone goes once it is two minutes old; the recent one
        // stays (it may have come before its pod); the live pod's stays.
        let now = "2026-11-25T12:00:00Z".parse().unwrap();
        assert_eq!(store.forget_events_of_gone_pods(now, 120), 1);
        let left = events(&store);
        assert_eq!(left.len(), 2);
        assert!(left.iter().any(|e| e.contains("web-1.17a8b3c4d5e6f708")));
        assert!(left.iter().any(|e| e.contains("unrelated-name")));
        store.apply(events_i, &WEvent::Delete(listed[2].clone()));
        assert_eq!(events(&store).len(), 1);
    }

    #[test]
    fn texts_no_event_holds_any_more_are_let_go() {
        let store = Store::new();
        let i = index("events");
        store.apply(i, &WEvent::Init);
        store.apply(i, &WEvent::InitDone);
        let pod_uid = "0b9a6f0e-3f43-4c1a-9d1e-2f4b5c6d7e8f";
        let at = "2026-11-25T10:00:01Z";
        for n in 0..20_000 {
            let e = event(
                &format!("e{n}"),
                &format!("web-1.{n}"),
                pod_uid,
                at,
                &format!("m{n}"),
            );
            store.apply(i, &WEvent::Apply(e.clone()));
            if n < 19_990 {
                store.apply(i, &WEvent::Delete(e));
            }
        }
        // 20,000 messages came and went; what is held is bounded by the sweeps, not by them.
        assert!(
            store.lock().atoms.len() < 9_000,
            "{}",
            store.lock().atoms.len()
        );
        let left = events(&store);
        assert_eq!(left.len(), 10);
        assert!(
            left.iter().all(|e| e.contains("message: \"m199")),
            "{left:?}"
        );
    }

    #[test]
    fn kinds_that_cannot_be_read_are_reported_and_not_claimed_empty() {
        let store = Store::new();
        let i = index("secrets");
        store.set_status(
            i,
            WatchStatus::Forbidden("forbidden: cannot list secrets".into()),
        );
        let (s, problems) = store.snapshot();
        assert!(!s.kinds_loaded.contains_key("Secret"));
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].file, "live:permissions");
        assert!(
            problems[0]
                .message
                .starts_with("not permitted to read secrets (in all namespaces)."),
            "{}",
            problems[0].message
        );
        assert!(!store.synced(), "other kinds have not listed yet");
    }
}
