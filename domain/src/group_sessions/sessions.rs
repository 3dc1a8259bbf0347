//! Creating and reading group sessions.

use chrono::{DateTime, Duration, Utc};
use sqlx::{FromRow, PgConnection, PgExecutor, PgPool};
use uuid::Uuid;

use super::{GroupStatus, *};
use crate::{
    Error, Result,
    booking::{BookingStatus, slot_arithmetic::BOOKING_WINDOW_DAYS},
    catalogue::{mentors, services},
    error::OnConstraint,
};

#[derive(Clone, Debug, FromRow)]
pub struct GroupSession {
    pub id: Uuid,
    pub mentor_id: Uuid,
    pub service_id: Uuid,
    pub title: String,
    pub description: Option<String>,
    pub status: GroupStatus,
    pub scheduled_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub max_participants: i32,
    /// Seats held or booked.
    pub seats_taken: i32,
    pub created_at: DateTime<Utc>,
    pub service_title: String,
    pub service_type: crate::catalogue::vocabulary::ServiceType,
    pub service_price_cents: i64,
    pub service_duration_minutes: i32,
    pub mentor_user_id: Uuid,
    pub mentor_display_name: String,
    pub mentor_profile_image_url: Option<String>,
    pub mentor_rating: String,
    pub mentor_total_sessions: i32,
    /// The mentor is public (active, their user too, approved): otherwise only the mentor (and
    /// administrators) see the session and nobody takes a seat.
    pub mentor_is_public: bool,
}

impl GroupSession {
    pub fn status(&self) -> GroupStatus {
        self.status
    }

    /// Live: active, or scheduled with the start passed and the end not.
    pub fn is_live(&self, now: DateTime<Utc>) -> bool {
        match self.status() {
            GroupStatus::Active => now < self.ends_at,
            GroupStatus::Scheduled => status::in_live_window(self.scheduled_at, self.ends_at, now),
            _ => false,
        }
    }
}

macro_rules! select_group_sessions {
    ($rest:literal) => {
        concat!(
            "SELECT g.id, g.mentor_id, g.service_id, g.title, g.description, g.status, g.scheduled_at, g.ends_at, ",
            "g.max_participants, g.seats_taken, g.created_at, ",
            "s.title AS service_title, s.service_type, s.price_cents AS service_price_cents, ",
            "(extract(epoch FROM g.ends_at - g.scheduled_at) / 60)::int AS service_duration_minutes, ",
            "m.user_id AS mentor_user_id, m.display_name AS mentor_display_name, ",
            "coalesce(m.profile_image_url, u.profile_image_url) AS mentor_profile_image_url, ",
            "m.rating::text AS mentor_rating, m.total_sessions AS mentor_total_sessions, ",
            "(m.is_active AND u.is_active AND m.approval_status = 'approved') AS mentor_is_public ",
            "FROM group_sessions g JOIN services s ON s.id = g.service_id JOIN mentors m ON m.id = g.mentor_id ",
            "JOIN users u ON u.id = m.user_id ",
            $rest
        )
    };
}

pub struct NewGroupSession {
    pub service_id: Option<Uuid>,
    pub title: Option<String>,
    pub description: Option<String>,
    pub scheduled_at: Option<DateTime<Utc>>,
    pub max_participants: Option<i64>,
}

