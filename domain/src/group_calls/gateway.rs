//! One api process's long-lived Janus session over Janus's HTTP API (long poll for events,
//! keepalives), on which it holds a publisher and a subscriber handle per member connected to it.
//! Browsers never talk to Janus's API: the api joins each member under their own id.
//!
//! Requests answered asynchronously (join, configure, start, update) wait for the event that
//! carries their transaction; every other event (someone published or left, a renegotiation Janus
//! started, a kick, a hang-up) goes to the receiver [`Gateway::start`] returns.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::Duration,
};

use chrono::Utc;
use serde_json::{Value, json};
use tokio::sync::{mpsc, oneshot, watch};

use super::{
    JanusSettings,
    tokens::{self, VIDEOROOM_PLUGIN},
};

/// A request (and the event answering it) that takes longer is abandoned.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);
/// Janus answers a long poll within 30 s (a keepalive event when nothing happened).
const POLL_TIMEOUT: Duration = Duration::from_secs(45);
/// Janus closes a session silent for `session_timeout` (60 s in scripts/janus): well under it.
pub const KEEPALIVE_EVERY: Duration = Duration::from_secs(20);
/// Wait before making a new session after Janus could not be reached.
const RECONNECT_EVERY: Duration = Duration::from_secs(1);
/// How long a request waits for the session to exist (at start, or after Janus came back).
const SESSION_WAIT: Duration = Duration::from_secs(5);
/// Every event a long poll may bring at once.
const EVENTS_PER_POLL: u32 = 10;
/// The api's own tokens last this long (a fresh one for every request).
const OWN_TOKEN_SECONDS: i64 = 60;

/// A VideoRoom error answering a request (`error_code`, `error`).
#[derive(Debug)]
pub struct PluginError {
    pub code: i64,
    pub reason: String,
}

impl std::fmt::Display for PluginError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "janus videoroom error {}: {}", self.code, self.reason)
    }
}

impl std::error::Error for PluginError {}

/// The VideoRoom error code of a failed request, if that is why it failed.
pub fn plugin_error_code(err: &anyhow::Error) -> Option<i64> {
    err.downcast_ref::<PluginError>().map(|e| e.code)
}

/// A plugin's answer or event: its `plugindata.data` and the SDP it carries, if any.
#[derive(Clone, Debug)]
pub struct Reply {
    pub data: Value,
    pub jsep: Option<Value>,
}

/// What happened on a handle without being asked (or that the session is gone).
#[derive(Clone, Debug)]
pub enum GatewayEvent {
    Plugin {
        handle: u64,
        reply: Reply,
    },
    /// The handle's PeerConnection went down.
    Hangup {
        handle: u64,
    },
    Detached {
        handle: u64,
    },
    /// Janus lost the session (restarted, or unreachable too long): every handle is gone.
    SessionLost,
}

pub struct Gateway {
    http: reqwest::Client,
    poll: reqwest::Client,
    settings: JanusSettings,
    session: watch::Sender<Option<u64>>,
    pending: Mutex<HashMap<String, oneshot::Sender<Value>>>,
    events: mpsc::UnboundedSender<GatewayEvent>,
}

impl Gateway {
    /// Starts keeping a session (made now and again whenever Janus loses it).
    pub fn start(settings: JanusSettings) -> anyhow::Result<(Arc<Self>, mpsc::UnboundedReceiver<GatewayEvent>)> {
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder().timeout(REQUEST_TIMEOUT).build()?;
        let poll = reqwest::Client::builder().timeout(POLL_TIMEOUT).build()?;
        let (events, receiver) = mpsc::unbounded_channel();
        let gateway = Arc::new(Self {
            http,
            poll,
            settings,
            session: watch::channel(None).0,
            pending: Mutex::default(),
            events,
        });
        tokio::spawn(gateway.clone().keep_session());
        Ok((gateway, receiver))
    }

    fn url(&self, path: &str) -> String {
        format!("{}{path}", self.settings.http_url.trim_end_matches('/'))
    }

    fn token(&self) -> String {
        tokens::session_token(
            &self.settings.token_secret,
            Utc::now() + chrono::Duration::seconds(OWN_TOKEN_SECONDS),
        )
    }

