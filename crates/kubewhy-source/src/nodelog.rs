//! Node evidence (`--node-logs`): what people copy off a node, and what `kubewhy node-collect`
//! writes.
//!
//! Read line by line, so multi-megabyte journals cost their reading and little memory; only
//! lines that mean something are kept ([`Signal`]), with the IDs that tie them to a pod.
//!
//! - Log lines, with or without a prefix: `journalctl` (short, short-precise and short-iso
//!   formats), syslog (`/var/log/messages`), `dmesg` (seconds since boot, `-T`, or none), around
//!   klog text or JSON (kubelet, any component) or logrus (`time="…" level=… msg="…"`,
//!   containerd and dockerd).
//! - Tables, recognised by their header: `docker ps -a`, `crictl ps -a`, `crictl pods`,
//!   `ctr task ls`, `ctr containers ls`. ctr prints no namespace: a preceding `$ ctr -n moby …`
//!   or `# …` line, or the file's name (`moby`, `k8s.io`), says which.
//! - node-collect's own sections, each opened by `# kubewhy node-collect: <section>`.

use crate::InputWarning;
use jiff::Timestamp;
use kubewhy_model::node::{
    IdLink, KubeletSettings, Leftover, NodeBundle, NodeLine, NodeProcess, RuntimeRecord, Signal,
    StaticManifest,
};
use regex::Regex;
use std::collections::HashMap;
use std::io::BufRead;
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::LazyLock;

/// Longest line kept, in characters.
const MAX_QUOTE: usize = 900;
/// Lines kept per signal and subject (the first and the most recent ones).
const KEEP_PER_SUBJECT: usize = 20;
/// Classified lines held before they are compacted (see `compact`).
const COMPACT_SLACK: usize = 20_000;
/// Rows kept per runtime list.
const MAX_ROWS: usize = 200_000;

/// The first line of each section node-collect writes.
pub const SECTION_MARKER: &str = "# kubewhy node-collect: ";

fn re(s: &str) -> Regex {
    Regex::new(s).expect("node log regex")
}

/// `Aug 20 10:25:54[.123456] host unit[pid]: message` (journalctl short/short-precise, syslog).
static JOURNAL_SHORT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^([A-Z][a-z]{2}) +(\d{1,2}) (\d{2}:\d{2}:\d{2})(\.\d+)? (\S+) ([^\s:\[]+)(?:\[\d+\])?: ?(.*)$",
    )
});
/// `2024-05-01T10:25:54[.123][+0000] host unit[pid]: message` (journalctl short-iso[-precise]).
static JOURNAL_ISO: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?) (\S+) ([^\s:\[]+)(?:\[\d+\])?: ?(.*)$",
    )
});
/// `[12345.678901] message` (dmesg) or `[Mon Nov 23 07:10:21 2026] message` (dmesg -T).
static DMESG: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^\[\s*(?:\d+\.\d+|([A-Z][a-z]{2} [A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}))\] ?(.*)$")
});
/// klog's header: severity, MMDD, time, thread id, file:line.
static KLOG: LazyLock<Regex> = LazyLock::new(|| {
    re(r"^([IWEF])(\d{2})(\d{2}) (\d{2}:\d{2}:\d{2})(\.\d+)?\s+\d+ ([^\]\s]+)\] ?(.*)$")
});
/// logrus (containerd, dockerd): `time="2024-05-01T10:25:54.123456789Z" level=error msg="…"`.
static LOGRUS_TIME: LazyLock<Regex> = LazyLock::new(|| re(r#"^time="([^"]+)""#));
static UUID: LazyLock<Regex> = LazyLock::new(|| {
    re(r"[0-9a-f]{8}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{4}[-_][0-9a-f]{12}")
});
static ID64: LazyLock<Regex> = LazyLock::new(|| re(r"\b[0-9a-f]{64}\b"));
/// `format.Pod`: `name_namespace(uid)`.
static FORMAT_POD: LazyLock<Regex> = LazyLock::new(|| {
    re(r"([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)_([a-z0-9](?:[-a-z0-9]*[a-z0-9])?)\(([0-9a-f-]{36})\)")
});
/// Structured `pod="ns/name"` (klog text) or `"pod":{"name":"…","namespace":"…"}` (JSON).
static KV_POD: LazyLock<Regex> =
    LazyLock::new(|| re(r#"\bpod="([a-z0-9][-a-z0-9]*)/([a-z0-9][-a-z0-9.]*)""#));
static JSON_POD: LazyLock<Regex> = LazyLock::new(|| {
    re(r#""pod":\{"name":"([^"]+)","namespace":"([^"]+)"(?:,"uid":"([^"]+)")?\}"#)
});
static SANDBOX_META: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"PodSandboxMetadata\{Name:([^,]*),Uid:([^,]*),Namespace:([^,]*),[^}]*\}(?:.*returns sandbox id \\?.([0-9a-f]{64}))?",
    )
});
static CONTAINER_IN_SANDBOX: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"CreateContainer within sandbox \\?"([0-9a-f]{64})\\?".*returns container id \\?"([0-9a-f]{64})"#,
    )
});

