//! kube-scheduler's filters, evaluated from the snapshot's state for one Pending pod on every
//! node: what each node lacks, the scheduler-style summary, and the nearest miss. Events expire
//! after an hour; this answer does not.
//!
//! The filters and their order are the default profile's (NodeUnschedulable, TaintToleration,
//! NodeAffinity, NodePorts, NodeResourcesFit, VolumeBinding/VolumeZone, PodTopologySpread,
//! InterPodAffinity). Like the scheduler, the summary counts each node under the first filter
//! that rejects it; unlike it, every failing filter is kept, so the nearest miss can say
//! everything a node would need.

use kubewhy_model::messages::scheduler::{SetAside, pick_primary, set_aside};
use kubewhy_model::objects::{
    Container, LabelSelector, Labels, Node, NodeSelector, Pod, PodAffinityTerm, QuantityText, Str,
    Taint,
};
use kubewhy_model::{Cause, ObjectKey, RiskLevel, Snapshot, quantity};
use std::collections::{BTreeMap, HashMap, HashSet};

/// A histogram entry set aside for the primary failure: `(nodes, reason, why)`.
pub(crate) type Aside = (u32, String, SetAside);

/// Requests in the scheduler's units: millicores for cpu, whole units (bytes, devices) otherwise.
pub(crate) type Requests = BTreeMap<Str, i64>;

/// Why one node cannot take the pod, for one filter.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Failure {
    /// Cordoned (`spec.unschedulable`) and the pod does not tolerate it.
    Unschedulable,
    /// A NoSchedule / NoExecute taint the pod does not tolerate.
    Taint(Taint),
    /// `nodeSelector` labels, or required node affinity requirements, the node does not meet.
    NodeAffinity(Vec<String>),
    /// The hostPort is held on this node by another pod.
    HostPort {
        port: i64,
        protocol: String,
        holder: ObjectKey,
    },
    /// Requests exceed what is left: allocatable minus what bound, non-terminal pods request.
    Insufficient {
        resource: String,
        requested: i64,
        used: i64,
        allocatable: i64,
    },
    /// The node already runs its allocatable number of pods (kubelet max-pods).
    TooManyPods { pods: i64, max: i64 },
    /// The claim's bound PersistentVolume may not be used on this node.
    VolumeNodeAffinity { claim: String, volume: String },
    /// WaitForFirstConsumer claim, no provisioner, and no available volume usable on this node.
    NoVolumeToBind { claim: String },
    /// A required topology spread constraint would be violated (or the node lacks its key).
    TopologySpread {
        key: String,
        skew: Option<i64>,
        max_skew: i64,
    },
    /// A required pod affinity term finds no matching pod in this node's domain.
    PodAffinity { key: String },
    /// A required anti-affinity term of the pod finds a matching pod in this node's domain.
    PodAntiAffinity { key: String, other: ObjectKey },
    /// An existing pod's required anti-affinity rejects this pod in its domain.
    ExistingAntiAffinity { key: String, other: ObjectKey },
}

impl Failure {
    /// The filter's position in the default profile: a node counts under its first failure.
    fn order(&self) -> u8 {
        match self {
            Failure::Unschedulable => 0,
            Failure::Taint(_) => 1,
            Failure::NodeAffinity(_) => 2,
            Failure::HostPort { .. } => 3,
            Failure::Insufficient { .. } | Failure::TooManyPods { .. } => 4,
            Failure::VolumeNodeAffinity { .. } | Failure::NoVolumeToBind { .. } => 5,
            Failure::TopologySpread { .. } => 6,
            Failure::PodAffinity { .. }
            | Failure::PodAntiAffinity { .. }
            | Failure::ExistingAntiAffinity { .. } => 7,
        }
    }

    pub fn cause(&self) -> Cause {
        match self {
            Failure::Unschedulable => Cause::NodeUnschedulable,
            Failure::Taint(t) => kubewhy_model::messages::scheduler::taint_cause(&t.key),
            Failure::NodeAffinity(_) => Cause::NodeSelectorMismatch,
            Failure::HostPort { .. } => Cause::HostPortConflict,
            Failure::Insufficient { .. } => Cause::InsufficientResources,
            Failure::TooManyPods { .. } => Cause::TooManyPods,
            Failure::VolumeNodeAffinity { .. } => Cause::VolumeNodeAffinityConflict,
            Failure::NoVolumeToBind { .. } => Cause::PvcUnbound,
            Failure::TopologySpread { .. }
            | Failure::PodAffinity { .. }
            | Failure::PodAntiAffinity { .. }
            | Failure::ExistingAntiAffinity { .. } => Cause::PodAffinityUnsatisfiable,
        }
    }

    /// The detail findings are grouped by (the resource, the taint, the claim).
    pub fn detail(&self) -> String {
        match self {
            Failure::Insufficient { resource, .. } => resource.clone(),
            Failure::Taint(t) => taint_braces(t),
            Failure::VolumeNodeAffinity { claim, .. } | Failure::NoVolumeToBind { claim } => {
                claim.clone()
            }
            Failure::HostPort { port, protocol, .. } => format!("{port}/{protocol}"),
            _ => String::new(),
        }
    }

    /// Whether two failures read the same in the scheduler's histogram (`reason()` equal),
    /// without formatting either.
    fn same_reason(&self, other: &Failure) -> bool {
        use Failure::*;
        match (self, other) {
            (Taint(a), Taint(b)) => a.key == b.key && a.value == b.value,
            (Insufficient { resource: a, .. }, Insufficient { resource: b, .. }) => a == b,
            (TopologySpread { skew: a, .. }, TopologySpread { skew: b, .. }) => {
                a.is_none() == b.is_none()
            }
            _ => std::mem::discriminant(self) == std::mem::discriminant(other),
        }
    }

