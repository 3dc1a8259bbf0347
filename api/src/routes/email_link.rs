//! The rate-limited "e-mail me a link" requests (resend the verification link, forgotten password).

use poem::Request;
use sqlx::PgPool;

use crate::{error::ApiResult, guard::client_address, state::AppState};
use domain::job_queue::email::{self as email_jobs, EmailJob};
use domain::{
    accounts::validation,
    rate_limit::{self, Scope, TOO_MANY_EMAIL_REQUESTS},
};

/// Checks the address, counts the caller's address under `scope` (past its limit: 429), then
/// queues the mail `link` picks for that address, if any. Whether a mail goes out never shows in
/// the answer, so the caller cannot tell which addresses have accounts.
pub(super) async fn send<F, Fut>(state: &AppState, req: &Request, email: &str, scope: Scope, link: F) -> ApiResult<()>
where
    F: FnOnce(PgPool, String) -> Fut,
    Fut: Future<Output = domain::Result<Option<EmailJob>>>,
{
    let email = validation::email(email)?;
    let limit = state.config.limits.email_requests_per_address;
    rate_limit::hit(
        &state.pool,
        scope,
        &client_address(req, state),
        limit,
        TOO_MANY_EMAIL_REQUESTS,
    )
    .await?;
    if let Some(job) = link(state.pool.clone(), email).await? {
        let mut conn = state.pool.acquire().await?;
        email_jobs::enqueue(&mut conn, &job).await?;
    }
    Ok(())
}
