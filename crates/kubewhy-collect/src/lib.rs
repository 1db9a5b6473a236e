//! `kubewhy node-collect`: gathers bounded node evidence into a bundle that `--node-logs` reads.
//!
//! It only reads. Every part has a size cap; what cannot be gathered (a missing tool, a
//! permission, a hung runtime) becomes a note in the bundle, never an error. Log text passes
//! through the redactor; environments and command lines of other processes are never read.
//!
//! Each part of the bundle is one function (`kubelet`, `logs`, `kernel_log`, `runtime_lists`,
//! `mounts`, `leftovers`, `stuck_processes`, `holders`, `static_pods`), reading the node through
//! `Options::root` (its filesystem), `Options::proc` (its processes) and `Commands` (its tools),
//! so that a test can hand it a node made of files.

use kubewhy_model::redact::LineRedactor;
use kubewhy_source::{SECTION_MARKER, redact};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Where and how much to gather.
#[derive(Debug, Clone)]
pub struct Options {
    /// The node's root filesystem (`/`, or `/host` in a `kubectl debug node/…` pod).
    pub root: PathBuf,
    /// The node's processes (`/proc`).
    pub proc: PathBuf,
    /// Where else the node's cgroups may be mounted when `root` is not `/` (a privileged debug
    /// pod also sees them at `/sys/fs/cgroup`); `None`: nowhere else.
    pub host_cgroups: Option<PathBuf>,
    /// The node's name; default: the kubelet's --hostname-override, else the host name.
    pub node: Option<String>,
    /// How far back the journal parts go (journalctl --since).
    pub since: String,
    /// Largest log part, in bytes (the most recent lines are kept).
    pub max_bytes: u64,
    /// The kubelet's and the runtime's log files, when they do not log where kubewhy looks.
    pub kubelet_log: Option<PathBuf>,
    pub runtime_log: Option<PathBuf>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            root: PathBuf::from("/"),
            proc: PathBuf::from("/proc"),
            host_cgroups: Some(PathBuf::from("/sys/fs/cgroup")),
            node: None,
            since: "-2h".into(),
            max_bytes: 16 * 1024 * 1024,
            kubelet_log: None,
            runtime_log: None,
        }
    }
}

/// What a command gave.
#[derive(Debug, Clone)]
pub enum Ran {
    /// It ran and succeeded: the last bytes of its output.
    Output(String),
    /// It ran and failed: its exit status, the first line of its error output, and what it
    /// printed.
    Failed {
        status: String,
        stderr: String,
        stdout: String,
    },
    /// It could not be started (not installed, not permitted).
    NotRun(String),
    /// It did not answer within 20 s.
    TimedOut,
}

/// How commands run on the node: for real (`System`), or as a test says.
pub trait Commands {
    /// Runs `args` (chrooted into `root` unless it is `/`), keeping the last `cap` bytes of its
    /// output.
    fn run(&mut self, root: &Path, args: &[&str], cap: u64) -> Ran;
}

/// Runs commands for real, 20 s at most each.
pub struct System;

impl Commands for System {
    fn run(&mut self, root: &Path, args: &[&str], cap: u64) -> Ran {
        let mut cmd = Command::new(args[0]);
        cmd.args(&args[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if root != Path::new("/") {
            let root = root.to_path_buf();
            // SAFETY: only async-signal-safe calls between fork and exec (chroot, chdir).
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
                    std::os::unix::fs::chroot(&root)?;
                    std::env::set_current_dir("/")
                });
            }
        }
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => return Ran::NotRun(e.to_string()),
        };
        let (Some(mut stdout), Some(mut stderr)) = (child.stdout.take(), child.stderr.take())
        else {
            return Ran::NotRun("no output pipes".into());
        };
        let reader = std::thread::spawn(move || tail_of(&mut stdout, cap));
        let err_reader = std::thread::spawn(move || tail_of(&mut stderr, 4096));
        let started = Instant::now();
        let status = loop {
            match child.try_wait() {
                Ok(Some(s)) => break Some(s),
                Ok(None) if started.elapsed() > Duration::from_secs(20) => {
                    let _ = child.kill();
                    let _ = child.wait();
                    break None;
                }
                Ok(None) => std::thread::sleep(Duration::from_millis(50)),
                Err(_) => break None,
            }
        };
        let out = reader.join().unwrap_or_default();
        let err = err_reader.join().unwrap_or_default();
        match status {
            None => Ran::TimedOut,
            Some(s) if !s.success() => Ran::Failed {
                status: s.to_string(),
                stderr: err,
                stdout: out,
            },
            Some(_) => Ran::Output(out),
        }
    }
}

