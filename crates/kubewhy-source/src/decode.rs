//! Kind dispatch: one document's `kind` decides which slim view it is deserialized into.
//! Works over any serde `Deserializer` (serde_json text, or values converted from YAML).

use kubewhy_model::Snapshot;
use kubewhy_model::objects::*;
use serde::{Deserialize, Deserializer};

/// One decoded object, before it joins the snapshot.
#[derive(Debug, Clone)]
pub(crate) enum Obj {
    // Shared, not boxed: watch mode's store and each evaluation's snapshot hold the same pod.
    Pod(std::sync::Arc<Pod>),
    Node(Box<Node>),
    Event(std::sync::Arc<Event>),
    Namespace(Box<Namespace>),
    Pvc(Box<PersistentVolumeClaim>),
    Pv(Box<PersistentVolume>),
    StorageClass(Box<StorageClass>),
    ConfigMap(Box<KeyedObject>),
    Secret(Box<KeyedObject>),
    ServiceAccount(Box<ServiceAccount>),
    Workload(Box<Workload>),
    ApiService(Box<ApiService>),
    Lease(Box<Lease>),
    PriorityClass(Box<PriorityClass>),
    Pdb(Box<PodDisruptionBudget>),
    ResourceQuota(Box<ResourceQuota>),
    LimitRange(Box<LimitRange>),
    CsiDriver(Box<GenericObject>),
    Webhook(Box<WebhookConfiguration>),
    Claim(Box<ResourceClaim>),
    DeviceClass(Box<DeviceClass>),
    Slice(Box<ResourceSlice>),
    Other(Box<GenericObject>),
}

/// Kinds with a slim view of their own; anything else is kept as a generic object.
pub(crate) const KNOWN_KINDS: &[&str] = &[
    "Pod",
    "Node",
    "Event",
    "Namespace",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "StorageClass",
    "ConfigMap",
    "Secret",
    "ServiceAccount",
    "ReplicaSet",
    "Deployment",
    "StatefulSet",
    "DaemonSet",
    "Job",
    "CronJob",
    "Workflow",
    "APIService",
    "Lease",
    "PriorityClass",
    "PodDisruptionBudget",
    "ResourceQuota",
    "LimitRange",
    "CSIDriver",
    "MutatingWebhookConfiguration",
    "ValidatingWebhookConfiguration",
    "ResourceClaim",
    "ResourceClaimTemplate",
    "DeviceClass",
    "ResourceClass",
    "ResourceSlice",
];

/// Decodes one object of `kind`. An object without a name is refused: every finding, command and
/// index names objects, and the API server never returns one (Events, which nothing names, may
/// lack it).
pub(crate) fn decode<'de, D: Deserializer<'de>>(
    kind: &str,
    api_version: &str,
    d: D,
) -> Result<Obj, D::Error> {
    let o = decode_any(kind, api_version, d)?;
    match o.meta() {
        Some(m) if m.name.is_empty() => {
            Err(serde::de::Error::custom("object without metadata.name"))
        }
        _ => Ok(o),
    }
}

