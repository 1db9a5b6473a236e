//! Archives as input (`.tar`, plain or compressed with gzip, xz, zstd or bzip2; `.zip`; and one
//! compressed file), told by their content, not their name: read in one streaming pass, never
//! unpacked to disk, with the hostile-input rules of directories. Each entry is refused on its
//! own, with a message, when its path is absolute or climbs out (`..`), when it is a link (never
//! followed) or a device; the whole archive stops when it expands past `MAX_TOTAL` or more than
//! `MAX_RATIO` times its compressed size (an archive bomb, whatever the codec: the budget counts
//! the bytes the decoder took and gave), or holds more than `MAX_ENTRIES` entries. What an entry
//! is for is the caller's (`bundle.rs`).

use crate::warn_file;
use kubewhy_model::InputWarning;
use std::cell::Cell;
use std::io::{BufReader, Read};
use std::ops::ControlFlow;
use std::path::Path;
use std::rc::Rc;

/// Uncompressed bytes an archive may expand to in all.
pub(crate) const MAX_TOTAL: u64 = 64 << 30;
/// Past `RATIO_FROM` uncompressed bytes, at most this many times the compressed bytes read.
pub(crate) const MAX_RATIO: u64 = 200;
const RATIO_FROM: u64 = 16 << 20;
/// Entries read at most (directories and refused entries count).
pub(crate) const MAX_ENTRIES: u64 = 2_000_000;

/// A compression, told by its magic bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Codec {
    Gzip,
    Xz,
    Zstd,
    Bzip2,
}

impl Codec {
    /// The codec whose stream starts with `head`.
    pub(crate) fn of(head: &[u8]) -> Option<Codec> {
        if head.starts_with(&[0x1f, 0x8b]) {
            Some(Codec::Gzip)
        } else if head.starts_with(&[0xfd, b'7', b'z', b'X', b'Z', 0]) {
            Some(Codec::Xz)
        } else if head.starts_with(&[0x28, 0xb5, 0x2f, 0xfd]) {
            Some(Codec::Zstd)
        } else if head.len() >= 4 && head.starts_with(b"BZh") && (b'1'..=b'9').contains(&head[3]) {
            Some(Codec::Bzip2)
        } else {
            None
        }
    }

    /// The file name suffix the codec's files carry.
    fn suffix(self) -> &'static str {
        match self {
            Codec::Gzip => "gz",
            Codec::Xz => "xz",
            Codec::Zstd => "zst",
            Codec::Bzip2 => "bz2",
        }
    }

    /// A reader of the stream `r` decompressed; every member or frame of a concatenated stream
    /// is read (`cat a.gz b.gz`, `pxz`, `pzstd` and `pbzip2` write several).
    fn decoder<'r>(self, r: impl std::io::BufRead + 'r) -> std::io::Result<Box<dyn Read + 'r>> {
        Ok(match self {
            Codec::Gzip => Box::new(flate2::bufread::MultiGzDecoder::new(r)),
            Codec::Xz => Box::new(XzStreams::new(r)?),
            Codec::Zstd => Box::new(zstd::stream::read::Decoder::with_buffer(r)?),
            Codec::Bzip2 => Box::new(bzip2::bufread::MultiBzDecoder::new(r)),
        })
    }
}

/// An .xz file decoded on every core when it holds several blocks (`xz -T0`, pixz), one stream
/// after another when several were concatenated (`cat a.xz b.xz`; the padding between them
/// skipped). liblzma's threaded decoder reads one stream; this starts the next.
struct XzStreams<R: std::io::BufRead> {
    current: Option<liblzma::bufread::XzDecoder<R>>,
}

impl<R: std::io::BufRead> XzStreams<R> {
    fn new(r: R) -> std::io::Result<Self> {
        Ok(XzStreams {
            current: Some(liblzma::bufread::XzDecoder::new_stream(r, Self::stream()?)),
        })
    }

    /// A threaded decoder: one thread per core, memory without limit (the archive's budget
    /// stops a bomb), at most 1 GiB of it for threading before it falls back to one thread.
    fn stream() -> std::io::Result<liblzma::stream::Stream> {
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get() as u32);
        liblzma::stream::MtStreamBuilder::new()
            .threads(threads)
            .memlimit_threading(1 << 30)
            .memlimit_stop(u64::MAX)
            .timeout_ms(300)
            .decoder()
            .map_err(std::io::Error::other)
    }
}

