//! Ties node evidence (`Snapshot::node`) to the pods and nodes it concerns. Built once per
//! diagnosis (`Ctx::node_view`).
//!
//! A line concerns a pod when it names the pod's UID, one of its container IDs (full, or the
//! 12/13-character prefix runtimes print), its sandbox ID (learnt from `crictl pods` or the
//! runtime's `RunPodSandbox … returns sandbox id` line), or — when the line names no UID — its
//! namespace and name. A line concerns a node when its bundle says which node it comes from
//! (node-collect), its journal host name is the node's name (or its first label), the pods it
//! names run there, or the snapshot has exactly one node.

use kubewhy_model::node::{NodeBundle, NodeLine, NodeProcess, RuntimeRecord, Signal};
use kubewhy_model::objects::Pod;
use kubewhy_model::{EvidenceKind, Finding, ObjectKey, Snapshot};
use std::collections::HashMap;

/// A line with the bundle it came from.
pub(crate) type Line<'a> = (&'a NodeBundle, &'a NodeLine);

#[derive(Default)]
pub(crate) struct NodeView<'a> {
    /// Lines by pod index (`snap.pods`).
    pub lines: HashMap<usize, Vec<Line<'a>>>,
    pub records: HashMap<usize, Vec<&'a RuntimeRecord>>,
    pub processes: HashMap<usize, Vec<&'a NodeProcess>>,
    /// Lines by node name (every line whose node is known).
    pub node_lines: HashMap<String, Vec<Line<'a>>>,
    /// Bundles by node name.
    pub bundles: HashMap<String, Vec<&'a NodeBundle>>,
}

/// The pod's container IDs without their `containerd://` / `docker://` scheme.
pub(crate) fn container_ids(pod: &Pod) -> impl Iterator<Item = &str> {
    pod.status
        .container_statuses
        .iter()
        .chain(pod.status.init_container_statuses.iter())
        .filter_map(|c| c.container_id.as_deref())
        .map(|id| id.rsplit("://").next().unwrap_or(id))
        .filter(|id| id.len() >= 12)
}

struct Keys<'a> {
    by_uid: HashMap<&'a str, usize>,
    by_name: HashMap<(&'a str, &'a str), usize>,
    /// Full container IDs and their 12-character prefixes.
    by_container: HashMap<&'a str, usize>,
    /// Sandbox ID (full or prefix) → pod.
    by_sandbox: HashMap<String, usize>,
    /// Container ID → sandbox ID (runtime lines).
    container_sandbox: HashMap<&'a str, &'a str>,
}

