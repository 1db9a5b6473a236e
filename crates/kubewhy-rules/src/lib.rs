//! The checks. Each check family lives in one file and reads the snapshot; the registry below
//! lists every check. Adding a check: one file here (or a function in the family's file), one
//! page under `docs/causes/`, one fixture (the page's example is the first).

pub mod catalogue;
mod crash;
mod creation;
mod disruption;
mod dra;
mod drain;
pub mod fix;
pub mod gone;
mod image;
mod job;
mod loglines;
mod mounts;
mod namespace;
mod node;
mod nodelink;
mod pasted;
mod pending;
mod podgc;
mod podinfo;
mod readiness;
mod rejected;
mod removal;
mod resize;
mod sandbox;
mod scaledown;
mod scheduling;
mod terminating;
mod units;

use jiff::Timestamp;
use kubewhy_model::{Cause, Finding, ObjectKey, Snapshot, Unexplained};
pub use mounts::keys_needed;
pub use node::configz_candidates;
use podinfo::PodInfo;

/// What a check sees.
pub struct Ctx<'a> {
    pub snap: &'a Snapshot,
    /// The snapshot's "now" (never the wall clock: old dumps must not look older than they are).
    pub now: Timestamp,
    /// Node evidence tied to pods and nodes, built on first use.
    node_view: std::sync::OnceLock<nodelink::NodeView<'a>>,
}

impl<'a> Ctx<'a> {
    pub fn new(snap: &'a Snapshot, now: Timestamp) -> Ctx<'a> {
        Ctx {
            snap,
            now,
            node_view: std::sync::OnceLock::new(),
        }
    }
    pub(crate) fn nodes(&self) -> &nodelink::NodeView<'a> {
        self.node_view
            .get_or_init(|| nodelink::NodeView::new(self.snap))
    }
}

/// A check: reads the snapshot, pushes findings.
pub trait Check: Sync {
    /// Short stable name, e.g. `pending`.
    fn name(&self) -> &'static str;
    /// Every cause this check can emit (the docs test holds each to a page).
    fn causes(&self) -> &'static [Cause];
    fn run(&self, ctx: &Ctx, out: &mut Findings);
}

/// Where a check puts its findings. Each is completed with the node log lines of its pods (when
/// node logs were read) and merged with the check's others as it arrives, so that 10,000 pods
/// pending for one reason are held as one finding, never as 10,000 (what an evaluation of the
/// watch costs per pod).
pub struct Findings<'c, 'a> {
    merged: kubewhy_model::Merger,
    pods: Option<&'c node::PodLines<'c, 'a>>,
    check: &'c dyn Check,
}

impl<'c, 'a> Findings<'c, 'a> {
    fn new(check: &'c dyn Check, pods: Option<&'c node::PodLines<'c, 'a>>) -> Self {
        Findings {
            merged: Default::default(),
            pods,
            check,
        }
    }

    pub fn push(&mut self, mut f: Finding) {
        // What a check emits it declares: `causes()` is what the docs test holds to a page and
        // what `gone`'s advice must cover.
        debug_assert!(
            self.check.causes().contains(&f.cause),
            "check `{}` emitted {:?}, which its causes() does not declare",
            self.check.name(),
            f.cause
        );
        if let Some(pods) = self.pods {
            pods.attach(&mut f);
        }
        self.merged.push(f);
    }
}

impl Extend<Finding> for Findings<'_, '_> {
    fn extend<I: IntoIterator<Item = Finding>>(&mut self, items: I) {
        for f in items {
            self.push(f);
        }
    }
}

/// Every check kubewhy runs, in order.
pub static REGISTRY: &[&dyn Check] = &[
    &pending::Pending,
    &creation::PodCreation,
    &sandbox::Sandbox,
    &image::ImagePull,
    &mounts::ConfigAndMounts,
    &units::ResourceUnits,
    &crash::Crash,
    &rejected::Rejected,
    &job::JobFailed,
    &readiness::Readiness,
    &resize::Resize,
    &terminating::Terminating,
    &namespace::NamespaceTerminating,
    &podgc::PodGc,
    &removal::Removal,
    &drain::Drain,
    &node::NodeHealth,
];

#[derive(Debug, Default)]
pub struct Diagnosis {
    pub findings: Vec<Finding>,
    pub unexplained: Vec<Unexplained>,
}

/// Causes some check can emit.
pub fn emitted_causes() -> Vec<Cause> {
    let mut v: Vec<Cause> = REGISTRY
        .iter()
        .flat_map(|c| c.causes().iter().copied())
        .chain(gone::CAUSES.iter().copied())
        .collect();
    v.sort();
    v.dedup();
    v
}

