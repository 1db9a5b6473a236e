//! JSON input: one document (`kubectl get -o json`: a List, a typed list or one object), a
//! top-level array, or a stream of documents interleaved with log blocks (the stdout of
//! `kubectl cluster-info dump`).
//!
//! A list is read in two steps: its items are first taken as raw slices (no allocation per
//! field), then each item is decoded into its slim view, in parallel when there are many.
//! Errors carry the file position of the item, even though the item is parsed on its own.

use crate::decode::{Obj, decode};
use crate::{FileOut, line_col, logs};
use kubewhy_model::Snapshot;
use kubewhy_model::objects::Str;
use serde::Deserialize;
use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};
use serde_json::value::RawValue;
use std::fmt;

/// Items per list above which decoding is spread over threads.
const PARALLEL_ITEMS: usize = 2048;
/// At most this many errors are listed per file; the rest are counted.
pub(crate) const MAX_ERRORS_PER_FILE: usize = 20;

pub(crate) fn parse_stream(file: &str, text: &str, out: &mut FileOut) {
    let bytes = text.as_bytes();
    let mut pos = 0;
    let mut stray_text_reported = false;
    while pos < bytes.len() {
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        if pos >= bytes.len() {
            break;
        }
        let rest = &text[pos..];
        if rest.starts_with(logs::START_MARKER) {
            pos += logs::parse_block(file, text, pos, out);
            continue;
        }
        // A list, read in one pass straight into its objects; anything else, or a list with
        // something wrong, through the careful path below.
        if bytes[pos] == b'{'
            && let Some((list, len)) = fast_list(rest)
        {
            let facts = list.facts;
            if facts.items == Some(0) && !facts.item_kind.is_empty() {
                out.empty_kinds.push(facts.item_kind);
            }
            out.add_part(list.part);
            pos += len;
            continue;
        }
        if bytes[pos] == b'{' || bytes[pos] == b'[' {
            let mut stream = serde_json::Deserializer::from_str(rest).into_iter::<&RawValue>();
            match stream.next() {
                Some(Ok(raw)) => {
                    let end = pos + stream.byte_offset();
                    parse_document(file, text, raw.get(), out);
                    pos = end;
                }
                Some(Err(e)) => {
                    let (l0, c0) = line_col(text, pos);
                    let (line, col) = shift(l0, c0, e.line() as u64, e.column() as u64);
                    out.warn(crate::warn_at(file, line, col, json_message(&e)));
                    // Resynchronise on the next document or log block starting a line.
                    match next_resync_point(text, pos + 1) {
                        Some(p) => pos = p,
                        None => break,
                    }
                }
                None => break,
            }
            continue;
        }
        // Text that is neither JSON nor a log block.
        if !stray_text_reported {
            let (line, col) = line_col(text, pos);
            out.warn(crate::warn_at(
                file,
                line,
                col,
                "text that is neither JSON nor a kubectl log block; skipped".to_string(),
            ));
            stray_text_reported = true;
        }
        pos = match text[pos..].find('\n') {
            Some(n) => pos + n + 1,
            None => bytes.len(),
        };
    }
}

fn next_resync_point(text: &str, from: usize) -> Option<usize> {
    let hay = text.get(from..)?;
    let doc = hay.find("\n{").map(|i| i + 1);
    let log = hay
        .find(&format!("\n{}", logs::START_MARKER))
        .map(|i| i + 1);
    match (doc, log) {
        (Some(a), Some(b)) => Some(from + a.min(b)),
        (Some(a), None) | (None, Some(a)) => Some(from + a),
        (None, None) => None,
    }
}

/// serde_json's message without its own " at line L column C" (we add the file position).
pub(crate) fn json_message(e: &serde_json::Error) -> String {
    let s = e.to_string();
    let s = match s.rfind(" at line ") {
        Some(i) => &s[..i],
        None => &s,
    };
    crate::plain_types(s, true)
}

/// Position of an error found at (line, col) inside a slice that starts at (l0, c0) in the file.
fn shift(l0: u64, c0: u64, line: u64, col: u64) -> (u64, u64) {
    if line <= 1 {
        (l0, c0 + col.saturating_sub(1))
    } else {
        (l0 + line - 1, col)
    }
}

