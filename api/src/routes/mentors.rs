use poem::{Request, web::Data};
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};

use super::{Tag, amount::Amount};
use crate::views::{
    catalogue::{MentorView, MentorsPage, ReviewView},
    parse_id,
};
use crate::{
    auth::{SessionAuth, session_token_from_request},
    catalogue_cache::{CachedJson, Key},
    error::{ApiError, ApiResult},
    state::AppState,
};
use domain::{
    accounts::sessions,
    booking::reviews,
    catalogue::{mentors, search, vetting},
    presence::{self, Presence},
};

pub struct MentorsApi;

/// Cached bytes that are not the JSON they were: an internal error.
fn unreadable(err: serde_json::Error) -> ApiError {
    domain::Error::Internal(anyhow::anyhow!("cached mentor JSON: {err}")).into()
}

/// Presence is never cached: read when the response is made and written into the cached bytes of a
/// mentor page (`id`) or a listing (`mentors[].id`).
async fn with_presence<T>(pool: &sqlx::PgPool, cached: CachedJson<T>) -> ApiResult<CachedJson<T>> {
    let mut value: serde_json::Value = serde_json::from_slice(&cached.bytes()).map_err(unreadable)?;
    let id_of = |v: &serde_json::Value| v.get("id").and_then(|i| i.as_str()).and_then(|i| i.parse().ok());
    let ids: Vec<uuid::Uuid> = match value.get("mentors").and_then(|m| m.as_array()) {
        Some(list) => list.iter().filter_map(id_of).collect(),
        None => id_of(&value).into_iter().collect(),
    };
    if ids.is_empty() {
        return Ok(cached);
    }
    let now = presence::of_mentors(pool, &ids).await?;
    let set = |v: &mut serde_json::Value| {
        if let Some(id) = id_of(v) {
            let status = now.get(&id).copied().unwrap_or(Presence::Offline);
            v["presence"] = serde_json::Value::from(status.as_str());
        }
    };
    match value.get_mut("mentors").and_then(|m| m.as_array_mut()) {
        Some(list) => list.iter_mut().for_each(set),
        None => set(&mut value),
    }
    let body = serde_json::to_vec(&value).map_err(unreadable)?;
    Ok(CachedJson::from_bytes(body.into()))
}

/// A view made now (not cached) with its mentor's presence of the moment.
async fn live(pool: &sqlx::PgPool, mut view: MentorView) -> ApiResult<MentorView> {
    view.card.presence = presence::of_mentor(pool, view.card.id).await?;
    Ok(view)
}

/// `GET /api/mentors?availableNow=true`: never cached (presence changes by the minute).
async fn available_now_page(
    state: &AppState,
    page: Option<i64>,
    page_size: Option<i64>,
) -> ApiResult<CachedJson<MentorsPage>> {
    let (page, page_size) = search::paging(page, page_size)?;
    let (found, total) = presence::available(&state.pool, page, page_size).await?;
    let mentors = mentors::with_services(&state.pool, found, false).await?;
    let mut page = MentorsPage {
        mentors: mentors.into_iter().map(Into::into).collect(),
        total,
        page,
        page_size,
    };
    for m in &mut page.mentors {
        m.card.presence = Presence::Available;
    }
    Ok(CachedJson::new(&page))
}

/// `GET /api/mentors/{id}` as anyone sees it (404 for a mentor not approved), from the catalogue's
/// memory (filled from the replica when it can answer, `replica`); also what the api writes into a
/// mentor's page (`web`). The presence of the moment is written in (never cached with the page).
pub async fn public_mentor(state: &AppState, id: uuid::Uuid, req: &Request) -> ApiResult<CachedJson<MentorView>> {
    let cached = state
        .catalogue
        .respond(Key::Mentor(id), async {
            let view: MentorView = state
                .reads
                .run(Some(req), |pool| async move { Ok(mentors::public(&pool, id).await?) })
                .await?
                .into();
            Ok((CachedJson::new(&view), vec![id]))
        })
        .await?;
    with_presence(&state.pool, cached).await
}

