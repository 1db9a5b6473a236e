//! The recorder survives being killed mid-write: a child process writes batches as fast as it
//! can, reporting each committed batch on stdout; it is killed with SIGKILL while writing. The
//! database must pass SQLite's integrity check, hold every batch the child reported committed,
//! and hold whole batches only (a transaction is all or nothing).

use kubewhy_model::history::PodRecord;
use kubewhy_recorder::{Op, Recorder};
use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BATCH: usize = 50;

/// The child's body: `killed_mid_write_…` starts the test binary on this test alone, with
/// `--ignored` and KUBEWHY_KILL_CHILD naming the database.
#[test]
#[ignore = "the child process of killed_mid_write_loses_nothing_committed_and_never_corrupts"]
fn child_writer() {
    let path = std::env::var("KUBEWHY_KILL_CHILD")
        .expect("KUBEWHY_KILL_CHILD: the database to write (this test is the kill test's child)");
    let mut r = Recorder::open(std::path::Path::new(&path)).unwrap();
    for batch in 0.. {
        let ops: Vec<Op> = (0..BATCH)
            .map(|i| {
                let n = batch * BATCH + i;
                Op::PodDeleted(Box::new(PodRecord {
                    namespace: "load".into(),
                    name: format!("pod-{n}"),
                    uid: format!("uid-{n}"),
                    phase: "Succeeded".into(),
                    message: "x".repeat(300),
                    deleted: Some(jiff::Timestamp::now()),
                    ..Default::default()
                }))
            })
            .collect();
        r.write(&ops).unwrap();
        println!("committed {}", (batch + 1) * BATCH);
    }
}

#[test]
fn killed_mid_write_loses_nothing_committed_and_never_corrupts() {
    // Tens of MB per run, removed when the test ends, failing or not.
    let dir = tempfile::tempdir().unwrap();
    let db = dir.path().join("rec.db");
    for round in 0..3 {
        let mut child = Command::new(std::env::current_exe().unwrap())
            .args([
                "--exact",
                "child_writer",
                "--ignored",
                "--nocapture",
                "--test-threads=1",
            ])
            .env("KUBEWHY_KILL_CHILD", &db)
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let stdout = child.stdout.take().unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                if let Some(n) = line.strip_prefix("committed ") {
                    let _ = tx.send(n.parse::<u64>().unwrap());
                }
            }
        });
        // Let it write for a while (a few hundred batches), then kill it mid-stream.
        let start = Instant::now();
        let mut committed = 0;
        while start.elapsed() < Duration::from_millis(700 + round * 300) {
            if let Ok(n) = rx.recv_timeout(Duration::from_millis(50)) {
                committed = n;
            }
        }
        child.kill().unwrap(); // SIGKILL
        child.wait().unwrap();
        while let Ok(n) = rx.try_recv() {
            committed = committed.max(n);
        }
        assert!(committed > 0, "the child never committed");

        let r = Recorder::open_read_only(&db).unwrap();
        assert_eq!(r.integrity().unwrap(), "ok");
        let (pods, _, _) = r.counts().unwrap();
        // Each round starts numbering at 0 again and upserts by uid: rows = the most any round
        // committed, which is at least what this round reported.
        assert!(
            pods >= committed,
            "round {round}: {pods} rows but {committed} reported committed"
        );
        assert_eq!(
            pods % BATCH as u64,
            0,
            "a partial batch was written: {pods} rows"
        );
    }
}
