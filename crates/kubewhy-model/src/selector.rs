//! Label selectors as kubectl's `-l` takes them: `a=b`, `a==b`, `a!=b`, `a in (x,y)`,
//! `a notin (x)`, `a`, `!a`, joined by commas; and the selectors objects carry, with the
//! semantics the API server and scheduler give them: label selectors, node selector terms,
//! tolerations against taints.

use crate::objects::{
    LabelSelector, Labels, NodeSelector, NodeSelectorTerm, SelectorRequirement, Taint, Toleration,
};

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
            Req::Eq(k, v) => labels.get(k.as_str()).is_some_and(|x| x == v),
            Req::Ne(k, v) => labels.get(k.as_str()).is_none_or(|x| x != v),
            Req::In(k, vs) => labels
                .get(k.as_str())
                .is_some_and(|x| vs.iter().any(|v| x == v)),
            Req::NotIn(k, vs) => labels
                .get(k.as_str())
                .is_none_or(|x| !vs.iter().any(|v| x == v)),
            Req::Exists(k) => labels.contains_key(k.as_str()),
            Req::NotExists(k) => !labels.contains_key(k.as_str()),
        })
    }
}

impl LabelSelector {
    /// `matchLabels` and every `matchExpressions` entry (In, NotIn, Exists, DoesNotExist); an
    /// empty selector matches everything, an unknown operator nothing.
    pub fn matches(&self, labels: &Labels) -> bool {
        self.match_labels
            .iter()
            .all(|(k, v)| labels.get(k.as_str()) == Some(v))
            && self
                .match_expressions
                .iter()
                .all(|r| requirement_matches(r, labels.get(r.key.as_str()).map(|v| v.as_str())))
    }
}

/// One requirement against the value of its key (`None`: the key is absent). `Gt`/`Lt` compare
/// integers, as node affinity does.
pub fn requirement_matches(r: &SelectorRequirement, value: Option<&str>) -> bool {
    match r.operator.as_str() {
        "In" => value.is_some_and(|v| r.values.iter().any(|x| x == v)),
        "NotIn" => value.is_none_or(|v| !r.values.iter().any(|x| x == v)),
        "Exists" => value.is_some(),
        "DoesNotExist" => value.is_none(),
        "Gt" | "Lt" => {
            let (Some(v), [bound]) = (value.and_then(|v| v.parse::<i64>().ok()), &r.values[..])
            else {
                return false;
            };
            let Ok(bound) = bound.parse::<i64>() else {
                return false;
            };
            if r.operator == "Gt" {
                v > bound
            } else {
                v < bound
            }
        }
        _ => false,
    }
}

impl SelectorRequirement {
    /// `disktype In (ssd)`, `gpu Exists`: how kubectl describe shows it.
    pub fn display(&self) -> String {
        match self.operator.as_str() {
            "Exists" | "DoesNotExist" => format!("{} {}", self.key, self.operator),
            op => format!("{} {op} ({})", self.key, self.values.join(",")),
        }
    }
}

impl NodeSelectorTerm {
    /// All expressions on the node's labels and all fields (only `metadata.name` exists) on its
    /// name. A term with neither matches no node, as in the scheduler.
    pub fn matches(&self, labels: &Labels, node_name: &str) -> bool {
        if self.match_expressions.is_empty() && self.match_fields.is_empty() {
            return false;
        }
        self.match_expressions
            .iter()
            .all(|r| requirement_matches(r, labels.get(r.key.as_str()).map(|v| v.as_str())))
            && self
                .match_fields
                .iter()
                .all(|r| r.key == "metadata.name" && requirement_matches(r, Some(node_name)))
    }

    /// The requirements of this term the node does not meet.
    pub fn unmet(&self, labels: &Labels, node_name: &str) -> Vec<&SelectorRequirement> {
        self.match_expressions
            .iter()
            .filter(|r| !requirement_matches(r, labels.get(r.key.as_str()).map(|v| v.as_str())))
            .chain(
                self.match_fields.iter().filter(|r| {
                    !(r.key == "metadata.name" && requirement_matches(r, Some(node_name)))
                }),
            )
            .collect()
    }
}

impl NodeSelector {
    /// Terms are ORed; no term at all matches no node.
    pub fn matches(&self, labels: &Labels, node_name: &str) -> bool {
        self.node_selector_terms
            .iter()
            .any(|t| t.matches(labels, node_name))
    }
}

