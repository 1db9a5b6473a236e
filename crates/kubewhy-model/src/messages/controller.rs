//! The workload controllers' own words about the pods they remove and the ReplicaSets they
//! scale: what tells a pod removed because its owner wants fewer (`scaled-down`) or newer
//! (`rollout-replaced`) pods from one deleted by anybody else.
//!
//! - ReplicaSet, ReplicationController, DaemonSet and Job controllers: `SuccessfulDelete`
//!   `Deleted pod: NAME` (the event correlator folds more than ten similar events within ten
//!   minutes into one, `(combined from similar events): Deleted pod: NAME`, which names the last);
//! - StatefulSet controller: `SuccessfulDelete` `delete Pod NAME in StatefulSet SET successful`;
//! - Deployment controller: `ScalingReplicaSet` `Scaled down replica set NAME to N` (≤ 1.25),
//!   `Scaled down replica set NAME to N from M` (1.26+), and `Scaled up …` alike.

/// The event correlator's prefix on an aggregated event.
const COMBINED: &str = "(combined from similar events): ";

/// The service accounts of kube-controller-manager's workload controllers, which delete the
/// pods their objects no longer want.
pub const WORKLOAD_CONTROLLERS: &[&str] = &[
    "system:serviceaccount:kube-system:replicaset-controller",
    "system:serviceaccount:kube-system:statefulset-controller",
    "system:serviceaccount:kube-system:replication-controller",
    "system:serviceaccount:kube-system:daemon-set-controller",
    "system:serviceaccount:kube-system:job-controller",
];

/// The pod a `SuccessfulDelete` event's message says its controller deleted.
pub fn deleted_pod(message: &str) -> Option<&str> {
    let m = message.strip_prefix(COMBINED).unwrap_or(message).trim();
    if let Some(name) = m.strip_prefix("Deleted pod: ") {
        return Some(name.trim()).filter(|n| !n.is_empty() && !n.contains(' '));
    }
    let rest = m.strip_prefix("delete Pod ")?;
    let (name, tail) = rest.split_once(" in StatefulSet ")?;
    tail.ends_with(" successful").then_some(name)
}

/// A Deployment controller's `ScalingReplicaSet` message: (down?, ReplicaSet, to, from when
/// the wording says it).
pub fn scaled_replica_set(message: &str) -> Option<(bool, &str, i64, Option<i64>)> {
    let m = message.strip_prefix(COMBINED).unwrap_or(message).trim();
    let (down, rest) = if let Some(r) = m.strip_prefix("Scaled down replica set ") {
        (true, r)
    } else {
        (false, m.strip_prefix("Scaled up replica set ")?)
    };
    let (rs, counts) = rest.split_once(" to ")?;
    let (to, from) = match counts.split_once(" from ") {
        Some((to, from)) => (to.trim().parse().ok()?, Some(from.trim().parse().ok()?)),
        None => (counts.trim().parse().ok()?, None),
    };
    Some((down, rs, to, from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_wording_of_a_controller_deleting_its_pod() {
        assert_eq!(
            deleted_pod("Deleted pod: web-5d8f7c9b6-xk2p9"),
            Some("web-5d8f7c9b6-xk2p9")
        );
        assert_eq!(
            deleted_pod("(combined from similar events): Deleted pod: big-3-5d8f-abcde"),
            Some("big-3-5d8f-abcde")
        );
        assert_eq!(
            deleted_pod("delete Pod db-2 in StatefulSet db successful"),
            Some("db-2")
        );
        assert_eq!(deleted_pod("Created pod: web-1"), None);
        assert_eq!(
            deleted_pod("delete Pod db-2 in StatefulSet db failed error: x"),
            None
        );
    }

    #[test]
    fn the_deployment_controller_scaling_its_replica_sets() {
        assert_eq!(
            scaled_replica_set("Scaled down replica set web-6846c969fd to 0"),
            Some((true, "web-6846c969fd", 0, None))
        );
        assert_eq!(
            scaled_replica_set("Scaled down replica set deployment-6846c969fd to 2 from 3"),
            Some((true, "deployment-6846c969fd", 2, Some(3)))
        );
        assert_eq!(
            scaled_replica_set("Scaled up replica set web-5b85bc8649 to 3"),
            Some((false, "web-5b85bc8649", 3, None))
        );
        assert_eq!(
            scaled_replica_set("Scaled down replica set x to many"),
            None
        );
    }
}
