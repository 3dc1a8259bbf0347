//! Frames a client sends, `{"event": NAME, "data": {...}}`, parsed into [`ClientEvent`].
//! Anything else becomes an error text for the `error` event; the socket stays open.

use serde::{Deserialize, de::DeserializeOwned};
use serde_json::Value;
use uuid::Uuid;

pub const NOT_A_FRAME: &str = "Frames must be JSON objects {\"event\": ..., \"data\": {...}}";
pub const DATA_NOT_OBJECT: &str = "data must be a JSON object";

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SendMessage {
    pub conversation_id: Uuid,
    pub content: String,
    pub message_type: Option<String>,
    pub client_id: Option<String>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ConversationRef {
    pub conversation_id: Uuid,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MessageRef {
    pub message_id: Uuid,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct InitiateCall {
    pub conversation_id: Uuid,
    pub booking_id: Option<Uuid>,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct CallRef {
    pub call_id: Uuid,
}

/// A WebRTC payload for the other side of `room_id`; its inner shape is the browsers' business.
#[derive(Debug, PartialEq)]
pub struct Signal {
    pub room_id: Uuid,
    pub payload: Value,
}

/// A group session named by a group-call event.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GroupSessionRef {
    pub group_session_id: Uuid,
}

/// The mentor's moderation of one participant (their user id).
#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ParticipantRef {
    pub group_session_id: Uuid,
    pub participant_id: Uuid,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ToggleVideo {
    pub group_session_id: Uuid,
    pub is_video_enabled: bool,
}

#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ToggleAudio {
    pub group_session_id: Uuid,
    pub is_audio_enabled: bool,
}

/// An SDP for the api to relay to Janus: the member's publisher offer, or their answer to a
/// subscriber offer.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GroupCallSdp {
    pub group_session_id: Uuid,
    pub sdp: String,
}

/// One of the browser's ICE candidates for its publisher or subscriber connection (`null`: no
/// more). `participantId`, if sent, is ignored: it is always the sender's own.
#[derive(Debug, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct GroupIceCandidate {
    pub group_session_id: Uuid,
    pub target: super::seats::Target,
    pub candidate: Option<Value>,
}

#[derive(Debug, PartialEq)]
pub enum ClientEvent {
    SendMessage(SendMessage),
    JoinConversation(ConversationRef),
    LeaveConversation(ConversationRef),
    MarkMessageRead(MessageRef),
    MarkConversationRead(ConversationRef),
    StartTyping(ConversationRef),
    StopTyping(ConversationRef),
    InitiateCall(InitiateCall),
    AcceptCall(CallRef),
    RejectCall(CallRef),
    EndCall(CallRef),
    /// A party of an answered call is back on a new socket (after a dropped connection or a reload).
    ResumeCall(CallRef),
    SendOffer(Signal),
    SendAnswer(Signal),
    SendIceCandidate(Signal),
    StartGroupSession(GroupSessionRef),
    EndGroupSession(GroupSessionRef),
    JoinGroupSession(GroupSessionRef),
    LeaveGroupSession(GroupSessionRef),
    MuteParticipant(ParticipantRef),
    UnmuteParticipant(ParticipantRef),
    RemoveParticipant(ParticipantRef),
    ToggleVideo(ToggleVideo),
    ToggleAudio(ToggleAudio),
    GroupCallOffer(GroupCallSdp),
    GroupCallSubscribeAnswer(GroupCallSdp),
    GroupIceCandidate(GroupIceCandidate),
    Ping,
}

/// Why a frame was refused: the text for `error.message` and the event it named, if any.
#[derive(Debug, PartialEq)]
pub struct BadFrame {
    pub message: String,
    pub event: Option<String>,
}

#[derive(Deserialize)]
struct Frame {
    event: String,
    #[serde(default)]
    data: Value,
}

