//! Every failure becomes a status with `{"code": ..., "message": ...}`: `code` is one of
//! [`ErrorCode`] for programs to branch on, `message` the text shown to people. Internals are
//! logged (with the request's id, see `request_id`), never shown.

use poem::{Response, http::StatusCode};
use poem_openapi::{ApiResponse, Enum, Object, payload::Json, types::ToJSON};

/// What went wrong, for programs: stable across releases; branch on it (with the status), never on `message`.
///
/// - `validation`: the request is malformed (bad JSON, a missing or wrong field, a bad path or query parameter) or breaks a rule about its input (400).
/// - `unauthorized`: not signed in, the session expired, or wrong credentials (401).
/// - `forbidden`: signed in but not allowed, or a cross-site request (403).
/// - `email_not_verified`: sign-in refused until the e-mail address is verified; a new link helps (403).
/// - `account_deactivated`: sign-in refused because an admin deactivated the account (403).
/// - `invalid_two_factor_code`: sign-in's second step got a wrong code; try again (401).
/// - `two_factor_attempt_ended`: the pending sign-in is over (5 minutes passed, or the fifth wrong code); sign in again (401).
/// - `two_factor_required`: an administrator must turn on two-factor sign-in first (403).
/// - `not_found`: no such thing, or not yours to see; also an unknown path under /api (404).
/// - `method_not_allowed`: the path exists but not with this method (405).
/// - `conflict`: the request conflicts with the current state (409).
/// - `gone`: it existed but is no longer available, e.g. a data export past its 7 days (410).
/// - `slot_taken`: the time asked for is no longer free (409).
/// - `hold_limit`: the seeker already holds as many unpaid reservations as allowed (409).
/// - `already_reviewed`: the booking has this seeker's review already (409).
/// - `payload_too_large`: the request body is larger than allowed (413).
/// - `unsupported_media_type`: the body is not of a type this call takes (415).
/// - `rate_limited`: too many requests; try again later (429).
/// - `payment_declined`: the card was not charged (a `PaymentResult` with `success: false`).
/// - `payment_pending`: the payment's outcome is not known yet; it is never charged twice (a `PaymentResult` with `success: false`).
/// - `insufficient_balance`: the wallet does not cover what is asked; `details.missing` says by how much (402).
/// - `internal`: an unexpected failure; it is logged with the request id (500).
/// - `unavailable`: the database or a service beside the api does not answer; try again shortly (503).
#[derive(Enum, Debug, Clone, Copy, PartialEq, Eq)]
#[oai(rename_all = "snake_case")]
pub enum ErrorCode {
    Validation,
    Unauthorized,
    Forbidden,
    EmailNotVerified,
    AccountDeactivated,
    InvalidTwoFactorCode,
    TwoFactorAttemptEnded,
    TwoFactorRequired,
    NotFound,
    MethodNotAllowed,
    Conflict,
    Gone,
    SlotTaken,
    HoldLimit,
    AlreadyReviewed,
    PayloadTooLarge,
    UnsupportedMediaType,
    RateLimited,
    PaymentDeclined,
    PaymentPending,
    InsufficientBalance,
    Internal,
    Unavailable,
}

impl ErrorCode {
    /// The code of an error raised outside our handlers, from its status alone.
    pub fn for_status(status: StatusCode) -> Self {
        match status {
            StatusCode::UNAUTHORIZED => Self::Unauthorized,
            StatusCode::FORBIDDEN => Self::Forbidden,
            StatusCode::NOT_FOUND => Self::NotFound,
            StatusCode::METHOD_NOT_ALLOWED => Self::MethodNotAllowed,
            StatusCode::CONFLICT => Self::Conflict,
            StatusCode::GONE => Self::Gone,
            StatusCode::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Self::UnsupportedMediaType,
            StatusCode::TOO_MANY_REQUESTS => Self::RateLimited,
            StatusCode::SERVICE_UNAVAILABLE => Self::Unavailable,
            s if s.is_server_error() => Self::Internal,
            _ => Self::Validation,
        }
    }
}

