//! What `kubewhy watch` holds per pod, without a cluster: feeds a watch store the pods (and
//! events) that `bench/live.py` creates on the real cluster, through the same `Store::apply` the
//! watches call, then evaluates the way the watch does (snapshot, diagnose, JSON and the page)
//! and reports the heap still allocated and the resident memory, at each size.
//!
//!     cargo run --release -p kubewhy-bench --bin watch-memory -- --pods 10000,20000 --events 1
//!
//! The difference between two sizes divided by the difference in pods is the cost per watched
//! pod; `bench/live.py` measures the same on the real cluster (where the API client's buffers and
//! the HTTP server add to the resident figure).

use anyhow::{Context, Result};
use clap::Parser;
use kube::api::DynamicObject;
use kube::runtime::watcher::Event;
use serde_json::{Value, json};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering::Relaxed};

/// Counts the bytes and blocks currently allocated.
struct Counting;

static BYTES: AtomicUsize = AtomicUsize::new(0);
static BLOCKS: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);
/// `--stages`: print the heap after each step of an evaluation.
static STAGES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

fn grew(by: usize) {
    let now = BYTES.fetch_add(by, Relaxed) + by;
    PEAK.fetch_max(now, Relaxed);
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, l: Layout) -> *mut u8 {
        grew(l.size());
        BLOCKS.fetch_add(1, Relaxed);
        unsafe { System.alloc(l) }
    }
    unsafe fn dealloc(&self, p: *mut u8, l: Layout) {
        BYTES.fetch_sub(l.size(), Relaxed);
        BLOCKS.fetch_sub(1, Relaxed);
        unsafe { System.dealloc(p, l) }
    }
    unsafe fn realloc(&self, p: *mut u8, l: Layout, new: usize) -> *mut u8 {
        grew(new);
        BYTES.fetch_sub(l.size(), Relaxed);
        unsafe { System.realloc(p, l, new) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[derive(Parser)]
#[command(
    name = "watch-memory",
    about = "Memory per watched pod of kubewhy's watch store, fed without a cluster"
)]
struct Cli {
    /// Sizes to measure, each in a fresh store (comma-separated).
    #[arg(long, value_delimiter = ',', default_value = "10000,20000")]
    pods: Vec<usize>,
    /// FailedScheduling events per pod (the scheduler's, as on the real cluster).
    #[arg(long, default_value_t = 1)]
    events: usize,
    /// Evaluations after filling the store (the watch evaluates on every change).
    #[arg(long, default_value_t = 3)]
    evaluations: usize,
    /// Print the heap in use and its peak after each step of an evaluation (with --one).
    #[arg(long)]
    stages: bool,
    /// Measure the first size in this process and print it as JSON (how each size runs).
    #[arg(long, hide = true)]
    one: bool,
}

/// The pod of `bench/live.py`: shaped like a Deployment's, Pending (it selects a node label
/// nobody has).
fn pod(ns: &str, i: usize) -> Value {
    let env: Vec<Value> = (0..8)
        .map(|k| json!({"name": format!("SETTING_{k}"), "value": "x"}))
        .collect();
    json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {
            "name": format!("web-{i:06}"), "namespace": ns,
            "uid": format!("{:08x}-0000-4000-8000-{:012x}", i, i),
            "resourceVersion": format!("{}", 1000 + i),
            "creationTimestamp": "2026-11-25T10:00:00Z",
            "labels": {"app": "web", "tier": "frontend", "release": "stable", "pod-template-hash": "5d8f7c9b6"},
            "annotations": {"kubewhy.dev/bench": "true", "prometheus.io/scrape": "true"},
        },
        "spec": {
            "nodeSelector": {"kubewhy-bench": "no-such-node"},
            "schedulerName": "default-scheduler",
            "serviceAccountName": "default",
            "priority": 0,
            "terminationGracePeriodSeconds": 30,
            "tolerations": [
                {"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
                {"key": "node.kubernetes.io/unreachable", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300},
            ],
            "containers": [{
                "name": "app",
                "image": "localhost:5000/tools/busybox:1",
                "imagePullPolicy": "IfNotPresent",
                "command": ["sleep", "3600"],
                "env": env,
                "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
                "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}},
                "readinessProbe": {"httpGet": {"path": "/ready", "port": 8080}},
                "volumeMounts": [{"name": "cache", "mountPath": "/cache"}],
            }],
            "volumes": [{"name": "cache", "emptyDir": {}}],
        },
        "status": {
            "phase": "Pending",
            "qosClass": "Burstable",
            "conditions": [{
                "type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                "lastProbeTime": null, "lastTransitionTime": "2026-11-25T10:00:01Z",
                "message": "0/1 nodes are available: 1 node(s) didn't match node selector.",
            }],
        },
    })
}