/// Reads every file under `path` (a file, a directory, or `-`) into one bundle. `reference`
/// dates lines whose prefix has no year (journal short format, klog): normally the snapshot's
/// time.
pub fn read_node_logs(
    path: &Path,
    reference: Option<Timestamp>,
    warnings: &mut Vec<InputWarning>,
) -> NodeBundle {
    let mut bundle = NodeBundle {
        origin: path.display().to_string(),
        ..Default::default()
    };
    for (name, file) in crate::open_files(path, warnings) {
        let mut reader = std::io::BufReader::with_capacity(1 << 16, file);
        if let Ok(head) = reader.fill_buf()
            && let Some(why) = crate::not_text(head)
        {
            warnings.push(crate::warn_file(&name, why.into()));
            continue;
        }
        parse_node_log(&name, reader, reference, &mut bundle, warnings);
    }
    compact(&mut bundle);
    bundle
}

/// What a table's rows are.
#[derive(Clone, Copy, PartialEq, Debug)]
enum Tool {
    DockerPs,
    CrictlPs,
    CrictlPods,
    CtrTasks,
    CtrContainers,
}

impl Tool {
    fn label(self) -> &'static str {
        match self {
            Tool::DockerPs => "docker ps",
            Tool::CrictlPs => "crictl ps",
            Tool::CrictlPods => "crictl pods",
            Tool::CtrTasks => "ctr task ls",
            Tool::CtrContainers => "ctr containers ls",
        }
    }
}

struct Table {
    tool: Tool,
    /// Column names and their start, in characters.
    columns: Vec<(String, usize)>,
    tabs: bool,
    ctr_namespace: Option<String>,
}

/// node-collect's sections.
#[derive(Clone, Copy, PartialEq)]
enum Section {
    None,
    Node,
    Processes,
    Leftovers,
    StaticPods,
    KubeletSettings,
    /// `/proc/1/mountinfo` entries under the kubelet's pods directory.
    Mounts,
    /// Processes whose working directory, root or open files are in a pod's volume.
    Holders,
}

struct FileState<'a> {
    name: &'a str,
    /// A component the file name suggests (`kubelet.log`).
    component: String,
    /// ctr's namespace from the last command line seen, or the file name.
    ctr_namespace: Option<String>,
    table: Option<Table>,
    section: Section,
    /// The memory cgroup of the last `oom-kill:` line: the `Killed process` line after it
    /// belongs to the same kill.
    last_oom: Option<(String, Vec<String>, Vec<String>)>,
}

fn hint_component(name: &str) -> &'static str {
    let base = name.rsplit('/').next().unwrap_or(name).to_ascii_lowercase();
    if base.contains("kubelet") {
        "kubelet"
    } else if base.contains("containerd") {
        "containerd"
    } else if base.contains("docker") && !base.contains("ps") {
        "dockerd"
    } else if base.contains("dmesg") || base.contains("kern") {
        "kernel"
    } else {
        ""
    }
}

fn ctr_ns_of(text: &str) -> Option<String> {
    if text.contains("moby") {
        Some("moby".into())
    } else if text.contains("k8s.io") {
        Some("k8s.io".into())
    } else {
        None
    }
}

