//! Facts about one pod that several checks need: its key, its owner, its age, what kubectl
//! would print as its status, and the commands that act on it.

use jiff::Timestamp;
use kubewhy_model::objects::{ContainerStatus, Pod};
use kubewhy_model::{ObjectKey, Snapshot};

pub(crate) struct PodInfo<'a> {
    pub pod: &'a Pod,
    pub key: ObjectKey,
}

impl<'a> PodInfo<'a> {
    pub fn new(pod: &'a Pod) -> Self {
        PodInfo {
            pod,
            key: ObjectKey::of("Pod", &pod.metadata),
        }
    }
    pub fn ns(&self) -> &str {
        self.pod.metadata.ns()
    }
    pub fn name(&self) -> &str {
        &self.pod.metadata.name
    }
    pub fn describe_cmd(&self) -> String {
        format!("kubectl describe pod {} -n {}", self.name(), self.ns())
    }

    /// The closing step of a finding read from the pod's events.
    pub fn confirm_with_events(&self, f: kubewhy_model::Finding) -> kubewhy_model::Finding {
        f.step(
            "Confirm with the pod's events",
            Some(self.describe_cmd()),
            kubewhy_model::RiskLevel::None,
            "",
        )
    }

    /// Seconds since creation, if known.
    pub fn age_secs(&self, now: Timestamp) -> Option<i64> {
        self.pod
            .metadata
            .creation_timestamp
            .map(|t| now.as_second() - t.as_second())
    }

