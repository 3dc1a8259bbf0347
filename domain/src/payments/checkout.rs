//! Paying for a held reservation. The booking row is locked while the gateway decides, so two
//! payments of one reservation (double click, retry, two tabs) charge once: the second finds
//! the booking confirmed and answers with it.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{
    card::Card,
    gateway::{ChargeOutcome, ChargeRequest, PaymentGateway},
};
use crate::{
    Error, Result,
    booking::{bookings::{self, Booking}, reservations},
    notifications::{self, Kind},
};

pub const EXPIRED_HOLD: &str = "This reservation has expired. Please choose a time again.";
pub const PAID: &str = "Payment successful! Your booking has been confirmed.";

pub enum Paid {
    /// Charged now; the caller sends the confirmation e-mail.
    Charged(Booking),
    /// Paid before (a repeated request): nothing was charged now.
    AlreadyPaid(Booking),
    /// Not charged; the hold stays until it expires.
    Refused { reason: String },
}

/// Runs in the caller's transaction, which must be committed whatever the outcome.
pub async fn pay(
    tx: &mut PgConnection,
    gateway: &dyn PaymentGateway,
    user_id: Uuid,
    reservation_id: Uuid,
    card: &Card,
    now: DateTime<Utc>,
) -> Result<Paid> {
    let not_found = || Error::not_found(reservations::NOT_FOUND);
    let row: Option<(Uuid, String, Option<DateTime<Utc>>, i64)> =
        sqlx::query_as("SELECT user_id, status, hold_expires_at, total_cents FROM bookings WHERE id = $1 FOR UPDATE")
            .bind(reservation_id)
            .fetch_optional(&mut *tx)
            .await?;
    let (owner, status, expires, total_cents) = row.ok_or_else(not_found)?;
    if owner != user_id {
        return Err(not_found());
    }
    let paid_before: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM payments WHERE booking_id = $1 AND status = 'approved')")
        .bind(reservation_id)
        .fetch_one(&mut *tx)
        .await?;
    if paid_before {
        let booking = bookings::find(&mut *tx, reservation_id).await?.ok_or_else(not_found)?;
        return Ok(Paid::AlreadyPaid(booking));
    }
    match status.as_str() {
        "reserved" if expires.is_some_and(|t| t > now) => {}
        "reserved" | "expired" => return Err(Error::conflict(EXPIRED_HOLD)),
        _ => return Err(not_found()),
    }
    let booking = bookings::find(&mut *tx, reservation_id).await?.ok_or_else(not_found)?;
    let description = format!("{} with {}", booking.service_title, booking.mentor_display_name);
    let outcome = gateway
        .charge(ChargeRequest { reference: reservation_id, amount_cents: total_cents, card, description: &description })
        .await?;
    let (status, transaction_id, message) = match &outcome {
        ChargeOutcome::Approved { transaction_id } => ("approved", Some(transaction_id.as_str()), None),
        ChargeOutcome::Declined { reason } => ("declined", None, Some(reason.as_str())),
        ChargeOutcome::Error { reason } => ("error", None, Some(reason.as_str())),
    };
    sqlx::query(
        "INSERT INTO payments (booking_id, user_id, gateway, transaction_id, amount_cents, card_last4, status, message) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(reservation_id)
    .bind(user_id)
    .bind(gateway.name())
    .bind(transaction_id)
    .bind(total_cents)
    .bind(card.last4())
    .bind(status)
    .bind(message)
    .execute(&mut *tx)
    .await?;
    match outcome {
        ChargeOutcome::Approved { .. } => {
            sqlx::query("UPDATE bookings SET status = 'confirmed', confirmed_at = $2, hold_expires_at = NULL, updated_at = now() WHERE id = $1")
                .bind(reservation_id)
                .bind(now)
                .execute(&mut *tx)
                .await?;
            let booking = bookings::find(&mut *tx, reservation_id).await?.ok_or_else(not_found)?;
            reservations::notify_confirmed(tx, &booking, true).await?;
            Ok(Paid::Charged(booking))
        }
        ChargeOutcome::Declined { reason } | ChargeOutcome::Error { reason } => {
            notifications::notify(
                &mut *tx,
                user_id,
                Kind::PaymentFailed,
                "Payment failed",
                &format!("Your payment for \"{}\" did not go through: {reason}", booking.service_title),
                Some(&format!("/booking/{}", booking.service_id)),
            )
            .await?;
            Ok(Paid::Refused { reason })
        }
    }
}
