//! Known failure messages wherever a paste holds them: every line goes through the message
//! catalogue (`kubewhy_model::messages::recognise`), whatever block it belongs to, so a
//! message quoted in a sentence, a fragment without its object, one wrapped event row or a
//! log line of a tool kubewhy does not read still counts. A message wrapped over two lines is
//! read joined. Each recognition names the object its line names, when it names one.

use super::{Lines, UNKNOWN};
use kubewhy_model::messages::{ERROR_LINE, Recognition, VOCABULARY, recognise, vocabulary};
use kubewhy_model::{Cause, ObjectKey, PastedMessage};
use regex::Regex;
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// How a line names a pod: `pod="ns/name"` (structured klog), `name_ns(uid)` (klog's pod
/// format), `Kind:"Pod", Namespace:"ns", Name:"name"` (an ObjectReference), `pod/name`,
/// `pod "name"`, `Pod "ns/name"` (a name ending in `-` is a redacted or generated prefix, no
/// pod).
static POD_REF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"pod="([a-z0-9][-a-z0-9]*)/([a-z0-9][-a-z0-9.]*)"|"?([a-z0-9][-a-z0-9.]*)_([a-z0-9][-a-z0-9]*)\([0-9a-f]{8}-[0-9a-f-]{27}\)|Kind:"Pod", Namespace:"([a-z0-9][-a-z0-9]*)", Name:"([a-z0-9][-a-z0-9.]*)"|\bpods?/([a-z0-9][-a-z0-9.]*[a-z0-9])\b|\b[Pp]od "([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)"|\b[Pp]od "([a-z0-9][-a-z0-9]*)/([a-z0-9](?:[-a-z0-9.]*[a-z0-9])?)""#,
    )
});

/// The pod a line names: (namespace, name); the namespace may be unknown.
fn pod_named(line: &str) -> Option<(String, String)> {
    let c = POD_REF.captures(line)?;
    let g = |i: usize| c.get(i).map(|m| m.as_str().to_string());
    if let (Some(ns), Some(n)) = (g(1), g(2)) {
        return Some((ns, n));
    }
    if let (Some(n), Some(ns)) = (g(3), g(4)) {
        return Some((ns, n));
    }
    if let (Some(ns), Some(n)) = (g(5), g(6)) {
        return Some((ns, n));
    }
    if let (Some(ns), Some(n)) = (g(9), g(10)) {
        return Some((ns, n));
    }
    g(7).or(g(8)).map(|n| (UNKNOWN.to_string(), n))
}

/// What starts a new entry rather than continuing a message: an event row, a log line's
/// header, a describe key, a YAML key.
static NEW_ENTRY: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:(?:Normal|Warning)\s|[IWEF]\d{4} |[A-Z][a-z]{2} [ \d]\d \d\d:|\d{4}-\d\d-\d\d[T ]|[A-Z][A-Za-z ]*:\s{2,}|[a-z][A-Za-z]*:\s*$|- |\$ )",
    )
});

const MAX_QUOTE: usize = 300;

fn quote(text: &str) -> String {
    crate::bounded(text.trim(), MAX_QUOTE)
}

/// A pod's UID where a line names it in place of its name (`Orphaned pod "<uid>" found`).
static UID: LazyLock<Regex> =
    LazyLock::new(|| re(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$"));

/// The pod a line names, as an object key (a UID in place of the name is kept as the UID).
fn pod_object(text: &str) -> Option<ObjectKey> {
    pod_named(text).map(|(ns, n)| {
        let (n, uid) = if UID.is_match(&n) {
            (UNKNOWN.to_string(), n)
        } else {
            (n, String::new())
        };
        ObjectKey {
            kind: "Pod".into(),
            namespace: ns.into(),
            name: n.into(),
            uid: uid.into(),
        }
    })
}

fn message(name: &str, no: u64, text: &str, r: Recognition) -> PastedMessage {
    let object = pod_object(text);
    // Quote the line from the message on, with what a short prefix says (a klog header, an
    // event row's columns) when the line is short.
    let from = if text.len() <= MAX_QUOTE { 0 } else { r.start };
    PastedMessage {
        at: format!("{name}:{no}"),
        quote: quote(&text[from..]),
        cause: r.cause,
        confidence: r.confidence,
        speaker: r.speaker.describe(),
        object,
        same: 1,
    }
}

/// Messages kept per cause: what a finding quotes. The rest are counted.
const KEPT_PER_CAUSE: usize = 3;

/// The known failure messages in the lines, in order: the first few of each cause, each with
/// how many lines of the paste show that cause.
pub(super) fn lines(name: &str, lines: &Lines) -> Vec<PastedMessage> {
    let mut kept = Kept::default();
    scan(name, lines, &mut |m| kept.add(m.cause, || m));
    let mut found = kept.done();
    if !found
        .iter()
        .any(|m| m.cause == Cause::ImagePlatformMismatch)
        && let Some(m) = foreign_binary(name, lines)
    {
        found.push(m);
    }
    if found.is_empty()
        && let Some(m) = error_line(name, lines)
    {
        found.push(m);
    }
    found
}

/// `file`'s description of an executable: its architecture, in `file`'s words.
static ELF: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"ELF (?:32|64)-bit [LM]SB (?:pie )?(?:executable|shared object), (x86-64|ARM aarch64|ARM|Intel 80386|IBM S/390|64-bit PowerPC)",
    )
});

