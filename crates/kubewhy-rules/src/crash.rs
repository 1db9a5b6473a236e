//! Containers that start and die: the last termination record (reason, exit code, signal),
//! liveness/startup probe kills from events, and the last log lines when the input has them.

use crate::Findings;
use crate::podinfo::PodInfo;
use crate::{Check, Ctx};
use kubewhy_model::objects::{ContainerStatus, StateTerminated};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, RiskLevel, Severity};
use regex::Regex;
use std::collections::{BTreeSet, HashMap};
use std::sync::LazyLock;

pub(crate) struct Crash;

const CAUSES: &[Cause] = &[
    Cause::OomKilled,
    Cause::LivenessProbeFailing,
    Cause::CommandNotFound,
    Cause::AppExitError,
    Cause::KilledBySignal,
    Cause::ContainerStartFailed,
    Cause::DependencyUnreachable,
    Cause::PodNetworkBroken,
    Cause::ImagePlatformMismatch,
    Cause::CompletedButRestarted,
    Cause::LifecycleHookFailed,
];

/// Restarts from which a container that is running again still counts as crash-looping.
const FLAPPING_RESTARTS: i64 = 3;
/// Log lines quoted as evidence.
const LOG_LINES: usize = 5;

fn signal_name(sig: i64) -> &'static str {
    match sig {
        1 => "SIGHUP",
        2 => "SIGINT",
        3 => "SIGQUIT",
        4 => "SIGILL",
        6 => "SIGABRT",
        7 => "SIGBUS",
        8 => "SIGFPE",
        9 => "SIGKILL",
        11 => "SIGSEGV",
        13 => "SIGPIPE",
        15 => "SIGTERM",
        _ => "signal",
    }
}

impl Check for Crash {
    fn name(&self) -> &'static str {
        "crash"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        let network = cut_off_by_node(ctx);
        for pod in &ctx.snap.pods {
            let info = PodInfo::new(pod);
            if info.is_terminating() {
                continue;
            }
            for (cs, init) in info.statuses() {
                if crashes(cs, ctx.now)
                    || completes_again(&info, cs, init)
                    || killed_by_probe(ctx, &info, cs)
                {
                    check_container(ctx, &info, cs, init, &network, out);
                }
            }
        }
    }
}

/// Whether a container crash-loops, or has restarted often after failing and has not
/// recovered: one running and ready whose last failure ended over an hour before the snapshot
/// (`node::HISTORY_AFTER`) is healthy now; its restarts are history.
fn crashes(cs: &ContainerStatus, now: jiff::Timestamp) -> bool {
    let waiting = cs.state.waiting.as_ref().map(|w| w.reason.as_str());
    let crash_looping = matches!(
        waiting,
        Some(
            "CrashLoopBackOff"
                | "RunContainerError"
                | "CreateContainerError"
                | "PostStartHookError"
        )
    );
    // An OOM kill is a failure whatever code the runtime recorded (old Docker said 0).
    let flapping = cs.restart_count >= FLAPPING_RESTARTS
        && cs
            .last_state
            .terminated
            .as_ref()
            .is_some_and(|t| t.exit_code.is_some_and(|c| c != 0) || t.reason == "OOMKilled");
    let recovered = cs.ready
        && cs.state.running.is_some()
        && cs
            .last_state
            .terminated
            .as_ref()
            .and_then(|t| t.finished_at)
            .is_some_and(|f| now.duration_since(f) > crate::node::HISTORY_AFTER);
    // Between two runs: it has restarted, and has just ended with an error once more (a
    // snapshot taken before the back-off shows `state.terminated`, not CrashLoopBackOff).
    let between_runs = cs.restart_count >= 1
        && cs
            .state
            .terminated
            .as_ref()
            .is_some_and(|t| t.exit_code.is_some_and(|c| c != 0) || t.reason == "Error");
    crash_looping || between_runs || (flapping && !recovered)
}

