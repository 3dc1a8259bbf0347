//! Money that survives failures: charges and refunds whose answers are lost, refused or late are
//! settled once, by the api or by the worker's reconciliation, and never made twice.

mod support;

use std::time::Duration;

use chrono::{DurationRound, Utc};
use domain::{
    Config,
    config::{GatewayFault, GatewayKind, TestGatewaySettings},
    payments::{ChargeOutcome, checkout, refund_payout, test_gateway::TestGateway},
};
use jobs::{JobContext, Settings};
use serde_json::{Value, json};
use sqlx::PgPool;
use support::{TestApp, app_with, body};

fn gateway(settings: TestGatewaySettings) -> impl FnOnce(&mut Config) {
    move |c| {
        c.payment_gateway = GatewayKind::Test(settings);
        c.payment_reconcile_after = chrono::Duration::zero();
    }
}

fn fast() -> Settings {
    Settings {
        poll_every: Duration::from_millis(50),
        retry_min: Duration::from_millis(20),
        retry_max: Duration::from_millis(100),
        heartbeat: Duration::from_secs(1),
    }
}

/// A worker running in the background until dropped.
struct Worker(tokio::task::JoinHandle<()>);

impl Drop for Worker {
    fn drop(&mut self) {
        self.0.abort();
    }
}

/// The worker, with the api's configuration but its own gateway settings.
fn start_worker(pool: &PgPool, settings: TestGatewaySettings) -> Worker {
    let mut config = Config::from_lookup(|k| {
        (k == "MAIL_DIR").then(|| std::env::temp_dir().join("mentor-payments-mail").display().to_string())
    })
    .unwrap();
    gateway(settings)(&mut config);
    let ctx = JobContext::new(pool.clone(), config).unwrap();
    Worker(tokio::spawn(async move {
        let _ = jobs::monitor(ctx, fast()).run().await;
    }))
}

async fn eventually<T, Fut: std::future::Future<Output = Option<T>>>(secs: u64, mut check: impl FnMut() -> Fut) -> T {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(secs);
    loop {
        if let Some(v) = check().await {
            return v;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "condition not met within {secs}s"
        );
        tokio::time::sleep(Duration::from_millis(25)).await;
    }
}

struct Held {
    seeker: String,
    reservation: String,
}

/// A seeker holding a paid 40.00 reservation two days ahead.
async fn held(app: &TestApp) -> Held {
    let (mentor, mentor_sid) = app.mentor("mentor@example.com", "Mira", "astrology").await;
    app.put("/api/mentor/profile", json!({"timeZone": "UTC"}), Some(&mentor_sid))
        .await
        .assert_status_is_ok();
    for day in 0..7 {
        app.post(
            "/api/mentor/availability",
            json!({"dayOfWeek": day, "startTime": "00:00", "endTime": "24:00"}),
            Some(&mentor_sid),
        )
        .await;
    }
    let service = app.service(&mentor_sid, "astrology", "40").await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let at = (Utc::now() + chrono::Duration::hours(48))
        .duration_trunc(chrono::Duration::hours(1))
        .unwrap();
    let r = body(
        app.post(
            "/api/reservations",
            json!({"serviceId": service, "mentorId": mentor, "scheduledAt": at, "totalAmount": "40"}),
            Some(&seeker),
        )
        .await,
    )
    .await;
    Held {
        seeker,
        reservation: r["reservation"]["id"].as_str().unwrap().to_string(),
    }
}

async fn pay(app: &TestApp, h: &Held) -> Value {
    let card = json!({"reservationId": h.reservation, "cardNumber": "4111111111111111", "expirationDate": "1230", "cardCode": "123", "billingInfo": {"firstName": "A", "lastName": "B", "zip": "1"}});
    let r = app.post("/api/process-payment-v2", card, Some(&h.seeker)).await;
    r.assert_status_is_ok();
    body(r).await
}

async fn booking_status(pool: &PgPool, id: &str) -> String {
    sqlx::query_scalar("SELECT status FROM bookings WHERE id = $1::uuid")
        .bind(id)
        .fetch_one(pool)
        .await
        .unwrap()
}

async fn payment_statuses(pool: &PgPool) -> Vec<String> {
    sqlx::query_scalar("SELECT status FROM payments ORDER BY created_at")
        .fetch_all(pool)
        .await
        .unwrap()
}