/// Checks and inserts a session of the mentor's own active group service. Its duration is the
/// service's; the database refuses a time overlapping the mentor's other bookings or sessions.
pub async fn create(
    tx: &mut PgConnection,
    mentor_user_id: Uuid,
    input: NewGroupSession,
    now: DateTime<Utc>,
) -> Result<GroupSession> {
    let mentor = mentors::own(&mut *tx, mentor_user_id).await?;
    let service_id = input.service_id.ok_or_else(|| Error::validation(NO_SERVICE))?;
    let title = input.title.as_deref().map(str::trim).unwrap_or_default().to_string();
    if title.is_empty() {
        return Err(Error::validation(NO_TITLE));
    }
    if title.chars().count() > 200 {
        return Err(Error::validation(TITLE_TOO_LONG));
    }
    let description = input
        .description
        .as_deref()
        .map(str::trim)
        .filter(|d| !d.is_empty())
        .map(str::to_string);
    if description.as_deref().is_some_and(|d| d.chars().count() > 2000) {
        return Err(Error::validation(DESCRIPTION_TOO_LONG));
    }
    let scheduled_at = input.scheduled_at.ok_or_else(|| Error::validation(NO_TIME))?;
    let max = max_participants(input.max_participants)?;
    let service = services::find(&mut *tx, service_id)
        .await?
        .filter(|s| s.mentor_id == mentor.id && s.is_active && s.is_group_session)
        .ok_or_else(|| Error::validation(NOT_A_GROUP_SERVICE))?;
    if scheduled_at <= now {
        return Err(Error::validation(IN_THE_PAST));
    }
    if scheduled_at > now + Duration::days(BOOKING_WINDOW_DAYS) {
        return Err(Error::validation(TOO_FAR_AHEAD));
    }
    let id: Uuid = sqlx::query_scalar(
        "INSERT INTO group_sessions (mentor_id, service_id, title, description, scheduled_at, ends_at, max_participants) \
         VALUES ($1, $2, $3, $4, $5, $5 + make_interval(mins => $6), $7) RETURNING id",
    )
    .bind(mentor.id)
    .bind(service.id)
    .bind(&title)
    .bind(description)
    .bind(scheduled_at)
    .bind(service.duration_minutes)
    .bind(max)
    .fetch_one(&mut *tx)
    .await
    .on_constraint("mentor_busy_no_overlap", || Error::SlotTaken(TIME_TAKEN.into()))?;
    find(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("group session vanished").into())
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<GroupSession>> {
    Ok(sqlx::query_as(select_group_sessions!("WHERE g.id = $1"))
        .bind(id)
        .fetch_optional(db)
        .await?)
}

/// The session locked for a change of state.
pub async fn locked(tx: &mut PgConnection, id: Uuid) -> Result<Option<GroupSession>> {
    sqlx::query("SELECT 1 FROM group_sessions WHERE id = $1 FOR UPDATE")
        .bind(id)
        .execute(&mut *tx)
        .await?;
    find(&mut *tx, id).await
}

/// Sessions still ahead or live (scheduled or active, not ended), soonest first; optionally one
/// mentor's or one service's.
pub async fn upcoming(
    db: &PgPool,
    mentor_id: Option<Uuid>,
    service_id: Option<Uuid>,
    now: DateTime<Utc>,
) -> Result<Vec<GroupSession>> {
    Ok(sqlx::query_as(select_group_sessions!(
        "WHERE g.status = ANY($4) AND g.ends_at > $1 AND ($2::uuid IS NULL OR g.mentor_id = $2) \
         AND ($3::uuid IS NULL OR g.service_id = $3) AND m.is_active AND m.approval_status = 'approved' AND u.is_active ORDER BY g.scheduled_at, g.id LIMIT 200"
    ))
    .bind(now)
    .bind(mentor_id)
    .bind(service_id)
    .bind(GroupStatus::HOLDING_TIME)
    .fetch_all(db)
    .await?)
}

/// Every session of one mentor, the latest start first.
pub async fn of_mentor(db: &PgPool, mentor_id: Uuid) -> Result<Vec<GroupSession>> {
    Ok(sqlx::query_as(select_group_sessions!(
        "WHERE g.mentor_id = $1 ORDER BY g.scheduled_at DESC, g.id LIMIT 500"
    ))
    .bind(mentor_id)
    .fetch_all(db)
    .await?)
}

#[derive(Clone, Debug, FromRow)]
pub struct Participant {
    pub group_session_id: Uuid,
    pub booking_id: Uuid,
    pub user_id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub profile_image_url: Option<String>,
}

/// Booked participants (pending, confirmed or completed seats; not unpaid holds) of the sessions.
pub async fn participants(db: impl PgExecutor<'_>, session_ids: &[Uuid]) -> Result<Vec<Participant>> {
    Ok(sqlx::query_as(
        "SELECT b.group_session_id, b.id AS booking_id, u.id AS user_id, u.first_name, u.last_name, u.profile_image_url \
         FROM bookings b JOIN users u ON u.id = b.user_id \
         WHERE b.group_session_id = ANY($1) AND b.status = ANY($2) ORDER BY b.created_at, b.id",
    )
    .bind(session_ids)
    .bind(BookingStatus::GOING_AHEAD)
    .fetch_all(db)
    .await?)
}

/// Whether the session's time is still ahead (it can be joined).
pub fn is_upcoming(g: &GroupSession, now: DateTime<Utc>) -> bool {
    g.status() == GroupStatus::Scheduled && g.scheduled_at > now
}

/// When the worker's start and end steps are due.
pub fn start_and_end(g: &GroupSession) -> (DateTime<Utc>, DateTime<Utc>) {
    (
        g.scheduled_at,
        g.scheduled_at + Duration::minutes(g.service_duration_minutes as i64),
    )
}
