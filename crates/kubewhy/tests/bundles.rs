//! Support bundles collected from the real cluster by the e2e suite (`bundle_phase`: a
//! troubleshoot.sh bundle as `.tar.gz`, a must-gather as `.zip`, every scenario inside), read
//! straight from the archive on every `cargo test`: each scenario's cause on its objects, the
//! time of the diagnosis the bundle's own collection time, one summary line, no warning, and a
//! crashing container's log line quoted from the bundle. And what a user gets from a directory
//! the same bundle was extracted to: the same answer.

use assert_cmd::Command;
use serde_json::Value;
use std::path::{Path, PathBuf};

fn fixtures() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/bundles")
}

/// `kubewhy scan --from PATH -A -o json`: the report and stderr.
fn scan(path: &Path) -> (Value, String) {
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .args(["scan", "-A", "-o", "json", "--from"])
        .arg(path)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let v = serde_json::from_slice(&out.stdout)
        .unwrap_or_else(|e| panic!("no JSON from {}: {e}\n{stderr}", path.display()));
    (v, stderr)
}

/// The causes of the findings about namespace `ns` (the kubelet's own throttling, which its log
/// in the bundle shows on the node, aside) and their objects' names.
fn causes_in(v: &Value, ns: &str) -> Vec<(String, Vec<String>)> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| f["cause"] != "kubelet-status-throttled")
        .filter(|f| {
            f["objects"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o["namespace"] == ns || (o["kind"] == "Namespace" && o["name"] == ns))
        })
        .map(|f| {
            let names = f["objects"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|o| o["name"].as_str().map(str::to_string))
                .collect();
            (f["cause"].as_str().unwrap().to_string(), names)
        })
        .collect()
}

