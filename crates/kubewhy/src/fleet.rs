//! `kubewhy scan --context a --context b` and `--all-contexts`: several clusters read at once (at
//! most [`MAX_PARALLEL`] at a time), each diagnosed as `kubewhy scan` diagnoses one as soon as its
//! lists are in, a cluster that cannot be read reported in its row without failing the others;
//! the fleet summary first, then each cluster's report (`kubewhy_report::fleet`).

use crate::cli::{OutputFormat, ScanArgs};
use crate::scan::{Diagnosed, exit_code};
use anyhow::{Result, bail};
use kubewhy_report::fleet::{Cluster, Outcome, Read};
use kubewhy_source::Input;
use std::io::Write;
use std::time::Instant;

/// Clusters read at the same time.
pub(crate) const MAX_PARALLEL: usize = 8;

pub(crate) fn scan(args: ScanArgs) -> Result<u8> {
    let contexts = if args.src.all_contexts {
        kubewhy_live::contexts(args.src.kubeconfig.as_deref())?
    } else {
        let mut seen = Vec::new();
        for c in &args.src.context {
            if !seen.contains(c) {
                seen.push(c.clone());
            }
        }
        seen
    };
    if contexts.is_empty() {
        bail!("the kubeconfig has no contexts to scan");
    }
    if !args.src.node_logs.is_empty() {
        bail!("--node-logs belongs to one cluster: scan it alone with one --context");
    }
    let selector = args.src.selector()?;
    let now = args.src.now()?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let shared = std::sync::Arc::new(Shared {
        args_summary: args.summary,
        output: args.output,
        fail_on: args.fail_on,
        gc_threshold: args.gc_threshold,
        selector,
        now,
    });
    let clusters: Vec<(Cluster, u8)> = rt.block_on(async {
        let permits = std::sync::Arc::new(tokio::sync::Semaphore::new(MAX_PARALLEL));
        let mut tasks = tokio::task::JoinSet::new();
        for (i, context) in contexts.iter().enumerate() {
            let opts = kubewhy_live::LiveOptions {
                kubeconfig: args.src.kubeconfig.clone(),
                context: Some(context.clone()),
                namespaces: args.src.namespace.clone(),
                all_namespaces: args.src.all_namespaces,
                focus: Vec::new(),
                progress: None,
            };
            let permits = permits.clone();
            let shared = shared.clone();
            let context = context.clone();
            tasks.spawn(async move {
                let _permit = permits.acquire_owned().await;
                (i, one_cluster(context, opts, shared).await)
            });
        }
        let mut done: Vec<(usize, (Cluster, u8))> = tasks.join_all().await;
        done.sort_by_key(|(i, _)| *i);
        done.into_iter().map(|(_, c)| c).collect()
    });
    let mut err = anstream::stderr();
    let mut code = 0;
    for (c, cluster_code) in &clusters {
        code = code.max(*cluster_code);
        let context = kubewhy_report::sanitize(&c.context);
        match &c.outcome {
            Outcome::Failed(why) => writeln!(
                err,
                "kubewhy: warning: cluster {context}: {}",
                kubewhy_report::sanitize(why)
            )?,
            Outcome::Read(r) => {
                for w in &r.warnings {
                    writeln!(err, "kubewhy: warning: cluster {context}: {w}")?;
                }
            }
        }
    }
    let clusters: Vec<Cluster> = clusters.into_iter().map(|(c, _)| c).collect();
    match args.output {
        OutputFormat::Json => {
            let mut out = std::io::stdout().lock();
            out.write_all(kubewhy_report::fleet::json_doc(&clusters).as_bytes())?;
            out.flush()?;
        }
        OutputFormat::Text | OutputFormat::Markdown => {
            let markdown = matches!(args.output, OutputFormat::Markdown);
            let mut out = anstream::stdout();
            let summary = kubewhy_report::fleet::summary_text(&clusters);
            if markdown {
                writeln!(out, "```\n{summary}```")?;
            } else {
                out.write_all(summary.as_bytes())?;
            }
            out.write_all(kubewhy_report::fleet::reports(&clusters, markdown).as_bytes())?;
            out.flush()?;
        }
    }
    Ok(code)
}

