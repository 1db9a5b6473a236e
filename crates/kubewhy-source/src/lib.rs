//! Where a snapshot comes from. Loaders return the snapshot plus warnings and never panic: a
//! malformed file is reported with its path and position, and everything else still loads.
//!
//! Offline inputs understood: `kubectl get -o json|yaml` (List, typed lists, single objects,
//! multi-document YAML, any mix of kinds), `kubectl cluster-info dump` directories and its
//! stdout stream, and directories of any of these (walked recursively).

mod archive;
mod audit;
mod bundle;
mod controller_log;
mod decode;
#[doc(hidden)]
pub mod fuzz;
pub use bundle::{BundleInfo, Layout};
mod internal;
mod json;
mod lenient;
mod logs;
mod nodelog;
mod paste;
mod pool;
mod stream;
mod target;
mod yaml;

use kubewhy_model::Snapshot;
use kubewhy_model::objects::ContainerLog;
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Path, PathBuf};

pub use audit::{parse_audit, read_audit_log};
pub use controller_log::{parse_controller_log, read_controller_log};
pub use decode::core_event;
pub use kubewhy_model::InputWarning;
pub use kubewhy_model::redact::redact;
pub use nodelog::{SECTION_MARKER, parse_node_log, read_node_logs, static_pod_summary};

/// The part of a container log kubewhy keeps: the last lines, each bounded in length — for logs
/// read elsewhere (live) to be held like the ones in dumps.
pub fn log_tail(text: &str) -> Vec<String> {
    logs::tail_lines(text)
}

/// serde's type words in a user's: `struct Meta` (our internal name) is "an object", `i64` "an
/// integer"; for JSON (`json`), a sequence is an array and a map an object.
pub(crate) fn plain_types(message: &str, json: bool) -> String {
    if message.starts_with("recursion limit exceeded") {
        return format!("nested too deeply ({message})");
    }
    let mut out = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(i) = rest.find("expected ") {
        out.push_str(&rest[..i + "expected ".len()]);
        rest = &rest[i + "expected ".len()..];
        let word_end = |s: &str| {
            s.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                .unwrap_or(s.len())
        };
        if let Some(name) = rest.strip_prefix("struct ") {
            out.push_str("an object");
            rest = &name[word_end(name)..];
            continue;
        }
        let word = &rest[..word_end(rest)];
        let plain = match word {
            "i8" | "i16" | "i32" | "i64" | "i128" | "u8" | "u16" | "u32" | "u64" | "u128" => {
                Some("an integer")
            }
            "f32" | "f64" => Some("a number"),
            _ => None,
        };
        if let Some(p) = plain {
            out.push_str(p);
            rest = &rest[word.len()..];
        }
    }
    out.push_str(rest);
    if json {
        out = out
            .replace("invalid type: sequence", "invalid type: array")
            .replace("expected a sequence", "expected an array")
            .replace("invalid type: map", "invalid type: object")
            .replace("expected a map", "expected an object");
    }
    out
}

pub(crate) fn warn_at(file: &str, line: u64, column: u64, message: String) -> InputWarning {
    InputWarning {
        file: file.to_string(),
        line: Some(line),
        column: Some(column),
        message,
    }
}

pub(crate) fn warn_file(file: &str, message: String) -> InputWarning {
    InputWarning {
        file: file.to_string(),
        line: None,
        column: None,
        message,
    }
}

/// An input to load.
#[derive(Debug, Clone)]
pub enum Input {
    /// A file or a directory (walked recursively). `-` means standard input.
    Path(PathBuf),
    /// In-memory text, e.g. the embedded demo; the name is used in messages.
    Text { name: String, text: String },
    /// In-memory bytes, read as a file is (they need not be UTF-8).
    Bytes { name: String, bytes: Vec<u8> },
}

#[derive(Debug, Default)]
pub struct Loaded {
    /// The support bundles read (`bundle.rs`), for the line that says what each was.
    pub bundles: Vec<BundleInfo>,
    /// The finished snapshot (indexes built, `now` settled).
    pub snapshot: Snapshot,
    pub warnings: Vec<InputWarning>,
    /// Fields that did not fit their type, repaired or dropped with their object kept
    /// (`lenient`): how many, and the first few with their place. Not warnings: nothing the
    /// checks need was lost with an object.
    pub dropped_fields: usize,
    pub dropped_examples: Vec<InputWarning>,
    pub files_read: usize,
    /// Kinds kubewhy has no specific view for, kept as generic objects, with their counts.
    pub other_kinds: BTreeMap<String, usize>,
    /// Whether some input was read as pasted text (`kubectl describe`, `get` tables, messages).
    pub pasted_text: bool,
    /// Whether every input was empty (nothing but white space).
    pub empty: bool,
}

