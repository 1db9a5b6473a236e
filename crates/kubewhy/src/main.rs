//! The kubewhy binary: argument parsing, exit codes and glue. Everything else lives in the
//! library crates (model, source, rules, report).

use anyhow::{Result, bail};
use kubewhy_model::Cause;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

mod cli;
mod collect;
mod fix;
mod fleet;
mod gone;
mod mcp;
mod scan;
mod source;
mod watch;

use cli::{CausesFormat, Cli, Command};
use scan::scan;
use source::Target;

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
        Command::Mcp(args) => mcp::run(args),
        Command::Explain { cause } => explain(&cause),
        Command::Causes { output } => causes(output),
    }
}

fn explain(key: &str) -> Result<u8> {
    let Some(cause) = Cause::lookup(key) else {
        let close = kubewhy_report::catalogue::close_slugs(key);
        let hint = if close.is_empty() {
            "run `kubewhy causes` for the list".to_string()
        } else {
            format!("did you mean: {}?", close.join(", "))
        };
        bail!("unknown cause {key:?}; {hint}");
    };
    let page = kubewhy_rules::catalogue::page(cause);
    let mut out = anstream::stdout();
    out.write_all(kubewhy_report::catalogue::cause_page(cause, page).as_bytes())?;
    out.flush()?;
    Ok(0)
}

fn causes(format: CausesFormat) -> Result<u8> {
    let detected = kubewhy_rules::emitted_causes();
    let text = match format {
        CausesFormat::Json => kubewhy_report::catalogue::causes_json(&detected),
        CausesFormat::Text => kubewhy_report::catalogue::causes_text(&detected),
    };
    let mut out = std::io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(0)
}
