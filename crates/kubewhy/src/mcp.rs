//! `kubewhy mcp`: a Model Context Protocol server over stdio (rmcp), so that AI assistants get
//! kubewhy's findings and their evidence instead of guessing.
//!
//! Each tool is a command the binary already has, reached through the same arguments: a tool
//! call becomes the argument vector of `kubewhy scan`, `pod`, `gone` or `fix`, parsed by the
//! same clap definitions, run by the same functions (`scan::diagnose`, `gone::answer`,
//! `fix::plan_only`) on a blocking thread, and answered with the same versioned JSON as `-o json`
//! (the structured content) and a short text (the overview). Nothing here writes to a cluster:
//! `fix_plan` returns the plan only. Paths are read only under the roots the client grants
//! (MCP roots) or that `--allow-path` names. Standard output is the protocol's: nothing else may
//! be printed there, so every command runs with `quiet` and its notes travel in the answer.

use crate::cli::{Cli, Command, ScanArgs};
use crate::source::Target;
use anyhow::{Context, Result};
use clap::Args;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::schemars::{self, JsonSchema};
use rmcp::{Peer, RoleServer, ServerHandler, ServiceExt, tool, tool_handler, tool_router};
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// Up to this many findings, a tool's text is the whole text report; beyond, its overview.
const TEXT_FINDINGS: usize = 10;

/// The largest text `diagnose_text` reads; a larger one belongs in a file (`diagnose_path`).
pub(crate) const MAX_TEXT: usize = 16 << 20;

/// The largest message the server takes in. Larger than [`MAX_TEXT`] so that an oversized
/// paste arrives and is refused in words; a message past this is dropped by the transport.
const MAX_MESSAGE: usize = 96 << 20;

pub(crate) const MCP_LONG: &str = "Serve kubewhy to an AI assistant over the Model Context Protocol (stdio): the assistant's client starts `kubewhy mcp` and calls its tools, each answering with the same JSON document as `kubewhy scan -o json` (findings, evidence, steps) and a short text overview.\n\nTools: diagnose_text (pasted kubectl output, YAML, events, logs), diagnose_path (a dump, file or support bundle), scan_cluster (a kubeconfig context, as `kubewhy scan`), why_gone (a pod that disappeared, as `kubewhy gone`), explain_cause and list_causes (the cause catalogue), fix_plan (the repair plan of a pod or namespace stuck Terminating: the plan only, applying stays `kubewhy fix --apply`, run by a person).\n\nRead-only: no tool changes a cluster. Paths are read only under the roots the client grants (MCP roots) or under --allow-path; anything else is refused. Pastes larger than 16 MiB are refused (save them to a file under an allowed root and use diagnose_path). With --no-cluster, the tools that read a cluster are refused.";

pub(crate) const MCP_AFTER: &str = "Examples:\n  kubewhy mcp                                  paths under the client's roots, the current kubeconfig context\n  kubewhy mcp --allow-path ~/bundles           also read anything under ~/bundles\n  kubewhy mcp --context staging --no-cluster   offline only: pastes and files\n\nA client's configuration (Claude Desktop, VS Code, Cursor and others use this shape):\n  {\"mcpServers\": {\"kubewhy\": {\"command\": \"kubewhy\", \"args\": [\"mcp\", \"--allow-path\", \"/home/me/bundles\"]}}}";

#[derive(Args)]
pub(crate) struct McpArgs {
    /// Also read paths under this directory or file (repeatable), besides the roots the client
    /// grants. A path outside every root is refused.
    #[arg(long = "allow-path", value_name = "PATH")]
    allow_path: Vec<PathBuf>,

    /// The kubeconfig file the cluster tools use (default: KUBECONFIG, ~/.kube/config, or the
    /// in-cluster service account).
    #[arg(long, value_name = "PATH")]
    kubeconfig: Option<PathBuf>,

    /// The kubeconfig context the cluster tools use when a call names none.
    #[arg(long, value_name = "NAME")]
    context: Option<String>,

    /// Refuse the tools that read a cluster (scan_cluster, why_gone's cluster read, fix_plan).
    #[arg(long)]
    no_cluster: bool,
}

