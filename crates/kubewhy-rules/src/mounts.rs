//! Containers that cannot be configured or mounted: CreateContainerConfigError messages,
//! FailedMount events, and every ConfigMap / Secret reference resolved against the snapshot
//! (when the snapshot holds that namespace's ConfigMaps / Secrets).

use crate::podinfo::PodInfo;
use crate::{Check, Ctx};
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, RiskLevel, Severity};
use regex::Regex;
use std::sync::LazyLock;

pub(crate) struct ConfigAndMounts;

const CAUSES: &[Cause] = &[
    Cause::ConfigmapMissing,
    Cause::SecretMissing,
    Cause::ConfigError,
    Cause::VolumeMountFailed,
];

static NOT_FOUND: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(configmaps?|secrets?) "([^"]+)" not found"#).unwrap());
static KEY_MISSING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)couldn't find key (\S+) in (ConfigMap|Secret) ([^/\s]+)/(\S+)").unwrap()
});

/// What a message says is missing: (cause, object name, key).
pub(crate) fn missing_reference(msg: &str) -> Option<(Cause, String, Option<String>)> {
    if let Some(c) = KEY_MISSING.captures(msg) {
        let cause = if c[2].eq_ignore_ascii_case("configmap") {
            Cause::ConfigmapMissing
        } else {
            Cause::SecretMissing
        };
        return Some((cause, c[4].to_string(), Some(c[1].to_string())));
    }
    if let Some(c) = NOT_FOUND.captures(msg) {
        let cause = if c[1].starts_with("configmap") {
            Cause::ConfigmapMissing
        } else {
            Cause::SecretMissing
        };
        return Some((cause, c[2].to_string(), None));
    }
    None
}

/// A reference from the pod spec to a ConfigMap or Secret.
struct Reference {
    cause: Cause,
    name: String,
    key: Option<String>,
    optional: bool,
    field: String,
}

fn references(info: &PodInfo) -> Vec<Reference> {
    let spec = &info.pod.spec;
    let mut refs = Vec::new();
    for v in &spec.volumes {
        if let Some(cm) = &v.config_map {
            refs.push(Reference {
                cause: Cause::ConfigmapMissing,
                name: cm.name.clone(),
                key: None,
                optional: cm.optional == Some(true),
                field: format!("spec.volumes[{}].configMap", v.name),
            });
        }
        if let Some(s) = &v.secret {
            refs.push(Reference {
                cause: Cause::SecretMissing,
                name: s.secret_name.clone(),
                key: None,
                optional: s.optional == Some(true),
                field: format!("spec.volumes[{}].secret", v.name),
            });
        }
    }
    for c in spec.containers.iter().chain(&spec.init_containers) {
        for e in &c.env {
            let Some(src) = &e.value_from else { continue };
            if let Some(k) = &src.config_map_key_ref {
                refs.push(Reference {
                    cause: Cause::ConfigmapMissing,
                    name: k.name.clone(),
                    key: Some(k.key.clone()),
                    optional: k.optional == Some(true),
                    field: format!(
                        "spec.containers[{}].env[{}].valueFrom.configMapKeyRef",
                        c.name, e.name
                    ),
                });
            }
            if let Some(k) = &src.secret_key_ref {
                refs.push(Reference {
                    cause: Cause::SecretMissing,
                    name: k.name.clone(),
                    key: Some(k.key.clone()),
                    optional: k.optional == Some(true),
                    field: format!(
                        "spec.containers[{}].env[{}].valueFrom.secretKeyRef",
                        c.name, e.name
                    ),
                });
            }
        }
        for ef in &c.env_from {
            if let Some(r) = &ef.config_map_ref {
                refs.push(Reference {
                    cause: Cause::ConfigmapMissing,
                    name: r.name.clone(),
                    key: None,
                    optional: r.optional == Some(true),
                    field: format!("spec.containers[{}].envFrom.configMapRef", c.name),
                });
            }
            if let Some(r) = &ef.secret_ref {
                refs.push(Reference {
                    cause: Cause::SecretMissing,
                    name: r.name.clone(),
                    key: None,
                    optional: r.optional == Some(true),
                    field: format!("spec.containers[{}].envFrom.secretRef", c.name),
                });
            }
        }
    }
    refs
}