/// Whether a container has restarted because the kubelet killed it for a failing liveness or
/// startup probe: between two such kills it runs, neither in back-off nor ended.
fn killed_by_probe(ctx: &Ctx, info: &PodInfo, cs: &ContainerStatus) -> bool {
    cs.restart_count >= 1
        && ctx
            .snap
            .events_for("Pod", &info.pod.metadata)
            .iter()
            .any(|e| killed_for_probe(e, &cs.name))
}

/// The kubelet's `Killing` event for a container whose liveness or startup probe failed.
fn killed_for_probe(e: &kubewhy_model::objects::Event, container: &str) -> bool {
    e.reason == "Killing"
        && (e.message.contains("failed liveness probe")
            || e.message.contains("failed startup probe"))
        && e.message.contains(&format!("Container {container}"))
}

/// Whether a container that finishes with exit code 0 is started again and again: its restart
/// policy restarts it whatever the code, it has restarted, and it is in back-off or has just
/// finished once more (a describe between two runs shows `State: Terminated, Completed`).
fn completes_again(info: &PodInfo, cs: &ContainerStatus, init: bool) -> bool {
    // Reason `Error` is the kubelet's word for a non-zero exit: a `get` row shows it without
    // the code (read as 0).
    let ended_ok = |t: &Option<Box<StateTerminated>>| {
        t.as_ref().is_some_and(|t| {
            t.exit_code == Some(0) && !matches!(t.reason.as_str(), "Error" | "OOMKilled")
        })
    };
    cs.restart_count >= 1
        && restarted_always(info, cs, init)
        && (ended_ok(&cs.state.terminated)
            || (ended_ok(&cs.last_state.terminated)
                && cs
                    .state
                    .waiting
                    .as_ref()
                    .is_some_and(|w| w.reason == "CrashLoopBackOff")))
}

/// Per node, the pods whose crashing containers' last words are a Service IP timing out: with
/// two or more on one node, the node's Service routing is what is broken (pod-network-broken, one
/// finding for the node); one alone is a dependency that does not answer it.
fn cut_off_by_node<'s>(ctx: &Ctx<'s>) -> HashMap<&'s str, BTreeSet<&'s str>> {
    let mut by_node: HashMap<&str, BTreeSet<&str>> = HashMap::new();
    for pod in &ctx.snap.pods {
        let Some(node) = pod.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
            continue;
        };
        let info = PodInfo::new(pod);
        if info.is_terminating() {
            continue;
        }
        let cut_off = info.statuses().any(|(cs, init)| {
            crashes(cs, ctx.now)
                && crashing(ctx, &info, cs, init)
                    .is_some_and(|c| c.cause == Cause::PodNetworkBroken)
        });
        if cut_off {
            by_node
                .entry(node)
                .or_default()
                .insert(pod.metadata.name.as_str());
        }
    }
    by_node
}

/// A crashing container and what its status, events and log say.
struct Crashing<'a> {
    info: &'a PodInfo<'a>,
    cs: &'a ContainerStatus,
    /// `containerStatuses` or `initContainerStatuses`.
    list: &'static str,
    /// The termination that explains the crash, and the field it is read from.
    term: Option<&'a StateTerminated>,
    field: String,
    waiting: Option<&'a kubewhy_model::objects::StateWaiting>,
    probe_kill: Option<&'a kubewhy_model::objects::Event>,
    /// The kubelet's word that the container's postStart hook failed.
    hook_failure: Option<&'a kubewhy_model::objects::Event>,
    log: Option<&'a kubewhy_model::objects::ContainerLog>,
    recognised: Option<crate::loglines::Recognised>,
    limit: Option<kubewhy_model::objects::Str>,
    cause: Cause,
}

