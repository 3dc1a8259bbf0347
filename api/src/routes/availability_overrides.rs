use chrono::Utc;
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};
use uuid::Uuid;

use super::Tag;
use crate::views::{MessageResponse, parse_id};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::{
    booking::{
        date_overrides::{self, Override},
        weekly_windows,
    },
    catalogue::mentors,
};

pub struct AvailabilityOverridesApi;

/// A day off, extra hours, or both, on one date of the mentor's calendar.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct DateOverrideView {
    pub id: Uuid,
    /// YYYY-MM-DD in the mentor's time zone
    pub date: String,
    /// The date's weekly windows are not offered
    pub is_day_off: bool,
    /// HH:MM, start of extra hours offered on that date
    #[oai(nullable)]
    pub start_time: Option<String>,
    /// HH:MM (24:00 is midnight at the end of the day)
    #[oai(nullable)]
    pub end_time: Option<String>,
}

impl From<Override> for DateOverrideView {
    fn from(o: Override) -> Self {
        Self {
            id: o.id,
            date: o.date.format("%Y-%m-%d").to_string(),
            is_day_off: o.is_day_off,
            start_time: o.start_minute.map(weekly_windows::format_time),
            end_time: o.end_minute.map(weekly_windows::format_time),
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct NewDateOverrideRequest {
    /// YYYY-MM-DD in the mentor's time zone, from today to 90 days ahead
    #[oai(default)]
    pub date: String,
    #[oai(default)]
    pub is_day_off: bool,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
}

#[derive(ApiResponse)]
pub enum OverrideCreated {
    #[oai(status = 201)]
    Created(Json<DateOverrideView>),
}

pub(super) const DELETED: &str = "Date override deleted";

#[OpenApi(prefix_path = "/api", tag = "Tag::Availability")]
impl AvailabilityOverridesApi {
    /// The signed-in mentor's date overrides from today (in their zone) on, by date.
    #[oai(
        path = "/mentor/availability/overrides",
        method = "get",
        operation_id = "listDateOverrides"
    )]
    async fn list(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<DateOverrideView>>> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let overrides = date_overrides::upcoming(&state.pool, mentor.id, &mentor.time_zone, Utc::now()).await?;
        Ok(Json(overrides.into_iter().map(Into::into).collect()))
    }

    /// Adds a day off, extra hours, or both on a date; existing bookings on it are kept.
    #[oai(
        path = "/mentor/availability/overrides",
        method = "post",
        operation_id = "addDateOverride"
    )]
    async fn add(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<NewDateOverrideRequest>,
    ) -> ApiResult<OverrideCreated> {
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        let created = date_overrides::add(
            &state.pool,
            mentor.id,
            &mentor.time_zone,
            &body.date,
            body.is_day_off,
            body.start_time.as_deref(),
            body.end_time.as_deref(),
            Utc::now(),
        )
        .await?;
        Ok(OverrideCreated::Created(Json(created.into())))
    }

    #[oai(
        path = "/mentor/availability/overrides/:id",
        method = "delete",
        operation_id = "deleteDateOverride"
    )]
    async fn delete(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<MessageResponse>> {
        let id = parse_id(&id, date_overrides::NOT_FOUND)?;
        let mentor = mentors::own(&state.pool, auth.0.user.id).await?;
        date_overrides::delete(&state.pool, mentor.id, id).await?;
        Ok(Json(MessageResponse::new(DELETED)))
    }
}
