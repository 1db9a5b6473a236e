//! What is left in a namespace that is being deleted, across every namespaced resource type the
//! API server serves (custom resources included), found the way the namespace controller finds
//! it: API discovery, then one paginated LIST per type in that namespace. A group whose
//! discovery fails (an unavailable aggregated APIService) is reported: it is what blocks the
//! namespace.

use crate::{Failure, Listed, RESOURCES, describe, get, list_kind, problem};
use kube::Client;
use serde::Deserialize;

/// Terminating namespaces whose content is enumerated at most; beyond, a warning says so.
pub const MAX_NAMESPACES: usize = 10;

#[derive(Deserialize, Default)]
#[serde(default)]
struct ResourceList {
    resources: Vec<ApiResource>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct ApiResource {
    name: String,
    namespaced: bool,
    verbs: Vec<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct GroupList {
    groups: Vec<Group>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct Group {
    preferred_version: GroupVersion,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct GroupVersion {
    group_version: String,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct NamespaceList {
    items: Vec<NamespaceItem>,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct NamespaceItem {
    metadata: NamespaceMeta,
    status: NamespaceStatus,
}

#[derive(Deserialize, Default)]
#[serde(default, rename_all = "camelCase")]
struct NamespaceMeta {
    name: String,
    deletion_timestamp: Option<String>,
}

#[derive(Deserialize, Default)]
#[serde(default)]
struct NamespaceStatus {
    phase: String,
}

/// Names of the namespaces being deleted, from the pages of a namespaces LIST.
pub(crate) fn terminating(pages: &[(String, String)]) -> Vec<String> {
    pages
        .iter()
        .filter(|(name, _)| name.contains("/namespaces?"))
        .filter_map(|(_, text)| serde_json::from_str::<NamespaceList>(text).ok())
        .flat_map(|l| l.items)
        .filter(|n| n.metadata.deletion_timestamp.is_some() || n.status.phase == "Terminating")
        .map(|n| n.metadata.name)
        .collect()
}

/// Every namespaced, listable resource type kubewhy does not already list, as (path prefix,
/// plural); and one problem per group version whose discovery failed.
async fn namespaced_types(client: &Client) -> (Vec<(String, String)>, Listed) {
    let mut out = Vec::new();
    let mut listed = Listed::default();
    let mut gvs = vec!["/api/v1".to_string()];
    listed.requests += 1;
    match get(client, "/apis").await {
        Ok(t) => {
            let groups: GroupList = serde_json::from_str(&t).unwrap_or_default();
            gvs.extend(
                groups
                    .groups
                    .into_iter()
                    .map(|g| format!("/apis/{}", g.preferred_version.group_version)),
            );
        }
        Err(f) => {
            listed.problem = Some(problem(
                "discovery",
                format!("API discovery (/apis) failed: {}", describe(&f)),
            ));
        }
    }
    let mut problems = Vec::new();
    for gv in gvs {
        listed.requests += 1;
        match get(client, &gv).await {
            Ok(t) => {
                let list: ResourceList = serde_json::from_str(&t).unwrap_or_default();
                for r in list.resources {
                    let known = RESOURCES
                        .iter()
                        .any(|k| k.plural == r.name && k.prefixes.contains(&gv.as_str()));
                    if r.namespaced
                        && !r.name.contains('/')
                        && r.verbs.iter().any(|v| v == "list")
                        && r.name != "events"
                        && !known
                    {
                        out.push((gv.clone(), r.name));
                    }
                }
            }
            Err(f) => {
                let (_, _, g) = crate::group_version(gv.as_str());
                let why = match &f {
                    Failure::Status(503, _, _) => {
                        " — an unavailable aggregated APIService: `kubectl get apiservice` shows which"
                    }
                    _ => "",
                };
                problems.push(problem(
                    "discovery",
                    format!(
                        "API discovery of {g} failed: {}{why}. Objects of that group cannot be listed, and the namespace controller cannot finish deleting any namespace while it fails",
                        describe(&f)
                    ),
                ));
            }
        }
    }
    // One problem per failing group version.
    listed.extra_problems = problems;
    (out, listed)
}

/// Lists every namespaced type in each namespace being deleted (at most `MAX_NAMESPACES`).
pub(crate) async fn contents(client: &Client, namespaces: &[String]) -> Listed {
    let mut total = Listed::default();
    if namespaces.is_empty() {
        return total;
    }
    let (types, discovered) = namespaced_types(client).await;
    total.requests += discovered.requests;
    total.problem = discovered.problem;
    total.extra_problems = discovered.extra_problems;
    if namespaces.len() > MAX_NAMESPACES {
        total.extra_problems.push(problem(
            "discovery",
            format!(
                "{} namespaces are being deleted; the content of the first {MAX_NAMESPACES} was enumerated (kubewhy ns NAME reads one)",
                namespaces.len()
            ),
        ));
    }
    let mut tasks = tokio::task::JoinSet::new();
    for ns in namespaces.iter().take(MAX_NAMESPACES) {
        for (prefix, plural) in &types {
            let (client, ns, prefix, plural) =
                (client.clone(), ns.clone(), prefix.clone(), plural.clone());
            tasks.spawn(async move {
                let l = list_kind(&client, &[prefix.as_str()], &plural, true, Some(&ns)).await;
                (ns, prefix, plural, l)
            });
        }
    }
    let mut results = Vec::new();
    while let Some(done) = tasks.join_next().await {
        if let Ok(r) = done {
            results.push(r);
        }
    }
    results.sort_by(|a, b| (&a.0, &a.1, &a.2).cmp(&(&b.0, &b.1, &b.2)));
    for (_, _, _, l) in results {
        total.requests += l.requests;
        total.pages.extend(l.pages);
        total.extra_problems.extend(l.problem);
    }
    total
}
