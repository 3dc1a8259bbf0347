//! Catalogue reads from a streaming replica (`DATABASE_READ_URL`, optional): mentor listings and
//! searches, mentor pages with their reviews, service pages and available slots and days. Every
//! other read, every write and every read of a request that writes use the primary.
//!
//! A read goes to the replica only when the replica can answer as the primary would:
//! - it answers and lags at most [`MAX_LAG`] (checked every [`CHECK_EVERY`]); otherwise it is
//!   skipped, which `/api/health` and `/metrics` show;
//! - the reader's own last write (the [`READ_AFTER_COOKIE`] the api sets after every successful
//!   write: the primary's position then) has been replayed there, in whichever api process the
//!   reader comes back to (no sticky sessions);
//! - every catalogue change this process has heard (`catalogue_changed`, which empties its cache)
//!   has been replayed there: this process's check after the change reads the primary's position,
//!   and until the replica has passed it the cache refills from the primary. Other processes so
//!   see a change as soon as they do without a replica.
//!
//! A replica read that fails for want of the replica (it stopped) is done again on the primary at
//! once, and the replica is skipped until a check finds it answering. docs/operations.md.

use std::{
    future::Future,
    sync::{Arc, Mutex, PoisonError},
    time::Duration,
};

use poem::{
    Request,
    web::cookie::{Cookie, SameSite},
};
use sqlx::PgPool;
use tokio::time::Instant;

use domain::replication::{self, LagTracker, Lsn};

use crate::{catalogue_cache::CatalogueCache, error::ApiError, error::ApiResult};

/// A replica further behind the primary than this is skipped: its reads go to the primary.
pub const MAX_LAG: Duration = Duration::from_secs(5);
/// How often each api process checks where the primary and the replica are.
pub const CHECK_EVERY: Duration = Duration::from_millis(200);
/// A replica that does not say where it is within this is down.
pub const CHECK_TIMEOUT: Duration = Duration::from_secs(1);
/// How long a replica read waits for a connection before it is done on the primary instead.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_millis(500);
/// The environment variable naming the replica.
pub const READ_URL_VAR: &str = replication::READ_URL_VAR;
/// The cookie carrying the primary's position after the user's last write.
pub const READ_AFTER_COOKIE: &str = "read_after";
/// How long the cookie lasts: far longer than [`MAX_LAG`], so a replica that is used again has
/// replayed any write whose cookie has gone.
pub const READ_AFTER_MAX_AGE: Duration = Duration::from_secs(300);

/// The replica as the last check found it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReplicaState {
    /// Answering and at most [`MAX_LAG`] behind: catalogue reads go there.
    Ok,
    /// Answering but further behind (or not yet past where this process started watching): skipped.
    Lagging,
    /// Not answering: skipped.
    Down,
}

impl ReplicaState {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Ok => "ok",
            Self::Lagging => "lagging",
            Self::Down => "down",
        }
    }
}

/// Where one read goes, and why when it is the primary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Source {
    Replica,
    Primary(Why),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// No `DATABASE_READ_URL`.
    NoReplica,
    /// The replica lags or is down.
    Skipped,
    /// The reader's own last write is not replayed there yet.
    OwnWrite,
    /// A catalogue change this process heard is not replayed there yet.
    RecentChange,
    /// The replica failed this read.
    Fallback,
}

impl Why {
    fn as_str(self) -> &'static str {
        match self {
            Self::NoReplica => "no_replica",
            Self::Skipped => "skipped",
            Self::OwnWrite => "own_write",
            Self::RecentChange => "recent_change",
            Self::Fallback => "fallback",
        }
    }
}

struct Status {
    state: ReplicaState,
    lag: Option<Duration>,
    tracker: LagTracker,
    /// The primary's position after the last catalogue change this process heard.
    fence: Lsn,
    /// The cache generation `fence` covers; another generation means a change with no fence yet.
    fenced_generation: Option<u64>,
}

