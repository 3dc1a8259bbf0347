//! Mentors online (issue 36, §2). A mentor with a per-minute rate and an open socket may set
//! themselves `available`; a reading makes them `busy`; they are `offline` otherwise. Presence is
//! stored per mentor (`mentor_presence`) and read when a response is made, never cached with it.
//!
//! Going offline by itself: when a mentor's last socket closes, a [`jobs::CheckPresence`] task runs
//! [`OFFLINE_AFTER_LAST_SOCKET`] later and sets them offline unless a socket is open again; going
//! online schedules the same check [`BOOKED_SESSION_MARGIN`] before their next booked session. Every
//! change is published as `presenceChanged` to the sockets that watch that mentor
//! (`watchPresence`, at most [`MAX_WATCHED`] ids a socket), not to everyone.

pub mod jobs;

use std::{collections::HashMap, time::Duration};

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

pub use crate::catalogue::instant::{InstantMode, MAX_RATE_CENTS, MIN_RATE_CENTS};

use crate::{
    Error, Result,
    calls::sockets,
    catalogue::mentors::{ApprovalStatus, Mentor, query_mentors},
    realtime::{self, Envelope, ServerEvent, protocol::PresenceChanged},
    statuses::BookingStatus,
};

/// A mentor whose last socket has been closed this long is offline.
pub const OFFLINE_AFTER_LAST_SOCKET: Duration = Duration::from_secs(60);
/// A mentor cannot be online from this long before a booked session until its end.
pub const BOOKED_SESSION_MARGIN: Duration = Duration::from_secs(15 * 60);
/// The most mentors one socket watches at once (`watchPresence`), and one presence query names.
pub const MAX_WATCHED: usize = 100;
/// How often a visitor's page polls `GET /api/mentors/presence` (the web's figure, documented here).
pub const VISITOR_POLL: Duration = Duration::from_secs(15);

pub const OPEN_THE_SITE: &str = "Open the site to go online.";
pub const NEEDS_A_RATE: &str = "Set a per-minute rate to go online.";
pub const SESSION_SOON: &str = "You have a booked session within 15 minutes: you can go online after it.";
pub const BUSY: &str = "You are in a reading: you can change your status when it ends.";
pub const TOO_MANY_IDS: &str = "At most 100 mentors at once";
pub const STATUS_INVALID: &str = "Status must be available or offline";
pub const NOT_A_MENTOR: &str = "Mentor profile not found";

closed_set! {
    /// Whether a mentor takes instant readings now.
    #[cfg_attr(feature = "openapi", oai(rename = "Presence"))]
    pub enum Presence ("presence") {
        Available = "available",
        Busy = "busy",
        Offline = "offline",
    }
}

/// The presence of each of `mentor_ids` now (offline when never set).
pub async fn of_mentors(db: impl PgExecutor<'_>, mentor_ids: &[Uuid]) -> Result<HashMap<Uuid, Presence>> {
    let rows = sqlx::query!(
        r#"SELECT mentor_id, status AS "status: Presence" FROM mentor_presence WHERE mentor_id = ANY($1)"#,
        mentor_ids
    )
    .fetch_all(db)
    .await?;
    let mut out: HashMap<Uuid, Presence> = mentor_ids.iter().map(|&id| (id, Presence::Offline)).collect();
    for r in rows {
        out.insert(r.mentor_id, r.status);
    }
    Ok(out)
}

/// The presence of one mentor now.
pub async fn of_mentor(db: impl PgExecutor<'_>, mentor_id: Uuid) -> Result<Presence> {
    Ok(of_mentors(db, &[mentor_id])
        .await?
        .remove(&mentor_id)
        .unwrap_or(Presence::Offline))
}

/// Whether `user_id` has a live socket on some api process.
pub async fn has_open_socket(db: impl PgExecutor<'_>, user_id: Uuid) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM realtime_sockets WHERE user_id = $1 AND seen_at > now() - $2::interval) AS "open!""#,
        user_id,
        crate::sql::interval(sockets::STALE_AFTER),
    )
    .fetch_one(db)
    .await?)
}

/// When the mentor's next booked session (from now on, or in progress) starts, if any.
pub async fn next_booked_session(
    db: impl PgExecutor<'_>,
    mentor_id: Uuid,
    now: DateTime<Utc>,
) -> Result<Option<DateTime<Utc>>> {
    Ok(sqlx::query_scalar!(
        "SELECT min(scheduled_at) FROM bookings WHERE mentor_id = $1 AND status IN ($2, $3) AND ends_at > $4",
        mentor_id,
        BookingStatus::Confirmed as BookingStatus,
        BookingStatus::Pending as BookingStatus,
        now,
    )
    .fetch_one(db)
    .await?)
}

/// Whether a booked session keeps the mentor from being online at `now`: one starting within
/// [`BOOKED_SESSION_MARGIN`] or in progress.
pub fn session_blocks(next_start: Option<DateTime<Utc>>, now: DateTime<Utc>) -> bool {
    let margin = chrono::Duration::from_std(BOOKED_SESSION_MARGIN).unwrap_or_default();
    next_start.is_some_and(|start| start - margin <= now)
}

