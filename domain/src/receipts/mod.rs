//! Receipts: one for every successful payment and every refund paid back, issued in the transaction
//! that records the money. Numbers are `MM-<year>-<six digits>`, sequential per calendar year (UTC)
//! without gaps, payments and refunds sharing one sequence: the year's counter row is taken in that
//! transaction, so a transaction that rolls back gives its number back and concurrent ones take turns.
//! A receipt keeps what it said when it was issued (payer, session, amount, card); the platform's name
//! and address come from the settings (`PLATFORM_NAME`, `PLATFORM_ADDRESS`) when it is rendered.
//!
//! Receipts are keyed by the payment or the refund, not the booking: a payment without a booking (a
//! wallet top-up) gets one the same way.

pub mod pdf;

use chrono::{DateTime, Datelike, Utc};
use sqlx::{FromRow, PgConnection, PgExecutor};
use uuid::Uuid;

use crate::Result;

/// The prefix of every receipt number.
pub const PREFIX: &str = "MM";
/// Digits of the yearly sequence in a number.
pub const SEQUENCE_DIGITS: usize = 6;
pub const NOT_FOUND: &str = "Receipt not found";
/// What a top-up's receipt says it was for.
pub const TOP_UP_DESCRIPTION: &str = "Wallet top-up";

closed_set! {
    /// What a receipt is for: money paid, or money given back.
    #[cfg_attr(feature = "openapi", oai(rename = "ReceiptKind"))]
    pub enum ReceiptKind ("receipt kind") {
        Payment = "payment",
        Refund = "refund",
    }
}

/// `MM-2026-000001`.
pub fn number(year: i32, seq: i32) -> String {
    format!("{PREFIX}-{year}-{seq:0width$}", width = SEQUENCE_DIGITS)
}

#[derive(Clone, Debug, FromRow, PartialEq, Eq)]
pub struct Receipt {
    pub id: Uuid,
    pub number: String,
    pub kind: ReceiptKind,
    pub user_id: Uuid,
    pub payment_id: Option<Uuid>,
    pub refund_id: Option<Uuid>,
    pub booking_id: Option<Uuid>,
    pub amount_cents: i64,
    pub card_last4: Option<String>,
    pub payer_name: String,
    pub payer_email: String,
    pub description: String,
    pub session_at: Option<DateTime<Utc>>,
    pub issued_at: DateTime<Utc>,
}

/// The next number of `year`, taken in the caller's transaction (held until it commits or rolls back).
async fn next_seq(conn: &mut PgConnection, year: i32) -> Result<i32> {
    Ok(sqlx::query_scalar!(
        "INSERT INTO receipt_counters (year, last) VALUES ($1, 1)
         ON CONFLICT (year) DO UPDATE SET last = receipt_counters.last + 1 RETURNING last",
        year
    )
    .fetch_one(&mut *conn)
    .await?)
}

/// What a receipt says about the money, read from the payment (and the refund).
struct Facts {
    user_id: Uuid,
    payment_id: Uuid,
    booking_id: Option<Uuid>,
    amount_cents: i64,
    card_last4: Option<String>,
    payer_name: String,
    payer_email: String,
    description: String,
    session_at: Option<DateTime<Utc>>,
}

async fn payment_facts(conn: &mut PgConnection, payment_id: Uuid) -> Result<Option<Facts>> {
    let row = sqlx::query!(
        r#"SELECT p.user_id, p.booking_id, p.amount_cents, p.card_last4, u.first_name, u.last_name, u.email,
                  coalesce(gs.title, s.title) AS "title!", m.display_name, b.scheduled_at,
                  (extract(epoch FROM b.ends_at - b.scheduled_at) / 60)::int AS "minutes!"
           FROM payments p JOIN users u ON u.id = p.user_id
           JOIN bookings b ON b.id = p.booking_id JOIN services s ON s.id = b.service_id
           JOIN mentors m ON m.id = b.mentor_id LEFT JOIN group_sessions gs ON gs.id = b.group_session_id
           WHERE p.id = $1"#,
        payment_id,
    )
    .fetch_optional(&mut *conn)
    .await?;
    Ok(row.map(|r| Facts {
        user_id: r.user_id,
        payment_id,
        booking_id: Some(r.booking_id),
        amount_cents: r.amount_cents,
        card_last4: Some(r.card_last4),
        payer_name: format!("{} {}", r.first_name, r.last_name).trim().to_string(),
        payer_email: r.email,
        description: format!("\"{}\" with {} ({} minutes)", r.title, r.display_name, r.minutes),
        session_at: Some(r.scheduled_at),
    }))
}