#[derive(Deserialize)]
struct Top<'a> {
    #[serde(default)]
    kind: Option<String>,
    #[serde(default, rename = "apiVersion")]
    api_version: Option<String>,
    #[serde(borrow, default)]
    items: Option<&'a RawValue>,
}

/// `doc` is a sub-slice of `text` (needed to report positions in the file).
fn parse_document(file: &str, text: &str, doc: &str, out: &mut FileOut) {
    // kubectl 1.7–1.8's cluster-info dump of internal types (`Items`, no `kind`).
    if doc.starts_with('{')
        && doc.contains("\"Items\"")
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(doc)
        && crate::internal::is_internal_list(&v)
        && let Some(list) = crate::internal::convert(file, v)
    {
        let converted = list.to_string();
        return parse_document(file, &converted, &converted, out);
    }
    if doc.starts_with('[') {
        match serde_json::from_str::<Vec<&RawValue>>(doc) {
            Ok(items) => decode_items(file, text, &items, "", "", out),
            Err(e) => warn_in(file, text, doc, &e, out),
        }
        return;
    }
    let top: Top = match serde_json::from_str(doc) {
        Ok(t) => t,
        Err(e) => return warn_in(file, text, doc, &e, out),
    };
    let kind = top.kind.unwrap_or_default();
    let api = top.api_version.unwrap_or_default();
    if let (Some(items), true) = (top.items, kind.ends_with("List") || kind.is_empty()) {
        let items: Vec<&RawValue> = match serde_json::from_str(items.get()) {
            Ok(v) => v,
            Err(e) => return warn_in(file, text, items.get(), &e, out),
        };
        // A typed list (`PodList`) names the kind of items that do not carry their own.
        let item_kind = kind.strip_suffix("List").unwrap_or("");
        if items.is_empty() && !item_kind.is_empty() {
            out.empty_kinds.push(item_kind.to_string());
        }
        decode_items(file, text, &items, item_kind, &api, out);
        return;
    }
    // `"items": null` (Go's nil slice, as 2025's troubleshoot.sh writes an empty list): an
    // empty list, not an object.
    if let Some(item_kind) = kind.strip_suffix("List")
        && !item_kind.is_empty()
    {
        out.empty_kinds.push(item_kind.to_string());
        return;
    }
    if kind.is_empty() {
        let (line, col) = line_col(text, offset_in(text, doc));
        out.warn(crate::warn_at(
            file,
            line,
            col,
            "JSON object without \"kind\": not a Kubernetes object; skipped".into(),
        ));
        return;
    }
    let mut de = serde_json::Deserializer::from_str(doc);
    match decode(&kind, &api, &mut de) {
        Ok(o) => out.add(o),
        Err(e) => {
            let (l0, c0) = line_col(text, offset_in(text, doc));
            if let Some(o) = leniently(&kind, &api, doc, (l0, c0), &e, out) {
                return out.add(o);
            }
            let (line, col) = shift(l0, c0, e.line() as u64, e.column() as u64);
            let message = format!("{kind}: {}; object skipped", json_message(&e));
            out.warn(crate::warn_at(file, line, col, message));
        }
    }
}

/// An object the strict decoder refused, decoded again with the fields that do not fit
/// repaired or dropped (`lenient`); `None` when its text is no JSON or nothing can be kept.
/// A strict failure that no field explains (a key given twice: the last value is read, as the
/// API server's own decoder does) is reported as one repair of the object.
fn leniently(
    kind: &str,
    api: &str,
    doc: &str,
    at: (u64, u64),
    strict: &serde_json::Error,
    out: &mut FileOut,
) -> Option<Obj> {
    let v: serde_json::Value = serde_json::from_str(doc).ok()?;
    let name = v
        .pointer("/metadata/name")
        .and_then(serde_json::Value::as_str)
        .unwrap_or("")
        .to_string();
    let (o, mut dropped) = crate::lenient::decode_value(kind, api, v).ok()?;
    if dropped.is_empty() {
        dropped.push(crate::lenient::Dropped {
            path: "(the object)".into(),
            what: format!("read again leniently: {}", json_message(strict)),
        });
    }
    out.dropped(at, &format!("{kind} {name}"), dropped);
    Some(o)
}

