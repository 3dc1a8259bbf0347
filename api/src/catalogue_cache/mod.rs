//! The public catalogue's responses (mentor listings and searches, mentor pages, service pages)
//! kept in memory by every api process as the JSON bytes sent, and forgotten when a change on
//! `catalogue_changed` can have altered them. How changes reach every process and what each
//! forgets: docs/catalogue.md ("Freshness") and docs/architecture.md.

pub mod change;
pub mod listed;
pub mod listener;
mod payload;

use std::{
    collections::HashSet,
    future::Future,
    sync::{
        Arc, Mutex, PoisonError, RwLock,
        atomic::{AtomicBool, AtomicU64, Ordering},
    },
    time::Duration,
};

use bytes::Bytes;
use quick_cache::{Weighter, sync::Cache};
use sqlx::PgPool;
use tokio::sync::{Notify, watch};
use uuid::Uuid;

use domain::catalogue::{changes, search};

pub use change::{Change, Reach};
pub use payload::CachedJson;

use crate::error::ApiResult;

/// The most memory the cached responses take together (their JSON bytes).
pub const CAPACITY_BYTES: u64 = 64 * 1024 * 1024;
/// A guess at how many responses fit, for the cache's bookkeeping (about 20 kB each).
const ESTIMATED_ENTRIES: usize = 4096;
/// How long a change made here waits for the listener to have applied it before this process
/// forgets everything instead.
const SYNC_TIMEOUT: Duration = Duration::from_secs(2);

/// What a cached response answers.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub enum Key {
    Listing(search::Listing),
    Mentor(Uuid),
    Service(Uuid),
}

#[derive(Clone)]
struct Entry {
    body: Bytes,
    /// The mentors the response shows: a change to any of them drops it.
    shows: Arc<[Uuid]>,
}

#[derive(Clone)]
struct ByBodySize;

impl Weighter<Key, Entry> for ByBodySize {
    fn weight(&self, _: &Key, entry: &Entry) -> u64 {
        entry.body.len().max(1) as u64
    }
}

pub struct CatalogueCache {
    entries: Cache<Key, Entry, ByBodySize>,
    /// Counts the changes applied; a response read across one is not kept.
    generation: AtomicU64,
    /// Whether changes are being heard: only then is anything cached or served from memory.
    listening: AtomicBool,
    /// Taken for writing while a change is applied, for reading while a response is kept, so
    /// that a response read before a change is never kept after that change was applied.
    applying: RwLock<()>,
    /// Names this process's own announcements ([`Self::changed_here`]).
    token: String,
    barriers_sent: AtomicU64,
    barrier_heard: watch::Sender<u64>,
    /// Every listed mentor, for listings without a search ([`listed`]); used only while as new
    /// as the last change.
    snapshot: RwLock<Option<Arc<listed::Snapshot>>>,
    /// What changed since the snapshot was read; the refresher ([`listed::keep`]) reads it again.
    dirty: Mutex<listed::Dirty>,
    refresh: Notify,
}

impl Default for CatalogueCache {
    fn default() -> Self {
        Self::new()
    }
}

/// The payload prefix of a process's own barrier on the channel.
pub const SYNC_PREFIX: &str = "sync:";

impl CatalogueCache {
    pub fn new() -> Self {
        Self {
            entries: Cache::with_weighter(ESTIMATED_ENTRIES, CAPACITY_BYTES, ByBodySize),
            generation: AtomicU64::new(0),
            listening: AtomicBool::new(false),
            applying: RwLock::new(()),
            token: Uuid::new_v4().simple().to_string(),
            barriers_sent: AtomicU64::new(0),
            barrier_heard: watch::Sender::new(0),
            snapshot: RwLock::new(None),
            dirty: Mutex::new(listed::Dirty {
                all: true,
                ids: HashSet::new(),
            }),
            refresh: Notify::new(),
        }
    }

