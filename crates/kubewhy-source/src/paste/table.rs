//! Tables as kubectl prints them: a header of column names separated by runs of spaces
//! (tabwriter, padding 3), rows aligned under it. Cells are cut at the header's column starts;
//! when a row does not line up (whitespace collapsed by a chat client), it is split on
//! whitespace instead, keeping the known multi-word cells (`5m (x3 over 10m)`, `3 (10s ago)`,
//! `kubelet, node-1`) whole and the last column as the rest of the line.

/// Column names (in upper case) and their starts (byte offsets; headers are ASCII).
pub(super) fn columns(header: &str) -> Vec<(String, usize)> {
    let mut cols = written_columns(header);
    for (name, _) in &mut cols {
        // Old `describe` event headers are written in mixed case (`FirstSeen  LastSeen  Count
        // From  Type  Reason  Message`): names are compared in upper case.
        name.make_ascii_uppercase();
    }
    cols
}

/// Column names as the header writes them, and their starts.
fn written_columns(header: &str) -> Vec<(String, usize)> {
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

/// The columns of old events tables, written in mixed case.
const MIXED_CASE: &[&str] = &[
    "FirstSeen",
    "LastSeen",
    "Count",
    "From",
    "SubObjectPath",
    "SubobjectPath",
    "Type",
    "Reason",
    "Message",
];

/// Whether a line is a `kubectl get` header: upper-case column names, two or more (or an old
/// events table's mixed-case ones).
pub(super) fn is_header(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    if words.len() >= 4
        && !line.starts_with(' ')
        && words.iter().all(|w| MIXED_CASE.contains(w))
        && words.contains(&"Reason")
        && words.contains(&"Message")
    {
        return true;
    }
    let cols = written_columns(line);
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
        // Two cells in one (`node0010   <none>`: a name shortened by hand shifts the rest).
        if i + 1 < cols.len() && cell.trim().contains("  ") {
            return None;
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

/// A row's words with where each starts, the multi-word cells kept whole (`7 (2m42s ago)`,
/// `5m (x3 over 10m)`).
fn words(row: &str) -> Vec<(usize, &str)> {
    let mut out: Vec<(usize, &str)> = Vec::new();
    let mut i = 0;
    let b = row.as_bytes();
    while i < b.len() {
        if b[i].is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        while i < b.len() && !b[i].is_ascii_whitespace() {
            i += 1;
        }
        let w = &row[start..i];
        if w.starts_with('(')
            && let Some(last) = out.last_mut()
        {
            // The parenthesis belongs to the cell before it, to its closing `)`.
            let close = row[start..].find(')').map_or(i, |c| start + c + 1);
            i = close.max(i);
            last.1 = &row[last.0..i];
            continue;
        }
        out.push((start, w));
    }
    out
}

fn ratio(w: &str) -> bool {
    w.split_once('/').is_some_and(|(a, b)| {
        !a.is_empty()
            && !b.is_empty()
            && a.bytes().all(|c| c.is_ascii_digit())
            && b.bytes().all(|c| c.is_ascii_digit())
    })
}

/// `5m`, `3d4h`, `16d`, `45s`, `<invalid>`, `<unknown>`.
fn age(w: &str) -> bool {
    matches!(w, "<invalid>" | "<unknown>")
        || (w.len() >= 2
            && w.as_bytes()[0].is_ascii_digit()
            && w.bytes()
                .all(|c| c.is_ascii_digit() || b"smhdy".contains(&c)))
}

/// A pod's STATUS as `get pods` prints it: a phase, a reason (`CrashLoopBackOff`, `OutOfcpu`,
/// `NodeAffinity`, `Evicted`), `Init:0/1`, `Init:Error`, `Terminating`, `Unknown`, `NodeLost`.
fn pod_status(w: &str) -> bool {
    let w = w.strip_prefix("Init:").unwrap_or(w);
    ratio(w)
        || (w.as_bytes().first().is_some_and(|c| c.is_ascii_uppercase())
            && w.bytes()
                .all(|c| c.is_ascii_alphanumeric() || b"-./:".contains(&c)))
}

fn node_status(w: &str) -> bool {
    w.split(',')
        .all(|s| matches!(s, "Ready" | "NotReady" | "Unknown" | "SchedulingDisabled"))
}

/// An object's name as a row shows it; a part redacted as a placeholder (`pvc-<vol-id>-rep-1`)
/// still makes a name when the rest of it is one.
pub(super) fn name(w: &str) -> bool {
    if w.contains('<') {
        let plain = PLACEHOLDER.replace_all(w, "x");
        return plain != "x" && !plain.contains(['<', '>']) && real_name(&plain);
    }
    real_name(w)
}

static PLACEHOLDER: std::sync::LazyLock<regex::Regex> =
    std::sync::LazyLock::new(|| regex::Regex::new(r"<[A-Za-z0-9_.-]{1,40}>").expect("regex"));

fn real_name(w: &str) -> bool {
    !w.is_empty()
        && w.len() <= 253
        && w.bytes()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || b"-._".contains(&c))
        && w.as_bytes()[0].is_ascii_alphanumeric()
}

/// The columns of a `kubectl get pods` or `get nodes` row pasted without its header (a
/// `| grep Terminating`, a row quoted alone), recognised by its shape — a name, a ready ratio,
/// a status, a restart count, an age; or a name, a node status, roles, an age, a version — with
/// or without NAMESPACE, with `-o wide`'s columns after. `None` for anything else.
pub(super) fn headerless(row: &str) -> Option<Vec<(String, usize)>> {
    let w = words(row);
    let col = |names: &[&str], at: &[(usize, &str)]| -> Vec<(String, usize)> {
        names
            .iter()
            .zip(at)
            .map(|(n, (s, _))| (n.to_string(), *s))
            .collect()
    };
    // Pods: [NAMESPACE] NAME READY STATUS RESTARTS AGE [IP NODE NOMINATED READINESS].
    if let Some(r) = w
        .iter()
        .position(|(_, t)| ratio(t))
        .filter(|r| (1..=2).contains(r))
    {
        let ns = r == 2;
        let rest = &w[r..];
        // `kubectl get all` names its rows `pod/NAME`.
        let ok = w[..r]
            .iter()
            .all(|(_, t)| name(t.strip_prefix("pod/").unwrap_or(t)))
            && rest.len() >= 4
            && pod_status(rest[1].1)
            && rest[2]
                .1
                .split_whitespace()
                .next()
                .is_some_and(|n| n.bytes().all(|c| c.is_ascii_digit()))
            && age(rest[3].1);
        if ok {
            let mut names: Vec<&str> = if ns {
                vec!["NAMESPACE", "NAME"]
            } else {
                vec!["NAME"]
            };
            names.extend([
                "READY",
                "STATUS",
                "RESTARTS",
                "AGE",
                "IP",
                "NODE",
                "NOMINATED NODE",
                "READINESS GATES",
            ]);
            return Some(col(&names, &w));
        }
    }
    // Events: [NAMESPACE] LAST SEEN TYPE REASON OBJECT MESSAGE (`get events -A | grep x`).
    if let Some(t) = w
        .iter()
        .position(|(_, t)| matches!(*t, "Normal" | "Warning"))
        .filter(|t| (1..=2).contains(t))
        && w.len() >= t + 4
        && age(w[t - 1].1.split_whitespace().next().unwrap_or(""))
        && (t == 1 || name(w[0].1))
        && w[t + 1].1.starts_with(|c: char| c.is_ascii_uppercase())
        && w[t + 1].1.bytes().all(|c| c.is_ascii_alphanumeric())
        && w[t + 2].1.split_once('/').is_some_and(|(k, n)| {
            !k.is_empty() && k.bytes().all(|c| c.is_ascii_lowercase() || c == b'.') && name(n)
        })
    {
        let names: &[&str] = if t == 2 {
            &[
                "NAMESPACE",
                "LAST SEEN",
                "TYPE",
                "REASON",
                "OBJECT",
                "MESSAGE",
            ]
        } else {
            &["LAST SEEN", "TYPE", "REASON", "OBJECT", "MESSAGE"]
        };
        return Some(col(names, &w));
    }
    // Nodes: NAME STATUS ROLES AGE VERSION [INTERNAL-IP …].
    if w.len() >= 5
        && name(w[0].1)
        && node_status(w[1].1)
        && age(w[3].1)
        && w[4].1.starts_with('v')
        && w[4].1[1..].starts_with(|c: char| c.is_ascii_digit())
    {
        let names = [
            "NAME",
            "STATUS",
            "ROLES",
            "AGE",
            "VERSION",
            "INTERNAL-IP",
            "EXTERNAL-IP",
            "OS-IMAGE",
            "KERNEL-VERSION",
            "CONTAINER-RUNTIME",
        ];
        return Some(col(&names, &w));
    }
    None
}

#[cfg(test)]
mod headerless_tests {
    use super::*;

    fn names(row: &str) -> Option<Vec<(String, String)>> {
        headerless(row).map(|h| cells(&h, row))
    }

    #[test]
    fn rows_without_their_header_are_read_by_their_shape() {
        let c = names("rook-ceph            rook-ceph-osd-25-967d79b58-c5pkp        0/1     NodeAffinity   0          16d").unwrap();
        assert_eq!(get(&c, "NAMESPACE"), "rook-ceph");
        assert_eq!(get(&c, "NAME"), "rook-ceph-osd-25-967d79b58-c5pkp");
        assert_eq!(get(&c, "STATUS"), "NodeAffinity");
        let c = names("web-7d4b9c-2xk4p   0/1   CrashLoopBackOff   7 (2m42s ago)   24m   10.1.2.3   node-1   <none>   <none>").unwrap();
        assert_eq!(
            (get(&c, "RESTARTS"), get(&c, "NODE")),
            ("7 (2m42s ago)", "node-1")
        );
        let c =
            names("kube-system   coredns-565d847f94-4n2fq   1/1   Terminating   0   5d1h").unwrap();
        assert_eq!(get(&c, "STATUS"), "Terminating");
        let c = names("cray-console-node-0   3/3   Terminating   0   16h   ncn-w001").unwrap();
        assert_eq!(get(&c, "IP"), "ncn-w001");
        assert_eq!(
            get(
                &names("nginx-1   0/1   Init:0/1   0   3m").unwrap(),
                "STATUS"
            ),
            "Init:0/1"
        );
        let c = names("pod/router-548c89975c-dpml5   0/1   CreateContainerConfigError   0   14m")
            .unwrap();
        assert_eq!(
            (get(&c, "NAME"), get(&c, "STATUS")),
            ("pod/router-548c89975c-dpml5", "CreateContainerConfigError")
        );
        let c = names("docker02   NotReady   controlplane,etcd,worker   421d   v1.17.4").unwrap();
        assert_eq!(
            (get(&c, "STATUS"), get(&c, "VERSION")),
            ("NotReady", "v1.17.4")
        );
        assert!(names("node-1   Ready,SchedulingDisabled   <none>   3d   v1.29.2").is_some());
        // `kubectl get events -A | grep …` (tests/fixtures/wild 715), with and without NAMESPACE.
        let c = names("keda        85s         Normal    Evicted      pod/keda-operator-688bc9b887-7t4gd      Evicted pod: node worker-qa-czn28/ip-10-115-195-50.us-east-2.compute.internal drifted").unwrap();
        assert_eq!(
            (get(&c, "NAMESPACE"), get(&c, "REASON"), get(&c, "OBJECT")),
            ("keda", "Evicted", "pod/keda-operator-688bc9b887-7t4gd")
        );
        assert_eq!(
            get(&c, "MESSAGE"),
            "Evicted pod: node worker-qa-czn28/ip-10-115-195-50.us-east-2.compute.internal drifted"
        );
        let c = names("5m (x3 over 10m)   Warning   FailedMount   pod/web-1   MountVolume.SetUp failed for volume \"certs\" : secret \"tls\" not found").unwrap();
        assert_eq!(
            (get(&c, "TYPE"), get(&c, "REASON")),
            ("Warning", "FailedMount")
        );
        // Prose, log lines and other tables are no rows.
        for line in [
            "the pod is 1/2 ready since yesterday and restarts",
            "I0101 10:00:00.000 1 kubelet.go:1] Ready",
            "NAME   READY   STATUS",
            "pvc-1   Bound   pv-1   1Gi   RWO   standard   3d",
        ] {
            assert!(names(line).is_none(), "{line}");
        }
    }
}
