//! What happens to a group session after it is created: the mentor starts, ends or cancels it;
//! the worker makes it live at its start and completes it at its end. Every function runs in
//! the caller's transaction; the caller queues the e-mails and refund jobs in it too.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{
    GroupStatus, seats,
    sessions::{self, GroupSession},
    status, *,
};
use crate::{
    Error, Result,
    booking::lifecycle::{self as booking_lifecycle, Cancelled},
    notifications::{self, Kind},
    push::PushKind,
};

pub const BAD_STATUS: &str = "Status must be active, completed or cancelled";

pub struct Moved {
    pub session: GroupSession,
    /// The seats cancelled with the session (each with its full refund, if paid).
    pub cancelled_seats: Vec<Cancelled>,
}

pub fn not_allowed(from: GroupStatus, to: GroupStatus) -> String {
    format!("A {from} group session cannot become {to} now")
}

/// The mentor's moves (see `status::mentor_may`); anything else is a conflict.
pub async fn move_by_mentor(
    tx: &mut PgConnection,
    mentor_user_id: Uuid,
    id: Uuid,
    to: GroupStatus,
    now: DateTime<Utc>,
) -> Result<Moved> {
    if to == GroupStatus::Scheduled {
        return Err(Error::validation(BAD_STATUS));
    }
    // Seats first, then the session: the order of the hold expiry and the payment (a booking,
    // then its session's seat count), so the two never wait for each other in a circle.
    let owner: Option<Uuid> = sqlx::query_scalar!(
        "SELECT m.user_id FROM group_sessions g JOIN mentors m ON m.id = g.mentor_id WHERE g.id = $1",
        id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    if owner != Some(mentor_user_id) {
        return Err(Error::not_found(NOT_FOUND));
    }
    if to == GroupStatus::Cancelled {
        seats::lock_seats(tx, id).await?;
    }
    let g = sessions::locked(tx, id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    if !status::mentor_may(g.status(), to, g.scheduled_at, g.ends_at, now) {
        return Err(Error::conflict(not_allowed(g.status(), to)));
    }
    set_status(tx, id, to).await?;
    let mut cancelled_seats = Vec::new();
    if to == GroupStatus::Cancelled {
        seats::release_holds(tx, id).await?;
        // Seats taken while this waited for the session's lock are in this list too.
        for (seat, _) in seats::lock_seats(tx, id).await? {
            if let Some(done) = booking_lifecycle::cancel_group_seat(tx, seat, now).await? {
                cancelled_seats.push(done);
            }
        }
    }
    let session = sessions::find(&mut *tx, id)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    Ok(Moved {
        session,
        cancelled_seats,
    })
}

async fn set_status(tx: &mut PgConnection, id: Uuid, to: GroupStatus) -> Result<()> {
    sqlx::query!(
        "UPDATE group_sessions SET status = $2, updated_at = now() WHERE id = $1",
        id,
        to.as_str(),
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// The users with a booked seat (not a hold).
async fn participant_users(tx: &mut PgConnection, id: Uuid) -> Result<Vec<Uuid>> {
    Ok(sessions::participants(&mut *tx, &[id])
        .await?
        .into_iter()
        .map(|p| p.user_id)
        .collect())
}

/// At the start (the worker): a scheduled session still starting at `start` (unix seconds)
/// becomes active and its participants and mentor are told it is starting now. `None` when
/// nothing changed (moved, cancelled, started before, or already over).
pub async fn go_live(tx: &mut PgConnection, id: Uuid, start: i64, now: DateTime<Utc>) -> Result<Option<GroupSession>> {
    let Some(g) = sessions::locked(tx, id).await? else {
        return Ok(None);
    };
    if g.scheduled_at.timestamp() != start
        || g.status() != GroupStatus::Scheduled
        || !status::in_live_window(g.scheduled_at, g.ends_at, now)
    {
        return Ok(None);
    }
    set_status(tx, id, GroupStatus::Active).await?;
    let mut users = participant_users(tx, id).await?;
    users.push(g.mentor_user_id);
    let message = format!("\"{}\" is starting now. Join the video call.", g.title);
    notifications::FanOut::new(
        &users,
        Kind::BookingReminder,
        STARTING_NOW,
        &message,
        Some(&format!("/group-video-call/{id}")),
    )
    .pushed_as(Some(notifications::PushSpec::new(PushKind::GroupSessionStarted)))
    .enqueue(&mut *tx)
    .await?;
    Ok(Some(g))
}

/// The notification's title when a session goes live.
pub const STARTING_NOW: &str = "Group session starting now";

/// At start + duration (the worker): a scheduled or active session of that start is completed.
/// Its seats complete by the one-to-one rules (the booking completion after the complaint window).
pub async fn finish(tx: &mut PgConnection, id: Uuid, start: i64, now: DateTime<Utc>) -> Result<bool> {
    let Some(g) = sessions::locked(tx, id).await? else {
        return Ok(false);
    };
    if g.scheduled_at.timestamp() != start || !g.status().is_open() || g.ends_at > now {
        return Ok(false);
    }
    set_status(tx, id, GroupStatus::Completed).await?;
    Ok(true)
}

/// Sessions whose start has come but which are still scheduled (the sweep's list): id and start.
pub async fn due_to_go_live(db: &PgPool) -> Result<Vec<(Uuid, i64)>> {
    Ok(sqlx::query!(
        r#"SELECT id, floor(extract(epoch FROM scheduled_at))::bigint AS "start!" FROM group_sessions
           WHERE status = $1 AND scheduled_at <= now() AND ends_at > now() ORDER BY scheduled_at LIMIT 500"#,
        GroupStatus::Scheduled as GroupStatus,
    )
    .fetch_all(db)
    .await?
    .into_iter()
    .map(|r| (r.id, r.start))
    .collect())
}

/// Sessions past their end still scheduled or active (the sweep's list): id and start.
pub async fn due_to_finish(db: &PgPool) -> Result<Vec<(Uuid, i64)>> {
    Ok(sqlx::query!(
        r#"SELECT id, floor(extract(epoch FROM scheduled_at))::bigint AS "start!" FROM group_sessions
           WHERE status = ANY($1) AND ends_at <= now() ORDER BY ends_at LIMIT 500"#,
        GroupStatus::HOLDING_TIME as &[GroupStatus],
    )
    .fetch_all(db)
    .await?
    .into_iter()
    .map(|r| (r.id, r.start))
    .collect())
}