/// Parses one file (or stream) of node evidence into `bundle`.
pub fn parse_node_log<R: BufRead>(
    name: &str,
    reader: R,
    reference: Option<Timestamp>,
    bundle: &mut NodeBundle,
    warnings: &mut Vec<InputWarning>,
) {
    let base = name.rsplit('/').next().unwrap_or(name);
    let mut st = FileState {
        name,
        component: hint_component(name).to_string(),
        ctr_namespace: ctr_ns_of(base),
        table: None,
        section: Section::None,
        last_oom: None,
    };
    let mut rows = 0usize;
    let mut truncated = false;
    let mut compact_at = bundle.lines.len() * 2 + COMPACT_SLACK;
    crate::for_each_line(name, reader, warnings, |line_no, buf, _| {
        bundle.lines_read += 1;
        let raw = String::from_utf8_lossy(buf);
        let raw = raw.trim_end_matches(['\n', '\r']);
        let line = raw.trim();
        if line.is_empty() {
            st.table = None;
            return ControlFlow::Continue(());
        }
        if let Some(sec) = line.strip_prefix(SECTION_MARKER) {
            section_start(&mut st, sec);
            return ControlFlow::Continue(());
        }
        if st.section != Section::None {
            section_line(&st, line_no, line, bundle);
            return ControlFlow::Continue(());
        }
        // A shell prompt or comment naming the command that printed what follows.
        if let Some(cmd) = line.strip_prefix("$ ").or_else(|| line.strip_prefix("# ")) {
            if cmd.contains("ctr") {
                st.ctr_namespace = ctr_ns_of(cmd);
            }
            st.table = None;
            return ControlFlow::Continue(());
        }
        if let Some(t) = table_header(raw, &st) {
            list_seen(&t, bundle);
            st.table = Some(t);
            return ControlFlow::Continue(());
        }
        if let Some(t) = &st.table {
            if let Some(r) = table_row(t, raw, &format!("{name}:{line_no}")) {
                rows += 1;
                if rows <= MAX_ROWS {
                    bundle.runtime.push(r);
                } else {
                    truncated = true;
                }
                return ControlFlow::Continue(());
            }
            st.table = None;
        }
        log_line(&mut st, line_no, line, reference, bundle);
        // Bounded memory on long logs: compact whenever the kept lines have doubled.
        if bundle.lines.len() > compact_at {
            compact(bundle);
            compact_at = 2 * bundle.lines.len() + COMPACT_SLACK;
        }
        ControlFlow::Continue(())
    });
    if truncated {
        warnings.push(crate::warn_file(
            name,
            format!("more than {MAX_ROWS} runtime list rows; the rest were not read"),
        ));
    }
}

/// A node-collect section marker (`### kubewhy node … <section>`): what the lines after it are.
fn section_start(st: &mut FileState, sec: &str) {
    st.table = None;
    st.section = match sec.split_whitespace().next().unwrap_or("") {
        "node" => Section::Node,
        "processes" => Section::Processes,
        "leftovers" => Section::Leftovers,
        "static-pods" => Section::StaticPods,
        "kubelet-settings" => Section::KubeletSettings,
        "mounts" => Section::Mounts,
        "holders" => Section::Holders,
        _ => Section::None,
    };
    if let Some(cmd) = sec.strip_prefix("command ") {
        // The output of a command follows: tables and log lines as usual.
        st.ctr_namespace = ctr_ns_of(cmd).or(st.ctr_namespace.take());
        let unit = cmd.split_whitespace().skip_while(|w| *w != "-u").nth(1);
        st.component = match unit {
            Some(u) => u.trim_end_matches(".service").to_string(),
            None if cmd.contains("dmesg") || cmd.contains(" -k") => "kernel".into(),
            None => String::new(),
        };
    } else if let Some(c) = sec.strip_prefix("log ") {
        st.component = c.trim().to_string();
    }
}

/// A line of a node-collect section: mounts under the pods directory, what holds them, or a
/// row of the other sections.
fn section_line(st: &FileState, line_no: u64, line: &str, bundle: &mut NodeBundle) {
    let name = st.name;
    match st.section {
        Section::Mounts => {
            if line.contains("/pods/") {
                let (uids, _) = refs_of(line);
                bundle.lines.push(NodeLine {
                    signal: Some(Signal::MountPresent),
                    origin: format!("{name}:{line_no}"),
                    component: "mountinfo".into(),
                    text: quote(line),
                    uids,
                    ..Default::default()
                });
            }
        }
        Section::Holders => {
            // PID COMM WHAT PATH
            let f: Vec<&str> = line.split('\t').collect();
            if let [pid, comm, what, path] = f.as_slice() {
                let (uids, _) = refs_of(path);
                bundle.lines.push(NodeLine {
                    signal: Some(Signal::MountHeld),
                    origin: format!("{name}:{line_no}"),
                    component: "proc".into(),
                    text: quote(&format!("pid {pid} ({comm}): {what} {path}")),
                    detail: format!("pid {pid} ({comm})"),
                    uids,
                    ..Default::default()
                });
            }
        }
        _ => {
            if !line.starts_with('#') {
                section_row(st, line_no, line, bundle);
            }
        }
    }
}

