//! The real-time channel at `GET /api/ws`: one WebSocket per signed-in browser tab.
//!
//! Each api process keeps its own sockets in a [`Hub`]; events reach them from every process
//! through PostgreSQL LISTEN/NOTIFY ([`listener`]), published by `domain::realtime::publish`
//! inside the transaction that stores their cause. The frames both ways are
//! `domain::realtime::protocol`'s `ServerEvent` and `ClientEvent`.

pub mod batch;
mod handlers;
pub mod hub;
pub mod listener;
pub mod seats;
pub mod socket;
pub mod throttle;

pub use hub::Hub;