async fn charges_made(pool: &PgPool) -> i64 {
    sqlx::query_scalar(
        "SELECT count(*) FROM test_gateway.transactions WHERE kind = 'charge' AND transaction_id IS NOT NULL",
    )
    .fetch_one(pool)
    .await
    .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_charge_whose_answer_was_lost_is_confirmed_by_reconciliation(pool: PgPool) {
    let lost = TestGatewaySettings {
        charge_fault: Some(GatewayFault::LostAnswer),
        ..Default::default()
    };
    let app = app_with(pool.clone(), gateway(lost)).await;
    let h = held(&app).await;
    let answer = pay(&app, &h).await;
    assert_eq!(answer["success"], false);
    assert_eq!(answer["error"], checkout::UNCONFIRMED);
    assert_eq!(charges_made(&pool).await, 1, "the gateway charged");
    assert_eq!(
        payment_statuses(&pool).await,
        ["processing"],
        "not recorded as 'nothing charged'"
    );
    // A retry while the first attempt is open charges nothing more.
    let retry = pay(&app, &h).await;
    assert_eq!(retry["success"], false);
    assert_eq!(charges_made(&pool).await, 1, "a retry charges nothing more");

    let _worker = start_worker(&pool, TestGatewaySettings::default());
    eventually(20, || async {
        (booking_status(&pool, &h.reservation).await == "confirmed").then_some(())
    })
    .await;
    assert_eq!(payment_statuses(&pool).await, ["approved"]);
    assert_eq!(charges_made(&pool).await, 1);
    let mails = app.queued("emails").await;
    assert!(
        mails.iter().any(|m| m["kind"] == "booking_confirmed"),
        "the confirmation e-mail is queued: {mails:?}"
    );
    // The seeker paying again now is told it is paid, and nothing is charged.
    let again = pay(&app, &h).await;
    assert_eq!(again["success"], true, "{again}");
    assert_eq!(charges_made(&pool).await, 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_charge_that_never_reached_the_gateway_settles_as_not_charged(pool: PgPool) {
    let unreachable = TestGatewaySettings {
        charge_fault: Some(GatewayFault::Unreachable),
        ..Default::default()
    };
    let app = app_with(pool.clone(), gateway(unreachable)).await;
    let h = held(&app).await;
    assert_eq!(pay(&app, &h).await["error"], checkout::UNCONFIRMED);
    let _worker = start_worker(&pool, TestGatewaySettings::default());
    // The gateway does not know the reference; past its answer deadline the attempt is closed.
    eventually(30, || async {
        (payment_statuses(&pool).await == ["error"]).then_some(())
    })
    .await;
    assert_eq!(
        booking_status(&pool, &h.reservation).await,
        "reserved",
        "the hold stays until it expires"
    );
    assert_eq!(charges_made(&pool).await, 0);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn concurrent_payments_charge_once(pool: PgPool) {
    let slow = TestGatewaySettings {
        charge_delay_ms: 300,
        ..Default::default()
    };
    let app = app_with(pool.clone(), gateway(slow)).await;
    let h = held(&app).await;
    let answers = futures::future::join_all((0..5).map(|_| pay(&app, &h))).await;
    for a in &answers {
        assert_eq!(a["success"], true, "{a}");
    }
    assert_eq!(charges_made(&pool).await, 1);
    assert_eq!(payment_statuses(&pool).await, ["approved"]);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_charge_that_settles_after_its_hold_has_gone_is_refunded(pool: PgPool) {
    let app = app_with(pool.clone(), gateway(TestGatewaySettings::default())).await;
    let h = held(&app).await;
    let id: uuid::Uuid = h.reservation.parse().unwrap();
    let user: uuid::Uuid = sqlx::query_scalar("SELECT user_id FROM bookings WHERE id = $1")
        .bind(id)
        .fetch_one(&pool)
        .await
        .unwrap();
    let mut tx = pool.begin().await.unwrap();
    let checkout::Start::Charge(attempt) = checkout::start(&mut tx, "test", user, id, "1111", Utc::now())
        .await
        .unwrap()
    else {
        panic!("a charge")
    };
    tx.commit().await.unwrap();
    sqlx::query("UPDATE bookings SET status = 'expired' WHERE id = $1")
        .bind(id)
        .execute(&pool)
        .await
        .unwrap();
    let settled = domain::payments::pay::settle(
        &pool,
        attempt.payment_id,
        &ChargeOutcome::Approved {
            transaction_id: "t-1".into(),
        },
    )
    .await
    .unwrap();
    assert!(matches!(settled, checkout::Settled::Reversed { .. }));
    let (percentage, cents, reason): (i16, i64, String) =
        sqlx::query_as("SELECT percentage, amount_cents, reason FROM refunds WHERE booking_id = $1")
            .bind(id)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((percentage, cents, reason.as_str()), (100, 4000, "reversal"));
    assert_eq!(app.queued("refunds").await.len(), 1);
    assert_eq!(booking_status(&pool, &h.reservation).await, "expired");
}

/// A cancelled paid booking with a pending refund; returns the refund's id.
async fn pending_refund(app: &TestApp, pool: &PgPool) -> uuid::Uuid {
    let h = held(app).await;
    assert_eq!(pay(app, &h).await["success"], true);
    let cancel = app
        .put(
            &format!("/api/user/bookings/{}/cancel", h.reservation),
            json!({"acknowledgePolicy": true}),
            Some(&h.seeker),
        )
        .await;
    cancel.assert_status_is_ok();
    sqlx::query_scalar("SELECT id FROM refunds WHERE status = 'pending'")
        .fetch_one(pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_refund_whose_answer_was_lost_is_not_paid_twice(pool: PgPool) {
    let app = app_with(pool.clone(), gateway(TestGatewaySettings::default())).await;
    let refund = pending_refund(&app, &pool).await;
    let lost = TestGateway::new(
        pool.clone(),
        TestGatewaySettings {
            refund_fault: Some(GatewayFault::LostAnswer),
            ..Default::default()
        },
    );
    assert!(
        refund_payout::pay_out(&pool, &lost, refund).await.is_err(),
        "the outcome is unknown"
    );
    let status: String = sqlx::query_scalar("SELECT status FROM refunds WHERE id = $1")
        .bind(refund)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(status, "pending");
    // The retry asks the gateway first and finds the refund it already made.
    let healthy = TestGateway::new(pool.clone(), TestGatewaySettings::default());
    refund_payout::pay_out(&pool, &healthy, refund).await.unwrap();
    let (status, attempts, made): (String, i32, String) =
        sqlx::query_as("SELECT status, attempts, gateway_transaction_id FROM refunds WHERE id = $1")
            .bind(refund)
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!((status.as_str(), attempts), ("succeeded", 1), "one refund sent");
    let ledger: Vec<String> =
        sqlx::query_scalar("SELECT transaction_id FROM test_gateway.transactions WHERE kind = 'refund'")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(ledger, [made]);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_refund_that_fails_every_attempt_ends_failed(pool: PgPool) {
    let app = app_with(pool.clone(), gateway(TestGatewaySettings::default())).await;
    let refund = pending_refund(&app, &pool).await;
    let _worker = start_worker(
        &pool,
        TestGatewaySettings {
            refund_fault: Some(GatewayFault::Unreachable),
            ..Default::default()
        },
    );
    let (status, error): (String, String) = eventually(60, || async {
        sqlx::query_as::<_, (String, Option<String>)>("SELECT status, last_error FROM refunds WHERE id = $1")
            .bind(refund)
            .fetch_one(&pool)
            .await
            .ok()
            .filter(|(s, _)| s == "failed")
            .map(|(s, e)| (s, e.unwrap_or_default()))
    })
    .await;
    assert_eq!(status, "failed");
    assert!(error.contains("unknown") || error.contains("refused"), "{error}");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn an_undecodable_task_neither_stops_its_queue_nor_hides_from_operators(pool: PgPool) {
    let app = app_with(pool.clone(), gateway(TestGatewaySettings::default())).await;
    let refund = pending_refund(&app, &pool).await;
    // Park the real refund task; a row no worker can decode goes first.
    sqlx::query("UPDATE apalis.jobs SET run_at = now() + interval '1 hour' WHERE job_type = 'refunds'")
        .execute(&pool)
        .await
        .unwrap();
    sqlx::query(
        "INSERT INTO apalis.jobs (job, id, job_type, status, attempts, max_attempts, run_at) \
         VALUES (convert_to('{}', 'UTF8'), 'not-a-ulid', 'refunds', 'Pending', 0, 8, now() - interval '1 second')",
    )
    .execute(&pool)
    .await
    .unwrap();
    let _worker = start_worker(&pool, TestGatewaySettings::default());
    eventually(30, || async {
        let status: String = sqlx::query_scalar("SELECT status FROM apalis.jobs WHERE id = 'not-a-ulid'")
            .fetch_one(&pool)
            .await
            .unwrap();
        let restarts: Option<i32> = sqlx::query_scalar("SELECT restarts FROM job_queue_health WHERE queue = 'refunds'")
            .fetch_optional(&pool)
            .await
            .unwrap();
        (status == "Failed" && restarts.is_some_and(|r| r >= 1)).then_some(())
    })
    .await;
    let health = body(app.get("/api/health", None).await).await;
    let refunds = health["details"]["queues"]
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["name"] == "refunds")
        .unwrap()
        .clone();
    assert_eq!(refunds["state"], "failing", "{refunds}");
    assert!(refunds["setAside"].as_i64().unwrap() >= 1);
    // The queue still works: the real refund is paid once it is due.
    sqlx::query("UPDATE apalis.jobs SET run_at = now() WHERE job_type = 'refunds' AND id <> 'not-a-ulid'")
        .execute(&pool)
        .await
        .unwrap();
    eventually(30, || async {
        let status: String = sqlx::query_scalar("SELECT status FROM refunds WHERE id = $1")
            .bind(refund)
            .fetch_one(&pool)
            .await
            .unwrap();
        (status == "succeeded").then_some(())
    })
    .await;
}
