//! Reports of abuse: any signed-in user reports what they can see (`POST /api/reports`); admins
//! list, resolve (hiding a review or message, deactivating a user) or dismiss them.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};

use crate::views::parse_id;
use crate::{auth::SessionAuth, error::ApiResult, routes::Tag, state::AppState};
use domain::{
    choice::Choice,
    report_context::{self, Context, Person},
    reports::{self, Action, NewReport, Reason, Report, Status, TargetType},
};

pub struct ReportsApi;
pub struct AdminReportsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ReportRequest {
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
    /// The outcome in words: Open, Dismissed, Review hidden, Message hidden, User deactivated or
    /// Resolved without action
    pub outcome: String,
    /// Who reported it (admin answers only)
    #[oai(skip_serializing_if_is_none)]
    pub reporter: Option<ReportPersonView>,
    /// What was reported, as it is now (admin answers only; absent when it is gone)
    #[oai(skip_serializing_if_is_none)]
    pub target: Option<ReportTargetView>,
    /// Earlier reports on the same thing by anyone, newest first (admin answers only)
    #[oai(skip_serializing_if_is_none)]
    pub earlier_reports: Option<Vec<EarlierReportView>>,
}

/// A member in an admin's report.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReportPersonView {
    pub id: String,
    pub name: String,
    pub email: String,
    pub is_active: bool,
}

impl From<Person> for ReportPersonView {
    fn from(p: Person) -> Self {
        Self {
            id: p.id.to_string(),
            name: p.name,
            email: p.email,
            is_active: p.is_active,
        }
    }
}

/// One line of a reported message's conversation.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReportConversationLine {
    pub id: String,
    pub sender_id: String,
    pub sender_name: String,
    pub content: String,
    pub sent_at: DateTime<Utc>,
    /// Already hidden from everyone
    pub hidden: bool,
    /// This is the reported message
    pub reported: bool,
}

/// The reported thing.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ReportTargetView {
    /// One line naming it: 'Review of Luna Starling by Ann Lee'
    pub summary: String,
    /// The site's page showing it (a path), when there is one
    #[oai(nullable)]
    pub link: Option<String>,
    /// Who wrote it, or whose it is (a profile, a group session)
    #[oai(nullable)]
    pub author: Option<ReportPersonView>,
    /// Whom it is about or addressed to (a review's mentor, a message's other party)
    #[oai(nullable)]
    pub about: Option<ReportPersonView>,
    /// A review's comment, a message's content, a profile's bio, a session's description
    #[oai(nullable)]
    pub text: Option<String>,
    /// A review's stars (1 to 5)
    #[oai(nullable)]
    pub rating: Option<i16>,
    /// Already hidden from everyone (a review or message)
    pub hidden: bool,
    /// A group session's start
    #[oai(nullable)]
    pub scheduled_at: Option<DateTime<Utc>>,
    /// A message's conversation, oldest first, ending with the reported message (at most 5 lines)
    pub conversation: Vec<ReportConversationLine>,
}

/// An earlier report on the same thing.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct EarlierReportView {
    pub id: String,
    pub reason: Reason,
    pub status: Status,
    /// The outcome in words, as on the report itself
    pub outcome: String,
    pub created_at: DateTime<Utc>,
}

impl ReportView {
    /// The admin's view: the report with what was reported, by whom, and the earlier reports.
    fn with_context(r: Report, c: Context) -> Self {
        let reported = r.target_id;
        let mut view = Self::from(r);
        view.reporter = c.reporter.map(Into::into);
        view.target = c.target.map(|t| ReportTargetView {
            summary: t.summary,
            link: t.link,
            author: t.author.map(Into::into),
            about: t.about.map(Into::into),
            text: t.text,
            rating: t.rating,
            hidden: t.hidden,
            scheduled_at: t.scheduled_at,
            conversation: t
                .conversation
                .into_iter()
                .map(|l| ReportConversationLine {
                    id: l.id.to_string(),
                    sender_id: l.sender_id.to_string(),
                    sender_name: l.sender_name,
                    content: l.content,
                    sent_at: l.sent_at,
                    hidden: l.hidden,
                    reported: l.id == reported,
                })
                .collect(),
        });
        view.earlier_reports = Some(
            c.earlier
                .into_iter()
                .map(|e| EarlierReportView {
                    id: e.id.to_string(),
                    reason: e.reason,
                    status: e.status,
                    outcome: report_context::outcome(e.status, e.action).to_string(),
                    created_at: e.created_at,
                })
                .collect(),
        );
        view
    }
}

async fn admin_view(state: &AppState, r: Report) -> ApiResult<ReportView> {
    let context = report_context::of(&state.pool, &r).await?;
    Ok(ReportView::with_context(r, context))
}

impl From<Report> for ReportView {
    fn from(r: Report) -> Self {
        Self {
            outcome: report_context::outcome(r.status, r.action).to_string(),
            reporter: None,
            target: None,
            earlier_reports: None,
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
pub(super) struct ResolveReportRequest {
    pub action: Option<Choice<Action>>,
    /// Up to 1000 characters
    pub note: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct DismissReportRequest {
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
    /// Reports, newest first, optionally of one status, each with what was reported (a review's text
    /// and rating, a message with the last lines of its conversation, a profile, a group session),
    /// who wrote it and about whom, who reported it and the earlier reports on the same thing.
    #[oai(path = "/reports", method = "get", operation_id = "listReports")]
    async fn list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        status: Query<Option<Choice<Status>>>,
    ) -> ApiResult<Json<Vec<ReportView>>> {
        auth.admin()?;
        let status = status.0.map(|s| s.value(reports::INVALID_STATUS)).transpose()?;
        let mut views = Vec::new();
        for r in reports::list(&state.pool, status).await? {
            views.push(admin_view(&state, r).await?);
        }
        Ok(Json(views))
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
        Ok(Json(admin_view(&state, r).await?))
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
        let r = reports::dismiss(&state.pool, admin.user.id, id, body.note.as_deref()).await?;
        Ok(Json(admin_view(&state, r).await?))
    }
}
