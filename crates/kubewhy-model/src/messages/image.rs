//! Image pull failures, by the runtime's own error text: containerd, dockershim and CRI-O
//! wordings, with or without the `rpc error: code = … desc =` envelope of kubelets before 1.28
//! (kubernetes-messages.md §2.1, §3).

use crate::{Cause, Confidence};

/// Classifies a pull error. Order matters: the more specific patterns come first (a missing
/// blob also says "not found"; a TLS error may mention a timeout).
pub fn classify_pull_error(text: &str) -> Option<(Cause, Confidence)> {
    let t = super::strip_rpc(text);
    let l = t.to_ascii_lowercase();
    let has = |needles: &[&str]| needles.iter().any(|n| l.contains(n));
    use Confidence::*;
    let c = if has(&[
        "invalid reference format",
        "couldn't parse image reference",
        "failed to apply default image tag",
    ]) {
        (Cause::ImageNameInvalid, High)
    } else if has(&["with pull policy of never"]) {
        (Cause::ImageNeverPull, High)
    } else if has(&["pull qps exceeded"]) {
        (Cause::ImagePullQps, High)
    } else if has(&[
        "toomanyrequests",
        "429 too many requests",
        "pull rate limit",
    ]) {
        (Cause::ImagePullRateLimited, High)
    } else if has(&[
        "x509:",
        "tls: failed to verify",
        "certificate signed by unknown authority",
        "certificate is not valid",
        "tls: bad certificate",
    ]) {
        (Cause::ImageRegistryTls, High)
    } else if has(&["server gave http response to https client"]) {
        (Cause::ImageRegistryHttp, High)
    } else if has(&[
        "no match for platform in manifest",
        "no matching manifest for",
        "no image found in manifest list for architecture",
        "no image found in image index for architecture",
        "exec format error",
    ]) {
        (Cause::ImagePlatformMismatch, High)
    } else if has(&[
        // containerd's ingest of a layer whose written content does not match: a partial
        // download left in the node's content store, until it is removed there.
        "unexpected commit digest",
        "file integrity checksum failed",
        "failed to inspect image",
        "readlink",
        "layer does not exist",
    ]) {
        (Cause::ImageStoreCorrupt, Medium)
    } else if has(&[
        "unknown blob",
        "blob unknown",
        "digest mismatch",
        "unexpected eof",
        "failed commit on ref",
        "content at",
        "short read",
    ]) {
        (Cause::ImageCorrupt, Medium)
    } else if text.contains("httpReadSeeker: failed open: failed to do request")
        && !text.contains("context canceled")
        && !text.contains("context deadline exceeded")
    {
        // A layer's download cut before any answer: the registry had authorized the pull (it
        // sent the manifest and the blob's address, often another host: ACR's and ECR's
        // storage), so whatever a retry said of credentials, the storage is out of reach (a
        // firewall that allows the registry's name and not its storage's). Read in the whole
        // text: the kubelet joins its attempts' errors, and the last may be a retry's 401.
        (Cause::ImageRegistryUnreachable, High)
    } else if text.contains("code = NotFound") && l.contains("failed to fetch anonymous token") {
        // The kubelet's attempts joined: containerd said the reference does not exist
        // (`code = NotFound … : not found`), then a retry without credentials got ACR's 401,
        // which ACR answers for a repository it does not hold. The first answer is the cause.
        (Cause::ImageNotFound, High)
    } else if (l.contains("docker.io/library/") || l.contains("/v2/library/"))
        && has(&[
            "pull access denied",
            "repository does not exist or may require",
            "requested access to the resource is denied",
            "insufficient_scope",
        ])
    {
        // Docker Hub's official images (`library/`) are all public: a denial there is a
        // repository that does not exist, most often a short name that is no official image.
        (Cause::ImageNotFound, Medium)
    } else if has(&["docker.io/"])
        && has(&["pull access denied"])
        && has(&["insufficient_scope"])
        && !has(&["no basic auth credentials"])
    {
        // Docker Hub's answer to an anonymous pull of a repository it does not have (a
        // chart's image deleted or moved, a local image never pushed): `insufficient_scope:
        // authorization failed`, no credentials having been asked for. Another registry says
        // the same of a private repository pulled without credentials.
        (Cause::ImageNotFound, Medium)
    } else if has(&[
        "pull access denied",
        "repository does not exist or may require",
    ]) {
        // Docker Hub answers the same for a missing repository and a private one.
        (Cause::ImagePullAuth, Medium)
    } else if has(&[
        "401 unauthorized",
        "403 forbidden",
        "unauthorized:",
        "authentication required",
        "insufficient_scope",
        "failed to authorize",
        "requested access to the resource is denied",
        "no basic auth credentials",
    ]) {
        (Cause::ImagePullAuth, High)
    } else if has(&[
        ": not found",
        "not found in repository",
        "manifest unknown",
        "not found: manifest",
        "manifest for ",
        "name unknown",
        "404 not found",
    ]) {
        (Cause::ImageNotFound, High)
    } else if l.contains("error: image ") && l.contains(" not found") {
        // kubelets of 2015: `Error: image library/x:latest not found` (docker's words for a
        // missing repository or tag; a private one read the same).
        (Cause::ImageNotFound, Medium)
    } else if has(&[
        "no such host",
        "server misbehaving",
        "temporary failure in name resolution",
        "connection refused",
        "network is unreachable",
        "no route to host",
        "i/o timeout",
        "tls handshake timeout",
        "502 bad gateway",
        "503 service unavailable",
        "504 gateway timeout",
        "registry is unavailable",
        "connection reset by peer",
    ]) {
        (Cause::ImageRegistryUnreachable, High)
    } else if has(&["failed to do request"])
        && !has(&["context canceled", "context deadline exceeded"])
    {
        // containerd's resolver when the connection is cut (a firewall or proxy): `failed to
        // do request: Head https://ghcr.io/v2/…/manifests/v0.9.0: EOF`. A request cancelled
        // instead is the pull given up for lack of progress (below).
        (Cause::ImageRegistryUnreachable, High)
    } else if has(&[
        "context deadline exceeded",
        "deadlineexceeded",
        "context canceled",
        "download failed after attempts",
        "timeout",
    ]) {
        (Cause::ImagePullTimeout, Medium)
    } else {
        return None;
    };
    Some(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// tests/fixtures/wild 1780 (an AKS node behind a firewall with a typo in ACR's storage
    /// address): the blob's download cut, then a retry's 401.
    #[test]
    fn a_layer_download_cut_is_the_storage_out_of_reach() {
        let m = r#"failed to pull and unpack image "myregistry.azurecr.io/myimage:16102023": failed to copy: httpReadSeeker: failed open: failed to do request: Get "https://weumanaged15.blob.core.windows.net/x/data": EOF, rpc error: code = Unknown desc = failed to pull and unpack image "myregistry.azurecr.io/myimage:16102023": failed to resolve reference "myregistry.azurecr.io/myimage:16102023": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://myregistry.azurecr.io/oauth2/token: 401 Unauthorized"#;
        assert_eq!(
            classify_pull_error(m).map(|c| c.0),
            Some(Cause::ImageRegistryUnreachable)
        );
    }

    /// AKS with a repository that ACR does not hold (andyzhangx/demo's ACR notes, wild 2719):
    /// containerd's NotFound, then a retry's anonymous 401.
    #[test]
    fn a_not_found_before_an_anonymous_401_is_not_found() {
        let m = r#"[rpc error: code = NotFound desc = failed to pull and unpack image "imageshack.azurecr.io/samples/ubuntu2:latest": failed to resolve reference "imageshack.azurecr.io/samples/ubuntu2:latest": imageshack.azurecr.io/samples/ubuntu2:latest: not found, rpc error: code = Unknown desc = failed to pull and unpack image "imageshack.azurecr.io/samples/ubuntu2:latest": failed to resolve reference "imageshack.azurecr.io/samples/ubuntu2:latest": failed to authorize: failed to fetch anonymous token: unexpected status from GET request to https://imageshack.azurecr.io/oauth2/token?scope=repository%3Asamples%2Fubuntu2%3Apull&service=imageshack.azurecr.io: 401 Unauthorized]"#;
        assert_eq!(
            classify_pull_error(m).map(|c| c.0),
            Some(Cause::ImageNotFound)
        );
    }

    /// Docker Hub's official images are public: a denial for one is a name that is no image
    /// (tests/fixtures/wild 1769, the Jenkins Kubernetes plugin's short name); elsewhere the
    /// same denial stays a matter of credentials.
    #[test]
    fn a_denied_official_image_does_not_exist() {
        let c = |t: &str| classify_pull_error(t).map(|c| c.0);
        assert_eq!(
            c(
                "initializing source docker://jenkins-agent-base:latest: reading manifest latest in docker.io/library/jenkins-agent-base: requested access to the resource is denied"
            ),
            Some(Cause::ImageNotFound)
        );
        assert_eq!(
            c("reading manifest 1 in quay.io/acme/app: requested access to the resource is denied"),
            Some(Cause::ImagePullAuth)
        );
        assert_eq!(
            c(
                "failed to resolve reference \"docker.io/library/nginx:1\": pull access denied, repository does not exist or may require authorization"
            ),
            Some(Cause::ImageNotFound)
        );
    }

    #[test]
    fn docker_hubs_insufficient_scope_is_a_repository_it_does_not_have() {
        let c = |t: &str| classify_pull_error(t).map(|c| c.0);
        // tests/fixtures/wild 1744, 2371: a chart's image deleted from Docker Hub.
        assert_eq!(
            c(
                "failed to pull and unpack image \"docker.io/bitnami/bitnami-shell:11-debian-11-r63\": failed to resolve reference \"docker.io/bitnami/bitnami-shell:11-debian-11-r63\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed"
            ),
            Some(Cause::ImageNotFound)
        );
        // ECR asked for credentials the node did not have: a credentials problem.
        assert_eq!(
            c(
                "pull access denied, repository does not exist or may require authorization: authorization failed: no basic auth credentials"
            ),
            Some(Cause::ImagePullAuth)
        );
    }
}
