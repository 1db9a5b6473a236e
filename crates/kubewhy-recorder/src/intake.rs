//! What the flight recorder makes of what the watches see: the write each sighting becomes, and
//! for a deleted pod the recorder's verdict on who removed it, judged at that moment from what
//! it saw just before (its owner's or node's deletion, a replica change, the controller's
//! "Deleted pod" event, a PodDisruptionBudget's eviction).

use crate::Op;
use kubewhy_model::history::{History, ObjectRecord, PodRecord, RecordedEvent, ScaleRecord, Seen};
use std::collections::{HashMap, VecDeque};

/// Objects deleted recently, kept in memory so a pod's deletion can be tied to its owner's.
pub const RECENT_OBJECTS: usize = 10_000;

/// What the recorder remembers between sightings (bounded: `RECENT_OBJECTS` of each).
#[derive(Debug, Default)]
pub struct Intake {
    recent: VecDeque<ObjectRecord>,
    /// Replica changes seen lately: what makes a pod its controller removed `scaled-down` (or
    /// `rollout-replaced`) when its row is written.
    scalings: VecDeque<ScaleRecord>,
    /// Controllers' "Deleted pod" events, by the pod they name: (namespace, pod).
    owner_deletes: HashMap<(String, String), RecordedEvent>,
    /// Pods a PodDisruptionBudget named as evicted: (namespace, pod) → "PDB at TIME".
    evictions: HashMap<(String, String), String>,
    /// Watches failing in a row, by kind.
    failures: HashMap<&'static str, u32>,
    /// The API server cannot be reached and that was said: every watch fails alike then, and
    /// one line says so until a watch lists again.
    unreachable_said: bool,
}

/// Whether a watch's error is the API server not answering at all (no connection), which every
/// watch meets at once, rather than an answer about one kind.
fn unreachable(e: &str) -> bool {
    let e = e.to_ascii_lowercase();
    [
        "(connect)",
        "connection refused",
        "tcp connect",
        "dns error",
        "connection reset",
        "timed out",
        "no route to host",
    ]
    .iter()
    .any(|w| e.contains(w))
}

/// What one sighting comes to.
#[derive(Debug, Default)]
pub struct Taken {
    /// The write it makes.
    pub op: Option<Op>,
    /// A line worth saying on stderr (a watch that keeps failing); it quotes the API server:
    /// sanitize it before printing.
    pub say: Option<String>,
}

impl Intake {
    pub fn take(&mut self, seen: Seen) -> Taken {
        let op = match seen {
            Seen::PodGone(mut r) => {
                let key = (r.namespace.clone(), r.name.clone());
                if let Some(e) = self.evictions.remove(&key) {
                    r.evicted_under = e;
                }
                let said = self.owner_deletes.remove(&key);
                r.initiator = self.initiator(&r, said);
                Some(Op::PodDeleted(r))
            }
            Seen::PodEvent {
                event_uid,
                pod_uid,
                namespace,
                pod,
                event,
            } => {
                // A controller's event naming the pod it deleted (kept by name): the pod's own
                // row, written next, is judged with it.
                if pod_uid.is_empty() {
                    if self.owner_deletes.len() >= RECENT_OBJECTS {
                        self.owner_deletes.clear();
                    }
                    self.owner_deletes
                        .insert((namespace.clone(), pod.clone()), event.clone());
                }
                Some(Op::Event {
                    event_uid,
                    pod_uid,
                    namespace,
                    pod,
                    event,
                })
            }
            Seen::Scaled(s) => {
                self.scalings.push_back((*s).clone());
                if self.scalings.len() > RECENT_OBJECTS {
                    self.scalings.pop_front();
                }
                Some(Op::Scaled(s))
            }
            Seen::Evicted {
                namespace,
                pod,
                pdb,
                at,
            } => {
                // Kept until the pod goes (bounded: a pod evicted and never deleted does not
                // hold memory forever).
                if self.evictions.len() >= RECENT_OBJECTS {
                    self.evictions.clear();
                }
                self.evictions
                    .insert((namespace, pod), format!("{pdb} at {at}"));
                None
            }
            Seen::ObjectGone(o) => {
                self.recent.push_back((*o).clone());
                if self.recent.len() > RECENT_OBJECTS {
                    self.recent.pop_front();
                }
                Some(Op::ObjectDeleted(o))
            }
            // A watch the API server ends is re-established at once and re-listed; only a watch
            // that keeps failing is worth a line.
            Seen::Health { kind, error: None } => {
                self.failures.remove(kind);
                if self.unreachable_said {
                    self.unreachable_said = false;
                    return Taken {
                        op: None,
                        say: Some(
                            "the API server answers again: the watches have listed anew and recording goes on".into(),
                        ),
                    };
                }
                None
            }
            Seen::Health {
                kind,
                error: Some(e),
            } if unreachable(&e) => {
                let n = self.failures.entry(kind).or_insert(0);
                *n += 1;
                // Said once for every watch, on the third failure in a row of any of them.
                let say = (*n >= 3 && !self.unreachable_said).then(|| {
                    self.unreachable_said = true;
                    format!(
                        "cannot reach the API server ({e}): every watch retries with back-off, and deletions meanwhile are recorded from the re-list when it answers"
                    )
                });
                return Taken { op: None, say };
            }
            Seen::Health {
                kind,
                error: Some(e),
            } => {
                let n = self.failures.entry(kind).or_insert(0);
                *n += 1;
                let say = (*n == 3 || n.is_multiple_of(100)).then(|| {
                    format!("watch {kind} failed {n} times in a row: {e} (retrying with backoff)")
                });
                return Taken { op: None, say };
            }
        };
        Taken { op, say: None }
    }