struct Replica {
    pool: PgPool,
    status: Mutex<Status>,
}

/// The database a catalogue read uses (`AppState::reads`).
pub struct Reads {
    primary: PgPool,
    replica: Option<Replica>,
    catalogue: Arc<CatalogueCache>,
}

impl Reads {
    /// Reads from `DATABASE_READ_URL` when it is set (connecting when first used: a replica that is
    /// down at start-up is skipped, not fatal), else from `primary` only.
    pub fn from_env(primary: PgPool, catalogue: Arc<CatalogueCache>) -> anyhow::Result<Self> {
        let url = std::env::var(READ_URL_VAR).ok().filter(|u| !u.trim().is_empty());
        let replica = match url {
            None => None,
            Some(url) => {
                if !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
                    anyhow::bail!("{READ_URL_VAR} must be a postgres:// URL");
                }
                let pool = domain::db::connect_later(&url, READ_URL_VAR, crate::POOL_SIZE, ACQUIRE_TIMEOUT)?;
                // Skipped until the first check has found it caught up.
                metrics::gauge!("replica_skipped").set(1.0);
                Some(Replica {
                    pool,
                    status: Mutex::new(Status {
                        state: ReplicaState::Lagging,
                        lag: None,
                        tracker: LagTracker::default(),
                        fence: Lsn::default(),
                        fenced_generation: None,
                    }),
                })
            }
        };
        Ok(Self {
            primary,
            replica,
            catalogue,
        })
    }

    pub fn has_replica(&self) -> bool {
        self.replica.is_some()
    }

    /// Starts checking the replica every [`CHECK_EVERY`] while the process runs.
    pub fn start(self: &Arc<Self>) {
        if self.replica.is_none() {
            return;
        }
        let reads = self.clone();
        tokio::spawn(async move {
            let mut every = tokio::time::interval(CHECK_EVERY);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                every.tick().await;
                reads.check().await;
            }
        });
    }

    /// The replica's state and lag (`None` without a replica; a lag of `None` is unknown).
    pub fn health(&self) -> Option<(ReplicaState, Option<Duration>)> {
        let replica = self.replica.as_ref()?;
        let status = replica.status.lock().unwrap_or_else(PoisonError::into_inner);
        Some((status.state, status.lag))
    }

    /// Where a catalogue read of a request carrying `after` (its last write's position) goes now.
    pub fn choose(&self, after: Option<Lsn>) -> Source {
        let Some(replica) = &self.replica else {
            return Source::Primary(Why::NoReplica);
        };
        let generation = self.catalogue.generation();
        let status = replica.status.lock().unwrap_or_else(PoisonError::into_inner);
        let replayed = status.tracker.replayed_up_to();
        match replayed {
            _ if status.state != ReplicaState::Ok => Source::Primary(Why::Skipped),
            None => Source::Primary(Why::Skipped),
            Some(replayed) if after.is_some_and(|after| after > replayed) => Source::Primary(Why::OwnWrite),
            Some(replayed) if status.fenced_generation != Some(generation) || status.fence > replayed => {
                Source::Primary(Why::RecentChange)
            }
            Some(_) => Source::Replica,
        }
    }

    /// Runs the catalogue read `read` on the database [`Self::choose`] picks for `req` (none: a
    /// reader without a cookie); a replica read that fails for want of the replica runs again on
    /// the primary.
    pub async fn run<T, F, Fut>(&self, req: Option<&Request>, read: F) -> ApiResult<T>
    where
        F: Fn(PgPool) -> Fut,
        Fut: Future<Output = ApiResult<T>>,
    {
        let source = self.choose(req.and_then(read_after));
        counted(source);
        match (source, &self.replica) {
            (Source::Replica, Some(replica)) => match read(replica.pool.clone()).await {
                Err(ApiError::ServiceUnavailable(_)) => {
                    self.skip_until_checked();
                    counted(Source::Primary(Why::Fallback));
                    read(self.primary.clone()).await
                }
                other => other,
            },
            _ => read(self.primary.clone()).await,
        }
    }

    /// The replica failed a read: skipped until a check finds it answering.
    fn skip_until_checked(&self) {
        if let Some(replica) = &self.replica {
            let mut status = replica.status.lock().unwrap_or_else(PoisonError::into_inner);
            if status.state == ReplicaState::Ok {
                tracing::warn!("the replica failed a read; catalogue reads go to the primary until it answers");
            }
            status.state = ReplicaState::Down;
            gauges(&status);
        }
    }

    /// One check: the primary's position (read after the cache generation, so it covers every
    /// change heard so far), then how far the replica has replayed.
    async fn check(&self) {
        let Some(replica) = &self.replica else { return };
        let generation = self.catalogue.generation();
        let primary = replication::primary_position(&self.primary).await;
        let replayed = tokio::time::timeout(CHECK_TIMEOUT, replication::replayed_position(&replica.pool)).await;
        let now = Instant::now();
        let mut status = replica.status.lock().unwrap_or_else(PoisonError::into_inner);
        if let Ok(at) = primary {
            status.tracker.primary_at(now, at);
            if status.fenced_generation != Some(generation) {
                status.fence = status.fence.max(at);
                status.fenced_generation = Some(generation);
            }
        }
        let answered = match replayed {
            // A server that is not a replica is as new as the primary.
            Ok(Ok(at)) => {
                status.tracker.replayed(at.unwrap_or(Lsn(u64::MAX)));
                true
            }
            Ok(Err(err)) => {
                if status.state != ReplicaState::Down {
                    tracing::warn!(error = %err, "the replica does not answer; catalogue reads go to the primary");
                }
                false
            }
            Err(_) => {
                if status.state != ReplicaState::Down {
                    tracing::warn!("the replica does not answer in time; catalogue reads go to the primary");
                }
                false
            }
        };
        status.lag = status.tracker.lag(now);
        let state = match status.lag {
            _ if !answered => ReplicaState::Down,
            Some(lag) if lag <= MAX_LAG => ReplicaState::Ok,
            _ => ReplicaState::Lagging,
        };
        if state != status.state {
            match state {
                ReplicaState::Ok => tracing::info!("the replica is in use for catalogue reads"),
                ReplicaState::Lagging => tracing::warn!(
                    lag_seconds = status.lag.map(|l| l.as_secs_f64()),
                    "the replica lags; catalogue reads go to the primary"
                ),
                ReplicaState::Down => {}
            }
        }
        status.state = state;
        gauges(&status);
    }
}

