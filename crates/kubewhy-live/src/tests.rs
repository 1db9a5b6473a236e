//! The API server scripted with tower-test (kube-rs's mock pattern): paging, 410 restarts,
//! 403s, 404 fallbacks and retries.

use super::*;
use http::{Request, Response};
use kube::client::Body;
use std::sync::{Arc, Mutex};

/// Answers every request with `respond(path_and_query, attempt_for_that_uri)`; records the URIs.
fn mock_client(
    respond: impl Fn(&str, u32) -> (u16, String) + Send + 'static,
) -> (Client, Arc<Mutex<Vec<String>>>) {
    let (svc, mut handle) = tower_test::mock::pair::<Request<Body>, Response<Body>>();
    let seen = Arc::new(Mutex::new(Vec::<String>::new()));
    let log = seen.clone();
    tokio::spawn(async move {
        while let Some((req, send)) = handle.next_request().await {
            let uri = req
                .uri()
                .path_and_query()
                .map(|p| p.to_string())
                .unwrap_or_default();
            let attempt = {
                let mut l = log.lock().unwrap();
                l.push(uri.clone());
                l.iter().filter(|u| **u == uri).count() as u32
            };
            let (code, body) = respond(&uri, attempt);
            let resp = Response::builder()
                .status(code)
                .body(Body::from(body.into_bytes()))
                .unwrap();
            send.send_response(resp);
        }
    });
    (Client::new(svc, "default"), seen)
}

fn list(kind: &str, items: &str, cont: &str) -> String {
    format!(
        r#"{{"kind":"{kind}List","apiVersion":"v1","metadata":{{"resourceVersion":"10","continue":"{cont}"}},"items":[{items}]}}"#
    )
}

fn status(code: u16, reason: &str, msg: &str) -> (u16, String) {
    (
        code,
        format!(
            r#"{{"kind":"Status","apiVersion":"v1","status":"Failure","message":"{msg}","reason":"{reason}","code":{code}}}"#
        ),
    )
}

fn empty(uri: &str) -> (u16, String) {
    let kind = uri.split('?').next().unwrap().rsplit('/').next().unwrap();
    (200, list(kind, "", ""))
}

fn all() -> LiveOptions {
    LiveOptions {
        all_namespaces: true,
        ..Default::default()
    }
}

