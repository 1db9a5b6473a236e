//! Every input the fuzzers keep (`fuzz/corpus/TARGET/`) and every crash they found
//! (`fuzz/regressions/TARGET/`, each once a failure, now fixed) goes through its target's entry
//! point on every `cargo test`: a fixed crash cannot come back unnoticed, and the corpora are
//! exercised without a fuzzer.

use std::path::Path;

fn inputs(dir: &str, target: &str) -> Vec<(String, Vec<u8>)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz")
        .join(dir)
        .join(target);
    let Ok(entries) = std::fs::read_dir(&dir) else {
        return Vec::new();
    };
    let mut out: Vec<(String, Vec<u8>)> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_file())
        .map(|e| {
            (
                e.file_name().to_string_lossy().to_string(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    out.sort();
    out
}

/// Runs `f` on every kept input of `target`; returns how many there were.
fn replay(target: &str, f: impl Fn(&[u8])) -> usize {
    let mut n = 0;
    for dir in ["corpus", "regressions"] {
        for (name, bytes) in inputs(dir, target) {
            let run = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&bytes)));
            assert!(run.is_ok(), "fuzz/{dir}/{target}/{name} panics again");
            n += 1;
        }
    }
    n
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

#[test]
fn every_kept_fuzz_input_passes_its_target() {
    use kubewhy_source::fuzz;
    let counts = [
        replay("load", fuzz::load),
        replay("json", |b| fuzz::json(&text(b))),
        replay("yaml", |b| fuzz::yaml(&text(b))),
        replay("paste", |b| fuzz::paste(&text(b))),
        replay("stream", fuzz::stream),
        replay("node_log", fuzz::node_log),
        replay("audit", fuzz::audit),
        replay("controller_log", fuzz::controller_log),
        replay("archive", fuzz::archive),
        replay("quantity", |b| {
            if let Some(v) = kubewhy_model::quantity::parse(&text(b)) {
                assert!(v.is_finite());
            }
        }),
        replay("selector", |b| {
            if let Ok(s) = kubewhy_model::selector::Selector::parse(&text(b)) {
                let labels: kubewhy_model::objects::Labels = [("app", "web")].into();
                let _ = s.matches(&labels);
            }
        }),
    ];
    // Each target has its corpus (seeded from real inputs, grown by the fuzzer).
    assert!(counts.iter().all(|n| *n > 0), "{counts:?}");
}
