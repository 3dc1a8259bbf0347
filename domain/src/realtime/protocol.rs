//! The real-time protocol of `/api/ws`, one Rust type each way: every frame is
//! `{"event": NAME, "data": {...}}`, a variant of [`ServerEvent`] (what the server sends) or of
//! [`ClientEvent`] (what it accepts), and no other name exists. Names and the deviations from the
//! spec's: docs/messaging.md.
//!
//! `api realtime-schema` writes both enums as JSON Schema (`realtime.schema.json`), from which the
//! web's event types are generated; tests fail when either copy drifts. The frames' data live by
//! area (`messaging`, `calls`, `group_calls`, `notifications`); the enums, parsing and the schema here.

use schemars::{JsonSchema, generate::SchemaSettings};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use uuid::Uuid;

/// A JSON object the browser's own APIs define (WebRTC) or REST already describes (openapi.yaml):
/// the server passes it through; the schema names its TypeScript type with `tsType`. Never null.
macro_rules! opaque {
    ($(#[$doc:meta])* $name:ident => $ts:literal) => {
        $(#[$doc])*
        #[derive(Clone, Debug, PartialEq, ::serde::Serialize)]
        #[serde(transparent)]
        pub struct $name(pub ::serde_json::Value);

        impl<'de> ::serde::Deserialize<'de> for $name {
            fn deserialize<D: ::serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                use ::serde::de::Error as _;
                let value = <::serde_json::Value as ::serde::Deserialize>::deserialize(deserializer)?;
                if value.is_null() {
                    return Err(D::Error::custom(concat!("expected ", $ts, ", found null")));
                }
                Ok(Self(value))
            }
        }

        impl ::schemars::JsonSchema for $name {
            fn schema_name() -> ::std::borrow::Cow<'static, str> {
                $ts.into()
            }

            fn inline_schema() -> bool {
                true
            }

            fn json_schema(_: &mut ::schemars::SchemaGenerator) -> ::schemars::Schema {
                ::schemars::json_schema!({ "type": "object", "tsType": $ts })
            }
        }
    };
}

mod calls;
mod group_calls;
mod messaging;
mod notifications;
mod presence;

pub use calls::*;
pub use group_calls::*;
pub use messaging::*;
pub use notifications::*;
pub use presence::*;

/// No data (`{}`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Empty {}

/// The socket is open and signed in as `userId`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ready {
    pub user_id: Uuid,
}

/// A frame the server refused, or an event that failed: the rule's message and the event it named.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ErrorData {
    pub message: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// Deviation: what went wrong, as the HTTP API's error `code` names it (`validation`,
    /// `forbidden`, `not_found`, `conflict`, `rate_limited`, `internal`, `unavailable`, ...): a
    /// refusal by a rule is no fault of the connection, and the web says so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub code: Option<String>,
}

