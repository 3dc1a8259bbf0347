//! The HTTP API: poem + poem-openapi handlers grouped by area, guards, sessions, and the web app.

pub mod app;
pub mod auth;
pub mod catalogue_cache;
pub mod error;
pub mod guard;
pub mod metrics;
pub mod realtime;
pub mod request_id;
pub mod routes;
pub mod security_headers;
pub mod seed;
pub mod shutdown;
pub mod state;
