//! Settings from the environment, each with a default that works on a developer machine.

use std::{env, path::PathBuf, str::FromStr};

use anyhow::{Context, anyhow, bail};
use url::Url;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MailTransport {
    /// Each message becomes an `.eml` file in `MAIL_DIR`.
    File,
    Smtp,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GatewayKind {
    /// The stand-in gateway with documented test cards, and faults for tests.
    Test(TestGatewaySettings),
    AuthorizeNet(AuthorizeNetSettings),
}

/// Test-only behaviour of `PAYMENT_GATEWAY=test`, to test failures between us and the gateway.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TestGatewaySettings {
    /// `PAYMENT_TEST_CHARGE_DELAY_MS`: the time between approving a charge and answering.
    pub charge_delay_ms: u64,
    /// `PAYMENT_TEST_REFUND_DELAY_MS`: the time between making a refund and answering.
    pub refund_delay_ms: u64,
    /// `PAYMENT_TEST_CHARGE_FAULT`
    pub charge_fault: Option<GatewayFault>,
    /// `PAYMENT_TEST_REFUND_FAULT`
    pub refund_fault: Option<GatewayFault>,
}

/// What goes wrong between us and the test gateway.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GatewayFault {
    /// `timeout-after-approve`: the gateway makes the charge or refund, then the answer is lost.
    LostAnswer,
    /// `error`: the request never reaches the gateway.
    Unreachable,
}

impl FromStr for GatewayFault {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "timeout-after-approve" => Ok(Self::LostAnswer),
            "error" => Ok(Self::Unreachable),
            other => Err(format!("expected 'timeout-after-approve' or 'error', not '{other}'")),
        }
    }
}

#[derive(Clone, PartialEq, Eq)]
pub struct AuthorizeNetSettings {
    pub login_id: String,
    pub transaction_key: String,
    /// The JSON API address (sandbox or production, or a local stand-in in tests).
    pub endpoint: String,
}

impl std::fmt::Debug for AuthorizeNetSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AuthorizeNetSettings")
            .field("endpoint", &self.endpoint)
            .finish_non_exhaustive()
    }
}

pub const AUTHNET_SANDBOX_ENDPOINT: &str = "https://apitest.authorize.net/xml/v1/request.api";
pub const AUTHNET_PRODUCTION_ENDPOINT: &str = "https://api.authorize.net/xml/v1/request.api";

#[derive(Clone, Debug)]
pub struct Config {
    /// `ADMIN_TWO_FACTOR=required` (the default with the production profile): admin endpoints refuse
    /// administrators without two-factor sign-in; `optional` (the default otherwise) lets them in.
    pub admin_two_factor_required: bool,
    pub database_url: String,
    pub port: u16,
    /// `HOST`: the address `api serve` listens on; every interface unless set (`scripts/run`
    /// sets 127.0.0.1, as Janus and coturn bind there).
    pub host: std::net::IpAddr,
    /// Public address of the app; every link in every e-mail starts with it.
    pub app_base_url: Url,
    pub mail_transport: MailTransport,
    pub mail_dir: PathBuf,
    pub smtp_url: Option<String>,
    pub mail_from: String,
    /// Where contact-form messages go.
    pub support_email: String,
    /// Where privacy requests go (`PRIVACY_EMAIL`), shown on the privacy page.
    pub privacy_email: String,
    /// The platform's name and postal address on receipts (`PLATFORM_NAME`, `PLATFORM_ADDRESS`).
    pub platform: Platform,
    pub upload_dir: PathBuf,
    /// Where archives of people's data are built (`EXPORT_DIR`): private, never under `upload_dir`
    /// (whose files are served to anyone).
    pub export_dir: PathBuf,
    pub web_dist: PathBuf,
    /// Read the client's address and scheme from `X-Forwarded-For`/`X-Forwarded-Proto` (only behind
    /// a proxy that appends to them).
    pub trust_proxy: bool,
    /// How many trusted proxies stand in front (`TRUSTED_PROXY_HOPS`, read only with `TRUST_PROXY`):
    /// the entry that many from the right of a forwarding header is the one our own proxies wrote;
    /// anything left of it the client may have written itself.
    pub trusted_proxy_hops: usize,
    pub limits: Limits,
    pub payment_gateway: GatewayKind,
    /// How long after a payment attempt starts the worker settles it when the api has not
    /// (`PAYMENT_RECONCILE_AFTER_SECONDS`).
    pub payment_reconcile_after: chrono::Duration,
    /// ICE servers for one-to-one calls.
    pub rtc: RtcSettings,
    /// The SFU of group calls; none configured: group calls are unavailable (503).
    pub janus: Option<crate::group_calls::JanusSettings>,
    /// Web Push: `PUSH_ALLOW_LOCAL_ENDPOINTS` and `VAPID_SUBJECT`.
    pub push: PushSettings,
    /// `CALDAV_ALLOW_LOCAL_URLS=true`: mentors' CalDAV addresses may be `http` and on loopback
    /// (tests and development; refused at start-up with the production profile).
    pub caldav_allow_local_urls: bool,
    /// `SECRETS_KEY`: seals secrets at rest (CalDAV passwords); required in production.
    pub secrets_key: crate::secrets::SecretsKey,
    /// `REALTIME_BUS`: `postgres` (the default) or `nats` (issue 37 §2; the same in api and worker).
    pub realtime_bus: crate::realtime::Bus,
    /// `NATS_URL` of the NATS bus ([`DEFAULT_NATS_URL`] unless set).
    pub nats_url: String,
}

