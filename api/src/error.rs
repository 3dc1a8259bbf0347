//! Every failure becomes a status with `{"message": ...}`; internals are logged, never shown.

use poem::{Response, http::StatusCode};
use poem_openapi::{ApiResponse, Object, payload::Json};

#[derive(Object, Debug, Clone)]
pub struct ErrorBody {
    pub message: String,
}

pub const INTERNAL_ERROR: &str = "Something went wrong. Please try again later.";
pub const UNAUTHORIZED: &str = "Unauthorized";
pub const SERVICE_UNAVAILABLE: &str = "The service is temporarily unavailable. Please try again shortly.";

#[derive(ApiResponse, Debug)]
pub enum ApiError {
    /// Invalid input
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// Not signed in
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// Not allowed
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// No such thing
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Conflicts with the current state
    #[oai(status = 409)]
    Conflict(Json<ErrorBody>),
    /// Too many requests
    #[oai(status = 429)]
    TooManyRequests(Json<ErrorBody>),
    /// Unexpected failure
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    /// The database does not answer; try again shortly
    #[oai(status = 503)]
    ServiceUnavailable(Json<ErrorBody>),
}

fn body(message: impl Into<String>) -> Json<ErrorBody> {
    Json(ErrorBody { message: message.into() })
}

impl ApiError {
    pub fn unauthorized() -> Self {
        Self::Unauthorized(body(UNAUTHORIZED))
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(body(message))
    }
    fn unavailable(err: &sqlx::Error) -> Self {
        tracing::warn!(error = %err, "database unavailable");
        Self::ServiceUnavailable(body(SERVICE_UNAVAILABLE))
    }
}

impl From<domain::Error> for ApiError {
    fn from(err: domain::Error) -> Self {
        use domain::Error as E;
        match err {
            E::Validation(m) => Self::BadRequest(body(m)),
            E::Unauthorized(m) => Self::Unauthorized(body(m)),
            E::Forbidden(m) => Self::Forbidden(body(m)),
            E::NotFound(m) => Self::NotFound(body(m)),
            E::Conflict(m) => Self::Conflict(body(m)),
            E::TooManyRequests(m) => Self::TooManyRequests(body(m)),
            E::Unavailable(e) => Self::unavailable(&e),
            E::Internal(e) => match e.chain().find_map(|cause| cause.downcast_ref::<sqlx::Error>()) {
                Some(db) if domain::error::is_outage(db) => Self::unavailable(db),
                _ => {
                    tracing::error!(error = %format!("{e:#}"), "request failed");
                    Self::Internal(body(INTERNAL_ERROR))
                }
            },
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> Self {
        domain::Error::from(err).into()
    }
}

pub type ApiResult<T> = Result<T, ApiError>;

/// A JSON error response for errors raised outside our handlers (bad JSON, unknown paths, ...).
pub fn json_response(status: StatusCode, message: &str) -> Response {
    let text = serde_json::json!({ "message": message }).to_string();
    Response::builder().status(status).content_type("application/json; charset=utf-8").body(text)
}

/// Rewrites any error that is not already ours into `{"message": ...}`.
pub async fn normalize(err: poem::Error) -> Response {
    if err.is_from_response() {
        return err.into_response();
    }
    let status = err.status();
    let message = match status {
        StatusCode::BAD_REQUEST => bad_request_text(&err.to_string()),
        StatusCode::UNAUTHORIZED => UNAUTHORIZED.to_string(),
        StatusCode::FORBIDDEN => "Forbidden".to_string(),
        StatusCode::NOT_FOUND => "Not found".to_string(),
        StatusCode::METHOD_NOT_ALLOWED => "Method not allowed".to_string(),
        StatusCode::PAYLOAD_TOO_LARGE => "Request body is too large".to_string(),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => "Unsupported content type; send JSON".to_string(),
        s if s.is_server_error() => {
            tracing::error!(error = %err, "request failed");
            INTERNAL_ERROR.to_string()
        }
        s => s.canonical_reason().unwrap_or("Request failed").to_string(),
    };
    json_response(status, &message)
}

/// poem-openapi's parse errors name our Rust types; keep only the reason.
fn bad_request_text(raw: &str) -> String {
    let reason = raw.strip_prefix("parse request payload error: ").unwrap_or(raw);
    let reason = reason.rsplit_once("\": ").map(|(_, r)| r).unwrap_or(reason);
    if reason.contains("expected") || reason.contains("EOF") || reason.contains("line ") {
        format!("Malformed JSON in request body: {reason}")
    } else {
        format!("Invalid request: {reason}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn database_outages_are_503_with_a_plain_message() {
        for err in [domain::Error::from(sqlx::Error::PoolTimedOut), domain::Error::Internal(anyhow::Error::from(sqlx::Error::PoolTimedOut))] {
            match ApiError::from(err) {
                ApiError::ServiceUnavailable(Json(b)) => assert_eq!(b.message, SERVICE_UNAVAILABLE),
                other => panic!("expected 503, got {other:?}"),
            }
        }
        assert!(matches!(ApiError::from(domain::Error::from(sqlx::Error::RowNotFound)), ApiError::Internal(_)));
    }

    #[test]
    fn parse_errors_lose_type_names() {
        let t = bad_request_text(r#"parse request payload error: failed to parse "LoginRequest": expected value at line 1 column 1"#);
        assert_eq!(t, "Malformed JSON in request body: expected value at line 1 column 1");
        assert!(!t.contains("LoginRequest"));
        let t = bad_request_text("parse request payload error: key must be a string at line 1 column 2");
        assert_eq!(t, "Malformed JSON in request body: key must be a string at line 1 column 2");
    }
}
