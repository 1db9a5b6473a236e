//! `Failed to create pod sandbox: …`: which part of sandbox creation failed (the CNI plugin,
//! the pause image, the OCI runtime, a memory limit too small to start anything).

/// Which part of sandbox creation failed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Part {
    /// The CNI plugin: not installed, not configured, out of addresses, or failing.
    Network,
    /// The sandbox (pause) image cannot be pulled.
    Image,
    /// The memory limit is too small for the container's init process.
    MemoryTooSmall,
    /// runc / the OCI runtime refused to create the container.
    Runtime,
    /// The node's image store lost content of the sandbox image it still lists (a layer, a
    /// blob): unpacking it fails.
    ImageStore,
    Other,
}

/// Classifies the error of a `Failed to create pod sandbox: …` message.
pub fn classify(msg: &str) -> Part {
    let m = msg.to_ascii_lowercase();
    if m.contains("memory limit too low")
        || m.contains("container init was oom-killed")
        || (m.contains("unable to apply cgroup configuration")
            && m.contains("cannot allocate memory"))
    {
        return Part::MemoryTooSmall;
    }
    let network = [
        "failed to setup network",
        "failed to set up sandbox container",
        "networkplugin cni failed",
        "cni plugin not initialized",
        "cni config uninitialized",
        "failed to find plugin",
        "no ip addresses available",
        "failed to allocate for range",
        "plugin type=",
        "network plugin is not ready",
        "failed to set up pod",
    ];
    if network.iter().any(|n| m.contains(n)) {
        return Part::Network;
    }
    // The catalogue's image-store wordings all name the store (a snapshot, the content store):
    // only those messages go through it.
    if (m.contains("snapshot") || m.contains("content store"))
        && super::known::find(msg).is_some_and(|(e, _)| e.cause == crate::Cause::ImageStoreCorrupt)
    {
        return Part::ImageStore;
    }
    if m.contains("sandbox image")
        || m.contains("pause")
            && (m.contains("pull") || m.contains("not found") || m.contains("unauthorized"))
    {
        return Part::Image;
    }
    if m.contains("oci runtime")
        || m.contains("runc create failed")
        || m.contains("failed to create containerd task")
        || m.contains("failed to start sandbox container")
    {
        return Part::Runtime;
    }
    Part::Other
}