    /// The reason as the scheduler's histogram words it (current wording).
    pub fn reason(&self) -> String {
        match self {
            Failure::Unschedulable => "node(s) were unschedulable".into(),
            Failure::Taint(t) => format!("node(s) had untolerated taint {}", taint_braces(t)),
            Failure::NodeAffinity(_) => "node(s) didn't match Pod's node affinity/selector".into(),
            Failure::HostPort { .. } => {
                "node(s) didn't have free ports for the requested pod ports".into()
            }
            Failure::Insufficient { resource, .. } => format!("Insufficient {resource}"),
            Failure::TooManyPods { .. } => "Too many pods".into(),
            Failure::VolumeNodeAffinity { .. } => {
                "node(s) had volume node affinity conflict".into()
            }
            Failure::NoVolumeToBind { .. } => {
                "node(s) didn't find available persistent volumes to bind".into()
            }
            Failure::TopologySpread { skew: None, .. } => {
                "node(s) didn't match pod topology spread constraints (missing required label)"
                    .into()
            }
            Failure::TopologySpread { .. } => {
                "node(s) didn't match pod topology spread constraints".into()
            }
            Failure::PodAffinity { .. } => "node(s) didn't match pod affinity rules".into(),
            Failure::PodAntiAffinity { .. } => {
                "node(s) didn't match pod anti-affinity rules".into()
            }
            Failure::ExistingAntiAffinity { .. } => {
                "node(s) didn't satisfy existing pods anti-affinity rules".into()
            }
        }
    }

    /// What the node would need, in words ("lacks 1.5 cpu (requests 4, 2.5 free of 8)").
    pub fn need(&self) -> String {
        match self {
            Failure::Unschedulable => "it is cordoned: it fits once uncordoned".into(),
            Failure::Taint(t) => format!("it fits if the pod tolerated {}", t.display()),
            Failure::NodeAffinity(unmet) => {
                format!("it fits if it had {}", unmet.join(" and "))
            }
            Failure::HostPort {
                port,
                protocol,
                holder,
            } => format!(
                "hostPort {port}/{protocol} is held there by Pod {}/{}",
                holder.namespace, holder.name
            ),
            Failure::Insufficient {
                resource,
                requested,
                used,
                allocatable,
            } => {
                let free = (allocatable - used).max(0);
                format!(
                    "it lacks {} {resource} (the pod requests {}, {} free of {} allocatable)",
                    amount(resource, requested - free),
                    amount(resource, *requested),
                    amount(resource, free),
                    amount(resource, *allocatable)
                )
            }
            Failure::TooManyPods { pods, max } => {
                format!("it already runs {pods} of its {max} pods")
            }
            Failure::VolumeNodeAffinity { claim, volume } => {
                format!("PersistentVolume {volume} (claim {claim}) may not be used on it")
            }
            Failure::NoVolumeToBind { claim } => {
                format!("no available PersistentVolume for claim {claim} can be used on it")
            }
            Failure::TopologySpread {
                key, skew: None, ..
            } => format!("it lacks the topology label {key}"),
            Failure::TopologySpread {
                key,
                skew: Some(s),
                max_skew,
            } => format!(
                "placing the pod there makes the skew across {key} {s} (maxSkew {max_skew})"
            ),
            Failure::PodAffinity { key } => {
                format!("no pod the affinity rule requires runs in its {key} domain")
            }
            Failure::PodAntiAffinity { key, other }
            | Failure::ExistingAntiAffinity { key, other } => {
                format!(
                    "Pod {}/{} in its {key} domain rules it out (anti-affinity)",
                    other.namespace, other.name
                )
            }
        }
    }

    /// The one change that removes this obstacle on `node`, with its command and risk, when
    /// there is such a change.
    pub fn fix(&self, node: &str) -> Option<(String, Option<String>, RiskLevel, &'static str)> {
        match self {
            Failure::Unschedulable => Some((
                format!("Uncordon {node} if its maintenance is over"),
                Some(format!("kubectl uncordon {node}")),
                RiskLevel::Low,
                "Do not uncordon a node that is being drained or is unhealthy.",
            )),
            Failure::Taint(t) if !t.key.starts_with("node.kubernetes.io/") => Some((
                format!(
                    "Remove taint {} from {node} if it is left over",
                    t.display()
                ),
                Some(format!("kubectl taint nodes {node} {}-", t.display())),
                RiskLevel::Medium,
                "Every pod the taint kept off the node may start landing on it.",
            )),
            Failure::NodeAffinity(unmet) => {
                let labels: Vec<&str> = unmet
                    .iter()
                    .filter_map(|u| u.strip_prefix("label "))
                    .collect();
                (labels.len() == unmet.len()).then(|| {
                    (
                        format!("Label {node} if it is meant to run the pod"),
                        Some(format!("kubectl label node {node} {}", labels.join(" "))),
                        RiskLevel::Low,
                        "Other workloads that select the same label may land on the node too.",
                    )
                })
            }
            Failure::HostPort { holder, .. } => Some((
                format!("See the pod holding the port on {node}"),
                Some(format!(
                    "kubectl get pod {} -n {} -o wide",
                    holder.name, holder.namespace
                )),
                RiskLevel::None,
                "",
            )),
            _ => None,
        }
    }

    /// How far the node is from fitting, 0..=1 and above, to rank near misses.
    fn distance(&self) -> f64 {
        match self {
            Failure::Insufficient {
                requested,
                used,
                allocatable,
                ..
            } => {
                let free = (allocatable - used).max(0);
                (requested - free) as f64 / (*allocatable).max(1) as f64
            }
            Failure::TooManyPods { .. } => 0.5,
            _ => 1.0,
        }
    }
}

/// `{key: value}`, as the scheduler prints a taint.
fn taint_braces(t: &Taint) -> String {
    format!("{{{}: {}}}", t.key, t.value.as_deref().unwrap_or(""))
}

