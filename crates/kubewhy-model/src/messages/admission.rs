//! The API server's refusals of a pod a controller creates (the error inside `Error creating:
//! …` and the StatefulSet's `create Pod … failed error: …`): quota, LimitRange, Pod Security,
//! webhooks, a missing service account, a namespace being deleted.

use regex::Regex;
use std::sync::LazyLock;

/// Why admission refused the pod, with what names it.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// `exceeded quota: NAME, requested: …` or `failed quota: NAME: must specify …`.
    Quota { name: String, detail: String },
    /// LimitRange bounds (`maximum cpu usage per Container is 1, but limit is 2`).
    LimitRange(String),
    /// Pod Security admission (`violates PodSecurity "restricted:latest": …`) or the older
    /// PodSecurityPolicy.
    PodSecurity(String),
    /// A validating/mutating webhook said no.
    WebhookDenied { webhook: String, detail: String },
    /// A webhook could not be called (failurePolicy Fail).
    WebhookUnreachable { webhook: String, detail: String },
    /// `error looking up service account NS/NAME: serviceaccount "NAME" not found`.
    ServiceAccountMissing(String),
    /// The namespace is being deleted.
    NamespaceTerminating,
    /// Another admission error, kept whole.
    Other(String),
}

static QUOTA: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)(?:exceeded quota|failed quota|status unknown for quota): ([^,:]+)[,:]\s*(.*)$",
    )
    .unwrap()
});
static WEBHOOK_DENIED: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"admission webhook "([^"]+)" denied the request:?\s*(.*)$"#).unwrap()
});
static WEBHOOK_CALL: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"failed calling webhook "([^"]+)":\s*(.*)$"#).unwrap());
static SERVICE_ACCOUNT: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r#"error looking up service account ([^:]+): serviceaccount "[^"]+" not found"#)
        .unwrap()
});

/// Classifies the API server's refusal (the error inside `Error creating: …`).
pub fn classify(err: &str) -> Refusal {
    if let Some(c) = QUOTA.captures(err) {
        return Refusal::Quota {
            name: c[1].trim().to_string(),
            detail: c[2].trim().to_string(),
        };
    }
    if let Some(c) = WEBHOOK_DENIED.captures(err) {
        return Refusal::WebhookDenied {
            webhook: c[1].to_string(),
            detail: c[2].trim().to_string(),
        };
    }
    if let Some(c) = WEBHOOK_CALL.captures(err) {
        return Refusal::WebhookUnreachable {
            webhook: c[1].to_string(),
            detail: c[2].trim().to_string(),
        };
    }
    if let Some(c) = SERVICE_ACCOUNT.captures(err) {
        return Refusal::ServiceAccountMissing(c[1].trim().to_string());
    }
    if err.contains("violates PodSecurity")
        || err.contains("PodSecurityPolicy")
        || err.contains("pod security policy")
    {
        let detail = err.split_once("forbidden: ").map_or(err, |(_, d)| d);
        return Refusal::PodSecurity(detail.to_string());
    }
    if err.contains(" usage per Container is ")
        || err.contains(" usage per Pod is ")
        || err.contains("limit to request ratio per ")
    {
        let detail = err.split_once("forbidden: ").map_or(err, |(_, d)| d);
        return Refusal::LimitRange(detail.trim_matches(|c| c == '[' || c == ']').to_string());
    }
    if err.contains("because it is being terminated") {
        return Refusal::NamespaceTerminating;
    }
    Refusal::Other(err.to_string())
}

/// The API error inside a controller's FailedCreate message, in every controller's wording.
pub fn inner_error(message: &str) -> &str {
    if let Some(rest) = message.strip_prefix("Error creating: ") {
        return rest;
    }
    // StatefulSet: "create Pod web-0 in StatefulSet web failed error: <err>".
    if let Some((_, rest)) = message.split_once(" failed error: ") {
        return rest;
    }
    message
}