pub const DEFAULT_NATS_URL: &str = "nats://127.0.0.1:4222";

/// `REALTIME_BUS` and `NATS_URL`.
fn realtime_bus_settings(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<(crate::realtime::Bus, String)> {
    let bus = match get("REALTIME_BUS").as_deref().map(str::trim) {
        None | Some("postgres") => crate::realtime::Bus::Postgres,
        Some("nats") => crate::realtime::Bus::Nats,
        Some(other) => bail!("REALTIME_BUS must be 'postgres' or 'nats', not '{other}'"),
    };
    let url = get("NATS_URL").unwrap_or_else(|| DEFAULT_NATS_URL.into());
    if !(url.starts_with("nats://") || url.starts_with("tls://")) {
        bail!("NATS_URL must be a nats:// or tls:// URL");
    }
    Ok((bus, url))
}

pub const LOCAL_CALDAV_IN_PRODUCTION: &str =
    "CALDAV_ALLOW_LOCAL_URLS=true is for tests and development only: unset it in production";

/// Web Push settings (docs/push.md).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PushSettings {
    /// `PUSH_ALLOW_LOCAL_ENDPOINTS=true`: push endpoints may be `http` and on loopback (tests and
    /// development; refused at start-up with the production profile).
    pub allow_local_endpoints: bool,
    /// `VAPID_SUBJECT`, the VAPID JWT's `sub`: `mailto:` the support address unless set.
    pub vapid_subject: String,
}

pub const LOCAL_PUSH_IN_PRODUCTION: &str =
    "PUSH_ALLOW_LOCAL_ENDPOINTS=true is for tests and development only: unset it in production";

fn push_settings(
    get: &impl Fn(&str) -> Option<String>,
    production: bool,
    support_email: &str,
) -> anyhow::Result<PushSettings> {
    let allow_local_endpoints = parse(get, "PUSH_ALLOW_LOCAL_ENDPOINTS")?.unwrap_or(false);
    if allow_local_endpoints && production {
        bail!(LOCAL_PUSH_IN_PRODUCTION);
    }
    let vapid_subject = get("VAPID_SUBJECT")
        .map(|s| s.trim().to_owned())
        .unwrap_or_else(|| format!("mailto:{support_email}"));
    if !(vapid_subject.starts_with("mailto:") || vapid_subject.starts_with("https://")) || vapid_subject.len() < 8 {
        bail!("VAPID_SUBJECT must be a mailto: or https: URL, not '{vapid_subject}'");
    }
    Ok(PushSettings {
        allow_local_endpoints,
        vapid_subject,
    })
}

/// `RTC_STUN_URLS` (comma list), optional `RTC_TURN_URL` with `RTC_TURN_SECRET` (shared with the
/// TURN server) and `RTC_TURN_TTL_SECONDS` (how long issued credentials last).
#[derive(Clone, PartialEq, Eq)]
pub struct RtcSettings {
    pub stun_urls: Vec<String>,
    pub turn: Option<TurnSettings>,
}

#[derive(Clone, PartialEq, Eq)]
pub struct TurnSettings {
    pub urls: Vec<String>,
    pub secret: String,
    pub ttl: chrono::Duration,
}

impl std::fmt::Debug for RtcSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RtcSettings")
            .field("stun_urls", &self.stun_urls)
            .field("turn_urls", &self.turn.as_ref().map(|t| &t.urls))
            .finish_non_exhaustive()
    }
}

pub const DEFAULT_STUN_URLS: &str = "stun:stun.l.google.com:19302";
pub const DEFAULT_TURN_TTL_SECONDS: i64 = 86_400;

