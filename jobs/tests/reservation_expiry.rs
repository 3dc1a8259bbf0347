//! Holds are released by the worker at their expiry: never before, and also when the worker
//! only starts after the expiry.

mod support;

use chrono::{Duration, Utc};
use domain::booking::jobs as booking_jobs;
use sqlx::PgPool;
use support::{context, eventually, start_workers};
use uuid::Uuid;

/// A held booking expiring at `expires_at`, with its expiry job queued like the api does.
async fn hold(pool: &PgPool, expires_at: chrono::DateTime<Utc>) -> Uuid {
    domain::job_queue::storage::setup(pool).await.unwrap();
    let user: Uuid = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, 'x', 'A', 'B') RETURNING id",
    )
    .bind(format!("{}@example.com", Uuid::new_v4()))
    .fetch_one(pool)
    .await
    .unwrap();
    let mentor: Uuid = sqlx::query_scalar(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents) VALUES ($1, 'Mia', repeat('b', 60), '{Astrology}', 100) RETURNING id",
    )
    .bind(user)
    .fetch_one(pool)
    .await
    .unwrap();
    let service: Uuid = sqlx::query_scalar(
        "INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes) VALUES ($1, 'Read', repeat('d', 30), 'tarot', 100, 60) RETURNING id",
    )
    .bind(mentor)
    .fetch_one(pool)
    .await
    .unwrap();
    let mut tx = pool.begin().await.unwrap();
    let id: Uuid = sqlx::query_scalar(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, hold_expires_at) \
         VALUES ($1, $2, $3, 'reserved', now() + interval '2 days', now() + interval '2 days 1 hour', 100, $4) RETURNING id",
    )
    .bind(user)
    .bind(mentor)
    .bind(service)
    .bind(expires_at)
    .fetch_one(&mut *tx)
    .await
    .unwrap();
    booking_jobs::schedule_expiry(&mut tx, id, expires_at).await.unwrap();
    tx.commit().await.unwrap();
    id
}

async fn status(pool: &PgPool, id: Uuid) -> String {
    sqlx::query_scalar("SELECT status FROM bookings WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_hold_is_released_at_its_expiry_and_not_before(pool: PgPool) {
    let expires_at = Utc::now() + Duration::milliseconds(1500);
    let id = hold(&pool, expires_at).await;
    let workers = start_workers(context(&pool, &[]));
    let released_at = eventually(15, || async {
        let s = status(&pool, id).await;
        assert!(
            s == "reserved" || Utc::now() >= expires_at,
            "released before its expiry"
        );
        (s == "expired").then(Utc::now)
    })
    .await;
    workers.abort();
    assert!(released_at >= expires_at);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_worker_that_starts_late_still_releases_the_hold(pool: PgPool) {
    let id = hold(&pool, Utc::now() - Duration::minutes(5)).await;
    assert_eq!(
        status(&pool, id).await,
        "reserved",
        "nothing releases it without a worker"
    );
    let workers = start_workers(context(&pool, &[]));
    eventually(15, || async { (status(&pool, id).await == "expired").then_some(()) }).await;
    workers.abort();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_paid_hold_is_left_alone(pool: PgPool) {
    let id = hold(&pool, Utc::now() - Duration::seconds(1)).await;
    sqlx::query("UPDATE bookings SET status = 'confirmed', hold_expires_at = NULL WHERE id = $1")
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    let workers = start_workers(context(&pool, &[]));
    eventually(15, || async {
        let done: Option<String> =
            sqlx::query_scalar("SELECT status FROM apalis.jobs WHERE job_type = 'reservation_expiry'")
                .fetch_optional(&pool)
                .await
                .unwrap();
        (done.as_deref() == Some("Done")).then_some(())
    })
    .await;
    workers.abort();
    assert_eq!(status(&pool, id).await, "confirmed");
}