/// A quantity in the scheduler's units, for people: `1.5` cpu, `512Mi`, `3`.
pub(crate) fn amount(resource: &str, v: i64) -> String {
    if resource == "cpu" {
        if v % 1000 == 0 {
            return format!("{}", v / 1000);
        }
        // As people write them: 500m or 1500m, but 998.02 rather than 998020m.
        if v.abs() >= 10_000 {
            let cores = format!("{:.3}", v as f64 / 1000.0);
            return cores.trim_end_matches('0').to_string();
        }
        return format!("{}m", v);
    }
    let is_bytes = resource == "memory"
        || resource == "ephemeral-storage"
        || resource.starts_with("hugepages-");
    if is_bytes {
        for (unit, size) in [("Gi", 1i64 << 30), ("Mi", 1 << 20), ("Ki", 1 << 10)] {
            if v.abs() >= size {
                let x = v as f64 / size as f64;
                return if (x - x.round()).abs() < 0.05 {
                    format!("{}{unit}", x.round())
                } else {
                    format!("{x:.1}{unit}")
                };
            }
        }
    }
    v.to_string()
}

#[cfg(test)]
mod amount_tests {
    #[test]
    fn quantities_read_as_people_write_them() {
        assert_eq!(super::amount("cpu", 998_020), "998.02");
        assert_eq!(super::amount("cpu", 1_500), "1500m");
        assert_eq!(super::amount("cpu", 12_500), "12.5");
        assert_eq!(super::amount("cpu", 250), "250m");
        assert_eq!(super::amount("cpu", 4_000), "4");
        assert_eq!(super::amount("memory", 64 << 20), "64Mi");
    }
}

/// One quantity in scheduler units; malformed quantities count as zero, as they cannot have
/// been admitted by the API server anyway.
fn units(resource: &str, q: &QuantityText) -> i64 {
    let v = quantity::parse(&q.0).unwrap_or(0.0);
    let v = if resource == "cpu" { v * 1000.0 } else { v };
    v.ceil().clamp(0.0, i64::MAX as f64) as i64
}

/// Allocatable in the scheduler's units; a quantity that does not parse (the API server never
/// stores one) is taken as unlimited, so that no node is said to lack what the data cannot tell.
fn allocatable_units(resource: &str, q: &QuantityText) -> i64 {
    match quantity::parse(&q.0) {
        Some(_) => units(resource, q),
        None => i64::MAX,
    }
}

fn add(into: &mut Requests, from: &Requests) {
    for (k, v) in from {
        let e = into.entry(k.clone()).or_default();
        *e = e.saturating_add(*v);
    }
}

fn max_into(into: &mut Requests, from: &Requests) {
    for (k, v) in from {
        let e = into.entry(k.clone()).or_default();
        *e = (*e).max(*v);
    }
}

fn container_requests(c: &Container) -> Requests {
    c.resources
        .requests
        .iter()
        .map(|(k, q)| (k.clone(), units(k, q)))
        .collect()
}

/// The pod's effective request, as the scheduler computes it: app containers plus sidecars,
/// against the largest init container (plus the sidecars started before it), plus overhead.
pub(crate) fn pod_requests(pod: &Pod) -> Requests {
    let mut reqs = Requests::new();
    for c in &pod.spec.containers {
        add(&mut reqs, &container_requests(c));
    }
    let mut sidecars = Requests::new();
    let mut init_max = Requests::new();
    for c in &pod.spec.init_containers {
        let r = container_requests(c);
        if c.restart_policy.as_deref() == Some("Always") {
            add(&mut reqs, &r);
            add(&mut sidecars, &r);
            max_into(&mut init_max, &sidecars);
        } else {
            let mut with = r;
            add(&mut with, &sidecars);
            max_into(&mut init_max, &with);
        }
    }
    max_into(&mut reqs, &init_max);
    let overhead: Requests = pod
        .spec
        .overhead
        .iter()
        .map(|(k, q)| (k.clone(), units(k, q)))
        .collect();
    add(&mut reqs, &overhead);
    reqs.retain(|_, v| *v > 0);
    reqs
}

/// A pod still holds its node's resources until it is Succeeded or Failed.
fn holds_node(p: &Pod) -> bool {
    p.status.phase != "Succeeded" && p.status.phase != "Failed"
}

fn bound_node(p: &Pod) -> Option<&str> {
    p.spec.node_name.as_deref().filter(|n| !n.is_empty())
}

/// The hostPorts a pod holds: (port, protocol, hostIP).
fn host_ports(p: &Pod) -> Vec<(i64, String, String)> {
    p.spec
        .containers
        .iter()
        .chain(&p.spec.init_containers)
        .flat_map(|c| &c.ports)
        .filter_map(|port| {
            let hp = port.host_port.filter(|h| *h > 0).or_else(|| {
                // hostNetwork pods bind their container ports on the node.
                if p.spec.host_network == Some(true) {
                    port.container_port
                } else {
                    None
                }
            })?;
            let proto = port.protocol.as_deref().unwrap_or("TCP").to_string();
            let ip = port
                .host_ip
                .as_deref()
                .filter(|i| !i.is_empty())
                .unwrap_or("0.0.0.0")
                .to_string();
            Some((hp, proto, ip))
        })
        .collect()
}

/// What the filters need to know about one node, computed once per scan.
#[derive(Default)]
struct NodeFacts<'a> {
    /// Allocatable, parsed.
    allocatable: Requests,
    /// What its bound, non-terminal pods request.
    used: Requests,
    /// How many such pods it runs.
    count: i64,
    /// Their hostPorts: (port, protocol, hostIP, holder).
    ports: Vec<(i64, String, String, &'a Pod)>,
}