/// Every frame the server sends.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", content = "data")]
pub enum ServerEvent {
    /// Deviation: the first frame of every socket.
    #[serde(rename = "ready")]
    Ready(Ready),
    /// Deviation: the answer to `ping`.
    #[serde(rename = "pong")]
    Pong(Empty),
    #[serde(rename = "messageReceived")]
    MessageReceived(MessageView),
    #[serde(rename = "messageRead")]
    MessageRead(MessageRead),
    #[serde(rename = "conversationRead")]
    ConversationRead(ConversationRead),
    #[serde(rename = "userTyping")]
    UserTyping(UserTyping),
    #[serde(rename = "callInitiated")]
    CallInitiated(CallInitiated),
    #[serde(rename = "incomingCall")]
    IncomingCall(IncomingCall),
    #[serde(rename = "callAccepted")]
    CallAccepted(CallIds),
    #[serde(rename = "callRejected")]
    CallRejected(CallIds),
    #[serde(rename = "callEnded")]
    CallEnded(CallEnded),
    /// Deviation: a party of an answered call is back on a new socket.
    #[serde(rename = "callResumed")]
    CallResumed(CallResumed),
    #[serde(rename = "offer")]
    Offer(RelayedOffer),
    #[serde(rename = "answer")]
    Answer(RelayedAnswer),
    #[serde(rename = "iceCandidate")]
    IceCandidate(RelayedIceCandidate),
    /// Deviation: a new notification, live.
    #[serde(rename = "notification")]
    Notification(NotificationView),
    #[serde(rename = "group-session-started")]
    GroupSessionStarted(GroupSessionStarted),
    #[serde(rename = "group-session-ended")]
    GroupSessionEnded(GroupSessionEnded),
    #[serde(rename = "participant-joined")]
    ParticipantJoined(ParticipantJoined),
    #[serde(rename = "participant-left")]
    ParticipantLeft(ParticipantLeft),
    #[serde(rename = "participant-muted")]
    ParticipantMuted(ParticipantRef),
    #[serde(rename = "participant-unmuted")]
    ParticipantUnmuted(ParticipantRef),
    /// Deviation: a member's camera, to every member.
    #[serde(rename = "toggle-video")]
    VideoToggled(VideoToggled),
    /// Deviation: a member's microphone, to every member.
    #[serde(rename = "toggle-audio")]
    AudioToggled(AudioToggled),
    /// Deviation: Janus's answer to the seat's `group-call-offer`.
    #[serde(rename = "group-call-answer")]
    GroupCallAnswer(GroupCallSdp),
    /// Deviation: an offer for the seat's subscriber connection.
    #[serde(rename = "group-call-subscribe-offer")]
    GroupCallSubscribeOffer(GroupCallSubscribeOffer),
    /// A watched mentor's presence changed (issue 36): to the sockets that watch them.
    #[serde(rename = "presenceChanged")]
    PresenceChanged(PresenceChanged),
    /// A seeker asks the mentor for a reading now (issue 36): to the mentor's sockets.
    #[serde(rename = "instantSessionRequested")]
    InstantSessionRequested(InstantSessionRequested),
    /// Deviation: a reading was accepted, declined, expired or ended: to both parties.
    #[serde(rename = "instantSessionChanged")]
    InstantSessionChanged(InstantSessionChanged),
    /// The balance pays for one more minute at most (issue 36): to the seeker.
    #[serde(rename = "balanceLow")]
    BalanceLow(BalanceLow),
    #[serde(rename = "error")]
    Error(ErrorData),
}

impl ServerEvent {
    /// The frame's JSON text, `{"event": NAME, "data": {...}}`.
    pub fn to_frame(&self) -> String {
        serde_json::to_string(self).expect("server events always serialise")
    }

    /// The event's name and its data, apart.
    pub fn into_parts(self) -> (String, Value) {
        let mut frame = serde_json::to_value(self).expect("server events always serialise");
        let name = frame["event"].as_str().unwrap_or_default().to_owned();
        (name, frame["data"].take())
    }

    pub fn error(message: impl Into<String>, event: Option<&str>) -> Self {
        ServerEvent::Error(ErrorData {
            message: message.into(),
            event: event.map(str::to_owned),
            code: None,
        })
    }

    /// An error with the HTTP API's error code of what went wrong (see [`ErrorData::code`]).
    pub fn error_with_code(message: impl Into<String>, event: Option<&str>, code: &str) -> Self {
        ServerEvent::Error(ErrorData {
            message: message.into(),
            event: event.map(str::to_owned),
            code: Some(code.to_owned()),
        })
    }
}

