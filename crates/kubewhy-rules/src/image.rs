//! Image pull failures, classified by the runtime's own error text (containerd, dockershim and
//! CRI-O wordings; with or without the `rpc error: code = … desc =` envelope of kubelets < 1.28).

use crate::Findings;
use crate::podinfo::PodInfo;
use crate::{Check, Ctx};
use kubewhy_model::objects::ContainerStatus;
use kubewhy_model::{Cause, Confidence, EvidenceKind, Finding, ObjectKey, RiskLevel, Severity};

pub(crate) struct ImagePull;

const CAUSES: &[Cause] = &[
    Cause::ImageNotFound,
    Cause::ImagePullAuth,
    Cause::ImageRegistryTls,
    Cause::ImageRegistryHttp,
    Cause::ImageRegistryUnreachable,
    Cause::ImagePullRateLimited,
    Cause::ImagePullQps,
    Cause::ImagePullTimeout,
    Cause::ImageCorrupt,
    Cause::ImageStoreCorrupt,
    Cause::ImagePlatformMismatch,
    Cause::ImageNameInvalid,
    Cause::ImageNeverPull,
];

const PULL_REASONS: &[&str] = &[
    "ErrImagePull",
    "ImagePullBackOff",
    "InvalidImageName",
    "ErrImageNeverPull",
    "ImageInspectError",
    "RegistryUnavailable",
];

pub(crate) use kubewhy_model::messages::image::classify_pull_error;

impl Check for ImagePull {
    fn name(&self) -> &'static str {
        "image"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for pod in &ctx.snap.pods {
            let info = PodInfo::new(pod);
            for (cs, init) in info.statuses() {
                let Some(w) = &cs.state.waiting else { continue };
                if PULL_REASONS.contains(&w.reason.as_str()) {
                    check_container(ctx, &info, cs, init, out);
                }
            }
        }
    }
}

