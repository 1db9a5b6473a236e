//! Node log messages: what a kubelet, runtime or kernel line says, as a [`Signal`] with a
//! detail — stop and kill failures and timeouts, a runtime that does not know a container,
//! unmount failures and orphaned volumes, PLEG, OOM kills, hung tasks, client-side throttling,
//! the kubelet's reclaim checks (kubernetes-messages.md §2.5, §2.8, §2.9).

use crate::node::Signal;
use regex::Regex;
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// `container "…": not found`, `sandbox …: not found`, `task …: not found`.
static UNKNOWN_OBJECT: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?:container|sandbox|task)[^:]{0,120}: not found"));
static PLEG: LazyLock<Regex> =
    LazyLock::new(|| re(r"pleg was last seen active ([0-9hms.µ]+) ago; threshold is ([0-9hms.]+)"));
static OOM_CONSTRAINT: LazyLock<Regex> =
    LazyLock::new(|| re(r"oom-kill:constraint=(\w+).*?task_memcg=([^,\s]*)(?:,task=([^,]*))?"));
static THROTTLED: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:Waited for|Throttling request took) ([0-9.]+(?:ms|s|µs|m))\b.*?, request: (\S+)")
});

/// Words one of which every line that can matter holds.
const WORDS: &[&str] = &[
    "Container",
    "container",
    "Sandbox",
    "Unmount",
    "unmount",
    "busy",
    "rphaned pod",
    "PLEG",
    "oom",
    "OOM",
    "Out of memory",
    "out of memory",
    "Killed process",
    "Pod is terminated",
    "unregister_netdevice",
    "blocked for more than",
    "throttling",
    "Throttling request",
    "mirror pod",
    "runtime",
    "killed as a result of limit",
    "docker daemon",
    "Docker daemon",
];

/// The words as one automaton: a single pass over each line.
static MAY_MATTER: LazyLock<Regex> = LazyLock::new(|| {
    re(&WORDS
        .iter()
        .map(|w| regex::escape(w))
        .collect::<Vec<_>>()
        .join("|"))
});

/// Cheap test before any other regex: a line can only matter if it holds one of `WORDS`.
pub fn may_matter(l: &str) -> bool {
    MAY_MATTER.is_match(l)
}

/// What a log message says, and a detail.
pub fn classify(msg: &str) -> Option<(Signal, String)> {
    if let Some(p) = pleg(msg) {
        return Some(p);
    }
    // The reclaim checks' line says nothing else.
    if msg.contains("is terminated, but ") {
        return reclaim_check(msg);
    }
    cleanup(msg)
        .or_else(|| stopping(msg))
        .or_else(|| runtime_or_oom(msg))
        .or_else(|| other(msg))
}

/// The kubelet's pod lifecycle event generator.
fn pleg(m: &str) -> Option<(Signal, String)> {
    if let Some(c) = PLEG.captures(m) {
        return Some((
            Signal::PlegUnhealthy,
            format!("last relist {} ago, threshold {}", &c[1], &c[2]),
        ));
    }
    if m.contains("pleg has yet to be successful") {
        return Some((
            Signal::PlegUnhealthy,
            "no relist has succeeded yet (the kubelet is starting)".into(),
        ));
    }
    if m.contains("PLEG is not healthy") {
        return Some((Signal::PlegUnhealthy, String::new()));
    }
    None
}

/// The kubelet's reclaim checks of a terminated pod: what is not cleaned up yet.
fn reclaim_check(m: &str) -> Option<(Signal, String)> {
    let s = if m.contains("containers are still running") {
        Signal::CleanupContainers
    } else if m.contains("container status has not yet been reported") {
        Signal::CleanupStatus
    } else if m.contains("volumes have not been cleaned up") {
        Signal::CleanupVolumes
    } else if m.contains("cgroup sandbox has not been cleaned up") {
        Signal::CleanupCgroup
    } else {
        return None;
    };
    Some((s, String::new()))
}

