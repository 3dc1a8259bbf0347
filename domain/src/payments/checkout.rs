//! Paying for a held reservation without losing or doubling money when the gateway or a process
//! fails. Three steps:
//!
//! 1. [`start`] records a payment attempt ('processing', with its own reference) in a transaction
//!    of its own, which the caller commits together with a reconciliation job for the attempt;
//! 2. the caller charges through the gateway outside any transaction;
//! 3. [`settle`] records the gateway's answer in a second transaction and confirms the booking.
//!
//! When the answer is lost (a timeout, a crash), the attempt stays 'processing' and the
//! reconciliation job settles it by asking the gateway about the reference.

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{ChargeOutcome, PaymentStatus, gateway};
use crate::{
    Error, Result,
    booking::{
        BookingStatus,
        bookings::{self, Booking},
        reservations,
    },
    notifications::{self, Kind},
};

pub const EXPIRED_HOLD: &str = "This reservation has expired. Please choose a time again.";
pub const PAID: &str = "Payment successful! Your booking has been confirmed.";
pub const IN_PROGRESS: &str =
    "A payment for this reservation is already being processed. Please wait a moment, then check your bookings.";
pub const UNCONFIRMED: &str = "We could not confirm your payment with the bank yet. Please check your bookings in a few minutes; you will not be charged twice.";
pub const REVERSED: &str =
    "Your reservation expired before the payment completed, so the charge will be refunded in full.";

/// How often a second payment request looks whether the first one has settled.
pub const SETTLEMENT_POLL: Duration = Duration::from_millis(100);

/// A charge about to be sent to the gateway.
pub struct Attempt {
    pub payment_id: Uuid,
    pub booking_id: Uuid,
    /// Sent as the gateway's invoice number, to find the charge again.
    pub reference: String,
    pub amount_cents: i64,
    pub description: String,
}

pub enum Start {
    /// Charge this attempt now.
    Charge(Attempt),
    /// Paid before (a repeated request): nothing to charge. Boxed: a booking is far larger than the other variants.
    AlreadyPaid(Box<Booking>),
    /// Another request is charging this reservation right now.
    InProgress,
}

