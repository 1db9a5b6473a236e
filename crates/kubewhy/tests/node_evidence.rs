//! `--node-logs` and `kubewhy node-collect` as users run them, on node evidence captured from
//! the real 1.20 cluster (tests/fixtures/node/README.md says how each was made).

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn fx(p: &str) -> PathBuf {
    repo().join("tests/fixtures/node").join(p)
}

fn scan_json(args: &[PathBuf]) -> Value {
    let mut c = Command::cargo_bin("kubewhy").unwrap();
    c.env("NO_COLOR", "1")
        .args(["scan", "-o", "json", "--fail-on", "never"]);
    for a in args {
        c.arg(a);
    }
    let out = c.output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).expect("JSON")
}

fn findings(v: &Value) -> Vec<(String, Vec<String>)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let objects = common::object_names(f);
            (f["cause"].as_str().unwrap().to_string(), objects)
        })
        .collect()
}

fn evidence_of<'a>(v: &'a Value, cause: &str) -> Vec<&'a Value> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["cause"] == cause)
        .flat_map(|f| f["evidence"].as_array().unwrap())
        .collect()
}

fn from(p: &str) -> [PathBuf; 2] {
    ["--from".into(), fx(p)]
}

fn node_logs(p: &str) -> [PathBuf; 2] {
    ["--node-logs".into(), fx(p)]
}

#[test]
fn a_busy_mount_is_only_visible_in_the_kubelet_log() {
    let dump = [from("busy-mount/pods.json"), from("busy-mount/nodes.json")].concat();
    // The API alone: the kubelet reports nothing, so the cause cannot be told.
    let v = scan_json(&dump);
    assert_eq!(
        findings(&v),
        vec![(
            "kubelet-cleanup-pending".to_string(),
            vec!["Pod kw-node/busy-mount".to_string()]
        )]
    );
    assert_eq!(v["findings"][0]["confidence"], "low");

    let v = scan_json(&[dump.as_slice(), &node_logs("busy-mount/kubelet.log")].concat());
    assert_eq!(
        findings(&v),
        vec![(
            "volume-unmount-stuck".to_string(),
            vec!["Pod kw-node/busy-mount".to_string()]
        )]
    );
    assert_eq!(v["findings"][0]["confidence"], "high");
    let logs: Vec<&Value> = evidence_of(&v, "volume-unmount-stuck")
        .into_iter()
        .filter(|e| e["kind"] == "log")
        .collect();
    assert_eq!(logs.len(), 1, "one quote per signal: {logs:#?}");
    let source = logs[0]["source"].as_str().unwrap();
    assert!(
        source.starts_with("kubelet: unmount failed (")
            && source.ends_with("kubelet.log:44), the last of 7 such lines"),
        "{source}"
    );
    let quote = logs[0]["quote"].as_str().unwrap();
    assert!(quote.starts_with("E1123 07:18:13.335030"), "{quote}");
    assert!(quote.contains("UnmountVolume.TearDown failed for volume \\\"scratch\\\""));
    assert!(quote.ends_with("target is busy.\\n\""), "{quote}");
}

#[test]
fn a_stopped_containerd_is_pleg_unhealthy_and_holds_deleted_pods() {
    let v = scan_json(
        &[
            from("runtime-down/pods.json"),
            from("runtime-down/nodes.json"),
            node_logs("runtime-down/kubelet.log"),
        ]
        .concat(),
    );
    assert_eq!(
        findings(&v),
        vec![
            (
                "node-unreachable".to_string(),
                vec![
                    "Pod kw-node/busy-mount".to_string(),
                    "Pod kw-node/outage".to_string()
                ]
            ),
            (
                "pleg-unhealthy".to_string(),
                vec!["Node /node-1".to_string()]
            ),
        ]
    );
    let ev = evidence_of(&v, "pleg-unhealthy");
    let sources: Vec<&str> = ev.iter().map(|e| e["source"].as_str().unwrap()).collect();
    assert_eq!(
        sources[0],
        "status.conditions[Ready] status=False reason=KubeletNotReady"
    );
    assert!(
        sources[1].starts_with(
            "kubelet: PLEG unhealthy, last relist 3m11.784752619s ago, threshold 3m0s ("
        ),
        "{sources:?}"
    );
    assert!(
        sources[2].starts_with("kubelet: runtime not answering ("),
        "{sources:?}"
    );
    assert!(
        ev[2]["quote"]
            .as_str()
            .unwrap()
            .contains("containerd.sock: connect: connection refused")
    );
}