impl Toleration {
    /// Whether this toleration tolerates the taint: an empty effect matches every effect; an
    /// empty key with `Exists` matches every taint; `Equal` (the default) compares values.
    pub fn tolerates(&self, taint: &Taint) -> bool {
        let effect_ok = self
            .effect
            .as_deref()
            .is_none_or(|e| e.is_empty() || e == taint.effect);
        if !effect_ok {
            return false;
        }
        let key = self.key.as_deref().unwrap_or("");
        let exists = self.operator.as_deref() == Some("Exists");
        if key.is_empty() {
            return exists;
        }
        if key != taint.key {
            return false;
        }
        exists || self.value.as_deref().unwrap_or("") == taint.value.as_deref().unwrap_or("")
    }
}

impl Taint {
    /// `key=value:Effect`, as `kubectl taint` writes it.
    pub fn display(&self) -> String {
        match self.value.as_deref().filter(|v| !v.is_empty()) {
            Some(v) => format!("{}={v}:{}", self.key, self.effect),
            None => format!("{}:{}", self.key, self.effect),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(key: &str, op: &str, values: &[&str]) -> SelectorRequirement {
        SelectorRequirement {
            key: key.into(),
            operator: op.into(),
            values: values.iter().map(|&v| v.into()).collect(),
        }
    }

    #[test]
    fn node_affinity_operators() {
        let l: Labels = [
            ("zone".to_string(), "a".to_string()),
            ("cores".to_string(), "8".to_string()),
        ]
        .into();
        let m = |r: SelectorRequirement| requirement_matches(&r, l.get(&r.key).map(|v| v.as_str()));
        assert!(m(req("zone", "In", &["a", "b"])));
        assert!(!m(req("zone", "NotIn", &["a"])));
        assert!(m(req("gpu", "NotIn", &["x"])));
        assert!(m(req("zone", "Exists", &[])));
        assert!(m(req("gpu", "DoesNotExist", &[])));
        assert!(m(req("cores", "Gt", &["4"])));
        assert!(!m(req("cores", "Lt", &["4"])));
        assert!(!m(req("zone", "Gt", &["4"])));
        assert!(!m(req("zone", "Bogus", &["a"])));
        let term = NodeSelectorTerm {
            match_expressions: vec![],
            match_fields: vec![req("metadata.name", "In", &["node-1"])],
        };
        assert!(term.matches(&l, "node-1"));
        assert!(!term.matches(&l, "node-2"));
        assert!(!NodeSelectorTerm::default().matches(&l, "node-1"));
    }

    #[test]
    fn tolerations() {
        let taint = |k: &str, v: Option<&str>, e: &str| Taint {
            key: k.into(),
            value: v.map(Into::into),
            effect: e.into(),
        };
        let tol =
            |k: Option<&str>, op: Option<&str>, v: Option<&str>, e: Option<&str>| Toleration {
                key: k.map(Into::into),
                operator: op.map(Into::into),
                value: v.map(Into::into),
                effect: e.map(Into::into),
                toleration_seconds: None,
            };
        let gpu = taint("dedicated", Some("gpu"), "NoSchedule");
        assert!(tol(Some("dedicated"), None, Some("gpu"), None).tolerates(&gpu));
        assert!(
            tol(
                Some("dedicated"),
                Some("Equal"),
                Some("gpu"),
                Some("NoSchedule")
            )
            .tolerates(&gpu)
        );
        assert!(!tol(Some("dedicated"), Some("Equal"), Some("cpu"), None).tolerates(&gpu));
        assert!(!tol(Some("dedicated"), Some("Exists"), None, Some("NoExecute")).tolerates(&gpu));
        assert!(tol(Some("dedicated"), Some("Exists"), None, None).tolerates(&gpu));
        assert!(tol(None, Some("Exists"), None, None).tolerates(&gpu));
        assert!(!tol(None, None, None, None).tolerates(&gpu));
        let master = taint("node-role.kubernetes.io/master", None, "NoSchedule");
        assert!(tol(Some("node-role.kubernetes.io/master"), None, None, None).tolerates(&master));
        assert!(
            tol(Some("node-role.kubernetes.io/master"), None, Some(""), None).tolerates(&master)
        );
        assert_eq!(gpu.display(), "dedicated=gpu:NoSchedule");
        assert_eq!(
            master.display(),
            "node-role.kubernetes.io/master:NoSchedule"
        );
    }

    #[test]
    fn label_selectors() {
        let l: Labels = [("app".to_string(), "db".to_string())].into();
        assert!(LabelSelector::default().matches(&l));
        let s = LabelSelector {
            match_labels: [("app".to_string(), "db".to_string())].into(),
            match_expressions: vec![req("tier", "DoesNotExist", &[])],
        };
        assert!(s.matches(&l));
        let s = LabelSelector {
            match_labels: Labels::new(),
            match_expressions: vec![req("app", "In", &["web"])],
        };
        assert!(!s.matches(&l));
    }

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