/// Facts about the cluster the filters share, computed once per scan.
pub(crate) struct Cluster<'a> {
    snap: &'a Snapshot,
    /// Per node, by the node's position in `snap.nodes`.
    facts: Vec<NodeFacts<'a>>,
    /// Bound, non-terminal, not deleting pods with their node: the inter-pod rules' input.
    placed: Vec<(&'a Pod, &'a Node)>,
    /// The placed pods with required anti-affinity (few): they can reject any incoming pod.
    anti_holders: Vec<(&'a Pod, &'a Node)>,
    /// Inter-pod reductions already made, by what they depend on: replicas of one workload
    /// share them, so the placed pods are scanned once per distinct rule set, not per pod.
    inter: std::cell::RefCell<HashMap<String, std::rc::Rc<InterPod>>>,
}

impl<'a> Cluster<'a> {
    pub fn new(snap: &'a Snapshot) -> Self {
        let index: HashMap<&str, usize> = snap
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.metadata.name.as_str(), i))
            .collect();
        let mut facts: Vec<NodeFacts> = snap
            .nodes
            .iter()
            .map(|n| NodeFacts {
                allocatable: n
                    .status
                    .allocatable
                    .iter()
                    .map(|(k, q)| (k.clone(), allocatable_units(k, q)))
                    .collect(),
                ..Default::default()
            })
            .collect();
        let mut placed = Vec::new();
        for p in snap.pods.iter().map(|p| &**p) {
            let Some(node) = bound_node(p) else { continue };
            if !holds_node(p) {
                continue;
            }
            // Pods of nodes not in the snapshot use no capacity the filters can see.
            let Some(&i) = index.get(node) else { continue };
            let f = &mut facts[i];
            add(&mut f.used, &pod_requests(p));
            f.count += 1;
            for (port, proto, ip) in host_ports(p) {
                f.ports.push((port, proto, ip, p));
            }
            if p.metadata.deletion_timestamp.is_none() {
                placed.push((p, &snap.nodes[i]));
            }
        }
        let anti_holders = placed
            .iter()
            .filter(|(p, _)| {
                p.spec
                    .affinity
                    .pod_anti_affinity
                    .as_ref()
                    .is_some_and(|a| !a.required.is_empty())
            })
            .copied()
            .collect();
        Cluster {
            snap,
            facts,
            placed,
            anti_holders,
            inter: Default::default(),
        }
    }

    /// Everything `simulate` reads of a pod, as a key: pods with equal keys get equal verdicts,
    /// so replicas, and alike pods of different namespaces, are simulated once. The namespace
    /// and labels count only where something reads them: claims are looked up in the
    /// namespace, and inter-pod rules (the pod's own, or placed pods' anti-affinity) match
    /// namespaces and labels.
    pub fn memo_key(&self, pod: &Pod) -> String {
        let spec = &pod.spec;
        let claims: Vec<&str> = spec
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
            .map(|c| c.claim_name.as_str())
            .collect();
        let inter = spec.affinity.pod_affinity.is_some()
            || spec.affinity.pod_anti_affinity.is_some()
            || !spec.topology_spread_constraints.is_empty()
            || !self.anti_holders.is_empty();
        let ns = if inter || !claims.is_empty() {
            pod.metadata.ns()
        } else {
            ""
        };
        let labels = inter.then_some(&pod.metadata.labels);
        format!(
            "{ns}|{labels:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{:?}|{claims:?}",
            pod_requests(pod),
            host_ports(pod),
            spec.tolerations,
            spec.node_selector,
            spec.affinity.node_affinity,
            spec.affinity.pod_affinity,
            spec.affinity.pod_anti_affinity,
            spec.topology_spread_constraints,
        )
    }

    /// The inter-pod reduction for the pod, from the cache when an identical rule set was seen.
    fn inter_pod(&self, pod: &Pod) -> std::rc::Rc<InterPod> {
        let spec = &pod.spec;
        let has_rules = spec.affinity.pod_affinity.is_some()
            || spec.affinity.pod_anti_affinity.is_some()
            || !spec.topology_spread_constraints.is_empty();
        if !has_rules && self.anti_holders.is_empty() {
            return std::rc::Rc::new(InterPod::default());
        }
        // Everything `InterPod::new` reads of the pod.
        let key = format!(
            "{}|{:?}|{:?}|{:?}|{:?}|{:?}",
            pod.metadata.ns(),
            pod.metadata.labels,
            spec.affinity.pod_affinity,
            spec.affinity.pod_anti_affinity,
            spec.topology_spread_constraints,
            (&spec.node_selector, &spec.affinity.node_affinity)
        );
        if let Some(hit) = self.inter.borrow().get(&key) {
            return hit.clone();
        }
        let made = std::rc::Rc::new(InterPod::new(self, pod));
        self.inter.borrow_mut().insert(key, made.clone());
        made
    }
}

/// One node's verdict.
#[derive(Debug)]
pub(crate) struct NodeFit<'a> {
    pub node: &'a Node,
    /// Every failing filter, in the scheduler's order; empty when the node can take the pod.
    pub failures: Vec<Failure>,
}

/// A reason that rules out every node at once (the scheduler's PreFilter stage).
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct PodLevel {
    pub cause: Cause,
    pub claim: String,
    pub reason: String,
}

#[derive(Debug)]
pub(crate) struct Simulation<'a> {
    pub pod_level: Option<PodLevel>,
    /// Every node's verdict; none when the pod is refused before nodes are looked at
    /// (`pod_level`), as the scheduler's PreFilter refuses it.
    pub nodes: Vec<NodeFit<'a>>,
    /// The nodes of the snapshot.
    pub node_count: usize,
    /// `histogram()`, computed once.
    hist: Vec<(u32, String, Failure)>,
}

