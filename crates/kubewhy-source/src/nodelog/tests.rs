use super::*;

const UID: &str = "531e8750-911f-4fb1-ad32-87c855a28f2f";
const CID: &str = "ff329173246bdc6e0c4db8fa0b3d4902380412664f74331b70197c6999f33d4e";

fn parse_named(name: &str, text: &str) -> (NodeBundle, Vec<InputWarning>) {
    let mut b = NodeBundle::default();
    let mut w = Vec::new();
    let reference = "2026-11-23T12:00:00Z".parse().ok();
    parse_node_log(name, text.as_bytes(), reference, &mut b, &mut w);
    compact(&mut b);
    (b, w)
}

/// A file of tests/fixtures/node (captured from the real cluster).
fn fixture(path: &str) -> String {
    let p = format!(
        "{}/../../tests/fixtures/node/{path}",
        env!("CARGO_MANIFEST_DIR")
    );
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"))
}

fn parse(text: &str) -> NodeBundle {
    let (b, w) = parse_named("node.log", text);
    assert!(w.is_empty(), "{w:?}");
    b
}

fn one(text: &str) -> NodeLine {
    let b = parse(text);
    assert_eq!(b.lines.len(), 1, "{:#?}", b.lines);
    b.lines.into_iter().next().unwrap()
}

#[test]
fn seed_001_stop_container_timeout_in_var_log_messages() {
    // The exact lines of seed 001 (a v1.16 kubelet with docker, syslog format).
    let text = format!(
        "Aug 20 10:25:54 tke-node kubelet: E0820 10:25:54.561334 12170 remote_runtime.go:243] StopContainer \"{CID}\" from runtime service failed: rpc error: code = Unknown desc = operation timeout: context deadline exceeded\n\
         Aug 20 10:25:54 tke-node kubelet: E0820 10:25:54.562667 12170 kuberuntime_container.go:590] Container \"docker://{CID}\" termination failed with gracePeriod 30: rpc error: code = Unknown desc = operation timeout: context deadline exceeded\n"
    );
    let b = parse(&text);
    assert_eq!(b.lines.len(), 2);
    for l in &b.lines {
        assert_eq!(l.signal, Some(Signal::StopFailed));
        assert_eq!(l.detail, "timed out");
        assert_eq!(l.host.as_deref(), Some("tke-node"));
        assert_eq!(l.component, "kubelet");
        assert_eq!(l.ids, vec![CID.to_string()]);
        assert_eq!(l.time, Some("2026-08-20T10:25:54Z".parse().unwrap()));
    }
}

#[test]
fn seed_001_no_ref_for_container() {
    let l = one(&format!(
        "Aug 20 10:25:51 tke-node kubelet: E0820 10:25:51.123456 12170 prober.go:103] No ref for container \"docker://{CID}\" (zookeeper0-0_default(6d5c3a9e-1b2c-11ea-8d3c-525400a1b2c3):zookeeper)"
    ));
    assert_eq!(l.signal, Some(Signal::UnknownContainer));
    assert_eq!(
        l.uids,
        vec!["6d5c3a9e-1b2c-11ea-8d3c-525400a1b2c3".to_string()]
    );
    assert_eq!(
        l.pods,
        vec![("default".to_string(), "zookeeper0-0".to_string())]
    );
}

#[test]
fn real_1_20_unmount_target_is_busy() {
    let text = fixture("busy-mount/kubelet.log");
    let b = parse(&text);
    let unmount: Vec<&NodeLine> = b
        .lines
        .iter()
        .filter(|l| l.signal == Some(Signal::UnmountFailed))
        .collect();
    assert_eq!(unmount.len(), 7);
    assert!(unmount.iter().all(|l| l.uids == vec![UID.to_string()]));
    assert!(
        unmount[6].text.ends_with("target is busy.\\n\""),
        "{}",
        unmount[6].text
    );
    assert_eq!(
        unmount[6].time,
        Some("2026-11-23T07:18:13.335030Z".parse().unwrap())
    );
}

#[test]
fn real_1_20_runtime_down_and_pleg() {
    let text = fixture("runtime-down/kubelet.log");
    let b = parse(&text);
    let pleg: Vec<&NodeLine> = b
        .lines
        .iter()
        .filter(|l| l.signal == Some(Signal::PlegUnhealthy))
        .collect();
    assert!(!pleg.is_empty());
    assert!(
        pleg.last().unwrap().detail.starts_with("last relist 3m11"),
        "{}",
        pleg.last().unwrap().detail
    );
    let down = b
        .lines
        .iter()
        .filter(|l| l.signal == Some(Signal::RuntimeDown))
        .count();
    // Hundreds in the file, bounded in what is kept.
    assert!(down > 0 && down <= KEEP_PER_SUBJECT, "{down}");
}

