//! The worker's job metrics, recorded through the `metrics` facade (the worker process installs
//! the Prometheus exporter; without one they cost nothing):
//! `jobs_completed_total{queue,outcome}` (`succeeded` or `failed`, one per attempt),
//! `job_duration_seconds{queue}` and `payout_batch_last_success_timestamp_seconds`.

use std::{
    future::Future,
    pin::Pin,
    task::{Context, Poll},
    time::Instant,
};

use apalis::prelude::Task;
use tower::{Layer, Service};
use tracing::Instrument;

use domain::{job_queue::Job, payouts::jobs::RunPayouts};

/// Seconds: the buckets of `job_duration_seconds`.
pub const JOB_DURATION_BUCKETS: [f64; 12] = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 60.0];

/// Records every attempt of a queue's tasks, each in a `task` span (`task_id`, `queue`).
#[derive(Clone, Copy, Debug)]
pub struct MeteredLayer {
    queue: &'static str,
}

impl MeteredLayer {
    pub fn new(queue: &'static str) -> Self {
        Self { queue }
    }
}

impl<S> Layer<S> for MeteredLayer {
    type Service = Metered<S>;

    fn layer(&self, inner: S) -> Self::Service {
        Metered {
            inner,
            queue: self.queue,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Metered<S> {
    inner: S,
    queue: &'static str,
}

impl<S, T> Service<Task<T>> for Metered<S>
where
    S: Service<Task<T>>,
    S::Future: Send + 'static,
{
    type Response = S::Response;
    type Error = S::Error;
    type Future = Pin<Box<dyn Future<Output = Result<S::Response, S::Error>> + Send>>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: Task<T>) -> Self::Future {
        let queue = self.queue;
        let task_id = req.ctx().task_id().map(ToString::to_string).unwrap_or_default();
        // Every line the try causes carries the task and its queue (`LOG_FORMAT=json`: in `spans`).
        let span = tracing::info_span!("task", task_id, queue, attempt = req.ctx().attempt());
        let started = Instant::now();
        let attempt = span.in_scope(|| self.inner.call(req));
        Box::pin(
            async move {
                let result = attempt.await;
                record(queue, result.is_ok(), started.elapsed().as_secs_f64());
                result
            }
            .instrument(span),
        )
    }
}

/// One attempt of a task of `queue` ended.
pub fn record(queue: &'static str, succeeded: bool, seconds: f64) {
    let outcome = if succeeded { "succeeded" } else { "failed" };
    metrics::counter!("jobs_completed_total", "queue" => queue, "outcome" => outcome).increment(1);
    metrics::histogram!("job_duration_seconds", "queue" => queue).record(seconds);
    if succeeded && queue == RunPayouts::QUEUE {
        let now = chrono::Utc::now().timestamp_millis() as f64 / 1000.0;
        metrics::gauge!("payout_batch_last_success_timestamp_seconds").set(now);
    }
}
