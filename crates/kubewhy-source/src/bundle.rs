//! Support bundles: what support engineers receive instead of `kubectl` access. The layouts are
//! known by name, from their landmarks — a troubleshoot.sh bundle (`kubectl support-bundle`:
//! `cluster-resources/<resource>/<ns>.json`, `cluster-resources/<resource>.json`,
//! `cluster-resources/pods/logs/<ns>/<pod>/<container>[-previous].log`,
//! `cluster-info/cluster_version.json`, `host-collectors/…`) and an OpenShift must-gather
//! (`namespaces/<ns>/core/<resource>.yaml`, `namespaces/<ns>/pods/<pod>/<container>/<container>/
//! logs/{current,previous}.log`, `cluster-scoped-resources/<group>/<resource>/…`,
//! `host_service_logs/…`, `timestamp`) — and each file's place says what it is: objects (with the
//! kind their list may not carry), a container's log (attached to its container), node logs, the
//! server's version, the collection time, or something no check uses (skipped quietly, counted).
//! Read from a directory or straight from the archive (`archive.rs`), one streaming pass.

use crate::archive::{self, Format};
use crate::{FileOut, Job, logs, warn_file};
use kubewhy_model::InputWarning;
use kubewhy_model::objects::ContainerLog;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

/// A bundle's layout, told by its landmarks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Layout {
    /// troubleshoot.sh (`kubectl support-bundle`: Replicated, kURL, KOTS, many operators).
    Troubleshoot,
    /// OpenShift `oc adm must-gather` (and `oc adm inspect`).
    MustGather,
    /// Rancher's support-bundle-kit (Harvester, Longhorn, Rancher).
    SupportBundleKit,
    /// A sonobuoy results tarball.
    Sonobuoy,
    /// `kubectl cluster-info dump --output-directory`, archived: `nodes.json` at its top,
    /// `<namespace>/pods.json` beside it. Known only to name it (`load_archive`): its files are
    /// read as any dump's.
    ClusterInfoDump,
}

impl Layout {
    pub fn name(self) -> &'static str {
        match self {
            Layout::Troubleshoot => "troubleshoot.sh bundle",
            Layout::MustGather => "must-gather",
            Layout::SupportBundleKit => "support-bundle-kit bundle",
            Layout::Sonobuoy => "sonobuoy results",
            Layout::ClusterInfoDump => "kubectl cluster-info dump",
        }
    }
}

impl BundleInfo {
    /// The line that says what the bundle was: `troubleshoot.sh bundle, collected …,
    /// Kubernetes v1.24.4+k3s1: 120 files read, 80 not needed`.
    pub fn summary(&self) -> String {
        let what = match (self.layout, self.archive) {
            (Some(l), Some(a)) => format!("{} {} ({a})", l.name(), self.name),
            (Some(l), None) => format!("{} {}", l.name(), self.name),
            (None, Some(a)) => format!("{a} {}", self.name),
            (None, None) => self.name.clone(),
        };
        let mut s = what;
        if let Some(t) = self.collected {
            s.push_str(&format!(", collected {t}"));
        }
        match (&self.server_version, &self.kubelet_version) {
            (Some(v), _) => s.push_str(&format!(", Kubernetes {v}")),
            (None, Some(v)) => s.push_str(&format!(", Kubernetes {v} (its nodes' kubelets)")),
            (None, None) => {}
        }
        s.push_str(&format!(": {} file(s) read", self.read));
        if self.not_needed > 0 {
            s.push_str(&format!(", {} not needed", self.not_needed));
        }
        if self.quieted > 0 {
            s.push_str(&format!(
                ", {} problem(s) in files no check needs not shown",
                self.quieted
            ));
        }
        s
    }
}

impl BundleInfo {
    /// What the bundle's own tools reported failing, one line each: a sonobuoy plugin that
    /// failed and its failed tests (at most five named).
    pub fn notes(&self) -> Vec<String> {
        self.failed_plugins
            .iter()
            .map(|(plugin, tests)| {
                let mut s = format!("sonobuoy plugin {plugin} failed");
                if !tests.is_empty() {
                    s.push_str(&format!(": {} failed test(s): ", tests.len()));
                    let named: Vec<&str> = tests.iter().take(5).map(String::as_str).collect();
                    s.push_str(&named.join("; "));
                    if tests.len() > 5 {
                        s.push_str(&format!("; and {} more", tests.len() - 5));
                    }
                }
                s.push_str(&format!(" (its results: plugins/{plugin}/)"));
                s
            })
            .collect()
    }
}

/// A sonobuoy plugin's results (`sonobuoy_results.yaml`): its name, if it failed, and the
/// names of its failed tests (the leaves whose status is `failed`).
fn plugin_results(text: &str) -> Option<(String, bool, Vec<String>)> {
    let v: serde_json::Value = crate::yaml::from_str(text).ok()?;
    fn failed(v: &serde_json::Value, out: &mut Vec<String>) {
        let items = v["items"].as_array();
        match items {
            Some(items) if !items.is_empty() => {
                for i in items {
                    failed(i, out);
                }
            }
            _ => {
                if v["status"] == "failed"
                    && let Some(n) = v["name"].as_str()
                {
                    out.push(n.split_whitespace().collect::<Vec<_>>().join(" "));
                }
            }
        }
    }
    let name = v["name"].as_str()?.to_string();
    let mut tests = Vec::new();
    failed(&v, &mut tests);
    Some((name, v["status"] == "failed", tests))
}

/// Records a plugin's results when it failed.
fn note_plugin(info: &mut BundleInfo, bytes: &[u8]) {
    if let Some((name, true, tests)) = plugin_results(&String::from_utf8_lossy(bytes)) {
        info.failed_plugins.push((name, tests));
    }
}

