//! What is known about one pod, from every source: the names a query covers, and each
//! pod's facts.

use super::*;

/// The names of the pods the query is about, from every source.
pub(super) fn candidates(snap: &Snapshot, history: &History, q: &Query) -> BTreeSet<String> {
    let ns = q.namespace.as_str();
    let mut out = BTreeSet::new();
    if let Some(p) = &q.pod {
        out.insert(p.clone());
        return out;
    }
    if let Some(sel) = &q.selector {
        out.extend(
            snap.pods
                .iter()
                .filter(|p| p.metadata.ns() == ns && sel.matches(&p.metadata.labels))
                .map(|p| p.metadata.name.to_string()),
        );
        out.extend(
            history
                .pods
                .iter()
                .filter(|r| r.namespace == ns && sel.matches(&r.labels))
                .map(|r| r.name.clone()),
        );
    }
    if let Some((kind, name)) = &q.owner {
        let owners = owner_tree(snap, history, ns, kind, name);
        for (ok, on) in &owners {
            pods_of(snap, history, ns, ok, on, &mut out);
        }
    }
    out
}

pub(super) fn gather<'a>(
    snap: &'a Snapshot,
    history: &'a History,
    ns: &str,
    name: &str,
) -> Facts<'a> {
    let live = snap
        .pods
        .iter()
        .map(|p| &**p)
        .find(|p| p.metadata.ns() == ns && p.metadata.name == name);
    // The newest recorded pod of that name (a name can be reused).
    let recorded = history
        .pods
        .iter()
        .filter(|r| r.namespace == ns && r.name == name)
        .filter(|r| live.is_none_or(|p| p.metadata.uid != r.uid))
        .max_by_key(|r| r.deleted);
    let last = live.map(PodRecord::from_pod).or_else(|| recorded.cloned());
    let uid = last.as_ref().map(|r| r.uid.clone()).unwrap_or_default();
    let key = ObjectKey::new("Pod", ns, name, &uid);
    let meta = kubewhy_model::objects::Meta {
        name: name.into(),
        namespace: Some(ns.into()),
        uid: uid.as_str().into(),
        ..Default::default()
    };
    let events = snap.events_for("Pod", &meta);
    let owner = owner_of(snap, ns, name, last.as_ref());
    let audit = history
        .audit
        .iter()
        .filter(|a| {
            a.resource == "pods"
                && a.api_group.is_empty()
                && a.namespace == ns
                && a.name == name
                && a.succeeded()
        })
        .collect();
    let controller = history
        .controller
        .iter()
        .filter(|c| c.namespace == ns && c.name == name)
        .collect();
    let mut f = Facts {
        key,
        live,
        last,
        recorded,
        owner,
        audit,
        controller,
        events,
    };
    // A name is reused (a StatefulSet's pods, a test run again): requests and log lines from
    // before this pod existed were about another pod of that name.
    let audit: Vec<&AuditEntry> = f
        .audit
        .iter()
        .copied()
        .filter(|a| !before_the_pod(snap, &f, a.time))
        .collect();
    let controller: Vec<&ControllerLogEntry> = f
        .controller
        .iter()
        .copied()
        .filter(|c| !before_the_pod(snap, &f, c.time))
        .collect();
    f.audit = audit;
    f.controller = controller;
    f
}

/// The first request that removed the pod: the kubelet's final delete (after the grace period)
/// only completes a deletion someone else asked for.
pub(super) fn initiator<'a>(f: &Facts<'a>) -> Option<&'a AuditEntry> {
    f.audit
        .iter()
        .copied()
        .find(|a| !a.actor().starts_with("system:node:"))
}

/// The Gone cause a controller identity stands for.
pub(super) fn cause_of_actor(actor: &str) -> Option<Cause> {
    let sa = actor.strip_prefix(GC_SA)?;
    Some(match sa {
        "pod-garbage-collector" => Cause::PodGcThreshold,
        "generic-garbage-collector" => Cause::OwnerDeleted,
        "namespace-controller" => Cause::NamespaceDeleted,
        "ttl-after-finished-controller" | "cronjob-controller" => Cause::JobTtlExpired,
        "node-controller" | "taint-eviction-controller" => Cause::EvictedTaint,
        _ => return None,
    })
}

