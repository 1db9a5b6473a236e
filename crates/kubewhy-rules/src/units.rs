//! Resource quantities whose unit is wrong, flagged from the spec before they bite: a memory
//! request or limit under 1 MiB is never meant (`memory: 4` is 4 bytes, `1024m` is 1.024 bytes;
//! seed 002), and no container starts with it.

use crate::Findings;
use crate::podinfo::PodInfo;
use crate::{Check, Ctx};
use kubewhy_model::quantity;
use kubewhy_model::{Cause, EvidenceKind, Finding, RiskLevel, Severity};

pub(crate) struct ResourceUnits;

const CAUSES: &[Cause] = &[Cause::ResourceUnitsWrong];

/// Below this many bytes a memory quantity is a unit mistake.
const MIN_MEMORY_BYTES: f64 = 1024.0 * 1024.0;

/// The bytes of a memory quantity, when they are a unit mistake (under 1 MiB, above zero).
fn absurd_memory(q: &str) -> Option<f64> {
    quantity::parse(q).filter(|b| *b > 0.0 && *b < MIN_MEMORY_BYTES)
}

/// Whether any container of the pod has a memory quantity that is a unit mistake.
pub(crate) fn pod_has_absurd_memory(pod: &kubewhy_model::objects::Pod) -> bool {
    pod.spec
        .containers
        .iter()
        .chain(&pod.spec.init_containers)
        .flat_map(|c| {
            [
                c.resources.requests.get("memory"),
                c.resources.limits.get("memory"),
            ]
        })
        .flatten()
        .any(|q| absurd_memory(&q.0).is_some())
}

/// What the user probably meant: `1024m` → `1024Mi`, `4` → `4Mi` or `4Gi`.
fn suggestion(q: &str) -> String {
    match q.strip_suffix('m') {
        Some(n) => format!("{n}Mi"),
        None => format!("{q}Mi or {q}Gi"),
    }
}

impl Check for ResourceUnits {
    fn name(&self) -> &'static str {
        "units"
    }
    fn causes(&self) -> &'static [Cause] {
        CAUSES
    }
    fn run(&self, ctx: &Ctx, out: &mut Findings) {
        for pod in &ctx.snap.pods {
            if matches!(pod.status.phase.as_str(), "Succeeded" | "Failed") {
                continue;
            }
            let spec = &pod.spec;
            let containers = spec
                .init_containers
                .iter()
                .map(|c| (c, "initContainers"))
                .chain(spec.containers.iter().map(|c| (c, "containers")));
            for (c, list) in containers {
                // Every memory quantity of this container that is under 1 MiB.
                let bad: Vec<(&str, &str, f64)> = [
                    ("requests", &c.resources.requests),
                    ("limits", &c.resources.limits),
                ]
                .into_iter()
                .filter_map(|(which, map)| {
                    let q = map.get("memory")?;
                    Some((which, q.0.as_str(), absurd_memory(&q.0)?))
                })
                .collect();
                let Some(&(_, first_q, first_bytes)) = bad.first() else {
                    continue;
                };
                let info = PodInfo::new(pod);
                let wl = info.workload_ref(ctx.snap);
                let mut f = Finding::new(
                    Cause::ResourceUnitsWrong,
                    Severity::Error,
                    format!("Container \"{}\" asks for memory \"{first_q}\" = {first_bytes} bytes: a unit is missing or wrong", c.name),
                )
                .object(info.key.clone())
                .group(format!("{}|{}|{first_q}", info.owner_key(ctx.snap), c.name));
                let mut set_args = String::new();
                for (which, q, bytes) in &bad {
                    f = f.evidence(
                        EvidenceKind::Field,
                        Some(&info.key),
                        format!("spec.{list}[{}].resources.{which}.memory", c.name),
                        format!("{q} (= {bytes} bytes)"),
                    );
                    let fixed = suggestion(q);
                    set_args.push_str(&format!(
                        " --{which}=memory={}",
                        fixed.split(' ').next().unwrap_or("")
                    ));
                }
                // The symptom, when it already showed: the sandbox (or the container) could
                // not be given so little memory.
                let events = ctx.snap.events_for("Pod", &pod.metadata);
                if let Some(e) = events.iter().rev().find(|e| {
                    e.reason == "FailedCreatePodSandBox"
                        && crate::sandbox::classify(&e.message)
                            == crate::sandbox::Part::MemoryTooSmall
                }) {
                    f = f.event(Some(&info.key), e);
                }
                f = f
                    .explain(format!("Kubernetes reads memory quantities in bytes: \"{first_q}\" is {first_bytes} bytes, not megabytes. With a limit that small the runtime cannot even start the container (runc refuses limits under about 6 MB, or the process is OOM-killed at once), and a request that small misleads the scheduler. Lower-case \"m\" means milli (one thousandth), not mega."))
                    .step(
                        format!("Write the quantity with its unit, probably {}", suggestion(first_q)),
                        Some(info.spec_change(ctx.snap, &format!("set resources {{wl}} -c {}{set_args}", c.name))),
                        RiskLevel::Low,
                        format!("Rolls {wl}; check the value against what the container really uses."),
                    );
                out.push(f);
            }
        }
    }
}
