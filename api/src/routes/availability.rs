use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};
use uuid::Uuid;

use super::Tag;
use crate::views::{MessageResponse, parse_id};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::{
    booking::weekly_windows::{self, Slot},
    catalogue::mentors,
};

pub struct AvailabilityApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct AvailabilitySlotView {
    pub id: Uuid,
    /// 0 Sunday .. 6 Saturday
    pub day_of_week: i32,
    /// HH:MM, mentor's wall clock
    pub start_time: String,
    /// HH:MM (24:00 is midnight at the end of the day)
    pub end_time: String,
    pub is_active: bool,
}

impl From<Slot> for AvailabilitySlotView {
    fn from(s: Slot) -> Self {
        Self {
            id: s.id,
            day_of_week: s.day_of_week.into(),
            start_time: weekly_windows::format_time(s.start_minute),
            end_time: weekly_windows::format_time(s.end_minute),
            is_active: s.is_active,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct NewAvailabilityRequest {
    pub day_of_week: Option<i64>,
    #[oai(default)]
    pub start_time: String,
    #[oai(default)]
    pub end_time: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct BulkAvailabilityRequest {
    /// 0 Sunday .. 6 Saturday; one window is made for each
    #[oai(default)]
    pub days_of_week: Vec<i64>,
    #[oai(default)]
    pub start_time: String,
    #[oai(default)]
    pub end_time: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct AvailabilityStatusRequest {
    pub is_active: bool,
}

#[derive(ApiResponse)]
pub enum SlotCreated {
    #[oai(status = 201)]
    Created(Json<AvailabilitySlotView>),
}

#[derive(ApiResponse)]
pub enum SlotsCreated {
    #[oai(status = 201)]
    Created(Json<Vec<AvailabilitySlotView>>),
}

pub(super) const DELETED: &str = "Availability slot deleted";

#[OpenApi(prefix_path = "/api", tag = "Tag::Availability")]
impl AvailabilityApi {
    /// The signed-in mentor's weekly windows, by day then start.
    #[oai(path = "/mentor/availability", method = "get", operation_id = "listAvailability")]
    async fn list(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<AvailabilitySlotView>>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        Ok(Json(
            weekly_windows::list(&state.pool, mentor.id)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// Adds a weekly window; overlapping windows of one day are refused.
    #[oai(path = "/mentor/availability", method = "post", operation_id = "addAvailability")]
    async fn add(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<NewAvailabilityRequest>,
    ) -> ApiResult<SlotCreated> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let day = body.day_of_week.unwrap_or(-1);
        let slot = weekly_windows::add(&state.pool, mentor.id, day, &body.start_time, &body.end_time).await?;
        Ok(SlotCreated::Created(Json(slot.into())))
    }

    /// Adds the same window on several days at once, all or none (an overlap refuses them all).
    #[oai(
        path = "/mentor/availability/bulk",
        method = "post",
        operation_id = "addAvailabilityBulk"
    )]
    async fn add_bulk(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<BulkAvailabilityRequest>,
    ) -> ApiResult<SlotsCreated> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let slots = weekly_windows::add_many(
            &state.pool,
            mentor.id,
            &body.days_of_week,
            &body.start_time,
            &body.end_time,
        )
        .await?;
        Ok(SlotsCreated::Created(Json(slots.into_iter().map(Into::into).collect())))
    }

    /// Switches a window Active or Inactive.
    #[oai(
        path = "/mentor/availability/:id",
        method = "put",
        operation_id = "setAvailabilityActive"
    )]
    async fn set_active(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<AvailabilityStatusRequest>,
    ) -> ApiResult<Json<AvailabilitySlotView>> {
        let id = parse_id(&id, weekly_windows::NOT_FOUND)?;
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        Ok(Json(
            weekly_windows::set_active(&state.pool, mentor.id, id, body.is_active)
                .await?
                .into(),
        ))
    }

    #[oai(
        path = "/mentor/availability/:id",
        method = "delete",
        operation_id = "deleteAvailability"
    )]
    async fn delete(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<MessageResponse>> {
        let id = parse_id(&id, weekly_windows::NOT_FOUND)?;
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        weekly_windows::delete(&state.pool, mentor.id, id).await?;
        Ok(Json(MessageResponse::new(DELETED)))
    }
}
