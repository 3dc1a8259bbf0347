//! A NATS connection that can tell when NATS has handled what was sent on it: the consumers' (their
//! subscriptions) and the relay's (its publishes). Core NATS acknowledges nothing, and the client's
//! `flush` only empties its own buffer; a probe published to a subject only this connection reads
//! comes back after NATS has handled everything sent before it on the same connection.

use std::{
    collections::HashMap,
    sync::{
        Arc, Mutex,
        atomic::{AtomicU64, Ordering},
    },
    time::Duration,
};

use async_nats::{Client, ConnectOptions};
use futures::StreamExt;
use tokio::sync::oneshot;
use uuid::Uuid;

/// How long [`ConfirmingClient::confirm`] waits for its probe.
pub const CONFIRM_TIMEOUT: Duration = Duration::from_secs(2);

pub struct ConfirmingClient {
    client: Client,
    probe_subject: String,
    probes: Mutex<HashMap<u64, oneshot::Sender<()>>>,
    next_probe: AtomicU64,
}

impl ConfirmingClient {
    /// Connects to `url` with `options` and reads this connection's probe subject on a task of the
    /// current runtime.
    pub async fn connect(options: ConnectOptions, url: &str) -> anyhow::Result<Arc<Self>> {
        let client = options
            .connect(url)
            .await
            .map_err(|e| anyhow::anyhow!("cannot connect to NATS at {url}: {e}"))?;
        let probe_subject = format!("_rt.probe.{}", Uuid::new_v4().simple());
        let mut probes = client.subscribe(probe_subject.clone()).await?;
        let confirming = Arc::new(Self {
            client,
            probe_subject,
            probes: Default::default(),
            next_probe: AtomicU64::new(0),
        });
        let reader = confirming.clone();
        tokio::spawn(async move {
            while let Some(message) = probes.next().await {
                let token = std::str::from_utf8(&message.payload).ok().and_then(|t| t.parse().ok());
                if let Some(waiter) = token.and_then(|t: u64| reader.probes.lock().expect("probes").remove(&t)) {
                    let _ = waiter.send(());
                }
            }
        });
        Ok(confirming)
    }

    pub fn client(&self) -> &Client {
        &self.client
    }

    pub fn connected(&self) -> bool {
        self.client.connection_state() == async_nats::connection::State::Connected
    }

    /// Returns once NATS has handled everything sent before on this connection (or fails after
    /// [`CONFIRM_TIMEOUT`]).
    pub async fn confirm(&self) -> anyhow::Result<()> {
        let token = self.next_probe.fetch_add(1, Ordering::Relaxed);
        let (tx, rx) = oneshot::channel();
        self.probes.lock().expect("probes").insert(token, tx);
        let sent = self
            .client
            .publish(self.probe_subject.clone(), token.to_string().into())
            .await;
        let answered = match sent {
            Ok(()) => tokio::time::timeout(CONFIRM_TIMEOUT, rx).await,
            Err(err) => {
                self.probes.lock().expect("probes").remove(&token);
                anyhow::bail!("cannot publish to NATS: {err}");
            }
        };
        self.probes.lock().expect("probes").remove(&token);
        match answered {
            Ok(Ok(())) => Ok(()),
            _ => anyhow::bail!("NATS did not confirm within {CONFIRM_TIMEOUT:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_confirmation_is_awaited_two_seconds() {
        assert_eq!(super::CONFIRM_TIMEOUT, std::time::Duration::from_secs(2));
    }
}
