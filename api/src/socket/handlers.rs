//! What each client event does. Every change runs in a transaction whose events are published
//! before it commits; the frames come back to the sockets through the listener.

use chrono::Utc;
use uuid::Uuid;

use crate::state::AppState;
use domain::{
    Result,
    calls::{self, Signal, sockets},
    group_calls::{access, removals, room},
    messaging::{conversations, messages, viewers},
    realtime::{
        ClientEvent, ServerEvent,
        protocol::{Empty, GroupCallSdp, SendMessage},
    },
};

/// One socket of one user.
pub(super) struct SocketCtx {
    pub state: AppState,
    pub user: Uuid,
    pub socket: Uuid,
}

/// Runs `$work` in a transaction of its own under a turn at the database, then commits; nothing
/// is answered to the socket (the events come back through the listener).
macro_rules! in_transaction {
    ($ctx:expr, $tx:ident => $work:expr) => {{
        let _turn = $ctx.state.hub.database_turn().await;
        let mut $tx = $ctx.state.pool.begin().await?;
        $work;
        $tx.commit().await?;
        Ok(None)
    }};
}

/// Runs `event`: the one place each client event is handled (no arm is a catch-all, so a new
/// event needs its own). Returns a frame for this socket alone when the event is answered directly.
pub(super) async fn handle(ctx: &SocketCtx, event: ClientEvent) -> Result<Option<ServerEvent>> {
    let (me, socket) = (ctx.user, ctx.socket);
    let janus = ctx.state.janus.as_ref();
    match event {
        ClientEvent::Ping(_) => Ok(Some(ServerEvent::Pong(Empty {}))),
        ClientEvent::WatchPresence(w) => {
            in_transaction!(ctx, tx => domain::presence::watch(&mut tx, me, socket, &w.mentor_ids).await?)
        }
        ClientEvent::SendMessage(m) => send_message(ctx, m).await,
        ClientEvent::JoinConversation(c) => {
            in_transaction!(ctx, tx => viewers::join(&mut tx, me, socket, c.conversation_id).await?)
        }
        ClientEvent::LeaveConversation(c) => {
            in_transaction!(ctx, tx => viewers::leave(&mut *tx, socket, c.conversation_id).await?)
        }
        ClientEvent::MarkMessageRead(m) => {
            in_transaction!(ctx, tx => messages::mark_read(&mut tx, me, m.message_id).await?)
        }
        ClientEvent::MarkConversationRead(c) => {
            in_transaction!(ctx, tx => messages::mark_conversation_read(&mut tx, me, c.conversation_id).await?)
        }
        ClientEvent::StartTyping(c) => {
            in_transaction!(ctx, tx => conversations::typing(&mut tx, me, c.conversation_id, true).await?)
        }
        ClientEvent::StopTyping(c) => {
            in_transaction!(ctx, tx => conversations::typing(&mut tx, me, c.conversation_id, false).await?)
        }
        ClientEvent::InitiateCall(c) => in_transaction!(ctx, tx => {
            let call = calls::initiate(&mut tx, me, socket, c.conversation_id, c.booking_id, Utc::now()).await?;
            domain::calls::jobs::schedule_timeout(&mut tx, call.id, call.created_at + ctx.state.call_ring_timeout)
                .await?;
        }),
        ClientEvent::AcceptCall(c) => in_transaction!(ctx, tx => calls::accept(&mut tx, me, socket, c.call_id).await?),
        ClientEvent::RejectCall(c) => in_transaction!(ctx, tx => calls::reject(&mut tx, me, c.call_id).await?),
        ClientEvent::EndCall(c) => in_transaction!(ctx, tx => calls::end(&mut tx, me, c.call_id).await?),
        ClientEvent::ResumeCall(c) => resume_call(ctx, c.call_id).await,
        ClientEvent::SendOffer(s) => {
            in_transaction!(ctx, tx => calls::relay(&mut tx, me, s.room_id, Signal::Offer, s.offer.0).await?)
        }
        ClientEvent::SendAnswer(s) => {
            in_transaction!(ctx, tx => calls::relay(&mut tx, me, s.room_id, Signal::Answer, s.answer.0).await?)
        }
        ClientEvent::SendIceCandidate(s) => {
            in_transaction!(ctx, tx => calls::relay(&mut tx, me, s.room_id, Signal::IceCandidate, s.candidate.0).await?)
        }
        ClientEvent::StartGroupSession(g) => {
            in_transaction!(ctx, tx => room::start(&mut tx, janus, me, g.group_session_id, Utc::now()).await?)
        }
        ClientEvent::EndGroupSession(g) => {
            in_transaction!(ctx, tx => room::end(&mut tx, janus, me, g.group_session_id, Utc::now()).await?)
        }
        ClientEvent::JoinGroupSession(g) => join_group_session(ctx, g.group_session_id).await,
        ClientEvent::LeaveGroupSession(g) => in_transaction!(ctx, tx => {
            // Only a seat of this socket in that call is left, and announced.
            if let Some((user, session)) = ctx.state.group_calls.leave_session(socket, g.group_session_id).await {
                room::left(&mut tx, user, session).await?
            }
        }),
        ClientEvent::MuteParticipant(p) => in_transaction!(ctx, tx => {
            room::set_muted(&mut tx, janus, me, p.group_session_id, p.participant_id, true).await?
        }),
        ClientEvent::UnmuteParticipant(p) => in_transaction!(ctx, tx => {
            room::set_muted(&mut tx, janus, me, p.group_session_id, p.participant_id, false).await?
        }),
        ClientEvent::RemoveParticipant(p) => in_transaction!(ctx, tx => {
            let (reason, now) = (removals::reason(p.reason)?, Utc::now());
            room::remove(&mut tx, janus, me, p.group_session_id, p.participant_id, reason, now).await?;
            // The seat's money, the notice, the e-mail and any refund: in the transaction that records the removal.
            let settled = removals::settle(&mut tx, p.group_session_id, p.participant_id, reason, now).await?;
            removals::queue_follow_ups(&mut tx, &settled).await?
        }),
        ClientEvent::ToggleVideo(t) => in_transaction!(ctx, tx => {
            let video = Some(t.is_video_enabled);
            room::toggled(&mut tx, me, t.group_session_id, video, None, Utc::now()).await?
        }),
        ClientEvent::ToggleAudio(t) => in_transaction!(ctx, tx => {
            let audio = Some(t.is_audio_enabled);
            room::toggled(&mut tx, me, t.group_session_id, None, audio, Utc::now()).await?
        }),
        ClientEvent::GroupCallOffer(o) => group_call_offer(ctx, o).await,
        ClientEvent::GroupCallSubscribeAnswer(a) => {
            let _turn = ctx.state.hub.database_turn().await;
            let calls = &ctx.state.group_calls;
            calls.subscribe_answer(socket, a.group_session_id, a.sdp).await?;
            Ok(None)
        }
        ClientEvent::GroupIceCandidate(c) => {
            let _turn = ctx.state.hub.database_turn().await;
            let calls = &ctx.state.group_calls;
            calls
                .trickle(socket, c.group_session_id, c.target, c.candidate.map(|c| c.0))
                .await?;
            Ok(None)
        }
    }
}

