//! Instant readings (issue 36, §3): a seeker asks an available mentor for a chat or a call now and
//! pays by the minute from the wallet. A reading is its own row (`instant_sessions`), not a booking.
//!
//! - [`request`]: 201 `requested`, expiring [`REQUEST_TTL`] later (a [`jobs::ExpireReading`] task);
//!   402 when the balance covers less than [`PAID_MINUTES_REQUIRED`] minutes at the rate; 409 when
//!   the mentor is not available or the seeker has a reading requested or active.
//! - [`accept`] / [`decline`] by the mentor; accepting makes the mentor `busy`, claims the pair's
//!   [`FREE_MINUTES`] (once per seeker and mentor) and queues the charge of minute 0.
//! - [`charge_due`]: the [`jobs::ChargeMinute`] task charges every started minute after the free ones
//!   that is not charged yet, each as one ledger entry unique by (reading, minute index), so a
//!   worker killed or restarted charges each minute exactly once; when the balance cannot pay a
//!   minute the reading ends there (`balance`), and a minute before that the seeker gets `balanceLow`.
//! - [`end`] by either party: every started minute up to the end is billed.

pub mod after;
pub mod jobs;

use std::time::Duration;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::{
    Error, Result,
    catalogue::instant::InstantMode,
    error::OnConstraint,
    money,
    presence::{self, Presence},
    realtime::{
        self, Envelope, ServerEvent,
        protocol::{BalanceLow, InstantSessionChanged, InstantSessionRequested},
    },
    wallet::{self, EntryKind},
};

/// A request the mentor has not answered expires after this long.
pub const REQUEST_TTL: Duration = Duration::from_secs(60);
/// The first minutes of a seeker's first reading with a mentor are free.
pub const FREE_MINUTES: i32 = 3;
/// A reading starts only when the balance covers this many paid minutes at the rate.
pub const PAID_MINUTES_REQUIRED: i64 = 3;
/// A minute of a reading.
pub const MINUTE: Duration = Duration::from_secs(60);

pub const NOT_FOUND: &str = "Reading not found";
pub const MENTOR_NOT_FOUND: &str = "Mentor not found";
pub const NOT_AVAILABLE: &str = "This mentor is not available for a reading right now.";
pub const ALREADY_OPEN: &str = "You already have a reading requested or in progress.";
pub const MODE_NOT_OFFERED: &str = "This mentor does not offer this kind of reading.";
pub const MODE_INVALID: &str = "Mode must be chat or video";
pub const WITH_YOURSELF: &str = "You cannot request a reading with yourself.";
pub const NOT_REQUESTED: &str = "This reading is no longer waiting for an answer.";
pub const MENTOR_BUSY: &str = "You are already in a reading.";
pub const NOT_ACTIVE: &str = "This reading is not in progress.";
pub const INSUFFICIENT_BALANCE: &str = "Your balance does not cover three minutes of this reading. Please top up.";

pub use crate::statuses::{EndReason, ReadingStatus};

/// A reading as its parties see it.
#[derive(Clone, Debug)]
pub struct Reading {
    pub id: Uuid,
    pub seeker_id: Uuid,
    pub mentor_id: Uuid,
    pub mentor_user_id: Uuid,
    pub mode: InstantMode,
    pub status: ReadingStatus,
    pub per_minute_rate_cents: i64,
    pub free_minutes: i32,
    pub conversation_id: Option<Uuid>,
    pub expires_at: DateTime<Utc>,
    pub started_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
    pub end_reason: Option<EndReason>,
    pub minutes_billed: i32,
    /// What the seeker paid: the sum of its minute charges.
    pub amount_charged_cents: i64,
    pub created_at: DateTime<Utc>,
}

/// `max(0, minutesBilled - freeMinutes) × rate`.
pub fn amount_for(minutes_billed: i32, free_minutes: i32, rate_cents: i64) -> i64 {
    i64::from((minutes_billed - free_minutes).max(0)) * rate_cents
}

/// The index of the minute running at `now` (0 from the start).
pub fn minute_at(started_at: DateTime<Utc>, now: DateTime<Utc>) -> i32 {
    let secs = (now - started_at).num_seconds().max(0);
    i32::try_from(secs / MINUTE.as_secs() as i64).unwrap_or(i32::MAX)
}

/// When minute `index` starts.
pub fn minute_start(started_at: DateTime<Utc>, index: i32) -> DateTime<Utc> {
    started_at + chrono::Duration::seconds(i64::from(index) * MINUTE.as_secs() as i64)
}

