//! Catalogue tests: every cause a check can emit has a page, and each page's example yields
//! exactly that cause (rustc --explain style).

use crate::catalogue;
use kubewhy_model::Cause;
use kubewhy_source::{Input, load};

/// The snapshot of YAML text judged as of `now`; the text must load without a warning.
pub(crate) fn snapshot_of(yaml: &str, now: &str) -> kubewhy_model::Snapshot {
    let loaded = load_text("test.yaml", yaml, now);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    loaded.snapshot
}

/// Adds node evidence read from `text` (as `--node-logs` would), which must read cleanly.
pub(crate) fn add_node_log(snap: &mut kubewhy_model::Snapshot, name: &str, text: &str) {
    let mut bundle = kubewhy_model::node::NodeBundle::default();
    let mut warnings = Vec::new();
    kubewhy_source::parse_node_log(name, text.as_bytes(), snap.now, &mut bundle, &mut warnings);
    assert!(warnings.is_empty(), "{name}: {warnings:?}");
    snap.node.bundles.push(bundle);
}

/// The diagnosis of YAML text judged as of `now`.
pub(crate) fn diagnose_yaml(yaml: &str, now: &str) -> crate::Diagnosis {
    crate::diagnose(&snapshot_of(yaml, now))
}

/// The diagnosis's finding of `cause` (the findings shown when there is none).
pub(crate) fn finding_of(
    d: &crate::Diagnosis,
    cause: kubewhy_model::Cause,
) -> &kubewhy_model::Finding {
    d.findings
        .iter()
        .find(|f| f.cause == cause)
        .unwrap_or_else(|| panic!("no {cause:?} finding: {:#?}", d.findings))
}

/// The snapshot of YAML text and its diagnosis.
pub(crate) fn snapshot_and_diagnosis(
    yaml: &str,
    now: &str,
) -> (kubewhy_model::Snapshot, crate::Diagnosis) {
    let snap = snapshot_of(yaml, now);
    let d = crate::diagnose(&snap);
    (snap, d)
}

#[test]
fn every_emitted_cause_has_a_page() {
    let missing: Vec<&str> = crate::emitted_causes()
        .into_iter()
        .filter(|c| catalogue::page(*c).is_none())
        .map(|c| c.slug())
        .collect();
    assert!(
        missing.is_empty(),
        "causes without docs/causes/<slug>.md: {missing:?}"
    );
}

#[test]
fn every_page_is_named_after_a_cause() {
    for slug in catalogue::page_slugs() {
        let c =
            Cause::lookup(slug).unwrap_or_else(|| panic!("docs/causes/{slug}.md names no cause"));
        let page = catalogue::page(c).unwrap();
        assert!(
            page.starts_with(&format!("# {slug} ({})", c.code())),
            "{slug}: title line"
        );
        for section in [
            "## What it means",
            "## How kubewhy detects it",
            "## How to fix it safely",
            "## Example",
        ] {
            assert!(page.contains(section), "{slug}: missing {section}");
        }
    }
}