#[test]
fn kernel_oom_kill_is_one_line_per_kill_with_its_cgroup() {
    for file in ["dmesg.txt", "dmesg-T.txt"] {
        let text = fixture(&format!("oom/{file}"));
        let b = parse(&text);
        let kills: Vec<&NodeLine> = b
            .lines
            .iter()
            .filter(|l| l.signal == Some(Signal::OomKill))
            .collect();
        assert!(!kills.is_empty(), "{file}");
        for k in &kills {
            assert!(k.text.contains("Killed process"), "{file}: {}", k.text);
            assert_eq!(k.component, "kernel");
            assert_eq!(
                k.uids,
                vec!["88459009-3782-46a7-a0b4-ec4bf5199573".to_string()]
            );
            assert_eq!(k.ids.len(), 1, "{file}: the container's id from task_memcg");
            assert!(
                k.detail
                    .starts_with("the container's memory limit (cgroup)")
            );
            let day = k.time.map(|t| t.to_string()[..10].to_string());
            if file == "dmesg-T.txt" {
                assert_eq!(day.as_deref(), Some("2026-11-23"));
            } else {
                assert_eq!(day, None, "seconds since boot are no date");
            }
        }
    }
}

#[test]
fn system_oom_and_old_kernel_wordings() {
    let b = parse(&format!(
        "[ 1234.567890] Out of memory: Killed process 4321 (java) total-vm:123kB, anon-rss:100kB\n\
         [ 1300.000001] Task in /kubepods/burstable/pod{UID}/{CID} killed as a result of limit of /kubepods/burstable/pod{UID}\n\
         [ 1300.000002] Memory cgroup out of memory: Kill process 999 (java) score 1990 or sacrifice child\n"
    ));
    assert_eq!(b.lines.len(), 2, "{:#?}", b.lines);
    assert_eq!(b.lines[0].detail, "the node out of memory (system-wide)");
    assert!(b.lines[0].uids.is_empty());
    assert_eq!(b.lines[1].uids, vec![UID.to_string()]);
    assert_eq!(b.lines[1].ids, vec![CID.to_string()]);
}

#[test]
fn kernel_hangs() {
    let b = parse(
        "[ 3528.812221] unregister_netdevice: waiting for eth0 to become free. Usage count = 1\n\
         Nov 23 07:10:21 node-1 kernel: INFO: task runc:[2:INIT]:12345 blocked for more than 120 seconds.\n",
    );
    assert_eq!(b.lines[0].signal, Some(Signal::NetdevHang));
    assert_eq!(b.lines[1].signal, Some(Signal::HungTask));
    assert_eq!(b.lines[1].component, "kernel");
}

#[test]
fn reclaim_checks_at_verbosity_3_structured_old_and_json() {
    let b = parse(&format!(
        "I1123 07:18:13.335030     688 kubelet_pods.go:980] \"Pod is terminated, but some volumes have not been cleaned up\" pod=\"shop/web-1\"\n\
         I1123 07:18:14.000000     688 kubelet_pods.go:950] Pod \"web-2_shop({UID})\" is terminated, but some containers are still running\n\
         {{\"ts\":1763882294.1,\"caller\":\"kubelet/kubelet_pods.go:1\",\"msg\":\"Pod is terminated, but pod cgroup sandbox has not been cleaned up\",\"v\":3,\"pod\":{{\"name\":\"web-3\",\"namespace\":\"shop\"}}}}\n\
         I1123 07:18:15.000000     688 kubelet_pods.go:990] \"Pod is terminated, but some container status has not yet been reported\" pod=\"shop/web-4\" running=1\n"
    ));
    type Got = Vec<(Option<Signal>, Vec<(String, String)>)>;
    let got: Got = b.lines.iter().map(|l| (l.signal, l.pods.clone())).collect();
    let p = |n: &str| vec![("shop".to_string(), n.to_string())];
    assert_eq!(
        got,
        vec![
            (Some(Signal::CleanupVolumes), p("web-1")),
            (Some(Signal::CleanupContainers), p("web-2")),
            (Some(Signal::CleanupCgroup), p("web-3")),
            (Some(Signal::CleanupStatus), p("web-4")),
        ]
    );
    assert_eq!(b.lines[1].uids, vec![UID.to_string()]);
}

