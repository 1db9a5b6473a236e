//! Container logs as `kubectl cluster-info dump` writes them: blocks between
//! `==== START logs for container C of pod NS/NAME ====` and the matching END line, inside
//! `NS/POD/logs.txt` files or interleaved with the JSON documents on stdout.

use crate::{FileOut, line_col};
use kubewhy_model::objects::ContainerLog;

pub(crate) const START_MARKER: &str = "==== START logs for container ";
pub(crate) const END_MARKER: &str = "==== END logs for container ";
/// Lines of each container log kept (the last ones: that is where a crash explains itself).
pub(crate) const TAIL_LINES: usize = 40;
/// Longest line kept, in bytes; the rest is cut.
const MAX_LINE: usize = 2000;

/// Parses the block starting at `pos` (on a START line); returns the bytes consumed.
pub(crate) fn parse_block(file: &str, text: &str, pos: usize, out: &mut FileOut) -> usize {
    let rest = &text[pos..];
    let header_end = rest.find('\n').unwrap_or(rest.len());
    let header = &rest[..header_end];
    let parsed = parse_header(header);
    let body_start = (header_end + 1).min(rest.len());
    let body = &rest[body_start..];
    let (body_len, consumed) = match body.find(END_MARKER) {
        Some(e) => {
            let after = body[e..].find('\n').map_or(body.len(), |n| e + n + 1);
            (e, body_start + after)
        }
        None => {
            let (line, col) = line_col(text, pos);
            out.warn(crate::warn_at(
                file,
                line,
                col,
                "log block without its END line (truncated?); kept what is there".into(),
            ));
            (body.len(), rest.len())
        }
    };
    match parsed {
        Some((container, ns, pod)) => out.logs.push(ContainerLog {
            namespace: ns,
            pod,
            container,
            origin: file.to_string(),
            previous: false,
            tail: tail_lines(&body[..body_len]),
        }),
        None => {
            let (line, col) = line_col(text, pos);
            out.warn(crate::warn_at(
                file,
                line,
                col,
                "log block header not understood; block skipped".into(),
            ));
        }
    }
    consumed
}

/// `==== START logs for container C of pod NS/NAME ====` → (C, NS, NAME).
pub(crate) fn parse_header(h: &str) -> Option<(String, String, String)> {
    let h = h
        .strip_prefix(START_MARKER)?
        .trim_end()
        .strip_suffix("====")?
        .trim_end();
    let (container, pod) = h.split_once(" of pod ")?;
    let (ns, name) = pod.split_once('/')?;
    Some((container.to_string(), ns.to_string(), name.to_string()))
}

/// The last lines of a container log, each redacted and bounded in length.
pub(crate) fn tail_lines(body: &str) -> Vec<String> {
    let lines: Vec<&str> = body.lines().collect();
    let start = lines.len().saturating_sub(TAIL_LINES);
    // Applications print tokens, passwords and keys too: redacted before anything can quote
    // them. A private key printed before the tail may end inside it: the lines before are
    // followed, not kept.
    let mut redactor = kubewhy_model::redact::LineRedactor::default();
    lines[..start].iter().for_each(|l| redactor.skip(l));
    lines[start..]
        .iter()
        .map(|l| crate::bounded(&redactor.line(l), MAX_LINE))
        .collect()
}

/// `tail_lines` of a log read as a stream: only the last lines are held, and each line at most
/// a few times `MAX_LINE` (a log without newlines cannot fill memory).
pub(crate) fn tail_of(mut reader: impl std::io::BufRead) -> std::io::Result<Vec<String>> {
    let mut kept: std::collections::VecDeque<String> = std::collections::VecDeque::new();
    let mut redactor = kubewhy_model::redact::LineRedactor::default();
    let mut line: Vec<u8> = Vec::new();
    let mut finish = |line: &mut Vec<u8>, kept: &mut std::collections::VecDeque<String>| {
        if line.last() == Some(&b'\r') {
            line.pop();
        }
        kept.push_back(String::from_utf8_lossy(line).into_owned());
        line.clear();
        if kept.len() > TAIL_LINES
            && let Some(old) = kept.pop_front()
        {
            redactor.skip(&old);
        }
    };
    loop {
        let buf = reader.fill_buf()?;
        if buf.is_empty() {
            break;
        }
        let (chunk, used, ends) = match memchr::memchr(b'\n', buf) {
            Some(i) => (&buf[..i], i + 1, true),
            None => (buf, buf.len(), false),
        };
        let room = (4 * MAX_LINE).saturating_sub(line.len());
        line.extend_from_slice(&chunk[..chunk.len().min(room)]);
        reader.consume(used);
        if ends {
            finish(&mut line, &mut kept);
        }
    }
    if !line.is_empty() {
        finish(&mut line, &mut kept);
    }
    let body: Vec<String> = kept.into_iter().collect();
    Ok(body
        .iter()
        .map(|l| crate::bounded(&redactor.line(l), MAX_LINE))
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn header() {
        assert_eq!(
            parse_header("==== START logs for container app of pod shop/web-1 ===="),
            Some(("app".into(), "shop".into(), "web-1".into()))
        );
        assert_eq!(parse_header("==== START logs for container x ===="), None);
    }

    #[test]
    fn a_tail_keeps_the_last_lines_each_bounded() {
        let mut text: String = (0..100).map(|i| format!("line {i}\n")).collect();
        text.push_str(&"é".repeat(MAX_LINE)); // 2 bytes a char: the cut lands inside one
        let tail = crate::log_tail(&text);
        assert_eq!(tail.len(), TAIL_LINES);
        assert_eq!(tail[0], "line 61");
        let last = tail.last().unwrap();
        assert!(
            last.ends_with('…') && last.len() <= MAX_LINE + '…'.len_utf8(),
            "{}",
            last.len()
        );
    }
}
