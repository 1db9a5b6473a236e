//! `kubewhy gone` on real histories and made-up ones.

mod unit {
    use super::super::*;
    use kubewhy_source::{Input, load};

    /// A new cause of the Gone family cannot silently get "deleted by a client" advice.
    #[test]
    fn every_gone_cause_has_its_own_advice() {
        let gone: Vec<Cause> = Cause::ALL
            .iter()
            .copied()
            .filter(|c| c.family() == kubewhy_model::Family::Gone)
            .collect();
        assert!(gone.len() >= 13, "{gone:?}");
        for c in gone {
            let f = advise(
                Finding::new(c, Severity::Info, "test"),
                c,
                "shop",
                "node-1",
                None,
            );
            assert!(!f.remediation.is_empty(), "{}", c.slug());
        }
    }

    const DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../tests/fixtures/history");

    /// The real 1.20 cluster's state after the deletions, its audit log, its controller-manager
    /// log and the flight recorder's rows (see tests/fixtures/history/README.md).
    fn sources(
        audit: bool,
        controller: bool,
        recorder: bool,
        cluster: bool,
    ) -> (Snapshot, History) {
        let snap = if cluster {
            let loaded = load(&[Input::Path(format!("{DIR}/cluster.json").into())], None);
            assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
            loaded.snapshot
        } else {
            Snapshot::default()
        };
        let mut h = History::default();
        let mut w = Vec::new();
        if audit {
            kubewhy_source::read_audit_log(
                format!("{DIR}/audit.log").as_ref(),
                &mut h.audit,
                &mut w,
            );
            h.sources.push("audit log".into());
        }
        if controller {
            kubewhy_source::read_controller_log(
                format!("{DIR}/kube-controller-manager.log").as_ref(),
                "2026-11-23T01:00:00Z".parse().ok(),
                &mut h.controller,
                &mut w,
            );
            h.sources.push("controller log".into());
        }
        if recorder {
            let v: serde_json::Value = serde_json::from_str(
                &std::fs::read_to_string(format!("{DIR}/recorder.json")).unwrap(),
            )
            .unwrap();
            h.pods = serde_json::from_value(v["pods"].clone()).unwrap();
            h.objects = serde_json::from_value(v["objects"].clone()).unwrap();
            h.sources.push("flight recorder".into());
        }
        assert!(w.is_empty(), "{w:?}");
        (snap, h)
    }

    fn ask(snap: &Snapshot, h: &History, ns: &str, pod: &str) -> Answer {
        explain(
            snap,
            h,
            &Query {
                namespace: ns.into(),
                pod: Some(pod.into()),
                owner: None,
                selector: None,
            },
        )
    }

    /// Each pod's single cause.
    /// Successful deletions in namespace `data`, as an audit log records them, added to `h`:
    /// `(resource, apiGroup, name, user)`.
    fn audit_deletions(h: &mut History, rows: &[(&str, &str, &str, &str)]) {
        let lines: Vec<String> = rows
            .iter()
            .enumerate()
            .map(|(i, (res, group, name, user))| {
                format!(
                    r#"{{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"a{i}","stage":"ResponseComplete","verb":"delete","user":{{"username":"{user}"}},"objectRef":{{"resource":"{res}","namespace":"data","name":"{name}","apiGroup":"{group}","apiVersion":"v1"}},"responseStatus":{{"code":200}},"stageTimestamp":"2026-11-22T11:20:00.000000Z"}}"#
                )
            })
            .collect();
        let mut w = Vec::new();
        kubewhy_source::parse_audit(
            "audit.log",
            lines.join("\n").as_bytes(),
            &mut h.audit,
            &mut w,
        );
        assert!(w.is_empty(), "{w:?}");
        if !h.sources.iter().any(|s| s == "audit log") {
            h.sources.push("audit log".into());
        }
    }

    fn assert_causes(snap: &Snapshot, h: &History, cases: &[(&str, &str, Cause)]) {
        for (ns, pod, want) in cases {
            let a = ask(snap, h, ns, pod);
            assert_eq!(
                a.findings.first().map(|f| f.cause),
                Some(*want),
                "{ns}/{pod}: {a:#?}"
            );
        }
    }

    fn cause(a: &Answer) -> (Cause, Confidence) {
        assert_eq!(a.findings.len(), 1, "{a:#?}");
        (a.findings[0].cause, a.findings[0].confidence)
    }