#[test]
fn each_page_example_yields_exactly_its_cause() {
    let mut failures = Vec::new();
    for slug in catalogue::page_slugs() {
        let cause = Cause::lookup(slug).unwrap();
        let page = catalogue::page(cause).unwrap();
        if page.contains("<!-- gone: ") {
            continue; // answered by `kubewhy gone`: see each_gone_example_yields_exactly_its_cause
        }
        let Some((yaml, now)) = catalogue::example(page) else {
            failures.push(format!("{slug}: no ```yaml example"));
            continue;
        };
        let now = now.map(|n| n.parse().expect("now comment is RFC 3339"));
        let loaded = load(
            &[Input::Text {
                name: format!("{slug}.md"),
                text: yaml,
            }],
            now,
        );
        if !loaded.warnings.is_empty() {
            failures.push(format!(
                "{slug}: example does not load cleanly: {:?}",
                loaded.warnings
            ));
            continue;
        }
        let mut snap = loaded.snapshot;
        if let Some(text) = catalogue::example_node_log(page) {
            add_node_log(&mut snap, &format!("{slug}.md"), &text);
        }
        snap.logs.extend(catalogue::example_container_logs(page));
        let d = crate::diagnose(&snap);
        let causes: Vec<&str> = d.findings.iter().map(|f| f.cause.slug()).collect();
        if causes != [slug] {
            failures.push(format!("{slug}: example yields {causes:?}"));
        }
        if !d.unexplained.is_empty() {
            failures.push(format!("{slug}: unexplained pods {:?}", d.unexplained));
        }
        for f in &d.findings {
            if f.evidence.is_empty() || f.objects.is_empty() || f.remediation.is_empty() {
                failures.push(format!("{slug}: finding lacks evidence, objects or steps"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Pages of causes that `kubewhy gone` answers: their example is an audit log (a ```json block
/// of JSON lines) and/or a snapshot (```yaml), and the pod asked about (`<!-- gone: ns/pod -->`).
#[test]
fn each_gone_example_yields_exactly_its_cause() {
    let mut tested = 0;
    for slug in catalogue::page_slugs() {
        let cause = Cause::lookup(slug).unwrap();
        let page = catalogue::page(cause).unwrap();
        let Some(i) = page.find("<!-- gone: ") else {
            continue;
        };
        let rest = &page[i + "<!-- gone: ".len()..];
        let (ns, pod) = rest[..rest.find(" -->").unwrap()].split_once('/').unwrap();
        let example = &page[page.find("## Example").unwrap()..];
        let block = |fence: &str| {
            example.find(fence).map(|o| {
                let body = &example[o + fence.len()..];
                body[..body.find("\n```").unwrap() + 1].to_string()
            })
        };
        let snap = match catalogue::example(page) {
            Some((yaml, now)) => {
                snapshot_of(&yaml, now.as_deref().unwrap_or("2026-11-23T01:00:00Z"))
            }
            None => kubewhy_model::Snapshot::default(),
        };
        let mut history = kubewhy_model::history::History::default();
        if let Some(json) = block("```json\n") {
            let mut w = Vec::new();
            kubewhy_source::parse_audit(slug, json.as_bytes(), &mut history.audit, &mut w);
            assert!(w.is_empty(), "{slug}: {w:?}");
            assert!(!history.audit.is_empty(), "{slug}: no audit lines");
        }
        let a = crate::gone::explain(
            &snap,
            &history,
            &crate::gone::Query {
                namespace: ns.into(),
                pod: Some(pod.into()),
                owner: None,
                selector: None,
            },
        );
        let causes: Vec<&str> = a.findings.iter().map(|f| f.cause.slug()).collect();
        assert_eq!(causes, [slug], "{slug}: {a:#?}");
        let f = &a.findings[0];
        assert!(
            !f.evidence.is_empty() && !f.remediation.is_empty(),
            "{slug}"
        );
        tested += 1;
    }
    assert_eq!(tested, 6, "pages answered by kubewhy gone");
}

fn pending_pod(name: &str, owner: &str, msg: &str) -> String {
    format!(
        r#"{{"kind":"Pod","metadata":{{"name":"{name}","namespace":"shop","uid":"{name}","creationTimestamp":"2026-11-22T08:00:00Z",
        "ownerReferences":[{{"kind":"ReplicaSet","name":"{owner}","uid":"{owner}","controller":true}}]}},
        "status":{{"phase":"Pending","conditions":[{{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"{msg}"}}]}}}}"#
    )
}

#[test]
fn pods_pending_for_the_same_reason_are_one_finding_across_workloads() {
    let mut items: Vec<String> = (0..300)
        .map(|i| {
            pending_pod(
                &format!("p{i}"),
                &format!("rs-{}", i % 50),
                "0/5 nodes are available: 5 Insufficient cpu.",
            )
        })
        .collect();
    items.push(pending_pod(
        "m",
        "rs-x",
        "0/5 nodes are available: 5 Insufficient memory.",
    ));
    let text = format!(r#"{{"kind":"List","items":[{}]}}"#, items.join(","));
    let loaded = load(
        &[Input::Text {
            name: "t.json".into(),
            text,
        }],
        None,
    );
    let d = crate::diagnose(&loaded.snapshot);
    let counts: Vec<(&str, usize)> = d
        .findings
        .iter()
        .map(|f| (f.summary.as_str(), f.objects.len()))
        .collect();
    assert_eq!(
        counts,
        vec![
            ("No node has enough free cpu for the pod's requests", 300),
            ("No node has enough free memory for the pod's requests", 1)
        ]
    );
    assert_eq!(d.findings[0].evidence[0].occurrences, 300);
}

#[test]
fn a_not_ready_cluster_is_no_ready_nodes_not_a_taint_problem() {
    // Real 1.20 wording when the only node is NotReady.
    let text = r#"{"kind":"List","items":[
      {"kind":"Node","metadata":{"name":"node-1"},"status":{"conditions":[{"type":"Ready","status":"Unknown","reason":"NodeStatusUnknown","message":"Kubelet stopped posting node status.","lastHeartbeatTime":"2026-11-22T09:00:00Z"}]},
       "spec":{"taints":[{"key":"node.kubernetes.io/unreachable","effect":"NoSchedule"}]}},
      {"kind":"Pod","metadata":{"name":"p","namespace":"shop","creationTimestamp":"2026-11-22T09:30:00Z"},
       "status":{"phase":"Pending","conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable",
       "message":"0/1 nodes are available: 1 node(s) had taint {node.kubernetes.io/unreachable: }, that the pod didn't tolerate."}]}}]}"#;
    let loaded = load(
        &[Input::Text {
            name: "t.json".into(),
            text: text.into(),
        }],
        None,
    );
    let d = crate::diagnose(&loaded.snapshot);
    let causes: Vec<&str> = d.findings.iter().map(|f| f.cause.slug()).collect();
    assert_eq!(causes, ["no-ready-nodes"]);
    assert!(
        d.findings[0]
            .evidence
            .iter()
            .any(|e| e.quote.contains("Kubelet stopped posting node status."))
    );
}

#[test]
fn a_pod_the_scheduler_has_not_seen_yet_is_not_flagged_but_an_old_one_is() {
    let pod = |name: &str, created: &str| {
        format!(
            r#"{{"kind":"Pod","metadata":{{"name":"{name}","namespace":"shop","creationTimestamp":"{created}"}},"spec":{{"schedulerName":"my-scheduler"}},"status":{{"phase":"Pending"}}}}"#
        )
    };
    let text = format!(
        r#"{{"kind":"List","items":[{},{}]}}"#,
        pod("new", "2026-11-22T09:59:30Z"),
        pod("old", "2026-11-22T09:00:00Z")
    );
    let now = "2026-11-22T10:00:00Z".parse().unwrap();
    let loaded = load(
        &[Input::Text {
            name: "t.json".into(),
            text,
        }],
        Some(now),
    );
    let d = crate::diagnose(&loaded.snapshot);
    assert_eq!(d.findings.len(), 1);
    let f = &d.findings[0];
    assert_eq!(
        (f.cause.slug(), f.objects[0].name.as_str()),
        ("scheduler-unavailable", "old")
    );
    // No lease in the data: medium confidence, and the custom scheduler name is the lead.
    assert_eq!(f.confidence, kubewhy_model::Confidence::Medium);
    assert!(f.explanation.contains("\"my-scheduler\""));
    assert!(d.unexplained.is_empty(), "{:?}", d.unexplained);
}

proptest::proptest! {
    /// Event and condition messages are written by anything in the cluster: no classifier of
    /// them may panic.
    #[test]
    fn message_classifiers_never_panic(m in "\\PC{0,300}") {
        let _ = crate::creation::classify(&m);
        let _ = crate::sandbox::classify(&m);
        let _ = crate::mounts::classify_mount(&m);
        let _ = crate::mounts::missing_reference(&m);
        let _ = crate::pending::parse_scheduler_message(&m);
        let _ = crate::pending::classify_reason(&m);
    }
}

