//! Namespaces stuck Terminating: the namespace controller's conditions say what it is waiting
//! for; the snapshot says which objects are left and which of them carry finalizers.

use crate::Findings;
use crate::podinfo::human_duration;
use crate::{Check, Ctx};
use kubewhy_model::objects::{Meta, Namespace, condition};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};

pub(crate) struct NamespaceTerminating;

const CAUSES: &[Cause] = &[
    Cause::FinalizerPending,
    Cause::NsResourcesRemaining,
    Cause::NsFinalizerPending,
    Cause::ApiserviceUnavailable,
];

/// A namespace deletion younger than this is still normal work (the controller usually
/// finishes within seconds; pods use the same margin past their grace period).
const STUCK_AFTER_SECS: i64 = crate::terminating::STUCK_AFTER_SECS;
/// Leftover objects quoted one by one; the rest are counted.
const LIST_MAX: usize = 20;

impl Check for NamespaceTerminating {
    fn name(&self) -> &'static str {
        "namespace"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for ns in &ctx.snap.namespaces {
            if ns.status.phase == "Terminating" || ns.metadata.deletion_timestamp.is_some() {
                check_namespace(ctx, ns, out);
            }
        }
    }
}

/// A namespace stuck Terminating, and what every finding about it shares.
struct Stuck<'a> {
    snap: &'a kubewhy_model::Snapshot,
    ns: &'a Namespace,
    name: &'a str,
    key: ObjectKey,
    /// " for 3h" (how long it has been Terminating), or nothing when the data does not say.
    stuck: String,
    conds: &'a [kubewhy_model::objects::Condition],
    leftovers: Vec<(&'a str, &'a Meta)>,
    list_cmd: String,
}

impl<'a> Stuck<'a> {
    /// A condition the namespace controller set True.
    fn active(&self, t: &str) -> Option<&'a kubewhy_model::objects::Condition> {
        condition(self.conds, t).filter(|c| c.status == "True")
    }
    /// The controller's condition as evidence, when it is set.
    fn cond_ev(&self, f: Finding, t: &str) -> Finding {
        match condition(self.conds, t) {
            Some(c) => f.evidence(
                EvidenceKind::Condition,
                Some(&self.key),
                format!("status.conditions[{t}] reason={}", c.reason),
                c.message.clone(),
            ),
            None => f,
        }
    }
    /// Leftovers quoted one per line (with their finalizers), at most LIST_MAX.
    fn list(&self, items: &[&(&str, &Meta)]) -> String {
        let mut s: Vec<String> = items
            .iter()
            .take(LIST_MAX)
            .map(|(k, m)| {
                if m.finalizers.is_empty() {
                    format!("{k}/{}", m.name)
                } else {
                    format!("{k}/{} finalizers=[{}]", m.name, m.finalizers.join(", "))
                }
            })
            .collect();
        if items.len() > LIST_MAX {
            s.push(format!("… and {} more", items.len() - LIST_MAX));
        }
        s.join("\n")
    }
    fn with_finalizers(&self) -> Vec<&(&'a str, &'a Meta)> {
        self.leftovers
            .iter()
            .filter(|(_, m)| !m.finalizers.is_empty())
            .collect()
    }
}

fn check_namespace(ctx: &Ctx, ns: &Namespace, out: &mut Findings) {
    let name = ns.metadata.name.as_str();
    let age = ns
        .metadata
        .deletion_timestamp
        .map(|t| ctx.now.as_second() - t.as_second());
    // A condition the namespace controller set True says its last pass could not finish:
    // that is stuck whatever the age. Without one, give the controller its usual margin.
    let failing = ns.status.conditions.iter().any(|c| c.status == "True");
    if age.is_some_and(|a| a < STUCK_AFTER_SECS) && !failing {
        return;
    }
    let st = Stuck {
        snap: ctx.snap,
        ns,
        name,
        key: ObjectKey::of("Namespace", &ns.metadata),
        stuck: age
            .map(human_duration)
            .map(|d| format!(" for {d}"))
            .unwrap_or_default(),
        conds: &ns.status.conditions,
        leftovers: ctx.snap.objects_in_namespace(name),
        list_cmd: format!(
            "kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n {name}"
        ),
    };
    // 1. Discovery failures: some API group cannot be listed, so the controller cannot know
    //    the namespace is empty. Almost always an unavailable aggregated APIService.
    out.extend(discovery_blocked(&st));
    // 2. The namespace's own metadata.finalizers (not spec.finalizers, the namespace
    //    controller's): `foregroundDeletion`, or an operator's.
    if !ns.metadata.finalizers.is_empty() && !failing {
        out.push(own_finalizers(&st));
        return;
    }
    // 3. Finalizers on leftovers.
    if st.active("NamespaceFinalizersRemaining").is_some()
        || (!st.with_finalizers().is_empty() && st.conds.is_empty())
    {
        out.push(leftover_finalizers(&st));
        return;
    }
    // 4. Content still being deleted (or failing to be).
    let content = st
        .active("NamespaceContentRemaining")
        .or_else(|| st.active("NamespaceDeletionContentFailure"));
    if content.is_some() || (!st.leftovers.is_empty() && st.conds.is_empty()) {
        out.push(leftover_content(&st));
    }
}

