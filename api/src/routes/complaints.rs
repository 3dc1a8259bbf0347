//! When a session goes wrong: the seeker's complaint, the mentor's answer, the admins' queue and
//! decisions, admins' goodwill refunds, receipts, and mentors' replies to reviews. Each handler calls
//! one domain operation (docs/payments.md).

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::{Path, Query},
    payload::{Binary, Json},
};
use uuid::Uuid;

use super::{
    Tag,
    amount::Amount,
    readings::{ReadingComplaintView, resolution},
};
use crate::views::{
    booking::{BookingStatusView, ComplaintResolutionView, ComplaintView},
    parse_id,
};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::{
    booking::{lifecycle, reviews},
    calls::CallStatus,
    catalogue::mentors,
    choice::Choice,
    complaints::{self, ComplaintReason, ComplaintStatus, Outcome, lists},
    money,
    payments::{RefundReason, RefundStatus},
    readings::after,
    receipts::{self, Receipt, ReceiptKind},
    refunds,
};

#[derive(Object)]
pub(super) struct ComplaintRequest {
    /// mentor_no_show, technical_problem, not_as_described or other
    pub reason: Option<Choice<ComplaintReason>>,
    /// What went wrong (up to 2,000 characters); required for every reason but mentor_no_show
    pub details: Option<String>,
}

#[derive(Object)]
pub(super) struct ComplaintResponseRequest {
    /// 1 to 2,000 characters
    pub message: Option<String>,
}

