//! The payout batch: each mentor's completed, paid bookings that no payout holds yet become one
//! pending payout per mentor.
//!
//! Safe to run concurrently (two workers, a retried task, a manual run): each mentor is handled in
//! one transaction holding a per-mentor advisory lock, and the bookings are re-read under it; the
//! primary key on `payout_bookings.booking_id` is the last guard, and a conflict there means
//! another run took the bookings first (this run rolls back that mentor and skips it).

use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{DEFAULT_MINIMUM_PAYOUT_CENTS, DESTINATION_HOLD, PayoutMethod, adjustments, announce_created, preferences};
use crate::{
    Result,
    booking::BookingStatus,
    payments::{PaymentStatus, RefundStatus, fees},
    statuses::{ComplaintStatus, ReadingStatus},
};

/// One booking that a payout can take: what the seeker paid less what was refunded, in cents.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Payable {
    pub booking_id: Uuid,
    pub amount_cents: i64,
}

/// A payout's figures, fee per booking: `platform_fee + mentor_net = pending_amount` always.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Totals {
    pub booking_count: i64,
    pub pending_amount_cents: i64,
    pub platform_fee_cents: i64,
    pub mentor_net_cents: i64,
}

impl Totals {
    /// Bookings and readings together, the fee per item; `booking_count` counts the bookings.
    pub fn with_readings(bookings: &[Payable], readings: &[Payable]) -> Self {
        let all: Vec<Payable> = bookings.iter().chain(readings).copied().collect();
        Self {
            booking_count: bookings.len() as i64,
            ..Self::of(&all)
        }
    }

    pub fn of(bookings: &[Payable]) -> Self {
        let e = fees::Earnings::of_totals(bookings.iter().map(|b| b.amount_cents));
        Self {
            booking_count: bookings.len() as i64,
            pending_amount_cents: e.gross_cents,
            platform_fee_cents: e.fee_cents,
            mentor_net_cents: e.net_cents,
        }
    }
}

/// What one run did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Payouts created.
    pub payouts: usize,
    /// Bookings those payouts hold.
    pub bookings: usize,
    /// Mentors whose net stayed below their minimum (their bookings roll over).
    pub below_minimum: usize,
    /// Mentors another run was handling at the same moment.
    pub taken_by_another_run: usize,
    /// Mentors whose payout destination changed within [`DESTINATION_HOLD`]: paid by a later batch.
    pub destination_recently_changed: usize,
}

/// A mentor's bookings that the next batch would take: completed bookings with money paid
/// (approved payment less succeeded refunds > 0) that no payout holds, oldest first. A booking
/// whose refund is still in flight, or with an open complaint, waits for a later batch.
pub async fn payable(conn: &mut PgConnection, mentor_id: Uuid) -> Result<Vec<Payable>> {
    Ok(sqlx::query_as!(
        Payable,
        r#"SELECT b.id AS booking_id, (p.amount_cents - coalesce(r.refunded, 0))::bigint AS "amount_cents!"
           FROM bookings b
           JOIN payments p ON p.booking_id = b.id AND p.status = $2
           LEFT JOIN LATERAL (SELECT sum(amount_cents) AS refunded FROM refunds WHERE booking_id = b.id AND status = $3) r ON true
           WHERE b.mentor_id = $1 AND b.status = $4
             AND p.amount_cents - coalesce(r.refunded, 0) > 0
             AND NOT EXISTS (SELECT 1 FROM payout_bookings pb WHERE pb.booking_id = b.id)
             AND NOT EXISTS (SELECT 1 FROM refunds rp WHERE rp.booking_id = b.id AND rp.status = $5)
             AND NOT EXISTS (SELECT 1 FROM complaints c WHERE c.booking_id = b.id AND c.status = $6)
           ORDER BY b.scheduled_at, b.id"#,
        mentor_id,
        PaymentStatus::Approved as PaymentStatus,
        RefundStatus::Succeeded as RefundStatus,
        BookingStatus::Completed as BookingStatus,
        RefundStatus::Pending as RefundStatus,
        ComplaintStatus::Open as ComplaintStatus,
    )
    .fetch_all(conn)
    .await?)
}

/// A mentor's ended readings with money charged that no payout holds yet, oldest first (issue 36):
/// what the seeker paid for it, the sum of its minute charges. `booking_id` is the reading's id here.
pub async fn payable_readings(conn: &mut PgConnection, mentor_id: Uuid) -> Result<Vec<Payable>> {
    Ok(sqlx::query_as!(
        Payable,
        r#"SELECT s.id AS booking_id, -sum(e.amount_cents)::bigint AS "amount_cents!"
           FROM instant_sessions s JOIN wallet_entries e ON e.instant_session_id = s.id
           WHERE s.mentor_id = $1 AND s.status = $2
             AND NOT EXISTS (SELECT 1 FROM payout_readings pr WHERE pr.instant_session_id = s.id)
             AND NOT EXISTS (SELECT 1 FROM instant_session_complaints c WHERE c.instant_session_id = s.id AND c.status = $3)
           GROUP BY s.id HAVING -sum(e.amount_cents) > 0
           ORDER BY min(s.ended_at), s.id"#,
        mentor_id,
        ReadingStatus::Ended as ReadingStatus,
        ComplaintStatus::Open as ComplaintStatus,
    )
    .fetch_all(conn)
    .await?)
}