/// Every frame the server accepts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(tag = "event", content = "data")]
pub enum ClientEvent {
    #[serde(rename = "sendMessage")]
    SendMessage(SendMessage),
    #[serde(rename = "joinConversation")]
    JoinConversation(ConversationRef),
    #[serde(rename = "leaveConversation")]
    LeaveConversation(ConversationRef),
    #[serde(rename = "markMessageRead")]
    MarkMessageRead(MessageRef),
    #[serde(rename = "markConversationRead")]
    MarkConversationRead(ConversationRef),
    #[serde(rename = "startTyping")]
    StartTyping(ConversationRef),
    #[serde(rename = "stopTyping")]
    StopTyping(ConversationRef),
    #[serde(rename = "initiateCall")]
    InitiateCall(InitiateCall),
    #[serde(rename = "acceptCall")]
    AcceptCall(CallRef),
    #[serde(rename = "rejectCall")]
    RejectCall(CallRef),
    #[serde(rename = "endCall")]
    EndCall(CallRef),
    /// Deviation: this socket takes over an answered call of this user again (after a dropped
    /// connection or a reload).
    #[serde(rename = "resumeCall")]
    ResumeCall(CallRef),
    #[serde(rename = "sendOffer")]
    SendOffer(SendOffer),
    #[serde(rename = "sendAnswer")]
    SendAnswer(SendAnswer),
    #[serde(rename = "sendIceCandidate")]
    SendIceCandidate(SendIceCandidate),
    #[serde(rename = "start-group-session")]
    StartGroupSession(GroupSessionRef),
    #[serde(rename = "end-group-session")]
    EndGroupSession(GroupSessionRef),
    #[serde(rename = "join-group-session")]
    JoinGroupSession(GroupSessionRef),
    #[serde(rename = "leave-group-session")]
    LeaveGroupSession(GroupSessionRef),
    #[serde(rename = "mute-participant")]
    MuteParticipant(ParticipantRef),
    #[serde(rename = "unmute-participant")]
    UnmuteParticipant(ParticipantRef),
    #[serde(rename = "remove-participant")]
    RemoveParticipant(RemoveParticipant),
    #[serde(rename = "toggle-video")]
    ToggleVideo(ToggleVideo),
    #[serde(rename = "toggle-audio")]
    ToggleAudio(ToggleAudio),
    /// Deviation: the seat's publisher offer; the api relays it to Janus and answers with
    /// `group-call-answer`.
    #[serde(rename = "group-call-offer")]
    GroupCallOffer(GroupCallSdp),
    /// Deviation: the answer to a `group-call-subscribe-offer`.
    #[serde(rename = "group-call-subscribe-answer")]
    GroupCallSubscribeAnswer(GroupCallSdp),
    /// Spec's name; deviation: it names the seat's connection (`target`).
    #[serde(rename = "ice-candidate")]
    GroupIceCandidate(GroupIceCandidate),
    /// Deviation: keeps the socket alive; answered with `pong`. `data` may be left out.
    #[serde(rename = "ping")]
    Ping(Empty),
    /// This socket watches these mentors' presence now (at most 100), replacing what it watched.
    #[serde(rename = "watchPresence")]
    WatchPresence(WatchPresence),
}

pub const NOT_A_FRAME: &str = "Frames must be JSON objects {\"event\": ..., \"data\": {...}}";
pub const DATA_NOT_OBJECT: &str = "data must be a JSON object";
/// An unknown event's name is echoed back (in `message` and `event`) up to this many characters,
/// then cut with "…", so a huge name earns a small reply.
pub const MAX_ECHOED_EVENT_CHARS: usize = 64;

/// `event` as an error may echo it ([`MAX_ECHOED_EVENT_CHARS`]).
fn echoed(event: &str) -> String {
    match event.char_indices().nth(MAX_ECHOED_EVENT_CHARS) {
        Some((cut, _)) => format!("{}…", &event[..cut]),
        None => event.to_string(),
    }
}

/// Why a frame was refused: the text for `error.message` and the event it named, if any.
#[derive(Debug, PartialEq)]
pub struct BadFrame {
    pub message: String,
    pub event: Option<String>,
}

impl ClientEvent {
    /// Parses one text frame.
    pub fn parse(text: &str) -> Result<ClientEvent, BadFrame> {
        let not_a_frame = || BadFrame {
            message: NOT_A_FRAME.into(),
            event: None,
        };
        let Ok(Value::Object(mut frame)) = serde_json::from_str::<Value>(text) else {
            return Err(not_a_frame());
        };
        let Some(Value::String(event)) = frame.remove("event") else {
            return Err(not_a_frame());
        };
        let bad = |message: String| BadFrame {
            message,
            event: Some(event.clone()),
        };
        if !client_event_names().contains(&event) {
            let event = echoed(&event);
            return Err(BadFrame {
                message: format!("Unknown event: {event}"),
                event: Some(event),
            });
        }
        let data = match frame.remove("data") {
            None | Some(Value::Null) if event == "ping" => Value::Object(Default::default()),
            Some(data @ Value::Object(_)) => data,
            _ => return Err(bad(DATA_NOT_OBJECT.into())),
        };
        let frame = serde_json::json!({ "event": event, "data": data });
        serde_json::from_value(frame).map_err(|e| bad(format!("Invalid {event}: {e}")))
    }
}

