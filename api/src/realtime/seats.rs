//! Group-call seats on this api process: for each socket that joined a call, a Janus publisher
//! handle joined under the member's own id (never an id a browser names) and one multistream
//! subscriber handle receiving every other publisher. Browsers reach Janus only through these:
//! their offers, answers and ICE candidates come over `/api/ws`, Janus's SDP goes back the same
//! way; media flows browser ↔ Janus.
//!
//! A member's join always succeeds: a stale copy of them in the room (the api process that held it
//! died, another tab) is kicked with the room's secret first. When the socket closes, its handles
//! are detached (the others' subscriptions drop the feed).

use std::{
    collections::{BTreeSet, HashMap},
    sync::{Arc, Mutex, OnceLock},
    time::Duration,
};

pub use domain::realtime::protocol::Target;
use domain::{
    Error, Result,
    group_calls::{
        Gateway, GatewayEvent, JanusClient, JanusSettings,
        access::CallSession,
        gateway::{Reply, plugin_error_code},
        ids,
        janus::{self, MENTOR_BITRATE, ROOM_BITRATE},
        room,
    },
    realtime::{
        Envelope, ServerEvent,
        protocol::{GroupCallStream, GroupCallSubscribeOffer, StreamKind},
    },
};
use serde_json::{Value, json};
use tokio::sync::{Mutex as AsyncMutex, mpsc};
use uuid::Uuid;

use super::Hub;

/// What a signalling event before `join-group-session` (or after leaving) answers.
pub const NOT_JOINED: &str = "Join the call first";
/// VideoRoom: "User ID … already exists" (a stale copy of the same member).
const ID_EXISTS: i64 = 436;
/// Joins tried when the member's own id is taken (each after kicking the stale copy).
const JOIN_ATTEMPTS: usize = 5;
/// Wait between those attempts (Janus drops a kicked participant asynchronously).
const KICK_SETTLE: Duration = Duration::from_millis(200);

struct Seat {
    socket: Uuid,
    user: Uuid,
    session: Uuid,
    room: u64,
    janus_id: u64,
    bitrate: u64,
    publisher: u64,
    private_id: Option<u64>,
    subscriber: Option<u64>,
    /// Every other publisher's audio and video mids, by their Janus id.
    feeds: HashMap<u64, BTreeSet<String>>,
    /// (feed, publisher mid) the subscriber receives now.
    subscribed: BTreeSet<(u64, String)>,
    /// An offer went to the browser and its answer has not come back: no update meanwhile.
    offer_pending: bool,
    closed: bool,
}

#[derive(Default)]
pub struct GroupCalls {
    gateway: OnceLock<Arc<Gateway>>,
    hub: Arc<Hub>,
    seats: Mutex<HashMap<Uuid, Arc<AsyncMutex<Seat>>>>,
    handles: Mutex<HashMap<u64, Uuid>>,
}

fn unavailable(err: anyhow::Error) -> Error {
    room::unavailable(err)
}

impl GroupCalls {
    pub fn new(hub: Arc<Hub>) -> Self {
        Self { hub, ..Self::default() }
    }

    /// Opens this process's Janus session and starts handling its events (`api serve`).
    pub fn start(self: &Arc<Self>, settings: &JanusSettings) -> anyhow::Result<()> {
        let (gateway, events) = Gateway::start(settings.clone())?;
        let _ = self.gateway.set(gateway);
        tokio::spawn(self.clone().run(events));
        Ok(())
    }

    fn gateway(&self) -> Result<&Arc<Gateway>> {
        self.gateway
            .get()
            .ok_or_else(|| Error::ServiceDown(room::UNAVAILABLE.into()))
    }

    /// The socket's seat in `session`, locked.
    async fn seat(&self, socket: Uuid, session: Uuid) -> Result<tokio::sync::OwnedMutexGuard<Seat>> {
        let seat = self.seats.lock().expect("seats lock").get(&socket).cloned();
        let seat = seat.ok_or_else(|| Error::conflict(NOT_JOINED))?.lock_owned().await;
        if seat.session != session || seat.closed {
            return Err(Error::conflict(NOT_JOINED));
        }
        Ok(seat)
    }

    fn send(&self, user: Uuid, socket: Uuid, event: ServerEvent) {
        self.hub.deliver(&Envelope::to_socket(user, socket, event));
    }

