//! Statements shared between features on one connection: sqlx prepares a statement once per
//! connection, keyed by its text, so two callers binding different numbers of values to the same
//! text break whichever runs second ("bind message supplies 2 parameters, but prepared statement
//! requires 1"). One connection runs both features, in both orders.

use domain::{
    accounts::unsubscribe::{self, Preference},
    choice::Choice,
    reports::{self, NewReport},
};
use sqlx::{
    PgPool,
    postgres::{PgConnectOptions, PgPoolOptions},
};
use uuid::Uuid;

async fn user(pool: &PgPool, email: &str) -> Uuid {
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) \
         VALUES ($1, 'x', 'A', 'B', true) RETURNING id",
    )
    .bind(email)
    .fetch_one(pool)
    .await
    .unwrap()
}

async fn report_user(pool: &PgPool, reporter: Uuid, target: Uuid) {
    let target_type: Choice<reports::TargetType> = "user".parse().unwrap();
    let reason: Choice<reports::Reason> = "harassment".parse().unwrap();
    reports::create(
        pool,
        reporter,
        NewReport {
            target_type: Some(&target_type),
            target_id: &target.to_string(),
            reason: Some(&reason),
            details: None,
        },
    )
    .await
    .expect("the report is filed");
}

async fn unsubscribe(pool: &PgPool, who: Uuid) {
    let key = unsubscribe::signing_key(pool).await.unwrap();
    let token = unsubscribe::sign(&key, who, Preference::MarketingEmails);
    unsubscribe::unsubscribe(pool, &token).await.expect("the link works");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn unsubscribing_then_reporting_a_user_share_one_connection(_: PgPoolOptions, opts: PgConnectOptions) {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(opts)
        .await
        .unwrap();
    let (a, b, c) = (
        user(&pool, "a@example.com").await,
        user(&pool, "b@example.com").await,
        user(&pool, "c@example.com").await,
    );
    unsubscribe(&pool, a).await;
    report_user(&pool, a, b).await;
    report_user(&pool, b, a).await;
    unsubscribe(&pool, b).await;
    unsubscribe(&pool, c).await;
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn reporting_a_user_then_unsubscribing_share_one_connection(_: PgPoolOptions, opts: PgConnectOptions) {
    let pool = PgPoolOptions::new()
        .max_connections(1)
        .connect_with(opts)
        .await
        .unwrap();
    let (a, b) = (user(&pool, "a@example.com").await, user(&pool, "b@example.com").await);
    report_user(&pool, a, b).await;
    unsubscribe(&pool, a).await;
    unsubscribe(&pool, b).await;
    report_user(&pool, b, a).await;
}
