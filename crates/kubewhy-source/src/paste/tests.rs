use crate::{Input, load};
use kubewhy_model::Snapshot;
use proptest::prelude::*;

fn anchor() -> jiff::Timestamp {
    "2026-11-23T12:00:00Z".parse().unwrap()
}

fn paste(text: &str) -> (Snapshot, Vec<String>) {
    let l = load(
        &[Input::Text {
            name: "paste".into(),
            text: text.into(),
        }],
        Some(anchor()),
    );
    let w = l
        .warnings
        .iter()
        .map(|w| format!("{}:{}: {}", w.file, w.line.unwrap_or(0), w.message))
        .collect();
    (l.snapshot, w)
}

/// One paste holding a command line, a describe cut before its Events, an events table from
/// another kubectl, a kubelet line, and the container's own output.
const MIXED: &str = r#"$ kubectl -n shop describe pod api-7d9f
Name:         api-7d9f
Namespace:    shop
Node:         node-1/10.0.0.5
Start Time:   Sun, 22 Nov 2026 20:24:40 +0000
Labels:       app=api
              pod-template-hash=7d9f
Status:       Running
IP:           10.244.0.6
Controlled By:  ReplicaSet/api-7d9f
Containers:
  api:
    Image:         registry.example/api:2
    Port:          8080/TCP
    Host Port:     0/TCP
    State:          Waiting
      Reason:       CrashLoopBackOff
    Last State:     Terminated
      Reason:       Error
      Exit Code:    1
      Started:      Sun, 22 Nov 2026 20:24:42 +0000
      Finished:     Sun, 22 Nov 2026 20:24:43 +0000
    Ready:          False
    Restart Count:  7
    Limits:
      memory:  256Mi
    Requests:
      cpu:     100m
    Environment:
      DB_PASSWORD:  <set to the key 'password' in secret 'db'>  Optional: false
      LOG_LEVEL:    debug
Conditions:
  Type              Status
  Ready             False
Tolerations:     node.kubernetes.io/not-ready:NoExecute op=Exists for 300s

$ kubectl get events -n shop
LAST SEEN   TYPE      REASON    OBJECT         MESSAGE
2m          Warning   BackOff   pod/api-7d9f   Back-off restarting failed container
I1122 20:25:01.000000    1234 pod_workers.go:191] "Error syncing pod, skipping" err="failed to \"StartContainer\" for \"api\" with CrashLoopBackOff" pod="shop/api-7d9f"
Error: connect ECONNREFUSED 10.0.0.9:5432
    at TCPConnectWrapper.afterConnect [as oncomplete] (net.js:1141:16)
"#;

#[test]
fn a_mixed_paste_becomes_one_snapshot() {
    let (s, warnings) = paste(MIXED);
    assert!(warnings.is_empty(), "{warnings:?}");
    let pod = &s.pods[0];
    assert_eq!(pod.metadata.name, "api-7d9f");
    assert_eq!(pod.metadata.ns(), "shop");
    assert_eq!(pod.spec.node_name.as_deref(), Some("node-1"));
    assert_eq!(
        pod.metadata.labels.get("pod-template-hash").unwrap(),
        "7d9f"
    );
    assert_eq!(pod.metadata.owner_references[0].name, "api-7d9f");
    let c = &pod.spec.containers[0];
    assert_eq!(c.image, "registry.example/api:2");
    assert_eq!(c.resources.limits["memory"].0, "256Mi");
    assert_eq!(c.ports[0].container_port, Some(8080));
    assert_eq!(c.ports[0].host_port, None);
    // A secret reference is kept; a plain value never is.
    assert_eq!(c.env.len(), 2);
    assert_eq!(
        c.env[0]
            .value_from
            .as_ref()
            .unwrap()
            .secret_key_ref
            .as_ref()
            .unwrap()
            .name,
        "db"
    );
    let cs = &pod.status.container_statuses[0];
    assert_eq!(cs.restart_count, 7);
    assert_eq!(
        cs.state.waiting.as_ref().unwrap().reason,
        "CrashLoopBackOff"
    );
    assert_eq!(
        cs.last_state.terminated.as_ref().unwrap().exit_code,
        Some(1)
    );
    assert_eq!(pod.spec.tolerations[0].toleration_seconds, Some(300));
    // The events table (2m before the anchor) and the kubelet line.
    let e = &s.events[0];
    assert_eq!(
        (e.reason.as_str(), e.involved.name.as_str()),
        ("BackOff", "api-7d9f")
    );
    assert_eq!(e.last_time, Some("2026-11-23T11:58:00Z".parse().unwrap()));
    assert_eq!(s.node.bundles.len(), 1);
    // The application's output belongs to the crashing pod.
    assert_eq!(s.logs[0].pod, "api-7d9f");
    assert!(s.logs[0].tail[0].contains("ECONNREFUSED"));
    // Cut before its Events: the describe says what it lacks.
    assert_eq!(s.pasted.len(), 1);
    assert!(s.pasted[0].missing.contains("events"), "{:?}", s.pasted);
    assert!(!format!("{s:?}").contains("debug"), "an env value was kept");
}

