//! Prometheus metrics of the api, rendered by `metrics-exporter-prometheus` at `GET /metrics`:
//!
//! - `http_requests_total{method,route,status}` and `http_request_duration_seconds{method,route}`,
//!   the route as `openapi.yaml` writes it (`/api/mentors/{id}`; `unmatched` for anything else);
//! - `websocket_connections`, `catalogue_cache_hits_total`, `catalogue_cache_misses_total`;
//! - read from the database at each scrape: `db_pool_connections{state}` (`idle`, `in_use`),
//!   `job_queue_depth{queue,state}` and `job_oldest_due_seconds{queue}`.
//!
//! `/metrics` answers a connection whose own peer address is loopback (never judged by
//! `X-Forwarded-For`), or a request with `Authorization: Bearer $METRICS_TOKEN` when that is set;
//! anyone else gets 403.

use std::{
    collections::HashMap,
    sync::{LazyLock, OnceLock},
    time::Instant,
};

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use poem::{
    Endpoint, IntoResponse, Request, Response,
    http::{Method, StatusCode},
    web::Data,
};

use crate::{routes, state::AppState};

/// The environment variable whose value, sent as a bearer token, lets a remote scraper in.
pub const METRICS_TOKEN_VAR: &str = "METRICS_TOKEN";
/// What `/metrics` answers a caller who may not read it.
pub const METRICS_FORBIDDEN: &str = "Metrics are served to loopback or with the metrics token only";
/// The route label of a request no operation of `openapi.yaml` matches.
pub const UNMATCHED_ROUTE: &str = "unmatched";
/// The target of each API request's line (at `debug`: `RUST_LOG=info,http=debug` turns it on).
pub const ACCESS_LOG_TARGET: &str = "http";
/// Seconds: the buckets of `http_request_duration_seconds`.
pub const DURATION_BUCKETS: [f64; 12] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

/// The process's recorder, installed the first time anything asks for it.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        PrometheusBuilder::new()
            .set_buckets(&DURATION_BUCKETS)
            .expect("valid buckets")
            .install_recorder()
            .expect("the api installs the only metrics recorder")
    })
}

/// A path as written in `openapi.yaml` and its segments (`None` for a `{param}`, matching any one).
type Route = (String, Vec<Option<String>>);

/// The operations of `openapi.yaml`: per method, each path split into its segments, a `{param}`
/// segment matching any one segment.
struct RouteTable(HashMap<String, Vec<Route>>);

impl RouteTable {
    fn from_spec(spec: &serde_json::Value) -> Self {
        let mut table: HashMap<String, Vec<Route>> = HashMap::new();
        if let Some(paths) = spec["paths"].as_object() {
            for (path, operations) in paths {
                let segments: Vec<Option<String>> = path
                    .trim_start_matches('/')
                    .split('/')
                    .map(|s| (!(s.starts_with('{') && s.ends_with('}'))).then(|| s.to_string()))
                    .collect();
                for method in operations.as_object().into_iter().flat_map(|o| o.keys()) {
                    table
                        .entry(method.to_ascii_uppercase())
                        .or_default()
                        .push((path.clone(), segments.clone()));
                }
            }
        }
        Self(table)
    }

    /// The operation's path for `method` and `path`; the one with the most literal segments when
    /// several match (`/api/mentors/search` before `/api/mentors/{id}`).
    fn route(&self, method: &Method, path: &str) -> Option<&str> {
        let parts: Vec<&str> = path.trim_start_matches('/').split('/').collect();
        self.0
            .get(method.as_str())?
            .iter()
            .filter(|(_, segments)| {
                segments.len() == parts.len()
                    && segments.iter().zip(&parts).all(|(s, p)| match s {
                        Some(literal) => literal == p,
                        None => !p.is_empty(),
                    })
            })
            .max_by_key(|(_, segments)| segments.iter().filter(|s| s.is_some()).count())
            .map(|(route, _)| route.as_str())
    }
}

static ROUTES: LazyLock<RouteTable> = LazyLock::new(|| {
    let spec: serde_json::Value = serde_json::from_str(&routes::service().spec()).unwrap_or_default();
    RouteTable::from_spec(&spec)
});

/// The route label of a request: its operation's path in `openapi.yaml`, else [`UNMATCHED_ROUTE`].
pub fn route_of(method: &Method, path: &str) -> &'static str {
    ROUTES.route(method, path).unwrap_or(UNMATCHED_ROUTE)
}

