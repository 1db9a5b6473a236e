//! Slim views of Kubernetes objects: only the fields the checks read. Deserializing straight
//! into these (instead of full k8s-openapi types) is what keeps loading near the cost of parsing.
//!
//! Invariants:
//! - Secret and ConfigMap values, and container env values, are never deserialized: only names
//!   and key names exist in memory.
//! - Every field is optional or defaulted; malformed timestamps become `None` instead of failing
//!   the whole object.

pub use crate::map::SmallMap;
use jiff::Timestamp;
use serde::de::{Deserializer, IgnoredAny, MapAccess, Visitor};
use serde::{Deserialize, Serialize};
use std::fmt;

/// The strings of the slim views: inline up to 24 bytes (names, namespaces, reasons, statuses),
/// so most cost no allocation of their own.
pub type Str = compact_str::CompactString;

pub type Labels = SmallMap<Str>;

/// An object's labels, which objects with the same labels may share (the replicas of one
/// workload, in watch mode's store: `kubewhy_source::SharedParts`). Read like `Labels`
/// (`Deref`); changed copy-on-write; no labels cost no allocation.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct SharedLabels(Option<std::sync::Arc<Labels>>);

static NO_LABELS: Labels = Labels::new();

impl SharedLabels {
    /// Whether other objects hold these same labels (a pool holding them counts).
    pub fn holders(&self) -> usize {
        self.0.as_ref().map_or(0, std::sync::Arc::strong_count)
    }
}

impl std::ops::Deref for SharedLabels {
    type Target = Labels;
    fn deref(&self) -> &Labels {
        self.0.as_deref().unwrap_or(&NO_LABELS)
    }
}

impl std::ops::DerefMut for SharedLabels {
    fn deref_mut(&mut self) -> &mut Labels {
        std::sync::Arc::make_mut(self.0.get_or_insert_with(Default::default))
    }
}

impl From<Labels> for SharedLabels {
    fn from(l: Labels) -> SharedLabels {
        SharedLabels((!l.is_empty()).then(|| std::sync::Arc::new(l)))
    }
}

impl fmt::Debug for SharedLabels {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        (**self).fmt(f)
    }
}

impl<'de> Deserialize<'de> for SharedLabels {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        Labels::deserialize(d).map(SharedLabels::from)
    }
}

impl Serialize for SharedLabels {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        (**self).serialize(s)
    }
}
/// Resources by name (`cpu`, `memory`, `nvidia.com/gpu`): requests, limits, capacity.
pub type ResourceMap = SmallMap<QuantityText>;

/// Deserializes an RFC 3339 timestamp, yielding `None` for null, empty or malformed values.
pub fn lenient_time<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Timestamp>, D::Error> {
    d.deserialize_any(Loose(|s: &str| s.parse().ok()))
}

/// A string where any value may stand: `f` reads it (borrowed, never copied first); any other
/// value is skipped and reads as `None`.
struct Loose<F>(F);

impl<'de, T, F: FnOnce(&str) -> Option<T>> Visitor<'de> for Loose<F> {
    type Value = Option<T>;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("any value")
    }
    fn visit_str<E>(self, v: &str) -> Result<Option<T>, E> {
        Ok((self.0)(v))
    }
    fn visit_bool<E>(self, _: bool) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_i64<E>(self, _: i64) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_u64<E>(self, _: u64) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_f64<E>(self, _: f64) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_bytes<E>(self, _: &[u8]) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_unit<E>(self) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_none<E>(self) -> Result<Option<T>, E> {
        Ok(None)
    }
    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Option<T>, D::Error> {
        d.deserialize_any(self)
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Option<T>, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Option<T>, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// A string value, or `None` for any other value (skipped).
fn loose_str<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Str>, D::Error> {
    d.deserialize_any(Loose(|s: &str| Some(Str::from(s))))
}

/// A string value kept, any other value skipped (for `next_value_seed`).
struct LooseStr;

impl<'de> serde::de::DeserializeSeed<'de> for LooseStr {
    type Value = Option<Str>;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Option<Str>, D::Error> {
        loose_str(d)
    }
}

/// Free text that may quote anything (an application's termination message, a kubelet's error
/// with a registry URL): credentials are replaced when it is read (`redact`), so they are never
/// held, printed or recorded.
pub fn redacted<'de, D: Deserializer<'de>>(d: D) -> Result<Str, D::Error> {
    struct V;
    impl Visitor<'_> for V {
        type Value = Str;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a string")
        }
        fn visit_str<E>(self, v: &str) -> Result<Str, E> {
            Ok(Str::from(crate::redact::redact(v)))
        }
        fn visit_unit<E>(self) -> Result<Str, E> {
            Ok(Str::default())
        }
    }
    d.deserialize_any(V)
}

/// `redacted`, for a message that may be absent.
pub fn redacted_opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Str>, D::Error> {
    Option::<RedactedStr>::deserialize(d).map(|o| o.map(|r| r.0))
}

struct RedactedStr(Str);

impl<'de> Deserialize<'de> for RedactedStr {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        redacted(d).map(RedactedStr)
    }
}

/// A list, its allocation no larger than its items: a list read from JSON grows as it is read
/// (to room for four items at first), and most lists of an object hold one or two.
pub fn exact<'de, D: Deserializer<'de>, T: Deserialize<'de>>(d: D) -> Result<Vec<T>, D::Error> {
    let mut v = Vec::<T>::deserialize(d)?;
    v.shrink_to_fit();
    Ok(v)
}