/// What the next batch takes from a mentor: bookings and readings, with the payout's totals
/// (`booking_count` counts the bookings only).
pub async fn payable_totals(conn: &mut PgConnection, mentor_id: Uuid) -> Result<Totals> {
    let bookings = payable(&mut *conn, mentor_id).await?;
    let readings = payable_readings(&mut *conn, mentor_id).await?;
    Ok(Totals::with_readings(&bookings, &readings))
}

/// The mentor's minimum payout (the default without preferences).
pub async fn minimum_cents(conn: &mut PgConnection, mentor_id: Uuid) -> Result<i64> {
    let min = sqlx::query_scalar!(
        "SELECT minimum_payout_cents FROM payout_preferences WHERE mentor_id = $1",
        mentor_id
    )
    .fetch_optional(conn)
    .await?;
    Ok(min.unwrap_or(DEFAULT_MINIMUM_PAYOUT_CENTS))
}

/// Whether the mentor's payout destination changed within [`DESTINATION_HOLD`] of now.
async fn destination_recently_changed(conn: &mut PgConnection, mentor_id: Uuid) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM payout_preferences WHERE mentor_id = $1
                          AND destination_changed_at > now() - $2::interval) AS "changed!""#,
        mentor_id,
        DESTINATION_HOLD as chrono::Duration,
    )
    .fetch_one(conn)
    .await?)
}

/// Mentors with at least one payable booking.
async fn mentors_with_payable(pool: &PgPool) -> Result<Vec<Uuid>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT DISTINCT b.mentor_id AS "mentor_id!" FROM bookings b
           JOIN payments p ON p.booking_id = b.id AND p.status = $1
           WHERE b.status = $2 AND NOT EXISTS (SELECT 1 FROM payout_bookings pb WHERE pb.booking_id = b.id)
           UNION
           SELECT s.mentor_id FROM instant_sessions s
           WHERE s.status = $3 AND NOT EXISTS (SELECT 1 FROM payout_readings pr WHERE pr.instant_session_id = s.id)
             AND EXISTS (SELECT 1 FROM wallet_entries e WHERE e.instant_session_id = s.id)
           ORDER BY 1"#,
        PaymentStatus::Approved as PaymentStatus,
        BookingStatus::Completed as BookingStatus,
        ReadingStatus::Ended as ReadingStatus,
    )
    .fetch_all(pool)
    .await?)
}

/// What happened to one mentor.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MentorOutcome {
    Created { payout_id: Uuid, totals: Totals },
    NothingPayable,
    BelowMinimum(Totals),
    TakenByAnotherRun,
    DestinationRecentlyChanged,
}

/// How many mentors one run handles at the same time (each in its own transaction and
/// connection): the work is mostly waiting for the database.
pub const CONCURRENT_MENTORS: usize = 4;

/// Runs the batch over every mentor; each mentor is its own transaction.
pub async fn run(pool: &PgPool) -> Result<Summary> {
    use futures::{StreamExt, TryStreamExt};
    let mut summary = Summary::default();
    let mut outcomes = futures::stream::iter(mentors_with_payable(pool).await?)
        .map(|mentor_id| for_mentor(pool, mentor_id))
        .buffer_unordered(CONCURRENT_MENTORS);
    while let Some(outcome) = outcomes.try_next().await? {
        match outcome {
            MentorOutcome::Created { totals, .. } => {
                summary.payouts += 1;
                summary.bookings += totals.booking_count as usize;
            }
            MentorOutcome::BelowMinimum(_) => summary.below_minimum += 1,
            MentorOutcome::TakenByAnotherRun => summary.taken_by_another_run += 1,
            MentorOutcome::DestinationRecentlyChanged => summary.destination_recently_changed += 1,
            MentorOutcome::NothingPayable => {}
        }
    }
    Ok(summary)
}

