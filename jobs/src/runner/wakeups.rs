//! Waking a queue's worker when it has work, so idle queues need not poll often.
//!
//! One listener and one probe per worker process serve every queue:
//! - apalis' trigger announces each task inserted due now on [`NOTIFY_CHANNEL`]; the listener
//!   rings that queue's [`Bell`] at once.
//! - Every [`PROBE_EVERY`] a single query over all queues finds each queue's next task. A queue
//!   with one due is rung (a notification lost while reconnecting or during a fetch already in
//!   flight, a failed task with tries left, one re-queued after its worker died); one due within
//!   [`PROBE_HORIZON`] gets a timer that rings it at its `run_at` (holds, reminders: apalis
//!   announces none of those).
//! - Each queue still polls on its own every `Settings::poll_every`, a safety net.
//!
//! The tasks stop when the last [`Wakeups`] handle is dropped (with the workers that hold it).

use std::{
    collections::HashMap,
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use futures::task::AtomicWaker;
use sqlx::{PgPool, postgres::PgListener};
use tokio::{sync::watch, time::Instant};

/// apalis' channel for tasks inserted due now (payload `{"job_type", "id", "run_at"}`).
pub const NOTIFY_CHANNEL: &str = "apalis::job::insert";
/// How often one query looks for due and soon-due tasks in every queue.
pub const PROBE_EVERY: Duration = Duration::from_millis(500);
/// A task due within this time gets a timer; longer than [`PROBE_EVERY`], so every task
/// scheduled further ahead than one probe is seen by a probe before it falls due.
pub const PROBE_HORIZON: Duration = Duration::from_millis(1_000);
const _: () = assert!(
    PROBE_HORIZON.as_millis() > PROBE_EVERY.as_millis(),
    "the probe looks further ahead than its period"
);
/// The pause before listening again after the listener failed.
pub const RELISTEN_AFTER: Duration = Duration::from_secs(1);

/// Rung when a queue has work; its worker's poll strategy waits on it.
#[derive(Default)]
pub struct Bell {
    rung: AtomicBool,
    waker: AtomicWaker,
}

impl Bell {
    pub fn ring(&self) {
        self.rung.store(true, Ordering::Release);
        self.waker.wake();
    }

    /// Wakes `waker` at the next ring from now on.
    pub fn register(&self, waker: &std::task::Waker) {
        self.waker.register(waker);
    }

    /// Whether it rang since the last call.
    pub fn take(&self) -> bool {
        self.rung.swap(false, Ordering::AcqRel)
    }
}

type Bells = Arc<HashMap<String, Arc<Bell>>>;

/// The bells of one process's queues, rung by its listener and probe.
#[derive(Clone)]
pub struct Wakeups {
    bells: Bells,
    /// Dropping the last handle drops the sender, which stops the listener and the probe.
    _stop: Arc<watch::Sender<()>>,
}

impl Wakeups {
    /// Starts the listener and the probe for `queues` (needs a Tokio runtime).
    pub fn start(pool: &PgPool, queues: &[&str]) -> Self {
        let bells: Bells = Arc::new(queues.iter().map(|q| (q.to_string(), Arc::default())).collect());
        let (stop, stopped) = watch::channel(());
        tokio::spawn(listen(pool.clone(), bells.clone(), stopped.clone()));
        tokio::spawn(probe(pool.clone(), bells.clone(), stopped));
        Self {
            bells,
            _stop: Arc::new(stop),
        }
    }

    /// The bell of `queue`; a queue not started with gets one that never rings.
    pub fn bell(&self, queue: &str) -> Arc<Bell> {
        self.bells.get(queue).cloned().unwrap_or_default()
    }
}

fn ring(bells: &Bells, queue: &str) {
    if let Some(bell) = bells.get(queue) {
        bell.ring();
    }
}

#[derive(serde::Deserialize)]
struct Inserted {
    job_type: String,
}

async fn listen(pool: PgPool, bells: Bells, mut stopped: watch::Receiver<()>) {
    loop {
        let failure = tokio::select! {
            _ = stopped.changed() => return,
            failure = listen_until_failure(&pool, &bells) => failure,
        };
        if matches!(failure, sqlx::Error::PoolClosed) {
            return;
        }
        tracing::warn!(error = %failure, "job wake-up listener failed; queues rely on the probe until it listens again");
        tokio::select! {
            _ = stopped.changed() => return,
            _ = tokio::time::sleep(RELISTEN_AFTER) => {}
        }
    }
}

async fn listen_until_failure(pool: &PgPool, bells: &Bells) -> sqlx::Error {
    let mut listener = match PgListener::connect_with(pool).await {
        Ok(l) => l,
        Err(err) => return err,
    };
    if let Err(err) = listener.listen(NOTIFY_CHANNEL).await {
        return err;
    }
    loop {
        match listener.try_recv().await {
            Ok(Some(notification)) => {
                if let Ok(inserted) = serde_json::from_str::<Inserted>(notification.payload()) {
                    ring(bells, &inserted.job_type);
                }
            }
            // Reconnected: whatever was announced meanwhile is lost, so look now.
            Ok(None) => bells.values().for_each(|b| b.ring()),
            Err(err) => return err,
        }
    }
}

async fn probe(pool: PgPool, bells: Bells, mut stopped: watch::Receiver<()>) {
    let queues: Vec<String> = bells.keys().cloned().collect();
    let mut every = tokio::time::interval(PROBE_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let mut timers = Timers::default();
    loop {
        let next_timer = timers.next();
        tokio::select! {
            _ = stopped.changed() => return,
            _ = every.tick() => match next_due(&pool, &queues).await {
                Ok(rows) => {
                    let now = Instant::now();
                    for (queue, due_in) in rows {
                        if due_in <= 0.0 {
                            ring(&bells, &queue);
                        } else {
                            timers.set(queue, now + Duration::from_secs_f64(due_in) + TIMER_SLACK);
                        }
                    }
                }
                Err(sqlx::Error::PoolClosed) => return,
                Err(err) => tracing::warn!(error = %err, "job wake-up probe failed"),
            },
            _ = sleep_until_some(next_timer) => {
                for queue in timers.take_due(Instant::now()) {
                    ring(&bells, &queue);
                }
            }
        }
    }
}

/// Past `run_at` by the database's clock too (apalis fetches `run_at < now()`).
const TIMER_SLACK: Duration = Duration::from_millis(2);

async fn next_due(pool: &PgPool, queues: &[String]) -> sqlx::Result<Vec<(String, f64)>> {
    domain::job_queue::tasks::next_due(pool, queues, PROBE_HORIZON).await
}

async fn sleep_until_some(at: Option<Instant>) {
    match at {
        Some(at) => tokio::time::sleep_until(at).await,
        None => std::future::pending().await,
    }
}

/// When to ring each queue whose next task is scheduled soon.
#[derive(Default)]
struct Timers(HashMap<String, Instant>);

impl Timers {
    /// The latest probe knows best (another worker may have taken the task meanwhile).
    fn set(&mut self, queue: String, at: Instant) {
        self.0.insert(queue, at);
    }

    fn next(&self) -> Option<Instant> {
        self.0.values().min().copied()
    }

    fn take_due(&mut self, now: Instant) -> Vec<String> {
        let due: Vec<String> = self
            .0
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(q, _)| q.clone())
            .collect();
        for queue in &due {
            self.0.remove(queue);
        }
        due
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bell_remembers_one_ring_until_taken() {
        let bell = Bell::default();
        assert!(!bell.take());
        bell.ring();
        bell.ring();
        assert!(bell.take());
        assert!(!bell.take());
    }

    #[test]
    fn timers_ring_each_queue_once_when_due() {
        let now = Instant::now();
        let mut timers = Timers::default();
        timers.set("a".into(), now + Duration::from_millis(10));
        timers.set("b".into(), now + Duration::from_millis(30));
        timers.set("a".into(), now + Duration::from_millis(20));
        assert_eq!(timers.next(), Some(now + Duration::from_millis(20)));
        assert!(timers.take_due(now).is_empty());
        assert_eq!(timers.take_due(now + Duration::from_millis(25)), ["a"]);
        assert_eq!(timers.next(), Some(now + Duration::from_millis(30)));
    }
}