/// The JSON Schema of each enum, as `api realtime-schema` prints it (`realtime.schema.json`):
/// `{"server": ServerEvent, "client": ClientEvent}`. Server events as they are serialised, client
/// events as they are read (a field with a default may be left out).
pub fn schema() -> Value {
    let server = SchemaSettings::draft2020_12()
        .for_serialize()
        .into_generator()
        .into_root_schema_for::<ServerEvent>();
    let client = SchemaSettings::draft2020_12()
        .for_deserialize()
        .into_generator()
        .into_root_schema_for::<ClientEvent>();
    serde_json::json!({ "server": server, "client": client })
}

/// `schema()` as the committed file holds it: pretty JSON and a final newline.
pub fn schema_text() -> String {
    let mut text = serde_json::to_string_pretty(&schema()).expect("a schema serialises");
    text.push('\n');
    text
}

/// The event names of one enum's schema, in declaration order.
fn names_of(schema: &Value) -> Vec<String> {
    schema["oneOf"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|variant| {
            let event = &variant["properties"]["event"];
            event["const"]
                .as_str()
                .or_else(|| event["enum"][0].as_str())
                .map(str::to_owned)
        })
        .collect()
}

/// Every name the server sends.
pub fn server_event_names() -> &'static [String] {
    static NAMES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
        names_of(
            SchemaSettings::draft2020_12()
                .for_serialize()
                .into_generator()
                .into_root_schema_for::<ServerEvent>()
                .as_value(),
        )
    });
    &NAMES
}

