//! Repair plans for what does not go away (`kubewhy fix`). Pure: reads the snapshot and the
//! diagnosis, returns a `Plan`; `kubewhy-live` carries it out.
//!
//! The rules a plan follows:
//! - repair the cause, not the symptom: an unavailable APIService before the namespace it blocks,
//!   the dependents a foreground deletion waits on before the owner;
//! - a finalizer is removed only when its controller is confirmed gone: no running pod in the
//!   cluster looks like it (names, labels, images and service accounts searched for the
//!   finalizer's domain). Built-in finalizers are never removed: their controller is
//!   kube-controller-manager, which must be fixed instead;
//! - a pod is force-deleted only when its node is confirmed gone (the Node object is absent
//!   while nodes were listed); StatefulSet pods and pods holding ReadWriteOnce volumes also need
//!   `--force`. A pod on a NotReady node is never force-deleted: its containers may still run;
//! - a namespace's own finalizer is cleared through `/finalize` only with `--force`, only when
//!   nothing else can be done, and only after its leftovers are listed in the plan.

use crate::podinfo::human_duration;
use crate::terminating::{STUCK_AFTER_SECS, dependents};
use crate::{Diagnosis, terminating};
use jiff::Timestamp;
use kubewhy_model::objects::{Meta, Pod, condition};
use kubewhy_model::plan::{Action, Plan, PlanStep, Refusal, Target};
use kubewhy_model::{Cause, ObjectKey, RiskLevel, Snapshot};
use std::collections::HashSet;

/// How far a chain of blockers is followed (owner → dependent → its dependent …).
const MAX_DEPTH: usize = 4;

#[derive(Debug, Clone, Copy, Default)]
pub struct FixOptions {
    /// The user insists: steps that need `--force` are planned (never the ones that are unsafe
    /// whatever the flag, such as force-deleting a StatefulSet pod on a node that still exists).
    pub force: bool,
    /// The snapshot holds the pods of every namespace, so "no controller runs" can be claimed.
    pub pods_cluster_wide: bool,
}

/// What to repair.
#[derive(Debug, Clone)]
pub enum Subject {
    Pod { namespace: String, name: String },
    Namespace(String),
}

impl Subject {
    /// `kubewhy fix`'s words: `pod NAME` (in `namespace`, else the kubeconfig's default, which
    /// `default_ns` reads only when needed) or `ns NAME`.
    pub fn parse(
        words: &[String],
        namespace: Option<String>,
        default_ns: impl FnOnce() -> String,
    ) -> Result<Subject, String> {
        let (kind, name) = match words {
            [k, n] => (k.as_str(), n.clone()),
            [one] => {
                return Err(format!(
                    "what to repair: `kubewhy fix pod NAME` or `kubewhy fix ns NAME` (got only {one:?})"
                ));
            }
            _ => {
                return Err(
                    "what to repair: `kubewhy fix pod NAME` or `kubewhy fix ns NAME`".into(),
                );
            }
        };
        match kind {
            "pod" | "pods" | "po" => Ok(Subject::Pod {
                namespace: namespace.unwrap_or_else(default_ns),
                name,
            }),
            "ns" | "namespace" | "namespaces" => Ok(Subject::Namespace(name)),
            other => Err(format!(
                "kubewhy fix repairs pods and namespaces: `pod NAME` or `ns NAME`, not {other:?}"
            )),
        }
    }
}

/// Plans the repair of a pod or namespace that does not go away.
pub fn plan(
    snap: &Snapshot,
    diagnosis: &Diagnosis,
    subject: &Subject,
    opts: FixOptions,
) -> Result<Plan, String> {
    let now = snap.judged_at();
    let mut p = Planner {
        snap,
        now,
        opts,
        plan: Plan {
            made_at: now.to_string(),
            force: opts.force,
            ..Default::default()
        },
        seen: HashSet::new(),
    };
    match subject {
        Subject::Pod { namespace, name } => {
            let pod = snap
                .pods
                .iter()
                .find(|x| x.metadata.ns() == namespace && x.metadata.name == *name)
                .ok_or_else(|| format!("pod {namespace}/{name} not found"))?;
            p.plan.subject = format!("Pod {namespace}/{name}");
            p.diagnosis_of(diagnosis, &ObjectKey::of("Pod", &pod.metadata));
            if pod.metadata.deletion_timestamp.is_none() {
                p.plan.notes.push(format!("Pod {namespace}/{name} is not being deleted: `kubewhy fix` repairs pods and namespaces that do not go away. For why it is unhealthy: kubewhy pod {name} -n {namespace}"));
            } else {
                p.pod(pod, 0);
            }
        }
        Subject::Namespace(name) => {
            let ns = snap
                .namespace(name)
                .ok_or_else(|| format!("namespace {name} not found"))?;
            p.plan.subject = format!("Namespace {name}");
            p.diagnosis_of(diagnosis, &ObjectKey::of("Namespace", &ns.metadata));
            p.namespace(ns);
        }
    }
    Ok(p.plan)
}

