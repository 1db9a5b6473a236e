//! Benchmark tools (bench/run.sh).
//!
//! `gen` writes a large cluster, deterministic from a seed, as a `kubectl cluster-info dump`
//! directory (`dump/`) and as `kubectl get -A -o json` lists (`lists/`). Every object is a real
//! object of the real 1.20 test cluster (tests/fixtures/real), renamed: nodes, healthy pods with
//! their events, and broken pods of thirteen scenarios with their events, about 2 % of the pods.
//! It writes what it planted (`planted.json`: affected pods per cause) and the moment to judge
//! the data at (`now.txt`).
//!
//! `floor` reads files and parses each with serde_json into `IgnoredAny`, on one thread: the
//! cost of merely reading the JSON, which kubewhy's scan is measured against.

use anyhow::{Context, Result, bail};
use clap::{Parser, Subcommand};
use serde_json::{Value, json};
use std::collections::BTreeMap;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

#[derive(Parser)]
#[command(
    name = "kubewhy-bench",
    about = "Benchmark tools for kubewhy (see bench/run.sh)"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

#[derive(Subcommand)]
enum Cmd {
    /// Write a generated cluster to OUT (dump/, lists/, planted.json, now.txt).
    Gen {
        #[arg(long, default_value_t = 5000)]
        nodes: usize,
        #[arg(long, default_value_t = 150_000)]
        pods: usize,
        #[arg(long, default_value_t = 300_000)]
        events: usize,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long)]
        out: PathBuf,
    },
    /// Parse each file (or every .json file under a directory) into IgnoredAny, one thread.
    Floor { paths: Vec<PathBuf> },
    /// Load PATHS as `kubewhy scan --from` does, then diagnose; print each phase's wall time and
    /// the resident memory after it (where a scan's time and memory go).
    Phases {
        paths: Vec<PathBuf>,
        /// The snapshot's "now" (RFC 3339), as `scan --now`.
        #[arg(long)]
        now: Option<String>,
    },
}

/// A broken scenario captured from the real cluster: its dump, and what kubewhy must say.
struct Scenario {
    name: &'static str,
    dump: &'static str,
    expected: &'static str,
}

macro_rules! scenario {
    ($name:literal) => {
        Scenario {
            name: $name,
            dump: include_str!(concat!(
                "../../../tests/fixtures/real/",
                $name,
                "/dump.json"
            )),
            expected: include_str!(concat!(
                "../../../tests/fixtures/real/",
                $name,
                "/expected.json"
            )),
        }
    };
}

/// The broken pods planted, one scenario each (its pod, its events, its claim).
fn scenarios() -> Vec<Scenario> {
    vec![
        scenario!("cpu"),
        scenario!("selector"),
        scenario!("pvc"),
        scenario!("image"),
        scenario!("auth"),
        scenario!("tls"),
        scenario!("crash"),
        scenario!("oom"),
        scenario!("configmap"),
        scenario!("secret"),
        scenario!("readiness"),
        scenario!("units"),
        scenario!("finalizer"),
    ]
}

/// Nodes and the healthy pod come from the hostport scenario (port-a runs, port-b waits).
const HEALTHY: &str = include_str!("../../../tests/fixtures/real/hostport/dump.json");

/// The JSON documents of a `cluster-info dump` stream (its log blocks skipped), list items
/// flattened.
fn objects(dump: &str) -> Result<Vec<Value>> {
    let mut text = String::with_capacity(dump.len());
    let mut in_log = false;
    for l in dump.lines() {
        if l.starts_with("==== START logs") {
            in_log = true;
        } else if l.starts_with("==== END logs") {
            in_log = false;
        } else if !in_log {
            text.push_str(l);
            text.push('\n');
        }
    }
    let mut out = Vec::new();
    for v in serde_json::Deserializer::from_str(&text).into_iter::<Value>() {
        let v = v.context("template dump")?;
        let list_kind = v["kind"].as_str().unwrap_or("").to_string();
        match v.get("items").and_then(Value::as_array) {
            Some(items) => {
                for it in items {
                    let mut it = it.clone();
                    if it.get("kind").is_none() {
                        it["kind"] = json!(list_kind.trim_end_matches("List"));
                    }
                    if it.get("apiVersion").is_none() {
                        let api = match it["kind"].as_str() {
                            Some("Deployment" | "ReplicaSet" | "DaemonSet" | "StatefulSet") => {
                                "apps/v1"
                            }
                            _ => "v1",
                        };
                        it["apiVersion"] = json!(api);
                    }
                    out.push(it);
                }
            }
            None => out.push(v),
        }
    }
    Ok(out)
}