/// Stores `status` for the mentor and tells the sockets watching them, in the caller's transaction;
/// nothing is published when it did not change.
pub async fn change(conn: &mut PgConnection, mentor_id: Uuid, status: Presence) -> Result<()> {
    let before = sqlx::query_scalar!(
        r#"SELECT status AS "status: Presence" FROM mentor_presence WHERE mentor_id = $1 FOR UPDATE"#,
        mentor_id
    )
    .fetch_optional(&mut *conn)
    .await?
    .unwrap_or(Presence::Offline);
    sqlx::query!(
        "INSERT INTO mentor_presence (mentor_id, status) VALUES ($1, $2)
         ON CONFLICT (mentor_id) DO UPDATE SET status = EXCLUDED.status, changed_at = now()",
        mentor_id,
        status as Presence,
    )
    .execute(&mut *conn)
    .await?;
    if before != status {
        announce(conn, mentor_id, status).await?;
    }
    Ok(())
}

/// `presenceChanged` to every socket that watches the mentor.
pub async fn announce(conn: &mut PgConnection, mentor_id: Uuid, status: Presence) -> Result<()> {
    let watchers = sqlx::query!(
        "SELECT socket_id, user_id FROM presence_watchers WHERE mentor_id = $1",
        mentor_id
    )
    .fetch_all(&mut *conn)
    .await?;
    let envelopes: Vec<Envelope> = watchers
        .into_iter()
        .map(|w| {
            Envelope::to_socket(
                w.user_id,
                w.socket_id,
                ServerEvent::PresenceChanged(PresenceChanged {
                    mentor_id,
                    status: status.as_str().to_string(),
                }),
            )
        })
        .collect();
    realtime::publish_many(conn, &envelopes).await
}

/// `PUT /api/mentor/presence` by the mentor of `user_id`: `available` needs a per-minute rate, an
/// open socket and no booked session within 15 minutes; `offline` always works (but not during a
/// reading). Returns the status now.
pub async fn set(conn: &mut PgConnection, user_id: Uuid, wanted: Option<&str>, now: DateTime<Utc>) -> Result<Presence> {
    let wanted = match wanted.map(str::trim) {
        Some("available") => Presence::Available,
        Some("offline") => Presence::Offline,
        _ => return Err(Error::validation(STATUS_INVALID)),
    };
    let mentor = sqlx::query!(
        "SELECT id, per_minute_rate_cents FROM mentors WHERE user_id = $1 FOR UPDATE",
        user_id
    )
    .fetch_optional(&mut *conn)
    .await?
    .ok_or_else(|| Error::not_found(NOT_A_MENTOR))?;
    let current = of_mentor(&mut *conn, mentor.id).await?;
    if current == Presence::Busy {
        return Err(Error::conflict(BUSY));
    }
    if wanted == Presence::Available {
        if mentor.per_minute_rate_cents.is_none() {
            return Err(Error::conflict(NEEDS_A_RATE));
        }
        if !has_open_socket(&mut *conn, user_id).await? {
            return Err(Error::conflict(OPEN_THE_SITE));
        }
        let next = next_booked_session(&mut *conn, mentor.id, now).await?;
        if session_blocks(next, now) {
            return Err(Error::conflict(SESSION_SOON));
        }
        if let Some(start) = next {
            let margin = chrono::Duration::from_std(BOOKED_SESSION_MARGIN).unwrap_or_default();
            jobs::schedule_check(conn, mentor.id, start - margin).await?;
        }
    }
    change(conn, mentor.id, wanted).await?;
    Ok(wanted)
}

/// The check behind going offline by itself: an available mentor without an open socket, or with
/// a booked session within 15 minutes, becomes offline. Returns whether they did.
pub async fn check(conn: &mut PgConnection, mentor_id: Uuid, now: DateTime<Utc>) -> Result<bool> {
    let Some(user_id) = sqlx::query_scalar!("SELECT user_id FROM mentors WHERE id = $1 FOR UPDATE", mentor_id)
        .fetch_optional(&mut *conn)
        .await?
    else {
        return Ok(false);
    };
    if of_mentor(&mut *conn, mentor_id).await? != Presence::Available {
        return Ok(false);
    }
    let next = next_booked_session(&mut *conn, mentor_id, now).await?;
    if has_open_socket(&mut *conn, user_id).await? && !session_blocks(next, now) {
        return Ok(false);
    }
    change(conn, mentor_id, Presence::Offline).await?;
    Ok(true)
}

/// Every mentor available now (for the sweep).
pub async fn available_ids(db: impl PgExecutor<'_>) -> Result<Vec<Uuid>> {
    Ok(sqlx::query_scalar!(
        "SELECT mentor_id FROM mentor_presence WHERE status = $1 ORDER BY mentor_id",
        Presence::Available as Presence
    )
    .fetch_all(db)
    .await?)
}