struct Planner<'a> {
    snap: &'a Snapshot,
    now: Timestamp,
    opts: FixOptions,
    plan: Plan,
    /// Objects already planned for (a chain may reach one twice).
    seen: HashSet<(String, String, String)>,
}

/// The API version of an object the snapshot holds in a slim view (which drops it).
fn api_version(kind: &str) -> &'static str {
    match kind {
        "Deployment" | "ReplicaSet" | "StatefulSet" | "DaemonSet" => "apps/v1",
        "Job" | "CronJob" => "batch/v1",
        "Lease" => "coordination.k8s.io/v1",
        "APIService" => "apiregistration.k8s.io/v1",
        "MutatingWebhookConfiguration" | "ValidatingWebhookConfiguration" => {
            "admissionregistration.k8s.io/v1"
        }
        _ => "v1",
    }
}

fn target(api: &str, kind: &str, meta: &Meta) -> Target {
    Target {
        api_version: api.to_string(),
        kind: kind.to_string(),
        namespace: meta.ns().to_string(),
        name: meta.name.to_string(),
        uid: meta.uid.to_string(),
        resource_version: meta.resource_version.to_string(),
    }
}

fn kubectl_ref(t: &Target) -> String {
    let kind = t.kind.to_ascii_lowercase();
    let group = t.api_version.rsplit_once('/').map(|(g, _)| g).unwrap_or("");
    let res = if group.is_empty() || matches!(group, "apps" | "batch") {
        kind
    } else {
        format!("{kind}.{group}")
    };
    if t.namespace.is_empty() {
        format!("{res} {}", t.name)
    } else {
        format!("-n {} {res} {}", t.namespace, t.name)
    }
}

/// Words of a finalizer's domain that name its controller: `cert-manager.io/…` → `cert-manager`,
/// `e2e.kubewhy.dev/hold` → `e2e`, `kubewhy`. Generic words and top-level domains are dropped.
pub(crate) fn controller_words(finalizer: &str) -> Vec<String> {
    const GENERIC: &[&str] = &[
        "example",
        "k8s",
        "kubernetes",
        "x-k8s",
        "sigs",
        "io",
        "com",
        "org",
        "net",
        "dev",
        "cloud",
        "apps",
        "api",
        "www",
        "operator",
        "controller",
        "finalizer",
        "finalizers",
        "protection",
        "cleanup",
    ];
    let domain = finalizer.split('/').next().unwrap_or(finalizer);
    let mut labels: Vec<&str> = domain.split('.').collect();
    if labels.len() > 1 {
        labels.pop(); // the top-level domain
    }
    let mut words: Vec<String> = labels
        .into_iter()
        .map(|l| l.to_ascii_lowercase())
        .filter(|l| l.len() >= 3 && !GENERIC.contains(&l.as_str()))
        .collect();
    words.dedup();
    words
}

/// Running pods that look like the controller of a finalizer.
pub(crate) fn controller_candidates<'a>(snap: &'a Snapshot, words: &[String]) -> Vec<&'a Pod> {
    if words.is_empty() {
        return Vec::new();
    }
    snap.pods
        .iter()
        .map(|p| &**p)
        .filter(|p| p.metadata.deletion_timestamp.is_none() && p.status.phase == "Running")
        .filter(|p| {
            let mut hay: Vec<&str> = vec![p.metadata.name.as_str()];
            hay.extend(p.metadata.labels.values().map(|v| v.as_str()));
            hay.extend(p.spec.containers.iter().map(|c| c.image.as_str()));
            hay.extend(p.spec.service_account_name.as_deref());
            hay.iter().any(|h| {
                let h = h.to_ascii_lowercase();
                words.iter().any(|w| h.contains(w.as_str()))
            })
        })
        .collect()
}

