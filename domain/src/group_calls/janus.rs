//! The api's side of Janus: its HTTP API (`JANUS_HTTP_URL`), used to create and destroy a session's
//! room and to moderate it. Each call opens a Janus session, attaches to the VideoRoom plugin, sends
//! one synchronous request and closes the session again. The members' own handles live on each api
//! process's long-lived session ([`super::gateway`]).

use std::time::Duration;

use chrono::Utc;
use serde_json::{Value, json};

use super::tokens::{self, VIDEOROOM_PLUGIN};

/// A Janus call that takes longer is abandoned (the SFU runs beside the api).
const REQUEST_TIMEOUT: Duration = Duration::from_secs(5);
/// The api's own tokens last this long (it mints one per call).
const OWN_TOKEN_SECONDS: i64 = 60;
/// Every participant's bitrate cap unless they configure another (the mentor asks for more).
pub const ROOM_BITRATE: u64 = 512_000;
/// The mentor's own publishing cap: room for a screen share beside the camera.
pub const MENTOR_BITRATE: u64 = 1_500_000;

// VideoRoom error codes that mean the wanted state is already there.
const ROOM_EXISTS: i64 = 427;
const NO_SUCH_ROOM: i64 = 426;
const NO_SUCH_PARTICIPANT: i64 = 428;

/// `JANUS_HTTP_URL`, `JANUS_WS_URL` (what browsers connect to), `JANUS_ADMIN_KEY` (the VideoRoom
/// `admin_key`: only holders create rooms), `JANUS_TOKEN_SECRET` (`token_auth_secret`).
#[derive(Clone, PartialEq, Eq)]
pub struct JanusSettings {
    pub http_url: String,
    pub ws_url: String,
    pub admin_key: String,
    pub token_secret: String,
}

impl std::fmt::Debug for JanusSettings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JanusSettings")
            .field("http_url", &self.http_url)
            .field("ws_url", &self.ws_url)
            .finish_non_exhaustive()
    }
}

#[derive(Clone)]
pub struct JanusClient {
    http: reqwest::Client,
    settings: JanusSettings,
}

impl JanusClient {
    pub fn new(settings: JanusSettings) -> anyhow::Result<Self> {
        // reqwest is built without a default TLS provider; the process-wide one is ring's.
        let _ = rustls::crypto::ring::default_provider().install_default();
        let http = reqwest::Client::builder().timeout(REQUEST_TIMEOUT).build()?;
        Ok(Self { http, settings })
    }

    pub fn settings(&self) -> &JanusSettings {
        &self.settings
    }

    /// Creates the room of a session (nothing when it exists): private (never listed), a private
    /// id to subscribe (`require_pvtid`), moderation by `secret`. Only the api joins it, each
    /// member under their own id (`group_calls::seats` in the api).
    pub async fn create_room(&self, room: u64, secret: &str, description: &str, publishers: u32) -> anyhow::Result<()> {
        let body = json!({
            "request": "create", "room": room, "permanent": false, "admin_key": self.settings.admin_key,
            "description": description, "secret": secret, "publishers": publishers, "bitrate": ROOM_BITRATE,
            "is_private": true, "require_pvtid": true, "notify_joining": true, "videocodec": "vp8",
        });
        self.room_request(body, &[ROOM_EXISTS]).await.map(drop)
    }

    /// Ends a room: Janus tells every participant it is gone (nothing when it already is).
    pub async fn destroy_room(&self, room: u64, secret: &str) -> anyhow::Result<()> {
        self.room_request(
            json!({"request": "destroy", "room": room, "secret": secret}),
            &[NO_SUCH_ROOM],
        )
        .await
        .map(drop)
    }

    /// Mutes or unmutes a participant's audio for everyone: each of `audio_mids`, the mids of their
    /// publication's audio streams as Janus reported them (wherever their offer put its audio; a
    /// mid by itself says nothing about what it carries).
    pub async fn set_muted(
        &self,
        room: u64,
        secret: &str,
        participant: u64,
        audio_mids: &[String],
        muted: bool,
    ) -> anyhow::Result<()> {
        for mid in audio_mids {
            let body = json!({"request": "moderate", "room": room, "secret": secret, "id": participant, "mid": mid, "mute": muted});
            self.room_request(body, &[NO_SUCH_PARTICIPANT]).await?;
        }
        Ok(())
    }