/// A runtime list's header: the list is named among the bundle's lists.
fn list_seen(t: &Table, bundle: &mut NodeBundle) {
    let label = match (t.tool, &t.ctr_namespace) {
        (Tool::CtrTasks | Tool::CtrContainers, Some(ns)) => {
            format!("{} -n {ns}", t.tool.label())
        }
        (tool, _) => tool.label().to_string(),
    };
    if !bundle.lists.contains(&label) {
        bundle.lists.push(label);
    }
}

/// The line as kept: credentials redacted, bounded in length. A long line keeps its start and
/// its end (klog puts the underlying error last: "… : target is busy.").
fn quote(raw: &str) -> String {
    let raw = crate::redact(raw);
    let n = raw.chars().count();
    if n <= MAX_QUOTE {
        return raw.into_owned();
    }
    let head: String = raw.chars().take(MAX_QUOTE / 3).collect();
    let tail: String = raw.chars().skip(n - (MAX_QUOTE - MAX_QUOTE / 3)).collect();
    format!("{head} … {tail}")
}

/// Reads a table header: which tool printed it and where its columns start.
fn table_header(raw: &str, st: &FileState) -> Option<Table> {
    let t = raw.trim_start();
    let tool = if t.starts_with("CONTAINER ID") && t.contains("NAMES") {
        Tool::DockerPs
    } else if t.starts_with("CONTAINER") && t.contains("STATE") && t.contains("POD ID") {
        Tool::CrictlPs
    } else if t.starts_with("POD ID") && t.contains("STATE") && t.contains("NAMESPACE") {
        Tool::CrictlPods
    } else if t.starts_with("TASK") && t.contains("PID") && t.contains("STATUS") {
        Tool::CtrTasks
    } else if t.starts_with("CONTAINER") && t.contains("IMAGE") && t.contains("RUNTIME") {
        Tool::CtrContainers
    } else {
        return None;
    };
    let tabs = t.contains('\t');
    let chars: Vec<char> = t.chars().collect();
    let mut columns = Vec::new();
    if tabs {
        for (i, c) in t
            .split('\t')
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .enumerate()
        {
            columns.push((c.to_string(), i));
        }
    } else {
        // Column names are separated by two spaces or more ("CONTAINER ID" is one name).
        let mut i = 0;
        while i < chars.len() {
            if chars[i] == ' ' {
                i += 1;
                continue;
            }
            let start = i;
            while i < chars.len()
                && !(chars[i] == ' ' && chars.get(i + 1).is_none_or(|c| *c == ' '))
            {
                i += 1;
            }
            let name: String = chars[start..i].iter().collect();
            columns.push((name.trim().to_string(), start));
        }
    }
    let ctr_namespace = match tool {
        Tool::CtrTasks | Tool::CtrContainers => st.ctr_namespace.clone(),
        _ => None,
    };
    Some(Table {
        tool,
        columns,
        tabs,
        ctr_namespace,
    })
}

