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
pub(super) const UNSUBSCRIBE_BUTTON: &str = "Unsubscribe";
/// The heading once a preference is off.
pub(super) const UNSUBSCRIBED: &str = "You are unsubscribed";

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
        let dashboard = state
            .config
            .link(domain::mail::PREFERENCES_PATH, &[domain::mail::PREFERENCES_TAB]);
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

/// The site's look without the site's bundle: its fonts, slate text on the indigo-to-violet wash,
/// a white card and the gradient button (the page's policy allows this inline style and nothing
/// else: `security_headers::UNSUBSCRIBE_CSP`).
pub(super) const PAGE_STYLE: &str = "body{margin:0;min-height:100vh;display:flex;flex-direction:column;align-items:center;\
     font-family:Inter,ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;\
     color:#334155;background:linear-gradient(135deg,#eef2ff,#fff 50%,#f5f3ff)}\
     header{width:100%;box-sizing:border-box;padding:16px 24px;border-bottom:1px solid #e2e8f0;background:#ffffffcc}\
     header a{font-family:'Iowan Old Style','Palatino Linotype',Palatino,Georgia,serif;font-size:20px;font-weight:600;\
     color:#4338ca;text-decoration:none}\
     main{box-sizing:border-box;width:calc(100% - 32px);max-width:480px;margin:64px 16px;padding:32px;background:#fff;\
     border:1px solid #e2e8f0;border-radius:16px;box-shadow:0 10px 30px -12px #4338ca33}\
     h1{margin:0 0 16px;font-family:'Iowan Old Style','Palatino Linotype',Palatino,Georgia,serif;font-size:28px;\
     font-weight:600;color:#0f172a}p{line-height:1.6}a{color:#4f46e5}\
     button{margin-top:8px;padding:10px 20px;border:0;border-radius:8px;font:inherit;font-weight:600;color:#fff;\
     cursor:pointer;background:linear-gradient(90deg,#4f46e5,#7c3aed)}\
     button:hover{filter:brightness(1.1)}:focus-visible{outline:2px solid #6366f1;outline-offset:2px}";

fn page(heading: &str, body: &str) -> String {
    format!(
        "<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <title>{heading} - {PRODUCT_NAME}</title><link rel=\"icon\" href=\"/favicon.svg\">\
         <style>{PAGE_STYLE}</style></head>\n<body>\n<header><a href=\"/\">{PRODUCT_NAME}</a></header>\n\
         <main>\n<h1>{heading}</h1>\n{body}\n</main>\n</body></html>\n",
        heading = escape(heading)
    )
}