/// Stored in the next batch of this process's chat messages, which takes its own turn at the
/// database; answered through the listener once committed.
async fn send_message(ctx: &SocketCtx, m: SendMessage) -> Result<Option<ServerEvent>> {
    let outgoing = messages::Outgoing {
        content: m.content,
        message_type: m.message_type,
        client_id: m.client_id,
    };
    let state = &ctx.state;
    state
        .hub
        .send_message(&state.pool, ctx.user, ctx.socket, m.conversation_id, outgoing)
        .await?;
    Ok(None)
}

/// A party back in their call; a call that ended meanwhile is answered to this socket alone.
async fn resume_call(ctx: &SocketCtx, call: Uuid) -> Result<Option<ServerEvent>> {
    let _turn = ctx.state.hub.database_turn().await;
    let mut tx = ctx.state.pool.begin().await?;
    let resumed = calls::resume(&mut tx, ctx.user, ctx.socket, call).await?;
    tx.commit().await?;
    Ok(match resumed {
        calls::Resumed::Ended(ended) => Some(ServerEvent::CallEnded(ended)),
        _ => None,
    })
}

/// The member's publisher offer goes to Janus; its answer comes back to this socket alone.
async fn group_call_offer(ctx: &SocketCtx, o: GroupCallSdp) -> Result<Option<ServerEvent>> {
    let _turn = ctx.state.hub.database_turn().await;
    let (me, pool, janus) = (ctx.user, &ctx.state.pool, ctx.state.janus.as_ref());
    let (sdp, audio_mids) = ctx
        .state
        .group_calls
        .publish(ctx.socket, o.group_session_id, o.sdp)
        .await?;
    room::published(pool, janus, o.group_session_id, me, &audio_mids).await?;
    let answer = GroupCallSdp {
        group_session_id: o.group_session_id,
        sdp,
    };
    Ok(Some(ServerEvent::GroupCallAnswer(answer)))
}