/// Runs the checks on every core (each check on one thread; the largest, `pending`, first) and
/// returns their findings merged, in registry order whichever thread ran them.
fn run_checks(ctx: &Ctx) -> Vec<Finding> {
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let next = AtomicUsize::new(0);
    let pods = node::PodLines::new(ctx);
    // `KUBEWHY_CHECK_TIMES=1`: each check's time on stderr (for `kubewhy-bench phases`).
    let timed = std::env::var_os("KUBEWHY_CHECK_TIMES").is_some();
    let results: std::sync::Mutex<Vec<(usize, kubewhy_model::Merger)>> = Default::default();
    std::thread::scope(|s| {
        for _ in 0..threads.min(REGISTRY.len()) {
            s.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(&check) = REGISTRY.get(i) else { break };
                    let mut out = Findings::new(check, pods.as_ref());
                    let started = std::time::Instant::now();
                    check.run(ctx, &mut out);
                    if timed {
                        eprintln!(
                            "check {:<12} {:>8.1} ms",
                            check.name(),
                            started.elapsed().as_secs_f64() * 1e3
                        );
                    }
                    results
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .push((i, out.merged));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.sort_by_key(|(i, _)| *i);
    let mut all = kubewhy_model::Merger::default();
    for (_, m) in results {
        all.append(m);
    }
    all.finish()
}

/// Runs every check and groups the findings.
pub fn diagnose(snap: &Snapshot) -> Diagnosis {
    let now = snap.judged_at();
    let ctx = Ctx::new(snap, now);
    let mut findings = run_checks(&ctx);
    pasted::qualify(snap, &mut findings);
    pasted::from_messages(snap, &mut findings);
    let explained: std::collections::HashSet<(&str, &str)> = findings
        .iter()
        .flat_map(|f| f.objects.iter())
        .filter(|o| o.kind == "Pod")
        .map(|o| (o.namespace.as_str(), o.name.as_str()))
        .collect();
    let mut unexplained = Vec::new();
    for pod in &snap.pods {
        let info = PodInfo::new(pod);
        if !info.unhealthy(now) {
            continue;
        }
        if explained.contains(&(pod.metadata.ns(), pod.metadata.name.as_str())) {
            continue;
        }
        let next = pasted::settle(snap, &info.key).unwrap_or_else(|| {
            format!(
                "kubectl describe pod {} -n {}",
                pod.metadata.name,
                pod.metadata.ns()
            )
        });
        unexplained.push(Unexplained {
            object: info.key.clone(),
            status: info.status_column(),
            next,
            reason: podinfo::unexplained_reason(snap, &info),
        });
    }
    // A namespace stuck deleting that no finding explains: what is left in it would.
    for ns in &snap.namespaces {
        if ns.status.phase != "Terminating"
            || findings.iter().any(|f| {
                f.objects
                    .iter()
                    .any(|o| o.kind == "Namespace" && o.name == ns.metadata.name)
            })
        {
            continue;
        }
        let key = ObjectKey {
            kind: "Namespace".into(),
            name: ns.metadata.name.clone(),
            ..Default::default()
        };
        let next = pasted::settle(snap, &key).unwrap_or_else(|| {
            format!(
                "kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n {}",
                ns.metadata.name
            )
        });
        unexplained.push(Unexplained {
            object: key,
            status: "Terminating".into(),
            next,
            reason: String::new(),
        });
    }
    name_workloads(snap, &mut findings);
    pasted::in_words(&mut findings, &mut unexplained);
    Diagnosis {
        findings,
        unexplained,
    }
}

/// Each finding's workloads (the top of its pods' owner chains, with pod counts) and since
/// when its oldest object is in trouble, from the objects it names.
fn name_workloads(snap: &Snapshot, findings: &mut [Finding]) {
    if findings.is_empty() {
        return;
    }
    let pods = kubewhy_model::PodIndex::new(snap);
    for f in findings {
        f.workloads = snap.workloads_of(&f.objects, &pods);
        f.since = snap.since_of(&f.objects, &pods);
    }
}

#[cfg(test)]
mod tests;

/// What the user asked to see: `-n` namespaces (empty = all) and a `-l` label selector.
#[derive(Debug, Default, Clone)]
pub struct Scope {
    pub namespaces: Vec<String>,
    pub selector: Option<kubewhy_model::selector::Selector>,
    /// One object by kind and name (`kubewhy pod NAME`).
    pub object: Option<(String, String)>,
}

impl Diagnosis {
    /// Keeps only the objects in scope; a finding left with no object is dropped.
    pub fn retain_scope(&mut self, snap: &Snapshot, scope: &Scope) {
        let keep = |o: &kubewhy_model::ObjectKey| -> bool {
            let ns_ok = scope.namespaces.is_empty()
                || scope
                    .namespaces
                    .iter()
                    .any(|n| *n == o.namespace || (o.kind == "Namespace" && *n == o.name));
            let sel_ok = match &scope.selector {
                None => true,
                Some(sel) => snap.labels_of(o).is_some_and(|l| sel.matches(l)),
            };
            let obj_ok = match &scope.object {
                None => true,
                Some((kind, name)) => o.kind == *kind && o.name == *name,
            };
            ns_ok && sel_ok && obj_ok
        };
        let mut narrowed = false;
        for f in &mut self.findings {
            let before = f.objects.len();
            f.objects.retain(keep);
            narrowed |= f.objects.len() != before;
        }
        self.findings.retain(|f| !f.objects.is_empty());
        if narrowed {
            name_workloads(snap, &mut self.findings);
        }
        self.unexplained.retain(|u| keep(&u.object));
    }
}
