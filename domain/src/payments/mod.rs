//! Card payments: checking card data, the gateway trait with its two implementations, and
//! paying for a held reservation exactly once.

pub mod authorize_net;
pub mod card;
pub mod checkout;
pub mod gateway;
pub mod test_gateway;

pub use gateway::{ChargeOutcome, PaymentGateway, RefundOutcome};

use std::sync::Arc;

use crate::config::{Config, GatewayKind};

/// The gateway the configuration names.
pub fn gateway_from_config(config: &Config) -> anyhow::Result<Arc<dyn PaymentGateway>> {
    Ok(match &config.payment_gateway {
        GatewayKind::Test { refund_delay_ms } => Arc::new(test_gateway::TestGateway::with_refund_delay(*refund_delay_ms)),
        GatewayKind::AuthorizeNet(settings) => Arc::new(authorize_net::AuthorizeNet::new(settings.clone())?),
    })
}