#[test]
fn orphaned_pod_volumes_old_and_new() {
    let b = parse(&format!(
        "E1123 07:18:13.335030     688 kubelet_volumes.go:154] orphaned pod \"{UID}\" found, but volume paths are still present on disk : There were a total of 1 errors similar to this. Turn up verbosity to see them.\n\
         E1123 07:18:13.335030     688 kubelet_volumes.go:245] \"Orphaned pod found, but volumes are not cleaned up\" podUID={UID}\n"
    ));
    assert!(
        b.lines
            .iter()
            .all(|l| l.signal == Some(Signal::OrphanedVolumes))
    );
    assert_eq!(b.lines.len(), 2);
    assert!(b.lines.iter().all(|l| l.uids == vec![UID.to_string()]));
}

#[test]
fn containerd_logrus_lines_and_id_links() {
    let sid = "a".repeat(64);
    let text = format!(
        "time=\"2026-11-23T07:18:33.123456789Z\" level=info msg=\"RunPodSandbox for &PodSandboxMetadata{{Name:web-1,Uid:{UID},Namespace:shop,Attempt:0,}} returns sandbox id \\\"{sid}\\\"\"\n\
         time=\"2026-11-23T07:18:34.1Z\" level=info msg=\"CreateContainer within sandbox \\\"{sid}\\\" for &ContainerMetadata{{Name:app,Attempt:0,}} returns container id \\\"{CID}\\\"\"\n\
         time=\"2026-11-23T07:20:00.5Z\" level=error msg=\"StopPodSandbox for \\\"{sid}\\\" failed\" error=\"failed to destroy network for sandbox: context deadline exceeded\"\n"
    );
    let b = parse(&text);
    assert_eq!(b.links.len(), 2);
    assert_eq!(
        b.links[0].pod,
        Some(("shop".into(), "web-1".into(), UID.into()))
    );
    assert_eq!(b.links[1].sandbox.as_deref(), Some(sid.as_str()));
    assert_eq!(b.lines.len(), 1);
    let l = &b.lines[0];
    assert_eq!(l.signal, Some(Signal::StopFailed));
    assert_eq!(l.ids, vec![sid]);
    assert_eq!(l.time, Some("2026-11-23T07:20:00.5Z".parse().unwrap()));
}

#[test]
fn journal_iso_formats_and_client_throttling() {
    let b = parse(
        "2026-11-23T07:18:13+0000 node-1 kubelet[688]: I1123 07:18:13.335030     688 request.go:655] Throttling request took 1.171s, request: PATCH:https://10.0.0.1:443/api/v1/namespaces/shop/pods/web-1/status\n\
         2026-11-23T07:18:14.500000+00:00 node-1 kubelet[688]: I1123 07:18:14.500000     688 request.go:697] Waited for 1.19s due to client-side throttling, not priority and fairness, request: PATCH:https://10.0.0.1:443/api/v1/namespaces/shop/pods/web-2/status\n",
    );
    assert_eq!(b.lines.len(), 2);
    assert_eq!(
        b.lines[0].time,
        Some("2026-11-23T07:18:13Z".parse().unwrap())
    );
    assert_eq!(
        b.lines[1].time,
        Some("2026-11-23T07:18:14.5Z".parse().unwrap())
    );
    assert!(
        b.lines
            .iter()
            .all(|l| l.signal == Some(Signal::ClientThrottled))
    );
    assert_eq!(
        b.lines[1].detail,
        "waited 1.19s for PATCH:https://10.0.0.1:443/api/v1/namespaces/shop/pods/web-2/status"
    );
    assert_eq!(b.lines[0].host.as_deref(), Some("node-1"));
}

