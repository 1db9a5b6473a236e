//! What people paste, for every scenario captured from the real cluster (`scripts/capture.sh`
//! stores tests/fixtures/real/<scenario>/paste/: `describe`, `get events` and `get pods -o wide`
//! from the cluster's kubectl 1.20 and from a current kubectl, `get nodes` and `describe nodes`
//! (pasted with the describe), and the `status:` stanza of the object at fault), plus hand-made
//! damage: a describe cut before its Events, a describe cut in
//! half, an events table whose spacing a chat client collapsed.
//!
//! Each paste must give either the scenario's own cause, or an honest "cannot tell" (the object
//! listed as unexplained with the command that would settle it, or a finding below high
//! confidence that says what the paste lacks), or nothing when the paste shows nothing unhealthy
//! (a healthy pod, one pending for seconds). The outcome of every case is recorded in
//! tests/fixtures/real/paste-expected.json; `KUBEWHY_BLESS=1` rewrites it after a deliberate
//! change, to be reviewed in the diff.

use assert_cmd::Command;
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

const UNKNOWN: &str = "(unknown)";

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/real")
}

/// The pastes of one scenario: captured files and the damaged variants made from them.
fn pastes(dir: &Path) -> Vec<(String, String)> {
    let paste = dir.join("paste");
    let mut out = Vec::new();
    for name in [
        "describe-1.20.txt",
        "describe-new.txt",
        "events-1.20.txt",
        "events-new.txt",
        "pods-1.20.txt",
        "pods-new.txt",
        "status.yaml",
    ] {
        if let Ok(text) = std::fs::read_to_string(paste.join(name)) {
            out.push((name.to_string(), text));
        }
    }
    let get = |n: &str| std::fs::read_to_string(paste.join(n)).unwrap_or_default();
    let describe = get("describe-1.20.txt");
    if let Some(i) = describe.find("\nEvents:") {
        out.push((
            "describe-cut-before-events".into(),
            describe[..i + 1].into(),
        ));
    }
    let new = get("describe-new.txt");
    let lines: Vec<&str> = new.lines().collect();
    out.push((
        "describe-half".into(),
        lines[..lines.len() / 2].join("\n") + "\n",
    ));
    // With the nodes beside them, as in a thorough ticket.
    for label in ["1.20", "new"] {
        let nodes = get(&format!("nodes-{label}.txt"));
        if !nodes.is_empty() {
            out.push((
                format!("describe-{label}+nodes"),
                get(&format!("describe-{label}.txt")) + &nodes,
            ));
        }
    }
    let events = get("events-1.20.txt");
    let collapsed: String = events
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" ") + "\n")
        .collect();
    out.push(("events-collapsed".into(), collapsed));
    out
}

/// What kubewhy says about the scenario's namespace (or the unnamed objects of a paste: what a
/// paste does not name is left out of JSON, its namespace or the object itself).
fn outcome(v: &Value, ns: &str) -> (String, Vec<(String, String)>) {
    let about = |o: &Value| {
        let cluster_scoped = matches!(
            o["kind"].as_str(),
            Some("Node" | "Namespace" | "PersistentVolume" | "StorageClass" | "APIService")
        );
        o["namespace"] == ns
            || (o["namespace"].is_null() && !cluster_scoped)
            || (o["kind"] == "Namespace" && (o["name"] == ns || o["name"].is_null()))
    };
    let findings: Vec<(String, String)> = v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            let objects = f["objects"].as_array().unwrap();
            objects.is_empty() || objects.iter().any(about)
        })
        .map(|f| {
            (
                f["cause"].as_str().unwrap().to_string(),
                f["confidence"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    if !findings.is_empty() {
        let s: Vec<String> = findings.iter().map(|(c, k)| format!("{c} ({k})")).collect();
        return (s.join(", "), findings);
    }
    let unexplained: Vec<String> = v["unexplained"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| about(&u["object"]))
        .map(|u| format!("cannot tell: {}", u["next"].as_str().unwrap()))
        .collect();
    match unexplained.first() {
        Some(u) => (u.clone(), Vec::new()),
        None => ("nothing".into(), Vec::new()),
    }
}

#[test]
fn every_paste_gives_its_cause_or_an_honest_cannot_tell() {
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root())
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("paste").is_dir())
        .collect();
    dirs.sort();
    assert!(
        dirs.len() >= 20,
        "captured scenarios with pastes: {}",
        dirs.len()
    );
    let mut got: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    let mut dishonest = Vec::new();
    for dir in &dirs {
        let expected: Value =
            serde_json::from_str(&std::fs::read_to_string(dir.join("expected.json")).unwrap())
                .unwrap();
        let scenario = dir.file_name().unwrap().to_string_lossy().to_string();
        let ns = expected["namespace"].as_str().unwrap();
        let cause = expected["cause"].as_str().unwrap();
        for (name, text) in pastes(dir) {
            let out = Command::cargo_bin("kubewhy")
                .unwrap()
                .args(["scan", "-o", "json", "--from", "-", "--now"])
                .arg(expected["now"].as_str().unwrap())
                .write_stdin(text)
                .output()
                .unwrap();
            assert!(
                out.status.code().is_some_and(|c| c <= 1),
                "{scenario}/{name}: kubewhy failed: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let v: Value = serde_json::from_slice(&out.stdout).unwrap_or_else(|e| {
                panic!(
                    "{scenario}/{name}: {e}: {}",
                    String::from_utf8_lossy(&out.stderr)
                )
            });
            // What the paste does not name is said in words, never as a placeholder.
            if String::from_utf8_lossy(&out.stdout).contains(UNKNOWN) {
                dishonest.push(format!("{scenario}/{name}: the report says {UNKNOWN}"));
            }
            let problems = v["inputProblems"].as_array().unwrap();
            // kubectl's own output is read whole; only damaged pastes may leave lines unread.
            if !name.starts_with("describe-half") && !problems.is_empty() {
                dishonest.push(format!("{scenario}/{name}: input problems {problems:?}"));
            }
            let (said, findings) = outcome(&v, ns);
            // A cause other than the scenario's is honest only when it is not claimed with
            // high confidence.
            for (c, conf) in &findings {
                if c != cause && conf == "high" {
                    dishonest.push(format!("{scenario}/{name}: says {c} (high), not {cause}"));
                }
            }
            got.entry(scenario.clone()).or_default().insert(name, said);
        }
    }
    let file = root().join("paste-expected.json");
    let text = serde_json::to_string_pretty(&json!(got)).unwrap() + "\n";
    if std::env::var("KUBEWHY_BLESS").is_ok() {
        std::fs::write(&file, &text).unwrap();
    }
    assert!(dishonest.is_empty(), "{}", dishonest.join("\n"));
    let want: Value = serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    let mut diff = Vec::new();
    for (scenario, cases) in &got {
        for (name, said) in cases {
            let w = &want[scenario][name];
            if w != said {
                diff.push(format!(
                    "{scenario}/{name}: expected {w}, kubewhy said {said:?}"
                ));
            }
        }
    }
    assert!(diff.is_empty(), "{}", diff.join("\n"));
}

