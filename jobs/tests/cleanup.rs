mod support;

use apalis::prelude::{Attempt, Data};
use domain::job_queue::cleanup::{self, Cleanup};
use jobs::{Handler, runner::schedule};
use sqlx::PgPool;

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn cleanup_deletes_only_what_expired(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let user: uuid::Uuid = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name) VALUES ('a@example.com', 'x', 'A', 'B') RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    for (hash, expires) in [
        ("live", "now() + interval '1 day'"),
        ("dead", "now() - interval '1 second'"),
    ] {
        sqlx::query(sqlx::AssertSqlSafe(format!(
            "INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, {expires})"
        )))
        .bind(hash.as_bytes())
        .bind(user)
        .execute(&pool)
        .await
        .unwrap();
    }
    sqlx::query("INSERT INTO rate_limit_events (scope, key, created_at) VALUES ('s', 'k', now() - interval '1 hour'), ('s', 'k', now())")
        .execute(&pool)
        .await
        .unwrap();

    let ctx = support::context(&pool, &[]);
    Cleanup { tick: 0 }
        .handle(Data::new(ctx), Attempt::new())
        .await
        .unwrap();

    let sessions: Vec<Vec<u8>> = sqlx::query_scalar("SELECT token_hash FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(sessions, vec![b"live".to_vec()]);
    let events: i64 = sqlx::query_scalar("SELECT count(*) FROM rate_limit_events")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(events, 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn cleanup_forgets_stale_viewers_and_old_stored_events(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let (mentor_user, seeker): (uuid::Uuid, uuid::Uuid) = sqlx::query_as(
        "WITH a AS (INSERT INTO users (email, password_hash, first_name, last_name) VALUES ('m@example.com', 'x', 'M', 'M') RETURNING id), \
         b AS (INSERT INTO users (email, password_hash, first_name, last_name) VALUES ('s@example.com', 'x', 'S', 'S') RETURNING id) \
         SELECT a.id, b.id FROM a, b",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let mentor: uuid::Uuid = sqlx::query_scalar(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents) \
         VALUES ($1, 'Mira', repeat('b', 60), ARRAY['Astrology'], 0) RETURNING id",
    )
    .bind(mentor_user)
    .fetch_one(&pool)
    .await
    .unwrap();
    let conversation: uuid::Uuid =
        sqlx::query_scalar("INSERT INTO conversations (mentor_id, user_id) VALUES ($1, $2) RETURNING id")
            .bind(mentor)
            .bind(seeker)
            .fetch_one(&pool)
            .await
            .unwrap();
    let (fresh, stale) = (uuid::Uuid::new_v4(), uuid::Uuid::new_v4());
    sqlx::query(
        "INSERT INTO conversation_viewers (socket_id, conversation_id, user_id, seen_at) \
         VALUES ($1, $3, $4, now()), ($2, $3, $4, now() - interval '91 seconds')",
    )
    .bind(fresh)
    .bind(stale)
    .bind(conversation)
    .bind(seeker)
    .execute(&pool)
    .await
    .unwrap();
    sqlx::query(
        "INSERT INTO realtime_events (payload, created_at) VALUES ('{}', now()), ('{}', now() - interval '2 hours')",
    )
    .execute(&pool)
    .await
    .unwrap();

    let ctx = support::context(&pool, &[]);
    Cleanup { tick: 0 }
        .handle(Data::new(ctx), Attempt::new())
        .await
        .unwrap();

    let sockets: Vec<uuid::Uuid> = sqlx::query_scalar("SELECT socket_id FROM conversation_viewers")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(sockets, vec![fresh]);
    let events: i64 = sqlx::query_scalar("SELECT count(*) FROM realtime_events")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(events, 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_cron_tick_is_queued_once_whatever_the_number_of_workers(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    for _ in 0..3 {
        schedule::push_tick::<Cleanup>(&pool, 1_800_000_000).await.unwrap();
    }
    schedule::push_tick::<Cleanup>(&pool, 1_800_086_400).await.unwrap();
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE job_type = 'cleanup'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(n, 2);
}

#[test]
fn cleanup_runs_daily() {
    use std::str::FromStr;
    let schedule = cron::Schedule::from_str(cleanup::SCHEDULE).unwrap();
    let next: Vec<_> = schedule.upcoming(chrono::Utc).take(2).collect();
    assert_eq!((next[1] - next[0]).num_hours(), 24);
}
