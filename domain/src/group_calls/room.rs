//! What happens in a group session's call: admitting a caller (room made on first need), the
//! mentor starting and ending it, joins and leaves, toggles, and moderation. Every
//! event reaches the mentor and every participant on any api process (through `realtime`), in the
//! caller's transaction; moderation also goes to Janus, so it holds whatever a browser does.

use chrono::{DateTime, Duration, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{
    super::group_sessions::GroupStatus,
    JanusClient,
    access::{self, CallSession, Member, Role},
    ids,
    tokens::TOKEN_GRACE_MINUTES,
};
use crate::{
    Error, Result,
    group_sessions::lifecycle,
    realtime::{
        self, ServerEvent,
        protocol::{
            AudioToggled, GroupCallParticipant, GroupSessionEnded, GroupSessionStarted, LeftReason, ParticipantJoined,
            ParticipantLeft, ParticipantRef, VideoToggled,
        },
    },
};

pub const UNAVAILABLE: &str = "Group calls are not available right now. Please try again later.";

/// What a browser needs to enter the call (over `/api/ws`; it gets nothing for Janus's API): its
/// ids, and who may be there.
#[derive(Clone, Debug)]
pub struct CallAccess {
    pub session: CallSession,
    pub role: Role,
    pub room_id: u64,
    pub participant_id: u64,
    pub expires_at: DateTime<Utc>,
    pub members: Vec<Member>,
}

/// The session's end plus the grace: until then the call may run.
fn token_expiry(session: &CallSession) -> DateTime<Utc> {
    session.ends_at + Duration::minutes(TOKEN_GRACE_MINUTES)
}

fn janus(client: Option<&JanusClient>) -> Result<&JanusClient> {
    client.ok_or_else(|| Error::ServiceDown(UNAVAILABLE.into()))
}

/// The room of a session and its moderation secret (never sent to a browser).
pub fn room_of(client: &JanusClient, session: Uuid) -> (u64, String) {
    (
        ids::room_id(session),
        ids::room_secret(&client.settings().token_secret, session),
    )
}

/// The session's room, made when it is not there yet: room for the mentor and every seat.
pub async fn ensure_room(client: &JanusClient, session: &CallSession) -> Result<(u64, String)> {
    let (room, secret) = room_of(client, session.id);
    let publishers = u32::try_from(session.max_participants).unwrap_or(20) + 1;
    client
        .create_room(room, &secret, &session.title, publishers)
        .await
        .map_err(unavailable)?;
    Ok((room, secret))
}

/// Admits the caller and makes the session's room when needed.
pub async fn access(
    conn: &mut PgConnection,
    client: Option<&JanusClient>,
    id: Uuid,
    user: Uuid,
    now: DateTime<Utc>,
) -> Result<CallAccess> {
    let (session, role) = access::admit(&mut *conn, id, user, now).await?;
    let client = janus(client)?;
    let (room, _) = ensure_room(client, &session).await?;
    let expires_at = token_expiry(&session);
    Ok(CallAccess {
        members: access::members(&mut *conn, id).await?,
        session,
        role,
        room_id: room,
        participant_id: ids::participant_id(user),
        expires_at,
    })
}

pub fn unavailable(err: anyhow::Error) -> Error {
    tracing::warn!(error = %format!("{err:#}"), "janus");
    Error::ServiceDown(UNAVAILABLE.into())
}

async fn tell_members(conn: &mut PgConnection, id: Uuid, event: ServerEvent) -> Result<()> {
    let to = access::members(&mut *conn, id)
        .await?
        .into_iter()
        .map(|m| m.user_id)
        .collect();
    realtime::publish(conn, &realtime::Envelope::to_room(id, to, event)).await
}

/// The mentor starts the call: a scheduled session in its live window becomes active (the
/// mentor's move of `group_sessions::lifecycle`), and everyone hears of it.
pub async fn start(
    conn: &mut PgConnection,
    client: Option<&JanusClient>,
    user: Uuid,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<()> {
    let (session, role) = access::admit(&mut *conn, id, user, now).await?;
    if role != Role::Mentor {
        return Err(Error::forbidden(access::MENTOR_ONLY));
    }
    ensure_room(janus(client)?, &session).await?;
    if session.status == GroupStatus::Scheduled {
        lifecycle::move_by_mentor(&mut *conn, user, id, GroupStatus::Active, now).await?;
    }
    announce(conn, None, id, GroupStatus::Active, now).await
}

/// The mentor ends the call: the active session is completed (the mentor's move), its room
/// destroyed, everyone told.
pub async fn end(
    conn: &mut PgConnection,
    client: Option<&JanusClient>,
    user: Uuid,
    id: Uuid,
    now: DateTime<Utc>,
) -> Result<()> {
    access::as_mentor(&mut *conn, id, user).await?;
    lifecycle::move_by_mentor(&mut *conn, user, id, GroupStatus::Completed, now).await?;
    announce(conn, client, id, GroupStatus::Completed, now).await
}

/// Tells every member that the session changed state (however it changed: the call page, the
/// dashboard's buttons, the worker): started, or over (its room is destroyed then).
pub async fn announce(
    conn: &mut PgConnection,
    client: Option<&JanusClient>,
    id: Uuid,
    status: GroupStatus,
    now: DateTime<Utc>,
) -> Result<()> {
    match status {
        GroupStatus::Active => {
            let started = GroupSessionStarted {
                group_session_id: id,
                started_at: now,
            };
            tell_members(conn, id, ServerEvent::GroupSessionStarted(started)).await
        }
        GroupStatus::Completed | GroupStatus::Cancelled => {
            let ended = GroupSessionEnded {
                group_session_id: id,
                status,
            };
            tell_members(&mut *conn, id, ServerEvent::GroupSessionEnded(ended)).await?;
            if let Some(client) = client {
                let (room, secret) = room_of(client, id);
                client.destroy_room(room, &secret).await.map_err(unavailable)?;
            }
            Ok(())
        }
        GroupStatus::Scheduled => Ok(()),
    }
}

/// Someone admitted entered the room (their tile appears for the others). The caller holds
/// [`access::lock_seat`] since its admission, and has seated them in Janus.
pub async fn joined(conn: &mut PgConnection, user: Uuid, id: Uuid, now: DateTime<Utc>) -> Result<()> {
    let (session, role) = access::admit(&mut *conn, id, user, now).await?;
    let me = access::members(&mut *conn, id)
        .await?
        .into_iter()
        .find(|m| m.user_id == user);
    let participant = me.map(|m| GroupCallParticipant {
        id: m.user_id,
        janus_id: ids::participant_id(m.user_id),
        first_name: m.first_name,
        last_name: m.last_name,
        profile_image_url: m.profile_image_url,
        is_mentor: role == Role::Mentor,
    });
    let joined = ParticipantJoined {
        group_session_id: id,
        participant,
    };
    // Time in: the evidence that the member (the mentor above all) was there.
    super::joins::joined(&mut *conn, session.id, user).await?;
    // A new stay publishes nothing yet (its offer records what it publishes).
    sqlx::query!(
        "DELETE FROM group_call_publications WHERE group_session_id = $1 AND user_id = $2",
        session.id,
        user,
    )
    .execute(&mut *conn)
    .await?;
    tell_members(conn, session.id, ServerEvent::ParticipantJoined(joined)).await
}

/// Someone seated in the room left it (only a seat's leave is announced: the api's, when a socket
/// that joined leaves or closes).
pub async fn left(conn: &mut PgConnection, user: Uuid, id: Uuid) -> Result<()> {
    access::session(&mut *conn, id).await?;
    super::joins::left(&mut *conn, id, user).await?;
    let left = ParticipantLeft {
        group_session_id: id,
        participant_id: user,
        reason: LeftReason::Left,
    };
    tell_members(conn, id, ServerEvent::ParticipantLeft(left)).await
}

/// A member turned their own camera or microphone on or off.
pub async fn toggled(
    conn: &mut PgConnection,
    user: Uuid,
    id: Uuid,
    video: Option<bool>,
    audio: Option<bool>,
    now: DateTime<Utc>,
) -> Result<()> {
    access::admit(&mut *conn, id, user, now).await?;
    match (video, audio) {
        (Some(on), _) => {
            let toggled = VideoToggled {
                group_session_id: id,
                participant_id: user,
                is_video_enabled: on,
            };
            tell_members(conn, id, ServerEvent::VideoToggled(toggled)).await
        }
        (None, Some(on)) => {
            let toggled = AudioToggled {
                group_session_id: id,
                participant_id: user,
                is_audio_enabled: on,
            };
            tell_members(conn, id, ServerEvent::AudioToggled(toggled)).await
        }
        (None, None) => Ok(()),
    }
}

/// The mentor mutes or unmutes a participant for everyone (Janus stops forwarding their audio).
pub async fn set_muted(
    conn: &mut PgConnection,
    client: Option<&JanusClient>,
    user: Uuid,
    id: Uuid,
    target: Uuid,
    muted: bool,
) -> Result<()> {
    access::as_mentor(&mut *conn, id, user).await?;
    if !access::members(&mut *conn, id)
        .await?
        .iter()
        .any(|m| m.user_id == target && !m.is_mentor)
    {
        return Err(Error::not_found(access::NOT_IN_SESSION));
    }
    // A publication being recorded ([`published`]) is either seen here or sees this mute.
    access::lock_seat(&mut *conn, id, target).await?;
    // Kept, so the participant rejoins muted after a reload or a reconnection ([`published`]).
    if muted {
        sqlx::query!(
            "INSERT INTO group_call_mutes (group_session_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
            id,
            target,
        )
    } else {
        sqlx::query!(
            "DELETE FROM group_call_mutes WHERE group_session_id = $1 AND user_id = $2",
            id,
            target,
        )
    }
    .execute(&mut *conn)
    .await?;
    let audio = audio_mids(&mut *conn, id, target).await?;
    let client = janus(client)?;
    let (room, secret) = room_of(client, id);
    client
        .set_muted(room, &secret, ids::participant_id(target), &audio, muted)
        .await
        .map_err(unavailable)?;
    let participant = ParticipantRef {
        group_session_id: id,
        participant_id: target,
    };
    let event = if muted {
        ServerEvent::ParticipantMuted(participant)
    } else {
        ServerEvent::ParticipantUnmuted(participant)
    };
    tell_members(conn, id, event).await
}

/// The mids of the audio streams `user` publishes in the call (none before they publish).
async fn audio_mids(conn: &mut PgConnection, id: Uuid, user: Uuid) -> Result<Vec<String>> {
    Ok(sqlx::query_scalar!(
        "SELECT audio_mids FROM group_call_publications WHERE group_session_id = $1 AND user_id = $2",
        id,
        user,
    )
    .fetch_optional(conn)
    .await?
    .unwrap_or_default())
}

/// Janus accepted a member's (new) publication whose audio streams are `audio_mids`: recorded, so the
/// mentor's mute reaches all of them, and muted at once while the mentor keeps the member muted (a
/// reload, a reconnection or an offer with its audio anywhere is no way around the mute).
pub async fn published(
    pool: &sqlx::PgPool,
    client: Option<&JanusClient>,
    id: Uuid,
    user: Uuid,
    audio_mids: &[String],
) -> Result<()> {
    let mut tx = pool.begin().await?;
    access::lock_seat(&mut tx, id, user).await?;
    sqlx::query!(
        "INSERT INTO group_call_publications (group_session_id, user_id, audio_mids) VALUES ($1, $2, $3)
         ON CONFLICT (group_session_id, user_id) DO UPDATE SET audio_mids = EXCLUDED.audio_mids, updated_at = now()",
        id,
        user,
        audio_mids,
    )
    .execute(&mut *tx)
    .await?;
    let muted = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM group_call_mutes WHERE group_session_id = $1 AND user_id = $2) AS "muted!""#,
        id,
        user,
    )
    .fetch_one(&mut *tx)
    .await?;
    if muted {
        let client = janus(client)?;
        let (room, secret) = room_of(client, id);
        client
            .set_muted(room, &secret, ids::participant_id(user), audio_mids, true)
            .await
            .map_err(unavailable)?;
    }
    tx.commit().await?;
    Ok(())
}

