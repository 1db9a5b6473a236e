//! The snapshot: everything known about a cluster at one moment, with the indexes the checks use.
//! Build it with `Snapshot::default()`, push objects, then call `finish()` once: it drops
//! duplicates, builds the indexes and settles `now`.

use crate::objects::*;
use jiff::Timestamp;
use std::collections::{BTreeMap, HashMap};

/// Calls `$m!` with the name of every list of objects in a `Snapshot` (logs and node evidence
/// are not objects): the one place that lists them.
macro_rules! object_lists {
    ($m:ident) => {
        $m!(
            pods,
            nodes,
            events,
            namespaces,
            pvcs,
            pvs,
            storage_classes,
            config_maps,
            secrets,
            service_accounts,
            workloads,
            api_services,
            leases,
            priority_classes,
            pdbs,
            resource_quotas,
            limit_ranges,
            csi_drivers,
            webhook_configurations,
            resource_claims,
            device_classes,
            resource_slices,
            others
        )
    };
}

#[derive(Debug, Default)]
pub struct Snapshot {
    pub pods: Vec<std::sync::Arc<Pod>>,
    pub nodes: Vec<Node>,
    pub events: Vec<std::sync::Arc<Event>>,
    pub namespaces: Vec<Namespace>,
    pub pvcs: Vec<PersistentVolumeClaim>,
    pub pvs: Vec<PersistentVolume>,
    pub storage_classes: Vec<StorageClass>,
    pub config_maps: Vec<KeyedObject>,
    pub secrets: Vec<KeyedObject>,
    pub service_accounts: Vec<ServiceAccount>,
    pub workloads: Vec<Workload>,
    pub api_services: Vec<ApiService>,
    pub leases: Vec<Lease>,
    pub priority_classes: Vec<PriorityClass>,
    pub pdbs: Vec<PodDisruptionBudget>,
    pub resource_quotas: Vec<ResourceQuota>,
    pub limit_ranges: Vec<LimitRange>,
    pub csi_drivers: Vec<GenericObject>,
    pub webhook_configurations: Vec<WebhookConfiguration>,
    /// Dynamic resource allocation: ResourceClaims and ResourceClaimTemplates (`kind` tells),
    /// DeviceClasses (and v1alpha2 ResourceClasses), ResourceSlices.
    pub resource_claims: Vec<ResourceClaim>,
    pub device_classes: Vec<DeviceClass>,
    pub resource_slices: Vec<ResourceSlice>,
    /// Objects of kinds without a slim view (custom resources included).
    pub others: Vec<GenericObject>,
    pub logs: Vec<ContainerLog>,
    /// What was read on nodes (`--node-logs`, node-collect bundles, live `configz`).
    pub node: crate::node::NodeEvidence,
    /// The snapshot's "now": `--now`, else the newest timestamp in the data (see `finish`).
    pub now: Option<Timestamp>,
    /// When the data was read (the loader's clock): what the checks judge at when the data holds
    /// no time at all (`judged_at`). The model and the checks never read the clock themselves.
    pub read_at: Option<Timestamp>,
    /// `--gc-threshold`: kube-controller-manager's `--terminated-pod-gc-threshold` when the data
    /// cannot show it.
    pub gc_threshold: Option<usize>,
    /// Kinds seen in the input, with how many objects of each (0 for an empty list).
    pub kinds_loaded: BTreeMap<String, usize>,
    /// Objects known only in part, from pasted text (`kubectl describe`, `get` tables, status
    /// stanzas, event messages): findings about them are less certain and say what would settle
    /// them.
    pub pasted: Vec<Pasted>,
    /// Known failure messages the paste holds, in order.
    pub pasted_messages: Vec<PastedMessage>,
    idx: Indexes,
}

/// A timestamp of the data, and where it is.
#[derive(Debug, Clone, Copy)]
pub struct Stamp<'a> {
    pub kind: &'a str,
    pub namespace: &'a str,
    pub name: &'a str,
    /// The field, as a path (`metadata.creationTimestamp`).
    pub field: &'static str,
    pub at: Timestamp,
}