fn offset_in(text: &str, sub: &str) -> usize {
    (sub.as_ptr() as usize).saturating_sub(text.as_ptr() as usize)
}

fn warn_in(file: &str, text: &str, sub: &str, e: &serde_json::Error, out: &mut FileOut) {
    let (l0, c0) = line_col(text, offset_in(text, sub));
    let (line, col) = shift(l0, c0, e.line() as u64, e.column() as u64);
    out.warn(crate::warn_at(file, line, col, json_message(e)));
}

type ItemResult = Result<Obj, (usize, String, serde_json::Error)>;

fn decode_items(
    file: &str,
    text: &str,
    items: &[&RawValue],
    item_kind: &str,
    api: &str,
    out: &mut FileOut,
) {
    let work = |chunk: &[&RawValue]| -> Vec<ItemResult> {
        chunk
            .iter()
            .map(|raw| {
                let s = raw.get();
                let (k, a) = peek_kind(s);
                let kind = k.unwrap_or_else(|| item_kind.to_string());
                let api = a.unwrap_or_else(|| api.to_string());
                if kind.is_empty() {
                    let e = serde_json::Error::io(std::io::Error::other("x"));
                    return Err((offset_in(text, s), "list item without \"kind\"".into(), e));
                }
                let mut de = serde_json::Deserializer::from_str(s);
                decode(&kind, &api, &mut de).map_err(|e| (offset_in(text, s), kind, e))
            })
            .collect()
    };
    let results: Vec<ItemResult> = if items.len() >= PARALLEL_ITEMS {
        let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
        let chunk = items.len().div_ceil(threads);
        std::thread::scope(|s| {
            let handles: Vec<_> = items
                .chunks(chunk)
                .map(|c| s.spawn(move || work(c)))
                .collect();
            handles
                .into_iter()
                .flat_map(|h| h.join().unwrap_or_default())
                .collect()
        })
    } else {
        work(items)
    };
    for (r, raw) in results.into_iter().zip(items) {
        match r {
            Ok(o) => out.add(o),
            Err((off, what, e)) => {
                let (l0, c0) = line_col(text, off);
                if !what.starts_with("list item") {
                    let (k, a) = peek_kind(raw.get());
                    let kind = k.unwrap_or_else(|| item_kind.to_string());
                    let api = a.unwrap_or_else(|| api.to_string());
                    if let Some(o) = leniently(&kind, &api, raw.get(), (l0, c0), &e, out) {
                        out.add(o);
                        continue;
                    }
                }
                if what.starts_with("list item") {
                    out.warn(crate::warn_at(file, l0, c0, format!("{what}; skipped")));
                } else {
                    let (line, col) = shift(l0, c0, e.line() as u64, e.column() as u64);
                    out.warn(crate::warn_at(
                        file,
                        line,
                        col,
                        format!("{what}: {}; object skipped", json_message(&e)),
                    ));
                }
            }
        }
    }
}

// ------------------------------------------------------------------ one pass over list items

/// A list's items decoded in one pass straight into their slim views: the common case, where
/// nothing is wrong. Any error (bad syntax, a wrong type, an item whose kind is not among its
/// first keys) fails the whole list, which is then read again by the careful path above
/// (`decode_items`), which finds each item's end first and reports every problem at its
/// position. The fast path never warns.
pub(crate) struct Items<'a> {
    /// The items' kind when the list names it (`PodList`), else empty: each item says its own.
    pub(crate) kind: &'a str,
    pub(crate) api: &'a str,
    pub(crate) into: &'a mut Snapshot,
}

impl<'de> DeserializeSeed<'de> for Items<'_> {
    type Value = usize;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<usize, D::Error> {
        d.deserialize_seq(self)
    }
}

impl<'de> Visitor<'de> for Items<'_> {
    type Value = usize;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a list of Kubernetes objects")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<usize, A::Error> {
        let mut n = 0;
        let item = Item {
            kind: self.kind,
            api: self.api,
        };
        while let Some(o) = seq.next_element_seed(item)? {
            o.add_to(self.into);
            n += 1;
        }
        Ok(n)
    }
}

