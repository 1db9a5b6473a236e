//! Findings about objects known only in part, from pasted text (`Snapshot::pasted`): one level
//! less certain, with what the paste lacked and the one command that would settle it. A
//! describe that shows everything the checks read leaves its findings as they are.

use kubewhy_model::{
    Cause, Confidence, Evidence, EvidenceKind, Finding, ObjectKey, Pasted, RiskLevel, Severity,
    Snapshot, Step,
};

fn same(a: &ObjectKey, b: &ObjectKey) -> bool {
    a.kind == b.kind && a.namespace == b.namespace && a.name == b.name
}

fn lacking<'a>(snap: &'a Snapshot, o: &ObjectKey) -> Option<&'a Pasted> {
    snap.pasted
        .iter()
        .find(|p| !p.missing.is_empty() && same(&p.object, o))
}

/// The command that settles what the paste could not show about `o`, if it came from one.
pub(crate) fn settle(snap: &Snapshot, o: &ObjectKey) -> Option<String> {
    lacking(snap, o).map(|p| p.settle.clone())
}

/// Causes concluded by elimination ("nothing else explains it"): from a paste that lacks part
/// of the object, elimination proves nothing, so the object is left unexplained with the command
/// that would show more. A CreateContainerConfigError whose message (or the kubelet's event) the
/// paste shows is not concluded by elimination: that message is the reason.
const BY_ELIMINATION: &[Cause] = &[
    Cause::SchedulerUnavailable,
    Cause::ConfigError,
    Cause::KubeletCleanupPending,
];

pub(crate) fn qualify(snap: &Snapshot, findings: &mut Vec<Finding>) {
    if snap.pasted.is_empty() {
        return;
    }
    let said = |f: &Finding| {
        f.cause == Cause::ConfigError && f.evidence.iter().any(|e| !e.quote.trim().is_empty())
    };
    findings.retain(|f| {
        !(BY_ELIMINATION.contains(&f.cause)
            && !said(f)
            && f.objects.iter().all(|o| lacking(snap, o).is_some()))
    });
    for f in findings {
        let Some(p) = f.objects.iter().find_map(|o| lacking(snap, o)) else {
            continue;
        };
        f.confidence = match f.confidence {
            Confidence::High => Confidence::Medium,
            _ => Confidence::Low,
        };
        f.evidence.push(Evidence {
            kind: EvidenceKind::Analysis,
            object: Some(p.object.clone()),
            source: format!("pasted text ({})", p.from),
            quote: format!(
                "{} {} is known only from {}; the paste lacks {}",
                p.object.kind,
                display(&p.object),
                p.from,
                p.missing
            ),
            occurrences: 1,
        });
        // The finding's own steps may already name the settling command.
        if f.remediation
            .iter()
            .any(|s| s.command.as_deref() == Some(p.settle.as_str()))
        {
            continue;
        }
        f.remediation.insert(
            0,
            Step {
                action: format!(
                    "Settle it: show kubewhy what the paste lacked ({})",
                    p.missing
                ),
                command: Some(p.settle.clone()),
                snippet: None,
                risk: RiskLevel::None,
                risk_note: String::new(),
            },
        );
    }
}

/// What a paste did not name is said in words in every finding and every not-explained entry
/// (`Pasted::words_for_unknown`), never as a placeholder: the one pass, after every check.
pub(crate) fn in_words(findings: &mut [Finding], unexplained: &mut [kubewhy_model::Unexplained]) {
    let fix = |s: &mut String| {
        if s.contains(Pasted::UNKNOWN) {
            *s = Pasted::words_for_unknown(s).into_owned();
        }
    };
    for f in findings {
        fix(&mut f.summary);
        fix(&mut f.explanation);
        for e in &mut f.evidence {
            fix(&mut e.source);
            fix(&mut e.quote);
        }
        for step in &mut f.remediation {
            fix(&mut step.action);
            if let Some(c) = &mut step.command {
                fix(c);
            }
        }
    }
    for u in unexplained {
        fix(&mut u.status);
        fix(&mut u.next);
        fix(&mut u.reason);
    }
}

fn display(o: &ObjectKey) -> String {
    if o.namespace.is_empty() {
        o.name.to_string()
    } else {
        format!("{}/{}", o.namespace, o.name)
    }
}