/// What was read of one bundle, for the line that says so.
#[derive(Debug, Clone, Default)]
pub struct BundleInfo {
    /// The input as given (archive or directory).
    pub name: String,
    pub layout: Option<Layout>,
    /// The archive's format, when it was read from one.
    pub archive: Option<&'static str>,
    /// When it was collected: its own record of it, else its files' newest time.
    pub collected: Option<jiff::Timestamp>,
    /// The cluster's version, as the bundle recorded it.
    pub server_version: Option<String>,
    /// Without it, the version its nodes' kubelets report.
    pub kubelet_version: Option<String>,
    /// Files read.
    pub read: usize,
    /// Files of the layout that hold nothing a check uses (and, once the layout is known,
    /// other files that turned out to hold no object), skipped without a warning.
    pub not_needed: usize,
    /// Problems in files no check needs (`quiet`), counted instead of warned.
    pub quieted: usize,
    /// Sonobuoy plugins that failed: the plugin and its failed tests.
    pub failed_plugins: Vec<(String, Vec<String>)>,
}

/// What a file's place in a bundle says it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Role {
    /// Objects; `hint` is the kind of a list's items when the file may not say it (older
    /// troubleshoot.sh wrote bare arrays of items without `kind`).
    Objects { hint: Option<&'static str> },
    /// A container's log: the current run's or, `previous`, the one before.
    ContainerLog {
        namespace: String,
        pod: String,
        container: String,
        previous: bool,
    },
    /// A node's logs: the kubelet's, the runtime's, the kernel's.
    NodeLog,
    /// `cluster-info/cluster_version.json`.
    Version,
    /// must-gather's `timestamp`.
    Collected,
    /// support-bundle-kit's `metadata.yaml`: the cluster's version and when it was collected.
    Metadata,
    /// An archive inside the bundle holding a node's logs (support-bundle-kit's
    /// `nodes/<node>.zip`).
    NodeArchive,
    /// A sonobuoy plugin's `sonobuoy_results.yaml`: whether it passed, and its failed tests.
    PluginResults,
    /// Known to the layout, of no use to a check.
    NotNeeded,
    /// Not a place the layouts define: read as any file is.
    Unknown,
}

/// troubleshoot.sh's namespaced resources (`cluster-resources/<dir>/<ns>.json`) and their kind.
const TS_NAMESPACED: &[(&str, &str)] = &[
    ("pods", "Pod"),
    ("events", "Event"),
    ("deployments", "Deployment"),
    ("statefulsets", "StatefulSet"),
    ("replicasets", "ReplicaSet"),
    ("daemonsets", "DaemonSet"),
    ("jobs", "Job"),
    ("cronjobs", "CronJob"),
    ("pvcs", "PersistentVolumeClaim"),
    ("pod-disruption-budgets", "PodDisruptionBudget"),
    ("limitranges", "LimitRange"),
    ("resource-quota", "ResourceQuota"),
    ("configmaps", "ConfigMap"),
    ("serviceaccounts", "ServiceAccount"),
    ("leases", "Lease"),
];

/// troubleshoot.sh's cluster-scoped resources (`cluster-resources/<name>.json`).
const TS_CLUSTER: &[(&str, &str)] = &[
    ("nodes.json", "Node"),
    ("namespaces.json", "Namespace"),
    ("pvs.json", "PersistentVolume"),
    ("storage-classes.json", "StorageClass"),
    ("priority-classes.json", "PriorityClass"),
    ("apiservices.json", "APIService"),
    (
        "mutatingwebhookconfigurations.json",
        "MutatingWebhookConfiguration",
    ),
    (
        "validatingwebhookconfigurations.json",
        "ValidatingWebhookConfiguration",
    ),
];

/// must-gather's API groups whose objects a check reads.
const MG_GROUPS: &[&str] = &[
    "core",
    "apps",
    "batch",
    "policy",
    "apiregistration.k8s.io",
    "storage.k8s.io",
    "scheduling.k8s.io",
    "admissionregistration.k8s.io",
    "coordination.k8s.io",
    "argoproj.io",
];