/// Runs the server on stdin and stdout until the client closes them.
pub(crate) fn run(args: McpArgs) -> Result<u8> {
    let mut allowed = Vec::new();
    for p in &args.allow_path {
        allowed.push(
            p.canonicalize()
                .with_context(|| format!("--allow-path {}", p.display()))?,
        );
    }
    let server = Kubewhy {
        allowed,
        kubeconfig: args.kubeconfig,
        context: args.context,
        no_cluster: args.no_cluster,
        tool_router: Kubewhy::tool_router(),
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    rt.block_on(async move {
        let (stdin, stdout) = rmcp::transport::stdio();
        let transport =
            rmcp::transport::async_rw::AsyncRwTransport::<RoleServer, _, _>::new(stdin, stdout)
                .with_max_line_length(MAX_MESSAGE);
        let running = server
            .serve(transport)
            .await
            .context("the MCP client did not complete the handshake")?;
        running.waiting().await.context("the MCP session")?;
        anyhow::Ok(())
    })?;
    Ok(0)
}

#[derive(Clone)]
struct Kubewhy {
    /// `--allow-path`, canonical.
    allowed: Vec<PathBuf>,
    kubeconfig: Option<PathBuf>,
    context: Option<String>,
    no_cluster: bool,
    tool_router: ToolRouter<Self>,
}

#[derive(Deserialize, JsonSchema)]
struct TextParams {
    /// What the user pasted: `kubectl describe`, `kubectl get` tables, YAML or JSON objects,
    /// `kubectl get events`, kubelet or container log lines; fragments are fine.
    text: String,
    /// Only report objects in this namespace.
    #[serde(default)]
    namespace: Option<String>,
    /// Judge the text as of this time (RFC 3339); default: the newest timestamp in it.
    #[serde(default)]
    now: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct PathParams {
    /// A `kubectl get -o json|yaml` file, a `kubectl cluster-info dump` directory, a support
    /// bundle or must-gather (directory or .tar.gz/.tar.xz/.tar.zst/.zip), or a text file of
    /// pasted output. Must lie under a root the client granted or an --allow-path.
    path: String,
    /// Explain this one pod (its namespace with `namespace`).
    #[serde(default)]
    pod: Option<String>,
    /// Only report objects in this namespace.
    #[serde(default)]
    namespace: Option<String>,
    /// Only report objects whose labels match this selector (`app=web,tier!=db`).
    #[serde(default)]
    selector: Option<String>,
    /// Judge the data as of this time (RFC 3339); default: the newest timestamp in it.
    #[serde(default)]
    now: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct ClusterParams {
    /// The kubeconfig context; default: the server's --context, else the current context.
    #[serde(default)]
    context: Option<String>,
    /// Only this namespace; default: the context's namespace, unless `all_namespaces`.
    #[serde(default)]
    namespace: Option<String>,
    /// Every namespace (`-A`).
    #[serde(default)]
    all_namespaces: bool,
    /// Only objects whose labels match this selector.
    #[serde(default)]
    selector: Option<String>,
    /// Explain this one pod (in `namespace`, or the context's namespace).
    #[serde(default)]
    pod: Option<String>,
}

#[derive(Deserialize, JsonSchema)]
struct GoneParams {
    /// The pod: NAME (in `namespace`) or NAMESPACE/NAME.
    pod: String,
    #[serde(default)]
    namespace: Option<String>,
    /// The kubeconfig context; default: the server's --context, else the current context.
    #[serde(default)]
    context: Option<String>,
    /// A flight recorder database written by `kubewhy watch --record` (under an allowed root).
    #[serde(default)]
    record: Option<String>,
    /// An API server audit log, file or directory (under an allowed root).
    #[serde(default)]
    audit_log: Option<String>,
    /// kube-controller-manager's log, file or directory (under an allowed root).
    #[serde(default)]
    controller_logs: Option<String>,
    /// Answer from the given files alone, without reading the cluster.
    #[serde(default)]
    offline: bool,
}

#[derive(Deserialize, JsonSchema)]
struct CauseParams {
    /// A cause slug (`image-pull-auth`) or code (`KW207`), as findings name them.
    cause: String,
}

#[derive(Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
enum FixKind {
    Pod,
    Namespace,
}

#[derive(Deserialize, JsonSchema)]
struct FixParams {
    /// What to repair: a pod or a namespace stuck Terminating.
    kind: FixKind,
    name: String,
    /// The pod's namespace (default: the context's).
    #[serde(default)]
    namespace: Option<String>,
    /// The kubeconfig context; default: the server's --context, else the current context.
    #[serde(default)]
    context: Option<String>,
}

#[tool_router]
impl Kubewhy {
    #[tool(
        description = "Diagnose pasted Kubernetes output (kubectl describe, get tables, YAML/JSON, events, kubelet or container logs; fragments are fine): the root cause of each stuck pod or namespace, the evidence quoted, the objects affected and the safe next steps. Returns kubewhy's JSON report (the same as `kubewhy scan -o json`) and a text overview.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn diagnose_text(&self, Parameters(p): Parameters<TextParams>) -> CallToolResult {
        if p.text.len() > MAX_TEXT {
            return refused(format!(
                "the text is {:.1} MiB; diagnose_text reads at most {} MiB. Save it to a file under an allowed root and call diagnose_path.",
                p.text.len() as f64 / (1 << 20) as f64,
                MAX_TEXT >> 20
            ));
        }
        let mut argv = vec!["scan".to_string()];
        push_opt(&mut argv, "--namespace", &p.namespace);
        push_opt(&mut argv, "--now", &p.now);
        diagnose(argv, None, Some(p.text)).await
    }

    #[tool(
        description = "Diagnose a cluster snapshot on disk: a `kubectl get -o json|yaml` file, a `kubectl cluster-info dump` directory, a support bundle or must-gather (directory or archive), or a file of pasted output. The path must be under a root the client granted or an --allow-path. Returns kubewhy's JSON report and a text overview.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn diagnose_path(
        &self,
        peer: Peer<RoleServer>,
        Parameters(p): Parameters<PathParams>,
    ) -> CallToolResult {
        let path = match self.allowed_path(&peer, &p.path).await {
            Ok(path) => path,
            Err(e) => return refused(e),
        };
        let mut argv = scan_or_pod(&p.pod);
        argv.push(format!("--from={}", path.display()));
        push_opt(&mut argv, "--namespace", &p.namespace);
        push_opt(&mut argv, "--selector", &p.selector);
        push_opt(&mut argv, "--now", &p.now);
        diagnose(argv, p.pod, None).await
    }

    #[tool(
        description = "Diagnose a live cluster through the kubeconfig (read-only, a constant number of list requests, as `kubewhy scan`): every stuck pod and namespace in the context's namespace, a namespace, or all; or one pod. Returns kubewhy's JSON report and a text overview.",
        annotations(read_only_hint = true, open_world_hint = true)
    )]
    async fn scan_cluster(&self, Parameters(p): Parameters<ClusterParams>) -> CallToolResult {
        if self.no_cluster {
            return no_cluster();
        }
        let mut argv = scan_or_pod(&p.pod);
        self.push_cluster(&mut argv, &p.context);
        push_opt(&mut argv, "--namespace", &p.namespace);
        if p.all_namespaces && p.namespace.is_none() && p.pod.is_none() {
            argv.push("--all-namespaces".into());
        }
        push_opt(&mut argv, "--selector", &p.selector);
        diagnose(argv, p.pod, None).await
    }

    #[tool(
        description = "Why did this pod disappear (or why is it being removed)? Weighs the pod's last status, the cluster now, and the files given: the flight recorder of `kubewhy watch --record`, an API server audit log, kube-controller-manager's log (paths under an allowed root). Returns kubewhy gone's JSON answer: one cause with its evidence, or what would tell.",
        annotations(read_only_hint = true, open_world_hint = true)
    )]
    async fn why_gone(
        &self,
        peer: Peer<RoleServer>,
        Parameters(p): Parameters<GoneParams>,
    ) -> CallToolResult {
        if self.no_cluster && !p.offline {
            return no_cluster();
        }
        let mut argv = vec!["gone".to_string()];
        for (flag, path) in [
            ("--record", &p.record),
            ("--audit-log", &p.audit_log),
            ("--controller-logs", &p.controller_logs),
        ] {
            if let Some(path) = path {
                match self.allowed_path(&peer, path).await {
                    Ok(path) => argv.push(format!("{flag}={}", path.display())),
                    Err(e) => return refused(e),
                }
            }
        }
        if p.offline {
            if argv.len() == 1 {
                return refused(
                    "offline, why_gone needs a record, audit_log or controller_logs file".into(),
                );
            }
            argv.push("--from=/dev/null".into());
        } else {
            self.push_cluster(&mut argv, &p.context);
        }
        push_opt(&mut argv, "--namespace", &p.namespace);
        argv.extend(["--".to_string(), p.pod]);
        blocking(move || {
            let Command::Gone(mut args) = parse(argv)? else {
                unreachable!("argv starts with gone")
            };
            args.src.quiet = true;
            let answer = crate::gone::answer(&args)?;
            answered(&answer.json, answer.text)
        })
        .await
    }

    #[tool(
        description = "The page of one cause: what it means, how kubewhy detects it, how to fix it safely and with what risk. Takes the slug or code a finding names.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn explain_cause(&self, Parameters(p): Parameters<CauseParams>) -> CallToolResult {
        let Some(cause) = kubewhy_model::Cause::lookup(p.cause.trim()) else {
            let close = kubewhy_report::catalogue::close_slugs(&p.cause);
            return refused(format!(
                "unknown cause {:?}; {}",
                kubewhy_report::sanitize(&p.cause),
                if close.is_empty() {
                    "list_causes gives every slug".to_string()
                } else {
                    format!("did you mean: {}?", close.join(", "))
                }
            ));
        };
        let page = kubewhy_rules::catalogue::page(cause);
        let text = kubewhy_report::catalogue::cause_page(cause, page);
        let mut result = CallToolResult::success(vec![ContentBlock::text(text.clone())]);
        result.structured_content = Some(serde_json::json!({
            "cause": cause.slug(),
            "code": cause.code(),
            "page": text,
        }));
        result
    }

    #[tool(
        description = "Every cause kubewhy can name (stable slugs and KW codes), with its meaning, family and whether kubewhy detects it: `causes`, the list of `kubewhy causes -o json`.",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list_causes(&self) -> CallToolResult {
        let detected = kubewhy_rules::emitted_causes();
        // Structured content is an object: the list of `kubewhy causes -o json` under `causes`.
        let json = format!(
            "{{\"causes\": {}}}",
            kubewhy_report::catalogue::causes_json(&detected)
        );
        answered(&json, kubewhy_report::catalogue::causes_text(&detected))
            .unwrap_or_else(|e| refused(format!("{e:#}")))
    }

    #[tool(
        description = "The plan that would repair a pod or namespace stuck Terminating (as `kubewhy fix` without --apply): each step with its object, the exact change and its risk, and the steps refused as dangerous. Read-only: the plan is never applied here; a person applies it with `kubewhy fix … --apply`.",
        annotations(read_only_hint = true, open_world_hint = true)
    )]
    async fn fix_plan(&self, Parameters(p): Parameters<FixParams>) -> CallToolResult {
        if self.no_cluster {
            return no_cluster();
        }
        let kind = match p.kind {
            FixKind::Pod => "pod",
            FixKind::Namespace => "ns",
        };
        let mut argv = vec!["fix".to_string()];
        self.push_cluster(&mut argv, &p.context);
        push_opt(&mut argv, "--namespace", &p.namespace);
        argv.extend(["--".to_string(), kind.into(), p.name]);
        blocking(move || {
            let Command::Fix(args) = parse(argv)? else {
                unreachable!("argv starts with fix")
            };
            let (plan, problems) = crate::fix::plan_only(&args)?;
            let mut text = kubewhy_report::plan_text(&plan, false);
            if !problems.is_empty() {
                text.push_str(&kubewhy_report::sanitize(&problems));
            }
            answered(&kubewhy_report::fix_json(&plan, None, None), text)
        })
        .await
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for Kubewhy {
    /// Routes a call; an unknown tool's error names the tools there are.
    async fn call_tool(
        &self,
        request: rmcp::model::CallToolRequestParams,
        context: rmcp::service::RequestContext<RoleServer>,
    ) -> Result<rmcp::model::CallToolResponse, rmcp::ErrorData> {
        if !self.tool_router.has_route(&request.name) {
            let mut names: Vec<String> = self
                .tool_router
                .list_all()
                .into_iter()
                .map(|t| t.name.to_string())
                .collect();
            names.sort();
            return Err(rmcp::ErrorData::invalid_params(
                format!(
                    "kubewhy has no tool {:?}; its tools are {}",
                    kubewhy_report::sanitize(&request.name),
                    names.join(", ")
                ),
                None,
            ));
        }
        let call = rmcp::handler::server::tool::ToolCallContext::new(self, request, context);
        self.tool_router.call(call).await
    }

    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("kubewhy", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "kubewhy explains why Kubernetes pods and namespaces are stuck (Pending, ImagePullBackOff, CrashLoopBackOff, ContainerCreating, Terminating, a namespace that does not go away, a pod that vanished): one root cause per finding, with the evidence quoted and safe next steps. Use diagnose_text for what the user pasted, diagnose_path for a dump or support bundle, scan_cluster for a live cluster, why_gone for a pod that disappeared, explain_cause for what a finding's cause means, fix_plan for the repair of something stuck Terminating (never applied here). Quote the evidence to the user; a finding's steps carry their risk.",
            )
    }
}