/// The position of the reader's last write, from [`READ_AFTER_COOKIE`].
pub fn read_after(req: &Request) -> Option<Lsn> {
    req.cookie().get(READ_AFTER_COOKIE)?.value_str().parse().ok()
}

/// The cookie saying the reader wrote up to `at` (nothing secret: a position in the log).
pub fn read_after_cookie(at: Lsn, secure: bool) -> Cookie {
    let mut cookie = Cookie::new_with_str(READ_AFTER_COOKIE, at.to_string());
    cookie.set_http_only(true);
    cookie.set_same_site(SameSite::Lax);
    cookie.set_path("/");
    cookie.set_secure(secure);
    cookie.set_max_age(READ_AFTER_MAX_AGE);
    cookie
}

/// Describes the replica's metrics and sets them at their starting values.
pub fn describe_metrics() {
    use metrics::{Unit, describe_counter, describe_gauge};
    describe_counter!(
        "catalogue_reads_total",
        "Catalogue reads (listings, searches, mentor and service pages, slots) by the database that served them: replica or primary"
    );
    describe_counter!(
        "catalogue_primary_reads_total",
        "Catalogue reads served by the primary, by reason: no_replica, skipped, own_write, recent_change, fallback"
    );
    describe_gauge!(
        "replica_lag_seconds",
        Unit::Seconds,
        "How long the replica has been behind the primary (0 caught up; -1 unknown)"
    );
    describe_gauge!(
        "replica_skipped",
        "1 while the configured replica lags more than 5 s or is down: its reads go to the primary"
    );
    for source in ["replica", "primary"] {
        metrics::counter!("catalogue_reads_total", "source" => source).absolute(0);
    }
    metrics::gauge!("replica_lag_seconds").set(-1.0);
    metrics::gauge!("replica_skipped").set(0.0);
}