/// The kubelet mounts a pod's volumes before it pulls its images: a pull failure pasted after
/// every mount failure (an events table is in time order) means the volumes were mounted since
/// (a webhook's certificate Secret created a moment later), and the pull is what holds the pod
/// now. Its cause then comes before the mount's.
fn mounted_since(snap: &Snapshot, message_causes: &[Cause], causes: &mut Vec<Cause>) {
    let mount = |m: &kubewhy_model::PastedMessage, c: Cause| {
        matches!(
            c,
            Cause::VolumeMountFailed | Cause::SecretMissing | Cause::ConfigmapMissing
        ) && (m.quote.contains("FailedMount") || m.quote.contains("MountVolume."))
    };
    let pull = |c: Cause| c.slug().starts_with("image-");
    let msgs: Vec<_> = snap.pasted_messages.iter().zip(message_causes).collect();
    let Some((pull_at, pull_cause)) = msgs
        .iter()
        .filter(|(_, c)| pull(**c))
        .find_map(|(m, c)| Some((m.file_line()?, **c)))
    else {
        return;
    };
    let mounts: Vec<_> = msgs.iter().filter(|(m, c)| mount(m, **c)).collect();
    let all_before = !mounts.is_empty()
        && mounts.iter().all(|(m, _)| {
            m.file_line()
                .is_some_and(|(f, n)| f == pull_at.0 && n < pull_at.1)
        });
    let first_mount = causes
        .iter()
        .position(|c| mounts.iter().any(|(_, mc)| **mc == *c));
    if let (true, Some(first), Some(p)) = (
        all_before,
        first_mount,
        causes.iter().position(|c| *c == pull_cause),
    ) && p > first
    {
        let c = causes.remove(p);
        causes.insert(first, c);
    }
}

/// A cause kubectl drain's refusals of an eviction are read as: a PodDisruptionBudget, or an
/// admission webhook denying it.
fn drain_refusal(c: Cause) -> bool {
    matches!(
        c,
        Cause::DisruptionBudgetBlocking | Cause::PodCreationRejected
    )
}

/// Moves `first` just before `then` when both are in `causes` and `first` came later.
fn put_before(causes: &mut Vec<Cause>, first: Cause, then: Cause) {
    if let (Some(t), Some(f)) = (
        causes.iter().position(|c| *c == then),
        causes.iter().position(|c| *c == first),
    ) && f > t
    {
        causes.remove(f);
        causes.insert(t, first);
    }
}

/// Causes whose findings only say "it fails" without the specific why: a pasted message that
/// names a precise cause comes before them.
fn generic(c: Cause) -> bool {
    matches!(
        c,
        Cause::AppExitError
            | Cause::ContainerStartFailed
            | Cause::ConfigError
            | Cause::KilledBySignal
            | Cause::KubeletCleanupPending
            | Cause::GracePeriodPending
    )
}

/// Findings from the known failure messages of a paste (`Snapshot::pasted_messages`) whose
/// cause no finding gives: what the message says, quoted with its line, about the object the
/// paste names (one placeholder when it names none), with the cause page's steps and the
/// command that would show the object. Only when no finding read from the paste's objects
/// says more than "it fails" with some certainty; they come before those that only say that
/// at low confidence.
/// The containers' statuses of the paste's pods, but those only a `get` row shows (a row shows
/// no container's last state, so its pod shows nothing either way).
fn shown_statuses(
    snap: &Snapshot,
) -> impl Iterator<Item = &kubewhy_model::objects::ContainerStatus> {
    let rows: std::collections::HashSet<(&str, &str)> = snap
        .pasted
        .iter()
        .filter(|q| q.object.kind == "Pod" && q.from.starts_with("a kubectl get "))
        .map(|q| (q.object.namespace.as_str(), q.object.name.as_str()))
        .collect();
    snap.pods
        .iter()
        .filter(move |p| !rows.contains(&(p.metadata.ns(), p.metadata.name.as_str())))
        .flat_map(|p| {
            p.status
                .container_statuses
                .iter()
                .chain(&p.status.init_container_statuses)
        })
}