#[test]
fn text_kubewhy_does_not_know_is_a_note_not_a_failure() {
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .args(["scan", "--from", "-"])
        .write_stdin("hello\nthis is a chat message, not kubectl output\n\x1b]0;title\x07\n")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("<stdin>:1:1: lines 1-2: not kubectl output"),
        "{stderr}"
    );
    assert!(
        stderr.contains("nothing in the paste was recognised"),
        "{stderr}"
    );
    assert!(
        !stderr.contains('\x1b'),
        "an escape sequence reached the terminal"
    );
}

/// The JSON report of `text` pasted on stdin.
fn scan_json(text: &str) -> Value {
    let out = Command::cargo_bin("kubewhy")
        .unwrap()
        .args(["scan", "--from", "-", "-o", "json"])
        .write_stdin(text.to_string())
        .output()
        .unwrap();
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The causes of `text`'s findings, first finding first.
fn causes_of(text: &str) -> Vec<String> {
    causes(&scan_json(text))
}

/// The causes of `text`'s findings, asserting the first is `cause`.
fn first_is(text: &str, cause: &str) -> Vec<String> {
    let got = causes_of(text);
    assert_eq!(got.first().map(String::as_str), Some(cause), "{got:?}");
    got
}

/// The causes of a JSON report's findings, first finding first.
fn causes(v: &Value) -> Vec<String> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["cause"].as_str().unwrap().to_string())
        .collect()
}

/// A node's OOM event (`System OOM encountered, victim process: …`) alone says a process was
/// killed for memory; pasted beside a pod whose containers show no OOM kill, it is about
/// another process and not that pod's cause (seen in `describe nodes` pasted with a pod).
#[test]
fn a_node_oom_event_is_not_the_cause_of_a_pod_that_shows_no_oom() {
    let oom = "  Warning  SystemOOM  16m  kubelet  System OOM encountered, victim process: tail, pid: 4814\n";
    assert_eq!(causes_of(oom), ["oom-killed"]);
    let pod = "Name:         quitter\nNamespace:    shop\nStatus:       Running\nContainers:\n  main:\n    State:          Waiting\n      Reason:       CrashLoopBackOff\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n    Ready:          False\n    Restart Count:  5\n";
    let causes = causes_of(&format!("{pod}{oom}"));
    assert!(!causes.iter().any(|c| c == "oom-killed"), "{causes:?}");
}

/// Both probes failing in one pasted Events section, cut with `......` (chaos-mesh/website's
/// StressChaos post, wild 2438): the liveness probe's failure restarts the container, so it is
/// the first finding, whichever line came first.
#[test]
fn a_failing_liveness_probe_comes_before_a_failing_readiness_probe() {
    let text = "~ kubectl describe pods -n hello-kubernetes\n......\n    Last State:     Terminated\n      Reason:       Error\n      Exit Code:    1\n......\nEvents:\n  Type     Reason     Age                  From               Message\n  ----     ------     ----                 ----               -------\n......\n  Warning  Unhealthy  10m (x4 over 16m)    kubelet            Readiness probe failed: Get \"http://10.244.1.19:8080/\": context deadline exceeded (Client.Timeout exceeded while awaiting headers)\n  Normal   Killing    10m (x2 over 16m)    kubelet            Container hello-kubernetes failed liveness probe, will be restarted\n......\n";
    let causes = first_is(text, "liveness-probe-failing");
    assert!(
        causes.iter().any(|c| c == "readiness-probe-failing"),
        "{causes:?}"
    );
}

/// A `kubectl drain` session (KubeVirt's eviction documents, wild 2558; an Istio drain, wild
/// 848): a refused pod that the drain evicted in the end is gone by that eviction; a refused pod
/// that it never evicted keeps the drain hanging, whatever other pods it evicted beside it.
#[test]
fn a_drain_says_gone_when_the_refused_pod_was_evicted_and_blocked_when_it_never_was() {
    let refused = "evicting pod default/virt-launcher-vm-cirros-wn5v4\nerror when evicting pods/\"virt-launcher-vm-cirros-wn5v4\" -n \"default\" (will retry after 5s): Cannot evict pod as it would violate the pod's disruption budget.\n";
    let evicted = format!(
        "{refused}evicting pod default/virt-launcher-vm-cirros-wn5v4\npod/virt-launcher-vm-cirros-wn5v4 evicted\nnode/node01 drained\n"
    );
    first_is(&evicted, "evicted-api");
    // The eviction quoted, as an issue's prose quotes it.
    let quoted = format!("{refused}\"pod/virt-launcher-vm-cirros-wn5v4 evicted\"\n");
    first_is(&quoted, "evicted-api");
    // Another pod evicted first, the refused one never: the budget is why the drain hangs.
    let blocked = format!("pod/metrics-server-67c658944b-2vrf5 evicted\n{refused}{refused}");
    let got = first_is(&blocked, "disruption-budget-blocking");
    assert!(got.iter().any(|c| c == "evicted-api"), "{got:?}");
}

