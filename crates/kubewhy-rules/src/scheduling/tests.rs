use super::*;

fn snap(yaml: &str) -> Snapshot {
    crate::tests::snapshot_of(yaml, "2026-11-22T12:00:00Z")
}

fn node(name: &str, extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Node\nmetadata:\n  name: {name}\n  labels: {{kubernetes.io/hostname: {name}}}\nspec: {{}}\nstatus:\n  allocatable: {{cpu: '4', memory: 8Gi, pods: '110'}}\n  conditions: [{{type: Ready, status: 'True'}}]\n{extra}---\n"
    )
}

/// The simulation of the pod named `pending` (namespace `shop`).
fn run(yaml: &str) -> (String, Option<String>) {
    let s = snap(yaml);
    let c = Cluster::new(&s);
    let pod = s
        .pods
        .iter()
        .find(|p| p.metadata.name == "pending")
        .expect("a pod named pending");
    let sim = simulate(&c, pod);
    let miss = sim.nearest_miss().map(|m| {
        let needs: Vec<String> = m.failures.iter().map(Failure::need).collect();
        format!("{}: {}", m.node.metadata.name, needs.join("; "))
    });
    (sim.summary(), miss)
}

const PENDING_HEAD: &str = "apiVersion: v1\nkind: Pod\nmetadata: {name: pending, namespace: shop, labels: {app: db}}\nstatus: {phase: Pending}\n";

#[test]
fn effective_request_counts_init_containers_sidecars_and_overhead() {
    let s = snap(
        "apiVersion: v1\nkind: Pod\nmetadata: {name: p, namespace: shop}\nspec:\n  overhead: {cpu: 100m}\n  initContainers:\n  - {name: migrate, resources: {requests: {cpu: '2', memory: 1Gi}}}\n  - {name: proxy, restartPolicy: Always, resources: {requests: {cpu: 500m}}}\n  - {name: late, resources: {requests: {cpu: '1'}}}\n  containers:\n  - {name: a, resources: {requests: {cpu: 500m, memory: 256Mi}}}\n  - {name: b, resources: {requests: {cpu: 250m, nvidia.com/gpu: '1'}}}\n",
    );
    let r = pod_requests(&s.pods[0]);
    // cpu: max(app 750m + sidecar 500m, init 2000m, late 1000m + sidecar 500m) + overhead 100m.
    assert_eq!(r.get("cpu"), Some(&2100));
    assert_eq!(r.get("memory"), Some(&(1 << 30)));
    assert_eq!(r.get("nvidia.com/gpu"), Some(&1));
}

#[test]
fn each_node_is_judged_and_the_nearest_miss_named() {
    let yaml = format!(
        "{}{}{}{}{PENDING_HEAD}spec:\n  nodeSelector: {{disk: ssd}}\n  containers:\n  - {{name: db, resources: {{requests: {{cpu: '3', memory: 1Gi}}}}}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: busy, namespace: other}}\nspec:\n  nodeName: node-a\n  containers:\n  - {{name: x, resources: {{requests: {{cpu: 2500m}}}}}}\nstatus: {{phase: Running}}\n---\napiVersion: v1\nkind: Pod\nmetadata: {{name: finished, namespace: other}}\nspec:\n  nodeName: node-a\n  containers:\n  - {{name: x, resources: {{requests: {{cpu: '4'}}}}}}\nstatus: {{phase: Succeeded}}\n",
        node("node-a", "").replace("labels: {", "labels: {disk: ssd, "),
        node("node-b", "")
            .replace(
                "spec: {}",
                "spec: {taints: [{key: dedicated, value: gpu, effect: NoSchedule}]}"
            )
            .replace("labels: {", "labels: {disk: ssd, "),
        node("node-c", ""),
        node("node-d", "")
            .replace("spec: {}", "spec: {unschedulable: true}")
            .replace("labels: {", "labels: {disk: ssd, "),
    );
    let (summary, miss) = run(&yaml);
    assert_eq!(
        summary,
        "0/4 nodes: 1 node(s) were unschedulable, 1 node(s) had untolerated taint {dedicated: gpu}, 1 node(s) didn't match Pod's node affinity/selector, 1 Insufficient cpu"
    );
    // node-a lacks 1.5 cpu; the others would each need a single change too, but the cordoned
    // and tainted nodes rank after a measured shortfall smaller than the whole node.
    assert_eq!(
        miss.as_deref(),
        Some("node-a: it lacks 1500m cpu (the pod requests 3, 1500m free of 4 allocatable)")
    );
}

