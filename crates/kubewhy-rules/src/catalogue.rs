//! The cause pages (docs/causes/<slug>.md), embedded at build time. Each page has the sections
//! "What it means", "How kubewhy detects it", "How to fix it safely" and "Example"; the example
//! is a YAML snapshot that must yield exactly that cause (tested).

use kubewhy_model::Cause;

include!(concat!(env!("OUT_DIR"), "/pages.rs"));

/// The page of a cause, as Markdown.
pub fn page(cause: Cause) -> Option<&'static str> {
    PAGES
        .iter()
        .find(|(s, _)| *s == cause.slug())
        .map(|(_, p)| *p)
}

/// Slugs of every embedded page (a page must be named after an existing cause).
pub fn page_slugs() -> impl Iterator<Item = &'static str> {
    PAGES.iter().map(|(s, _)| *s)
}

/// The example input of a page: the first ```yaml block after the "## Example" heading, and the
/// snapshot time given by a `<!-- now: RFC3339 -->` comment, if any.
pub fn example(page: &str) -> Option<(String, Option<String>)> {
    let start = page.find("## Example")?;
    let rest = &page[start..];
    let open = rest.find("```yaml\n")? + "```yaml\n".len();
    let close = rest[open..].find("\n```")?;
    let now = page.find("<!-- now: ").and_then(|i| {
        let s = &page[i + "<!-- now: ".len()..];
        s.find(" -->").map(|e| s[..e].trim().to_string())
    });
    Some((rest[open..open + close + 1].to_string(), now))
}

/// Node evidence that goes with a page's example: the first ```node-log block after the
/// "## Example" heading (read like a `--node-logs` file).
pub fn example_node_log(page: &str) -> Option<String> {
    let start = page.find("## Example")?;
    let rest = &page[start..];
    let open = rest.find("```node-log\n")? + "```node-log\n".len();
    let close = rest[open..].find("\n```")?;
    Some(rest[open..open + close + 1].to_string())
}

/// The containers' logs that go with a page's example: after the "## Example" heading, each
/// `<!-- log: NAMESPACE/POD/CONTAINER -->` comment names the container of the ```log block of the
/// same rank (as a cluster-info dump's `logs.txt` would give it).
pub fn example_container_logs(page: &str) -> Vec<kubewhy_model::objects::ContainerLog> {
    let Some(start) = page.find("## Example") else {
        return Vec::new();
    };
    let rest = &page[start..];
    let whos = rest.split("<!-- log: ").skip(1).filter_map(|w| {
        let who = &w[..w.find(" -->")?];
        let mut parts = who.trim().splitn(3, '/');
        Some((parts.next()?, parts.next()?, parts.next()?))
    });
    let blocks = rest.split("```log\n").skip(1).filter_map(|b| {
        let close = b.find("\n```")?;
        Some(&b[..close])
    });
    whos.zip(blocks)
        .map(
            |((ns, pod, container), body)| kubewhy_model::objects::ContainerLog {
                origin: "the page's example".into(),
                namespace: ns.into(),
                pod: pod.into(),
                container: container.into(),
                previous: false,
                tail: body.lines().map(str::to_string).collect(),
            },
        )
        .collect()
}

/// The numbered steps of a page's "How to fix it safely" section: the action, the commands in
/// backticks, and the risk the step states (`risk: low`; a step that states none is
/// read-only when its command is, else low).
/// A cause page's step with its backticked words (a field, a value: `hostPort`) written
/// plainly, its commands (`kubectl get pods -o wide`, `dmesg`) left in backticks.
fn inline_words(text: &str) -> String {
    const TOOLS: &[&str] = &[
        "dmesg", "lsof", "mount", "df", "ps", "free", "top", "uptime",
    ];
    let mut out = String::with_capacity(text.len());
    for (i, part) in text.split('`').enumerate() {
        let command = part.contains(' ') || TOOLS.contains(&part);
        if i % 2 == 1 && command {
            out.push('`');
            out.push_str(part);
            out.push('`');
        } else {
            out.push_str(part);
        }
    }
    out
}