    /// Joins the member's socket to the session's room as themself, kicking a stale copy of them.
    pub async fn join(&self, client: &JanusClient, session: &CallSession, user: Uuid, socket: Uuid) -> Result<()> {
        let gateway = self.gateway()?.clone();
        self.leave(socket).await;
        let (room_id, secret) = room::ensure_room(client, session).await?;
        let janus_id = ids::participant_id(user);
        let publisher = gateway.attach().await.map_err(unavailable)?;
        let seat = Arc::new(AsyncMutex::new(Seat {
            socket,
            user,
            session: session.id,
            room: room_id,
            janus_id,
            bitrate: if session.mentor_user_id == user {
                MENTOR_BITRATE
            } else {
                ROOM_BITRATE
            },
            publisher,
            private_id: None,
            subscriber: None,
            feeds: HashMap::new(),
            subscribed: BTreeSet::new(),
            offer_pending: false,
            closed: false,
        }));
        let mut guard = seat.lock().await;
        self.seats.lock().expect("seats lock").insert(socket, seat.clone());
        self.handles.lock().expect("handles lock").insert(publisher, socket);
        // The display is the member's user id: the others' pages name feeds by it.
        let body = json!({"request": "join", "ptype": "publisher", "room": room_id, "id": janus_id, "display": user.to_string()});
        let mut attempt = 0;
        let joined = loop {
            match gateway.message(publisher, body.clone(), None).await {
                Ok(reply) => break Ok(reply),
                Err(err) if plugin_error_code(&err) == Some(ID_EXISTS) && attempt < JOIN_ATTEMPTS => {
                    tracing::info!(room = room_id, "a stale copy of a member is in the room; kicking it");
                    if attempt > 0 {
                        tokio::time::sleep(KICK_SETTLE).await;
                    }
                    if let Err(err) = client.kick(room_id, &secret, janus_id).await {
                        tracing::warn!(error = %format!("{err:#}"), "cannot kick a stale copy");
                    }
                    attempt += 1;
                }
                Err(err) => break Err(err),
            }
        };
        let reply = match joined {
            Ok(reply) => reply,
            Err(err) => {
                drop(guard);
                self.leave(socket).await;
                return Err(unavailable(err));
            }
        };
        guard.private_id = reply.data["private_id"].as_u64();
        on_publisher_event(&mut guard, &reply.data);
        self.reconcile(&gateway, &mut guard).await;
        Ok(())
    }

    /// The member's publisher offer (camera, microphone, screen): Janus's answer (its SDP) and the
    /// mids of the publication's audio streams as Janus reports them (moderation mutes those).
    pub async fn publish(&self, socket: Uuid, session: Uuid, sdp: String) -> Result<(String, Vec<String>)> {
        let gateway = self.gateway()?.clone();
        let seat = self.seat(socket, session).await?;
        let body = json!({"request": "configure", "audio": true, "video": true, "bitrate": seat.bitrate});
        let reply = gateway
            .message(seat.publisher, body, Some(json!({"type": "offer", "sdp": sdp})))
            .await
            .map_err(unavailable)?;
        let answer = reply.jsep.as_ref().and_then(|j| j["sdp"].as_str()).unwrap_or_default();
        Ok((answer.to_owned(), janus::audio_mids(&reply.data)))
    }

    /// The member's answer to the last subscriber offer: receiving starts, then any change waiting.
    pub async fn subscribe_answer(&self, socket: Uuid, session: Uuid, sdp: String) -> Result<()> {
        let gateway = self.gateway()?.clone();
        let mut seat = self.seat(socket, session).await?;
        let Some(subscriber) = seat.subscriber else {
            return Err(Error::conflict(NOT_JOINED));
        };
        let started = gateway
            .message(
                subscriber,
                json!({"request": "start"}),
                Some(json!({"type": "answer", "sdp": sdp})),
            )
            .await;
        seat.offer_pending = false;
        started.map_err(unavailable)?;
        self.reconcile(&gateway, &mut seat).await;
        Ok(())
    }

    /// One of the browser's ICE candidates (None: it has no more) for one of its connections.
    pub async fn trickle(&self, socket: Uuid, session: Uuid, target: Target, candidate: Option<Value>) -> Result<()> {
        let gateway = self.gateway()?.clone();
        let handle = {
            let seat = self.seat(socket, session).await?;
            match target {
                Target::Publisher => Some(seat.publisher),
                Target::Subscriber => seat.subscriber,
            }
        };
        let Some(handle) = handle else {
            return Err(Error::conflict(NOT_JOINED));
        };
        gateway.trickle(handle, candidate).await.map_err(unavailable)
    }

