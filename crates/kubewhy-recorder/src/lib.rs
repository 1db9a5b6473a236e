//! The flight recorder's database: an embedded SQLite file in WAL mode that keeps, for every
//! deleted pod, its last status, owner, node, the events seen for it and the likely initiator,
//! and the deletions of the objects that explain pods' (owners, nodes, namespaces).
//!
//! Durability: writes arrive in batches, one transaction each, committed at least every second
//! by the writer (see `kubewhy watch`); WAL mode means a killed process loses only the
//! uncommitted batch and never leaves a torn database. `synchronous=NORMAL` keeps commits
//! cheap: in WAL mode it can lose the last commits on power loss, not on a process crash.
//!
//! Schema: versioned with `PRAGMA user_version`; `MIGRATIONS[i]` takes version i to i+1. A
//! database written by a newer kubewhy is refused, not modified.

mod intake;
mod session;
pub use intake::{Intake, RECENT_OBJECTS, Taken};
pub use session::{COMMIT_EVERY, Next, record};

use jiff::Timestamp;
use kubewhy_model::history::{ObjectRecord, PodRecord, RecordedEvent, ScaleRecord};
use rusqlite::{Connection, OpenFlags, OptionalExtension, params};
use std::path::Path;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("{path}: {source}")]
    Sqlite {
        path: String,
        #[source]
        source: rusqlite::Error,
    },
    #[error(
        "{path}: schema version {found} was written by a newer kubewhy (this one knows up to {known}); not touching it"
    )]
    TooNew {
        path: String,
        found: i64,
        known: i64,
    },
    #[error("{path}: not a kubewhy flight recorder database ({detail})")]
    NotRecorder { path: String, detail: String },
    #[error("every watch stopped")]
    WatchesStopped,
}

/// Each entry takes the schema from version i to i+1.
const MIGRATIONS: &[&str] = &[
    // 1: deleted pods, their events, deleted objects.
    "CREATE TABLE pods (
        uid TEXT PRIMARY KEY,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        deleted TEXT,
        initiator TEXT NOT NULL DEFAULT '',
        record TEXT NOT NULL
    );
    CREATE INDEX pods_by_name ON pods(namespace, name);
    CREATE INDEX pods_by_deleted ON pods(deleted);
    CREATE TABLE events (
        event_uid TEXT PRIMARY KEY,
        pod_uid TEXT NOT NULL,
        namespace TEXT NOT NULL,
        pod TEXT NOT NULL,
        time TEXT,
        record TEXT NOT NULL
    );
    CREATE INDEX events_by_pod ON events(pod_uid);
    CREATE INDEX events_by_name ON events(namespace, pod);
    CREATE TABLE objects (
        uid TEXT PRIMARY KEY,
        kind TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        deleted TEXT,
        record TEXT NOT NULL
    );
    CREATE INDEX objects_by_deleted ON objects(deleted);
    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    INSERT INTO meta VALUES ('application', 'kubewhy flight recorder');",
    // 2: changes of workloads' desired replicas (what explains a scale-down's pods).
    "CREATE TABLE scalings (
        id INTEGER PRIMARY KEY,
        kind TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        at TEXT,
        record TEXT NOT NULL
    );
    CREATE INDEX scalings_by_at ON scalings(at);
    CREATE INDEX scalings_by_namespace ON scalings(namespace);",
];

/// The schema version this build writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// How much history is kept.
#[derive(Debug, Clone, Copy)]
pub struct Retention {
    /// Deleted pods, their events and deleted objects older than this are dropped.
    pub max_age: jiff::SignedDuration,
    /// At most this many deleted pods are kept (oldest dropped first).
    pub max_pods: u64,
}

impl Default for Retention {
    fn default() -> Self {
        Retention {
            max_age: jiff::SignedDuration::from_hours(24 * 14),
            max_pods: 200_000,
        }
    }
}