    #[test]
    fn pod_gc_threshold_from_the_controller_log_and_from_the_audit_log() {
        let (snap, h) = sources(false, true, false, false);
        let a = ask(&snap, &h, "rc-scn", "done-1");
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::High));
        assert_eq!(
            a.findings[0].evidence[0].quote,
            "I1123 00:19:03.552597   10834 gc_controller.go:78] PodGC is force deleting Pod: rc-scn/done-1"
        );
        let (snap, h) = sources(true, false, false, false);
        let a = ask(&snap, &h, "rc-scn", "done-2");
        assert_eq!(a.findings[0].cause, Cause::PodGcThreshold);
        assert!(
            a.findings[0].evidence[0]
                .quote
                .contains("delete pods rc-scn/done-2 by system:serviceaccount:kube-system:pod-garbage-collector (kube-controller-manager/v1.20.2) → 200"),
            "{:#?}",
            a.findings[0].evidence
        );
        // A terminated pod the GC took, but the audit log alone cannot see it was terminated.
        assert_eq!(a.findings[0].confidence, Confidence::Low);
    }

    #[test]
    fn every_deletion_of_the_real_run_from_the_audit_log_alone() {
        let (snap, h) = sources(true, false, false, false);
        assert_causes(
            &snap,
            &h,
            &[
                ("rc-gone", "manual", Cause::DeletedByClient),
                ("rc-gone", "web-79c745d8c8-x97fq", Cause::OwnerDeleted),
                ("rc-gone", "web-79c745d8c8-wn2gm", Cause::OwnerDeleted),
                ("rc-gone-ns", "doomed", Cause::NamespaceDeleted),
            ],
        );
        let a = ask(&snap, &h, "rc-gone", "manual");
        assert!(
            a.findings[0].summary.contains("admin deleted it"),
            "{}",
            a.findings[0].summary
        );
    }

    #[test]
    fn every_deletion_of_the_real_run_from_the_recorder_alone() {
        let (snap, h) = sources(false, false, true, false);
        assert_causes(
            &snap,
            &h,
            &[
                ("rc-gone", "manual", Cause::DeletedByClient),
                ("rc-gone", "web-79c745d8c8-x97fq", Cause::OwnerDeleted),
                ("rc-gone", "tick-1795393680-n2qf8", Cause::JobTtlExpired),
                ("rc-gone-ns", "doomed", Cause::NamespaceDeleted),
            ],
        );
        let a = ask(&snap, &h, "rc-gone", "tick-1795393680-n2qf8");
        assert_eq!(
            a.findings[0].summary.split(" (at ").next().unwrap(),
            "Pod rc-gone/tick-1795393680-n2qf8 is gone: CronJob tick's history limit removed its Job tick-1795393680, and the pod with it"
        );
        // Without an audit log, a plain client deletion is only likely, and says what would tell.
        let a = ask(&snap, &h, "rc-gone", "manual");
        assert_eq!(a.findings[0].confidence, Confidence::Low);
        assert!(
            a.findings[0]
                .summary
                .contains("an audit log would name who")
        );
    }

    #[test]
    fn the_owner_query_finds_the_pods_of_a_deployment_through_its_replicaset() {
        let (snap, h) = sources(true, false, true, true);
        let a = explain(
            &snap,
            &h,
            &Query {
                namespace: "rc-gone".into(),
                pod: None,
                owner: Some(("Deployment".into(), "web".into())),
                selector: None,
            },
        );
        let pods: Vec<&str> = a
            .findings
            .iter()
            .flat_map(|f| &f.objects)
            .map(|o| o.name.as_str())
            .collect();
        assert_eq!(
            pods,
            vec!["web-79c745d8c8-wn2gm", "web-79c745d8c8-x97fq"],
            "{a:#?}"
        );
        assert!(a.findings.iter().all(|f| f.cause == Cause::OwnerDeleted));
    }

    #[test]
    fn nothing_known_says_what_would_tell() {
        let (snap, h) = sources(false, false, false, true);
        let a = ask(&snap, &h, "rc-gone", "never-existed");
        assert!(a.findings.is_empty());
        assert_eq!(a.unknown.len(), 1);
        assert_eq!(a.unknown[0].status, "not found");
        assert!(
            a.unknown[0].next.contains("--audit-log"),
            "{}",
            a.unknown[0].next
        );
        assert!(a.unknown[0].next.contains("kubewhy watch --record"));
    }

    #[test]
    fn a_live_pod_is_not_gone_and_marked_ones_are_explained() {
        let (snap, h) = sources(false, false, false, true);
        let live = snap
            .pods
            .iter()
            .find(|p| p.metadata.deletion_timestamp.is_none())
            .unwrap();
        let a = ask(&snap, &h, live.metadata.ns(), &live.metadata.name);
        assert_eq!(a.alive.len(), 1, "{a:#?}");

        let yaml = "apiVersion: v1\nkind: Pod\nmetadata: {name: w, namespace: shop, uid: u1, deletionTimestamp: '2026-11-22T11:59:50Z', deletionGracePeriodSeconds: 30}\nspec: {containers: [{name: c}]}\nstatus: {phase: Pending}\n";
        let snap = crate::tests::snapshot_of(yaml, "2026-11-22T11:59:40Z");
        let a = ask(&snap, &History::default(), "shop", "w");
        assert_eq!(cause(&a).0, Cause::PodGcUnscheduledTerminating);
        assert!(
            a.findings[0].summary.starts_with(
                "Pod shop/w is being removed: it is terminating and was never scheduled"
            )
        );
    }

    #[test]
    fn disruption_target_and_evictions_in_the_recorder() {
        for (reason, status_reason, want) in [
            ("DeletionByTaintManager", "", Cause::EvictedTaint),
            ("EvictionByEvictionAPI", "", Cause::EvictedApi),
            ("PreemptionByScheduler", "", Cause::Preempted),
            ("DeletionByPodGC", "", Cause::PodGcOrphaned),
            ("", "Evicted", Cause::EvictedNodePressure),
        ] {
            let h = History {
                pods: vec![PodRecord {
                    namespace: "shop".into(),
                    name: "w".into(),
                    uid: "u".into(),
                    node: "node-1".into(),
                    phase: "Failed".into(),
                    reason: status_reason.into(),
                    message: "The node was low on resource: memory.".into(),
                    disruption_reason: reason.into(),
                    deleted: "2026-11-20T10:00:00Z".parse().ok(),
                    ..Default::default()
                }],
                ..Default::default()
            };
            let a = ask(&Snapshot::default(), &h, "shop", "w");
            assert_eq!(
                cause(&a),
                (want, Confidence::High),
                "{reason}{status_reason}"
            );
        }
    }

    /// The kubelet's own ends, kept in the recorder's row: a node shutdown (the condition of
    /// 1.26+, the reason alone before, the `Shutdown` of 1.21), an activeDeadlineSeconds, an
    /// admission refusal and a device plugin's.
    #[test]
    fn the_kubelets_own_ends_in_the_recorder() {
        let shutdown = "Pod was terminated in response to imminent node shutdown.";
        for (reason, message, target, want) in [
            (
                "Terminated",
                shutdown,
                "TerminationByKubelet",
                Cause::NodeShutdown,
            ),
            ("Terminated", shutdown, "", Cause::NodeShutdown),
            (
                "Shutdown",
                "Node is shutting, evicting pods",
                "",
                Cause::NodeShutdown,
            ),
            (
                "DeadlineExceeded",
                "Pod was active on the node longer than the specified deadline",
                "",
                Cause::DeadlineExceeded,
            ),
            (
                "OutOfcpu",
                "Pod was rejected: Node didn't have enough resource: cpu, requested: 4000, used: 1500, capacity: 4000",
                "",
                Cause::NodeAdmissionRejected,
            ),
            (
                "UnexpectedAdmissionError",
                "Pod was rejected: Allocate failed due to no healthy devices present; cannot allocate unhealthy devices nvidia.com/gpu, which is unexpected",
                "",
                Cause::DeviceAllocationFailed,
            ),
        ] {
            let h = History {
                pods: vec![PodRecord {
                    namespace: "shop".into(),
                    name: "w".into(),
                    uid: "u".into(),
                    node: "node-1".into(),
                    phase: "Failed".into(),
                    reason: reason.into(),
                    message: message.into(),
                    disruption_reason: target.into(),
                    disruption_message: if target.is_empty() {
                        String::new()
                    } else {
                        message.into()
                    },
                    deleted: "2026-11-20T10:00:00Z".parse().ok(),
                    ..Default::default()
                }],
                sources: vec!["flight recorder".into()],
                ..Default::default()
            };
            let a = ask(&Snapshot::default(), &h, "shop", "w");
            assert_eq!(cause(&a), (want, Confidence::High), "{reason} {target}");
            assert!(!a.findings[0].remediation.is_empty());
        }
    }

    #[test]
    fn eviction_and_orphans_in_the_audit_and_controller_logs() {
        let line = |user: &str, sub: &str, verb: &str| AuditEntry {
            origin: "a.log:1".into(),
            time: "2026-11-20T10:00:00Z".parse().ok(),
            verb: verb.into(),
            user: user.into(),
            impersonated: None,
            user_agent: String::new(),
            resource: "pods".into(),
            subresource: sub.into(),
            api_group: String::new(),
            namespace: "shop".into(),
            name: "w".into(),
            code: Some(201),
        };
        let h = History {
            audit: vec![line(
                "system:serviceaccount:kube-system:cluster-autoscaler",
                "eviction",
                "create",
            )],
            ..Default::default()
        };
        let a = ask(&Snapshot::default(), &h, "shop", "w");
        assert_eq!(cause(&a).0, Cause::EvictedApi);
        assert!(
            a.findings[0]
                .summary
                .contains("cluster-autoscaler evicted it")
        );

        let h = History {
            audit: vec![line(
                "system:serviceaccount:kube-system:node-controller",
                "",
                "delete",
            )],
            ..Default::default()
        };
        assert_eq!(
            cause(&ask(&Snapshot::default(), &h, "shop", "w")).0,
            Cause::EvictedTaint
        );

        let mut h = History::default();
        let mut w = Vec::new();
        kubewhy_source::parse_controller_log(
            "kcm.log",
            "I1120 10:00:00.000000       1 gc_controller.go:160] Found orphaned Pod shop/w assigned to the Node node-9. Deleting.\n".as_bytes(),
            None,
            &mut h.controller,
            &mut w,
        );
        let a = ask(&Snapshot::default(), &h, "shop", "w");
        assert_eq!(cause(&a), (Cause::PodGcOrphaned, Confidence::High));
        assert!(
            a.findings[0]
                .summary
                .contains("its node node-9 no longer exists")
        );
    }

    /// Seed 003: pods of Argo workflows vanished; the first suspect is Argo's own pod GC.
    #[test]
    fn argo_workflow_pod_gc_is_weighed_and_ruled_out_when_it_cannot_apply() {
        let yaml = "\
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: etl, namespace: data, uid: w1}
spec: {podGC: {strategy: OnPodCompletion}}
status: {phase: Running}
---
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: report, namespace: data, uid: w2}
spec: {}
status: {phase: Failed}
---
apiVersion: argoproj.io/v1alpha1
kind: Workflow
metadata: {name: nightly, namespace: data, uid: w3}
spec: {podGC: {strategy: OnWorkflowSuccess, labelSelector: {matchLabels: {cleanup: 'yes'}}}}
status: {phase: Succeeded}
---
apiVersion: v1
kind: Namespace
metadata: {name: data}
";
        let snap = crate::tests::snapshot_of(yaml, "2026-11-22T12:00:00Z");
        let owner = |wf: &str, uid: &str| {
            Some(OwnerLink {
                kind: "Workflow".into(),
                name: wf.into(),
                uid: uid.into(),
            })
        };
        let rec = |name: &str, wf: &str, uid: &str, phase: &str, grace: Option<i64>| PodRecord {
            namespace: "data".into(),
            name: name.into(),
            uid: format!("u-{name}"),
            owner: owner(wf, uid),
            node: "node-1".into(),
            phase: phase.into(),
            deletion_seen: grace.and("2026-11-22T11:00:00Z".parse().ok()),
            deletion_grace: grace,
            deleted: "2026-11-22T11:00:01Z".parse().ok(),
            labels: [("cleanup".to_string(), "no".to_string())].into(),
            ..Default::default()
        };
        let mut h = History {
            pods: vec![
                rec("etl-extract-1234", "etl", "w1", "Failed", Some(30)),
                rec("report-render-77", "report", "w2", "Failed", None),
                rec("nightly-load-5", "nightly", "w3", "Succeeded", Some(30)),
            ],
            ..Default::default()
        };
        // The workflow controller's deletion, in the audit log (a pod without a recorder row).
        audit_deletions(
            &mut h,
            &[("pods", "", "etl-load-99", "system:serviceaccount:argo:argo")],
        );

        // Recorded, graceful: Argo's OnPodCompletion covers a failed pod.
        let a = ask(&snap, &h, "data", "etl-extract-1234");
        assert_eq!(cause(&a), (Cause::DeletedByClient, Confidence::Medium));
        let f = &a.findings[0];
        assert!(
            f.summary.contains("the Argo workflow controller deleted it: Workflow etl's pod GC deletes its pods when each pod completes (this one: Failed)"),
            "{}",
            f.summary
        );
        assert!(f.evidence.iter().any(|e| {
            e.source == "spec.podGC, status.phase"
                && e.quote.starts_with("spec.podGC.strategy=OnPodCompletion; ")
                && e.object
                    .as_ref()
                    .is_some_and(|o| o.kind == "Workflow" && o.name == "etl")
        }));
        assert!(
            f.remediation
                .iter()
                .any(|s| s.action.starts_with("Keep failed pods for their logs"))
        );

        // In the audit log, deleted by the workflow controller's service account: High.
        let a = ask(&snap, &h, "data", "etl-load-99");
        assert_eq!(cause(&a), (Cause::DeletedByClient, Confidence::High));
        assert!(
            a.findings[0].summary.contains(
                "the Argo workflow controller (system:serviceaccount:argo:argo) deleted it"
            )
        );

        // No podGC (seed 003): Argo is ruled out, and the pod GC's threshold rule explains it.
        let a = ask(&snap, &h, "data", "report-render-77");
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::Medium));
        assert!(a.findings[0].evidence.iter().any(|e| e.quote
            == "no spec.podGC; Workflow report has no spec.podGC: the Argo workflow controller does not delete its pods"));

        // The labelSelector leaves this pod out: not Argo, and nothing else explains it.
        let a = ask(&snap, &h, "data", "nightly-load-5");
        assert_eq!(cause(&a), (Cause::DeletedByClient, Confidence::Low));
        assert!(
            !a.findings[0].summary.contains("Argo"),
            "{}",
            a.findings[0].summary
        );
        assert!(a.findings[0].evidence.iter().any(|e| {
            e.quote
                .contains("only deletes pods its labelSelector matches")
        }));

        // `--owner Workflow/etl` finds the recorded pod and the audit log's (by name).
        let a = explain(
            &snap,
            &h,
            &Query {
                namespace: "data".into(),
                pod: None,
                owner: Some(("Workflow".into(), "etl".into())),
                selector: None,
            },
        );
        let mut pods: Vec<&str> = a
            .findings
            .iter()
            .flat_map(|f| f.objects.iter().map(|o| o.name.as_str()))
            .collect();
        pods.sort();
        assert_eq!(pods, ["etl-extract-1234", "etl-load-99"]);
    }

    /// Preemption: the scheduler's identity in the audit log, its event on the victim (every
    /// wording), a DisruptionTarget of any era, a higher-priority pod nominated to the node —
    /// each with the preemptor and both priorities.
    #[test]
    fn preemption_from_every_source_names_the_preemptor() {
        let snap = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: urgent, namespace: data, uid: u-urgent}\nspec: {nodeName: node-1, priorityClassName: high, priority: 1000, containers: [{name: c}]}\nstatus: {phase: Running, nominatedNodeName: node-1}\n---\napiVersion: v1\nkind: Event\nmetadata: {name: victim.1, namespace: data}\ninvolvedObject: {kind: Pod, name: victim, namespace: data, uid: u-victim}\nreason: Preempted\nmessage: 'Preempted by data/urgent on node node-1'\ntype: Normal\nsource: {component: default-scheduler}\nfirstTimestamp: '2026-11-22T11:20:00Z'\n",
            "2026-11-22T12:00:00Z",
        );
        let victim = |h: &mut History| {
            h.pods.push(PodRecord {
                namespace: "data".into(),
                name: "victim".into(),
                uid: "u-victim".into(),
                node: "node-1".into(),
                phase: "Running".into(),
                deletion_seen: "2026-11-22T11:20:00Z".parse().ok(),
                deletion_grace: Some(30),
                deleted: "2026-11-22T11:20:31Z".parse().ok(),
                ..Default::default()
            });
            h.sources.push("flight recorder".into());
        };
        // The audit log: system:kube-scheduler deleted it (today's deleted-by-client).
        let mut h = History::default();
        audit_deletions(&mut h, &[("pods", "", "victim", "system:kube-scheduler")]);
        let a = ask(&Snapshot::default(), &h, "data", "victim");
        assert_eq!(cause(&a), (Cause::Preempted, Confidence::High));
        // The event names the preemptor; the cluster shows its class.
        let mut h = History::default();
        victim(&mut h);
        let a = ask(&snap, &h, "data", "victim");
        assert_eq!(cause(&a), (Cause::Preempted, Confidence::High));
        assert!(
            a.findings[0].summary.contains("data/urgent (PriorityClass high, 1000) preempted it to make room on node node-1; its own priority: no PriorityClass, priority 0"),
            "{}",
            a.findings[0].summary
        );
        assert!(
            a.findings[0]
                .evidence
                .iter()
                .any(|e| e.quote == "Preempted by data/urgent on node node-1")
        );
        // DisruptionTarget, the older reason.
        let mut h = History::default();
        victim(&mut h);
        h.pods[0].disruption_reason = "PreemptionByKubeScheduler".into();
        h.pods[0].priority_class = "batch".into();
        h.pods[0].priority = Some(10);
        let a = ask(&Snapshot::default(), &h, "data", "victim");
        assert_eq!(a.findings[0].cause, Cause::Preempted);
        assert!(
            a.findings[0]
                .summary
                .contains("its own priority: PriorityClass batch, 10")
        );
        // No event, no condition: a graceful deletion beside a pod nominated to its node.
        let nominated = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Pod\nmetadata: {name: urgent, namespace: data, uid: u-urgent}\nspec: {priorityClassName: high, priority: 1000, containers: [{name: c}]}\nstatus: {phase: Pending, nominatedNodeName: node-1}\n",
            "2026-11-22T12:00:00Z",
        );
        let mut h = History::default();
        victim(&mut h);
        let a = ask(&nominated, &h, "data", "victim");
        assert_eq!(cause(&a), (Cause::Preempted, Confidence::Medium));
        assert!(
            a.findings[0]
                .evidence
                .iter()
                .any(|e| e.quote == "nominatedNodeName node-1, priority 1000")
        );
    }

    /// Evictions the audit policy does not record: a PodDisruptionBudget's disruptedPods (in
    /// the data, or seen by the recorder), the DisruptionTarget, and absence in an audit log
    /// that records pod deletions.
    #[test]
    fn evictions_without_an_audited_eviction_request() {
        let gone = |h: &mut History| {
            h.pods.push(PodRecord {
                namespace: "data".into(),
                name: "web-1".into(),
                uid: "u-web-1".into(),
                node: "node-1".into(),
                phase: "Running".into(),
                owner: Some(OwnerLink {
                    kind: "ReplicaSet".into(),
                    name: "web-5d8f".into(),
                    uid: "rs".into(),
                }),
                deletion_seen: "2026-11-22T11:20:00Z".parse().ok(),
                deletion_grace: Some(30),
                deleted: "2026-11-22T11:20:31Z".parse().ok(),
                ..Default::default()
            });
            h.sources.push("flight recorder".into());
        };
        // The recorder saw the budget name it.
        let mut h = History::default();
        gone(&mut h);
        h.pods[0].evicted_under = "web-pdb at 2026-11-22T11:20:00Z".into();
        let a = ask(&Snapshot::default(), &h, "data", "web-1");
        assert_eq!(cause(&a), (Cause::EvictedApi, Confidence::High));
        assert!(
            a.findings[0]
                .summary
                .contains("under PodDisruptionBudget web-pdb")
        );
        // A dump read at the moment: the budget's status names it.
        let snap = crate::tests::snapshot_of(
            "apiVersion: policy/v1\nkind: PodDisruptionBudget\nmetadata: {name: web-pdb, namespace: data}\nspec: {maxUnavailable: 1, selector: {matchLabels: {app: web}}}\nstatus: {disruptedPods: {web-1: '2026-11-22T11:20:00Z'}, disruptionsAllowed: 0}\n",
            "2026-11-22T12:00:00Z",
        );
        let mut h = History::default();
        gone(&mut h);
        let a = ask(&snap, &h, "data", "web-1");
        assert_eq!(cause(&a), (Cause::EvictedApi, Confidence::High));
        assert!(
            a.findings[0]
                .evidence
                .iter()
                .any(|e| e.source == "PodDisruptionBudget data/web-pdb: status.disruptedPods")
        );
        // The audit log records pod deletions from before the pod's deletion began; of this pod
        // only the kubelet's final delete.
        let entry = |name: &str, user: &str, at: &str| AuditEntry {
            origin: format!("audit.log:{name}"),
            time: at.parse().ok(),
            verb: "delete".into(),
            user: user.into(),
            resource: "pods".into(),
            namespace: "data".into(),
            name: name.into(),
            code: Some(200),
            ..Default::default()
        };
        let mut h = History::default();
        gone(&mut h);
        h.audit = vec![
            entry("other", "admin", "2026-11-22T11:00:00Z"),
            entry("web-1", "system:node:node-1", "2026-11-22T11:20:31Z"),
        ];
        h.sources.push("audit log".into());
        // A namespace of that name deleted before the pod existed (and made again) explains
        // nothing (seen on the real cluster: the e2e suite recreates its namespaces).
        h.pods[0].created = "2026-11-22T11:10:00Z".parse().ok();
        h.audit.push(AuditEntry {
            resource: "namespaces".into(),
            namespace: "data".into(),
            ..entry("data", "admin", "2026-11-22T11:05:00Z")
        });
        let a = ask(&Snapshot::default(), &h, "data", "web-1");
        assert_eq!(cause(&a), (Cause::EvictedApi, Confidence::Medium));
        h.audit.pop();
        assert!(a.findings[0].evidence.iter().any(|e| e.quote == "2 pod deletion(s) recorded from 2026-11-22T11:00:00Z to 2026-11-22T11:20:31Z; none of this pod by a client, only the kubelet's final delete (system:node:node-1), which follows a graceful deletion"), "{:#?}", a.findings[0].evidence);
        // A log that starts after the deletion began cannot show absence.
        h.audit[0].time = "2026-11-22T11:20:10Z".parse().ok();
        assert_ne!(
            ask(&Snapshot::default(), &h, "data", "web-1").findings[0].cause,
            Cause::EvictedApi
        );
        // A client's delete in that log is the answer instead.
        h.audit[0] = entry("web-1", "admin", "2026-11-22T11:20:00Z");
        assert_eq!(
            ask(&Snapshot::default(), &h, "data", "web-1").findings[0].cause,
            Cause::DeletedByClient
        );
    }

    /// A name used again (a test run twice, a StatefulSet's pod): requests from before this pod
    /// existed were about its namesake, and say nothing of when or why this one went.
    #[test]
    fn requests_about_an_earlier_pod_of_the_same_name_are_ignored() {
        let snap = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Event\nmetadata: {name: done-1.1, namespace: data}\ninvolvedObject: {kind: Pod, name: done-1, namespace: data}\nreason: Scheduled\nmessage: Successfully assigned data/done-1 to node-1\nfirstTimestamp: '2026-11-22T11:00:00Z'\nsource: {component: default-scheduler}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-1, creationTimestamp: '2026-11-22T10:30:00Z'}\n",
            "2026-11-22T12:00:00Z",
        );
        let gc = "system:serviceaccount:kube-system:pod-garbage-collector";
        let entry = |at: &str| AuditEntry {
            origin: format!("audit.log:{at}"),
            time: at.parse().ok(),
            verb: "delete".into(),
            user: gc.into(),
            resource: "pods".into(),
            namespace: "data".into(),
            name: "done-1".into(),
            code: Some(200),
            ..Default::default()
        };
        let h = History {
            audit: vec![entry("2026-11-22T10:00:00Z"), entry("2026-11-22T11:20:00Z")],
            sources: vec!["audit log".into()],
            ..Default::default()
        };
        let a = ask(&snap, &h, "data", "done-1");
        // The node registered at 10:30 is not "newer than the deletion" of the pod of 11:00.
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::Medium));
        assert!(
            a.findings[0].summary.ends_with("(at 2026-11-22T11:20:00Z)"),
            "{}",
            a.findings[0].summary
        );
    }

    /// The pod GC's force-delete line is the same for every rule: the success line beside it,
    /// or the state, separates them; without either the answer says it cannot.
    #[test]
    fn which_pod_gc_rule_from_the_line_beside_it_or_the_state() {
        let controller = |text: &str| {
            let mut h = History::default();
            let mut w = Vec::new();
            kubewhy_source::parse_controller_log(
                "kcm.log",
                text.as_bytes(),
                "2026-11-22T12:00:00Z".parse().ok(),
                &mut h.controller,
                &mut w,
            );
            assert!(w.is_empty());
            h.sources.push("controller log".into());
            h
        };
        // node-1 registered again at 11:25, after the pod went at 11:20.
        let snap = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, creationTimestamp: '2026-11-22T11:25:00Z'}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n",
            "2026-11-22T12:00:00Z",
        );
        // 1.20 at the default verbosity: the success line names the orphan rule.
        let h = controller(
            "I1122 11:20:00.100000   10834 gc_controller.go:78] PodGC is force deleting Pod: data/orphan
I1122 11:20:00.110000   10834 gc_controller.go:185] Forced deletion of orphaned Pod data/orphan succeeded
",
        );
        let a = ask(&snap, &h, "data", "orphan");
        assert_eq!(cause(&a), (Cause::PodGcOrphaned, Confidence::High));
        assert!(
            a.findings[0].evidence.iter().any(|e| e
                .quote
                .ends_with("Forced deletion of orphaned Pod data/orphan succeeded")),
            "{:#?}",
            a.findings[0].evidence
        );
        // The force-delete line alone, nothing else known: the family, at low confidence, and
        // what would settle it.
        let h = controller(
            "I1122 11:20:00.100000   10834 gc_controller.go:78] PodGC is force deleting Pod: data/lone\n",
        );
        let a = ask(&Snapshot::default(), &h, "data", "lone");
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::Low));
        assert!(
            a.findings[0]
                .summary
                .contains("does not show which of its rules")
        );
        assert!(
            a.findings[0].remediation.iter().any(|s| s
                .action
                .starts_with("Which rule: kube-controller-manager's log line")),
            "{:#?}",
            a.findings[0].remediation
        );
        // The force-delete line, and the recorder's last state: Running on node-1, whose Node
        // now is newer than the deletion: the orphan rule, not the threshold (the old answer).
        let mut h = controller(
            "I1122 11:20:00.100000   10834 gc_controller.go:78] PodGC is force deleting Pod: data/orphan\n",
        );
        h.pods.push(PodRecord {
            namespace: "data".into(),
            name: "orphan".into(),
            uid: "u-orphan".into(),
            node: "node-1".into(),
            phase: "Running".into(),
            deleted: "2026-11-22T11:20:00Z".parse().ok(),
            ..Default::default()
        });
        h.sources.push("flight recorder".into());
        let a = ask(&snap, &h, "data", "orphan");
        assert_eq!(a.findings[0].cause, Cause::PodGcOrphaned, "{a:#?}");
        // Terminated on a node that is still the same object: the threshold.
        let snap_same = crate::tests::snapshot_of(
            "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, creationTimestamp: '2026-11-01T00:00:00Z'}\n",
            "2026-11-22T12:00:00Z",
        );
        h.pods[0].phase = "Succeeded".into();
        let a = ask(&snap_same, &h, "data", "orphan");
        assert_eq!(cause(&a), (Cause::PodGcThreshold, Confidence::Medium));
    }

    /// The e2e churn on the real 1.20 cluster (2026-11-26): the test client deleted a pod that
    /// was never scheduled, and the pod GC, seeing it terminating, raced it. Real lines: the
    /// client's delete (200), the collector's (404), its force-delete line and the "not found"
    /// error. The client removed it; the collector did nothing.
    const RACE_ADMIN: &str = r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"bdbe880a-2fa4-4e2e-b0b4-867e69b66ba4","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/e2e-churn/pods/churn-143-18?","verb":"delete","user":{"username":"admin","groups":["system:masters","system:authenticated"]},"sourceIPs":["127.0.0.1"],"objectRef":{"resource":"pods","namespace":"e2e-churn","name":"churn-143-18","apiVersion":"v1"},"responseStatus":{"metadata":{},"code":200},"requestReceivedTimestamp":"2026-11-26T11:16:20.836663Z","stageTimestamp":"2026-11-26T11:16:20.867711Z","annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":""}}"#;
    const RACE_GC_404: &str = r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"04155f78-540b-4d8c-a8f6-6af4903a3abe","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/e2e-churn/pods/churn-143-18","verb":"delete","user":{"username":"system:serviceaccount:kube-system:pod-garbage-collector","uid":"6017fd43-a0b4-4e9a-bab0-9c0288ff4ab3","groups":["system:serviceaccounts","system:serviceaccounts:kube-system","system:authenticated"]},"sourceIPs":["127.0.0.1"],"userAgent":"kube-controller-manager/v1.20.2 (linux/amd64) kubernetes/faecb19/system:serviceaccount:kube-system:pod-garbage-collector","objectRef":{"resource":"pods","namespace":"e2e-churn","name":"churn-143-18","apiVersion":"v1"},"responseStatus":{"metadata":{},"status":"Failure","reason":"NotFound","code":404},"requestReceivedTimestamp":"2026-11-26T11:16:20.923746Z","stageTimestamp":"2026-11-26T11:16:20.924958Z","annotations":{"authorization.k8s.io/decision":"allow","authorization.k8s.io/reason":"RBAC: allowed by ClusterRoleBinding \"system:controller:pod-garbage-collector\" of ClusterRole \"system:controller:pod-garbage-collector\" to ServiceAccount \"pod-garbage-collector/kube-system\""}}"#;
    const RACE_KCM: &str = "I1126 11:16:20.913984    6388 gc_controller.go:78] PodGC is force deleting Pod: e2e-churn/churn-143-18