/// What one file produced.
#[derive(Default)]
pub(crate) struct FileOut {
    /// The file (or stream) read, as messages name it.
    name: String,
    /// Objects decoded a list at a time (lists read in one pass, blocks of streamed lists), in
    /// the order read; unfinished snapshots.
    parts: Vec<Snapshot>,
    /// The objects read one at a time since the last part, by kind.
    objects: Snapshot,
    logs: Vec<ContainerLog>,
    warnings: Vec<InputWarning>,
    suppressed: usize,
    /// Fields that did not fit their type and were repaired or dropped (`lenient`): how many,
    /// and the first few with their place.
    dropped: usize,
    dropped_examples: Vec<InputWarning>,
    empty_kinds: Vec<String>,
    /// Objects known in part, from pasted text.
    pasted: Vec<kubewhy_model::Pasted>,
    /// Known failure messages in pasted text.
    pasted_messages: Vec<kubewhy_model::PastedMessage>,
    /// Whether the file was read as pasted text (its ages count back from the anchor).
    pasted_text: bool,
    /// Whether the file held nothing but white space.
    empty: bool,
    /// Node log lines found in pasted text.
    bundles: Vec<kubewhy_model::node::NodeBundle>,
    /// A paste read but not finished: finished once its text is freed (`load_job`).
    paste: Option<Box<paste::Pending>>,
}

impl FileOut {
    pub(crate) fn named(name: String) -> FileOut {
        FileOut {
            name,
            ..Default::default()
        }
    }

    pub(crate) fn add(&mut self, o: decode::Obj) {
        o.add_to(&mut self.objects);
    }

    /// Objects decoded together, after those read so far (the last copy of an object wins).
    pub(crate) fn add_part(&mut self, mut part: Snapshot) {
        if self.objects.object_count() > 0 || !self.objects.kinds_loaded.is_empty() {
            self.parts.push(std::mem::take(&mut self.objects));
        }
        // Parts wait for every file to be read: they keep only the room they use.
        part.shrink_lists();
        self.parts.push(part);
    }

    /// Records the fields of one object that `lenient` repaired or dropped.
    pub(crate) fn dropped(&mut self, at: (u64, u64), object: &str, fields: Vec<lenient::Dropped>) {
        self.dropped += fields.len();
        for d in fields {
            if self.dropped_examples.len() < DROPPED_EXAMPLES {
                let w = warn_at(
                    &self.name,
                    at.0,
                    at.1,
                    format!("{object} {}: {}", d.path, d.what),
                );
                self.dropped_examples.push(w);
            }
        }
    }

    pub(crate) fn warn(&mut self, w: InputWarning) {
        if self.warnings.len() < json::MAX_ERRORS_PER_FILE {
            self.warnings.push(w);
        } else {
            self.suppressed += 1;
        }
    }
}

/// Fields repaired or dropped that are quoted, per file and in all.
const DROPPED_EXAMPLES: usize = 3;

/// 1-based line and byte column of a byte offset.
pub(crate) fn line_col(text: &str, offset: usize) -> (u64, u64) {
    let offset = offset.min(text.len());
    let before = &text.as_bytes()[..offset];
    let line = before.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let col = match before.iter().rposition(|&b| b == b'\n') {
        Some(nl) => offset - nl,
        None => offset + 1,
    } as u64;
    (line, col)
}

/// The longest start of `text` within `max` bytes that ends on a character (what
/// `str::floor_char_boundary` does, newer than our minimum Rust).
pub(crate) fn char_floor(text: &str, max: usize) -> &str {
    let mut end = max.min(text.len());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// `text` as evidence keeps it: whole within `max` bytes, else cut on a character with `…`.
pub(crate) fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    format!("{}…", char_floor(text, max))
}

/// Deepest directory nesting followed; deeper trees are reported, not walked.
const MAX_DEPTH: usize = 32;

/// Loads every input (files in parallel), then finishes the snapshot with `now` (or the newest
/// timestamp in the data when `now` is `None`).
pub fn load(inputs: &[Input], now: Option<jiff::Timestamp>) -> Loaded {
    load_owned(inputs.to_vec(), now)
}

/// `load`, taking the inputs (large in-memory texts, such as live pages, are not copied).
pub fn load_owned(inputs: Vec<Input>, now: Option<jiff::Timestamp>) -> Loaded {
    load_onto(Snapshot::default(), inputs, now)
}