fn check_container(
    ctx: &Ctx,
    info: &PodInfo,
    cs: &ContainerStatus,
    init: bool,
    network: &HashMap<&str, BTreeSet<&str>>,
    out: &mut Findings,
) {
    let Some(mut c) = crashing(ctx, info, cs, init) else {
        return;
    };
    let node = info.pod.spec.node_name.as_deref().unwrap_or("");
    let cut_off = network.get(node).filter(|pods| pods.len() >= 2);
    if c.cause == Cause::PodNetworkBroken && cut_off.is_none() {
        c.cause = Cause::DependencyUnreachable;
    }
    let (snap, cause, term) = (ctx.snap, c.cause, c.term);
    let (summary, group) = match cut_off {
        // Pods failing with the same line on one node: one finding, the node's.
        Some(pods) if cause == Cause::PodNetworkBroken => (
            format!(
                "Pods on node {node} cannot reach Service IPs: {} of them exit on the same timeout",
                pods.len()
            ),
            format!("pod-network|{node}"),
        ),
        _ if init && info.container(&cs.name).is_some_and(|c| c.is_sidecar()) => (
            // A sidecar runs beside the app for the pod's whole life: its crash is its own.
            summary(cause, &cs.name, term, c.limit.as_deref()).replacen(
                "Container ",
                "Sidecar container ",
                1,
            ),
            format!("{}|{}|sidecar", info.owner_key(snap), cs.name),
        ),
        _ => (
            summary(cause, &cs.name, term, c.limit.as_deref()),
            format!(
                "{}|{}|{}",
                info.owner_key(snap),
                cs.name,
                term.and_then(|t| t.exit_code).unwrap_or(-1)
            ),
        ),
    };
    // Nothing failed when a finished process is merely started again.
    let severity = if cause == Cause::CompletedButRestarted {
        Severity::Warning
    } else {
        Severity::Error
    };
    let mut f = Finding::new(cause, severity, summary)
        .object(info.key.clone())
        .group(group);
    f = evidence(&c, f);
    if term.is_none() && cause != Cause::LivenessProbeFailing {
        f = f.confidence(Confidence::Medium);
    }
    // "It exits by itself" without its output: a dependency that refuses is as likely as a bug.
    if cause == Cause::AppExitError && c.log.is_none() {
        f = f.confidence(Confidence::Medium);
    }
    let mut explanation = explain(cause, &cs.name, term, c.limit.as_deref(), cs.restart_count);
    if let Some(r) = &c.recognised {
        explanation.push(' ');
        explanation.push_str(&r.advice);
        if r.name == "service-ip-timeout" && cause == Cause::DependencyUnreachable {
            explanation.push_str(&format!(
                " No other pod on {} fails the same way in the data: if others there do, the node's Service routing is broken (pod-network-broken); if pods elsewhere reach the Service, look at this pod's own network policy and DNS settings.",
                if node.is_empty() { "its node" } else { node }
            ));
        }
    }
    f = remediation(f.explain(explanation), ctx, info, cause, &cs.name);
    if let Some(r) = c.recognised {
        let (action, command, risk, note) = r.step;
        f = f.step_at(1, action, command, risk, note);
    }
    out.push(f);
}

/// What the container's status, events and log say; `None` when nothing explains the crash
/// (it is listed as unexplained) or the node restarted under it.
/// Whether a log's last lines hold one an application writes when it gives up: an error, a
/// fatal, a panic, an uncaught exception.
fn gives_up(tail: &[String]) -> bool {
    static GIVES_UP: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(
            r"(?i)\b(?:error|fatal|panic|exception|traceback)\b|^E! |^[EF]\d{4} |level=(?:error|fatal)",
        )
        .expect("gives-up pattern")
    });
    tail.iter().rev().take(20).any(|l| GIVES_UP.is_match(l))
}

