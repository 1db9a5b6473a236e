use super::*;
use kubewhy_model::{Cause, EvidenceKind, ObjectKey, RiskLevel};

fn sample() -> (Vec<Finding>, Vec<Unexplained>, Vec<InputWarning>) {
    let pod = ObjectKey::new("Pod", "shop", "web-\u{1b}[31m1", "u1");
    let f = Finding::new(
        Cause::OomKilled,
        Severity::Error,
        "Container \"app\" is killed",
    )
    .object(pod.clone())
    .evidence(
        EvidenceKind::Log,
        Some(&pod),
        "last log lines",
        "ok\n\u{1b}]0;owned\u{7}boom | `x`",
    )
    .explain("It ran out.")
    .step(
        "Raise it",
        Some("kubectl set resources".into()),
        RiskLevel::Low,
        "rolls",
    );
    let u = Unexplained {
        object: ObjectKey::new("Pod", "shop", "api", ""),
        status: "ImagePullBackOff".into(),
        next: "kubectl describe pod api -n shop".into(),
        reason: String::new(),
    };
    let w = InputWarning {
        file: "x.json".into(),
        line: Some(3),
        column: Some(4),
        message: "EOF".into(),
    };
    (vec![f], vec![u], vec![w])
}

fn report<'a>(f: &'a [Finding], u: &'a [Unexplained], w: &'a [InputWarning]) -> Report<'a> {
    Report {
        findings: f,
        unexplained: u,
        warnings: w,
        snapshot: SnapshotInfo {
            now: Some("2026-11-22T10:00:00Z".into()),
            files: 1,
            objects: 3,
            kinds: BTreeMap::new(),
            live: false,
        },
        summary_only: false,
    }
}

#[test]
fn no_format_lets_an_escape_sequence_through() {
    let (f, u, w) = sample();
    let r = report(&f, &u, &w);
    for fmt in [Format::Json, Format::Markdown] {
        let s = render(&r, fmt);
        assert!(
            !s.contains('\u{1b}') && !s.contains('\u{7}') && !s.contains("\\u001b"),
            "{fmt:?}: {s}"
        );
    }
    // Text carries our own styles only: strip those and nothing else may remain.
    let t = render(&r, Format::Text);
    let own = regex_free_strip(&t);
    assert!(!own.contains('\u{1b}') && !own.contains('\u{7}'), "{own}");
    assert!(own.contains("Pod shop/web-1"));
}

/// Removes the SGR sequences our styles produce (ESC [ digits ; m).
fn regex_free_strip(s: &str) -> String {
    let mut out = String::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\u{1b}' && chars.peek() == Some(&'[') {
            let mut seq = String::new();
            for d in chars.by_ref() {
                seq.push(d);
                if d == 'm' {
                    break;
                }
            }
            assert!(
                seq[1..seq.len() - 1]
                    .chars()
                    .all(|c| c.is_ascii_digit() || c == ';'),
                "foreign sequence {seq:?}"
            );
            continue;
        }
        out.push(c);
    }
    out
}

#[test]
fn json_has_the_documented_shape() {
    let (f, u, w) = sample();
    let v: serde_json::Value =
        serde_json::from_str(&render(&report(&f, &u, &w), Format::Json)).unwrap();
    assert_eq!(v["schemaVersion"], 1);
    assert_eq!(v["findings"][0]["cause"], "oom-killed");
    assert_eq!(v["findings"][0]["code"], "KW301");
    assert_eq!(v["findings"][0]["objects"][0]["name"], "web-1");
    assert_eq!(v["findings"][0]["evidence"][0]["kind"], "log");
    assert_eq!(v["findings"][0]["remediation"][0]["risk"], "low");
    assert_eq!(v["summary"]["byCause"]["oom-killed"], 1);
    assert_eq!(v["unexplained"][0]["status"], "ImagePullBackOff");
    assert_eq!(v["inputProblems"][0]["line"], 3);
}

#[test]
fn markdown_escapes_table_cells() {
    let (f, u, w) = sample();
    let md = render(&report(&f, &u, &w), Format::Markdown);
    assert!(md.contains("ok<br>boom \\| `x`"), "{md}");
    assert!(md.contains("### 1. ERROR `oom-killed` (KW301)"), "{md}");
}