/// One object in its slim view, decoded on its own: what watch mode keeps per uid, current
/// through watches, instead of pages.
#[derive(Debug, Clone)]
pub struct Object(decode::Obj);

impl Object {
    /// Decodes one object of a known kind and API version (list items from the API server carry
    /// neither) with the loader's own dispatch.
    pub fn decode(kind: &str, api_version: &str, v: &serde_json::Value) -> Result<Object, String> {
        decode::decode(kind, api_version, v)
            .map(Object)
            .map_err(|e| format!("{kind} {}: {e}", v["metadata"]["name"]))
    }

    pub fn kind(&self) -> &str {
        self.0.kind()
    }

    /// An Event's slim view, when it is one.
    pub fn as_event(&self) -> Option<&kubewhy_model::objects::Event> {
        match &self.0 {
            decode::Obj::Event(e) => Some(e),
            _ => None,
        }
    }

    /// An Event as an object (watch mode holds events in a form of its own).
    pub fn event(e: kubewhy_model::objects::Event) -> Object {
        Object(decode::Obj::Event(std::sync::Arc::new(e)))
    }
}

/// What the pods a store holds have in common, by its JSON: the replicas of one workload hold
/// one `SharedSpec` (all of the spec but the node and the volumes) and one set of labels between
/// them instead of one each. What watch mode's memory per pod comes down to.
#[derive(Debug, Default)]
pub struct SharedParts {
    specs: std::collections::HashMap<String, std::sync::Arc<kubewhy_model::objects::SharedSpec>>,
    labels: std::collections::HashMap<String, kubewhy_model::objects::SharedLabels>,
    /// Entries after the last pruning: the next one is due when twice as many are held.
    pruned_at: usize,
}

impl SharedParts {
    /// Distinct specs and label sets held.
    pub fn len(&self) -> usize {
        self.specs.len() + self.labels.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Lets go of what no pod holds any more.
    pub fn prune(&mut self) {
        self.specs
            .retain(|_, s| std::sync::Arc::strong_count(s) > 1);
        self.labels.retain(|_, l| l.holders() > 1);
        self.pruned_at = self.len();
    }
}

/// `v` as a key: its JSON, but for the fields named in `skip` when it is an object.
fn key_of(v: &serde_json::Value, skip: &[&str]) -> String {
    match v.as_object() {
        Some(fields) => {
            let mut key = String::new();
            for (k, v) in fields {
                if !skip.contains(&k.as_str()) {
                    key.push_str(&serde_json::Value::from(k.as_str()).to_string());
                    key.push(':');
                    key.push_str(&v.to_string());
                    key.push(',');
                }
            }
            key
        }
        None => v.to_string(),
    }
}

impl Object {
    /// For a pod: shares its spec and labels with the pods already in `parts` that have the same
    /// (`raw` is the object it was decoded from; the slim views are functions of the JSON).
    pub fn share(&mut self, raw: &serde_json::Value, parts: &mut SharedParts) {
        let decode::Obj::Pod(pod) = &mut self.0 else {
            return;
        };
        let Some(pod) = std::sync::Arc::get_mut(pod) else {
            return;
        };
        if parts.len() >= 2 * parts.pruned_at.max(512) {
            parts.prune();
        }
        if let Some(spec) = raw.get("spec") {
            pod.spec.shared = parts
                .specs
                .entry(key_of(spec, &["nodeName", "volumes"]))
                .or_insert_with(|| pod.spec.shared.clone())
                .clone();
        }
        if let Some(labels) = raw["metadata"].get("labels")
            && !pod.metadata.labels.is_empty()
        {
            pod.metadata.labels = parts
                .labels
                .entry(key_of(labels, &[]))
                .or_insert_with(|| pod.metadata.labels.clone())
                .clone();
        }
    }
}

/// A snapshot of objects kept elsewhere (copied), plus the kinds that were read and are empty
/// (so "none exist" can be said of them), not yet finished: more inputs go on with `load_onto`.
pub fn snapshot_of<'a>(
    objects: impl IntoIterator<Item = &'a Object>,
    empty_kinds: impl IntoIterator<Item = &'a str>,
) -> Snapshot {
    let mut s = Snapshot::default();
    for k in empty_kinds {
        s.kinds_loaded.entry(k.to_string()).or_insert(0);
    }
    for o in objects {
        o.0.clone().add_to(&mut s);
    }
    s
}

