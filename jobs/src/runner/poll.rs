//! When a queue's worker looks for due tasks: when its [`Bell`] rings (see `wakeups`), and on
//! its own every so often as a safety net.
//!
//! apalis' stock interval strategy re-arms its timer without polling it, so a wake-up can be
//! lost and scheduled tasks start up to 30 s late. [`Every`] drains every ready tick and leaves
//! the interval polled (and so the waker registered) before it returns.

use std::{
    sync::Arc,
    task::{Context, Poll},
    time::Duration,
};

use apalis::prelude::{PollSnapshot, PollStrategy};
use tokio::time::{Interval, MissedTickBehavior};

use super::wakeups::Bell;

pub struct Every {
    period: Duration,
    /// The pause before the first poll (a restarted worker backs off).
    first_after: Duration,
    interval: Option<Interval>,
    /// Whether the first tick has come (the back-off of a restarted worker is over).
    started: bool,
}

impl Every {
    pub fn new(period: Duration) -> Self {
        Self {
            period,
            first_after: Duration::ZERO,
            interval: None,
            started: false,
        }
    }

    pub fn first_after(mut self, delay: Duration) -> Self {
        self.first_after = delay;
        self
    }
}

impl Clone for Every {
    fn clone(&self) -> Self {
        Self::new(self.period).first_after(self.first_after)
    }
}

impl PollStrategy for Every {
    fn poll_drive(&mut self, cx: &mut Context<'_>, _: &PollSnapshot) -> Poll<Option<()>> {
        let (period, first_after) = (self.period, self.first_after);
        let interval = self.interval.get_or_insert_with(|| {
            let mut i = tokio::time::interval_at(tokio::time::Instant::now() + first_after, period);
            i.set_missed_tick_behavior(MissedTickBehavior::Delay);
            i
        });
        let mut fired = false;
        while interval.poll_tick(cx).is_ready() {
            fired = true;
        }
        self.started |= fired;
        if fired { Poll::Ready(Some(())) } else { Poll::Pending }
    }
}

/// Polls when `bell` rings and every `safety.period`. A restarted worker listens to its bell
/// only once its back-off (`Every::first_after`) is over; a ring meanwhile is kept.
pub struct Woken {
    bell: Arc<Bell>,
    safety: Every,
}

impl Woken {
    pub fn new(bell: Arc<Bell>, safety: Every) -> Self {
        Self { bell, safety }
    }
}

impl PollStrategy for Woken {
    fn poll_drive(&mut self, cx: &mut Context<'_>, snapshot: &PollSnapshot) -> Poll<Option<()>> {
        let ticked = self.safety.poll_drive(cx, snapshot).is_ready();
        if !self.safety.started {
            return Poll::Pending;
        }
        self.bell.register(cx.waker());
        if self.bell.take() || ticked {
            Poll::Ready(Some(()))
        } else {
            Poll::Pending
        }
    }
}

#[cfg(test)]
mod tests {
    use futures::task::noop_waker_ref;

    use super::*;

    fn drive(strategy: &mut impl PollStrategy) -> bool {
        let mut cx = Context::from_waker(noop_waker_ref());
        strategy.poll_drive(&mut cx, &PollSnapshot::default()).is_ready()
    }

    #[tokio::test(start_paused = true)]
    async fn a_ring_wakes_the_worker_at_once_and_the_safety_poll_still_ticks() {
        let bell = Arc::new(Bell::default());
        let mut woken = Woken::new(bell.clone(), Every::new(Duration::from_secs(30)));
        assert!(drive(&mut woken), "the first tick is at once");
        assert!(!drive(&mut woken));
        bell.ring();
        assert!(drive(&mut woken));
        assert!(!drive(&mut woken));
        tokio::time::advance(Duration::from_secs(30)).await;
        assert!(drive(&mut woken));
    }

    #[tokio::test(start_paused = true)]
    async fn a_restarted_worker_hears_its_bell_only_after_its_back_off() {
        let bell = Arc::new(Bell::default());
        let mut woken = Woken::new(
            bell.clone(),
            Every::new(Duration::from_secs(30)).first_after(Duration::from_secs(2)),
        );
        bell.ring();
        assert!(!drive(&mut woken));
        tokio::time::advance(Duration::from_secs(2)).await;
        assert!(drive(&mut woken));
        assert!(!drive(&mut woken));
    }
}
