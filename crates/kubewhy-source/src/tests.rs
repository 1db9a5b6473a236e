use super::*;

fn text(name: &str, t: &str) -> Input {
    Input::Text {
        name: name.into(),
        text: t.into(),
    }
}

const LIST: &str = r#"{
    "apiVersion": "v1",
    "items": [
        {
            "apiVersion": "v1",
            "kind": "Pod",
            "metadata": {"name": "web-1", "namespace": "shop", "uid": "u1",
                         "creationTimestamp": "2026-11-20T10:00:00Z"},
            "spec": {"containers": [{"name": "app", "image": "nginx",
                      "env": [{"name": "PASSWORD", "value": "hunter2"}]}]},
            "status": {"phase": "Pending"}
        },
        {
            "apiVersion": "v1",
            "kind": "Secret",
            "metadata": {"name": "db", "namespace": "shop"},
            "data": {"password": "aHVudGVyMg=="}
        },
        {
            "apiVersion": "events.k8s.io/v1",
            "kind": "Event",
            "metadata": {"name": "e1", "namespace": "shop"},
            "regarding": {"kind": "Pod", "name": "web-1", "namespace": "shop", "uid": "u1"},
            "reason": "FailedScheduling",
            "note": "0/3 nodes are available: 3 Insufficient cpu.",
            "type": "Warning",
            "eventTime": "2026-11-20T10:05:00.000000Z",
            "reportingController": "default-scheduler"
        },
        {
            "apiVersion": "example.com/v1",
            "kind": "Widget",
            "metadata": {"name": "w", "namespace": "shop", "finalizers": ["example.com/cleanup"]}
        }
    ],
    "kind": "List",
    "metadata": {"resourceVersion": ""}
}"#;

#[test]
fn a_timestamp_in_the_future_is_named_where_it_is_written() {
    let list = r#"{"kind": "List", "items": [
  {"kind": "Pod", "metadata": {"name": "a", "namespace": "n",
   "creationTimestamp": "2099-01-01T00:00:00Z"}},
  {"kind": "Pod", "metadata": {"name": "b", "namespace": "n",
   "creationTimestamp": "2099-01-01T00:00:00Z"}},
  {"kind": "Pod", "metadata": {"name": "c", "namespace": "n",
   "creationTimestamp": "2026-11-01T00:00:00Z"}}
]}"#;
    let loaded = load(&[text("pods.json", list)], None);
    let at: Vec<String> = loaded
        .warnings
        .iter()
        .map(|w| {
            format!(
                "{}:{:?}:{:?} {}",
                w.file,
                w.line,
                w.column,
                &w.message[..14]
            )
        })
        .collect();
    // Equal values take successive occurrences; the snapshot's time is the other pod's.
    assert_eq!(
        at,
        [
            "pods.json:Some(3):Some(26) Pod n/a: metad",
            "pods.json:Some(5):Some(26) Pod n/b: metad"
        ]
    );
    assert_eq!(
        loaded.snapshot.now.map(|t| t.to_string()).as_deref(),
        Some("2026-11-01T00:00:00Z")
    );
    let not_written_so = locate(&Job::Text("x".into(), "a\nb".into()), &["c", "b"]);
    assert_eq!(not_written_so, [None, Some((2, 1))]);
}

#[test]
fn serde_type_words_are_put_in_a_users_words() {
    assert_eq!(
        crate::plain_types("invalid type: integer `5`, expected struct Meta", true),
        "invalid type: integer `5`, expected an object"
    );
    assert_eq!(
        crate::plain_types("invalid type: string \"many\", expected i64", true),
        "invalid type: string \"many\", expected an integer"
    );
    assert_eq!(
        crate::plain_types("invalid type: sequence, expected a map", true),
        "invalid type: array, expected an object"
    );
    // YAML has sequences and maps; a message naming nothing of ours is left alone.
    assert_eq!(
        crate::plain_types("invalid type: sequence, expected a map", false),
        "invalid type: sequence, expected a map"
    );
    assert_eq!(
        crate::plain_types("expected value, expected f64 or expected", true),
        "expected value, expected a number or expected"
    );
}

