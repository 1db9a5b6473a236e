//! The root-cause catalogue. Slugs are a contract with users' scripts (see CAUSES.md in the
//! shared folder): never rename one. Codes (`KW…`) are kubewhy's own and equally stable.

use serde::{Serialize, Serializer};
use std::fmt;

/// The table of CAUSES.md a cause belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Family {
    NotScheduled,
    NotStarting,
    Crashing,
    NotGoingAway,
    NamespaceTerminating,
    Gone,
    Node,
}

impl Family {
    pub fn title(self) -> &'static str {
        match self {
            Family::NotScheduled => "Not scheduled (Pending)",
            Family::NotStarting => "Not starting (Waiting, ContainerCreating, Init)",
            Family::Crashing => "Crashing (CrashLoopBackOff, restarts, Error)",
            Family::NotGoingAway => "Not going away (Terminating)",
            Family::NamespaceTerminating => "Namespace stuck Terminating",
            Family::Gone => "Gone (the pod no longer exists, or is about to be removed)",
            Family::Node => "Node and status plumbing",
        }
    }
}

macro_rules! causes {
    ($( $variant:ident = $code:literal, $slug:literal, $family:ident, $meaning:literal; )*) => {
        /// One root cause from the catalogue.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Cause { $( $variant, )* }

        impl Cause {
            /// Every cause, in catalogue order.
            pub const ALL: &'static [Cause] = &[ $( Cause::$variant, )* ];

            /// The stable slug (the JSON contract).
            pub fn slug(self) -> &'static str { match self { $( Cause::$variant => $slug, )* } }
            /// The stable diagnosis code, e.g. `KW101`.
            pub fn code(self) -> &'static str { match self { $( Cause::$variant => $code, )* } }
            pub fn family(self) -> Family { match self { $( Cause::$variant => Family::$family, )* } }
            /// One-line meaning, as in the catalogue.
            pub fn meaning(self) -> &'static str { match self { $( Cause::$variant => $meaning, )* } }
        }
    };
}

