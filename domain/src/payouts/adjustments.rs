//! Payouts follow refunds. A refund of a booking that a paid payout holds becomes a negative
//! adjustment on the mentor's next payout (the mentor's share of the refund, rounded half up, so the
//! platform's fee goes back in the same proportion); a refund of a booking that waits in a pending
//! payout recomputes that payout instead; a booking in no payout needs nothing (the batch reads what
//! is left after refunds). A payout never goes below zero: the rest carries to the next batch as a
//! `carry_over` pair (+x on this payout, -x waiting), so the rows always add up to what refunds took.
//!
//! Every function runs in the caller's transaction under the mentor's batch lock ([`lock_mentor`]), so
//! a refund and a batch run never both miss each other.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgConnection};
use uuid::Uuid;

use super::PayoutStatus;
use crate::{
    Result,
    money::{PaymentStatus, RefundStatus},
    payments::fees,
};

closed_set! {
    /// Why a payout's net moves: a refund of a paid-out booking, or what a payout could not absorb.
    pub enum AdjustmentReason ("payout adjustment reason") {
        Refund = "refund",
        CarryOver = "carry_over",
    }
}

/// The mentor's share of `refund_cents`: what they earned of it, rounded half up.
pub fn mentor_share(refund_cents: i64) -> i64 {
    (refund_cents.max(0) * (100 - fees::PLATFORM_FEE_PERCENT) + 50) / 100
}

/// The advisory lock space of the batch (the first key of `pg_advisory_xact_lock(int, int)`).
const LOCK_SPACE: i32 = 0x5041_5954; // "PAYT"

