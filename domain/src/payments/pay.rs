//! Paying a held reservation by card, as one operation ([`pay`]): start an attempt (committed with
//! its reconciliation job), charge through the gateway outside any transaction, settle the answer
//! with what follows it (the confirmation's jobs, or the refund of a late charge), and, when another
//! request is charging the same reservation, wait for its outcome. [`reconcile`] settles an attempt
//! whose answer was lost, for the worker's `payment_reconciliation` job.

use std::time::Duration;

use chrono::Utc;
use sqlx::PgPool;
use uuid::Uuid;

use super::{
    ChargeOutcome, PaymentStatus,
    card::Card,
    checkout::{self, OpenAttempt, Settled, Start},
    gateway::{ChargeRequest, PaymentGateway},
    jobs,
};
use crate::{
    Error, Result,
    booking::{self, bookings::Booking, reservations},
    job_queue::{Job, refunds::PayRefund},
};

/// How many times a request that found another payment in flight starts its own after that
/// one was refused (a double click with a declined card, say).
pub const MAX_STARTS: usize = 2;
/// How long a request that found another payment in flight waits for its outcome.
pub const WAIT_FOR_OTHER_PAYMENT: Duration = Duration::from_secs(15);
/// What an attempt the gateway never saw, past its answer deadline, is settled with.
pub const NOT_CHARGED: &str = "The payment did not reach the bank. Nothing was charged.";

/// What paying came to.
pub enum Payment {
    /// Paid (now or before): the confirmed booking. Boxed: a booking is far larger than the rest.
    Paid(Box<Booking>),
    /// Not charged; the hold stays until it expires. Why, in the payer's words.
    Declined(String),
    /// The outcome is not known yet (never charged twice): what to tell the payer.
    Pending(&'static str),
}

/// Pays reservation `reservation_id` of `user_id` with `card` through `gateway`. An attempt whose
/// answer is lost is settled by its reconciliation job, queued for `reconcile_after` (at least the
/// gateway's answer deadline) after the attempt.
pub async fn pay(
    pool: &PgPool,
    gateway: &dyn PaymentGateway,
    reconcile_after: chrono::Duration,
    user_id: Uuid,
    reservation_id: Uuid,
    card: &Card,
) -> Result<Payment> {
    // Not before the gateway's answer deadline: then a charge it does not know was never made.
    let reconcile_after =
        reconcile_after.max(chrono::Duration::from_std(gateway.answer_deadline()).unwrap_or_default());
    for _ in 0..MAX_STARTS {
        let now = Utc::now();
        let mut tx = pool.begin().await?;
        let started = checkout::start(&mut tx, gateway.name(), user_id, reservation_id, card.last4(), now).await?;
        if let Start::Charge(attempt) = &started {
            jobs::schedule(&mut tx, attempt.payment_id, now + reconcile_after).await?;
        }
        tx.commit().await?;
        let attempt = match started {
            Start::AlreadyPaid(booking) => return Ok(Payment::Paid(booking)),
            Start::InProgress => {
                // Another request is charging this reservation: answer with its outcome.
                let deadline = WAIT_FOR_OTHER_PAYMENT.min(gateway.answer_deadline());
                match checkout::wait_for_settlement(pool, reservation_id, deadline).await? {
                    Some(PaymentStatus::Approved) => return Ok(Payment::Paid(confirmed(pool, reservation_id).await?)),
                    Some(_) => continue,
                    None => return Ok(Payment::Pending(checkout::IN_PROGRESS)),
                }
            }
            Start::Charge(attempt) => attempt,
        };
        let request = ChargeRequest {
            reference: &attempt.reference,
            amount_cents: attempt.amount_cents,
            card,
            description: &attempt.description,
        };
        let outcome = match gateway.charge(request).await {
            Ok(outcome) => outcome,
            Err(err) => {
                tracing::warn!(payment = %attempt.payment_id, error = %format!("{err:#}"), "no answer from the gateway; reconciliation will settle the payment");
                return Ok(Payment::Pending(checkout::UNCONFIRMED));
            }
        };
        return Ok(match settle(pool, attempt.payment_id, &outcome).await? {
            Settled::Confirmed(booking) => Payment::Paid(booking),
            Settled::AlreadySettled => match checkout::latest_attempt(pool, reservation_id).await? {
                Some((_, PaymentStatus::Approved)) => Payment::Paid(confirmed(pool, reservation_id).await?),
                _ => Payment::Pending(checkout::UNCONFIRMED),
            },
            Settled::Refused { reason } => Payment::Declined(reason),
            Settled::Reversed { .. } => Payment::Declined(checkout::REVERSED.into()),
        });
    }
    Ok(Payment::Pending(checkout::IN_PROGRESS))
}

async fn confirmed(pool: &PgPool, booking_id: Uuid) -> Result<Box<Booking>> {
    let booking = booking::bookings::find(pool, booking_id).await?;
    booking
        .map(Box::new)
        .ok_or_else(|| Error::not_found(reservations::NOT_FOUND))
}

/// Records the gateway's answer for an attempt and queues what follows, in one transaction.
pub async fn settle(pool: &PgPool, payment_id: Uuid, outcome: &ChargeOutcome) -> Result<Settled> {
    let mut tx = pool.begin().await?;
    let settled = checkout::settle(&mut tx, payment_id, outcome, Utc::now()).await?;
    match &settled {
        Settled::Confirmed(booking) => booking::jobs::confirmed(&mut tx, booking).await?,
        Settled::Reversed { refund_id } => PayRefund { refund_id: *refund_id }.enqueue(&mut tx).await?,
        Settled::AlreadySettled | Settled::Refused { .. } => {}
    }
    tx.commit().await?;
    Ok(settled)
}

/// Settles one open attempt from what the gateway knows about its reference. `Ok(None)` when the
/// gateway cannot tell yet (try again later).
pub async fn reconcile(pool: &PgPool, gateway: &dyn PaymentGateway, attempt: &OpenAttempt) -> Result<Option<Settled>> {
    let outcome = match gateway.find_charge(&attempt.reference).await? {
        Some(outcome) => outcome,
        None => {
            let age = (Utc::now() - attempt.created_at).to_std().unwrap_or_default();
            if age < gateway.answer_deadline() {
                return Ok(None);
            }
            ChargeOutcome::Error {
                reason: NOT_CHARGED.into(),
            }
        }
    };
    Ok(Some(settle(pool, attempt.id, &outcome).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_request_starts_twice_at_most_and_waits_fifteen_seconds() {
        assert_eq!(MAX_STARTS, 2);
        assert_eq!(WAIT_FOR_OTHER_PAYMENT, Duration::from_secs(15));
    }
}
