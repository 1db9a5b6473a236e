//! `kubewhy fix`: glue between the live source, the planner (`kubewhy_rules::fix`), the renderer
//! and the writer (`kubewhy_live::write`).

use crate::cli::{FixArgs, FixFormat};
use anyhow::{Context, Result, anyhow};
use kubewhy_model::plan::{Journal, Outcome, Plan, Target};
use kubewhy_rules::fix::{FixOptions, Subject};
use kubewhy_source::Input;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

pub(crate) fn run(args: FixArgs) -> Result<u8> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let opts =
        kubewhy_live::LiveOptions::cluster_wide(args.kubeconfig.clone(), args.context.clone());
    if let Some(dir) = &args.undo {
        return undo(&rt, &opts, dir, args.output);
    }
    let (plan, server) = match &args.plan {
        Some(file) => {
            let text = std::fs::read_to_string(file)
                .with_context(|| format!("cannot read the plan {}", file.display()))?;
            let plan: Plan = serde_json::from_str(&text).with_context(|| {
                format!(
                    "{} is not a plan written by kubewhy fix --save-plan",
                    file.display()
                )
            })?;
            (plan, String::new())
        }
        None => make_plan(&rt, &opts, &args, &mut anstream::stderr())?,
    };
    if let Some(file) = &args.save_plan {
        std::fs::write(file, serde_json::to_string_pretty(&plan)? + "\n")
            .with_context(|| format!("cannot write the plan to {}", file.display()))?;
    }
    let mut out = anstream::stdout();
    if args.output == FixFormat::Text {
        out.write_all(kubewhy_report::plan_text(&plan, args.apply).as_bytes())?;
        if let Some(file) = &args.save_plan {
            writeln!(
                out,
                "Plan saved to {0}; apply it with: kubewhy fix --plan {0} --apply",
                file.display()
            )?;
        }
    }
    if !args.apply || plan.steps.is_empty() {
        if args.output == FixFormat::Json {
            out.write_all(kubewhy_report::fix_json(&plan, None, None).as_bytes())?;
        }
        out.flush()?;
        return Ok(if plan.refused.is_empty() { 0 } else { 1 });
    }

    let backup = args.backup_dir.clone().unwrap_or_else(|| {
        let t = jiff::Timestamp::now()
            .strftime("%Y%m%dT%H%M%SZ")
            .to_string();
        PathBuf::from(format!("kubewhy-backup-{t}"))
    });
    let (journal, gone) = rt.block_on(async {
        let client = kubewhy_live::client(&opts).await?;
        let server = if server.is_empty() {
            "the cluster of the current context".to_string()
        } else {
            server
        };
        let journal = kubewhy_live::write::apply(&client, &plan, &server, &backup).await?;
        let gone = if journal.all_applied() && args.wait > 0 {
            match Target::of_subject(&plan.subject) {
                Some(t) => Some(
                    kubewhy_live::write::wait_gone(&client, &t, Duration::from_secs(args.wait))
                        .await,
                ),
                None => None,
            }
        } else {
            None
        };
        anyhow::Ok((journal, gone))
    })?;
    let backup_s = backup.display().to_string();
    let wrote = journal.entries.iter().any(|e| e.backup.is_some());
    match args.output {
        FixFormat::Text => {
            out.write_all(kubewhy_report::journal_text(&journal, &backup_s).as_bytes())?;
            if let Some(gone) = gone {
                let text = kubewhy_report::waited_text(&plan.subject, gone, args.wait);
                out.write_all(text.as_bytes())?;
            }
        }
        FixFormat::Json => out.write_all(
            kubewhy_report::fix_json(&plan, Some(&journal), wrote.then_some(backup_s.as_str()))
                .as_bytes(),
        )?,
    }
    out.flush()?;
    Ok(if journal.all_applied() && plan.refused.is_empty() {
        0
    } else {
        1
    })
}

/// Reads the cluster (every namespace: confirming a finalizer's controller is gone needs every
/// pod), diagnoses it and plans the repair.
fn make_plan(
    rt: &tokio::runtime::Runtime,
    opts: &kubewhy_live::LiveOptions,
    args: &FixArgs,
    err: &mut dyn Write,
) -> Result<(Plan, String)> {
    let subject = Subject::parse(&args.subject, args.namespace.clone(), || {
        rt.block_on(kubewhy_live::default_namespace(opts))
            .unwrap_or_else(|_| "default".into())
    })
    .map_err(|e| anyhow!(e))?;
    let mut opts = opts.clone();
    if let Subject::Namespace(name) = &subject {
        opts.focus = vec![name.clone()];
    }
    let fetched = crate::source::with_progress(&opts, |o| rt.block_on(kubewhy_live::fetch(o)))
        .map_err(|e| anyhow!("{e}"))?;
    let pods_cluster_wide = !fetched.problems.iter().any(|p| p.file == "live:pods");
    for w in &fetched.problems {
        writeln!(
            err,
            "kubewhy: warning: {}",
            kubewhy_report::sanitize(&w.to_string())
        )?;
    }
    let server = fetched.server.clone();
    let inputs: Vec<Input> = fetched
        .pages
        .into_iter()
        .map(|(name, text)| Input::Text { name, text })
        .collect();
    let loaded = kubewhy_source::load_owned(inputs, Some(jiff::Timestamp::now()));
    let snap = &loaded.snapshot;
    let diagnosis = kubewhy_rules::diagnose(snap);
    let plan = kubewhy_rules::fix::plan(
        snap,
        &diagnosis,
        &subject,
        FixOptions {
            force: args.force,
            pods_cluster_wide,
        },
    )
    .map_err(|e| anyhow!(e))?;
    Ok((plan, server))
}

/// The plan alone, as `kubewhy fix` without --apply makes it (`kubewhy mcp`'s fix_plan); the
/// live read's problems are returned beside it, not printed.
pub(crate) fn plan_only(args: &FixArgs) -> Result<(Plan, String)> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let opts =
        kubewhy_live::LiveOptions::cluster_wide(args.kubeconfig.clone(), args.context.clone());
    let mut problems = Vec::new();
    let (plan, _) = make_plan(&rt, &opts, args, &mut problems)?;
    Ok((plan, String::from_utf8_lossy(&problems).into_owned()))
}

fn undo(
    rt: &tokio::runtime::Runtime,
    opts: &kubewhy_live::LiveOptions,
    dir: &Path,
    format: FixFormat,
) -> Result<u8> {
    // Read the journal first: a wrong directory fails before any connection.
    let journal: Journal = kubewhy_live::write::read_journal(dir)?;
    let applied = journal
        .entries
        .iter()
        .filter(|e| e.outcome == Outcome::Applied)
        .count();
    let done = rt.block_on(async {
        let client = kubewhy_live::client(opts).await?;
        anyhow::Ok(kubewhy_live::write::undo(&client, dir).await?)
    })?;
    let text = match format {
        FixFormat::Text => kubewhy_report::undo_text(&journal.subject, applied, &done),
        FixFormat::Json => kubewhy_report::undo_json(&done),
    };
    let mut out = anstream::stdout();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(if done.iter().all(|u| u.restored) {
        0
    } else {
        1
    })
}
