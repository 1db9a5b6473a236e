//! The kubewhy binary: argument parsing, exit codes and glue. Everything else lives in the
//! library crates (model, source, rules, report).

use anyhow::{Context, Result, bail};
use clap::{Args, Parser, Subcommand, ValueEnum};
use kubewhy_model::{Cause, Severity};
use kubewhy_report::{Format, Report, SnapshotInfo};
use kubewhy_source::Input;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

mod collect;
mod fix;
mod gone;
mod watch;

/// The demo snapshot: a cluster-info dump of a real Kubernetes 1.20 cluster with broken
/// workloads beside healthy ones (see demo/README.md).
const DEMO: &str = include_str!("../../../demo/cluster-dump.json");

#[derive(Parser)]
#[command(
    name = "kubewhy",
    version,
    about = "Why is this pod (or namespace) stuck, and what is the safe fix?",
    long_about = "kubewhy reads the state of a Kubernetes cluster and explains every pod or namespace that is \
stuck: one root cause per finding (a stable slug, see `kubewhy causes`), the evidence that proves it, \
every object it affects, and the next steps with their risk. It only reads, except `kubewhy fix … --apply`, which repairs a pod or namespace stuck Terminating after showing its plan.",
    after_help = "Examples:\n  kubewhy scan -A                                  diagnose the current cluster (kubeconfig), all namespaces\n  kubewhy scan -A --summary                        one row per cause: severity, workloads, pods, since\n  kubewhy scan --demo                              diagnose the bundled demo cluster\n  kubectl get pods,events,nodes -A -o json | kubewhy scan --from -\n  kubectl cluster-info dump -A --output-directory=dump && kubewhy scan --from dump\n  kubewhy scan --from dump -n shop -o markdown     a report to paste into a ticket\n  kubewhy pod web-1 -n shop                        why is this one pod stuck?\n  kubewhy ns old-team                              why does this namespace not go away?\n  kubewhy scan -A --node-logs node-1/              with what node-collect gathered on a node\n  kubewhy fix ns old-team                          the plan that repairs it (add --apply to carry it out)\n  kubewhy explain oom-killed                       what a cause means and how to fix it\n\nInstalled as kubectl-why on the PATH, it is also `kubectl why pod web-1 -n shop`, and `kubectl why -A` (or bare `kubectl why`) scans."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Diagnose a cluster snapshot and report every stuck pod and namespace.
    Scan(ScanArgs),
    /// Why is this pod stuck? Diagnoses one pod (live, or with --from / --demo).
    Pod {
        /// The pod's name.
        name: String,
        #[command(flatten)]
        scan: ScanArgs,
    },
    /// Why is this namespace stuck (Terminating)? Diagnoses the namespace and what is in it.
    #[command(visible_alias = "namespace")]
    Ns {
        /// The namespace's name.
        name: String,
        #[command(flatten)]
        scan: ScanArgs,
    },
    /// Repair a pod or namespace that does not go away. Prints a plan; changes nothing without
    /// --apply.
    #[command(
        long_about = "Repair a pod or namespace stuck Terminating. kubewhy reads the cluster, diagnoses the subject and prints a plan that repairs the cause: the dependents a foreground deletion waits on, a finalizer whose controller is confirmed gone, an unavailable APIService that blocks every namespace deletion, a pod whose node is confirmed deleted. Nothing changes without --apply.\n\nWith --apply: every object is read again and must be unchanged since the plan; every step is sent as a server-side dry run first; every object is saved as JSON in a backup directory; every write carries the object's resourceVersion, so a concurrent change aborts the step instead of being overwritten. `kubewhy fix --undo DIR` restores what can be restored from that directory.\n\nRefused unless you insist with --force: removing built-in finalizers or finalizers whose controller may still run, force-deleting a pod whose node is Ready, clearing a namespace's finalizer through /finalize. Refused even with --force: force-deleting a StatefulSet pod or a pod holding ReadWriteOnce volumes while its node still exists.",
        after_help = "Examples:\n  kubewhy fix pod web-1 -n shop                  show the plan, change nothing\n  kubewhy fix pod web-1 -n shop --apply          carry it out (dry run, backups, preconditions)\n  kubewhy fix ns old-team --save-plan plan.json  review a plan, apply it later\n  kubewhy fix --plan plan.json --apply           apply exactly that plan (refused if anything changed)\n  kubewhy fix --undo kubewhy-backup-20261122T101500Z  put back what an applied plan changed"
    )]
    Fix(FixArgs),
    /// Why did this pod disappear (or why is it being removed)? From the audit log, the
    /// controller-manager's log, the flight recorder and the cluster.
    #[command(long_about = gone::GONE_LONG, after_help = gone::GONE_AFTER)]
    Gone(gone::GoneArgs),
    /// Keep the findings current from watches and serve them (a page, JSON, Prometheus metrics);
    /// with --record, also a flight recorder of every pod deletion.
    #[command(long_about = watch::WATCH_LONG, after_help = watch::WATCH_AFTER)]
    Watch(watch::WatchArgs),
    /// Gather a node's evidence (kubelet, runtime and kernel logs, runtime lists, stuck mounts
    /// and processes) into a bundle for --node-logs. Run it on the node.
    #[command(long_about = collect::COLLECT_LONG, after_help = collect::COLLECT_AFTER)]
    NodeCollect(collect::CollectArgs),
    /// Print a shell completion script: `source <(kubewhy completions bash)`.
    Completions { shell: clap_complete::Shell },
    /// Print the page of a cause: what it means, how it is detected, how to fix it safely.
    Explain {
        /// A cause slug (e.g. `image-pull-auth`) or code (e.g. `KW207`).
        cause: String,
    },
    /// List every cause kubewhy knows, with its code.
    Causes {
        #[arg(short, long, value_enum, default_value_t = CausesFormat::Text)]
        output: CausesFormat,
    },
}

