//! Two reasons a Pending pod waits that are not about nodes, for `pending.rs`:
//!
//! - scheduling gates (1.26+): `spec.schedulingGates` keeps the pod out of the scheduler's
//!   queue until whoever added each gate removes it; the API server sets PodScheduled False with
//!   reason `SchedulingGated`. Each gate is named with the controller that usually owns it.
//! - dynamic resource allocation (1.26+; GA in 1.34): the pod's ResourceClaims (by name, or made
//!   from a ResourceClaimTemplate, named in `status.resourceClaimStatuses`), their allocation and
//!   reservations, their requests' DeviceClasses, and which nodes' ResourceSlices publish devices
//!   of each class's driver. kubewhy does not evaluate the classes' CEL selectors: device counts
//!   are what the drivers publish, not what matches.

use crate::Ctx;
use crate::podinfo::{PodInfo, human_duration};
use kubewhy_model::objects::{ResourceClaim, condition};
use kubewhy_model::{Cause, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};

/// The controller that usually owns a gate, by its name.
fn gate_owner(gate: &str) -> String {
    match gate {
        "kueue.x-k8s.io/admission" => {
            "Kueue: it removes the gate when it admits the pod's workload into its ClusterQueue (quota, flavors, admission checks)".into()
        }
        g if g.starts_with("kueue.x-k8s.io/") => "Kueue".into(),
        g => match g.split_once('/') {
            Some((domain, _)) => format!("the controller of {domain} (the gate's domain)"),
            None => "the controller that added it".into(),
        },
    }
}

/// A pod held by scheduling gates, or `None` when it carries none.
pub(crate) fn gated(ctx: &Ctx, info: &PodInfo) -> Option<Finding> {
    let pod = info.pod;
    let cond = condition(&pod.status.conditions, "PodScheduled")
        .filter(|c| c.status == "False" && c.reason == "SchedulingGated");
    let gates: Vec<&str> = pod
        .spec
        .scheduling_gates
        .iter()
        .map(|g| g.name.as_str())
        .collect();
    if gates.is_empty() && cond.is_none() {
        return None;
    }
    let (ns, name) = (info.ns(), info.name());
    let kueue = gates.iter().any(|g| g.starts_with("kueue.x-k8s.io/"))
        || pod
            .metadata
            .labels
            .contains_key("kueue.x-k8s.io/queue-name");
    let since = cond
        .and_then(|c| c.last_transition_time)
        .or(pod.metadata.creation_timestamp)
        .map(|t| human_duration(ctx.now.as_second() - t.as_second()));
    let summary = match gates.as_slice() {
        [] => "The pod is held by scheduling gates: the scheduler does not look at it".to_string(),
        [g] => format!(
            "The pod waits for scheduling gate {g} to be removed: the scheduler does not look at it"
        ),
        gs => format!(
            "The pod waits for {} scheduling gates to be removed ({}): the scheduler does not look at it",
            gs.len(),
            gs.join(", ")
        ),
    };
    let mut f = Finding::new(Cause::SchedulingGated, Severity::Warning, summary)
        .object(info.key.clone())
        .group(gates.join(","));
    if !gates.is_empty() {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            "spec.schedulingGates",
            gates.join(", "),
        );
    }
    if let Some(c) = cond {
        f = f.evidence(
            EvidenceKind::Condition,
            Some(&info.key),
            "status.conditions[PodScheduled] reason=SchedulingGated",
            c.message.clone(),
        );
    }
    if let Some(q) = pod.metadata.labels.get("kueue.x-k8s.io/queue-name") {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            "metadata.labels[kueue.x-k8s.io/queue-name]",
            q.to_string(),
        );
    }
    let owners: Vec<String> = gates
        .iter()
        .map(|g| format!("{g}: {}", gate_owner(g)))
        .collect();
    f = f.explain(format!(
        "A pod with spec.schedulingGates stays Pending without the scheduler ever trying it (no FailedScheduling events) until every gate is removed — by the controller that added it, usually a queue or quota system deciding the pod may start.{} {}",
        since.map(|s| format!(" It has waited {s}.")).unwrap_or_default(),
        if owners.is_empty() { "The gates themselves are not in the data.".to_string() } else { format!("Gates: {}.", owners.join("; ")) }
    ));
    f = f.step(
        "See the gates",
        Some(format!(
            "kubectl get pod {name} -n {ns} -o jsonpath='{{.spec.schedulingGates}}'"
        )),
        RiskLevel::None,
        "",
    );
    if kueue {
        let queue = pod
            .metadata
            .labels
            .get("kueue.x-k8s.io/queue-name")
            .map(|q| q.to_string())
            .unwrap_or_else(|| "<queue>".into());
        f = f
            .step("See why Kueue has not admitted the workload (its conditions name the quota or admission check)", Some(format!("kubectl get workloads.kueue.x-k8s.io -n {ns}; kubectl describe workloads.kueue.x-k8s.io -n {ns}")), RiskLevel::None, "")
            .step("See the queue's quota and what it has admitted", Some(format!("kubectl describe localqueue {queue} -n {ns}; kubectl get clusterqueues")), RiskLevel::None, "")
            .step("Raise the ClusterQueue's quota, or wait for admitted workloads to finish", None, RiskLevel::Low, "");
    } else {
        f = f.step(
            "Find the controller that owns each gate (its logs say what it waits for)",
            None,
            RiskLevel::None,
            "",
        );
    }
    Some(f.step(
        "Only if that controller is gone for good: remove the gates by hand (gates can only be removed)",
        Some(format!("kubectl patch pod {name} -n {ns} --type=json -p '[{{\"op\":\"remove\",\"path\":\"/spec/schedulingGates\"}}]'")),
        RiskLevel::Medium,
        "Bypasses the queue's admission: the pod may run beyond its quota or before what it depends on.",
    ))
}

