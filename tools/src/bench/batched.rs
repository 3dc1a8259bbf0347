//! The batched queues' runs (issue 23): 20,000 due hold-expiry tasks for holds that exist, half
//! of them already paid, then 20,000 reminder tasks, each drained by one production worker.
//! Each figure counts the tasks of its queue, from the first fetched to the last acknowledged;
//! what they queue (the reminders' notifications and e-mails) runs after, in the same worker.

use std::time::Duration;

use apalis::prelude::TaskBuilder;
use domain::{
    booking::jobs::{ExpireHold, Remind},
    job_queue::Job,
};
use sqlx::PgPool;
use uuid::Uuid;

use super::phases::{Worker, connect};

/// Tasks of each run.
pub(super) const TASKS: i64 = 20_000;
pub(super) const HOLDS_TARGET: f64 = 10_000.0;
pub(super) const REMINDERS_TARGET: f64 = 3_000.0;
/// Mentors the bookings are spread over (an hour apart, so none overlap).
const MENTORS: i64 = 200;

pub struct Drained {
    pub tasks_per_second: f64,
    /// Tasks not `Done` once the queue was drained (failed for good).
    pub not_done: i64,
    /// What the run changed, checked against what it should have: "10,000 released, ...".
    pub outcome: String,
    pub correct: bool,
    /// The machine's load average over the last minute when the run ended.
    pub load: f64,
}

/// A seeker, [`MENTORS`] mentors with a half-hour service each.
async fn parties(pool: &PgPool) -> anyhow::Result<()> {
    sqlx::raw_sql(sqlx::AssertSqlSafe(format!(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified)
         VALUES ('bench.seeker@mystic-mentors.test', 'x', 'Bench', 'Seeker', true);
         INSERT INTO users (email, password_hash, first_name, last_name, email_verified)
         SELECT 'bench.mentor' || i || '@mystic-mentors.test', 'x', 'Bench', 'Mentor ' || i, true
         FROM generate_series(1, {MENTORS}) i;
         INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents, approval_status)
         SELECT id, first_name || ' ' || last_name, repeat('A mentor of the job benchmark. ', 3), '{{Astrology}}', 2000, 'approved'
         FROM users WHERE email LIKE 'bench.mentor%';
         INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes)
         SELECT id, 'Half-hour reading', 'A thirty minute reading of the job benchmark.', 'astrology', 2000, 30 FROM mentors;"
    )))
    .execute(pool)
    .await?;
    Ok(())
}

/// `n` bookings in `status`, spread over the mentors an hour apart from `first_hour` hours after
/// two days ahead (whole seconds); a reserved one's hold ran out a minute ago.
async fn bookings(pool: &PgPool, n: i64, status: &str, first_hour: i64, paid: bool) -> anyhow::Result<Vec<Uuid>> {
    let per_mentor = n / MENTORS;
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, hold_expires_at, confirmed_at)
         SELECT (SELECT id FROM users WHERE email = 'bench.seeker@mystic-mentors.test'), s.mentor_id, s.id, $1, t, t + interval '30 minutes', 2000,
                CASE WHEN $1 = 'reserved' THEN now() - interval '1 minute' END, CASE WHEN $1 = 'confirmed' THEN now() END
         FROM services s, generate_series(1, $2) h,
              LATERAL (SELECT date_trunc('second', now()) + interval '2 days' + make_interval(hours => ($3 + h)::int) AS t) times
         RETURNING id",
    )
    .bind(status)
    .bind(per_mentor)
    .bind(first_hour)
    .fetch_all(pool)
    .await?;
    if paid {
        sqlx::query(
            "INSERT INTO payments (booking_id, user_id, gateway, transaction_id, amount_cents, card_last4, status, reference, settled_at)
             SELECT b.id, b.user_id, 'mock', 'tx-' || b.id, 2000, '4242', 'approved', 'ref-' || b.id, now()
             FROM bookings b WHERE b.id = ANY($1)",
        )
        .bind(&ids)
        .execute(pool)
        .await?;
    }
    Ok(ids)
}

