//! The public catalogue's responses (mentor listings and searches, mentor pages, service pages)
//! kept in memory by every api process, as the JSON bytes sent.
//!
//! Every statement that changes what those pages show announces it on PostgreSQL's
//! `catalogue_changed` channel (triggers, migration `catalogue_changes`), from any process,
//! the worker included; the [`listener`] forgets everything on each announcement. A change made
//! through this process also forgets it at once, before the response to the change leaves
//! (`guard`), so a user who edits their profile sees the edit on their next request.
//!
//! Each entry carries the generation it was computed in: a response computed from a snapshot
//! older than the last change is never served, even when it finishes after that change. While
//! the listener is not connected nothing is cached (changes could go unnoticed).

pub mod listener;
mod payload;

use std::{
    future::Future,
    sync::atomic::{AtomicBool, AtomicU64, Ordering},
};

use bytes::Bytes;
use poem_openapi::types::ToJSON;
use quick_cache::{Weighter, sync::Cache};
use uuid::Uuid;

use domain::catalogue::search;

pub use payload::CachedJson;

use crate::error::ApiResult;

/// The most memory the cached responses take together (their JSON bytes).
pub const CAPACITY_BYTES: u64 = 64 * 1024 * 1024;
/// A guess at how many responses fit, for the cache's bookkeeping (about 20 kB each).
const ESTIMATED_ENTRIES: usize = 4096;

/// What a cached response answers.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub enum Key {
    Listing(search::Listing),
    Mentor(Uuid),
    Service(Uuid),
}

#[derive(Clone)]
struct Entry {
    generation: u64,
    body: Bytes,
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
    /// Counts the changes seen; entries of an older generation are stale.
    generation: AtomicU64,
    /// Whether changes are being heard: only then is anything cached or served from memory.
    listening: AtomicBool,
}

impl Default for CatalogueCache {
    fn default() -> Self {
        Self::new()
    }
}

impl CatalogueCache {
    pub fn new() -> Self {
        Self {
            entries: Cache::with_weighter(ESTIMATED_ENTRIES, CAPACITY_BYTES, ByBodySize),
            generation: AtomicU64::new(0),
            listening: AtomicBool::new(false),
        }
    }

    /// The response for `key`: from memory when it is there and current, otherwise from `load`,
    /// kept for the next requests. Requests for the same key that arrive while it loads wait for
    /// that one load instead of each asking the database (after a change, every popular listing
    /// is asked for at once).
    pub async fn respond<T, F>(&self, key: Key, load: F) -> ApiResult<CachedJson<T>>
    where
        T: ToJSON,
        F: Future<Output = ApiResult<T>>,
    {
        let Some(generation) = self.current_generation() else {
            return Ok(CachedJson::new(&load.await?));
        };
        match self.entries.get_value_or_guard_async(&key).await {
            Ok(entry) if entry.generation == generation => {
                crate::metrics::catalogue_cache(true);
                Ok(CachedJson::from_bytes(entry.body))
            }
            // Read before a change this request came after: read again.
            Ok(_) => {
                crate::metrics::catalogue_cache(false);
                let response = CachedJson::new(&load.await?);
                self.entries.insert(
                    key,
                    Entry {
                        generation,
                        body: response.bytes(),
                    },
                );
                Ok(response)
            }
            // This request loads; an error drops the guard and the next waiter loads instead.
            Err(guard) => {
                crate::metrics::catalogue_cache(false);
                let response = CachedJson::new(&load.await?);
                // Kept under the generation it was read in: if the catalogue changed meanwhile,
                // the waiters (and `get`) see it is stale.
                let _ = guard.insert(Entry {
                    generation,
                    body: response.bytes(),
                });
                Ok(response)
            }
        }
    }

    /// Something the catalogue shows has changed: nothing kept so far is served again.
    pub fn forget_all(&self) {
        self.generation.fetch_add(1, Ordering::SeqCst);
        self.entries.clear();
    }

    /// Called by the listener: while `on` is false nothing is cached.
    fn set_listening(&self, on: bool) {
        self.listening.store(on, Ordering::SeqCst);
        self.forget_all();
    }

    fn current_generation(&self) -> Option<u64> {
        self.listening
            .load(Ordering::SeqCst)
            .then(|| self.generation.load(Ordering::SeqCst))
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

    async fn answer(cache: &CatalogueCache, key: Key, value: &str) -> String {
        let value = value.to_string();
        let response: CachedJson<String> = cache.respond(key, async move { Ok(value) }).await.unwrap();
        String::from_utf8(response.bytes().to_vec()).unwrap()
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
        let response: CachedJson<String> = cache
            .respond(key.clone(), async {
                cache.forget_all(); // the catalogue changes while the old snapshot is being read
                Ok("stale".to_string())
            })
            .await
            .unwrap();
        assert_eq!(response.bytes().as_ref(), b"\"stale\"");
        assert_eq!(answer(&cache, key, "fresh").await, "\"fresh\"");
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
                Ok(value.to_string())
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