impl<R: std::io::BufRead> Read for XzStreams<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        loop {
            let Some(d) = self.current.as_mut() else {
                return Ok(0);
            };
            let n = d.read(buf)?;
            if n > 0 || buf.is_empty() {
                return Ok(n);
            }
            // This stream ended: another may follow, after stream padding (zeros).
            let mut r = self.current.take().expect("a decoder").into_inner();
            loop {
                let head = r.fill_buf()?;
                if head.is_empty() {
                    return Ok(0);
                }
                let zeros = head.iter().take_while(|b| **b == 0).count();
                if zeros == 0 {
                    break;
                }
                r.consume(zeros);
            }
            self.current = Some(liblzma::bufread::XzDecoder::new_stream(r, Self::stream()?));
        }
    }
}

/// What an input file is, by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    /// A tar archive, compressed or not.
    Tar(Option<Codec>),
    Zip,
    /// One compressed file (`dump.json.gz`, `kubelet.log.xz`), read as the file it holds.
    Compressed(Codec),
}

impl Format {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::Tar(None) => "tar archive",
            Format::Tar(Some(Codec::Gzip)) => "tar.gz archive",
            Format::Tar(Some(Codec::Xz)) => "tar.xz archive",
            Format::Tar(Some(Codec::Zstd)) => "tar.zst archive",
            Format::Tar(Some(Codec::Bzip2)) => "tar.bz2 archive",
            Format::Zip => "zip archive",
            Format::Compressed(Codec::Gzip) => "gzipped file",
            Format::Compressed(Codec::Xz) => "xz-compressed file",
            Format::Compressed(Codec::Zstd) => "zstd-compressed file",
            Format::Compressed(Codec::Bzip2) => "bzip2-compressed file",
        }
    }
}

fn is_tar(head: &[u8]) -> bool {
    head.len() >= 262 && &head[257..262] == b"ustar"
}

/// The archive format of `path`, if it is one (by content, not by name).
pub(crate) fn sniff(path: &Path) -> Option<Format> {
    let mut head = Vec::with_capacity(512);
    std::fs::File::open(path)
        .ok()?
        .take(512)
        .read_to_end(&mut head)
        .ok()?;
    sniff_bytes(&head, |codec| {
        let mut inner = Vec::with_capacity(512);
        let file = BufReader::new(std::fs::File::open(path).ok()?);
        let _ = codec.decoder(file).ok()?.take(512).read_to_end(&mut inner);
        Some(inner)
    })
}

/// `sniff` on the first bytes; `inner` gives the first bytes a compressed stream expands to.
pub(crate) fn sniff_bytes(
    head: &[u8],
    inner: impl FnOnce(Codec) -> Option<Vec<u8>>,
) -> Option<Format> {
    if let Some(codec) = Codec::of(head) {
        return Some(if inner(codec).is_some_and(|i| is_tar(&i)) {
            Format::Tar(Some(codec))
        } else {
            Format::Compressed(codec)
        });
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Format::Zip);
    }
    is_tar(head).then_some(Format::Tar(None))
}

/// One entry as the caller sees it: its path inside the archive (`/`-separated, without `./`),
/// its size as the archive declares it, and when it was written.
pub(crate) struct Entry<'a> {
    pub path: &'a str,
    pub size: u64,
    pub mtime: Option<jiff::Timestamp>,
}

/// Counts what passes through a reader.
struct Counted<R> {
    inner: R,
    n: Rc<Cell<u64>>,
}

impl<R: std::io::Seek> std::io::Seek for Counted<R> {
    fn seek(&mut self, pos: std::io::SeekFrom) -> std::io::Result<u64> {
        self.inner.seek(pos)
    }
}

impl<R: Read> Read for Counted<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let got = self.inner.read(buf)?;
        self.n.set(self.n.get() + got as u64);
        Ok(got)
    }
}

/// The bytes an archive expanded to and the compressed bytes read, shared by every entry's
/// guard: the first read past the limits fails, and the archive stops there.
#[derive(Clone, Default)]
struct Budget {
    compressed: Rc<Cell<u64>>,
    expanded: Rc<Cell<u64>>,
    tripped: Rc<Cell<Option<&'static str>>>,
}