/// A gathered bundle: its parts (file name, text) and what could not be gathered.
#[derive(Debug, Clone)]
pub struct Bundle {
    pub node: String,
    pub hostname: String,
    pub collected: jiff::Timestamp,
    /// Every part, `node.txt` (who, when, the notes) first.
    pub parts: Vec<(String, String)>,
    pub notes: Vec<String>,
}

impl Bundle {
    /// Where the bundle goes by default: `kubewhy-node-<node>-<UTC time>`.
    pub fn default_dir(&self) -> PathBuf {
        PathBuf::from(format!(
            "kubewhy-node-{}-{}",
            self.node,
            self.collected.strftime("%Y%m%dT%H%M%SZ")
        ))
    }

    /// Every part as one text stream (`--out -`).
    pub fn write_stream(&self, out: &mut impl Write) -> std::io::Result<()> {
        for (_, text) in &self.parts {
            out.write_all(text.as_bytes())?;
        }
        out.flush()
    }

    /// One file per part in `dir` (created).
    pub fn write_dir(&self, dir: &Path) -> Result<(), String> {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        for (file, text) in &self.parts {
            let p = dir.join(file);
            std::fs::write(&p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))?;
        }
        Ok(())
    }

    pub fn bytes(&self) -> usize {
        self.parts.iter().map(|(_, t)| t.len()).sum()
    }
}

/// Gathers the bundle.
pub fn collect(opts: &Options, commands: &mut dyn Commands) -> Bundle {
    let started = jiff::Timestamp::now();
    let mut c = Collector {
        opts,
        commands,
        notes: Vec::new(),
        parts: Vec::new(),
    };
    let kubelet = kubelet(&mut c);
    let hostname = std::fs::read_to_string(opts.proc.join("sys/kernel/hostname"))
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let node = opts
        .node
        .clone()
        .or_else(|| {
            kubelet
                .process
                .as_ref()
                .and_then(|k| flag(k, "hostname-override"))
        })
        .unwrap_or_else(|| hostname.clone());
    let journal = journal(&mut c);
    logs(&mut c, journal);
    kernel_log(&mut c, journal);
    runtime_lists(&mut c, kubelet.runtime_socket.as_deref());
    let pods_dir = format!("{}/pods/", kubelet.root_dir.trim_end_matches('/'));
    mounts(&mut c, &pods_dir);
    leftovers(&mut c, &pods_dir);
    stuck_processes(&mut c);
    holders(&mut c, &pods_dir);
    if let Some(dir) = kubelet.settings.get("staticPodPath") {
        static_pods(&mut c, dir);
    }

    let mut meta = format!("node\t{node}\nhostname\t{hostname}\ncollected\t{started}\n");
    for n in &c.notes {
        meta.push_str(&format!("note\t{}\n", n.replace(['\t', '\n'], " ")));
    }
    let mut parts = vec![(
        "node.txt".to_string(),
        format!("{SECTION_MARKER}node\n{meta}"),
    )];
    parts.append(&mut c.parts);
    Bundle {
        node,
        hostname,
        collected: started,
        parts,
        notes: c.notes,
    }
}

/// A process found through /proc: its PID and its arguments.
struct Proc {
    pid: u32,
    args: Vec<String>,
}

struct Collector<'a> {
    opts: &'a Options,
    commands: &'a mut dyn Commands,
    notes: Vec<String>,
    parts: Vec<(String, String)>,
}