fn rtc_settings(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<RtcSettings> {
    let list = |raw: String| {
        raw.split(',')
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .map(String::from)
            .collect::<Vec<_>>()
    };
    let stun_urls = list(get("RTC_STUN_URLS").unwrap_or_else(|| DEFAULT_STUN_URLS.into()));
    let turn = match (get("RTC_TURN_URL"), get("RTC_TURN_SECRET")) {
        (Some(url), Some(secret)) => Some(TurnSettings {
            urls: list(url),
            secret,
            ttl: chrono::Duration::seconds(parse(get, "RTC_TURN_TTL_SECONDS")?.unwrap_or(DEFAULT_TURN_TTL_SECONDS)),
        }),
        (Some(_), None) => bail!("RTC_TURN_SECRET is required with RTC_TURN_URL"),
        (None, _) => None,
    };
    if turn.as_ref().is_some_and(|t| t.ttl <= chrono::Duration::zero()) {
        bail!("RTC_TURN_TTL_SECONDS must be positive");
    }
    Ok(RtcSettings { stun_urls, turn })
}

/// `JANUS_HTTP_URL`, `JANUS_WS_URL`, `JANUS_ADMIN_KEY` and `JANUS_TOKEN_SECRET`: all four or none.
fn janus_settings(get: &impl Fn(&str) -> Option<String>) -> anyhow::Result<Option<crate::group_calls::JanusSettings>> {
    const NAMES: [&str; 4] = [
        "JANUS_HTTP_URL",
        "JANUS_WS_URL",
        "JANUS_ADMIN_KEY",
        "JANUS_TOKEN_SECRET",
    ];
    let values: Vec<Option<String>> = NAMES.iter().map(|n| get(n).filter(|v| !v.trim().is_empty())).collect();
    if values.iter().all(Option::is_none) {
        return Ok(None);
    }
    if let Some(missing) = NAMES.iter().zip(&values).find(|(_, v)| v.is_none()) {
        bail!("{} is required with the other JANUS_* settings", missing.0);
    }
    let [http_url, ws_url, admin_key, token_secret]: [String; 4] = values
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .try_into()
        .expect("four values");
    Url::parse(&http_url).map_err(|e| anyhow!("JANUS_HTTP_URL: {e}"))?;
    Url::parse(&ws_url).map_err(|e| anyhow!("JANUS_WS_URL: {e}"))?;
    Ok(Some(crate::group_calls::JanusSettings {
        http_url,
        ws_url,
        admin_key,
        token_secret,
    }))
}

/// Abuse limits, counted over [`crate::rate_limit::WINDOW`].
#[derive(Clone, Debug)]
pub struct Limits {
    /// Failed sign-ins for one account from one client address (then that address gets 429 for it).
    pub login_failures_per_account: i64,
    /// Failed sign-ins for one account from all addresses together past which every attempt waits.
    pub login_slowdown_after_account_failures: i64,
    pub login_failures_per_address: i64,
    pub email_requests_per_address: i64,
    pub registrations_per_address: i64,
}

pub const DEFAULT_PORT: u16 = 8080;
pub const DEFAULT_HOST: std::net::IpAddr = std::net::IpAddr::V4(std::net::Ipv4Addr::UNSPECIFIED);
pub const DEFAULT_PAYMENT_RECONCILE_AFTER_SECONDS: i64 = 120;
pub const DEFAULT_LOGIN_FAILURES_PER_ACCOUNT: i64 = 10;
/// One proxy in front by default: the rightmost `X-Forwarded-For` entry is the one it added.
pub const DEFAULT_TRUSTED_PROXY_HOPS: usize = 1;
pub const DEFAULT_LOGIN_FAILURES_PER_ADDRESS: i64 = 100;
pub const DEFAULT_LOGIN_SLOWDOWN_AFTER_ACCOUNT_FAILURES: i64 = 50;
pub const DEFAULT_EMAIL_REQUESTS_PER_ADDRESS: i64 = 10;
pub const DEFAULT_REGISTRATIONS_PER_ADDRESS: i64 = 10;
pub const DEFAULT_DATABASE_URL: &str = "postgres://postgres@127.0.0.1:5432/mentor";
pub const DEFAULT_MAIL_FROM: &str = "Mystic Mentors <no-reply@mystic-mentors.test>";
pub const DEFAULT_SUPPORT_EMAIL: &str = "support@mystic-mentors.test";
pub const DEFAULT_PRIVACY_EMAIL: &str = "privacy@mystic-mentors.test";
pub const DEFAULT_PLATFORM_NAME: &str = "Mystic Mentors";
/// No address until an operator sets one (`PLATFORM_ADDRESS`, lines separated by `;`): receipts then
/// show none rather than an invented one.
pub const DEFAULT_PLATFORM_ADDRESS: &str = "";

/// Where data exports are built unless `EXPORT_DIR` says otherwise (beside `var/uploads`, not in it).
pub const DEFAULT_EXPORT_DIR: &str = "var/exports";
pub const EXPORT_UNDER_UPLOADS: &str =
    "EXPORT_DIR must not be inside UPLOAD_DIR: uploaded files are public, data exports are not";

/// Who issues receipts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Platform {
    pub name: String,
    pub address: String,
}

impl Config {
    pub fn from_env() -> anyhow::Result<Self> {
        Self::from_lookup(|name| env::var(name).ok().filter(|v| !v.trim().is_empty()))
    }