fn discovery_blocked(st: &Stuck) -> Option<Finding> {
    let (snap, name, stuck) = (st.snap, st.name, &st.stuck);
    let discovery = st
        .active("NamespaceDeletionDiscoveryFailure")
        .map(|_| "NamespaceDeletionDiscoveryFailure")
        .or_else(|| {
            st.active("NamespaceDeletionGroupVersionParsingFailure")
                .map(|_| "NamespaceDeletionGroupVersionParsingFailure")
        });
    let failed = discovery?;
    let down: Vec<_> = snap
        .api_services
        .iter()
        .filter(|a| {
            condition(&a.status.conditions, "Available").is_some_and(|c| c.status != "True")
        })
        .collect();
    let mut f = Finding::new(
        Cause::ApiserviceUnavailable,
        Severity::Warning,
        "An unavailable aggregated API blocks the namespace's deletion",
    )
    .object(st.key.clone())
    .group(
        down.iter()
            .map(|a| a.metadata.name.clone())
            .collect::<Vec<_>>()
            .join(","),
    );
    f = st.cond_ev(f, failed);
    for a in &down {
        let c = condition(&a.status.conditions, "Available").expect("filtered");
        f = f.evidence(
            EvidenceKind::Condition,
            Some(&ObjectKey::new("APIService", "", &a.metadata.name, "")),
            format!("status.conditions[Available] reason={}", c.reason),
            c.message.clone(),
        );
    }
    let svc = down
        .first()
        .map(|a| a.metadata.name.clone())
        .unwrap_or_else(|| "<name>".into());
    f = f
        .explain(format!("Namespace {name} is Terminating{stuck}. Before finishing, the namespace controller must list every namespaced resource type; {}, so it cannot prove the namespace is empty and keeps waiting. Other namespaces being deleted are blocked the same way.", if failed == "NamespaceDeletionDiscoveryFailure" { "discovery of an aggregated API group fails" } else { "a group version served by the API server cannot be parsed (a malformed APIService or CRD registration)" }))
        .step("See which APIServices are unavailable and why", Some("kubectl get apiservices | grep -v True".into()), RiskLevel::None, "")
        .step("Fix the service behind it (its pods, its Service and endpoints)", None, RiskLevel::None, "")
        .step("If that API is no longer used, delete the APIService", Some(format!("kubectl delete apiservice {svc}")), RiskLevel::Medium, "Clients of that API (e.g. kubectl top, HPAs for metrics.k8s.io) stop working.");
    if down.is_empty() {
        f = f.confidence(Confidence::Medium);
    }
    Some(f)
}

fn own_finalizers(st: &Stuck) -> Finding {
    let (ns, name, stuck) = (st.ns, st.name, &st.stuck);
    let fins = ns.metadata.finalizers.join(", ");
    let foreground = ns
        .metadata
        .finalizers
        .iter()
        .any(|f| f == "foregroundDeletion");
    let mut f = Finding::new(
        Cause::FinalizerPending,
        Severity::Warning,
        format!("Namespace {name} waits on its own finalizer(s) {fins}"),
    )
    .object(st.key.clone())
    .group(format!("ns|{fins}"))
    .evidence(
        EvidenceKind::Field,
        Some(&st.key),
        "metadata.finalizers",
        fins.clone(),
    );
    f = f.explain(format!(
        "Namespace {name} is Terminating{stuck} and its metadata carries finalizer(s) {fins}: the object stays until each is removed by whoever set it. {}",
        if foreground {
            "foregroundDeletion is set by a foreground (cascading) delete and removed by the garbage collector once the namespace's dependents are gone; when the collector cannot finish (it cannot discover some API, or a dependent is itself stuck), it stays."
        } else {
            "A finalizer of an operator is removed by that operator; if it was uninstalled first, nothing will."
        }
    ))
    .step("Check the garbage collector's and the API's health (unavailable APIServices block it)", Some("kubectl get apiservices | grep -v True; kubectl logs -n kube-system -l component=kube-controller-manager --tail=200 | grep -i garbage".into()), RiskLevel::None, "")
    .step("See whether anything is still left in the namespace", Some(st.list_cmd.clone()), RiskLevel::None, "")
    .step(
        "Once nothing is left, remove the finalizer",
        Some(format!("kubectl patch namespace {name} --type=merge -p '{{\"metadata\":{{\"finalizers\":null}}}}'")),
        RiskLevel::Medium,
        "Anything the finalizer guarded (dependents, external resources) is no longer cleaned up.",
    );
    f
}