causes! {
    InsufficientResources = "KW101", "insufficient-resources", NotScheduled, "no node has enough allocatable cpu / memory / ephemeral-storage / extended resource left for the pod's requests";
    TooManyPods = "KW102", "too-many-pods", NotScheduled, "nodes are at their pod capacity (kubelet max-pods, default 110)";
    NodeSelectorMismatch = "KW103", "node-selector-mismatch", NotScheduled, "nodeSelector / required node affinity / nodeName matches no (schedulable) node";
    UntoleratedTaint = "KW104", "untolerated-taint", NotScheduled, "the nodes that would fit carry taints the pod does not tolerate";
    HostPortConflict = "KW105", "host-port-conflict", NotScheduled, "the requested hostPort is already taken on every candidate node";
    NodeUnschedulable = "KW106", "node-unschedulable", NotScheduled, "the candidate nodes are cordoned";
    PodAffinityUnsatisfiable = "KW107", "pod-affinity-unsatisfiable", NotScheduled, "inter-pod affinity / anti-affinity or topology spread constraints cannot be met";
    PvcMissing = "KW108", "pvc-missing", NotScheduled, "a referenced PersistentVolumeClaim does not exist";
    PvcUnbound = "KW109", "pvc-unbound", NotScheduled, "a referenced claim is not bound (no matching PV, no provisioner, WaitForFirstConsumer stuck)";
    VolumeNodeAffinityConflict = "KW110", "volume-node-affinity-conflict", NotScheduled, "the bound PV's node affinity excludes every node that otherwise fits";
    SchedulerUnavailable = "KW111", "scheduler-unavailable", NotScheduled, "no scheduler is acting on the pod";
    NoReadyNodes = "KW112", "no-ready-nodes", NotScheduled, "the cluster has no Ready nodes at all";
    PodCreationRejected = "KW113", "pod-creation-rejected", NotScheduled, "the controller cannot create the pod at all (quota, LimitRange, admission denial)";

    SandboxCreationFailed = "KW201", "sandbox-creation-failed", NotStarting, "the pod sandbox cannot be created (pause image, CNI failure, OCI runtime error)";
    ResourceUnitsWrong = "KW202", "resource-units-wrong", NotStarting, "a memory/cpu quantity is absurd because of its unit";
    ConfigmapMissing = "KW203", "configmap-missing", NotStarting, "a volume or env reference names a ConfigMap (or key) that does not exist";
    SecretMissing = "KW204", "secret-missing", NotStarting, "a volume or env reference names a Secret (or key) that does not exist";
    VolumeMountFailed = "KW205", "volume-mount-failed", NotStarting, "a volume cannot be attached or mounted for another reason";
    ImageNotFound = "KW206", "image-not-found", NotStarting, "repository or tag does not exist";
    ImagePullAuth = "KW207", "image-pull-auth", NotStarting, "the registry refuses the pull: no / wrong / unmatched imagePullSecret";
    ImageRegistryTls = "KW208", "image-registry-tls", NotStarting, "TLS failure talking to the registry (self-signed / unknown CA)";
    ImageRegistryHttp = "KW209", "image-registry-http", NotStarting, "the registry speaks plain HTTP but is not configured as insecure";
    ImageRegistryUnreachable = "KW210", "image-registry-unreachable", NotStarting, "DNS failure, connection refused or timeout reaching the registry";
    ImagePullRateLimited = "KW211", "image-pull-rate-limited", NotStarting, "the registry rate-limits pulls (HTTP 429, toomanyrequests)";
    ImagePullQps = "KW212", "image-pull-qps", NotStarting, "the kubelet's own pull rate limit (registry-qps / registry-burst) was hit";
    ImagePullTimeout = "KW213", "image-pull-timeout", NotStarting, "the pull started but did not finish in time";
    ImageCorrupt = "KW214", "image-corrupt", NotStarting, "the image in the registry is incomplete or corrupt";
    ImageStoreCorrupt = "KW215", "image-store-corrupt", NotStarting, "the node's local image store is corrupt";
    ImagePlatformMismatch = "KW216", "image-platform-mismatch", NotStarting, "no image variant for the node's OS/architecture";
    ImageNameInvalid = "KW217", "image-name-invalid", NotStarting, "the image reference cannot be parsed";
    ImageNeverPull = "KW218", "image-never-pull", NotStarting, "imagePullPolicy Never and the image is not on the node";
    ConfigError = "KW219", "config-error", NotStarting, "CreateContainerConfigError for another reason";
    ContainerStartFailed = "KW220", "container-start-failed", NotStarting, "the runtime cannot start the process";

    OomKilled = "KW301", "oom-killed", Crashing, "the container exceeded its memory limit (or the node ran out) and was killed";
    LivenessProbeFailing = "KW302", "liveness-probe-failing", Crashing, "the kubelet kills the container because its liveness (or startup) probe fails";
    CommandNotFound = "KW303", "command-not-found", Crashing, "exit code 127 / the command does not exist in the image";
    AppExitError = "KW304", "app-exit-error", Crashing, "the application exits non-zero by itself";
    KilledBySignal = "KW305", "killed-by-signal", Crashing, "killed by a signal that is not explained by OOM or probes";
    ReadinessProbeFailing = "KW306", "readiness-probe-failing", Crashing, "running but never Ready because the readiness probe fails";
    DependencyUnreachable = "KW307", "dependency-unreachable", Crashing, "the application exits because something it needs (a database, a Service, a DNS name) does not answer or refuses";
    PodNetworkBroken = "KW308", "pod-network-broken", Crashing, "containers on a node cannot reach Service IPs or other pods (kube-proxy, the CNI or the node's routing is broken)";

    GracePeriodPending = "KW401", "grace-period-pending", NotGoingAway, "not stuck: still inside its grace period / preStop hook";
    FinalizerPending = "KW402", "finalizer-pending", NotGoingAway, "deletion waits on finalizers no controller is removing";
    NodeUnreachable = "KW403", "node-unreachable", NotGoingAway, "the pod's node is NotReady / Unknown, so no kubelet can confirm the pod stopped";
    NodeDeleted = "KW404", "node-deleted", NotGoingAway, "the pod's node no longer exists";
    VolumeUnmountStuck = "KW405", "volume-unmount-stuck", NotGoingAway, "the kubelet cannot unmount the pod's volumes";
    ContainerStopTimeout = "KW406", "container-stop-timeout", NotGoingAway, "the container runtime does not stop the container";
    RuntimeStateInconsistent = "KW407", "runtime-state-inconsistent", NotGoingAway, "the runtime layers disagree about the container";
    KubeletCleanupPending = "KW408", "kubelet-cleanup-pending", NotGoingAway, "the kubelet is still reclaiming the pod's resources for a reason the data does not show";

    NsResourcesRemaining = "KW501", "ns-resources-remaining", NamespaceTerminating, "objects still exist in the namespace and are themselves blocked";
    NsFinalizerPending = "KW502", "ns-finalizer-pending", NamespaceTerminating, "objects in the namespace carry finalizers whose controller is gone";
    ApiserviceUnavailable = "KW503", "apiservice-unavailable", NamespaceTerminating, "an aggregated APIService is unavailable, so the namespace controller cannot discover / delete all content";

    PodGcThreshold = "KW601", "pod-gc-threshold", Gone, "the pod garbage collector deleted terminated pods over --terminated-pod-gc-threshold";
    PodGcOrphaned = "KW602", "pod-gc-orphaned", Gone, "deleted because its node no longer exists";
    PodGcUnscheduledTerminating = "KW603", "pod-gc-unscheduled-terminating", Gone, "deleted because it was terminating and never scheduled";
    EvictedNodePressure = "KW604", "evicted-node-pressure", Gone, "the kubelet evicted it for memory / disk / pid pressure";
    EvictedTaint = "KW605", "evicted-taint", Gone, "taint-based eviction (NoExecute)";
    EvictedApi = "KW606", "evicted-api", Gone, "evicted through the Eviction API (drain, descheduler, autoscaler)";
    Preempted = "KW607", "preempted", Gone, "preempted by a higher-priority pod";
    JobTtlExpired = "KW608", "job-ttl-expired", Gone, "removed with its Job by ttlSecondsAfterFinished, or by CronJob history limits";
    OwnerDeleted = "KW609", "owner-deleted", Gone, "cascading deletion after its owner was deleted";
    NamespaceDeleted = "KW610", "namespace-deleted", Gone, "its namespace was deleted";
    DeletedByClient = "KW611", "deleted-by-client", Gone, "deleted by a user or a controller that the evidence names";
    ScaledDown = "KW612", "scaled-down", Gone, "its controller removed it because the desired replicas were lowered";
    RolloutReplaced = "KW613", "rollout-replaced", Gone, "a rollout replaced it with a pod of the new revision";

    NodeNotReady = "KW701", "node-not-ready", Node, "a node is NotReady / Unknown and pods on it are affected";
    NodePressure = "KW702", "node-pressure", Node, "a node reports memory / disk / PID pressure";
    PlegUnhealthy = "KW703", "pleg-unhealthy", Node, "the kubelet's pod lifecycle event generator is unhealthy";
    KubeletStatusThrottled = "KW704", "kubelet-status-throttled", Node, "pod status in the API lags reality because the kubelet's API QPS is exhausted";
    StaticPodStale = "KW705", "static-pod-stale", Node, "a static pod manifest changed but the mirror pod did not follow";
    NodeRestarted = "KW706", "node-restarted", Node, "the node or its container runtime restarted and killed every container on it at once (exit code 255, reason Unknown)";
}

