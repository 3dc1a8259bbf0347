//! What every job handler receives.

use std::sync::Arc;

use domain::{Config, mail::Mailer, payments::PaymentGateway};
use sqlx::PgPool;

use crate::runner::batch::Batches;

#[derive(Clone)]
pub struct JobContext {
    pub pool: PgPool,
    pub config: Arc<Config>,
    pub mailer: Mailer,
    pub gateway: Arc<dyn PaymentGateway>,
    /// The batched queues' batchers (hold expiry, reminders), each started on its first task.
    pub batches: Arc<Batches>,
    /// How pushes reach push services (the address rule in its HTTP client).
    pub push: domain::push::send::Sender,
}

impl JobContext {
    pub fn new(pool: PgPool, config: Config) -> anyhow::Result<Self> {
        let mailer = Mailer::from_config(&config)?;
        let gateway = domain::payments::gateway_from_config(&config, &pool)?;
        let push = domain::push::send::Sender::new(config.push_policy(), config.push.vapid_subject.clone())?;
        Ok(Self {
            push,
            batches: Arc::new(Batches::new(pool.clone())),
            pool,
            config: Arc::new(config),
            mailer,
            gateway,
        })
    }
}
