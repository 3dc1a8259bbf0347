//! Paying refunds out through the gateway once, whatever fails.
//!
//! Like charges: each try is recorded (`last_attempt_at`) in a committed transaction before the
//! gateway is called outside any transaction. A try whose answer was lost leaves the refund
//! 'pending' with `last_attempt_at` set, so the next try first asks the gateway whether it made
//! the refund (by our reference) before sending another.

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{
    PaymentGateway, RefundOutcome, RefundReason, RefundStatus,
    gateway::{self, RefundRequest},
};
use crate::Result;

pub enum Payout {
    Done,
    /// The gateway refused; the job retries with backoff.
    Retry(String),
}

/// A full refund of a charge that settled after its hold had gone (no booking to keep).
pub async fn record_reversal(
    tx: &mut PgConnection,
    booking_id: Uuid,
    payment_id: Uuid,
    amount_cents: i64,
) -> Result<Uuid> {
    Ok(sqlx::query_scalar!(
        "INSERT INTO refunds (booking_id, payment_id, percentage, amount_cents, status, reason)
         VALUES ($1, $2, 100, $3, $4, $5) RETURNING id",
        booking_id,
        payment_id,
        amount_cents,
        RefundStatus::Pending as RefundStatus,
        RefundReason::Reversal as RefundReason,
    )
    .fetch_one(&mut *tx)
    .await?)
}

/// Records that the gateway paid the refund back, once: in the same transaction its receipt is issued,
/// the seeker (and, for a refund the mentor did not cause by cancelling, the mentor) is notified, and the
/// refund e-mail with the receipt is queued.
async fn succeeded(pool: &PgPool, refund_id: Uuid, transaction_id: &str) -> Result<()> {
    let mut tx = pool.begin().await?;
    let done = sqlx::query!(
        "UPDATE refunds SET status = $3, gateway_transaction_id = $2, completed_at = now(), last_error = NULL
         WHERE id = $1 AND status = $4",
        refund_id,
        transaction_id,
        RefundStatus::Succeeded as RefundStatus,
        RefundStatus::Pending as RefundStatus,
    )
    .execute(&mut *tx)
    .await?;
    if done.rows_affected() == 1 {
        crate::receipts::issue_for_refund(&mut tx, refund_id, chrono::Utc::now()).await?;
        announce(&mut tx, refund_id).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Who paid, for what, and who the mentor is: the refund notices' facts.
async fn announce(tx: &mut PgConnection, refund_id: Uuid) -> Result<()> {
    let r = sqlx::query!(
        r#"SELECT r.amount_cents, r.reason AS "reason: RefundReason", b.user_id, m.user_id AS mentor_user_id,
                  coalesce(gs.title, s.title) AS "title!", u.first_name, u.last_name, p.card_last4 AS "card_last4?"
           FROM refunds r JOIN bookings b ON b.id = r.booking_id JOIN services s ON s.id = b.service_id
           JOIN mentors m ON m.id = b.mentor_id JOIN users u ON u.id = b.user_id
           LEFT JOIN group_sessions gs ON gs.id = b.group_session_id LEFT JOIN payments p ON p.id = r.payment_id
           WHERE r.id = $1"#,
        refund_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    let amount = crate::money::format(r.amount_cents);
    let card = r
        .card_last4
        .map(|l| format!(" to your card ending in {l}"))
        .unwrap_or_default();
    crate::notifications::notify(
        &mut *tx,
        r.user_id,
        crate::notifications::Kind::RefundIssued,
        "Refund issued",
        &format!(
            "A refund of ${amount} for \"{}\" was issued{card}. Your receipt is in your account.",
            r.title
        ),
        Some("/receipts"),
    )
    .await?;
    if mentor_hears_of(r.reason) {
        let last_initial = r.last_name.chars().next().map(|c| format!(" {c}.")).unwrap_or_default();
        crate::notifications::notify(
            &mut *tx,
            r.mentor_user_id,
            crate::notifications::Kind::RefundIssued,
            "Refund to a client",
            &format!(
                "{}{last_initial} was refunded ${amount} for \"{}\".",
                r.first_name, r.title
            ),
            Some("/mentor-dashboard"),
        )
        .await?;
    }
    crate::job_queue::email::enqueue(tx, &crate::job_queue::email::EmailJob::RefundIssued { refund_id }).await
}

/// Whether the mentor hears of a refund paid back: not of their own cancellation's or a late charge's
/// reversal, which tell them otherwise; of every refund decided about their session.
pub fn mentor_hears_of(reason: RefundReason) -> bool {
    !matches!(reason, RefundReason::Cancellation | RefundReason::Reversal)
}

/// Pays a pending refund out. An `Err` means the outcome is unknown: retry later.
pub async fn pay_out(pool: &PgPool, gateway: &dyn PaymentGateway, refund_id: Uuid) -> Result<Payout> {
    let mut tx = pool.begin().await?;
    // The refund's status, amount and last attempt, with its payment's transaction id and card's
    // last four digits (none for a refund without a payment).
    let row = sqlx::query!(
        r#"SELECT r.status AS "status: RefundStatus", r.amount_cents, r.last_attempt_at,
                  p.transaction_id AS "transaction_id?", p.card_last4 AS "card_last4?"
           FROM refunds r LEFT JOIN payments p ON p.id = r.payment_id WHERE r.id = $1 FOR UPDATE OF r"#,
        refund_id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some((status, cents, tried_before, Some(transaction_id), Some(last4))) = row.map(|r| {
        (
            r.status,
            r.amount_cents,
            r.last_attempt_at,
            r.transaction_id,
            r.card_last4,
        )
    }) else {
        return Ok(Payout::Done);
    };
    if status != RefundStatus::Pending {
        return Ok(Payout::Done);
    }
    let reference = gateway::reference(refund_id);
    if tried_before.is_some() {
        tx.commit().await?;
        if let Some(made) = gateway.find_refund(&reference).await? {
            succeeded(pool, refund_id, &made).await?;
            return Ok(Payout::Done);
        }
        tx = pool.begin().await?;
    }
    sqlx::query!(
        "UPDATE refunds SET last_attempt_at = now(), attempts = attempts + 1 WHERE id = $1",
        refund_id
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    let outcome = gateway
        .refund(RefundRequest {
            reference: &reference,
            transaction_id: &transaction_id,
            amount_cents: cents,
            card_last4: &last4,
        })
        .await?;
    match outcome {
        RefundOutcome::Refunded { transaction_id } => {
            succeeded(pool, refund_id, &transaction_id).await?;
            Ok(Payout::Done)
        }
        RefundOutcome::Failed { reason } => {
            tracing::warn!(refund = %refund_id, gateway_says = %reason, "the gateway refused a refund");
            sqlx::query!("UPDATE refunds SET last_error = $2 WHERE id = $1", refund_id, &reason)
                .execute(pool)
                .await?;
            Ok(Payout::Retry(reason))
        }
    }
}

/// After the last try: the refund stays visible as failed for an admin.
pub async fn mark_failed(pool: &PgPool, refund_id: Uuid, reason: &str) -> Result<()> {
    sqlx::query!(
        "UPDATE refunds SET status = $3, last_error = $2 WHERE id = $1 AND status = $4",
        refund_id,
        reason,
        RefundStatus::Failed as RefundStatus,
        RefundStatus::Pending as RefundStatus,
    )
    .execute(pool)
    .await?;
    Ok(())
}
