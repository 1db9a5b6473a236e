//! `kubewhy node-collect`: gathers bounded node evidence into a bundle that `--node-logs` reads.
//!
//! It only reads. Every part has a size cap; what cannot be gathered (a missing tool, a
//! permission, a hung runtime) becomes a note in the bundle, never an error. Log text passes
//! through the redactor; environments and command lines of other processes are never read.

use anyhow::{Context, Result};
use clap::Args;
use kubewhy_model::redact::LineRedactor;
use kubewhy_source::{SECTION_MARKER, redact};
use std::collections::BTreeMap;
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

pub(crate) const COLLECT_LONG: &str = "Gathers what only the node shows, for `kubewhy scan --node-logs`: the kubelet's, the container runtime's and the kernel's recent logs, the runtime's container, sandbox and task lists (crictl, ctr, docker), the mounts still under the kubelet's pods directory, pod directories and pod cgroups on disk, processes stuck in state Z or D with their cgroups, static pod manifests (names and images only) and the kubelet's rate-limit settings.

It only reads. Each part is capped (--max-mib for logs); a missing tool, a missing permission or a runtime that does not answer within 20 s is noted in the bundle and the rest is still gathered. Log lines pass through a redactor (tokens, passwords, keys); no process environment is read.

The kubelet is found through /proc: its flags give the node name, its root directory, its configuration file, the runtime's socket and, when it logs to a file rather than the journal, that file.";

pub(crate) const COLLECT_AFTER: &str = "Examples:
  sudo kubewhy node-collect --out /tmp/node-1                 on the node itself
  kubewhy scan --from dump --node-logs /tmp/node-1           diagnose with it

  In a debug pod (kubectl with `debug --custom`, tested with 1.37), the node's
  filesystem at /host, the bundle read back as the pod's log:
  echo '{\"securityContext\":{\"runAsUser\":0,\"runAsGroup\":0}}' > root.json
  kubectl debug node/node-1 --profile=sysadmin --custom=root.json --image=IMAGE \\
      -- /kubewhy node-collect --root /host --max-mib 2 --out -
  kubectl wait --for=jsonpath='{.status.phase}'=Succeeded pod/node-debugger-node-1-xxxxx
  kubectl logs node-debugger-node-1-xxxxx > node-1.txt
  kubewhy scan -A --node-logs node-1.txt                      (live cluster, plus the node's evidence)";

#[derive(Args)]
pub(crate) struct CollectArgs {
    /// Where to write the bundle: a directory (created; one file per part), or `-` for one text
    /// stream on stdout. Default: ./kubewhy-node-<node>-<UTC time>.
    #[arg(long, short, value_name = "DIR|-")]
    out: Option<PathBuf>,

    /// The node's root filesystem, when not `/` (in a `kubectl debug node/…` pod: /host).
    /// Commands then run chrooted into it.
    #[arg(long, value_name = "PATH", default_value = "/")]
    root: PathBuf,

    /// The node's name (default: the kubelet's --hostname-override, else the host name).
    #[arg(long, value_name = "NAME")]
    node: Option<String>,

    /// How far back the journal parts go (journalctl --since).
    #[arg(long, value_name = "TIME", default_value = "-2h")]
    since: String,

    /// Largest log part, in MiB (the most recent lines are kept).
    #[arg(long, value_name = "MIB", default_value_t = 16)]
    max_mib: u64,

    /// The kubelet's log file, when it does not log to the journal or a file kubewhy finds.
    #[arg(long, value_name = "FILE")]
    kubelet_log: Option<PathBuf>,

    /// The container runtime's log file (containerd or dockerd), likewise.
    #[arg(long, value_name = "FILE")]
    runtime_log: Option<PathBuf>,
}

/// A process found through /proc: its PID and its arguments.
struct Proc {
    pid: u32,
    args: Vec<String>,
}

fn find_process(comm: &str) -> Option<Proc> {
    let mut found = None;
    for e in std::fs::read_dir("/proc").ok()?.flatten() {
        let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
            continue;
        };
        let Ok(c) = std::fs::read_to_string(format!("/proc/{pid}/comm")) else {
            continue;
        };
        if c.trim() != comm {
            continue;
        }
        let args = std::fs::read(format!("/proc/{pid}/cmdline"))
            .map(|b| {
                b.split(|x| *x == 0)
                    .filter(|a| !a.is_empty())
                    .map(|a| String::from_utf8_lossy(a).into_owned())
                    .collect()
            })
            .unwrap_or_default();
        found = Some(Proc { pid, args });
        break;
    }
    found
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

/// The file a process writes its stderr (or stdout) to, when that is a regular file.
fn log_file_of(p: &Proc) -> Option<PathBuf> {
    for fd in [2, 1] {
        if let Ok(target) = std::fs::read_link(format!("/proc/{}/fd/{fd}", p.pid))
            && target.is_absolute()
            && std::fs::metadata(format!("/proc/{}/fd/{fd}", p.pid)).is_ok_and(|m| m.is_file())
        {
            return Some(target);
        }
    }
    None
}

struct Collector {
    root: PathBuf,
    max_bytes: u64,
    notes: Vec<String>,
    parts: Vec<(String, String)>,
}

impl Collector {
    fn host_path(&self, p: &str) -> PathBuf {
        if self.root == Path::new("/") {
            PathBuf::from(p)
        } else {
            self.root.join(p.trim_start_matches('/'))
        }
    }

    /// Runs a command (chrooted into --root), keeping the last `cap` bytes of its output; 20 s
    /// at most.
    fn run(&mut self, args: &[&str], cap: u64) -> Option<String> {
        let mut cmd = Command::new(args[0]);
        cmd.args(&args[1..])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if self.root != Path::new("/") {
            let root = self.root.clone();
            // SAFETY: only async-signal-safe calls between fork and exec (chroot, chdir).
            unsafe {
                std::os::unix::process::CommandExt::pre_exec(&mut cmd, move || {
                    std::os::unix::fs::chroot(&root)?;
                    std::env::set_current_dir("/")
                });
            }
        }
        let shown = args.join(" ");
        let mut child = match cmd.spawn() {
            Ok(c) => c,
            Err(e) => {
                self.notes.push(format!("{shown}: not run ({e})"));
                return None;
            }
        };
        let mut stdout = child.stdout.take()?;
        let mut stderr = child.stderr.take()?;
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
            None => {
                self.notes.push(format!(
                    "{shown}: no answer within 20 s (a hung runtime is evidence too)"
                ));
                None
            }
            Some(s) if !s.success() => {
                let first = err.lines().next().unwrap_or("").trim().to_string();
                self.notes.push(format!("{shown}: {s}: {}", redact(&first)));
                if out.trim().is_empty() {
                    None
                } else {
                    Some(out)
                }
            }
            Some(_) => Some(out),
        }
    }

    /// The last `max_bytes` of a file, from its first whole line.
    fn file_tail(&mut self, path: &Path) -> Option<String> {
        let mut f = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => {
                self.notes
                    .push(format!("{}: not read ({e})", path.display()));
                return None;
            }
        };
        let len = f.metadata().map(|m| m.len()).unwrap_or(0);
        let start = len.saturating_sub(self.max_bytes);
        if f.seek(SeekFrom::Start(start)).is_err() {
            return None;
        }
        let mut buf = Vec::new();
        let _ = f.take(self.max_bytes).read_to_end(&mut buf);
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
}

