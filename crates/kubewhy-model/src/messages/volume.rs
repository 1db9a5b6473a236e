//! Volume messages: what a ConfigMap or Secret reference lacks (`configmap "x" not found`,
//! `couldn't find key k in Secret ns/name`), and what kind of mount failure a FailedMount /
//! FailedAttachVolume message describes (kubernetes-messages.md §2.3, §2.5).

use crate::Cause;
use regex::Regex;
use std::sync::LazyLock;

static NOT_FOUND: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"(configmaps?|secrets?) "([^"]+)" not found"#).unwrap());
static KEY_MISSING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"(?i)couldn't find key (\S+) in (ConfigMap|Secret) ([^/\s]+)/(\S+)").unwrap()
});

/// What a message says is missing: (cause, object name, key).
pub fn missing_reference(msg: &str) -> Option<(Cause, String, Option<String>)> {
    if let Some(c) = KEY_MISSING.captures(msg) {
        let cause = if c[2].eq_ignore_ascii_case("configmap") {
            Cause::ConfigmapMissing
        } else {
            Cause::SecretMissing
        };
        return Some((cause, c[4].to_string(), Some(c[1].to_string())));
    }
    if let Some(c) = NOT_FOUND.captures(msg) {
        let cause = if c[1].starts_with("configmap") {
            Cause::ConfigmapMissing
        } else {
            Cause::SecretMissing
        };
        return Some((cause, c[2].to_string(), None));
    }
    None
}

/// What kind of mount failure a FailedMount / FailedAttachVolume message describes.
#[derive(Debug, Clone, PartialEq)]
pub enum MountProblem {
    /// The volume (ReadWriteOnce) is attached to another node.
    MultiAttach {
        volume: String,
    },
    /// The CSI driver the volume needs is not registered on the node.
    CsiDriverMissing {
        driver: String,
    },
    /// The generic "timed out waiting" line: it repeats whatever the specific error was.
    Timeout,
    Other,
}

static MULTI_ATTACH: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r#"Multi-Attach error for volume "([^"]+)""#).unwrap());
static CSI_MISSING: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(r"driver name (\S+) not found in the list of registered CSI drivers").unwrap()
});

pub fn classify_mount(msg: &str) -> MountProblem {
    if let Some(c) = MULTI_ATTACH.captures(msg) {
        return MountProblem::MultiAttach {
            volume: c[1].to_string(),
        };
    }
    if let Some(c) = CSI_MISSING.captures(msg) {
        return MountProblem::CsiDriverMissing {
            driver: c[1].to_string(),
        };
    }
    if msg.contains("timed out waiting for the condition")
        || msg.contains("context deadline exceeded")
        || msg.starts_with("Unable to attach or mount volumes")
        || msg.starts_with("Unable to mount volumes")
    {
        return MountProblem::Timeout;
    }
    MountProblem::Other
}