impl Kubewhy {
    /// The cluster flags of a tool call: its context, else the server's; the server's kubeconfig.
    fn push_cluster(&self, argv: &mut Vec<String>, context: &Option<String>) {
        if let Some(k) = &self.kubeconfig {
            argv.push(format!("--kubeconfig={}", k.display()));
        }
        push_opt(argv, "--context", &context.clone().or(self.context.clone()));
    }

    /// `path`, canonical, when it lies under an `--allow-path` or a root the client grants;
    /// otherwise why not, in words an assistant can act on.
    async fn allowed_path(&self, peer: &Peer<RoleServer>, path: &str) -> Result<PathBuf, String> {
        let given = expand_home(path);
        let canonical = given
            .canonicalize()
            .map_err(|e| format!("{}: {e}", kubewhy_report::sanitize(path)))?;
        let mut roots = self.allowed.clone();
        roots.extend(client_roots(peer).await);
        if roots.iter().any(|r| canonical.starts_with(r)) {
            return Ok(canonical);
        }
        Err(if roots.is_empty() {
            format!(
                "{} is outside every allowed root: the client granted no roots and kubewhy mcp was started without --allow-path. Grant the directory as a root in the client, or add `--allow-path DIR` to the server's arguments.",
                kubewhy_report::sanitize(path)
            )
        } else {
            format!(
                "{} is outside the allowed roots ({}); kubewhy reads only under them",
                kubewhy_report::sanitize(path),
                roots
                    .iter()
                    .map(|r| kubewhy_report::sanitize(&r.display().to_string()))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        })
    }
}

/// The directories the client grants (MCP roots, `file://` only), canonical; none when the
/// client does not offer roots or does not answer within 5 s. Roots are deprecated by the
/// protocol's 2026-07-28 revision (SEP-2577), but the clients in use still grant them;
/// `--allow-path` is the way that stays.
#[allow(deprecated)]
async fn client_roots(peer: &Peer<RoleServer>) -> Vec<PathBuf> {
    let offers = peer
        .peer_info()
        .is_some_and(|info| info.capabilities.roots.is_some());
    if !offers {
        return Vec::new();
    }
    let Ok(Ok(listed)) =
        tokio::time::timeout(std::time::Duration::from_secs(5), peer.list_roots()).await
    else {
        return Vec::new();
    };
    listed
        .roots
        .iter()
        .filter_map(|r| file_uri_path(&r.uri))
        .filter_map(|p| p.canonicalize().ok())
        .collect()
}

/// The path of a `file://` URI, percent-decoded; `None` for other schemes.
fn file_uri_path(uri: &str) -> Option<PathBuf> {
    let rest = uri.strip_prefix("file://")?;
    // `file://localhost/x` and `file:///x` name the same path.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        if bytes[i] == b'%'
            && i + 2 < bytes.len()
            && let (Some(h), Some(l)) = (hex(bytes[i + 1]), hex(bytes[i + 2]))
        {
            out.push((h * 16 + l) as u8);
            i += 3;
            continue;
        }
        out.push(bytes[i]);
        i += 1;
    }
    use std::os::unix::ffi::OsStringExt;
    Some(PathBuf::from(std::ffi::OsString::from_vec(out)))
}

