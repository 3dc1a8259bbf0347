//! Card payments: checking card data, the gateway trait with its two implementations, paying for
//! a held reservation exactly once, and the platform's fee on what mentors earn.

pub mod authorize_net;
pub mod card;
pub mod checkout;
pub mod fees;
pub mod gateway;
pub mod jobs;
pub mod pay;
pub mod refund_payout;
pub mod test_gateway;

pub use gateway::{ChargeOutcome, PaymentGateway, RefundOutcome};

/// The states money moves through live in `money` (a leaf), so booking can bind them without
/// importing payments.
pub use crate::money::{PaymentStatus, RefundReason, RefundStatus};

use std::sync::Arc;

use sqlx::PgPool;

use crate::config::{Config, GatewayKind};

/// The gateway the configuration names.
pub fn gateway_from_config(config: &Config, pool: &PgPool) -> anyhow::Result<Arc<dyn PaymentGateway>> {
    Ok(match &config.payment_gateway {
        GatewayKind::Test(settings) => Arc::new(test_gateway::TestGateway::new(pool.clone(), settings.clone())),
        GatewayKind::AuthorizeNet(settings) => Arc::new(authorize_net::AuthorizeNet::new(settings.clone())?),
    })
}