impl Budget {
    /// Says once, for the whole archive, that the budget stopped it.
    fn say_tripped(&self, name: &str, warnings: &mut Vec<InputWarning>) {
        if let Some(why) = self.tripped.get() {
            warnings.push(warn_file(
                name,
                format!(
                    "{why} after {} MiB: an archive bomb? reading stopped there",
                    self.expanded.get() >> 20
                ),
            ));
        }
    }

    fn check(&self) -> Result<(), &'static str> {
        let (c, e) = (self.compressed.get(), self.expanded.get());
        if e > MAX_TOTAL {
            return Err("expands past 64 GiB");
        }
        if e > RATIO_FROM && e > c.saturating_mul(MAX_RATIO) {
            return Err("expands more than 200 times its compressed size");
        }
        Ok(())
    }
}

/// An entry's reader, failing once the archive's budget is spent.
struct Guarded<'r> {
    inner: &'r mut dyn Read,
    budget: Budget,
}

impl Read for Guarded<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if let Some(why) = self.budget.tripped.get() {
            return Err(std::io::Error::new(std::io::ErrorKind::FileTooLarge, why));
        }
        let got = self.inner.read(buf)?;
        self.budget
            .expanded
            .set(self.budget.expanded.get() + got as u64);
        if let Err(why) = self.budget.check() {
            self.budget.tripped.set(Some(why));
            return Err(std::io::Error::new(std::io::ErrorKind::FileTooLarge, why));
        }
        Ok(got)
    }
}

/// The entry's path made safe: relative, `/`-separated, without `.` or empty components; `None`
/// when it is absolute or climbs out with `..`.
pub(crate) fn safe_path(raw: &str) -> Option<String> {
    if raw.starts_with('/') || raw.starts_with('\\') || raw.as_bytes().get(1) == Some(&b':') {
        return None;
    }
    let mut parts = Vec::new();
    for c in raw.split(['/', '\\']) {
        match c {
            "" | "." => {}
            ".." => return None,
            c => parts.push(c),
        }
    }
    (!parts.is_empty()).then(|| parts.join("/"))
}

/// Whether a link's target, joined to the link's directory, stays inside the archive once its
/// `..` are resolved.
fn resolves_inside(joined: &str) -> bool {
    let mut depth = 0usize;
    for c in joined.split('/') {
        match c {
            "" | "." => {}
            ".." if depth == 0 => return false,
            ".." => depth -= 1,
            _ => depth += 1,
        }
    }
    depth > 0
}

/// Calls `each` with every regular file of the archive at `path` (`name` as messages name it),
/// in archive order, and its contents as a reader; refused entries and a stop become warnings.
/// `each` may read as much of an entry as it wants; what it leaves is skipped. Returns the
/// number of links that point inside the archive: skipped without a word (troubleshoot.sh links
/// each collected log to a second place), never followed.
pub(crate) fn for_each_entry(
    name: &str,
    path: &Path,
    format: Format,
    warnings: &mut Vec<InputWarning>,
    each: &mut dyn FnMut(&Entry, &mut dyn Read) -> ControlFlow<()>,
) -> usize {
    let mut links_inside = 0;
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) => {
            warnings.push(warn_file(name, format!("cannot read: {e}")));
            return 0;
        }
    };
    let budget = Budget::default();
    // An archive read inside this one, on this thread, spends this budget.
    let _reading = Reading::enter(&budget);
    // Small reads of the compressed file: what counts as read is what the decoder took, to within
    // 32 KiB (a bomb stops within 200 × 32 KiB of the limit).
    let counted = BufReader::with_capacity(
        32 << 10,
        Counted {
            inner: file,
            n: budget.compressed.clone(),
        },
    );
    match format {
        Format::Tar(None) => {
            // Uncompressed: the ratio is 1.
            links_inside = tar_entries(name, counted, &budget, warnings, each)
        }
        Format::Tar(Some(codec)) => match codec.decoder(counted) {
            Ok(d) => links_inside = tar_entries(name, d, &budget, warnings, each),
            Err(e) => warnings.push(warn_file(name, format!("cannot decompress: {e}"))),
        },
        Format::Compressed(codec) => {
            let inner = name
                .strip_suffix(&format!(".{}", codec.suffix()))
                .unwrap_or(name);
            let inner = inner.rsplit('/').next().unwrap_or(inner).to_string();
            let mut d = match codec.decoder(counted) {
                Ok(d) => d,
                Err(e) => {
                    warnings.push(warn_file(name, format!("cannot decompress: {e}")));
                    return 0;
                }
            };
            let entry = Entry {
                path: &inner,
                size: 0,
                mtime: None,
            };
            let mut guarded = Guarded {
                inner: &mut d,
                budget: budget.clone(),
            };
            let _ = each(&entry, &mut guarded);
        }
        // A zip is read from its central directory (seeking), the compressed bytes counted as
        // its entries are read.
        Format::Zip => {
            let file = counted.into_inner();
            links_inside = zip_entries(name, file, &budget, warnings, each)
        }
    }
    budget.say_tripped(name, warnings);
    links_inside
}

