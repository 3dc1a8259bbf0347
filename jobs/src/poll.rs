//! How often an idle worker looks for due tasks.
//!
//! apalis' stock interval strategy re-arms its timer without polling it, so a wake-up can be
//! lost and scheduled tasks start up to 30 s late. This one drains every ready tick and leaves
//! the interval polled (and so the waker registered) before it returns.

use std::{
    task::{Context, Poll},
    time::Duration,
};

use apalis::prelude::{PollSnapshot, PollStrategy};
use tokio::time::{Interval, MissedTickBehavior};

pub struct Every {
    period: Duration,
    /// The pause before the first poll (a restarted worker backs off).
    first_after: Duration,
    interval: Option<Interval>,
}

impl Every {
    pub fn new(period: Duration) -> Self {
        Self { period, first_after: Duration::ZERO, interval: None }
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
        if fired { Poll::Ready(Some(())) } else { Poll::Pending }
    }
}
