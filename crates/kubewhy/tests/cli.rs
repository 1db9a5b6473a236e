//! The binary as users run it: exit codes, input problems, formats, explain.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn kubewhy() -> Command {
    let mut c = Command::cargo_bin("kubewhy").unwrap();
    c.env("NO_COLOR", "1");
    c
}

fn json_of(out: &[u8]) -> Value {
    serde_json::from_slice(out).expect("stdout is JSON")
}

fn fixture() -> PathBuf {
    repo().join("tests/fixtures/corrupt-among-good")
}

#[test]
fn a_corrupt_file_is_named_with_its_line_and_the_rest_is_diagnosed() {
    let out = kubewhy()
        .args(["scan", "--from"])
        .arg(fixture())
        .args(["-o", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "findings exit 1");
    let stderr = String::from_utf8_lossy(&out.stderr);
    let lines: Vec<&str> = stderr.lines().filter(|l| l.contains("warning:")).collect();
    assert_eq!(lines.len(), 1, "{stderr}");
    assert!(
        lines[0].contains("shop/events.json:8:") && lines[0].contains("EOF while parsing a string"),
        "{stderr}"
    );
    let v = json_of(&out.stdout);
    assert_eq!(v["inputProblems"][0]["line"], 8);
    let findings = v["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1, "{v:#}");
    assert_eq!(findings[0]["cause"], "image-not-found");
    assert_eq!(findings[0]["objects"][0]["name"], "api-5d8f7c9b4-q2w3e");
    assert!(findings[0]["evidence"].as_array().unwrap().iter().any(|e| {
        e["quote"]
            .as_str()
            .unwrap()
            .contains("shop/api:9.9: not found")
    }));
    // The owner is resolved from the pod-template-hash even without the ReplicaSet.
    assert!(v.to_string().contains("deployment/api"), "{v:#}");
    assert!(v["unexplained"].as_array().unwrap().is_empty());
}

#[test]
fn strict_makes_input_problems_fatal() {
    kubewhy()
        .args(["scan", "--strict", "--from"])
        .arg(fixture())
        .assert()
        .code(2);
}

#[test]
fn fail_on_controls_the_exit_code() {
    kubewhy()
        .args(["scan", "--fail-on", "critical", "--from"])
        .arg(fixture())
        .assert()
        .code(0);
    kubewhy()
        .args(["scan", "--fail-on", "never", "--from"])
        .arg(fixture())
        .assert()
        .code(0);
    kubewhy()
        .args(["scan", "--fail-on", "error", "--from"])
        .arg(fixture())
        .assert()
        .code(1);
}

#[test]
fn namespace_and_selector_filter_what_is_reported() {
    let out = kubewhy()
        .args(["scan", "-o", "json", "-n", "other", "--from"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        json_of(&out.stdout)["findings"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let out = kubewhy()
        .args(["scan", "-o", "json", "-l", "app=web", "--from"])
        .arg(fixture())
        .output()
        .unwrap();
    assert!(
        json_of(&out.stdout)["findings"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let out = kubewhy()
        .args(["scan", "-o", "json", "-l", "app in (api)", "--from"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(
        json_of(&out.stdout)["findings"].as_array().unwrap().len(),
        1
    );
}

#[test]
fn stdin_is_read_with_dash() {
    let pods = std::fs::read(fixture().join("shop/pods.json")).unwrap();
    let out = kubewhy()
        .args(["scan", "--from", "-", "-o", "json"])
        .write_stdin(pods)
        .output()
        .unwrap();
    assert_eq!(
        json_of(&out.stdout)["findings"][0]["cause"],
        "image-not-found"
    );
}

#[test]
fn usage_errors_exit_2_with_a_clear_message() {
    // No --from and no cluster configuration: live mode explains itself and points offline.
    let out = kubewhy()
        .args(["scan"])
        .env("KUBECONFIG", "/nonexistent/kubeconfig")
        .env("HOME", "/nonexistent")
        .env_remove("KUBERNETES_SERVICE_HOST")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("no cluster configuration") && err.contains("--from PATH"),
        "{err}"
    );
    let out = kubewhy()
        .args(["scan", "--demo", "--now", "yesterday"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("RFC 3339"));
    kubewhy()
        .args(["scan", "--demo", "-l", "a b"])
        .assert()
        .code(2);
    kubewhy()
        .args(["scan", "--from", "/nonexistent/dump"])
        .assert()
        .code(2);
}

#[test]
fn explain_prints_every_emitted_cause_page_by_slug_and_code() {
    let out = kubewhy().args(["causes", "-o", "json"]).output().unwrap();
    let causes = json_of(&out.stdout);
    let mut detected = 0;
    for c in causes.as_array().unwrap() {
        let slug = c["slug"].as_str().unwrap();
        let code = c["code"].as_str().unwrap();
        let by_slug = kubewhy().args(["explain", slug]).output().unwrap();
        assert!(by_slug.status.success());
        let by_code = kubewhy().args(["explain", code]).output().unwrap();
        assert_eq!(by_slug.stdout, by_code.stdout);
        let text = String::from_utf8_lossy(&by_slug.stdout);
        if c["detected"] == true {
            detected += 1;
            assert!(
                text.contains("## How to fix it safely") && text.contains("## Example"),
                "{slug}"
            );
        }
        assert!(text.contains(slug));
    }
    assert_eq!(detected, 82);
    let out = kubewhy().args(["explain", "oom"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("oom-killed"));
}

#[test]
fn markdown_and_text_render() {
    let md = kubewhy()
        .args(["scan", "-o", "markdown", "--from"])
        .arg(fixture())
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&md.stdout).contains("### 1. ERROR `image-not-found` (KW206)"));
    let text = kubewhy()
        .args(["scan", "--from"])
        .arg(fixture())
        .output()
        .unwrap();
    let t = String::from_utf8_lossy(&text.stdout);
    assert!(
        t.contains("image-not-found") && !t.contains('\u{1b}'),
        "NO_COLOR: {t}"
    );
}

/// A kubeconfig in `dir` for port 1 on loopback: nothing listens, connections are refused at once.
fn unreachable_kubeconfig(dir: &std::path::Path) -> std::path::PathBuf {
    let kc = dir.join("config");
    std::fs::write(
        &kc,
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {server: 'https://127.0.0.1:1', insecure-skip-tls-verify: true}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n- name: x\n  context: {cluster: c, user: u}\ncurrent-context: x\n",
    )
    .unwrap();
    kc
}

#[test]
fn an_unreachable_cluster_ends_quickly_with_one_clear_message() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let kc = unreachable_kubeconfig(&dir);
    let t = std::time::Instant::now();
    let out = kubewhy()
        .args(["scan", "-A", "--kubeconfig"])
        .arg(&kc)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("cannot reach the API server at https://127.0.0.1:1"),
        "{err}"
    );
    assert!(
        t.elapsed() < std::time::Duration::from_secs(20),
        "{:?}",
        t.elapsed()
    );
}

#[test]
fn pod_and_ns_diagnose_one_object() {
    let out = kubewhy()
        .args(["pod", "api-5d8f7c9b4-q2w3e", "-o", "json", "--from"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let v = json_of(&out.stdout);
    assert_eq!(v["findings"].as_array().unwrap().len(), 1);
    assert_eq!(v["findings"][0]["cause"], "image-not-found");
    // A healthy pod: nothing to report, exit 0.
    let out = kubewhy()
        .args(["pod", "web-0", "-o", "json", "--from"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert!(
        json_of(&out.stdout)["findings"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    // Unknown names are errors, not empty reports.
    let out = kubewhy()
        .args(["pod", "nope", "--from"])
        .arg(fixture())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("pod \"nope\" not found"));
    let out = kubewhy()
        .args(["pod", "cart", "-n", "other", "--demo"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stderr).contains("not found in namespace other"));
    // One pod of the demo among many: only its own finding.
    let out = kubewhy()
        .args(["pod", "cart", "--demo", "-o", "json"])
        .output()
        .unwrap();
    let v = json_of(&out.stdout);
    let causes: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["cause"].as_str().unwrap())
        .collect();
    assert_eq!(causes, ["configmap-missing"]);
    // A namespace: its own finding; a missing one is an error.
    let out = kubewhy()
        .args(["ns", "legacy-team", "--demo", "-o", "json"])
        .output()
        .unwrap();
    let v = json_of(&out.stdout);
    let causes: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["cause"].as_str().unwrap())
        .collect();
    assert_eq!(causes, ["ns-finalizer-pending"]);
    kubewhy()
        .args(["namespace", "nope", "--demo"])
        .assert()
        .code(2);
}

#[test]
fn works_as_the_kubectl_why_plugin() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let plugin = dir.join("kubectl-why");
    std::os::unix::fs::symlink(assert_cmd::cargo::cargo_bin("kubewhy"), &plugin).unwrap();
    let out = std::process::Command::new(&plugin)
        .arg("--help")
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: kubectl why <COMMAND>"));
    let out = std::process::Command::new(&plugin)
        .args(["pod", "cart", "--demo", "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(
        json_of(&out.stdout)["findings"][0]["cause"],
        "configmap-missing"
    );
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish"] {
        let out = kubewhy().args(["completions", shell]).output().unwrap();
        assert!(out.status.success(), "{shell}");
        let text = String::from_utf8_lossy(&out.stdout);
        assert!(
            text.contains("kubewhy") && text.contains("explain"),
            "{shell}"
        );
    }
}

/// `kubewhy fix` explains what it needs before it touches anything (no cluster here).
#[test]
fn fix_says_what_it_needs_and_fails_before_any_connection() {
    let stderr = |args: &[&str]| -> (Option<i32>, String) {
        let out = kubewhy().args(args).output().unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (code, err) = stderr(&["fix"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("KIND NAME"), "{err}");

    let (code, err) = stderr(&["fix", "deployment", "web"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains(
            "kubewhy fix repairs pods and namespaces: `pod NAME` or `ns NAME`, not \"deployment\""
        ),
        "{err}"
    );

    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let (code, err) = stderr(&["fix", "--undo", dir.to_str().unwrap()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("journal.json"), "{err}");

    let bad_scratch = tempfile::tempdir().unwrap();
    let bad = bad_scratch.path().join("bad.json");
    std::fs::write(&bad, "{\"not\": \"a plan\"").unwrap();
    let (code, err) = stderr(&["fix", "--plan", bad.to_str().unwrap(), "--apply"]);
    assert_eq!(code, Some(2));
    assert!(
        err.contains("is not a plan written by kubewhy fix --save-plan"),
        "{err}"
    );

    let (code, err) = stderr(&["fix", "--undo", "x", "--apply"]);
    assert_eq!(code, Some(2));
    assert!(err.contains("cannot be used with"), "{err}");
}

fn history(file: &str) -> PathBuf {
    repo().join("tests/fixtures/history").join(file)
}

#[test]
fn gone_answers_from_the_real_audit_and_controller_logs() {
    let out = kubewhy()
        .args(["gone", "rc-scn/done-1", "-o", "json", "--audit-log"])
        .arg(history("audit.log"))
        .arg("--controller-logs")
        .arg(history("kube-controller-manager.log"))
        .arg("--from")
        .arg(history("cluster.json"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out.stdout);
    assert_eq!(v["findings"][0]["cause"], "pod-gc-threshold");
    assert_eq!(v["findings"][0]["confidence"], "high");
    assert_eq!(v["findings"][0]["objects"][0]["name"], "done-1");
    assert_eq!(
        v["findings"][0]["evidence"][0]["quote"],
        "I1123 00:19:03.552597   10834 gc_controller.go:78] PodGC is force deleting Pod: rc-scn/done-1"
    );
    assert!(
        v["sources"][1].as_str().unwrap().starts_with("audit log ("),
        "{v}"
    );
}

#[test]
fn gone_says_plainly_when_nothing_tells_and_exits_1() {
    let out = kubewhy()
        .args(["gone", "rc-gone/never-was", "--from"])
        .arg(history("cluster.json"))
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("CANNOT TELL  1 pod(s): the data does not show why"),
        "{text}"
    );
    assert!(text.contains("rc-gone/never-was  (not found)"), "{text}");
    assert!(
        text.contains("the API server audit log (--audit-log FILE) names who deleted it"),
        "{text}"
    );
}

#[test]
fn gone_by_owner_and_bad_arguments() {
    let out = kubewhy()
        .args([
            "gone",
            "--owner",
            "deployment/web",
            "-n",
            "rc-gone",
            "-o",
            "json",
            "--audit-log",
        ])
        .arg(history("audit.log"))
        .arg("--from")
        .arg(history("cluster.json"))
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v = json_of(&out.stdout);
    let pods: Vec<&str> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|f| f["objects"].as_array().unwrap())
        .map(|o| o["name"].as_str().unwrap())
        .collect();
    assert_eq!(pods, ["web-79c745d8c8-wn2gm", "web-79c745d8c8-x97fq"]);
    assert_eq!(v["findings"][0]["cause"], "owner-deleted");

    let out = kubewhy()
        .args(["gone", "--owner", "pod/x", "--from", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--owner: unknown kind \"pod\""));
    let out = kubewhy()
        .args(["gone", "a/b/c", "--from", "/dev/null"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    // A cluster of now with no pods (an empty file is not a snapshot: nothing could be read).
    let none_scratch = tempfile::tempdir().unwrap();
    let none = none_scratch.path().join("none.json");
    std::fs::write(&none, r#"{"kind":"PodList","apiVersion":"v1","items":[]}"#).unwrap();
    let out = kubewhy()
        .args(["gone", "x", "--record", "/nonexistent/rec.db", "--from"])
        .arg(&none)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("not a kubewhy flight recorder database (no such file)")
    );
}

#[test]
fn watch_mode_says_when_it_cannot_watch_and_keeps_serving_its_health() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let kc = unreachable_kubeconfig(&dir);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let log = dir.join("stderr");
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kubewhy"))
        .args([
            "watch",
            "--listen",
            &format!("127.0.0.1:{port}"),
            "--kubeconfig",
        ])
        .arg(&kc)
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap();
    let t = std::time::Instant::now();
    let (mut warned, mut health) = (false, String::new());
    while (!warned || health.is_empty()) && t.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(500));
        warned = std::fs::read_to_string(&log).unwrap_or_default().contains(
            "kubewhy: warning: cannot watch 30 kinds (nodes, namespaces, persistentvolumes, … ",
        );
        if let Ok(mut s) = std::net::TcpStream::connect(("127.0.0.1", port)) {
            use std::io::{Read, Write};
            let _ = write!(s, "GET /healthz HTTP/1.0\r\n\r\n");
            let mut r = String::new();
            let _ = s.read_to_string(&mut r);
            health = r;
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    let stderr = std::fs::read_to_string(&log).unwrap_or_default();
    assert!(warned, "{stderr}");
    assert!(
        stderr.contains("kubewhy: permissions: not checked"),
        "{stderr}"
    );
    assert_eq!(
        stderr.matches("kubewhy: warning:").count(),
        1,
        "one line for the watches failing alike, not one per kind or retry: {stderr}"
    );
    assert!(health.starts_with("HTTP/1.0 503"), "{health}");
    assert!(health.contains("pods: failing"), "{health}");
}

#[test]
fn watch_arguments_are_checked_before_anything_starts() {
    let out = kubewhy().args(["watch", "--no-serve"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--record"));
    let out = kubewhy()
        .args(["watch", "--listen", "not-an-address"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--listen"));
    // -A is accepted as scan and kubectl accept it (and checked like every argument).
    let out = kubewhy()
        .args(["watch", "-A", "--listen", "not-an-address"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("--listen") && !stderr.contains("'-A'"),
        "{stderr}"
    );
    let out = kubewhy()
        .args(["watch", "-A", "-n", "shop"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"));
}

/// A plain-HTTP stand-in for an API server that answers every list, empty, after `delay`.
fn slow_api_server(delay: std::time::Duration) -> u16 {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let port = listener.local_addr().unwrap().port();
    std::thread::spawn(move || {
        for conn in listener.incoming().flatten() {
            std::thread::spawn(move || {
                use std::io::{BufRead, BufReader, Write};
                let mut reader = BufReader::new(conn.try_clone().unwrap());
                let mut first = String::new();
                let _ = reader.read_line(&mut first);
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 || line == "\r\n" {
                        break;
                    }
                }
                let body = if first.contains("/version") {
                    r#"{"major":"1","minor":"20"}"#.to_string()
                } else {
                    std::thread::sleep(delay);
                    r#"{"kind":"List","apiVersion":"v1","metadata":{"resourceVersion":"1"},"items":[]}"#
                        .to_string()
                };
                let mut conn = conn;
                let _ = write!(
                    conn,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            });
        }
    });
    port
}

#[test]
fn a_slow_live_read_shows_a_progress_bar_on_a_terminal_only() {
    let port = slow_api_server(std::time::Duration::from_millis(1500));
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let kc = dir.join("config");
    std::fs::write(
        &kc,
        format!("apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster: {{server: 'http://127.0.0.1:{port}'}}\nusers:\n- name: u\n  user: {{}}\ncontexts:\n- name: x\n  context: {{cluster: c, user: u}}\ncurrent-context: x\n"),
    )
    .unwrap();
    let cmd = format!(
        "{} scan -A -o json --kubeconfig {} >/dev/null",
        env!("CARGO_BIN_EXE_kubewhy"),
        kc.display()
    );
    // `script` gives kubewhy a terminal for stderr; what it drew comes back on stdout.
    let tty = std::process::Command::new("script")
        .args(["-qec", &cmd, "/dev/null"])
        .output()
        .unwrap();
    let drawn = String::from_utf8_lossy(&tty.stdout);
    assert!(
        drawn.contains("reading the cluster:") && drawn.contains("lists"),
        "on a terminal: {drawn:?}"
    );
    // Not a terminal: nothing but the result.
    let piped = kubewhy()
        .args(["scan", "-A", "-o", "json", "--kubeconfig"])
        .arg(&kc)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&piped.stderr);
    assert!(!err.contains("reading the cluster"), "{err}");
    assert_eq!(piped.status.code(), Some(0), "{err}");
}

/// Installed as `kubectl-why`, the binary does its main job with kubectl's own flags:
/// `kubectl why -A …` and `kubectl why -n shop …` scan; subcommands and `--help` keep working.
#[test]
fn as_a_kubectl_plugin_kubectls_flags_scan() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let plugin = dir.join("kubectl-why");
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kubewhy"), &plugin).unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(&plugin)
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap()
    };
    let out = run(&["-A", "--demo", "-o", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        !json_of(&out.stdout)["findings"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    let out = run(&["-n", "shop", "--demo", "-o", "json"]);
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = run(&["explain", "oom-killed"]);
    assert_eq!(out.status.code(), Some(0));
    let out = run(&["--help"]);
    assert!(String::from_utf8_lossy(&out.stdout).contains("(or bare `kubectl why`) scans"));
}

/// A `kubectl cluster-info dump` holds no Namespace objects: `ns NAME` says what it cannot
/// judge and what would fetch it, and a namespace that is not in the data at all is an error,
/// not "no problems".
#[test]
fn absence_of_a_kind_is_stated_not_taken_for_health() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    std::fs::create_dir_all(dir.join("old-team")).unwrap();
    std::fs::write(
        dir.join("old-team/pods.json"),
        r#"{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"web-1","namespace":"old-team","uid":"u1","creationTimestamp":"2026-11-22T09:00:00Z"},"spec":{"nodeName":"node-1","containers":[{"name":"web","image":"web:1"}]},"status":{"phase":"Running","conditions":[{"type":"Ready","status":"True"}],"containerStatuses":[{"name":"web","ready":true,"restartCount":0,"state":{"running":{"startedAt":"2026-11-22T09:00:05Z"}}}]}}]}"#,
    )
    .unwrap();
    let out = kubewhy()
        .args(["ns", "old-team", "--from"])
        .arg(&dir)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("the data holds no Namespace objects (a `kubectl cluster-info dump` has none), so whether namespace old-team is being deleted cannot be judged; add `kubectl get namespace old-team -o json` to the input"),
        "{stderr}"
    );
    let out = kubewhy()
        .args(["ns", "elsewhere", "--from"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("namespace \"elsewhere\" is not in the data"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every example of `--help` and of the README that needs no cluster is run, as written, in a
/// directory that holds the files it names (the demo dump as `dump/` and `snap.json`, a flight
/// recorder database, the real controller-manager log and audit log, a node's evidence); none
/// may be refused as a usage error (exit 2). The examples that read a live cluster run in the
/// e2e suite.
#[test]
fn every_offline_example_runs() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    std::fs::create_dir_all(dir.join("dump")).unwrap();
    let demo = repo().join("demo/cluster-dump.json");
    std::fs::copy(&demo, dir.join("dump/cluster-dump.json")).unwrap();
    std::fs::copy(&demo, dir.join("snap.json")).unwrap();
    std::fs::copy(history("kube-controller-manager.log"), dir.join("kcm.log")).unwrap();
    std::fs::copy(history("audit.log"), dir.join("audit.log")).unwrap();
    let node = repo().join("tests/fixtures/node/busy-mount");
    kubewhy_recorder::Recorder::open(&dir.join("rec.db")).unwrap();
    // The support bundles of the README, as archives and extracted.
    let bundles = repo().join("tests/fixtures/bundles");
    for b in ["support-bundle.tar.gz", "must-gather.zip"] {
        std::fs::copy(bundles.join(b), dir.join(b)).unwrap();
    }
    // The must-gather as it often travels, a .tar.xz (python's tarfile writes one).
    let xz = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, tarfile, zipfile, io\nz = zipfile.ZipFile(sys.argv[1])\nwith tarfile.open(sys.argv[2], 'w:xz') as t:\n    for i in z.infolist():\n        if i.is_dir(): continue\n        d = z.read(i)\n        ti = tarfile.TarInfo(i.filename)\n        ti.size = len(d)\n        t.addfile(ti, io.BytesIO(d))",
        ])
        .arg(bundles.join("must-gather.zip"))
        .arg(dir.join("must-gather.tar.xz"))
        .status()
        .unwrap();
    assert!(xz.success());
    let untar = std::process::Command::new("tar")
        .arg("xzf")
        .arg(bundles.join("support-bundle.tar.gz"))
        .arg("-C")
        .arg(&dir)
        .status()
        .unwrap();
    assert!(untar.success());
    let commands = common::examples(&["", "gone", "node-collect", "fix", "watch"]);
    let mut ran = Vec::new();
    for (from, command) in commands {
        let offline = (command.contains("--demo") || command.contains("--from"))
            && !command.contains("--from -")
            && !command.contains('|')
            || command.starts_with("explain")
            || command.starts_with("causes");
        if !offline {
            continue;
        }
        let args: Vec<String> = command
            .split_whitespace()
            .map(|w| match w {
                "/var/log/kubernetes/audit.log" => "audit.log".to_string(),
                "/var/lib/kubewhy/rec.db" => "rec.db".to_string(),
                "/tmp/node-1" => node.display().to_string(),
                w => w.to_string(),
            })
            .collect();
        let out = kubewhy().current_dir(&dir).args(&args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            matches!(out.status.code(), Some(0 | 1)) && !stderr.contains("error:"),
            "`kubewhy {command}` ({from}): exit {:?}\n{stderr}",
            out.status.code()
        );
        ran.push(command);
    }
    assert!(ran.len() >= 12, "{ran:#?}");
}

/// A kubeconfig of `contexts`, each a cluster nobody listens at (127.0.0.1:9).
fn unreachable_contexts(dir: &std::path::Path, contexts: &[&str]) -> PathBuf {
    let mut text = String::from(
        "apiVersion: v1\nkind: Config\ncurrent-context: a\nclusters:\n- name: gone\n  cluster: {server: 'https://127.0.0.1:9'}\nusers:\n- name: u\n  user: {token: t}\ncontexts:\n",
    );
    for c in contexts {
        text.push_str(&format!(
            "- name: {c}\n  context: {{cluster: gone, user: u}}\n"
        ));
    }
    let path = dir.join("kubeconfig");
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn a_fleet_scan_reports_each_cluster_that_cannot_be_read_in_its_row() {
    let dir = tempfile::tempdir().unwrap();
    let kc = unreachable_contexts(dir.path(), &["a", "b", "c"]);
    let out = kubewhy()
        .args(["scan", "--all-contexts", "-A", "-o", "json", "--kubeconfig"])
        .arg(&kc)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "a cluster that cannot be read is exit 2"
    );
    let v = json_of(&out.stdout);
    assert_eq!(
        v["fleet"],
        serde_json::json!({"clusters": 3, "read": 0, "failed": 3, "findings": 0})
    );
    let contexts: Vec<&str> = v["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["context"].as_str().unwrap())
        .collect();
    assert_eq!(contexts, ["a", "b", "c"], "in the kubeconfig's order");
    for c in v["clusters"].as_array().unwrap() {
        assert_eq!(c["status"], "failed");
        assert!(
            c["error"].as_str().unwrap().contains("connection refused"),
            "{c}"
        );
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        stderr.matches("kubewhy: warning: cluster ").count(),
        3,
        "{stderr}"
    );

    // Text: the summary's rows; repeated --context reads those only, each once.
    let out = kubewhy()
        .args([
            "scan",
            "--context",
            "c",
            "--context",
            "a",
            "--context",
            "c",
            "--kubeconfig",
        ])
        .arg(&kc)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.starts_with("Fleet: 2 cluster(s), 0 read, 2 could not be read; 0 finding(s)\n"),
        "{text}"
    );
    let rows: Vec<&str> = text
        .lines()
        .filter(|l| l.contains("https://127.0.0.1:9"))
        .collect();
    assert!(
        rows[0].starts_with("c ") && rows[1].starts_with("a "),
        "{text}"
    );

    // One cluster per command for the others.
    let out = kubewhy()
        .args([
            "pod",
            "web",
            "--context",
            "a",
            "--context",
            "b",
            "--kubeconfig",
        ])
        .arg(&kc)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("`kubewhy pod` takes one --context"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}