E1126 11:16:20.926731    6388 gc_controller.go:233] pods \"churn-143-18\" not found
";

    fn race_history(audit: &[&str], kcm: &str) -> History {
        let mut h = History::default();
        let mut w = Vec::new();
        kubewhy_source::parse_audit(
            "audit.log",
            audit.join("\n").as_bytes(),
            &mut h.audit,
            &mut w,
        );
        h.audit.sort_by_key(|e| e.time);
        kubewhy_source::parse_controller_log(
            "kcm.log",
            kcm.as_bytes(),
            "2026-11-26T12:00:00Z".parse().ok(),
            &mut h.controller,
            &mut w,
        );
        assert!(w.is_empty(), "{w:?}");
        h.sources = vec!["audit log".into(), "controller log".into()];
        h
    }

    fn admin_deleted_it(a: &Answer) {
        assert_eq!(cause(a), (Cause::DeletedByClient, Confidence::High));
        let summary = &a.findings[0].summary;
        assert!(summary.contains("admin deleted it"), "{summary}");
    }

    #[test]
    fn a_client_deletion_raced_by_the_pod_gc_is_the_clients() {
        // What the real run logged: the collector's attempt failed.
        let h = race_history(&[RACE_ADMIN, RACE_GC_404], RACE_KCM);
        assert!(h.controller.is_empty(), "{:#?}", h.controller);
        let a = ask(&Snapshot::default(), &h, "e2e-churn", "churn-143-18");
        admin_deleted_it(&a);
        assert!(
            a.findings[0].evidence.iter().any(|e| e.quote
                == "2026-11-26T11:16:20.836663Z delete pods e2e-churn/churn-143-18 by admin → 200"),
            "{:#?}",
            a.findings[0].evidence
        );
        // The rarer outcome (once in 57,150 deletions in CI): the collector's request came
        // between the client's two steps and was answered "already deleting" (200), and the
        // collector logged its success line (1.20's wording). The client still asked first.
        let gc_200 = RACE_GC_404.replace(
            r#""status":"Failure","reason":"NotFound","code":404"#,
            r#""code":200"#,
        );
        let kcm = "I1126 11:16:20.913984    6388 gc_controller.go:78] PodGC is force deleting Pod: e2e-churn/churn-143-18
I1126 11:16:20.926731    6388 gc_controller.go:235] Forced deletion of unscheduled terminating Pod e2e-churn/churn-143-18 succeeded
";
        let h = race_history(&[RACE_ADMIN, &gc_200], kcm);
        assert_eq!(h.controller.len(), 1);
        let a = ask(&Snapshot::default(), &h, "e2e-churn", "churn-143-18");
        admin_deleted_it(&a);
        // Without the audit log, the collector's success line is all there is: its rule.
        let h = race_history(&[], kcm);
        let a = ask(&Snapshot::default(), &h, "e2e-churn", "churn-143-18");
        assert_eq!(
            cause(&a),
            (Cause::PodGcUnscheduledTerminating, Confidence::High)
        );
        // The collector's own request first (it acted on its own, e.g. the threshold): its rule.
        let gc_first = gc_200.replace("2026-11-26T11:16:20.923746Z", "2026-11-26T11:16:20.800000Z");
        let h = race_history(&[RACE_ADMIN, &gc_first], kcm);
        let a = ask(&Snapshot::default(), &h, "e2e-churn", "churn-143-18");
        assert_eq!(
            a.findings[0].cause,
            Cause::PodGcUnscheduledTerminating,
            "{a:#?}"
        );
    }

    /// An audit log alone, with what the cluster shows now: the Scheduled event names the node
    /// (a Node registered again after it is not the one the pod was bound to), and a CronJob's
    /// naming ties a deleted Job to its history limit when its event is missing.
    #[test]
    fn audit_log_alone_with_the_cluster_of_now() {
        let ev = |pod: &str, reason: &str, kind: &str, obj: &str, msg: &str| {
            format!(
                "---\napiVersion: v1\nkind: Event\nmetadata: {{name: {pod}.{reason}, namespace: data}}\ninvolvedObject: {{kind: {kind}, name: {obj}, namespace: data}}\nreason: {reason}\nmessage: '{msg}'\nfirstTimestamp: '2026-11-22T11:00:00Z'\nsource: {{component: x}}\n"
            )
        };
        let mut yaml = String::from(
            "apiVersion: v1\nkind: Node\nmetadata: {name: node-1, creationTimestamp: '2026-11-22T11:30:00Z'}\n---\napiVersion: v1\nkind: Node\nmetadata: {name: node-2, creationTimestamp: '2026-11-01T00:00:00Z'}\n---\napiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {name: tick, namespace: data}\nspec: {successfulJobsHistoryLimit: 0}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: data}\n---\napiVersion: batch/v1\nkind: JobList\nitems: []\n",
        );
        yaml += &ev(
            "orphan",
            "Scheduled",
            "Pod",
            "orphan",
            "Successfully assigned data/orphan to node-1",
        );
        yaml += &ev(
            "done-1",
            "Scheduled",
            "Pod",
            "done-1",
            "Successfully assigned data/done-1 to node-2",
        );
        yaml += &ev(
            "tick-29400000-abcde",
            "SuccessfulCreate",
            "Job",
            "tick-29400000",
            "Created pod: tick-29400000-abcde",
        );
        let snap = crate::tests::snapshot_of(&yaml, "2026-11-22T12:00:00Z");
        let mut h = History::default();
        let gc = |sa: &str| format!("system:serviceaccount:kube-system:{sa}");
        audit_deletions(
            &mut h,
            &[
                ("pods", "", "orphan", &gc("pod-garbage-collector")),
                ("pods", "", "done-1", &gc("pod-garbage-collector")),
                (
                    "pods",
                    "",
                    "tick-29400000-abcde",
                    &gc("generic-garbage-collector"),
                ),
            ],
        );
        assert_causes(
            &snap,
            &h,
            &[
                ("data", "orphan", Cause::PodGcOrphaned),
                ("data", "done-1", Cause::PodGcThreshold),
                ("data", "tick-29400000-abcde", Cause::JobTtlExpired),
            ],
        );
        assert_eq!(
            cause(&ask(&snap, &h, "data", "done-1")).1,
            Confidence::Medium
        );
        let a = ask(&snap, &h, "data", "tick-29400000-abcde");
        assert_eq!(cause(&a).1, Confidence::Medium);
        assert!(a.findings[0].evidence.iter().any(|e| e.quote
            == "CronJob tick names its Jobs tick-<scheduled minute>; it keeps 0 succeeded and 1 failed Jobs"));
    }

    /// An audit policy that records Job deletions: the TTL controller named as the Job's deleter.
    #[test]
    fn a_job_deleted_by_the_ttl_controller_in_the_audit_log() {
        let yaml = "apiVersion: v1\nkind: Event\nmetadata: {name: e1, namespace: data}\ninvolvedObject: {kind: Job, name: batch, namespace: data}\nreason: SuccessfulCreate\nmessage: 'Created pod: batch-x7k2p'\nsource: {component: job-controller}\n---\napiVersion: batch/v1\nkind: JobList\nitems: []\n";
        let snap = crate::tests::snapshot_of(yaml, "2026-11-22T12:00:00Z");
        let mut h = History::default();
        audit_deletions(
            &mut h,
            &[
                (
                    "jobs",
                    "batch",
                    "batch",
                    "system:serviceaccount:kube-system:ttl-after-finished-controller",
                ),
                (
                    "pods",
                    "",
                    "batch-x7k2p",
                    "system:serviceaccount:kube-system:generic-garbage-collector",
                ),
            ],
        );
        let a = ask(&snap, &h, "data", "batch-x7k2p");
        assert_eq!(cause(&a), (Cause::JobTtlExpired, Confidence::High));
        assert!(
            a.findings[0]
                .summary
                .contains("the TTL-after-finished controller deleted it")
        );
    }

    /// The recorder saw node-1 deleted (it registered again since): only pods that existed
    /// then were orphaned by it; later pods on the new node-1 are not (a real e2e run's case).
    #[test]
    fn a_recorded_node_deletion_only_orphans_the_pods_of_its_time() {
        let t = |s: &str| s.parse().ok();
        let rec = |name: &str, phase: &str, created: &str, deleted: &str| PodRecord {
            namespace: "data".into(),
            name: name.into(),
            uid: name.into(),
            node: "node-1".into(),
            phase: phase.into(),
            created: t(created),
            deleted: t(deleted),
            ..Default::default()
        };
        let h = History {
            pods: vec![
                rec(
                    "before",
                    "Running",
                    "2026-11-22T09:00:00Z",
                    "2026-11-22T10:00:45Z",
                ),
                rec(
                    "after",
                    "Succeeded",
                    "2026-11-22T11:00:00Z",
                    "2026-11-22T11:05:00Z",
                ),
            ],
            objects: vec![ObjectRecord {
                kind: "Node".into(),
                name: "node-1".into(),
                deleted: t("2026-11-22T10:00:00Z"),
                ..Default::default()
            }],
            ..Default::default()
        };
        assert_causes(
            &Snapshot::default(),
            &h,
            &[
                ("data", "before", Cause::PodGcOrphaned),
                ("data", "after", Cause::PodGcThreshold),
            ],
        );
    }

    #[test]
    fn a_job_pod_gone_before_its_ttl_ran_out_was_not_removed_with_the_job() {
        // The pod GC took batch-early (the oldest terminated pod: creationTimestamp ties break
        // by name) 2 s after the Job finished; the TTL controller removed the Job 5 s after.
        let t = |s: &str| s.parse().ok();
        let job = OwnerLink {
            kind: "Job".into(),
            name: "batch".into(),
            uid: "job-uid".into(),
        };
        let rec = |name: &str, deleted: &str| PodRecord {
            namespace: "data".into(),
            name: name.into(),
            uid: name.into(),
            owner: Some(job.clone()),
            node: "node-1".into(),
            phase: "Succeeded".into(),
            deleted: t(deleted),
            ..Default::default()
        };
        let h = History {
            pods: vec![
                rec("batch-early", "2026-11-22T11:00:02Z"),
                rec("batch-late", "2026-11-22T11:00:06Z"),
            ],
            objects: vec![ObjectRecord {
                kind: "Job".into(),
                namespace: "data".into(),
                name: "batch".into(),
                uid: "job-uid".into(),
                deleted: t("2026-11-22T11:00:07Z"),
                ttl_seconds_after_finished: Some(5),
                finished: t("2026-11-22T11:00:00Z"),
                ..Default::default()
            }],
            sources: vec!["flight recorder".into()],
            ..Default::default()
        };
        let snap = Snapshot::default();
        assert_causes(
            &snap,
            &h,
            &[
                ("data", "batch-early", Cause::PodGcThreshold),
                ("data", "batch-late", Cause::JobTtlExpired),
            ],
        );
        let a = ask(&snap, &h, "data", "batch-early");
        assert!(
            a.findings[0].evidence.iter().any(|e| e.quote
                == "gone at 2026-11-22T11:00:02Z, before Job batch's TTL expired at 2026-11-22T11:00:05Z: not removed with its Job"),
            "{:#?}",
            a.findings[0].evidence
        );
    }
}

