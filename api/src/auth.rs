//! The session cookie: checking it for protected calls, setting and clearing it.

use poem::{
    Request,
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

pub fn set_session_cookie(jar: &CookieJar, req: &Request, state: &AppState, token: String) {
    let mut cookie = Cookie::new_with_str(sessions::COOKIE_NAME, token);
    cookie.set_http_only(true);
    cookie.set_same_site(SameSite::Lax);
    cookie.set_path("/");
    cookie.set_secure(secure_cookie(req, state));
    cookie.set_max_age(sessions::SESSION_TTL.to_std().expect("positive ttl"));
    jar.add(cookie);
}

pub fn clear_session_cookie(jar: &CookieJar, req: &Request, state: &AppState) {
    let mut cookie = Cookie::new_with_str(sessions::COOKIE_NAME, "");
    cookie.set_http_only(true);
    cookie.set_same_site(SameSite::Lax);
    cookie.set_path("/");
    cookie.set_secure(secure_cookie(req, state));
    cookie.set_max_age(std::time::Duration::ZERO);
    jar.add(cookie);
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