/// The owner and what it owns in turn (Deployment → ReplicaSets, CronJob → Jobs), from the
/// objects, the recorder's rows and the controllers' events; at most 200.
fn owner_tree(
    snap: &Snapshot,
    history: &History,
    ns: &str,
    kind: &str,
    name: &str,
) -> Vec<(String, String)> {
    let mut owners: Vec<(String, String)> = vec![(kind.to_string(), name.to_string())];
    let mut i = 0;
    while i < owners.len() && owners.len() < 200 {
        let (ok, on) = owners[i].clone();
        i += 1;
        let child_kind = match ok.as_str() {
            "Deployment" => "ReplicaSet",
            "CronJob" => "Job",
            _ => continue,
        };
        let mut children: BTreeSet<String> = snap
            .workloads
            .iter()
            .filter(|w| w.kind == child_kind && w.metadata.ns() == ns)
            .filter(|w| {
                w.metadata
                    .controller()
                    .is_some_and(|o| o.kind == ok && o.name == on)
            })
            .map(|w| w.metadata.name.to_string())
            .collect();
        children.extend(
            history
                .objects
                .iter()
                .filter(|o| o.kind == child_kind && o.namespace == ns)
                .filter(|o| {
                    o.owner
                        .as_ref()
                        .is_some_and(|w| w.kind == ok && w.name == on)
                })
                .map(|o| o.name.clone()),
        );
        // The controllers' events name their children: "Created job tick-28312345" on a
        // CronJob, "Scaled up replica set web-79c745d8c8 to 2" on a Deployment.
        for e in &snap.events {
            if e.involved.kind == ok && e.involved.name == on && e.namespace == ns {
                for marker in [
                    "Created job ",
                    "Deleted job ",
                    "Saw completed job: ",
                    "Scaled up replica set ",
                    "Scaled down replica set ",
                ] {
                    if let Some(rest) = e.message.strip_prefix(marker) {
                        children.insert(rest.split([',', ' ']).next().unwrap_or("").into());
                    }
                }
            }
        }
        children.remove("");
        owners.extend(children.into_iter().map(|c| (child_kind.to_string(), c)));
    }
    owners
}

/// The pods of one owner: by their controller reference, the recorder's rows, the owner's
/// "Created pod" / "Deleted pod" events, and — audit and controller logs carry no owner — the
/// names the owner gives its pods (`owner-x7k2p`, `owner-0`).
fn pods_of(
    snap: &Snapshot,
    history: &History,
    ns: &str,
    ok: &str,
    on: &str,
    out: &mut BTreeSet<String>,
) {
    out.extend(
        snap.pods
            .iter()
            .filter(|p| p.metadata.ns() == ns)
            .filter(|p| {
                p.metadata
                    .controller()
                    .is_some_and(|o| o.kind == ok && o.name == on)
            })
            .map(|p| p.metadata.name.to_string()),
    );
    out.extend(
        history
            .pods
            .iter()
            .filter(|r| r.namespace == ns)
            .filter(|r| {
                r.owner
                    .as_ref()
                    .is_some_and(|o| o.kind == ok && o.name == on)
            })
            .map(|r| r.name.clone()),
    );
    for e in &snap.events {
        if e.involved.kind == ok && e.involved.name == on && e.namespace == ns {
            for marker in ["Created pod: ", "Deleted pod: "] {
                if let Some(rest) = e.message.strip_prefix(marker) {
                    out.insert(rest.trim().to_string());
                }
            }
        }
    }
    // Audit logs and controller logs carry no owner: pods named as the owner names its
    // pods (`owner-x7k2p`, `owner-0`) stand in.
    if matches!(
        ok,
        "Job" | "ReplicaSet" | "StatefulSet" | "DaemonSet" | "Workflow"
    ) {
        let prefix = format!("{on}-");
        // Argo names a workflow's pods `WF-TEMPLATE-HASH` (v3.4+) or `WF-HASH`.
        let workflow = ok == "Workflow";
        let generated = |n: &str| {
            n.strip_prefix(&prefix).is_some_and(|rest| {
                !rest.is_empty()
                    && (workflow || !rest.contains('-'))
                    && rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            })
        };
        out.extend(
            history
                .audit
                .iter()
                .filter(|a| a.resource == "pods" && a.namespace == ns && generated(&a.name))
                .map(|a| a.name.clone()),
        );
        out.extend(
            history
                .controller
                .iter()
                .filter(|c| c.namespace == ns && generated(&c.name))
                .map(|c| c.name.clone()),
        );
    }
}

