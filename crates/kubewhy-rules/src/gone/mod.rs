//! `kubewhy gone`: why a pod no longer exists, or why it is being removed. Every source is
//! weighed in one place, strongest first:
//!
//! 1. what the pod said about itself last (the snapshot's pod, or the flight recorder's row):
//!    the `DisruptionTarget` condition, `status.reason` Evicted / Preempting;
//! 2. kube-controller-manager log lines that name the pod (pod GC rules, taint manager);
//! 3. the API server audit log: the first request that deleted or evicted it, and who sent it;
//! 4. what the rest of the data implies: its namespace deleted, its owner deleted (a Job by
//!    its TTL or its CronJob's history limit), its node deleted, a terminated pod force-deleted
//!    without a grace period (the pod GC's threshold rule), events (TaintManagerEviction,
//!    Preempted, Evicted, an owner's "Deleted pod").
//!
//! The answer is a finding with one of the Gone causes, or an honest "cannot tell" that names
//! the source that would.

use crate::disruption::{self, Said};
use crate::podinfo::PodInfo;
use kubewhy_model::history::{
    AuditEntry, ControllerAction, ControllerLogEntry, History, ObjectRecord, OwnerLink, PodRecord,
};
use kubewhy_model::objects::{Event, Pod};
use kubewhy_model::selector::Selector;
use kubewhy_model::{
    Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity, Snapshot,
    Unexplained, merge_findings,
};
use std::collections::BTreeSet;

mod advice;
mod facts;
mod gc;
mod implied;
mod judge;
mod owner;
#[cfg(test)]
mod tests;

use advice::*;
use facts::*;
use gc::*;
use implied::*;
use judge::*;
use owner::*;

/// Every cause `gone` can answer with.
pub const CAUSES: &[Cause] = &[
    Cause::ScaledDown,
    Cause::RolloutReplaced,
    Cause::PodGcThreshold,
    Cause::PodGcOrphaned,
    Cause::PodGcUnscheduledTerminating,
    Cause::EvictedNodePressure,
    Cause::EvictedTaint,
    Cause::EvictedApi,
    Cause::Preempted,
    Cause::NodeShutdown,
    Cause::NodeAdmissionRejected,
    Cause::DeviceAllocationFailed,
    Cause::DeadlineExceeded,
    Cause::JobTtlExpired,
    Cause::OwnerDeleted,
    Cause::NamespaceDeleted,
    Cause::DeletedByClient,
];

/// What the user asked about, in one namespace.
#[derive(Debug, Clone)]
pub struct Query {
    pub namespace: String,
    /// One pod by name.
    pub pod: Option<String>,
    /// The pods of an owner: `(kind, name)`, kind as in `ownerReferences` (`Job`,
    /// `ReplicaSet`, `Deployment`, `StatefulSet`, `DaemonSet`, `CronJob`).
    pub owner: Option<(String, String)>,
    /// The pods whose labels match (live pods and recorded ones; audit logs carry no labels).
    pub selector: Option<Selector>,
}

impl Query {
    /// `--owner`'s `KIND/NAME` with the kind as `ownerReferences` spell it (`job` → `Job`,
    /// `rs` → `ReplicaSet`, …).
    pub fn parse_owner(owner: &str) -> Result<(String, String), String> {
        let Some((kind, name)) = owner.split_once('/') else {
            return Err(format!(
                "--owner {owner:?}: give KIND/NAME, e.g. job/nightly or deployment/web"
            ));
        };
        let kind = match kind.to_ascii_lowercase().as_str() {
            "job" | "jobs" => "Job",
            "cronjob" | "cronjobs" | "cj" => "CronJob",
            "replicaset" | "replicasets" | "rs" => "ReplicaSet",
            "deployment" | "deployments" | "deploy" => "Deployment",
            "statefulset" | "statefulsets" | "sts" => "StatefulSet",
            "daemonset" | "daemonsets" | "ds" => "DaemonSet",
            "workflow" | "workflows" | "wf" => "Workflow",
            other => {
                return Err(format!(
                    "--owner: unknown kind {other:?}; one of job, cronjob, replicaset, deployment, statefulset, daemonset, workflow"
                ));
            }
        };
        Ok((kind.to_string(), name.to_string()))
    }
}

/// The answer for every pod the query names.
#[derive(Debug, Default)]
pub struct Answer {
    pub findings: Vec<Finding>,
    /// Pods the data shows gone (or going) without showing why: what would tell.
    pub unknown: Vec<Unexplained>,
    /// Pods that exist and are not being removed.
    pub alive: Vec<ObjectKey>,
    /// Nothing at all matched the query.
    pub nothing: bool,
}

/// Events every pod gets; the recorder keeps them, the answer does not quote them.
const ROUTINE_EVENTS: &[&str] = &["Scheduled", "Pulling", "Pulled", "Created", "Started"];

const GC_SA: &str = "system:serviceaccount:kube-system:";

/// Everything known about one pod.
struct Facts<'a> {
    key: ObjectKey,
    live: Option<&'a Pod>,
    /// The last known state: the live pod's, or the recorder's row.
    last: Option<PodRecord>,
    recorded: Option<&'a PodRecord>,
    owner: Option<(OwnerLink, String)>,
    audit: Vec<&'a AuditEntry>,
    controller: Vec<&'a ControllerLogEntry>,
    events: Vec<&'a Event>,
}

/// Answers the query from the snapshot and the history.
pub fn explain(snap: &Snapshot, history: &History, q: &Query) -> Answer {
    let names = candidates(snap, history, q);
    let mut answer = Answer {
        nothing: names.is_empty(),
        ..Default::default()
    };
    let mut raw = Vec::new();
    for name in names {
        let facts = gather(snap, history, &q.namespace, &name);
        match judge(snap, history, &facts) {
            Verdict::Alive => answer.alive.push(facts.key.clone()),
            Verdict::Found(f) => raw.push(*f),
            Verdict::Unknown { status, next } => answer.unknown.push(Unexplained {
                object: facts.key.clone(),
                status,
                next,
                reason: String::new(),
            }),
        }
    }
    answer.findings = merge_findings(raw);
    answer
}

enum Verdict {
    Alive,
    Found(Box<Finding>),
    Unknown { status: String, next: String },
}
