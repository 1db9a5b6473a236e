//! Carrying out a repair plan (`kubewhy fix --apply`) and undoing it (`kubewhy fix --undo`).
//! The only code in kubewhy that changes a cluster. In order, for the whole plan:
//!
//! 1. every object is read again; one that changed since the plan (resourceVersion or uid)
//!    stops everything: nothing is written;
//! 2. every step is sent as a server-side dry run (`dryRun=All`); one refusal (a webhook, RBAC,
//!    validation) stops everything;
//! 3. every object is saved as JSON in the backup directory, with the plan and a journal;
//! 4. the writes, each carrying the plan's resourceVersion (and uid) as a precondition, so a
//!    change in the last instant fails the step (409) instead of being clobbered. The first
//!    failure stops the rest.

use kube::api::{
    Api, ApiResource, DeleteParams, DynamicObject, Patch, PatchParams, PostParams, Preconditions,
};
use kube::core::GroupVersionKind;
use kube::{Client, discovery};
pub use kubewhy_model::plan::Undone;
use kubewhy_model::plan::{Action, Journal, JournalEntry, Outcome, Plan, PlanStep, Target};
use serde::Serialize;
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The field manager written into managedFields by kubewhy's writes.
pub const FIELD_MANAGER: &str = "kubewhy";

/// Why a plan could not be carried out or undone at all. (A step the server refuses is not an
/// error of the whole: it is that step's outcome in the journal.)
#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// The server does not serve the object's kind in any version.
    #[error("{0}")]
    NotServed(String),
    /// The API server refused or failed a read.
    #[error("{}", api_message(.0))]
    Api(kube::Error),
    /// The backup directory or a file in it could not be written or read.
    #[error("{}: {io}{hint}", path.display())]
    Backup {
        path: PathBuf,
        io: std::io::Error,
        /// What the user may have meant (a directory that is not a backup).
        hint: &'static str,
    },
    /// A file of the backup directory is not what `kubewhy fix --apply` wrote.
    #[error("{}: {json}", path.display())]
    Corrupt {
        path: PathBuf,
        json: serde_json::Error,
    },
}

// Each variant says all in one line (no error chain: `kubewhy: error:` prints the chain, and
// the cause would be said twice).
impl From<kube::Error> for WriteError {
    fn from(e: kube::Error) -> Self {
        WriteError::Api(e)
    }
}

/// An API error in one line: the HTTP status and the server's message, not kube's debug dump.
fn api_message(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) => format!("HTTP {}: {}", s.code, s.message),
        e => e.to_string(),
    }
}

fn gvk(t: &Target) -> GroupVersionKind {
    let (group, version) = t
        .api_version
        .rsplit_once('/')
        .unwrap_or(("", t.api_version.as_str()));
    GroupVersionKind::gvk(group, version, &t.kind)
}

/// The API for an object's kind: from the plan's apiVersion, else any version the server
/// serves of the same group and kind (a CronJob planned as batch/v1 on a 1.20 server).
async fn api_for(client: &Client, t: &Target) -> Result<Api<DynamicObject>, WriteError> {
    let want = gvk(t);
    let resolved = match discovery::pinned_kind(client, &want).await {
        Ok(r) => Ok(r),
        Err(first) => match discovery::group(client, &want.group).await {
            Ok(g) => g.recommended_kind(&t.kind).ok_or_else(|| {
                WriteError::NotServed(format!("{} is not served: {first}", t.api_version))
            }),
            Err(_) => Err(WriteError::NotServed(format!(
                "kind {} ({}) is not served: {first}",
                t.kind, t.api_version
            ))),
        },
    };
    let (ar, caps): (ApiResource, _) = resolved?;
    Ok(if caps.scope == discovery::Scope::Namespaced {
        Api::namespaced_with(client.clone(), &t.namespace, &ar)
    } else {
        Api::all_with(client.clone(), &ar)
    })
}

/// A write's failure as its journal entry says it.
fn err(e: kube::Error) -> String {
    api_message(&e)
}