fn decode_any<'de, D: Deserializer<'de>>(
    kind: &str,
    api_version: &str,
    d: D,
) -> Result<Obj, D::Error> {
    fn b<T>(t: T) -> Box<T> {
        Box::new(t)
    }
    Ok(match kind {
        "Pod" => Obj::Pod(std::sync::Arc::new(Pod::deserialize(d)?)),
        "Node" => Obj::Node(b(Node::deserialize(d)?)),
        "Event" if api_version.starts_with("events.k8s.io/") => {
            Obj::Event(std::sync::Arc::new(NewEvent::deserialize(d)?.into()))
        }
        "Event" => Obj::Event(std::sync::Arc::new(CoreEvent::deserialize(d)?.into())),
        "Namespace" => Obj::Namespace(b(Namespace::deserialize(d)?)),
        "PersistentVolumeClaim" => Obj::Pvc(b(PersistentVolumeClaim::deserialize(d)?)),
        "PersistentVolume" => Obj::Pv(b(PersistentVolume::deserialize(d)?)),
        "StorageClass" => Obj::StorageClass(b(StorageClass::deserialize(d)?)),
        "ConfigMap" => Obj::ConfigMap(b(RawKeyed::deserialize(d)?.into())),
        "Secret" => Obj::Secret(b(RawKeyed::deserialize(d)?.into())),
        "ServiceAccount" => Obj::ServiceAccount(b(ServiceAccount::deserialize(d)?)),
        // Argo Workflows too: `spec.podGC` says when its controller deletes the workflow's pods.
        "ReplicaSet" | "Deployment" | "StatefulSet" | "DaemonSet" | "Job" | "CronJob"
        | "Workflow"
            if kind != "Workflow" || api_version.starts_with("argoproj.io/") =>
        {
            let mut w = Workload::deserialize(d)?;
            w.kind = kind.into();
            Obj::Workload(b(w))
        }
        "APIService" => Obj::ApiService(b(ApiService::deserialize(d)?)),
        "Lease" => Obj::Lease(b(Lease::deserialize(d)?)),
        "PriorityClass" => Obj::PriorityClass(b(PriorityClass::deserialize(d)?)),
        "PodDisruptionBudget" => Obj::Pdb(b(PodDisruptionBudget::deserialize(d)?)),
        "ResourceQuota" => Obj::ResourceQuota(b(ResourceQuota::deserialize(d)?)),
        "LimitRange" => Obj::LimitRange(b(LimitRange::deserialize(d)?)),
        "CSIDriver" => Obj::CsiDriver(b(generic(kind, api_version, d)?)),
        "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration" => {
            let mut w = WebhookConfiguration::deserialize(d)?;
            w.kind = kind.into();
            Obj::Webhook(b(w))
        }
        "ResourceClaim" | "ResourceClaimTemplate"
            if api_version.starts_with("resource.k8s.io/") =>
        {
            let mut c = ResourceClaim::deserialize(d)?;
            c.kind = kind.into();
            Obj::Claim(b(c))
        }
        "DeviceClass" | "ResourceClass" if api_version.starts_with("resource.k8s.io/") => {
            Obj::DeviceClass(b(DeviceClass::deserialize(d)?))
        }
        "ResourceSlice" if api_version.starts_with("resource.k8s.io/") => {
            Obj::Slice(b(ResourceSlice::deserialize(d)?))
        }
        _ => Obj::Other(b(generic(kind, api_version, d)?)),
    })
}

fn generic<'de, D: Deserializer<'de>>(
    kind: &str,
    api_version: &str,
    d: D,
) -> Result<GenericObject, D::Error> {
    let mut g = GenericObject::deserialize(d)?;
    g.kind = kind.into();
    if g.api_version.is_empty() {
        g.api_version = api_version.into();
    }
    Ok(g)
}

impl Obj {
    pub(crate) fn kind(&self) -> &str {
        match self {
            Obj::Pod(_) => "Pod",
            Obj::Node(_) => "Node",
            Obj::Event(_) => "Event",
            Obj::Namespace(_) => "Namespace",
            Obj::Pvc(_) => "PersistentVolumeClaim",
            Obj::Pv(_) => "PersistentVolume",
            Obj::StorageClass(_) => "StorageClass",
            Obj::ConfigMap(_) => "ConfigMap",
            Obj::Secret(_) => "Secret",
            Obj::ServiceAccount(_) => "ServiceAccount",
            Obj::Workload(w) => &w.kind,
            Obj::ApiService(_) => "APIService",
            Obj::Lease(_) => "Lease",
            Obj::PriorityClass(_) => "PriorityClass",
            Obj::Pdb(_) => "PodDisruptionBudget",
            Obj::ResourceQuota(_) => "ResourceQuota",
            Obj::LimitRange(_) => "LimitRange",
            Obj::CsiDriver(_) => "CSIDriver",
            Obj::Webhook(w) => &w.kind,
            Obj::Claim(c) => &c.kind,
            Obj::DeviceClass(_) => "DeviceClass",
            Obj::Slice(_) => "ResourceSlice",
            Obj::Other(g) => &g.kind,
        }
    }