/// The role of the file at `path` (inside the bundle, `/`-separated) and the layout its place
/// is a landmark of.
pub(crate) fn role(path: &str) -> (Role, Option<Layout>) {
    let parts: Vec<&str> = path.split('/').collect();
    if let Some(i) = parts.iter().position(|p| *p == "cluster-resources") {
        return (troubleshoot(&parts[i + 1..]), Some(Layout::Troubleshoot));
    }
    if let Some(i) = parts.iter().position(|p| *p == "cluster-info")
        && parts.len() == i + 2
    {
        let role = if parts[i + 1] == "cluster_version.json" {
            Role::Version
        } else {
            Role::NotNeeded
        };
        return (role, Some(Layout::Troubleshoot));
    }
    if parts.contains(&"host-collectors") {
        return (node_log_or_not(path), Some(Layout::Troubleshoot));
    }
    if let Some(i) = parts.iter().position(|p| *p == "cluster-scoped-resources") {
        let role = match parts.get(i + 1) {
            Some(g) if MG_GROUPS.contains(g) && yaml(path) => Role::Objects { hint: None },
            _ => Role::NotNeeded,
        };
        return (role, Some(Layout::MustGather));
    }
    if parts.contains(&"host_service_logs") {
        return (node_log_or_not(path), Some(Layout::MustGather));
    }
    if let Some(i) = parts.iter().position(|p| *p == "namespaces")
        && let Some(role) = must_gather_namespace(&parts[i + 1..])
    {
        return (role, Some(Layout::MustGather));
    }
    if let Some(i) = parts.iter().position(|p| *p == "yamls")
        && matches!(parts.get(i + 1), Some(&"namespaced" | &"cluster"))
    {
        return (
            support_bundle_kit(&parts[i + 1..]),
            Some(Layout::SupportBundleKit),
        );
    }
    if let Some(i) = parts.iter().position(|p| *p == "resources")
        && i <= 1
        && matches!(parts.get(i + 1), Some(&"ns" | &"cluster"))
    {
        return (sonobuoy(&parts[i + 1..]), Some(Layout::Sonobuoy));
    }
    if let Some(i) = parts.iter().position(|p| *p == "plugins")
        && i <= 1
        && parts.len() == i + 3
        && parts[i + 2] == "sonobuoy_results.yaml"
    {
        return (Role::PluginResults, Some(Layout::Sonobuoy));
    }
    // sonobuoy's plugins' results, its hosts' configz and healthz, its own run.
    if let Some(i) = parts
        .iter()
        .position(|p| matches!(*p, "plugins" | "hosts" | "meta"))
        && i <= 1
        && parts.len() > i + 1
    {
        return (Role::NotNeeded, Some(Layout::Sonobuoy));
    }
    match parts.as_slice() {
        // sonobuoy's container logs: `podlogs/<ns>/<pod>/logs/<container>.txt`.
        [.., "podlogs", ns, pod, "logs", file] if parts.len() <= 6 => {
            if let Some(container) = file.strip_suffix(".txt") {
                let log = Role::ContainerLog {
                    namespace: ns.to_string(),
                    pod: pod.to_string(),
                    container: container.to_string(),
                    previous: false,
                };
                return (log, Some(Layout::Sonobuoy));
            }
        }
        // support-bundle-kit's container logs: `logs/<ns>/<pod>/<container>.log`.
        [.., "logs", ns, pod, file] if parts.len() <= 5 && file.ends_with(".log") => {
            let container = file.trim_end_matches(".log");
            let log = Role::ContainerLog {
                namespace: ns.to_string(),
                pod: pod.to_string(),
                container: container.to_string(),
                previous: false,
            };
            return (log, None);
        }
        [.., "nodes", file] if parts.len() <= 3 && file.ends_with(".zip") => {
            return (Role::NodeArchive, Some(Layout::SupportBundleKit));
        }
        [.., "metadata.yaml"] if parts.len() <= 2 => return (Role::Metadata, None),
        [.., "bundleGenerationError.log"] if parts.len() <= 2 => {
            return (Role::NotNeeded, Some(Layout::SupportBundleKit));
        }
        [.., "serverversion.json"] if parts.len() <= 2 => return (Role::Version, None),
        [.., "servergroups.json"] if parts.len() <= 2 => return (Role::NotNeeded, None),
        _ => {}
    }
    if parts.last() == Some(&"timestamp") && parts.len() <= 2 {
        return (Role::Collected, None);
    }
    // The rest of a bundle named as its tools name it: troubleshoot.sh's own files
    // (`version.yaml`, `analysis.json`), other collectors' copies of container logs.
    let bundle_root = parts
        .first()
        .is_some_and(|p| p.starts_with("support-bundle-") || p.starts_with("must-gather"));
    if bundle_root && (parts.len() == 2 || path.ends_with(".log") || path.ends_with(".txt")) {
        return (Role::NotNeeded, None);
    }
    (Role::Unknown, None)
}

fn yaml(path: &str) -> bool {
    path.ends_with(".yaml") || path.ends_with(".yml") || path.ends_with(".json")
}

/// Node logs are the kubelet's, the runtime's and the kernel's; the rest of a host's
/// collection is not needed.
fn node_log_or_not(path: &str) -> Role {
    let lower = path.to_ascii_lowercase();
    let logs = [
        "kubelet",
        "containerd",
        "crio",
        "docker",
        "dmesg",
        "kernel",
        "journal",
    ];
    let text = [".log", ".txt"].iter().any(|e| lower.ends_with(e)) || !lower.contains('.');
    if text && logs.iter().any(|l| lower.contains(l)) {
        Role::NodeLog
    } else {
        Role::NotNeeded
    }
}

/// A place under troubleshoot.sh's `cluster-resources/`.
fn troubleshoot(rest: &[&str]) -> Role {
    match rest {
        ["pods", "logs", ns, pod, file] => {
            let Some(stem) = file.strip_suffix(".log") else {
                return Role::NotNeeded;
            };
            if stem.ends_with("-logs-errors") {
                return Role::NotNeeded;
            }
            let (container, previous) = match stem.strip_suffix("-previous") {
                Some(c) => (c, true),
                None => (stem, false),
            };
            Role::ContainerLog {
                namespace: ns.to_string(),
                pod: pod.to_string(),
                container: container.to_string(),
                previous,
            }
        }
        // Custom resources, one list per resource (and namespace): their kind is in each
        // document; a namespace's leftovers may be among them.
        ["custom-resources", .., file] if yaml(file) && !file.ends_with("-errors.json") => {
            Role::Objects { hint: None }
        }
        [dir, file] if file.ends_with(".json") && !file.ends_with("-errors.json") => {
            match TS_NAMESPACED.iter().find(|(d, _)| d == dir) {
                Some((_, kind)) => Role::Objects { hint: Some(kind) },
                None => Role::NotNeeded,
            }
        }
        [file] => match TS_CLUSTER.iter().find(|(f, _)| f == file) {
            Some((_, kind)) => Role::Objects { hint: Some(kind) },
            None => Role::NotNeeded,
        },
        _ => Role::NotNeeded,
    }
}

/// A place under must-gather's `namespaces/` (`None`: not must-gather's).
fn must_gather_namespace(rest: &[&str]) -> Option<Role> {
    Some(match rest {
        [ns, file] if file.strip_suffix(".yaml") == Some(*ns) => Role::Objects { hint: None },
        [_, group, file] if yaml(file) => {
            if MG_GROUPS.contains(group) {
                Role::Objects { hint: None }
            } else {
                Role::NotNeeded
            }
        }
        [_, "pods", pod, file] if file.strip_suffix(".yaml") == Some(*pod) => {
            Role::Objects { hint: None }
        }
        [ns, "pods", pod, container, _, "logs", file] => {
            let previous = match *file {
                "current.log" | "current.insecure.log" => false,
                "previous.log" | "previous.insecure.log" => true,
                _ => return Some(Role::NotNeeded),
            };
            Role::ContainerLog {
                namespace: ns.to_string(),
                pod: pod.to_string(),
                container: container.to_string(),
                previous,
            }
        }
        [_, "pods", ..] => Role::NotNeeded,
        _ => return None,
    })
}

