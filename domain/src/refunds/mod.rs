//! Deciding refunds beyond a cancellation's: a complaint's outcome, a no-show, an admin's goodwill. A
//! booking may have several refunds; together they never exceed what was paid. Each is recorded
//! 'pending' under the booking's row lock (so concurrent decisions take turns and the second sees the
//! first), its payout job is queued in the same transaction (`payments::refund_payout` pays it once),
//! and payouts follow at once (`payouts::adjustments`).

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::{
    Error, Result, audit,
    booking::BookingStatus,
    job_queue,
    money::{self, PaymentStatus, RefundReason, RefundStatus},
    payouts::adjustments,
    text,
};

pub const NOT_FOUND: &str = "Booking not found";
pub const NOT_PAID: &str = "Only paid bookings can be refunded";
pub const NOTHING_LEFT: &str = "This booking has nothing left to refund";
pub const INVALID_AMOUNT: &str = "Amount must be a positive amount with at most two decimals";
pub const NO_REASON: &str = "Please give a reason for the refund (up to 1,000 characters)";
/// A refund's note (an admin's reason) is at most this long.
pub const MAX_NOTE_CHARS: usize = 1000;

/// The money of one booking, read under its row lock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookingMoney {
    pub booking_id: Uuid,
    pub mentor_id: Uuid,
    pub user_id: Uuid,
    pub mentor_user_id: Uuid,
    pub status: BookingStatus,
    /// The approved payment, when the booking was paid for.
    pub payment_id: Option<Uuid>,
    pub paid_cents: i64,
    /// Refunded or being refunded (pending or succeeded).
    pub refunded_cents: i64,
}

impl BookingMoney {
    /// What can still go back.
    pub fn left_cents(&self) -> i64 {
        (self.paid_cents - self.refunded_cents).max(0)
    }
}

