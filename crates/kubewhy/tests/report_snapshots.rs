//! UI tests: the exact text and Markdown reports for a fixed input. After an intended change,
//! review and accept with `cargo insta review` (or `INSTA_UPDATE=always cargo test`).

use assert_cmd::Command;
use std::path::PathBuf;

fn report(format: &str) -> String {
    // Run from the repository root with a relative path: reports quote input paths, and the
    // snapshot must not depend on where the checkout lives.
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .current_dir(root)
        .env("NO_COLOR", "1")
        .args([
            "scan",
            "-o",
            format,
            "--from",
            "tests/fixtures/corrupt-among-good",
        ])
        .output()
        .unwrap();
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn text_report() {
    insta::assert_snapshot!(report("text"));
}

#[test]
fn markdown_report() {
    insta::assert_snapshot!(report("markdown"));
}

/// The versioned JSON document (`schemaVersion` 1, docs/json-schema.md): what its consumers
/// parse. A change here is a change of the contract: bump the version or keep it compatible.
#[test]
fn json_report() {
    let json = report("json");
    let v: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(v["schemaVersion"], 1);
    insta::assert_snapshot!(json);
}