fn table_row(t: &Table, raw: &str, origin: &str) -> Option<RuntimeRecord> {
    let row = raw.trim_start();
    // Cells separated by two spaces or more, when that gives every column (no empty cell);
    // else the header's offsets (docker's empty PORTS column).
    let tokens: Vec<String> = row
        .split("  ")
        .map(str::trim)
        .filter(|c| !c.is_empty())
        .map(String::from)
        .collect();
    let cells: Vec<String> = if t.tabs {
        row.split('\t').map(|c| c.trim().to_string()).collect()
    } else if tokens.len() == t.columns.len() {
        tokens
    } else {
        // tabwriter aligns in characters (docker truncates commands with '…').
        let chars: Vec<char> = row.chars().collect();
        let mut cells = Vec::new();
        for (i, (_, start)) in t.columns.iter().enumerate() {
            let end = t
                .columns
                .get(i + 1)
                .map_or(chars.len(), |c| c.1)
                .min(chars.len());
            let start = (*start).min(end);
            cells.push(
                chars[start..end]
                    .iter()
                    .collect::<String>()
                    .trim()
                    .to_string(),
            );
        }
        cells
    };
    let get = |name: &str| -> Option<&str> {
        t.columns
            .iter()
            .position(|(n, _)| n == name)
            .and_then(|i| cells.get(i))
            .map(String::as_str)
            .filter(|s| !s.is_empty())
    };
    let id = cells.first()?.split_whitespace().next()?.to_string();
    if id.len() < 12 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut r = RuntimeRecord {
        tool: t.tool.label(),
        ctr_namespace: t.ctr_namespace.clone(),
        origin: origin.to_string(),
        id,
        text: quote(raw.trim()),
        ..Default::default()
    };
    match t.tool {
        Tool::DockerPs => {
            r.state = get("STATUS").unwrap_or("").to_string();
            r.running = Some(r.state.starts_with("Up"));
            let names = get("NAMES").unwrap_or("");
            r.name = names.to_string();
            // dockershim: k8s_<container>_<pod>_<namespace>_<uid>_<attempt>
            let parts: Vec<&str> = names.split('_').collect();
            if parts.len() == 6 && parts[0] == "k8s" {
                r.name = parts[1].to_string();
                r.pod_name = Some(parts[2].to_string());
                r.pod_namespace = Some(parts[3].to_string());
                r.pod_uid = Some(parts[4].to_string());
            }
        }
        Tool::CrictlPs => {
            r.state = get("STATE").unwrap_or("").to_string();
            r.running = Some(r.state.eq_ignore_ascii_case("running"));
            r.name = get("NAME").unwrap_or("").to_string();
            r.sandbox = get("POD ID").map(String::from);
            r.pod_name = get("POD").map(String::from);
            r.pod_namespace = get("NAMESPACE").map(String::from);
        }
        Tool::CrictlPods => {
            r.state = get("STATE").unwrap_or("").to_string();
            r.running = Some(r.state.eq_ignore_ascii_case("ready"));
            r.sandbox = Some(r.id.clone());
            r.pod_name = get("NAME").map(String::from);
            r.pod_namespace = get("NAMESPACE").map(String::from);
        }
        Tool::CtrTasks => {
            r.state = get("STATUS").unwrap_or("").to_string();
            r.running = Some(r.state.eq_ignore_ascii_case("running"));
        }
        Tool::CtrContainers => {
            r.name = get("IMAGE").unwrap_or("").to_string();
        }
    }
    Some(r)
}

