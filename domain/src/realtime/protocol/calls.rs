//! One-to-one calls: ringing, answering, ending, resuming and the relayed WebRTC signalling.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

opaque!(
    /// A WebRTC session description (`{type, sdp}`), as the browser made it.
    SessionDescription => "RTCSessionDescriptionInit"
);

opaque!(
    /// A WebRTC ICE candidate, as the browser made it.
    IceCandidate => "RTCIceCandidateInit"
);

/// The caller's own socket: its call rings.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallInitiated {
    pub call_id: Uuid,
    pub room_id: Uuid,
    pub conversation_id: Uuid,
    pub booking_id: Option<Uuid>,
}

/// Who calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Caller {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    pub profile_image_url: Option<String>,
}

/// Every socket of the callee: someone calls.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct IncomingCall {
    pub call_id: Uuid,
    pub room_id: Uuid,
    pub conversation_id: Uuid,
    pub booking_id: Option<Uuid>,
    pub caller: Caller,
}

/// A call and its signalling room (`callAccepted`, `callRejected`).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallIds {
    pub call_id: Uuid,
    pub room_id: Uuid,
}

/// Why a call ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CallEndReason {
    Ended,
    Missed,
    Rejected,
    Disconnected,
    /// The callee took the call on another of their sockets.
    #[serde(rename = "answered elsewhere")]
    AnsweredElsewhere,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallEnded {
    pub call_id: Uuid,
    pub room_id: Uuid,
    pub reason: CallEndReason,
}

/// Which side of a one-to-one call someone is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "lowercase")]
pub enum CallRole {
    Caller,
    Callee,
}

/// A party (`userId`) is back in the call: both sides make a new peer connection, that party offers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallResumed {
    pub call_id: Uuid,
    pub room_id: Uuid,
    pub conversation_id: Uuid,
    pub booking_id: Option<Uuid>,
    pub answered_at: Option<DateTime<Utc>>,
    /// The receiver's side of the call.
    pub role: CallRole,
    pub user_id: Uuid,
}

/// The other party's offer, relayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RelayedOffer {
    pub room_id: Uuid,
    pub offer: SessionDescription,
    pub from: Uuid,
}

/// The other party's answer, relayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RelayedAnswer {
    pub room_id: Uuid,
    pub answer: SessionDescription,
    pub from: Uuid,
}

/// One of the other party's ICE candidates, relayed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct RelayedIceCandidate {
    pub room_id: Uuid,
    pub candidate: IceCandidate,
    pub from: Uuid,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct InitiateCall {
    pub conversation_id: Uuid,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub booking_id: Option<Uuid>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct CallRef {
    pub call_id: Uuid,
}

/// An offer for the other party of the call in `roomId`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendOffer {
    pub room_id: Uuid,
    pub offer: SessionDescription,
}

/// An answer for the other party of the call in `roomId`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendAnswer {
    pub room_id: Uuid,
    pub answer: SessionDescription,
}

/// An ICE candidate for the other party of the call in `roomId`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendIceCandidate {
    pub room_id: Uuid,
    pub candidate: IceCandidate,
}