fn preconditions(t: &Target) -> Preconditions {
    Preconditions {
        resource_version: Some(t.resource_version.clone()).filter(|s| !s.is_empty()),
        uid: Some(t.uid.clone()).filter(|s| !s.is_empty()),
    }
}

/// One write (or its dry run).
async fn write(
    api: &Api<DynamicObject>,
    step: &PlanStep,
    current: &DynamicObject,
    dry_run: bool,
) -> Result<(), String> {
    let t = &step.object;
    match &step.action {
        Action::RemoveFinalizers { keep, .. } => {
            // A resourceVersion in the patch is a precondition: the server answers 409 if the
            // object changed since.
            let patch = serde_json::json!({
                "metadata": {"resourceVersion": t.resource_version, "finalizers": keep}
            });
            let pp = PatchParams {
                dry_run,
                field_manager: Some(FIELD_MANAGER.into()),
                ..Default::default()
            };
            api.patch(&t.name, &pp, &Patch::Merge(&patch))
                .await
                .map(|_| ())
                .map_err(err)
        }
        Action::Delete | Action::ForceDeletePod => {
            let dp = DeleteParams {
                dry_run,
                grace_period_seconds: matches!(step.action, Action::ForceDeletePod).then_some(0),
                preconditions: Some(preconditions(t)),
                ..Default::default()
            };
            api.delete(&t.name, &dp).await.map(|_| ()).map_err(err)
        }
        Action::FinalizeNamespace => {
            let mut body = serde_json::to_value(current).map_err(|e| e.to_string())?;
            body["spec"]["finalizers"] = Value::Array(Vec::new());
            body["metadata"]["resourceVersion"] = Value::String(t.resource_version.clone());
            let pp = PostParams {
                dry_run,
                field_manager: Some(FIELD_MANAGER.into()),
            };
            api.replace_subresource("finalize", &t.name, &pp, &body)
                .await
                .map(|_| ())
                .map_err(err)
        }
    }
}

fn file_name(i: usize, t: &Target) -> String {
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| {
                if c.is_ascii_alphanumeric() || c == '-' || c == '.' {
                    c
                } else {
                    '_'
                }
            })
            .collect()
    };
    let ns = if t.namespace.is_empty() {
        String::new()
    } else {
        format!("{}-", safe(&t.namespace))
    };
    format!(
        "{:02}-{}-{ns}{}.json",
        i + 1,
        safe(&t.kind.to_ascii_lowercase()),
        safe(&t.name)
    )
}

