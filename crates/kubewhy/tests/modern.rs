//! Today's pod states (issue 37) in one snapshot (`tests/fixtures/modern/`): every workload is
//! diagnosed with its own cause and nothing else, and a healthy pod with a running sidecar is
//! left alone.

use serde_json::Value;
use std::collections::BTreeMap;

fn scan() -> Value {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/fixtures/modern/snapshot.yaml"
    );
    let out = assert_cmd::Command::cargo_bin("kubewhy")
        .unwrap()
        .args([
            "scan",
            "-o",
            "json",
            "--now",
            "2026-11-22T10:00:00Z",
            "--from",
            path,
        ])
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn each_state_of_todays_kubernetes_has_its_cause() {
    let v = scan();
    let mut got: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in v["findings"].as_array().unwrap() {
        let cause = f["cause"].as_str().unwrap().to_string();
        for o in f["objects"].as_array().unwrap() {
            let who = format!(
                "{}/{}",
                o["kind"].as_str().unwrap(),
                o["name"].as_str().unwrap()
            );
            got.entry(who).or_default().push(cause.clone());
        }
    }
    let want: &[(&str, &str)] = &[
        ("Pod/sample-job-6lbjq", "scheduling-gated"),
        ("Pod/trainer-0", "resource-claim-unallocatable"),
        ("Pod/batch-7d9f8c6b5-2xk4p", "node-admission-rejected"),
        ("Pod/batch-7d9f8c6b5-9qzr7", "node-admission-rejected"),
        ("Pod/cuda-train-0", "device-allocation-failed"),
        ("Pod/api-0", "resize-infeasible"),
        ("Pod/seed-data-5b7c9d8f6-qx2lm", "completed-but-restarted"),
        ("Pod/web-6c9b7d5f4-8zt2k", "lifecycle-hook-failed"),
        ("Pod/nightly-report", "deadline-exceeded"),
        ("Job/import-orders", "job-backoff-exceeded"),
        ("Pod/import-orders-x7k2p", "job-backoff-exceeded"),
        ("Pod/import-orders-q9m4d", "job-backoff-exceeded"),
        ("Pod/ledger-7f8d6c5b4-m2x9q", "disruption-budget-blocking"),
        ("PodDisruptionBudget/ledger", "disruption-budget-blocking"),
        ("Pod/worker-6d8f7b9c5-t4kz2", "node-shutdown"),
        ("Pod/api-with-agent-0", "app-exit-error"),
    ];
    for (who, cause) in want {
        assert_eq!(
            got.get(*who).map(Vec::as_slice),
            Some(&[cause.to_string()][..]),
            "{who}: {got:#?}"
        );
    }
    assert_eq!(
        got.len(),
        want.len(),
        "objects beyond those expected: {got:#?}"
    );
    assert!(
        v["unexplained"].as_array().unwrap().is_empty(),
        "{}",
        v["unexplained"]
    );
    // The running sidecar's pod and the refused pods' replacement are healthy: not named.
    assert!(
        !got.keys()
            .any(|k| k.contains("web-with-proxy") || k.contains("h8wq3"))
    );
}

#[test]
fn the_findings_say_what_to_do_with_the_states_own_evidence() {
    let v = scan();
    let find = |cause: &str| -> Value {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|f| f["cause"] == cause)
            .cloned()
            .unwrap_or_else(|| panic!("no {cause}"))
    };
    let text = |f: &Value| f.to_string();
    // The refused pods: one finding for the ReplicaSet, the numbers, who placed them.
    let f = find("node-admission-rejected");
    assert_eq!(f["workloads"][0]["pods"], 2, "{f}");
    assert!(
        text(&f).contains(
            "It asked for 4000 cpu with 1500 already used of the node's 4000 (millicores)"
        ),
        "{f}"
    );
    assert!(
        text(&f).contains("absent: spec.nodeName was set without the scheduler"),
        "{f}"
    );
    // The gate and its owner, the queue.
    let f = find("scheduling-gated");
    assert!(text(&f).contains("kueue.x-k8s.io/admission: Kueue"), "{f}");
    assert!(
        text(&f).contains("kubectl describe localqueue user-queue -n team-a"),
        "{f}"
    );
    // The claim, its class and the nodes that publish the driver's devices.
    let f = find("resource-claim-unallocatable");
    assert!(text(&f).contains("gpu-node-1-kw115 (1 device(s))"), "{f}");
    assert!(text(&f).contains("not allocated"), "{f}");
    // The device plugin's node and resource.
    let f = find("device-allocation-failed");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("gpu-node-3-kw222 could not allocate nvidia.com/gpu"),
        "{f}"
    );
    // The Job's pods' own cause.
    let f = find("job-backoff-exceeded");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("they fail with app-exit-error"),
        "{f}"
    );
    // The budget's numbers and the drain it blocks.
    let f = find("disruption-budget-blocking");
    assert!(
        text(&f).contains("disruptionsAllowed=0 currentHealthy=1 desiredHealthy=1 expectedPods=1"),
        "{f}"
    );
    assert!(
        text(&f).contains("It demands every one of its 1 pod(s) (minAvailable=1)"),
        "{f}"
    );
    // Spot capacity, and the replacement.
    let f = find("node-shutdown");
    assert!(
        text(&f).contains("spot / preemptible capacity (cloud.google.com/gke-spot=true)"),
        "{f}"
    );
    assert!(
        text(&f).contains("has 1 running pod(s) now: it was replaced"),
        "{f}"
    );
    // A sidecar's crash is the sidecar's.
    let f = find("app-exit-error");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .starts_with("Sidecar container \"log-agent\" exits with code 1"),
        "{f}"
    );
    assert!(
        text(&f).contains("status.initContainerStatuses[log-agent]"),
        "{f}"
    );
}
