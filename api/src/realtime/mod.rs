//! This process's side of the real-time channel: its sockets in a [`Hub`], the events of every
//! process reaching them through PostgreSQL LISTEN/NOTIFY ([`listener`], published by
//! `domain::realtime::publish` inside the transaction that stores their cause), chat messages
//! stored in batches ([`batch`]) and seats in group calls ([`seats`]). The endpoint at
//! `GET /api/ws` and what each client event does are `crate::socket`.

pub mod batch;
pub mod hub;
pub mod listener;
pub mod seats;

pub use hub::Hub;
