//! The workflow layer: one module per durable job (payload, handler, scheduling) and the
//! enqueue API the api calls inside its transactions. The `worker` binary runs them; a job is
//! registered with one line in `runtime.rs` (see docs/adding-a-job.md).

pub mod announcement_fanout;
pub mod batch;
pub mod booking_completion;
pub mod booking_events;
pub mod booking_reminders;
pub mod call_timeout;
pub mod cleanup;
pub mod context;
pub mod email;
pub mod group_sessions;
pub mod job;
pub mod metrics;
pub mod notification_fanout;
pub mod payment_reconciliation;
pub mod payout_batch;
mod poll;
pub mod queue;
pub mod refunds;
pub mod reservation_expiry;
pub mod retries;
pub mod runtime;
pub mod schedule;
pub mod supervision;
pub mod upload_cleanup;
pub mod wakeups;

pub use context::JobContext;
pub use job::{Job, Sweep};
pub use runtime::Settings;
