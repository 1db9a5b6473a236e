//! Secrets hygiene: secrets planted in every place kubewhy reads (Secret data and stringData,
//! environment values, the last-applied-configuration annotation, container logs, event
//! messages, condition and termination messages) appear in no output: text, JSON, Markdown,
//! the watch page, nor the flight recorder's database. Secret and environment values are never
//! read at all; free text is redacted as it is read.

use assert_cmd::Command;
use base64::Engine;
use serde_json::{Value, json};
use std::path::Path;

/// Every planted secret, as it must never be seen again.
const PLANTED: &[&str] = &[
    "secret-value-1",
    "c2VjcmV0LXZhbHVlLTE",
    "plain-secret-2",
    "env-secret-3",
    "annotation-secret-4",
    "tok5abcdefghijklmnop",
    "eyJhbGciOiJIUzI1NiJ9",
    "AKIAABCDEFGHIJKLMNO7",
    "urlpass8",
    "logpass9",
    "MIIEpAIBAAKCAQEAprivate10",
    "eventpass11",
    "eventtoken12",
    "termsecret13",
    "statussecret14",
];

fn pod(name: &str, ns: &str) -> Value {
    let applied = json!({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": name, "namespace": ns},
        "spec": {"containers": [{"name": "app", "image": "app:1",
                 "env": [{"name": "DB_PASSWORD", "value": "annotation-secret-4"}]}]}});
    json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": ns, "uid": format!("u-{name}"), "creationTimestamp": "2026-11-23T09:00:00Z",
                     "annotations": {"kubectl.kubernetes.io/last-applied-configuration": applied.to_string()}},
        "spec": {"nodeName": "node-1", "containers": [{"name": "app", "image": "app:1",
                 "env": [{"name": "DB_PASSWORD", "value": "env-secret-3"},
                         {"name": "API_TOKEN", "valueFrom": {"secretKeyRef": {"name": "db", "key": "password"}}}]}]},
        "status": {"phase": "Running", "message": "client_secret=statussecret14",
                   "conditions": [{"type": "Ready", "status": "False", "reason": "ContainersNotReady",
                                   "message": "failed: token=eventtoken12", "lastTransitionTime": "2026-11-23T09:55:00Z"}],
                   "containerStatuses": [{"name": "app", "image": "app:1", "ready": false, "restartCount": 6,
                       "state": {"waiting": {"reason": "CrashLoopBackOff", "message": "back-off restarting failed container"}},
                       "lastState": {"terminated": {"exitCode": 1, "reason": "Error", "finishedAt": "2026-11-23T09:58:00Z",
                           "message": "fatal: client_secret=termsecret13 rejected"}}}]}})
}

fn event(name: &str, ns: &str, pod: &str, message: &str) -> Value {
    json!({"apiVersion": "v1", "kind": "Event", "metadata": {"name": name, "namespace": ns, "uid": format!("e-{name}")},
        "involvedObject": {"kind": "Pod", "name": pod, "namespace": ns, "uid": format!("u-{pod}")},
        "reason": "Failed", "message": message, "type": "Warning", "count": 4,
        "source": {"component": "kubelet", "host": "node-1"}, "lastTimestamp": "2026-11-23T09:59:00Z"})
}

/// A cluster-info dump directory with every secret planted.
fn dump(dir: &Path) -> Vec<Value> {
    let ns = "shop";
    std::fs::create_dir_all(dir.join(format!("{ns}/web-1"))).unwrap();
    let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
    let secret = json!({"apiVersion": "v1", "kind": "Secret", "type": "Opaque",
        "metadata": {"name": "db", "namespace": ns}, "data": {"password": b64("secret-value-1")},
        "stringData": {"token": "plain-secret-2"}});
    // A pod whose image cannot be pulled: its finding quotes the kubelet's event.
    let mut pull = pod("pull-1", ns);
    pull["status"]["containerStatuses"][0]["state"] = json!({"waiting": {"reason": "ImagePullBackOff",
        "message": "Back-off pulling image \"registry.example.com/app:1\""}});
    pull["status"]["containerStatuses"][0]["restartCount"] = json!(0);
    pull["status"]["phase"] = json!("Pending");
    let events = vec![
        event(
            "e1",
            ns,
            "pull-1",
            "Failed to pull image \"registry.example.com/app:1\": rpc error: code = Unknown desc = failed to resolve https://alice:eventpass11@registry.example.com/v2/: 401 Unauthorized",
        ),
        event(
            "e2",
            ns,
            "web-1",
            "Liveness probe failed: HTTP probe failed with Authorization: Bearer tok5abcdefghijklmnop",
        ),
        event(
            "e3",
            ns,
            "web-1",
            "Back-off restarting failed container (key AKIAABCDEFGHIJKLMNO7)",
        ),
    ];
    let mut items = vec![pod("web-1", ns), pull, secret];
    items.extend(events.iter().cloned());
    std::fs::write(
        dir.join(format!("{ns}/objects.json")),
        json!({"apiVersion": "v1", "kind": "List", "items": items}).to_string(),
    )
    .unwrap();
    std::fs::write(
        dir.join(format!("{ns}/web-1/logs.txt")),
        "starting\n\
         connecting to https://bob:urlpass8@db.example.com\n\
         using password=logpass9\n\
         header Authorization: Bearer tok5abcdefghijklmnop\n\
         jwt eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl\n\
         -----BEGIN RSA PRIVATE KEY-----\n\
         MIIEpAIBAAKCAQEAprivate10\n\
         -----END RSA PRIVATE KEY-----\n\
         panic: cannot connect\n",
    )
    .unwrap();
    std::fs::write(
        dir.join("nodes.json"),
        json!({"kind": "NodeList", "apiVersion": "v1", "items": [{"metadata": {"name": "node-1"},
            "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"},
                       "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2026-11-23T08:00:00Z"}]}}]})
        .to_string(),
    )
    .unwrap();
    events
}

