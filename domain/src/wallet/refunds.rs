//! Giving a balance back to the cards it came from (`POST /api/admin/wallets/{userId}/refund`).
//!
//! One transaction under the wallet's row lock: the amount is split over the approved top-ups with
//! something left to refund, newest first; each part is a `wallet_refunds` row ('pending'), a
//! negative `refund` entry (the balance drops at once, and its CHECK refuses more than it holds), and
//! its `wallet_refunds` job; the admin's audit row commits with them. The job pays each part through
//! the gateway exactly once ([`pay_out`]: a try whose answer was lost is looked up by reference
//! first); a part that fails for good is given back to the balance by an `adjustment` entry.

use chrono::{DateTime, Utc};
use serde_json::json;
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::EntryKind;
use crate::{
    Error, Result,
    audit::{self, AuditEntry},
    money::{self, PaymentStatus, RefundStatus},
    payments::{
        PaymentGateway, RefundOutcome,
        gateway::{self, RefundRequest},
    },
};

pub const USER_NOT_FOUND: &str = "User not found";
pub const AMOUNT_INVALID: &str = "Amount must be a positive amount with at most two decimals";
pub const REASON_REQUIRED: &str = "Please give a reason (1 to 1,000 characters)";
/// The longest reason kept.
pub const MAX_REASON_CHARS: usize = 1_000;
pub const NOTHING_TO_REFUND: &str = "This balance has nothing to refund";

/// 409: more than the balance.
pub fn over_balance(balance_cents: i64) -> Error {
    Error::conflict(format!(
        "The refund cannot be more than the balance (${})",
        money::format(balance_cents)
    ))
}

/// 409: more than what came from cards and is not refunded yet.
pub fn over_cards(refundable_cents: i64) -> Error {
    Error::conflict(format!(
        "Only ${} of this balance can go back to the cards it came from",
        money::format(refundable_cents)
    ))
}

/// One part of a refund: what goes back to which top-up's card.
#[derive(Clone, Debug)]
pub struct Part {
    pub id: Uuid,
    pub top_up_id: Uuid,
    pub amount_cents: i64,
    pub card_last4: String,
    pub status: RefundStatus,
    pub created_at: DateTime<Utc>,
}

#[derive(Clone, Debug)]
pub struct Refunded {
    pub balance_cents: i64,
    pub amount_cents: i64,
    pub parts: Vec<Part>,
}

/// Splits `amount` over top-ups (id, refundable) in the order given: newest first.
pub fn split(amount_cents: i64, top_ups: &[(Uuid, i64)]) -> Vec<(Uuid, i64)> {
    let mut left = amount_cents;
    let mut parts = Vec::new();
    for &(id, refundable) in top_ups {
        if left == 0 {
            break;
        }
        let part = refundable.min(left);
        if part > 0 {
            parts.push((id, part));
            left -= part;
        }
    }
    parts
}

