//! Reports of abuse: any signed-in user reports what they can see (`POST /api/reports`); admins
//! list, resolve (hiding a review or message, deactivating a user) or dismiss them.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};

use crate::{
    auth::SessionAuth,
    error::ApiResult,
    routes::{Tag, views::parse_id},
    state::AppState,
};
use domain::{
    choice::Choice,
    reports::{self, Action, NewReport, Reason, Report, Status, TargetType},
};

pub struct ReportsApi;
pub struct AdminReportsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReportRequest {
    /// mentor (the mentor's id), user, message, review or group_session
    pub target_type: Option<Choice<TargetType>>,
    #[oai(default)]
    pub target_id: String,
    /// harassment, scam_or_fraud, inappropriate_content, no_show or other
    pub reason: Option<Choice<Reason>>,
    /// Up to 2000 characters; required when the reason is other
    pub details: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReportView {
    pub id: String,
    pub target_type: TargetType,
    pub target_id: String,
    pub reason: Reason,
    #[oai(nullable)]
    pub details: Option<String>,
    pub status: Status,
    /// What the admin did when resolving
    #[oai(nullable)]
    pub action: Option<Action>,
    #[oai(nullable)]
    pub note: Option<String>,
    pub reporter_id: String,
    pub created_at: DateTime<Utc>,
    #[oai(nullable)]
    pub handled_at: Option<DateTime<Utc>>,
}

impl From<Report> for ReportView {
    fn from(r: Report) -> Self {
        Self {
            id: r.id.to_string(),
            target_type: r.target_type,
            target_id: r.target_id.to_string(),
            reason: r.reason,
            details: r.details,
            status: r.status,
            action: r.action,
            note: r.note,
            reporter_id: r.reporter_id.to_string(),
            created_at: r.created_at,
            handled_at: r.handled_at,
        }
    }
}

#[derive(ApiResponse)]
pub enum ReportCreated {
    /// Received; an admin will look at it
    #[oai(status = 201)]
    Created(Json<ReportView>),
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ResolveReportRequest {
    pub action: Option<Choice<Action>>,
    /// Up to 1000 characters
    pub note: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct DismissReportRequest {
    /// Up to 1000 characters
    pub note: Option<String>,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Support")]
impl ReportsApi {
    /// Reports a mentor, user, message, review or group session the signed-in user can see.
    #[oai(path = "/reports", method = "post", operation_id = "createReport")]
    async fn create(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<ReportRequest>,
    ) -> ApiResult<ReportCreated> {
        let input = NewReport {
            target_type: body.target_type.as_ref(),
            target_id: &body.target_id,
            reason: body.reason.as_ref(),
            details: body.details.as_deref(),
        };
        let report = reports::create(&state.pool, auth.0.user.id, input).await?;
        Ok(ReportCreated::Created(Json(report.into())))
    }
}

#[OpenApi(prefix_path = "/api/admin", tag = "Tag::Admin")]
impl AdminReportsApi {
    /// Reports, newest first, optionally of one status.
    #[oai(path = "/reports", method = "get", operation_id = "listReports")]
    async fn list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        status: Query<Option<Choice<Status>>>,
    ) -> ApiResult<Json<Vec<ReportView>>> {
        auth.admin()?;
        let status = status.0.map(|s| s.value(reports::INVALID_STATUS)).transpose()?;
        Ok(Json(
            reports::list(&state.pool, status)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// Resolves an open report with an action (a hidden review or message disappears for everyone).
    #[oai(path = "/reports/:id/resolve", method = "post", operation_id = "resolveReport")]
    async fn resolve(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<ResolveReportRequest>,
    ) -> ApiResult<Json<ReportView>> {
        let admin = auth.admin()?;
        let id = parse_id(&id, reports::NOT_FOUND)?;
        let r = reports::resolve(
            &state.pool,
            admin.user.id,
            id,
            body.action.as_ref(),
            body.note.as_deref(),
        )
        .await?;
        Ok(Json(r.into()))
    }

    /// Dismisses an open report.
    #[oai(path = "/reports/:id/dismiss", method = "post", operation_id = "dismissReport")]
    async fn dismiss(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<DismissReportRequest>,
    ) -> ApiResult<Json<ReportView>> {
        let admin = auth.admin()?;
        let id = parse_id(&id, reports::NOT_FOUND)?;
        Ok(Json(
            reports::dismiss(&state.pool, admin.user.id, id, body.note.as_deref())
                .await?
                .into(),
        ))
    }
}
