//! Every closed set stored as text matches its column's CHECK constraint exactly (no value the
//! database refuses, none it allows that Rust cannot read), and every value travels to
//! PostgreSQL and back through the enum's own `Encode`/`Decode`.

use std::{collections::BTreeSet, fmt::Debug};

use domain::{
    accounts::Role,
    booking::BookingStatus,
    calls::CallStatus,
    catalogue::vocabulary::ServiceType,
    group_sessions::GroupStatus,
    notifications::Kind,
    payments::{PaymentStatus, RefundReason, RefundStatus},
    payouts::{PaidMethod, PayoutMethod, PayoutStatus},
    reports,
};
use sqlx::{PgPool, Postgres};

/// The values a `CHECK (column IN (...))` on `table` allows, read from the catalogue.
async fn allowed(pool: &PgPool, table: &str, column: &str) -> BTreeSet<String> {
    let defs: Vec<String> = sqlx::query_scalar(
        "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = $1::regclass AND contype = 'c'",
    )
    .bind(table)
    .fetch_all(pool)
    .await
    .unwrap();
    let prefix = format!("CHECK (({column} = ANY (ARRAY[");
    let def = defs
        .iter()
        .find(|d| d.starts_with(&prefix))
        .unwrap_or_else(|| panic!("no CHECK of {table}.{column} in {defs:?}"));
    def[prefix.len()..]
        .split(", ")
        .map(|v| v.split("'").nth(1).expect("a quoted value").to_string())
        .collect()
}

/// Each value binds and decodes back to itself.
async fn round_trip<T>(pool: &PgPool, all: &[T])
where
    T: Copy + PartialEq + Debug + Send + Unpin + 'static,
    T: sqlx::Type<Postgres> + for<'q> sqlx::Encode<'q, Postgres> + for<'r> sqlx::Decode<'r, Postgres>,
{
    for &v in all {
        let back: T = sqlx::query_scalar("SELECT $1::text")
            .bind(v)
            .fetch_one(pool)
            .await
            .unwrap();
        assert_eq!(back, v);
    }
}

fn names<T: Copy>(all: &[T], name: fn(T) -> &'static str) -> BTreeSet<String> {
    all.iter().map(|&v| name(v).to_string()).collect()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn every_stored_set_matches_its_check_constraint(pool: PgPool) {
    let cases: Vec<(&str, &str, BTreeSet<String>)> = vec![
        ("bookings", "status", names(BookingStatus::ALL, BookingStatus::as_str)),
        ("group_sessions", "status", names(GroupStatus::ALL, GroupStatus::as_str)),
        ("calls", "status", names(CallStatus::ALL, CallStatus::as_str)),
        ("payments", "status", names(PaymentStatus::ALL, PaymentStatus::as_str)),
        ("refunds", "status", names(RefundStatus::ALL, RefundStatus::as_str)),
        ("refunds", "reason", names(RefundReason::ALL, RefundReason::as_str)),
        ("payouts", "status", names(PayoutStatus::ALL, PayoutStatus::as_str)),
        (
            "payouts",
            "destination_method",
            names(PayoutMethod::ALL, PayoutMethod::as_str),
        ),
        (
            "payout_preferences",
            "method",
            names(PayoutMethod::ALL, PayoutMethod::as_str),
        ),
        ("notifications", "type", names(Kind::ALL, Kind::as_str)),
        ("services", "service_type", names(ServiceType::ALL, ServiceType::as_str)),
        (
            "reports",
            "target_type",
            names(reports::TargetType::ALL, reports::TargetType::as_str),
        ),
        (
            "reports",
            "reason",
            names(reports::Reason::ALL, reports::Reason::as_str),
        ),
        (
            "reports",
            "status",
            names(reports::Status::ALL, reports::Status::as_str),
        ),
        (
            "reports",
            "action",
            names(reports::Action::ALL, reports::Action::as_str),
        ),
    ];
    for (table, column, rust) in cases {
        assert_eq!(allowed(&pool, table, column).await, rust, "{table}.{column}");
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn every_value_travels_to_postgres_and_back(pool: PgPool) {
    round_trip(&pool, BookingStatus::ALL).await;
    round_trip(&pool, GroupStatus::ALL).await;
    round_trip(&pool, CallStatus::ALL).await;
    round_trip(&pool, PaymentStatus::ALL).await;
    round_trip(&pool, RefundStatus::ALL).await;
    round_trip(&pool, RefundReason::ALL).await;
    round_trip(&pool, PayoutStatus::ALL).await;
    round_trip(&pool, PayoutMethod::ALL).await;
    round_trip(&pool, PaidMethod::ALL).await;
    round_trip(&pool, Kind::ALL).await;
    round_trip(&pool, ServiceType::ALL).await;
    round_trip(&pool, Role::ALL).await;
    round_trip(&pool, reports::TargetType::ALL).await;
    round_trip(&pool, reports::Reason::ALL).await;
    round_trip(&pool, reports::Status::ALL).await;
    round_trip(&pool, reports::Action::ALL).await;
    // A value no variant names is an error, never a default.
    let bad = sqlx::query_scalar::<_, PayoutStatus>("SELECT 'lost'::text")
        .fetch_one(&pool)
        .await;
    assert!(bad.is_err());
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_derived_role_is_one_of_the_roles(pool: PgPool) {
    let user: uuid::Uuid = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) VALUES ('a@example.com', 'x', 'A', 'B', true) RETURNING id",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    let role = |pool: PgPool| async move { domain::accounts::users::find(&pool, user).await.unwrap().unwrap().role };
    assert_eq!(role(pool.clone()).await, Role::User);
    sqlx::query("UPDATE users SET is_admin = true WHERE id = $1")
        .bind(user)
        .execute(&pool)
        .await
        .unwrap();
    assert_eq!(role(pool.clone()).await, Role::Admin);
    // Every name the view can produce is a Role.
    let view: String = sqlx::query_scalar("SELECT pg_get_viewdef('user_accounts'::regclass)")
        .fetch_one(&pool)
        .await
        .unwrap();
    for &r in Role::ALL {
        assert!(view.contains(&format!("'{}'::text", r.as_str())), "{r} in {view}");
    }
}
