//! `scan --demo` on the bundled real-cluster capture: every planted cause with exactly its
//! objects and key evidence, and nothing on the healthy workloads.

mod common;

use assert_cmd::Command;
use serde_json::Value;
use std::collections::BTreeMap;

fn demo_json() -> Value {
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .args(["scan", "--demo", "-o", "json"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "the demo has findings: exit 1");
    serde_json::from_slice(&out.stdout).unwrap()
}

fn names(f: &Value) -> Vec<String> {
    let mut v = common::object_names(f);
    v.sort();
    v
}

fn quotes(f: &Value) -> String {
    f["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["quote"].as_str().unwrap().to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn every_planted_cause_with_exactly_its_objects() {
    let v = demo_json();
    assert!(v["inputProblems"].as_array().unwrap().is_empty());
    let mut by_cause: BTreeMap<String, &Value> = BTreeMap::new();
    for f in v["findings"].as_array().unwrap() {
        let prev = by_cause.insert(f["cause"].as_str().unwrap().to_string(), f);
        assert!(
            prev.is_none(),
            "one finding per planted cause: {}",
            f["cause"]
        );
    }
    let expect: &[(&str, &[&str], &str)] = &[
        (
            "insufficient-resources",
            &[
                "Pod shop/report-builder-5799ccd648-6tljz",
                "Pod shop/report-builder-5799ccd648-82d4t",
                "Pod shop/report-builder-5799ccd648-dx7px",
            ],
            "0/1 nodes are available: 1 Insufficient cpu.",
        ),
        (
            "node-selector-mismatch",
            &["Pod shop/search-indexer"],
            "didn't match Pod's node affinity",
        ),
        (
            "host-port-conflict",
            &["Pod shop/metrics-exporter-b"],
            "didn't have free ports for the requested pod ports",
        ),
        (
            "configmap-missing",
            &["Pod shop/cart"],
            "configmap \"cart-config\" not found",
        ),
        (
            "image-not-found",
            &["Pod shop/checkout-7d894d9d7f-ljskx"],
            "localhost:5000/shop/checkout:2.3.1: not found",
        ),
        (
            "image-pull-auth",
            &["Pod shop/payments"],
            "401 Unauthorized",
        ),
        (
            "image-registry-tls",
            &["Pod shop/recommendations"],
            "x509: certificate signed by unknown authority",
        ),
        (
            "oom-killed",
            &["Pod shop/image-cache"],
            "reason=OOMKilled exitCode=137",
        ),
        (
            "dependency-unreachable",
            &["Pod shop/orders-7469d666d-plrhb"],
            "FATAL: could not connect to database: connection refused",
        ),
        (
            "finalizer-pending",
            &["Pod shop/legacy-billing"],
            "[shop.example.com/protect]",
        ),
        (
            "ns-finalizer-pending",
            &["Namespace /legacy-team"],
            "ConfigMap/feature-flags finalizers=[shop.example.com/protect]",
        ),
    ];
    for (cause, objects, evidence) in expect {
        let f = by_cause
            .remove(*cause)
            .unwrap_or_else(|| panic!("{cause} not reported"));
        assert_eq!(names(f), objects.to_vec(), "{cause}: objects");
        assert!(
            quotes(f).contains(evidence),
            "{cause}: evidence {evidence:?} not in\n{}",
            quotes(f)
        );
    }
    assert!(
        by_cause.is_empty(),
        "unexpected findings: {:?}",
        by_cause.keys()
    );
    assert!(
        v["unexplained"].as_array().unwrap().is_empty(),
        "{:#}",
        v["unexplained"]
    );
}

#[test]
fn nothing_is_said_about_the_healthy_workloads() {
    let v = demo_json();
    let findings = v["findings"].to_string();
    let unexplained = v["unexplained"].to_string();
    for healthy in [
        "web-7bd774785f-dc8pk",
        "web-7bd774785f-j28px",
        "metrics-exporter-a",
        "db-migrate",
    ] {
        let affected = v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|f| f["objects"].as_array().unwrap())
            .any(|o| o["name"] == healthy);
        assert!(!affected, "{healthy} is reported as affected");
        assert!(!unexplained.contains(healthy), "{healthy} is unexplained");
    }
    // The healthy pod holding the hostPort is named as evidence, not as a problem.
    for healthy in ["web-7bd774785f-dc8pk", "web-7bd774785f-j28px", "db-migrate"] {
        assert!(
            !findings.contains(healthy),
            "{healthy} appears in the report"
        );
    }
    assert!(findings.contains("hostPort 9100/TCP is held there by Pod shop/metrics-exporter-a"));
}

#[test]
fn the_demo_is_judged_as_of_its_capture_time() {
    let v = demo_json();
    assert_eq!(v["snapshot"]["now"], "2026-11-22T11:15:36Z");
    assert_eq!(v["summary"]["findings"], 11);
    assert_eq!(v["summary"]["affectedObjects"], 13);
}