/// A namespace's deletion condition whose message is wrapped by YAML (cozystack#1674, wild
/// 2563): the content remains because an aggregated API answers a list with no list, so the
/// API's fault comes first.
#[test]
fn a_namespace_whose_content_an_api_cannot_list_is_the_apis_fault() {
    let text = "  - lastTransitionTime: \"2025-12-01T12:51:16Z\"\n    message: 'Failed to delete all resource types, 25 remaining: content is not a\n      list: []unstructured.Unstructured, content is not a list: []unstructured.Unstructured,\n";
    assert_eq!(
        causes_of(text),
        ["apiservice-unavailable", "ns-resources-remaining"]
    );
}

/// A `get pods` row in ImagePullBackOff shows no image (IBM Cloud's marketplace page, wild
/// 2669): the finding names no image and guesses no registry.
#[test]
fn a_rows_pull_back_off_names_no_image_it_does_not_show() {
    let v = scan_json(
        "NAME                        READY   STATUS             RESTARTS   AGE\ncertified-operators-48dsc   0/1     ImagePullBackOff   0          4h6m\n",
    );
    let f = &v["findings"][0];
    assert_eq!(f["cause"], "image-not-found");
    let summary = f["summary"].as_str().unwrap();
    assert!(summary.starts_with("The image of "), "{summary}");
    let all = serde_json::to_string(f).unwrap();
    assert!(!all.contains("Image \\\"\\\""), "{all}");
    assert!(!all.contains("registry docker.io"), "{all}");
    assert!(!all.contains("docker:// "), "{all}");
}

/// kubectl 1.2's Events rows (`{kubelet HOST}` as From, `containers{x}` as the subobject),
/// copied with their tabs made spaces so that no column lines up with its header
/// (huweihuang/kubernetes-notes, wild 2704): the rows are read by their shape, the kubelet's
/// old `Backoff` is a crash loop, and the command's `--namespace=<NAMESPACE>` names no
/// namespace.
#[test]
fn kubectl_1_2_event_rows_are_read_by_their_shape() {
    let text = "kubectl describe pod <PodName> --namespace=<NAMESPACE>\n\nEvents:\n  FirstSeen LastSeen    Count   From            SubobjectPath       Reason      Message\n  ───────── ────────    ─────   ────            ─────────────       ──────      ───────\n  7m        7m      1   {scheduler }                    Scheduled   Successfully assigned yangsc-1-0-0-index0 to 10.8.216.19\n  7m        7m      1   {kubelet 10.8.216.19}   containers{yangsc0} Started     Started with docker id 3f9f82abb145\n  6m        7s      34  {kubelet 10.8.216.19}   containers{yangsc0} Backoff     Back-off restarting failed docker container\n";
    let v = scan_json(text);
    let unexplained = &v["unexplained"][0];
    assert_eq!(unexplained["status"], "CrashLoopBackOff", "{v}");
    assert!(
        unexplained["reason"]
            .as_str()
            .unwrap()
            .starts_with("container yangsc0 keeps exiting (restarted 34 times)"),
        "{v}"
    );
    let all = v.to_string();
    assert!(!all.contains("<NAMESPACE>"), "{all}");
    assert!(v["inputProblems"].as_array().unwrap().is_empty(), "{all}");
}

/// A `get pods` row whose name is partly redacted (`pvc-<vol-id>-jiva-rep-1`) is still a pod
/// in CrashLoopBackOff (unnamed); the line after it is that container's output, not a volume failure
/// read by its words (an OpenEBS Jiva replica, wild 2683).
#[test]
fn a_redacted_rows_crash_loop_owns_the_line_after_it() {
    let text = "openebs  pvc-<vol-id>-jiva-rep-1   0/1   CrashLoopBackOff   82 (70s ago)   14d\n\nError link openebs/volume-head-017.img openebs/volume-snap-000.img: no such file or directory during open\n";
    let v = scan_json(text);
    assert_eq!(causes(&v), ["app-exit-error"], "{v}");
    // A pod the paste does not name is absent from `objects` (never a made-up name).
    assert_eq!(v["findings"][0]["objects"], serde_json::json!([]), "{v}");
}

/// The taint manager deleting pods of a node that stopped posting its status (kubernetes
/// #101407, wild 2705): the pods are gone by the taint's eviction, the node's state follows.
#[test]
fn pods_deleted_by_the_taint_manager_are_gone_by_that_eviction() {
    let text = "conditions:\n  - lastHeartbeatTime: \"2021-04-23T10:24:37Z\"\n    lastTransitionTime: \"2021-04-23T10:26:09Z\"\n    message: Kubelet stopped posting node status.\n    reason: NodeStatusUnknown\n    status: Unknown\n    type: Ready\n\nI0423 18:26:19.056074       1 taint_manager.go:106] NoExecuteTaintManager is deleting Pod: default/pause-deployment-5dbc495dbb-j8jlj\n";
    assert_eq!(causes_of(text), ["evicted-taint", "node-not-ready"]);
}

