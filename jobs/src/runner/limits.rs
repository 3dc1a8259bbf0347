//! How much the runner takes and runs at once: a leaf every part of the runner and every job reads.

use domain::job_queue::Job;

/// Tasks one fetch takes (and one acknowledgement statement completes) at most: large enough
/// that one worker works through a backlog at 13,000 to 16,000 no-op tasks a second on the 2-core
/// machine (measured by `tools bench-jobs`; 4,200 with 500).
pub const FETCH_BATCH: usize = 2000;
/// Tasks of one queue that run at once in one worker process unless its job is batched
/// (`Job::BATCHED`): a fetched batch is worked through this many at a time, below the worker's
/// database pool (a batch of 2,000 handlers at once, each with a connection of its own, would wait
/// for its 11 connections past their acquire timeout).
pub const MAX_RUNNING_PER_QUEUE: usize = 8;
/// Tasks in one batch at most (one statement's array, one transaction): a whole fetch.
pub const MAX_BATCH: usize = FETCH_BATCH;
/// Tasks of a batched queue that run at once in one worker process: they wait on their batch,
/// not on a connection of their own, so all of a fetch may.
pub const BATCHED_CONCURRENCY: usize = FETCH_BATCH;

/// Tasks of `J`'s queue that run at once in one worker process.
pub const fn concurrency<J: Job>() -> usize {
    if J::BATCHED {
        BATCHED_CONCURRENCY
    } else {
        MAX_RUNNING_PER_QUEUE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetch_is_two_thousand_tasks_and_eight_run_at_once_unless_batched() {
        assert_eq!(FETCH_BATCH, 2000);
        assert_eq!(MAX_RUNNING_PER_QUEUE, 8);
        assert_eq!(MAX_BATCH, FETCH_BATCH);
        assert_eq!(BATCHED_CONCURRENCY, FETCH_BATCH);
    }
}