#[test]
fn tolerations_open_tainted_and_cordoned_nodes() {
    let yaml = format!(
        "{}{PENDING_HEAD}spec:\n  tolerations:\n  - {{key: dedicated, operator: Exists}}\n  - {{key: node.kubernetes.io/unschedulable, effect: NoSchedule}}\n  containers: [{{name: db}}]\n",
        node("node-a", "").replace(
            "spec: {}",
            "spec: {unschedulable: true, taints: [{key: dedicated, value: gpu, effect: NoExecute}, {key: node.kubernetes.io/unschedulable, effect: NoSchedule}, {key: soft, effect: PreferNoSchedule}]}"
        ),
    );
    assert_eq!(run(&yaml), ("1/1 nodes can take the pod".into(), None));
}

#[test]
fn node_affinity_names_the_closest_term() {
    let yaml = format!(
        "{}{PENDING_HEAD}spec:\n  affinity:\n    nodeAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n        nodeSelectorTerms:\n        - matchExpressions: [{{key: zone, operator: In, values: [b]}}, {{key: gpu, operator: Exists}}]\n        - matchExpressions: [{{key: cores, operator: Gt, values: ['16']}}]\n  containers: [{{name: db}}]\n",
        node("node-a", "").replace("labels: {", "labels: {zone: a, cores: '8', "),
    );
    let (summary, miss) = run(&yaml);
    assert_eq!(
        summary,
        "0/1 nodes: 1 node(s) didn't match Pod's node affinity/selector"
    );
    assert_eq!(
        miss.as_deref(),
        Some("node-a: it fits if it had node affinity cores Gt (16)")
    );
}

#[test]
fn host_ports_conflict_by_port_protocol_and_address() {
    let holder = |name: &str, port: &str| {
        format!(
            "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: edge}}\nspec:\n  nodeName: node-a\n  containers:\n  - {{name: x, ports: [{port}]}}\nstatus: {{phase: Running}}\n---\n"
        )
    };
    let wanted = format!(
        "{PENDING_HEAD}spec:\n  containers:\n  - {{name: db, ports: [{{containerPort: 80, hostPort: 8080, hostIP: 10.0.0.1}}]}}\n"
    );
    // Another protocol, another specific address: no conflict.
    let free = format!(
        "{}{}{}{wanted}",
        node("node-a", ""),
        holder("udp", "{containerPort: 80, hostPort: 8080, protocol: UDP}"),
        holder(
            "other-ip",
            "{containerPort: 80, hostPort: 8080, hostIP: 10.0.0.2}"
        )
    );
    assert_eq!(run(&free).0, "1/1 nodes can take the pod");
    // The wildcard address overlaps every address.
    let taken = format!(
        "{}{}{wanted}",
        node("node-a", ""),
        holder("any-ip", "{containerPort: 80, hostPort: 8080}")
    );
    assert_eq!(
        run(&taken),
        (
            "0/1 nodes: 1 node(s) didn't have free ports for the requested pod ports".into(),
            Some("node-a: hostPort 8080/TCP is held there by Pod edge/any-ip".into())
        )
    );
}

