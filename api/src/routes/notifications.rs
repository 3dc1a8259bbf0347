use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{
    Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};
use uuid::Uuid;

use super::Tag;
use crate::views::{MessageResponse, parse_id};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::notifications::{self, Notification};

pub struct NotificationsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct NotificationView {
    pub id: Uuid,
    #[oai(rename = "type")]
    pub kind: notifications::Kind,
    pub title: String,
    pub message: String,
    pub is_read: bool,
    pub created_at: DateTime<Utc>,
    #[oai(nullable)]
    pub action_url: Option<String>,
}

impl From<Notification> for NotificationView {
    fn from(n: Notification) -> Self {
        Self {
            id: n.id,
            kind: n.kind,
            title: n.title,
            message: n.message,
            is_read: n.is_read,
            created_at: n.created_at,
            action_url: n.action_url,
        }
    }
}

#[derive(Object)]
pub(super) struct UnreadCount {
    pub count: i64,
}

#[derive(Object)]
pub(super) struct MarkedAllRead {
    pub message: String,
    pub count: i64,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Notifications")]
impl NotificationsApi {
    /// The user's latest notifications, newest first.
    #[oai(path = "/notifications", method = "get", operation_id = "listNotifications")]
    async fn list(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        limit: Query<Option<i64>>,
    ) -> ApiResult<Json<Vec<NotificationView>>> {
        Ok(Json(
            notifications::latest(&state.pool, auth.0.user.id, limit.0)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    #[oai(
        path = "/notifications/unread-count",
        method = "get",
        operation_id = "getUnreadNotificationCount"
    )]
    async fn unread_count(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<UnreadCount>> {
        Ok(Json(UnreadCount {
            count: notifications::unread_count(&state.pool, auth.0.user.id).await?,
        }))
    }

    #[oai(
        path = "/notifications/read-all",
        method = "put",
        operation_id = "markAllNotificationsRead"
    )]
    async fn read_all(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<MarkedAllRead>> {
        let count = notifications::mark_all_read(&state.pool, auth.0.user.id).await? as i64;
        Ok(Json(MarkedAllRead {
            message: "All notifications marked as read".into(),
            count,
        }))
    }

    #[oai(
        path = "/notifications/:id/read",
        method = "put",
        operation_id = "markNotificationRead"
    )]
    async fn read(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<NotificationView>> {
        let id = parse_id(&id, notifications::NOT_FOUND)?;
        Ok(Json(
            notifications::mark_read(&state.pool, auth.0.user.id, id).await?.into(),
        ))
    }

    #[oai(path = "/notifications/:id", method = "delete", operation_id = "deleteNotification")]
    async fn delete(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<MessageResponse>> {
        let id = parse_id(&id, notifications::NOT_FOUND)?;
        notifications::delete(&state.pool, auth.0.user.id, id).await?;
        Ok(Json(MessageResponse::new("Notification deleted")))
    }
}