#[test]
fn kubectl_list_with_mixed_kinds() {
    let l = load(&[text("list.json", LIST)], None);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    let s = &l.snapshot;
    assert_eq!(s.pods.len(), 1);
    assert_eq!(s.secrets[0].keys, vec!["password"]);
    assert_eq!(
        s.events[0].message,
        "0/3 nodes are available: 3 Insufficient cpu."
    );
    assert_eq!(s.events[0].source, "default-scheduler");
    assert_eq!(s.others[0].kind, "Widget");
    assert_eq!(s.others[0].metadata.finalizers, vec!["example.com/cleanup"]);
    assert_eq!(l.other_kinds.get("Widget"), Some(&1));
    // "now" is the newest timestamp in the data.
    assert_eq!(s.now.unwrap().to_string(), "2026-11-20T10:05:00Z");
    let dbg = format!("{s:?}");
    assert!(
        !dbg.contains("hunter2") && !dbg.contains("aHVudGVyMg"),
        "secret value held"
    );
}

#[test]
fn typed_list_items_inherit_the_kind() {
    let t = r#"{"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"n1"},
        "status":{"conditions":[{"type":"Ready","status":"False"}]}}]}"#;
    let l = load(&[text("nodes.json", t)], None);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_eq!(l.snapshot.nodes[0].ready(), Some(false));
    assert!(l.snapshot.nodes_known());
}

