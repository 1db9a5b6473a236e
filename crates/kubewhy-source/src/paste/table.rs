//! Tables as kubectl prints them: a header of column names separated by runs of spaces
//! (tabwriter, padding 3), rows aligned under it. Cells are cut at the header's column starts;
//! when a row does not line up (whitespace collapsed by a chat client), it is split on
//! whitespace instead, keeping the known multi-word cells (`5m (x3 over 10m)`, `3 (10s ago)`,
//! `kubelet, node-1`) whole and the last column as the rest of the line.

/// Column names and their starts (byte offsets; headers are ASCII).
pub(super) fn columns(header: &str) -> Vec<(String, usize)> {
    let mut cols = Vec::new();
    let b = header.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b' ' || b[i] == b'\t' {
            i += 1;
            continue;
        }
        let start = i;
        // A column name ends at two spaces (or a tab): `LAST SEEN`, `NOMINATED NODE` hold one.
        while i < b.len()
            && b[i] != b'\t'
            && !(b[i] == b' ' && (i + 1 >= b.len() || b[i + 1] == b' ' || b[i + 1] == b'\t'))
        {
            i += 1;
        }
        cols.push((header[start..i].trim().to_string(), start));
    }
    if cols.len() == 1 && header.trim().contains(' ') {
        return single_spaced(header);
    }
    cols
}

/// Column names that hold a space.
const TWO_WORDS: &[&str] = &[
    "LAST SEEN",
    "FIRST SEEN",
    "NOMINATED NODE",
    "READINESS GATES",
    "ACCESS MODES",
];

/// A header whose spacing was collapsed to single spaces: one column per word, the known
/// two-word names kept whole. Rows will not line up and are read word by word.
fn single_spaced(header: &str) -> Vec<(String, usize)> {
    let words: Vec<(usize, &str)> = header
        .split(' ')
        .scan(0usize, |pos, w| {
            let start = *pos;
            *pos += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| !w.is_empty())
        .collect();
    let mut cols: Vec<(String, usize)> = Vec::new();
    let mut i = 0;
    while i < words.len() {
        let (start, w) = words[i];
        if let Some(&(_, next)) = words.get(i + 1)
            && TWO_WORDS.contains(&format!("{w} {next}").as_str())
        {
            cols.push((format!("{w} {next}"), start));
            i += 2;
            continue;
        }
        cols.push((w.to_string(), start));
        i += 1;
    }
    cols
}

/// Whether a line is a `kubectl get` header: upper-case column names, two or more.
pub(super) fn is_header(line: &str) -> bool {
    let cols = columns(line);
    cols.len() >= 2
        && !line.starts_with(' ')
        && cols.iter().all(|(c, _)| {
            !c.is_empty()
                && c.chars()
                    .all(|ch| ch.is_ascii_uppercase() || matches!(ch, ' ' | '-' | '_' | '(' | ')'))
        })
        && cols
            .iter()
            .any(|(c, _)| matches!(c.as_str(), "NAME" | "LAST SEEN" | "LASTSEEN" | "NAMESPACE"))
}

/// A row cut at the header's columns; `None` when it does not line up.
fn aligned(cols: &[(String, usize)], row: &str) -> Option<Vec<(String, String)>> {
    let mut out = Vec::with_capacity(cols.len());
    for (i, (name, start)) in cols.iter().enumerate() {
        let end = cols.get(i + 1).map_or(row.len(), |c| c.1).min(row.len());
        let start = (*start).min(row.len());
        // Each cell must begin after a space (or at the line's start) and be cut between words.
        if start > 0 && start < row.len() && !row.as_bytes()[start - 1].is_ascii_whitespace() {
            return None;
        }
        let cell = row.get(start..end)?;
        if i + 1 < cols.len() && end < row.len() && !cell.is_empty() {
            let last = cell.as_bytes()[cell.len() - 1];
            if !last.is_ascii_whitespace() && !row.as_bytes()[end].is_ascii_whitespace() {
                return None;
            }
        }
        out.push((name.clone(), cell.trim().to_string()));
    }
    Some(out)
}

/// Splits on whitespace: one word per column, except the cells that hold several words, and the
/// last column, which takes the rest.
fn by_words(cols: &[(String, usize)], row: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut rest = row.trim_start();
    for (i, (name, _)) in cols.iter().enumerate() {
        if i + 1 == cols.len() {
            out.push((name.clone(), rest.trim().to_string()));
            break;
        }
        let mut end = rest.find(char::is_whitespace).unwrap_or(rest.len());
        let after = rest[end..].trim_start();
        // `5m (x3 over 10m)`, `3 (10s ago)`: the parenthesis belongs to this cell.
        if after.starts_with("(x") || after.starts_with('(') && after.contains(" ago)") {
            if let Some(close) = after.find(')') {
                end = rest.len() - after.len() + close + 1;
            }
        } else if rest[..end].ends_with(',') {
            // `kubelet, node-1`
            let next = after.find(char::is_whitespace).unwrap_or(after.len());
            end = rest.len() - after.len() + next;
        }
        out.push((name.clone(), rest[..end].trim().to_string()));
        rest = rest[end..].trim_start();
    }
    out
}

/// A row's cells by column name.
pub(super) fn cells(cols: &[(String, usize)], row: &str) -> Vec<(String, String)> {
    aligned(cols, row).unwrap_or_else(|| by_words(cols, row))
}

/// The value of column `name` (any case).
pub(super) fn get<'a>(cells: &'a [(String, String)], name: &str) -> &'a str {
    cells
        .iter()
        .find(|(k, _)| k.eq_ignore_ascii_case(name))
        .map_or("", |(_, v)| v.as_str())
}