mod scaled_down {
    use super::super::*;
    use kubewhy_model::history::{OwnerLink, ScaleRecord};

    fn at(s: &str) -> Option<jiff::Timestamp> {
        s.parse().ok()
    }

    /// What the flight recorder kept when `kubectl scale --replicas=0` removed a Pending pod of
    /// a 200-replica Deployment: never scheduled and gone at once (the API server deletes an
    /// unscheduled pod without a grace period, whoever asks); and the replica changes seen a
    /// moment before.
    fn recorded(scalings: bool) -> History {
        let owner = |kind: &str, name: &str| OwnerLink {
            kind: kind.into(),
            name: name.into(),
            uid: format!("u-{name}"),
        };
        let mut h = History {
            pods: vec![PodRecord {
                namespace: "scale".into(),
                name: "big-0-5d8f7c9b6-xk2p9".into(),
                uid: "p1".into(),
                owner: Some(owner("ReplicaSet", "big-0-5d8f7c9b6")),
                phase: "Pending".into(),
                created: at("2026-11-23T09:00:00Z"),
                deleted: at("2026-11-23T10:00:03Z"),
                ..Default::default()
            }],
            sources: vec!["flight recorder".into()],
            ..Default::default()
        };
        if scalings {
            h.scalings = vec![
                ScaleRecord {
                    kind: "Deployment".into(),
                    namespace: "scale".into(),
                    name: "big-0".into(),
                    uid: "u-big-0".into(),
                    owner: None,
                    from: 200,
                    to: 0,
                    at: at("2026-11-23T10:00:00Z"),
                    by: "kubectl-edit".into(),
                },
                ScaleRecord {
                    kind: "ReplicaSet".into(),
                    namespace: "scale".into(),
                    name: "big-0-5d8f7c9b6".into(),
                    uid: "u-big-0-5d8f7c9b6".into(),
                    owner: Some(owner("Deployment", "big-0")),
                    from: 200,
                    to: 0,
                    at: at("2026-11-23T10:00:01Z"),
                    by: "kube-controller-manager".into(),
                },
            ];
        }
        h
    }

