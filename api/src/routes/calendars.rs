//! Calendars outside the platform (issue 33): every user's private feed.

use chrono::Utc;
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json, payload::PlainText};

use super::Tag;
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::calendars::feed;

pub struct CalendarsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct CalendarFeedView {
    /// The private address of the user's calendar feed (`…/api/calendar/{token}.ics`): whoever has
    /// it can read the feed
    pub url: String,
}

#[derive(ApiResponse)]
pub enum FeedResponse {
    /// The user's sessions (last 30 and next 180 days) as iCalendar
    #[oai(status = 200, content_type = "text/calendar; charset=utf-8")]
    Ok(PlainText<String>, #[oai(header = "Cache-Control")] String),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Calendars")]
impl CalendarsApi {
    /// A calendar feed for any calendar app: `file` is `{token}.ics` from `GET /api/user/calendar-feed`.
    /// An unknown or rotated token answers 404.
    #[oai(path = "/calendar/:file", method = "get", operation_id = "calendarFeed")]
    async fn feed(&self, state: Data<&AppState>, file: Path<String>) -> ApiResult<FeedResponse> {
        let ics = feed::feed(&state.pool, &state.config, &file.0, Utc::now()).await?;
        Ok(FeedResponse::Ok(PlainText(ics), "private, no-store".into()))
    }

    /// The signed-in user's feed address (made on first request).
    #[oai(path = "/user/calendar-feed", method = "get", operation_id = "getCalendarFeed")]
    async fn url(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<CalendarFeedView>> {
        let url = feed::url(&state.pool, &state.config, auth.0.user.id).await?;
        Ok(Json(CalendarFeedView { url }))
    }

    /// A new feed address; the old one answers 404 from now on.
    #[oai(
        path = "/user/calendar-feed/rotate",
        method = "post",
        operation_id = "rotateCalendarFeed"
    )]
    async fn rotate(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<CalendarFeedView>> {
        let url = feed::rotate(&state.pool, &state.config, auth.0.user.id).await?;
        Ok(Json(CalendarFeedView { url }))
    }
}
