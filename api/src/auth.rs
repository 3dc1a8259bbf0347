//! The session cookie: checking it for protected calls, setting and clearing it.

use std::time::Duration;

use poem::{
    Endpoint, IntoResponse, Request, Response,
    http::{HeaderValue, StatusCode, header},
    web::cookie::{Cookie, CookieJar, SameSite},
};
use poem_openapi::{SecurityScheme, auth::ApiKey};

use crate::{error::ApiError, state::AppState};
use domain::accounts::{User, sessions, two_factor};

/// The signed-in user and the token of the session making the request.
pub struct CurrentUser {
    pub user: User,
    pub session_token: String,
    /// `ADMIN_TWO_FACTOR=required`: admin endpoints need the administrator to have two factors on.
    pub admin_two_factor_required: bool,
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
        let me = &self.0;
        if !(me.user.is_admin && me.user.is_active) {
            return Err(ApiError::forbidden(ADMIN_ONLY));
        }
        if me.admin_two_factor_required && !me.user.two_factor_enabled {
            return Err(domain::Error::TwoFactorRequired(two_factor::REQUIRED_FOR_ADMINS.into()).into());
        }
        Ok(me)
    }
}

async fn check_session(req: &Request, key: ApiKey) -> poem::Result<CurrentUser> {
    let state = req.data::<AppState>().expect("AppState is attached to every request");
    match sessions::user_for(&state.pool, &key.key).await {
        Ok(Some(user)) => Ok(CurrentUser {
            user,
            session_token: key.key,
            admin_two_factor_required: state.config.admin_two_factor_required,
        }),
        Ok(None) => Err(ApiError::unauthorized().into()),
        Err(err) => Err(ApiError::from(err).into()),
    }
}

/// `Secure` when the app's own address is https, or when a trusted proxy in front
/// (`TRUST_PROXY`) says the browser reached it over https (`X-Forwarded-Proto`).
pub fn secure_cookie(req: &Request, state: &AppState) -> bool {
    state.config.secure_cookies() || forwarded_https(req, state)
}

/// With `TRUST_PROXY`, the scheme the browser used says https, per the `X-Forwarded-Proto` entry the
/// trusted proxy wrote ([`trusted_entry`]).
pub fn forwarded_https(req: &Request, state: &AppState) -> bool {
    state.config.trust_proxy
        && trusted_entry(req, "x-forwarded-proto", state.config.trusted_proxy_hops)
            .is_some_and(|proto| proto.eq_ignore_ascii_case("https"))
}

/// The entry of a comma-separated forwarding header (`X-Forwarded-For`, `X-Forwarded-Proto`, every
/// line of it in order) that our own proxies wrote: `hops` from the right, since each proxy appends
/// and whatever stands left of that the client may have written itself. With fewer entries than
/// `hops`, the leftmost (every entry came from a proxy). `None` when that entry is empty or absent.
pub fn trusted_entry(req: &Request, name: &str, hops: usize) -> Option<String> {
    let entries: Vec<&str> = req
        .headers()
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let at = entries.len().saturating_sub(hops.max(1));
    entries.get(at).filter(|e| !e.is_empty()).map(|e| e.to_string())
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
