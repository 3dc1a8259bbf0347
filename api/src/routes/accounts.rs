use poem::{
    Request,
    web::{Data, cookie::CookieJar},
};
use poem_openapi::{ApiResponse, Object, OpenApi, payload::Json};

use super::{
    Tag,
    views::{EmailRequest, MessageResponse, UserView},
};
use crate::{
    auth::{SessionAuth, clear_session_cookie, session_token, set_session_cookie},
    error::ApiResult,
    guard::client_address,
    state::AppState,
};
use domain::{
    accounts::{email_links, login, registration, sessions, validation},
    rate_limit::{self, Scope, TOO_MANY_EMAIL_REQUESTS},
};
use jobs::email::{self as email_jobs, EmailJob};

pub struct AccountsApi;

pub const LOGGED_OUT: &str = "Logged out successfully";
/// Where browser navigations to the sign-in endpoint land.
pub const AUTH_SCREEN: &str = "/auth";

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct RegisterRequest {
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub password: String,
    #[oai(default)]
    pub first_name: String,
    #[oai(default)]
    pub last_name: String,
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
pub struct LoginRequest {
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub password: String,
}

#[derive(Object)]
pub struct TokenRequest {
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
            registration::Registered::New(user_id) => EmailJob::VerifyEmail { user_id },
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
        let email = validation::email(&body.email)?;
        let limit = state.config.limits.email_requests_per_address;
        rate_limit::hit(
            &state.pool,
            Scope::ResendVerificationAddress,
            &client_address(req, &state),
            limit,
            TOO_MANY_EMAIL_REQUESTS,
        )
        .await?;
        if let Some(user_id) = registration::awaiting_verification(&state.pool, &email).await? {
            let mut conn = state.pool.acquire().await?;
            email_jobs::enqueue(&mut conn, &EmailJob::VerifyEmail { user_id }).await?;
        }
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
    ) -> ApiResult<Json<UserView>> {
        let client = client_address(req, &state);
        let user = login::login(&state.pool, &state.config.limits, &body.email, &body.password, &client).await?;
        let token = sessions::create(&state.pool, user.id).await?;
        set_session_cookie(jar, req, &state, token);
        Ok(Json(user.into()))
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

    /// The signed-in user.
    #[oai(path = "/auth/user", method = "get", operation_id = "getAuthUser")]
    async fn current_user(&self, auth: SessionAuth) -> Json<UserView> {
        Json(auth.0.user.into())
    }
}

async fn end_session(state: &AppState, req: &Request, jar: &CookieJar) -> domain::Result<()> {
    if let Some(token) = session_token(jar) {
        sessions::end(&state.pool, &token).await?;
    }
    clear_session_cookie(jar, req, state);
    Ok(())
}