impl<'a> Keys<'a> {
    fn new(snap: &'a Snapshot) -> Keys<'a> {
        let mut k = Keys {
            by_uid: HashMap::new(),
            by_name: HashMap::new(),
            by_container: HashMap::new(),
            by_sandbox: HashMap::new(),
            container_sandbox: HashMap::new(),
        };
        for (i, p) in snap.pods.iter().enumerate() {
            if !p.metadata.uid.is_empty() {
                k.by_uid.insert(&p.metadata.uid, i);
            }
            k.by_name.insert((p.metadata.ns(), &p.metadata.name), i);
            for id in container_ids(p) {
                k.by_container.insert(id, i);
                if let Some(prefix) = id.get(..12) {
                    k.by_container.insert(prefix, i);
                }
            }
        }
        for b in &snap.node.bundles {
            for l in &b.links {
                if let Some((ns, name, uid)) = &l.pod {
                    let pod = k
                        .by_uid
                        .get(uid.as_str())
                        .or_else(|| k.by_name.get(&(ns.as_str(), name.as_str())))
                        .copied();
                    if let Some(i) = pod {
                        k.by_sandbox.insert(l.id.clone(), i);
                        k.by_sandbox
                            .insert(l.id[..l.id.len().min(12)].to_string(), i);
                        k.by_sandbox
                            .insert(l.id[..l.id.len().min(13)].to_string(), i);
                    }
                }
                if let Some(s) = &l.sandbox {
                    k.container_sandbox.insert(&l.id, s);
                }
            }
            for r in b.runtime.iter().filter(|r| r.tool == "crictl pods") {
                if let (Some(ns), Some(name)) = (&r.pod_namespace, &r.pod_name)
                    && let Some(i) = k.by_name.get(&(ns.as_str(), name.as_str())).copied()
                {
                    k.by_sandbox.insert(r.id.clone(), i);
                }
            }
        }
        k
    }

    fn by_id(&self, id: &str) -> Option<usize> {
        if let Some(i) = self
            .by_container
            .get(id)
            .or_else(|| id.get(..12).and_then(|p| self.by_container.get(p)))
        {
            return Some(*i);
        }
        // crictl prints 13 characters of an ID, docker 12.
        for n in [id.len(), 13, 12] {
            if let Some(i) = id.get(..n).and_then(|p| self.by_sandbox.get(p)) {
                return Some(*i);
            }
        }
        let sb = self.container_sandbox.get(id)?;
        self.by_sandbox.get(*sb).copied()
    }

    fn pods_of_line(&self, l: &NodeLine) -> Vec<usize> {
        let mut out: Vec<usize> = l
            .uids
            .iter()
            .filter_map(|u| self.by_uid.get(u.as_str()).copied())
            .collect();
        out.extend(l.ids.iter().filter_map(|id| self.by_id(id)));
        if l.uids.is_empty() {
            out.extend(
                l.pods
                    .iter()
                    .filter_map(|(ns, n)| self.by_name.get(&(ns.as_str(), n.as_str())).copied()),
            );
        }
        out.sort_unstable();
        out.dedup();
        out
    }

    fn pod_of_record(&self, r: &RuntimeRecord) -> Option<usize> {
        if let Some(u) = &r.pod_uid {
            return self.by_uid.get(u.as_str()).copied();
        }
        if let Some(i) = self.by_id(&r.id) {
            return Some(i);
        }
        if let Some(sb) = &r.sandbox
            && let Some(i) = self.by_sandbox.get(sb.as_str())
        {
            return Some(*i);
        }
        match (&r.pod_namespace, &r.pod_name) {
            (Some(ns), Some(n)) => self.by_name.get(&(ns.as_str(), n.as_str())).copied(),
            _ => None,
        }
    }
}

/// The node a host name stands for: the node of that name, or whose first DNS label it is.
fn node_of_host(snap: &Snapshot, host: &str) -> Option<String> {
    snap.nodes
        .iter()
        .map(|n| n.metadata.name.as_str())
        .find(|n| {
            *n == host || n.split('.').next() == Some(host) || host.split('.').next() == Some(*n)
        })
        .map(String::from)
}

impl<'a> NodeView<'a> {
    pub(crate) fn new(snap: &'a Snapshot) -> NodeView<'a> {
        let mut v = NodeView::default();
        if snap.node.bundles.is_empty() {
            return v;
        }
        let keys = Keys::new(snap);
        let single_node = match snap.nodes.as_slice() {
            [n] => Some(n.metadata.name.to_string()),
            _ => None,
        };
        // Host names resolved once each (a journal names the same host on every line).
        let mut hosts: HashMap<&str, Option<String>> = HashMap::new();
        for b in &snap.node.bundles {
            let bundle_node = b
                .node
                .clone()
                .or_else(|| b.hostname.as_deref().and_then(|h| node_of_host(snap, h)));
            let mut nodes_seen: Vec<String> = Vec::new();
            for l in &b.lines {
                let pods = keys.pods_of_line(l);
                for &i in &pods {
                    v.lines.entry(i).or_default().push((b, l));
                }
                let node = bundle_node
                    .clone()
                    .or_else(|| {
                        let h = l.host.as_deref()?;
                        hosts
                            .entry(h)
                            .or_insert_with(|| node_of_host(snap, h))
                            .clone()
                    })
                    .or_else(|| {
                        pods.iter()
                            .find_map(|&i| snap.pods[i].spec.node_name.as_deref().map(String::from))
                    })
                    .or_else(|| single_node.clone());
                if let Some(n) = node {
                    if !nodes_seen.contains(&n) {
                        nodes_seen.push(n.clone());
                    }
                    v.node_lines.entry(n).or_default().push((b, l));
                }
            }
            for r in &b.runtime {
                if let Some(i) = keys.pod_of_record(r) {
                    v.records.entry(i).or_default().push(r);
                }
            }
            for p in &b.processes {
                let i = p
                    .uids
                    .iter()
                    .find_map(|u| keys.by_uid.get(u.as_str()).copied())
                    .or_else(|| p.ids.iter().find_map(|id| keys.by_id(id)));
                if let Some(i) = i {
                    v.processes.entry(i).or_default().push(p);
                }
            }
            if let Some(n) = bundle_node.or(single_node.clone())
                && !nodes_seen.contains(&n)
            {
                nodes_seen.push(n);
            }
            for n in nodes_seen {
                v.bundles.entry(n).or_default().push(b);
            }
        }
        v
    }

    /// The pod's lines with one of `signals`.
    pub(crate) fn pod_lines(&self, pod_idx: usize, signals: &[Signal]) -> Vec<Line<'a>> {
        with_signal(self.lines.get(&pod_idx), signals)
    }