/// Onboarding step 1. Absent fields are validated as missing.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct MentorProfileRequest {
    pub display_name: Option<String>,
    pub bio: Option<String>,
    pub specialties: Option<Vec<String>>,
    pub base_price: Option<Amount>,
    /// An image uploaded here, exactly as `POST /api/user/profile-image` returned it (`/uploads/<name>`); empty for none
    pub profile_image_url: Option<String>,
    /// IANA zone, e.g. "Europe/London"; UTC when absent
    pub time_zone: Option<String>,
    /// Minutes before a session below which it cannot be booked: 0 to 10080, 120 when absent
    pub minimum_notice_minutes: Option<i64>,
    /// Minutes kept free before each session booked here: 0 to 120, 0 when absent on creation
    pub buffer_before_minutes: Option<i64>,
    /// Minutes kept free after each session booked here: 0 to 120, 0 when absent on creation
    pub buffer_after_minutes: Option<i64>,
    /// Sessions per day at most, in the mentor's local day (a group session counts once): 1 to 50,
    /// 0 for no limit; absent leaves it unchanged
    pub max_bookings_per_day: Option<i64>,
    /// What an instant reading costs a minute: 0.99 to 20.00; "0.00" turns instant readings off;
    /// absent leaves it unchanged
    pub per_minute_rate: Option<Amount>,
    /// chat, video or both; absent leaves them unchanged
    pub instant_modes: Option<Vec<String>>,
}

impl MentorProfileRequest {
    fn into_input(self) -> mentors::ProfileInput {
        mentors::ProfileInput {
            display_name: self.display_name,
            bio: self.bio,
            specialties: self.specialties,
            base_price: Amount::text(&self.base_price),
            profile_image_url: self.profile_image_url,
            time_zone: self.time_zone,
            minimum_notice_minutes: self.minimum_notice_minutes,
            buffer_before_minutes: self.buffer_before_minutes,
            buffer_after_minutes: self.buffer_after_minutes,
            max_bookings_per_day: self.max_bookings_per_day,
            per_minute_rate: Amount::text(&self.per_minute_rate),
            instant_modes: self.instant_modes,
        }
    }
}

/// The page of a mentor who is not public (awaiting review, rejected), for the signed-in mentor
/// themself or an administrator; never cached.
async fn own_preview(state: &AppState, id: uuid::Uuid, req: &Request) -> ApiResult<Option<MentorView>> {
    let Some(token) = session_token_from_request(req) else {
        return Ok(None);
    };
    let Some(viewer) = sessions::user_for(&state.pool, &token).await? else {
        return Ok(None);
    };
    let Some(mentor) = mentors::find(&state.pool, id)
        .await?
        .filter(|m| m.is_active && (m.user_id == viewer.id || viewer.is_admin))
    else {
        return Ok(None);
    };
    Ok(Some(
        mentors::with_services(&state.pool, vec![mentor], false)
            .await?
            .remove(0)
            .into(),
    ))
}

#[derive(ApiResponse)]
pub enum MentorCreated {
    /// The user is a mentor now
    #[oai(status = 201)]
    Created(Json<MentorView>),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Mentors")]
impl MentorsApi {
    /// Creates the signed-in user's mentor profile (onboarding step 1).
    #[oai(path = "/mentors", method = "post", operation_id = "createMentor")]
    async fn create(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<MentorProfileRequest>,
    ) -> ApiResult<MentorCreated> {
        let mentor = mentors::create(&state.pool, auth.0.user.id, body.0.into_input()).await?;
        let full = mentors::with_services(&state.pool, vec![mentor], true).await?.remove(0);
        Ok(MentorCreated::Created(Json(live(&state.pool, full.into()).await?)))
    }

    /// The signed-in user's mentor profile with all its services; 404 when not a mentor.
    #[oai(path = "/mentor/profile", method = "get", operation_id = "getMentorProfile")]
    async fn own(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<MentorView>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let view = mentors::with_services(&state.pool, vec![mentor], true)
            .await?
            .remove(0)
            .into();
        Ok(Json(live(&state.pool, view).await?))
    }

    /// Changes the fields sent; specialties are trimmed and duplicates dropped.
    #[oai(path = "/mentor/profile", method = "put", operation_id = "updateMentorProfile")]
    async fn update(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<MentorProfileRequest>,
    ) -> ApiResult<Json<MentorView>> {
        let mine = mentors::own(&state.pool, auth.0.user.id).await?;
        let mut tx = state.pool.begin().await?;
        let mentor = mentors::update(&mut tx, mine.id, body.0.into_input()).await?;
        if mentor.per_minute_rate_cents.is_none() {
            presence::rate_removed(&mut tx, mentor.id).await?;
        }
        if let Some(old) = mine
            .profile_image_url
            .filter(|old| mentor.profile_image_url.as_ref() != Some(old))
        {
            domain::uploads::queue_deletion(&mut tx, &old).await?;
        }
        tx.commit().await?;
        let view = mentors::with_services(&state.pool, vec![mentor], true)
            .await?
            .remove(0)
            .into();
        Ok(Json(live(&state.pool, view).await?))
    }

