//! Shared by the api and the worker: configuration, database access, business rules, mail.

#[macro_use]
mod closed_set;
pub mod choice;

pub mod accounts;
pub mod admin;
pub mod announcements;
pub mod audit;
pub mod booking;
pub mod calls;
pub mod catalogue;
pub mod config;
pub mod contact;
pub mod db;
pub mod error;
pub mod group_calls;
pub mod group_sessions;
pub mod job_queue;
pub mod logging;
pub mod mail;
pub mod messaging;
pub mod money;
pub mod notifications;
pub mod payments;
pub mod payouts;
pub mod rate_limit;
pub mod realtime;
pub mod reports;
pub mod statuses;
pub mod text;
pub mod time_zones;
pub mod tokens;
pub mod uploads;

pub use config::Config;
pub use error::{Error, Result};