/// The kubelet refusing a pod because it could not write its device-plugin checkpoint on a
/// full disk (imroc's guide, wild 2698): the node's disk, not an admission rule.
#[test]
fn a_refusal_for_a_full_kubelet_disk_is_node_pressure() {
    let text = "  Warning  UnexpectedAdmissionError  44m                 kubelet, 172.22.0.44  Update plugin resources failed due to failed to write checkpoint file \"kubelet_internal_checkpoint\": write /var/lib/kubelet/device-plugins/.728425055: no space left on device, which is unexpected.\n";
    let v = scan_json(text);
    let f = &v["findings"][0];
    assert_eq!(f["cause"], "node-pressure", "{v}");
    let all = f.to_string();
    assert!(all.contains("kubectl describe node NODE"), "{all}");
    assert!(!all.contains("node its node"), "{all}");
}

/// A probe that cannot even connect (`connect: invalid argument`: the kernel's answer for a
/// blackhole route, the pod's route gone from its node after calico-node restarted; pgmac's
/// runbook, wild 2702) is the pod network's fault, not the application's.
#[test]
fn a_probe_refused_by_a_blackhole_route_is_the_pod_network() {
    let text = "Liveness probe failed: Get \"http://10.1.73.89:8080/\": dial tcp 10.1.73.89:8080: connect: invalid argument\n";
    assert_eq!(causes_of(text), ["pod-network-broken"]);
    // With the kubelet's Killing event beside it, the crash check judges the liveness probe;
    // the probe's own failure still says why it fails, and comes first.
    let text = format!("{text}Container ... failed liveness probe, will be restarted\n");
    assert_eq!(
        causes_of(&text),
        ["pod-network-broken", "liveness-probe-failing"]
    );
}

/// A pod that ran before (8 restarts) and now waits in CreateContainerConfigError because the
/// kubelet, upgraded before its API server, cannot build its environment (Karim Elatov's
/// kubespray upgrade, wild 2761): judged by its waiting state and the kubelet's `Failed` event,
/// beside another pod's rows.
#[test]
fn a_restarted_pod_that_cannot_be_configured_is_a_config_error() {
    let text = "> k get po -A | grep cili\nkube-system      cilium-4lktc                                                   0/1     Completed                         40             210d\nkube-system      cilium-operator-5c844c548c-5j4kd                               0/1     CreateContainerConfigError        8 (51m ago)    118d\n\n$ k -n kube-system describe pod cilium-operator-5c844c548c-5j4kd\n...\nWarning  Failed          45m (x10 over 48m)     kubelet  Error: services have not yet been read at least once, cannot construct envvars\n";
    let v = scan_json(text);
    let f = &v["findings"][0];
    assert_eq!(f["cause"], "config-error", "{v}");
    assert_eq!(f["objects"][0]["name"], "cilium-operator-5c844c548c-5j4kd");
    assert_eq!(v["summary"]["unexplained"], 0, "{v}");
}

/// containerd cannot delete a task whose rootfs is still mounted (`failed rootfs umount`: runsc
/// left the sandboxed process running; google/gvisor#9834, wild 2825): the runtime does not
/// stop the container, not a volume of the pod.
#[test]
fn a_rootfs_the_runtime_cannot_unmount_is_a_stop_failure() {
    let text = "Jan 05 18:27:20 time=\"2024-01-05T18:27:20.306682270Z\" level=warning msg=\"failed to cleanup rootfs mount\" error=\"failed to unmount target /run/containerd/io.containerd.runtime.v2.task/k8s.io/b8206ab1e1639d030523c7057b398796cc6b9e4c16ba514157fd8fa228160654/rootfs: device or resource busy\" runtime=io.containerd.runsc.v1\nJan 05 18:27:20 time=\"2024-01-05T18:27:20.307404351Z\" level=error msg=\"Failed to handle backOff event container_id:\\\"b8206ab1e1639d030523c7057b398796cc6b9e4c16ba514157fd8fa228160654\\\" exit_status:143\" error=\"failed to handle container TaskExit event: failed to stop container: failed to delete task: failed rootfs umount: failed to unmount target /run/containerd/io.containerd.runtime.v2.task/k8s.io/b8206ab1e1639d030523c7057b398796cc6b9e4c16ba514157fd8fa228160654/rootfs: device or resource busy: unknown\"\n";
    assert_eq!(causes_of(text), ["container-stop-timeout"]);
}

/// A program's own request refused because a webhook cannot be called, as its log's error
/// (`err="Internal error occurred: failed calling webhook …"`: kube-ovn-cni updating its Node
/// through capsule's node webhook without endpoints, wild 2830; volcano's scheduler creating
/// its default queue, wild 2529): what it needs does not answer. The controllers' FailedCreate
/// of a pod stays the pod's creation refused.
#[test]
fn a_webhook_failure_in_a_programs_own_log_is_its_dependency() {
    let text = "\"failed to initialize ovn chassis annotation\" err=\"Internal error occurred: failed calling webhook \\\"nodes.capsule.clastix.io\\\": failed to call webhook: Post \\\"https://capsule-webhook-service.caas.svc:443/nodes?timeout=30s\\\": no endpoints available for service \\\"capsule-webhook-service\\\"\"\n";
    assert_eq!(causes_of(text), ["dependency-unreachable"]);
    let text = "Warning  FailedCreate  2m  replicaset-controller  Error creating: Internal error occurred: failed calling webhook \"sidecar-injector.istio.io\": failed to call webhook: Post \"https://istiod.istio-system.svc:443/inject?timeout=10s\": no endpoints available for service \"istiod\"\n";
    first_is(text, "pod-creation-rejected");
}

