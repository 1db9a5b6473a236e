//! Lines applications print before they exit, that turn "it exits with code 1" into a cause:
//! a dependency that refuses or does not resolve, the `kubernetes` Service's IP timing out
//! (the pod network), an image for another architecture, a command missing from the image,
//! nginx listening on IPv6 in a pod without it (seed 002), missing RBAC, a data directory that
//! is not empty, a port already taken, a JVM heap too small, a volume the user may not write.
//! `kubewhy-rules::loglines` turns each into advice.

use crate::Cause;
use regex::Regex;
use std::sync::LazyLock;

fn re(s: &str) -> Regex {
    Regex::new(s).unwrap_or_else(|e| panic!("{s}: {e}"))
}

/// What stands where a container's log was asked for and there was none to give: the kubelet's
/// answers (`kuberuntime_container.go`: the container gone between restarts; `logs.go`: its
/// file gone; `kubelet_pods.go`: no previous run, not started yet), as a bundle or
/// `kubectl logs` saves them in the log's place. Not the application's words.
static LOG_UNAVAILABLE: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"^(?:Error from server \(BadRequest\): )?(?:unable to retrieve container logs for \S+$|failed to try resolving symlinks in path "|previous terminated container "[^"]*" in pod "[^"]*" not found|container "[^"]*" in pod "[^"]*" is (?:terminated|waiting to start\b))"#,
    )
});

/// A log whose every line is one of the kubelet's "there is no log" answers (and that has one).
pub fn log_unavailable<'a>(lines: impl IntoIterator<Item = &'a str>) -> bool {
    let mut any = false;
    for l in lines {
        let l = l.trim();
        if l.is_empty() {
            continue;
        }
        if !LOG_UNAVAILABLE.is_match(l) {
            return false;
        }
        any = true;
    }
    any
}

/// `User "system:serviceaccount:NS:SA" cannot VERB resource "R" in API group "G"`.
pub static RBAC: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"User "system:serviceaccount:([^:"]+):([^"]+)" cannot (\w+) resource "([^"]+)"(?: in API group "([^"]*)")?"#,
    )
});
pub static DNS: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)no such host|server can't find \S+: (?:NXDOMAIN|SERVFAIL)|name or service not known|temporary failure in name resolution|getaddrinfo (?:ENOTFOUND|EAI_AGAIN)|bad address '|could not translate host name|unknown host|nodename nor servname",
    )
});
pub static REFUSED: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)connection refused|ECONNREFUSED"));
pub static IN_USE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)address (?:already )?in use|EADDRINUSE"));
pub static NOT_EMPTY: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)exists but is not empty|lost\+found|data directory has files in it"));
/// The application may not use a path: denied (EACCES), not permitted (EPERM: `chown`,
/// `chmod` on a volume the user does not own), or PostgreSQL refusing a data directory whose
/// mode a volume did not keep.
pub static DENIED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"(?i)permission denied|EACCES|operation not permitted|\bEPERM\b|data directory .* has (?:invalid permissions|group or world access)|AccessDeniedException",
    )
});
/// runc's exec of the container's process denied (runc's `unable to start container process`,
/// before 1.1 `starting container process caused`).
pub static RUNC_EXEC_DENIED: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:unable to start container process|starting container process caused):? (?:error during container init: )?exec: "[^"]+": permission denied"#,
    )
});
/// A path in a line (`'/data/x'`, `"/var/lib/…"`).
pub static PATH: LazyLock<Regex> = LazyLock::new(|| re(r#"['"]?(/[\w.@+-]+(?:/[\w.@+-]+)*)"#));
/// What follows these words is an address (`dial tcp 10.0.0.7:5432`, `lookup orders-db on …`).
pub static HOST: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"(?:dial tcp |lookup |bad address '|ENOTFOUND |ECONNREFUSED |translate host name "|remote host \()\[?([A-Za-z0-9][\w.-]*)\]?"#,
    )
});
/// A connection to the `kubernetes` Service (the first address of the service range, port 443)
/// that times out: the pod cannot reach Service IPs.
pub static SERVICE_IP_TIMEOUT: LazyLock<Regex> = LazyLock::new(|| {
    re(r"(?:dial tcp|https?://\[?)\s?(\d+\.\d+\.\d+\.1):443\b.*?(?:i/o timeout|no route to host)")
});
/// Other connections that time out, find no route, or are closed before any answer (Go's HTTP
/// client's `Get "https://…": EOF`).
pub static IO_TIMEOUT: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"dial tcp \S+: (?:i/o timeout|connect: no route to host)|\bGet "?https?://[^\s"]+"?: EOF\s*$"#,
    )
});
/// A binary for another architecture (the kernel refuses to run it).
pub static EXEC_FORMAT: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)exec format error"));
/// A command the image does not have.
pub static NOT_IN_PATH: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r#"executable file not found in \$PATH|exec: "[^"]+": stat [^:]+: no such file or directory|\bsh: \d+: /\S+: not found"#,
    )
});