impl Planner<'_> {
    fn diagnosis_of(&mut self, d: &Diagnosis, key: &ObjectKey) {
        for f in &d.findings {
            if f.objects
                .iter()
                .any(|o| o.kind == key.kind && o.namespace == key.namespace && o.name == key.name)
            {
                self.plan
                    .diagnosis
                    .push(format!("{}: {}", f.cause.slug(), f.summary));
            }
        }
    }

    fn first_visit(&mut self, t: &Target) -> bool {
        self.seen
            .insert((t.kind.clone(), t.namespace.clone(), t.name.clone()))
    }

    fn step(
        &mut self,
        action: Action,
        object: Target,
        cause: Cause,
        why: String,
        risk: RiskLevel,
        risk_note: &str,
    ) {
        let r = kubectl_ref(&object);
        let command = match &action {
            Action::RemoveFinalizers { keep, .. } => format!(
                "kubectl patch {r} --type=merge -p '{}'",
                serde_json::json!({"metadata": {"finalizers": keep}})
            ),
            Action::Delete => format!("kubectl delete {r} --wait=false"),
            Action::ForceDeletePod => {
                format!("kubectl delete {r} --grace-period=0 --force")
            }
            Action::FinalizeNamespace => format!(
                "kubectl get namespace {0} -o json | jq '.spec.finalizers=[]' | kubectl replace --raw /api/v1/namespaces/{0}/finalize -f -",
                object.name
            ),
        };
        self.plan.steps.push(PlanStep {
            action,
            object,
            cause,
            why,
            risk,
            risk_note: risk_note.to_string(),
            command,
        });
    }

    fn refuse(
        &mut self,
        object: &Target,
        cause: Option<Cause>,
        step: &str,
        why: String,
        instead: Vec<String>,
    ) {
        self.plan.refused.push(Refusal {
            object: object.display(),
            cause,
            step: step.to_string(),
            why,
            instead,
        });
    }

    // ---------------------------------------------------------------- finalizers

    /// Plans what releases an object held by finalizers: a step removing those whose controller
    /// is confirmed gone, the dependents of a foreground deletion, a refusal for the rest.
    fn finalizers(&mut self, t: &Target, meta: &Meta, cause: Cause, depth: usize) {
        let mut remove: Vec<String> = Vec::new();
        for fin in &meta.finalizers {
            match fin.as_str() {
                "foregroundDeletion" => self.foreground(t, meta, depth),
                "orphan" => self.refuse(
                    t,
                    Some(cause),
                    "remove finalizer orphan",
                    "The garbage collector removes it once it has orphaned the dependents; if it does not, kube-controller-manager's garbage collector is not working.".into(),
                    vec!["kubectl -n kube-system get pods -l component=kube-controller-manager".into()],
                ),
                f if f.starts_with("kubernetes.io/") || f.starts_with("batch.kubernetes.io/") || f == "kubernetes" => {
                    let owner = terminating::finalizer_owner(f);
                    if self.opts.force {
                        remove.push(f.to_string());
                    } else {
                        self.refuse(
                            t,
                            Some(cause),
                            &format!("remove finalizer {f}"),
                            format!("A built-in finalizer: {owner} Removing it by hand skips what it guards; fix that controller instead (or insist with --force)."),
                            vec!["kubectl -n kube-system get pods -l component=kube-controller-manager".into()],
                        );
                    }
                }
                f => {
                    let words = controller_words(f);
                    let candidates = controller_candidates(self.snap, &words);
                    if words.is_empty() && !self.opts.force {
                        self.refuse(
                            t,
                            Some(cause),
                            &format!("remove finalizer {f}"),
                            "Its name does not say which controller owns it, so its absence cannot be confirmed.".into(),
                            vec!["Check that its controller is not running, then run again with --force".into()],
                        );
                    } else if !self.opts.pods_cluster_wide && !self.opts.force {
                        self.refuse(
                            t,
                            Some(cause),
                            &format!("remove finalizer {f}"),
                            "Cannot confirm its controller is gone: the pods of every namespace could not be read.".into(),
                            vec!["Check that its controller is not running, then run again with --force".into()],
                        );
                    } else if !candidates.is_empty() && !self.opts.force {
                        let names: Vec<String> = candidates
                            .iter()
                            .take(5)
                            .map(|p| format!("{}/{}", p.metadata.ns(), p.metadata.name))
                            .collect();
                        self.refuse(
                            t,
                            Some(cause),
                            &format!("remove finalizer {f}"),
                            format!("Its controller may be running: pod(s) {} match {:?}. A running controller removes its finalizer after its cleanup; removing it by hand would skip that cleanup.", names.join(", "), words),
                            vec![
                                format!("kubectl logs -n {} {}", candidates[0].metadata.ns(), candidates[0].metadata.name),
                                "If that pod is not the finalizer's controller, run again with --force".into(),
                            ],
                        );
                    } else {
                        remove.push(f.to_string());
                    }
                }
            }
        }
        if remove.is_empty() {
            return;
        }
        let keep: Vec<String> = meta
            .finalizers
            .iter()
            .filter(|f| !remove.iter().any(|r| r == f))
            .map(|f| f.to_string())
            .collect();
        let custom: Vec<&String> = remove
            .iter()
            .filter(|f| !f.contains("kubernetes.io/") && *f != "kubernetes")
            .collect();
        let why = if custom.is_empty() {
            format!(
                "--force: built-in finalizer(s) {} removed by hand",
                remove.join(", ")
            )
        } else {
            let words: Vec<String> = custom.iter().flat_map(|f| controller_words(f)).collect();
            if self.opts.pods_cluster_wide {
                format!(
                    "Its controller is gone: no running pod in any namespace matches {words:?} (pod names, labels, images, service accounts)"
                )
            } else {
                "--force: the pods of every namespace could not be read, so the controller's absence is the user's word".to_string()
            }
        };
        self.step(
            Action::RemoveFinalizers { remove, keep },
            t.clone(),
            cause,
            why,
            RiskLevel::High,
            "Skips the cleanup the finalizer guards (external resources, volumes, DNS records may leak). The object is deleted for good once its last finalizer is gone.",
        );
    }

    /// A foreground deletion waits for the dependents that block it: delete those not yet
    /// being deleted, unblock those that are.
    fn foreground(&mut self, owner: &Target, meta: &Meta, depth: usize) {
        let deps = dependents(self.snap, &meta.uid);
        if deps.is_empty() {
            self.refuse(
                owner,
                Some(Cause::FinalizerPending),
                "remove finalizer foregroundDeletion",
                "No dependent is left in the data: the garbage collector removes this finalizer by itself; if it does not, kube-controller-manager's garbage collector is not working.".into(),
                vec!["kubectl -n kube-system get pods -l component=kube-controller-manager".into()],
            );
            return;
        }
        for dep in deps {
            let Some((api, m)) = meta_of(self.snap, &dep) else {
                continue;
            };
            let t = target(&api, &dep.kind, m);
            if m.deletion_timestamp.is_none() {
                if self.first_visit(&t) {
                    self.step(
                        Action::Delete,
                        t,
                        Cause::FinalizerPending,
                        format!("A dependent that blocks the foreground deletion of {} and is not being deleted: the garbage collector has not deleted it", owner.display()),
                        RiskLevel::Medium,
                        "The dependent goes, as the foreground deletion of its owner asked.",
                    );
                }
            } else {
                self.object(&dep.kind, &api, m, depth + 1);
            }
        }
    }
}