/// `for_each_zip_entry_in` for a zip held in memory: an archive inside an archive
/// (support-bundle-kit's `nodes/<node>.zip`), read by the same rules and limits. Inside an
/// archive being read on this thread it spends that archive's budget: what it expands to counts
/// with the rest, against the outer archive's compressed bytes (which hold it), and a stop is
/// said once, for the outer archive. Alone (a bundle's directory), it has a budget of its own.
pub(crate) fn for_each_zip_entry_in(
    name: &str,
    bytes: &[u8],
    warnings: &mut Vec<InputWarning>,
    each: &mut dyn FnMut(&Entry, &mut dyn Read) -> ControlFlow<()>,
) -> usize {
    let parent = READING.with(|r| r.borrow().clone());
    let budget = parent.clone().unwrap_or_default();
    // The outer archive counted these bytes already: the nested reads are not counted again.
    let counted = Counted {
        inner: std::io::Cursor::new(bytes),
        n: if parent.is_some() {
            Rc::new(Cell::new(0))
        } else {
            budget.compressed.clone()
        },
    };
    let links = zip_entries(name, counted, &budget, warnings, each);
    if parent.is_none() {
        budget.say_tripped(name, warnings);
    }
    links
}

thread_local! {
    /// The budget of the archive `for_each_entry` is reading on this thread.
    static READING: std::cell::RefCell<Option<Budget>> = const { std::cell::RefCell::new(None) };
}

/// While alive, `budget` is the archive being read on this thread (the previous one back after).
struct Reading(Option<Budget>);

impl Reading {
    fn enter(budget: &Budget) -> Reading {
        Reading(READING.with(|r| r.replace(Some(budget.clone()))))
    }
}

impl Drop for Reading {
    fn drop(&mut self) {
        let previous = self.0.take();
        READING.with(|r| *r.borrow_mut() = previous);
    }
}

/// What a walk through an archive says: each refused entry once (at most `MAX_SAID`, then how
/// many more), the links inside it it skipped, and why it stopped early.
struct Walk<'w> {
    name: &'w str,
    said: usize,
    more: usize,
    links_inside: usize,
    failed: Option<String>,
    warnings: &'w mut Vec<InputWarning>,
}

const MAX_SAID: usize = 20;

impl<'w> Walk<'w> {
    fn new(name: &'w str, warnings: &'w mut Vec<InputWarning>) -> Walk<'w> {
        Walk {
            name,
            said: 0,
            more: 0,
            links_inside: 0,
            failed: None,
            warnings,
        }
    }

    fn refuse(&mut self, entry: &str, why: &str) {
        if self.said < MAX_SAID {
            self.said += 1;
            self.warnings.push(warn_file(
                &format!("{}:{entry}", self.name),
                why.to_string(),
            ));
        } else {
            self.more += 1;
        }
    }

    /// A link: skipped quietly when it points inside the archive (`relative` to its own
    /// directory, a symbolic link; to the root, a hard link), refused otherwise; never followed.
    fn link(&mut self, raw: &str, target: &str, relative: bool) {
        let joined = match raw.rsplit_once('/') {
            Some((dir, _)) if relative => format!("{dir}/{target}"),
            _ => target.to_string(),
        };
        if !target.starts_with('/') && resolves_inside(&joined) {
            self.links_inside += 1;
        } else {
            self.refuse(
                raw,
                &format!("a link to {target:?}, outside the archive; not followed"),
            );
        }
    }

    /// The entry's path made safe, or `None` (refused).
    fn path(&mut self, raw: &str) -> Option<String> {
        let path = safe_path(raw);
        if path.is_none() {
            self.refuse(
                raw,
                "an absolute path or one that climbs out with `..`; refused",
            );
        }
        path
    }

    /// The walk's end: how many entries more were refused, why it stopped; the links skipped.
    fn finish(self) -> usize {
        if self.more > 0 {
            self.warnings.push(warn_file(
                self.name,
                format!("{} more entries refused", self.more),
            ));
        }
        if let Some(why) = self.failed {
            self.warnings.push(warn_file(self.name, why));
        }
        self.links_inside
    }
}