#[test]
fn runtime_tables_seed_001_docker_up_containerd_stopped() {
    let text = format!(
        "$ docker ps -a\n\
         CONTAINER ID        IMAGE                  COMMAND                  CREATED             STATUS                  PORTS               NAMES\n\
         ff3291732462        zookeeper              \"/docker-entrypoint.…\"   2 days ago          Up 2 days                                   k8s_zookeeper_zookeeper0-0_default_6d5c3a9e-1b2c-11ea-8d3c-525400a1b2c3_0\n\
         0123456789ab        k8s.gcr.io/pause:3.1   \"/pause\"                 2 days ago          Exited (0) 1 hour ago                       k8s_POD_zookeeper0-0_default_6d5c3a9e-1b2c-11ea-8d3c-525400a1b2c3_0\n\
         \n\
         $ ctr --namespace moby --address /var/run/docker/containerd/containerd.sock task list\n\
         TASK                                                                PID      STATUS    \n\
         {CID}    12345    STOPPED\n"
    );
    let b = parse(&text);
    assert_eq!(
        b.lists,
        vec!["docker ps".to_string(), "ctr task ls -n moby".to_string()]
    );
    assert_eq!(b.runtime.len(), 3);
    let d = &b.runtime[0];
    assert_eq!(
        (d.tool, d.id.as_str(), d.running),
        ("docker ps", "ff3291732462", Some(true))
    );
    assert_eq!(d.state, "Up 2 days");
    assert_eq!(d.name, "zookeeper");
    assert_eq!(d.pod_name.as_deref(), Some("zookeeper0-0"));
    assert_eq!(
        d.pod_uid.as_deref(),
        Some("6d5c3a9e-1b2c-11ea-8d3c-525400a1b2c3")
    );
    assert_eq!(b.runtime[1].state, "Exited (0) 1 hour ago");
    assert_eq!(b.runtime[1].running, Some(false));
    let t = &b.runtime[2];
    assert_eq!((t.tool, t.id.as_str()), ("ctr task ls", CID));
    assert_eq!(t.ctr_namespace.as_deref(), Some("moby"));
    assert_eq!((t.state.as_str(), t.running), ("STOPPED", Some(false)));
}

#[test]
fn crictl_tables_old_and_new_layouts() {
    let b = parse(
        "CONTAINER           IMAGE               CREATED             STATE               NAME                ATTEMPT             POD ID\n\
         1f73f2d81bf98       2d7baa4b0e22c       2 minutes ago       Running             app                 0                   3a1f0a2b3c4d5\n\
         \n\
         CONTAINER           IMAGE               CREATED              STATE               NAME                ATTEMPT             POD ID              POD\n\
         2f73f2d81bf98       2d7baa4b0e22c       About a minute ago   Exited              app                 1                   4a1f0a2b3c4d5       web-1\n\
         \n\
         POD ID              CREATED              STATE               NAME                NAMESPACE           ATTEMPT             RUNTIME\n\
         4a1f0a2b3c4d5       About a minute ago   NotReady            web-1               shop                1                   (default)\n",
    );
    let r = &b.runtime;
    assert_eq!(r.len(), 3);
    assert_eq!(
        (r[0].name.as_str(), r[0].running, r[0].sandbox.as_deref()),
        ("app", Some(true), Some("3a1f0a2b3c4d5"))
    );
    assert_eq!(
        (r[1].state.as_str(), r[1].pod_name.as_deref()),
        ("Exited", Some("web-1"))
    );
    assert_eq!(r[2].tool, "crictl pods");
    assert_eq!(
        (
            r[2].pod_namespace.as_deref(),
            r[2].pod_name.as_deref(),
            r[2].running
        ),
        (Some("shop"), Some("web-1"), Some(false))
    );
}

#[test]
fn real_ctr_output_and_the_namespace_from_the_file_name() {
    // Captured from containerd 1.6 (`ctr -n k8s.io task ls`), trailing spaces included.
    let text = "TASK                                                                PID     STATUS    \nbb9a0bf66bb9cbe517aaab71cb8ed53e8b3eb42465bdb348d67844015dcdeb08    8962    RUNNING\n";
    let (b, _) = parse_named("bundle/ctr-k8s.io-tasks.txt", text);
    assert_eq!(b.lists, vec!["ctr task ls -n k8s.io".to_string()]);
    assert_eq!(b.runtime[0].running, Some(true));
    assert_eq!(b.runtime[0].ctr_namespace.as_deref(), Some("k8s.io"));
}