#[test]
fn empty_typed_list_still_counts_as_loaded() {
    let l = load(&[text("n.json", r#"{"kind":"NodeList","items":[]}"#)], None);
    assert!(l.snapshot.nodes_known());
}

#[test]
fn a_list_whose_items_are_null_is_an_empty_list_and_a_yaml_sequence_is_its_objects() {
    // 2025's troubleshoot.sh writes Go's nil slice; its custom resources as a YAML sequence.
    let l = load(
        &[
            text(
                "cronjobs.json",
                r#"{"kind":"NodeList","apiVersion":"v1","metadata":{"resourceVersion":"687"},"items":null}"#,
            ),
            text(
                "addons.yaml",
                "- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: a\n- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: b\n",
            ),
        ],
        None,
    );
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert!(l.snapshot.nodes_known());
    let names: Vec<&str> = l
        .snapshot
        .namespaces
        .iter()
        .map(|n| n.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["a", "b"]);
}

#[test]
fn yaml_multi_document_and_list() {
    let t = "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Namespace\n  metadata:\n    name: old\n  status:\n    phase: Terminating\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cfg\n  namespace: old\ndata:\n  a: '1'\n";
    let l = load(&[text("x.yaml", t)], None);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_eq!(l.snapshot.namespaces[0].status.phase, "Terminating");
    assert_eq!(l.snapshot.config_maps[0].keys, vec!["a"]);
}

#[test]
fn cluster_info_dump_stdout_stream() {
    let t = format!(
        "{}\n{}\n==== START logs for container app of pod shop/web-1 ====\nline one\npanic: boom\n==== END logs for container app of pod shop/web-1 ====\n{}\n",
        r#"{"kind":"NodeList","apiVersion":"v1","items":[{"metadata":{"name":"n1"}}]}"#,
        r#"{"kind":"PodList","apiVersion":"v1","items":[{"metadata":{"name":"web-1","namespace":"shop"}}]}"#,
        r#"{"kind":"EventList","apiVersion":"v1","items":[]}"#,
    );
    let l = load(&[text("dump.txt", &t)], None);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_eq!(l.snapshot.nodes.len(), 1);
    assert_eq!(l.snapshot.pods.len(), 1);
    let log = l.snapshot.logs_for("shop", "web-1", "app").unwrap();
    assert_eq!(log.tail, vec!["line one", "panic: boom"]);
}

/// A dump's log block pasted alone (calico issue 6218): no object, so it is read as a paste where
/// the block is its pod's output, and the failure its lines show is recognised (it used to be
/// "nothing could be read", exit 2).
#[test]
fn a_dumps_log_block_alone_is_read_as_its_pods_output() {
    let t = "==== START logs for container install-cni of pod kube-system/canal-7r5dd ====\n2022-06-29 06:52:14.824 [ERROR][1] cni-installer/<nil> <nil>: Unable to create token for CNI kubeconfig error=\n  serviceaccounts \"calico-node\" is forbidden: User \"system:serviceaccount:kube-system:canal\" cannot create resource \"serviceaccounts/token\" in API group \"\" in the namespace \"kube-system\"\n";
    let l = load(&[text("paste.txt", t)], None);
    let m = l
        .snapshot
        .pasted_messages
        .first()
        .expect("the RBAC refusal is recognised");
    assert_eq!(m.cause, kubewhy_model::Cause::AppExitError);
    assert!(
        m.quote
            .contains("cannot create resource \"serviceaccounts/token\""),
        "{}",
        m.quote
    );
}

#[test]
fn truncated_json_names_file_line_and_column() {
    let t = "{\n  \"kind\": \"PodList\",\n  \"items\": [\n    {\"metadata\": {\"name\": \"a\"";
    let l = load(&[text("cut.json", t)], None);
    assert_eq!(l.warnings.len(), 1);
    let w = &l.warnings[0];
    assert_eq!(w.file, "cut.json");
    assert_eq!(w.line, Some(4));
    assert!(w.message.contains("EOF"), "{w}");
}

#[test]
fn a_bad_field_costs_the_field_and_is_reported_at_its_object() {
    let t = "{\"kind\":\"List\",\"items\":[\n{\"kind\":\"Pod\",\"metadata\":{\"name\":\"ok\"}},\n{\"kind\":\"Pod\",\"metadata\":{\"name\":\"bad\"},\"status\":{\"phase\":42}}\n]}";
    let l = load(&[text("items.json", t)], None);
    let names: Vec<&str> = l
        .snapshot
        .pods
        .iter()
        .map(|p| p.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["ok", "bad"]);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    assert_eq!(l.dropped_fields, 1);
    let w = &l.dropped_examples[0];
    assert_eq!((w.file.as_str(), w.line), ("items.json", Some(3)));
    assert!(
        w.message
            .starts_with("Pod bad status.phase: converted: invalid type: integer `42`"),
        "{w}"
    );
    // An item that is no object at all is still refused, at its place.
    let t = "{\"kind\":\"PodList\",\"items\":[\n{\"metadata\":{\"name\":\"ok\"}},\n{\"metadata\":{\"name\":[\"x\"]}}\n]}";
    let l = load(&[text("items.json", t)], None);
    assert_eq!(l.snapshot.pods.len(), 1);
    assert_eq!(l.warnings.len(), 1, "{:?}", l.warnings);
    assert_eq!(l.warnings[0].line, Some(3));
    assert!(
        l.warnings[0].message.contains("object skipped"),
        "{}",
        l.warnings[0]
    );
}

#[test]
fn bad_yaml_document_does_not_hide_the_next() {
    let t = "kind: Pod\nmetadata: {name: [unclosed\n---\nkind: Node\nmetadata:\n  name: n1\n";
    let l = load(&[text("x.yaml", t)], None);
    assert_eq!(l.snapshot.nodes.len(), 1);
    assert_eq!(l.warnings.len(), 1);
    assert_eq!(l.warnings[0].file, "x.yaml");
    assert!(l.warnings[0].line.is_some());
}

#[test]
fn directory_with_dump_layout_and_a_corrupt_file() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    std::fs::create_dir_all(dir.join("shop/web-1")).unwrap();
    std::fs::write(
        dir.join("nodes.json"),
        r#"{"kind":"NodeList","items":[{"metadata":{"name":"n1"}}]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("shop/pods.json"),
        r#"{"kind":"PodList","items":[{"metadata":{"name":"web-1","namespace":"shop"}}]}"#,
    )
    .unwrap();
    std::fs::write(
        dir.join("shop/events.json"),
        "{\"kind\":\"EventList\",\n\"items\":[{\"metadata\":",
    )
    .unwrap();
    std::fs::write(dir.join("shop/web-1/logs.txt"), "starting\nexit 1\n").unwrap();
    std::fs::write(dir.join("binary.bin"), [0u8, 1, 2, 3]).unwrap();
    let l = load(&[Input::Path(dir.clone())], None);
    assert_eq!(l.snapshot.nodes.len(), 1);
    assert_eq!(l.snapshot.pods.len(), 1);
    assert_eq!(
        l.snapshot.logs_for("shop", "web-1", "app").unwrap().tail,
        vec!["starting", "exit 1"]
    );
    let files: Vec<_> = l.warnings.iter().map(|w| w.to_string()).collect();
    assert_eq!(files.len(), 2, "{files:?}");
    assert!(
        files.iter().any(|w| w.contains("binary.bin: binary file")),
        "{files:?}"
    );
    assert!(
        files
            .iter()
            .any(|w| w.contains("shop/events.json:2:21: EOF")),
        "{files:?}"
    );
}

#[test]
fn gzip_and_missing_files_are_reported() {
    let l = load(
        &[
            text("x.gz", "\u{1f}\u{8b}rest"),
            Input::Path("/nonexistent/kubewhy".into()),
        ],
        None,
    );
    assert_eq!(l.warnings.len(), 2);
}

#[test]
fn stray_text_and_kindless_objects_are_reported_not_fatal() {
    let l = load(
        &[text(
            "x.json",
            "{\"a\":1}\nhello\n{\"kind\":\"Node\",\"metadata\":{\"name\":\"n\"}}",
        )],
        None,
    );
    assert_eq!(l.snapshot.nodes.len(), 1);
    assert_eq!(l.warnings.len(), 2, "{:?}", l.warnings);
}

#[test]
fn explicit_now_wins() {
    let now: jiff::Timestamp = "2030-01-01T00:00:00Z".parse().unwrap();
    let l = load(&[text("list.json", LIST)], Some(now));
    assert_eq!(l.snapshot.now, Some(now));
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    #[test]
    fn never_panics_on_arbitrary_text(s in "\\PC{0,300}") {
        let _ = load(&[text("fuzz", &s)], None);
    }

    #[test]
    fn never_panics_on_mangled_lists(cut in 0usize..LIST.len(), junk in "[{}\\[\\]\",:a-z0-9 ]{0,20}") {
        let mut t = LIST[..cut].to_string();
        t.push_str(&junk);
        let _ = load(&[text("fuzz.json", &t)], None);
    }

    /// The line parsers of `kubewhy gone` take any bytes, and lines shaped like what they look
    /// for with the fields mangled.
    #[test]
    fn history_parsers_never_panic(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400),
        junk in "[{}\\[\\]\":a-z0-9/. =-]{0,40}",
    ) {
        let (mut audit, mut kcm, mut w) = (Vec::new(), Vec::new(), Vec::new());
        crate::parse_audit("fuzz", &bytes[..], &mut audit, &mut w);
        crate::parse_controller_log("fuzz", &bytes[..], None, &mut kcm, &mut w);
        let lines = [
            format!("{{\"kind\":\"Event\",\"verb\":\"delete\",\"objectRef\":{{{junk}}}}}"),
            format!("I1123 00:19:03.552204   1 gc_controller.go:78] PodGC is force deleting Pod: {junk}"),
            format!("I1123 00:19:03.552119   1 gc_controller.go:142] garbage collecting {junk} pods"),
            format!("{{\"ts\":{junk},\"msg\":\"Found orphaned Pod assigned to the Node, deleting\",\"pod\":{junk}}}"),
            format!("\"Found unscheduled terminating Pod not assigned to any Node, deleting\" pod={junk}"),
        ];
        for l in &lines {
            crate::parse_audit("fuzz", l.as_bytes(), &mut audit, &mut w);
            crate::parse_controller_log("fuzz", l.as_bytes(), None, &mut kcm, &mut w);
        }
    }
}

fn replica(name: &str, node: &str, token: &str, image: &str) -> serde_json::Value {
    serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": "shop", "uid": format!("uid-{name}"),
                     "labels": {"app": "web", "pod-template-hash": "5d8f"}},
        "spec": {
            "nodeName": node,
            "volumes": [{"name": token, "projected": {}}],
            "containers": [{"name": "app", "image": image, "env": [{"name": "A", "value": "x"}]}],
            "tolerations": [{"key": "k", "operator": "Exists"}]
        },
        "status": {"phase": "Running"}
    })
}