    /// The response for `key`: from memory when it is there, otherwise from `load`, which also
    /// names the mentors the response shows, kept for the next requests. Requests for the same
    /// key that arrive while it loads wait for that one load instead of each asking the database
    /// (after a change, every popular listing is asked for at once).
    pub async fn respond<T, F>(&self, key: Key, load: F) -> ApiResult<CachedJson<T>>
    where
        F: Future<Output = ApiResult<(CachedJson<T>, Vec<Uuid>)>>,
    {
        if !self.listening.load(Ordering::SeqCst) {
            return Ok(load.await?.0);
        }
        match self.entries.get_value_or_guard_async(&key).await {
            Ok(entry) => {
                crate::metrics::catalogue_cache(true);
                Ok(CachedJson::from_bytes(entry.body))
            }
            // This request loads; an error (or a change while it reads) drops the guard and the
            // next waiter loads instead.
            Err(guard) => {
                crate::metrics::catalogue_cache(false);
                let generation = self.generation.load(Ordering::SeqCst);
                let (response, shows) = load.await?;
                let _applying = self.applying.read().unwrap_or_else(PoisonError::into_inner);
                if self.generation.load(Ordering::SeqCst) == generation && self.listening.load(Ordering::SeqCst) {
                    let _ = guard.insert(Entry {
                        body: response.bytes(),
                        shows: shows.into(),
                    });
                }
                Ok(response)
            }
        }
    }

    /// Forgets what `change` can have altered.
    pub fn apply(&self, change: &Change) {
        let _applying = self.applying.write().unwrap_or_else(PoisonError::into_inner);
        // Marked before the generation moves on: a refresher that sees the new generation also
        // sees what it has to read again (listed::keep).
        {
            let mut dirty = self.dirty.lock().unwrap_or_else(PoisonError::into_inner);
            match change {
                Change::Everything => dirty.all = true,
                Change::Mentors(touched) => dirty.ids.extend(touched.iter().map(|(_, id)| *id)),
            }
        }
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.refresh.notify_one();
        match change {
            Change::Everything => self.entries.clear(),
            Change::Mentors(touched) => {
                let widest = touched.iter().map(|(reach, _)| *reach).min();
                let ids: HashSet<Uuid> = touched.iter().map(|(_, id)| *id).collect();
                self.entries.retain(|key, entry| {
                    let shows_one = || entry.shows.iter().any(|id| ids.contains(id));
                    let altered = match key {
                        Key::Listing(listing) => match widest {
                            Some(Reach::Order) => true,
                            Some(Reach::Text) if listing.is_search() => true,
                            _ => shows_one(),
                        },
                        Key::Mentor(id) => ids.contains(id) || shows_one(),
                        Key::Service(_) => shows_one(),
                    };
                    !altered
                });
            }
        }
    }

    /// Something the catalogue shows has changed: nothing kept so far is served again.
    pub fn forget_all(&self) {
        self.apply(&Change::Everything);
    }

    /// A request of this process changed the catalogue and committed: returns once this
    /// process's cache no longer serves anything the change altered. A barrier announced on the
    /// channel after the commit comes back after the change's own announcement, so when the
    /// listener hears it, the change has been applied; without an answer in time, everything is
    /// forgotten.
    pub async fn changed_here(&self, pool: &PgPool) {
        if !self.listening.load(Ordering::SeqCst) {
            return self.forget_all();
        }
        // Numbered after the commit: any barrier heard with this number or a later one was
        // announced after the change.
        let barrier = self.barriers_sent.fetch_add(1, Ordering::SeqCst) + 1;
        let mut heard = self.barrier_heard.subscribe();
        let sent = changes::announce(pool, &format!("{SYNC_PREFIX}{}:{barrier}", self.token)).await;
        let applied = sent.is_ok()
            && tokio::time::timeout(SYNC_TIMEOUT, heard.wait_for(|n| *n >= barrier))
                .await
                .is_ok_and(|r| r.is_ok());
        if !applied {
            self.forget_all();
        }
    }

    /// What the listener hears on the channel.
    pub fn heard(&self, payload: &str) {
        match payload.strip_prefix(SYNC_PREFIX) {
            Some(barrier) => {
                let own = barrier
                    .strip_prefix(self.token.as_str())
                    .and_then(|rest| rest.strip_prefix(':'))
                    .and_then(|n| n.parse::<u64>().ok());
                if let Some(n) = own {
                    self.barrier_heard.send_modify(|heard| *heard = (*heard).max(n));
                }
            }
            None => self.apply(&Change::parse(payload)),
        }
    }

