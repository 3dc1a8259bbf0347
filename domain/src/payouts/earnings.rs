//! What a mentor has earned: payouts waiting to be sent, what accrues for the next batch, and
//! the payouts already sent.

use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use super::batch::{self, Totals};
use crate::Result;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PaidPayout {
    pub id: Uuid,
    pub mentor_net_cents: i64,
    pub paid_at: DateTime<Utc>,
    pub method: Option<super::PaidMethod>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Earnings {
    /// Payouts created and not yet sent, summed.
    pub pending: Totals,
    /// Completed paid bookings no payout holds yet: the next batch's.
    pub next_payout: Totals,
    pub minimum_payout_cents: i64,
    /// Sent payouts, newest first.
    pub history: Vec<PaidPayout>,
}

pub async fn of_mentor(pool: &PgPool, mentor_id: Uuid) -> Result<Earnings> {
    let (booking_count, pending_amount_cents, platform_fee_cents, mentor_net_cents): (i64, i64, i64, i64) =
        sqlx::query_as(
            "SELECT coalesce(sum(booking_count), 0)::bigint, coalesce(sum(pending_amount_cents), 0)::bigint, \
                coalesce(sum(platform_fee_cents), 0)::bigint, coalesce(sum(mentor_net_cents), 0)::bigint \
         FROM payouts WHERE mentor_id = $1 AND status = 'pending'",
        )
        .bind(mentor_id)
        .fetch_one(pool)
        .await?;
    let pending = Totals {
        booking_count,
        pending_amount_cents,
        platform_fee_cents,
        mentor_net_cents,
    };
    let mut conn = pool.acquire().await?;
    let next_payout = Totals::of(&batch::payable(&mut conn, mentor_id).await?);
    let minimum_payout_cents = batch::minimum_cents(&mut conn, mentor_id).await?;
    drop(conn);
    let rows: Vec<(Uuid, i64, DateTime<Utc>, Option<super::PaidMethod>)> = sqlx::query_as(
        "SELECT id, mentor_net_cents, paid_at, method FROM payouts WHERE mentor_id = $1 AND status = 'paid' ORDER BY paid_at DESC, id",
    )
    .bind(mentor_id)
    .fetch_all(pool)
    .await?;
    let history = rows
        .into_iter()
        .map(|(id, mentor_net_cents, paid_at, method)| PaidPayout {
            id,
            mentor_net_cents,
            paid_at,
            method,
        })
        .collect();
    Ok(Earnings {
        pending,
        next_payout,
        minimum_payout_cents,
        history,
    })
}