/// The paste shows how some pod's container ended (a describe's `State`/`Last State`, a pod's
/// YAML).
fn pods_show_states(snap: &Snapshot) -> bool {
    shown_statuses(snap).any(|c| c.state.terminated.is_some() || c.last_state.terminated.is_some())
}

/// The paste shows the containers of some pod, and none was killed for memory.
fn pods_show_no_oom(snap: &Snapshot) -> bool {
    let statuses = || shown_statuses(snap);
    let oom = |t: &kubewhy_model::objects::StateTerminated| {
        t.reason == "OOMKilled" || t.exit_code == Some(137)
    };
    statuses().next().is_some()
        && !statuses().any(|c| {
            c.state.terminated.as_deref().is_some_and(oom)
                || c.last_state.terminated.as_deref().is_some_and(oom)
        })
}

pub(crate) fn from_messages(snap: &Snapshot, findings: &mut Vec<Finding>) {
    if snap.pasted_messages.is_empty() {
        return;
    }
    // What the paste's objects show, said with some certainty, is the answer: messages then
    // only add noise (a transient warning, another pod's line). They speak when nothing else
    // does, or only "it fails" does.
    // One exception: when no node is Ready, a message that says why the nodes are not (the
    // runtime refusing its CNI configuration, PLEG) is the root of what the pods show, and
    // comes before it.
    // A probe the kubelet could not even connect for a reason of the pod network (EINVAL: a
    // blackhole route, the pod's own route gone from its node): the application is not at
    // fault, so a probe's finding read from the pod's events settles nothing.
    let probe_cause = |c: Cause| {
        matches!(
            c,
            Cause::LivenessProbeFailing | Cause::ReadinessProbeFailing
        )
    };
    let network_probe = |m: &kubewhy_model::PastedMessage| {
        probe_cause(m.cause)
            && kubewhy_model::messages::known::find(&m.quote)
                .is_some_and(|(e, _)| e.cause == Cause::PodNetworkBroken)
    };
    let probe_unreachable = snap.pasted_messages.iter().any(network_probe);
    let settled = findings.iter().any(|f| {
        f.confidence >= Confidence::Medium
            && !generic(f.cause)
            && !(probe_unreachable && probe_cause(f.cause))
    });
    let no_node = findings.iter().position(|f| f.cause == Cause::NoReadyNodes);
    let why_nodes = |c: Cause| matches!(c, Cause::NodeNotReady | Cause::PlegUnhealthy);
    if settled && no_node.is_none() {
        return;
    }
    let mut added: Vec<Finding> = Vec::new();
    let mut causes: Vec<Cause> = Vec::new();
    // A probe's failure that does not say which probe it is (an application's own `Failed
    // probe` line), in a paste whose pods keep restarting, is the probe that restarts them:
    // liveness (or startup), never readiness, which restarts nothing.
    let restarting = || {
        snap.pods.iter().any(|p| {
            p.status
                .container_statuses
                .iter()
                .chain(&p.status.init_container_statuses)
                .any(|c| {
                    c.restart_count > 0
                        || c.state
                            .waiting
                            .as_ref()
                            .is_some_and(|w| w.reason == "CrashLoopBackOff")
                })
        })
    };
    let unsaid_probe = |m: &kubewhy_model::PastedMessage| {
        m.cause == Cause::ReadinessProbeFailing
            && !m.quote.to_ascii_lowercase().contains("readiness")
    };
    let restarts = snap.pasted_messages.iter().any(unsaid_probe) && restarting();
    // Each message's cause, once: `message_causes[i]` is `snap.pasted_messages[i]`'s.
    let message_causes: Vec<Cause> = snap
        .pasted_messages
        .iter()
        .map(|m| {
            if network_probe(m) {
                Cause::PodNetworkBroken
            } else if restarts && unsaid_probe(m) {
                Cause::LivenessProbeFailing
            } else {
                m.cause
            }
        })
        .collect();
    // A line read by what it names (`volume`, `device … busy`) beside a crash loop the checks
    // already judged is that container's output (its last words), not a second cause.
    let by_words_only = |c: Cause| {
        snap.pasted_messages
            .iter()
            .zip(&message_causes)
            .filter(|(_, mc)| **mc == c)
            .all(|(m, _)| m.speaker.starts_with(kubewhy_model::messages::VOCABULARY))
    };
    let crash_judged = findings.iter().any(|f| f.cause == Cause::AppExitError);
    for &c in &message_causes {
        let its_output = crash_judged && by_words_only(c);
        if !causes.contains(&c) && !its_output {
            causes.push(c);
        }
    }
    // A namespace's content remains because of its finalizers when its conditions say both
    // (NamespaceContentRemaining, then NamespaceFinalizersRemaining): the finalizers come first.
    put_before(
        &mut causes,
        Cause::NsFinalizerPending,
        Cause::NsResourcesRemaining,
    );
    // Both probes failing (an application too busy to answer either): the liveness probe's
    // failure is what restarts the container; the readiness probe's only keeps it out of its
    // Service meanwhile.
    put_before(
        &mut causes,
        Cause::LivenessProbeFailing,
        Cause::ReadinessProbeFailing,
    );
    // A message that names a precise cause comes before one that only says "it fails".
    causes.sort_by_key(|c| generic(*c));
    // A dependency that does not answer is the symptom when the paste also shows why nothing
    // answers: the pod network is broken, or the aggregated API is down.
    if let Some(symptom) = causes
        .iter()
        .position(|c| *c == Cause::DependencyUnreachable)
        && let Some(last) = causes
            .iter()
            .rposition(|c| matches!(c, Cause::PodNetworkBroken | Cause::ApiserviceUnavailable))
        && last > symptom
    {
        let c = causes.remove(symptom);
        causes.insert(last, c);
    }
    // The namespace controller cannot delete the namespace's content because an API answers
    // wrongly or not at all (`content is not a list`, discovery failing): the API is why the
    // content remains.
    put_before(
        &mut causes,
        Cause::ApiserviceUnavailable,
        Cause::NsResourcesRemaining,
    );
    // The taint manager deleting pods (`NoExecuteTaintManager is deleting Pod: NS/NAME`) of a
    // node that went NotReady: the pods are gone by that eviction, which the node's state only
    // set off (the node's own finding follows).
    put_before(&mut causes, Cause::EvictedTaint, Cause::NodeNotReady);
    put_before(&mut causes, Cause::EvictedTaint, Cause::NodeUnreachable);
    // Whether a drain's refused pods were all evicted in the end (below).
    let mut drain_went_through = false;
    // kubectl drain's session: the pods it evicted (`pod/NAME evicted`) and its refusals, each
    // naming its pod (`error when evicting pods/"NAME" … (will retry after 5s)`: a
    // PodDisruptionBudget, an admission webhook). A refused pod that was evicted in the end is
    // gone by that eviction (the refusals only delayed it); a refused pod never evicted is why
    // the drain hangs, whatever other pods it evicted beside it.
    if let Some(evicted) = causes.iter().position(|c| *c == Cause::EvictedApi) {
        let gone: Vec<&str> = snap
            .pasted_messages
            .iter()
            .zip(&message_causes)
            .filter(|(_, mc)| **mc == Cause::EvictedApi)
            .filter_map(|(m, _)| {
                let q = m.quote.trim().trim_matches(['"', '\'', '`']);
                q.strip_prefix("pod/")?.strip_suffix(" evicted")
            })
            .collect();
        // Each refusal's cause present, with whether every pod it refused was evicted in the
        // end (causes whose messages are not kubectl drain's refusals are left out).
        let verdicts: Vec<(usize, bool)> = causes
            .iter()
            .enumerate()
            .filter(|(_, c)| drain_refusal(**c))
            .filter_map(|(i, c)| {
                let pods: Option<Vec<&str>> = snap
                    .pasted_messages
                    .iter()
                    .zip(&message_causes)
                    .filter(|(_, mc)| *mc == c)
                    .map(|(m, _)| {
                        m.quote
                            .split_once("error when evicting pods/\"")
                            .and_then(|(_, rest)| rest.split_once('"'))
                            .map(|(pod, _)| pod)
                    })
                    .collect();
                let pods = pods.filter(|p| !p.is_empty())?;
                Some((i, pods.iter().all(|pod| gone.contains(pod))))
            })
            .collect();
        let overcome = verdicts.iter().find(|(_, ok)| *ok).map(|(i, _)| *i);
        let stuck = verdicts.iter().find(|(_, ok)| !*ok).map(|(i, _)| *i);
        drain_went_through = overcome.is_some() && stuck.is_none();
        if let Some(first) = overcome
            && first < evicted
        {
            causes.remove(evicted);
            causes.insert(first, Cause::EvictedApi);
        } else if let Some(stuck) = stuck
            && stuck > evicted
        {
            let c = causes.remove(stuck);
            causes.insert(evicted, c);
        }
    }
    mounted_since(snap, &message_causes, &mut causes);
    for cause in causes {
        if findings.iter().any(|f| f.cause == cause) || (settled && !why_nodes(cause)) {
            continue;
        }
        // An OOM kill the node or the kernel reports (`System OOM encountered, victim process:
        // tail`) explains a pasted pod only if its containers say so: pods whose states the
        // paste shows, none killed for memory, were not that victim.
        if cause == Cause::OomKilled && pods_show_no_oom(snap) {
            continue;
        }
        let msgs: Vec<&kubewhy_model::PastedMessage> = snap
            .pasted_messages
            .iter()
            .zip(&message_causes)
            .filter(|(_, c)| **c == cause)
            .map(|(m, _)| m)
            .collect();
        // An exit code quoted alone is a state field: where the paste shows its pods'
        // containers (a describe, a pod's YAML), the checks have read it with its reason.
        let exit_code =
            kubewhy_model::messages::Speaker::Component(kubewhy_model::messages::known::EXIT_CODES)
                .describe();
        if msgs.iter().all(|m| m.speaker == exit_code) && pods_show_states(snap) {
            continue;
        }
        let object = msgs
            .iter()
            .find_map(|m| m.object.clone())
            .map(|o| known_as(snap, o))
            .or_else(|| only_object(snap, cause))
            .or_else(|| journal_node(snap, cause, &msgs))
            .unwrap_or_else(|| placeholder(cause));
        let best = msgs
            .iter()
            .map(|m| m.confidence)
            .max()
            .unwrap_or(Confidence::Low);
        let confidence = match best {
            Confidence::High => Confidence::Medium,
            _ => Confidence::Low,
        };
        let (severity, summary) = match cause {
            // Not a failure: a pod still stopping (a sidecar draining its connections).
            Cause::GracePeriodPending => (
                Severity::Info,
                "The paste shows a pod still stopping inside its grace period (a preStop hook, a sidecar draining its connections): not stuck yet".to_string(),
            ),
            // Not a failure either: kubectl's own word that it deleted the pod.
            Cause::DeletedByClient => (
                Severity::Info,
                "The paste shows a client deleted the pod (kubectl delete's confirmation)"
                    .to_string(),
            ),
            _ => (
                Severity::Error,
                format!("The paste shows {}", lower_first(cause.meaning())),
            ),
        };
        let mut f = Finding::new(cause, severity, summary)
            .object(object.clone())
            .confidence(confidence);
        for m in msgs.iter().take(3) {
            f = f.evidence(
                EvidenceKind::Log,
                m.object.as_ref(),
                format!("pasted text {} ({})", m.at, m.speaker),
                m.quote.clone(),
            );
        }
        let named = !object.name.starts_with('(');
        let settle = if named {
            "The paste does not show the object's whole state, so the steps start with the command that does."
        } else {
            "The paste does not say which object it is about; the first step shows the candidates."
        };
        let n = msgs.iter().map(|m| m.same).max().unwrap_or(1);
        let unknown_words = msgs
            .iter()
            .all(|m| m.speaker == kubewhy_model::messages::ERROR_LINE);
        let by_words = msgs
            .iter()
            .all(|m| m.speaker.starts_with(kubewhy_model::messages::VOCABULARY));
        f = if by_words {
            let words = msgs
                .first()
                .and_then(|m| m.speaker.split_once(", about "))
                .map_or("", |(_, w)| w);
            f.explain(format!(
                "The paste says something failed in words kubewhy's catalogue does not know, and holds no other failure; the line names {words}, so it most likely means {}. Low confidence: the line is the evidence, read by what it names, not by a known wording. {}",
                lower_first(cause.meaning()),
                settle
            ))
        } else if unknown_words {
            f.explain(format!(
                "The paste holds an application's error-level line in words kubewhy's catalogue does not know, and no other failure: most often the program stopped on what it says (its configuration, a permission, a dependency, a missing CRD). Low confidence: the line is the evidence. {}",
                settle
            ))
        } else {
            f.explain(format!(
            "{n} known failure message{} in the paste mean{} {}: kubewhy's message catalogue ties this wording to `{}`. {}",
            if n == 1 { "" } else { "s" },
            if n == 1 { "s" } else { "" },
            lower_first(cause.meaning()),
            cause.slug(),
            settle
        ))
        };
        f = f.step(
            "Show kubewhy the object the message is about",
            Some(settle_for(&object)),
            RiskLevel::None,
            "",
        );
        for s in crate::catalogue::steps(cause) {
            f.remediation.push(s);
        }
        added.push(f);
    }
    // Before the first finding that only says "it fails", at low confidence; why the nodes
    // are down before the pods' "no node is Ready".
    let mut at = match no_node {
        Some(i) if settled => i,
        _ => findings
            .iter()
            .position(|f| f.confidence == Confidence::Low && generic(f.cause))
            .unwrap_or(findings.len()),
    };
    // The pod network's finding comes before the probe's that it explains.
    if probe_unreachable
        && added.iter().any(|f| f.cause == Cause::PodNetworkBroken)
        && let Some(p) = findings.iter().position(|f| probe_cause(f.cause))
    {
        at = at.min(p);
    }
    // A container the runtime says it could not start (its OCI runtime's words, not a state
    // inferred from the application's line) ran no program: an application's lines in the same
    // paste (a shell's or strace's denial while someone debugged the image) come after it.
    let runtime_said = |f: &Finding| {
        f.cause == Cause::ContainerStartFailed
            && f.evidence.iter().any(|e| {
                [
                    "OCI runtime",
                    "runc create failed",
                    "failed to create containerd task",
                    "failed to create shim task",
                ]
                .iter()
                .any(|w| e.quote.contains(w))
            })
    };
    if added.iter().all(|f| f.cause == Cause::AppExitError)
        && let Some(p) = findings.iter().position(runtime_said)
        && p >= at
    {
        at = p + 1;
    }
    // kubectl's confirmation that it deleted a pod says why the pod goes away; a pod merely
    // inside its grace period (the checks' finding) is not stuck by anything else.
    if added.iter().any(|f| f.cause == Cause::DeletedByClient)
        && let Some(p) = findings
            .iter()
            .position(|f| f.cause == Cause::GracePeriodPending)
    {
        at = at.min(p);
    }
    // The more confident first; among equals, a specific cause before one that only says "it
    // fails" (an OOM kill the paste quotes before the exit code a describe shows).
    added.sort_by_key(|f| (std::cmp::Reverse(f.confidence), generic(f.cause)));
    findings.splice(at..at, added);
    // The refusals a drain overcame may have been read by the checks too (the pod the paste
    // names, its refusal events): the eviction still comes before them.
    if drain_went_through
        && let Some(e) = findings.iter().position(|f| f.cause == Cause::EvictedApi)
        && let Some(r) = findings.iter().position(|f| drain_refusal(f.cause))
        && r < e
    {
        let f = findings.remove(e);
        findings.insert(r, f);
    }
}