/// The batch's per-mentor lock: a refund, a complaint and a batch run for the same mentor take turns.
pub async fn lock_mentor(conn: &mut PgConnection, mentor_id: Uuid) -> Result<()> {
    sqlx::query!(
        "SELECT pg_advisory_xact_lock($1, hashtext($2::text))",
        LOCK_SPACE,
        mentor_id.to_string()
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// What follows a refund of `refund_cents` on `booking_id`, recorded in the caller's transaction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Followed {
    /// The booking is in no payout: the batch takes what is left.
    NothingToDo,
    /// The booking waits in this pending payout, now recomputed.
    Recomputed(Uuid),
    /// The booking was paid out: this adjustment comes off the next payout.
    Adjusted { adjustment_id: Uuid, amount_cents: i64 },
}

/// Makes payouts follow a refund just recorded (pending) for a booking of `mentor_id`.
pub async fn follow_refund(
    conn: &mut PgConnection,
    mentor_id: Uuid,
    booking_id: Uuid,
    refund_id: Uuid,
    refund_cents: i64,
) -> Result<Followed> {
    lock_mentor(conn, mentor_id).await?;
    let holder = sqlx::query!(
        r#"SELECT po.id, po.status AS "status: PayoutStatus" FROM payout_bookings pb JOIN payouts po ON po.id = pb.payout_id
           WHERE pb.booking_id = $1 FOR UPDATE OF po"#,
        booking_id,
    )
    .fetch_optional(&mut *conn)
    .await?;
    match holder {
        None => Ok(Followed::NothingToDo),
        Some(p) if p.status == PayoutStatus::Pending => {
            recompute(conn, p.id).await?;
            Ok(Followed::Recomputed(p.id))
        }
        Some(_) => {
            let amount_cents = -mentor_share(refund_cents);
            if amount_cents == 0 {
                return Ok(Followed::NothingToDo);
            }
            let adjustment_id = sqlx::query_scalar!(
                "INSERT INTO payout_adjustments (mentor_id, booking_id, refund_id, amount_cents, reason)
                 VALUES ($1, $2, $3, $4, $5) RETURNING id",
                mentor_id,
                booking_id,
                refund_id,
                amount_cents,
                AdjustmentReason::Refund as AdjustmentReason,
            )
            .fetch_one(&mut *conn)
            .await?;
            Ok(Followed::Adjusted {
                adjustment_id,
                amount_cents,
            })
        }
    }
}

/// Makes payouts follow `refund_cents` given back to the wallet for a reading of `mentor_id` after a
/// complaint (issue 36), as [`follow_refund`] does for a booking: a reading in no payout needs nothing
/// (the batch takes what the reading's wallet entries leave); one waiting in a pending payout has its
/// row recomputed (and leaves the payout when nothing is left of it); one a paid payout holds becomes a
/// negative adjustment of the mentor's share of the refund on the next payout.
pub async fn follow_reading_refund(
    conn: &mut PgConnection,
    mentor_id: Uuid,
    instant_session_id: Uuid,
    refund_cents: i64,
) -> Result<Followed> {
    lock_mentor(conn, mentor_id).await?;
    let holder = sqlx::query!(
        r#"SELECT po.id, po.status AS "status: PayoutStatus" FROM payout_readings pr JOIN payouts po ON po.id = pr.payout_id
           WHERE pr.instant_session_id = $1 FOR UPDATE OF po"#,
        instant_session_id,
    )
    .fetch_optional(&mut *conn)
    .await?;
    match holder {
        None => Ok(Followed::NothingToDo),
        Some(p) if p.status == PayoutStatus::Pending => {
            let left = sqlx::query_scalar!(
                r#"SELECT coalesce(-sum(amount_cents), 0)::bigint AS "left!" FROM wallet_entries WHERE instant_session_id = $1"#,
                instant_session_id,
            )
            .fetch_one(&mut *conn)
            .await?;
            if left > 0 {
                sqlx::query!(
                    "UPDATE payout_readings SET amount_cents = $2, fee_cents = $3 WHERE instant_session_id = $1",
                    instant_session_id,
                    left,
                    fees::fee_cents(left),
                )
                .execute(&mut *conn)
                .await?;
            } else {
                drop_reading(conn, p.id, instant_session_id).await?;
            }
            recompute(conn, p.id).await?;
            Ok(Followed::Recomputed(p.id))
        }
        Some(_) => {
            let amount_cents = -mentor_share(refund_cents);
            if amount_cents == 0 {
                return Ok(Followed::NothingToDo);
            }
            let adjustment_id = sqlx::query_scalar!(
                "INSERT INTO payout_adjustments (mentor_id, instant_session_id, amount_cents, reason)
                 VALUES ($1, $2, $3, $4) RETURNING id",
                mentor_id,
                instant_session_id,
                amount_cents,
                AdjustmentReason::Refund as AdjustmentReason,
            )
            .fetch_one(&mut *conn)
            .await?;
            Ok(Followed::Adjusted {
                adjustment_id,
                amount_cents,
            })
        }
    }
}

/// Takes a reading out of the pending payout `payout_id` (its row and its count).
async fn drop_reading(conn: &mut PgConnection, payout_id: Uuid, instant_session_id: Uuid) -> Result<()> {
    sqlx::query!(
        "DELETE FROM payout_readings WHERE instant_session_id = $1",
        instant_session_id
    )
    .execute(&mut *conn)
    .await?;
    sqlx::query!(
        "UPDATE payouts SET reading_count = greatest(reading_count - 1, 0) WHERE id = $1",
        payout_id
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Takes a reading out of the pending payout that holds it (a complaint was opened about it), as
/// [`release_booking`] does: it joins a later batch once the complaint is decided. A paid payout keeps
/// it. Returns the payout it left.
pub async fn release_reading(
    conn: &mut PgConnection,
    mentor_id: Uuid,
    instant_session_id: Uuid,
) -> Result<Option<Uuid>> {
    lock_mentor(conn, mentor_id).await?;
    let payout = sqlx::query_scalar!(
        "SELECT po.id FROM payout_readings pr JOIN payouts po ON po.id = pr.payout_id
         WHERE pr.instant_session_id = $1 AND po.status = $2 FOR UPDATE OF po",
        instant_session_id,
        PayoutStatus::Pending as PayoutStatus,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(payout_id) = payout else {
        return Ok(None);
    };
    drop_reading(conn, payout_id, instant_session_id).await?;
    recompute(conn, payout_id).await?;
    Ok(Some(payout_id))
}

/// Takes `booking_id` out of the pending payout that holds it (a complaint was opened): it joins a later
/// batch once the complaint is decided. A paid payout keeps it. Returns the payout it left.
pub async fn release_booking(conn: &mut PgConnection, mentor_id: Uuid, booking_id: Uuid) -> Result<Option<Uuid>> {
    lock_mentor(conn, mentor_id).await?;
    let payout = sqlx::query_scalar!(
        "SELECT po.id FROM payout_bookings pb JOIN payouts po ON po.id = pb.payout_id
         WHERE pb.booking_id = $1 AND po.status = $2 FOR UPDATE OF po",
        booking_id,
        PayoutStatus::Pending as PayoutStatus,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(payout_id) = payout else {
        return Ok(None);
    };
    sqlx::query!("DELETE FROM payout_bookings WHERE booking_id = $1", booking_id)
        .execute(&mut *conn)
        .await?;
    recompute(conn, payout_id).await?;
    Ok(Some(payout_id))
}

/// A pending payout's figures from its bookings (each: paid less what was refunded or is being
/// refunded, and 15% of that) and the adjustments it applies, never below zero.
pub async fn recompute(conn: &mut PgConnection, payout_id: Uuid) -> Result<()> {
    sqlx::query!(
        r#"UPDATE payout_bookings pb SET amount_cents = t.amount, fee_cents = 0
           FROM (SELECT pb2.booking_id,
                        greatest(0, coalesce((SELECT sum(p.amount_cents) FROM payments p WHERE p.booking_id = pb2.booking_id AND p.status = $2), 0)
                                  - coalesce((SELECT sum(r.amount_cents) FROM refunds r WHERE r.booking_id = pb2.booking_id AND r.status = ANY($3)), 0))::bigint AS amount
                 FROM payout_bookings pb2 WHERE pb2.payout_id = $1) t
           WHERE pb.booking_id = t.booking_id"#,
        payout_id,
        PaymentStatus::Approved as PaymentStatus,
        &[RefundStatus::Pending, RefundStatus::Succeeded] as &[RefundStatus],
    )
    .execute(&mut *conn)
    .await?;
    let rows = sqlx::query!(
        "SELECT booking_id, amount_cents FROM payout_bookings WHERE payout_id = $1",
        payout_id
    )
    .fetch_all(&mut *conn)
    .await?;
    for r in &rows {
        sqlx::query!(
            "UPDATE payout_bookings SET fee_cents = $2 WHERE booking_id = $1",
            r.booking_id,
            fees::fee_cents(r.amount_cents),
        )
        .execute(&mut *conn)
        .await?;
    }
    // Readings (issue 36) stay as they were taken: a complaint's refund changes their row itself
    // (`follow_reading_refund`).
    let readings = sqlx::query_scalar!(
        "SELECT amount_cents FROM payout_readings WHERE payout_id = $1",
        payout_id
    )
    .fetch_all(&mut *conn)
    .await?;
    let e = fees::Earnings::of_totals(rows.iter().map(|r| r.amount_cents).chain(readings.iter().copied()));
    let mentor_id = sqlx::query_scalar!("SELECT mentor_id FROM payouts WHERE id = $1", payout_id)
        .fetch_one(&mut *conn)
        .await?;
    settle_net(
        conn,
        mentor_id,
        payout_id,
        rows.len() as i32,
        e.gross_cents,
        e.fee_cents,
    )
    .await
}

/// Writes a payout's figures: its adjustments are those it applies; when they take the net below zero,
/// a carry-over pair moves the rest to the next batch.
pub(super) async fn settle_net(
    conn: &mut PgConnection,
    mentor_id: Uuid,
    payout_id: Uuid,
    booking_count: i32,
    gross_cents: i64,
    fee_cents: i64,
) -> Result<()> {
    let applied = applied_total(conn, payout_id).await?;
    let raw = gross_cents - fee_cents + applied;
    let mut adjustment = applied;
    if raw < 0 {
        let carried = -raw;
        sqlx::query!(
            "INSERT INTO payout_adjustments (mentor_id, amount_cents, reason, payout_id) VALUES ($1, $2, $4, $3), ($1, -$2, $4, NULL)",
            mentor_id,
            carried,
            payout_id,
            AdjustmentReason::CarryOver as AdjustmentReason,
        )
        .execute(&mut *conn)
        .await?;
        adjustment += carried;
    }
    sqlx::query!(
        "UPDATE payouts SET booking_count = $2, pending_amount_cents = $3, platform_fee_cents = $4, adjustment_cents = $5,
                mentor_net_cents = $3::bigint - $4::bigint + $5::bigint WHERE id = $1",
        payout_id,
        booking_count,
        gross_cents,
        fee_cents,
        adjustment,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The sum of the adjustments a payout applies.
async fn applied_total(conn: &mut PgConnection, payout_id: Uuid) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT coalesce(sum(amount_cents), 0)::bigint AS "total!" FROM payout_adjustments WHERE payout_id = $1"#,
        payout_id
    )
    .fetch_one(&mut *conn)
    .await?)
}

/// The batch: every adjustment of the mentor that no payout applies yet now belongs to `payout_id`.
pub(super) async fn claim_waiting(conn: &mut PgConnection, mentor_id: Uuid, payout_id: Uuid) -> Result<()> {
    sqlx::query!(
        "UPDATE payout_adjustments SET payout_id = $2 WHERE mentor_id = $1 AND payout_id IS NULL",
        mentor_id,
        payout_id
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The sum of a mentor's adjustments that wait for their next payout.
pub async fn waiting_total(conn: &mut PgConnection, mentor_id: Uuid) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        r#"SELECT coalesce(sum(amount_cents), 0)::bigint AS "total!" FROM payout_adjustments WHERE mentor_id = $1 AND payout_id IS NULL"#,
        mentor_id
    )
    .fetch_one(&mut *conn)
    .await?)
}

/// One adjustment as the mentor and the admins see it.
#[derive(Clone, Debug, FromRow, PartialEq, Eq)]
pub struct Adjustment {
    pub id: Uuid,
    pub booking_id: Option<Uuid>,
    /// The reading whose complaint's refund it takes off (issue 36)
    pub instant_session_id: Option<Uuid>,
    pub amount_cents: i64,
    pub reason: AdjustmentReason,
    pub payout_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
}

/// A mentor's adjustments, newest first.
pub async fn of_mentor(conn: &mut PgConnection, mentor_id: Uuid) -> Result<Vec<Adjustment>> {
    Ok(sqlx::query_as!(
        Adjustment,
        r#"SELECT id, booking_id, instant_session_id, amount_cents, reason AS "reason: AdjustmentReason", payout_id, created_at
           FROM payout_adjustments WHERE mentor_id = $1 ORDER BY created_at DESC, id"#,
        mentor_id
    )
    .fetch_all(&mut *conn)
    .await?)
}

/// The adjustments each of `payout_ids` applies, oldest first.
pub async fn of_payouts(conn: &mut PgConnection, payout_ids: &[Uuid]) -> Result<Vec<Adjustment>> {
    Ok(sqlx::query_as!(
        Adjustment,
        r#"SELECT id, booking_id, instant_session_id, amount_cents, reason AS "reason: AdjustmentReason", payout_id, created_at
           FROM payout_adjustments WHERE payout_id = ANY($1) ORDER BY created_at, id"#,
        payout_ids
    )
    .fetch_all(&mut *conn)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mentors_share_is_85_percent_rounded_half_up() {
        assert_eq!(mentor_share(10_000), 8_500);
        assert_eq!(mentor_share(10), 9, "8.5 cents round up");
        assert_eq!(mentor_share(1), 1, "0.85 rounds up");
        assert_eq!(mentor_share(3), 3, "2.55 rounds up");
        assert_eq!(mentor_share(0), 0);
    }
}