/// `load_owned`, adding to a snapshot that already holds objects (`snapshot_of`).
pub fn load_onto(base: Snapshot, inputs: Vec<Input>, now: Option<jiff::Timestamp>) -> Loaded {
    let mut warnings = Vec::new();
    let mut jobs: Vec<Job> = Vec::new();
    let mut dir_bundles: Vec<(BundleInfo, std::ops::Range<usize>, Vec<bool>)> = Vec::new();
    let mut archives: Vec<(PathBuf, archive::Format)> = Vec::new();
    for input in inputs {
        match input {
            Input::Text { name, text } => jobs.push(Job::Text(name, text)),
            Input::Bytes { name, bytes } => jobs.push(Job::Bytes(name, bytes)),
            Input::Path(p) if p.as_os_str() == "-" => {
                let mut buf = Vec::new();
                match std::io::stdin().read_to_end(&mut buf) {
                    Ok(_) => jobs.push(Job::Bytes("<stdin>".into(), buf)),
                    Err(e) => warnings.push(warn_file("<stdin>", format!("cannot read: {e}"))),
                }
            }
            Input::Path(p) if p.is_file() && archive::sniff(&p).is_some() => {
                archives.extend(archive::sniff(&p).map(|f| (p, f)))
            }
            Input::Path(p) if p.is_dir() => {
                let mut found = Vec::new();
                collect_files(&p, &mut found, &mut warnings);
                let files: Vec<PathBuf> = found
                    .iter()
                    .filter_map(|j| match j {
                        Job::File(f) => Some(f.clone()),
                        _ => None,
                    })
                    .collect();
                match bundle::plan_directory(&p, &files) {
                    Some((planned, unknown, info)) => {
                        let start = jobs.len();
                        jobs.extend(planned);
                        dir_bundles.push((info, start..jobs.len(), unknown));
                    }
                    // Not a bundle: its files as any directory's, an archive among them
                    // (`--from ~/Downloads/`) read as an archive.
                    None => {
                        for job in found {
                            match job {
                                Job::File(f) => match archive::sniff(&f) {
                                    Some(format) => archives.push((f, format)),
                                    None => jobs.push(Job::File(f)),
                                },
                                job => jobs.push(job),
                            }
                        }
                    }
                }
            }
            Input::Path(p) => collect_files(&p, &mut jobs, &mut warnings),
        }
    }

    // Pasted text gives ages (`5m ago`), not times: they count back from `now`, else from this
    // moment, which then is the snapshot's.
    let anchor = now.unwrap_or_else(jiff::Timestamp::now);
    let mut outs = pool::run(&jobs, anchor);
    let mut bundles = Vec::new();
    for (mut info, range, unknown) in dir_bundles {
        bundle::quieten(&mut outs[range], &unknown, &mut info);
        bundles.push(info);
    }
    let mut files_read = jobs.len();
    for (p, format) in archives {
        let name = p.display().to_string();
        let (o, info) = bundle::load_archive(&name, &p, format, anchor, &mut warnings);
        files_read += info.read.max(1);
        outs.extend(o);
        bundles.push(info);
    }
    // A bundle says when it was collected: the diagnosis is made for that moment.
    let now = now.or_else(|| bundles.iter().filter_map(|b| b.collected).max());
    // Without --now, the snapshot's time is the newest timestamp in the data, but never one
    // after the moment of reading.
    let limit = now.is_none().then(|| anchor + FUTURE_TOLERANCE);
    let mut any_paste = false;
    // Nothing but empty files: say so, rather than report a healthy cluster of no objects. An
    // empty standard input is an empty paste (`kubectl get … | kubewhy scan --from -` when
    // kubectl found nothing), which is not a problem of the input.
    let all_empty = !outs.is_empty() && outs.iter().all(|o| o.empty);
    if all_empty {
        for o in outs.iter().take(json::MAX_ERRORS_PER_FILE) {
            if o.name == "<stdin>" {
                any_paste = true;
            } else {
                warnings.push(warn_file(&o.name, "empty file".into()));
            }
        }
    }
    let mut loaded = Loaded {
        files_read,
        bundles,
        snapshot: base,
        ..Default::default()
    };
    let snap = &mut loaded.snapshot;
    let mut parts = Vec::with_capacity(outs.len());
    for mut out in outs {
        if let Some(limit) = limit {
            future_timestamps(&out, &jobs, limit, &mut warnings);
        }
        for k in out.empty_kinds {
            snap.kinds_loaded.entry(k).or_insert(0);
        }
        parts.append(&mut out.parts);
        parts.push(std::mem::take(&mut out.objects));
        snap.logs.extend(out.logs);
        snap.pasted.extend(out.pasted);
        snap.pasted_messages.extend(out.pasted_messages);
        snap.node.bundles.extend(out.bundles);
        any_paste |= out.pasted_text;
        loaded.dropped_fields += out.dropped;
        let room = DROPPED_EXAMPLES.saturating_sub(loaded.dropped_examples.len());
        loaded
            .dropped_examples
            .extend(out.dropped_examples.into_iter().take(room));
        if let Some(first) = out.warnings.first().cloned() {
            warnings.extend(out.warnings);
            if out.suppressed > 0 {
                warnings.push(warn_file(
                    &first.file,
                    format!("{} more problems in this file not shown", out.suppressed),
                ));
            }
        }
    }
    snap.append(parts);
    if !snap.kinds_loaded.contains_key("Pod") {
        messages_of_events(snap);
    }
    for (kind, n) in &snap.kinds_loaded {
        if !decode::KNOWN_KINDS.contains(&kind.as_str()) {
            loaded.other_kinds.insert(kind.clone(), *n);
        }
    }
    snap.finish_until(now.or(any_paste.then_some(anchor)), limit);
    snap.read_at = Some(anchor);
    loaded.pasted_text = any_paste;
    loaded.empty = all_empty;
    loaded.warnings = warnings;
    loaded
}