/// One thing to write.
#[derive(Debug, Clone)]
#[allow(clippy::large_enum_variant)] // built and written at once, never stored in bulk
pub enum Op {
    /// A pod was deleted: its last state (events are written separately, as they come).
    PodDeleted(Box<PodRecord>),
    /// An event about a pod (upserted by the event's uid: a repeated event updates its count).
    Event {
        event_uid: String,
        pod_uid: String,
        namespace: String,
        pod: String,
        event: RecordedEvent,
    },
    /// An owner, node or namespace was deleted.
    ObjectDeleted(Box<ObjectRecord>),
    /// A workload's desired replicas changed.
    Scaled(Box<ScaleRecord>),
}

/// What was read back.
#[derive(Debug, Default)]
pub struct Recorded {
    pub pods: Vec<PodRecord>,
    pub objects: Vec<ObjectRecord>,
    pub scalings: Vec<ScaleRecord>,
}

pub struct Recorder {
    conn: Connection,
    path: String,
}

fn ts(t: Option<Timestamp>) -> Option<String> {
    t.map(|t| t.to_string())
}

impl Recorder {
    /// Opens (creating if needed) the database for writing, migrating it to this version.
    pub fn open(path: &Path) -> Result<Recorder, Error> {
        let name = path.display().to_string();
        let e = |source| Error::Sqlite {
            path: name.clone(),
            source,
        };
        let conn = Connection::open(path).map_err(e)?;
        conn.busy_timeout(std::time::Duration::from_secs(5))
            .map_err(e)?;
        // WAL: readers (kubewhy gone) never block the writer, and a kill mid-write cannot tear.
        conn.pragma_update(None, "journal_mode", "WAL").map_err(e)?;
        conn.pragma_update(None, "synchronous", "NORMAL")
            .map_err(e)?;
        let mut r = Recorder { conn, path: name };
        r.migrate()?;
        Ok(r)
    }

    /// Opens an existing database to read it (`kubewhy gone --record`), without changing it.
    pub fn open_read_only(path: &Path) -> Result<Recorder, Error> {
        let name = path.display().to_string();
        if !path.exists() {
            return Err(Error::NotRecorder {
                path: name,
                detail: "no such file".into(),
            });
        }
        let conn = Connection::open_with_flags(
            path,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )
        .map_err(|source| Error::Sqlite {
            path: name.clone(),
            source,
        })?;
        let _ = conn.busy_timeout(std::time::Duration::from_secs(5));
        let r = Recorder { conn, path: name };
        let v = r.version()?;
        if v > SCHEMA_VERSION {
            return Err(Error::TooNew {
                path: r.path,
                found: v,
                known: SCHEMA_VERSION,
            });
        }
        let app: Option<String> = r
            .conn
            .query_row(
                "SELECT value FROM meta WHERE key = 'application'",
                [],
                |row| row.get(0),
            )
            .optional()
            .map_err(|e| Error::NotRecorder {
                path: r.path.clone(),
                detail: e.to_string(),
            })?;
        if app.as_deref() != Some("kubewhy flight recorder") {
            return Err(Error::NotRecorder {
                path: r.path,
                detail: "no kubewhy marker".into(),
            });
        }
        Ok(r)
    }

    fn err(&self, source: rusqlite::Error) -> Error {
        Error::Sqlite {
            path: self.path.clone(),
            source,
        }
    }

    /// The schema version of the file.
    pub fn version(&self) -> Result<i64, Error> {
        self.conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .map_err(|e| self.err(e))
    }

    fn migrate(&mut self) -> Result<(), Error> {
        let v = self.version()?;
        if v > SCHEMA_VERSION {
            return Err(Error::TooNew {
                path: self.path.clone(),
                found: v,
                known: SCHEMA_VERSION,
            });
        }
        for (i, sql) in MIGRATIONS.iter().enumerate().skip(v as usize) {
            let tx = self.conn.transaction().map_err(|e| Error::Sqlite {
                path: self.path.clone(),
                source: e,
            })?;
            tx.execute_batch(sql)
                .and_then(|_| tx.pragma_update(None, "user_version", (i + 1) as i64))
                .and_then(|_| tx.commit())
                .map_err(|e| Error::Sqlite {
                    path: self.path.clone(),
                    source: e,
                })?;
        }
        Ok(())
    }

