//! Retries with backoff that the job console can see. A task's tries run in its worker's process
//! (apalis' retry layer), so between two tries its row would still say `Running` with no error.
//! [`RecordedRetries`] writes each failed try's error, the tries so far and the time of the next
//! try into the row (which the console shows as `scheduled` with its `lastError`), and a task an
//! admin discarded meanwhile is not tried again ([`SkipDiscarded`]).

use std::{
    any::Any,
    fmt::Display,
    future::Future,
    pin::Pin,
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use apalis::{
    layers::retry::{Policy, backoff::ExponentialBackoff},
    prelude::{BackoffRetryPolicy, ExecutionContext, Status, Task},
};
use sqlx::PgPool;
use tower::{Layer, Service};

/// What a try of a discarded task answers instead of running (never shown: the row stays discarded).
pub const DISCARDED: &str = "discarded by an admin while waiting for its next try";

/// [`BackoffRetryPolicy`] that records every failed try in the task's row.
#[derive(Clone)]
pub struct RecordedRetries {
    inner: BackoffRetryPolicy<ExponentialBackoff>,
    pool: PgPool,
}

impl RecordedRetries {
    pub fn new(inner: BackoffRetryPolicy<ExponentialBackoff>, pool: PgPool) -> Self {
        Self { inner, pool }
    }
}

impl<T, Res, Err> Policy<Task<T>, Res, Err> for RecordedRetries
where
    T: Clone,
    Err: Any + Display,
{
    type Future = Pin<Box<dyn Future<Output = ()> + Send>>;

    fn retry(&mut self, req: &mut Task<T>, result: &mut Result<Res, Err>) -> Option<Self::Future> {
        let sleep = self.inner.retry(req, result)?;
        let wait = sleep.deadline().saturating_duration_since(tokio::time::Instant::now());
        let error = result.as_ref().err().map(ToString::to_string).unwrap_or_default();
        let ctx: Arc<ExecutionContext> = req.ctx().clone();
        let pool = self.pool.clone();
        Some(Box::pin(async move {
            let Some(id) = ctx.task_id().map(ToString::to_string) else {
                return sleep.await;
            };
            if let Err(err) = record(&pool, &id, ctx.attempt(), &error, wait).await {
                tracing::warn!(task = id, error = %err, "could not record a failed try");
            }
            sleep.await;
            if matches!(discarded(&pool, &id).await, Ok(true)) {
                tracing::info!(task = id, "discarded while waiting for its next try; not trying again");
                ctx.raw_status().store(Status::Killed);
            }
        }))
    }

    fn clone_request(&mut self, req: &Task<T>) -> Option<Task<T>> {
        <BackoffRetryPolicy<ExponentialBackoff> as Policy<Task<T>, Res, Err>>::clone_request(&mut self.inner, req)
    }
}

async fn record(pool: &PgPool, id: &str, attempts: usize, error: &str, wait: Duration) -> sqlx::Result<()> {
    domain::job_queue::tasks::record_try(pool, id, attempts as i32, error, wait).await
}

async fn discarded(pool: &PgPool, id: &str) -> sqlx::Result<bool> {
    let status = domain::job_queue::tasks::status(pool, id).await?;
    Ok(status.as_deref() == Some(domain::admin::jobs::DISCARDED_STATUS))
}

/// Inside the retries: a try of a task found discarded answers [`DISCARDED`] instead of running
/// (and, its status killed, is not tried again).
#[derive(Clone, Copy, Debug, Default)]
pub struct SkipDiscardedLayer;

impl<S> Layer<S> for SkipDiscardedLayer {
    type Service = SkipDiscarded<S>;

    fn layer(&self, inner: S) -> Self::Service {
        SkipDiscarded(inner)
    }
}

#[derive(Clone, Debug)]
pub struct SkipDiscarded<S>(S);

impl<S, T> Service<Task<T>> for SkipDiscarded<S>
where
    S: Service<Task<T>>,
    S::Future: Send + 'static,
    S::Error: From<&'static str>,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.0.poll_ready(cx)
    }

    fn call(&mut self, req: Task<T>) -> Self::Future {
        if req.status() == Status::Killed {
            return Box::pin(async { Err(S::Error::from(DISCARDED)) });
        }
        Box::pin(self.0.call(req))
    }
}