#[test]
fn the_html_page_escapes_markup_and_escape_sequences() {
    let (mut f, u, w) = sample();
    f[0].summary = "<script>alert(1)</script> & \"x\"".into();
    let problems = vec!["pods: watch failing <b>".to_string()];
    let page = html_page(
        &report(&f, &u, &w),
        &PageInfo {
            refresh_seconds: 10,
            watch_problems: &problems,
            degraded: &[],
            synced: true,
            namespace: None,
            namespaces: &[],
        },
    );
    assert!(!page.contains("<script>"), "{page}");
    assert!(page.contains("watch failing &lt;b&gt;"), "{page}");
    assert!(
        page.contains("&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;"),
        "{page}"
    );
    assert!(
        !page.contains('\u{1b}') && !page.contains('\u{7}'),
        "{page}"
    );
    assert!(page.contains("<code>oom-killed</code> (KW301)"), "{page}");
    assert!(page.contains("<li><code>shop/web-1</code></li>"), "{page}");
    assert!(page.contains("<table id=\"overview\">"), "{page}");
    assert!(page.contains("<meta http-equiv=\"refresh\" content=\"10\">"));
    assert!(page.contains("<pre>kubectl set resources</pre>"));
    assert!(page.contains("ImagePullBackOff"));
    assert!(!page.contains("<script"), "no JavaScript");
}

/// A watch that cannot read pods is degraded on its page: a banner naming what it cannot read,
/// no "Still listing", and never "Nothing is stuck".
#[test]
fn a_degraded_page_says_so_and_never_nothing_is_stuck() {
    let (_, u, w) = sample();
    let degraded = vec![
        "pods: failing: HTTP 401 Unauthorized: the API server rejects the credentials".to_string(),
    ];
    let page = html_page(
        &report(&[], &u[..0], &w),
        &PageInfo {
            refresh_seconds: 10,
            watch_problems: &[],
            degraded: &degraded,
            synced: false,
            namespace: None,
            namespaces: &[],
        },
    );
    assert!(
        page.contains("<div class=\"problem\" id=\"degraded\"><strong>Degraded:</strong>"),
        "{page}"
    );
    assert!(
        page.contains(
            "<li>pods: failing: HTTP 401 Unauthorized: the API server rejects the credentials</li>"
        ),
        "{page}"
    );
    assert!(
        page.contains("Nothing found in what could be read."),
        "{page}"
    );
    assert!(
        !page.contains("Nothing is stuck") && !page.contains("Still listing"),
        "{page}"
    );
}

/// `n` findings of `per` pods each, the pods of finding `i` in Deployment `big-i` of namespace
/// `scale`: the shape of a cluster where thousands of replicas cannot be scheduled.
fn many(n: usize, per: usize) -> Vec<Finding> {
    (0..n)
        .map(|i| {
            let cause = if i % 2 == 0 {
                Cause::InsufficientResources
            } else {
                Cause::ImageNotFound
            };
            let mut f = Finding::new(cause, Severity::Error, format!("finding {i}"));
            for p in 0..per {
                f = f.object(ObjectKey::new("Pod", "scale", &format!("big-{i}-{p}"), ""));
            }
            f.workloads = vec![kubewhy_model::WorkloadRef {
                kind: "Deployment".into(),
                namespace: "scale".into(),
                name: format!("big-{i}").into(),
                pods: per,
            }];
            f
        })
        .collect()
}