impl Check for ConfigAndMounts {
    fn name(&self) -> &'static str {
        "config-and-mounts"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Vec<Finding>) {
        for pod in &ctx.snap.pods {
            let info = PodInfo::new(pod);
            if info.is_terminating() || matches!(pod.status.phase.as_str(), "Succeeded" | "Failed")
            {
                continue;
            }
            let started = pod
                .status
                .container_statuses
                .iter()
                .any(|c| c.state.running.is_some() || c.restart_count > 0);
            if started {
                continue;
            }
            check_pod(ctx, &info, out);
        }
    }
}

fn check_pod(ctx: &Ctx, info: &PodInfo, out: &mut Vec<Finding>) {
    let snap = ctx.snap;
    let mut found: Vec<Finding> = Vec::new();
    // 1. What the kubelet said: waiting messages and FailedMount events.
    for (cs, init) in info.statuses() {
        let Some(w) = &cs.state.waiting else { continue };
        if w.reason != "CreateContainerConfigError" {
            continue;
        }
        let field = format!(
            "status.{}[{}].state.waiting",
            if init {
                "initContainerStatuses"
            } else {
                "containerStatuses"
            },
            cs.name
        );
        let (cause, name, key) = match missing_reference(&w.message) {
            Some(m) => m,
            None => (Cause::ConfigError, String::new(), None),
        };
        let f = base(ctx, info, cause, &name, key.as_deref()).evidence(
            EvidenceKind::Field,
            Some(&info.key),
            format!("{field} reason={}", w.reason),
            w.message.clone(),
        );
        found.push(f);
    }
    for e in snap.events_for("Pod", &info.pod.metadata) {
        if e.reason != "FailedMount" {
            continue;
        }
        let src = format!("event {} from {} (x{})", e.reason, e.source, e.count);
        let f = match missing_reference(&e.message) {
            Some((cause, name, key)) => base(ctx, info, cause, &name, key.as_deref()),
            None if e.message.contains("timed out waiting for the condition")
                || e.message.contains("Unable to attach or mount volumes") =>
            {
                // The generic timeout line repeats whatever the specific error was; keep it only
                // when nothing more specific is known.
                base(ctx, info, Cause::VolumeMountFailed, "", None).confidence(Confidence::Low)
            }
            None => base(ctx, info, Cause::VolumeMountFailed, "", None),
        };
        found.push(f.evidence(EvidenceKind::Event, Some(&info.key), src, e.message.clone()));
    }
    // 2. State: references the snapshot shows are missing (events may have expired).
    for r in references(info) {
        if r.optional {
            continue;
        }
        let (known, obj) = match r.cause {
            Cause::ConfigmapMissing => (
                snap.config_maps_known(info.ns()),
                snap.config_map(info.ns(), &r.name),
            ),
            _ => (
                snap.secrets_known(info.ns()),
                snap.secret(info.ns(), &r.name),
            ),
        };
        if !known {
            continue;
        }
        let kind = if r.cause == Cause::ConfigmapMissing {
            "ConfigMap"
        } else {
            "Secret"
        };
        let quote = match (obj, &r.key) {
            (None, _) => format!("{kind} {}/{} does not exist", info.ns(), r.name),
            (Some(o), Some(k)) if !o.keys.contains(k) => format!(
                "{kind} {}/{} has no key \"{k}\" (keys: {})",
                info.ns(),
                r.name,
                o.keys.join(", ")
            ),
            _ => continue,
        };
        let key = if obj.is_some() { r.key.clone() } else { None };
        found.push(base(ctx, info, r.cause, &r.name, key.as_deref()).evidence(
            EvidenceKind::Absence,
            Some(&info.key),
            r.field.clone(),
            quote,
        ));
    }
    // A specific cause makes the generic mount failure redundant.
    let specific = found.iter().any(|f| f.cause != Cause::VolumeMountFailed);
    for f in found {
        if specific && f.cause == Cause::VolumeMountFailed {
            continue;
        }
        out.push(f);
    }
}

