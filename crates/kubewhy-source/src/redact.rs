//! Credentials out of log text: node logs and what node-collect gathers pass through
//! [`redact`] before they are kept, so no output can quote them.
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

/// Every pattern needs one of these (one pass over the text).
static PRECHECK: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)earer|eyJ|AKIA|ASIA|://|ass|oken|ecret|key").expect("precheck regex")
});

/// `text` with anything that looks like a credential replaced.
pub fn redact(text: &str) -> Cow<'_, str> {
    if !PRECHECK.is_match(text) {
        return Cow::Borrowed(text);
    }
    let mut out = Cow::Borrowed(text);
    for (re, with) in PATTERNS.iter() {
        if re.is_match(&out) {
            out = Cow::Owned(re.replace_all(&out, *with).into_owned());
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::redact;

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
