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