    /// The spec of a container (app or init) by name.
    pub fn container(&self, name: &str) -> Option<&'a kubewhy_model::objects::Container> {
        let spec = &self.pod.spec;
        spec.containers
            .iter()
            .chain(&spec.init_containers)
            .find(|c| c.name == name)
    }

    pub fn statuses(&self) -> impl Iterator<Item = (&'a ContainerStatus, bool)> {
        self.pod
            .status
            .init_container_statuses
            .iter()
            .map(|c| (c, true))
            .chain(
                self.pod
                    .status
                    .container_statuses
                    .iter()
                    .map(|c| (c, false)),
            )
    }

    /// The top-level owner: a ReplicaSet's Deployment when it can be told, else the direct owner.
    pub fn owner(&self, snap: &Snapshot) -> Option<(String, String)> {
        let o = self.pod.metadata.controller()?;
        if o.kind == "ReplicaSet" {
            if let Some(rs) = snap.workload("ReplicaSet", self.ns(), &o.name) {
                if let Some(d) = rs.metadata.controller() {
                    return Some((d.kind.to_string(), d.name.to_string()));
                }
                return Some((o.kind.to_string(), o.name.to_string()));
            }
            // Without the ReplicaSet: a Deployment's ReplicaSet is named DEPLOYMENT-HASH, with
            // HASH the pod-template-hash label.
            if let Some(hash) = self.pod.metadata.labels.get("pod-template-hash")
                && let Some(d) = o.name.strip_suffix(&format!("-{hash}"))
            {
                return Some(("Deployment".into(), d.to_string()));
            }
        }
        Some((o.kind.to_string(), o.name.to_string()))
    }

    /// `deployment/web` style reference for kubectl, or the pod itself.
    pub fn workload_ref(&self, snap: &Snapshot) -> String {
        match self.owner(snap) {
            Some((kind, name)) => format!("{}/{}", kind.to_ascii_lowercase(), name),
            None => format!("pod/{}", self.name()),
        }
    }

    /// The command that changes the pod's template: `kubectl -n NS ARGS` on the owning workload,
    /// or, for a bare pod (whose spec is immutable), an edit-and-replace of the pod itself.
    pub fn spec_change(&self, snap: &Snapshot, kubectl_args: &str) -> String {
        let wl = self.workload_ref(snap);
        if wl.starts_with("pod/") {
            format!(
                "kubectl get pod {name} -n {ns} -o yaml > {name}.yaml  # edit, then: kubectl replace --force -f {name}.yaml",
                name = self.name(),
                ns = self.ns()
            )
        } else {
            format!(
                "kubectl -n {} {}",
                self.ns(),
                kubectl_args.replace("{wl}", &wl)
            )
        }
    }

    /// How to start the pod again once its spec or configuration is fixed, as a command that
    /// runs for what owns it: `rollout restart` for the workloads that support it (Deployment,
    /// StatefulSet, DaemonSet), deleting the pod for other controllers (they create it again),
    /// and for a bare pod — which nobody recreates — replacing it from its own manifest.
    /// (action, command, risk note).
    pub fn restart(&self, snap: &Snapshot) -> (String, String, &'static str) {
        let (ns, name) = (self.ns(), self.name());
        match self.owner(snap) {
            Some((kind, owner))
                if matches!(kind.as_str(), "Deployment" | "StatefulSet" | "DaemonSet") =>
            {
                (
                    format!("roll {}/{owner}", kind.to_ascii_lowercase()),
                    format!(
                        "kubectl -n {ns} rollout restart {}/{owner}",
                        kind.to_ascii_lowercase()
                    ),
                    "Restarts every pod of the workload.",
                )
            }
            Some((kind, owner)) => (
                format!("delete the pod; {kind} {owner} creates it again"),
                format!("kubectl -n {ns} delete pod {name}"),
                "The pod is gone until its controller has created the new one.",
            ),
            None => (
                "recreate the pod (a pod without an owner is not recreated by anyone)".to_string(),
                format!(
                    "kubectl get pod {name} -n {ns} -o yaml > {name}.yaml  # edit, then: kubectl replace --force -f {name}.yaml"
                ),
                "replace --force deletes the pod and creates it again from the file.",
            ),
        }
    }

    /// Group key part that makes pods of one workload share a finding.
    pub fn owner_key(&self, snap: &Snapshot) -> String {
        match self.owner(snap) {
            Some((k, n)) => format!("{}/{k}/{n}", self.ns()),
            None => format!("{}/Pod/{}", self.ns(), self.name()),
        }
    }

    pub fn is_terminating(&self) -> bool {
        self.pod.metadata.deletion_timestamp.is_some()
    }

    /// Roughly what `kubectl get pods` prints in STATUS.
    pub fn status_column(&self) -> String {
        if self.is_terminating() {
            return "Terminating".into();
        }
        if let Some(r) = self.pod.status.reason.as_deref().filter(|r| !r.is_empty()) {
            return r.to_string();
        }
        for (c, init) in self.statuses() {
            if let Some(w) = &c.state.waiting
                && !w.reason.is_empty()
                && !(init && w.reason == "PodInitializing")
            {
                return if init {
                    format!("Init:{}", w.reason)
                } else {
                    w.reason.to_string()
                };
            }
            if let Some(t) = &c.state.terminated
                && (!init || t.exit_code != Some(0))
            {
                let r = match (t.reason.is_empty(), t.exit_code) {
                    (true, Some(code)) => format!("ExitCode:{code}"),
                    (true, None) => "Terminated".to_string(),
                    (false, _) => t.reason.to_string(),
                };
                return if init { format!("Init:{r}") } else { r };
            }
        }
        let phase = &self.pod.status.phase;
        if phase == "Running" && !self.all_ready() {
            return "Running (not ready)".into();
        }
        if phase.is_empty() {
            "Unknown".into()
        } else {
            phase.to_string()
        }
    }

    pub fn all_ready(&self) -> bool {
        !self.pod.status.container_statuses.is_empty()
            && self.pod.status.container_statuses.iter().all(|c| c.ready)
    }

    /// Whether the pod needs explaining: not Succeeded, not Running-and-Ready, not a pod that was
    /// created moments ago, not a pod inside a normal deletion.
    pub fn unhealthy(&self, now: Timestamp) -> bool {
        let phase = self.pod.status.phase.as_str();
        if phase == "Succeeded" {
            return false;
        }
        if let Some(del) = self.pod.metadata.deletion_timestamp {
            return now.as_second() > del.as_second() + crate::terminating::STUCK_AFTER_SECS;
        }
        if phase == "Running" && self.all_ready() {
            return false;
        }
        // Young pods are still starting — unless a container already says it fails: a
        // back-off, a config error, a restart, a failed exit.
        if self.age_secs(now).is_some_and(|a| a < 120) && !self.failing_already() {
            return false;
        }
        true
    }

    /// A container status that is a failure whatever the pod's age.
    fn failing_already(&self) -> bool {
        let s = &self.pod.status;
        s.container_statuses
            .iter()
            .chain(&s.init_container_statuses)
            .any(|c| {
                c.restart_count > 0
                    || c.state.waiting.as_ref().is_some_and(|w| {
                        !w.reason.is_empty()
                            && !matches!(w.reason.as_str(), "ContainerCreating" | "PodInitializing")
                    })
                    || c.state
                        .terminated
                        .as_ref()
                        .is_some_and(|t| t.exit_code.is_some_and(|c| c != 0) || t.reason == "Error")
            })
    }
}

