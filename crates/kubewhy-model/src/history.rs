//! Evidence about the past, for `kubewhy gone`: what an API server audit log, a
//! kube-controller-manager log and the flight recorder say about objects that were deleted.
//! The snapshot says what exists; these say what stopped existing, who asked and when.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

/// One request from an API server audit log (`audit.k8s.io/v1` Event), kept when it deleted
/// or evicted something.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct AuditEntry {
    /// `file:line`, for evidence.
    pub origin: String,
    /// When the request was received.
    pub time: Option<Timestamp>,
    /// `delete`, `deletecollection`, or `create` (for `pods/eviction`).
    pub verb: String,
    /// `user.username`.
    pub user: String,
    /// `impersonatedUser.username`, when the request was impersonated.
    pub impersonated: Option<String>,
    pub user_agent: String,
    /// `objectRef.resource` (`pods`, `namespaces`, `jobs`…).
    pub resource: String,
    /// `objectRef.subresource` (`eviction`), or empty.
    pub subresource: String,
    pub api_group: String,
    pub namespace: String,
    /// Empty for a `deletecollection`.
    pub name: String,
    /// `responseStatus.code`, when the stage had one.
    pub code: Option<i64>,
}

impl AuditEntry {
    /// The identity the request acted as: the impersonated user when there was one.
    pub fn actor(&self) -> &str {
        self.impersonated.as_deref().unwrap_or(&self.user)
    }
    /// The request succeeded (2xx), or its outcome is not recorded.
    pub fn succeeded(&self) -> bool {
        self.code.is_none_or(|c| (200..300).contains(&c))
    }
    /// `delete pods shop/web-1 by admin (kubectl/v1.30.0) → 200`.
    pub fn describe(&self) -> String {
        let what = match (self.subresource.as_str(), self.namespace.as_str()) {
            ("", "") => format!("{} {}", self.resource, self.name),
            ("", ns) => format!("{} {ns}/{}", self.resource, self.name),
            (sub, "") => format!("{}/{sub} {}", self.resource, self.name),
            (sub, ns) => format!("{}/{sub} {ns}/{}", self.resource, self.name),
        };
        let by = match &self.impersonated {
            Some(i) => format!("{i} (impersonated by {})", self.user),
            None => self.user.clone(),
        };
        let code = self.code.map(|c| format!(" → {c}")).unwrap_or_default();
        // The program and version; the rest of a user agent repeats the platform and user.
        let agent = match self.user_agent.split_whitespace().next() {
            Some(a) => format!(" ({a})"),
            None => String::new(),
        };
        let at = self.time.map(|t| format!("{t} ")).unwrap_or_default();
        format!("{at}{} {what} by {by}{agent}{code}", self.verb)
    }
}

/// What a kube-controller-manager log line says happened to a pod.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum ControllerAction {
    /// The pod GC deleted it as one of the terminated pods over the threshold.
    GcTerminated,
    /// The pod GC deleted it because its node no longer exists.
    GcOrphaned,
    /// The pod GC deleted it because it was terminating and never scheduled.
    GcUnscheduledTerminating,
    /// The pod GC force-deleted it (the rule is not on the line itself).
    GcForceDelete,
    /// The NoExecute taint manager deleted it.
    TaintEviction,
}

/// One kube-controller-manager log line about a pod.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ControllerLogEntry {
    pub origin: String,
    /// From the klog header (`I1123 00:20:01.123456`: the year is not on the line) or a JSON
    /// log's `ts`.
    pub time: Option<Timestamp>,
    pub action: ControllerAction,
    pub namespace: String,
    pub name: String,
    pub node: Option<String>,
    /// The line, as written (trimmed, bounded).
    pub line: String,
}

/// A reference to an owner, as the recorder keeps it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OwnerLink {
    pub kind: String,
    pub name: String,
    pub uid: String,
}

/// An event the recorder kept for a pod (events expire after an hour; these do not).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedEvent {
    pub time: Option<Timestamp>,
    #[serde(rename = "type")]
    pub type_: String,
    pub reason: String,
    pub source: String,
    pub message: String,
    pub count: i64,
}

/// What the flight recorder knew of a pod when it was deleted.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PodRecord {
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub owner: Option<OwnerLink>,
    pub node: String,
    pub labels: crate::objects::Labels,
    pub created: Option<Timestamp>,
    /// The last phase, `status.reason` and `status.message`.
    pub phase: String,
    pub reason: String,
    pub message: String,
    /// The `DisruptionTarget` condition's reason and message, when it was True.
    pub disruption_reason: String,
    pub disruption_message: String,
    /// When the recorder first saw `metadata.deletionTimestamp` set, and the grace period then:
    /// a pod that vanished without ever being seen terminating was deleted with grace 0.
    pub deletion_seen: Option<Timestamp>,
    pub deletion_grace: Option<i64>,
    /// When the recorder saw it go (or, after a watch gap, when it noticed).
    pub deleted: Option<Timestamp>,
    /// The deletion happened during a watch gap: `deleted` is an upper bound.
    pub deleted_in_gap: bool,
    pub events: Vec<RecordedEvent>,
    /// The recorder's verdict when it wrote the row (a cause slug), or empty.
    pub initiator: String,
    /// `spec.priorityClassName` and `spec.priority` (rows written before they were kept lack
    /// them).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub priority_class: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub priority: Option<i64>,
    /// A PodDisruptionBudget's `status.disruptedPods` named the pod: the API server granted
    /// its eviction (`PDB at TIME`).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub evicted_under: String,
}