fn crashing<'a, 's: 'a>(
    ctx: &Ctx<'s>,
    info: &'a PodInfo<'a>,
    cs: &'a ContainerStatus,
    init: bool,
) -> Option<Crashing<'a>> {
    let snap = ctx.snap;
    let list = if init {
        "initContainerStatuses"
    } else {
        "containerStatuses"
    };
    // The previous run explains the crash; the current one does when it already ended.
    let (term, field) = match (&cs.last_state.terminated, &cs.state.terminated) {
        (Some(t), _) => (
            Some(&**t),
            format!("status.{list}[{}].lastState.terminated", cs.name),
        ),
        (None, Some(t)) => (
            Some(&**t),
            format!("status.{list}[{}].state.terminated", cs.name),
        ),
        _ => (None, String::new()),
    };
    let waiting = cs.state.waiting.as_ref();
    let events = snap.events_for("Pod", &info.pod.metadata);
    let probe_kill = events.iter().rev().find(|e| {
        killed_for_probe(e, &cs.name)
            || (e.reason == "Unhealthy"
                && (e.message.starts_with("Liveness probe")
                    || e.message.starts_with("Startup probe")))
    });
    let start_error = waiting
        .filter(|w| w.reason == "RunContainerError" || w.reason == "CreateContainerError")
        .map(|w| {
            // A waiting state without its message (a `get` row): the kubelet's `Failed` event
            // carries the runtime's error.
            if w.message.is_empty()
                && let Some(e) = events
                    .iter()
                    .rev()
                    .find(|e| e.reason == "Failed" && e.message.starts_with("Error: "))
            {
                e.message.clone()
            } else {
                w.message.clone()
            }
        })
        .or_else(|| {
            term.filter(|t| t.reason == "StartError" || t.reason == "ContainerCannotRun")
                .map(|t| t.message.clone())
        });

    let container = info.container(&cs.name);
    // A postStart hook that fails gets the container killed (exit code 137 or 143, or whatever
    // it ended with) and restarted: the hook is the cause, not the signal.
    let hook_failure = events.iter().rev().find(|e| {
        e.reason == "FailedPostStartHook"
            && (e.container() == Some(cs.name.as_str())
                || e.message
                    .contains(&format!("for Container \"{}\"", cs.name))
                || (e.container().is_none()
                    && container.is_some_and(|c| c.lifecycle.post_start)
                    && info
                        .pod
                        .spec
                        .containers
                        .iter()
                        .filter(|c| c.lifecycle.post_start)
                        .count()
                        == 1))
    });
    let hook_waiting = waiting.is_some_and(|w| w.reason == "PostStartHookError");
    let cause = match crash_cause(term, start_error.as_ref(), probe_kill.is_some()) {
        Some(Cause::OomKilled) => Cause::OomKilled,
        _ if hook_failure.is_some() || hook_waiting => Cause::LifecycleHookFailed,
        Some(Cause::AppExitError)
            if term.is_some_and(|t| t.exit_code == Some(0)) && completes_again(info, cs, init) =>
        {
            Cause::CompletedButRestarted
        }
        c => c?,
    };
    // The application's last words name a more precise cause: a dependency that does not
    // answer, Service IPs unreachable from the node, a binary for another architecture.
    let log = snap.logs_for(info.ns(), info.name(), &cs.name);
    let recognised = log
        .filter(|_| cause == Cause::AppExitError)
        .and_then(|log| crate::loglines::recognise(&log.tail, info.ns()));
    // Without a termination record, the output it gave up with (`E! Error: no outputs found`)
    // is what shows the application exits by itself.
    let gave_up = cause == Cause::AppExitError && log.is_some_and(|l| gives_up(&l.tail));
    if term.is_none()
        && start_error.is_none()
        && probe_kill.is_none()
        && recognised.is_none()
        && !gave_up
        && cause != Cause::LifecycleHookFailed
    {
        return None; // nothing to decode: reported as unexplained
    }
    let cause = recognised.as_ref().and_then(|r| r.cause).unwrap_or(cause);

    let limit = container
        .and_then(|c| c.resources.limits.get("memory"))
        .map(|q| q.0.clone());
    Some(Crashing {
        info,
        cs,
        list,
        term,
        field,
        waiting: waiting.map(|w| &**w),
        probe_kill: probe_kill.copied(),
        hook_failure: hook_failure.copied(),
        log,
        recognised,
        limit,
        cause,
    })
}