    /// The node's lines with one of `signals`.
    pub(crate) fn node_signal_lines(&self, node: &str, signals: &[Signal]) -> Vec<Line<'a>> {
        with_signal(self.node_lines.get(node), signals)
    }
}

fn with_signal<'a>(lines: Option<&Vec<Line<'a>>>, signals: &[Signal]) -> Vec<Line<'a>> {
    lines
        .into_iter()
        .flatten()
        .filter(|(_, l)| l.signal.is_some_and(|s| signals.contains(&s)))
        .copied()
        .collect()
}

/// Where a line comes from, for the evidence's source: `kubelet log (FILE:LINE)`.
pub(crate) fn line_source(l: &NodeLine) -> String {
    let who = if l.component.is_empty() {
        "node log"
    } else {
        l.component.as_str()
    };
    let what = l.signal.map(|s| s.as_str()).unwrap_or("");
    if l.detail.is_empty() {
        format!("{who}: {what} ({})", l.origin)
    } else {
        format!("{who}: {what}, {} ({})", l.detail, l.origin)
    }
}

/// Quotes lines as evidence: per signal, the most recent line, with the number of lines like
/// it; at most `max` signals.
pub(crate) fn quote_lines(
    mut f: Finding,
    object: Option<&ObjectKey>,
    lines: &[Line],
    max: usize,
) -> Finding {
    add_lines(&mut f, object, lines, max);
    f
}

/// `quote_lines` in place.
pub(crate) fn add_lines(f: &mut Finding, object: Option<&ObjectKey>, lines: &[Line], max: usize) {
    // Each signal once per object: a check may have quoted it already.
    let fresh = lines.iter().map(|(_, l)| *l).filter(|l| {
        let Some(s) = l.signal else { return false };
        let tag = format!("({})", l.origin);
        let label = format!(": {}", s.as_str());
        !f.evidence.iter().any(|e| {
            e.source.contains(&tag)
                || (e.kind == EvidenceKind::Log
                    && e.object.as_ref() == object
                    && e.source.contains(&label))
        })
    });
    let picked = latest_per_signal(fresh);
    for (l, n) in picked.into_iter().take(max) {
        f.evidence.push(log_evidence(object, l, n));
    }
}

/// Per signal, in the order first seen: the latest line, and how many lines it stands for
/// (those compacted away included).
pub(crate) fn latest_per_signal<'l>(
    lines: impl Iterator<Item = &'l NodeLine>,
) -> Vec<(&'l NodeLine, u64)> {
    let mut by_signal: Vec<(Signal, &NodeLine, u64)> = Vec::new();
    for l in lines {
        let Some(s) = l.signal else { continue };
        match by_signal.iter_mut().find(|(x, _, _)| *x == s) {
            Some(e) => {
                e.1 = l;
                e.2 += 1 + l.dropped_before;
            }
            None => by_signal.push((s, l, 1 + l.dropped_before)),
        }
    }
    by_signal.into_iter().map(|(_, l, n)| (l, n)).collect()
}

