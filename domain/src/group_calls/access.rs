//! Who may be in a group session's call, and when: its mentor, and every seeker holding a paid or
//! free seat (a confirmed or completed seat booking) who was not removed, while the call is open
//! (active, or from 15 minutes before its start until its end: the waiting room before the start).

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgConnection};
use uuid::Uuid;

use crate::{
    Error, Result,
    booking::BookingStatus,
    group_sessions::{GroupStatus, status::in_call_window},
    statuses::RemovalReason,
};

pub const NOT_FOUND: &str = "Group session not found";
pub const NOT_A_PARTICIPANT: &str = "Only the mentor and the participants of this session can join its call";
pub const REMOVED: &str = crate::group_sessions::REMOVED;
pub const NOT_LIVE: &str = "This session is not live";
pub const MENTOR_ONLY: &str = "Only the mentor of this session can do that";
pub const NOT_IN_SESSION: &str = "That person is not a participant of this session";

#[derive(Clone, Debug, FromRow)]
pub struct CallSession {
    pub id: Uuid,
    pub title: String,
    pub status: GroupStatus,
    pub scheduled_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub max_participants: i32,
    pub mentor_user_id: Uuid,
    pub mentor_name: String,
}

impl CallSession {
    /// The call may be entered: active, or scheduled from 15 minutes before its start until its end.
    pub fn is_open(&self, now: DateTime<Utc>) -> bool {
        match self.status {
            GroupStatus::Active => true,
            GroupStatus::Scheduled => in_call_window(self.scheduled_at, self.ends_at, now),
            GroupStatus::Completed | GroupStatus::Cancelled => false,
        }
    }
}

closed_set! {
    /// Who someone is in a group call.
    #[cfg_attr(feature = "openapi", oai(rename = "GroupCallRole"))]
    pub enum Role ("group call role") {
        Mentor = "mentor",
        Participant = "participant",
    }
}

/// A member of the call as the others see them.
#[derive(Clone, Debug, FromRow, PartialEq, Eq)]
pub struct Member {
    pub user_id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub profile_image_url: Option<String>,
    pub is_mentor: bool,
    /// The mentor muted them in this call (until they unmute them).
    pub is_muted: bool,
}

pub async fn session(conn: &mut PgConnection, id: Uuid) -> Result<CallSession> {
    sqlx::query_as!(
        CallSession,
        "SELECT g.id, g.title, g.status AS \"status: GroupStatus\", g.scheduled_at, g.ends_at, g.max_participants, m.user_id AS mentor_user_id, \
         m.display_name AS mentor_name FROM group_sessions g JOIN mentors m ON m.id = g.mentor_id WHERE g.id = $1",
        id,
    )
    .fetch_optional(conn)
    .await?
    .ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// The caller's role in the session, or why they have none.
pub async fn role_of(conn: &mut PgConnection, s: &CallSession, user: Uuid) -> Result<Role> {
    if s.mentor_user_id == user {
        return Ok(Role::Mentor);
    }
    let found = sqlx::query!(
        r#"SELECT EXISTS (SELECT 1 FROM bookings WHERE group_session_id = $1 AND user_id = $2 AND status = ANY($3)) AS "seated!",
                  EXISTS (SELECT 1 FROM group_call_removals WHERE group_session_id = $1 AND user_id = $2) AS "removed!""#,
        s.id,
        user,
        BookingStatus::ADMITTED as &[BookingStatus],
    )
    .fetch_one(conn)
    .await?;
    let (seated, removed) = (found.seated, found.removed);
    match (seated, removed) {
        (_, true) => Err(Error::forbidden(REMOVED)),
        (true, false) => Ok(Role::Participant),
        (false, false) => Err(Error::forbidden(NOT_A_PARTICIPANT)),
    }
}

/// The session and the caller's role, when the caller may be in its call now.
pub async fn admit(conn: &mut PgConnection, id: Uuid, user: Uuid, now: DateTime<Utc>) -> Result<(CallSession, Role)> {
    let s = session(&mut *conn, id).await?;
    let role = role_of(&mut *conn, &s, user).await?;
    if !s.is_open(now) {
        return Err(Error::conflict(NOT_LIVE));
    }
    Ok((s, role))
}

/// The session, when `user` is its mentor.
pub async fn as_mentor(conn: &mut PgConnection, id: Uuid, user: Uuid) -> Result<CallSession> {
    let s = session(&mut *conn, id).await?;
    if s.mentor_user_id != user {
        return Err(Error::forbidden(MENTOR_ONLY));
    }
    Ok(s)
}

/// Serialises, until the transaction ends, everything that changes one member's place in one call:
/// their join (admitted, then seated in Janus), their removal (recorded, then kicked), their
/// publication and the mentor's mute of it. So a removal never falls between a join's check and
/// its seat in Janus, and a mute never misses a publication being made.
pub async fn lock_seat(conn: &mut PgConnection, id: Uuid, user: Uuid) -> Result<()> {
    sqlx::query!(
        "SELECT pg_advisory_xact_lock(hashtext('group_call_seat'), hashtext($1::uuid::text || $2::uuid::text))",
        id,
        user,
    )
    .execute(conn)
    .await?;
    Ok(())
}

/// The mentor and every seated participant not removed: who hears about the call.
pub async fn members(conn: &mut PgConnection, id: Uuid) -> Result<Vec<Member>> {
    Ok(sqlx::query_as!(
        Member,
        "SELECT u.id AS \"user_id!\", u.first_name AS \"first_name!\", u.last_name AS \"last_name!\", u.profile_image_url, \
                true AS \"is_mentor!\", false AS \"is_muted!\" \
         FROM group_sessions g JOIN mentors m ON m.id = g.mentor_id JOIN users u ON u.id = m.user_id WHERE g.id = $1 \
         UNION ALL \
         SELECT u.id, u.first_name, u.last_name, u.profile_image_url, false, \
                EXISTS (SELECT 1 FROM group_call_mutes x WHERE x.group_session_id = $1 AND x.user_id = b.user_id) \
         FROM bookings b JOIN users u ON u.id = b.user_id \
         WHERE b.group_session_id = $1 AND b.status = ANY($2) \
         AND NOT EXISTS (SELECT 1 FROM group_call_removals r WHERE r.group_session_id = $1 AND r.user_id = b.user_id) \
         ORDER BY 5 DESC, 2, 3",
        id,
        BookingStatus::ADMITTED as &[BookingStatus],
    )
    .fetch_all(conn)
    .await?)
}

/// The scheduled and active group sessions `user` is a member of (their mentor, or a seat holder
/// not removed): the rooms whose events reach them (`realtime::Envelope::to_room`).
pub async fn rooms_of(db: impl sqlx::PgExecutor<'_>, user: Uuid) -> Result<Vec<Uuid>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT g.id AS "id!" FROM group_sessions g JOIN mentors m ON m.id = g.mentor_id
           WHERE m.user_id = $1 AND g.status = ANY($2)
           UNION
           SELECT g.id FROM bookings b JOIN group_sessions g ON g.id = b.group_session_id
           WHERE b.user_id = $1 AND b.status = ANY($3) AND g.status = ANY($2)
           AND NOT EXISTS (SELECT 1 FROM group_call_removals r WHERE r.group_session_id = g.id AND r.user_id = $1)"#,
        user,
        GroupStatus::HOLDING_TIME as &[GroupStatus],
        BookingStatus::ADMITTED as &[BookingStatus],
    )
    .fetch_all(db)
    .await?)
}