    /// Writes a batch in one transaction: all of it or none of it.
    pub fn write(&mut self, ops: &[Op]) -> Result<(), Error> {
        let path = self.path.clone();
        let e = |source| Error::Sqlite {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(e)?;
        for op in ops {
            match op {
                Op::PodDeleted(r) => {
                    let mut row = (**r).clone();
                    row.events.clear();
                    let json = serde_json::to_string(&row).unwrap_or_default();
                    tx.execute(
                        "INSERT INTO pods (uid, namespace, name, deleted, initiator, record)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                         ON CONFLICT(uid) DO UPDATE SET deleted = excluded.deleted,
                           initiator = excluded.initiator, record = excluded.record",
                        params![r.uid, r.namespace, r.name, ts(r.deleted), r.initiator, json],
                    )
                    .map_err(e)?;
                }
                Op::Event {
                    event_uid,
                    pod_uid,
                    namespace,
                    pod,
                    event,
                } => {
                    let json = serde_json::to_string(event).unwrap_or_default();
                    tx.execute(
                        "INSERT INTO events (event_uid, pod_uid, namespace, pod, time, record)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                         ON CONFLICT(event_uid) DO UPDATE SET time = excluded.time,
                           record = excluded.record",
                        params![event_uid, pod_uid, namespace, pod, ts(event.time), json],
                    )
                    .map_err(e)?;
                }
                Op::Scaled(r) => {
                    let json = serde_json::to_string(r).unwrap_or_default();
                    tx.execute(
                        "INSERT INTO scalings (kind, namespace, name, at, record)
                         VALUES (?1, ?2, ?3, ?4, ?5)",
                        params![r.kind, r.namespace, r.name, ts(r.at), json],
                    )
                    .map_err(e)?;
                }
                Op::ObjectDeleted(o) => {
                    let json = serde_json::to_string(o).unwrap_or_default();
                    tx.execute(
                        "INSERT OR REPLACE INTO objects (uid, kind, namespace, name, deleted, record)
                         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
                        params![o.uid, o.kind, o.namespace, o.name, ts(o.deleted), json],
                    )
                    .map_err(e)?;
                }
            }
        }
        tx.commit().map_err(e)
    }

    /// Drops what the retention no longer covers; returns the number of pods dropped.
    pub fn prune(&mut self, retention: Retention, now: Timestamp) -> Result<usize, Error> {
        let cutoff = (now - retention.max_age).to_string();
        let path = self.path.clone();
        let e = |source| Error::Sqlite {
            path: path.clone(),
            source,
        };
        let tx = self.conn.transaction().map_err(e)?;
        let mut dropped = tx
            .execute("DELETE FROM pods WHERE deleted < ?1", params![cutoff])
            .map_err(e)?;
        dropped += tx
            .execute(
                "DELETE FROM pods WHERE uid IN (SELECT uid FROM pods ORDER BY deleted DESC LIMIT -1 OFFSET ?1)",
                params![retention.max_pods as i64],
            )
            .map_err(e)?;
        // Events of pods no longer kept, and events of live pods older than the retention.
        tx.execute(
            "DELETE FROM events WHERE time < ?1
               OR (pod_uid NOT IN (SELECT uid FROM pods) AND time IS NULL)",
            params![cutoff],
        )
        .map_err(e)?;
        tx.execute("DELETE FROM objects WHERE deleted < ?1", params![cutoff])
            .map_err(e)?;
        tx.execute("DELETE FROM scalings WHERE at < ?1", params![cutoff])
            .map_err(e)?;
        tx.commit().map_err(e)?;
        Ok(dropped)
    }

    /// The recorded history of a namespace (or of all, with `None`), with each pod's events.
    pub fn read(&self, namespace: Option<&str>) -> Result<Recorded, Error> {
        let ns = namespace.unwrap_or("");
        let all = namespace.is_none();
        let mut pods: Vec<PodRecord> = self.records(
            "SELECT record FROM pods WHERE ?1 OR namespace = ?2 ORDER BY deleted",
            params![all, ns],
        )?;
        for p in &mut pods {
            p.events = self.records(
                "SELECT record FROM events WHERE pod_uid = ?1 OR (pod_uid = '' AND namespace = ?2 AND pod = ?3) ORDER BY time",
                params![p.uid, p.namespace, p.name],
            )?;
        }
        let objects = self.records(
            "SELECT record FROM objects WHERE ?1 OR namespace = ?2 OR namespace = '' ORDER BY deleted",
            params![all, ns],
        )?;
        let scalings = self.records(
            "SELECT record FROM scalings WHERE ?1 OR namespace = ?2 ORDER BY at",
            params![all, ns],
        )?;
        Ok(Recorded {
            pods,
            objects,
            scalings,
        })
    }

    /// The JSON `record` column of a query's rows, decoded; rows that do not decode (written
    /// by another version) are skipped.
    fn records<T: serde::de::DeserializeOwned>(
        &self,
        sql: &str,
        params: impl rusqlite::Params,
    ) -> Result<Vec<T>, Error> {
        let mut stmt = self.conn.prepare_cached(sql).map_err(|e| self.err(e))?;
        let rows = stmt
            .query_map(params, |r| r.get::<_, String>(0))
            .map_err(|e| self.err(e))?;
        let mut out = Vec::new();
        for row in rows {
            let json = row.map_err(|e| self.err(e))?;
            if let Ok(v) = serde_json::from_str(&json) {
                out.push(v);
            }
        }
        Ok(out)
    }

    /// Counts of rows: (deleted pods, events, deleted objects).
    pub fn counts(&self) -> Result<(u64, u64, u64), Error> {
        let q = |sql: &str| -> Result<u64, Error> {
            self.conn
                .query_row(sql, [], |r| r.get::<_, i64>(0))
                .map(|n| n as u64)
                .map_err(|e| self.err(e))
        };
        Ok((
            q("SELECT count(*) FROM pods")?,
            q("SELECT count(*) FROM events")?,
            q("SELECT count(*) FROM objects")?,
        ))
    }

    /// `PRAGMA integrity_check`'s verdict ("ok" when sound).
    pub fn integrity(&self) -> Result<String, Error> {
        self.conn
            .query_row("PRAGMA integrity_check", [], |r| r.get(0))
            .map_err(|e| self.err(e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pod(ns: &str, name: &str, uid: &str, deleted: &str) -> PodRecord {
        PodRecord {
            namespace: ns.into(),
            name: name.into(),
            uid: uid.into(),
            phase: "Succeeded".into(),
            deleted: deleted.parse().ok(),
            initiator: "pod-gc-threshold".into(),
            ..Default::default()
        }
    }

    /// A database path in a directory removed when the returned guard is dropped.
    fn tmp() -> (tempfile::TempDir, std::path::PathBuf) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rec.db");
        (dir, path)
    }

    #[test]
    fn replica_changes_are_kept_per_namespace_and_pruned_by_age() {
        let (_dir, path) = tmp();
        let mut r = Recorder::open(&path).unwrap();
        let scaled = |ns: &str, at: &str| {
            Op::Scaled(Box::new(ScaleRecord {
                kind: "Deployment".into(),
                namespace: ns.into(),
                name: "big-0".into(),
                uid: "d".into(),
                owner: None,
                from: 200,
                to: 0,
                at: at.parse().ok(),
                by: "kubectl-edit".into(),
            }))
        };
        r.write(&[
            scaled("scale", "2026-11-20T10:00:00Z"),
            scaled("scale", "2026-11-01T10:00:00Z"),
            scaled("other", "2026-11-20T10:00:00Z"),
        ])
        .unwrap();
        let got = r.read(Some("scale")).unwrap().scalings;
        assert_eq!(got.len(), 2);
        assert_eq!(
            (got[1].from, got[1].to, got[1].by.as_str()),
            (200, 0, "kubectl-edit")
        );
        r.prune(
            Retention::default(),
            "2026-11-20T12:00:00Z".parse().unwrap(),
        )
        .unwrap();
        assert_eq!(
            r.read(None).unwrap().scalings.len(),
            2,
            "the 19-day-old one goes"
        );
    }

    #[test]
    fn writes_reads_and_keeps_events_beyond_their_ttl() {
        let (_dir, path) = tmp();
        let mut r = Recorder::open(&path).unwrap();
        assert_eq!(r.version().unwrap(), SCHEMA_VERSION);
        let ev = |count| Op::Event {
            event_uid: "e1".into(),
            pod_uid: "u1".into(),
            namespace: "shop".into(),
            pod: "web-1".into(),
            event: RecordedEvent {
                time: "2026-11-20T10:00:00Z".parse().ok(),
                type_: "Warning".into(),
                reason: "BackOff".into(),
                source: "kubelet".into(),
                message: "Back-off restarting failed container".into(),
                count,
            },
        };
        r.write(&[ev(1), ev(7)]).unwrap();
        r.write(&[Op::PodDeleted(Box::new(pod(
            "shop",
            "web-1",
            "u1",
            "2026-11-20T11:00:00Z",
        )))])
        .unwrap();
        r.write(&[Op::PodDeleted(Box::new(pod(
            "other",
            "x",
            "u2",
            "2026-11-20T11:00:00Z",
        )))])
        .unwrap();
        drop(r);
        let r = Recorder::open_read_only(&path).unwrap();
        let got = r.read(Some("shop")).unwrap();
        assert_eq!(got.pods.len(), 1);
        assert_eq!(got.pods[0].name, "web-1");
        assert_eq!(got.pods[0].events.len(), 1, "one event, its count updated");
        assert_eq!(got.pods[0].events[0].count, 7);
        assert_eq!(r.read(None).unwrap().pods.len(), 2);
    }

    #[test]
    fn retention_drops_the_oldest() {
        let (_dir, path) = tmp();
        let mut r = Recorder::open(&path).unwrap();
        let ops: Vec<Op> = (0..10)
            .map(|i| {
                Op::PodDeleted(Box::new(pod(
                    "ns",
                    &format!("p{i}"),
                    &format!("u{i}"),
                    &format!("2026-11-{:02}T00:00:00Z", 10 + i),
                )))
            })
            .collect();
        r.write(&ops).unwrap();
        let keep = Retention {
            max_age: jiff::SignedDuration::from_hours(24 * 5),
            max_pods: 3,
        };
        // now = 11-20: pods deleted before 11-15 are too old (5), then only the newest 3 stay.
        let dropped = r
            .prune(keep, "2026-11-20T00:00:00Z".parse().unwrap())
            .unwrap();
        assert_eq!(dropped, 7);
        let names: Vec<String> = r
            .read(None)
            .unwrap()
            .pods
            .into_iter()
            .map(|p| p.name)
            .collect();
        assert_eq!(names, vec!["p7", "p8", "p9"]);
    }

    #[test]
    fn a_newer_schema_is_refused_and_foreign_files_named() {
        let (_dir, path) = tmp();
        let r = Recorder::open(&path).unwrap();
        r.conn.pragma_update(None, "user_version", 99).unwrap();
        drop(r);
        let e = Recorder::open(&path).err().unwrap().to_string();
        assert!(
            e.contains("schema version 99 was written by a newer kubewhy"),
            "{e}"
        );
        let e = Recorder::open_read_only(&path).err().unwrap().to_string();
        assert!(e.contains("newer kubewhy"), "{e}");

        let (_foreign_dir, foreign) = tmp();
        std::fs::write(&foreign, b"this is not sqlite").unwrap();
        let e = Recorder::open_read_only(&foreign)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("rec.db"), "{e}");
    }
}
