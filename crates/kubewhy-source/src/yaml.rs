//! YAML input: `kubectl get -o yaml` (a List or one object) and multi-document files. Each
//! document is parsed on its own, so one broken document does not hide the others.

use crate::FileOut;
use crate::decode::decode;
use serde_json::Value;

pub(crate) fn parse(file: &str, text: &str, out: &mut FileOut) {
    for (start_line, doc) in split_documents(text) {
        if doc.trim().is_empty() {
            continue;
        }
        let value: Value = match from_str(doc) {
            Ok(v) => v,
            Err(e) => {
                let (line, col) = e
                    .location()
                    .map(|l| (l.line() + start_line - 1, l.column()))
                    .unwrap_or((start_line, 1));
                out.warn(crate::warn_at(file, line, col, yaml_message(&e)));
                continue;
            }
        };
        parse_value(file, start_line, value, out);
    }
}

/// A YAML document read as `T`, within limits scaled to its size (`options`): every YAML
/// kubewhy reads (files, pasted stanzas, static pod manifests) goes through here.
pub(crate) fn from_str<'de, T: serde::Deserialize<'de>>(
    text: &'de str,
) -> Result<T, serde_saphyr::Error> {
    serde_saphyr::from_str_with_options(text, options(text.len()))
}

/// serde-saphyr's limits, scaled to the document: its defaults (250,000 nodes, 64 MiB of text)
/// would refuse `kubectl get pods -A -o yaml` of a large cluster, yet let a 500-byte alias bomb
/// expand to 250,000 nodes. A YAML node takes at least two bytes of its text, so without aliases
/// no document reaches these limits, and with them none expands beyond a small multiple of its
/// size.
fn options(len: usize) -> serde_saphyr::Options {
    let mut budget = serde_saphyr::Budget::default();
    budget.max_nodes = len / 2 + 10_000;
    budget.max_events = len + 10_000;
    budget.max_total_scalar_bytes = len + (1 << 20);
    budget.max_recorded_anchor_bytes = len.min(budget.max_recorded_anchor_bytes);
    let mut options = serde_saphyr::Options::default();
    options.budget = Some(budget);
    options
}

/// The error text without the location serde-saphyr adds (we print our own, with the file):
/// a `line L column C: ` prefix or an ` at line ` suffix; its resource limits in words.
fn yaml_message(e: &serde_saphyr::Error) -> String {
    if let Some(limit) = budget_breach(e) {
        return limit;
    }
    let s = e.to_string();
    let mut s = s.lines().next().unwrap_or("").trim();
    s = s.strip_prefix("error: ").unwrap_or(s);
    if let Some(rest) = s.strip_prefix("line ")
        && let Some((_, msg)) = rest.split_once(": ")
    {
        s = msg;
    }
    if let Some(i) = s.find(" at line ") {
        s = &s[..i];
    }
    crate::plain_types(s, false)
}

/// Which of the limits of `yaml::from_str` a document broke, in words.
fn budget_breach(e: &serde_saphyr::Error) -> Option<String> {
    use serde_saphyr::budget::BudgetBreach as B;
    let mut e = e;
    while let serde_saphyr::Error::WithSnippet { error, .. }
    | serde_saphyr::Error::AliasError { error, .. } = e
    {
        e = error;
    }
    let serde_saphyr::Error::Budget { breach, .. } = e else {
        return None;
    };
    if let B::Depth { depth } = breach {
        return Some(format!(
            "YAML nested more than {depth} deep; document skipped"
        ));
    }
    let limit = match breach {
        B::Events { events } => format!("over {events} parser events"),
        B::Nodes { nodes } => format!("over {nodes} nodes"),
        B::Aliases { aliases } => format!("over {aliases} aliases"),
        B::Anchors { anchors } => format!("over {anchors} anchors"),
        B::ScalarBytes { total_scalar_bytes } => {
            format!("over {total_scalar_bytes} bytes of values")
        }
        B::AliasAnchorRatio { aliases, anchors } => {
            format!("{aliases} aliases of {anchors} anchors")
        }
        other => format!("{other:?}"),
    };
    Some(format!(
        "YAML too large once its anchors and aliases are expanded ({limit}); an alias bomb? document skipped"
    ))
}

