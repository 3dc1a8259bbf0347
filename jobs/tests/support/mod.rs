// Shared by every test file: what one of them leaves unused or private is no fault.
#![allow(unreachable_pub)]
#![allow(dead_code)]

pub mod smtp;

use std::time::Duration;

use domain::Config;
use jobs::{JobContext, Settings};
use sqlx::PgPool;

pub fn context(pool: &PgPool, settings: &[(&str, String)]) -> JobContext {
    // A key for secrets at rest, which the production profile (an https APP_BASE_URL) requires.
    let mut map: std::collections::HashMap<String, String> = std::collections::HashMap::from([(
        "SECRETS_KEY".to_string(),
        "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=".to_string(),
    )]);
    map.extend(settings.iter().map(|(k, v)| (k.to_string(), v.clone())));
    let config = Config::from_lookup(|k| map.get(k).cloned()).unwrap();
    JobContext::new(pool.clone(), config).unwrap()
}

/// Quick polling and retries, so tests take milliseconds rather than minutes.
pub fn fast() -> Settings {
    Settings {
        poll_every: Duration::from_millis(50),
        retry_min: Duration::from_millis(20),
        retry_max: Duration::from_millis(100),
        heartbeat: Duration::from_secs(1),
    }
}

/// Every worker, running in the background until aborted or dropped (a test that ends with
/// workers still running would otherwise wait for them forever).
pub struct Workers(tokio::task::JoinHandle<()>);

impl Workers {
    pub fn spawn(run: impl std::future::Future<Output = ()> + Send + 'static) -> Self {
        Self(tokio::spawn(run))
    }

    pub fn abort(&self) {
        self.0.abort();
    }
}

impl Drop for Workers {
    fn drop(&mut self) {
        self.0.abort();
    }
}

pub fn start_workers(ctx: JobContext) -> Workers {
    Workers(tokio::spawn(async move {
        let _ = jobs::monitor(ctx, fast()).run().await;
    }))
}

/// Polls `check` until it returns Some, or panics after `secs` seconds.
pub async fn eventually<T, F, Fut>(secs: u64, mut check: F) -> T
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Option<T>>,
{
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "condition not met within {secs}s"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

pub async fn job_state(pool: &PgPool, queue: &str) -> Option<(String, i32)> {
    sqlx::query_as("SELECT status, attempts FROM apalis.jobs WHERE job_type = $1 ORDER BY run_at DESC LIMIT 1")
        .bind(queue)
        .fetch_optional(pool)
        .await
        .unwrap()
}
