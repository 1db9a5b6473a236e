//! The evaluation loop: the store's snapshot (plus what namespaces being deleted still hold)
//! diagnosed, rendered and published; the watches' trouble said once; the metrics set.

use crate::{Published, Service, View};
use kubewhy_live::store::{WatchHealth, WatchStatus};
use kubewhy_model::InputWarning;
use kubewhy_report::metrics::WatchState;
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Events about a pod the watch no longer holds are dropped this many seconds after they
/// happened (an event can arrive before its pod does).
const ORPHAN_EVENT_GRACE: i64 = 120;

/// Namespaces being deleted are listed in full (every served type) at most this often: that
/// costs one request per type, too much for every evaluation.
const CONTENTS_EVERY: Duration = Duration::from_secs(30);

/// Whether to evaluate now: first thing; within a second of a change; and every `interval` even
/// when nothing changed, since time alone makes some conditions true (a grace period running
/// out, a pod Pending for too long).
fn due(since_last: Option<Duration>, changed: bool, interval: Duration) -> bool {
    match since_last {
        None => true,
        Some(d) => (changed && d >= Duration::from_secs(1)) || d >= interval,
    }
}

/// What namespaces being deleted still hold, as last read.
#[derive(Default)]
struct Contents {
    namespaces: BTreeSet<String>,
    pages: Vec<(String, String)>,
    problems: Vec<InputWarning>,
    read: Option<Instant>,
}

/// Reads again what the namespaces being deleted still hold, when they changed or every
/// `CONTENTS_EVERY` (one request per served resource type; nothing when none is being deleted).
fn refresh_contents(
    contents: &mut Contents,
    snap: &kubewhy_model::Snapshot,
    client: &kubewhy_live::Client,
    rt: &tokio::runtime::Handle,
) {
    let dying: BTreeSet<String> = snap
        .namespaces
        .iter()
        .filter(|n| n.metadata.deletion_timestamp.is_some())
        .map(|n| n.metadata.name.to_string())
        .collect();
    if dying.is_empty() {
        *contents = Contents::default();
    } else if dying != contents.namespaces
        || contents.read.is_none_or(|t| t.elapsed() >= CONTENTS_EVERY)
    {
        let names: Vec<String> = dying.iter().cloned().collect();
        let (pages, problems) = rt.block_on(kubewhy_live::namespace_contents(client, &names));
        *contents = Contents {
            namespaces: dying,
            pages,
            problems,
            read: Some(Instant::now()),
        };
    }
}

/// Each watch's trouble said once on stderr when it starts and when it ends, not per retry
/// (watches failing the same way in one line); /healthz and the page keep saying it meanwhile.
fn say_watch_trouble(health: &[WatchHealth], said: &mut Said) {
    let mut troubled: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut ended: Vec<String> = Vec::new();
    for h in health {
        let key = (h.resource, h.scope.clone());
        // A refusal (Forbidden) was said once at start by the permissions line; the page
        // and /healthz keep saying it.
        let now = failing(h).map(|e| format!("{e} (retried with back-off)"));
        let before = said.get(&key).cloned().flatten();
        if now != before {
            match &now {
                Some(n) => troubled.entry(n.clone()).or_default().push(where_(h)),
                None => ended.push(where_(h)),
            }
            said.insert(key, now);
        }
    }
    let mut err = anstream::stderr();
    for (why, watches) in &troubled {
        let _ = writeln!(
            err,
            "kubewhy: warning: cannot watch {}: {}",
            list_of(watches),
            kubewhy_report::sanitize(why)
        );
    }
    if !ended.is_empty() {
        let _ = writeln!(err, "kubewhy: the watch of {} works again", list_of(&ended));
    }
}

