//! A small CalDAV client (RFC 4791) over reqwest: discovering a user's calendars (PROPFIND on the
//! address, its `current-user-principal` and `calendar-home-set`), reading events in a time range
//! (REPORT calendar-query), and writing and deleting one event (PUT, DELETE).
//!
//! Every address, the one the mentor gave and every one a server names (hrefs, redirects), obeys
//! the public-address rule (`crate::public_address`): https on the public internet unless
//! `CALDAV_ALLOW_LOCAL_URLS` allows http and loopback. Redirects are followed here, each checked.

use std::time::Duration;

use chrono::{DateTime, Utc};
use reqwest::{Method, StatusCode, header};
use url::Url;

use super::dav_xml::{self, CALDAV, DAV};
use crate::public_address::{self, Policy, Refusal};

/// How long discovery may take in all, and one request at most.
pub const TIMEOUT: Duration = Duration::from_secs(10);
/// Redirects followed for one request.
pub const MAX_REDIRECTS: usize = 3;

pub const WRONG_CREDENTIALS: &str = "The calendar server refused these credentials.";
pub const TIMED_OUT: &str = "The calendar server did not answer within 10 seconds.";
pub const NO_CALENDARS: &str = "The calendar server has no calendars for events at this address.";

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CalDavError {
    #[error("{}", WRONG_CREDENTIALS)]
    Credentials,
    /// What went wrong, in words the mentor can act on.
    #[error("{0}")]
    Failed(String),
}

fn failed(msg: impl Into<String>) -> CalDavError {
    CalDavError::Failed(msg.into())
}

/// A calendar collection found by discovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RemoteCalendar {
    /// Its absolute URL.
    pub href: String,
    pub name: String,
    pub writable: bool,
}

pub struct Client {
    http: reqwest::Client,
    policy: Policy,
    username: String,
    password: String,
}

/// What a refused address means to the mentor.
pub fn refusal_text(r: &Refusal, policy: Policy) -> String {
    match r {
        Refusal::Malformed => "The calendar address is not a valid URL.".into(),
        Refusal::Scheme => "The calendar address must start with https://.".into(),
        Refusal::NotPublic(_) if policy.allow_local => {
            "The calendar address must be on the public internet or this machine.".into()
        }
        Refusal::NotPublic(_) => "The calendar address must be on the public internet.".into(),
        Refusal::Unresolved => "The calendar server's name does not resolve.".into(),
    }
}

fn reach_error(err: &reqwest::Error, policy: Policy) -> CalDavError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(err);
    while let Some(e) = source {
        if let Some(r) = e.downcast_ref::<Refusal>() {
            return failed(refusal_text(r, policy));
        }
        source = e.source();
    }
    if err.is_timeout() {
        failed(TIMED_OUT)
    } else if err.is_connect() {
        failed("The calendar server could not be reached (the connection was refused or failed).")
    } else {
        failed("The calendar server could not be reached.")
    }
}

fn status_text(s: StatusCode) -> String {
    format!("{} {}", s.as_u16(), s.canonical_reason().unwrap_or(""))
        .trim()
        .to_string()
}

impl Client {
    pub fn new(policy: Policy, username: &str, password: &str) -> anyhow::Result<Self> {
        Ok(Self {
            http: public_address::http_client(policy, TIMEOUT)?,
            policy,
            username: username.to_string(),
            password: password.to_string(),
        })
    }

    /// The address as given, checked against the rule.
    pub fn check(&self, raw: &str) -> Result<Url, CalDavError> {
        public_address::check_url(raw, self.policy).map_err(|r| failed(refusal_text(&r, self.policy)))
    }

