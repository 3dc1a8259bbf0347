//! One-to-one calls in a conversation: ringing until the callee accepts or rejects, either party
//! ends it, and an unanswered one is missed after [`CALL_RING_TIMEOUT`]. A dropped socket ends its
//! ringing calls at once; an answered call waits [`CALL_RECONNECT_GRACE`] for its party to come
//! back ([`resume`] on a new socket) before it ends as 'disconnected'. Signalling (offer, answer,
//! ICE) is relayed to the other party's call socket.

use chrono::{DateTime, Duration, Utc};
use serde_json::{Value, json};
use sqlx::{FromRow, PgConnection};
use uuid::Uuid;

use super::conversations;
use crate::{
    Error, Result,
    booking::{BookingStatus, lifecycle, video},
};

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

/// Why a call ended, as `callEnded.reason` says it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EndReason {
    Ended,
    Missed,
    Rejected,
    Disconnected,
}

impl EndReason {
    pub fn as_str(self) -> &'static str {
        match self {
            EndReason::Ended => "ended",
            EndReason::Missed => "missed",
            EndReason::Rejected => "rejected",
            EndReason::Disconnected => "disconnected",
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

/// The callee's other sockets close their overlay with this reason.
pub const ANSWERED_ELSEWHERE: &str = "answered elsewhere";

#[derive(Clone, Debug, FromRow)]
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

    fn ids(&self) -> Value {
        json!({ "callId": self.id, "roomId": self.room_id })
    }

    fn ended(&self, reason: &str) -> Value {
        json!({ "callId": self.id, "roomId": self.room_id, "reason": reason })
    }
}

const COLUMNS: &str =
    "id, room_id, conversation_id, booking_id, caller_id, callee_id, caller_socket, callee_socket, status, created_at";

#[derive(FromRow)]
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
    sqlx::query("SELECT 1 FROM conversations WHERE id = $1 FOR UPDATE")
        .bind(conversation)
        .execute(&mut *conn)
        .await?;
    if let Some(id) = booking {
        let window: Option<BookingWindow> = sqlx::query_as(
            "SELECT mentor_id, user_id, status, scheduled_at, (extract(epoch FROM ends_at - scheduled_at) / 60)::int AS duration_minutes \
             FROM bookings WHERE id = $1",
        )
        .bind(id)
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
    let busy: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM calls WHERE conversation_id = $1 AND status IN ('ringing', 'active'))",
    )
    .bind(conversation)
    .fetch_one(&mut *conn)
    .await?;
    if busy {
        return Err(Error::conflict(BUSY));
    }
    let callee = parties.other(me);
    let call: Call = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "INSERT INTO calls (conversation_id, booking_id, caller_id, callee_id, caller_socket) VALUES ($1, $2, $3, $4, $5) RETURNING {COLUMNS}"
    )))
    .bind(conversation)
    .bind(booking)
    .bind(me)
    .bind(callee)
    .bind(socket)
    .fetch_one(&mut *conn)
    .await?;
    let caller: (String, String, Option<String>) =
        sqlx::query_as("SELECT first_name, last_name, profile_image_url FROM users WHERE id = $1")
            .bind(me)
            .fetch_one(&mut *conn)
            .await?;
    let initiated =
        json!({ "callId": call.id, "roomId": call.room_id, "conversationId": conversation, "bookingId": booking });
    super::publish_to_socket(conn, me, socket, "callInitiated", initiated).await?;
    let incoming = json!({
        "callId": call.id, "roomId": call.room_id, "conversationId": conversation, "bookingId": booking,
        "caller": { "id": me, "firstName": caller.0, "lastName": caller.1, "profileImageUrl": caller.2 },
    });
    super::publish(conn, vec![callee], "incomingCall", incoming).await?;
    Ok(call)
}

/// Ends the live calls of a conversation whose socket is no longer open on any api process (its
/// process died): they must not keep the conversation busy. An answered call whose socket closed
/// normally is left to its reconnect grace ([`drop_grace_over`]); one on a socket whose process died
/// (its row stale for far longer than the grace) ends here.
async fn end_stale(conn: &mut PgConnection, conversation: Uuid) -> Result<()> {
    let stale: Vec<Call> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM calls c WHERE conversation_id = $1 AND ( \
           (status = 'ringing' AND NOT EXISTS \
               (SELECT 1 FROM realtime_sockets s WHERE s.socket_id = c.caller_socket AND s.seen_at > now() - $2::interval)) \
           OR (status = 'active' AND EXISTS (SELECT 1 FROM realtime_sockets s \
               WHERE s.socket_id IN (c.caller_socket, c.callee_socket) AND s.seen_at <= now() - $2::interval))) \
         FOR UPDATE"
    )))
    .bind(conversation)
    .bind(super::sockets::STALE_AFTER)
    .fetch_all(&mut *conn)
    .await?;
    for call in &stale {
        finish(conn, call, EndReason::Disconnected).await?;
    }
    Ok(())
}

