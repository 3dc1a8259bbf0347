//! Announcements from the admins to every active user of an audience: stored and queued at once
//! (202); the worker writes the notifications in batches (`jobs::announcement_fanout`).

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, payload::Json};

use crate::{auth::SessionAuth, error::ApiResult, routes::Tag, state::AppState};
use domain::{
    announcements::{self, Announce, Announcement, Audience},
    choice::Choice,
    job_queue::Job,
};

pub struct AdminAnnouncementsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(crate) struct AnnouncementRequest {
    /// all, seekers (users who are neither mentors nor admins) or mentors
    pub audience: Option<Choice<Audience>>,
    /// 1 to 100 characters
    #[oai(default)]
    pub title: String,
    /// 1 to 1000 characters
    #[oai(default)]
    pub message: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct AnnouncementView {
    pub id: String,
    pub audience: Audience,
    pub title: String,
    pub message: String,
    pub created_at: DateTime<Utc>,
    /// Users whose notification has been written so far
    pub delivered_count: i64,
    /// When every user of the audience had theirs; null while delivery runs
    #[oai(nullable)]
    pub completed_at: Option<DateTime<Utc>>,
}

impl From<Announcement> for AnnouncementView {
    fn from(a: Announcement) -> Self {
        Self {
            id: a.id.to_string(),
            audience: a.audience,
            title: a.title,
            message: a.message,
            created_at: a.created_at,
            delivered_count: a.delivered_count.into(),
            completed_at: a.completed_at,
        }
    }
}

#[derive(ApiResponse)]
pub enum AnnouncementQueued {
    /// Stored; the worker delivers it
    #[oai(status = 202)]
    Accepted(Json<AnnouncementView>),
}

#[OpenApi(prefix_path = "/api/admin", tag = "Tag::Admin")]
impl AdminAnnouncementsApi {
    /// Sends a system announcement to every active user of the audience (delivered by the worker).
    #[oai(path = "/announcements", method = "post", operation_id = "createAnnouncement")]
    async fn create(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<AnnouncementRequest>,
    ) -> ApiResult<AnnouncementQueued> {
        let admin = auth.admin()?;
        let mut tx = state.pool.begin().await?;
        let a = announcements::create(
            &mut tx,
            admin.user.id,
            body.audience.as_ref().map_or("", Choice::sent),
            &body.title,
            &body.message,
        )
        .await?;
        Announce { announcement_id: a.id }.enqueue(&mut tx).await?;
        tx.commit().await?;
        Ok(AnnouncementQueued::Accepted(Json(a.into())))
    }

    /// Every announcement, newest first, with how many users have it so far.
    #[oai(path = "/announcements", method = "get", operation_id = "listAnnouncements")]
    async fn list(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<AnnouncementView>>> {
        auth.admin()?;
        Ok(Json(
            announcements::list(&state.pool)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }
}
