use poem::{Request, web::Data};
use poem_openapi::{Object, OpenApi, payload::Json};

use super::{Tag, email_link};
use crate::views::{EmailRequest, MessageResponse};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::job_queue::email::EmailJob;
use domain::{accounts::email_links, rate_limit::Scope};

pub struct PasswordsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ResetPasswordRequest {
    #[oai(default)]
    pub token: String,
    #[oai(default)]
    pub new_password: String,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ChangePasswordRequest {
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
        email_link::send(
            &state,
            req,
            &body.email,
            Scope::ForgotPasswordAddress,
            |pool, email| async move {
                // Past the per-recipient limit no mail goes out.
                Ok(match email_links::reset_recipient(&pool, &email).await? {
                    Some(user_id) if email_links::may_send_reset(&pool, user_id).await? => {
                        Some(EmailJob::ResetPassword { user_id })
                    }
                    _ => None,
                })
            },
        )
        .await?;
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