#[test]
fn event_tables_of_every_layout() {
    // kubectl 1.1x: FIRST SEEN, COUNT, NAME, KIND, SUBOBJECT, SOURCE.
    let old = "LASTSEEN   FIRSTSEEN   COUNT     NAME             KIND      SUBOBJECT               TYPE      REASON    SOURCE            MESSAGE\n\
               1m         10m         12        web-1.15f2a9c    Pod       spec.containers{web}    Warning   Failed    kubelet, node-2   Failed to pull image \"web:9\": not found\n";
    let (s, w) = paste(old);
    assert!(w.is_empty(), "{w:?}");
    let e = &s.events[0];
    assert_eq!(e.involved.name, "web-1");
    assert_eq!(e.count, 12);
    assert_eq!(e.host, "node-2");
    assert_eq!(e.container(), Some("web"));
    // kubectl events / -A with the series in LAST SEEN, and whitespace collapsed by a chat.
    let new = "NAMESPACE LAST SEEN TYPE REASON OBJECT MESSAGE\nshop 5m (x3 over 10m) Warning FailedScheduling Pod/api-1 0/3 nodes are available: 3 Insufficient cpu.\n";
    let (s, w) = paste(new);
    assert!(w.is_empty(), "{w:?}");
    let e = &s.events[0];
    assert_eq!(
        (
            e.involved.namespace.as_str(),
            e.involved.name.as_str(),
            e.count
        ),
        ("shop", "api-1", 3)
    );
    assert_eq!(e.message, "0/3 nodes are available: 3 Insufficient cpu.");
    assert_eq!(e.first_time, Some("2026-11-23T11:50:00Z".parse().unwrap()));
    // The pod exists only through its event: unscheduled, with the scheduler's message.
    let p = &s.pods[0];
    assert!(p.spec.node_name.is_none());
    assert_eq!(p.status.conditions[0].reason, "Unschedulable");
    assert_eq!(s.pasted[0].settle, "kubectl describe pod api-1 -n shop");
}

#[test]
fn a_bare_message_and_a_status_stanza() {
    let (s, _) = paste("Back-off pulling image \"registry.example/api:9\"\n");
    let p = &s.pods[0];
    assert_eq!(p.metadata.name, "(unknown)");
    assert_eq!(p.spec.containers[0].image, "registry.example/api:9");
    assert_eq!(
        p.status.container_statuses[0]
            .state
            .waiting
            .as_ref()
            .unwrap()
            .reason,
        "ImagePullBackOff"
    );
    let (s, _) = paste(
        "status:\n  phase: Pending\n  conditions:\n  - type: PodScheduled\n    status: \"False\"\n    reason: Unschedulable\n    message: '0/1 nodes are available: 1 node(s) had taint {gpu: true}, that the pod didn''t tolerate.'\n",
    );
    assert_eq!(s.pods.len(), 1);
    assert!(s.pods[0].status.conditions[0].message.contains("had taint"));
    assert!(s.pasted[0].missing.contains("status stanza"));
    // JSON too, even cut out of a larger document.
    let (s, w) = paste("  \"status\": {\"phase\": \"Terminating\", \"conditions\": []}\n");
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(s.namespaces[0].status.phase, "Terminating");
}

#[test]
fn unknown_text_is_a_note_with_its_lines() {
    let (s, w) = paste(
        "hello\nthis is not kubectl\n\nName:         x\nNamespace:    y\nStatus:       Pending\nIP:\nNode:         <none>\n",
    );
    assert_eq!(s.pods.len(), 1);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].starts_with("paste:1: lines 1-2: not kubectl output"),
        "{w:?}"
    );
}