/// Human duration: `3d4h`, `2h5m`, `40s`.
pub(crate) fn human_duration(secs: i64) -> String {
    let s = secs.max(0);
    let (d, h, m) = (s / 86400, (s % 86400) / 3600, (s % 3600) / 60);
    if d > 0 {
        format!("{d}d{h}h")
    } else if h > 0 {
        format!("{h}h{m}m")
    } else if m > 0 {
        format!("{m}m{}s", s % 60)
    } else {
        format!("{s}s")
    }
}

/// What an unhealthy pod's state says when no check could name a cause, and what the data
/// lacks: a pod in `ImagePullBackOff` is never just "unhealthy" — its image, registry and the
/// missing pull error are named.
pub(crate) fn unexplained_reason(snap: &Snapshot, info: &PodInfo) -> String {
    let events = if snap.kinds_loaded.contains_key("Event") {
        "no event about it is in the data (events expire after an hour)"
    } else {
        "the pod's events were not read (not in the data, or not permitted)"
    };
    for (c, _) in info.statuses() {
        let Some(w) = &c.state.waiting else { continue };
        let image = info
            .container(&c.name)
            .map_or(c.image.as_str(), |s| s.image.as_str());
        let said = if w.message.is_empty() {
            String::new()
        } else {
            format!(" (\"{}\")", w.message)
        };
        let what = match w.reason.as_str() {
            "ImagePullBackOff" | "ErrImagePull" => format!(
                "container {} cannot pull image {image} from registry {}{said}; the runtime's pull error says why, and {events}",
                c.name,
                crate::image::registry_of(image)
            ),
            "CrashLoopBackOff" => {
                let last = c.last_state.terminated.as_ref().map_or(String::new(), |t| {
                    match (t.exit_code, t.reason.is_empty()) {
                        (Some(code), true) => format!(", last exit code {code}"),
                        (Some(code), false) => format!(", last exit code {code} ({})", t.reason),
                        (None, true) => String::new(),
                        (None, false) => format!(", last ended: {}", t.reason),
                    }
                });
                format!(
                    "container {} keeps exiting (restarted {} times{last}); its last log lines say why",
                    c.name, c.restart_count
                )
            }
            "CreateContainerConfigError" | "CreateContainerError" => format!(
                "the kubelet cannot create container {} ({}){said}; {events}",
                c.name, w.reason
            ),
            _ => continue,
        };
        return what;
    }
    String::new()
}

/// The service account a pod runs as (`default` when its spec names none).
pub(crate) fn service_account(pod: &Pod) -> &str {
    pod.spec
        .service_account_name
        .as_deref()
        .unwrap_or("default")
}

/// The pull secrets the kubelet uses for `pod`: its own `imagePullSecrets`, then its service
/// account's (when the snapshot holds the account). Names only.
pub(crate) fn pull_secret_names(snap: &Snapshot, pod: &Pod) -> Vec<String> {
    let sa = service_account(pod);
    let account = snap
        .service_accounts
        .iter()
        .find(|s| s.metadata.ns() == pod.metadata.ns() && s.metadata.name == sa);
    pod.spec
        .image_pull_secrets
        .iter()
        .chain(account.into_iter().flat_map(|a| &a.image_pull_secrets))
        .map(|s| s.name.to_string())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations() {
        assert_eq!(human_duration(40), "40s");
        assert_eq!(human_duration(3 * 3600 + 120), "3h2m");
        assert_eq!(human_duration(2 * 86400 + 3600), "2d1h");
    }
}
