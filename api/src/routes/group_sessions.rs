//! Group sessions: the mentor schedules, starts, ends and cancels them; signed-in users list and
//! read them (seats are taken through POST /api/reservations with `groupSessionId`).

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};
use uuid::Uuid;

use super::Tag;
use crate::views::parse_id;
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::booking::jobs as booking_jobs;
use domain::{
    catalogue::{mentors, vocabulary::ServiceType},
    choice::Choice,
    group_calls::removals,
    group_sessions::{self, GroupSession, GroupStatus, lifecycle, sessions},
    money,
    statuses::RemovalReason,
};

pub struct GroupSessionsApi;

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct GroupMentorRef {
    /// The mentor profile's id
    pub id: Uuid,
    /// The mentor's user id: the viewer leads the session when it equals their own id
    pub user_id: Uuid,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct GroupServiceView {
    pub id: Uuid,
    pub title: String,
    /// Minutes
    pub duration: i32,
    /// Per seat; "0.00" is free
    pub price: String,
    pub service_type: ServiceType,
    pub mentor: GroupMentorRef,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct GroupMentorView {
    pub id: Uuid,
    pub user_id: Uuid,
    pub display_name: String,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
    pub rating: String,
    pub total_sessions: i32,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct GroupParticipantView {
    /// The participant's user id
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct GroupSessionView {
    pub id: Uuid,
    pub title: String,
    #[oai(nullable)]
    pub description: Option<String>,
    pub status: GroupStatus,
    pub scheduled_at: DateTime<Utc>,
    /// scheduledAt plus the service's duration
    pub ends_at: DateTime<Utc>,
    pub max_participants: i32,
    /// Seats taken: booked, plus held while their holder pays
    pub current_participants: i32,
    /// Whether the signed-in viewer has a booked seat (a hold awaiting payment is not booked)
    pub is_user_booked: bool,
    /// Whether the mentor removed the signed-in viewer from this session's call (they cannot join it again)
    pub is_user_removed: bool,
    /// Active, or scheduled with the start passed and the end not
    pub is_live: bool,
    /// How the mentor removed the signed-in viewer (why, and what goes back); null when they were not removed
    #[oai(nullable)]
    pub user_removal: Option<GroupRemovalView>,
    pub service: GroupServiceView,
    pub mentor: GroupMentorView,
    /// Booked participants (not unpaid holds)
    pub participants: Vec<GroupParticipantView>,
}

/// Why the mentor removed the viewer from the session's call, and what that means for the seat's money.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct GroupRemovalView {
    /// conduct: the seat stays paid (no refund); other: the seat is cancelled and refunded in full
    pub reason: RemovalReason,
    /// What goes back to the viewer ("0.00" for conduct or a free seat)
    pub refund_amount: String,
    /// The sentence the viewer is shown about the money (the notification's and the e-mail's)
    pub message: String,
}

#[derive(ApiResponse)]
pub enum GroupSessionsPage {
    /// A page of sessions, soonest first; X-Total-Count is how many match on every page
    #[oai(status = 200)]
    Ok(Json<Vec<GroupSessionView>>, #[oai(header = "X-Total-Count")] i64),
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct CreateGroupSessionRequest {
    pub service_id: Option<String>,
    pub title: Option<String>,
    pub description: Option<String>,
    /// The start, as an ISO 8601 instant
    pub scheduled_at: Option<DateTime<Utc>>,
    /// 2 to 20; 4 when not sent
    pub max_participants: Option<i64>,
}

#[derive(Object)]
pub(super) struct GroupStatusRequest {
    /// active (start, in the live window), completed (end an active session) or cancelled
    /// (a scheduled session outside its live window; every paid seat is refunded in full)
    pub status: Option<Choice<GroupStatus>>,
}

#[derive(ApiResponse)]
pub enum Created {
    #[oai(status = 201)]
    Created(Json<GroupSessionView>),
}

/// The views of `list` as `viewer` sees them.
async fn views(state: &AppState, list: Vec<GroupSession>, viewer: Uuid) -> ApiResult<Vec<GroupSessionView>> {
    let now = Utc::now();
    let ids: Vec<Uuid> = list.iter().map(|g| g.id).collect();
    let mut by_session: HashMap<Uuid, Vec<GroupParticipantView>> = HashMap::new();
    let mut booked: HashSet<Uuid> = HashSet::new();
    let mut removed = removals::removed_from(&state.pool, viewer, &ids).await?;
    for p in sessions::participants(&state.pool, &ids).await? {
        if p.user_id == viewer {
            booked.insert(p.group_session_id);
        }
        by_session
            .entry(p.group_session_id)
            .or_default()
            .push(GroupParticipantView {
                id: p.user_id,
                first_name: p.first_name,
                last_name: p.last_name,
                profile_image_url: p.profile_image_url,
            });
    }
    Ok(list
        .into_iter()
        .map(|g| {
            let mentor_ref = GroupMentorRef {
                id: g.mentor_id,
                user_id: g.mentor_user_id,
            };
            GroupSessionView {
                id: g.id,
                is_live: g.is_live(now),
                status: g.status(),
                is_user_booked: booked.contains(&g.id),
                is_user_removed: removed.contains_key(&g.id),
                user_removal: removed.remove(&g.id).map(|r| GroupRemovalView {
                    reason: r.reason,
                    refund_amount: money::format(r.refund_cents),
                    message: removals::money_sentence(r.reason, r.refund_cents),
                }),
                participants: by_session.remove(&g.id).unwrap_or_default(),
                service: GroupServiceView {
                    id: g.service_id,
                    title: g.service_title,
                    duration: g.service_duration_minutes,
                    price: money::format(g.service_price_cents),
                    service_type: g.service_type,
                    mentor: mentor_ref,
                },
                mentor: GroupMentorView {
                    id: g.mentor_id,
                    user_id: g.mentor_user_id,
                    display_name: g.mentor_display_name,
                    profile_image_url: g.mentor_profile_image_url,
                    rating: g.mentor_rating,
                    total_sessions: g.mentor_total_sessions,
                },
                title: g.title,
                description: g.description,
                scheduled_at: g.scheduled_at,
                ends_at: g.ends_at,
                max_participants: g.max_participants,
                current_participants: g.seats_taken,
            }
        })
        .collect())
}

async fn view(state: &AppState, g: GroupSession, viewer: Uuid) -> ApiResult<GroupSessionView> {
    Ok(views(state, vec![g], viewer).await?.remove(0))
}

fn optional_id(raw: Option<&str>) -> Option<Uuid> {
    raw.map(str::trim)
        .filter(|s| !s.is_empty())
        .and_then(|s| s.parse().ok())
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Booking")]
impl GroupSessionsApi {
    /// Group sessions still ahead or live, soonest first, a page at a time (X-Total-Count: how many
    /// match); `mentor` (a mentor profile id) or `serviceId` narrows the list, and the filters are
    /// named as on /api/mentors.
    #[oai(path = "/group-sessions", method = "get", operation_id = "listGroupSessions")]
    #[allow(clippy::too_many_arguments)] // one argument per query parameter of the endpoint, as poem-openapi takes them
    async fn list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        mentor: Query<Option<String>>,
        #[oai(name = "serviceId")] service_id: Query<Option<String>>,
        /// Service type, e.g. meditation ("all" or none for every type)
        service: Query<Option<String>>,
        /// The seat's price at least this (e.g. "10.00")
        #[oai(name = "minPrice")]
        min_price: Query<Option<String>>,
        /// The seat's price at most this
        #[oai(name = "maxPrice")]
        max_price: Query<Option<String>>,
        /// Words each session names in its title, description, mentor or service
        search: Query<Option<String>>,
        /// YYYY-MM-DD (in timeZone): sessions starting on or after this day
        from: Query<Option<String>>,
        /// YYYY-MM-DD (in timeZone): sessions starting on or before this day
        to: Query<Option<String>>,
        /// The IANA zone the from and to days are read in, UTC by default
        #[oai(name = "timeZone")]
        time_zone: Query<Option<String>>,
        /// From 1
        page: Query<Option<i64>>,
        /// 12 by default, at most 50
        #[oai(name = "pageSize")]
        page_size: Query<Option<i64>>,
    ) -> ApiResult<GroupSessionsPage> {
        let (by_mentor, by_service) = (optional_id(mentor.0.as_deref()), optional_id(service_id.0.as_deref()));
        let query = sessions::ListingQuery {
            service: service.0,
            min_price: min_price.0,
            max_price: max_price.0,
            search: search.0,
            from: from.0,
            to: to.0,
            time_zone: time_zone.0,
            page: page.0,
            page_size: page_size.0,
        };
        let listing = sessions::Listing::new(query, by_mentor, by_service)?;
        // A malformed filter matches nothing rather than everything.
        if (by_mentor.is_none() && mentor.0.as_deref().is_some_and(|m| !m.trim().is_empty()))
            || (by_service.is_none() && service_id.0.as_deref().is_some_and(|s| !s.trim().is_empty()))
        {
            return Ok(GroupSessionsPage::Ok(Json(Vec::new()), 0));
        }
        let (list, total) = sessions::upcoming(&state.pool, &listing, Utc::now()).await?;
        Ok(GroupSessionsPage::Ok(
            Json(views(&state, list, auth.0.user.id).await?),
            total,
        ))
    }

    /// One group session (any state).
    #[oai(path = "/group-sessions/:id", method = "get", operation_id = "getGroupSession")]
    async fn get(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<GroupSessionView>> {
        let id = parse_id(&id, group_sessions::NOT_FOUND)?;
        let me = &auth.0.user;
        let g = sessions::find(&state.pool, id)
            .await?
            // An unapproved mentor's sessions exist only for the mentor and the administrators.
            .filter(|g| g.mentor_is_public || g.mentor_user_id == me.id || me.is_admin)
            .ok_or_else(|| crate::error::ApiError::not_found(group_sessions::NOT_FOUND))?;
        Ok(Json(view(&state, g, me.id).await?))
    }

    /// The signed-in mentor's group sessions, the latest start first.
    #[oai(
        path = "/mentor/group-sessions",
        method = "get",
        operation_id = "listMentorGroupSessions"
    )]
    async fn mine(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<GroupSessionView>>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let list = sessions::of_mentor(&state.pool, mentor.id).await?;
        Ok(Json(views(&state, list, auth.0.user.id).await?))
    }

    /// Schedules a session of the mentor's own active group service (its duration; 2 to 20
    /// participants, 4 by default; in the future; not overlapping the mentor's bookings or sessions).
    #[oai(path = "/group-sessions", method = "post", operation_id = "createGroupSession")]
    async fn create(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<CreateGroupSessionRequest>,
    ) -> ApiResult<Created> {
        let body = body.0;
        domain::text::single_line(body.title.as_deref().unwrap_or_default(), "Title")?;
        domain::text::multi_line(body.description.as_deref().unwrap_or_default(), "Description")?;
        let service_id = match body.service_id.as_deref().map(str::trim).filter(|s| !s.is_empty()) {
            None => None,
            Some(raw) => Some(
                raw.parse()
                    .map_err(|_| domain::Error::validation(group_sessions::NOT_A_GROUP_SERVICE))?,
            ),
        };
        let input = sessions::NewGroupSession {
            service_id,
            title: body.title,
            description: body.description,
            scheduled_at: body.scheduled_at,
            max_participants: body.max_participants,
        };
        let mut tx = state.pool.begin().await?;
        let g = sessions::create(&mut tx, auth.0.user.id, input, Utc::now()).await?;
        domain::group_sessions::jobs::schedule(&mut tx, &g).await?;
        tx.commit().await?;
        Ok(Created::Created(Json(view(&state, g, auth.0.user.id).await?)))
    }

    /// The mentor moves the session: scheduled -> active (in its live window), active ->
    /// completed, scheduled -> cancelled (outside its live window; every paid seat is refunded in
    /// full and every participant told). Anything else is 409.
    #[oai(path = "/group-sessions/:id", method = "put", operation_id = "updateGroupSession")]
    async fn update(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<GroupStatusRequest>,
    ) -> ApiResult<Json<GroupSessionView>> {
        let id = parse_id(&id, group_sessions::NOT_FOUND)?;
        let to = Choice::required(body.status.as_ref(), lifecycle::BAD_STATUS)?;
        let mut tx = state.pool.begin().await?;
        let moved = lifecycle::move_by_mentor(&mut tx, auth.0.user.id, id, to, Utc::now()).await?;
        for seat in &moved.cancelled_seats {
            booking_jobs::cancelled(&mut tx, &seat.booking, seat.refund, seat.policy.amount_cents, true).await?;
        }
        // The event in the mentor's own calendar follows (a cancelled session's is deleted).
        domain::calendars::writeback::enqueue_group_session(&mut tx, id).await?;
        // Anyone on the call page hears of it (and a session that is over loses its room).
        domain::group_calls::room::announce(&mut tx, state.janus.as_ref(), id, moved.session.status, Utc::now())
            .await?;
        tx.commit().await?;
        Ok(Json(view(&state, moved.session, auth.0.user.id).await?))
    }
}
