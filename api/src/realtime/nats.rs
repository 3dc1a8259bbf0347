//! The NATS bus (`REALTIME_BUS=nats`, issue 37 §2): this process's side of it.
//!
//! Events reach NATS from the transactional outbox (`domain::realtime::outbox`) through the relay
//! ([`super::relay`]), one message per recipient on the subject `rt.user.<user id>` with the event
//! id in the `Nats-Msg-Id` header; an event for the members of a group session
//! (`Envelope::to_room`) travels once, on `rt.room.<session id>`. This process subscribes to the
//! subject of a user on their first socket here and unsubscribes after their last closes
//! ([`NatsBus::watch`], [`NatsBus::unwatch`]), and to the rooms of the group sessions they are a
//! member of while any member is connected here: those of their scheduled and active sessions when
//! their first socket opens, and a session's when they join its call ([`NatsBus::watch_room`]: a
//! seat taken after the socket opened), so an event reaches only the processes its recipients are
//! connected to. A relay may publish an
//! event twice (it died, or NATS did not confirm, before it marked the row sent): each (event,
//! recipient) is delivered once, the [`SEEN_EVENTS`] latest remembered.
//!
//! NATS keeps nothing for a subscriber that is away: when this process's connection comes back it
//! reads the outbox's events of the last moments for its users ([`CATCH_UP_MARGIN`]) and delivers
//! those it had not seen, so an event relayed while it was away is not lost to it.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use async_nats::Event;
use domain::realtime::{Envelope, outbox};
use futures::StreamExt;
use sqlx::PgPool;
use tokio::sync::mpsc;
use uuid::Uuid;

use super::{Hub, confirming::ConfirmingClient};

/// Subjects of events per recipient: `rt.user.<user id>`.
pub const USER_SUBJECT_PREFIX: &str = "rt.user.";
/// Subjects of events for a group session's members: `rt.room.<group session id>`.
pub const ROOM_SUBJECT_PREFIX: &str = "rt.room.";
/// The header carrying the event id (the outbox row's id).
pub const EVENT_ID_HEADER: &str = "Nats-Msg-Id";
/// How many (event, recipient) pairs each process remembers to drop duplicates: a relay publishes
/// again within seconds, and at the benchmark's 2,000 messages a second to two recipients this is
/// 16 s of traffic in about 5 MB.
pub const SEEN_EVENTS: usize = 65_536;
/// After a lost connection, events written this long before it was lost are read again too (a relay
/// may have published them just before).
pub const CATCH_UP_MARGIN: Duration = Duration::from_secs(5);
/// A caught-up event that a relay sent before a socket opened is not for that socket (had NATS been
/// there, it would not have reached it either; the client reloads what it shows when its socket is
/// ready): a socket gets it only if it opened no later than this after the event was marked sent,
/// room for the clocks of the database and this process to differ. Without this, a user whose socket
/// moved here from another process while NATS was away would get again what the other delivered.
pub const CATCH_UP_CLOCK_SKEW: Duration = Duration::from_secs(1);

pub fn user_subject(user: Uuid) -> String {
    format!("{USER_SUBJECT_PREFIX}{user}")
}

pub fn room_subject(room: Uuid) -> String {
    format!("{ROOM_SUBJECT_PREFIX}{room}")
}

/// The latest `capacity` keys seen, in a set with a queue of their order.
pub struct Seen<K> {
    set: HashSet<K>,
    order: VecDeque<K>,
    capacity: usize,
}

impl<K: std::hash::Hash + Eq + Copy> Seen<K> {
    pub fn new(capacity: usize) -> Self {
        Self {
            set: HashSet::with_capacity(capacity.min(4096)),
            order: VecDeque::new(),
            capacity,
        }
    }

    /// Whether `key` is new; remembers it, forgetting the oldest beyond the capacity.
    pub fn first_time(&mut self, key: K) -> bool {
        if !self.set.insert(key) {
            return false;
        }
        self.order.push_back(key);
        if self.order.len() > self.capacity
            && let Some(old) = self.order.pop_front()
        {
            self.set.remove(&old);
        }
        true
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }
}

/// A connected user's subscription.
struct Watch {
    sockets: usize,
    /// Reads the user's subscription; aborting it drops the subscription (NATS unsubscribes).
    reader: tokio::task::JoinHandle<()>,
    /// The rooms this user holds a subscription to here.
    rooms: HashSet<Uuid>,
}

/// A group session's subscription, held while any of its members connected here is watched.
struct RoomWatch {
    users: HashSet<Uuid>,
    reader: tokio::task::JoinHandle<()>,
}