    /// One request, following redirects (each address checked); 401 and 403 are the credentials'.
    async fn send(
        &self,
        method: &Method,
        url: &Url,
        depth: Option<&str>,
        body: Option<(&'static str, String)>,
    ) -> Result<(StatusCode, Url, String), CalDavError> {
        let mut url = url.clone();
        for _ in 0..=MAX_REDIRECTS {
            let url_checked = self.check(url.as_str())?;
            let mut req = self
                .http
                .request(method.clone(), url_checked.clone())
                .basic_auth(&self.username, Some(&self.password));
            if let Some(d) = depth {
                req = req.header("Depth", d);
            }
            if let Some((content_type, text)) = &body {
                req = req.header(header::CONTENT_TYPE, *content_type).body(text.clone());
            }
            let res = req.send().await.map_err(|e| reach_error(&e, self.policy))?;
            let status = res.status();
            if status.is_redirection()
                && let Some(next) = res.headers().get(header::LOCATION).and_then(|l| l.to_str().ok())
            {
                url = url_checked
                    .join(next)
                    .map_err(|_| failed("The calendar server redirected to an invalid address."))?;
                continue;
            }
            if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) && *method != Method::DELETE {
                return Err(CalDavError::Credentials);
            }
            let text = res.text().await.map_err(|e| reach_error(&e, self.policy))?;
            return Ok((status, url_checked, text));
        }
        Err(failed("The calendar server redirected too many times."))
    }

    async fn propfind(
        &self,
        url: &Url,
        depth: &str,
        query: &str,
    ) -> Result<(Url, Vec<dav_xml::Response>), CalDavError> {
        let method = Method::from_bytes(b"PROPFIND").expect("a method");
        let (status, at, body) = self
            .send(
                &method,
                url,
                Some(depth),
                Some(("application/xml; charset=utf-8", query.to_string())),
            )
            .await?;
        if status != StatusCode::MULTI_STATUS {
            return Err(failed(format!(
                "This address is not a CalDAV server: it answered {} to PROPFIND.",
                status_text(status)
            )));
        }
        let responses = dav_xml::multistatus(&body)
            .map_err(|_| failed("This address is not a CalDAV server: its answer to PROPFIND is not WebDAV XML."))?;
        Ok((at, responses))
    }

    /// An href of a response, absolute.
    fn absolute(&self, base: &Url, href: &str) -> Result<Url, CalDavError> {
        base.join(href)
            .map_err(|_| failed("The calendar server named an invalid address."))
    }

    /// The user's calendars that hold events, within [`TIMEOUT`] in all.
    pub async fn discover(&self, raw: &str) -> Result<Vec<RemoteCalendar>, CalDavError> {
        let url = self.check(raw)?;
        match tokio::time::timeout(TIMEOUT, self.discover_at(&url)).await {
            Ok(found) => found,
            Err(_) => Err(failed(TIMED_OUT)),
        }
    }

    async fn discover_at(&self, url: &Url) -> Result<Vec<RemoteCalendar>, CalDavError> {
        let (at, found) = match self.propfind(url, "0", dav_xml::PRINCIPAL_QUERY).await {
            Ok(found) => found,
            Err(CalDavError::Failed(first)) if url.path() == "/" || url.path().is_empty() => {
                // Providers answer on their well-known address (RFC 6764) rather than the root.
                let well_known = url.join("/.well-known/caldav").expect("a path");
                self.propfind(&well_known, "0", dav_xml::PRINCIPAL_QUERY)
                    .await
                    .map_err(|_| CalDavError::Failed(first))?
            }
            Err(e) => return Err(e),
        };
        let first = found.first().cloned().unwrap_or_default();
        if dav_xml::is_calendar(first.prop(DAV, "resourcetype")) {
            // The address is a calendar itself.
            let (at, found) = self.propfind(&at, "0", dav_xml::CALENDARS_QUERY).await?;
            return Ok(self.calendars_in(&at, &found, true));
        }
        let mut home = first
            .prop(CALDAV, "calendar-home-set")
            .and_then(dav_xml::Element::href)
            .map(|h| self.absolute(&at, h))
            .transpose()?;
        if home.is_none()
            && let Some(principal) = first
                .prop(DAV, "current-user-principal")
                .and_then(dav_xml::Element::href)
        {
            let principal = self.absolute(&at, principal)?;
            let (p_at, p_found) = self.propfind(&principal, "0", dav_xml::PRINCIPAL_QUERY).await?;
            home = p_found
                .first()
                .and_then(|r| r.prop(CALDAV, "calendar-home-set"))
                .and_then(dav_xml::Element::href)
                .map(|h| self.absolute(&p_at, h))
                .transpose()?;
        }
        let home = home.unwrap_or(at);
        let (h_at, h_found) = self.propfind(&home, "1", dav_xml::CALENDARS_QUERY).await?;
        let calendars = self.calendars_in(&h_at, &h_found, false);
        if calendars.is_empty() {
            return Err(failed(NO_CALENDARS));
        }
        Ok(calendars)
    }