#[derive(Args)]
struct ScanArgs {
    #[command(flatten)]
    src: SourceArgs,

    /// Output format.
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Text)]
    output: OutputFormat,

    /// kube-controller-manager's --terminated-pod-gc-threshold, when no kube-controller-manager
    /// pod in the data shows it (default 12500): terminated pods beyond it are deleted, oldest
    /// first, and kubewhy says which are next.
    #[arg(long, value_name = "N")]
    gc_threshold: Option<usize>,

    /// Only the overview: one row per cause (severity, findings, workloads, pods, namespaces,
    /// since), as the report opens with when its findings do not fit a screen.
    #[arg(long)]
    summary: bool,

    /// Exit with 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Warning, value_name = "LEVEL")]
    fail_on: FailOn,
}

/// Where the data comes from and what part of it to look at (shared by scan, pod, ns, gone).
#[derive(Args, Clone)]
struct SourceArgs {
    /// Read the snapshot from PATH: `kubectl get … -o json|yaml` output, a `kubectl cluster-info
    /// dump` directory or its stdout, or any directory of those (read recursively). Repeatable;
    /// `-` reads standard input. Pasted text works too (`pbpaste | kubewhy scan --from -`):
    /// `kubectl describe` of pods, nodes, namespaces, claims and workloads, `kubectl get
    /// pods|events|nodes` tables, a `status:` stanza, event messages, kubelet log lines; what the
    /// paste lacks lowers the confidence and is named with the command that would settle it.
    #[arg(long = "from", value_name = "PATH")]
    from: Vec<PathBuf>,

    /// Diagnose the bundled demo snapshot (a real 1.20 cluster with broken workloads).
    #[arg(long, conflicts_with = "from")]
    demo: bool,

    /// Without --from: the kubeconfig file to use (default: KUBECONFIG, ~/.kube/config, or the
    /// in-cluster service account).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["from", "demo"])]
    kubeconfig: Option<PathBuf>,

    /// Without --from: the kubeconfig context to use.
    #[arg(long, value_name = "NAME", conflicts_with_all = ["from", "demo"])]
    context: Option<String>,

    /// Judge the snapshot as of this time (RFC 3339). Default: now for a live cluster; for offline
    /// data the newest timestamp in it, so a dump read next week is not called a week older.
    #[arg(long, value_name = "RFC3339")]
    now: Option<String>,