fn leftover_finalizers(st: &Stuck) -> Finding {
    let (snap, name, stuck) = (st.snap, st.name, &st.stuck);
    let with_finalizers = st.with_finalizers();
    let mut f = Finding::new(
        Cause::NsFinalizerPending,
        Severity::Warning,
        "Objects left in the namespace wait on finalizers nobody removes",
    )
    .object(st.key.clone())
    .group(name);
    f = st.cond_ev(f, "NamespaceFinalizersRemaining");
    if !with_finalizers.is_empty() {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&st.key),
            "objects in the namespace with metadata.finalizers",
            st.list(&with_finalizers),
        );
    }
    let mut fins: Vec<&str> = with_finalizers
        .iter()
        .flat_map(|(_, m)| m.finalizers.iter().map(|f| f.as_str()))
        .collect();
    fins.sort_unstable();
    fins.dedup();
    for fin in fins.iter().take(5) {
        let words = crate::fix::controller_words(fin);
        if words.is_empty() || fin.contains("kubernetes.io/") {
            continue;
        }
        let candidates = crate::fix::controller_candidates(snap, &words);
        f = f.evidence(
            EvidenceKind::Analysis,
            None,
            format!("who removes {fin}"),
            if candidates.is_empty() {
                format!("no running pod in the data looks like its controller (names, labels, images and service accounts searched for {words:?}): the controller was likely removed before the namespace")
            } else {
                format!(
                    "running pod(s) that may be its controller: {}",
                    candidates
                        .iter()
                        .take(5)
                        .map(|p| format!("{}/{}", p.metadata.ns(), p.metadata.name))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            },
        );
    }
    let first = with_finalizers
        .first()
        .map(|(k, m)| (k.to_ascii_lowercase(), m.name.clone()));
    f = f
        .explain(format!("Namespace {name} is Terminating{stuck}. Everything else was deleted, but objects carrying finalizers stay until the controller that owns each finalizer removes it. When that controller (often an operator, for custom resources) was uninstalled first, nothing ever will."))
        .step("List what is left", Some(st.list_cmd.clone()), RiskLevel::None, "")
        .step("Reinstall or fix the controller that owns the finalizer, so it cleans up and removes it", None, RiskLevel::None, "");
    if let Some((k, n)) = first {
        f = f.step(
            "Only if that controller is gone for good: remove the finalizer from each leftover",
            Some(format!("kubectl -n {name} patch {k} {n} --type=merge -p '{{\"metadata\":{{\"finalizers\":null}}}}'")),
            RiskLevel::High,
            "Skips the cleanup the finalizer guards (external resources such as volumes, DNS records or cloud objects may leak).",
        );
    }
    f = f.step("Do not clear the namespace's own spec.finalizers through /finalize to force it", None, RiskLevel::High, "Leaves the leftovers orphaned in etcd; they reappear if a namespace of the same name is created.");
    f
}

