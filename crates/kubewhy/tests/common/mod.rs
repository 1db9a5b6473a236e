//! Helpers shared by the CLI test files.

use serde_json::Value;

/// A finding's objects as `Kind namespace/name`, in the finding's order.
#[allow(dead_code)] // not every test file reads findings
pub fn object_names(f: &Value) -> Vec<String> {
    f["objects"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| {
            format!(
                "{} {}/{}",
                o["kind"].as_str().unwrap(),
                o["namespace"].as_str().unwrap_or(""),
                o["name"].as_str().unwrap()
            )
        })
        .collect()
}

/// Every example kubewhy's documentation gives, as written and without the leading `kubewhy `:
/// from the `Examples:` of `kubewhy [SUB] --help` for each of `subcommands` (`""`: the top
/// level; a description follows two spaces), and from the README's `sh` blocks (a comment
/// follows `#`). Each with where it was found.
#[allow(dead_code)] // not every test file runs examples
pub fn examples(subcommands: &[&str]) -> Vec<(String, String)> {
    let mut commands = Vec::new();
    for sub in subcommands {
        let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_kubewhy"));
        if !sub.is_empty() {
            cmd.arg(sub);
        }
        let help = String::from_utf8(cmd.arg("--help").output().unwrap().stdout).unwrap();
        for line in help.split("Examples:").nth(1).unwrap_or("").lines() {
            if let Some(rest) = line.trim().strip_prefix("kubewhy ") {
                let c = rest.split("  ").next().unwrap().trim().to_string();
                commands.push((format!("kubewhy {sub} --help"), c));
            }
        }
    }
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../../README.md")).unwrap();
    let mut in_sh = false;
    for line in readme.lines() {
        if line.starts_with("```") {
            in_sh = line == "```sh";
            continue;
        }
        if let (true, Some(rest)) = (in_sh, line.trim().strip_prefix("kubewhy ")) {
            let c = rest.split(" #").next().unwrap().trim().to_string();
            commands.push(("README.md".into(), c));
        }
    }
    commands
}
