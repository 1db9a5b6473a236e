//! Well-known application log lines that turn "it exits with code 1" into a cause and a next
//! step: which line is which comes from the message catalogue (`kubewhy_model::messages::app`);
//! here is what each means for the pod and what to do. Small on purpose: each entry is a failure people hit again and again in Kubernetes, with
//! the wordings real programs print.
//!
//! | entry | matches (examples) | advice |
//! |---|---|---|
//! | `ipv6-listen` | nginx `socket() [::]:80 failed (97: Address family not supported by protocol)` | the image listens on `[::]` and the pod has no IPv6 (seed 002) |
//! | `dns` | `no such host`, `Name or service not known`, `Temporary failure in name resolution`, `getaddrinfo ENOTFOUND`, busybox `bad address`, `could not translate host name` | the name does not resolve: Service name and namespace, cluster DNS |
//! | `connection-refused` | `connection refused`, `ECONNREFUSED`, `Connection refused` | a dependency is not listening: its Service's endpoints |
//! | `rbac-forbidden` | `User "system:serviceaccount:NS:SA" cannot VERB resource "R"` | the service account lacks RBAC permission |
//! | `address-in-use` | `address already in use`, `EADDRINUSE` | two processes want the same port (containers of one pod share it; hostNetwork shares the node's) |
//! | `data-dir-not-empty` | postgres `initdb: … exists but is not empty`, `lost+found`, mysql `data directory has files in it` | a fresh volume's `lost+found` is in the data directory: use a subdirectory |
//! | `permission-denied` | `open /data/x: permission denied`, `EACCES: permission denied`, `Permission denied` with a path or naming a directory or file | the process's user cannot write the mounted path: `fsGroup` / `runAsUser` |
//! | `exec-format` | `exec format error` | an image for another CPU architecture (image-platform-mismatch) |
//! | `command-not-found` | `executable file not found in $PATH` | the command is not in the image |
//! | `service-ip-timeout` | `dial tcp 10.96.0.1:443: i/o timeout` | the pod cannot reach Service IPs (pod-network-broken) |
//! | `connection-timeout` | `dial tcp 10.0.0.7:5432: i/o timeout` | a dependency does not answer (dependency-unreachable) |
//! | `java-heap` | `java.lang.OutOfMemoryError: Java heap space` | the JVM heap (-Xmx), not the container limit, is too small |
//! | `read-only-fs` | `Read-only file system` | the path is mounted read-only (ConfigMap, Secret, projected, readOnly) |
//! | `disk-full` | `no space left on device` | the volume (or the node's disk, for emptyDir) is full |
//! | `file-busy` | `Text file busy` | a program copied over one still running from a shared volume |
//! | `lock-held` | Prometheus `lock DB directory: resource temporarily unavailable`, `database is locked` | another instance (the old pod of a rolling update) holds the data directory |

use kubewhy_model::messages::app::{self, HOST, PATH, RBAC};
use kubewhy_model::{Cause, RiskLevel};

/// A recognised log line and what to do about it.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Recognised {
    /// The catalogue entry's name.
    pub name: &'static str,
    /// The cause the line shows, when more precise than "the application exits".
    pub cause: Option<Cause>,
    /// The line as the application printed it.
    pub line: String,
    /// One or two sentences: what the line means here.
    pub advice: String,
    /// The next step: action, command, risk, risk note.
    pub step: (String, Option<String>, RiskLevel, &'static str),
}

/// The last recognised line of a log tail (the newest explains the exit best).
pub(crate) fn recognise(lines: &[String], ns: &str) -> Option<Recognised> {
    lines.iter().rev().find_map(|l| recognise_line(l, ns))
}

fn host_in(line: &str) -> Option<String> {
    HOST.captures(line).map(|c| c[1].to_string())
}