/// The API groups whose objects a check reads, as support-bundle-kit and sonobuoy name them
/// (`v1` and `core` are the core group; `metrics.k8s.io`'s PodMetrics are not pods).
fn needed_group(group: &str) -> bool {
    matches!(group, "v1" | "core" | "resource.k8s.io") || MG_GROUPS.contains(&group)
}

/// A place under support-bundle-kit's `yamls/`: `namespaced/<ns>/<group>/<version>/<kinds>.yaml`
/// and `cluster/<group>/<version>/<kinds>.yaml`, the core group as `v1/<kinds>.yaml`.
fn support_bundle_kit(rest: &[&str]) -> Role {
    let group = match rest {
        ["namespaced", _, "v1", file] | ["cluster", "v1", file] if yaml(file) => "v1",
        ["namespaced", _, group, _, file] | ["cluster", group, _, file] if yaml(file) => group,
        _ => return Role::NotNeeded,
    };
    if needed_group(group) {
        Role::Objects { hint: None }
    } else {
        Role::NotNeeded
    }
}

/// A place under sonobuoy's `resources/`: `ns/<ns>/<group>_<version>_<kinds>.json` and
/// `cluster/<group>_<version>_<kinds>.json`, each a JSON array of objects.
fn sonobuoy(rest: &[&str]) -> Role {
    let file = match rest {
        ["ns", _, file] | ["cluster", file] => *file,
        _ => return Role::NotNeeded,
    };
    let Some(stem) = file.strip_suffix(".json") else {
        return Role::NotNeeded;
    };
    match stem.split_once('_') {
        Some((group, _)) if needed_group(group) => Role::Objects { hint: None },
        Some(_) => Role::NotNeeded,
        // Sonobuoy before 0.10 named files by kind alone (`ns/<ns>/Pods.json`).
        // Their items carry no `kind`: the name says it.
        None => match [
            "Pod",
            "Event",
            "Node",
            "Namespace",
            "PersistentVolume",
            "PersistentVolumeClaim",
            "Deployment",
            "ReplicaSet",
            "DaemonSet",
            "StatefulSet",
            "Job",
            "CronJob",
            "StorageClass",
            "ResourceQuota",
            "LimitRange",
        ]
        .into_iter()
        .find(|k| stem.strip_suffix('s') == Some(*k) || stem.strip_suffix("es") == Some(*k))
        {
            Some(kind) => Role::Objects { hint: Some(kind) },
            None => Role::NotNeeded,
        },
    }
}

/// support-bundle-kit's `metadata.yaml`: `kubernetesversion` and `bundlecreatedat`.
fn sbk_metadata(text: &str) -> (Option<String>, Option<jiff::Timestamp>) {
    let field = |key: &str| {
        text.lines().find_map(|l| {
            let v = l.strip_prefix(key)?.strip_prefix(':')?.trim();
            let v = v.trim_matches('"');
            (!v.is_empty()).then(|| v.to_string())
        })
    };
    (
        field("kubernetesversion"),
        field("bundlecreatedat").and_then(|t| t.parse().ok()),
    )
}

/// A node's archive inside the bundle: its kubelet, runtime and kernel logs read as node logs,
/// the rest (configuration, other services' logs) skipped.
fn node_archive(name: &str, bytes: &[u8], anchor: jiff::Timestamp, out: &mut FileOut) {
    let mut warnings = Vec::new();
    archive::for_each_zip_entry_in(name, bytes, &mut warnings, &mut |entry, reader| {
        if node_log_or_not(entry.path) == Role::NodeLog {
            let entry_name = format!("{name}:{}", entry.path);
            read_log(
                &entry_name,
                &Role::NodeLog,
                BufReader::new(reader),
                anchor,
                out,
            );
        }
        ControlFlow::Continue(())
    });
    for w in warnings {
        out.warn(w);
    }
}

/// A troubleshoot.sh bundle's directory name says when it was collected:
/// `support-bundle-2022-08-05T14_32_11`.
fn collected_from_name(path: &str) -> Option<jiff::Timestamp> {
    path.split('/').find_map(|p| {
        let t = p.strip_prefix("support-bundle-")?;
        let t = t.get(..19)?.replace('_', ":");
        format!("{t}Z").parse().ok()
    })
}

/// must-gather's `timestamp`: `2023-05-04 10:11:12.345 +0000 UTC m=+0.1` when it began, then
/// when it ended; the last line counts.
fn collected_from_timestamp(text: &str) -> Option<jiff::Timestamp> {
    text.lines().rev().find_map(|l| {
        let mut w = l.split_whitespace();
        let (date, time, zone) = (w.next()?, w.next()?, w.next()?);
        let zone = if zone.len() == 5 {
            format!("{}:{}", &zone[..3], &zone[3..])
        } else {
            zone.to_string()
        };
        format!("{date}T{time}{zone}").parse().ok()
    })
}

/// `cluster-info/cluster_version.json`: `{"info": {"gitVersion": …}, "string": …}`.
fn version_of(bytes: &[u8]) -> Option<String> {
    let v: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    v["info"]["gitVersion"]
        .as_str()
        .or(v["string"].as_str())
        .or(v["gitVersion"].as_str())
        .map(str::to_string)
}

/// What a file of a bundle gives, read on its own: its objects or its log, by its role.
pub(crate) fn load(
    name: &str,
    bytes: &[u8],
    role: &Role,
    anchor: jiff::Timestamp,
    out: &mut FileOut,
) {
    match role {
        Role::Objects { hint: Some(kind) } if starts_with_array(bytes) => {
            // An array of items without `kind`: a list of what its place says.
            let mut wrapped = Vec::with_capacity(bytes.len() + 64);
            wrapped.extend_from_slice(
                format!("{{\"kind\":\"{kind}List\",\"apiVersion\":\"v1\",\"items\":").as_bytes(),
            );
            wrapped.extend_from_slice(bytes);
            wrapped.extend_from_slice(b"}");
            crate::parse_bytes(name, &wrapped, None, anchor, out);
        }
        Role::ContainerLog { .. } | Role::NodeLog => read_log(name, role, bytes, anchor, out),
        Role::NodeArchive => node_archive(name, bytes, anchor, out),
        Role::Version
        | Role::Collected
        | Role::Metadata
        | Role::PluginResults
        | Role::NotNeeded => {}
        Role::Objects { .. } | Role::Unknown => crate::parse_bytes(name, bytes, None, anchor, out),
    }
}

