//! What the public pages say about the platform that belongs to its settings, not to the web
//! build: the support and privacy addresses and the platform's fee.

use poem::web::Data;
use poem_openapi::{Object, OpenApi, payload::Json};

use super::Tag;
use crate::state::AppState;
use domain::payments::fees::PLATFORM_FEE_PERCENT;

pub struct SiteInfoApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct SiteInfo {
    /// SUPPORT_EMAIL
    pub support_email: String,
    /// PRIVACY_EMAIL
    pub privacy_email: String,
    /// The share of each completed session the platform keeps
    pub platform_fee_percent: i64,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Health")]
impl SiteInfoApi {
    /// The platform's contact addresses and fee, for the public pages.
    #[oai(path = "/site-info", method = "get", operation_id = "getSiteInfo")]
    async fn site_info(&self, state: Data<&AppState>) -> Json<SiteInfo> {
        Json(SiteInfo {
            support_email: state.config.support_email.clone(),
            privacy_email: state.config.privacy_email.clone(),
            platform_fee_percent: PLATFORM_FEE_PERCENT,
        })
    }
}
