//! `kubewhy scan`, `pod` and `ns`: load, narrow to what was asked, diagnose, report, exit code.

use crate::cli::{FailOn, OutputFormat, ScanArgs};
use crate::source::{Source, Target, load_source};
use anyhow::{Result, bail};
use kubewhy_model::Severity;
use kubewhy_report::{Format, Report, SnapshotInfo};
use std::io::Write;

pub(crate) fn scan(args: ScanArgs, target: Target) -> Result<u8> {
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
    find_target(&loaded, &target, &mut scope_namespaces)?;
    // What the data cannot show, said where the answer is read: a cluster-info dump holds no
    // Namespace objects, a namespace-scoped read no Nodes.
    // (Live, what may not be read is said once by the permissions summary.)
    if !loaded.pasted_text && rt.is_none() {
        for note in absent_kinds(&loaded.snapshot, &target) {
            writeln!(err, "kubewhy: note: {note}")?;
        }
    }
    // One pod, live: the previous run of each crashed container, when the data has no log of
    // it (the tail is what explains an exit; bounded in bytes).
    if let (Some(rt), Target::Pod(name), [ns]) = (&rt, &target, scope_namespaces.as_slice()) {
        add_previous_logs(rt, &live_opts, &mut loaded, ns, name)?;
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
    write_report(&args, &loaded, &diagnosis, rt.is_some())?;
    let failed = match (
        threshold(args.fail_on),
        kubewhy_report::worst(&diagnosis.findings),
    ) {
        (Some(t), Some(w)) => w >= t,
        _ => false,
    };
    // The process ends next: freeing a large snapshot object by object (150,000 pods) would
    // take longer than leaving it to the exit.
    std::mem::forget(loaded);
    Ok(if failed { 1 } else { 0 })
}

/// Checks that what was asked about is in the data; for one pod, narrows the scope to its
/// namespace.
fn find_target(
    loaded: &kubewhy_source::Loaded,
    target: &Target,
    scope_namespaces: &mut Vec<String>,
) -> Result<()> {
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
                [one] => *scope_namespaces = vec![one.to_string()],
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
    Ok(())
}

/// Fetches the previous run's log of each crashed container of pod `ns/name` that the data
/// lacks, and adds it to the snapshot.
fn add_previous_logs(
    rt: &tokio::runtime::Runtime,
    live_opts: &kubewhy_live::LiveOptions,
    loaded: &mut kubewhy_source::Loaded,
    ns: &str,
    name: &str,
) -> Result<()> {
    let crashed = loaded.snapshot.crashed_without_logs(ns, name);
    if crashed.is_empty() {
        return Ok(());
    }
    let mut err = anstream::stderr();
    let fetched = rt.block_on(previous_logs(live_opts, ns, name, &crashed));
    for problem in fetched.1 {
        writeln!(
            err,
            "kubewhy: warning: {}",
            kubewhy_report::sanitize(&problem)
        )?;
    }
    loaded
        .snapshot
        .logs
        .extend(fetched.0.into_iter().map(|(container, text, previous)| {
            kubewhy_model::objects::ContainerLog {
                namespace: ns.to_string(),
                pod: name.to_string(),
                origin: if previous {
                    format!("kubectl logs {name} -n {ns} -c {container} --previous")
                } else {
                    format!("kubectl logs {name} -n {ns} -c {container} (the current run: the previous run's log is gone)")
                },
                container,
                tail: kubewhy_source::log_tail(&text),
            }
        }));
    Ok(())
}

/// Prints the report in the format asked for.
fn write_report(
    args: &ScanArgs,
    loaded: &kubewhy_source::Loaded,
    diagnosis: &kubewhy_rules::Diagnosis,
    live: bool,
) -> Result<()> {
    let snap = &loaded.snapshot;
    let report = Report {
        findings: &diagnosis.findings,
        unexplained: &diagnosis.unexplained,
        warnings: &loaded.warnings,
        snapshot: SnapshotInfo::of(snap, loaded.files_read, live),
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
    Ok(())
}

/// The least severity that fails the run (`--fail-on`).
fn threshold(fail_on: FailOn) -> Option<Severity> {
    match fail_on {
        FailOn::Info => Some(Severity::Info),
        FailOn::Warning => Some(Severity::Warning),
        FailOn::Error => Some(Severity::Error),
        FailOn::Critical => Some(Severity::Critical),
        FailOn::Never => None,
    }
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