/// What every cluster's diagnosis shares.
struct Shared {
    args_summary: bool,
    output: OutputFormat,
    fail_on: crate::cli::FailOn,
    gc_threshold: Option<usize>,
    selector: Option<kubewhy_model::selector::Selector>,
    now: Option<jiff::Timestamp>,
}

/// Reads, diagnoses and renders one cluster; its exit status (2 when it could not be read).
async fn one_cluster(
    context: String,
    opts: kubewhy_live::LiveOptions,
    shared: std::sync::Arc<Shared>,
) -> (Cluster, u8) {
    let started = Instant::now();
    let failed = |why: String, server: String| {
        (
            Cluster {
                context: context.clone(),
                server,
                seconds: started.elapsed().as_secs_f64(),
                outcome: Outcome::Failed(why),
            },
            2,
        )
    };
    let fetched = match kubewhy_live::fetch(&opts).await {
        Ok(f) => f,
        Err(e) => {
            let server = match &e {
                kubewhy_live::LiveError::Unreachable { url, .. }
                | kubewhy_live::LiveError::Rejected { url, .. } => url.clone(),
                kubewhy_live::LiveError::Config(_) => String::new(),
            };
            return failed(e.to_string(), server);
        }
    };
    let server = fetched.server.clone();
    let scope = fetched.namespaces.clone();
    let problems = fetched.problems;
    let pages = fetched.pages;
    let now = shared.now.unwrap_or_else(jiff::Timestamp::now);
    let loaded = tokio::task::spawn_blocking(move || {
        let inputs: Vec<Input> = pages
            .into_iter()
            .map(|(name, text)| Input::Text { name, text })
            .collect();
        kubewhy_source::load_owned(inputs, Some(now))
    })
    .await;
    let mut loaded = match loaded {
        Ok(l) => l,
        Err(e) => return failed(format!("kubewhy failed reading it: {e}"), server),
    };
    crate::source::live_extras(&opts, &mut loaded).await;
    let mut warnings = problems;
    warnings.append(&mut loaded.warnings);
    loaded.warnings = warnings;
    let shared2 = shared.clone();
    let judged = tokio::task::spawn_blocking(move || {
        loaded.snapshot.gc_threshold = shared2.gc_threshold;
        let mut diagnosis = kubewhy_rules::diagnose(&loaded.snapshot);
        diagnosis.retain_scope(
            &loaded.snapshot,
            &kubewhy_rules::Scope {
                namespaces: scope,
                selector: shared2.selector.clone(),
                object: None,
            },
        );
        let done = Diagnosed {
            loaded,
            diagnosis,
            live: true,
        };
        let report = done.report(shared2.args_summary);
        let (text, json) = match shared2.output {
            OutputFormat::Json => {
                let doc = kubewhy_report::render(&done.report(false), kubewhy_report::Format::Json);
                (String::new(), serde_json::from_str(&doc).ok())
            }
            OutputFormat::Text => (
                kubewhy_report::render(&report, kubewhy_report::Format::Text),
                None,
            ),
            OutputFormat::Markdown => (
                kubewhy_report::render(&report, kubewhy_report::Format::Markdown),
                None,
            ),
        };
        let read = Read {
            rows: kubewhy_report::overview::overview(&done.diagnosis.findings),
            findings: done.diagnosis.findings.len(),
            unexplained: done.diagnosis.unexplained.len(),
            worst: kubewhy_report::worst(&done.diagnosis.findings),
            problems: done.loaded.warnings.len(),
            warnings: done
                .loaded
                .warnings
                .iter()
                .map(|w| kubewhy_report::sanitize(&w.to_string()))
                .collect(),
            report: text,
            json,
        };
        (read, exit_code(shared2.fail_on, &done.diagnosis))
    })
    .await;
    match judged {
        Ok((read, code)) => (
            Cluster {
                context: context.clone(),
                server,
                seconds: started.elapsed().as_secs_f64(),
                outcome: Outcome::Read(Box::new(read)),
            },
            code,
        ),
        Err(e) => failed(format!("kubewhy failed diagnosing it: {e}"), server),
    }
}
