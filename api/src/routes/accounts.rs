use poem::{
    Request,
    web::{Data, cookie::CookieJar},
};
use poem_openapi::{ApiResponse, Object, OpenApi, payload::Json};

use super::{Tag, email_link};
use crate::views::{EmailRequest, MessageResponse, UserView};
use crate::{
    auth::{SessionAuth, clear_session_cookie, session_token, set_session_cookie},
    error::ApiResult,
    guard::client_address,
    state::AppState,
};
use domain::job_queue::email::{self as email_jobs, EmailJob};
use domain::{
    accounts::{email_links, email_preferences, login, registration, sessions, two_factor, users, validation},
    rate_limit::{self, Scope},
};

pub struct AccountsApi;

pub(super) const LOGGED_OUT: &str = "Logged out successfully";
/// Where browser navigations to the sign-in endpoint land.
pub(super) const AUTH_SCREEN: &str = "/auth";

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct RegisterRequest {
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub password: String,
    #[oai(default)]
    pub first_name: String,
    #[oai(default)]
    pub last_name: String,
    /// Whether to receive marketing e-mails (announcements); off unless ticked
    #[oai(default)]
    pub marketing_emails: bool,
    /// Where to bring the new user after they verify their address and sign in: a path of this
    /// site starting with exactly one `/` (e.g. `/become-mentor`), never a URL
    pub next: Option<String>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct RegisterResponse {
    pub requires_verification: bool,
    pub message: String,
}

#[derive(ApiResponse)]
pub enum RegisterResult {
    /// A verification e-mail is on its way (or, for an address that already has an account, a note to its owner)
    #[oai(status = 201)]
    Created(Json<RegisterResponse>),
}

#[derive(Object)]
pub(super) struct LoginRequest {
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub password: String,
}

/// The password was right and the account signs in with two factors: send a code next.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct TwoFactorRequiredView {
    /// Always true: complete the sign-in with `POST /api/login/two-factor` within 5 minutes.
    pub two_factor_required: bool,
}

#[derive(ApiResponse)]
pub enum LoginResult {
    /// Signed in: the session cookie is set
    #[oai(status = 200)]
    SignedIn(Json<UserView>),
    /// The password was right; no session yet. A short-lived cookie holds the pending sign-in,
    /// which `POST /api/login/two-factor` completes
    #[oai(status = 202)]
    TwoFactorRequired(Json<TwoFactorRequiredView>),
}

/// The second step of signing in: a code from the authenticator app, or one of the recovery codes.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct TwoFactorLoginRequest {
    pub code: Option<String>,
    pub recovery_code: Option<String>,
}

#[derive(Object)]
pub(super) struct TokenRequest {
    #[oai(default)]
    pub token: String,
}