/// The evidence: the waiting state, the termination, restarts, the memory limit of an OOM
/// kill, the probe's event, the last log lines and the line recognised among them.
fn evidence(c: &Crashing, mut f: Finding) -> Finding {
    let (info, cs, list, term, cause) = (c.info, c.cs, c.list, c.term, c.cause);
    let (field, limit, log) = (&c.field, &c.limit, c.log);
    if let Some(w) = c.waiting {
        let quote = if w.message.is_empty() {
            w.reason.to_string()
        } else {
            format!("{}: {}", w.reason, w.message)
        };
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            format!("status.{list}[{}].state.waiting", cs.name),
            quote,
        );
    }
    if let Some(t) = term {
        let mut quote = format!(
            "reason={}{}",
            if t.reason.is_empty() {
                "(none)"
            } else {
                &t.reason
            },
            t.exit_code
                .map(|c| format!(" exitCode={c}"))
                .unwrap_or_default()
        );
        if let Some(s) = t.signal.filter(|s| *s > 0) {
            quote.push_str(&format!(" signal={s}"));
        }
        if !t.message.is_empty() && t.reason != "OOMKilled" {
            quote.push_str(&format!(" message={:?}", t.message.trim()));
        }
        f = f.evidence(EvidenceKind::Field, Some(&info.key), field.clone(), quote);
    }
    f = f.evidence(
        EvidenceKind::Field,
        Some(&info.key),
        format!("status.{list}[{}].restartCount", cs.name),
        cs.restart_count.to_string(),
    );
    if cause == Cause::OomKilled
        && let Some(l) = &limit
    {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            format!("spec.containers[{}].resources.limits.memory", cs.name),
            l.clone(),
        );
    }
    if let Some(e) = c.probe_kill {
        f = f.event(Some(&info.key), e);
    }
    if let Some(e) = c.hook_failure {
        f = f.event(Some(&info.key), e);
    }
    if cause == Cause::LifecycleHookFailed
        && info
            .container(&cs.name)
            .is_some_and(|c| c.lifecycle.post_start)
    {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            format!(
                "spec.{}[{}].lifecycle.postStart",
                if list == "initContainerStatuses" {
                    "initContainers"
                } else {
                    "containers"
                },
                cs.name
            ),
            "set",
        );
    }
    if cause == Cause::CompletedButRestarted {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            "spec.restartPolicy",
            info.pod
                .spec
                .restart_policy
                .as_deref()
                .unwrap_or("Always (the default)"),
        );
    }
    if let Some(log) = log {
        let lines: Vec<&String> = log.tail.iter().filter(|l| !l.trim().is_empty()).collect();
        let last = &lines[lines.len().saturating_sub(LOG_LINES)..];
        if !last.is_empty() {
            let quote = last
                .iter()
                .map(|s| s.as_str())
                .collect::<Vec<_>>()
                .join("\n");
            f = f.evidence(
                EvidenceKind::Log,
                Some(&info.key),
                format!("last log lines of container {} ({})", cs.name, log.origin),
                quote,
            );
        }
    }
    if let Some(r) = &c.recognised {
        f = f.evidence(
            EvidenceKind::Log,
            Some(&info.key),
            format!("recognised log line ({}) of container {}", r.name, cs.name),
            r.line.clone(),
        );
    }
    f
}

/// Whether the kubelet restarts the container whatever its exit code: the pod's restartPolicy is
/// Always (the default; every Deployment, StatefulSet, DaemonSet), or it is a sidecar.
fn restarted_always(info: &PodInfo, cs: &ContainerStatus, init: bool) -> bool {
    if init {
        return info.container(&cs.name).is_some_and(|c| c.is_sidecar());
    }
    match info.pod.spec.restart_policy.as_deref() {
        Some(p) => p == "Always",
        // Not in the data (a describe does not show it): Always, unless a Job owns the pod (a
        // Job's pods cannot have it).
        None => info
            .pod
            .metadata
            .controller()
            .is_none_or(|o| o.kind != "Job"),
    }
}

/// What one termination record alone says (a Job's failed pod, which does not crash-loop).
pub(crate) fn termination_cause(t: &StateTerminated) -> Option<Cause> {
    crash_cause(Some(t), None, false)
}

