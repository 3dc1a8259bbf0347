//! One-to-one calls in a conversation: ringing until the callee accepts or rejects, either party
//! ends it, and an unanswered one is missed after [`CALL_RING_TIMEOUT`]. A dropped socket ends its
//! ringing calls at once; an answered call waits [`CALL_RECONNECT_GRACE`] for its party to come
//! back ([`resume`] on a new socket) before it ends as 'disconnected'. Signalling (offer, answer,
//! ICE) is relayed to the other party's call socket.
//!
//! Beside them: [`sockets`], the open sockets of every api process, and [`ice_servers`], the STUN
//! and TURN servers a browser uses for a call.

use chrono::{DateTime, Duration, Utc};
use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::{
    Error, Result,
    booking::{BookingStatus, lifecycle, video},
    messaging::{self, conversations},
    push::{self, PushContent, PushKind},
    realtime::{
        Envelope, ServerEvent,
        protocol::{
            CallEndReason, CallEnded, CallIds, CallInitiated, CallResumed, CallRole, Caller, IceCandidate,
            IncomingCall, RelayedAnswer, RelayedIceCandidate, RelayedOffer, SessionDescription,
        },
    },
};

pub mod ice_servers;
pub mod jobs;
pub mod sockets;

/// A call nobody answered within this is missed.
pub const CALL_RING_TIMEOUT: Duration = Duration::seconds(45);
/// An answered call whose party's socket closed waits this long for them to come back (a reload, a
/// dropped connection) before it ends.
pub const CALL_RECONNECT_GRACE: Duration = Duration::seconds(15);
pub const NOT_FOUND: &str = "Call not found";
pub const BUSY: &str = "A call is already in progress in this conversation";
pub const NOT_RINGING: &str = "This call is no longer ringing";
pub const NOT_ANSWERED: &str = "The call has not been answered yet";
pub const OUTSIDE_WINDOW: &str = "Video sessions open 15 minutes before the start and close at the end of the session";

closed_set! {
    /// A one-to-one call rings, is answered (active), then ends one of three ways.
    pub enum CallStatus ("call status") {
        Ringing = "ringing",
        Active = "active",
        Rejected = "rejected",
        Ended = "ended",
        Missed = "missed",
    }
}

impl CallStatus {
    /// Ringing or answered: the call holds its conversation (one live call each).
    pub const LIVE: &'static [Self] = &[Self::Ringing, Self::Active];
}

/// Why a call ended, as `callEnded.reason` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Ended,
    Missed,
    Rejected,
    Disconnected,
}

impl EndReason {
    /// What `callEnded.reason` says.
    pub fn event_reason(self) -> CallEndReason {
        match self {
            EndReason::Ended => CallEndReason::Ended,
            EndReason::Missed => CallEndReason::Missed,
            EndReason::Rejected => CallEndReason::Rejected,
            EndReason::Disconnected => CallEndReason::Disconnected,
        }
    }

