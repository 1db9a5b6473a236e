//! Evidence read on a node rather than from the API: kubelet, runtime and kernel log lines,
//! the runtime's own container lists, and what `kubewhy node-collect` gathers (processes, pod
//! directories and cgroups left behind, static pod manifests, the kubelet's settings).
//!
//! Only lines that mean something are kept (each classified by a [`Signal`]), with the IDs that
//! tie them to a pod: pod UIDs, container and sandbox IDs, namespace/name pairs. The rules
//! decide which pod a line concerns (`kubewhy-rules/src/nodelink.rs`).

use jiff::Timestamp;

/// What a node log line says.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Signal {
    /// A stop or kill of a container or sandbox failed or timed out (StopContainer,
    /// KillContainer, StopPodSandbox, KillPodSandbox, "termination failed with gracePeriod").
    StopFailed,
    /// The runtime does not know a container the kubelet tracks ("No ref for container",
    /// "No such container", NotFound on a stop).
    UnknownContainer,
    /// The container runtime does not answer at all (socket refused, "container runtime is
    /// down", "Cannot connect to the Docker daemon").
    RuntimeDown,
    /// An unmount or volume cleanup failed (UnmountVolume.TearDown, subPath cleanup, busy).
    UnmountFailed,
    /// The kubelet found a pod directory whose volumes are still on disk.
    OrphanedVolumes,
    /// A mount of a pod's volume is still present (mountinfo from node-collect).
    MountPresent,
    /// A process has its working directory, root or an open file in a pod's volume (which
    /// keeps the unmount busy).
    MountHeld,
    /// "PLEG is not healthy" (the relist took longer than its threshold).
    PlegUnhealthy,
    /// The kernel's OOM killer killed a process.
    OomKill,
    /// The kubelet's reclaim checks (verbosity 3): containers still running.
    CleanupContainers,
    /// … container status not yet reported.
    CleanupStatus,
    /// … volumes not cleaned up.
    CleanupVolumes,
    /// … pod cgroup not cleaned up.
    CleanupCgroup,
    /// `unregister_netdevice: waiting for … to become free`: a network device that cannot be
    /// released, which freezes sandbox teardown.
    NetdevHang,
    /// A kernel hung-task warning ("task … blocked for more than N seconds").
    HungTask,
    /// client-go waited because of its own rate limit ("due to client-side throttling",
    /// "Throttling request took").
    ClientThrottled,
    /// The kubelet failed to create, update or delete a mirror pod.
    MirrorPod,
}

impl Signal {
    pub fn as_str(self) -> &'static str {
        match self {
            Signal::StopFailed => "stop failed",
            Signal::UnknownContainer => "unknown container",
            Signal::RuntimeDown => "runtime not answering",
            Signal::UnmountFailed => "unmount failed",
            Signal::OrphanedVolumes => "orphaned volumes",
            Signal::MountPresent => "mount still present",
            Signal::MountHeld => "process holds the volume",
            Signal::PlegUnhealthy => "PLEG unhealthy",
            Signal::OomKill => "OOM kill",
            Signal::CleanupContainers => "containers still running",
            Signal::CleanupStatus => "container status not reported",
            Signal::CleanupVolumes => "volumes not cleaned up",
            Signal::CleanupCgroup => "pod cgroup not cleaned up",
            Signal::NetdevHang => "network device not freed",
            Signal::HungTask => "hung task",
            Signal::ClientThrottled => "client-side throttling",
            Signal::MirrorPod => "mirror pod",
        }
    }
}

/// One classified line of a node log.
#[derive(Debug, Clone, Default)]
pub struct NodeLine {
    pub signal: Option<Signal>,
    /// `FILE:LINE`.
    pub origin: String,
    /// The host name of a journal or syslog line.
    pub host: Option<String>,
    /// The component that wrote it (`kubelet`, `containerd`, `dockerd`, `kernel`, …), when the
    /// line says.
    pub component: String,
    /// When the line carries a full date.
    pub time: Option<Timestamp>,
    /// The line as read, bounded in length.
    pub text: String,
    /// A detail the signal carries: the PLEG relist duration, an OOM kill's constraint, the
    /// throttled request.
    pub detail: String,
    /// Pod UIDs the line names (dashes, lowercase).
    pub uids: Vec<String>,
    /// Container or sandbox IDs the line names (64 hex digits).
    pub ids: Vec<String>,
    /// Pods the line names, as (namespace, name).
    pub pods: Vec<(String, String)>,
    /// Lines like it (same signal and subject) dropped to bound memory, which this one stands
    /// for besides itself.
    pub dropped_before: u64,
}

