//! UI tests: the exact text and Markdown reports for a fixed input. After an intended change,
//! review and accept with `cargo insta review` (or `INSTA_UPDATE=always cargo test`).

use assert_cmd::Command;
use std::path::PathBuf;

fn report(format: &str) -> String {
    let dir =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/corrupt-among-good");
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .env("NO_COLOR", "1")
        .args(["scan", "-o", format, "--from"])
        .arg(dir)
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
