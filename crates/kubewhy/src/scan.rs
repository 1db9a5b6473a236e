//! `kubewhy scan`, `pod` and `ns`: load, narrow to what was asked, diagnose, report, exit code.

use crate::cli::{FailOn, OutputFormat, ScanArgs};
use crate::source::{Source, Target, load_source};
use anyhow::Result;
use kubewhy_model::Severity;
use kubewhy_report::{Format, Report, SnapshotInfo};
use std::io::Write;

pub(crate) fn scan(args: ScanArgs, target: Target) -> Result<u8> {
    if matches!(target, Target::All) && (args.src.all_contexts || args.src.context.len() > 1) {
        return crate::fleet::scan(args);
    }
    let done = diagnose(&args, &target)?;
    write_report(&args, &done)?;
    let code = exit_code(args.fail_on, &done.diagnosis);
    // The process ends next: freeing a large snapshot object by object (150,000 pods) would
    // take longer than leaving it to the exit.
    std::mem::forget(done);
    Ok(code)
}

/// A diagnosis made and narrowed to what was asked, not yet reported.
pub(crate) struct Diagnosed {
    pub(crate) loaded: kubewhy_source::Loaded,
    pub(crate) diagnosis: kubewhy_rules::Diagnosis,
    pub(crate) live: bool,
}

impl Diagnosed {
    /// What a report of it shows (`summary_only`: the overview alone).
    pub(crate) fn report(&self, summary_only: bool) -> Report<'_> {
        Report {
            findings: &self.diagnosis.findings,
            unexplained: &self.diagnosis.unexplained,
            warnings: &self.loaded.warnings,
            snapshot: SnapshotInfo::of(&self.loaded.snapshot, self.loaded.files_read, self.live),
            summary_only,
        }
    }
}

/// 1 when a finding is at or above `fail_on`, else 0.
pub(crate) fn exit_code(fail_on: FailOn, diagnosis: &kubewhy_rules::Diagnosis) -> u8 {
    match (
        threshold(fail_on),
        kubewhy_report::worst(&diagnosis.findings),
    ) {
        (Some(t), Some(w)) if w >= t => 1,
        _ => 0,
    }
}

/// Loads what `args` name, finds the target, diagnoses and narrows to the scope; notes on
/// stderr unless `args.src.quiet`.
pub(crate) fn diagnose(args: &ScanArgs, target: &Target) -> Result<Diagnosed> {
    let selector = args.src.selector()?;
    let focus = match target {
        Target::Namespace(n) => vec![n.clone()],
        _ => Vec::new(),
    };
    let Source {
        mut loaded,
        mut scope_namespaces,
        rt,
        live_opts,
    } = load_source(&args.src, focus, target.command())?;
    let mut err = crate::source::notes(args.src.quiet);
    find_target(&loaded, target, &mut scope_namespaces)?;
    // What the data cannot show, said where the answer is read: a cluster-info dump holds no
    // Namespace objects, a namespace-scoped read no Nodes.
    // (Live, what may not be read is said once by the permissions summary.)
    if !loaded.pasted_text && rt.is_none() {
        let namespace = match target {
            Target::Namespace(n) => Some(n.as_str()),
            _ => None,
        };
        for note in loaded.cannot_judge(namespace) {
            writeln!(err, "kubewhy: note: {note}")?;
        }
    }
    // One pod, live: the previous run of each crashed container, when the data has no log of
    // it (the tail is what explains an exit; bounded in bytes).
    if let (Some(rt), Target::Pod(name), [ns]) = (&rt, target, scope_namespaces.as_slice()) {
        add_previous_logs(rt, &live_opts, &mut loaded, ns, name, &mut err)?;
    }
    loaded.snapshot.gc_threshold = args.gc_threshold;
    let snap = &loaded.snapshot;
    let mut diagnosis = kubewhy_rules::diagnose(snap);
    let scope = kubewhy_rules::Scope {
        namespaces: scope_namespaces,
        selector,
        object: match target {
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
            err,
            "kubewhy: note: {}",
            nothing_unhealthy_note(snap.object_count())
        )?;
    }
    // The runtime of a live read is dropped here, outside any asynchronous context.
    drop(rt);
    Ok(Diagnosed {
        loaded,
        diagnosis,
        live: !args.src.is_offline(),
    })
}

/// What a paste that shows nothing unhealthy is told.
pub(crate) fn nothing_unhealthy_note(objects: usize) -> String {
    format!(
        "the paste shows nothing unhealthy ({objects} object(s) read); for a pod that is stuck, paste `kubectl describe pod NAME -n NAMESPACE`, or its namespace's `kubectl get events`"
    )
}

/// Checks that what was asked about is in the data; for one pod, narrows the scope to its
/// namespace.
fn find_target(
    loaded: &kubewhy_source::Loaded,
    target: &Target,
    scope_namespaces: &mut Vec<String>,
) -> Result<()> {
    match target {
        Target::Pod(name) => {
            *scope_namespaces = vec![
                loaded
                    .find_pod(name, scope_namespaces)
                    .map_err(anyhow::Error::msg)?,
            ]
        }
        Target::Namespace(name) => loaded.find_namespace(name).map_err(anyhow::Error::msg)?,
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
    err: &mut dyn Write,
) -> Result<()> {
    let crashed = loaded.snapshot.crashed_without_logs(ns, name);
    if crashed.is_empty() {
        return Ok(());
    }
    let (logs, problems) = rt.block_on(kubewhy_live::previous_logs(live_opts, ns, name, &crashed));
    for problem in problems {
        writeln!(
            err,
            "kubewhy: warning: {}",
            kubewhy_report::sanitize(&problem)
        )?;
    }
    loaded.snapshot.logs.extend(logs);
    Ok(())
}

/// Prints the report in the format asked for.
fn write_report(args: &ScanArgs, done: &Diagnosed) -> Result<()> {
    let report = done.report(args.summary);
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
