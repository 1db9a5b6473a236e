//! Helpers shared by the CLI test files.

use serde_json::Value;

/// A finding's objects as `Kind namespace/name`, in the finding's order.
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
