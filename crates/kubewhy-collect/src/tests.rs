//! The collector against a node made of files: a root filesystem, a /proc, and tools that
//! answer as a test says.

use super::*;
use std::os::unix::fs::symlink;

const POD: &str = "3f2b8c1e-5d4a-4b6f-9e7d-1a2b3c4d5e6f";

/// Commands as a test scripts them: by their first words.
struct Scripted(Vec<(&'static str, Ran)>, Vec<String>);

impl Commands for Scripted {
    fn run(&mut self, root: &Path, args: &[&str], _cap: u64) -> Ran {
        let line = args.join(" ");
        self.1.push(format!("{} :: {line}", root.display()));
        self.0
            .iter()
            .find(|(prefix, _)| line.starts_with(prefix))
            .map(|(_, r)| r.clone())
            .unwrap_or_else(|| Ran::NotRun("No such file or directory (os error 2)".into()))
    }
}

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

/// A node: the kubelet (pid 100) with a config file and a log file, a containerd that logs to
/// the journal only, a shell stuck in D state inside a pod's volume, a pod directory with a
/// secret volume, its cgroup, its mount, and one static pod manifest.
fn node(dir: &Path) -> Options {
    let root = dir.join("root");
    let proc = dir.join("proc");
    write(
        &root.join("var/lib/kubelet/config.yaml"),
        "kind: KubeletConfiguration\nkubeAPIQPS: 5 # default\nkubeAPIBurst: \"10\"\nmaxPods: 110\nstaticPodPath: /etc/kubernetes/manifests\n",
    );
    write(
        &root.join("var/log/kubelet.log"),
        "I1126 10:00:00.000000 100 kubelet.go:1] Started kubelet\nE1126 10:00:01.000000 100 pod_workers.go:191] Error syncing pod, skipping err=\"token=abc123secret\"\n",
    );
    write(
        &root.join("etc/kubernetes/manifests/etcd.yaml"),
        "apiVersion: v1\nkind: Pod\nmetadata:\n  name: etcd\n  namespace: kube-system\nspec:\n  containers:\n  - name: etcd\n    image: k8s.gcr.io/etcd:3.4.13-0\n    env:\n    - name: ETCD_PASSWORD\n      value: hunter2\n",
    );
    write(
        &root.join(format!(
            "var/lib/kubelet/pods/{POD}/volumes/kubernetes.io~secret/token/x"
        )),
        "",
    );
    std::fs::create_dir_all(root.join(format!(
        "sys/fs/cgroup/kubepods.slice/kubepods-besteffort.slice/kubepods-besteffort-pod{}.slice",
        POD.replace('-', "_")
    )))
    .unwrap();
    write(&proc.join("sys/kernel/hostname"), "host-a\n");
    write(&proc.join("100/comm"), "kubelet\n");
    write(
        &proc.join("100/cmdline"),
        "/usr/bin/kubelet\0--config=/var/lib/kubelet/config.yaml\0--hostname-override\0node-a\0--max-pods=250\0",
    );
    write(&proc.join("100/stat"), "100 (kubelet) S 1 100 100");
    std::fs::create_dir_all(proc.join("100/fd")).unwrap();
    // The kubelet's stderr goes to a file, named as the kubelet sees it: the collector reads it
    // under the node's root.
    symlink("/var/log/kubelet.log", proc.join("100/fd/2")).unwrap();
    write(&proc.join("200/comm"), "containerd\n");
    write(&proc.join("200/cmdline"), "/usr/bin/containerd\0");
    write(&proc.join("200/stat"), "200 (containerd) S 1 200 200");
    write(&proc.join("300/comm"), "sh\n");
    write(&proc.join("300/stat"), "300 (sh (stuck)) D 1 300 300");
    write(
        &proc.join("300/cgroup"),
        &format!(
            "0::/kubepods.slice/kubepods-besteffort-pod{}.slice/cri-abc\n",
            POD.replace('-', "_")
        ),
    );
    let volume = format!("/var/lib/kubelet/pods/{POD}/volumes/kubernetes.io~secret/token");
    std::fs::create_dir_all(proc.join("300")).unwrap();
    symlink(&volume, proc.join("300/cwd")).unwrap();
    write(
        &proc.join("1/mountinfo"),
        &format!(
            "22 1 0:21 / /proc rw - proc proc rw\n873 29 0:55 / {volume} rw,relatime - tmpfs tmpfs rw\n"
        ),
    );
    Options {
        root,
        proc,
        host_cgroups: None,
        max_bytes: 1024 * 1024,
        ..Default::default()
    }
}

fn part<'a>(b: &'a Bundle, file: &str) -> &'a str {
    b.parts
        .iter()
        .find(|(f, _)| f == file)
        .map(|(_, t)| t.as_str())
        .unwrap_or_else(|| {
            panic!(
                "no part {file}: {:?}",
                b.parts.iter().map(|p| &p.0).collect::<Vec<_>>()
            )
        })
}