/// The crash's cause from its termination record, its start error and a probe's kill; `None`
/// when the node or its runtime restarted under the container (`node` says so).
fn crash_cause(
    term: Option<&StateTerminated>,
    start_error: Option<&kubewhy_model::objects::Str>,
    probe_kill: bool,
) -> Option<Cause> {
    Some(match (term, start_error) {
        // The node or its runtime restarted under the container: `node` says so.
        (Some(t), None) if crate::node::lost_to_restart(t) => return None,
        (Some(t), _) if t.reason == "OOMKilled" => Cause::OomKilled,
        // runc's init killed for memory while the container starts (a limit of a few MiB).
        (_, Some(m)) if m.contains("container init was OOM-killed") => Cause::OomKilled,
        (_, Some(m))
            if m.contains("executable file not found")
                || m.contains("no such file or directory") && m.contains("exec") =>
        {
            Cause::CommandNotFound
        }
        (Some(t), _) if t.exit_code == Some(127) => Cause::CommandNotFound,
        // An image the node cannot run, in the runtime's words the catalogue knows (hcsshim: a
        // Windows image of another Windows version than the host's).
        (_, Some(m))
            if kubewhy_model::messages::known::find(m)
                .is_some_and(|(e, _)| e.cause == Cause::ImagePlatformMismatch) =>
        {
            Cause::ImagePlatformMismatch
        }
        (_, Some(_)) => Cause::ContainerStartFailed,
        (Some(t), _) if probe_kill && matches!(t.exit_code, Some(137 | 143 | 0 | 2)) => {
            Cause::LivenessProbeFailing
        }
        // 128 + a signal number (1-64); 255 is a program's own exit(-1), as klog.Fatal does.
        (Some(t), _)
            if t.exit_code.is_some_and(|c| (129..=192).contains(&c))
                || t.signal.is_some_and(|s| s > 0) =>
        {
            Cause::KilledBySignal
        }
        (Some(_), _) => Cause::AppExitError,
        (None, None) if probe_kill => Cause::LivenessProbeFailing,
        // No termination record: its output may still say why.
        (None, None) => Cause::AppExitError,
    })
}

fn summary(cause: Cause, c: &str, t: Option<&StateTerminated>, limit: Option<&str>) -> String {
    let known = t.and_then(|t| t.exit_code);
    let code = known.unwrap_or(0);
    match cause {
        Cause::OomKilled => match limit {
            Some(l) => format!("Container \"{c}\" is killed for exceeding its {l} memory limit"),
            None => format!("Container \"{c}\" is killed for running out of memory"),
        },
        Cause::LivenessProbeFailing => {
            format!("Container \"{c}\" is restarted because its liveness probe fails")
        }
        Cause::CommandNotFound => {
            format!("Container \"{c}\"'s command does not exist in the image")
        }
        Cause::KilledBySignal => {
            let sig = t
                .and_then(|t| t.signal)
                .filter(|s| *s > 0)
                .unwrap_or(code - 128);
            format!(
                "Container \"{c}\" is killed by {} (exit code {code})",
                signal_name(sig)
            )
        }
        Cause::ContainerStartFailed => format!("The runtime cannot start container \"{c}\""),
        Cause::DependencyUnreachable => format!(
            "Container \"{c}\" exits because something it needs does not answer{}",
            t.and_then(|t| t.exit_code)
                .map(|c| format!(" (exit code {c})"))
                .unwrap_or_default()
        ),
        Cause::PodNetworkBroken => {
            format!("Container \"{c}\" cannot reach Service IPs from its node and exits")
        }
        Cause::ImagePlatformMismatch => {
            format!("Container \"{c}\"'s image is built for another CPU architecture")
        }
        Cause::CompletedButRestarted => format!(
            "Container \"{c}\" finishes successfully (exit code 0) and is started again and again: its restartPolicy is Always"
        ),
        Cause::LifecycleHookFailed => {
            format!(
                "Container \"{c}\"'s postStart hook fails, so the kubelet kills and restarts it"
            )
        }
        // The data may not show the exit at all (a `get pods` row): no code is then said.
        _ if known.is_none() => format!("Container \"{c}\" exits and is restarted over and over"),
        _ if code == 0 => {
            format!("Container \"{c}\" exits (code 0) and is restarted over and over")
        }
        _ => format!("Container \"{c}\" exits with code {code} and is restarted over and over"),
    }
}

