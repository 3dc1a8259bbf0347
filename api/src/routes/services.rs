use poem::{Request, web::Data};
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};
use uuid::Uuid;

use super::{Tag, amount::Amount};
use crate::views::{
    catalogue::{HighlightsView, ServiceStatView, ServiceView, ServiceWithMentorView},
    parse_id,
};
use crate::{
    auth::SessionAuth,
    catalogue_cache::{CachedJson, Key},
    error::{ApiError, ApiResult},
    state::AppState,
};
use domain::{
    Error,
    catalogue::{mentors, services, stats, vocabulary::ServiceType},
    choice::Choice,
};

pub struct ServicesApi;

pub(super) const ONLY_MENTORS: &str = "Only mentors can offer services. Create your mentor profile first.";
pub(super) const NOT_YOUR_PROFILE: &str = "You can only add services to your own mentor profile";

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct NewServiceRequest {
    pub title: Option<String>,
    pub description: Option<String>,
    pub service_type: Option<Choice<ServiceType>>,
    pub price: Option<Amount>,
    /// Minutes; 60 when absent
    pub duration: Option<i64>,
    pub is_group_session: Option<bool>,
    /// 2 to 20, group services only
    pub max_participants: Option<i64>,
    /// The caller's own mentor id (the onboarding wizard sends it)
    pub mentor_id: Option<Uuid>,
}

/// Only the fields sent change.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ServiceChangesRequest {
    pub title: Option<String>,
    pub description: Option<String>,
    pub service_type: Option<Choice<ServiceType>>,
    pub price: Option<Amount>,
    pub duration: Option<i64>,
    pub is_active: Option<bool>,
    pub is_group_session: Option<bool>,
    pub max_participants: Option<i64>,
}

#[derive(ApiResponse)]
pub enum ServiceCreated {
    #[oai(status = 201)]
    Created(Json<ServiceView>),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Services")]
impl ServicesApi {
    /// Adds a service to the signed-in mentor's profile.
    #[oai(path = "/services", method = "post", operation_id = "createService")]
    async fn create(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<NewServiceRequest>,
    ) -> ApiResult<ServiceCreated> {
        let mine = mentor_of(&state, &auth).await?;
        if body.mentor_id.is_some_and(|id| id != mine.id) {
            return Err(Error::forbidden(NOT_YOUR_PROFILE).into());
        }
        let body = body.0;
        let service = services::create(
            &state.pool,
            mine.id,
            services::NewService {
                title: body.title.unwrap_or_default(),
                description: body.description.unwrap_or_default(),
                service_type: body.service_type,
                price: Amount::text(&body.price),
                duration: body.duration,
                is_group_session: body.is_group_session.unwrap_or(false),
                max_participants: body.max_participants,
            },
        )
        .await?;
        Ok(ServiceCreated::Created(Json(service.into())))
    }

    /// Changes the signed-in mentor's own service (including activating or deactivating it).
    #[oai(path = "/mentor/services/:id", method = "put", operation_id = "updateService")]
    async fn update(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ServiceChangesRequest>,
    ) -> ApiResult<Json<ServiceView>> {
        let id = parse_id(&id, services::NOT_FOUND)?;
        let mine = mentor_of(&state, &auth).await?;
        let body = body.0;
        let changes = services::ServiceChanges {
            title: body.title,
            description: body.description,
            service_type: body.service_type,
            price: Amount::text(&body.price),
            duration: body.duration,
            is_active: body.is_active,
            is_group_session: body.is_group_session,
            max_participants: body.max_participants,
        };
        Ok(Json(services::update(&state.pool, mine.id, id, changes).await?.into()))
    }

    /// A bookable service with its mentor.
    #[oai(path = "/services/:id", method = "get", operation_id = "getService")]
    async fn get(
        &self,
        state: Data<&AppState>,
        id: Path<String>,
        req: &Request,
    ) -> ApiResult<CachedJson<ServiceWithMentorView>> {
        let not_found = || ApiError::not_found(services::NOT_FOUND);
        let id = parse_id(&id, services::NOT_FOUND)?;
        state
            .catalogue
            .respond(Key::Service(id), async {
                let (service, mentor) = state
                    .reads
                    .run(Some(req), |pool| async move {
                        let service = services::find(&pool, id)
                            .await?
                            .filter(|s| s.is_active)
                            .ok_or_else(not_found)?;
                        let mentor = mentors::find(&pool, service.mentor_id)
                            .await?
                            .filter(|m| m.is_public())
                            .ok_or_else(not_found)?;
                        Ok((service, mentor))
                    })
                    .await?;
                let shows = vec![mentor.id];
                let view = ServiceWithMentorView {
                    service: service.into(),
                    mentor: mentor.into(),
                };
                Ok((CachedJson::new(&view), shows))
            })
            .await
    }

    /// One row per service type: mentors offering it and the lowest non-free price.
    #[oai(path = "/service-stats", method = "get", operation_id = "getServiceStats")]
    async fn stats(&self, state: Data<&AppState>) -> ApiResult<Json<Vec<ServiceStatView>>> {
        Ok(Json(
            stats::service_stats(&state.pool)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// The landing page's figures (mentors, average hourly rate, average rating) and testimonials
    /// from real reviews; a figure with no data behind it is null.
    #[oai(path = "/highlights", method = "get", operation_id = "getHighlights")]
    async fn highlights(&self, state: Data<&AppState>) -> ApiResult<Json<HighlightsView>> {
        Ok(Json(stats::highlights(&state.pool).await?.into()))
    }
}

async fn mentor_of(state: &AppState, auth: &SessionAuth) -> Result<mentors::Mentor, ApiError> {
    mentors::find_by_user(&state.pool, auth.0.user.id)
        .await?
        .ok_or_else(|| Error::forbidden(ONLY_MENTORS).into())
}
