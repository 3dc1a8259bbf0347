//! Complaints as the admins' queue and the mentor's list show them: each with its booking, both parties,
//! the money paid and refunded so far, the call evidence and the mentor's answer; and the complaint of
//! each booking a dashboard shows.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use super::{Complaint, ComplaintReason, ComplaintStatus, Outcome, evidence};
use crate::{
    Error, Result,
    booking::{BookingStatus, completion},
    group_calls::joins::{self, Join},
    money::{PaymentStatus, RefundStatus},
};

pub const INVALID_STATUS: &str = "Status must be open, resolved, rejected or all";

/// `?status=`: one state, or every complaint (`all`, or none given).
pub fn parse_filter(raw: Option<&str>) -> Result<Option<ComplaintStatus>> {
    match raw.map(str::trim).filter(|s| !s.is_empty()) {
        None | Some("all") => Ok(None),
        Some(s) => s.parse().map(Some).map_err(|_| Error::validation(INVALID_STATUS)),
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct Row {
    pub id: Uuid,
    pub booking_id: Uuid,
    pub user_id: Uuid,
    pub mentor_id: Uuid,
    pub reason: ComplaintReason,
    pub details: Option<String>,
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    pub outcome: Option<Outcome>,
    pub outcome_cents: Option<i64>,
    pub note: Option<String>,
    pub decided_at: Option<DateTime<Utc>>,
    pub automatic: bool,
    pub response_message: Option<String>,
    pub response_created_at: Option<DateTime<Utc>>,
    pub booking_status: BookingStatus,
    pub scheduled_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub service_title: String,
    pub group_session_id: Option<Uuid>,
    pub seeker_first_name: String,
    pub seeker_last_name: String,
    pub seeker_email: String,
    pub mentor_user_id: Uuid,
    pub mentor_display_name: String,
    pub mentor_email: String,
    pub paid_cents: i64,
    pub refunded_cents: i64,
    pub mentor_no_shows: i64,
}

impl Row {
    pub fn complaint(&self) -> Complaint {
        Complaint {
            id: self.id,
            booking_id: self.booking_id,
            user_id: self.user_id,
            mentor_id: self.mentor_id,
            reason: self.reason,
            details: self.details.clone(),
            status: self.status,
            created_at: self.created_at,
            outcome: self.outcome,
            outcome_cents: self.outcome_cents,
            note: self.note.clone(),
            decided_at: self.decided_at,
            automatic: self.automatic,
            response_message: self.response_message.clone(),
            response_created_at: self.response_created_at,
        }
    }
}

/// One complaint of the queue with its evidence.
#[derive(Clone, Debug)]
pub struct Listed {
    pub row: Row,
    /// Every call between the two parties from 10 minutes before the start to the end of the window.
    pub calls: Vec<evidence::EvidenceCall>,
    /// A group seat's session: who was in its call and when.
    pub joins: Vec<Join>,
}

/// Complaints in `status` (all when none), oldest open first, then the decided ones newest first;
/// only `mentor_id`'s when given.
pub async fn list(pool: &PgPool, status: Option<ComplaintStatus>, mentor_id: Option<Uuid>) -> Result<Vec<Listed>> {
    let rows: Vec<Row> = sqlx::query_as!(
        Row,
        r#"SELECT c.id, c.booking_id, c.user_id, c.mentor_id, c.reason AS "reason: ComplaintReason", c.details,
                  c.status AS "status: ComplaintStatus", c.created_at, c.outcome AS "outcome: Outcome", c.outcome_cents,
                  c.note, c.decided_at, c.automatic, cr.message AS "response_message?", cr.created_at AS "response_created_at?",
                  b.status AS "booking_status: BookingStatus", b.scheduled_at, b.ends_at,
                  coalesce(gs.title, s.title) AS "service_title!", b.group_session_id,
                  u.first_name AS seeker_first_name, u.last_name AS seeker_last_name, u.email AS seeker_email,
                  m.user_id AS mentor_user_id, m.display_name AS mentor_display_name, mu.email AS mentor_email,
                  coalesce((SELECT sum(p.amount_cents) FROM payments p WHERE p.booking_id = b.id AND p.status = $3), 0)::bigint AS "paid_cents!",
                  coalesce((SELECT sum(r.amount_cents) FROM refunds r WHERE r.booking_id = b.id AND r.status = ANY($4)), 0)::bigint AS "refunded_cents!",
                  ((SELECT count(*) FROM complaints nc WHERE nc.mentor_id = c.mentor_id AND nc.reason = $5 AND nc.status = $6)
                   + (SELECT count(*) FROM group_sessions ng WHERE ng.mentor_id = c.mentor_id AND ng.mentor_no_show_at IS NOT NULL))::bigint AS "mentor_no_shows!"
           FROM complaints c
           LEFT JOIN complaint_responses cr ON cr.complaint_id = c.id
           JOIN bookings b ON b.id = c.booking_id JOIN services s ON s.id = b.service_id
           LEFT JOIN group_sessions gs ON gs.id = b.group_session_id
           JOIN users u ON u.id = c.user_id JOIN mentors m ON m.id = c.mentor_id JOIN users mu ON mu.id = m.user_id
           WHERE ($1::text IS NULL OR c.status = $1) AND ($2::uuid IS NULL OR c.mentor_id = $2)
           ORDER BY c.status = 'open' DESC,
                    CASE WHEN c.status = 'open' THEN c.created_at END ASC,
                    c.decided_at DESC NULLS LAST, c.id"#,
        status.map(ComplaintStatus::as_str),
        mentor_id,
        PaymentStatus::Approved as PaymentStatus,
        &[RefundStatus::Pending, RefundStatus::Succeeded] as &[RefundStatus],
        ComplaintReason::MentorNoShow as ComplaintReason,
        ComplaintStatus::Resolved as ComplaintStatus,
    )
    .fetch_all(pool)
    .await?;
    let mut conn = pool.acquire().await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        let from = row.scheduled_at - evidence::BEFORE_START;
        let to = row.ends_at + completion::COMPLAINT_WINDOW;
        let calls = evidence::calls_between(&mut conn, row.user_id, row.mentor_user_id, from, to).await?;
        let joins = match row.group_session_id {
            Some(g) => joins::of_session(&mut *conn, g).await?,
            None => Vec::new(),
        };
        out.push(Listed { row, calls, joins });
    }
    Ok(out)
}

/// The complaint of each of `booking_ids` that has one.
pub async fn of_bookings(pool: &PgPool, booking_ids: &[Uuid]) -> Result<HashMap<Uuid, Complaint>> {
    let rows = sqlx::query_as!(
        Complaint,
        r#"SELECT c.id AS "id!", c.booking_id AS "booking_id!", c.user_id AS "user_id!", c.mentor_id AS "mentor_id!",
                  c.reason AS "reason!: ComplaintReason", c.details, c.status AS "status!: ComplaintStatus",
                  c.created_at AS "created_at!", c.outcome AS "outcome: Outcome", c.outcome_cents,
                  c.note, c.decided_at, c.automatic AS "automatic!", cr.message AS "response_message?", cr.created_at AS "response_created_at?"
           FROM complaints c LEFT JOIN complaint_responses cr ON cr.complaint_id = c.id WHERE c.booking_id = ANY($1)"#,
        booking_ids
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|c| (c.booking_id, c)).collect())
}

