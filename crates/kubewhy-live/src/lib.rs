//! The live source: reads the current cluster through kube-rs, like kubectl (kubeconfig,
//! `--context`, in-cluster config). Each kind kubewhy reads is listed once, paginated (limit 500,
//! following `continue`, restarting a list whose token expired with 410), all kinds concurrently.
//! The number of requests depends on the number of kinds and pages, never on what is broken.
//!
//! Pages are returned as the API server's JSON text and go through the same loader as offline
//! input (`kubewhy_source::load`), so live and offline scans share every line of parsing.
//! A kind that cannot be listed (RBAC 403, not served 404) does not fail the scan: it becomes an
//! `InputWarning` naming the permission that is missing.

pub mod credentials;
mod discovery;
pub mod store;
pub mod watch;
pub mod write;

pub use kube::Client;
use kube::Config;
use kube::config::{KubeConfigOptions, Kubeconfig};
use kubewhy_model::InputWarning;
use serde::Deserialize;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

/// Items per page.
pub const PAGE_SIZE: u32 = 500;
const ATTEMPTS: u32 = 3;

/// A kind to list: API path prefix, resource, whether it is namespaced, and older group versions
/// to try when the newest is not served (CronJob is batch/v1 only from 1.21).
pub(crate) struct Resource {
    pub(crate) prefixes: &'static [&'static str],
    pub(crate) plural: &'static str,
    /// The kind, as objects and the loader spell it.
    pub(crate) kind: &'static str,
    pub(crate) namespaced: bool,
    /// What kubewhy judges from it: what a scan that may not read it cannot see.
    pub(crate) judges: &'static str,
}

pub(crate) const RESOURCES: &[Resource] = &[
    Resource {
        prefixes: &["/api/v1"],
        plural: "nodes",
        kind: "Node",
        judges: "which node could take a Pending pod, and node health",
        namespaced: false,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "namespaces",
        kind: "Namespace",
        judges: "namespaces stuck Terminating",
        namespaced: false,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "persistentvolumes",
        kind: "PersistentVolume",
        judges: "volumes a claim could bind, and their node affinity",
        namespaced: false,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "pods",
        kind: "Pod",
        judges: "every pod",
        namespaced: true,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "events",
        kind: "Event",
        judges: "the exact pull, mount and scheduling errors (events)",
        namespaced: true,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "persistentvolumeclaims",
        kind: "PersistentVolumeClaim",
        judges: "claims a pod waits on",
        namespaced: true,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "configmaps",
        kind: "ConfigMap",
        judges: "missing ConfigMaps (never their values)",
        namespaced: true,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "secrets",
        kind: "Secret",
        judges: "missing Secrets and pull secrets (never their values)",
        namespaced: true,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "serviceaccounts",
        kind: "ServiceAccount",
        judges: "pull secrets given through service accounts",
        namespaced: true,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "resourcequotas",
        kind: "ResourceQuota",
        judges: "pods a ResourceQuota refuses",
        namespaced: true,
    },
    Resource {
        prefixes: &["/api/v1"],
        plural: "limitranges",
        kind: "LimitRange",
        judges: "pods a LimitRange refuses",
        namespaced: true,
    },
    Resource {
        prefixes: &["/apis/apps/v1"],
        plural: "replicasets",
        kind: "ReplicaSet",
        judges: "ReplicaSets that cannot create pods, and pods' Deployments",
        namespaced: true,
    },
    Resource {
        prefixes: &["/apis/apps/v1"],
        plural: "deployments",
        kind: "Deployment",
        judges: "Deployments that cannot create pods",
        namespaced: true,
    },
    Resource {
        prefixes: &["/apis/apps/v1"],
        plural: "statefulsets",
        kind: "StatefulSet",
        judges: "StatefulSets that cannot create pods",
        namespaced: true,
    },
    Resource {
        prefixes: &["/apis/apps/v1"],
        plural: "daemonsets",
        kind: "DaemonSet",
        judges: "DaemonSets that create no pods",
        namespaced: true,
    },
    Resource {
        prefixes: &["/apis/batch/v1"],
        plural: "jobs",
        kind: "Job",
        judges: "Jobs' pods and their TTL",
        namespaced: true,
    },
    Resource {
        prefixes: &["/apis/batch/v1", "/apis/batch/v1beta1"],
        plural: "cronjobs",
        kind: "CronJob",
        judges: "CronJobs' history limits",
        namespaced: true,
    },
    // Argo Workflows, when installed (404 otherwise: nothing to read): `spec.podGC`.
    Resource {
        prefixes: &["/apis/argoproj.io/v1alpha1"],
        plural: "workflows",
        kind: "Workflow",
        judges: "Argo Workflows' pod GC",
        namespaced: true,
    },
    // Dynamic resource allocation (1.32 beta, 1.34 GA; 404 where not served): the claims a
    // Pending pod waits on, their classes, and the devices each node's drivers publish.
    Resource {
        prefixes: DRA,
        plural: "resourceclaims",
        kind: "ResourceClaim",
        judges: "pods whose resource claims (DRA) cannot be allocated",
        namespaced: true,
    },
    Resource {
        prefixes: DRA,
        plural: "resourceclaimtemplates",
        kind: "ResourceClaimTemplate",
        judges: "the claims made for pods from templates (DRA)",
        namespaced: true,
    },
    Resource {
        prefixes: DRA,
        plural: "deviceclasses",
        kind: "DeviceClass",
        judges: "device classes that do not exist (DRA)",
        namespaced: false,
    },
    Resource {
        prefixes: DRA,
        plural: "resourceslices",
        kind: "ResourceSlice",
        judges: "which nodes publish devices of a driver (DRA)",
        namespaced: false,
    },
    Resource {
        prefixes: &["/apis/storage.k8s.io/v1"],
        plural: "storageclasses",
        kind: "StorageClass",
        judges: "claims without a provisioner",
        namespaced: false,
    },
    Resource {
        prefixes: &["/apis/storage.k8s.io/v1"],
        plural: "csidrivers",
        kind: "CSIDriver",
        judges: "volume drivers that are not installed",
        namespaced: false,
    },
    Resource {
        prefixes: &["/apis/coordination.k8s.io/v1"],
        plural: "leases",
        kind: "Lease",
        judges: "node heartbeats and whether the scheduler runs",
        namespaced: true,
    },
    // What evictions respect, and the pods the API server just evicted (status.disruptedPods).
    Resource {
        prefixes: &["/apis/policy/v1", "/apis/policy/v1beta1"],
        plural: "poddisruptionbudgets",
        kind: "PodDisruptionBudget",
        judges: "evictions a PodDisruptionBudget allows",
        namespaced: true,
    },
    Resource {
        prefixes: &["/apis/scheduling.k8s.io/v1"],
        plural: "priorityclasses",
        kind: "PriorityClass",
        judges: "preemption by priority",
        namespaced: false,
    },
    Resource {
        prefixes: &["/apis/apiregistration.k8s.io/v1"],
        plural: "apiservices",
        kind: "APIService",
        judges: "unavailable APIs that block namespace deletion",
        namespaced: false,
    },
    Resource {
        prefixes: &["/apis/admissionregistration.k8s.io/v1"],
        plural: "mutatingwebhookconfigurations",
        kind: "MutatingWebhookConfiguration",
        judges: "admission webhooks that refuse pods",
        namespaced: false,
    },
    Resource {
        prefixes: &["/apis/admissionregistration.k8s.io/v1"],
        plural: "validatingwebhookconfigurations",
        kind: "ValidatingWebhookConfiguration",
        judges: "admission webhooks that refuse pods",
        namespaced: false,
    },
];

