//! The admins' contact inbox: what visitors and users sent through the contact form (reports of
//! issues among them), open until an admin marks a message answered (audited).

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};

use crate::views::parse_id;
use crate::{auth::SessionAuth, error::ApiResult, routes::Tag, state::AppState};
use domain::choice::Choice;
use domain::contact::{
    ContactCategory,
    inbox::{self, InboxMessage, Status},
};

pub struct AdminContactApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(crate) struct ContactMessageView {
    pub id: String,
    /// The signed-in user who sent it, if any
    #[oai(nullable)]
    pub user_id: Option<String>,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub category: ContactCategory,
    /// The category as the form shows it ('Report an Issue')
    pub category_label: String,
    pub message: String,
    pub status: Status,
    pub created_at: DateTime<Utc>,
    #[oai(nullable)]
    pub answered_at: Option<DateTime<Utc>>,
}

impl From<InboxMessage> for ContactMessageView {
    fn from(m: InboxMessage) -> Self {
        Self {
            status: m.status(),
            id: m.id.to_string(),
            user_id: m.user_id.map(|u| u.to_string()),
            category_label: m.category.label().to_string(),
            name: m.name,
            email: m.email,
            subject: m.subject,
            category: m.category,
            message: m.message,
            created_at: m.created_at,
            answered_at: m.answered_at,
        }
    }
}

#[OpenApi(prefix_path = "/api/admin", tag = "Tag::Admin")]
impl AdminContactApi {
    /// Contact messages, newest first, optionally only open or answered ones.
    #[oai(path = "/contact-messages", method = "get", operation_id = "listContactMessages")]
    async fn list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        status: Query<Option<Choice<Status>>>,
    ) -> ApiResult<Json<Vec<ContactMessageView>>> {
        auth.admin()?;
        let status = status.0.map(|s| s.value(inbox::INVALID_STATUS)).transpose()?;
        Ok(Json(
            inbox::list(&state.pool, status)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// Marks a message answered (409 when it already is).
    #[oai(
        path = "/contact-messages/:id/answered",
        method = "post",
        operation_id = "markContactMessageAnswered"
    )]
    async fn answered(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<ContactMessageView>> {
        let admin = auth.admin()?;
        let id = parse_id(&id, inbox::NOT_FOUND)?;
        Ok(Json(inbox::mark_answered(&state.pool, admin.user.id, id).await?.into()))
    }
}
