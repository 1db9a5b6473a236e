//! Credentials out of free text: node logs, container logs and what node-collect gathers, and
//! the messages of events, conditions and container states (`objects::redacted`), pass through
//! [`redact`] before they are kept, so no output (nor the flight recorder) can quote them.
//!
//! Replaced by `[REDACTED]`: bearer tokens, JWTs, AWS access key IDs, passwords in URLs
//! (`scheme://user:password@`), `password=` / `token=` / `secret=`-style assignments, and the
//! bodies of PEM private key blocks.

use regex::Regex;
use std::borrow::Cow;
use std::sync::LazyLock;

const MARK: &str = "[REDACTED]";

static PATTERNS: LazyLock<Vec<(Regex, &'static str)>> = LazyLock::new(|| {
    let r = |s: &str| Regex::new(s).expect("redaction regex");
    vec![
        (
            r(r"(?i)(bearer\s+)[A-Za-z0-9._~+/=-]{8,}"),
            "${1}[REDACTED]",
        ),
        (
            r(r"eyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]*"),
            MARK,
        ),
        (r(r"\b(?:AKIA|ASIA)[0-9A-Z]{16}\b"), MARK),
        (
            r(r"([a-zA-Z][a-zA-Z0-9+.-]*://[^/\s:@]+:)[^/\s@]+@"),
            "${1}[REDACTED]@",
        ),
        (
            r(
                r#"(?i)((?:pass(?:word|wd)?|token|secret|api[_-]?key|access[_-]?key|client[_-]?secret)\\?"?\s*[=:]\s*\\?"?)[^\s"\\,;&]{3,}"#,
            ),
            "${1}[REDACTED]",
        ),
        (
            r(r"-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)"),
            "-----BEGIN PRIVATE KEY----- [REDACTED]",
        ),
    ]
});

/// Every pattern needs one of these words (one pass over the text); the patterns themselves run
/// only on text that has one. Messages are read by the hundred thousand (every event, every
/// condition), and "Successfully assigned" must not cost six regular expressions.
static PRECHECK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)bearer|eyJ|AKIA|ASIA|://|pass|token|secret|key").expect("precheck regex")
});

/// Which patterns match, in one pass.
static SET: LazyLock<regex::RegexSet> = LazyLock::new(|| {
    regex::RegexSet::new(PATTERNS.iter().map(|(re, _)| re.as_str())).expect("redaction set")
});

/// `text` with anything that looks like a credential replaced.
pub fn redact(text: &str) -> Cow<'_, str> {
    if !PRECHECK.is_match(text) {
        return Cow::Borrowed(text);
    }
    let matched = SET.matches(text);
    if !matched.matched_any() {
        return Cow::Borrowed(text);
    }
    let mut out = Cow::Borrowed(text);
    for i in matched.iter() {
        let (re, with) = &PATTERNS[i];
        out = Cow::Owned(re.replace_all(&out, *with).into_owned());
    }
    out
}

/// Redacts a text line by line, remembering a private key block across lines: [`redact`] sees
/// one line at a time, and the lines between `-----BEGIN … PRIVATE KEY-----` and its `-----END`
/// hold nothing it would recognise.
#[derive(Debug, Default)]
pub struct LineRedactor {
    in_key: bool,
}

impl LineRedactor {
    /// The line as it may be kept.
    pub fn line<'a>(&mut self, line: &'a str) -> Cow<'a, str> {
        if self.in_key {
            if line.contains("PRIVATE KEY-----") && line.contains("-----END") {
                self.in_key = false;
            }
            return Cow::Borrowed(MARK);
        }
        if let Some(at) = line.find("-----BEGIN")
            && line[at..].contains("PRIVATE KEY-----")
            && !line[at..].contains("-----END")
        {
            self.in_key = true;
        }
        redact(line)
    }

    /// Follows a line without keeping it (lines before those kept can open a key block).
    pub fn skip(&mut self, line: &str) {
        let _ = self.line(line);
    }
}

#[cfg(test)]
mod tests {
    use super::{LineRedactor, redact};

    #[test]
    fn a_private_key_block_is_redacted_across_lines() {
        let text = "before\n-----BEGIN RSA PRIVATE KEY-----\nMIIEpAIBAAKCAQEA\nabcdef==\n-----END RSA PRIVATE KEY-----\nafter";
        let mut r = LineRedactor::default();
        let kept: Vec<String> = text.lines().map(|l| r.line(l).into_owned()).collect();
        assert_eq!(
            kept,
            [
                "before",
                "-----BEGIN PRIVATE KEY----- [REDACTED]",
                "[REDACTED]",
                "[REDACTED]",
                "[REDACTED]",
                "after"
            ]
        );
        // A key on one line ends its own block.
        let mut r = LineRedactor::default();
        assert_eq!(
            r.line("-----BEGIN PRIVATE KEY----- abc -----END PRIVATE KEY-----"),
            "-----BEGIN PRIVATE KEY----- [REDACTED]"
        );
        assert_eq!(r.line("next"), "next");
    }

    #[test]
    fn credentials_are_replaced() {
        let cases = [
            (
                "Authorization: Bearer abcdefghijklmnop123",
                "Authorization: Bearer [REDACTED]",
            ),
            (
                "token eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl end",
                "token [REDACTED] end",
            ),
            ("key AKIAIOSFODNN7EXAMPLE here", "key [REDACTED] here"),
            (
                "pull https://bob:hunter2@registry.example.com/x",
                "pull https://bob:[REDACTED]@registry.example.com/x",
            ),
            ("DB_PASSWORD=s3cr3t! other", "DB_PASSWORD=[REDACTED] other"),
            (r#"{"password":"abc123"}"#, r#"{"password":"[REDACTED]"}"#),
            (
                "client_secret: xyz789 next",
                "client_secret: [REDACTED] next",
            ),
            (
                "-----BEGIN RSA PRIVATE KEY-----\nMIIabc\n-----END RSA PRIVATE KEY-----",
                "-----BEGIN PRIVATE KEY----- [REDACTED]",
            ),
        ];
        for (input, want) in cases {
            assert_eq!(redact(input), want, "{input}");
        }
    }

    #[test]
    fn ordinary_lines_are_untouched() {
        for l in [
            "E1123 07:18:13.335030 688 nestedpendingoperations.go:301] UnmountVolume.TearDown failed for volume \"scratch\" : target is busy.",
            "volume \"default-token-qj5vl\" (UniqueName: \"kubernetes.io/secret/531e8750-default-token-qj5vl\")",
            "Memory cgroup out of memory: Killed process 6754 (tail)",
        ] {
            assert_eq!(redact(l), l);
        }
    }
}