/// Events about pods when no pod was read (`kubectl get events -o yaml` alone): their known
/// failure messages speak as a paste's do (`Snapshot::pasted_messages`), each naming the pod it
/// is about, so that a failure the events show is never "no problems". The first few of each
/// cause are kept, with how many events show it.
fn messages_of_events(snap: &mut Snapshot) {
    let mut kept = paste::Kept::default();
    for e in snap
        .events
        .iter()
        .filter(|e| e.involved.kind == "Pod" && e.type_ != "Normal")
    {
        let Some(r) = kubewhy_model::messages::recognise(&e.message) else {
            continue;
        };
        kept.add(r.cause, || kubewhy_model::PastedMessage {
            at: e.origin(),
            quote: bounded(e.message.trim(), 300),
            cause: r.cause,
            confidence: r.confidence,
            speaker: r.speaker.describe(),
            object: Some(e.involved.clone()),
            same: 0,
        });
    }
    snap.pasted_messages.extend(kept.done());
}

#[derive(Clone)]
pub(crate) enum Job {
    File(PathBuf),
    Bytes(String, Vec<u8>),
    Text(String, String),
    /// A file of a support bundle, with what its place says it is.
    Bundle(String, bundle::Source, bundle::Role),
}

impl Job {
    /// The input as messages name it.
    pub(crate) fn name(&self) -> String {
        match self {
            Job::File(p) => p.display().to_string(),
            Job::Bytes(name, _) | Job::Text(name, _) | Job::Bundle(name, _, _) => name.clone(),
        }
    }
}

/// How far past the moment of reading a timestamp may be (clocks drift, zones get mixed up)
/// before it counts as wrong.
const FUTURE_TOLERANCE: jiff::SignedDuration = jiff::SignedDuration::from_hours(24);

/// Timestamps after `limit` in what a file gave: they are not used as the snapshot's time, and
/// each file says so (the first three, then how many more).
fn future_timestamps(
    out: &FileOut,
    jobs: &[Job],
    limit: jiff::Timestamp,
    warnings: &mut Vec<InputWarning>,
) {
    let mut n = 0usize;
    let mut shown = Vec::new();
    for part in out.parts.iter().chain([&out.objects]) {
        part.timestamps(|t| {
            if t.at <= limit {
                return;
            }
            n += 1;
            if n <= 3 {
                let at = if t.namespace.is_empty() {
                    t.name.to_string()
                } else {
                    format!("{}/{}", t.namespace, t.name)
                };
                let message = format!(
                    "{} {at}: {} {} is after the moment the data was read; the snapshot's time is taken from the other timestamps",
                    t.kind, t.field, t.at
                );
                shown.push((message, t.at.to_string()));
            }
        });
    }
    // Where each value is written (rare, so the input is read again for it).
    let needles: Vec<&str> = shown.iter().map(|(_, s)| s.as_str()).collect();
    let job = (!needles.is_empty())
        .then(|| jobs.iter().find(|j| j.name() == out.name))
        .flatten();
    let positions = job.map(|j| locate(j, &needles)).unwrap_or_default();
    for (i, (message, _)) in shown.into_iter().enumerate() {
        warnings.push(match positions.get(i).copied().flatten() {
            Some((line, col)) => warn_at(&out.name, line, col, message),
            None => warn_file(&out.name, message),
        });
    }
    if n > 3 {
        warnings.push(warn_file(
            &out.name,
            format!(
                "{} more timestamps after the moment the data was read",
                n - 3
            ),
        ));
    }
}