/// The versions of `resource.k8s.io` tried, newest first (1.34's v1, 1.33's v1beta2, 1.32's v1beta1).
const DRA: &[&str] = &[
    "/apis/resource.k8s.io/v1",
    "/apis/resource.k8s.io/v1beta2",
    "/apis/resource.k8s.io/v1beta1",
];

/// Namespaces whose leases every scan reads: node heartbeats, the scheduler's leader lease.
pub(crate) const LEASE_NAMESPACES: &[&str] = &["kube-node-lease", "kube-system"];

/// Where and what to read.
#[derive(Debug, Clone, Default)]
pub struct LiveOptions {
    /// `--kubeconfig`; else `KUBECONFIG`, `~/.kube/config`, or the in-cluster service account.
    pub kubeconfig: Option<PathBuf>,
    pub context: Option<String>,
    /// Namespaces to read; empty with `all_namespaces` false means the context's namespace.
    pub namespaces: Vec<String>,
    pub all_namespaces: bool,
    /// Namespaces being deleted whose content is enumerated first (`kubewhy ns`, `fix ns`).
    pub focus: Vec<String>,
    /// Counters a progress display can read while the fetch runs.
    pub progress: Option<Arc<Progress>>,
}

/// How far a fetch is: lists (one kind in one scope) started and finished, pages received.
#[derive(Debug, Default)]
pub struct Progress {
    pub lists: AtomicU32,
    pub lists_done: AtomicU32,
    pub pages: AtomicU32,
}

