//! Reports of abuse: who may report what, once each, at most 20 a day; admins resolve them by
//! hiding a review (the rating follows) or a message, or deactivating the user behind them, or
//! dismiss them. In-process on a real PostgreSQL.

mod support;

use poem::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, app, body};
use uuid::Uuid;

async fn admin(app: &TestApp) -> String {
    let (id, sid) = app.signed_in("boss@example.com").await;
    sqlx::query("UPDATE users SET is_admin = true WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    sid
}

/// A completed booking of `seeker` with `mentor` and its review of `rating` stars.
async fn review(app: &TestApp, mentor: Uuid, seeker: Uuid, rating: i16) -> Uuid {
    let service: Uuid = sqlx::query_scalar(
        "INSERT INTO services (mentor_id, title, description, service_type, price_cents, duration_minutes) \
         VALUES ($1, 'Reading', 'A reading of twenty characters.', 'tarot', 1000, 60) RETURNING id",
    )
    .bind(mentor)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    let booking: Uuid = sqlx::query_scalar(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, completed_at) \
         VALUES ($1, $2, $3, 'completed', now() - interval '3 days' - make_interval(mins => $4::int), \
                 now() - interval '3 days' - make_interval(mins => $4::int) + interval '1 hour', 1000, now()) RETURNING id",
    )
    .bind(seeker)
    .bind(mentor)
    .bind(service)
    .bind(i32::from(rating) * 90)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    sqlx::query_scalar(
        "INSERT INTO reviews (mentor_id, user_id, booking_id, rating, comment) VALUES ($1, $2, $3, $4, 'Words') RETURNING id",
    )
    .bind(mentor)
    .bind(seeker)
    .bind(booking)
    .bind(rating)
    .fetch_one(&app.pool)
    .await
    .unwrap()
}