fn check_container(
    ctx: &Ctx,
    info: &PodInfo,
    cs: &ContainerStatus,
    init: bool,
    out: &mut Findings,
) {
    let snap = ctx.snap;
    let w = cs.state.waiting.as_ref().expect("caller checked");
    let image = info
        .container(&cs.name)
        .map_or(cs.image.as_str(), |c| c.image.as_str())
        .to_string();
    let field = format!(
        "status.{}[{}].state.waiting",
        if init {
            "initContainerStatuses"
        } else {
            "containerStatuses"
        },
        cs.name
    );
    // Candidate texts, most informative first: the waiting message (ErrImagePull carries the
    // runtime's error), then the kubelet's events about this image.
    let mut texts: Vec<(EvidenceKind, String, String)> = Vec::new();
    if !w.message.is_empty() {
        texts.push((
            EvidenceKind::Field,
            format!("{field} reason={}", w.reason),
            w.message.to_string(),
        ));
    }
    let quoted = format!("\"{image}\"");
    for e in snap.events_for("Pod", &info.pod.metadata).iter().rev() {
        let about_image = e.message.contains(&quoted) || e.message.contains(&image);
        let relevant = matches!(
            e.reason.as_str(),
            "Failed" | "ErrImageNeverPull" | "InspectFailed" | "InvalidImageName"
        ) && about_image;
        if relevant && !texts.iter().any(|(_, _, m)| *m == e.message) {
            texts.push((EvidenceKind::Event, e.origin(), e.message.to_string()));
        }
    }
    let mut classified = None;
    for (i, (_, _, t)) in texts.iter().enumerate() {
        if let Some(c) = classify_pull_error(t) {
            classified = Some((i, c));
            break;
        }
    }
    // The waiting reason alone settles a few causes.
    let (idx, (cause, confidence)) = match (classified, w.reason.as_str()) {
        (Some(c), _) => c,
        (None, "InvalidImageName") => (usize::MAX, (Cause::ImageNameInvalid, Confidence::High)),
        (None, "ErrImageNeverPull") => (usize::MAX, (Cause::ImageNeverPull, Confidence::High)),
        (None, "ImageInspectError") => (usize::MAX, (Cause::ImageStoreCorrupt, Confidence::Medium)),
        // Only "Back-off pulling image" (the pull's own error expired with its events): a
        // name or tag that does not exist is the commonest reason, said as a guess.
        (None, "ImagePullBackOff" | "ErrImagePull")
            // A pull error the paste shows beside the pod says which (pasted::from_messages).
            if !snap
                .pasted_messages
                .iter()
                .any(|m| m.cause.family() == kubewhy_model::Family::NotStarting) =>
        {
            // An image pinned by its digest on a public registry was published there (charts
            // pin the digests of their releases): what is likelier is that the node cannot
            // reach the registry.
            if image.contains("@sha256:") && PUBLIC.contains(&registry_of(&image).as_str()) {
                (usize::MAX, (Cause::ImageRegistryUnreachable, Confidence::Low))
            } else {
                (usize::MAX, (Cause::ImageNotFound, Confidence::Low))
            }
        }
        _ => return,
    };
    let pinned = idx == usize::MAX && cause == Cause::ImageRegistryUnreachable;
    let guessed = idx == usize::MAX && cause == Cause::ImageNotFound || pinned;
    let title = if pinned {
        format!(
            "Image \"{image}\" cannot be pulled ({}); it is pinned by digest on a public registry, so most likely the node cannot reach {}",
            w.reason,
            registry_of(&image)
        )
    } else if guessed && image.is_empty() {
        // A `get pods` row shows no image: nothing of its name or registry is said.
        format!(
            "The image of container \"{}\" cannot be pulled ({}); most likely it does not exist in its registry",
            cs.name, w.reason
        )
    } else if guessed {
        format!(
            "Image \"{image}\" cannot be pulled ({}); most likely it does not exist in its registry",
            w.reason
        )
    } else {
        summary(cause, &image)
    };
    let mut f = Finding::new(cause, Severity::Error, title)
        .object(info.key.clone())
        .confidence(confidence)
        .group(format!("{image}|{}", info.owner_key(snap)));
    let quoted_waiting = matches!(texts.get(idx), Some((EvidenceKind::Field, _, _)));
    if !quoted_waiting {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            format!("{field}.reason"),
            w.reason.clone(),
        );
    }
    if let Some((kind, src, quote)) = texts.get(idx) {
        f = f.evidence(*kind, Some(&info.key), src.clone(), quote.clone());
    }
    if cause == Cause::ImagePullAuth {
        f = auth_evidence(f, ctx, info, &registry_of(&image));
    }
    if cause == Cause::ImageStoreCorrupt {
        f = same_image_on_node(f, ctx, info, &image);
    }
    let node = info.pod.spec.node_name.clone().unwrap_or_default();
    if guessed {
        let secrets: Vec<&str> = info
            .pod
            .spec
            .image_pull_secrets
            .iter()
            .map(|s| s.name.as_str())
            .collect();
        f = f.evidence(
            EvidenceKind::Analysis,
            Some(&info.key),
            "the pull error",
            format!(
                "not in the data (the kubelet's Failed event expires after an hour); {}, {}",
                if image.is_empty() {
                    "the image and its registry not shown either".to_string()
                } else {
                    format!("registry {}", registry_of(&image))
                },
                if secrets.is_empty() {
                    "no imagePullSecrets".to_string()
                } else {
                    format!("imagePullSecrets {}", secrets.join(", "))
                }
            ),
        );
    }
    let its_image = if image.is_empty() {
        "its image".to_string()
    } else {
        format!("its image \"{image}\"")
    };
    f = f.explain(format!(
        "{} Container \"{}\" cannot start until {its_image} is on {}.",
        if pinned {
            "The runtime's pull error is not in the data, only the back-off. The image is named by its digest on a public registry, as charts name their released images, so it exists and needs no credentials: a node that cannot reach the registry (a firewall, a proxy, DNS) is the likeliest reason. The pull error settles it."
        } else if guessed {
            "The runtime's pull error is not in the data, only the back-off: a repository or tag that does not exist is the commonest reason (an image moved or removed from its registry, a typo), then missing credentials and an unreachable registry; the pull error settles which."
        } else {
            why(cause)
        },
        cs.name,
        if node.is_empty() { "its node".to_string() } else { format!("node {node}") }
    ));
    if guessed {
        f = f.step_at(
            0,
            "See the pull error (the pod's events), or pull the image by hand from a node",
            Some(info.describe_cmd()),
            RiskLevel::None,
            "",
        );
    }
    out.push(remediation(f, ctx, info, cause, &image));
}