    fn ask(h: &History) -> Answer {
        explain(
            &Snapshot::default(),
            h,
            &Query {
                namespace: "scale".into(),
                pod: Some("big-0-5d8f7c9b6-xk2p9".into()),
                owner: None,
                selector: None,
            },
        )
    }

    #[test]
    fn a_pending_pod_removed_by_a_scale_down_is_scaled_down_with_the_replicas_quoted() {
        let a = ask(&recorded(true));
        let f = &a.findings[0];
        assert_eq!(f.cause, Cause::ScaledDown, "{f:#?}");
        assert_eq!(f.confidence, Confidence::High);
        assert!(
            f.summary
                .contains("Deployment big-0 was scaled down from 200 to 0 by kubectl-edit"),
            "{}",
            f.summary
        );
        let quotes: Vec<&str> = f.evidence.iter().map(|e| e.quote.as_str()).collect();
        assert!(
            quotes.contains(
                &"Deployment big-0: spec.replicas 200 → 0 at 2026-11-23T10:00:00Z (field manager kubectl-edit)"
            ),
            "{quotes:#?}"
        );
        // A recorded scale-down whose field manager the recorder could not tell (its entry was
        // older than the change): the client is said to be unknown, and what would name it.
        let mut h = recorded(true);
        h.scalings[0].by = String::new();
        let a = ask(&h);
        assert!(
            a.findings[0].summary.contains(
                "Deployment big-0 was scaled down from 200 to 0 by a client the data does not name (the API server's audit log would"
            ),
            "{}",
            a.findings[0].summary
        );
        // Without the replica changes: a client's deletion, who unknown. Not the pod GC's
        // unscheduled-terminating rule, which takes pods left terminating; this one went at once.
        let a = ask(&recorded(false));
        assert_eq!(
            (a.findings[0].cause, a.findings[0].confidence),
            (Cause::DeletedByClient, Confidence::Low)
        );
        assert!(
            a.findings[0]
                .summary
                .contains("before it was ever scheduled"),
            "{}",
            a.findings[0].summary
        );
        // Seen terminating at 10:00:03 and gone 25 s later, past a collector's pass: its rule.
        let mut h = recorded(false);
        h.pods[0].deletion_seen = at("2026-11-23T10:00:03Z");
        h.pods[0].deletion_grace = Some(0);
        h.pods[0].deleted = at("2026-11-23T10:00:28Z");
        let a = ask(&h);
        assert_eq!(
            (a.findings[0].cause, a.findings[0].confidence),
            (Cause::PodGcUnscheduledTerminating, Confidence::Medium)
        );
        // Seen terminating and gone within the same second: the API server, on a request.
        h.pods[0].deleted = at("2026-11-23T10:00:03.4Z");
        assert_eq!(ask(&h).findings[0].cause, Cause::DeletedByClient);
    }