    fn calendars_in(&self, base: &Url, found: &[dav_xml::Response], itself: bool) -> Vec<RemoteCalendar> {
        found
            .iter()
            .filter(|r| {
                dav_xml::is_calendar(r.prop(DAV, "resourcetype"))
                    && dav_xml::takes_events(r.prop(CALDAV, "supported-calendar-component-set"))
            })
            .filter_map(|r| {
                let href = if itself && r.href.is_empty() {
                    base.clone()
                } else {
                    self.absolute(base, &r.href).ok()?
                };
                self.check(href.as_str()).ok()?;
                let name = r
                    .prop(DAV, "displayname")
                    .map(|d| d.text.trim().to_string())
                    .filter(|n| !n.is_empty())
                    .unwrap_or_else(|| {
                        href.path_segments()
                            .and_then(|mut s| s.rfind(|s| !s.is_empty()).map(str::to_string))
                            .unwrap_or_else(|| "Calendar".into())
                    });
                Some(RemoteCalendar {
                    href: href.to_string(),
                    name,
                    writable: dav_xml::writable(r.prop(DAV, "current-user-privilege-set")),
                })
            })
            .collect()
    }

    /// The iCalendar objects of the calendar at `href` with an event overlapping `[from, to)`.
    pub async fn events(&self, href: &str, from: DateTime<Utc>, to: DateTime<Utc>) -> Result<Vec<String>, CalDavError> {
        let url = self.check(href)?;
        let method = Method::from_bytes(b"REPORT").expect("a method");
        let stamp = |t: DateTime<Utc>| t.format("%Y%m%dT%H%M%SZ").to_string();
        let query = dav_xml::events_query(&stamp(from), &stamp(to));
        let (status, _, body) = self
            .send(
                &method,
                &url,
                Some("1"),
                Some(("application/xml; charset=utf-8", query)),
            )
            .await?;
        if status != StatusCode::MULTI_STATUS {
            return Err(failed(format!(
                "The calendar server answered {} when its events were read.",
                status_text(status)
            )));
        }
        let found = dav_xml::multistatus(&body)
            .map_err(|_| failed("The calendar server's answer with its events is not WebDAV XML."))?;
        Ok(found
            .iter()
            .filter_map(|r| r.prop(CALDAV, "calendar-data").map(|d| d.text.clone()))
            .filter(|d| !d.trim().is_empty())
            .collect())
    }

    /// Writes (creates or replaces) the event at `href`.
    pub async fn put(&self, href: &str, ics: String) -> Result<(), CalDavError> {
        let url = self.check(href)?;
        let (status, _, _) = self
            .send(&Method::PUT, &url, None, Some(("text/calendar; charset=utf-8", ics)))
            .await?;
        if !status.is_success() {
            return Err(failed(format!(
                "The calendar server answered {} when an event was written.",
                status_text(status)
            )));
        }
        Ok(())
    }

    /// Deletes the event at `href`; one already gone counts as deleted.
    pub async fn delete(&self, href: &str) -> Result<(), CalDavError> {
        let url = self.check(href)?;
        let (status, _, _) = self.send(&Method::DELETE, &url, None, None).await?;
        if status.is_success() || matches!(status, StatusCode::NOT_FOUND | StatusCode::GONE) {
            return Ok(());
        }
        if matches!(status, StatusCode::UNAUTHORIZED | StatusCode::FORBIDDEN) {
            return Err(CalDavError::Credentials);
        }
        Err(failed(format!(
            "The calendar server answered {} when an event was deleted.",
            status_text(status)
        )))
    }
}
