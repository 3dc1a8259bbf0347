//! What a mentor has earned: payouts waiting to be sent, what accrues for the next batch, and
//! the payouts already sent.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::{
    PaidMethod, PayoutStatus,
    adjustments::{self, Adjustment},
    batch::{self, Totals},
};
use crate::{Result, statuses::ReadingStatus};

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaidPayout {
    pub id: Uuid,
    pub mentor_net_cents: i64,
    pub paid_at: DateTime<Utc>,
    pub method: Option<PaidMethod>,
}

/// One instant reading's earnings (issue 36): what it charged, the platform's fee, and the payout
/// that holds it (none until the next batch).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadingEarning {
    pub id: Uuid,
    pub ended_at: Option<DateTime<Utc>>,
    pub amount_cents: i64,
    pub fee_cents: i64,
    pub payout_id: Option<Uuid>,
    pub payout_status: Option<PayoutStatus>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Earnings {
    /// The mentor's ended readings that charged something, newest first.
    pub readings: Vec<ReadingEarning>,
    /// Payouts created and not yet sent, summed.
    pub pending: Totals,
    /// Completed paid bookings no payout holds yet: the next batch's.
    pub next_payout: Totals,
    pub minimum_payout_cents: i64,
    /// Sent payouts, newest first.
    pub history: Vec<PaidPayout>,
    /// Refunds of paid-out bookings taken off payouts (and what carried over), newest first.
    pub adjustments: Vec<Adjustment>,
    /// The adjustments no payout has applied yet: they come off the next one.
    pub waiting_adjustment_cents: i64,
}

pub async fn of_mentor(pool: &PgPool, mentor_id: Uuid) -> Result<Earnings> {
    let pending = sqlx::query_as!(
        Totals,
        r#"SELECT coalesce(sum(booking_count), 0)::bigint AS "booking_count!",
                  coalesce(sum(pending_amount_cents), 0)::bigint AS "pending_amount_cents!",
                  coalesce(sum(platform_fee_cents), 0)::bigint AS "platform_fee_cents!",
                  coalesce(sum(mentor_net_cents), 0)::bigint AS "mentor_net_cents!"
           FROM payouts WHERE mentor_id = $1 AND status = $2"#,
        mentor_id,
        PayoutStatus::Pending as PayoutStatus,
    )
    .fetch_one(pool)
    .await?;
    let mut conn = pool.acquire().await?;
    let next_payout = batch::payable_totals(&mut conn, mentor_id).await?;
    let minimum_payout_cents = batch::minimum_cents(&mut conn, mentor_id).await?;
    let adjustments = adjustments::of_mentor(&mut conn, mentor_id).await?;
    let waiting_adjustment_cents = adjustments::waiting_total(&mut conn, mentor_id).await?;
    drop(conn);
    // A paid payout has its paid_at (the table's check).
    let history = sqlx::query_as!(
        PaidPayout,
        r#"SELECT id, mentor_net_cents, paid_at AS "paid_at!", method AS "method: PaidMethod"
           FROM payouts WHERE mentor_id = $1 AND status = $2 ORDER BY paid_at DESC, id"#,
        mentor_id,
        PayoutStatus::Paid as PayoutStatus,
    )
    .fetch_all(pool)
    .await?;
    let readings = sqlx::query!(
        r#"SELECT s.id, s.ended_at, -sum(e.amount_cents)::bigint AS "amount_cents!", pr.payout_id AS "payout_id?",
                  po.status AS "payout_status?: PayoutStatus"
           FROM instant_sessions s JOIN wallet_entries e ON e.instant_session_id = s.id
           LEFT JOIN payout_readings pr ON pr.instant_session_id = s.id LEFT JOIN payouts po ON po.id = pr.payout_id
           WHERE s.mentor_id = $1 AND s.status = $2
           GROUP BY s.id, s.ended_at, pr.payout_id, po.status
           ORDER BY s.ended_at DESC NULLS LAST, s.id"#,
        mentor_id,
        ReadingStatus::Ended as ReadingStatus,
    )
    .fetch_all(pool)
    .await?
    .into_iter()
    .map(|r| ReadingEarning {
        id: r.id,
        ended_at: r.ended_at,
        amount_cents: r.amount_cents,
        fee_cents: crate::payments::fees::fee_cents(r.amount_cents),
        payout_id: r.payout_id,
        payout_status: r.payout_status,
    })
    .collect();
    Ok(Earnings {
        readings,
        pending,
        next_payout,
        minimum_payout_cents,
        history,
        adjustments,
        waiting_adjustment_cents,
    })
}
