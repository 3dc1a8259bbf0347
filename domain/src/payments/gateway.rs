//! What the product needs from a payment gateway.
//!
//! A call that returns `Err` has an unknown outcome (the request may or may not have reached the
//! gateway): the caller leaves the attempt open and asks the gateway later by reference
//! (`find_charge`, `find_refund`) instead of sending it again.

use std::time::Duration;

use futures::future::BoxFuture;
use uuid::Uuid;

use super::card::Card;

/// Authorize.net's invoice number and reference id hold at most 20 characters.
pub const REFERENCE_LEN: usize = 20;

/// The reference the gateway gets for one of our payment attempts or refunds.
pub fn reference(id: Uuid) -> String {
    id.simple().to_string()[..REFERENCE_LEN].to_string()
}

pub struct ChargeRequest<'a> {
    /// Our payment attempt's reference (the gateway's invoice number).
    pub reference: &'a str,
    pub amount_cents: i64,
    pub card: &'a Card,
    pub description: &'a str,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ChargeOutcome {
    Approved {
        transaction_id: String,
    },
    /// The bank said no; `reason` is a text fit for the payer.
    Declined {
        reason: String,
    },
    /// The gateway answered that it did not process the charge: nothing was charged.
    Error {
        reason: String,
    },
}

pub struct RefundRequest<'a> {
    /// Our refund's reference, so the gateway can be asked about it later.
    pub reference: &'a str,
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
    /// What the gateway knows of the charge with this reference: `None` when it has none.
    fn find_charge<'a>(&'a self, reference: &'a str) -> BoxFuture<'a, anyhow::Result<Option<ChargeOutcome>>>;
    /// The gateway's transaction id of a refund with this reference, when it made one.
    fn find_refund<'a>(&'a self, reference: &'a str) -> BoxFuture<'a, anyhow::Result<Option<String>>>;
    /// The longest a charge call can take; a charge the gateway does not know this long after
    /// it was sent was never made.
    fn answer_deadline(&self) -> Duration;
}