#[test]
fn node_collect_sections() {
    let text = format!(
        "{SECTION_MARKER}node\nnode\tnode-1\nhostname\tnode-1.example\ncollected\t2026-11-23T07:30:00Z\nnote\tcrictl: not run (No such file or directory (os error 2))\n\
         {SECTION_MARKER}processes\n4242\tD\tsleep\t/realcluster/kubepods/besteffort/pod{UID}/{CID}\n\
         {SECTION_MARKER}leftovers\npod-dir\t{UID}\t/var/lib/kubelet/pods/{UID}\tvolumes=kubernetes.io~empty-dir/scratch\n\
         {SECTION_MARKER}static-pods\n/etc/kubernetes/manifests/etcd.yaml\tabc123\t2026-11-23T07:00:00Z\tkube-system/etcd\tetcd=k8s.gcr.io/etcd:3.4.13-0\n\
         {SECTION_MARKER}kubelet-settings\nkubeAPIQPS\t5\nkubeAPIBurst\t10\nsource\tconfig file /var/lib/kubelet/config.yaml\n\
         {SECTION_MARKER}mounts\n43 42 0:39 / /var/lib/kubelet/pods/{UID}/volumes/kubernetes.io~empty-dir/scratch rw,relatime shared:2 - tmpfs tmpfs rw\n\
         {SECTION_MARKER}log kubelet\nE1123 07:18:13.335030 688 x.go:1] UnmountVolume.TearDown failed for volume \"scratch\" pod \"{UID}\" : device or resource busy\n"
    );
    let b = parse(&text);
    assert_eq!(b.node.as_deref(), Some("node-1"));
    assert_eq!(b.hostname.as_deref(), Some("node-1.example"));
    assert_eq!(b.collected, Some("2026-11-23T07:30:00Z".parse().unwrap()));
    assert_eq!(b.notes.len(), 1);
    assert_eq!(b.processes.len(), 1);
    assert_eq!((b.processes[0].pid, b.processes[0].state), (4242, 'D'));
    assert_eq!(b.processes[0].uids, vec![UID.to_string()]);
    assert_eq!(b.leftovers[0].uid, UID);
    assert_eq!(b.manifests[0].name, "etcd");
    assert_eq!(
        b.manifests[0].images,
        vec![("etcd".into(), "k8s.gcr.io/etcd:3.4.13-0".into())]
    );
    let k = b.kubelet.as_ref().unwrap();
    assert_eq!((k.kube_api_qps, k.kube_api_burst), (Some(5.0), Some(10)));
    let signals: Vec<_> = b
        .lines
        .iter()
        .map(|l| (l.signal, l.component.as_str()))
        .collect();
    assert_eq!(
        signals,
        vec![
            (Some(Signal::MountPresent), "mountinfo"),
            (Some(Signal::UnmountFailed), "kubelet")
        ]
    );
}

#[test]
fn interleaved_truncated_and_credentials() {
    let text = format!(
        "random noise line\n\
         [ 1.0] Out of memory: Killed process 1 (x)\n\
         garbage \u{0}\u{1} bytes\n\
         Nov 23 07:10:21 node-1 kubelet[1]: E1123 07:10:21.000000 1 a.go:1] StopContainer \"{CID}\" from runtime service failed: Authorization: Bearer abcdefghijklmnopqrstuvwxyz context deadline exceeded\n\
         TASK    PID    STATUS\n\
         {CID}    12    RUNNING\n\
         Nov 23 07:10:22 node-1 kubelet[1]: E1123 07:10:22.000000 1 a.go:1] StopContainer \"{CID}\" from runtime service failed: conte"
    );
    let b = parse(&text);
    let signals: Vec<_> = b.lines.iter().map(|l| l.signal).collect();
    assert_eq!(
        signals,
        vec![
            Some(Signal::OomKill),
            Some(Signal::StopFailed),
            Some(Signal::StopFailed)
        ]
    );
    assert!(
        b.lines[1].text.contains("Bearer [REDACTED]"),
        "{}",
        b.lines[1].text
    );
    assert_eq!(b.runtime.len(), 1);
}

#[test]
fn a_multi_megabyte_log_keeps_a_bounded_sample_of_each_subject() {
    let mut text = String::new();
    for i in 0..60_000 {
        text.push_str(&format!(
            "I1123 07:10:21.000000 1 a.go:1] routine line number {i} with nothing in it\n"
        ));
        if i % 100 == 0 {
            text.push_str(&format!(
                "E1123 07:10:21.000000 1 kubelet.go:1826] skipping pod synchronization - PLEG is not healthy: pleg was last seen active 3m{}s ago; threshold is 3m0s\n",
                i / 100
            ));
        }
    }
    assert!(text.len() > 4_000_000);
    let b = parse(&text);
    assert_eq!(b.lines_read, 60_600);
    assert_eq!(b.lines.len(), KEEP_PER_SUBJECT);
    // What was dropped is still counted.
    let stands_for: u64 = b.lines.iter().map(|l| 1 + l.dropped_before).sum();
    assert_eq!(stands_for, 600);
    // The first and the latest are kept.
    assert!(b.lines[0].detail.contains("3m0s ago"));
    assert!(b.lines.last().unwrap().detail.contains("3m599s ago"));
}

