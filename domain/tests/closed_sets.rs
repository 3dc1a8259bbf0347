//! Every closed set stored as text matches its column's CHECK constraint exactly (no value the
//! database refuses, none it allows that Rust cannot read), and every value travels to
//! PostgreSQL and back through the enum's own `Encode`/`Decode`.

use std::{collections::BTreeSet, fmt::Debug};

use domain::{
    accounts::{Role, email_links::Purpose},
    admin::jobs::JobState,
    announcements::Audience,
    booking::{BookingStatus, reminders::ReminderKind},
    calendars::connection::ConnectionState,
    calls::CallStatus,
    catalogue::instant::InstantMode,
    catalogue::{mentors::ApprovalStatus, vocabulary::ServiceType},
    complaints::{ComplaintReason, ComplaintStatus, Outcome},
    contact::ContactCategory,
    group_sessions::GroupStatus,
    messaging::messages::MessageType,
    notifications::Kind,
    ownership::data_export::ExportStatus,
    payments::{PaymentStatus, RefundReason, RefundStatus},
    payouts::{PaidMethod, PayoutMethod, PayoutStatus, adjustments::AdjustmentReason},
    presence::Presence,
    readings::{EndReason, ReadingStatus},
    receipts::ReceiptKind,
    reports,
    statuses::RemovalReason,
    wallet::EntryKind,
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

/// Every text column with a `CHECK (column IN (...))`, with the values of its enum.
fn cases() -> Vec<(&'static str, &'static str, BTreeSet<String>)> {
    let cases: Vec<(&str, &str, BTreeSet<String>)> = vec![
        ("bookings", "status", names(BookingStatus::ALL, BookingStatus::as_str)),
        ("group_sessions", "status", names(GroupStatus::ALL, GroupStatus::as_str)),
        ("calls", "status", names(CallStatus::ALL, CallStatus::as_str)),
        ("payments", "status", names(PaymentStatus::ALL, PaymentStatus::as_str)),
        ("refunds", "status", names(RefundStatus::ALL, RefundStatus::as_str)),
        ("refunds", "reason", names(RefundReason::ALL, RefundReason::as_str)),
        (
            "group_call_removals",
            "reason",
            names(RemovalReason::ALL, RemovalReason::as_str),
        ),
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
    let cases = cases.into_iter().chain([
        (
            "complaints",
            "reason",
            names(ComplaintReason::ALL, ComplaintReason::as_str),
        ),
        (
            "complaints",
            "status",
            names(ComplaintStatus::ALL, ComplaintStatus::as_str),
        ),
        ("complaints", "outcome", names(Outcome::ALL, Outcome::as_str)),
        (
            "payout_adjustments",
            "reason",
            names(AdjustmentReason::ALL, AdjustmentReason::as_str),
        ),
        ("receipts", "kind", names(ReceiptKind::ALL, ReceiptKind::as_str)),
        (
            "calendar_connections",
            "state",
            names(ConnectionState::ALL, ConnectionState::as_str),
        ),
        ("data_exports", "status", names(ExportStatus::ALL, ExportStatus::as_str)),
        (
            "mentors",
            "approval_status",
            names(ApprovalStatus::ALL, ApprovalStatus::as_str),
        ),
        (
            "contact_messages",
            "category",
            names(ContactCategory::ALL, ContactCategory::as_str),
        ),
        (
            "booking_reminders",
            "kind",
            names(ReminderKind::ALL, ReminderKind::as_str),
        ),
        ("announcements", "audience", names(Audience::ALL, Audience::as_str)),
        ("email_tokens", "purpose", names(Purpose::ALL, Purpose::as_str)),
        ("mentor_presence", "status", names(Presence::ALL, Presence::as_str)),
        (
            "instant_session_complaints",
            "reason",
            names(ComplaintReason::ALL, ComplaintReason::as_str),
        ),
        (
            "instant_session_complaints",
            "status",
            names(ComplaintStatus::ALL, ComplaintStatus::as_str),
        ),
        (
            "instant_session_complaints",
            "outcome",
            names(Outcome::ALL, Outcome::as_str),
        ),
        ("instant_sessions", "mode", names(InstantMode::ALL, InstantMode::as_str)),
        (
            "instant_sessions",
            "status",
            names(ReadingStatus::ALL, ReadingStatus::as_str),
        ),
        (
            "instant_sessions",
            "end_reason",
            names(EndReason::ALL, EndReason::as_str),
        ),
        ("wallet_entries", "kind", names(EntryKind::ALL, EntryKind::as_str)),
        (
            "wallet_top_ups",
            "status",
            names(PaymentStatus::ALL, PaymentStatus::as_str),
        ),
        (
            "wallet_refunds",
            "status",
            names(RefundStatus::ALL, RefundStatus::as_str),
        ),
    ]);
    cases.collect()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn every_stored_set_matches_its_check_constraint(pool: PgPool) {
    for (table, column, rust) in cases() {
        assert_eq!(allowed(&pool, table, column).await, rust, "{table}.{column}");
    }
}

/// A `CHECK (column IN ('a', 'b'))` on a text column as PostgreSQL prints it: the column's name.
fn checked_column(def: &str) -> Option<&str> {
    let rest = def.strip_prefix("CHECK ((")?;
    let (column, values) = rest.split_once(" = ANY (ARRAY[")?;
    let is_plain = column.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
    (is_plain && values.ends_with("::text])))") && values.starts_with('\'')).then_some(column)
}

#[test]
fn a_check_constraint_names_its_column() {
    let def = "CHECK ((kind = ANY (ARRAY['payment'::text, 'refund'::text])))";
    assert_eq!(checked_column(def), Some("kind"));
    // Numbers, and conditions over more than one column, are not closed sets of text.
    assert_eq!(checked_column("CHECK ((percentage = ANY (ARRAY[0, 50, 100])))"), None);
    assert_eq!(
        checked_column("CHECK (((status <> 'resolved'::text) OR (outcome = ANY (ARRAY['full_refund'::text]))))"),
        None
    );
}

/// A closed set stored without its enum is text any code may get wrong: every text column the
/// schema constrains to a list of values has a case above (and so an enum that matches it).
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn every_check_constrained_text_column_has_its_enum(pool: PgPool) {
    let defs: Vec<(String, String)> = sqlx::query_as(
        "SELECT c.conrelid::regclass::text, pg_get_constraintdef(c.oid) FROM pg_constraint c \
         JOIN pg_namespace n ON n.oid = c.connamespace WHERE c.contype = 'c' AND n.nspname = 'public'",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    let covered: BTreeSet<(String, String)> = cases()
        .into_iter()
        .map(|(t, c, _)| (t.to_string(), c.to_string()))
        .collect();
    let constrained: BTreeSet<(String, String)> = defs
        .iter()
        .filter_map(|(table, def)| checked_column(def).map(|c| (table.clone(), c.to_string())))
        .collect();
    assert!(constrained.len() >= covered.len(), "{constrained:?}");
    let missing: Vec<_> = constrained.difference(&covered).collect();
    assert!(missing.is_empty(), "closed sets without their enum: {missing:?}");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn every_value_travels_to_postgres_and_back(pool: PgPool) {
    round_trip(&pool, BookingStatus::ALL).await;
    round_trip(&pool, ConnectionState::ALL).await;
    round_trip(&pool, GroupStatus::ALL).await;
    round_trip(&pool, CallStatus::ALL).await;
    round_trip(&pool, PaymentStatus::ALL).await;
    round_trip(&pool, RefundStatus::ALL).await;
    round_trip(&pool, RefundReason::ALL).await;
    round_trip(&pool, RemovalReason::ALL).await;
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
    round_trip(&pool, ComplaintReason::ALL).await;
    round_trip(&pool, ComplaintStatus::ALL).await;
    round_trip(&pool, Outcome::ALL).await;
    round_trip(&pool, AdjustmentReason::ALL).await;
    round_trip(&pool, ReceiptKind::ALL).await;
    round_trip(&pool, ExportStatus::ALL).await;
    round_trip(&pool, ApprovalStatus::ALL).await;
    round_trip(&pool, ContactCategory::ALL).await;
    round_trip(&pool, ReminderKind::ALL).await;
    round_trip(&pool, Audience::ALL).await;
    round_trip(&pool, Purpose::ALL).await;
    round_trip(&pool, MessageType::ALL).await;
    round_trip(&pool, JobState::ALL).await;
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
