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
    Json(ErrorBody {
        message: message.into(),
    })
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
            E::ServiceDown(m) => Self::ServiceUnavailable(body(m)),
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
    Response::builder()
        .status(status)
        .content_type("application/json; charset=utf-8")
        .body(text)
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

/// poem-openapi's parse errors name our Rust and schema types ("LoginRequest", "optional_integer_int64");
/// the user gets the parameter's name and the kind of value in plain words instead.
fn bad_request_text(raw: &str) -> String {
    if let Some(rest) = raw
        .strip_prefix("failed to parse parameter `")
        .or_else(|| raw.strip_prefix("failed to parse path `"))
    {
        let (name, reason) = rest.split_once("`: ").unwrap_or(("a parameter", rest));
        return if reason.contains("expects an input value") {
            format!("Invalid request: {name} is required")
        } else {
            match innermost_type(reason).and_then(kind_of_value) {
                Some(kind) => format!("Invalid request: {name} must be {kind}"),
                None => format!("Invalid request: {name} is not valid"),
            }
        };
    }
    let Some(reason) = raw.strip_prefix("parse request payload error: ") else {
        return if raw.starts_with("parse multipart error") {
            "Invalid request: the upload could not be read".to_string()
        } else {
            "Invalid request".to_string()
        };
    };
    let from_schema = [
        "Expected input type \"",
        "failed to parse \"",
        "Type \"",
        "occurred while parsing \"",
    ]
    .iter()
    .any(|p| reason.contains(p));
    if !from_schema {
        // serde_json's own words: "key must be a string at line 1 column 2"
        return format!("Malformed JSON in request body: {reason}");
    }
    if !reason.contains("occurred while parsing") {
        // The body as a whole is not the object the call takes (or there is no body).
        return "Invalid request: the request body must be a JSON object".to_string();
    }
    if reason.contains("expects an input value") {
        return "Invalid request: a required field is missing".to_string();
    }
    if let Some(field) = between(reason, "unknown field `", "`") {
        return format!("Invalid request: unknown field {field}");
    }
    let kind = innermost_type(reason).and_then(kind_of_value);
    let found = between(reason, "\", found ", ". (occurred").filter(|f| f.chars().count() <= MAX_ECHOED_CHARS);
    match (kind, found) {
        (Some(kind), Some(found)) => format!("Invalid request: expected {kind} but found {found}"),
        (Some(kind), None) => format!("Invalid request: a field must be {kind}"),
        (None, _) => "Invalid request: a field has a value of the wrong kind".to_string(),
    }
}

/// A value the client sent is quoted back only when it is this short.
const MAX_ECHOED_CHARS: usize = 40;

fn between<'a>(s: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let from = s.find(start)? + start.len();
    let len = s[from..].find(end)?;
    Some(&s[from..from + len])
}

/// The first type named in a parse error is the innermost one: the value that failed.
fn innermost_type(reason: &str) -> Option<&str> {
    [
        "Expected input type \"",
        "failed to parse \"",
        "Type \"",
        "occurred while parsing \"",
    ]
    .iter()
    .filter_map(|p| reason.find(p).map(|at| (at, p.len())))
    .min()
    .and_then(|(at, len)| reason[at + len..].split('"').next())
}