/// Each mentor's count of no-shows settled against them: resolved no-show complaints and group sessions
/// they never joined.
pub async fn no_show_counts(pool: &PgPool, mentor_ids: &[Uuid]) -> Result<HashMap<Uuid, i64>> {
    let rows = sqlx::query!(
        r#"SELECT m AS "mentor_id!",
                  ((SELECT count(*) FROM complaints c WHERE c.mentor_id = m AND c.reason = $2 AND c.status = $3)
                   + (SELECT count(*) FROM group_sessions g WHERE g.mentor_id = m AND g.mentor_no_show_at IS NOT NULL))::bigint AS "count!"
           FROM unnest($1::uuid[]) AS m"#,
        mentor_ids,
        ComplaintReason::MentorNoShow as ComplaintReason,
        ComplaintStatus::Resolved as ComplaintStatus,
    )
    .fetch_all(pool)
    .await?;
    Ok(rows.into_iter().map(|r| (r.mentor_id, r.count)).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_filters() {
        assert_eq!(parse_filter(None).unwrap(), None);
        assert_eq!(parse_filter(Some("all")).unwrap(), None);
        assert_eq!(parse_filter(Some("open")).unwrap(), Some(ComplaintStatus::Open));
        assert_eq!(parse_filter(Some("rejected")).unwrap(), Some(ComplaintStatus::Rejected));
        assert_eq!(parse_filter(Some("closed")).unwrap_err().to_string(), INVALID_STATUS);
    }
}