/// A write to a path mounted read-only (a ConfigMap, Secret or projected volume, a PV mounted
/// readOnly, an NFS export that is).
pub static READ_ONLY: LazyLock<Regex> = LazyLock::new(|| re(r"Read-only file system"));
/// The filesystem the process writes is full (its volume, or the node's disk for emptyDir).
pub static DISK_FULL: LazyLock<Regex> = LazyLock::new(|| re(r"(?i)no space left on device"));
/// Writing over a program another process runs (a shared volume copied into again).
pub static FILE_BUSY: LazyLock<Regex> = LazyLock::new(|| re(r"Text file busy"));
/// A data directory locked by another instance (the old pod of a rolling update still holds a
/// ReadWriteOnce volume's lock).
pub static LOCK_HELD: LazyLock<Regex> = LazyLock::new(|| {
    re(
        r"lock DB directory: resource temporarily unavailable|(?i)unable to (?:acquire|obtain) (?:the )?lock on|database is locked",
    )
});
/// A permission refusal that names a directory or file without its absolute path.
static NAMES_A_FILE: LazyLock<Regex> =
    LazyLock::new(|| re(r"(?i)\b(?:dir|directory|folder|file)\b"));

/// Every wording below at once, for one cheap pass before the ordered tests.
static MAY_MATTER: LazyLock<regex::RegexSet> = LazyLock::new(|| {
    regex::RegexSet::new([
        r"Address family not supported by protocol",
        EXEC_FORMAT.as_str(),
        NOT_IN_PATH.as_str(),
        RBAC.as_str(),
        NOT_EMPTY.as_str(),
        IN_USE.as_str(),
        SERVICE_IP_TIMEOUT.as_str(),
        DNS.as_str(),
        REFUSED.as_str(),
        IO_TIMEOUT.as_str(),
        r"java\.lang\.OutOfMemoryError",
        DENIED.as_str(),
        READ_ONLY.as_str(),
        DISK_FULL.as_str(),
        FILE_BUSY.as_str(),
        LOCK_HELD.as_str(),
    ])
    .expect("application patterns")
});

/// A recognised application line: its catalogue name and the cause it points at, when it
/// points at one more precise than "the application exits".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AppLine {
    pub name: &'static str,
    pub cause: Option<Cause>,
}

const fn line(name: &'static str, cause: Option<Cause>) -> Option<AppLine> {
    Some(AppLine { name, cause })
}