/// A known failure message found in pasted text, wherever it stood (a sentence, a fragment,
/// one log line): the catalogue's cause for it and what it is about, if the paste says.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastedMessage {
    /// `file:line`.
    pub at: String,
    /// The message, from where it starts (cut at 300 characters).
    pub quote: String,
    pub cause: crate::Cause,
    pub confidence: crate::Confidence,
    /// Who wrote it: `a FailedScheduling event message`, `a kubelet … log line`.
    pub speaker: String,
    /// The object the line names, if it names one.
    pub object: Option<ObjectKey>,
    /// How many lines of the paste show this cause (only the first few are kept).
    pub same: usize,
}

impl PastedMessage {
    /// Where it stood, `at` split: the file and the line.
    pub fn file_line(&self) -> Option<(&str, u64)> {
        let (file, n) = self.at.rsplit_once(':')?;
        Some((file, n.parse().ok()?))
    }
}

/// An object read from pasted text, and what that text could not show.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pasted {
    pub object: ObjectKey,
    /// What the paste held: `kubectl describe`, `a kubectl get events table`, `a status stanza`, ….
    pub from: String,
    /// What it lacks, as a phrase: `its events`, `its state (only its events were pasted)`.
    /// Empty when the paste shows everything the checks read (a whole describe).
    pub missing: String,
    /// The one read-only command whose output would settle the diagnosis.
    pub settle: String,
}

impl Pasted {
    /// The name (and namespace) of what a paste does not name: a status stanza, a bare message.
    /// It stands in the data only: no report prints it (`words_for_unknown`).
    pub const UNKNOWN: &'static str = "(unknown)";

