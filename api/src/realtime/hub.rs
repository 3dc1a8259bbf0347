//! This process's sockets by user: who is connected here, through which session, and the queue
//! of frames each socket's task writes out.

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
};

use domain::{Result, messaging::messages::Outgoing, realtime::Envelope};
use sqlx::PgPool;
use tokio::sync::{Notify, mpsc};
use uuid::Uuid;

use super::batch::{self, Batcher};

/// Frames waiting for one socket; a client this far behind is disconnected (it reloads on reconnect).
pub const OUTBOX_FRAMES: usize = 256;

/// One connected socket as the hub sees it.
#[derive(Clone)]
pub struct Entry {
    pub socket: Uuid,
    /// Hex SHA-256 of the session token (as the sessions-ended trigger sends it).
    pub session: String,
    pub outbox: mpsc::Sender<String>,
    /// Told to close the socket (session ended, too slow, shutting down).
    pub close: Arc<Notify>,
    /// When it was registered here.
    pub opened_at: chrono::DateTime<chrono::Utc>,
}

/// At most this many socket frames use the database at once in one api process; the others
/// wait their turn in the process instead of timing out on the pool (which HTTP shares), so an
/// overload queues frames rather than failing them.
pub const DATABASE_FRAMES_AT_ONCE: usize = 8;
const _: () = assert!(
    DATABASE_FRAMES_AT_ONCE * 2 <= crate::POOL_SIZE as usize,
    "socket frames leave at least half of the pool to HTTP"
);
const _: () = assert!(batch::BATCHES_AT_ONCE <= DATABASE_FRAMES_AT_ONCE);

/// The server pings every socket this often, and marks this process's sockets alive as often.
pub const PING_EVERY: std::time::Duration = std::time::Duration::from_secs(30);

pub struct Hub {
    users: RwLock<HashMap<Uuid, Vec<Entry>>>,
    database_turns: Arc<tokio::sync::Semaphore>,
    /// Chat messages from this process's sockets on their way to the database, in batches.
    batcher: Batcher,
}

impl Default for Hub {
    fn default() -> Self {
        Self {
            users: RwLock::default(),
            database_turns: Arc::new(tokio::sync::Semaphore::new(DATABASE_FRAMES_AT_ONCE)),
            batcher: Default::default(),
        }
    }
}

impl Hub {
    pub fn new() -> Self {
        Self::default()
    }