#[test]
fn the_kernel_confirms_an_oom_kill_and_says_it_was_the_cgroup_limit() {
    let v = scan_json(
        &[
            from("oom/pod.json"),
            from("oom/events.json"),
            node_logs("oom/dmesg.txt"),
        ]
        .concat(),
    );
    assert_eq!(
        findings(&v),
        vec![(
            "oom-killed".to_string(),
            vec!["Pod kw-node/hog".to_string()]
        )]
    );
    let kernel: Vec<&Value> = evidence_of(&v, "oom-killed")
        .into_iter()
        .filter(|e| e["kind"] == "log")
        .collect();
    assert_eq!(kernel.len(), 1);
    let source = kernel[0]["source"].as_str().unwrap();
    assert!(
        source.starts_with("kernel: OOM kill, the container's memory limit (cgroup); memcg /realcluster/kubepods/burstable/pod88459009-3782-46a7-a0b4-ec4bf5199573/"),
        "{source}"
    );
    assert!(
        kernel[0]["quote"]
            .as_str()
            .unwrap()
            .contains("Memory cgroup out of memory: Killed process")
    );
}

#[test]
fn node_collect_gathers_what_it_can_and_notes_the_rest() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .env("NO_COLOR", "1")
        .env("PATH", "/nonexistent") // no journalctl, crictl, ctr, docker, dmesg
        .args(["node-collect", "--node", "node-9", "--out"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    // The tools are not on the PATH: each is noted, none is fatal.
    assert!(
        stderr
            .lines()
            .any(|l| l.starts_with("kubewhy: note: crictl ") && l.contains("ps -a: not run")),
        "{stderr}"
    );
    assert!(stderr.contains("(read it with --node-logs "), "{stderr}");
    let node = std::fs::read_to_string(dir.join("node.txt")).unwrap();
    assert!(
        node.starts_with("# kubewhy node-collect: node\nnode\tnode-9\n"),
        "{node}"
    );
    assert!(node.contains("note\tcrictl "), "{node}");
    for part in ["mounts.txt", "leftovers.txt", "processes.txt"] {
        assert!(dir.join(part).exists(), "{part}");
    }
    // The bundle reads back without a warning.
    let scan = Command::cargo_bin("kubewhy")
        .unwrap()
        .args(["scan", "--demo", "--fail-on", "never", "--node-logs"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(scan.status.success());
    assert!(
        !String::from_utf8_lossy(&scan.stderr).contains("warning"),
        "{}",
        String::from_utf8_lossy(&scan.stderr)
    );
}

#[test]
fn a_force_deleted_pod_leaves_its_busy_volume_on_the_node() {
    let v = scan_json(
        &[
            from("force-deleted/pods.json"),
            from("force-deleted/nodes.json"),
            node_logs("force-deleted/bundle"),
        ]
        .concat(),
    );
    assert_eq!(
        findings(&v),
        vec![(
            "volume-unmount-stuck".to_string(),
            vec!["Node /node-1".to_string()]
        )]
    );
    let f = &v["findings"][0];
    assert_eq!(
        f["summary"],
        "The kubelet on node-1 cannot unmount the volumes of 1 pod(s) no longer in the API"
    );
    let ev: Vec<(String, String)> = f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            (
                e["source"].as_str().unwrap().to_string(),
                e["quote"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let uid = "94cab137-217e-47c5-bc36-356faa8ec4df";
    assert_eq!(ev[0].0, format!("pod {uid}"));
    assert!(
        ev[1].0.starts_with("kubelet: unmount failed (") && ev[1].1.contains("target is busy"),
        "{ev:?}"
    );
    assert!(
        ev[2]
            .0
            .starts_with("proc: process holds the volume, pid 3673 (sleep) ("),
        "{ev:?}"
    );
    assert!(
        ev[3].0.starts_with("mountinfo: mount still present ("),
        "{ev:?}"
    );
    assert!(
        ev[4].0.starts_with("pod-dir on the node (")
            && ev[4].1.ends_with("volumes=kubernetes.io~empty-dir/scratch"),
        "{ev:?}"
    );
    // A scan of one namespace does not claim anything about other namespaces' pods.
    let mut c = Command::cargo_bin("kubewhy").unwrap();
    let out = c
        .args([
            "scan",
            "-o",
            "json",
            "--fail-on",
            "never",
            "-n",
            "kw-orphan",
        ])
        .args(from("force-deleted/pods.json"))
        .args(from("force-deleted/nodes.json"))
        .args(node_logs("force-deleted/bundle"))
        .output()
        .unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["findings"], serde_json::json!([]));
}