/// Plain words for a schema type name.
fn kind_of_value(schema: &str) -> Option<&'static str> {
    let mut name = schema;
    while let Some(inner) = name.strip_prefix("optional_") {
        name = inner;
    }
    Some(match name {
        n if n.starts_with("integer") => "a whole number",
        n if n.starts_with("number") => "a number",
        "boolean" => "true or false",
        "string_uuid" => "a valid id",
        "string_date-time" => "a date and time",
        "string_date" => "a date (YYYY-MM-DD)",
        n if n.starts_with("string") => "text",
        n if n.starts_with('[') || n.starts_with("array") => "a list",
        n if n.starts_with(|c: char| c.is_ascii_uppercase()) || n.starts_with("object") || n.starts_with("map") => {
            "an object"
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rust and schema type names a user must never see.
    fn assert_plain(text: &str) {
        for internal in [
            "Request",
            "_int64",
            "int32",
            "optional_",
            "Object",
            "Uuid",
            "string",
            "\"integer",
        ] {
            assert!(!text.contains(internal), "{text:?} names {internal}");
        }
    }

    #[test]
    fn database_outages_are_503_with_a_plain_message() {
        for err in [
            domain::Error::from(sqlx::Error::PoolTimedOut),
            domain::Error::Internal(anyhow::Error::from(sqlx::Error::PoolTimedOut)),
        ] {
            match ApiError::from(err) {
                ApiError::ServiceUnavailable(Json(b)) => assert_eq!(b.message, SERVICE_UNAVAILABLE),
                other => panic!("expected 503, got {other:?}"),
            }
        }
        assert!(matches!(
            ApiError::from(domain::Error::from(sqlx::Error::RowNotFound)),
            ApiError::Internal(_)
        ));
    }

    #[test]
    fn malformed_json_keeps_the_parser_position() {
        let t = bad_request_text("parse request payload error: key must be a string at line 1 column 2");
        assert_eq!(
            t,
            "Malformed JSON in request body: key must be a string at line 1 column 2"
        );
    }

    #[test]
    fn a_body_that_is_not_an_object() {
        for raw in [
            r#"parse request payload error: Expected input type "LoginRequest", found null."#,
            r#"parse request payload error: Expected input type "LoginRequest", found [1,2]."#,
        ] {
            let t = bad_request_text(raw);
            assert_eq!(t, "Invalid request: the request body must be a JSON object");
        }
    }

    #[test]
    fn fields_of_the_wrong_kind_or_missing() {
        let cases = [
            (
                r#"parse request payload error: Expected input type "integer_int64", found "monday". (occurred while parsing "optional_integer_int64") (occurred while parsing "NewAvailabilityRequest")"#,
                r#"Invalid request: expected a whole number but found "monday""#,
            ),
            (
                r#"parse request payload error: invalid integer (occurred while parsing "optional_integer_int64") (occurred while parsing "NewAvailabilityRequest")"#,
                "Invalid request: a field must be a whole number",
            ),
            (
                r#"parse request payload error: Expected input type "string", found []. (occurred while parsing "RegisterRequest")"#,
                "Invalid request: expected text but found []",
            ),
            (
                r#"parse request payload error: Expected input type "string_date-time", found 5. (occurred while parsing "optional_string_date-time") (occurred while parsing "ReservationRequest")"#,
                "Invalid request: expected a date and time but found 5",
            ),
            (
                r#"parse request payload error: Type "string" expects an input value. (occurred while parsing "TokenRequest")"#,
                "Invalid request: a required field is missing",
            ),
            (
                r#"parse request payload error: failed to parse "LoginRequest": unknown field `emial`. (occurred while parsing "LoginRequest")"#,
                "Invalid request: unknown field emial",
            ),
        ];
        for (raw, want) in cases {
            let t = bad_request_text(raw);
            assert_eq!(t, want);
            assert_plain(&t);
        }
        let long = format!(
            r#"parse request payload error: Expected input type "boolean", found "{}". (occurred while parsing "X")"#,
            "y".repeat(MAX_ECHOED_CHARS)
        );
        assert_eq!(
            bad_request_text(&long),
            "Invalid request: a field must be true or false"
        );
    }

    #[test]
    fn parameters_are_named() {
        let cases = [
            (
                r#"failed to parse parameter `page`: failed to parse "integer_int64": invalid digit found in string (occurred while parsing "optional_integer_int64")"#,
                "Invalid request: page must be a whole number",
            ),
            (
                r#"failed to parse parameter `page`: failed to parse "integer_int64": number too large to fit in target type (occurred while parsing "optional_integer_int64")"#,
                "Invalid request: page must be a whole number",
            ),
            (
                r#"failed to parse parameter `date`: Type "string" expects an input value."#,
                "Invalid request: date is required",
            ),
            (
                r#"failed to parse path `id`: failed to parse "string_uuid": invalid character"#,
                "Invalid request: id must be a valid id",
            ),
            (
                r#"failed to parse parameter `x`: something odd about "Weird_type""#,
                "Invalid request: x is not valid",
            ),
        ];
        for (raw, want) in cases {
            let t = bad_request_text(raw);
            assert_eq!(t, want);
            assert_plain(&t);
        }
    }

    #[test]
    fn anything_else_says_nothing_internal() {
        assert_eq!(
            bad_request_text("parse multipart error: boundary missing"),
            "Invalid request: the upload could not be read"
        );
        assert_eq!(
            bad_request_text("some poem error about LoginRequest"),
            "Invalid request"
        );
    }
}