/// The body of every error response.
#[derive(Object, Debug, Clone)]
pub struct ErrorBody {
    pub code: ErrorCode,
    pub message: String,
    /// Facts a program may need to act on the error (e.g. `missing` with `insufficient_balance`);
    /// absent for most errors
    #[oai(skip_serializing_if_is_none)]
    pub details: Option<ErrorDetails>,
}

/// The facts some errors carry.
#[derive(Object, Debug, Clone, Default)]
pub struct ErrorDetails {
    /// With `insufficient_balance`: the amount the balance lacks, e.g. "4.50"
    #[oai(skip_serializing_if_is_none)]
    pub missing: Option<String>,
}

pub const INTERNAL_ERROR: &str = "Something went wrong. Please try again later.";
pub const UNAUTHORIZED: &str = "Unauthorized";
pub const SERVICE_UNAVAILABLE: &str = "The service is temporarily unavailable. Please try again shortly.";

#[derive(ApiResponse, Debug)]
pub enum ApiError {
    /// Invalid input (`validation`)
    #[oai(status = 400)]
    BadRequest(Json<ErrorBody>),
    /// Not signed in (`unauthorized`, `invalid_two_factor_code`, `two_factor_attempt_ended`)
    #[oai(status = 401)]
    Unauthorized(Json<ErrorBody>),
    /// Not allowed (`forbidden`, `email_not_verified`, `account_deactivated`, `two_factor_required`)
    #[oai(status = 403)]
    Forbidden(Json<ErrorBody>),
    /// The wallet does not cover it (`insufficient_balance`, with `details.missing`)
    #[oai(status = 402)]
    PaymentRequired(Json<ErrorBody>),
    /// No such thing (`not_found`)
    #[oai(status = 404)]
    NotFound(Json<ErrorBody>),
    /// Conflicts with the current state (`conflict`, `slot_taken`, `hold_limit`, `already_reviewed`)
    #[oai(status = 409)]
    Conflict(Json<ErrorBody>),
    /// No longer available (`gone`)
    #[oai(status = 410)]
    Gone(Json<ErrorBody>),
    /// Too many requests (`rate_limited`)
    #[oai(status = 429)]
    TooManyRequests(Json<ErrorBody>),
    /// Unexpected failure (`internal`)
    #[oai(status = 500)]
    Internal(Json<ErrorBody>),
    /// The database or a service beside the api does not answer; try again shortly (`unavailable`)
    #[oai(status = 503)]
    ServiceUnavailable(Json<ErrorBody>),
}

pub fn body(code: ErrorCode, message: impl Into<String>) -> Json<ErrorBody> {
    Json(ErrorBody {
        code,
        message: message.into(),
        details: None,
    })
}

impl ApiError {
    pub fn unauthorized() -> Self {
        Self::Unauthorized(body(ErrorCode::Unauthorized, UNAUTHORIZED))
    }
    pub fn not_found(message: impl Into<String>) -> Self {
        Self::NotFound(body(ErrorCode::NotFound, message))
    }
    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::Forbidden(body(ErrorCode::Forbidden, message))
    }
    pub fn bad_request(message: impl Into<String>) -> Self {
        Self::BadRequest(body(ErrorCode::Validation, message))
    }
    fn unavailable(err: &sqlx::Error) -> Self {
        tracing::warn!(error = %err, "database unavailable");
        Self::ServiceUnavailable(body(ErrorCode::Unavailable, SERVICE_UNAVAILABLE))
    }
    /// The body, whatever the status.
    pub fn into_body(self) -> ErrorBody {
        match self {
            Self::BadRequest(b)
            | Self::Unauthorized(b)
            | Self::PaymentRequired(b)
            | Self::Forbidden(b)
            | Self::NotFound(b)
            | Self::Conflict(b)
            | Self::Gone(b)
            | Self::TooManyRequests(b)
            | Self::Internal(b)
            | Self::ServiceUnavailable(b) => b.0,
        }
    }
}