/// The first `kubeletVersion` a Node list or object names, in JSON or YAML (managedFields'
/// `f:kubeletVersion: {}` names none).
fn kubelet_version(bytes: &[u8]) -> Option<String> {
    memchr::memmem::find_iter(bytes, b"kubeletVersion").find_map(|at| {
        let at = at + "kubeletVersion".len();
        let rest = String::from_utf8_lossy(&bytes[at..bytes.len().min(at + 80)]);
        let v = rest
            .trim_start_matches(['"', ':', ' '])
            .split(['"', '\n', '\r', ' ', ','])
            .next()?;
        (v.starts_with('v') && v.len() > 1).then(|| v.to_string())
    })
}

/// Whether a bundle file holds Node objects (where the kubelets' version is read).
fn holds_nodes(path: &str) -> bool {
    path.ends_with("cluster-resources/nodes.json") || path.contains("/core/nodes/")
}

/// A log file of a bundle, read as a stream: a container's (its tail kept, attached to its
/// container) or a node's (through the node log reader). An archive bomb is said once, for the
/// whole archive, not for the entry it stopped in.
fn read_log(
    name: &str,
    role: &Role,
    reader: impl std::io::BufRead,
    anchor: jiff::Timestamp,
    out: &mut FileOut,
) {
    match role {
        Role::ContainerLog {
            namespace,
            pod,
            container,
            previous,
        } => match logs::tail_of(reader) {
            Ok(tail) if !tail.is_empty() => out.logs.push(ContainerLog {
                namespace: namespace.clone(),
                pod: pod.clone(),
                container: container.clone(),
                origin: name.to_string(),
                tail,
                previous: *previous,
            }),
            Ok(_) => {}
            Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {}
            Err(e) => out.warn(warn_file(name, format!("cannot read: {e}"))),
        },
        Role::NodeLog => {
            let mut bundle = kubewhy_model::node::NodeBundle {
                origin: name.to_string(),
                ..Default::default()
            };
            let mut warnings = Vec::new();
            crate::nodelog::parse_node_log(name, reader, Some(anchor), &mut bundle, &mut warnings);
            warnings.into_iter().for_each(|w| out.warn(w));
            if !bundle.lines.is_empty() || !bundle.runtime.is_empty() {
                out.bundles.push(bundle);
            }
        }
        _ => {}
    }
}

fn starts_with_array(bytes: &[u8]) -> bool {
    bytes
        .iter()
        .find(|b| !b.is_ascii_whitespace())
        .is_some_and(|b| *b == b'[')
}

/// Whether the problems of the bundle file at `path` are counted rather than warned: a file of
/// no place the layout defines (another collector's output, an analyzer's, a copy), or a custom
/// resource (no check needs one to parse). A support engineer reads warnings about what should
/// have been readable and was not, not about files kubewhy has no use for.
pub(crate) fn quiet(path: &str, role: &Role) -> bool {
    *role == Role::Unknown || path.split('/').any(|p| p == "custom-resources")
}

/// Drops the warnings of a bundle's `quiet` files, counting them; a quiet file that gave no
/// object is one not needed.
pub(crate) fn quieten(outs: &mut [FileOut], quiet: &[bool], info: &mut BundleInfo) {
    if info.layout.is_none() {
        return;
    }
    for (out, _) in outs.iter_mut().zip(quiet).filter(|(_, q)| **q) {
        if out.warnings.is_empty() {
            continue;
        }
        info.quieted += out.warnings.len();
        out.warnings.clear();
        if out.objects.object_count() == 0 && out.parts.is_empty() {
            info.not_needed += 1;
            info.read = info.read.saturating_sub(1);
        }
    }
}

/// A directory's files as jobs by their places, when it is a bundle (`None`: it is not one,
/// and its files are read as any directory's).
pub(crate) fn plan_directory(
    root: &Path,
    files: &[PathBuf],
) -> Option<(Vec<Job>, Vec<bool>, BundleInfo)> {
    let rel = |p: &Path| {
        p.strip_prefix(root)
            .unwrap_or(p)
            .to_string_lossy()
            .replace('\\', "/")
    };
    let layout = files.iter().find_map(|f| role(&rel(f)).1)?;
    let mut info = BundleInfo {
        name: root.display().to_string(),
        layout: Some(layout),
        ..Default::default()
    };
    let (mut jobs, mut unknown) = (Vec::new(), Vec::new());
    let mut newest: Option<jiff::Timestamp> = None;
    for f in files {
        let path = rel(f);
        let (role, _) = role(&path);
        if info.collected.is_none() {
            info.collected = collected_from_name(&root.display().to_string())
                .or_else(|| collected_from_name(&path));
        }
        match role {
            Role::NotNeeded => info.not_needed += 1,
            Role::Version => {
                info.read += 1;
                info.server_version = std::fs::read(f).ok().and_then(|b| version_of(&b));
            }
            Role::Collected => {
                info.read += 1;
                if let Ok(t) = std::fs::read_to_string(f) {
                    info.collected = collected_from_timestamp(&t).or(info.collected);
                }
            }
            Role::PluginResults => {
                info.read += 1;
                if let Ok(b) = std::fs::read(f) {
                    note_plugin(&mut info, &b);
                }
            }
            Role::Metadata => {
                info.read += 1;
                if let Ok(t) = std::fs::read_to_string(f) {
                    let (version, created) = sbk_metadata(&t);
                    info.server_version = version.or(info.server_version.take());
                    info.collected = created.or(info.collected);
                }
            }
            Role::Unknown => {
                info.read += 1;
                jobs.push(Job::File(f.clone()));
                unknown.push(true);
            }
            role => {
                info.read += 1;
                if info.kubelet_version.is_none() && holds_nodes(&path) {
                    info.kubelet_version = std::fs::read(f).ok().and_then(|b| kubelet_version(&b));
                }
                if let Ok(t) = std::fs::metadata(f).and_then(|m| m.modified()) {
                    let t = jiff::Timestamp::try_from(t).ok();
                    newest = newest.max(t);
                }
                unknown.push(quiet(&path, &role));
                jobs.push(Job::Bundle(
                    f.display().to_string(),
                    Source::Path(f.clone()),
                    role,
                ));
            }
        }
    }
    info.collected = info.collected.or(newest);
    Some((jobs, unknown, info))
}

