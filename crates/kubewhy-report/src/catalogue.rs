//! The cause catalogue as `kubewhy causes` and `kubewhy explain` print it.

use kubewhy_model::Cause;

/// Every cause by family, marked `●` when `detected` holds it (what this version's checks can
/// emit), `○` otherwise.
pub fn causes_text(detected: &[Cause]) -> String {
    let mut out = String::new();
    let mut family = None;
    for c in Cause::ALL {
        if family != Some(c.family()) {
            family = Some(c.family());
            out.push_str(&format!("\n{}\n", c.family().title()));
        }
        let mark = if detected.contains(c) { "●" } else { "○" };
        out.push_str(&format!(
            "  {mark} {:<6} {:<32} {}\n",
            c.code(),
            c.slug(),
            c.meaning()
        ));
    }
    out.push_str(
        "\n● detected by this version   ○ in the catalogue, not detected yet\nMore on one: kubewhy explain <slug|code>\n",
    );
    out
}

/// Every cause as a JSON array: slug, code, family, meaning, detected.
pub fn causes_json(detected: &[Cause]) -> String {
    let v: Vec<serde_json::Value> = Cause::ALL
        .iter()
        .map(|c| {
            serde_json::json!({
                "slug": c.slug(), "code": c.code(), "family": c.family(),
                "meaning": c.meaning(), "detected": detected.contains(c),
            })
        })
        .collect();
    let mut s = serde_json::to_string_pretty(&v).unwrap_or_default();
    s.push('\n');
    s
}

/// A cause's page (`page`, from `docs/causes/`), or, for a cause no check detects, what the
/// catalogue says of it.
pub fn cause_page(cause: Cause, page: Option<&str>) -> String {
    match page {
        Some(p) => p.to_string(),
        None => format!(
            "# {} ({})\n\n{}.\n\nFamily: {}.\n\nkubewhy does not detect this cause yet; it is part of the catalogue so that reports and scripts share one vocabulary.\n",
            cause.slug(),
            cause.code(),
            cause.meaning(),
            cause.family().title()
        ),
    }
}

/// The slugs close to `key` (one contains the other, or they are two letters apart, hyphens
/// aside), for "did you mean".
pub fn close_slugs(key: &str) -> Vec<&'static str> {
    let key = key.trim().to_ascii_lowercase();
    // `oomkilled`, `OOM_Killed` and `oom killed` all mean `oom-killed`.
    let bare = |s: &str| -> String { s.chars().filter(|c| c.is_ascii_alphanumeric()).collect() };
    let key_bare = bare(&key);
    if key_bare.is_empty() {
        return Vec::new();
    }
    Cause::ALL
        .iter()
        .map(|c| c.slug())
        .filter(|s| {
            let s_bare = bare(s);
            s.contains(&key)
                || key.contains(s)
                || s_bare.contains(&key_bare)
                || edit_distance(&s_bare, &key_bare) <= 2
        })
        .collect()
}

/// Levenshtein distance of two short ASCII strings.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, x) in a.iter().enumerate() {
        let mut cur = vec![i + 1; b.len() + 1];
        for (j, y) in b.iter().enumerate() {
            cur[j + 1] = (prev[j] + usize::from(x != y))
                .min(prev[j + 1] + 1)
                .min(cur[j] + 1);
        }
        prev = cur;
    }
    prev[b.len()]
}