#[derive(Object)]
pub(super) struct ReviewReplyRequest {
    /// 1 to 1,000 characters
    pub message: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReviewReplyCreatedView {
    pub review_id: Uuid,
    pub message: String,
    pub created_at: DateTime<Utc>,
}

#[derive(Object)]
pub(super) struct ResolveRequest {
    /// full_refund, partial_refund or no_refund
    pub outcome: Option<Choice<Outcome>>,
    /// A partial refund's amount: more than 0 and less than what is left to refund
    pub amount: Option<Amount>,
    /// Why (1 to 1,000 characters)
    pub note: Option<String>,
}

#[derive(Object)]
pub(super) struct RefundRequest {
    /// At most what was paid less what was refunded
    pub amount: Option<Amount>,
    /// Why (1 to 1,000 characters)
    pub reason: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct RefundView {
    pub id: Uuid,
    pub booking_id: Uuid,
    pub amount: String,
    pub reason: RefundReason,
    pub status: RefundStatus,
    pub created_at: DateTime<Utc>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct RefundIssuedView {
    pub message: String,
    pub refund: RefundView,
    pub amount_paid: String,
    /// Refunded or being refunded, this refund included
    pub refunded_amount: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ComplaintBookingView {
    pub id: Uuid,
    pub status: BookingStatusView,
    pub scheduled_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    /// The service's title, or a group seat's session title
    pub title: String,
    #[oai(nullable)]
    pub group_session_id: Option<Uuid>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ComplaintSeekerView {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ComplaintMentorView {
    pub id: Uuid,
    pub user_id: Uuid,
    pub display_name: String,
    pub email: String,
    /// No-shows settled against this mentor (resolved no-show complaints and group sessions they never joined)
    pub no_show_count: i64,
}

/// One call between the two parties around the session.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct EvidenceCallView {
    pub id: Uuid,
    /// The booking the call named; null for a call from the conversation
    #[oai(nullable)]
    pub booking_id: Option<Uuid>,
    pub caller_id: Uuid,
    pub callee_id: Uuid,
    /// Who placed it: seeker or mentor
    pub placed_by: String,
    pub status: CallStatus,
    pub created_at: DateTime<Utc>,
    #[oai(nullable)]
    pub answered_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub ended_at: Option<DateTime<Utc>>,
}

/// A member's stay in a group session's call.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct GroupCallJoinView {
    pub user_id: Uuid,
    pub is_mentor: bool,
    pub joined_at: DateTime<Utc>,
    #[oai(nullable)]
    pub left_at: Option<DateTime<Utc>>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ComplaintDetailView {
    #[oai(flatten)]
    pub complaint: ComplaintView,
    pub booking: ComplaintBookingView,
    pub seeker: ComplaintSeekerView,
    pub mentor: ComplaintMentorView,
    pub amount_paid: String,
    /// Refunded or being refunded so far
    pub amount_refunded: String,
    /// What can still be refunded
    pub amount_left: String,
    /// Every call between the two parties from 10 minutes before the start to 24 hours after the end
    pub calls: Vec<EvidenceCallView>,
    /// A group seat's session: who was in its call and when
    pub group_call_joins: Vec<GroupCallJoinView>,
    /// Until then the mentor may answer
    pub response_due_at: DateTime<Utc>,
}

impl From<lists::Listed> for ComplaintDetailView {
    fn from(l: lists::Listed) -> Self {
        let r = l.row;
        let (seeker, mentor_user) = (r.user_id, r.mentor_user_id);
        Self {
            complaint: r.complaint().into(),
            booking: ComplaintBookingView {
                id: r.booking_id,
                status: r.booking_status,
                scheduled_at: r.scheduled_at,
                ends_at: r.ends_at,
                title: r.service_title,
                group_session_id: r.group_session_id,
            },
            seeker: ComplaintSeekerView {
                id: r.user_id,
                first_name: r.seeker_first_name,
                last_name: r.seeker_last_name,
                email: r.seeker_email,
            },
            mentor: ComplaintMentorView {
                id: r.mentor_id,
                user_id: r.mentor_user_id,
                display_name: r.mentor_display_name,
                email: r.mentor_email,
                no_show_count: r.mentor_no_shows,
            },
            amount_paid: money::format(r.paid_cents),
            amount_refunded: money::format(r.refunded_cents),
            amount_left: money::format((r.paid_cents - r.refunded_cents).max(0)),
            calls: l
                .calls
                .into_iter()
                .map(|c| EvidenceCallView {
                    placed_by: if c.caller_id == seeker { "seeker" } else { "mentor" }.into(),
                    id: c.id,
                    booking_id: c.booking_id,
                    caller_id: c.caller_id,
                    callee_id: c.callee_id,
                    status: c.status,
                    created_at: c.created_at,
                    answered_at: c.answered_at,
                    ended_at: c.ended_at,
                })
                .collect(),
            group_call_joins: l
                .joins
                .into_iter()
                .map(|j| GroupCallJoinView {
                    is_mentor: j.user_id == mentor_user,
                    user_id: j.user_id,
                    joined_at: j.joined_at,
                    left_at: j.left_at,
                })
                .collect(),
            response_due_at: r.created_at + complaints::RESPONSE_WINDOW,
        }
    }
}

/// A reading's complaint in the admins' queue (issue 36): both parties and the wallet money.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ReadingComplaintDetailView {
    pub id: Uuid,
    pub instant_session_id: Uuid,
    pub reason: ComplaintReason,
    #[oai(nullable)]
    pub details: Option<String>,
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    #[oai(nullable)]
    pub started_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub ended_at: Option<DateTime<Utc>>,
    pub seeker: ComplaintSeekerView,
    pub mentor_id: Uuid,
    pub mentor_user_id: Uuid,
    pub mentor_display_name: String,
    pub mentor_email: String,
    /// What the reading charged the seeker's wallet
    pub amount_charged: String,
    /// What went back to the wallet so far
    pub amount_refunded: String,
    /// The mentor's answer; null until they give one
    #[oai(nullable)]
    pub response: Option<ReadingComplaintAnswerView>,
    /// The admin's decision with its note; null while open
    #[oai(nullable)]
    pub resolution: Option<ComplaintResolutionView>,
}

impl From<after::QueuedReadingComplaint> for ReadingComplaintDetailView {
    fn from(c: after::QueuedReadingComplaint) -> Self {
        Self {
            id: c.id,
            instant_session_id: c.instant_session_id,
            reason: c.reason,
            details: c.details,
            status: c.status,
            created_at: c.created_at,
            started_at: c.started_at,
            ended_at: c.ended_at,
            seeker: ComplaintSeekerView {
                id: c.user_id,
                first_name: c.seeker_first_name,
                last_name: c.seeker_last_name,
                email: c.seeker_email,
            },
            mentor_id: c.mentor_id,
            mentor_user_id: c.mentor_user_id,
            mentor_display_name: c.mentor_display_name,
            mentor_email: c.mentor_email,
            amount_charged: money::format(c.charged_cents),
            amount_refunded: money::format(c.refunded_cents),
            response: c
                .response_message
                .zip(c.response_created_at)
                .map(|(message, created_at)| ReadingComplaintAnswerView { message, created_at }),
            resolution: resolution(after::Decision::of(c.outcome, c.outcome_cents, c.note, c.decided_at)),
        }
    }
}

#[derive(Object)]
pub(super) struct ReadingComplaintPage {
    /// Oldest open first, then the decided ones, newest first
    pub items: Vec<ReadingComplaintDetailView>,
    pub total: i64,
}

#[derive(Object)]
pub(super) struct ComplaintPage {
    /// Oldest open first, then the decided ones, newest decision first
    pub items: Vec<ComplaintDetailView>,
    pub total: i64,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ReceiptView {
    /// MM-<year>-<six digits>, sequential per calendar year
    pub number: String,
    pub kind: ReceiptKind,
    pub amount: String,
    pub currency: String,
    pub issued_at: DateTime<Utc>,
    #[oai(nullable)]
    pub booking_id: Option<Uuid>,
    pub description: String,
    #[oai(nullable)]
    pub session_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub card_last4: Option<String>,
    pub payer_name: String,
    /// The PDF (GET, owner and admins only)
    pub pdf_url: String,
}

impl From<Receipt> for ReceiptView {
    fn from(r: Receipt) -> Self {
        Self {
            pdf_url: format!("/api/receipts/{}/pdf", r.number),
            number: r.number,
            kind: r.kind,
            amount: money::format(r.amount_cents),
            currency: "USD".into(),
            issued_at: r.issued_at,
            booking_id: r.booking_id,
            description: r.description,
            session_at: r.session_at,
            card_last4: r.card_last4,
            payer_name: r.payer_name,
        }
    }
}

/// The mentor's one answer to a reading's complaint.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ReadingComplaintAnswerView {
    pub message: String,
    pub created_at: DateTime<Utc>,
}

/// A complaint about one of the mentor's readings (issue 36).
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct MentorReadingComplaintView {
    pub id: Uuid,
    pub instant_session_id: Uuid,
    pub reason: ComplaintReason,
    #[oai(nullable)]
    pub details: Option<String>,
    pub status: ComplaintStatus,
    pub created_at: DateTime<Utc>,
    #[oai(nullable)]
    pub started_at: Option<DateTime<Utc>>,
    pub seeker_first_name: String,
    pub seeker_last_name: String,
    /// Until when the mentor may answer (48 hours after the complaint)
    pub response_due_at: DateTime<Utc>,
    #[oai(nullable)]
    pub response: Option<ReadingComplaintAnswerView>,
    /// The admin's decision with its note; null while open
    #[oai(nullable)]
    pub resolution: Option<ComplaintResolutionView>,
}

impl From<after::MentorsReadingComplaint> for MentorReadingComplaintView {
    fn from(c: after::MentorsReadingComplaint) -> Self {
        Self {
            id: c.id,
            instant_session_id: c.instant_session_id,
            reason: c.reason,
            details: c.details,
            status: c.status,
            created_at: c.created_at,
            started_at: c.started_at,
            seeker_first_name: c.seeker_first_name,
            seeker_last_name: c.seeker_last_name,
            response_due_at: c.created_at + complaints::RESPONSE_WINDOW,
            response: c
                .response_message
                .zip(c.response_created_at)
                .map(|(message, created_at)| ReadingComplaintAnswerView { message, created_at }),
            resolution: resolution(after::Decision::of(c.outcome, c.outcome_cents, c.note, c.decided_at)),
        }
    }
}

#[derive(ApiResponse)]
pub(super) enum ReadingComplaintAnswered {
    #[oai(status = 201)]
    Created(Json<MentorReadingComplaintView>),
}

#[derive(ApiResponse)]
pub enum ComplaintCreated {
    #[oai(status = 201)]
    Created(Json<ComplaintView>),
}

#[derive(ApiResponse)]
pub enum ReplyCreated {
    #[oai(status = 201)]
    Created(Json<ReviewReplyCreatedView>),
}

#[derive(ApiResponse)]
pub enum RefundCreated {
    #[oai(status = 201)]
    Created(Json<RefundIssuedView>),
}

#[derive(ApiResponse)]
pub enum PdfResponse {
    #[oai(status = 200, content_type = "application/pdf")]
    Ok(Binary<Vec<u8>>, #[oai(header = "Content-Disposition")] String),
}

pub struct ComplaintsApi;

#[OpenApi(prefix_path = "/api", tag = "Tag::Dashboard")]
impl ComplaintsApi {
    /// The seeker reports a problem with a session, from its start until 24 hours after its end, once
    /// per booking. A mentor no-show filed 15 minutes or more after the start is settled at once with a
    /// full refund when the call evidence shows it.
    #[oai(path = "/bookings/:id/complaint", method = "post", operation_id = "fileComplaint")]
    async fn file(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ComplaintRequest>,
    ) -> ApiResult<ComplaintCreated> {
        let id = parse_id(&id, lifecycle::NOT_FOUND)?;
        let b = body.0;
        let c = complaints::file(
            &state.pool,
            auth.0.user.id,
            id,
            b.reason.as_ref(),
            b.details.as_deref(),
            Utc::now(),
        )
        .await?;
        Ok(ComplaintCreated::Created(Json(c.into())))
    }

    /// The signed-in mentor's complaints (`status`: open, resolved, rejected or all, the default).
    #[oai(path = "/mentor/complaints", method = "get", operation_id = "listMentorComplaints")]
    async fn mentor_list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        status: Query<Option<String>>,
    ) -> ApiResult<Json<ComplaintPage>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let status = lists::parse_filter(status.0.as_deref())?;
        let items: Vec<ComplaintDetailView> = lists::list(&state.pool, status, Some(mentor.id))
            .await?
            .into_iter()
            .map(Into::into)
            .collect();
        Ok(Json(ComplaintPage {
            total: items.len() as i64,
            items,
        }))
    }

    /// The complaints about the signed-in mentor's readings (issue 36), newest first, with their answer.
    #[oai(
        path = "/mentor/reading-complaints",
        method = "get",
        operation_id = "listMentorReadingComplaints"
    )]
    async fn mentor_reading_list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
    ) -> ApiResult<Json<Vec<MentorReadingComplaintView>>> {
        mentors::own(&state.pool, auth.0.user.id).await?;
        let items = after::mentors_complaints(&state.pool, auth.0.user.id).await?;
        Ok(Json(items.into_iter().map(Into::into).collect()))
    }

