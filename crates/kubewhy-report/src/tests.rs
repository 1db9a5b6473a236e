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
        },
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
            synced: true,
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
    assert!(page.contains("<code>Pod shop/web-1</code>"), "{page}");
    assert!(page.contains("<meta http-equiv=\"refresh\" content=\"10\">"));
    assert!(page.contains("<pre>kubectl set resources</pre>"));
    assert!(page.contains("ImagePullBackOff"));
    assert!(!page.contains("<script"), "no JavaScript");
}