impl<'a> Simulation<'a> {
    /// Nodes that can take the pod now.
    pub fn fitting(&self) -> Vec<&'a Node> {
        if self.pod_level.is_some() {
            return Vec::new();
        }
        self.nodes
            .iter()
            .filter(|n| n.failures.is_empty())
            .map(|n| n.node)
            .collect()
    }

    /// Each node under its first failing filter (and, for resources, every resource it lacks),
    /// most frequent first: `(count, reason, the failure)`.
    pub fn histogram(&self) -> &[(u32, String, Failure)] {
        &self.hist
    }

    fn compute_histogram(nodes: &[NodeFit]) -> Vec<(u32, String, Failure)> {
        // Failures are compared by what their reason says; each distinct one is worded once.
        let mut h: Vec<(u32, String, Failure)> = Vec::new();
        for n in nodes {
            let Some(first) = n.failures.first() else {
                continue;
            };
            for f in n.failures.iter().filter(|f| f.order() == first.order()) {
                match h.iter_mut().find(|(_, _, x)| x.same_reason(f)) {
                    Some(e) => e.0 += 1,
                    None => h.push((1, f.reason(), f.clone())),
                }
            }
        }
        h.sort_by(|a, b| b.0.cmp(&a.0).then(a.2.order().cmp(&b.2.order())));
        h
    }

    /// `0/5 nodes: 3 Insufficient memory, 2 node(s) had untolerated taint {dedicated: gpu}`.
    pub fn summary(&self) -> String {
        let total = self.node_count;
        if let Some(p) = &self.pod_level {
            return format!("0/{total} nodes: {}", p.reason);
        }
        let fit = self.fitting().len();
        let parts: Vec<String> = self
            .histogram()
            .iter()
            .map(|(n, r, _)| format!("{n} {r}"))
            .collect();
        if parts.is_empty() {
            return format!("{fit}/{total} nodes can take the pod");
        }
        format!("{fit}/{total} nodes: {}", parts.join(", "))
    }

    /// The failure to fix first, by the rule the scheduler's verdicts are read with
    /// ([`pick_primary`]): nodes the pod never wanted, and nodes out of service, explain
    /// nothing while other nodes fail for another reason.
    /// Also the histogram entries set aside for it.
    pub fn primary_and_set_aside(&self) -> Option<(Failure, Vec<Aside>)> {
        let view: Vec<(u32, Cause, &str)> = self
            .hist
            .iter()
            .map(|(n, r, f)| (*n, f.cause(), r.as_str()))
            .collect();
        let total = u32::try_from(self.node_count).ok();
        let (i, aside) = pick_primary(&view, total)?;
        let aside = aside
            .into_iter()
            .filter_map(|j| {
                let (n, r, f) = &self.hist[j];
                set_aside(f.cause(), r).map(|why| (*n, r.clone(), why))
            })
            .collect();
        Some((self.hist[i].2.clone(), aside))
    }

    /// The node closest to fitting: fewest failing filters, then the smallest shortfall.
    pub fn nearest_miss(&self) -> Option<&NodeFit<'a>> {
        if self.pod_level.is_some() {
            return None;
        }
        self.nodes
            .iter()
            .filter(|n| !n.failures.is_empty())
            .min_by(|a, b| {
                let d = |n: &NodeFit| n.failures.iter().map(Failure::distance).sum::<f64>();
                a.failures
                    .len()
                    .cmp(&b.failures.len())
                    .then(d(a).total_cmp(&d(b)))
                    .then(a.node.metadata.name.cmp(&b.node.metadata.name))
            })
    }
}

/// What a check keeps of a simulation: the summary, the main obstacle, the nearest miss and a
/// few nodes that fit — small enough to keep one per distinct pod of a large cluster.
#[derive(Debug)]
pub(crate) struct Verdict {
    pub pod_level: Option<PodLevel>,
    pub node_count: usize,
    summary: String,
    primary: Option<Failure>,
    /// Histogram entries set aside for the primary.
    set_aside: Vec<Aside>,
    nearest: Option<NearMiss>,
    /// Up to three nodes that can take the pod.
    fitting: Vec<String>,
}

/// The node closest to fitting, and everything it lacks.
#[derive(Debug)]
pub(crate) struct NearMiss {
    pub node: String,
    pub failures: Vec<Failure>,
}

impl NearMiss {
    /// Everything the node lacks, in words: `it lacks 1500m cpu (…); it is cordoned: …`.
    pub fn needs(&self) -> String {
        let needs: Vec<String> = self.failures.iter().map(Failure::need).collect();
        needs.join("; ")
    }
}

impl Verdict {
    pub fn summary(&self) -> String {
        self.summary.clone()
    }
    pub fn primary(&self) -> Option<Failure> {
        self.primary.clone()
    }
    pub fn set_aside(&self) -> &[Aside] {
        &self.set_aside
    }
    pub fn nearest_miss(&self) -> Option<&NearMiss> {
        self.nearest.as_ref()
    }
    pub fn fitting(&self) -> &[String] {
        &self.fitting
    }
}

impl Simulation<'_> {
    pub fn verdict(&self) -> Verdict {
        let (primary, set_aside) = match self.primary_and_set_aside() {
            Some((p, a)) => (Some(p), a),
            None => (None, Vec::new()),
        };
        Verdict {
            pod_level: self.pod_level.clone(),
            node_count: self.node_count,
            summary: self.summary(),
            primary,
            set_aside,
            nearest: self.nearest_miss().map(|m| NearMiss {
                node: m.node.metadata.name.to_string(),
                failures: m.failures.clone(),
            }),
            fitting: self
                .fitting()
                .iter()
                .take(3)
                .map(|n| n.metadata.name.to_string())
                .collect(),
        }
    }
}

