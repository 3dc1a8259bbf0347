//! A per-socket token bucket: [`FRAMES_PER_SECOND`] sustained, bursts up to [`BURST`].

use std::time::{Duration, Instant};

pub const FRAMES_PER_SECOND: f64 = 20.0;
pub const BURST: f64 = 40.0;
pub const TOO_MANY: &str = "Too many messages: slow down";

pub struct TokenBucket {
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    pub fn new(now: Instant) -> Self {
        Self {
            tokens: BURST,
            last: now,
        }
    }

    /// Takes one frame's token; false when the socket is over its rate (drop the frame).
    pub fn take(&mut self, now: Instant) -> bool {
        let refill = now.saturating_duration_since(self.last).as_secs_f64() * FRAMES_PER_SECOND;
        self.tokens = (self.tokens + refill).min(BURST);
        self.last = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// How long a full bucket lasts under a flood (for tests and the docs).
pub fn burst_lasts() -> Duration {
    Duration::from_secs_f64(BURST / FRAMES_PER_SECOND)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_burst_of_40_then_20_per_second() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(start);
        assert!((0..40).all(|_| bucket.take(start)));
        assert!(!bucket.take(start), "the 41st frame at once is dropped");
        let later = start + Duration::from_millis(50);
        assert!(bucket.take(later), "one frame's worth refills in 50 ms");
        assert!(!bucket.take(later));
        // Sustained 20 per second keeps passing.
        let mut t = later;
        for _ in 0..100 {
            t += Duration::from_millis(50);
            assert!(bucket.take(t));
        }
        assert_eq!(burst_lasts(), Duration::from_secs(2));
    }

    #[test]
    fn an_idle_bucket_holds_no_more_than_the_burst() {
        let start = Instant::now();
        let mut bucket = TokenBucket::new(start);
        let much_later = start + Duration::from_secs(3600);
        assert_eq!((0..100).filter(|_| bucket.take(much_later)).count(), 40);
    }
}