/// Every scenario of `expected` in `v`: its one finding, its cause, its objects.
fn check(archive: &str, v: &Value, expected: &Value) -> Vec<String> {
    let scenarios = expected["scenarios"].as_array().unwrap();
    assert!(
        scenarios.len() >= 20,
        "{archive}: {} scenarios",
        scenarios.len()
    );
    let mut failures = Vec::new();
    for s in scenarios {
        let ns = s["namespace"].as_str().unwrap();
        let want = s["cause"].as_str().unwrap();
        let objects: Vec<String> = s["objects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o.as_str().unwrap().to_string())
            .collect();
        let got = causes_in(v, ns);
        let ok = matches!(got.as_slice(), [(c, names)] if c == want && (objects.is_empty() || *names == objects));
        if !ok {
            failures.push(format!(
                "{archive} {ns}: expected {want} on {objects:?}, got {got:?}"
            ));
        }
    }
    failures
}

#[test]
fn every_scenario_is_diagnosed_straight_from_each_archive() {
    let mut failures = Vec::new();
    for (archive, layout, log_source) in [
        (
            "support-bundle.tar.gz",
            "troubleshoot.sh bundle",
            "/cluster-resources/pods/logs/e2e-refused/dependent/main-previous.log",
        ),
        (
            "must-gather.zip",
            "must-gather",
            "/namespaces/e2e-refused/pods/dependent/main/main/logs/",
        ),
    ] {
        let path = fixtures().join(archive);
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(fixtures().join(format!("{archive}.expected.json"))).unwrap(),
        )
        .unwrap();
        let (v, stderr) = scan(&path);
        failures.extend(check(archive, &v, &expected));
        // The diagnosis is made for the moment the bundle was collected.
        assert_eq!(v["snapshot"]["now"], expected["now"], "{archive}");
        let summary: Vec<&str> = stderr.lines().filter(|l| l.contains(layout)).collect();
        assert_eq!(summary.len(), 1, "{archive}: {stderr}");
        assert!(summary[0].contains("Kubernetes v1.20.2"), "{}", summary[0]);
        assert!(summary[0].contains("not needed"), "{}", summary[0]);
        assert!(!stderr.contains("warning"), "{archive}: {stderr}");
        assert!(
            v["inputProblems"].as_array().unwrap().is_empty(),
            "{archive}"
        );
        assert!(
            !v.to_string().contains("(unknown)"),
            "{archive}: an invented object"
        );
        // The refused dependency's own words, from its log in the bundle.
        let quoted = v["findings"].as_array().unwrap().iter().any(|f| {
            f["cause"] == "dependency-unreachable"
                && f["evidence"].as_array().unwrap().iter().any(|e| {
                    e["quote"].as_str().is_some_and(|q| {
                        q.contains(
                            "nc: can't connect to remote host (127.0.0.1): Connection refused",
                        )
                    }) && e["source"].as_str().is_some_and(|s| s.contains(log_source))
                })
        });
        assert!(
            quoted,
            "{archive}: the log line is not quoted from the bundle"
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn an_extracted_bundle_gives_the_same_answer_as_its_archive() {
    for (archive, layout, extract) in [
        (
            "support-bundle.tar.gz",
            "troubleshoot.sh bundle",
            ["tar", "xzf", "", "-C"],
        ),
        // must-gather's `current.log` sorts before `previous.log` in a directory: the previous
        // run's is still the one quoted.
        (
            "must-gather.zip",
            "must-gather",
            ["python3", "-m", "zipfile", "-e"],
        ),
    ] {
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().to_path_buf();
        let path = fixtures().join(archive);
        let mut cmd = std::process::Command::new(extract[0]);
        for a in &extract[1..] {
            if a.is_empty() {
                cmd.arg(&path);
            } else {
                cmd.arg(a);
            }
        }
        if extract[0] == "python3" {
            cmd.arg(&path);
        }
        assert!(cmd.arg(&dir).status().unwrap().success(), "{archive}");
        let top = std::fs::read_dir(&dir)
            .unwrap()
            .next()
            .unwrap()
            .unwrap()
            .path();
        let (from_dir, stderr) = scan(&top);
        let (from_archive, _) = scan(&path);
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(fixtures().join(format!("{archive}.expected.json"))).unwrap(),
        )
        .unwrap();
        let failures = check(&format!("{archive} extracted"), &from_dir, &expected);
        assert!(failures.is_empty(), "{}", failures.join("\n"));
        assert!(stderr.contains(layout), "{stderr}");
        assert!(!stderr.contains("warning"), "{stderr}");
        // The same findings, each with the same quotes (the sources name the file either way).
        let said = |v: &Value| -> Vec<String> {
            let mut c: Vec<String> = v["findings"]
                .as_array()
                .unwrap()
                .iter()
                .map(|f| {
                    // In the order read: an archive's entries and a directory's sorted names
                    // differ.
                    let mut objects: Vec<String> = f["objects"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .map(|o| o.to_string())
                        .collect();
                    objects.sort();
                    let mut quotes: Vec<&str> = f["evidence"]
                        .as_array()
                        .unwrap()
                        .iter()
                        .filter_map(|e| e["quote"].as_str())
                        .collect();
                    quotes.sort();
                    format!("{} {objects:?} {quotes:?}", f["cause"])
                })
                .collect();
            c.sort();
            c
        };
        assert_eq!(said(&from_dir), said(&from_archive), "{archive}");
    }
}

/// The two real bundles as the other codecs carry them (must-gathers and sosreports travel as
/// `.tar.xz`, many bundles as `.tar.zst`): the same findings as the original archive, the codec
/// named in the summary line, no warning — also under a name that says nothing of the codec.
#[test]
fn every_codec_gives_the_same_answer_as_the_original_archive() {
    use std::io::{Read, Write};
    let scratch = tempfile::tempdir().unwrap();
    // The must-gather is a zip: made a tar first (python's zipfile and tarfile, as tests do).
    let mg_tar = scratch.path().join("must-gather.tar");
    let made = std::process::Command::new("python3")
        .args([
            "-c",
            "import sys, tarfile, zipfile, io\nz = zipfile.ZipFile(sys.argv[1])\nwith tarfile.open(sys.argv[2], 'w', format=tarfile.USTAR_FORMAT) as t:\n    for i in z.infolist():\n        if i.is_dir(): continue\n        d = z.read(i)\n        ti = tarfile.TarInfo(i.filename)\n        ti.size = len(d)\n        ti.mtime = 1764134554\n        t.addfile(ti, io.BytesIO(d))",
        ])
        .arg(fixtures().join("must-gather.zip"))
        .arg(&mg_tar)
        .status()
        .unwrap();
    assert!(made.success());
    let mut sb_tar = Vec::new();
    flate2::read::MultiGzDecoder::new(
        std::fs::File::open(fixtures().join("support-bundle.tar.gz")).unwrap(),
    )
    .read_to_end(&mut sb_tar)
    .unwrap();
    type Compress = fn(&[u8]) -> Vec<u8>;
    let compressors: [(&str, Compress); 3] = [
        ("xz", |b| {
            let mut e = liblzma::write::XzEncoder::new(Vec::new(), 6);
            e.write_all(b).unwrap();
            e.finish().unwrap()
        }),
        ("zst", |b| zstd::stream::encode_all(b, 3).unwrap()),
        ("bz2", |b| {
            let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::default());
            e.write_all(b).unwrap();
            e.finish().unwrap()
        }),
    ];
    let mut failures = Vec::new();
    for (original, layout, tar) in [
        ("support-bundle.tar.gz", "troubleshoot.sh bundle", sb_tar),
        (
            "must-gather.zip",
            "must-gather",
            std::fs::read(&mg_tar).unwrap(),
        ),
    ] {
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(fixtures().join(format!("{original}.expected.json"))).unwrap(),
        )
        .unwrap();
        let stem = original.split('.').next().unwrap();
        for (suffix, compress) in compressors {
            let packed = compress(&tar);
            for name in [
                format!("{stem}.tar.{suffix}"),
                format!("{stem}-{suffix}.bin"),
            ] {
                let path = scratch.path().join(&name);
                std::fs::write(&path, &packed).unwrap();
                let (v, stderr) = scan(&path);
                failures.extend(check(&name, &v, &expected));
                let summary: Vec<&str> = stderr.lines().filter(|l| l.contains(layout)).collect();
                assert_eq!(summary.len(), 1, "{name}: {stderr}");
                assert!(
                    summary[0].contains(&format!("(tar.{suffix} archive)")),
                    "{name}: {}",
                    summary[0]
                );
                assert!(!stderr.contains("warning"), "{name}: {stderr}");
                assert_eq!(v["snapshot"]["now"], expected["now"], "{name}");
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// A bundle shaped like the k3s troubleshoot.sh bundle of issue 28 (rebuilt from what the issue
/// quotes of it, not the original): two pods that exit because `dial tcp 10.43.0.1:443: i/o
/// timeout`, six containers of four pods that all ended with exit code 255 and reason Unknown at
/// one moment on one k3d node, and the files a k3s bundle holds beside (CRDs without `kind`,
/// RBAC rules, API groups, an application log). One finding for the node's Service routing
/// naming both pods with their log lines, one node-restarted naming the node — no signal 127,
/// no invented pod, no warning.
#[test]
fn a_k3s_bundle_names_the_shared_causes() {
    let (v, stderr) = scan(&fixtures().join("k3s-like.tar.gz"));
    assert!(
        stderr.starts_with("kubewhy: troubleshoot.sh bundle ")
            && stderr.contains("collected 2022-08-05T14:32:11Z, Kubernetes v1.24.4+k3s1"),
        "{stderr}"
    );
    assert!(!stderr.contains("warning"), "{stderr}");
    assert_eq!(v["snapshot"]["now"], "2022-08-05T14:32:11Z");
    let findings = v["findings"].as_array().unwrap();
    let summary: Vec<(String, Vec<String>)> = findings
        .iter()
        .map(|f| {
            (
                f["cause"].as_str().unwrap().to_string(),
                f["objects"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .map(|o| o["name"].as_str().unwrap().to_string())
                    .collect(),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            (
                "pod-network-broken".to_string(),
                vec![
                    "local-path-provisioner-6c79684f77-8tlzq".to_string(),
                    "metrics-server-7cd5fcb6b7-hz6gd".to_string()
                ]
            ),
            (
                "node-restarted".to_string(),
                vec![
                    "k3d-k3s-default-server-0".to_string(),
                    "coredns-b96499967-2kxqv".to_string(),
                    "traefik-7cd4fcff68-mhx2l".to_string(),
                    "svclb-traefik-5cdrx".to_string(),
                    "helm-install-traefik-crd-abc12".to_string()
                ]
            )
        ]
    );
    let quotes: Vec<&str> = findings[0]["evidence"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| {
            e["source"]
                .as_str()
                .is_some_and(|s| s.contains("-previous.log"))
        })
        .filter_map(|e| e["quote"].as_str())
        .collect();
    assert!(
        quotes.iter().any(|q| q.contains("failed to get Kubernetes server version: Get \\\"https://10.43.0.1:443/version?timeout=32s\\\": dial tcp 10.43.0.1:443: i/o timeout"))
            && quotes.iter().any(|q| q.contains("panic: Get \"https://10.43.0.1:443/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication\": dial tcp 10.43.0.1:443: i/o timeout")),
        "{quotes:#?}"
    );
    let text = v.to_string();
    assert!(
        !text.contains("signal 127") && !text.contains("killed-by-signal"),
        "{text}"
    );
    assert!(!text.contains("(unknown)"), "an invented object");
}

/// A `kubectl cluster-info dump` directory archived (with its top directory, or flat) is named as
/// one in the summary line, and its files are read, their problems said, as any dump's.
#[test]
fn an_archived_cluster_info_dump_is_named_and_read_as_a_dump() {
    let scratch = tempfile::tempdir().unwrap();
    let dump =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/corrupt-among-good");
    for (archive, args) in [("dump.tar.gz", vec!["czf"]), ("flat.tar.xz", vec!["cJf"])] {
        let path = scratch.path().join(archive);
        let mut tar = std::process::Command::new("tar");
        tar.args(&args).arg(&path);
        if archive.starts_with("flat") {
            tar.arg("-C").arg(&dump).arg(".");
        } else {
            tar.arg("-C")
                .arg(dump.parent().unwrap())
                .arg("corrupt-among-good");
        }
        assert!(tar.status().unwrap().success());
        let (v, stderr) = scan(&path);
        assert!(
            stderr.starts_with(&format!(
                "kubewhy: kubectl cluster-info dump {}",
                path.display()
            )),
            "{stderr}"
        );
        assert!(stderr.contains("3 file(s) read"), "{stderr}");
        assert!(
            stderr.contains("shop/events.json:8:85: EOF while parsing a string"),
            "a dump's broken file is said, not quieted: {stderr}"
        );
        assert_eq!(v["findings"][0]["cause"], "image-not-found", "{v}");
    }
}

/// A directory that holds an archive beside other files (`--from ~/Downloads/`) reads the archive
/// as an archive, and the rest as any directory's files.
#[test]
fn an_archive_inside_a_plain_directory_is_read_as_an_archive() {
    let scratch = tempfile::tempdir().unwrap();
    std::fs::copy(
        fixtures().join("support-bundle.tar.gz"),
        scratch.path().join("support-bundle.tar.gz"),
    )
    .unwrap();
    let (alone, _) = scan(&fixtures().join("support-bundle.tar.gz"));
    let (v, stderr) = scan(scratch.path());
    assert!(
        stderr.contains("kubewhy: troubleshoot.sh bundle ") && stderr.contains("(tar.gz archive)"),
        "{stderr}"
    );
    assert!(!stderr.contains("decompress it first"), "{stderr}");
    let causes = |v: &Value| {
        v["findings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|f| f["cause"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(causes(&v), causes(&alone));
}