/// Public registries that serve released images without credentials.
const PUBLIC: &[&str] = &[
    "registry.k8s.io",
    "k8s.gcr.io",
    "gcr.io",
    "quay.io",
    "ghcr.io",
    "docker.io",
    "registry-1.docker.io",
    "public.ecr.aws",
    "mcr.microsoft.com",
];

/// For a refused pull: which pull secrets the pod has (its own and its service account's),
/// and whether they exist. Only names are shown, never credentials.
fn auth_evidence(mut f: Finding, ctx: &Ctx, info: &PodInfo, registry: &str) -> Finding {
    let snap = ctx.snap;
    let names = crate::podinfo::pull_secret_names(snap, info.pod);
    let sa = crate::podinfo::service_account(info.pod);
    if names.is_empty() {
        f = f.evidence(
            EvidenceKind::Field,
            Some(&info.key),
            "spec.imagePullSecrets",
            format!("none (and none on service account \"{sa}\" in the data)"),
        );
    }
    for n in names {
        match snap.secret(info.ns(), &n) {
            None if snap.secrets_known(info.ns()) => {
                f = f.evidence(
                    EvidenceKind::Absence,
                    Some(&info.key),
                    "spec.imagePullSecrets",
                    format!(
                        "Secret {}/{n} is named as a pull secret but does not exist",
                        info.ns()
                    ),
                );
            }
            Some(secret) if !secret.registries.is_empty() => {
                let key = ObjectKey::of("Secret", &secret.metadata);
                let covered = secret
                    .registries
                    .iter()
                    .any(|h| registry_matches(h, registry));
                let quote = if covered {
                    format!(
                        "holds credentials for {registry}: the registry refuses them (wrong, expired or without access to this repository)"
                    )
                } else {
                    format!(
                        "holds credentials for {} only, none for {registry}: the kubelet sends no credentials",
                        secret.registries.join(", ")
                    )
                };
                f = f.evidence(
                    EvidenceKind::Field,
                    Some(&key),
                    "registry hosts of its docker config (credentials not read)",
                    quote,
                );
            }
            _ => {}
        }
    }
    f
}

/// A corrupt local image store is the node's problem: the other pods there that use the same
/// image show whether it is one image or the whole store.
fn same_image_on_node(mut f: Finding, ctx: &Ctx, info: &PodInfo, image: &str) -> Finding {
    let Some(node) = info.pod.spec.node_name.as_deref().filter(|n| !n.is_empty()) else {
        return f;
    };
    let others: Vec<String> = ctx
        .snap
        .pods_on_node(node)
        .filter(|p| p.metadata.uid != info.pod.metadata.uid)
        .filter(|p| {
            p.spec
                .containers
                .iter()
                .chain(&p.spec.init_containers)
                .any(|c| c.image == image)
        })
        .map(|p| {
            let running = p
                .status
                .container_statuses
                .iter()
                .any(|c| c.state.running.is_some());
            format!(
                "{}/{} ({})",
                p.metadata.ns(),
                p.metadata.name,
                if running { "running" } else { "not running" }
            )
        })
        .collect();
    let quote = if others.is_empty() {
        format!("no other pod on node {node} uses \"{image}\"")
    } else {
        others.join(", ")
    };
    f = f.evidence(
        EvidenceKind::Field,
        None,
        format!("other pods on node {node} using the same image"),
        quote,
    );
    f.step(
        format!("On node {node}: remove the broken image so the kubelet pulls it again"),
        Some(format!("crictl rmi {image}   # on {node}; if other images fail too, the store itself is damaged: drain the node")),
        RiskLevel::Medium,
        "Running containers keep working; pods on the node that need the image wait for the new pull.",
    )
}