    /// A rejected mentor sends their (edited) profile for review again: pending until an
    /// administrator decides. 409 unless the profile is rejected.
    #[oai(
        path = "/mentor/profile/resubmit",
        method = "post",
        operation_id = "resubmitMentorProfile"
    )]
    async fn resubmit(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<MentorView>> {
        let mut tx = state.pool.begin().await?;
        let mentor = vetting::resubmit(&mut tx, auth.0.user.id).await?;
        tx.commit().await?;
        let view = mentors::with_services(&state.pool, vec![mentor], true)
            .await?
            .remove(0)
            .into();
        Ok(Json(live(&state.pool, view).await?))
    }

    /// Active, approved mentors, filtered, searched (full text with typo tolerance), sorted and paged.
    #[oai(path = "/mentors", method = "get", operation_id = "listMentors")]
    #[allow(clippy::too_many_arguments)]
    async fn list(
        &self,
        state: Data<&AppState>,
        /// Service type, e.g. tarot
        service: Query<Option<String>>,
        /// Words to look for in names, specialties, service titles and bios
        search: Query<Option<String>>,
        #[oai(name = "minPrice")] min_price: Query<Option<String>>,
        #[oai(name = "maxPrice")] max_price: Query<Option<String>>,
        #[oai(name = "minRating")] min_rating: Query<Option<String>>,
        /// relevance (default), rating, price or sessions
        sort: Query<Option<String>>,
        /// From 1
        page: Query<Option<i64>>,
        /// 12 by default, at most 50
        #[oai(name = "pageSize")]
        page_size: Query<Option<i64>>,
        /// true: only mentors available for an instant reading now, best rated first
        #[oai(name = "availableNow")]
        available_now: Query<Option<bool>>,
        req: &Request,
    ) -> ApiResult<CachedJson<MentorsPage>> {
        if available_now.0 == Some(true) {
            return available_now_page(&state, page.0, page_size.0).await;
        }
        let query = search::Query {
            service: service.0,
            search: search.0,
            min_price: min_price.0,
            max_price: max_price.0,
            min_rating: min_rating.0,
            sort: search::Sort::parse(sort.0.as_deref().unwrap_or(""))?,
            page: page.0,
            page_size: page_size.0,
        };
        let listing = search::Listing::new(query)?;
        state
            .catalogue
            .respond(Key::Listing(listing.clone()), async {
                if let Some(page) = state.catalogue.listed_page(&listing) {
                    return Ok(page);
                }
                let listing = &listing;
                let found = state
                    .reads
                    .run(
                        Some(req),
                        |pool| async move { Ok(search::listing(&pool, listing).await?) },
                    )
                    .await?;
                let shows = found.mentors.iter().map(|m| m.mentor.id).collect();
                let page = MentorsPage {
                    mentors: found.mentors.into_iter().map(Into::into).collect(),
                    total: found.total,
                    page: found.page,
                    page_size: found.page_size,
                };
                Ok((CachedJson::new(&page), shows))
            })
            .await
            .map(|cached| with_presence(&state.pool, cached))?
            .await
    }

    /// An active, approved mentor with its active services. A mentor awaiting review (or
    /// rejected) is 404 for everyone but themself and the administrators.
    #[oai(path = "/mentors/:id", method = "get", operation_id = "getMentor")]
    async fn get(&self, state: Data<&AppState>, id: Path<String>, req: &Request) -> ApiResult<CachedJson<MentorView>> {
        let id = parse_id(&id, mentors::NOT_FOUND)?;
        match public_mentor(&state, id, req).await {
            Err(e @ ApiError::NotFound(_)) => match own_preview(&state, id, req).await? {
                Some(view) => Ok(CachedJson::new(&live(&state.pool, view).await?)),
                None => Err(e),
            },
            other => other,
        }
    }

    /// A mentor's reviews, newest first.
    #[oai(path = "/mentors/:id/reviews", method = "get", operation_id = "getMentorReviews")]
    async fn reviews(
        &self,
        state: Data<&AppState>,
        id: Path<String>,
        req: &Request,
    ) -> ApiResult<Json<Vec<ReviewView>>> {
        let id = parse_id(&id, mentors::NOT_FOUND)?;
        let found = state
            .reads
            .run(
                Some(req),
                |pool| async move { Ok(reviews::for_mentor(&pool, id).await?) },
            )
            .await?;
        Ok(Json(found.into_iter().map(Into::into).collect()))
    }
}