/// Records that the mentor removed `user` for `reason`; false when they were not a participant, or
/// were removed already (a second removal, even a concurrent one, changes nothing: the first
/// reason stands and the seat's money is settled once).
pub async fn remove(conn: &mut PgConnection, id: Uuid, user: Uuid, by: Uuid, reason: RemovalReason) -> Result<bool> {
    let seated: bool = sqlx::query_scalar!(
        "SELECT EXISTS (SELECT 1 FROM bookings WHERE group_session_id = $1 AND user_id = $2 AND status = ANY($3)) AS \"seated!\"",
        id,
        user,
        BookingStatus::ADMITTED as &[BookingStatus],
    )
    .fetch_one(&mut *conn)
    .await?;
    if !seated {
        return Ok(false);
    }
    let recorded = sqlx::query!(
        "INSERT INTO group_call_removals (group_session_id, user_id, removed_by, reason) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING",
        id,
        user,
        by,
        reason as RemovalReason,
    )
    .execute(conn)
    .await?
    .rows_affected();
    Ok(recorded == 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::Duration;

    fn session(status: GroupStatus, start_in_minutes: i64) -> CallSession {
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        CallSession {
            id: Uuid::nil(),
            title: "Circle".into(),
            status,
            scheduled_at: now + Duration::minutes(start_in_minutes),
            ends_at: now + Duration::minutes(start_in_minutes + 60),
            max_participants: 4,
            mentor_user_id: Uuid::nil(),
            mentor_name: "Luna".into(),
        }
    }

    #[test]
    fn a_call_is_open_when_active_or_from_15_minutes_before_the_start_until_the_end() {
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        assert!(session(GroupStatus::Scheduled, 0).is_open(now));
        assert!(session(GroupStatus::Scheduled, -59).is_open(now));
        assert!(!session(GroupStatus::Scheduled, -60).is_open(now));
        assert!(session(GroupStatus::Scheduled, 1).is_open(now), "the waiting room");
        assert!(
            session(GroupStatus::Scheduled, 15).is_open(now),
            "15 minutes early, the edge"
        );
        assert!(!session(GroupStatus::Scheduled, 16).is_open(now));
        assert!(session(GroupStatus::Active, 30).is_open(now));
        assert!(!session(GroupStatus::Completed, -10).is_open(now));
        assert!(!session(GroupStatus::Cancelled, -10).is_open(now));
    }
}