impl LiveOptions {
    /// Every namespace of the cluster a kubeconfig and context name (`kubewhy fix`, `watch`).
    pub fn cluster_wide(kubeconfig: Option<PathBuf>, context: Option<String>) -> Self {
        LiveOptions {
            kubeconfig,
            context,
            all_namespaces: true,
            ..Default::default()
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LiveError {
    /// No usable kubeconfig or in-cluster configuration.
    #[error("no cluster configuration: {0}")]
    Config(String),
    /// The API server could not be reached or refused every request.
    #[error("cannot reach the API server at {url}: {reason}")]
    Unreachable { url: String, reason: String },
    /// The API server answered 401: it does not accept the credentials.
    #[error("the API server at {url} rejected the credentials of {who}: {why} (HTTP 401)")]
    Rejected {
        url: String,
        who: String,
        why: String,
    },
}

impl LiveError {
    /// Names who was rejected and why (`fetch_with` knows only the client).
    fn with_identity(self, opts: &LiveOptions) -> LiveError {
        match self {
            LiveError::Rejected { url, .. } => {
                let id = credentials::identity(opts);
                LiveError::Rejected {
                    url,
                    why: credentials::rejection(&id, jiff::Timestamp::now()),
                    who: if id.who.is_empty() {
                        "the kubeconfig's user".into()
                    } else {
                        id.who
                    },
                }
            }
            e => e,
        }
    }
}

/// One cheap request (`/version`): an unreachable cluster or rejected credentials end here, in
/// seconds, with one message.
pub async fn probe(client: &Client, server: &str, opts: &LiveOptions) -> Result<(), LiveError> {
    let req = http::Request::get("/version")
        .body(Vec::new())
        .expect("static request");
    match tokio::time::timeout(Duration::from_secs(15), client.request_text(req)).await {
        Ok(Ok(_)) => Ok(()),
        Ok(Err(kube::Error::Api(s))) if s.code == 401 => Err(LiveError::Rejected {
            url: server.to_string(),
            who: String::new(),
            why: String::new(),
        }
        .with_identity(opts)),
        Ok(Err(e)) => Err(LiveError::Unreachable {
            url: server.to_string(),
            reason: transport_reason(&e),
        }),
        Err(_) => Err(LiveError::Unreachable {
            url: server.to_string(),
            reason: "no answer within 15 s".into(),
        }),
    }
}

/// Why a request did not reach the API server, in words: the innermost cause of the error
/// (`Connection refused (os error 111)`, a name that does not resolve, a certificate the
/// client does not trust) rather than the client's outer "client error (Connect)".
pub fn transport_reason(e: &kube::Error) -> String {
    let mut root: &dyn std::error::Error = e;
    while let Some(next) = root.source() {
        root = next;
    }
    let inner = root.to_string();
    let io = {
        let mut cur: Option<&dyn std::error::Error> = Some(e);
        let mut kind = None;
        while let Some(c) = cur {
            if let Some(io) = c.downcast_ref::<std::io::Error>() {
                kind = Some(io.kind());
            }
            cur = c.source();
        }
        kind
    };
    match io {
        Some(std::io::ErrorKind::ConnectionRefused) => {
            format!("connection refused: nothing listens at that address ({inner})")
        }
        Some(std::io::ErrorKind::TimedOut) => format!("the connection timed out ({inner})"),
        _ if inner != e.to_string() => format!("{e}: {inner}"),
        _ => inner,
    }
}

/// What a live read produced.
#[derive(Debug, Default)]
pub struct Fetched {
    /// `(name, JSON text)` of every page, for `kubewhy_source::load`.
    pub pages: Vec<(String, String)>,
    /// Kinds that could not be read, with the reason (permission missing, not served).
    pub problems: Vec<InputWarning>,
    /// HTTP requests made.
    pub requests: u32,
    /// The namespaces read (empty: all).
    pub namespaces: Vec<String>,
    pub server: String,
}

async fn config(opts: &LiveOptions) -> Result<Config, LiveError> {
    let ko = KubeConfigOptions {
        context: opts.context.clone(),
        ..Default::default()
    };
    let mut cfg = match &opts.kubeconfig {
        Some(path) => {
            let kc = Kubeconfig::read_from(path)
                .map_err(|e| LiveError::Config(format!("{}: {e}", path.display())))?;
            Config::from_custom_kubeconfig(kc, &ko)
                .await
                .map_err(|e| LiveError::Config(e.to_string()))?
        }
        None if opts.context.is_some() => Config::from_kubeconfig(&ko)
            .await
            .map_err(|e| LiveError::Config(e.to_string()))?,
        None => Config::infer()
            .await
            .map_err(|e| LiveError::Config(e.to_string()))?,
    };
    cfg.connect_timeout = Some(Duration::from_secs(5));
    cfg.read_timeout = Some(Duration::from_secs(60));
    // kube-rs retries 429/503/504 itself by default, up to 15 times with delays growing to
    // 1000 s: an unavailable aggregated API (503) would hang the scan. kubewhy retries with its
    // own bounded backoff instead.
    cfg.default_retry = false;
    // Named in the API server's audit log and metrics.
    cfg.headers.push((
        http::header::USER_AGENT,
        http::HeaderValue::from_static(concat!("kubewhy/", env!("CARGO_PKG_VERSION"))),
    ));
    Ok(cfg)
}

/// Reads the cluster. Fails only when no configuration is found or the API server cannot be
/// reached at all; anything narrower is a problem in `Fetched::problems`.
pub async fn fetch(opts: &LiveOptions) -> Result<Fetched, LiveError> {
    let cfg = config(opts).await?;
    let server = cfg.cluster_url.to_string();
    let default_ns = cfg.default_namespace.clone();
    let client = Client::try_from(cfg).map_err(|e| LiveError::Config(e.to_string()))?;
    fetch_with(client, &default_ns, &server, opts).await
}

/// `fetch` with a client already built (tests hand in a mock service).
pub async fn fetch_with(
    client: Client,
    default_ns: &str,
    server: &str,
    opts: &LiveOptions,
) -> Result<Fetched, LiveError> {
    let server = server.to_string();
    let default_ns = default_ns.to_string();
    // One cheap request first: an unreachable cluster ends here, in seconds, with one message.
    probe(&client, &server, opts).await?;

    let namespaces: Vec<String> = if opts.all_namespaces {
        Vec::new()
    } else if opts.namespaces.is_empty() {
        vec![default_ns.clone()]
    } else {
        opts.namespaces.clone()
    };
    let mut tasks = tokio::task::JoinSet::new();
    for (i, r) in RESOURCES.iter().enumerate() {
        let scopes: Vec<Option<String>> = if r.namespaced && !namespaces.is_empty() {
            let mut v: Vec<Option<String>> = namespaces.iter().cloned().map(Some).collect();
            // Nodes' and the scheduler's leases (heartbeats) live in their own namespaces: a
            // scan of one namespace still needs them to judge nodes and the scheduler.
            if r.plural == "leases" {
                for extra in LEASE_NAMESPACES {
                    if !namespaces.iter().any(|n| n == extra) {
                        v.push(Some(extra.to_string()));
                    }
                }
            }
            v
        } else {
            vec![None]
        };
        for scope in scopes {
            let client = client.clone();
            let progress = opts.progress.clone();
            if let Some(p) = &progress {
                p.lists.fetch_add(1, Ordering::Relaxed);
            }
            tasks.spawn(async move {
                let listed = list_kind(
                    &client,
                    RESOURCES[i].prefixes,
                    RESOURCES[i].plural,
                    RESOURCES[i].namespaced,
                    scope.as_deref(),
                )
                .await;
                if let Some(p) = &progress {
                    p.lists_done.fetch_add(1, Ordering::Relaxed);
                    p.pages
                        .fetch_add(listed.pages.len() as u32, Ordering::Relaxed);
                }
                (i, scope, listed)
            });
        }
    }
    let mut results = Vec::new();
    while let Some(done) = tasks.join_next().await {
        if let Ok(r) = done {
            results.push(r);
        }
    }
    // Deterministic order, whatever finished first.
    results.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
    let mut out = Fetched {
        namespaces,
        server,
        ..Default::default()
    };
    let mut forbidden: Vec<(&Resource, Option<String>)> = Vec::new();
    for (i, scope, listed) in results {
        out.requests += listed.requests;
        out.pages.extend(listed.pages);
        if listed.forbidden {
            forbidden.push((&RESOURCES[i], scope));
        } else {
            out.problems.extend(listed.problem);
        }
    }
    let forbidden = served_only(&client, forbidden).await;
    if !forbidden.is_empty() {
        out.problems.push(permission_summary(&forbidden));
    }
    // `-A` refused for pods: credentials for some namespaces only (a namespace's Role). Where
    // they may read, from the access review of the context's namespace, said with the command.
    let pods_refused = forbidden
        .iter()
        .any(|(r, scope)| r.plural == "pods" && scope.is_none());
    if opts.all_namespaces && pods_refused && !default_ns.is_empty() {
        out.problems
            .push(namespace_hint(&client, &default_ns).await);
    }
    // Namespaces being deleted: what is left in them, across every resource type served.
    let mut dying: Vec<String> = discovery::terminating(&out.pages)
        .into_iter()
        .filter(|n| out.namespaces.is_empty() || out.namespaces.contains(n))
        .collect();
    dying.sort_by_key(|n| !opts.focus.contains(n));
    if !dying.is_empty() {
        let l = discovery::contents(&client, &dying).await;
        out.requests += l.requests;
        out.pages.extend(l.pages);
        out.problems.extend(l.problem);
        out.problems.extend(l.extra_problems);
    }
    Ok(out)
}

/// For credentials that may not list pods in all namespaces: whether they may in the
/// context's namespace (a SelfSubjectAccessReview), and the command that scans what they may.
async fn namespace_hint(client: &Client, ns: &str) -> InputWarning {
    let body = serde_json::json!({
        "apiVersion": "authorization.k8s.io/v1",
        "kind": "SelfSubjectAccessReview",
        "spec": {"resourceAttributes": {"verb": "list", "resource": "pods", "namespace": ns}}
    });
    let allowed =
        match http::Request::post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
            .header("Content-Type", "application/json")
            .body(serde_json::to_vec(&body).unwrap_or_default())
        {
            Ok(req) => {
                match tokio::time::timeout(Duration::from_secs(10), client.request_text(req)).await
                {
                    Ok(Ok(text)) => serde_json::from_str::<serde_json::Value>(&text)
                        .ok()
                        .and_then(|v| v["status"]["allowed"].as_bool()),
                    _ => None,
                }
            }
            Err(_) => None,
        };
    let message = match allowed {
        Some(true) => format!(
            "these credentials may not list pods in all namespaces (-A) but may in namespace {ns}, the context's: scan it with `kubewhy scan -n {ns}` (or each namespace they may read with -n NS, repeatable)"
        ),
        Some(false) => format!(
            "these credentials may not list pods in all namespaces (-A), nor in namespace {ns}, the context's: scan the namespaces they may read with `kubewhy scan -n NS` (`kubectl auth can-i --list -n NS` shows what they may)"
        ),
        None => "these credentials may not list pods in all namespaces (-A): scan the namespaces they may read with `kubewhy scan -n NS` (`kubectl auth can-i --list -n NS` shows what they may)".to_string(),
    };
    InputWarning {
        file: "live:permissions".into(),
        line: None,
        column: None,
        message,
    }
}

/// What is left in namespaces being deleted, across every resource type the cluster serves (at
/// most `discovery::MAX_NAMESPACES` of them): the pages, and what could not be read.
pub async fn namespace_contents(
    client: &Client,
    namespaces: &[String],
) -> (Vec<(String, String)>, Vec<InputWarning>) {
    let l = discovery::contents(client, namespaces).await;
    let mut problems: Vec<InputWarning> = l.problem.into_iter().collect();
    problems.extend(l.extra_problems);
    (l.pages, problems)
}

/// The most log a finding quotes from: the tail of the previous run, bounded so a chatty
/// container cannot make a scan slow or large.
pub const PREVIOUS_LOG_BYTES: i64 = 16 * 1024;

/// The namespace of the kubeconfig context (or of the in-cluster service account).
pub async fn default_namespace(opts: &LiveOptions) -> Result<String, LiveError> {
    Ok(config(opts).await?.default_namespace)
}

/// The contexts of the kubeconfig, in its order: `kubeconfig`'s, else the files KUBECONFIG names
/// (merged as kubectl merges them), else `~/.kube/config` (`kubewhy scan --all-contexts`).
pub fn contexts(kubeconfig: Option<&std::path::Path>) -> Result<Vec<String>, LiveError> {
    let kc = match kubeconfig {
        Some(path) => Kubeconfig::read_from(path)
            .map_err(|e| LiveError::Config(format!("{}: {e}", path.display())))?,
        None => Kubeconfig::read().map_err(|e| LiveError::Config(e.to_string()))?,
    };
    let mut names: Vec<String> = Vec::new();
    for c in kc.contexts {
        if !names.contains(&c.name) {
            names.push(c.name);
        }
    }
    Ok(names)
}

/// Builds a client for the options (for calls after `fetch`, such as `previous_log_with`).
pub async fn client(opts: &LiveOptions) -> Result<Client, LiveError> {
    let cfg = config(opts).await?;
    Client::try_from(cfg).map_err(|e| LiveError::Config(e.to_string()))
}

/// A client for long-running watches: a watch is quiet for minutes when nothing changes, so the
/// read timeout is longer than the API server's watch timeout (290 s) instead of a scan's 60 s.
///
/// Credentials the API server rejects end it here (a watch would retry them forever); an API
/// server that cannot be reached yet does not: the watches retry and report it.
pub async fn watch_client(opts: &LiveOptions) -> Result<Client, LiveError> {
    let mut cfg = config(opts).await?;
    cfg.read_timeout = Some(Duration::from_secs(295));
    let server = cfg.cluster_url.to_string();
    let client = Client::try_from(cfg).map_err(|e| LiveError::Config(e.to_string()))?;
    match probe(&client, &server, opts).await {
        Err(e @ LiveError::Rejected { .. }) => Err(e),
        _ => Ok(client),
    }
}

/// The previous run's log of each of `containers` of pod `ns/pod` (bounded by
/// `PREVIOUS_LOG_BYTES`; the current run's when the previous one's is gone), as the snapshot's
/// container logs, each saying where it came from; and the problems met (as warnings: a missing
/// log never stops the diagnosis).
pub async fn previous_logs(
    opts: &LiveOptions,
    ns: &str,
    pod: &str,
    containers: &[String],
) -> (Vec<kubewhy_model::objects::ContainerLog>, Vec<String>) {
    let client = match client(opts).await {
        Ok(c) => c,
        Err(e) => return (Vec::new(), vec![format!("previous logs of pod {pod}: {e}")]),
    };
    let (mut logs, mut problems) = (Vec::new(), Vec::new());
    let max = PREVIOUS_LOG_BYTES;
    let log = |container: &str, text: &str, previous: bool, origin: String| {
        kubewhy_model::objects::ContainerLog {
            namespace: ns.to_string(),
            pod: pod.to_string(),
            origin,
            container: container.to_string(),
            tail: kubewhy_source::log_tail(text),
            previous,
        }
    };
    for c in containers {
        match previous_log_with(&client, ns, pod, c, max).await {
            Ok(Some(text)) => logs.push(log(
                c,
                &text,
                true,
                format!("kubectl logs {pod} -n {ns} -c {c} --previous"),
            )),
            // The previous run's log is gone (the dead container was removed): the current
            // run's, if it has written any, says the same thing more often than not.
            Ok(None) => {
                if let Ok(Some(text)) = current_log_with(&client, ns, pod, c, max).await {
                    logs.push(log(
                        c,
                        &text,
                        false,
                        format!("kubectl logs {pod} -n {ns} -c {c} (the current run: the previous run's log is gone)"),
                    ));
                }
            }
            Err(e) => problems.push(format!(
                "previous log of container {c} of pod {ns}/{pod} (needs permission to get pods/log): {e}"
            )),
        }
    }
    (logs, problems)
}

/// The log of a container's previous run (what `kubectl logs --previous` shows), at most
/// `max_bytes` from its end. `Ok(None)` when the API server has none: the container has not
/// restarted, or the kubelet already removed the dead container.
pub async fn previous_log_with(
    client: &Client,
    namespace: &str,
    pod: &str,
    container: &str,
    max_bytes: i64,
) -> Result<Option<String>, String> {
    log_with(client, namespace, pod, container, true, max_bytes).await
}

/// The log of a container's current run (what `kubectl logs` shows), like
/// [`previous_log_with`]: the fallback when the previous run's log is gone.
pub async fn current_log_with(
    client: &Client,
    namespace: &str,
    pod: &str,
    container: &str,
    max_bytes: i64,
) -> Result<Option<String>, String> {
    log_with(client, namespace, pod, container, false, max_bytes).await
}

async fn log_with(
    client: &Client,
    namespace: &str,
    pod: &str,
    container: &str,
    previous: bool,
    max_bytes: i64,
) -> Result<Option<String>, String> {
    let path = format!(
        "/api/v1/namespaces/{}/pods/{}/log?container={}&previous={previous}&limitBytes={max_bytes}",
        enc(namespace),
        enc(pod),
        enc(container)
    );
    let req = http::Request::get(path)
        .body(Vec::new())
        .map_err(|e| e.to_string())?;
    match tokio::time::timeout(Duration::from_secs(15), client.request_text(req)).await {
        Err(_) => Err("no answer within 15 s".into()),
        // The kubelet answers 200 with this sentence when the container's log is gone (a dead
        // container removed between restarts): there is no log, and it is not the app's words.
        Ok(Ok(text)) if kubewhy_model::messages::app::log_unavailable(text.lines()) => Ok(None),
        Ok(Ok(text)) if text.trim().is_empty() => Ok(None),
        Ok(Ok(text)) => {
            // limitBytes may cut the first line in the middle: drop that fragment.
            let text = if text.len() as i64 >= max_bytes {
                text.split_once('\n')
                    .map(|(_, rest)| rest.to_string())
                    .unwrap_or(text)
            } else {
                text
            };
            Ok(Some(text))
        }
        Ok(Err(kube::Error::Api(e))) if e.code == 400 || e.code == 404 => Ok(None),
        Ok(Err(e)) => Err(e.to_string()),
    }
}

/// Percent-encodes a path segment or query value (names are DNS labels, but be exact).
fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

#[derive(Default)]
struct Listed {
    pages: Vec<(String, String)>,
    problem: Option<InputWarning>,
    /// Further problems (discovery reports one per failing group).
    extra_problems: Vec<InputWarning>,
    /// The list was refused (403): one summary names every refused kind (`permission_summary`).
    forbidden: bool,
    requests: u32,
}

#[derive(Deserialize, Default)]
struct ListHead {
    #[serde(default)]
    metadata: ListMeta,
}

#[derive(Deserialize, Default)]
struct ListMeta {
    #[serde(default, rename = "continue")]
    continue_: Option<String>,
}

pub(crate) enum Failure {
    /// HTTP status from the API server, with its message and, for a 429, the seconds it asked
    /// to wait (`details.retryAfterSeconds`, the `Retry-After` header's number).
    Status(u16, String, Option<u32>),
    /// Transport failure (timeout, connection reset).
    Transport(String),
}

pub(crate) async fn get(client: &Client, uri: &str) -> Result<String, Failure> {
    get_as(client, uri, None).await
}

/// What a list of Secrets or ConfigMaps asks for: their metadata alone
/// (`PartialObjectMetadataList`, served since 1.15), so that no value ever travels to kubewhy.
const METADATA_ACCEPT: &str =
    "application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json";

/// The kinds listed as metadata only: their values are never needed, only names and, for a
/// few objects a check needs, keys (`read_keys`).
pub fn metadata_only(plural: &str) -> bool {
    matches!(plural, "secrets" | "configmaps")
}

/// A GET, with an `Accept` header when one is given.
pub(crate) async fn get_as(
    client: &Client,
    uri: &str,
    accept: Option<&str>,
) -> Result<String, Failure> {
    let mut req = http::Request::get(uri);
    if let Some(a) = accept {
        req = req.header(http::header::ACCEPT, a);
    }
    let req = req
        .body(Vec::new())
        .map_err(|e| Failure::Transport(e.to_string()))?;
    match client.request_text(req).await {
        Ok(t) => Ok(t),
        Err(kube::Error::Api(s)) => Err(Failure::Status(
            s.code,
            s.message.clone(),
            s.details.as_ref().map(|d| d.retry_after_seconds),
        )),
        Err(e) => Err(Failure::Transport(e.to_string())),
    }
}

/// A page of a metadata-only list as the loader reads a typed list: `{kind}List` whose items
/// are `{kind}`s of apiVersion `meta.k8s.io/v1` (how a `KeyedObject` knows its keys were not
/// read) with their metadata alone. Whatever else the server sent — a whole list from a server
/// that ignored the `Accept` header — is dropped here, values included.
fn metadata_page(text: &str, r: Option<&Resource>) -> String {
    #[derive(Deserialize)]
    struct Page {
        #[serde(default)]
        metadata: Box<serde_json::value::RawValue>,
        #[serde(default)]
        items: Vec<Item>,
    }
    #[derive(Deserialize)]
    struct Item {
        metadata: Box<serde_json::value::RawValue>,
    }
    let kind = r.map(|r| r.kind).unwrap_or("Secret");
    let Ok(page) = serde_json::from_str::<Page>(text) else {
        return format!(r#"{{"kind":"{kind}List","apiVersion":"v1","metadata":{{}},"items":[]}}"#);
    };
    let mut out = format!(
        r#"{{"kind":"{kind}List","apiVersion":"v1","metadata":{},"items":["#,
        page.metadata.get()
    );
    for (i, item) in page.items.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&format!(
            r#"{{"kind":"{kind}","apiVersion":"{}","metadata":{}}}"#,
            kubewhy_model::objects::METADATA_ONLY,
            item.metadata.get()
        ));
    }
    out.push_str("]}");
    out
}

/// Most Secrets and ConfigMaps whose keys one scan reads (`read_keys`).
pub const MAX_KEYED: usize = 20;

/// The keys (never the values) of a few Secrets and ConfigMaps a check needs
/// (`kubewhy_rules::keys_needed`): one GET each (which needs `get` on them), the values dropped
/// while the response is decoded. Refusals are said once.
pub async fn read_keys(
    opts: &LiveOptions,
    wanted: &[(&'static str, String, String)],
) -> (
    Vec<(&'static str, kubewhy_model::objects::KeyedObject)>,
    Vec<InputWarning>,
) {
    let client = match client(opts).await {
        Ok(c) => c,
        Err(e) => return (Vec::new(), vec![problem("secrets", e.to_string())]),
    };
    let reads = wanted.iter().take(MAX_KEYED).map(|(kind, ns, name)| {
        let plural = if *kind == "ConfigMap" {
            "configmaps"
        } else {
            "secrets"
        };
        let uri = format!("/api/v1/namespaces/{}/{plural}/{}", enc(ns), enc(name));
        let client = &client;
        async move {
            let got = tokio::time::timeout(Duration::from_secs(10), get(client, &uri)).await;
            (*kind, plural, ns, name, got)
        }
    });
    let mut out = Vec::new();
    let mut refused: Vec<String> = Vec::new();
    let mut problems = Vec::new();
    for (kind, plural, ns, name, got) in futures::future::join_all(reads).await {
        match got {
            Ok(Ok(text)) => match serde_json::from_str::<kubewhy_model::objects::RawKeyed>(&text) {
                Ok(raw) => out.push((kind, raw.into())),
                Err(e) => problems.push(problem(
                    plural,
                    format!("the keys of {kind} {ns}/{name} are not understood: {e}"),
                )),
            },
            Ok(Err(Failure::Status(403, _, _))) => refused.push(format!("{ns}/{name}")),
            // Deleted since the list: the check says it is missing from the list's view.
            Ok(Err(Failure::Status(404, _, _))) => {}
            Ok(Err(f)) => problems.push(problem(
                plural,
                format!(
                    "the keys of {kind} {ns}/{name} were not read: {}",
                    describe(&f)
                ),
            )),
            Err(_) => problems.push(problem(
                plural,
                format!("the keys of {kind} {ns}/{name} were not read within 10 s"),
            )),
        }
    }
    if !refused.is_empty() {
        problems.push(problem(
            "secrets",
            format!(
                "the keys of {} referenced by key or as pull secrets are not readable ({}): it needs `get` on them (deploy/kustomize/extras grants it); a missing key cannot be told from a present one",
                refused.len(),
                refused.join(", ")
            ),
        ));
    }
    (out, problems)
}

/// Lists one kind in one scope, all pages.
async fn list_kind<S: AsRef<str>>(
    client: &Client,
    prefixes: &[S],
    plural: &str,
    namespaced: bool,
    ns: Option<&str>,
) -> Listed {
    let mut listed = Listed::default();
    let scope = match ns {
        Some(n) => format!("in namespace {n}"),
        None if namespaced => "in all namespaces".to_string(),
        None => "(cluster-scoped)".to_string(),
    };
    'versions: for (vi, prefix) in prefixes.iter().enumerate() {
        let prefix = prefix.as_ref();
        let base = match ns {
            Some(n) => format!("{prefix}/namespaces/{n}/{plural}"),
            None => format!("{prefix}/{plural}"),
        };
        let mut restarts = 0;
        'restart: loop {
            listed.pages.clear();
            let mut token: Option<String> = None;
            loop {
                let mut uri = format!("{base}?limit={PAGE_SIZE}");
                if let Some(t) = &token {
                    uri.push_str("&continue=");
                    uri.push_str(&encode(t));
                }
                let mut attempt = 0;
                let text = loop {
                    attempt += 1;
                    listed.requests += 1;
                    let accept = metadata_only(plural).then_some(METADATA_ACCEPT);
                    match get_as(client, &uri, accept).await {
                        Ok(t) => break t,
                        // Expired continue token: the list must start over (consistency).
                        Err(Failure::Status(410, _, _)) if token.is_some() && restarts < 2 => {
                            restarts += 1;
                            continue 'restart;
                        }
                        Err(Failure::Status(404, _, _)) if vi + 1 < prefixes.len() => {
                            continue 'versions;
                        }
                        Err(Failure::Status(404, _, _)) => {
                            listed.pages.clear();
                            return listed; // not served by this cluster: nothing to read
                        }
                        Err(Failure::Status(403, msg, _)) => {
                            listed.pages.clear();
                            listed.forbidden = true;
                            listed.problem = Some(problem(
                                plural,
                                forbidden_message(plural, prefix, "list", &scope, &msg),
                            ));
                            return listed;
                        }
                        Err(f) if attempt < ATTEMPTS && retryable(&f) => {
                            tokio::time::sleep(retry_delay(&f, attempt)).await;
                        }
                        Err(f) => {
                            listed.pages.clear();
                            listed.problem = Some(problem(
                                plural,
                                format!("cannot list {plural} {scope}: {}", describe(&f)),
                            ));
                            return listed;
                        }
                    }
                };
                let next = serde_json::from_str::<ListHead>(&text)
                    .ok()
                    .and_then(|h| h.metadata.continue_)
                    .filter(|t| !t.is_empty());
                let text = if metadata_only(plural) {
                    metadata_page(&text, RESOURCES.iter().find(|r| r.plural == plural))
                } else {
                    text
                };
                listed.pages.push((format!("live:{uri}"), text));
                match next {
                    Some(t) => token = Some(t),
                    None => return listed,
                }
            }
        }
    }
    listed
}

/// One warning for every kind the user may not read: the kinds by scope, what kubewhy could
/// not judge without them, and the ClusterRole that grants them. (A warning per kind and
/// namespace buried the answer of a user who may read only their own namespace's pods.)
pub(crate) fn permission_summary(forbidden: &[(&Resource, Option<String>)]) -> InputWarning {
    // Kinds by scope, then scopes that refused the same kinds together.
    let mut by_place: Vec<(String, Vec<&str>)> = Vec::new();
    for (r, scope) in forbidden {
        let place = match scope {
            Some(ns) => ns.clone(),
            None if r.namespaced => "all namespaces".to_string(),
            None => String::new(),
        };
        match by_place.iter_mut().find(|(p, _)| *p == place) {
            Some((_, v)) if !v.contains(&r.plural) => v.push(r.plural),
            Some(_) => {}
            None => by_place.push((place, vec![r.plural])),
        }
    }
    let mut groups: Vec<(Vec<&str>, Vec<String>)> = Vec::new();
    for (place, plurals) in by_place {
        match groups.iter_mut().find(|(p, _)| *p == plurals) {
            Some((_, places)) => places.push(place),
            None => groups.push((plurals, vec![place])),
        }
    }
    let what: Vec<String> = groups
        .iter()
        .map(|(plurals, places)| {
            let place = match places.as_slice() {
                [p] if p.is_empty() => "cluster-scoped".to_string(),
                [p] if p == "all namespaces" => "in all namespaces".to_string(),
                [p] => format!("in namespace {p}"),
                many => format!("in namespaces {}", many.join(", ")),
            };
            format!("{} ({place})", plurals.join(", "))
        })
        .collect();
    let mut judged: Vec<&str> = Vec::new();
    for (r, _) in forbidden {
        if !judged.contains(&r.judges) {
            judged.push(r.judges);
        }
    }
    const SAID: usize = 4;
    let more = judged.len().saturating_sub(SAID);
    let judged = judged[..judged.len().min(SAID)].join("; ")
        + &if more > 0 {
            format!("; and {more} more")
        } else {
            String::new()
        };
    InputWarning {
        file: "live:permissions".into(),
        line: None,
        column: None,
        message: format!(
            "not permitted to read {}. The checks ran without them, so kubewhy cannot see {judged}. The read-only ClusterRole kubewhy-read (deploy/kustomize/base, or the Helm chart deploy/helm/kubewhy) grants them all but Secrets (deploy/kustomize/extras adds their names).",
            what.join("; "),
        ),
    }
}

/// Drops the refused kinds whose API group the cluster does not serve at all (RBAC answers 403
/// before the API server could say 404): a user who may not list Argo workflows on a cluster
/// without Argo is told nothing about them. One discovery request per group version; discovery
/// is open to every authenticated user.
async fn served_only<'a>(
    client: &Client,
    forbidden: Vec<(&'a Resource, Option<String>)>,
) -> Vec<(&'a Resource, Option<String>)> {
    let mut served: std::collections::HashMap<&str, bool> = Default::default();
    for (r, _) in &forbidden {
        let prefix = r.prefixes[0];
        if prefix == "/api/v1" || served.contains_key(prefix) {
            continue;
        }
        let mut ok = false;
        for p in r.prefixes {
            match get(client, p).await {
                Err(Failure::Status(404, _, _)) => continue,
                _ => {
                    ok = true;
                    break;
                }
            }
        }
        served.insert(prefix, ok);
    }
    forbidden
        .into_iter()
        .filter(|(r, _)| served.get(r.prefixes[0]).copied().unwrap_or(true))
        .collect()
}

/// What a 403 means for the report: which checks ran without the kind, and the exact permission.
pub(crate) fn forbidden_message(
    plural: &str,
    prefix: &str,
    verbs: &str,
    scope: &str,
    msg: &str,
) -> String {
    let (group, _, _) = group_version(prefix);
    format!(
        "forbidden: cannot list {plural} {scope}; the checks that need them ran without them. Missing permission: verbs=[{verbs}] resources=[{plural}] apiGroups=[\"{group}\"] ({msg})"
    )
}

/// An API path prefix taken apart: `/apis/batch/v1` → (`batch`, `v1`, `batch/v1`);
/// `/api/v1` → (``, `v1`, `v1`).
pub(crate) fn group_version(prefix: &str) -> (&str, &str, &str) {
    let gv = prefix
        .trim_start_matches("/apis/")
        .trim_start_matches("/api/");
    let (group, version) = gv.split_once('/').unwrap_or(("", gv));
    (group, version, gv)
}

/// How long a one-shot read waits before its next attempt: 0.5 s, then 1 s; a 429's
/// Retry-After if longer, up to 10 s (someone is waiting for the answer).
fn retry_delay(f: &Failure, attempt: u32) -> Duration {
    let ours = Duration::from_millis(500 * 2u64.pow(attempt.saturating_sub(1)));
    match f {
        Failure::Status(429, _, Some(s)) => ours.max(Duration::from_secs(u64::from(*s).min(10))),
        _ => ours,
    }
}

fn retryable(f: &Failure) -> bool {
    match f {
        Failure::Status(code, _, _) => *code == 429 || *code >= 500,
        Failure::Transport(_) => true,
    }
}

fn describe(f: &Failure) -> String {
    match f {
        Failure::Status(code, msg, _) => format!("HTTP {code}: {msg}"),
        Failure::Transport(e) => e.clone(),
    }
}

pub(crate) fn problem(plural: &str, message: String) -> InputWarning {
    InputWarning {
        file: format!("live:{plural}"),
        line: None,
        column: None,
        message,
    }
}

/// Percent-encodes a continue token for a query string.
fn encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests;

/// Most nodes whose kubelet configuration one scan reads (one request each).
pub const MAX_CONFIGZ: usize = 10;

/// `kubelet_configz_with` a client for the options; a client that cannot be built is one
/// problem.
pub async fn kubelet_configz(
    opts: &LiveOptions,
    nodes: &[String],
) -> (
    Vec<(String, kubewhy_model::node::KubeletSettings)>,
    Vec<InputWarning>,
) {
    match client(opts).await {
        Ok(c) => kubelet_configz_with(&c, nodes).await,
        Err(e) => (Vec::new(), vec![problem("nodes/proxy", e.to_string())]),
    }
}

/// The kubelet settings of these nodes (at most [`MAX_CONFIGZ`]), read through the API
/// server's node proxy (`/api/v1/nodes/NAME/proxy/configz`, which needs `get` on
/// `nodes/proxy`), concurrently, 10 s each. A refusal is reported once, not once per node.
pub async fn kubelet_configz_with(
    client: &Client,
    nodes: &[String],
) -> (
    Vec<(String, kubewhy_model::node::KubeletSettings)>,
    Vec<InputWarning>,
) {
    #[derive(Deserialize, Default)]
    #[serde(default, rename_all = "camelCase")]
    struct Config {
        #[serde(rename = "kubeAPIQPS")]
        kube_api_qps: Option<f64>,
        #[serde(rename = "kubeAPIBurst")]
        kube_api_burst: Option<u64>,
        max_pods: Option<u64>,
        static_pod_path: Option<String>,
    }
    #[derive(Deserialize, Default)]
    #[serde(default)]
    struct Configz {
        kubeletconfig: Config,
    }
    let reads = nodes.iter().take(MAX_CONFIGZ).map(|n| async move {
        let uri = format!("/api/v1/nodes/{}/proxy/configz", enc(n));
        let got = tokio::time::timeout(Duration::from_secs(10), get(client, &uri)).await;
        (n.clone(), got)
    });
    let mut out = Vec::new();
    let mut problems = Vec::new();
    let mut forbidden = false;
    for (node, got) in futures::future::join_all(reads).await {
        match got {
            Ok(Ok(text)) => match serde_json::from_str::<Configz>(&text) {
                Ok(c) => out.push((
                    node.clone(),
                    kubewhy_model::node::KubeletSettings {
                        origin: format!("configz of node {node}"),
                        kube_api_qps: c.kubeletconfig.kube_api_qps,
                        kube_api_burst: c.kubeletconfig.kube_api_burst,
                        max_pods: c.kubeletconfig.max_pods,
                        static_pod_path: c.kubeletconfig.static_pod_path,
                    },
                )),
                Err(e) => problems.push(problem(
                    "nodes/proxy",
                    format!("the kubelet configuration of node {node} is not understood: {e}"),
                )),
            },
            Ok(Err(Failure::Status(403, _, _))) => forbidden = true,
            Ok(Err(Failure::Status(code, msg, _))) => problems.push(problem(
                "nodes/proxy",
                format!("the kubelet configuration of node {node} is not readable ({code}: {msg})"),
            )),
            Ok(Err(Failure::Transport(e))) => problems.push(problem(
                "nodes/proxy",
                format!("the kubelet of node {node} did not answer through the API server: {e}"),
            )),
            Err(_) => problems.push(problem(
                "nodes/proxy",
                format!("the kubelet of node {node} did not answer within 10 s"),
            )),
        }
    }
    if forbidden {
        problems.push(problem(
            "nodes/proxy",
            "the kubelets' configuration (kubeAPIQPS) is not readable: it needs `get` on `nodes/proxy`; the rate-limit check uses the defaults instead".into(),
        ));
    }
    (out, problems)
}

/// What the credentials may do with one watch's kind: asked of the API server itself
/// (SelfSubjectAccessReview, for `list` and `watch`), before anything is watched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Permission {
    pub resource: &'static str,
    pub scope: Option<String>,
    pub list: bool,
    pub watch: bool,
    /// The API server answered the reviews (else `list` and `watch` are assumed).
    pub answered: bool,
}

/// Asks the API server, for each slot, whether the credentials may list and watch it (two
/// SelfSubjectAccessReviews each, all at once). A review that cannot be made counts as allowed:
/// the watch itself will say otherwise.
pub async fn permissions(client: &Client, slots: &[store::Slot]) -> Vec<Permission> {
    // Kinds whose API group the cluster does not serve are not asked about (Argo).
    let served: Vec<(&'static Resource, Option<String>)> = served_only(
        client,
        slots
            .iter()
            .map(|(i, scope)| (&RESOURCES[*i], scope.clone()))
            .collect(),
    )
    .await;
    let slots: Vec<store::Slot> = slots
        .iter()
        .filter(|(i, scope)| {
            served
                .iter()
                .any(|(r, s)| r.plural == RESOURCES[*i].plural && s == scope)
        })
        .cloned()
        .collect();
    let asks = slots.iter().map(|(i, scope)| async move {
        let r = &RESOURCES[*i];
        let (group, _, _) = group_version(r.prefixes[0]);
        let may = |verb: &'static str| {
            let body = serde_json::json!({
                "apiVersion": "authorization.k8s.io/v1",
                "kind": "SelfSubjectAccessReview",
                "spec": {"resourceAttributes": {
                    "verb": verb, "group": group, "resource": r.plural,
                    "namespace": scope.clone().unwrap_or_default(),
                }}
            });
            async move {
                let req =
                    http::Request::post("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews")
                        .header("Content-Type", "application/json")
                        .body(serde_json::to_vec(&body).unwrap_or_default());
                let Ok(req) = req else { return None };
                match tokio::time::timeout(Duration::from_secs(10), client.request_text(req)).await
                {
                    Ok(Ok(text)) => serde_json::from_str::<serde_json::Value>(&text)
                        .ok()
                        .and_then(|v| v["status"]["allowed"].as_bool()),
                    _ => None,
                }
            }
        };
        let (list, watch) = futures::join!(may("list"), may("watch"));
        Permission {
            resource: r.plural,
            scope: scope.clone(),
            list: list.unwrap_or(true),
            watch: watch.unwrap_or(true),
            answered: list.is_some() && watch.is_some(),
        }
    });
    futures::future::join_all(asks).await
}

/// The permission check summarised in one line.
pub fn permissions_summary(perms: &[Permission]) -> String {
    if !perms.is_empty() && perms.iter().all(|p| !p.answered) {
        return "permissions: not checked (the API server did not answer the access reviews); the watches will say what they cannot read".into();
    }
    let denied: Vec<String> = perms
        .iter()
        .filter(|p| !(p.list && p.watch))
        .map(|p| {
            let verbs = match (p.list, p.watch) {
                (false, false) => "list, watch",
                (false, true) => "list",
                _ => "watch",
            };
            match &p.scope {
                Some(ns) => format!("{} in {ns} ({verbs})", p.resource),
                None => format!("{} ({verbs})", p.resource),
            }
        })
        .collect();
    if denied.is_empty() {
        format!(
            "permissions: every kind kubewhy reads may be listed and watched ({} watches)",
            perms.len()
        )
    } else {
        format!(
            "permissions: {} of {} watches may not be made: {}; the checks that need them run without them",
            denied.len(),
            perms.len(),
            denied.join(", ")
        )
    }
}