/// kubectl 1.5–1.9: describe's events with FirstSeen / LastSeen / Count / SubObjectPath, aligned
/// with tabs.
const OLD_DESCRIBE: &str = "Name:\t\tnginx\nNamespace:\tdefault\nNode:\t\tminikube/192.168.99.100\nStatus:\t\tPending\nIP:\t\t172.17.0.4\nContainers:\n  nginx:\n    Image:\t\tnginx:nope\n    State:\t\tWaiting\n      Reason:\t\tImagePullBackOff\n    Ready:\t\tFalse\n    Restart Count:\t0\nEvents:\n  FirstSeen\tLastSeen\tCount\tFrom\t\t\tSubObjectPath\t\tType\t\tReason\t\t\tMessage\n  ---------\t--------\t-----\t----\t\t\t-------------\t\t--------\t------\t\t\t-------\n  2m\t\t2m\t\t1\tdefault-scheduler\t\t\t\t\tNormal\t\tScheduled\t\tSuccessfully assigned nginx to minikube\n  2m\t\t1m\t\t4\tkubelet, minikube\tspec.containers{nginx}\tWarning\t\tFailed\t\t\tFailed to pull image \"nginx:nope\": rpc error: code = 2 desc = Error: image library/nginx:nope not found\n";

#[test]
fn old_describe_aligned_with_tabs() {
    let (s, w) = paste(OLD_DESCRIBE);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(s.pods[0].spec.node_name.as_deref(), Some("minikube"));
    let failed = s.events.iter().find(|e| e.reason == "Failed").unwrap();
    assert_eq!(failed.count, 4);
    assert_eq!(failed.host, "minikube");
    assert_eq!(failed.container(), Some("nginx"));
    assert!(failed.message.ends_with("library/nginx:nope not found"));
    assert_eq!(
        failed.first_time,
        Some("2026-11-23T11:58:00Z".parse().unwrap())
    );
    assert_eq!(
        failed.last_time,
        Some("2026-11-23T11:59:00Z".parse().unwrap())
    );
}

#[test]
fn one_event_row_a_json_log_line_and_a_nodes_table() {
    let text = "$ kubectl -n shop describe pod web-1\n  Warning  FailedMount  3m (x5 over 12m)  kubelet  MountVolume.SetUp failed for volume \"cfg\" : configmap \"cfg\" not found\n{\"ts\":1700000000.5,\"caller\":\"kubelet/kubelet.go:1\",\"msg\":\"SyncLoop\",\"v\":0}\nNAME     STATUS     ROLES    AGE   VERSION\nnode-1   NotReady   <none>   9d    v1.28.3\n";
    let (s, w) = paste(text);
    assert!(w.is_empty(), "{w:?}");
    let e = &s.events[0];
    assert_eq!((e.reason.as_str(), e.count), ("FailedMount", 5));
    assert_eq!(e.involved.namespace, "shop");
    // The JSON line is a log line, not a status stanza.
    assert!(
        s.pods
            .iter()
            .all(|p| p.metadata.name != "(unknown)" || p.metadata.ns() == "shop")
    );
    assert_eq!(s.node.bundles.len(), 1);
    let node = &s.nodes[0];
    assert_eq!(node.metadata.name, "node-1");
    assert_eq!(node.status.conditions[0].status, "False");
}