/// A registry host without scheme, path or Docker Hub aliases: `https://index.docker.io/v1/`
/// and `registry-1.docker.io` are both `docker.io`.
fn normalise_registry(h: &str) -> String {
    let h = h.trim().to_ascii_lowercase();
    let h = h
        .strip_prefix("https://")
        .or_else(|| h.strip_prefix("http://"))
        .unwrap_or(&h);
    let host = h.split('/').next().unwrap_or(h);
    match host {
        "index.docker.io" | "registry-1.docker.io" | "registry.hub.docker.com" => {
            "docker.io".into()
        }
        other => other.to_string(),
    }
}

/// Whether a pull secret's host key covers the image's registry, as the kubelet's credential
/// keyring matches them (exact host and port, or a `*.domain` wildcard).
fn registry_matches(key: &str, registry: &str) -> bool {
    let (key, registry) = (normalise_registry(key), normalise_registry(registry));
    if let Some(suffix) = key.strip_prefix("*.") {
        return registry
            .strip_suffix(suffix)
            .is_some_and(|head| head.ends_with('.') && !head[..head.len() - 1].contains('.'));
    }
    key == registry
}

pub(crate) fn registry_of(image: &str) -> String {
    match image.split_once('/') {
        Some((host, _)) if host.contains('.') || host.contains(':') || host == "localhost" => {
            host.to_string()
        }
        _ => "docker.io".to_string(),
    }
}

fn summary(cause: Cause, image: &str) -> String {
    let reg = registry_of(image);
    match cause {
        Cause::ImageNotFound => format!("Image \"{image}\" does not exist in its registry"),
        Cause::ImagePullAuth => {
            format!("Registry {reg} refuses to serve \"{image}\" without valid credentials")
        }
        Cause::ImageRegistryTls => format!("TLS verification fails for registry {reg}"),
        Cause::ImageRegistryHttp => {
            format!("Registry {reg} speaks plain HTTP but the runtime expects HTTPS")
        }
        Cause::ImageRegistryUnreachable => {
            format!("Registry {reg} cannot be reached from the node")
        }
        Cause::ImagePullRateLimited => format!("Registry {reg} rate-limits the pulls"),
        Cause::ImagePullQps => "The kubelet's own image pull rate limit was hit".into(),
        Cause::ImagePullTimeout => format!("Pulling \"{image}\" does not finish in time"),
        Cause::ImageCorrupt => {
            format!("Image \"{image}\" is incomplete or corrupt in the registry")
        }
        Cause::ImageStoreCorrupt => format!("The node's local copy of \"{image}\" is corrupt"),
        Cause::ImagePlatformMismatch => {
            format!("\"{image}\" has no variant for the node's OS/architecture")
        }
        Cause::ImageNameInvalid => format!("\"{image}\" is not a valid image reference"),
        Cause::ImageNeverPull => {
            format!("imagePullPolicy is Never and \"{image}\" is not on the node")
        }
        _ => cause.meaning().into(),
    }
}