fn event(ns: &str, i: usize, k: usize) -> Value {
    json!({
        "apiVersion": "v1", "kind": "Event",
        "metadata": {
            "name": format!("web-{i:06}.{k:016x}"), "namespace": ns,
            "uid": format!("{:08x}-0000-4000-9000-{:012x}", i, k),
            "resourceVersion": format!("{}", 5000 + i),
        },
        "involvedObject": {
            "kind": "Pod", "namespace": ns, "name": format!("web-{i:06}"),
            "uid": format!("{:08x}-0000-4000-8000-{:012x}", i, i),
            "apiVersion": "v1", "resourceVersion": format!("{}", 1000 + i),
        },
        "reason": "FailedScheduling",
        "message": "0/1 nodes are available: 1 node(s) didn't match node selector.",
        "source": {"component": "default-scheduler"},
        "firstTimestamp": "2026-11-25T10:00:01Z",
        "lastTimestamp": "2026-11-25T10:00:01Z",
        "count": 1,
        "type": "Warning",
        "reportingComponent": "",
        "reportingInstance": "",
    })
}

fn node() -> Value {
    json!({
        "apiVersion": "v1", "kind": "Node",
        "metadata": {"name": "node-1", "uid": "11111111-0000-4000-8000-000000000001",
                     "labels": {"kubernetes.io/hostname": "node-1"}},
        "status": {
            "allocatable": {"cpu": "2", "memory": "24Gi", "pods": "110"},
            "capacity": {"cpu": "2", "memory": "24Gi", "pods": "110"},
            "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                            "lastHeartbeatTime": "2026-11-25T10:00:00Z",
                            "lastTransitionTime": "2026-11-24T10:00:00Z"}],
        },
    })
}

fn mib(bytes: usize) -> f64 {
    bytes as f64 / (1024.0 * 1024.0)
}

fn rss() -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse::<usize>().ok())
        .map_or(0, |kb| kb * 1024)
}

/// One evaluation as `kubewhy watch` makes it; returns what the watch keeps until the next one
/// (the findings, for pages of one namespace and `/findings`, and the page).
fn evaluate(store: &kubewhy_live::store::Store) -> (kubewhy_rules::Diagnosis, String) {
    let stage = |name: &str| {
        if STAGES.load(Relaxed) {
            eprintln!(
                "{name}: in use {:.1} MiB, peak {:.1} MiB",
                mib(BYTES.load(Relaxed)),
                mib(PEAK.load(Relaxed))
            );
            PEAK.store(BYTES.load(Relaxed), Relaxed);
        }
    };
    stage("before");
    let (snap, problems) = store.snapshot();
    stage("snapshot");
    let now = "2026-11-25T12:00:00Z".parse().ok();
    let loaded = kubewhy_source::load_onto(snap, Vec::new(), now);
    let snap = &loaded.snapshot;
    stage("finish");
    let diagnosis = kubewhy_rules::diagnose(snap);
    stage("diagnose");
    let report = kubewhy_report::Report {
        findings: &diagnosis.findings,
        unexplained: &diagnosis.unexplained,
        warnings: &problems,
        snapshot: kubewhy_report::SnapshotInfo::of(snap, 0, true),
        summary_only: false,
    };
    let namespaces = kubewhy_report::namespaces_of(&diagnosis.findings, &diagnosis.unexplained);
    let html = kubewhy_report::html_page(
        &report,
        &kubewhy_report::PageInfo {
            refresh_seconds: 10,
            watch_problems: &[],
            degraded: &[],
            synced: true,
            namespace: None,
            namespaces: &namespaces,
        },
    );
    stage("html");
    // As the watch does: the snapshot goes before the free memory is handed back.
    drop(report);
    drop(loaded);
    // As the watch does after each evaluation (`release_free_memory`).
    // SAFETY: returns free heap pages to the kernel; no preconditions.
    unsafe { libc::malloc_trim(0) };
    (diagnosis, html)
}

#[derive(serde::Serialize, serde::Deserialize)]
struct Measured {
    pods: usize,
    /// Heap the store holds once filled, and its blocks.
    heap_filled: usize,
    blocks_filled: usize,
    /// Resident memory once filled.
    rss_filled: usize,
    /// The most heap in use at any moment of the evaluations.
    heap_peak: usize,
    /// Heap and resident memory after the evaluations.
    heap_after: usize,
    rss_after: usize,
    findings: usize,
}

