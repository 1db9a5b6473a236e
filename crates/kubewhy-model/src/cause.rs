//! The root-cause catalogue. Slugs are a contract with users' scripts: never rename one. Codes
//! (`KW…`) are kubewhy's own and equally stable.
//!
//! `causes!` below is the one list. The repository's `docs/CAUSES.md` is written from it
//! ([`catalogue_markdown`]; a test fails when the file is stale, `KUBEWHY_BLESS=1` rewrites it),
//! and the specification that issues change (`../shared/CAUSES.md`, beside a checkout that has
//! it) is compared with it by [`check_specification`], which CI runs whenever that file is there.

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
    SchedulingGated = "KW114", "scheduling-gated", NotScheduled, "the pod carries spec.schedulingGates: the scheduler leaves it alone until the owner of each gate removes it";
    ResourceClaimUnallocatable = "KW115", "resource-claim-unallocatable", NotScheduled, "a dynamic resource allocation (DRA) claim of the pod cannot be satisfied";

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
    NodeAdmissionRejected = "KW221", "node-admission-rejected", NotStarting, "the kubelet refused the pod after it was placed on the node (OutOfcpu, OutOfmemory, NodeAffinity, …)";
    DeviceAllocationFailed = "KW222", "device-allocation-failed", NotStarting, "a device plugin could not hand over the device the pod was placed for (UnexpectedAdmissionError)";
    ResizeInfeasible = "KW223", "resize-infeasible", NotStarting, "an in-place resize of the pod's resources cannot be applied (PodResizePending: Infeasible or Deferred)";

    OomKilled = "KW301", "oom-killed", Crashing, "the container exceeded its memory limit (or the node ran out) and was killed";
    LivenessProbeFailing = "KW302", "liveness-probe-failing", Crashing, "the kubelet kills the container because its liveness (or startup) probe fails";
    CommandNotFound = "KW303", "command-not-found", Crashing, "exit code 127 / the command does not exist in the image";
    AppExitError = "KW304", "app-exit-error", Crashing, "the application exits non-zero by itself";
    KilledBySignal = "KW305", "killed-by-signal", Crashing, "killed by a signal that is not explained by OOM or probes";
    ReadinessProbeFailing = "KW306", "readiness-probe-failing", Crashing, "running but never Ready because the readiness probe fails";
    DependencyUnreachable = "KW307", "dependency-unreachable", Crashing, "the application exits because something it needs (a database, a Service, a DNS name) does not answer or refuses";
    PodNetworkBroken = "KW308", "pod-network-broken", Crashing, "containers on a node cannot reach Service IPs or other pods (kube-proxy, the CNI or the node's routing is broken)";
    CompletedButRestarted = "KW309", "completed-but-restarted", Crashing, "the container exits 0 and is started again because the pod's restartPolicy is Always: nothing crashed";
    LifecycleHookFailed = "KW310", "lifecycle-hook-failed", Crashing, "a postStart hook failed (the container is killed and restarted) or a preStop hook failed or hangs";
    DeadlineExceeded = "KW311", "deadline-exceeded", Crashing, "the pod's activeDeadlineSeconds ran out, or its Job's did";
    JobBackoffExceeded = "KW312", "job-backoff-exceeded", Crashing, "the Job failed: it reached backoffLimit (or backoffLimitPerIndex, or a podFailurePolicy FailJob rule matched)";

    GracePeriodPending = "KW401", "grace-period-pending", NotGoingAway, "not stuck: still inside its grace period / preStop hook";
    FinalizerPending = "KW402", "finalizer-pending", NotGoingAway, "deletion waits on finalizers no controller is removing";
    NodeUnreachable = "KW403", "node-unreachable", NotGoingAway, "the pod's node is NotReady / Unknown, so no kubelet can confirm the pod stopped";
    NodeDeleted = "KW404", "node-deleted", NotGoingAway, "the pod's node no longer exists";
    VolumeUnmountStuck = "KW405", "volume-unmount-stuck", NotGoingAway, "the kubelet cannot unmount the pod's volumes";
    ContainerStopTimeout = "KW406", "container-stop-timeout", NotGoingAway, "the container runtime does not stop the container";
    RuntimeStateInconsistent = "KW407", "runtime-state-inconsistent", NotGoingAway, "the runtime layers disagree about the container";
    KubeletCleanupPending = "KW408", "kubelet-cleanup-pending", NotGoingAway, "the kubelet is still reclaiming the pod's resources for a reason the data does not show";
    DisruptionBudgetBlocking = "KW409", "disruption-budget-blocking", NotGoingAway, "an eviction is refused because a PodDisruptionBudget allows no disruption, so the node never drains";

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
    NodeShutdown = "KW614", "node-shutdown", Gone, "the kubelet's graceful node shutdown terminated it because the node was shutting down";
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

/// The slugs a CAUSES.md-style table lists (`| `slug` | …` rows), in order.
pub fn documented_slugs(markdown: &str) -> Vec<&str> {
    markdown
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("| `")?;
            Some(&rest[..rest.find('`')?])
        })
        .collect()
}

