//! `kubewhy fix`: the plan (before anything changes), the journal of an apply, the result of
//! an undo. Text and JSON; every string from the cluster passes through `sanitize`.

use crate::sanitize;
use crate::text::paint;
use anstyle::{AnsiColor, Style};
use kubewhy_model::RiskLevel;
use kubewhy_model::plan::{Journal, Outcome, Plan, Target, Undone};
use std::fmt::Write;

fn risk_style(r: RiskLevel) -> Style {
    let c = match r {
        RiskLevel::None => AnsiColor::Green,
        RiskLevel::Low => AnsiColor::Cyan,
        RiskLevel::Medium => AnsiColor::Yellow,
        RiskLevel::High => AnsiColor::Red,
    };
    Style::new().fg_color(Some(c.into())).bold()
}

/// The plan as text. `applying` says whether the steps are about to run (`--apply`).
pub fn plan_text(p: &Plan, applying: bool) -> String {
    let bold = Style::new().bold();
    let dim = Style::new().dimmed();
    let mut out = String::new();
    let _ = writeln!(
        out,
        "{} repair plan for {} — state as of {}",
        paint(bold, "kubewhy fix:"),
        sanitize(&p.subject),
        p.made_at
    );
    if !p.diagnosis.is_empty() {
        let _ = writeln!(out, "\nDiagnosis:");
        for d in &p.diagnosis {
            let _ = writeln!(out, "  • {}", sanitize(d));
        }
    }
    if !p.leftovers.is_empty() {
        let _ = writeln!(out, "\nStill in the namespace ({}):", p.leftovers.len());
        for l in &p.leftovers {
            let _ = writeln!(out, "  • {}", sanitize(l));
        }
    }
    if p.steps.is_empty() {
        let _ = writeln!(out, "\nNo change to make.");
    } else {
        let _ = writeln!(out, "\nSteps, in order:");
        for (i, s) in p.steps.iter().enumerate() {
            let _ = writeln!(
                out,
                "  {}. {} {}   [risk: {}] [{}]",
                i + 1,
                paint(bold, &s.action.verb()),
                sanitize(&s.object.display()),
                paint(risk_style(s.risk), s.risk.as_str()),
                s.cause.slug()
            );
            let _ = writeln!(out, "     why: {}", sanitize(&s.why));
            if !s.risk_note.is_empty() {
                let _ = writeln!(out, "     risk: {}", sanitize(&s.risk_note));
            }
            let _ = writeln!(
                out,
                "     {}",
                paint(
                    dim,
                    &format!(
                        "precondition: resourceVersion {}; by hand: {}",
                        sanitize(&s.object.resource_version),
                        sanitize(&s.command)
                    )
                )
            );
        }
    }
    if !p.refused.is_empty() {
        let _ = writeln!(out, "\nNot done:");
        for r in &p.refused {
            let _ = writeln!(
                out,
                "  ✗ {} {}{}",
                sanitize(&r.step),
                sanitize(&r.object),
                r.cause
                    .map(|c| format!("   [{}]", c.slug()))
                    .unwrap_or_default()
            );
            let _ = writeln!(out, "     why: {}", sanitize(&r.why));
            for i in &r.instead {
                let _ = writeln!(out, "     instead: {}", sanitize(i));
            }
        }
    }
    if !p.notes.is_empty() {
        let _ = writeln!(out, "\nNotes:");
        for n in &p.notes {
            let _ = writeln!(out, "  • {}", sanitize(n));
        }
    }
    if !p.steps.is_empty() && !applying {
        let _ = writeln!(
            out,
            "\n{}",
            paint(
                bold,
                "Nothing was changed. Run again with --apply to carry out these steps (server-side dry run first, every object backed up, each write guarded by its resourceVersion)."
            )
        );
    }
    out
}

