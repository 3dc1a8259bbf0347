//! A graceful restart of `api serve`: on SIGTERM the server stops accepting connections, requests
//! in flight get up to [`DRAIN_TIMEOUT`] to finish, and every WebSocket is closed with 1012
//! ("service restart") so clients reconnect, to another process behind the load balancer.

use std::{
    sync::atomic::{AtomicBool, Ordering},
    time::Duration,
};

use poem::web::websocket::CloseCode;

use crate::realtime::hub::Hub;

mod draining;
pub use draining::{Draining, READ_GRACE};

/// How long requests in flight may take to finish after SIGTERM.
pub const DRAIN_TIMEOUT: Duration = Duration::from_secs(20);
/// The close frame's reason when the process restarts.
pub const RESTART_REASON: &str = "Server restarting";
/// The close frame's reason when the socket's session ended (logout, password change, deactivation).
pub const SESSION_ENDED_REASON: &str = "Session ended";

/// How long the sockets get to send their close frames before the server stops serving.
pub const SOCKETS_CLOSE_TIMEOUT: Duration = Duration::from_secs(2);
const SOCKETS_CHECK_EVERY: Duration = Duration::from_millis(20);

static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);

/// This process is shutting down: sockets closed from now on say so.
pub fn begin() {
    SHUTTING_DOWN.store(true, Ordering::SeqCst);
}

/// Marks the process as shutting down and closes every socket with 1012, waiting (up to
/// [`SOCKETS_CLOSE_TIMEOUT`]) until each has sent its close frame: once the server stops serving,
/// an upgraded connection is dropped without one.
pub async fn close_sockets(hub: &Hub) {
    begin();
    hub.close_all();
    let deadline = tokio::time::Instant::now() + SOCKETS_CLOSE_TIMEOUT;
    while !hub.socket_ids().is_empty() && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(SOCKETS_CHECK_EVERY).await;
    }
}

/// The close frame of a socket the server closes: 1012 while shutting down, else the session ended.
pub fn close_frame() -> (CloseCode, &'static str) {
    if SHUTTING_DOWN.load(Ordering::SeqCst) {
        (CloseCode::Restart, RESTART_REASON)
    } else {
        (CloseCode::Policy, SESSION_ENDED_REASON)
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn restarts_close_with_1012() {
        assert_eq!(super::DRAIN_TIMEOUT.as_secs(), 20);
        assert_eq!(u16::from(super::close_frame().0), 1008);
        super::begin();
        assert_eq!(u16::from(super::close_frame().0), 1012);
    }
}
