//! Prometheus metrics of the api at `GET /metrics` (the series and their alerts: docs/operations.md).
//! Every metric is described, and the unlabelled ones start at zero, when the recorder is
//! installed ([`handle`]), so a fresh process shows every series before any traffic.
//!
//! `/metrics` answers a loopback connection without forwarding headers, or a request with
//! `Authorization: Bearer $METRICS_TOKEN` when that is set ([`domain::metrics_access`]): 403 otherwise.

use std::{
    collections::HashMap,
    sync::{Arc, LazyLock, OnceLock},
    time::Instant,
};

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use poem::{
    Endpoint, IntoResponse, Request, Response,
    http::{Method, StatusCode},
};
use sqlx::PgPool;

use domain::metrics_access;

/// The environment variable whose value, sent as a bearer token, lets a remote scraper in.
pub const METRICS_TOKEN_VAR: &str = metrics_access::TOKEN_VAR;
/// What `/metrics` answers a caller who may not read it.
pub const METRICS_FORBIDDEN: &str = metrics_access::FORBIDDEN;
/// The route label of a request no operation of `openapi.yaml` matches.
pub const UNMATCHED_ROUTE: &str = "unmatched";
/// The target of each API request's line (at `debug`: `RUST_LOG=info,http=debug` turns it on).
pub const ACCESS_LOG_TARGET: &str = "http";
/// Seconds: the buckets of `http_request_duration_seconds`.
pub const DURATION_BUCKETS: [f64; 12] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0];

/// The process's recorder, installed the first time anything asks for it (`serve` asks at
/// start-up), with every metric described and the unlabelled ones at zero.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let handle = PrometheusBuilder::new()
            .set_buckets(&DURATION_BUCKETS)
            .expect("valid buckets")
            .install_recorder()
            .expect("the api installs the only metrics recorder");
        describe();
        handle
    })
}

/// Every metric of the api, described, and each unlabelled one at its starting value.
fn describe() {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!(
        "http_requests_total",
        "API requests answered, by method, route and status"
    );
    describe_histogram!(
        "http_request_duration_seconds",
        Unit::Seconds,
        "Time to answer an API request, by method and route"
    );
    describe_gauge!("websocket_connections", "Open real-time WebSocket connections");
    describe_counter!("catalogue_cache_hits_total", "Catalogue requests answered from memory");
    describe_counter!(
        "catalogue_cache_misses_total",
        "Catalogue requests answered from the database"
    );
    describe_gauge!(
        "db_pool_connections",
        "Database pool connections, by state (idle, in_use)"
    );
    describe_gauge!("job_queue_depth", "Tasks of a job queue, by queue and state");
    describe_gauge!(
        "job_oldest_due_seconds",
        "Seconds the oldest due task of a queue has waited"
    );
    describe_counter!(
        crate::realtime::listener::RECEIVED_METRIC,
        "Real-time events this process read from PostgreSQL's LISTEN (REALTIME_BUS=postgres: every process's events)"
    );
    crate::realtime::nats::describe_metrics();
    metrics::gauge!("websocket_connections").set(0.0);
    metrics::counter!(crate::realtime::listener::RECEIVED_METRIC).absolute(0);
    metrics::counter!("catalogue_cache_hits_total").absolute(0);
    metrics::counter!("catalogue_cache_misses_total").absolute(0);
    for state in ["idle", "in_use"] {
        metrics::gauge!("db_pool_connections", "state" => state).set(0.0);
    }
}

/// A path as written in `openapi.yaml` and its segments (`None` for a `{param}`, matching any one).
type Route = (String, Vec<Option<String>>);

/// The operations of `openapi.yaml`: per method, each path split into its segments, a `{param}`
/// segment matching any one segment. The app builds it from its route table and hands it to
/// [`track`].
pub struct RouteTable(HashMap<String, Vec<Route>>);

impl RouteTable {
    /// The table of an OpenAPI document given as JSON text (`OpenApiService::spec`).
    pub fn from_openapi(spec: &str) -> Self {
        Self::from_spec(&serde_json::from_str(spec).unwrap_or_default())
    }

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
    pub fn route(&self, method: &Method, path: &str) -> Option<&str> {
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

    /// The route label of a request: its operation's path, else [`UNMATCHED_ROUTE`].
    pub fn label(&self, method: &Method, path: &str) -> &str {
        self.route(method, path).unwrap_or(UNMATCHED_ROUTE)
    }
}

/// Counts and times every request to the API (poem `around`), labelled by `routes`.
pub async fn track<E: Endpoint>(ep: Arc<E>, req: Request, routes: Arc<RouteTable>) -> poem::Result<Response> {
    handle();
    let method = req.method().clone();
    let route = routes.label(&method, req.uri().path());
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
    metrics::counter!("http_requests_total", "method" => method.to_string(), "route" => route.to_owned(), "status" => status.as_u16().to_string())
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

/// Whether the caller may read the metrics ([`metrics_access::allowed`]).
fn allowed(req: &Request, token: Option<&str>) -> bool {
    let peer = req.remote_addr().as_socket_addr().map(|addr| addr.ip());
    metrics_access::allowed(peer, |name| req.header(name), token)
}

static TOKEN: LazyLock<Option<String>> = LazyLock::new(metrics_access::token_from_env);

/// `GET /metrics`: the Prometheus text format, with the pool and the queues of `pool` as they are now.
pub async fn scrape(req: &Request, pool: &PgPool) -> Response {
    if !allowed(req, TOKEN.as_deref()) {
        return crate::error::json_response(
            StatusCode::FORBIDDEN,
            crate::error::ErrorCode::Forbidden,
            METRICS_FORBIDDEN,
        );
    }
    let handle = handle();
    record_database(pool).await;
    crate::realtime::relay::record_backlog(pool).await;
    Response::builder()
        .content_type("text/plain; version=0.0.4; charset=utf-8")
        .body(handle.render())
}

/// The pool and the queues, as they are now.
async fn record_database(pool: &PgPool) {
    let size = pool.size() as f64;
    let idle = pool.num_idle() as f64;
    metrics::gauge!("db_pool_connections", "state" => "idle").set(idle);
    metrics::gauge!("db_pool_connections", "state" => "in_use").set((size - idle).max(0.0));
    let silent_after = domain::job_queue::storage::default_silent_after();
    match domain::admin::jobs::queues(pool, domain::jobs::QUEUES, silent_after).await {
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
}
