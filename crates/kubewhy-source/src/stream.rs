//! Large JSON lists, streamed. A `kubectl get -A -o json` of a big cluster is a single list of
//! a gigabyte or more; it is read in blocks of whole items, and the blocks are decoded on every
//! core (`pool.rs`) while the next ones are read. Neither the file's text nor a second pass over
//! it is ever needed: memory holds a few blocks, not the file.
//!
//! Blocks are cut where pretty-printed JSON shows an item starts. A raw newline never occurs
//! inside a JSON string, and every item of the list is indented alike, so a line made of the
//! items' indentation and `{` begins an item. The items before such a line end with `},`; that
//! comma becomes the block's closing `]`, and each block is the JSON array `[item, …, item]`,
//! decoded by `json::fast_items`. The list ends at a line of the top-level keys' indentation and
//! `]`; what follows (`"kind": "List"` and the like, which kubectl writes after the items) is
//! read as the list's tail.
//!
//! A file that is not laid out like that, or any block that does not decode cleanly, is read
//! again whole by the careful path (`json.rs`), which reports each problem at its position.
//! This path never warns: it either reads the whole file correctly or gives way.

use memchr::memmem;
use std::io::Read;

/// Files at least this large are streamed (smaller ones are read whole, in parallel per file).
pub(crate) const MIN_BYTES: u64 = 16 << 20;
/// Bytes read per block; a block ends at the last item that starts within it.
const BLOCK_BYTES: usize = 8 << 20;
/// The part of the file read first, which must show where the items begin.
const HEAD_BYTES: usize = 1 << 20;

/// What the head of a list says: its type, where its items begin, and how they are laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Head {
    /// The list's `kind` and `apiVersion` when given before its items.
    kind: Option<String>,
    api_version: Option<String>,
    /// The items' kind when the list names it before its items (`PodList` → `Pod`), else empty:
    /// each item says its own.
    pub(crate) item_kind: String,
    /// The API version of items that do not say theirs.
    pub(crate) api: String,
    /// `\n`, the items' indentation, `{`: the start of an item.
    open: Vec<u8>,
    /// `\n`, the top-level keys' indentation, `]`: the end of the items.
    close: Vec<u8>,
    /// Offset, in the head, of the first item's line (its `\n`).
    first_item: usize,
}

/// Reads the head of a file: `Some` when the file is a pretty-printed JSON list whose items
/// start on lines of their own, as kubectl writes them.
pub(crate) fn head(bytes: &[u8]) -> Option<Head> {
    let mut p = Parser { b: bytes, i: 0 };
    if p.b.starts_with("\u{feff}".as_bytes()) {
        p.i = 3;
    }
    p.ws();
    p.eat(b'{')?;
    let (mut kind, mut api): (Option<String>, Option<String>) = (None, None);
    loop {
        p.ws();
        let indent = p.indentation()?;
        let key: String = p.value()?;
        p.ws();
        p.eat(b':')?;
        p.ws();
        match key.as_str() {
            "items" => {
                p.eat(b'[')?;
                let at = p.i;
                p.ws();
                if p.b.get(p.i) != Some(&b'{') {
                    return None;
                }
                let item_indent = p.indentation()?;
                let first_item = at + memchr::memrchr(b'\n', &p.b[at..p.i])?;
                let item_kind = crate::json::list_item_kind(kind.as_deref()).to_string();
                if kind.as_deref().is_some_and(|k| !k.ends_with("List")) {
                    return None;
                }
                return Some(Head {
                    item_kind,
                    api: api.clone().unwrap_or_default(),
                    kind,
                    api_version: api,
                    open: [b"\n", item_indent, b"{"].concat(),
                    close: [b"\n", indent, b"]"].concat(),
                    first_item,
                });
            }
            "kind" if kind.is_none() => kind = Some(p.value()?),
            "apiVersion" if api.is_none() => api = Some(p.value()?),
            "kind" | "apiVersion" => return None,
            _ => p.skip()?,
        }
        p.ws();
        p.eat(b',')?;
    }
}

/// A cursor over the head's bytes.
struct Parser<'a> {
    b: &'a [u8],
    i: usize,
}

