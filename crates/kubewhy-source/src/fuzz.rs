//! Entry points for the fuzz targets (`fuzz/`, cargo-fuzz): each feeds arbitrary input to one
//! parser of untrusted input the way kubewhy reads it, and checks what must always hold
//! (nothing panics, every warning names its file). Not an API: kubewhy itself never calls them.

use crate::{FileOut, Input, InputWarning};

fn positions_named(warnings: &[InputWarning], file: &str) {
    for w in warnings {
        assert_eq!(w.file, file, "{w:?}");
    }
}

/// A file of any bytes, through the whole loader (sniffing, JSON, YAML, pastes, log blocks).
pub fn load(bytes: &[u8]) {
    let l = crate::load(
        &[Input::Bytes {
            name: "f".into(),
            bytes: bytes.to_vec(),
        }],
        Some("2026-11-24T00:00:00Z".parse().expect("a timestamp")),
    );
    positions_named(&l.warnings, "f");
}

/// JSON documents and lists (one pass, and the careful path when that gives way).
pub fn json(text: &str) {
    let mut out = FileOut::named("f".into());
    crate::json::parse_stream("f", text, &mut out);
    positions_named(&out.warnings, "f");
}

/// YAML documents, within their limits.
pub fn yaml(text: &str) {
    let mut out = FileOut::named("f".into());
    crate::yaml::parse("f", text, &mut out);
    positions_named(&out.warnings, "f");
}

/// Pasted text: `kubectl describe`, `get` tables, event lines and messages, stanzas.
pub fn paste(text: &str) {
    let mut out = FileOut::named("f".into());
    let anchor = "2026-11-24T00:00:00Z".parse().expect("a timestamp");
    crate::paste::parse("f", text, anchor, &mut out);
    positions_named(&out.warnings, "f");
}

/// A large list's blocks (`stream.rs`), cut from any bytes with small blocks: whatever the
/// cutter hands out either decodes or gives way; it never panics or loops.
pub fn stream(bytes: &[u8]) {
    crate::stream::fuzz_blocks(bytes);
}

/// Node logs: journal, klog, logrus, dmesg, runtime tables, node-collect sections.
pub fn node_log(bytes: &[u8]) {
    let mut bundle = kubewhy_model::node::NodeBundle::default();
    let mut warnings = Vec::new();
    crate::parse_node_log("f", bytes, None, &mut bundle, &mut warnings);
    positions_named(&warnings, "f");
}

/// API server audit logs.
pub fn audit(bytes: &[u8]) {
    let (mut out, mut warnings) = (Vec::new(), Vec::new());
    crate::parse_audit("f", bytes, &mut out, &mut warnings);
    positions_named(&warnings, "f");
}

/// kube-controller-manager logs.
pub fn controller_log(bytes: &[u8]) {
    let (mut out, mut warnings) = (Vec::new(), Vec::new());
    crate::parse_controller_log("f", bytes, None, &mut out, &mut warnings);
    positions_named(&warnings, "f");
}

/// An archive of any bytes (tar, tar.gz, zip, gz: told by content), read as a support bundle:
/// every entry refused, skipped or read, nothing panics.
pub fn archive(bytes: &[u8]) {
    let path = std::env::temp_dir().join(format!("kubewhy-fuzz-archive-{}", std::process::id()));
    if std::fs::write(&path, bytes).is_err() {
        return;
    }
    let _ = crate::load(
        &[Input::Path(path.clone())],
        Some("2026-11-24T00:00:00Z".parse().expect("a timestamp")),
    );
    let _ = std::fs::remove_file(&path);
}
