//! The workflow layer: one module per durable job (payload, handler, scheduling) and the
//! enqueue API the api calls inside its transactions. The `worker` binary runs them.

pub mod booking_completion;
pub mod booking_events;
pub mod booking_reminders;
pub mod cleanup;
pub mod email;
pub mod payment_reconciliation;
mod poll;
pub mod queue;
pub mod refunds;
pub mod reservation_expiry;
pub mod runtime;
pub mod schedule;
pub mod supervision;
pub mod upload_cleanup;

pub use runtime::{JobContext, Settings};