#[test]
fn pod_count_and_extended_resources() {
    let yaml = format!(
        "{}{}{PENDING_HEAD}spec:\n  containers: [{{name: db, resources: {{requests: {{nvidia.com/gpu: '1'}}}}}}]\n",
        node("node-a", "").replace("pods: '110'", "pods: '1'"),
        "apiVersion: v1\nkind: Pod\nmetadata: {name: x, namespace: shop}\nspec: {nodeName: node-a, containers: [{name: x}]}\nstatus: {phase: Running}\n---\n"
    );
    let (summary, miss) = run(&yaml);
    assert_eq!(
        summary,
        "0/1 nodes: 1 Too many pods, 1 Insufficient nvidia.com/gpu"
    );
    assert_eq!(
        miss.as_deref(),
        Some(
            "node-a: it already runs 1 of its 1 pods; it lacks 1 nvidia.com/gpu (the pod requests 1, 0 free of 0 allocatable)"
        )
    );
}

const CLAIM: &str =
    "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data, namespace: shop}\n";

#[test]
fn claims_missing_immediate_unbound_and_pinned_volumes() {
    let pod = format!(
        "{PENDING_HEAD}spec:\n  volumes: [{{name: d, persistentVolumeClaim: {{claimName: data}}}}]\n  containers: [{{name: db}}]\n"
    );
    // No claim at all, while claims of the namespace are known (an empty list was read).
    let missing = format!(
        "{}{pod}---\napiVersion: v1\nkind: PersistentVolumeClaimList\nitems: []\n",
        node("node-a", "")
    );
    assert_eq!(
        run(&missing).0,
        "0/1 nodes: persistentvolumeclaim \"data\" not found"
    );
    // Unbound, class with Immediate binding (or unknown): every node is ruled out at once.
    let immediate = format!(
        "{}{CLAIM}spec: {{storageClassName: slow}}\nstatus: {{phase: Pending}}\n---\n{pod}",
        node("node-a", "")
    );
    assert_eq!(
        run(&immediate),
        (
            "0/1 nodes: pod has unbound immediate PersistentVolumeClaims".into(),
            None
        )
    );
    // WaitForFirstConsumer with no provisioner and no volume for this node.
    let local = format!(
        "{}{CLAIM}spec: {{storageClassName: local}}\nstatus: {{phase: Pending}}\n---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {{name: local}}\nprovisioner: kubernetes.io/no-provisioner\nvolumeBindingMode: WaitForFirstConsumer\n---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: pv-b}}\nspec:\n  storageClassName: local\n  nodeAffinity: {{required: {{nodeSelectorTerms: [{{matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [node-b]}}]}}]}}}}\nstatus: {{phase: Available}}\n---\n{pod}",
        node("node-a", "")
    );
    assert_eq!(
        run(&local).0,
        "0/1 nodes: 1 node(s) didn't find available persistent volumes to bind"
    );
    // Bound to a local volume on another node.
    let pinned = format!(
        "{}{CLAIM}spec: {{volumeName: pv-b}}\nstatus: {{phase: Bound}}\n---\napiVersion: v1\nkind: PersistentVolume\nmetadata: {{name: pv-b}}\nspec:\n  nodeAffinity: {{required: {{nodeSelectorTerms: [{{matchExpressions: [{{key: kubernetes.io/hostname, operator: In, values: [node-b]}}]}}]}}}}\nstatus: {{phase: Bound}}\n---\n{pod}",
        node("node-a", "")
    );
    assert_eq!(
        run(&pinned),
        (
            "0/1 nodes: 1 node(s) had volume node affinity conflict".into(),
            Some("node-a: PersistentVolume pv-b (claim data) may not be used on it".into())
        )
    );
}

fn placed(name: &str, node: &str, labels: &str, spec_extra: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Pod\nmetadata: {{name: {name}, namespace: shop, labels: {{{labels}}}}}\nspec:\n  nodeName: {node}\n  containers: [{{name: x}}]\n{spec_extra}status: {{phase: Running}}\n---\n"
    )
}

const ANTI_SELF: &str = "  affinity:\n    podAntiAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - {labelSelector: {matchLabels: {app: db}}, topologyKey: kubernetes.io/hostname}\n";

