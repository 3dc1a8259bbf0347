//! Payouts: the batch's arithmetic to the cent, refunds, free bookings, the minimum, concurrent
//! runs, mark-paid and its races, preferences, earnings, the CSV export and the admin guard,
//! in-process on a real PostgreSQL.

mod support;

use chrono::{DateTime, TimeZone, Utc};
use poem::http::StatusCode;
use serde_json::{Value, json};
use sqlx::PgPool;
use support::{TestApp, app, body};
use uuid::Uuid;

use domain::payouts::{admin, batch, preferences};

struct Mentor {
    id: Uuid,
    sid: String,
    service: Uuid,
}

async fn mentor(app: &TestApp, email: &str, name: &str) -> Mentor {
    let (id, sid) = app.mentor(email, name, "astrology").await;
    let service = app.service(&sid, "astrology", "40").await;
    Mentor {
        id: id.parse().unwrap(),
        sid,
        service: service.parse().unwrap(),
    }
}

async fn seeker(app: &TestApp) -> Uuid {
    match sqlx::query_scalar("SELECT id FROM users WHERE email = 'payer@example.com'")
        .fetch_optional(&app.pool)
        .await
        .unwrap()
    {
        Some(id) => id,
        None => app.signed_in("payer@example.com").await.0,
    }
}

/// A completed booking `days_ago` with `paid_cents` paid (no payment row when None) and a refund
/// of `refund` (cents, status) when given.
async fn completed(
    app: &TestApp,
    m: &Mentor,
    days_ago: i64,
    paid_cents: Option<i64>,
    refund: Option<(i64, &str)>,
) -> Uuid {
    let user = seeker(app).await;
    let total = paid_cents.unwrap_or(0);
    let id: Uuid = sqlx::query_scalar(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, completed_at) \
         VALUES ($1, $2, $3, 'completed', now() - make_interval(days => $4::int), now() - make_interval(days => $4::int) + interval '1 hour', $5, now()) \
         RETURNING id",
    )
    .bind(user)
    .bind(m.id)
    .bind(m.service)
    .bind(days_ago as i32)
    .bind(total)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    if let Some(cents) = paid_cents {
        let payment: Uuid = sqlx::query_scalar(
            "INSERT INTO payments (booking_id, user_id, gateway, amount_cents, card_last4, status, reference) VALUES ($1, $2, 'test', $3, '1111', 'approved', left(replace(gen_random_uuid()::text, '-', ''), 20)) RETURNING id",
        )
        .bind(id)
        .bind(user)
        .bind(cents)
        .fetch_one(&app.pool)
        .await
        .unwrap();
        if let Some((amount, status)) = refund {
            sqlx::query("INSERT INTO refunds (booking_id, payment_id, percentage, amount_cents, status) VALUES ($1, $2, 50, $3, $4)")
                .bind(id)
                .bind(payment)
                .bind(amount)
                .bind(status)
                .execute(&app.pool)
                .await
                .unwrap();
        }
    }
    id
}