/// An object other than a pod whose deletion the recorder saw: an owner, a node, a namespace.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObjectRecord {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub owner: Option<OwnerLink>,
    pub deleted: Option<Timestamp>,
    /// A Job's `ttlSecondsAfterFinished`, when set.
    pub ttl_seconds_after_finished: Option<i64>,
    /// A Job's completion (the time its Complete or Failed condition became True).
    pub finished: Option<Timestamp>,
}

impl ObjectRecord {
    /// When a finished Job's `ttlSecondsAfterFinished` ran out (its completion plus the TTL).
    pub fn ttl_expiry(&self) -> Option<Timestamp> {
        Some(self.finished? + jiff::SignedDuration::from_secs(self.ttl_seconds_after_finished?))
    }
}

/// A change of a workload's desired replicas (`spec.replicas`) that the recorder saw: a
/// scale-down explains the pods its controller removed next.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ScaleRecord {
    pub kind: String,
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub owner: Option<OwnerLink>,
    pub from: i64,
    pub to: i64,
    /// When the recorder saw the new value.
    pub at: Option<Timestamp>,
    /// The field manager that last set `spec.replicas` (its managedFields entry): `kubectl`,
    /// `kube-controller-manager` (a HorizontalPodAutoscaler, or the Deployment controller for
    /// a ReplicaSet), … Empty when the object does not say.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub by: String,
}

/// Everything `kubewhy gone` knows about the past besides the snapshot.
#[derive(Debug, Clone, Default)]
pub struct History {
    pub audit: Vec<AuditEntry>,
    pub controller: Vec<ControllerLogEntry>,
    pub pods: Vec<PodRecord>,
    pub objects: Vec<ObjectRecord>,
    /// Desired-replica changes the recorder saw.
    pub scalings: Vec<ScaleRecord>,
    /// Which sources were given (`audit log`, `controller log`, `flight recorder`), to say
    /// which one would have told when the answer is "cannot tell".
    pub sources: Vec<String>,
}

impl PodRecord {
    /// What a pod's last known state says, as the recorder keeps it (events and the deletion
    /// time are filled in by whoever saw them).
    pub fn from_pod(pod: &crate::objects::Pod) -> PodRecord {
        let m = &pod.metadata;
        let target = crate::objects::condition(&pod.status.conditions, "DisruptionTarget")
            .filter(|c| c.status == "True");
        PodRecord {
            namespace: m.ns().to_string(),
            name: m.name.to_string(),
            uid: m.uid.to_string(),
            owner: m.controller().map(|o| OwnerLink {
                kind: o.kind.to_string(),
                name: o.name.to_string(),
                uid: o.uid.to_string(),
            }),
            node: pod
                .spec
                .node_name
                .as_deref()
                .unwrap_or_default()
                .to_string(),
            labels: (*m.labels).clone(),
            created: m.creation_timestamp,
            phase: pod.status.phase.to_string(),
            reason: pod.status.reason.as_deref().unwrap_or_default().to_string(),
            message: pod
                .status
                .message
                .as_deref()
                .unwrap_or_default()
                .to_string(),
            disruption_reason: target.map(|c| c.reason.to_string()).unwrap_or_default(),
            disruption_message: target.map(|c| c.message.to_string()).unwrap_or_default(),
            deletion_seen: m.deletion_timestamp.map(|_| {
                // deletionTimestamp is the end of the grace period: the request came grace
                // seconds before it.
                let grace = m.deletion_grace_period_seconds.unwrap_or(0);
                m.deletion_timestamp.unwrap_or_default() - jiff::SignedDuration::from_secs(grace)
            }),
            deletion_grace: m.deletion_timestamp.and(m.deletion_grace_period_seconds),
            priority_class: pod
                .spec
                .priority_class_name
                .as_deref()
                .unwrap_or_default()
                .to_string(),
            priority: pod.spec.priority,
            ..Default::default()
        }
    }
}

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
    /// A Deployment's, ReplicaSet's or StatefulSet's desired replicas changed (a ReplicaSet
    /// created by a rollout counts as scaled up from 0).
    Scaled(Box<ScaleRecord>),
    /// A PodDisruptionBudget's `status.disruptedPods` named a pod: the API server granted its
    /// eviction at `at` (the entry goes once the pod is being deleted, so only a watch sees it).
    Evicted {
        namespace: String,
        pod: String,
        pdb: String,
        at: String,
    },
    /// A watch (re)started listing, or failed: `kind`, and the error if any.
    Health {
        kind: &'static str,
        error: Option<String>,
    },
}