    #[test]
    fn the_replicaset_controller_in_the_audit_log_is_a_scale_down_not_a_client() {
        let mut h = recorded(true);
        let line = r#"{"kind":"Event","apiVersion":"audit.k8s.io/v1","level":"Metadata","auditID":"s1","stage":"ResponseComplete","verb":"delete","user":{"username":"system:serviceaccount:kube-system:replicaset-controller"},"objectRef":{"resource":"pods","namespace":"scale","name":"big-0-5d8f7c9b6-xk2p9","apiVersion":"v1"},"responseStatus":{"code":200},"stageTimestamp":"2026-11-23T10:00:02.000000Z"}"#;
        let mut w = Vec::new();
        kubewhy_source::parse_audit("audit.log", line.as_bytes(), &mut h.audit, &mut w);
        assert!(w.is_empty(), "{w:?}");
        h.sources.push("audit log".into());
        let f = &ask(&h).findings[0];
        assert_eq!(f.cause, Cause::ScaledDown, "{f:#?}");
        // Without any sign of fewer replicas, the controller's delete is still its own.
        h.scalings.clear();
        let f = &ask(&h).findings[0];
        assert_eq!(f.cause, Cause::ScaledDown, "{f:#?}");
        assert!(
            f.summary
                .contains("ReplicaSet big-0-5d8f7c9b6 was scaled down"),
            "{}",
            f.summary
        );
    }
}
