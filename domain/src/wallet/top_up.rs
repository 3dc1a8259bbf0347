//! Adding money to a balance by card, with the guarantees of booking payments (`payments::pay`):
//!
//! 1. [`start`] records the attempt ('processing', its own gateway reference) under the wallet's row
//!    lock, committed together with its reconciliation job; a request id seen before answers with
//!    that top-up instead (the same key twice charges once);
//! 2. the gateway is called outside any transaction;
//! 3. [`settle`] records the answer once: approved adds the `top_up` entry (the balance moves with
//!    it) and issues the receipt, in one transaction.
//!
//! A lost answer leaves the attempt 'processing'; the `wallet_top_up_reconciliation` job (and the
//! payments sweep) settles it from what the gateway knows of the reference ([`reconcile`]).

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{EntryKind, MAX_BALANCE_CENTS, MAX_TOP_UP_CENTS, MIN_TOP_UP_CENTS};
use crate::{
    Error, Result,
    money::{self, PaymentStatus},
    payments::{
        ChargeOutcome, PaymentGateway,
        card::Card,
        gateway::{self, ChargeRequest},
    },
};

pub const AMOUNT_RANGE: &str = "Amount must be between 10.00 and 500.00";
pub const TOPPED_UP: &str = "Your balance has been topped up.";
pub const NOT_PROCESSED: &str = "Payment could not be processed";
pub const IN_PROGRESS: &str = "This top-up is already being processed. Please wait a moment, then check your balance.";
pub const UNCONFIRMED: &str = "We could not confirm your payment with the bank yet. Please check your balance in a few minutes; you will not be charged twice.";
pub const NOT_CHARGED: &str = "The payment did not reach the bank. Nothing was charged.";
pub const REQUEST_ID_LENGTH: &str = "clientRequestId must be 1 to 100 characters";
/// The longest client request id kept.
pub const MAX_REQUEST_ID_CHARS: usize = 100;
/// How long a repeated request waits for the first one's outcome.
pub const WAIT_FOR_OTHER_TOP_UP: Duration = Duration::from_secs(15);
/// How often it looks.
pub const SETTLEMENT_POLL: Duration = Duration::from_millis(100);

/// 409 when the top-up would take the balance past its cap.
pub fn over_cap(room_cents: i64) -> Error {
    Error::conflict(format!(
        "A balance can hold at most ${}: you can add up to ${} now.",
        money::format(MAX_BALANCE_CENTS),
        money::format(room_cents.max(0))
    ))
}

/// Parses and checks a top-up amount (10.00 to 500.00).
pub fn parse_amount(raw: Option<&str>) -> Result<i64> {
    let cents = money::parse(raw.unwrap_or(""), AMOUNT_RANGE)?;
    if !(MIN_TOP_UP_CENTS..=MAX_TOP_UP_CENTS).contains(&cents) {
        return Err(Error::validation(AMOUNT_RANGE));
    }
    Ok(cents)
}

/// What topping up came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TopUp {
    /// Charged (now or by an earlier request with the same id); the balance after it.
    Done { balance_cents: i64 },
    /// Not charged; why, in the payer's words.
    Declined(String),
    /// Unknown yet; never charged twice.
    Pending(&'static str),
}

/// An attempt about to be charged.
pub struct Attempt {
    pub id: Uuid,
    pub reference: String,
    pub amount_cents: i64,
}

pub enum Start {
    Charge(Attempt),
    /// This request id was seen before: its status and message.
    Seen {
        id: Uuid,
        status: PaymentStatus,
        message: Option<String>,
    },
}

/// Step 1, in the caller's transaction (committed with the reconciliation job).
pub async fn start(
    tx: &mut PgConnection,
    gateway_name: &str,
    user_id: Uuid,
    client_request_id: &str,
    amount_cents: i64,
    card_last4: &str,
) -> Result<Start> {
    let balance = super::lock(tx, user_id).await?;
    let seen = sqlx::query!(
        r#"SELECT id, status AS "status: PaymentStatus", message FROM wallet_top_ups
           WHERE user_id = $1 AND client_request_id = $2"#,
        user_id,
        client_request_id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    if let Some(seen) = seen {
        return Ok(Start::Seen {
            id: seen.id,
            status: seen.status,
            message: seen.message,
        });
    }
    // Money already on its way in counts against the cap, so settling can never pass it.
    let in_flight = sqlx::query_scalar!(
        r#"SELECT coalesce(sum(amount_cents), 0)::bigint AS "cents!" FROM wallet_top_ups
           WHERE user_id = $1 AND status = $2"#,
        user_id,
        PaymentStatus::Processing as PaymentStatus,
    )
    .fetch_one(&mut *tx)
    .await?;
    let room = MAX_BALANCE_CENTS - balance - in_flight;
    if amount_cents > room {
        return Err(over_cap(room));
    }
    let id = Uuid::new_v4();
    let reference = gateway::reference(id);
    sqlx::query!(
        "INSERT INTO wallet_top_ups (id, user_id, client_request_id, gateway, reference, amount_cents, card_last4, status)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        id,
        user_id,
        client_request_id,
        gateway_name,
        &reference,
        amount_cents,
        card_last4,
        PaymentStatus::Processing as PaymentStatus,
    )
    .execute(&mut *tx)
    .await?;
    Ok(Start::Charge(Attempt {
        id,
        reference,
        amount_cents,
    }))
}

/// What settling came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Settled {
    Credited,
    AlreadySettled,
    Refused { reason: String },
}