/// Hands an entry to the caller through the budget's guard; whether the walk stops.
fn hand(
    each: &mut dyn FnMut(&Entry, &mut dyn Read) -> ControlFlow<()>,
    info: &Entry,
    reader: &mut dyn Read,
    budget: &Budget,
) -> bool {
    let mut guarded = Guarded {
        inner: reader,
        budget: budget.clone(),
    };
    let flow = each(info, &mut guarded);
    budget.tripped.get().is_some() || flow.is_break()
}

fn tar_entries<R: Read>(
    name: &str,
    reader: R,
    budget: &Budget,
    warnings: &mut Vec<InputWarning>,
    each: &mut dyn FnMut(&Entry, &mut dyn Read) -> ControlFlow<()>,
) -> usize {
    let mut archive = tar::Archive::new(reader);
    let entries = match archive.entries() {
        Ok(e) => e,
        Err(e) => {
            warnings.push(warn_file(name, format!("not a readable tar archive: {e}")));
            return 0;
        }
    };
    let mut walk = Walk::new(name, warnings);
    let mut count = 0u64;
    for entry in entries {
        count += 1;
        if count > MAX_ENTRIES {
            walk.failed = Some(format!(
                "more than {MAX_ENTRIES} entries; the rest were not read"
            ));
            break;
        }
        let mut entry = match entry {
            Ok(e) => e,
            Err(e) => {
                if budget.tripped.get().is_none() {
                    walk.failed = Some(format!("damaged after {} entries: {e}", count - 1));
                }
                break;
            }
        };
        let raw = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        if kind.is_dir() || kind.is_pax_global_extensions() || kind.is_pax_local_extensions() {
            continue;
        }
        if kind.is_symlink() || kind.is_hard_link() {
            let target = entry
                .link_name_bytes()
                .map(|t| String::from_utf8_lossy(&t).into_owned())
                .unwrap_or_default();
            walk.link(&raw, &target, kind.is_symlink());
            continue;
        }
        if !(kind.is_file() || kind.is_contiguous()) {
            walk.refuse(&raw, "not a regular file (device, pipe or socket); skipped");
            continue;
        }
        let Some(path) = walk.path(&raw) else {
            continue;
        };
        let info = Entry {
            path: &path,
            size: entry.header().size().unwrap_or(0),
            mtime: entry
                .header()
                .mtime()
                .ok()
                .and_then(|s| jiff::Timestamp::from_second(s as i64).ok()),
        };
        if hand(each, &info, &mut entry, budget) {
            break;
        }
    }
    walk.finish()
}

