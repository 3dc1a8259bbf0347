//! `PAYMENT_GATEWAY=test`: an in-process gateway with documented test cards.

use futures::{FutureExt, future::BoxFuture};

use super::gateway::{ChargeOutcome, ChargeRequest, PaymentGateway, RefundOutcome, RefundRequest};

/// Approves.
pub const CARD_APPROVED: &str = "4111111111111111";
/// Declined by the bank.
pub const CARD_DECLINED: &str = "4000000000000002";
/// Declined for insufficient funds.
pub const CARD_INSUFFICIENT_FUNDS: &str = "4000000000009995";
/// The gateway fails with an error.
pub const CARD_GATEWAY_ERROR: &str = "4000000000000119";

pub const DECLINED_REASON: &str = "This transaction has been declined.";
pub const INSUFFICIENT_FUNDS_REASON: &str = "Insufficient funds.";
pub const GATEWAY_ERROR_REASON: &str = "An error occurred during processing. Please try again.";

#[derive(Default)]
pub struct TestGateway {
    refund_delay: std::time::Duration,
}

impl TestGateway {
    pub fn with_refund_delay(ms: u64) -> Self {
        Self { refund_delay: std::time::Duration::from_millis(ms) }
    }
}

impl PaymentGateway for TestGateway {
    fn name(&self) -> &'static str {
        "test"
    }

    fn charge<'a>(&'a self, request: ChargeRequest<'a>) -> BoxFuture<'a, anyhow::Result<ChargeOutcome>> {
        async move {
            Ok(match request.card.number() {
                CARD_DECLINED => ChargeOutcome::Declined { reason: DECLINED_REASON.into() },
                CARD_INSUFFICIENT_FUNDS => ChargeOutcome::Declined { reason: INSUFFICIENT_FUNDS_REASON.into() },
                CARD_GATEWAY_ERROR => ChargeOutcome::Error { reason: GATEWAY_ERROR_REASON.into() },
                _ => ChargeOutcome::Approved { transaction_id: format!("test-{}", uuid::Uuid::new_v4().simple()) },
            })
        }
        .boxed()
    }

    fn refund<'a>(&'a self, request: RefundRequest<'a>) -> BoxFuture<'a, anyhow::Result<RefundOutcome>> {
        async move {
            tokio::time::sleep(self.refund_delay).await;
            Ok(RefundOutcome::Refunded { transaction_id: format!("test-refund-{}", request.reference.simple()) })
        }
        .boxed()
    }
}
