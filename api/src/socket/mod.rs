//! `GET /api/ws`: the upgrade (session cookie only, same-origin only) and each socket's loop:
//! frames in (throttled, parsed, handled), frames out (from the hub), pings, and clean-up.

use std::{sync::Arc, time::Duration};

use futures::{SinkExt, StreamExt};
use poem::{
    IntoResponse, Request, Response, handler,
    http::StatusCode,
    web::{
        Data,
        websocket::{Message, WebSocket, WebSocketConfig, WebSocketStream},
    },
};
use tokio::{
    sync::{Notify, mpsc},
    time::{Instant, interval_at, sleep_until},
};
use uuid::Uuid;

mod handlers;
pub mod throttle;

use handlers::SocketCtx;
use throttle::{TOO_MANY, TokenBucket};

use crate::{
    auth,
    error::{self, ApiError, ErrorCode, json_response},
    guard,
    realtime::hub::{Entry, OUTBOX_FRAMES, PING_EVERY},
    state::AppState,
};
use domain::{
    accounts::sessions,
    calls::sockets,
    realtime::{
        ClientEvent, ServerEvent,
        protocol::{self, Ready},
    },
};

/// A socket that sent nothing (not even a pong) for this long is closed.
pub const SILENT_LIMIT: Duration = Duration::from_secs(75);
/// How long a socket the server closes waits for the client's close frame before dropping.
const CLOSE_REPLY_WAIT: Duration = Duration::from_secs(1);
const _: () = assert!(
    SILENT_LIMIT.as_secs() > PING_EVERY.as_secs() * 2,
    "a live client answers at least two pings before the limit"
);
/// Frames are small JSON; signalling (SDP offers) is the largest.
pub const MAX_FRAME_BYTES: usize = 64 * 1024;
/// tungstenite reads into a 128 KiB buffer per socket by default: thousands of idle sockets
/// would hold gigabytes.
pub const READ_BUFFER_BYTES: usize = 1024;
/// Frames written before one flush; they gather in tungstenite's write buffer until then.
pub const WRITES_PER_FLUSH: usize = 32;
/// Written frames gather up to this size before reaching the network (a flush writes them anyway).
pub const WRITE_BUFFER_BYTES: usize = 16 * 1024;

fn config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(WRITE_BUFFER_BYTES)
        .max_write_buffer_size(MAX_FRAME_BYTES * 4)
        .max_message_size(Some(MAX_FRAME_BYTES))
        .max_frame_size(Some(MAX_FRAME_BYTES))
}