/// Where a paste states a machine's platform: `kubectl version` (`"platform": "linux/arm64"`,
/// `Platform:"linux/arm64"`), a node's `Architecture:` (describe's System Info) or its
/// `kubernetes.io/arch` label.
static PLATFORM: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i:"platform":\s*"|\bPlatform:\s*")linux/([a-z0-9]+)"|^\s*Architecture:\s+([a-z0-9]+)\s*$|\bkubernetes\.io/arch[=:]\s*"?([a-z0-9]+)"#,
    )
});

/// An executable the paste shows (`file`'s output) built for another architecture than the
/// cluster's or node's the paste states (the server's `kubectl version`, not the client's; a
/// node's architecture): the image carries a binary the node cannot run, whatever its tag
/// says. Low confidence: which image the binary came from is the paste's context.
fn foreign_binary(name: &str, lines: &Lines) -> Option<PastedMessage> {
    let goarch = |file: &str| match file {
        "x86-64" => "amd64",
        "ARM aarch64" => "arm64",
        "ARM" => "arm",
        "Intel 80386" => "386",
        "IBM S/390" => "s390x",
        _ => "ppc64le",
    };
    // Most pastes hold no `file` output: the platforms are read only when one does.
    let (no, line, arch) = first(lines, |l| {
        ELF.captures(l)
            .map(|c| goarch(c.get(1).map_or("", |m| m.as_str())))
    })?;
    let mut platforms: Vec<String> = Vec::new();
    // `kubectl version -o json|yaml` names the client's platform first, in its own block.
    let mut in_client = false;
    let mut i = 0;
    while let Some((_, l)) = lines.get(i) {
        i += 1;
        if l.contains("clientVersion") {
            in_client = true;
        } else if l.contains("serverVersion") {
            in_client = false;
        }
        if in_client || l.contains("Client Version") {
            continue;
        }
        if let Some(c) = PLATFORM.captures(l)
            && let Some(p) = c.get(1).or(c.get(2)).or(c.get(3))
        {
            platforms.push(p.as_str().to_ascii_lowercase());
        }
    }
    if platforms.is_empty() || platforms.iter().any(|p| p == arch) {
        return None;
    }
    Some(PastedMessage {
        at: format!("{name}:{no}"),
        quote: quote(line),
        cause: Cause::ImagePlatformMismatch,
        confidence: kubewhy_model::Confidence::Low,
        speaker: format!(
            "`file`'s output: an executable for {arch}, where the paste's cluster runs {}",
            platforms[0]
        ),
        object: None,
        same: 1,
    })
}

