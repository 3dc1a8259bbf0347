//! Card payments: checking card data, the gateway trait with its two implementations, paying for
//! a held reservation exactly once, and the platform's fee on what mentors earn.

pub mod authorize_net;
pub mod card;
pub mod checkout;
pub mod fees;
pub mod gateway;
pub mod refund_payout;
pub mod test_gateway;

pub use gateway::{ChargeOutcome, PaymentGateway, RefundOutcome};

closed_set! {
    /// A payment attempt is 'processing' until the gateway's answer settles it, once.
    pub enum PaymentStatus ("payment status") {
        Processing = "processing",
        Approved = "approved",
        Declined = "declined",
        Error = "error",
    }
}

closed_set! {
    /// A refund is 'pending' until the gateway pays it back (or it fails); a booking that was
    /// never charged records 'not_needed'.
    pub enum RefundStatus ("refund status") {
        Pending = "pending",
        Succeeded = "succeeded",
        Failed = "failed",
        NotNeeded = "not_needed",
    }
}

closed_set! {
    /// Why a refund is owed: a cancelled booking, or a charge that settled after its hold had gone.
    pub enum RefundReason ("refund reason") {
        Cancellation = "cancellation",
        Reversal = "reversal",
    }
}

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