/// An admin refunds `amount` of the balance of `user_id` to its cards, newest top-ups first.
pub async fn refund(
    pool: &PgPool,
    admin_id: Uuid,
    user_id: Uuid,
    amount: Option<&str>,
    reason: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Refunded> {
    let amount_cents = money::parse(amount.unwrap_or(""), AMOUNT_INVALID)?;
    if amount_cents <= 0 {
        return Err(Error::validation(AMOUNT_INVALID));
    }
    let reason = reason.map(str::trim).unwrap_or("");
    if reason.is_empty() || reason.chars().count() > MAX_REASON_CHARS {
        return Err(Error::validation(REASON_REQUIRED));
    }
    let mut tx = pool.begin().await?;
    let exists = sqlx::query_scalar!("SELECT 1 AS \"one!\" FROM users WHERE id = $1", user_id)
        .fetch_optional(&mut *tx)
        .await?;
    if exists.is_none() {
        return Err(Error::not_found(USER_NOT_FOUND));
    }
    let before = super::lock(&mut tx, user_id).await?;
    if before == 0 {
        return Err(Error::conflict(NOTHING_TO_REFUND));
    }
    if amount_cents > before {
        return Err(over_balance(before));
    }
    let top_ups = refundable_top_ups(&mut tx, user_id).await?;
    let refundable: i64 = top_ups.iter().map(|t| t.refundable).sum();
    if amount_cents > refundable {
        return Err(over_cards(refundable));
    }
    let parts = record_parts(&mut tx, Some(admin_id), user_id, amount_cents, reason, &top_ups, now).await?;
    let after = super::balance(&mut *tx, user_id).await?;
    audit::record(
        &mut tx,
        AuditEntry {
            admin_id,
            action: "wallet.refund",
            object_type: "wallet",
            object_id: user_id.to_string(),
            before: Some(json!({ "balance": money::format(before) })),
            after: Some(json!({
                "balance": money::format(after),
                "amount": money::format(amount_cents),
                "reason": reason,
                "refunds": parts.iter().map(|p| json!({
                    "id": p.id, "topUpId": p.top_up_id, "amount": money::format(p.amount_cents),
                })).collect::<Vec<_>>(),
            })),
        },
    )
    .await?;
    tx.commit().await?;
    Ok(Refunded {
        balance_cents: after,
        amount_cents,
        parts,
    })
}

/// What the deletion of an account gave back to its cards.
pub const DELETION_REASON: &str = "Account deleted";

/// Gives back what is left of a balance whose owner deleted their account (at the request and, for
/// what came in during the grace period, at the removal), in the caller's transaction: as much as
/// the cards it came from can take, newest top-ups first. Credits that came from no card (an admin's
/// adjustment) stay on the anonymised wallet, in the ledger. `None` when there is nothing to give back.
pub async fn refund_on_deletion(tx: &mut PgConnection, user_id: Uuid, now: DateTime<Utc>) -> Result<Option<Refunded>> {
    let before = super::lock(tx, user_id).await?;
    let top_ups = refundable_top_ups(tx, user_id).await?;
    let amount_cents = before.min(top_ups.iter().map(|t| t.refundable).sum());
    if amount_cents <= 0 {
        return Ok(None);
    }
    let parts = record_parts(tx, None, user_id, amount_cents, DELETION_REASON, &top_ups, now).await?;
    let after = super::balance(&mut *tx, user_id).await?;
    tracing::info!(%user_id, amount = %money::format(amount_cents), parts = parts.len(), "wallet refunded on account deletion");
    Ok(Some(Refunded {
        balance_cents: after,
        amount_cents,
        parts,
    }))
}

/// An approved top-up with something left to give back.
struct RefundableTopUp {
    id: Uuid,
    card_last4: String,
    refundable: i64,
}

/// The user's approved top-ups with what is left to refund on each, newest first.
async fn refundable_top_ups(tx: &mut PgConnection, user_id: Uuid) -> Result<Vec<RefundableTopUp>> {
    let rows = sqlx::query!(
        r#"SELECT t.id, t.card_last4,
                  t.amount_cents - coalesce((SELECT sum(r.amount_cents) FROM wallet_refunds r
                                             WHERE r.top_up_id = t.id AND r.status <> $3), 0)::bigint AS "refundable!"
           FROM wallet_top_ups t WHERE t.user_id = $1 AND t.status = $2
           ORDER BY t.settled_at DESC, t.created_at DESC"#,
        user_id,
        PaymentStatus::Approved as PaymentStatus,
        RefundStatus::Failed as RefundStatus,
    )
    .fetch_all(&mut *tx)
    .await?;
    Ok(rows
        .into_iter()
        .map(|t| RefundableTopUp {
            id: t.id,
            card_last4: t.card_last4,
            refundable: t.refundable.max(0),
        })
        .collect())
}

/// Splits `amount_cents` over `top_ups` and records each part: its `wallet_refunds` row, its
/// negative ledger entry and its job. The caller holds the wallet's lock and checked the amount.
async fn record_parts(
    tx: &mut PgConnection,
    admin_id: Option<Uuid>,
    user_id: Uuid,
    amount_cents: i64,
    reason: &str,
    top_ups: &[RefundableTopUp],
    now: DateTime<Utc>,
) -> Result<Vec<Part>> {
    let pairs: Vec<(Uuid, i64)> = top_ups.iter().map(|t| (t.id, t.refundable)).collect();
    let mut parts = Vec::new();
    for (top_up_id, cents) in split(amount_cents, &pairs) {
        let id = sqlx::query_scalar!(
            "INSERT INTO wallet_refunds (user_id, top_up_id, admin_id, amount_cents, reason, status, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
            user_id,
            top_up_id,
            admin_id,
            cents,
            reason,
            RefundStatus::Pending as RefundStatus,
            now,
        )
        .fetch_one(&mut *tx)
        .await?;
        sqlx::query!(
            "INSERT INTO wallet_entries (user_id, kind, amount_cents, wallet_refund_id, created_at)
             VALUES ($1, $2, $3, $4, $5)",
            user_id,
            EntryKind::Refund as EntryKind,
            -cents,
            id,
            now,
        )
        .execute(&mut *tx)
        .await?;
        super::jobs::schedule_refund(tx, id).await?;
        let card_last4 = top_ups
            .iter()
            .find(|t| t.id == top_up_id)
            .map(|t| t.card_last4.clone())
            .unwrap_or_default();
        parts.push(Part {
            id,
            top_up_id,
            amount_cents: cents,
            card_last4,
            status: RefundStatus::Pending,
            created_at: now,
        });
    }
    Ok(parts)
}

pub enum Payout {
    Done,
    /// The gateway refused; the job retries with backoff.
    Retry(String),
}

async fn succeeded(pool: &PgPool, refund_id: Uuid, transaction_id: &str) -> Result<()> {
    sqlx::query!(
        "UPDATE wallet_refunds SET status = $3, gateway_transaction_id = $2, completed_at = now(), last_error = NULL
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

/// Pays a pending wallet refund out to its top-up's card. `Err`: the outcome is unknown, retry later.
pub async fn pay_out(pool: &PgPool, gateway: &dyn PaymentGateway, refund_id: Uuid) -> Result<Payout> {
    let mut tx = pool.begin().await?;
    let row = sqlx::query!(
        r#"SELECT r.status AS "status: RefundStatus", r.amount_cents, r.last_attempt_at, t.transaction_id, t.card_last4
           FROM wallet_refunds r JOIN wallet_top_ups t ON t.id = r.top_up_id WHERE r.id = $1 FOR UPDATE OF r"#,
        refund_id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let Some(row) = row else {
        return Ok(Payout::Done);
    };
    let Some(transaction_id) = row.transaction_id else {
        return Ok(Payout::Done);
    };
    if row.status != RefundStatus::Pending {
        return Ok(Payout::Done);
    }
    let reference = gateway::reference(refund_id);
    if row.last_attempt_at.is_some() {
        tx.commit().await?;
        if let Some(made) = gateway.find_refund(&reference).await? {
            succeeded(pool, refund_id, &made).await?;
            return Ok(Payout::Done);
        }
        tx = pool.begin().await?;
    }
    sqlx::query!(
        "UPDATE wallet_refunds SET last_attempt_at = now(), attempts = attempts + 1 WHERE id = $1",
        refund_id
    )
    .execute(&mut *tx)
    .await?;
    tx.commit().await?;
    let outcome = gateway
        .refund(RefundRequest {
            reference: &reference,
            transaction_id: &transaction_id,
            amount_cents: row.amount_cents,
            card_last4: &row.card_last4,
        })
        .await?;
    match outcome {
        RefundOutcome::Refunded { transaction_id } => {
            succeeded(pool, refund_id, &transaction_id).await?;
            Ok(Payout::Done)
        }
        RefundOutcome::Failed { reason } => {
            tracing::warn!(wallet_refund = %refund_id, gateway_says = %reason, "the gateway refused a wallet refund");
            sqlx::query!(
                "UPDATE wallet_refunds SET last_error = $2 WHERE id = $1",
                refund_id,
                &reason
            )
            .execute(pool)
            .await?;
            Ok(Payout::Retry(reason))
        }
    }
}

/// After the last try: the refund is marked failed and its amount given back to the balance, once.
pub async fn mark_failed(pool: &PgPool, refund_id: Uuid, reason: &str) -> Result<()> {
    let mut tx = pool.begin().await?;
    let failed = sqlx::query!(
        "UPDATE wallet_refunds SET status = $3, last_error = $2 WHERE id = $1 AND status = $4
         RETURNING user_id, amount_cents",
        refund_id,
        reason,
        RefundStatus::Failed as RefundStatus,
        RefundStatus::Pending as RefundStatus,
    )
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(f) = failed {
        give_back(&mut tx, f.user_id, f.amount_cents, refund_id).await?;
    }
    tx.commit().await?;
    Ok(())
}

async fn give_back(tx: &mut PgConnection, user_id: Uuid, amount_cents: i64, refund_id: Uuid) -> Result<()> {
    super::adjust(
        tx,
        user_id,
        amount_cents,
        &format!("refund {refund_id} failed; given back"),
    )
    .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refund_takes_the_newest_top_ups_first() {
        let (a, b, c) = (Uuid::new_v4(), Uuid::new_v4(), Uuid::new_v4());
        assert_eq!(
            split(7_000, &[(a, 5_000), (b, 0), (c, 5_000)]),
            vec![(a, 5_000), (c, 2_000)]
        );
        assert_eq!(split(1_000, &[(a, 5_000), (c, 5_000)]), vec![(a, 1_000)]);
    }

    #[test]
    fn reasons_hold_a_thousand_characters() {
        assert_eq!(MAX_REASON_CHARS, 1_000);
    }
}