    /// Leaves the socket's call if it is the call of `session` (a frame naming another call, or
    /// sent by a socket that never joined, leaves nothing); as [`Self::leave`].
    pub async fn leave_session(&self, socket: Uuid, session: Uuid) -> Option<(Uuid, Uuid)> {
        let seat = self.seats.lock().expect("seats lock").get(&socket).cloned()?;
        if seat.lock().await.session != session {
            return None;
        }
        self.leave(socket).await
    }

    /// Leaves the socket's call, if it is in one: its handles are detached (Janus tells the others).
    /// Returns the member and the session it was in.
    pub async fn leave(&self, socket: Uuid) -> Option<(Uuid, Uuid)> {
        let seat = self.seats.lock().expect("seats lock").remove(&socket)?;
        let mut seat = seat.lock().await;
        seat.closed = true;
        let handles: Vec<u64> = std::iter::once(seat.publisher).chain(seat.subscriber).collect();
        {
            let mut known = self.handles.lock().expect("handles lock");
            for h in &handles {
                known.remove(h);
            }
        }
        if let Some(gateway) = self.gateway.get() {
            for h in handles {
                if let Err(err) = gateway.detach(h).await {
                    tracing::debug!(error = %format!("{err:#}"), "detaching a handle");
                }
            }
        }
        Some((seat.user, seat.session))
    }

    /// Subscribes the seat to every stream it lacks and drops those gone, unless the browser has
    /// an offer to answer first.
    async fn reconcile(&self, gateway: &Gateway, seat: &mut Seat) {
        if seat.closed || seat.offer_pending {
            return;
        }
        let Some(private_id) = seat.private_id else {
            return;
        };
        let wanted: BTreeSet<(u64, String)> = seat
            .feeds
            .iter()
            .flat_map(|(feed, mids)| mids.iter().map(move |mid| (*feed, mid.clone())))
            .collect();
        let stream = |(feed, mid): &(u64, String)| json!({"feed": feed, "mid": mid});
        let reply = match seat.subscriber {
            None if wanted.is_empty() => return,
            None => {
                let handle = match gateway.attach().await {
                    Ok(handle) => handle,
                    Err(err) => {
                        tracing::warn!(error = %format!("{err:#}"), "cannot attach a subscriber");
                        return;
                    }
                };
                seat.subscriber = Some(handle);
                self.handles.lock().expect("handles lock").insert(handle, seat.socket);
                let streams: Vec<Value> = wanted.iter().map(stream).collect();
                let body = json!({"request": "join", "ptype": "subscriber", "room": seat.room, "streams": streams, "private_id": private_id});
                gateway.message(handle, body, None).await
            }
            Some(handle) => {
                let subscribe: Vec<Value> = wanted.difference(&seat.subscribed).map(stream).collect();
                let unsubscribe: Vec<Value> = seat.subscribed.difference(&wanted).map(stream).collect();
                if subscribe.is_empty() && unsubscribe.is_empty() {
                    return;
                }
                let mut body = json!({"request": "update"});
                if !subscribe.is_empty() {
                    body["subscribe"] = json!(subscribe);
                }
                if !unsubscribe.is_empty() {
                    body["unsubscribe"] = json!(unsubscribe);
                }
                gateway.message(handle, body, None).await
            }
        };
        match reply {
            Ok(reply) => self.on_subscriber_reply(seat, reply),
            Err(err) => tracing::warn!(error = %format!("{err:#}"), "cannot update a subscription"),
        }
    }

    /// Janus told the subscriber what it sends now (and maybe offered it): the browser hears of it.
    fn on_subscriber_reply(&self, seat: &mut Seat, reply: Reply) {
        let mut streams = Vec::new();
        if let Some(list) = reply.data["streams"].as_array() {
            seat.subscribed.clear();
            for s in list {
                let kind = match s["type"].as_str() {
                    Some("audio") => StreamKind::Audio,
                    Some("video") => StreamKind::Video,
                    _ => continue,
                };
                let (Some(feed), Some(feed_mid), Some(mid)) =
                    (s["feed_id"].as_u64(), s["feed_mid"].as_str(), s["mid"].as_str())
                else {
                    continue;
                };
                if s["active"] == false {
                    continue;
                }
                seat.subscribed.insert((feed, feed_mid.to_owned()));
                streams.push(GroupCallStream {
                    mid: mid.to_owned(),
                    participant_id: s["feed_display"].as_str().unwrap_or_default().to_owned(),
                    janus_id: feed,
                    kind,
                });
            }
        }
        let Some(offer) = reply.jsep.filter(|j| j["type"] == "offer") else {
            return;
        };
        seat.offer_pending = true;
        let offer = GroupCallSubscribeOffer {
            group_session_id: seat.session,
            sdp: offer["sdp"].as_str().unwrap_or_default().to_owned(),
            streams,
        };
        self.send(seat.user, seat.socket, ServerEvent::GroupCallSubscribeOffer(offer));
    }