/// Where a bundle file's bytes are.
#[derive(Clone)]
pub(crate) enum Source {
    Path(PathBuf),
    Bytes(Vec<u8>),
}

/// Read bytes of objects wait for the workers in batches of about this size: decompressing goes
/// on while a batch is decoded, and memory holds two batches, not the archive.
const BATCH_BYTES: usize = 64 << 20;

/// An entry read whole at most this large; a larger one is refused (extract it to read it).
const MAX_ENTRY: u64 = 1 << 30;

/// Reads an archive (`name` as messages name it): every entry by its place, objects decoded on
/// all cores in batches while the next ones are read. Logs are read as streams (only their
/// tails kept); what no check needs is skipped unread.
pub(crate) fn load_archive(
    name: &str,
    path: &Path,
    format: Format,
    anchor: jiff::Timestamp,
    warnings: &mut Vec<InputWarning>,
) -> (Vec<FileOut>, BundleInfo) {
    let mut info = BundleInfo {
        name: name.to_string(),
        archive: Some(format.name()),
        collected: collected_from_name(name),
        ..Default::default()
    };
    let mut direct = FileOut::named(name.to_string());
    let mut newest: Option<jiff::Timestamp> = None;
    // A cluster-info dump's shape: (its `nodes.json`, a `<namespace>/pods.json`).
    let mut dump_shape = (false, false);
    let (tx, rx) = std::sync::mpsc::sync_channel::<(Vec<Job>, Vec<bool>)>(1);
    let (mut outs, mut unknown) = std::thread::scope(|s| {
        let decoder = s.spawn(move || {
            let (mut outs, mut unknown) = (Vec::new(), Vec::new());
            for (batch, u) in rx {
                outs.extend(crate::pool::run(&batch, anchor));
                unknown.extend(u);
            }
            (outs, unknown)
        });
        let mut batch: (Vec<Job>, Vec<bool>) = (Vec::new(), Vec::new());
        let mut batch_bytes = 0usize;
        let links = archive::for_each_entry(name, path, format, warnings, &mut |entry, reader| {
            let (role, layout) = role(entry.path);
            if info.layout.is_none() {
                info.layout = layout;
            }
            if info.collected.is_none() {
                info.collected = collected_from_name(entry.path);
            }
            let entry_name = format!("{name}:{}", entry.path);
            match &role {
                Role::NotNeeded => {
                    info.not_needed += 1;
                    return ControlFlow::Continue(());
                }
                // A node's archive is read here, on the archive's thread, so that it spends the
                // archive's budget (`archive::for_each_zip_entry_in`).
                Role::NodeArchive => {
                    let mut bytes = Vec::new();
                    if let Err(e) = reader.take(MAX_ENTRY + 1).read_to_end(&mut bytes) {
                        if e.kind() != std::io::ErrorKind::FileTooLarge {
                            direct.warn(warn_file(&entry_name, format!("cannot read: {e}")));
                        }
                        return ControlFlow::Continue(());
                    }
                    info.read += 1;
                    node_archive(&entry_name, &bytes, anchor, &mut direct);
                    return ControlFlow::Continue(());
                }
                Role::ContainerLog { .. } | Role::NodeLog => {
                    info.read += 1;
                    if matches!(role, Role::ContainerLog { .. }) {
                        newest = newest.max(entry.mtime);
                    }
                    read_log(
                        &entry_name,
                        &role,
                        BufReader::new(reader),
                        anchor,
                        &mut direct,
                    );
                    return ControlFlow::Continue(());
                }
                _ => {}
            }
            if entry.size > MAX_ENTRY {
                direct.warn(warn_file(
                    &entry_name,
                    format!(
                        "{} MiB: too large to read from the archive; extract it and pass the file",
                        entry.size >> 20
                    ),
                ));
                return ControlFlow::Continue(());
            }
            let mut bytes = Vec::with_capacity(entry.size.min(8 << 20) as usize);
            if let Err(e) = reader.take(MAX_ENTRY + 1).read_to_end(&mut bytes) {
                // A bomb is said once, for the whole archive.
                if e.kind() != std::io::ErrorKind::FileTooLarge {
                    direct.warn(warn_file(&entry_name, format!("cannot read: {e}")));
                }
                return ControlFlow::Continue(());
            }
            info.read += 1;
            match role {
                Role::Version => info.server_version = version_of(&bytes),
                Role::Collected => {
                    info.collected = collected_from_timestamp(&String::from_utf8_lossy(&bytes))
                        .or(info.collected)
                }
                Role::PluginResults => note_plugin(&mut info, &bytes),
                Role::Metadata => {
                    let (version, created) = sbk_metadata(&String::from_utf8_lossy(&bytes));
                    info.server_version = version.or(info.server_version.take());
                    info.collected = created.or(info.collected);
                }
                role => {
                    if role != Role::Unknown {
                        newest = newest.max(entry.mtime);
                    }
                    let (dump_nodes, dump_pods) = dump_file(entry.path);
                    dump_shape.0 |= dump_nodes;
                    dump_shape.1 |= dump_pods;
                    if info.kubelet_version.is_none() && (holds_nodes(entry.path) || dump_nodes) {
                        info.kubelet_version = kubelet_version(&bytes);
                    }
                    batch_bytes += bytes.len();
                    batch.1.push(quiet(entry.path, &role));
                    batch
                        .0
                        .push(Job::Bundle(entry_name, Source::Bytes(bytes), role));
                    if batch_bytes >= BATCH_BYTES {
                        batch_bytes = 0;
                        if tx.send(std::mem::take(&mut batch)).is_err() {
                            return ControlFlow::Break(());
                        }
                    }
                }
            }
            ControlFlow::Continue(())
        });
        info.not_needed += links;
        if !batch.0.is_empty() {
            let _ = tx.send(batch);
        }
        drop(tx);
        decoder.join().unwrap_or_default()
    });
    info.collected = info.collected.or(newest);
    quieten(&mut outs, &unknown, &mut info);
    // Named after quieting: a dump's files are read, and their problems said, as any dump's.
    if info.layout.is_none() && dump_shape == (true, true) {
        info.layout = Some(Layout::ClusterInfoDump);
    }
    unknown.push(false);
    outs.push(direct);
    (outs, info)
}