/// One mentor's payout, in one transaction under the mentor's advisory lock.
pub async fn for_mentor(pool: &PgPool, mentor_id: Uuid) -> Result<MentorOutcome> {
    let mut tx = pool.begin().await?;
    adjustments::lock_mentor(&mut tx, mentor_id).await?;
    let bookings = payable(&mut tx, mentor_id).await?;
    let readings = payable_readings(&mut tx, mentor_id).await?;
    if bookings.is_empty() && readings.is_empty() {
        return Ok(MentorOutcome::NothingPayable);
    }
    let totals = Totals::with_readings(&bookings, &readings);
    if totals.mentor_net_cents < minimum_cents(&mut tx, mentor_id).await? {
        return Ok(MentorOutcome::BelowMinimum(totals));
    }
    if destination_recently_changed(&mut tx, mentor_id).await? {
        return Ok(MentorOutcome::DestinationRecentlyChanged);
    }
    // The payout keeps the destination it is made for: a later change does not move it.
    let destination = preferences::find(&mut *tx, mentor_id).await?;
    let (method, recipient) = match &destination {
        Some(p) => (p.method, p.recipient().map(str::to_string)),
        None => (None, None),
    };
    let created = sqlx::query!(
        r#"INSERT INTO payouts (mentor_id, booking_count, pending_amount_cents, platform_fee_cents, mentor_net_cents,
                                destination_method, destination)
           VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id, (SELECT user_id FROM mentors WHERE id = $1) AS "mentor_user_id!""#,
        mentor_id,
        totals.booking_count as i32,
        totals.pending_amount_cents,
        totals.platform_fee_cents,
        totals.mentor_net_cents,
        method as Option<PayoutMethod>,
        recipient,
    )
    .fetch_one(&mut *tx)
    .await?;
    let (payout_id, mentor_user_id) = (created.id, created.mentor_user_id);
    let ids: Vec<Uuid> = bookings.iter().map(|b| b.booking_id).collect();
    let amounts: Vec<i64> = bookings.iter().map(|b| b.amount_cents).collect();
    let fees: Vec<i64> = amounts.iter().map(|&a| fees::fee_cents(a)).collect();
    let taken = sqlx::query!(
        "INSERT INTO payout_bookings (booking_id, payout_id, amount_cents, fee_cents)
         SELECT b, $2, a, f FROM unnest($1::uuid[], $3::bigint[], $4::bigint[]) AS t(b, a, f)
         ON CONFLICT (booking_id) DO NOTHING",
        &ids,
        payout_id,
        &amounts,
        &fees,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    let reading_ids: Vec<Uuid> = readings.iter().map(|r| r.booking_id).collect();
    let reading_amounts: Vec<i64> = readings.iter().map(|r| r.amount_cents).collect();
    let reading_fees: Vec<i64> = reading_amounts.iter().map(|&a| fees::fee_cents(a)).collect();
    let taken_readings = sqlx::query!(
        "INSERT INTO payout_readings (instant_session_id, payout_id, amount_cents, fee_cents)
         SELECT r, $2, a, f FROM unnest($1::uuid[], $3::bigint[], $4::bigint[]) AS t(r, a, f)
         ON CONFLICT (instant_session_id) DO NOTHING",
        &reading_ids,
        payout_id,
        &reading_amounts,
        &reading_fees,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected();
    sqlx::query!(
        "UPDATE payouts SET reading_count = $2 WHERE id = $1",
        payout_id,
        reading_ids.len() as i32
    )
    .execute(&mut *tx)
    .await?;
    if taken as usize != ids.len() || taken_readings as usize != reading_ids.len() {
        // Another run holds some of these bookings: it pays them, this run pays none of them.
        tx.rollback().await?;
        return Ok(MentorOutcome::TakenByAnotherRun);
    }
    // Refunds of bookings paid out before come off this payout, never below zero.
    adjustments::claim_waiting(&mut tx, mentor_id, payout_id).await?;
    adjustments::settle_net(
        &mut tx,
        mentor_id,
        payout_id,
        totals.booking_count as i32,
        totals.pending_amount_cents,
        totals.platform_fee_cents,
    )
    .await?;
    let net_cents = sqlx::query_scalar!("SELECT mentor_net_cents FROM payouts WHERE id = $1", payout_id)
        .fetch_one(&mut *tx)
        .await?;
    announce_created(
        &mut tx,
        mentor_user_id,
        payout_id,
        net_cents,
        ids.len() + reading_ids.len(),
    )
    .await?;
    tx.commit().await?;
    Ok(MentorOutcome::Created { payout_id, totals })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(amount_cents: i64) -> Payable {
        Payable {
            booking_id: Uuid::new_v4(),
            amount_cents,
        }
    }

    #[test]
    fn the_fee_is_taken_per_booking_and_net_is_exact() {
        // 2.50 twice: 0.38 + 0.38 (15% of 5.00 would be 0.75).
        let t = Totals::of(&[b(250), b(250)]);
        assert_eq!(
            t,
            Totals {
                booking_count: 2,
                pending_amount_cents: 500,
                platform_fee_cents: 76,
                mentor_net_cents: 424
            }
        );
        let t = Totals::of(&[b(4_000), b(3_333), b(1)]);
        assert_eq!((t.platform_fee_cents, t.mentor_net_cents), (600 + 500, 7_334 - 1_100));
        assert_eq!(Totals::of(&[]), Totals::default());
    }
}
