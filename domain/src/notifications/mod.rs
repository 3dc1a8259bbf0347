//! In-app notifications: sent by business rules, read and dismissed by their owner.
//!
//! A rule never writes a notification itself: [`notify`] queues a [`FanOut`] task in the rule's
//! transaction (so the notice exists if and only if its cause commits), and the worker's fan-out
//! job [`write`]s the rows in batches and pushes each one live to its recipient's sockets.

mod fan_out;
mod kinds;
mod store;

pub use fan_out::{FAN_OUT_MAX_ATTEMPTS, FAN_OUT_QUEUE, FanOut, PushSpec, Recipient, notify, notify_many, write};
pub use kinds::Kind;
pub use store::{
    DEFAULT_LIMIT, MAX_LIMIT, NOT_FOUND, Notification, delete, latest, mark_all_read, mark_read, unread_count,
};