#[test]
fn anti_affinity_the_pods_own_and_the_placed_pods() {
    let nodes = format!("{}{}", node("node-a", ""), node("node-b", ""));
    let own = format!(
        "{nodes}{}{}{PENDING_HEAD}spec:\n  containers: [{{name: db}}]\n{ANTI_SELF}",
        placed("db-0", "node-a", "app: db", ""),
        placed("db-1", "node-b", "app: db", "")
    );
    assert_eq!(
        run(&own),
        (
            "0/2 nodes: 2 node(s) didn't match pod anti-affinity rules".into(),
            Some("node-a: Pod shop/db-0 in its kubernetes.io/hostname domain rules it out (anti-affinity)".into())
        )
    );
    // A placed pod's anti-affinity keeps the pod off its node only.
    let existing = format!(
        "{nodes}{}{PENDING_HEAD}spec:\n  containers: [{{name: db}}]\n",
        placed("guard", "node-a", "app: guard", ANTI_SELF)
    );
    assert_eq!(
        run(&existing).0,
        "1/2 nodes: 1 node(s) didn't satisfy existing pods anti-affinity rules"
    );
}

#[test]
fn pod_affinity_and_the_first_pod_of_a_group() {
    let nodes = format!(
        "{}{}",
        node("node-a", "").replace("labels: {", "labels: {zone: a, "),
        node("node-b", "").replace("labels: {", "labels: {zone: b, ")
    );
    let wants_cache = "  affinity:\n    podAffinity:\n      requiredDuringSchedulingIgnoredDuringExecution:\n      - {labelSelector: {matchLabels: {app: cache}}, topologyKey: zone}\n";
    let with_cache = format!(
        "{nodes}{}{PENDING_HEAD}spec:\n  containers: [{{name: db}}]\n{wants_cache}",
        placed("cache-0", "node-b", "app: cache", "")
    );
    assert_eq!(
        run(&with_cache).0,
        "1/2 nodes: 1 node(s) didn't match pod affinity rules"
    );
    // No cache pod anywhere, and the pod is not one: nothing can satisfy the rule.
    let without =
        format!("{nodes}{PENDING_HEAD}spec:\n  containers: [{{name: db}}]\n{wants_cache}");
    assert_eq!(
        run(&without).0,
        "0/2 nodes: 2 node(s) didn't match pod affinity rules"
    );
    // The first pod of a group that matches its own rule may go anywhere.
    let first = without.replace("app: cache}}, topologyKey", "app: db}}, topologyKey");
    assert_eq!(run(&first).0, "2/2 nodes can take the pod");
}

#[test]
fn topology_spread_counts_domains_and_needs_the_key() {
    let nodes = format!(
        "{}{}{}",
        node("node-a", "").replace("labels: {", "labels: {zone: a, "),
        node("node-b", "").replace("labels: {", "labels: {zone: b, "),
        node("node-c", "")
    );
    let spread = "  topologySpreadConstraints:\n  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule, labelSelector: {matchLabels: {app: db}}}\n";
    let yaml = format!(
        "{nodes}{}{}{}{PENDING_HEAD}spec:\n  containers: [{{name: db}}]\n{spread}",
        placed("db-0", "node-a", "app: db", ""),
        placed("db-1", "node-a", "app: db", ""),
        placed("db-2", "node-b", "app: db", "")
    );
    // zone a holds 2, zone b 1: a third in a would make the skew 3 - 1 = 2.
    let (summary, _) = run(&yaml);
    assert_eq!(
        summary,
        "1/3 nodes: 1 node(s) didn't match pod topology spread constraints, 1 node(s) didn't match pod topology spread constraints (missing required label)"
    );
}

#[test]
fn amounts_read_like_kubectl() {
    assert_eq!(amount("cpu", 1500), "1500m");
    assert_eq!(amount("cpu", 2000), "2");
    assert_eq!(amount("memory", 512 << 20), "512Mi");
    assert_eq!(amount("memory", 3 << 29), "1.5Gi");
    assert_eq!(amount("pods", 110), "110");
}
