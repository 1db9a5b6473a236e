//! `kubewhy node-collect`: its arguments and output; the gathering is `kubewhy-collect`'s.

use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;

pub(crate) const COLLECT_LONG: &str = "Gathers what only the node shows, for `kubewhy scan --node-logs`: the kubelet's, the container runtime's and the kernel's recent logs, the runtime's container, sandbox and task lists (crictl, ctr, docker), the mounts still under the kubelet's pods directory, pod directories and pod cgroups on disk, processes stuck in state Z or D with their cgroups, static pod manifests (names and images only) and the kubelet's rate-limit settings.

It only reads. Each part is capped (--max-mib for logs); a missing tool, a missing permission or a runtime that does not answer within 20 s is noted in the bundle and the rest is still gathered. Log lines pass through a redactor (tokens, passwords, keys); no process environment is read.

The kubelet is found through /proc: its flags give the node name, its root directory, its configuration file, the runtime's socket and, when it logs to a file rather than the journal, that file.";

pub(crate) const COLLECT_AFTER: &str = "Examples:
  sudo kubewhy node-collect --out /tmp/node-1                 on the node itself
  kubewhy scan --from dump --node-logs /tmp/node-1           diagnose with it

  In a debug pod (kubectl with `debug --custom`, tested with 1.37), the node's
  filesystem at /host, the bundle read back as the pod's log:
  echo '{\"securityContext\":{\"runAsUser\":0,\"runAsGroup\":0}}' > root.json
  kubectl debug node/node-1 --profile=sysadmin --custom=root.json --image=IMAGE \\
      -- /kubewhy node-collect --root /host --max-mib 2 --out -
  kubectl wait --for=jsonpath='{.status.phase}'=Succeeded pod/node-debugger-node-1-xxxxx
  kubectl logs node-debugger-node-1-xxxxx > node-1.txt
  kubewhy scan -A --node-logs node-1.txt                      (live cluster, plus the node's evidence)";

#[derive(Args)]
pub(crate) struct CollectArgs {
    /// Where to write the bundle: a directory (created; one file per part), or `-` for one text
    /// stream on stdout. Default: ./kubewhy-node-<node>-<UTC time>.
    #[arg(long, short, value_name = "DIR|-")]
    out: Option<PathBuf>,

    /// The node's root filesystem, when not `/` (in a `kubectl debug node/…` pod: /host).
    /// Commands then run chrooted into it.
    #[arg(long, value_name = "PATH", default_value = "/")]
    root: PathBuf,

    /// The node's name (default: the kubelet's --hostname-override, else the host name).
    #[arg(long, value_name = "NAME")]
    node: Option<String>,

    /// How far back the journal parts go (journalctl --since).
    #[arg(long, value_name = "TIME", default_value = "-2h")]
    since: String,

    /// Largest log part, in MiB (the most recent lines are kept).
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    max_mib: u64,

    /// The kubelet's log file, when it does not log to the journal or a file kubewhy finds.
    #[arg(long, value_name = "FILE")]
    kubelet_log: Option<PathBuf>,

    /// The container runtime's log file (containerd or dockerd), likewise.
    #[arg(long, value_name = "FILE")]
    runtime_log: Option<PathBuf>,
}

pub(crate) fn run(args: CollectArgs) -> Result<u8> {
    let opts = kubewhy_collect::Options {
        root: args.root.clone(),
        node: args.node.clone(),
        since: args.since.clone(),
        max_bytes: args.max_mib.max(1) * 1024 * 1024,
        kubelet_log: args.kubelet_log.clone(),
        runtime_log: args.runtime_log.clone(),
        ..Default::default()
    };
    let bundle = kubewhy_collect::collect(&opts, &mut kubewhy_collect::System);
    let out = args.out.clone().unwrap_or_else(|| bundle.default_dir());
    if out.as_os_str() == "-" {
        bundle.write_stream(&mut std::io::stdout().lock())?;
    } else {
        bundle.write_dir(&out).map_err(anyhow::Error::msg)?;
    }
    let mut err = anstream::stderr();
    for n in &bundle.notes {
        writeln!(err, "kubewhy: note: {}", kubewhy_report::sanitize(n))?;
    }
    if out.as_os_str() != "-" {
        writeln!(
            err,
            "kubewhy: node {}: {} parts, {} KiB in {} (read it with --node-logs {})",
            bundle.node,
            bundle.parts.len(),
            bundle.bytes() / 1024,
            out.display(),
            out.display()
        )?;
    }
    Ok(0)
}
