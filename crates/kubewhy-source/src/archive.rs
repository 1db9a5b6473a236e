//! Archives as input (`.tar.gz`, `.tgz`, `.tar`, `.zip`, and a single gzipped file): read in one
//! streaming pass, never unpacked to disk, with the hostile-input rules of directories. Each
//! entry is refused on its own, with a message, when its path is absolute or climbs out (`..`),
//! when it is a link (never followed) or a device; the whole archive stops when it expands past
//! `MAX_TOTAL` or more than `MAX_RATIO` times its compressed size (an archive bomb), or holds
//! more than `MAX_ENTRIES` entries. What an entry is for is the caller's (`bundle.rs`).

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

/// What an input file is, by its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Format {
    TarGz,
    Tar,
    Zip,
    /// One gzipped file (`dump.json.gz`), read as the file it holds.
    Gzip,
}

impl Format {
    pub(crate) fn name(self) -> &'static str {
        match self {
            Format::TarGz => "tar.gz archive",
            Format::Tar => "tar archive",
            Format::Zip => "zip archive",
            Format::Gzip => "gzipped file",
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
    sniff_bytes(&head, || {
        let mut inner = Vec::with_capacity(512);
        let file = std::fs::File::open(path).ok()?;
        let _ = flate2::read::MultiGzDecoder::new(file)
            .take(512)
            .read_to_end(&mut inner);
        Some(inner)
    })
}

/// `sniff` on the first bytes; `inner` gives the first bytes a gzip stream expands to.
pub(crate) fn sniff_bytes(head: &[u8], inner: impl FnOnce() -> Option<Vec<u8>>) -> Option<Format> {
    if head.starts_with(&[0x1f, 0x8b]) {
        return Some(if inner().is_some_and(|i| is_tar(&i)) {
            Format::TarGz
        } else {
            Format::Gzip
        });
    }
    if head.starts_with(b"PK\x03\x04") || head.starts_with(b"PK\x05\x06") {
        return Some(Format::Zip);
    }
    is_tar(head).then_some(Format::Tar)
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
        Format::TarGz => {
            links_inside = tar_entries(
                name,
                flate2::read::MultiGzDecoder::new(counted),
                &budget,
                warnings,
                each,
            )
        }
        Format::Tar => {
            // Uncompressed: the ratio is 1.
            links_inside = tar_entries(name, counted, &budget, warnings, each)
        }
        Format::Gzip => {
            let inner = name.strip_suffix(".gz").unwrap_or(name);
            let inner = inner.rsplit('/').next().unwrap_or(inner).to_string();
            let mut gz = flate2::read::MultiGzDecoder::new(counted);
            let entry = Entry {
                path: &inner,
                size: 0,
                mtime: None,
            };
            let mut guarded = Guarded {
                inner: &mut gz,
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
    if let Some(why) = budget.tripped.get() {
        warnings.push(warn_file(
            name,
            format!(
                "{why} after {} MiB: an archive bomb? reading stopped there",
                budget.expanded.get() >> 20
            ),
        ));
    }
    links_inside
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
        assert_eq!(sniff_bytes(&tar, || None), Some(Format::Tar));
        assert_eq!(sniff_bytes(b"PK\x03\x04rest", || None), Some(Format::Zip));
        assert_eq!(
            sniff_bytes(&[0x1f, 0x8b, 8], || Some(tar.clone())),
            Some(Format::TarGz)
        );
        assert_eq!(
            sniff_bytes(&[0x1f, 0x8b, 8], || Some(b"{}".to_vec())),
            Some(Format::Gzip)
        );
        assert_eq!(sniff_bytes(b"{\"kind\": \"List\"}", || None), None);
    }
}