/// Pushes one task per payload, due now, keyed like the api queues them.
async fn push<J: Job>(pool: &PgPool, jobs: &[J]) -> anyhow::Result<()> {
    let mut tx = pool.begin().await?;
    for chunk in jobs.chunks(5_000) {
        let tasks = chunk
            .iter()
            .map(|job| {
                let mut task =
                    TaskBuilder::new(serde_json::to_vec(job).expect("serialisable")).max_attempts(J::MAX_ATTEMPTS);
                if let Some(key) = job.idempotency_key(None) {
                    task = task.idempotency_key(key);
                }
                task.build()
            })
            .collect();
        apalis_postgres::queries::push_tasks(&mut *tx, J::QUEUE, tasks).await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Starts a production worker on the queued backlog of `queue`, waits until it is drained, and
/// returns its rate and the tasks not done.
async fn drain(url: &str, pool: &PgPool, queue: &str) -> anyhow::Result<(f64, i64)> {
    sqlx::query("VACUUM ANALYZE").execute(pool).await?;
    let worker = Worker::production(url)?;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(600);
    loop {
        let (left,): (i64,) = sqlx::query_as(
            "SELECT count(*) FROM apalis.jobs WHERE job_type = $1 AND status NOT IN ('Done', 'Killed') \
             AND NOT (status = 'Failed' AND attempts >= max_attempts)",
        )
        .bind(queue)
        .fetch_one(pool)
        .await?;
        if left == 0 {
            break;
        }
        anyhow::ensure!(
            tokio::time::Instant::now() < deadline,
            "{left} {queue} tasks still not done after 600 s"
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let (span, tasks, not_done): (f64, i64, i64) = sqlx::query_as(
        "SELECT extract(epoch FROM max(done_at) - min(lock_at))::float8, count(*), count(*) FILTER (WHERE status <> 'Done') \
         FROM apalis.jobs WHERE job_type = $1",
    )
    .bind(queue)
    .fetch_one(pool)
    .await?;
    worker.stop().await?;
    anyhow::ensure!(tasks == TASKS, "{tasks} {queue} tasks queued, not {TASKS}");
    Ok((tasks as f64 / span, not_done))
}

/// Waits, when the minute is late, for the next one to begin: the hold sweep (every minute on
/// the minute) would otherwise release some holds before their tasks do.
async fn clear_of_the_sweep() {
    use chrono::Timelike;
    let second = chrono::Utc::now().second();
    if second >= 40 {
        tokio::time::sleep(Duration::from_secs(u64::from(62 - second))).await;
    }
}

fn load_average() -> f64 {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().and_then(|l| l.parse().ok()))
        .unwrap_or(f64::NAN)
}

/// 20,000 due expiry tasks, half for holds that ran out, half for holds already paid.
pub(super) async fn holds(url: &str) -> anyhow::Result<Drained> {
    let pool = connect(url).await?;
    parties(&pool).await?;
    let lapsed = bookings(&pool, TASKS / 2, "reserved", 0, false).await?;
    let paid = bookings(&pool, TASKS / 2, "confirmed", 1_000, true).await?;
    let (half_lapsed, half_paid) = (&lapsed[..lapsed.len() / 2], &paid[..paid.len() / 2]);
    let tasks: Vec<ExpireHold> = half_lapsed
        .iter()
        .chain(half_paid)
        .chain(&lapsed[lapsed.len() / 2..])
        .chain(&paid[paid.len() / 2..])
        .map(|&booking_id| ExpireHold { booking_id })
        .collect();
    push(&pool, &tasks).await?;
    clear_of_the_sweep().await;
    println!(
        "queued {} hold-expiry tasks ({} lapsed holds, {} paid); starting a worker",
        tasks.len(),
        lapsed.len(),
        paid.len()
    );
    let (rate, not_done) = drain(url, &pool, ExpireHold::QUEUE).await?;
    let load = load_average();
    let (expired, confirmed): (i64, i64) = sqlx::query_as(
        "SELECT count(*) FILTER (WHERE status = 'expired'), count(*) FILTER (WHERE status = 'confirmed') FROM bookings WHERE id = ANY($1)",
    )
    .bind([&lapsed[..], &paid].concat())
    .fetch_one(&pool)
    .await?;
    pool.close().await;
    Ok(Drained {
        tasks_per_second: rate,
        not_done,
        outcome: format!(
            "{expired} of {} released, {confirmed} of {} paid left",
            lapsed.len(),
            paid.len()
        ),
        correct: expired == lapsed.len() as i64 && confirmed == paid.len() as i64,
        load,
    })
}

/// 20,000 reminder tasks, one for each of 20,000 confirmed bookings.
pub(super) async fn reminders(url: &str) -> anyhow::Result<Drained> {
    let pool = connect(url).await?;
    let ids = bookings(&pool, TASKS, "confirmed", 2_000, true).await?;
    let starts: Vec<(Uuid, chrono::DateTime<chrono::Utc>)> =
        sqlx::query_as("SELECT id, scheduled_at FROM bookings WHERE id = ANY($1)")
            .bind(&ids)
            .fetch_all(&pool)
            .await?;
    let tasks: Vec<Remind> = starts
        .iter()
        .enumerate()
        .map(|(i, (booking_id, start))| Remind {
            booking_id: *booking_id,
            kind: if i % 2 == 0 { "24h" } else { "1h" }.into(),
            start: start.timestamp(),
        })
        .collect();
    push(&pool, &tasks).await?;
    println!("queued {} reminder tasks; starting a worker", tasks.len());
    let (rate, not_done) = drain(url, &pool, Remind::QUEUE).await?;
    let load = load_average();
    let (recorded,): (i64,) = sqlx::query_as("SELECT count(*) FROM booking_reminders WHERE booking_id = ANY($1)")
        .bind(&ids)
        .fetch_one(&pool)
        .await?;
    let (emails,): (i64,) = sqlx::query_as("SELECT count(*) FROM apalis.jobs WHERE job_type = 'emails'")
        .fetch_one(&pool)
        .await?;
    pool.close().await;
    Ok(Drained {
        tasks_per_second: rate,
        not_done,
        outcome: format!("{recorded} reminders sent once, {emails} e-mails queued"),
        correct: recorded == ids.len() as i64 && emails == ids.len() as i64,
        load,
    })
}