pub fn parse(text: &str) -> Result<ClientEvent, BadFrame> {
    let not_a_frame = || BadFrame {
        message: NOT_A_FRAME.into(),
        event: None,
    };
    let value: Value = serde_json::from_str(text).map_err(|_| not_a_frame())?;
    if !value.is_object() {
        return Err(not_a_frame());
    }
    let frame: Frame = serde_json::from_value(value).map_err(|_| not_a_frame())?;
    let event = frame.event.clone();
    let bad = |message: String| BadFrame {
        message,
        event: Some(event.clone()),
    };
    if event == "ping" {
        return Ok(ClientEvent::Ping);
    }
    if !frame.data.is_object() {
        return Err(bad(DATA_NOT_OBJECT.into()));
    }
    let data = frame.data;
    fn de<T: DeserializeOwned>(event: &str, data: Value) -> Result<T, BadFrame> {
        serde_json::from_value(data).map_err(|e| BadFrame {
            message: format!("Invalid {event}: {e}"),
            event: Some(event.to_owned()),
        })
    }
    let signal = |field: &str, data: Value| -> Result<Signal, BadFrame> {
        #[derive(Deserialize)]
        #[serde(rename_all = "camelCase")]
        struct Room {
            room_id: Uuid,
        }
        let payload = data
            .get(field)
            .cloned()
            .filter(|v| !v.is_null())
            .ok_or_else(|| bad(format!("Invalid {event}: missing field `{field}`")))?;
        let room: Room = de(&event, data)?;
        Ok(Signal {
            room_id: room.room_id,
            payload,
        })
    };
    Ok(match event.as_str() {
        "sendMessage" => ClientEvent::SendMessage(de(&event, data)?),
        "joinConversation" => ClientEvent::JoinConversation(de(&event, data)?),
        "leaveConversation" => ClientEvent::LeaveConversation(de(&event, data)?),
        "markMessageRead" => ClientEvent::MarkMessageRead(de(&event, data)?),
        "markConversationRead" => ClientEvent::MarkConversationRead(de(&event, data)?),
        "startTyping" => ClientEvent::StartTyping(de(&event, data)?),
        "stopTyping" => ClientEvent::StopTyping(de(&event, data)?),
        "initiateCall" => ClientEvent::InitiateCall(de(&event, data)?),
        "acceptCall" => ClientEvent::AcceptCall(de(&event, data)?),
        "rejectCall" => ClientEvent::RejectCall(de(&event, data)?),
        "endCall" => ClientEvent::EndCall(de(&event, data)?),
        "resumeCall" => ClientEvent::ResumeCall(de(&event, data)?),
        "sendOffer" => ClientEvent::SendOffer(signal("offer", data)?),
        "sendAnswer" => ClientEvent::SendAnswer(signal("answer", data)?),
        "sendIceCandidate" => ClientEvent::SendIceCandidate(signal("candidate", data)?),
        "start-group-session" => ClientEvent::StartGroupSession(de(&event, data)?),
        "end-group-session" => ClientEvent::EndGroupSession(de(&event, data)?),
        "join-group-session" => ClientEvent::JoinGroupSession(de(&event, data)?),
        "leave-group-session" => ClientEvent::LeaveGroupSession(de(&event, data)?),
        "mute-participant" => ClientEvent::MuteParticipant(de(&event, data)?),
        "unmute-participant" => ClientEvent::UnmuteParticipant(de(&event, data)?),
        "remove-participant" => ClientEvent::RemoveParticipant(de(&event, data)?),
        "toggle-video" => ClientEvent::ToggleVideo(de(&event, data)?),
        "toggle-audio" => ClientEvent::ToggleAudio(de(&event, data)?),
        "group-call-offer" => ClientEvent::GroupCallOffer(de(&event, data)?),
        "group-call-subscribe-answer" => ClientEvent::GroupCallSubscribeAnswer(de(&event, data)?),
        "ice-candidate" => ClientEvent::GroupIceCandidate(de(&event, data)?),
        other => return Err(bad(format!("Unknown event: {other}"))),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_parse_into_events() {
        let id = Uuid::new_v4();
        let send =
            format!(r#"{{"event":"sendMessage","data":{{"conversationId":"{id}","content":"hi","clientId":"c1"}}}}"#);
        assert_eq!(
            parse(&send).unwrap(),
            ClientEvent::SendMessage(SendMessage {
                conversation_id: id,
                content: "hi".into(),
                message_type: None,
                client_id: Some("c1".into())
            })
        );
        let offer =
            format!(r#"{{"event":"sendOffer","data":{{"roomId":"{id}","offer":{{"type":"offer","sdp":"v=0"}}}}}}"#);
        assert_eq!(
            parse(&offer).unwrap(),
            ClientEvent::SendOffer(Signal {
                room_id: id,
                payload: serde_json::json!({"type":"offer","sdp":"v=0"})
            })
        );
        assert_eq!(
            parse(&format!(r#"{{"event":"resumeCall","data":{{"callId":"{id}"}}}}"#)).unwrap(),
            ClientEvent::ResumeCall(CallRef { call_id: id })
        );
        assert_eq!(parse(r#"{"event":"ping","data":{}}"#).unwrap(), ClientEvent::Ping);
        assert_eq!(parse(r#"{"event":"ping"}"#).unwrap(), ClientEvent::Ping);
    }

    #[test]
    fn group_call_frames_use_the_spec_names() {
        let (g, p) = (Uuid::new_v4(), Uuid::new_v4());
        assert_eq!(
            parse(&format!(
                r#"{{"event":"start-group-session","data":{{"groupSessionId":"{g}"}}}}"#
            ))
            .unwrap(),
            ClientEvent::StartGroupSession(GroupSessionRef { group_session_id: g })
        );
        assert_eq!(
            parse(&format!(
                r#"{{"event":"mute-participant","data":{{"groupSessionId":"{g}","participantId":"{p}"}}}}"#
            ))
            .unwrap(),
            ClientEvent::MuteParticipant(ParticipantRef {
                group_session_id: g,
                participant_id: p
            })
        );
        assert_eq!(
            parse(&format!(
                r#"{{"event":"toggle-video","data":{{"groupSessionId":"{g}","isVideoEnabled":false}}}}"#
            ))
            .unwrap(),
            ClientEvent::ToggleVideo(ToggleVideo {
                group_session_id: g,
                is_video_enabled: false
            })
        );
        assert_eq!(
            parse(&format!(
                r#"{{"event":"ice-candidate","data":{{"groupSessionId":"{g}","participantId":"{p}","target":"publisher","candidate":null}}}}"#
            ))
            .unwrap(),
            ClientEvent::GroupIceCandidate(GroupIceCandidate {
                group_session_id: g,
                target: super::super::seats::Target::Publisher,
                candidate: None
            })
        );
        assert!(
            parse(r#"{"event":"remove-participant","data":{"groupSessionId":"x"}}"#)
                .unwrap_err()
                .message
                .contains("remove-participant")
        );
    }

    #[test]
    fn bad_frames_say_what_is_wrong() {
        assert_eq!(parse("not json").unwrap_err().message, NOT_A_FRAME);
        assert_eq!(parse(r#"["sendMessage"]"#).unwrap_err().message, NOT_A_FRAME);
        assert_eq!(
            parse(r#"{"event":"nope","data":{}}"#).unwrap_err(),
            BadFrame {
                message: "Unknown event: nope".into(),
                event: Some("nope".into())
            }
        );
        assert_eq!(
            parse(r#"{"event":"joinConversation","data":"abc"}"#)
                .unwrap_err()
                .message,
            DATA_NOT_OBJECT
        );
        let missing = parse(r#"{"event":"joinConversation","data":{}}"#).unwrap_err();
        assert!(missing.message.contains("conversationId"), "{}", missing.message);
        let id = Uuid::new_v4();
        let no_offer = parse(&format!(r#"{{"event":"sendOffer","data":{{"roomId":"{id}"}}}}"#)).unwrap_err();
        assert!(no_offer.message.contains("offer"), "{}", no_offer.message);
    }
}