async fn insert(
    conn: &mut PgConnection,
    kind: ReceiptKind,
    facts: Facts,
    amount_cents: i64,
    refund_id: Option<Uuid>,
    now: DateTime<Utc>,
) -> Result<Receipt> {
    let year = now.year();
    let seq = next_seq(conn, year).await?;
    Ok(sqlx::query_as!(
        Receipt,
        r#"INSERT INTO receipts (number, year, seq, kind, user_id, payment_id, refund_id, booking_id, amount_cents,
                                card_last4, payer_name, payer_email, description, session_at, issued_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
           RETURNING id, number, kind AS "kind: ReceiptKind", user_id, payment_id, refund_id, booking_id, amount_cents,
                     card_last4, payer_name, payer_email, description, session_at, issued_at"#,
        number(year, seq),
        year,
        seq,
        kind as ReceiptKind,
        facts.user_id,
        facts.payment_id,
        refund_id,
        facts.booking_id,
        amount_cents,
        facts.card_last4,
        facts.payer_name,
        facts.payer_email,
        facts.description,
        facts.session_at,
        now,
    )
    .fetch_one(&mut *conn)
    .await?)
}

/// The receipt of an approved payment, issued in the transaction that records the approval.
pub async fn issue_for_payment(
    conn: &mut PgConnection,
    payment_id: Uuid,
    now: DateTime<Utc>,
) -> Result<Option<Receipt>> {
    let Some(facts) = payment_facts(conn, payment_id).await? else {
        return Ok(None);
    };
    let amount = facts.amount_cents;
    Ok(Some(
        insert(conn, ReceiptKind::Payment, facts, amount, None, now).await?,
    ))
}

/// The receipt of a refund paid back, issued in the transaction that records its success.
pub async fn issue_for_refund(conn: &mut PgConnection, refund_id: Uuid, now: DateTime<Utc>) -> Result<Option<Receipt>> {
    let refund = sqlx::query!("SELECT payment_id, amount_cents FROM refunds WHERE id = $1", refund_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some((Some(payment_id), amount)) = refund.map(|r| (r.payment_id, r.amount_cents)) else {
        return Ok(None);
    };
    let Some(facts) = payment_facts(conn, payment_id).await? else {
        return Ok(None);
    };
    Ok(Some(
        insert(conn, ReceiptKind::Refund, facts, amount, Some(refund_id), now).await?,
    ))
}

/// The receipt of an approved wallet top-up (a payment without a booking), issued in the transaction
/// that credits the balance.
pub async fn issue_for_top_up(conn: &mut PgConnection, top_up_id: Uuid, now: DateTime<Utc>) -> Result<Option<Receipt>> {
    let Some(t) = sqlx::query!(
        "SELECT t.user_id, t.amount_cents, t.card_last4, u.first_name, u.last_name, u.email
         FROM wallet_top_ups t JOIN users u ON u.id = t.user_id WHERE t.id = $1",
        top_up_id,
    )
    .fetch_optional(&mut *conn)
    .await?
    else {
        return Ok(None);
    };
    let payer_name = format!("{} {}", t.first_name, t.last_name).trim().to_string();
    let year = now.year();
    let seq = next_seq(conn, year).await?;
    Ok(Some(
        sqlx::query_as!(
            Receipt,
            r#"INSERT INTO receipts (number, year, seq, kind, user_id, top_up_id, amount_cents, card_last4, payer_name,
                                    payer_email, description, issued_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)
               RETURNING id, number, kind AS "kind: ReceiptKind", user_id, payment_id, refund_id, booking_id,
                         amount_cents, card_last4, payer_name, payer_email, description, session_at, issued_at"#,
            number(year, seq),
            year,
            seq,
            ReceiptKind::Payment as ReceiptKind,
            t.user_id,
            top_up_id,
            t.amount_cents,
            t.card_last4,
            payer_name,
            t.email,
            TOP_UP_DESCRIPTION,
            now,
        )
        .fetch_one(&mut *conn)
        .await?,
    ))
}