/// An application's own error-level line (`level=error`, `"level":"fatal"`, a timestamped
/// `ERROR`, nginx's `[emerg]`, Fluent Bit's `[2023/02/03 23:38:21] [error]`, a C++ program's
/// glog `E20230628 17:25:42.524503 1 dfly_main.cc:305]`, a Go program's fatal klog `F1116 …
/// init.go:43]` (not its `E` lines: a driver logs one per failed request, and a node's
/// components write the same), logrus's text `ERRO[0000]` / `ERRO:`, NeuVector's `|ERRO|`,
/// Envoy's `[2019-01-22 00:19:44.400][1][critical][main]`):
/// what ended the program, in words no catalogue holds.
static ERROR_LEVEL: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?i:\blevel=(?:error|fatal|panic|crit|critical)\b|"level"\s*:\s*"(?:error|fatal|panic|crit|critical)")|^(?:\S+\s+)?(?:\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d\S*|\d\.\d+e\+09|\d{10}(?:\.\d+)?)\s+\[?(?:ERROR|FATAL|CRITICAL|PANIC)\]?\s|^\[?(?:ERROR|FATAL|CRITICAL)\]?:?\s+\S|\[emerg\]|^\[[^\]]{8,40}\]\s+\[(?i:error|fatal|crit)\]\s|\[\d+\] (?:FATAL|PANIC):\s|^[EF]\d{8} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.-]+\.(?:cc|cpp|h):\d+\] |^F\d{4} \d\d:\d\d:\d\d\.\d+\s+\d+ [\w.-]+\.go:\d+\] |^ERRO(?:\[\d+\]|:)\s|\|ERRO\||^\[\d{4}-\d\d-\d\d [\d:.]+\]\[\d+\]\[(?:critical|error)\]\["#,
    )
});

/// Lines of the node's own components (their errors are the node's, not an application's).
static NODE_COMPONENT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(?:kubelet|containerd|crio|cri-o|dockerd|runc|k3s|rke2|systemd|kernel)\b")
});

/// A line in which a program says it failed without an error level: a line opening on `error` /
/// `fatal` / `panic` (`error initialising module: compactor`, `error loading config from …`), on
/// failing to do what a program does at start (`Failed to start grafana. error: …`, `failed
/// parsing config: …`, `unable to open database file`), or a sentence followed by `Exiting...`
/// (`There are 2 threads, so 512.00MiB are required. Exiting...`), or a Go panic's trace
/// (`goroutine 32660 [running]:`), or a Node.js system error (`EACCES: permission denied, mkdir
/// 'logs'`), or klog's structured error without its header (`app.go: "failed to run"
/// err="…"`). Not kubectl's own errors (`Error from
/// server (…)`, `error: …`), which are about the command, not the workload.
static FAILURE_LINE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^(?:(?i:error|fatal|panic)\b(?:\s+[a-z]|:\s*\S)|(?:[Ff]ailed|[Uu]nable|[Cc]ould not|[Cc]annot) (?:to )?(?:start|parse|parsing|load|loading|read|reading|open|opening|initiali[sz]e|initiali[sz]ing|connect|create|bind|listen|run|migrate)\b)|\S\.\s+(?i:exiting)(?:\.{3}|\.|…)?$|^goroutine \d+ \[running\]:$|^E(?:ACCES|PERM|ROFS|NOSPC|NOENT): |^(?:[\w.-]+\.go(?::\d+)?\]?:?\s+)?"(?:[Ff]ailed|[Uu]nable|[Cc]ould not|[Ee]rror)\b[^"]*"\s+err="#,
    )
});

/// `Done. Exiting`, `Finished successfully. Exiting...`: a program ending its work, not failing.
static NORMAL_EXIT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?i)\b(?:done|finished|completed?|success(?:ful(?:ly)?)?|nothing to do)\.\s+exiting")
});

static KUBECTL_ERROR: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^(?:Error from server\b|error: |Error: (?:[a-z]+ )?(?:unknown|required|invalid|flag|accepts))",
    )
});

/// The kubelet's event quoting a container's waiting reason (`Error: ImagePullBackOff`): a
/// state the pod's own reading covers, not an application's words.
static WAITING_REASON: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"^Error: (?:ErrImagePull|ImagePullBackOff|ErrImageNeverPull|InvalidImageName|CrashLoopBackOff|CreateContainerConfigError|CreateContainerError|RunContainerError|ContainerCreating|PodInitializing)\s*$",
    )
});

/// The first line (trimmed) that `read` reads, with its number and what was read.
fn first<'a, T>(lines: &Lines<'a>, read: impl Fn(&str) -> Option<T>) -> Option<(u64, &'a str, T)> {
    let mut i = 0;
    while let Some((no, line)) = lines.get(i) {
        let line = line.trim();
        if let Some(r) = read(line) {
            return Some((no, line, r));
        }
        i += 1;
    }
    None
}