/// Pods of five Deployments (two replicas each, their ReplicaSets not in the data) and a bare
/// pod that no node can fit: one finding, which names the six workloads with their pod counts
/// and changes every Deployment, not the first pod's.
#[test]
fn a_finding_names_its_workloads_and_its_fix_addresses_each() {
    let mut y = String::from(
        "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, uid: n1}\nstatus:\n  allocatable: {cpu: \"2\", memory: 8Gi, pods: \"110\"}\n  conditions:\n  - {type: Ready, status: \"True\"}\n",
    );
    let pod = |name: &str, owner: Option<(&str, &str)>| {
        let (labels, owners) = match owner {
            Some((rs, hash)) => (
                format!("labels: {{app: x, pod-template-hash: \"{hash}\"}}"),
                format!(
                    "ownerReferences: [{{apiVersion: apps/v1, kind: ReplicaSet, name: {rs}, uid: u-{rs}, controller: true}}]"
                ),
            ),
            None => (
                "labels: {app: x}".to_string(),
                "ownerReferences: []".to_string(),
            ),
        };
        format!(
            r#"---
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: scale
  uid: u-{name}
  creationTimestamp: "2026-11-22T09:00:00Z"
  {labels}
  {owners}
spec:
  containers: [{{name: app, image: app:1, resources: {{requests: {{cpu: "64"}}}}}}]
status:
  phase: Pending
  conditions:
  - {{type: PodScheduled, status: "False", reason: Unschedulable, message: "0/1 nodes are available: 1 Insufficient cpu.", lastTransitionTime: "2026-11-22T09:00:01Z"}}
"#
        )
    };
    for d in 0..5 {
        for r in 0..2 {
            y.push_str(&pod(
                &format!("big-{d}-5d8f7c9b6-r{r}"),
                Some((&format!("big-{d}-5d8f7c9b6"), "5d8f7c9b6")),
            ));
        }
    }
    y.push_str(&pod("lone", None));
    let d = crate::diagnose(&snapshot_of(&y, "2026-11-22T10:00:00Z"));
    assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
    let f = &d.findings[0];
    assert_eq!(f.cause, Cause::InsufficientResources);
    assert_eq!(f.objects.len(), 11);
    let ws: Vec<(String, String, usize)> = f
        .workloads
        .iter()
        .map(|w| (w.kind.to_string(), w.path(), w.pods))
        .collect();
    assert_eq!(
        ws,
        [
            ("Deployment".into(), "scale/big-0".into(), 2),
            ("Deployment".into(), "scale/big-1".into(), 2),
            ("Deployment".into(), "scale/big-2".into(), 2),
            ("Deployment".into(), "scale/big-3".into(), 2),
            ("Deployment".into(), "scale/big-4".into(), 2),
            ("Pod".into(), "scale/lone".into(), 1),
        ]
    );
    assert_eq!(f.since, Some("2026-11-22T09:00:01Z".parse().unwrap()));
    let lower = f
        .remediation
        .iter()
        .find(|s| s.action.starts_with("Lower the pod's cpu request"))
        .and_then(|s| s.command.as_deref())
        .expect("the step that lowers the request");
    assert_eq!(
        lower,
        "for w in deployment/big-0 deployment/big-1 deployment/big-2 deployment/big-3 deployment/big-4; do kubectl -n scale set resources \"$w\" --requests=cpu=<smaller>; done\n\
         kubectl get pod lone -n scale -o yaml > lone.yaml  # edit, then: kubectl replace --force -f lone.yaml"
    );
    // One pod's events stand for its siblings': the read-only step keeps one example.
    let confirm = f
        .remediation
        .iter()
        .find(|s| s.action.starts_with("Confirm with the pod's own events"))
        .and_then(|s| s.command.as_deref())
        .expect("the read-only step");
    assert_eq!(
        confirm,
        "kubectl describe pod big-0-5d8f7c9b6-r0 -n scale   # and 10 more like it"
    );
}

/// A pod whose state is one of the failures people search for is never "no problems": at any
/// age, without events, it is a finding or an unexplained pod that says what its state says.
#[test]
fn a_failing_waiting_state_is_never_healthy_at_any_age_without_events() {
    for reason in [
        "ImagePullBackOff",
        "ErrImagePull",
        "CrashLoopBackOff",
        "CreateContainerConfigError",
        "CreateContainerError",
    ] {
        for created in ["2026-11-22T09:59:50Z", "2026-11-20T10:00:00Z"] {
            let y = format!(
                r#"apiVersion: v1
kind: Pod
metadata: {{name: api, namespace: shop, uid: u1, creationTimestamp: "{created}"}}
spec:
  nodeName: node-1
  containers: [{{name: api, image: "registry.example.com/shop/api:9.9"}}]
status:
  phase: Pending
  containerStatuses:
  - name: api
    image: registry.example.com/shop/api:9.9
    ready: false
    restartCount: 0
    state: {{waiting: {{reason: {reason}}}}}
"#
            );
            let d = crate::diagnose(&snapshot_of(&y, "2026-11-22T10:00:00Z"));
            match (d.findings.as_slice(), d.unexplained.as_slice()) {
                ([f], []) => assert_eq!(f.objects[0].name, "api", "{reason}"),
                ([], [u]) => {
                    assert_eq!(u.status, reason);
                    assert!(!u.reason.is_empty(), "{reason}: {u:?}");
                    if reason.contains("Image") {
                        assert!(
                            u.reason.contains("registry.example.com/shop/api:9.9")
                                && u.reason.contains("registry registry.example.com")
                                && u.reason.contains("events were not read"),
                            "{}",
                            u.reason
                        );
                    }
                }
                other => panic!("{reason} created {created}: {other:?}"),
            }
        }
    }
}