impl Cause {
    /// Looks a cause up by slug or by code (case-insensitive for codes).
    pub fn lookup(key: &str) -> Option<Cause> {
        let key = key.trim();
        Cause::ALL
            .iter()
            .copied()
            .find(|c| c.slug() == key || c.code().eq_ignore_ascii_case(key))
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.slug())
    }
}

impl Serialize for Cause {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.slug())
    }
}

impl<'de> serde::Deserialize<'de> for Cause {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Cause::lookup(&s).ok_or_else(|| serde::de::Error::custom(format!("unknown cause {s:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn slugs_and_codes_are_unique() {
        let slugs: HashSet<_> = Cause::ALL.iter().map(|c| c.slug()).collect();
        let codes: HashSet<_> = Cause::ALL.iter().map(|c| c.code()).collect();
        assert_eq!(slugs.len(), Cause::ALL.len());
        assert_eq!(codes.len(), Cause::ALL.len());
    }

    #[test]
    fn lookup_by_slug_and_code() {
        assert_eq!(Cause::lookup("oom-killed"), Some(Cause::OomKilled));
        assert_eq!(Cause::lookup("kw301"), Some(Cause::OomKilled));
        assert_eq!(Cause::lookup("nope"), None);
    }

    /// The slug list is a contract: it must equal the shared catalogue exactly. Without the
    /// catalogue the contract cannot be checked, and that is a failure, not a skip.
    #[test]
    fn slugs_match_the_shared_catalogue() {
        let path = std::env::var("KUBEWHY_CAUSES_MD").unwrap_or_else(|_| {
            concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/CAUSES.md").to_string()
        });
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{path}: {e}. The cause slugs are checked against ../shared/CAUSES.md: clone kubewhy beside ../shared, or set KUBEWHY_CAUSES_MD to the catalogue"
            )
        });
        let mut documented = Vec::new();
        for line in text.lines() {
            if let Some(rest) = line.strip_prefix("| `")
                && let Some(end) = rest.find('`')
            {
                documented.push(rest[..end].to_string());
            }
        }
        let ours: Vec<String> = Cause::ALL.iter().map(|c| c.slug().to_string()).collect();
        assert_eq!(
            ours, documented,
            "Cause::ALL must list CAUSES.md's slugs in its order"
        );
    }
}