fn explain(
    cause: Cause,
    c: &str,
    t: Option<&StateTerminated>,
    limit: Option<&str>,
    restarts: i64,
) -> String {
    let known = t.and_then(|t| t.exit_code);
    let code = known.unwrap_or(0);
    let base = match cause {
        Cause::OomKilled => format!(
            "The kernel's OOM killer ended the container because its memory use reached {} (exit code 137, reason OOMKilled). It will keep happening at the same point until the limit fits the real use or the application uses less.",
            limit.map(|l| format!("its limit of {l}")).unwrap_or_else(|| "what the node could give".into())
        ),
        Cause::LivenessProbeFailing => "The kubelet restarts a container whose liveness (or startup) probe fails failureThreshold times in a row. Often the application is slow to start or overloaded, and the probe is stricter than the application can meet.".into(),
        Cause::CommandNotFound => "Exit code 127 (or the runtime's \"executable file not found\") means the command in the pod spec or the image's entrypoint is not in the image.".into(),
        Cause::KilledBySignal => format!("The process ended on signal {} (exit code {code} = 128 + signal) without an OOM kill or a probe failure on record: a crash in the program (SIGSEGV, SIGABRT) or a kill from outside the container.", code - 128),
        Cause::DependencyUnreachable => "The application exits when a dependency it connects to at start (a database, a Service, a DNS name) refuses, does not resolve or does not answer; the kubelet restarts it with a growing back-off until the dependency is there.".into(),
        Cause::PodNetworkBroken => "The pod's connections to Service IPs time out: the node's Service routing (kube-proxy or the CNI's replacement) or the pod network itself is broken there, so every pod on that node that talks to a Service fails the same way.".into(),
        Cause::ImagePlatformMismatch => "`exec format error`: the kernel cannot run the image's binary, built for another CPU architecture than the node's.".into(),
        Cause::CompletedButRestarted => "Nothing crashed: the process does its work and exits with code 0, but the pod's restartPolicy is Always (as in every Deployment, StatefulSet and DaemonSet), so the kubelet starts it again, with a growing back-off that shows as CrashLoopBackOff. Typical: a one-shot command (a migration, a script) run as a Deployment instead of a Job, a shell or entrypoint that ends, or a server that forks into the background so its foreground process exits.".into(),
        Cause::LifecycleHookFailed => "The kubelet runs a container's postStart hook right after starting it; when the hook fails (its command exits non-zero or is missing, its HTTP call fails or times out), the kubelet kills the container (event FailedPostStartHook, waiting reason PostStartHookError) and restarts it with a growing back-off. The application itself may be fine: the hook is what fails.".into(),
        Cause::ContainerStartFailed => "The container was created but the runtime could not start its process: see the message for the reason (permission denied, exec format error, read-only file system, mount target missing).".into(),
        _ if known.is_none() => "The application exits by itself (the data does not show its exit code); the kubelet restarts it with an increasing back-off (up to 5 minutes). The reason is in its own output: read the last log lines.".into(),
        _ if code == 0 => "The process finishes successfully, but the pod's restartPolicy (Always, as for every Deployment) restarts it: a long-running command is expected.".into(),
        _ => format!("The application itself exits with code {code}; the kubelet restarts it with an increasing back-off (up to 5 minutes). The reason is in its own output: read the last log lines."),
    };
    format!("{base} Container \"{c}\" has restarted {restarts} time(s).")
}