    /// The mentor answers a complaint about their reading as about a session: once, within 48 hours.
    #[oai(
        path = "/mentor/reading-complaints/:id/response",
        method = "post",
        operation_id = "answerReadingComplaint"
    )]
    async fn respond_reading(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ComplaintResponseRequest>,
    ) -> ApiResult<ReadingComplaintAnswered> {
        let id = parse_id(&id, complaints::NOT_FOUND)?;
        let c = after::respond(&state.pool, auth.0.user.id, id, body.message.as_deref(), Utc::now()).await?;
        Ok(ReadingComplaintAnswered::Created(Json(c.into())))
    }

    /// The mentor answers a complaint about their session, once, within 48 hours of it.
    #[oai(
        path = "/mentor/complaints/:id/response",
        method = "post",
        operation_id = "answerComplaint"
    )]
    async fn respond(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ComplaintResponseRequest>,
    ) -> ApiResult<ComplaintCreated> {
        let id = parse_id(&id, complaints::NOT_FOUND)?;
        let c = complaints::respond(&state.pool, auth.0.user.id, id, body.message.as_deref(), Utc::now()).await?;
        Ok(ComplaintCreated::Created(Json(c.into())))
    }

    /// The mentor replies to a review of them, once; it shows under the review on their page.
    #[oai(path = "/mentor/reviews/:id/reply", method = "post", operation_id = "replyToReview")]
    async fn reply(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ReviewReplyRequest>,
    ) -> ApiResult<ReplyCreated> {
        let id = parse_id(&id, reviews::REVIEW_NOT_FOUND)?;
        let r = reviews::reply(&state.pool, auth.0.user.id, id, body.message.as_deref()).await?;
        Ok(ReplyCreated::Created(Json(ReviewReplyCreatedView {
            review_id: r.review_id,
            message: r.message,
            created_at: r.created_at,
        })))
    }

    /// The signed-in user's receipts, newest first.
    #[oai(path = "/receipts", method = "get", operation_id = "listReceipts")]
    async fn receipts(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<ReceiptView>>> {
        Ok(Json(
            receipts::for_user(&state.pool, auth.0.user.id)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// A receipt as a PDF, to its owner and admins only (404 to anyone else).
    #[oai(path = "/receipts/:number/pdf", method = "get", operation_id = "getReceiptPdf")]
    async fn receipt_pdf(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        number: Path<String>,
    ) -> ApiResult<PdfResponse> {
        let user = &auth.0.user;
        let r = receipts::visible(&state.pool, &number, user.id, user.is_admin).await?;
        let pdf = receipts::pdf::render(&r, &state.config.platform).map_err(domain::Error::Internal)?;
        let name = format!("attachment; filename=\"{}\"", receipts::pdf::file_name(&r));
        Ok(PdfResponse::Ok(Binary(pdf), name))
    }
}

pub struct AdminComplaintsApi;

#[OpenApi(prefix_path = "/api", tag = "Tag::Admin")]
impl AdminComplaintsApi {
    /// The complaint queue (`status`: open, resolved, rejected or all, the default): oldest open first,
    /// each with its booking, both parties, the money, the call evidence and the mentor's answer.
    #[oai(path = "/admin/complaints", method = "get", operation_id = "listComplaints")]
    async fn list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        status: Query<Option<String>>,
    ) -> ApiResult<Json<ComplaintPage>> {
        auth.admin()?;
        let status = lists::parse_filter(status.0.as_deref())?;
        let items: Vec<ComplaintDetailView> = lists::list(&state.pool, status, None)
            .await?
            .into_iter()
            .map(Into::into)
            .collect();
        Ok(Json(ComplaintPage {
            total: items.len() as i64,
            items,
        }))
    }

    /// Decides an open complaint: full_refund, partial_refund (0 < amount < what is left) or no_refund,
    /// with a note. Audited; both parties are told.
    #[oai(
        path = "/admin/complaints/:id/resolve",
        method = "post",
        operation_id = "resolveComplaint"
    )]
    async fn resolve(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ResolveRequest>,
    ) -> ApiResult<Json<ComplaintView>> {
        let admin = auth.admin()?;
        let id = parse_id(&id, complaints::NOT_FOUND)?;
        let b = body.0;
        let amount = Amount::text(&b.amount);
        let c = complaints::decide(
            &state.pool,
            admin.user.id,
            id,
            b.outcome.as_ref(),
            amount.as_deref(),
            b.note.as_deref(),
            Utc::now(),
        )
        .await?;
        Ok(Json(c.into()))
    }

    /// Readings' complaints (issue 36; `status`: open, resolved, rejected or all, the default): oldest
    /// open first, each with both parties and what the reading charged and gave back to the wallet.
    #[oai(
        path = "/admin/reading-complaints",
        method = "get",
        operation_id = "listReadingComplaints"
    )]
    async fn list_readings(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        status: Query<Option<String>>,
    ) -> ApiResult<Json<ReadingComplaintPage>> {
        auth.admin()?;
        let status = lists::parse_filter(status.0.as_deref())?;
        let items: Vec<ReadingComplaintDetailView> = after::queue(&state.pool, status)
            .await?
            .into_iter()
            .map(Into::into)
            .collect();
        Ok(Json(ReadingComplaintPage {
            total: items.len() as i64,
            items,
        }))
    }

    /// Decides a reading's open complaint as a booking's: full_refund, partial_refund
    /// (0 < amount < what is left) or no_refund, with a note. The refund goes back to the seeker's
    /// wallet; the reading's payout is what is left. Audited; both parties are told.
    #[oai(
        path = "/admin/reading-complaints/:id/resolve",
        method = "post",
        operation_id = "resolveReadingComplaint"
    )]
    async fn resolve_reading(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ResolveRequest>,
    ) -> ApiResult<Json<ReadingComplaintView>> {
        let admin = auth.admin()?;
        let id = parse_id(&id, complaints::NOT_FOUND)?;
        let b = body.0;
        let amount = Amount::text(&b.amount);
        let c = after::decide(
            &state.pool,
            admin.user.id,
            id,
            b.outcome.as_ref(),
            amount.as_deref(),
            b.note.as_deref(),
        )
        .await?;
        Ok(Json(c.into()))
    }

    /// Refunds any paid booking by goodwill, at any time: never more than paid less refunded (409).
    #[oai(path = "/admin/bookings/:id/refund", method = "post", operation_id = "refundBooking")]
    async fn refund(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<RefundRequest>,
    ) -> ApiResult<RefundCreated> {
        let admin = auth.admin()?;
        let id = parse_id(&id, refunds::NOT_FOUND)?;
        let b = body.0;
        let amount = Amount::text(&b.amount);
        let now = Utc::now();
        let done = refunds::goodwill(
            &state.pool,
            admin.user.id,
            id,
            amount.as_deref(),
            b.reason.as_deref(),
            now,
        )
        .await?;
        Ok(RefundCreated::Created(Json(RefundIssuedView {
            message: "Refund issued".into(),
            refund: RefundView {
                id: done.refund.refund_id,
                booking_id: done.booking_id,
                amount: money::format(done.refund.amount_cents),
                reason: RefundReason::Goodwill,
                status: RefundStatus::Pending,
                created_at: now,
            },
            amount_paid: money::format(done.paid_cents),
            refunded_amount: money::format(done.refunded_cents),
        })))
    }
}