    /// The page of a listing without a search from the snapshot of listed mentors, with the
    /// mentors it shows; `None` when the snapshot is older than the last change (or missing) or
    /// cannot answer it, and the database answers instead.
    pub fn listed_page<T>(&self, listing: &search::Listing) -> Option<(CachedJson<T>, Vec<Uuid>)> {
        if listing.is_search() || !self.listening.load(Ordering::SeqCst) {
            return None;
        }
        let snapshot = self.snapshot()?;
        if snapshot.generation() != self.generation() {
            return None;
        }
        let (body, shows) = snapshot.page(listing)?;
        Some((CachedJson::from_bytes(body), shows))
    }

    /// Counts the changes applied (`replica` fences each with the primary's position).
    pub(crate) fn generation(&self) -> u64 {
        self.generation.load(Ordering::SeqCst)
    }

    fn snapshot(&self) -> Option<Arc<listed::Snapshot>> {
        self.snapshot.read().unwrap_or_else(PoisonError::into_inner).clone()
    }

    /// Under the same lock as keeping a response: a snapshot read before a change is stored with
    /// its older generation and not used.
    fn set_snapshot(&self, snapshot: listed::Snapshot) {
        let _applying = self.applying.read().unwrap_or_else(PoisonError::into_inner);
        *self.snapshot.write().unwrap_or_else(PoisonError::into_inner) = Some(Arc::new(snapshot));
    }

    /// No snapshot until every listed mentor is read again.
    fn drop_snapshot(&self) {
        *self.snapshot.write().unwrap_or_else(PoisonError::into_inner) = None;
    }

    /// Called by the listener: while `on` is false nothing is cached.
    fn set_listening(&self, on: bool) {
        self.listening.store(on, Ordering::SeqCst);
        self.forget_all();
        // Barriers sent so far may be lost with the connection; everything is forgotten, so
        // their changes are applied.
        let sent = self.barriers_sent.load(Ordering::SeqCst);
        self.barrier_heard.send_modify(|heard| *heard = (*heard).max(sent));
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listening() -> CatalogueCache {
        let cache = CatalogueCache::new();
        cache.set_listening(true);
        cache
    }

    async fn showing(cache: &CatalogueCache, key: Key, value: &str, shows: &[Uuid]) -> String {
        let (value, shows) = (value.to_string(), shows.to_vec());
        let response: CachedJson<String> = cache
            .respond(key, async move { Ok((CachedJson::new(&value), shows)) })
            .await
            .unwrap();
        String::from_utf8(response.bytes().to_vec()).unwrap()
    }

    async fn answer(cache: &CatalogueCache, key: Key, value: &str) -> String {
        showing(cache, key, value, &[]).await
    }

    fn listing(search: Option<&str>, sort: search::Sort) -> Key {
        Key::Listing(
            search::Listing::new(search::Query {
                search: search.map(str::to_string),
                sort,
                ..Default::default()
            })
            .unwrap(),
        )
    }

    #[tokio::test]
    async fn a_response_is_served_from_memory_until_the_catalogue_changes() {
        let cache = listening();
        let key = Key::Mentor(Uuid::nil());
        assert_eq!(answer(&cache, key.clone(), "first").await, "\"first\"");
        assert_eq!(answer(&cache, key.clone(), "second").await, "\"first\"");
        cache.forget_all();
        assert_eq!(answer(&cache, key.clone(), "third").await, "\"third\"");
    }

    #[tokio::test]
    async fn a_response_computed_across_a_change_is_not_kept() {
        let cache = listening();
        let key = Key::Service(Uuid::nil());
        let other = Uuid::from_u128(7);
        let response: CachedJson<String> = cache
            .respond(key.clone(), async {
                // The catalogue changes while the old snapshot is being read, even a mentor the
                // response does not show.
                cache.apply(&Change::Mentors(vec![(Reach::View, other)]));
                Ok((CachedJson::new(&"stale".to_string()), vec![]))
            })
            .await
            .unwrap();
        assert_eq!(response.bytes().as_ref(), b"\"stale\"");
        assert_eq!(answer(&cache, key, "fresh").await, "\"fresh\"");
    }

    #[tokio::test]
    async fn a_change_forgets_exactly_what_it_can_have_altered() {
        let cache = listening();
        let (x, y) = (Uuid::from_u128(1), Uuid::from_u128(2));
        let default = listing(None, search::Sort::Rating);
        let by_price = listing(None, search::Sort::Price);
        let search = listing(Some("tarot"), search::Sort::Relevance);
        let fill = |value: &'static str| {
            let (cache, default, by_price, search) = (&cache, default.clone(), by_price.clone(), search.clone());
            async move {
                showing(cache, default, value, &[x]).await;
                showing(cache, by_price, value, &[y]).await;
                showing(cache, search, value, &[y]).await;
                showing(cache, Key::Mentor(x), value, &[x]).await;
                showing(cache, Key::Mentor(y), value, &[y]).await;
                showing(cache, Key::Service(Uuid::from_u128(10)), value, &[x]).await;
                showing(cache, Key::Service(Uuid::from_u128(20)), value, &[y]).await;
            }
        };
        let now = |key: &Key| {
            let key = key.clone();
            let cache = &cache;
            async move { showing(cache, key, "new", &[]).await == "\"new\"" }
        };
        fill("old").await;
        // Only what x's page and cards show: x's page, x's service, the listing showing x.
        cache.apply(&Change::Mentors(vec![(Reach::View, x)]));
        assert!(now(&default).await, "the listing showing x");
        assert!(!now(&by_price).await && !now(&search).await, "listings without x stay");
        assert!(now(&Key::Mentor(x)).await && !now(&Key::Mentor(y)).await);
        assert!(now(&Key::Service(Uuid::from_u128(10))).await && !now(&Key::Service(Uuid::from_u128(20))).await);

        cache.forget_all();
        fill("old").await;
        // x's search text: also every search, though it does not show x.
        cache.apply(&Change::Mentors(vec![(Reach::Text, x)]));
        assert!(now(&default).await && now(&search).await);
        assert!(!now(&by_price).await && !now(&Key::Mentor(y)).await);

        cache.forget_all();
        fill("old").await;
        // Where x is listed: every listing (x may move into any page), pages of others stay.
        cache.apply(&Change::Mentors(vec![(Reach::Order, x)]));
        assert!(now(&default).await && now(&by_price).await && now(&search).await);
        assert!(!now(&Key::Mentor(y)).await && !now(&Key::Service(Uuid::from_u128(20))).await);
        assert!(now(&Key::Mentor(x)).await);
    }