/// Step 3: records the gateway's answer for a 'processing' top-up, once; approved credits the
/// balance and issues the receipt in the same transaction.
pub async fn settle(
    tx: &mut PgConnection,
    top_up_id: Uuid,
    outcome: &ChargeOutcome,
    now: DateTime<Utc>,
) -> Result<Settled> {
    let user_id = sqlx::query_scalar!("SELECT user_id FROM wallet_top_ups WHERE id = $1", top_up_id)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found("Top-up not found"))?;
    // The wallet first, as `start` locks it, so the two never wait for each other in a circle.
    super::lock(tx, user_id).await?;
    let row = sqlx::query!(
        r#"SELECT status AS "status: PaymentStatus", amount_cents FROM wallet_top_ups WHERE id = $1 FOR UPDATE"#,
        top_up_id
    )
    .fetch_one(&mut *tx)
    .await?;
    if row.status != PaymentStatus::Processing {
        return Ok(Settled::AlreadySettled);
    }
    let (status, transaction_id, message) = match outcome {
        ChargeOutcome::Approved { transaction_id } => (PaymentStatus::Approved, Some(transaction_id.as_str()), None),
        ChargeOutcome::Declined { reason } => (PaymentStatus::Declined, None, Some(reason.as_str())),
        ChargeOutcome::Error { reason } => (PaymentStatus::Error, None, Some(reason.as_str())),
    };
    sqlx::query!(
        "UPDATE wallet_top_ups SET status = $2, transaction_id = $3, message = $4, settled_at = $5 WHERE id = $1",
        top_up_id,
        status as PaymentStatus,
        transaction_id,
        message,
        now,
    )
    .execute(&mut *tx)
    .await?;
    if status != PaymentStatus::Approved {
        return Ok(Settled::Refused {
            reason: message.unwrap_or_default().to_string(),
        });
    }
    sqlx::query!(
        "INSERT INTO wallet_entries (user_id, kind, amount_cents, top_up_id, created_at) VALUES ($1, $2, $3, $4, $5)",
        user_id,
        EntryKind::TopUp as EntryKind,
        row.amount_cents,
        top_up_id,
        now,
    )
    .execute(&mut *tx)
    .await?;
    crate::receipts::issue_for_top_up(tx, top_up_id, now).await?;
    Ok(Settled::Credited)
}

async fn settle_now(pool: &PgPool, top_up_id: Uuid, outcome: &ChargeOutcome) -> Result<Settled> {
    let mut tx = pool.begin().await?;
    let settled = settle(&mut tx, top_up_id, outcome, Utc::now()).await?;
    tx.commit().await?;
    Ok(settled)
}

/// The status and message of a top-up.
async fn status_of(pool: &PgPool, top_up_id: Uuid) -> Result<(PaymentStatus, Option<String>)> {
    let r = sqlx::query!(
        r#"SELECT status AS "status: PaymentStatus", message FROM wallet_top_ups WHERE id = $1"#,
        top_up_id
    )
    .fetch_one(pool)
    .await?;
    Ok((r.status, r.message))
}

/// What a settled (or still open) top-up answers.
async fn answer(pool: &PgPool, user_id: Uuid, status: PaymentStatus, message: Option<String>) -> Result<TopUp> {
    Ok(match status {
        PaymentStatus::Approved => TopUp::Done {
            balance_cents: super::balance(pool, user_id).await?,
        },
        PaymentStatus::Processing => TopUp::Pending(UNCONFIRMED),
        PaymentStatus::Declined | PaymentStatus::Error => {
            TopUp::Declined(message.unwrap_or_else(|| NOT_CHARGED.into()))
        }
    })
}