#[derive(Clone, Copy)]
struct Item<'a> {
    kind: &'a str,
    api: &'a str,
}

impl<'de> DeserializeSeed<'de> for Item<'_> {
    type Value = Obj;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Obj, D::Error> {
        if self.kind.is_empty() {
            d.deserialize_map(KindFirst { api: self.api })
        } else {
            decode(self.kind, self.api, d)
        }
    }
}

/// An item of a mixed `List`, decoded by its kind's view. kubectl sorts an object's keys, so
/// `kind` may come after others (an Event's `action` and `involvedObject`, a ConfigMap's `data`):
/// those are kept as raw text until the kind is known, then given to the view first, followed
/// by the rest of the object, read straight from the input.
struct KindFirst<'a> {
    api: &'a str,
}

impl<'de> Visitor<'de> for KindFirst<'_> {
    type Value = Obj;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Kubernetes object")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Obj, A::Error> {
        let (mut kind, mut api): (Option<Str>, Option<Str>) = (None, None);
        let mut before: Vec<(Str, &'de RawValue)> = Vec::new();
        let mut ended = false;
        while kind.is_none() || api.is_none() {
            match map.next_key::<Str>()? {
                Some(k) if k == "kind" && kind.is_none() => kind = Some(map.next_value()?),
                Some(k) if k == "apiVersion" && api.is_none() => api = Some(map.next_value()?),
                Some(k) => before.push((k, map.next_value()?)),
                None => {
                    ended = true;
                    break;
                }
            }
        }
        let kind = kind.unwrap_or_default();
        if kind.is_empty() {
            return Err(de::Error::custom("list item without kind"));
        }
        let api = api.filter(|a| !a.is_empty());
        let api = api.as_deref().unwrap_or(self.api);
        let rest = Replay {
            before: before.into_iter(),
            pending: None,
            rest: (!ended).then_some(map),
        };
        decode(&kind, api, de::value::MapAccessDeserializer::new(rest))
    }
}

/// An object's entries: those read before its kind was known (as raw text), then the rest.
struct Replay<'de, A> {
    before: std::vec::IntoIter<(Str, &'de RawValue)>,
    /// The value of the replayed key just handed out.
    pending: Option<&'de RawValue>,
    /// The rest of the object, unless it ended before its kind was found.
    rest: Option<A>,
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Replay<'de, A> {
    type Error = A::Error;
    fn next_key_seed<K: DeserializeSeed<'de>>(
        &mut self,
        seed: K,
    ) -> Result<Option<K::Value>, A::Error> {
        if let Some((key, value)) = self.before.next() {
            self.pending = Some(value);
            return seed
                .deserialize(de::value::StrDeserializer::<A::Error>::new(&key))
                .map(Some);
        }
        match &mut self.rest {
            Some(rest) => rest.next_key_seed(seed),
            None => Ok(None),
        }
    }
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, A::Error> {
        match (self.pending.take(), &mut self.rest) {
            (Some(raw), _) => seed
                .deserialize(&mut serde_json::Deserializer::from_str(raw.get()))
                .map_err(de::Error::custom),
            (None, Some(rest)) => rest.next_value_seed(seed),
            (None, None) => Err(de::Error::custom("a value without its key")),
        }
    }
}

/// A whole JSON list document (`kubectl get -o json`, a `cluster-info dump` file) in one pass:
/// its `kind` and `apiVersion`, and its items through `Items`.
struct ListDocument<'a> {
    into: &'a mut Snapshot,
}

/// What a list document said about itself.
#[derive(Default)]
pub(crate) struct ListFacts {
    pub(crate) kind: Option<String>,
    pub(crate) api: Option<String>,
    /// Items decoded; `None` when the document has no `items`.
    pub(crate) items: Option<usize>,
    /// The kind the items were decoded as (empty: each item's own).
    pub(crate) item_kind: String,
}

impl<'de> DeserializeSeed<'de> for ListDocument<'_> {
    type Value = ListFacts;
    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<ListFacts, D::Error> {
        d.deserialize_map(self)
    }
}