/// What an application's line says, if it is a well-known failure. Order matters: the more
/// specific wording first.
pub fn classify(l: &str) -> Option<AppLine> {
    let l = l.trim();
    if l.is_empty() || l.len() > 4096 || !MAY_MATTER.is_match(l) {
        return None;
    }
    if l.contains("Address family not supported by protocol") && l.contains("[::]") {
        return line("ipv6-listen", None);
    }
    if EXEC_FORMAT.is_match(l) {
        return line("exec-format", Some(Cause::ImagePlatformMismatch));
    }
    if NOT_IN_PATH.is_match(l) {
        return line("command-not-found", Some(Cause::CommandNotFound));
    }
    if RBAC.is_match(l) {
        return line("rbac-forbidden", None);
    }
    if NOT_EMPTY.is_match(l) {
        return line("data-dir-not-empty", None);
    }
    if IN_USE.is_match(l) {
        return line("address-in-use", None);
    }
    if SERVICE_IP_TIMEOUT.is_match(l) {
        return line("service-ip-timeout", Some(Cause::PodNetworkBroken));
    }
    if DNS.is_match(l) {
        return line("dns", Some(Cause::DependencyUnreachable));
    }
    if REFUSED.is_match(l) {
        return line("connection-refused", Some(Cause::DependencyUnreachable));
    }
    if IO_TIMEOUT.is_match(l) {
        return line("connection-timeout", Some(Cause::DependencyUnreachable));
    }
    if l.contains("java.lang.OutOfMemoryError") {
        return line("java-heap", None);
    }
    if READ_ONLY.is_match(l) {
        return line("read-only-fs", None);
    }
    if DISK_FULL.is_match(l) {
        return line("disk-full", None);
    }
    if FILE_BUSY.is_match(l) {
        return line("file-busy", None);
    }
    if LOCK_HELD.is_match(l) {
        return line("lock-held", None);
    }
    // runc refusing to exec the container's own process (`unable to start container process:
    // exec: "/x": permission denied`): the file cannot be executed where it is (a volume
    // mounted noexec, a binary without its mode), so the container never starts; no program of
    // the application ran to be denied anything.
    if RUNC_EXEC_DENIED.is_match(l) {
        return line("exec-denied", Some(Cause::ContainerStartFailed));
    }
    if DENIED.is_match(l)
        && match PATH.captures(l) {
            // A program's own path (`/usr/bin/x: permission denied`) is another problem.
            Some(c) => ![
                "/usr/bin/",
                "/usr/sbin/",
                "/usr/local/bin/",
                "/usr/lib",
                "/bin/",
            ]
            .iter()
            .any(|p| c[1].starts_with(p)),
            None => NAMES_A_FILE.is_match(l),
        }
    {
        return line("permission-denied", None);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_the_application_may_not_change_is_a_permission_problem() {
        for l in [
            "chown: /var/lib/grafana: Operation not permitted",
            "initdb: could not change permissions of directory \"/var/lib/postgresql/data\": Operation not permitted",
            "FATAL:  data directory \"/var/lib/postgresql/data/pgdata/pg13\" has invalid permissions",
            "2018-11-01 10:02:11.604 GMT [61] FATAL:  data directory \"/opt/bitnami/postgresql/data\" has group or world access",
            "Likely root cause: java.nio.file.AccessDeniedException: /usr/share/opensearch/data/nodes",
        ] {
            assert_eq!(
                classify(l).map(|a| a.name),
                Some("permission-denied"),
                "{l}"
            );
        }
    }

    #[test]
    fn causes_of_lines() {
        let c = |l: &str| classify(l).and_then(|a| a.cause);
        // vcluster-docs' noexec emptyDir (wild 2530).
        assert_eq!(
            c(
                r#"runc create failed: unable to start container process: exec: "/binaries/vcluster": permission denied: unknown"#
            ),
            Some(Cause::ContainerStartFailed)
        );
        assert_eq!(
            c(
                "E0927 02:46:21.189588 1 server.go:369] err: Get https://10.0.0.1:443/api/v1/nodes/n: dial tcp 10.0.0.1:443: i/o timeout"
            ),
            Some(Cause::PodNetworkBroken)
        );
        assert_eq!(
            c("Ping to Katib db failed: dial tcp 10.233.28.55:3306: connect: connection refused"),
            Some(Cause::DependencyUnreachable)
        );
        assert_eq!(
            c("exec /app/bin/AdService: exec format error"),
            Some(Cause::ImagePlatformMismatch)
        );
        assert_eq!(
            classify("nginx: [emerg] socket() [::]:80 failed (97: Address family not supported by protocol)").map(|a| a.name),
            Some("ipv6-listen")
        );
        assert_eq!(classify("starting"), None);
        // Batch 14 (tests/fixtures/wild 889, 902, 911, 916, 926): what a volume refuses.
        let n = |l: &str| classify(l).map(|a| a.name);
        assert_eq!(
            n("Can't open or create append-only dir appendonlydir: Permission denied"),
            Some("permission-denied")
        );
        assert_eq!(
            n("mkdir: can't create directory '/var/lib/grafana/plugins': Read-only file system"),
            Some("read-only-fs")
        );
        assert_eq!(
            n(
                r#"msg="error running loki" err="open /var/loki/wal/00039919: no space left on device"#
            ),
            Some("disk-full")
        );
        assert_eq!(
            n("opening storage failed: lock DB directory: resource temporarily unavailable"),
            Some("lock-held")
        );
        assert_eq!(
            n("cp: cannot create regular file '/shared/argocd-util': Text file busy"),
            Some("file-busy")
        );
        assert_eq!(n("sh: Permission denied"), None);
    }
}
