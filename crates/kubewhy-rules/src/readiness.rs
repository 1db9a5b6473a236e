//! Pods that run but never become Ready because their readiness probe fails: the container is
//! running and not restarting (a failing readiness probe never restarts it), `ready` is false,
//! and the kubelet's `Unhealthy` events say `Readiness probe failed: …` with the probe's output.
//! The pod gets no Service traffic and blocks rollouts. When its liveness probe fails too
//! (`Liveness probe failed: …` beside them), the container is unhealthy, not merely unready: the
//! kubelet restarts it once that probe's threshold is met, so the finding is the liveness probe.

use crate::Findings;
use crate::podinfo::{PodInfo, human_duration};
use crate::{Check, Ctx};
use kubewhy_model::objects::ContainerStatus;
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, RiskLevel, Severity};

pub(crate) struct Readiness;

/// A container running this long without becoming Ready is not merely starting.
const NOT_READY_AFTER_SECS: i64 = 120;

impl Check for Readiness {
    fn name(&self) -> &'static str {
        "readiness"
    }
    fn causes(&self) -> &'static [Cause] {
        &[Cause::ReadinessProbeFailing, Cause::LivenessProbeFailing]
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for pod in &ctx.snap.pods {
            if pod.status.phase != "Running" || pod.metadata.deletion_timestamp.is_some() {
                continue;
            }
            // Most pods are ready: their events are looked up only when a container is not.
            let unready = |cs: &&ContainerStatus| cs.state.running.is_some() && !cs.ready;
            if !pod.status.container_statuses.iter().any(|cs| unready(&cs)) {
                continue;
            }
            let info = PodInfo::new(pod);
            let events = ctx.snap.events_for("Pod", &pod.metadata);
            for cs in &pod.status.container_statuses {
                let Some(running) = &cs.state.running else {
                    continue;
                };
                if cs.ready {
                    continue;
                }
                let Some(spec) = info.container(&cs.name) else {
                    continue;
                };
                if !spec.readiness_probe {
                    continue;
                }
                let running_for = running
                    .started_at
                    .map(|t| ctx.now.as_second() - t.as_second());
                if running_for.is_some_and(|s| s < NOT_READY_AFTER_SECS) {
                    continue;
                }
                // The kubelet's last `Unhealthy` event of this container whose message starts
                // with one of `says`. It names the container in the event's fieldPath; events
                // without it (older recorders) count for a single-container pod only.
                let unhealthy = |says: &[&str]| {
                    events.iter().rev().copied().find(|e| {
                        e.reason == "Unhealthy"
                            && says.iter().any(|s| e.message.starts_with(s))
                            && (e.container() == Some(cs.name.as_str())
                                || (e.container().is_none()
                                    && pod.status.container_statuses.len() == 1))
                    })
                };
                let probe_event = unhealthy(&["Readiness probe failed", "Readiness probe errored"]);
                let wl = info.workload_ref(ctx.snap);
                let live_event = unhealthy(&["Liveness probe failed"]);
                // Restarted already: the crash check reads the kills (`killed_by_probe`).
                if live_event.is_some() && cs.restart_count > 0 {
                    continue;
                }
                if let Some(live) = live_event {
                    let mut f = Finding::new(
                        Cause::LivenessProbeFailing,
                        Severity::Error,
                        format!("Container \"{}\" fails its liveness probe as well as its readiness probe: the kubelet restarts it", cs.name),
                    )
                    .object(info.key.clone())
                    .group(format!("{wl}/{}", cs.name))
                    .event(Some(&info.key), live);
                    if let Some(e) = probe_event {
                        f = f.event(Some(&info.key), e);
                    }
                    f = f
                        .explain("Both probes fail: the application does not answer at all, which a readiness probe alone would only keep out of its Services. Once the liveness probe fails failureThreshold times in a row, the kubelet kills the container and starts it again, and a slow start becomes a loop of restarts (CrashLoopBackOff).")
                        .step("Read the probes' failures and the restarts", Some(info.describe_cmd()), RiskLevel::None, "")
                        .step("Read what the container said before it was killed", Some(format!("kubectl logs {} -n {} -c {} --previous", info.name(), info.ns(), cs.name)), RiskLevel::None, "")
                        .step(format!("Give the application time to start (a startupProbe, or a longer initialDelaySeconds, timeoutSeconds or failureThreshold) in {wl}, or fix what it waits on"), None, RiskLevel::Low, "A liveness probe that never fails cannot restart an application that hangs.");
                    out.push(f);
                    continue;
                }
                let since = running_for
                    .map(human_duration)
                    .unwrap_or_else(|| "an unknown time".into());
                let mut f = Finding::new(
                    Cause::ReadinessProbeFailing,
                    Severity::Warning,
                    format!("Container \"{}\" runs but its readiness probe fails, so the pod is never Ready", cs.name),
                )
                .object(info.key.clone())
                .group(format!("{wl}/{}", cs.name))
                .evidence(
                    EvidenceKind::Field,
                    Some(&info.key),
                    format!("status.containerStatuses[{}]", cs.name),
                    format!("running for {since}, ready=false, restartCount={}", cs.restart_count),
                );
                if let Some(e) = probe_event {
                    f = f.event(Some(&info.key), e);
                } else {
                    f = f.confidence(Confidence::Medium);
                }
                f = f
                    .explain(format!(
                        "The container has been running for {since} with a readiness probe that does not pass{}. A failing readiness probe does not restart the container: it keeps the pod out of its Services' endpoints and stalls rollouts that wait for Ready pods. Either the application is not serving where the probe looks (port, path, a dependency it checks), or the probe is stricter than the application can meet.",
                        if probe_event.is_some() { "" } else { " (the probe's Unhealthy events are not in the data; they expire after an hour)" }
                    ))
                    .step("Read the probe's failures and output", Some(info.describe_cmd()), RiskLevel::None, "")
                    .step("Call the probe's endpoint from inside the pod", Some(format!("kubectl exec {} -n {} -c {} -- wget -qO- http://localhost:<port><path>", info.name(), info.ns(), cs.name)), RiskLevel::None, "")
                    .step(format!("Fix the application, or the probe's port, path or timeouts in {wl}"), None, RiskLevel::Low, "A probe that passes while the application cannot serve sends it traffic it will fail.");
                out.push(f);
            }
        }
    }
}
