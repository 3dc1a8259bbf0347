//! Refunds on cancellation: the policy by time before the start, and the refund owed
//! (`payments::refund_payout` pays it out).

use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    Result,
    money::{PaymentStatus, RefundReason, RefundStatus},
};

/// Cancelling this long or longer before the start refunds everything.
pub const FULL_REFUND_BEFORE: Duration = Duration::hours(24);
/// Cancelling at least this long before the start refunds half.
pub const HALF_REFUND_BEFORE: Duration = Duration::hours(2);
pub const FULL: u8 = 100;
pub const HALF: u8 = 50;
pub const NONE: u8 = 0;

/// The share refunded when cancelling at `now` a session starting at `start`.
pub fn percentage(now: DateTime<Utc>, start: DateTime<Utc>) -> u8 {
    let before = start - now;
    if before >= FULL_REFUND_BEFORE {
        FULL
    } else if before >= HALF_REFUND_BEFORE {
        HALF
    } else {
        NONE
    }
}

/// The refunded amount in cents (half of an odd cent amount rounds down).
pub fn amount(total_cents: i64, percentage: u8) -> i64 {
    total_cents * percentage as i64 / 100
}

/// Records the refund owed for a cancelled booking; the caller queues the payout job when the
/// returned amount is above zero. Free or unpaid bookings owe nothing.
pub async fn record(tx: &mut PgConnection, booking_id: Uuid, percentage: u8) -> Result<(Uuid, i64)> {
    record_for(tx, booking_id, percentage, RefundReason::Cancellation).await
}

/// [`record`] with why the refund is owed (a cancellation, or a seat removed by its mentor).
pub async fn record_for(
    tx: &mut PgConnection,
    booking_id: Uuid,
    percentage: u8,
    reason: RefundReason,
) -> Result<(Uuid, i64)> {
    let payment = sqlx::query!(
        "SELECT id, amount_cents FROM payments WHERE booking_id = $1 AND status = $2",
        booking_id,
        PaymentStatus::Approved as PaymentStatus,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let (payment_id, paid) = payment.map_or((None, 0), |p| (Some(p.id), p.amount_cents));
    // Earlier refunds (a complaint's, an admin's) count: together they never exceed what was paid.
    let refunded = sqlx::query_scalar!(
        r#"SELECT coalesce(sum(amount_cents), 0)::bigint AS "refunded!" FROM refunds WHERE booking_id = $1 AND status = ANY($2)"#,
        booking_id,
        &[RefundStatus::Pending, RefundStatus::Succeeded] as &[RefundStatus],
    )
    .fetch_one(&mut *tx)
    .await?;
    let cents = amount(paid, percentage).min((paid - refunded).max(0));
    let status = if cents > 0 {
        RefundStatus::Pending
    } else {
        RefundStatus::NotNeeded
    };
    let id = sqlx::query_scalar!(
        "INSERT INTO refunds (booking_id, payment_id, percentage, amount_cents, status, reason) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id",
        booking_id,
        payment_id,
        percentage as i16,
        cents,
        status as RefundStatus,
        reason as RefundReason,
    )
    .fetch_one(&mut *tx)
    .await?;
    Ok((id, cents))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(h: i64, s: i64) -> (DateTime<Utc>, DateTime<Utc>) {
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        (now, now + Duration::hours(h) + Duration::seconds(s))
    }

    #[test]
    fn tiers_at_their_exact_edges() {
        let p = |h, s| {
            let (now, start) = at(h, s);
            percentage(now, start)
        };
        assert_eq!(p(24, 1), 100);
        assert_eq!(p(24, 0), 100, "24 hours or more");
        assert_eq!(p(24, -1), 50);
        assert_eq!(p(2, 1), 50);
        assert_eq!(p(2, 0), 50, "2 to 24 hours");
        assert_eq!(p(2, -1), 0);
        assert_eq!(p(0, 0), 0);
    }

    #[test]
    fn amounts() {
        assert_eq!(amount(4000, FULL), 4000);
        assert_eq!(amount(4000, HALF), 2000);
        assert_eq!(amount(4001, HALF), 2000);
        assert_eq!(amount(4000, NONE), 0);
    }
}
