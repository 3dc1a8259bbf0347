//! Group sessions and their calls: starting and ending, members joining and leaving, moderation,
//! and the signalling with Janus.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

use super::IceCandidate;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupSessionStarted {
    pub group_session_id: Uuid,
    pub started_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupSessionEnded {
    pub group_session_id: Uuid,
    /// The session's status now: `completed` or `cancelled`.
    pub status: crate::statuses::GroupStatus,
}

/// A member of a group call as the others hear of them (`id` is the user id).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupCallParticipant {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub profile_image_url: Option<String>,
    /// Their publisher's id in the Janus room.
    pub janus_id: u64,
    pub is_mentor: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParticipantJoined {
    pub group_session_id: Uuid,
    pub participant: Option<GroupCallParticipant>,
}

/// Why someone is no longer in a group call.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum LeftReason {
    Left,
    Removed,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParticipantLeft {
    pub group_session_id: Uuid,
    pub participant_id: Uuid,
    pub reason: LeftReason,
}

/// One participant (their user id) of a group session.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParticipantRef {
    pub group_session_id: Uuid,
    pub participant_id: Uuid,
}

/// The mentor removes a participant, saying why: the reason decides the seat's money.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RemoveParticipant {
    pub group_session_id: Uuid,
    pub participant_id: Uuid,
    /// `conduct` (the seat stays paid) or `other` (the seat is cancelled and refunded in full);
    /// a removal without one is refused.
    #[serde(default)]
    pub reason: Option<crate::statuses::RemovalReason>,
}

/// A member turned their camera on or off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct VideoToggled {
    pub group_session_id: Uuid,
    pub participant_id: Uuid,
    pub is_video_enabled: bool,
}

/// A member turned their microphone on or off.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct AudioToggled {
    pub group_session_id: Uuid,
    pub participant_id: Uuid,
    pub is_audio_enabled: bool,
}

/// An SDP of a seat's group-call connection: the member's publisher offer or Janus's answer to
/// it, or the member's answer to a subscriber offer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupCallSdp {
    pub group_session_id: Uuid,
    pub sdp: String,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum StreamKind {
    Audio,
    Video,
}

/// One media line of a seat's subscriber connection: whose audio or video it carries.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupCallStream {
    pub mid: String,
    /// The user id of the member whose media this is.
    pub participant_id: String,
    pub janus_id: u64,
    pub kind: StreamKind,
}

/// Janus's offer for the seat's subscriber connection (every other member's media).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupCallSubscribeOffer {
    pub group_session_id: Uuid,
    pub sdp: String,
    pub streams: Vec<GroupCallStream>,
}

/// A group session named by a group-call event.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupSessionRef {
    pub group_session_id: Uuid,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToggleVideo {
    pub group_session_id: Uuid,
    pub is_video_enabled: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToggleAudio {
    pub group_session_id: Uuid,
    pub is_audio_enabled: bool,
}

/// Which of a seat's connections an ICE candidate belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum Target {
    Publisher,
    Subscriber,
}

/// One of the browser's ICE candidates for its publisher or subscriber connection (`null`: no
/// more).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct GroupIceCandidate {
    pub group_session_id: Uuid,
    pub target: Target,
    pub candidate: Option<IceCandidate>,
    /// Ignored if sent: a candidate is always the sender's own.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub participant_id: Option<Uuid>,
}
