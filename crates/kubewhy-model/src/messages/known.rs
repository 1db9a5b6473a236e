//! Failure messages of the components around a pod, one table with the component and the source
//! each wording comes from: the kubelet's own start-up and node-status failures, the container
//! runtimes (containerd's CRI plugin, CRI-O, dockershim / cri-dockerd, runc) and the kernel's
//! security modules denying them, node agents and bootstrappers (k3s, rke2, EKS nodeadm,
//! systemd units), CNI plugins, CSI drivers, cloud registries, autoscalers and other evictors,
//! the PV controller, the aggregator, and applications whose lines name a cause of their own.
//! `recognise` reads this table after the events' catalogue and before the node log signals, so
//! a pasted line of any of them names its cause wherever it stands.
//!
//! Each entry is a regular expression matched anywhere in a text; the first entry of the table
//! that matches wins, so the more specific wordings come first. `components()` counts the
//! entries per component (the closing note of issue 36 reports it).

use crate::Cause;
use regex::bytes::{Regex, RegexBuilder};
use regex_automata::{
    Input, MatchKind, PatternSet, meta, nfa::thompson::WhichCaptures, util::syntax,
};
use std::sync::{LazyLock, OnceLock};

/// One known wording.
pub struct Known {
    pub component: &'static str,
    /// Where the wording is written (a repository's file), or what prints it.
    pub source: &'static str,
    pub pattern: &'static str,
    pub cause: Cause,
}

const fn k(
    component: &'static str,
    source: &'static str,
    pattern: &'static str,
    cause: Cause,
) -> Known {
    Known {
        component,
        source,
        pattern,
        cause,
    }
}

use Cause::*;

const KUBELET: &str = "kubelet";
const CONTAINERD: &str = "containerd";
const CRIO: &str = "cri-o";
const DOCKERSHIM: &str = "dockershim / cri-dockerd";
const RUNC: &str = "runc and the kernel";
const AGENTS: &str = "node agents (k3s, rke2, nodeadm, systemd)";
const CNI: &str = "CNI plugins";
const CSI: &str = "CSI drivers";
const REGISTRIES: &str = "cloud registries";
const EVICTORS: &str = "autoscalers and evictors";
const CONTROLLERS: &str = "controllers";
const AGGREGATOR: &str = "aggregator";
const APPS: &str = "applications";
const ADMISSION: &str = "API server admission";
/// A container's exit code quoted alone (`exitCode: 137`): a state field, which the checks read
/// themselves wherever the paste shows the container's state.
pub const EXIT_CODES: &str = "exit codes";