/// The 402 of a balance short of three paid minutes: what it lacks.
pub fn missing_cents(balance_cents: i64, rate_cents: i64) -> i64 {
    (PAID_MINUTES_REQUIRED * rate_cents - balance_cents).max(0)
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<Reading>> {
    let r = sqlx::query!(
        r#"SELECT s.id, s.seeker_id, s.mentor_id, m.user_id AS mentor_user_id, s.mode AS "mode: InstantMode",
                  s.status AS "status: ReadingStatus", s.per_minute_rate_cents, s.free_minutes, s.conversation_id,
                  s.expires_at, s.started_at, s.ended_at, s.end_reason AS "end_reason: EndReason", s.minutes_billed,
                  coalesce((SELECT -sum(e.amount_cents) FROM wallet_entries e WHERE e.instant_session_id = s.id), 0)::bigint
                      AS "amount_charged_cents!",
                  s.created_at
           FROM instant_sessions s JOIN mentors m ON m.id = s.mentor_id WHERE s.id = $1"#,
        id
    )
    .fetch_optional(db)
    .await?;
    Ok(r.map(|r| Reading {
        id: r.id,
        seeker_id: r.seeker_id,
        mentor_id: r.mentor_id,
        mentor_user_id: r.mentor_user_id,
        mode: r.mode,
        status: r.status,
        per_minute_rate_cents: r.per_minute_rate_cents,
        free_minutes: r.free_minutes,
        conversation_id: r.conversation_id,
        expires_at: r.expires_at,
        started_at: r.started_at,
        ended_at: r.ended_at,
        end_reason: r.end_reason,
        minutes_billed: r.minutes_billed,
        amount_charged_cents: r.amount_charged_cents,
        created_at: r.created_at,
    }))
}

/// The reading `id` when `user_id` is one of its parties; 404 otherwise.
pub async fn visible(db: impl PgExecutor<'_>, user_id: Uuid, id: Uuid) -> Result<Reading> {
    find(db, id)
        .await?
        .filter(|r| r.seeker_id == user_id || r.mentor_user_id == user_id)
        .ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// Whether the seeker's next reading with this mentor gets the free minutes.
async fn free_minutes_for(conn: &mut PgConnection, seeker_id: Uuid, mentor_id: Uuid) -> Result<i32> {
    let used = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM instant_free_minutes WHERE seeker_id = $1 AND mentor_id = $2) AS "used!""#,
        seeker_id,
        mentor_id
    )
    .fetch_one(&mut *conn)
    .await?;
    Ok(if used { 0 } else { FREE_MINUTES })
}

/// Both parties' sockets hear where the reading is.
async fn announce(conn: &mut PgConnection, r: &Reading) -> Result<()> {
    let event = ServerEvent::InstantSessionChanged(InstantSessionChanged {
        id: r.id,
        status: r.status.as_str().to_string(),
        mode: r.mode.as_str().to_string(),
        started_at: r.started_at,
        ended_at: r.ended_at,
        end_reason: r.end_reason.map(|e| e.as_str().to_string()),
        minutes_billed: r.minutes_billed,
        conversation_id: r.conversation_id,
    });
    realtime::publish(conn, &Envelope::to_users(vec![r.seeker_id, r.mentor_user_id], event)).await
}

