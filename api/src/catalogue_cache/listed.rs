//! Listings without a search answered from memory: every listed mentor's card (the JSON the
//! listing sends for it) with what the filters and orders read, kept in the three orders a
//! listing can ask for. Filtering and paging them gives exactly the page the SQL gives
//! (`search::listing`; `api/tests/listed_matches_sql.rs` compares them over many random listings).
//!
//! A snapshot is used only while it is as new as the cache's last change: each change names its
//! mentors, and the refresher (`keep`) reads those again and swaps in a new snapshot; until then
//! (milliseconds) listings are read from the database, so nothing waits for a reload.

use std::{
    cmp::Ordering,
    collections::{HashMap, HashSet},
    sync::{
        Arc, PoisonError,
        atomic::{AtomicU64, Ordering as AtomicOrdering},
    },
    time::Duration,
};

use bytes::Bytes;
use chrono::{DateTime, Utc};
use sqlx::PgPool;
use uuid::Uuid;

use domain::catalogue::{
    listed,
    mentors::MentorWithServices,
    search::{Listing, Sort},
    vocabulary::ServiceType,
};

use super::{CachedJson, CatalogueCache};
use crate::views::catalogue::{MentorView, MentorsPage};

/// What changed since the last snapshot was read.
#[derive(Default)]
pub(super) struct Dirty {
    pub all: bool,
    pub ids: HashSet<Uuid>,
}

/// One listed mentor: the keys of the filters and orders, and the card as sent.
pub struct Listed {
    id: Uuid,
    /// Cents of a star (numeric(3, 2)).
    rating: i64,
    review_count: i32,
    total_sessions: i32,
    from_price: i64,
    created_at: DateTime<Utc>,
    /// One bit per service type ([`ServiceType::ALL`]'s order) the mentor offers.
    types: u8,
    view: Bytes,
}

fn type_bit(t: &ServiceType) -> u8 {
    ServiceType::ALL
        .iter()
        .position(|known| known == t)
        .map_or(0, |i| 1u8 << i)
}