fn expand_home(path: &str) -> PathBuf {
    match (path.strip_prefix("~/"), std::env::var_os("HOME")) {
        (Some(rest), Some(home)) => Path::new(&home).join(rest),
        _ => PathBuf::from(path),
    }
}

fn push_opt(argv: &mut Vec<String>, flag: &str, value: &Option<String>) {
    if let Some(v) = value {
        argv.push(format!("{flag}={v}"));
    }
}

/// Parses a subcommand's arguments exactly as the command line would.
fn parse(argv: Vec<String>) -> Result<Command> {
    use clap::Parser;
    let cli = Cli::try_parse_from(std::iter::once("kubewhy".to_string()).chain(argv))
        .map_err(|e| anyhow::anyhow!("{}", e.render().to_string().trim_end()))?;
    Ok(cli.command)
}

/// The command of a diagnosis: `pod` when one pod is asked about, else `scan`.
fn scan_or_pod(pod: &Option<String>) -> Vec<String> {
    vec![if pod.is_some() { "pod" } else { "scan" }.to_string()]
}

/// Runs `scan` or `pod` with `argv` (the pod's name appended after `--`), reading `text` as
/// the paste when given.
async fn diagnose(
    mut argv: Vec<String>,
    pod: Option<String>,
    text: Option<String>,
) -> CallToolResult {
    if let Some(pod) = pod {
        argv.extend(["--".to_string(), pod]);
    }
    blocking(move || {
        let (mut args, target) = scan_args(argv)?;
        args.src.text = text;
        diagnosis(args, target)
    })
    .await
}