async fn reload(conn: &mut PgConnection, id: Uuid) -> Result<Reading> {
    find(&mut *conn, id).await?.ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// `POST /api/instant-sessions` by `seeker_id`.
pub async fn request(
    conn: &mut PgConnection,
    seeker_id: Uuid,
    mentor_id: Uuid,
    mode: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Reading> {
    let mode: InstantMode = mode
        .unwrap_or("")
        .trim()
        .parse()
        .map_err(|_| Error::validation(MODE_INVALID))?;
    let mentor = sqlx::query!(
        r#"SELECT m.user_id, m.per_minute_rate_cents, m.instant_modes, m.display_name,
                  (m.is_active AND u.is_active AND m.approval_status = 'approved') AS "public!"
           FROM mentors m JOIN users u ON u.id = m.user_id WHERE m.id = $1 FOR UPDATE OF m"#,
        mentor_id
    )
    .fetch_optional(&mut *conn)
    .await?
    .filter(|m| m.public)
    .ok_or_else(|| Error::not_found(MENTOR_NOT_FOUND))?;
    if mentor.user_id == seeker_id {
        return Err(Error::validation(WITH_YOURSELF));
    }
    let Some(rate) = mentor.per_minute_rate_cents else {
        return Err(Error::conflict(NOT_AVAILABLE));
    };
    if !mentor.instant_modes.iter().any(|m| m == mode.as_str()) {
        return Err(Error::conflict(MODE_NOT_OFFERED));
    }
    if presence::of_mentor(&mut *conn, mentor_id).await? != Presence::Available {
        return Err(Error::conflict(NOT_AVAILABLE));
    }
    let balance = wallet::lock(conn, seeker_id).await?;
    let missing = missing_cents(balance, rate);
    if missing > 0 {
        return Err(Error::InsufficientBalance {
            message: INSUFFICIENT_BALANCE.into(),
            missing_cents: missing,
        });
    }
    let free = free_minutes_for(conn, seeker_id, mentor_id).await?;
    let expires_at = now + chrono::Duration::from_std(REQUEST_TTL).unwrap_or_default();
    let id = sqlx::query_scalar!(
        "INSERT INTO instant_sessions (seeker_id, mentor_id, mode, status, per_minute_rate_cents, free_minutes, expires_at, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
        seeker_id,
        mentor_id,
        mode as InstantMode,
        ReadingStatus::Requested as ReadingStatus,
        rate,
        free,
        expires_at,
        now,
    )
    .fetch_one(&mut *conn)
    .await
    .on_constraint("instant_sessions_one_open_per_seeker", || Error::conflict(ALREADY_OPEN))?;
    jobs::schedule_expiry(conn, id, expires_at).await?;
    let seeker_name = sqlx::query_scalar!(
        "SELECT trim(first_name || ' ' || left(last_name, 1)) AS \"name!\" FROM users WHERE id = $1",
        seeker_id
    )
    .fetch_one(&mut *conn)
    .await?;
    // Where the mentor has push, their browsers ring too (a tab open hears the event live).
    crate::push::queue_to_user(
        conn,
        mentor.user_id,
        crate::push::PushContent {
            kind: crate::push::PushKind::ReadingRequested,
            title: "Reading request".into(),
            body: format!(
                "{seeker_name} asks for a {} reading now at ${}/min.",
                mode.as_str(),
                money::format(rate)
            ),
            url: "/mentor-dashboard".into(),
            tag: format!("reading-{id}"),
        },
    )
    .await?;
    realtime::publish(
        conn,
        &Envelope::to_users(
            vec![mentor.user_id],
            ServerEvent::InstantSessionRequested(InstantSessionRequested {
                id,
                seeker_id,
                seeker_name,
                mode: mode.as_str().to_string(),
                per_minute_rate: money::format(rate),
                expires_at,
            }),
        ),
    )
    .await?;
    reload(conn, id).await
}

/// Locks the reading; 404 unless `user_id` may act on it as `as_mentor` says.
async fn lock_for(conn: &mut PgConnection, user_id: Uuid, id: Uuid, as_mentor: Option<bool>) -> Result<Reading> {
    sqlx::query!("SELECT id FROM instant_sessions WHERE id = $1 FOR UPDATE", id)
        .fetch_optional(&mut *conn)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    let r = reload(conn, id).await?;
    let allowed = match as_mentor {
        Some(true) => r.mentor_user_id == user_id,
        Some(false) => r.seeker_id == user_id,
        None => r.mentor_user_id == user_id || r.seeker_id == user_id,
    };
    if !allowed {
        return Err(Error::not_found(NOT_FOUND));
    }
    Ok(r)
}

/// `POST /api/instant-sessions/{id}/accept` by the mentor.
pub async fn accept(conn: &mut PgConnection, user_id: Uuid, id: Uuid, now: DateTime<Utc>) -> Result<Reading> {
    let r = lock_for(conn, user_id, id, Some(true)).await?;
    if r.status != ReadingStatus::Requested || r.expires_at <= now {
        return Err(Error::conflict(NOT_REQUESTED));
    }
    // The pair's conversation carries a chat reading, and a video reading's call (the one-to-one
    // call path: a call placed in it while the reading is active names the reading).
    let conversation_id = {
        sqlx::query!(
            "INSERT INTO conversations (mentor_id, user_id) VALUES ($1, $2) ON CONFLICT (mentor_id, user_id) DO NOTHING",
            r.mentor_id,
            r.seeker_id
        )
        .execute(&mut *conn)
        .await?;
        Some(
            sqlx::query_scalar!(
                "SELECT id FROM conversations WHERE mentor_id = $1 AND user_id = $2",
                r.mentor_id,
                r.seeker_id
            )
            .fetch_one(&mut *conn)
            .await?,
        )
    };
    // The free minutes go to the first accepted reading of the pair, once.
    let free = if r.free_minutes > 0 {
        let claimed = sqlx::query!(
            "INSERT INTO instant_free_minutes (seeker_id, mentor_id, instant_session_id) VALUES ($1, $2, $3)
             ON CONFLICT DO NOTHING",
            r.seeker_id,
            r.mentor_id,
            r.id
        )
        .execute(&mut *conn)
        .await?
        .rows_affected();
        if claimed == 1 { r.free_minutes } else { 0 }
    } else {
        0
    };
    sqlx::query!(
        "UPDATE instant_sessions SET status = $2, started_at = $3, free_minutes = $4, conversation_id = $5 WHERE id = $1",
        id,
        ReadingStatus::Active as ReadingStatus,
        now,
        free,
        conversation_id,
    )
    .execute(&mut *conn)
    .await
    .on_constraint("instant_sessions_one_active_per_mentor", || Error::conflict(MENTOR_BUSY))?;
    presence::change(conn, r.mentor_id, Presence::Busy).await?;
    jobs::schedule_charge(conn, id, 0, now).await?;
    let r = reload(conn, id).await?;
    announce(conn, &r).await?;
    Ok(r)
}

/// `POST /api/instant-sessions/{id}/decline` by the mentor: costs nothing.
pub async fn decline(conn: &mut PgConnection, user_id: Uuid, id: Uuid) -> Result<Reading> {
    let r = lock_for(conn, user_id, id, Some(true)).await?;
    if r.status != ReadingStatus::Requested {
        return Err(Error::conflict(NOT_REQUESTED));
    }
    finish_unanswered(conn, r, ReadingStatus::Declined).await
}

/// The request's 60 seconds are over without an answer: expired, at no cost. `None` when it was answered.
pub async fn expire(conn: &mut PgConnection, id: Uuid) -> Result<Option<Reading>> {
    let Some(r) = find(&mut *conn, id).await? else {
        return Ok(None);
    };
    sqlx::query!("SELECT id FROM instant_sessions WHERE id = $1 FOR UPDATE", id)
        .fetch_one(&mut *conn)
        .await?;
    let r = if r.status == ReadingStatus::Requested {
        reload(conn, id).await?
    } else {
        r
    };
    if r.status != ReadingStatus::Requested {
        return Ok(None);
    }
    Ok(Some(finish_unanswered(conn, r, ReadingStatus::Expired).await?))
}

async fn finish_unanswered(conn: &mut PgConnection, r: Reading, status: ReadingStatus) -> Result<Reading> {
    sqlx::query!(
        "UPDATE instant_sessions SET status = $2 WHERE id = $1",
        r.id,
        status as ReadingStatus
    )
    .execute(&mut *conn)
    .await?;
    let r = reload(conn, r.id).await?;
    announce(conn, &r).await?;
    Ok(r)
}

/// What charging the due minutes came to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Metered {
    /// Still active: the next minute's charge is queued for this moment.
    Next(DateTime<Utc>),
    /// Over (now or before).
    Over,
}

/// Charges every started minute of an active reading up to `upto` (a minute index) that is after
/// the free ones and not charged yet, in order, each once. A minute the balance cannot pay ends the
/// reading at its start (`balance`). Warns the seeker (`balanceLow`) when the next minute is the
/// last one the balance pays for.
async fn charge_upto(conn: &mut PgConnection, r: &Reading, upto: i32) -> Result<Option<i32>> {
    let started_at = r.started_at.unwrap_or(r.created_at);
    let charged = sqlx::query_scalar!(
        r#"SELECT coalesce(max(minute_index) + 1, 0) AS "next!" FROM wallet_entries WHERE instant_session_id = $1"#,
        r.id
    )
    .fetch_one(&mut *conn)
    .await?;
    let rate = r.per_minute_rate_cents;
    let mut balance = wallet::lock(conn, r.seeker_id).await?;
    for index in charged.max(r.free_minutes)..=upto {
        if balance < rate {
            return Ok(Some(index));
        }
        sqlx::query!(
            "INSERT INTO wallet_entries (user_id, kind, amount_cents, instant_session_id, minute_index, created_at)
             VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (instant_session_id, minute_index) DO NOTHING",
            r.seeker_id,
            EntryKind::SessionCharge as EntryKind,
            -rate,
            r.id,
            index,
            minute_start(started_at, index),
        )
        .execute(&mut *conn)
        .await?;
        balance -= rate;
    }
    Ok(None)
}

async fn close(
    conn: &mut PgConnection,
    r: &Reading,
    minutes: i32,
    ended_at: DateTime<Utc>,
    reason: EndReason,
) -> Result<Reading> {
    sqlx::query!(
        "UPDATE instant_sessions SET status = $2, ended_at = $3, end_reason = $4, minutes_billed = $5 WHERE id = $1",
        r.id,
        ReadingStatus::Ended as ReadingStatus,
        ended_at,
        reason as EndReason,
        minutes,
    )
    .execute(&mut *conn)
    .await?;
    // Back online after a reading (the mentor's socket and session rules still apply at the next check).
    presence::change(conn, r.mentor_id, Presence::Available).await?;
    let grace = chrono::Duration::seconds(1);
    presence::jobs::schedule_check(conn, r.mentor_id, ended_at.max(Utc::now()) + grace).await?;
    let r = reload(conn, r.id).await?;
    announce(conn, &r).await?;
    Ok(r)
}

/// The charge task of an active reading at `now`: charges what is due, ends it when the balance
/// runs out, warns a minute before, and says when the next charge is due.
pub async fn charge_due(conn: &mut PgConnection, id: Uuid, now: DateTime<Utc>) -> Result<Metered> {
    sqlx::query!("SELECT id FROM instant_sessions WHERE id = $1 FOR UPDATE", id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(r) = find(&mut *conn, id).await? else {
        return Ok(Metered::Over);
    };
    if r.status != ReadingStatus::Active {
        return Ok(Metered::Over);
    }
    let started_at = r.started_at.unwrap_or(r.created_at);
    let current = minute_at(started_at, now);
    if let Some(unpaid) = charge_upto(conn, &r, current).await? {
        close(conn, &r, unpaid, minute_start(started_at, unpaid), EndReason::Balance).await?;
        return Ok(Metered::Over);
    }
    // The next minute: warn when the balance pays it but not the one after, or not even it.
    let balance = wallet::balance(&mut *conn, r.seeker_id).await?;
    let next = current + 1;
    if next >= r.free_minutes && balance < 2 * r.per_minute_rate_cents {
        realtime::publish(
            conn,
            &Envelope::to_users(
                vec![r.seeker_id],
                ServerEvent::BalanceLow(BalanceLow {
                    instant_session_id: r.id,
                    balance: money::format(balance),
                    per_minute_rate: money::format(r.per_minute_rate_cents),
                    ends_at: if balance < r.per_minute_rate_cents {
                        minute_start(started_at, next)
                    } else {
                        minute_start(started_at, next + 1)
                    },
                }),
            ),
        )
        .await?;
    }
    let due = minute_start(started_at, next);
    jobs::schedule_charge(conn, id, next, due).await?;
    Ok(Metered::Next(due))
}

/// `POST /api/instant-sessions/{id}/end` by either party: every started minute up to now is billed
/// (once); a minute the balance cannot pay ends it there instead (`balance`).
pub async fn end(conn: &mut PgConnection, user_id: Uuid, id: Uuid, now: DateTime<Utc>) -> Result<Reading> {
    let r = lock_for(conn, user_id, id, None).await?;
    if r.status != ReadingStatus::Active {
        return Err(Error::conflict(NOT_ACTIVE));
    }
    let started_at = r.started_at.unwrap_or(r.created_at);
    let last = minute_at(started_at, now);
    if let Some(unpaid) = charge_upto(conn, &r, last).await? {
        return close(conn, &r, unpaid, minute_start(started_at, unpaid), EndReason::Balance).await;
    }
    let reason = if user_id == r.seeker_id {
        EndReason::Seeker
    } else {
        EndReason::Mentor
    };
    close(conn, &r, last + 1, now, reason).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_figures() {
        assert_eq!(REQUEST_TTL, Duration::from_secs(60));
        assert_eq!(FREE_MINUTES, 3);
        assert_eq!(PAID_MINUTES_REQUIRED, 3);
        assert_eq!(MINUTE, Duration::from_secs(60));
    }

    #[test]
    fn the_amount_is_the_paid_minutes_times_the_rate() {
        assert_eq!(amount_for(5, 3, 199), 398);
        assert_eq!(amount_for(2, 3, 199), 0);
        assert_eq!(amount_for(4, 0, 250), 1_000);
    }

    #[test]
    fn minutes_count_from_the_start() {
        let t = Utc::now();
        assert_eq!(minute_at(t, t), 0);
        assert_eq!(minute_at(t, t + chrono::Duration::seconds(59)), 0);
        assert_eq!(minute_at(t, t + chrono::Duration::seconds(60)), 1);
        assert_eq!(minute_start(t, 2), t + chrono::Duration::seconds(120));
    }

    #[test]
    fn the_402_names_what_three_minutes_lack() {
        assert_eq!(missing_cents(100, 199), 497);
        assert_eq!(missing_cents(600, 199), 0);
    }
}
