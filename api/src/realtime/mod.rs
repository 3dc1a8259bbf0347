//! This process's side of the real-time channel: its sockets in a [`Hub`], the events of every
//! process reaching them through PostgreSQL LISTEN/NOTIFY ([`listener`], published by
//! `domain::realtime::publish` inside the transaction that stores their cause), chat messages
//! stored in batches ([`batch`]) and seats in group calls ([`seats`]). With `REALTIME_BUS=nats` events
//! come through NATS instead ([`nats`], relayed from the outbox by [`relay`]); the listener then
//! carries only ended sessions. The endpoint at
//! `GET /api/ws` and what each client event does are `crate::socket`.

pub mod batch;
pub mod confirming;
pub mod hub;
pub mod listener;
pub mod nats;
pub mod relay;
pub mod seats;

pub use hub::Hub;

/// Sets this process's bus from its settings and, for NATS, connects and starts the relay: the bus
/// for `AppState::nats`.
pub async fn start_bus(
    config: &domain::Config,
    pool: &sqlx::PgPool,
    hub: &std::sync::Arc<Hub>,
) -> anyhow::Result<Option<std::sync::Arc<nats::NatsBus>>> {
    domain::realtime::use_bus(config.realtime_bus);
    if config.realtime_bus != domain::realtime::Bus::Nats {
        return Ok(None);
    }
    let nats = nats::NatsBus::connect(&config.nats_url, pool.clone(), hub.clone()).await?;
    relay::start(pool, &config.nats_url)?;
    tracing::info!("real-time events travel through NATS");
    Ok(Some(nats))
}
