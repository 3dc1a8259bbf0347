//! Group video calls through the Janus VideoRoom SFU: who may join is decided here, media never
//! passes through us. The api makes one private room per live group session (secret, admin key and
//! token secret stay on the server), is the only client of Janus's API (it joins each member under
//! their own id on its [`gateway`] session, relaying browsers' SDP and candidates from `/api/ws`),
//! and moderates, so a muted participant's audio stops and a removed one cannot rejoin.

pub mod access;
pub mod gateway;
pub mod ids;
pub mod janus;
pub mod joins;
pub mod removals;
pub mod room;
pub mod tokens;

pub use gateway::{Gateway, GatewayEvent};
pub use janus::{JanusClient, JanusSettings};
