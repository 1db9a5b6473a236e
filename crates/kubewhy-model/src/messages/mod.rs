//! The catalogue of known failure messages: every wording kubewhy recognises, from the
//! scheduler, the kubelet, the container runtimes, the volume manager, admission and the
//! controllers, in one place. The checks classify event messages, container states and node
//! log lines with it, and the paste reader recognises the same messages in whatever text
//! people paste — so a wording added once is known everywhere.
//!
//! | module | what it reads | used by |
//! |---|---|---|
//! | [`events`] | a message alone: the event (reason, involved kind) it belongs to | paste reader |
//! | [`scheduler`] | `0/N nodes are available: …` in every era; each reason → its cause | `pending`, paste |
//! | [`image`] | pull errors of containerd, dockershim, CRI-O → the image cause | `image`, paste |
//! | [`sandbox`] | `Failed to create pod sandbox: …` → the part that failed | `sandbox`, `units` |
//! | [`volume`] | missing ConfigMap / Secret (key); FailedMount / FailedAttachVolume kinds | `mounts` |
//! | [`admission`] | `Error creating: …` refusals: quota, LimitRange, Pod Security, webhooks | `creation` |
//! | [`node`] | kubelet, runtime and kernel log lines → a [`crate::node::Signal`] | node logs, paste |
//!
//! Patterns follow `kubernetes-messages.md` (the shared reference of every wording across
//! versions) and the real pastes of `tests/fixtures/wild`. Order inside each table matters: the
//! more specific wordings come first.

pub mod admission;
pub mod events;
pub mod image;
pub mod node;
pub mod sandbox;
pub mod scheduler;
pub mod volume;

/// The runtime's own error inside gRPC envelopes: kubelets before 1.28 wrote `rpc error: code =
/// Unknown desc = <error>`, nested when the error passed through several layers.
pub fn strip_rpc(msg: &str) -> &str {
    let mut m = msg;
    while let Some(i) = m.find("rpc error: code = ") {
        let rest = &m[i..];
        match rest.find(" desc = ") {
            Some(d) => m = &rest[d + " desc = ".len()..],
            None => break,
        }
    }
    m
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rpc_prefix_is_stripped() {
        assert_eq!(
            strip_rpc(
                "Failed to pull image \"x\": rpc error: code = Unknown desc = failed to pull"
            ),
            "failed to pull"
        );
        assert_eq!(strip_rpc("plain"), "plain");
    }
}