/// Carries out a plan. Never writes anything unless every object is unchanged since the plan
/// and every step passes its server-side dry run. Returns the journal (also saved in `backup`).
pub async fn apply(
    client: &Client,
    plan: &Plan,
    server: &str,
    backup: &Path,
) -> Result<Journal, WriteError> {
    let mut journal = Journal {
        subject: plan.subject.clone(),
        server: server.to_string(),
        applied_at: jiff::Timestamp::now().to_string(),
        entries: Vec::new(),
    };
    // 1. Read every object again: the plan's preconditions must still hold.
    let mut current: Vec<Option<(Api<DynamicObject>, DynamicObject)>> = Vec::new();
    let mut stop: Option<String> = None;
    for step in &plan.steps {
        let t = &step.object;
        let api = api_for(client, t).await?;
        match api.get_opt(&t.name).await? {
            None => current.push(None),
            Some(obj) => {
                let rv = obj.metadata.resource_version.clone().unwrap_or_default();
                let uid = obj.metadata.uid.clone().unwrap_or_default();
                if !t.uid.is_empty() && uid != t.uid {
                    stop.get_or_insert(format!(
                        "{} was replaced since the plan (uid {} → {uid}): make a new plan",
                        t.display(),
                        t.uid
                    ));
                } else if rv != t.resource_version {
                    stop.get_or_insert(format!("{} changed since the plan (resourceVersion {} → {rv}): refusing to overwrite a change kubewhy has not seen; make a new plan", t.display(), t.resource_version));
                }
                current.push(Some((api, obj)));
            }
        }
    }
    // 2. Server-side dry run of every step.
    if stop.is_none() {
        for (step, cur) in plan.steps.iter().zip(&current) {
            if let Some((api, obj)) = cur
                && let Err(e) = write(api, step, obj, true).await
            {
                stop = Some(format!(
                    "the server refused the dry run of \"{} {}\": {e}",
                    step.action.verb(),
                    step.object.display()
                ));
                break;
            }
        }
    }
    if let Some(why) = stop {
        journal.entries = plan
            .steps
            .iter()
            .map(|s| JournalEntry {
                step: s.clone(),
                backup: None,
                outcome: Outcome::NotApplied(why.clone()),
            })
            .collect();
        return Ok(journal);
    }
    // 3. Backups, before anything changes.
    std::fs::create_dir_all(backup).map_err(|io| WriteError::Backup {
        path: backup.to_path_buf(),
        io,
        hint: "",
    })?;
    let save = |name: &str, json: String| -> Result<(), WriteError> {
        let path = backup.join(name);
        std::fs::write(&path, json).map_err(|io| WriteError::Backup { path, io, hint: "" })
    };
    save("plan.json", pretty(plan))?;
    let mut files: Vec<Option<String>> = Vec::new();
    for (i, (step, cur)) in plan.steps.iter().zip(&current).enumerate() {
        match cur {
            Some((_, obj)) => {
                let name = file_name(i, &step.object);
                save(&name, pretty(obj))?;
                files.push(Some(name));
            }
            None => files.push(None),
        }
    }
    // 4. The writes, in order; the first failure stops the rest.
    let mut failed: Option<String> = None;
    for ((step, cur), file) in plan.steps.iter().zip(&current).zip(files) {
        let outcome = match (cur, &failed) {
            (_, Some(why)) => Outcome::NotApplied(format!("an earlier step failed: {why}")),
            (None, None) => Outcome::AlreadyGone,
            (Some((api, obj)), None) => match write(api, step, obj, false).await {
                Ok(()) => Outcome::Applied,
                Err(e) => {
                    failed = Some(format!(
                        "{} {}: {e}",
                        step.action.verb(),
                        step.object.display()
                    ));
                    Outcome::Failed(e)
                }
            },
        };
        journal.entries.push(JournalEntry {
            step: step.clone(),
            backup: file,
            outcome,
        });
        // After every step, so an interrupted apply still leaves its record for --undo.
        save("journal.json", pretty(&journal))?;
    }
    Ok(journal)
}

/// A backup file's text.
fn pretty<T: Serialize>(v: &T) -> String {
    serde_json::to_string_pretty(v).unwrap_or_default() + "\n"
}

/// A backup directory's journal.
pub fn read_journal(dir: &Path) -> Result<Journal, WriteError> {
    let path = dir.join("journal.json");
    let text = std::fs::read_to_string(&path).map_err(|io| WriteError::Backup {
        path: path.clone(),
        io,
        hint: " (a backup directory written by `kubewhy fix --apply` holds journal.json)",
    })?;
    serde_json::from_str(&text).map_err(|json| WriteError::Corrupt { path, json })
}