    /// Only report objects in this namespace (repeatable). On a live cluster the default is the
    /// context's namespace, like kubectl; offline it is all namespaces.
    #[arg(
        short,
        long,
        value_name = "NAMESPACE",
        conflicts_with = "all_namespaces"
    )]
    namespace: Vec<String>,

    /// Report objects in all namespaces (always the case offline).
    #[arg(short = 'A', long)]
    all_namespaces: bool,

    /// Only report objects whose labels match this selector (`app=web,tier!=db`, `env in (a,b)`).
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    selector: Option<String>,

    /// Evidence from a node: `kubewhy node-collect` bundles, or what you copied off it —
    /// `journalctl -u kubelet|containerd|docker` (any format), /var/log/messages, klog lines,
    /// `dmesg`, `docker ps -a`, `crictl ps -a`, `crictl pods`, `ctr -n k8s.io|moby task ls`.
    /// A file or directory; repeatable (one per node). Lines are tied to pods by UID, container
    /// or sandbox ID, or namespace/name, and become evidence on their findings.
    #[arg(long = "node-logs", value_name = "PATH")]
    node_logs: Vec<PathBuf>,

    /// Treat any input problem (malformed file, unreadable path) as fatal (exit 2).
    #[arg(long)]
    strict: bool,
}

#[derive(Args)]
struct FixArgs {
    /// What to repair: `pod NAME` or `ns NAME` (also `namespace NAME`).
    #[arg(value_name = "KIND NAME", num_args = 0..=2, required_unless_present_any = ["plan", "undo"])]
    subject: Vec<String>,

    /// The pod's namespace (default: the context's namespace).
    #[arg(short, long, value_name = "NAMESPACE")]
    namespace: Option<String>,

    /// The kubeconfig file to use (default: KUBECONFIG, ~/.kube/config, or in-cluster).
    #[arg(long, value_name = "PATH")]
    kubeconfig: Option<PathBuf>,

    /// The kubeconfig context to use.
    #[arg(long, value_name = "NAME")]
    context: Option<String>,

    /// Carry out the plan (server-side dry run first, backups, resourceVersion preconditions).
    #[arg(long)]
    apply: bool,

    /// Also plan the steps that need insisting on (see above). Never unlocks force-deleting
    /// StatefulSet or ReadWriteOnce pods whose node still exists.
    #[arg(long)]
    force: bool,

    /// Where --apply saves the objects before changing them (default:
    /// ./kubewhy-backup-<UTC time>).
    #[arg(long, value_name = "DIR")]
    backup_dir: Option<PathBuf>,

    /// Write the plan as JSON to FILE (to review, then apply with --plan FILE --apply).
    #[arg(long, value_name = "FILE")]
    save_plan: Option<PathBuf>,

    /// Use a plan saved with --save-plan instead of making one; its resourceVersions are the
    /// preconditions, so an object changed since refuses the whole plan.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["subject", "force", "save_plan"])]
    plan: Option<PathBuf>,

    /// Restore what can be restored from a backup directory written by --apply.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["subject", "apply", "force", "plan", "save_plan"])]
    undo: Option<PathBuf>,

    /// After --apply, wait this many seconds for the pod or namespace to go away.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    wait: u64,

    /// Output format.
    #[arg(short, long, value_enum, default_value_t = FixFormat::Text)]
    output: FixFormat,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum FixFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum OutputFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum)]
enum CausesFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
enum FailOn {
    Info,
    Warning,
    Error,
    Critical,
    /// Never exit 1 because of findings.
    Never,
}