/// Orphaned and unmountable volumes.
fn cleanup(m: &str) -> Option<(Signal, String)> {
    if m.contains("rphaned pod") && (m.contains("volume") || m.contains("Volume")) {
        return Some((Signal::OrphanedVolumes, String::new()));
    }
    if m.contains("UnmountVolume.TearDown failed")
        || m.contains("UnmountVolume failed")
        || m.contains("UnmountDevice failed")
        || m.contains("error cleaning subPath mounts")
        || ((m.contains("device or resource busy") || m.contains("target is busy"))
            && (m.contains("nmount") || m.contains("volume") || m.contains("/pods/")))
    {
        return Some((Signal::UnmountFailed, String::new()));
    }
    None
}

/// Stopping and killing containers: a failing stop, or a runtime that does not know the
/// container.
fn stopping(m: &str) -> Option<(Signal, String)> {
    let stop_call = m.contains("StopContainer")
        || m.contains("KillContainer")
        || m.contains("StopPodSandbox")
        || m.contains("KillPodSandbox")
        || m.contains("termination failed with gracePeriod")
        || m.contains("Kill container failed")
        || m.contains("killPodWithSyncResult failed")
        || m.contains("failed to stop container")
        || m.contains("failed to kill container");
    // containerd logs each stop at info level with its "timeout 2 (s)": not a failure.
    let informational = m.contains("level=info") || m.contains("level=debug");
    let failed = !informational
        && (m.contains("fail")
            || m.contains("error")
            || m.contains("Error")
            || m.contains("operation timeout")
            || m.contains("timed out")
            || m.contains("deadline exceeded"));
    // The runtime does not know the container itself (not a network or a plugin it cannot
    // find while tearing down: that is a failing stop).
    let unknown = m.contains("No such container")
        || m.contains("code = NotFound")
        || (m.contains("not found") && UNKNOWN_OBJECT.is_match(m));
    // docker still lists a container that containerd no longer has (`docker exec`, `docker
    // stop` answered by containerd): the two runtimes disagree.
    if m.contains("No ref for container")
        || m.contains("containerd: container not found")
        || (stop_call && failed && unknown)
    {
        return Some((Signal::UnknownContainer, String::new()));
    }
    if stop_call && failed && !m.contains("returns successfully") {
        let detail = if m.contains("deadline exceeded")
            || m.contains("operation timeout")
            || m.contains("timed out")
        {
            "timed out"
        } else {
            "failed"
        };
        return Some((Signal::StopFailed, detail.into()));
    }
    None
}

/// The runtime down; the kernel's or the kubelet's OOM kills.
fn runtime_or_oom(m: &str) -> Option<(Signal, String)> {
    if m.contains("container runtime is down")
        || m.contains("Cannot connect to the Docker daemon")
        || (m.contains("containerd.sock") && m.contains("connection refused"))
        || (m.contains("dockershim.sock") && m.contains("connection refused"))
    {
        return Some((Signal::RuntimeDown, String::new()));
    }
    if let Some(c) = OOM_CONSTRAINT.captures(m) {
        let scope = match &c[1] {
            "CONSTRAINT_MEMCG" => "the container's memory limit (cgroup)",
            "CONSTRAINT_NONE" => "the node out of memory (system-wide)",
            other => other,
        };
        return Some((Signal::OomKill, format!("{scope}; memcg {}", &c[2])));
    }
    if m.contains("Memory cgroup out of memory") {
        return Some((
            Signal::OomKill,
            "the container's memory limit (cgroup)".into(),
        ));
    }
    if m.contains("Out of memory: Kill") || m.contains("Out of memory: Killed") {
        return Some((
            Signal::OomKill,
            "the node out of memory (system-wide)".into(),
        ));
    }
    if m.contains("System OOM encountered") {
        return Some((Signal::OomKill, "the node out of memory (kubelet)".into()));
    }
    None
}

/// Kernel hangs, client throttling, mirror pods.
fn other(m: &str) -> Option<(Signal, String)> {
    if m.contains("unregister_netdevice: waiting for") {
        return Some((Signal::NetdevHang, String::new()));
    }
    if m.contains("blocked for more than") && m.contains("task ") {
        return Some((Signal::HungTask, String::new()));
    }
    if let Some(c) = THROTTLED.captures(m) {
        return Some((
            Signal::ClientThrottled,
            format!("waited {} for {}", &c[1], &c[2]),
        ));
    }
    if m.contains("mirror pod")
        && (m.contains("ailed") || m.contains("nable to") || m.contains("error"))
    {
        return Some((Signal::MirrorPod, String::new()));
    }
    None
}
