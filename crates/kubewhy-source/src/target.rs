//! What was asked about, found in what was loaded: one pod's namespace, a namespace's presence,
//! and what the data lacks to judge (said beside the answer, with the command that fetches it).

use crate::Loaded;

impl Loaded {
    /// The namespace of pod `name` among `scope` (every namespace when empty): an error when it
    /// is in none or in several.
    pub fn find_pod(&self, name: &str, scope: &[String]) -> Result<String, String> {
        let homes: Vec<&str> = self
            .snapshot
            .pods
            .iter()
            .filter(|p| p.metadata.name == *name)
            .map(|p| p.metadata.ns())
            .filter(|ns| scope.is_empty() || scope.iter().any(|n| n == ns))
            .collect();
        match homes.as_slice() {
            [] if scope.is_empty() => Err(format!("pod {name:?} not found")),
            [] => Err(format!(
                "pod {name:?} not found in namespace {}",
                scope.join(", ")
            )),
            [one] => Ok(one.to_string()),
            many => Err(format!(
                "pod {name:?} exists in namespaces {}: choose one with -n",
                many.join(", ")
            )),
        }
    }

    /// An error when the data shows that namespace `name` does not exist, or holds nothing that
    /// could tell (no Namespace objects and nothing in it; a paste may show it by its events).
    pub fn find_namespace(&self, name: &str) -> Result<(), String> {
        let snap = &self.snapshot;
        let has_namespaces = snap.kinds_loaded.contains_key("Namespace");
        if has_namespaces && snap.namespace(name).is_none() {
            return Err(format!("namespace {name:?} not found"));
        }
        if !has_namespaces && snap.objects_in_namespace(name).is_empty() && !self.pasted_text {
            return Err(format!(
                "namespace {name:?} is not in the data: it holds no Namespace objects and nothing in {name:?} (add `kubectl get namespace {name} -o json`)"
            ));
        }
        Ok(())
    }

    /// What the data lacks to see a problem, for the kinds a check needs: each note says what
    /// could not be judged and the command that would fetch it. `namespace`: the one asked about.
    pub fn cannot_judge(&self, namespace: Option<&str>) -> Vec<String> {
        let snap = &self.snapshot;
        let mut notes = Vec::new();
        if snap.object_count() == 0 {
            return notes;
        }
        if !snap.kinds_loaded.contains_key("Namespace") {
            let (what, get) = match namespace {
                Some(n) => (
                    format!("whether namespace {n} is being deleted"),
                    format!("kubectl get namespace {n} -o json"),
                ),
                None => (
                    "namespaces stuck Terminating".to_string(),
                    "kubectl get namespaces -o json".to_string(),
                ),
            };
            notes.push(format!(
                "the data holds no Namespace objects (a `kubectl cluster-info dump` has none), so {what} cannot be judged; add `{get}` to the input"
            ));
        }
        let pending = snap
            .pods
            .iter()
            .any(|p| p.status.phase == "Pending" && p.spec.node_name.is_none());
        if pending && !snap.nodes_known() {
            notes.push(
                "the data holds no Node objects, so why a Pending pod fits no node is judged from the scheduler's own messages only; add `kubectl get nodes -o json` to the input"
                    .to_string(),
            );
        }
        notes
    }
}