fn main() -> ExitCode {
    // Installed as `kubectl-why`, kubectl runs it as a plugin: `kubectl why pod web-1 -n shop`.
    let plugin = std::env::args_os()
        .next()
        .and_then(|a| {
            PathBuf::from(a)
                .file_name()
                .map(|f| f.to_string_lossy().starts_with("kubectl-why"))
        })
        .unwrap_or(false);
    let mut cmd = <Cli as clap::CommandFactory>::command();
    let mut args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if plugin {
        cmd = cmd.bin_name("kubectl why");
        // A plugin does its main job with kubectl's own flags: `kubectl why`, `kubectl why -A`,
        // `kubectl why -n shop --context prod` scan.
        let first = args.get(1).map(|a| a.to_string_lossy().into_owned());
        match first.as_deref() {
            None => args.push("scan".into()),
            Some("-h" | "--help" | "-V" | "--version") => {}
            Some(f) if f.starts_with('-') => args.insert(1, "scan".into()),
            _ => {}
        }
    }
    let cli = match <Cli as clap::FromArgMatches>::from_arg_matches(&cmd.get_matches_from(args)) {
        Ok(c) => c,
        Err(e) => e.exit(),
    };
    match run(cli) {
        Ok(code) => ExitCode::from(code),
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Errors can carry what the cluster or an input said (API messages, file names).
            let e = kubewhy_report::sanitize(&format!("{e:#}"));
            let _ = writeln!(anstream::stderr(), "kubewhy: error: {e}");
            ExitCode::from(2)
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

fn run(cli: Cli) -> Result<u8> {
    match cli.command {
        Command::Scan(args) => scan(args, Target::All),
        Command::Pod { name, scan: args } => scan(args, Target::Pod(name)),
        Command::Ns {
            name,
            scan: mut args,
        } => {
            args.src.namespace = vec![name.clone()];
            args.src.all_namespaces = false;
            scan(args, Target::Namespace(name))
        }
        Command::Completions { shell } => {
            let mut cmd = <Cli as clap::CommandFactory>::command();
            clap_complete::generate(shell, &mut cmd, "kubewhy", &mut std::io::stdout());
            Ok(0)
        }
        Command::Fix(args) => fix::run(args),
        Command::Gone(args) => gone::run(args),
        Command::Watch(args) => watch::run(args),
        Command::NodeCollect(args) => collect::run(args),
        Command::Explain { cause } => explain(&cause),
        Command::Causes { output } => causes(output),
    }
}

/// What the user asked about.
enum Target {
    All,
    Pod(String),
    Namespace(String),
}

/// The data a command reads, loaded: a live cluster, files, or the demo.
struct Source {
    loaded: kubewhy_source::Loaded,
    /// The namespaces read (live: the context's, `-n`, or all).
    scope_namespaces: Vec<String>,
    rt: Option<tokio::runtime::Runtime>,
    live_opts: kubewhy_live::LiveOptions,
}

/// Loads the snapshot `args` name, printing input warnings to stderr.
fn load_source(args: &SourceArgs, focus: Vec<String>) -> Result<Source> {
    let now = match &args.now {
        Some(s) => Some(s.parse::<jiff::Timestamp>().with_context(|| {
            format!("--now {s:?} is not an RFC 3339 time (e.g. 2026-11-22T10:00:00Z)")
        })?),
        None => None,
    };
    let live = !args.demo && args.from.is_empty();
    let live_opts = kubewhy_live::LiveOptions {
        kubeconfig: args.kubeconfig.clone(),
        context: args.context.clone(),
        namespaces: args.namespace.clone(),
        all_namespaces: args.all_namespaces,
        focus,
        progress: None,
    };
    let rt = if live {
        Some(
            tokio::runtime::Builder::new_multi_thread()
                .enable_all()
                .build()?,
        )
    } else {
        None
    };
    let mut live_problems = Vec::new();
    // A live read that listed anything succeeded, even when what it may read is empty.
    let mut listed_something = false;
    let mut scope_namespaces = args.namespace.clone();
    let inputs: Vec<Input> = if args.demo {
        vec![Input::Text {
            name: "demo/cluster-dump.json".into(),
            text: DEMO.into(),
        }]
    } else if let Some(rt) = &rt {
        let fetched = with_progress(&live_opts, |opts| rt.block_on(kubewhy_live::fetch(opts)))
            .map_err(|e| match e {
                // Not a reachability problem: offline data would not help.
                kubewhy_live::LiveError::Rejected { .. } => anyhow::anyhow!("{e}"),
                e => anyhow::anyhow!(
                    "{e}. To diagnose offline data instead, pass --from PATH (or --demo)."
                ),
            })?;
        live_problems = fetched.problems;
        listed_something = !fetched.pages.is_empty();
        // Report exactly what was read: the context's namespace unless -n or -A said otherwise.
        scope_namespaces = fetched.namespaces;
        fetched
            .pages
            .into_iter()
            .map(|(name, text)| Input::Text { name, text })
            .collect()
    } else {
        args.from.iter().cloned().map(Input::Path).collect()
    };

    // A live cluster is judged as of now; offline data as of its newest timestamp (see --now).
    let now = match now {
        None if live => Some(jiff::Timestamp::now()),
        n => n,
    };
    let mut loaded = kubewhy_source::load_owned(inputs, now);
    for path in &args.node_logs {
        let bundle =
            kubewhy_source::read_node_logs(path, loaded.snapshot.now, &mut loaded.warnings);
        // Offline data is judged as of its newest timestamp: node evidence is data too.
        if args.now.is_none() && !live {
            let newest = bundle
                .lines
                .iter()
                .filter_map(|l| l.time)
                .chain(bundle.collected)
                .max();
            if let Some(t) = newest
                && loaded.snapshot.now.is_none_or(|n| n < t)
            {
                loaded.snapshot.now = Some(t);
            }
        }
        node_summary(&bundle)?;
        loaded.snapshot.node.bundles.push(bundle);
    }
    // Live: the kubelet settings of the nodes the rate-limit check would judge (a few requests,
    // only when a node is busy or a pod's status lags).
    if let Some(rt) = &rt {
        let nodes = kubewhy_rules::configz_candidates(&loaded.snapshot, kubewhy_live::MAX_CONFIGZ);
        if !nodes.is_empty() {
            let (settings, mut problems) =
                rt.block_on(kubewhy_live::kubelet_configz(&live_opts, &nodes));
            loaded.snapshot.node.configz = settings;
            loaded.warnings.append(&mut problems);
        }
    }
    live_problems.append(&mut loaded.warnings);
    loaded.warnings = live_problems;
    let mut err = anstream::stderr();
    for w in &loaded.warnings {
        writeln!(
            err,
            "kubewhy: warning: {}",
            kubewhy_report::sanitize(&w.to_string())
        )?;
    }
    let others: Vec<(&String, &usize)> =
        loaded.other_kinds.iter().filter(|(_, n)| **n > 0).collect();
    if !others.is_empty() {
        let total: usize = others.iter().map(|(_, n)| **n).sum();
        let kinds: Vec<String> = others
            .iter()
            .map(|(k, n)| format!("{} ({n})", kubewhy_report::sanitize(k)))
            .collect();
        writeln!(
            err,
            "kubewhy: note: {total} object(s) of kinds without checks of their own were kept for the namespace checks: {}",
            kinds.join(", ")
        )?;
    }
    if args.strict && !loaded.warnings.is_empty() {
        bail!(
            "{} input problem(s) and --strict was given",
            loaded.warnings.len()
        );
    }
    if loaded.snapshot.object_count() == 0 && !loaded.warnings.is_empty() && !listed_something {
        // Pasted text is read best effort: text kubewhy does not know is a note, not a failure.
        if !loaded.pasted_text {
            bail!("nothing could be read from the input");
        }
        writeln!(
            err,
            "kubewhy: note: nothing in the paste was recognised; kubewhy reads kubectl describe and get output, YAML or JSON objects and stanzas, event messages and node log lines"
        )?;
    } else if loaded.empty {
        writeln!(
            err,
            "kubewhy: note: the input is empty; paste kubectl describe or get output, or pass a dump with --from FILE"
        )?;
    }
    Ok(Source {
        loaded,
        scope_namespaces,
        rt,
        live_opts,
    })
}

/// One line on stderr per `--node-logs` bundle: what was read, and what could not be.
fn node_summary(b: &kubewhy_model::node::NodeBundle) -> Result<()> {
    let mut err = anstream::stderr();
    let node = match (&b.node, &b.hostname) {
        (Some(n), _) => format!("node {n}"),
        (None, Some(h)) => format!("host {h}"),
        (None, None) => {
            "node not named (lines are tied to nodes by their host names and pods)".into()
        }
    };
    let mut parts = vec![
        node,
        format!("{} lines read, {} that matter", b.lines_read, b.lines.len()),
    ];
    if !b.lists.is_empty() {
        parts.push(format!("lists: {}", b.lists.join(", ")));
    }
    writeln!(
        err,
        "kubewhy: note: node evidence {}: {}",
        kubewhy_report::sanitize(&b.origin),
        kubewhy_report::sanitize(&parts.join("; "))
    )?;
    for n in &b.notes {
        writeln!(
            err,
            "kubewhy: note: {}: not collected: {}",
            kubewhy_report::sanitize(&b.origin),
            kubewhy_report::sanitize(n)
        )?;
    }
    Ok(())
}

/// Runs a live read with a progress bar on stderr: only when stderr is a terminal, and only once
/// the read has taken a second (a quick scan stays silent).
pub(crate) fn with_progress<T>(
    opts: &kubewhy_live::LiveOptions,
    read: impl FnOnce(&kubewhy_live::LiveOptions) -> T,
) -> T {
    use std::io::IsTerminal;
    use std::sync::atomic::{AtomicBool, Ordering};
    if !std::io::stderr().is_terminal() {
        return read(opts);
    }
    let progress = std::sync::Arc::new(kubewhy_live::Progress::default());
    let opts = kubewhy_live::LiveOptions {
        progress: Some(progress.clone()),
        ..opts.clone()
    };
    let stop = std::sync::Arc::new(AtomicBool::new(false));
    let ui = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let started = std::time::Instant::now();
            let mut bar: Option<indicatif::ProgressBar> = None;
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(std::time::Duration::from_millis(100));
                if started.elapsed() < std::time::Duration::from_secs(1) {
                    continue;
                }
                let b = bar.get_or_insert_with(|| {
                    let b = indicatif::ProgressBar::with_draw_target(
                        None,
                        indicatif::ProgressDrawTarget::stderr(),
                    );
                    b.set_style(
                        indicatif::ProgressStyle::with_template(
                            "{spinner} reading the cluster: {pos}/{len} lists, {msg} [{elapsed}]",
                        )
                        .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
                    );
                    b
                });
                b.set_length(progress.lists.load(Ordering::Relaxed).into());
                b.set_position(progress.lists_done.load(Ordering::Relaxed).into());
                b.set_message(format!("{} pages", progress.pages.load(Ordering::Relaxed)));
                b.tick();
            }
            if let Some(b) = bar {
                b.finish_and_clear();
            }
        })
    };
    let out = read(&opts);
    stop.store(true, Ordering::Relaxed);
    let _ = ui.join();
    out
}