/// What the data says of one of the pod's claims.
pub(crate) struct ClaimFact<'a> {
    /// The pod's name for the claim, and the ResourceClaim's own name when known.
    pub entry: &'a str,
    pub claim_name: Option<&'a str>,
    pub claim: Option<&'a ResourceClaim>,
}

/// The pod's claims, resolved as far as the data allows.
pub(crate) fn claims<'a>(ctx: &'a Ctx, info: &'a PodInfo) -> Vec<ClaimFact<'a>> {
    let pod = info.pod;
    pod.spec
        .resource_claims
        .iter()
        .map(|c| {
            let (by_name, _template) = c.refs();
            let generated = pod
                .status
                .resource_claim_statuses
                .iter()
                .find(|s| s.name == c.name)
                .and_then(|s| s.resource_claim_name.as_deref());
            // A template's claim is known by its generated name only (the pod's status).
            let claim_name = by_name.or(generated);
            let claim = claim_name.and_then(|n| {
                ctx.snap.resource_claims.iter().find(|r| {
                    r.kind == "ResourceClaim"
                        && r.metadata.ns() == info.ns()
                        && r.metadata.name == n
                })
            });
            ClaimFact {
                entry: c.name.as_str(),
                claim_name,
                claim,
            }
        })
        .collect()
}