/// The scheduler's event on its victim as kube-scheduler wrote it before 1.16 (`Preempted` with
/// `by NS/NAME on node X`), in a `get events` table about one pod (an Arena MPIJob worker
/// preempted by a higher-priority job on a one-GPU cluster, wild 2849): the pod was preempted,
/// by the pod the event names.
#[test]
fn an_old_schedulers_preempted_event_says_who_preempted_the_pod() {
    let text = "$ kubectl get events --field-selector involvedObject.name=medium-worker-0\nLAST SEEN   TYPE     REASON      OBJECT                MESSAGE\n15m         Normal   Scheduled   pod/medium-worker-0   Successfully assigned default/medium-worker-0 to 192.168.0.23\n14m         Normal   Started     pod/medium-worker-0   Started container mpi\n2m32s       Normal   Preempted   pod/medium-worker-0   by default/critical-worker-0 on node 192.168.0.23\n2m32s       Normal   Killing     pod/medium-worker-0   Stopping container mpi\n";
    let v = scan_json(text);
    let f = &v["findings"][0];
    assert_eq!(f["cause"], "preempted", "{v}");
    assert_eq!(f["objects"][0]["name"], "medium-worker-0");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("preempted by default/critical-worker-0"),
        "{f}"
    );
}

/// A `get pods -w` during a rolling update (gdha's pi-stories, k3s, wild 2852): the old
/// template hash's pods Terminating while younger pods of another hash of the same Deployment
/// come up are its rollout; a `get pods` after an autoscaler lowered the replicas (wild 2699:
/// the youngest pod Terminating, nothing younger replacing it) is a scale-down; a Terminating
/// pod that a younger pod of its own hash replaced is neither.
#[test]
fn pods_their_replicaset_removes_are_read_from_the_rows_beside_them() {
    let rollout = "$ kubectl get pods -n celsius -w\nNAME                       READY   STATUS              RESTARTS       AGE\ncelsius-6ffb4f4bcc-qzt8w   1/1     Running             3 (134m ago)   14d\ncelsius-6ffb4f4bcc-jl579   1/1     Terminating         3 (135m ago)   14d\ncelsius-779654f68d-9lmq8   0/1     ContainerCreating   0              10s\ncelsius-779654f68d-9lmq8   1/1     Running             0              50s\ncelsius-6ffb4f4bcc-qzt8w   1/1     Terminating         3 (135m ago)   14d\n";
    let v = scan_json(rollout);
    let f = &v["findings"][0];
    assert_eq!(f["cause"], "rollout-replaced", "{v}");
    assert_eq!(f["severity"], "info", "{f}");
    assert!(
        f["summary"]
            .as_str()
            .unwrap()
            .contains("ReplicaSet celsius-779654f68d's pods replace celsius-6ffb4f4bcc's"),
        "{f}"
    );
    assert_eq!(f["objects"].as_array().unwrap().len(), 2, "{f}");
    let scaled = "$ kubectl get pods\nNAME                     READY   STATUS        RESTARTS   AGE\nmyapp-64bf6764c5-45qwj   0/1     Terminating   0          7m1s\nmyapp-64bf6764c5-72crv   1/1     Running       0          20m\nmyapp-64bf6764c5-gmz6c   1/1     Running       0          8m1s\n";
    let v = scan_json(scaled);
    assert_eq!(v["findings"][0]["cause"], "scaled-down", "{v}");
    assert_eq!(
        v["findings"][0]["objects"][0]["name"],
        "myapp-64bf6764c5-45qwj"
    );
    let replaced = "$ kubectl get pods\nNAME                     READY   STATUS        RESTARTS   AGE\nmyapp-64bf6764c5-45qwj   0/1     Terminating   0          3d\nmyapp-64bf6764c5-72crv   1/1     Running       0          20m\n";
    let got = causes_of(replaced);
    assert!(
        !got.iter()
            .any(|c| c == "scaled-down" || c == "rollout-replaced"),
        "{got:?}"
    );
}

/// containerd finding no variant of the image for the node (`no match for platform in
/// manifest`: a Linux-only upgrade image pulled on RKE2's Windows node, wild 2857) is the
/// image's platform, though the gRPC code says NotFound.
#[test]
fn no_manifest_for_the_nodes_platform_is_a_platform_mismatch() {
    let text = "$ kubctl describe node ***-dev-win\nKubelet Version: v1.22.17\n\nErrImagePull (rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/rancher/rke2-upgrade:v1.22.17-rke2r1\": no match for platform in manifest: not found)\n";
    first_is(text, "image-platform-mismatch");
}

/// Istio's sidecar draining on termination (EXIT_ON_ZERO_ACTIVE_CONNECTIONS: `There are still
/// 1 active connections`, Envoy `DRAINING`; wild 2858) is a pod still inside its grace period,
/// said as information, not an error.
#[test]
fn a_sidecar_draining_its_connections_is_a_pod_still_stopping() {
    let text = "2023-12-10T13:59:07.027187Z\twarn\tEnvoy proxy is NOT ready: server is not live, current state is: DRAINING\n2023-12-10T13:59:07.924816Z\tinfo\tThere are still 1 active connections\n";
    let v = scan_json(text);
    assert_eq!(causes(&v), ["grace-period-pending"], "{v}");
    assert_eq!(v["findings"][0]["severity"], "info");
}