/// A sandbox's pod, or a container's sandbox, learnt from the runtime's own lines
/// (`RunPodSandbox … returns sandbox id`, `CreateContainer within sandbox …`).
#[derive(Debug, Clone, Default)]
pub struct IdLink {
    pub id: String,
    /// The sandbox the container runs in (for a container).
    pub sandbox: Option<String>,
    /// The pod (for a sandbox): namespace, name, uid.
    pub pod: Option<(String, String, String)>,
}

/// One row of a runtime's container, sandbox or task list.
#[derive(Debug, Clone, Default)]
pub struct RuntimeRecord {
    /// `docker ps`, `crictl ps`, `crictl pods`, `ctr task ls`, `ctr containers ls`.
    pub tool: &'static str,
    /// ctr's namespace (`k8s.io`, `moby`) when known.
    pub ctr_namespace: Option<String>,
    pub origin: String,
    /// The ID as listed (full, or a 12/13-character prefix).
    pub id: String,
    /// The state as listed (`Up 3 hours`, `Exited (137) 2 minutes ago`, `Running`, `STOPPED`).
    pub state: String,
    /// Whether that state means the process runs; `None` for lists without a state.
    pub running: Option<bool>,
    /// The container's name (for docker, parsed out of `k8s_<container>_<pod>_<ns>_<uid>_<n>`).
    pub name: String,
    /// The sandbox (pod) ID column of crictl, or the sandbox itself for `crictl pods`.
    pub sandbox: Option<String>,
    pub pod_name: Option<String>,
    pub pod_namespace: Option<String>,
    pub pod_uid: Option<String>,
    /// The row as read.
    pub text: String,
}

/// A process in state Z (zombie) or D (uninterruptible sleep), from node-collect.
#[derive(Debug, Clone, Default)]
pub struct NodeProcess {
    pub origin: String,
    pub pid: u32,
    pub state: char,
    pub command: String,
    pub cgroup: String,
    pub uids: Vec<String>,
    pub ids: Vec<String>,
}

/// A static pod manifest on the node (node-collect reads it; values are not kept).
#[derive(Debug, Clone, Default)]
pub struct StaticManifest {
    pub origin: String,
    pub path: String,
    pub namespace: String,
    pub name: String,
    /// (container, image) pairs of the manifest.
    pub images: Vec<(String, String)>,
    pub modified: Option<Timestamp>,
    pub sha256: String,
}

/// Something of a pod the node still holds: its directory, its cgroup.
#[derive(Debug, Clone, Default)]
pub struct Leftover {
    pub origin: String,
    /// `pod directory`, `pod cgroup`.
    pub what: String,
    pub uid: String,
    pub path: String,
    /// e.g. the volumes still in the directory.
    pub detail: String,
}

/// The kubelet settings that matter to the checks, from its configuration file, its flags, or
/// its `configz` endpoint.
#[derive(Debug, Clone, Default)]
pub struct KubeletSettings {
    pub origin: String,
    pub kube_api_qps: Option<f64>,
    pub kube_api_burst: Option<u64>,
    pub max_pods: Option<u64>,
    pub static_pod_path: Option<String>,
}

/// Everything read from one `--node-logs` path.
#[derive(Debug, Clone, Default)]
pub struct NodeBundle {
    /// The path given.
    pub origin: String,
    /// The node the bundle comes from, when it says (node-collect writes it).
    pub node: Option<String>,
    /// The host name, when it says.
    pub hostname: Option<String>,
    /// When it was collected.
    pub collected: Option<Timestamp>,
    pub lines: Vec<NodeLine>,
    pub links: Vec<IdLink>,
    pub runtime: Vec<RuntimeRecord>,
    /// Which lists the bundle holds (`docker ps`, `ctr task ls moby`, …): absence from a list is
    /// only meaningful when the list was read.
    pub lists: Vec<String>,
    pub processes: Vec<NodeProcess>,
    pub manifests: Vec<StaticManifest>,
    pub leftovers: Vec<Leftover>,
    pub kubelet: Option<KubeletSettings>,
    /// What node-collect could not gather (a missing tool, a permission).
    pub notes: Vec<String>,
    /// Lines of the bundle read, classified or not.
    pub lines_read: u64,
}

/// Node evidence of a snapshot: one bundle per `--node-logs` path, plus kubelet settings read
/// live (`configz`), by node name.
#[derive(Debug, Clone, Default)]
pub struct NodeEvidence {
    pub bundles: Vec<NodeBundle>,
    pub configz: Vec<(String, KubeletSettings)>,
}
