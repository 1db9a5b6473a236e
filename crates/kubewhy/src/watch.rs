//! `kubewhy watch`: its arguments, and the pieces started — the watches (`kubewhy_live`), the
//! service that evaluates and serves (`kubewhy_service`), the flight recorder (`--record`) —
//! until SIGTERM or Ctrl-C.

use crate::gone::{FlightRecorder, RecordArgs};
use anyhow::{Context, Result};
use clap::Args;
use kubewhy_live::store::Store;
use kubewhy_service::Service;
use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

pub(crate) const WATCH_LONG: &str = "Watch the cluster and keep the findings current: one watch per kind kubewhy reads (list once, then changes only), every object held in its slim view. A finding appears within seconds of its condition becoming true — time-based ones too, such as a pod Terminating past its grace period — and disappears when it is resolved. A watch that drops is re-established; until its re-list completes, the last known state stays.

Served on --listen (default 127.0.0.1:9090):
  /          the current findings with their evidence and next steps (HTML, no JavaScript)
  /findings  the same as `kubewhy scan -A -o json`
  /metrics   Prometheus metrics: kubewhy_findings{cause,severity,namespace} and the watches' health
  /healthz   200 once every watch has listed and findings are fresh, else 503 with the reason

With --record FILE, also a flight recorder: for every deleted pod its last status, DisruptionTarget reason, owner, node, the events seen for it (kept beyond their one-hour TTL) and its likely initiator, plus the deletions of Jobs, ReplicaSets, StatefulSets, DaemonSets, Nodes and Namespaces that explain pods', the replica changes of Deployments, ReplicaSets and StatefulSets (from, to, when, by which field manager) and the controllers' \"Deleted pod\" events, which tell a scale-down or a rollout from a deletion. SQLite in WAL mode, committed every 0.5 s: killing the recorder loses at most that, never the file. `kubewhy gone --record FILE` reads it, even while the recorder runs.

Needs list and watch, cluster-wide (or in the namespaces of -n), on what `kubewhy scan -A` reads (deploy/ has the ClusterRole). It checks its permissions first and says in one line what it may not watch; the checks that need those kinds run without them. Without pods, events, nodes or namespaces (with -n: the namespaces' pods and events) it is degraded: /healthz answers 503 with the reason. Refused requests are retried minutes apart and throttled ones no sooner than the API server's Retry-After (exponential back-off with jitter), each trouble said once on stderr; the page opens with a Degraded banner while it cannot read what it needs; credentials rejected at start end it (exit 2).";

pub(crate) const WATCH_AFTER: &str = "Examples:
  kubewhy watch                                     serve findings on http://127.0.0.1:9090/
  kubewhy watch --listen 0.0.0.0:9090               in a pod, for a Service and Prometheus
  kubewhy watch --record /var/lib/kubewhy/rec.db    findings, and a flight recorder
  kubewhy watch --no-serve --record rec.db          the flight recorder alone
  kubewhy watch -n shop -n web                      a service account that may read two namespaces
  kubewhy gone shop/web-1 --record /var/lib/kubewhy/rec.db";

#[derive(Args)]
pub(crate) struct WatchArgs {
    /// Where to serve the findings, metrics and health.
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:9090")]
    listen: SocketAddr,

    /// Serve nothing and keep no findings: only the flight recorder (needs --record).
    #[arg(long, requires = "record")]
    no_serve: bool,

    /// Re-evaluate at least this often, for conditions that become true with time alone
    /// (a grace period running out). Changes are evaluated within a second anyway.
    #[arg(long, value_name = "SECONDS", default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=3600))]
    interval: u64,

    /// At most this many distinct namespace labels in /metrics; findings of the namespaces with
    /// fewer findings beyond that are counted under namespace="_other" (bounded cardinality).
    #[arg(long, value_name = "N", default_value_t = 500)]
    max_namespace_labels: usize,

    #[command(flatten)]
    record: RecordArgs,

    /// Watch only this namespace's objects (repeatable): for a service account that may read
    /// only some namespaces. Cluster-scoped kinds (nodes, namespaces, …) are still watched
    /// cluster-wide when permitted; without them the checks that need them run without them.
    #[arg(
        short,
        long = "namespace",
        value_name = "NAMESPACE",
        conflicts_with = "all_namespaces"
    )]
    namespace: Vec<String>,

    /// Watch every namespace: the default, accepted as `scan` and kubectl accept it.
    #[arg(short = 'A', long)]
    all_namespaces: bool,

    /// The kubeconfig file to use (default: KUBECONFIG, ~/.kube/config, or in-cluster).
    #[arg(long, value_name = "PATH")]
    kubeconfig: Option<PathBuf>,

    /// The kubeconfig context to use.
    #[arg(long, value_name = "NAME")]
    context: Option<String>,
}

