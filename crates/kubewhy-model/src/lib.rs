//! kubewhy's IO-free model: the snapshot the checks read (slim views of Kubernetes objects and
//! the indexes over them), findings, and the cause catalogue.

pub mod cause;
pub mod commands;
pub mod finding;
pub mod history;
pub mod map;
pub mod messages;
pub mod node;
pub mod objects;
pub mod plan;
pub mod quantity;
pub mod redact;
pub mod selector;
pub mod snapshot;
pub mod workload;

pub use cause::{Cause, Family};
pub use finding::{
    Confidence, Evidence, EvidenceKind, Finding, InputWarning, Merger, RiskLevel, Severity, Step,
    Unexplained, merge_findings,
};
pub use objects::ObjectKey;
pub use snapshot::{Pasted, PastedMessage, Snapshot, Stamp};
pub use workload::{PodIndex, WorkloadRef};
