//! Web Push on a real PostgreSQL: subscriptions (one row per endpoint, moved between accounts, at
//! most ten per user, gone with their session) and which browsers a push is queued for
//! (preferences, and messages only to users with no live socket).

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use domain::{
    accounts::sessions,
    public_address::Policy,
    push::{
        self, ForUser, PushContent, PushKind, preferences,
        subscriptions::{self, NewSubscription},
    },
};
use sqlx::PgPool;
use uuid::Uuid;

const LOCAL: Policy = Policy { allow_local: true };

async fn user(pool: &PgPool, name: &str) -> Uuid {
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) \
         VALUES ($1 || '@example.com', 'x', $1, 'Push', true) RETURNING id",
    )
    .bind(name)
    .fetch_one(pool)
    .await
    .unwrap()
}

fn browser(n: usize) -> NewSubscription {
    use web_push_native::p256::{
        SecretKey,
        elliptic_curve::{rand_core::OsRng, sec1::ToEncodedPoint},
    };
    let point = SecretKey::random(&mut OsRng).public_key().to_encoded_point(false);
    NewSubscription {
        endpoint: format!("http://127.0.0.1:9/push/{n}"),
        p256dh: URL_SAFE_NO_PAD.encode(point.as_bytes()),
        auth: URL_SAFE_NO_PAD.encode([n as u8; 16]),
        user_agent: Some(format!("Browser/{n}")),
    }
}

fn content(kind: PushKind) -> PushContent {
    PushContent {
        kind,
        title: "t".into(),
        body: "b".into(),
        url: "/".into(),
        tag: "x".into(),
    }
}

async fn queued(pool: &PgPool) -> i64 {
    sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE job_type = $1")
        .bind(push::QUEUE)
        .fetch_one(pool)
        .await
        .unwrap()
}

#[test]
fn a_socket_goes_stale_for_pushes_when_it_does_for_calls() {
    assert_eq!(
        push::SOCKET_STALE_AFTER_SECONDS,
        domain::calls::sockets::STALE_AFTER.num_seconds()
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn one_row_per_endpoint_ten_per_user_gone_with_the_session(pool: PgPool) {
    let (ann, bob) = (user(&pool, "ann").await, user(&pool, "bob").await);
    let (ann_here, ann_there) = (
        sessions::create(&pool, ann).await.unwrap(),
        sessions::create(&pool, ann).await.unwrap(),
    );
    let bob_session = sessions::create(&pool, bob).await.unwrap();

    let (first, created) = subscriptions::save(&pool, ann, &ann_here, browser(0), LOCAL)
        .await
        .unwrap();
    assert!(created);
    let (again, created) = subscriptions::save(&pool, ann, &ann_here, browser(0), LOCAL)
        .await
        .unwrap();
    assert_eq!((again.id, created), (first.id, false));

    // Ten browsers at most: the eleventh pushes out the least recently saved.
    for n in 1..=10 {
        subscriptions::save(&pool, ann, &ann_there, browser(n), LOCAL)
            .await
            .unwrap();
    }
    let listed = subscriptions::list(&pool, ann, &ann_here).await.unwrap();
    assert_eq!(listed.len(), subscriptions::MAX_PER_USER as usize);
    assert!(!listed.iter().any(|d| d.id == first.id), "browser 0 was the oldest");
    assert!(listed.iter().all(|d| !d.current), "all saved by the other session");

    // The same endpoint from another account moves there.
    let moved = subscriptions::save(&pool, bob, &bob_session, browser(5), LOCAL)
        .await
        .unwrap()
        .0;
    assert_eq!(subscriptions::list(&pool, ann, &ann_here).await.unwrap().len(), 9);
    assert_eq!(
        subscriptions::list(&pool, bob, &bob_session).await.unwrap()[0].id,
        moved.id
    );
    assert!(
        subscriptions::delete(&pool, ann, moved.id).await.is_err(),
        "not Ann's any more"
    );

    // Signing out of the other browser takes its subscriptions with it.
    sessions::end(&pool, &ann_there).await.unwrap();
    assert!(subscriptions::list(&pool, ann, &ann_here).await.unwrap().is_empty());
    assert_eq!(subscriptions::list(&pool, bob, &bob_session).await.unwrap().len(), 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn pushes_follow_preferences_and_messages_skip_connected_users(pool: PgPool) {
    apalis_postgres::PostgresStorage::setup(&pool).await.unwrap();
    let (ann, bob) = (user(&pool, "ann").await, user(&pool, "bob").await);
    for (who, n) in [(ann, 0), (ann, 1), (bob, 2)] {
        let session = sessions::create(&pool, who).await.unwrap();
        subscriptions::save(&pool, who, &session, browser(n), LOCAL)
            .await
            .unwrap();
    }
    let to = |user_id, kind| ForUser {
        user_id,
        content: content(kind),
        topic: None,
    };

    let mut tx = pool.begin().await.unwrap();
    let n = push::queue(
        &mut tx,
        &[to(ann, PushKind::BookingConfirmed), to(bob, PushKind::BookingConfirmed)],
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    assert_eq!((n, queued(&pool).await), (3, 3), "one task per browser");

    preferences::update(
        &pool,
        ann,
        preferences::Changes {
            bookings: Some(false),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    let mut tx = pool.begin().await.unwrap();
    let n = push::queue(
        &mut tx,
        &[to(ann, PushKind::BookingCancelled), to(ann, PushKind::SessionReminder)],
    )
    .await
    .unwrap();
    assert_eq!(n, 2, "bookings off, reminders still on");

    // Bob has a live socket: a message is not pushed to him; a ring is.
    sqlx::query("INSERT INTO realtime_sockets (socket_id, user_id) VALUES ($1, $2)")
        .bind(Uuid::new_v4())
        .bind(bob)
        .execute(&mut *tx)
        .await
        .unwrap();
    assert_eq!(push::queue(&mut tx, &[to(bob, PushKind::NewMessage)]).await.unwrap(), 0);
    assert_eq!(
        push::queue(&mut tx, &[to(bob, PushKind::IncomingCall)]).await.unwrap(),
        1
    );
    // A socket silent past the stale limit is no connection.
    sqlx::query("UPDATE realtime_sockets SET seen_at = now() - interval '91 seconds'")
        .execute(&mut *tx)
        .await
        .unwrap();
    assert_eq!(push::queue(&mut tx, &[to(bob, PushKind::NewMessage)]).await.unwrap(), 1);
    tx.rollback().await.unwrap();
    assert_eq!(queued(&pool).await, 3, "queued with their cause: rolled back with it");
}