fn why(cause: Cause) -> &'static str {
    match cause {
        Cause::ImageNotFound => {
            "The registry answered that the repository or tag does not exist: a typo, a tag never pushed, or an image deleted."
        }
        Cause::ImagePullAuth => {
            "The registry requires credentials the kubelet did not have: no imagePullSecret, a secret for another registry host, or expired credentials."
        }
        Cause::ImageRegistryTls => {
            "The container runtime does not trust the registry's certificate (self-signed or private CA)."
        }
        Cause::ImageRegistryHttp => {
            "The runtime tried HTTPS and the registry answered in plain HTTP; the runtime must be told the registry is insecure (HTTP)."
        }
        Cause::ImageRegistryUnreachable => {
            "The node cannot resolve or connect to the registry: DNS, firewall, proxy or the registry being down."
        }
        Cause::ImagePullRateLimited => {
            "The registry refuses further pulls for now (HTTP 429): anonymous Docker Hub pulls are limited per IP."
        }
        Cause::ImagePullQps => {
            "The kubelet limits pulls per second (registryPullQPS, default 5, burst 10); many pods starting at once exceed it. Retries usually succeed."
        }
        Cause::ImagePullTimeout => {
            "The pull started but did not complete before the runtime's deadline: a very large image or a slow link."
        }
        Cause::ImageCorrupt => {
            "A layer or config blob the manifest names is missing or does not match its digest: the push was incomplete."
        }
        Cause::ImageStoreCorrupt => {
            "The runtime's local image store on this node is damaged, so the image cannot be inspected or used."
        }
        Cause::ImagePlatformMismatch => {
            "The image was built for another OS/architecture than the node's."
        }
        Cause::ImageNameInvalid => {
            "The kubelet cannot parse the image reference (upper case letters, stray characters, a bad tag)."
        }
        Cause::ImageNeverPull => {
            "With imagePullPolicy: Never the kubelet only uses images already on the node."
        }
        _ => "",
    }
}