pub(crate) fn parse_value(file: &str, line: u64, value: Value, out: &mut FileOut) {
    // A document that is a sequence of objects (troubleshoot.sh writes custom resources so):
    // each item as a document of its own.
    if let Value::Array(items) = value {
        if items.iter().all(Value::is_object) {
            for item in items {
                parse_value(file, line, item, out);
            }
            return;
        }
        return out.warn(crate::warn_at(
            file,
            line,
            1,
            "YAML document is a sequence, not a mapping: not a Kubernetes object; skipped".into(),
        ));
    }
    let Value::Object(mut map) = value else {
        if !value.is_null() {
            out.warn(crate::warn_at(
                file,
                line,
                1,
                "YAML document is not a mapping: not a Kubernetes object; skipped".into(),
            ));
        }
        return;
    };
    let kind = map
        .get("kind")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    let api = map
        .get("apiVersion")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    if kind.ends_with("List") || (kind.is_empty() && map.contains_key("items")) {
        let item_kind = kind.strip_suffix("List").unwrap_or("").to_string();
        let items = match map.remove("items") {
            Some(Value::Array(a)) => a,
            Some(Value::Null) | None => Vec::new(),
            Some(_) => {
                out.warn(crate::warn_at(
                    file,
                    line,
                    1,
                    "\"items\" is not a list; skipped".into(),
                ));
                return;
            }
        };
        if items.is_empty() && !item_kind.is_empty() {
            out.empty_kinds.push(item_kind.clone());
        }
        for (i, item) in items.into_iter().enumerate() {
            let k = item.get("kind").and_then(Value::as_str).map(str::to_string);
            let a = item
                .get("apiVersion")
                .and_then(Value::as_str)
                .map(str::to_string);
            let k = k.unwrap_or_else(|| item_kind.clone());
            let a = a.unwrap_or_else(|| api.clone());
            if k.is_empty() {
                out.warn(crate::warn_at(
                    file,
                    line,
                    1,
                    format!("list item {i} without \"kind\"; skipped"),
                ));
                continue;
            }
            push(file, line, &k, &a, item, &format!("list item {i}"), out);
        }
        return;
    }
    if kind.is_empty() {
        out.warn(crate::warn_at(
            file,
            line,
            1,
            "YAML mapping without \"kind\": not a Kubernetes object; skipped".into(),
        ));
        return;
    }
    push(file, line, &kind, &api, Value::Object(map), "document", out);
}

fn push(file: &str, line: u64, kind: &str, api: &str, v: Value, what: &str, out: &mut FileOut) {
    let name = v
        .pointer("/metadata/name")
        .and_then(Value::as_str)
        .unwrap_or("")
        .to_string();
    match decode(kind, api, &v) {
        Ok(o) => out.add(o),
        Err(e) => match crate::lenient::decode_value(kind, api, v) {
            Ok((o, dropped)) => {
                out.dropped((line, 1), &format!("{kind} {name}"), dropped);
                out.add(o);
            }
            Err(_) => out.warn(crate::warn_at(
                file,
                line,
                1,
                format!(
                    "{what} ({kind} {name}): {}; object skipped",
                    crate::json::json_message(&e)
                ),
            )),
        },
    }
}

/// Splits a YAML stream on `---` document markers; yields (first line number, document).
fn split_documents(text: &str) -> Vec<(u64, &str)> {
    let mut docs = Vec::new();
    let mut start = 0usize;
    let mut start_line = 1u64;
    let mut pos = 0usize;
    for (line_no, line) in (1u64..).zip(text.split_inclusive('\n')) {
        let is_marker =
            line.starts_with("---") && line[3..].chars().next().is_none_or(|c| c.is_whitespace());
        if is_marker {
            docs.push((start_line, &text[start..pos]));
            // Content may follow the marker on the same line (`--- !tag` or `--- {a: 1}`).
            start = pos + 3;
            start_line = line_no;
        } else if line.starts_with("...") && line.trim_end() == "..." {
            docs.push((start_line, &text[start..pos]));
            start = pos + line.len();
            start_line = line_no + 1;
        }
        pos += line.len();
    }
    docs.push((start_line, &text[start..]));
    docs
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_documents_with_line_numbers() {
        let d = split_documents("a: 1\n---\nb: 2\n--- \nc: 3\n");
        assert_eq!(d.len(), 3);
        assert_eq!(d[1].0, 2);
        assert!(d[2].1.contains("c: 3"));
    }
}
