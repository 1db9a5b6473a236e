//! Lenient decoding: a field that does not fit its type costs that field, never its object.
//!
//! Real inputs carry fields that a strict decoder refuses: YAML writers that print integers as
//! floats (`priority: 2000000000.0`, support-bundle-kit), `2e9`, the string `"null"`, a list
//! cut to nothing (`volumes: null` is fine; `volumes: ~` in a paste with its tail cut is not),
//! YAML 1.1's `n` / `no` read as `false` where a name was meant, an enum value kubewhy never saw.
//! When the strict decoder fails, the object is decoded again from its JSON value with the
//! failing field's path tracked (`serde_path_to_error`); the field is repaired when its meaning
//! is certain (an integral float or a numeric string where an integer is expected, a number
//! where a string is) or else removed, and decoding is tried again, up to `MAX_REPAIRS` times.
//! Each repair is reported as a `Dropped` field. An object is refused only when nothing can
//! be hung on it: the failure is at its root, or its name is what does not fit.

use crate::decode::{Obj, decode};
use serde_json::Value;

/// Repairs tried on one object before it is refused.
const MAX_REPAIRS: usize = 16;

/// One field that did not fit: its path in the object and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dropped {
    pub path: String,
    /// `removed` or `converted`, and the decoder's complaint.
    pub what: String,
}

/// Decodes one object from its JSON value, repairing or removing the fields that do not fit.
/// `Err` carries the first error when the object cannot be kept.
pub(crate) fn decode_value(
    kind: &str,
    api: &str,
    mut v: Value,
) -> Result<(Obj, Vec<Dropped>), serde_json::Error> {
    let mut dropped = Vec::new();
    let mut first: Option<serde_json::Error> = None;
    for _ in 0..=MAX_REPAIRS {
        let mut track = serde_path_to_error::Track::new();
        let de = serde_path_to_error::Deserializer::new(&v, &mut track);
        let err = match decode(kind, api, de) {
            Ok(o) => return Ok((o, dropped)),
            Err(e) => e,
        };
        let path = track.path();
        let segments: Vec<Seg> = path.iter().filter_map(Seg::of).collect();
        let message = err.to_string();
        let refusable = segments.is_empty()
            || matches!(&segments[..], [Seg::Key(m), Seg::Key(n)] if m == "metadata" && n == "name");
        if refusable {
            return Err(first.unwrap_or(err));
        }
        let what = match repair(&mut v, &segments, &message) {
            Some(what) => what,
            None => return Err(first.unwrap_or(err)),
        };
        dropped.push(Dropped {
            path: path.to_string(),
            what: format!("{what}: {message}"),
        });
        first.get_or_insert(err);
    }
    Err(first.unwrap_or_else(|| serde::de::Error::custom("too many fields that do not fit")))
}

/// A step of a field's path.
enum Seg {
    Key(String),
    Index(usize),
}

impl Seg {
    fn of(s: &serde_path_to_error::Segment) -> Option<Seg> {
        match s {
            serde_path_to_error::Segment::Map { key } => Some(Seg::Key(key.clone())),
            serde_path_to_error::Segment::Seq { index } => Some(Seg::Index(*index)),
            _ => None,
        }
    }
}

/// Repairs the value at `path` when its meaning is certain, else removes it; `None` when the
/// path leads nowhere (nothing was changed, so trying again would fail the same way).
fn repair(v: &mut Value, path: &[Seg], message: &str) -> Option<&'static str> {
    let (last, parents) = path.split_last()?;
    let mut parent = &mut *v;
    for s in parents {
        parent = match s {
            Seg::Key(k) => parent.get_mut(k.as_str())?,
            Seg::Index(i) => parent.get_mut(*i)?,
        };
    }
    let leaf = match last {
        Seg::Key(k) => parent.get_mut(k.as_str())?,
        Seg::Index(i) => parent.get_mut(*i)?,
    };
    let wants_int = message.contains("expected i64")
        || message.contains("expected u64")
        || message.contains("expected i32")
        || message.contains("expected an integer");
    let converted = match &*leaf {
        Value::Number(n) if wants_int => n
            .as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
            .map(|f| Value::from(f as i64)),
        Value::String(s) if wants_int => s.trim().parse::<i64>().ok().map(Value::from),
        Value::Number(n) if message.contains("expected a string") => {
            Some(Value::String(n.to_string()))
        }
        _ => None,
    };
    if let Some(c) = converted {
        *leaf = c;
        return Some("converted");
    }
    match (last, parent) {
        (Seg::Key(k), Value::Object(m)) => m.remove(k.as_str()).map(|_| "removed"),
        (Seg::Index(i), Value::Array(a)) if *i < a.len() => {
            a.remove(*i);
            Some("removed")
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn pod(v: Value) -> (kubewhy_model::objects::Pod, Vec<Dropped>) {
        match decode_value("Pod", "v1", v) {
            Ok((Obj::Pod(p), d)) => ((*p).clone(), d),
            Ok(_) => panic!("not a pod"),
            Err(e) => panic!("refused: {e}"),
        }
    }

    #[test]
    fn fields_that_do_not_fit_are_repaired_or_dropped_and_the_object_kept() {
        let (p, d) = pod(json!({
            "metadata": {"name": "web-0", "namespace": "shop"},
            "spec": {
                "priority": 2000000000.0,
                "nodeName": false,
                "terminationGracePeriodSeconds": "30",
                "containers": [{"name": "web", "image": "x", "ports": [{"containerPort": 8080.0}]}],
                "tolerations": "null"
            },
            "status": {"phase": "Running", "containerStatuses": [{"name": "web", "restartCount": 2e0}]}
        }));
        assert_eq!(p.metadata.name, "web-0");
        assert_eq!(p.spec.priority, Some(2000000000));
        assert_eq!(p.spec.termination_grace_period_seconds, Some(30));
        assert_eq!(p.spec.node_name, None);
        assert_eq!(p.status.container_statuses[0].restart_count, 2);
        let paths: Vec<&str> = d.iter().map(|d| d.path.as_str()).collect();
        assert!(
            paths.contains(&"spec.priority") && paths.contains(&"spec.nodeName"),
            "{d:?}"
        );
        assert!(paths.contains(&"spec.tolerations"), "{d:?}");
        assert!(
            d.iter()
                .any(|d| d.path == "spec.nodeName" && d.what.starts_with("removed")),
            "{d:?}"
        );
    }

    #[test]
    fn an_object_without_a_name_to_hang_on_is_refused() {
        assert!(decode_value("Pod", "v1", json!({"metadata": {"name": ["x"]}})).is_err());
        assert!(decode_value("Pod", "v1", json!("a string")).is_err());
        assert!(decode_value("Pod", "v1", json!({"metadata": {}})).is_err());
    }
}