impl<'a> Parser<'a> {
    fn ws(&mut self) {
        while self.b.get(self.i).is_some_and(|c| c.is_ascii_whitespace()) {
            self.i += 1;
        }
    }
    fn eat(&mut self, c: u8) -> Option<()> {
        (self.b.get(self.i) == Some(&c)).then(|| self.i += 1)
    }
    /// The spaces and tabs between the last newline and here, when nothing else is there.
    fn indentation(&self) -> Option<&'a [u8]> {
        let line = memchr::memrchr(b'\n', &self.b[..self.i])? + 1;
        let indent = &self.b[line..self.i];
        indent
            .iter()
            .all(|c| *c == b' ' || *c == b'\t')
            .then_some(indent)
    }
    /// The JSON value here, decoded.
    fn value<T: serde::de::DeserializeOwned>(&mut self) -> Option<T> {
        let mut values = serde_json::Deserializer::from_slice(&self.b[self.i..]).into_iter::<T>();
        let v = values.next()?.ok()?;
        self.i += values.byte_offset();
        Some(v)
    }
    fn skip(&mut self) -> Option<()> {
        self.value::<serde::de::IgnoredAny>().map(drop)
    }
}

/// What follows a list's items: `}` alone, or further keys and then `}`.
fn tail(bytes: &[u8]) -> Option<Tail> {
    let rest = bytes.trim_ascii();
    if rest == b"}" {
        return Some(Tail::default());
    }
    let keys = rest.strip_prefix(b",")?;
    serde_json::from_slice([b"{", keys].concat().as_slice()).ok()
}

/// The keys kubectl writes after the items.
#[derive(Debug, Default, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Tail {
    pub(crate) kind: Option<String>,
    pub(crate) api_version: Option<String>,
    /// A second `items` is not a list kubewhy streams (`IgnoredAny` only marks it present).
    items: Option<serde::de::IgnoredAny>,
}

impl Tail {
    /// Whether the list's type, given after its items, agrees with how they were read: items of
    /// a list whose kind comes only now were read by their own kinds, which is right for any
    /// list; a key given twice, or an API version the head's items should have had, is not.
    pub(crate) fn agrees(&self, head: &Head) -> bool {
        let list = self
            .kind
            .as_deref()
            .is_none_or(|k| k.is_empty() || k.ends_with("List"));
        let twice = (head.kind.is_some() && self.kind.is_some())
            || (head.api_version.is_some() && self.api_version.is_some())
            || self.items.is_some();
        let late_api = !head.item_kind.is_empty() && self.api_version.is_some();
        list && !twice && !late_api
    }
}

/// Reads a file's items in blocks. Buffers come from, and go back to, a shared set
/// (`Buffers`): the same pages are reused for every block instead of being mapped anew.
pub(crate) struct Blocks<'a, R> {
    file: R,
    head: &'a Head,
    buffers: &'a Buffers,
    /// `[` and the items read but not yet handed out.
    buf: Vec<u8>,
    /// Where in `buf` an item start may still be found (before it, none is).
    search_from: usize,
    /// Bytes to read per block (`BLOCK_BYTES`; smaller in tests).
    block_bytes: usize,
    /// The file is read to its end.
    eof: bool,
    /// The last block is handed out.
    done: bool,
    /// The list's tail, once read.
    pub(crate) tail: Option<Tail>,
}

impl<'a, R: Read> Blocks<'a, R> {
    /// `head_bytes` are the bytes read so far (where `head` was found); `file` reads on after them.
    pub(crate) fn new(file: R, head_bytes: &[u8], head: &'a Head, buffers: &'a Buffers) -> Self {
        let mut buf = buffers.take();
        buf.push(b'[');
        buf.extend_from_slice(&head_bytes[head.first_item..]);
        Blocks {
            file,
            head,
            buffers,
            buf,
            search_from: 2,
            block_bytes: BLOCK_BYTES,
            eof: false,
            done: false,
            tail: None,
        }
    }