/// The mentor removes a participant for `reason` (what it means for their seat's money is
/// `removals::settle`'s): recorded (the api joins them no more), kicked from the room by Janus
/// (under the only id the api ever joins them with: their own), and everyone told (the removed
/// one's page leaves the call). Only while the call is open.
pub async fn remove(
    conn: &mut PgConnection,
    client: Option<&JanusClient>,
    user: Uuid,
    id: Uuid,
    target: Uuid,
    reason: crate::statuses::RemovalReason,
    now: DateTime<Utc>,
) -> Result<()> {
    let session = access::as_mentor(&mut *conn, id, user).await?;
    if !session.is_open(now) {
        return Err(Error::conflict(access::NOT_LIVE));
    }
    // A join of the target under way finishes first (and is kicked below), or waits and is refused.
    access::lock_seat(&mut *conn, id, target).await?;
    // Told before the removal is recorded, so the removed one hears of it too.
    let to: Vec<Uuid> = access::members(&mut *conn, id)
        .await?
        .into_iter()
        .map(|m| m.user_id)
        .collect();
    if target == user || !access::remove(&mut *conn, id, target, user, reason).await? {
        return Err(Error::not_found(access::NOT_IN_SESSION));
    }
    if let Some(client) = client {
        let (room, secret) = room_of(client, id);
        client
            .kick(room, &secret, ids::participant_id(target))
            .await
            .map_err(unavailable)?;
    }
    let removed = ParticipantLeft {
        group_session_id: id,
        participant_id: target,
        reason: LeftReason::Removed,
    };
    realtime::publish(
        conn,
        &realtime::Envelope::to_room(id, to, ServerEvent::ParticipantLeft(removed)),
    )
    .await
}
