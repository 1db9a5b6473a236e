//! Replays every scenario captured from the real cluster (`scripts/capture.sh`, which runs the
//! e2e suite with KUBEWHY_E2E_CAPTURE): tests/fixtures/real/<scenario>/dump.json must give the
//! cause, objects and evidence recorded in expected.json, offline, on every `cargo test`.

use assert_cmd::Command;
use serde_json::Value;
use std::path::PathBuf;

#[test]
fn every_captured_scenario_replays() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expected.json").exists())
        .collect();
    dirs.sort();
    // A test that finds nothing to replay must not pass.
    assert!(
        dirs.len() >= 25,
        "captured scenarios under {}: {}",
        root.display(),
        dirs.len()
    );
    let mut failures = Vec::new();
    for dir in &dirs {
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        let ns = expected["namespace"].as_str().unwrap();
        let mut cmd = Command::cargo_bin("kubewhy").unwrap();
        cmd.args(["scan", "-o", "json", "--from"])
            .arg(dir.join("dump.json"));
        // The moment of the capture: dumps do not record it.
        if let Some(now) = expected["now"].as_str() {
            cmd.args(["--now", now]);
        }
        let out = cmd.output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        if !v["inputProblems"].as_array().unwrap().is_empty() {
            failures.push(format!(
                "{}: input problems {}",
                dir.display(),
                v["inputProblems"]
            ));
        }
        let found: Vec<&Value> =
            v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|f| {
                    f["objects"].as_array().unwrap().iter().any(|o| {
                        o["namespace"] == ns || (o["kind"] == "Namespace" && o["name"] == ns)
                    })
                })
                .collect();
        let said: Vec<String> = found.iter().map(|f| f["cause"].to_string()).collect();
        let ok = found.len() == 1 && found[0]["cause"] == expected["cause"] && {
            let names: Vec<Value> = found[0]["objects"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["name"].clone())
                .collect();
            let want = expected["objects"].as_array().unwrap();
            // One text, or several that must all appear (older captures hold one).
            let evidence = found[0]["evidence"].to_string();
            let wanted: Vec<&str> = match &expected["evidence"] {
                Value::Array(a) => a.iter().filter_map(Value::as_str).collect(),
                v => v.as_str().into_iter().collect(),
            };
            (want.is_empty() || names == *want)
                && !wanted.is_empty()
                && wanted
                    .iter()
                    .all(|e| evidence.contains(&e.replace('"', "\\\"")))
        };
        if !ok {
            failures.push(format!(
                "{}: expected {} {} with {}; kubewhy said {said:?}",
                dir.display(),
                expected["cause"],
                expected["objects"],
                expected["evidence"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("replayed {} captured scenarios", dirs.len());
}

/// Pods the real cluster removed (tests/fixtures/real/<scenario>/expected-gone.json): `kubewhy
/// gone` on the capture taken after they went, with the API server's audit log or the
/// controller manager's lines beside it, offline, must give the recorded cause and evidence.
#[test]
fn every_captured_removal_replays_with_gone() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expected-gone.json").exists())
        .collect();
    dirs.sort();
    assert!(
        !dirs.is_empty(),
        "no captured removal under {}",
        root.display()
    );
    let mut failures = Vec::new();
    for dir in &dirs {
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected-gone.json")).unwrap())
                .unwrap();
        let mut cmd = Command::cargo_bin("kubewhy").unwrap();
        cmd.args([
            "gone",
            expected["gone"].as_str().unwrap(),
            "-o",
            "json",
            "--from",
        ])
        .arg(dir.join("dump.json"));
        for (file, flag) in [
            ("audit.log", "--audit-log"),
            ("controller.log", "--controller-logs"),
        ] {
            if dir.join(file).exists() {
                cmd.arg(flag).arg(dir.join(file));
            }
        }
        let out = cmd.output().unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        let findings = v["findings"].as_array().unwrap();
        let evidence = findings
            .first()
            .map(|f| f["evidence"].to_string())
            .unwrap_or_default();
        let ok = findings.len() == 1
            && findings[0]["cause"] == expected["cause"]
            && expected["evidence"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(Value::as_str)
                .all(|e| evidence.contains(&e.replace('"', "\\\"")));
        if !ok {
            failures.push(format!(
                "{}: expected {} with {}; kubewhy said {}",
                dir.display(),
                expected["cause"],
                expected["evidence"],
                v["findings"]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
