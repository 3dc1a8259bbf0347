//! The notification fan-out: queued with its cause, written in batches once, pushed live.

mod support;

use std::collections::HashSet;

use domain::{
    notifications::{self, FanOut, Kind},
    realtime::{self, Envelope, Wire},
};
use jobs::notification_fanout::{self, BATCH_SIZE, Delivered};
use sqlx::{PgPool, postgres::PgListener};
use uuid::Uuid;

async fn users(pool: &PgPool, n: i64) -> Vec<Uuid> {
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name) \
         SELECT 'u' || i || '@example.com', 'x', 'A', 'B' FROM generate_series(1, $1) AS i RETURNING id",
    )
    .bind(n)
    .fetch_all(pool)
    .await
    .unwrap()
}

/// The fan-out tasks queued so far.
async fn queued(pool: &PgPool) -> Vec<FanOut> {
    let rows: Vec<Vec<u8>> = sqlx::query_scalar("SELECT job FROM apalis.jobs WHERE job_type = $1 ORDER BY run_at, id")
        .bind(notification_fanout::QUEUE)
        .fetch_all(pool)
        .await
        .unwrap();
    rows.iter().map(|r| serde_json::from_slice(r).unwrap()).collect()
}

async fn count(pool: &PgPool, sql: &str) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn next_event(listener: &mut PgListener) -> Envelope {
    let n = listener.recv().await.unwrap();
    match serde_json::from_str::<Wire>(n.payload()).unwrap() {
        Wire::Event(e) => e,
        Wire::Reference { reference } => realtime::load_reference(&mut *listener, reference)
            .await
            .unwrap()
            .unwrap(),
        other => panic!("unexpected {other:?}"),
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn twelve_hundred_recipients_are_written_in_three_batches_once_and_pushed_live(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let recipients = users(&pool, 1_200).await;
    let mut listener = PgListener::connect_with(&pool).await.unwrap();
    listener.listen(realtime::CHANNEL).await.unwrap();

    // Queued with its cause: a rolled-back cause queues nothing.
    let mut tx = pool.begin().await.unwrap();
    notifications::notify_many(
        &mut tx,
        &recipients,
        Kind::SystemAnnouncement,
        "Hello",
        "News for all",
        Some("/dashboard"),
    )
    .await
    .unwrap();
    tx.rollback().await.unwrap();
    assert!(queued(&pool).await.is_empty());
    let mut tx = pool.begin().await.unwrap();
    notifications::notify_many(
        &mut tx,
        &recipients,
        Kind::SystemAnnouncement,
        "Hello",
        "News for all",
        Some("/dashboard"),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let tasks = queued(&pool).await;
    assert_eq!(tasks.len(), 1, "one task for the whole fan-out");
    assert_eq!(
        count(&pool, "SELECT count(*) FROM notifications").await,
        0,
        "nothing written before the worker runs"
    );
    let fan_out = &tasks[0];
    assert_eq!(fan_out.recipients.len(), 1_200);

    let first = notification_fanout::deliver(&pool, fan_out).await.unwrap();
    assert_eq!(
        first,
        Delivered {
            written: 1_200,
            batches: 3
        }
    );
    assert_eq!(count(&pool, "SELECT count(*) FROM notifications").await, 1_200);
    assert_eq!(
        count(&pool, "SELECT count(DISTINCT user_id) FROM notifications").await,
        1_200
    );
    // Each batch is one transaction, so its rows share one created_at.
    assert_eq!(
        count(&pool, "SELECT count(DISTINCT created_at) FROM notifications").await,
        3
    );

    let again = notification_fanout::deliver(&pool, fan_out).await.unwrap();
    assert_eq!(again.written, 0, "a task run twice writes nothing more");
    assert_eq!(count(&pool, "SELECT count(*) FROM notifications").await, 1_200);

    // Every new notification reached the channel once, addressed to its recipient, as the API shows it.
    let expected: std::collections::HashMap<Uuid, Uuid> =
        fan_out.recipients.iter().map(|r| (r.id, r.user_id)).collect();
    let mut seen = HashSet::new();
    for _ in 0..1_200 {
        let event = next_event(&mut listener).await;
        assert_eq!(event.event, "notification");
        let id: Uuid = event.data["id"].as_str().unwrap().parse().unwrap();
        assert_eq!(event.to, [expected[&id]]);
        assert!(seen.insert(id), "announced once");
        assert_eq!(event.data["type"], "system_announcement");
        assert_eq!(
            (event.data["title"].as_str(), event.data["message"].as_str()),
            (Some("Hello"), Some("News for all"))
        );
        assert_eq!(
            (event.data["isRead"].as_bool(), event.data["actionUrl"].as_str()),
            (Some(false), Some("/dashboard"))
        );
        assert!(chrono::DateTime::parse_from_rfc3339(event.data["createdAt"].as_str().unwrap()).is_ok());
    }
    // The second run announced nothing: the next event on the channel is this marker.
    let mut conn = pool.acquire().await.unwrap();
    realtime::publish(
        &mut conn,
        &Envelope::to_users(vec![Uuid::nil()], realtime::ServerEvent::error("marker", None)),
    )
    .await
    .unwrap();
    let marker = next_event(&mut listener).await;
    assert_eq!(
        (marker.event.as_str(), &marker.data["message"]),
        ("error", &serde_json::json!("marker"))
    );
}

/// A full batch is one statement; one recipient more starts the next.
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_batch_holds_batch_size_recipients_and_one_more_starts_another(pool: PgPool) {
    let people = users(&pool, BATCH_SIZE as i64 + 1).await;
    let full = FanOut::new(&people[..BATCH_SIZE], Kind::SystemAnnouncement, "Hello", "News", None);
    assert_eq!(
        notification_fanout::deliver(&pool, &full).await.unwrap(),
        Delivered {
            written: BATCH_SIZE,
            batches: 1
        }
    );
    let one_more = FanOut::new(&people, Kind::SystemAnnouncement, "Hello", "News", None);
    assert_eq!(
        notification_fanout::deliver(&pool, &one_more).await.unwrap(),
        Delivered {
            written: BATCH_SIZE + 1,
            batches: 2
        }
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_recipient_gone_before_the_task_runs_is_skipped(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let people = users(&pool, 3).await;
    let mut conn = pool.acquire().await.unwrap();
    notifications::notify_many(
        &mut conn,
        &[people[0], people[1], people[0], people[2]],
        Kind::NewReview,
        "New review",
        "5 out of 5",
        None,
    )
    .await
    .unwrap();
    sqlx::query("DELETE FROM users WHERE id = $1")
        .bind(people[1])
        .execute(&pool)
        .await
        .unwrap();
    let fan_out = &queued(&pool).await[0];
    assert_eq!(fan_out.recipients.len(), 3, "each user once");
    assert_eq!(
        notification_fanout::deliver(&pool, fan_out).await.unwrap(),
        Delivered { written: 2, batches: 1 }
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_worker_writes_what_a_cause_queued(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let user = users(&pool, 1).await[0];
    let mut tx = pool.begin().await.unwrap();
    notifications::notify(
        &mut tx,
        user,
        Kind::BookingConfirmed,
        "Booking confirmed",
        "See you",
        Some("/dashboard"),
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let _workers = support::start_workers(support::context(&pool, &[]));
    let (kind, title): (String, String) = support::eventually(20, || async {
        sqlx::query_as("SELECT type, title FROM notifications WHERE user_id = $1")
            .bind(user)
            .fetch_optional(&pool)
            .await
            .unwrap()
    })
    .await;
    assert_eq!(
        (kind.as_str(), title.as_str()),
        ("booking_confirmed", "Booking confirmed")
    );
    let done = support::eventually(20, || async {
        support::job_state(&pool, notification_fanout::QUEUE)
            .await
            .filter(|(status, _)| status == "Done")
    })
    .await;
    assert_eq!(done.1, 1, "one try");
}
