mod support;

use jobs::{cleanup, schedule};
use sqlx::PgPool;

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn cleanup_deletes_only_what_expired(pool: PgPool) {
    jobs::runtime::setup_storage(&pool).await.unwrap();
    let user: uuid::Uuid = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name) VALUES ('a@example.com', 'x', 'A', 'B') RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    for (hash, expires) in [("live", "now() + interval '1 day'"), ("dead", "now() - interval '1 second'")] {
        sqlx::query(sqlx::AssertSqlSafe(format!("INSERT INTO sessions (token_hash, user_id, expires_at) VALUES ($1, $2, {expires})")))
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
    cleanup::handle(cleanup::Cleanup { tick: 0 }, apalis::prelude::Data::new(ctx)).await.unwrap();

    let sessions: Vec<Vec<u8>> = sqlx::query_scalar("SELECT token_hash FROM sessions").fetch_all(&pool).await.unwrap();
    assert_eq!(sessions, vec![b"live".to_vec()]);
    let events: i64 = sqlx::query_scalar("SELECT count(*) FROM rate_limit_events").fetch_one(&pool).await.unwrap();
    assert_eq!(events, 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_cron_tick_is_queued_once_whatever_the_number_of_workers(pool: PgPool) {
    jobs::runtime::setup_storage(&pool).await.unwrap();
    for _ in 0..3 {
        schedule::push_tick::<cleanup::Cleanup>(&pool, 1_800_000_000).await.unwrap();
    }
    schedule::push_tick::<cleanup::Cleanup>(&pool, 1_800_086_400).await.unwrap();
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE job_type = 'cleanup'").fetch_one(&pool).await.unwrap();
    assert_eq!(n, 2);
}

#[test]
fn cleanup_runs_daily() {
    use std::str::FromStr;
    let schedule = cron::Schedule::from_str(cleanup::SCHEDULE).unwrap();
    let next: Vec<_> = schedule.upcoming(chrono::Utc).take(2).collect();
    assert_eq!((next[1] - next[0]).num_hours(), 24);
}