/// A row of one of node-collect's own sections (tab-separated).
fn section_row(st: &FileState, line_no: u64, line: &str, bundle: &mut NodeBundle) {
    let origin = format!("{}:{line_no}", st.name);
    let f: Vec<&str> = line.split('\t').collect();
    match st.section {
        Section::Node => match (f.first().copied(), f.get(1).map(|s| s.trim())) {
            (Some("node"), Some(v)) if !v.is_empty() => bundle.node = Some(v.to_string()),
            (Some("hostname"), Some(v)) if !v.is_empty() => bundle.hostname = Some(v.to_string()),
            (Some("collected"), Some(v)) => bundle.collected = v.parse().ok(),
            (Some("note"), Some(v)) => bundle.notes.push(v.to_string()),
            _ => {}
        },
        Section::Processes => {
            // PID STATE COMMAND CGROUP
            if let (Some(pid), Some(state), Some(cmd)) = (f.first(), f.get(1), f.get(2)) {
                let Ok(pid) = pid.trim().parse() else { return };
                let cgroup = f.get(3).copied().unwrap_or("").to_string();
                let (uids, ids) = refs_of(&cgroup);
                bundle.processes.push(NodeProcess {
                    origin,
                    pid,
                    state: state.chars().next().unwrap_or('?'),
                    command: quote(cmd),
                    cgroup,
                    uids,
                    ids,
                });
            }
        }
        Section::Leftovers => {
            // WHAT UID PATH DETAIL
            if let (Some(what), Some(uid), Some(path)) = (f.first(), f.get(1), f.get(2)) {
                bundle.leftovers.push(Leftover {
                    origin,
                    what: what.to_string(),
                    uid: uid.replace('_', "-"),
                    path: path.to_string(),
                    detail: f.get(3).copied().unwrap_or("").to_string(),
                });
            }
        }
        Section::StaticPods => {
            // PATH SHA256 MODIFIED NAMESPACE/NAME container=image;…
            if let (Some(path), Some(sha), Some(modified), Some(pod)) =
                (f.first(), f.get(1), f.get(2), f.get(3))
            {
                let (namespace, name) = pod.split_once('/').unwrap_or(("", pod));
                let images = f
                    .get(4)
                    .map(|s| {
                        s.split(';')
                            .filter_map(|p| p.split_once('='))
                            .map(|(c, i)| (c.to_string(), i.to_string()))
                            .collect()
                    })
                    .unwrap_or_default();
                bundle.manifests.push(StaticManifest {
                    origin,
                    path: path.to_string(),
                    namespace: if namespace.is_empty() {
                        "default"
                    } else {
                        namespace
                    }
                    .to_string(),
                    name: name.to_string(),
                    images,
                    modified: modified.parse().ok(),
                    sha256: sha.to_string(),
                });
            }
        }
        Section::KubeletSettings => {
            let k = bundle.kubelet.get_or_insert_with(|| KubeletSettings {
                origin: origin.clone(),
                ..Default::default()
            });
            let v = f.get(1).map(|s| s.trim()).unwrap_or("");
            match f.first().copied().unwrap_or("") {
                "kubeAPIQPS" => k.kube_api_qps = v.parse().ok(),
                "kubeAPIBurst" => k.kube_api_burst = v.parse().ok(),
                "maxPods" => k.max_pods = v.parse().ok(),
                "staticPodPath" => {
                    k.static_pod_path = Some(v.to_string()).filter(|s| !s.is_empty())
                }
                "source" => k.origin = format!("{origin} ({v})"),
                _ => {}
            }
        }
        Section::None | Section::Mounts | Section::Holders => {}
    }
}

/// Pod UIDs and 64-hex IDs in a text (cgroup paths write UIDs with `_` under systemd).
fn refs_of(text: &str) -> (Vec<String>, Vec<String>) {
    let mut uids: Vec<String> = UUID
        .find_iter(text)
        .map(|m| m.as_str().replace('_', "-"))
        .collect();
    uids.dedup();
    let mut ids: Vec<String> = ID64
        .find_iter(text)
        .map(|m| m.as_str().to_string())
        .collect();
    ids.dedup();
    (uids, ids)
}

use kubewhy_model::messages::node::{classify, may_matter};

/// The year a date without one belongs to: that of `reference`, or the one before when that
/// would put it in the future.
fn date_without_year(month_day_time: &str, reference: Option<Timestamp>) -> Option<Timestamp> {
    let reference = reference.unwrap_or_else(Timestamp::now);
    let year = reference.to_zoned(jiff::tz::TimeZone::UTC).year();
    for y in [year, year - 1] {
        let s = format!("{y} {month_day_time}");
        if let Ok(dt) = jiff::civil::DateTime::strptime("%Y %b %d %H:%M:%S", &s)
            && let Ok(t) = dt.to_zoned(jiff::tz::TimeZone::UTC).map(|z| z.timestamp())
            && t <= reference + jiff::SignedDuration::from_hours(24)
        {
            return Some(t);
        }
    }
    None
}

/// `t` plus a fraction of a second written `.335030`.
fn with_fraction(t: Timestamp, frac: &str) -> Timestamp {
    let digits: String = frac.trim_start_matches('.').chars().take(9).collect();
    let nanos = format!("{digits:0<9}").parse::<i64>().unwrap_or(0);
    t.checked_add(jiff::SignedDuration::from_nanos(nanos))
        .unwrap_or(t)
}

fn parse_time(s: &str) -> Option<Timestamp> {
    s.parse::<Timestamp>().ok().or_else(|| {
        // short-iso without a colon in the offset: 2024-05-01T10:25:54+0000
        let (head, off) = s.split_at(s.len().checked_sub(5)?);
        if off.starts_with(['+', '-']) {
            format!("{head}{}:{}", &off[..3], &off[3..]).parse().ok()
        } else {
            None
        }
    })
}

