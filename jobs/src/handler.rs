//! What a job does when it runs: its [`Handler`]. Every job of `domain::every_job!` has one, in
//! its module of this crate (`crate::reservation_expiry` for `domain::booking::jobs::ExpireHold`,
//! say); the registry makes its worker from it, so a job listed without a handler does not compile.

use std::future::Future;

use apalis::prelude::{Attempt, BoxDynError, Data, TaskId};
use domain::job_queue::Job;

use crate::context::JobContext;

pub trait Handler: Job {
    /// Runs one task: keep it thin (a domain function in a transaction, the next jobs queued in
    /// it, commit). `Err` tries it again with backoff until `Job::MAX_ATTEMPTS`; `attempt` says
    /// which try this is.
    fn handle(self, ctx: Data<JobContext>, attempt: Attempt) -> impl Future<Output = Result<(), BoxDynError>> + Send;

    /// What the runner calls for one task: [`Handler::handle`], unless the job needs its task's
    /// own id (`task`, apalis' id in `apalis.jobs`: the same on every run of the task, never another
    /// task's). The e-mails key each mail by it, so a task run again sends no mail twice.
    fn run(
        self,
        ctx: Data<JobContext>,
        attempt: Attempt,
        task: TaskId,
    ) -> impl Future<Output = Result<(), BoxDynError>> + Send {
        let _ = task;
        self.handle(ctx, attempt)
    }
}