/// Counts and times every request to the API (poem `around`).
pub async fn track<E: Endpoint>(ep: std::sync::Arc<E>, req: Request) -> poem::Result<Response> {
    handle();
    let method = req.method().clone();
    let route = route_of(&method, req.uri().path());
    let started = Instant::now();
    let result = ep.call(req).await.map(IntoResponse::into_response);
    let status = match &result {
        Ok(response) => response.status(),
        Err(err) => err.status(),
    };
    let seconds = started.elapsed().as_secs_f64();
    tracing::debug!(target: ACCESS_LOG_TARGET, %method, route, status = status.as_u16(), seconds, "request finished");
    let labels = [("method", method.to_string()), ("route", route.to_string())];
    metrics::histogram!("http_request_duration_seconds", &labels).record(seconds);
    metrics::counter!("http_requests_total", "method" => method.to_string(), "route" => route, "status" => status.as_u16().to_string())
        .increment(1);
    result
}

/// While alive, counts one open WebSocket connection.
pub struct SocketGauge(());

impl SocketGauge {
    pub fn open() -> Self {
        handle();
        metrics::gauge!("websocket_connections").increment(1.0);
        Self(())
    }
}

impl Drop for SocketGauge {
    fn drop(&mut self) {
        metrics::gauge!("websocket_connections").decrement(1.0);
    }
}

/// The catalogue answered from memory (`hit`) or from the database.
pub fn catalogue_cache(hit: bool) {
    handle();
    if hit {
        metrics::counter!("catalogue_cache_hits_total").increment(1);
    } else {
        metrics::counter!("catalogue_cache_misses_total").increment(1);
    }
}

/// Whether the caller may read the metrics: a loopback peer, or the bearer token when one is set.
fn allowed(req: &Request, token: Option<&str>) -> bool {
    let loopback = matches!(req.remote_addr().as_socket_addr(), Some(addr) if addr.ip().is_loopback());
    let bearer = token.is_some_and(|token| {
        req.header("authorization")
            .and_then(|h| h.strip_prefix("Bearer "))
            .is_some_and(|given| constant_time_eq(given.as_bytes(), token.as_bytes()))
    });
    loopback || bearer
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

static TOKEN: LazyLock<Option<String>> =
    LazyLock::new(|| std::env::var(METRICS_TOKEN_VAR).ok().filter(|t| !t.is_empty()));

/// `GET /metrics`: the Prometheus text format.
#[poem::handler]
pub async fn scrape(req: &Request, state: Data<&AppState>) -> Response {
    if !allowed(req, TOKEN.as_deref()) {
        return crate::error::json_response(
            StatusCode::FORBIDDEN,
            crate::error::ErrorCode::Forbidden,
            METRICS_FORBIDDEN,
        );
    }
    let handle = handle();
    record_database(&state).await;
    Response::builder()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(handle.render())
}

/// The pool and the queues, as they are now.
async fn record_database(state: &AppState) {
    let size = state.pool.size() as f64;
    let idle = state.pool.num_idle() as f64;
    metrics::gauge!("db_pool_connections", "state" => "idle").set(idle);
    metrics::gauge!("db_pool_connections", "state" => "in_use").set((size - idle).max(0.0));
    let silent_after = jobs::runtime::Settings::default().silent_after();
    match domain::admin::jobs::queues(&state.pool, jobs::runtime::QUEUES, silent_after).await {
        Ok(queues) => {
            for q in queues {
                let depths = [
                    ("pending", q.pending),
                    ("scheduled", q.scheduled),
                    ("running", q.running),
                    ("failed", q.failed),
                    ("set_aside", q.set_aside),
                ];
                for (s, n) in depths {
                    metrics::gauge!("job_queue_depth", "queue" => q.queue.clone(), "state" => s).set(n as f64);
                }
                metrics::gauge!("job_oldest_due_seconds", "queue" => q.queue.clone()).set(q.oldest_due_seconds);
            }
        }
        Err(err) => tracing::warn!(error = %err, "metrics: cannot read the job queues"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_named_as_openapi_writes_them() {
        let spec = serde_json::json!({"paths": {
            "/api/mentors/{id}": {"get": {}},
            "/api/mentors/search": {"get": {}},
            "/api/admin/jobs/{id}/retry": {"post": {}},
        }});
        let t = RouteTable::from_spec(&spec);
        assert_eq!(t.route(&Method::GET, "/api/mentors/42"), Some("/api/mentors/{id}"));
        assert_eq!(
            t.route(&Method::GET, "/api/mentors/search"),
            Some("/api/mentors/search")
        );
        assert_eq!(
            t.route(&Method::POST, "/api/admin/jobs/01J/retry"),
            Some("/api/admin/jobs/{id}/retry")
        );
        assert_eq!(t.route(&Method::GET, "/api/admin/jobs/01J/retry"), None);
        assert_eq!(t.route(&Method::GET, "/api/mentors/"), None);
        assert_eq!(t.route(&Method::GET, "/api/mentors/1/2"), None);
    }

    #[test]
    fn the_real_spec_knows_its_routes() {
        assert_eq!(route_of(&Method::GET, "/api/health"), "/api/health");
        assert_eq!(route_of(&Method::GET, "/api/nope/nope"), UNMATCHED_ROUTE);
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
