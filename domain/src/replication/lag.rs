//! How far behind the replica is, measured against the primary's positions as this process saw
//! them: the lag is how long ago the primary first had a position the replica has not replayed.
//! An idle primary gives no lag (nothing to replay), unlike `pg_last_xact_replay_timestamp()`.

use std::{collections::VecDeque, time::Duration};

use tokio::time::Instant;

use super::Lsn;

/// Positions remembered at most (one per check that saw the primary move: minutes of checks);
/// past it no newer one is kept, so the oldest, which sets the lag, stays.
const MAX_REMEMBERED: usize = 4096;

#[derive(Default)]
pub struct LagTracker {
    /// Positions of the primary the replica has not replayed, oldest first, each with when this
    /// process first saw it.
    unreplayed: VecDeque<(Instant, Lsn)>,
    /// The first position this process saw on the primary: until the replica has passed it,
    /// its lag is unknown (it may be behind by more than this process has been watching).
    first: Option<Lsn>,
    replayed: Option<Lsn>,
}

impl LagTracker {
    /// The primary was at `at` at `now`.
    pub fn primary_at(&mut self, now: Instant, at: Lsn) {
        self.first.get_or_insert(at);
        let newer = self.unreplayed.back().is_none_or(|(_, last)| at > *last);
        let ahead = self.replayed.is_none_or(|r| at > r);
        if newer && ahead && self.unreplayed.len() < MAX_REMEMBERED {
            self.unreplayed.push_back((now, at));
        }
    }

    /// The replica has replayed up to `at`.
    pub fn replayed(&mut self, at: Lsn) {
        let at = self.replayed.map_or(at, |r| r.max(at));
        self.replayed = Some(at);
        while self.unreplayed.front().is_some_and(|(_, p)| *p <= at) {
            self.unreplayed.pop_front();
        }
    }

    /// How far the replica replayed, as last heard.
    pub fn replayed_up_to(&self) -> Option<Lsn> {
        self.replayed
    }

    /// How long the replica has been behind a position of the primary; `None` while unknown
    /// (nothing heard from one of them yet, or the replica not past where this process started).
    pub fn lag(&self, now: Instant) -> Option<Duration> {
        let (first, replayed) = (self.first?, self.replayed?);
        if replayed < first {
            return None;
        }
        Some(
            self.unreplayed
                .front()
                .map_or(Duration::ZERO, |(seen, _)| now.saturating_duration_since(*seen)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lag_is_the_age_of_the_oldest_position_not_replayed() {
        let t0 = Instant::now();
        let at = |ms| t0 + Duration::from_millis(ms);
        let mut lag = LagTracker::default();
        assert_eq!(lag.lag(t0), None, "nothing known yet");
        lag.primary_at(at(0), Lsn(100));
        assert_eq!(lag.lag(at(0)), None, "the replica not heard");
        lag.replayed(Lsn(90));
        assert_eq!(lag.lag(at(10)), None, "behind where this process started: unknown");
        lag.replayed(Lsn(100));
        assert_eq!(lag.lag(at(10)), Some(Duration::ZERO), "caught up");
        lag.primary_at(at(1000), Lsn(150));
        lag.primary_at(at(1200), Lsn(150));
        lag.primary_at(at(2000), Lsn(200));
        assert_eq!(
            lag.lag(at(7000)),
            Some(Duration::from_secs(6)),
            "behind since 150 was first seen"
        );
        lag.replayed(Lsn(170));
        assert_eq!(lag.lag(at(7000)), Some(Duration::from_secs(5)), "behind since 200");
        lag.replayed(Lsn(120));
        assert_eq!(lag.replayed_up_to(), Some(Lsn(170)), "never goes back");
        lag.replayed(Lsn(200));
        assert_eq!(lag.lag(at(9000)), Some(Duration::ZERO));
        // An idle primary: the same position again and again is never lag.
        lag.primary_at(at(20_000), Lsn(200));
        assert_eq!(lag.lag(at(60_000)), Some(Duration::ZERO));
    }
}
