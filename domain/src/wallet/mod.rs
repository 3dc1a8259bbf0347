//! A seeker's prepaid balance (issue 36, §1): a ledger of signed entries that are never changed or
//! deleted (money in positive, out negative). The balance is their sum: a trigger moves
//! `wallets.balance_cents` with every entry in the entry's own transaction, and CHECK constraints
//! refuse a balance below zero or above [`MAX_BALANCE_CENTS`], so no code path can overdraw it.
//!
//! - [`top_up`]: card payments into the balance, with the guarantees of booking payments
//!   (attempt recorded with its reconciliation job, gateway outside any transaction, idempotent by
//!   the client's request id, a receipt in the settling transaction).
//! - [`refunds`]: an admin gives money back to the cards it came from, newest top-ups first.
//! - [`jobs`]: the reconciliation of a lost top-up answer and the payout of a wallet refund.

pub mod jobs;
pub mod refunds;
pub mod top_up;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::Result;

/// The smallest top-up: $10.00.
pub const MIN_TOP_UP_CENTS: i64 = 1_000;
/// The largest top-up: $500.00.
pub const MAX_TOP_UP_CENTS: i64 = 50_000;
/// The most a balance may hold: $1,000.00 (also the CHECK `wallets_balance_cap`).
pub const MAX_BALANCE_CENTS: i64 = 100_000;
/// Entries per page of `GET /api/wallet` when none is asked for, and the most a page may hold.
pub const DEFAULT_PAGE_SIZE: i64 = 20;
pub const MAX_PAGE_SIZE: i64 = 100;

closed_set! {
    /// What moved money in or out of a balance.
    #[cfg_attr(feature = "openapi", oai(rename = "WalletEntryKind"))]
    pub enum EntryKind ("wallet entry kind") {
        TopUp = "top_up",
        SessionCharge = "session_charge",
        Refund = "refund",
        Adjustment = "adjustment",
    }
}

/// One ledger entry as the owner sees it.
#[derive(Clone, Debug)]
pub struct Entry {
    pub id: Uuid,
    pub kind: EntryKind,
    pub amount_cents: i64,
    pub created_at: DateTime<Utc>,
    /// What the entry is about: the top-up's, the refund's or the reading's id, or an adjustment's note.
    pub reference: Option<String>,
}

/// A page of entries, newest first, with the balance.
#[derive(Clone, Debug)]
pub struct Statement {
    pub balance_cents: i64,
    pub entries: Vec<Entry>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// The balance of `user_id` (0 without a wallet yet).
pub async fn balance(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<i64> {
    Ok(
        sqlx::query_scalar!("SELECT balance_cents FROM wallets WHERE user_id = $1", user_id)
            .fetch_optional(db)
            .await?
            .unwrap_or(0),
    )
}

/// Takes the wallet's row lock (making the row first), so decisions about one balance take turns;
/// returns the balance.
pub async fn lock(conn: &mut PgConnection, user_id: Uuid) -> Result<i64> {
    sqlx::query!(
        "INSERT INTO wallets (user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING",
        user_id
    )
    .execute(&mut *conn)
    .await?;
    Ok(sqlx::query_scalar!(
        "SELECT balance_cents FROM wallets WHERE user_id = $1 FOR UPDATE",
        user_id
    )
    .fetch_one(&mut *conn)
    .await?)
}

/// A page of the ledger of `user_id`, newest first. `page` counts from 1.
pub async fn statement(
    conn: &mut PgConnection,
    user_id: Uuid,
    page: Option<i64>,
    page_size: Option<i64>,
) -> Result<Statement> {
    let page = page.unwrap_or(1).max(1);
    let page_size = page_size.unwrap_or(DEFAULT_PAGE_SIZE).clamp(1, MAX_PAGE_SIZE);
    let balance_cents = balance(&mut *conn, user_id).await?;
    let total = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM wallet_entries WHERE user_id = $1"#,
        user_id
    )
    .fetch_one(&mut *conn)
    .await?;
    let rows = sqlx::query!(
        r#"SELECT id, kind AS "kind: EntryKind", amount_cents, created_at,
                  coalesce(top_up_id::text, wallet_refund_id::text, instant_session_id::text, note) AS reference
           FROM wallet_entries WHERE user_id = $1
           ORDER BY created_at DESC, id DESC LIMIT $2 OFFSET $3"#,
        user_id,
        page_size,
        crate::paging::offset(page, page_size),
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(Statement {
        balance_cents,
        entries: rows
            .into_iter()
            .map(|r| Entry {
                id: r.id,
                kind: r.kind,
                amount_cents: r.amount_cents,
                created_at: r.created_at,
                reference: r.reference,
            })
            .collect(),
        total,
        page,
        page_size,
    })
}

/// Adds an `adjustment` entry (money given back after a wallet refund failed for good, say).
pub async fn adjust(conn: &mut PgConnection, user_id: Uuid, amount_cents: i64, note: &str) -> Result<Uuid> {
    Ok(sqlx::query_scalar!(
        "INSERT INTO wallet_entries (user_id, kind, amount_cents, note) VALUES ($1, $2, $3, $4) RETURNING id",
        user_id,
        EntryKind::Adjustment as EntryKind,
        amount_cents,
        note,
    )
    .fetch_one(&mut *conn)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn top_ups_are_ten_to_five_hundred_dollars_and_a_balance_holds_a_thousand() {
        assert_eq!(MIN_TOP_UP_CENTS, 1_000);
        assert_eq!(MAX_TOP_UP_CENTS, 50_000);
        assert_eq!(MAX_BALANCE_CENTS, 100_000);
    }

    #[test]
    fn pages_hold_twenty_entries_and_at_most_a_hundred() {
        assert_eq!(DEFAULT_PAGE_SIZE, 20);
        assert_eq!(MAX_PAGE_SIZE, 100);
    }
}