/// The table, most specific first.
pub const KNOWN: &[Known] = &[
    k(
        CONTROLLERS,
        "the scheduler before 1.4 (`fit failure on node (n): Node didn't have enough resource: CPU, requested: …`)",
        r"fit failure on node \([^)]*\): Node didn't have enough resource",
        InsufficientResources,
    ),
    k(
        AGENTS,
        "kube-proxy (pkg/util/conntrack): the node has no conntrack binary, so Service traffic to changed endpoints is not cleaned up and UDP Services (DNS) break",
        r#"error looking for path of conntrack: exec: "conntrack": executable file not found"#,
        PodNetworkBroken,
    ),
    // A controller whose removal of a finalizer is refused (a webhook denies the update): the
    // finalizer stays, before the admission refusal it quotes.
    k(
        CONTROLLERS,
        "pkg/controller/job (removing the job-tracking finalizer) and controllers quoting the API server's refusal",
        r"removing (?:the )?(?:tracking )?finalizer: ",
        FinalizerPending,
    ),
    k(
        KUBELET,
        "pkg/kubelet/cm/cpumanager policy_static.go (full-pcpus-only: a Guaranteed pod's CPU count that is not a multiple of the cores' threads is refused at admission)",
        r"SMT Alignment Error: requested \d+ cpus not multiple cpus per core",
        NodeAdmissionRejected,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/disruption (a PodDisruptionBudget whose pods' owner has no scale subresource: the budget allows no disruption, and a drain waits)",
        r"CalculateExpectedPodCountFailed|does not implement the scale subresource",
        DisruptionBudgetBlocking,
    ),
    k(
        CONTROLLERS,
        "pkg/apis/core/validation ValidatePodUpdate (a mutating webhook that injects a container on UPDATE makes every patch of the pod fail, the removal of its finalizer too)",
        r"pod updates may not add or remove containers",
        FinalizerPending,
    ),
    k(
        CONTROLLERS,
        "an operator finalizing its objects in a namespace being deleted, refused by the NamespaceLifecycle admission (plugin/pkg/admission/namespace/lifecycle) when finalizing needs a new object: the objects' finalizers are never removed",
        r"unable to create new content\s+in namespace \S+ because it\s+is being terminated",
        NsFinalizerPending,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/volume/pvcprotection, pvprotection (a claim or volume still in use keeps its finalizer)",
        r#"Finalizers: \[\s*"kubernetes\.io/pvc?-protection"\s*\]"#,
        FinalizerPending,
    ),
    k(
        RUNC,
        "opencontainers/runc libcontainer (the container's init killed for memory while it starts)",
        r"container init was OOM-killed",
        OomKilled,
    ),
    k(
        RUNC,
        "the kernel's SELinux audit (avc: denied) of iscsiadm: an iSCSI volume cannot attach",
        r#"avc:\s+denied\s+\{[^}]*\}\s+for\s+pid=\d+\s+comm="iscsiadm""#,
        VolumeMountFailed,
    ),
    k(
        ADMISSION,
        "plugin/pkg/admission/resourcequota (a pod refused for a namespace's quota, quoted by any client)",
        r"is forbidden: exceeded quota: ",
        PodCreationRejected,
    ),
    k(
        ADMISSION,
        "plugin/pkg/admission/resourcequota (a limited resource, such as a PriorityClass GKE reserves, that no quota in the namespace covers)",
        r"insufficient quota to match these scopes: ",
        PodCreationRejected,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet_pods.go makeMounts (a subPath the kubelet cannot create or prepare inside its volume: CreateContainerConfigError)",
        r"failed to (?:create subPath directory|prepare subPath) for volumeMount",
        VolumeMountFailed,
    ),
    k(
        ADMISSION,
        "the API server's validation of an init container's field that only a sidecar (restartPolicy: Always, 1.28+) may set",
        r"spec\.initContainers\[\d+\]\.\w+: Forbidden: may not be set for init",
        PodCreationRejected,
    ),
    k(
        ADMISSION,
        "the API server's validation of a pod's spec, quoted by the controller that made it (ARC's runners, an operator)",
        r#"Pods? \\?"[^"\\]+\\?" is invalid: \[?spec\.(?:initContainers|containers|ephemeralContainers|volumes)\[\d+\]"#,
        PodCreationRejected,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kuberuntime/kuberuntime_sandbox.go (the sandbox cannot be created: whatever the runtime says after)",
        r"CreatePodSandbox for pod [^\n]* failed: ",
        SandboxCreationFailed,
    ),
    k(
        CONTAINERD,
        "containerd's CRI plugin refusing its configuration (the plugin not loaded: the kubelet has no runtime)",
        r"invalid plugin config: `?mirrors`? cannot be set when `?config_path`? is provided",
        NodeNotReady,
    ),
    k(
        CONTAINERD,
        "containerd snapshotter and content store (its store lost a layer or a blob it still lists; before the create failure that carries it)",
        r"failed to prepare extraction snapshot|failed to get reader from content store: content digest sha256:[0-9a-f]+: not found|failed to stat parent: stat \S*(?:/var/lib/containerd|io\.containerd\.snapshotter\.v1\.\w+/snapshots/\d+)",
        ImageStoreCorrupt,
    ),
    k(
        CONTAINERD,
        "containerd internal/cri/server/container_create.go (the runtime cannot create the container)",
        r"failed to create containerd container: ",
        ContainerStartFailed,
    ),
    k(
        CONTAINERD,
        "containerd's CRI and the kubelet's remote_image.go pulling the sandbox (pause) image",
        r#"PullImage \\?"[^"\s]*/pause:[^"\s\\]*\\?" from image service failed"#,
        SandboxCreationFailed,
    ),
    k(
        CSI,
        "longhorn/longhorn-manager (a replica without its instance manager: the volume cannot attach)",
        r"can not find the only available instance manager for instance",
        VolumeMountFailed,
    ),
    k(
        REGISTRIES,
        "Docker's and containerd's words when no credentials were sent (ECR without its credential provider)",
        r"no basic auth credentials",
        ImagePullAuth,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kuberuntime/kuberuntime_container.go (makeMounts: a volumeMount names a volume the pod does not have)",
        r#"cannot find volume "[^"]+" to mount into container"#,
        ConfigError,
    ),
    k(
        RUNC,
        "a memory cgroup's OOM report as node agents relay it (the process hit its container's limit)",
        r"triggered an OOM kill on itself",
        OomKilled,
    ),
    k(
        CNI,
        "cilium's install-plugin init containers (the node's /opt/cni/bin not writable: SELinux, a read-only host)",
        r"/host/opt/cni/bin is non-writeable",
        SandboxCreationFailed,
    ),
    k(
        CNI,
        "aws/amazon-vpc-cni-k8s ipamd (no address left on the node's ENIs or prefixes)",
        r"IP pool is too low: available \(0\)|InsufficientCidrBlocks|failed to allocate a private IP/Prefix address|short of \d+ prefixes, free 0 prefixes",
        SandboxCreationFailed,
    ),
    k(
        CONTAINERD,
        "containerd, CRI-O and crictl pulling from a registry whose certificate the node does not trust",
        r"(?i:pull)[^\n]*(?:x509: certificate|tls: failed to verify)",
        ImageRegistryTls,
    ),
    k(
        CSI,
        "kubernetes-csi/node-driver-registrar (2.6+ exits when it cannot write its registration probe file)",
        r"Failed to create registration probe file",
        AppExitError,
    ),
    k(
        RUNC,
        "the kernel's memory cgroup report when a cgroup reaches its limit (mm/memcontrol.c, before it kills)",
        r"\bmemory: usage \d+kB, limit \d+kB, failcnt",
        OomKilled,
    ),
    k(
        KUBELET,
        "pkg/volume/csi/nodeinfomanager (the kubelet cannot set up its CSINode: the node stays NotReady)",
        r"Failed to initialize CSINode",
        NodeNotReady,
    ),
    k(
        ADMISSION,
        "plugin/pkg/admission/limitranger (a pod outside its namespace's LimitRange)",
        r"is forbidden: \[?(?:(?:minimum|maximum) \S+ usage per (?:Container|Pod) is |\S+ max limit to request ratio per (?:Container|Pod) is )",
        PodCreationRejected,
    ),
    k(
        CSI,
        "kubernetes-csi/livenessprobe (the CSI driver does not answer its probe: the kubelet restarts it)",
        r#""Health check failed" err="#,
        LivenessProbeFailing,
    ),
    k(
        ADMISSION,
        "GKE Autopilot's Gatekeeper policies (`[denied by autogke-…]`, quoted on its own line when the denial wraps)",
        r"\[denied by autogke-[a-z0-9-]+\]|\bare not supported in Autopilot\b",
        PodCreationRejected,
    ),
    k(
        CNI,
        "Azure/azure-container-networking azure-vnet (its store locked: Windows' HNS)",
        r"Failed to initialize key-value store of network plugin",
        SandboxCreationFailed,
    ),
    k(
        EVICTORS,
        "drain tools quoting the eviction API's refusal (429: a PodDisruptionBudget allows no disruption)",
        r#"Failed to evict pod \\?"?[^"\s]+\\?"? in namespace \\?"?[^"\s]+\\?"?: \(429\)"#,
        DisruptionBudgetBlocking,
    ),
    k(
        RUNC,
        "runc (the command's path does not exist in the image: exit code 127)",
        r#"exec: \\?"[^"\\]+\\?": stat \S+: no such file or directory"#,
        CommandNotFound,
    ),
    // A hook's command that cannot run is the hook failing, before the runtime's words for it.
    k(
        KUBELET,
        "pkg/kubelet/lifecycle/handlers.go, kuberuntime_container.go (a postStart or preStop hook that fails)",
        r"Exec lifecycle hook \(\[[^\n]*\]\) for Container [^\n]* failed - error|\bFailed(?:PreStopHook|PostStartHook)\b",
        LifecycleHookFailed,
    ),
    k(
        RUNC,
        "the kernel's XFS driver (a filesystem made with features the node's kernel cannot mount read-write)",
        r"XFS \(\S+\): (?:Superblock has unknown (?:read-only compatible|incompatible) features|Attempted to mount read-only compatible filesystem read-write)",
        VolumeMountFailed,
    ),
    // ---- the kubelet that does not start, register or report (its node stays NotReady).
    k(
        KUBELET,
        "cmd/kubelet/app/server.go (run; createAndInitKubelet's `failed to create kubelet`, e.g. a container without /dev/kmsg)",
        r"failed to run Kubelet: |failed to create kubelet: ",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "cmd/kubelet/app/server.go (flags)",
        r"failed to parse kubelet flag|failed to validate kubelet flags|failed to load [Kk]ubelet config file",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/cm/container_manager_linux.go",
        r"running with swap on is not supported",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet.go (cgroup driver)",
        r"misconfiguration: kubelet cgroup driver",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet.go (failCgroupV1, 1.35)",
        r"kubelet is configured to not run on a host using cgroup v1",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/cri/remote (CRI v1 required from 1.26)",
        r"CRI v1 (?:runtime|image) API is not implemented for endpoint|unknown service runtime\.v1\.(?:RuntimeService|ImageService)",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet_node_status.go",
        r"Unable to register node(?: \S+)? with API server|Unable to update node status|Error updating node status, will retry",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/certificate/bootstrap",
        r"[Pp]art of the existing bootstrap client certificate.*is expired|failed to run Kubelet: unable to load bootstrap kubeconfig|Failed while requesting a signed certificate from the control plane",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet.go (runtime status)",
        r"(?i)container runtime (?:status check may not have completed yet|not ready)|RuntimeReady=false",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "node condition Ready, reason KubeletNotReady",
        r"NotReady.*?container runtime is down|container runtime is down.*?NotReady",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet_pods.go (makeEnvironmentVariables before the Service informer synced)",
        r"services have not yet been read at least once, cannot construct envvars",
        ConfigError,
    ),
    k(
        CRIO,
        "cri-o's ocicni (a CNI config whose plugins are not in the plugin directory)",
        r#"Error validating CNI config file \S+: \[?failed to find plugin"#,
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet.go (network status)",
        r"(?i)container runtime network not ready|NetworkReady=false|cni plugin not initialized|no networks found in /etc/cni/net\.d|network plugin is not ready",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/eviction/eviction_manager.go",
        r"(?i:eviction manager): (?:pods? \S+ (?:is )?evicted successfully|must evict pod|pods? \S+ evicted, waiting for pod to be cleaned up)|Failed to admit pod \S+ - node has conditions: \[(?:Disk|Memory|PID)Pressure\]",
        EvictedNodePressure,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kuberuntime/kuberuntime_manager.go (every sandbox lost its network: the runtime or node restarted)",
        r"Sandbox for pod has no IP address\. Need to start a new one",
        NodeRestarted,
    ),
    // ---- node agents and bootstrappers.
    k(
        AGENTS,
        "k3s-io/k3s pkg/nodepassword",
        r"Node password (?:rejected|validation failed)",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "k3s-io/k3s pkg/agent",
        r"Waiting to retrieve agent configuration; server is not ready|Failed to retrieve agent config",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "systemd (kubelet, container runtime and bootstrap units)",
        r"(?:kubelet|k3s(?:-agent)?|rke2-(?:server|agent)|containerd|crio|docker|nodeadm[-\w]*|kubeadm[-\w]*)\.service: (?:Main process exited, code=(?:exited|killed)|Failed with result|Failed at step|Start request repeated too quickly)",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "systemd status of a failing unit",
        r"Active: (?:activating \(auto-restart\)|failed) \(Result: (?:exit-code|signal|core-dump|start-limit-hit)\)",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "awslabs/amazon-eks-ami nodeadm",
        r"/usr/bin/nodeadm: Permission denied|nodeadm[^\n]*?(?:failed|error)",
        NodeNotReady,
    ),
    // ---- runtimes: a container that cannot start, a sandbox that cannot be torn down.
    k(
        RUNC,
        "kernel AppArmor audit (runc denied signals: the container cannot be stopped)",
        r#"apparmor="DENIED" operation="signal"|unable to signal init: permission denied"#,
        ContainerStopTimeout,
    ),
    k(
        RUNC,
        "kernel SELinux audit (runc denied signals)",
        r"avc:\s+denied\s+\{ (?:signal|sigkill|sigstop)",
        ContainerStopTimeout,
    ),
    k(
        CONTAINERD,
        "containerd pkg/cri/server/sandbox_stop.go",
        r"failed to destroy network for sandbox",
        ContainerStopTimeout,
    ),
    k(
        CNI,
        "containernetworking/cni (DEL)",
        r"Error deleting network|error removing pod \S+ from CNI network|failed \(delete\):|could not retrieve port mappings",
        ContainerStopTimeout,
    ),
    k(
        DOCKERSHIM,
        "pkg/kubelet/dockershim/docker_sandbox.go, cri-dockerd",
        r"networkPlugin cni failed to teardown pod",
        ContainerStopTimeout,
    ),
    k(
        CONTAINERD,
        "containerd pkg/cri/server/sandbox_run.go",
        r"failed to reserve sandbox name|failed to get sandbox image|failed to setup network for sandbox",
        SandboxCreationFailed,
    ),
    k(
        CNI,
        "containernetworking/cni (ADD)",
        r"failed \(add\):|Error adding network|[Nn]etworkPlugin cni failed to set up pod",
        SandboxCreationFailed,
    ),
    k(
        CNI,
        "projectcalico/calico cni-plugin",
        r#"stat /var/lib/calico/nodename: no such file or directory|error getting ClusterInformation: connection is unauthorized"#,
        SandboxCreationFailed,
    ),
    k(
        CNI,
        "flannel-io/cni-plugin",
        r"failed to load flannel 'subnet\.env' file",
        SandboxCreationFailed,
    ),
    k(
        CNI,
        "cilium/cilium plugins/cilium-cni",
        r"Unable to create endpoint:|unable to connect to Cilium daemon",
        SandboxCreationFailed,
    ),
    k(
        CNI,
        "aws/amazon-vpc-cni-k8s",
        r"failed to assign an IP address to container|Error received from AddNetwork gRPC call",
        SandboxCreationFailed,
    ),
    k(
        CNI,
        "Azure/azure-container-networking",
        r"Failed to allocate (?:pool|address)|No available addresses",
        SandboxCreationFailed,
    ),
    k(
        CONTAINERD,
        "containerd pkg/cri/server/container_start.go",
        r"failed to create containerd task|failed to start containerd task|failed to reserve container name",
        ContainerStartFailed,
    ),
    k(
        RUNC,
        "opencontainers/runc libcontainer",
        r"OCI runtime (?:create|start|exec) failed",
        ContainerStartFailed,
    ),
    k(
        CRIO,
        "cri-o server/container_create.go",
        r"container create failed:",
        ContainerStartFailed,
    ),
    k(
        CRIO,
        "cri-o / the kubelet's CRI status verification (pkg/kubelet/cri/remote/remote_runtime.go)",
        r"status\.CreatedAt is not set|verify ContainerStatus failed",
        RuntimeStateInconsistent,
    ),
    k(
        RUNC,
        "runc and the kernel's freezer: a container frozen, its init in uninterruptible sleep",
        r"runc init[^\n]*?\bD\b|freezer\.state[^\n]*?\n?\s*FROZEN|failed to remove cgroup[^\n]*?device or resource busy",
        ContainerStopTimeout,
    ),
    // ---- volumes.
    k(
        CSI,
        "pkg/volume/csi/csi_util.go",
        r"failed to open volume data file",
        VolumeUnmountStuck,
    ),
    k(
        CSI,
        "pkg/volume/csi (driver not registered) during a teardown: the driver was removed before the pods using its volumes",
        r"(?:UnmountVolume\.TearDown|UnmapVolume|UnmountDevice)[^\n]*driver name \S+ not found in the list of registered CSI drivers",
        VolumeUnmountStuck,
    ),
    k(
        CSI,
        "pkg/volume/csi (driver not registered)",
        r"driver name \S+ not found in the list of registered CSI drivers",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "NFS / EFS / SMB mount helpers",
        r"mount\.nfs4?: (?:access denied by server|Connection timed out)|mount error\(\d+\)|Failed to resolve \S+ - check that your file system ID is correct|you might need a /sbin/mount\.<type> helper program",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "ceph/ceph-csi, longhorn/longhorn",
        r"rbd: map failed|an operation with the given Volume ID \S+ already exists|is not ready for workloads",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "a block-storage driver's kernel module missing on the node (Mayastor's nvme-tcp, iSCSI, Ceph's rbd)",
        r"modprobe: FATAL: Module (?:nvme[-_](?:tcp|rdma|fabrics)|iscsi_tcp|rbd|nbd|ceph) not found",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "open-iscsi's iscsiadm (iSCSI volumes: Longhorn, OpenEBS, democratic-csi)",
        r"iscsiadm: (?:Could not perform SendTargets discovery|cannot make connection to \S+|Could not log into all portals|connection login retries \(reopen_max\) \d+ exceeded|can't open iscsid\.startup configuration file)",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "NetApp Trident's node plugin (utils/iscsi: NodeStageVolume cannot log in to a portal, e.g. one that is down)",
        r"(?:Login to iSCSI target failed|Error logging in to iSCSI target)\.",
        VolumeMountFailed,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/volume/persistentvolume/pv_controller.go",
        r"no persistent volumes available for this claim and no storage class is set|waiting for first consumer to be created before binding|[Ww]aiting for a volume to be created(?:,? either by (?:the )?external provisioner| \.\.\. by ')|verify that the provisioner is running and correctly registered|[Ff]ailed to provision volume with StorageClass|storageclass\.storage\.k8s\.io \S+ not found|requested PV is too small|storageClassName does not match",
        PvcUnbound,
    ),
    // ---- registries: an image that is not there, credentials refused (bare lines; a pull's
    // event is read by `image`).
    k(
        CONTAINERD,
        "containerd pkg/cri/server/image_pull.go (the CRI's NotFound)",
        r#"PullImage \\?"[^"\\]+\\?" failed\\?"? error=\\?"rpc error: code = NotFound"#,
        ImageNotFound,
    ),
    k(
        CONTAINERD,
        "containerd remotes/docker/resolver.go (`failed to resolve image: X: not found` in containerd's CRI plugin of 1.3-1.5, `failed to resolve reference \"X\"` since)",
        r#"failed to resolve reference "[^"]+": (?:\S+: )?not found|failed to resolve image:? "?\S+?"?: (?:\S+: )?not found|manifest unknown|manifest for \S+ not found"#,
        ImageNotFound,
    ),
    k(
        CONTAINERD,
        "containerd remotes/docker and Go's net/http client (a plain-HTTP registry not configured as such; quoted alone, the pull's words cut away)",
        r#"http: server gave HTTP response to HTTPS client"#,
        ImageRegistryHttp,
    ),
    k(
        REGISTRIES,
        "Docker Hub's pull rate limit (as containerd, crictl and docker report it)",
        r"toomanyrequests: You have reached your pull rate limit|429 Too Many Requests - Server message: toomanyrequests",
        ImagePullRateLimited,
    ),
    k(
        CONTAINERD,
        "containerd's Windows snapshotter (microsoft/hcsshim ProcessBaseLayer: a Linux image's layer unpacked on a Windows node)",
        r"hcsshim::ProcessBaseLayer",
        ImagePlatformMismatch,
    ),
    k(
        CRIO,
        "containers/image choosing from an index that lacks the node's platform",
        r"no image found in (?:image index|manifest list)(?: for architecture|\s*$)",
        ImagePlatformMismatch,
    ),
    k(
        CONTAINERD,
        "containerd content store (an ingest whose written content does not match its digest)",
        r#"failed commit on ref [\\"]*layer-sha256:[0-9a-f]+[\\"]*: (?:commit failed: )?unexpected commit digest"#,
        ImageStoreCorrupt,
    ),
    k(
        REGISTRIES,
        "Docker Hub and docker's client",
        r"repository does not exist or may require 'docker login'",
        ImageNotFound,
    ),
    k(
        REGISTRIES,
        "Amazon ECR",
        r"Your authorization token has expired\. Reauthenticate and try again",
        ImagePullAuth,
    ),
    k(
        REGISTRIES,
        "Google Artifact Registry / GCR",
        r#"Permission "artifactregistry\.repositories\.downloadArtifacts" denied|You don't have the needed permissions to perform this operation"#,
        ImagePullAuth,
    ),
    k(
        REGISTRIES,
        "Azure Container Registry",
        r"aka\.ms/acr/authorization",
        ImagePullAuth,
    ),
    k(
        REGISTRIES,
        "Harbor, Quay, GHCR",
        r"unauthorized to access repository|access to the requested resource is not authorized|denied: requested access to the resource is denied",
        ImagePullAuth,
    ),
    // ---- a program's own request refused because a webhook cannot be called: its log says
    // so as its error (`err="…"`, `with err: …`). Not a pod's creation: whatever the program
    // needed the object for (a node's annotation, its default queue) is the dependency that
    // does not answer. Before the API server's refusals below, which would take the line.
    k(
        APPS,
        "a controller's or agent's log (klog's err=, logrus's error=) quoting the API server's webhook failure (staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook/errors)",
        r#"(?:\berr="|\berror="|with err: )(?:(?i:internal error occurred): )?failed calling (?:admission )?webhook"#,
        DependencyUnreachable,
    ),
    // ---- the API server refusing a pod (or the workload that makes it), in any text: a
    // controller's log, `kubectl apply`'s error, an operator's status.
    k(
        ADMISSION,
        "staging/src/k8s.io/apiserver/pkg/admission/plugin/webhook (validating and mutating webhooks; GKE Autopilot's Warden, Kyverno, Gatekeeper; a workload condition's message in JSON)",
        r#"admission webhook "[^"]+" denied the request|"message": "admission webhook \\"[^"\\]+\\" denied the request|GKE Warden rejected the request|failed calling webhook [`"'][^`"']+[`"']: failed to call webhook|(?:FailedCreate:?\s[^\n]*|(?i:internal error occurred): )failed calling (?:admission )?webhook"#,
        PodCreationRejected,
    ),
    k(
        KUBELET,
        "pkg/kubelet/lifecycle (the AppArmor admit handler: a profile the node has not loaded)",
        r#"Cannot enforce AppArmor: (?:profile "[^"]+" is not loaded|AppArmor is not enabled)"#,
        NodeAdmissionRejected,
    ),
    k(
        ADMISSION,
        "PodSecurityPolicy admission (≤1.24) refusing any pod no policy admits, the kubelet's mirror pods included",
        r"is forbidden: no providers available to validate pod request",
        PodCreationRejected,
    ),
    k(
        EVICTORS,
        "cluster-autoscaler NotTriggerScaleUp (a new node would fit, but the cluster's or the node group's limit is reached)",
        r"max cluster (?:cpu|memory)(?:, (?:cpu|memory))? limit reached|max node group size reached",
        InsufficientResources,
    ),
    k(
        ADMISSION,
        "the API server's pod validation (a mount path twice, often injected by a webhook)",
        r#"volumeMounts\[\d+\]\.mountPath: Invalid value: "[^"]*": must be unique"#,
        PodCreationRejected,
    ),
    k(
        CSI,
        "minio/directpv controller (no drive on the node the claim's topology asks for)",
        r"no drive found for requested topolog",
        PvcUnbound,
    ),
    k(
        EVICTORS,
        "AKS upgrades (a PodDisruptionBudget that allows no disruption blocks the node's drain)",
        r"\(UnsatisfiablePDB\)|has minAvailable\(\d+\) >= expectedPods\(\d+\)",
        DisruptionBudgetBlocking,
    ),
    k(
        ADMISSION,
        "plugin/pkg/admission/security/podsecurity (Pod Security admission, 1.23+) and PodSecurityPolicy (≤1.24)",
        r#"(?:violates|would violate) PodSecurity \\?"|is forbidden: unable to validate against any pod security policy|PodSecurityPolicy: unable to admit pod|Host port \d+ is not allowed to be used\. Allowed ports"#,
        PodCreationRejected,
    ),
    k(
        ADMISSION,
        "OpenShift's SecurityContextConstraints admission",
        r"is forbidden: unable to validate against any security context constraint",
        PodCreationRejected,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet_pods.go (a container's env or volume names a Secret that is not there: CreateContainerConfigError's message, as a TaskRun or a status excerpt quotes it)",
        r#"(?:^|message:\s*"?|Error:\s*|[\s'"(])secret "[\w.-]+" not found|couldn't find key \S+ in Secret "#,
        SecretMissing,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet_pods.go (the same for a ConfigMap)",
        r#"(?:^|message:\s*"?|Error:\s*|[\s'"(])configmaps? "[\w.-]+" not found|couldn't find key \S+ in ConfigMap "#,
        ConfigmapMissing,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kuberuntime/kuberuntime_container.go (executePreStopHook: the hook still ran when the grace period ended; before 1.21 `preStop hook for container … did not complete`)",
        r"PreStop hook not completed in grace period|preStop hook for container \S+ did not complete in \d+ seconds",
        LifecycleHookFailed,
    ),
    k(
        KUBELET,
        "pkg/volume/util/subpath/subpath_linux.go (doCleanSubPaths): a subPath bind mount the kubelet cannot clean, most often under an NFS mount gone stale when its server restarted",
        r"error cleaning subPath mounts for volume|(?i:stale NFS file handle)",
        VolumeUnmountStuck,
    ),
    k(
        ADMISSION,
        "the API server's validation of a pod a controller creates (`Failed to create the pod: Pod \"x\" is invalid: …`, `Error creating: Pod \"x\" is invalid`)",
        r#"(?:[Ff]ailed to create (?:the )?pod|Error creating|error creating pod|unable to create Pod)\S*:? Pods? \\?"[^"\\]+\\?" is invalid: "#,
        PodCreationRejected,
    ),
    k(
        RUNC,
        "the kernel's NFS client (dmesg): the server stopped answering; every access to the mount hangs, unmounting too, and the kubelet with it",
        r"nfs: server \S+ not responding, (?:still trying|timed out)",
        VolumeUnmountStuck,
    ),
    k(
        CONTROLLERS,
        "helm's --wait (pkg/kube/ready.go) and the scheduler: a claim the release waits on is not bound",
        r"PersistentVolumeClaim is not bound: ",
        PvcUnbound,
    ),
    k(
        AGENTS,
        "k3s-io/k3s pkg/cgroups (the agent refuses a kernel without the memory cgroup controller)",
        r"(?i:f)ailed to find memory cgroup",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "k3s-io/k3s pkg/agent (an agent checking the server's CA before it joins: a clock behind or ahead of the server's makes every certificate look expired, and the node never registers)",
        r"CA cert validation failed: [^\n]*x509: certificate has expired or is not yet valid",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "the kubelet admitting a pod that asks for an extended resource (nvidia.com/gpu) whose device plugin has not registered on the node yet (quoted from a pod's status on Bottlerocket NVIDIA nodes)",
        r#"Resource "[\w./-]+" was requested but not registered"#,
        DeviceAllocationFailed,
    ),
    k(
        KUBELET,
        "cAdvisor and the kubelet on cgroup v1 with a kernel (6.x) that no longer has the memory controller's kmem files",
        r"memory\.kmem\.limit_in_bytes: no such file or directory",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "custom columns or a script printing a pod's phase and reason (`phase=Failed reason=Evicted`): the kubelet evicted it",
        r"\bphase=Failed reason=Evicted\b",
        EvictedNodePressure,
    ),
    k(
        EVICTORS,
        "jenkinsci/kubernetes-plugin: the agent pod's containers ended because the pod was evicted through the Eviction API (a drain, the autoscaler)",
        r"Pod was evicted by the Kubernetes Eviction API",
        EvictedApi,
    ),
    // ---- evictions, drains and budgets.
    k(
        EVICTORS,
        "kubernetes-sigs/karpenter pkg/controllers/node/termination/terminator/events.go (EvictPod: `Evicted pod`, with the node and the disruption reason since v1.1)",
        r"Evicted pod: node \S+ \w+|(?m)\bEvicted\s+(?:pod/)?\S+\s+Evicted pod\s*$",
        EvictedApi,
    ),
    k(
        EVICTORS,
        "AKS upgrade and node-image drains (aka.ms/aks/debugdrainfailures): a PodDisruptionBudget refuses the eviction",
        r"Drain of \S+ did not complete|blocked by pdb \S+ with unready pods|Eviction blocked by Too many Requests \(usually a pdb\)",
        DisruptionBudgetBlocking,
    ),
    k(
        EVICTORS,
        "pkg/registry/core/pod/storage/eviction.go",
        r"This pod has more than one PodDisruptionBudget, which the eviction subresource does not support",
        DisruptionBudgetBlocking,
    ),
    k(
        EVICTORS,
        "kubectl -v: the eviction refused",
        r"/eviction 429 Too Many Requests",
        DisruptionBudgetBlocking,
    ),
    k(
        EVICTORS,
        "kubectl describe pdb / the PDB's status",
        r"Allowed disruptions:\s+0\b|disruptionsAllowed: 0\b",
        DisruptionBudgetBlocking,
    ),
    k(
        EVICTORS,
        "Karpenter (DisruptionBlocked), aks-engine and kured drains",
        r"prevents pod evictions|Cannot disrupt Node: .*(?:pdb|PDB|disruption budget)|Drain did not complete(?: pods \[[^\]]*\])? within|is blocking evictions|PodDrainFailure",
        DisruptionBudgetBlocking,
    ),
    k(
        EVICTORS,
        "kubernetes/autoscaler vertical-pod-autoscaler updater",
        r"EvictedByVPA|evicted by VPA Updater",
        EvictedApi,
    ),
    k(
        EVICTORS,
        "kubernetes-sigs/descheduler",
        r"evicted from node by sigs\.k8s\.io/descheduler|reason: 'Descheduled'",
        EvictedApi,
    ),
    k(
        EVICTORS,
        "Karpenter provisioner",
        r"incompatible requirements, (?:label|key) ",
        NodeSelectorMismatch,
    ),
    k(
        EVICTORS,
        "Karpenter provisioner",
        r"did not tolerate \S+=\S*:No(?:Schedule|Execute)",
        UntoleratedTaint,
    ),
    k(
        EVICTORS,
        "Karpenter provisioner",
        r"no instance type (?:satisfied resources|which had enough resources)",
        InsufficientResources,
    ),
    k(
        EVICTORS,
        "cluster-autoscaler on GKE (FailedScaleUp: the project's Compute Engine quota)",
        r"Node scale up in zones [^\n]*? failed: GCE quota exceeded",
        InsufficientResources,
    ),
    k(
        EVICTORS,
        "Karpenter provisioner (the NodePool's spec.limits reached: no node may be added)",
        r"all available instance types exceed limits for nodepool",
        InsufficientResources,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/tainteviction/taint_eviction.go (1.29+), nodelifecycle/scheduler/taint_manager.go",
        r#"Marking for deletion Pod|TaintManagerEviction|"Deleting pod" controller="taint-eviction-controller"|NoExecuteTaintManager is deleting [Pp]od"#,
        EvictedTaint,
    ),
    k(
        CONTROLLERS,
        "DRA control-plane controllers (k8s.io/dynamic-resource-allocation/controller)",
        r"resource controller: Found no pending pod claims|failed to allocate claim",
        ResourceClaimUnallocatable,
    ),
    k(
        CONTROLLERS,
        "controllers removing a finalizer",
        r"(?i:failed|unable|error) (?:to remove|removing) (?:the )?finalizer",
        FinalizerPending,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/job (the job-tracking finalizer, 1.26+) and the API server refusing its removal",
        r"batch\.kubernetes\.io/job-tracking|Pod QoS is immutable|existing toleration can not be modified except its tolerationSeconds",
        FinalizerPending,
    ),
    k(
        EVICTORS,
        "kubernetes/autoscaler vertical-pod-autoscaler pkg/updater/logic/updater.go",
        r"updater\.go:\d+\] evicting pod \S+",
        EvictedApi,
    ),
    k(
        CONTROLLERS,
        "actions/actions-runner-controller (runner pods wait for their job before their finalizer goes)",
        r"Runner pod is annotated to wait for completion|actions\.summerwind\.dev/runner-pod",
        FinalizerPending,
    ),
    k(
        CONTROLLERS,
        "argoproj/argo-workflows, Kubeflow Pipelines (a step whose pod went while it ran: an eviction by the cluster autoscaler or a drain, most often)",
        r"(?m)\s\S+-\d{5,}\s+pod deleted\s*$|pod deleted during operation",
        EvictedApi,
    ),
    k(
        APPS,
        "Elasticsearch bootstrap checks",
        r"bootstrap checks failed|vm\.max_map_count \[\d+\] is too low",
        AppExitError,
    ),
    k(
        EVICTORS,
        "kubernetes-sigs/descheduler pkg/descheduler/evictions/evictions.go",
        r#"evictions\.go:\d+\] Evicted pod: |"Evicted pod" pod=|\d+ pods evicted from node"#,
        EvictedApi,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet.go (cAdvisor cannot start: the kubelet exits; an inotify limit, a cgroup it cannot read)",
        r#"Failed to start cAdvisor|Registration of the raw container factory failed"#,
        NodeNotReady,
    ),
    k(
        KUBELET,
        "k8s.io/mount-utils mount_linux.go (a mount that fails: its arguments and mount's output), before a path listed alone counts as still mounted",
        r"(?:^|\]: )\s*Mounting arguments:|already mounted or mount point busy|\bMount failed: exit status",
        VolumeMountFailed,
    ),
    k(
        KUBELET,
        "util-linux mount(8) and mount.nfs (their own words when a mount fails: a filesystem the kernel cannot read, an NFS server or version it cannot reach)",
        r"wrong fs type, bad option, bad superblock on|mount\.nfs4?: (?:Protocol not supported|Connection timed out|Connection refused|access denied by server|No route to host)",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "kubernetes-csi/csi-proxy and csi-driver-smb on Windows (New-SmbGlobalMapping refusing the share)",
        r"New-SmbGlobalMapping (?:: |failed)",
        VolumeMountFailed,
    ),
    k(
        CNI,
        "containernetworking/plugins (host-local IPAM: the node's pod range has no address left; the bridge plugin's veth whose address does not match, as on a node with IPv6 disabled)",
        r"failed to allocate for range \d+: no IP addresses available in range set|Interface veth\w+ Mac doesn't match: ",
        SandboxCreationFailed,
    ),
    k(
        CNI,
        "k8snetworkplumbingwg/multus-cni (a pod's network annotation names a NetworkAttachmentDefinition its namespace lacks)",
        r"cannot find a network-attachment-definition \(",
        SandboxCreationFailed,
    ),
    k(
        KUBELET,
        "pkg/kubelet/pod_workers.go and volumemanager (1.25+: the pod's sync waits on volumes it could not mount: its error names them)",
        r"unmounted volumes=\[[^\]]+\], unattached volumes=\[",
        VolumeMountFailed,
    ),
    k(
        KUBELET,
        "pkg/kubelet/preemption (a critical pod admitted by evicting pods of lower priority from the node)",
        r"(?i:preempted in order to admit critical pod)",
        Preempted,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet_node_status.go before 1.11 (the node object cannot be built: the cloud provider does not answer)",
        r"Unable to construct (?:api|v1)\.Node object for kubelet",
        NodeNotReady,
    ),
    k(
        CSI,
        "the kubelet dialling a CSI driver's socket that is not there (its node plugin not running on the node)",
        r"csi\.sock: connect: (?:no such file or directory|connection refused)",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "a CSI node plugin's own log of the NodePublishVolume call it failed (the gRPC method and its status)",
        r"(?i:/csi\.v1\.node/nodepublishvolume) code = \w+ desc =",
        VolumeMountFailed,
    ),
    k(
        CONTROLLERS,
        "volcano-sh/volcano's scheduler (a gang whose members cannot all be placed: its queue or the nodes lack the resources)",
        r"\d+/\d+ tasks in gang unschedulable",
        InsufficientResources,
    ),
    k(
        CSI,
        "kubernetes-sigs/secrets-store-csi-driver providers (a provider that cannot fetch the secret it mounts)",
        r"failed to process mount request|failed to mount secrets store objects for pod",
        VolumeMountFailed,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/nodeipam (the cluster CIDR has no range left for a new node: the node gets no pod CIDR and stays NotReady)",
        r"no remaining CIDRs left to allocate in the accepted range",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kuberuntime (1.33+: an in-place resize the kubelet cannot apply, as PodResizeInProgress with reason Error)",
        r"cannot decrease memory limits: ",
        ResizeInfeasible,
    ),
    k(
        CONTAINERD,
        "containerd remotes/docker/authorizer.go (the registry's token service refuses the credentials)",
        r"failed to fetch (?:oauth|anonymous) token: unexpected status(?:: | from GET request to \S+: )(?:401|403)",
        ImagePullAuth,
    ),
    k(
        CONTAINERD,
        "containerd pkg/cri/server/image_pull.go (image pull progress timeout)",
        r"cancel pulling image \S+ because of no progress in",
        ImagePullTimeout,
    ),
    k(
        KUBELET,
        "pkg/kubelet/images/puller.go (the kubelet's registryPullQPS limit)",
        r"pull QPS exceeded",
        ImagePullQps,
    ),
    k(
        CSI,
        "lsblk / df / mount listing a pod's volume still mounted",
        r"\s/var/lib/kubelet/pods/[0-9a-f]{8}-[0-9a-f-]{27}/volumes/\S+",
        VolumeUnmountStuck,
    ),
    k(
        APPS,
        "rancher/rancher cluster agent (its start-up check of the Rancher server URL)",
        r"ERROR: https?://\S+/ping is not accessible",
        DependencyUnreachable,
    ),
    k(
        CONTROLLERS,
        "kubernetes-sigs/cluster-api machine controller (a drain waiting on pods the kubelet does not remove)",
        r"deletionTimestamp set, but still not removed from the Node",
        KubeletCleanupPending,
    ),
    k(
        KUBELET,
        "pkg/kubelet/images/image_gc_manager.go",
        r"Disk usage on image filesystem is over the high threshold|(?i:failed to garbage collect required amount of images)",
        NodePressure,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet_node_status.go (the kubelet not registered)",
        r#"Error getting node"? err="node \\?"[^"\\]+\\?" not found"#,
        NodeNotReady,
    ),
    k(
        KUBELET,
        "the kubelet's health endpoint refusing (the kubelet is not running)",
        r"127\.0\.0\.1:10248/healthz[^\n]*?connection refused",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "siderolabs/talos machined (a node service the runtime cannot start)",
        r"Error running Containerd\((?:kubelet|etcd)\)|failed to start shim: mkdir",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "rancher/rke2 Windows agent",
        r"Waiting for Ready condition to be updated for Kubelet Port assignment",
        NodeNotReady,
    ),
    k(
        EVICTORS,
        "Karpenter, cluster-autoscaler (a node it no longer finds)",
        r#"Node \\?"[^"\\]+\\?" not found"#,
        NodeDeleted,
    ),
    k(
        APPS,
        "NVIDIA CUDA validators and applications",
        r"CUDA driver version is insufficient for CUDA runtime version|no CUDA-capable device is detected",
        AppExitError,
    ),
    k(
        KUBELET,
        "pkg/kubelet/cm/container_manager_linux.go (start-up)",
        r"Failed to start ContainerManager|invalid kernel flag: |(?i:failCgroupV1)",
        NodeNotReady,
    ),
    k(
        CONTROLLERS,
        "kubernetes-sigs/aws-load-balancer-controller (a cleanup that fails keeps its finalizer)",
        r"DependencyViolation: resource sg-\S+ has a dependent object|failed to delete securityGroup|is not a valid target group ARN|Failed deploy model due to",
        FinalizerPending,
    ),
    k(
        CONTROLLERS,
        "kubernetes-sigs/kueue pod integration (a gate it fails to remove)",
        r#"Unsuspending job\\?"?,\\?"controller\\?":\\?"v1_pod"#,
        SchedulingGated,
    ),
    k(
        KUBELET,
        "kubelet flags removed with dockershim (1.24) and --container-runtime (1.27): the kubelet will not start",
        r"--container-runtime(?:=|\s+)docker\b|--network-plugin(?:=|\s+)cni\b",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "kubernetes/kubeadm preflight",
        r"\[ERROR CRI\]: container runtime is not running|connect endpoint 'unix:///var/run/dockershim\.sock'",
        NodeNotReady,
    ),
    k(
        DOCKERSHIM,
        "moby/moby (docker lists a container its containerd no longer has)",
        r"Cannot kill container \S+: .*?(?:does not exist|container destroyed|No such container)",
        RuntimeStateInconsistent,
    ),
    k(
        KUBELET,
        "pkg/volume/util/operationexecutor (a global mount other pods still use)",
        r"GetDeviceMountRefs check failed|is still mounted by other references",
        VolumeUnmountStuck,
    ),
    k(
        AGGREGATOR,
        "client-go discovery (memcache.go): an aggregated API that does not answer",
        r"couldn't get resource list for \S+: the server is currently unable to handle the request",
        ApiserviceUnavailable,
    ),
    k(
        APPS,
        "AWS SDK v2 (ec2imds)",
        r"ec2imds: GetMetadata|error in fetching vpc id through ec2 metadata",
        DependencyUnreachable,
    ),
    k(
        APPS,
        "NVIDIA driver installer",
        r"Could not resolve Linux kernel version",
        AppExitError,
    ),
    k(
        DOCKERSHIM,
        "moby/moby daemon/delete.go (a file of the container still held open: a log agent tailing it)",
        r"unable to remove filesystem for \S+: [^\n]*?(?:Access is denied|device or resource busy|being used by another process)",
        KubeletCleanupPending,
    ),
    k(
        DOCKERSHIM,
        "moby/moby registry client",
        r"Error (?:getting|trying) v2 registry: Get \S+: dial tcp",
        ImageRegistryUnreachable,
    ),
    k(
        RUNC,
        "containers/crun (src/libcrun/cgroup*.c): the device cgroup of cgroup v1 refused",
        r"writing file `devices\.allow`: Operation not permitted",
        ContainerStartFailed,
    ),
    k(
        CNI,
        "weaveworks/weave (net/ipam, weaver's allocation range check)",
        r"Network \S+ overlaps with existing route \S+ on host",
        AppExitError,
    ),
    k(
        CNI,
        "cloudnativelabs/kube-router (pkg/utils/node.go): no pod CIDR allocated to the node",
        r"node\.Spec\.PodCIDR not set for node",
        AppExitError,
    ),
    k(
        CSI,
        "openebs/zfs-localpv, lvm-localpv (pkg/zfs/zfs_util.go): the node plugin's zfs/lvm command failed, the volume is not provisioned",
        r"could not create volume \S+ cmd \[create",
        PvcUnbound,
    ),
    k(
        CSI,
        "kubernetes-sigs/vsphere-csi-driver (pkg/csi/service/node.go): NodeUnpublish of a block volume",
        r"error getting block device for volume: \S+, err: lstat",
        VolumeUnmountStuck,
    ),
    k(
        CSI,
        "ps: a FUSE-based CSI driver's mount process (seaweedfs, s3fs, juicefs, rclone) still serving a volume under the kubelet's directory, which holds the volume's unmount",
        r"^\S+\s+\d+\s+[\d.]+\s+[\d.]+\s+\d+\s+\d+\s+\S+\s+\S+\s+\S+\s+[\d:.]+\s+\S*(?:weed|s3fs|juicefs|rclone|goofys|mount\.s3|gcsfuse)\b.*\bmount\b.*/kubelet/(?:plugins/kubernetes\.io/csi/|pods/)",
        VolumeUnmountStuck,
    ),
    k(
        RUNC,
        "docker / runc (libcontainer rootfs): a mount with HostToContainer or Bidirectional propagation whose host path is a private mount",
        r"is mounted on \S+ but it is not a shared(?: or slave)? mount",
        ContainerStartFailed,
    ),
    k(
        CNI,
        "iptables in an init container (linkerd-init, istio-init, CNI agents): the legacy backend on a host without its kernel modules",
        r"iptables who\? \(do you need to insmod\?\)",
        AppExitError,
    ),
    k(
        CONTROLLERS,
        "kube-scheduler before 1.7 (plugin/pkg/scheduler/generic_scheduler.go): the node's resources do not fit",
        r"fit failure on node \([^)]*\): Insufficient (?:cpu|memory|ephemeral-storage)",
        InsufficientResources,
    ),
    k(
        APPS,
        "Apache Airflow's task runner: the task's process was killed by SIGKILL (-9), the kernel's OOM killer as a rule",
        r"Command exited with return code -9\b",
        OomKilled,
    ),
    k(
        APPS,
        "node agents that load eBPF or kernel modules (Datadog system-probe, Sysdig, Falco): the host's kernel refuses or its headers are missing",
        r"failed to create system probe: |Your kernel headers for kernel \S+ cannot be found",
        AppExitError,
    ),
    k(
        APPS,
        "rabbitmq/cluster-operator's preStop hook (`rabbitmq-upgrade await_online_quorum_plus_one`): it waits until stopping the node would leave every quorum and stream queue available, and with too few replicas never returns",
        r"will become unavailable if node rabbit@\S+ stops",
        LifecycleHookFailed,
    ),
    k(
        APPS,
        "coredns/coredns plugin/loop: its own query came back, a forwarding loop (the node's resolv.conf names a local stub resolver such as systemd-resolved's 127.0.0.53); CoreDNS exits",
        r"plugin/loop: Loop \([^)]*\) detected|plugin/loop: Seen .* more than twice, loop detected",
        AppExitError,
    ),
    k(
        APPS,
        "operators built with controller-runtime (kubebuilder's main.go: `problem running manager` / `unable to start manager`, then exit 1)",
        r#"(?:setup\s+)?problem running manager|unable to start manager|(?i:cannot start controller manager)"#,
        AppExitError,
    ),
    k(
        APPS,
        "k8s.io/apiserver healthz and controller-runtime's /readyz?verbose: a named check failing, so the readiness probe fails",
        r"^\[-\]\S+ failed: reason withheld|readyz check failed|healthz check failed",
        ReadinessProbeFailing,
    ),
    k(
        APPS,
        "fluent-bit (src/flb_signals.h): the engine caught a fatal signal and exits",
        r"\[engine\] caught signal \(SIG(?:SEGV|ABRT|BUS|ILL|FPE)\)",
        KilledBySignal,
    ),
    k(
        APPS,
        "jemalloc built for 4 KiB pages on a kernel with 16 or 64 KiB pages (arm64: Raspberry Pi 5, Asahi, some Talos and Ampere kernels); the process aborts",
        r"<jemalloc>: Unsupported system page size",
        AppExitError,
    ),
    k(
        APPS,
        "hashicorp/memberlist (Alertmanager, Consul, Loki's ring): the pod's IP is not a private address and none was given",
        r"No private IP address found, and explicit IP not provided",
        AppExitError,
    ),
    k(
        APPS,
        "an environment variable the program reads taken by a Service link (enableServiceLinks: a Service named like the program injects NAME_PORT=tcp://…)",
        r#"parsing "tcp://\d+\.\d+\.\d+\.\d+:\d+": invalid syntax"#,
        AppExitError,
    ),
    k(
        APPS,
        "openkruise's kruise-daemon: the runtime socket it looks for (dockershim, removed in 1.24) is not on the node",
        r"exists, but not found \S*dockershim\.sock",
        AppExitError,
    ),
    k(
        APPS,
        "the OpenTelemetry Collector (and ADOT) refusing its configuration: a component this version does not have or no longer has",
        r#"error decoding '[\w.]+': (?:unknown type: "[\w/]+" for id|the \w+ exporter has been deprecated)|cannot unmarshal the configuration"#,
        AppExitError,
    ),
    k(
        APPS,
        "a client of the kubelet's API (CloudWatch agent, metrics-server) before the kubelet has a serving certificate: its CSR is not approved, so TLS fails",
        r":10250/\S*\W*remote error: tls: internal error",
        DependencyUnreachable,
    ),
    k(
        APPS,
        "the Go runtime's fatal errors and panics (a bug in the program: it exits with code 2), and apimachinery's HandleCrash logging one before it re-panics",
        r#"fatal error: (?:concurrent map (?:iteration and map write|writes|read and map write)|all goroutines are asleep)|panic: runtime error: |"Observed a panic" panic="runtime error"#,
        AppExitError,
    ),
    k(
        APPS,
        "knative.dev/pkg's version check (sharedmain): the cluster is older than the release supports, so the controller exits",
        r#""Version check failed"|kubernetes version \\?"[^"\\]+\\?" is not compatible, need at least"#,
        AppExitError,
    ),
    k(
        APPS,
        "falcosecurity/falco and its driver loader (falco-driver-loader): no kernel module or eBPF probe for the node's kernel",
        r"Unable to load the driver\. Exiting|Failure to find a BPF probe|Unable to find a prebuilt falco module|Unable to load the driver|Failed to load falco module",
        AppExitError,
    ),
    // Before the inotify limits below: containerd's CRI plugin failing to load for one.
    k(
        CONTAINERD,
        "containerd's CRI plugin (pkg/cri: the plugin failed to load): the kubelet has no runtime to talk to, so the node is NotReady",
        r"failed to create CRI service: ",
        NodeNotReady,
    ),
    k(
        APPS,
        "any process at its open-files or inotify limit (promtail, fluent-bit, grafana agent watching every log file; .NET's FileSystemWatcher: `The configured user limit (128) on the number of inotify instances has been reached`)",
        r"(?i)too many open files|number of inotify instances has been reached|inotify_init(?:1)?(?:\(\))?: too many",
        AppExitError,
    ),
    k(
        APPS,
        "redis (src/config.c): a directive the server does not know, printed before it exits (between `***`, which a paste's markdown may eat)",
        r"FATAL CONFIG FILE ERROR \(Redis",
        AppExitError,
    ),
    k(
        KUBELET,
        "pkg/credentialprovider/plugin/plugin.go (kubelet image credential provider plugins: ecr-credential-provider, acr-credential-provider, gke's auth provider)",
        r"Failed getting credential from external registry credential provider|error execing credential provider plugin|Error running credential provider plugin|is not authorized to perform: ecr:(?:GetAuthorizationToken|BatchGetImage|GetDownloadUrlForLayer)",
        ImagePullAuth,
    ),
    k(
        REGISTRIES,
        "Go's resolver (net.DNSError) naming a well-known registry host: the node cannot resolve where it pulls from",
        r"lookup (?:registry-1\.docker\.io|index\.docker\.io|auth\.docker\.io|registry\.k8s\.io|[\w.-]*(?:gcr\.io|pkg\.dev|azurecr\.io|ecr\.[\w-]+\.amazonaws\.com|quay\.io|ghcr\.io|docker\.com))(?: on [\d.:\[\]a-f]+)?: (?:Try again|no such host|i/o timeout|server misbehaving|Temporary failure in name resolution)",
        ImageRegistryUnreachable,
    ),
    k(
        REGISTRIES,
        "nslookup / dig on the node naming a well-known registry host: the node's resolver fails",
        r"server can't find (?:registry-1\.docker\.io|index\.docker\.io|auth\.docker\.io|registry\.k8s\.io|[\w.-]*(?:gcr\.io|pkg\.dev|azurecr\.io|ecr\.[\w-]+\.amazonaws\.com|quay\.io|ghcr\.io|docker\.com)): (?:SERVFAIL|NXDOMAIN|REFUSED)",
        ImageRegistryUnreachable,
    ),
    k(
        RUNC,
        "ps: a container's process left a zombie its shim does not reap",
        r"\\_ \[[^\]\s]+\] <defunct>",
        ContainerStopTimeout,
    ),
    k(
        EVICTORS,
        "Karpenter eviction queue",
        r"due to PDB violation",
        DisruptionBudgetBlocking,
    ),
    k(
        CONTROLLERS,
        "DisruptionTarget reasons quoted (k8s.io/api core/v1)",
        r"EvictionByEvictionAPI",
        EvictedApi,
    ),
    k(
        CONTROLLERS,
        "DisruptionTarget reasons quoted (k8s.io/api core/v1)",
        r"DeletionByTaintManager",
        EvictedTaint,
    ),
    k(
        CONTROLLERS,
        "DisruptionTarget reasons quoted (k8s.io/api core/v1)",
        r"PreemptionByScheduler|PreemptionByKubeScheduler",
        Preempted,
    ),
    k(
        CONTROLLERS,
        "cloud-controller-manager (a node it never initialised keeps its taint)",
        r"node\.cloudprovider\.kubernetes\.io/uninitialized",
        UntoleratedTaint,
    ),
    k(
        EVICTORS,
        "Karpenter disruption (consolidation, expiry, drift)",
        r"(?:deprovisioning|disrupting) via (?:consolidation|expiration|drift|emptiness)",
        EvictedApi,
    ),
    k(
        EVICTORS,
        "kubectl get pdb (ALLOWED DISRUPTIONS 0)",
        r"(?m)^\s*(?:\S+\s+)?\S+\s+(?:N/A|\d+%?)\s+(?:N/A|\d+%?)\s+0\s+\d+[smhd]\w*\s*$",
        DisruptionBudgetBlocking,
    ),
    k(
        DOCKERSHIM,
        "docker / nerdctl (a container the runtime no longer has)",
        r"No such container: \S+",
        RuntimeStateInconsistent,
    ),
    k(
        CONTROLLERS,
        "rancher/rancher (its namespace finalizers)",
        r"controller\.cattle\.io/",
        NsFinalizerPending,
    ),
    k(
        APPS,
        "metrics-server (a node whose kubelet does not answer)",
        r"summary\.go:\d+\] Node \S+ is not ready",
        NodeNotReady,
    ),
    k(
        CRIO,
        "cri-o server/container_stop.go (a stop that waits for ever)",
        r"Stopping container: \S+ \(timeout: \d+s\)",
        ContainerStopTimeout,
    ),
    k(
        KUBELET,
        "kubelet flags removed (logging flags in 1.26, dockershim's in 1.24, …)",
        r"unknown flag: --(?:log-file|log-dir|logtostderr|alsologtostderr|network-plugin|container-runtime|cni-|docker|pod-infra-container-image|azure-container-registry-config|experimental-)",
        NodeNotReady,
    ),
    k(
        AGENTS,
        "rancher/rancher provisioning (a cluster's status while a machine's node is not ready: \"configuring worker node(s) …: Node condition Ready is Unknown.\")",
        r"Node condition Ready is (?:Unknown|False)",
        NodeNotReady,
    ),
    k(
        CSI,
        "kubernetes-csi/external-provisioner pkg/controller/controller.go (Delete: a VolumeAttachment still names the volume, VolumeFailedDelete)",
        r"persistentvolume \S+ is still attached to node \S+",
        VolumeUnmountStuck,
    ),
    k(
        KUBELET,
        "pkg/volume/util/operationexecutor (block volumes)",
        r"UnmapVolume\.\S+ failed|UnmapDevice failed",
        VolumeUnmountStuck,
    ),
    k(
        KUBELET,
        "pkg/volume/util/volumepathhandler (a block volume's loop device and map path, after a node restart)",
        r"failed to unmap device from map path|couldn't find loopback device which takes file descriptor lock",
        VolumeUnmountStuck,
    ),
    k(
        APPS,
        "AWS SDKs (a region only the metadata service knows)",
        r"Could not determine region from any metadata service",
        DependencyUnreachable,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kuberuntime (SandboxChanged again and again for one pod: its sandbox keeps dying, most often containerd's SystemdCgroup not matching the kubelet's cgroup driver)",
        r"\(x\d+ over [^)]+\)\s+kubelet\s+Pod sandbox changed, it will be killed and re-created",
        SandboxCreationFailed,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kuberuntime (SandboxChanged: every sandbox recreated after the runtime or node restarted)",
        r"Pod sandbox changed, it will be killed and re-created",
        NodeRestarted,
    ),
    k(
        CSI,
        "scheduler volumebinding (its reason quoted alone)",
        r"didn't match PersistentVolume's node affinity|volume node affinity conflict",
        VolumeNodeAffinityConflict,
    ),
    // ---- the aggregator.
    k(
        AGGREGATOR,
        "kube-aggregator APIService conditions",
        r#"False \((?:FailedDiscoveryCheck|MissingEndpoints|ServiceNotFound|ServiceAccessError)\)|reason: FailedDiscoveryCheck|FailedDiscoveryCheck|Error updating APIService "[^"]+" with err: failed to download|failed to retrieve openAPI spec, http error: ResponseCode: 50[03]"#,
        ApiserviceUnavailable,
    ),
    k(
        AGGREGATOR,
        "kube-aggregator apiserver/handler_proxy.go, available_controller.go (the APIService's service does not answer)",
        r"(?:^|Message:\s+)no response from https?://\S+: |failing or missing response from https?://\S+",
        ApiserviceUnavailable,
    ),
    // ---- applications with a cause of their own.
    k(
        APPS,
        "k8s.io/component-base featuregate and the API server's options (a control-plane component refusing a gate or flag its version removed or locked)",
        r"unrecognized feature gate: \w+|cannot set feature gate \w+ to (?:true|false), feature is locked to (?:true|false)|invalid port value \d+: only zero is allowed",
        AppExitError,
    ),
    k(
        APPS,
        "apimachinery's scheme (a configuration file of an API version the component no longer reads: KubeSchedulerConfiguration v1beta1)",
        r#"no kind \\?"\w+\\?" is registered for version \\?"[\w./-]+\\?""#,
        AppExitError,
    ),
    k(
        APPS,
        "client-go reflectors of an operator whose CRDs are missing or of another version (cert-manager's cainjector)",
        r"Failed to (?:list|watch) \*v\w+\.\w+: the server could not find the requested resource",
        AppExitError,
    ),
    k(
        APPS,
        "make in a driver container (the NVIDIA GPU operator building its kernel module against the node's kernel)",
        r"make(?:\[\d+\])?: \**\s*\[[^\]\n]+\] Error \d+",
        AppExitError,
    ),
    k(
        APPS,
        "traefik (a flag its version does not know)",
        r"command traefik error: ",
        AppExitError,
    ),
    k(
        APPS,
        "MongoDB 5.0+ on a CPU without AVX (mongod dies on an illegal instruction, SIGILL)",
        r"MongoDB 5\.0\+ requires a CPU with AVX support",
        KilledBySignal,
    ),
    k(
        APPS,
        "RabbitMQ at start (an Erlang cookie whose mode fsGroup changed)",
        r"(?:Cookie file \S+)?\.erlang\.cookie must be accessible by owner only",
        AppExitError,
    ),
    k(
        APPS,
        "a controller whose informer cache never synced at start (external-dns; often RBAC)",
        r"failed to sync \*v1\w*\.\w+: context deadline exceeded",
        AppExitError,
    ),
    k(
        APPS,
        "Redis at start (an RDB file written by a newer Redis)",
        r"Can't handle RDB format version \d+",
        AppExitError,
    ),
    k(
        APPS,
        "Prometheus at start (a configuration it cannot load)",
        r"Error loading config \(--config\.file=",
        AppExitError,
    ),
    k(
        APPS,
        "the JVM (an exception no code caught ends the program)",
        r#"Exception in thread "main" [\w.$]+(?:Exception|Error)\b"#,
        AppExitError,
    ),
    k(
        APPS,
        "coreutils' cp in a container's start script",
        r"\bcp: (?:target '[^']+' is not a directory|cannot stat '[^']+': No such file or directory)",
        AppExitError,
    ),
    k(
        APPS,
        "NCCL in PyTorch / vLLM workers (often a full /dev/shm)",
        r"NCCL error: unhandled (?:system|cuda) error",
        AppExitError,
    ),
    k(
        APPS,
        "HAProxy at start (its file-descriptor limit under strict-limits, listeners it cannot bind)",
        r"Cannot raise FD limit to \d+|Some protocols failed to start their listeners! Exiting",
        AppExitError,
    ),
    k(
        APPS,
        "iptables-legacy and -nft mixed on one node (klipper-lb, kube-proxy, CNI helpers)",
        r"Extension \w+ revision \d+ not supported, missing kernel module",
        AppExitError,
    ),
    k(
        APPS,
        "an agent dialing a node's unix socket (the kubelet's podresources, a runtime, a device plugin) it may not or cannot open",
        r"dial unix \S+\.sock: connect: (?:permission denied|connection refused|no such file or directory)",
        DependencyUnreachable,
    ),
    k(
        APPS,
        "an operator or client asking for an API version the cluster no longer serves (controller-runtime's `Manager exited non-zero`)",
        r#"no matches for kind \\?"\w+\\?" in version \\?"[\w./-]+\\?"|Manager exited non-zero"#,
        AppExitError,
    ),
    k(
        APPS,
        "controller-runtime pkg/internal/controller and pkg/source (a watch that cannot start: its CRD not installed, or list/watch not granted; the manager exits)",
        r"if kind is a CRD, it should be installed before calling Start|failed to wait for [\w-]+ caches to sync|timed out waiting for cache to be synced",
        AppExitError,
    ),
    k(
        APPS,
        "Grafana Loki's configuration checked at start (pkg/storage/bucket, pkg/loki/config_wrapper.go, pkg/validation: a storage or schema setting it refuses)",
        r"at least one bucket name must be specified|too many storage configs provided in the common config|CONFIG ERROR: schema v\d+ is required",
        AppExitError,
    ),
    k(
        APPS,
        "kubernetes-sigs/metrics-server pkg/server (its readiness check, with nothing scraped)",
        r#""Failed probe" probe="metric-storage-ready"|Failed to scrape node[^\n]*?doesn't contain any IP SANs"#,
        ReadinessProbeFailing,
    ),
    k(
        APPS,
        "kyverno/kyverno cmd/kyverno (its startup sanity check: its CRDs are not installed)",
        r"failed to check CRD \S+ is installed",
        AppExitError,
    ),
    k(
        APPS,
        "coredns/coredns plugin/forward (no upstream: the node's resolv.conf is empty)",
        r"plugin/forward: no nameservers found",
        AppExitError,
    ),
    k(
        APPS,
        "cloudnative-pg instance manager (the WAL volume is full: PostgreSQL is not started)",
        r"Detected low-disk space condition, avoid starting the instance",
        AppExitError,
    ),
    k(
        APPS,
        "redis and other servers reading a port from an environment variable a Service link took (`tcp://10.0.0.1:6379`)",
        r"port: tcp://\S+\s+Not an integer",
        AppExitError,
    ),
    k(
        APPS,
        "actions-runner-controller's runner images (the startup script refuses a /runner that is not an emptyDir)",
        r"/runner should be an emptyDir mount",
        AppExitError,
    ),
    k(
        APPS,
        "dexidp/dex storage/kubernetes (a bound service account token without the namespace claim)",
        r#"failed to inspect service account token: jwt claim "[^"]+" not found"#,
        AppExitError,
    ),
    k(
        APPS,
        "spf13/pflag and Go's flag package (a flag the binary no longer accepts: an image newer or older than its manifests)",
        r##"(?:^|[\s"#>=])(?:Error: )?unknown flag: --\S+"##,
        AppExitError,
    ),
    k(
        APPS,
        "PostgreSQL (a file its configuration preloads is not in the image)",
        r#"FATAL:\s+could not access file "[^"]+": No such file or directory"#,
        AppExitError,
    ),
    k(
        APPS,
        "k8s.io/apimachinery runtime.HandleCrash (a controller's panic, logged before it exits)",
        r#"Observed a panic: ""#,
        AppExitError,
    ),
    k(
        APPS,
        "Node.js (an uncaught TypeError ends the process)",
        r"^\s*TypeError: Cannot read propert(?:y|ies) ",
        AppExitError,
    ),
    k(
        CNI,
        "projectcalico/calico node/pkg/lifecycle/startup (calico-node cannot start: the node's pod network is down)",
        r"Calico node failed to start",
        PodNetworkBroken,
    ),
    k(
        APPS,
        "kubectl exec and CI runners' Kubernetes executors (GitLab): a build process killed (137 is SIGKILL, most often the memory limit)",
        r"command terminated with exit code 137",
        OomKilled,
    ),
    k(
        APPS,
        "cilium/tetragon (the agent exits: the kernel has no BTF or refuses its programs)",
        r"Failed to start tetragon|BTF search failed kernel is not included in supported list",
        AppExitError,
    ),
    k(
        APPS,
        "cilium/cilium pkg/bpf (the agent cannot load its programs: the kernel's verifier refuses them, most often a kernel too old for the agent's version)",
        r"loading eBPF collection into the kernel|load program: (?:permission denied|invalid argument): \d+: \(\w+\)",
        AppExitError,
    ),
    k(
        APPS,
        "dash and bash run by a container: a redirect to or from a file that is not there or not writable, or a script the shell cannot parse (the command's own failure, not the image's)",
        r"(?m:^(?:/bin/|/usr/bin/)?(?:da|ba)?sh: (?:line )?\d+: (?:cannot open [^:]*: No such file|cannot create [^:]*: (?:Permission denied|Read-only file system|Directory nonexistent)|Syntax error: ))",
        AppExitError,
    ),
    k(
        APPS,
        "falcosecurity falco-driver-loader (no prebuilt driver and the module cannot be built)",
        r"\* Running dkms build failed",
        AppExitError,
    ),
    k(
        APPS,
        "linkerd/linkerd2-proxy-init validator (linkerd-network-validator: the CNI plugin's iptables rules are not in place)",
        r"linkerd_network_validator: Failed to validate networking configuration",
        AppExitError,
    ),
    k(
        APPS,
        "NVIDIA device plugin, GPU operator validators",
        r"could not load NVML library|failed to initialize NVML|Failed to initialize NVML",
        AppExitError,
    ),
    k(
        APPS,
        "helm (a release that holds APIs the cluster no longer serves; run in a Job by k3s / rke2 helm-controller, Argo, CI)",
        r"(?:UPGRADE|INSTALLATION) FAILED: current release manifest contains removed kubernetes api",
        AppExitError,
    ),
    k(
        APPS,
        "a Go program's panic (the process exits with code 2)",
        r"^\s*panic: \S",
        AppExitError,
    ),
    k(
        APPS,
        "mongodb mongod at start (its data directory not writable by its user)",
        r"Attempted to create a lock file on a read-only directory",
        AppExitError,
    ),
    k(
        APPS,
        "grafana/grafana pkg/services/provisioning (datasources at start)",
        r"Datasource provisioning error",
        AppExitError,
    ),
    k(
        APPS,
        "influxdata/telegraf (and the CloudWatch agent built on it) at start",
        r"E! Error: no outputs found",
        AppExitError,
    ),
    k(
        APPS,
        "an application calling the API (or the kubelet) as a service account without the RBAC it needs",
        r#"is forbidden: User \\?"system:serviceaccount:[^"\\]+\\?" cannot \w+ resource|Forbidden \(user=system:serviceaccount:[^,]+, verb=\w+"#,
        AppExitError,
    ),
    k(
        APPS,
        "iptables in a mesh's init container (istio-init, linkerd's proxy-init): the node's kernel lacks the table's module (EKS AL2023 without iptable_nat)",
        r"unable to initialize table '(?:nat|mangle|filter|raw)'",
        AppExitError,
    ),
    k(
        APPS,
        "AWS SDKs' credential chain (no IAM role on the instance, no IRSA or Pod Identity token: the program cannot call AWS and exits)",
        r"no EC2 IMDS role found|failed to refresh cached credentials|NoCredentialProviders: no valid providers in chain",
        AppExitError,
    ),
    k(
        CNI,
        "aws/amazon-vpc-cni-k8s ipamd (its role lacks an EC2 permission: aws-node exits, the node gets no pod network)",
        r"MissingIAMPermissions|Unauthorized operation: failed to call ec2:\w+ due to missing permissions",
        AppExitError,
    ),
    k(
        APPS,
        "NVIDIA GPU operator's validators (the driver's libraries not where the toolkit looks)",
        r"NVIDIA-SMI couldn't find libnvidia-ml\.so|error validating toolkit installation",
        AppExitError,
    ),
    k(
        APPS,
        "Apache Kafka's broker at start (a volume kept from another cluster: meta.properties names its old cluster id)",
        r"doesn't match stored clusterid|InconsistentClusterIdException",
        AppExitError,
    ),
    k(
        APPS,
        "Ceph's OSD at creation (ceph-osd --mkfs on a disk that still holds an earlier OSD's data)",
        r"error creating empty object store in|ObjectStore::mkfs failed with error|io_setup\(2\) failed with EAGAIN; try increasing /proc/sys/fs/aio-max-nr",
        AppExitError,
    ),
    k(
        APPS,
        "bash and sh run by a container (`sh -c \"…\"`): the command it was given is not in the image",
        r"(?m:^(?:/bin/|/usr/bin/)?(?:ba)?sh: (?:line \d+: )?[\w./-]+: command not found)",
        CommandNotFound,
    ),
    k(
        APPS,
        "Python's interpreter given a script that is not there",
        r"python[\d.]*: can't open file '[^'\n]+': \[Errno 2\] No such file or directory",
        AppExitError,
    ),
    k(
        APPS,
        "Spring Boot's failure analysis (the application context did not start: its banner, then the description)",
        r"APPLICATION FAILED TO START",
        AppExitError,
    ),
    k(
        APPS,
        "k8s.io/component-base/cli run.go (a Kubernetes component's process ending on its error: kube-proxy, a scheduler, a controller; the kubelet's own words come first)",
        r#"run\.go:\d+\] "command failed" err="#,
        AppExitError,
    ),
    k(
        APPS,
        "CloudNativePG's instance manager (a full data or WAL volume: it will not start PostgreSQL)",
        r"Insufficient disk space detected in one or more pods",
        AppExitError,
    ),
    k(
        APPS,
        "Redis at start (its append-only file was cut by an unclean stop: redis-server refuses it and exits)",
        r"Bad file format reading the append only file",
        AppExitError,
    ),
    k(
        APPS,
        "Go programs' strict YAML configuration (gopkg.in/yaml UnmarshalStrict, as Loki, Mimir, Tempo and Prometheus's exporters load theirs: a key the version does not know)",
        r"field \w+ not found in type [\w.]+",
        AppExitError,
    ),
    k(
        APPS,
        "Yelp/dumb-init (an image's init exec'ing the program: the kernel refused, e.g. file capabilities under a restricted SCC)",
        r"\[dumb-init\] \S+: (?:Operation not permitted|Permission denied)",
        AppExitError,
    ),
    k(
        APPS,
        "Yelp/dumb-init (the program it should exec is not in the image)",
        r"\[dumb-init\] \S+: No such file or directory",
        CommandNotFound,
    ),
    k(
        RUNC,
        "a shell reporting its child killed by SIGKILL (`bash: line 8: 11 Killed …`): in a container, the kernel's OOM killer at the memory limit",
        r"sh: line \d+: +\d+ Killed +\S",
        OomKilled,
    ),
    k(
        APPS,
        "AWS SDKs (instance metadata, IMDS)",
        r"EC2MetadataError|failed to make EC2Metadata request|failed to (?:fetch|get) \S+ from (?:instance|EC2) metadata|169\.254\.169\.254[^\n]*?(?:timeout|refused|401|no route)",
        DependencyUnreachable,
    ),
    k(
        REGISTRIES,
        "the kubelet's pull (a Go resolver's failure on the same line as the pull's ErrImagePull / ImagePullBackOff, a paste that ran the pull error into its event): the registry's name does not resolve from the node",
        r"dial tcp: lookup [\w.-]+(?: on [\d.:\[\]]+)?: (?:i/o timeout|no such host|server misbehaving|Try again|Temporary failure in name resolution)\b[^\n]*\b(?:ErrImagePull|ImagePullBackOff)\b",
        ImageRegistryUnreachable,
    ),
    k(
        APPS,
        "Go's resolver in a program's own call (net/http, the cloud SDKs): a name the pod's DNS does not answer for, after every component's own wording above",
        r"dial tcp: lookup [\w.-]+(?: on [\d.:\[\]]+)?: (?:i/o timeout|no such host|server misbehaving|Try again|Temporary failure in name resolution)",
        DependencyUnreachable,
    ),
    // Last: what no wording above names.
    k(
        APPS,
        "an exception that ends a program: Java's, as its stack trace opens (a fully qualified class at a line's start), and Python's, as its traceback closes (a module's own error class too: `binascii.Error: …`)",
        r#"^["']?(?:[a-z][a-z0-9_]*\.){2,}[A-Z]\w*(?:Exception|Error): |^["']?[a-z][a-z0-9_]*\.(?:[A-Z]\w*)?Error: |^["']?[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]+)*(?:Error|Exception): "#,
        AppExitError,
    ),
    k(
        KUBELET,
        "pkg/volume/util/operationexecutor/operation_generator.go (a block volume: FailedMapVolume's MapVolume.SetUpDevice / MapPodDevice / WaitForAttach)",
        r"MapVolume\.\w+ (?:initialization )?failed for volume",
        VolumeMountFailed,
    ),
    k(
        KUBELET,
        "pkg/volume/csi/csi_attacher.go (the kubelet's CSI attacher: MountDevice is the driver's NodeStageVolume)",
        r"kubernetes\.io/csi: attacher\.(?:MountDevice|WaitForAttach|Attach) failed",
        VolumeMountFailed,
    ),
    k(
        KUBELET,
        "pkg/kubelet/pluginmanager/operationexecutor/operation_generator.go (a CSI node plugin could not register with the kubelet, so no volume of its driver can be mounted)",
        r"RegisterPlugin error -- plugin registration failed with err",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "a CSI driver's gRPC logging interceptor (csi-lib-utils' pattern, klog's error level): a call of the kubelet to the driver failed",
        r"^E\d{4} [\d:.]+\s+\d+ [\w.-]+\.go:\d+\] GRPC error: ",
        VolumeMountFailed,
    ),
    k(
        CSI,
        "systemd, starting a CSI driver's helper from under the kubelet's plugins directory (csi-s3's geesefs; SELinux or noexec refuses it)",
        r"Failed (?:to locate executable|at step EXEC spawning) /var/(?:snap/microk8s/common/var/)?lib/kubelet/plugins/",
        VolumeMountFailed,
    ),
    k(
        CONTROLLERS,
        "sig-storage-lib-external-provisioner before v5 (nfs-client-provisioner and other old provisioners on Kubernetes 1.20+, where selfLink is gone): the claim is never provisioned",
        r"selfLink was empty, can't make reference",
        PvcUnbound,
    ),
    k(
        CONTROLLERS,
        "kai-scheduler's Unschedulable event (no node has the GPU, GPU memory, CPU or memory the pod asks for)",
        r"no nodes with enough resources were found|\d+ node\(s\) didn't have enough resources?: ",
        InsufficientResources,
    ),
    k(
        CONTAINERD,
        "containerd's shim start (a runtime class's shim binary, Kata's or gVisor's, is not where containerd looks)",
        r"failed to start shim: start failed: [^\n]*containerd-shim-[\w.-]+: (?:no such file or directory|exec format error|permission denied)|runtime \S+ binary not installed",
        SandboxCreationFailed,
    ),
    k(
        APPS,
        "the CUDA runtime, as its samples and NVIDIA's validators print it (`Failed to allocate device vector A (error code …)!`: the GPU stack is not ready)",
        r"Failed to \w+ [^()\n]*\(error code [\w ]+\)!",
        AppExitError,
    ),
    k(
        RUNC,
        "runc 1.1+ (libcontainer/standard_init_linux.go): the entrypoint could not be executed, printed as the container's own output (a script without the execute bit, or a UID that may not run it)",
        r"(?m)(?:^|\s)exec /[^\s:]+: (?:permission denied|operation not permitted)\s*$",
        ContainerStartFailed,
    ),
    k(
        APPS,
        "Go's flag package (a flag the program does not define: it prints its usage and exits 2)",
        r"flag provided but not defined: -",
        AppExitError,
    ),
    k(
        APPS,
        "a program that cannot parse its configuration file as YAML (go-yaml's `yaml: line N: …`)",
        r"(?:[Ll]oading|[Rr]eading|[Pp]arsing) (?:the )?config(?:uration)? file \S+: yaml: line \d+: ",
        AppExitError,
    ),
    k(
        REGISTRIES,
        "the registry client's request for a registry's API root (`Get \"https://…/v2/\"`) refused by TLS verification",
        r#"Get "?https://[^/\s"]+/v2/[^"\s]*"?: (?:tls: failed to verify certificate: )?x509: "#,
        ImageRegistryTls,
    ),
    k(
        EVICTORS,
        "Karpenter's FailedDraining (evictions refused, most often by a PodDisruptionBudget that allows none)",
        r"Failed to drain node, \d+ pods? (?:are|is) waiting to be evicted",
        DisruptionBudgetBlocking,
    ),
    k(
        CONTROLLERS,
        "actions-runner-controller (an ephemeral runner whose container ended on SIGTERM, 143: something evicted or deleted the runner pod, such as a consolidating autoscaler or a drain)",
        r#"Ephemeral runner container failed[^\n]*"exitCode":\s*143\b"#,
        EvictedApi,
    ),
    k(
        CONTROLLERS,
        "the scheduler's FailedScheduling quoted as `reason: message` with a bare reason (`FailedScheduling: Insufficient vpc.amazonaws.com/pod-eni`)",
        r"FailedScheduling:\s+(?:\d+ )?Insufficient [\w./-]+",
        InsufficientResources,
    ),
    k(
        RUNC,
        "a parent process quoting its child's stderr after SIGKILL (`Mysqld.Start(…) stderr: Killed`): in a container, the kernel's OOM killer at the memory limit",
        r"stderr: Killed\s*$",
        OomKilled,
    ),
    k(
        APPS,
        "nvidia-smi (the GPU operator's validator runs it: a GPU whose infoROM is corrupt makes it exit 14)",
        r"WARNING: infoROM is corrupted at gpu",
        AppExitError,
    ),
    k(
        CNI,
        "the kernel's openvswitch module too old for OVN's NAT actions (Kube-OVN's load balancing: pods cannot reach Services)",
        r"netlink: Unknown conntrack attr \(type=\d+, max=\d+\)|openvswitch: netlink: Flow actions may not be safe on all matching packets",
        PodNetworkBroken,
    ),
    k(
        CONTAINERD,
        "containerd's CRI plugin generating a container's spec: a device it names (a GPU's /dev/nvidia-uvm) is not on the host",
        r"failed to generate spec: lstat /dev/\S+: no such file or directory",
        ContainerStartFailed,
    ),
    k(
        APPS,
        "kube-dns's skydns and CoreDNS's errors plugin: the cluster's DNS cannot reach its upstream server (the node does not forward the pods' traffic)",
        r#"skydns: failure to forward request "read udp [\d.:]+->[\d.:]+:53: i/o timeout|plugin/errors: \d+ \S+ \w+: read udp [\d.:]+->[\d.:]+:53: i/o timeout"#,
        PodNetworkBroken,
    ),
    k(
        CONTROLLERS,
        "controller-runtime's webhook server refusing a pod (its `admission` logger at error level: JobSet's pod webhook cannot admit it)",
        r#"\sERROR\s+admission\s[^\n]*"webhookKind": "Pod""#,
        PodCreationRejected,
    ),
    k(
        KUBELET,
        "a memory-backed volume (the service account's projected token) with no room: the pod's memory limit is absurdly small, most often written without its unit",
        r"kubernetes\.io~projected/[^\s:]+: no space left on device",
        ResourceUnitsWrong,
    ),
    k(
        KUBELET,
        "a container status printed by `kubectl get -o go-template` (`map[terminated:map[exitCode:137 reason:OOM Killed …]]`, Kubernetes 1.0's reason)",
        r"map\[terminated:map\[exitCode:137 reason:OOM ?Killed",
        OomKilled,
    ),
    k(
        DOCKERSHIM,
        "the Docker API client of the kubelet newer than the daemon (kubelet 1.12 with Docker 18.03 on Windows): the kubelet cannot talk to its runtime",
        r"client version [\d.]+ is too new\. Maximum supported API version is",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "the kubelet's Killing event repeated for hours (`(x735 over 15h)`): it asks the runtime to stop the container and the runtime never does",
        r"\(x\d{2,} over \d+h\)\s+kubelet[^\n]*(?:Killing container with id|Stopping container)",
        ContainerStopTimeout,
    ),
    k(
        EVICTORS,
        "Koordinator's koordlet evicting best-effort pods when the node's memory or CPU use passes its threshold",
        r"evict Pod:\S+, reason: EvictPodBy\w+",
        EvictedApi,
    ),
    k(
        EVICTORS,
        "Koordinator's and the descheduler's Descheduled / Evicting events (a pod moved off a node its thresholds call overutilised)",
        r#"[Pp]od (?:"[^"]+" )?evicted from node "[^"]+" by the reason"#,
        EvictedApi,
    ),
    k(
        CONTROLLERS,
        "Kueue's pod groups (ErrWorkloadCompose: the group's Workload waits for all its pods, which Kueue keeps gated)",
        r"group has fewer runnable pods than expected",
        SchedulingGated,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kuberuntime (RemoveContainer fails: the runtime cannot delete the container's files, an immutable attribute or a busy mount, and the pod stays Terminating)",
        r#"RemoveContainer "?[0-9a-f]+"? from runtime service failed|failed to remove root filesystem: "#,
        ContainerStopTimeout,
    ),
    k(
        KUBELET,
        "pkg/kubelet/config (a pod the kubelet finds invalid for its own settings, privileged containers with --allow-privileged=false: it ignores the pod)",
        r"Error validating pod \S+ from api, ignoring: ",
        NodeAdmissionRejected,
    ),
    k(
        DOCKERSHIM,
        "the kubelet's FailedSync when the runtime does not answer a container's status in time (a hung dockerd)",
        r"error determining status: rpc error: code = DeadlineExceeded",
        ContainerStopTimeout,
    ),
    k(
        APPS,
        "Galera (Percona XtraDB Cluster, MariaDB): a node that was not the last to leave refuses to bootstrap the cluster after a full crash",
        r"It may not be safe to bootstrap the cluster from this node",
        AppExitError,
    ),
    k(
        APPS,
        "PostgreSQL refusing a data directory another major version initialised",
        r"FATAL:\s+database files are incompatible with server",
        AppExitError,
    ),
    k(
        RUNC,
        "a shell reporting its child killed by SIGILL (`Illegal instruction (core dumped)`): the binary needs a CPU feature the node lacks (SSE4.2, AVX)",
        r"Illegal instruction\s+\(core dumped\)",
        KilledBySignal,
    ),
    k(
        KUBELET,
        "the kubelet's CreateContainer call refused by gRPC: an environment value (from a Secret or ConfigMap) is not valid UTF-8",
        r"grpc: error while marshaling: string field contains invalid UTF-8",
        ContainerStartFailed,
    ),
    k(
        CSI,
        "OpenEBS NDM's blockdeviceclaim-operator (SelectionFailed: no block device matches the claim of a local PV, which stays unbound)",
        r"no blockdevices found|no devices found matching the criteria|could not find a device with matching resource requirements",
        PvcUnbound,
    ),
    k(
        AGENTS,
        "systemd-logind, transactional-update and rebootmgr in the node's journal: the node is rebooting (openSUSE MicroOS's automatic updates)",
        r"systemd-logind\[\d+\]: System is rebooting|transactional-update finished - rebooting machine|rebootmgr: reboot triggered",
        NodeRestarted,
    ),
    k(
        KUBELET,
        "kubelet pkg/kubelet/cm/dra (FailedPrepareDynamicResources: the DRA driver of a claim is not registered on the node or refused to prepare its devices)",
        r"Failed to prepare dynamic resources|NodePrepareResources failed for (?:claim|ResourceClaim)|not found in the list of registered DRA plugins",
        DeviceAllocationFailed,
    ),
    k(
        CONTAINERD,
        "containerd before 2.1 (pkg/cri: an `image` volume it cannot provide, its mount's source empty)",
        r#"failed to apply OCI options: failed to mkdir "": mkdir : no such file or directory"#,
        VolumeMountFailed,
    ),
    k(
        CONTAINERD,
        "containerd pkg/cri (the container's OCI spec could not be built: a mount, a device or a security option the runtime cannot apply)",
        r"failed to apply OCI options",
        ContainerStartFailed,
    ),
    k(
        APPS,
        "huggingface_hub (a gated model downloaded without a token that has access: KServe's storage-initializer, vLLM, TGI exit)",
        r"Access to model \S+ is restricted|You must have access to it and be authenticated to access it",
        AppExitError,
    ),
    k(
        EXIT_CODES,
        "a container's exit code 137 (SIGKILL) quoted alone, as a status or an operator's report prints it (`exitCode: 137`): most often the kernel's OOM killer at the memory limit",
        r#"(?i)\bexit ?code"?\s*[:=]?\s*137\b"#,
        OomKilled,
    ),
    k(
        EVICTORS,
        "kubernetes/autoscaler cluster-autoscaler core/scaledown/actuation (a node removed for low utilization: its pods are evicted and recreated elsewhere)",
        r"Scale-down: removing node \S+, utilization: .*pods to reschedule: \S",
        EvictedApi,
    ),
    k(
        KUBELET,
        "kubelet (client-go reflector: the kubelet cannot list or watch from the API server, so its node's status is not posted and the node goes NotReady)",
        r"kubelet\[\d+\]: .*(?:Failed to watch|[Ff]ailed to list) \*v1\.\w+: .*(?:connection refused|connection reset by peer|i/o timeout|no route to host)",
        NodeNotReady,
    ),
    k(
        CONTROLLERS,
        "the node's NetworkUnavailable condition as a taint (pkg/controller/nodelifecycle, cloud route controller or the CNI not yet set up): pods without its toleration are not scheduled there",
        r"node\.kubernetes\.io/network-unavailable:NoSchedule",
        UntoleratedTaint,
    ),
    k(
        CNI,
        "flannel-io/flannel main.go (flanneld cannot set up its backend, e.g. the kernel has no vxlan module: it exits and its pod restarts)",
        r"Error registering network: ",
        AppExitError,
    ),
    k(
        CONTROLLERS,
        "kube-scheduler's informers (a second scheduler a chart ships, older than the cluster: storage.k8s.io/v1beta1 CSIStorageCapacity is not served from 1.27, and its VolumeBinding plugin waits on it for ever, scheduling nothing)",
        r"(?:failed to list|Failed to watch) \*v1beta1\.CSIStorageCapacity: (?:failed to list \*v1beta1\.CSIStorageCapacity: )?the server could not find the requested resource",
        SchedulerUnavailable,
    ),
    k(
        RUNC,
        "runc and sysbox-runc with user namespaces (a pod's `hostUsers: false`, the UserNamespacesSupport gate on 1.33): the runtime cannot read the ID mappings of a process that is not there",
        r#"reading ID mappings from "/proc/\d+/[ug]id_map""#,
        ContainerStartFailed,
    ),
    k(
        RUNC,
        "gVisor's runsc (the sandbox process cannot start: no user namespace left, e.g. Talos' user.max_user_namespaces)",
        r"cannot create sandbox: cannot create sandbox process: ",
        SandboxCreationFailed,
    ),
    k(
        APPS,
        "PgBouncer and PostgreSQL clients (lib/pq): the pooler cannot resolve or reach its server, or the server is a replica still in recovery",
        r"WARNING DNS lookup failed: \S+: result=|pq: query_wait_timeout|cannot set transaction read-write mode during recovery",
        DependencyUnreachable,
    ),
    k(
        APPS,
        "Apache ZooKeeper's and Kafka's clients (ClientCnxn, AdminClient): the ensemble or the brokers do not answer",
        r"unexpected error, closing socket connection and attempting reconnect|Timed out waiting for a node assignment",
        DependencyUnreachable,
    ),
    k(
        ADMISSION,
        "OpenShift's SecurityContextConstraints admission (a runAsUser outside the namespace's UID range, as a Deployment's or a chart's refusal quotes it)",
        r"\.runAsUser: Invalid value: \d+: must be in the ranges: \[",
        PodCreationRejected,
    ),
    k(
        CONTROLLERS,
        "kube-scheduler's VolumeBinding plugin (PreBind: the claim was never bound in time: no provisioner answers for its StorageClass, e.g. EBS without its CSI driver from 1.23)",
        r#"running PreBind plugin "VolumeBinding": binding volumes: (?:timed out waiting for the condition|context deadline exceeded)"#,
        PvcUnbound,
    ),
    k(
        APPS,
        "NLnet Labs' Unbound (the resolver exits on its configuration: a bad local-data record)",
        r"unbound\[\d+:\d+\] fatal error: ",
        AppExitError,
    ),
    k(
        EVICTORS,
        "Karpenter's interruption controller (a spot interruption or a scheduled change: it cordons and drains the node, deleting its pods)",
        r#"initiating delete from interruption message|"messageKind":\s*"spot_interrupted""#,
        EvictedApi,
    ),
    k(
        APPS,
        "NVIDIA GPU operator's validator (the driver's device nodes cannot be made: the driver and the node do not match)",
        r"failed to create NVIDIA device nodes: |error validating driver installation: ",
        AppExitError,
    ),
    k(
        CNI,
        "k8snetworkplumbingwg/multus-cni (namespaceIsolation: a pod's network annotation names a NetworkAttachmentDefinition of another namespace)",
        r"namespace isolation enabled, annotation violates permission",
        SandboxCreationFailed,
    ),
    k(
        APPS,
        "grafana/dskit's memberlist KV (Loki, Mimir, Tempo): no member of the ring's gossip cluster answers at start",
        r"failed to join memberlist cluster on startup|joining memberlist cluster failed",
        DependencyUnreachable,
    ),
    k(
        APPS,
        "grafana/dskit's services and Loki's /ready (a module failed or its peers are missing, so the readiness probe fails)",
        r"^Some services are not Running:|Query Frontend not ready: not ready: number of queriers connected to query-frontend is 0|^Ingester not ready: ",
        ReadinessProbeFailing,
    ),
    k(
        APPS,
        "Grafana Loki's configuration check (it exits at start)",
        r"^CONFIG ERROR: ",
        AppExitError,
    ),
    k(
        ADMISSION,
        "plugin/pkg/admission/serviceaccount (the pod's service account does not exist yet or at all: the controller that makes `default` has not run in a new namespace)",
        r#"error looking up service account [^:\s]+: serviceaccount "[^"]+" not found"#,
        PodCreationRejected,
    ),
    k(
        AGENTS,
        "kube-proxy's nftables mode (pkg/proxy/nftables: the node's nft binary or kernel cannot run its rules, e.g. no nft_fib module, an nft that crashes): Services stop working",
        r#""nftables sync failed"|failed to run nft: |^(?:\W*)/dev/stdin:\d+:\d+-\d+: Error: Could not process rule: "#,
        PodNetworkBroken,
    ),
    k(
        CONTAINERD,
        "containerd 2.x's CRI plugin refusing its configuration (`mirrors` beside `config_path`, a version 2 key in a version 3 file): no CRI, so the kubelet's node is NotReady",
        r"failed to load plugin: invalid cri image config:|`mirrors` cannot be set when `config_path` is provided",
        NodeNotReady,
    ),
    k(
        APPS,
        "a program that deletes pods through the API (a response engine such as Falcosidekick's functions, an operator): its own log of the deletion",
        r#"^Deleting pod "[^"]+" in namespace "[^"]+""#,
        DeletedByClient,
    ),
    k(
        EVICTORS,
        "kubectl drain (k8s.io/kubectl pkg/drain: each pod it evicted, `pod/NAME evicted`, after it retried the refusals)",
        r#"(?m)^\s*["'`]?pod/[a-z0-9][-a-z0-9.]* evicted["'`]?\s*$"#,
        EvictedApi,
    ),
    k(
        EVICTORS,
        "EKS managed node groups' update (PodEvictionFailure: the drain of the old nodes gave up, its evictions refused by PodDisruptionBudgets)",
        r"Reached max retries while trying to evict pods from nodes in node group",
        DisruptionBudgetBlocking,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/namespace/deletion (a group's server answers a list with no list: an aggregated API server's fault, so the namespace's content is never deleted)",
        r"content is not a list: \[\]unstructured\.Unstructured",
        ApiserviceUnavailable,
    ),
    k(
        CONTROLLERS,
        "KubeVirt's CDI (virtctl image-upload: the DataVolume's claim waits for a consumer, WaitForFirstConsumer, so no upload pod starts)",
        r"cannot upload to DataVolume in state WaitForFirstConsumer",
        PvcUnbound,
    ),
    k(
        RUNC,
        "runc's exec of the container's process (E2BIG: its arguments and environment, e.g. thousands of Services' variables, exceed what exec takes; runc before 1.1 said `standard_init_linux.go: exec user process caused: argument list too long`)",
        r#"exec [^:\s]+: argument list too long|exec user process caused:? "?argument list too long"#,
        ContainerStartFailed,
    ),
    k(
        APPS,
        "Ruby programs: Puma's and bundler's refusal to start, an uncaught exception (`file.rb:19:in `exec': message (Class)`)",
        r"Unable to load application: |bundler: failed to load command: |\.rb:\d+:in [`'][^']+': .+ \([A-Z]\w*(?:::[A-Z]\w*)*\)\s*$",
        AppExitError,
    ),
    k(
        EVICTORS,
        "the Vertical Pod Autoscaler's updater (vertical-pod-autoscaler/pkg/updater: the EvictedPod event, a pod evicted to be recreated with its recommended requests)",
        r"VPA Updater evicted Pod \S+",
        EvictedApi,
    ),
    k(
        EVICTORS,
        "aws-node-termination-handler (its log once a spot interruption, rebalance or scheduled event had it drain the node: every pod on it evicted)",
        r#"Node "[^"]+" successfully cordoned and drained"#,
        EvictedApi,
    ),
    k(
        CONTROLLERS,
        "Confluent for Kubernetes (its KeyInSecretRefIssue event: a component's credentials Secret lacks the key its authentication type reads)",
        r"required key \[[^\]]+\] missing in secretRef \[[^\]]+\]",
        SecretMissing,
    ),
    k(
        ADMISSION,
        "the API server's validation of an object (apimachinery: a label value or generated name over 63 characters, annotations over 256 KiB): the pod, or the workload that would create it, is refused",
        r"must be no more than 63 characters|Too long: must have at most 262144 bytes",
        PodCreationRejected,
    ),
    k(
        AGENTS,
        "kube-proxy on Windows (winkernel: HNS refuses a Service's load balancer, the node's ephemeral ports exhausted by non-DSR load balancers): Services stop working on the node",
        r"hcnCreateLoadBalancer failed in Win32",
        PodNetworkBroken,
    ),
    k(
        AGENTS,
        "hcsshim on Windows nodes (the container image's Windows version is not the host's, and the pod runs without Hyper-V isolation)",
        r"(?i)operating system of the container does not match the operating system of the host|container operating system does not match the host operating system",
        ImagePlatformMismatch,
    ),
    k(
        APPS,
        "Open Service Mesh's control plane (its fatal error codes, `\"reason\":\"FatalInvalidCLIParameters\"`, logged as it exits)",
        r#""reason":"Fatal[A-Z]\w+""#,
        AppExitError,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet_node_status.go (getNode, logged by kubelet.go): the kubelet cannot find or register its Node",
        r#"(?:kubelet\.go:\d+\]|"Error getting node" err=)\s*"?node \\?"[^"\\\s]+\\?" not found"#,
        NodeNotReady,
    ),
    k(
        CSI,
        "longhorn-manager / instance-manager: the engine binary of the volume's engine image is missing",
        r#"exec: "/engine-binaries/[^"\s]+/longhorn""#,
        VolumeMountFailed,
    ),
    k(
        CONTAINERD,
        "containerd pkg/netns (netns_linux.go), from StopPodSandbox: the sandbox's network namespace is still mounted elsewhere",
        r"remove netns: unlinkat \S+: device or resource busy",
        ContainerStopTimeout,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/podgc/gc_controller.go (gcOrphaned)",
        r"Found orphaned Pod (?:\S+ )?assigned to the Node|Forced deletion of orphaned Pod",
        PodGcOrphaned,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/podgc/gc_controller.go (gcUnscheduledTerminating)",
        r"Found unscheduled terminating Pod|Forced deletion of unscheduled terminating Pod",
        PodGcUnscheduledTerminating,
    ),
    k(
        CONTROLLERS,
        "pkg/controller/podgc/gc_controller.go (gcTerminated, over --terminated-pod-gc-threshold)",
        r#"garbage collecting \d+ pods|"Garbage collecting pods" numPods="#,
        PodGcThreshold,
    ),
    k(
        KUBELET,
        "pkg/kubelet/eviction/eviction_manager.go (reclaimNodeLevelResources): a signal crossed its threshold",
        r"eviction manager: attempting to reclaim (?:imagefs|nodefs|containerfs|ephemeral-storage|memory|pids)",
        NodePressure,
    ),
    k(
        ADMISSION,
        "controller-runtime's webhook server (pkg/webhook/admission): a pod admission webhook answering allowed: false",
        r#""webhook": "/[^"]*pod[^"]*", "code": [45]\d\d\b[^\n]*"allowed": false"#,
        PodCreationRejected,
    ),
    k(
        KUBELET,
        "pkg/kubelet/cm/pod_container_manager_linux.go (Destroy, via the systemd cgroup driver): the pod's slice outlived the kubelet's wait",
        r"failed to delete cgroup paths for \[kubepods|Timed out while waiting for systemd to remove kubepods-",
        KubeletCleanupPending,
    ),
    k(
        RUNC,
        "the dynamic loader (ld.so) of the container's first program: a library of another glibc than the image's",
        r"version `GLIBC_[\d.]+' not found \(required by ",
        ContainerStartFailed,
    ),
    k(
        CRIO,
        "cri-o internal/config/cgmgr, runc's libcontainer (swap limits): a swap limit below the memory limit",
        r"memory swap limit \(-?\d+\) cannot be lower than memory limit",
        ContainerStartFailed,
    ),
    k(
        ADMISSION,
        "the API server's node authorizer (plugin/pkg/auth/authorizer/node): the kubelet may not read a VolumeAttachment its node is not tied to",
        r#"cannot get resource "volumeattachments" in API group "storage\.k8s\.io"[^\n]*no relationship found between node"#,
        VolumeMountFailed,
    ),
    k(
        CNI,
        "the kernel's connect(2) answering EINVAL on a blackhole route: a pod's own route gone from its node (calico-node restarted without restoring it)",
        r"dial tcp [0-9a-fA-F.:\[\]]+: connect: invalid argument",
        PodNetworkBroken,
    ),
    k(
        KUBELET,
        "pkg/kubelet/checkpointmanager (the device manager's and CPU manager's checkpoints): the kubelet cannot write its own state on a full disk",
        r#"failed to write checkpoint file "[^"]+": write [^\n:]+: no space left on device"#,
        NodePressure,
    ),
    k(
        CONTAINERD,
        "containerd pkg/process/init.go (Init.delete): the task's rootfs is still mounted elsewhere when the runtime deletes it, so the container is never removed",
        r"failed to cleanup rootfs mount|failed rootfs umount",
        ContainerStopTimeout,
    ),
    k(
        APPS,
        "kubectl (staging/src/k8s.io/kubectl/pkg/cmd/util/helpers.go), run inside a container: the API server does not answer the pod",
        r"The connection to the server \S+ was refused - did you specify the right host or port\?",
        DependencyUnreachable,
    ),
    k(
        CONTAINERD,
        "containerd images (platforms matcher, image.Manifest), dockerd's distribution pull (no matching manifest), CRI-O's image index: the image has no variant for the node's OS and architecture, in any text",
        r"no match for platform in manifest|no matching manifest for \S+(?: \S+)? in the manifest list entries|no image found in (?:manifest list|image index) for architecture",
        ImagePlatformMismatch,
    ),
    k(
        APPS,
        "istio pilot-agent (pkg/envoy/agent.go, EXIT_ON_ZERO_ACTIVE_CONNECTIONS; pilot/cmd/pilot-agent/status readiness): the sidecar drains on termination and waits for its connections to close",
        r"There are still \d+ active connections|Envoy proxy is NOT ready: server is not live, current state is: DRAINING",
        GracePeriodPending,
    ),
    k(
        KUBELET,
        "pkg/kubelet/nodelease (controller.go: ensureLease) and the node authorizer: the kubelet cannot create or renew its node's Lease (its credentials name another node, or the API server does not answer), so the node goes NotReady",
        r"failed to ensure node lease exists, will retry in|can only access node lease with the same name as the requesting node",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "pkg/kubelet/cm/memorymanager (policy_static.go: Allocate): the Static memory manager cannot place the pod on NUMA nodes, so the kubelet refuses it at admission",
        r"\[memorymanager\] failed to find NUMA nodes to extend the current topology hint",
        NodeAdmissionRejected,
    ),
    k(
        KUBELET,
        "pkg/kubelet/cm/topologymanager (the pod's status reason TopologyAffinityError, as `get pods` shows it, with or without spaces)",
        r"\bTopology ?Affinity ?Error\b",
        NodeAdmissionRejected,
    ),
    k(
        EVICTORS,
        "kubernetes-sigs/karpenter pkg/controllers/disruption/events (DisruptionTerminating: `Disrupting Node: Underutilized`, `Disrupting NodeClaim: Drifted`): Karpenter drains the node, evicting its pods",
        r"Disrupting (?:Node|NodeClaim): (?:Underutilized|Empty|Drifted|Expired|Consolidation)",
        EvictedApi,
    ),
    k(
        KUBELET,
        "pkg/kubelet/kubelet.go (syncLoop: the runtime's status is not healthy): the kubelet syncs no pod and reports its node NotReady",
        r"skipping pod synchronization - \[[^\]\n]*container runtime is down",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "the kubelet's eviction signal as Kubernetes' documentation computes it (memory-available.sh): memory.available below zero is memory pressure",
        r"memory\.available_in_bytes\s+-\d+",
        NodePressure,
    ),
    k(
        AGENTS,
        "the kubelet's own fatal klog line (klog.Fatal / F-level: the kubelet exits), and systemd's record of the kubelet exiting: no kubelet, so the node goes NotReady",
        r"kubelet\[\d+\]: F\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.-]+\.go:\d+\] |kubelet\.service: [Mm]ain process exited, code=exited, status=[1-9]",
        NodeNotReady,
    ),
    k(
        ADMISSION,
        "staging/src/k8s.io/pod-security-admission/admission (a namespace labelled with a stricter enforce level: the warning lists the running pods that violate it, whose replacements are refused)",
        r#"existing pods in namespace \\?"[^"\\]+\\?" violate the new PodSecurity enforce level"#,
        PodCreationRejected,
    ),
    k(
        EVICTORS,
        "volcano-sh/volcano pkg/scheduler/actions/preempt (the victim's eviction reason `preempt`): the Volcano scheduler evicted the pod for a higher-priority job",
        r"Pod is evicted, because of preempt",
        Preempted,
    ),
    k(
        KUBELET,
        "cmd/kubelet/app/server.go (NewKubeletCommand → UnsecuredDependencies): the kubelet cannot start (a client CA file, a certificate it is told to load is missing), so its node goes NotReady",
        r"failed to construct kubelet dependencies: ",
        NodeNotReady,
    ),
    k(
        CONTROLLERS,
        "GKE's ha-controller (HighAvailabilityApplication): it fails a stateful pod over once its node is unreachable, the pod having stayed Terminating there",
        r"Triggering failover for pod \S+|\bPodFailoverAfterNodeUnreachable\b",
        NodeUnreachable,
    ),
    k(
        DOCKERSHIM,
        "Mirantis/cri-dockerd (cmd: the runtime service asks dockerd its version at start; Docker Desktop's kubelet runs it): cri-dockerd exits, the kubelet has no runtime, the node never becomes Ready",
        r"failed to get docker version from dockerd: ",
        NodeNotReady,
    ),
    k(
        KUBELET,
        "the kubelet's configuration validation (pkg/kubelet/apis/config/validation: a KubeletConfiguration field with a value this release refuses, e.g. memorySwap.swapBehavior UnlimitedSwap after 1.30): the kubelet does not start, the node goes NotReady",
        r#"failed to validate kubelet configuration|invalid configuration: [a-z][A-Za-z]*(?:\.[a-z][A-Za-z]*)+ (?:\\?"[^"\\]*\\?" )?(?:must|should|is invalid|is not)"#,
        NodeNotReady,
    ),
    k(
        CSI,
        "a DRA driver's NodeUnprepareResources (NVIDIA's dra-driver-gpu workqueue: the claim's devices cannot be unprepared, e.g. its ComputeDomain already deleted): the kubelet cannot finish the pod's cleanup, so it stays Terminating",
        r"error unpreparing devices for claim|unprepare devices failed: |NodeUnprepareResources failed",
        KubeletCleanupPending,
    ),
    k(
        CSI,
        "k8s.io/mount-utils (SafeFormatAndMount: the file system check before mounting a block volume found errors it cannot repair, fsck's `UNEXPECTED INCONSISTENCY; RUN fsck MANUALLY`): the mount fails and the pod stays ContainerCreating",
        r"'fsck' found errors on device \S+ but could not correct them|UNEXPECTED INCONSISTENCY; RUN fsck MANUALLY",
        VolumeMountFailed,
    ),
    k(
        EVICTORS,
        "koordinator's koord-descheduler (PodMigrationJob: `Evicting` then `EvictComplete` once the pod it migrates is evicted, its replacement bound to a Reservation)",
        r#"\bEvictComplete\b.*\bhas been evicted|Pod "[a-z0-9][-a-z0-9]*/[a-z0-9][-a-z0-9.]*" has been evicted"#,
        EvictedApi,
    ),
    k(
        EVICTORS,
        "Kueue (pkg/scheduler/preemption: the Workload's Evicted condition, reason Preempted, when a ClusterQueue's higher-priority or reclaiming workload needs its quota; its pods are deleted)",
        r"Preempted to accommodate a workload \(UID: ",
        Preempted,
    ),
    k(
        EVICTORS,
        "katalyst-core's eviction manager (its memory, CPU and disk pressure plugins: `Successfully create eviction; reason: met threshold in scope: memory from plugin: memory-pressure-eviction-plugin`)",
        r"met threshold in scope: \S+ from plugin: \S+",
        EvictedNodePressure,
    ),
    k(
        EVICTORS,
        "HAMi's scheduler (its filter's per-node reasons: the GPUs' free memory or cores cannot hold the vGPU the pod asks for)",
        r"\d+ nodes? (?:CardInsufficientMemory|CardInsufficientCore)\(",
        InsufficientResources,
    ),
    k(
        EVICTORS,
        "Volcano's agent (colocation: it evicts offline pods when the node's CPU or memory is under pressure)",
        r"Evict offline pod due to (?:cpu|memory) resource pressure",
        EvictedNodePressure,
    ),
    k(
        APPS,
        "lib/pq, Go's PostgreSQL driver (the server refused the program's SQL: a schema or type its queries do not fit)",
        r#"\bpq: (?:invalid input syntax for|operator does not exist: |relation "[^"]+" does not exist|column "[^"]+" (?:of relation "[^"]+" )?does not exist)"#,
        AppExitError,
    ),
    k(
        CONTROLLERS,
        "kube-controller-manager's node lifecycle controller (pkg/controller/util/node: `Recording status change NodeNotReady event message for node X`, structured since 1.2x as `\"Recording status change event message for node\" status=\"NodeNotReady\"`): the node's kubelet stopped reporting",
        r#"Recording status change NodeNotReady event message for node |"Recording status change event message for node" status="NodeNotReady""#,
        NodeNotReady,
    ),
    k(
        APPS,
        "kubectl delete (k8s.io/kubectl pkg/cmd/delete: its confirmation of each object, `pod \"NAME\" deleted`, `force deleted` with --force --grace-period=0, `deleted from NS namespace` in newer releases): a client deleted the pod",
        r#"(?m)^\s*["'`]?pods? \\?"[a-z0-9][-a-z0-9.]*\\?" (?:force )?deleted(?: from [a-z0-9][-a-z0-9]* namespace)?["'`]?\s*$"#,
        DeletedByClient,
    ),
    k(
        APPS,
        "logrus (Go programs' `level=fatal` line, written just before the process exits; last: any more precise wording quoted in it wins)",
        r#"level=fatal msg=""#,
        AppExitError,
    ),
];

/// One entry's pattern, compiled on bytes with ASCII classes (`(?-u)`): every wording is ASCII,
/// and a Unicode `[^\n]{0,80}` or `\S+` compiles to automata many times larger. Compiled only
/// for the entry that wins in some text ([`SET`] says which), to find where its wording starts.
fn compile(pattern: &str) -> Regex {
    RegexBuilder::new(pattern)
        .unicode(false)
        .build()
        .unwrap_or_else(|x| panic!("{pattern}: {x}"))
}

static COMPILED: LazyLock<Vec<OnceLock<Regex>>> =
    LazyLock::new(|| KNOWN.iter().map(|_| OnceLock::new()).collect());

/// Every pattern at once: one pass says which match (a regex set, as the regex crate builds
/// one, but searched with a state this module holds: [`CACHE`]). Its lazy DFA gets 6 MiB
/// rather than the default 2: with 150-odd patterns the default cache fills and is cleared again
/// and again on a long paste, and rebuilding states then took most of the paste's time (7.8 s
/// against 2.8 s on bench/paste.sh's 5,000 copies). The cache only grows as far as it is used;
/// 8 MiB cost 1.5 MB more of bench/paste.sh's peak (4.08-4.11x against 4.04x) for no time, 4 MiB
/// made the paste's 4 s 27 s (2026-11-29).
/// Knowing which entries match, `find` compiles only the winner: walking the table compiled
/// every entry before it, most of the catalogue's memory. Patterns write no long bounded
/// repeat (`[^\n]{0,300}`): every step of one is a state of the automaton, in memory for every
/// paste (`no_long_bounded_repeats`). A first "does any match" pass, as the regex crate's
/// `is_match` does, is not needed: the overlapping search costs the same on the lines where none
/// does, which are most of them.
static SET: LazyLock<meta::Regex> = LazyLock::new(|| {
    meta::Builder::new()
        .configure(
            meta::Config::new()
                .match_kind(MatchKind::All)
                .utf8_empty(false)
                .which_captures(WhichCaptures::None)
                .nfa_size_limit(Some(10 << 20))
                .hybrid_cache_capacity(6 << 20),
        )
        .syntax(syntax::Config::new().unicode(false).utf8(false))
        .build_many(&KNOWN.iter().map(|e| e.pattern).collect::<Vec<_>>())
        .unwrap()
});

thread_local! {
    /// This thread's search state for [`SET`]: its lazy DFA's states, up to 6 MiB, and the set
    /// of matching patterns each search fills (one allocation per thread, not one per line).
    /// Held here rather than in the regex's own pool, which keeps every cache it ever made, so
    /// that a thread done with a paste's lines can give it back ([`release`]).
    static CACHE: std::cell::RefCell<Option<(meta::Cache, PatternSet)>> =
        const { std::cell::RefCell::new(None) };
}

/// Frees this thread's search state for the catalogue. A paste's reader calls it once every
/// line has been matched: what it builds next (its objects, then the diagnosis, on another
/// thread) then reuses those megabytes instead of adding to them (bench/paste.sh's peak). The
/// next [`find`] on this thread starts a new one.
pub fn release() {
    CACHE.with(|c| c.borrow_mut().take());
}

/// The first known wording in `text`: its entry and where it starts (a character boundary:
/// an ASCII class may have begun the match inside a multi-byte character).
pub fn find(text: &str) -> Option<(&'static Known, usize)> {
    let bytes = text.as_bytes();
    let i = CACHE.with(|c| {
        let mut c = c.borrow_mut();
        let (cache, which) =
            c.get_or_insert_with(|| (SET.create_cache(), PatternSet::new(SET.pattern_len())));
        which.clear();
        SET.which_overlapping_matches_with(cache, &Input::new(bytes), which);
        // The table's order decides: the lowest index that matches wins.
        which.iter().next().map(|p| p.as_usize())
    })?;
    let e = &KNOWN[i];
    let m = COMPILED[i].get_or_init(|| compile(e.pattern)).find(bytes)?;
    let mut start = m.start();
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    Some((e, start))
}

/// How many wordings each component contributes to this table.
pub fn components() -> Vec<(&'static str, usize)> {
    let mut out: Vec<(&'static str, usize)> = Vec::new();
    for e in KNOWN {
        match out.iter_mut().find(|(c, _)| *c == e.component) {
            Some((_, n)) => *n += 1,
            None => out.push((e.component, 1)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cause(t: &str) -> Option<Cause> {
        find(t).map(|(e, _)| e.cause)
    }

    /// The last resort (an exception that ends a program) wants the exception's own shape at a
    /// line's start, not any word ending in Error.
    #[test]
    fn an_exception_is_known_by_its_shape_only() {
        assert_eq!(
            cause("ModuleNotFoundError: No module named 'torch'"),
            Some(AppExitError)
        );
        // Quoted as people quote one line of a log.
        assert_eq!(
            cause(r#""RuntimeError: Failed to fetch model.""#),
            Some(AppExitError)
        );
        assert_eq!(cause("Error: nothing that names a cause"), None);
        assert_eq!(
            cause("the job logged a RuntimeError: once, and went on"),
            None
        );
    }

    #[test]
    fn no_long_bounded_repeats() {
        let counted = regex::Regex::new(r"\{(\d*),(\d+)\}|\{(\d+)\}").unwrap();
        for e in KNOWN {
            for c in counted.captures_iter(e.pattern) {
                let n: usize = c
                    .get(2)
                    .or(c.get(3))
                    .and_then(|m| m.as_str().parse().ok())
                    .unwrap_or(0);
                assert!(n <= 40, "{}: a repeat of {n} steps", e.pattern);
            }
        }
    }

    #[test]
    fn every_entry_matches_an_example_and_names_its_cause() {
        let examples: &[(&str, Cause)] = &[
            (
                "E0816 09:27:54.402647       1 main.go:330] Error registering network: operation not supported",
                AppExitError,
            ),
            (
                "I0414 10:21:40.293272       1 actuator.go:212] Scale-down: removing node ip-10-160-50-114.us-west-2.compute.internal, utilization: {0.69 0.68 0 cpu 0.69}, pods to reschedule: pod-hbhqf,pod-lx6fg",
                EvictedApi,
            ),
            (
                r#"Mar 31 07:36:11 node2 kubelet[12380]: E0331 07:36:11.804698   12380 reflector.go:140] vendor/k8s.io/client-go/informers/factory.go:150: Failed to watch *v1.Service: failed to list *v1.Service: Get "https://127.0.0.1:6443/api/v1/services?limit=500&resourceVersion=0": read tcp 127.0.0.1:49342->127.0.0.1:6443: read: connection reset by peer"#,
                NodeNotReady,
            ),
            (
                "Taints:             node.kubernetes.io/network-unavailable:NoSchedule",
                UntoleratedTaint,
            ),
            (
                "  Warning  FailedPrepareDynamicResources  81s   kubelet            Failed to prepare dynamic resources: failed to get gRPC client for driver dra-1411.k8s.io: plugin name dra-1411.k8s.io not found in the list of registered DRA plugins",
                DeviceAllocationFailed,
            ),
            (
                r#"failed to apply OCI options: failed to mkdir "": mkdir : no such file or directory"#,
                VolumeMountFailed,
            ),
            (
                r#"Error: failed to create containerd container: failed to apply OCI options: failed to create device "/dev/x": no such file"#,
                ContainerStartFailed,
            ),
            (
                "Access to model meta-llama/Meta-Llama-3-8B-Instruct is restricted. You must have access to it and be authenticated to access it. Please log in.",
                AppExitError,
            ),
            ("      lastFailureInfo:\n        exitCode: 137", OomKilled),
            (
                "exec /coredns: operation not permitted",
                ContainerStartFailed,
            ),
            (
                "http: server gave HTTP response to HTTPS client",
                ImageRegistryHttp,
            ),
            (
                r#"Error from server (Forbidden): error when creating "limit-range-pod-2.yaml": pods "busybox2" is forbidden: [maximum cpu usage per Pod is 2, but limit is 2400m., maximum memory usage per Pod is 2Gi, but limit is 2306867200.]"#,
                PodCreationRejected,
            ),
            (
                "  fit failure on node (kubernetes-node-6ta5): Node didn't have enough resource: CPU, requested: 1000, used: 1420, capacity: 2000",
                InsufficientResources,
            ),
            (
                "It may not be safe to bootstrap the cluster from this node. It was not the last one to leave the cluster",
                AppExitError,
            ),
            (
                "2022-02-01 08:10:14.734 GMT [1] FATAL:  database files are incompatible with server",
                AppExitError,
            ),
            (
                "Illegal instruction     (core dumped) nginx -g \"daemon off;\"",
                KilledBySignal,
            ),
            (
                "Error: grpc: error while marshaling: string field contains invalid UTF-8",
                ContainerStartFailed,
            ),
            (
                "Warning  SelectionFailed  14m (x25 over 16m)    blockdeviceclaim-operator  no blockdevices found",
                PvcUnbound,
            ),
            (
                "Apr 12 00:21:01 mos2 transactional-update[7302]: transactional-update finished - rebooting machine",
                NodeRestarted,
            ),
            (
                r#"kube-proxy[2241]: E0502 15:55:13.889842    2241 conntrack.go:42] conntrack returned error: error looking for path of conntrack: exec: "conntrack": executable file not found in $PATH"#,
                PodNetworkBroken,
            ),
            (
                "WARNING: infoROM is corrupted at gpu 0000:0B:00.0",
                AppExitError,
            ),
            (
                "netlink: Unknown conntrack attr (type=6, max=5)",
                PodNetworkBroken,
            ),
            (
                "failed to generate spec: lstat /dev/nvidia-uvm: no such file or directory",
                ContainerStartFailed,
            ),
            (
                r#"skydns: failure to forward request "read udp 10.240.0.18:47848->168.63.129.16:53: i/o timeout""#,
                PodNetworkBroken,
            ),
            (
                "2026-02-27T19:51:30Z\tERROR\tadmission\tfinding leader pod for follower\t{\"webhookGroup\": \"\", \"webhookKind\": \"Pod\"}",
                PodCreationRejected,
            ),
            (
                "-cf3c-4180/volumes/kubernetes.io~projected/kube-api-access-j562g/..2023_07_25/ca.crt: no space left on device",
                ResourceUnitsWrong,
            ),
            (
                "LastState: map[terminated:map[exitCode:137 reason:OOM Killed startedAt:2015-07-07T20:58:43Z]]",
                OomKilled,
            ),
            (
                "Error response from daemon: client version 1.38 is too new. Maximum supported API version is 1.37",
                NodeNotReady,
            ),
            (
                "Normal  Killing  39s (x735 over 15h)  kubelet, 10.179.80.31  Killing container with id docker://apigateway:Need to kill Pod",
                ContainerStopTimeout,
            ),
            (
                "48s Warning evictPodSuccess pod/be  evict Pod:be-pod-demo, reason: EvictPodByNodeMemoryUsage, message: killAndEvictBEPods",
                EvictedApi,
            ),
            (
                r#"74s Normal Descheduled pod/stress-demo  Pod evicted from node "cn-beijing.10.0.2.53" by the reason "node is overutilized, cpu usage(56.13%)>threshold(50.00%)""#,
                EvictedApi,
            ),
            (
                "Warning  ErrWorkloadCompose  14s   pod-kueue-controller  'my-pod-group' group has fewer runnable pods than expected",
                SchedulingGated,
            ),
            (
                r#"E0927 14:37:21.922965 14109 remote_runtime.go:250] RemoveContainer "19d837c7" from runtime service failed: rpc error: code = Unknown desc = failed to remove container"#,
                ContainerStopTimeout,
            ),
            (
                "Error validating pod kube-keepalived-vip-1p62d_default(5d79ccc0) from api, ignoring: spec.containers[0].securityContext.privileged: Forbidden: disallowed by cluster policy",
                NodeAdmissionRejected,
            ),
            (
                "Warning FailedSync 3m (x408 over 1h) kubelet, 10.179.80.31 error determining status: rpc error: code = DeadlineExceeded desc = context deadline exceeded",
                ContainerStopTimeout,
            ),
            (
                r#"Get "https://registry.redhat.io/v2/": x509: certificate signed by unknown authority"#,
                ImageRegistryTls,
            ),
            (
                "Warning  FailedDraining     3m48s (x1407 over 47h)  karpenter  Failed to drain node, 12 pods are waiting to be evicted",
                DisruptionBudgetBlocking,
            ),
            (
                r#"2024-10-23T19:11:48Z	INFO	EphemeralRunner	Ephemeral runner container failed	{"version": "0.9.3", "ephemeralrunner": {"name":"r-9n8tz","namespace":"arc-runners"}, "exitCode": 143}"#,
                EvictedApi,
            ),
            (
                "FailedScheduling: Insufficient vpc.amazonaws.com/pod-eni",
                InsufficientResources,
            ),
            ("Mysqld.Start(1683641048) stderr: Killed", OomKilled),
            (
                "exec /deployments/run-java.sh: permission denied",
                ContainerStartFailed,
            ),
            (
                "flag provided but not defined: -server.http.address",
                AppExitError,
            ),
            (
                "2022-04-18 19:08:22.868271 I | error loading config file /etc/agent/agent.yml: yaml: line 13: did not find expected alphabetic or numeric character",
                AppExitError,
            ),
            (
                r#"Warning FailedMapVolume 69s (x9 over 3m18s) kubelet MapVolume.SetUpDevice failed for volume "pvc-357308a4" : rpc error: code = Internal desc = failed to stage volume: multipathd is not running"#,
                VolumeMountFailed,
            ),
            (
                "E1112 11:01:13.907517  255976 csi_attacher.go:364] kubernetes.io/csi: attacher.MountDevice failed: rpc error: code = Internal desc = stat /var/lib/kubelet/plugins/kubernetes.io/csi/beegfs.csi.netapp.com/5465/globalmount: no such file or directory",
                VolumeMountFailed,
            ),
            (
                "proxmox-csi-plugin-node-x: RegisterPlugin error -- plugin registration failed with err: rpc error: code = Unknown desc = failed to get region for node talos-x",
                VolumeMountFailed,
            ),
            (
                "E1207 07:40:16.205850       1 main.go:119] GRPC error: failed to get region for node k8s01",
                VolumeMountFailed,
            ),
            (
                "(geesefs)[523366]: geesefs-pvc_2d.service: Failed at step EXEC spawning /var/lib/kubelet/plugins/ru.yandex.s3.csi/geesefs: Permission denied",
                VolumeMountFailed,
            ),
            (
                "unexpected error getting claim reference: selfLink was empty, can't make reference",
                PvcUnbound,
            ),
            (
                "Warning  Unschedulable  kai-scheduler  no nodes with enough resources were found: 1 node(s) didn't have enough resources: GPU memory.",
                InsufficientResources,
            ),
            (
                "ctr: failed to start shim: start failed: : fork/exec /usr/bin/containerd-shim-kata-v2: no such file or directory: unknown",
                SandboxCreationFailed,
            ),
            (
                "Failed to allocate device vector A (error code system not yet initialized)! [Vector addition of 5000 elements]",
                AppExitError,
            ),
            (
                "SandboxChanged  4m31s (x3 over 4m50s)   kubelet            Pod sandbox changed, it will be killed and re-created.",
                SandboxCreationFailed,
            ),
            (
                "Error running credential provider plugin: AccessDeniedException: User: arn:aws:sts::1:assumed-role/worker-role/i-1 is not authorized to perform: ecr:GetAuthorizationToken on resource: *",
                ImagePullAuth,
            ),
            (
                "NetworkPlugin cni failed to set up pod \"xxx\" network: the given pool (10.233.64.0/18) does not exist, or is not enabled.",
                SandboxCreationFailed,
            ),
            (
                "CreateContainerConfigError (configmap \"gatus\" not found)",
                ConfigmapMissing,
            ),
            (
                "iscsiadm: can't open iscsid.startup configuration file /etc/iscsi/iscsid.conf",
                VolumeMountFailed,
            ),
            (
                r#"{"level":"error","msg":"Command error: xtables parameter problem: iptables-restore: unable to initialize table 'nat'\nError occurred at line: 1"}"#,
                AppExitError,
            ),
            (
                r#"configmaps "kafka-broker-brokers-triggers" is forbidden: unable to create new content in namespace test-atemuwtj because it is being terminated"#,
                NsFinalizerPending,
            ),
            (
                r#"The Pod "app-0" is invalid: spec.initContainers: Forbidden: pod updates may not add or remove containers"#,
                FinalizerPending,
            ),
            (
                r#"failed to extract layer sha256:02f2bcb26af5ea6d185dcf509dc795746d907ae10c53918b6944ac85447a0c72: hcsshim::ProcessBaseLayer \\?\C:\ProgramData\containerd\root\io.containerd.snapshotter.v1.windows\snapshots\167: The system cannot find the path specified.: unknown"#,
                ImagePlatformMismatch,
            ),
            (
                "Status:              Not enough disk space Insufficient disk space detected in one or more pods is preventing PostgreSQL from running.",
                AppExitError,
            ),
            (
                "Oct 11 07:42:23 dev-worker-1 k3s[1294]: Mounting arguments: mount -t nfs -o vers=4.1 10.43.207.185:/pvc-1 /var/lib/kubelet/plugins/kubernetes.io/csi/driver.longhorn.io/185c/globalmount",
                VolumeMountFailed,
            ),
            (
                "wrong fs type, bad option, bad superblock on /dev/nvme2n1, missing codepage or helper program, or other error",
                VolumeMountFailed,
            ),
            (
                r#"E0706 02:11:49.319012    4460 server.go:101] failed NewSmbGlobalMapping NewSmbGlobalMapping failed. output: "New-SmbGlobalMapping : The network path was not found."#,
                VolumeMountFailed,
            ),
            (
                "failed to allocate for range 0: no IP addresses available in range set",
                SandboxCreationFailed,
            ),
            (
                r#"    message: 'cannot decrease memory limits: missing container "app" memory usage'"#,
                ResizeInfeasible,
            ),
            (
                r#"Checking EC2 API connectivity, WebIdentityErr: failed to retrieve credentials\ncaused by: RequestError: send request failed\ncaused by: Post \"https://sts.us-east-1.amazonaws.com/\": dial tcp: lookup sts.us-east-1.amazonaws.com: i/o timeout"#,
                DependencyUnreachable,
            ),
            (
                "bdev(0x56212de88700 /var/lib/ceph/osd/ceph-0//block) _aio_start io_setup(2) failed with EAGAIN; try increasing /proc/sys/fs/aio-max-nr",
                AppExitError,
            ),
            (
                r#"  "message": "admission webhook \"clusterwide-user-group-psp.kubewarden.admission\" denied the request: User ID outside defined ranges","#,
                PodCreationRejected,
            ),
            (
                r#"Job failed (system failure): prepare environment: setting up credentials: Internal error occurred: failed calling webhook "example.webhook.service""#,
                PodCreationRejected,
            ),
            (
                "too many storage configs provided in the common config, please only define one storage backend",
                AppExitError,
            ),
            (
                "CONFIG ERROR: schema v13 is required to store Structured Metadata and use native OTLP ingestion",
                AppExitError,
            ),
            (
                "Interface vetha38a080a Mac doesn't match: ee:7b:4d:57:3a:d9 not found",
                SandboxCreationFailed,
            ),
            (
                r#"Multus: [default/virt-launcher-vmi-istio-44mws]: error loading k8s delegates k8s args: TryLoadPodDelegates: error in getting k8s network for pod: GetNetworkDelegates: failed getting the delegate: getKubernetesDelegate: cannot find a network-attachment-definition (istio-cni) in namespace (default): network-attachment-definitions.k8s.cni.cncf.io "istio-cni" not found"#,
                SandboxCreationFailed,
            ),
            ("APPLICATION FAILED TO START", AppExitError),
            (
                r#"E1118 09:00:04.929385    4821 pod_workers.go:1301] "Error syncing pod, skipping" err="unmounted volumes=[s3-volume-02], unattached volumes=[], failed to process volumes=[s3-volume-02]: context deadline exceeded""#,
                VolumeMountFailed,
            ),
            ("Preempted in order to admit critical Pod", Preempted),
            (
                "/bin/sh: line 1: unknown-command: command not found",
                CommandNotFound,
            ),
            (
                r#"/csi.v1.node/nodepublishvolume code = Internal desc = "sidecar bucket access check error": failed to get GCS"#,
                VolumeMountFailed,
            ),
            (
                "Warning  FailedScheduling  4m5s  volcano  3/3 tasks in gang unschedulable: pod group is not ready, 3 Pending, 3 minAvailable",
                InsufficientResources,
            ),
            (
                "E1110 16:35:22.840688    3201 kubelet_node_status.go:69] Unable to construct api.Node object for kubelet: failed to get external ID from cloud provider",
                NodeNotReady,
            ),
            (
                "/var/lib/kubelet/csi-plugins/csi.juicefs.com/csi.sock: connect: no such file or directory",
                VolumeMountFailed,
            ),
            (
                "E1029 17:37:42.461313       1 server.go:54] failed to process mount request, error: keyvault.BaseClient#GetSecret: Failure sending request: StatusCode=0 -- Original Error: context deadline exceeded",
                VolumeMountFailed,
            ),
            (
                "Error while processing Node Add/Delete: failed to allocate cidr from cluster cidr at idx:0: CIDR allocation failed; there are no remaining CIDRs left to allocate in the accepted range",
                NodeNotReady,
            ),
            (
                "python: can't open file '/home/ray/samples/sample_code.ppy': [Errno 2] No such file or directory",
                AppExitError,
            ),
            (
                "SMT Alignment Error: requested 3 cpus not multiple cpus per core = 2",
                NodeAdmissionRejected,
            ),
            (
                "  virtualmachineinstances.kubevirt.io does not implement the scale subresource",
                DisruptionBudgetBlocking,
            ),
            (
                r#"E1109 22:18:36.012808       1 run.go:74] "command failed" err="can't use the IPVS proxier: no such file or directory""#,
                AppExitError,
            ),
            (
                "mkfs-osd0: 2017-10-31 20:13:11.187121 7f0059d62e00 -1  ** ERROR: error creating empty object store in /var/lib/rook/osd0: (17) File exists",
                AppExitError,
            ),
            (
                "Bad file format reading the append only file appendonly.aof.1.incr.aof",
                AppExitError,
            ),
            (
                "  line 97: field query_ingesters_within not found in type querier.Config",
                AppExitError,
            ),
            (
                "error unpacking image: failed to extract layer sha256:1021ef88c7974bfff89c5a0ec4fd3160daac6c48a075f74cff721f85dd104e68: failed to get reader from content store: content digest sha256:fbe1a72f5dcd08ba4ca3ce3468c742786c1f6578c1f6bb401be1c4620d6ff705: not found",
                ImageStoreCorrupt,
            ),
            (
                "Node scale up in zones us-central1-c associated with this pod failed: GCE quota exceeded. Pod is at risk of not being scheduled.",
                InsufficientResources,
            ),
            (
                "    spec.initContainers[1].startupProbe: Forbidden: may not be set for init",
                PodCreationRejected,
            ),
            (
                "get identity: get credentials: failed to refresh cached credentials, no EC2 IMDS role found",
                AppExitError,
            ),
            (
                "Warning  MissingIAMPermissions  Unauthorized operation: failed to call ec2:DescribeSubnets due to missing permissions.",
                AppExitError,
            ),
            (
                "NVIDIA-SMI couldn't find libnvidia-ml.so library in your system. Please make sure that the NVIDIA Display Driver is properly installed",
                AppExitError,
            ),
            (
                r#"The Cluster ID 4a...... doesn't match stored clusterid Some(Qgt.....) in meta.properties."#,
                AppExitError,
            ),
            (
                "[dumb-init] /usr/local/bin/consul-dataplane: Operation not permitted",
                AppExitError,
            ),
            (
                "[dumb-init] /app/run.sh: No such file or directory",
                CommandNotFound,
            ),
            (
                "/bin/bash: line 8: 11 Killed kubectl get release --all-namespaces",
                OomKilled,
            ),
            (
                r#"message: "failed to create subPath directory for volumeMount \"ws-dmnjx\" of container \"step-checkout\"""#,
                VolumeMountFailed,
            ),
            (
                r#"{"error": "Pod \"arc-runners-9r4dj-runner-zvlq4\" is invalid: [spec.initContainers[0].volumeMounts[1].name: Not found: \"dind-sock\"]"}"#,
                PodCreationRejected,
            ),
            (
                "globalmount: bad option; for several filesystems (e.g. nfs, cifs) you might need a /sbin/mount.<type> helper program.",
                VolumeMountFailed,
            ),
            (
                "insufficient quota to match these scopes: [{PriorityClass In [system-node-critical system-cluster-critical]}]",
                PodCreationRejected,
            ),
            (
                r#"Message: "pods \"nfd-worker-c42c\" is forbidden: violates PodSecurity \"restricted:latest\": restricted volume types","#,
                PodCreationRejected,
            ),
            (
                "FailedScheduling: all available instance types exceed limits for nodepool (NodePool=default);",
                InsufficientResources,
            ),
            (
                r#"1.6475935455924516e+09 ERROR controller-runtime.source if kind is a CRD, it should be installed before calling Start{"kind": "ApplicationSet.argoproj.io"}"#,
                AppExitError,
            ),
            (
                r#""failed to wait for cluster caches to sync kind source: *v1.EndpointSlice: timed out waiting for cache to be synced""#,
                AppExitError,
            ),
            (
                "loki-backend-2 loki at least one bucket name must be specified",
                AppExitError,
            ),
            ("make: *** [Makefile:89: modules] Error 2", AppExitError),
            (
                "Cookie file /var/lib/rabbitmq/.erlang.cookie must be accessible by owner only",
                AppExitError,
            ),
            (
                r#"time="2023-02-01T10:00:00Z" level=fatal msg="failed to sync *v1.Service: context deadline exceeded""#,
                AppExitError,
            ),
            (
                "io.jenkins.tools.pluginmanager.impl.AggregatePluginPrerequisitesNotMetException: Multiple plugin prerequisites not met:",
                AppExitError,
            ),
            (
                "RuntimeError: Failed to fetch model. The path or model gs://kfserving-examples/models/sklearn/iris-1 does not exist.",
                AppExitError,
            ),
            (
                "WARNING: MongoDB 5.0+ requires a CPU with AVX support, and your current system does not appear to have that!",
                KilledBySignal,
            ),
            (
                "1:S 09 May 2025 12:44:40.229 # Can't handle RDB format version 12",
                AppExitError,
            ),
            (
                "unexpected status code https://registry-1.docker.io/v2/library/alpine/manifests/sha256:f271: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit.",
                ImagePullRateLimited,
            ),
            (
                "docker://ghcr.io/kdwils/envoy-proxy-bouncer@sha256:...: no image found in image index",
                ImagePlatformMismatch,
            ),
            (
                r#"FATA[0003] failed commit on ref "layer-sha256:b4e744f5": commit failed: unexpected commit digest sha256:5dc2908c, expected sha256:b4e744f5: failed precondition"#,
                ImageStoreCorrupt,
            ),
            (
                "  Normal  WaitForFirstConsumer  2m  persistentvolume-controller  waiting for first consumer to be created before binding",
                PvcUnbound,
            ),
            (
                r#"Error: failed to create pod: pods "volume-exposer-wtyvo" is forbidden: cpu max limit to request ratio per Container is 10, but provided ratio is 100.000000"#,
                PodCreationRejected,
            ),
            (
                "modprobe: FATAL: Module nvme-tcp not found in directory /lib/modules/5.15.0-1036-azure",
                VolumeMountFailed,
            ),
            (
                r#"ts=2023-05-02T10:00:00Z caller=main.go:1 level=error msg="Error loading config (--config.file=/etc/prometheus/config_out/prometheus.env.yaml)" err="parsing YAML file /etc/prometheus/config_out/prometheus.env.yaml: empty duration string""#,
                AppExitError,
            ),
            (
                "state: waiting: reason: CreateContainerConfigError message: services have not yet been read at least once, cannot construct envvars",
                ConfigError,
            ),
            (
                r#"level=warning msg="Error validating CNI config file /etc/cni/net.d/10-flannel.conflist: [failed to find plugin \"portmap\" in path [/opt/cni/bin/]]""#,
                NodeNotReady,
            ),
            (
                "Error: failed to create containerd container: failed to stat parent: stat /var/lib/rancher/rke2/agent/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/214/fs: no such file or directory",
                ImageStoreCorrupt,
            ),
            (
                r#"failed to do request: Head "https://kind-registry:5000/v2/hivemq/operator/manifests/snapshot": http: server gave HTTP response to HTTPS client"#,
                ImageRegistryHttp,
            ),
            (
                "iscsiadm: Could not perform SendTargets discovery: iSCSI PDU timed out:",
                VolumeMountFailed,
            ),
            (
                "[ALERT]    (1) : [haproxy.main()] Some protocols failed to start their listeners! Exiting.",
                AppExitError,
            ),
            (
                r#"Exception in thread "main" java.lang.RuntimeException: Invalid cluster.id in: /var/lib/kafka/data/kafka-log0/meta.properties."#,
                AppExitError,
            ),
            (
                "cp: target '/shared/argocd-dex' is not a directory",
                AppExitError,
            ),
            (
                "Waiting for a volume to be created either by the external provisioner 'filestore.csi.storage.gke.io' or manually by the system administrator. If volume creation is delayed, please verify that the provisioner is running and correctly registered.",
                PvcUnbound,
            ),
            (
                "`command traefik error: failed to decode configuration from flags: field not found, node: entrypoint`",
                AppExitError,
            ),
            (
                "ERROR 10-13 09:06:25 [v1/executor/multiproc_executor.py:597] RuntimeError: NCCL error: unhandled system error (run with NCCL_DEBUG=INFO for details)",
                AppExitError,
            ),
            ("## Error: unknown flag: --address", AppExitError),
            (
                r#"E0201 run.go:72] "command failed" err="unrecognized feature gate: UserNamespacesPodSecurityStandards""#,
                AppExitError,
            ),
            (
                "Error: [invalid port value 8080: only zero is allowed]",
                AppExitError,
            ),
            (
                r#"err="no kind \"KubeSchedulerConfiguration\" is registered for version \"kubescheduler.config.k8s.io/v1beta1\"""#,
                AppExitError,
            ),
            (
                "E0606 reflector.go:178] Failed to list *v1alpha2.Certificate: the server could not find the requested resource (get certificates.cert-manager.io)",
                AppExitError,
            ),
            (
                "[ALERT]    (1) : [haproxy.main()] Cannot raise FD limit to 709, limit is 1073741816.",
                AppExitError,
            ),
            (
                "Warning: Extension tcp revision 0 not supported, missing kernel module?",
                AppExitError,
            ),
            (
                r#"level=warning msg="failed to load plugin io.containerd.grpc.v1.cri" error="invalid plugin config: `mirrors` cannot be set when `config_path` is provided""#,
                NodeNotReady,
            ),
            (
                r#" error while updating node allocatable: rpc error: code = Unavailable desc = connection error: desc = "transport: Error while dialing: dial unix /host-podresources/kubelet.sock: connect: permission denied""#,
                DependencyUnreachable,
            ),
            (
                "/host/opt/cni/bin is non-writeable, skipping",
                SandboxCreationFailed,
            ),
            (
                r#"1008 kuberuntime_sandbox.go:68] CreatePodSandbox for pod "coredns-8655855d6-lxb65_kube-system(a9bf61ea-c193-4fa9-944d-cd838424f0c2)" failed: rpc error: code = NotFound desc = failed to create containerd container: error unpacking image: failed to resolve rootfs: content digest sha256:e11a8cbeda8688fdc3a68dc246d6c945aa272b29f8dd94d0ea370d30c2674042: not found"#,
                SandboxCreationFailed,
            ),
            (
                r#"ERROR	cmd	Manager exited non-zero	{"error": "no matches for kind \"PodDisruptionBudget\" in version \"policy/v1beta1\""}"#,
                AppExitError,
            ),
            (
                "Process core-dump-agent (pid: 954575, oom_score: 132118, oom_score_adj: 998) triggered an OOM kill on itself. The process had reached 65536 pages in size.",
                OomKilled,
            ),
            (
                r#"E0728 08:50:47.537800     936 kubelet.go:1607] Failed creating a mirror pod for "kube-proxy-ip-172-31-16-25.eu-central-1.compute.internal_kube-system(2908bf33d480a29f35190eda0d4f912b)": pods "kube-proxy-ip-172-31-16-25.eu-central-1.compute.internal" is forbidden: no providers available to validate pod request"#,
                PodCreationRejected,
            ),
            (
                "	* PDB ns/cnpg-primary has minAvailable(1) >= expectedPods(1)  can't proceed with put operation",
                DisruptionBudgetBlocking,
            ),
            (
                r#""pod didn't trigger scale-up: 4 max cluster cpu, memory limit reached, 2 max node group size reached""#,
                InsufficientResources,
            ),
            (
                r#"│ ntainers[0].volumeMounts[2].mountPath: Invalid value: "/var/run/secrets/eks.amazonaws.com/serviceaccount": must be unique]"#,
                PodCreationRejected,
            ),
            (
                "rpc error: code = ResourceExhausted desc = no drive found for requested topolog",
                PvcUnbound,
            ),
            (
                "Attempted to create a lock file on a read-only directory: /data/db",
                AppExitError,
            ),
            (
                r#"RemoveContainer "[ID]" from runtime service failed: rpc error: code = Unknown desc = failed to remove container "[ID]": Error response from daemon: unable to remove filesystem for [ID]: CreateFile C:\ProgramData\docker\containers\[ID]\[ID]-json.log.4: Access is denied."#,
                KubeletCleanupPending,
            ),
            (
                "Error: UPGRADE FAILED: current release manifest contains removed kubernetes api(s) for this kubernetes version",
                AppExitError,
            ),
            (
                "panic: /rootfs/proc doesn't exists, please use latest yaml templates to launch cloudwatch-agent",
                AppExitError,
            ),
            (
                r#"Message:  Cannot enforce AppArmor: profile "k8s-apparmor-example-deny-write" is not loaded"#,
                NodeAdmissionRejected,
            ),
            (
                r#"Warning: would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false (container "nginx" must set securityContext.allowPrivilegeEscalation=false)"#,
                PodCreationRejected,
            ),
            (
                "    Message:               no response from https://10.96.10.86:443: Get https://10.96.10.86:443: dial tcp 10.96.10.86:443: connect: connection refused",
                ApiserviceUnavailable,
            ),
            (
                r#"I0511 21:56:53.747234       1 server.go:187] "Failed probe" probe="metric-storage-ready" err="no metrics to serve""#,
                ReadinessProbeFailing,
            ),
            (
                "grafana Error: ✗ Datasource provisioning error: datasource.yaml config is invalid. Only one datasource per organization can be marked as default",
                AppExitError,
            ),
            (
                "E! Error: no outputs found, did you provide a valid config file?",
                AppExitError,
            ),
            (
                r#"failed to retrieve ConfigMap kube-system/aws-auth: configmaps \"aws-auth\" is forbidden: User \"system:serviceaccount:amazon-cloudwatch:cloudwatch-agent-cluster-scraper\" cannot get resource"#,
                AppExitError,
            ),
            (
                "GPU-using init containers are not supported in Autopilot.",
                PodCreationRejected,
            ),
            (
                "ed the request: [denied by autogke-no-write-mode-hostpath] hostPath volume docker-sock used in container wait",
                PodCreationRejected,
            ),
            (
                "2021/04/15 00:12:02 [8076] Failed to initialize key-value store of network plugin, err:timed out locking store.",
                SandboxCreationFailed,
            ),
            (
                r#"CommandExecutionError: Failed to evict pod "keycloak-0" in namespace "keycloak": (429)"#,
                DisruptionBudgetBlocking,
            ),
            (
                r#"process caused "exec: \"/binbash\": stat /binbash: no such file or directory":"#,
                CommandNotFound,
            ),
            (
                r#"Failed to start tetragon" error="tetragon, aborting kernel autodiscovery failed: Kernel version \"5.4.257-1.el7.elrepo.x86_64\" BTF search failed kernel is not included in supported list."#,
                AppExitError,
            ),
            (
                "* Running dkms build failed, couldn't find /var/lib/dkms/falco/6.0.1+driver/build/make.log (with GCC /usr/bin/gcc)",
                AppExitError,
            ),
            (
                "[51829.022859] memory: usage 512000kB, limit 512000kB, failcnt 0",
                OomKilled,
            ),
            (
                "    message: 'Failed to initialize CSINode: error updating CSINode annotation: timed",
                NodeNotReady,
            ),
            (
                r#"  2.084s Revision "test3-bqdlg-1" failed with message: pods "test3-bqdlg-1-deployment-7dcfc469f6-658tj" is forbidden: minimum cpu usage per Container is 10m, but request is 1m."#,
                PodCreationRejected,
            ),
            (
                r#""Health check failed" err="rpc error: code = Canceled desc = context canceled""#,
                LivenessProbeFailing,
            ),
            (
                r#"time="2022-06-11T01:37:21Z" level=fatal msg="Failed to start tetragon" error="tetragon, aborting kernel autodiscovery failed""#,
                AppExitError,
            ),
            (
                // kubermatic/docs known-issues: Cilium 1.18 on Ubuntu 22.04's 5.15.0-47 kernel.
                r#"error="attaching cilium_host: loading eBPF collection into the kernel: "#,
                AppExitError,
            ),
            (
                "program tail_nodeport_nat_egress_ipv4: load program: permission denied: 1074: (71) r1 = *(u8 *)(r2 +23): R2 invalid mem access 'inv'",
                AppExitError,
            ),
            (
                // jupyterhub/zero-to-jupyterhub-k8s#3128: the chart's user-scheduler on EKS 1.27.
                "E0530 17:41:37.219068       1 reflector.go:138] k8s.io/client-go/informers/factory.go:134: Failed to watch *v1beta1.CSIStorageCapacity: failed to list *v1beta1.CSIStorageCapacity: the server could not find the requested resource",
                SchedulerUnavailable,
            ),
            (
                // charmed-kubernetes' install-local.md: an LXD unit whose profile lacks /dev/kmsg.
                "failed to create kubelet: open /dev/kmsg: no such file or directory",
                NodeNotReady,
            ),
            (
                r#"dial tcp: lookup harbor-domain.com on 168.63.129.16:53: no such host Warning  Failed     13s   kubelet            Error: ErrImagePull"#,
                ImageRegistryUnreachable,
            ),
            (
                r#"Error: reading ID mappings from "/proc/0/uid_map": no such file or directory"#,
                ContainerStartFailed,
            ),
            (
                "W0222 17:53:26.864233    2953 util.go:64] FATAL ERROR: creating container: cannot create sandbox: cannot create sandbox process: starting sandbox: fork/exec /proc/self/exe: no space left on device",
                SandboxCreationFailed,
            ),
            (
                "2022-11-15 09:38:40.290 UTC [1] WARNING DNS lookup failed: spire-postgres: result=0",
                DependencyUnreachable,
            ),
            (
                r#"error="datastore-sql: pq: cannot set transaction read-write mode during recovery""#,
                DependencyUnreachable,
            ),
            (
                "2022-05-20 19:43:02,245 WARN Session 0x1001ec4c0730001 for server localhost/127.0.0.1:2181, unexpected error, closing socket connection and attempting reconnect (org.apache.zookeeper.ClientCnxn)",
                DependencyUnreachable,
            ),
            (
                ".containers[0].runAsUser: Invalid value: 1000: must be in the ranges: [1000660000, 1000669999]",
                PodCreationRejected,
            ),
            (
                r#"running PreBind plugin "VolumeBinding": binding volumes: timed out waiting for the condition"#,
                PvcUnbound,
            ),
            (
                "[1597020669] unbound[8:0] fatal error: Could not set up local zones",
                AppExitError,
            ),
            (
                r#"  "message": "initiating delete from interruption message","#,
                EvictedApi,
            ),
            (
                r#"level=info msg="Error: error validating driver installation: error creating symlink creator: failed to create NVIDIA device nodes: failed to create device node nvidiactl: failed to determine major: invalid device node"#,
                AppExitError,
            ),
            (
                "2018-12-18T21:41:32Z [error] GetNetworkDelegates: namespace isolation enabled, annotation violates permission, pod is in namespace development but refers to target namespace privileged",
                SandboxCreationFailed,
            ),
            (
                "failed to join memberlist cluster on startup",
                DependencyUnreachable,
            ),
            ("Some services are not Running:", ReadinessProbeFailing),
            (
                "Query Frontend not ready: not ready: number of queriers connected to query-frontend is 0",
                ReadinessProbeFailing,
            ),
            (
                "CONFIG ERROR: `tsdb` index type is configured in at least one schema period, however, `storage_config`, `tsdb_shipper`, `active_index_directory` is not set",
                AppExitError,
            ),
            (
                r#"Error from server (Forbidden): error when creating "/etc/kubernetes/redis/pod.json": pods "redis" is forbidden: error looking up service account default/default: serviceaccount "default" not found"#,
                PodCreationRejected,
            ),
            (
                r#"E0205 20:24:22.721950       1 proxier.go:1788] "nftables sync failed" err="signal: segmentation fault (core dumped)" ipFamily="IPv4""#,
                PodNetworkBroken,
            ),
            (
                "│     /dev/stdin:892:87-100: Error: Could not process rule: No such file or directory",
                PodNetworkBroken,
            ),
            (
                "failed to load plugin: invalid cri image config:",
                NodeNotReady,
            ),
            (
                r#"Deleting pod "alpine" in namespace "default""#,
                DeletedByClient,
            ),
            (
                // kubectl drain through a KubeVirt eviction webhook and a PDB (kubevirt docs).
                "pod/virt-launcher-vm-cirros-wn5v4 evicted",
                EvictedApi,
            ),
            ("`pod/virt-launcher-vm-cirros-wn5v4 evicted`", EvictedApi),
            (
                "Reached max retries while trying to evict pods from nodes in node group live-default_ng_xxxx",
                DisruptionBudgetBlocking,
            ),
            (
                "      list: []unstructured.Unstructured, content is not a list: []unstructured.Unstructured,",
                ApiserviceUnavailable,
            ),
            (
                "cannot upload to DataVolume in state WaitForFirstConsumer",
                PvcUnbound,
            ),
            (
                "exec /opt/entrypoint.sh: argument list too long",
                ContainerStartFailed,
            ),
            (
                r#"[1] ! Unable to load application: ActiveRecord::StatementInvalid: PG::UndefinedTable: ERROR:  relation "accounts" does not exist"#,
                AppExitError,
            ),
            (
                r#"/opt/mastodon/vendor/bundle/ruby/3.0.0/gems/activerecord-6.1.7/lib/active_record/connection_adapters/postgresql/database_statements.rb:19:in `exec': PG::UndefinedTable: ERROR:  relation "accounts" does not exist (ActiveRecord::StatementInvalid)"#,
                AppExitError,
            ),
            (
                ".erlang.cookie must be accessible by owner only",
                AppExitError,
            ),
            (
                "  Normal  EvictedPod  20m   vpa-updater  VPA Updater evicted Pod hamster-78f9dcdd4c-hf7gk to apply resource recommendation.",
                EvictedApi,
            ),
            (
                r#"2020/09/15 21:13:42 Node "ip-192-168-123-456.us-east-1.compute.internal" successfully cordoned and drained."#,
                EvictedApi,
            ),
            (
                "Warning  KeyInSecretRefIssue  kafka/kafka  required key [ldap.txt] missing in secretRef [credential] for auth type [ldap_simple]",
                SecretMissing,
            ),
            (
                "metadata.annotations: Too long: must have at most 262144 bytes, spec.template.annotations: Too long: must have  at most 262144 bytes",
                PodCreationRejected,
            ),
            (
                "Policy creation failed: hcnCreateLoadBalancer failed in Win32: The specified port already exists.",
                PodNetworkBroken,
            ),
            (
                "failure in a Windows system call: The operating system of the container does not match the operating system of the host. (0xc0370101)",
                ImagePlatformMismatch,
            ),
            (
                "binascii.Error: Invalid base64-encoded string: number of data characters (21) cannot be 1 more than a multiple of 4",
                AppExitError,
            ),
            (
                r#"`"error":"Please specify the init container image using --init-container-image","reason":"FatalInvalidCLIParameters"`"#,
                AppExitError,
            ),
            (
                r#"May 20 14:55:22 xxx kubelet[3457]: E0520 14:55:22.095536    3457 kubelet.go:2244] node "xxx" not found"#,
                NodeNotReady,
            ),
            (
                r#"E1120 10:00:00.000000    3457 kubelet_node_status.go:462] "Error getting node" err="node \"node-1\" not found""#,
                NodeNotReady,
            ),
            (
                // tests/fixtures/wild 2717 (a stale mount namespace hid the engine binaries).
                r#"exec: "/engine-binaries/docker.io-longhornio-longhorn-engine-v1.12.0/longhorn":"#,
                VolumeMountFailed,
            ),
            (
                r#"error determining status: rpc error: code = Unknown desc = failed to get sandbox ip: check network namespace closed: remove netns: unlinkat /var/run/netns/cni-bed632ee-e425-f60b-01e6-76a3ab645b3f: device or resource busy"#,
                ContainerStopTimeout,
            ),
            (
                "I0101 10:00:00.000000       1 gc_controller.go:160] Found orphaned Pod shop/web-1 assigned to the Node node-9. Deleting.",
                PodGcOrphaned,
            ),
            (
                r#"I1120 10:00:00.500000       1 gc_controller.go:250] "Found orphaned Pod assigned to the Node, deleting" pod="shop/web-2" node="node-9""#,
                PodGcOrphaned,
            ),
            (
                r#"I1120 10:00:01.000000       1 gc_controller.go:280] "Found unscheduled terminating Pod not assigned to any Node, deleting" pod="shop/web-3""#,
                PodGcUnscheduledTerminating,
            ),
            (
                "I0101 10:00:00.000000       1 gc_controller.go:93] garbage collecting 2 pods",
                PodGcThreshold,
            ),
            (
                r#"I1120 10:00:00.000000       1 gc_controller.go:116] "Garbage collecting pods" numPods=12"#,
                PodGcThreshold,
            ),
            (
                "Jan 10 09:41:08 speed3 dockerd-current[21270]: W0110 14:41:08.646423   23589 eviction_manager.go:332] eviction manager: attempting to reclaim imagefs",
                NodePressure,
            ),
            (
                // indeedeng/harbor-container-webhook#20
                r#"2023-03-24T23:24:40Z	DEBUG	controller-runtime.webhook.webhooks	wrote response	{"webhook": "/webhook-v1-pod", "code": 400, "reason": "", "UID": "7183f127-a1d2-486a-89e1-e74bd353dc8b", "allowed": false}"#,
                PodCreationRejected,
            ),
            (
                // kubernetes/kubernetes#135825 (OpenShift's kubelet, systemd cgroup driver).
                r#"E1212 21:19:08.719175    7200 pod_workers.go:1324] "Error syncing pod, skipping" err="failed to delete cgroup paths for [kubepods besteffort poda4418b44-5c5a-4bd5-b7b3-42860ff00483] : unable to destroy cgroup paths for cgroup [kubepods besteffort poda4418b44-5c5a-4bd5-b7b3-42860ff00483] : Timed out while waiting for systemd to remove kubepods-besteffort-poda4418b44_5c5a_4bd5_b7b3_42860ff00483.slice""#,
                KubeletCleanupPending,
            ),
            (
                "/bin/sh: /opt/cache-client/usr/lib/x86_64-linux-gnu/libc.so.6: version `GLIBC_2.38' not found (required by /bin/sh)",
                ContainerStartFailed,
            ),
            (
                // cri-o/cri-o#6040: NodeSwap with UnlimitedSwap on cgroup v2.
                "container d5b9277fc2aae6dda6d132bf242b2678a1884e5112b7dca1022aae52a6126530 create failed because memory swap limit (-1) cannot be lower than memory limit (4294967296)",
                ContainerStartFailed,
            ),
            (
                // istio.io's injection problems: the API server's older wording.
                r#"Internal error occurred: failed calling admission webhook "istio-sidecar-injector.istio.io": \"#,
                PodCreationRejected,
            ),
            (
                // kubernetes/kubernetes#120571: the attach/detach controller lost the volume's
                // VolumeAttachment across its restart.
                r#"User "system:node:ip-10-0-243-205.us-east-2.compute.internal" cannot get resource "volumeattachments" in API group "storage.k8s.io" at the cluster scope: no relationship found between node 'ip-10-0-243-205.us-east-2.compute.internal' and this object"#,
                VolumeMountFailed,
            ),
            (
                "E0427 15:38:51.829964   63737 bootstrap.go:205] Part of the existing bootstrap client certificate is expired: 2020-02-23 15:48:00 +0000 UTC",
                NodeNotReady,
            ),
            (
                // pgmac's runbook on calico's orphaned pod routes (wild 2702).
                r#"Liveness probe failed: Get "http://10.1.73.89:8080/": dial tcp 10.1.73.89:8080: connect: invalid argument"#,
                PodNetworkBroken,
            ),
            (
                // imroc's guide, the kubelet's directory on a full disk (wild 2698).
                r#"Update plugin resources failed due to failed to write checkpoint file "kubelet_internal_checkpoint": write /var/lib/kubelet/device-plugins/.728425055: no space left on device, which is unexpected."#,
                NodePressure,
            ),
            (
                // google/gvisor#9834 (wild 2825): runsc left the container's process running.
                r#"level=error msg="Failed to handle backOff event container_id:\"b8206ab1\"" error="failed to handle container TaskExit event: failed to stop container: failed to delete task: failed rootfs umount: failed to unmount target /run/containerd/io.containerd.runtime.v2.task/k8s.io/b8206ab1/rootfs: device or resource busy: unknown""#,
                ContainerStopTimeout,
            ),
            (
                r#"level=warning msg="failed to cleanup rootfs mount" error="failed to unmount target /run/containerd/io.containerd.runtime.v2.task/k8s.io/b8206ab1/rootfs: device or resource busy" runtime=io.containerd.runsc.v1"#,
                ContainerStopTimeout,
            ),
            (
                // kubeovn/kube-ovn (wild 2830): a node webhook without endpoints.
                r#""failed to initialize ovn chassis annotation" err="Internal error occurred: failed calling webhook \"nodes.capsule.clastix.io\": failed to call webhook: Post \"https://capsule-webhook-service.caas.svc:443/nodes?timeout=30s\": no endpoints available for service \"capsule-webhook-service\"""#,
                DependencyUnreachable,
            ),
            (
                r#"failed init default queue, with err: Internal error occurred: failed calling webhook "mutatequeue.volcano.sh": failed to call webhook: Post "https://volcano-admission-service.volcano-system.svc:443/queues/mutate?timeout=30s": EOF"#,
                DependencyUnreachable,
            ),
            (
                // istio/istio (wild 2826): an init container's kubectl under Istio's redirection.
                "The connection to the server 10.14.0.1:443 was refused - did you specify the right host or port?",
                DependencyUnreachable,
            ),
            (
                // rancher/rke2 (wild 2857): a Linux-only upgrade image pulled on a Windows node.
                r#"ErrImagePull (rpc error: code = NotFound desc = failed to pull and unpack image "docker.io/rancher/rke2-upgrade:v1.22.17-rke2r1": no match for platform in manifest: not found)"#,
                ImagePlatformMismatch,
            ),
            (
                "Error response from daemon: no matching manifest for windows/amd64 10.0.17763 in the manifest list entries",
                ImagePlatformMismatch,
            ),
            (
                // istio/istio (wild 2858): a scraper's connection kept the draining sidecar alive.
                "2023-12-10T13:59:07.924816Z\tinfo\tThere are still 1 active connections",
                GracePeriodPending,
            ),
            (
                "2023-12-10T13:59:07.027187Z\twarn\tEnvoy proxy is NOT ready: server is not live, current state is: DRAINING",
                GracePeriodPending,
            ),
            (
                // CentaurusInfra/arktos#619 (wild 2879): a kubelet certificate copied from another node.
                r#"E0825 18:50:05.483424   24491 controller.go:116] failed to ensure node lease exists, will retry in 7s, error: leases.coordination.k8s.io "arktos-worker-1" is forbidden: User "system:node:lab-arktos-vm-1" cannot get resource "leases" in API group "coordination.k8s.io" in the namespace "kube-node-lease": can only access node lease with the same name as the requesting node"#,
                NodeNotReady,
            ),
            (
                // kubernetes/kubernetes#120733 (wild 2882).
                r#"E0918 12:16:32.162481 2865761 memory_manager.go:249] "Allocate error" err="[memorymanager] failed to find NUMA nodes to extend the current topology hint""#,
                NodeAdmissionRejected,
            ),
            (
                "kube-system   kube-dns-b54d5f547-22dks   0/3     Topology Affinity Error   0",
                NodeAdmissionRejected,
            ),
            (
                "3m20s       Normal    DisruptionTerminating            node/i-076a7c45e5f8e5f11          Disrupting Node: Underutilized",
                EvictedApi,
            ),
            (
                "I0715 10:43:28.049240   16315 kubelet.go:1835] skipping pod synchronization - [container runtime is down]",
                NodeNotReady,
            ),
            (
                "    Message: failed to create CRI service: failed to create cni conf monitor for default: failed to create fsnotify watcher: too many open files",
                NodeNotReady,
            ),
            (
                "memory.available_in_bytes -37414240256 (-35Gi)",
                NodePressure,
            ),
            (
                // lijiaocn's notes (wild 2886): an XFS I/O error under the kubelet's certificate.
                "Apr 14 23:53:09 k8s-node-xxx kubelet[27036]: F0414 23:53:09.157669   27036 server.go:141] read /var/lib/kubelet/pki/kubelet.crt: input/output error",
                NodeNotReady,
            ),
            (
                "Apr 14 23:53:09 k8s-node-xxx systemd[1]: kubelet.service: main process exited, code=exited, status=255/n/a",
                NodeNotReady,
            ),
            (
                // aws-samples/eks-workshop-v2 (wild 2910).
                r#"Warning: existing pods in namespace "pss" violate the new PodSecurity enforce level "restricted:latest""#,
                PodCreationRejected,
            ),
            (
                // pgillet/spark-article (wild 2930): a routine Spark driver preempted by a rush job.
                "42s         Warning   Evict              pod/pyspark-pi-driver-routine-bf20cae50b6a8253           Pod is evicted, because of preempt",
                Preempted,
            ),
            (
                // kodekloudhub's CKA course (wild 2965): clientCAFile pointing at a missing file.
                r#""failed to construct kubelet dependencies: unable to load client CA file /etc/kubernetes/pki/WRONG-CA-FILE.crt: open /etc/kubernetes/pki/WRONG-CA-FILE.crt: no such file or directory""#,
                NodeNotReady,
            ),
            (
                // GoogleCloudPlatform/kubernetes-engine-samples (wild 2947).
                "  Normal   PodFailoverAfterNodeUnreachable  24s                  ha-controller  Triggering failover for pod postgresql-0",
                NodeUnreachable,
            ),
            (
                // docker/for-win#14997 (wild 2949): Docker Desktop 4.54's cached cri-dockerd.
                r#"{"component":"cri-dockerd","level":"info","msg":"time=\"2025-12-10T20:37:21Z\" level=fatal msg=\"failed to get docker version from dockerd: Error response from daemon: client version 1.43 is too old. Minimum supported API version is 1.44, please upgrade your client to a newer version\"","time":"2025-12-10T20:37:21.494708912Z"}"#,
                NodeNotReady,
            ),
            (
                // The same cri-dockerd line as its own log writes it: the generic logrus fatal
                // entry comes last, so the wording it quotes decides.
                r#"time="2025-12-10T20:37:21Z" level=fatal msg="failed to get docker version from dockerd: Error response from daemon: client version 1.43 is too old. Minimum supported API version is 1.44, please upgrade your client to a newer version""#,
                NodeNotReady,
            ),
            (r#"pod "mysql-1" deleted"#, DeletedByClient),
            (
                r#"pod "nginx-7c5ddbdf54-2xk8v" force deleted from default namespace"#,
                DeletedByClient,
            ),
            (
                // canonical/microk8s#4704: UnlimitedSwap was removed in 1.30.
                r#"(error: invalid configuration: memorySwap.swapBehavior "UnlimitedSwap" must be one of: "", "LimitedSwap" or "NoSwap", path: &TypeMeta{Kind:,APIVersion:,})"#,
                NodeNotReady,
            ),
            (
                // kubernetes-sigs/dra-driver-nvidia-gpu#380.
                "E0529 23:56:00.437210       1 workqueue.go:99] Failed to reconcile work item: error unpreparing devices for claim 'nvidia-dra-driver-gpu/x:9882dcaa-06d4-4dfb-9bec-13bd99f75475': unprepare devices failed: error creating compute domain daemon settings: compute domain not found: 0846944b",
                KubeletCleanupPending,
            ),
            (
                "standard_init_linux.go:228: exec user process caused: argument list too long",
                ContainerStartFailed,
            ),
            (
                // IBM/ibm-block-csi-driver's troubleshooting page.
                r#"MountVolume.SetUp failed for volume "pvc-1" : rpc error: code = Internal desc = 'fsck' found errors on device /dev/dm-26 but could not correct them: fsck from util-linux 2.23.2"#,
                VolumeMountFailed,
            ),
            (
                // koordinator-sh/koordinator.sh's pod-migration-job manual.
                r#"  Normal  EvictComplete         8m     koord-descheduler  Pod "default/pod-demo-5f9b977566-c7lvk" has been evicted"#,
                EvictedApi,
            ),
            (
                "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/bitnami/kubectl:1.31\": failed to resolve image: docker.io/bitnami/kubectl:1.31: not found",
                ImageNotFound,
            ),
            (
                // kubernetes-sigs/kueue's preemption concept page.
                "    message: 'Preempted to accommodate a workload (UID: 5c023c28-8533-4927-b266-56bca5e310c1,",
                Preempted,
            ),
            (
                // kubewharf/katalyst-core's colocation tutorial.
                "default     2m40s       Normal   EvictCreated     pod/reclaimed-large-pod-2   Successfully create eviction; reason: met threshold in scope: memory from plugin: memory-pressure-eviction-plugin",
                EvictedNodePressure,
            ),
            (
                "  Warning  FilteringFailed   16s (x2 over 16s)  hami-scheduler  1 nodes CardInsufficientMemory(hami-lab-rtx6000)",
                InsufficientResources,
            ),
            (
                "69s         Warning   Evicted                   pod/offline-demo-785cff7f58-gwqwc    Evict offline pod due to cpu resource pressure",
                EvictedNodePressure,
            ),
            (
                "pq: operator does not exist: bigint = boolean",
                AppExitError,
            ),
            (
                // xuxinkun's notes: endpoints gone NotReady with their node.
                "I0919 16:05:35.387629   20248 controller_utils.go:320] Recording status change NodeNotReady event message for node 11.2.3.10",
                NodeNotReady,
            ),
            // Both quoted as a JSON string quotes them.
            (r#""pod \"mysql-1\" deleted""#, DeletedByClient),
            (
                r#""(error: invalid configuration: memorySwap.swapBehavior \"UnlimitedSwap\" must be one of""#,
                NodeNotReady,
            ),
            (
                // NetApp/trident#909: one of two portals down after a hardware failure.
                r#"time="2024-07-01T08:56:49Z" level=error msg="Login to iSCSI target failed." err="process killed after timeout" logLayer=csi_frontend portalIP=10.0.147.252"#,
                VolumeMountFailed,
            ),
            (
                // gardener/documentation's debug-a-pod guide: `$MYFILE` unset.
                "/bin/sh: 1: cannot open : No such file",
                AppExitError,
            ),
            (
                r#"time="2022-06-13T15:43:49Z" level=error msg="Fatal run error" error="datastore-sql: dial tcp: lookup spire-postgres-pooler.spire.svc.cluster.local: Try again""#,
                DependencyUnreachable,
            ),
            (
                r#"FATA[0000] pulling image: rpc error: code = Unknown desc = error pinging docker registry s01vl9973404:5050: Get "https://s01vl9973404:5050/v2/": x509: certificate signed by unknown authority"#,
                ImageRegistryTls,
            ),
            (
                r#"main.go:107] "Failed to create registration probe file" err="open /var/lib/kubelet/plugins/csi-secrets-store/registration: no such file or directory""#,
                AppExitError,
            ),
            (
                "ERROR: Job failed: command terminated with exit code 137",
                OomKilled,
            ),
            (
                r#"{"level":"debug","ts":"2022-07-27T13:08:43.699Z","caller":"ipamd/ipamd.go:2128","msg":"Prefix target is 1, short of 1 prefixes, free 0 prefixes"}"#,
                SandboxCreationFailed,
            ),
            (
                "[Wed Jan 27 13:04:47 UTC 2021] [ERROR] [/usr/local/bin/startup.sh] /runner should be an emptyDir mount. Please fix the pod spec.",
                AppExitError,
            ),
            (
                r#"failed to initialize storage: failed to inspect service account token: jwt claim "kubernetes.io/serviceaccount/namespace" not found"#,
                AppExitError,
            ),
            ("unknown flag: --enable_queries", AppExitError),
            (
                r#"2022-11-10 15:03:54 UTC [278]: [1-1] 636d12da.116 0     FATAL:  could not access file "pgextwlist": No such file or directory"#,
                AppExitError,
            ),
            (
                r#"E0726 10:44:41.123456       1 runtime.go:79] Observed a panic: "assignment to entry in nil map" (assignment to entry in nil map)"#,
                AppExitError,
            ),
            (
                "TypeError: Cannot read property 'customresourcedefinitions' of undefined",
                AppExitError,
            ),
            ("Calico node failed to start", PodNetworkBroken),
            (
                r#"E0204 21:10:28.210733   11357 kuberuntime_sandbox.go:86] CreatePodSandbox for pod "k8s-vanilla-pod_default_system(bcafe723-794c-4dc7-abd0-0001f2be0fb7)" failed: rpc error: code = Unknown desc = failed to create containerd task: dial unix"#,
                SandboxCreationFailed,
            ),
            (
                r#"failed to authorize: failed to fetch oauth token: unexpected status from GET request to https://gcr.io/v2/token?scope=repository%3Atekton-releases: 403 Forbidden"#,
                ImagePullAuth,
            ),
            (
                "FailedCreate: Internal error occurred: failed calling webhook",
                PodCreationRejected,
            ),
            (
                r#"ERR github.com/kyverno/kyverno/cmd/kyverno/main.go:362 > sanity checks failed error="failed to check CRD clusterpolicies.kyverno.io is installed: customresourcedefinitions.apiextensions.k8s.io \"clusterpolicies.kyverno.io\" not found""#,
                AppExitError,
            ),
            ("plugin/forward: no nameservers found", AppExitError),
            (
                r#"{"level":"info","ts":"2024-11-21T22:32:52.273202361Z","msg":"Detected low-disk space condition, avoid starting the instance","logger":"instance-manager"}"#,
                AppExitError,
            ),
            ("port: tcp://10.x.y.z:6379    Not an integer", AppExitError),
            (
                r#"Error: cannot find volume "aws-iam-token" to mount into container "runner"."#,
                ConfigError,
            ),
            (
                r#"{"level":"debug","ts":"2024-01-10T20:46:28.541Z","caller":"ipamd/ipamd.go:632","msg":"IP pool is too low: available (0) < ENI target (1) * addrsPerENI (16)"}"#,
                SandboxCreationFailed,
            ),
            (
                r#"[Sat Dec 10 18:52:01 2022] audit: type=1400 audit(1670698321.515:7214): avc:  denied  { dac_override } for  pid=231579 comm="iscsiadm" capability=1"#,
                VolumeMountFailed,
            ),
            (
                r#"HTTP response body: {"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"pods \"xxx\" is forbidden: exceeded quota: airflow-dags-resource-quota, requested: limits.cpu=550m""#,
                PodCreationRejected,
            ),
            (
                r#"error="rpc error: code = Unknown desc = failed to create containerd container: mount callback failed on /var/lib/containerd/tmpmounts/containerd-mount3092921614: openat etc/passwd: path escapes from parent""#,
                ContainerStartFailed,
            ),
            (
                r#"[   39.266405] cloud-init[1581]: E0728 19:17:10.699880    1584 remote_image.go:135] PullImage "602401143452.dkr.ecr.us-west-2.amazonaws.com/eks/pause:3.5" from image service failed: rpc error: code = Unknown desc = failed"#,
                SandboxCreationFailed,
            ),
            (
                "E0318 06:01:30.381849       1 replica_controller.go:201] fail to sync replica for longhorn-system/pvc-fd6f5ab7-r-4a7b6a1b: failed to get instance manager for instance pvc-fd6f5ab7-r-4a7b6a1b: can not find the only available instance manager for instance pvc-fd6f5ab7-r-4a7b6a1b",
                VolumeMountFailed,
            ),
            (
                "ErrImagePull (rpc error: code = Unknown desc = Error response from daemon: Head https://xxx.dkr.ecr.eu-central-1.amazonaws.com/v2/package/app/manifests/555: no basic auth credentials)",
                ImagePullAuth,
            ),
            (
                r#"E0223 18:12:08.012410       1 controller.go:146] Error updating APIService "v1beta1.metrics.k8s.io" with err: failed to download v1beta1.metrics.k8s.io: failed to retrieve openAPI spec, http error: ResponseCode: 503, Body: service unavailable"#,
                ApiserviceUnavailable,
            ),
            (
                r#"removing tracking finalizer: admission webhook "validate.kyverno.svc-fail" denied the request: "#,
                FinalizerPending,
            ),
            (
                r#"pvc-test is in Terminating state (Deletion started at: 2023-07-21T18:26:29Z). Finalizers: ["kubernetes.io/pvc-protection"]"#,
                FinalizerPending,
            ),
            (
                r#"Warning  Failed  113s   kubelet  Error: container create failed: time="2022-09-14T11:35:13Z" level=error msg="runc create failed: unable to start container process: container init was OOM-killed (memory limit too low?)""#,
                OomKilled,
            ),
            (
                r#"2m37s       Warning   FailedPreStopHook      Pod          Exec lifecycle hook ([wget -qO- --post-data='' http://localhost:9001/healthcheck/fail]) for Container "envoy" in Pod "contour-5484dfb84b-2czgv_proxy(9ee76b6b-a7ae-11e9-aa10-d690536598ee)" failed - error: command 'wget -qO- --post-data='' http://localhost:9001/healthcheck/fail' exited with 126: , message: "OCI runtime exec failed: exec failed: container_linux.go:344: starting container process caused \"exec: \\\"wget\\\": executable file not found in $PATH\": unknown\r\n""#,
                LifecycleHookFailed,
            ),
            (
                "[766396.293089] XFS (sdf): Superblock has unknown read-only compatible features (0x6) enabled.",
                VolumeMountFailed,
            ),
            (
                "2024-04-04T08:59:27.259562Z ERROR linkerd_network_validator: Failed to validate networking configuration. Please ensure iptables rules are rewriting traffic as expected. timeout=10s",
                AppExitError,
            ),
            (
                "Internal Error occurred: failed calling webhook `object.sidecar-injector.istio.io`: failed to call webhook: Post `https://istiod.istio-system.svc:443/inject?timeout=10s`: context deadline exceeded",
                PodCreationRejected,
            ),
            (
                r#"kubelet[510]: E0319 16:49:49.964127     510 kubelet.go:1632] "Failed to start cAdvisor" err="inotify_init: too many open files""#,
                NodeNotReady,
            ),
            (
                r#"Error: "UnmountVolume.TearDown failed for volume \"spire-agent-socket\" (UniqueName: \"kubernetes.io/csi/80621856-bf9a-4406-be77-06cc31242e87spire-agent-socket\") pod \"80621856-bf9a-4406-be77-06cc31242e87\" (UID: \"80621856-bf9a-4406-be77-06cc31242e87\") : kubernetes.io/csi: Unmounter.TearDownAt failed to get CSI client: driver name csi.spiffe.io not found in the list of registered CSI drivers""#,
                VolumeUnmountStuck,
            ),
            (
                "Mounting arguments: -t ext4 -o defaults /dev/longhorn/pvc-d061512e-870a-4ece-bd45-2f04672d5256 /var/lib/kubelet/pods/cf0a0b5b-106e-4793-a74a-28bfae21be1a/volumes/kubernetes.io~csi/pvc-d061512e-870a-4ece-bd45-2f04672d5256/mount",
                VolumeMountFailed,
            ),
            (
                "failed to authorize: failed to fetch oauth token: unexpected status: 403 Forbidden\" image=\"602401143452.dkr.ecr.us-west-2.amazonaws.com/amazon-k8s-cni-init:v1.11.4\"",
                ImagePullAuth,
            ),
            (
                "level=error msg=\"cancel pulling image private_registery.mydomain/csg/idrac_to_kafka:20250429T0012 because of no progress in 1m0s\"",
                ImagePullTimeout,
            ),
            (
                r#"E0903 10:30:03.291420    1088 pod_workers.go:1298] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"app\" with ErrImagePull: \"pull QPS exceeded\"""#,
                ImagePullQps,
            ),
            (
                r#"csi-attacher-disk	E0510 10:18:09.499513       1 csi_handler.go:701] Failed to remove finalizer from PV "pvc-b1c64ae1-6310-4a6c-aa44-12c80c9981a0": PersistentVolume "pvc-b1c64ae1-6310-4a6c-aa44-12c80c9981a0" is invalid: metadata.finalizers: Forbidden:"#,
                FinalizerPending,
            ),
            (
                r#"E1212 02:43:37.229159    3012 run.go:74] "command failed" err="failed to run Kubelet: validate service connection: CRI v1 runtime API is not implemented for endpoint \"unix:///run/cri-dockerd.sock\": rpc error: code = Unimplemented desc = unknown service runtime.v1.RuntimeService""#,
                NodeNotReady,
            ),
            (
                r#"E0904 10:03:50.074062    1653 run.go:72] "command failed" err="failed to parse kubelet flag: unknown flag: --azure-container-registry-config""#,
                NodeNotReady,
            ),
            (
                "Failed to run kubelet\" err=\"failed to run Kubelet: running with swap on is not supported, please disable swap!",
                NodeNotReady,
            ),
            (
                "kubelet.go:2855] \"Container runtime network not ready\" networkReady=\"NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized\"",
                NodeNotReady,
            ),
            (
                "Ready False KubeletNotReady container runtime status check may not have completed yet",
                NodeNotReady,
            ),
            (
                "level=error msg=\"Node password validation failed for 'ip-172-31-16-236', using passwd file '/var/lib/rancher/k3s/server/cred/node-passwd'\"",
                NodeNotReady,
            ),
            (
                "Feb 02 03:47:49 localhost systemd[1]: nodeadm-config.service: Main process exited, code=exited, status=203/EXEC",
                NodeNotReady,
            ),
            (
                "     Active: activating (auto-restart) (Result: exit-code) since Wed 2023-08-02 21:26:31 UTC; 157ms ago",
                NodeNotReady,
            ),
            (
                r#"audit: type=1400 audit(1718000000.000:123): apparmor="DENIED" operation="signal" class="signal" profile="cri-containerd.apparmor.d" pid=3341 comm="runc" requested_mask="receive" denied_mask="receive" signal=kill peer="runc""#,
                ContainerStopTimeout,
            ),
            (
                "Error deleting network when building cni runtime conf: could not retrieve port mappings: key is not found",
                ContainerStopTimeout,
            ),
            (
                "failed to destroy network for sandbox \"4b1f\": plugin type=\"calico\" failed (delete): error getting ClusterInformation: connection is unauthorized: Unauthorized",
                ContainerStopTimeout,
            ),
            (
                "failed to create containerd task: OCI runtime create failed: container_linux.go:370: starting container process caused: process_linux.go:326: applying cgroup configuration for process caused: failed to write 1 to memory.kmem.limit_in_bytes",
                ContainerStartFailed,
            ),
            (
                "kubernetes.io/csi: failed to open volume data file [/var/lib/kubelet/pods/18e5c05b/volumes/kubernetes.io~csi/pvc-59cf/vol_data.json]",
                VolumeUnmountStuck,
            ),
            (
                "Output: mount.nfs4: Connection timed out",
                VolumeMountFailed,
            ),
            (
                "failed to unmap device from map path. mapPath is empty",
                VolumeUnmountStuck,
            ),
            (
                "configuring worker node(s) custom-c9568e401fa4: Node condition MemoryPressure is Unknown. Node condition Ready is Unknown., waiting for probes: calico, kubelet",
                NodeNotReady,
            ),
            (
                r#"E0902 16:27:40.008434       1 controller.go:1512] delete "pvc-c6271b5f": volume deletion failed: persistentvolume pvc-c6271b5f is still attached to node debian-k8s"#,
                VolumeUnmountStuck,
            ),
            (
                "waiting for a volume to be created, either by external provisioner \"ebs.csi.aws.com\" or manually created by system administrator",
                PvcUnbound,
            ),
            (
                "error: This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.",
                DisruptionBudgetBlocking,
            ),
            (
                "POST https://35.192.225.48/api/v1/namespaces/doctor/pods/web-7d8f767544-pk4ch/eviction 429 Too Many Requests in 43 milliseconds",
                DisruptionBudgetBlocking,
            ),
            ("    Allowed disruptions:  0", DisruptionBudgetBlocking),
            (
                "ERRO[3604] Failed to drain node k8s-agent2-13795059-1, got error Drain did not complete within 1h0m0s",
                DisruptionBudgetBlocking,
            ),
            (
                "type: 'Normal' reason: 'EvictedByVPA' Pod was evicted by VPA Updater to apply resource recommendation.",
                EvictedApi,
            ),
            (
                "incompatible with nodepool \"app\", daemonset overhead={\"cpu\":\"605m\"}, incompatible requirements, label \"eks.amazonaws.com/nodegroup\" does not have known values",
                NodeSelectorMismatch,
            ),
            (
                "resource controller: Found no pending pod claims\" key=\"schedulingCtx:default/dra-sample\"",
                ResourceClaimUnallocatable,
            ),
            (
                "v1beta1.metrics.k8s.io   kube-system/metrics-server   False (FailedDiscoveryCheck)   5d",
                ApiserviceUnavailable,
            ),
            (
                "Failed to start nvml with error:  could not load NVML library",
                AppExitError,
            ),
            (
                "failed to fetch VPC ID from instance metadata: EC2MetadataError: failed to make EC2Metadata request",
                DependencyUnreachable,
            ),
            (
                "Failed to pull image: Your authorization token has expired. Reauthenticate and try again.",
                ImagePullAuth,
            ),
            (
                r#"failed to resolve reference "k8s.gcr.io/coredns:v1.8.6": k8s.gcr.io/coredns:v1.8.6: not found"#,
                ImageNotFound,
            ),
            (
                r#"level=error msg="PullImage "registry.example.com/app:9" failed" error="rpc error: code = NotFound desc = failed to pull and unpack image"#,
                ImageNotFound,
            ),
            (
                r#"taint_eviction.go:111] "Deleting pod" controller="taint-eviction-controller" pod="shop/web-0""#,
                EvictedTaint,
            ),
            (
                "Error response from daemon: manifest for nginx:1.99 not found: manifest unknown: manifest unknown",
                ImageNotFound,
            ),
            (
                "E1130 03:38:02.147723    5584 remote_runtime.go:343] \"verify ContainerStatus failed\" err=\"status.CreatedAt is not set\"",
                RuntimeStateInconsistent,
            ),
            ("runc init process D disk sleep", ContainerStopTimeout),
            (
                "eviction_manager.go:566] eviction manager: pod kindnet-kbjg6_kube-system(bede) is evicted successfully",
                EvictedNodePressure,
            ),
            (
                "kuberuntime_manager.go:500] \"Sandbox for pod has no IP address. Need to start a new one\" pod=\"kube-system/test\"",
                NodeRestarted,
            ),
            (
                "The Pod is invalid: metadata: Invalid value: \"Burstable\": Pod QoS is immutable",
                FinalizerPending,
            ),
            (
                "I0530 12:15:04.660508       1 updater.go:215] evicting pod hamster-67b6b96f6c-2gq4m",
                EvictedApi,
            ),
            ("ERROR: [1] bootstrap checks failed", AppExitError),
            (
                "└-·-⚠ hybridize(0)               hm-prssb-2120165667  pod deleted",
                EvictedApi,
            ),
            (
                "This step is in Error state with this message: pod deleted during operation",
                EvictedApi,
            ),
            (
                "I0211 15:05:03.181180       1 evictions.go:117] Evicted pod: \"db-1\" in namespace \"dev\" (LowNodeUtilization)",
                EvictedApi,
            ),
            (
                "rbd4   247:0    0    3G  0 disk /var/lib/kubelet/pods/e792857c-0feb-11e9-a699-5254009aa08c/volumes/kubernetes.io~rbd/pvc-abfc",
                VolumeUnmountStuck,
            ),
            (
                "ERROR: https://192.168.1.52:6443/ping is not accessible (The requested URL returned error: 403)",
                DependencyUnreachable,
            ),
            (
                "Message: Drain not completed yet: * Pod <pod>: deletionTimestamp set, but still not removed from the Node",
                KubeletCleanupPending,
            ),
            (
                "I1014 10:30:08.095150 8836 image_gc_manager.go:323] \"Disk usage on image filesystem is over the high threshold, trying to free bytes down to the low threshold\" usage=85",
                NodePressure,
            ),
            (
                "E0101 kubelet.go:2412] \"Error getting node\" err=\"node \\\"worker-1\\\" not found\"",
                NodeNotReady,
            ),
            (
                "LAST HEALTH MESSAGE   Get \"http://127.0.0.1:10248/healthz\": dial tcp 127.0.0.1:10248: connect: connection refused",
                NodeNotReady,
            ),
            (
                "[Waiting]: Error running Containerd(kubelet), going to restart forever: failed to create task: \"kubelet\": failed to start shim: mkdir /var: file exists: unknown",
                NodeNotReady,
            ),
            (
                "ERROR controller.provisioner getting node ip-10-1-56-237.ec2.internal, Node \"ip-10-1-56-237.ec2.internal\" not found",
                NodeDeleted,
            ),
            (
                "Failed to allocate device vector A (error code CUDA driver version is insufficient for CUDA runtime version)!",
                AppExitError,
            ),
            (
                "E0101 kubelet.go:1] \"Failed to start ContainerManager\" err=\"[invalid kernel flag: vm/overcommit_memory, expected value: 1, actual value: 0]\"",
                NodeNotReady,
            ),
            (
                "\"error\":\"ValidationError: 'arn:aws:elasticloadbalancing:us-east-2:1:targetgroup/x/4e' is not a valid target group ARN\"",
                FinalizerPending,
            ),
            (
                "[WARNING SystemVerification]: cgroups v1 support is deprecated. To explicitly enable cgroups v1 support for kubelet v1.35 or newer, you must set the kubelet configuration option 'FailCgroupV1' to 'false'.",
                NodeNotReady,
            ),
            (
                "manager {\"level\":\"error\",\"caller\":\"jobframework/reconciler.go:388\",\"msg\":\"Unsuspending job\",\"controller\":\"v1_pod\",\"namespace\":\"dat\"",
                SchedulingGated,
            ),
            (
                "E kubelet.go:1611 \"Image garbage collection failed multiple times in a row\" err=\"Failed to garbage collect required amount of images.",
                NodePressure,
            ),
            ("    --container-runtime docker \\", NodeNotReady),
            (
                "[ERROR CRI]: container runtime is not running: output: time=\"2022-05-24\" level=fatal",
                NodeNotReady,
            ),
            (
                "Error response from daemon: Cannot kill container cde46198ade6: [2] Container does not exist: container destroyed",
                RuntimeStateInconsistent,
            ),
            (
                "failed to unpack image on snapshotter overlayfs: failed to prepare extraction snapshot \"extract-1\": failed to stat parent: stat /var/lib/containerd/io.containerd.snapshotter.v1.overlayfs/snapshots/112/fs: no such file or directory",
                ImageStoreCorrupt,
            ),
            (
                "Error: GetDeviceMountRefs check failed for volume \"pvc-1\" on node \"k8s02\"",
                VolumeUnmountStuck,
            ),
            (
                "E0104 memcache.go:121] couldn't get resource list for spdx.softwarecomposition.kubescape.io/v1beta1: the server is currently unable to handle the request",
                ApiserviceUnavailable,
            ),
            (
                "get mac metadata: operation error ec2imds: GetMetadata, canceled, context deadline exceeded",
                DependencyUnreachable,
            ),
            ("    Could not resolve Linux kernel version", AppExitError),
            (
                "level=warning msg=\"Error getting v2 registry: Get https://k8s.gcr.io/v2/: dial tcp: lookup k8s.gcr.io on 192.168.49.1:53: i/o timeout\"",
                ImageRegistryUnreachable,
            ),
            (
                "E0415 17:54:20.388462   20666 plugin.go:233] Failed getting credential from external registry credential provider: error execing credential provider plugin ecr-credential-provider for image 123.dkr.ecr.eu-west-1.amazonaws.com/app: exit status 1",
                ImagePullAuth,
            ),
            (
                "Error: container create failed: writing file `devices.allow`: Operation not permitted",
                ContainerStartFailed,
            ),
            (
                "FATA: 2021/03/04 10:00:00.000000 Network 10.32.0.0/12 overlaps with existing route 10.0.0.0/8 on host",
                AppExitError,
            ),
            (
                "F0101 main.go:1] Failed to get pod CIDR details from Node.spec: node.Spec.PodCIDR not set for node: master-etcd3",
                AppExitError,
            ),
            (
                "could not create volume rpool/k3s/pvc-9c3 cmd [create -o quota=4294967296 rpool/k3s/pvc-9c3] error: zfs: version `GLIBC_2.28' not found",
                PvcUnbound,
            ),
            (
                "NodeUnpublishVolume: error getting block device for volume: 268e7aa8-754e, err: lstat devtmpfs: no such file or directory",
                VolumeUnmountStuck,
            ),
            (
                "*** FATAL CONFIG FILE ERROR (Redis 6.2.5) ***",
                AppExitError,
            ),
            (
                "Error response from daemon: linux mounts: path / is mounted on / but it is not a shared or slave mount",
                ContainerStartFailed,
            ),
            (
                "iptables-save v1.8.7 (legacy): Cannot initialize: iptables who? (do you need to insmod?)",
                AppExitError,
            ),
            (
                "fit failure on node (minikube): Insufficient memory",
                InsufficientResources,
            ),
            ("\"Command exited with return code -9\"", OomKilled),
            (
                "SYS-PROBE | CRITICAL | (cmd/system-probe/main_common.go:94 in runAgent) | failed to create system probe: could not enable kprobe",
                AppExitError,
            ),
            (
                "Your kernel headers for kernel 4.4.35+ cannot be found at",
                AppExitError,
            ),
            (
                "level=error msg=\"error creating promtail\" error=\"failed to make file target manager: too many open files\"",
                AppExitError,
            ),
            (
                "root     1334193  0.0  0.0 774944 54492 ?        Sl   May08   0:21 weed -logtostderr=true mount -dirAutoCreate=true -umask=000 -dir=/var/lib/k0s/kubelet/plugins/kubernetes.io/csi/seaweedfs-csi-driver/a2817/globalmount",
                VolumeUnmountStuck,
            ),
            (
                "dial tcp: lookup registry-1.docker.io: Try again",
                ImageRegistryUnreachable,
            ),
            (
                "Get \"https://ghcr.io/v2/\": dial tcp: lookup ghcr.io on 127.0.0.53:53: server misbehaving",
                ImageRegistryUnreachable,
            ),
            (
                "nobody   1538149  0.7  0.0      0     0 ?        Zsl  Jan22 141:02  \\_ [node_exporter] <defunct>",
                ContainerStopTimeout,
            ),
            (
                "DEBUG\tcontroller.eviction\tDid not to evict pod istio-system/istiod-68dccb79b-ptq4z due to PDB violation.",
                DisruptionBudgetBlocking,
            ),
            (
                "consul        consul-connect-injector                 N/A             0                 0                     13h",
                DisruptionBudgetBlocking,
            ),
            (
                "Node pool failed to be drained with error: 'Drain did not complete pods [web-1] within 10m0s'",
                DisruptionBudgetBlocking,
            ),
            (
                "check failed, can't drain node, PDB \\\"istio-system/istiod\\\" is blocking evictions",
                DisruptionBudgetBlocking,
            ),
            (
                "\"Eviction manager: must evict pod(s) to reclaim\" resourceName=\"ephemeral-storage\"",
                EvictedNodePressure,
            ),
            ("Error: unknown flag: --log-file", NodeNotReady),
            // Batch 13 (tests/fixtures/wild 715-884), each a real paste.
            (
                r#"level=warning msg="Non-transient error: admission webhook \"warden-validating.common-webhooks.networking.gke.io\" denied the request: GKE Warden rejected the request because it violates one or more constraints.""#,
                PodCreationRejected,
            ),
            (
                r#"Pods "fleet-controller-6dd4d48bb-59sfb" is forbidden: violates PodSecurity "restricted:latest": unrestricted capabilities"#,
                PodCreationRejected,
            ),
            (
                r#"Error from server (Forbidden): pods "mycluster-x4rx9-master-0-debug" is forbidden: unable to validate against any security context constraint: [provider "anyuid": Forbidden"#,
                PodCreationRejected,
            ),
            (
                r#"      message: secret "oci-store" not found"#,
                SecretMissing,
            ),
            (
                r#"Error: couldn't find key password in Secret shop/db"#,
                SecretMissing,
            ),
            (
                r#"Error: configmap "app-config" not found"#,
                ConfigmapMissing,
            ),
            (
                r#"Apr 29 15:25:01 kubelet[2384]: "PreStop hook not completed in grace period" pod="prod/web-68c6fc9b7d-26fwh" gracePeriod=300"#,
                LifecycleHookFailed,
            ),
            (
                "keda   85s   Normal   Evicted   pod/keda-operator-688bc9b887-7t4gd   Evicted pod: node worker-qa-czn28/ip-10-115-195-50.us-east-2.compute.internal drifted",
                EvictedApi,
            ),
            (
                "default  21m  Warning   Drain   node/akswin1000002   upgrader   Eviction blocked by Too many Requests (usually a pdb): [mloskot-myapp1-97fb5fd59-mngxr]",
                DisruptionBudgetBlocking,
            ),
            (
                "azure-workload-identity-system/azure-wi-webhook-controller-manager-749b9d5cc8-2chl9 blocked by pdb azure-wi-webhook-controller-manager with unready pods [].",
                DisruptionBudgetBlocking,
            ),
            (
                "Fri May 22 11:22:16 2020: Unable to load the driver. Exiting.",
                AppExitError,
            ),
            ("Unable to find a prebuilt falco module", AppExitError),
            (
                "fatal error: concurrent map iteration and map write",
                AppExitError,
            ),
            (
                r#"E0227 14:45:22.124925  570882 panic.go:261] "Observed a panic" panic="runtime error: invalid memory address or nil pointer dereference""#,
                AppExitError,
            ),
            (
                r#""level": "fatal", "msg": "Version check failed", "error": "pre-release kubernetes version "1.16.15-gke.4300" is not compatible, need at least "1.17.0""#,
                AppExitError,
            ),
            (
                r#"    Message:               Resource "nvidia.com/gpu" was requested but not registered"#,
                DeviceAllocationFailed,
            ),
            (
                r#"openat2 /sys/fs/cgroup/memory/system/apid/memory.kmem.limit_in_bytes: no such file or directory, continuing to push stats"#,
                NodeNotReady,
            ),
            (
                "uzi-hw-8e1fef71-ccb67bb74-zzb7q   phase=Failed reason=Evicted   6h41m",
                EvictedNodePressure,
            ),
            (
                "[14:14:36.964+02:00] - agent-m5g2b Containers jnlp,maven were terminated. Pod was evicted by the Kubernetes Eviction API.",
                EvictedApi,
            ),
            (
                "[2024/10/11 07:19:28] [engine] caught signal (SIGSEGV)",
                KilledBySignal,
            ),
            ("<jemalloc>: Unsupported system page size", AppExitError),
            (
                "level=error msg=\"Failed to get final advertise address: No private IP address found, and explicit IP not provided\"",
                AppExitError,
            ),
            (
                r#"panic: failed to convert the environment variable "WEBHOOK_PORT" : strconv.Atoi: parsing "tcp://10.96.58.164:9090": invalid syntax"#,
                AppExitError,
            ),
            (
                "/hostvarrun/docker.sock exists, but not found /hostvarrun/dockershim.sock",
                AppExitError,
            ),
            (
                r#"* error decoding 'exporters': unknown type: "debug" for id: "debug""#,
                AppExitError,
            ),
            (
                "error decoding 'exporters': the logging exporter has been deprecated, use the debug exporter instead",
                AppExitError,
            ),
            (
                r#"cannot get pod from kubelet, err: call to /pods endpoint failed: Get "https://10.0.1.5:10250/pods": remote error: tls: internal error"#,
                DependencyUnreachable,
            ),
            (
                "ready.go:268: [debug] PersistentVolumeClaim is not bound: prometheus/prometheus-grafana",
                PvcUnbound,
            ),
            ("FATA[0000] failed to find memory cgroup", NodeNotReady),
            (
                r#"msg="Waiting to retrieve kube-proxy configuration; server is not ready: CA cert validation failed: Get \"https://127.0.0.1:9345/cacerts\": x509: certificate has expired or is not yet valid: current time 2022-09-05T07:59:00Z is before 2022-09-05T08:16:15Z""#,
                NodeNotReady,
            ),
            (
                "spec.containers[0].hostPort: Invalid value: 4317: Host port 4317 is not allowed to be used. Allowed ports: [8125-8126]",
                PodCreationRejected,
            ),
            (
                r#""error": "unable to create Pod: Pod \"cluster-1\" is invalid: spec.initContainers[1].startupProbe: Forbidden""#,
                PodCreationRejected,
            ),
            (
                "provider: error: Cannot start controller manager: failed to wait for caches to sync",
                AppExitError,
            ),
            (
                r#"2018/09/06 13:02:45 [FATAL] plugin/loop: Seen "HINFO IN 2050421060481615995.5620656063561519376." more than twice, loop detected"#,
                AppExitError,
            ),
            (
                r#"[FATAL] plugin/loop: Loop (127.0.0.1:55953 -> :53) detected for zone ".", see https://coredns.io/plugins/loop#troubleshooting"#,
                AppExitError,
            ),
            (
                r#"2024-12-11T18:40:28Z ERROR setup problem running manager {"error": "ConsolePlugin.console.openshift.io \"odf-console\" is invalid"}"#,
                AppExitError,
            ),
            (
                "[-]crd-inject failed: reason withheld",
                ReadinessProbeFailing,
            ),
            (
                "on the number of inotify instances has been reached, or the per-process",
                AppExitError,
            ),
            (
                "[11859608.510084] nfs: server 10.36.3.5 not responding, still trying",
                VolumeUnmountStuck,
            ),
            (
                r#"Failed to create the pod: Pod "mis-v7mzn-runner-bn6zd" is invalid: spec.initContainers[1].restartPolicy: Unsupported value: "OnFailure""#,
                PodCreationRejected,
            ),
            (
                r#"Warning   ProvisioningFailed   persistentvolume-controller   Failed to provision volume with StorageClass "fast": googleapi: Error 403: Quota 'SSD_TOTAL_GB' exceeded."#,
                PvcUnbound,
            ),
            (
                "queue 'BenchmarkDotNet0' in vhost '/' will become unavailable if node rabbit@tls-server-0.tls-nodes.stream-clients-test stops",
                LifecycleHookFailed,
            ),
            (
                r#"Error: "error cleaning subPath mounts for volume \"nfs-content\": error reading /var/lib/kubelet/pods/redacted/volume-subpaths/nfs-content/redacted: lstat /var/lib/kubelet/pods/redacted/volume-subpaths/nfs-content/redacted/2: stale NFS file handle""#,
                VolumeUnmountStuck,
            ),
            (
                "** server can't find registry-1.docker.io: SERVFAIL",
                ImageRegistryUnreachable,
            ),
            (
                "Pod sandbox changed, it will be killed and re-created.",
                NodeRestarted,
            ),
        ];
        for (text, want) in examples {
            assert_eq!(cause(text), Some(*want), "{text}");
        }
        assert_eq!(cause("everything is fine"), None);
        assert_eq!(cause("    Allowed disruptions:  1"), None);
        // Every entry is exercised by an example above, or by the entries' own wording.
        let total: usize = components().iter().map(|(_, n)| n).sum();
        assert_eq!(total, KNOWN.len());
    }
}