impl<'de> Visitor<'de> for ListDocument<'_> {
    type Value = ListFacts;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a Kubernetes list")
    }
    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ListFacts, A::Error> {
        let mut facts = ListFacts::default();
        while let Some(key) = map.next_key::<ListKey>()? {
            match key {
                ListKey::Kind if facts.kind.is_none() => facts.kind = Some(map.next_value()?),
                ListKey::ApiVersion if facts.api.is_none() => facts.api = Some(map.next_value()?),
                ListKey::Items if facts.items.is_none() => {
                    facts.item_kind = list_item_kind(facts.kind.as_deref()).to_string();
                    facts.items = Some(map.next_value_seed(Items {
                        kind: &facts.item_kind,
                        api: facts.api.as_deref().unwrap_or(""),
                        into: self.into,
                    })?);
                }
                ListKey::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
                _ => return Err(de::Error::custom("a key given twice")),
            }
        }
        Ok(facts)
    }
}

/// The kind of a typed list's items (`PodList` → `Pod`); empty for `List` or no kind.
pub(crate) fn list_item_kind(kind: Option<&str>) -> &str {
    kind.and_then(|k| k.strip_suffix("List")).unwrap_or("")
}

enum ListKey {
    Kind,
    ApiVersion,
    Items,
    Other,
}

impl<'de> Deserialize<'de> for ListKey {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<ListKey, D::Error> {
        struct V;
        impl Visitor<'_> for V {
            type Value = ListKey;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a key")
            }
            fn visit_str<E: de::Error>(self, k: &str) -> Result<ListKey, E> {
                Ok(match k {
                    "kind" => ListKey::Kind,
                    "apiVersion" => ListKey::ApiVersion,
                    "items" => ListKey::Items,
                    _ => ListKey::Other,
                })
            }
        }
        d.deserialize_identifier(V)
    }
}

/// A list document read in one pass (`ListDocument`): a type a stream of documents can yield.
pub(crate) struct FastList {
    pub(crate) part: Snapshot,
    pub(crate) facts: ListFacts,
}

impl<'de> Deserialize<'de> for FastList {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut part = Snapshot::default();
        let facts = ListDocument { into: &mut part }.deserialize(d)?;
        Ok(FastList { part, facts })
    }
}

/// The list document at the start of `text`, read in one pass when nothing in it is wrong:
/// its objects by kind, what it says of itself, and the bytes it takes. `None` when it is not a
/// list or anything fails; the careful path then reads it.
pub(crate) fn fast_list(text: &str) -> Option<(FastList, usize)> {
    let mut docs = serde_json::Deserializer::from_str(text).into_iter::<FastList>();
    let list = docs.next()?.ok()?;
    let is_list = list
        .facts
        .kind
        .as_deref()
        .is_none_or(|k| k.is_empty() || k.ends_with("List"));
    (list.facts.items.is_some() && is_list).then(|| (list, docs.byte_offset()))
}

/// One block of a streamed list (`stream.rs`): `[item, item, …]`, decoded in one pass.
pub(crate) fn fast_items(block: &[u8], kind: &str, api: &str) -> Option<Snapshot> {
    let text = std::str::from_utf8(block).ok()?;
    let mut part = Snapshot::default();
    let mut de = serde_json::Deserializer::from_str(text);
    Items {
        kind,
        api,
        into: &mut part,
    }
    .deserialize(&mut de)
    .ok()?;
    de.end().ok()?;
    Some(part)
}