fn scripted() -> Scripted {
    Scripted(
        vec![
            ("journalctl --version", Ran::Output("systemd 252\n".into())),
            (
                "journalctl -u containerd",
                Ran::Output("2026-11-26T10:00:02.000000+00:00 node-a containerd[200]: level=error msg=\"StopContainer for \\\"abc\\\" failed\" error=\"context deadline exceeded\"\n".into()),
            ),
            ("journalctl -u docker", Ran::Output("-- No entries --\n".into())),
            ("journalctl -k", Ran::Output("-- Logs begin --\n".into())),
            (
                "dmesg",
                Ran::Output("[ 12.345] Memory cgroup out of memory: Killed process 4242 (java)\n".into()),
            ),
            (
                "crictl ps -a",
                Ran::Output("CONTAINER IMAGE CREATED STATE NAME ATTEMPT POD ID POD\nabc123 sha256:1 1 minute ago Exited app 3 def456 web-1\n".into()),
            ),
            (
                "crictl pods",
                Ran::Failed {
                    status: "exit status: 1".into(),
                    stderr: "connect: connection refused\n".into(),
                    stdout: String::new(),
                },
            ),
            ("ctr", Ran::TimedOut),
            ("sha256sum", Ran::Output("0123abcd  /etc/kubernetes/manifests/etcd.yaml\n".into())),
        ],
        Vec::new(),
    )
}

