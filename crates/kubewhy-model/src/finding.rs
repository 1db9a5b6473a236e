//! A finding: one root cause, the objects it affects, the evidence that proves it and the steps
//! that fix it. Findings are data, never errors.

use crate::cause::Cause;
use crate::objects::ObjectKey;
use crate::workload::WorkloadRef;
use serde::Serialize;
use std::hash::BuildHasher;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Info,
    Warning,
    Error,
    Critical,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Info => "info",
            Severity::Warning => "warning",
            Severity::Error => "error",
            Severity::Critical => "critical",
        }
    }
    pub fn parse(s: &str) -> Option<Severity> {
        match s.to_ascii_lowercase().as_str() {
            "info" => Some(Severity::Info),
            "warning" | "warn" => Some(Severity::Warning),
            "error" => Some(Severity::Error),
            "critical" => Some(Severity::Critical),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Confidence {
    Low,
    Medium,
    High,
}

/// What a piece of evidence is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EvidenceKind {
    /// An object field (spec or status).
    Field,
    /// A status condition.
    Condition,
    /// A Kubernetes event.
    Event,
    /// A line of a container or component log.
    Log,
    /// Something the snapshot shows is absent (a missing ConfigMap, a vanished node).
    Absence,
    /// kubewhy's own evaluation of the snapshot's state (e.g. the scheduler's filters run on
    /// every node), quoted as its result.
    Analysis,
}

impl EvidenceKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EvidenceKind::Field => "field",
            EvidenceKind::Condition => "condition",
            EvidenceKind::Event => "event",
            EvidenceKind::Log => "log",
            EvidenceKind::Absence => "absence",
            EvidenceKind::Analysis => "analysis",
        }
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct Evidence {
    pub kind: EvidenceKind,
    /// The object the evidence was read from (the first one, when several showed the same).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub object: Option<ObjectKey>,
    /// Where on that object or in the input: a field path, an event's reason and source, a file.
    pub source: String,
    /// The exact text, quoted.
    pub quote: String,
    /// How many objects showed this same evidence.
    pub occurrences: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RiskLevel {
    /// Read-only or trivially reversible.
    None,
    Low,
    Medium,
    High,
}

impl RiskLevel {
    pub fn as_str(self) -> &'static str {
        match self {
            RiskLevel::None => "none",
            RiskLevel::Low => "low",
            RiskLevel::Medium => "medium",
            RiskLevel::High => "high",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Step {
    pub action: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub command: Option<String>,
    /// Configuration to put in place (a file's lines, not a command to run): shown as a block
    /// of its own, never with a shell prompt.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub snippet: Option<String>,
    pub risk: RiskLevel,
    /// What could go wrong, in a sentence.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub risk_note: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Finding {
    pub code: &'static str,
    pub cause: Cause,
    pub severity: Severity,
    pub summary: String,
    #[serde(serialize_with = "named_only")]
    pub objects: Vec<ObjectKey>,
    /// The workloads at the top of the affected pods' owner chains, with pod counts (filled
    /// once the findings are merged: `Snapshot::workloads_of`).
    pub workloads: Vec<WorkloadRef>,
    /// When the oldest affected object's trouble began, as far as its state shows (a pod's
    /// Ready or PodScheduled condition turning False, its deletion; a namespace's deletion).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub since: Option<jiff::Timestamp>,
    pub evidence: Vec<Evidence>,
    pub explanation: String,
    pub remediation: Vec<Step>,
    pub confidence: Confidence,
    /// Findings with the same cause and group key are merged into one (see `merge_findings`).
    #[serde(skip)]
    pub group_key: String,
}

impl Finding {
    pub fn new(cause: Cause, severity: Severity, summary: impl Into<String>) -> Self {
        Finding {
            code: cause.code(),
            cause,
            severity,
            summary: summary.into(),
            objects: Vec::new(),
            workloads: Vec::new(),
            since: None,
            evidence: Vec::new(),
            explanation: String::new(),
            remediation: Vec::new(),
            confidence: Confidence::High,
            group_key: String::new(),
        }
    }
    pub fn object(mut self, o: ObjectKey) -> Self {
        self.objects.push(o);
        self
    }
    pub fn evidence(
        mut self,
        kind: EvidenceKind,
        object: Option<&ObjectKey>,
        source: impl Into<String>,
        quote: impl Into<String>,
    ) -> Self {
        self.evidence.push(Evidence {
            kind,
            object: object.cloned(),
            source: source.into(),
            quote: quote.into(),
            occurrences: 1,
        });
        self
    }
    /// An event as evidence: its origin (reason, source, count) and its message.
    pub fn event(self, object: Option<&ObjectKey>, e: &crate::objects::Event) -> Self {
        self.evidence(EvidenceKind::Event, object, e.origin(), e.message.clone())
    }
    pub fn explain(mut self, text: impl Into<String>) -> Self {
        self.explanation = text.into();
        self
    }
    pub fn step(
        mut self,
        action: impl Into<String>,
        command: Option<String>,
        risk: RiskLevel,
        risk_note: impl Into<String>,
    ) -> Self {
        self.remediation.push(Step {
            action: action.into(),
            command,
            snippet: None,
            risk,
            risk_note: risk_note.into(),
        });
        self
    }
    /// A step at position `at` (or last, when there are fewer steps): for the specific fix a
    /// check found, placed right after the first, read-only step.
    pub fn step_at(
        mut self,
        at: usize,
        action: impl Into<String>,
        command: Option<String>,
        risk: RiskLevel,
        risk_note: impl Into<String>,
    ) -> Self {
        let at = at.min(self.remediation.len());
        self.remediation.insert(
            at,
            Step {
                action: action.into(),
                command,
                snippet: None,
                risk,
                risk_note: risk_note.into(),
            },
        );
        self
    }
    /// A step whose content is configuration to write (a file's lines), not a command.
    pub fn snippet_step(
        mut self,
        action: impl Into<String>,
        snippet: impl Into<String>,
        risk: RiskLevel,
        risk_note: impl Into<String>,
    ) -> Self {
        self.remediation.push(Step {
            action: action.into(),
            command: None,
            snippet: Some(snippet.into()),
            risk,
            risk_note: risk_note.into(),
        });
        self
    }
    pub fn confidence(mut self, c: Confidence) -> Self {
        self.confidence = c;
        self
    }
    pub fn group(mut self, key: impl Into<String>) -> Self {
        self.group_key = key.into();
        self
    }
}

/// The objects the data names: one a paste does not name is said in words, never listed.
fn named_only<S: serde::Serializer>(objects: &[ObjectKey], s: S) -> Result<S::Ok, S::Error> {
    s.collect_seq(objects.iter().filter(|o| o.named()))
}

/// Merges findings that share cause and group key: one finding listing every affected object.
/// Evidence that reads the same (kind, source, quote) is kept once with an occurrence count.
/// The result is ordered most severe first, then most objects affected, then by cause and first
/// object.
///
/// A step whose command differs between the merged findings (it names each pod's workload)
/// keeps every distinct command, folded by `commands::fold`: a few listed, more as one loop.
pub fn merge_findings(findings: Vec<Finding>) -> Vec<Finding> {
    let mut m = Merger::default();
    for f in findings {
        m.push(f);
    }
    m.finish()
}

/// `merge_findings` as findings arrive: a check's findings are merged as it emits them, so 10,000
/// pods pending for one reason are held as one finding, never as 10,000. Merging in pieces and
/// `append`ing the pieces in order gives what merging everything at once gives.
#[derive(Debug, Default)]
pub struct Merger {
    out: Vec<Finding>,
    index: std::collections::HashMap<(Cause, String), usize>,
    /// (finding, step) -> the distinct commands seen for that step, in order; folded by `finish`.
    variants: std::collections::HashMap<(usize, usize), crate::commands::Variants>,
    /// Per finding, its objects by hash (indices into its `objects`): 20,000 pods merged into
    /// one finding are told apart in constant time each, not by comparing every pair.
    objects: Vec<hashbrown::HashTable<u32>>,
    hasher: foldhash::fast::FixedState,
}

impl Merger {
    pub fn push(&mut self, f: Finding) {
        self.push_with(f, |_| None);
    }

    /// Adds what another merger holds, as if its findings had been pushed here one by one.
    pub fn append(&mut self, mut other: Merger) {
        for (j, f) in std::mem::take(&mut other.out).into_iter().enumerate() {
            self.push_with(f, |at| other.variants.remove(&(j, at)));
        }
    }

    /// Merges `f`; `commands(at)` gives the distinct commands its step `at` already stands for
    /// (when `f` is itself merged), else the step's own command is the one.
    fn push_with(
        &mut self,
        f: Finding,
        mut commands: impl FnMut(usize) -> Option<crate::commands::Variants>,
    ) {
        let key = (f.cause, f.group_key.clone());
        let Some(&i) = self.index.get(&key) else {
            let i = self.out.len();
            for at in 0..f.remediation.len() {
                if let Some(v) = commands(at) {
                    self.variants.insert((i, at), v);
                }
            }
            // A finding's own objects stay as it lists them; those merged into it are added once.
            let mut seen = hashbrown::HashTable::new();
            for (at, o) in f.objects.iter().enumerate() {
                let hash = self.hasher.hash_one(o);
                if seen.find(hash, |&j| f.objects[j as usize] == *o).is_none() {
                    seen.insert_unique(hash, at as u32, |&j| {
                        self.hasher.hash_one(&f.objects[j as usize])
                    });
                }
            }
            self.index.insert(key, i);
            self.out.push(f);
            self.objects.push(seen);
            return;
        };
        let into = &mut self.out[i];
        into.severity = into.severity.max(f.severity);
        into.confidence = into.confidence.min(f.confidence);
        for o in f.objects {
            add_object(&mut into.objects, &mut self.objects[i], &self.hasher, o);
        }
        for e in f.evidence {
            match into.evidence.iter_mut().find(|x| {
                x.kind == e.kind
                    && x.quote == e.quote
                    && without_count(&x.source) == without_count(&e.source)
            }) {
                Some(x) => {
                    x.occurrences += e.occurrences;
                    // The same event seen a different number of times on each pod: the count
                    // belongs to one pod, not to the merged line.
                    if x.source != e.source {
                        x.source = without_count(&x.source).to_string();
                    }
                }
                None => into.evidence.push(e),
            }
        }
        // Steps are per cause; their commands are per workload (or pod).
        for (from, s) in f.remediation.into_iter().enumerate() {
            let seen = commands(from);
            match into.remediation.iter().position(|x| x.action == s.action) {
                None => {
                    if let Some(v) = seen {
                        self.variants.insert((i, into.remediation.len()), v);
                    }
                    into.remediation.push(s);
                }
                Some(at) => {
                    let list = match seen {
                        Some(v) => v.into_list(),
                        None => s.command.into_iter().collect(),
                    };
                    for c in list {
                        let first = &into.remediation[at].command;
                        match self.variants.get_mut(&(i, at)) {
                            Some(v) => v.add(c),
                            None if first.as_deref() != Some(c.as_str()) => {
                                let mut v = crate::commands::Variants::new(first.clone());
                                v.add(c);
                                self.variants.insert((i, at), v);
                            }
                            None => {}
                        }
                    }
                }
            }
        }
    }

    /// The merged findings, each step's commands folded, in report order.
    pub fn finish(mut self) -> Vec<Finding> {
        drop(self.objects);
        for ((i, at), v) in self.variants {
            let step = &mut self.out[i].remediation[at];
            step.command = v.fold(step.risk == RiskLevel::None);
        }
        for f in &mut self.out {
            f.objects.shrink_to_fit();
        }
        order(&mut self.out);
        self.out
    }
}

/// Adds `o` to `objects` unless it is there already (`seen` indexes `objects` by hash).
fn add_object(
    objects: &mut Vec<ObjectKey>,
    seen: &mut hashbrown::HashTable<u32>,
    hasher: &foldhash::fast::FixedState,
    o: ObjectKey,
) {
    let hash = hasher.hash_one(&o);
    if seen.find(hash, |&i| objects[i as usize] == o).is_some() {
        return;
    }
    seen.insert_unique(hash, objects.len() as u32, |&i| {
        hasher.hash_one(&objects[i as usize])
    });
    objects.push(o);
}

/// An event's origin without its count (`event Failed from kubelet (x4)` → `event Failed from
/// kubelet`): events repeated a different number of times on each pod are one line merged.
fn without_count(source: &str) -> &str {
    match source.rsplit_once(" (x") {
        Some((head, tail))
            if tail.ends_with(')')
                && tail[..tail.len() - 1].bytes().all(|b| b.is_ascii_digit()) =>
        {
            head
        }
        _ => source,
    }
}

/// The order every report shows: most severe first; within a severity, the cause that affects
/// the most objects first (so the findings of one cause stay together, as the overview table
/// lists them), then its largest finding; then by cause and first object.
pub fn order(findings: &mut [Finding]) {
    let mut per_cause: std::collections::HashMap<(Severity, Cause), usize> = Default::default();
    for f in findings.iter() {
        *per_cause.entry((f.severity, f.cause)).or_default() += f.objects.len();
    }
    findings.sort_by(|a, b| {
        b.severity
            .cmp(&a.severity)
            .then_with(|| per_cause[&(b.severity, b.cause)].cmp(&per_cause[&(a.severity, a.cause)]))
            .then(a.cause.cmp(&b.cause))
            .then(b.objects.len().cmp(&a.objects.len()))
            .then_with(|| a.objects.first().cmp(&b.objects.first()))
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending(name: &str) -> Finding {
        let pod = ObjectKey::new("Pod", "shop", name, "");
        Finding::new(Cause::InsufficientResources, Severity::Error, "no room")
            .object(pod.clone())
            .evidence(
                EvidenceKind::Condition,
                Some(&pod),
                "status.conditions[PodScheduled]",
                "0/3 nodes are available: 3 Insufficient cpu.",
            )
            .group("cpu")
    }

    #[test]
    fn same_cause_and_key_merge_into_one_finding() {
        let merged = merge_findings(vec![pending("a"), pending("b"), pending("c")]);
        assert_eq!(merged.len(), 1);
        assert_eq!(merged[0].objects.len(), 3);
        assert_eq!(merged[0].evidence.len(), 1);
        assert_eq!(merged[0].evidence[0].occurrences, 3);
    }

    /// A finding of a small world: two causes, three group keys, six pods, steps whose commands
    /// name the pod's workload, events seen a different number of times.
    fn varied(cause: u8, key: u8, pod: u8, cmd: u8, count: u8, action: u8) -> Finding {
        let cause = [Cause::InsufficientResources, Cause::ImageNotFound][cause as usize % 2];
        let o = ObjectKey::new("Pod", "shop", &format!("p{pod}"), "");
        let source = match count % 3 {
            0 => "event FailedScheduling from default-scheduler".to_string(),
            n => format!("event FailedScheduling from default-scheduler (x{n})"),
        };
        let mut f = Finding::new(cause, Severity::Error, "no room").object(o.clone());
        // Some list a second pod, or the same one twice (kept as listed by the first finding).
        match pod % 3 {
            0 => f = f.object(o.clone()),
            1 => {
                f = f.object(ObjectKey::new(
                    "Pod",
                    "shop",
                    &format!("p{}", (pod + 1) % 6),
                    "",
                ))
            }
            _ => {}
        }
        f.evidence(EvidenceKind::Event, Some(&o), source, "0/3 nodes")
            .step(
                format!("action {}", action % 3),
                (!cmd.is_multiple_of(4))
                    .then(|| format!("kubectl rollout restart deployment/w{} -n shop", cmd % 4)),
                if action.is_multiple_of(2) {
                    RiskLevel::None
                } else {
                    RiskLevel::Low
                },
                "",
            )
            .step(
                "show",
                Some(format!("kubectl describe pod p{pod} -n shop")),
                RiskLevel::None,
                "",
            )
            .group(format!("k{}", key % 3))
    }

    /// The merge as it was written before `Merger` (every object compared with every other,
    /// every command kept twice): the oracle the merger is held to.
    fn reference_merge(findings: Vec<Finding>) -> Vec<Finding> {
        let mut out: Vec<Finding> = Vec::new();
        let mut index: std::collections::HashMap<(Cause, String), usize> = Default::default();
        // (finding, step) -> the distinct commands seen for that step, in order.
        let mut variants: std::collections::HashMap<(usize, usize), crate::commands::Variants> =
            Default::default();
        for f in findings {
            let key = (f.cause, f.group_key.clone());
            match index.get(&key) {
                None => {
                    index.insert(key, out.len());
                    out.push(f);
                }
                Some(&i) => {
                    let into = &mut out[i];
                    into.severity = into.severity.max(f.severity);
                    into.confidence = into.confidence.min(f.confidence);
                    for o in f.objects {
                        if !into.objects.contains(&o) {
                            into.objects.push(o);
                        }
                    }
                    for e in f.evidence {
                        match into.evidence.iter_mut().find(|x| {
                            x.kind == e.kind
                                && x.quote == e.quote
                                && without_count(&x.source) == without_count(&e.source)
                        }) {
                            Some(x) => {
                                x.occurrences += e.occurrences;
                                // The same event seen a different number of times on each pod: the
                                // count belongs to one pod, not to the merged line.
                                if x.source != e.source {
                                    x.source = without_count(&x.source).to_string();
                                }
                            }
                            None => into.evidence.push(e),
                        }
                    }
                    // Steps are per cause; their commands are per workload (or pod).
                    for s in f.remediation {
                        match into.remediation.iter().position(|x| x.action == s.action) {
                            None => into.remediation.push(s),
                            Some(at) => {
                                if let Some(c) = s.command
                                    && into.remediation[at].command.as_deref() != Some(c.as_str())
                                {
                                    variants
                                        .entry((i, at))
                                        .or_insert_with(|| {
                                            crate::commands::Variants::new(
                                                into.remediation[at].command.clone(),
                                            )
                                        })
                                        .add(c);
                                }
                            }
                        }
                    }
                }
            }
        }
        for ((i, at), v) in variants {
            let step = &mut out[i].remediation[at];
            step.command = v.fold(step.risk == RiskLevel::None);
        }
        order(&mut out);
        out
    }

    proptest::proptest! {
        /// Merging a check's findings as they arrive and appending each check's merge in order
        /// (what the rules do) gives exactly what merging them all at once gives, and what the
        /// merge written before it gave.
        #[test]
        fn merging_in_pieces_is_merging_at_once(
            items in proptest::collection::vec((0u8..2, 0u8..3, 0u8..6, 0u8..4, 0u8..3, 0u8..3), 0..40),
            cuts in proptest::collection::vec(0usize..40, 0..4),
        ) {
            let all: Vec<Finding> = items.iter().map(|&(a, b, c, d, e, f)| varied(a, b, c, d, e, f)).collect();
            let at_once = serde_json::to_string(&merge_findings(all.clone())).unwrap();
            let mut cuts: Vec<usize> = cuts.into_iter().map(|c| c.min(all.len())).collect();
            cuts.sort_unstable();
            let mut pieces = Merger::default();
            let mut from = 0;
            for to in cuts.into_iter().chain([all.len()]) {
                let mut piece = Merger::default();
                for f in &all[from..to] {
                    piece.push(f.clone());
                }
                pieces.append(piece);
                from = to;
            }
            proptest::prop_assert_eq!(serde_json::to_string(&pieces.finish()).unwrap(), at_once.clone());
            proptest::prop_assert_eq!(serde_json::to_string(&reference_merge(all)).unwrap(), at_once);
        }
    }

    #[test]
    fn different_keys_stay_apart_and_sort_by_severity() {
        let info = Finding::new(Cause::GracePeriodPending, Severity::Info, "wait");
        let merged = merge_findings(vec![info, pending("a"), pending("b").group("memory")]);
        assert_eq!(merged.len(), 3);
        assert_eq!(merged[2].cause, Cause::GracePeriodPending);
    }
}

/// A pod that is not healthy and that no check could explain: reported, never hidden.
#[derive(Debug, Clone, Serialize)]
pub struct Unexplained {
    pub object: ObjectKey,
    /// What `kubectl get pods` would show in its STATUS column.
    pub status: String,
    /// The one command that would show more.
    pub next: String,
    /// What the state does say, and what the data lacks to say more (e.g. the image and its
    /// registry of a pod in ImagePullBackOff whose events could not be read).
    #[serde(skip_serializing_if = "String::is_empty")]
    pub reason: String,
}

/// A problem with the input that did not stop the run (a malformed file, an unreadable path).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct InputWarning {
    pub file: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub line: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub column: Option<u64>,
    pub message: String,
}

impl std::fmt::Display for InputWarning {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.line, self.column) {
            (Some(l), Some(c)) => write!(f, "{}:{}:{}: {}", self.file, l, c, self.message),
            (Some(l), None) => write!(f, "{}:{}: {}", self.file, l, self.message),
            _ => write!(f, "{}: {}", self.file, self.message),
        }
    }
}
