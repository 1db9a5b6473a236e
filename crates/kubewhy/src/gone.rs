//! `kubewhy gone` (why did a pod disappear) and the flight recorder of `kubewhy watch --record`
//! that lets `gone` answer days later.

use crate::cli::SourceArgs;
use crate::source::load_source;
use anyhow::{Result, bail};
use clap::{Args, ValueEnum};
use kubewhy_live::watch::Seen;
use kubewhy_model::history::History;
use kubewhy_recorder::{COMMIT_EVERY, Next, Recorder, Retention};
use std::io::Write;
use std::path::PathBuf;

#[derive(Args)]
pub(crate) struct GoneArgs {
    /// The pod: NAME (in -n's namespace, or the context's) or NAMESPACE/NAME.
    #[arg(value_name = "[NAMESPACE/]POD", required_unless_present_any = ["owner", "selector"])]
    pod: Option<String>,

    /// The pods of an owner instead: KIND/NAME, e.g. job/nightly, replicaset/web-7d9f8,
    /// deployment/web, cronjob/report, statefulset/db, daemonset/agent.
    #[arg(long, value_name = "KIND/NAME", conflicts_with = "pod")]
    owner: Option<String>,

    /// An API server audit log (JSON lines, --audit-log-path): names who deleted or evicted the
    /// pod, and when. A file or a directory of rotated logs; repeatable.
    #[arg(long = "audit-log", value_name = "PATH")]
    audit_log: Vec<PathBuf>,

    /// kube-controller-manager's log (klog text or JSON, with or without a journald or
    /// container-log prefix): names the pods the pod garbage collector and the taint manager
    /// delete. A file or a directory; repeatable.
    #[arg(long = "controller-logs", value_name = "PATH")]
    controller_logs: Vec<PathBuf>,

    /// A flight recorder database written by `kubewhy watch --record`.
    #[arg(long, value_name = "DB")]
    record: Option<PathBuf>,

    /// Output format.
    #[arg(short, long, value_enum, default_value_t = GoneFormat::Text)]
    output: GoneFormat,

    #[command(flatten)]
    pub(crate) src: SourceArgs,
}

#[derive(Clone, Copy, ValueEnum, PartialEq)]
enum GoneFormat {
    Text,
    Json,
}

pub(crate) const GONE_LONG: &str = "Why did this pod disappear, or why is it being removed? kubewhy weighs every source it is given: the pod's last status (the DisruptionTarget condition, an eviction), kube-controller-manager's log lines (the pod garbage collector's three rules, the taint manager), the API server's audit log (the first request that deleted or evicted the pod, and who sent it), the flight recorder (`kubewhy watch --record`: last status, owner, node and events of every deleted pod, and the workloads' replica changes, kept for days), and what the cluster shows now (its namespace or owner deleted, its node gone, a CronJob's \"Deleted job\" event, its ReplicaSet's \"Deleted pod\" event and replicas, a newer ReplicaSet of its Deployment). A pod its own controller removed is `scaled-down` (its workload's replicas were lowered: by whom, from and to how many, when the data says) or `rollout-replaced` (a Deployment rollout replaced it).\n\nEach pod gets one cause of the Gone family (`kubewhy causes`), with the evidence and when it happened, or a plain \"cannot tell\" that names the source that would.\n\nWithout --from, the current cluster is read as well; when it cannot be reached and another source was given, the answer comes from the other sources alone.\n\nExit status: 0 when every pod asked about is answered (or still there), 1 when some cannot be explained or nothing matched, 2 on errors.";

pub(crate) const GONE_AFTER: &str = "Examples:\n  kubewhy gone shop/web-1 --audit-log /var/log/kubernetes/audit.log\n  kubewhy gone --owner cronjob/report -n batch --record /var/lib/kubewhy/rec.db\n  kubewhy gone -l app=etl -n batch --controller-logs kcm.log --from dump/\n  kubewhy gone shop/web-1 --record rec.db --from /dev/null     the recorder alone, no cluster";

