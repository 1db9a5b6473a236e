//! API server audit logs (`--audit-log-path`, JSON lines of `audit.k8s.io/v1` Events, also
//! v1beta1 / v1alpha1). Only what says who removed an object is kept: `delete` and
//! `deletecollection` requests, and `create` on an `eviction` subresource. A request logged at
//! several stages is kept once, at its most complete stage.

use crate::{InputWarning, warn_at, warn_file};
use jiff::Timestamp;
use kubewhy_model::history::AuditEntry;
use serde::Deserialize;
use std::collections::HashMap;
use std::io::BufRead;
use std::ops::ControlFlow;
use std::path::Path;

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawEvent {
    kind: String,
    #[serde(rename = "auditID")]
    audit_id: String,
    stage: String,
    verb: String,
    user: RawUser,
    impersonated_user: Option<RawUser>,
    user_agent: String,
    object_ref: Option<RawObjectRef>,
    response_status: Option<RawStatus>,
    request_received_timestamp: Option<String>,
    /// v1alpha1 / v1beta1 before requestReceivedTimestamp existed.
    timestamp: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RawUser {
    username: String,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct RawObjectRef {
    resource: String,
    subresource: String,
    api_group: String,
    namespace: String,
    name: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct RawStatus {
    code: Option<i64>,
}

fn stage_rank(stage: &str) -> u8 {
    match stage {
        "ResponseComplete" => 3,
        "Panic" => 2,
        "ResponseStarted" => 1,
        _ => 0,
    }
}

/// The audit entries of a reader (`name` names it in entries and warnings). Lines that are
/// not audit events are reported once per kind of problem with their line number, never fatal.
pub fn parse_audit<R: BufRead>(
    name: &str,
    reader: R,
    out: &mut Vec<AuditEntry>,
    warnings: &mut Vec<InputWarning>,
) {
    let mut by_id: HashMap<String, (usize, u8)> = HashMap::new();
    let (mut bad_json, mut not_audit) = (0u64, 0u64);
    crate::for_each_line(name, reader, warnings, |line_no, buf, warnings| {
        if line_no == 1 && buf.starts_with(&[0x1f, 0x8b]) {
            warnings.push(warn_file(
                name,
                "gzip-compressed; decompress it first (zcat FILE > audit.log)".into(),
            ));
            return ControlFlow::Break(());
        }
        let line = buf.trim_ascii();
        if line.is_empty() {
            return ControlFlow::Continue(());
        }
        let ev: RawEvent = match serde_json::from_slice(line) {
            Ok(e) => e,
            Err(e) => {
                bad_json += 1;
                if bad_json == 1 {
                    warnings.push(warn_at(
                        name,
                        line_no,
                        e.column() as u64,
                        format!("not a JSON audit event ({e}); such lines are skipped"),
                    ));
                }
                return ControlFlow::Continue(());
            }
        };
        if ev.kind != "Event" {
            not_audit += 1;
            if not_audit == 1 {
                warnings.push(warn_at(
                    name,
                    line_no,
                    1,
                    format!(
                        "a JSON object of kind {:?}, not an audit Event; such lines are skipped",
                        ev.kind
                    ),
                ));
            }
            return ControlFlow::Continue(());
        }
        let Some(obj) = ev.object_ref else {
            return ControlFlow::Continue(());
        };
        let keep = match ev.verb.as_str() {
            "delete" | "deletecollection" => true,
            "create" => obj.subresource == "eviction",
            _ => false,
        };
        if !keep {
            return ControlFlow::Continue(());
        }
        let rank = stage_rank(&ev.stage);
        let time = ev
            .request_received_timestamp
            .or(ev.timestamp)
            .and_then(|t| t.parse::<Timestamp>().ok());
        let entry = AuditEntry {
            origin: format!("{name}:{line_no}"),
            time,
            verb: ev.verb,
            user: ev.user.username,
            impersonated: ev.impersonated_user.map(|u| u.username),
            user_agent: ev.user_agent,
            resource: obj.resource,
            subresource: obj.subresource,
            api_group: obj.api_group,
            namespace: obj.namespace,
            name: obj.name,
            code: ev.response_status.and_then(|s| s.code),
        };
        if ev.audit_id.is_empty() {
            out.push(entry);
            return ControlFlow::Continue(());
        }
        match by_id.get(&ev.audit_id) {
            Some(&(_, r)) if r >= rank => {}
            Some(&(i, _)) => {
                out[i] = entry;
                by_id.insert(ev.audit_id, (i, rank));
            }
            None => {
                by_id.insert(ev.audit_id, (out.len(), rank));
                out.push(entry);
            }
        }
        ControlFlow::Continue(())
    });
    if bad_json > 1 {
        warnings.push(warn_file(
            name,
            format!("{bad_json} lines in all were not JSON and were skipped"),
        ));
    }
}

/// Reads an audit log file, or every file of a directory (rotated logs: `audit.log`,
/// `audit-2026-11-22T10-00-00.000.log`), oldest name first. Entries are sorted by time.
pub fn read_audit_log(path: &Path, out: &mut Vec<AuditEntry>, warnings: &mut Vec<InputWarning>) {
    for (name, file) in crate::open_files(path, warnings) {
        parse_audit(&name, std::io::BufReader::new(file), out, warnings);
    }
    out.sort_by_key(|e| e.time);
}

#[cfg(test)]
mod tests {
    use super::*;

    const REAL: &str = include_str!("../../../tests/fixtures/history/audit.log");

    #[test]
    fn keeps_deletions_once_at_their_last_stage() {
        let text = r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a1","stage":"RequestReceived","requestURI":"/api/v1/namespaces/shop/pods/web-1","verb":"delete","user":{"username":"alice"},"userAgent":"kubectl/v1.30.0","objectRef":{"resource":"pods","namespace":"shop","name":"web-1","apiVersion":"v1"},"requestReceivedTimestamp":"2026-11-22T10:00:00.000000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a1","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/shop/pods/web-1","verb":"delete","user":{"username":"alice"},"userAgent":"kubectl/v1.30.0","objectRef":{"resource":"pods","namespace":"shop","name":"web-1","apiVersion":"v1"},"responseStatus":{"code":200},"requestReceivedTimestamp":"2026-11-22T10:00:00.000000Z"}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a2","stage":"ResponseComplete","verb":"get","user":{"username":"bob"},"objectRef":{"resource":"pods","namespace":"shop","name":"web-1"}}
{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a3","stage":"ResponseComplete","verb":"create","user":{"username":"system:serviceaccount:kube-system:descheduler"},"objectRef":{"resource":"pods","subresource":"eviction","namespace":"shop","name":"web-2"},"responseStatus":{"code":201},"requestReceivedTimestamp":"2026-11-22T10:01:00Z"}
"#;
        let (mut out, mut warnings) = (Vec::new(), Vec::new());
        parse_audit("audit.log", text.as_bytes(), &mut out, &mut warnings);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].origin, "audit.log:2");
        assert_eq!(out[0].code, Some(200));
        assert_eq!(
            out[0].describe(),
            "2026-11-22T10:00:00Z delete pods shop/web-1 by alice (kubectl/v1.30.0) → 200"
        );
        assert_eq!(out[1].subresource, "eviction");
        assert_eq!(
            out[1].actor(),
            "system:serviceaccount:kube-system:descheduler"
        );
    }

    #[test]
    fn bad_lines_are_named_and_skipped() {
        let text = "{\"kind\":\"Event\",\"verb\":\"delete\",\"user\":{\"username\":\"a\"},\"objectRef\":{\"resource\":\"pods\",\"namespace\":\"n\",\"name\":\"p\"}}\nnot json\n{\"kind\":\"Pod\"}\n\u{0}\u{1}garbage\n";
        let (mut out, mut warnings) = (Vec::new(), Vec::new());
        parse_audit("a.log", text.as_bytes(), &mut out, &mut warnings);
        assert_eq!(out.len(), 1);
        let w: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
        assert!(
            w[0].starts_with("a.log:2:2: not a JSON audit event"),
            "{w:?}"
        );
        assert!(
            w[1].starts_with("a.log:3:1: a JSON object of kind \"Pod\""),
            "{w:?}"
        );
        assert_eq!(w[2], "a.log: 2 lines in all were not JSON and were skipped");
    }

    #[test]
    fn gzip_is_named() {
        let (mut out, mut warnings) = (Vec::new(), Vec::new());
        parse_audit("a.log.gz", &[0x1f, 0x8b, 8, 0][..], &mut out, &mut warnings);
        assert!(warnings[0].message.contains("gzip"));
    }

    #[test]
    fn reads_a_real_1_20_audit_log() {
        let (mut out, mut warnings) = (Vec::new(), Vec::new());
        parse_audit("audit.log", REAL.as_bytes(), &mut out, &mut warnings);
        assert!(warnings.is_empty(), "{warnings:?}");
        assert!(
            out.iter().any(
                |e| e.user == "system:serviceaccount:kube-system:pod-garbage-collector"
                    && e.resource == "pods"
            ),
            "{out:#?}"
        );
    }
}
