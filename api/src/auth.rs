//! The session cookie: checking it for protected calls, setting and clearing it.

use std::time::Duration;

use poem::{
    Endpoint, IntoResponse, Request, Response,
    http::{HeaderValue, StatusCode, header},
    web::cookie::{Cookie, CookieJar, SameSite},
};
use poem_openapi::{SecurityScheme, auth::ApiKey};

use crate::{error::ApiError, state::AppState};
use domain::accounts::{User, sessions};

/// The signed-in user and the token of the session making the request.
pub struct CurrentUser {
    pub user: User,
    pub session_token: String,
}

/// Session cookie set by `POST /api/login`.
#[derive(SecurityScheme)]
#[oai(ty = "api_key", key_name = "sid", key_in = "cookie", checker = "check_session")]
pub struct SessionAuth(pub CurrentUser);

/// Refused to a signed-in user who is not an administrator.
pub const ADMIN_ONLY: &str = "Admin access required";

impl SessionAuth {
    /// The signed-in administrator, or 403. The role comes from the database with the session
    /// (a signed-out caller never gets here: the security scheme answers 401 first).
    pub fn admin(&self) -> Result<&CurrentUser, ApiError> {
        if self.0.user.is_admin && self.0.user.is_active {
            Ok(&self.0)
        } else {
            Err(ApiError::forbidden(ADMIN_ONLY))
        }
    }
}

async fn check_session(req: &Request, key: ApiKey) -> poem::Result<CurrentUser> {
    let state = req.data::<AppState>().expect("AppState is attached to every request");
    match sessions::user_for(&state.pool, &key.key).await {
        Ok(Some(user)) => Ok(CurrentUser {
            user,
            session_token: key.key,
        }),
        Ok(None) => Err(ApiError::unauthorized().into()),
        Err(err) => Err(ApiError::from(err).into()),
    }
}

/// `Secure` when the app's own address is https, or when a trusted proxy in front
/// (`TRUST_PROXY`) says the browser reached it over https (`X-Forwarded-Proto`).
pub fn secure_cookie(req: &Request, state: &AppState) -> bool {
    state.config.secure_cookies() || (state.config.trust_proxy && forwarded_https(req))
}

/// The scheme the browser used says https, per the first `X-Forwarded-Proto` entry.
pub fn forwarded_https(req: &Request) -> bool {
    req.headers()
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(',').next())
        .is_some_and(|proto| proto.trim().eq_ignore_ascii_case("https"))
}

/// A cookie scripts may read, set and cleared with the session cookie: it tells the web app
/// whether asking for the user (`GET /api/auth/user`) can answer anything but 401. It carries
/// nothing secret; the session itself stays in the `HttpOnly` cookie.
pub const SIGNED_IN_COOKIE: &str = "signed_in";

pub fn set_session_cookie(jar: &CookieJar, req: &Request, state: &AppState, token: String) {
    let ttl = sessions::SESSION_TTL.to_std().expect("positive ttl");
    jar.add(cookie(sessions::COOKIE_NAME, &token, true, req, state, ttl));
    jar.add(cookie(SIGNED_IN_COOKIE, "1", false, req, state, ttl));
}

pub fn clear_session_cookie(jar: &CookieJar, req: &Request, state: &AppState) {
    jar.add(cookie(
        sessions::COOKIE_NAME,
        "",
        true,
        req,
        state,
        std::time::Duration::ZERO,
    ));
    jar.add(cookie(
        SIGNED_IN_COOKIE,
        "",
        false,
        req,
        state,
        std::time::Duration::ZERO,
    ));
}

fn cookie(name: &str, value: &str, http_only: bool, req: &Request, state: &AppState, max_age: Duration) -> Cookie {
    let mut cookie = Cookie::new_with_str(name, value);
    cookie.set_http_only(http_only);
    cookie.set_same_site(SameSite::Lax);
    cookie.set_path("/");
    cookie.set_secure(secure_cookie(req, state));
    cookie.set_max_age(max_age);
    cookie
}

/// A request that still says `signed_in` but was refused as signed out (its session expired or
/// was ended elsewhere) gets the cookie cleared, so the web app stops asking for the user.
pub async fn forget_stale_sign_in<E: Endpoint>(next: E, req: Request) -> poem::Result<Response> {
    // Outside the cookie-jar middleware: the `Cookie` headers are read as they came.
    let stale = req
        .headers()
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .any(|pair| pair.trim().split('=').next() == Some(SIGNED_IN_COOKIE));
    let secure = req.data::<AppState>().is_some_and(|state| secure_cookie(&req, state));
    let mut resp = next.call(req).await?.into_response();
    if stale && resp.status() == StatusCode::UNAUTHORIZED {
        let mut cookie = Cookie::new_with_str(SIGNED_IN_COOKIE, "");
        cookie.set_same_site(SameSite::Lax);
        cookie.set_path("/");
        cookie.set_secure(secure);
        cookie.set_max_age(Duration::ZERO);
        if let Ok(value) = HeaderValue::from_str(&cookie.to_string()) {
            resp.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    Ok(resp)
}

pub fn session_token(jar: &CookieJar) -> Option<String> {
    jar.get(sessions::COOKIE_NAME)
        .map(|c| c.value_str().to_string())
        .filter(|v| !v.is_empty())
}

/// The session token of a request that may or may not be signed in.
pub fn session_token_from_request(req: &Request) -> Option<String> {
    session_token(req.cookie())
}