    async fn run(self: Arc<Self>, mut events: mpsc::UnboundedReceiver<GatewayEvent>) {
        while let Some(event) = events.recv().await {
            match event {
                GatewayEvent::Plugin { handle, reply } => self.on_event(handle, reply).await,
                GatewayEvent::SessionLost => {
                    // Every handle went with the session: the pages reconnect and join again.
                    let lost: Vec<(Uuid, Arc<AsyncMutex<Seat>>)> =
                        self.seats.lock().expect("seats lock").drain().collect();
                    self.handles.lock().expect("handles lock").clear();
                    for (socket, seat) in lost {
                        seat.lock().await.closed = true;
                        self.hub.close_socket(socket);
                    }
                }
                GatewayEvent::Hangup { .. } | GatewayEvent::Detached { .. } => {}
            }
        }
    }

    async fn on_event(&self, handle: u64, reply: Reply) {
        let Some(socket) = self.handles.lock().expect("handles lock").get(&handle).copied() else {
            return;
        };
        let Some(seat) = self.seats.lock().expect("seats lock").get(&socket).cloned() else {
            return;
        };
        let Some(gateway) = self.gateway.get() else {
            return;
        };
        let mut guard = seat.lock().await;
        if guard.closed {
            return;
        }
        if guard.subscriber == Some(handle) {
            self.on_subscriber_reply(&mut guard, reply);
            return;
        }
        let data = &reply.data;
        let gone = data["videoroom"] == "destroyed" || data["leaving"] == "ok" || data["kicked"] == "ok";
        if gone {
            // Kicked (removed, or a newer copy of the member joined) or the room is gone.
            drop(guard);
            self.leave(socket).await;
            return;
        }
        on_publisher_event(&mut guard, data);
        self.reconcile(gateway, &mut guard).await;
    }
}

/// Who publishes what in the room, from a publisher handle's `joined` or `event`.
fn on_publisher_event(seat: &mut Seat, data: &Value) {
    for p in data["publishers"].as_array().into_iter().flatten() {
        let Some(id) = p["id"].as_u64() else { continue };
        if id == seat.janus_id {
            continue;
        }
        let mids: BTreeSet<String> = p["streams"]
            .as_array()
            .into_iter()
            .flatten()
            .filter(|s| matches!(s["type"].as_str(), Some("audio" | "video")) && s["disabled"] != true)
            .filter_map(|s| s["mid"].as_str().map(String::from))
            .collect();
        seat.feeds.insert(id, mids);
    }
    for key in ["unpublished", "leaving", "kicked"] {
        if let Some(id) = data[key].as_u64() {
            seat.feeds.remove(&id);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seat() -> Seat {
        Seat {
            socket: Uuid::nil(),
            user: Uuid::nil(),
            session: Uuid::nil(),
            room: 1,
            janus_id: 7,
            bitrate: ROOM_BITRATE,
            publisher: 1,
            private_id: Some(2),
            subscriber: None,
            feeds: HashMap::new(),
            subscribed: BTreeSet::new(),
            offer_pending: false,
            closed: false,
        }
    }

    #[test]
    fn publishers_are_followed_but_never_the_seat_itself() {
        let mut s = seat();
        on_publisher_event(
            &mut s,
            &json!({"publishers": [
                {"id": 7, "streams": [{"type": "audio", "mid": "0"}]},
                {"id": 9, "streams": [{"type": "audio", "mid": "0"}, {"type": "video", "mid": "1"}, {"type": "data", "mid": "2"}, {"type": "video", "mid": "3", "disabled": true}]},
            ]}),
        );
        assert_eq!(s.feeds.len(), 1);
        assert_eq!(s.feeds[&9], BTreeSet::from(["0".to_owned(), "1".to_owned()]));
        on_publisher_event(&mut s, &json!({"leaving": 9}));
        assert!(s.feeds.is_empty());
    }

    #[test]
    fn candidates_name_their_connection() {
        assert_eq!(
            serde_json::from_value::<Target>(json!("subscriber")).unwrap(),
            Target::Subscriber
        );
        assert!(serde_json::from_value::<Target>(json!("mentor")).is_err());
    }
}