/// Runs every filter for the pod on every node of the snapshot.
pub(crate) fn simulate<'a>(cluster: &Cluster<'a>, pod: &Pod) -> Simulation<'a> {
    let snap = cluster.snap;
    let requests = pod_requests(pod);
    let pod_level = claims_prefilter(snap, pod);
    if pod_level.is_some() {
        return Simulation {
            pod_level,
            nodes: Vec::new(),
            node_count: snap.nodes.len(),
            hist: Vec::new(),
        };
    }
    let wanted_ports = host_ports(pod);
    let mut nodes = Vec::with_capacity(snap.nodes.len());
    let inter = cluster.inter_pod(pod);
    let volumes = volume_checks(snap, pod);
    let tolerates = |t: &Taint| pod.spec.tolerations.iter().any(|tol| tol.tolerates(t));
    // NodeUnschedulable: cordoned, unless the pod tolerates the unschedulable taint.
    let unschedulable_taint = Taint {
        key: "node.kubernetes.io/unschedulable".into(),
        value: None,
        effect: "NoSchedule".into(),
    };
    let cordon_tolerated = tolerates(&unschedulable_taint);
    for (node, facts) in snap.nodes.iter().zip(&cluster.facts) {
        let allocatable = &facts.allocatable;
        let mut failures = Vec::new();
        let name = node.metadata.name.as_str();
        let labels = &node.metadata.labels;
        if node.spec.unschedulable && !cordon_tolerated {
            failures.push(Failure::Unschedulable);
        }
        // TaintToleration: the first untolerated NoSchedule/NoExecute taint. A cordoned node's
        // own unschedulable taint is reported as the cordon above.
        if let Some(t) = node.spec.taints.iter().find(|t| {
            (t.effect == "NoSchedule" || t.effect == "NoExecute")
                && !(t.key == unschedulable_taint.key && node.spec.unschedulable)
                && !tolerates(t)
        }) {
            failures.push(Failure::Taint(t.clone()));
        }
        // NodeAffinity: nodeSelector and the required terms.
        let unmet = node_affinity_unmet(pod, labels, name);
        if !unmet.is_empty() {
            failures.push(Failure::NodeAffinity(unmet));
        }
        // NodePorts.
        if !facts.ports.is_empty() {
            let held = &facts.ports;
            for (port, proto, ip) in &wanted_ports {
                if let Some((_, _, _, holder)) = held.iter().find(|(p, pr, hip, _)| {
                    p == port && pr == proto && (hip == ip || hip == "0.0.0.0" || ip == "0.0.0.0")
                }) {
                    failures.push(Failure::HostPort {
                        port: *port,
                        protocol: proto.clone(),
                        holder: ObjectKey::of("Pod", &holder.metadata),
                    });
                    break;
                }
            }
        }
        // NodeResourcesFit: pod count, then each requested resource.
        let count = facts.count;
        let used = &facts.used;
        if let Some(&max) = allocatable.get("pods")
            && count + 1 > max
        {
            failures.push(Failure::TooManyPods { pods: count, max });
        }
        for (resource, requested) in &requests {
            let allocatable = allocatable.get(resource).copied().unwrap_or(0);
            let in_use = used.get(resource).copied().unwrap_or(0);
            if requested.saturating_add(in_use) > allocatable {
                failures.push(Failure::Insufficient {
                    resource: resource.to_string(),
                    requested: *requested,
                    used: in_use,
                    allocatable,
                });
            }
        }
        // Volumes: bound volumes' node affinity; WaitForFirstConsumer claims with no provisioner.
        failures.extend(volumes.iter().filter_map(|v| v.failure(labels, name)));
        // PodTopologySpread and InterPodAffinity.
        inter.failures(node, &mut failures);
        failures.sort_by_key(Failure::order);
        nodes.push(NodeFit { node, failures });
    }
    let hist = Simulation::compute_histogram(&nodes);
    Simulation {
        pod_level,
        node_count: nodes.len(),
        nodes,
        hist,
    }
}

/// The nodeSelector labels and node affinity requirements the node does not meet, as text.
fn node_affinity_unmet(pod: &Pod, labels: &Labels, name: &str) -> Vec<String> {
    let mut unmet: Vec<String> = pod
        .spec
        .node_selector
        .iter()
        .filter(|(k, v)| labels.get(k) != Some(*v))
        .map(|(k, v)| format!("label {k}={v}"))
        .collect();
    if let Some(req) = pod
        .spec
        .affinity
        .node_affinity
        .as_ref()
        .and_then(|a| a.required.as_ref())
        && !req.matches(labels, name)
    {
        // The term that misses by the least is the one worth showing.
        let best = req
            .node_selector_terms
            .iter()
            .map(|t| t.unmet(labels, name))
            .min_by_key(Vec::len);
        match best {
            Some(reqs) if !reqs.is_empty() => unmet.extend(
                reqs.iter()
                    .map(|r| format!("node affinity {}", r.display())),
            ),
            _ => unmet.push("a node affinity term (the pod's terms are empty)".into()),
        }
    }
    unmet
}

/// Claims that rule out every node: missing, being deleted, or unbound with Immediate binding.
fn claims_prefilter(snap: &Snapshot, pod: &Pod) -> Option<PodLevel> {
    if !snap.kinds_loaded.contains_key("PersistentVolumeClaim") {
        return None;
    }
    let ns = pod.metadata.ns();
    for v in &pod.spec.volumes {
        let Some(c) = &v.persistent_volume_claim else {
            continue;
        };
        let name = &c.claim_name;
        let Some(pvc) = snap.pvc(ns, name) else {
            return Some(PodLevel {
                cause: Cause::PvcMissing,
                claim: name.to_string(),
                reason: format!("persistentvolumeclaim \"{name}\" not found"),
            });
        };
        if pvc.metadata.deletion_timestamp.is_some() {
            return Some(PodLevel {
                cause: Cause::PvcUnbound,
                claim: name.to_string(),
                reason: format!("persistentvolumeclaim \"{name}\" is being deleted"),
            });
        }
        let bound = pvc.status.phase == "Bound"
            || pvc
                .spec
                .volume_name
                .as_deref()
                .is_some_and(|v| !v.is_empty());
        if !bound && !delayed_binding(snap, pvc.spec.storage_class_name.as_deref()) {
            return Some(PodLevel {
                cause: Cause::PvcUnbound,
                claim: name.to_string(),
                reason: "pod has unbound immediate PersistentVolumeClaims".into(),
            });
        }
    }
    None
}