    /// Its metadata (Events have none of their own kept).
    fn meta(&self) -> Option<&Meta> {
        Some(match self {
            Obj::Pod(x) => &x.metadata,
            Obj::Node(x) => &x.metadata,
            Obj::Event(_) => return None,
            Obj::Namespace(x) => &x.metadata,
            Obj::Pvc(x) => &x.metadata,
            Obj::Pv(x) => &x.metadata,
            Obj::StorageClass(x) => &x.metadata,
            Obj::ConfigMap(x) | Obj::Secret(x) => &x.metadata,
            Obj::ServiceAccount(x) => &x.metadata,
            Obj::Workload(x) => &x.metadata,
            Obj::ApiService(x) => &x.metadata,
            Obj::Lease(x) => &x.metadata,
            Obj::PriorityClass(x) => &x.metadata,
            Obj::Pdb(x) => &x.metadata,
            Obj::ResourceQuota(x) => &x.metadata,
            Obj::LimitRange(x) => &x.metadata,
            Obj::CsiDriver(x) | Obj::Other(x) => &x.metadata,
            Obj::Webhook(x) => &x.metadata,
            Obj::Claim(x) => &x.metadata,
            Obj::DeviceClass(x) => &x.metadata,
            Obj::Slice(x) => &x.metadata,
        })
    }

    pub(crate) fn add_to(self, s: &mut Snapshot) {
        *s.kinds_loaded.entry(self.kind().to_string()).or_insert(0) += 1;
        match self {
            Obj::Pod(x) => s.pods.push(x),
            Obj::Node(x) => s.nodes.push(*x),
            Obj::Event(x) => s.events.push(x),
            Obj::Namespace(x) => s.namespaces.push(*x),
            Obj::Pvc(x) => s.pvcs.push(*x),
            Obj::Pv(x) => s.pvs.push(*x),
            Obj::StorageClass(x) => s.storage_classes.push(*x),
            Obj::ConfigMap(x) => s.config_maps.push(*x),
            Obj::Secret(x) => s.secrets.push(*x),
            Obj::ServiceAccount(x) => s.service_accounts.push(*x),
            Obj::Workload(x) => s.workloads.push(*x),
            Obj::ApiService(x) => s.api_services.push(*x),
            Obj::Lease(x) => s.leases.push(*x),
            Obj::PriorityClass(x) => s.priority_classes.push(*x),
            Obj::Pdb(x) => s.pdbs.push(*x),
            Obj::ResourceQuota(x) => s.resource_quotas.push(*x),
            Obj::LimitRange(x) => s.limit_ranges.push(*x),
            Obj::CsiDriver(x) => s.csi_drivers.push(*x),
            Obj::Webhook(x) => s.webhook_configurations.push(*x),
            Obj::Claim(x) => s.resource_claims.push(*x),
            Obj::DeviceClass(x) => s.device_classes.push(*x),
            Obj::Slice(x) => s.resource_slices.push(*x),
            Obj::Other(x) => s.others.push(*x),
        }
    }
}

// ------------------------------------------------------------------ events, two API versions

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct EventSource {
    component: Str,
    host: Str,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct EventSeries {
    count: i64,
    #[serde(deserialize_with = "lenient_time")]
    last_observed_time: Option<jiff::Timestamp>,
}

/// The object an event is about, with the container it names (`spec.containers{web}`).
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Involved {
    kind: Str,
    namespace: Str,
    name: Str,
    uid: Str,
    field_path: Str,
}

/// core/v1 Event.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct CoreEvent {
    metadata: Meta,
    involved_object: Involved,
    reason: Str,
    #[serde(deserialize_with = "redacted")]
    message: Str,
    #[serde(rename = "type")]
    type_: Str,
    count: Option<i64>,
    #[serde(deserialize_with = "lenient_time")]
    first_timestamp: Option<jiff::Timestamp>,
    #[serde(deserialize_with = "lenient_time")]
    last_timestamp: Option<jiff::Timestamp>,
    #[serde(deserialize_with = "lenient_time")]
    event_time: Option<jiff::Timestamp>,
    source: EventSource,
    reporting_component: Str,
    series: Option<EventSeries>,
}