/// Every name the server accepts.
pub fn client_event_names() -> &'static [String] {
    static NAMES: std::sync::LazyLock<Vec<String>> = std::sync::LazyLock::new(|| {
        names_of(
            SchemaSettings::draft2020_12()
                .for_deserialize()
                .into_generator()
                .into_root_schema_for::<ClientEvent>()
                .as_value(),
        )
    });
    &NAMES
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The spec's names (01 §7 for chat and calls, 02 for group session events).
    const SPEC_CLIENT: [&str; 24] = [
        "sendMessage",
        "joinConversation",
        "leaveConversation",
        "markMessageRead",
        "markConversationRead",
        "initiateCall",
        "acceptCall",
        "rejectCall",
        "endCall",
        "sendOffer",
        "sendAnswer",
        "sendIceCandidate",
        "startTyping",
        "stopTyping",
        "ice-candidate",
        "start-group-session",
        "join-group-session",
        "end-group-session",
        "leave-group-session",
        "mute-participant",
        "unmute-participant",
        "remove-participant",
        "toggle-video",
        "toggle-audio",
    ];
    const SPEC_SERVER: [&str; 19] = [
        "messageReceived",
        "messageRead",
        "conversationRead",
        "callInitiated",
        "incomingCall",
        "callAccepted",
        "callRejected",
        "callEnded",
        "offer",
        "answer",
        "iceCandidate",
        "userTyping",
        "error",
        "group-session-started",
        "participant-joined",
        "participant-left",
        "group-session-ended",
        "participant-muted",
        "participant-unmuted",
    ];
    /// Issue 36 (readings now): its own names, as the issue gives them.
    const ISSUE_36_CLIENT: [&str; 1] = ["watchPresence"];
    const ISSUE_36_SERVER: [&str; 4] = [
        "presenceChanged",
        "instantSessionRequested",
        "instantSessionChanged",
        "balanceLow",
    ];
    /// The documented deviations, and nothing else.
    const EXTRA_CLIENT: [&str; 4] = ["resumeCall", "group-call-offer", "group-call-subscribe-answer", "ping"];
    const EXTRA_SERVER: [&str; 8] = [
        "ready",
        "pong",
        "callResumed",
        "notification",
        "toggle-video",
        "toggle-audio",
        "group-call-answer",
        "group-call-subscribe-offer",
    ];

    fn sorted(names: impl IntoIterator<Item = impl ToString>) -> Vec<String> {
        let mut v: Vec<String> = names.into_iter().map(|n| n.to_string()).collect();
        v.sort();
        v
    }

    #[test]
    fn every_name_is_the_specs_or_a_documented_deviation() {
        assert_eq!(
            sorted(client_event_names()),
            sorted(SPEC_CLIENT.iter().chain(&EXTRA_CLIENT).chain(&ISSUE_36_CLIENT))
        );
        assert_eq!(
            sorted(server_event_names()),
            sorted(SPEC_SERVER.iter().chain(&EXTRA_SERVER).chain(&ISSUE_36_SERVER))
        );
    }

    #[test]
    fn group_session_names_are_kebab_case_and_the_others_camel_case() {
        for name in client_event_names().iter().chain(server_event_names()) {
            let kebab = name.contains('-');
            assert!(
                name.chars()
                    .all(|c| c.is_ascii_lowercase() || c == '-' || (!kebab && c.is_ascii_uppercase())),
                "{name}"
            );
            assert!(name.chars().next().unwrap().is_ascii_lowercase(), "{name}");
        }
    }

    #[test]
    fn frames_are_event_and_data() {
        let user = Uuid::nil();
        assert_eq!(
            ServerEvent::Ready(Ready { user_id: user }).to_frame(),
            format!(r#"{{"event":"ready","data":{{"userId":"{user}"}}}}"#)
        );
        assert_eq!(ServerEvent::Pong(Empty {}).to_frame(), r#"{"event":"pong","data":{}}"#);
        assert_eq!(
            ServerEvent::error("Unknown event: x", Some("x")).into_parts(),
            ("error".into(), json!({"message": "Unknown event: x", "event": "x"}))
        );
        let ended = ServerEvent::CallEnded(CallEnded {
            call_id: user,
            room_id: user,
            reason: CallEndReason::AnsweredElsewhere,
        });
        assert_eq!(ended.into_parts().1["reason"], "answered elsewhere");
    }

    #[test]
    fn frames_parse_into_events() {
        let id = Uuid::new_v4();
        let send =
            format!(r#"{{"event":"sendMessage","data":{{"conversationId":"{id}","content":"hi","clientId":"c1"}}}}"#);
        assert_eq!(
            ClientEvent::parse(&send).unwrap(),
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
            ClientEvent::parse(&offer).unwrap(),
            ClientEvent::SendOffer(SendOffer {
                room_id: id,
                offer: SessionDescription(json!({"type":"offer","sdp":"v=0"}))
            })
        );
        assert_eq!(
            ClientEvent::parse(&format!(r#"{{"event":"resumeCall","data":{{"callId":"{id}"}}}}"#)).unwrap(),
            ClientEvent::ResumeCall(CallRef { call_id: id })
        );
        assert_eq!(
            ClientEvent::parse(r#"{"event":"ping","data":{}}"#).unwrap(),
            ClientEvent::Ping(Empty {})
        );
        assert_eq!(
            ClientEvent::parse(r#"{"event":"ping"}"#).unwrap(),
            ClientEvent::Ping(Empty {})
        );
    }

    #[test]
    fn group_call_frames_use_the_spec_names() {
        let (g, p) = (Uuid::new_v4(), Uuid::new_v4());
        assert_eq!(
            ClientEvent::parse(&format!(
                r#"{{"event":"start-group-session","data":{{"groupSessionId":"{g}"}}}}"#
            ))
            .unwrap(),
            ClientEvent::StartGroupSession(GroupSessionRef { group_session_id: g })
        );
        assert_eq!(
            ClientEvent::parse(&format!(
                r#"{{"event":"mute-participant","data":{{"groupSessionId":"{g}","participantId":"{p}"}}}}"#
            ))
            .unwrap(),
            ClientEvent::MuteParticipant(ParticipantRef {
                group_session_id: g,
                participant_id: p
            })
        );
        assert_eq!(
            ClientEvent::parse(&format!(
                r#"{{"event":"remove-participant","data":{{"groupSessionId":"{g}","participantId":"{p}","reason":"other"}}}}"#
            ))
            .unwrap(),
            ClientEvent::RemoveParticipant(RemoveParticipant {
                group_session_id: g,
                participant_id: p,
                reason: Some(crate::statuses::RemovalReason::Other),
            })
        );
        let unknown = ClientEvent::parse(&format!(
            r#"{{"event":"remove-participant","data":{{"groupSessionId":"{g}","participantId":"{p}","reason":"mood"}}}}"#
        ))
        .unwrap_err();
        assert!(unknown.message.contains("conduct"), "{}", unknown.message);
        assert_eq!(
            ClientEvent::parse(&format!(
                r#"{{"event":"toggle-video","data":{{"groupSessionId":"{g}","isVideoEnabled":false}}}}"#
            ))
            .unwrap(),
            ClientEvent::ToggleVideo(ToggleVideo {
                group_session_id: g,
                is_video_enabled: false
            })
        );
        assert_eq!(
            ClientEvent::parse(&format!(
                r#"{{"event":"ice-candidate","data":{{"groupSessionId":"{g}","participantId":"{p}","target":"publisher","candidate":null}}}}"#
            ))
            .unwrap(),
            ClientEvent::GroupIceCandidate(GroupIceCandidate {
                group_session_id: g,
                target: Target::Publisher,
                candidate: None,
                participant_id: Some(p),
            })
        );
        assert!(
            ClientEvent::parse(r#"{"event":"remove-participant","data":{"groupSessionId":"x"}}"#)
                .unwrap_err()
                .message
                .contains("remove-participant")
        );
        assert!(
            ClientEvent::parse(&format!(
                r#"{{"event":"ice-candidate","data":{{"groupSessionId":"{g}","target":"mentor","candidate":null}}}}"#
            ))
            .is_err()
        );
    }

    #[test]
    fn bad_frames_say_what_is_wrong() {
        let parse = ClientEvent::parse;
        assert_eq!(parse("not json").unwrap_err().message, NOT_A_FRAME);
        assert_eq!(parse(r#"["sendMessage"]"#).unwrap_err().message, NOT_A_FRAME);
        assert_eq!(parse(r#"{"data":{}}"#).unwrap_err().message, NOT_A_FRAME);
        assert_eq!(
            parse(r#"{"event":"nope","data":{}}"#).unwrap_err(),
            BadFrame {
                message: "Unknown event: nope".into(),
                event: Some("nope".into())
            }
        );
        // A huge unknown name is echoed cut short, in the message and in `event`.
        let huge = "x".repeat(60_000);
        let refused = parse(&format!(r#"{{"event":"{huge}","data":{{}}}}"#)).unwrap_err();
        let cut = format!("{}…", "x".repeat(MAX_ECHOED_EVENT_CHARS));
        assert_eq!(refused.event.as_deref(), Some(cut.as_str()));
        assert_eq!(refused.message, format!("Unknown event: {cut}"));
        let exact = "y".repeat(MAX_ECHOED_EVENT_CHARS);
        let refused = parse(&format!(r#"{{"event":"{exact}","data":{{}}}}"#)).unwrap_err();
        assert_eq!(refused.event, Some(exact), "a name of the cap's length is echoed whole");
        // A name the server only sends is no client event.
        assert_eq!(
            parse(r#"{"event":"messageReceived","data":{}}"#).unwrap_err().message,
            "Unknown event: messageReceived"
        );
        assert_eq!(
            parse(r#"{"event":"joinConversation","data":"abc"}"#)
                .unwrap_err()
                .message,
            DATA_NOT_OBJECT
        );
        assert_eq!(
            parse(r#"{"event":"joinConversation"}"#).unwrap_err().message,
            DATA_NOT_OBJECT
        );
        let missing = parse(r#"{"event":"joinConversation","data":{}}"#).unwrap_err();
        assert!(missing.message.contains("conversationId"), "{}", missing.message);
        let id = Uuid::new_v4();
        let no_offer = parse(&format!(r#"{{"event":"sendOffer","data":{{"roomId":"{id}"}}}}"#)).unwrap_err();
        assert!(no_offer.message.contains("offer"), "{}", no_offer.message);
        let null_offer = parse(&format!(
            r#"{{"event":"sendOffer","data":{{"roomId":"{id}","offer":null}}}}"#
        ))
        .unwrap_err();
        assert!(null_offer.message.contains("null"), "{}", null_offer.message);
    }

    #[test]
    fn every_server_event_reads_back_as_itself() {
        let id = Uuid::new_v4();
        let event = ServerEvent::GroupCallSubscribeOffer(GroupCallSubscribeOffer {
            group_session_id: id,
            sdp: "v=0".into(),
            streams: vec![GroupCallStream {
                mid: "0".into(),
                participant_id: id.to_string(),
                janus_id: 7,
                kind: StreamKind::Video,
            }],
        });
        assert_eq!(serde_json::from_str::<ServerEvent>(&event.to_frame()).unwrap(), event);
    }
}
