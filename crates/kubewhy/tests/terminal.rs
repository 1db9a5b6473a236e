//! Terminal safety, through the binary: strings from a dump, its file names, its logs, an audit
//! log and a controller log carry every kind of escape (CSI, OSC title changes and hyperlinks,
//! DCS, C1 controls, BEL, bidirectional overrides); no command and no output format lets one
//! reach the terminal, on stdout or stderr.

use assert_cmd::Command;
use serde_json::json;
use std::path::{Path, PathBuf};

/// What a hostile cluster writes into its strings.
const ESC: &[&str] = &[
    "\u{1b}[31m",                            // CSI: colour
    "\u{1b}[2J",                             // CSI: clear the screen
    "\u{1b}]0;pwned\u{7}",                   // OSC: window title, ended by BEL
    "\u{1b}]8;;http://evil.example\u{1b}\\", // OSC 8: a hyperlink, ended by ST
    "\u{1b}P1$r\u{1b}\\",                    // DCS
    "\u{9b}6n",                              // C1 CSI: a cursor report request
    "\u{9d}2;t\u{9c}",                       // C1 OSC
    "\u{202e}",                              // right-to-left override
    "\u{2066}",                              // left-to-right isolate
    "\u{7}\u{8}\u{7f}\r",                    // BEL, backspace, DEL, carriage return
];

fn evil(s: &str) -> String {
    format!("{s}{}", ESC.join(""))
}