fn measure(pods: usize, events: usize, evaluations: usize) -> Result<Measured> {
    let store = kubewhy_live::store::Store::new();
    let slot = |plural: &str| {
        store
            .index_of(plural)
            .with_context(|| format!("no watch of {plural}"))
    };
    let (pi, ei, ni) = (slot("pods")?, slot("events")?, slot("nodes")?);
    for i in 0..store.slots().len() {
        store.apply(i, &Event::Init);
        store.apply(i, &Event::InitDone);
    }
    store.set_api_version(pi, "v1");
    store.set_api_version(ei, "v1");
    store.set_api_version(ni, "v1");
    let obj = |v: Value| -> Result<DynamicObject> { Ok(serde_json::from_value(v)?) };
    store.apply(ni, &Event::Apply(obj(node())?));
    let (heap0, blocks0) = (BYTES.load(Relaxed), BLOCKS.load(Relaxed));
    for i in 0..pods {
        let ns = format!("bench-{}", i % 10);
        store.apply(pi, &Event::Apply(obj(pod(&ns, i))?));
        for k in 0..events {
            store.apply(ei, &Event::Apply(obj(event(&ns, i, k))?));
        }
    }
    let heap_filled = BYTES.load(Relaxed) - heap0;
    let blocks_filled = BLOCKS.load(Relaxed) - blocks0;
    let rss_filled = rss();
    PEAK.store(BYTES.load(Relaxed), Relaxed);
    let mut kept = None;
    for _ in 0..evaluations {
        kept = Some(evaluate(&store));
    }
    let findings = kept.as_ref().map_or(0, |(d, _)| d.findings.len());
    Ok(Measured {
        pods,
        heap_filled,
        blocks_filled,
        rss_filled,
        heap_peak: PEAK.load(Relaxed) - heap0,
        heap_after: BYTES.load(Relaxed) - heap0,
        rss_after: rss(),
        findings,
    })
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    STAGES.store(cli.stages, Relaxed);
    if cli.one {
        // As the watch does (`kubewhy_service::one_malloc_arena`, not a dependency of this
        // crate): one glibc arena for every thread, a fixed threshold for blocks of their own.
        // SAFETY: allocator tuning, before any other thread runs.
        unsafe {
            libc::mallopt(libc::M_ARENA_MAX, 1);
            libc::mallopt(libc::M_MMAP_THRESHOLD, 128 * 1024);
        }
        let m = measure(cli.pods[0], cli.events, cli.evaluations)?;
        println!("{}", serde_json::to_string(&m)?);
        return Ok(());
    }
    // Each size in a process of its own: what one size freed would hide in the next one's
    // resident figure.
    let mut rows = Vec::new();
    for &n in &cli.pods {
        let out = std::process::Command::new(std::env::current_exe()?)
            .args(["--one", "--pods", &n.to_string()])
            .args(["--events", &cli.events.to_string()])
            .args(["--evaluations", &cli.evaluations.to_string()])
            .output()?;
        anyhow::ensure!(
            out.status.success(),
            "measuring {n} pods: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        rows.push(serde_json::from_slice::<Measured>(&out.stdout)?);
    }
    println!(
        "| pods | events per pod | store heap | per pod | blocks per pod | resident, filled | heap peak evaluating | resident after {} evaluations | findings |",
        cli.evaluations
    );
    println!("|---|---|---|---|---|---|---|---|---|");
    for m in &rows {
        println!(
            "| {} | {} | {:.1} MiB | {} B | {:.1} | {:.1} MiB | {:.1} MiB | {:.1} MiB | {} |",
            m.pods,
            cli.events,
            mib(m.heap_filled),
            m.heap_filled / m.pods.max(1),
            m.blocks_filled as f64 / m.pods.max(1) as f64,
            mib(m.rss_filled),
            mib(m.heap_peak),
            mib(m.rss_after),
            m.findings
        );
    }
    if let [a, .., b] = rows.as_slice() {
        let dp = (b.pods - a.pods).max(1) as f64;
        let per = |f: fn(&Measured) -> usize| (f(b) as f64 - f(a) as f64) / dp;
        println!(
            "\nPer watched pod between {} and {} pods: store heap {:.0} B; resident {:.0} B filled, {:.0} B after evaluating (evaluation's heap peak {:.0} B).",
            a.pods,
            b.pods,
            per(|m| m.heap_filled),
            per(|m| m.rss_filled),
            per(|m| m.rss_after),
            per(|m| m.heap_peak),
        );
    }
    Ok(())
}