pub(crate) fn recognise_line(line: &str, ns: &str) -> Option<Recognised> {
    let l = line.trim();
    let entry = app::classify(l)?;
    let line = l.to_string();
    let r = |advice: String, step: (String, Option<String>, RiskLevel, &'static str)| {
        Some(Recognised {
            name: entry.name,
            cause: entry.cause,
            line: line.clone(),
            advice,
            step,
        })
    };
    match entry.name {
        "ipv6-listen" => r(
            "The program (nginx's default configuration does this) listens on the IPv6 address [::], and the pod has no IPv6: the socket cannot be created and the program exits.".into(),
            ("Remove the `listen [::]:PORT` line from its configuration (or mount a configuration without it), or give the cluster IPv6".into(), None, RiskLevel::Low, "Clients that reach the pod over IPv6 would need the cluster's IPv6 first."),
        ),
        "exec-format" => r(
            "The kernel refuses to run the image's program: it was built for another CPU architecture (an amd64 image on an arm64 node, or the reverse).".into(),
            ("Compare the image's platforms with the node's architecture, and use a multi-arch image or one built for the node".into(), Some("kubectl get nodes -L kubernetes.io/arch".into()), RiskLevel::Low, "A nodeSelector on kubernetes.io/arch limits where the pod can run."),
        ),
        "command-not-found" => r(
            "The command the pod (or the image's entrypoint) runs is not in the image.".into(),
            ("Fix the command or args in the pod spec, or use an image that contains the program".into(), None, RiskLevel::Low, "Rolls the workload."),
        ),
        "rbac-forbidden" => {
            let c = RBAC.captures(l)?;
            let (sa_ns, sa, verb, resource) = (&c[1], &c[2], &c[3], &c[4]);
            let group = c.get(5).map(|g| g.as_str()).unwrap_or("");
            let res = if group.is_empty() {
                resource.to_string()
            } else {
                format!("{resource}.{group}")
            };
            r(
                format!(
                    "The application calls the Kubernetes API as service account {sa_ns}/{sa}, which may not {verb} {res}: it needs a Role (or ClusterRole) and a binding."
                ),
                (
                    format!("Confirm, then grant {verb} on {res} to {sa_ns}/{sa}"),
                    Some(format!(
                        "kubectl auth can-i {verb} {res} --as=system:serviceaccount:{sa_ns}:{sa} -n {ns}; kubectl -n {sa_ns} create role {sa}-{verb}-{resource} --verb={verb} --resource={res} && kubectl -n {sa_ns} create rolebinding {sa}-{verb}-{resource} --role={sa}-{verb}-{resource} --serviceaccount={sa_ns}:{sa}"
                    )),
                    RiskLevel::Medium,
                    "Grant only the verbs and resources the application needs; a ClusterRole reaches every namespace.",
                ),
            )
        }
        "data-dir-not-empty" => r(
            "The database refuses to initialise a data directory that is not empty; a freshly formatted volume holds `lost+found`, so mounting the volume itself as the data directory fails.".into(),
            ("Point the data directory at a subdirectory of the volume (subPath, or e.g. PGDATA=/var/lib/postgresql/data/pgdata)".into(), None, RiskLevel::Low, "Existing data stays where it is; do not delete lost+found or other files on a volume that may hold data."),
        ),
        "address-in-use" => r(
            "The port the program binds is taken: containers of one pod share a network namespace (two containers on one port), and a hostNetwork pod shares the node's.".into(),
            ("Give each container of the pod its own port (or stop binding the node's port with hostNetwork)".into(), None, RiskLevel::Low, ""),
        ),
        "service-ip-timeout" => r(
            "The connection to the `kubernetes` Service (the first address of the Service range) times out: from this pod's node, Service IPs are not reachable. kube-proxy (or the CNI's replacement for it) is not running or not programming the node, or the pod network's routes are broken.".into(),
            ("Check kube-proxy and the CNI pods on the pod's node".into(), Some("kubectl -n kube-system get pods -o wide | grep -E 'kube-proxy|calico|cilium|flannel|weave'".into()), RiskLevel::None, ""),
        ),
        "dns" => {
            let what = host_in(l)
                .map(|h| format!("\"{h}\""))
                .unwrap_or_else(|| "a host name".into());
            r(
                format!(
                    "The application cannot resolve {what}: the Service does not exist under that name (a Service in another namespace needs NAME.NAMESPACE), or the cluster's DNS does not answer."
                ),
                (
                    "Check the name against the Services, and that cluster DNS runs".into(),
                    Some(format!(
                        "kubectl get svc -n {ns}; kubectl -n kube-system get pods -l k8s-app=kube-dns"
                    )),
                    RiskLevel::None,
                    "",
                ),
            )
        }
        "connection-refused" | "connection-timeout" => {
            let what = host_in(l).map(|h| format!(" at {h}")).unwrap_or_default();
            let how = if entry.name == "connection-refused" {
                "refuses the connection: it is not running, not ready, or listens on another port"
            } else {
                "does not answer (the connection times out): it is down, a NetworkPolicy drops the traffic, or it is outside the cluster and unreachable"
            };
            r(
                format!(
                    "A dependency{what} {how}. The application exits instead of retrying, so it restarts until the dependency is up."
                ),
                (
                    "Check the dependency's Service has ready endpoints".into(),
                    Some(format!("kubectl get endpoints -n {ns}")),
                    RiskLevel::None,
                    "",
                ),
            )
        }
        "java-heap" => r(
            "The JVM ran out of its own heap (-Xmx or its default share of the container's memory), which is not the container's memory limit: raising the limit alone does not help.".into(),
            ("Raise the heap (-Xmx, or -XX:MaxRAMPercentage) and keep it well below the container's memory limit".into(), None, RiskLevel::Low, "A heap close to the limit turns this into an OOM kill."),
        ),
        "read-only-fs" => {
            let path = PATH.captures(l).map_or_else(|| "the path it names".to_string(), |c| c[1].to_string());
            r(
                format!("The process writes to {path}, which is mounted read-only: ConfigMap, Secret, downwardAPI and projected volumes always are, and so is a volume mounted readOnly or an NFS export that is."),
                ("Mount a writable volume (an emptyDir or a claim) at the path the process writes, or make the volume's mount writable".into(), None, RiskLevel::Low, "Rolls the workload."),
            )
        }
        "disk-full" => r(
            "The filesystem the process writes is full: its volume (a claim that needs to grow, a WAL or log that fills it) or, for an emptyDir or the container's own layer, the node's disk.".into(),
            ("See which filesystem is full, then grow the claim (its StorageClass must allow expansion) or free space".into(), Some(format!("kubectl get pvc -n {ns}")), RiskLevel::Low, "Deleting data to free space loses it; growing a claim cannot be undone."),
        ),
        "file-busy" => r(
            "The process copies a program over a file that another process is running (an init container copying into a shared volume that the main container, or its previous run, still executes).".into(),
            ("Recreate the pod so the shared volume starts empty, and make the copy write a new file and rename it".into(), None, RiskLevel::Low, "Deleting the pod restarts it on a fresh emptyDir."),
        ),
        "lock-held" => r(
            "Another instance holds the data directory's lock: in a rolling update the old pod keeps running, and with it the lock, while the new pod mounts the same volume.".into(),
            ("Use the Recreate strategy (or a StatefulSet) for a workload whose pods share one data volume, so the old pod is gone before the new one starts".into(), None, RiskLevel::Low, "Recreate means a short outage at each rollout."),
        ),
        "permission-denied" => {
            let path = PATH.captures(l).map_or_else(|| "the directory it names".to_string(), |c| c[1].to_string());
            r(
                format!("The process's user may not write {path}: a mounted volume is owned by another user (root, or the previous image's user)."),
                ("Set securityContext.fsGroup (and runAsUser) in the pod so the volume is writable by the process's user".into(), None, RiskLevel::Low, "fsGroup changes the ownership of every file on the volume at mount, which is slow on large volumes."),
            )
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(l: &str) -> Option<&'static str> {
        recognise_line(l, "shop").map(|r| r.name)
    }

    #[test]
    fn real_wordings() {
        for (line, want) in [
            (
                "2026/11/22 10:00:01 [emerg] 1#1: socket() [::]:80 failed (97: Address family not supported by protocol)",
                "ipv6-listen",
            ),
            (
                "nginx: [emerg] socket() [::]:80 failed (97: Address family not supported by protocol)",
                "ipv6-listen",
            ),
            (
                r#"Error from server (Forbidden): pods is forbidden: User "system:serviceaccount:shop:default" cannot list resource "pods" in API group "" in the namespace "shop""#,
                "rbac-forbidden",
            ),
            (
                "dial tcp: lookup orders-db on 10.96.0.10:53: no such host",
                "dns",
            ),
            ("wget: bad address 'orders-db'", "dns"),
            (
                "psql: error: could not translate host name \"orders-db\" to address: Name or service not known",
                "dns",
            ),
            ("Error: getaddrinfo ENOTFOUND redis", "dns"),
            (
                "FATAL: could not connect to database: dial tcp 10.0.0.7:5432: connect: connection refused",
                "connection-refused",
            ),
            (
                "Error: connect ECONNREFUSED 10.0.0.8:6379",
                "connection-refused",
            ),
            (
                "listen tcp :8080: bind: address already in use",
                "address-in-use",
            ),
            (
                r#"initdb: error: directory "/var/lib/postgresql/data" exists but is not empty"#,
                "data-dir-not-empty",
            ),
            (
                "It contains a lost+found directory, perhaps due to it being a mount point.",
                "data-dir-not-empty",
            ),
            (
                "[ERROR] [MY-010457] [Server] --initialize specified but the data directory has files in it. Aborting.",
                "data-dir-not-empty",
            ),
            (
                "mkdir: cannot create directory '/data/cache': Permission denied",
                "permission-denied",
            ),
            (
                "Error: EACCES: permission denied, open '/app/logs/out.log'",
                "permission-denied",
            ),
            (
                "Exception in thread \"main\" java.lang.OutOfMemoryError: Java heap space",
                "java-heap",
            ),
        ] {
            assert_eq!(name(line), Some(want), "{line}");
        }
        assert_eq!(name("starting server on :8080"), None);
        assert_eq!(name(""), None);
    }

    #[test]
    fn advice_names_what_the_line_names() {
        let r = recognise_line(r#"pods is forbidden: User "system:serviceaccount:shop:builder" cannot watch resource "deployments" in API group "apps" in the namespace "shop""#, "shop").unwrap();
        assert!(
            r.advice
                .contains("shop/builder, which may not watch deployments.apps"),
            "{}",
            r.advice
        );
        assert!(r.step.1.unwrap().starts_with("kubectl auth can-i watch deployments.apps --as=system:serviceaccount:shop:builder -n shop"));
        let r = recognise_line(
            "dial tcp: lookup orders-db on 10.96.0.10:53: no such host",
            "shop",
        )
        .unwrap();
        assert!(
            r.advice.contains("cannot resolve \"orders-db\""),
            "{}",
            r.advice
        );
        let r = recognise_line("FATAL: could not connect to database: dial tcp 10.0.0.7:5432: connect: connection refused", "shop").unwrap();
        assert!(r.advice.contains("at 10.0.0.7"), "{}", r.advice);
        let r = recognise_line(
            "wget: can't connect to remote host (127.0.0.1): Connection refused",
            "shop",
        )
        .unwrap();
        assert!(r.advice.contains("at 127.0.0.1"), "{}", r.advice);
        let lines: Vec<String> = ["boot", "wget: bad address 'orders-db'", "exiting"]
            .map(String::from)
            .to_vec();
        assert_eq!(recognise(&lines, "shop").unwrap().name, "dns");
    }

    proptest::proptest! {
        #[test]
        fn never_panics(s in "\\PC{0,300}") {
            let _ = recognise_line(&s, "ns");
        }
    }
}