    /// The next block, `[item, …]`; `Ok(None)` at the end, `Err` when the file is not laid out
    /// as its head promised (or cannot be read): the careful path then reads it.
    pub(crate) fn next_block(&mut self) -> Result<Option<Vec<u8>>, ()> {
        if self.done {
            return Ok(None);
        }
        loop {
            if !self.eof && self.buf.len() <= self.block_bytes {
                self.fill(self.block_bytes + 1 - self.buf.len())?;
            }
            if let Some(at) = self.item_start() {
                return self.cut(at).map(Some);
            }
            if self.eof {
                return self.last_block().map(Some);
            }
            // One item larger than a block so far: read on.
            self.fill(self.block_bytes / 2)?;
        }
    }

    /// Reads up to `n` more bytes; fewer means the end of the file.
    fn fill(&mut self, n: usize) -> Result<(), ()> {
        let read = (&mut self.file)
            .take(n as u64)
            .read_to_end(&mut self.buf)
            .map_err(drop)?;
        self.eof |= read < n;
        Ok(())
    }

    /// Where to end the next block, once more than a block is read: at the last item that
    /// starts within a block's size, else (an item larger than a block) at the first after it.
    fn item_start(&mut self) -> Option<usize> {
        let (open, len) = (&self.head.open, self.buf.len());
        if len <= self.block_bytes {
            return None;
        }
        let end = (self.block_bytes + open.len()).min(len);
        let from = self.search_from.min(end);
        let found = memmem::rfind(&self.buf[from..end], open)
            .map(|i| from + i)
            .or_else(|| {
                let from = from.max(self.block_bytes);
                memmem::find(&self.buf[from..], open).map(|i| from + i)
            });
        if found.is_none() {
            // None before the end: the next search starts where this one could not finish.
            self.search_from = (len + 1).saturating_sub(open.len()).max(2);
        }
        found
    }

    /// Hands out the items before `at` (an item's start), keeping the rest for the next block.
    fn cut(&mut self, at: usize) -> Result<Vec<u8>, ()> {
        let mut next = self.buffers.take();
        next.push(b'[');
        next.extend_from_slice(&self.buf[at..]);
        let mut block = std::mem::replace(&mut self.buf, next);
        self.search_from = 2;
        block.truncate(at);
        let end = block.trim_ascii_end().len();
        // The items before the cut end with `},`: the comma closes the block's array.
        match block[..end].last_mut() {
            Some(c @ b',') => *c = b']',
            _ => return Err(()),
        }
        block.truncate(end);
        Ok(block)
    }

    /// The rest of the file: the last items, then the list's tail.
    fn last_block(&mut self) -> Result<Vec<u8>, ()> {
        self.done = true;
        let at = memmem::rfind(&self.buf, &self.head.close).ok_or(())?;
        let end = at + self.head.close.len();
        self.tail = Some(tail(&self.buf[end..]).ok_or(())?);
        let mut block = std::mem::take(&mut self.buf);
        block.truncate(end);
        Ok(block)
    }
}

/// Block buffers, reused: a new one is allocated only when none is free.
#[derive(Default)]
pub(crate) struct Buffers {
    free: std::sync::Mutex<Vec<Vec<u8>>>,
}

impl Buffers {
    pub(crate) fn take(&self) -> Vec<u8> {
        let free = self.free.lock().unwrap_or_else(|e| e.into_inner()).pop();
        free.unwrap_or_else(|| Vec::with_capacity(BLOCK_BYTES + BLOCK_BYTES / 4))
    }

    /// Keeps a buffer for the next block (at most `keep` are kept).
    pub(crate) fn give(&self, mut buf: Vec<u8>, keep: usize) {
        buf.clear();
        let mut free = self.free.lock().unwrap_or_else(|e| e.into_inner());
        if free.len() < keep {
            free.push(buf);
        }
    }
}

/// Reads the head of `file` (up to `HEAD_BYTES`): the bytes read, and the list's layout when it
/// can be streamed.
pub(crate) fn read_head<R: Read>(file: &mut R) -> std::io::Result<(Vec<u8>, Option<Head>)> {
    let mut bytes = Vec::with_capacity(HEAD_BYTES);
    file.take(HEAD_BYTES as u64).read_to_end(&mut bytes)?;
    let text = String::from_utf8_lossy(&bytes);
    let parsed = if crate::not_text(&bytes).is_some() || crate::paste::is_json_paste(&text) {
        None
    } else {
        head(&bytes)
    };
    Ok((bytes, parsed))
}

