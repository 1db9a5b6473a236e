//! A repair plan: what `kubewhy fix` would change, in order, and what it refuses to change.
//! Plain data: made by `kubewhy-rules` (planning), rendered by `kubewhy-report`, carried out by
//! `kubewhy-live` (dry-run, preconditions, backups). Saved plans are this type as JSON.

use crate::{Cause, RiskLevel};
use serde::{Deserialize, Serialize};

/// The exact object a step writes, as it was when the plan was made. `resource_version` is the
/// precondition of the write: if the object changed since, the step is refused, not clobbered.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Target {
    pub api_version: String,
    pub kind: String,
    #[serde(skip_serializing_if = "String::is_empty")]
    pub namespace: String,
    pub name: String,
    pub uid: String,
    pub resource_version: String,
}

impl Target {
    /// The object a plan is about, from its subject (`Pod ns/name`, `Namespace name`).
    pub fn of_subject(subject: &str) -> Option<Target> {
        let (kind, rest) = subject.split_once(' ')?;
        let (namespace, name) = match rest.split_once('/') {
            Some((ns, n)) => (ns.to_string(), n.to_string()),
            None => (String::new(), rest.to_string()),
        };
        Some(Target {
            api_version: "v1".into(),
            kind: kind.into(),
            namespace,
            name,
            ..Default::default()
        })
    }

    /// `kind ns/name` or `kind name`.
    pub fn display(&self) -> String {
        if self.namespace.is_empty() {
            format!("{} {}", self.kind, self.name)
        } else {
            format!("{} {}/{}", self.kind, self.namespace, self.name)
        }
    }
}

/// One write.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "kebab-case")]
pub enum Action {
    /// Sets `metadata.finalizers` to `keep` (the listed ones removed), guarded by the
    /// resourceVersion.
    RemoveFinalizers {
        remove: Vec<String>,
        keep: Vec<String>,
    },
    /// An ordinary delete, with uid and resourceVersion preconditions.
    Delete,
    /// A pod deleted with grace period 0: the API object goes without the kubelet's
    /// confirmation.
    ForceDeletePod,
    /// The namespace's `spec.finalizers` emptied through the `/finalize` subresource.
    FinalizeNamespace,
}

impl Action {
    pub fn verb(&self) -> String {
        match self {
            Action::RemoveFinalizers { remove, .. } => {
                format!("remove finalizer(s) {}", remove.join(", "))
            }
            Action::Delete => "delete".into(),
            Action::ForceDeletePod => "force-delete (grace period 0)".into(),
            Action::FinalizeNamespace => "clear spec.finalizers through /finalize".into(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PlanStep {
    pub action: Action,
    pub object: Target,
    /// The cause this step repairs.
    pub cause: Cause,
    /// Why this step, in a sentence (the evidence that allows it).
    pub why: String,
    pub risk: RiskLevel,
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub risk_note: String,
    /// The kubectl command that does the same by hand (without the preconditions).
    pub command: String,
}

/// A step kubewhy will not take, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Refusal {
    /// `Kind ns/name`.
    pub object: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    /// The step not taken.
    pub step: String,
    pub why: String,
    /// What to do instead (commands or actions for a person).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub instead: Vec<String>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Plan {
    /// What was asked about: `Pod ns/name` or `Namespace name`.
    pub subject: String,
    /// When the plan was made (the snapshot's time).
    pub made_at: String,
    /// `--force` was given: steps that need it are included.
    pub force: bool,
    /// The diagnosis the plan repairs: `cause: summary` per finding about the subject.
    pub diagnosis: Vec<String>,
    /// For a namespace: every object still in it (listed before any namespace finalizer is
    /// touched).
    pub leftovers: Vec<String>,
    pub steps: Vec<PlanStep>,
    pub refused: Vec<Refusal>,
    /// Things that need no change or that kubewhy cannot change (the kubelet's node, a
    /// controller that will finish by itself).
    pub notes: Vec<String>,
}

impl Plan {
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }
}

/// What happened to one step.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "outcome", content = "detail", rename_all = "kebab-case")]
pub enum Outcome {
    /// Written.
    Applied,
    /// Nothing to do: the object is already gone.
    AlreadyGone,
    /// Not written, and why (a precondition, a dry-run refusal, an earlier step's failure).
    NotApplied(String),
    /// The write itself failed.
    Failed(String),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct JournalEntry {
    pub step: PlanStep,
    /// The object as it was before the write, relative to the backup directory.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backup: Option<String>,
    #[serde(flatten)]
    pub outcome: Outcome,
}

/// The record of an apply, saved as `journal.json` in the backup directory.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Journal {
    pub subject: String,
    pub server: String,
    pub applied_at: String,
    pub entries: Vec<JournalEntry>,
}

impl Journal {
    pub fn all_applied(&self) -> bool {
        self.entries
            .iter()
            .all(|e| matches!(e.outcome, Outcome::Applied | Outcome::AlreadyGone))
    }
}

/// What undoing one journal entry did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    pub object: String,
    pub restored: bool,
    pub detail: String,
}