/// Collects only the keys of a map, never its values (Secret / ConfigMap data).
pub fn keys_only<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Str>, D::Error> {
    struct KeysVisitor;
    impl<'de> Visitor<'de> for KeysVisitor {
        type Value = Vec<Str>;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a map")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(Vec::new())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut keys = Vec::new();
            while let Some(k) = map.next_key::<Str>()? {
                map.next_value::<IgnoredAny>()?;
                keys.push(k);
            }
            Ok(keys)
        }
    }
    d.deserialize_any(KeysVisitor)
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(default, rename_all = "camelCase")]
pub struct OwnerRef {
    pub api_version: Str,
    pub kind: Str,
    pub name: Str,
    pub uid: Str,
    pub controller: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Meta {
    pub name: Str,
    pub namespace: Option<Str>,
    pub uid: Str,
    pub resource_version: Str,
    #[serde(deserialize_with = "lenient_time")]
    pub creation_timestamp: Option<Timestamp>,
    #[serde(deserialize_with = "lenient_time")]
    pub deletion_timestamp: Option<Timestamp>,
    pub deletion_grace_period_seconds: Option<i64>,
    pub labels: SharedLabels,
    #[serde(deserialize_with = "exact")]
    pub finalizers: Vec<Str>,
    #[serde(deserialize_with = "exact")]
    pub owner_references: Vec<OwnerRef>,
    /// Only the kubelet's static-pod annotations (`kubernetes.io/config.*`); every other
    /// annotation (last-applied-configuration carries whole manifests) is skipped unread.
    #[serde(deserialize_with = "kubelet_annotations")]
    pub annotations: Labels,
}

/// The annotations kept: `kubernetes.io/config.mirror`, `.hash`, `.source`, `.seen`.
pub fn kubelet_annotations<'de, D: Deserializer<'de>>(d: D) -> Result<Labels, D::Error> {
    struct V;
    impl<'de> Visitor<'de> for V {
        type Value = Labels;
        fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
            f.write_str("a map")
        }
        fn visit_unit<E>(self) -> Result<Self::Value, E> {
            Ok(Labels::new())
        }
        fn visit_none<E>(self) -> Result<Self::Value, E> {
            Ok(Labels::new())
        }
        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
            let mut out = Labels::new();
            while let Some(k) = map.next_key::<Str>()? {
                if k.starts_with("kubernetes.io/config.") {
                    if let Some(v) = map.next_value_seed(LooseStr)? {
                        out.insert(k, v);
                    }
                } else {
                    map.next_value::<IgnoredAny>()?;
                }
            }
            Ok(out)
        }
    }
    d.deserialize_any(V)
}

impl Meta {
    pub fn ns(&self) -> &str {
        self.namespace.as_deref().unwrap_or("")
    }
    pub fn controller(&self) -> Option<&OwnerRef> {
        self.owner_references
            .iter()
            .find(|o| o.controller == Some(true))
            .or(self.owner_references.first())
    }
    /// Whether `owner`, an object of kind `kind` in this object's namespace, is among its
    /// owners (`OwnerRef::refers_to`): the one rule every check matches owners by.
    pub fn owned_by(&self, kind: &str, owner: &Meta) -> bool {
        self.ns() == owner.ns()
            && self
                .owner_references
                .iter()
                .any(|o| o.refers_to(kind, owner))
    }
}

impl OwnerRef {
    /// Whether this reference names `owner` of kind `kind`: by uid when both sides have one (a
    /// re-created owner of the same name is another object), by name otherwise (pasted or
    /// hand-written data without uids).
    pub fn refers_to(&self, kind: &str, owner: &Meta) -> bool {
        self.kind == kind
            && if !self.uid.is_empty() && !owner.uid.is_empty() {
                self.uid == owner.uid
            } else {
                self.name == owner.name
            }
    }
}

/// A condition of a Pod, Node, Namespace, workload or APIService (they share this shape).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Condition {
    #[serde(rename = "type")]
    pub type_: Str,
    pub status: Str,
    pub reason: Str,
    #[serde(deserialize_with = "redacted")]
    pub message: Str,
    #[serde(deserialize_with = "lenient_time")]
    pub last_transition_time: Option<Timestamp>,
    #[serde(deserialize_with = "lenient_time")]
    pub last_heartbeat_time: Option<Timestamp>,
}

pub fn condition<'a>(conds: &'a [Condition], type_: &str) -> Option<&'a Condition> {
    conds.iter().find(|c| c.type_ == type_)
}

// ---------------------------------------------------------------------------------------- Pod

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Pod {
    pub metadata: Meta,
    pub spec: PodSpec,
    pub status: PodStatus,
}

/// A pod's spec: what is its own — the node it is bound to, its volumes (a projected token
/// volume's name differs from pod to pod) — and the rest, which the replicas of one workload have
/// in common and may share (`SharedSpec`, read through `Deref`: `pod.spec.containers`). Watch
/// mode's store keeps one `SharedSpec` for all pods with the same (`kubewhy_source::SharedParts`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(from = "SharedSpec")]
pub struct PodSpec {
    pub node_name: Option<Str>,
    pub volumes: Vec<Volume>,
    pub shared: std::sync::Arc<SharedSpec>,
}

impl From<SharedSpec> for PodSpec {
    fn from(mut t: SharedSpec) -> PodSpec {
        PodSpec {
            node_name: t.own_node_name.take(),
            volumes: std::mem::take(&mut t.own_volumes),
            shared: std::sync::Arc::new(t),
        }
    }
}

impl std::ops::Deref for PodSpec {
    type Target = SharedSpec;
    fn deref(&self) -> &SharedSpec {
        &self.shared
    }
}

impl std::ops::DerefMut for PodSpec {
    /// Changing a shared spec changes this pod's copy only.
    fn deref_mut(&mut self) -> &mut SharedSpec {
        std::sync::Arc::make_mut(&mut self.shared)
    }
}

/// The part of a pod's spec that is not its own (see `PodSpec`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SharedSpec {
    /// Read here and moved to `PodSpec::node_name` (always `None` here).
    #[serde(rename = "nodeName")]
    own_node_name: Option<Str>,
    /// Read here and moved to `PodSpec::volumes` (always empty here).
    #[serde(rename = "volumes", deserialize_with = "exact")]
    own_volumes: Vec<Volume>,
    pub node_selector: Labels,
    pub scheduler_name: Option<Str>,
    pub service_account_name: Option<Str>,
    pub priority_class_name: Option<Str>,
    /// The priority the admission plugin resolved from the class (0 without one).
    pub priority: Option<i64>,
    pub termination_grace_period_seconds: Option<i64>,
    #[serde(deserialize_with = "exact")]
    pub containers: Vec<Container>,
    #[serde(deserialize_with = "exact")]
    pub init_containers: Vec<Container>,
    #[serde(deserialize_with = "exact")]
    pub tolerations: Vec<Toleration>,
    #[serde(deserialize_with = "exact")]
    pub image_pull_secrets: Vec<LocalRef>,
    pub host_network: Option<bool>,
    pub affinity: Affinity,
    #[serde(deserialize_with = "exact")]
    pub topology_spread_constraints: Vec<TopologySpreadConstraint>,
    /// RuntimeClass overhead, added to the pod's requests by the scheduler.
    pub overhead: ResourceMap,
    /// `spec.schedulingGates` (1.26+): the scheduler leaves the pod alone while one remains.
    #[serde(deserialize_with = "exact")]
    pub scheduling_gates: Vec<LocalRef>,
    /// `spec.resourceClaims` (dynamic resource allocation, 1.26+).
    #[serde(deserialize_with = "exact")]
    pub resource_claims: Vec<PodResourceClaim>,
    /// `Always` (the default), `OnFailure` or `Never`.
    pub restart_policy: Option<Str>,
    pub active_deadline_seconds: Option<i64>,
}