/// Empties, in place, every `"managedFields": [ … ]` of a block laid out as kubectl writes it:
/// the key begins its line and the list closes on a line of the key's indentation and `]`. No
/// check reads managedFields, which are over a third of a pod's bytes; skipping them with one
/// search instead of the JSON parser is the largest saving left in reading a big list.
///
/// The cut is made only when no `]` stands between the list's `[` and that closing line (a
/// kubectl's managedFields hold objects only). Then the closing `]` is the first after the
/// `[`: in valid JSON it closes either this list, and the cut removes exactly its elements, or
/// an array opened inside it, and the block no longer decodes and goes to the careful path as
/// any broken block does. So a block that decodes means what it meant; only text the decoding
/// would have skipped goes.
pub(crate) fn empty_managed_fields(block: &mut Vec<u8>) {
    const KEY: &[u8] = b"\"managedFields\": [\n";
    let key = memmem::Finder::new(KEY);
    let (mut read, mut write) = (0, 0);
    let mut close = Vec::with_capacity(32);
    // The closing line's search, kept while the indentation stays the same (it does, in a list).
    let mut finder: Option<memmem::Finder<'static>> = None;
    let mut from = 0;
    while let Some(at) = key.find(&block[from..]).map(|i| from + i) {
        let open = at + KEY.len() - 1; // the `\n` after `[`
        from = open;
        let Some(line) = memchr::memrchr(b'\n', &block[..at]) else {
            continue;
        };
        let indent = &block[line + 1..at];
        if !indent.iter().all(|c| *c == b' ') {
            continue;
        }
        close.clear();
        close.push(b'\n');
        close.extend_from_slice(indent);
        close.push(b']');
        if finder
            .as_ref()
            .is_none_or(|f| f.needle() != close.as_slice())
        {
            finder = Some(memmem::Finder::new(&close).into_owned());
        }
        let Some(end) = finder
            .as_ref()
            .and_then(|f| f.find(&block[open..]))
            .map(|i| open + i)
        else {
            continue;
        };
        if memchr::memchr(b']', &block[open..end]).is_some() {
            continue;
        }
        block.copy_within(read..open, write);
        write += open - read;
        read = end + close.len() - 1; // the `]`
        from = read;
    }
    block.copy_within(read.., write);
    write += block.len() - read;
    block.truncate(write);
}

/// The fuzz target's body (`crate::fuzz::stream`): every block cut from `bytes`, with blocks of
/// a few bytes, decoded or refused.
pub(crate) fn fuzz_blocks(bytes: &[u8]) {
    let mut r = std::io::Cursor::new(bytes);
    let Ok((head_bytes, Some(head))) = read_head(&mut r) else {
        return;
    };
    let buffers = Buffers::default();
    let mut blocks = Blocks::new(r, &head_bytes, &head, &buffers);
    blocks.block_bytes = 64;
    let mut n = 0;
    while let Ok(Some(mut block)) = blocks.next_block() {
        let whole = crate::json::fast_items(&block, &head.item_kind, &head.api);
        empty_managed_fields(&mut block);
        let emptied = crate::json::fast_items(&block, &head.item_kind, &head.api);
        // A block that decodes after its managedFields were emptied means what it meant (one
        // that decoded may not any more, and goes to the careful path; one that did not may,
        // once text no check reads is gone).
        if let (Some(w), Some(e)) = (&whole, &emptied) {
            let objects = |s: &kubewhy_model::Snapshot| {
                format!(
                    "{:?}{:?}{:?}{:?}{:?}{:?}{:?}",
                    s.pods, s.events, s.nodes, s.namespaces, s.pvcs, s.workloads, s.others
                )
            };
            assert_eq!(
                objects(w),
                objects(e),
                "emptying managedFields changed a block"
            );
        }
        n += 1;
        assert!(n <= bytes.len() + 1, "more blocks than bytes");
    }
}

#[cfg(test)]
mod tests;
