use chrono::{DateTime, Utc};
use poem::{Request, web::Data};
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};
use uuid::Uuid;

use super::{Tag, amount::Amount};
use crate::views::{
    booking::BookingView,
    catalogue::{MentorCardView, ServiceView},
    {MessageResponse, parse_id},
};
use crate::{
    auth::{SessionAuth, session_token_from_request},
    error::{ApiError, ApiResult},
    state::AppState,
};
use domain::booking::jobs as booking_jobs;
use domain::{
    accounts::sessions,
    booking::{BookingStatus, bookings::Booking, open_slots, reservations},
    catalogue::{mentors, services},
    group_sessions::{self, seats},
    money,
};

pub struct BookingApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ReservationRequest {
    pub service_id: Option<String>,
    pub mentor_id: Option<Uuid>,
    /// The start, as an ISO 8601 instant
    pub scheduled_at: Option<DateTime<Utc>>,
    pub notes: Option<String>,
    /// Must equal the service's price when sent
    pub total_amount: Option<Amount>,
    /// The seeker's own live hold this one replaces (released in the same step)
    pub replaces_reservation_id: Option<String>,
    /// A seat in this group session (then serviceId, mentorId and scheduledAt are not needed)
    pub group_session_id: Option<String>,
}

/// The days of a month a mentor has a free start on.
#[derive(Object)]
pub(super) struct AvailableDays {
    /// YYYY-MM-DD in the viewer's zone, ascending
    pub days: Vec<String>,
}

#[derive(Object)]
pub struct ReservationRef {
    pub id: Uuid,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReservationResult {
    /// True when the service is free and the booking is confirmed now
    pub free_booking: bool,
    #[oai(nullable)]
    pub booking: Option<BookingView>,
    #[oai(nullable)]
    pub reservation: Option<ReservationRef>,
    /// When an unpaid hold is released
    #[oai(nullable)]
    pub expires_at: Option<DateTime<Utc>>,
}

#[derive(ApiResponse)]
pub enum Reserved {
    #[oai(status = 201)]
    Created(Json<ReservationResult>),
    /// The seeker's seat in the group session from before (held or booked)
    #[oai(status = 200)]
    Existing(Json<ReservationResult>),
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct GroupSessionSummary {
    pub title: String,
    #[oai(nullable)]
    pub description: Option<String>,
    pub current_participants: i32,
    pub max_participants: i32,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ReservationView {
    pub id: Uuid,
    pub scheduled_at: DateTime<Utc>,
    pub expires_at: DateTime<Utc>,
    pub total_amount: String,
    #[oai(nullable)]
    pub notes: Option<String>,
    pub mentor: MentorCardView,
    pub service: ServiceView,
    #[oai(nullable)]
    pub group_session: Option<GroupSessionSummary>,
}

/// Who asks for free times. Public, but a signed-in seeker's own holds count as free for them.
async fn viewer_of<'a>(
    state: &AppState,
    req: &Request,
    zone: Option<&'a str>,
    except_booking: Option<&str>,
) -> ApiResult<open_slots::Viewer<'a>> {
    let user_id = match session_token_from_request(req) {
        Some(token) => sessions::user_for(&state.pool, &token).await?.map(|u| u.id),
        None => None,
    };
    Ok(open_slots::Viewer {
        zone,
        except_booking: except_booking.and_then(|id| id.trim().parse().ok()),
        user_id,
    })
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Booking")]
impl BookingApi {
    /// Start times (HH:MM, viewer's zone) a mentor offers on a viewer-local date.
    #[oai(
        path = "/mentors/:mentor_id/available-slots",
        method = "get",
        operation_id = "getAvailableSlots"
    )]
    #[allow(clippy::too_many_arguments)] // one argument per query parameter of the endpoint, as poem-openapi takes them
    async fn slots(
        &self,
        state: Data<&AppState>,
        mentor_id: Path<String>,
        /// YYYY-MM-DD in the viewer's zone
        date: Query<Option<String>>,
        /// Minutes, 60 by default
        duration: Query<Option<i64>>,
        /// The viewer's IANA zone, UTC by default
        #[oai(name = "timeZone")]
        time_zone: Query<Option<String>>,
        /// A booking being rescheduled: its own time counts as free
        #[oai(name = "excludeBooking")]
        exclude_booking: Query<Option<String>>,
        req: &Request,
    ) -> ApiResult<Json<Vec<String>>> {
        let mentor_id = parse_id(&mentor_id, mentors::NOT_FOUND)?;
        let date = date.0.unwrap_or_default();
        let viewer = viewer_of(&state, req, time_zone.0.as_deref(), exclude_booking.0.as_deref()).await?;
        let (date, duration) = (&date, duration.0);
        let slots = state
            .reads
            .run(Some(req), |pool| async move {
                Ok(open_slots::slots_on(&pool, mentor_id, date, duration, viewer, Utc::now()).await?)
            })
            .await?;
        Ok(Json(slots))
    }