/// `file` showing the image's binary built for x86-64 where the server's `kubectl version` says
/// linux/arm64 (the client's own platform does not count; redis-operator's arm64 tag, wild
/// 2861) is a binary the node cannot run. The client's platform alone says nothing.
#[test]
fn a_binary_of_another_architecture_than_the_clusters_is_a_platform_mismatch() {
    let version = |server: &str| {
        format!(
            "{{\n  \"clientVersion\": {{\n    \"gitVersion\": \"v1.25.4\",\n    \"platform\": \"linux/amd64\"\n  }},\n  \"serverVersion\": {{\n    \"gitVersion\": \"v1.26.4+k3s1\",\n    \"platform\": \"linux/{server}\"\n  }}\n}}\n\n$ file manager\nmanager: ELF 64-bit LSB executable, x86-64, version 1 (SYSV), statically linked, stripped\n"
        )
    };
    let v = scan_json(&version("arm64"));
    assert_eq!(causes(&v), ["image-platform-mismatch"], "{v}");
    let all = v["findings"][0].to_string();
    assert!(
        all.contains("an executable for amd64, where the paste's cluster runs arm64"),
        "{all}"
    );
    assert_eq!(causes_of(&version("amd64")), Vec::<String>::new());
}

/// kubectl's own `The connection to the server … was refused` in a container's output (an init
/// container's kubectl under Istio's traffic redirection, wild 2826): the API server does not
/// answer the pod.
#[test]
fn kubectl_refused_inside_a_container_is_a_dependency() {
    let text = "The connection to the server 10.14.0.1:443 was refused - did you specify the right host or port?\n";
    assert_eq!(causes_of(text), ["dependency-unreachable"]);
}

/// Batch 46's node-level wordings, each alone as people paste them: the kubelet refused its
/// node's Lease (a certificate copied from another node, CentaurusInfra/arktos#619), the
/// kubelet skipping every pod because its runtime is down (a hung docker, wild 2888),
/// containerd's CRI plugin that did not load (inotify limits, berops/claudie#1694), and
/// Kubernetes' documented memory.available computed below zero (kubernetes#114332).
#[test]
fn what_keeps_a_node_from_working_is_read_in_its_own_words() {
    first_is(
        "E0825 18:50:05.483424   24491 controller.go:116] failed to ensure node lease exists, will retry in 7s, error: leases.coordination.k8s.io \"arktos-worker-1\" is forbidden: User \"system:node:lab-arktos-vm-1\" cannot get resource \"leases\" in API group \"coordination.k8s.io\" in the namespace \"kube-node-lease\": can only access node lease with the same name as the requesting node\n",
        "node-not-ready",
    );
    first_is(
        "I0715 10:43:28.049240   16315 kubelet.go:1835] skipping pod synchronization - [container runtime is down]\n",
        "node-not-ready",
    );
    first_is(
        "ctr plugin ls -d id==cri\n....\nError:\n    Message: failed to create CRI service: failed to create cni conf monitor for default: failed to create fsnotify watcher: too many open files\n",
        "node-not-ready",
    );
    first_is(
        "memory.capacity_in_bytes   32879017984 (~32Gi)\nmemory.available_in_bytes -37414240256 (-35Gi)\n",
        "node-pressure",
    );
}

/// The kubelet's admission refusals in the words of its resource managers: the Static memory
/// manager finding no NUMA placement (kubernetes#120733), and `get pods`' STATUS `Topology
/// Affinity Error` (kubernetes#83775, a row without its header or AGE).
#[test]
fn the_resource_managers_refusals_are_admission_rejections() {
    first_is(
        "E0918 12:16:32.162481 2865761 memory_manager.go:249] \"Allocate error\" err=\"[memorymanager] failed to find NUMA nodes to extend the current topology hint\"\n",
        "node-admission-rejected",
    );
    first_is(
        "kube-system   kube-dns-b54d5f547-22dks   0/3     Topology Affinity Error   0    \n",
        "node-admission-rejected",
    );
}

/// Karpenter's disruption events (`Disrupting Node: Underutilized`, EKS Auto Mode's
/// consolidation in aws-samples/eks-workshop-v2): the node's pods are evicted through the API;
/// before, the paste had "No problems found".
#[test]
fn karpenters_consolidation_evicts_the_nodes_pods() {
    let text = "3m20s       Normal    DisruptionTerminating            nodeclaim/general-purpose-m6gjm   Disrupting NodeClaim: Underutilized\n3m20s       Normal    DisruptionTerminating            node/i-076a7c45e5f8e5f11          Disrupting Node: Underutilized\n";
    first_is(text, "evicted-api");
}

/// klog's structured error without its header (`app.go: "failed to run" err="…"`: a DRA
/// driver whose registration timed out, kubernetes-sigs/dra-driver-cpu#231) is the program
/// failing, not nothing.
#[test]
fn a_structured_error_line_without_its_header_is_the_program_failing() {
    let text = "draplugin.go: \"Starting\" driver=\"dra.cpu\"\napp.go: \"failed to run\" err=\"driver failed to start: context deadline exceeded\"\n";
    first_is(text, "app-exit-error");
}

/// Pods named NAME-xxxxx without a Deployment's template hash may be a DaemonSet's or a Job's
/// as well as a bare ReplicaSet's: one Terminating beside its siblings (a DaemonSet's pod on
/// one master, deckhouse, wild 2788; a ReplicaSet scaled by hand, wild 2894) is not read as a
/// scale-down.
#[test]
fn pods_without_a_template_hash_are_not_read_as_scaled_down() {
    let daemonset = "root@kube-master-1 ~ # kubectl -n d8-flant-integration get pods -o wide\nNAME            READY   STATUS        RESTARTS   AGE   IP              NODE            NOMINATED NODE   READINESS GATES\npricing-267dt   3/3     Running       0          11h   10.244.15.232   kube-master-2   <none>           <none>\npricing-l796w   3/3     Running       0          11h   10.244.14.175   kube-master-1   <none>           <none>\npricing-snrlj   1/3     Terminating   11         11h   10.244.13.135   kube-master-3   <none>           <none>\n";
    let replicaset = "[root@k8s-master01 ~]# kubectl get pods -n dev\nNAME                       READY   STATUS        RESTARTS   AGE\npc-replicaset-6vmvt   0/1     Terminating   0          118m\npc-replicaset-cftnp   0/1     Terminating   0          4m17s\npc-replicaset-fmb8f   1/1     Running       0          118m\npc-replicaset-snrk2   1/1     Running       0          118m\n";
    for text in [daemonset, replicaset] {
        let got = causes_of(text);
        assert!(!got.iter().any(|c| c == "scaled-down"), "{got:?}");
    }
}