async fn admin_session(app: &TestApp) -> String {
    let (id, sid) = app.signed_in("boss@example.com").await;
    sqlx::query("UPDATE users SET is_admin = true WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    sid
}

async fn set_preferences(app: &TestApp, m: &Mentor, extra: Value) -> Value {
    let mut b = json!({"method": "paypal", "paypalEmail": "mentor@pay.example"});
    for (k, v) in extra.as_object().unwrap() {
        b[k] = v.clone();
    }
    let r = app.post("/api/mentor/payout-preferences", b, Some(&m.sid)).await;
    r.assert_status_is_ok();
    body(r).await
}

async fn pending(app: &TestApp, admin: &str) -> Vec<Value> {
    let r = app.get("/api/admin/payouts/pending", Some(admin)).await;
    r.assert_status_is_ok();
    body(r).await.as_array().unwrap().clone()
}

fn of_mentor<'a>(list: &'a [Value], m: &Mentor) -> Vec<&'a Value> {
    list.iter().filter(|p| p["mentorId"] == m.id.to_string()).collect()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_batch_takes_paid_bookings_to_the_cent(pool: PgPool) {
    let app = app(pool).await;
    let admin = admin_session(&app).await;
    let m = mentor(&app, "m1@example.com", "Mira").await;
    // Fees per booking, half up: 6.00, 5.00 (4.9995), 3.00 (2.9985), 0.38 (0.375).
    let mut paid = Vec::new();
    for (days, cents) in [(20, 4_000), (13, 3_333), (6, 1_999), (2, 250)] {
        paid.push(completed(&app, &m, days, Some(cents), None).await);
    }
    // 50.00 with 25.00 refunded: 25.00 counts, fee 3.75.
    paid.push(completed(&app, &m, 9, Some(5_000), Some((2_500, "succeeded"))).await);
    // Fully refunded, free (no payment, or a zero payment), a refund still in flight: none counts.
    let refunded = completed(&app, &m, 8, Some(3_000), Some((3_000, "succeeded"))).await;
    let free = completed(&app, &m, 7, None, None).await;
    let zero = completed(&app, &m, 5, Some(0), None).await;
    let in_flight = completed(&app, &m, 4, Some(2_000), Some((1_000, "pending"))).await;

    let s = batch::run(&app.pool).await.unwrap();
    assert_eq!((s.payouts, s.bookings), (1, 5));
    let list = pending(&app, &admin).await;
    assert_eq!(list.len(), 1);
    let p = &list[0];
    assert_eq!(
        (
            &p["bookingCount"],
            &p["pendingAmount"],
            &p["platformFee"],
            &p["mentorNet"]
        ),
        (&json!(5), &json!("120.82"), &json!("18.13"), &json!("102.69"))
    );
    let mut ids: Vec<String> = p["bookingIds"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect();
    ids.sort();
    let mut want: Vec<String> = paid.iter().map(Uuid::to_string).collect();
    want.sort();
    assert_eq!(ids, want);
    for skipped in [refunded, free, zero, in_flight] {
        assert!(!ids.contains(&skipped.to_string()));
    }
    assert_eq!(p["mentor"]["displayName"], "Mira");
    assert_eq!(p["mentor"]["user"]["email"], "m1@example.com");
    assert_eq!(p["payoutPreferences"], Value::Null);

    // A second run takes nothing; the in-flight refund's booking waits until the refund is done.
    assert_eq!(batch::run(&app.pool).await.unwrap().payouts, 0);
    let e = body(app.get("/api/mentor/earnings", Some(&m.sid)).await).await;
    assert_eq!(
        e["pending"],
        json!({"bookingCount": 5, "pendingAmount": "120.82", "platformFee": "18.13", "mentorNet": "102.69"})
    );
    assert_eq!(e["nextPayout"]["bookingCount"], 0);
    assert_eq!(e["minimumPayout"], "50.00");
    sqlx::query("UPDATE refunds SET status = 'succeeded' WHERE booking_id = $1")
        .bind(in_flight)
        .execute(&app.pool)
        .await
        .unwrap();
    let e = body(app.get("/api/mentor/earnings", Some(&m.sid)).await).await;
    assert_eq!(
        e["nextPayout"],
        json!({"bookingCount": 1, "pendingAmount": "10.00", "platformFee": "1.50", "mentorNet": "8.50"})
    );

    // The mentor is told: a notification and an e-mail.
    let emails = app.queued("emails").await;
    assert!(
        emails
            .iter()
            .any(|e| e["kind"] == "payout_created" && e["payout_id"] == p["id"]),
        "{emails:?}"
    );
    app.deliver_notifications().await;
    let notes = body(app.get("/api/notifications", Some(&m.sid)).await).await;
    assert!(notes.to_string().contains("$102.69"), "{notes}");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_mentor_below_the_minimum_rolls_over(pool: PgPool) {
    let app = app(pool).await;
    let small = mentor(&app, "small@example.com", "Sol").await;
    let big = mentor(&app, "big@example.com", "Bea").await;
    // 40.00 - 6.00 = 34.00 < 50.00 (the default).
    completed(&app, &small, 3, Some(4_000), None).await;
    // Exactly 50.00 net is enough: 5882 cents -> fee 882 (882.3) -> net 5000.
    completed(&app, &big, 3, Some(5_882), None).await;
    let s = batch::run(&app.pool).await.unwrap();
    assert_eq!((s.payouts, s.below_minimum), (1, 1));
    let e = body(app.get("/api/mentor/earnings", Some(&small.sid)).await).await;
    assert_eq!(e["pending"]["bookingCount"], 0);
    assert_eq!(e["nextPayout"]["mentorNet"], "34.00");
    let e = body(app.get("/api/mentor/earnings", Some(&big.sid)).await).await;
    assert_eq!(e["pending"]["mentorNet"], "50.00");

    // The next week adds another session: 68.00 together, over the minimum.
    completed(&app, &small, 1, Some(4_000), None).await;
    assert_eq!(batch::run(&app.pool).await.unwrap().payouts, 1);
    let e = body(app.get("/api/mentor/earnings", Some(&small.sid)).await).await;
    assert_eq!(
        e["pending"],
        json!({"bookingCount": 2, "pendingAmount": "80.00", "platformFee": "12.00", "mentorNet": "68.00"})
    );

    // A mentor's own minimum: 10.00 lets a 20.00 session through at once.
    let low = mentor(&app, "low@example.com", "Lou").await;
    set_preferences(&app, &low, json!({"minimumPayout": "10.00"})).await;
    completed(&app, &low, 2, Some(2_000), None).await;
    assert_eq!(batch::run(&app.pool).await.unwrap().payouts, 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn concurrent_runs_never_put_a_booking_in_two_payouts(pool: PgPool) {
    let app = app(pool).await;
    let mut all = Vec::new();
    for i in 0..12 {
        let m = mentor(&app, &format!("c{i}@example.com"), &format!("Mentor {i}")).await;
        for d in 0..4 {
            all.push(completed(&app, &m, d + 1, Some(2_000 + i * 100 + d), None).await);
        }
    }
    let (a, b, c) = tokio::join!(batch::run(&app.pool), batch::run(&app.pool), batch::run(&app.pool));
    let (a, b, c) = (a.unwrap(), b.unwrap(), c.unwrap());
    assert_eq!(a.payouts + b.payouts + c.payouts, 12, "{a:?} {b:?} {c:?}");
    assert_eq!(a.bookings + b.bookings + c.bookings, all.len());
    let (held, distinct): (i64, i64) =
        sqlx::query_as("SELECT count(*), count(DISTINCT booking_id) FROM payout_bookings")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!((held, distinct), (all.len() as i64, all.len() as i64));
    let sums: (i64, i64, i64) = sqlx::query_as(
        "SELECT sum(po.pending_amount_cents)::bigint, (SELECT sum(amount_cents) FROM payout_bookings)::bigint, count(*) FILTER (WHERE po.mentor_net_cents <> po.pending_amount_cents - po.platform_fee_cents) FROM payouts po",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert_eq!((sums.0, sums.2), (sums.1, 0));

    // One mentor handled by many runs at the same moment: exactly one payout.
    let m = mentor(&app, "race@example.com", "Racer").await;
    for d in 0..3 {
        completed(&app, &m, d + 1, Some(3_000), None).await;
    }
    let runs = futures_like_join(&app.pool, m.id, 6).await;
    assert_eq!(
        runs.iter()
            .filter(|o| matches!(o, batch::MentorOutcome::Created { .. }))
            .count(),
        1,
        "{runs:?}"
    );
    // The database refuses a second payout for a booking, whoever tries.
    let booking: Uuid = sqlx::query_scalar("SELECT booking_id FROM payout_bookings LIMIT 1")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let other: Uuid = sqlx::query_scalar("SELECT id FROM payouts LIMIT 1")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let dup = sqlx::query(
        "INSERT INTO payout_bookings (booking_id, payout_id, amount_cents, fee_cents) VALUES ($1, $2, 1, 0)",
    )
    .bind(booking)
    .bind(other)
    .execute(&app.pool)
    .await;
    assert!(dup.is_err());
}

async fn futures_like_join(pool: &PgPool, mentor_id: Uuid, n: usize) -> Vec<batch::MentorOutcome> {
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            let pool = pool.clone();
            tokio::spawn(async move { batch::for_mentor(&pool, mentor_id).await })
        })
        .collect();
    let mut out = Vec::new();
    for t in tasks {
        out.push(t.await.unwrap().unwrap());
    }
    out
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn mark_paid_rules_and_races(pool: PgPool) {
    let app = app(pool).await;
    let admin = admin_session(&app).await;
    let m = mentor(&app, "paid@example.com", "Pia").await;
    let other = mentor(&app, "other@example.com", "Otto").await;
    let b1 = completed(&app, &m, 10, Some(6_000), None).await;
    let b2 = completed(&app, &m, 3, Some(4_000), None).await;
    completed(&app, &other, 3, Some(9_000), None).await;
    batch::run(&app.pool).await.unwrap();
    let list = pending(&app, &admin).await;
    let p = of_mentor(&list, &m)[0].clone();
    let body_for = |mentor: &Mentor, ids: &[Uuid]| json!({"mentorId": mentor.id.to_string(), "bookingIds": ids.iter().map(Uuid::to_string).collect::<Vec<_>>()});
    let mark = |b: Value| app.post("/api/admin/payouts/mark-paid", b, Some(&admin));

    // No preferences yet.
    let r = mark(body_for(&m, &[b1, b2])).await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], admin::NO_PREFERENCES);
    set_preferences(&app, &m, json!({"method": "venmo", "venmoUsername": "@pia"})).await;
    let listed = pending(&app, &admin).await;
    assert_eq!(
        of_mentor(&listed, &m)[0]["payoutPreferences"],
        json!({"method": "venmo", "paypalEmail": null, "venmoUsername": "@pia", "zelleEmail": null})
    );

    // Part of the payout, another mentor, an unknown booking: not one pending payout of this mentor.
    for wrong in [
        body_for(&m, &[b1]),
        body_for(&other, &[b1, b2]),
        body_for(&m, &[b1, b2, Uuid::new_v4()]),
        body_for(&m, &[]),
    ] {
        let r = mark(wrong).await;
        r.assert_status(StatusCode::CONFLICT);
        assert_eq!(body(r).await["message"], admin::NOT_ONE_PENDING_PAYOUT);
    }
    let r = mark(json!({"mentorId": "nope", "bookingIds": []})).await;
    r.assert_status(StatusCode::BAD_REQUEST);
    let r =
        mark(json!({"mentorId": m.id.to_string(), "bookingIds": [b1.to_string(), b2.to_string()], "method": "cash"}))
            .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    let status: String = sqlx::query_scalar("SELECT status FROM payouts WHERE mentor_id = $1")
        .bind(m.id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(status, "pending", "a refusal changes nothing");

    // Two admins at once: exactly one succeeds.
    let req = json!({"mentorId": m.id.to_string(), "bookingIds": [b2.to_string(), b1.to_string()], "method": "venmo", "recipientInfo": "@pia", "notes": "txn 42"});
    let (x, y) = tokio::join!(mark(req.clone()), mark(req.clone()));
    let mut statuses = [x.0.status(), y.0.status()];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT]);
    let (ok, conflict) = if x.0.status() == StatusCode::OK { (x, y) } else { (y, x) };
    assert_eq!(body(ok).await, json!({"message": "Payout marked as paid"}));
    assert_eq!(body(conflict).await["message"], admin::ALREADY_PAID);
    let r = mark(req).await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], admin::ALREADY_PAID);

    // It left the pending list for the history, with one audit row.
    let listed = pending(&app, &admin).await;
    assert!(of_mentor(&listed, &m).is_empty());
    assert_eq!(listed.len(), 1);
    let history = body(app.get("/api/admin/payouts/history", Some(&admin)).await).await;
    let h = &history[0];
    assert_eq!(
        (
            &h["id"],
            &h["mentor"]["displayName"],
            &h["method"],
            &h["recipientInfo"],
            &h["mentorAmount"]
        ),
        (
            &p["id"],
            &json!("Pia"),
            &json!("venmo"),
            &json!("@pia"),
            &json!("85.00")
        )
    );
    assert!(h["paidAt"].is_string());
    let audits: Vec<(String, Value, Value)> =
        sqlx::query_as("SELECT action, before, after FROM admin_audit WHERE object_type = 'payout'")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(audits.len(), 1);
    assert_eq!(
        (audits[0].0.as_str(), &audits[0].1["status"], &audits[0].2["status"]),
        ("payout.mark_paid", &json!("pending"), &json!("paid"))
    );
    let emails = app.queued("emails").await;
    assert_eq!(emails.iter().filter(|e| e["kind"] == "payout_paid").count(), 1);

    // The mentor's earnings: nothing pending, one payout sent.
    let e = body(app.get("/api/mentor/earnings", Some(&m.sid)).await).await;
    assert_eq!(e["pending"]["bookingCount"], 0);
    assert_eq!(e["history"].as_array().unwrap().len(), 1);
    assert_eq!(
        (&e["history"][0]["mentorAmount"], &e["history"][0]["method"]),
        (&json!("85.00"), &json!("venmo"))
    );

    // Without method and recipient: 'manual' and 'Manual payout'.
    set_preferences(&app, &other, json!({})).await;
    let o = of_mentor(&listed, &other)[0];
    let r = mark(json!({"mentorId": other.id.to_string(), "bookingIds": o["bookingIds"]})).await;
    r.assert_status_is_ok();
    let history = body(app.get("/api/admin/payouts/history", Some(&admin)).await).await;
    assert_eq!(
        (&history[0]["method"], &history[0]["recipientInfo"]),
        (&json!("manual"), &json!("Manual payout"))
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn payout_preferences_validate_and_keep_one_method(pool: PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "prefs@example.com", "Pat").await;
    let r = app.get("/api/mentor/payout-preferences", Some(&m.sid)).await;
    r.assert_status_is_ok();
    assert_eq!(
        body(r).await,
        json!({"mentorId": m.id.to_string(), "method": null, "paypalEmail": null, "venmoUsername": null, "zelleEmail": null, "minimumPayout": "50.00", "notes": null})
    );
    let save = |b: Value| app.post("/api/mentor/payout-preferences", b, Some(&m.sid));
    for (b, message) in [
        (json!({"method": "paypal"}), "Please enter your PayPal email address"),
        (
            json!({"method": "paypal", "paypalEmail": "not-an-email"}),
            "Please enter your PayPal email address",
        ),
        (
            json!({"method": "venmo", "venmoUsername": " "}),
            "Please enter your Venmo username",
        ),
        (
            json!({"method": "zelle", "paypalEmail": "a@b.co"}),
            "Please enter your Zelle email address",
        ),
        (json!({"method": "bitcoin"}), preferences::INVALID_METHOD),
        (
            json!({"method": "paypal", "paypalEmail": "a@b.co", "minimumPayout": "-5"}),
            preferences::INVALID_MINIMUM,
        ),
        (
            json!({"method": "paypal", "paypalEmail": "a@b.co", "minimumPayout": "1.234"}),
            preferences::INVALID_MINIMUM,
        ),
        (
            json!({"method": "paypal", "paypalEmail": "a@b.co", "minimumPayout": -1}),
            preferences::INVALID_MINIMUM,
        ),
    ] {
        let r = save(b.clone()).await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], message, "{b}");
    }
    let r = save(json!({"mentorId": "ignored", "method": "zelle", "zelleEmail": " z@bank.example ", "paypalEmail": "a@b.co", "venmoUsername": "@x", "minimumPayout": 75.5, "notes": " weekly please "})).await;
    r.assert_status_is_ok();
    let saved = body(r).await;
    assert_eq!(
        saved,
        json!({"mentorId": m.id.to_string(), "method": "zelle", "paypalEmail": null, "venmoUsername": null, "zelleEmail": "z@bank.example", "minimumPayout": "75.50", "notes": "weekly please"})
    );
    assert_eq!(
        body(app.get("/api/mentor/payout-preferences", Some(&m.sid)).await).await,
        saved
    );
    // Switching method drops the old field.
    let r = save(json!({"method": "venmo", "venmoUsername": "@pat", "minimumPayout": "0"})).await;
    let saved = body(r).await;
    assert_eq!(
        (&saved["zelleEmail"], &saved["venmoUsername"], &saved["minimumPayout"]),
        (&Value::Null, &json!("@pat"), &json!("0.00"))
    );

    // Not a mentor: like every /api/mentor/* call.
    let (_, seeker) = app.signed_in("just-a-seeker@example.com").await;
    app.get("/api/mentor/payout-preferences", Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.post(
        "/api/mentor/payout-preferences",
        json!({"method": "paypal", "paypalEmail": "a@b.co"}),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    app.get("/api/mentor/earnings", Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.get("/api/mentor/earnings", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn admin_payout_calls_refuse_others_and_export_csv(pool: PgPool) {
    let app = app(pool).await;
    let admin = admin_session(&app).await;
    let m = mentor(&app, "csv@example.com", "Cass").await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let gets = [
        "/api/admin/payouts/pending",
        "/api/admin/payouts/history",
        "/api/admin/payouts/export?status=pending",
    ];
    for path in gets {
        app.get(path, None).await.assert_status(StatusCode::UNAUTHORIZED);
        for sid in [&seeker, &m.sid] {
            let r = app.get(path, Some(sid)).await;
            r.assert_status(StatusCode::FORBIDDEN);
            assert_eq!(body(r).await["message"], "Admin access required");
        }
    }
    for path in ["/api/admin/payouts/run", "/api/admin/payouts/mark-paid"] {
        app.post(path, json!({}), None)
            .await
            .assert_status(StatusCode::UNAUTHORIZED);
        app.post(path, json!({}), Some(&seeker))
            .await
            .assert_status(StatusCode::FORBIDDEN);
        app.post(path, json!({}), Some(&m.sid))
            .await
            .assert_status(StatusCode::FORBIDDEN);
    }

    // Run now: 202 and a task in the worker's queue.
    let r = app.post("/api/admin/payouts/run", json!({}), Some(&admin)).await;
    r.assert_status(StatusCode::ACCEPTED);
    assert_eq!(body(r).await, json!({"message": "Payout batch queued"}));
    assert_eq!(app.queued("payout_batch").await.len(), 1);

    // A display name that a spreadsheet would run, a recipient with a comma.
    sqlx::query("UPDATE mentors SET display_name = '=HYPERLINK(\"x\")' WHERE id = $1")
        .bind(m.id)
        .execute(&app.pool)
        .await
        .unwrap();
    set_preferences(&app, &m, json!({"method": "venmo", "venmoUsername": "@cass,the"})).await;
    completed(&app, &m, 2, Some(10_000), None).await;
    batch::run(&app.pool).await.unwrap();
    let r = app.get("/api/admin/payouts/export?status=pending", Some(&admin)).await;
    r.assert_status_is_ok();
    r.assert_header("content-type", "text/csv; charset=utf-8");
    let text = r.0.into_body().into_string().await.unwrap();
    assert_eq!(
        text,
        "mentor,method,recipient,amount,adjustments\n\"'=HYPERLINK(\"\"x\"\")\",venmo,\"cass,the\",85.00,0.00\n"
    );
    for bad in ["/api/admin/payouts/export", "/api/admin/payouts/export?status=paid"] {
        let r = app.get(bad, Some(&admin)).await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], admin::INVALID_EXPORT_STATUS);
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn this_month_is_the_mentors_own_month(pool: PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "tokyo@example.com", "Tomo").await;
    sqlx::query("UPDATE mentors SET time_zone = 'Asia/Tokyo' WHERE id = $1")
        .bind(m.id)
        .execute(&app.pool)
        .await
        .unwrap();
    let user = seeker(&app).await;
    // 1 March 2027, 09:30 in Tokyo (00:30 UTC). 16:00 UTC on 28 February is 01:00 on 1 March in
    // Tokyo: this month. 14:00 UTC on 28 February is 23:00 on the 28th there: last month.
    let now: DateTime<Utc> = Utc.with_ymd_and_hms(2027, 3, 1, 0, 30, 0).unwrap();
    for start in [
        Utc.with_ymd_and_hms(2027, 2, 28, 16, 0, 0).unwrap(),
        Utc.with_ymd_and_hms(2027, 2, 28, 14, 0, 0).unwrap(),
    ] {
        sqlx::query(
            "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents) VALUES ($1, $2, $3, 'completed', $4, $4 + interval '1 hour', 4000)",
        )
        .bind(user)
        .bind(m.id)
        .bind(m.service)
        .bind(start)
        .execute(&app.pool)
        .await
        .unwrap();
    }
    let stats = domain::booking::dashboards::mentor_stats(&app.pool, m.id, now)
        .await
        .unwrap();
    assert_eq!((stats.total_sessions, stats.this_month), (2, 1));
    // In UTC both are February's: a UTC mentor has none this month.
    sqlx::query("UPDATE mentors SET time_zone = 'UTC' WHERE id = $1")
        .bind(m.id)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(
        domain::booking::dashboards::mentor_stats(&app.pool, m.id, now)
            .await
            .unwrap()
            .this_month,
        0
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_payout_keeps_its_destination_and_a_fresh_change_waits_for_the_next_batch(pool: PgPool) {
    let app = app(pool).await;
    let admin = admin_session(&app).await;
    let m = mentor(&app, "dest@example.com", "Dana").await;
    set_preferences(&app, &m, json!({"method": "paypal", "paypalEmail": "dana@pay.example"})).await;
    // Setting preferences the first time is no change: nothing is held, nobody is warned.
    assert!(
        !app.queued("emails")
            .await
            .iter()
            .any(|e| e["kind"] == "payout_destination_changed")
    );
    completed(&app, &m, 5, Some(10_000), None).await;
    batch::run(&app.pool).await.unwrap();
    let made = of_mentor(&pending(&app, &admin).await, &m)[0].clone();

    // A change after the batch does not move the payout that is on its way: list and CSV keep it.
    set_preferences(&app, &m, json!({"method": "venmo", "venmoUsername": "@thief"})).await;
    let listed = of_mentor(&pending(&app, &admin).await, &m)[0].clone();
    assert_eq!(listed["id"], made["id"]);
    assert_eq!(listed["payoutPreferences"]["method"], "paypal");
    assert_eq!(listed["payoutPreferences"]["paypalEmail"], "dana@pay.example");
    let csv = app.get("/api/admin/payouts/export?status=pending", Some(&admin)).await;
    let text = csv.0.into_body().into_string().await.unwrap();
    assert!(text.contains("paypal,dana@pay.example,85.00"), "{text}");
    assert!(!text.contains("thief"), "{text}");

    // The mentor hears of it by e-mail (old and new, masked) and notification.
    let mails: Vec<Value> = app
        .queued("emails")
        .await
        .into_iter()
        .filter(|e| e["kind"] == "payout_destination_changed")
        .collect();
    assert_eq!(mails.len(), 1);
    assert_eq!(
        (&mails[0]["old"], &mails[0]["new"]),
        (&json!("PayPal d***a@pay.example"), &json!("Venmo @t***f"))
    );
    app.deliver_notifications().await;
    let kinds: Vec<String> = sqlx::query_scalar(
        "SELECT n.type FROM notifications n JOIN mentors m ON m.user_id = n.user_id WHERE m.id = $1",
    )
    .bind(m.id)
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert!(kinds.iter().any(|k| k == "payout_destination_changed"), "{kinds:?}");
    // Saving the same destination again (another minimum) is no change.
    set_preferences(
        &app,
        &m,
        json!({"method": "venmo", "venmoUsername": "@thief", "minimumPayout": "10.00"}),
    )
    .await;
    assert_eq!(
        app.queued("emails")
            .await
            .iter()
            .filter(|e| e["kind"] == "payout_destination_changed")
            .count(),
        1
    );

    // The next batch within 72 hours of the change does not pay the new destination; the admin sees why.
    completed(&app, &m, 2, Some(4_000), None).await;
    let summary = batch::run(&app.pool).await.unwrap();
    assert_eq!((summary.payouts, summary.destination_recently_changed), (0, 1));
    assert_eq!(of_mentor(&pending(&app, &admin).await, &m).len(), 1);
    let held = body(app.get("/api/admin/payouts/held", Some(&admin)).await).await;
    assert_eq!(held.as_array().unwrap().len(), 1);
    assert_eq!(held[0]["mentorId"], m.id.to_string());
    assert_eq!(held[0]["mentor"]["displayName"], "Dana");
    let changed: DateTime<Utc> = held[0]["destinationChangedAt"].as_str().unwrap().parse().unwrap();
    let until: DateTime<Utc> = held[0]["heldUntil"].as_str().unwrap().parse().unwrap();
    assert_eq!(until - changed, domain::payouts::DESTINATION_HOLD);

    // Once the change is 72 hours old, the batch pays the new destination.
    sqlx::query(
        "UPDATE payout_preferences SET destination_changed_at = now() - $2::interval - interval '1 second' \
         WHERE mentor_id = $1",
    )
    .bind(m.id)
    .bind(domain::payouts::DESTINATION_HOLD)
    .execute(&app.pool)
    .await
    .unwrap();
    let summary = batch::run(&app.pool).await.unwrap();
    assert_eq!(summary.payouts, 1);
    let mine = of_mentor(&pending(&app, &admin).await, &m)
        .into_iter()
        .cloned()
        .collect::<Vec<_>>();
    assert_eq!(mine.len(), 2);
    let newest = mine.iter().find(|p| p["id"] != made["id"]).unwrap();
    assert_eq!(newest["payoutPreferences"]["venmoUsername"], "@thief");
    assert!(
        body(app.get("/api/admin/payouts/held", Some(&admin)).await)
            .await
            .as_array()
            .unwrap()
            .is_empty()
    );
}