    /// The recorder's verdict on a deletion, from what it knows at that moment.
    fn initiator(&self, r: &PodRecord, said: Option<RecordedEvent>) -> String {
        let mut pod = r.clone();
        pod.events.extend(said);
        // Only the deletions that can explain this pod's: its namespace, its node, its
        // namespace's objects (owners). Cloning all recent ones for every deleted pod would be
        // quadratic.
        let history = History {
            pods: vec![pod],
            scalings: self
                .scalings
                .iter()
                .filter(|s| s.namespace == r.namespace)
                .cloned()
                .collect(),
            objects: self
                .recent
                .iter()
                .filter(|o| {
                    o.namespace == r.namespace
                        || (o.kind == "Namespace" && o.name == r.namespace)
                        || (o.kind == "Node" && o.name == r.node)
                })
                .cloned()
                .collect(),
            sources: vec!["flight recorder".into()],
            ..Default::default()
        };
        let q = kubewhy_rules::gone::Query {
            namespace: r.namespace.clone(),
            pod: Some(r.name.clone()),
            owner: None,
            selector: None,
        };
        kubewhy_rules::gone::explain(&Default::default(), &history, &q)
            .findings
            .first()
            .map(|f| f.cause.slug().to_string())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_model::history::OwnerLink;

    fn at(s: &str) -> Option<jiff::Timestamp> {
        s.parse().ok()
    }

    fn pod(name: &str) -> Box<PodRecord> {
        Box::new(PodRecord {
            namespace: "shop".into(),
            name: name.into(),
            uid: format!("uid-{name}"),
            owner: Some(OwnerLink {
                kind: "ReplicaSet".into(),
                name: "web-5d8f".into(),
                uid: "rs-1".into(),
            }),
            node: "node-1".into(),
            phase: "Running".into(),
            deletion_seen: at("2026-11-26T10:00:00Z"),
            deletion_grace: Some(30),
            deleted: at("2026-11-26T10:00:31Z"),
            ..Default::default()
        })
    }

    fn written(t: Taken) -> Box<PodRecord> {
        match t.op {
            Some(Op::PodDeleted(r)) => r,
            other => panic!("not a pod's row: {other:?}"),
        }
    }

    #[test]
    fn a_pod_whose_owner_went_just_before_is_recorded_as_removed_with_it() {
        let mut intake = Intake::default();
        let owner = intake.take(Seen::ObjectGone(Box::new(ObjectRecord {
            kind: "ReplicaSet".into(),
            namespace: "shop".into(),
            name: "web-5d8f".into(),
            uid: "rs-1".into(),
            deleted: at("2026-11-26T09:59:58Z"),
            ..Default::default()
        })));
        assert!(matches!(owner.op, Some(Op::ObjectDeleted(_))));
        let r = written(intake.take(Seen::PodGone(pod("web-1"))));
        assert_eq!(r.initiator, "owner-deleted");
        // Without the owner's deletion the recorder cannot say who it was.
        let r = written(Intake::default().take(Seen::PodGone(pod("web-1"))));
        assert_ne!(r.initiator, "owner-deleted");
    }

    /// The pod's own last word names its end: a node shutdown, a deadline, a refusal.
    #[test]
    fn the_kubelets_own_ends_are_the_rows_verdict() {
        for (reason, message, want) in [
            (
                "Terminated",
                "Pod was terminated in response to imminent node shutdown.",
                "node-shutdown",
            ),
            (
                "DeadlineExceeded",
                "Pod was active on the node longer than the specified deadline",
                "deadline-exceeded",
            ),
            (
                "NodeAffinity",
                "Pod was rejected: Predicate NodeAffinity failed",
                "node-admission-rejected",
            ),
        ] {
            let mut p = pod("batch-1");
            p.phase = "Failed".into();
            p.reason = reason.into();
            p.message = message.into();
            let r = written(Intake::default().take(Seen::PodGone(p)));
            assert_eq!(r.initiator, want, "{reason}");
        }
    }

    #[test]
    fn an_eviction_a_budget_granted_is_kept_for_the_pod_and_used_once() {
        let mut intake = Intake::default();
        let t = intake.take(Seen::Evicted {
            namespace: "shop".into(),
            pod: "web-1".into(),
            pdb: "shop/web-pdb".into(),
            at: "2026-11-26T09:59:59Z".into(),
        });
        assert!(t.op.is_none() && t.say.is_none());
        let r = written(intake.take(Seen::PodGone(pod("web-1"))));
        assert_eq!(r.evicted_under, "shop/web-pdb at 2026-11-26T09:59:59Z");
        let again = written(intake.take(Seen::PodGone(pod("web-1"))));
        assert_eq!(again.evicted_under, "");
    }

    #[test]
    fn a_watch_failing_is_said_on_its_third_failure_in_a_row_and_every_hundredth() {
        let mut intake = Intake::default();
        let fail = |i: &mut Intake| {
            i.take(Seen::Health {
                kind: "pods",
                error: Some("HTTP 403".into()),
            })
            .say
        };
        assert_eq!(fail(&mut intake), None);
        assert_eq!(fail(&mut intake), None);
        assert_eq!(
            fail(&mut intake).as_deref(),
            Some("watch pods failed 3 times in a row: HTTP 403 (retrying with backoff)")
        );
        assert_eq!(fail(&mut intake), None);
        // A successful (re)list starts the count again.
        intake.take(Seen::Health {
            kind: "pods",
            error: None,
        });
        assert_eq!(fail(&mut intake), None);
        assert_eq!(fail(&mut intake), None);
        assert!(fail(&mut intake).is_some());
    }

    /// With the API server gone every watch fails alike: one line for all of them, in words,
    /// and one when it answers again — not a raw client error per kind.
    #[test]
    fn an_api_server_gone_is_said_once_for_every_watch() {
        let mut intake = Intake::default();
        let mut said = Vec::new();
        for _ in 0..5 {
            for kind in ["pods", "events", "nodes", "jobs", "deployments"] {
                said.extend(
                    intake
                        .take(Seen::Health {
                            kind,
                            error: Some("client error (Connect)".into()),
                        })
                        .say,
                );
            }
        }
        assert_eq!(
            said,
            [
                "cannot reach the API server (client error (Connect)): every watch retries with back-off, and deletions meanwhile are recorded from the re-list when it answers"
            ]
        );
        let back = intake.take(Seen::Health {
            kind: "pods",
            error: None,
        });
        assert_eq!(
            back.say.as_deref(),
            Some(
                "the API server answers again: the watches have listed anew and recording goes on"
            )
        );
        assert!(
            intake
                .take(Seen::Health {
                    kind: "events",
                    error: None
                })
                .say
                .is_none()
        );
    }
}