/// What `say_watch_trouble` last said of each watch (kind and scope).
type Said = BTreeMap<(&'static str, Option<String>), Option<String>>;

impl Service {
    /// Evaluates for ever (run it on a thread of its own): first thing, within a second of a
    /// change, and every interval.
    pub fn evaluate_forever(&self, client: &kubewhy_live::Client, rt: &tokio::runtime::Handle) {
        evaluate_loop(self, client, rt)
    }
}

fn evaluate_loop(shared: &Service, client: &kubewhy_live::Client, rt: &tokio::runtime::Handle) {
    let mut last_changes = u64::MAX;
    let mut last_eval: Option<Instant> = None;
    let mut contents = Contents::default();
    let mut said = Said::new();
    loop {
        std::thread::sleep(Duration::from_millis(250));
        let changes = shared.store.changes();
        if !due(
            last_eval.map(|t| t.elapsed()),
            changes != last_changes,
            shared.interval,
        ) {
            continue;
        }
        last_changes = changes;
        let started = Instant::now();
        shared
            .store
            .forget_events_of_gone_pods(jiff::Timestamp::now(), ORPHAN_EVENT_GRACE);
        let (snap, mut problems) = shared.store.snapshot();
        refresh_contents(&mut contents, &snap, client, rt);
        problems.extend(contents.problems.iter().cloned());
        let inputs = contents
            .pages
            .iter()
            .map(|(name, text)| kubewhy_source::Input::Text {
                name: name.clone(),
                text: text.clone(),
            })
            .collect();
        let mut loaded = kubewhy_source::load_onto(snap, inputs, Some(jiff::Timestamp::now()));
        problems.append(&mut loaded.warnings);
        let snap = &loaded.snapshot;
        let diagnosis = kubewhy_rules::diagnose(snap);
        let report = kubewhy_report::Report {
            findings: &diagnosis.findings,
            unexplained: &diagnosis.unexplained,
            warnings: &problems,
            snapshot: kubewhy_report::SnapshotInfo::of(snap, 0, true),
            summary_only: false,
        };
        let health = shared.store.health();
        let degraded = degraded(&health, shared.scoped);
        // Never "synced" from nothing: a kind the findings need that cannot be read.
        let synced = shared.store.synced() && degraded.is_empty();
        say_watch_trouble(&health, &mut said);
        let watch_problems: Vec<String> = health
            .iter()
            .filter_map(|h| match &h.status {
                WatchStatus::Starting => Some(format!("{}: still listing", where_(h))),
                _ => None,
            })
            .collect();
        let view = View {
            namespaces: kubewhy_report::namespaces_of(&diagnosis.findings, &diagnosis.unexplained),
            snapshot: report.snapshot.clone(),
            warnings: problems.clone(),
            watch_problems,
            degraded,
            synced,
            refresh_seconds: shared.interval.as_secs().max(5) as u32,
            findings: Vec::new(),
            unexplained: Vec::new(),
        };
        let html = {
            let report = kubewhy_report::Report {
                snapshot: view.snapshot.clone(),
                ..report
            };
            kubewhy_report::html_page(
                &report,
                &kubewhy_report::PageInfo {
                    refresh_seconds: view.refresh_seconds,
                    watch_problems: &view.watch_problems,
                    degraded: &view.degraded,
                    synced,
                    namespace: None,
                    namespaces: &view.namespaces,
                },
            )
        };
        let states: Vec<WatchState> = health
            .iter()
            .map(|h| WatchState {
                resource: h.resource,
                up: h.status == WatchStatus::Up,
                objects: h.objects,
                lists: h.lists,
                undecodable: h.undecodable,
                errors_by_code: h.errors_by_code.clone(),
            })
            .collect();
        shared.metrics.update(
            &diagnosis.findings,
            diagnosis.unexplained.len(),
            &states,
            synced,
            started.elapsed(),
            shared.max_namespace_labels,
            jiff::Timestamp::now(),
        );
        let view = View {
            findings: diagnosis.findings,
            unexplained: diagnosis.unexplained,
            ..view
        };
        let mut p = shared.published.write().unwrap_or_else(|p| p.into_inner());
        *p = Published {
            html,
            view: Some(Arc::new(view)),
            at: Some(Instant::now()),
        };
        drop(p);
        drop(loaded);
        release_free_memory();
        last_eval = Some(Instant::now());
    }
}

/// glibc gives each thread that allocates its own arena, and memory freed in one is not reused
/// by another: with the watches and the evaluation on different threads, the resident size was
/// 145 MiB instead of 100 MiB for 5,000 watched pods (bench/live.py). One arena is plenty for a
/// process that is idle between evaluations.
///
/// And a fixed threshold for allocating blocks of their own (`mmap`): by default glibc raises it
/// to the size of each such block freed, so after the first evaluation its large tables (the
/// snapshot's lists and indexes, the events rebuilt from the store) land in the heap between
/// what the watches keep, and stay resident after they are freed: 2,167 B per watched pod after
/// evaluating instead of 1,962 B (`watch-memory`, two events per pod).
pub fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes allocator tuning; it is called before any other thread runs.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
        libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
    }
}