impl Collector<'_> {
    fn host_path(&self, p: &str) -> PathBuf {
        if self.opts.root == Path::new("/") {
            PathBuf::from(p)
        } else {
            self.opts.root.join(p.trim_start_matches('/'))
        }
    }

    fn proc_path(&self, p: impl AsRef<Path>) -> PathBuf {
        self.opts.proc.join(p)
    }

    /// Runs a command, keeping the last `cap` bytes of its output; what went wrong is a note.
    fn run(&mut self, args: &[&str], cap: u64) -> Option<String> {
        let shown = args.join(" ");
        match self.commands.run(&self.opts.root, args, cap) {
            Ran::Output(out) => Some(out),
            Ran::NotRun(e) => {
                self.notes.push(format!("{shown}: not run ({e})"));
                None
            }
            Ran::TimedOut => {
                self.notes.push(format!(
                    "{shown}: no answer within 20 s (a hung runtime is evidence too)"
                ));
                None
            }
            Ran::Failed {
                status,
                stderr,
                stdout,
            } => {
                let first = stderr.lines().next().unwrap_or("").trim().to_string();
                self.notes
                    .push(format!("{shown}: {status}: {}", redact(&first)));
                (!stdout.trim().is_empty()).then_some(stdout)
            }
        }
    }

    /// The last `max_bytes` of a file, from its first whole line.
    fn file_tail(&mut self, path: &Path) -> Option<String> {
        let max = self.opts.max_bytes.max(1);
        let mut f = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                self.notes
                    .push(format!("{}: not read ({e})", path.display()));
                return None;
            }
        };
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let start = len.saturating_sub(max);
        if f.seek(SeekFrom::Start(start)).is_err() {
            return None;
        }
        let mut buf = Vec::new();
        let _ = f.take(max).read_to_end(&mut buf);
        let mut text = String::from_utf8_lossy(&buf).into_owned();
        if start > 0
            && let Some(nl) = text.find('\n')
        {
            text.drain(..=nl);
        }
        Some(text)
    }

    fn part(&mut self, file: &str, section: &str, body: &str) {
        let mut text = format!("{SECTION_MARKER}{section}\n");
        // A bundle may be printed (`--out -`, then `kubectl logs`): its lines carry no escapes.
        let mut redactor = LineRedactor::default();
        for line in body.lines() {
            text.push_str(&kubewhy_report::sanitize(&redactor.line(line)));
            text.push('\n');
        }
        self.parts.push((file.to_string(), text));
    }

    fn find_process(&self, comm: &str) -> Option<Proc> {
        for e in std::fs::read_dir(&self.opts.proc).ok()?.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            let Ok(c) = std::fs::read_to_string(self.proc_path(format!("{pid}/comm"))) else {
                continue;
            };
            if c.trim() != comm {
                continue;
            }
            let args = std::fs::read(self.proc_path(format!("{pid}/cmdline")))
                .map(|b| {
                    b.split(|x| *x == 0)
                        .filter(|a| !a.is_empty())
                        .map(|a| String::from_utf8_lossy(a).into_owned())
                        .collect()
                })
                .unwrap_or_default();
            return Some(Proc { pid, args });
        }
        None
    }

    /// The file a process writes its stderr (or stdout) to, when that is a regular file on the
    /// node (its path as the process sees it).
    fn log_file_of(&self, p: &Proc) -> Option<PathBuf> {
        for fd in [2, 1] {
            let link = self.proc_path(format!("{}/fd/{fd}", p.pid));
            if let Ok(target) = std::fs::read_link(&link)
                && target.is_absolute()
                && std::fs::metadata(self.host_path(&target.to_string_lossy()))
                    .is_ok_and(|m| m.is_file())
            {
                return Some(target);
            }
        }
        None
    }
}

/// `--name=value` or `--name value` from a process's arguments.
fn flag(p: &Proc, name: &str) -> Option<String> {
    let long = format!("--{name}");
    let mut it = p.args.iter();
    while let Some(a) = it.next() {
        if let Some(v) = a.strip_prefix(&format!("{long}=")) {
            return Some(v.to_string());
        }
        if *a == long {
            return it.next().cloned();
        }
    }
    None
}

/// What the kubelet's process and configuration say.
struct Kubelet {
    process: Option<Proc>,
    settings: BTreeMap<&'static str, String>,
    root_dir: String,
    runtime_socket: Option<String>,
}