/// Never silent when the text says something failed: a paste in which the catalogue knows no
/// message, but which holds an application's error-level line, is read as that application
/// failing (low confidence: the words are the application's own). Without one, the first line
/// that says in words that a program failed ([`FAILURE_LINE`]) stands for it.
fn error_line(name: &str, lines: &Lines) -> Option<PastedMessage> {
    let app = |line: &str| !NODE_COMPONENT.is_match(line) && line.len() <= 4096;
    let found = |pick: &dyn Fn(&str) -> bool| {
        first(lines, |l| (pick(l) && app(l)).then_some(())).map(|(no, line, _)| (no, line))
    };
    let said = |no: u64, line: &str, cause: Cause, speaker: String| PastedMessage {
        at: format!("{name}:{no}"),
        quote: quote(line),
        cause,
        confidence: kubewhy_model::Confidence::Low,
        speaker,
        object: pod_object(line),
        same: 1,
    };
    if let Some((no, line)) = found(&|l| ERROR_LEVEL.is_match(l)) {
        return Some(said(no, line, Cause::AppExitError, ERROR_LINE.into()));
    }
    // Kubernetes' own vocabulary in a failure line, whoever speaks (a new CSI driver's or CNI
    // plugin's words, a kubelet line no table holds): what it names.
    if let Some((no, line, (cause, words))) = first(lines, vocabulary::read) {
        return Some(said(
            no,
            line,
            cause,
            format!("{VOCABULARY}, about `{words}`"),
        ));
    }
    let (no, line) = found(&|l| {
        FAILURE_LINE.is_match(l)
            && !KUBECTL_ERROR.is_match(l)
            && !NORMAL_EXIT.is_match(l)
            && !WAITING_REASON.is_match(l)
    })?;
    Some(said(no, line, Cause::AppExitError, ERROR_LINE.into()))
}

/// Recognised messages as a snapshot keeps them: the first `KEPT_PER_CAUSE` of each cause, each
/// with how many were seen of its cause (`PastedMessage::same`).
#[derive(Default)]
pub(crate) struct Kept {
    kept: Vec<PastedMessage>,
    counts: std::collections::HashMap<kubewhy_model::Cause, usize>,
}

impl Kept {
    /// Counts one message of `cause`; `make` builds it only when it is kept.
    pub(crate) fn add(
        &mut self,
        cause: kubewhy_model::Cause,
        make: impl FnOnce() -> PastedMessage,
    ) {
        let n = self.counts.entry(cause).or_default();
        *n += 1;
        if *n <= KEPT_PER_CAUSE {
            self.kept.push(make());
        }
    }

    pub(crate) fn done(mut self) -> Vec<PastedMessage> {
        for m in &mut self.kept {
            m.same = self.counts[&m.cause];
        }
        self.kept
    }
}

/// A YAML single-quoted string's doubled quote inside a word (`didn''t`, `Pod''s`, as
/// `kubectl get -o yaml` writes a scheduler's message) read as the one quote it stands for.
static DOUBLED_QUOTE: LazyLock<Regex> = LazyLock::new(|| re(r"(\w)''(\w)"));

fn undouble(line: &str) -> std::borrow::Cow<'_, str> {
    if line.contains("''") {
        DOUBLED_QUOTE.replace_all(line, "$1'$2")
    } else {
        line.into()
    }
}

/// One reason of the scheduler's message on a line of its own: a count and the reason.
static REASON_LINE: LazyLock<Regex> = LazyLock::new(|| re(r"^\d+ [A-Za-z(]"));

/// A line that ends where a Go error chain was broken, after a colon, and says it failed; or a
/// gRPC error a terminal broke mid-sentence (`… desc = failed to pull and unpack image`, the
/// image's name on the next line).
fn broken_chain(line: &str) -> bool {
    (line.ends_with(':') && {
        let l = line.to_ascii_lowercase();
        l.contains("fail") || l.contains("error")
    }) || (line.contains("rpc error: code = ")
        && line.ends_with(|c: char| c.is_ascii_alphanumeric()))
}