    /// The viewer-local days of a month with at least one free start (the days available-slots
    /// offers times on), for the booking calendar: one request per visible month.
    #[oai(
        path = "/mentors/:mentor_id/available-days",
        method = "get",
        operation_id = "getAvailableDays"
    )]
    #[allow(clippy::too_many_arguments)] // one argument per query parameter of the endpoint, as poem-openapi takes them
    async fn days(
        &self,
        state: Data<&AppState>,
        mentor_id: Path<String>,
        /// YYYY-MM in the viewer's zone
        month: Query<Option<String>>,
        /// Minutes, 60 by default
        duration: Query<Option<i64>>,
        /// The viewer's IANA zone, UTC by default
        #[oai(name = "timeZone")]
        time_zone: Query<Option<String>>,
        /// A booking being rescheduled: its own time counts as free
        #[oai(name = "excludeBooking")]
        exclude_booking: Query<Option<String>>,
        req: &Request,
    ) -> ApiResult<Json<AvailableDays>> {
        let mentor_id = parse_id(&mentor_id, mentors::NOT_FOUND)?;
        let month = month.0.unwrap_or_default();
        let viewer = viewer_of(&state, req, time_zone.0.as_deref(), exclude_booking.0.as_deref()).await?;
        let (month, duration) = (&month, duration.0);
        let days = state
            .reads
            .run(Some(req), |pool| async move {
                Ok(open_slots::days_in(&pool, mentor_id, month, duration, viewer, Utc::now()).await?)
            })
            .await?;
        Ok(Json(AvailableDays { days }))
    }

    /// Books a free service at once, or holds a paid one for 60 minutes while the seeker pays.
    #[oai(path = "/reservations", method = "post", operation_id = "createReservation")]
    async fn reserve(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<ReservationRequest>,
    ) -> ApiResult<Reserved> {
        let body = body.0;
        domain::text::multi_line(body.notes.as_deref().unwrap_or_default(), "Notes")?;
        if let Some(session) = body
            .group_session_id
            .as_deref()
            .map(str::trim)
            .filter(|id| !id.is_empty())
        {
            let session = parse_id(session, group_sessions::NOT_FOUND)?;
            return join_group_session(&state, auth.0.user.id, session, &body).await;
        }
        let service_id = parse_id(body.service_id.as_deref().unwrap_or(""), services::NOT_FOUND)?;
        let input = reservations::NewReservation {
            service_id,
            mentor_id: body.mentor_id,
            scheduled_at: body.scheduled_at,
            notes: body.notes,
            total_amount: Amount::text(&body.total_amount),
            replaces: match body
                .replaces_reservation_id
                .as_deref()
                .map(str::trim)
                .filter(|id| !id.is_empty())
            {
                Some(id) => Some(parse_id(id, reservations::NOT_FOUND)?),
                None => None,
            },
        };
        let mut tx = state.pool.begin().await?;
        let result = match reservations::reserve(&mut tx, auth.0.user.id, input, Utc::now()).await? {
            reservations::Reserved::Free(booking) => {
                booking_jobs::confirmed(&mut tx, &booking).await?;
                ReservationResult {
                    free_booking: true,
                    booking: Some(booking.into()),
                    reservation: None,
                    expires_at: None,
                }
            }
            reservations::Reserved::Held { booking, expires_at } => {
                booking_jobs::schedule_expiry(&mut tx, booking.id, expires_at).await?;
                ReservationResult {
                    free_booking: false,
                    booking: None,
                    reservation: Some(ReservationRef { id: booking.id }),
                    expires_at: Some(expires_at),
                }
            }
        };
        tx.commit().await?;
        Ok(Reserved::Created(Json(result)))
    }

    /// The signed-in seeker's live hold.
    #[oai(path = "/reservations/:id", method = "get", operation_id = "getReservation")]
    async fn reservation(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<ReservationView>> {
        let id = parse_id(&id, reservations::NOT_FOUND)?;
        let hold = reservations::live_hold(&state.pool, auth.0.user.id, id, Utc::now()).await?;
        Ok(Json(reservation_view(&state, hold).await?))
    }

    /// The signed-in seeker's live holds (checkouts left unfinished), soonest expiry first.
    #[oai(path = "/user/reservations", method = "get", operation_id = "getMyReservations")]
    async fn my_reservations(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
    ) -> ApiResult<Json<Vec<ReservationView>>> {
        let mut views = Vec::new();
        for hold in reservations::live_holds_of(&state.pool, auth.0.user.id, Utc::now()).await? {
            views.push(reservation_view(&state, hold).await?);
        }
        Ok(Json(views))
    }

    /// Releases the signed-in seeker's live hold at once, freeing its time for others.
    #[oai(path = "/reservations/:id", method = "delete", operation_id = "releaseReservation")]
    async fn release(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<MessageResponse>> {
        let id = parse_id(&id, reservations::NOT_FOUND)?;
        reservations::release(&state.pool, auth.0.user.id, id, Utc::now()).await?;
        Ok(Json(MessageResponse::new(reservations::RELEASED)))
    }
}

/// A seat in a group session: a free one is booked now (201, freeBooking), a paid one held while
/// the seeker pays (201, reservation); the seeker's seat from before is returned with 200.
async fn join_group_session(
    state: &AppState,
    user_id: Uuid,
    session: Uuid,
    body: &ReservationRequest,
) -> ApiResult<Reserved> {
    let total = Amount::text(&body.total_amount);
    let mut tx = state.pool.begin().await?;
    let joined = seats::join(
        &mut tx,
        user_id,
        session,
        total.as_deref(),
        body.notes.as_deref(),
        Utc::now(),
    )
    .await?;
    let result = match joined {
        seats::Joined::Free(booking) => {
            booking_jobs::confirmed(&mut tx, &booking).await?;
            Reserved::Created(Json(ReservationResult {
                free_booking: true,
                booking: Some(booking.into()),
                reservation: None,
                expires_at: None,
            }))
        }
        seats::Joined::Held { booking, expires_at } => {
            booking_jobs::schedule_expiry(&mut tx, booking.id, expires_at).await?;
            Reserved::Created(Json(held(booking.id, expires_at)))
        }
        seats::Joined::Existing(booking) => Reserved::Existing(Json(match booking.hold_expires_at {
            Some(expires_at) if booking.status == BookingStatus::Reserved => held(booking.id, expires_at),
            _ => ReservationResult {
                free_booking: booking.total_cents == 0,
                booking: Some(booking.into()),
                reservation: None,
                expires_at: None,
            },
        })),
    };
    tx.commit().await?;
    Ok(result)
}

fn held(id: Uuid, expires_at: DateTime<Utc>) -> ReservationResult {
    ReservationResult {
        free_booking: false,
        booking: None,
        reservation: Some(ReservationRef { id }),
        expires_at: Some(expires_at),
    }
}

async fn reservation_view(state: &AppState, hold: Booking) -> ApiResult<ReservationView> {
    let gone = || ApiError::not_found(reservations::NOT_FOUND);
    let group_session = match hold.group_session_id {
        Some(id) => {
            let g = group_sessions::sessions::find(&state.pool, id)
                .await?
                .ok_or_else(gone)?;
            Some(GroupSessionSummary {
                title: g.title,
                description: g.description,
                current_participants: g.seats_taken,
                max_participants: g.max_participants,
            })
        }
        None => None,
    };
    let service = services::find(&state.pool, hold.service_id).await?.ok_or_else(gone)?;
    let mentor = mentors::find(&state.pool, hold.mentor_id).await?.ok_or_else(gone)?;
    Ok(ReservationView {
        id: hold.id,
        scheduled_at: hold.scheduled_at,
        expires_at: hold.hold_expires_at.ok_or_else(gone)?,
        total_amount: money::format(hold.total_cents),
        notes: hold.notes,
        mentor: mentor.into(),
        service: service.into(),
        group_session,
    })
}