/// The kubelet's settings: its configuration file, then its flags (flags win). Part
/// `kubelet-settings.txt`.
fn kubelet(c: &mut Collector) -> Kubelet {
    let process = c.find_process("kubelet");
    if process.is_none() {
        c.notes.push(
            "no kubelet process found in /proc (run on the node, or in a debug pod that shares its PID namespace)"
                .into(),
        );
    }
    let mut settings: BTreeMap<&'static str, String> = BTreeMap::new();
    let mut root_dir = "/var/lib/kubelet".to_string();
    let mut runtime_socket: Option<String> = None;
    if let Some(k) = &process {
        if let Some(cfg) = flag(k, "config") {
            match std::fs::read_to_string(c.host_path(&cfg)) {
                Ok(text) => {
                    for key in [
                        "kubeAPIQPS",
                        "kubeAPIBurst",
                        "maxPods",
                        "staticPodPath",
                        "containerRuntimeEndpoint",
                    ] {
                        if let Some(v) = top_level_value(&text, key) {
                            settings.insert(key, v);
                        }
                    }
                    settings.insert("source", format!("config file {cfg}"));
                }
                Err(e) => c
                    .notes
                    .push(format!("kubelet config {cfg}: not read ({e})")),
            }
        }
        for (f, name) in [
            ("kube-api-qps", "kubeAPIQPS"),
            ("kube-api-burst", "kubeAPIBurst"),
            ("max-pods", "maxPods"),
            ("pod-manifest-path", "staticPodPath"),
            ("container-runtime-endpoint", "containerRuntimeEndpoint"),
        ] {
            if let Some(v) = flag(k, f) {
                settings.insert(name, v);
            }
        }
        if let Some(r) = flag(k, "root-dir") {
            root_dir = r;
        }
        runtime_socket = settings
            .get("containerRuntimeEndpoint")
            .map(|e| e.trim_start_matches("unix://").to_string());
    }
    let settings_text: String = settings
        .iter()
        .filter(|(k, _)| **k != "containerRuntimeEndpoint")
        .map(|(k, v)| format!("{k}\t{v}\n"))
        .collect();
    if !settings_text.is_empty() {
        c.part("kubelet-settings.txt", "kubelet-settings", &settings_text);
    }
    Kubelet {
        process,
        settings,
        root_dir,
        runtime_socket,
    }
}

/// Whether the journal can be read.
fn journal(c: &mut Collector) -> bool {
    let journal = c.run(&["journalctl", "--version"], 4096).is_some();
    if !journal {
        // Said once, plainly, instead of the probe's error.
        c.notes.retain(|n| !n.starts_with("journalctl --version"));
        c.notes.push(
            "journalctl: not available; logs were read from the files the processes write to"
                .into(),
        );
    }
    journal
}

/// The kubelet's and the runtime's logs: the file the process writes to (or the one named),
/// else the journal. Parts `kubelet.log`, `containerd.log`, `docker.log`.
fn logs(c: &mut Collector, journal: bool) {
    let log_sources: [(&str, &str, Option<PathBuf>); 3] = [
        ("kubelet", "kubelet", c.opts.kubelet_log.clone()),
        ("containerd", "containerd", c.opts.runtime_log.clone()),
        ("docker", "dockerd", None),
    ];
    for (unit, comm, given) in log_sources {
        let file = format!("{unit}.log");
        let process = c.find_process(comm);
        let from_file = given.or_else(|| process.as_ref().and_then(|p| c.log_file_of(p)));
        if let Some(path) = from_file
            && let Some(text) = c.file_tail(&c.host_path(&path.to_string_lossy()))
        {
            c.part(&file, &format!("log {unit}"), &text);
            continue;
        }
        if journal {
            let out = journalctl(c, &["-u", unit]);
            if let Some(text) =
                out.filter(|t| !t.trim().is_empty() && !t.starts_with("-- No entries --"))
            {
                c.part(&file, &format!("command journalctl -u {unit}"), &text);
            }
        } else if process.is_some() {
            c.notes.push(format!("{unit}: runs, but logs neither to a file nor to a journal kubewhy can read; pass --{}-log", if unit == "kubelet" { "kubelet" } else { "runtime" }));
        }
    }
}

