//! Mentors online (issue 36, §2): a mentor sets their presence; anyone reads the presence of the
//! mentors a page shows (visitors poll this every 15 seconds; signed-in pages watch over the socket).

use chrono::Utc;
use poem::web::Data;
use poem_openapi::{Object, OpenApi, param::Query, payload::Json};
use uuid::Uuid;

use super::Tag;
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::presence::{self, Presence};

pub struct PresenceApi;

#[derive(Object)]
pub(super) struct PresenceRequest {
    /// available or offline
    pub status: Option<String>,
}

#[derive(Object)]
pub(super) struct PresenceView {
    pub status: Presence,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct MentorPresenceView {
    pub mentor_id: Uuid,
    pub status: Presence,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Mentors")]
impl PresenceApi {
    /// The signed-in mentor goes online (`available`: needs a per-minute rate, an open socket and no
    /// booked session within 15 minutes; 409 otherwise) or offline.
    #[oai(path = "/mentor/presence", method = "put", operation_id = "setMentorPresence")]
    async fn set(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<PresenceRequest>,
    ) -> ApiResult<Json<PresenceView>> {
        let mut tx = state.pool.begin().await?;
        let status = presence::set(&mut tx, auth.0.user.id, body.0.status.as_deref(), Utc::now()).await?;
        tx.commit().await?;
        Ok(Json(PresenceView { status }))
    }

    /// The presence of each mentor named (`ids`: at most 100, separated by commas), now.
    #[oai(path = "/mentors/presence", method = "get", operation_id = "getMentorsPresence")]
    async fn of_mentors(
        &self,
        state: Data<&AppState>,
        ids: Query<Option<String>>,
    ) -> ApiResult<Json<Vec<MentorPresenceView>>> {
        let ids = presence::parse_ids(ids.0.as_deref().unwrap_or(""))?;
        let now = presence::of_mentors(&state.pool, &ids).await?;
        Ok(Json(
            ids.into_iter()
                .map(|mentor_id| MentorPresenceView {
                    mentor_id,
                    status: now.get(&mentor_id).copied().unwrap_or(Presence::Offline),
                })
                .collect(),
        ))
    }
}
