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
        protocol::{Empty, GroupCallSdp},
    },
};

/// One socket of one user.
pub struct SocketCtx {
    pub state: AppState,
    pub user: Uuid,
    pub socket: Uuid,
}

/// Runs `event`; returns a frame for this socket alone when the event is answered directly.
pub async fn handle(ctx: &SocketCtx, event: ClientEvent) -> Result<Option<ServerEvent>> {
    let (me, socket, pool) = (ctx.user, ctx.socket, &ctx.state.pool);
    let janus = ctx.state.janus.as_ref();
    let calls = &ctx.state.group_calls;
    // Group-call signalling goes to Janus only: no database.
    match event {
        ClientEvent::GroupCallOffer(o) => {
            let sdp = calls.publish(socket, o.group_session_id, o.sdp).await?;
            room::reapply_mute(pool, janus, o.group_session_id, me).await?;
            let answer = GroupCallSdp {
                group_session_id: o.group_session_id,
                sdp,
            };
            return Ok(Some(ServerEvent::GroupCallAnswer(answer)));
        }
        ClientEvent::GroupCallSubscribeAnswer(a) => {
            calls.subscribe_answer(socket, a.group_session_id, a.sdp).await?;
            return Ok(None);
        }
        ClientEvent::GroupIceCandidate(c) => {
            calls
                .trickle(socket, c.group_session_id, c.target, c.candidate.map(|c| c.0))
                .await?;
            return Ok(None);
        }
        _ => {}
    }
    let mut tx = pool.begin().await?;
    match event {
        ClientEvent::GroupCallOffer(_)
        | ClientEvent::GroupCallSubscribeAnswer(_)
        | ClientEvent::GroupIceCandidate(_) => {
            unreachable!("handled above")
        }
        ClientEvent::Ping(_) => return Ok(Some(ServerEvent::Pong(Empty {}))),
        ClientEvent::SendMessage(m) => {
            let outgoing = messages::Outgoing {
                content: m.content,
                message_type: m.message_type,
                client_id: m.client_id,
            };
            messages::send(&mut tx, me, m.conversation_id, outgoing, Some(socket)).await?;
        }
        ClientEvent::JoinConversation(c) => viewers::join(&mut tx, me, socket, c.conversation_id).await?,
        ClientEvent::LeaveConversation(c) => viewers::leave(&mut *tx, socket, c.conversation_id).await?,
        ClientEvent::MarkMessageRead(m) => messages::mark_read(&mut tx, me, m.message_id).await?,
        ClientEvent::MarkConversationRead(c) => {
            messages::mark_conversation_read(&mut tx, me, c.conversation_id).await?;
        }
        ClientEvent::StartTyping(c) => conversations::typing(&mut tx, me, c.conversation_id, true).await?,
        ClientEvent::StopTyping(c) => conversations::typing(&mut tx, me, c.conversation_id, false).await?,
        ClientEvent::InitiateCall(c) => {
            let call = calls::initiate(&mut tx, me, socket, c.conversation_id, c.booking_id, Utc::now()).await?;
            jobs::call_timeout::schedule(&mut tx, call.id, call.created_at + ctx.state.call_ring_timeout).await?;
        }
        ClientEvent::AcceptCall(c) => {
            calls::accept(&mut tx, me, socket, c.call_id).await?;
        }
        ClientEvent::RejectCall(c) => calls::reject(&mut tx, me, c.call_id).await?,
        ClientEvent::EndCall(c) => calls::end(&mut tx, me, c.call_id).await?,
        ClientEvent::ResumeCall(c) => {
            if let calls::Resumed::Ended(ended) = calls::resume(&mut tx, me, socket, c.call_id).await? {
                tx.commit().await?;
                return Ok(Some(ServerEvent::CallEnded(ended)));
            }
        }
        ClientEvent::SendOffer(s) => calls::relay(&mut tx, me, s.room_id, Signal::Offer, s.offer.0).await?,
        ClientEvent::SendAnswer(s) => calls::relay(&mut tx, me, s.room_id, Signal::Answer, s.answer.0).await?,
        ClientEvent::SendIceCandidate(s) => {
            calls::relay(&mut tx, me, s.room_id, Signal::IceCandidate, s.candidate.0).await?
        }
        ClientEvent::StartGroupSession(g) => room::start(&mut tx, janus, me, g.group_session_id, Utc::now()).await?,
        ClientEvent::EndGroupSession(g) => room::end(&mut tx, janus, me, g.group_session_id, Utc::now()).await?,
        ClientEvent::JoinGroupSession(g) => {
            let now = Utc::now();
            let (session, _) = access::admit(&mut tx, g.group_session_id, me, now).await?;
            let client = janus.ok_or_else(|| domain::Error::ServiceDown(room::UNAVAILABLE.into()))?;
            calls.join(client, &session, me, socket).await?;
            room::joined(&mut tx, me, g.group_session_id, now).await?
        }
        ClientEvent::LeaveGroupSession(g) => {
            calls.leave(socket).await;
            room::left(&mut tx, me, g.group_session_id).await?
        }
        ClientEvent::MuteParticipant(p) => {
            room::set_muted(&mut tx, janus, me, p.group_session_id, p.participant_id, true).await?
        }
        ClientEvent::UnmuteParticipant(p) => {
            room::set_muted(&mut tx, janus, me, p.group_session_id, p.participant_id, false).await?
        }
        ClientEvent::RemoveParticipant(p) => {
            room::remove(&mut tx, janus, me, p.group_session_id, p.participant_id).await?;
            // Told in the transaction that records the removal.
            removals::notify_removed(&mut tx, p.group_session_id, p.participant_id).await?
        }
        ClientEvent::ToggleVideo(t) => {
            room::toggled(
                &mut tx,
                me,
                t.group_session_id,
                Some(t.is_video_enabled),
                None,
                Utc::now(),
            )
            .await?
        }
        ClientEvent::ToggleAudio(t) => {
            room::toggled(
                &mut tx,
                me,
                t.group_session_id,
                None,
                Some(t.is_audio_enabled),
                Utc::now(),
            )
            .await?
        }
    }
    tx.commit().await?;
    Ok(None)
}

pub async fn socket_opened(state: &AppState, user: Uuid, socket: Uuid) -> Result<()> {
    sockets::opened(&state.pool, socket, user).await
}

/// A socket closed: it views nothing any more, its ringing calls end ('disconnected'), its answered
/// calls end after the reconnect grace unless its user resumes them on another socket, and it leaves
/// its group call (the others see it go).
pub async fn socket_closed(state: &AppState, socket: Uuid) -> Result<()> {
    let seat = state.group_calls.leave(socket).await;
    let mut tx = state.pool.begin().await?;
    let held = calls::socket_closed(&mut tx, socket).await?;
    let due = Utc::now() + state.call_reconnect_grace;
    for call in held {
        jobs::call_timeout::schedule_grace(&mut tx, call, socket, due).await?;
    }
    if let Some((user, session)) = seat {
        room::left(&mut tx, user, session).await?;
    }
    tx.commit().await?;
    Ok(())
}