    async fn post(&self, path: &str, mut body: Value, transaction: &str) -> anyhow::Result<Value> {
        body["transaction"] = json!(transaction);
        body["token"] = json!(self.token());
        let answer: Value = self
            .http
            .post(self.url(path))
            .json(&body)
            .send()
            .await?
            .error_for_status()?
            .json()
            .await?;
        if answer["janus"] == "error" {
            anyhow::bail!(
                "janus error {}: {}",
                answer["error"]["code"],
                answer["error"]["reason"].as_str().unwrap_or("")
            );
        }
        Ok(answer)
    }

    async fn keep_session(self: Arc<Self>) {
        loop {
            let transaction = new_transaction();
            let id = match self.post("", json!({"janus": "create"}), &transaction).await {
                Ok(answer) => answer["data"]["id"].as_u64(),
                Err(err) => {
                    tracing::warn!(error = %format!("{err:#}"), "cannot open a Janus session yet");
                    None
                }
            };
            let Some(id) = id else {
                tokio::time::sleep(RECONNECT_EVERY).await;
                continue;
            };
            tracing::info!("janus session open");
            self.session.send_replace(Some(id));
            self.run_session(id).await;
            self.session.send_replace(None);
            self.pending.lock().expect("pending lock").clear();
            let _ = self.events.send(GatewayEvent::SessionLost);
            tokio::time::sleep(RECONNECT_EVERY).await;
        }
    }

    /// Polls the session's events and keeps it alive until Janus no longer knows it.
    async fn run_session(&self, id: u64) {
        let mut keepalive = tokio::time::interval(KEEPALIVE_EVERY);
        loop {
            let url = url::Url::parse_with_params(
                &self.url(&format!("/{id}")),
                &[("maxev", EVENTS_PER_POLL.to_string()), ("token", self.token())],
            );
            let Ok(url) = url else {
                tracing::warn!("JANUS_HTTP_URL is not a URL");
                return;
            };
            let poll = self.poll.get(url).send();
            tokio::pin!(poll);
            let answer = loop {
                tokio::select! {
                    answer = &mut poll => break answer,
                    _ = keepalive.tick() => {
                        if let Err(err) = self.post(&format!("/{id}"), json!({"janus": "keepalive"}), &new_transaction()).await {
                            tracing::warn!(error = %format!("{err:#}"), "janus keepalive failed; its session is lost");
                            return;
                        }
                    }
                }
            };
            let events: Value = match answer.and_then(|a| a.error_for_status()) {
                Ok(response) => match response.json().await {
                    Ok(events) => events,
                    Err(_) => continue,
                },
                Err(err) if err.is_timeout() => continue,
                Err(err) => {
                    tracing::warn!(error = %err, "janus long poll failed; its session is lost");
                    return;
                }
            };
            let list = match events {
                Value::Array(list) => list,
                one => vec![one],
            };
            for event in list {
                if event["janus"] == "error" {
                    tracing::warn!(reason = %event["error"]["reason"], "janus refused the long poll; its session is lost");
                    return;
                }
                self.dispatch(event);
            }
        }
    }

    fn dispatch(&self, event: Value) {
        if let Some(transaction) = event["transaction"].as_str() {
            let waiting = self.pending.lock().expect("pending lock").remove(transaction);
            if let Some(waiting) = waiting {
                let _ = waiting.send(event);
                return;
            }
        }
        let handle = event["sender"].as_u64().unwrap_or_default();
        let what = match event["janus"].as_str() {
            Some("event") => GatewayEvent::Plugin {
                handle,
                reply: reply_of(&event),
            },
            Some("hangup") => GatewayEvent::Hangup { handle },
            Some("detached") => GatewayEvent::Detached { handle },
            _ => return,
        };
        let _ = self.events.send(what);
    }

    /// The session's id, once there is one (waits a little while it is being made).
    async fn session_id(&self) -> anyhow::Result<u64> {
        let mut watch = self.session.subscribe();
        let found = tokio::time::timeout(SESSION_WAIT, watch.wait_for(Option::is_some)).await;
        match found {
            Ok(Ok(id)) => Ok(id.expect("waited for some")),
            _ => anyhow::bail!("no Janus session"),
        }
    }