fn remediation(mut f: Finding, ctx: &Ctx, info: &PodInfo, cause: Cause, image: &str) -> Finding {
    let (ns, wl) = (info.ns(), info.workload_ref(ctx.snap));
    let reg = registry_of(image);
    let node = info
        .pod
        .spec
        .node_name
        .clone()
        .unwrap_or_else(|| "<node>".into());
    // A command's placeholder where the data does not name the image (a `get pods` row).
    let image_ref = if image.is_empty() { "IMAGE" } else { image };
    f = match cause {
        Cause::ImageNotFound => f
            .step("Check the tag exists in the registry", Some(format!("skopeo inspect docker://{image_ref}")), RiskLevel::None, "")
            .step(format!("Fix the image reference in {wl}"), Some(info.spec_change(ctx.snap, "set image {wl} <container>=<image:tag>")), RiskLevel::Low, "Rolls the workload."),
        Cause::ImagePullAuth => f
            .step("Create a pull secret for the registry", Some(format!("kubectl -n {ns} create secret docker-registry regcred --docker-server={reg} --docker-username=<user> --docker-password=<password>")), RiskLevel::Low, "The secret holds credentials: restrict who can read Secrets in the namespace.")
            .step("Reference it from the pod spec or the service account", Some(format!("kubectl -n {ns} patch serviceaccount {} -p '{{\"imagePullSecrets\":[{{\"name\":\"regcred\"}}]}}'", info.pod.spec.service_account_name.as_deref().unwrap_or("default"))), RiskLevel::Low, "Every pod of that service account will use the secret."),
        Cause::ImageRegistryTls => f
            .step(format!("Install the registry's CA on the node's runtime, e.g. /etc/containerd/certs.d/{reg}/ca.crt (containerd) or /etc/docker/certs.d/{reg}/ca.crt (docker)"), None, RiskLevel::Low, "Needed on every node that pulls from it.")
            .step("Do not switch to skipping verification unless the registry is on a trusted network", None, RiskLevel::High, "Skipping TLS verification lets anyone on the path serve you images."),
        Cause::ImageRegistryHttp => f
            .step(format!("Declare {reg} as an HTTP registry in the runtime (containerd certs.d hosts.toml with server = \"http://{reg}\", or docker insecure-registries), on every node"), None, RiskLevel::Medium, "Plain HTTP pulls can be tampered with; prefer giving the registry TLS."),
        Cause::ImageRegistryUnreachable => f
            .step(format!("From node {node}, test name resolution and the connection"), Some(format!("crictl pull {image}")), RiskLevel::None, "")
            .step("Fix DNS, proxy or firewall settings of the nodes, or mirror the image to a reachable registry", None, RiskLevel::Low, ""),
        Cause::ImagePullRateLimited => f
            .step("Authenticate pulls (a pull secret for the registry) or mirror the image to your own registry", None, RiskLevel::Low, ""),
        Cause::ImagePullQps => f
            .step("Wait: the kubelet retries with back-off and the pulls go through", None, RiskLevel::None, "")
            .step("Raise registryPullQPS / registryBurst in the kubelet configuration if it recurs", None, RiskLevel::Low, "Needs a kubelet restart; more parallel pulls load the registry and the node's disk."),
        Cause::ImagePullTimeout => f
            .step("Pre-pull the image or shrink it; check the link to the registry", Some(format!("crictl pull {image}")), RiskLevel::None, "")
            .step("Raise the kubelet's runtimeRequestTimeout (and image-pull-progress-deadline on dockershim) for very large images", None, RiskLevel::Low, "Needs a kubelet restart."),
        Cause::ImageCorrupt => f
            .step("Push the image again and pin it by digest", None, RiskLevel::Low, ""),
        Cause::ImageStoreCorrupt => f
            .step(format!("On node {node}, remove the damaged image (and the containers using it), then pull again"), Some(format!("crictl rmi {image}; crictl pull {image}")), RiskLevel::Medium, "Containers using the image must be removed first; check the node's filesystem (fsck) if it recurs."),
        Cause::ImagePlatformMismatch => f
            .step("Check which platforms the image provides", Some(format!("skopeo inspect --raw docker://{image_ref}")), RiskLevel::None, "")
            .step("Build a multi-arch image, or schedule the pod onto matching nodes with a kubernetes.io/arch nodeSelector", None, RiskLevel::Low, ""),
        Cause::ImageNameInvalid => f
            .step(format!("Correct the image reference in {wl} (lower-case repository, one tag or digest)"), None, RiskLevel::Low, "Rolls the workload."),
        Cause::ImageNeverPull => f
            .step(format!("Load the image onto node {node}, or set imagePullPolicy to IfNotPresent in {wl}"), None, RiskLevel::Low, ""),
        _ => f,
    };
    info.confirm_with_events(f)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(t: &str) -> Option<Cause> {
        classify_pull_error(t).map(|x| x.0)
    }

    #[test]
    fn runtime_wordings() {
        // A connection cut mid-request (tests/fixtures/wild 905: a firewall in front of ghcr.io).
        assert_eq!(
            c(
                "failed to pull and unpack image \"ghcr.io/fluxcd/helm-controller:v0.9.0\": failed to resolve reference \"ghcr.io/fluxcd/helm-controller:v0.9.0\": failed to do request: Head https://ghcr.io/v2/fluxcd/helm-controller/manifests/v0.9.0: EOF"
            ),
            Some(Cause::ImageRegistryUnreachable)
        );
        // The same request cancelled: containerd gave the pull up for lack of progress
        // (tests/fixtures/wild 1039, kubernetes issue 131521).
        assert_eq!(
            c(
                "failed to pull and unpack image \"private_registery.mydomain/idrac_to_kafka:20250428T1620\": failed to copy: httpReadSeeker: failed open: failed to do request: Get \"https://private_registery.mydomain/v2/csg/idrac_to_kafka/blobs/sha256:d0157ca5\": context canceled"
            ),
            Some(Cause::ImagePullTimeout)
        );
        // containerd, the real 1.20 cluster's local registry.
        assert_eq!(
            c(
                "rpc error: code = NotFound desc = failed to pull and unpack image \"localhost:5000/tools/doesnotexist:1\": failed to resolve reference \"localhost:5000/tools/doesnotexist:1\": localhost:5000/tools/doesnotexist:1: not found"
            ),
            Some(Cause::ImageNotFound)
        );
        assert_eq!(
            c(
                "Error response from daemon: manifest for nginx:l4t3st not found: manifest unknown: manifest unknown"
            ),
            Some(Cause::ImageNotFound)
        );
        assert_eq!(
            c(
                "initializing source docker://quay.io/x/y:z: reading manifest z in quay.io/x/y: manifest unknown"
            ),
            Some(Cause::ImageNotFound)
        );
        assert_eq!(
            c(
                "failed to pull and unpack image \"localhost:5443/private/busybox:1\": failed to resolve reference \"localhost:5443/private/busybox:1\": failed to do request: Head \"https://localhost:5443/v2/private/busybox/manifests/1\": x509: certificate signed by unknown authority"
            ),
            Some(Cause::ImageRegistryTls)
        );
        assert_eq!(
            c(
                "rpc error: code = Unknown desc = failed to pull and unpack image \"127.0.0.1:5443/private/busybox:1\": failed to resolve reference \"127.0.0.1:5443/private/busybox:1\": unexpected status from HEAD request to https://127.0.0.1:5443/v2/private/busybox/manifests/1: 401 Unauthorized"
            ),
            Some(Cause::ImagePullAuth)
        );
        assert_eq!(
            c(
                "Error response from daemon: pull access denied for foo, repository does not exist or may require 'docker login': denied: requested access to the resource is denied"
            ),
            Some(Cause::ImagePullAuth)
        );
        assert_eq!(
            c(
                "failed to copy: httpReadSeeker: failed open: unexpected status code https://registry-1.docker.io/v2/library/nginx/manifests/sha256:abc: 429 Too Many Requests - Server message: toomanyrequests: You have reached your pull rate limit."
            ),
            Some(Cause::ImagePullRateLimited)
        );
        assert_eq!(c("pull QPS exceeded."), Some(Cause::ImagePullQps));
        assert_eq!(
            c(
                "Error response from daemon: Get \"https://10.0.0.5:5000/v2/\": http: server gave HTTP response to HTTPS client"
            ),
            Some(Cause::ImageRegistryHttp)
        );
        assert_eq!(
            c(
                "rpc error: code = NotFound desc = failed to pull and unpack image \"x\": no match for platform in manifest: not found"
            ),
            Some(Cause::ImagePlatformMismatch)
        );
        assert_eq!(
            c("error pulling image configuration: unknown blob"),
            Some(Cause::ImageCorrupt)
        );
        assert_eq!(
            c(
                "failed to do request: Head \"https://reg.example/v2/a/manifests/1\": dial tcp: lookup reg.example on 10.96.0.10:53: no such host"
            ),
            Some(Cause::ImageRegistryUnreachable)
        );
        assert_eq!(
            c("rpc error: code = DeadlineExceeded desc = context deadline exceeded"),
            Some(Cause::ImagePullTimeout)
        );
        assert_eq!(
            c(
                "Failed to inspect image \"x\": rpc error: code = Unknown desc = Error response from daemon: readlink /mnt/disk0/docker/data/overlay2: invalid argument"
            ),
            Some(Cause::ImageStoreCorrupt)
        );
        assert_eq!(
            c("Container image \"x:1\" is not present with pull policy of Never"),
            Some(Cause::ImageNeverPull)
        );
        assert_eq!(
            c(
                "couldn't parse image reference \"Foo:bar\": invalid reference format: repository name must be lowercase"
            ),
            Some(Cause::ImageNameInvalid)
        );
        assert_eq!(c("Back-off pulling image \"x\""), None);
    }

    #[test]
    fn pull_secret_hosts_match_like_the_kubelet() {
        assert!(registry_matches("https://index.docker.io/v1/", "docker.io"));
        assert!(registry_matches("registry-1.docker.io", "docker.io"));
        assert!(registry_matches("127.0.0.1:5443", "127.0.0.1:5443"));
        assert!(!registry_matches("127.0.0.1:5443", "127.0.0.1"));
        assert!(registry_matches("*.example.com", "registry.example.com"));
        assert!(!registry_matches("*.example.com", "a.b.example.com"));
        assert!(!registry_matches("*.example.com", "example.com"));
        assert!(!registry_matches("quay.io", "ghcr.io"));
    }

    #[test]
    fn a_pull_secret_for_another_registry_is_named() {
        use base64::Engine;
        let cfg = base64::engine::general_purpose::STANDARD
            .encode(r#"{"auths":{"quay.io":{"auth":"eDp5"}}}"#);
        let yaml = format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: p, namespace: shop, creationTimestamp: '2026-11-22T09:00:00Z'}}\nspec:\n  nodeName: n1\n  imagePullSecrets: [{{name: regcred}}]\n  containers: [{{name: app, image: 'registry.example.com/shop/app:1'}}]\nstatus:\n  phase: Pending\n  containerStatuses:\n  - name: app\n    image: 'registry.example.com/shop/app:1'\n    state: {{waiting: {{reason: ImagePullBackOff, message: 'Back-off pulling image \"registry.example.com/shop/app:1\"'}}}}\n---\napiVersion: v1\nkind: Event\nmetadata: {{name: e1, namespace: shop}}\ninvolvedObject: {{kind: Pod, namespace: shop, name: p}}\nreason: Failed\ntype: Warning\nsource: {{component: kubelet}}\nlastTimestamp: '2026-11-22T09:59:00Z'\nmessage: 'Failed to pull image \"registry.example.com/shop/app:1\": rpc error: code = Unknown desc = failed to pull and unpack image \"registry.example.com/shop/app:1\": failed to resolve reference \"registry.example.com/shop/app:1\": pull access denied, repository does not exist or may require authorization: server message: insufficient_scope: authorization failed'\n---\napiVersion: v1\nkind: Secret\nmetadata: {{name: regcred, namespace: shop}}\ntype: kubernetes.io/dockerconfigjson\ndata: {{.dockerconfigjson: {cfg}}}\n"
        );
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
        let f = &d.findings[0];
        assert_eq!(f.cause, Cause::ImagePullAuth);
        let quotes: Vec<&str> = f.evidence.iter().map(|e| e.quote.as_str()).collect();
        assert!(
            quotes.contains(&"holds credentials for quay.io only, none for registry.example.com: the kubelet sends no credentials"),
            "{quotes:?}"
        );
        assert!(!format!("{d:?}").contains("eDp5"));
    }

    #[test]
    fn a_corrupt_image_names_the_node_and_its_other_users() {
        let pod = |name: &str, state: &str| {
            format!(
                "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: shop, uid: {name}, creationTimestamp: '2026-11-22T09:00:00Z'}}\nspec:\n  nodeName: node-7\n  containers: [{{name: app, image: 'registry.example.com/app:1'}}]\nstatus:\n  phase: {}\n  containerStatuses:\n  - {{name: app, image: 'registry.example.com/app:1', state: {state}}}\n---\n",
                if state.contains("running") {
                    "Running"
                } else {
                    "Pending"
                }
            )
        };
        let yaml = format!(
            "{}{}",
            pod(
                "broken",
                "{waiting: {reason: ImageInspectError, message: 'Failed to inspect image \"registry.example.com/app:1\": rpc error: code = Unknown desc = Error response from daemon: readlink /var/lib/docker/overlay2/l: invalid argument'}}"
            ),
            pod("fine", "{running: {startedAt: '2026-11-22T09:01:00Z'}}")
        );
        let d = crate::tests::diagnose_yaml(&yaml, "2026-11-22T10:00:00Z");
        assert_eq!(d.findings.len(), 1);
        let f = &d.findings[0];
        assert_eq!(f.cause, Cause::ImageStoreCorrupt);
        let e = f
            .evidence
            .iter()
            .find(|e| e.source == "other pods on node node-7 using the same image")
            .unwrap();
        assert_eq!(e.quote, "shop/fine (running)");
        assert!(f.remediation.iter().any(|s| {
            s.command
                .as_deref()
                .is_some_and(|c| c.starts_with("crictl rmi registry.example.com/app:1"))
        }));
    }

    #[test]
    fn registry_host() {
        assert_eq!(registry_of("nginx"), "docker.io");
        assert_eq!(registry_of("library/nginx:1"), "docker.io");
        assert_eq!(registry_of("localhost:5000/tools/x:1"), "localhost:5000");
        assert_eq!(registry_of("quay.io/a/b"), "quay.io");
    }
}