/// The step that starts a crashing pod again runs for what owns it: `rollout restart` only for
/// the workloads that have rollouts; a Job's pod is deleted (the Job makes another); a bare pod,
/// which nobody recreates, is replaced from its own manifest.
#[test]
fn the_restart_step_runs_for_what_owns_the_pod() {
    let pod = |name: &str, owner: &str| {
        format!(
            r#"---
apiVersion: v1
kind: Pod
metadata:
  name: {name}
  namespace: shop
  uid: u-{name}
  creationTimestamp: "2026-11-22T09:00:00Z"
  ownerReferences: {owner}
spec:
  nodeName: node-1
  containers: [{{name: app, image: app:1}}]
status:
  phase: Running
  containerStatuses:
  - name: app
    image: app:1
    ready: false
    restartCount: 5
    state: {{waiting: {{reason: CrashLoopBackOff, message: back-off 5m0s restarting failed container}}}}
    lastState: {{terminated: {{exitCode: 3, reason: Error, finishedAt: "2026-11-22T09:58:00Z"}}}}
"#
        )
    };
    let y = pod("lone", "[]")
        + &pod(
            "web-5d8f7c9b6-x2k9p",
            "[{apiVersion: apps/v1, kind: ReplicaSet, name: web-5d8f7c9b6, uid: r, controller: true}]",
        )
        + &pod(
            "nightly-x7k2p",
            "[{apiVersion: batch/v1, kind: Job, name: nightly, uid: j, controller: true}]",
        )
        + "---\napiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: web-5d8f7c9b6, namespace: shop, uid: r, ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: d, controller: true}]}\nspec: {replicas: 1}\n";
    let d = crate::diagnose(&snapshot_of(&y, "2026-11-22T10:00:00Z"));
    let restart = |pod: &str| -> String {
        let f = d
            .findings
            .iter()
            .find(|f| f.objects.iter().any(|o| o.name == pod))
            .unwrap_or_else(|| panic!("no finding for {pod}: {:#?}", d.findings));
        f.remediation
            .iter()
            .find(|s| {
                s.action
                    .starts_with("Fix the application or its configuration, then")
            })
            .and_then(|s| s.command.clone())
            .unwrap_or_else(|| panic!("{pod}: {:#?}", f.remediation))
    };
    assert_eq!(
        restart("lone"),
        "kubectl get pod lone -n shop -o yaml > lone.yaml  # edit, then: kubectl replace --force -f lone.yaml"
    );
    assert_eq!(
        restart("web-5d8f7c9b6-x2k9p"),
        "kubectl -n shop rollout restart deployment/web"
    );
    assert_eq!(
        restart("nightly-x7k2p"),
        "kubectl -n shop delete pod nightly-x7k2p"
    );
}

/// Two pods on one node whose last words are the `kubernetes` Service timing out: one finding
/// for the node naming both (pod-network-broken); the same line from one pod alone is a
/// dependency that does not answer it, said with what would make it the node's.
#[test]
fn a_service_ip_timeout_is_the_nodes_when_pods_there_share_it() {
    let pod = |name: &str| {
        format!(
            "- apiVersion: v1\n  kind: Pod\n  metadata: {{name: {name}, namespace: kube-system, creationTimestamp: '2026-11-22T08:00:00Z'}}\n  spec: {{nodeName: node-2, containers: [{{name: app, image: x}}]}}\n  status:\n    phase: Running\n    containerStatuses:\n    - name: app\n      image: x\n      restartCount: 5\n      state: {{waiting: {{reason: CrashLoopBackOff}}}}\n      lastState: {{terminated: {{reason: Error, exitCode: 1, finishedAt: '2026-11-22T09:50:00Z'}}}}\n"
        )
    };
    let log = |name: &str| kubewhy_model::objects::ContainerLog {
        namespace: "kube-system".into(),
        pod: name.into(),
        container: "app".into(),
        origin: "test".into(),
        previous: true,
        tail: vec![format!(
            "panic: Get \"https://10.43.0.1:443/version\": dial tcp 10.43.0.1:443: i/o timeout ({name})"
        )],
    };
    let now = "2026-11-22T10:00:00Z";
    let both = format!(
        "apiVersion: v1\nkind: List\nitems:\n{}{}",
        pod("a"),
        pod("b")
    );
    let mut snap = snapshot_of(&both, now);
    snap.logs.extend([log("a"), log("b")]);
    let d = crate::diagnose(&snap);
    assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
    let f = &d.findings[0];
    assert_eq!(f.cause, Cause::PodNetworkBroken);
    assert_eq!(
        f.summary,
        "Pods on node node-2 cannot reach Service IPs: 2 of them exit on the same timeout"
    );
    let names: Vec<&str> = f.objects.iter().map(|o| o.name.as_str()).collect();
    assert_eq!(names, ["a", "b"]);
    assert!(
        f.evidence
            .iter()
            .any(|e| e.quote.contains("dial tcp 10.43.0.1:443: i/o timeout (b)")),
        "{:#?}",
        f.evidence
    );

    let alone = format!("apiVersion: v1\nkind: List\nitems:\n{}", pod("a"));
    let mut snap = snapshot_of(&alone, now);
    snap.logs.push(log("a"));
    let d = crate::diagnose(&snap);
    assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
    assert_eq!(d.findings[0].cause, Cause::DependencyUnreachable);
    assert!(
        d.findings[0]
            .explanation
            .contains("No other pod on node-2 fails the same way in the data"),
        "{}",
        d.findings[0].explanation
    );
}