fn log_line(
    st: &mut FileState,
    line_no: u64,
    line: &str,
    reference: Option<Timestamp>,
    bundle: &mut NodeBundle,
) {
    if !may_matter(line) {
        return;
    }
    if line.contains("oom-kill:constraint=")
        || (line.contains("Task in ") && line.contains("killed as a result of limit"))
    {
        // The kill's memory cgroup: the "Killed process" line that follows is the same kill
        // and is kept with it.
        let (uids, ids) = refs_of(line);
        let detail = classify(line)
            .map(|(_, d)| d)
            .unwrap_or_else(|| "the container's memory limit (cgroup)".into());
        st.last_oom = Some((detail, uids, ids));
        return;
    }
    if link_line(line, bundle) {
        return;
    }
    let Some((signal, detail)) = classify(line) else {
        return;
    };
    // Only a line that matters is taken apart: who wrote it, where, when.
    let (host, mut component, time, msg) = prefix(line, &st.component, reference);
    let (mut uids, mut ids) = refs_of(msg);
    let mut detail = detail;
    if signal == Signal::OomKill
        && uids.is_empty()
        && let Some((d, u, i)) = st.last_oom.take()
    {
        uids = u;
        ids = i;
        detail = d;
    }
    let mut pods = pods_named(msg, &mut uids);
    uids.sort();
    uids.dedup();
    pods.sort();
    pods.dedup();
    if component.is_empty() && signal == Signal::OomKill {
        component = "kernel".into();
    }
    bundle.lines.push(NodeLine {
        signal: Some(signal),
        origin: format!("{}:{line_no}", st.name),
        host,
        component,
        time,
        text: quote(line),
        detail,
        uids,
        ids,
        pods,
        dropped_before: 0,
    });
}

/// Which pod a sandbox is, which sandbox a container runs in: kept as links, not lines.
fn link_line(line: &str, bundle: &mut NodeBundle) -> bool {
    if line.contains("returns sandbox id")
        && let Some(c) = SANDBOX_META.captures(line)
        && let Some(id) = c.get(4)
    {
        bundle.links.push(IdLink {
            id: id.as_str().into(),
            sandbox: None,
            pod: Some((c[3].into(), c[1].into(), c[2].into())),
        });
        return true;
    }
    if line.contains("CreateContainer within sandbox")
        && let Some(c) = CONTAINER_IN_SANDBOX.captures(line)
    {
        bundle.links.push(IdLink {
            id: c[2].into(),
            sandbox: Some(c[1].into()),
            pod: None,
        });
        return true;
    }
    false
}

/// A log line's prefix taken apart: its host, component (`component` when it names none), time
/// and message.
fn prefix<'a>(
    line: &'a str,
    component: &str,
    reference: Option<Timestamp>,
) -> (Option<String>, String, Option<Timestamp>, &'a str) {
    let mut host = None;
    let mut component = component.to_string();
    let mut time = None;
    let mut msg = line;
    if let Some(c) = JOURNAL_ISO.captures(line) {
        time = parse_time(&c[1]);
        host = Some(c[2].to_string());
        component = c[3].to_string();
        msg = c.get(4).map_or("", |m| m.as_str());
    } else if let Some(c) = JOURNAL_SHORT.captures(line) {
        time = date_without_year(&format!("{} {} {}", &c[1], &c[2], &c[3]), reference)
            .map(|t| with_fraction(t, c.get(4).map_or("", |m| m.as_str())));
        host = Some(c[5].to_string());
        component = c[6].to_string();
        msg = c.get(7).map_or("", |m| m.as_str());
    } else if let Some(c) = DMESG.captures(line) {
        component = "kernel".into();
        // `dmesg -T` dates its lines (in the node's local time; UTC assumed).
        time = c.get(1).and_then(|d| {
            jiff::civil::DateTime::strptime("%a %b %e %H:%M:%S %Y", d.as_str())
                .ok()
                .and_then(|dt| dt.to_zoned(jiff::tz::TimeZone::UTC).ok())
                .map(|z| z.timestamp())
        });
        msg = c.get(2).map_or("", |m| m.as_str());
    }
    if let Some(c) = KLOG.captures(msg) {
        if time.is_none() {
            time = date_without_year(
                &format!("{} {} {}", month_name(&c[2]).unwrap_or("Jan"), &c[3], &c[4]),
                reference,
            )
            .map(|t| with_fraction(t, c.get(5).map_or("", |m| m.as_str())));
        }
    } else if let Some(c) = LOGRUS_TIME.captures(msg)
        && time.is_none()
    {
        time = c[1].parse().ok();
    }
    (host, component, time, msg)
}