    /// Prose that names what a paste did not name, in words: `Pod (unknown)/(unknown)` → `the
    /// pod`, `Pod (unknown)/web-1` → `Pod web-1`, `in namespace (unknown)` → `in its namespace`,
    /// `Container "(unknown)"` → `The container`, fields `[(unknown)-0]` → `[0]`.
    pub fn words_for_unknown(text: &str) -> std::borrow::Cow<'_, str> {
        if !text.contains(Self::UNKNOWN) {
            return std::borrow::Cow::Borrowed(text);
        }
        static RULES: std::sync::LazyLock<Vec<(regex::Regex, &'static str)>> =
            std::sync::LazyLock::new(|| {
                [
                    (
                        r"\b([A-Z][A-Za-z]+) \(unknown\)/\(unknown\)'s\b",
                        "the object's",
                    ),
                    (r"\bPod \(unknown\)/\(unknown\)", "the pod"),
                    (r"\b([A-Z][A-Za-z]+) \(unknown\)/\(unknown\)", "the object"),
                    (r"\(unknown\)/\(unknown\)", "the pod"),
                    (r"\(unknown\)/", ""),
                    (r#"Container "\(unknown\)(?:-\d+)?"'s"#, "The container's"),
                    (r#"Container "\(unknown\)(?:-\d+)?""#, "The container"),
                    (r#"container "?\(unknown\)(?:-\d+)?"?"#, "its container"),
                    (r"\[\(unknown\)-(\d+)\]", "[$1]"),
                    (r"\[\(unknown\)\]", "[0]"),
                    (r"in namespace \(unknown\)", "in its namespace"),
                    (r"\bin \(unknown\)", "in its namespace"),
                    (r"pod/\(unknown\)", "its workload"),
                    (r"-n \(unknown\)", "-n NAMESPACE"),
                    (r"\(unknown\)", "NAME"),
                ]
                .into_iter()
                .map(|(p, r)| (regex::Regex::new(p).expect("placeholder rule"), r))
                .collect()
            });
        let mut out = text.to_string();
        for (re, with) in RULES.iter() {
            if out.contains(Self::UNKNOWN) {
                out = re.replace_all(&out, *with).into_owned();
            }
        }
        std::borrow::Cow::Owned(out)
    }
}

/// (kind, namespace, name): how objects are found by name.
type Named = (Str, Str, Str);

/// The indexes' maps: keys come from the data, but a snapshot is built once and read, so a
/// fast hasher (with a random seed per map) is enough.
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;
type Set<K> = std::collections::HashSet<K, foldhash::fast::RandomState>;

#[derive(Debug, Default)]
struct Indexes {
    events: EventIndex,
    pods_by_node: Map<Str, Vec<usize>>,
    node_by_name: Map<Str, usize>,
    namespace_by_name: Map<Str, usize>,
    pvc_by_name: Map<(Str, Str), usize>,
    cm_by_name: Map<(Str, Str), usize>,
    secret_by_name: Map<(Str, Str), usize>,
    workload_by_name: Map<Named, usize>,
    cm_namespaces: Set<Str>,
    secret_namespaces: Set<Str>,
}

fn ns_name(m: &Meta) -> (Str, Str) {
    (m.ns().into(), m.name.clone())
}

/// Events by the object they are about, as (hash, position) pairs sorted by hash: a lookup
/// hashes its key, finds the run of equal hashes by binary search and keeps the events that
/// really are about the object. Two vectors of 16-byte pairs for 300,000 events, where maps
/// would hold an allocation per object.
#[derive(Debug, Default)]
struct EventIndex {
    /// By `involvedObject.uid`, when the event has one.
    by_uid: Vec<(u64, usize)>,
    /// By `involvedObject` kind, namespace and name.
    by_name: Vec<(u64, usize)>,
}

impl EventIndex {
    fn hash<K: std::hash::Hash>(key: K) -> u64 {
        use std::hash::BuildHasher;
        foldhash::fast::FixedState::with_seed(0x006b_7562_6577_6879).hash_one(key)
    }

    fn new(events: &[std::sync::Arc<Event>]) -> Self {
        let mut by_uid = Vec::with_capacity(events.len());
        let mut by_name = Vec::with_capacity(events.len());
        for (i, e) in events.iter().enumerate() {
            let o = &e.involved;
            if !o.uid.is_empty() {
                by_uid.push((Self::hash(o.uid.as_str()), i));
            }
            by_name.push((Self::hash((&*o.kind, &*o.namespace, &*o.name)), i));
        }
        // Stable: events of one object stay in the order read.
        by_uid.sort_by_key(|(h, _)| *h);
        by_name.sort_by_key(|(h, _)| *h);
        EventIndex { by_uid, by_name }
    }

    /// Positions whose hash is `h`, in the order read.
    fn run(pairs: &[(u64, usize)], h: u64) -> impl Iterator<Item = usize> + '_ {
        let start = pairs.partition_point(|(x, _)| *x < h);
        pairs[start..]
            .iter()
            .take_while(move |(x, _)| *x == h)
            .map(|(_, i)| *i)
    }
}

/// Moves the pieces of a list, in order, into `into`, which grows once to its exact size.
fn concat<T>(into: &mut Vec<T>, pieces: Vec<Vec<T>>) {
    into.reserve_exact(pieces.iter().map(Vec::len).sum());
    // Each piece is freed as soon as it is moved.
    for mut piece in pieces {
        into.append(&mut piece);
    }
}

/// Keeps the last of several copies of the same object (same kind, namespace and name).
fn dedup_by<T>(v: &mut Vec<T>, key: impl for<'a> Fn(&'a T) -> (&'a str, &'a str, &'a str)) {
    let keep = {
        let mut seen: Map<(&str, &str, &str), usize> = Map::default();
        seen.reserve(v.len());
        let mut keep = vec![true; v.len()];
        for (i, item) in v.iter().enumerate() {
            if let Some(prev) = seen.insert(key(item), i) {
                keep[prev] = false;
            }
        }
        keep
    };
    if keep.iter().all(|k| *k) {
        return;
    }
    let mut i = 0;
    v.retain(|_| {
        i += 1;
        keep[i - 1]
    });
}

impl Snapshot {
    /// The containers of pod `ns/name` that restarted after a termination and whose log the
    /// data lacks: the previous run's log is what would explain the exit.
    pub fn crashed_without_logs(&self, ns: &str, name: &str) -> Vec<String> {
        self.pods
            .iter()
            .filter(|p| p.metadata.name == name && p.metadata.ns() == ns)
            .flat_map(|p| {
                p.status
                    .init_container_statuses
                    .iter()
                    .chain(&p.status.container_statuses)
            })
            .filter(|c| c.restart_count > 0 && c.last_state.terminated.is_some())
            .filter(|c| self.logs_for(ns, name, &c.name).is_none())
            .map(|c| c.name.to_string())
            .collect()
    }

    /// Adds what was read on a node. With `time_from_data` (offline data, no `--now`), the
    /// snapshot's time moves to the bundle's newest line or collection time when that is later:
    /// node evidence is data too.
    pub fn add_node_bundle(&mut self, bundle: crate::node::NodeBundle, time_from_data: bool) {
        if time_from_data {
            let newest = bundle
                .lines
                .iter()
                .filter_map(|l| l.time)
                .chain(bundle.collected)
                .max();
            if let Some(t) = newest
                && self.now.is_none_or(|n| n < t)
            {
                self.now = Some(t);
            }
        }
        self.node.bundles.push(bundle);
    }

    /// The moment the checks judge at: `now`, else when the data was read, else (a snapshot
    /// built by hand, without a time of its own) the epoch.
    pub fn judged_at(&self) -> Timestamp {
        self.now.or(self.read_at).unwrap_or_default()
    }

    /// Moves the objects and kind counts of unfinished snapshots (one per file or block read)
    /// into this one, in order. Each list grows once, to its exact size (at 150,000 pods a
    /// doubling list would copy and briefly hold twice what it keeps); pods and events, the
    /// large ones, are moved on threads of their own.
    pub fn append(&mut self, parts: Vec<Snapshot>) {
        macro_rules! append {
            ($($field:ident),*) => {
                // Each list's pieces, taken from the parts without moving an object yet.
                $( let mut $field = Vec::with_capacity(parts.len()); )*
                for part in parts {
                    $( $field.push(part.$field); )*
                    for (kind, n) in part.kinds_loaded {
                        *self.kinds_loaded.entry(kind).or_insert(0) += n;
                    }
                }
                std::thread::scope(|s| {
                    $( append!(@move s, $field, $field); )*
                });
            };
            (@move $s:ident, pods, $field:ident) => {
                $s.spawn(|| concat(&mut self.$field, $field));
            };
            (@move $s:ident, events, $field:ident) => {
                $s.spawn(|| concat(&mut self.$field, $field));
            };
            (@move $s:ident, $other:ident, $field:ident) => {
                concat(&mut self.$field, $field);
            };
        }
        object_lists!(append);
    }

    /// Gives back the room lists grew into and do not use (a part read from one file or block
    /// keeps its objects until all are read).
    pub fn shrink_lists(&mut self) {
        macro_rules! shrink {
            ($($field:ident),*) => {
                $( self.$field.shrink_to_fit(); )*
            };
        }
        object_lists!(shrink);
    }

    /// Deduplicates, indexes, and settles `now` (`now_override`, else the newest timestamp seen).
    pub fn finish(&mut self, now_override: Option<Timestamp>) {
        self.finish_until(now_override, None)
    }

    /// `finish`, where without `now_override` the snapshot's time is the newest timestamp no
    /// later than `limit` (the moment the data was read). Pods and events, the large lists, are
    /// done on threads of their own.
    pub fn finish_until(&mut self, now_override: Option<Timestamp>, limit: Option<Timestamp>) {
        fn k(m: &Meta) -> (&str, &str, &str) {
            ("", m.ns(), &m.name)
        }
        let mut idx = Indexes::default();
        std::thread::scope(|s| {
            let (pods, events) = (&mut self.pods, &mut self.events);
            let by_node = s.spawn(|| {
                dedup_by(pods, |p| k(&p.metadata));
                let mut by_node: Map<Str, Vec<usize>> = Map::default();
                for (i, p) in pods.iter().enumerate() {
                    if let Some(n) = p.spec.node_name.as_ref().filter(|n| !n.is_empty()) {
                        by_node.entry(n.clone()).or_default().push(i);
                    }
                }
                by_node
            });
            let by_event = s.spawn(|| {
                dedup_by(events, |e| ("", &e.namespace, &e.name));
                EventIndex::new(events)
            });
            dedup_by(&mut self.nodes, |p| k(&p.metadata));
            dedup_by(&mut self.namespaces, |p| k(&p.metadata));
            dedup_by(&mut self.pvcs, |p| k(&p.metadata));
            dedup_by(&mut self.pvs, |p| k(&p.metadata));
            dedup_by(&mut self.config_maps, |p| k(&p.metadata));
            dedup_by(&mut self.secrets, |p| k(&p.metadata));
            dedup_by(&mut self.workloads, |w| {
                (&w.kind, w.metadata.ns(), &w.metadata.name)
            });
            dedup_by(&mut self.others, |o| {
                (&o.kind, o.metadata.ns(), &o.metadata.name)
            });
            for (i, n) in self.nodes.iter().enumerate() {
                idx.node_by_name.insert(n.metadata.name.clone(), i);
            }
            for (i, n) in self.namespaces.iter().enumerate() {
                idx.namespace_by_name.insert(n.metadata.name.clone(), i);
            }
            for (i, p) in self.pvcs.iter().enumerate() {
                idx.pvc_by_name.insert(ns_name(&p.metadata), i);
            }
            for (i, c) in self.config_maps.iter().enumerate() {
                idx.cm_by_name.insert(ns_name(&c.metadata), i);
                idx.cm_namespaces.insert(c.metadata.ns().into());
            }
            for (i, s) in self.secrets.iter().enumerate() {
                idx.secret_by_name.insert(ns_name(&s.metadata), i);
                idx.secret_namespaces.insert(s.metadata.ns().into());
            }
            for (i, w) in self.workloads.iter().enumerate() {
                let key = (
                    w.kind.clone(),
                    w.metadata.ns().into(),
                    w.metadata.name.clone(),
                );
                idx.workload_by_name.insert(key, i);
            }
            // A thread that panicked leaves its index empty rather than failing the scan.
            idx.pods_by_node = by_node.join().unwrap_or_default();
            idx.events = by_event.join().unwrap_or_default();
        });
        self.idx = idx;
        self.now = now_override.or_else(|| self.newest_timestamp_until(limit));
    }

    /// The newest timestamp anywhere in the data: a dump analysed next week is judged as of the
    /// moment it was taken.
    pub fn newest_timestamp(&self) -> Option<Timestamp> {
        self.newest_timestamp_until(None)
    }

    /// The newest timestamp no later than `limit`: a timestamp after the moment the data was
    /// read is wrong (or planted), and must not make every pod look stuck for decades.
    pub fn newest_timestamp_until(&self, limit: Option<Timestamp>) -> Option<Timestamp> {
        let mut newest: Option<Timestamp> = None;
        self.timestamps(|t| {
            if limit.is_none_or(|l| t.at <= l) {
                newest = Some(newest.map_or(t.at, |n| n.max(t.at)));
            }
        });
        newest
    }

    /// Every timestamp the snapshot's time is read from, with the object and field it is in.
    pub fn timestamps<'a>(&'a self, mut f: impl FnMut(Stamp<'a>)) {
        let mut see =
            |kind: &'a str, (namespace, name): (&'a str, &'a str), field, t: Option<Timestamp>| {
                if let Some(at) = t {
                    f(Stamp {
                        kind,
                        namespace,
                        name,
                        field,
                        at,
                    });
                }
            };
        fn id(m: &Meta) -> (&str, &str) {
            (m.ns(), &m.name)
        }
        const CREATED: &str = "metadata.creationTimestamp";
        const DELETED: &str = "metadata.deletionTimestamp";
        for p in &self.pods {
            let at = id(&p.metadata);
            see("Pod", at, CREATED, p.metadata.creation_timestamp);
            see("Pod", at, DELETED, p.metadata.deletion_timestamp);
            see("Pod", at, "status.startTime", p.status.start_time);
            for c in &p.status.conditions {
                let field = "status.conditions.lastTransitionTime";
                see("Pod", at, field, c.last_transition_time);
            }
            let statuses = p.status.container_statuses.iter();
            for cs in statuses.chain(&p.status.init_container_statuses) {
                for st in [&cs.state, &cs.last_state] {
                    if let Some(r) = &st.running {
                        see(
                            "Pod",
                            at,
                            "status.containerStatuses.startedAt",
                            r.started_at,
                        );
                    }
                    if let Some(t) = &st.terminated {
                        see(
                            "Pod",
                            at,
                            "status.containerStatuses.finishedAt",
                            t.finished_at,
                        );
                    }
                }
            }
        }
        for n in &self.nodes {
            let at = id(&n.metadata);
            see("Node", at, CREATED, n.metadata.creation_timestamp);
            see("Node", at, DELETED, n.metadata.deletion_timestamp);
            for c in &n.status.conditions {
                let field = "status.conditions.lastHeartbeatTime";
                see("Node", at, field, c.last_heartbeat_time);
                let field = "status.conditions.lastTransitionTime";
                see("Node", at, field, c.last_transition_time);
            }
        }
        for e in &self.events {
            let at = (e.namespace.as_str(), e.name.as_str());
            see("Event", at, "lastTimestamp", e.last_time);
            see("Event", at, "firstTimestamp", e.first_time);
        }
        for n in &self.namespaces {
            let at = id(&n.metadata);
            see("Namespace", at, CREATED, n.metadata.creation_timestamp);
            see("Namespace", at, DELETED, n.metadata.deletion_timestamp);
            for c in &n.status.conditions {
                let field = "status.conditions.lastTransitionTime";
                see("Namespace", at, field, c.last_transition_time);
            }
        }
        for l in &self.leases {
            see(
                "Lease",
                id(&l.metadata),
                "spec.renewTime",
                l.spec.renew_time,
            );
        }
        for o in &self.others {
            see(
                "object",
                id(&o.metadata),
                CREATED,
                o.metadata.creation_timestamp,
            );
            see(
                "object",
                id(&o.metadata),
                DELETED,
                o.metadata.deletion_timestamp,
            );
        }
    }

    /// Events about an object, by uid when known and by kind/namespace/name, oldest first.
    pub fn events_for(&self, kind: &str, meta: &Meta) -> Vec<&Event> {
        let idx = &self.idx.events;
        let mut ids: Vec<usize> = Vec::new();
        if !meta.uid.is_empty() {
            let h = EventIndex::hash(meta.uid.as_str());
            ids.extend(
                EventIndex::run(&idx.by_uid, h)
                    .filter(|&i| self.events[i].involved.uid == meta.uid),
            );
        }
        let h = EventIndex::hash((kind, meta.ns(), meta.name.as_str()));
        for i in EventIndex::run(&idx.by_name, h) {
            let o = &self.events[i].involved;
            if o.kind != kind || o.namespace != meta.ns() || o.name != meta.name {
                continue;
            }
            // An event for an older object of the same name is not about this one.
            let same = o.uid.is_empty() || meta.uid.is_empty() || o.uid == meta.uid;
            if same && !ids.contains(&i) {
                ids.push(i);
            }
        }
        let mut evs: Vec<&Event> = ids.into_iter().map(|i| &*self.events[i]).collect();
        evs.sort_by_key(|e| e.last_time.or(e.first_time));
        evs
    }

    pub fn pods_on_node(&self, node: &str) -> impl Iterator<Item = &Pod> {
        self.idx
            .pods_by_node
            .get(node)
            .into_iter()
            .flatten()
            .map(|&i| &*self.pods[i])
    }
    pub fn node(&self, name: &str) -> Option<&Node> {
        self.idx.node_by_name.get(name).map(|&i| &self.nodes[i])
    }
    pub fn namespace(&self, name: &str) -> Option<&Namespace> {
        self.idx
            .namespace_by_name
            .get(name)
            .map(|&i| &self.namespaces[i])
    }
    pub fn pvc(&self, ns: &str, name: &str) -> Option<&PersistentVolumeClaim> {
        self.idx
            .pvc_by_name
            .get(&(ns.into(), name.into()))
            .map(|&i| &self.pvcs[i])
    }
    pub fn config_map(&self, ns: &str, name: &str) -> Option<&KeyedObject> {
        self.idx
            .cm_by_name
            .get(&(ns.into(), name.into()))
            .map(|&i| &self.config_maps[i])
    }
    pub fn secret(&self, ns: &str, name: &str) -> Option<&KeyedObject> {
        self.idx
            .secret_by_name
            .get(&(ns.into(), name.into()))
            .map(|&i| &self.secrets[i])
    }
    pub fn workload(&self, kind: &str, ns: &str, name: &str) -> Option<&Workload> {
        self.idx
            .workload_by_name
            .get(&(kind.into(), ns.into(), name.into()))
            .map(|&i| &self.workloads[i])
    }
    /// True when the input held ConfigMaps of this namespace, so absence means "does not exist".
    /// (Every namespace has `kube-root-ca.crt` since 1.20, so a dump of them is never empty.)
    pub fn config_maps_known(&self, ns: &str) -> bool {
        self.idx.cm_namespaces.contains(ns)
    }
    /// True when the input held Secrets of this namespace.
    /// Puts a Secret's or ConfigMap's keys, read after it was listed as metadata only, in place
    /// of its metadata; an object the snapshot does not hold is left out.
    pub fn keys_read(&mut self, kind: &str, obj: KeyedObject) {
        let key = (obj.metadata.ns().into(), obj.metadata.name.clone());
        let (index, list) = match kind {
            "ConfigMap" => (&self.idx.cm_by_name, &mut self.config_maps),
            _ => (&self.idx.secret_by_name, &mut self.secrets),
        };
        if let Some(&i) = index.get(&key) {
            list[i] = obj;
        }
    }
    pub fn secrets_known(&self, ns: &str) -> bool {
        self.idx.secret_namespaces.contains(ns)
    }
    /// True when Node objects were loaded, so a missing node means "deleted".
    pub fn nodes_known(&self) -> bool {
        self.kinds_loaded.contains_key("Node")
    }
    /// The log of a container: the previous run's when the data has it (it explains a crash),
    /// else the current run's, else the pod's log that names no container. A log that holds
    /// only the kubelet's "unable to retrieve container logs" is none.
    pub fn logs_for(&self, ns: &str, pod: &str, container: &str) -> Option<&ContainerLog> {
        let its = |l: &&ContainerLog| {
            l.namespace == ns && l.pod == pod && l.container == container && !l.unavailable()
        };
        self.logs
            .iter()
            .filter(its)
            .find(|l| l.previous)
            .or_else(|| self.logs.iter().find(its))
            .or_else(|| {
                self.logs.iter().find(|l| {
                    l.namespace == ns && l.pod == pod && l.container.is_empty() && !l.unavailable()
                })
            })
    }
    /// Labels of an object, for `-l` filtering.
    pub fn labels_of(&self, key: &ObjectKey) -> Option<&Labels> {
        let m = match key.kind.as_str() {
            "Pod" => self
                .pods
                .iter()
                .find(|p| p.metadata.name == key.name && p.metadata.ns() == key.namespace)
                .map(|p| &p.metadata),
            "Node" => self.node(&key.name).map(|n| &n.metadata),
            "Namespace" => self.namespace(&key.name).map(|n| &n.metadata),
            _ => None,
        };
        m.map(|m| &*m.labels)
    }
    /// Every object left in a namespace (events excluded), as (kind, metadata).
    pub fn objects_in_namespace(&self, ns: &str) -> Vec<(&str, &Meta)> {
        let mut out: Vec<(&str, &Meta)> = Vec::new();
        out.extend(self.pods.iter().map(|o| ("Pod", &o.metadata)));
        out.extend(
            self.pvcs
                .iter()
                .map(|o| ("PersistentVolumeClaim", &o.metadata)),
        );
        out.extend(self.config_maps.iter().map(|o| ("ConfigMap", &o.metadata)));
        out.extend(self.secrets.iter().map(|o| ("Secret", &o.metadata)));
        out.extend(
            self.service_accounts
                .iter()
                .map(|o| ("ServiceAccount", &o.metadata)),
        );
        out.extend(
            self.workloads
                .iter()
                .map(|o| (o.kind.as_str(), &o.metadata)),
        );
        out.extend(self.leases.iter().map(|o| ("Lease", &o.metadata)));
        out.extend(
            self.resource_quotas
                .iter()
                .map(|o| ("ResourceQuota", &o.metadata)),
        );
        out.extend(
            self.limit_ranges
                .iter()
                .map(|o| ("LimitRange", &o.metadata)),
        );
        out.extend(self.others.iter().map(|o| (o.kind.as_str(), &o.metadata)));
        out.retain(|(_, m)| m.namespace.as_deref() == Some(ns));
        out
    }

    /// Number of objects of all kinds (logs excluded).
    pub fn object_count(&self) -> usize {
        macro_rules! count {
            ($($field:ident),*) => {
                0 $( + self.$field.len() )*
            };
        }
        object_lists!(count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both runs' logs of a container, the current one read first (must-gather's
    /// `current.log` sorts before `previous.log`): the previous run's is the one that explains
    /// the crash; without it, the current one; without either, the pod's unnamed log.
    #[test]
    fn a_containers_previous_run_is_its_log_whatever_the_order_read() {
        let log = |container: &str, previous: bool, origin: &str| ContainerLog {
            namespace: "shop".into(),
            pod: "web-1".into(),
            container: container.into(),
            origin: origin.into(),
            tail: vec![origin.into()],
            previous,
        };
        let mut snap = Snapshot {
            logs: vec![
                log("", false, "logs.txt"),
                log("app", false, "current.log"),
                log("app", true, "previous.log"),
            ],
            ..Default::default()
        };
        let origin =
            |s: &Snapshot, c: &str| s.logs_for("shop", "web-1", c).map(|l| l.origin.clone());
        assert_eq!(origin(&snap, "app").as_deref(), Some("previous.log"));
        snap.logs.pop();
        assert_eq!(origin(&snap, "app").as_deref(), Some("current.log"));
        assert_eq!(origin(&snap, "other").as_deref(), Some("logs.txt"));
    }

    /// The e2e's must-gather (CI, 2026-11-26): the crashing container restarted while its
    /// previous log was fetched, and the kubelet's answer stood in `previous.log`. That is no
    /// log: the current run's is the container's words.
    #[test]
    fn the_kubelets_no_log_answer_is_no_log() {
        let log = |previous: bool, origin: &str, line: &str| ContainerLog {
            namespace: "e2e-refused".into(),
            pod: "dependent".into(),
            container: "main".into(),
            origin: origin.into(),
            tail: vec![line.into(), String::new()],
            previous,
        };
        let gone = "unable to retrieve container logs for containerd://d2d47199821abdbba893dcda65c224466a9adc57bd6a7ea91e2c3d98b27dcdd8";
        let mut snap = Snapshot {
            logs: vec![
                log(false, "current.log", "connect: connection refused"),
                log(true, "previous.log", gone),
            ],
            ..Default::default()
        };
        let origin = |s: &Snapshot| {
            s.logs_for("e2e-refused", "dependent", "main")
                .map(|l| l.origin.clone())
        };
        assert_eq!(origin(&snap).as_deref(), Some("current.log"));
        snap.logs.remove(0);
        assert_eq!(origin(&snap), None);
        // The other answers, as kubectl saves them too; application text quoting one is a log.
        for line in [
            r#"failed to try resolving symlinks in path "/var/log/pods/a_b_c/main/1.log": lstat /var/log/pods/a_b_c/main/1.log: no such file or directory"#,
            r#"previous terminated container "main" in pod "dependent" not found"#,
            r#"Error from server (BadRequest): container "main" in pod "dependent" is waiting to start: ContainerCreating"#,
        ] {
            assert!(crate::messages::app::log_unavailable([line]), "{line}");
        }
        for text in [
            "",
            "error: unable to retrieve container logs for containerd://x",
            "unable to retrieve container logs for containerd://x\npanic: boom",
        ] {
            assert!(
                !crate::messages::app::log_unavailable(text.lines()),
                "{text}"
            );
        }
    }
}