/// The node a node's message was logged on, by the host of its journal or syslog line (`Nov 24
/// 23:43:08 master.lab crio[26766]: …`), when the paste shows a node of that name.
fn journal_node(
    snap: &Snapshot,
    cause: Cause,
    msgs: &[&kubewhy_model::PastedMessage],
) -> Option<ObjectKey> {
    static JOURNAL: std::sync::LazyLock<regex::Regex> = std::sync::LazyLock::new(|| {
        regex::Regex::new(r"^[A-Z][a-z]{2} [ \d]\d \d\d:\d\d:\d\d (\S+) [\w.-]+\[\d+\]: ")
            .expect("journal prefix")
    });
    if cause.family() != kubewhy_model::Family::Node {
        return None;
    }
    msgs.iter().find_map(|m| {
        let host = JOURNAL.captures(&m.quote)?.get(1)?.as_str();
        snap.node(host).map(|n| ObjectKey {
            kind: "Node".into(),
            name: n.metadata.name.clone(),
            ..Default::default()
        })
    })
}

/// A pod a message names without its namespace (`pod "NAME" deleted`) is the snapshot's one
/// pod of that name, when there is exactly one.
fn known_as(snap: &Snapshot, o: ObjectKey) -> ObjectKey {
    if o.kind != "Pod" || o.namespace != Pasted::UNKNOWN || o.name.starts_with('(') {
        return o;
    }
    let mut same = snap.pods.iter().filter(|p| p.metadata.name == o.name);
    match (same.next(), same.next()) {
        (Some(p), None) => ObjectKey {
            namespace: p.metadata.ns().into(),
            ..o
        },
        _ => o,
    }
}