#[derive(Default)]
struct Watches {
    users: HashMap<Uuid, Watch>,
    rooms: HashMap<Uuid, RoomWatch>,
}

pub struct NatsBus {
    nats: Arc<ConfirmingClient>,
    pool: PgPool,
    hub: Arc<Hub>,
    watches: tokio::sync::Mutex<Watches>,
    seen: Mutex<Seen<(i64, Uuid)>>,
}

/// Every metric of the bus, described (from `crate::metrics`' `describe`).
pub fn describe_metrics() {
    use metrics::{Unit, describe_counter, describe_histogram};
    describe_counter!(
        "realtime_bus_published_total",
        "Real-time messages this process's relay published to NATS (one per event and recipient)"
    );
    describe_counter!(
        "realtime_bus_received_total",
        "Real-time messages this process received from NATS for its connected users"
    );
    describe_counter!(
        "realtime_bus_delivered_total",
        "Real-time events (per recipient) this process handed to its sockets from the bus"
    );
    describe_counter!(
        "realtime_bus_duplicates_dropped_total",
        "Real-time messages dropped as already delivered (same event id and recipient)"
    );
    describe_counter!(
        "realtime_bus_catch_ups_total",
        "Catch-ups from the outbox this process made after its NATS connection came back"
    );
    describe_histogram!(
        "realtime_relay_lag_seconds",
        Unit::Seconds,
        "Time from writing an event to the outbox to its relay claiming it"
    );
    describe_histogram!(
        "realtime_relay_round_seconds",
        Unit::Seconds,
        "The working relay's rounds by phase: claim, publish, confirm, mark_sent (with the commit)"
    );
    metrics::describe_gauge!(
        "realtime_relay_leading",
        "1 on the api process whose relay works (holds the relay lock), 0 on those standing by"
    );
    metrics::describe_gauge!(
        "realtime_outbox_unsent",
        "Real-time events in the outbox not yet relayed"
    );
    metrics::describe_gauge!(
        "realtime_outbox_oldest_unsent_seconds",
        "Age of the oldest real-time event not yet relayed"
    );
    for name in [
        "realtime_bus_published_total",
        "realtime_bus_received_total",
        "realtime_bus_delivered_total",
        "realtime_bus_duplicates_dropped_total",
        "realtime_bus_catch_ups_total",
    ] {
        metrics::counter!(name).absolute(0);
    }
}

impl NatsBus {
    /// Connects to `url` (retrying in the background until NATS answers) and starts reading the
    /// connection's events.
    pub async fn connect(url: &str, pool: PgPool, hub: Arc<Hub>) -> anyhow::Result<Arc<Self>> {
        let (events, mut events_rx) = mpsc::unbounded_channel::<Event>();
        let options = async_nats::ConnectOptions::new()
            .name("mystic-mentors-api")
            .retry_on_initial_connect()
            .event_callback(move |event| {
                let events = events.clone();
                async move {
                    let _ = events.send(event);
                }
            });
        let bus = Arc::new(Self {
            nats: ConfirmingClient::connect(options, url).await?,
            pool,
            hub,
            watches: Default::default(),
            seen: Mutex::new(Seen::new(SEEN_EVENTS)),
        });
        let watcher = bus.clone();
        tokio::spawn(async move {
            // Away from the start: the first connection catches up too (nothing to do without sockets).
            let mut away_since = Some(Instant::now());
            while let Some(event) = events_rx.recv().await {
                match event {
                    Event::Disconnected => {
                        tracing::warn!("lost the NATS connection; reconnecting");
                        away_since.get_or_insert_with(Instant::now);
                    }
                    Event::Connected => {
                        tracing::info!("connected to NATS");
                        if let Some(since) = away_since.take() {
                            let bus = watcher.clone();
                            tokio::spawn(async move { bus.catch_up(since.elapsed() + CATCH_UP_MARGIN).await });
                        }
                    }
                    // Each failed reconnection attempt (async_nats logs them too).
                    Event::ClientError(err) => tracing::debug!(error = %err, "NATS client"),
                    other => tracing::warn!(event = %other, "NATS"),
                }
            }
        });
        Ok(bus)
    }

    pub fn connected(&self) -> bool {
        self.nats.connected()
    }

    async fn confirm(&self) -> anyhow::Result<()> {
        self.nats.confirm().await
    }

