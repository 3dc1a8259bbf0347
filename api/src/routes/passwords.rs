use poem::{Request, web::Data};
use poem_openapi::{Object, OpenApi, payload::Json};

use super::{
    Tag,
    views::{EmailRequest, MessageResponse},
};
use crate::{auth::SessionAuth, error::ApiResult, guard::client_address, state::AppState};
use domain::{
    accounts::{email_links, validation},
    rate_limit::{self, Scope, TOO_MANY_EMAIL_REQUESTS},
};
use jobs::email::{self as email_jobs, EmailJob};

pub struct PasswordsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ResetPasswordRequest {
    #[oai(default)]
    pub token: String,
    #[oai(default)]
    pub new_password: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct ChangePasswordRequest {
    #[oai(default)]
    pub current_password: String,
    #[oai(default)]
    pub new_password: String,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Passwords")]
impl PasswordsApi {
    /// E-mails a reset link to an existing account; the answer is the same for every address.
    #[oai(path = "/forgot-password", method = "post", operation_id = "forgotPassword")]
    async fn forgot_password(
        &self,
        state: Data<&AppState>,
        req: &Request,
        body: Json<EmailRequest>,
    ) -> ApiResult<Json<MessageResponse>> {
        let email = validation::email(&body.email)?;
        let limit = state.config.limits.email_requests_per_address;
        rate_limit::hit(
            &state.pool,
            Scope::ForgotPasswordAddress,
            &client_address(req, &state),
            limit,
            TOO_MANY_EMAIL_REQUESTS,
        )
        .await?;
        if let Some(user_id) = email_links::reset_recipient(&state.pool, &email).await? {
            let mut conn = state.pool.acquire().await?;
            email_jobs::enqueue(&mut conn, &EmailJob::ResetPassword { user_id }).await?;
        }
        Ok(Json(MessageResponse::new(email_links::RESET_REQUESTED)))
    }

    /// Sets a new password with the token from a reset link; every session of the user ends.
    #[oai(path = "/reset-password", method = "post", operation_id = "resetPassword")]
    async fn reset_password(
        &self,
        state: Data<&AppState>,
        body: Json<ResetPasswordRequest>,
    ) -> ApiResult<Json<MessageResponse>> {
        email_links::reset_password(&state.pool, &body.token, &body.new_password).await?;
        Ok(Json(MessageResponse::new(email_links::PASSWORD_RESET)))
    }

    /// Changes the signed-in user's password; their other sessions end.
    #[oai(path = "/user/change-password", method = "post", operation_id = "changePassword")]
    async fn change_password(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<ChangePasswordRequest>,
    ) -> ApiResult<Json<MessageResponse>> {
        let me = &auth.0;
        email_links::change_password(
            &state.pool,
            me.user.id,
            &me.session_token,
            &body.current_password,
            &body.new_password,
        )
        .await?;
        Ok(Json(MessageResponse::new(email_links::PASSWORD_CHANGED)))
    }
}