/// WaitForFirstConsumer binding; a missing or unnamed class binds immediately, as in the
/// scheduler's volume binder.
fn delayed_binding(snap: &Snapshot, class: Option<&str>) -> bool {
    let Some(class) = class.filter(|c| !c.is_empty()) else {
        return false;
    };
    snap.storage_classes
        .iter()
        .find(|s| s.metadata.name == class)
        .is_some_and(|s| s.volume_binding_mode.as_deref() == Some("WaitForFirstConsumer"))
}

/// What a pod's bound or delayed-binding claims ask of a node, resolved once per pod: the node
/// affinity of a bound volume; for a claim of a class without a provisioner (local volumes), the
/// available volumes that could be bound.
enum VolumeCheck<'a> {
    Bound {
        claim: &'a str,
        volume: &'a str,
        affinity: &'a NodeSelector,
    },
    Unprovisioned {
        claim: &'a str,
        candidates: Vec<Option<&'a NodeSelector>>,
    },
}

impl VolumeCheck<'_> {
    fn failure(&self, labels: &Labels, node: &str) -> Option<Failure> {
        match self {
            VolumeCheck::Bound {
                claim,
                volume,
                affinity,
            } => (!affinity.matches(labels, node)).then(|| Failure::VolumeNodeAffinity {
                claim: claim.to_string(),
                volume: volume.to_string(),
            }),
            VolumeCheck::Unprovisioned { claim, candidates } => {
                let usable = candidates
                    .iter()
                    .any(|sel| sel.is_none_or(|s| s.matches(labels, node)));
                (!usable).then(|| Failure::NoVolumeToBind {
                    claim: claim.to_string(),
                })
            }
        }
    }
}

fn volume_checks<'a>(snap: &'a Snapshot, pod: &'a Pod) -> Vec<VolumeCheck<'a>> {
    let mut out = Vec::new();
    let ns = pod.metadata.ns();
    for v in &pod.spec.volumes {
        let Some(c) = &v.persistent_volume_claim else {
            continue;
        };
        let Some(pvc) = snap.pvc(ns, &c.claim_name) else {
            continue;
        };
        let volume = pvc.spec.volume_name.as_deref().filter(|v| !v.is_empty());
        if let Some(volume) = volume {
            let pv = snap.pvs.iter().find(|p| p.metadata.name == volume);
            if let Some(affinity) = pv
                .and_then(|p| p.spec.node_affinity.as_ref())
                .and_then(|a| a.required.as_ref())
            {
                out.push(VolumeCheck::Bound {
                    claim: &c.claim_name,
                    volume,
                    affinity,
                });
            }
            continue;
        }
        // Unbound with delayed binding: a provisioner creates the volume for the chosen node;
        // without one (local volumes) an available volume must be usable on this node.
        let class = pvc.spec.storage_class_name.as_deref().unwrap_or("");
        let Some(sc) = snap
            .storage_classes
            .iter()
            .find(|s| s.metadata.name == class)
        else {
            continue;
        };
        if sc.provisioner != "kubernetes.io/no-provisioner" {
            continue;
        }
        let candidates = snap
            .pvs
            .iter()
            .filter(|pv| {
                pv.status.phase == "Available"
                    && pv.spec.claim_ref.is_none()
                    && pv.spec.storage_class_name.as_deref().unwrap_or("") == class
            })
            .map(|pv| {
                pv.spec
                    .node_affinity
                    .as_ref()
                    .and_then(|a| a.required.as_ref())
            })
            .collect();
        out.push(VolumeCheck::Unprovisioned {
            claim: &c.claim_name,
            candidates,
        });
    }
    out
}

fn selector_matches(sel: Option<&LabelSelector>, labels: &Labels) -> bool {
    sel.is_some_and(|s| s.matches(labels))
}

/// Records that `pod`, in domain `d` of `key`, forbids that domain (the first pod found names it).
fn forbid(list: &mut Vec<(String, HashMap<String, ObjectKey>)>, key: &str, d: &str, pod: &Pod) {
    let i = match list.iter().position(|(k, _)| k == key) {
        Some(i) => i,
        None => {
            list.push((key.to_string(), HashMap::new()));
            list.len() - 1
        }
    };
    list[i]
        .1
        .entry(d.to_string())
        .or_insert_with(|| ObjectKey::of("Pod", &pod.metadata));
}

/// Whether a placed pod is in the namespaces a term covers (default: the term owner's own).
fn term_covers(term: &PodAffinityTerm, owner_ns: &str, other_ns: &str) -> bool {
    if term
        .namespace_selector
        .as_ref()
        .is_some_and(|s| s.match_labels.is_empty() && s.match_expressions.is_empty())
    {
        return true; // `namespaceSelector: {}` means every namespace.
    }
    if term.namespaces.is_empty() {
        return other_ns == owner_ns;
    }
    term.namespaces.iter().any(|n| n == other_ns)
}

/// A topology domain: the node's value of a topology key.
fn domain<'n>(node: &'n Node, key: &str) -> Option<&'n str> {
    node.metadata.labels.get(key).map(|v| v.as_str())
}