/// A user's receipts, newest first.
pub async fn for_user(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<Vec<Receipt>> {
    Ok(sqlx::query_as!(
        Receipt,
        r#"SELECT id, number, kind AS "kind: ReceiptKind", user_id, payment_id, refund_id, booking_id, amount_cents,
                  card_last4, payer_name, payer_email, description, session_at, issued_at
           FROM receipts WHERE user_id = $1 ORDER BY issued_at DESC, year DESC, seq DESC"#,
        user_id
    )
    .fetch_all(db)
    .await?)
}

pub async fn find_by_number(db: impl PgExecutor<'_>, number: &str) -> Result<Option<Receipt>> {
    Ok(sqlx::query_as!(
        Receipt,
        r#"SELECT id, number, kind AS "kind: ReceiptKind", user_id, payment_id, refund_id, booking_id, amount_cents,
                  card_last4, payer_name, payer_email, description, session_at, issued_at
           FROM receipts WHERE number = $1"#,
        number
    )
    .fetch_optional(db)
    .await?)
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<Receipt>> {
    Ok(sqlx::query_as!(
        Receipt,
        r#"SELECT id, number, kind AS "kind: ReceiptKind", user_id, payment_id, refund_id, booking_id, amount_cents,
                  card_last4, payer_name, payer_email, description, session_at, issued_at
           FROM receipts WHERE id = $1"#,
        id
    )
    .fetch_optional(db)
    .await?)
}

/// The receipt of a refund.
pub async fn of_refund(db: impl PgExecutor<'_>, refund_id: Uuid) -> Result<Option<Receipt>> {
    Ok(sqlx::query_as!(
        Receipt,
        r#"SELECT id, number, kind AS "kind: ReceiptKind", user_id, payment_id, refund_id, booking_id, amount_cents,
                  card_last4, payer_name, payer_email, description, session_at, issued_at
           FROM receipts WHERE refund_id = $1"#,
        refund_id,
    )
    .fetch_optional(db)
    .await?)
}

/// The receipt of a booking's approved payment.
pub async fn of_booking_payment(db: impl PgExecutor<'_>, booking_id: Uuid) -> Result<Option<Receipt>> {
    Ok(sqlx::query_as!(
        Receipt,
        r#"SELECT id, number, kind AS "kind: ReceiptKind", user_id, payment_id, refund_id, booking_id, amount_cents,
                  card_last4, payer_name, payer_email, description, session_at, issued_at
           FROM receipts WHERE booking_id = $1 AND kind = $2 ORDER BY issued_at DESC LIMIT 1"#,
        booking_id,
        ReceiptKind::Payment as ReceiptKind,
    )
    .fetch_optional(db)
    .await?)
}

/// The receipt for `number` when `viewer` may have it (its owner, or an administrator); otherwise it
/// does not exist for them.
pub async fn visible(db: &sqlx::PgPool, number: &str, viewer: Uuid, is_admin: bool) -> Result<Receipt> {
    find_by_number(db, number.trim())
        .await?
        .filter(|r| is_admin || r.user_id == viewer)
        .ok_or_else(|| crate::Error::not_found(NOT_FOUND))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_carry_the_year_and_six_digits() {
        assert_eq!(number(2026, 1), "MM-2026-000001");
        assert_eq!(number(2027, 123_456), "MM-2027-123456");
    }
}