/// "4.80" as 480.
fn rating_cents(rating: &str) -> Option<i64> {
    let (int, frac) = rating.split_once('.').unwrap_or((rating, ""));
    if int.is_empty() || frac.len() > 2 || !(int.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let frac = format!("{frac:0<2}");
    Some(int.parse::<i64>().ok()? * 100 + frac.parse::<i64>().ok()?)
}

/// The least rating in cents that is at least `min` (a plain decimal as `minRating` sends it):
/// `rating >= min` exactly as PostgreSQL compares numerics. `None` for any other spelling (an
/// exponent, ...), which the database answers instead.
fn min_rating_cents(min: &str) -> Option<i64> {
    let min = min.strip_prefix('+').unwrap_or(min);
    let (int, frac) = min.split_once('.').unwrap_or((min, ""));
    if (int.is_empty() && frac.is_empty()) || !(int.bytes().chain(frac.bytes())).all(|b| b.is_ascii_digit()) {
        return None;
    }
    let int = int.trim_start_matches('0');
    if int.len() > 3 {
        return None;
    }
    let whole: i64 = if int.is_empty() { 0 } else { int.parse().ok()? };
    let cents: i64 = format!("{:0<2}", frac.get(..2).unwrap_or(frac)).parse().ok()?;
    let beyond = frac.get(2..).is_some_and(|rest| rest.bytes().any(|b| b != b'0'));
    Some(whole * 100 + cents + i64::from(beyond))
}

impl Listed {
    fn new(m: MentorWithServices) -> Option<Self> {
        let types = m.services.iter().fold(0, |bits, s| bits | type_bit(&s.service_type));
        let listed = Self {
            id: m.mentor.id,
            rating: rating_cents(&m.mentor.rating)?,
            review_count: m.mentor.review_count,
            total_sessions: m.mentor.total_sessions,
            from_price: m.mentor.from_price_cents?,
            created_at: m.mentor.created_at,
            types,
            view: CachedJson::new(&MentorView::from(m)).bytes(),
        };
        Some(listed)
    }

    fn by_rating(a: &Self, b: &Self) -> Ordering {
        b.rating
            .cmp(&a.rating)
            .then(b.review_count.cmp(&a.review_count))
            .then(b.total_sessions.cmp(&a.total_sessions))
            .then(a.created_at.cmp(&b.created_at))
            .then(a.id.cmp(&b.id))
    }

    fn by_price(a: &Self, b: &Self) -> Ordering {
        a.from_price.cmp(&b.from_price).then_with(|| Self::by_rating(a, b))
    }

    fn by_sessions(a: &Self, b: &Self) -> Ordering {
        b.total_sessions
            .cmp(&a.total_sessions)
            .then(b.rating.cmp(&a.rating))
            .then(b.review_count.cmp(&a.review_count))
            .then(a.created_at.cmp(&b.created_at))
            .then(a.id.cmp(&b.id))
    }
}

/// Every listed mentor as of one generation of the cache.
pub struct Snapshot {
    /// The cache's generation this snapshot is as new as.
    generation: AtomicU64,
    by_id: HashMap<Uuid, Arc<Listed>>,
    by_rating: Vec<Arc<Listed>>,
    by_price: Vec<Arc<Listed>>,
    by_sessions: Vec<Arc<Listed>>,
}

impl Snapshot {
    fn build(generation: u64, by_id: HashMap<Uuid, Arc<Listed>>) -> Self {
        let sorted = |order: fn(&Listed, &Listed) -> Ordering| {
            let mut all: Vec<Arc<Listed>> = by_id.values().cloned().collect();
            all.sort_unstable_by(|a, b| order(a, b));
            all
        };
        Self {
            generation: AtomicU64::new(generation),
            by_rating: sorted(Listed::by_rating),
            by_price: sorted(Listed::by_price),
            by_sessions: sorted(Listed::by_sessions),
            by_id,
        }
    }

    pub fn generation(&self) -> u64 {
        self.generation.load(AtomicOrdering::SeqCst)
    }

    /// A snapshot of every listed mentor; `None` when one cannot be represented.
    pub fn read_all(generation: u64, mentors: Vec<MentorWithServices>) -> Option<Self> {
        let by_id = mentors
            .into_iter()
            .map(|m| Listed::new(m).map(|l| (l.id, Arc::new(l))))
            .collect::<Option<_>>()?;
        Some(Self::build(generation, by_id))
    }

    /// This snapshot with the mentors `touched` read again: `mentors` are those of them listed now.
    pub fn with_changes(
        &self,
        generation: u64,
        touched: &HashSet<Uuid>,
        mentors: Vec<MentorWithServices>,
    ) -> Option<Self> {
        let mut by_id = self.by_id.clone();
        by_id.retain(|id, _| !touched.contains(id));
        for m in mentors {
            let l = Listed::new(m)?;
            by_id.insert(l.id, Arc::new(l));
        }
        Some(Self::build(generation, by_id))
    }

    /// The page `listing` shows and the mentors on it, or `None` when the database answers it
    /// (a search; a rating spelled other than as a plain decimal).
    pub fn page(&self, listing: &Listing) -> Option<(Bytes, Vec<Uuid>)> {
        if listing.is_search() {
            return None;
        }
        let min_rating = match listing.min_rating() {
            Some(r) => Some(min_rating_cents(r)?),
            None => None,
        };
        let service = match listing.service() {
            Some(s) => Some(type_bit(&s.parse::<ServiceType>().ok()?)),
            None => None,
        };
        let (min_price, max_price) = (listing.min_price(), listing.max_price());
        let order = match listing.sort() {
            Sort::Relevance | Sort::Rating => &self.by_rating,
            Sort::Price => &self.by_price,
            Sort::Sessions => &self.by_sessions,
        };
        let size = usize::try_from(listing.page_size()).ok()?;
        let offset = usize::try_from((listing.page() - 1) * listing.page_size()).ok()?;
        let mut total = 0usize;
        let mut shown: Vec<&Listed> = Vec::with_capacity(size);
        for m in order {
            if service.is_some_and(|bit| m.types & bit == 0)
                || min_price.is_some_and(|p| m.from_price < p)
                || max_price.is_some_and(|p| m.from_price > p)
                || min_rating.is_some_and(|r| m.rating < r)
            {
                continue;
            }
            if total >= offset && shown.len() < size {
                shown.push(m);
            }
            total += 1;
        }
        let frame = CachedJson::new(&MentorsPage {
            mentors: Vec::new(),
            total: total as i64,
            page: listing.page(),
            page_size: listing.page_size(),
        })
        .bytes();
        Some((splice(&frame, &shown)?, shown.iter().map(|m| m.id).collect()))
    }
}

/// The page's JSON with the cards' bytes inside its empty `mentors` array: the bytes serialising
/// the whole page would give.
fn splice(frame: &[u8], shown: &[&Listed]) -> Option<Bytes> {
    const EMPTY: &[u8] = b"\"mentors\":[]";
    let at = frame.windows(EMPTY.len()).position(|w| w == EMPTY)? + EMPTY.len() - 1;
    let mut out = Vec::with_capacity(frame.len() + shown.iter().map(|m| m.view.len() + 1).sum::<usize>());
    out.extend_from_slice(&frame[..at]);
    for (i, m) in shown.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(&m.view);
    }
    out.extend_from_slice(&frame[at..]);
    Some(Bytes::from(out))
}

