use poem::web::Data;
use poem_openapi::{ApiResponse, Object, OpenApi, payload::Json};

use super::Tag;
use crate::{error::ErrorBody, state::AppState};

pub struct HealthApi;

#[derive(Object)]
pub struct HealthStatus {
    /// "ok"
    pub status: String,
}

#[derive(ApiResponse)]
pub enum HealthResponse {
    /// The database answers
    #[oai(status = 200)]
    Ok(Json<HealthStatus>),
    /// The database does not answer
    #[oai(status = 503)]
    Unavailable(Json<ErrorBody>),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Health")]
impl HealthApi {
    /// Whether the api and its database answer.
    #[oai(path = "/health", method = "get", operation_id = "getHealth")]
    async fn health(&self, state: Data<&AppState>) -> HealthResponse {
        let ping = tokio::time::timeout(
            std::time::Duration::from_secs(3),
            sqlx::query_scalar::<_, i32>("SELECT 1").fetch_one(&state.pool),
        )
        .await;
        match ping {
            Ok(Ok(_)) => HealthResponse::Ok(Json(HealthStatus { status: "ok".into() })),
            _ => HealthResponse::Unavailable(Json(ErrorBody { message: "Database unavailable".into() })),
        }
    }
}
