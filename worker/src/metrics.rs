//! The worker's Prometheus endpoint: `GET /metrics` on `WORKER_METRICS_ADDR` when it is set
//! (`127.0.0.1:9465`, say), with the job metrics of `jobs::runner::metrics` and `db_pool_connections{state}`.
//! It follows the api's rule ([`domain::metrics_access`]): a loopback request without forwarding
//! headers, or the bearer `METRICS_TOKEN`; anyone else gets 403. Every metric is described at
//! start-up and starts at its value (counters at zero, the payout batch's last success as recorded).
//! With `DATABASE_READ_URL` it also shows the read replica's lag as this worker sees it, and with
//! `REALTIME_BUS=nats` the real-time outbox's backlog (the events its tasks write wait there for
//! the api processes' relays).

use std::{net::SocketAddr, time::Duration};

use domain::metrics_access;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};
use sqlx::PgPool;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::{TcpListener, TcpStream},
};

/// The address the worker serves its metrics on; unset, it serves none.
pub(crate) const ADDR_VAR: &str = "WORKER_METRICS_ADDR";
/// How often the pool's figures are read.
pub(crate) const POOL_EVERY: Duration = Duration::from_secs(1);
/// The longest request head read from a scraper.
pub(crate) const MAX_REQUEST_BYTES: usize = 16 * 1024;
/// How long a scraper has to send its request.
pub(crate) const READ_TIMEOUT: Duration = Duration::from_secs(10);
/// How often the replica's lag is measured (with `DATABASE_READ_URL`).
pub(crate) const REPLICA_EVERY: Duration = Duration::from_millis(500);
/// A replica that does not say where it is within this is down.
pub(crate) const REPLICA_TIMEOUT: Duration = Duration::from_secs(1);

/// Serves the metrics when [`ADDR_VAR`] is set; a bad address or a port in use stops the worker.
pub(crate) async fn serve_if_asked(pool: &PgPool) -> anyhow::Result<()> {
    let Some(raw) = std::env::var(ADDR_VAR).ok().filter(|a| !a.is_empty()) else {
        return Ok(());
    };
    let addr: SocketAddr = raw
        .parse()
        .map_err(|_| anyhow::anyhow!("{ADDR_VAR} is not an address like 127.0.0.1:9465: {raw:?}"))?;
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| anyhow::anyhow!("cannot serve metrics on {addr}: {e}"))?;
    let handle = PrometheusBuilder::new()
        .set_buckets_for_metric(
            Matcher::Full("job_duration_seconds".into()),
            &jobs::runner::metrics::JOB_DURATION_BUCKETS,
        )?
        .install_recorder()
        .map_err(|e| anyhow::anyhow!("cannot record metrics: {e}"))?;
    describe(pool).await;
    watch_replica(pool)?;
    tracing::info!(%addr, "serving metrics");
    let token = metrics_access::token_from_env();
    tokio::spawn({
        let handle = handle.clone();
        async move {
            loop {
                let Ok((stream, peer)) = listener.accept().await else {
                    continue;
                };
                let (handle, token) = (handle.clone(), token.clone());
                tokio::spawn(async move {
                    if let Err(err) = answer(stream, peer, &handle, token.as_deref()).await {
                        tracing::debug!(error = %err, "metrics: a scrape failed");
                    }
                });
            }
        }
    });
    let pool = pool.clone();
    tokio::spawn(async move {
        let mut every = tokio::time::interval(POOL_EVERY);
        loop {
            every.tick().await;
            pool_figures(&pool);
            outbox_figures(&pool).await;
            handle.run_upkeep();
        }
    });
    Ok(())
}

/// Measures the replica's lag as the api does (`domain::replication::LagTracker`) when
/// `DATABASE_READ_URL` names one: `replica_lag_seconds` (-1 unknown) and `replica_up`.
fn watch_replica(pool: &PgPool) -> anyhow::Result<()> {
    use domain::replication::{self, LagTracker, Lsn, READ_URL_VAR};
    let Some(url) = std::env::var(READ_URL_VAR).ok().filter(|u| !u.trim().is_empty()) else {
        return Ok(());
    };
    let replica = domain::db::connect_later(&url, READ_URL_VAR, 1, REPLICA_TIMEOUT)?;
    let primary = pool.clone();
    tokio::spawn(async move {
        let mut lag = LagTracker::default();
        let mut every = tokio::time::interval(REPLICA_EVERY);
        loop {
            every.tick().await;
            if let Ok(at) = replication::primary_position(&primary).await {
                lag.primary_at(tokio::time::Instant::now(), at);
            }
            let up = match tokio::time::timeout(REPLICA_TIMEOUT, replication::replayed_position(&replica)).await {
                // A server that is not a replica is as new as the primary.
                Ok(Ok(at)) => {
                    lag.replayed(at.unwrap_or(Lsn(u64::MAX)));
                    true
                }
                _ => false,
            };
            let seconds = lag.lag(tokio::time::Instant::now()).map_or(-1.0, |l| l.as_secs_f64());
            metrics::gauge!("replica_lag_seconds").set(seconds);
            metrics::gauge!("replica_up").set(if up { 1.0 } else { 0.0 });
        }
    });
    Ok(())
}

