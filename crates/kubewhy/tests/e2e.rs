//! End-to-end scenarios on a REAL cluster (../shared/realcluster: Kubernetes 1.20, containerd,
//! local registries). Each scenario creates a broken state for real in its own namespace; the
//! suite captures the cluster with `kubectl cluster-info dump` (plus `kubectl get` of the kinds
//! the dump lacks), runs kubewhy on the capture, and asserts the exact cause, objects and key
//! evidence. Healthy workloads run beside them; any finding on them fails the suite.
//!
//! Runs only when `KUBEWHY_E2E_KUBECONFIG` names the cluster's kubeconfig; otherwise it reports
//! itself skipped in one line. `KUBEWHY_E2E_KUBECTL` overrides the kubectl binary.

use assert_cmd::Command as Bin;
use serde_json::Value;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const BB: &str = "localhost:5000/tools/busybox:1";
const FIN: &str = "e2e.kubewhy.dev/hold";
const DEADLINE: Duration = Duration::from_secs(300);

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
        for kind in ["pods", "configmaps"] {
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
        for ns in namespaces {
            if self.run(&["get", "namespace", ns], None).is_ok() {
                s.push_str(&self.k(&[
                    "-n",
                    ns,
                    "get",
                    "configmaps,secrets,serviceaccounts,persistentvolumeclaims,resourcequotas,limitranges",
                    "-o",
                    "json",
                ]));
            }
        }
        s
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
}