    /// A socket of `user` opened here: on their first, subscribe to their subject and to the rooms
    /// of their group sessions (and wait until NATS has them, so nothing relayed after the
    /// socket's `ready` is missed).
    pub async fn watch(self: &Arc<Self>, user: Uuid) {
        if self.add_socket(user).await {
            return;
        }
        // Read outside the lock: a storm of reconnections does not wait on one query after another.
        let rooms = domain::group_calls::access::rooms_of(&self.pool, user)
            .await
            .unwrap_or_else(|err| {
                tracing::warn!(error = %err, "cannot read a user's group sessions for their rooms");
                Vec::new()
            });
        let mut watches = self.watches.lock().await;
        if let Some(watch) = watches.users.get_mut(&user) {
            // Another socket of theirs subscribed meanwhile.
            watch.sockets += 1;
            return;
        }
        let Some(reader) = self
            .subscribe(user_subject(user), move |bus, message| bus.received(user, message))
            .await
        else {
            return;
        };
        watches.users.insert(
            user,
            Watch {
                sockets: 1,
                reader,
                rooms: HashSet::new(),
            },
        );
        for room in rooms {
            self.add_room(&mut watches, user, room).await;
        }
        drop(watches);
        self.confirm_subscriptions().await;
    }

    /// Counts another socket of `user` when they are watched here already.
    async fn add_socket(&self, user: Uuid) -> bool {
        let mut watches = self.watches.lock().await;
        match watches.users.get_mut(&user) {
            Some(watch) => {
                watch.sockets += 1;
                true
            }
            None => false,
        }
    }

    /// `user`, connected here, joins group session `room`'s call: its events reach this process
    /// from now on even if their seat was taken after their socket opened.
    pub async fn watch_room(self: &Arc<Self>, user: Uuid, room: Uuid) {
        let mut watches = self.watches.lock().await;
        if watches.users.get(&user).is_none_or(|w| w.rooms.contains(&room)) {
            return;
        }
        self.add_room(&mut watches, user, room).await;
        drop(watches);
        self.confirm_subscriptions().await;
    }

    async fn add_room(self: &Arc<Self>, watches: &mut Watches, user: Uuid, room: Uuid) {
        if let Some(watch) = watches.rooms.get_mut(&room) {
            watch.users.insert(user);
        } else {
            let Some(reader) = self.subscribe(room_subject(room), Self::received_for_room).await else {
                return;
            };
            let users = HashSet::from([user]);
            watches.rooms.insert(room, RoomWatch { users, reader });
        }
        if let Some(watch) = watches.users.get_mut(&user) {
            watch.rooms.insert(room);
        }
    }

    /// Subscribes to `subject`, handing each message to `on_message` until the returned task is
    /// aborted; `None` (logged) when NATS refuses.
    async fn subscribe(
        self: &Arc<Self>,
        subject: String,
        on_message: impl Fn(&Self, &async_nats::Message) + Send + 'static,
    ) -> Option<tokio::task::JoinHandle<()>> {
        let mut subscription = match self.nats.client().subscribe(subject).await {
            Ok(s) => s,
            Err(err) => {
                tracing::warn!(error = %err, "cannot subscribe to a real-time subject");
                return None;
            }
        };
        let bus = self.clone();
        Some(tokio::spawn(async move {
            while let Some(message) = subscription.next().await {
                on_message(&bus, &message);
            }
        }))
    }

    /// Waits until NATS has this process's subscriptions; without a connection there is nothing to
    /// wait for (the catch-up covers the users here when it is back).
    async fn confirm_subscriptions(&self) {
        if !self.connected() {
            return;
        }
        if let Err(err) = self.confirm().await {
            tracing::warn!(error = %err, "NATS has not confirmed a subscription yet");
        }
    }

    /// A socket of `user` closed here: after their last, unsubscribe from their subject and from
    /// the rooms no other member here holds.
    pub async fn unwatch(&self, user: Uuid) {
        let mut watches = self.watches.lock().await;
        let Some(watch) = watches.users.get_mut(&user) else {
            return;
        };
        watch.sockets = watch.sockets.saturating_sub(1);
        if watch.sockets > 0 {
            return;
        }
        let Some(watch) = watches.users.remove(&user) else {
            return;
        };
        watch.reader.abort();
        for room in watch.rooms {
            if let Some(room_watch) = watches.rooms.get_mut(&room) {
                room_watch.users.remove(&user);
                if room_watch.users.is_empty()
                    && let Some(gone) = watches.rooms.remove(&room)
                {
                    gone.reader.abort();
                }
            }
        }
    }

    /// Users subscribed here now.
    pub async fn watched(&self) -> Vec<Uuid> {
        self.watches.lock().await.users.keys().copied().collect()
    }

