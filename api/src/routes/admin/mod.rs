//! The admin console's calls: platform figures, users (and their active flag), mentors and
//! bookings. Every call answers 401 signed out (the security scheme) and 403 to a signed-in
//! user who is not an administrator (`auth.admin()?`, the role read from the database).

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};
use uuid::Uuid;

use super::Tag;
use crate::views::{UserView, booking::BookingStatusView, parse_id};
use crate::{
    auth::SessionAuth,
    error::{ApiError, ApiResult},
    state::AppState,
};
use domain::{
    accounts::Role,
    admin::{bookings, mentors, stats, users},
    booking::BookingStatus,
    catalogue::{
        mentors as catalogue_mentors,
        vetting::{self, ApprovalStatus},
    },
    choice::Choice,
    money,
    payments::PaymentStatus,
};

pub(super) mod announcements;
pub(super) mod contact_messages;
pub(super) mod jobs;

pub struct AdminApi;

/// The four figures of the admin dashboard.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AdminStatsView {
    pub total_users: i64,
    pub total_mentors: i64,
    /// Bookings made (holds excluded)
    pub total_bookings: i64,
    /// Approved payments less refunds paid back, two decimals ("123.45")
    pub total_revenue: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct UserStatusRequest {
    pub is_active: Option<bool>,
}

/// The mentor's user, as the admin sees it.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AdminPersonView {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub email: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AdminMentorStatsView {
    /// Bookings made with the mentor (holds excluded)
    pub total_bookings: i64,
    /// Approved payments for the mentor's bookings less refunds paid back, two decimals
    pub total_revenue: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AdminMentorView {
    pub id: Uuid,
    pub display_name: String,
    pub user_id: Uuid,
    pub user: AdminPersonView,
    /// Average review, two decimals
    pub rating: String,
    pub total_sessions: i32,
    /// The profile is active and its user too
    pub is_active: bool,
    /// pending (awaiting review), approved (listed) or rejected
    pub approval_status: ApprovalStatus,
    /// Why the profile was rejected (only while rejected)
    #[oai(nullable)]
    pub rejection_reason: Option<String>,
    /// When the profile was created or last resubmitted for review
    pub submitted_at: DateTime<Utc>,
    /// When an administrator last approved or rejected it
    #[oai(nullable)]
    pub reviewed_at: Option<DateTime<Utc>>,
    pub services_count: i64,
    pub stats: AdminMentorStatsView,
    /// No-shows settled against the mentor (resolved no-show complaints and group sessions they never joined)
    pub no_show_count: i64,
}

/// `POST /api/admin/mentors/{id}/reject`.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct RejectMentorRequest {
    /// Shown to the mentor: 1 to 1000 characters
    pub reason: Option<String>,
}

