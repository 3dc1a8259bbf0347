//! Reading bookings with what every screen shows about their service, seeker and mentor.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgExecutor};
use uuid::Uuid;

use crate::Result;

#[derive(Clone, Debug, FromRow)]
pub struct Booking {
    pub id: Uuid,
    pub status: super::BookingStatus,
    pub scheduled_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub duration_minutes: i32,
    pub total_cents: i64,
    pub notes: Option<String>,
    pub hold_expires_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
    pub service_id: Uuid,
    /// The service's title, or for a group seat its session's title.
    pub service_title: String,
    pub service_type: crate::catalogue::vocabulary::ServiceType,
    pub user_id: Uuid,
    pub user_first_name: String,
    pub user_last_name: String,
    pub user_email: String,
    pub mentor_id: Uuid,
    pub mentor_user_id: Uuid,
    pub mentor_display_name: String,
    pub mentor_profile_image_url: Option<String>,
    pub mentor_email: String,
    /// The zone the seeker's browser last reported (UTC until it has).
    pub user_time_zone: Option<String>,
    /// The mentor's profile zone.
    pub mentor_time_zone: String,
    /// Raised at every change of time or cancellation (the calendar event's SEQUENCE).
    pub calendar_sequence: i32,
    /// Whether the seeker has reviewed this booking.
    pub has_review: bool,
    /// The seeker's review of it, when there is one (shown back to them on their dashboard).
    pub review_rating: Option<i16>,
    pub review_comment: Option<String>,
    /// The refund of a cancellation: its percentage, amount and status (pending, succeeded,
    /// failed, not_needed); `None` when the booking was never cancelled with one.
    pub refund_percentage: Option<i16>,
    pub refund_cents: Option<i64>,
    pub refund_status: Option<crate::money::RefundStatus>,
    /// Why it was cancelled, when whoever cancelled said so.
    pub cancellation_reason: Option<String>,
    /// The group session this booking is a seat of (none for a one-to-one booking).
    pub group_session_id: Option<Uuid>,
    /// That session's state: a seat shows a session that ended as ended, wherever it is listed.
    pub group_session_status: Option<crate::statuses::GroupStatus>,
    /// Why the mentor removed the seeker from that session's call, when they did.
    pub removal_reason: Option<crate::statuses::RemovalReason>,
    /// Every refund of the booking, oldest first (a cancellation's, a complaint's, an admin's...).
    pub refunds: sqlx::types::Json<Vec<RefundEntry>>,
    /// Refunded or being refunded (pending or succeeded), in cents.
    pub refunded_cents: i64,
    /// The seeker's complaint about this booking, when there is one.
    pub complaint: Option<sqlx::types::Json<ComplaintEntry>>,
}

/// A booking's complaint as its cards show it.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct ComplaintEntry {
    pub id: Uuid,
    pub reason: crate::statuses::ComplaintReason,
    pub details: Option<String>,
    pub status: crate::statuses::ComplaintStatus,
    pub created_at: DateTime<Utc>,
    pub outcome: Option<crate::statuses::Outcome>,
    pub outcome_cents: Option<i64>,
    pub note: Option<String>,
    pub decided_at: Option<DateTime<Utc>>,
    pub automatic: bool,
    pub response_message: Option<String>,
    pub response_created_at: Option<DateTime<Utc>>,
}

/// One refund in a booking's list.
#[derive(Clone, Debug, serde::Deserialize)]
pub struct RefundEntry {
    pub amount_cents: i64,
    pub reason: crate::money::RefundReason,
    pub status: crate::money::RefundStatus,
    pub created_at: DateTime<Utc>,
}

