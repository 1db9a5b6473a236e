//! The last resort for a failure said in words no table of this catalogue holds: a line that
//! says something failed (`failed`, `error`, `denied`, `timed out`, `not found`, `Killed` …)
//! and names what failed in Kubernetes' own vocabulary (a volume, a mount, a CSI driver, the
//! sandbox, the CNI, an image pull or an image that does not exist, a DRA claim or a device
//! plugin, the OCI runtime, a claim, a finalizer, a disruption budget …) points at the
//! cause of that family, at low confidence.
//!
//! Only the paste reader asks, and only when nothing in the paste is a known message: a new
//! CSI driver's `GRPC error: failed to stage volume` or a new CNI plugin's words are then read
//! as what they are about instead of nothing. The words found are quoted back, so a reader
//! sees why. Order matters: the narrower readings (an unmount, a registry's certificate) come
//! before the wider ones (a volume, an image).

use std::sync::LazyLock;

use regex::Regex;

use crate::Cause;

/// A line that says something went wrong.
static FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"(?i)\b(?:fail(?:s|ed|ing|ure)?|errors?|err=|unable|cannot|can't|could ?not|couldn't|denied|refused|timed? ?out|timeout|not found|no such|invalid|forbidden|unhealthy|killed|exceeded|insufficient|not enough|not ready|notready|unavailable|back-?off|stuck|hang(?:s|ing)?|blocked|resource busy)\b",
    )
    .expect("failure words")
});

/// Lines about the command, not the workload (kubectl's own errors), and the kubelet's
/// passing words that the checks weigh against the pod's state (a secret's cache not yet
/// synced when the pod started: it mounts on the next try).
static NOT_A_FAILURE: LazyLock<Regex> = LazyLock::new(|| {
    Regex::new(
        r"^(?:Error from server\b|error: |Unable to connect to the server\b)|failed to sync (?:secret|configmap) cache",
    )
    .expect("kubectl errors")
});

/// `(words, cause)`: the first whose words the line holds names the cause.
static READINGS: LazyLock<Vec<(Regex, Cause)>> = LazyLock::new(|| {
    [
        (
            r"(?i)\b(?:oom[- ]?kill\w*|out of memory|memory cgroup out of memory)\b",
            Cause::OomKilled,
        ),
        (
            r"(?i)\b(?:unmount\w*|UnmountDevice|TearDown|target is busy|device or resource busy)\b",
            Cause::VolumeUnmountStuck,
        ),
        (
            r"(?i)\b(?:x509|certificate|tls)\b.*\b(?:registry|pull\w*|image|manifest|/v2/)|\b(?:registry|pull\w*|image|manifest)\b.*\b(?:x509|certificate|tls)\b",
            Cause::ImageRegistryTls,
        ),
        (
            r"(?i)\b(?:pull\w*|registry|manifest)\b.*\b(?:unauthori[sz]ed|authenticat\w+|authori[sz]ation|401|403|access denied)\b",
            Cause::ImagePullAuth,
        ),
        (
            r"(?i)\b(?:pull\w*|image|manifest)\b.*\b(?:not found|manifest unknown|does not exist)\b",
            Cause::ImageNotFound,
        ),
        (
            r"(?i)\b(?:configmaps?)\b.*\bnot found\b",
            Cause::ConfigmapMissing,
        ),
        (r"(?i)\b(?:secrets?)\b.*\bnot found\b", Cause::SecretMissing),
        (
            r"\b(?:(?i:dynamic resources?|ResourceClaims?|device ?plugins?|devices? allocation|CDI devices?)|DRA)\b",
            Cause::DeviceAllocationFailed,
        ),
        (
            r"(?i)\b(?:csi|volumes?|mount\w*|attach\w*|iscsi\w*|nfs|globalmount|NodeStage\w*|NodePublish\w*|MapVolume\w*|multipath\w*|pvc-[0-9a-f]{8})\b",
            Cause::VolumeMountFailed,
        ),
        (
            r"(?i)\b(?:provision\w*|PersistentVolumeClaims?|unbound)\b",
            Cause::PvcUnbound,
        ),
        (
            r"(?i)\b(?:pod ?sandbox|sandbox|cni|network ?plugin|ipam|containerd-shim\w*|shim)\b",
            Cause::SandboxCreationFailed,
        ),
        (
            r"(?i)\b(?:OCI runtime|OCI spec|OCI options|runc|entrypoint|exec format)\b",
            Cause::ContainerStartFailed,
        ),
        (
            r"(?i)\b(?:insufficient|not enough|enough resources)\b",
            Cause::InsufficientResources,
        ),
        (
            r"(?i)\b(?:PodDisruptionBudgets?|disruption budget|drain\w*)\b",
            Cause::DisruptionBudgetBlocking,
        ),
        (r"(?i)\bfinali[sz]er\w*\b", Cause::FinalizerPending),
        (r"(?i)\bliveness\b", Cause::LivenessProbeFailing),
        (r"(?i)\breadiness\b", Cause::ReadinessProbeFailing),
    ]
    .into_iter()
    .map(|(p, c)| (Regex::new(p).expect("reading"), c))
    .collect()
});