/// The one object of the cause's kind the snapshot holds, if there is exactly one; for a pod's
/// cause, else the one pod that needs explaining (a `get` table's only failing row).
fn only_object(snap: &Snapshot, cause: Cause) -> Option<ObjectKey> {
    use kubewhy_model::Family;
    match cause.family() {
        Family::Node => match snap.nodes.as_slice() {
            [n] => Some(ObjectKey {
                kind: "Node".into(),
                name: n.metadata.name.clone(),
                ..Default::default()
            }),
            _ => None,
        },
        Family::NamespaceTerminating => match snap.namespaces.as_slice() {
            [n] => Some(ObjectKey {
                kind: "Namespace".into(),
                name: n.metadata.name.clone(),
                ..Default::default()
            }),
            _ => None,
        },
        _ => {
            let now = snap.judged_at();
            let mut failing = snap
                .pods
                .iter()
                .filter(|p| crate::podinfo::PodInfo::new(p).unhealthy(now));
            let one = match snap.pods.as_slice() {
                [p] => Some(p),
                _ => failing.next().filter(|_| failing.next().is_none()),
            };
            one.map(|p| ObjectKey {
                kind: "Pod".into(),
                namespace: p.metadata.ns().into(),
                name: p.metadata.name.clone(),
                ..Default::default()
            })
        }
    }
}

