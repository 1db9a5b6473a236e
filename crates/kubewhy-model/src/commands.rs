//! One step's command across the objects of a merged finding. Each pod's finding names its own
//! workload (`kubectl -n scale set resources deployment/big-7 …`); merged, the step must address
//! every workload, not the first: a few commands are listed, more become one loop over what
//! differs between them.

use std::hash::BuildHasher;

/// Listed one per line up to this many; beyond, folded into a loop.
const LISTED: usize = 3;
/// A loop names at most this many values (a loop over 10,000 pod names is not a command anyone
/// reads); the rest are counted in a comment.
const LOOP_VALUES: usize = 50;

/// The distinct commands of one step, in the order first seen. A merged finding about 10,000
/// pods sees 10,000 commands: each is held once, end to end in one buffer (the set holds their
/// indices).
#[derive(Debug, Default)]
pub struct Variants {
    text: String,
    /// Where each command ends in `text`.
    ends: Vec<usize>,
    seen: hashbrown::HashTable<u32>,
    hasher: foldhash::fast::FixedState,
}

/// Command `i` of `text` cut at `ends`.
fn nth<'a>(text: &'a str, ends: &[usize], i: usize) -> &'a str {
    let start = if i == 0 { 0 } else { ends[i - 1] };
    &text[start..ends[i]]
}

impl Variants {
    pub fn new(first: Option<String>) -> Variants {
        let mut v = Variants::default();
        if let Some(c) = first {
            v.add(c);
        }
        v
    }
    pub fn add(&mut self, command: String) {
        let Variants {
            text,
            ends,
            seen,
            hasher,
        } = self;
        let hash = hasher.hash_one(command.as_str());
        if seen
            .find(hash, |&i| nth(text, ends, i as usize) == command)
            .is_some()
        {
            return;
        }
        seen.insert_unique(hash, ends.len() as u32, |&i| {
            hasher.hash_one(nth(text, ends, i as usize))
        });
        text.push_str(&command);
        ends.push(text.len());
    }
    fn list(&self) -> Vec<&str> {
        (0..self.ends.len())
            .map(|i| nth(&self.text, &self.ends, i))
            .collect()
    }
    /// The distinct commands, in the order first seen.
    pub fn into_list(self) -> Vec<String> {
        self.list().into_iter().map(str::to_string).collect()
    }
    /// The command text that stands for all of them (lines of commands). A read-only step (it
    /// only shows something: one pod's events stand for its siblings') keeps one example of each
    /// shape; a step that changes something addresses every workload.
    pub fn fold(self, read_only: bool) -> Option<String> {
        fold(&self.list(), read_only)
    }
}

/// Commands of one shape: the same words but for at most two positions (a namespace and a
/// name), which the loop iterates over.
struct Shape<'a> {
    words: Vec<&'a str>,
    differ: Vec<usize>,
    /// Its commands, by index (split again when a loop needs their words: 10,000 commands
    /// split at once would hold every word of every one).
    members: Vec<usize>,
}

fn shapes<S: AsRef<str>>(commands: &[S]) -> Vec<Shape<'_>> {
    let mut out: Vec<Shape> = Vec::new();
    let mut words: Vec<&str> = Vec::new();
    'next: for (m, c) in commands.iter().enumerate() {
        words.clear();
        words.extend(c.as_ref().split(' '));
        for s in &mut out {
            if s.words.len() != words.len() {
                continue;
            }
            let mut differ = s.differ.clone();
            for (i, (a, b)) in s.words.iter().zip(&words).enumerate() {
                if a != b && !differ.contains(&i) {
                    differ.push(i);
                }
            }
            // A comment that differs cannot be looped over: its words are not expanded.
            let comment = words.iter().position(|w| *w == "#");
            if differ.len() <= 2 && differ.iter().all(|&i| comment.is_none_or(|c| i < c)) {
                differ.sort_unstable();
                s.differ = differ;
                s.members.push(m);
                continue 'next;
            }
        }
        out.push(Shape {
            words: words.clone(),
            differ: Vec::new(),
            members: vec![m],
        });
    }
    out
}

pub fn fold<S: AsRef<str>>(commands: &[S], read_only: bool) -> Option<String> {
    if commands.len() <= 1 || (!read_only && commands.len() <= LISTED) {
        return (!commands.is_empty()).then(|| {
            commands
                .iter()
                .map(AsRef::as_ref)
                .collect::<Vec<&str>>()
                .join("\n")
        });
    }
    let mut lines = Vec::new();
    let shapes = shapes(commands);
    let mut unlisted = 0;
    for s in &shapes {
        if s.members.len() <= LISTED || read_only {
            let shown = if read_only { 1 } else { LISTED };
            let mut shown_lines: Vec<String> = s
                .members
                .iter()
                .take(shown)
                .map(|&m| commands[m].as_ref().to_string())
                .collect();
            let more = s.members.len().saturating_sub(shown);
            if more > 0
                && let Some(last) = shown_lines.last_mut()
            {
                last.push_str(&format!("   # and {more} more like it"));
            }
            lines.extend(shown_lines);
            continue;
        }
        if s.differ.is_empty() {
            // Cannot happen (members are distinct), but a shape without a difference is one command.
            lines.push(s.words.join(" "));
            continue;
        }
        lines.push(loop_over(commands, s, &mut unlisted));
    }
    if lines.len() > 2 * LISTED {
        unlisted += lines.len() - 2 * LISTED;
        lines.truncate(2 * LISTED);
    }
    if unlisted > 0
        && let Some(last) = lines.last_mut()
    {
        last.push_str(&format!("   # and {unlisted} more like these"));
    }
    Some(lines.join("\n"))
}