fn zip_entries<R: Read + std::io::Seek>(
    name: &str,
    reader: R,
    budget: &Budget,
    warnings: &mut Vec<InputWarning>,
    each: &mut dyn FnMut(&Entry, &mut dyn Read) -> ControlFlow<()>,
) -> usize {
    let mut archive = match zip::ZipArchive::new(reader) {
        Ok(a) => a,
        Err(e) => {
            warnings.push(warn_file(name, format!("not a readable zip archive: {e}")));
            return 0;
        }
    };
    let mut walk = Walk::new(name, warnings);
    if archive.len() as u64 > MAX_ENTRIES {
        walk.failed = Some(format!(
            "more than {MAX_ENTRIES} entries; the rest were not read"
        ));
    }
    for i in 0..archive.len().min(MAX_ENTRIES as usize) {
        let mut entry = match archive.by_index(i) {
            Ok(e) => e,
            Err(e) => {
                walk.refuse(&format!("#{i}"), &format!("cannot be read: {e}"));
                continue;
            }
        };
        let raw = match entry.name() {
            Ok(n) => n.into_owned(),
            Err(e) => {
                walk.refuse(&format!("#{i}"), &format!("an unreadable name: {e}"));
                continue;
            }
        };
        if entry.is_dir() {
            continue;
        }
        if entry.is_symlink() {
            // A zip's link holds its target as its contents.
            let mut target = String::new();
            let _ = (&mut entry).take(4096).read_to_string(&mut target);
            walk.link(&raw, &target, true);
            continue;
        }
        let Some(path) = walk.path(&raw) else {
            continue;
        };
        let mtime = entry.last_modified().and_then(|d| {
            jiff::civil::DateTime::new(
                d.year() as i16,
                d.month() as i8,
                d.day() as i8,
                d.hour() as i8,
                d.minute() as i8,
                d.second() as i8,
                0,
            )
            .ok()?
            .to_zoned(jiff::tz::TimeZone::UTC)
            .ok()
            .map(|z| z.timestamp())
        });
        let info = Entry {
            path: &path,
            size: entry.size(),
            mtime,
        };
        if hand(each, &info, &mut entry, budget) {
            break;
        }
    }
    walk.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_that_climb_out_or_start_at_the_root_are_refused() {
        assert_eq!(
            safe_path("./bundle/pods.json").as_deref(),
            Some("bundle/pods.json")
        );
        assert_eq!(safe_path("a//b/./c").as_deref(), Some("a/b/c"));
        assert_eq!(safe_path("/etc/passwd"), None);
        assert_eq!(safe_path("a/../../etc/passwd"), None);
        assert_eq!(safe_path("..\\x"), None);
        assert_eq!(safe_path("C:/x"), None);
        assert_eq!(safe_path("./"), None);
        assert!(resolves_inside(
            "b/pod-logs/x/../../cluster-resources/pods/logs/a.log"
        ));
        assert!(!resolves_inside("b/pod-logs/../../../etc/passwd"));
        assert!(!resolves_inside("../x"));
    }

    #[test]
    fn formats_are_told_by_content() {
        let mut tar = vec![0u8; 512];
        tar[257..262].copy_from_slice(b"ustar");
        assert_eq!(sniff_bytes(&tar, |_| None), Some(Format::Tar(None)));
        assert_eq!(sniff_bytes(b"PK\x03\x04rest", |_| None), Some(Format::Zip));
        for (head, codec) in [
            (&[0x1f, 0x8b, 8][..], Codec::Gzip),
            (&[0xfd, b'7', b'z', b'X', b'Z', 0, 0, 4][..], Codec::Xz),
            (&[0x28, 0xb5, 0x2f, 0xfd, 0x24][..], Codec::Zstd),
            (&b"BZh91AY&SY"[..], Codec::Bzip2),
        ] {
            assert_eq!(
                sniff_bytes(head, |c| (c == codec).then(|| tar.clone())),
                Some(Format::Tar(Some(codec)))
            );
            assert_eq!(
                sniff_bytes(head, |_| Some(b"{}".to_vec())),
                Some(Format::Compressed(codec))
            );
        }
        assert_eq!(sniff_bytes(b"BZh0", |_| None), None);
        assert_eq!(sniff_bytes(b"{\"kind\": \"List\"}", |_| None), None);
    }

    /// `entries` as a tar archive's bytes.
    fn tar_of(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
        let mut b = tar::Builder::new(Vec::new());
        for (path, data) in entries {
            let mut h = tar::Header::new_ustar();
            h.set_size(data.len() as u64);
            h.set_mode(0o644);
            h.set_cksum();
            b.append_data(&mut h, path, &data[..]).unwrap();
        }
        b.into_inner().unwrap()
    }

    fn compress(codec: Codec, bytes: &[u8]) -> Vec<u8> {
        use std::io::Write;
        match codec {
            Codec::Gzip => {
                let mut e = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
                e.write_all(bytes).unwrap();
                e.finish().unwrap()
            }
            Codec::Xz => {
                let mut e = liblzma::write::XzEncoder::new(Vec::new(), 1);
                e.write_all(bytes).unwrap();
                e.finish().unwrap()
            }
            Codec::Zstd => zstd::stream::encode_all(bytes, 1).unwrap(),
            Codec::Bzip2 => {
                let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::fast());
                e.write_all(bytes).unwrap();
                e.finish().unwrap()
            }
        }
    }

    /// An entry's path and contents.
    type Got = (String, Vec<u8>);

    /// Every regular entry of the archive in `bytes`, with its contents, and the warnings.
    fn walk(bytes: &[u8]) -> (Option<Format>, Vec<Got>, Vec<String>) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("input");
        std::fs::write(&path, bytes).unwrap();
        let Some(format) = sniff(&path) else {
            return (None, Vec::new(), Vec::new());
        };
        let mut warnings = Vec::new();
        let mut got = Vec::new();
        for_each_entry("input", &path, format, &mut warnings, &mut |e, r| {
            let mut data = Vec::new();
            let _ = r.read_to_end(&mut data);
            got.push((e.path.to_string(), data));
            ControlFlow::Continue(())
        });
        let warnings = warnings.iter().map(|w| w.to_string()).collect();
        (Some(format), got, warnings)
    }

    #[test]
    fn every_codec_is_read_in_one_pass_including_concatenated_streams() {
        let entries = vec![
            (
                "bundle/cluster-resources/pods/shop.json",
                b"{\"items\": []}".to_vec(),
            ),
            ("bundle/version.yaml", b"gitVersion: v1.31.2\n".to_vec()),
        ];
        let tar = tar_of(&entries);
        for codec in [Codec::Gzip, Codec::Xz, Codec::Zstd, Codec::Bzip2] {
            let (format, got, warnings) = walk(&compress(codec, &tar));
            assert_eq!(format, Some(Format::Tar(Some(codec))));
            let want: Vec<(String, Vec<u8>)> = entries
                .iter()
                .map(|(p, d)| (p.to_string(), d.clone()))
                .collect();
            assert_eq!(got, want, "{codec:?}");
            assert!(warnings.is_empty(), "{codec:?}: {warnings:?}");
            // Parallel compressors (pigz, pxz, pzstd, pbzip2) write several members or frames:
            // the archive is cut in two mid-entry and each half compressed on its own.
            let (a, b) = tar.split_at(700);
            let mut two = compress(codec, a);
            two.extend(compress(codec, b));
            let (_, got2, warnings) = walk(&two);
            assert_eq!(got2, want, "{codec:?}: two streams");
            assert!(warnings.is_empty(), "{codec:?}: {warnings:?}");
            // One compressed file is read as the file it holds.
            let (format, got, _) = walk(&compress(codec, b"{\"kind\": \"PodList\"}"));
            assert_eq!(format, Some(Format::Compressed(codec)));
            assert_eq!(got.len(), 1);
            assert_eq!(got[0].1, b"{\"kind\": \"PodList\"}");
        }
    }

    #[test]
    fn a_bomb_is_stopped_by_the_budget_whatever_the_codec() {
        // 48 MiB of zeros: past the 16 MiB from which the ratio counts, at thousands to one.
        let tar = tar_of(&[("zeros.json", vec![0u8; 48 << 20])]);
        for codec in [Codec::Gzip, Codec::Xz, Codec::Zstd, Codec::Bzip2] {
            let packed = compress(codec, &tar);
            let (_, got, warnings) = walk(&packed);
            assert!(
                warnings.iter().any(|w| w.contains("an archive bomb")),
                "{codec:?} ({} bytes packed): {warnings:?}",
                packed.len()
            );
            // Stopped within 200 times what the decoder took, not at the end of the entry.
            assert!(got[0].1.len() < 40 << 20, "{codec:?}: {}", got[0].1.len());
        }
    }

    /// An .xz of several blocks (as `xz -T0` writes) is decoded whole, and so are two of them
    /// concatenated with stream padding between.
    #[test]
    fn an_xz_of_many_blocks_and_padded_streams_is_read_whole() {
        use std::io::Write;
        let entries: Vec<(String, Vec<u8>)> = (0..40)
            .map(|i| {
                (
                    format!("b/cluster-resources/pods/ns{i}.json"),
                    vec![b'{'; 50_000],
                )
            })
            .collect();
        let borrowed: Vec<(&str, Vec<u8>)> = entries
            .iter()
            .map(|(p, d)| (p.as_str(), d.clone()))
            .collect();
        let tar = tar_of(&borrowed);
        let stream = liblzma::stream::MtStreamBuilder::new()
            .threads(2)
            .block_size(256 << 10)
            .preset(1)
            .encoder()
            .unwrap();
        let mut e = liblzma::write::XzEncoder::new_stream(Vec::new(), stream);
        e.write_all(&tar).unwrap();
        let one = e.finish().unwrap();
        let (format, got, warnings) = walk(&one);
        assert_eq!(format, Some(Format::Tar(Some(Codec::Xz))));
        assert!(warnings.is_empty(), "{warnings:?}");
        assert_eq!(got.len(), 40);
        assert!(got.iter().all(|(_, d)| d.len() == 50_000));
        // The same stream twice, four zero bytes of stream padding between: a tar of the entries
        // twice (tar stops at the first end-of-archive, so only the first copy's entries count).
        let mut two = one.clone();
        two.extend_from_slice(&[0, 0, 0, 0]);
        two.extend_from_slice(&one);
        let mut d = XzStreams::new(std::io::BufReader::new(&two[..])).unwrap();
        let mut out = Vec::new();
        d.read_to_end(&mut out).unwrap();
        assert_eq!(out.len(), tar.len() * 2);
    }

    /// A zip of `entries` (deflated).
    fn zip_of(entries: &[(&str, Vec<u8>)]) -> Vec<u8> {
        use std::io::Write;
        let mut z = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
        for (path, data) in entries {
            z.start_file(*path, zip::write::SimpleFileOptions::default())
                .unwrap();
            z.write_all(data).unwrap();
        }
        z.finish().unwrap().into_inner()
    }

    /// An archive inside an archive spends its parent's budget: the nested bomb stops the
    /// whole archive, said once, for the outer archive; alone, a zip has a budget of its own.
    #[test]
    fn a_nested_archive_spends_its_parents_budget() {
        let inner = zip_of(&[("kubelet.log", vec![0u8; 48 << 20])]);
        let outer = compress(
            Codec::Gzip,
            &tar_of(&[
                ("b/nodes/n1.zip", inner.clone()),
                ("b/after.json", b"{}".to_vec()),
            ]),
        );
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("outer.tar.gz");
        std::fs::write(&path, &outer).unwrap();
        let (mut warnings, mut nested, mut outer_entries) = (Vec::new(), Vec::new(), Vec::new());
        for_each_entry(
            "outer.tar.gz",
            &path,
            Format::Tar(Some(Codec::Gzip)),
            &mut warnings,
            &mut |e, r| {
                outer_entries.push(e.path.to_string());
                let mut bytes = Vec::new();
                let _ = r.read_to_end(&mut bytes);
                if e.path.ends_with(".zip") {
                    let mut inner_warnings = Vec::new();
                    for_each_zip_entry_in(e.path, &bytes, &mut inner_warnings, &mut |ie, ir| {
                        let mut data = Vec::new();
                        let _ = ir.read_to_end(&mut data);
                        nested.push((ie.path.to_string(), data.len()));
                        ControlFlow::Continue(())
                    });
                    assert!(
                        inner_warnings.is_empty(),
                        "said by the outer archive: {inner_warnings:?}"
                    );
                }
                ControlFlow::Continue(())
            },
        );
        let said: Vec<String> = warnings.iter().map(|w| w.to_string()).collect();
        assert_eq!(said.len(), 1, "{said:?}");
        assert!(
            said[0].starts_with("outer.tar.gz: expands more than 200 times its compressed size"),
            "{said:?}"
        );
        assert!(nested[0].1 < 40 << 20, "stopped early: {nested:?}");
        // The outer archive stops there too: nothing after the bomb is read.
        assert_eq!(outer_entries, ["b/nodes/n1.zip"]);
        // Alone, the same zip is stopped by a budget of its own and says so itself.
        let mut alone = Vec::new();
        for_each_zip_entry_in("n1.zip", &inner, &mut alone, &mut |_, r| {
            let _ = std::io::copy(r, &mut std::io::sink());
            ControlFlow::Continue(())
        });
        assert!(
            alone
                .iter()
                .any(|w| w.to_string().contains("an archive bomb")),
            "{alone:?}"
        );
    }

    #[test]
    fn a_damaged_stream_is_a_warning_not_a_panic() {
        let tar = tar_of(&[("a.json", vec![b'x'; 100_000])]);
        for codec in [Codec::Gzip, Codec::Xz, Codec::Zstd, Codec::Bzip2] {
            let mut packed = compress(codec, &tar);
            let half = packed.len() / 2;
            packed.truncate(half.max(16));
            let (format, _, _) = walk(&packed);
            assert_eq!(format.map(|_| ()), Some(()), "{codec:?}");
            for flip in [12usize, 40, 90] {
                let mut bad = compress(codec, &tar);
                if flip < bad.len() {
                    bad[flip] ^= 0x5a;
                }
                let _ = walk(&bad);
            }
        }
    }
}
