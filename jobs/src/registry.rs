//! Every job's worker and cron loop, made from the one list of jobs (`domain::every_job!`) and
//! each job's [`Handler`].

use apalis::prelude::Monitor;
use sqlx::PgPool;

use crate::{
    context::JobContext,
    handler::Handler,
    runner::{self, Settings, wakeups::Wakeups},
};

pub use domain::jobs::{QUEUES, schedules, sweeps};

macro_rules! register {
    ($($kind:ident $job:ty;)*) => {
        fn register_all(m: Monitor, ctx: &JobContext, settings: &Settings, wakeups: &Wakeups) -> Monitor {
            $(
                let m = {
                    let (ctx, settings, wakeups) = (ctx.clone(), settings.clone(), wakeups.clone());
                    m.register(move |restarts: usize| {
                        runner::worker::<$job>(&ctx.pool, &settings, &wakeups, restarts)
                            .data(ctx.clone())
                            .build(<$job as Handler>::run)
                    })
                };
            )*
            m
        }

        /// The cron loops of every sweep; they run until the process stops.
        pub fn spawn_schedules(pool: PgPool) {
            $(register!(@schedule $kind $job, pool);)*
        }
    };
    (@schedule job $job:ty, $pool:ident) => {};
    (@schedule sweep $job:ty, $pool:ident) => {
        tokio::spawn(runner::schedule::run::<$job>($pool.clone()));
    };
}

domain::every_job!(register);

/// Sets aside what no worker could decode, in every queue, before the workers start.
pub async fn set_aside_undecodable(pool: &PgPool) -> anyhow::Result<()> {
    runner::set_aside_undecodable(pool, QUEUES).await
}

/// Every job's worker, ready to run; a worker that ends with an error is restarted.
pub fn monitor(ctx: JobContext, settings: Settings) -> Monitor {
    let wakeups = Wakeups::start(&ctx.pool, QUEUES);
    monitor_with(ctx, settings, &wakeups)
}

/// [`monitor`] with the caller's [`Wakeups`] (which must know every queue in [`QUEUES`]), for
/// a process that also registers queues of its own (the benchmark's).
pub fn monitor_with(ctx: JobContext, settings: Settings, wakeups: &Wakeups) -> Monitor {
    let m = runner::supervised(&ctx.pool);
    register_all(m, &ctx, &settings, wakeups)
}