impl From<mentors::AdminMentor> for AdminMentorView {
    fn from(m: mentors::AdminMentor) -> Self {
        Self {
            id: m.id,
            display_name: m.display_name,
            user_id: m.user_id,
            user: AdminPersonView {
                id: m.user_id,
                first_name: m.first_name,
                last_name: m.last_name,
                email: m.email,
            },
            rating: m.rating,
            total_sessions: m.total_sessions,
            is_active: m.is_active,
            approval_status: m.approval_status,
            rejection_reason: m.rejection_reason,
            submitted_at: m.submitted_at,
            reviewed_at: m.reviewed_at,
            services_count: m.services_count,
            stats: AdminMentorStatsView {
                total_bookings: m.total_bookings,
                total_revenue: money::format(m.total_revenue_cents),
            },
            no_show_count: m.no_show_count,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AdminBookingMentorView {
    pub id: Uuid,
    pub display_name: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AdminBookingServiceView {
    pub id: Uuid,
    pub title: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AdminBookingView {
    pub id: Uuid,
    pub status: BookingStatusView,
    pub scheduled_at: DateTime<Utc>,
    /// Minutes
    pub duration: i32,
    pub total_amount: String,
    /// null for a free booking
    #[oai(nullable)]
    pub payment_status: Option<PaymentStatus>,
    pub created_at: DateTime<Utc>,
    pub user: AdminPersonView,
    pub mentor: AdminBookingMentorView,
    pub service: AdminBookingServiceView,
}

impl From<bookings::AdminBooking> for AdminBookingView {
    fn from(b: bookings::AdminBooking) -> Self {
        Self {
            id: b.id,
            status: b.status,
            scheduled_at: b.scheduled_at,
            duration: b.duration_minutes,
            total_amount: money::format(b.total_cents),
            payment_status: b.payment_status,
            created_at: b.created_at,
            user: AdminPersonView {
                id: b.user_id,
                first_name: b.user_first_name,
                last_name: b.user_last_name,
                email: b.user_email,
            },
            mentor: AdminBookingMentorView {
                id: b.mentor_id,
                display_name: b.mentor_display_name,
            },
            service: AdminBookingServiceView {
                id: b.service_id,
                title: b.service_title,
            },
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AdminBookingsPage {
    /// Newest first (by when the booking was made)
    pub bookings: Vec<AdminBookingView>,
    /// Bookings matching the filters, on every page
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// One mentor as the admin list shows it.
async fn admin_mentor(state: &AppState, id: Uuid) -> ApiResult<Json<AdminMentorView>> {
    mentors::find(&state.pool, id)
        .await?
        .map(|m| Json(m.into()))
        .ok_or_else(|| ApiError::not_found(catalogue_mentors::NOT_FOUND))
}

pub(super) const IS_ACTIVE_REQUIRED: &str = "isActive is required (true or false)";

#[OpenApi(prefix_path = "/api/admin", tag = "Tag::Admin")]
impl AdminApi {
    /// Platform figures: users, mentors, bookings and revenue (approved payments less refunds paid).
    #[oai(path = "/stats", method = "get", operation_id = "getAdminStats")]
    async fn stats(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<AdminStatsView>> {
        auth.admin()?;
        let s = stats::platform(&state.pool).await?;
        Ok(Json(AdminStatsView {
            total_users: s.total_users,
            total_mentors: s.total_mentors,
            total_bookings: s.total_bookings,
            total_revenue: money::format(s.total_revenue_cents),
        }))
    }

    /// Users, newest first, optionally by role and active flag.
    #[oai(path = "/users", method = "get", operation_id = "listAdminUsers")]
    async fn users(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        /// user, mentor or admin
        role: Query<Option<Choice<Role>>>,
        /// true or false
        #[oai(name = "isActive")]
        is_active: Query<Option<String>>,
    ) -> ApiResult<Json<Vec<UserView>>> {
        auth.admin()?;
        let filter = users::Filter::parse(role.0.as_ref(), is_active.0.as_deref())?;
        Ok(Json(
            users::list(&state.pool, &filter)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// Activates or deactivates a user. Deactivating ends all of their sessions at once; an
    /// admin cannot deactivate themself (409). Audited.
    #[oai(path = "/users/:id/status", method = "put", operation_id = "setAdminUserStatus")]
    async fn set_status(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<UserStatusRequest>,
    ) -> ApiResult<Json<UserView>> {
        let admin = auth.admin()?;
        let id = parse_id(&id, users::USER_NOT_FOUND)?;
        let is_active = body
            .is_active
            .ok_or_else(|| ApiError::from(domain::Error::validation(IS_ACTIVE_REQUIRED)))?;
        let mut tx = state.pool.begin().await?;
        let user = users::set_active(&mut tx, admin.user.id, id, is_active).await?;
        tx.commit().await?;
        Ok(Json(user.into()))
    }

    /// Every mentor with rating, sessions, services, status, approval status and earnings,
    /// newest first; `approvalStatus` (pending, approved or rejected) narrows the list.
    #[oai(path = "/mentors", method = "get", operation_id = "listAdminMentors")]
    async fn mentors(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        /// pending, approved or rejected
        #[oai(name = "approvalStatus")]
        approval_status: Query<Option<Choice<ApprovalStatus>>>,
    ) -> ApiResult<Json<Vec<AdminMentorView>>> {
        auth.admin()?;
        let status = approval_status.0.as_ref().map(vetting::parse_status).transpose()?;
        Ok(Json(
            mentors::list(&state.pool, status)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// Approves a mentor profile: listed and bookable from now on; the mentor is notified and
    /// e-mailed. Approving an approved mentor changes nothing. Audited.
    #[oai(path = "/mentors/:id/approve", method = "post", operation_id = "approveMentor")]
    async fn approve_mentor(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<AdminMentorView>> {
        let admin = auth.admin()?;
        let id = parse_id(&id, catalogue_mentors::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        vetting::approve(&mut tx, admin.user.id, id).await?;
        tx.commit().await?;
        admin_mentor(&state, id).await
    }

    /// Rejects a mentor profile with a reason (1 to 1000 characters) the mentor is notified and
    /// e-mailed; it is not listed, and the mentor may edit it and resubmit. 409 when already
    /// rejected. Audited.
    #[oai(path = "/mentors/:id/reject", method = "post", operation_id = "rejectMentor")]
    async fn reject_mentor(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<RejectMentorRequest>,
    ) -> ApiResult<Json<AdminMentorView>> {
        let admin = auth.admin()?;
        let id = parse_id(&id, catalogue_mentors::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        vetting::reject(&mut tx, admin.user.id, id, body.0.reason.as_deref()).await?;
        tx.commit().await?;
        admin_mentor(&state, id).await
    }

    /// Bookings, newest first, by status and by the session's day (UTC, inclusive), a page at a time.
    #[oai(path = "/bookings", method = "get", operation_id = "listAdminBookings")]
    #[allow(clippy::too_many_arguments)]
    async fn bookings(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        /// pending, confirmed, completed or cancelled; "all" or none for every status
        status: Query<Option<Choice<BookingStatus>>>,
        /// YYYY-MM-DD: sessions on or after this day (UTC)
        #[oai(name = "startDate")]
        start_date: Query<Option<String>>,
        /// YYYY-MM-DD: sessions on or before this day (UTC)
        #[oai(name = "endDate")]
        end_date: Query<Option<String>>,
        /// From 1
        page: Query<Option<i64>>,
        /// 20 by default, at most 100
        #[oai(name = "pageSize")]
        page_size: Query<Option<i64>>,
    ) -> ApiResult<Json<AdminBookingsPage>> {
        auth.admin()?;
        let q = bookings::Query::parse(
            status.0.as_ref(),
            start_date.0.as_deref(),
            end_date.0.as_deref(),
            page.0,
            page_size.0,
        )?;
        let found = bookings::list(&state.pool, &q).await?;
        Ok(Json(AdminBookingsPage {
            bookings: found.bookings.into_iter().map(Into::into).collect(),
            total: found.total,
            page: found.page,
            page_size: found.page_size,
        }))
    }
}