/// The last `cap` bytes of a stream, from its first whole line.
fn tail_of(r: &mut impl Read, cap: u64) -> String {
    let mut keep: Vec<u8> = Vec::new();
    let mut buf = [0u8; 65536];
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

pub(crate) fn run(args: CollectArgs) -> Result<u8> {
    let started = jiff::Timestamp::now();
    let mut c = Collector {
        root: args.root.clone(),
        max_bytes: args.max_mib.max(1) * 1024 * 1024,
        notes: Vec::new(),
        parts: Vec::new(),
    };
    let kubelet = find_process("kubelet");
    if kubelet.is_none() {
        c.notes.push(
            "no kubelet process found in /proc (run on the node, or in a debug pod that shares its PID namespace)"
                .into(),
        );
    }
    let hostname = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .unwrap_or_default();
    let node = args
        .node
        .clone()
        .or_else(|| kubelet.as_ref().and_then(|k| flag(k, "hostname-override")))
        .unwrap_or_else(|| hostname.clone());

    // The kubelet's settings: its configuration file, then its flags (flags win).
    let mut settings: BTreeMap<&str, String> = BTreeMap::new();
    let mut root_dir = "/var/lib/kubelet".to_string();
    let mut runtime_socket: Option<String> = None;
    if let Some(k) = &kubelet {
        if let Some(cfg) = flag(k, "config") {
            match std::fs::read_to_string(c.host_path(&cfg)) {
                Ok(text) => {
                    for (key, name) in [
                        ("kubeAPIQPS", "kubeAPIQPS"),
                        ("kubeAPIBurst", "kubeAPIBurst"),
                        ("maxPods", "maxPods"),
                        ("staticPodPath", "staticPodPath"),
                        ("containerRuntimeEndpoint", "containerRuntimeEndpoint"),
                    ] {
                        if let Some(v) = top_level_value(&text, key) {
                            settings.insert(name, v);
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

    // Logs: the journal, else the file the process writes to, else what the user named.
    let journal = c.run(&["journalctl", "--version"], 4096).is_some();
    if !journal {
        // Said once, plainly, instead of the probe's error.
        c.notes.retain(|n| !n.starts_with("journalctl --version"));
        c.notes.push(
            "journalctl: not available; logs were read from the files the processes write to"
                .into(),
        );
    }
    let log_sources: [(&str, &str, Option<PathBuf>); 3] = [
        ("kubelet", "kubelet", args.kubelet_log.clone()),
        ("containerd", "containerd", args.runtime_log.clone()),
        ("docker", "dockerd", None),
    ];
    for (unit, comm, given) in log_sources {
        let file = format!("{unit}.log");
        let process = find_process(comm);
        let from_file = given.or_else(|| process.as_ref().and_then(log_file_of));
        if let Some(path) = from_file
            && let Some(text) = c.file_tail(&c.host_path(&path.to_string_lossy()))
        {
            c.part(&file, &format!("log {unit}"), &text);
            continue;
        }
        if journal {
            let cap = c.max_bytes;
            let since = args.since.clone();
            let out = c.run(
                &[
                    "journalctl",
                    "-u",
                    unit,
                    "--since",
                    &since,
                    "--no-pager",
                    "-o",
                    "short-iso-precise",
                ],
                cap,
            );
            if let Some(text) =
                out.filter(|t| !t.trim().is_empty() && !t.starts_with("-- No entries --"))
            {
                c.part(&file, &format!("command journalctl -u {unit}"), &text);
            }
        } else if process.is_some() {
            c.notes.push(format!("{unit}: runs, but logs neither to a file nor to a journal kubewhy can read; pass --{}-log", if unit == "kubelet" { "kubelet" } else { "runtime" }));
        }
    }
    let kernel = if journal {
        let since = args.since.clone();
        c.run(
            &[
                "journalctl",
                "-k",
                "--since",
                &since,
                "--no-pager",
                "-o",
                "short-iso-precise",
            ],
            c.max_bytes,
        )
        .filter(|t| t.lines().count() > 1)
    } else {
        None
    }
    .or_else(|| c.run(&["dmesg"], c.max_bytes));
    if let Some(k) = kernel {
        c.part("kernel.log", "log kernel", &k);
    }

    // The runtime's lists.
    let sock_args: Vec<String> = runtime_socket
        .iter()
        .flat_map(|s| ["--address".to_string(), s.clone()])
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

    // Mounts under the kubelet's pods directory, as the host's PID 1 sees them.
    let pods_dir = format!("{}/pods/", root_dir.trim_end_matches('/'));
    match std::fs::read_to_string("/proc/1/mountinfo") {
        Ok(m) => {
            let body: String = m
                .lines()
                .filter(|l| l.contains(&pods_dir))
                .take(20_000)
                .map(|l| format!("{l}\n"))
                .collect();
            c.part("mounts.txt", "mounts", &body);
        }
        Err(e) => c.notes.push(format!("/proc/1/mountinfo: not read ({e})")),
    }

    // Pod directories and pod cgroups on disk.
    let mut left = String::new();
    match std::fs::read_dir(c.host_path(&pods_dir)) {
        Ok(rd) => {
            for e in rd.flatten().take(20_000) {
                let uid = e.file_name().to_string_lossy().into_owned();
                let vols = volume_names(&e.path().join("volumes"));
                left.push_str(&format!(
                    "pod-dir\t{uid}\t{}\tvolumes={}\n",
                    Path::new(&pods_dir).join(&uid).display(),
                    vols.join(",")
                ));
            }
        }
        Err(e) => c.notes.push(format!("{pods_dir}: not read ({e})")),
    }
    let mut cgroups = Vec::new();
    walk_pod_cgroups(&c.host_path("/sys/fs/cgroup"), 0, &mut cgroups);
    if cgroups.is_empty() && c.root != Path::new("/") {
        // In a privileged debug pod the node's cgroups are also mounted at the usual place.
        walk_pod_cgroups(Path::new("/sys/fs/cgroup"), 0, &mut cgroups);
    }
    cgroups.sort();
    cgroups.dedup_by(|a, b| a.0 == b.0);
    for (uid, path) in cgroups.iter().take(20_000) {
        left.push_str(&format!("pod-cgroup\t{uid}\t{path}\t\n"));
    }
    c.part("leftovers.txt", "leftovers", &left);

    // Processes that cannot die (Z) or are stuck in the kernel (D), with their cgroup.
    let mut procs = String::new();
    if let Ok(rd) = std::fs::read_dir("/proc") {
        for e in rd.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
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
            let cgroup = std::fs::read_to_string(format!("/proc/{pid}/cgroup"))
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
    }
    c.part("processes.txt", "processes", &procs);

    // What holds a pod's volumes: processes whose working directory, root or open files are
    // under the pods directory (a shell left in a volume, a backup agent) keep its unmount busy.
    let mut holders = String::new();
    let mut held = 0usize;
    if let Ok(rd) = std::fs::read_dir("/proc") {
        'procs: for e in rd.flatten() {
            let Some(pid) = e.file_name().to_str().and_then(|s| s.parse::<u32>().ok()) else {
                continue;
            };
            let comm = std::fs::read_to_string(format!("/proc/{pid}/comm"))
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            let mut links: Vec<(String, PathBuf)> = Vec::new();
            for what in ["cwd", "root"] {
                if let Ok(t) = std::fs::read_link(format!("/proc/{pid}/{what}")) {
                    links.push((what.to_string(), t));
                }
            }
            if let Ok(fds) = std::fs::read_dir(format!("/proc/{pid}/fd")) {
                for fd in fds.flatten().take(4096) {
                    if let Ok(t) = std::fs::read_link(fd.path()) {
                        links.push((format!("fd {}", fd.file_name().to_string_lossy()), t));
                    }
                }
            }
            for (what, target) in links {
                let t = target.to_string_lossy();
                if t.contains(&pods_dir) && t.contains("/volumes/") {
                    holders.push_str(&format!("{pid}\t{comm}\t{what}\t{t}\n"));
                    held += 1;
                    if held >= 5000 {
                        break 'procs;
                    }
                    break;
                }
            }
        }
    }
    c.part("holders.txt", "holders", &holders);

    // Static pod manifests: names, images, hashes (never their values).
    if let Some(dir) = settings.get("staticPodPath").cloned() {
        let mut rows = String::new();
        match std::fs::read_dir(c.host_path(&dir)) {
            Ok(rd) => {
                let mut files: Vec<PathBuf> = rd.flatten().map(|e| e.path()).collect();
                files.sort();
                for f in files.into_iter().take(200) {
                    let Ok(text) = std::fs::read_to_string(&f) else {
                        continue;
                    };
                    let shown = Path::new(&dir).join(f.file_name().unwrap_or_default());
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

    let mut meta = format!("node\t{node}\nhostname\t{hostname}\ncollected\t{started}\n");
    for n in &c.notes {
        meta.push_str(&format!("note\t{}\n", n.replace(['\t', '\n'], " ")));
    }
    let mut parts = vec![(
        "node.txt".to_string(),
        format!("{SECTION_MARKER}node\n{meta}"),
    )];
    parts.append(&mut c.parts);

    let out = args.out.clone().unwrap_or_else(|| {
        PathBuf::from(format!(
            "kubewhy-node-{node}-{}",
            started.strftime("%Y%m%dT%H%M%SZ")
        ))
    });
    let total: usize = parts.iter().map(|(_, t)| t.len()).sum();
    if out.as_os_str() == "-" {
        let mut stdout = std::io::stdout().lock();
        for (_, text) in &parts {
            stdout.write_all(text.as_bytes())?;
        }
        stdout.flush()?;
    } else {
        std::fs::create_dir_all(&out)
            .with_context(|| format!("cannot create {}", out.display()))?;
        for (file, text) in &parts {
            let p = out.join(file);
            std::fs::write(&p, text).with_context(|| format!("cannot write {}", p.display()))?;
        }
    }
    let mut err = anstream::stderr();
    for n in &c.notes {
        writeln!(err, "kubewhy: note: {}", kubewhy_report::sanitize(n))?;
    }
    if out.as_os_str() != "-" {
        writeln!(
            err,
            "kubewhy: node {node}: {} parts, {} KiB in {} (read it with --node-logs {})",
            parts.len(),
            total / 1024,
            out.display(),
            out.display()
        )?;
    }
    Ok(0)
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