/// The outbox's backlog on the NATS bus: `realtime_outbox_unsent`, `realtime_outbox_oldest_unsent_seconds`.
async fn outbox_figures(pool: &PgPool) {
    if domain::realtime::bus() != domain::realtime::Bus::Nats {
        return;
    }
    match domain::realtime::outbox::backlog(pool).await {
        Ok((unsent, oldest)) => {
            metrics::gauge!("realtime_outbox_unsent").set(unsent as f64);
            metrics::gauge!("realtime_outbox_oldest_unsent_seconds").set(oldest);
        }
        Err(err) => tracing::warn!(error = %err, "metrics: cannot read the real-time outbox"),
    }
}

fn pool_figures(pool: &PgPool) {
    let size = pool.size() as f64;
    let idle = pool.num_idle() as f64;
    metrics::gauge!("db_pool_connections", "state" => "idle").set(idle);
    metrics::gauge!("db_pool_connections", "state" => "in_use").set((size - idle).max(0.0));
}

/// Every metric of the worker, described, at its starting value.
async fn describe(pool: &PgPool) {
    use metrics::{Unit, describe_counter, describe_gauge, describe_histogram};
    describe_counter!("jobs_completed_total", "Task attempts finished, by queue and outcome");
    describe_histogram!(
        "job_duration_seconds",
        Unit::Seconds,
        "Time a task attempt took, by queue"
    );
    describe_gauge!(
        "payout_batch_last_success_timestamp_seconds",
        Unit::Seconds,
        "When the payout batch last succeeded (Unix seconds; 0 when it never has)"
    );
    describe_gauge!(
        "db_pool_connections",
        "Database pool connections, by state (idle, in_use)"
    );
    describe_gauge!(
        "replica_lag_seconds",
        Unit::Seconds,
        "How long the read replica (DATABASE_READ_URL) has been behind the primary (0 caught up; -1 unknown or none)"
    );
    describe_gauge!(
        "replica_up",
        "1 while the read replica answers (0 when down or none is configured)"
    );
    if domain::realtime::bus() == domain::realtime::Bus::Nats {
        describe_gauge!(
            "realtime_outbox_unsent",
            "Real-time events in the outbox not yet relayed to NATS"
        );
        describe_gauge!(
            "realtime_outbox_oldest_unsent_seconds",
            Unit::Seconds,
            "Age of the oldest real-time event not yet relayed to NATS"
        );
        outbox_figures(pool).await;
    }
    metrics::gauge!("replica_lag_seconds").set(-1.0);
    metrics::gauge!("replica_up").set(0.0);
    for queue in jobs::QUEUES {
        for outcome in ["succeeded", "failed"] {
            metrics::counter!("jobs_completed_total", "queue" => *queue, "outcome" => outcome).absolute(0);
        }
    }
    pool_figures(pool);
    let last = domain::job_queue::tasks::last_success(pool, domain::payouts::jobs::QUEUE)
        .await
        .unwrap_or_else(|err| {
            tracing::warn!(error = %err, "metrics: cannot read the payout batch's last success");
            None
        });
    metrics::gauge!("payout_batch_last_success_timestamp_seconds").set(last.unwrap_or(0.0));
}

/// Reads one request head and answers it: the metrics, or 403.
async fn answer(
    mut stream: TcpStream,
    peer: SocketAddr,
    handle: &PrometheusHandle,
    token: Option<&str>,
) -> std::io::Result<()> {
    let mut head = Vec::new();
    let mut buf = [0u8; 2048];
    let read = async {
        while !head.windows(4).any(|w| w == b"\r\n\r\n") {
            let n = stream.read(&mut buf).await?;
            if n == 0 || head.len() + n > MAX_REQUEST_BYTES {
                return Err(std::io::Error::other("incomplete or oversized request"));
            }
            head.extend_from_slice(&buf[..n]);
        }
        Ok(())
    };
    tokio::time::timeout(READ_TIMEOUT, read)
        .await
        .map_err(|_| std::io::Error::other("the request did not arrive in time"))??;
    let text = String::from_utf8_lossy(&head);
    let headers: Vec<(String, &str)> = text
        .split("\r\n")
        .skip(1)
        .filter_map(|line| line.split_once(':'))
        .map(|(name, value)| (name.trim().to_ascii_lowercase(), value.trim()))
        .collect();
    let header = |name: &str| headers.iter().find(|(n, _)| n == name).map(|(_, v)| *v);
    let (status, content_type, body) = if metrics_access::allowed(Some(peer.ip()), header, token) {
        ("200 OK", "text/plain; version=0.0.4; charset=utf-8", handle.render())
    } else {
        let body = serde_json::json!({"message": metrics_access::FORBIDDEN, "code": "forbidden"}).to_string();
        ("403 Forbidden", "application/json", body)
    };
    let response = format!(
        "HTTP/1.1 {status}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    stream.write_all(response.as_bytes()).await?;
    stream.shutdown().await
}
