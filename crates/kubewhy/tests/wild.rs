//! The corpus of real pastes (tests/fixtures/wild/): what people copied into public issue threads,
//! each with the cause the thread established. Every case goes through `kubewhy scan --from` as
//! a user would run it, and:
//!
//! - no finding may claim a cause other than the thread's at high confidence (unless the case
//!   lists it under `also`: a second real problem the paste shows);
//! - no object may be invented: every object kubewhy names appears in the paste;
//! - a paste that shows a failure is never answered with nothing;
//! - no case whose first finding gave the thread's cause in `baseline.json` may lose it.
//!
//! It prints, per state, how many cases give the cause in first place and among the findings,
//! for the cases developed against and for the held-out third (every case whose number is a
//! multiple of three, fixed before the first case was collected) separately.
//! `KUBEWHY_BLESS=1` rewrites the baseline after a deliberate change, to be reviewed in the diff;
//! `KUBEWHY_WILD_PART=dev` runs only the cases developed against.

use assert_cmd::Command;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

const NOW: &str = "2026-11-25T00:00:00Z";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/wild")
}

/// What kubewhy said about one case.
struct Outcome {
    /// (cause, confidence) of each finding, in the report's order.
    findings: Vec<(String, String)>,
    unexplained: usize,
    /// Every object a finding or the not-explained list names.
    objects: Vec<String>,
}

fn run(input: &Path) -> Outcome {
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .args(["scan", "-o", "json", "--now", NOW, "--from"])
        .arg(input)
        .output()
        .unwrap();
    assert!(
        out.status.code().is_some_and(|c| c <= 1),
        "{}: kubewhy failed: {}",
        input.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value =
        serde_json::from_slice(&out.stdout).unwrap_or_else(|e| panic!("{}: {e}", input.display()));
    let mut objects = Vec::new();
    let findings = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            for o in f["objects"].as_array().unwrap() {
                objects.push(o["name"].as_str().unwrap_or("").to_string());
            }
            (
                f["cause"].as_str().unwrap().to_string(),
                f["confidence"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let unexplained = v["unexplained"].as_array().unwrap();
    for u in unexplained {
        objects.push(u["object"]["name"].as_str().unwrap_or("").to_string());
    }
    Outcome {
        findings,
        unexplained: unexplained.len(),
        objects,
    }
}

/// Every case through the binary, one process per case on every core (the corpus is the
/// suite's longest test), the answers in the cases' order.
fn run_all(dirs: &[PathBuf]) -> Vec<Outcome> {
    let next = AtomicUsize::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    let mut outcomes: Vec<Option<Outcome>> = (0..dirs.len()).map(|_| None).collect();
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(dir) = dirs.get(i) else { break mine };
                        mine.push((i, run(&dir.join("input.txt"))));
                    }
                })
            })
            .collect();
        for h in handles {
            for (i, o) in h
                .join()
                .expect("a case's run panicked (its message is above)")
            {
                outcomes[i] = Some(o);
            }
        }
    });
    outcomes
        .into_iter()
        .map(|o| o.expect("every case ran"))
        .collect()
}

/// Names kubewhy gives what a paste does not name.
fn placeholder(name: &str) -> bool {
    name.is_empty() || name.starts_with('(')
}

/// A name Kubernetes accepts for a pod, node or namespace (lowercase DNS labels and dots): a
/// describe key such as `Tolerations:` read as a table row is not one.
fn object_name(name: &str) -> bool {
    let ok = |c: char| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '.';
    name.chars().all(ok)
        && name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphanumeric())
        && name
            .chars()
            .last()
            .is_some_and(|c| c.is_ascii_alphanumeric())
}

#[derive(Default)]
struct Tally {
    cases: usize,
    first: usize,
    recall: usize,
}

