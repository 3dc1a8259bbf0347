use std::sync::Arc;

use domain::{Config, payments::PaymentGateway};
use sqlx::PgPool;

/// Shared by every request handler.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub gateway: Arc<dyn PaymentGateway>,
}

impl AppState {
    pub fn new(pool: PgPool, config: Config) -> anyhow::Result<Self> {
        let gateway = domain::payments::gateway_from_config(&config, &pool)?;
        Ok(Self { pool, config: Arc::new(config), gateway })
    }
}