/// `sqlx::query_as!(Booking, "SELECT <Booking columns> FROM bookings b ... " + $rest, args)`.
macro_rules! query_bookings {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            crate::booking::bookings::Booking,
            r#"SELECT b.id AS "id!", b.status AS "status!: crate::booking::BookingStatus", b.scheduled_at AS "scheduled_at!",
                b.ends_at AS "ends_at!",
                (extract(epoch FROM b.ends_at - b.scheduled_at) / 60)::int AS "duration_minutes!",
                b.total_cents AS "total_cents!", b.notes, b.hold_expires_at, b.created_at AS "created_at!",
                s.id AS "service_id!", coalesce(gs.title, s.title) AS "service_title!",
                s.service_type AS "service_type!: crate::catalogue::vocabulary::ServiceType",
                u.id AS "user_id!", u.first_name AS "user_first_name!", u.last_name AS "user_last_name!",
                u.email AS "user_email!",
                m.id AS "mentor_id!", m.user_id AS "mentor_user_id!", m.display_name AS "mentor_display_name!",
                m.profile_image_url AS mentor_profile_image_url, mu.email AS "mentor_email!",
                b.calendar_sequence AS "calendar_sequence!",
                u.time_zone AS user_time_zone, m.time_zone AS "mentor_time_zone!",
                rv.id IS NOT NULL AS "has_review!", rv.rating AS "review_rating?", rv.comment AS "review_comment?",
                rf.percentage AS "refund_percentage?", rf.amount_cents AS "refund_cents?",
                rf.status AS "refund_status?: crate::money::RefundStatus", b.cancellation_reason,
                b.group_session_id, gs.status AS "group_session_status?: crate::statuses::GroupStatus",
                rm.reason AS "removal_reason?: crate::statuses::RemovalReason",
                coalesce((SELECT json_agg(json_build_object('amount_cents', ra.amount_cents, 'reason', ra.reason,
                  'status', ra.status, 'created_at', ra.created_at) ORDER BY ra.created_at, ra.id)
                  FROM refunds ra WHERE ra.booking_id = b.id), '[]'::json)
                  AS "refunds!: _",
                coalesce((SELECT sum(rs.amount_cents) FROM refunds rs WHERE rs.booking_id = b.id
                  AND rs.status IN ('pending', 'succeeded')), 0)::bigint AS "refunded_cents!",
                (SELECT json_build_object('id', c.id, 'reason', c.reason, 'details', c.details, 'status', c.status,
                  'created_at', c.created_at, 'outcome', c.outcome, 'outcome_cents', c.outcome_cents, 'note', c.note,
                  'decided_at', c.decided_at, 'automatic', c.automatic, 'response_message', cr.message,
                  'response_created_at', cr.created_at) FROM complaints c LEFT JOIN complaint_responses cr ON cr.complaint_id = c.id
                  WHERE c.booking_id = b.id) AS "complaint: _"
             FROM bookings b JOIN services s ON s.id = b.service_id JOIN users u ON u.id = b.user_id
             JOIN mentors m ON m.id = b.mentor_id JOIN users mu ON mu.id = m.user_id "#
                // A group seat is named after its session ('Walkthrough Circle'), not its service, on the
                // card, in e-mails, invitations and notifications. The refund joined is the one a
                // cancellation owes, or a seat's whose mentor removed its holder for `other`.
                + "LEFT JOIN refunds rf ON rf.booking_id = b.id AND rf.reason IN ('cancellation', 'removed_by_mentor') \
                   LEFT JOIN reviews rv ON rv.booking_id = b.id \
                   LEFT JOIN group_sessions gs ON gs.id = b.group_session_id \
                   LEFT JOIN group_call_removals rm ON rm.group_session_id = b.group_session_id AND rm.user_id = b.user_id "
                + $rest
            $(, $arg)*
        )
    };
}
pub(crate) use query_bookings;

impl Booking {
    /// The zone a side reads times in: the mentor's profile zone, or the seeker's browser zone.
    pub fn zone_of(&self, mentor: bool) -> &str {
        if mentor {
            &self.mentor_time_zone
        } else {
            self.user_time_zone
                .as_deref()
                .unwrap_or(crate::time_zones::DEFAULT_TIME_ZONE)
        }
    }
}

pub async fn find(db: impl PgExecutor<'_>, id: Uuid) -> Result<Option<Booking>> {
    Ok(query_bookings!("WHERE b.id = $1", id).fetch_optional(db).await?)
}