/// Every known failure message in the lines, in order, to `out`.
fn scan(name: &str, lines: &Lines, out: &mut dyn FnMut(PastedMessage)) {
    let mut i = 0;
    // What the previous step found of this line, when it looked ahead.
    let mut known: Option<(usize, Option<Recognition>)> = None;
    while let Some((no, line)) = lines.get(i) {
        let line = undouble(line.trim());
        let line = line.as_ref();
        if line.is_empty() {
            i += 1;
            continue;
        }
        // The scheduler's message with one reason per line (`0/22 nodes are available:` then
        // `1 didn't match pod anti-affinity rules`, `4 Insufficient memory`, …, as a reader
        // reformats it): judged whole, as the scheduler wrote it.
        if line.ends_with("nodes are available:") {
            let mut reasons = Vec::new();
            let mut k = i + 1;
            while let Some((_, next)) = lines.get(k) {
                let next = next.trim();
                if !REASON_LINE.is_match(next) {
                    break;
                }
                reasons.push(next.trim_end_matches([',', '.']).to_string());
                k += 1;
            }
            if reasons.len() > 1 {
                let joined = format!("{line} {}.", reasons.join(", "));
                if let Some(r) = recognise(&joined) {
                    out(message(name, no, &joined, r));
                    known = None;
                    i = k;
                    continue;
                }
            }
        }
        let here = match known.take() {
            Some((k, r)) if k == i => r,
            _ => recognise(line),
        };
        // A message whose words were spread apart (a YAML string folded by an editor, a
        // terminal's column padding: `new content      in namespace`): read with single spaces.
        if here.is_none()
            && let Some(single) = single_spaced(line)
            && let Some(r) = recognise(&single)
        {
            out(message(name, no, &single, r));
            i += 1;
            continue;
        }
        if let Some(r) = here {
            // A list of reasons cut after a comma (the scheduler's `0/15 nodes are available:
            // 12 …,` wrapped) is judged whole: which reason is the cause depends on all of them.
            // So is a message whose line says only what failed, not why (`MountVolume.SetUp
            // failed for volume "x" : secret` / `"x" not found`), when the join says why.
            let vague = matches!(
                r.cause,
                Cause::VolumeMountFailed | Cause::ContainerStartFailed
            );
            if generic(r)
                && let Some((k, joined, whole)) = read_on(lines, i, line.to_string(), r)
            {
                out(message(name, no, &joined, whole));
                i = k + 1;
                continue;
            }
            if (line.ends_with(',') || vague)
                && let Some((_, next)) = lines.get(i + 1)
                && let next = undouble(next.trim())
                && !next.is_empty()
                && !NEW_ENTRY.is_match(&next)
                && (!vague || recognise(&next).is_none())
            {
                let joined = format!("{line} {next}");
                if let Some(whole) = recognise(&joined)
                    && (!vague || whole.cause != r.cause)
                {
                    out(message(name, no, &joined, whole));
                    i += 2;
                    continue;
                }
            }
            out(message(name, no, line, r));
            i += 1;
            continue;
        }
        // A known message that does not say why on its line (`Failed to pull image "x": rpc
        // error: code = Unknown`) continues on the next ones: read on until it does. So does a
        // Go error chain broken after one of its colons (`failed to pull and unpack image "x":`).
        let event = kubewhy_model::messages::events::find(line).is_some();
        if event || broken_chain(line) {
            let mut joined = line.to_string();
            let mut found = None;
            for k in i + 1..i + 7 {
                let Some((_, next)) = lines.get(k) else {
                    break;
                };
                let next = undouble(next.trim());
                if next.is_empty() || NEW_ENTRY.is_match(&next) {
                    break;
                }
                // A chain goes on in Go's lower-case words; a capital starts something else
                // (`Mounting command: mount`, `Output: …`).
                if !event && next.starts_with(|c: char| c.is_ascii_uppercase()) {
                    break;
                }
                joined.push(' ');
                joined.push_str(&next);
                if let Some(r) = recognise(&joined) {
                    found = Some((k, r));
                    break;
                }
            }
            if let Some((k, r)) = found {
                out(message(name, no, &joined, r));
                i = k + 1;
                continue;
            }
        }
        // A message wrapped over two lines (a terminal's width, a describe's Message column, a
        // YAML folded string): read joined, when the next line alone says nothing.
        if let Some((_, next)) = lines.get(i + 1) {
            let next = undouble(next.trim());
            let alone = if next.is_empty() {
                None
            } else {
                recognise(&next)
            };
            known = Some((i + 1, alone));
            if !next.is_empty() && alone.is_none() {
                let joined = format!("{line} {next}");
                if let Some(r) = recognise(&joined) {
                    let (k, joined, r) = generic(r)
                        .then(|| read_on(lines, i + 1, joined.clone(), r))
                        .flatten()
                        .unwrap_or((i + 1, joined, r));
                    out(message(name, no, &joined, r));
                    i = k + 1;
                    continue;
                }
            }
        }
        i += 1;
    }
}