fn base(ctx: &Ctx, info: &PodInfo, cause: Cause, name: &str, key: Option<&str>) -> Finding {
    let ns = info.ns();
    let wl = info.workload_ref(ctx.snap);
    let what = if cause == Cause::ConfigmapMissing {
        "ConfigMap"
    } else {
        "Secret"
    };
    let summary = match (cause, key) {
        (Cause::ConfigmapMissing | Cause::SecretMissing, Some(k)) => {
            format!("{what} \"{name}\" has no key \"{k}\" that the pod needs")
        }
        (Cause::ConfigmapMissing | Cause::SecretMissing, None) => {
            format!("{what} \"{name}\" that the pod needs does not exist")
        }
        (Cause::ConfigError, _) => "The kubelet cannot build the container's configuration".into(),
        _ => "A volume of the pod cannot be mounted".into(),
    };
    let mut f = Finding::new(cause, Severity::Error, summary)
        .object(info.key.clone())
        .group(format!("{name}|{}", key.unwrap_or("")));
    match cause {
        Cause::ConfigmapMissing | Cause::SecretMissing => {
            let lc = what.to_ascii_lowercase();
            f = f
                .explain(format!(
                    "The pod references {what} \"{name}\"{} in namespace {ns} and the reference is not optional, so the kubelet will not start the container (CreateContainerConfigError for env, ContainerCreating with FailedMount for volumes) until it exists. It may have been deleted, never created, misspelt, or created in another namespace.",
                    key.map(|k| format!(" (key \"{k}\")")).unwrap_or_default()
                ))
                .step(format!("Check what exists in {ns}"), Some(format!("kubectl get {lc} -n {ns}")), RiskLevel::None, "")
                .step(
                    match key {
                        Some(k) => format!("Add key \"{k}\" to {what} \"{name}\", or fix the key name in {wl}"),
                        None => format!("Create {what} \"{name}\" in {ns}, or fix the name in {wl}"),
                    },
                    Some(match (cause, key) {
                        (Cause::ConfigmapMissing, None) => format!("kubectl -n {ns} create configmap {name} --from-file=<path>"),
                        (Cause::SecretMissing, None) => format!("kubectl -n {ns} create secret generic {name} --from-literal=<key>=<value>"),
                        (_, Some(_)) => format!("kubectl -n {ns} edit {lc} {name}"),
                        _ => String::new(),
                    }),
                    RiskLevel::Low,
                    "The pod starts with whatever content you give it: make sure it is the real configuration.",
                )
                .step("Or mark the reference optional: true if the workload can run without it", None, RiskLevel::Low, "The container then starts without those values.");
        }
        Cause::ConfigError => {
            f = f
                .explain("CreateContainerConfigError without a missing object: the message says what the kubelet refused, e.g. runAsNonRoot with an image that runs as root.")
                .step("Read the full message and the container's securityContext", Some(info.describe_cmd()), RiskLevel::None, "")
                .step("For runAsNonRoot: set runAsUser to a non-zero UID or use an image with a numeric non-root USER", None, RiskLevel::Low, "");
        }
        _ => {
            f = f
                .explain("The kubelet could not attach or mount one of the pod's volumes; the event names the volume and the error.")
                .step("Read the FailedMount / FailedAttachVolume events", Some(info.describe_cmd()), RiskLevel::None, "");
        }
    }
    f.step(
        "Confirm with the pod's events",
        Some(info.describe_cmd()),
        RiskLevel::None,
        "",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubelet_wordings() {
        assert_eq!(
            missing_reference("configmap \"app-config\" not found"),
            Some((Cause::ConfigmapMissing, "app-config".into(), None))
        );
        assert_eq!(
            missing_reference(
                "MountVolume.SetUp failed for volume \"cfg\" : configmap \"app\" not found"
            ),
            Some((Cause::ConfigmapMissing, "app".into(), None))
        );
        assert_eq!(
            missing_reference("secret \"db\" not found"),
            Some((Cause::SecretMissing, "db".into(), None))
        );
        assert_eq!(
            missing_reference(
                "MountVolume.SetUp failed for volume \"s\" : secrets \"tls\" not found"
            ),
            Some((Cause::SecretMissing, "tls".into(), None))
        );
        assert_eq!(
            missing_reference("couldn't find key password in Secret shop/db"),
            Some((Cause::SecretMissing, "db".into(), Some("password".into())))
        );
        assert_eq!(
            missing_reference("Couldn't find key url in ConfigMap shop/app"),
            Some((Cause::ConfigmapMissing, "app".into(), Some("url".into())))
        );
        assert_eq!(
            missing_reference("container has runAsNonRoot and image will run as root"),
            None
        );
    }
}
