//! Shared by the api and the worker: configuration, database access, business rules, mail.

pub mod accounts;
pub mod config;
pub mod db;
pub mod error;
pub mod mail;
pub mod rate_limit;
pub mod tokens;

pub use config::Config;
pub use error::{Error, Result};
