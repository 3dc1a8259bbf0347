//! A graceful restart of `api serve`: on SIGTERM the server stops accepting connections, requests
//! in flight get up to [`DRAIN_TIMEOUT`] to finish, and every WebSocket is closed with 1012
//! ("service restart") so clients reconnect, to another process behind the load balancer.

use std::{
    sync::atomic::{AtomicBool, AtomicUsize, Ordering},
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

/// How long the sockets get to finish the frame they are handling, send their close frames and
/// clean up before the server stops serving (a frame is handled in milliseconds; this bounds a
/// client that stopped reading).
pub const SOCKETS_CLOSE_TIMEOUT: Duration = Duration::from_secs(10);
const SOCKETS_CHECK_EVERY: Duration = Duration::from_millis(20);

static SHUTTING_DOWN: AtomicBool = AtomicBool::new(false);
/// Upgraded connections whose task has not finished: the server's graceful shutdown does not wait
/// for them (they left its connection tracking at the upgrade), so [`close_sockets`] does.
static SOCKET_TASKS: AtomicUsize = AtomicUsize::new(0);

/// This process is shutting down: sockets closed from now on say so.
pub fn begin() {
    SHUTTING_DOWN.store(true, Ordering::SeqCst);
}

/// Whether the process is shutting down: a socket registered from now on closes at once with 1012
/// (it may have missed [`Hub::close_all`]).
pub fn started() -> bool {
    SHUTTING_DOWN.load(Ordering::SeqCst)
}

/// Held by an upgraded connection's task from the upgrade until its clean-up is done.
pub struct SocketTask(());

impl SocketTask {
    pub fn start() -> Self {
        SOCKET_TASKS.fetch_add(1, Ordering::SeqCst);
        Self(())
    }
}

impl Drop for SocketTask {
    fn drop(&mut self) {
        SOCKET_TASKS.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Marks the process as shutting down and closes every socket with 1012, waiting (up to
/// [`SOCKETS_CLOSE_TIMEOUT`]) until each socket's task has sent its close frame and finished: once
/// the process exits, an upgraded connection is dropped without one (the client sees 1006).
pub async fn close_sockets(hub: &Hub) {
    begin();
    hub.close_all();
    let deadline = tokio::time::Instant::now() + SOCKETS_CLOSE_TIMEOUT;
    while SOCKET_TASKS.load(Ordering::SeqCst) > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(SOCKETS_CHECK_EVERY).await;
    }
    let left = SOCKET_TASKS.load(Ordering::SeqCst);
    if left > 0 {
        tracing::warn!(sockets = left, "sockets still open after the drain; dropping them");
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
        assert_eq!(super::SOCKETS_CLOSE_TIMEOUT.as_secs(), 10);
        assert!(!super::started());
        assert_eq!(u16::from(super::close_frame().0), 1008);
        super::begin();
        assert!(super::started());
        assert_eq!(u16::from(super::close_frame().0), 1012);
    }
}