/// Whether `path` is a cluster-info dump's `nodes.json` (at the top, or under one directory)
/// and whether it is one of its `<namespace>/pods.json`.
fn dump_file(path: &str) -> (bool, bool) {
    let parts: Vec<&str> = path.split('/').collect();
    match parts.as_slice() {
        ["nodes.json"] | [_, "nodes.json"] => (true, false),
        [_, "pods.json"] | [_, _, "pods.json"] => (false, true),
        _ => (false, false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn role_of(p: &str) -> Role {
        role(p).0
    }

    #[test]
    fn troubleshoot_places() {
        let b = "support-bundle-2022-08-05T14_32_11/cluster-resources";
        assert_eq!(
            role_of(&format!("{b}/pods/kube-system.json")),
            Role::Objects { hint: Some("Pod") }
        );
        assert_eq!(
            role_of(&format!("{b}/nodes.json")),
            Role::Objects { hint: Some("Node") }
        );
        assert_eq!(role_of(&format!("{b}/pods-errors.json")), Role::NotNeeded);
        assert_eq!(
            role_of(&format!("{b}/custom-resource-definitions.json")),
            Role::NotNeeded
        );
        assert_eq!(
            role_of(&format!("{b}/auth-cani-list/default.json")),
            Role::NotNeeded
        );
        assert_eq!(
            role_of(&format!(
                "{b}/pods/logs/kube-system/metrics-server-1/metrics-server-previous.log"
            )),
            Role::ContainerLog {
                namespace: "kube-system".into(),
                pod: "metrics-server-1".into(),
                container: "metrics-server".into(),
                previous: true
            }
        );
        assert_eq!(
            role_of("support-bundle-x/cluster-info/cluster_version.json"),
            Role::Version
        );
        assert_eq!(
            role_of("bundle/host-collectors/journald/kubelet.txt"),
            Role::NodeLog
        );
        assert_eq!(
            role_of("bundle/host-collectors/system/memory.json"),
            Role::NotNeeded
        );
        assert_eq!(role_of("bundle/my-app/logs/app.log"), Role::Unknown);
        assert_eq!(
            collected_from_name("support-bundle-2022-08-05T14_32_11/version.yaml"),
            "2022-08-05T14:32:11Z".parse().ok()
        );
    }

    #[test]
    fn must_gather_places() {
        let b = "must-gather.local.1/quay-io-openshift-must-gather-sha256-1";
        assert_eq!(
            role_of(&format!("{b}/namespaces/shop/core/pods.yaml")),
            Role::Objects { hint: None }
        );
        assert_eq!(
            role_of(&format!(
                "{b}/namespaces/shop/route.openshift.io/routes.yaml"
            )),
            Role::NotNeeded
        );
        assert_eq!(
            role_of(&format!("{b}/namespaces/shop/shop.yaml")),
            Role::Objects { hint: None }
        );
        assert_eq!(
            role_of(&format!(
                "{b}/namespaces/shop/pods/web-1/app/app/logs/previous.log"
            )),
            Role::ContainerLog {
                namespace: "shop".into(),
                pod: "web-1".into(),
                container: "app".into(),
                previous: true
            }
        );
        assert_eq!(
            role_of(&format!(
                "{b}/cluster-scoped-resources/core/nodes/node-1.yaml"
            )),
            Role::Objects { hint: None }
        );
        assert_eq!(
            role_of(&format!(
                "{b}/cluster-scoped-resources/config.openshift.io/clusterversions.yaml"
            )),
            Role::NotNeeded
        );
        assert_eq!(
            role_of(&format!(
                "{b}/host_service_logs/masters/kubelet_service.log"
            )),
            Role::NodeLog
        );
        assert_eq!(
            collected_from_timestamp(
                "2023-05-04 10:11:12.345 +0000 UTC m=+0.1\n2023-05-04 10:15:00.5 +0000 UTC m=+228.1\n"
            ),
            "2023-05-04T10:15:00.5Z".parse().ok()
        );
    }

    #[test]
    fn support_bundle_kit_places() {
        let sbk = |p: &str| role(&format!("supportbundle_x/{p}"));
        for p in [
            "yamls/namespaced/default/v1/pods.yaml",
            "yamls/namespaced/longhorn-system/apps/v1/deployments.yaml",
            "yamls/cluster/v1/nodes.yaml",
            "yamls/cluster/scheduling.k8s.io/v1/priorityclasses.yaml",
        ] {
            assert_eq!(
                sbk(p),
                (Role::Objects { hint: None }, Some(Layout::SupportBundleKit)),
                "{p}"
            );
        }
        for p in [
            "yamls/namespaced/default/metrics.k8s.io/v1beta1/pods.yaml",
            "yamls/namespaced/harvester-system/kubevirt.io/v1/virtualmachines.yaml",
            "yamls/cluster/rbac.authorization.k8s.io/v1/clusterroles.yaml",
        ] {
            assert_eq!(
                sbk(p),
                (Role::NotNeeded, Some(Layout::SupportBundleKit)),
                "{p}"
            );
        }
        assert_eq!(
            sbk("logs/longhorn-system/csi-attacher-6-d/csi-attacher.log").0,
            Role::ContainerLog {
                namespace: "longhorn-system".into(),
                pod: "csi-attacher-6-d".into(),
                container: "csi-attacher".into(),
                previous: false
            }
        );
        assert_eq!(
            sbk("nodes/node1.zip"),
            (Role::NodeArchive, Some(Layout::SupportBundleKit))
        );
        assert_eq!(sbk("metadata.yaml").0, Role::Metadata);
        let (version, created) = sbk_metadata(
            "bundlename: \"\"\nbundleversion: 0.1.0\nkubernetesversion: v1.21.7+rke2r1\nbundlecreatedat: \"2022-03-22T23:49:32Z\"\n",
        );
        assert_eq!(version.as_deref(), Some("v1.21.7+rke2r1"));
        assert_eq!(created, Some("2022-03-22T23:49:32Z".parse().unwrap()));
    }

    #[test]
    fn sonobuoy_places() {
        for p in [
            "resources/ns/kube-system/core_v1_pods.json",
            "resources/ns/kube-system/apps_v1_deployments.json",
            "resources/cluster/core_v1_nodes.json",
        ] {
            assert_eq!(
                role(p),
                (Role::Objects { hint: None }, Some(Layout::Sonobuoy)),
                "{p}"
            );
        }
        assert_eq!(
            role("./resources/ns/kube-system/Pods.json").0,
            Role::Objects { hint: Some("Pod") }
        );
        assert_eq!(
            role("resources/ns/default/StorageClasses.json").0,
            Role::Objects {
                hint: Some("StorageClass")
            }
        );
        for p in [
            "resources/cluster/rbac.authorization.k8s.io_v1_clusterroles.json",
            "resources/cluster/apiextensions.k8s.io_v1_customresourcedefinitions.json",
            "plugins/e2e/results/global/e2e.log",
            "hosts/kind-control-plane/configz.json",
            "meta/run.log",
        ] {
            assert_eq!(role(p), (Role::NotNeeded, Some(Layout::Sonobuoy)), "{p}");
        }
        assert_eq!(
            role("podlogs/sonobuoy/sonobuoy/logs/kube-sonobuoy.txt").0,
            Role::ContainerLog {
                namespace: "sonobuoy".into(),
                pod: "sonobuoy".into(),
                container: "kube-sonobuoy".into(),
                previous: false
            }
        );
        assert_eq!(role("serverversion.json").0, Role::Version);
        assert_eq!(
            version_of(br#"{"major":"1","minor":"21","gitVersion":"v1.21.1"}"#).as_deref(),
            Some("v1.21.1")
        );
    }

    #[test]
    fn a_failed_sonobuoy_plugin_names_its_failed_tests() {
        assert_eq!(
            role("plugins/e2e/sonobuoy_results.yaml"),
            (Role::PluginResults, Some(Layout::Sonobuoy))
        );
        // As sonobuoy writes it (vmware-tanzu/sonobuoy test data, results-4-e2e-failures).
        let text = "name: e2e\nstatus: failed\nmeta:\n  type: summary\nitems:\n- name: junit_01.xml\n  status: failed\n  meta:\n    file: results/global/junit_01.xml\n    type: file\n  items:\n  - name: Kubernetes e2e suite\n    status: failed\n    items:\n    - name: '[sig-storage] In-tree Volumes [Driver: local] should support\n        non-existent path'\n      status: skipped\n    - name: '[sig-apps] Daemon set [Serial] should rollback without unnecessary restarts\n        [Conformance]'\n      status: failed\n    - name: '[sig-node] Pods should be submitted and removed [NodeConformance] [Conformance]'\n      status: passed\n";
        let (name, failed, tests) = plugin_results(text).unwrap();
        assert_eq!(name, "e2e");
        assert!(failed);
        assert_eq!(
            tests,
            [
                "[sig-apps] Daemon set [Serial] should rollback without unnecessary restarts [Conformance]"
            ]
        );
        let mut info = BundleInfo::default();
        note_plugin(&mut info, text.as_bytes());
        assert_eq!(
            info.notes(),
            [
                "sonobuoy plugin e2e failed: 1 failed test(s): [sig-apps] Daemon set [Serial] should rollback without unnecessary restarts [Conformance] (its results: plugins/e2e/)"
            ]
        );
        // A plugin that passed says nothing.
        let mut info = BundleInfo::default();
        note_plugin(
            &mut info,
            b"name: systemd-logs\nstatus: passed\nitems: []\n",
        );
        assert!(info.notes().is_empty());
    }

    #[test]
    fn the_kubelets_version_is_read_from_nodes() {
        assert_eq!(
            kubelet_version(b"  nodeInfo:\n    kubeletVersion: v1.20.2\n").as_deref(),
            Some("v1.20.2")
        );
        assert_eq!(
            kubelet_version(br#"{"kubeletVersion": "v1.24.4+k3s1", "x": 1}"#).as_deref(),
            Some("v1.24.4+k3s1")
        );
        assert_eq!(kubelet_version(b"kubeletVersion: \"\""), None);
        assert_eq!(
            kubelet_version(b"f:kubeletVersion: {}\n    kubeletVersion: v1.20.2\n").as_deref(),
            Some("v1.20.2")
        );
    }

    #[test]
    fn a_plain_dump_is_no_bundle() {
        assert_eq!(role_of("dump/kube-system/pods.json"), Role::Unknown);
        assert_eq!(role_of("dump/nodes.json"), Role::Unknown);
        assert_eq!(role_of("pods.json"), Role::Unknown);
    }
}