/// `journalctl SELECT --since … --no-pager -o short-iso-precise`, its last `max_bytes`.
fn journalctl(c: &mut Collector, select: &[&str]) -> Option<String> {
    let since = c.opts.since.clone();
    let mut args = vec!["journalctl"];
    args.extend_from_slice(select);
    args.extend(["--since", &since, "--no-pager", "-o", "short-iso-precise"]);
    c.run(&args, c.opts.max_bytes.max(1))
}

/// The kernel's log: the journal's, else dmesg. Part `kernel.log`.
fn kernel_log(c: &mut Collector, journal: bool) {
    let kernel = if journal {
        journalctl(c, &["-k"]).filter(|t| t.lines().count() > 1)
    } else {
        None
    }
    .or_else(|| c.run(&["dmesg"], c.opts.max_bytes.max(1)));
    if let Some(k) = kernel {
        c.part("kernel.log", "log kernel", &k);
    }
}

/// The runtime's container, sandbox and task lists (crictl, ctr, docker).
fn runtime_lists(c: &mut Collector, runtime_socket: Option<&str>) {
    let sock_args: Vec<String> = runtime_socket
        .iter()
        .flat_map(|s| ["--address".to_string(), s.to_string()])
        .collect();
    let list_cap = 8 * 1024 * 1024;
    let crictl_ep: Vec<String> = runtime_socket
        .iter()
        .flat_map(|s| ["--runtime-endpoint".to_string(), format!("unix://{s}")])
        .collect();
    let mut lists: Vec<(String, Vec<String>)> = vec![
        (
            "crictl-ps.txt".into(),
            [&crictl_ep[..], &["ps".into(), "-a".into()]].concat(),
        ),
        (
            "crictl-pods.txt".into(),
            [&crictl_ep[..], &["pods".into()]].concat(),
        ),
    ];
    for ns in ["k8s.io", "moby"] {
        lists.push((
            format!("ctr-{ns}-tasks.txt"),
            [
                &sock_args[..],
                &["-n".into(), ns.into(), "task".into(), "ls".into()],
            ]
            .concat(),
        ));
    }
    lists.push(("docker-ps.txt".into(), vec!["ps".into(), "-a".into()]));
    for (file, list_args) in lists {
        let tool = if file.starts_with("crictl") {
            "crictl"
        } else if file.starts_with("ctr") {
            "ctr"
        } else {
            "docker"
        };
        let argv: Vec<&str> = std::iter::once(tool)
            .chain(list_args.iter().map(String::as_str))
            .collect();
        if let Some(out) = c.run(&argv, list_cap) {
            c.part(&file, &format!("command {}", argv.join(" ")), &out);
        }
    }
}

/// Mounts under the kubelet's pods directory, as the host's PID 1 sees them. Part `mounts.txt`.
fn mounts(c: &mut Collector, pods_dir: &str) {
    match std::fs::read_to_string(c.proc_path("1/mountinfo")) {
        Ok(m) => {
            let body: String = m
                .lines()
                .filter(|l| l.contains(pods_dir))
                .take(20_000)
                .map(|l| format!("{l}\n"))
                .collect();
            c.part("mounts.txt", "mounts", &body);
        }
        Err(e) => c.notes.push(format!("/proc/1/mountinfo: not read ({e})")),
    }
}

/// Pod directories and pod cgroups on disk. Part `leftovers.txt`.
fn leftovers(c: &mut Collector, pods_dir: &str) {
    let mut left = String::new();
    match std::fs::read_dir(c.host_path(pods_dir)) {
        Ok(rd) => {
            for e in rd.flatten().take(20_000) {
                let uid = e.file_name().to_string_lossy().into_owned();
                let vols = volume_names(&e.path().join("volumes"));
                left.push_str(&format!(
                    "pod-dir\t{uid}\t{}\tvolumes={}\n",
                    Path::new(pods_dir).join(&uid).display(),
                    vols.join(",")
                ));
            }
        }
        Err(e) => c.notes.push(format!("{pods_dir}: not read ({e})")),
    }
    let mut cgroups = Vec::new();
    walk_pod_cgroups(&c.host_path("/sys/fs/cgroup"), 0, &mut cgroups);
    if cgroups.is_empty()
        && c.opts.root != Path::new("/")
        && let Some(host) = &c.opts.host_cgroups
    {
        // In a privileged debug pod the node's cgroups are also mounted at the usual place.
        walk_pod_cgroups(host, 0, &mut cgroups);
    }
    cgroups.sort();
    cgroups.dedup_by(|a, b| a.0 == b.0);
    for (uid, path) in cgroups.iter().take(20_000) {
        left.push_str(&format!("pod-cgroup\t{uid}\t{path}\t\n"));
    }
    c.part("leftovers.txt", "leftovers", &left);
}