pub fn steps(cause: Cause) -> Vec<kubewhy_model::Step> {
    use kubewhy_model::RiskLevel;
    let Some(page) = page(cause) else {
        return Vec::new();
    };
    let Some(start) = page.find("## How to fix it safely") else {
        return Vec::new();
    };
    let section = &page[start..];
    let section = &section[..section[3..].find("\n## ").map_or(section.len(), |e| e + 3)];
    let mut out = Vec::new();
    for line in section.lines() {
        let Some((n, text)) = line.split_once(". ") else {
            continue;
        };
        if n.is_empty() || !n.chars().all(|c| c.is_ascii_digit()) {
            continue;
        }
        // A word in backticks (`hostPort`) is a word of the sentence, not a command.
        let text = &inline_words(text);
        // Every command in backticks, in order.
        let commands: Vec<&str> = text
            .split('`')
            .skip(1)
            .step_by(2)
            .filter(|c| !c.is_empty())
            .collect();
        let command = (!commands.is_empty()).then(|| commands.join("; "));
        let lower = text.to_ascii_lowercase();
        let stated = lower.find("risk:").map(|i| lower[i + 5..].trim_start());
        let risk = match stated {
            Some(r) if r.starts_with("none") => RiskLevel::None,
            Some(r) if r.starts_with("low") => RiskLevel::Low,
            Some(r) if r.starts_with("medium") => RiskLevel::Medium,
            Some(r) if r.starts_with("high") => RiskLevel::High,
            _ if command.as_deref().is_some_and(|c| {
                c.starts_with("kubectl get") || c.starts_with("kubectl describe")
            }) =>
            {
                RiskLevel::None
            }
            // Looking changes nothing.
            _ if [
                "Read ", "See ", "Check ", "List ", "Find ", "Compare ", "Confirm ",
            ]
            .iter()
            .any(|v| text.starts_with(v)) =>
            {
                RiskLevel::None
            }
            _ => RiskLevel::Low,
        };
        // The action is the sentence before the risk; what the risk says is its note.
        let (action, note) = match lower.find("(risk:").or(lower.find("risk:")) {
            Some(i) => {
                let note = text[i..]
                    .trim_start_matches(['(', ' '])
                    .trim_end_matches([')', '.'])
                    .split_once(['—', '-', ';', ','])
                    .map_or("", |(_, n)| n.trim());
                (text[..i].trim().trim_end_matches(['.', ' ']), note)
            }
            None => (text.trim().trim_end_matches('.'), ""),
        };
        // The action is what comes before the first command, without commands given in
        // parentheses; a step that is only a command is said by it.
        let mut action = action.to_string();
        while let Some(open) = action.find("(`") {
            match action[open..].find("`)") {
                Some(close) => action.replace_range(open..open + close + 2, ""),
                None => break,
            }
        }
        let action = action.split_whitespace().collect::<Vec<_>>().join(" ");
        let before = action.split('`').next().unwrap_or("");
        let action = before.trim().trim_end_matches([':', ',', ' ']).trim();
        let action = if action.is_empty() {
            "Run".to_string()
        } else {
            action.to_string()
        };
        let mut note = note.to_string();
        if let Some(first) = note.get(..1) {
            note = first.to_uppercase() + &note[1..];
        }
        out.push(kubewhy_model::Step {
            action,
            command,
            snippet: None,
            risk,
            risk_note: note,
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use kubewhy_model::RiskLevel;

    #[test]
    fn steps_come_from_the_page() {
        let s = steps(Cause::PlegUnhealthy);
        assert_eq!(s.len(), 3);
        assert_eq!(s[0].action, "See whether the runtime answers and how fast");
        assert_eq!(
            s[0].command.as_deref(),
            Some("time crictl ps -a | wc -l; journalctl -u containerd")
        );
        assert_eq!(s[0].risk, RiskLevel::None);
        assert_eq!(s[2].risk, RiskLevel::Medium);
        assert!(
            s[2].risk_note.starts_with("Containers keep running"),
            "{:?}",
            s[2]
        );
        let s = steps(Cause::VolumeUnmountStuck);
        assert_eq!(s[1].action, "Find what holds the mount and stop it");
        assert_eq!(
            s[1].command.as_deref(),
            Some("grep POD_UID /proc/*/mountinfo")
        );
        assert_eq!(s[0].risk, RiskLevel::None);
        let s = steps(Cause::AppExitError);
        assert_eq!(s[0].action, "Run");
        assert_eq!(
            s[0].command.as_deref(),
            Some("kubectl logs POD -c C --previous")
        );
        assert_eq!(s[1].risk, RiskLevel::Low);
    }
}