/// The inter-pod rules for one pod, reduced once to topology domains so that each node is a
/// lookup: (key, domain) pairs that satisfy or forbid, and spread counts per domain.
#[derive(Default)]
struct InterPod {
    /// Required affinity terms: (key, domains holding a matching pod); `None` when the term is
    /// satisfied anywhere (the first pod of a group matching its own term).
    affinity: Vec<(Str, Option<HashSet<String>>)>,
    /// Per topology key, the domains the pod's own anti-affinity forbids, each with a pod there.
    anti: Vec<(String, HashMap<String, ObjectKey>)>,
    /// The same for what placed pods' anti-affinity forbids.
    existing_anti: Vec<(String, HashMap<String, ObjectKey>)>,
    /// Required spread constraints: (key, maxSkew, counts per eligible domain, self matches).
    spread: Vec<(Str, i64, BTreeMap<String, i64>, i64)>,
}

impl InterPod {
    fn new(cluster: &Cluster, pod: &Pod) -> Self {
        let ns = pod.metadata.ns();
        let aff = &pod.spec.affinity;
        let matching = |term: &PodAffinityTerm, p: &Pod| {
            term_covers(term, ns, p.metadata.ns())
                && selector_matches(term.label_selector.as_ref(), &p.metadata.labels)
        };
        let mut affinity = Vec::new();
        for term in aff.pod_affinity.iter().flat_map(|a| &a.required) {
            let mut domains = HashSet::new();
            let mut any = false;
            for (p, n) in &cluster.placed {
                if matching(term, p) {
                    any = true;
                    if let Some(d) = domain(n, &term.topology_key) {
                        domains.insert(d.to_string());
                    }
                }
            }
            let first_of_group =
                !any && selector_matches(term.label_selector.as_ref(), &pod.metadata.labels);
            affinity.push((
                term.topology_key.clone(),
                (!first_of_group).then_some(domains),
            ));
        }
        let mut anti: Vec<(String, HashMap<String, ObjectKey>)> = Vec::new();
        for term in aff.pod_anti_affinity.iter().flat_map(|a| &a.required) {
            for (p, n) in &cluster.placed {
                if matching(term, p)
                    && let Some(d) = domain(n, &term.topology_key)
                {
                    forbid(&mut anti, &term.topology_key, d, p);
                }
            }
        }
        let mut existing_anti: Vec<(String, HashMap<String, ObjectKey>)> = Vec::new();
        for (p, n) in &cluster.anti_holders {
            for term in p
                .spec
                .affinity
                .pod_anti_affinity
                .iter()
                .flat_map(|a| &a.required)
            {
                if term_covers(term, p.metadata.ns(), ns)
                    && selector_matches(term.label_selector.as_ref(), &pod.metadata.labels)
                    && let Some(d) = domain(n, &term.topology_key)
                {
                    forbid(&mut existing_anti, &term.topology_key, d, p);
                }
            }
        }
        let mut spread = Vec::new();
        for c in &pod.spec.topology_spread_constraints {
            if c.when_unsatisfiable != "DoNotSchedule" || c.topology_key.is_empty() {
                continue;
            }
            let key = &c.topology_key;
            // Domains: those of the nodes the pod could go to (its node affinity is honoured by
            // default), each counting the matching pods of the pod's namespace placed there.
            let honor_affinity = c.node_affinity_policy.as_deref() != Some("Ignore");
            let mut counts: BTreeMap<String, i64> = BTreeMap::new();
            for n in &cluster.snap.nodes {
                if honor_affinity
                    && !node_affinity_unmet(pod, &n.metadata.labels, &n.metadata.name).is_empty()
                {
                    continue;
                }
                if let Some(d) = domain(n, key) {
                    counts.entry(d.to_string()).or_insert(0);
                }
            }
            for (p, n) in &cluster.placed {
                if p.metadata.ns() == ns
                    && selector_matches(c.label_selector.as_ref(), &p.metadata.labels)
                    && let Some(d) = domain(n, key)
                    && let Some(e) = counts.get_mut(d)
                {
                    *e += 1;
                }
            }
            let self_match = i64::from(selector_matches(
                c.label_selector.as_ref(),
                &pod.metadata.labels,
            ));
            spread.push((key.clone(), c.max_skew, counts, self_match));
        }
        InterPod {
            affinity,
            anti,
            existing_anti,
            spread,
        }
    }

    fn failures(&self, node: &Node, out: &mut Vec<Failure>) {
        for (key, max_skew, counts, self_match) in &self.spread {
            let Some(d) = domain(node, key) else {
                out.push(Failure::TopologySpread {
                    key: key.to_string(),
                    skew: None,
                    max_skew: *max_skew,
                });
                continue;
            };
            let min = counts.values().copied().min().unwrap_or(0);
            let skew = counts.get(d).copied().unwrap_or(0) + self_match - min;
            if skew > *max_skew {
                out.push(Failure::TopologySpread {
                    key: key.to_string(),
                    skew: Some(skew),
                    max_skew: *max_skew,
                });
            }
        }
        for (key, domains) in &self.affinity {
            let Some(domains) = domains else { continue };
            let ok = domain(node, key).is_some_and(|d| domains.contains(d));
            if !ok {
                out.push(Failure::PodAffinity {
                    key: key.to_string(),
                });
                break;
            }
        }
        for (list, existing) in [(&self.anti, false), (&self.existing_anti, true)] {
            let hit = list.iter().find_map(|(key, domains)| {
                domain(node, key)
                    .and_then(|d| domains.get(d))
                    .map(|other| (key, other))
            });
            if let Some((key, other)) = hit {
                out.push(if existing {
                    Failure::ExistingAntiAffinity {
                        key: key.clone(),
                        other: other.clone(),
                    }
                } else {
                    Failure::PodAntiAffinity {
                        key: key.clone(),
                        other: other.clone(),
                    }
                });
            }
        }
    }
}

#[cfg(test)]
mod tests;
