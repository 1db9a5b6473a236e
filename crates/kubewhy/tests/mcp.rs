//! `kubewhy mcp` spoken to line by line, as any stdio client does (JSON-RPC 2.0, one message per
//! line): the handshake, the tool list, a diagnosis equal to `scan -o json`, the refusals. CI also
//! drives it with the official Python client (scripts/mcp-check.py); this test needs nothing but
//! the binary.

use serde_json::{Value, json};
use std::io::{BufRead, BufReader, Write};
use std::path::PathBuf;
use std::process::{Child, ChildStdin, ChildStdout, Stdio};

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

struct Session {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next: u64,
}

impl Session {
    fn start(args: &[&str]) -> Session {
        let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_kubewhy"))
            .arg("mcp")
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut s = Session {
            child,
            stdin,
            stdout,
            next: 1,
        };
        let init = s.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "kubewhy-test", "version": "1"}}),
        );
        assert_eq!(init["result"]["serverInfo"]["name"], "kubewhy", "{init}");
        s.send(json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        s
    }

    fn send(&mut self, message: Value) {
        writeln!(self.stdin, "{message}").unwrap();
        self.stdin.flush().unwrap();
    }

    /// Sends a request and reads lines until its response.
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next;
        self.next += 1;
        self.send(json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let mut line = String::new();
            assert!(
                self.stdout.read_line(&mut line).unwrap() > 0,
                "the server closed stdout"
            );
            let v: Value = serde_json::from_str(&line).expect("each line is one JSON message");
            if v["id"] == id {
                return v;
            }
        }
    }

    fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn text(result: &Value) -> String {
    result["result"]["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn an_mcp_client_gets_the_same_diagnosis_as_the_command_line() {
    let demo = repo().join("demo");
    let mut s = Session::start(&["--allow-path", demo.to_str().unwrap(), "--no-cluster"]);
    let tools = s.request("tools/list", json!({}));
    let mut names: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "diagnose_path",
            "diagnose_text",
            "explain_cause",
            "fix_plan",
            "list_causes",
            "scan_cluster",
            "why_gone"
        ]
    );

    let dump = demo.join("cluster-dump.json");
    let r = s.call("diagnose_path", json!({"path": dump}));
    assert_eq!(r["result"]["isError"], false, "{r}");
    let cli = std::process::Command::new(env!("CARGO_BIN_EXE_kubewhy"))
        .args(["scan", "--from"])
        .arg(&dump)
        .args(["-o", "json"])
        .output()
        .unwrap();
    let want: Value = serde_json::from_slice(&cli.stdout).unwrap();
    assert_eq!(r["result"]["structuredContent"], want);
    // The text is the overview: one row per cause, no terminal styles.
    let overview = text(&r);
    for row in want["summary"]["causes"].as_array().unwrap() {
        assert!(
            overview.contains(row["cause"].as_str().unwrap()),
            "{overview}"
        );
    }
    assert!(!overview.contains('\x1b'));

    // A paste, read as `--from -` reads it.
    let paste = "Events:\n  Warning  FailedScheduling  12s  default-scheduler  0/3 nodes are available: 3 Insufficient cpu.\n";
    let r = s.call(
        "diagnose_text",
        json!({"text": paste, "now": "2026-11-27T12:00:00Z"}),
    );
    assert_eq!(
        r["result"]["structuredContent"]["findings"][0]["cause"], "insufficient-resources",
        "{r}"
    );

    // Refusals, each in words, the server answering after them.
    let r = s.call("diagnose_path", json!({"path": "/etc/hostname"}));
    assert_eq!(r["result"]["isError"], true);
    assert!(text(&r).contains("outside the allowed roots"), "{r}");
    let r = s.call("scan_cluster", json!({}));
    assert_eq!(r["result"]["isError"], true);
    assert!(text(&r).contains("--no-cluster"), "{r}");
    let r = s.call("no_such_tool", json!({}));
    let message = r["error"]["message"].as_str().unwrap_or_default();
    assert!(
        message.contains("no_such_tool") && message.contains("diagnose_text"),
        "{r}"
    );
    let r = s.call("diagnose_text", json!({"text": 7}));
    assert_eq!(r["result"]["isError"], true, "{r}");
    assert!(text(&r).contains("expected a string"), "{r}");
    let r = s.call("explain_cause", json!({"cause": "oomkilled"}));
    assert!(text(&r).contains("did you mean: oom-killed?"), "{r}");
    let r = s.call("explain_cause", json!({"cause": "oom-killed"}));
    assert_eq!(r["result"]["structuredContent"]["code"], "KW301", "{r}");
}