fn placeholder(cause: Cause) -> ObjectKey {
    use kubewhy_model::Family;
    let (kind, ns) = match cause.family() {
        Family::Node => ("Node", ""),
        Family::NamespaceTerminating => ("Namespace", ""),
        _ => ("Pod", Pasted::UNKNOWN),
    };
    ObjectKey {
        kind: kind.into(),
        namespace: ns.into(),
        name: Pasted::UNKNOWN.into(),
        ..Default::default()
    }
}

fn settle_for(o: &ObjectKey) -> String {
    let unknown = |s: &str| s.is_empty() || s.starts_with('(');
    match o.kind.as_str() {
        "Node" if unknown(&o.name) => "kubectl get nodes; kubectl describe node NODE".into(),
        "Node" => format!("kubectl describe node {}", o.name),
        "Namespace" if unknown(&o.name) => {
            "kubectl get namespaces --field-selector status.phase=Terminating".into()
        }
        "Namespace" => format!("kubectl get namespace {} -o yaml", o.name),
        _ if unknown(&o.name) && !o.uid.is_empty() => format!(
            "kubectl get pods -A -o custom-columns=NAMESPACE:.metadata.namespace,NAME:.metadata.name,UID:.metadata.uid | grep {}",
            o.uid
        ),
        _ if unknown(&o.name) && unknown(&o.namespace) => {
            "kubectl get pods -A | grep -v -E 'Running|Completed'".into()
        }
        _ if unknown(&o.namespace) => {
            format!(
                "kubectl get pods -A --field-selector metadata.name={}",
                o.name
            )
        }
        _ if unknown(&o.name) => format!(
            "kubectl get pods -n {} | grep -v -E 'Running|Completed'",
            o.namespace
        ),
        _ => format!("kubectl describe pod {} -n {}", o.name, o.namespace),
    }
}

/// `s` with its first letter in lower case, unless it begins an acronym (`DNS failure`).
fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) if !s.chars().nth(1).is_some_and(char::is_uppercase) => {
            f.to_lowercase().chain(c).collect()
        }
        _ => s.to_string(),
    }
}