/// A bundle is judged as of its collection: containers that are Running and Ready again after
/// failures that ended days before are healthy (their restarts are history), and a node restart
/// that every container there recovered from long before is said as history, at severity info.
/// The same containers an hour after the failure, or still down, are problems of now.
#[test]
fn failures_every_container_recovered_from_long_before_are_history() {
    let pods = |finished: &str, ready: bool| {
        format!(
            r#"apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {{name: kcm, namespace: kube-system, uid: u1, creationTimestamp: "2021-08-10T00:00:00Z"}}
  spec: {{nodeName: cp, containers: [{{name: kcm, image: k8s.gcr.io/kube-controller-manager:v1.21.1}}]}}
  status:
    phase: Running
    conditions: [{{type: Ready, status: "{ready_s}"}}]
    containerStatuses:
    - name: kcm
      image: k8s.gcr.io/kube-controller-manager:v1.21.1
      ready: {ready}
      restartCount: 4
      state: {{running: {{startedAt: "{finished}"}}}}
      lastState: {{terminated: {{exitCode: 255, reason: Error, startedAt: "2021-08-10T00:00:00Z", finishedAt: "{finished}"}}}}
- apiVersion: v1
  kind: Pod
  metadata: {{name: etcd, namespace: kube-system, uid: u2, creationTimestamp: "2021-08-10T00:00:00Z"}}
  spec: {{nodeName: cp, containers: [{{name: etcd, image: k8s.gcr.io/etcd:3.4.13-0}}]}}
  status:
    phase: Running
    conditions: [{{type: Ready, status: "True"}}]
    containerStatuses:
    - name: etcd
      image: k8s.gcr.io/etcd:3.4.13-0
      ready: true
      restartCount: 1
      state: {{running: {{startedAt: "{finished}"}}}}
      lastState: {{terminated: {{exitCode: 255, reason: Unknown, startedAt: "2021-08-10T00:00:00Z", finishedAt: "{finished}"}}}}
"#,
            ready_s = if ready { "True" } else { "False" }
        )
    };
    let now = "2021-08-18T16:02:03Z";
    let causes = |d: &crate::Diagnosis| -> Vec<(String, String)> {
        d.findings
            .iter()
            .map(|f| (f.cause.slug().to_string(), f.severity.as_str().to_string()))
            .collect()
    };
    // Two days before collection, all running and ready: history only.
    let d = diagnose_yaml(&pods("2021-08-16T17:18:52Z", true), now);
    assert_eq!(
        causes(&d),
        [("node-restarted".to_string(), "info".to_string())]
    );
    assert!(
        d.findings[0]
            .summary
            .starts_with("Before collection: 1 container(s) on node cp"),
        "{}",
        d.findings[0].summary
    );
    assert!(d.findings[0].summary.contains("at 2021-08-16T17:18:52Z"));
    // Twenty minutes before: a problem of now.
    let d = diagnose_yaml(&pods("2021-08-18T15:42:00Z", true), now);
    let mut got = causes(&d);
    got.sort();
    assert_eq!(
        got,
        [
            ("app-exit-error".to_string(), "error".to_string()),
            ("node-restarted".to_string(), "warning".to_string())
        ]
    );
    // Long before, but the controller-manager is not ready again: still its crash; the
    // restart, which only etcd's record shows and etcd recovered from, stays history.
    let d = diagnose_yaml(&pods("2021-08-16T17:18:52Z", false), now);
    let mut got = causes(&d);
    got.sort();
    assert_eq!(
        got,
        [
            ("app-exit-error".to_string(), "error".to_string()),
            ("node-restarted".to_string(), "info".to_string())
        ]
    );
}

/// A Secret listed as metadata only (a live scan) has unknown keys, not absent ones: no "has no
/// key" finding until its keys are read, and then the right one.
#[test]
fn a_key_of_a_secret_listed_as_metadata_only_is_read_before_it_is_judged() {
    let yaml = r#"
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: api, namespace: shop, uid: p1, creationTimestamp: "2026-11-27T10:00:00Z"}
  spec:
    containers:
    - name: main
      image: api:1
      env:
      - name: DB_PASSWORD
        valueFrom: {secretKeyRef: {name: db, key: password}}
  status:
    phase: Pending
    containerStatuses:
    - name: main
      ready: false
      restartCount: 0
      state: {waiting: {reason: CreateContainerConfigError}}
- apiVersion: meta.k8s.io/v1
  kind: Secret
  metadata: {name: db, namespace: shop, uid: s1}
"#;
    let (mut snap, d) = snapshot_and_diagnosis(yaml, "2026-11-27T11:00:00Z");
    let said = |d: &crate::Diagnosis| {
        d.findings
            .iter()
            .flat_map(|f| &f.evidence)
            .any(|e| e.quote.contains("has no key \"password\""))
    };
    assert!(!said(&d), "keys not read are not absent: {:#?}", d.findings);
    assert_eq!(
        crate::keys_needed(&snap, 20),
        vec![("Secret", "shop".to_string(), "db".to_string())]
    );
    // Read: it holds another key.
    let read: kubewhy_model::objects::RawKeyed = serde_json::from_str(
        r#"{"apiVersion":"v1","kind":"Secret","metadata":{"name":"db","namespace":"shop","uid":"s1"},"data":{"pass":"eA=="}}"#,
    )
    .unwrap();
    snap.keys_read("Secret", read.into());
    assert!(crate::keys_needed(&snap, 20).is_empty());
    let d = crate::diagnose(&snap);
    let f = d
        .findings
        .iter()
        .find(|f| {
            f.evidence
                .iter()
                .any(|e| e.quote.contains("has no key \"password\" (keys: pass)"))
        })
        .unwrap_or_else(|| panic!("{:#?}", d.findings));
    assert_eq!(f.cause, kubewhy_model::Cause::SecretMissing);
}

/// A node described without its conditions (a paste cut before them) is judged by the node
/// lifecycle controller's taint; with its conditions, the conditions decide.
#[test]
fn a_node_without_conditions_is_judged_by_the_lifecycle_taint() {
    let node = |status: &str| {
        format!(
            r#"
apiVersion: v1
kind: Node
metadata: {{name: ha-03, uid: n1}}
spec:
  taints:
  - {{key: node.kubernetes.io/unreachable, effect: NoSchedule}}
  - {{key: node.kubernetes.io/unreachable, effect: NoExecute}}
{status}"#
        )
    };
    let d = diagnose_yaml(&node(""), "2026-11-27T11:00:00Z");
    let f = finding_of(&d, kubewhy_model::Cause::NodeNotReady);
    let e = f
        .evidence
        .iter()
        .find(|e| e.source == "spec.taints")
        .unwrap();
    assert!(
        e.quote.starts_with("node.kubernetes.io/unreachable:NoExecute (the node lifecycle controller's: the node is not reporting"),
        "{}",
        e.quote
    );
    let ready =
        "status:\n  conditions:\n  - {type: Ready, status: \"True\", reason: KubeletReady}\n";
    let d = diagnose_yaml(&node(ready), "2026-11-27T11:00:00Z");
    assert!(
        d.findings
            .iter()
            .all(|f| f.cause != kubewhy_model::Cause::NodeNotReady),
        "{:#?}",
        d.findings
    );
}

/// Without the node in the data, its other pods tell a kubelet that is gone: a pod bound to it
/// and not started for hours, or every pod on it being deleted.
#[test]
fn a_terminating_pod_on_a_node_whose_kubelet_starts_nothing_is_node_unreachable() {
    let yaml = r#"
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: api-1, namespace: shop, uid: p1, creationTimestamp: "2026-11-27T05:00:00Z",
    deletionTimestamp: "2026-11-27T09:00:00Z", deletionGracePeriodSeconds: 30}
  spec: {nodeName: w1, containers: [{name: main, image: api:1}]}
  status: {phase: Running}