/// Locks the booking (`FOR UPDATE`) and reads what was paid and refunded. `None` for an unknown booking.
pub async fn locked_money(conn: &mut PgConnection, booking_id: Uuid) -> Result<Option<BookingMoney>> {
    let row = sqlx::query!(
        r#"SELECT b.id, b.mentor_id, b.user_id, m.user_id AS mentor_user_id, b.status AS "status: BookingStatus"
           FROM bookings b JOIN mentors m ON m.id = b.mentor_id WHERE b.id = $1 FOR UPDATE OF b"#,
        booking_id,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(b) = row else { return Ok(None) };
    let payment = sqlx::query!(
        "SELECT id, amount_cents FROM payments WHERE booking_id = $1 AND status = $2",
        booking_id,
        PaymentStatus::Approved as PaymentStatus,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let refunded_cents = sqlx::query_scalar!(
        r#"SELECT coalesce(sum(amount_cents), 0)::bigint AS "refunded!" FROM refunds WHERE booking_id = $1 AND status = ANY($2)"#,
        booking_id,
        &[RefundStatus::Pending, RefundStatus::Succeeded] as &[RefundStatus],
    )
    .fetch_one(&mut *conn)
    .await?;
    Ok(Some(BookingMoney {
        booking_id: b.id,
        mentor_id: b.mentor_id,
        user_id: b.user_id,
        mentor_user_id: b.mentor_user_id,
        status: b.status,
        payment_id: payment.as_ref().map(|p| p.id),
        paid_cents: payment.map_or(0, |p| p.amount_cents),
        refunded_cents,
    }))
}

/// A refund recorded and queued.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Recorded {
    pub refund_id: Uuid,
    pub amount_cents: i64,
    pub followed: adjustments::Followed,
}

/// Records a refund of `cents` (above zero, at most what is left: the caller checked under the lock of
/// [`locked_money`]) with its reason, queues its payout and makes payouts follow, in the caller's
/// transaction.
pub async fn record(
    conn: &mut PgConnection,
    money: &BookingMoney,
    cents: i64,
    reason: RefundReason,
    decided_by: Option<Uuid>,
    note: Option<&str>,
) -> Result<Recorded> {
    debug_assert!(cents > 0 && cents <= money.left_cents());
    let refund_id = sqlx::query_scalar!(
        "INSERT INTO refunds (booking_id, payment_id, amount_cents, status, reason, decided_by, note)
         VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
        money.booking_id,
        money.payment_id,
        cents,
        RefundStatus::Pending as RefundStatus,
        reason as RefundReason,
        decided_by,
        note,
    )
    .fetch_one(&mut *conn)
    .await?;
    job_queue::refunds::enqueue(conn, refund_id).await?;
    let followed = adjustments::follow_refund(conn, money.mentor_id, money.booking_id, refund_id, cents).await?;
    Ok(Recorded {
        refund_id,
        amount_cents: cents,
        followed,
    })
}

/// An admin's note or reason: trimmed, 1 to 1,000 characters.
pub fn note(raw: Option<&str>, message: &str) -> Result<String> {
    let n = raw.map(str::trim).unwrap_or_default();
    if n.is_empty() || n.chars().count() > MAX_NOTE_CHARS {
        return Err(Error::validation(message));
    }
    text::multi_line(n, "Note")?;
    Ok(n.to_string())
}

/// A positive amount in cents from its decimal text.
pub fn positive_amount(raw: Option<&str>) -> Result<i64> {
    let cents = money::parse(raw.unwrap_or_default(), INVALID_AMOUNT)?;
    if cents <= 0 {
        return Err(Error::validation(INVALID_AMOUNT));
    }
    Ok(cents)
}

/// The 409 of an amount above what is left.
pub fn too_much(left_cents: i64) -> Error {
    if left_cents == 0 {
        Error::conflict(NOTHING_LEFT)
    } else {
        Error::conflict(format!(
            "The refund cannot be more than what is left to refund (${})",
            money::format(left_cents)
        ))
    }
}

/// What an admin's goodwill refund did.
#[derive(Clone, Copy, Debug)]
pub struct Goodwill {
    pub booking_id: Uuid,
    pub refund: Recorded,
    pub paid_cents: i64,
    /// Refunded or being refunded, this refund included.
    pub refunded_cents: i64,
}

/// An admin refunds `amount` of any paid booking, at any time, with a reason: one transaction that
/// checks what is left under the booking's lock, records and queues the refund, makes payouts follow
/// and writes the audit row. Concurrent calls for the rest: one succeeds, the others see nothing left.
pub async fn goodwill(
    pool: &PgPool,
    admin_id: Uuid,
    booking_id: Uuid,
    amount: Option<&str>,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Goodwill> {
    let cents = positive_amount(amount)?;
    let reason = note(reason, NO_REASON)?;
    let mut tx = pool.begin().await?;
    let money = locked_money(&mut tx, booking_id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    if money.payment_id.is_none() || money.paid_cents == 0 {
        return Err(Error::conflict(NOT_PAID));
    }
    if cents > money.left_cents() {
        return Err(too_much(money.left_cents()));
    }
    let refund = record(
        &mut tx,
        &money,
        cents,
        RefundReason::Goodwill,
        Some(admin_id),
        Some(&reason),
    )
    .await?;
    audit::record(
        &mut tx,
        audit::AuditEntry {
            admin_id,
            action: "booking.refund",
            object_type: "booking",
            object_id: booking_id.to_string(),
            before: Some(
                json!({"paid": money::format(money.paid_cents), "refunded": money::format(money.refunded_cents)}),
            ),
            after: Some(json!({
                "refundId": refund.refund_id,
                "amount": money::format(cents),
                "reason": reason,
                "refunded": money::format(money.refunded_cents + cents),
                "at": now,
            })),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Goodwill {
        booking_id,
        refund,
        paid_cents: money.paid_cents,
        refunded_cents: money.refunded_cents + cents,
    })
}

/// What the e-mails of a refund paid back need.
#[derive(Clone, Debug)]
pub struct RefundMail {
    pub reason: RefundReason,
    pub amount_cents: i64,
    pub title: String,
    pub seeker_first_name: String,
    pub seeker_last_name: String,
    pub mentor_email: String,
    pub mentor_first_name: String,
}

pub async fn mail_facts(pool: &PgPool, refund_id: Uuid) -> Result<Option<RefundMail>> {
    Ok(sqlx::query_as!(
        RefundMail,
        r#"SELECT r.reason AS "reason: RefundReason", r.amount_cents, coalesce(gs.title, s.title) AS "title!",
                  u.first_name AS seeker_first_name, u.last_name AS seeker_last_name,
                  mu.email AS mentor_email, mu.first_name AS mentor_first_name
           FROM refunds r JOIN bookings b ON b.id = r.booking_id JOIN services s ON s.id = b.service_id
           LEFT JOIN group_sessions gs ON gs.id = b.group_session_id JOIN users u ON u.id = b.user_id
           JOIN mentors m ON m.id = b.mentor_id JOIN users mu ON mu.id = m.user_id
           WHERE r.id = $1 AND r.status = $2"#,
        refund_id,
        RefundStatus::Succeeded as RefundStatus,
    )
    .fetch_optional(pool)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn money(paid: i64, refunded: i64) -> BookingMoney {
        BookingMoney {
            booking_id: Uuid::nil(),
            mentor_id: Uuid::nil(),
            user_id: Uuid::nil(),
            mentor_user_id: Uuid::nil(),
            status: BookingStatus::Completed,
            payment_id: Some(Uuid::nil()),
            paid_cents: paid,
            refunded_cents: refunded,
        }
    }

    #[test]
    fn what_is_left_is_paid_less_refunded_never_below_zero() {
        assert_eq!(money(5000, 0).left_cents(), 5000);
        assert_eq!(money(5000, 1250).left_cents(), 3750);
        assert_eq!(money(5000, 5000).left_cents(), 0);
        assert_eq!(money(0, 0).left_cents(), 0);
    }

    #[test]
    fn amounts_must_be_positive_and_notes_one_to_a_thousand_characters() {
        assert_eq!(positive_amount(Some("12.50")).unwrap(), 1250);
        assert_eq!(positive_amount(Some("0.01")).unwrap(), 1);
        for bad in [None, Some("0"), Some("0.00"), Some("-1"), Some("1.234"), Some("x")] {
            assert_eq!(positive_amount(bad).unwrap_err().to_string(), INVALID_AMOUNT, "{bad:?}");
        }
        assert_eq!(note(Some("  kind  "), NO_REASON).unwrap(), "kind");
        assert_eq!(note(Some(&"a".repeat(1000)), NO_REASON).unwrap().len(), 1000);
        assert!(note(Some(&"a".repeat(1001)), NO_REASON).is_err());
        assert!(note(Some("   "), NO_REASON).is_err());
        assert!(note(None, NO_REASON).is_err());
    }

    #[test]
    fn too_much_names_what_is_left() {
        assert_eq!(
            too_much(1234).to_string(),
            "The refund cannot be more than what is left to refund ($12.34)"
        );
        assert_eq!(too_much(0).to_string(), NOTHING_LEFT);
    }
}