fn counted(source: Source) {
    match source {
        Source::Replica => metrics::counter!("catalogue_reads_total", "source" => "replica").increment(1),
        Source::Primary(why) => {
            metrics::counter!("catalogue_reads_total", "source" => "primary").increment(1);
            metrics::counter!("catalogue_primary_reads_total", "reason" => why.as_str()).increment(1);
        }
    }
}

fn gauges(status: &Status) {
    metrics::gauge!("replica_lag_seconds").set(status.lag.map_or(-1.0, |l| l.as_secs_f64()));
    metrics::gauge!("replica_skipped").set(if status.state == ReplicaState::Ok { 0.0 } else { 1.0 });
}

#[cfg(test)]
mod tests {
    use super::*;

    fn reads_with(state: ReplicaState, replayed: u64, fence: u64, fenced: Option<u64>) -> Reads {
        let pool = PgPool::connect_lazy("postgres://nobody@127.0.0.1:1/none").unwrap();
        let mut tracker = LagTracker::default();
        tracker.primary_at(Instant::now(), Lsn(replayed));
        tracker.replayed(Lsn(replayed));
        Reads {
            primary: pool.clone(),
            replica: Some(Replica {
                pool,
                status: Mutex::new(Status {
                    state,
                    lag: tracker.lag(Instant::now()),
                    tracker,
                    fence: Lsn(fence),
                    fenced_generation: fenced,
                }),
            }),
            catalogue: Arc::new(CatalogueCache::new()),
        }
    }

    #[tokio::test]
    async fn reads_go_to_the_replica_only_when_it_has_what_the_reader_must_see() {
        let generation = CatalogueCache::new().generation();
        let caught_up = reads_with(ReplicaState::Ok, 100, 90, Some(generation));
        assert_eq!(caught_up.choose(None), Source::Replica);
        assert_eq!(
            caught_up.choose(Some(Lsn(100))),
            Source::Replica,
            "its own write replayed"
        );
        assert_eq!(caught_up.choose(Some(Lsn(101))), Source::Primary(Why::OwnWrite));
        let behind_a_change = reads_with(ReplicaState::Ok, 100, 120, Some(generation));
        assert_eq!(behind_a_change.choose(None), Source::Primary(Why::RecentChange));
        let change_not_fenced = reads_with(ReplicaState::Ok, 100, 0, None);
        assert_eq!(change_not_fenced.choose(None), Source::Primary(Why::RecentChange));
        for skipped in [ReplicaState::Lagging, ReplicaState::Down] {
            assert_eq!(
                reads_with(skipped, 100, 0, Some(generation)).choose(None),
                Source::Primary(Why::Skipped)
            );
        }
    }

    #[tokio::test]
    async fn a_change_heard_sends_reads_to_the_primary_until_a_check_fences_it() {
        let reads = reads_with(ReplicaState::Ok, 100, 0, Some(CatalogueCache::new().generation()));
        assert_eq!(reads.choose(None), Source::Replica);
        reads.catalogue.forget_all();
        assert_eq!(reads.choose(None), Source::Primary(Why::RecentChange));
    }

    #[test]
    fn the_lag_rule_is_five_seconds_and_the_cookie_outlives_it() {
        assert_eq!(MAX_LAG, Duration::from_secs(5));
        assert!(READ_AFTER_MAX_AGE > MAX_LAG * 10);
        let cookie = read_after_cookie(Lsn(0x1_0000_00FF), false);
        assert_eq!(cookie.value_str(), "1/FF");
        assert!(cookie.http_only());
    }
}