/// The arguments of `scan` or `pod`, quiet, with what they ask about.
fn scan_args(argv: Vec<String>) -> Result<(ScanArgs, Target)> {
    let (mut args, target) = match parse(argv)? {
        Command::Scan(args) => (args, Target::All),
        Command::Pod { name, scan } => (scan, Target::Pod(name)),
        _ => unreachable!("argv starts with scan or pod"),
    };
    args.src.quiet = true;
    Ok((args, target))
}

/// Diagnoses and answers with the JSON report (structured) and the overview (text), the
/// input's notes after it.
fn diagnosis(args: ScanArgs, target: Target) -> Result<CallToolResult> {
    let done = crate::scan::diagnose(&args, &target)?;
    let json = kubewhy_report::render(&done.report(false), kubewhy_report::Format::Json);
    // The text: the whole report when it is short, else its overview; input problems are in
    // the structured result, not on a terminal's stderr.
    let mut report = done.report(done.diagnosis.findings.len() > TEXT_FINDINGS);
    report.warnings = &[];
    let mut text = kubewhy_report::render(&report, kubewhy_report::Format::Text).replace(
        "the same command without --summary (# is the finding's number)",
        "findings[# - 1] of the structured result",
    );
    if !done.loaded.warnings.is_empty() {
        text.push_str(&format!(
            "\n{} input problem(s), listed in inputProblems of the structured result; the rest of the input was diagnosed.",
            done.loaded.warnings.len()
        ));
    }
    for b in &done.loaded.bundles {
        text.push_str(&format!("\n{}", kubewhy_report::sanitize(&b.summary())));
        for note in b.notes() {
            text.push_str(&format!("\nnote: {}", kubewhy_report::sanitize(&note)));
        }
    }
    if done.loaded.pasted_text
        && done.diagnosis.findings.is_empty()
        && done.diagnosis.unexplained.is_empty()
    {
        text.push_str(&format!(
            "\nnote: {}",
            crate::scan::nothing_unhealthy_note(done.loaded.snapshot.object_count())
        ));
    }
    answered(&json, text)
}