/// A controller-runtime JSON log line names what it watched in `"kind"`: a log line, not an
/// object without a name (which was skipped, and then nothing was read).
#[test]
fn a_json_log_line_with_a_kind_is_a_paste() {
    let text = r#"{"level":"error","ts":1662373136.5983863,"logger":"controller-runtime.source","msg":"if kind is a CRD, it should be installed before calling Start","kind":"PodSecurityPolicy.policy","error":"no matches for kind \"PodSecurityPolicy\" in version \"policy/v1beta1\""}"#;
    let (s, w) = paste(text);
    assert!(w.iter().all(|w| !w.contains("object skipped")), "{w:?}");
    let causes: Vec<_> = s.pasted_messages.iter().map(|m| m.cause).collect();
    assert_eq!(causes, vec![kubewhy_model::Cause::AppExitError]);
    assert!(s.pasted_messages[0].quote.contains("no matches for kind"));
    // An object is still an object.
    let (s, w) = paste(r#"{"kind":"Pod","metadata":{"name":"web-1","namespace":"shop"}}"#);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(s.pods[0].metadata.name, "web-1");
    assert!(s.pasted_messages.is_empty());
}

#[test]
fn commands_name_the_pod_of_what_follows() {
    let text = "$ kubectl describe pod web-1 -n shop\n  Warning  BackOff  10s (x4 over 1m)  kubelet  Back-off restarting failed container\n$ kubectl logs web-1 -n shop --previous\npanic: open /etc/app/config.yaml: no such file or directory\ntoken=abcdef1234567890abcdef\n$ kubectl get pod web-2 -n shop -o yaml\nstatus:\n  phase: Pending\n";
    let (s, w) = paste(text);
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(s.events[0].involved.name, "web-1");
    let log = &s.logs[0];
    assert_eq!(
        (log.namespace.as_str(), log.pod.as_str()),
        ("shop", "web-1")
    );
    assert!(log.tail[0].starts_with("panic: open /etc/app/config.yaml"));
    // Applications' output is redacted like node lines.
    assert!(!log.tail[1].contains("abcdef1234567890"), "{:?}", log.tail);
    assert!(s.pods.iter().any(|p| p.metadata.name == "web-2"));
}

#[test]
fn a_describe_of_another_kind_is_named_in_its_note() {
    let (s, w) = paste(
        "Name:              web\nNamespace:         shop\nType:              ClusterIP\nIP:                10.96.0.10\nPort:              http  80/TCP\nEndpoints:         <none>\n",
    );
    assert_eq!(s.object_count(), 0);
    assert_eq!(w.len(), 1, "{w:?}");
    assert!(
        w[0].contains("lines 1-6: kubectl describe of \"web\", a kind kubewhy does not read"),
        "{w:?}"
    );
}

#[test]
fn ages() {
    assert_eq!(super::parse_age("2m46s"), Some(166));
    assert_eq!(
        super::parse_age("3y45d"),
        Some(3 * 365 * 86400 + 45 * 86400)
    );
    assert_eq!(super::parse_age("<unknown>"), None);
    assert_eq!(super::parse_age("12x"), None);
    assert_eq!(super::parse_age("99999999999999999999y"), None);
}

proptest! {
    /// Pieces of real kubectl output, cut, spliced and mangled, never make the reader panic.
    #[test]
    fn mangled_pastes_never_panic(cuts in proptest::collection::vec((0usize..4000, 0usize..4000), 1..6), junk in "[ -~\t\n:{}\\[\\]\"'\u{80}-\u{10ff}]{0,200}") {
        let mut text = String::new();
        for (a, b) in cuts {
            let (a, b) = (a.min(b), a.max(b));
            let a = (0..=a.min(MIXED.len())).rev().find(|i| MIXED.is_char_boundary(*i)).unwrap_or(0);
            let b = (b.min(MIXED.len())..=MIXED.len()).find(|i| MIXED.is_char_boundary(*i)).unwrap_or(MIXED.len());
            text.push_str(&MIXED[a..b]);
            text.push_str(&junk);
        }
        let _ = paste(&text);
    }
}

#[test]
fn prompts_of_every_shell_name_the_namespace() {
    for prompt in [
        "$ kubectl -n shop describe pod web-1",
        "❯ kubectl -n shop describe pod web-1",
        "raphy@host:~/x$ kubectl -n shop describe pod web-1",
        "PS C:\\> kubectl -n shop describe pod web-1",
        "# kubectl -n shop describe pod web-1",
    ] {
        let (s, _) = paste(&format!(
            "{prompt}\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  4\n"
        ));
        let pod = s.pods.first().unwrap_or_else(|| panic!("{prompt}: no pod"));
        assert_eq!(
            (pod.metadata.ns(), pod.metadata.name.as_str()),
            ("shop", "web-1"),
            "{prompt}"
        );
    }
}

/// A paste about one pod is one pod: a `get pods` row (without its header) and a container's
/// describe block that names no pod are the same pod, with the row's name and the namespace the
/// paste's command gives; a paste that names two pods fuses nothing.
#[test]
fn fragments_of_one_pod_are_one_pod() {
    let block = "    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    137\n    Restart Count:  12\n";
    let (s, _) = paste(&format!(
        "$ kubectl get pods -n shop | grep api\napi-5d9f8-x2x9q   0/1   CrashLoopBackOff   12   40m\n\n{block}"
    ));
    let names: Vec<(&str, &str)> = s
        .pods
        .iter()
        .map(|p| (p.metadata.ns(), p.metadata.name.as_str()))
        .collect();
    assert_eq!(names, [("shop", "api-5d9f8-x2x9q")]);
    let t = s.pods[0].status.container_statuses[0]
        .last_state
        .terminated
        .as_ref()
        .unwrap();
    assert_eq!(t.reason, "OOMKilled");
    assert!(
        s.pasted.iter().all(|p| p.object.name == "api-5d9f8-x2x9q"),
        "{:?}",
        s.pasted
    );
    // Two pods named, one of them in trouble: the fragment is that one's.
    let (s, _) = paste(&format!(
        "api-5d9f8-x2x9q   0/1   CrashLoopBackOff   12   40m\nweb-7c8d9-ab12c   1/1   Running   0   40m\n\n{block}"
    ));
    let names: Vec<&str> = s.pods.iter().map(|p| p.metadata.name.as_str()).collect();
    assert_eq!(names.len(), 2, "{names:?}");
    let api = s
        .pods
        .iter()
        .find(|p| p.metadata.name == "api-5d9f8-x2x9q")
        .unwrap();
    assert_eq!(
        api.status.container_statuses[0]
            .last_state
            .terminated
            .as_ref()
            .unwrap()
            .reason,
        "OOMKilled"
    );
    // Two pods in trouble: which one the fragment is about is not known; it stays apart.
    let (s, _) = paste(&format!(
        "api-5d9f8-x2x9q   0/1   CrashLoopBackOff   12   40m\nweb-7c8d9-ab12c   0/1   CrashLoopBackOff   3   40m\n\n{block}"
    ));
    assert_eq!(s.pods.len(), 3);
}

/// A container's `Last State:` pasted under a `get pods` of several pods, one of them
/// restarting (knative/serving issue 7926): the fragment is that pod's, the row's restarts are
/// its container's, and a `Last State:` alone makes a container status.
#[test]
fn a_last_state_under_a_table_is_the_restarting_pods() {
    let (s, _) = paste(
        "kubectl get pods -n istio-system\nNAME                                      READY   STATUS    RESTARTS   AGE\ncluster-local-gateway-85ffc48576-db5wf    1/1     Running   0          5d11h\nistio-ingressgateway-687d9f5f6d-x5fdt     2/2     Running   14         4d7h\n\nLast State:     Terminated\n      Reason:       OOMKilled\n      Exit Code:    0\n",
    );
    let gw = s
        .pods
        .iter()
        .find(|p| p.metadata.name == "istio-ingressgateway-687d9f5f6d-x5fdt")
        .expect("the restarting pod");
    let cs = &gw.status.container_statuses[0];
    assert_eq!(cs.restart_count, 14);
    assert_eq!(
        cs.last_state.terminated.as_ref().unwrap().reason,
        "OOMKilled"
    );
    assert_eq!(gw.metadata.ns(), "istio-system");
}

/// A `Terminating` row and the same pod's YAML cut before `deletionTimestamp` (kubernetes issue
/// 121605): one pod, being deleted, whose paste lacks when that began.
#[test]
fn a_terminating_row_says_what_the_pods_yaml_was_cut_before() {
    let (snap, _) = paste(
        "❯ k -n qa get pod\nNAME        READY   STATUS        RESTARTS   AGE\njob-9dcql   0/1     Terminating   0          2d18h\n\napiVersion: v1\nkind: Pod\nmetadata:\n  finalizers:\n  - batch.kubernetes.io/job-tracking\n  name: job-9dcql\n  namespace: qa\nspec:\n  containers:\n  ....\n",
    );
    assert_eq!(snap.pods.len(), 1);
    let p = &snap.pods[0];
    assert_eq!(p.metadata.name, "job-9dcql");
    // 2d18h before the anchor: at the earliest, when it was created.
    assert_eq!(
        p.metadata.deletion_timestamp.map(|t| t.to_string()),
        Some("2026-11-20T18:00:00Z".to_string())
    );
    let lacks = snap
        .pasted
        .iter()
        .find(|x| x.object.name == "job-9dcql")
        .unwrap();
    assert!(
        lacks.missing.starts_with("when its deletion began"),
        "{}",
        lacks.missing
    );
}

/// `kubectl get pods -w` (tests/fixtures/wild 802): one pod in many rows, the last its latest
/// state.
#[test]
fn rows_of_one_pod_pasted_again_stand_by_the_last() {
    let (s, _) = paste(
        "kubectl -n kyverno get pods -w\nkyverno-55c6f57c6b-vmv28   0/1     Init:0/1   0          5s\nkyverno-55c6f57c6b-vmv28   0/1     Running           0          30s\nkyverno-55c6f57c6b-vmv28   0/1     OOMKilled         1          67s\n",
    );
    assert_eq!(s.pods.len(), 1);
    let p = &s.pods[0];
    assert_eq!(p.metadata.name, "kyverno-55c6f57c6b-vmv28");
    assert_eq!(p.status.container_statuses[0].restart_count, 1);
    let t = p.status.container_statuses[0]
        .last_state
        .terminated
        .as_deref()
        .or(p.status.container_statuses[0].state.terminated.as_deref())
        .expect("the OOM kill");
    assert_eq!(t.reason, "OOMKilled");
}

/// A custom resource's describe (tests/fixtures/wild 866): its finalizers and deletion time are
/// what a namespace's deletion waits on; with its `--show-kind` row, it is one object.
#[test]
fn a_custom_resources_describe_keeps_its_finalizers() {
    let (s, w) = paste(
        "$ kubectl api-resources --verbs=list --namespaced -o name | xargs -n 1 kubectl get --show-kind --ignore-not-found -n rio-system\nNAME                                                     AGE\nchallenge.certmanager.k8s.io/rio-wildcard-1178074089-0   15m\n\n$ kubectl describe challenge.certmanager.k8s.io rio-wildcard-1178074089-0\nName:         rio-wildcard-1178074089-0\nNamespace:    rio-system\nAPI Version:  certmanager.k8s.io/v1alpha1\nKind:         Challenge\nMetadata:\n  Creation Timestamp:             2019-05-23T00:50:57Z\n  Deletion Grace Period Seconds:  0\n  Deletion Timestamp:             2019-05-23T01:02:38Z\n  Finalizers:\n    finalizer.acme.cert-manager.io\n  Generation:  4\n",
    );
    assert!(w.is_empty(), "{w:?}");
    assert_eq!(s.others.len(), 1, "{:?}", s.others);
    let o = &s.others[0];
    assert_eq!(
        (o.kind.as_str(), o.metadata.name.as_str()),
        ("Challenge", "rio-wildcard-1178074089-0")
    );
    assert_eq!(o.metadata.ns(), "rio-system");
    assert_eq!(o.metadata.finalizers, ["finalizer.acme.cert-manager.io"]);
    assert_eq!(
        o.metadata.deletion_timestamp.map(|t| t.to_string()),
        Some("2019-05-23T01:02:38Z".to_string())
    );
}

/// `kubectl get events -A | grep …` without its header (tests/fixtures/wild 715).
#[test]
fn event_rows_without_their_header_are_events() {
    let (s, w) = paste(
        "keda        85s         Normal    Evicted      pod/keda-operator-688bc9b887-7t4gd      Evicted pod: node worker-qa-czn28/ip-10-115-195-50.us-east-2.compute.internal drifted\n",
    );
    assert!(w.is_empty(), "{w:?}");
    let e = &s.events[0];
    assert_eq!(
        (
            e.reason.as_str(),
            e.involved.kind.as_str(),
            e.involved.name.as_str(),
            e.namespace.as_str()
        ),
        ("Evicted", "Pod", "keda-operator-688bc9b887-7t4gd", "keda")
    );
    assert!(
        e.message.starts_with("Evicted pod: node worker-qa-czn28/"),
        "{}",
        e.message
    );
}

/// Events alone (tests/fixtures/wild 962): a liveness kill is a restart of the container.
#[test]
fn a_liveness_kill_event_is_a_restart() {
    let (s, _) = paste(
        "  Warning  Unhealthy  79s (x3 over 85s)  kubelet  Liveness probe failed: Get \"http://10.0.7.120:8888/healthz\": dial tcp 10.0.7.120:8888: connect: connection refused\n  Normal   Killing    79s                kubelet  Container haproxy failed liveness probe, will be restarted\n",
    );
    assert_eq!(s.pods.len(), 1);
    let cs = &s.pods[0].status.container_statuses[0];
    assert_eq!((cs.name.as_str(), cs.restart_count), ("haproxy", 1));
    assert!(cs.state.running.is_some());
}

/// Prompts after a host name (`docker1.node ➜  kubectl …`, `› kubectl …`) start a command.
#[test]
fn a_prompt_after_a_host_name_starts_a_command() {
    for prompt in ["›", "docker1.node ➜ ", "host ❯"] {
        let (s, _) = paste(&format!(
            "{prompt} kubectl describe pod web-1 -n shop\n  Warning  BackOff  10s (x4 over 1m)  kubelet  Back-off restarting failed container\n"
        ));
        let e = &s.events[0];
        assert_eq!(
            (e.namespace.as_str(), e.involved.name.as_str()),
            ("shop", "web-1"),
            "{prompt}"
        );
    }
}

/// A stanza whose fields do not say its kind, after the command that named it (kubevirt issue
/// 1491: `kubectl get ns kubevirt -o yaml | grep -2 finalizers:`): that namespace, not an
/// invented pod.
#[test]
fn a_stanza_is_of_the_kind_its_command_named() {
    let (s, _) = paste(
        "root@nuc1:~# kubectl get ns kubevirt -o yaml | grep -2 finalizers:\n  uid: 42b10381-5e15-4b71-9065-06219f74dd83\nspec:\n  finalizers:\n  - kubernetes\nstatus:\n",
    );
    assert!(s.pods.is_empty(), "{:?}", s.pods);
    let names: Vec<&str> = s
        .namespaces
        .iter()
        .map(|n| n.metadata.name.as_str())
        .collect();
    assert_eq!(names, ["kubevirt"]);
}

/// A row's `Init:…` STATUS is its init container's state, and a row's `Error` says how the
/// container ended but not with which code: none is invented (`Completed` is 0 by definition).
#[test]
fn init_rows_make_an_init_container_and_error_rows_no_exit_code() {
    let (s, _) = paste(
        "NAME        READY   STATUS                  RESTARTS   AGE\nweb-1       0/1     Init:CrashLoopBackOff   5          3m\nweb-2       0/1     Init:Error              2          3m\nweb-3       0/1     Init:0/2                0          3m\nweb-4       0/1     Error                   4          3m\nweb-5       0/1     Completed               4          3m\n",
    );
    let pod = |n: &str| s.pods.iter().find(|p| p.metadata.name == n).unwrap();
    let init = |n: &str| &pod(n).status.init_container_statuses[0];
    assert_eq!(
        init("web-1").state.waiting.as_ref().unwrap().reason,
        "CrashLoopBackOff"
    );
    assert_eq!(init("web-1").restart_count, 5);
    let t = init("web-2").state.terminated.as_ref().unwrap();
    assert_eq!((t.reason.as_str(), t.exit_code), ("Error", None));
    assert!(init("web-3").state.running.is_some());
    // The app container waits for the init containers.
    assert_eq!(
        pod("web-1").status.container_statuses[0]
            .state
            .waiting
            .as_ref()
            .unwrap()
            .reason,
        "PodInitializing"
    );
    let last = |n: &str| {
        pod(n).status.container_statuses[0]
            .last_state
            .terminated
            .clone()
            .unwrap()
    };
    assert_eq!(last("web-4").exit_code, None);
    assert_eq!(last("web-5").exit_code, Some(0));
}

/// A document that flattened a describe's indentation (docs-csm's Troubleshoot_Large_Image.md:
/// `Reason:` at the column of `State:`, the container's name at the column of its section):
/// the state's details are still the state's.
#[test]
fn a_state_whose_details_lost_their_indentation() {
    let text = "Name:         cray-ims-create-8h47r\nNamespace:    ims\nInit Containers:\nbuild-image:\n    Image:          builder:1.6.0\n    State:          Terminated\n    Reason:       OOMKilled\n    Exit Code:    0\n    Started:      Tue, 14 Nov 2023 23:31:39 +0000\n    Finished:     Tue, 14 Nov 2023 23:46:52 +0000\n    Ready:          False\n";
    let (s, _) = paste(text);
    assert_eq!(s.pods.len(), 1);
    // The container, out of its section's indentation, is read as a fragment of the pod.
    let st = &s.pods[0].status.container_statuses;
    assert_eq!(st.len(), 1, "{:?}", s.pods[0].status);
    let t = st[0].state.terminated.as_ref().unwrap();
    assert_eq!((t.reason.as_str(), t.exit_code), ("OOMKilled", Some(0)));
    assert!(st[0].last_state.terminated.is_none());
    // Indented as kubectl prints it, nothing changes; a key after the details ends them.
    let text = "Name:         api-1\nContainers:\n  api:\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n    Reason:         Error\n    Exit Code:      1\n    Ready:          False\n    Message:        not a state's\n";
    let (s, _) = paste(text);
    let c = &s.pods[0].status.container_statuses[0];
    assert_eq!(c.state.waiting.as_ref().unwrap().reason, "CrashLoopBackOff");
    let t = c.last_state.terminated.as_ref().unwrap();
    assert_eq!(
        (t.reason.as_str(), t.exit_code, t.message.as_str()),
        ("Error", Some(1), "")
    );
}

/// `kubectl logs` of a container waiting on its pull gets the kubelet's words for the waiting
/// reason (orbstack/orbstack#768), and the kubelet's `Error: ImagePullBackOff` event alone:
/// both are a container waiting on its pull, not an application's error line.
#[test]
fn a_waiting_reason_in_words_is_the_container_waiting() {
    let (s, w) = paste(
        "Error from server (BadRequest): container \"server\" in pod \"server\" is waiting to start: trying and failing to pull image\n",
    );
    let m = &s.pasted_messages[0];
    assert_eq!(m.cause, kubewhy_model::Cause::ImageNotFound);
    assert_eq!(m.object.as_ref().unwrap().name, "server");
    // Read, so not "ignored".
    assert!(w.is_empty(), "{w:?}");
    let (s, _) = paste("Error: ErrImagePull\n");
    let w = s.pods[0].status.container_statuses[0]
        .state
        .waiting
        .as_ref();
    assert_eq!(w.unwrap().reason, "ErrImagePull");
    assert!(s.pasted_messages.is_empty(), "{:?}", s.pasted_messages);
}

/// An Events section cut down to its From and Message columns (openfaas/faas-netes' gateway):
/// the messages are the pod's events.
#[test]
fn events_with_only_their_source_column() {
    let (s, w) = paste(
        "$ kubectl -n openfaas describe pod gateway-1\n\nkubelet            Started container gateway\nkubelet            Back-off restarting failed container gateway in pod gateway-1_openfaas(62b6f3e8)\nkubelet            Readiness probe failed: HTTP probe failed with statuscode: 502\n",
    );
    assert_eq!(s.pods.len(), 1, "{w:?}");
    assert_eq!(s.pods[0].metadata.name, "gateway-1");
    let reasons: Vec<&str> = s.events.iter().map(|e| e.reason.as_str()).collect();
    assert!(reasons.contains(&"BackOff"), "{reasons:?}");
    assert!(reasons.contains(&"Unhealthy"), "{reasons:?}");
}

/// A status stanza whose conditions are no pod's (kubevirt/kubevirt#18724's
/// VirtualMachineBackup) is not made a pod: the paste does not say its kind.
#[test]
fn a_status_of_another_kind_is_no_pod() {
    let (s, w) = paste(
        "status:\n  conditions:\n  - reason: BackupTracker vmbt-x does not exist\n    status: \"True\"\n    type: Initializing\n  - reason: Backup is being deleted\n    status: \"True\"\n    type: Deleting\n",
    );
    assert!(s.pods.is_empty(), "{:?}", s.pods);
    assert!(
        w[0].contains("(Initializing, Deleting) are no pod's"),
        "{w:?}"
    );
    // A pod's own conditions still make the pod.
    let (s, _) = paste("status:\n  conditions:\n  - type: Ready\n    status: \"False\"\n");
    assert_eq!(s.pods.len(), 1);
}

/// `oc debug` / `kubectl debug` warning that its container waits (IBM Cloud's OpenShift
/// documents, wild 2615): the kubelet's message after the envelope is the pod's event.
#[test]
fn a_debug_commands_waiting_warning_carries_the_kubelets_message() {
    let (s, w) = paste(
        "oc debug node/<node-name>\nStarting pod/1024104-debug ...\nTo use host binaries, run `chroot /host`\n\nwarning: Container container-00 is unable to start due to an error: Back-off pulling image \"quay.io/openshift-release-dev/ocp-v4.0-art-dev@sha256:7dd7a3a1be7009629c709e6c88a1551d471aba9bf3deb873bc5f4d814675edfe\"\n",
    );
    let e = s
        .events
        .iter()
        .find(|e| e.reason == "BackOff")
        .unwrap_or_else(|| panic!("{w:?}"));
    assert!(e.message.starts_with("Back-off pulling image \"quay.io/"));
    assert_eq!(s.pods.len(), 1, "{w:?}");
}
