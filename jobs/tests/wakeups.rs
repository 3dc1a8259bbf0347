//! Queues are woken when they have work, not by polling: with a safety poll of an hour, a task
//! queued now and one scheduled a moment ahead still run; and two worker processes sharing a
//! queue run each task once.

mod support;

use std::time::Duration;

use apalis::prelude::{BoxDynError, Data, Monitor, TaskBuilder};
use domain::job_queue::Job;
use jobs::{
    Settings,
    runner::{self, limits::FETCH_BATCH, wakeups::Wakeups},
};
use serde::{Deserialize, Serialize};
use sqlx::PgPool;
use support::eventually;

#[derive(Clone, Debug, Serialize, Deserialize)]
struct Ping {
    id: i64,
}

impl Job for Ping {
    const QUEUE: &'static str = "test_ping";
    const MAX_ATTEMPTS: usize = 1;
}

async fn ping(job: Ping, pool: Data<PgPool>) -> Result<(), BoxDynError> {
    sqlx::query("INSERT INTO test_pings (id, ran_at) VALUES ($1, now())")
        .bind(job.id)
        .execute(&*pool)
        .await?;
    Ok(())
}

/// Polls on its own (and, after each heartbeat, apalis polls too) only once an hour: anything
/// sooner is a wake-up.
fn hourly() -> Settings {
    let hour = Duration::from_secs(3600);
    Settings {
        poll_every: hour,
        heartbeat: hour,
        ..support::fast()
    }
}

/// One worker process's view: its own wake-ups and one worker for `Ping`.
fn start_process(pool: &PgPool) -> support::Workers {
    let pool = pool.clone();
    let wakeups = Wakeups::start(&pool, &[Ping::QUEUE]);
    support::Workers::spawn(async move {
        let monitor = Monitor::new().register(move |restarts: usize| {
            runner::worker::<Ping>(&pool, &hourly(), &wakeups, restarts)
                .data(pool.clone())
                .build(ping)
        });
        let _ = monitor.run().await;
    })
}

async fn setup(pool: &PgPool) {
    domain::job_queue::storage::setup(pool).await.unwrap();
    sqlx::query("CREATE TABLE test_pings (id bigint NOT NULL, ran_at timestamptz NOT NULL)")
        .execute(pool)
        .await
        .unwrap();
}

async fn runs(pool: &PgPool, id: i64) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM test_pings WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn enqueue(pool: &PgPool, id: i64, at: Option<chrono::DateTime<chrono::Utc>>) {
    let mut conn = pool.acquire().await.unwrap();
    match at {
        Some(at) => Ping { id }.enqueue_at(&mut conn, at).await.unwrap(),
        None => Ping { id }.enqueue(&mut conn).await.unwrap(),
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn an_idle_queue_wakes_for_a_task_queued_now_and_one_falling_due(pool: PgPool) {
    setup(&pool).await;
    let _process = start_process(&pool);
    // The first may be taken by the worker's first fetch at start; the second comes to a
    // queue that has gone idle.
    enqueue(&pool, 1, None).await;
    eventually(30, || async { (runs(&pool, 1).await == 1).then_some(()) }).await;
    enqueue(&pool, 2, None).await;
    eventually(30, || async { (runs(&pool, 2).await == 1).then_some(()) }).await;

    let due = chrono::Utc::now() + chrono::Duration::seconds(2);
    enqueue(&pool, 3, Some(due)).await;
    eventually(30, || async { (runs(&pool, 3).await == 1).then_some(()) }).await;
    let ran_at: chrono::DateTime<chrono::Utc> = sqlx::query_scalar("SELECT ran_at FROM test_pings WHERE id = 3")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!(
        ran_at >= domain::job_queue::not_before(due),
        "a scheduled task never starts early"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn two_processes_run_each_task_once(pool: PgPool) {
    setup(&pool).await;
    let tasks = 3 * FETCH_BATCH as i64;
    let _first = start_process(&pool);
    let _second = start_process(&pool);
    let batch = (0..tasks)
        .map(|id| {
            TaskBuilder::new(serde_json::to_vec(&Ping { id }).unwrap())
                .max_attempts(Ping::MAX_ATTEMPTS)
                .build()
        })
        .collect();
    apalis_postgres::queries::push_tasks(&mut *pool.acquire().await.unwrap(), Ping::QUEUE, batch)
        .await
        .unwrap();

    eventually(60, || async {
        let done: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE job_type = $1 AND status = 'Done'")
            .bind(Ping::QUEUE)
            .fetch_one(&pool)
            .await
            .unwrap();
        (done == tasks).then_some(())
    })
    .await;
    let (runs, distinct): (i64, i64) = sqlx::query_as("SELECT count(*), count(DISTINCT id) FROM test_pings")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!((runs, distinct), (tasks, tasks), "every task ran, and none twice");
}