fn scan(args: ScanArgs, target: Target) -> Result<u8> {
    let selector = match &args.src.selector {
        Some(s) => Some(
            kubewhy_model::selector::Selector::parse(s).map_err(|e| anyhow::anyhow!("-l: {e}"))?,
        ),
        None => None,
    };
    let focus = match &target {
        Target::Namespace(n) => vec![n.clone()],
        _ => Vec::new(),
    };
    let Source {
        mut loaded,
        mut scope_namespaces,
        rt,
        live_opts,
    } = load_source(&args.src, focus)?;
    let mut err = anstream::stderr();
    let snap = &loaded.snapshot;

    match &target {
        Target::Pod(name) => {
            let homes: Vec<&str> = snap
                .pods
                .iter()
                .filter(|p| p.metadata.name == *name)
                .map(|p| p.metadata.ns())
                .filter(|ns| {
                    scope_namespaces.is_empty() || scope_namespaces.iter().any(|n| n == ns)
                })
                .collect();
            match homes.as_slice() {
                [] if scope_namespaces.is_empty() => bail!("pod {name:?} not found"),
                [] => bail!(
                    "pod {name:?} not found in namespace {}",
                    scope_namespaces.join(", ")
                ),
                [one] => scope_namespaces = vec![one.to_string()],
                many => bail!(
                    "pod {name:?} exists in namespaces {}: choose one with -n",
                    many.join(", ")
                ),
            }
        }
        Target::Namespace(name)
            if snap.kinds_loaded.contains_key("Namespace") && snap.namespace(name).is_none() =>
        {
            bail!("namespace {name:?} not found")
        }
        Target::Namespace(name)
            if !snap.kinds_loaded.contains_key("Namespace")
                && snap.objects_in_namespace(name).is_empty()
                && !loaded.pasted_text =>
        {
            bail!(
                "namespace {name:?} is not in the data: it holds no Namespace objects and nothing in {name:?} (add `kubectl get namespace {name} -o json`)"
            )
        }
        _ => {}
    }
    // What the data cannot show, said where the answer is read: a cluster-info dump holds no
    // Namespace objects, a namespace-scoped read no Nodes.
    // (Live, what may not be read is said once by the permissions summary.)
    if !loaded.pasted_text && rt.is_none() {
        for note in absent_kinds(snap, &target) {
            writeln!(err, "kubewhy: note: {note}")?;
        }
    }
    // One pod, live: the previous run of each crashed container, when the data has no log of
    // it (the tail is what explains an exit; bounded in bytes).
    if let (Some(rt), Target::Pod(name), [ns]) = (&rt, &target, scope_namespaces.as_slice()) {
        let crashed: Vec<String> = snap
            .pods
            .iter()
            .filter(|p| p.metadata.name == *name && p.metadata.ns() == ns)
            .flat_map(|p| {
                p.status
                    .init_container_statuses
                    .iter()
                    .chain(&p.status.container_statuses)
            })
            .filter(|c| c.restart_count > 0 && c.last_state.terminated.is_some())
            .filter(|c| snap.logs_for(ns, name, &c.name).is_none())
            .map(|c| c.name.to_string())
            .collect();
        if !crashed.is_empty() {
            let fetched = rt.block_on(previous_logs(&live_opts, ns, name, &crashed));
            for problem in fetched.1 {
                writeln!(
                    err,
                    "kubewhy: warning: {}",
                    kubewhy_report::sanitize(&problem)
                )?;
            }
            let ns = ns.clone();
            loaded
                .snapshot
                .logs
                .extend(fetched.0.into_iter().map(|(container, text, previous)| {
                    kubewhy_model::objects::ContainerLog {
                        namespace: ns.clone(),
                        pod: name.clone(),
                        origin: if previous {
                            format!("kubectl logs {name} -n {ns} -c {container} --previous")
                        } else {
                            format!("kubectl logs {name} -n {ns} -c {container} (the current run: the previous run's log is gone)")
                        },
                        container,
                        tail: kubewhy_source::log_tail(&text),
                    }
                }));
        }
    }
    loaded.snapshot.gc_threshold = args.gc_threshold;
    let snap = &loaded.snapshot;
    let mut diagnosis = kubewhy_rules::diagnose(snap);
    let scope = kubewhy_rules::Scope {
        namespaces: scope_namespaces,
        selector,
        object: match &target {
            Target::Pod(name) => Some(("Pod".to_string(), name.clone())),
            _ => None,
        },
    };
    diagnosis.retain_scope(snap, &scope);
    if loaded.pasted_text
        && snap.object_count() > 0
        && diagnosis.findings.is_empty()
        && diagnosis.unexplained.is_empty()
    {
        writeln!(
            anstream::stderr(),
            "kubewhy: note: the paste shows nothing unhealthy ({} object(s) read); for a pod that is stuck, paste `kubectl describe pod NAME -n NAMESPACE`, or its namespace's `kubectl get events`",
            snap.object_count()
        )?;
    }

    let report = Report {
        findings: &diagnosis.findings,
        unexplained: &diagnosis.unexplained,
        warnings: &loaded.warnings,
        snapshot: SnapshotInfo {
            now: snap.now.map(|t| t.to_string()),
            files: loaded.files_read,
            objects: snap.object_count(),
            kinds: snap.kinds_loaded.clone(),
            live: rt.is_some(),
        },
        summary_only: args.summary,
    };
    let format = match args.output {
        OutputFormat::Text => Format::Text,
        OutputFormat::Json => Format::Json,
        OutputFormat::Markdown => Format::Markdown,
    };
    if matches!(format, Format::Text) {
        let mut out = anstream::stdout();
        kubewhy_report::write(&report, format, &mut out)?;
        out.flush()?;
    } else {
        let mut out = std::io::BufWriter::new(std::io::stdout().lock());
        kubewhy_report::write(&report, format, &mut out)?;
        out.flush()?;
    }

    let threshold = match args.fail_on {
        FailOn::Info => Some(Severity::Info),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Error => Some(Severity::Error),
        FailOn::Critical => Some(Severity::Critical),
        FailOn::Never => None,
    };
    let failed = match (threshold, kubewhy_report::worst(&diagnosis.findings)) {
        (Some(t), Some(w)) => w >= t,
        _ => false,
    };
    // The process ends next: freeing a large snapshot object by object (150,000 pods) would
    // take longer than leaving it to the exit.
    std::mem::forget(loaded);
    Ok(if failed { 1 } else { 0 })
}

