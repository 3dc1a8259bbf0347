//! The batched queues (hold expiry, reminders, `jobs::runner::batch`): tasks a worker holds at once run
//! as one statement, and still each hold is settled once, each reminder sent once, and a batch
//! that fails is tried again task by task.

mod support;

use std::time::Duration;

use chrono::{DateTime, Utc};
use domain::{
    booking::jobs::{ExpireHold, Remind},
    job_queue::Job,
};
use jobs::{Settings, booking_reminders, reservation_expiry};
use sqlx::PgPool;
use support::{context, eventually, start_workers};
use uuid::Uuid;

/// A seeker, a mentor and a service; `(seeker, mentor id, service id)`.
async fn parties(pool: &PgPool) -> (Uuid, Uuid, Uuid) {
    domain::job_queue::storage::setup(pool).await.unwrap();
    let user = |email: String| {
        sqlx::query_scalar::<_, Uuid>(
            "INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, 'x', 'A', 'B') RETURNING id",
        )
        .bind(email)
        .fetch_one(pool)
    };
    let seeker = user(format!("seeker-{}@example.com", Uuid::new_v4())).await.unwrap();
    let mentor_user = user(format!("mentor-{}@example.com", Uuid::new_v4())).await.unwrap();
    let mentor: Uuid = sqlx::query_scalar(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents) VALUES ($1, 'Mia', repeat('b', 60), '{Astrology}', 100) RETURNING id",
    )
    .bind(mentor_user)
    .fetch_one(pool)
    .await
    .unwrap();
    let service: Uuid = sqlx::query_scalar(
        "INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes) VALUES ($1, 'Read', repeat('d', 30), 'tarot', 100, 30) RETURNING id",
    )
    .bind(mentor)
    .fetch_one(pool)
    .await
    .unwrap();
    (seeker, mentor, service)
}

/// `n` bookings in `status`, an hour apart from two days ahead (whole seconds), with
/// `hold_expires_at` `hold` after now (a hold) or none; their ids in order.
async fn bookings(pool: &PgPool, n: i32, first_hour: i32, status: &str, hold: Option<&str>) -> Vec<Uuid> {
    let (seeker, mentor, service) = sqlx::query_as::<_, (Uuid, Uuid, Uuid)>(
        "SELECT u.id, m.id, s.id FROM users u, mentors m JOIN services s ON s.mentor_id = m.id \
         WHERE u.email LIKE 'seeker-%' LIMIT 1",
    )
    .fetch_one(pool)
    .await
    .unwrap();
    sqlx::query_scalar(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, hold_expires_at) \
         SELECT $1, $2, $3, $4, t, t + interval '30 minutes', 100, now() + $5::interval \
         FROM generate_series(1, $6) i, LATERAL (SELECT date_trunc('second', now()) + interval '2 days' + make_interval(hours => $7 + i) AS t) s \
         ORDER BY i RETURNING id",
    )
    .bind(seeker)
    .bind(mentor)
    .bind(service)
    .bind(status)
    .bind(hold)
    .bind(n)
    .bind(first_hour)
    .fetch_all(pool)
    .await
    .unwrap()
}

/// Records every change of a booking's status, so a hold settled twice would show.
async fn log_status_changes(pool: &PgPool) {
    sqlx::raw_sql(
        "CREATE TABLE status_changes (booking_id uuid NOT NULL, old text NOT NULL, new text NOT NULL);
         CREATE FUNCTION log_status_change() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN INSERT INTO status_changes VALUES (NEW.id, OLD.status, NEW.status); RETURN NULL; END $$;
         CREATE TRIGGER log_status_change AFTER UPDATE OF status ON bookings FOR EACH ROW
             WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION log_status_change();",
    )
    .execute(pool)
    .await
    .unwrap();
}

async fn status_changes(pool: &PgPool) -> Vec<(Uuid, String, String)> {
    sqlx::query_as("SELECT booking_id, old, new FROM status_changes ORDER BY booking_id")
        .fetch_all(pool)
        .await
        .unwrap()
}

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn queue_expiries(pool: &PgPool, ids: &[Uuid]) {
    let mut tx = pool.begin().await.unwrap();
    for &booking_id in ids {
        ExpireHold { booking_id }.enqueue(&mut tx).await.unwrap();
    }
    tx.commit().await.unwrap();
}