/// splitmix64: small, fast, deterministic.
struct Rng(u64);

impl Rng {
    fn new(seed: u64, stream: u64) -> Rng {
        Rng(seed ^ stream.wrapping_mul(0x9E37_79B9_7F4A_7C15))
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn hex(&mut self, len: usize) -> String {
        let mut s = String::with_capacity(len);
        while s.len() < len {
            s.push_str(&format!("{:016x}", self.next()));
        }
        s.truncate(len);
        s
    }
    fn uid(&mut self) -> String {
        let h = self.hex(32);
        format!(
            "{}-{}-{}-{}-{}",
            &h[..8],
            &h[8..12],
            &h[12..16],
            &h[16..20],
            &h[20..]
        )
    }
    /// A pod-template-hash style suffix.
    fn suffix(&mut self, len: usize) -> String {
        const ALPHA: &[u8] = b"bcdfghjklmnpqrstvwxz2456789";
        (0..len)
            .map(|_| ALPHA[self.below(ALPHA.len())] as char)
            .collect()
    }
}

/// One broken template: the pod, its events, its claims, and the cause kubewhy gives.
struct Broken {
    scenario: &'static str,
    cause: String,
    pod: Value,
    events: Vec<Value>,
    claims: Vec<Value>,
}

struct Templates {
    node: Value,
    pod: Value,
    events: Vec<Value>,
    broken: Vec<Broken>,
    now: String,
}

fn templates() -> Result<Templates> {
    let healthy = objects(HEALTHY)?;
    let node = healthy
        .iter()
        .find(|o| o["kind"] == "Node")
        .context("no node in the hostport capture")?
        .clone();
    let pod = healthy
        .iter()
        .find(|o| o["kind"] == "Pod" && o["status"]["phase"] == "Running")
        .context("no running pod in the hostport capture")?
        .clone();
    let name = pod["metadata"]["name"].clone();
    let events: Vec<Value> = healthy
        .iter()
        .filter(|o| o["kind"] == "Event" && o["involvedObject"]["name"] == name)
        .cloned()
        .collect();
    let mut broken = Vec::new();
    let mut now = String::new();
    for s in scenarios() {
        let expected: Value = serde_json::from_str(s.expected)?;
        let pod_name = expected["objects"][0]
            .as_str()
            .with_context(|| format!("{}: no object named", s.name))?;
        let objs = objects(s.dump)?;
        let pod = objs
            .iter()
            .find(|o| o["kind"] == "Pod" && o["metadata"]["name"] == pod_name)
            .with_context(|| format!("{}: pod {pod_name} missing", s.name))?
            .clone();
        let events = objs
            .iter()
            .filter(|o| o["kind"] == "Event" && o["involvedObject"]["name"] == pod_name)
            .cloned()
            .collect();
        let claims = objs
            .iter()
            .filter(|o| o["kind"] == "PersistentVolumeClaim")
            .cloned()
            .collect();
        now = now.max(expected["now"].as_str().unwrap_or("").to_string());
        broken.push(Broken {
            scenario: s.name,
            cause: expected["cause"].as_str().unwrap_or("").to_string(),
            pod,
            events,
            claims,
        });
    }
    Ok(Templates {
        node,
        pod,
        events,
        broken,
        now,
    })
}

/// Writes a list one item at a time, laid out byte for byte as kubectl writes it (four spaces
/// per level, items eight spaces in). A `List` is `kubectl get -A -o json`: its keys sorted
/// (`apiVersion`, `items`, then `kind` and `metadata` after the items), its items with their kind
/// and apiVersion. A typed list (`PodList`) is `kubectl cluster-info dump`: `kind`,
/// `apiVersion` and `metadata` first, items without kind or apiVersion.
struct ListWriter {
    w: BufWriter<std::fs::File>,
    first: bool,
    kind: String,
    item: Vec<u8>,
}

impl ListWriter {
    fn create(path: &Path, kind: &str) -> Result<ListWriter> {
        let f = std::fs::File::create(path).with_context(|| format!("{}", path.display()))?;
        let mut w = BufWriter::with_capacity(1 << 20, f);
        if kind == "List" {
            w.write_all(b"{\n    \"apiVersion\": \"v1\",\n    \"items\": [")?;
        } else {
            write!(
                w,
                "{{\n    \"kind\": \"{kind}\",\n    \"apiVersion\": \"v1\",\n    \"metadata\": {{\n        \"resourceVersion\": \"4242\"\n    }},\n    \"items\": ["
            )?;
        }
        Ok(ListWriter {
            w,
            first: true,
            kind: kind.to_string(),
            item: Vec::new(),
        })
    }
    fn push(&mut self, v: &Value) -> Result<()> {
        self.w.write_all(if self.first { b"\n" } else { b",\n" })?;
        self.first = false;
        self.item.clear();
        let mut ser = serde_json::Serializer::with_formatter(
            &mut self.item,
            serde_json::ser::PrettyFormatter::with_indent(b"    "),
        );
        match v.as_object() {
            Some(map) if self.kind != "List" => {
                let mut m = map.clone();
                m.remove("kind");
                m.remove("apiVersion");
                serde::Serialize::serialize(&m, &mut ser)?;
            }
            _ => serde::Serialize::serialize(v, &mut ser)?,
        }
        for (n, line) in self.item.split(|b| *b == b'\n').enumerate() {
            self.w
                .write_all(if n == 0 { b"        " } else { b"\n        " })?;
            self.w.write_all(line)?;
        }
        Ok(())
    }
    fn finish(mut self) -> Result<()> {
        let close: &[u8] = if self.first { b"]" } else { b"\n    ]" };
        self.w.write_all(close)?;
        if self.kind == "List" {
            self.w.write_all(
                b",\n    \"kind\": \"List\",\n    \"metadata\": {\n        \"resourceVersion\": \"\"\n    }\n}\n",
            )?;
        } else {
            self.w.write_all(b"\n}\n")?;
        }
        self.w.flush()?;
        Ok(())
    }
}

fn node_name(i: usize) -> String {
    format!("node-{i:05}")
}

fn make_node(t: &Value, i: usize, rng: &mut Rng) -> Value {
    let mut n = t.clone();
    let name = node_name(i);
    n["metadata"]["name"] = json!(name);
    n["metadata"]["uid"] = json!(rng.uid());
    n["metadata"]["labels"]["kubernetes.io/hostname"] = json!(name);
    n["metadata"]["labels"]["topology.kubernetes.io/zone"] = json!(format!("zone-{}", i % 3));
    n["metadata"]["labels"]["node.kubernetes.io/instance-type"] = json!("m5.2xlarge");
    // Room for the pods placed on it.
    n["status"]["allocatable"]["cpu"] = json!("8");
    n["status"]["capacity"]["cpu"] = json!("8");
    n["status"]["allocatable"]["memory"] = json!("32617460Ki");
    n["status"]["allocatable"]["pods"] = json!("110");
    // `pointer_mut`, not indexing: indexing a missing key would insert a null.
    if let Some(addrs) = n
        .pointer_mut("/status/addresses")
        .and_then(Value::as_array_mut)
    {
        for a in addrs {
            if a["type"] == "Hostname" {
                a["address"] = json!(name);
            } else if a["type"] == "InternalIP" {
                a["address"] = json!(format!(
                    "10.{}.{}.{}",
                    (i >> 16) & 255,
                    (i >> 8) & 255,
                    i & 255
                ));
            }
        }
    }
    n
}

/// Renames a pod (and its container IDs, IP, node) into `ns`/`name`.
fn rename_pod(t: &Value, ns: &str, name: &str, node: Option<String>, rng: &mut Rng) -> Value {
    let mut p = t.clone();
    let uid = rng.uid();
    p["metadata"]["name"] = json!(name);
    p["metadata"]["namespace"] = json!(ns);
    p["metadata"]["uid"] = json!(uid);
    p["metadata"]["resourceVersion"] = json!(format!("{}", 100_000 + rng.below(900_000_000)));
    if let Some(node) = node
        && p["spec"].get("nodeName").is_some()
    {
        p["spec"]["nodeName"] = json!(node);
    }
    if p["status"].get("podIP").is_some() {
        let ip = format!(
            "10.{}.{}.{}",
            64 + rng.below(64),
            rng.below(256),
            rng.below(256)
        );
        p["status"]["podIP"] = json!(ip);
        p["status"]["podIPs"] = json!([{ "ip": ip }]);
    }
    if let Some(list) = p
        .pointer_mut("/status/containerStatuses")
        .and_then(Value::as_array_mut)
    {
        for c in list {
            if c.get("containerID").is_some() {
                c["containerID"] = json!(format!("containerd://{}", rng.hex(64)));
            }
        }
    }
    p
}

fn rename_event(t: &Value, ns: &str, pod: &str, uid: &str, rng: &mut Rng) -> Value {
    let mut e = t.clone();
    e["metadata"]["name"] = json!(format!("{pod}.{}", rng.hex(16)));
    e["metadata"]["namespace"] = json!(ns);
    e["metadata"]["uid"] = json!(rng.uid());
    e["involvedObject"]["name"] = json!(pod);
    e["involvedObject"]["namespace"] = json!(ns);
    e["involvedObject"]["uid"] = json!(uid);
    if let Some(m) = e["message"].as_str() {
        // `Successfully assigned NS/POD to node-1`
        if let Some((head, _)) = m.split_once(" assigned ") {
            e["message"] = json!(format!("{head} assigned {ns}/{pod} to node"));
        }
    }
    e
}

/// A healthy pod the way a Deployment's ReplicaSet makes it: owner, labels, a realistic set of
/// environment variables and annotations (5–8 KB of JSON, like real pods).
fn healthy_pod(t: &Templates, ns: &str, i: usize, nodes: usize, seed: u64) -> Value {
    let mut rng = Rng::new(seed, 1_000_000 + i as u64);
    let app = format!("svc-{}", i % 97);
    let rs = format!("{app}-{}", rng.suffix(10));
    let name = format!("{rs}-{}", rng.suffix(5));
    let node = node_name(rng.below(nodes));
    let mut p = rename_pod(&t.pod, ns, &name, Some(node), &mut rng);
    let tier = ["web", "api", "worker"][i % 3];
    p["metadata"]["labels"] = json!({
        "app.kubernetes.io/name": app, "app.kubernetes.io/part-of": ns,
        "pod-template-hash": rs.rsplit('-').next(), "tier": tier,
    });
    p["metadata"]["annotations"] = json!({
        "prometheus.io/scrape": "true", "prometheus.io/port": "9090",
        "kubectl.kubernetes.io/restartedAt": "2026-11-20T09:00:00Z",
    });
    p["metadata"]["ownerReferences"] = json!([{
        "apiVersion": "apps/v1", "kind": "ReplicaSet", "name": rs, "uid": rng.uid(),
        "controller": true, "blockOwnerDeletion": true,
    }]);
    if let Some(c) = p.pointer_mut("/spec/containers/0") {
        let env: Vec<Value> = (0..8)
            .map(|k| json!({"name": format!("APP_SETTING_{k}"), "value": format!("value-{}", rng.hex(12))}))
            .collect();
        c["env"] = json!(env);
        c["resources"] =
            json!({"requests": {"cpu": "50m", "memory": "64Mi"}, "limits": {"memory": "256Mi"}});
    }
    p
}

fn generate(nodes: usize, pods: usize, events: usize, seed: u64, out: &Path) -> Result<()> {
    if nodes == 0 || pods == 0 {
        bail!("--nodes and --pods must be at least 1");
    }
    let t = templates()?;
    let _ = std::fs::remove_dir_all(out);
    std::fs::create_dir_all(out.join("lists"))?;
    std::fs::create_dir_all(out.join("dump"))?;
    let mut rng = Rng::new(seed, 0);

    let mut list_nodes = ListWriter::create(&out.join("lists/nodes.json"), "List")?;
    let mut dump_nodes = ListWriter::create(&out.join("dump/nodes.json"), "NodeList")?;
    for i in 0..nodes {
        let n = make_node(&t.node, i, &mut rng);
        list_nodes.push(&n)?;
        dump_nodes.push(&n)?;
    }
    list_nodes.finish()?;
    dump_nodes.finish()?;

    let namespaces = (pods / 150).max(1);
    let broken_total = (pods * 2).div_ceil(100);
    // Events left for healthy pods once every broken pod has its own.
    let broken_events: usize = (0..broken_total)
        .map(|k| t.broken[k % t.broken.len()].events.len())
        .sum();
    let healthy_events = events.saturating_sub(broken_events);
    let healthy_total = pods - broken_total.min(pods);
    let mut planted: BTreeMap<String, usize> = BTreeMap::new();

    let mut list_pods = ListWriter::create(&out.join("lists/pods.json"), "List")?;
    let mut list_events = ListWriter::create(&out.join("lists/events.json"), "List")?;
    let mut list_claims = ListWriter::create(&out.join("lists/pvcs.json"), "List")?;
    for k in 0..namespaces {
        let ns = format!("team-{k:04}");
        let dir = out.join("dump").join(&ns);
        std::fs::create_dir_all(&dir)?;
        let mut dump_pods = ListWriter::create(&dir.join("pods.json"), "PodList")?;
        let mut dump_events = ListWriter::create(&dir.join("events.json"), "EventList")?;
        let mut dump_claims = ListWriter::create(&dir.join("pvcs.json"), "List")?;
        // Pod i lives in namespace i % namespaces: the first broken_total are the broken ones.
        let mut i = k;
        while i < pods {
            let mut rng = Rng::new(seed, i as u64);
            if i < broken_total.min(pods) {
                let b = &t.broken[i % t.broken.len()];
                let name = format!("{}-{i}", b.scenario);
                let node = node_name(rng.below(nodes));
                let mut pod = rename_pod(&b.pod, &ns, &name, Some(node), &mut rng);
                for c in &b.claims {
                    let claim = format!("{}-{i}", c["metadata"]["name"].as_str().unwrap_or("data"));
                    if let Some(vols) = pod
                        .pointer_mut("/spec/volumes")
                        .and_then(Value::as_array_mut)
                    {
                        for v in vols {
                            if v["persistentVolumeClaim"]["claimName"] == c["metadata"]["name"] {
                                v["persistentVolumeClaim"]["claimName"] = json!(claim);
                            }
                        }
                    }
                    let mut c = c.clone();
                    c["metadata"]["name"] = json!(claim);
                    c["metadata"]["namespace"] = json!(ns);
                    c["metadata"]["uid"] = json!(rng.uid());
                    list_claims.push(&c)?;
                    dump_claims.push(&c)?;
                }
                let uid = pod["metadata"]["uid"].as_str().unwrap_or("").to_string();
                for e in &b.events {
                    let e = rename_event(e, &ns, &name, &uid, &mut rng);
                    list_events.push(&e)?;
                    dump_events.push(&e)?;
                }
                list_pods.push(&pod)?;
                dump_pods.push(&pod)?;
                *planted.entry(b.cause.clone()).or_default() += 1;
            } else {
                let h = i - broken_total;
                let pod = healthy_pod(&t, &ns, i, nodes, seed);
                let uid = pod["metadata"]["uid"].as_str().unwrap_or("").to_string();
                let name = pod["metadata"]["name"].as_str().unwrap_or("").to_string();
                // Healthy pods share the remaining events evenly, in the template's order.
                let per = healthy_events / healthy_total.max(1);
                let extra = usize::from(h < healthy_events % healthy_total.max(1));
                for n in 0..per + extra {
                    let e = rename_event(&t.events[n % t.events.len()], &ns, &name, &uid, &mut rng);
                    list_events.push(&e)?;
                    dump_events.push(&e)?;
                }
                list_pods.push(&pod)?;
                dump_pods.push(&pod)?;
            }
            i += namespaces;
        }
        dump_pods.finish()?;
        dump_events.finish()?;
        dump_claims.finish()?;
    }
    list_pods.finish()?;
    list_events.finish()?;
    list_claims.finish()?;
    std::fs::write(
        out.join("planted.json"),
        serde_json::to_string_pretty(&planted)? + "\n",
    )?;
    std::fs::write(out.join("now.txt"), format!("{}\n", t.now))?;
    Ok(())
}

fn json_files(p: &Path, out: &mut Vec<PathBuf>) -> Result<()> {
    if p.is_dir() {
        let mut entries: Vec<PathBuf> = std::fs::read_dir(p)?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        entries.sort();
        for e in entries {
            json_files(&e, out)?;
        }
    } else if p.extension().is_some_and(|e| e == "json") {
        out.push(p.to_path_buf());
    }
    Ok(())
}

fn floor(paths: &[PathBuf]) -> Result<()> {
    let mut files = Vec::new();
    for p in paths {
        json_files(p, &mut files)?;
    }
    let mut bytes = 0usize;
    for f in &files {
        let text = std::fs::read(f).with_context(|| format!("{}", f.display()))?;
        bytes += text.len();
        serde_json::from_slice::<serde::de::IgnoredAny>(&text)
            .with_context(|| format!("{}", f.display()))?;
    }
    println!("{} files, {bytes} bytes parsed", files.len());
    Ok(())
}

/// Resident and peak resident memory of this process, in MB (from /proc/self/status).
fn rss_mb() -> (u64, u64) {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| v.split_whitespace().next()?.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    (field("VmRSS:"), field("VmHWM:"))
}

fn phases(paths: Vec<PathBuf>, now: Option<String>) -> Result<()> {
    let now = now
        .map(|n| n.parse::<jiff::Timestamp>())
        .transpose()
        .context("--now")?;
    let start = std::time::Instant::now();
    let mut last = start;
    let mut report = |phase: &str| {
        let (rss, peak) = rss_mb();
        let t = std::time::Instant::now();
        eprintln!(
            "{phase:<10} {:>7.2} s  (total {:>6.2} s)  RSS {rss:>6} MB  peak {peak:>6} MB",
            (t - last).as_secs_f64(),
            (t - start).as_secs_f64()
        );
        last = t;
    };
    let inputs = paths.into_iter().map(kubewhy_source::Input::Path).collect();
    let loaded = kubewhy_source::load_owned(inputs, now);
    report("load");
    let diagnosis = kubewhy_rules::diagnose(&loaded.snapshot);
    report("diagnose");
    eprintln!(
        "{} objects, {} findings, {} unexplained, {} warnings",
        loaded.snapshot.object_count(),
        diagnosis.findings.len(),
        diagnosis.unexplained.len(),
        loaded.warnings.len()
    );
    Ok(())
}

fn main() -> Result<()> {
    match Cli::parse().cmd {
        Cmd::Gen {
            nodes,
            pods,
            events,
            seed,
            out,
        } => generate(nodes, pods, events, seed, &out),
        Cmd::Floor { paths } => floor(&paths),
        Cmd::Phases { paths, now } => phases(paths, now),
    }
}
