//! What the product needs from a payment gateway.

use futures::future::BoxFuture;
use uuid::Uuid;

use super::card::Card;

pub struct ChargeRequest<'a> {
    /// Our booking id, sent as the gateway's reference.
    pub reference: Uuid,
    pub amount_cents: i64,
    pub card: &'a Card,
    pub description: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChargeOutcome {
    Approved { transaction_id: String },
    /// The bank said no; the reason is shown to the payer.
    Declined { reason: String },
    /// The gateway failed to decide; nothing was charged.
    Error { reason: String },
}

pub struct RefundRequest<'a> {
    /// Our refund's id, so a retried refund is recognised by the gateway.
    pub reference: Uuid,
    pub transaction_id: &'a str,
    pub amount_cents: i64,
    pub card_last4: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RefundOutcome {
    Refunded { transaction_id: String },
    Failed { reason: String },
}

pub trait PaymentGateway: Send + Sync {
    /// Stored with each payment.
    fn name(&self) -> &'static str;
    fn charge<'a>(&'a self, request: ChargeRequest<'a>) -> BoxFuture<'a, anyhow::Result<ChargeOutcome>>;
    fn refund<'a>(&'a self, request: RefundRequest<'a>) -> BoxFuture<'a, anyhow::Result<RefundOutcome>>;
}
