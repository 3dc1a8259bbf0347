//! What every job handler receives.

use std::sync::Arc;

use domain::{Config, mail::Mailer, payments::PaymentGateway};
use sqlx::PgPool;

use crate::batch::Batches;

#[derive(Clone)]
pub struct JobContext {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub mailer: Mailer,
    pub gateway: Arc<dyn PaymentGateway>,
    /// The batched queues' batchers (hold expiry, reminders), started on their first task.
    pub batches: Arc<Batches>,
}

impl JobContext {
    pub fn new(pool: PgPool, config: Config) -> anyhow::Result<Self> {
        let mailer = Mailer::from_config(&config)?;
        let gateway = domain::payments::gateway_from_config(&config, &pool)?;
        Ok(Self {
            batches: Arc::new(Batches::new(pool.clone())),
            pool,
            config: Arc::new(config),
            mailer,
            gateway,
        })
    }
}
