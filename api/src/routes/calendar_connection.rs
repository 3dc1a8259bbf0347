//! The mentor's own CalDAV calendar (issue 33 §1-3): connect, show, choose calendars, sync now,
//! disconnect. The rules live in `domain::calendars::connection`.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};
use uuid::Uuid;

use super::Tag;
use crate::views::{MessageResponse, parse_id};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::calendars::connection::{self, CalendarRow, ConnectInput, ConnectionState, ConnectionView};

pub struct CalendarConnectionApi;

pub(super) const DISCONNECTED: &str = "Calendar disconnected";

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ConnectCalendarRequest {
    /// The CalDAV address: the server's, the account's or a calendar's (https; see docs/calendars.md)
    #[oai(default)]
    pub url: String,
    #[oai(default)]
    pub username: String,
    /// An app password where the provider has them; stored encrypted, never shown again
    #[oai(default)]
    pub password: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ConnectedCalendarView {
    /// Our own id of the calendar
    pub id: Uuid,
    pub name: String,
    /// Its events make the mentor busy (slots overlapping them are not offered)
    pub blocks_slots: bool,
    /// Confirmed sessions are written into it (exactly one calendar, when any is writable)
    pub receives_bookings: bool,
    /// The account may write into it
    pub writable: bool,
}

impl From<CalendarRow> for ConnectedCalendarView {
    fn from(c: CalendarRow) -> Self {
        Self {
            id: c.id,
            name: c.name,
            blocks_slots: c.blocks_slots,
            receives_bookings: c.receives_bookings,
            writable: c.writable,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct CalendarConnectionView {
    /// ok, syncing (a sync is queued or running) or failing (the last sync failed; the busy times
    /// read before stay in force)
    pub state: ConnectionState,
    pub calendars: Vec<ConnectedCalendarView>,
    /// The last successful sync
    #[oai(nullable)]
    pub last_synced_at: Option<DateTime<Utc>>,
    /// What the server answered at the last failed sync (none while syncs succeed)
    #[oai(nullable)]
    pub error: Option<String>,
    /// Since when syncs fail
    #[oai(nullable)]
    pub failing_since: Option<DateTime<Utc>>,
    /// Failing for 24 hours or more: the dashboard flags it
    pub needs_attention: bool,
    pub url: String,
    pub username: String,
}

impl From<ConnectionView> for CalendarConnectionView {
    fn from(v: ConnectionView) -> Self {
        Self {
            state: v.state,
            calendars: v.calendars.into_iter().map(Into::into).collect(),
            last_synced_at: v.last_synced_at,
            error: v.error,
            failing_since: v.failing_since,
            needs_attention: v.needs_attention,
            url: v.url,
            username: v.username,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct UpdateConnectedCalendarRequest {
    /// Absent: unchanged
    pub blocks_slots: Option<bool>,
    /// true moves the receiving of bookings to this calendar (it must be writable); absent: unchanged
    pub receives_bookings: Option<bool>,
}

#[derive(ApiResponse)]
pub enum SyncQueued {
    /// The sync is queued; the connection shows `syncing` until it ran
    #[oai(status = 202)]
    Accepted(Json<CalendarConnectionView>),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Calendars")]
impl CalendarConnectionApi {
    /// The mentor's calendar connection; 404 when none is connected.
    #[oai(
        path = "/mentor/calendar-connection",
        method = "get",
        operation_id = "getCalendarConnection"
    )]
    async fn get(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<CalendarConnectionView>> {
        Ok(Json(
            connection::get(&state.pool, auth.0.user.id, Utc::now()).await?.into(),
        ))
    }

    /// Connects (or replaces) the mentor's CalDAV calendar: the server is asked for the user's
    /// calendars within 10 s. 400 'The calendar server refused these credentials.' for wrong
    /// credentials, 400 with what was found for an address that is unreachable or not CalDAV.
    #[oai(
        path = "/mentor/calendar-connection",
        method = "put",
        operation_id = "connectCalendar"
    )]
    async fn connect(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<ConnectCalendarRequest>,
    ) -> ApiResult<Json<CalendarConnectionView>> {
        let body = body.0;
        let input = ConnectInput {
            url: body.url,
            username: body.username,
            password: body.password,
        };
        let v = connection::connect(&state.pool, &state.config, auth.0.user.id, input, Utc::now()).await?;
        Ok(Json(v.into()))
    }

    /// Removes the connection and every busy time read from it.
    #[oai(
        path = "/mentor/calendar-connection",
        method = "delete",
        operation_id = "disconnectCalendar"
    )]
    async fn disconnect(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<MessageResponse>> {
        connection::disconnect(&state.pool, auth.0.user.id).await?;
        Ok(Json(MessageResponse::new(DISCONNECTED)))
    }

    /// One calendar's switches: `blocksSlots`, and `receivesBookings` (exactly one writable
    /// calendar receives bookings: switching it on here switches it off on the other).
    #[oai(
        path = "/mentor/calendar-connection/calendars/:id",
        method = "patch",
        operation_id = "updateConnectedCalendar"
    )]
    async fn update_calendar(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<UpdateConnectedCalendarRequest>,
    ) -> ApiResult<Json<CalendarConnectionView>> {
        let id = parse_id(&id, connection::CALENDAR_NOT_FOUND)?;
        let v = connection::update_calendar(
            &state.pool,
            auth.0.user.id,
            id,
            body.blocks_slots,
            body.receives_bookings,
            Utc::now(),
        )
        .await?;
        Ok(Json(v.into()))
    }

    /// 'Sync now': queues a sync of the busy times (also run every 5 minutes).
    #[oai(
        path = "/mentor/calendar-connection/sync",
        method = "post",
        operation_id = "syncCalendarConnection"
    )]
    async fn sync(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<SyncQueued> {
        let v = connection::request_sync(&state.pool, auth.0.user.id, Utc::now()).await?;
        Ok(SyncQueued::Accepted(Json(v.into())))
    }
}