    /// Reads settings through `get`, so tests can pass a map instead of the process environment.
    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> anyhow::Result<Self> {
        let port: u16 = parse(&get, "PORT")?.unwrap_or(DEFAULT_PORT);
        let host: std::net::IpAddr = parse(&get, "HOST")?.unwrap_or(DEFAULT_HOST);
        let app_base_url = match get("APP_BASE_URL") {
            Some(raw) => {
                let url = Url::parse(raw.trim_end_matches('/'))
                    .map_err(|e| anyhow!("APP_BASE_URL is not a valid URL ({e}): {raw}"))?;
                if !matches!(url.scheme(), "http" | "https") {
                    bail!("APP_BASE_URL must start with http:// or https://: {raw}");
                }
                url
            }
            None => Url::parse(&format!("http://localhost:{port}")).expect("valid default url"),
        };
        let mail_transport = match get("MAIL_TRANSPORT").as_deref() {
            None | Some("file") => MailTransport::File,
            Some("smtp") => MailTransport::Smtp,
            Some(other) => bail!("MAIL_TRANSPORT must be 'file' or 'smtp', not '{other}'"),
        };
        let smtp_url = get("SMTP_URL");
        let upload_dir: PathBuf = get("UPLOAD_DIR").unwrap_or_else(|| "var/uploads".into()).into();
        let export_dir: PathBuf = get("EXPORT_DIR").unwrap_or_else(|| DEFAULT_EXPORT_DIR.into()).into();
        if export_dir.starts_with(&upload_dir) {
            bail!("{EXPORT_UNDER_UPLOADS}");
        }
        if mail_transport == MailTransport::Smtp && smtp_url.is_none() {
            bail!("SMTP_URL is required when MAIL_TRANSPORT=smtp (for example smtp://127.0.0.1:2525)");
        }
        let mail_from = get("MAIL_FROM").unwrap_or_else(|| DEFAULT_MAIL_FROM.into());
        mail_from
            .parse::<lettre::message::Mailbox>()
            .with_context(|| format!("MAIL_FROM is not a valid mailbox: {mail_from}"))?;
        let support_email = get("SUPPORT_EMAIL").unwrap_or_else(|| DEFAULT_SUPPORT_EMAIL.into());
        support_email
            .parse::<lettre::Address>()
            .with_context(|| format!("SUPPORT_EMAIL is not a valid address: {support_email}"))?;
        let privacy_email = get("PRIVACY_EMAIL").unwrap_or_else(|| DEFAULT_PRIVACY_EMAIL.into());
        privacy_email
            .parse::<lettre::Address>()
            .with_context(|| format!("PRIVACY_EMAIL is not a valid address: {privacy_email}"))?;
        let database_url = get("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.into());
        if !database_url.starts_with("postgres://") && !database_url.starts_with("postgresql://") {
            bail!("DATABASE_URL must be a postgres:// URL");
        }
        let production = match get("APP_ENV").as_deref() {
            None => app_base_url.scheme() == "https",
            Some("production") => true,
            Some("development" | "test") => false,
            Some(other) => bail!("APP_ENV must be 'production', 'development' or 'test', not '{other}'"),
        };
        let payment_gateway = match get("PAYMENT_GATEWAY").as_deref() {
            None if production => {
                bail!("PAYMENT_GATEWAY must be set in production (authorizenet, or test to take only test cards)")
            }
            None | Some("test") => GatewayKind::Test(TestGatewaySettings {
                charge_delay_ms: parse(&get, "PAYMENT_TEST_CHARGE_DELAY_MS")?.unwrap_or(0),
                refund_delay_ms: parse(&get, "PAYMENT_TEST_REFUND_DELAY_MS")?.unwrap_or(0),
                charge_fault: parse(&get, "PAYMENT_TEST_CHARGE_FAULT")?,
                refund_fault: parse(&get, "PAYMENT_TEST_REFUND_FAULT")?,
            }),
            Some("authorizenet") => {
                let required = |name: &str| {
                    get(name).ok_or_else(|| anyhow!("{name} is required when PAYMENT_GATEWAY=authorizenet"))
                };
                let endpoint = match (get("AUTHNET_ENDPOINT"), get("AUTHNET_ENV").as_deref()) {
                    (Some(url), _) => url,
                    (None, None | Some("sandbox")) => AUTHNET_SANDBOX_ENDPOINT.into(),
                    (None, Some("production")) => AUTHNET_PRODUCTION_ENDPOINT.into(),
                    (None, Some(other)) => bail!("AUTHNET_ENV must be 'sandbox' or 'production', not '{other}'"),
                };
                GatewayKind::AuthorizeNet(AuthorizeNetSettings {
                    login_id: required("AUTHNET_API_LOGIN_ID")?,
                    transaction_key: required("AUTHNET_TRANSACTION_KEY")?,
                    endpoint,
                })
            }
            Some(other) => bail!("PAYMENT_GATEWAY must be 'test' or 'authorizenet', not '{other}'"),
        };
        let trust_proxy = parse(&get, "TRUST_PROXY")?.unwrap_or(false);
        let trusted_proxy_hops = if trust_proxy {
            parse(&get, "TRUSTED_PROXY_HOPS")?.unwrap_or(DEFAULT_TRUSTED_PROXY_HOPS)
        } else {
            DEFAULT_TRUSTED_PROXY_HOPS
        };
        if trusted_proxy_hops == 0 {
            bail!("TRUSTED_PROXY_HOPS must be at least 1");
        }
        let admin_two_factor_required = match get("ADMIN_TWO_FACTOR").as_deref() {
            None => production,
            Some("required") => true,
            Some("optional") => false,
            Some(other) => bail!("ADMIN_TWO_FACTOR must be 'required' or 'optional', not '{other}'"),
        };
        let push = push_settings(&get, production, &support_email)?;
        let caldav_allow_local_urls = parse(&get, "CALDAV_ALLOW_LOCAL_URLS")?.unwrap_or(false);
        if caldav_allow_local_urls && production {
            bail!(LOCAL_CALDAV_IN_PRODUCTION);
        }
        let secrets_key = crate::secrets::SecretsKey::from_setting(get("SECRETS_KEY").as_deref(), production)?;
        let (realtime_bus, nats_url) = realtime_bus_settings(&get)?;
        Ok(Self {
            realtime_bus,
            nats_url,
            caldav_allow_local_urls,
            secrets_key,
            admin_two_factor_required,
            push,
            rtc: rtc_settings(&get)?,
            janus: janus_settings(&get)?,
            payment_gateway,
            payment_reconcile_after: chrono::Duration::seconds(
                parse(&get, "PAYMENT_RECONCILE_AFTER_SECONDS")?.unwrap_or(DEFAULT_PAYMENT_RECONCILE_AFTER_SECONDS),
            ),
            database_url,
            port,
            host,
            app_base_url,
            mail_transport,
            mail_dir: get("MAIL_DIR").unwrap_or_else(|| "var/mail".into()).into(),
            smtp_url,
            mail_from,
            support_email,
            privacy_email,
            platform: Platform {
                name: get("PLATFORM_NAME").unwrap_or_else(|| DEFAULT_PLATFORM_NAME.into()),
                address: get("PLATFORM_ADDRESS")
                    .unwrap_or_else(|| DEFAULT_PLATFORM_ADDRESS.into())
                    .trim()
                    .to_string(),
            },
            upload_dir,
            export_dir,
            web_dist: get("WEB_DIST").unwrap_or_else(|| "web/dist".into()).into(),
            trust_proxy,
            trusted_proxy_hops,
            limits: Limits {
                login_failures_per_account: parse(&get, "LOGIN_MAX_FAILURES_PER_ACCOUNT")?
                    .unwrap_or(DEFAULT_LOGIN_FAILURES_PER_ACCOUNT),
                login_slowdown_after_account_failures: parse(&get, "LOGIN_SLOWDOWN_AFTER_ACCOUNT_FAILURES")?
                    .unwrap_or(DEFAULT_LOGIN_SLOWDOWN_AFTER_ACCOUNT_FAILURES),
                login_failures_per_address: parse(&get, "LOGIN_MAX_FAILURES_PER_ADDRESS")?
                    .unwrap_or(DEFAULT_LOGIN_FAILURES_PER_ADDRESS),
                email_requests_per_address: parse(&get, "EMAIL_REQUESTS_PER_ADDRESS")?
                    .unwrap_or(DEFAULT_EMAIL_REQUESTS_PER_ADDRESS),
                registrations_per_address: parse(&get, "REGISTRATIONS_PER_ADDRESS")?
                    .unwrap_or(DEFAULT_REGISTRATIONS_PER_ADDRESS),
            },
        })
    }

    /// A link into the web app, e.g. `link("/verify-email", &[("token", t)])`.
    /// The bare address of `MAIL_FROM` (`no-reply@example.com` of `Name <no-reply@example.com>`).
    pub fn mail_from_address(&self) -> String {
        let from = self.mail_from.trim();
        match (from.rfind('<'), from.rfind('>')) {
            (Some(open), Some(close)) if open < close => from[open + 1..close].trim().to_string(),
            _ => from.to_string(),
        }
    }

    pub fn link(&self, path: &str, query: &[(&str, &str)]) -> String {
        let mut url = self.app_base_url.clone();
        url.set_path(path);
        if !query.is_empty() {
            url.query_pairs_mut().extend_pairs(query);
        }
        url.to_string()
    }

    /// The address rule of push endpoints.
    pub fn push_policy(&self) -> crate::public_address::Policy {
        crate::public_address::Policy {
            allow_local: self.push.allow_local_endpoints,
        }
    }

    /// The address rule of mentors' CalDAV servers.
    pub fn caldav_policy(&self) -> crate::public_address::Policy {
        crate::public_address::Policy {
            allow_local: self.caldav_allow_local_urls,
        }
    }

    pub fn secure_cookies(&self) -> bool {
        self.app_base_url.scheme() == "https"
    }
}

fn parse<T: FromStr>(get: &impl Fn(&str) -> Option<String>, name: &str) -> anyhow::Result<Option<T>>
where
    T::Err: std::fmt::Display,
{
    get(name)
        .map(|raw| {
            raw.trim()
                .parse::<T>()
                .map_err(|e| anyhow!("{name} is malformed ({e}): {raw}"))
        })
        .transpose()
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    /// Settings from `pairs`, with a `SECRETS_KEY` unless they name one (an empty value: unset).
    fn config(pairs: &[(&str, &str)]) -> anyhow::Result<Config> {
        let mut map: HashMap<String, String> = HashMap::from([("SECRETS_KEY".to_string(), TEST_KEY.to_string())]);
        map.extend(pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())));
        map.retain(|_, v| !v.is_empty());
        Config::from_lookup(|k| map.get(k).cloned())
    }

    const TEST_KEY: &str = "AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=";

    #[test]
    fn the_realtime_bus_is_postgres_unless_nats_is_asked_for() {
        let c = config(&[]).unwrap();
        assert_eq!(
            (c.realtime_bus, c.nats_url.as_str()),
            (crate::realtime::Bus::Postgres, DEFAULT_NATS_URL)
        );
        let c = config(&[("REALTIME_BUS", "nats"), ("NATS_URL", "nats://10.0.0.5:4300")]).unwrap();
        assert_eq!(
            (c.realtime_bus, c.nats_url.as_str()),
            (crate::realtime::Bus::Nats, "nats://10.0.0.5:4300")
        );
        assert!(config(&[("REALTIME_BUS", "kafka")]).is_err());
        assert!(config(&[("REALTIME_BUS", "nats"), ("NATS_URL", "http://x")]).is_err());
    }

    #[test]
    fn data_exports_never_live_under_the_public_uploads() {
        let err = config(&[("UPLOAD_DIR", "/srv/up"), ("EXPORT_DIR", "/srv/up/exports")]).unwrap_err();
        assert_eq!(err.to_string(), EXPORT_UNDER_UPLOADS);
        assert!(config(&[("EXPORT_DIR", "var/uploads")]).is_err());
        let c = config(&[("UPLOAD_DIR", "/srv/up"), ("EXPORT_DIR", "/srv/exports")]).unwrap();
        assert_eq!(c.export_dir, PathBuf::from("/srv/exports"));
    }

    #[test]
    fn defaults_work_on_a_developer_machine() {
        let c = config(&[]).unwrap();
        assert_eq!(c.port, 8080);
        assert_eq!(c.app_base_url.as_str(), "http://localhost:8080/");
        assert_eq!(c.mail_transport, MailTransport::File);
        assert_eq!(c.mail_dir, PathBuf::from("var/mail"));
        assert_eq!(c.upload_dir, PathBuf::from("var/uploads"));
        assert_eq!(c.export_dir, PathBuf::from("var/exports"));
        assert_eq!(c.web_dist, PathBuf::from("web/dist"));
        assert_eq!(c.limits.login_failures_per_account, 10);
        assert_eq!(c.limits.login_failures_per_address, 100);
        assert_eq!(c.limits.registrations_per_address, 10);
        assert!(!c.secure_cookies());
        assert_eq!(c.payment_gateway, GatewayKind::Test(TestGatewaySettings::default()));
        assert_eq!(c.payment_reconcile_after, chrono::Duration::minutes(2));
    }

    #[test]
    fn trusted_proxy_hops_default_to_one_and_are_read_only_behind_a_trusted_proxy() {
        assert_eq!(config(&[]).unwrap().trusted_proxy_hops, DEFAULT_TRUSTED_PROXY_HOPS);
        assert_eq!(DEFAULT_TRUSTED_PROXY_HOPS, 1);
        let c = config(&[("TRUST_PROXY", "true"), ("TRUSTED_PROXY_HOPS", "2")]).unwrap();
        assert_eq!((c.trust_proxy, c.trusted_proxy_hops), (true, 2));
        let c = config(&[("TRUSTED_PROXY_HOPS", "2")]).unwrap();
        assert_eq!(
            c.trusted_proxy_hops, DEFAULT_TRUSTED_PROXY_HOPS,
            "ignored without TRUST_PROXY"
        );
        assert!(config(&[("TRUST_PROXY", "true"), ("TRUSTED_PROXY_HOPS", "0")]).is_err());
    }

    #[test]
    fn caldav_local_urls_and_a_missing_secrets_key_are_refused_in_production() {
        let c = config(&[("SECRETS_KEY", "")]).unwrap();
        assert!(!c.caldav_allow_local_urls);
        assert_eq!(c.secrets_key, crate::secrets::SecretsKey::development());
        assert!(
            config(&[("CALDAV_ALLOW_LOCAL_URLS", "true")])
                .unwrap()
                .caldav_policy()
                .allow_local
        );
        let key = TEST_KEY;
        let prod = [("APP_ENV", "production"), ("PAYMENT_GATEWAY", "test")];
        let err = config(&[prod[0], prod[1], ("SECRETS_KEY", "")])
            .unwrap_err()
            .to_string();
        assert_eq!(err, crate::secrets::MISSING_IN_PRODUCTION);
        let with_key = [prod[0], prod[1], ("SECRETS_KEY", key)];
        assert!(config(&with_key).is_ok());
        let local = [
            prod[0],
            prod[1],
            ("SECRETS_KEY", key),
            ("CALDAV_ALLOW_LOCAL_URLS", "true"),
        ];
        assert_eq!(config(&local).unwrap_err().to_string(), LOCAL_CALDAV_IN_PRODUCTION);
        assert!(!format!("{:?}", config(&with_key).unwrap()).contains(key));
    }

    #[test]
    fn host_is_every_interface_unless_set() {
        assert_eq!(config(&[]).unwrap().host.to_string(), "0.0.0.0");
        assert_eq!(config(&[("HOST", "127.0.0.1")]).unwrap().host.to_string(), "127.0.0.1");
        assert_eq!(config(&[("HOST", "::1")]).unwrap().host.to_string(), "::1");
        let err = config(&[("HOST", "localhost")]).unwrap_err().to_string();
        assert!(err.starts_with("HOST is malformed"), "{err}");
    }

    #[test]
    fn rtc_defaults_to_one_public_stun_server_and_no_turn() {
        let c = config(&[]).unwrap();
        assert_eq!(c.rtc.stun_urls, ["stun:stun.l.google.com:19302"]);
        assert!(c.rtc.turn.is_none());
        let c = config(&[("RTC_STUN_URLS", "stun:a:3478, stun:b:3478,")]).unwrap();
        assert_eq!(c.rtc.stun_urls, ["stun:a:3478", "stun:b:3478"]);
    }

    #[test]
    fn janus_takes_all_four_settings_or_none_and_never_prints_its_secrets() {
        assert!(config(&[]).unwrap().janus.is_none());
        let all = [
            ("JANUS_HTTP_URL", "http://127.0.0.1:8088/janus"),
            ("JANUS_WS_URL", "ws://127.0.0.1:8188"),
            ("JANUS_ADMIN_KEY", "adminkey123"),
            ("JANUS_TOKEN_SECRET", "tokensecret456"),
        ];
        let c = config(&all).unwrap();
        let janus = c.janus.clone().unwrap();
        assert_eq!(
            (janus.http_url.as_str(), janus.ws_url.as_str()),
            ("http://127.0.0.1:8088/janus", "ws://127.0.0.1:8188")
        );
        let printed = format!("{c:?}");
        assert!(
            !printed.contains("adminkey123") && !printed.contains("tokensecret456"),
            "{printed}"
        );
        for i in 0..all.len() {
            let partial: Vec<_> = all
                .iter()
                .enumerate()
                .filter(|(j, _)| *j != i)
                .map(|(_, kv)| *kv)
                .collect();
            let err = config(&partial).unwrap_err().to_string();
            assert!(err.contains(all[i].0), "{err}");
        }
        assert!(
            config(&[
                all[0],
                all[1],
                all[2],
                ("JANUS_TOKEN_SECRET", "s"),
                ("JANUS_WS_URL", "not a url")
            ])
            .is_err()
        );
    }

    #[test]
    fn turn_needs_its_secret_and_lasts_a_day_by_default() {
        assert!(config(&[("RTC_TURN_URL", "turn:t:3478")]).is_err());
        let c = config(&[("RTC_TURN_URL", "turn:t:3478"), ("RTC_TURN_SECRET", "s3cret")]).unwrap();
        let turn = c.rtc.turn.clone().unwrap();
        assert_eq!(turn.urls, ["turn:t:3478"]);
        assert_eq!(turn.ttl, chrono::Duration::seconds(86_400));
        assert!(!format!("{:?}", c).contains("s3cret"));
        let c = config(&[
            ("RTC_TURN_URL", "turn:t:3478"),
            ("RTC_TURN_SECRET", "s"),
            ("RTC_TURN_TTL_SECONDS", "60"),
        ])
        .unwrap();
        assert_eq!(c.rtc.turn.unwrap().ttl, chrono::Duration::seconds(60));
        assert!(
            config(&[
                ("RTC_TURN_URL", "turn:t"),
                ("RTC_TURN_SECRET", "s"),
                ("RTC_TURN_TTL_SECONDS", "0")
            ])
            .is_err()
        );
    }

    #[test]
    fn authorize_net_settings_never_print_the_key() {
        let c = config(&[
            ("PAYMENT_GATEWAY", "authorizenet"),
            ("AUTHNET_API_LOGIN_ID", "login"),
            ("AUTHNET_TRANSACTION_KEY", "s3cret"),
        ])
        .unwrap();
        match &c.payment_gateway {
            GatewayKind::AuthorizeNet(s) => assert_eq!(s.endpoint, AUTHNET_SANDBOX_ENDPOINT),
            other => panic!("{other:?}"),
        }
        assert!(!format!("{c:?}").contains("s3cret"));
    }

    #[test]
    fn base_url_follows_port_and_builds_links() {
        let c = config(&[("PORT", "9000")]).unwrap();
        assert_eq!(
            c.link("/verify-email", &[("token", "a b")]),
            "http://localhost:9000/verify-email?token=a+b"
        );
        let c = config(&[
            ("APP_BASE_URL", "https://mentors.example/"),
            ("PAYMENT_GATEWAY", "test"),
        ])
        .unwrap();
        assert!(c.secure_cookies());
        assert_eq!(c.link("/reset-password", &[]), "https://mentors.example/reset-password");
    }

    #[test]
    fn malformed_settings_are_one_clear_line() {
        let err = config(&[("PORT", "eighty")]).unwrap_err().to_string();
        assert!(err.starts_with("PORT is malformed"), "{err}");
        let err = config(&[("MAIL_TRANSPORT", "pigeon")]).unwrap_err().to_string();
        assert!(err.contains("MAIL_TRANSPORT"), "{err}");
        let err = config(&[("MAIL_TRANSPORT", "smtp")]).unwrap_err().to_string();
        assert!(err.contains("SMTP_URL is required"), "{err}");
        let err = config(&[("APP_BASE_URL", "not a url")]).unwrap_err().to_string();
        assert!(err.contains("APP_BASE_URL"), "{err}");
        let err = config(&[("PAYMENT_GATEWAY", "authorizenet")]).unwrap_err().to_string();
        assert!(err.contains("AUTHNET_API_LOGIN_ID is required"), "{err}");
        let err = config(&[("LOGIN_MAX_FAILURES_PER_ACCOUNT", "-x")])
            .unwrap_err()
            .to_string();
        assert!(err.contains("LOGIN_MAX_FAILURES_PER_ACCOUNT"), "{err}");
    }

    #[test]
    fn admins_need_two_factors_by_default_only_in_production() {
        assert!(!config(&[]).unwrap().admin_two_factor_required);
        let prod = [("APP_ENV", "production"), ("PAYMENT_GATEWAY", "test")];
        assert!(config(&prod).unwrap().admin_two_factor_required);
        let relaxed = [
            ("APP_ENV", "production"),
            ("PAYMENT_GATEWAY", "test"),
            ("ADMIN_TWO_FACTOR", "optional"),
        ];
        assert!(!config(&relaxed).unwrap().admin_two_factor_required);
        assert!(
            config(&[("ADMIN_TWO_FACTOR", "required")])
                .unwrap()
                .admin_two_factor_required
        );
        assert!(config(&[("ADMIN_TWO_FACTOR", "maybe")]).is_err());
    }

    #[test]
    fn production_names_its_payment_gateway() {
        let err = config(&[("APP_ENV", "production")]).unwrap_err().to_string();
        assert_eq!(
            err,
            "PAYMENT_GATEWAY must be set in production (authorizenet, or test to take only test cards)"
        );
        let err = config(&[("APP_BASE_URL", "https://mentors.example")])
            .unwrap_err()
            .to_string();
        assert!(err.starts_with("PAYMENT_GATEWAY must be set in production"), "{err}");
        assert!(config(&[("APP_BASE_URL", "https://mentors.example"), ("APP_ENV", "development")]).is_ok());
        assert!(config(&[("APP_ENV", "production"), ("PAYMENT_GATEWAY", "test")]).is_ok());
        assert!(
            config(&[("APP_ENV", "staging")])
                .unwrap_err()
                .to_string()
                .contains("APP_ENV")
        );
    }

    #[test]
    fn push_endpoints_stay_public_in_production_and_sign_as_support() {
        let c = config(&[]).unwrap();
        assert!(!c.push.allow_local_endpoints);
        assert_eq!(c.push.vapid_subject, "mailto:support@mystic-mentors.test");
        let c = config(&[("PUSH_ALLOW_LOCAL_ENDPOINTS", "true"), ("APP_ENV", "test")]).unwrap();
        assert!(c.push.allow_local_endpoints);
        let err = config(&[
            ("PUSH_ALLOW_LOCAL_ENDPOINTS", "true"),
            ("APP_ENV", "production"),
            ("PAYMENT_GATEWAY", "test"),
        ])
        .unwrap_err()
        .to_string();
        assert_eq!(err, LOCAL_PUSH_IN_PRODUCTION);
        // An https address is the production profile unless APP_ENV says otherwise.
        assert!(
            config(&[
                ("PUSH_ALLOW_LOCAL_ENDPOINTS", "true"),
                ("APP_BASE_URL", "https://mentors.example"),
                ("PAYMENT_GATEWAY", "test"),
            ])
            .is_err()
        );
        assert!(
            config(&[
                ("PUSH_ALLOW_LOCAL_ENDPOINTS", "false"),
                ("APP_ENV", "production"),
                ("PAYMENT_GATEWAY", "test")
            ])
            .is_ok()
        );
        assert!(config(&[("PUSH_ALLOW_LOCAL_ENDPOINTS", "yes")]).is_err());
        let c = config(&[("VAPID_SUBJECT", "https://mentors.example/contact")]).unwrap();
        assert_eq!(c.push.vapid_subject, "https://mentors.example/contact");
        assert!(config(&[("VAPID_SUBJECT", "support@example.com")]).is_err());
    }

    #[test]
    fn test_gateway_faults_are_named() {
        let c = config(&[
            ("PAYMENT_TEST_CHARGE_FAULT", "timeout-after-approve"),
            ("PAYMENT_TEST_REFUND_FAULT", "error"),
            ("PAYMENT_TEST_CHARGE_DELAY_MS", "250"),
        ])
        .unwrap();
        let GatewayKind::Test(t) = c.payment_gateway else {
            panic!("test gateway")
        };
        assert_eq!(t.charge_fault, Some(GatewayFault::LostAnswer));
        assert_eq!(t.refund_fault, Some(GatewayFault::Unreachable));
        assert_eq!(t.charge_delay_ms, 250);
        assert!(
            config(&[("PAYMENT_TEST_CHARGE_FAULT", "sometimes")])
                .unwrap_err()
                .to_string()
                .contains("PAYMENT_TEST_CHARGE_FAULT")
        );
    }
}
