use std::sync::Arc;

use domain::{Config, messaging::calls::CALL_RING_TIMEOUT, payments::PaymentGateway};
use sqlx::PgPool;

use crate::{
    catalogue_cache::CatalogueCache,
    realtime::{Hub, seats::GroupCalls},
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
    /// How long a call rings before it is missed: `CALL_RING_TIMEOUT`, or
    /// `CALL_RING_TIMEOUT_SECONDS` from the environment (tests shorten it).
    pub call_ring_timeout: chrono::Duration,
    /// The SFU of group calls (`JANUS_*`); none configured: group calls answer 503.
    pub janus: Option<domain::group_calls::JanusClient>,
    /// This process's seats in group calls (its Janus session starts with `api serve`).
    pub group_calls: Arc<GroupCalls>,
}

impl AppState {
    pub fn new(pool: PgPool, config: Config) -> anyhow::Result<Self> {
        let gateway = domain::payments::gateway_from_config(&config, &pool)?;
        let call_ring_timeout = ring_timeout(std::env::var("CALL_RING_TIMEOUT_SECONDS").ok().as_deref())?;
        let janus = config
            .janus
            .clone()
            .map(domain::group_calls::JanusClient::new)
            .transpose()?;
        let hub = Arc::new(Hub::new());
        Ok(Self {
            pool,
            config: Arc::new(config),
            gateway,
            group_calls: Arc::new(GroupCalls::new(hub.clone())),
            hub,
            catalogue: Arc::new(CatalogueCache::new()),
            call_ring_timeout,
            janus,
        })
    }
}

fn ring_timeout(raw: Option<&str>) -> anyhow::Result<chrono::Duration> {
    match raw.map(str::trim).filter(|r| !r.is_empty()) {
        None => Ok(CALL_RING_TIMEOUT),
        Some(raw) => raw
            .parse::<i64>()
            .ok()
            .filter(|s| *s > 0)
            .map(chrono::Duration::seconds)
            .ok_or_else(|| anyhow::anyhow!("CALL_RING_TIMEOUT_SECONDS must be a positive number of seconds: {raw}")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_ring_45_seconds_unless_a_test_says_otherwise() {
        assert_eq!(ring_timeout(None).unwrap(), chrono::Duration::seconds(45));
        assert_eq!(ring_timeout(Some("")).unwrap(), chrono::Duration::seconds(45));
        assert_eq!(ring_timeout(Some("2")).unwrap(), chrono::Duration::seconds(2));
        assert!(ring_timeout(Some("0")).is_err());
        assert!(ring_timeout(Some("soon")).is_err());
    }
}
