//! The command line: every subcommand's arguments and their help (clap derive). What the flags
//! mean is here; what they do is in `scan.rs`, `source.rs` and the subcommand modules.

use crate::{collect, gone, mcp, watch};
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "kubewhy",
    version,
    about = "Why is this pod (or namespace) stuck, and what is the safe fix?",
    long_about = "kubewhy reads the state of a Kubernetes cluster and explains every pod or namespace that is \
stuck: one root cause per finding (a stable slug, see `kubewhy causes`), the evidence that proves it, \
every object it affects, and the next steps with their risk. It only reads, except `kubewhy fix … --apply`, which repairs a pod or namespace stuck Terminating after showing its plan.",
    after_help = "Examples:\n  kubewhy scan -A                                  diagnose the current cluster (kubeconfig), all namespaces\n  kubewhy scan -A --summary                        one row per cause: severity, workloads, pods, since\n  kubewhy scan -A --context prod --context stage   several clusters at once (or --all-contexts)\n  kubewhy scan --demo                              diagnose the bundled demo cluster\n  kubectl get pods,events,nodes -A -o json | kubewhy scan --from -\n  kubectl cluster-info dump -A --output-directory=dump && kubewhy scan --from dump\n  kubewhy scan --from dump -n shop -o markdown     a report to paste into a ticket\n  kubewhy pod web-1 -n shop                        why is this one pod stuck?\n  kubewhy ns old-team                              why does this namespace not go away?\n  kubewhy scan -A --node-logs node-1/              with what node-collect gathered on a node\n  kubewhy fix ns old-team                          the plan that repairs it (add --apply to carry it out)\n  kubewhy explain oom-killed                       what a cause means and how to fix it\n  kubewhy mcp --allow-path ~/bundles               serve the diagnoses to an AI assistant (MCP, stdio)\n\nInstalled as kubectl-why on the PATH, it is also `kubectl why pod web-1 -n shop`, and `kubectl why -A` (or bare `kubectl why`) scans."
)]
pub(crate) struct Cli {
    #[command(subcommand)]
    pub(crate) command: Command,
}

#[derive(Subcommand)]
pub(crate) enum Command {
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
    /// Serve kubewhy's diagnoses to AI assistants over the Model Context Protocol (stdio).
    #[command(long_about = mcp::MCP_LONG, after_help = mcp::MCP_AFTER)]
    Mcp(mcp::McpArgs),
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
pub(crate) struct ScanArgs {
    #[command(flatten)]
    pub(crate) src: SourceArgs,

    /// Output format.
    #[arg(short, long, value_enum, default_value_t = OutputFormat::Text)]
    pub(crate) output: OutputFormat,

    /// kube-controller-manager's --terminated-pod-gc-threshold, when no kube-controller-manager
    /// pod in the data shows it (default 12500): terminated pods beyond it are deleted, oldest
    /// first, and kubewhy says which are next.
    #[arg(long, value_name = "N")]
    pub(crate) gc_threshold: Option<usize>,

    /// Only the overview: one row per cause (severity, findings, workloads, pods, namespaces,
    /// since), as the report opens with when its findings do not fit a screen.
    #[arg(long)]
    pub(crate) summary: bool,

    /// Exit with 1 when a finding is at or above this severity.
    #[arg(long, value_enum, default_value_t = FailOn::Warning, value_name = "LEVEL")]
    pub(crate) fail_on: FailOn,
}

/// Where the data comes from and what part of it to look at (shared by scan, pod, ns, gone).
#[derive(Args, Clone)]
pub(crate) struct SourceArgs {
    /// Read the snapshot from PATH: `kubectl get … -o json|yaml` output, a `kubectl cluster-info
    /// dump` directory or its stdout, any directory of those (read recursively), or a support
    /// bundle — troubleshoot.sh or must-gather, extracted or straight from its `.tar.gz`, `.tar`
    /// or `.zip` (containers' logs and node journals included). Repeatable;
    /// `-` reads standard input. Pasted text works too (`pbpaste | kubewhy scan --from -`):
    /// `kubectl describe` of pods, nodes, namespaces, claims and workloads, `kubectl get
    /// pods|events|nodes` tables, a `status:` stanza, event messages, kubelet log lines; what the
    /// paste lacks lowers the confidence and is named with the command that would settle it.
    #[arg(long = "from", value_name = "PATH")]
    pub(crate) from: Vec<PathBuf>,

    /// Diagnose the bundled demo snapshot (a real 1.20 cluster with broken workloads).
    #[arg(long, conflicts_with = "from")]
    pub(crate) demo: bool,

    /// Without --from: the kubeconfig file to use (default: KUBECONFIG, ~/.kube/config, or the
    /// in-cluster service account).
    #[arg(long, value_name = "PATH", conflicts_with_all = ["from", "demo"])]
    pub(crate) kubeconfig: Option<PathBuf>,

    /// Without --from: the kubeconfig context to use. `kubewhy scan` takes it more than once to
    /// scan several clusters at once (a fleet summary first, then each cluster's report).
    #[arg(long, value_name = "NAME", conflicts_with_all = ["from", "demo"])]
    pub(crate) context: Vec<String>,

    /// `kubewhy scan`: every context of the kubeconfig, scanned at once (at most 8 at a time);
    /// a cluster that cannot be read is reported in its row without failing the others.
    #[arg(long, conflicts_with_all = ["from", "demo", "context"])]
    pub(crate) all_contexts: bool,

    /// Judge the snapshot as of this time (RFC 3339). Default: now for a live cluster; for offline
    /// data the newest timestamp in it, so a dump read next week is not called a week older.
    #[arg(long, value_name = "RFC3339")]
    pub(crate) now: Option<String>,