/// The kubelet's own fatal line in a journal (it exits: an XFS I/O error under its certificate,
/// lijiaocn's notes, wild 2886) is a node without its kubelet; the API server's warning that a
/// namespace's running pods violate its new PodSecurity level (aws-samples/eks-workshop-v2,
/// wild 2910) is their replacements refused.
#[test]
fn a_kubelet_that_exits_and_a_stricter_pod_security_level_are_read() {
    first_is(
        "Apr 14 23:53:09 k8s-node-xxx systemd[1]: kubelet.service: main process exited, code=exited, status=255/n/a\nApr 14 23:53:09 k8s-node-xxx kubelet[27036]: F0414 23:53:09.157669   27036 server.go:141] read /var/lib/kubelet/pki/kubelet.crt: input/output error\n",
        "node-not-ready",
    );
    first_is(
        "$ kubectl apply -k ~/environment/eks-workshop/modules/security/pss-psa/restricted-namespace\nWarning: existing pods in namespace \"pss\" violate the new PodSecurity enforce level \"restricted:latest\"\nWarning: pss-d59d88b99-flkgp: allowPrivilegeEscalation != false, runAsNonRoot != true, seccompProfile\nnamespace/pss configured\n",
        "pod-creation-rejected",
    );
}

/// Batch 47's wordings, as people paste them: Volcano's eviction of a preemption victim (a
/// routine Spark driver, pgillet's article), GKE's ha-controller failing a stateful pod over
/// from an unreachable node (kubernetes-engine-samples), the kubelet that cannot start
/// (`failed to construct kubelet dependencies`, KodeKloud's lab), and Docker Desktop's
/// cri-dockerd refused by a newer dockerd (docker/for-win#14997).
#[test]
fn batch_47s_wordings_name_their_causes() {
    first_is(
        "42s         Warning   Evict              pod/pyspark-pi-driver-routine-bf20cae50b6a8253           Pod is evicted, because of preempt\n",
        "preempted",
    );
    first_is(
        "Events:\n  Type     Reason                           Age                  From           Message\n  ----     ------                           ----                 ----           -------\n  Normal   PodFailoverAfterNodeUnreachable  24s                  ha-controller  Triggering failover for pod postgresql-0\n",
        "node-unreachable",
    );
    first_is(
        "\"failed to construct kubelet dependencies: unable to load client CA file /etc/kubernetes/pki/WRONG-CA-FILE.crt: open /etc/kubernetes/pki/WRONG-CA-FILE.crt: no such file or directory\"\n",
        "node-not-ready",
    );
    first_is(
        "{\"component\":\"cri-dockerd\",\"level\":\"info\",\"msg\":\"time=\\\"2025-12-10T20:37:21Z\\\" level=fatal msg=\\\"failed to get docker version from dockerd: Error response from daemon: client version 1.43 is too old. Minimum supported API version is 1.44, please upgrade your client to a newer version\\\"\",\"time\":\"2025-12-10T20:37:21.494708912Z\"}\n",
        "node-not-ready",
    );
}

/// Batch 48's lessons, as people paste them: kubectl's own confirmation that it deleted a pod
/// (aws-samples/eks-workshop's StatefulSet page) says why the pod went away, before the pod's
/// grace period; a web page's typographic apostrophe (libopenstorage/stork#114) does not hide
/// the kubelet's admission wording; a kubelet configuration this release refuses
/// (canonical/microk8s#4704); a DRA driver that cannot unprepare a claim
/// (kubernetes-sigs/dra-driver-nvidia-gpu#380); runc's older E2BIG wording (the AKS article);
/// cri-dockerd's fatal line in its own logrus form.
#[test]
fn batch_48s_lessons_name_their_causes() {
    let deleted = "kubectl -n mysql delete pod mysql-1\npod \"mysql-1\" deleted\n\nkubectl -n mysql get pod mysql-1 -w\nNAME      READY   STATUS        RESTARTS   AGE\nmysql-1   2/2     Terminating   0          15m\nmysql-1   0/2     Terminating   0          16m\nmysql-1   0/2     Pending       0          0s\nmysql-1   0/2     Init:0/2      0          0s\nmysql-1   2/2     Running           0          18s\n";
    let v = scan_json(deleted);
    assert_eq!(causes(&v), ["deleted-by-client", "grace-period-pending"]);
    let f = &v["findings"][0];
    assert_eq!(f["severity"], "info");
    assert_eq!(
        f["objects"][0],
        serde_json::json!({"kind": "Pod", "namespace": "mysql", "name": "mysql-1"})
    );
    assert_eq!(f["evidence"][0]["quote"], "pod \"mysql-1\" deleted");
    // Newer kubectl names the namespace; --force says so.
    first_is(
        "pod \"web-0\" force deleted from shop namespace\n",
        "deleted-by-client",
    );
    // Someone's word that a pod was deleted is not kubectl's confirmation.
    assert!(
        !causes_of("I think the pod \"web-0\" deleted itself\n")
            .contains(&"deleted-by-client".to_string())
    );
    first_is(
        "Pod Node didn\u{2019}t have enough resource: memory, requested: 1879048192, used: 66735570944, capacity: 67428761600\nReason: OutOfMemory\n",
        "node-admission-rejected",
    );
    first_is(
        "(error: invalid configuration: memorySwap.swapBehavior \"UnlimitedSwap\" must be one of: \"\", \"LimitedSwap\" or \"NoSwap\", path: &TypeMeta{Kind:,APIVersion:,})\n",
        "node-not-ready",
    );
    first_is(
        "E0529 23:56:00.437210       1 workqueue.go:99] Failed to reconcile work item: error unpreparing devices for claim 'nvidia-dra-driver-gpu/nvbandwidth-test-compute-domain-pvl9g-compute-domain-daesfvg5:9882dcaa-06d4-4dfb-9bec-13bd99f75475': unprepare devices failed: error creating compute domain daemon settings: compute domain not found: 0846944b-9e2b-4cf4-a700-bc7b12cd136a\n",
        "kubelet-cleanup-pending",
    );
    first_is(
        "standard_init_linux.go:228: exec user process caused: argument list too long\n",
        "container-start-failed",
    );
    first_is(
        "time=\"2025-12-10T20:37:21Z\" level=fatal msg=\"failed to get docker version from dockerd: Error response from daemon: client version 1.43 is too old. Minimum supported API version is 1.44, please upgrade your client to a newer version\"\n",
        "node-not-ready",
    );
}