/// A node line as evidence; `n` > 1 says how many lines like it there were.
pub(crate) fn log_evidence(
    object: Option<&ObjectKey>,
    l: &NodeLine,
    n: u64,
) -> kubewhy_model::Evidence {
    let mut source = line_source(l);
    if n > 1 {
        source = format!("{source}, the last of {n} such lines");
    }
    kubewhy_model::Evidence {
        kind: EvidenceKind::Log,
        object: object.cloned(),
        source,
        quote: l.text.clone(),
        occurrences: 1,
    }
}

/// The runtime layers disagree about one of the pod's containers: docker says Up while
/// containerd's task (namespace moby) is stopped or gone (seed 001), or a runtime list shows a
/// container running that the kubelet reports terminated. Returns the rows that show it.
pub(crate) fn runtime_disagreement<'a>(
    snap: &'a Snapshot,
    view: &NodeView<'a>,
    pod_idx: usize,
) -> Option<(String, Vec<&'a RuntimeRecord>)> {
    let pod = &snap.pods[pod_idx];
    let records = view.records.get(&pod_idx)?;
    for r in records
        .iter()
        .filter(|r| r.tool == "docker ps" && r.running == Some(true))
    {
        for b in &snap.node.bundles {
            if !b.lists.iter().any(|l| l == "ctr task ls -n moby") {
                continue;
            }
            let task = b.runtime.iter().find(|t| {
                t.tool == "ctr task ls"
                    && t.ctr_namespace.as_deref() == Some("moby")
                    && (t.id.starts_with(&r.id) || r.id.starts_with(&t.id))
            });
            match task {
                Some(t) if t.running == Some(false) => {
                    return Some((
                        format!(
                            "docker lists container {} as \"{}\", but containerd's task for it is {}",
                            short(&r.id),
                            r.state,
                            t.state
                        ),
                        vec![r, t],
                    ));
                }
                None => {
                    return Some((
                        format!(
                            "docker lists container {} as \"{}\", but containerd (namespace moby) has no task for it",
                            short(&r.id),
                            r.state
                        ),
                        vec![r],
                    ));
                }
                _ => {}
            }
        }
    }
    // Running in the runtime, terminated for the kubelet.
    for cs in pod
        .status
        .container_statuses
        .iter()
        .filter(|c| c.state.terminated.is_some())
    {
        let Some(id) = cs
            .container_id
            .as_deref()
            .map(|i| i.rsplit("://").next().unwrap_or(i))
        else {
            continue;
        };
        if let Some(r) = records.iter().find(|r| {
            r.running == Some(true)
                && r.tool != "crictl pods"
                && id.len() >= 12
                && (id.starts_with(&r.id) || r.id.starts_with(id))
        }) {
            return Some((
                format!(
                    "{} lists container {} ({}) as {}, but the kubelet reports it terminated",
                    r.tool,
                    short(&r.id),
                    cs.name,
                    r.state
                ),
                vec![r],
            ));
        }
    }
    None
}

pub(crate) fn short(id: &str) -> &str {
    id.get(..12).unwrap_or(id)
}

/// The runtime lists of the pod's node were read and none shows anything of the pod running:
/// the lists read, when so.
pub(crate) fn runtime_shows_nothing_running(
    view: &NodeView,
    pod_idx: usize,
    node: &str,
) -> Option<Vec<String>> {
    let lists: Vec<String> = view
        .bundles
        .get(node)?
        .iter()
        .flat_map(|b| b.lists.iter())
        .filter(|l| l.starts_with("crictl") || l.starts_with("docker ps") || l.ends_with("k8s.io"))
        .cloned()
        .collect();
    if lists.is_empty() {
        return None;
    }
    let running = view
        .records
        .get(&pod_idx)
        .is_some_and(|rs| rs.iter().any(|r| r.running == Some(true)));
    (!running).then_some(lists)
}