    /// A message on a room's subject: to each of its recipients connected here.
    fn received_for_room(&self, message: &async_nats::Message) {
        metrics::counter!("realtime_bus_received_total").increment(1);
        let Some((id, envelope)) = Self::read(message) else {
            return;
        };
        for user in envelope.to.iter().filter(|u| self.hub.is_connected(**u)) {
            self.deliver(id, *user, envelope.clone(), None);
        }
    }

    /// The event id and envelope of a message (`None`, logged, when unreadable).
    fn read(message: &async_nats::Message) -> Option<(i64, Envelope)> {
        let id = message
            .headers
            .as_ref()
            .and_then(|h| h.get(EVENT_ID_HEADER))
            .and_then(|v| v.as_str().parse::<i64>().ok());
        let Some(id) = id else {
            tracing::warn!("real-time message without an event id");
            return None;
        };
        match serde_json::from_slice::<Envelope>(&message.payload) {
            Ok(envelope) => Some((id, envelope)),
            Err(err) => {
                tracing::warn!(error = %err, "unreadable real-time message");
                None
            }
        }
    }

    fn received(&self, user: Uuid, message: &async_nats::Message) {
        metrics::counter!("realtime_bus_received_total").increment(1);
        if let Some((id, envelope)) = Self::read(message) {
            self.deliver(id, user, envelope, None);
        }
    }

    /// Hands event `id` to `user`'s sockets here, unless it already was; an event caught up after a
    /// relay had sent it (`sent_at`) only to the sockets open by then ([`CATCH_UP_CLOCK_SKEW`]).
    fn deliver(&self, id: i64, user: Uuid, mut envelope: Envelope, sent_at: Option<chrono::DateTime<chrono::Utc>>) {
        if !self.seen.lock().expect("seen").first_time((id, user)) {
            metrics::counter!("realtime_bus_duplicates_dropped_total").increment(1);
            return;
        }
        metrics::counter!("realtime_bus_delivered_total").increment(1);
        envelope.to = vec![user];
        match sent_at {
            None => self.hub.deliver(&envelope),
            Some(sent) => {
                let skew = chrono::Duration::from_std(CATCH_UP_CLOCK_SKEW).unwrap_or_default();
                self.hub
                    .deliver_where(&envelope, |socket| socket.opened_at <= sent + skew)
            }
        };
    }

    /// Delivers the outbox's events of the last `window` for the users here that were not seen
    /// (events relayed while this process's connection was away).
    async fn catch_up(&self, window: Duration) {
        if let Err(err) = self.confirm().await {
            tracing::warn!(error = %err, "NATS connection back but not answering; catching up anyway");
        }
        let users = self.watched().await;
        if users.is_empty() {
            metrics::counter!("realtime_bus_catch_ups_total").increment(1);
            return;
        }
        let window = chrono::Duration::from_std(window).unwrap_or(chrono::Duration::MAX);
        match outbox::recent_for(&self.pool, window, &users).await {
            Ok(events) => {
                let mine: HashSet<Uuid> = users.into_iter().collect();
                let count = events.len();
                for event in events {
                    for user in event.envelope.to.iter().filter(|u| mine.contains(u)) {
                        self.deliver(event.id, *user, event.envelope.clone(), event.sent_at);
                    }
                }
                tracing::info!(
                    events = count,
                    "caught up on real-time events after the NATS connection came back"
                );
                metrics::counter!("realtime_bus_catch_ups_total").increment(1);
            }
            Err(err) => {
                tracing::warn!(error = %err, "cannot catch up on real-time events; closing sockets so clients reload");
                self.hub.close_all();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn duplicates_are_dropped_within_the_latest_seen() {
        let mut seen = Seen::new(3);
        assert!(seen.first_time(1));
        assert!(!seen.first_time(1));
        assert!(seen.first_time(2) && seen.first_time(3) && seen.first_time(4));
        assert_eq!(seen.len(), 3);
        assert!(seen.first_time(1), "the oldest was forgotten");
        assert!(!seen.first_time(4));
        assert_eq!(SEEN_EVENTS, 65_536);
    }

    #[test]
    fn subjects_are_per_user() {
        let user = Uuid::nil();
        assert_eq!(user_subject(user), "rt.user.00000000-0000-0000-0000-000000000000");
        assert_eq!(room_subject(user), "rt.room.00000000-0000-0000-0000-000000000000");
        assert_eq!(CATCH_UP_MARGIN, Duration::from_secs(5));
        assert_eq!(CATCH_UP_CLOCK_SKEW, Duration::from_secs(1));
    }
}