/// A tool's answer: `json` as the structured content, `text` (terminal styles removed) as the
/// content.
fn answered(json: &str, text: String) -> Result<CallToolResult> {
    let value: serde_json::Value = serde_json::from_str(json).context("kubewhy's own JSON")?;
    let text = anstream::adapter::strip_str(&text).to_string();
    let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
    result.structured_content = Some(value);
    Ok(result)
}

/// A tool error the assistant sees and can act on.
fn refused(message: String) -> CallToolResult {
    CallToolResult::error(vec![ContentBlock::text(message)])
}

fn no_cluster() -> CallToolResult {
    refused("kubewhy mcp was started with --no-cluster: this tool reads a cluster. Use diagnose_text or diagnose_path with data the user provides.".into())
}

/// Runs a command on a blocking thread (it reads files and clusters with runtimes of its own);
/// its error, or a panic, becomes the tool's error.
async fn blocking(
    work: impl FnOnce() -> Result<CallToolResult> + Send + 'static,
) -> CallToolResult {
    match tokio::task::spawn_blocking(work).await {
        Ok(Ok(result)) => result,
        Ok(Err(e)) => refused(kubewhy_report::sanitize(&format!("{e:#}"))),
        Err(e) => refused(format!("kubewhy failed while answering: {e}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_uris_become_paths() {
        assert_eq!(
            file_uri_path("file:///home/me/my%20bundles"),
            Some(PathBuf::from("/home/me/my bundles"))
        );
        assert_eq!(
            file_uri_path("file://localhost/srv"),
            Some(PathBuf::from("/srv"))
        );
        assert_eq!(file_uri_path("https://example.com/x"), None);
        assert_eq!(file_uri_path("file://host/x"), None);
        assert_eq!(file_uri_path("file:///a%2"), Some(PathBuf::from("/a%2")));
    }
}