/// Seats the member in the session's call; the admission holds until the join is recorded.
async fn join_group_session(ctx: &SocketCtx, session_id: Uuid) -> Result<Option<ServerEvent>> {
    let _turn = ctx.state.hub.database_turn().await;
    let (me, now, calls) = (ctx.user, Utc::now(), &ctx.state.group_calls);
    let mut tx = ctx.state.pool.begin().await?;
    // Until this transaction ends no removal of this member is recorded.
    access::lock_seat(&mut tx, session_id, me).await?;
    let (session, _) = access::admit(&mut tx, session_id, me, now).await?;
    if let Some(nats) = &ctx.state.nats {
        // A member now (a seat taken after this socket opened too); before the join is recorded,
        // so that what the others answer to it reaches them.
        nats.watch_room(me, session_id).await;
    }
    let client = ctx
        .state
        .janus
        .as_ref()
        .ok_or_else(|| domain::Error::ServiceDown(room::UNAVAILABLE.into()))?;
    calls.join(client, &session, me, ctx.socket).await?;
    let recorded = match room::joined(&mut tx, me, session_id, now).await {
        Ok(()) => tx.commit().await.map_err(Into::into),
        Err(err) => Err(err),
    };
    if recorded.is_err() {
        // A join that does not hold leaves no seat in Janus behind.
        calls.leave(ctx.socket).await;
    }
    recorded.map(|()| None)
}

pub(super) async fn socket_opened(state: &AppState, user: Uuid, socket: Uuid) -> Result<()> {
    sockets::opened(&state.pool, socket, user).await
}

/// A socket closed: it views nothing any more, its ringing calls end ('disconnected'), its answered
/// calls end after the reconnect grace unless its user resumes them on another socket, and it leaves
/// its group call (the others see it go).
pub(super) async fn socket_closed(state: &AppState, user: Uuid, socket: Uuid) -> Result<()> {
    let seat = state.group_calls.leave(socket).await;
    let mut tx = state.pool.begin().await?;
    let held = calls::socket_closed(&mut tx, socket).await?;
    // A mentor's last socket: offline 60 s later unless one opens again; it watches nothing now.
    domain::presence::socket_closed(&mut tx, user, socket, Utc::now()).await?;
    let due = Utc::now() + state.call_reconnect_grace;
    for call in held {
        domain::calls::jobs::schedule_grace(&mut tx, call, socket, due).await?;
    }
    if let Some((user, session)) = seat {
        room::left(&mut tx, user, session).await?;
    }
    tx.commit().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::{
        collections::BTreeMap,
        path::{Path, PathBuf},
    };

    fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                sources(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }

    /// How often the api's code (tests left out) names each variant of `ClientEvent`.
    fn variants_named() -> BTreeMap<String, usize> {
        let mut files = Vec::new();
        sources(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
        let mut named = BTreeMap::new();
        for file in files {
            let text = std::fs::read_to_string(&file).unwrap();
            let code = &text[..text.find("#[cfg(test)]").unwrap_or(text.len())];
            for (at, found) in code.match_indices("ClientEvent::") {
                let rest = &code[at + found.len()..];
                let name: String = rest.chars().take_while(|c| c.is_alphanumeric()).collect();
                if name.starts_with(char::is_uppercase) {
                    *named.entry(name).or_insert(0) += 1;
                }
            }
        }
        named
    }

    /// Every client event has one handler: one arm of `handle` names it, and nothing else in the
    /// api does (no second path such as a socket-level shortcut for `sendMessage`).
    #[test]
    fn each_client_event_has_exactly_one_handler() {
        let named = variants_named();
        let twice: Vec<_> = named.iter().filter(|(_, n)| **n != 1).collect();
        assert!(twice.is_empty(), "client events named more than once: {twice:?}");
        assert_eq!(
            named.len(),
            domain::realtime::protocol::client_event_names().len(),
            "every client event is named by a handler"
        );
    }
}