/// The cause a failure line's words point at, and the words (as the line has them: the first
/// and the last of a longer span, `pull … certificate`), when the line says something failed
/// and names what in Kubernetes' vocabulary.
pub fn read(line: &str) -> Option<(Cause, String)> {
    if line.len() > 4096 || NOT_A_FAILURE.is_match(line) || !FAILURE.is_match(line) {
        return None;
    }
    READINGS.iter().find_map(|(r, cause)| {
        r.find(line).map(|m| {
            let words: Vec<&str> = m.as_str().split_whitespace().collect();
            let said = match words.as_slice() {
                [first, .., last] if words.len() > 2 => format!("{first} … {last}"),
                _ => m.as_str().to_string(),
            };
            (*cause, said)
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failure_is_read_by_what_it_names() {
        for (line, want) in [
            (
                "E1207 07:40:16.205850 1 main.go:119] GRPC error: failed to stage volume: multipathd is not running",
                Some((Cause::VolumeMountFailed, "volume")),
            ),
            (
                "RegisterPlugin error -- plugin registration failed: rpc error: x for csi driver foo",
                Some((Cause::VolumeMountFailed, "csi")),
            ),
            (
                "failed to unmount /var/lib/kubelet/pods/x/volumes/y: target is busy",
                Some((Cause::VolumeUnmountStuck, "unmount")),
            ),
            (
                "pull access to registry.example.com failed: x509: certificate signed by unknown authority",
                Some((Cause::ImageRegistryTls, "pull … certificate")),
            ),
            (
                "plugin type=\"newcni\" failed (add): no addresses left in the pool for the sandbox",
                Some((Cause::SandboxCreationFailed, "sandbox")),
            ),
            (
                "waiting for the claim to be provisioned timed out",
                Some((Cause::PvcUnbound, "provisioned")),
            ),
            (
                "unlinkat /var/run/netns/cni-49ddd103: device or resource busy",
                Some((Cause::VolumeUnmountStuck, "device … busy")),
            ),
            (
                "FailedPrepare  kubelet  could not prepare the DRA claim gpu-claim: driver timed out",
                Some((Cause::DeviceAllocationFailed, "DRA")),
            ),
            (
                "newruntime: failed to build the OCI spec: unsupported option",
                Some((Cause::ContainerStartFailed, "OCI spec")),
            ),
            (
                "pulling from ghcr.io/acme/app failed: the image tag does not exist",
                Some((Cause::ImageNotFound, "pulling … exist")),
            ),
            // `DRA` is the acronym, not three letters of an image's name.
            (
                "Failed to pull image \"nvcr.io/nvidia/k8s-dra-driver:v0.1.0\": failed to pull and unpack image",
                None,
            ),
            // Words of Kubernetes without a failure, and kubectl's own errors, say nothing.
            ("Successfully mounted volume data", None),
            (
                "Error from server (NotFound): persistentvolumeclaims \"data\" not found",
                None,
            ),
            (
                "MountVolume.SetUp failed for volume \"default-token-72wx8\" : failed to sync secret cache: timed out waiting for the condition",
                None,
            ),
            // A failure that names nothing of Kubernetes is the application's.
            ("failed to connect to postgres: connection refused", None),
        ] {
            let got = read(line);
            match want {
                Some((cause, words)) => {
                    let (c, w) = got.unwrap_or_else(|| panic!("{line}: nothing"));
                    assert_eq!(c, cause, "{line}");
                    assert_eq!(w, words, "{line}");
                }
                None => assert_eq!(got, None, "{line}"),
            }
        }
    }
}
