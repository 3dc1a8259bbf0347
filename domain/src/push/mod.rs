//! Web Push (RFC 8030 delivery, RFC 8291 encryption, RFC 8292 VAPID): the browsers users
//! subscribed, what they want pushed, and sending. docs/push.md is the contract.
//!
//! A push is queued in the transaction of its cause, one task per browser ([`queue`]): the
//! notification fan-out queues the pushes of the notifications it writes
//! (`notifications::Kind::push` says which), calls queue their own ([`queue_to_user`]). The
//! worker's `web_push` queue sends each ([`send::deliver`]).

pub mod keys;
mod kinds;
pub mod preferences;
mod queue;
pub mod send;
pub mod subscriptions;

pub use kinds::{
    CALL_ENDED_TTL_SECONDS, CALL_TTL_SECONDS, GROUP_STARTED_TTL_SECONDS, ONE_DAY_SECONDS, Preference, PushKind,
    READING_REQUEST_TTL_SECONDS, REMINDER_TTL_SECONDS, Rules, Urgency,
};
pub use queue::{
    ForUser, MAX_ATTEMPTS, PushContent, PushTask, QUEUE, SOCKET_STALE_AFTER_SECONDS, queue, queue_to_user, topic_of,
};