impl From<domain::Error> for ApiError {
    fn from(err: domain::Error) -> Self {
        use ErrorCode as C;
        use domain::Error as E;
        match err {
            E::Validation(m) => Self::BadRequest(body(C::Validation, m)),
            E::Unauthorized(m) => Self::Unauthorized(body(C::Unauthorized, m)),
            E::Forbidden(m) => Self::Forbidden(body(C::Forbidden, m)),
            E::EmailNotVerified(m) => Self::Forbidden(body(C::EmailNotVerified, m)),
            E::AccountDeactivated(m) => Self::Forbidden(body(C::AccountDeactivated, m)),
            E::NotFound(m) => Self::NotFound(body(C::NotFound, m)),
            E::Conflict(m) => Self::Conflict(body(C::Conflict, m)),
            E::Gone(m) => Self::Gone(body(C::Gone, m)),
            E::SlotTaken(m) => Self::Conflict(body(C::SlotTaken, m)),
            E::HoldLimit(m) => Self::Conflict(body(C::HoldLimit, m)),
            E::AlreadyReviewed(m) => Self::Conflict(body(C::AlreadyReviewed, m)),
            E::TooManyRequests(m) => Self::TooManyRequests(body(C::RateLimited, m)),
            E::InvalidTwoFactorCode(m) => Self::Unauthorized(body(C::InvalidTwoFactorCode, m)),
            E::TwoFactorAttemptEnded(m) => Self::Unauthorized(body(C::TwoFactorAttemptEnded, m)),
            E::TwoFactorRequired(m) => Self::Forbidden(body(C::TwoFactorRequired, m)),
            E::Unavailable(e) => Self::unavailable(&e),
            E::ServiceDown(m) => Self::ServiceUnavailable(body(C::Unavailable, m)),
            E::InsufficientBalance { message, missing_cents } => Self::PaymentRequired(Json(ErrorBody {
                code: C::InsufficientBalance,
                message,
                details: Some(ErrorDetails {
                    missing: Some(domain::money::format(missing_cents)),
                }),
            })),
            E::Internal(e) => match domain::error::is_outage_chain(&e) {
                Some(db) => Self::unavailable(db),
                None => {
                    tracing::error!(error = %format!("{e:#}"), "request failed");
                    Self::Internal(body(C::Internal, INTERNAL_ERROR))
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

/// A JSON error response for errors raised outside our handlers (bad JSON, unknown paths, guards, ...).
pub fn json_response(status: StatusCode, code: ErrorCode, message: &str) -> Response {
    let text = serde_json::json!({ "code": code.to_json(), "message": message }).to_string();
    Response::builder()
        .status(status)
        .content_type("application/json; charset=utf-8")
        .body(text)
}

/// The response to a panic in a handler: logged (inside the request's span, so with its id), then a plain 500.
pub fn panicked(panic: Box<dyn std::any::Any + Send>) -> Response {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    tracing::error!(panic = %what, "request panicked");
    json_response(StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal, INTERNAL_ERROR)
}

/// Rewrites any error that is not already ours into `{"code": ..., "message": ...}`.
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
        StatusCode::SERVICE_UNAVAILABLE => SERVICE_UNAVAILABLE.to_string(),
        s if s.is_server_error() => {
            tracing::error!(error = %err, "request failed");
            INTERNAL_ERROR.to_string()
        }
        s => s.canonical_reason().unwrap_or("Request failed").to_string(),
    };
    json_response(status, ErrorCode::for_status(status), &message)
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
                ApiError::ServiceUnavailable(Json(b)) => {
                    assert_eq!(b.message, SERVICE_UNAVAILABLE);
                    assert_eq!(b.code, ErrorCode::Unavailable);
                }
                other => panic!("expected 503, got {other:?}"),
            }
        }
        assert!(matches!(
            ApiError::from(domain::Error::from(sqlx::Error::RowNotFound)),
            ApiError::Internal(_)
        ));
    }