/// Finds the top-level `"kind"` and `"apiVersion"` string values of a JSON object without
/// parsing the rest: kubectl writes them first, so this usually reads a few dozen bytes.
pub(crate) fn peek_kind(s: &str) -> (Option<String>, Option<String>) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut depth = 0usize;
    let mut expecting_key = false;
    let (mut kind, mut api) = (None, None);
    while i < b.len() {
        match b[i] {
            b'"' => {
                let end = match string_end(b, i) {
                    Some(e) => e,
                    None => break,
                };
                if depth == 1 && expecting_key {
                    let key = &s[i + 1..end];
                    let mut j = end + 1;
                    while j < b.len() && (b[j].is_ascii_whitespace() || b[j] == b':') {
                        j += 1;
                    }
                    if (key == "kind" || key == "apiVersion") && b.get(j) == Some(&b'"') {
                        let vend = match string_end(b, j) {
                            Some(e) => e,
                            None => break,
                        };
                        let value: Option<String> = serde_json::from_str(&s[j..=vend]).ok();
                        if key == "kind" {
                            kind = value;
                        } else {
                            api = value;
                        }
                        if kind.is_some() && api.is_some() {
                            break;
                        }
                        i = vend + 1;
                        expecting_key = false;
                        continue;
                    }
                    expecting_key = false;
                    i = j;
                    continue;
                }
                i = end + 1;
                continue;
            }
            b'{' | b'[' => {
                depth += 1;
                expecting_key = depth == 1 && b[i] == b'{';
            }
            b'}' | b']' => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            b',' if depth == 1 => expecting_key = true,
            _ => {}
        }
        i += 1;
    }
    (kind, api)
}

/// Index of the closing quote of the string that opens at `start`.
fn string_end(b: &[u8], start: usize) -> Option<usize> {
    let mut i = start + 1;
    while i < b.len() {
        match b[i] {
            b'\\' => i += 2,
            b'"' => return Some(i),
            _ => i += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn peek_finds_kind_first_or_late() {
        assert_eq!(
            peek_kind(r#"{"apiVersion":"v1","kind":"Pod","metadata":{"kind":"x"}}"#),
            (Some("Pod".into()), Some("v1".into()))
        );
        assert_eq!(
            peek_kind(
                r#"{"metadata":{"kind":"x","a":[1,{"kind":"y"}]},"spec":"}\"","kind":"Node"}"#
            ),
            (Some("Node".into()), None)
        );
        assert_eq!(peek_kind(r#"{"metadata":{}}"#), (None, None));
        assert_eq!(peek_kind(r#"{"kind":"#), (None, None));
        assert_eq!(peek_kind(""), (None, None));
    }

    /// kubectl sorts keys: an Event's `kind` follows `action` and `involvedObject`, a
    /// ConfigMap's follows `data`. The one-pass read still decodes them, and alike.
    #[test]
    fn one_pass_reads_items_whose_kind_comes_late() {
        let doc = r#"{"apiVersion": "v1", "items": [
            {"action": "Scheduling", "apiVersion": "v1", "count": 3,
             "involvedObject": {"kind": "Pod", "name": "web", "namespace": "shop", "uid": "u1"},
             "kind": "Event", "message": "0/3 nodes are available", "metadata": {"name": "e1", "namespace": "shop"},
             "reason": "FailedScheduling", "type": "Warning"},
            {"apiVersion": "v1", "data": {"a": "1", "b": "2"}, "kind": "ConfigMap",
             "metadata": {"name": "cm", "namespace": "shop"}},
            {"metadata": {"name": "late"}, "kind": "Node"}
        ], "kind": "List"}"#;
        let (FastList { part, facts }, len) = fast_list(doc).expect("read in one pass");
        assert_eq!((facts.items, len), (Some(3), doc.len()));
        let e = &part.events[0];
        assert_eq!(
            (e.reason.as_str(), e.count, e.involved.name.as_str()),
            ("FailedScheduling", 3, "web")
        );
        assert_eq!(part.config_maps[0].keys, ["a", "b"]);
        assert_eq!(part.nodes[0].metadata.name, "late");
        // The same as the careful path reads.
        let mut out = FileOut::default();
        let top: Top = serde_json::from_str(doc).unwrap();
        let items: Vec<&RawValue> = serde_json::from_str(top.items.unwrap().get()).unwrap();
        decode_items("t", doc, &items, "", "v1", &mut out);
        assert_eq!(
            format!("{:?}", out.objects.events),
            format!("{:?}", part.events)
        );
        assert_eq!(
            format!("{:?}", out.objects.config_maps),
            format!("{:?}", part.config_maps)
        );
        // An item with no kind at all gives the list to the careful path.
        assert!(fast_list(r#"{"items": [{"metadata": {"name": "x"}}], "kind": "List"}"#).is_none());
    }

    proptest::proptest! {
        #[test]
        fn peek_never_panics(s in ".{0,200}") {
            let _ = peek_kind(&s);
        }
    }
}