    fn status(self) -> CallStatus {
        match self {
            EndReason::Missed => CallStatus::Missed,
            EndReason::Rejected => CallStatus::Rejected,
            EndReason::Ended | EndReason::Disconnected => CallStatus::Ended,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Call {
    pub id: Uuid,
    pub room_id: Uuid,
    pub conversation_id: Uuid,
    pub booking_id: Option<Uuid>,
    pub caller_id: Uuid,
    pub callee_id: Uuid,
    pub caller_socket: Uuid,
    pub callee_socket: Option<Uuid>,
    pub status: CallStatus,
    pub created_at: DateTime<Utc>,
}

impl Call {
    fn other(&self, me: Uuid) -> Uuid {
        if self.caller_id == me {
            self.callee_id
        } else {
            self.caller_id
        }
    }

    fn ids(&self) -> CallIds {
        CallIds {
            call_id: self.id,
            room_id: self.room_id,
        }
    }

    fn ended(&self, reason: CallEndReason) -> CallEnded {
        CallEnded {
            call_id: self.id,
            room_id: self.room_id,
            reason,
        }
    }
}

/// `sqlx::query_as!(Call, …)` whose statement names a call's columns between `$head` and `$tail`.
macro_rules! call_query {
    ($head:literal, $tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Call,
            $head
                + r#"id, room_id, conversation_id, booking_id, caller_id, callee_id, caller_socket, callee_socket,
                     status AS "status: CallStatus", created_at"#
                + $tail
            $(, $arg)*
        )
    };
}

struct BookingWindow {
    mentor_id: Uuid,
    user_id: Uuid,
    status: BookingStatus,
    scheduled_at: DateTime<Utc>,
    duration_minutes: i32,
}

/// `me` calls the other party of a conversation from `socket`: `callInitiated` to that socket,
/// `incomingCall` to every socket of the callee. For a booking, only its two parties and only
/// inside its video window.
pub async fn initiate(
    conn: &mut PgConnection,
    me: Uuid,
    socket: Uuid,
    conversation: Uuid,
    booking: Option<Uuid>,
    now: DateTime<Utc>,
) -> Result<Call> {
    let parties = conversations::parties(&mut *conn, me, conversation).await?;
    // One caller at a time per conversation: the row lock orders concurrent initiations.
    sqlx::query!("SELECT id FROM conversations WHERE id = $1 FOR UPDATE", conversation,)
        .fetch_optional(&mut *conn)
        .await?;
    if let Some(id) = booking {
        let window = sqlx::query_as!(
            BookingWindow,
            r#"SELECT mentor_id, user_id, status AS "status: BookingStatus", scheduled_at,
                      (extract(epoch FROM ends_at - scheduled_at) / 60)::int AS "duration_minutes!"
               FROM bookings WHERE id = $1"#,
            id
        )
        .fetch_optional(&mut *conn)
        .await?;
        let window = window
            .filter(|b| b.mentor_id == parties.mentor_id && b.user_id == parties.user_id)
            .ok_or_else(|| Error::not_found(lifecycle::NOT_FOUND))?;
        if !video::is_open(window.status, window.scheduled_at, window.duration_minutes, now) {
            return Err(Error::validation(OUTSIDE_WINDOW));
        }
    }
    end_stale(conn, conversation).await?;
    let busy: bool = sqlx::query_scalar!(
        "SELECT EXISTS (SELECT 1 FROM calls WHERE conversation_id = $1 AND status = ANY($2)) AS \"busy!\"",
        conversation,
        CallStatus::LIVE as &[CallStatus],
    )
    .fetch_one(&mut *conn)
    .await?;
    if busy {
        return Err(Error::conflict(BUSY));
    }
    let callee = parties.other(me);
    let call: Call = call_query!(
        "INSERT INTO calls (conversation_id, booking_id, caller_id, callee_id, caller_socket) VALUES ($1, $2, $3, $4, $5) RETURNING ",
        "",
        conversation,
        booking,
        me,
        callee,
        socket,
    )
    .fetch_one(&mut *conn)
    .await?;
    let caller = sqlx::query!(
        "SELECT first_name, last_name, profile_image_url FROM users WHERE id = $1",
        me
    )
    .fetch_one(&mut *conn)
    .await?;
    let caller = (caller.first_name, caller.last_name, caller.profile_image_url);
    let initiated = CallInitiated {
        call_id: call.id,
        room_id: call.room_id,
        conversation_id: conversation,
        booking_id: booking,
    };
    messaging::publish_to_socket(conn, me, socket, ServerEvent::CallInitiated(initiated)).await?;
    let incoming = IncomingCall {
        call_id: call.id,
        room_id: call.room_id,
        conversation_id: conversation,
        booking_id: booking,
        caller: Caller {
            id: me,
            first_name: caller.0,
            last_name: caller.1,
            profile_image_url: caller.2,
        },
    };
    let ring = ring_push(
        &call,
        &format!("{} {}", incoming.caller.first_name, incoming.caller.last_name),
    );
    messaging::publish(conn, vec![callee], ServerEvent::IncomingCall(incoming)).await?;
    push::queue_to_user(conn, callee, ring).await?;
    Ok(call)
}

/// What rings on the callee's devices: the conversation's page opens with the call ready to accept
/// (a socket opening while a call rings hears `incomingCall`, [`ringing_for`]).
fn ring_push(call: &Call, caller: &str) -> PushContent {
    PushContent {
        kind: PushKind::IncomingCall,
        title: "Incoming call".into(),
        body: format!("{caller} is calling you"),
        url: format!("/messages?conversation={}", call.conversation_id),
        tag: call_tag(call.id),
    }
}

/// The tag of a call's pushes: its `call_ended` replaces its ring on the screen.
pub fn call_tag(id: Uuid) -> String {
    format!("call-{id}")
}

/// The callee's devices stop ringing: a `call_ended` push with the ring's tag replaces it.
async fn stop_ringing(conn: &mut PgConnection, call: &Call, how: StoppedRinging) -> Result<()> {
    let caller = sqlx::query!("SELECT first_name, last_name FROM users WHERE id = $1", call.caller_id)
        .fetch_optional(&mut *conn)
        .await?
        .map(|u| format!("{} {}", u.first_name, u.last_name))
        .unwrap_or_default();
    let (title, body) = match how {
        StoppedRinging::Answered => ("Call answered", format!("You answered {caller}'s call")),
        StoppedRinging::Rejected => ("Call declined", format!("You declined {caller}'s call")),
        StoppedRinging::Missed => ("Missed call", format!("You missed a call from {caller}")),
    };
    let content = PushContent {
        kind: PushKind::CallEnded,
        title: title.into(),
        body,
        url: format!("/messages?conversation={}", call.conversation_id),
        tag: call_tag(call.id),
    };
    push::queue_to_user(conn, call.callee_id, content).await?;
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StoppedRinging {
    Answered,
    Rejected,
    Missed,
}

/// The calls ringing for `me` now, as `incomingCall` says them: a socket that opens while one
/// rings (a tab opened from the ring's push) hears it.
pub async fn ringing_for(conn: &mut PgConnection, me: Uuid) -> Result<Vec<IncomingCall>> {
    let rows = sqlx::query!(
        "SELECT c.id, c.room_id, c.conversation_id, c.booking_id, c.caller_id, u.first_name, u.last_name, u.profile_image_url \
         FROM calls c JOIN users u ON u.id = c.caller_id WHERE c.callee_id = $1 AND c.status = $2 ORDER BY c.created_at",
        me,
        CallStatus::Ringing.as_str(),
    )
    .fetch_all(&mut *conn)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| IncomingCall {
            call_id: r.id,
            room_id: r.room_id,
            conversation_id: r.conversation_id,
            booking_id: r.booking_id,
            caller: Caller {
                id: r.caller_id,
                first_name: r.first_name,
                last_name: r.last_name,
                profile_image_url: r.profile_image_url,
            },
        })
        .collect())
}

/// Ends the live calls of a conversation whose socket is no longer open on any api process (its
/// process died): they must not keep the conversation busy. An answered call whose socket closed
/// normally is left to its reconnect grace ([`drop_grace_over`]); one on a socket whose process died
/// (its row stale for far longer than the grace) ends here.
async fn end_stale(conn: &mut PgConnection, conversation: Uuid) -> Result<()> {
    let stale: Vec<Call> = call_query!(
        "SELECT ",
        " FROM calls c WHERE conversation_id = $1 AND ( \
           (status = $3 AND NOT EXISTS \
               (SELECT 1 FROM realtime_sockets s WHERE s.socket_id = c.caller_socket AND s.seen_at > now() - $2::interval)) \
           OR (status = $4 AND EXISTS (SELECT 1 FROM realtime_sockets s \
               WHERE s.socket_id IN (c.caller_socket, c.callee_socket) AND s.seen_at <= now() - $2::interval))) \
         FOR UPDATE",
        conversation,
        crate::sql::interval(sockets::STALE_AFTER),
        CallStatus::Ringing as CallStatus,
        CallStatus::Active as CallStatus,
    )
    .fetch_all(&mut *conn)
    .await?;
    for call in &stale {
        finish(conn, call, EndReason::Disconnected).await?;
    }
    Ok(())
}

/// A call `me` takes part in, locked for the change; anyone else's is not found.
async fn own_call(conn: &mut PgConnection, me: Uuid, id: Uuid) -> Result<Call> {
    let call: Option<Call> = call_query!("SELECT ", " FROM calls WHERE id = $1 FOR UPDATE", id,)
        .fetch_optional(&mut *conn)
        .await?;
    call.filter(|c| c.caller_id == me || c.callee_id == me)
        .ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// The callee takes the call on `socket`: `callAccepted` to the caller's socket, and the
/// callee's other sockets close their overlay.
pub async fn accept(conn: &mut PgConnection, me: Uuid, socket: Uuid, id: Uuid) -> Result<Call> {
    let call = own_call(conn, me, id).await?;
    if call.callee_id != me {
        return Err(Error::not_found(NOT_FOUND));
    }
    if call.status != CallStatus::Ringing {
        return Err(Error::conflict(NOT_RINGING));
    }
    sqlx::query!(
        "UPDATE calls SET status = $3, callee_socket = $2, answered_at = now() WHERE id = $1",
        id,
        socket,
        CallStatus::Active as CallStatus,
    )
    .execute(&mut *conn)
    .await?;
    let accepted = ServerEvent::CallAccepted(call.ids());
    messaging::publish_to_socket(conn, call.caller_id, call.caller_socket, accepted).await?;
    stop_ringing(conn, &call, StoppedRinging::Answered).await?;
    // The callee's other sockets close their overlay.
    let elsewhere = Envelope {
        except_socket: Some(socket),
        ..Envelope::to_users(
            vec![me],
            ServerEvent::CallEnded(call.ended(CallEndReason::AnsweredElsewhere)),
        )
    };
    crate::realtime::publish(conn, &elsewhere).await?;
    Ok(Call {
        status: CallStatus::Active,
        callee_socket: Some(socket),
        ..call
    })
}

/// The callee declines: `callRejected` to the caller's socket, `callEnded` to both.
pub async fn reject(conn: &mut PgConnection, me: Uuid, id: Uuid) -> Result<()> {
    let call = own_call(conn, me, id).await?;
    if call.callee_id != me {
        return Err(Error::not_found(NOT_FOUND));
    }
    if call.status != CallStatus::Ringing {
        return Err(Error::conflict(NOT_RINGING));
    }
    let rejected = ServerEvent::CallRejected(call.ids());
    messaging::publish_to_socket(conn, call.caller_id, call.caller_socket, rejected).await?;
    finish(conn, &call, EndReason::Rejected).await
}

/// Either party hangs up (or the caller cancels while it rings).
pub async fn end(conn: &mut PgConnection, me: Uuid, id: Uuid) -> Result<()> {
    let call = own_call(conn, me, id).await?;
    if !matches!(call.status, CallStatus::Ringing | CallStatus::Active) {
        return Ok(());
    }
    finish(conn, &call, EndReason::Ended).await
}

async fn finish(conn: &mut PgConnection, call: &Call, reason: EndReason) -> Result<()> {
    sqlx::query!(
        "UPDATE calls SET status = $2, ended_at = now() WHERE id = $1",
        call.id,
        reason.status() as CallStatus,
    )
    .execute(&mut *conn)
    .await?;
    if call.status == CallStatus::Ringing {
        let how = match reason {
            EndReason::Rejected => StoppedRinging::Rejected,
            EndReason::Ended | EndReason::Missed | EndReason::Disconnected => StoppedRinging::Missed,
        };
        stop_ringing(conn, call, how).await?;
    }
    let ended = ServerEvent::CallEnded(call.ended(reason.event_reason()));
    messaging::publish(conn, vec![call.caller_id, call.callee_id], ended).await
}

/// A socket closed: it views nothing any more and its ringing calls end ('disconnected'); returns
/// its answered calls, which wait for their party to come back ([`socket_dropped`]).
pub async fn socket_closed(conn: &mut PgConnection, socket: Uuid) -> Result<Vec<Uuid>> {
    sockets::closed(&mut *conn, socket).await?;
    socket_dropped(conn, socket).await
}

/// Forgets the sockets of processes that died, ending their calls; returns how many.
pub async fn sweep_stale_sockets(conn: &mut PgConnection) -> Result<usize> {
    let stale = sockets::sweep_stale(&mut *conn).await?;
    for socket in &stale {
        socket_gone(&mut *conn, *socket).await?;
    }
    Ok(stale.len())
}

/// A socket closed: its ringing calls end at once ('disconnected' to both users); its answered calls
/// stay active and are returned, for the caller to check them after [`CALL_RECONNECT_GRACE`]
/// ([`drop_grace_over`]).
pub async fn socket_dropped(conn: &mut PgConnection, socket: Uuid) -> Result<Vec<Uuid>> {
    let calls = on_socket(conn, socket).await?;
    let mut held = Vec::new();
    for call in &calls {
        if call.status == CallStatus::Active {
            held.push(call.id);
        } else {
            finish(conn, call, EndReason::Disconnected).await?;
        }
    }
    Ok(held)
}

/// A socket whose process died (its row went stale, long past the grace): all its calls end.
pub async fn socket_gone(conn: &mut PgConnection, socket: Uuid) -> Result<usize> {
    let calls = on_socket(conn, socket).await?;
    for call in &calls {
        finish(conn, call, EndReason::Disconnected).await?;
    }
    Ok(calls.len())
}

async fn on_socket(conn: &mut PgConnection, socket: Uuid) -> Result<Vec<Call>> {
    Ok(call_query!(
        "SELECT ",
        " FROM calls WHERE status = ANY($2) AND (caller_socket = $1 OR callee_socket = $1) FOR UPDATE",
        socket,
        CallStatus::LIVE as &[CallStatus],
    )
    .fetch_all(&mut *conn)
    .await?)
}

/// The reconnect grace of a call whose `socket` closed is over: it ends ('disconnected') unless its
/// party came back on another socket meanwhile or it ended already. Returns whether it ended.
pub async fn drop_grace_over(conn: &mut PgConnection, id: Uuid, socket: Uuid) -> Result<bool> {
    let call: Option<Call> = call_query!(
        "SELECT ",
        " FROM calls c WHERE id = $1 AND status = $3 AND (caller_socket = $2 OR callee_socket = $2) \
           AND NOT EXISTS (SELECT 1 FROM realtime_sockets s WHERE s.socket_id = $2) FOR UPDATE",
        id,
        socket,
        CallStatus::Active as CallStatus,
    )
    .fetch_optional(&mut *conn)
    .await?;
    match call {
        Some(call) => {
            finish(conn, &call, EndReason::Disconnected).await?;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// What [`resume`] found.
#[derive(Debug)]
pub enum Resumed {
    /// The call goes on with `socket` as this party's call socket.
    Active(Call),
    /// The call is over: the client drops it (`callEnded` to this socket).
    Ended(CallEnded),
}

/// A party of an answered call is back on `socket` (after a dropped connection or a reload): it
/// becomes their call socket, and both sides get `callResumed` (`userId` says who came back; that
/// side offers again on fresh peer connections).
pub async fn resume(conn: &mut PgConnection, me: Uuid, socket: Uuid, id: Uuid) -> Result<Resumed> {
    let call = own_call(conn, me, id).await?;
    match call.status {
        CallStatus::Active => {}
        CallStatus::Ringing => return Err(Error::conflict(NOT_ANSWERED)),
        CallStatus::Rejected | CallStatus::Ended | CallStatus::Missed => {
            return Ok(Resumed::Ended(call.ended(CallEndReason::Ended)));
        }
    }
    let answered_at: Option<DateTime<Utc>> = if call.caller_id == me {
        sqlx::query_scalar!(
            "UPDATE calls SET caller_socket = $2 WHERE id = $1 RETURNING answered_at",
            id,
            socket
        )
        .fetch_one(&mut *conn)
        .await?
    } else {
        sqlx::query_scalar!(
            "UPDATE calls SET callee_socket = $2 WHERE id = $1 RETURNING answered_at",
            id,
            socket
        )
        .fetch_one(&mut *conn)
        .await?
    };
    let resumed = |role| {
        ServerEvent::CallResumed(CallResumed {
            call_id: call.id,
            room_id: call.room_id,
            conversation_id: call.conversation_id,
            booking_id: call.booking_id,
            answered_at,
            role,
            user_id: me,
        })
    };
    let (my_role, other_role) = if call.caller_id == me {
        (CallRole::Caller, CallRole::Callee)
    } else {
        (CallRole::Callee, CallRole::Caller)
    };
    messaging::publish_to_socket(conn, me, socket, resumed(my_role)).await?;
    let other = call.other(me);
    let other_socket = if other == call.caller_id {
        Some(call.caller_socket)
    } else {
        call.callee_socket
    };
    if let Some(other_socket) = other_socket {
        messaging::publish_to_socket(conn, other, other_socket, resumed(other_role)).await?;
    }
    let call = if call.caller_id == me {
        Call {
            caller_socket: socket,
            ..call
        }
    } else {
        Call {
            callee_socket: Some(socket),
            ..call
        }
    };
    Ok(Resumed::Active(call))
}

/// A call still ringing at its timeout is missed; returns whether it was.
pub async fn time_out(conn: &mut PgConnection, id: Uuid) -> Result<bool> {
    let call: Option<Call> = call_query!(
        "SELECT ",
        " FROM calls WHERE id = $1 AND status = $2 FOR UPDATE",
        id,
        CallStatus::Ringing as CallStatus,
    )
    .fetch_optional(&mut *conn)
    .await?;
    match call {
        Some(call) => {
            finish(conn, &call, EndReason::Missed).await?;
            Ok(true)
        }
        None => Ok(false),
    }
}

/// The WebRTC messages relayed between the two call sockets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    Offer,
    Answer,
    IceCandidate,
}

impl Signal {
    /// The event the other side receives: `payload` from `from` for the call in `room`.
    pub fn event(self, room: Uuid, from: Uuid, payload: Value) -> ServerEvent {
        match self {
            Signal::Offer => ServerEvent::Offer(RelayedOffer {
                room_id: room,
                offer: SessionDescription(payload),
                from,
            }),
            Signal::Answer => ServerEvent::Answer(RelayedAnswer {
                room_id: room,
                answer: SessionDescription(payload),
                from,
            }),
            Signal::IceCandidate => ServerEvent::IceCandidate(RelayedIceCandidate {
                room_id: room,
                candidate: IceCandidate(payload),
                from,
            }),
        }
    }
}

/// Relays `payload` from `me` to the other party's call socket of the live call in `room`.
pub async fn relay(conn: &mut PgConnection, me: Uuid, room: Uuid, signal: Signal, payload: Value) -> Result<()> {
    let call: Option<Call> = call_query!(
        "SELECT ",
        " FROM calls WHERE room_id = $1 AND status = ANY($2)",
        room,
        CallStatus::LIVE as &[CallStatus],
    )
    .fetch_optional(&mut *conn)
    .await?;
    let call = call
        .filter(|c| c.caller_id == me || c.callee_id == me)
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    let other = call.other(me);
    let target = if other == call.caller_id {
        Some(call.caller_socket)
    } else {
        call.callee_socket
    };
    let target = target.ok_or_else(|| Error::conflict(NOT_ANSWERED))?;
    messaging::publish_to_socket(conn, other, target, signal.event(room, me, payload)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unanswered_call_rings_for_45_seconds() {
        assert_eq!(CALL_RING_TIMEOUT, Duration::seconds(45));
    }

    #[test]
    fn a_dropped_party_has_15_seconds_to_come_back() {
        assert_eq!(CALL_RECONNECT_GRACE, Duration::seconds(15));
    }

    #[test]
    fn end_reasons_and_the_status_they_leave() {
        assert_eq!(
            [
                EndReason::Ended,
                EndReason::Missed,
                EndReason::Rejected,
                EndReason::Disconnected
            ]
            .map(|r| (r.event_reason(), r.status())),
            [
                (CallEndReason::Ended, CallStatus::Ended),
                (CallEndReason::Missed, CallStatus::Missed),
                (CallEndReason::Rejected, CallStatus::Rejected),
                (CallEndReason::Disconnected, CallStatus::Ended)
            ]
        );
    }

    #[test]
    fn signals_keep_their_event_and_payload_field_names() {
        let (room, from) = (Uuid::new_v4(), Uuid::new_v4());
        for (signal, name, field) in [
            (Signal::Offer, "offer", "offer"),
            (Signal::Answer, "answer", "answer"),
            (Signal::IceCandidate, "iceCandidate", "candidate"),
        ] {
            let (event, data) = signal.event(room, from, serde_json::json!({"sdp": "v=0"})).into_parts();
            assert_eq!(event, name);
            assert_eq!(data[field]["sdp"], "v=0");
            assert_eq!(data["roomId"], room.to_string());
            assert_eq!(data["from"], from.to_string());
        }
    }
}
