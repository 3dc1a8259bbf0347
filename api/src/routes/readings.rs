//! Instant readings (issue 36, §3): a seeker asks an available mentor for a reading now, the mentor
//! accepts or declines, either ends it; minutes are charged from the wallet by the worker
//! (`domain::readings`). Each handler is one domain operation in one transaction.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};
use uuid::Uuid;

use super::{
    Tag,
    dashboard::{ReviewCreated, ReviewRequest},
};
use crate::views::{
    booking::{ComplaintResolutionView, ComplaintResponseView},
    parse_id,
};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::{
    catalogue::instant::InstantMode,
    money,
    readings::{self, EndReason, Reading, ReadingStatus, after},
    statuses::{ComplaintReason, ComplaintStatus},
};

pub struct ReadingsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct InstantSessionRequest {
    pub mentor_id: Option<String>,
    /// chat or video
    pub mode: Option<String>,
}

/// A reading as its parties see it.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct InstantSessionView {
    pub id: Uuid,
    pub status: ReadingStatus,
    pub mode: InstantMode,
    pub mentor_id: Uuid,
    pub seeker_id: Uuid,
    /// What a minute costs, e.g. "1.99"
    pub per_minute_rate: String,
    /// How many of the first minutes are free (3 for the pair's first reading, once; else 0)
    pub free_minutes: i32,
    /// A request not answered by then expires
    pub expires_at: DateTime<Utc>,
    #[oai(nullable)]
    pub started_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub ended_at: Option<DateTime<Utc>>,
    /// seeker, mentor or balance
    #[oai(nullable)]
    pub end_reason: Option<EndReason>,
    /// Every started minute (once ended)
    pub minutes_billed: i32,
    /// max(0, minutesBilled - freeMinutes) × perMinuteRate, charged from the wallet minute by minute
    pub amount_charged: String,
    /// The pair's conversation, for a chat reading once accepted
    #[oai(nullable)]
    pub conversation_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    /// The seeker's complaint about this reading, as on a booking; null when there is none (and in
    /// the answers of the request, accept, decline and end)
    #[oai(nullable)]
    pub complaint: Option<ReadingComplaintView>,
}

impl From<Reading> for InstantSessionView {
    fn from(r: Reading) -> Self {
        Self {
            id: r.id,
            status: r.status,
            mode: r.mode,
            mentor_id: r.mentor_id,
            seeker_id: r.seeker_id,
            per_minute_rate: money::format(r.per_minute_rate_cents),
            free_minutes: r.free_minutes,
            expires_at: r.expires_at,
            started_at: r.started_at,
            ended_at: r.ended_at,
            end_reason: r.end_reason,
            minutes_billed: r.minutes_billed,
            amount_charged: money::format(r.amount_charged_cents),
            conversation_id: r.conversation_id,
            created_at: r.created_at,
            complaint: None,
        }
    }
}

#[derive(Object)]
pub(super) struct ReadingComplaintRequest {
    /// mentor_no_show, technical_problem, not_as_described or other
    pub reason: Option<String>,
    /// Required but for mentor_no_show; at most 2,000 characters
    pub details: Option<String>,
}

/// A problem the seeker reported with a reading.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReadingComplaintView {
    pub id: Uuid,
    pub instant_session_id: Uuid,
    pub reason: ComplaintReason,
    #[oai(nullable)]
    pub details: Option<String>,
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    /// The admin's decision (outcome, what went back to the wallet, note); null while open
    #[oai(nullable)]
    pub resolution: Option<ComplaintResolutionView>,
    /// The mentor's answer; null until they give one
    #[oai(nullable)]
    pub response: Option<ComplaintResponseView>,
}

/// A reading complaint's decision as a booking complaint's resolution (never automatic).
pub(super) fn resolution(d: Option<after::Decision>) -> Option<ComplaintResolutionView> {
    d.map(|d| ComplaintResolutionView {
        outcome: d.outcome,
        amount: money::format(d.cents),
        note: d.note,
        decided_at: d.decided_at,
        automatic: false,
    })
}

impl From<after::ReadingComplaint> for ReadingComplaintView {
    fn from(c: after::ReadingComplaint) -> Self {
        Self {
            id: c.id,
            instant_session_id: c.instant_session_id,
            reason: c.reason,
            details: c.details,
            status: c.status,
            created_at: c.created_at,
            resolution: resolution(c.decision),
            response: c.answer.map(|a| ComplaintResponseView {
                message: a.message,
                created_at: a.created_at,
            }),
        }
    }
}