    #[tokio::test]
    async fn a_barrier_of_this_process_releases_its_waiters_and_others_are_ignored() {
        let cache = listening();
        cache.heard("sync:someone-else:5");
        assert_eq!(*cache.barrier_heard.borrow(), 0);
        cache.heard(&format!("sync:{}:3", cache.token));
        assert_eq!(*cache.barrier_heard.borrow(), 3);
        cache.heard(&format!("sync:{}:2", cache.token));
        assert_eq!(*cache.barrier_heard.borrow(), 3, "never goes back");
    }

    #[tokio::test]
    async fn nothing_is_cached_while_changes_cannot_be_heard() {
        let cache = CatalogueCache::new();
        let key = Key::Mentor(Uuid::nil());
        assert_eq!(answer(&cache, key.clone(), "a").await, "\"a\"");
        assert_eq!(answer(&cache, key.clone(), "b").await, "\"b\"");
        assert_eq!(cache.len(), 0);
        cache.set_listening(true);
        assert_eq!(answer(&cache, key.clone(), "c").await, "\"c\"");
        cache.set_listening(false);
        assert_eq!(answer(&cache, key, "d").await, "\"d\"");
    }

    #[tokio::test]
    async fn requests_for_one_key_arriving_together_load_it_once() {
        use std::sync::atomic::AtomicUsize;
        let cache = listening();
        let loads = AtomicUsize::new(0);
        let load = |value: &'static str| {
            let loads = &loads;
            async move {
                loads.fetch_add(1, Ordering::SeqCst);
                tokio::task::yield_now().await;
                Ok((CachedJson::new(&value.to_string()), vec![]))
            }
        };
        let key = Key::Mentor(Uuid::nil());
        let (a, b, c) = tokio::join!(
            cache.respond(key.clone(), load("first")),
            cache.respond(key.clone(), load("second")),
            cache.respond(key, load("third")),
        );
        let bodies: Vec<Bytes> = [a, b, c]
            .into_iter()
            .map(|r: ApiResult<CachedJson<String>>| r.unwrap().bytes())
            .collect();
        assert!(bodies.iter().all(|b| b.as_ref() == b"\"first\""));
        assert_eq!(loads.load(Ordering::SeqCst), 1);
    }
}
