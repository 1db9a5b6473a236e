//! `kubectl cluster-info dump` of kubectl 1.7–1.8 printed the API server's *internal* types
//! instead of their versioned JSON: a list is `{"selfLink", "resourceVersion", "Items": [...]}`
//! without `kind`, each item has its ObjectMeta fields inline (`name`, `namespace`, `uid`, …)
//! beside `Spec` and `Status`, and every field below is named as its Go struct field
//! (`Phase`, `HostIP`, `ContainerStatuses`, `RestartCount`, `QOSClass`). Real dumps of that era
//! are still read in old support threads (kubernetes/kubernetes#53909 reported the bug).
//!
//! `convert` turns such a list into the versioned JSON a kubectl of any other era writes: the
//! kind from the file's name (`pods.json` → Pod), ObjectMeta moved under `metadata`, and each
//! field name written as Go's JSON tags write it (leading capitals lowered, an acronym kept
//! whole: `HostIP` → `hostIP`, `QOSClass` → `qosClass`). The keys of maps — labels,
//! annotations, selectors, resource lists, data — are the user's and stay as they are.

use serde_json::{Map, Value};

/// ObjectMeta's fields, as the internal type prints them inline.
const META: &[&str] = &[
    "name",
    "generateName",
    "namespace",
    "selfLink",
    "uid",
    "resourceVersion",
    "generation",
    "creationTimestamp",
    "deletionTimestamp",
    "deletionGracePeriodSeconds",
    "labels",
    "annotations",
    "ownerReferences",
    "initializers",
    "finalizers",
    "clusterName",
];

/// Fields whose value is a map with the user's keys (never renamed).
const USER_MAPS: &[&str] = &[
    "labels",
    "annotations",
    "NodeSelector",
    "Selector",
    "MatchLabels",
    "Capacity",
    "Allocatable",
    "Limits",
    "Requests",
    "Data",
    "BinaryData",
    "Hard",
    "Used",
    "Parameters",
    "VolumeAttributes",
];

/// Internal field names whose versioned name is another word.
const RENAMED: &[(&str, &str)] = &[("LastTerminationState", "lastState")];

/// The kind a dump file of this name holds (`pods.json` → `Pod`).
fn kind_of(file: &str) -> Option<&'static str> {
    let name = file.rsplit(['/', ':']).next()?.strip_suffix(".json")?;
    Some(match name {
        "pods" => "Pod",
        "nodes" => "Node",
        "events" => "Event",
        "services" => "Service",
        "deployments" => "Deployment",
        "replicasets" => "ReplicaSet",
        "daemonsets" => "DaemonSet",
        "statefulsets" => "StatefulSet",
        "replication-controllers" => "ReplicationController",
        _ => return None,
    })
}

/// Whether `v` is a list of internal types: `Items` without `kind` or `items`.
pub(crate) fn is_internal_list(v: &Value) -> bool {
    v.get("Items").is_some_and(Value::is_array)
        && v.get("kind").is_none()
        && v.get("items").is_none()
}

/// The versioned list for an internal one read from `file`; `None` when the file's name does
/// not say the kind.
pub(crate) fn convert(file: &str, v: Value) -> Option<Value> {
    let kind = kind_of(file)?;
    let api = match kind {
        "Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet" => "apps/v1",
        _ => "v1",
    };
    let Value::Object(mut top) = v else {
        return None;
    };
    let items = match top.remove("Items") {
        Some(Value::Array(a)) => a,
        _ => return None,
    };
    let items: Vec<Value> = items
        .into_iter()
        .filter_map(|item| {
            let Value::Object(fields) = item else {
                return None;
            };
            let mut metadata = Map::new();
            let mut object = Map::new();
            object.insert("kind".into(), Value::from(kind));
            object.insert("apiVersion".into(), Value::from(api));
            for (k, v) in fields {
                if META.contains(&k.as_str()) {
                    metadata.insert(k, v);
                } else if k == "ObjectMeta" {
                    if let Value::Object(m) = v {
                        metadata.extend(m);
                    }
                } else if k != "TypeMeta" && !v.is_null() {
                    let key = json_name(&k);
                    object.insert(key, renamed(&k, v));
                }
            }
            object.insert("metadata".into(), Value::Object(metadata));
            Some(Value::Object(object))
        })
        .collect();
    let mut list = Map::new();
    list.insert("kind".into(), Value::from(format!("{kind}List")));
    list.insert("apiVersion".into(), Value::from(api));
    list.insert("items".into(), Value::Array(items));
    Some(Value::Object(list))
}

