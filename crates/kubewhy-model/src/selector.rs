//! Label selectors as kubectl's `-l` takes them: `a=b`, `a==b`, `a!=b`, `a in (x,y)`,
//! `a notin (x)`, `a`, `!a`, joined by commas.

use crate::objects::Labels;

#[derive(Debug, Clone, PartialEq, Eq)]
enum Req {
    Eq(String, String),
    Ne(String, String),
    In(String, Vec<String>),
    NotIn(String, Vec<String>),
    Exists(String),
    NotExists(String),
}

#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Selector(Vec<Req>);

impl Selector {
    pub fn parse(s: &str) -> Result<Selector, String> {
        let mut reqs = Vec::new();
        // Split on commas outside parentheses.
        let mut parts = Vec::new();
        let (mut depth, mut start) = (0i32, 0usize);
        for (i, ch) in s.char_indices() {
            match ch {
                '(' => depth += 1,
                ')' => depth -= 1,
                ',' if depth == 0 => {
                    parts.push(&s[start..i]);
                    start = i + 1;
                }
                _ => {}
            }
        }
        parts.push(&s[start..]);
        for p in parts.into_iter().map(str::trim).filter(|p| !p.is_empty()) {
            let set = |rest: &str| -> Result<Vec<String>, String> {
                let r = rest.trim();
                let inner = r
                    .strip_prefix('(')
                    .and_then(|r| r.strip_suffix(')'))
                    .ok_or_else(|| format!("expected (values) in {p:?}"))?;
                Ok(inner
                    .split(',')
                    .map(|v| v.trim().to_string())
                    .filter(|v| !v.is_empty())
                    .collect())
            };
            let req = if let Some(k) = p.strip_prefix('!') {
                Req::NotExists(k.trim().to_string())
            } else if let Some((k, v)) = p.split_once("!=") {
                Req::Ne(k.trim().into(), v.trim().into())
            } else if let Some((k, v)) = p.split_once("==").or_else(|| p.split_once('=')) {
                Req::Eq(k.trim().into(), v.trim().into())
            } else if let Some((k, rest)) = p.split_once(" notin ") {
                Req::NotIn(k.trim().into(), set(rest)?)
            } else if let Some((k, rest)) = p.split_once(" in ") {
                Req::In(k.trim().into(), set(rest)?)
            } else if p.chars().all(|c| c.is_alphanumeric() || "-_./".contains(c)) {
                Req::Exists(p.to_string())
            } else {
                return Err(format!("cannot parse selector requirement {p:?}"));
            };
            reqs.push(req);
        }
        Ok(Selector(reqs))
    }

    pub fn matches(&self, labels: &Labels) -> bool {
        self.0.iter().all(|r| match r {
            Req::Eq(k, v) => labels.get(k) == Some(v),
            Req::Ne(k, v) => labels.get(k) != Some(v),
            Req::In(k, vs) => labels.get(k).is_some_and(|x| vs.contains(x)),
            Req::NotIn(k, vs) => labels.get(k).is_none_or(|x| !vs.contains(x)),
            Req::Exists(k) => labels.contains_key(k),
            Req::NotExists(k) => !labels.contains_key(k),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kubectl_forms() {
        let l: Labels = [
            ("app".to_string(), "web".to_string()),
            ("tier".to_string(), "fe".to_string()),
        ]
        .into();
        for (s, want) in [
            ("app=web", true),
            ("app==web,tier=fe", true),
            ("app!=web", false),
            ("app in (web, api)", true),
            ("tier notin (fe)", false),
            ("app", true),
            ("!app", false),
            ("!missing,app=web", true),
        ] {
            assert_eq!(Selector::parse(s).unwrap().matches(&l), want, "{s}");
        }
        assert!(Selector::parse("app in web").is_err());
        assert!(Selector::parse("a b c").is_err());
    }
}