/// The API version and metadata of an object named by key.
fn meta_of<'s>(snap: &'s Snapshot, k: &ObjectKey) -> Option<(String, &'s Meta)> {
    {
        let same = |m: &Meta| m.ns() == k.namespace && m.name == k.name;
        if let Some(o) = snap
            .others
            .iter()
            .find(|o| o.kind == k.kind && same(&o.metadata))
        {
            return Some((o.api_version.to_string(), &o.metadata));
        }
        snap.objects_in_namespace(&k.namespace)
            .into_iter()
            .find(|(kind, m)| *kind == k.kind && same(m))
            .map(|(kind, m)| (api_version(kind).to_string(), m))
    }
}

impl Planner<'_> {
    /// Any object that does not go away: pods by their own rules, others by their finalizers.
    fn object(&mut self, kind: &str, api: &str, meta: &Meta, depth: usize) {
        if depth > MAX_DEPTH {
            return;
        }
        if kind == "Pod" {
            if let Some(pod) = self
                .snap
                .pods
                .iter()
                .find(|p| p.metadata.ns() == meta.ns() && p.metadata.name == meta.name)
            {
                self.pod(pod, depth);
            }
            return;
        }
        let t = target(api, kind, meta);
        if !self.first_visit(&t) || meta.finalizers.is_empty() {
            return;
        }
        self.finalizers(&t, meta, Cause::NsFinalizerPending, depth);
    }

    // ---------------------------------------------------------------- pods

    fn pod(&mut self, pod: &Pod, depth: usize) {
        let t = target("v1", "Pod", &pod.metadata);
        if !self.first_visit(&t) {
            return;
        }
        let Some(deadline) = pod.metadata.deletion_timestamp else {
            return;
        };
        let past = self.now.as_second() - deadline.as_second();
        let in_grace = past <= STUCK_AFTER_SECS;
        let held = terminating::held_by_finalizer(pod);
        if in_grace && !held && !terminating::node_down(self.snap, pod) {
            self.plan.notes.push(format!(
                "{} is inside its grace period (it ends {}): nothing is stuck yet.",
                t.display(),
                if past < 0 {
                    format!("in {}", human_duration(-past))
                } else {
                    "now".into()
                }
            ));
            return;
        }
        if (!in_grace || held) && !pod.metadata.finalizers.is_empty() {
            self.finalizers(&t, &pod.metadata, Cause::FinalizerPending, depth);
        }
        let Some(node) = pod.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
            return; // never scheduled: only finalizers hold it
        };
        let guarded = self.guarded(pod);
        let two_writers = "If its containers still run, a replacement starts beside them: two writers on the same data, and possible corruption.";
        match self.snap.node(node) {
            None if self.snap.nodes_known() => {
                if let (Some(g), false) = (&guarded, self.opts.force) {
                    self.refuse(
                        &t,
                        Some(Cause::NodeDeleted),
                        "force-delete the pod",
                        format!("Its node {node} is gone, but {g}: force deletion needs --force. {two_writers} Make sure the machine is off."),
                        vec!["Confirm the machine behind the node is powered off, then run again with --force".into()],
                    );
                    return;
                }
                self.step(
                    Action::ForceDeletePod,
                    t,
                    Cause::NodeDeleted,
                    format!("Its node {node} no longer exists (nodes were listed): no kubelet will ever confirm the pod stopped, and the pod garbage collector has not removed it"),
                    if guarded.is_some() { RiskLevel::High } else { RiskLevel::Low },
                    if guarded.is_some() { two_writers } else { "Only the API object goes; its node is confirmed gone, so are its containers." },
                );
            }
            Some(n) if n.ready() != Some(true) => {
                let since = condition(&n.status.conditions, "Ready")
                    .and_then(|c| c.last_transition_time)
                    .map(|t| format!(" since {t}"))
                    .unwrap_or_default();
                self.refuse(
                    &t,
                    Some(Cause::NodeUnreachable),
                    "force-delete the pod",
                    format!("Its node {node} is NotReady{since} but still exists: its containers may still run there, and no one can confirm they stopped. {}", if guarded.is_some() { two_writers } else { "Force deletion would leave them running unseen." }),
                    vec![
                        format!("Bring the node back: kubectl describe node {node}"),
                        format!("If the machine is gone for good: kubectl delete node {node}, then run kubewhy fix again (the pod GC or kubewhy then removes its pods)"),
                    ],
                );
            }
            _ => {
                // The kubelet runs and has not finished: the repair is on the node.
                if !pod.metadata.finalizers.is_empty() {
                    return;
                }
                if self.opts.force && guarded.is_none() {
                    self.step(
                        Action::ForceDeletePod,
                        t,
                        Cause::KubeletCleanupPending,
                        format!("--force: the kubelet on {node} has not confirmed the pod stopped"),
                        RiskLevel::High,
                        "Only the API object goes: if the containers still run on the node they keep running, unseen, and hold their resources.",
                    );
                } else {
                    self.refuse(
                        &t,
                        None,
                        "force-delete the pod",
                        match &guarded {
                            Some(g) => format!("Its node {node} is Ready and its kubelet has not confirmed the pod stopped; {g}. {two_writers} Refused even with --force while the node exists."),
                            None => format!("Its node {node} is Ready: the kubelet has not finished stopping the pod (see the finding for why). Force deletion would hide the problem and may leave containers running (--force to insist)."),
                        },
                        vec![format!("On {node}: journalctl -u kubelet | grep {}", pod.metadata.uid)],
                    );
                }
            }
        }
    }

    /// Why force-deleting the pod is dangerous beyond the usual, if it is: it belongs to a
    /// StatefulSet, or holds ReadWriteOnce volumes (a replacement would be a second writer).
    fn guarded(&self, pod: &Pod) -> Option<String> {
        let sts = pod
            .metadata
            .controller()
            .is_some_and(|o| o.kind == "StatefulSet");
        let rwo: Vec<String> = pod
            .spec
            .volumes
            .iter()
            .filter_map(|v| v.persistent_volume_claim.as_ref())
            .filter(|c| {
                self.snap
                    .pvc(pod.metadata.ns(), &c.claim_name)
                    .is_none_or(|pvc| {
                        pvc.spec.access_modes.is_empty()
                            || pvc
                                .spec
                                .access_modes
                                .iter()
                                .any(|m| m == "ReadWriteOnce" || m == "ReadWriteOncePod")
                    })
            })
            .map(|c| c.claim_name.to_string())
            .collect();
        if sts {
            Some("it belongs to a StatefulSet".to_string())
        } else if !rwo.is_empty() {
            Some(format!(
                "it holds ReadWriteOnce volume(s) ({})",
                rwo.join(", ")
            ))
        } else {
            None
        }
    }

    // ---------------------------------------------------------------- namespaces

    fn namespace(&mut self, ns: &kubewhy_model::objects::Namespace) {
        let name = ns.metadata.name.clone();
        let key = target("v1", "Namespace", &ns.metadata);
        let Some(deleted) = ns.metadata.deletion_timestamp else {
            if ns.status.phase != "Terminating" {
                self.plan.notes.push(format!(
                    "Namespace {name} is not being deleted: nothing to repair."
                ));
                return;
            }
            return self.namespace_content(ns, &key);
        };
        let age = self.now.as_second() - deleted.as_second();
        let failing = ns.status.conditions.iter().any(|c| c.status == "True");
        if age < STUCK_AFTER_SECS && !failing {
            self.plan.notes.push(format!(
                "Namespace {name} was deleted {} ago: the namespace controller is still at work.",
                human_duration(age)
            ));
            return;
        }
        self.namespace_content(ns, &key);
    }

    /// Unavailable aggregated APIs: the namespace controller cannot prove the namespace is
    /// empty while one group cannot be discovered.
    fn unavailable_apis(&mut self) {
        for a in &self.snap.api_services {
            let Some(c) =
                condition(&a.status.conditions, "Available").filter(|c| c.status != "True")
            else {
                continue;
            };
            let t = target("apiregistration.k8s.io/v1", "APIService", &a.metadata);
            if !self.first_visit(&t) {
                continue;
            }
            if c.reason == "ServiceNotFound" || self.opts.force {
                self.step(
                    Action::Delete,
                    t,
                    Cause::ApiserviceUnavailable,
                    format!("Available=False ({}: {}): no namespace can finish deleting while this API group cannot be discovered", c.reason, c.message),
                    RiskLevel::Medium,
                    "Clients of that API group lose it (for metrics.k8s.io: kubectl top and HPAs). `kubewhy fix --undo` recreates it from the backup.",
                );
            } else {
                self.refuse(
                    &t,
                    Some(Cause::ApiserviceUnavailable),
                    "delete the APIService",
                    format!("Available=False ({}: {}): its service exists, so the API is meant to work; fix its backend instead (--force deletes the APIService anyway).", c.reason, c.message),
                    vec![format!("kubectl get apiservice {} -o yaml", a.metadata.name)],
                );
            }
        }
    }

    /// The namespace's own finalizer, only when nothing else can be done.
    fn namespace_finalizer(&mut self, key: &Target, leftovers: usize) {
        if !(self.plan.steps.is_empty() && (!self.plan.refused.is_empty() || leftovers == 0)) {
            return;
        }
        {
            if self.opts.force {
                let mut t = key.clone();
                t.api_version = "v1".into();
                self.step(
                    Action::FinalizeNamespace,
                    t,
                    Cause::NsResourcesRemaining,
                    format!("--force: nothing else can release the namespace; {} leftover(s) listed above stay orphaned in etcd", leftovers),
                    RiskLevel::High,
                    "The leftovers are not deleted: they stay in etcd, invisible, and reappear if a namespace of the same name is created; their external resources are never cleaned up.",
                );
            } else {
                self.refuse(
                    key,
                    None,
                    "clear the namespace's finalizer through /finalize",
                    "Kept for last: it orphans the leftovers in etcd instead of deleting them. Only with --force, and only when the steps above cannot be taken.".into(),
                    vec!["Resolve the refusals above, or run again with --force".into()],
                );
            }
        }
    }

    fn namespace_content(&mut self, ns: &kubewhy_model::objects::Namespace, key: &Target) {
        let snap = self.snap;
        let name = ns.metadata.name.as_str();
        let leftovers = snap.objects_in_namespace(name);
        self.plan.leftovers = leftovers
            .iter()
            .map(|(k, m)| {
                let mut s = format!("{k} {name}/{}", m.name);
                if !m.finalizers.is_empty() {
                    s.push_str(&format!(" finalizers=[{}]", m.finalizers.join(", ")));
                }
                if m.deletion_timestamp.is_some() {
                    s.push_str(" (being deleted)");
                }
                s
            })
            .collect();

        self.unavailable_apis();

        // 2. Leftovers, dependents before their owners.
        let depth_of = |m: &Meta| -> usize {
            let mut d = 0;
            let mut cur = m;
            while d < MAX_DEPTH {
                let Some(o) = cur.owner_references.first() else {
                    break;
                };
                match leftovers
                    .iter()
                    .find(|(_, x)| x.uid == o.uid && !o.uid.is_empty())
                {
                    Some((_, x)) => {
                        d += 1;
                        cur = x;
                    }
                    None => break,
                }
            }
            d
        };
        let mut ordered: Vec<&(&str, &Meta)> = leftovers.iter().collect();
        ordered.sort_by_key(|(_, m)| std::cmp::Reverse(depth_of(m)));
        let content_failure = condition(&ns.status.conditions, "NamespaceDeletionContentFailure")
            .is_some_and(|c| c.status == "True");
        for (kind, m) in ordered {
            let api = meta_of(snap, &ObjectKey::of(kind, m))
                .map(|(a, _)| a)
                .unwrap_or_else(|| api_version(kind).to_string());
            if m.deletion_timestamp.is_some() {
                self.object(kind, &api, m, 0);
            } else if content_failure {
                let t = target(&api, kind, m);
                if self.first_visit(&t) {
                    self.step(
                        Action::Delete,
                        t,
                        Cause::NsResourcesRemaining,
                        "The namespace controller failed to delete it (NamespaceDeletionContentFailure)".into(),
                        RiskLevel::Low,
                        "The namespace is being deleted: its content goes anyway.",
                    );
                }
            }
        }
        let undeleted = leftovers
            .iter()
            .filter(|(_, m)| m.deletion_timestamp.is_none())
            .count();
        if undeleted > 0 && !content_failure {
            self.plan.notes.push(format!("{undeleted} object(s) in the namespace are not being deleted yet: the namespace controller deletes them once it can list every API group."));
        }

        self.namespace_finalizer(key, leftovers.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_model::plan::Action;

    fn plan_yaml(yaml: &str, subject: Subject, force: bool) -> Plan {
        let (snap, d) = crate::tests::snapshot_and_diagnosis(yaml, "2026-11-22T12:00:00Z");
        plan(
            &snap,
            &d,
            &subject,
            FixOptions {
                force,
                pods_cluster_wide: true,
            },
        )
        .unwrap()
    }

    fn pod_subject() -> Subject {
        Subject::Pod {
            namespace: "shop".into(),
            name: "worker".into(),
        }
    }

    const NODE: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: node-1}\nstatus: {conditions: [{type: Ready, status: 'True'}]}\n---\n";
    const OTHER_NODE: &str = "apiVersion: v1\nkind: Node\nmetadata: {name: node-2}\nstatus: {conditions: [{type: Ready, status: 'True'}]}\n---\n";

    fn deleted_pod(extra_meta: &str, spec: &str) -> String {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: worker, namespace: shop, uid: u1, resourceVersion: '42', deletionTimestamp: '2026-11-22T11:00:00Z'{extra_meta}}}\nspec: {{nodeName: node-1, containers: [{{name: c, image: app}}]{spec}}}\nstatus: {{phase: Running}}\n---\n"
        )
    }

    #[test]
    fn a_custom_finalizer_without_controller_is_removed_with_the_resource_version() {
        let p = plan_yaml(
            &format!(
                "{NODE}{}",
                deleted_pod(
                    ", finalizers: [billing.example.com/cleanup, acme.io/keep]",
                    ""
                )
            ),
            pod_subject(),
            false,
        );
        assert_eq!(p.steps.len(), 1, "{p:#?}");
        let s = &p.steps[0];
        assert_eq!(
            s.action,
            Action::RemoveFinalizers {
                remove: vec!["billing.example.com/cleanup".into(), "acme.io/keep".into()],
                keep: vec![]
            }
        );
        assert_eq!(s.object.resource_version, "42");
        assert_eq!(s.object.uid, "u1");
        assert_eq!(s.cause, Cause::FinalizerPending);
        assert!(s.why.contains("[\"billing\", \"acme\"]"), "{}", s.why);
        assert_eq!(p.diagnosis.len(), 1);
    }

    #[test]
    fn a_running_lookalike_controller_blocks_finalizer_removal() {
        let yaml = format!(
            "{NODE}{}apiVersion: v1\nkind: Pod\nmetadata: {{name: acme-operator-5d9, namespace: ops}}\nspec: {{nodeName: node-1, containers: [{{name: c, image: acme/operator:1}}]}}\nstatus: {{phase: Running}}\n",
            deleted_pod(", finalizers: [acme.io/keep]", "")
        );
        let p = plan_yaml(&yaml, pod_subject(), false);
        assert!(p.steps.is_empty(), "{p:#?}");
        assert_eq!(p.refused.len(), 1);
        assert!(p.refused[0].why.contains("ops/acme-operator-5d9"));
        let forced = plan_yaml(&yaml, pod_subject(), true);
        assert_eq!(forced.steps.len(), 1);
    }

    #[test]
    fn foreground_deletion_deletes_live_dependents_and_unblocks_deleting_ones() {
        let yaml = format!(
            "{NODE}{}apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: live, namespace: shop, resourceVersion: '7', ownerReferences: [{{apiVersion: v1, kind: Pod, name: worker, uid: u1}}]}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: held, namespace: shop, resourceVersion: '8', deletionTimestamp: '2026-11-22T11:00:00Z', finalizers: [widgets.example.com/hold], ownerReferences: [{{apiVersion: v1, kind: Pod, name: worker, uid: u1}}]}}\n",
            deleted_pod(", finalizers: [foregroundDeletion]", "")
        );
        let p = plan_yaml(&yaml, pod_subject(), false);
        let summary: Vec<(String, String)> = p
            .steps
            .iter()
            .map(|s| (s.action.verb(), s.object.display()))
            .collect();
        assert_eq!(
            summary,
            vec![
                ("delete".to_string(), "ConfigMap shop/live".to_string()),
                (
                    "remove finalizer(s) widgets.example.com/hold".to_string(),
                    "ConfigMap shop/held".to_string()
                ),
            ]
        );
    }

    #[test]
    fn force_delete_only_when_the_node_is_confirmed_gone() {
        // Node gone: planned.
        let gone = plan_yaml(
            &format!("{OTHER_NODE}{}", deleted_pod("", "")),
            pod_subject(),
            false,
        );
        assert_eq!(gone.steps.len(), 1);
        assert_eq!(gone.steps[0].action, Action::ForceDeletePod);
        assert_eq!(gone.steps[0].cause, Cause::NodeDeleted);
        // Node NotReady: refused, even with --force.
        let notready = format!(
            "apiVersion: v1\nkind: Node\nmetadata: {{name: node-1}}\nstatus: {{conditions: [{{type: Ready, status: Unknown, lastTransitionTime: '2026-11-22T10:00:00Z'}}]}}\n---\n{}",
            deleted_pod("", "")
        );
        for force in [false, true] {
            let p = plan_yaml(&notready, pod_subject(), force);
            assert!(p.steps.is_empty(), "{p:#?}");
            assert_eq!(p.refused[0].cause, Some(Cause::NodeUnreachable));
        }
    }

    #[test]
    fn statefulset_pods_need_force_even_when_the_node_is_gone() {
        let yaml = format!(
            "{OTHER_NODE}{}",
            deleted_pod(
                ", ownerReferences: [{apiVersion: apps/v1, kind: StatefulSet, name: db, uid: s1, controller: true}]",
                ""
            )
        );
        let p = plan_yaml(&yaml, pod_subject(), false);
        assert!(p.steps.is_empty());
        assert!(p.refused[0].why.contains("StatefulSet"), "{:?}", p.refused);
        let forced = plan_yaml(&yaml, pod_subject(), true);
        assert_eq!(forced.steps[0].action, Action::ForceDeletePod);
        assert_eq!(forced.steps[0].risk, RiskLevel::High);
    }

    #[test]
    fn rwo_pods_on_a_ready_node_are_refused_even_with_force() {
        let yaml = format!(
            "{NODE}apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data, namespace: shop}}\nspec: {{accessModes: [ReadWriteOnce]}}\n---\n{}",
            deleted_pod(
                "",
                ", volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]"
            )
        );
        let p = plan_yaml(&yaml, pod_subject(), true);
        assert!(p.steps.is_empty(), "{p:#?}");
        assert!(p.refused[0].why.contains("ReadWriteOnce volume(s) (data)"));
    }

    const TERMINATING_NS: &str = "apiVersion: v1\nkind: Namespace\nmetadata: {name: team, resourceVersion: '99', deletionTimestamp: '2026-11-22T10:00:00Z'}\nspec: {finalizers: [kubernetes]}\nstatus: {phase: Terminating, conditions: [{type: NamespaceDeletionDiscoveryFailure, status: 'True', reason: DiscoveryFailed, message: 'Discovery failed for some groups, 1 failing: unable to retrieve the complete list of server APIs: metrics.k8s.io/v1beta1: the server is currently unable to handle the request'}]}\n---\n";

    #[test]
    fn a_namespace_blocked_by_a_missing_service_deletes_the_apiservice() {
        let yaml = format!(
            "{TERMINATING_NS}apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {{name: v1beta1.metrics.k8s.io, resourceVersion: '5'}}\nspec: {{group: metrics.k8s.io, version: v1beta1, service: {{namespace: kube-system, name: metrics-server}}}}\nstatus: {{conditions: [{{type: Available, status: 'False', reason: ServiceNotFound, message: 'service/metrics-server in \"kube-system\" is not present'}}]}}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: left, namespace: team}}\n"
        );
        let p = plan_yaml(&yaml, Subject::Namespace("team".into()), false);
        assert_eq!(p.steps.len(), 1, "{p:#?}");
        assert_eq!(p.steps[0].action, Action::Delete);
        assert_eq!(p.steps[0].object.kind, "APIService");
        assert_eq!(p.steps[0].object.resource_version, "5");
        assert_eq!(p.steps[0].cause, Cause::ApiserviceUnavailable);
        assert_eq!(p.leftovers, vec!["ConfigMap team/left".to_string()]);
        assert!(p.refused.is_empty());
    }

    #[test]
    fn a_namespace_finalizer_is_cleared_only_with_force_and_last() {
        let yaml = format!(
            "{}apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: held, namespace: team, deletionTimestamp: '2026-11-22T10:00:00Z', finalizers: [kubernetes.io/custom-thing]}}\n",
            TERMINATING_NS.replace(
                "NamespaceDeletionDiscoveryFailure",
                "NamespaceFinalizersRemaining"
            )
        );
        let p = plan_yaml(&yaml, Subject::Namespace("team".into()), false);
        assert!(p.steps.is_empty(), "{p:#?}");
        assert_eq!(p.refused.len(), 2);
        assert!(p.refused[1].step.contains("/finalize"));
        let forced = plan_yaml(&yaml, Subject::Namespace("team".into()), true);
        // --force removes the built-in finalizer; /finalize is not needed then.
        assert_eq!(forced.steps.len(), 1);
        assert!(matches!(
            forced.steps[0].action,
            Action::RemoveFinalizers { .. }
        ));
    }

    #[test]
    fn controller_words_name_the_operator() {
        assert_eq!(
            controller_words("cert-manager.io/finalizer"),
            vec!["cert-manager"]
        );
        assert_eq!(
            controller_words("e2e.kubewhy.dev/hold"),
            vec!["e2e", "kubewhy"]
        );
        assert_eq!(
            controller_words("realcluster.example.com/block"),
            vec!["realcluster"]
        );
        assert!(controller_words("example.com/x").is_empty());
    }
}
