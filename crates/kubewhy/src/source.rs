//! Loading what a command reads: a live cluster (through `kubewhy-live`), files, pasted text or
//! the demo, plus `--node-logs`; input problems said once on stderr.

use crate::cli::SourceArgs;
use anyhow::{Result, bail};
use kubewhy_source::Input;
use std::io::Write;

/// The demo snapshot: a cluster-info dump of a real Kubernetes 1.20 cluster with broken
/// workloads beside healthy ones (see demo/README.md).
pub(crate) const DEMO: &str = include_str!("../../../demo/cluster-dump.json");

/// What the user asked about.
pub(crate) enum Target {
    All,
    Pod(String),
    Namespace(String),
}

impl Target {
    /// The subcommand that asks this.
    pub(crate) fn command(&self) -> &'static str {
        match self {
            Target::All => "scan",
            Target::Pod(_) => "pod",
            Target::Namespace(_) => "ns",
        }
    }
}

/// The data a command reads, loaded: a live cluster, files, or the demo.
pub(crate) struct Source {
    pub(crate) loaded: kubewhy_source::Loaded,
    /// The namespaces read (live: the context's, `-n`, or all).
    pub(crate) scope_namespaces: Vec<String>,
    pub(crate) rt: Option<tokio::runtime::Runtime>,
    pub(crate) live_opts: kubewhy_live::LiveOptions,
}

/// Loads the snapshot `args` name, printing input warnings to stderr.
pub(crate) fn load_source(args: &SourceArgs, focus: Vec<String>, command: &str) -> Result<Source> {
    let now = args.now()?;
    let live = !args.is_offline();
    let live_opts = kubewhy_live::LiveOptions {
        kubeconfig: args.kubeconfig.clone(),
        context: args.single_context(command)?,
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
    let inputs: Vec<Input> = if let Some(text) = &args.text {
        // Named as standard input is, so that a text is read exactly as `--from -` reads it.
        vec![Input::Text {
            name: "<stdin>".into(),
            text: text.clone(),
        }]
    } else if args.demo {
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
        for line in kubewhy_report::node_bundle_notes(&bundle) {
            writeln!(notes(args.quiet), "kubewhy: note: {line}")?;
        }
        // Offline data is judged as of its newest timestamp, the node's included.
        loaded
            .snapshot
            .add_node_bundle(bundle, args.now.is_none() && !live);
    }
    // Live: the kubelet settings of the nodes the rate-limit check would judge (a few requests,
    // only when a node is busy or a pod's status lags).
    if let Some(rt) = &rt {
        rt.block_on(live_extras(&live_opts, &mut loaded));
    }
    live_problems.append(&mut loaded.warnings);
    loaded.warnings = live_problems;
    say_input_problems(args, &loaded, listed_something)?;
    Ok(Source {
        loaded,
        scope_namespaces,
        rt,
        live_opts,
    })
}

/// What a live read adds once its lists are loaded: the kubelet settings of the nodes the
/// rate-limit check would judge (a few requests, only when a node is busy or a pod's status
/// lags), and — Secrets and ConfigMaps being listed as metadata only — the keys of the few a
/// check needs (referenced by key by a pod that has not started, pull secrets of a pod whose
/// image is not pulled), read one by one. Shared by one cluster's scan and the fleet's.
pub(crate) async fn live_extras(
    opts: &kubewhy_live::LiveOptions,
    loaded: &mut kubewhy_source::Loaded,
) {
    let nodes = kubewhy_rules::configz_candidates(&loaded.snapshot, kubewhy_live::MAX_CONFIGZ);
    if !nodes.is_empty() {
        let (settings, mut problems) = kubewhy_live::kubelet_configz(opts, &nodes).await;
        loaded.snapshot.node.configz = settings;
        loaded.warnings.append(&mut problems);
    }
    let wanted = kubewhy_rules::keys_needed(&loaded.snapshot, kubewhy_live::MAX_KEYED);
    if !wanted.is_empty() {
        let (read, mut problems) = kubewhy_live::read_keys(opts, &wanted).await;
        for (kind, obj) in read {
            loaded.snapshot.keys_read(kind, obj);
        }
        loaded.warnings.append(&mut problems);
    }
}

/// Says on stderr what the input's problems were (each once), which kinds were kept without a
/// check, and an input that held nothing; fails when `--strict` was given and there were
/// problems, or when nothing could be read.
fn say_input_problems(
    args: &SourceArgs,
    loaded: &kubewhy_source::Loaded,
    listed_something: bool,
) -> Result<()> {
    let mut err = notes(args.quiet);
    for b in &loaded.bundles {
        writeln!(err, "kubewhy: {}", kubewhy_report::sanitize(&b.summary()))?;
        for note in b.notes() {
            writeln!(err, "kubewhy: note: {}", kubewhy_report::sanitize(&note))?;
        }
    }
    for w in &loaded.warnings {
        writeln!(
            err,
            "kubewhy: warning: {}",
            kubewhy_report::sanitize(&w.to_string())
        )?;
    }
    if loaded.dropped_fields > 0 {
        let first: Vec<String> = loaded
            .dropped_examples
            .iter()
            .map(|w| kubewhy_report::sanitize(&w.to_string()))
            .collect();
        writeln!(
            err,
            "kubewhy: note: {} field(s) did not fit their type and were repaired or left out, their objects kept (first: {})",
            loaded.dropped_fields,
            first.join("; ")
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
    if loaded.snapshot.object_count() == 0
        && loaded.snapshot.pasted_messages.is_empty()
        && !loaded.warnings.is_empty()
        && !listed_something
    {
        // Pasted text is read best effort: text kubewhy does not know is a note, not a failure.
        if !loaded.pasted_text {
            if args.quiet {
                // Nothing said the problems yet: the error carries the first of them.
                let first: Vec<String> = loaded
                    .warnings
                    .iter()
                    .take(3)
                    .map(|w| kubewhy_report::sanitize(&w.to_string()))
                    .collect();
                bail!("nothing could be read from the input: {}", first.join("; "));
            }
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
    Ok(())
}

/// Where notes and warnings go: stderr, or nowhere for a caller that reports them itself
/// (`kubewhy mcp`, whose answer carries them).
pub(crate) fn notes(quiet: bool) -> Box<dyn Write> {
    if quiet {
        Box::new(std::io::sink())
    } else {
        Box::new(anstream::stderr())
    }
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
