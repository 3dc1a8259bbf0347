//! A group session whose mentor never joined its call while it was live (from 15 minutes before the
//! start to the end, by the call's join records) ends cancelled: every seat is cancelled, every paid
//! seat refunded in full (`no_show`), the seekers and the mentor told. The state job that ends the
//! session decides, in its transaction.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    Result,
    booking::{BookingStatus, lifecycle, video},
    group_calls::joins,
    group_sessions::GroupStatus,
    money::RefundReason,
    notifications::{self, Kind},
    refunds,
};

pub const MENTOR_TITLE: &str = "Group session ended without you";
pub const SEEKER_TITLE: &str = "Your group session did not take place";
pub const SEAT_REASON: &str = "The mentor did not join the group session";

/// What the check found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Settled {
    /// The seats cancelled, with the refund of each paid one.
    pub seats: Vec<(Uuid, Option<Uuid>)>,
}

/// Run by the state job once the session `id` is over (the caller holds its row lock): when its mentor
/// was never in the call, the seats are cancelled and refunded. `None` when the mentor was there (or the
/// session is not a finished one).
pub async fn settle(conn: &mut PgConnection, id: Uuid, now: DateTime<Utc>) -> Result<Option<Settled>> {
    let s = sqlx::query!(
        r#"SELECT g.title, g.scheduled_at, g.ends_at, g.status AS "status: GroupStatus", g.mentor_no_show_at, m.user_id AS mentor_user_id
           FROM group_sessions g JOIN mentors m ON m.id = g.mentor_id WHERE g.id = $1"#,
        id
    )
    .fetch_optional(&mut *conn)
    .await?;
    let Some(s) = s else { return Ok(None) };
    if s.status != GroupStatus::Completed || s.mentor_no_show_at.is_some() || s.ends_at > now {
        return Ok(None);
    }
    let from = s.scheduled_at - video::OPENS_BEFORE;
    if joins::was_in_call(conn, id, s.mentor_user_id, from, s.ends_at).await? {
        return Ok(None);
    }
    let seats = sqlx::query_scalar!(
        "SELECT id FROM bookings WHERE group_session_id = $1 AND status = ANY($2) ORDER BY id",
        id,
        BookingStatus::LIVE as &[BookingStatus],
    )
    .fetch_all(&mut *conn)
    .await?;
    let mut settled = Settled::default();
    let mut seekers = Vec::new();
    for seat in seats {
        let Some(money) = refunds::locked_money(conn, seat).await? else {
            continue;
        };
        lifecycle::mark_cancelled(conn, seat, now, Some(SEAT_REASON)).await?;
        let refund = if money.left_cents() > 0 {
            let r = refunds::record(
                conn,
                &money,
                money.left_cents(),
                RefundReason::NoShow,
                None,
                Some(SEAT_REASON),
            )
            .await?;
            Some(r.refund_id)
        } else {
            None
        };
        seekers.push(money.user_id);
        settled.seats.push((seat, refund));
    }
    sqlx::query!(
        "UPDATE group_sessions SET status = $2, mentor_no_show_at = $3, updated_at = now() WHERE id = $1",
        id,
        GroupStatus::Cancelled as GroupStatus,
        now,
    )
    .execute(&mut *conn)
    .await?;
    notifications::notify_many(
        &mut *conn,
        &seekers,
        Kind::BookingCancelled,
        SEEKER_TITLE,
        &format!(
            "The mentor did not join \"{}\". Your seat is cancelled and anything you paid is refunded in full.",
            s.title
        ),
        Some("/dashboard"),
    )
    .await?;
    notifications::notify(
        &mut *conn,
        s.mentor_user_id,
        Kind::BookingCancelled,
        MENTOR_TITLE,
        &format!(
            "You did not join the call of \"{}\" while it was live, so its {} seat(s) were cancelled and refunded in full.",
            s.title,
            settled.seats.len()
        ),
        Some("/mentor-dashboard"),
    )
    .await?;
    Ok(Some(settled))
}