/// The pods a message names (namespace, name), in any of the kubelet's and runtimes' wordings;
/// the UIDs among them are added to `uids`.
fn pods_named(msg: &str, uids: &mut Vec<String>) -> Vec<(String, String)> {
    let mut pods = Vec::new();
    for c in FORMAT_POD.captures_iter(msg) {
        pods.push((c[2].to_string(), c[1].to_string()));
        uids.push(c[3].to_string());
    }
    for c in KV_POD.captures_iter(msg) {
        pods.push((c[1].to_string(), c[2].to_string()));
    }
    for c in JSON_POD.captures_iter(msg) {
        pods.push((c[2].to_string(), c[1].to_string()));
        if let Some(u) = c.get(3) {
            uids.push(u.as_str().to_string());
        }
    }
    if msg.contains("PodSandboxMetadata")
        && let Some(c) = SANDBOX_META.captures(msg)
    {
        pods.push((c[3].to_string(), c[1].to_string()));
        uids.push(c[2].to_string());
    }
    pods
}

fn month_name(mm: &str) -> Option<&'static str> {
    const M: [&str; 12] = [
        "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
    ];
    M.get(mm.parse::<usize>().ok()?.checked_sub(1)?).copied()
}

/// Bounds what is kept: per signal and subject (its first UID, ID or pod, else the node), the
/// first line and the last `KEEP_PER_SUBJECT - 1`. Run as lines accumulate and at the end.
pub(crate) fn compact(bundle: &mut NodeBundle) {
    let mut count: HashMap<(Option<Signal>, String), usize> = HashMap::new();
    let key = |l: &NodeLine| {
        (
            l.signal,
            l.uids
                .first()
                .or(l.ids.first())
                .cloned()
                .or_else(|| l.pods.first().map(|(n, p)| format!("{n}/{p}")))
                .unwrap_or_default(),
        )
    };
    for l in &bundle.lines {
        *count.entry(key(l)).or_default() += 1;
    }
    // Kept: the first and the last KEEP_PER_SUBJECT - 1 of each subject; the first kept line of
    // the tail counts the ones dropped before it.
    let mut seen: HashMap<(Option<Signal>, String), (usize, u64)> = HashMap::new();
    let lines = std::mem::take(&mut bundle.lines);
    for mut l in lines {
        let k = key(&l);
        let total = count[&k];
        let (i, dropped) = seen.entry(k).or_default();
        *i += 1;
        if *i == 1 || *i + KEEP_PER_SUBJECT > total + 1 {
            l.dropped_before += std::mem::take(dropped);
            bundle.lines.push(l);
        } else {
            *dropped += 1 + l.dropped_before;
        }
    }
}

/// A static pod manifest's namespace, name and (container, image) pairs; `None` when it is not
/// a Pod the kubelet could read. Nothing else of it is read (no env values).
/// A static pod manifest in short: namespace, name, (container, image) pairs.
pub type StaticPodSummary = (String, String, Vec<(String, String)>);

pub fn static_pod_summary(text: &str) -> Option<StaticPodSummary> {
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct Manifest {
        kind: String,
        metadata: Meta,
        spec: Spec,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct Meta {
        name: String,
        namespace: Option<String>,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(default, rename_all = "camelCase")]
    struct Spec {
        containers: Vec<C>,
        init_containers: Vec<C>,
    }
    #[derive(serde::Deserialize, Default)]
    #[serde(default)]
    struct C {
        name: String,
        image: String,
    }
    let m: Manifest = if text.trim_start().starts_with('{') {
        serde_json::from_str(text).ok()?
    } else {
        crate::yaml::from_str(text).ok()?
    };
    if m.kind != "Pod" || m.metadata.name.is_empty() {
        return None;
    }
    let images = m
        .spec
        .init_containers
        .into_iter()
        .chain(m.spec.containers)
        .map(|c| (c.name, c.image))
        .collect();
    Some((
        m.metadata.namespace.unwrap_or_else(|| "default".into()),
        m.metadata.name,
        images,
    ))
}

#[cfg(test)]
mod tests;
