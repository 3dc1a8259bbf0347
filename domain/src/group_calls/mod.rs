//! Group video calls through the Janus VideoRoom SFU: who may join is decided here, media never
//! passes through us. The api makes one room per live group session (secret and admin key stay on
//! the server), hands each admitted caller short-lived signed tokens, and moderates through
//! Janus's HTTP API, so a muted participant's audio stops and a removed one cannot rejoin.

pub mod access;
pub mod ids;
pub mod janus;
pub mod removals;
pub mod room;
pub mod tokens;

pub use janus::{JanusClient, JanusSettings};