/// Line and column (1-based, bytes) where each of `needles` is written in the input; equal
/// needles take successive occurrences. `None` for one not found (written another way).
fn locate(job: &Job, needles: &[&str]) -> Vec<Option<(u64, u64)>> {
    let mut found: Vec<Option<(u64, u64)>> = vec![None; needles.len()];
    let mut line_no = 0u64;
    let mut see = |line: &[u8]| {
        line_no += 1;
        for i in 0..needles.len() {
            if found[i].is_some() {
                continue;
            }
            let needle = needles[i].as_bytes();
            let mut from = 0;
            while let Some(p) = line[from..].windows(needle.len()).position(|w| w == needle) {
                let at = Some((line_no, (from + p + 1) as u64));
                from += p + needle.len();
                if !found.contains(&at) {
                    found[i] = at;
                    break;
                }
            }
        }
        found.iter().all(Option::is_some)
    };
    match job {
        Job::File(path) | Job::Bundle(_, bundle::Source::Path(path), _) => {
            use std::io::BufRead;
            let Ok(file) = std::fs::File::open(path) else {
                return found;
            };
            let mut reader = std::io::BufReader::new(file);
            let mut line = Vec::new();
            while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                if see(&line) {
                    break;
                }
                line.clear();
            }
        }
        Job::Bytes(_, bytes) | Job::Bundle(_, bundle::Source::Bytes(bytes), _) => {
            for line in bytes.split(|b| *b == b'\n') {
                if see(line) {
                    break;
                }
            }
        }
        Job::Text(_, text) => {
            for line in text.split('\n') {
                if see(line.as_bytes()) {
                    break;
                }
            }
        }
    }
    found
}

/// Adds the files under the input `p` (a file, or a directory walked in name order) to `jobs`.
fn collect_files(p: &Path, jobs: &mut Vec<Job>, warnings: &mut Vec<InputWarning>) {
    // What the walk may reach: the input directory itself, resolved (a dump is the user's
    // choice; a link inside it to /etc or ~/.kube is not).
    let root = std::fs::canonicalize(p).ok().filter(|r| r.is_dir());
    walk(p, root.as_deref(), 0, jobs, warnings);
}

fn walk(
    p: &Path,
    root: Option<&Path>,
    depth: usize,
    jobs: &mut Vec<Job>,
    warnings: &mut Vec<InputWarning>,
) {
    let name = p.display().to_string();
    let meta = match std::fs::symlink_metadata(p) {
        Ok(m) => m,
        Err(e) => return warnings.push(warn_file(&name, format!("cannot read: {e}"))),
    };
    let is_dir = if meta.file_type().is_symlink() && depth > 0 {
        // Inside a directory, a link is followed only to a file within that directory: a link
        // to a directory could loop, and a link out of it could reach any file on the machine.
        let target = match std::fs::canonicalize(p) {
            Ok(t) => t,
            Err(e) => return warnings.push(warn_file(&name, format!("broken link: {e}"))),
        };
        if root.is_some_and(|r| !target.starts_with(r)) {
            return warnings.push(warn_file(
                &name,
                "symbolic link to a place outside the input directory; not followed".into(),
            ));
        }
        if target.is_dir() {
            return warnings.push(warn_file(
                &name,
                "symbolic link to a directory; not followed".into(),
            ));
        }
        false
    } else if meta.file_type().is_symlink() {
        match std::fs::metadata(p) {
            Ok(m) => m.is_dir(),
            Err(e) => return warnings.push(warn_file(&name, format!("broken link: {e}"))),
        }
    } else {
        meta.is_dir()
    };
    if !is_dir {
        jobs.push(Job::File(p.to_path_buf()));
        return;
    }
    if depth >= MAX_DEPTH {
        return warnings.push(warn_file(
            &name,
            "directory nested too deep; skipped".into(),
        ));
    }
    let mut entries: Vec<PathBuf> = match std::fs::read_dir(p) {
        Ok(rd) => rd.filter_map(|e| e.ok().map(|e| e.path())).collect(),
        Err(e) => return warnings.push(warn_file(&name, format!("cannot read: {e}"))),
    };
    entries.sort();
    for e in entries {
        walk(&e, root, depth + 1, jobs, warnings);
    }
}