/// The journal of an apply as text.
pub fn journal_text(j: &Journal, backup: &str) -> String {
    let mut out = String::new();
    let _ = writeln!(out, "\nApplied to {}:", sanitize(&j.server));
    for e in &j.entries {
        let (mark, detail) = match &e.outcome {
            Outcome::Applied => ("✓", String::new()),
            Outcome::AlreadyGone => ("✓", " (already gone)".to_string()),
            Outcome::NotApplied(why) => ("✗", format!(" — not applied: {why}")),
            Outcome::Failed(why) => ("✗", format!(" — failed: {why}")),
        };
        let _ = writeln!(
            out,
            "  {mark} {} {}{}",
            e.step.action.verb(),
            sanitize(&e.step.object.display()),
            sanitize(&detail)
        );
    }
    if j.entries.iter().any(|e| e.backup.is_some()) {
        let _ = writeln!(
            out,
            "Backups and journal: {}  (undo: kubewhy fix --undo {})",
            sanitize(backup),
            sanitize(backup)
        );
    } else {
        let _ = writeln!(out, "Nothing was changed.");
    }
    out
}

/// After an apply and `--wait`: whether the subject went away, and where to look when it did not.
pub fn waited_text(subject: &str, gone: bool, waited_seconds: u64) -> String {
    if gone {
        return format!("{} is gone.\n", sanitize(subject));
    }
    let why = match Target::of_subject(subject) {
        Some(t) if t.kind == "Pod" => format!("pod {} -n {}", t.name, t.namespace),
        Some(t) => format!("ns {}", t.name),
        None => "scan".into(),
    };
    format!(
        "{} is still there after {waited_seconds} s: see `kubewhy {}` for what holds it now.\n",
        sanitize(subject),
        sanitize(&why)
    )
}

/// `kubewhy fix --undo` as text: how many steps had been applied, then each entry undone.
pub fn undo_text(subject: &str, applied: usize, done: &[Undone]) -> String {
    let mut out = format!(
        "kubewhy fix --undo: {applied} step(s) had been applied to {}\n",
        sanitize(subject)
    );
    for u in done {
        let _ = writeln!(
            out,
            "  {} {}: {}",
            if u.restored { "✓" } else { "✗" },
            sanitize(&u.object),
            sanitize(&u.detail)
        );
    }
    out
}

/// `kubewhy fix --undo -o json`.
pub fn undo_json(done: &[Undone]) -> String {
    let v: Vec<serde_json::Value> = done
        .iter()
        .map(
            |u| serde_json::json!({"object": u.object, "restored": u.restored, "detail": u.detail}),
        )
        .collect();
    serde_json::to_string_pretty(&serde_json::json!({"undo": v})).unwrap_or_default() + "\n"
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_model::Cause;
    use kubewhy_model::plan::{Action, PlanStep, Target};

    #[test]
    fn a_plan_says_nothing_changed_and_strips_escapes() {
        let p = Plan {
            subject: "Pod shop/w\u{1b}]0;owned\u{7}".into(),
            steps: vec![PlanStep {
                action: Action::ForceDeletePod,
                object: Target {
                    kind: "Pod".into(),
                    namespace: "shop".into(),
                    name: "w".into(),
                    resource_version: "42".into(),
                    ..Default::default()
                },
                cause: Cause::NodeDeleted,
                why: "node gone".into(),
                risk: RiskLevel::Low,
                risk_note: String::new(),
                command: "kubectl delete -n shop pod w --grace-period=0 --force".into(),
            }],
            ..Default::default()
        };
        let t = plan_text(&p, false);
        assert!(!t.contains('\u{7}') && !t.contains("]0;"), "{t}");
        assert!(t.contains("force-delete (grace period 0)"), "{t}");
        assert!(t.contains("precondition: resourceVersion 42"), "{t}");
        assert!(
            t.contains("Nothing was changed. Run again with --apply"),
            "{t}"
        );
        assert!(!plan_text(&p, true).contains("Nothing was changed"));
    }
}