fn remediation(mut f: Finding, ctx: &Ctx, info: &PodInfo, cause: Cause, c: &str) -> Finding {
    let (ns, name, wl) = (info.ns(), info.name(), info.workload_ref(ctx.snap));
    let logs = format!("kubectl logs {name} -n {ns} -c {c} --previous");
    f = match cause {
        Cause::OomKilled => f
            .step("See how much memory it uses before dying", Some(logs), RiskLevel::None, "")
            .step(format!("Raise the memory limit (and request) of \"{c}\" in {wl}"), Some(info.spec_change(ctx.snap, &format!("set resources {{wl}} -c {c} --limits=memory=<larger>"))), RiskLevel::Low, "Rolls the workload; a larger request needs room on the nodes.")
            .step("Or make the application use less (heap flags such as -Xmx well below the limit)", None, RiskLevel::Low, ""),
        Cause::LivenessProbeFailing => f
            .step("Read the probe failures", Some(info.describe_cmd()), RiskLevel::None, "")
            .step(format!("Give the probe more slack in {wl} (initialDelaySeconds, timeoutSeconds, failureThreshold) or add a startupProbe"), None, RiskLevel::Low, "A lax probe detects a real hang later."),
        Cause::CommandNotFound => f
            .step("Check the command and the image's entrypoint", Some(format!("kubectl get pod {name} -n {ns} -o jsonpath='{{.spec.containers[?(@.name==\"{c}\")].command}}'"))
                , RiskLevel::None, "")
            .step(format!("Fix the command in {wl} or use an image that contains it"), None, RiskLevel::Low, "Rolls the workload."),
        Cause::ContainerStartFailed => f
            .step("Read the runtime's message", Some(info.describe_cmd()), RiskLevel::None, ""),
        Cause::DependencyUnreachable => f
            .step("Read what it could not reach", Some(logs), RiskLevel::None, "")
            .step("Bring the dependency up (or fix the address the application is given); the container then starts by itself", None, RiskLevel::None, "")
            .step("Make the application wait and retry at start instead of exiting (an init container that waits, or the client's retry settings)", None, RiskLevel::Low, "Rolls the workload."),
        Cause::PodNetworkBroken => f
            .step("Read what timed out", Some(logs), RiskLevel::None, "")
            .step("See which node the pod runs on, and whether pods elsewhere reach the Service", Some(format!("kubectl get pod {name} -n {ns} -o wide")), RiskLevel::None, "")
            .step("Restart kube-proxy (or the CNI agent) on that node once its logs say why it stopped programming", Some("kubectl -n kube-system delete pod -l k8s-app=kube-proxy --field-selector spec.nodeName=NODE".into()), RiskLevel::Low, "Connections through that node drop while it restarts."),
        Cause::CompletedButRestarted => f
            .step("See what it does before it exits", Some(logs), RiskLevel::None, "")
            .step(format!("Run one-shot work as a Job (or CronJob) instead of {wl}"), Some(format!("kubectl create job {c}-once -n {ns} --image=<the image> -- <the command>")), RiskLevel::Low, "")
            .step("Or keep the process in the foreground if it should run forever (no daemonizing, no `&`)", None, RiskLevel::Low, "Rolls the workload."),
        Cause::LifecycleHookFailed => f
            .step("Read the hook's error (event FailedPostStartHook; before 1.26 it carries the hook's output)", Some(info.describe_cmd()), RiskLevel::None, "")
            .step("See the hook", Some(format!("kubectl get pod {name} -n {ns} -o jsonpath='{{.spec.containers[?(@.name==\"{c}\")].lifecycle}}'")), RiskLevel::None, "")
            .step(format!("Fix the hook in {wl} (a command that exists in the image, an endpoint that answers, tolerant of a slow start) or remove it"), None, RiskLevel::Low, "Rolls the workload."),
        Cause::ImagePlatformMismatch => f
            .step("Compare the node's architecture with the image's", Some("kubectl get nodes -L kubernetes.io/arch".into()), RiskLevel::None, "")
            .step(format!("Use an image built for the node (a multi-arch tag) in {wl}, or pin the pods to matching nodes"), None, RiskLevel::Low, "Rolls the workload."),
        _ => {
            let (action, command, note) = info.restart(ctx.snap);
            f.step("Read why it exits", Some(logs), RiskLevel::None, "")
                .step(format!("Fix the application or its configuration, then {action}"), Some(command), RiskLevel::Low, note)
        }
    };
    f
}