/// Runs of spaces inside a line as one, when it has any (`None`: it has none).
fn single_spaced(line: &str) -> Option<String> {
    line.contains("  ").then(|| {
        line.split(' ')
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// A recognition by a generic wording (an application's `level=fatal msg="`): the why may
/// follow on the next lines of the same message.
fn generic(r: Recognition) -> bool {
    r.cause == Cause::AppExitError && r.confidence == kubewhy_model::Confidence::Low
}

/// A message recognised by a generic wording whose line was wrapped before it said why
/// (kubeadm's `failed to pull image "x": output: time=… level=fatal` / `msg="pulling image
/// failed: rpc error: code = NotFound desc = …` / … / `x: not found"`): read on, while the next
/// lines continue it (no new entry's mark, nothing known alone), up to five lines, until the
/// join names another cause. `None`: it names none.
fn read_on(
    lines: &Lines,
    last: usize,
    mut joined: String,
    r: Recognition,
) -> Option<(usize, String, Recognition)> {
    for k in last + 1..last + 6 {
        let (_, next) = lines.get(k)?;
        let next = undouble(next.trim());
        if next.is_empty() || NEW_ENTRY.is_match(&next) || recognise(&next).is_some() {
            return None;
        }
        joined.push(' ');
        joined.push_str(&next);
        if let Some(whole) = recognise(&joined)
            && whole.cause != r.cause
        {
            return Some((k, joined, whole));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_model::Cause;

    /// A paste whose messages no catalogue knows still says what its error-level line says;
    /// a paste with a known message, or only a node component's error, does not.
    #[test]
    fn an_error_level_line_is_read_when_nothing_else_is() {
        for (text, at) in [
            (
                "2023-10-04T10:01:55Z\tERROR\tCould not wait for Cache to sync\t{\"controller\": \"hcpauth\"}\n",
                Some("p:1"),
            ),
            (
                "1.6475935455924516e+09 ERROR controller-runtime.source something new\n",
                Some("p:1"),
            ),
            (
                "info line\n{\"level\":\"error\",\"msg\":\"Command error: something new\"}\n",
                Some("p:2"),
            ),
            (
                "2026/06/18 10:18:10 [emerg] 1#1: something nginx never said\n",
                Some("p:1"),
            ),
            // Envoy (kubeflow/website's GKE troubleshooting: its configuration file not there).
            (
                "[2019-01-22 00:19:44.400][1][info][main] external/envoy/source/server/server.cc:184] initializing epoch 0\n[2019-01-22 00:19:44.400][1][critical][main] external/envoy/source/server/server.cc:71] error initializing configuration '/etc/envoy/envoy-config.json': unable to read file: /etc/envoy/envoy-config.json\n",
                Some("p:2"),
            ),
            (
                "time=\"2024-06-20T01:20:55Z\" level=error msg=\"something new\"\n",
                Some("p:1"),
            ),
            // A word that only contains a component's name is no component.
            (
                "time=\"x\" level=fatal msg=\"the kubeletter plugin said no\"\n",
                Some("p:1"),
            ),
            (
                "Nov 24 23:43:08 node-1 containerd[812]: time=\"x\" level=error msg=\"something new\"\n",
                None,
            ),
            ("level=info msg=\"all is well\"\n", None),
            (
                "[2023/02/03 23:38:21] [error] [storage] [chunkio] cannot initialize root path /var/log/flb-storage/\n",
                Some("p:1"),
            ),
            // Without an error level: a line that opens on an error or on a failure to start
            // (Loki, Grafana, Tempo's words in real pastes), after any error-level line.
            (
                "mkdir : no such file or directory\nerror initialising module: compactor\n",
                Some("p:2"),
            ),
            (
                "logger=migrator lvl=info msg=\"Executing migration\"\nFailed to start grafana. error: migration failed (id = create migration_log table): disk I/O error\n",
                Some("p:2"),
            ),
            (
                "failed parsing config: failed to parse configFile /conf/tempo.yaml: yaml: something\n",
                Some("p:1"),
            ),
            (
                "Failed to start grafana. error: x\nts=1 level=error msg=\"the real one\"\n",
                Some("p:2"),
            ),
            // A C++ program's glog error line (Dragonfly), and a sentence followed by
            // `Exiting...`; a Go program's klog error line is not (it may be a node's).
            (
                "I20230628 17:25:42.524402     1 proactor_pool.cc:147] Running 72 io threads\nE20230628 17:25:42.524503     1 dfly_main.cc:305] something new\n",
                Some("p:2"),
            ),
            (
                "There are 2 threads, so 512.00MiB are required. Exiting...\n",
                Some("p:1"),
            ),
            (
                "E1207 07:40:16.205850       1 main.go:119] something new\n",
                None,
            ),
            ("Found the failure. Exiting\n", Some("p:1")),
            // logrus's text format without a terminal (falcoctl), NeuVector's own format, and a
            // Node.js system error.
            (
                "ERRO: unable to fetch index \"x\": cannot fetch index: EOF\n",
                Some("p:1"),
            ),
            (
                "2022-11-02T07:53:53.311|INFO|CTL|system.NewSystemTools: cgroup v1\n2022-11-02T07:53:53.311|ERRO|CTL|main.main: Failed to initialize - error=Unknown container runtime\n",
                Some("p:2"),
            ),
            ("EACCES: permission denied, mkdir 'logs'\n", Some("p:1")),
            (
                "F1116 20:30:47.261469       1 init.go:43] failed to initiate x: InvalidActivation:\n",
                Some("p:1"),
            ),
            (
                "goroutine 32660 [running]:\nruntime.throw({0x347c9c7?, 0x30?})\n",
                Some("p:1"),
            ),
            // A program that says it finished is not failing.
            ("All done. Exiting...\n", None),
            // kubectl's own errors, and a node component failing, are not an application's.
            ("Error from server (NotFound): pods \"x\" not found\n", None),
            (
                "error: unable to forward port because pod is not running\n",
                None,
            ),
            ("Failed to start Kubelet: something\n", None),
        ] {
            let m = lines("p", &Lines::new(text));
            assert_eq!(m.first().map(|m| m.at.as_str()), at, "{text}");
            if at.is_some() {
                assert_eq!(
                    (m[0].cause, m[0].confidence),
                    (Cause::AppExitError, kubewhy_model::Confidence::Low)
                );
            }
        }
        // A known message comes first, and alone.
        let m = lines(
            "p",
            &Lines::new("level=error msg=\"x\"\n0/3 nodes are available: 3 Insufficient cpu.\n"),
        );
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].cause, Cause::InsufficientResources);
    }

    #[test]
    fn wrapped_and_quoted_messages_count() {
        let text = "the scheduler said: 0/3 nodes are available: 3 node(s) had\n  untolerated taint {dedicated: gpu}.\nhello\nE0412 10:00:00.000000 1 kubelet.go:1] \"Error syncing pod\" err=\"failed to \\\"KillPodSandbox\\\" for \\\"web-1_shop(1f0e7c54-6f9a-4b4e-8a51-2d0a9e4c1b11)\\\" with KillPodSandboxError: \\\"rpc error: code = DeadlineExceeded desc = context deadline exceeded\\\"\"\n";
        let l = Lines::new(text);
        let m = lines("paste.txt", &l);
        assert_eq!(m.len(), 2);
        assert_eq!(m[0].cause, Cause::UntoleratedTaint);
        assert_eq!(m[0].at, "paste.txt:1");
        assert_eq!(m[1].cause, Cause::ContainerStopTimeout);
        let o = m[1].object.as_ref().unwrap();
        assert_eq!((o.namespace.as_str(), o.name.as_str()), ("shop", "web-1"));
    }

    /// Real pastes: a pull error broken after each colon (kind issue 3663), and the scheduler's
    /// reasons one per line (tuist PR 11035), each judged whole.
    #[test]
    fn a_chain_broken_at_its_colons_and_reasons_one_per_line_are_read_whole() {
        let text = "^ Pending: ErrImagePull (message: failed to pull and unpack image \"ghcr.io/a/b@sha256:b83b\": \nfailed to resolve reference \"ghcr.io/a/b@sha256:b83b\": \nfailed to do request: Head \"https://ghcr.io/v2/a/b/manifests/sha256:b83b\": \ntls: failed to verify certificate: x509: certificate signed by unknown authority)\n";
        let m = lines("p", &Lines::new(text));
        assert_eq!(m.len(), 1);
        assert_eq!(
            (m[0].cause, m[0].at.as_str()),
            (Cause::ImageRegistryTls, "p:1")
        );
        let text = "FailedScheduling  pod/pg-3-join\n  0/22 nodes are available:\n    1 didn't match pod anti-affinity rules\n    15 had untolerated taints\n    4 Insufficient memory\n    5 Insufficient cpu\n";
        let m = lines("p", &Lines::new(text));
        assert_eq!(m.len(), 1);
        assert_eq!(
            (m[0].cause, m[0].at.as_str()),
            (Cause::InsufficientResources, "p:2")
        );
    }

    #[test]
    fn a_yaml_single_quoted_message_is_read_with_its_quotes_undoubled() {
        // kubectl get events -o yaml (kops PR 16909): the message wrapped, its quotes doubled.
        let text = "  message: '0/15 nodes are available: 12 node(s) didn''t match Pod''s node affinity/selector,\n    3 node(s) didn''t have free ports for the requested pod ports. preemption: 0/15\n";
        let m = lines("events.yaml", &Lines::new(text));
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].cause, Cause::HostPortConflict);
        assert!(
            m[0].quote.contains("didn't have free ports"),
            "{}",
            m[0].quote
        );
    }

    #[test]
    fn a_mount_failure_wrapped_before_its_why_is_read_whole() {
        // A describe's Events column wrapped by the terminal (tests/fixtures/wild 829).
        let text = " to 10.112.78.7 Warning  FailedMount  14s (x7 over 46s)  kubelet   MountVolume.SetUp failed for volume \"registry-creds\" : secret \n\"sbu-pipeline2\" not found\n";
        let m = lines("paste.txt", &Lines::new(text));
        assert_eq!(m.len(), 1);
        assert_eq!(m[0].cause, Cause::SecretMissing);
        assert!(
            m[0].quote.contains("\"sbu-pipeline2\" not found"),
            "{}",
            m[0].quote
        );
        // A next line that says something of its own is not joined.
        let text = "Warning  FailedMount  1m  kubelet  MountVolume.SetUp failed for volume \"data\" : mount failed: exit status 32\nWarning  BackOff  1m  kubelet  Back-off pulling image \"x\"\n";
        let m = lines("paste.txt", &Lines::new(text));
        assert_eq!(m[0].cause, Cause::VolumeMountFailed);
    }

    #[test]
    fn a_fatal_line_wrapped_before_its_why_is_read_on() {
        // kubeadm's pull error wrapped over four lines (tests/fixtures/wild 2269, kuboard-press).
        let text = "[config/images] Pulled registry.aliyuncs.com/k8sxio/etcd:3.4.13-0\nfailed to pull image \"swr.example.com/coredns:1.8.0\": output: time=\"2021-04-30T13:26:14+08:00\" level=fatal \nmsg=\"pulling image failed: rpc error: code = NotFound desc = failed to pull and unpack image \\\"swr.example.com/coredns:1.8.0\\\": \nfailed to resolve reference \\\"swr.example.com/coredns:1.8.0\\\": \nswr.example.com/coredns:1.8.0: not found\", error: exit status 1\nTo see the stack trace of this error execute with --v=5 or higher\n";
        let m = lines("paste.txt", &Lines::new(text));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].cause, Cause::ImageNotFound);
        assert_eq!(m[0].at, "paste.txt:2");
        assert!(
            m[0].quote.ends_with("not found\", error: exit status 1"),
            "{}",
            m[0].quote
        );
        // An application's fatal line whose next lines say nothing more stays the application's.
        let text = "time=\"x\" level=fatal \nmsg=\"the config file is empty\"\nand nothing else\n";
        let m = lines("paste.txt", &Lines::new(text));
        assert_eq!(m.len(), 1, "{m:?}");
        assert_eq!(m[0].cause, Cause::AppExitError);
    }
}