/// Calls `f` with each line of `reader` (its 1-based number, its bytes with the newline) until
/// `f` breaks; a read error ends the input with a warning naming the last line read. Shared by
/// the line-oriented parsers (audit logs, controller logs).
pub(crate) fn for_each_line<R: std::io::BufRead>(
    name: &str,
    mut reader: R,
    warnings: &mut Vec<InputWarning>,
    mut f: impl FnMut(u64, &[u8], &mut Vec<InputWarning>) -> std::ops::ControlFlow<()>,
) {
    let mut buf = Vec::new();
    let mut line_no = 0u64;
    loop {
        buf.clear();
        match reader.read_until(b'\n', &mut buf) {
            Ok(0) => return,
            Ok(_) => {}
            Err(e) => {
                return warnings.push(warn_file(
                    name,
                    format!("read error after line {line_no}: {e}"),
                ));
            }
        }
        line_no += 1;
        if f(line_no, &buf, warnings).is_break() {
            return;
        }
    }
}

/// Opens each file under `path` (a file, a directory walked like a dump directory, or `-` for
/// standard input), in name order; what cannot be opened becomes a warning.
pub(crate) fn open_files(
    path: &Path,
    warnings: &mut Vec<InputWarning>,
) -> Vec<(String, Box<dyn std::io::Read>)> {
    if path.as_os_str() == "-" {
        return vec![("<stdin>".into(), Box::new(std::io::stdin()))];
    }
    let mut jobs = Vec::new();
    collect_files(path, &mut jobs, warnings);
    let mut out: Vec<(String, Box<dyn std::io::Read>)> = Vec::new();
    for job in jobs {
        if let Job::File(p) = job {
            let name = p.display().to_string();
            match std::fs::File::open(&p) {
                Ok(file) => out.push((name, Box::new(file))),
                Err(e) => warnings.push(warn_file(&name, format!("cannot read: {e}"))),
            }
        }
    }
    out
}

pub(crate) fn load_job(job: &Job, anchor: jiff::Timestamp) -> FileOut {
    let mut out = FileOut::named(job.name());
    match job {
        Job::Text(name, text) => parse_text(name, text, None, anchor, &mut out),
        Job::Bytes(name, bytes) => parse_bytes(name, bytes, None, anchor, &mut out),
        Job::File(path) => {
            let name = path.display().to_string();
            match std::fs::read(path) {
                Ok(bytes) => parse_bytes(&name, &bytes, Some(path), anchor, &mut out),
                Err(e) => out.warn(warn_file(&name, format!("cannot read: {e}"))),
            }
        }
        Job::Bundle(name, bundle::Source::Bytes(bytes), role) => {
            bundle::load(name, bytes, role, anchor, &mut out)
        }
        Job::Bundle(name, bundle::Source::Path(path), role) => match std::fs::read(path) {
            Ok(bytes) => bundle::load(name, &bytes, role, anchor, &mut out),
            Err(e) => out.warn(warn_file(name, format!("cannot read: {e}"))),
        },
    }
    // The file's bytes are freed: a paste's held events are decoded now, not beside them.
    if let Some(p) = out.paste.take() {
        p.finish(&mut out);
    }
    out
}

/// Why a file that starts with `head` is not read as text: compressed, or binary (a NUL in its
/// first 8 KiB).
pub(crate) fn not_text(head: &[u8]) -> Option<&'static str> {
    if let Some(codec) = archive::Codec::of(head) {
        Some(match codec {
            archive::Codec::Gzip => {
                "gzip-compressed; decompress it first (gunzip -k FILE) and pass the result"
            }
            archive::Codec::Xz => {
                "xz-compressed; decompress it first (unxz -k FILE) and pass the result"
            }
            archive::Codec::Zstd => {
                "zstd-compressed; decompress it first (unzstd FILE) and pass the result"
            }
            archive::Codec::Bzip2 => {
                "bzip2-compressed; decompress it first (bunzip2 -k FILE) and pass the result"
            }
        })
    } else if head[..head.len().min(8192)].contains(&0) {
        Some("binary file; skipped")
    } else {
        None
    }
}

fn parse_bytes(
    name: &str,
    bytes: &[u8],
    path: Option<&Path>,
    anchor: jiff::Timestamp,
    out: &mut FileOut,
) {
    if let Some(why) = not_text(bytes) {
        return out.warn(warn_file(name, why.into()));
    }
    match std::str::from_utf8(bytes) {
        Ok(text) => parse_text(name, text, path, anchor, out),
        Err(e) => {
            let lossy = String::from_utf8_lossy(bytes);
            let (line, col) = line_col(&lossy, e.valid_up_to());
            out.warn(warn_at(
                name,
                line,
                col,
                "invalid UTF-8; read with the bad bytes replaced".into(),
            ));
            parse_text(name, &lossy, path, anchor, out)
        }
    }
}