#[test]
fn replicas_share_their_spec_and_labels_but_keep_their_node_and_volumes() {
    let mut parts = SharedParts::default();
    let raws = [
        replica("web-a", "node-1", "kube-api-access-aaaaa", "nginx:1"),
        replica("web-b", "node-2", "kube-api-access-bbbbb", "nginx:1"),
        replica("web-c", "node-1", "kube-api-access-ccccc", "nginx:2"),
    ];
    let objects: Vec<Object> = raws
        .iter()
        .map(|raw| {
            let mut o = Object::decode("Pod", "v1", raw).unwrap();
            o.share(raw, &mut parts);
            o
        })
        .collect();
    let s = snapshot_of(&objects, []);
    let (a, b, c) = (&s.pods[0], &s.pods[1], &s.pods[2]);
    assert!(std::sync::Arc::ptr_eq(&a.spec.shared, &b.spec.shared));
    assert!(!std::sync::Arc::ptr_eq(&a.spec.shared, &c.spec.shared));
    assert_eq!(a.spec.containers[0].image, "nginx:1");
    assert_eq!(c.spec.containers[0].image, "nginx:2");
    assert_eq!(b.spec.tolerations[0].key.as_deref(), Some("k"));
    // What is each pod's own stays its own.
    assert_eq!(a.spec.node_name.as_deref(), Some("node-1"));
    assert_eq!(b.spec.node_name.as_deref(), Some("node-2"));
    assert_eq!(a.spec.volumes[0].name, "kube-api-access-aaaaa");
    assert_eq!(b.spec.volumes[0].name, "kube-api-access-bbbbb");
    // One set of labels for all three.
    assert_eq!(
        a.metadata.labels.get("app").map(|v| v.as_str()),
        Some("web")
    );
    assert_eq!(a.metadata.labels.holders(), 4, "three pods and the pool");
    assert_eq!(parts.len(), 3, "two specs, one label set");
    drop(s);
    drop(objects);
    parts.prune();
    assert!(parts.is_empty(), "nothing is held once no pod holds it");
}