    /// Sends a participant out of the room (their media stops; the api gives them no new token).
    pub async fn kick(&self, room: u64, secret: &str, participant: u64) -> anyhow::Result<()> {
        self.room_request(
            json!({"request": "kick", "room": room, "secret": secret, "id": participant}),
            &[NO_SUCH_PARTICIPANT],
        )
        .await
        .map(drop)
    }

    /// The publisher ids in a room now (empty when there is no such room).
    pub async fn participants(&self, room: u64) -> anyhow::Result<Vec<u64>> {
        let data = self
            .room_request(json!({"request": "listparticipants", "room": room}), &[NO_SUCH_ROOM])
            .await?;
        Ok(data["participants"]
            .as_array()
            .map(|ps| ps.iter().filter_map(|p| p["id"].as_u64()).collect())
            .unwrap_or_default())
    }

    /// Whether the room exists.
    pub async fn room_exists(&self, room: u64) -> anyhow::Result<bool> {
        let data = self
            .room_request(json!({"request": "exists", "room": room}), &[])
            .await?;
        Ok(data["exists"].as_bool().unwrap_or(false))
    }

    /// One synchronous VideoRoom request on a short-lived Janus session; `tolerated` error codes
    /// count as success (an empty answer).
    async fn room_request(&self, body: Value, tolerated: &[i64]) -> anyhow::Result<Value> {
        let session = self.post("", json!({"janus": "create"})).await?;
        let session_id = session["data"]["id"]
            .as_u64()
            .ok_or_else(|| anyhow::anyhow!("janus create: no session id"))?;
        let result = async {
            let handle = self
                .post(
                    &format!("/{session_id}"),
                    json!({"janus": "attach", "plugin": VIDEOROOM_PLUGIN}),
                )
                .await?;
            let handle_id = handle["data"]["id"]
                .as_u64()
                .ok_or_else(|| anyhow::anyhow!("janus attach: no handle id"))?;
            let answer = self
                .post(
                    &format!("/{session_id}/{handle_id}"),
                    json!({"janus": "message", "body": body}),
                )
                .await?;
            let data = answer["plugindata"]["data"].clone();
            match data["error_code"].as_i64() {
                Some(code) if tolerated.contains(&code) => Ok(Value::Null),
                Some(code) => anyhow::bail!("janus videoroom error {code}: {}", data["error"].as_str().unwrap_or("")),
                None => Ok(data),
            }
        }
        .await;
        // The session would time out by itself; closing it now keeps Janus tidy.
        let _ = self.post(&format!("/{session_id}"), json!({"janus": "destroy"})).await;
        result
    }

    async fn post(&self, path: &str, mut body: Value) -> anyhow::Result<Value> {
        let token = tokens::session_token(
            &self.settings.token_secret,
            Utc::now() + chrono::Duration::seconds(OWN_TOKEN_SECONDS),
        );
        body["transaction"] = json!(uuid::Uuid::new_v4().simple().to_string());
        body["token"] = json!(token);
        let url = format!("{}{path}", self.settings.http_url.trim_end_matches('/'));
        let answer: Value = self
            .http
            .post(&url)
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
}

/// The mids of the audio streams in a publisher's `configured` answer (its `streams`: every stream
/// of the publication, in Janus's words), whatever order the offer put them in.
pub fn audio_mids(configured: &Value) -> Vec<String> {
    configured["streams"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|s| s["type"] == "audio")
        .filter_map(|s| s["mid"].as_str().map(String::from))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_audio_of_a_publication_is_what_janus_says_is_audio_wherever_it_is() {
        let video_first = json!({"configured": "ok", "streams": [
            {"type": "video", "mindex": 0, "mid": "0", "codec": "vp8"},
            {"type": "audio", "mindex": 1, "mid": "1", "codec": "opus"},
        ]});
        assert_eq!(audio_mids(&video_first), ["1"]);
        let two_microphones = json!({"streams": [
            {"type": "audio", "mid": "a"}, {"type": "video", "mid": "v"}, {"type": "audio", "mid": "b", "disabled": true},
            {"type": "data", "mid": "d"},
        ]});
        assert_eq!(
            audio_mids(&two_microphones),
            ["a", "b"],
            "a disabled stream may come back"
        );
        assert!(audio_mids(&json!({"configured": "ok"})).is_empty());
    }
}