/// Batch 49's wordings: mount-utils' file system check that cannot repair a block volume
/// (IBM/ibm-block-csi-driver), and koord-descheduler's eviction of the pod a PodMigrationJob
/// moves, its pod named as `Pod "ns/name"` (koordinator-sh/koordinator.sh).
#[test]
fn batch_49s_wordings_name_their_causes() {
    first_is(
        "-8e73-005056a49b44\" : rpc error: code = Internal desc = 'fsck' found errors on device /dev/dm-26 but could not correct them: fsck from util-linux 2.23.2\n/dev/mapper/mpathym: UNEXPECTED INCONSISTENCY; RUN fsck MANUALLY.\n",
        "volume-mount-failed",
    );
    let v = scan_json(
        "Events:\n  Type    Reason                Age    From               Message\n  ----    ------                ----   ----               -------\n  Normal  Evicting              8m33s  koord-descheduler  Try to evict Pod \"default/pod-demo-5f9b977566-c7lvk\"\n  Normal  EvictComplete         8m     koord-descheduler  Pod \"default/pod-demo-5f9b977566-c7lvk\" has been evicted\n",
    );
    assert_eq!(causes(&v)[0], "evicted-api");
    assert_eq!(
        v["findings"][0]["objects"][0],
        serde_json::json!({"kind": "Pod", "namespace": "default", "name": "pod-demo-5f9b977566-c7lvk"})
    );
}

/// Batch 50's lessons: containerd's older `failed to resolve image: X: not found` in a gRPC
/// error a terminal broke over three lines (a homelab incident); Kueue's preemption of a
/// Workload, katalyst's and Volcano's pressure evictions, HAMi's vGPU memory filter; lib/pq's
/// refusal of a program's SQL; and a pod the scheduler could place only on a worker that went
/// unreachable, beside a control-plane node kept for itself (a killercoda lab).
#[test]
fn batch_50s_lessons_name_their_causes() {
    first_is(
        "rpc error: code = NotFound desc = failed to pull and unpack image\n\"docker.io/bitnami/kubectl:1.31\": failed to resolve image:\ndocker.io/bitnami/kubectl:1.31: not found\n",
        "image-not-found",
    );
    first_is(
        "  - lastTransitionTime: \"2025-03-07T21:19:54Z\"\n    message: 'Preempted to accommodate a workload (UID: 5c023c28-8533-4927-b266-56bca5e310c1,\n      JobUID: 4548c8bd-c399-4027-bb02-6114f3a8cdeb) due to prioritization in the ClusterQueue'\n    reason: Preempted\n",
        "preempted",
    );
    first_is(
        "default     2m5s        Normal   EvictSucceeded   pod/reclaimed-large-pod-2   Evicted pod has been deleted physically; reason: met threshold in scope: memory from plugin: memory-pressure-eviction-plugin\n",
        "evicted-node-pressure",
    );
    first_is(
        "69s         Warning   Evicted                   pod/offline-demo-785cff7f58-gwqwc    Evict offline pod due to cpu resource pressure\n",
        "evicted-node-pressure",
    );
    first_is(
        "  Warning  FilteringFailed   16s (x2 over 16s)  hami-scheduler  1 nodes CardInsufficientMemory(hami-lab-rtx6000)\n",
        "insufficient-resources",
    );
    first_is(
        "pq: invalid input syntax for type bigint: \"false\"\n",
        "app-exit-error",
    );
    first_is(
        "Events:\n  Type     Reason            Age   From               Message\n  ----     ------            ----  ----               -------\n  Warning  FailedScheduling  35s   default-scheduler  0/2 nodes are available: 1 node(s) had untolerated taint {node-role.kubernetes.io/control-plane: }, 1 node(s) had untolerated taint {node.kubernetes.io/unreachable: }. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.\n",
        "node-not-ready",
    );
}

/// Batch 51's wording: the node lifecycle controller recording a node NotReady (xuxinkun's
/// notes: a busy kubelet's late heartbeats took its pods out of their Service's endpoints).
#[test]
fn batch_51s_wording_names_its_cause() {
    first_is(
        "I0919 16:05:35.387629   20248 controller_utils.go:320] Recording status change NodeNotReady event message for node 11.2.3.10\n",
        "node-not-ready",
    );
}