#[test]
fn compressed_and_binary_files_are_reported_not_read() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    std::fs::write(dir.join("a.gz"), [0x1f, 0x8b, 8, 0, 0]).unwrap();
    std::fs::write(dir.join("b.bin"), [1, 0, 2, 0]).unwrap();
    let mut w = Vec::new();
    let b = read_node_logs(&dir, None, &mut w);
    assert!(b.lines.is_empty());
    let msgs: Vec<String> = w.iter().map(|w| w.message.clone()).collect();
    assert_eq!(msgs.len(), 2, "{msgs:?}");
    assert!(msgs[0].contains("gzip"));
    assert!(msgs[1].contains("binary"));
}

#[test]
fn static_pod_summary_reads_names_and_images_only() {
    let yaml = "apiVersion: v1\nkind: Pod\nmetadata:\n  name: kube-apiserver\n  namespace: kube-system\nspec:\n  containers:\n  - name: kube-apiserver\n    image: k8s.gcr.io/kube-apiserver:v1.20.2\n    env:\n    - name: SECRET\n      value: hunter2\n";
    assert_eq!(
        static_pod_summary(yaml),
        Some((
            "kube-system".into(),
            "kube-apiserver".into(),
            vec![(
                "kube-apiserver".into(),
                "k8s.gcr.io/kube-apiserver:v1.20.2".into()
            )]
        ))
    );
    assert_eq!(
        static_pod_summary("kind: Deployment\nmetadata: {name: x}\n"),
        None
    );
    assert_eq!(static_pod_summary(": : :"), None);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(300))]
    /// Any bytes, and lines shaped like what the parser looks for with their fields mangled,
    /// tables with rows of any width and sections with any columns: no panic.
    #[test]
    fn never_panics(
        bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400),
        junk in "[{}\\[\\]\"\\\\:a-z0-9/. =\t_()-]{0,40}",
        wide in "[ a-fA-F0-9é…]{0,120}",
    ) {
        let mut b = NodeBundle::default();
        let mut w = Vec::new();
        parse_node_log("fuzz", &bytes[..], None, &mut b, &mut w);
        let lines = [
            format!("Aug 20 10:25:54 host kubelet: E0820 10:25:54.5 1 a.go:1] StopContainer {junk} failed"),
            format!("2026-11-23T07:18:13{junk} node-1 kubelet[1]: {junk}"),
            format!("[{junk}] oom-kill:constraint={junk},task_memcg={junk}"),
            format!("[ 1.0] Memory cgroup out of memory: Killed process {junk}"),
            format!("time=\"{junk}\" level=error msg=\"RunPodSandbox for &PodSandboxMetadata{{Name:{junk},Uid:{junk},Namespace:x,}} returns sandbox id {junk}"),
            format!("I1122 09:59:00.0 1 request.go:655] Throttling request took {junk}, request: {junk}"),
            format!("CONTAINER ID   IMAGE   STATUS   NAMES\n{wide}\n{junk}"),
            format!("TASK    PID    STATUS\n{wide}{wide}\n"),
            format!("{SECTION_MARKER}processes\n{junk}\n{SECTION_MARKER}static-pods\n{junk}\n{SECTION_MARKER}holders\n{junk}\n{SECTION_MARKER}node\n{junk}"),
            format!("pleg was last seen active {junk} ago; threshold is {junk}"),
        ];
        for l in &lines {
            parse_node_log("fuzz", l.as_bytes(), None, &mut b, &mut w);
        }
        compact(&mut b);
        let _ = static_pod_summary(&junk);
    }
}

#[test]
fn a_stop_that_cannot_find_a_network_plugin_is_a_failed_stop_not_an_unknown_container() {
    let b = parse(&format!(
        "time=\"2026-11-23T07:20:00Z\" level=error msg=\"StopPodSandbox for \\\"{CID}\\\" failed\" error=\"failed to destroy network for sandbox \\\"{CID}\\\": failed to find plugin \\\"bridge\\\" in path: not found\"\n\
         E1123 07:20:01.000000 1 remote_runtime.go:1] StopContainer \"{CID}\" from runtime service failed: rpc error: code = Unknown desc = an error occurred when try to find container \"{CID}\": not found\n"
    ));
    let signals: Vec<_> = b.lines.iter().map(|l| l.signal).collect();
    assert_eq!(
        signals,
        vec![Some(Signal::StopFailed), Some(Signal::UnknownContainer)]
    );
}
