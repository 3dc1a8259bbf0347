//! One-click unsubscribe from e-mails (RFC 8058). The address in a mail's `List-Unsubscribe`
//! header answers a `GET` (a person following the link) with a page whose button does it, and a
//! `POST` (the mail client's one-click, or that button) by turning the one preference off. No
//! session is needed: the signed token names the user and the preference
//! (`domain::accounts::unsubscribe`). It travels in the query string, which no log records.

use poem::web::Data;
use poem_openapi::{ApiResponse, OpenApi, param::Query, payload::Html};

use super::Tag;
use crate::state::AppState;
use domain::{
    accounts::unsubscribe::{self, INVALID_LINK, Preference},
    mail::{PRODUCT_NAME, templates::escape},
};

pub struct UnsubscribeApi;

/// The button of the page a `GET` shows.
pub const UNSUBSCRIBE_BUTTON: &str = "Unsubscribe";
/// The heading once a preference is off.
pub const UNSUBSCRIBED: &str = "You are unsubscribed";

#[derive(ApiResponse)]
pub enum UnsubscribePage {
    /// The page: what the link turns off and a button that does it, or that it is done
    #[oai(status = 200)]
    Ok(Html<String>),
    /// The link is not valid (altered, cut short, or its account is gone)
    #[oai(status = 404)]
    Invalid(Html<String>),
    /// Nothing changed because of a fault on our side (the database did not answer); try again
    #[oai(status = 503)]
    Unavailable(Html<String>),
}

impl UnsubscribePage {
    fn from_result(result: domain::Result<Preference>, done: impl FnOnce(Preference) -> String) -> Self {
        match result {
            Ok(preference) => Self::Ok(Html(done(preference))),
            Err(domain::Error::NotFound(_)) => Self::Invalid(Html(page(INVALID_LINK, INVALID_HINT))),
            Err(err) => {
                tracing::error!(error = %err, "unsubscribe link failed");
                Self::Unavailable(Html(page(UNAVAILABLE, UNAVAILABLE_HINT)))
            }
        }
    }
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Accounts")]
impl UnsubscribeApi {
    /// The page of an e-mail's unsubscribe link: says which e-mails it stops and shows a button
    /// that does it. Changes nothing by itself (mail scanners follow links).
    #[oai(path = "/email/unsubscribe", method = "get", operation_id = "unsubscribePage")]
    async fn page(&self, state: Data<&AppState>, token: Query<Option<String>>) -> UnsubscribePage {
        let token = token.0.unwrap_or_default();
        UnsubscribePage::from_result(unsubscribe::check(&state.pool, &token).await, confirm_page)
    }

    /// One-click unsubscribe (RFC 8058, body `List-Unsubscribe=One-Click`): turns off the one
    /// e-mail preference the token names, without signing in. Doing it again changes nothing.
    #[oai(path = "/email/unsubscribe", method = "post", operation_id = "unsubscribe")]
    async fn unsubscribe(&self, state: Data<&AppState>, token: Query<Option<String>>) -> UnsubscribePage {
        let token = token.0.unwrap_or_default();
        let dashboard = state.config.link("/dashboard", &[]);
        UnsubscribePage::from_result(unsubscribe::unsubscribe(&state.pool, &token).await, |preference| {
            done_page(preference, &dashboard)
        })
    }
}

fn confirm_page(preference: Preference) -> String {
    let label = escape(preference.label());
    page(
        "Unsubscribe",
        &format!(
            "<p>Stop receiving <b>{label}</b> e-mails from {PRODUCT_NAME}?</p>\n\
             <form method=\"post\"><input type=\"hidden\" name=\"List-Unsubscribe\" value=\"One-Click\">\
             <button type=\"submit\">{UNSUBSCRIBE_BUTTON}</button></form>"
        ),
    )
}

fn done_page(preference: Preference, preferences_link: &str) -> String {
    let label = escape(preference.label());
    page(
        UNSUBSCRIBED,
        &format!(
            "<p>You will no longer receive <b>{label}</b> e-mails from {PRODUCT_NAME}.</p>\n\
             <p>You can turn them back on under Email Preferences on <a href=\"{}\">your dashboard</a>.</p>",
            escape(preferences_link)
        ),
    )
}

const INVALID_HINT: &str = "<p>Open the link from the e-mail again, or change your e-mail preferences on your \
     dashboard after signing in.</p>";
const UNAVAILABLE: &str = "Something went wrong";
const UNAVAILABLE_HINT: &str = "<p>Nothing was changed. Please try the link again in a few minutes.</p>";

fn page(heading: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{heading} - {PRODUCT_NAME}</title></head>\n<body>\n<h1>{heading}</h1>\n{body}\n</body></html>\n",
        heading = escape(heading)
    )
}