#[test]
fn changing_a_shared_spec_changes_one_pod() {
    let mut parts = SharedParts::default();
    let raw = replica("web-a", "node-1", "t", "nginx:1");
    let mut one = Object::decode("Pod", "v1", &raw).unwrap();
    one.share(&raw, &mut parts);
    let mut two = Object::decode("Pod", "v1", &raw).unwrap();
    two.share(&raw, &mut parts);
    let s = snapshot_of([&one, &two], []);
    let mut changed = (*s.pods[0]).clone();
    changed.spec.tolerations.clear();
    changed.metadata.labels.insert("extra", "1".into());
    assert!(changed.spec.tolerations.is_empty());
    assert_eq!(s.pods[1].spec.tolerations.len(), 1);
    assert!(!s.pods[1].metadata.labels.contains_key("extra"));
}

/// Evidence is cut on a character, never inside one, and says where it was cut.
#[test]
fn bounded_text_is_cut_on_a_character_with_an_ellipsis() {
    assert_eq!(crate::bounded("abc", 3), "abc");
    assert_eq!(crate::bounded("abcd", 3), "abc…");
    // "é" is two bytes: a cut at byte 2 would split it.
    assert_eq!(crate::bounded("hé!", 2), "h…");
    assert_eq!(crate::char_floor("é", 1), "");
    assert_eq!(crate::char_floor("hé", 10), "hé");
}

/// kubectl 1.8's `cluster-info dump` wrote internal types (`Items`, ObjectMeta inline, Go field
/// names, nulls): read as the versioned objects they are, with no warning.
#[test]
fn an_old_cluster_info_dump_of_internal_types_is_read() {
    let t = r#"{
    "selfLink": "/api/v1/namespaces/kube-system/pods",
    "resourceVersion": "166256",
    "Items": [
        {
            "name": "kube-dns-545bc4bfd4-qdscf",
            "namespace": "kube-system",
            "uid": "u1",
            "creationTimestamp": "2017-11-02T10:00:00Z",
            "labels": {"k8s-app": "kube-dns"},
            "ownerReferences": null,
            "Spec": {"Volumes": null, "NodeName": "k8s-worker1", "Affinity": null,
                     "Containers": [{"Name": "kubedns", "Image": "gcr.io/google_containers/k8s-dns-kube-dns-amd64:1.14.5"}]},
            "Status": {"Phase": "Running", "Conditions": null,
                       "ContainerStatuses": [{"Name": "kubedns", "Ready": false, "RestartCount": 11,
                           "State": {"Waiting": {"Reason": "CrashLoopBackOff", "Message": "Back-off 5m0s"}, "Running": null, "Terminated": null},
                           "LastTerminationState": {"Waiting": null, "Running": null,
                               "Terminated": {"ExitCode": 255, "Signal": 0, "Reason": "Error", "Message": "",
                                              "StartedAt": "2017-11-03T09:50:00Z", "FinishedAt": "2017-11-03T09:51:00Z"}},
                           "Image": "gcr.io/google_containers/k8s-dns-kube-dns-amd64:1.14.5"}]}
        }
    ]
}"#;
    let l = load(&[text("kube-system/pods.json", t)], None);
    assert!(l.warnings.is_empty(), "{:?}", l.warnings);
    let pod = &l.snapshot.pods[0];
    assert_eq!(pod.metadata.name.as_str(), "kube-dns-545bc4bfd4-qdscf");
    assert_eq!(pod.spec.node_name.as_deref(), Some("k8s-worker1"));
    let cs = &pod.status.container_statuses[0];
    assert_eq!(cs.restart_count, 11);
    assert_eq!(
        cs.state.waiting.as_ref().map(|w| w.reason.as_str()),
        Some("CrashLoopBackOff")
    );
    assert_eq!(
        cs.last_state.terminated.as_ref().and_then(|t| t.exit_code),
        Some(255)
    );
}
