//! The recorder at work: what the watches see taken in (`Intake`), batched, committed at least
//! every `COMMIT_EVERY` (a kill loses at most that), pruned every ten minutes, until told to stop
//! (the last batch committed) or every watch has stopped. The source of sightings is a function,
//! so the loop knows nothing of the runtime that feeds it.

use crate::{Error, Intake, Op, Recorder, Retention};
use kubewhy_model::history::Seen;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Writes are committed at least this often.
pub const COMMIT_EVERY: Duration = Duration::from_millis(500);

/// A batch is committed early when it holds this many writes.
const BATCH_MAX: usize = 2000;

/// Retention runs this often.
const PRUNE_EVERY: Duration = Duration::from_secs(600);

/// What the source of sightings gave when asked to wait at most some time.
#[allow(clippy::large_enum_variant)] // handed over one at a time, never stored
pub enum Next {
    /// Something the watches saw.
    Seen(Seen),
    /// Nothing within the time given.
    Waited,
    /// Every watch has stopped: nothing more will come.
    Closed,
}

/// Records what `next` gives until `stop` is set or `next` says `Closed` (an error: the recorder
/// is meant to run as long as the watches). `say` gets the lines worth saying on stderr (they
/// quote the API server: sanitize them).
pub fn record(
    rec: &mut Recorder,
    retention: Retention,
    mut next: impl FnMut(Duration) -> Next,
    stop: &AtomicBool,
    mut say: impl FnMut(String),
) -> Result<(), Error> {
    let mut pending: Vec<Op> = Vec::new();
    let mut intake = Intake::default();
    let mut last_commit = Instant::now();
    let mut last_prune = Instant::now();
    loop {
        let stopping = stop.load(Ordering::Relaxed);
        match next(COMMIT_EVERY.saturating_sub(last_commit.elapsed())) {
            Next::Seen(seen) => {
                let taken = intake.take(seen);
                pending.extend(taken.op);
                if let Some(line) = taken.say {
                    say(line);
                }
            }
            Next::Closed => {
                rec.write(&pending)?;
                return Err(Error::WatchesStopped);
            }
            Next::Waited => {}
        }
        if !pending.is_empty()
            && (stopping || last_commit.elapsed() >= COMMIT_EVERY || pending.len() >= BATCH_MAX)
        {
            rec.write(&pending)?;
            pending.clear();
            last_commit = Instant::now();
        } else if pending.is_empty() {
            last_commit = Instant::now();
        }
        if stopping {
            return Ok(());
        }
        if last_prune.elapsed() > PRUNE_EVERY {
            let dropped = rec.prune(retention, jiff::Timestamp::now())?;
            if dropped > 0 {
                say(format!("retention dropped {dropped} old pod(s)"));
            }
            last_prune = Instant::now();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_model::history::PodRecord;

    fn gone(name: &str) -> Seen {
        Seen::PodGone(Box::new(PodRecord {
            namespace: "shop".into(),
            name: name.into(),
            uid: format!("uid-{name}"),
            node: "node-1".into(),
            phase: "Running".into(),
            deleted: "2026-11-26T10:00:31Z".parse().ok(),
            ..Default::default()
        }))
    }

    /// A recorder in a directory removed when the returned guard is dropped.
    fn db() -> (tempfile::TempDir, Recorder) {
        let dir = tempfile::tempdir().unwrap();
        let rec = Recorder::open(&dir.path().join("rec.db")).unwrap();
        (dir, rec)
    }

    #[test]
    fn what_arrived_before_the_stop_is_committed_with_the_last_batch() {
        let (_dir, mut rec) = db();
        let stop = AtomicBool::new(false);
        let mut script = vec![gone("web-1"), gone("web-2"), gone("web-3")].into_iter();
        record(
            &mut rec,
            Retention::default(),
            |_| match script.next() {
                Some(s) => Next::Seen(s),
                None => {
                    stop.store(true, Ordering::Relaxed);
                    Next::Waited
                }
            },
            &stop,
            |_| {},
        )
        .unwrap();
        let names: Vec<String> = rec
            .read(None)
            .unwrap()
            .pods
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names.len(), 3, "{names:?}");
        for n in ["web-1", "web-2", "web-3"] {
            assert!(names.contains(&n.to_string()), "{n} in {names:?}");
        }
    }

    #[test]
    fn watches_that_stop_end_the_recorder_with_an_error_and_what_came_is_kept() {
        let (_dir, mut rec) = db();
        let stop = AtomicBool::new(false);
        let mut script = vec![Next::Seen(gone("web-1")), Next::Closed].into_iter();
        let said = record(
            &mut rec,
            Retention::default(),
            |_| script.next().unwrap(),
            &stop,
            |_| {},
        );
        assert!(matches!(said, Err(Error::WatchesStopped)), "{said:?}");
        assert_eq!(rec.read(None).unwrap().pods.len(), 1);
    }

    #[test]
    fn a_failing_watch_is_said_through_say() {
        let (_dir, mut rec) = db();
        let stop = AtomicBool::new(false);
        let mut n = 0;
        let mut lines = Vec::new();
        record(
            &mut rec,
            Retention::default(),
            |_| {
                n += 1;
                if n > 3 {
                    stop.store(true, Ordering::Relaxed);
                    return Next::Waited;
                }
                Next::Seen(Seen::Health {
                    kind: "pods",
                    error: Some("HTTP 403".into()),
                })
            },
            &stop,
            |l| lines.push(l),
        )
        .unwrap();
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert!(lines[0].contains("HTTP 403"), "{lines:?}");
    }
}
