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

/// Group-session statements checked at compile time: in `[...]`, the SQL as literals joined by
/// `+`, where `SELECT_SESSIONS` stands for `SELECT <GroupSession columns> FROM group_sessions g
/// JOIN services s JOIN mentors m JOIN users u ` and `UPCOMING_WHERE` for the conditions of
/// [`upcoming`]: scheduled or active sessions not ended, of public mentors, narrowed by the
/// listing's filters ($1 to $10).
macro_rules! group_sessions_sql {
    (@go $out:tt [$($done:tt)*] [SELECT_SESSIONS $($rest:tt)*] $args:tt) => {
        group_sessions_sql!(@go $out [$($done)*
            r#"SELECT g.id, g.mentor_id, g.service_id, g.title, g.description, g.status AS "status: GroupStatus",
                g.scheduled_at, g.ends_at, g.max_participants, g.seats_taken, g.created_at,
                s.title AS service_title, s.service_type AS "service_type: crate::catalogue::vocabulary::ServiceType",
                s.price_cents AS service_price_cents,
                (extract(epoch FROM g.ends_at - g.scheduled_at) / 60)::int AS "service_duration_minutes!",
                m.user_id AS mentor_user_id, m.display_name AS mentor_display_name,
                coalesce(m.profile_image_url, u.profile_image_url) AS mentor_profile_image_url,
                m.rating::text AS "mentor_rating!", m.total_sessions AS mentor_total_sessions,
                (m.is_active AND u.is_active AND m.approval_status = 'approved') AS "mentor_is_public!"
             FROM group_sessions g JOIN services s ON s.id = g.service_id JOIN mentors m ON m.id = g.mentor_id
             JOIN users u ON u.id = m.user_id "#] [$($rest)*] $args)
    };
    (@go $out:tt [$($done:tt)*] [UPCOMING_WHERE $($rest:tt)*] $args:tt) => {
        group_sessions_sql!(@go $out [$($done)*
            "WHERE g.status = ANY($1) AND g.ends_at > $2 AND m.is_active AND m.approval_status = 'approved' \
             AND u.is_active AND ($3::uuid IS NULL OR g.mentor_id = $3) AND ($4::uuid IS NULL OR g.service_id = $4) \
             AND ($5::text IS NULL OR s.service_type = $5) AND ($6::bigint IS NULL OR s.price_cents >= $6) \
             AND ($7::bigint IS NULL OR s.price_cents <= $7) AND ($8::timestamptz IS NULL OR g.scheduled_at >= $8) \
             AND ($9::timestamptz IS NULL OR g.scheduled_at < $9) \
             AND NOT EXISTS (SELECT 1 FROM unnest($10::text[]) AS w(pattern) WHERE NOT ( \
               g.title ILIKE w.pattern OR coalesce(g.description, '') ILIKE w.pattern \
               OR m.display_name ILIKE w.pattern OR s.title ILIKE w.pattern))"] [$($rest)*] $args)
    };
    (@go $out:tt [$($done:tt)*] [$t:tt $($rest:tt)*] $args:tt) => {
        group_sessions_sql!(@go $out [$($done)* $t] [$($rest)*] $args)
    };
    (@go scalar [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query_scalar!($($done)* $($args)*) };
    (@go (as $ty:path) [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query_as!($ty, $($done)* $($args)*) };
    ($out:tt [$($sql:tt)*] $($args:tt)*) => { group_sessions_sql!(@go $out [] [$($sql)*] [$($args)*]) };
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
    let id: Uuid = sqlx::query_scalar!(
        "INSERT INTO group_sessions (mentor_id, service_id, title, description, scheduled_at, ends_at, max_participants) \
         VALUES ($1, $2, $3, $4, $5::timestamptz, $5::timestamptz + make_interval(mins => $6), $7) RETURNING id",
        mentor.id,
        service.id,
        &title,
        description,
        scheduled_at,
        service.duration_minutes,
        max,
    )
    .fetch_one(&mut *tx)
    .await
    .on_constraint("mentor_busy_no_overlap", || Error::SlotTaken(TIME_TAKEN.into()))?;
    find(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("group session vanished").into())
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<GroupSession>> {
    Ok(
        group_sessions_sql!((as GroupSession)[SELECT_SESSIONS + "WHERE g.id = $1"], id)
            .fetch_optional(db)
            .await?,
    )
}

/// The session locked for a change of state.
pub async fn locked(tx: &mut PgConnection, id: Uuid) -> Result<Option<GroupSession>> {
    sqlx::query!("SELECT id FROM group_sessions WHERE id = $1 FOR UPDATE", id,)
        .fetch_optional(&mut *tx)
        .await?;
    find(&mut *tx, id).await
}

/// What the list of sessions still ahead or live is narrowed to, checked (see [`Listing::new`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Listing {
    pub mentor_id: Option<Uuid>,
    pub service_id: Option<Uuid>,
    pub service_type: Option<crate::catalogue::vocabulary::ServiceType>,
    pub min_price_cents: Option<i64>,
    pub max_price_cents: Option<i64>,
    /// Words each listed session names somewhere (title, description, mentor, service).
    pub words: Vec<String>,
    /// Sessions starting at or after this instant.
    pub from: Option<DateTime<Utc>>,
    /// Sessions starting before this instant.
    pub to: Option<DateTime<Utc>>,
    pub page: i64,
    pub page_size: i64,
}

/// The request's filters as sent (`GET /api/group-sessions`), named as on `/api/mentors`.
#[derive(Clone, Debug, Default)]
pub struct ListingQuery {
    pub service: Option<String>,
    pub min_price: Option<String>,
    pub max_price: Option<String>,
    pub search: Option<String>,
    /// YYYY-MM-DD (a day in `time_zone`) or an ISO 8601 instant.
    pub from: Option<String>,
    /// YYYY-MM-DD (to the end of that day in `time_zone`) or an ISO 8601 instant.
    pub to: Option<String>,
    /// The IANA zone `from` and `to` days are read in; UTC by default.
    pub time_zone: Option<String>,
    pub page: Option<i64>,
    pub page_size: Option<i64>,
}

pub const BAD_FROM: &str = "from must be a date (YYYY-MM-DD)";
pub const BAD_TO: &str = "to must be a date (YYYY-MM-DD)";
/// At most this many words of a search count.
pub const MAX_SEARCH_WORDS: usize = 8;

fn filled(raw: &Option<String>) -> Option<&str> {
    raw.as_deref().map(str::trim).filter(|s| !s.is_empty())
}

/// A day's start in `tz` (`end_of_day`: the next day's start), or an instant as written.
fn instant(raw: &str, tz: &jiff::tz::TimeZone, end_of_day: bool) -> Option<DateTime<Utc>> {
    if let Ok(day) = raw.parse::<jiff::civil::Date>() {
        let day = if end_of_day { day.tomorrow().ok()? } else { day };
        let zoned = day.to_zoned(tz.clone()).ok()?;
        return DateTime::from_timestamp(zoned.timestamp().as_second(), 0);
    }
    DateTime::parse_from_rfc3339(raw).ok().map(|t| t.with_timezone(&Utc))
}

impl Listing {
    pub fn new(q: ListingQuery, mentor_id: Option<Uuid>, service_id: Option<Uuid>) -> Result<Self> {
        let (page, page_size) = crate::catalogue::search::paging(q.page, q.page_size)?;
        let service_type = match filled(&q.service).filter(|s| *s != "all") {
            Some(s) => Some(s.parse().map_err(|_| Error::validation("Unknown service type"))?),
            None => None,
        };
        let price =
            |raw: &Option<String>, message: &str| filled(raw).map(|p| crate::money::parse(p, message)).transpose();
        let min_price_cents = price(&q.min_price, "minPrice must be a valid amount")?;
        let max_price_cents = price(&q.max_price, "maxPrice must be a valid amount")?;
        let words = match filled(&q.search) {
            Some(s) => {
                crate::text::single_line(s, "Search")?;
                let s: String = s.chars().take(crate::catalogue::search::MAX_SEARCH_CHARS).collect();
                s.split_whitespace()
                    .take(MAX_SEARCH_WORDS)
                    .map(|w| format!("%{}%", w.replace('\\', "\\\\").replace('%', "\\%").replace('_', "\\_")))
                    .collect()
            }
            None => Vec::new(),
        };
        let tz = match filled(&q.time_zone) {
            Some(z) => jiff::tz::TimeZone::get(&crate::time_zones::validate(z)?)
                .map_err(|_| Error::validation(crate::time_zones::INVALID_TIME_ZONE))?,
            None => jiff::tz::TimeZone::UTC,
        };
        let from = filled(&q.from)
            .map(|f| instant(f, &tz, false).ok_or_else(|| Error::validation(BAD_FROM)))
            .transpose()?;
        let to = filled(&q.to)
            .map(|t| instant(t, &tz, true).ok_or_else(|| Error::validation(BAD_TO)))
            .transpose()?;
        Ok(Self {
            mentor_id,
            service_id,
            service_type,
            min_price_cents,
            max_price_cents,
            words,
            from,
            to,
            page,
            page_size,
        })
    }
}

/// One page of the sessions still ahead or live (scheduled or active, not ended), soonest first,
/// and how many there are on every page.
pub async fn upcoming(db: &PgPool, l: &Listing, now: DateTime<Utc>) -> Result<(Vec<GroupSession>, i64)> {
    macro_rules! upcoming {
        ($out:tt[$($sql:tt)*] $(, $arg:expr)*) => {
            group_sessions_sql!(
                $out[$($sql)*],
                GroupStatus::HOLDING_TIME as &[GroupStatus],
                now,
                l.mentor_id,
                l.service_id,
                l.service_type as Option<crate::catalogue::vocabulary::ServiceType>,
                l.min_price_cents,
                l.max_price_cents,
                l.from,
                l.to,
                &l.words
                $(, $arg)*
            )
        };
    }
    let total = upcoming!(
        scalar[r#"SELECT count(*) AS "count!" FROM group_sessions g JOIN services s ON s.id = g.service_id
           JOIN mentors m ON m.id = g.mentor_id JOIN users u ON u.id = m.user_id "#
            + UPCOMING_WHERE]
    )
    .fetch_one(db)
    .await?;
    let list = upcoming!(
        (as GroupSession)[SELECT_SESSIONS + UPCOMING_WHERE + " ORDER BY g.scheduled_at, g.id LIMIT $11 OFFSET $12"],
        l.page_size,
        crate::paging::offset(l.page, l.page_size)
    )
    .fetch_all(db)
    .await?;
    Ok((list, total))
}

/// Every session of one mentor, the latest start first.
pub async fn of_mentor(db: &PgPool, mentor_id: Uuid) -> Result<Vec<GroupSession>> {
    Ok(group_sessions_sql!(
        (as GroupSession)[SELECT_SESSIONS + "WHERE g.mentor_id = $1 ORDER BY g.scheduled_at DESC, g.id LIMIT 500"],
        mentor_id,
    )
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
    Ok(sqlx::query_as!(
        Participant,
        "SELECT b.group_session_id AS \"group_session_id!\", b.id AS booking_id, u.id AS user_id, u.first_name, u.last_name, u.profile_image_url \
         FROM bookings b JOIN users u ON u.id = b.user_id \
         WHERE b.group_session_id = ANY($1) AND b.status = ANY($2) ORDER BY b.created_at, b.id",
        session_ids,
        BookingStatus::GOING_AHEAD as &[BookingStatus],
    )
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