#[handler]
pub(crate) async fn ws(req: &Request, state: Data<&AppState>, upgrade: poem::Result<WebSocket>) -> Response {
    let state = state.0.clone();
    if !guard::same_origin(req, &state) {
        return json_response(StatusCode::FORBIDDEN, ErrorCode::Forbidden, guard::CROSS_SITE_REFUSED);
    }
    let Some(token) = auth::session_token_from_request(req) else {
        return json_response(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, error::UNAUTHORIZED);
    };
    let user = match sessions::user_for(&state.pool, &token).await {
        Ok(Some(user)) => user,
        Ok(None) => return json_response(StatusCode::UNAUTHORIZED, ErrorCode::Unauthorized, error::UNAUTHORIZED),
        Err(err) => return ApiError::from(err).into_response(),
    };
    let Ok(upgrade) = upgrade else {
        return json_response(
            StatusCode::BAD_REQUEST,
            ErrorCode::Validation,
            "Expected a WebSocket upgrade",
        );
    };
    let session = hex(&domain::tokens::digest(&token));
    let socket = Uuid::new_v4();
    match sockets::reserve(&state.pool, socket, user.id, sockets::MAX_SOCKETS_PER_USER).await {
        Ok(true) => {}
        Ok(false) => {
            return json_response(
                StatusCode::TOO_MANY_REQUESTS,
                ErrorCode::RateLimited,
                sockets::TOO_MANY_SOCKETS,
            );
        }
        Err(err) => return ApiError::from(err).into_response(),
    }
    upgrade
        .config(config())
        .on_upgrade(move |stream| async move {
            let _task = crate::shutdown::SocketTask::start();
            let _open = crate::metrics::SocketGauge::open();
            run(state, user.id, session, socket, stream).await
        })
        .into_response()
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn error_frame(message: &str, event: Option<&str>, code: ErrorCode) -> String {
    let code = poem_openapi::types::ToJSON::to_json(&code);
    ServerEvent::error_with_code(
        message,
        event,
        code.as_ref().and_then(|c| c.as_str()).unwrap_or("internal"),
    )
    .to_frame()
}

/// What a failed event tells the client: the rule's message (never internals) and its error code,
/// so a refusal is not shown as a fault of the connection.
fn error_text(err: domain::Error) -> (String, ErrorCode) {
    match ApiError::from(err) {
        ApiError::BadRequest(b)
        | ApiError::Unauthorized(b)
        | ApiError::PaymentRequired(b)
        | ApiError::Forbidden(b)
        | ApiError::NotFound(b)
        | ApiError::Conflict(b)
        | ApiError::Gone(b)
        | ApiError::TooManyRequests(b)
        | ApiError::Internal(b)
        | ApiError::ServiceUnavailable(b) => (b.0.message, b.0.code),
    }
}

async fn ringing_calls(state: &AppState, user: Uuid) -> domain::Result<Vec<domain::realtime::protocol::IncomingCall>> {
    let mut conn = state.pool.acquire().await?;
    domain::calls::ringing_for(&mut conn, user).await
}

async fn run(state: AppState, user: Uuid, session: String, socket: Uuid, stream: WebSocketStream) {
    if let Err(err) = Box::pin(handlers::socket_opened(&state, user, socket)).await {
        tracing::warn!(error = %err, "cannot record an opened socket; closing it");
        return;
    }
    let (outbox, mut inbox) = mpsc::channel::<String>(OUTBOX_FRAMES);
    let close = Arc::new(Notify::new());
    state.hub.register(
        user,
        Entry {
            socket,
            session,
            outbox,
            close: close.clone(),
            opened_at: chrono::Utc::now(),
        },
    );
    if let Some(nats) = &state.nats {
        nats.watch(user).await;
    }
    if crate::shutdown::started() {
        // Registered after the restart closed every socket: closes now, with 1012, like the rest.
        close.notify_one();
    }
    let ctx = SocketCtx {
        state: state.clone(),
        user,
        socket,
    };
    let (mut sink, mut frames) = stream.split();
    let mut bucket = TokenBucket::new(std::time::Instant::now());
    let mut pings = interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    let mut heard = Instant::now();

    let mut open = sink
        .send(Message::text(ServerEvent::Ready(Ready { user_id: user }).to_frame()))
        .await
        .is_ok();
    // A call ringing for this user now rings here too (a tab opened from the ring's push).
    if open {
        match ringing_calls(&state, user).await {
            Ok(calls) => {
                for call in calls {
                    let frame = ServerEvent::IncomingCall(call).to_frame();
                    open = open && sink.send(Message::text(frame)).await.is_ok();
                }
            }
            Err(err) => tracing::warn!(error = %err, "cannot read the calls ringing for a new socket"),
        }
    }
    while open {
        tokio::select! {
            _ = close.notified() => {
                let (code, reason) = crate::shutdown::close_frame();
                if sink.send(Message::close_with(code, reason)).await.is_ok() {
                    await_close_reply(&mut frames).await;
                }
                open = false;
            }
            out = inbox.recv() => match out {
                Some(text) => open = write_out(&mut sink, &mut inbox, text).await,
                None => open = false,
            },
            _ = pings.tick() => {
                open = sink.send(Message::ping(Vec::new())).await.is_ok();
            }
            _ = sleep_until(heard + SILENT_LIMIT) => {
                tracing::info!(%socket, "closing a silent socket");
                let _ = sink.send(Message::close()).await;
                open = false;
            }
            incoming = frames.next() => match incoming {
                None | Some(Err(_)) => open = false,
                Some(Ok(message)) => {
                    heard = Instant::now();
                    let reply = match message {
                        Message::Text(text) => Box::pin(on_text(&ctx, &mut bucket, &text)).await,
                        Message::Binary(_) => Some(error_frame(protocol::NOT_A_FRAME, None, ErrorCode::Validation)),
                        Message::Close(_) => {
                            open = false;
                            None
                        }
                        Message::Ping(_) | Message::Pong(_) => None,
                    };
                    if let Some(reply) = reply {
                        open = sink.send(Message::text(reply)).await.is_ok();
                    }
                }
            },
        }
    }
    state.hub.unregister(user, socket);
    if let Some(nats) = &state.nats {
        nats.unwatch(user).await;
    }
    let _turn = state.hub.database_turn().await;
    if let Err(err) = Box::pin(handlers::socket_closed(&state, user, socket)).await {
        tracing::warn!(%socket, error = %err, "clean-up of a closed socket failed");
    }
}

/// The closing handshake (RFC 6455 §7.1.1): after our close frame, reads (and drops) what the client
/// still sends until its close frame arrives, for at most [`CLOSE_REPLY_WAIT`]. Dropping the
/// connection with unread frames in its buffer would reset it, and a reset can reach the client
/// before it has read our close frame.
async fn await_close_reply<S>(frames: &mut S)
where
    S: futures::Stream<Item = std::io::Result<Message>> + Unpin,
{
    let _ = tokio::time::timeout(CLOSE_REPLY_WAIT, async {
        while let Some(Ok(message)) = frames.next().await {
            if matches!(message, Message::Close(_)) {
                break;
            }
        }
    })
    .await;
}

/// Writes `first` and whatever else is already waiting for this socket (up to
/// [`WRITES_PER_FLUSH`] frames), then flushes once: one write to the network for a burst.
async fn write_out<S>(sink: &mut S, inbox: &mut mpsc::Receiver<String>, first: String) -> bool
where
    S: futures::Sink<Message> + Unpin,
{
    if sink.feed(Message::text(first)).await.is_err() {
        return false;
    }
    for _ in 1..WRITES_PER_FLUSH {
        match inbox.try_recv() {
            Ok(text) => {
                if sink.feed(Message::text(text)).await.is_err() {
                    return false;
                }
            }
            Err(_) => break,
        }
    }
    sink.flush().await.is_ok()
}

/// Handles one text frame; returns what only this socket gets back (pong, error).
async fn on_text(ctx: &SocketCtx, bucket: &mut TokenBucket, text: &str) -> Option<String> {
    if !bucket.take(std::time::Instant::now()) {
        return Some(error_frame(TOO_MANY, None, ErrorCode::RateLimited));
    }
    let event = match ClientEvent::parse(text) {
        Ok(event) => event,
        Err(bad) => return Some(error_frame(&bad.message, bad.event.as_deref(), ErrorCode::Validation)),
    };
    // Boxed: the largest handler's state lives only while a frame is handled, not in every idle
    // socket's task.
    let outcome = Box::pin(handlers::handle(ctx, event)).await;
    match outcome {
        Ok(Some(reply)) => Some(reply.to_frame()),
        Ok(None) => None,
        Err(err) => {
            let (message, code) = error_text(err);
            Some(error_frame(&message, event_name(text).as_deref(), code))
        }
    }
}

fn event_name(text: &str) -> Option<String> {
    serde_json::from_str::<serde_json::Value>(text)
        .ok()?
        .get("event")?
        .as_str()
        .map(String::from)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffers_stay_small() {
        let c = config();
        assert_eq!(c.read_buffer_size, 1024);
        assert_eq!(c.max_message_size, Some(64 * 1024));
    }

    #[test]
    fn internal_errors_show_no_internals() {
        assert_eq!(
            error_text(domain::Error::Internal(anyhow::anyhow!(
                "relation calls does not exist"
            ))),
            (crate::error::INTERNAL_ERROR.to_string(), ErrorCode::Internal)
        );
        assert_eq!(
            error_text(domain::Error::not_found("Call not found")),
            ("Call not found".to_string(), ErrorCode::NotFound)
        );
        assert_eq!(hex(&[0x0a, 0xff]), "0aff");
    }

    #[test]
    fn a_refusal_carries_its_code() {
        let frame: serde_json::Value =
            serde_json::from_str(&error_frame("Not now", Some("initiateCall"), ErrorCode::Validation)).unwrap();
        assert_eq!(
            frame,
            serde_json::json!({"event": "error", "data": {"message": "Not now", "event": "initiateCall", "code": "validation"}})
        );
    }
}