#[test]
fn every_part_is_gathered_from_a_node_made_of_files() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let opts = node(&dir);
    let mut tools = scripted();
    let b = collect(&opts, &mut tools);

    assert_eq!(b.node, "node-a", "the kubelet's --hostname-override");
    assert_eq!(b.hostname, "host-a");
    assert!(part(&b, "node.txt").contains("node\tnode-a\nhostname\thost-a\n"));

    // Settings: the config file, then the flags (which win).
    let settings = part(&b, "kubelet-settings.txt");
    assert!(settings.contains("kubeAPIQPS\t5\n"), "{settings}");
    assert!(settings.contains("kubeAPIBurst\t10\n"));
    assert!(
        settings.contains("maxPods\t250\n"),
        "the flag wins: {settings}"
    );
    assert!(settings.contains("source\tconfig file /var/lib/kubelet/config.yaml\n"));

    // The kubelet's log from the file its stderr goes to, redacted; containerd's from the
    // journal; docker's journal said nothing, so no part.
    let kubelet = part(&b, "kubelet.log");
    assert!(kubelet.contains("Started kubelet"));
    assert!(!kubelet.contains("abc123secret"), "{kubelet}");
    assert!(part(&b, "containerd.log").contains("StopContainer"));
    assert!(!b.parts.iter().any(|(f, _)| f == "docker.log"));
    // The kernel's journal held only its header: dmesg instead.
    assert!(part(&b, "kernel.log").contains("Killed process 4242"));

    assert!(part(&b, "crictl-ps.txt").contains("abc123"));
    assert!(!b.parts.iter().any(|(f, _)| f == "crictl-pods.txt"));
    assert!(
        b.notes
            .contains(&"crictl pods: exit status: 1: connect: connection refused".to_string()),
        "{:?}",
        b.notes
    );
    assert!(
        b.notes.contains(
            &"ctr -n k8s.io task ls: no answer within 20 s (a hung runtime is evidence too)"
                .to_string()
        ),
        "{:?}",
        b.notes
    );
    assert!(
        b.notes
            .iter()
            .any(|n| n.starts_with("docker ps -a: not run ("))
    );

    assert!(part(&b, "mounts.txt").contains(&format!(
        "/var/lib/kubelet/pods/{POD}/volumes/kubernetes.io~secret/token"
    )));
    assert!(!part(&b, "mounts.txt").contains("/proc rw"));
    let left = part(&b, "leftovers.txt");
    assert!(
        left.contains(&format!(
            "pod-dir\t{POD}\t/var/lib/kubelet/pods/{POD}\tvolumes=kubernetes.io~secret/token\n"
        )),
        "{left}"
    );
    assert!(left.contains(&format!("pod-cgroup\t{POD}\t")), "{left}");
    let procs = part(&b, "processes.txt");
    assert!(
        procs.contains("300\tD\tsh (stuck)\t/kubepods.slice/"),
        "{procs}"
    );
    assert!(!procs.contains("kubelet"));
    assert!(part(&b, "holders.txt").contains(&format!(
        "300\tsh\tcwd\t/var/lib/kubelet/pods/{POD}/volumes/"
    )));
    let statics = part(&b, "static-pods.txt");
    assert!(
        statics.contains("/etc/kubernetes/manifests/etcd.yaml\t0123abcd\t"),
        "{statics}"
    );
    assert!(statics.contains("kube-system/etcd\tetcd=k8s.gcr.io/etcd:3.4.13-0"));
    assert!(
        !statics.contains("hunter2"),
        "manifest values are never read"
    );

    // Every command ran chrooted into the node's root.
    assert!(
        tools
            .1
            .iter()
            .all(|l| l.starts_with(&opts.root.display().to_string()))
    );

    // What it wrote, --node-logs reads back: the node, its kubelet settings, its lines.
    let out = dir.join("bundle");
    b.write_dir(&out).unwrap();
    let mut warnings = Vec::new();
    let read = kubewhy_source::read_node_logs(&out, None, &mut warnings);
    assert_eq!(read.node.as_deref(), Some("node-a"));
    assert!(!read.lines.is_empty());
}

#[test]
fn a_node_without_a_kubelet_or_a_journal_is_said_so_and_the_rest_still_gathered() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    std::fs::create_dir_all(dir.join("root")).unwrap();
    write(&dir.join("proc/sys/kernel/hostname"), "bare\n");
    let opts = Options {
        root: dir.join("root"),
        proc: dir.join("proc"),
        host_cgroups: None,
        ..Default::default()
    };
    let b = collect(&opts, &mut Scripted(Vec::new(), Vec::new()));
    assert_eq!(
        b.node, "bare",
        "the host name when no kubelet names the node"
    );
    assert_eq!(
        b.notes[0],
        "no kubelet process found in /proc (run on the node, or in a debug pod that shares its PID namespace)"
    );
    assert!(
        b.notes.contains(
            &"journalctl: not available; logs were read from the files the processes write to"
                .to_string()
        )
    );
    assert!(
        !b.notes
            .iter()
            .any(|n| n.starts_with("journalctl --version"))
    );
    assert!(
        b.notes
            .iter()
            .any(|n| n.starts_with("/proc/1/mountinfo: not read ("))
    );
    // The parts that found nothing are still there (empty), so a reader sees they were looked
    // at.
    for p in ["leftovers.txt", "processes.txt", "holders.txt"] {
        assert!(b.parts.iter().any(|(f, _)| f == p), "{p}");
    }
}

#[test]
fn a_log_is_cut_to_its_last_whole_lines() {
    let mut r = std::io::Cursor::new(b"first line\nsecond line\nthird\n".to_vec());
    assert_eq!(tail_of(&mut r, 12), "third\n");
    let mut r = std::io::Cursor::new(b"short\n".to_vec());
    assert_eq!(tail_of(&mut r, 100), "short\n");
}