#[test]
fn real_pastes_give_the_cause_their_thread_established() {
    let only_dev = std::env::var("KUBEWHY_WILD_PART").is_ok_and(|p| p == "dev");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("input.txt").is_file())
        .collect();
    dirs.sort();
    assert!(dirs.len() >= 150, "cases in the corpus: {}", dirs.len());
    if only_dev {
        dirs.retain(|d| {
            let e: Value =
                serde_json::from_str(&std::fs::read_to_string(d.join("expected.json")).unwrap())
                    .unwrap();
            !(e["held_out"].as_bool().unwrap() && e["opened"].is_null())
        });
    }
    let mut tallies: BTreeMap<(bool, String), Tally> = BTreeMap::new();
    let mut got: BTreeMap<String, Value> = BTreeMap::new();
    let mut failures = Vec::new();
    let mut silent: Vec<String> = Vec::new();
    for (dir, o) in dirs.iter().zip(run_all(&dirs)) {
        let case = dir.file_name().unwrap().to_string_lossy().to_string();
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        // A held-out case read after its blind score (`opened`) counts as developed against.
        let held_out = expected["held_out"].as_bool().unwrap() && expected["opened"].is_null();
        if held_out && only_dev {
            continue;
        }
        let cause = expected["cause"].as_str().unwrap();
        let also: Vec<&str> = expected["also"]
            .as_array()
            .map(|a| a.iter().filter_map(Value::as_str).collect())
            .unwrap_or_default();
        let input = dir.join("input.txt");
        let text = std::fs::read_to_string(&input).unwrap();
        let first = o.findings.first();
        let t = tallies
            .entry((held_out, expected["state"].as_str().unwrap().to_string()))
            .or_default();
        t.cases += 1;
        if first.is_some_and(|(c, _)| c == cause) {
            t.first += 1;
        }
        if o.findings.iter().any(|(c, _)| c == cause) {
            t.recall += 1;
        }
        for (c, conf) in &o.findings {
            if c != cause && !also.contains(&c.as_str()) && conf == "high" {
                failures.push(format!("{case}: says {c} at high confidence, not {cause}"));
            }
        }
        for name in &o.objects {
            if !placeholder(name) && (!text.contains(name.as_str()) || !object_name(name)) {
                failures.push(format!("{case}: names {name:?}, which the paste does not"));
            }
        }
        // A paste cut before it shows anything failing (an excerpt that keeps only healthy
        // lines) says so in its `shows_no_failure`, with why.
        // A failure in words no catalogue holds yet is said in the case's `silent`, with why,
        // and counted below; the marker goes as soon as kubewhy says something of it.
        let nothing = o.findings.is_empty() && o.unexplained == 0;
        match (nothing, expected["silent"].is_string()) {
            (true, false) if expected["shows_no_failure"].is_null() => failures.push(format!(
                "{case}: nothing found, though the paste shows a failure"
            )),
            (true, true) => silent.push(case.clone()),
            (false, true) => failures.push(format!(
                "{case}: marked `silent`, but kubewhy now finds something: remove the marker"
            )),
            _ => {}
        }
        got.insert(
            case,
            match first {
                Some((c, conf)) => json!(format!("{c} ({conf})")),
                None if o.unexplained > 0 => json!("cannot tell"),
                None => json!("nothing"),
            },
        );
    }
    eprintln!(
        "{} case(s) where kubewhy says nothing yet (`silent`, each with why): {}",
        silent.len(),
        silent.join(", ")
    );
    for held_out in [false, true] {
        let rows: Vec<_> = tallies
            .iter()
            .filter(|((h, _), _)| *h == held_out)
            .collect();
        if rows.is_empty() {
            continue;
        }
        println!(
            "\n{} cases        n  first place  found at all",
            if held_out { "held-out" } else { "developed" }
        );
        let mut total = Tally::default();
        for ((_, state), t) in rows {
            println!(
                "  {state:<14} {:>3}  {:>4} {:>4.0}%  {:>4} {:>4.0}%",
                t.cases,
                t.first,
                100.0 * t.first as f64 / t.cases as f64,
                t.recall,
                100.0 * t.recall as f64 / t.cases as f64
            );
            total.cases += t.cases;
            total.first += t.first;
            total.recall += t.recall;
        }
        println!(
            "  {:<14} {:>3}  {:>4} {:>4.0}%  {:>4} {:>4.0}%",
            "all",
            total.cases,
            total.first,
            100.0 * total.first as f64 / total.cases as f64,
            total.recall,
            100.0 * total.recall as f64 / total.cases as f64
        );
    }
    let file = root().join("baseline.json");
    if std::env::var("KUBEWHY_BLESS").is_ok() && !only_dev {
        let text = serde_json::to_string_pretty(&json!(got)).unwrap() + "\n";
        std::fs::write(&file, text).unwrap();
    }
    let baseline: Value = std::fs::read_to_string(&file)
        .ok()
        .and_then(|t| serde_json::from_str(&t).ok())
        .unwrap_or(json!({}));
    for dir in &dirs {
        let case = dir.file_name().unwrap().to_string_lossy().to_string();
        let Some(now) = got.get(&case) else { continue };
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        let cause = expected["cause"].as_str().unwrap();
        let hit = |v: &Value| {
            v.as_str()
                .is_some_and(|s| s.starts_with(&format!("{cause} (")))
        };
        if hit(&baseline[&case]) && !hit(now) {
            failures.push(format!(
                "{case}: gave {cause} in first place before ({}), now {now}",
                baseline[&case]
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