    /// Only report objects in this namespace (repeatable). On a live cluster the default is the
    /// context's namespace, like kubectl; offline it is all namespaces.
    #[arg(
        short,
        long,
        value_name = "NAMESPACE",
        conflicts_with = "all_namespaces"
    )]
    pub(crate) namespace: Vec<String>,

    /// Report objects in all namespaces (always the case offline).
    #[arg(short = 'A', long)]
    pub(crate) all_namespaces: bool,

    /// Only report objects whose labels match this selector (`app=web,tier!=db`, `env in (a,b)`).
    #[arg(short = 'l', long, value_name = "SELECTOR")]
    pub(crate) selector: Option<String>,

    /// Evidence from a node: `kubewhy node-collect` bundles, or what you copied off it —
    /// `journalctl -u kubelet|containerd|docker` (any format), /var/log/messages, klog lines,
    /// `dmesg`, `docker ps -a`, `crictl ps -a`, `crictl pods`, `ctr -n k8s.io|moby task ls`.
    /// A file or directory; repeatable (one per node). Lines are tied to pods by UID, container
    /// or sandbox ID, or namespace/name, and become evidence on their findings.
    #[arg(long = "node-logs", value_name = "PATH")]
    pub(crate) node_logs: Vec<PathBuf>,

    /// Treat any input problem (malformed file, unreadable path) as fatal (exit 2).
    #[arg(long)]
    pub(crate) strict: bool,

    /// Text to read as a paste instead of a path (`kubewhy mcp`'s diagnose_text).
    #[arg(skip)]
    pub(crate) text: Option<String>,

    /// Say nothing on stderr: the caller reports input problems itself (`kubewhy mcp`).
    #[arg(skip)]
    pub(crate) quiet: bool,
}

impl SourceArgs {
    /// The one context a command reads (all but `kubewhy scan` read one cluster).
    pub(crate) fn single_context(&self, command: &str) -> anyhow::Result<Option<String>> {
        if self.all_contexts || self.context.len() > 1 {
            anyhow::bail!(
                "several clusters are read by `kubewhy scan` only; `kubewhy {command}` takes one --context"
            );
        }
        Ok(self.context.first().cloned())
    }

    /// `-l`, parsed.
    pub(crate) fn selector(&self) -> anyhow::Result<Option<kubewhy_model::selector::Selector>> {
        self.selector
            .as_deref()
            .map(|s| {
                kubewhy_model::selector::Selector::parse(s).map_err(|e| anyhow::anyhow!("-l: {e}"))
            })
            .transpose()
    }

    /// `--now`, parsed.
    pub(crate) fn now(&self) -> anyhow::Result<Option<jiff::Timestamp>> {
        use anyhow::Context;
        self.now
            .as_deref()
            .map(|s| {
                s.parse::<jiff::Timestamp>().with_context(|| {
                    format!("--now {s:?} is not an RFC 3339 time (e.g. 2026-11-22T10:00:00Z)")
                })
            })
            .transpose()
    }

    /// Offline data (files, the demo, a text) rather than a live cluster.
    pub(crate) fn is_offline(&self) -> bool {
        self.demo || !self.from.is_empty() || self.text.is_some()
    }
}

#[derive(Args)]
pub(crate) struct FixArgs {
    /// What to repair: `pod NAME` or `ns NAME` (also `namespace NAME`).
    #[arg(value_name = "KIND NAME", num_args = 0..=2, required_unless_present_any = ["plan", "undo"])]
    pub(crate) subject: Vec<String>,

    /// The pod's namespace (default: the context's namespace).
    #[arg(short, long, value_name = "NAMESPACE")]
    pub(crate) namespace: Option<String>,

    /// The kubeconfig file to use (default: KUBECONFIG, ~/.kube/config, or in-cluster).
    #[arg(long, value_name = "PATH")]
    pub(crate) kubeconfig: Option<PathBuf>,

    /// The kubeconfig context to use.
    #[arg(long, value_name = "NAME")]
    pub(crate) context: Option<String>,

    /// Carry out the plan (server-side dry run first, backups, resourceVersion preconditions).
    #[arg(long)]
    pub(crate) apply: bool,

    /// Also plan the steps that need insisting on (see above). Never unlocks force-deleting
    /// StatefulSet or ReadWriteOnce pods whose node still exists.
    #[arg(long)]
    pub(crate) force: bool,

    /// Where --apply saves the objects before changing them (default:
    /// ./kubewhy-backup-<UTC time>).
    #[arg(long, value_name = "DIR")]
    pub(crate) backup_dir: Option<PathBuf>,

    /// Write the plan as JSON to FILE (to review, then apply with --plan FILE --apply).
    #[arg(long, value_name = "FILE")]
    pub(crate) save_plan: Option<PathBuf>,

    /// Use a plan saved with --save-plan instead of making one; its resourceVersions are the
    /// preconditions, so an object changed since refuses the whole plan.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["subject", "force", "save_plan"])]
    pub(crate) plan: Option<PathBuf>,

    /// Restore what can be restored from a backup directory written by --apply.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["subject", "apply", "force", "plan", "save_plan"])]
    pub(crate) undo: Option<PathBuf>,

    /// After --apply, wait this many seconds for the pod or namespace to go away.
    #[arg(long, value_name = "SECONDS", default_value_t = 30)]
    pub(crate) wait: u64,

    /// Output format.
    #[arg(short, long, value_enum, default_value_t = FixFormat::Text)]
    pub(crate) output: FixFormat,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
pub(crate) enum FixFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum OutputFormat {
    Text,
    Json,
    Markdown,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum CausesFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, ValueEnum)]
pub(crate) enum FailOn {
    Info,
    Warning,
    Error,
    Critical,
    /// Never exit 1 because of findings.
    Never,
}