#[tokio::test]
async fn pages_are_followed_and_the_request_count_depends_on_pages_not_objects() {
    let (client, seen) = mock_client(|uri, _| {
        if uri.starts_with("/version") {
            return (200, r#"{"major":"1","minor":"20"}"#.into());
        }
        if uri == "/api/v1/pods?limit=500" {
            return (
                200,
                list(
                    "Pod",
                    r#"{"metadata":{"name":"a","namespace":"x"}}"#,
                    "tok/1+=",
                ),
            );
        }
        if uri == "/api/v1/pods?limit=500&continue=tok%2F1%2B%3D" {
            return (
                200,
                list("Pod", r#"{"metadata":{"name":"b","namespace":"x"}}"#, ""),
            );
        }
        empty(uri)
    });
    let progress = Arc::new(Progress::default());
    let opts = LiveOptions {
        progress: Some(progress.clone()),
        ..all()
    };
    let f = fetch_with(client, "default", "https://mock", &opts)
        .await
        .unwrap();
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    // What a progress bar shows: every list done, every page counted.
    let n = |a: &std::sync::atomic::AtomicU32| a.load(std::sync::atomic::Ordering::Relaxed);
    assert_eq!(n(&progress.lists) as usize, RESOURCES.len());
    assert_eq!(n(&progress.lists_done), n(&progress.lists));
    assert_eq!(n(&progress.pages) as usize, f.pages.len());
    let pod_pages: Vec<&String> = f
        .pages
        .iter()
        .filter(|(n, _)| n.contains("/pods"))
        .map(|(_, t)| t)
        .collect();
    assert_eq!(pod_pages.len(), 2);
    assert!(pod_pages[1].contains("\"b\""));
    // /version + one request per kind + one extra page.
    assert_eq!(f.requests as usize + 1, seen.lock().unwrap().len());
    assert_eq!(f.requests as usize, RESOURCES.len() + 1);
}

#[tokio::test]
async fn an_expired_continue_token_restarts_the_list() {
    let (client, _) = mock_client(|uri, attempt| {
        if uri.starts_with("/version") {
            return (200, "{}".into());
        }
        if uri == "/api/v1/pods?limit=500" {
            // First pass hands out a token that then expires; second pass completes.
            return if attempt == 1 {
                (200, list("Pod", r#"{"metadata":{"name":"a"}}"#, "old"))
            } else {
                (200, list("Pod", r#"{"metadata":{"name":"fresh"}}"#, ""))
            };
        }
        if uri.contains("continue=old") {
            return status(410, "Expired", "The provided continue parameter is too old");
        }
        empty(uri)
    });
    let f = fetch_with(client, "default", "https://mock", &all())
        .await
        .unwrap();
    let pods: Vec<&String> = f
        .pages
        .iter()
        .filter(|(n, _)| n.contains("/pods"))
        .map(|(_, t)| t)
        .collect();
    assert_eq!(pods.len(), 1, "the stale first page is dropped");
    assert!(pods[0].contains("fresh"));
    assert!(f.problems.is_empty());
}

#[tokio::test]
async fn forbidden_kinds_are_reported_with_the_missing_permission_and_the_rest_is_read() {
    let (client, _) = mock_client(|uri, _| {
        if uri.starts_with("/version") {
            return (200, "{}".into());
        }
        if uri.starts_with("/api/v1/secrets") {
            return status(
                403,
                "Forbidden",
                "secrets is forbidden: User \\\"viewer\\\" cannot list resource \\\"secrets\\\" in API group \\\"\\\" at the cluster scope",
            );
        }
        if uri.starts_with("/apis/apiregistration.k8s.io/v1/apiservices") {
            return status(403, "Forbidden", "no");
        }
        empty(uri)
    });
    let f = fetch_with(client, "default", "https://mock", &all())
        .await
        .unwrap();
    let msgs: Vec<String> = f.problems.iter().map(|p| p.message.clone()).collect();
    assert_eq!(
        msgs.len(),
        1,
        "one summary, not a warning per kind: {msgs:?}"
    );
    assert_eq!(f.problems[0].file, "live:permissions");
    assert!(
        msgs[0].starts_with(
            "not permitted to read secrets (in all namespaces); apiservices (cluster-scoped). The checks ran without them, so kubewhy cannot see missing Secrets"
        ),
        "{msgs:?}"
    );
    assert!(msgs[0].contains("ClusterRole kubewhy-read"), "{msgs:?}");
    assert_eq!(f.pages.len(), RESOURCES.len() - 2);
}

/// `-A` with rights in one namespace only: which namespace they may read, and the command.
#[tokio::test]
async fn all_namespaces_refused_says_where_the_credentials_may_read() {
    let (client, seen) = mock_client(|uri, _| {
        if uri.starts_with("/version") {
            return (200, "{}".into());
        }
        if uri.starts_with("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews") {
            return (
                201,
                r#"{"kind":"SelfSubjectAccessReview","apiVersion":"authorization.k8s.io/v1","status":{"allowed":true}}"#.into(),
            );
        }
        if uri.starts_with("/apis/") && !uri.contains('?') {
            return (200, "{}".into());
        }
        status(403, "Forbidden", "no")
    });
    let f = fetch_with(client, "lp", "https://mock", &all())
        .await
        .unwrap();
    let hint = f
        .problems
        .iter()
        .find(|p| p.message.contains("all namespaces (-A)"))
        .expect("a hint");
    assert_eq!(
        hint.message,
        "these credentials may not list pods in all namespaces (-A) but may in namespace lp, the context's: scan it with `kubewhy scan -n lp` (or each namespace they may read with -n NS, repeatable)"
    );
    assert_eq!(
        seen.lock()
            .unwrap()
            .iter()
            .filter(|u| u.contains("selfsubjectaccessreviews"))
            .count(),
        1
    );
}

/// A user who may read only the pods of their namespace: every other list is refused, in that
/// namespace and cluster-wide. One warning says so; the group the cluster does not serve (Argo)
/// is not named; the pods are read.
#[tokio::test]
async fn a_namespace_only_reader_gets_one_permission_summary() {
    let (client, _) = mock_client(|uri, _| {
        if uri.starts_with("/version") {
            return (200, "{}".into());
        }
        if uri == "/apis/argoproj.io/v1alpha1" {
            return status(
                404,
                "NotFound",
                "the server could not find the requested resource",
            );
        }
        if uri.starts_with("/apis/") && !uri.contains('?') {
            return (200, "{}".into());
        }
        if uri.starts_with("/api/v1/namespaces/lp/pods?") {
            return empty(uri);
        }
        status(403, "Forbidden", "no")
    });
    let opts = LiveOptions {
        namespaces: vec!["lp".into()],
        ..Default::default()
    };
    let f = fetch_with(client, "lp", "https://mock", &opts)
        .await
        .unwrap();
    assert_eq!(f.problems.len(), 1, "{:?}", f.problems);
    let m = &f.problems[0].message;
    assert!(m.contains("nodes, namespaces, persistentvolumes"), "{m}");
    assert!(m.contains("(cluster-scoped)"), "{m}");
    assert!(
        m.contains("events, persistentvolumeclaims, configmaps"),
        "{m}"
    );
    assert!(m.contains("(in namespace lp)"), "{m}");
    assert!(
        m.contains("leases (in namespaces kube-node-lease, kube-system)"),
        "{m}"
    );
    assert!(!m.contains("workflows"), "Argo is not served: {m}");
    assert!(!m.contains("pods"), "{m}");
    assert_eq!(f.pages.len(), 1, "the pods of lp");
}

#[tokio::test(start_paused = true)]
async fn older_group_versions_are_tried_and_5xx_is_retried() {
    let (client, seen) = mock_client(|uri, attempt| {
        if uri.starts_with("/version") {
            return (200, "{}".into());
        }
        if uri.starts_with("/apis/batch/v1/cronjobs") {
            return status(
                404,
                "NotFound",
                "the server could not find the requested resource",
            );
        }
        if uri.starts_with("/api/v1/nodes") && attempt == 1 {
            return status(503, "ServiceUnavailable", "etcd leader changed");
        }
        empty(uri)
    });
    let f = fetch_with(client, "default", "https://mock", &all())
        .await
        .unwrap();
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    let seen = seen.lock().unwrap();
    assert!(
        seen.iter()
            .any(|u| u.starts_with("/apis/batch/v1beta1/cronjobs"))
    );
    assert_eq!(
        seen.iter()
            .filter(|u| u.starts_with("/api/v1/nodes"))
            .count(),
        2
    );
    assert!(f.pages.iter().any(|(n, _)| n.contains("/nodes")));
}

#[tokio::test]
async fn namespaced_kinds_are_listed_per_requested_namespace() {
    let (client, seen) = mock_client(|uri, _| {
        if uri.starts_with("/version") {
            (200, "{}".into())
        } else {
            empty(uri)
        }
    });
    let opts = LiveOptions {
        namespaces: vec!["shop".into()],
        ..Default::default()
    };
    let f = fetch_with(client, "default", "https://mock", &opts)
        .await
        .unwrap();
    assert_eq!(f.namespaces, vec!["shop"]);
    let seen = seen.lock().unwrap();
    assert!(
        seen.iter()
            .any(|u| u == "/api/v1/namespaces/shop/pods?limit=500")
    );
    assert!(seen.iter().any(|u| u == "/api/v1/nodes?limit=500"));
    assert!(!seen.iter().any(|u| u == "/api/v1/pods?limit=500"));
    // Node heartbeats and the scheduler's lease are read whatever the namespaces asked.
    assert!(
        seen.iter().any(
            |u| u == "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases?limit=500"
        )
    );
    assert!(
        seen.iter()
            .any(|u| u == "/apis/coordination.k8s.io/v1/namespaces/kube-system/leases?limit=500")
    );
}

/// A namespace being deleted: its content is enumerated through discovery, custom resources
/// included; a group whose discovery fails (503, an unavailable APIService) is reported.
#[tokio::test]
async fn what_is_left_in_a_namespace_being_deleted_is_found_through_discovery() {
    let (client, seen) = mock_client(|uri, _| {
        match uri.split('?').next().unwrap() {
        "/version" => (200, "{}".into()),
        "/api/v1/namespaces" => (
            200,
            list(
                "Namespace",
                r#"{"metadata":{"name":"old","deletionTimestamp":"2026-11-22T10:00:00Z"},"status":{"phase":"Terminating"}},{"metadata":{"name":"live"},"status":{"phase":"Active"}}"#,
                "",
            ),
        ),
        "/apis" => (
            200,
            r#"{"kind":"APIGroupList","groups":[{"name":"acme.io","preferredVersion":{"groupVersion":"acme.io/v1"}},{"name":"metrics.k8s.io","preferredVersion":{"groupVersion":"metrics.k8s.io/v1beta1"}}]}"#.into(),
        ),
        "/api/v1" => (
            200,
            r#"{"kind":"APIResourceList","resources":[{"name":"pods","namespaced":true,"verbs":["list"]},{"name":"services","namespaced":true,"verbs":["list","get"]},{"name":"pods/log","namespaced":true,"verbs":["get"]}]}"#.into(),
        ),
        "/apis/acme.io/v1" => (
            200,
            r#"{"kind":"APIResourceList","resources":[{"name":"widgets","namespaced":true,"verbs":["list","delete"]}]}"#.into(),
        ),
        "/apis/metrics.k8s.io/v1beta1" => status(503, "ServiceUnavailable", "service unavailable"),
        "/apis/acme.io/v1/namespaces/old/widgets" => (
            200,
            r#"{"kind":"WidgetList","apiVersion":"acme.io/v1","metadata":{},"items":[{"apiVersion":"acme.io/v1","kind":"Widget","metadata":{"name":"w1","namespace":"old","finalizers":["acme.io/cleanup"]}}]}"#.into(),
        ),
        _ => empty(uri),
    }
    });
    let f = fetch_with(client, "default", "https://mock", &all())
        .await
        .unwrap();
    let seen = seen.lock().unwrap();
    // Only the namespace being deleted, only types kubewhy does not list anyway.
    assert!(
        seen.iter()
            .any(|u| u == "/api/v1/namespaces/old/services?limit=500")
    );
    assert!(
        !seen
            .iter()
            .any(|u| u.starts_with("/api/v1/namespaces/old/pods"))
    );
    assert!(!seen.iter().any(|u| u.contains("/namespaces/live/")));
    assert!(!seen.iter().any(|u| u.contains("pods/log")));
    assert!(f.pages.iter().any(|(_, t)| t.contains("\"w1\"")));
    let problems: Vec<String> = f.problems.iter().map(|p| p.message.clone()).collect();
    assert!(
        problems.iter().any(|p| p.starts_with(
            "API discovery of metrics.k8s.io/v1beta1 failed: HTTP 503: service unavailable — an unavailable aggregated APIService"
        )),
        "{problems:?}"
    );
}

#[tokio::test]
async fn the_context_namespace_is_the_default_like_kubectl() {
    let (client, seen) = mock_client(|uri, _| {
        if uri.starts_with("/version") {
            (200, "{}".into())
        } else {
            empty(uri)
        }
    });
    let f = fetch_with(client, "team-a", "https://mock", &LiveOptions::default())
        .await
        .unwrap();
    assert_eq!(f.namespaces, vec!["team-a"]);
    assert!(
        seen.lock()
            .unwrap()
            .iter()
            .any(|u| u == "/api/v1/namespaces/team-a/pods?limit=500")
    );
}

/// Rejected credentials are not "unreachable": one line names the user, its kubeconfig and
/// what is wrong with the credentials (here a client certificate that has expired).
#[tokio::test]
async fn rejected_credentials_name_the_user_and_the_expired_certificate() {
    let scratch = tempfile::tempdir().unwrap();
    let dir = scratch.path().to_path_buf();
    let kubeconfig = dir.join("config");
    use base64::Engine;
    // The certificate of credentials.rs's test (`openssl req -x509 … -days 1`).
    let cert = base64::engine::general_purpose::STANDARD.encode(crate::credentials::tests::CERT);
    std::fs::write(
        &kubeconfig,
        format!("apiVersion: v1\nkind: Config\nclusters: [{{name: c, cluster: {{server: \"https://10.9.9.9:6443\"}}}}]\nusers: [{{name: ops, user: {{client-certificate-data: {cert}, client-key-data: eA==}}}}]\ncontexts: [{{name: prod, context: {{cluster: c, user: ops}}}}]\ncurrent-context: prod\n"),
    )
    .unwrap();
    let (client, seen) = mock_client(|_, _| status(401, "Unauthorized", "Unauthorized"));
    let opts = LiveOptions {
        kubeconfig: Some(kubeconfig.clone()),
        all_namespaces: true,
        ..Default::default()
    };
    let e = fetch_with(client, "default", "https://10.9.9.9:6443", &opts)
        .await
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        format!(
            "the API server at https://10.9.9.9:6443 rejected the credentials of user \"ops\" of context \"prod\" in {}: {} (HTTP 401)",
            kubeconfig.display(),
            if jiff::Timestamp::now() > "2026-11-26T20:44:05Z".parse().unwrap() {
                "its client certificate expired on 2026-11-26T20:44:05Z"
            } else {
                "its client certificate (valid until 2026-11-26T20:44:05Z) is not one the API server trusts"
            }
        )
    );
    assert_eq!(seen.lock().unwrap().len(), 1, "one request, no retries");
}

#[tokio::test]
async fn an_unreachable_server_is_one_clear_error() {
    let (client, _) = mock_client(|_, _| status(503, "ServiceUnavailable", "down"));
    match fetch_with(client, "default", "https://10.9.9.9:6443", &all()).await {
        Err(LiveError::Unreachable { url, .. }) => assert_eq!(url, "https://10.9.9.9:6443"),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn previous_log_is_one_bounded_request() {
    let (client, seen) = mock_client(|uri, _| {
        if uri.contains("/pods/orders-1/log") {
            (
                200,
                "orders 1.8.0 starting\nFATAL: connection refused\n".into(),
            )
        } else {
            status(
                400,
                "BadRequest",
                "previous terminated container \"main\" in pod \"quiet\" not found",
            )
        }
    });
    let log = previous_log_with(&client, "shop", "orders-1", "orders", 4096)
        .await
        .unwrap();
    assert_eq!(
        log.as_deref(),
        Some("orders 1.8.0 starting\nFATAL: connection refused\n")
    );
    // No previous run: nothing, not an error.
    let none = previous_log_with(&client, "shop", "quiet", "main", 4096)
        .await
        .unwrap();
    assert_eq!(none, None);
    assert_eq!(
        seen.lock().unwrap()[0],
        "/api/v1/namespaces/shop/pods/orders-1/log?container=orders&previous=true&limitBytes=4096"
    );
}

#[tokio::test]
async fn a_log_cut_by_the_byte_limit_loses_its_partial_first_line() {
    let (client, _) = mock_client(|_, _| (200, "tial line\nwhole line\n".into()));
    let log = previous_log_with(&client, "shop", "p", "c", 20)
        .await
        .unwrap();
    assert_eq!(log.as_deref(), Some("whole line\n"));
}

#[tokio::test]
async fn kubelet_configuration_is_read_through_the_node_proxy_and_a_refusal_is_said_once() {
    let (client, seen) = mock_client(|uri, _| {
        match uri {
        "/api/v1/nodes/node-a/proxy/configz" => (
            200,
            r#"{"kubeletconfig":{"kubeAPIQPS":5,"kubeAPIBurst":10,"maxPods":110,"staticPodPath":"/etc/kubernetes/manifests","evictionHard":{"memory.available":"100Mi"}}}"#.into(),
        ),
        "/api/v1/nodes/node-b/proxy/configz" | "/api/v1/nodes/node-c/proxy/configz" => status(
            403,
            "Forbidden",
            "nodes \"node-b\" is forbidden: User \"x\" cannot get resource \"nodes/proxy\"",
        ),
        _ => status(404, "NotFound", "no"),
    }
    });
    let nodes: Vec<String> = ["node-a", "node-b", "node-c"].map(String::from).to_vec();
    let (settings, problems) = kubelet_configz_with(&client, &nodes).await;
    assert_eq!(settings.len(), 1);
    let (node, s) = &settings[0];
    assert_eq!(node, "node-a");
    assert_eq!(
        (s.kube_api_qps, s.kube_api_burst, s.max_pods),
        (Some(5.0), Some(10), Some(110))
    );
    assert_eq!(
        s.static_pod_path.as_deref(),
        Some("/etc/kubernetes/manifests")
    );
    assert_eq!(s.origin, "configz of node node-a");
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].message.contains("needs `get` on `nodes/proxy`"));
    assert_eq!(seen.lock().unwrap().len(), 3);
}

/// Throttled by API Priority and Fairness (429, `retryAfterSeconds: 3`), the scan waits the 3 s
/// asked (in paused time) before its second attempt, and reads the kind then.
#[tokio::test(start_paused = true)]
async fn a_throttled_list_is_retried_after_the_time_the_server_asked() {
    let (client, seen) = mock_client(|uri, attempt| {
        if uri.starts_with("/api/v1/pods") && attempt == 1 {
            return (
                429,
                r#"{"kind":"Status","apiVersion":"v1","metadata":{},"status":"Failure","message":"Too many requests, please try again later.","reason":"TooManyRequests","details":{"retryAfterSeconds":3},"code":429}"#.into(),
            );
        }
        if uri.starts_with("/version") {
            return (200, "{}".into());
        }
        empty(uri)
    });
    let start = tokio::time::Instant::now();
    let f = fetch_with(client, "default", "https://mock", &all())
        .await
        .unwrap();
    assert!(f.problems.is_empty(), "{:?}", f.problems);
    assert!(
        start.elapsed() >= std::time::Duration::from_secs(3),
        "{:?}",
        start.elapsed()
    );
    let pods = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|u| u.starts_with("/api/v1/pods"))
        .count();
    assert_eq!(pods, 2);
}

/// A one-shot read waits as the API server asked after a 429, within reason.
#[test]
fn a_scan_waits_as_long_as_a_429_asks_within_ten_seconds() {
    use std::time::Duration;
    let throttled = |s| Failure::Status(429, "Too many requests".into(), s);
    assert_eq!(retry_delay(&throttled(None), 1), Duration::from_millis(500));
    assert_eq!(retry_delay(&throttled(Some(4)), 1), Duration::from_secs(4));
    assert_eq!(
        retry_delay(&throttled(Some(900)), 2),
        Duration::from_secs(10)
    );
    let unavailable = Failure::Status(503, "unavailable".into(), None);
    assert_eq!(retry_delay(&unavailable, 2), Duration::from_secs(1));
}

/// Secrets and ConfigMaps are asked for as metadata only, and whatever the server answers —
/// here a whole list, as a server ignoring the Accept header would send — reaches the loader
/// with no value in it, each object marked as one whose keys were not read.
#[tokio::test]
async fn secrets_and_config_maps_are_listed_as_metadata_only() {
    let (svc, mut handle) = tower_test::mock::pair::<Request<Body>, Response<Body>>();
    let accepts = Arc::new(Mutex::new(Vec::<(String, String)>::new()));
    let log = accepts.clone();
    tokio::spawn(async move {
        while let Some((req, send)) = handle.next_request().await {
            let uri = req.uri().path().to_string();
            let accept = req
                .headers()
                .get(http::header::ACCEPT)
                .map(|v| v.to_str().unwrap_or("").to_string())
                .unwrap_or_default();
            log.lock().unwrap().push((uri.clone(), accept));
            let body = if uri == "/version" {
                r#"{"major":"1","minor":"20"}"#.to_string()
            } else if uri.ends_with("/secrets") {
                list(
                    "Secret",
                    r#"{"metadata":{"name":"db","namespace":"shop","uid":"u1"},"type":"Opaque","data":{"password":"cGxhbnRlZC1zZWNyZXQtdmFsdWU="}}"#,
                    "",
                )
            } else if uri.ends_with("/configmaps") {
                list(
                    "ConfigMap",
                    r#"{"metadata":{"name":"cfg","namespace":"shop"},"data":{"url":"planted-config-value"}}"#,
                    "",
                )
            } else {
                empty(&uri).1
            };
            send.send_response(
                Response::builder()
                    .status(200)
                    .body(Body::from(body.into_bytes()))
                    .unwrap(),
            );
        }
    });
    let f = fetch_with(
        Client::new(svc, "default"),
        "default",
        "https://mock",
        &all(),
    )
    .await
    .unwrap();
    let asked = accepts.lock().unwrap().clone();
    for plural in ["secrets", "configmaps"] {
        let (_, accept) = asked.iter().find(|(u, _)| u.ends_with(plural)).unwrap();
        assert!(
            accept.contains("as=PartialObjectMetadataList;g=meta.k8s.io;v=v1"),
            "{accept}"
        );
    }
    let (_, pods_accept) = asked.iter().find(|(u, _)| u.ends_with("/pods")).unwrap();
    assert!(!pods_accept.contains("PartialObjectMetadata"));
    let all_text: String = f.pages.iter().map(|(_, t)| t.as_str()).collect();
    assert!(!all_text.contains("cGxhbnRlZC1zZWNyZXQtdmFsdWU="));
    assert!(!all_text.contains("planted-config-value"));
    let inputs = f
        .pages
        .into_iter()
        .map(|(name, text)| kubewhy_source::Input::Text { name, text })
        .collect();
    let loaded = kubewhy_source::load_owned(inputs, None);
    assert!(loaded.warnings.is_empty(), "{:?}", loaded.warnings);
    let s = loaded
        .snapshot
        .secret("shop", "db")
        .expect("the Secret's name is kept");
    assert!(!s.keys_known && s.keys.is_empty());
    let c = loaded
        .snapshot
        .config_map("shop", "cfg")
        .expect("the ConfigMap's name is kept");
    assert!(!c.keys_known);
}
