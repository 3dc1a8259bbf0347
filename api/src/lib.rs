//! The HTTP API: poem + poem-openapi handlers grouped by area, guards, sessions, and the web app.

/// Database connections of one serving api process; HTTP requests and socket frames share them.
pub const POOL_SIZE: u32 = 20;

pub mod app;
pub mod auth;
pub mod catalogue_cache;
pub mod error;
pub mod guard;
pub mod metrics;
pub mod realtime;
pub mod replica;
pub mod request_id;
pub mod routes;
pub mod security_headers;
pub mod shutdown;
pub mod socket;
pub mod state;
pub mod views;
pub mod web;
