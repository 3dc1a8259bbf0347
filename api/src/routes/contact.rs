use poem::{Request, web::Data};
use poem_openapi::{ApiResponse, Object, OpenApi, payload::Json};

use super::Tag;
use crate::views::MessageResponse;
use crate::{auth::session_token_from_request, error::ApiResult, guard::client_address, state::AppState};
use domain::job_queue::email::{self as email_jobs, EmailJob};
use domain::{
    accounts::sessions,
    choice::Choice,
    contact::{self, ContactCategory},
    rate_limit::{self, Limit, Scope, TOO_MANY_EMAIL_REQUESTS},
};

pub struct ContactApi;

#[derive(Object)]
pub(super) struct ContactRequest {
    #[oai(default)]
    pub name: String,
    #[oai(default)]
    pub email: String,
    #[oai(default)]
    pub subject: String,
    /// general (when absent or blank), technical, billing, mentor, report, partnership or feedback
    pub category: Option<Choice<ContactCategory>>,
    #[oai(default)]
    pub message: String,
}

#[derive(ApiResponse)]
pub enum ContactSent {
    /// Stored and on its way to support
    #[oai(status = 201)]
    Created(Json<MessageResponse>),
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Support")]
impl ContactApi {
    /// Sends a message to support (stored, then e-mailed to the support address).
    #[oai(path = "/contact", method = "post", operation_id = "sendContactMessage")]
    async fn send(&self, state: Data<&AppState>, req: &Request, body: Json<ContactRequest>) -> ApiResult<ContactSent> {
        domain::text::single_line(&body.name, "Name")
            .and(domain::text::single_line(&body.subject, "Subject"))
            .and(domain::text::multi_line(&body.message, "Message"))?;
        let client = client_address(req, &state);
        let limit = Limit {
            scope: Scope::ContactAddress,
            key: &client,
            limit: state.config.limits.email_requests_per_address,
        };
        let user_id = match session_token_from_request(req) {
            Some(token) => sessions::user_for(&state.pool, &token).await?.map(|u| u.id),
            None => None,
        };
        let mut tx = state.pool.begin().await?;
        // Counted only when the message is stored: a refused form takes its event back with the rollback.
        rate_limit::take(&mut tx, &[limit], TOO_MANY_EMAIL_REQUESTS).await?;
        let id = contact::store(
            &mut tx,
            contact::NewMessage {
                name: &body.name,
                email: &body.email,
                subject: &body.subject,
                category: body.category.as_ref(),
                message: &body.message,
                user_id,
            },
        )
        .await?;
        email_jobs::enqueue(&mut tx, &EmailJob::Contact { message_id: id }).await?;
        tx.commit().await?;
        Ok(ContactSent::Created(Json(MessageResponse::new(contact::SENT))))
    }
}