/// One of `spec.resourceClaims`: the claim by name, or the template the pod's claim is made
/// from (its generated name is in `status.resourceClaimStatuses`). Before 1.28 both sat under
/// `source`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodResourceClaim {
    pub name: Str,
    pub resource_claim_name: Option<Str>,
    pub resource_claim_template_name: Option<Str>,
    pub source: Option<Box<PodResourceClaim>>,
}

impl PodResourceClaim {
    /// (claim name, template name), wherever the API version put them.
    pub fn refs(&self) -> (Option<&str>, Option<&str>) {
        let s = self.source.as_deref();
        (
            self.resource_claim_name
                .as_deref()
                .or(s.and_then(|s| s.resource_claim_name.as_deref())),
            self.resource_claim_template_name
                .as_deref()
                .or(s.and_then(|s| s.resource_claim_template_name.as_deref())),
        )
    }
}

/// The required (hard) parts of a pod's affinity: the preferred ones never keep a pod Pending.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Affinity {
    pub node_affinity: Option<NodeAffinity>,
    pub pod_affinity: Option<PodAffinity>,
    pub pod_anti_affinity: Option<PodAffinity>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct NodeAffinity {
    #[serde(rename = "requiredDuringSchedulingIgnoredDuringExecution")]
    pub required: Option<NodeSelector>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelector {
    #[serde(deserialize_with = "exact")]
    pub node_selector_terms: Vec<NodeSelectorTerm>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSelectorTerm {
    #[serde(deserialize_with = "exact")]
    pub match_expressions: Vec<SelectorRequirement>,
    #[serde(deserialize_with = "exact")]
    pub match_fields: Vec<SelectorRequirement>,
}

/// One requirement of a node selector term or a label selector (`key In (a, b)`, `key Gt 3`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SelectorRequirement {
    pub key: Str,
    pub operator: Str,
    #[serde(deserialize_with = "exact")]
    pub values: Vec<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct PodAffinity {
    #[serde(rename = "requiredDuringSchedulingIgnoredDuringExecution")]
    #[serde(deserialize_with = "exact")]
    pub required: Vec<PodAffinityTerm>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodAffinityTerm {
    pub label_selector: Option<LabelSelector>,
    #[serde(deserialize_with = "exact")]
    pub namespaces: Vec<Str>,
    pub namespace_selector: Option<LabelSelector>,
    pub topology_key: Str,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LabelSelector {
    pub match_labels: Labels,
    #[serde(deserialize_with = "exact")]
    pub match_expressions: Vec<SelectorRequirement>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct TopologySpreadConstraint {
    pub max_skew: i64,
    pub topology_key: Str,
    pub when_unsatisfiable: Str,
    pub label_selector: Option<LabelSelector>,
    pub min_domains: Option<i64>,
    /// `Honor` (default) or `Ignore`: whether nodes the pod's node affinity excludes count.
    pub node_affinity_policy: Option<Str>,
    /// `Ignore` (default) or `Honor`: whether nodes with untolerated taints count.
    pub node_taints_policy: Option<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LocalRef {
    pub name: Str,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Container {
    pub name: Str,
    pub image: Str,
    pub image_pull_policy: Option<Str>,
    #[serde(deserialize_with = "exact")]
    pub command: Vec<Str>,
    /// Read for well-known component flags only (e.g. kube-controller-manager's
    /// `--terminated-pod-gc-threshold`); never printed.
    #[serde(deserialize_with = "exact")]
    pub args: Vec<Str>,
    #[serde(deserialize_with = "exact")]
    pub ports: Vec<ContainerPort>,
    pub resources: Resources,
    /// Only names and references: `value` is never read.
    #[serde(deserialize_with = "exact")]
    pub env: Vec<EnvVar>,
    #[serde(deserialize_with = "exact")]
    pub env_from: Vec<EnvFromSource>,
    /// `Always` on an init container makes it a sidecar (Kubernetes 1.28+).
    pub restart_policy: Option<Str>,
    #[serde(deserialize_with = "present")]
    pub liveness_probe: bool,
    #[serde(deserialize_with = "present")]
    pub readiness_probe: bool,
    #[serde(deserialize_with = "present")]
    pub startup_probe: bool,
    pub lifecycle: Lifecycle,
}

/// A container's hooks: only whether each is there.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Lifecycle {
    #[serde(deserialize_with = "present")]
    pub post_start: bool,
    #[serde(deserialize_with = "present")]
    pub pre_stop: bool,
}

impl Container {
    /// A restartable init container (1.28+): it runs beside the app containers for the pod's
    /// whole life.
    pub fn is_sidecar(&self) -> bool {
        self.restart_policy.as_deref() == Some("Always")
    }
}

/// `true` when the field is present and not null, without keeping its content.
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(Option::<IgnoredAny>::deserialize(d)?.is_some())
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerPort {
    pub container_port: Option<i64>,
    pub host_port: Option<i64>,
    pub protocol: Option<Str>,
    #[serde(rename = "hostIP")]
    pub host_ip: Option<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Resources {
    pub requests: ResourceMap,
    pub limits: ResourceMap,
}

/// A quantity kept as text; YAML may give it as a number (`memory: 4`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct QuantityText(pub Str);

impl<'de> Deserialize<'de> for QuantityText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = QuantityText;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a quantity (a string or a number)")
            }
            fn visit_str<E>(self, v: &str) -> Result<QuantityText, E> {
                Ok(QuantityText(v.into()))
            }
            fn visit_i64<E>(self, v: i64) -> Result<QuantityText, E> {
                Ok(QuantityText(compact_str::format_compact!("{v}")))
            }
            fn visit_u64<E>(self, v: u64) -> Result<QuantityText, E> {
                Ok(QuantityText(compact_str::format_compact!("{v}")))
            }
            fn visit_f64<E>(self, v: f64) -> Result<QuantityText, E> {
                Ok(QuantityText(compact_str::format_compact!("{v}")))
            }
        }
        d.deserialize_any(V)
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EnvVar {
    pub name: Str,
    /// Boxed: most variables have a plain value (never read) and no source.
    pub value_from: Option<Box<EnvVarSource>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EnvVarSource {
    pub config_map_key_ref: Option<KeyRef>,
    pub secret_key_ref: Option<KeyRef>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct KeyRef {
    pub name: Str,
    pub key: Str,
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct EnvFromSource {
    pub config_map_ref: Option<OptionalRef>,
    pub secret_ref: Option<OptionalRef>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct OptionalRef {
    pub name: Str,
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Volume {
    pub name: Str,
    pub config_map: Option<OptionalRef>,
    pub secret: Option<SecretVolume>,
    pub persistent_volume_claim: Option<ClaimRef>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct SecretVolume {
    pub secret_name: Str,
    pub optional: Option<bool>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClaimRef {
    pub claim_name: Str,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(default, rename_all = "camelCase")]
pub struct Toleration {
    pub key: Option<Str>,
    pub operator: Option<Str>,
    pub value: Option<Str>,
    pub effect: Option<Str>,
    pub toleration_seconds: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodStatus {
    pub phase: Str,
    pub reason: Option<Str>,
    #[serde(deserialize_with = "redacted_opt")]
    pub message: Option<Str>,
    #[serde(deserialize_with = "exact")]
    pub conditions: Vec<Condition>,
    #[serde(deserialize_with = "exact")]
    pub container_statuses: Vec<ContainerStatus>,
    #[serde(deserialize_with = "exact")]
    pub init_container_statuses: Vec<ContainerStatus>,
    #[serde(deserialize_with = "lenient_time")]
    pub start_time: Option<Timestamp>,
    /// The node the scheduler's preemption cleared room on for this pod.
    pub nominated_node_name: Option<Str>,
    /// An in-place resize's state (1.27–1.32; conditions from 1.33): `Proposed`,
    /// `InProgress`, `Deferred`, `Infeasible`.
    pub resize: Option<Str>,
    /// The names of the claims made from the pod's claim templates (1.28+).
    #[serde(deserialize_with = "exact")]
    pub resource_claim_statuses: Vec<ClaimStatusRef>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClaimStatusRef {
    pub name: Str,
    pub resource_claim_name: Option<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerStatus {
    pub name: Str,
    pub image: Str,
    pub ready: bool,
    pub restart_count: i64,
    /// A sidecar (restartable init container) that has started.
    pub started: Option<bool>,
    pub state: ContainerState,
    pub last_state: ContainerState,
    #[serde(rename = "containerID")]
    pub container_id: Option<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ContainerState {
    /// Boxed, like `terminated`: a running container has neither, and every container has two
    /// states (its current and its last).
    pub waiting: Option<Box<StateWaiting>>,
    pub running: Option<StateRunning>,
    pub terminated: Option<Box<StateTerminated>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StateWaiting {
    pub reason: Str,
    #[serde(deserialize_with = "redacted")]
    pub message: Str,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StateRunning {
    #[serde(deserialize_with = "lenient_time")]
    pub started_at: Option<Timestamp>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StateTerminated {
    /// Always set by the API; a paste may not show it (a `get pods` row's `Error`), and then no
    /// code is invented.
    pub exit_code: Option<i64>,
    pub signal: Option<i64>,
    pub reason: Str,
    #[serde(deserialize_with = "redacted")]
    pub message: Str,
    #[serde(deserialize_with = "lenient_time")]
    pub started_at: Option<Timestamp>,
    #[serde(deserialize_with = "lenient_time")]
    pub finished_at: Option<Timestamp>,
}

// --------------------------------------------------------------------------------------- Node

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Node {
    pub metadata: Meta,
    pub spec: NodeSpec,
    pub status: NodeStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeSpec {
    pub unschedulable: bool,
    #[serde(deserialize_with = "exact")]
    pub taints: Vec<Taint>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, Eq)]
#[serde(default, rename_all = "camelCase")]
pub struct Taint {
    pub key: Str,
    pub value: Option<Str>,
    pub effect: Str,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NodeStatus {
    pub capacity: ResourceMap,
    pub allocatable: ResourceMap,
    #[serde(deserialize_with = "exact")]
    pub conditions: Vec<Condition>,
}

impl Node {
    /// `Some(true)` Ready, `Some(false)` NotReady or Unknown, `None` when the condition is absent.
    pub fn ready(&self) -> Option<bool> {
        condition(&self.status.conditions, "Ready").map(|c| c.status == "True")
    }
}

// -------------------------------------------------------------------------------------- Event

/// One event, from core/v1 or events.k8s.io/v1, normalised.
#[derive(Debug, Clone, Default)]
pub struct Event {
    pub namespace: Str,
    pub name: Str,
    pub involved: ObjectKey,
    pub reason: Str,
    pub message: Str,
    pub type_: Str,
    pub count: i64,
    pub first_time: Option<Timestamp>,
    pub last_time: Option<Timestamp>,
    /// `source.component`, or `reportingController` for events.k8s.io/v1.
    pub source: Str,
    pub host: Str,
    /// `involvedObject.fieldPath`: the kubelet names the container, `spec.containers{web}`.
    pub field_path: Str,
}

impl Event {
    /// Where an event quote comes from, as evidence shows it: `event Failed from kubelet (x4)`.
    pub fn origin(&self) -> String {
        format!(
            "event {} from {} (x{})",
            self.reason, self.source, self.count
        )
    }

    /// The container the event is about, from its field path (`spec.containers{web}`,
    /// `spec.initContainers{init}`).
    pub fn container(&self) -> Option<&str> {
        let (_, rest) = self.field_path.split_once('{')?;
        rest.strip_suffix('}')
    }
}

/// Identifies an object: kind, namespace, name, and uid when known. A paste may not name the
/// object or its namespace: those parts hold `Pasted::UNKNOWN`, which no report prints — people
/// read "(unknown)" as a bug. In words such an object is "the pod" (or "a pod in namespace X"),
/// and in JSON the part is left out.
#[derive(Debug, Clone, Default, Deserialize, Serialize, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[serde(default, rename_all = "camelCase")]
pub struct ObjectKey {
    pub kind: Str,
    #[serde(skip_serializing_if = "unknown_or_empty")]
    pub namespace: Str,
    #[serde(skip_serializing_if = "unknown")]
    pub name: Str,
    #[serde(skip_serializing_if = "Str::is_empty")]
    pub uid: Str,
}

fn unknown(s: &Str) -> bool {
    s == crate::snapshot::Pasted::UNKNOWN
}

fn unknown_or_empty(s: &Str) -> bool {
    s.is_empty() || unknown(s)
}

impl ObjectKey {
    pub fn new(kind: &str, namespace: &str, name: &str, uid: &str) -> Self {
        ObjectKey {
            kind: kind.into(),
            namespace: namespace.into(),
            name: name.into(),
            uid: uid.into(),
        }
    }
    pub fn of(kind: &str, meta: &Meta) -> Self {
        Self::new(kind, meta.ns(), &meta.name, &meta.uid)
    }
    /// Whether the data names the object (a paste may not).
    pub fn named(&self) -> bool {
        !unknown(&self.name)
    }
    /// `ns/name`, or `name` for cluster-scoped objects (and for objects whose namespace a paste
    /// does not say); an object a paste does not name is `the pod`, or `a pod in namespace X`.
    pub fn path(&self) -> String {
        let kind = self.kind.to_ascii_lowercase();
        match (self.named(), unknown_or_empty(&self.namespace)) {
            (false, true) => format!("the {kind}"),
            (false, false) => format!("a {kind} in namespace {}", self.namespace),
            (true, true) => self.name.to_string(),
            (true, false) => format!("{}/{}", self.namespace, self.name),
        }
    }
}

impl fmt::Display for ObjectKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.named() {
            write!(f, "{} {}", self.kind, self.path())
        } else {
            f.write_str(&self.path())
        }
    }
}

// ----------------------------------------------------------------------------- other kinds

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Namespace {
    pub metadata: Meta,
    pub spec: NamespaceSpec,
    pub status: NamespaceStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NamespaceSpec {
    #[serde(deserialize_with = "exact")]
    pub finalizers: Vec<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct NamespaceStatus {
    pub phase: Str,
    #[serde(deserialize_with = "exact")]
    pub conditions: Vec<Condition>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolumeClaim {
    pub metadata: Meta,
    pub spec: PvcSpec,
    pub status: PhaseStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PvcSpec {
    pub storage_class_name: Option<Str>,
    pub volume_name: Option<Str>,
    #[serde(deserialize_with = "exact")]
    pub access_modes: Vec<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PhaseStatus {
    pub phase: Str,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PersistentVolume {
    pub metadata: Meta,
    pub spec: PvSpec,
    pub status: PhaseStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PvSpec {
    pub storage_class_name: Option<Str>,
    pub claim_ref: Option<ObjectKey>,
    #[serde(deserialize_with = "exact")]
    pub access_modes: Vec<Str>,
    pub node_affinity: Option<VolumeNodeAffinity>,
}

/// Where a PersistentVolume may be used (local and zonal volumes).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default)]
pub struct VolumeNodeAffinity {
    pub required: Option<NodeSelector>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct StorageClass {
    pub metadata: Meta,
    pub provisioner: Str,
    pub volume_binding_mode: Option<Str>,
}

/// A ConfigMap or a Secret: names and key names only.
#[derive(Debug, Clone, Default)]
pub struct KeyedObject {
    pub metadata: Meta,
    pub type_: Option<Str>,
    pub keys: Vec<Str>,
    /// Whether `keys` and `registries` were read: false for an object listed as metadata only
    /// (a live scan lists Secrets and ConfigMaps as `PartialObjectMetadata`, which kubewhy-live
    /// marks with the apiVersion `meta.k8s.io/v1`), whose keys are unknown, not absent.
    pub keys_known: bool,
    /// For image pull secrets (`.dockerconfigjson`, `.dockercfg`): the registry hosts they hold
    /// credentials for. The credentials themselves are decoded only to find these keys, inside
    /// the deserializer, and never kept.
    pub registries: Vec<Str>,
}

/// The apiVersion of an object listed as metadata only (`PartialObjectMetadata`).
pub const METADATA_ONLY: &str = "meta.k8s.io/v1";

/// A Secret's or ConfigMap's data: its keys, and a pull secret's registry hosts.
#[derive(Debug, Default)]
pub struct DataKeys {
    pub keys: Vec<Str>,
    pub registries: Vec<Str>,
}

/// `data` / `binaryData`: values are base64.
fn data_keys_b64<'de, D: Deserializer<'de>>(d: D) -> Result<DataKeys, D::Error> {
    d.deserialize_any(DataVisitor { base64: true })
}

/// `stringData`: values are plain text.
fn data_keys_plain<'de, D: Deserializer<'de>>(d: D) -> Result<DataKeys, D::Error> {
    d.deserialize_any(DataVisitor { base64: false })
}

struct DataVisitor {
    base64: bool,
}

impl<'de> Visitor<'de> for DataVisitor {
    type Value = DataKeys;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a map")
    }
    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(DataKeys::default())
    }
    fn visit_none<E>(self) -> Result<Self::Value, E> {
        Ok(DataKeys::default())
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut out = DataKeys::default();
        while let Some(k) = map.next_key::<Str>()? {
            if k == ".dockerconfigjson" || k == ".dockercfg" {
                if let Some(text) = map.next_value_seed(LooseStr)? {
                    out.registries
                        .extend(registry_hosts(&text, self.base64, k == ".dockercfg"));
                }
            } else {
                map.next_value::<IgnoredAny>()?;
            }
            out.keys.push(k);
        }
        Ok(out)
    }
}

/// The registry hosts of a docker config document: the keys of `auths` (`.dockerconfigjson`)
/// or the top-level keys (`.dockercfg`). Malformed documents hold no hosts.
fn registry_hosts(value: &str, is_base64: bool, legacy: bool) -> Vec<Str> {
    use base64::Engine;
    let decoded;
    let bytes: &[u8] = if is_base64 {
        match base64::engine::general_purpose::STANDARD.decode(value.trim()) {
            Ok(b) => {
                decoded = b;
                &decoded
            }
            Err(_) => return Vec::new(),
        }
    } else {
        value.as_bytes()
    };
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct DockerConfig {
        #[serde(deserialize_with = "keys_only")]
        auths: Vec<Str>,
    }
    struct TopKeys(Vec<Str>);
    impl<'de> Deserialize<'de> for TopKeys {
        fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
            keys_only(d).map(TopKeys)
        }
    }
    if legacy {
        serde_json::from_slice::<TopKeys>(bytes)
            .map(|t| t.0)
            .unwrap_or_default()
    } else {
        serde_json::from_slice::<DockerConfig>(bytes)
            .map(|c| c.auths)
            .unwrap_or_default()
    }
}

#[derive(Deserialize)]
#[serde(default, rename_all = "camelCase")]
#[derive(Default)]
pub struct RawKeyed {
    /// `meta.k8s.io/v1` for an object listed as metadata only.
    pub api_version: Option<Str>,
    pub metadata: Meta,
    #[serde(rename = "type")]
    pub type_: Option<Str>,
    #[serde(deserialize_with = "data_keys_b64")]
    pub data: DataKeys,
    #[serde(deserialize_with = "data_keys_b64")]
    pub binary_data: DataKeys,
    #[serde(deserialize_with = "data_keys_plain")]
    pub string_data: DataKeys,
}

impl From<RawKeyed> for KeyedObject {
    fn from(r: RawKeyed) -> Self {
        let mut keys = r.data.keys;
        keys.extend(r.binary_data.keys);
        keys.extend(r.string_data.keys);
        keys.sort();
        keys.dedup();
        let mut registries = r.data.registries;
        registries.extend(r.string_data.registries);
        registries.sort();
        registries.dedup();
        KeyedObject {
            keys_known: r.api_version.as_deref() != Some(METADATA_ONLY),
            metadata: r.metadata,
            type_: r.type_,
            keys,
            registries,
        }
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceAccount {
    pub metadata: Meta,
    #[serde(deserialize_with = "exact")]
    pub image_pull_secrets: Vec<LocalRef>,
}

/// ReplicaSet, Deployment, StatefulSet, DaemonSet, Job or CronJob: the fields the checks share.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Workload {
    pub kind: Str,
    pub metadata: Meta,
    pub spec: WorkloadSpec,
    pub status: WorkloadStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadSpec {
    pub replicas: Option<i64>,
    pub ttl_seconds_after_finished: Option<i64>,
    pub successful_jobs_history_limit: Option<i64>,
    pub failed_jobs_history_limit: Option<i64>,
    /// The pod template (Deployments, ReplicaSets, StatefulSets, DaemonSets, Jobs): what the
    /// controller would create, for workloads that have no pod to look at.
    pub template: Option<PodTemplate>,
    /// An Argo Workflow's `spec.podGC`: when the workflow controller deletes its own pods.
    #[serde(rename = "podGC")]
    pub pod_gc: Option<WorkflowPodGc>,
    /// A Job's retries (default 6), per index (1.28+), deadline and whether a
    /// `podFailurePolicy` decides some failures.
    pub backoff_limit: Option<i64>,
    pub backoff_limit_per_index: Option<i64>,
    pub active_deadline_seconds: Option<i64>,
    #[serde(deserialize_with = "present")]
    pub pod_failure_policy: bool,
}

/// Argo Workflows' `spec.podGC`.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkflowPodGc {
    /// `OnPodCompletion`, `OnPodSuccess`, `OnWorkflowCompletion`, `OnWorkflowSuccess`.
    pub strategy: Str,
    /// Only pods whose labels match are deleted (none given: all).
    pub label_selector: Option<LabelSelector>,
    /// How long after the strategy's moment the pods are deleted (a Go duration, `30s`).
    pub delete_delay_duration: Str,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodTemplate {
    pub metadata: Meta,
    pub spec: PodSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WorkloadStatus {
    #[serde(deserialize_with = "exact")]
    pub conditions: Vec<Condition>,
    pub replicas: Option<i64>,
    pub ready_replicas: Option<i64>,
    pub desired_number_scheduled: Option<i64>,
    pub current_number_scheduled: Option<i64>,
    /// An Argo Workflow's phase (`Pending`, `Running`, `Succeeded`, `Failed`, `Error`).
    pub phase: Str,
    /// An Argo Workflow's completion time.
    #[serde(deserialize_with = "lenient_time")]
    pub finished_at: Option<Timestamp>,
    /// A Job's pods by outcome.
    pub failed: Option<i64>,
    pub succeeded: Option<i64>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ApiService {
    pub metadata: Meta,
    pub spec: ApiServiceSpec,
    pub status: ConditionsStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ApiServiceSpec {
    pub group: Str,
    pub version: Str,
    pub service: Option<ServiceRef>,
}

#[derive(Debug, Clone, Default, Deserialize, Serialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ServiceRef {
    pub namespace: Str,
    pub name: Str,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ConditionsStatus {
    #[serde(deserialize_with = "exact")]
    pub conditions: Vec<Condition>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Lease {
    pub metadata: Meta,
    pub spec: LeaseSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LeaseSpec {
    pub holder_identity: Option<Str>,
    pub lease_duration_seconds: Option<i64>,
    #[serde(deserialize_with = "lenient_time")]
    pub renew_time: Option<Timestamp>,
}

/// A PodDisruptionBudget: what an eviction must respect, and the pods the API server just
/// evicted under it.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PodDisruptionBudget {
    pub metadata: Meta,
    pub spec: PdbSpec,
    pub status: PdbStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PdbSpec {
    pub selector: Option<LabelSelector>,
    pub min_available: Option<QuantityText>,
    pub max_unavailable: Option<QuantityText>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PdbStatus {
    /// Pod name → when the API server granted its eviction (until the pod is being deleted).
    pub disrupted_pods: std::collections::BTreeMap<Str, Str>,
    pub disruptions_allowed: i64,
    pub current_healthy: i64,
    pub desired_healthy: i64,
    pub expected_pods: i64,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PriorityClass {
    pub metadata: Meta,
    pub value: i64,
    pub preemption_policy: Option<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceQuota {
    pub metadata: Meta,
    pub spec: QuotaSpec,
    pub status: QuotaStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct QuotaSpec {
    pub hard: ResourceMap,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct QuotaStatus {
    pub hard: ResourceMap,
    pub used: ResourceMap,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRange {
    pub metadata: Meta,
    pub spec: LimitRangeSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRangeSpec {
    #[serde(deserialize_with = "exact")]
    pub limits: Vec<LimitRangeItem>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct LimitRangeItem {
    #[serde(rename = "type")]
    pub type_: Str,
    pub max: ResourceMap,
    pub min: ResourceMap,
    pub default: ResourceMap,
    pub default_request: ResourceMap,
}

/// A Mutating- or ValidatingWebhookConfiguration.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebhookConfiguration {
    pub kind: Str,
    pub metadata: Meta,
    #[serde(deserialize_with = "exact")]
    pub webhooks: Vec<Webhook>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Webhook {
    pub name: Str,
    pub client_config: WebhookClientConfig,
    pub failure_policy: Option<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct WebhookClientConfig {
    pub service: Option<ServiceRef>,
    pub url: Option<Str>,
}

// ------------------------------------------------------------ dynamic resource allocation

/// A ResourceClaim, or a ResourceClaimTemplate (whose claim spec sits one level deeper, under
/// `spec.spec`), of any `resource.k8s.io` version from v1alpha2 (1.27) to v1 (1.34).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceClaim {
    #[serde(skip)]
    pub kind: Str,
    pub metadata: Meta,
    pub spec: ClaimSpec,
    pub status: ClaimStatus,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClaimSpec {
    pub devices: ClaimDevices,
    /// v1alpha2's class (before DeviceClass).
    pub resource_class_name: Option<Str>,
    /// A template's claim spec.
    pub spec: Option<Box<ClaimSpec>>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClaimDevices {
    #[serde(deserialize_with = "exact")]
    pub requests: Vec<DeviceRequest>,
}

/// One device request: its class directly (v1alpha3, v1beta1), under `exactly` (v1beta2, v1),
/// or one class per alternative (`firstAvailable`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DeviceRequest {
    pub name: Str,
    pub device_class_name: Option<Str>,
    pub count: Option<i64>,
    pub exactly: Option<Box<DeviceRequest>>,
    #[serde(deserialize_with = "exact")]
    pub first_available: Vec<DeviceRequest>,
}

impl DeviceRequest {
    /// Every DeviceClass the request can be served from.
    pub fn classes(&self) -> Vec<&str> {
        let mut v: Vec<&str> = self.device_class_name.as_deref().into_iter().collect();
        if let Some(e) = &self.exactly {
            v.extend(e.classes());
        }
        for a in &self.first_available {
            v.extend(a.classes());
        }
        v
    }
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ClaimStatus {
    #[serde(deserialize_with = "present")]
    pub allocation: bool,
    #[serde(deserialize_with = "exact")]
    pub reserved_for: Vec<LocalRef>,
}

impl ResourceClaim {
    /// The claim's spec (a template's is one level deeper).
    pub fn claim_spec(&self) -> &ClaimSpec {
        self.spec.spec.as_deref().unwrap_or(&self.spec)
    }
}

/// A DeviceClass (1.31+) or a v1alpha2 ResourceClass: its name and, for the driver its
/// selectors name, the CEL text (`device.driver == "gpu.example.com"`).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DeviceClass {
    pub metadata: Meta,
    pub spec: DeviceClassSpec,
    /// v1alpha2's ResourceClass names its driver directly.
    pub driver_name: Option<Str>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DeviceClassSpec {
    #[serde(deserialize_with = "exact")]
    pub selectors: Vec<DeviceSelector>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct DeviceSelector {
    pub cel: Option<CelSelector>,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct CelSelector {
    pub expression: Str,
}

impl DeviceClass {
    /// The driver the class's selectors require (`device.driver == "x"`), when they say.
    pub fn driver(&self) -> Option<&str> {
        if let Some(d) = self.driver_name.as_deref() {
            return Some(d);
        }
        self.spec.selectors.iter().find_map(|s| {
            let e = s.cel.as_ref()?.expression.as_str();
            let rest = &e[e.find("device.driver")? + "device.driver".len()..];
            let rest = rest.trim_start().strip_prefix("==")?.trim_start();
            let q = rest.chars().next().filter(|c| *c == '"' || *c == '\'')?;
            let rest = &rest[1..];
            Some(&rest[..rest.find(q)?])
        })
    }
}

/// A ResourceSlice (1.31+): the devices one driver publishes for a node (or a pool of nodes).
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceSlice {
    pub metadata: Meta,
    pub spec: ResourceSliceSpec,
}

#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct ResourceSliceSpec {
    pub driver: Str,
    pub node_name: Option<Str>,
    pub all_nodes: Option<bool>,
    /// How many devices the slice publishes (their attributes are not kept).
    #[serde(deserialize_with = "count")]
    pub devices: usize,
}

/// The length of a list, without keeping its items.
fn count<'de, D: Deserializer<'de>>(d: D) -> Result<usize, D::Error> {
    Ok(Option::<Vec<IgnoredAny>>::deserialize(d)?.map_or(0, |v| v.len()))
}

/// Any object kubewhy has no slim view for (custom resources included): namespace checks need
/// to know what is left in a namespace and what blocks its deletion.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct GenericObject {
    pub api_version: Str,
    pub kind: Str,
    pub metadata: Meta,
}

/// A container log captured in the input (e.g. a cluster-info dump's `logs.txt`).
#[derive(Debug, Clone, Default)]
pub struct ContainerLog {
    pub namespace: String,
    pub pod: String,
    /// Empty when the dump does not say which container.
    pub container: String,
    /// Where it was read from, for evidence.
    pub origin: String,
    /// The last lines of the log (bounded when loaded).
    pub tail: Vec<String>,
    /// The previous run's log (`kubectl logs --previous`, a bundle's `-previous.log`): what
    /// explains a crash, preferred to the current run's.
    pub previous: bool,
}

impl ContainerLog {
    /// The log holds only the kubelet's word that there is none (the container removed
    /// between restarts, its file gone): nothing the container wrote.
    pub fn unavailable(&self) -> bool {
        crate::messages::app::log_unavailable(self.tail.iter().map(String::as_str))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secret_values_are_never_held() {
        let raw: RawKeyed = serde_json::from_str(
            r#"{"metadata":{"name":"db"},"type":"Opaque","data":{"password":"c2VjcmV0"},"stringData":{"token":"plain"}}"#,
        )
        .unwrap();
        let s = KeyedObject::from(raw);
        assert_eq!(s.keys, vec!["password", "token"]);
        let dbg = format!("{s:?}");
        assert!(!dbg.contains("c2VjcmV0") && !dbg.contains("plain"), "{dbg}");
    }

    #[test]
    fn pull_secrets_keep_registry_hosts_only() {
        use base64::Engine;
        let doc = r#"{"auths":{"registry.example.com":{"username":"u","password":"hunter2","auth":"dTpodW50ZXIy"},"https://index.docker.io/v1/":{"auth":"eDp5"}}}"#;
        let b64 = base64::engine::general_purpose::STANDARD.encode(doc);
        let raw: RawKeyed = serde_json::from_str(&format!(
            r#"{{"metadata":{{"name":"regcred"}},"type":"kubernetes.io/dockerconfigjson","data":{{".dockerconfigjson":"{b64}"}}}}"#
        ))
        .unwrap();
        let s = KeyedObject::from(raw);
        assert_eq!(s.keys, vec![".dockerconfigjson"]);
        assert_eq!(
            s.registries,
            vec!["https://index.docker.io/v1/", "registry.example.com"]
        );
        let dbg = format!("{s:?}");
        assert!(
            !dbg.contains("hunter2") && !dbg.contains("dTpodW50ZXIy") && !dbg.contains(&b64),
            "{dbg}"
        );
        // Legacy .dockercfg, in stringData; and garbage never fails the object.
        let raw: RawKeyed = serde_json::from_str(
            r#"{"metadata":{"name":"old"},"stringData":{".dockercfg":"{\"quay.io\":{\"auth\":\"eDp5\"}}"},"data":{".dockerconfigjson":"!!not base64!!"}}"#,
        )
        .unwrap();
        assert_eq!(KeyedObject::from(raw).registries, vec!["quay.io"]);
    }

    proptest::proptest! {
        /// Secret data is untrusted: any value under a pull-secret key, base64 or not, JSON or
        /// not, leaves the object readable.
        #[test]
        fn pull_secret_values_never_panic(v in "\\PC{0,200}", b64 in proptest::bool::ANY, legacy in proptest::bool::ANY) {
            use base64::Engine;
            let text = if b64 { base64::engine::general_purpose::STANDARD.encode(&v) } else { v.clone() };
            let _ = registry_hosts(&text, b64, legacy);
            let _ = registry_hosts(&v, true, legacy);
        }
    }

    #[test]
    fn env_values_are_never_held() {
        let c: Container = serde_json::from_str(
            r#"{"name":"a","env":[{"name":"PASSWORD","value":"hunter2"},{"name":"K","valueFrom":{"secretKeyRef":{"name":"s","key":"k"}}}]}"#,
        )
        .unwrap();
        assert!(!format!("{c:?}").contains("hunter2"));
        assert_eq!(
            c.env[1]
                .value_from
                .as_ref()
                .unwrap()
                .secret_key_ref
                .as_ref()
                .unwrap()
                .key,
            "k"
        );
    }

    #[test]
    fn malformed_timestamps_become_none() {
        let m: Meta = serde_json::from_str(
            r#"{"name":"x","creationTimestamp":"yesterday","deletionTimestamp":null}"#,
        )
        .unwrap();
        assert!(m.creation_timestamp.is_none() && m.deletion_timestamp.is_none());
        let m: Meta =
            serde_json::from_str(r#"{"creationTimestamp":"2024-05-01T10:00:00Z"}"#).unwrap();
        assert!(m.creation_timestamp.is_some());
    }

    #[test]
    fn quantities_accept_numbers() {
        let r: Resources =
            serde_json::from_str(r#"{"requests":{"memory":4,"cpu":"1024m"}}"#).unwrap();
        assert_eq!(r.requests["memory"].0, "4");
        assert_eq!(r.requests["cpu"].0, "1024m");
    }
}

#[cfg(test)]
mod owner_tests {
    use super::*;

    fn meta(ns: &str, name: &str, uid: &str, owners: &[(&str, &str, &str)]) -> Meta {
        Meta {
            name: name.into(),
            namespace: Some(ns.into()),
            uid: uid.into(),
            owner_references: owners
                .iter()
                .map(|(kind, name, uid)| OwnerRef {
                    kind: (*kind).into(),
                    name: (*name).into(),
                    uid: (*uid).into(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    /// By uid when both sides have one; by name when either lacks it; never across kinds or
    /// namespaces.
    #[test]
    fn owners_match_by_uid_then_by_name() {
        let web = meta("shop", "web", "u1", &[]);
        let pod = |owners| meta("shop", "web-1", "p1", owners);
        assert!(pod(&[("ReplicaSet", "web", "u1")]).owned_by("ReplicaSet", &web));
        // The same name, another object (re-created): not its owner.
        assert!(!pod(&[("ReplicaSet", "web", "u0")]).owned_by("ReplicaSet", &web));
        // A reference without uid (pasted, hand-written): by name.
        assert!(pod(&[("ReplicaSet", "web", "")]).owned_by("ReplicaSet", &web));
        assert!(
            pod(&[("ReplicaSet", "web", "u9")])
                .owned_by("ReplicaSet", &meta("shop", "web", "", &[]))
        );
        assert!(!pod(&[("StatefulSet", "web", "u1")]).owned_by("ReplicaSet", &web));
        assert!(
            !meta("other", "web-1", "p1", &[("ReplicaSet", "web", "u1")])
                .owned_by("ReplicaSet", &web)
        );
    }
}