- apiVersion: v1
  kind: Pod
  metadata: {name: calico-node-x1, namespace: kube-system, uid: p2, creationTimestamp: "2026-11-27T08:00:00Z",
    ownerReferences: [{kind: DaemonSet, name: calico-node, uid: d1, controller: true}]}
  spec: {nodeName: w1, containers: [{name: calico, image: calico:1}]}
  status: {phase: Pending}
"#;
    let d = diagnose_yaml(yaml, "2026-11-27T11:00:00Z");
    let f = finding_of(&d, kubewhy_model::Cause::NodeUnreachable);
    assert_eq!(f.objects[0].name, "api-1");
    assert_eq!(f.confidence, kubewhy_model::Confidence::Low);
    let e = f
        .evidence
        .iter()
        .find(|e| e.source == "the pods on node w1")
        .unwrap();
    assert_eq!(
        e.quote,
        "1 pod(s) bound to w1 not started by its kubelet, the oldest for 3h0m, 1 of them a DaemonSet's, which run on every working node (calico-node-x1)"
    );
    // With the node in the data, Ready, its own state decides: no such guess.
    let with_node = format!(
        "{yaml}- apiVersion: v1\n  kind: Node\n  metadata: {{name: w1, uid: n1}}\n  status: {{conditions: [{{type: Ready, status: \"True\"}}]}}\n"
    );
    let d = diagnose_yaml(&with_node, "2026-11-27T11:00:00Z");
    assert!(
        d.findings
            .iter()
            .all(|f| f.cause != kubewhy_model::Cause::NodeUnreachable),
        "{:#?}",
        d.findings
    );
}

/// `text` loaded as the file `name`, judged as of `now`.
fn load_text(name: &str, text: &str, now: &str) -> kubewhy_source::Loaded {
    load(
        &[Input::Text {
            name: name.into(),
            text: text.into(),
        }],
        Some(now.parse().expect("now is RFC 3339")),
    )
}

/// The diagnosis of a pasted text, judged as of `now` (what the paste reader warns is allowed).
fn diagnose_paste(text: &str, now: &str) -> crate::Diagnosis {
    crate::diagnose(&load_text("paste.txt", text, now).snapshot)
}

#[test]
fn why_no_node_is_ready_comes_before_the_pods_that_wait() {
    // flannel issue 2064 (1.31, CRI-O): every node NotReady, coredns Pending, and the runtime's
    // journal saying it refuses the CNI configuration.
    let d = diagnose_paste(
        "NAME         STATUS     ROLES           AGE   VERSION\n\
         master.lab   NotReady   control-plane   37m   v1.31.3\n\
         node1.lab    NotReady   <none>          36m   v1.31.3\n\
         \n\
         NAMESPACE     NAME                       READY   STATUS    RESTARTS   AGE\n\
         kube-system   coredns-7c65d6cfc9-phvrv   0/1     Pending   0          22m\n\
         \n\
         Nov 24 23:43:08 master.lab crio[26766]: time=\"2024-11-24 23:43:08.876402310-07:00\" level=warning msg=\"Error validating CNI config file /etc/cni/net.d/10-flannel.conflist: [failed to find plugin \\\"portmap\\\" in path [/opt/cni/bin/]]\"\n",
        "2026-11-25T00:00:00Z",
    );
    let causes: Vec<Cause> = d.findings.iter().map(|f| f.cause).collect();
    assert_eq!(causes, vec![Cause::NodeNotReady, Cause::NoReadyNodes]);
    assert!(
        d.findings[0].evidence[0]
            .quote
            .contains("Error validating CNI config file")
    );
    // The runtime's journal line names its host, one of the pasted nodes.
    assert_eq!(d.findings[0].objects[0].kind, "Node");
    assert_eq!(d.findings[0].objects[0].name, "master.lab");
}

#[test]
fn a_container_failing_both_probes_is_its_liveness_probe() {
    // uptime-kuma's chart (a pull request's `kubectl get events`): the readiness and the
    // liveness probe fail; the second restarts the container.
    let d = diagnose_paste(
        "2m27s       Normal    Started             pod/kuma-57f9d6fd5c-czdlh    Started container kuma\n\
         2m23s       Warning   Unhealthy           pod/kuma-57f9d6fd5c-czdlh    Readiness probe failed: Get \"http://10.42.0.186:3001/\": dial tcp 10.42.0.186:3001: connect: connection refused\n\
         2s          Warning   Unhealthy           pod/kuma-57f9d6fd5c-czdlh    Liveness probe failed: command \"node extra/healthcheck.js\" timed out\n",
        "2026-11-25T00:00:00Z",
    );
    let causes: Vec<Cause> = d.findings.iter().map(|f| f.cause).collect();
    assert_eq!(
        causes,
        vec![Cause::LivenessProbeFailing],
        "{:#?}",
        d.findings
    );
    let f = &d.findings[0];
    assert_eq!(f.objects[0].name, "kuma-57f9d6fd5c-czdlh");
    let quotes: Vec<&str> = f.evidence.iter().map(|e| e.quote.as_str()).collect();
    assert!(
        quotes[0].starts_with("Liveness probe failed: command"),
        "{quotes:?}"
    );
    assert!(
        quotes[1].starts_with("Readiness probe failed: Get"),
        "{quotes:?}"
    );
}

#[test]
fn a_probe_that_does_not_say_its_kind_restarts_a_crash_looping_pod() {
    let line = "I0301 10:00:00.000000       1 server.go:192] \"Failed probe\" probe=\"metric-storage-ready\" err=\"no metrics to serve\"\n";
    let rows = "NAME                              READY   STATUS             RESTARTS   AGE\n\
                metrics-server-6d94bc8694-xk2lp   0/1     CrashLoopBackOff   232        3d\n\n";
    let d = diagnose_paste(&format!("{rows}{line}"), "2026-11-25T00:00:00Z");
    assert_eq!(
        d.findings[0].cause,
        Cause::LivenessProbeFailing,
        "{:#?}",
        d.findings
    );
    assert!(d.findings[0].evidence.iter().any(|e| {
        e.quote
            .contains("\"Failed probe\" probe=\"metric-storage-ready\"")
    }));
    // Alone, the same line is a readiness probe's (the catalogue's reading).
    let d = diagnose_paste(line, "2026-11-25T00:00:00Z");
    assert_eq!(d.findings[0].cause, Cause::ReadinessProbeFailing);
}