#[derive(ApiResponse)]
pub enum Redirect {
    /// Continue at the sign-in screen
    #[oai(status = 302)]
    Found(#[oai(header = "Location")] String),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Accounts")]
impl AccountsApi {
    /// Creates an unverified account and e-mails a verification link. An address that already has
    /// an account gets the same answer; nothing is created and the mail goes to its owner.
    #[oai(path = "/register", method = "post", operation_id = "register")]
    async fn register(
        &self,
        state: Data<&AppState>,
        req: &Request,
        body: Json<RegisterRequest>,
    ) -> ApiResult<RegisterResult> {
        let account = registration::NewAccount {
            email: &body.email,
            password: &body.password,
            first_name: &body.first_name,
            last_name: &body.last_name,
        };
        registration::validate(&account)?;
        let next = match body.next.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
            Some(raw) => Some(validation::return_path(raw)?),
            None => None,
        };
        let limit = state.config.limits.registrations_per_address;
        rate_limit::hit(
            &state.pool,
            Scope::RegistrationAddress,
            &client_address(req, &state),
            limit,
            registration::TOO_MANY_REGISTRATIONS,
        )
        .await?;
        let mut tx = state.pool.begin().await?;
        let job = match registration::register(&mut tx, account).await? {
            registration::Registered::New(user_id) => {
                email_preferences::start(&mut *tx, user_id, body.marketing_emails).await?;
                EmailJob::VerifyEmail { user_id, next }
            }
            registration::Registered::Existing(user_id) => EmailJob::AccountExists { user_id },
        };
        email_jobs::enqueue(&mut tx, &job).await?;
        tx.commit().await?;
        Ok(RegisterResult::Created(Json(RegisterResponse {
            requires_verification: true,
            message: registration::REGISTERED.into(),
        })))
    }

    /// Confirms an e-mail address with the token from the verification link.
    #[oai(path = "/verify-email", method = "post", operation_id = "verifyEmail")]
    async fn verify_email(&self, state: Data<&AppState>, body: Json<TokenRequest>) -> ApiResult<Json<MessageResponse>> {
        email_links::verify_email(&state.pool, &body.token).await?;
        Ok(Json(MessageResponse::new(email_links::EMAIL_VERIFIED)))
    }

    /// Sends a new verification link; the answer is the same for every address.
    #[oai(path = "/resend-verification", method = "post", operation_id = "resendVerification")]
    async fn resend_verification(
        &self,
        state: Data<&AppState>,
        req: &Request,
        body: Json<EmailRequest>,
    ) -> ApiResult<Json<MessageResponse>> {
        email_link::send(
            &state,
            req,
            &body.email,
            Scope::ResendVerificationAddress,
            |pool, email| async move {
                // Past the per-recipient limit no mail goes out.
                Ok(match registration::awaiting_verification(&pool, &email).await? {
                    Some(user_id) if email_links::may_resend_verification(&pool, user_id).await? => {
                        Some(EmailJob::VerifyEmail { user_id, next: None })
                    }
                    _ => None,
                })
            },
        )
        .await?;
        Ok(Json(MessageResponse::new(email_links::VERIFICATION_RESENT)))
    }

    /// Signs in and sets the session cookie.
    #[oai(path = "/login", method = "post", operation_id = "login")]
    async fn login(
        &self,
        state: Data<&AppState>,
        req: &Request,
        jar: &CookieJar,
        body: Json<LoginRequest>,
    ) -> ApiResult<LoginResult> {
        let client = client_address(req, &state);
        let user = login::login(&state.pool, &state.config.limits, &body.email, &body.password, &client).await?;
        if user.two_factor_enabled {
            let token = two_factor::start_challenge(&state.pool, user.id).await?;
            set_challenge_cookie(jar, req, &state, &token, two_factor::CHALLENGE_TTL);
            return Ok(LoginResult::TwoFactorRequired(Json(TwoFactorRequiredView {
                two_factor_required: true,
            })));
        }
        let previous_sign_in_at = start_session(&state, req, jar, user.id, &client).await?;
        Ok(LoginResult::SignedIn(Json(UserView {
            previous_sign_in_at,
            ..user.into()
        })))
    }

    /// Completes a sign-in that needs two factors, within 5 minutes of the password, with a code
    /// from the authenticator app (each accepted once) or an unused recovery code. A wrong one is
    /// 401 `invalid_two_factor_code`; the fifth, or a late one, 401 `two_factor_attempt_ended`.
    #[oai(path = "/login/two-factor", method = "post", operation_id = "loginTwoFactor")]
    async fn login_two_factor(
        &self,
        state: Data<&AppState>,
        req: &Request,
        jar: &CookieJar,
        body: Json<TwoFactorLoginRequest>,
    ) -> ApiResult<Json<UserView>> {
        let factor = match (body.code.as_deref(), body.recovery_code.as_deref()) {
            (Some(code), _) if !code.trim().is_empty() => two_factor::Factor::Code(code),
            (_, Some(code)) if !code.trim().is_empty() => two_factor::Factor::RecoveryCode(code),
            _ => return Err(domain::Error::validation(two_factor::CODE_REQUIRED).into()),
        };
        let token = jar
            .get(two_factor::CHALLENGE_COOKIE)
            .map(|c| c.value_str().to_string())
            .filter(|v| !v.is_empty());
        let pending_user = match &token {
            Some(t) => two_factor::challenge_user(&state.pool, t).await?,
            None => None,
        };
        let client = client_address(req, &state);
        if let Some(user) = &pending_user {
            login::may_try_second_factor(&state.pool, user.id).await?;
        }
        match two_factor::complete(&state.pool, token.as_deref(), factor).await? {
            two_factor::Completion::SignedIn(user_id) => {
                set_challenge_cookie(jar, req, &state, "", chrono::Duration::zero());
                let user = users::find(&state.pool, user_id)
                    .await?
                    .filter(|u| u.is_active)
                    .ok_or_else(|| domain::Error::TwoFactorAttemptEnded(two_factor::ATTEMPT_ENDED.into()))?;
                let previous_sign_in_at = start_session(&state, req, jar, user.id, &client).await?;
                Ok(Json(UserView {
                    previous_sign_in_at,
                    ..user.into()
                }))
            }
            outcome => {
                if let Some(user) = pending_user {
                    login::second_factor_failed(&state.pool, &state.config.limits, user.id, &user.email, &client)
                        .await?;
                }
                if outcome == two_factor::Completion::Wrong {
                    Err(domain::Error::InvalidTwoFactorCode(two_factor::INVALID_CODE.into()).into())
                } else {
                    // The ended attempt's cookie stays until it expires; nothing answers to it.
                    Err(domain::Error::TwoFactorAttemptEnded(two_factor::ATTEMPT_ENDED.into()).into())
                }
            }
        }
    }

    /// Browser navigation to sign in: shows the sign-in screen.
    #[oai(path = "/login", method = "get", operation_id = "loginPage")]
    async fn login_page(&self) -> Redirect {
        Redirect::Found(AUTH_SCREEN.into())
    }

    /// Ends the current session. POST only: a GET (an image or link pointing here) changes nothing.
    #[oai(path = "/logout", method = "post", operation_id = "logout")]
    async fn logout(&self, state: Data<&AppState>, req: &Request, jar: &CookieJar) -> ApiResult<Json<MessageResponse>> {
        end_session(&state, req, jar).await?;
        Ok(Json(MessageResponse::new(LOGGED_OUT)))
    }

    /// Browser navigation to sign out (the header's link): signs out and shows the sign-in screen
    /// when the browser says the navigation came from this site or from the user themself
    /// (`Sec-Fetch-Site: same-origin` or `none`); from anywhere else (another site's link or image,
    /// or no such header) it only shows the sign-in screen, so a foreign page cannot sign anyone out.
    #[oai(path = "/logout", method = "get", operation_id = "logoutPage")]
    async fn logout_page(&self, state: Data<&AppState>, req: &Request, jar: &CookieJar) -> ApiResult<Redirect> {
        if navigation_of_this_site(req) {
            end_session(&state, req, jar).await?;
        }
        Ok(Redirect::Found(AUTH_SCREEN.into()))
    }

    /// The signed-in user.
    #[oai(path = "/auth/user", method = "get", operation_id = "getAuthUser")]
    async fn current_user(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<UserView>> {
        let previous_sign_in_at = sessions::previous_sign_in(&state.pool, &auth.0.session_token).await?;
        Ok(Json(UserView {
            previous_sign_in_at,
            ..auth.0.user.into()
        }))
    }
}

/// The `Sec-Fetch-Site` values of a navigation this site or the user started (typed, bookmarked).
pub(super) const OWN_NAVIGATION: &[&str] = &["same-origin", "none"];

/// Whether the browser says the request came from this site or from the user themself.
fn navigation_of_this_site(req: &Request) -> bool {
    req.headers()
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|site| OWN_NAVIGATION.contains(&site.trim().to_ascii_lowercase().as_str()))
}

/// The cookie of a pending two-factor sign-in: HttpOnly, only sent to the sign-in endpoints.
fn set_challenge_cookie(jar: &CookieJar, req: &Request, state: &AppState, token: &str, ttl: chrono::Duration) {
    let mut cookie = poem::web::cookie::Cookie::new_with_str(two_factor::CHALLENGE_COOKIE, token);
    cookie.set_http_only(true);
    cookie.set_same_site(poem::web::cookie::SameSite::Strict);
    cookie.set_path(CHALLENGE_COOKIE_PATH);
    cookie.set_secure(crate::auth::secure_cookie(req, state));
    cookie.set_max_age(ttl.to_std().unwrap_or_default());
    jar.add(cookie);
}

/// Where the pending sign-in's cookie is sent.
pub(super) const CHALLENGE_COOKIE_PATH: &str = "/api/login";

/// Starts the session of a completed sign-in, and tells the owner by e-mail when it comes from a
/// browser and address the account has not used lately.
pub(super) async fn start_session(
    state: &AppState,
    req: &Request,
    jar: &CookieJar,
    user_id: uuid::Uuid,
    client: &str,
) -> domain::Result<Option<chrono::DateTime<chrono::Utc>>> {
    let user_agent = req
        .headers()
        .get(poem::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let device = sessions::Device::new(user_agent, client);
    let signed_in = sessions::sign_in(&state.pool, user_id, &device).await?;
    if signed_in.new_device {
        let mut conn = state.pool.acquire().await?;
        let job = EmailJob::NewSignIn {
            user_id,
            user_agent: device.user_agent.clone(),
            address: device.address.clone(),
            at: chrono::Utc::now(),
        };
        email_jobs::enqueue(&mut conn, &job).await?;
    }
    let previous_sign_in_at = sessions::previous_sign_in(&state.pool, &signed_in.token).await?;
    set_session_cookie(jar, req, state, signed_in.token);
    Ok(previous_sign_in_at)
}

async fn end_session(state: &AppState, req: &Request, jar: &CookieJar) -> domain::Result<()> {
    if let Some(token) = session_token(jar) {
        sessions::end(&state.pool, &token).await?;
    }
    clear_session_cookie(jar, req, state);
    Ok(())
}