/// A socket of `user_id` closed (its row is gone): when it was a mentor's last, their presence is
/// checked [`OFFLINE_AFTER_LAST_SOCKET`] later. It watches nothing any more.
pub async fn socket_closed(conn: &mut PgConnection, user_id: Uuid, socket: Uuid, now: DateTime<Utc>) -> Result<()> {
    sqlx::query!("DELETE FROM presence_watchers WHERE socket_id = $1", socket)
        .execute(&mut *conn)
        .await?;
    let mentor = sqlx::query_scalar!("SELECT id FROM mentors WHERE user_id = $1", user_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(mentor_id) = mentor else { return Ok(()) };
    if of_mentor(&mut *conn, mentor_id).await? == Presence::Offline {
        return Ok(());
    }
    let grace = chrono::Duration::from_std(OFFLINE_AFTER_LAST_SOCKET).unwrap_or_default();
    jobs::schedule_check(conn, mentor_id, now + grace).await
}

/// `watchPresence {mentorIds}`: this socket now watches exactly these mentors (at most 100).
pub async fn watch(conn: &mut PgConnection, user_id: Uuid, socket: Uuid, mentor_ids: &[Uuid]) -> Result<()> {
    if mentor_ids.len() > MAX_WATCHED {
        return Err(Error::validation(TOO_MANY_IDS));
    }
    sqlx::query!("DELETE FROM presence_watchers WHERE socket_id = $1", socket)
        .execute(&mut *conn)
        .await?;
    sqlx::query!(
        "INSERT INTO presence_watchers (socket_id, user_id, mentor_id)
         SELECT $1, $2, m.id FROM mentors m WHERE m.id = ANY($3) ON CONFLICT DO NOTHING",
        socket,
        user_id,
        mentor_ids,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// Public mentors who are available now, best rated first, paged (`GET /api/mentors?availableNow=true`).
pub async fn available(db: &sqlx::PgPool, page: i64, page_size: i64) -> Result<(Vec<Mentor>, i64)> {
    let offset = crate::paging::offset(page, page_size);
    let mentors = query_mentors!(
        "JOIN mentor_presence p ON p.mentor_id = m.id
         WHERE p.status = $1 AND m.is_active AND u.is_active AND m.approval_status = $2
         ORDER BY m.rating DESC, m.review_count DESC, m.id LIMIT $3 OFFSET $4",
        Presence::Available as Presence,
        ApprovalStatus::Approved as ApprovalStatus,
        page_size,
        offset,
    )
    .fetch_all(db)
    .await?;
    let total = sqlx::query_scalar!(
        r#"SELECT count(*) AS "n!" FROM mentor_presence p JOIN mentors m ON m.id = p.mentor_id JOIN users u ON u.id = m.user_id
           WHERE p.status = $1 AND m.is_active AND u.is_active AND m.approval_status = $2"#,
        Presence::Available as Presence,
        ApprovalStatus::Approved as ApprovalStatus,
    )
    .fetch_one(db)
    .await?;
    Ok((mentors, total))
}

/// The profile lost its rate (`perMinuteRate: "0.00"`): an available mentor goes offline with it.
pub async fn rate_removed(conn: &mut PgConnection, mentor_id: Uuid) -> Result<()> {
    if of_mentor(&mut *conn, mentor_id).await? == Presence::Available {
        change(conn, mentor_id, Presence::Offline).await?;
    }
    Ok(())
}

/// Parses `?ids=a,b,c` (at most 100).
pub fn parse_ids(raw: &str) -> Result<Vec<Uuid>> {
    let ids: Vec<Uuid> = raw
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| {
            s.parse()
                .map_err(|_| Error::validation("ids must be mentor ids separated by commas"))
        })
        .collect::<Result<_>>()?;
    if ids.len() > MAX_WATCHED {
        return Err(Error::validation(TOO_MANY_IDS));
    }
    Ok(ids)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_rules_figures() {
        assert_eq!(OFFLINE_AFTER_LAST_SOCKET, Duration::from_secs(60));
        assert_eq!(BOOKED_SESSION_MARGIN, Duration::from_secs(900));
        assert_eq!(MAX_WATCHED, 100);
        assert_eq!(VISITOR_POLL, Duration::from_secs(15));
    }

    #[test]
    fn a_session_within_fifteen_minutes_or_in_progress_blocks() {
        let now = Utc::now();
        assert!(!session_blocks(None, now));
        assert!(session_blocks(Some(now + chrono::Duration::minutes(15)), now));
        assert!(session_blocks(Some(now - chrono::Duration::minutes(5)), now));
        assert!(!session_blocks(Some(now + chrono::Duration::minutes(16)), now));
    }

    #[test]
    fn ids_are_a_comma_list_of_at_most_a_hundred() {
        let id = Uuid::new_v4();
        assert_eq!(parse_ids(&format!("{id}, {id}")).unwrap(), vec![id, id]);
        assert_eq!(parse_ids("").unwrap(), Vec::<Uuid>::new());
        let many = vec![id.to_string(); 101].join(",");
        assert_eq!(parse_ids(&many).unwrap_err().to_string(), TOO_MANY_IDS);
    }
}
