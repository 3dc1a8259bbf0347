//! Chat messages sent over sockets are stored in batches: one task per api process takes every
//! `sendMessage` waiting at that moment (up to [`MAX_BATCH`]) into one transaction, so a busy
//! database gets fewer, larger commits without any timer. How a sender hears of its message and
//! what happens when a batch fails: docs/architecture.md ("Real-time").

use std::sync::{Arc, OnceLock};

use sqlx::PgPool;
use tokio::sync::{Semaphore, mpsc, oneshot};
use uuid::Uuid;

use domain::{
    Error, Result,
    messaging::messages::{self, Batched, Outgoing},
};

/// At most this many messages are stored in one transaction.
pub const MAX_BATCH: usize = 256;
/// Batches of one api process in flight at once (each also takes a turn at the database).
pub const BATCHES_AT_ONCE: usize = 2;

/// One socket's message waiting for its batch.
struct Pending {
    user: Uuid,
    socket: Uuid,
    conversation: Uuid,
    outgoing: Outgoing,
    done: oneshot::Sender<Result<()>>,
}

/// The queue into this process's batching task (started by the first message).
#[derive(Default)]
pub struct Batcher {
    queue: OnceLock<mpsc::UnboundedSender<Pending>>,
}

impl Batcher {
    /// Stores `outgoing` from `user`'s `socket` in the next batch, each batch taking one of
    /// `turns` (the hub's turns at the database); returns once it is committed (or refused). Its
    /// `messageReceived` reaches both parties through the listener after the commit.
    pub async fn send(
        &self,
        pool: &PgPool,
        turns: &Arc<Semaphore>,
        user: Uuid,
        socket: Uuid,
        conversation: Uuid,
        outgoing: Outgoing,
    ) -> Result<()> {
        let queue = self.queue.get_or_init(|| {
            let (queue, waiting) = mpsc::unbounded_channel();
            tokio::spawn(run(pool.clone(), turns.clone(), waiting));
            queue
        });
        enqueue(queue, user, socket, conversation, outgoing).await
    }
}

async fn enqueue(
    queue: &mpsc::UnboundedSender<Pending>,
    user: Uuid,
    socket: Uuid,
    conversation: Uuid,
    outgoing: Outgoing,
) -> Result<()> {
    let (done, outcome) = oneshot::channel();
    let pending = Pending {
        user,
        socket,
        conversation,
        outgoing,
        done,
    };
    if queue.send(pending).is_err() {
        return Err(anyhow::anyhow!("the message batcher has stopped").into());
    }
    outcome
        .await
        .unwrap_or_else(|_| Err(anyhow::anyhow!("a message batch was dropped").into()))
}

async fn run(pool: PgPool, turns: Arc<Semaphore>, mut waiting: mpsc::UnboundedReceiver<Pending>) {
    let slots = Arc::new(Semaphore::new(BATCHES_AT_ONCE));
    while let Some(first) = waiting.recv().await {
        // While every slot is busy, more messages queue up and go together in the next batch.
        let slot = slots.clone().acquire_owned().await.expect("never closed");
        let turn = turns.clone().acquire_owned().await.expect("never closed");
        let mut batch = vec![first];
        while batch.len() < MAX_BATCH {
            match waiting.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        let pool = pool.clone();
        tokio::spawn(async move {
            store(&pool, batch).await;
            drop((turn, slot));
        });
    }
}

async fn store(pool: &PgPool, batch: Vec<Pending>) {
    // Messages the rules refuse are answered on their own (as `messages::send` would).
    let mut checked = Vec::with_capacity(batch.len());
    let mut alone = Vec::new();
    for p in batch {
        match Batched::new(p.user, p.conversation, &p.outgoing, Some(p.socket)) {
            Ok(b) => checked.push((b, p)),
            Err(_) => alone.push(p),
        }
    }
    if !checked.is_empty() {
        let rows: Vec<Batched> = checked.iter().map(|(b, _)| b.clone()).collect();
        match store_together(pool, &rows).await {
            Ok(outcomes) => {
                for ((_, p), outcome) in checked.into_iter().zip(outcomes) {
                    let _ = p.done.send(outcome);
                }
            }
            Err(Failed::Before(err)) => {
                tracing::warn!(error = %err, messages = rows.len(), "a message batch failed; storing its messages one by one");
                alone.extend(checked.into_iter().map(|(_, p)| p));
            }
            Err(Failed::Commit(err)) => {
                // Whether it committed is unknown: a resend with its client id is answered once.
                tracing::warn!(error = %err, messages = rows.len(), "a message batch's commit failed");
                let text = err.to_string();
                for (_, p) in checked {
                    let _ = p.done.send(Err(Error::Internal(anyhow::anyhow!("{text}"))));
                }
            }
        }
    }
    for p in alone {
        let outcome = store_alone(pool, &p).await;
        let _ = p.done.send(outcome);
    }
}

enum Failed {
    /// Nothing was stored.
    Before(Error),
    /// The commit's outcome is unknown.
    Commit(Error),
}

async fn store_together(pool: &PgPool, rows: &[Batched]) -> std::result::Result<Vec<Result<()>>, Failed> {
    let mut tx = pool.begin().await.map_err(|e| Failed::Before(e.into()))?;
    let outcomes = messages::send_batch(&mut tx, rows).await.map_err(Failed::Before)?;
    tx.commit().await.map_err(|e| Failed::Commit(e.into()))?;
    Ok(outcomes)
}

async fn store_alone(pool: &PgPool, p: &Pending) -> Result<()> {
    let mut tx = pool.begin().await?;
    messages::send(&mut tx, p.user, p.conversation, p.outgoing.clone(), Some(p.socket)).await?;
    tx.commit().await?;
    Ok(())
}