/// What the data lacks to see a problem, for the kinds a check needs: each note says what could
/// not be judged and the command that would fetch it.
fn absent_kinds(snap: &kubewhy_model::Snapshot, target: &Target) -> Vec<String> {
    let mut notes = Vec::new();
    if snap.object_count() == 0 {
        return notes;
    }
    if !snap.kinds_loaded.contains_key("Namespace") {
        let what = match target {
            Target::Namespace(n) => format!("whether namespace {n} is being deleted"),
            _ => "namespaces stuck Terminating".to_string(),
        };
        let get = match target {
            Target::Namespace(n) => format!("kubectl get namespace {n} -o json"),
            _ => "kubectl get namespaces -o json".to_string(),
        };
        notes.push(format!(
            "the data holds no Namespace objects (a `kubectl cluster-info dump` has none), so {what} cannot be judged; add `{get}` to the input"
        ));
    }
    let pending = snap
        .pods
        .iter()
        .any(|p| p.status.phase == "Pending" && p.spec.node_name.is_none());
    if pending && !snap.nodes_known() {
        notes.push(
            "the data holds no Node objects, so why a Pending pod fits no node is judged from the scheduler's own messages only; add `kubectl get nodes -o json` to the input"
                .to_string(),
        );
    }
    notes
}

/// The previous run's log of each container (bounded; the current run's when the previous one's
/// is gone), whether it is the previous run's, and the problems met (as warnings: a missing log
/// never stops the diagnosis).
async fn previous_logs(
    opts: &kubewhy_live::LiveOptions,
    ns: &str,
    pod: &str,
    containers: &[String],
) -> (Vec<(String, String, bool)>, Vec<String>) {
    let client = match kubewhy_live::client(opts).await {
        Ok(c) => c,
        Err(e) => return (Vec::new(), vec![format!("previous logs of pod {pod}: {e}")]),
    };
    let (mut logs, mut problems) = (Vec::new(), Vec::new());
    let max = kubewhy_live::PREVIOUS_LOG_BYTES;
    for c in containers {
        match kubewhy_live::previous_log_with(&client, ns, pod, c, max).await {
            Ok(Some(text)) => logs.push((c.clone(), text, true)),
            // The previous run's log is gone (the dead container was removed): the current
            // run's, if it has written any, says the same thing more often than not.
            Ok(None) => {
                if let Ok(Some(text)) = kubewhy_live::current_log_with(&client, ns, pod, c, max).await {
                    logs.push((c.clone(), text, false));
                }
            }
            Err(e) => problems.push(format!(
                "previous log of container {c} of pod {ns}/{pod} (needs permission to get pods/log): {e}"
            )),
        }
    }
    (logs, problems)
}