fn assert_clean(what: &str, bytes: &[u8]) {
    let text = String::from_utf8_lossy(bytes);
    for s in PLANTED {
        assert!(!text.contains(s), "{what} holds {s:?}");
    }
}

#[test]
fn no_planted_secret_reaches_any_output_or_the_flight_recorder() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let events = dump(&dir.join("dump"));
    let from = dir.join("dump");
    let now = "2026-11-23T10:00:00Z";

    // Every format of every command that reads a dump.
    let mut shown = String::new();
    for args in [
        vec!["scan", "-o", "text"],
        vec!["scan", "-o", "json"],
        vec!["scan", "-o", "markdown"],
        vec!["pod", "web-1", "-n", "shop", "-o", "text"],
        vec!["pod", "web-1", "-n", "shop", "-o", "json"],
        vec!["ns", "shop", "-o", "markdown"],
    ] {
        let out = Command::cargo_bin("kubewhy")
            .unwrap()
            .env("NO_COLOR", "1")
            .args(&args)
            .arg("--from")
            .arg(&from)
            .args(["--now", now])
            .output()
            .unwrap();
        assert!(
            out.status.code().is_some_and(|c| c <= 1),
            "{args:?}: {out:?}"
        );
        assert_clean(&format!("{args:?} stdout"), &out.stdout);
        assert_clean(&format!("{args:?} stderr"), &out.stderr);
        shown.push_str(&String::from_utf8_lossy(&out.stdout));
    }
    // The findings were there and quoted the planted places: the crash, its log, the events.
    for expected in [
        "app-exit-error",
        "panic: cannot connect",
        "client_secret=[REDACTED]",
        "alice:[REDACTED]@registry.example.com",
    ] {
        assert!(shown.contains(expected), "no {expected:?} in the outputs");
    }

    // The watch page, from the same loader and checks.
    let loaded = kubewhy_source::load(
        &[kubewhy_source::Input::Path(from.clone())],
        Some(now.parse().unwrap()),
    );
    let d = kubewhy_rules::diagnose(&loaded.snapshot);
    assert!(!d.findings.is_empty());
    let report = kubewhy_report::Report {
        findings: &d.findings,
        unexplained: &d.unexplained,
        warnings: &loaded.warnings,
        snapshot: kubewhy_report::SnapshotInfo {
            now: Some(now.into()),
            files: loaded.files_read,
            objects: loaded.snapshot.object_count(),
            kinds: loaded.snapshot.kinds_loaded.clone(),
            live: false,
        },
        summary_only: false,
    };
    let page = kubewhy_report::html_page(
        &report,
        &kubewhy_report::PageInfo {
            refresh_seconds: 10,
            watch_problems: &[],
            degraded: &[],
            synced: true,
            namespace: None,
            namespaces: &[],
        },
    );
    assert!(page.contains("web-1"));
    assert_clean("the watch page", page.as_bytes());

    // The flight recorder, fed as watch mode feeds it: the pod's slim view and its events.
    let db = dir.join("recorder.db");
    let mut rec = kubewhy_recorder::Recorder::open(&db).unwrap();
    let p: kubewhy_model::objects::Pod = serde_json::from_value(pod("web-1", "shop")).unwrap();
    let mut record = kubewhy_model::history::PodRecord::from_pod(&p);
    record.deleted = Some(now.parse().unwrap());
    let mut ops = vec![kubewhy_recorder::Op::PodDeleted(Box::new(record))];
    for e in events {
        let e = kubewhy_source::core_event(e).unwrap();
        ops.push(kubewhy_recorder::Op::Event {
            event_uid: e.name.to_string(),
            pod_uid: e.involved.uid.to_string(),
            namespace: e.namespace.to_string(),
            pod: e.involved.name.to_string(),
            event: kubewhy_model::history::RecordedEvent {
                time: e.last_time,
                type_: e.type_.to_string(),
                reason: e.reason.to_string(),
                source: e.source.to_string(),
                message: e.message.to_string(),
                count: e.count,
            },
        });
    }
    rec.write(&ops).unwrap();
    let read = rec.read(None).unwrap();
    assert_eq!(read.pods.len(), 1);
    assert_eq!(read.pods[0].events.len(), 2);
    drop(rec);
    for f in std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()) {
        let name = f.file_name().to_string_lossy().to_string();
        if name.starts_with("recorder.db") {
            assert_clean(&name, &std::fs::read(f.path()).unwrap());
        }
    }
}
