//! Receipts, refunds and group no-shows on the real database: a rolled-back transaction gives its
//! receipt number back; refunds never pass what was paid; a group session whose mentor joined its call
//! is left alone, one whose mentor never did is cancelled and refunded.

use chrono::{Duration, Utc};
use domain::{
    complaints::group_no_show,
    group_calls::joins,
    money::RefundReason,
    payouts::adjustments::{self, Followed},
    receipts, refunds,
};
use sqlx::PgPool;
use uuid::Uuid;

/// The job storage: refunds queue their payout as they are recorded.
async fn storage(pool: &PgPool) {
    apalis_postgres::PostgresStorage::<()>::setup(pool).await.unwrap();
}

async fn user(pool: &PgPool, name: &str) -> Uuid {
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) \
         VALUES ($1 || '@example.com', 'x', $1, 'Test', true) RETURNING id",
    )
    .bind(name)
    .fetch_one(pool)
    .await
    .unwrap()
}

/// A mentor (id, user id) with one service (group or not).
async fn mentor(pool: &PgPool, group: bool) -> (Uuid, Uuid, Uuid) {
    let user_id = user(pool, &format!("mentor{}", Uuid::new_v4().simple())).await;
    let mentor_id: Uuid = sqlx::query_scalar(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents) \
         VALUES ($1, 'Test Mentor', repeat('A mentor of the complaints test. ', 3), '{Astrology}', 3000) RETURNING id",
    )
    .bind(user_id)
    .fetch_one(pool)
    .await
    .unwrap();
    let service_id: Uuid = sqlx::query_scalar(
        "INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes, is_group_session, max_participants) \
         VALUES ($1, 'Reading', 'A reading for the complaints test.', 'tarot', 3000, 60, $2, CASE WHEN $2 THEN 4 END) RETURNING id",
    )
    .bind(mentor_id)
    .bind(group)
    .fetch_one(pool)
    .await
    .unwrap();
    (mentor_id, user_id, service_id)
}

/// A confirmed, paid booking (30.00) that started `minutes_ago`; its payment's id too.
async fn paid_booking(
    pool: &PgPool,
    seeker: Uuid,
    (mentor_id, _, service_id): (Uuid, Uuid, Uuid),
    minutes_ago: i64,
    group_session: Option<Uuid>,
) -> (Uuid, Uuid) {
    let booking: Uuid = sqlx::query_scalar(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, earliest_scheduled_at, total_cents, confirmed_at, group_session_id) \
         VALUES ($1, $2, $3, 'confirmed', now() - make_interval(mins => $4::int), now() - make_interval(mins => $4::int) + interval '60 minutes', \
                 now() - make_interval(mins => $4::int), 3000, now(), $5) RETURNING id",
    )
    .bind(seeker)
    .bind(mentor_id)
    .bind(service_id)
    .bind(minutes_ago as i32)
    .bind(group_session)
    .fetch_one(pool)
    .await
    .unwrap();
    let payment: Uuid = sqlx::query_scalar(
        "INSERT INTO payments (booking_id, user_id, gateway, transaction_id, amount_cents, card_last4, status, reference) \
         VALUES ($1, $2, 'test', 'tx', 3000, '1111', 'approved', left(replace(gen_random_uuid()::text, '-', ''), 20)) RETURNING id",
    )
    .bind(booking)
    .bind(seeker)
    .fetch_one(pool)
    .await
    .unwrap();
    (booking, payment)
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_rolled_back_transaction_gives_its_receipt_number_back(pool: PgPool) {
    let m = mentor(&pool, false).await;
    let seeker = user(&pool, "ann").await;
    let (_, p1) = paid_booking(&pool, seeker, m, 600, None).await;
    let (_, p2) = paid_booking(&pool, seeker, m, 300, None).await;
    let now = Utc::now();
    let mut tx = pool.begin().await.unwrap();
    let lost = receipts::issue_for_payment(&mut tx, p1, now).await.unwrap().unwrap();
    tx.rollback().await.unwrap();
    let mut tx = pool.begin().await.unwrap();
    let first = receipts::issue_for_payment(&mut tx, p2, now).await.unwrap().unwrap();
    let second = receipts::issue_for_payment(&mut tx, p1, now).await.unwrap().unwrap();
    tx.commit().await.unwrap();
    assert_eq!(lost.number, first.number, "the rolled-back number is taken again");
    assert_eq!(
        first.number,
        receipts::number(now.format("%Y").to_string().parse().unwrap(), 1)
    );
    assert_eq!(
        second.number,
        receipts::number(now.format("%Y").to_string().parse().unwrap(), 2)
    );
    assert_eq!(second.amount_cents, 3000);
    assert_eq!(second.card_last4.as_deref(), Some("1111"));
    assert_eq!(second.payer_name, "ann Test");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn refunds_of_a_booking_never_pass_what_was_paid(pool: PgPool) {
    storage(&pool).await;
    let m = mentor(&pool, false).await;
    let seeker = user(&pool, "bea").await;
    let (booking, _) = paid_booking(&pool, seeker, m, 600, None).await;
    let mut tx = pool.begin().await.unwrap();
    let money = refunds::locked_money(&mut tx, booking).await.unwrap().unwrap();
    assert_eq!((money.paid_cents, money.left_cents()), (3000, 3000));
    let r = refunds::record(&mut tx, &money, 1000, RefundReason::Goodwill, None, Some("late"))
        .await
        .unwrap();
    assert_eq!(r.followed, Followed::NothingToDo, "in no payout: nothing to adjust");
    let money = refunds::locked_money(&mut tx, booking).await.unwrap().unwrap();
    assert_eq!(money.left_cents(), 2000);
    tx.commit().await.unwrap();
    let admin = user(&pool, "root").await;
    let err = refunds::goodwill(&pool, admin, booking, Some("20.01"), Some("more"), Utc::now())
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "The refund cannot be more than what is left to refund ($20.00)"
    );
    refunds::goodwill(&pool, admin, booking, Some("20.00"), Some("the rest"), Utc::now())
        .await
        .unwrap();
    let err = refunds::goodwill(&pool, admin, booking, Some("0.01"), Some("more"), Utc::now())
        .await
        .unwrap_err();
    assert_eq!(err.to_string(), refunds::NOTHING_LEFT);
    assert_eq!(adjustments::mentor_share(3000), 2550);
}