/// Step 1: checks the hold and records the attempt. The caller commits, with a reconciliation
/// job for `payment_id` in the same transaction.
pub async fn start(
    tx: &mut PgConnection,
    gateway_name: &str,
    user_id: Uuid,
    reservation_id: Uuid,
    card_last4: &str,
    now: DateTime<Utc>,
) -> Result<Start> {
    let not_found = || Error::not_found(reservations::NOT_FOUND);
    let row = sqlx::query!(
        r#"SELECT user_id, status AS "status: BookingStatus", hold_expires_at, total_cents
           FROM bookings WHERE id = $1 FOR UPDATE"#,
        reservation_id,
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(not_found)?;
    let (status, expires, total_cents) = (row.status, row.hold_expires_at, row.total_cents);
    if row.user_id != user_id {
        return Err(not_found());
    }
    let open = sqlx::query_scalar!(
        r#"SELECT status AS "status: PaymentStatus" FROM payments
           WHERE booking_id = $1 AND status IN ($2, $3) ORDER BY status = $2 DESC LIMIT 1"#,
        reservation_id,
        PaymentStatus::Approved as PaymentStatus,
        PaymentStatus::Processing as PaymentStatus,
    )
    .fetch_optional(&mut *tx)
    .await?;
    match open {
        Some(PaymentStatus::Approved) => {
            let booking = bookings::find(&mut *tx, reservation_id).await?.ok_or_else(not_found)?;
            return Ok(Start::AlreadyPaid(Box::new(booking)));
        }
        Some(_) => return Ok(Start::InProgress),
        None => {}
    }
    match status {
        BookingStatus::Reserved if expires.is_some_and(|t| t > now) => {}
        BookingStatus::Reserved | BookingStatus::Expired => return Err(Error::conflict(EXPIRED_HOLD)),
        _ => return Err(not_found()),
    }
    let booking = bookings::find(&mut *tx, reservation_id).await?.ok_or_else(not_found)?;
    let payment_id = Uuid::new_v4();
    let reference = gateway::reference(payment_id);
    sqlx::query!(
        "INSERT INTO payments (id, booking_id, user_id, gateway, amount_cents, card_last4, status, reference)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        payment_id,
        reservation_id,
        user_id,
        gateway_name,
        total_cents,
        card_last4,
        PaymentStatus::Processing as PaymentStatus,
        &reference,
    )
    .execute(&mut *tx)
    .await?;
    Ok(Start::Charge(Attempt {
        payment_id,
        booking_id: reservation_id,
        reference,
        amount_cents: total_cents,
        description: format!("{} with {}", booking.service_title, booking.mentor_display_name),
    }))
}

pub enum Settled {
    /// Charged and the booking confirmed now: the caller queues the confirmation's jobs. Boxed: a booking is
    /// far larger than the other variants.
    Confirmed(Box<Booking>),
    /// Settled before (by the other of the api and the reconciliation job).
    AlreadySettled,
    /// Not charged; the hold stays until it expires.
    Refused { reason: String },
    /// Charged, but the hold had gone: the caller queues this full refund.
    Reversed { refund_id: Uuid },
}

/// Step 3: records the gateway's answer for a 'processing' attempt, once.
pub async fn settle(
    tx: &mut PgConnection,
    payment_id: Uuid,
    outcome: &ChargeOutcome,
    now: DateTime<Utc>,
) -> Result<Settled> {
    let booking_id = sqlx::query_scalar!("SELECT booking_id FROM payments WHERE id = $1", payment_id)
        .fetch_optional(&mut *tx)
        .await?;
    let booking_id = booking_id.ok_or_else(|| Error::not_found("Payment not found"))?;
    // The booking first, as `start` locks it, so the two never wait for each other in a circle.
    let status = sqlx::query_scalar!(
        r#"SELECT status AS "status: BookingStatus" FROM bookings WHERE id = $1 FOR UPDATE"#,
        booking_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    let payment = sqlx::query!(
        r#"SELECT status AS "status: PaymentStatus", user_id, amount_cents FROM payments WHERE id = $1 FOR UPDATE"#,
        payment_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    let (user_id, amount_cents) = (payment.user_id, payment.amount_cents);
    if payment.status != PaymentStatus::Processing {
        return Ok(Settled::AlreadySettled);
    }
    let (new_status, transaction_id, message) = match outcome {
        ChargeOutcome::Approved { transaction_id } => (PaymentStatus::Approved, Some(transaction_id.as_str()), None),
        ChargeOutcome::Declined { reason } => (PaymentStatus::Declined, None, Some(reason.as_str())),
        ChargeOutcome::Error { reason } => (PaymentStatus::Error, None, Some(reason.as_str())),
    };
    sqlx::query!(
        "UPDATE payments SET status = $2, transaction_id = $3, message = $4, settled_at = $5 WHERE id = $1",
        payment_id,
        new_status as PaymentStatus,
        transaction_id,
        message,
        now,
    )
    .execute(&mut *tx)
    .await?;
    if new_status == PaymentStatus::Approved {
        // The money is recorded in this transaction: so is its receipt (a gapless number).
        crate::receipts::issue_for_payment(tx, payment_id, now).await?;
    }
    match outcome {
        ChargeOutcome::Approved { .. } if status == BookingStatus::Reserved => {
            sqlx::query!(
                "UPDATE bookings SET status = $3, confirmed_at = $2, hold_expires_at = NULL, updated_at = now() WHERE id = $1",
                booking_id,
                now,
                BookingStatus::Confirmed as BookingStatus,
            )
            .execute(&mut *tx)
            .await?;
            let booking = bookings::find(&mut *tx, booking_id)
                .await?
                .ok_or_else(|| Error::not_found(reservations::NOT_FOUND))?;
            reservations::notify_confirmed(tx, &booking, true).await?;
            Ok(Settled::Confirmed(Box::new(booking)))
        }
        ChargeOutcome::Approved { .. } => {
            let refund_id = super::refund_payout::record_reversal(tx, booking_id, payment_id, amount_cents).await?;
            tracing::warn!(payment = %payment_id, booking = %booking_id, "a charge settled after its hold had gone; refunding it");
            Ok(Settled::Reversed { refund_id })
        }
        ChargeOutcome::Declined { reason } | ChargeOutcome::Error { reason } => {
            let booking = bookings::find(&mut *tx, booking_id)
                .await?
                .ok_or_else(|| Error::not_found(reservations::NOT_FOUND))?;
            notifications::notify(
                &mut *tx,
                user_id,
                Kind::PaymentFailed,
                "Payment failed",
                &format!(
                    "Your payment for \"{}\" did not go through: {reason}",
                    booking.service_title
                ),
                Some(&format!("/booking/{}", booking.service_id)),
            )
            .await?;
            Ok(Settled::Refused { reason: reason.clone() })
        }
    }
}

/// The newest attempt on a booking: its id and status.
pub async fn latest_attempt(db: &PgPool, booking_id: Uuid) -> Result<Option<(Uuid, PaymentStatus)>> {
    let row = sqlx::query!(
        r#"SELECT id, status AS "status: PaymentStatus" FROM payments WHERE booking_id = $1 ORDER BY created_at DESC LIMIT 1"#,
        booking_id,
    )
    .fetch_optional(db)
    .await?;
    Ok(row.map(|r| (r.id, r.status)))
}

/// Waits up to `deadline` while another request's attempt on this booking is 'processing';
/// returns the status it settled to, or None when it is still processing.
pub async fn wait_for_settlement(db: &PgPool, booking_id: Uuid, deadline: Duration) -> Result<Option<PaymentStatus>> {
    let until = tokio::time::Instant::now() + deadline;
    loop {
        match latest_attempt(db, booking_id).await? {
            Some((_, status)) if status != PaymentStatus::Processing => return Ok(Some(status)),
            None => return Ok(None),
            Some(_) if tokio::time::Instant::now() >= until => return Ok(None),
            Some(_) => tokio::time::sleep(SETTLEMENT_POLL).await,
        }
    }
}

/// An attempt left open: what reconciliation needs.
#[derive(Debug)]
pub struct OpenAttempt {
    pub id: Uuid,
    pub reference: String,
    pub created_at: DateTime<Utc>,
}

pub async fn open_attempt(db: &PgPool, payment_id: Uuid) -> Result<Option<OpenAttempt>> {
    Ok(sqlx::query_as!(
        OpenAttempt,
        "SELECT id, reference, created_at FROM payments WHERE id = $1 AND status = $2",
        payment_id,
        PaymentStatus::Processing as PaymentStatus,
    )
    .fetch_optional(db)
    .await?)
}

/// Attempts still 'processing' that were started before `before`.
pub async fn open_attempts_before(db: &PgPool, before: DateTime<Utc>) -> Result<Vec<OpenAttempt>> {
    Ok(sqlx::query_as!(
        OpenAttempt,
        "SELECT id, reference, created_at FROM payments WHERE status = $2 AND created_at < $1 ORDER BY created_at LIMIT 500",
        before,
        PaymentStatus::Processing as PaymentStatus,
    )
    .fetch_all(db)
    .await?)
}