/// The claims' evidence and steps for a pod the scheduler cannot place because of them.
pub(crate) fn explain_claims(ctx: &Ctx, info: &PodInfo, mut f: Finding) -> Finding {
    let snap = ctx.snap;
    let ns = info.ns();
    let claims_known = snap.kinds_loaded.contains_key("ResourceClaim");
    let classes_known = snap.kinds_loaded.contains_key("DeviceClass")
        || snap.kinds_loaded.contains_key("ResourceClass");
    let slices_known = snap.kinds_loaded.contains_key("ResourceSlice");
    let mut notes: Vec<String> = Vec::new();
    for fact in claims(ctx, info) {
        let shown = fact.claim_name.unwrap_or(fact.entry);
        let key = ObjectKey::new("ResourceClaim", ns, shown, "");
        let Some(claim) = fact.claim else {
            if claims_known && fact.claim_name.is_some() {
                f = f.evidence(
                    EvidenceKind::Absence,
                    Some(&key),
                    format!("spec.resourceClaims[{}]", fact.entry),
                    format!("ResourceClaim {ns}/{shown} is not in the data"),
                );
                notes.push(format!("ResourceClaim {shown} does not exist: create it (or fix the pod's reference); a claim made from a template appears in the pod's status once the resource claim controller creates it"));
            }
            continue;
        };
        let mut state = if claim.status.allocation {
            "allocated".to_string()
        } else {
            "not allocated".to_string()
        };
        let others: Vec<&str> = claim
            .status
            .reserved_for
            .iter()
            .map(|r| r.name.as_str())
            .filter(|n| *n != info.name())
            .collect();
        if !others.is_empty() {
            state.push_str(&format!(", reserved for {}", others.join(", ")));
            notes.push(format!("ResourceClaim {shown} is in use by {}: a claim's devices serve only the pods it is reserved for", others.join(", ")));
        }
        f = f.evidence(EvidenceKind::Field, Some(&key), "status", state);
        for req in &claim.claim_spec().devices.requests {
            for class in req.classes() {
                let dc = snap
                    .device_classes
                    .iter()
                    .find(|d| d.metadata.name == class);
                match dc {
                    None if classes_known => {
                        f = f.evidence(
                            EvidenceKind::Absence,
                            Some(&ObjectKey::new("DeviceClass", "", class, "")),
                            format!("request {} deviceClassName", req.name),
                            format!("DeviceClass {class} is not in the data"),
                        );
                        notes.push(format!("DeviceClass {class} does not exist: the DRA driver that defines it is not installed, or the claim names the wrong class"));
                    }
                    Some(dc) if slices_known => {
                        let Some(driver) = dc.driver() else { continue };
                        let nodes: Vec<String> = snap
                            .resource_slices
                            .iter()
                            .filter(|s| s.spec.driver == driver)
                            .map(|s| {
                                let where_ = s.spec.node_name.as_deref().unwrap_or(
                                    if s.spec.all_nodes == Some(true) {
                                        "all nodes"
                                    } else {
                                        "a node pool"
                                    },
                                );
                                format!("{where_} ({} device(s))", s.spec.devices)
                            })
                            .collect();
                        let quote = if nodes.is_empty() {
                            notes.push(format!("no node publishes devices of driver {driver} (class {class}): its kubelet plugin (a DaemonSet) is not running on any node, or not registered"));
                            format!("no ResourceSlice of driver {driver}")
                        } else {
                            notes.push(format!("driver {driver} publishes devices on {}: if all are allocated to other claims, free some or add nodes with that hardware", nodes.join(", ")));
                            nodes.join(", ")
                        };
                        f = f.evidence(
                            EvidenceKind::Analysis,
                            Some(&ObjectKey::new("DeviceClass", "", class, "")),
                            format!("ResourceSlices of driver {driver}"),
                            quote,
                        );
                    }
                    _ => {}
                }
            }
        }
    }
    if !notes.is_empty() {
        f.explanation
            .push_str(&format!(" In the data: {}.", notes.join("; ")));
    }
    f.step("See the pod's claims and their allocation", Some(format!("kubectl get resourceclaims -n {ns} -o wide; kubectl describe pod {} -n {ns}", info.name())), RiskLevel::None, "")
        .step("See the device classes and the devices each driver publishes, per node", Some("kubectl get deviceclasses; kubectl get resourceslices -o wide".into()), RiskLevel::None, "")
        .step("Fix what is missing: install or repair the DRA driver (its kubelet plugin on the nodes with the hardware), create the claim or class the pod names, or free devices held by other claims", None, RiskLevel::Low, "")
}
