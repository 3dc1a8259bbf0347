use std::sync::Arc;

use domain::{
    Config,
    calls::{CALL_RECONNECT_GRACE, CALL_RING_TIMEOUT},
    payments::PaymentGateway,
};
use sqlx::PgPool;

use crate::{
    catalogue_cache::CatalogueCache,
    realtime::{Hub, seats::GroupCalls},
    replica::Reads,
};

/// Shared by every request handler.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub gateway: Arc<dyn PaymentGateway>,
    /// This process's WebSockets.
    pub hub: Arc<Hub>,
    /// The public catalogue's responses, kept while nothing they show changes.
    pub catalogue: Arc<CatalogueCache>,
    /// Where catalogue reads go: the replica of `DATABASE_READ_URL` when it can answer, else `pool`.
    pub reads: Arc<Reads>,
    /// How long a call rings before it is missed: `CALL_RING_TIMEOUT`, or
    /// `CALL_RING_TIMEOUT_SECONDS` from the environment (tests shorten it).
    pub call_ring_timeout: chrono::Duration,
    /// How long an answered call waits for a party whose socket closed: `CALL_RECONNECT_GRACE`,
    /// or `CALL_RECONNECT_GRACE_SECONDS` from the environment (tests shorten it).
    pub call_reconnect_grace: chrono::Duration,
    /// The SFU of group calls (`JANUS_*`); none configured: group calls answer 503.
    pub janus: Option<domain::group_calls::JanusClient>,
    /// This process's seats in group calls (its Janus session starts with `api serve`).
    pub group_calls: Arc<GroupCalls>,
    /// The NATS bus (`REALTIME_BUS=nats`), set by `api serve`; none on the PostgreSQL bus.
    pub nats: Option<Arc<crate::realtime::nats::NatsBus>>,
}

impl AppState {
    pub fn new(pool: PgPool, config: Config) -> anyhow::Result<Self> {
        let gateway = domain::payments::gateway_from_config(&config, &pool)?;
        let call_ring_timeout = seconds_setting(
            "CALL_RING_TIMEOUT_SECONDS",
            std::env::var("CALL_RING_TIMEOUT_SECONDS").ok().as_deref(),
            CALL_RING_TIMEOUT,
        )?;
        let call_reconnect_grace = seconds_setting(
            "CALL_RECONNECT_GRACE_SECONDS",
            std::env::var("CALL_RECONNECT_GRACE_SECONDS").ok().as_deref(),
            CALL_RECONNECT_GRACE,
        )?;
        let janus = config
            .janus
            .clone()
            .map(domain::group_calls::JanusClient::new)
            .transpose()?;
        let hub = Arc::new(Hub::new());
        let catalogue = Arc::new(CatalogueCache::new());
        let reads = Arc::new(Reads::from_env(pool.clone(), catalogue.clone())?);
        Ok(Self {
            pool,
            config: Arc::new(config),
            gateway,
            group_calls: Arc::new(GroupCalls::new(hub.clone())),
            hub,
            catalogue,
            reads,
            call_ring_timeout,
            call_reconnect_grace,
            janus,
            nats: None,
        })
    }
}

/// A positive number of seconds from the environment variable `name`, else `default`.
fn seconds_setting(name: &str, raw: Option<&str>, default: chrono::Duration) -> anyhow::Result<chrono::Duration> {
    match raw.map(str::trim).filter(|r| !r.is_empty()) {
        None => Ok(default),
        Some(raw) => raw
            .parse::<i64>()
            .ok()
            .filter(|s| *s > 0)
            .map(chrono::Duration::seconds)
            .ok_or_else(|| anyhow::anyhow!("{name} must be a positive number of seconds: {raw}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_ring_45_seconds_unless_a_test_says_otherwise() {
        let ring_timeout = |raw| seconds_setting("CALL_RING_TIMEOUT_SECONDS", raw, CALL_RING_TIMEOUT);
        assert_eq!(ring_timeout(None).unwrap(), chrono::Duration::seconds(45));
        assert_eq!(ring_timeout(Some("")).unwrap(), chrono::Duration::seconds(45));
        assert_eq!(ring_timeout(Some("2")).unwrap(), chrono::Duration::seconds(2));
        assert!(ring_timeout(Some("0")).is_err());
        assert!(ring_timeout(Some("soon")).is_err());
    }

    #[test]
    fn a_dropped_call_waits_15_seconds_unless_a_test_says_otherwise() {
        let grace = |raw| seconds_setting("CALL_RECONNECT_GRACE_SECONDS", raw, CALL_RECONNECT_GRACE);
        assert_eq!(grace(None).unwrap(), chrono::Duration::seconds(15));
        assert_eq!(grace(Some("3")).unwrap(), chrono::Duration::seconds(3));
        assert!(
            grace(Some("-1"))
                .unwrap_err()
                .to_string()
                .contains("CALL_RECONNECT_GRACE_SECONDS")
        );
    }
}