/// A group session that ended ten minutes ago, still active (seats can be added), and its closing.
async fn group_session(pool: &PgPool, m: (Uuid, Uuid, Uuid)) -> Uuid {
    sqlx::query_scalar(
        "INSERT INTO group_sessions (mentor_id, service_id, title, scheduled_at, ends_at, max_participants, status) \
         VALUES ($1, $2, 'Circle', now() - interval '70 minutes', now() - interval '10 minutes', 4, 'active') RETURNING id",
    )
    .bind(m.0)
    .bind(m.2)
    .fetch_one(pool)
    .await
    .unwrap()
}

/// The state job's end of the session (what `group_sessions::lifecycle::finish` writes).
async fn finished(pool: &PgPool, g: Uuid) {
    sqlx::query("UPDATE group_sessions SET status = 'completed' WHERE id = $1")
        .bind(g)
        .execute(pool)
        .await
        .unwrap();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_group_session_whose_mentor_joined_is_left_alone(pool: PgPool) {
    let m = mentor(&pool, true).await;
    let g = group_session(&pool, m).await;
    let seeker = user(&pool, "cal").await;
    paid_booking(&pool, seeker, m, 70, Some(g)).await;
    // The mentor was in the call from 5 minutes after the start, and left before the end.
    sqlx::query(
        "INSERT INTO group_call_joins (group_session_id, user_id, joined_at, left_at) \
         VALUES ($1, $2, now() - interval '65 minutes', now() - interval '30 minutes')",
    )
    .bind(g)
    .bind(m.1)
    .execute(&pool)
    .await
    .unwrap();
    finished(&pool, g).await;
    let mut tx = pool.begin().await.unwrap();
    assert_eq!(group_no_show::settle(&mut tx, g, Utc::now()).await.unwrap(), None);
    tx.commit().await.unwrap();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_group_session_whose_mentor_never_joined_is_cancelled_and_refunded(pool: PgPool) {
    storage(&pool).await;
    let m = mentor(&pool, true).await;
    let g = group_session(&pool, m).await;
    let (a, b) = (user(&pool, "dee").await, user(&pool, "eve").await);
    let (seat_a, _) = paid_booking(&pool, a, m, 70, Some(g)).await;
    paid_booking(&pool, b, m, 70, Some(g)).await;
    // A join 20 minutes before the start is outside the window (15 minutes before the start to the end).
    joins::joined(&pool, g, m.1).await.unwrap();
    sqlx::query(
        "UPDATE group_call_joins SET joined_at = now() - interval '95 minutes', left_at = now() - interval '90 minutes'",
    )
    .execute(&pool)
    .await
    .unwrap();
    finished(&pool, g).await;
    let mut tx = pool.begin().await.unwrap();
    let settled = group_no_show::settle(&mut tx, g, Utc::now() + Duration::seconds(1))
        .await
        .unwrap()
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(settled.seats.len(), 2);
    assert!(settled.seats.iter().all(|(_, refund)| refund.is_some()));
    let (status, reason, cents): (String, String, i64) = sqlx::query_as(
        "SELECT b.status, r.reason, r.amount_cents FROM bookings b JOIN refunds r ON r.booking_id = b.id WHERE b.id = $1",
    )
    .bind(seat_a)
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(
        (status.as_str(), reason.as_str(), cents),
        ("cancelled", "no_show", 3000)
    );
    let session: String = sqlx::query_scalar("SELECT status FROM group_sessions WHERE id = $1")
        .bind(g)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(session, "cancelled");
    // Settled once.
    let mut tx = pool.begin().await.unwrap();
    assert_eq!(group_no_show::settle(&mut tx, g, Utc::now()).await.unwrap(), None);
}