fn nothing(_: &Cluster, _: &str) {}

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
        },
        Scenario {
            name: "selector",
            yaml: pod("picky", &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}")).replace("spec:\n", "spec:\n  nodeSelector: {disktype: ssd}\n"),
            after: nothing,
            cause: "node-selector-mismatch",
            objects: &["picky"],
            evidence: &["didn't match Pod's node affinity", ": it fits if it had label disktype=ssd"],
            dump_evidence: &[],
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
        },
        Scenario {
            name: "image",
            yaml: pod("ghost", "{name: main, image: 'localhost:5000/tools/no-such-image:1', imagePullPolicy: Always, command: [sleep, '100000']}"),
            after: nothing,
            cause: "image-not-found",
            objects: &["ghost"],
            evidence: &["no-such-image:1: not found"],
            dump_evidence: &[],
        },
        Scenario {
            name: "auth",
            yaml: pod("private", "{name: main, image: '127.0.0.1:5443/private/busybox:1', imagePullPolicy: Always, command: [sleep, '100000']}"),
            after: nothing,
            cause: "image-pull-auth",
            objects: &["private"],
            evidence: &["401 Unauthorized"],
            dump_evidence: &[],
        },
        Scenario {
            name: "tls",
            yaml: pod("untrusted", "{name: main, image: 'localhost:5443/private/busybox:1', imagePullPolicy: Always, command: [sleep, '100000']}"),
            after: nothing,
            cause: "image-registry-tls",
            objects: &["untrusted"],
            evidence: &["x509: certificate signed by unknown authority"],
            dump_evidence: &[],
        },
        Scenario {
            name: "crash",
            yaml: pod("quitter", &format!("{{name: main, image: {BB}, command: [sh, -c, 'echo boot; echo \"fatal: no config\" >&2; exit 1']}}")),
            after: nothing,
            cause: "app-exit-error",
            objects: &["quitter"],
            evidence: &["reason=Error exitCode=1"],
            dump_evidence: &[],
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
        },
        Scenario {
            name: "oom",
            yaml: pod("hog", &format!("{{name: main, image: {BB}, command: [tail, /dev/zero], resources: {{limits: {{memory: 32Mi}}}}}}")),
            after: nothing,
            cause: "oom-killed",
            objects: &["hog"],
            evidence: &["reason=OOMKilled exitCode=137"],
            dump_evidence: &[],
        },
        Scenario {
            name: "configmap",
            yaml: pod("needs-config", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], envFrom: [{{configMapRef: {{name: app-config}}}}]}}")),
            after: nothing,
            cause: "configmap-missing",
            objects: &["needs-config"],
            evidence: &["configmap \"app-config\" not found"],
            dump_evidence: &[],
        },
        Scenario {
            name: "secret",
            yaml: pod("needs-secret", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], env: [{{name: DB_PASSWORD, valueFrom: {{secretKeyRef: {{name: db-password, key: password}}}}}}]}}")),
            after: nothing,
            cause: "secret-missing",
            objects: &["needs-secret"],
            evidence: &["secret \"db-password\" not found"],
            dump_evidence: &[],
        },
        Scenario {
            name: "quota",
            // The quota first: the Deployment's pods must meet it at admission.
            yaml: format!(
                "apiVersion: v1\nkind: ResourceQuota\nmetadata: {{name: compute}}\nspec: {{hard: {{requests.cpu: 100m}}}}\n---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {{name: api}}\nspec:\n  replicas: 1\n  selector: {{matchLabels: {{app: api}}}}\n  template:\n    metadata: {{labels: {{app: api}}}}\n    spec:\n      terminationGracePeriodSeconds: 2\n      containers:\n      - {{name: api, image: {BB}, command: [sleep, '100000'], resources: {{requests: {{cpu: 200m}}}}}}\n"
            ),
            after: nothing,
            cause: "pod-creation-rejected",
            // The ReplicaSet's name carries the template hash.
            objects: &[],
            evidence: &["exceeded quota: compute, requested: requests.cpu=200m", "requests.cpu: 0/100m"],
            dump_evidence: &[],
        },
        Scenario {
            name: "readiness",
            yaml: pod("unready", &format!("{{name: main, image: {BB}, command: [sleep, '100000'], readinessProbe: {{exec: {{command: ['false']}}, periodSeconds: 2}}}}")),
            after: nothing,
            cause: "readiness-probe-failing",
            objects: &["unready"],
            evidence: &["Readiness probe failed", "ready=false"],
            dump_evidence: &[],
        },
        Scenario {
            name: "finalizer",
            yaml: pod("held", &format!("{{name: main, image: {BB}, command: [sleep, '100000']}}")).replace("labels: {app: held}", &format!("labels: {{app: held}}, finalizers: ['{FIN}']")),
            after: |c, ns| {
                let t = Instant::now();
                while c.run(&["-n", ns, "get", "pod", "held", "-o", "jsonpath={.status.phase}"], None).unwrap_or_default() != "Running" {
                    assert!(t.elapsed() < Duration::from_secs(120), "scenario finalizer: pod held not Running after 120 s");
                    std::thread::sleep(Duration::from_secs(1));
                }
                c.k(&["-n", ns, "delete", "pod", "held", "--wait=false"]);
            },
            cause: "finalizer-pending",
            objects: &["held"],
            evidence: &[FIN],
            dump_evidence: &[],
        },
        Scenario {
            name: "ns",
            yaml: format!("apiVersion: v1\nkind: ConfigMap\nmetadata: {{name: keep, finalizers: ['{FIN}']}}\ndata: {{k: v}}\n"),
            after: |c, ns| {
                c.k(&["delete", "namespace", ns, "--wait=false"]);
            },
            cause: "ns-finalizer-pending",
            objects: &["e2e-ns"],
            evidence: &["ConfigMap/keep"],
            dump_evidence: &[],
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
            format!("{} {:?}", f["cause"].as_str().unwrap(), objs)
        })
        .collect();
    let unexplained: Vec<String> = v["unexplained"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["object"]["namespace"] == ns)
        .map(|u| format!("{} {}", u["object"]["name"], u["status"]))
        .collect();
    let ok = found.len() == 1 && found[0]["cause"] == s.cause && {
        let f = found[0];
        let names: Vec<&str> = f["objects"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["name"].as_str().unwrap())
            .collect();
        let evidence = f["evidence"].to_string();
        (s.objects.is_empty() || names == s.objects)
            && s.evidence
                .iter()
                .all(|e| evidence.contains(&e.replace('"', "\\\"")))
    };
    if ok && unexplained.is_empty() {
        Ok(())
    } else {
        Err(format!(
            "expected {} {:?} with evidence {:?}{}; kubewhy said {:?}, unexplained {:?}",
            s.cause,
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
fn real_cluster_scenarios() {
    let Some(c) = Cluster::from_env() else {
        eprintln!(
            "e2e: skipped (set KUBEWHY_E2E_KUBECONFIG to a real cluster's kubeconfig; see ../shared/realcluster)"
        );
        return;
    };
    let started = Instant::now();
    c.k(&["get", "nodes"]);
    c.fresh_namespace("e2e-healthy");
    c.apply("e2e-healthy", HEALTHY);

    // Phase 1: scenarios that do not disturb the node, in parallel, one namespace each.
    let scenarios: Vec<(Scenario, String)> = scenarios()
        .into_iter()
        .filter(|s| selected(s.name))
        .map(|s| {
            let ns = format!("e2e-{}", s.name);
            (s, ns)
        })
        .collect();
    std::thread::scope(|t| {
        for (s, ns) in &scenarios {
            let c = &c;
            t.spawn(move || {
                c.fresh_namespace(ns);
                c.apply(ns, &s.yaml);
                (s.after)(c, ns);
            });
        }
    });
    let mut all_ns: Vec<&str> = scenarios.iter().map(|(_, ns)| ns.as_str()).collect();
    all_ns.push("e2e-healthy");
    let result = converge(&c, &scenarios, &all_ns);

    // `kubewhy pod` on the live cluster fetches the crashed container's previous log itself.
    let pod_logs = if result.is_ok() && selected("crash") {
        Some(pod_command_quotes_previous_log(&c))
    } else {
        None
    };

    // Phase 2: an untolerated taint on the only node (after phase 1's pods are placed).
    if let (Ok(_), Some(dir)) = (&result, capture_dir()) {
        for (s, ns) in &scenarios {
            capture_scenario(&c, s, ns, &dir);
        }
    }
    let taint = if result.is_ok() && selected("taint") {
        Some(taint_phase(&c))
    } else {
        None
    };

    // Healthy workloads must get no finding at all.
    let healthy = result.as_ref().ok().map(|(dump, live)| {
        findings_in(dump, "e2e-healthy").len() + findings_in(live, "e2e-healthy").len()
    });

    let mut cleanup: Vec<&str> = all_ns.clone();
    cleanup.push("e2e-taint");
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
    if let Some(Err(e)) = taint {
        panic!("{e}");
    }
    if let Some(Err(e)) = pod_logs {
        panic!("{e}");
    }
    eprintln!(
        "e2e: {} scenarios diagnosed as expected in {} s",
        scenarios.len() + 1,
        started.elapsed().as_secs()
    );
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
    };
    let scenario = [(s, "e2e-taint".to_string())];
    let r = converge(c, &scenario, &["e2e-taint"]).map(|_| ());
    if let (Ok(()), Some(dir)) = (&r, capture_dir()) {
        capture_scenario(c, &scenario[0].0, "e2e-taint", &dir);
    }
    let _ = c.run(&["taint", "nodes", &node, "e2e-dedicated-"], None);
    r
}

/// `KUBEWHY_E2E_ONLY=a,b` runs only those scenarios (names as in `scenarios()`, plus `taint`).
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
    dump.push_str(&c.k(&[
        "-n",
        ns,
        "get",
        "configmaps,serviceaccounts,persistentvolumeclaims,resourcequotas,limitranges",
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
        "scenario": s.name, "namespace": ns, "cause": s.cause, "objects": s.objects, "evidence": s.evidence.iter().chain(s.dump_evidence).collect::<Vec<_>>(),
        "now": jiff::Timestamp::now().to_string(),
    });
    std::fs::write(
        out.join("expected.json"),
        serde_json::to_string_pretty(&expected).unwrap() + "\n",
    )
    .unwrap();
    eprintln!("e2e: captured {}", out.display());
}