/// Hands the memory an evaluation freed (its copy of the snapshot, the diagnosis) back to the
/// system: glibc's allocator keeps freed memory otherwise, and the resident size would stay at
/// the evaluation's high-water mark instead of what the watches hold.
fn release_free_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free heap pages to the kernel; it has no preconditions.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// `pods`, `pods and events`, or `24 kinds (nodes, namespaces, … replicasets)`.
fn list_of(watches: &[String]) -> String {
    match watches {
        [one] => one.clone(),
        [a, b] => format!("{a} and {b}"),
        many if many.len() <= 4 => many.join(", "),
        many => format!(
            "{} kinds ({}, … {})",
            many.len(),
            many[..3].join(", "),
            many[many.len() - 1]
        ),
    }
}

/// `pods` or `pods in shop`.
pub(crate) fn where_(h: &WatchHealth) -> String {
    match &h.scope {
        Some(ns) => format!("{} in {ns}", h.resource),
        None => h.resource.to_string(),
    }
}

/// Without these, watch mode would answer "nothing is stuck" from nothing: pods and their
/// events, and — watching the whole cluster — the nodes they run on and the namespaces they
/// live in. Other kinds sharpen the answers; what cannot be read of them is said on the page
/// and in /findings, and the checks that need them run without them.
const NEEDED: &[&str] = &["pods", "events", "nodes", "namespaces"];

/// The watches the findings need and that cannot be read or keep failing: what makes watch
/// mode degraded (503 on /healthz, a banner on the page) instead of healthy with nothing. With
/// `watch -n`, the namespaces' own pods and events.
pub(crate) fn degraded(health: &[WatchHealth], scoped: bool) -> Vec<String> {
    health
        .iter()
        .filter(|h| NEEDED.contains(&h.resource) && (!scoped || h.scope.is_some()))
        .filter_map(|h| match &h.status {
            WatchStatus::Forbidden(e) => Some(format!("{}: not readable: {e}", where_(h))),
            _ => failing(h).map(|e| format!("{}: failing: {e}", where_(h))),
        })
        .collect()
}

/// A watch's failure that is trouble, not a blip: it has never listed, or the API server
/// refuses it (401, 403, 429 …) and retrying does not help.
fn failing(h: &WatchHealth) -> Option<&str> {
    match &h.status {
        WatchStatus::Failing(e) if h.lists == 0 || e.starts_with("HTTP 4") => Some(e),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn evaluation_follows_changes_within_a_second_and_time_alone_every_interval() {
        let s = Duration::from_secs;
        let i = s(5);
        assert!(due(None, false, i), "first thing");
        assert!(
            !due(Some(Duration::from_millis(300)), true, i),
            "changes batch for 1 s"
        );
        assert!(due(Some(s(1)), true, i));
        assert!(
            !due(Some(s(4)), false, i),
            "nothing changed, interval not over"
        );
        assert!(
            due(Some(s(5)), false, i),
            "a grace period may have run out meanwhile"
        );
    }
}