pub(crate) fn run(args: GoneArgs) -> Result<u8> {
    let answer = answer(&args)?;
    match args.output {
        GoneFormat::Text => {
            let mut out = anstream::stdout();
            out.write_all(answer.text.as_bytes())?;
            out.flush()?;
        }
        GoneFormat::Json => {
            let mut out = std::io::stdout().lock();
            out.write_all(answer.json.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(answer.code)
}

/// The answer of `kubewhy gone`, rendered both ways.
pub(crate) struct GoneAnswer {
    pub(crate) text: String,
    pub(crate) json: String,
    /// The exit status: 0 when every pod asked about is answered (or still there), else 1.
    pub(crate) code: u8,
}

/// Reads every source `args` name and weighs them; warnings on stderr unless `src.quiet`.
pub(crate) fn answer(args: &GoneArgs) -> Result<GoneAnswer> {
    let selector = args.src.selector()?;
    let (pod_ns, pod, owner) = asked_about(args)?;
    let mut src = args.src.clone();
    if let Some(ns) = &pod_ns {
        src.namespace = vec![ns.clone()];
        src.all_namespaces = false;
    }
    let has_history =
        !args.audit_log.is_empty() || !args.controller_logs.is_empty() || args.record.is_some();
    let mut err = crate::source::notes(src.quiet);
    if !src.node_logs.is_empty() {
        writeln!(
            err,
            "kubewhy: note: --node-logs is read by scan, pod and ns; kubewhy gone answers from the audit log, the controller-manager's log and the flight recorder"
        )?;
    }
    let Now {
        snapshot,
        mut warnings,
        scope,
        mut sources,
    } = the_cluster_now(&mut src, has_history)?;
    let namespace = pod_ns
        .or_else(|| src.namespace.first().cloned())
        .or_else(|| scope.first().cloned())
        .unwrap_or_else(|| "default".to_string());

    // load_source printed the snapshot's warnings; the history's are printed below.
    let already_printed = warnings.len();
    let history = read_history(args, snapshot.now, &namespace, &mut warnings, &mut sources)?;
    for w in warnings.iter().skip(already_printed) {
        writeln!(
            err,
            "kubewhy: warning: {}",
            kubewhy_report::sanitize(&w.to_string())
        )?;
    }
    let query = kubewhy_rules::gone::Query {
        namespace: namespace.clone(),
        pod: pod.clone(),
        owner: owner.clone(),
        selector,
    };
    let answer = kubewhy_rules::gone::explain(&snapshot, &history, &query);
    let asked = match (&pod, &owner) {
        (Some(p), _) => format!("pod {namespace}/{p}"),
        (_, Some((k, n))) => format!("the pods of {k} {namespace}/{n}"),
        _ => format!(
            "-l {} in {namespace}",
            args.src.selector.clone().unwrap_or_default()
        ),
    };
    let report = kubewhy_report::GoneReport {
        findings: &answer.findings,
        unknown: &answer.unknown,
        alive: &answer.alive,
        sources: &sources,
        warnings: &warnings,
        query: &asked,
    };
    Ok(GoneAnswer {
        text: kubewhy_report::gone_text(&report),
        json: kubewhy_report::gone_json(&report),
        code: if answer.nothing || !answer.unknown.is_empty() {
            1
        } else {
            0
        },
    })
}

/// The pod (its namespace when given as NAMESPACE/NAME, and name) or the owner asked about.
type Asked = (Option<String>, Option<String>, Option<(String, String)>);

fn asked_about(args: &GoneArgs) -> Result<Asked> {
    let (pod_ns, pod) = match args.pod.as_deref() {
        Some(p) => match p.split_once('/') {
            Some((ns, name)) if !ns.is_empty() && !name.is_empty() && !name.contains('/') => {
                (Some(ns.to_string()), Some(name.to_string()))
            }
            Some(_) => bail!("{p:?}: give the pod as NAME or NAMESPACE/NAME"),
            None => (None, Some(p.to_string())),
        },
        None => (None, None),
    };
    let owner = match args.owner.as_deref() {
        Some(o) => Some(kubewhy_rules::gone::Query::parse_owner(o).map_err(anyhow::Error::msg)?),
        None => None,
    };
    if let (Some(ns), [first, ..]) = (&pod_ns, args.src.namespace.as_slice())
        && ns != first
    {
        bail!("the pod says namespace {ns:?} but -n says {first:?}");
    }
    Ok((pod_ns, pod, owner))
}

/// What the cluster (or the data given) shows now.
struct Now {
    snapshot: kubewhy_model::Snapshot,
    warnings: Vec<kubewhy_model::InputWarning>,
    /// The namespaces read.
    scope: Vec<String>,
    /// What was read, as the answer lists its sources.
    sources: Vec<String>,
}

/// Reads the cluster or the data `src` names; when that fails and another source was given,
/// the answer comes from the other sources alone (`src.from` is then cleared).
fn the_cluster_now(src: &mut crate::cli::SourceArgs, has_history: bool) -> Result<Now> {
    let live = !src.demo && src.from.is_empty();
    let nothing = || Now {
        snapshot: Default::default(),
        warnings: Vec::new(),
        scope: Vec::new(),
        sources: Vec::new(),
    };
    match load_source(src, Vec::new(), "gone") {
        Ok(s) => {
            let what = if live {
                "the cluster (now)".to_string()
            } else {
                format!("{} object(s) read", s.loaded.snapshot.object_count())
            };
            Ok(Now {
                snapshot: s.loaded.snapshot,
                warnings: s.loaded.warnings,
                scope: s.scope_namespaces,
                sources: vec![what],
            })
        }
        Err(e) if live && has_history => {
            writeln!(
                crate::source::notes(src.quiet),
                "kubewhy: warning: {} — answering from the other sources alone",
                kubewhy_report::sanitize(format!("{e:#}").trim_end_matches('.'))
            )?;
            src.from.clear();
            Ok(nothing())
        }
        // `--from /dev/null` (or any empty input) beside another source: the other sources
        // alone, as the help's example says.
        Err(e) if has_history && format!("{e:#}").contains("nothing could be read") => {
            src.from.clear();
            Ok(nothing())
        }
        Err(e) => Err(e),
    }
}

/// The past as the audit logs, controller-manager logs and flight recorder tell it.
fn read_history(
    args: &GoneArgs,
    now: Option<jiff::Timestamp>,
    namespace: &str,
    warnings: &mut Vec<kubewhy_model::InputWarning>,
    sources: &mut Vec<String>,
) -> Result<History> {
    let mut history = History::default();
    for p in &args.audit_log {
        kubewhy_source::read_audit_log(p, &mut history.audit, warnings);
    }
    if !args.audit_log.is_empty() {
        sources.push(format!(
            "audit log ({} deletion(s) and eviction(s))",
            history.audit.len()
        ));
        history.sources.push("audit log".into());
    }
    for p in &args.controller_logs {
        kubewhy_source::read_controller_log(p, now, &mut history.controller, warnings);
    }
    if !args.controller_logs.is_empty() {
        sources.push(format!(
            "controller log ({} pod deletion line(s))",
            history.controller.len()
        ));
        history.sources.push("controller log".into());
    }
    if let Some(db) = &args.record {
        let rec = Recorder::open_read_only(db)?;
        let got = rec.read(Some(namespace))?;
        sources.push(format!(
            "flight recorder ({} deleted pod(s) in {namespace})",
            got.pods.len()
        ));
        history.pods = got.pods;
        history.objects = got.objects;
        history.scalings = got.scalings;
        history.sources.push("flight recorder".into());
    }
    Ok(history)
}

/// The flight recorder's settings (part of `kubewhy watch`).
#[derive(Args)]
pub(crate) struct RecordArgs {
    /// Keep a flight recorder in this SQLite file (created if missing): every deleted pod's last
    /// status, owner, node, events and likely initiator, for `kubewhy gone --record FILE`.
    #[arg(long, value_name = "FILE")]
    pub(crate) record: Option<PathBuf>,

    /// Drop recorded deletions older than this many hours.
    #[arg(long, value_name = "HOURS", default_value_t = 24 * 14, requires = "record")]
    retention_hours: u64,

    /// Keep at most this many deleted pods (oldest dropped first).
    #[arg(long, value_name = "N", default_value_t = 200_000, requires = "record")]
    max_pods: u64,
}

/// The flight recorder, open and ready to take what the watches see.
pub(crate) struct FlightRecorder {
    rec: Recorder,
    retention: Retention,
    path: PathBuf,
}

impl FlightRecorder {
    pub(crate) fn open(args: &RecordArgs) -> Result<Option<FlightRecorder>> {
        let Some(path) = &args.record else {
            return Ok(None);
        };
        let retention = Retention {
            max_age: jiff::SignedDuration::from_hours(args.retention_hours as i64),
            max_pods: args.max_pods,
        };
        let mut rec = Recorder::open(path)?;
        rec.prune(retention, jiff::Timestamp::now())?;
        Ok(Some(FlightRecorder {
            rec,
            retention,
            path: path.clone(),
        }))
    }

    /// Records what the watches send until `stop` is set (the last batch is committed) or every
    /// watch has stopped.
    pub(crate) fn run(
        mut self,
        rt: &tokio::runtime::Runtime,
        mut rx: tokio::sync::mpsc::UnboundedReceiver<Seen>,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Result<()> {
        let mut err = anstream::stderr();
        writeln!(
            err,
            "kubewhy: recording pod deletions into {} (commits every {} ms)",
            self.path.display(),
            COMMIT_EVERY.as_millis()
        )?;
        // The timer is made inside the runtime (`timeout` needs its clock when created).
        let next = |wait| match rt.block_on(async { tokio::time::timeout(wait, rx.recv()).await }) {
            Ok(Some(seen)) => Next::Seen(seen),
            Ok(None) => Next::Closed,
            Err(_) => Next::Waited,
        };
        let say = |line: String| {
            let _ = writeln!(
                anstream::stderr(),
                "kubewhy: {}",
                kubewhy_report::sanitize(&line)
            );
        };
        Ok(kubewhy_recorder::record(
            &mut self.rec,
            self.retention,
            next,
            stop,
            say,
        )?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};

    /// The recorder as `kubewhy watch --record` runs it: the watches' channel on a real
    /// runtime, a deletion sent, the stop set from another thread; the row is in the file.
    #[test]
    fn the_recorder_keeps_what_the_watches_send_until_stopped() {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let path = dir.join("rec.db");
        let args = RecordArgs {
            record: Some(path.clone()),
            retention_hours: 24,
            max_pods: 100,
        };
        let recorder = FlightRecorder::open(&args).unwrap().unwrap();
        let rt = tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
            .unwrap();
        let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
        tx.send(Seen::PodGone(Box::new(kubewhy_model::history::PodRecord {
            namespace: "shop".into(),
            name: "web-1".into(),
            uid: "u1".into(),
            deleted: "2026-11-26T10:00:00Z".parse().ok(),
            ..Default::default()
        })))
        .unwrap();
        let stop = Arc::new(AtomicBool::new(false));
        let stopper = {
            let stop = stop.clone();
            std::thread::spawn(move || {
                std::thread::sleep(std::time::Duration::from_millis(700));
                stop.store(true, Ordering::Relaxed);
            })
        };
        recorder.run(&rt, rx, &stop).unwrap();
        stopper.join().unwrap();
        let got = Recorder::open_read_only(&path).unwrap().read(None).unwrap();
        let names: Vec<&str> = got.pods.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["web-1"]);
        drop(tx);
    }
}