pub(crate) fn run(args: WatchArgs) -> Result<u8> {
    kubewhy_service::one_malloc_arena();
    let recorder = FlightRecorder::open(&args.record)?;
    let opts =
        kubewhy_live::LiveOptions::cluster_wide(args.kubeconfig.clone(), args.context.clone());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let client = rt
        .block_on(kubewhy_live::watch_client(&opts))
        .context("connecting to the cluster")?;
    let store = (!args.no_serve).then(|| Arc::new(Store::scoped(&args.namespace)));
    // What the credentials may read, asked once before watching, said in one line.
    let perms = rt.block_on(kubewhy_live::permissions(
        &client,
        &kubewhy_live::store::slots(&args.namespace),
    ));
    writeln!(
        anstream::stderr(),
        "kubewhy: {}",
        kubewhy_report::sanitize(&kubewhy_live::permissions_summary(&perms))
    )?;
    let (tx, rx) = match recorder {
        Some(_) => {
            let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
            (Some(tx), Some(rx))
        }
        None => (None, None),
    };
    let mut err = anstream::stderr();
    if let Some(store) = &store {
        let listener = rt
            .block_on(tokio::net::TcpListener::bind(args.listen))
            .with_context(|| format!("--listen {}: cannot listen there", args.listen))?;
        let service = Arc::new(Service::new(
            store.clone(),
            args.interval,
            args.max_namespace_labels,
            !args.namespace.is_empty(),
        ));
        rt.spawn(kubewhy_service::serve(listener, service.clone()));
        let (client, handle) = (client.clone(), rt.handle().clone());
        std::thread::Builder::new()
            .name("evaluate".into())
            .spawn(move || service.evaluate_forever(&client, &handle))?;
        writeln!(
            err,
            "kubewhy: watching the cluster; findings on http://{}/ (also /findings, /metrics, /healthz)",
            args.listen
        )?;
    }
    rt.spawn(kubewhy_live::watch::run(
        client,
        kubewhy_live::watch::Watchers {
            store,
            recorder: tx,
            namespaces: args.namespace.clone(),
        },
    ));
    // SIGTERM as well as Ctrl-C: as a container's PID 1, an unhandled SIGTERM is ignored.
    let stop = Arc::new(AtomicBool::new(false));
    {
        let stop = stop.clone();
        rt.spawn(async move {
            shutdown_signal().await;
            stop.store(true, Ordering::Relaxed);
        });
    }
    match (recorder, rx) {
        (Some(r), Some(rx)) => r.run(&rt, rx, &stop)?,
        _ => rt.block_on(async {
            while !stop.load(Ordering::Relaxed) {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }),
    }
    writeln!(err, "kubewhy: stopped")?;
    rt.shutdown_timeout(Duration::from_secs(1));
    Ok(0)
}

async fn shutdown_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let (Ok(mut term), Ok(mut int)) = (
        signal(SignalKind::terminate()),
        signal(SignalKind::interrupt()),
    ) else {
        return std::future::pending().await;
    };
    tokio::select! {
        _ = term.recv() => {}
        _ = int.recv() => {}
    }
}