#[test]
fn more_findings_than_a_screen_open_with_one_row_per_cause() {
    let f = many(6, 200);
    let r = Report {
        summary_only: false,
        ..report(&f, &[], &[])
    };
    let text = regex_free_strip(&render(&r, Format::Text));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[2].split_whitespace().collect::<Vec<_>>(),
        [
            "#",
            "SEVERITY",
            "CAUSE",
            "FINDINGS",
            "WORKLOADS",
            "PODS",
            "NAMESPACES",
            "SINCE"
        ]
    );
    assert_eq!(
        lines[3].split_whitespace().collect::<Vec<_>>(),
        ["1", "ERROR", "insufficient-resources", "3", "3", "600", "1"]
    );
    assert_eq!(
        lines[4].split_whitespace().collect::<Vec<_>>(),
        ["2", "ERROR", "image-not-found", "3", "3", "600", "1"]
    );
    assert!(
        text.contains("   workloads  Deployment scale/big-0 (200 pods)"),
        "{text}"
    );
    assert!(text.contains("… and 190 more"), "{text}");
    // --summary: the table and nothing of the details.
    let r = Report {
        summary_only: true,
        ..report(&f, &[], &[])
    };
    let summary = regex_free_strip(&render(&r, Format::Text));
    assert!(summary.contains("insufficient-resources"), "{summary}");
    assert!(!summary.contains("evidence"), "{summary}");
    assert!(summary.lines().count() < 10, "{summary}");
    let md = render(&r, Format::Markdown);
    assert!(
        md.contains("| 1 | ERROR | `insufficient-resources` | 3 | 3 | 600 | 1 |"),
        "{md}"
    );
    assert!(!md.contains("### 1."), "{md}");
    let v: serde_json::Value = serde_json::from_str(&render(&r, Format::Json)).unwrap();
    assert_eq!(v["summary"]["causes"][0]["cause"], "insufficient-resources");
    assert_eq!(v["summary"]["causes"][0]["pods"], 600);
    assert_eq!(v["summary"]["causes"][0]["workloads"], 3);
    assert!(v.get("findings").is_none(), "{v}");
    // A few findings read at once: no table.
    let few = many(3, 2);
    let text = render(&report(&few, &[], &[]), Format::Text);
    assert!(!text.contains("SEVERITY"), "{text}");
}

#[test]
fn configuration_is_a_snippet_not_a_command() {
    let (mut f, u, w) = sample();
    f[0] = f[0].clone().snippet_step(
        "Raise the limits in the kubelet's configuration file",
        "kubeAPIQPS: 50\nkubeAPIBurst: 100",
        RiskLevel::Low,
        "",
    );
    let text = regex_free_strip(&render(&report(&f, &u, &w), Format::Text));
    assert!(
        text.contains("        │ kubeAPIQPS: 50\n        │ kubeAPIBurst: 100\n"),
        "{text}"
    );
    assert!(!text.contains("$ kubeAPIQPS"), "{text}");
    let md = render(&report(&f, &u, &w), Format::Markdown);
    assert!(
        md.contains("```yaml\n   kubeAPIQPS: 50\n   kubeAPIBurst: 100\n   ```"),
        "{md}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&render(&report(&f, &u, &w), Format::Json)).unwrap();
    assert_eq!(
        v["findings"][0]["remediation"][1]["snippet"],
        "kubeAPIQPS: 50\nkubeAPIBurst: 100"
    );
    assert!(v["findings"][0]["remediation"][1].get("command").is_none());
}

#[test]
fn the_page_of_ten_thousand_pods_is_small_and_filters_by_namespace() {
    let mut f = many(50, 200);
    f.push(
        Finding::new(Cause::OomKilled, Severity::Error, "cache")
            .object(ObjectKey::new("Pod", "shop", "cache-0", "")),
    );
    let namespaces = namespaces_of(&f, &[]);
    assert_eq!(namespaces, ["scale", "shop"]);
    let info = |ns: Option<&'static str>| PageInfo {
        refresh_seconds: 10,
        watch_problems: &[],
        degraded: &[],
        synced: true,
        namespace: ns,
        namespaces: &namespaces,
    };
    let page = html_page(&report(&f, &[], &[]), &info(None));
    assert!(page.len() < 200_000, "{} bytes", page.len());
    assert!(page.contains("and 170 more"), "the pod lists are capped");
    let (shop, u) = in_namespace(&f, &[], "shop");
    assert_eq!(shop.len(), 1);
    assert!(u.is_empty());
    let page = html_page(&report(&shop, &[], &[]), &info(Some("shop")));
    assert!(
        page.contains("cache-0") && !page.contains("big-0"),
        "{page}"
    );
    assert!(
        page.contains("<option value=\"shop\" selected>shop</option>"),
        "{page}"
    );
}
