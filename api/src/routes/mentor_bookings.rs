use chrono::Utc;
use poem::web::Data;
use poem_openapi::{Object, OpenApi, param::Path, payload::Json};

use super::Tag;
use crate::views::{booking::BookingView, parse_id};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::booking::jobs as booking_jobs;
use domain::{
    booking::{BookingStatus, dashboards, lifecycle},
    catalogue::mentors,
    choice::Choice,
    money,
    payments::fees,
};

pub struct MentorBookingsApi;

#[derive(Object)]
pub(super) struct StatusRequest {
    /// confirmed, completed or cancelled
    pub status: Option<Choice<BookingStatus>>,
}

/// The mentor's cancellation: an optional reason the seeker reads.
#[derive(Object)]
pub(super) struct MentorCancelRequest {
    /// At most 500 characters
    pub reason: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct MentorStatsView {
    pub total_sessions: i64,
    /// Bookings scheduled in the current calendar month, in the mentor's own time zone
    pub this_month: i64,
    /// Sum of completed bookings' totals
    pub total_earnings: String,
    /// The share of each completed booking's total the platform keeps, in percent
    pub platform_fee_percent: i64,
    /// The platform's fee on the completed bookings (taken per booking, half a cent rounded up)
    pub platform_fee: String,
    /// Total earnings less the platform's fee
    pub net_earnings: String,
    pub rating: String,
    pub review_count: i32,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Dashboard")]
impl MentorBookingsApi {
    /// The signed-in mentor's bookings, newest start first.
    #[oai(path = "/mentor/bookings", method = "get", operation_id = "listMentorBookings")]
    async fn list(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<BookingView>>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        Ok(Json(
            dashboards::mentor_bookings(&state.pool, mentor.id)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// pending -> confirmed or cancelled (full refund), confirmed -> completed.
    #[oai(path = "/mentor/bookings/:id", method = "put", operation_id = "updateMentorBooking")]
    async fn update(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<StatusRequest>,
    ) -> ApiResult<Json<BookingView>> {
        let id = parse_id(&id, lifecycle::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        let booking = match lifecycle::move_by_mentor(&mut tx, auth.0.user.id, id, body.status.as_ref(), Utc::now())
            .await?
        {
            lifecycle::MentorMove::Confirmed(b) => {
                booking_jobs::confirmed(&mut tx, &b).await?;
                b
            }
            lifecycle::MentorMove::Completed(b) => b,
            lifecycle::MentorMove::Cancelled(done) => {
                booking_jobs::cancelled(&mut tx, &done.booking, done.refund, done.policy.amount_cents, true).await?;
                done.booking
            }
        };
        tx.commit().await?;
        Ok(Json(booking.into()))
    }

    /// The mentor cancels a pending or confirmed booking that has not started: the seeker is
    /// refunded in full (by the refund job), notified and e-mailed the calendar cancellation.
    #[oai(
        path = "/mentor/bookings/:id/cancel",
        method = "post",
        operation_id = "cancelMentorBooking"
    )]
    async fn cancel(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<MentorCancelRequest>,
    ) -> ApiResult<Json<BookingView>> {
        let id = parse_id(&id, lifecycle::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        let done = lifecycle::cancel_by_mentor(&mut tx, auth.0.user.id, id, body.reason.as_deref(), Utc::now()).await?;
        booking_jobs::cancelled(&mut tx, &done.booking, done.refund, done.policy.amount_cents, true).await?;
        tx.commit().await?;
        Ok(Json(done.booking.into()))
    }

    /// The figures of the mentor dashboard, with the platform's fee and the mentor's net earnings.
    #[oai(path = "/mentor/stats", method = "get", operation_id = "getMentorStats")]
    async fn stats(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<MentorStatsView>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let s = dashboards::mentor_stats(&state.pool, mentor.id, Utc::now()).await?;
        let earnings = fees::mentor_earnings(&state.pool, mentor.id).await?;
        Ok(Json(MentorStatsView {
            total_sessions: s.total_sessions,
            this_month: s.this_month,
            // From the same rows as the fee, so that fee + net is always the total shown.
            total_earnings: money::format(earnings.gross_cents),
            platform_fee_percent: fees::PLATFORM_FEE_PERCENT,
            platform_fee: money::format(earnings.fee_cents),
            net_earnings: money::format(earnings.net_cents),
            rating: mentor.rating,
            review_count: mentor.review_count,
        }))
    }
}