/// `v` with its keys written as Go's JSON tags would; the keys of user maps kept.
fn renamed(key: &str, v: Value) -> Value {
    match v {
        Value::Object(m) if USER_MAPS.contains(&key) => Value::Object(m),
        // Go's internal types print every nil pointer, slice and map as null where the
        // versioned JSON leaves the field out (`omitempty`): left out here too.
        Value::Object(m) => Value::Object(
            m.into_iter()
                .filter(|(_, v)| !v.is_null())
                .map(|(k, v)| {
                    let value = renamed(&k, v);
                    (json_name(&k), value)
                })
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.into_iter().map(|v| renamed(key, v)).collect()),
        v => v,
    }
}

/// A Go field name as its JSON tag: the leading capitals lowered, but the last of a run of
/// capitals followed by a lower-case letter starts the next word (`QOSClass` → `qosClass`,
/// `HostIP` → `hostIP`, `UID` → `uid`); a key already in lower case is left alone.
fn json_name(k: &str) -> String {
    if let Some((_, v)) = RENAMED.iter().find(|(i, _)| *i == k) {
        return v.to_string();
    }
    let chars: Vec<char> = k.chars().collect();
    let run = chars.iter().take_while(|c| c.is_ascii_uppercase()).count();
    if run == 0 {
        return k.to_string();
    }
    let lower = if run == chars.len() || run == 1 {
        run
    } else {
        run - 1
    };
    chars
        .iter()
        .enumerate()
        .map(|(i, c)| {
            if i < lower {
                c.to_ascii_lowercase()
            } else {
                *c
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_field_names_become_json_tags() {
        for (go, json) in [
            ("Phase", "phase"),
            ("HostIP", "hostIP"),
            ("PodIP", "podIP"),
            ("QOSClass", "qosClass"),
            ("UID", "uid"),
            ("ContainerID", "containerID"),
            ("ContainerStatuses", "containerStatuses"),
            ("RestartCount", "restartCount"),
            ("LastTerminationState", "lastState"),
            ("name", "name"),
        ] {
            assert_eq!(json_name(go), json, "{go}");
        }
    }

    /// The shape of a kubectl 1.8 `cluster-info dump` pods.json (written for this test after a
    /// published 2017 kubeadm dump; names and addresses are made up).
    #[test]
    fn an_internal_pod_list_becomes_a_versioned_one() {
        let v: Value = serde_json::from_str(
            r#"{"selfLink": "/api/v1/namespaces/default/pods", "resourceVersion": "166286",
              "Items": [{"name": "web-7cbc4b4d9c-zl68d", "namespace": "default", "uid": "u1",
                "creationTimestamp": "2017-11-03T02:56:52Z",
                "labels": {"app": "web", "Tier": "Front"},
                "Spec": {"NodeName": "node-2", "NodeSelector": {"Disk": "ssd"}, "Affinity": null,
                  "Volumes": null,
                  "Containers": [{"Name": "web", "Image": "nginx:1.13",
                    "Resources": {"Limits": {"memory": "64Mi"}}}]},
                "Status": {"Phase": "Running", "HostIP": "192.0.2.4", "QOSClass": "Burstable",
                  "ContainerStatuses": [{"Name": "web", "Ready": false, "RestartCount": 7,
                    "State": {"Waiting": {"Reason": "CrashLoopBackOff", "Message": "back-off"}},
                    "LastTerminationState": {"Terminated": {"ExitCode": 137, "Reason": "OOMKilled"}}}]}}]}"#,
        )
        .unwrap();
        assert!(is_internal_list(&v));
        let list = convert("dump/default/pods.json", v).unwrap();
        let pod = &list["items"][0];
        assert_eq!(list["kind"], "PodList");
        assert_eq!(pod["kind"], "Pod");
        assert_eq!(pod["metadata"]["name"], "web-7cbc4b4d9c-zl68d");
        assert_eq!(pod["metadata"]["labels"]["Tier"], "Front");
        assert_eq!(pod["spec"]["nodeName"], "node-2");
        assert_eq!(pod["spec"]["nodeSelector"]["Disk"], "ssd");
        assert!(pod["spec"].get("affinity").is_none() && pod["spec"].get("volumes").is_none());
        assert_eq!(
            pod["spec"]["containers"][0]["resources"]["limits"]["memory"],
            "64Mi"
        );
        assert_eq!(pod["status"]["hostIP"], "192.0.2.4");
        let cs = &pod["status"]["containerStatuses"][0];
        assert_eq!(cs["restartCount"], 7);
        assert_eq!(cs["state"]["waiting"]["reason"], "CrashLoopBackOff");
        assert_eq!(cs["lastState"]["terminated"]["exitCode"], 137);
        // A file whose name says no kind is left to the caller.
        assert!(convert("dump/default/widgets.json", list.clone()).is_none());
    }
}