fn explain(key: &str) -> Result<u8> {
    let Some(cause) = Cause::lookup(key) else {
        let close: Vec<&str> = Cause::ALL
            .iter()
            .map(|c| c.slug())
            .filter(|s| {
                s.contains(&key.to_ascii_lowercase()) || key.to_ascii_lowercase().contains(s)
            })
            .collect();
        let hint = if close.is_empty() {
            "run `kubewhy causes` for the list".to_string()
        } else {
            format!("did you mean: {}?", close.join(", "))
        };
        bail!("unknown cause {key:?}; {hint}");
    };
    let mut out = anstream::stdout();
    match kubewhy_rules::catalogue::page(cause) {
        Some(page) => out.write_all(page.as_bytes())?,
        None => writeln!(
            out,
            "# {} ({})\n\n{}.\n\nFamily: {}.\n\nkubewhy does not detect this cause yet; it is part of the catalogue so that reports and scripts share one vocabulary.",
            cause.slug(),
            cause.code(),
            cause.meaning(),
            cause.family().title()
        )?,
    }
    out.flush()?;
    Ok(0)
}

fn causes(format: CausesFormat) -> Result<u8> {
    let detected = kubewhy_rules::emitted_causes();
    let mut out = std::io::stdout().lock();
    match format {
        CausesFormat::Json => {
            let v: Vec<serde_json::Value> = Cause::ALL
                .iter()
                .map(|c| {
                    serde_json::json!({
                        "slug": c.slug(), "code": c.code(), "family": c.family(),
                        "meaning": c.meaning(), "detected": detected.contains(c),
                    })
                })
                .collect();
            writeln!(out, "{}", serde_json::to_string_pretty(&v)?)?;
        }
        CausesFormat::Text => {
            let mut family = None;
            for c in Cause::ALL {
                if family != Some(c.family()) {
                    family = Some(c.family());
                    writeln!(out, "\n{}", c.family().title())?;
                }
                let mark = if detected.contains(c) { "●" } else { "○" };
                writeln!(
                    out,
                    "  {mark} {:<6} {:<32} {}",
                    c.code(),
                    c.slug(),
                    c.meaning()
                )?;
            }
            writeln!(
                out,
                "\n● detected by this version   ○ in the catalogue, not detected yet\nMore on one: kubewhy explain <slug|code>"
            )?;
        }
    }
    out.flush()?;
    Ok(0)
}
