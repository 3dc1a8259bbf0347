//! Mentors' presence, live (issue 36): a signed-in page watches the mentors it shows and hears
//! when any of them changes.

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