#[derive(ApiResponse)]
pub enum ReadingComplaintCreated {
    #[oai(status = 201)]
    Created(Json<ReadingComplaintView>),
}

#[derive(ApiResponse)]
pub enum InstantSessionCreated {
    #[oai(status = 201)]
    Created(Json<InstantSessionView>),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Wallet")]
impl ReadingsApi {
    /// A seeker asks an available mentor for a reading now. 402 `insufficient_balance` (with
    /// `details.missing`) when the balance covers less than three paid minutes; 409 when the mentor
    /// is not available or the seeker has a reading requested or active.
    #[oai(path = "/instant-sessions", method = "post", operation_id = "requestInstantSession")]
    async fn request(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<InstantSessionRequest>,
    ) -> ApiResult<InstantSessionCreated> {
        let mentor_id = parse_id(body.0.mentor_id.as_deref().unwrap_or(""), readings::MENTOR_NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        let r = readings::request(&mut tx, auth.0.user.id, mentor_id, body.0.mode.as_deref(), Utc::now()).await?;
        tx.commit().await?;
        Ok(InstantSessionCreated::Created(Json(r.into())))
    }

    /// A reading of the signed-in user (either party); after the end it carries the figures.
    #[oai(path = "/instant-sessions/:id", method = "get", operation_id = "getInstantSession")]
    async fn get(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<InstantSessionView>> {
        let id = parse_id(&id, readings::NOT_FOUND)?;
        let reading = readings::visible(&state.pool, auth.0.user.id, id).await?;
        let complaint = after::complaint_of(&state.pool, id).await?;
        Ok(Json(InstantSessionView {
            complaint: complaint.map(Into::into),
            ..reading.into()
        }))
    }

    /// The mentor accepts: the reading is active and metered; the mentor is busy. A second accept 409.
    #[oai(
        path = "/instant-sessions/:id/accept",
        method = "post",
        operation_id = "acceptInstantSession"
    )]
    async fn accept(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<InstantSessionView>> {
        let id = parse_id(&id, readings::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        let r = readings::accept(&mut tx, auth.0.user.id, id, Utc::now()).await?;
        tx.commit().await?;
        Ok(Json(r.into()))
    }

    /// The mentor declines: nothing is charged.
    #[oai(
        path = "/instant-sessions/:id/decline",
        method = "post",
        operation_id = "declineInstantSession"
    )]
    async fn decline(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<InstantSessionView>> {
        let id = parse_id(&id, readings::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        let r = readings::decline(&mut tx, auth.0.user.id, id).await?;
        tx.commit().await?;
        Ok(Json(r.into()))
    }

    /// The seeker reviews an ended reading like a session, once.
    #[oai(
        path = "/instant-sessions/:id/review",
        method = "post",
        operation_id = "reviewInstantSession"
    )]
    async fn review(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ReviewRequest>,
    ) -> ApiResult<ReviewCreated> {
        let id = parse_id(&id, readings::NOT_FOUND)?;
        let review = after::review(
            &state.pool,
            auth.0.user.id,
            id,
            body.rating.unwrap_or(0),
            body.comment.as_deref(),
        )
        .await?;
        Ok(ReviewCreated::Created(Json(review.into())))
    }

    /// The seeker reports a problem with a reading, under the rules of complaints about bookings:
    /// from its start until 24 hours after its end, once.
    #[oai(
        path = "/instant-sessions/:id/complaint",
        method = "post",
        operation_id = "complainAboutInstantSession"
    )]
    async fn complaint(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ReadingComplaintRequest>,
    ) -> ApiResult<ReadingComplaintCreated> {
        let id = parse_id(&id, readings::NOT_FOUND)?;
        let c = after::complain(
            &state.pool,
            auth.0.user.id,
            id,
            body.0.reason.as_deref(),
            body.0.details.as_deref(),
            Utc::now(),
        )
        .await?;
        Ok(ReadingComplaintCreated::Created(Json(c.into())))
    }

    /// Either party ends the reading: every started minute up to now is billed once.
    #[oai(
        path = "/instant-sessions/:id/end",
        method = "post",
        operation_id = "endInstantSession"
    )]
    async fn end(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<InstantSessionView>> {
        let id = parse_id(&id, readings::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        let r = readings::end(&mut tx, auth.0.user.id, id, Utc::now()).await?;
        tx.commit().await?;
        Ok(Json(r.into()))
    }
}
