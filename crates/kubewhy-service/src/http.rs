//! The HTTP endpoints, served from what the last evaluation published.

use crate::Service;
use crate::evaluate::{degraded, where_};
use axum::extract::State;
use axum::http::{StatusCode, header};
use axum::response::{Html, IntoResponse, Response};
use kubewhy_live::store::WatchStatus;
use std::io::Write;
use std::sync::Arc;
use std::time::Duration;

/// Serves `/`, `/findings`, `/metrics` and `/healthz` until the listener fails.
pub async fn serve(listener: tokio::net::TcpListener, shared: Arc<Service>) {
    let app = axum::Router::new()
        .route("/", axum::routing::get(page))
        .route("/findings", axum::routing::get(findings))
        .route("/metrics", axum::routing::get(metrics))
        .route("/healthz", axum::routing::get(healthz))
        .with_state(shared);
    if let Err(e) = axum::serve(listener, app).await {
        let _ = writeln!(anstream::stderr(), "kubewhy: the server stopped: {e}");
    }
}

fn not_yet() -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "2")],
        "kubewhy: the first evaluation has not finished yet\n",
    )
        .into_response()
}

/// `/`, or `/?namespace=NS`: the page of one namespace, rendered on request from the last
/// evaluation (the whole page is rendered once per evaluation).
async fn page(State(s): State<Arc<Service>>, uri: axum::http::Uri) -> Response {
    let namespace = uri
        .query()
        .and_then(|q| query_value(q, "namespace"))
        .filter(|n| !n.is_empty());
    let p = s.published.read().unwrap_or_else(|p| p.into_inner());
    if p.at.is_none() {
        return not_yet();
    }
    match (namespace, &p.view) {
        (Some(ns), Some(view)) => {
            let view = view.clone();
            drop(p);
            Html(view.page(Some(&ns))).into_response()
        }
        _ => Html(p.html.clone()).into_response(),
    }
}

/// The value of `key` in a query string, percent-decoded (`+` is a space in a form's GET).
fn query_value(query: &str, key: &str) -> Option<String> {
    let raw = query
        .split('&')
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))?;
    let bytes = raw.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < bytes.len() => {
                match u8::from_str_radix(std::str::from_utf8(&bytes[i + 1..i + 3]).ok()?, 16) {
                    Ok(b) => {
                        out.push(b);
                        i += 2;
                    }
                    Err(_) => out.push(b'%'),
                }
            }
            b => out.push(b),
        }
        i += 1;
    }
    String::from_utf8(out).ok()
}

async fn findings(State(s): State<Arc<Service>>) -> Response {
    let view = {
        let p = s.published.read().unwrap_or_else(|p| p.into_inner());
        match (&p.view, p.at) {
            (Some(v), Some(_)) => v.clone(),
            _ => return not_yet(),
        }
    };
    ([(header::CONTENT_TYPE, "application/json")], view.json()).into_response()
}

async fn metrics(State(s): State<Arc<Service>>) -> Response {
    (
        [(
            header::CONTENT_TYPE,
            "application/openmetrics-text; version=1.0.0; charset=utf-8",
        )],
        s.metrics.encode(),
    )
        .into_response()
}

/// 200 when every watch has listed once (or is known unreadable) and the findings are fresh;
/// 503 otherwise. The body lists each watch.
async fn healthz(State(s): State<Arc<Service>>) -> Response {
    let at = s.published.read().unwrap_or_else(|p| p.into_inner()).at;
    let stale_after = (s.interval * 6).max(Duration::from_secs(60));
    let mut body = String::new();
    let mut ok = true;
    match at {
        None => {
            ok = false;
            body.push_str("evaluation: not yet\n");
        }
        Some(t) if t.elapsed() > stale_after => {
            ok = false;
            body.push_str(&format!(
                "evaluation: stale, last {} s ago\n",
                t.elapsed().as_secs()
            ));
        }
        Some(t) => body.push_str(&format!("evaluation: {} s ago\n", t.elapsed().as_secs())),
    }
    if !s.store.synced() {
        ok = false;
    }
    let health = s.store.health();
    for d in degraded(&health, s.scoped) {
        ok = false;
        body.push_str(&format!("degraded: {d}\n"));
    }
    for h in health {
        let state = match &h.status {
            WatchStatus::Starting => "listing".to_string(),
            WatchStatus::Up => "up".to_string(),
            WatchStatus::Failing(e) => format!("failing: {e}"),
            WatchStatus::Forbidden(e) => format!("not readable: {e}"),
            WatchStatus::NotServed => "not served by this cluster".to_string(),
        };
        body.push_str(&format!(
            "{}: {} ({} objects, {} lists, {} errors{})\n",
            where_(&h),
            state,
            h.objects,
            h.lists,
            h.errors,
            if h.undecodable > 0 {
                format!(", {} not readable", h.undecodable)
            } else {
                String::new()
            }
        ));
    }
    let body = kubewhy_report::sanitize(&body);
    if ok {
        (StatusCode::OK, body).into_response()
    } else {
        (StatusCode::SERVICE_UNAVAILABLE, body).into_response()
    }
}
