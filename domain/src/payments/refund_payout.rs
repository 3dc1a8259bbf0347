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

async fn succeeded(pool: &PgPool, refund_id: Uuid, transaction_id: &str) -> Result<()> {
    sqlx::query!(
        "UPDATE refunds SET status = $3, gateway_transaction_id = $2, completed_at = now(), last_error = NULL
         WHERE id = $1 AND status = $4",
        refund_id,
        transaction_id,
        RefundStatus::Succeeded as RefundStatus,
        RefundStatus::Pending as RefundStatus,
    )
    .execute(pool)
    .await?;
    Ok(())
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
