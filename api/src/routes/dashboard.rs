use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};

use super::Tag;
use crate::views::{
    booking::BookingView,
    catalogue::ReviewView,
    {UserView, parse_id},
};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::booking::jobs as booking_jobs;
use domain::{
    accounts::email_preferences::{self, EmailPreferences},
    booking::{BookingStatus, dashboards, lifecycle, reviews, video},
    money,
};

pub struct DashboardApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ClientStatsView {
    pub total_sessions: i64,
    pub upcoming_sessions: i64,
    pub total_spent: String,
}

#[derive(Object)]
pub(super) struct ClientDashboard {
    pub user: UserView,
    /// Newest start first
    pub bookings: Vec<BookingView>,
    pub stats: ClientStatsView,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct RefundPolicyView {
    /// 100, 50 or 0
    pub refund_percentage: i32,
    pub refund_amount: String,
}

impl From<lifecycle::RefundPolicy> for RefundPolicyView {
    fn from(p: lifecycle::RefundPolicy) -> Self {
        Self {
            refund_percentage: p.percentage.into(),
            refund_amount: money::format(p.amount_cents),
        }
    }
}

/// When a booking's one-to-one video call may be started (from 15 minutes before the start until
/// the end, and only while the booking is confirmed).
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct VideoWindowView {
    pub booking_id: uuid::Uuid,
    pub status: BookingStatus,
    pub opens_at: DateTime<Utc>,
    pub closes_at: DateTime<Utc>,
    /// Whether a call can be started now
    pub is_open: bool,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct RescheduleRequest {
    pub scheduled_at: Option<DateTime<Utc>>,
    pub reason: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct CancelRequest {
    pub reason: Option<String>,
    #[oai(default)]
    pub acknowledge_policy: bool,
}

#[derive(Object)]
pub(super) struct Rescheduled {
    pub message: String,
    pub booking: BookingView,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct CancelledView {
    pub message: String,
    pub booking: BookingView,
    pub refund_policy: RefundPolicyView,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct EmailPreferencesView {
    pub booking_confirmations: bool,
    pub booking_reminders: bool,
    pub marketing_emails: bool,
    pub review_requests: bool,
}

impl From<EmailPreferences> for EmailPreferencesView {
    fn from(p: EmailPreferences) -> Self {
        Self {
            booking_confirmations: p.booking_confirmations,
            booking_reminders: p.booking_reminders,
            marketing_emails: p.marketing_emails,
            review_requests: p.review_requests,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct EmailPreferencesChange {
    pub booking_confirmations: Option<bool>,
    pub booking_reminders: Option<bool>,
    pub marketing_emails: Option<bool>,
    pub review_requests: Option<bool>,
}

#[derive(Object)]
pub(super) struct ReviewRequest {
    pub rating: Option<i64>,
    pub comment: Option<String>,
}

#[derive(ApiResponse)]
pub enum ReviewCreated {
    #[oai(status = 201)]
    Created(Json<ReviewView>),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Dashboard")]
impl DashboardApi {
    /// The seeker's bookings and figures.
    #[oai(path = "/user/dashboard", method = "get", operation_id = "getUserDashboard")]
    async fn dashboard(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<ClientDashboard>> {
        let me = &auth.0.user;
        let bookings = dashboards::client_bookings(&state.pool, me.id).await?;
        let stats = dashboards::client_stats(&state.pool, me.id, Utc::now()).await?;
        Ok(Json(ClientDashboard {
            user: me.clone().into(),
            bookings: bookings.into_iter().map(Into::into).collect(),
            stats: ClientStatsView {
                total_sessions: stats.total_sessions,
                upcoming_sessions: stats.upcoming_sessions,
                total_spent: money::format(stats.total_spent_cents),
            },
        }))
    }

    /// What cancelling now would refund.
    #[oai(
        path = "/user/bookings/:id/refund-preview",
        method = "get",
        operation_id = "getRefundPreview"
    )]
    async fn refund_preview(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<RefundPolicyView>> {
        let id = parse_id(&id, lifecycle::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        let policy = lifecycle::refund_preview(&mut tx, auth.0.user.id, id, Utc::now()).await?;
        tx.commit().await?;
        Ok(Json(policy.into()))
    }

    /// Moves a booking to another offered slot, up to 2 hours before its start.
    #[oai(
        path = "/user/bookings/:id/reschedule",
        method = "put",
        operation_id = "rescheduleBooking"
    )]
    async fn reschedule(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<RescheduleRequest>,
    ) -> ApiResult<Json<Rescheduled>> {
        let id = parse_id(&id, lifecycle::NOT_FOUND)?;
        domain::text::multi_line(body.reason.as_deref().unwrap_or_default(), "Reason")?;
        let mut tx = state.pool.begin().await?;
        let booking = lifecycle::reschedule(
            &mut tx,
            auth.0.user.id,
            id,
            body.scheduled_at,
            body.reason.as_deref(),
            Utc::now(),
        )
        .await?;
        booking_jobs::rescheduled(&mut tx, &booking).await?;
        tx.commit().await?;
        Ok(Json(Rescheduled {
            message: "Booking rescheduled successfully".into(),
            booking: booking.into(),
        }))
    }

    /// Cancels a booking with the refund the policy gives.
    #[oai(path = "/user/bookings/:id/cancel", method = "put", operation_id = "cancelBooking")]
    async fn cancel(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<CancelRequest>,
    ) -> ApiResult<Json<CancelledView>> {
        let id = parse_id(&id, lifecycle::NOT_FOUND)?;
        domain::text::multi_line(body.reason.as_deref().unwrap_or_default(), "Reason")?;
        let mut tx = state.pool.begin().await?;
        let done = lifecycle::cancel_by_seeker(
            &mut tx,
            auth.0.user.id,
            id,
            body.acknowledge_policy,
            body.reason.as_deref(),
            Utc::now(),
        )
        .await?;
        booking_jobs::cancelled(&mut tx, &done.booking, done.refund, done.policy.amount_cents, false).await?;
        tx.commit().await?;
        Ok(Json(CancelledView {
            message: "Booking cancelled".into(),
            booking: done.booking.into(),
            refund_policy: done.policy.into(),
        }))
    }

    #[oai(
        path = "/user/email-preferences",
        method = "get",
        operation_id = "getEmailPreferences"
    )]
    async fn preferences(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<EmailPreferencesView>> {
        Ok(Json(email_preferences::get(&state.pool, auth.0.user.id).await?.into()))
    }

    /// Changes the preferences sent; the answer has all four.
    #[oai(
        path = "/user/email-preferences",
        method = "put",
        operation_id = "updateEmailPreferences"
    )]
    async fn update_preferences(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<EmailPreferencesChange>,
    ) -> ApiResult<Json<EmailPreferencesView>> {
        let b = body.0;
        let changes = email_preferences::Changes {
            booking_confirmations: b.booking_confirmations,
            booking_reminders: b.booking_reminders,
            marketing_emails: b.marketing_emails,
            review_requests: b.review_requests,
        };
        Ok(Json(
            email_preferences::update(&state.pool, auth.0.user.id, changes)
                .await?
                .into(),
        ))
    }

    /// When the booking's video call opens and closes (its seeker or mentor only; 404 otherwise),
    /// so the call button can say when it opens instead of failing.
    #[oai(path = "/bookings/:id/video-window", method = "get", operation_id = "getVideoWindow")]
    async fn video_window(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<VideoWindowView>> {
        let id = parse_id(&id, lifecycle::NOT_FOUND)?;
        let w = video::window(&state.pool, auth.0.user.id, id).await?;
        let now = Utc::now();
        Ok(Json(VideoWindowView {
            booking_id: w.booking_id,
            is_open: w.is_open(now),
            status: w.status,
            opens_at: w.opens_at,
            closes_at: w.closes_at,
        }))
    }

    /// Reviews a completed session, once.
    #[oai(path = "/bookings/:id/review", method = "post", operation_id = "reviewBooking")]
    async fn review(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ReviewRequest>,
    ) -> ApiResult<ReviewCreated> {
        let id = parse_id(&id, lifecycle::NOT_FOUND)?;
        let review = reviews::create(
            &state.pool,
            auth.0.user.id,
            id,
            body.rating.unwrap_or(0),
            body.comment.as_deref(),
        )
        .await?;
        Ok(ReviewCreated::Created(Json(review.into())))
    }
}
