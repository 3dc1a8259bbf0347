//! Queueing through the `Job` trait: the idempotency keys and run times tasks get, and a task
//! already queued under its key counts as queued.

mod support;

use chrono::{DateTime, Duration, Utc};
use domain::{
    booking::jobs as booking_jobs,
    calls::jobs as call_jobs,
    job_queue::{Job, email::EmailJob, refunds::PayRefund},
    payments::jobs as payment_jobs,
};
use sqlx::PgPool;
use uuid::Uuid;

/// (queue, idempotency key, run_at in unix seconds, max attempts) of every queued task.
async fn queued(pool: &PgPool) -> Vec<(String, Option<String>, i64, i32)> {
    sqlx::query_as(
        "SELECT job_type, idempotency_key, extract(epoch FROM run_at)::bigint, max_attempts FROM apalis.jobs ORDER BY job_type, idempotency_key",
    )
    .fetch_all(pool)
    .await
    .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn keys_run_times_and_attempts_stay_as_they_were(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let id = Uuid::nil();
    let start = DateTime::from_timestamp(4_000_000_000, 0).unwrap();
    let now = start - Duration::days(2);
    let mut tx = pool.begin().await.unwrap();
    for _ in 0..2 {
        booking_jobs::schedule_expiry(&mut tx, id, start + Duration::milliseconds(300))
            .await
            .unwrap();
        booking_jobs::schedule_reminders(&mut tx, id, start, now).await.unwrap();
        booking_jobs::schedule_completion(&mut tx, id, start + Duration::hours(1))
            .await
            .unwrap();
        payment_jobs::schedule(&mut tx, id, start + Duration::milliseconds(1))
            .await
            .unwrap();
        PayRefund { refund_id: id }.enqueue(&mut tx).await.unwrap();
        call_jobs::schedule_timeout(&mut tx, id, start + Duration::milliseconds(45_100))
            .await
            .unwrap();
    }
    tx.commit().await.unwrap();

    let s = start.timestamp();
    let key = |k: &str| Some(k.to_string());
    let mut rows = queued(&pool).await;
    rows.retain(|(queue, ..)| queue != "refunds");
    assert_eq!(
        rows,
        [
            (
                "booking_completion".into(),
                key(&format!("complete:{id}:{}", s + 25 * 3600)),
                s + 25 * 3600,
                5
            ),
            (
                "booking_reminders".into(),
                key(&format!("reminder:{id}:1h:{s}")),
                s - 3600,
                5
            ),
            (
                "booking_reminders".into(),
                key(&format!("reminder:{id}:24h:{s}")),
                s - 24 * 3600,
                5
            ),
            ("call_timeout".into(), key(&format!("call-timeout:{id}")), s + 46, 5),
            (
                "payment_reconciliation".into(),
                key(&format!("reconcile:{id}")),
                s + 1,
                20
            ),
            ("reservation_expiry".into(), key(&format!("expire:{id}")), s + 1, 10),
        ],
        "once each, whole seconds never before the time asked"
    );
    let refunds: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'refunds' AND idempotency_key = $1 AND max_attempts = 8",
    )
    .bind(format!("refund:{id}"))
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(refunds, 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn jobs_without_a_key_are_queued_every_time(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let mut conn = pool.acquire().await.unwrap();
    let before = Utc::now().timestamp();
    for _ in 0..2 {
        EmailJob::ReviewRequest {
            booking_id: Uuid::nil(),
        }
        .enqueue(&mut conn)
        .await
        .unwrap();
    }
    let rows = queued(&pool).await;
    assert_eq!(rows.len(), 2);
    assert!(
        rows.iter()
            .all(|(queue, key, run_at, max)| queue == "emails" && key.is_none() && *run_at >= before && *max == 5)
    );
}

/// An admin's "run payouts" in the second of a run that already finished is a run of its own; two requests in
/// one millisecond (a double click) stay one task.
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn an_admins_payout_run_is_not_swallowed_by_a_finished_one(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let second = DateTime::from_timestamp(4_000_000_000, 0).unwrap();
    let mut conn = pool.acquire().await.unwrap();
    domain::payouts::jobs::queue_now(&mut conn, second).await.unwrap();
    domain::payouts::jobs::queue_now(&mut conn, second).await.unwrap();
    sqlx::query("UPDATE apalis.jobs SET status = 'Done', done_at = now()")
        .execute(&mut *conn)
        .await
        .unwrap();
    domain::payouts::jobs::queue_now(&mut conn, second + Duration::milliseconds(400))
        .await
        .unwrap();
    let runs: Vec<_> = queued(&pool)
        .await
        .into_iter()
        .filter(|(q, ..)| q == <domain::payouts::jobs::RunPayouts as Job>::QUEUE)
        .collect();
    assert_eq!(runs.len(), 2, "{runs:?}");
}