async fn rating(app: &TestApp, mentor: Uuid) -> (String, i32) {
    sqlx::query_as("SELECT rating::text, review_count FROM mentors WHERE id = $1")
        .bind(mentor)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

fn report(target_type: &str, target_id: impl ToString, reason: &str) -> Value {
    json!({"targetType": target_type, "targetId": target_id.to_string(), "reason": reason, "details": "It happened."})
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn reports_are_checked_once_each_and_limited(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, _) = app.mentor("mira@example.com", "Mira", "tarot").await;
    let mentor: Uuid = mentor.parse().unwrap();
    let (seeker, sid) = app.signed_in("sam@example.com").await;
    let (other, other_sid) = app.signed_in("olga@example.com").await;

    let r = app
        .post("/api/reports", report("mentor", mentor, "scam_or_fraud"), None)
        .await;
    r.assert_status(StatusCode::UNAUTHORIZED);
    let r = app
        .post("/api/reports", report("mentor", mentor, "scam_or_fraud"), Some(&sid))
        .await;
    r.assert_status(StatusCode::CREATED);
    let made = body(r).await;
    assert_eq!(
        (&made["status"], &made["targetType"]),
        (&json!("open"), &json!("mentor"))
    );
    assert!(made["id"].is_string());
    // The same thing twice: 409; someone else may still report it.
    let r = app
        .post("/api/reports", report("mentor", mentor, "harassment"), Some(&sid))
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], domain::reports::ALREADY_REPORTED);
    app.post("/api/reports", report("mentor", mentor, "harassment"), Some(&other_sid))
        .await
        .assert_status(StatusCode::CREATED);

    // Bad input, in words.
    for (bad, message) in [
        (report("booking", mentor, "other"), domain::reports::INVALID_TARGET_TYPE),
        (report("mentor", mentor, "rude"), domain::reports::INVALID_REASON),
        (
            json!({"targetType": "user", "targetId": other.to_string(), "reason": "other"}),
            domain::reports::DETAILS_REQUIRED,
        ),
        (
            json!({"targetType": "user", "targetId": other.to_string(), "reason": "other", "details": "x".repeat(2001)}),
            domain::reports::DETAILS_TOO_LONG,
        ),
    ] {
        let r = app.post("/api/reports", bad, Some(&sid)).await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], message);
    }
    // A user id is stored whether or not it names anyone (201, then 409), so the answer never tells
    // whether a user exists.
    let nobody = Uuid::new_v4();
    app.post("/api/reports", report("user", nobody, "harassment"), Some(&sid))
        .await
        .assert_status(StatusCode::CREATED);
    app.post("/api/reports", report("user", nobody, "harassment"), Some(&sid))
        .await
        .assert_status(StatusCode::CONFLICT);
    // What the reporter cannot see is 404: someone else's conversation.
    let conversation: Uuid =
        sqlx::query_scalar("INSERT INTO conversations (mentor_id, user_id) VALUES ($1, $2) RETURNING id")
            .bind(mentor)
            .bind(other)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    let message: Uuid = sqlx::query_scalar(
        "INSERT INTO messages (conversation_id, sender_id, content) VALUES ($1, $2, 'private') RETURNING id",
    )
    .bind(conversation)
    .bind(other)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    for hidden in [report("message", message, "harassment")] {
        app.post("/api/reports", hidden, Some(&sid))
            .await
            .assert_status(StatusCode::NOT_FOUND);
    }
    let _ = seeker;

    // At most 20 in 24 hours: 2 made, 18 more, then 429.
    for _ in 0..domain::reports::MAX_REPORTS_PER_WINDOW - 2 {
        let (u, _) = app
            .signed_in(&format!("u{}@example.com", Uuid::new_v4().simple()))
            .await;
        app.post("/api/reports", report("user", u, "harassment"), Some(&sid))
            .await
            .assert_status(StatusCode::CREATED);
    }
    let (u, _) = app.signed_in("last@example.com").await;
    let r = app
        .post("/api/reports", report("user", u, "harassment"), Some(&sid))
        .await;
    r.assert_status(StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(body(r).await["message"], domain::reports::TOO_MANY_REPORTS);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn admins_hide_reviews_and_messages_deactivate_users_or_dismiss(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let admin = admin(&app).await;
    let (mentor, mentor_sid) = app.mentor("mira@example.com", "Mira", "tarot").await;
    let mentor: Uuid = mentor.parse().unwrap();
    let (seeker, sid) = app.signed_in("sam@example.com").await;
    let (troll, _) = app.signed_in("troll@example.com").await;
    review(&app, mentor, seeker, 5).await;
    let bad = review(&app, mentor, troll, 1).await;
    assert_eq!(rating(&app, mentor).await, ("3.00".into(), 2));

    let file = |b: Value, who: &str| {
        let (app, who) = (&app, who.to_string());
        async move {
            let r = app.post("/api/reports", b, Some(&who)).await;
            r.assert_status(StatusCode::CREATED);
            body(r).await["id"].as_str().unwrap().to_string()
        }
    };
    let review_report = file(report("review", bad, "inappropriate_content"), &mentor_sid).await;
    let user_report = file(report("user", troll, "harassment"), &sid).await;
    let dismissed = file(report("mentor", mentor, "no_show"), &sid).await;

    // Admins only.
    app.get("/api/admin/reports", Some(&sid))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    let open = body(app.get("/api/admin/reports?status=open", Some(&admin)).await).await;
    assert_eq!(open.as_array().unwrap().len(), 3);
    assert_eq!(open[0]["id"], json!(dismissed), "newest first");
    app.get("/api/admin/reports?status=closed", Some(&admin))
        .await
        .assert_status(StatusCode::BAD_REQUEST);

    // An action that does not fit the report is refused and changes nothing.
    let r = app
        .post(
            &format!("/api/admin/reports/{user_report}/resolve"),
            json!({"action": "hide_review"}),
            Some(&admin),
        )
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);

    // Hiding the review: gone from the mentor's page, the rating computed without it.
    let r = app
        .post(
            &format!("/api/admin/reports/{review_report}/resolve"),
            json!({"action": "hide_review", "note": "Abusive words"}),
            Some(&admin),
        )
        .await;
    r.assert_status_is_ok();
    let resolved = body(r).await;
    assert_eq!(
        (&resolved["status"], &resolved["action"]),
        (&json!("resolved"), &json!("hide_review"))
    );
    assert_eq!(rating(&app, mentor).await, ("5.00".into(), 1));
    let reviews = body(app.get(&format!("/api/mentors/{mentor}/reviews"), None).await).await;
    let shown: Vec<&Value> = reviews.as_array().unwrap().iter().collect();
    assert_eq!(shown.len(), 1);
    assert!(shown.iter().all(|r| r["id"] != json!(bad.to_string())));
    app.post(
        &format!("/api/admin/reports/{review_report}/resolve"),
        json!({"action": "none"}),
        Some(&admin),
    )
    .await
    .assert_status(StatusCode::CONFLICT);

    // Deactivating the user behind a report ends their sessions.
    app.post(
        &format!("/api/admin/reports/{user_report}/resolve"),
        json!({"action": "deactivate_user"}),
        Some(&admin),
    )
    .await
    .assert_status_is_ok();
    let active: bool = sqlx::query_scalar("SELECT is_active FROM users WHERE id = $1")
        .bind(troll)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert!(!active);

    // A hidden message disappears from the thread for both sides.
    let conversation: Uuid =
        sqlx::query_scalar("INSERT INTO conversations (mentor_id, user_id) VALUES ($1, $2) RETURNING id")
            .bind(mentor)
            .bind(seeker)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    let mentor_user: Uuid = sqlx::query_scalar("SELECT user_id FROM mentors WHERE id = $1")
        .bind(mentor)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let message: Uuid = sqlx::query_scalar(
        "INSERT INTO messages (conversation_id, sender_id, content) VALUES ($1, $2, 'send me your card number') RETURNING id",
    )
    .bind(conversation)
    .bind(mentor_user)
    .fetch_one(&app.pool)
    .await
    .unwrap();
    let message_report = file(report("message", message, "scam_or_fraud"), &sid).await;
    app.post(
        &format!("/api/admin/reports/{message_report}/resolve"),
        json!({"action": "hide_message"}),
        Some(&admin),
    )
    .await
    .assert_status_is_ok();
    for who in [&sid, &mentor_sid] {
        let thread = body(
            app.get(&format!("/api/conversations/{conversation}/messages"), Some(who))
                .await,
        )
        .await;
        assert!(!thread.to_string().contains("card number"), "{thread}");
    }

    // Dismissing, with a note.
    let r = app
        .post(
            &format!("/api/admin/reports/{dismissed}/dismiss"),
            json!({"note": "Rescheduled by agreement"}),
            Some(&admin),
        )
        .await;
    r.assert_status_is_ok();
    assert_eq!(body(r).await["status"], "dismissed");
    assert!(
        body(app.get("/api/admin/reports?status=open", Some(&admin)).await)
            .await
            .as_array()
            .unwrap()
            .is_empty()
    );
    let audits: i64 = sqlx::query_scalar("SELECT count(*) FROM admin_audit WHERE object_type = 'report'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(audits, 4);
}