/// The pod's owner and where that is read: its ownerReferences (live or recorded), the
/// controller's "Created pod" event, the pod's name.
fn owner_of(
    snap: &Snapshot,
    ns: &str,
    name: &str,
    last: Option<&PodRecord>,
) -> Option<(OwnerLink, String)> {
    last.and_then(|r| r.owner.clone())
        .map(|o| (o, "metadata.ownerReferences".to_string()))
        .or_else(|| owner_by_event(snap, ns, name))
        .or_else(|| owner_by_name(snap, ns, name))
        .or_else(|| workflow_by_name(snap, ns, name))
}

fn owner_by_event(snap: &Snapshot, ns: &str, name: &str) -> Option<(OwnerLink, String)> {
    // "Created pod: NAME" on the controller that made it.
    snap.events
        .iter()
        .find(|e| {
            e.namespace == ns
                && e.reason == "SuccessfulCreate"
                && e.message.strip_prefix("Created pod: ") == Some(name)
        })
        .map(|e| {
            (
                OwnerLink {
                    kind: e.involved.kind.to_string(),
                    name: e.involved.name.to_string(),
                    uid: e.involved.uid.to_string(),
                },
                format!(
                    "{} on {}/{}: {}",
                    e.origin(),
                    e.involved.kind,
                    e.involved.name,
                    e.message
                ),
            )
        })
}

fn owner_by_name(snap: &Snapshot, ns: &str, name: &str) -> Option<(OwnerLink, String)> {
    // A ReplicaSet or Job names its pods OWNER-<5 random characters>, a StatefulSet
    // OWNER-<ordinal>: an owner of that name in the data is the pod's (the controller's
    // "Created pod" events of a large scale-up are folded into one, naming the last pod).
    name.rsplit_once('-').and_then(|(base, suffix)| {
        let kinds: &[&str] = if suffix.bytes().all(|b| b.is_ascii_digit()) {
            &["StatefulSet"]
        } else if suffix.len() == 5 && suffix.bytes().all(|b| b.is_ascii_alphanumeric()) {
            &["ReplicaSet", "Job"]
        } else {
            &[]
        };
        kinds.iter().find_map(|k| {
            snap.workload(k, ns, base).map(|w| {
                (
                    OwnerLink {
                        kind: k.to_string(),
                        name: base.to_string(),
                        uid: w.metadata.uid.to_string(),
                    },
                    format!("the pod's name ({k} {base} names its pods {base}-…)"),
                )
            })
        })
    })
}

fn workflow_by_name(snap: &Snapshot, ns: &str, name: &str) -> Option<(OwnerLink, String)> {
    // Argo names a workflow's pods after it (`WORKFLOW-TEMPLATE-HASH`); the longest
    // Workflow name that prefixes the pod's stands in when nothing else names the owner.
    snap.workloads
        .iter()
        .filter(|w| w.kind == "Workflow" && w.metadata.ns() == ns)
        .filter(|w| {
            name.strip_prefix(w.metadata.name.as_str())
                .is_some_and(|rest| rest.len() > 1 && rest.starts_with('-'))
        })
        .max_by_key(|w| w.metadata.name.len())
        .map(|w| {
            (
                OwnerLink {
                    kind: "Workflow".into(),
                    name: w.metadata.name.to_string(),
                    uid: w.metadata.uid.to_string(),
                },
                "the pod's name (Argo names a workflow's pods WORKFLOW-…)".to_string(),
            )
        })
}