/// The PIDs under `proc`.
fn pids(proc: &Path) -> Vec<u32> {
    let mut out: Vec<u32> = std::fs::read_dir(proc)
        .map(|rd| {
            rd.flatten()
                .filter_map(|e| e.file_name().to_str().and_then(|s| s.parse().ok()))
                .collect()
        })
        .unwrap_or_default();
    out.sort_unstable();
    out
}

/// Processes that cannot die (Z) or are stuck in the kernel (D), with their cgroup. Part
/// `processes.txt`.
fn stuck_processes(c: &mut Collector) {
    let mut procs = String::new();
    for pid in pids(&c.opts.proc) {
        let Ok(stat) = std::fs::read_to_string(c.proc_path(format!("{pid}/stat"))) else {
            continue;
        };
        // pid (comm) state …; comm may hold spaces and parentheses.
        let (Some(open), Some(close)) = (stat.find('('), stat.rfind(')')) else {
            continue;
        };
        let comm = &stat[open + 1..close];
        let state = stat[close + 1..].trim_start().chars().next().unwrap_or('?');
        if state != 'Z' && state != 'D' {
            continue;
        }
        let cgroup = std::fs::read_to_string(c.proc_path(format!("{pid}/cgroup")))
            .ok()
            .and_then(|cg| {
                cg.lines()
                    .find(|l| l.contains("pod"))
                    .or(cg.lines().next())
                    .map(|l| l.splitn(3, ':').nth(2).unwrap_or(l).to_string())
            })
            .unwrap_or_default();
        procs.push_str(&format!("{pid}\t{state}\t{comm}\t{cgroup}\n"));
    }
    c.part("processes.txt", "processes", &procs);
}

/// What holds a pod's volumes: processes whose working directory, root or open files are under
/// the pods directory (a shell left in a volume, a backup agent) keep its unmount busy. Part
/// `holders.txt`.
fn holders(c: &mut Collector, pods_dir: &str) {
    let mut holders = String::new();
    let mut held = 0usize;
    'procs: for pid in pids(&c.opts.proc) {
        let comm = std::fs::read_to_string(c.proc_path(format!("{pid}/comm")))
            .map(|s| s.trim().to_string())
            .unwrap_or_default();
        let mut links: Vec<(String, PathBuf)> = Vec::new();
        for what in ["cwd", "root"] {
            if let Ok(t) = std::fs::read_link(c.proc_path(format!("{pid}/{what}"))) {
                links.push((what.to_string(), t));
            }
        }
        if let Ok(fds) = std::fs::read_dir(c.proc_path(format!("{pid}/fd"))) {
            for fd in fds.flatten().take(4096) {
                if let Ok(t) = std::fs::read_link(fd.path()) {
                    links.push((format!("fd {}", fd.file_name().to_string_lossy()), t));
                }
            }
        }
        for (what, target) in links {
            let t = target.to_string_lossy();
            if t.contains(pods_dir) && t.contains("/volumes/") {
                holders.push_str(&format!("{pid}\t{comm}\t{what}\t{t}\n"));
                held += 1;
                if held >= 5000 {
                    break 'procs;
                }
                break;
            }
        }
    }
    c.part("holders.txt", "holders", &holders);
}