/// A dump directory whose every string the checks quote is hostile.
fn hostile_dump(dir: &Path) {
    let ns = "shop";
    let now = "2026-11-23T10:00:00Z";
    std::fs::create_dir_all(dir.join(format!("{ns}/crash-1"))).unwrap();
    let pods = json!({"kind": "PodList", "apiVersion": "v1", "items": [
        {"metadata": {"name": "crash-1", "namespace": ns, "uid": "u-crash", "creationTimestamp": "2026-11-23T09:00:00Z",
                      "labels": {"app": evil("web")}},
         "spec": {"nodeName": "node-1", "containers": [{"name": "app", "image": evil("registry/app:1")}]},
         "status": {"phase": "Running", "message": evil("status message"),
                    "conditions": [{"type": "Ready", "status": "False", "reason": evil("ContainersNotReady"), "message": evil("containers with unready status"), "lastTransitionTime": now}],
                    "containerStatuses": [{"name": "app", "image": evil("registry/app:1"), "ready": false, "restartCount": 7,
                        "state": {"waiting": {"reason": "CrashLoopBackOff", "message": evil("back-off 5m0s restarting failed container")}},
                        "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "message": evil("termination message"), "finishedAt": now}}}]}},
        {"metadata": {"name": "pull-1", "namespace": ns, "uid": "u-pull", "creationTimestamp": "2026-11-23T09:00:00Z"},
         "spec": {"nodeName": "node-1", "containers": [{"name": "app", "image": evil("registry/missing:9")}]},
         "status": {"phase": "Pending", "containerStatuses": [{"name": "app", "image": evil("registry/missing:9"), "ready": false, "restartCount": 0,
                        "state": {"waiting": {"reason": "ImagePullBackOff", "message": evil("Back-off pulling image")}}}]}},
        {"metadata": {"name": "wait-1", "namespace": ns, "uid": "u-wait", "creationTimestamp": "2026-11-23T09:00:00Z"},
         "spec": {"containers": [{"name": "app", "image": "a:1"}], "nodeSelector": {"disk": evil("ssd")}},
         "status": {"phase": "Pending", "conditions": [{"type": "PodScheduled", "status": "False", "reason": "Unschedulable",
                        "message": evil("0/1 nodes are available: 1 node(s) didn't match node selector."), "lastTransitionTime": now}]}}
    ]});
    std::fs::write(dir.join(format!("{ns}/pods.json")), pods.to_string()).unwrap();
    let events = json!({"kind": "EventList", "apiVersion": "v1", "items": [
        {"metadata": {"name": "e1", "namespace": ns}, "involvedObject": {"kind": "Pod", "name": "pull-1", "namespace": ns, "uid": "u-pull"},
         "reason": "Failed", "message": evil("Failed to pull image \"registry/missing:9\": not found"), "type": "Warning", "count": 3,
         "source": {"component": evil("kubelet"), "host": "node-1"}, "lastTimestamp": now},
        {"metadata": {"name": "e2", "namespace": ns}, "involvedObject": {"kind": "Pod", "name": "crash-1", "namespace": ns, "uid": "u-crash"},
         "reason": evil("BackOff"), "message": evil("Back-off restarting failed container"), "type": "Warning", "count": 9,
         "source": {"component": "kubelet", "host": "node-1"}, "lastTimestamp": now}
    ]});
    std::fs::write(dir.join(format!("{ns}/events.json")), events.to_string()).unwrap();
    std::fs::write(
        dir.join(format!("{ns}/crash-1/logs.txt")),
        format!("{}\npanic: {}\n", evil("starting"), evil("cannot connect")),
    )
    .unwrap();
    let nodes = json!({"kind": "NodeList", "apiVersion": "v1", "items": [
        {"metadata": {"name": "node-1", "labels": {"kubernetes.io/hostname": "node-1", "zone": evil("a")}},
         "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                    "conditions": [{"type": "Ready", "status": "True", "reason": evil("KubeletReady"), "message": evil("kubelet is posting ready status"),
                                    "lastHeartbeatTime": now, "lastTransitionTime": now}]}}
    ]});
    std::fs::write(dir.join("nodes.json"), nodes.to_string()).unwrap();
    // A custom resource whose kind and finalizer are hostile, and a file whose name is.
    let other = json!({"apiVersion": "example.com/v1", "kind": evil("Widget"),
        "metadata": {"name": "w", "namespace": ns, "finalizers": [evil("example.com/cleanup")], "deletionTimestamp": now}});
    std::fs::write(dir.join("widget.json"), other.to_string()).unwrap();
    std::fs::write(
        dir.join(evil("broken").replace('/', "_") + ".json"),
        "{ not json",
    )
    .unwrap();
}

/// A pod deletion in an audit log and a pod GC line, with hostile names and users.
fn hostile_history(dir: &Path) -> (PathBuf, PathBuf) {
    let audit = dir.join("audit.log");
    let entry = json!({"kind": "Event", "apiVersion": "audit.k8s.io/v1", "level": "Metadata", "auditID": "a-1",
        "stage": "ResponseComplete", "requestURI": "/api/v1/namespaces/shop/pods/gone-1", "verb": "delete",
        "user": {"username": evil("mallory"), "groups": ["system:authenticated"]}, "userAgent": evil("kubectl/v1.20"),
        "objectRef": {"resource": "pods", "namespace": "shop", "name": "gone-1", "apiVersion": "v1"},
        "responseStatus": {"metadata": {}, "code": 200},
        "requestReceivedTimestamp": "2026-11-23T09:30:00.000000Z", "stageTimestamp": "2026-11-23T09:30:00.100000Z"});
    std::fs::write(&audit, format!("{entry}\n")).unwrap();
    let controller = dir.join("kube-controller-manager.log");
    std::fs::write(
        &controller,
        format!(
            "I1123 09:31:00.000000    1 gc_controller.go:187] Found orphaned Pod shop/gone-2 assigned to the Node {}. Deleting.\n",
            evil("node-9")
        ),
    )
    .unwrap();
    (audit, controller)
}

/// Characters that must never reach a terminal from the cluster.
fn forbidden(c: char) -> bool {
    (c.is_control() && c != '\n' && c != '\t')
        || ('\u{202a}'..='\u{202e}').contains(&c)
        || ('\u{2066}'..='\u{2069}').contains(&c)
}

fn check(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    if let Some((i, c)) = text.char_indices().find(|(_, c)| forbidden(*c)) {
        let from = text[..i].char_indices().rev().nth(60).map_or(0, |(j, _)| j);
        panic!("{what}: {c:?} at byte {i}, after {:?}", &text[from..i]);
    }
    // JSON escapes are text, but sanitizing must have removed what they would stand for.
    for e in ["\\u001b", "\\u0007", "\\u009b", "\\u202e"] {
        assert!(!text.contains(e), "{what}: {e}");
    }
}

#[test]
fn no_command_or_format_lets_an_escape_sequence_reach_the_terminal() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let dump = dir.join("dump");
    hostile_dump(&dump);
    let (audit, controller) = hostile_history(&dir);
    let from = dump.to_str().unwrap();
    let now = ["--now", "2026-11-23T10:00:00Z"];
    let (audit, controller) = (audit.to_str().unwrap(), controller.to_str().unwrap());
    let mut runs: Vec<(String, Vec<&str>)> = Vec::new();
    fn command<'a>(args: &[&'a str], from: &'a str, out: &'a str) -> (String, Vec<&'a str>) {
        let mut all = args.to_vec();
        all.extend(["--from", from, "-o", out]);
        (format!("{} -o {out}", args.join(" ")), all)
    }
    for out in ["text", "json", "markdown"] {
        runs.push(command(&["scan"], from, out));
        runs.push(command(&["pod", "crash-1", "-n", "shop"], from, out));
        runs.push(command(&["ns", "shop"], from, out));
    }
    for out in ["text", "json"] {
        runs.push(command(
            &["gone", "--owner", "job/none", "-n", "shop"],
            from,
            out,
        ));
        for pod in ["shop/gone-1", "shop/gone-2"] {
            runs.push(command(
                &[
                    "gone",
                    pod,
                    "--audit-log",
                    audit,
                    "--controller-logs",
                    controller,
                ],
                from,
                out,
            ));
        }
    }
    let mut quoted = 0;
    for (what, args) in &runs {
        let out = Command::cargo_bin("kubewhy")
            .unwrap()
            .env("NO_COLOR", "1")
            .args(args)
            .args(now)
            .output()
            .unwrap();
        assert!(out.status.code().is_some_and(|c| c <= 1), "{what}: {out:?}");
        check(&format!("{what} stdout"), &out.stdout);
        check(&format!("{what} stderr"), &out.stderr);
        // The hostile strings were there to be shown: their text survives, only the escapes go.
        let all = String::from_utf8_lossy(&out.stdout).to_string()
            + &String::from_utf8_lossy(&out.stderr);
        quoted += [
            "back-off 5m0s",
            "mallory",
            "Widget",
            "cannot connect",
            "broken",
        ]
        .iter()
        .filter(|s| all.contains(*s))
        .count();
    }
    assert!(
        quoted > 20,
        "the hostile strings were not quoted at all ({quoted})"
    );
}