    /// Waits for a turn at the database for one socket frame; the turn ends when dropped.
    pub async fn database_turn(&self) -> tokio::sync::SemaphorePermit<'_> {
        self.database_turns
            .acquire()
            .await
            .expect("the semaphore is never closed")
    }

    /// A turn at the database that can move to another task (a batch of chat messages).
    pub async fn owned_database_turn(&self) -> tokio::sync::OwnedSemaphorePermit {
        self.database_turns
            .clone()
            .acquire_owned()
            .await
            .expect("the semaphore is never closed")
    }

    /// Stores a chat message from one of this process's sockets in the next batch ([`batch`]);
    /// each batch takes a turn at the database.
    pub async fn send_message(
        &self,
        pool: &PgPool,
        user: Uuid,
        socket: Uuid,
        conversation: Uuid,
        outgoing: Outgoing,
    ) -> Result<()> {
        let turns = &self.database_turns;
        self.batcher
            .send(pool, turns, user, socket, conversation, outgoing)
            .await
    }

    pub fn register(&self, user: Uuid, entry: Entry) {
        self.users
            .write()
            .expect("hub lock")
            .entry(user)
            .or_default()
            .push(entry);
    }

    pub fn unregister(&self, user: Uuid, socket: Uuid) {
        let mut users = self.users.write().expect("hub lock");
        if let Some(entries) = users.get_mut(&user) {
            entries.retain(|e| e.socket != socket);
            if entries.is_empty() {
                users.remove(&user);
            }
        }
    }

    /// Whether `user` has a socket here.
    pub fn is_connected(&self, user: Uuid) -> bool {
        self.users.read().expect("hub lock").contains_key(&user)
    }

    /// Hands an event to the local sockets it is addressed to.
    pub fn deliver(&self, envelope: &Envelope) -> usize {
        self.deliver_where(envelope, |_| true)
    }

    /// Hands an event to the local sockets it is addressed to that `keep` accepts.
    pub fn deliver_where(&self, envelope: &Envelope, keep: impl Fn(&Entry) -> bool) -> usize {
        let text = envelope.frame();
        let users = self.users.read().expect("hub lock");
        let mut delivered = 0;
        for user in &envelope.to {
            for entry in users.get(user).into_iter().flatten() {
                if envelope.socket.is_some_and(|s| s != entry.socket)
                    || envelope.except_socket == Some(entry.socket)
                    || !keep(entry)
                {
                    continue;
                }
                if entry.outbox.try_send(text.clone()).is_ok() {
                    delivered += 1;
                } else {
                    tracing::warn!(socket = %entry.socket, "socket too far behind; closing it");
                    entry.close.notify_one();
                }
            }
        }
        delivered
    }

    /// Closes every socket of the given sessions (hex token digests).
    pub fn end_sessions(&self, digests: &[String]) -> usize {
        let users = self.users.read().expect("hub lock");
        let mut closed = 0;
        for entry in users.values().flatten().filter(|e| digests.contains(&e.session)) {
            entry.close.notify_one();
            closed += 1;
        }
        closed
    }

    /// Closes one socket (its client reconnects).
    pub fn close_socket(&self, socket: Uuid) {
        for entry in self.users.read().expect("hub lock").values().flatten() {
            if entry.socket == socket {
                entry.close.notify_one();
            }
        }
    }

    pub fn close_all(&self) {
        for entry in self.users.read().expect("hub lock").values().flatten() {
            entry.close.notify_one();
        }
    }

    /// The ids of every socket on this process.
    pub fn socket_ids(&self) -> Vec<Uuid> {
        self.users
            .read()
            .expect("hub lock")
            .values()
            .flatten()
            .map(|e| e.socket)
            .collect()
    }

    pub fn sockets(&self) -> usize {
        self.users.read().expect("hub lock").values().map(Vec::len).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use domain::realtime::{ServerEvent, protocol::Empty};

    #[tokio::test]
    async fn frames_take_turns_at_the_database_leaving_the_pool_room_for_http() {
        let hub = Hub::new();
        let mut turns = Vec::new();
        for _ in 0..DATABASE_FRAMES_AT_ONCE {
            turns.push(hub.database_turn().await);
        }
        assert!(hub.database_turns.try_acquire().is_err(), "the next frame waits");
        turns.pop();
        assert!(hub.database_turns.try_acquire().is_ok());
    }

    fn entry(session: &str) -> (Entry, mpsc::Receiver<String>) {
        let (tx, rx) = mpsc::channel(OUTBOX_FRAMES);
        (
            Entry {
                socket: Uuid::new_v4(),
                session: session.into(),
                outbox: tx,
                close: Arc::new(Notify::new()),
                opened_at: chrono::Utc::now(),
            },
            rx,
        )
    }

    #[tokio::test]
    async fn events_reach_the_addressed_sockets_only() {
        let hub = Hub::new();
        let (alice, bob) = (Uuid::new_v4(), Uuid::new_v4());
        let (a1, mut a1_rx) = entry("s1");
        let (a2, mut a2_rx) = entry("s2");
        let (b1, mut b1_rx) = entry("s3");
        let (a1_id, a2_id) = (a1.socket, a2.socket);
        hub.register(alice, a1);
        hub.register(alice, a2);
        hub.register(bob, b1);

        let pong = || ServerEvent::Pong(Empty {});
        let everyone = Envelope::to_users(vec![alice, bob], pong());
        assert_eq!(hub.deliver(&everyone), 3);
        assert_eq!(a1_rx.recv().await.unwrap(), r#"{"data":{},"event":"pong"}"#);
        a2_rx.recv().await.unwrap();
        b1_rx.recv().await.unwrap();

        let one = Envelope {
            socket: Some(a2_id),
            ..Envelope::to_users(vec![alice], pong())
        };
        assert_eq!(hub.deliver(&one), 1);
        assert!(a2_rx.try_recv().is_ok() && a1_rx.try_recv().is_err());

        let others = Envelope {
            except_socket: Some(a1_id),
            ..Envelope::to_users(vec![alice], pong())
        };
        assert_eq!(hub.deliver(&others), 1);
        assert!(a2_rx.try_recv().is_ok() && a1_rx.try_recv().is_err());

        assert_eq!(hub.end_sessions(&["s2".into(), "zz".into()]), 1);
        hub.unregister(alice, a1_id);
        hub.unregister(alice, a2_id);
        assert_eq!(hub.sockets(), 1);
        assert_eq!(hub.deliver(&Envelope::to_users(vec![alice], pong())), 0);
    }
}
