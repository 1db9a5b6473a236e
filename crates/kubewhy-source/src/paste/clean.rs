//! What people wrap around kubectl's output when they paste it: terminal colours, CRLF,
//! non-breaking spaces, a web page's typographic quotes, Markdown fences, quote markers, inline
//! code ticks and bold, k9s box borders, and the prefixes other tools put before a log line (a
//! node name from `talosctl`, `* ` from `minikube logs`, a date from a web console). Each line
//! is cleaned on its own, so line numbers stay those of the paste.

use regex::Regex;
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// ANSI escape sequences: CSI (colours, cursor), OSC (titles, links), and lone escapes.
static ANSI: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-Z\\-_]|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]",
    )
});
/// Prefixes other tools write before a log line: a node name (`talosctl logs`), `* ` (`minikube
/// logs`), a web console's `5/18/2016 11:26:54 AM`.
static LOG_PREFIX: LazyLock<Regex> = LazyLock::new(|| {
    re(r#"^(?:([\w.-]+: )\{"|(\* )[IWEF]\d{4} |(\d{1,2}/\d{1,2}/\d{4} \d{1,2}:\d\d:\d\d [AP]M ?))"#)
});

/// Box-drawing characters k9s and other TUIs draw around what they show.
fn boxy(c: char) -> bool {
    ('\u{2500}'..='\u{257f}').contains(&c)
}

/// One line without its wrapping. `None`: the line is only decoration (a fence, a border).
pub(super) fn line(raw: &str) -> Option<String> {
    let mut l = raw.trim_end_matches(['\r', '\n']).to_string();
    if l.contains('\x1b') || l.bytes().any(|b| b < 0x20 && b != b'\t') || l.contains('\x7f') {
        l = ANSI.replace_all(&l, "").into_owned();
    }
    if l.contains(['\u{a0}', '\u{202f}', '\u{2007}', '\u{200b}', '\u{feff}']) {
        l = l
            .replace(['\u{a0}', '\u{202f}', '\u{2007}'], " ")
            .replace(['\u{200b}', '\u{feff}'], "");
    }
    // Typographic quotes a web page or a word processor put in place of kubectl's ASCII ones
    // (`Node didn’t have enough resource`): no component writes them in a message it matches.
    if l.contains(['\u{2018}', '\u{2019}', '\u{201c}', '\u{201d}']) {
        l = l
            .replace(['\u{2018}', '\u{2019}'], "'")
            .replace(['\u{201c}', '\u{201d}'], "\"");
    }
    // Markdown quote markers (`> `, `>> `), and escaped prompts (`\#`).
    let t = l.trim_start();
    if t.starts_with('>') {
        let rest = t.trim_start_matches('>');
        l = rest.strip_prefix(' ').unwrap_or(rest).to_string();
    }
    if let Some(rest) = l.strip_prefix("\\#") {
        l = format!("#{rest}");
    }
    // k9s borders: `│ text │`; a line of only box characters is a frame.
    if l.chars().any(boxy) {
        if l.chars().all(|c| boxy(c) || c.is_whitespace()) {
            return None;
        }
        let t = l.trim_start();
        if let Some(rest) = t.strip_prefix(|c: char| boxy(c)) {
            l = rest.strip_prefix(' ').unwrap_or(rest).to_string();
        }
        let t = l.trim_end();
        if let Some(rest) = t.strip_suffix(|c: char| boxy(c)) {
            l = rest.trim_end().to_string();
        }
    }
    // Markdown: fences (alone, or glued to the first line: ```Events:), bold, inline ticks at
    // the ends of a line.
    let t = l.trim();
    for fence in ["```", "~~~"] {
        if let Some(rest) = t.strip_prefix(fence) {
            let rest = rest.trim_start_matches(['`', '~']).trim_start();
            if rest.chars().all(|c| c.is_ascii_alphanumeric() || c == '-') {
                return None; // ```yaml, ```, ~~~bash
            }
            l = rest.to_string();
            break;
        }
    }
    if let Some(rest) = l.trim_end().strip_suffix("```") {
        l = rest.to_string();
    }
    if l.contains("**") {
        l = l.replace("**", "");
    }
    let t = l.trim_start();
    if let Some(rest) = t.strip_prefix('`')
        && !rest.starts_with('`')
    {
        let indent = l.len() - t.len();
        l = format!("{}{}", &l[..indent], rest);
    }
    if let Some(rest) = l.trim_end().strip_suffix('`')
        && !rest.ends_with('`')
        && rest.matches('`').count() % 2 == 0
    {
        l = rest.to_string();
    }
    if let Some(c) = LOG_PREFIX.captures(&l)
        && let Some(prefix) = c.iter().skip(1).flatten().next()
    {
        l = l[prefix.end()..].to_string();
    }
    Some(l)
}

/// Whether a line may need cleaning: cheap byte tests before the work of `line`.
fn may_need(l: &str) -> bool {
    let b = l.as_bytes();
    let t = l.trim_start().as_bytes();
    b.iter()
        .any(|&c| c < 0x20 && c != b'\t' || c == 0x7f || c == b'`' || c >= 0x80)
        || l.contains("**")
        || t.first()
            .is_some_and(|&c| matches!(c, b'>' | b'\\' | b'~' | b'*'))
        || LOG_PREFIX.is_match(l)
}

/// The whole paste, line by line (a decoration line becomes an empty one); borrowed when no
/// line needs cleaning, as kubectl's own output does not.
pub(super) fn text(raw: &str) -> std::borrow::Cow<'_, str> {
    let first = raw.split_inclusive('\n').position(|l| {
        let l = l.strip_suffix('\n').unwrap_or(l);
        may_need(l) && line(l).as_deref() != Some(l)
    });
    let Some(first) = first else {
        return std::borrow::Cow::Borrowed(raw);
    };
    let mut out = String::with_capacity(raw.len());
    for (i, l) in raw.split_inclusive('\n').enumerate() {
        let nl = l.ends_with('\n');
        let l = l.strip_suffix('\n').unwrap_or(l);
        if i < first || !may_need(l) {
            out.push_str(l);
        } else if let Some(c) = line(l) {
            out.push_str(&c);
        }
        if nl {
            out.push('\n');
        }
    }
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_keep_their_numbers() {
        assert_eq!(text("a\n```\nb\n"), "a\n\nb\n");
        assert_eq!(text("a\r\nb"), "a\nb");
    }

    #[test]
    fn decorations_go() {
        assert_eq!(line("```yaml"), None);
        assert_eq!(
            line("Node didn\u{2019}t have enough resource: \u{201c}memory\u{201d}").as_deref(),
            Some("Node didn't have enough resource: \"memory\"")
        );
        assert_eq!(line("```"), None);
        assert_eq!(line("``` yaml"), None);
        assert_eq!(line("```Events:").as_deref(), Some("Events:"));
        assert_eq!(line("> NAME   READY").as_deref(), Some("NAME   READY"));
        assert_eq!(
            line("│   Type     Reason   │").as_deref(),
            Some("  Type     Reason")
        );
        assert_eq!(line("└──────┘"), None);
        assert_eq!(
            line("\x1b[31mWarning\x1b[0m  Failed\r").as_deref(),
            Some("Warning  Failed")
        );
        assert_eq!(line("a\u{a0}b").as_deref(), Some("a b"));
        assert_eq!(
            line("`Status:       Failed").as_deref(),
            Some("Status:       Failed")
        );
        assert_eq!(
            line("  **Warning  Unhealthy**").as_deref(),
            Some("  Warning  Unhealthy")
        );
        assert_eq!(
            line("\\# kubectl get pod").as_deref(),
            Some("# kubectl get pod")
        );
        assert_eq!(
            line(r#"talos-1.internal: {"level":"error"}"#).as_deref(),
            Some(r#"{"level":"error"}"#)
        );
        assert_eq!(
            line("* E0108 22:07:45.954750       1 x.go:1] y").as_deref(),
            Some("E0108 22:07:45.954750       1 x.go:1] y")
        );
        assert_eq!(
            line("5/18/2016 11:26:54 AMI0518 18:26:54.972753 1 event.go:211] z").as_deref(),
            Some("I0518 18:26:54.972753 1 event.go:211] z")
        );
        // YAML's own `>-` and inner ticks stay.
        assert_eq!(line("    message: >-").as_deref(), Some("    message: >-"));
        assert_eq!(
            line("the `Pending` state").as_deref(),
            Some("the `Pending` state")
        );
    }
}