fn leftover_content(st: &Stuck) -> Finding {
    let (snap, name, stuck, leftovers) = (st.snap, st.name, &st.stuck, &st.leftovers);
    let mut f = Finding::new(
        Cause::NsResourcesRemaining,
        Severity::Warning,
        "Objects left in the namespace are not going away",
    )
    .object(st.key.clone())
    .group(name);
    f = st.cond_ev(f, "NamespaceContentRemaining");
    f = st.cond_ev(f, "NamespaceDeletionContentFailure");
    let all: Vec<&(&str, &Meta)> = leftovers.iter().collect();
    if !all.is_empty() {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&st.key),
            "objects still in the namespace",
            st.list(&all),
        );
    }
    // A webhook that intercepts deletions and cannot be reached fails the controller's
    // deletes: name it and its service.
    if let Some(c) = st.active("NamespaceDeletionContentFailure")
        && let Some(hook) = c
            .message
            .split("failed calling webhook \"")
            .nth(1)
            .and_then(|r| r.split('"').next())
    {
        f = crate::creation::webhook_evidence(
            snap,
            hook,
            f,
            " — it intercepts the deletions and cannot be reached: restore its service, or delete this webhook configuration",
        );
    }
    // Terminating pods there have their own findings (and causes).
    for (k, m) in leftovers {
        if *k == "Pod" && m.deletion_timestamp.is_some() {
            f = f.object(ObjectKey::of("Pod", m));
        }
    }
    f = f
        .explain(if leftovers.is_empty() {
            format!("Namespace {name} is Terminating{stuck}. The namespace controller's last pass found objects left, but the data shows none now: they went since, and the controller finishes on its next pass (it retries with a growing delay). If it does not, something hides the leftovers from this read (a type kubewhy could not list).")
        } else {
            format!("Namespace {name} is Terminating{stuck}. The namespace controller deleted its content, but some objects remain: each is blocked by its own cause (a pod stuck Terminating, an object whose deletion fails). Fix those and the namespace finishes by itself.")
        })
        .step("List what is left", Some(st.list_cmd.clone()), RiskLevel::None, "")
        .step("Resolve each leftover's own cause (see the other findings for its pods)", None, RiskLevel::None, "");
    if leftovers.is_empty() {
        f = f.confidence(Confidence::Medium);
    }
    f
}

#[cfg(test)]
mod tests {
    use kubewhy_model::Cause;

    const NS: &str = "apiVersion: v1\nkind: Namespace\nmetadata: {name: team, deletionTimestamp: '2026-11-22T10:00:00Z'}\nstatus:\n  phase: Terminating\n  conditions:\n";

    fn findings(yaml: &str) -> Vec<kubewhy_model::Finding> {
        crate::tests::diagnose_yaml(yaml, "2026-11-22T12:00:00Z").findings
    }

    #[test]
    fn a_webhook_that_blocks_deletions_is_named_with_its_service() {
        let yaml = format!(
            "{NS}  - {{type: NamespaceDeletionContentFailure, status: 'True', reason: ContentDeletionFailed, message: 'Failed to delete all resource types, 1 remaining: Internal error occurred: failed calling webhook \"guard.example.com\": Post \"https://guard.ops.svc:443/validate?timeout=10s\": service \"guard\" not found'}}\n---\napiVersion: admissionregistration.k8s.io/v1\nkind: ValidatingWebhookConfiguration\nmetadata: {{name: guard}}\nwebhooks:\n- name: guard.example.com\n  clientConfig: {{service: {{namespace: ops, name: guard}}}}\n  failurePolicy: Fail\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {{name: left, namespace: team}}\n"
        );
        let f = findings(&yaml);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].cause, Cause::NsResourcesRemaining);
        let hook = f[0]
            .evidence
            .iter()
            .find(|e| e.source == "webhooks[guard.example.com]")
            .expect("webhook evidence");
        assert!(
            hook.quote
                .starts_with("service ops/guard, failurePolicy Fail"),
            "{}",
            hook.quote
        );
    }

    #[test]
    fn leftover_finalizers_say_whether_a_controller_runs() {
        let yaml = format!(
            "{NS}  - {{type: NamespaceFinalizersRemaining, status: 'True', reason: SomeFinalizersRemain, message: 'Some finalizers are remaining: widgets.acme.io/cleanup in 1 resource instances'}}\n---\napiVersion: acme.io/v1\nkind: Widget\nmetadata: {{name: w1, namespace: team, deletionTimestamp: '2026-11-22T10:00:01Z', finalizers: [widgets.acme.io/cleanup]}}\n"
        );
        let f = findings(&yaml);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].cause, Cause::NsFinalizerPending);
        let who = f[0]
            .evidence
            .iter()
            .find(|e| e.source == "who removes widgets.acme.io/cleanup")
            .expect("controller evidence");
        assert!(
            who.quote
                .starts_with("no running pod in the data looks like its controller"),
            "{}",
            who.quote
        );
    }

    #[test]
    fn a_group_version_parsing_failure_is_a_discovery_failure() {
        let yaml = format!(
            "{NS}  - {{type: NamespaceDeletionGroupVersionParsingFailure, status: 'True', reason: GroupVersionParsingFailed, message: 'unexpected GroupVersion string: a/b/c'}}\n"
        );
        let f = findings(&yaml);
        assert_eq!(f.len(), 1, "{f:#?}");
        assert_eq!(f[0].cause, Cause::ApiserviceUnavailable);
        assert!(f[0].explanation.contains("cannot be parsed"));
    }
}
