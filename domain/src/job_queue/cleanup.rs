//! The daily cleanup of what has expired (the worker's `jobs::cleanup` says what goes).

/// The cleanup's queue; never rename it (queued tasks keep the old one).
pub const QUEUE: &str = "cleanup";
/// Every day at 03:30 UTC.
pub const SCHEDULE: &str = "0 30 3 * * *";

crate::sweep!(
    /// One cleanup run per tick of [`SCHEDULE`].
    Cleanup, queue: QUEUE, schedule: SCHEDULE
);