async fn all_done(pool: &PgPool, queue: &str, n: i64) {
    eventually(30, || async {
        let done = count(
            pool,
            &format!("SELECT count(*) FROM apalis.jobs WHERE job_type = '{queue}' AND status = 'Done'"),
        )
        .await;
        (done == n).then_some(())
    })
    .await;
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn expiry_tasks_run_in_batches_and_settle_each_hold_exactly_once(pool: PgPool) {
    parties(&pool).await;
    log_status_changes(&pool).await;
    let lapsed = bookings(&pool, 30, 0, "reserved", Some("-1 second")).await;
    let paid = bookings(&pool, 30, 100, "confirmed", None).await;
    let live = bookings(&pool, 10, 200, "reserved", Some("1 hour")).await;
    let all: Vec<Uuid> = [&lapsed[..], &paid, &live].concat();
    queue_expiries(&pool, &all).await;

    let workers = start_workers(context(&pool, &[]));
    all_done(&pool, ExpireHold::QUEUE, all.len() as i64).await;
    workers.abort();

    let changes = status_changes(&pool).await;
    let mut expected: Vec<_> = lapsed
        .iter()
        .map(|&id| (id, "reserved".to_string(), "expired".to_string()))
        .collect();
    expected.sort();
    assert_eq!(
        changes, expected,
        "each lapsed hold released once; paid and live holds untouched"
    );
    // One statement per batch: the holds of one batch share their transaction's now().
    let batches = count(
        &pool,
        "SELECT count(DISTINCT updated_at) FROM bookings WHERE status = 'expired'",
    )
    .await;
    assert!(batches < lapsed.len() as i64, "released in {batches} statements");

    // Running every task again changes nothing.
    let again = reservation_expiry::expire_batch(&pool, &all).await.unwrap();
    assert!(again.iter().all(|released| !released));
    assert_eq!(status_changes(&pool).await, expected);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_hold_named_twice_in_one_batch_is_released_by_the_first(pool: PgPool) {
    parties(&pool).await;
    log_status_changes(&pool).await;
    let holds = bookings(&pool, 2, 0, "reserved", Some("-1 second")).await;
    let released = reservation_expiry::expire_batch(&pool, &[holds[0], holds[1], holds[0]])
        .await
        .unwrap();
    assert_eq!(released, [true, true, false]);
    assert_eq!(status_changes(&pool).await.len(), 2);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_failed_batch_fails_each_of_its_tasks_and_their_retries_settle_each_hold_once(pool: PgPool) {
    parties(&pool).await;
    log_status_changes(&pool).await;
    // While `refuse_updates` has a row, every change of a booking fails.
    sqlx::raw_sql(
        "CREATE TABLE refuse_updates (one int);
         INSERT INTO refuse_updates VALUES (1);
         CREATE FUNCTION refuse_update() RETURNS trigger LANGUAGE plpgsql AS $$
         BEGIN IF EXISTS (SELECT 1 FROM refuse_updates) THEN RAISE EXCEPTION 'updates refused by the test'; END IF;
         RETURN NEW; END $$;
         CREATE TRIGGER refuse_update BEFORE UPDATE ON bookings FOR EACH ROW EXECUTE FUNCTION refuse_update();",
    )
    .execute(&pool)
    .await
    .unwrap();
    let holds = bookings(&pool, 12, 0, "reserved", Some("-1 second")).await;
    queue_expiries(&pool, &holds).await;

    // Slow enough retries that the failures are seen long before the tries run out.
    let settings = Settings {
        retry_min: Duration::from_millis(300),
        retry_max: Duration::from_millis(600),
        ..support::fast()
    };
    let ctx = context(&pool, &[]);
    let workers = support::Workers::spawn(async move {
        let _ = jobs::monitor(ctx, settings).run().await;
    });
    // Every task's failed try is recorded with the batch's error.
    eventually(30, || async {
        let failed = count(
            &pool,
            "SELECT count(*) FROM apalis.jobs WHERE job_type = 'reservation_expiry' AND attempts >= 1 \
             AND last_result::text LIKE '%updates refused by the test%'",
        )
        .await;
        (failed == holds.len() as i64).then_some(())
    })
    .await;
    assert!(status_changes(&pool).await.is_empty());
    sqlx::query("DELETE FROM refuse_updates").execute(&pool).await.unwrap();

    all_done(&pool, ExpireHold::QUEUE, holds.len() as i64).await;
    workers.abort();
    let changes = status_changes(&pool).await;
    assert_eq!(changes.len(), holds.len(), "each hold released once: {changes:?}");
    assert!(
        changes
            .iter()
            .all(|(_, old, new)| old == "reserved" && new == "expired")
    );
}

fn remind(booking_id: Uuid, kind: &str, start: DateTime<Utc>) -> Remind {
    Remind {
        booking_id,
        kind: kind.into(),
        start: start.timestamp(),
    }
}

async fn start_of(pool: &PgPool, id: Uuid) -> DateTime<Utc> {
    sqlx::query_scalar("SELECT scheduled_at FROM bookings WHERE id = $1")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn reminders_asked_twice_in_one_batch_are_sent_once(pool: PgPool) {
    parties(&pool).await;
    let ids = bookings(&pool, 3, 0, "confirmed", None).await;
    let cancelled = bookings(&pool, 1, 50, "cancelled", None).await[0];
    let (a, b) = (ids[0], ids[1]);
    let (start_a, start_b) = (start_of(&pool, a).await, start_of(&pool, b).await);
    let batch = [
        remind(a, "24h", start_a),
        remind(a, "24h", start_a),
        remind(a, "1h", start_a),
        remind(b, "24h", start_b + chrono::Duration::hours(1)), // a start the booking no longer has
        remind(b, "2h", start_b),                               // no such reminder
        remind(cancelled, "24h", start_of(&pool, cancelled).await),
        remind(b, "1h", start_b),
    ];
    let sent = booking_reminders::remind_batch(&pool, &batch).await.unwrap();
    assert_eq!(sent, [true, false, true, false, false, false, true]);

    let recorded = count(&pool, "SELECT count(*) FROM booking_reminders").await;
    let fan_outs = count(
        &pool,
        "SELECT count(*) FROM apalis.jobs WHERE job_type = 'notification_fanout'",
    )
    .await;
    let emails = count(&pool, "SELECT count(*) FROM apalis.jobs WHERE job_type = 'emails'").await;
    assert_eq!(
        (recorded, fan_outs, emails),
        (3, 6, 3),
        "three reminders, each to both sides and by e-mail"
    );

    // The same batch again sends nothing.
    let again = booking_reminders::remind_batch(&pool, &batch).await.unwrap();
    assert!(again.iter().all(|s| !s));
    let emails_after = count(&pool, "SELECT count(*) FROM apalis.jobs WHERE job_type = 'emails'").await;
    assert_eq!(emails_after, 3);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn reminder_tasks_run_by_the_worker_notify_both_sides_once(pool: PgPool) {
    parties(&pool).await;
    let ids = bookings(&pool, 25, 0, "confirmed", None).await;
    let mut tx = pool.begin().await.unwrap();
    for &id in &ids {
        let start = start_of(&pool, id).await;
        remind(id, "24h", start).enqueue(&mut tx).await.unwrap();
        remind(id, "1h", start).enqueue(&mut tx).await.unwrap();
    }
    tx.commit().await.unwrap();
    let mail_dir = tempdir();
    let workers = start_workers(context(&pool, &[("MAIL_DIR", mail_dir.clone())]));
    all_done(&pool, Remind::QUEUE, 50).await;
    // Each reminder's two notifications, written by the fan-outs the batches queued.
    eventually(30, || async {
        let n = count(
            &pool,
            "SELECT count(*) FROM notifications WHERE type = 'booking_reminder'",
        )
        .await;
        (n == 100).then_some(())
    })
    .await;
    workers.abort();
    assert_eq!(count(&pool, "SELECT count(*) FROM booking_reminders").await, 50);
    let _ = std::fs::remove_dir_all(mail_dir);
}

fn tempdir() -> String {
    let dir = std::env::temp_dir().join(format!("batched-jobs-mail-{}", Uuid::new_v4()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.to_string_lossy().into_owned()
}
