//! Keeping every queue's worker alive, and telling operators how each queue is doing.
//!
//! A queue's worker ends when its storage hands it a row it cannot decode (a task id that is not
//! a ULID, say). The monitor restarts it after a growing pause ([`restart_delay`]); before the
//! restarted worker polls, the supervisor sets such rows aside as failed, so one bad row cannot
//! stop a queue. What happened is kept in `job_queue_health` for `/api/health`
//! (`domain::job_queue::health`).

use std::time::Duration;

use sqlx::PgPool;

/// The first restart waits this long; each further one twice as long, up to [`MAX_RESTART_DELAY`].
pub const FIRST_RESTART_DELAY: Duration = Duration::from_secs(1);
/// Short enough that a queue resumes soon after a database outage ends.
pub const MAX_RESTART_DELAY: Duration = Duration::from_secs(10);

/// The pause before the `restarts`-th restart (none before the first start).
pub fn restart_delay(restarts: usize) -> Duration {
    if restarts == 0 {
        return Duration::ZERO;
    }
    let factor = 1u32 << (restarts - 1).min(16);
    FIRST_RESTART_DELAY.saturating_mul(factor).min(MAX_RESTART_DELAY)
}

/// The queue a worker serves, from the name `runner::worker_name` gives it.
pub fn queue_of(worker_name: &str) -> &str {
    worker_name.split_once('@').map_or(worker_name, |(queue, _)| queue)
}

/// What a set-aside task's last result says; the job console knows it by its beginning.
pub const SET_ASIDE_REASON: &str = "set aside: the task id is not a ULID, so no worker can decode it";

/// Marks rows of `queue` that no worker can decode as failed for good; returns how many.
pub async fn set_aside_undecodable(pool: &PgPool, queue: &str) -> sqlx::Result<u64> {
    domain::job_queue::tasks::set_aside_undecodable(pool, queue, SET_ASIDE_REASON).await
}

/// Called when a queue's worker ended with an error: sets bad rows aside and records it.
pub async fn worker_failed(pool: &PgPool, queue: &str, error: &str) {
    let set_aside = match set_aside_undecodable(pool, queue).await {
        Ok(n) => n,
        Err(err) => {
            tracing::error!(queue, error = %err, "could not set undecodable tasks aside");
            0
        }
    };
    let recorded = domain::job_queue::health::record_failure(pool, queue, error, set_aside as i32).await;
    if let Err(err) = recorded {
        tracing::error!(queue, error = %err, "could not record a worker failure");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn restarts_back_off_up_to_a_minute() {
        assert_eq!(restart_delay(0), Duration::ZERO);
        assert_eq!(restart_delay(1), Duration::from_secs(1));
        assert_eq!(restart_delay(2), Duration::from_secs(2));
        assert_eq!(restart_delay(4), Duration::from_secs(8));
        assert_eq!(restart_delay(5), Duration::from_secs(10));
        assert_eq!(restart_delay(10_000), Duration::from_secs(10));
    }

    #[test]
    fn the_console_knows_set_aside_tasks() {
        assert!(SET_ASIDE_REASON.starts_with(domain::admin::jobs::SET_ASIDE_PREFIX));
    }

    #[test]
    fn worker_names_carry_their_queue() {
        assert_eq!(queue_of("refunds@123-abc"), "refunds");
        assert_eq!(queue_of("plain"), "plain");
    }
}
