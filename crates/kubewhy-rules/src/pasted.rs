//! Findings about objects known only in part, from pasted text (`Snapshot::pasted`): one level
//! less certain, with what the paste lacked and the one command that would settle it. A
//! describe that shows everything the checks read leaves its findings as they are.

use kubewhy_model::{
    Cause, Confidence, Evidence, EvidenceKind, Finding, ObjectKey, Pasted, RiskLevel, Snapshot,
    Step,
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
/// that would show more.
const BY_ELIMINATION: &[Cause] = &[
    Cause::SchedulerUnavailable,
    Cause::ConfigError,
    Cause::KubeletCleanupPending,
];

pub(crate) fn qualify(snap: &Snapshot, findings: &mut Vec<Finding>) {
    if snap.pasted.is_empty() {
        return;
    }
    findings.retain(|f| {
        !(BY_ELIMINATION.contains(&f.cause) && f.objects.iter().all(|o| lacking(snap, o).is_some()))
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
        // Commands cannot name what the paste did not: placeholders instead of "(unknown)".
        for step in &mut f.remediation {
            if let Some(c) = &mut step.command
                && c.contains(Pasted::UNKNOWN)
            {
                *c = c
                    .replace(&format!("-n {}", Pasted::UNKNOWN), "-n NAMESPACE")
                    .replace(Pasted::UNKNOWN, "NAME");
            }
        }
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
                risk: RiskLevel::None,
                risk_note: String::new(),
            },
        );
    }
}

fn display(o: &ObjectKey) -> String {
    if o.namespace.is_empty() {
        o.name.to_string()
    } else {
        format!("{}/{}", o.namespace, o.name)
    }
}