/// Tops up the balance of `user_id` by `amount_cents` with `card`; `client_request_id` makes a
/// repeated request answer with the first one's outcome. A lost answer is settled by the
/// reconciliation job, queued for `reconcile_after` (at least the gateway's deadline).
pub async fn top_up(
    pool: &PgPool,
    gateway: &dyn PaymentGateway,
    reconcile_after: chrono::Duration,
    user_id: Uuid,
    client_request_id: &str,
    amount_cents: i64,
    card: &Card,
) -> Result<TopUp> {
    if client_request_id.is_empty() || client_request_id.chars().count() > MAX_REQUEST_ID_CHARS {
        return Err(Error::validation(REQUEST_ID_LENGTH));
    }
    let reconcile_after =
        reconcile_after.max(chrono::Duration::from_std(gateway.answer_deadline()).unwrap_or_default());
    let now = Utc::now();
    let mut tx = pool.begin().await?;
    let started = start(
        &mut tx,
        gateway.name(),
        user_id,
        client_request_id,
        amount_cents,
        card.last4(),
    )
    .await?;
    if let Start::Charge(attempt) = &started {
        super::jobs::schedule_reconciliation(&mut tx, attempt.id, now + reconcile_after).await?;
    }
    tx.commit().await?;
    let attempt = match started {
        Start::Seen {
            id,
            status: PaymentStatus::Processing,
            ..
        } => {
            let until = tokio::time::Instant::now() + WAIT_FOR_OTHER_TOP_UP.min(gateway.answer_deadline());
            loop {
                let (status, message) = status_of(pool, id).await?;
                if status != PaymentStatus::Processing {
                    return answer(pool, user_id, status, message).await;
                }
                if tokio::time::Instant::now() >= until {
                    return Ok(TopUp::Pending(IN_PROGRESS));
                }
                tokio::time::sleep(SETTLEMENT_POLL).await;
            }
        }
        Start::Seen { status, message, .. } => return answer(pool, user_id, status, message).await,
        Start::Charge(attempt) => attempt,
    };
    let request = ChargeRequest {
        reference: &attempt.reference,
        amount_cents: attempt.amount_cents,
        card,
        description: "Wallet top-up",
    };
    let outcome = match gateway.charge(request).await {
        Ok(outcome) => outcome,
        Err(err) => {
            tracing::warn!(top_up = %attempt.id, error = %format!("{err:#}"), "no answer from the gateway; reconciliation will settle the top-up");
            return Ok(TopUp::Pending(UNCONFIRMED));
        }
    };
    match settle_now(pool, attempt.id, &outcome).await? {
        Settled::Refused { reason } => Ok(TopUp::Declined(reason)),
        Settled::Credited | Settled::AlreadySettled => {
            let (status, message) = status_of(pool, attempt.id).await?;
            answer(pool, user_id, status, message).await
        }
    }
}

/// A top-up left open: what reconciliation needs.
#[derive(Debug)]
pub struct OpenTopUp {
    pub id: Uuid,
    pub reference: String,
    pub created_at: DateTime<Utc>,
}

pub async fn open_top_up(db: &PgPool, top_up_id: Uuid) -> Result<Option<OpenTopUp>> {
    Ok(sqlx::query_as!(
        OpenTopUp,
        "SELECT id, reference, created_at FROM wallet_top_ups WHERE id = $1 AND status = $2",
        top_up_id,
        PaymentStatus::Processing as PaymentStatus,
    )
    .fetch_optional(db)
    .await?)
}

/// Top-ups still 'processing' that were started before `before`.
pub async fn open_top_ups_before(db: &PgPool, before: DateTime<Utc>) -> Result<Vec<OpenTopUp>> {
    Ok(sqlx::query_as!(
        OpenTopUp,
        "SELECT id, reference, created_at FROM wallet_top_ups WHERE status = $2 AND created_at < $1 ORDER BY created_at LIMIT 500",
        before,
        PaymentStatus::Processing as PaymentStatus,
    )
    .fetch_all(db)
    .await?)
}

/// Settles one open top-up from what the gateway knows of its reference. `Ok(None)` when the
/// gateway cannot tell yet.
pub async fn reconcile(pool: &PgPool, gateway: &dyn PaymentGateway, open: &OpenTopUp) -> Result<Option<Settled>> {
    let outcome = match gateway.find_charge(&open.reference).await? {
        Some(outcome) => outcome,
        None => {
            let age = (Utc::now() - open.created_at).to_std().unwrap_or_default();
            if age < gateway.answer_deadline() {
                return Ok(None);
            }
            ChargeOutcome::Error {
                reason: NOT_CHARGED.into(),
            }
        }
    };
    Ok(Some(settle_now(pool, open.id, &outcome).await?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn amounts_from_ten_to_five_hundred() {
        assert_eq!(parse_amount(Some("10.00")).unwrap(), 1_000);
        assert_eq!(parse_amount(Some("500")).unwrap(), 50_000);
        for bad in [None, Some("9.99"), Some("500.01"), Some("abc"), Some("-10")] {
            assert_eq!(parse_amount(bad).unwrap_err().to_string(), AMOUNT_RANGE, "{bad:?}");
        }
    }

    #[test]
    fn a_repeated_request_waits_fifteen_seconds_and_ids_hold_a_hundred_characters() {
        assert_eq!(WAIT_FOR_OTHER_TOP_UP, Duration::from_secs(15));
        assert_eq!(MAX_REQUEST_ID_CHARS, 100);
    }

    #[test]
    fn the_cap_message_names_what_still_fits() {
        assert_eq!(
            over_cap(2_500).to_string(),
            "A balance can hold at most $1000.00: you can add up to $25.00 now."
        );
    }
}