#[test]
fn a_config_error_a_fragment_quotes_is_its_reason() {
    // rke2 issue 4742: a status fragment whose waiting message is the kubelet's own reason.
    let d = diagnose_paste(
        r#""state":{"waiting":{"reason":"CreateContainerConfigError","message":"services have not yet been read at least once, cannot construct envvars"}}"#,
        "2026-11-25T00:00:00Z",
    );
    assert_eq!(d.findings.len(), 1, "{:#?}", d.findings);
    let f = &d.findings[0];
    assert_eq!(f.cause, Cause::ConfigError);
    assert!(
        f.evidence.iter().any(|e| e.quote
            == "services have not yet been read at least once, cannot construct envvars")
    );
    assert!(d.unexplained.is_empty());
    // Without a message, a fragment proves nothing by elimination: left unexplained.
    let d = diagnose_paste(
        r#""state":{"waiting":{"reason":"CreateContainerConfigError"}}"#,
        "2026-11-25T00:00:00Z",
    );
    assert!(d.findings.is_empty(), "{:#?}", d.findings);
    assert_eq!(d.unexplained.len(), 1);
}

#[test]
fn a_namespaces_finalizers_come_before_the_content_they_hold() {
    // `kubectl describe namespace` conditions, as pasted in cozystack issue 3793.
    let d = diagnose_paste(
        "NamespaceContentRemaining:    Some resources are remaining: kafkatopics.kafka.strimzi.io has 1 resource instances\n\
         NamespaceFinalizersRemaining: Some content in the namespace has finalizers remaining: strimzi.io/topic-operator in 1 resource instances\n",
        "2026-11-25T00:00:00Z",
    );
    assert_eq!(d.findings[0].cause, Cause::NsFinalizerPending);
}

#[test]
fn events_read_without_their_pods_still_say_the_failure() {
    // One item of `kubectl get events -o yaml` (kops PR 16909): the message's quotes doubled and
    // wrapped; no pod in the input.
    let d = diagnose_paste(
        "- apiVersion: v1\n  count: 13\n  firstTimestamp: \"2024-10-16T14:42:36Z\"\n  involvedObject:\n    apiVersion: v1\n    kind: Pod\n    name: ebs-csi-controller-6c444dc485-8zlmm\n    namespace: kube-system\n  kind: Event\n  lastTimestamp: \"2024-10-16T14:50:45Z\"\n  message: '0/15 nodes are available: 12 node(s) didn''t match Pod''s node affinity/selector,\n    3 node(s) didn''t have free ports for the requested pod ports. preemption: 0/15\n    nodes are available: 12 Preemption is not helpful for scheduling, 3 No preemption\n    victims found for incoming pod..'\n  metadata:\n    name: ebs-csi-controller-6c444dc485-8zlmm.17fef5f8db9d27c1\n    namespace: kube-system\n  reason: FailedScheduling\n  source:\n    component: default-scheduler\n  type: Warning\n",
        "2026-11-25T00:00:00Z",
    );
    let f = crate::tests::finding_of(&d, Cause::HostPortConflict);
    assert_eq!(d.findings.len(), 1);
    assert_eq!(f.objects[0].name, "ebs-csi-controller-6c444dc485-8zlmm");
    assert!(
        f.evidence[0]
            .quote
            .contains("3 node(s) didn't have free ports")
    );
}

#[test]
fn a_status_stanza_cut_before_its_first_indent_is_read() {
    // kube-ovn issue (Kubernetes 1.28): `phase: Failed` copied without its indentation.
    let d = diagnose_paste(
        "phase: Failed\n  podIP: 10.16.0.50\n  qosClass: BestEffort\n  reason: Evicted\n\napiVersion: v1\nkind: Pod\n....\n",
        "2026-11-25T00:00:00Z",
    );
    let f = crate::tests::finding_of(&d, Cause::EvictedNodePressure);
    assert!(
        f.summary.starts_with("The kubelet evicted the pod"),
        "{}",
        f.summary
    );
}

#[test]
fn the_cpu_managers_refusal_is_an_admission_not_a_device_and_a_shifted_row_keeps_its_node() {
    // gengwg/k8s static_cpu_policy_kubelet.md: the node's name was shortened by hand, so the
    // row's cells no longer sit under their header.
    let d = diagnose_paste(
        "$ k get po gengwg-test2 -o wide -n gengwg -w\n\
         NAME           READY   STATUS                     RESTARTS   AGE   IP       NODE                    NOMINATED NODE   READINESS GATES\n\
         gengwg-test2   0/1     UnexpectedAdmissionError   0          11s   <none>   node0010   <none>           <none>\n\
         \n  Warning  UnexpectedAdmissionError  102s  kubelet  Allocate failed due to not enough cpus available to satisfy request, which is unexpected\n",
        "2026-11-25T00:00:00Z",
    );
    assert_eq!(d.findings.len(), 1);
    let f = crate::tests::finding_of(&d, Cause::NodeAdmissionRejected);
    assert!(
        f.summary
            .starts_with("The kubelet on node0010 refused the pod"),
        "{}",
        f.summary
    );
}

