//! Entering a group session's call: ids, ICE servers and members, only for its mentor and its
//! seated participants who were not removed, only while it is live. The call itself is signalled
//! over `/api/ws` (realtime::seats); browsers get nothing for Janus's API.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{Object, OpenApi, param::Path, payload::Json};
use uuid::Uuid;

use super::{Tag, rtc::IceServerView};
use crate::views::parse_id;
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::{
    calls::ice_servers,
    group_calls::{
        access::{self, Role},
        room,
    },
    group_sessions::GroupStatus,
};

pub struct GroupCallsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct CallMemberView {
    /// The member's user id (what moderation events name)
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
    /// Their publisher id in the Janus room (to match a video feed to a member)
    pub janus_id: u64,
    pub is_mentor: bool,
    /// The mentor muted them: they stay muted (their microphone cannot be turned on) until unmuted
    pub is_muted_by_mentor: bool,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct GroupCallView {
    pub group_session_id: Uuid,
    pub title: String,
    pub status: GroupStatus,
    pub scheduled_at: DateTime<Utc>,
    pub ends_at: DateTime<Utc>,
    pub role: Role,
    pub mentor_user_id: Uuid,
    pub mentor_name: String,
    pub room_id: u64,
    /// The caller's publisher id in the room (the api joins them under it; nobody else can)
    pub participant_id: u64,
    /// The call may run until then (the session's end plus half an hour)
    pub expires_at: DateTime<Utc>,
    pub ice_servers: Vec<IceServerView>,
    /// The mentor and the participants (who may be in the call, not who is in it now)
    pub members: Vec<CallMemberView>,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Messaging")]
impl GroupCallsApi {
    /// What a page needs to enter a live group session's call over `/api/ws` (no Janus token: only
    /// the api talks to Janus) (mentor and seated participants only; 403 for
    /// anyone else or a removed participant; 409 when the session is not live; 503 without Janus).
    #[oai(path = "/group-sessions/:id/call", method = "get", operation_id = "getGroupCall")]
    async fn call(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<GroupCallView>> {
        let id = parse_id(&id, access::NOT_FOUND)?;
        let user = auth.0.user.id;
        let now = Utc::now();
        let mut conn = state.pool.acquire().await?;
        let a = room::access(&mut conn, state.janus.as_ref(), id, user, now).await?;
        let ice = ice_servers::for_user(&state.config.rtc, user, now);
        Ok(Json(GroupCallView {
            group_session_id: a.session.id,
            title: a.session.title,
            status: a.session.status,
            scheduled_at: a.session.scheduled_at,
            ends_at: a.session.ends_at,
            role: a.role,
            mentor_user_id: a.session.mentor_user_id,
            mentor_name: a.session.mentor_name,
            room_id: a.room_id,
            participant_id: a.participant_id,
            expires_at: a.expires_at,
            ice_servers: ice
                .into_iter()
                .map(|s| IceServerView {
                    urls: s.urls,
                    username: s.username,
                    credential: s.credential,
                })
                .collect(),
            members: a
                .members
                .into_iter()
                .map(|m| CallMemberView {
                    janus_id: domain::group_calls::ids::participant_id(m.user_id),
                    id: m.user_id,
                    first_name: m.first_name,
                    last_name: m.last_name,
                    profile_image_url: m.profile_image_url,
                    is_mentor: m.is_mentor,
                    is_muted_by_mentor: m.is_muted,
                })
                .collect(),
        }))
    }
}