    #[test]
    fn each_kind_of_domain_error_has_its_code_and_status() {
        use domain::Error as E;
        let cases: Vec<(domain::Error, u16, ErrorCode)> = vec![
            (E::validation("v"), 400, ErrorCode::Validation),
            (E::unauthorized("u"), 401, ErrorCode::Unauthorized),
            (E::forbidden("f"), 403, ErrorCode::Forbidden),
            (E::EmailNotVerified("e".into()), 403, ErrorCode::EmailNotVerified),
            (E::AccountDeactivated("d".into()), 403, ErrorCode::AccountDeactivated),
            (E::not_found("n"), 404, ErrorCode::NotFound),
            (E::conflict("c"), 409, ErrorCode::Conflict),
            (E::SlotTaken("s".into()), 409, ErrorCode::SlotTaken),
            (E::HoldLimit("h".into()), 409, ErrorCode::HoldLimit),
            (E::AlreadyReviewed("r".into()), 409, ErrorCode::AlreadyReviewed),
            (E::Gone("g".into()), 410, ErrorCode::Gone),
            (E::TooManyRequests("t".into()), 429, ErrorCode::RateLimited),
            (E::ServiceDown("down".into()), 503, ErrorCode::Unavailable),
            (
                E::InsufficientBalance {
                    message: "short".into(),
                    missing_cents: 450,
                },
                402,
                ErrorCode::InsufficientBalance,
            ),
            (E::Internal(anyhow::anyhow!("boom")), 500, ErrorCode::Internal),
        ];
        for (err, status, code) in cases {
            let text = err.to_string();
            let response = ApiError::from(err);
            let got = match &response {
                ApiError::BadRequest(_) => 400,
                ApiError::Unauthorized(_) => 401,
                ApiError::PaymentRequired(_) => 402,
                ApiError::Forbidden(_) => 403,
                ApiError::NotFound(_) => 404,
                ApiError::Conflict(_) => 409,
                ApiError::Gone(_) => 410,
                ApiError::TooManyRequests(_) => 429,
                ApiError::Internal(_) => 500,
                ApiError::ServiceUnavailable(_) => 503,
            };
            let body = response.into_body();
            assert_eq!((got, body.code), (status, code), "{text}");
            if status != 500 {
                assert_eq!(body.message, text, "the message is the domain's text");
            }
        }
    }

    #[test]
    fn insufficient_balance_carries_what_is_missing() {
        let body = ApiError::from(domain::Error::InsufficientBalance {
            message: "short".into(),
            missing_cents: 450,
        })
        .into_body();
        assert_eq!(body.details.and_then(|d| d.missing).as_deref(), Some("4.50"));
    }

    #[test]
    fn errors_outside_the_handlers_get_a_code_from_their_status() {
        let cases = [
            (StatusCode::BAD_REQUEST, ErrorCode::Validation),
            (StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized),
            (StatusCode::FORBIDDEN, ErrorCode::Forbidden),
            (StatusCode::NOT_FOUND, ErrorCode::NotFound),
            (StatusCode::METHOD_NOT_ALLOWED, ErrorCode::MethodNotAllowed),
            (StatusCode::CONFLICT, ErrorCode::Conflict),
            (StatusCode::GONE, ErrorCode::Gone),
            (StatusCode::PAYLOAD_TOO_LARGE, ErrorCode::PayloadTooLarge),
            (StatusCode::UNSUPPORTED_MEDIA_TYPE, ErrorCode::UnsupportedMediaType),
            (StatusCode::TOO_MANY_REQUESTS, ErrorCode::RateLimited),
            (StatusCode::INTERNAL_SERVER_ERROR, ErrorCode::Internal),
            (StatusCode::BAD_GATEWAY, ErrorCode::Internal),
            (StatusCode::SERVICE_UNAVAILABLE, ErrorCode::Unavailable),
            (StatusCode::UNPROCESSABLE_ENTITY, ErrorCode::Validation),
        ];
        for (status, code) in cases {
            assert_eq!(ErrorCode::for_status(status), code, "{status}");
        }
    }

    #[test]
    fn an_outage_wrapped_with_context_is_503() {
        let wrapped = anyhow::Error::from(sqlx::Error::WorkerCrashed).context("enqueueing");
        let body = ApiError::from(domain::Error::Internal(wrapped)).into_body();
        assert_eq!(body.code, ErrorCode::Unavailable);
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
