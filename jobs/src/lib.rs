//! Running durable jobs. Two halves: how jobs run, whatever they do (`runner/`: each queue's
//! worker, wake-ups, supervision, batches, cron loops, limits), and what each job does (one
//! module per job with its [`Handler`]). What a job is (its payload, queue, attempts, key and
//! when it is queued) is declared in `domain` next to the code that queues it, and listed once in
//! `domain::every_job!`; the registry makes the workers from that list (docs/adding-a-job.md).

pub mod context;
pub mod handler;
mod registry;
pub mod runner;

pub mod account_removal;
pub mod announcement_fanout;
pub mod booking_completion;
pub mod booking_reminders;
pub mod calendar_sync;
pub mod calendar_writeback;
pub mod call_timeout;
pub mod cleanup;
pub mod data_export;
pub mod email;
pub mod group_sessions;
pub mod notification_fanout;
pub mod payment_reconciliation;
pub mod payout_batch;
pub mod presence;
pub mod readings;
pub mod refunds;
pub mod reservation_expiry;
pub mod upload_cleanup;
pub mod wallet;
pub mod web_push;

pub use context::JobContext;
pub use handler::Handler;
pub use registry::{QUEUES, monitor, monitor_with, schedules, set_aside_undecodable, spawn_schedules, sweeps};
pub use runner::Settings;
