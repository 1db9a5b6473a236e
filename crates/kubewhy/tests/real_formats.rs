//! Inputs captured from the real 1.20 cluster (../shared/realcluster + demo/build-demo.sh):
//! a `cluster-info dump --output-directory` tree and `kubectl get pods,events -o yaml`. Each
//! format must give the same diagnosis as the demo's stdout-stream capture.

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

fn scan(path: &str) -> Value {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path);
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .args(["scan", "-o", "json", "--from"])
        .arg(p)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    serde_json::from_slice(&out.stdout).unwrap()
}

fn causes(v: &Value) -> Vec<(String, Vec<String>)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            let mut objs: Vec<String> = f["objects"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["name"].as_str().unwrap().to_string())
                .collect();
            objs.sort();
            (f["cause"].as_str().unwrap().to_string(), objs)
        })
        .collect()
}

const POD_CAUSES: &[(&str, &[&str])] = &[
    (
        "insufficient-resources",
        &[
            "report-builder-5799ccd648-6tljz",
            "report-builder-5799ccd648-82d4t",
            "report-builder-5799ccd648-dx7px",
        ],
    ),
    ("node-selector-mismatch", &["search-indexer"]),
    ("host-port-conflict", &["metrics-exporter-b"]),
    ("configmap-missing", &["cart"]),
    ("image-not-found", &["checkout-7d894d9d7f-ljskx"]),
    ("image-pull-auth", &["payments"]),
    ("image-registry-tls", &["recommendations"]),
    ("oom-killed", &["image-cache"]),
    ("dependency-unreachable", &["orders-7469d666d-plrhb"]),
    ("finalizer-pending", &["legacy-billing"]),
];

fn expected() -> Vec<(String, Vec<String>)> {
    POD_CAUSES
        .iter()
        .map(|(c, o)| (c.to_string(), o.iter().map(|s| s.to_string()).collect()))
        .collect()
}

#[test]
fn cluster_info_dump_directory() {
    let v = scan("tests/fixtures/real/shop-dump");
    assert!(
        v["inputProblems"].as_array().unwrap().is_empty(),
        "{:#}",
        v["inputProblems"]
    );
    assert_eq!(causes(&v), expected());
    assert!(v["unexplained"].as_array().unwrap().is_empty());
    // NS/POD/logs.txt is tied to its pod and quoted.
    let crash = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["cause"] == "dependency-unreachable")
        .unwrap();
    let log = crash["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["kind"] == "log")
        .expect("log evidence");
    assert!(
        log["quote"]
            .as_str()
            .unwrap()
            .contains("connection refused")
    );
    assert!(log["source"].as_str().unwrap().contains("logs.txt"));
}

#[test]
fn kubectl_get_yaml() {
    let v = scan("tests/fixtures/real/shop-get.yaml");
    assert!(
        v["inputProblems"].as_array().unwrap().is_empty(),
        "{:#}",
        v["inputProblems"]
    );
    // Without the containers' logs, the orders pod only shows that it exits by itself.
    let want: Vec<_> = expected()
        .into_iter()
        .map(|(c, o)| {
            let c = if c == "dependency-unreachable" {
                "app-exit-error".to_string()
            } else {
                c
            };
            (c, o)
        })
        .collect();
    assert_eq!(causes(&v), want);
}