/// What both Event API versions carry, under their own field names.
struct EventParts {
    metadata: Meta,
    involved: Involved,
    reason: Str,
    message: Str,
    type_: Str,
    series: Option<EventSeries>,
    count: Option<i64>,
    first: Option<jiff::Timestamp>,
    last: Option<jiff::Timestamp>,
    event_time: Option<jiff::Timestamp>,
    /// The component that reported it, in order of preference.
    sources: [Str; 2],
    host: Str,
}

impl From<EventParts> for Event {
    fn from(e: EventParts) -> Event {
        let Involved {
            kind,
            namespace,
            name,
            uid,
            field_path,
        } = e.involved;
        let namespace = if namespace.is_empty() {
            e.metadata.ns().into()
        } else {
            namespace
        };
        let involved = ObjectKey {
            kind,
            namespace,
            name,
            uid,
        };
        let [primary, fallback] = e.sources;
        Event {
            namespace: e.metadata.ns().into(),
            involved,
            reason: e.reason,
            message: e.message,
            type_: e.type_,
            // A series (newer API servers) counts repeats instead of the deprecated count.
            count: e
                .series
                .as_ref()
                .map(|s| s.count)
                .or(e.count)
                .unwrap_or(1)
                .max(1),
            first_time: e.first.or(e.event_time),
            last_time: e
                .series
                .and_then(|s| s.last_observed_time)
                .or(e.last)
                .or(e.event_time),
            source: if primary.is_empty() {
                fallback
            } else {
                primary
            },
            host: e.host,
            field_path,
            name: e.metadata.name,
        }
    }
}

/// A core/v1 Event as the loader reads it (the reporting component, a series' count and the
/// newest time resolved as for files), for the live watches.
pub fn core_event(v: serde_json::Value) -> Option<Event> {
    CoreEvent::deserialize(v).ok().map(Event::from)
}

impl From<CoreEvent> for Event {
    fn from(e: CoreEvent) -> Event {
        EventParts {
            metadata: e.metadata,
            involved: e.involved_object,
            reason: e.reason,
            message: e.message,
            type_: e.type_,
            series: e.series,
            count: e.count,
            first: e.first_timestamp,
            last: e.last_timestamp,
            event_time: e.event_time,
            sources: [e.source.component, e.reporting_component],
            host: e.source.host,
        }
        .into()
    }
}

/// events.k8s.io/v1 Event.
#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct NewEvent {
    metadata: Meta,
    regarding: Involved,
    reason: Str,
    #[serde(deserialize_with = "redacted")]
    note: Str,
    #[serde(rename = "type")]
    type_: Str,
    deprecated_count: Option<i64>,
    #[serde(deserialize_with = "lenient_time")]
    deprecated_first_timestamp: Option<jiff::Timestamp>,
    #[serde(deserialize_with = "lenient_time")]
    deprecated_last_timestamp: Option<jiff::Timestamp>,
    #[serde(deserialize_with = "lenient_time")]
    event_time: Option<jiff::Timestamp>,
    reporting_controller: Str,
    deprecated_source: EventSource,
    series: Option<EventSeries>,
}

impl From<NewEvent> for Event {
    fn from(e: NewEvent) -> Event {
        EventParts {
            metadata: e.metadata,
            involved: e.regarding,
            reason: e.reason,
            message: e.note,
            type_: e.type_,
            series: e.series,
            count: e.deprecated_count,
            first: e.deprecated_first_timestamp,
            last: e.deprecated_last_timestamp,
            event_time: e.event_time,
            sources: [e.reporting_controller, e.deprecated_source.component],
            host: e.deprecated_source.host,
        }
        .into()
    }
}