/// A call `me` takes part in, locked for the change; anyone else's is not found.
async fn own_call(conn: &mut PgConnection, me: Uuid, id: Uuid) -> Result<Call> {
    let call: Option<Call> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM calls WHERE id = $1 FOR UPDATE"
    )))
    .bind(id)
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
    sqlx::query("UPDATE calls SET status = $3, callee_socket = $2, answered_at = now() WHERE id = $1")
        .bind(id)
        .bind(socket)
        .bind(CallStatus::Active)
        .execute(&mut *conn)
        .await?;
    super::publish_to_socket(conn, call.caller_id, call.caller_socket, "callAccepted", call.ids()).await?;
    let elsewhere = crate::realtime::Envelope {
        to: vec![me],
        socket: None,
        except_socket: Some(socket),
        event: "callEnded".into(),
        data: call.ended(ANSWERED_ELSEWHERE),
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
    super::publish_to_socket(conn, call.caller_id, call.caller_socket, "callRejected", call.ids()).await?;
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
    sqlx::query("UPDATE calls SET status = $2, ended_at = now() WHERE id = $1")
        .bind(call.id)
        .bind(reason.status())
        .execute(&mut *conn)
        .await?;
    super::publish(
        conn,
        vec![call.caller_id, call.callee_id],
        "callEnded",
        call.ended(reason.as_str()),
    )
    .await
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
    Ok(sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM calls WHERE status IN ('ringing', 'active') AND (caller_socket = $1 OR callee_socket = $1) FOR UPDATE"
    )))
    .bind(socket)
    .fetch_all(&mut *conn)
    .await?)
}

/// The reconnect grace of a call whose `socket` closed is over: it ends ('disconnected') unless its
/// party came back on another socket meanwhile or it ended already. Returns whether it ended.
pub async fn drop_grace_over(conn: &mut PgConnection, id: Uuid, socket: Uuid) -> Result<bool> {
    let call: Option<Call> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM calls c WHERE id = $1 AND status = 'active' AND (caller_socket = $2 OR callee_socket = $2) \
           AND NOT EXISTS (SELECT 1 FROM realtime_sockets s WHERE s.socket_id = $2) FOR UPDATE"
    )))
    .bind(id)
    .bind(socket)
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
    Ended(Value),
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
            return Ok(Resumed::Ended(call.ended(EndReason::Ended.as_str())));
        }
    }
    let column = if call.caller_id == me {
        "caller_socket"
    } else {
        "callee_socket"
    };
    let answered_at: Option<DateTime<Utc>> = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "UPDATE calls SET {column} = $2 WHERE id = $1 RETURNING answered_at"
    )))
    .bind(id)
    .bind(socket)
    .fetch_one(&mut *conn)
    .await?;
    let resumed = |role: &str| {
        json!({
            "callId": call.id, "roomId": call.room_id, "conversationId": call.conversation_id,
            "bookingId": call.booking_id, "answeredAt": answered_at, "role": role, "userId": me,
        })
    };
    let (my_role, other_role) = if call.caller_id == me {
        ("caller", "callee")
    } else {
        ("callee", "caller")
    };
    super::publish_to_socket(conn, me, socket, "callResumed", resumed(my_role)).await?;
    let other = call.other(me);
    let other_socket = if other == call.caller_id {
        Some(call.caller_socket)
    } else {
        call.callee_socket
    };
    if let Some(other_socket) = other_socket {
        super::publish_to_socket(conn, other, other_socket, "callResumed", resumed(other_role)).await?;
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
    let call: Option<Call> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM calls WHERE id = $1 AND status = 'ringing' FOR UPDATE"
    )))
    .bind(id)
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
    /// The event the other side receives and the name of its payload field.
    pub fn names(self) -> (&'static str, &'static str) {
        match self {
            Signal::Offer => ("offer", "offer"),
            Signal::Answer => ("answer", "answer"),
            Signal::IceCandidate => ("iceCandidate", "candidate"),
        }
    }
}

/// Relays `payload` from `me` to the other party's call socket of the live call in `room`.
pub async fn relay(conn: &mut PgConnection, me: Uuid, room: Uuid, signal: Signal, payload: Value) -> Result<()> {
    let call: Option<Call> = sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM calls WHERE room_id = $1 AND status IN ('ringing', 'active')"
    )))
    .bind(room)
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
    let (event, field) = signal.names();
    let mut data = json!({ "roomId": room, "from": me });
    data[field] = payload;
    super::publish_to_socket(conn, other, target, event, data).await
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
            .map(|r| (r.as_str(), r.status().as_str())),
            [
                ("ended", "ended"),
                ("missed", "missed"),
                ("rejected", "rejected"),
                ("disconnected", "ended")
            ]
        );
    }

    #[test]
    fn signals_keep_their_payload_field_names() {
        assert_eq!(Signal::Offer.names(), ("offer", "offer"));
        assert_eq!(Signal::Answer.names(), ("answer", "answer"));
        assert_eq!(Signal::IceCandidate.names(), ("iceCandidate", "candidate"));
    }
}