/// Restores what can be restored from a backup directory, last step first: finalizers put back
/// on objects that still exist, deleted objects (not pods) created again from their backup.
pub async fn undo(client: &Client, dir: &Path) -> Result<Vec<Undone>, WriteError> {
    let journal = read_journal(dir)?;
    let mut out = Vec::new();
    for e in journal.entries.iter().rev() {
        if e.outcome != Outcome::Applied {
            continue;
        }
        let t = &e.step.object;
        let backup: Option<Value> = match &e.backup {
            Some(f) => {
                let p: PathBuf = dir.join(f);
                let text = std::fs::read_to_string(&p).map_err(|io| WriteError::Backup {
                    path: p.clone(),
                    io,
                    hint: "",
                })?;
                Some(
                    serde_json::from_str(&text)
                        .map_err(|json| WriteError::Corrupt { path: p, json })?,
                )
            }
            None => None,
        };
        let api = api_for(client, t).await?;
        let now = api.get_opt(&t.name).await?;
        let result = match (&e.step.action, backup, now) {
            (Action::RemoveFinalizers { .. }, Some(b), Some(obj))
                if obj.metadata.uid.as_deref() == Some(t.uid.as_str()) =>
            {
                let finalizers = b["metadata"]["finalizers"].clone();
                let patch = serde_json::json!({"metadata": {"finalizers": finalizers}});
                let pp = PatchParams {
                    field_manager: Some(FIELD_MANAGER.into()),
                    ..Default::default()
                };
                match api.patch(&t.name, &pp, &Patch::Merge(&patch)).await {
                    Ok(_) => (true, format!("finalizers put back: {finalizers}")),
                    Err(er) => (false, err(er)),
                }
            }
            (Action::RemoveFinalizers { .. }, _, _) => (
                false,
                "not restorable: it was deleted once its finalizers were gone (its last state is in the backup)".into(),
            ),
            (Action::Delete, _, Some(_)) => (
                false,
                "an object of that name exists again: left alone".into(),
            ),
            (Action::Delete, Some(mut b), None) => {
                strip_server_fields(&mut b);
                match serde_json::from_value::<DynamicObject>(b) {
                    Ok(obj) => {
                        let pp = PostParams {
                            field_manager: Some(FIELD_MANAGER.into()),
                            ..Default::default()
                        };
                        match api.create(&pp, &obj).await {
                            Ok(_) => (true, "created again from the backup (a new object: new uid)".into()),
                            Err(er) => (false, err(er)),
                        }
                    }
                    Err(er) => (false, format!("backup unreadable: {er}")),
                }
            }
            (Action::ForceDeletePod, _, _) => (
                false,
                "not restorable: a force-deleted pod cannot be brought back; its controller, if any, creates a replacement (its spec is in the backup)".into(),
            ),
            (Action::FinalizeNamespace, _, _) => (
                false,
                "not restorable: the namespace is gone; its leftovers may remain in etcd".into(),
            ),
            (Action::Delete, None, None) => (false, "no backup of it".into()),
        };
        out.push(Undone {
            object: t.display(),
            restored: result.0,
            detail: result.1,
        });
    }
    Ok(out)
}

/// Removes what the API server sets, so a backup can be created again.
fn strip_server_fields(v: &mut Value) {
    if let Some(m) = v.get_mut("metadata").and_then(Value::as_object_mut) {
        for k in [
            "uid",
            "resourceVersion",
            "creationTimestamp",
            "deletionTimestamp",
            "deletionGracePeriodSeconds",
            "managedFields",
            "generation",
            "selfLink",
        ] {
            m.remove(k);
        }
    }
    if let Some(o) = v.as_object_mut() {
        o.remove("status");
    }
}

/// Waits until an object is gone, up to `timeout`; true when it is.
pub async fn wait_gone(client: &Client, t: &Target, timeout: std::time::Duration) -> bool {
    let Ok(api) = api_for(client, t).await else {
        return false;
    };
    let start = std::time::Instant::now();
    loop {
        if let Ok(None) = api.get_opt(&t.name).await {
            return true;
        }
        if start.elapsed() >= timeout {
            return false;
        }
        tokio::time::sleep(std::time::Duration::from_millis(500)).await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backup_file_names_are_safe_and_ordered() {
        let t = Target {
            kind: "ConfigMap".into(),
            namespace: "a/b".into(),
            name: "x:y".into(),
            ..Default::default()
        };
        assert_eq!(file_name(0, &t), "01-configmap-a_b-x_y.json");
    }

    #[test]
    fn server_fields_are_stripped_for_recreation() {
        let mut v = serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "uid": "u", "resourceVersion": "1", "labels": {"k": "v"}}, "status": {}, "data": {"k": "v"}});
        strip_server_fields(&mut v);
        assert_eq!(
            v,
            serde_json::json!({"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a", "labels": {"k": "v"}}, "data": {"k": "v"}})
        );
    }
}
