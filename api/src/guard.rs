//! Request guards in front of every `/api` handler: cross-site refusal and body size limits.

use poem::{
    Endpoint, IntoResponse, Request, Response,
    error::ReadBodyError,
    http::{Method, StatusCode, header},
};

use url::{Origin, Url};

use crate::{
    auth::{forwarded_https, secure_cookie, trusted_entry},
    error::{ErrorCode, json_response},
    state::AppState,
};

/// JSON bodies larger than this are refused with 413.
pub const MAX_JSON_BODY_BYTES: u64 = 1024 * 1024;
/// The image upload takes a 5 MB file plus the multipart framing.
pub const MAX_UPLOAD_BODY_BYTES: u64 = 6 * 1024 * 1024;
pub const UPLOAD_PATH: &str = "/api/user/profile-image";
pub const CROSS_SITE_REFUSED: &str = "Cross-site requests are not allowed";

pub async fn guard<E: Endpoint>(next: E, mut req: Request) -> poem::Result<Response> {
    let state = req.data::<AppState>().expect("AppState is attached").clone();
    if changes_state(req.method()) && !same_origin(&req, &state) {
        return Ok(json_response(
            StatusCode::FORBIDDEN,
            ErrorCode::Forbidden,
            CROSS_SITE_REFUSED,
        ));
    }
    let (limit, message) = if req.uri().path() == UPLOAD_PATH {
        (MAX_UPLOAD_BODY_BYTES, domain::uploads::IMAGE_TOO_LARGE)
    } else {
        (MAX_JSON_BODY_BYTES, "Request body is too large")
    };
    if declared_length(&req).is_some_and(|len| len > limit) {
        return Ok(json_response(
            StatusCode::PAYLOAD_TOO_LARGE,
            ErrorCode::PayloadTooLarge,
            message,
        ));
    }
    // A body without Content-Length (chunked) is read up to the limit before any handler runs.
    if declared_length(&req).is_none() {
        match req.take_body().into_bytes_limit(limit as usize).await {
            Ok(bytes) => req.set_body(bytes),
            Err(ReadBodyError::PayloadTooLarge) => {
                return Ok(json_response(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    ErrorCode::PayloadTooLarge,
                    message,
                ));
            }
            Err(err) => return Err(err.into()),
        }
    }
    let changes = changes_state(req.method()) && may_change_catalogue(req.uri().path());
    // With a replica, a write's author reads the primary until the replica has replayed it.
    let remember = (changes_state(req.method()) && state.reads.has_replica())
        .then(|| (req.cookie().clone(), secure_cookie(&req, &state)));
    let response = next.call(req).await?.into_response();
    if changes && response.status().is_success() {
        // Committed by now; other processes hear of it through `catalogue_changed`, and this
        // one has applied it before the response leaves.
        state.catalogue.changed_here(&state.pool).await;
    }
    if let Some((jar, secure)) = remember
        && (response.status().is_success() || response.status().is_redirection())
        && let Ok(at) = domain::replication::primary_position(&state.pool).await
    {
        jar.add(crate::replica::read_after_cookie(at, secure));
    }
    Ok(response)
}

/// Busy requests that never change what the public catalogue shows; any other successful
/// change empties this process's catalogue cache at once (see `catalogue_cache`).
const NEVER_CHANGE_THE_CATALOGUE: &[&str] = &[
    "/api/login",
    "/api/logout",
    "/api/register",
    "/api/reservations",
    "/api/process-payment",
    "/api/conversations",
    "/api/messages",
    "/api/notifications",
    "/api/user/favorites",
    "/api/contact",
];

fn may_change_catalogue(path: &str) -> bool {
    !NEVER_CHANGE_THE_CATALOGUE.iter().any(|p| {
        path.strip_prefix(p)
            .is_some_and(|rest| rest.is_empty() || rest.starts_with(['/', '-']))
    })
}

fn changes_state(method: &Method) -> bool {
    !matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// Browsers send `Origin` with every cross-site state-changing request; when present it must
/// be the app's own origin: scheme, host and port exactly (default ports 80 and 443 count as
/// written), either that of `APP_BASE_URL` or the host the request was sent to (over https only
/// when a trusted proxy says so).
pub fn same_origin(req: &Request, state: &AppState) -> bool {
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return true;
    };
    let Some(origin) = origin
        .to_str()
        .ok()
        .and_then(|o| Url::parse(o).ok())
        .map(|u| u.origin())
    else {
        return false;
    };
    if !origin.is_tuple() {
        return false;
    }
    origin == state.config.app_base_url.origin() || request_origin(req, state).is_some_and(|own| own == origin)
}

/// The origin the request itself was sent to: its `Host` with the scheme it arrived over.
fn request_origin(req: &Request, state: &AppState) -> Option<Origin> {
    let host = req.headers().get(header::HOST)?.to_str().ok()?;
    if host.is_empty() || host.contains(['/', '\\', '@', '?', '#']) {
        return None;
    }
    let scheme = if forwarded_https(req, state) { "https" } else { "http" };
    Url::parse(&format!("{scheme}://{host}")).ok().map(|u| u.origin())
}

fn declared_length(req: &Request) -> Option<u64> {
    req.headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
}

/// The client's address for rate limits: the socket peer, or, when `TRUST_PROXY` says proxies in
/// front append to `X-Forwarded-For`, the entry `TRUSTED_PROXY_HOPS` from its right (the address the
/// trusted proxy saw; entries left of it are the client's own writing).
pub fn client_address(req: &Request, state: &AppState) -> String {
    if state.config.trust_proxy
        && let Some(forwarded) = trusted_entry(req, "x-forwarded-for", state.config.trusted_proxy_hops)
    {
        return forwarded;
    }
    req.remote_addr()
        .as_socket_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod catalogue_tests {
    use super::may_change_catalogue;

    #[test]
    fn only_busy_requests_that_never_touch_the_catalogue_keep_it_cached() {
        for keeps in [
            "/api/reservations",
            "/api/reservations/abc",
            "/api/process-payment-v2",
            "/api/login",
            "/api/user/favorites/x",
        ] {
            assert!(!may_change_catalogue(keeps), "{keeps}");
        }
        for changes in [
            "/api/mentor/profile",
            "/api/services",
            "/api/mentor/services/x",
            "/api/user/profile",
            "/api/reviews",
            "/api/loginx",
            "/api/admin/users/x/status",
        ] {
            assert!(may_change_catalogue(changes), "{changes}");
        }
    }
}
