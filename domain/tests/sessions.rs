//! Sessions on a real PostgreSQL: lookups slide the expiry only now and then.

use domain::accounts::sessions;
use sqlx::PgPool;

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_lookup_refreshes_a_stale_session_and_leaves_a_fresh_one(pool: PgPool) {
    let user: uuid::Uuid = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) VALUES ('a@example.com', 'x', 'A', 'B', true) RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let token = sessions::create(&pool, user).await.unwrap();
    let seen = || async {
        sqlx::query_scalar::<_, chrono::DateTime<chrono::Utc>>("SELECT last_seen_at FROM sessions")
            .fetch_one(&pool)
            .await
            .unwrap()
    };

    let fresh = seen().await;
    assert_eq!(sessions::user_for(&pool, &token).await.unwrap().unwrap().id, user);
    assert_eq!(seen().await, fresh, "seen moments ago: no write");

    sqlx::query(
        "UPDATE sessions SET last_seen_at = now() - interval '1 hour', expires_at = now() + interval '1 minute'",
    )
    .execute(&pool)
    .await
    .unwrap();
    assert!(sessions::user_for(&pool, &token).await.unwrap().is_some());
    let (last_seen, expires): (chrono::DateTime<chrono::Utc>, chrono::DateTime<chrono::Utc>) =
        sqlx::query_as("SELECT last_seen_at, expires_at FROM sessions")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(chrono::Utc::now() - last_seen < chrono::Duration::minutes(1));
    assert!(
        expires - chrono::Utc::now() > chrono::Duration::days(29),
        "the expiry slid forward"
    );

    sqlx::query("UPDATE sessions SET expires_at = now() - interval '1 second'")
        .execute(&pool)
        .await
        .unwrap();
    assert!(sessions::user_for(&pool, &token).await.unwrap().is_none());
    assert!(sessions::user_for(&pool, "not-a-token").await.unwrap().is_none());
}