/// Whether text that opens with `{` or `[` opens a JSON value: what follows the bracket (past
/// white space) can start a value, or a key.
fn json_opens(text: &str) -> bool {
    let mut rest = text.chars();
    let open = rest.next();
    let next = rest.as_str().trim_start().chars().next();
    match (open, next) {
        (Some('{'), Some(c)) => matches!(c, '"' | '}'),
        (Some('['), Some('{' | '[' | '"' | ']')) => true,
        // A scalar first: only if it is one (`[2025-12-02, 11:00:52 UTC]` opens a log line,
        // `[trace]` a tool's output).
        (Some('['), Some(_)) => {
            let token = rest
                .as_str()
                .trim_start()
                .split(|c: char| c.is_whitespace() || c == ',' || c == ']')
                .next()
                .unwrap_or_default();
            matches!(token, "true" | "false" | "null") || token.parse::<f64>().is_ok()
        }
        _ => true,
    }
}

fn parse_text(
    name: &str,
    text: &str,
    path: Option<&Path>,
    anchor: jiff::Timestamp,
    out: &mut FileOut,
) {
    let trimmed = text.trim_start_matches('\u{feff}');
    let first = trimmed.trim_start().chars().next();
    // `[root@host ~]# kubectl …` opens with a bracket and is a paste, not JSON: a JSON text's
    // bracket is followed by a value (a brace by a key or its end).
    let first = first.filter(|c| !matches!(c, '{' | '[') || json_opens(trimmed.trim_start()));
    match first {
        None if !trimmed.trim().is_empty() => {
            out.paste = Some(Box::new(paste::read(name, trimmed, anchor, out)))
        }
        None => out.empty = true,
        Some('{') | Some('[') if paste::is_json_paste(trimmed) => {
            out.paste = Some(Box::new(paste::read(name, trimmed, anchor, out)))
        }
        Some('{') | Some('[') => json::parse_stream(name, trimmed, out),
        Some('=') if trimmed.trim_start().starts_with(logs::START_MARKER) => {
            let before = (out.logs.len(), out.warnings.len());
            json::parse_stream(name, trimmed, out);
            // A dump's log blocks pasted without any object: read as a paste, where each block
            // is the output of its pod's container (as after `kubectl logs`), so the failure
            // its lines show is recognised instead of nothing being read.
            let objects = out.objects.object_count()
                + out.parts.iter().map(Snapshot::object_count).sum::<usize>();
            // A dump's own `NS/POD/logs.txt` stays the log it is.
            if objects == 0 && path.and_then(dump_log_owner).is_none() {
                out.logs.truncate(before.0);
                out.warnings.truncate(before.1);
                out.paste = Some(Box::new(paste::read(name, trimmed, anchor, out)))
            }
        }
        _ => {
            // A cluster-info dump's NS/POD/logs.txt without markers is a plain log.
            if let Some((ns, pod)) = path.and_then(dump_log_owner) {
                out.logs.push(ContainerLog {
                    namespace: ns,
                    pod,
                    container: String::new(),
                    origin: name.to_string(),
                    previous: false,
                    tail: logs::tail_lines(trimmed),
                });
            } else if paste::is_paste(trimmed) {
                out.paste = Some(Box::new(paste::read(name, trimmed, anchor, out)))
            } else {
                yaml::parse(name, trimmed, out);
                // YAML that yields nothing at all (a manifest pasted with its indentation
                // broken, YAML beside other output) is read as a paste too, which reads what it
                // can of it; the YAML's own problems stay said. A document refused for its size
                // or depth (a bomb) is not read again.
                let refused = out.warnings.iter().any(|w| {
                    [
                        "alias bomb",
                        "too large",
                        "nested too deeply",
                        "recursion limit",
                    ]
                    .iter()
                    .any(|p| w.message.contains(p))
                });
                if out.objects.object_count() == 0
                    && out.parts.is_empty()
                    && !out.warnings.is_empty()
                    && !refused
                {
                    out.paste = Some(Box::new(paste::read(name, trimmed, anchor, out)));
                }
            }
        }
    }
}

/// `…/NS/POD/logs.txt` → (NS, POD).
fn dump_log_owner(path: &Path) -> Option<(String, String)> {
    if path.file_name()? != "logs.txt" {
        return None;
    }
    let pod_dir = path.parent()?;
    let ns_dir = pod_dir.parent()?;
    Some((
        ns_dir.file_name()?.to_str()?.to_string(),
        pod_dir.file_name()?.to_str()?.to_string(),
    ))
}

#[cfg(test)]
mod tests;