/// How long the refresher waits after the database failed it.
const RETRY_AFTER: Duration = Duration::from_secs(1);

/// Keeps the snapshot as new as the cache's changes while the process runs: reads the
/// generation, then takes what changed (marked before each change counts), then reads those
/// mentors, so what it stores is as new as the generation it read.
pub async fn keep(pool: PgPool, cache: Arc<CatalogueCache>) {
    loop {
        let generation = cache.generation();
        let dirty = std::mem::take(&mut *cache.dirty.lock().unwrap_or_else(PoisonError::into_inner));
        let base = cache.snapshot();
        let read = match base {
            Some(base) if !dirty.all => {
                if dirty.ids.is_empty() {
                    // Every change up to `generation` marked its mentors before it counted, and
                    // earlier rounds read them into `base`: it is as new as `generation`.
                    base.generation.fetch_max(generation, AtomicOrdering::SeqCst);
                    Ok(None)
                } else {
                    let ids: Vec<Uuid> = dirty.ids.iter().copied().collect();
                    listed::listed(&pool, Some(&ids))
                        .await
                        .map(|mentors| base.with_changes(generation, &dirty.ids, mentors))
                }
            }
            _ => listed::listed(&pool, None)
                .await
                .map(|mentors| Snapshot::read_all(generation, mentors)),
        };
        match read {
            Ok(Some(snapshot)) => cache.set_snapshot(snapshot),
            Ok(None) if dirty.all || !dirty.ids.is_empty() => {
                tracing::warn!("a listed mentor cannot be kept in memory; listings are read from the database");
                cache.drop_snapshot();
            }
            Ok(None) => {}
            Err(err) => {
                tracing::warn!(error = %err, "cannot read the listed mentors; listings are read from the database");
                cache.dirty.lock().unwrap_or_else(PoisonError::into_inner).all = true;
                tokio::time::sleep(RETRY_AFTER).await;
                continue;
            }
        }
        if cache.generation() == generation {
            cache.refresh.notified().await;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratings_compare_as_postgresql_compares_numerics() {
        assert_eq!(rating_cents("4.80"), Some(480));
        assert_eq!(rating_cents("0.00"), Some(0));
        assert_eq!(rating_cents("5"), Some(500));
        assert_eq!(min_rating_cents("4.5"), Some(450));
        assert_eq!(min_rating_cents("4.50000"), Some(450));
        assert_eq!(min_rating_cents("4.501"), Some(451));
        assert_eq!(min_rating_cents("4.5000001"), Some(451));
        assert_eq!(min_rating_cents("+.5"), Some(50));
        assert_eq!(min_rating_cents("4."), Some(400));
        assert_eq!(min_rating_cents("004"), Some(400));
        assert_eq!(min_rating_cents("0"), Some(0));
        for other in ["4.5e0", "inf", ".", "", "-0", "4,5", "1e1"] {
            assert_eq!(min_rating_cents(other), None, "{other}");
        }
    }
}