    /// A new VideoRoom handle on the session.
    pub async fn attach(&self) -> anyhow::Result<u64> {
        let session = self.session_id().await?;
        let answer = self
            .post(
                &format!("/{session}"),
                json!({"janus": "attach", "plugin": VIDEOROOM_PLUGIN}),
                &new_transaction(),
            )
            .await?;
        answer["data"]["id"]
            .as_u64()
            .ok_or_else(|| anyhow::anyhow!("janus attach: no handle id"))
    }

    /// Drops a handle (a publisher leaves its room; nothing when it is already gone).
    pub async fn detach(&self, handle: u64) -> anyhow::Result<()> {
        let session = self.session_id().await?;
        self.post(
            &format!("/{session}/{handle}"),
            json!({"janus": "detach"}),
            &new_transaction(),
        )
        .await
        .map(drop)
    }

    /// Sends a VideoRoom request (with an SDP) and returns its answer, synchronous or not; a
    /// VideoRoom error is a [`PluginError`].
    pub async fn message(&self, handle: u64, body: Value, jsep: Option<Value>) -> anyhow::Result<Reply> {
        let session = self.session_id().await?;
        let transaction = new_transaction();
        let (tx, rx) = oneshot::channel();
        self.pending
            .lock()
            .expect("pending lock")
            .insert(transaction.clone(), tx);
        let mut request = json!({"janus": "message", "body": body});
        if let Some(jsep) = jsep {
            request["jsep"] = jsep;
        }
        let answer = self.post(&format!("/{session}/{handle}"), request, &transaction).await;
        let event = match answer {
            Ok(answer) if answer["janus"] == "ack" => {
                let waited = tokio::time::timeout(REQUEST_TIMEOUT, rx).await;
                self.pending.lock().expect("pending lock").remove(&transaction);
                match waited {
                    Ok(Ok(event)) => event,
                    _ => anyhow::bail!("janus did not answer a request in time"),
                }
            }
            other => {
                self.pending.lock().expect("pending lock").remove(&transaction);
                other?
            }
        };
        let reply = reply_of(&event);
        if let Some(code) = reply.data["error_code"].as_i64() {
            return Err(PluginError {
                code,
                reason: reply.data["error"].as_str().unwrap_or_default().to_owned(),
            }
            .into());
        }
        Ok(reply)
    }

    /// Hands Janus one of the browser's ICE candidates for a handle (`None`: no more of them).
    pub async fn trickle(&self, handle: u64, candidate: Option<Value>) -> anyhow::Result<()> {
        let session = self.session_id().await?;
        let candidate = candidate.unwrap_or_else(|| json!({"completed": true}));
        self.post(
            &format!("/{session}/{handle}"),
            json!({"janus": "trickle", "candidate": candidate}),
            &new_transaction(),
        )
        .await
        .map(drop)
    }
}

fn new_transaction() -> String {
    uuid::Uuid::new_v4().simple().to_string()
}

fn reply_of(event: &Value) -> Reply {
    Reply {
        data: event["plugindata"]["data"].clone(),
        jsep: event.get("jsep").filter(|j| !j.is_null()).cloned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keepalives_come_well_within_the_session_timeout() {
        const JANUS_SESSION_TIMEOUT: Duration = Duration::from_secs(60);
        assert!(KEEPALIVE_EVERY * 2 < JANUS_SESSION_TIMEOUT);
    }

    #[test]
    fn replies_carry_the_plugin_data_and_the_sdp() {
        let r = reply_of(
            &json!({"janus": "event", "plugindata": {"data": {"videoroom": "joined"}}, "jsep": {"type": "answer", "sdp": "v=0"}}),
        );
        assert_eq!(r.data["videoroom"], "joined");
        assert_eq!(r.jsep.unwrap()["type"], "answer");
        assert!(
            reply_of(&json!({"janus": "event", "plugindata": {"data": {}}}))
                .jsep
                .is_none()
        );
        let err: anyhow::Error = PluginError {
            code: 436,
            reason: "User ID 1 already exists".into(),
        }
        .into();
        assert_eq!(plugin_error_code(&err), Some(436));
        assert_eq!(plugin_error_code(&anyhow::anyhow!("other")), None);
    }
}
