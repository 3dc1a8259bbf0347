use chrono::Utc;
use poem::web::Data;
use poem_openapi::{Object, OpenApi, payload::Json};

use super::Tag;
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::calls::ice_servers;

pub struct RtcApi;

#[derive(Object)]
pub(super) struct IceServerView {
    pub urls: Vec<String>,
    #[oai(skip_serializing_if_is_none)]
    pub username: Option<String>,
    #[oai(skip_serializing_if_is_none)]
    pub credential: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct RtcConfig {
    pub ice_servers: Vec<IceServerView>,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Messaging")]
impl RtcApi {
    /// The ICE servers for a one-to-one call, with TURN credentials that expire.
    #[oai(path = "/rtc/config", method = "get", operation_id = "getRtcConfig")]
    async fn config(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<RtcConfig>> {
        let servers = ice_servers::for_user(&state.config.rtc, auth.0.user.id, Utc::now());
        Ok(Json(RtcConfig {
            ice_servers: servers
                .into_iter()
                .map(|s| IceServerView {
                    urls: s.urls,
                    username: s.username,
                    credential: s.credential,
                })
                .collect(),
        }))
    }
}
