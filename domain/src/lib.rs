//! Shared by the api and the worker: configuration, database access, business rules, mail.

/// The product's name in every mail, calendar and authenticator app.
pub const PRODUCT_NAME: &str = "Mystic Mentors";

#[macro_use]
mod closed_set;
pub mod choice;

pub mod accounts;
pub mod admin;
pub mod announcements;
pub mod audit;
pub mod booking;
pub mod calendars;
pub mod calls;
pub mod catalogue;
pub mod complaints;
pub mod config;
pub mod contact;
pub mod db;
pub mod error;
pub mod group_calls;
pub mod group_sessions;
pub mod job_queue;
pub mod jobs;
pub mod logging;
pub mod mail;
pub mod messaging;
pub mod metrics_access;
pub mod money;
pub mod notifications;
pub mod ownership;
pub mod paging;
pub mod payments;
pub mod payouts;
pub mod presence;
pub mod public_address;
pub mod push;
pub mod rate_limit;
pub mod readings;
pub mod realtime;
pub mod receipts;
pub mod refunds;
pub mod replication;
pub mod report_context;
pub mod reports;
pub mod secrets;
pub mod sql;
pub mod statuses;
pub mod text;
pub mod time_format;
pub mod time_zones;
pub mod tokens;
pub mod uploads;
pub mod wallet;

pub use config::Config;
pub use error::{Error, Result};