/// Compares the causes kubewhy knows with a specification's table (`../shared/CAUSES.md`):
/// `Err` names every slug the code lacks, every slug the specification lacks, and the first
/// place where the orders part.
pub fn check_specification(spec: &str) -> Result<(), String> {
    let spec = documented_slugs(spec);
    let ours: Vec<&str> = Cause::ALL.iter().map(|c| c.slug()).collect();
    if spec == ours {
        return Ok(());
    }
    let mut problems = Vec::new();
    let missing: Vec<&str> = spec.iter().filter(|s| !ours.contains(s)).copied().collect();
    if !missing.is_empty() {
        problems.push(format!(
            "the specification lists {} slug(s) kubewhy lacks: {} (add each to `causes!` in crates/kubewhy-model/src/cause.rs, with a page in docs/causes/)",
            missing.len(),
            missing.join(", ")
        ));
    }
    let extra: Vec<&str> = ours.iter().filter(|s| !spec.contains(s)).copied().collect();
    if !extra.is_empty() {
        problems.push(format!(
            "kubewhy lists {} slug(s) the specification does not: {} (a slug is a contract: the specification must list it first)",
            extra.len(),
            extra.join(", ")
        ));
    }
    if problems.is_empty()
        && let Some(i) = (0..spec.len()).find(|&i| spec[i] != ours[i])
    {
        problems.push(format!(
            "the same slugs in another order: position {} is {} in the specification, {} in kubewhy",
            i + 1,
            spec[i],
            ours[i]
        ));
    }
    Err(problems.join("\n"))
}

/// `docs/CAUSES.md`: every cause by family, in catalogue order, with its code, meaning and page.
pub fn catalogue_markdown() -> String {
    let mut out = String::from(
        "# Root causes\n\n\
         <!-- Written from `causes!` in crates/kubewhy-model/src/cause.rs: edit there, then run\n     \
         `KUBEWHY_BLESS=1 cargo test -p kubewhy-model catalogue` to rewrite this file. -->\n\n\
         Every finding names exactly one of these causes, as the slug in the `cause` field of its JSON.\n\
         Slugs and codes are a contract: they are never renamed or reused. `kubewhy explain SLUG`\n\
         prints a cause's page.\n",
    );
    let mut family = None;
    for c in Cause::ALL {
        if family != Some(c.family()) {
            family = Some(c.family());
            out.push_str(&format!(
                "\n## {}\n| slug | code | meaning | page |\n|---|---|---|---|\n",
                c.family().title()
            ));
        }
        out.push_str(&format!(
            "| `{}` | {} | {} | [{}](causes/{}.md) |\n",
            c.slug(),
            c.code(),
            c.meaning().replace('|', "\\|"),
            c.slug(),
            c.slug()
        ));
    }
    out
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

    fn repository_file(rel: &str) -> std::path::PathBuf {
        std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("../..")
            .join(rel)
    }

    /// docs/CAUSES.md is written from `causes!`: one list, never two kept in step by hand.
    #[test]
    fn catalogue_file_is_current() {
        let path = repository_file("docs/CAUSES.md");
        let want = catalogue_markdown();
        if std::env::var_os("KUBEWHY_BLESS").is_some() {
            std::fs::write(&path, &want).unwrap();
        }
        let have = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            have == want,
            "docs/CAUSES.md is not what `causes!` writes: run `KUBEWHY_BLESS=1 cargo test -p kubewhy-model catalogue` and commit the file"
        );
        assert_eq!(
            documented_slugs(&have),
            Cause::ALL.iter().map(|c| c.slug()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn families_are_contiguous() {
        let mut seen = Vec::new();
        for c in Cause::ALL {
            if seen.last() != Some(&c.family()) {
                assert!(!seen.contains(&c.family()), "{c}: its family appears twice");
                seen.push(c.family());
            }
        }
    }

    #[test]
    fn the_specification_check_names_what_differs() {
        let ours = catalogue_markdown();
        assert_eq!(check_specification(&ours), Ok(()));
        let missing = ours.replace("| `oom-killed` |", "| oom-killed |");
        let err = check_specification(&missing).unwrap_err();
        assert!(
            err.contains("kubewhy lists 1 slug(s) the specification does not: oom-killed"),
            "{err}"
        );
        let extra = format!("{ours}| `brand-new-cause` | the spec's newest |\n");
        let err = check_specification(&extra).unwrap_err();
        assert!(
            err.contains("the specification lists 1 slug(s) kubewhy lacks: brand-new-cause"),
            "{err}"
        );
        let swapped = ours
            .replace("| `too-many-pods` |", "| `@@` |")
            .replace("| `insufficient-resources` |", "| `too-many-pods` |")
            .replace("| `@@` |", "| `insufficient-resources` |");
        let err = check_specification(&swapped).unwrap_err();
        assert!(err.contains("position 1 is too-many-pods in the specification, insufficient-resources in kubewhy"), "{err}");
    }

    /// The slug list is a contract: it must equal the specification (`../shared/CAUSES.md`, or
    /// `KUBEWHY_CAUSES_MD`) exactly. The specification lives outside the repository, so a clone
    /// alone cannot run this: `.ci/run` runs it whenever the file is there.
    #[test]
    #[ignore = "needs the specification beside the checkout (../shared/CAUSES.md): .ci/run runs it"]
    fn slugs_match_the_specification() {
        let path = std::env::var("KUBEWHY_CAUSES_MD")
            .map(std::path::PathBuf::from)
            .unwrap_or_else(|_| repository_file("../shared/CAUSES.md"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (set KUBEWHY_CAUSES_MD to the specification)",
                path.display()
            )
        });
        if let Err(e) = check_specification(&text) {
            panic!("{} and kubewhy disagree:\n{e}", path.display());
        }
    }
}
