//! Mentors' presence, live (issue 36): a signed-in page watches the mentors it shows and hears
//! when any of them changes.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

/// `presenceChanged`: to the sockets that watch this mentor.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct PresenceChanged {
    pub mentor_id: Uuid,
    /// `available`, `busy` or `offline`.
    pub status: String,
}

/// `watchPresence`: this socket watches exactly these mentors now (at most 100; an empty list stops).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct WatchPresence {
    pub mentor_ids: Vec<Uuid>,
}

/// `instantSessionRequested`: to the mentor's sockets, a seeker asks for a reading now.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstantSessionRequested {
    pub id: Uuid,
    pub seeker_id: Uuid,
    /// First name and last initial.
    pub seeker_name: String,
    /// `chat` or `video`.
    pub mode: String,
    pub per_minute_rate: String,
    pub expires_at: DateTime<Utc>,
}

/// Deviation: `instantSessionChanged`, to both parties' sockets when a reading is accepted,
/// declined, expired or ended.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InstantSessionChanged {
    pub id: Uuid,
    /// `requested`, `active`, `ended`, `expired` or `declined`.
    pub status: String,
    pub mode: String,
    pub started_at: Option<DateTime<Utc>>,
    pub ended_at: Option<DateTime<Utc>>,
    /// `seeker`, `mentor` or `balance`.
    pub end_reason: Option<String>,
    pub minutes_billed: i32,
    /// The pair's conversation, for a chat reading.
    pub conversation_id: Option<Uuid>,
}

/// `balanceLow`: to the seeker, a minute before the balance runs out during a reading.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct BalanceLow {
    pub instant_session_id: Uuid,
    pub balance: String,
    pub per_minute_rate: String,
    /// When the reading ends unless the seeker tops up.
    pub ends_at: DateTime<Utc>,
}
