//! The worker's Prometheus endpoint: `GET /metrics` on `WORKER_METRICS_ADDR` when it is set
//! (`127.0.0.1:9465`, say), with the job metrics of `jobs::metrics` and `db_pool_connections{state}`.

use std::{net::SocketAddr, time::Duration};

use metrics_exporter_prometheus::{Matcher, PrometheusBuilder};
use sqlx::PgPool;

/// The address the worker serves its metrics on; unset, it serves none.
pub const ADDR_VAR: &str = "WORKER_METRICS_ADDR";
/// How often the pool's figures are read.
pub const POOL_EVERY: Duration = Duration::from_secs(1);

/// Serves the metrics when [`ADDR_VAR`] is set; a bad address or a port in use stops the worker.
pub fn serve_if_asked(pool: &PgPool) -> anyhow::Result<()> {
    let Some(raw) = std::env::var(ADDR_VAR).ok().filter(|a| !a.is_empty()) else {
        return Ok(());
    };
    let addr: SocketAddr = raw
        .parse()
        .map_err(|_| anyhow::anyhow!("{ADDR_VAR} is not an address like 127.0.0.1:9465: {raw:?}"))?;
    PrometheusBuilder::new()
        .set_buckets_for_metric(
            Matcher::Full("job_duration_seconds".into()),
            &jobs::metrics::JOB_DURATION_BUCKETS,
        )?
        .with_http_listener(addr)
        .install()
        .map_err(|e| anyhow::anyhow!("cannot serve metrics on {addr}: {e}"))?;
    tracing::info!(%addr, "serving metrics");
    let pool = pool.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(POOL_EVERY);
        loop {
            every.tick().await;
            let size = pool.size() as f64;
            let idle = pool.num_idle() as f64;
            metrics::gauge!("db_pool_connections", "state" => "idle").set(idle);
            metrics::gauge!("db_pool_connections", "state" => "in_use").set((size - idle).max(0.0));
        }
    });
    Ok(())
}