#[test]
fn a_refusal_event_makes_the_pod_refused_not_its_volumes_retried() {
    // Project-HAMi/HAMi issue 39: the device plugin's Allocate failed; the kubelet then retries
    // the refused pod's token volume (`not registered`), which is noise.
    let d = diagnose_paste(
        "Events:\n  Type     Reason                    Age               From           Message\n  ----     ------                    ----              ----           -------\n\
         \x20 Normal   Scheduled                 73s               4pd-scheduler  Successfully assigned default/gpu-pod to pkm-05\n\
         \x20 Warning  UnexpectedAdmissionError  73s               kubelet        Allocate failed due to rpc error: code = Unavailable desc = transport is closing, which is unexpected\n\
         \x20 Warning  FailedMount               9s (x8 over 73s)  kubelet        MountVolume.SetUp failed for volume \"kube-api-access-8hcmj\" : object \"default\"/\"kube-root-ca.crt\" not registered\n",
        "2026-11-25T00:00:00Z",
    );
    assert_eq!(d.findings.len(), 1);
    let f = crate::tests::finding_of(&d, Cause::DeviceAllocationFailed);
    assert!(f.summary.contains("on pkm-05"), "{}", f.summary);
    // The scheduler's `Successfully assigned default/gpu-pod` names the pod the section is of.
    assert_eq!(
        (f.objects[0].namespace.as_str(), f.objects[0].name.as_str()),
        ("default", "gpu-pod")
    );
}

#[test]
fn a_crash_looping_pods_log_that_gives_up_explains_it() {
    // weaveworks/eks-quickstart-app-dev PR 11: a row and the pod's `kubectl logs`, no exit code.
    let d = diagnose_paste(
        "$ kubectl get po -n amazon-cloudwatch\n\
         NAME                       READY   STATUS             RESTARTS   AGE\n\
         cloudwatch-agent-x9qrv     0/1     CrashLoopBackOff   5          4m25s\n\n\
         $ kubectl -n amazon-cloudwatch logs cloudwatch-agent-x9qrv\n\
         [...]\n\
         E! Error: no outputs found, did you provide a valid config file?\n",
        "2026-11-25T00:00:00Z",
    );
    let f = crate::tests::finding_of(&d, Cause::AppExitError);
    assert_eq!(f.objects[0].name, "cloudwatch-agent-x9qrv");
    assert!(
        f.evidence
            .iter()
            .any(|e| e.quote.contains("E! Error: no outputs found")),
        "{:?}",
        f.evidence
    );
    assert!(d.unexplained.is_empty());
}

#[test]
fn an_unreachable_dependency_comes_after_the_broken_network_that_explains_it() {
    // k3s issue 10882: the kubelet's probe refused, then the pod cannot reach the API's Service IP.
    let d = diagnose_paste(
        "https://10.12.0.33:10250/readyz\": dial tcp 10.12.0.33:10250: connect: connection refused\n\n\
         kubectl logs -n kube-system metrics-server-557ff575fb-cqh58\n\
         Error: unable to load configmap based request-header-client-ca-file: Get \"https://10.13.0.1:443/api/v1/namespaces/kube-system/configmaps/extension-apiserver-authentication\": dial tcp 10.13.0.1:443: i/o timeout\n",
        "2026-11-25T00:00:00Z",
    );
    assert_eq!(d.findings[0].cause, Cause::PodNetworkBroken);
}

#[test]
fn the_kubelets_predicate_refusal_is_an_admission_not_the_schedulers() {
    // Azure/karpenter-provider-azure issue 1625: the kubelet had not yet seen a startup taint
    // removed and refused the pod the scheduler had bound.
    let d = diagnose_paste(
        "time=2026-04-07T00:27:32Z type=Warning reason=TaintToleration from=kubelet message=Predicate TaintToleration failed: node(s) had taints that the pod didn't tolerate\n",
        "2026-11-25T00:00:00Z",
    );
    assert_eq!(d.findings[0].cause, Cause::NodeAdmissionRejected);
}

#[test]
fn a_container_the_kubelet_kills_for_its_liveness_probe_is_restarted_for_it() {
    // SparebankenVest/public-helm-charts issue 105: both probes fail; the liveness kills restart
    // the container, which is what to fix, not its readiness.
    let d = diagnose_paste(
        "Warning  Unhealthy  2m3s (x10 over 2m51s)  kubelet            Readiness probe failed: Get \"http://10.240.25.5:9000/healthz\": dial tcp 10.240.25.5:9000: connect: connection refused\n\
         \x20 Warning  Unhealthy  113s (x6 over 2m43s)   kubelet            Liveness probe failed: Get \"http://10.240.25.5:9000/healthz\": dial tcp 10.240.25.5:9000: connect: connection refused\n\
         \x20 Normal   Killing    113s (x2 over 2m23s)   kubelet            Container controller failed liveness probe, will be restarted\n",
        "2026-11-25T00:00:00Z",
    );
    assert_eq!(d.findings[0].cause, Cause::LivenessProbeFailing);
    assert!(
        d.findings[0].summary.contains("\"controller\""),
        "{}",
        d.findings[0].summary
    );
}

#[test]
fn a_row_without_its_namespace_is_the_pod_its_describe_shows() {
    // knix-microfunctions/knix issue 41: `k get pods` in the current namespace, then the
    // describe (`Namespace: knix-test`) of the Pending one: one pod, not two.
    let d = diagnose_paste(
        "$ k get pods\n\
         NAME                      READY   STATUS             RESTARTS   AGE\n\
         dl-mfn-0                  1/1     Running            0          12m\n\
         dl-mfn-1                  0/1     Pending            0          3m8s\n\n\
         $ k describe pods dl-mfn-1\n\
         Name:           dl-mfn-1\n\
         Namespace:      knix-test\n\
         Priority:       0\n\
         Node:           <none>\n\
         Status:         Pending\n\
         IP:\n",
        "2026-11-25T00:00:00Z",
    );
    let pods: Vec<String> = d
        .unexplained
        .iter()
        .map(|u| format!("{}/{}", u.object.namespace, u.object.name))
        .collect();
    assert_eq!(pods, ["knix-test/dl-mfn-1"]);
}

#[test]
fn a_paste_of_only_a_markdown_heading_is_read() {
    // kubernetes/kubeadm issue 2716 (a 1.24 upgrade): the error pasted as a heading. YAML reads
    // `#` lines as comments and held nothing.
    let d = diagnose_paste(
        "## Error: unknown flag: --address\n",
        "2026-11-25T00:00:00Z",
    );
    assert_eq!(d.findings[0].cause, Cause::AppExitError);
    assert!(
        d.findings[0].evidence[0]
            .quote
            .contains("unknown flag: --address")
    );
}
