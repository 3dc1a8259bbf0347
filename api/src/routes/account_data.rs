//! People own their account (issue 35): a copy of their data, and deleting the account with a
//! grace period in which they can keep it.

use chrono::{DateTime, Utc};
use poem::{
    Request,
    web::{Data, cookie::CookieJar},
};
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::Path,
    payload::{Binary, Json},
};
use uuid::Uuid;

use super::Tag;
use crate::views::{UserView, parse_id};
use crate::{
    auth::{SessionAuth, clear_session_cookie},
    error::ApiResult,
    state::AppState,
};
use domain::booking::jobs as booking_events;
use domain::{
    accounts::users,
    ownership::{
        data_export::{self, DataExport, ExportStatus},
        deletion,
    },
};

pub struct AccountDataApi;

/// One copy of the user's data: being built, ready to download (until `expiresAt`), expired or failed.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct DataExportView {
    pub id: Uuid,
    pub status: ExportStatus,
    pub created_at: DateTime<Utc>,
    /// Until when a ready archive can be downloaded (7 days after it was built); null while pending.
    #[oai(nullable)]
    pub expires_at: Option<DateTime<Utc>>,
}

impl From<DataExport> for DataExportView {
    fn from(e: DataExport) -> Self {
        DataExportView {
            id: e.id,
            status: e.status,
            created_at: e.created_at,
            expires_at: e.expires_at,
        }
    }
}

/// The export asked for: being built.
#[derive(Object)]
pub struct DataExportRequested {
    pub id: Uuid,
    pub status: ExportStatus,
}

#[derive(ApiResponse)]
pub enum ExportAccepted {
    /// Being built: the user is notified and e-mailed when it is ready
    #[oai(status = 202)]
    Accepted(Json<DataExportRequested>),
}

#[derive(ApiResponse)]
pub enum ZipResponse {
    /// The archive
    #[oai(status = 200, content_type = "application/zip")]
    Ok(Binary<Vec<u8>>, #[oai(header = "Content-Disposition")] String),
}

#[derive(Object)]
pub(super) struct DeleteAccountRequest {
    /// The account's password, to confirm.
    #[oai(default)]
    pub password: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct DeletionScheduledView {
    /// When the account will be removed (14 days from now); until then signing in and
    /// `POST /api/user/cancel-deletion` keep it.
    pub deletion_scheduled_at: DateTime<Utc>,
}

#[derive(ApiResponse)]
pub enum DeletionAccepted {
    /// Scheduled: the user is signed out everywhere, their upcoming sessions are cancelled
    #[oai(status = 202)]
    Accepted(Json<DeletionScheduledView>),
}

#[OpenApi(prefix_path = "/api/user", tag = "Tag::Accounts")]
impl AccountDataApi {
    /// Asks for a copy of the user's data. A job builds a zip of JSON files and their uploads;
    /// once a day at most (429 `rate_limited` for a second request within 24 hours).
    #[oai(path = "/data-export", method = "post", operation_id = "requestDataExport")]
    async fn request_export(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<ExportAccepted> {
        let mut tx = state.pool.begin().await?;
        let export = data_export::request(&mut tx, auth.0.user.id, Utc::now()).await?;
        tx.commit().await?;
        Ok(ExportAccepted::Accepted(Json(DataExportRequested {
            id: export.id,
            status: export.status,
        })))
    }

    /// The user's data exports, newest first.
    #[oai(path = "/data-exports", method = "get", operation_id = "listDataExports")]
    async fn list_exports(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<DataExportView>>> {
        let list = data_export::list(&state.pool, auth.0.user.id).await?;
        Ok(Json(list.into_iter().map(Into::into).collect()))
    }

    /// Downloads a ready export (its owner only: 404 to anyone else); 410 `gone` once its 7 days
    /// are over, 409 while it is being built.
    #[oai(
        path = "/data-exports/:id/download",
        method = "get",
        operation_id = "downloadDataExport"
    )]
    async fn download(&self, state: Data<&AppState>, auth: SessionAuth, id: Path<String>) -> ApiResult<ZipResponse> {
        let id = parse_id(&id, data_export::NOT_FOUND)?;
        let path =
            data_export::download_path(&state.pool, &state.config.export_dir, auth.0.user.id, id, Utc::now()).await?;
        let bytes = match tokio::fs::read(&path).await {
            Ok(bytes) => bytes,
            // Deleted by the cleanup between the check and the read.
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(domain::Error::Gone(data_export::EXPIRED.into()).into());
            }
            Err(e) => return Err(domain::Error::Internal(anyhow::anyhow!("reading export {id}: {e}")).into()),
        };
        let name = format!(
            "attachment; filename=\"mystic-mentors-data-{}.zip\"",
            Utc::now().format("%Y-%m-%d")
        );
        Ok(ZipResponse::Ok(Binary(bytes), name))
    }

    /// Schedules the account's deletion 14 days ahead, on the password (400 'Incorrect password.').
    /// At once: every session and socket of the user ends, upcoming bookings are cancelled (the
    /// user's own by the cancellation policy; a mentor's with full refunds), holds are released
    /// and a mentor profile is unlisted; the user is e-mailed the date.
    #[oai(path = "/delete-account", method = "post", operation_id = "deleteAccount")]
    async fn delete_account(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        req: &Request,
        jar: &CookieJar,
        body: Json<DeleteAccountRequest>,
    ) -> ApiResult<DeletionAccepted> {
        let me = auth.0.user.id;
        let now = Utc::now();
        let mut tx = state.pool.begin().await?;
        let done = deletion::schedule(&mut tx, me, &body.password, now).await?;
        for c in &done.cancelled {
            let by_mentor = c.booking.user_id != me;
            booking_events::cancelled(&mut tx, &c.booking, c.refund, c.policy.amount_cents, by_mentor).await?;
        }
        for &id in &done.group_sessions {
            domain::group_calls::room::announce(
                &mut tx,
                state.janus.as_ref(),
                id,
                domain::group_sessions::GroupStatus::Cancelled,
                now,
            )
            .await?;
        }
        tx.commit().await?;
        clear_session_cookie(jar, req, &state);
        Ok(DeletionAccepted::Accepted(Json(DeletionScheduledView {
            deletion_scheduled_at: done.at,
        })))
    }

    /// 'Keep my account': calls off the scheduled deletion; a mentor profile is listed again as it
    /// was. 409 when no deletion is scheduled.
    #[oai(path = "/cancel-deletion", method = "post", operation_id = "cancelAccountDeletion")]
    async fn cancel_deletion(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<UserView>> {
        let me = auth.0.user.id;
        let mut tx = state.pool.begin().await?;
        deletion::cancel(&mut tx, me).await?;
        tx.commit().await?;
        let user = users::find(&state.pool, me)
            .await?
            .ok_or_else(crate::error::ApiError::unauthorized)?;
        Ok(Json(user.into()))
    }
}