/// Static pod manifests: names, images, hashes (never their values). Part `static-pods.txt`.
fn static_pods(c: &mut Collector, dir: &str) {
    let mut rows = String::new();
    match std::fs::read_dir(c.host_path(dir)) {
        Ok(rd) => {
            let mut files: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
            files.sort();
            for f in files.into_iter().take(200) {
                let Ok(text) = std::fs::read_to_string(&f) else {
                    continue;
                };
                let shown = Path::new(dir).join(f.file_name().unwrap_or_default());
                let modified = std::fs::metadata(&f)
                    .and_then(|m| m.modified())
                    .ok()
                    .and_then(|t| jiff::Timestamp::try_from(t).ok())
                    .map(|t| t.to_string())
                    .unwrap_or_default();
                let sha = c
                    .run(&["sha256sum", &shown.to_string_lossy()], 4096)
                    .and_then(|o| o.split_whitespace().next().map(String::from))
                    .unwrap_or_default();
                match kubewhy_source::static_pod_summary(&text) {
                    Some((ns, name, images)) => rows.push_str(&format!(
                        "{}\t{sha}\t{modified}\t{ns}/{name}\t{}\n",
                        shown.display(),
                        images
                            .iter()
                            .map(|(c, i)| format!("{c}={i}"))
                            .collect::<Vec<_>>()
                            .join(";")
                    )),
                    None => c.notes.push(format!(
                        "static pod manifest {} is not a pod the kubelet can read",
                        shown.display()
                    )),
                }
            }
        }
        Err(e) => c
            .notes
            .push(format!("static pod path {dir}: not read ({e})")),
    }
    c.part("static-pods.txt", "static-pods", &rows);
}

/// The last `cap` bytes of a stream, from its first whole line.
fn tail_of(r: &mut impl Read, cap: u64) -> String {
    let mut keep: Vec<u8> = Vec::new();
    let mut buf = [0u8; 64 * 1024];
    let mut cut = false;
    loop {
        match r.read(&mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => {
                keep.extend_from_slice(&buf[..n]);
                if keep.len() as u64 > cap * 2 {
                    let drop = keep.len() - cap as usize;
                    keep.drain(..drop);
                    cut = true;
                }
            }
        }
    }
    if keep.len() as u64 > cap {
        let drop = keep.len() - cap as usize;
        keep.drain(..drop);
        cut = true;
    }
    let mut text = String::from_utf8_lossy(&keep).into_owned();
    if cut && let Some(nl) = text.find('\n') {
        text.drain(..=nl);
    }
    text
}

/// The value of a top-level `key: value` of a YAML file (the kubelet's configuration).
fn top_level_value(yaml: &str, key: &str) -> Option<String> {
    yaml.lines().find_map(|l| {
        let v = l.strip_prefix(key)?.strip_prefix(':')?;
        let v = v
            .split(" #")
            .next()
            .unwrap_or(v)
            .trim()
            .trim_matches(['"', '\'']);
        (!v.is_empty()).then(|| v.to_string())
    })
}

/// `volumes/<plugin>/<name>` entries of a pod directory.
fn volume_names(dir: &Path) -> Vec<String> {
    let mut out = Vec::new();
    if let Ok(plugins) = std::fs::read_dir(dir) {
        for p in plugins.flatten() {
            if let Ok(vols) = std::fs::read_dir(p.path()) {
                for v in vols.flatten().take(50) {
                    out.push(format!(
                        "{}/{}",
                        p.file_name().to_string_lossy(),
                        v.file_name().to_string_lossy()
                    ));
                }
            }
        }
    }
    out.sort();
    out
}

/// Pod cgroups (`pod<uid>` directories, `kubepods-…-pod<uid>.slice` under systemd).
fn walk_pod_cgroups(dir: &Path, depth: usize, out: &mut Vec<(String, String)>) {
    if depth > 6 || out.len() >= 20_000 {
        return;
    }
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let Ok(ft) = e.file_type() else { continue };
        if !ft.is_dir() || ft.is_symlink() {
            continue;
        }
        let name = e.file_name().to_string_lossy().into_owned();
        let uid = name
            .rsplit_once("pod")
            .map(|(_, u)| u.trim_end_matches(".slice").replace('_', "-"))
            .filter(|u| u.len() == 36 && u.chars().filter(|c| *c == '-').count() == 4);
        if let Some(uid) = uid {
            out.push((uid, e.path().display().to_string()));
            continue; // its children are the containers
        }
        walk_pod_cgroups(&e.path(), depth + 1, out);
    }
}

#[cfg(test)]
mod tests;
