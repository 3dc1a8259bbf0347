use poem_openapi::{OpenApi, payload::Json};

use super::{Tag, views::MessageResponse};
use crate::{auth::SessionAuth, error::{ApiError, ApiResult}};

pub struct MentorProfileApi;

pub const NOT_A_MENTOR: &str = "Mentor profile not found";

#[OpenApi(prefix_path = "/api", tag = "Tag::Mentors")]
impl MentorProfileApi {
    /// The signed-in user's mentor profile; 404 when the user is not a mentor.
    #[oai(path = "/mentor/profile", method = "get", operation_id = "getMentorProfile")]
    async fn profile(&self, _auth: SessionAuth) -> ApiResult<Json<MessageResponse>> {
        // Mentor profiles arrive with the catalogue; until then nobody is a mentor.
        Err(ApiError::not_found(NOT_A_MENTOR))
    }
}