/// `for w in v1 v2 …; do COMMAND; done`, the differing words replaced by `$w` (or, for two,
/// `w` holding both as `A:B` — neither a namespace nor a name can hold a colon).
fn loop_over<S: AsRef<str>>(commands: &[S], s: &Shape, unlisted: &mut usize) -> String {
    let mut values: Vec<String> = s
        .members
        .iter()
        .map(|&m| {
            let words: Vec<&str> = commands[m].as_ref().split(' ').collect();
            s.differ
                .iter()
                .map(|&i| words[i])
                .collect::<Vec<_>>()
                .join(":")
        })
        .collect();
    // In the order people count: big-2 before big-10.
    values.sort_by(|a, b| crate::workload::natural_cmp(a, b));
    let shown = values.len().min(LOOP_VALUES);
    *unlisted += values.len() - shown;
    let mut body: Vec<String> = s.words.iter().map(|w| w.to_string()).collect();
    if let Some(c) = body.iter().position(|w| w == "#") {
        // The comment would swallow `; done`.
        body.truncate(c);
        while body.last().is_some_and(|w| w.is_empty()) {
            body.pop();
        }
    }
    match s.differ.as_slice() {
        [one] => body[*one] = "\"$w\"".into(),
        [a, b] => {
            body[*a] = "\"${w%%:*}\"".into();
            body[*b] = "\"${w#*:}\"".into();
        }
        _ => {}
    }
    format!(
        "for w in {}; do {}; done",
        values[..shown].join(" "),
        body.join(" ")
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cmds(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn a_few_are_listed() {
        let c = cmds(&[
            "kubectl -n shop set resources deployment/a --requests=cpu=<smaller>",
            "kubectl -n shop set resources deployment/b --requests=cpu=<smaller>",
        ]);
        assert_eq!(fold(&c, false).unwrap(), c.join("\n"));
    }

    #[test]
    fn many_workloads_become_one_loop() {
        let c: Vec<String> = (0..50)
            .map(|i| {
                format!(
                    "kubectl -n scale set resources deployment/big-{i} --requests=cpu=<smaller>"
                )
            })
            .collect();
        let got = fold(&c, false).unwrap();
        assert!(
            got.starts_with("for w in deployment/big-0 deployment/big-1 "),
            "{got}"
        );
        assert!(
            got.ends_with(" deployment/big-49; do kubectl -n scale set resources \"$w\" --requests=cpu=<smaller>; done"),
            "{got}"
        );
        assert_eq!(got.lines().count(), 1);
    }

    #[test]
    fn namespace_and_name_loop_together_and_other_shapes_stay() {
        let mut c: Vec<String> = (0..5)
            .map(|i| format!("kubectl -n ns-{i} rollout restart deployment/web-{i}"))
            .collect();
        c.push("kubectl get pod lone -n x -o yaml > lone.yaml  # edit, then: kubectl replace --force -f lone.yaml".into());
        let got = fold(&c, false).unwrap();
        let lines: Vec<&str> = got.lines().collect();
        assert_eq!(
            lines[0],
            "for w in ns-0:deployment/web-0 ns-1:deployment/web-1 ns-2:deployment/web-2 ns-3:deployment/web-3 ns-4:deployment/web-4; do kubectl -n \"${w%%:*}\" rollout restart \"${w#*:}\"; done"
        );
        assert_eq!(lines[1], c[5]);
    }

    #[test]
    fn read_only_steps_keep_one_example() {
        let c: Vec<String> = (0..9)
            .map(|i| format!("kubectl describe pod web-{i} -n shop"))
            .collect();
        assert_eq!(
            fold(&c, true).unwrap(),
            "kubectl describe pod web-0 -n shop   # and 8 more like it"
        );
    }

    #[test]
    fn loops_are_bounded() {
        let c: Vec<String> = (0..10_000)
            .map(|i| format!("kubectl -n bulk delete pod p-{i}"))
            .collect();
        let got = fold(&c, false).unwrap();
        assert!(
            got.ends_with("; done   # and 9950 more like these"),
            "{}",
            &got[got.len() - 80..]
        );
        assert!(got.len() < 2_000);
    }

    #[test]
    fn the_loop_drops_a_trailing_comment() {
        let c: Vec<String> = (0..4)
            .map(|i| format!("crictl ps -a --pod p{i}   # on node-1"))
            .collect();
        let got = fold(&c, false).unwrap();
        assert_eq!(
            got,
            "for w in p0 p1 p2 p3; do crictl ps -a --pod \"$w\"; done"
        );
    }
}
