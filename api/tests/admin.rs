//! The admin console (stats, users and their active flag, mentors, bookings) and the mentor's
//! cancellation, in-process on a real PostgreSQL.

mod support;

use chrono::{Duration, DurationRound, Utc};
use poem::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, app, body};
use uuid::Uuid;

struct Fixture {
    admin_id: Uuid,
    admin: String,
    mentor: String,
    mentor_user: Uuid,
    mentor_sid: String,
    seeker_id: Uuid,
    seeker: String,
    paid: String,
}

async fn make_admin(app: &TestApp, email: &str) -> (Uuid, String) {
    let id = app.verified_user(email, "password1").await;
    sqlx::query("UPDATE users SET is_admin = true WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    (id, app.login(email, "password1").await)
}

async fn fixture(app: &TestApp) -> Fixture {
    let (mentor, mentor_sid) = app.mentor("mentor@example.com", "Mira", "astrology").await;
    app.put(
        "/api/mentor/profile",
        json!({"timeZone": "UTC", "minimumNoticeMinutes": 0}),
        Some(&mentor_sid),
    )
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
    let paid = app.service(&mentor_sid, "astrology", "40").await;
    let mentor_user = sqlx::query_scalar("SELECT user_id FROM mentors WHERE id = $1::uuid")
        .bind(&mentor)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let (seeker_id, seeker) = app.signed_in("seeker@example.com").await;
    let (admin_id, admin) = make_admin(app, "admin@example.com").await;
    Fixture {
        admin_id,
        admin,
        mentor,
        mentor_user,
        mentor_sid,
        seeker_id,
        seeker,
        paid,
    }
}

fn at(hours: i64) -> String {
    (Utc::now() + Duration::hours(hours))
        .duration_trunc(Duration::hours(1))
        .unwrap()
        .to_rfc3339()
}

/// A paid, confirmed booking `hours` ahead by `seeker`; returns its id.
async fn paid_booking(app: &TestApp, f: &Fixture, seeker: &str, hours: i64) -> String {
    let held = body(
        app.post(
            "/api/reservations",
            json!({"serviceId": f.paid, "mentorId": f.mentor, "scheduledAt": at(hours), "totalAmount": "40"}),
            Some(seeker),
        )
        .await,
    )
    .await;
    let id = held["reservation"]["id"]
        .as_str()
        .unwrap_or_else(|| panic!("{held}"))
        .to_string();
    let paid = body(
        app.post(
            "/api/process-payment-v2",
            json!({"reservationId": id, "cardNumber": "4111111111111111", "expirationDate": "1230", "cardCode": "123", "billingInfo": {"firstName": "A", "lastName": "B", "zip": "1"}}),
            Some(seeker),
        )
        .await,
    )
    .await;
    assert_eq!(paid["success"], true, "{paid}");
    id
}

async fn pay_out_refunds(app: &TestApp) {
    let gateway = domain::payments::test_gateway::TestGateway::new(app.pool.clone(), Default::default());
    let ids: Vec<Uuid> = sqlx::query_scalar("SELECT id FROM refunds WHERE status = 'pending'")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    for id in ids {
        domain::payments::refund_payout::pay_out(&app.pool, &gateway, id)
            .await
            .unwrap();
    }
}

const GETS: [&str; 4] = [
    "/api/admin/stats",
    "/api/admin/users",
    "/api/admin/mentors",
    "/api/admin/bookings",
];

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn only_admins_get_in(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let put = format!("/api/admin/users/{}/status", f.seeker_id);
    for path in GETS {
        app.get(path, None).await.assert_status(StatusCode::UNAUTHORIZED);
        for sid in [&f.seeker, &f.mentor_sid] {
            let r = app.get(path, Some(sid)).await;
            r.assert_status(StatusCode::FORBIDDEN);
            assert_eq!(body(r).await["message"], "Admin access required", "{path}");
        }
        app.get(path, Some(&f.admin)).await.assert_status_is_ok();
    }
    app.put(&put, json!({"isActive": false}), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.put(&put, json!({"isActive": false}), Some(&f.mentor_sid))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    app.put(&put, json!({"isActive": true}), Some(&f.seeker))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    // The role comes from the database: a demoted admin is refused on the same session.
    sqlx::query("UPDATE users SET is_admin = false WHERE id = $1")
        .bind(f.admin_id)
        .execute(&app.pool)
        .await
        .unwrap();
    app.get("/api/admin/stats", Some(&f.admin))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    let audits: i64 = sqlx::query_scalar("SELECT count(*) FROM admin_audit")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(audits, 0, "refused calls change nothing");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn revenue_is_approved_payments_less_refunds_paid(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let stats = body(app.get("/api/admin/stats", Some(&f.admin)).await).await;
    assert_eq!(
        stats,
        json!({"totalUsers": 3, "totalMentors": 1, "totalBookings": 0, "totalRevenue": "0.00"})
    );

    let kept = paid_booking(&app, &f, &f.seeker, 30).await;
    let cancelled = paid_booking(&app, &f, &f.seeker, 40).await;
    let half = paid_booking(&app, &f, &f.seeker, 5).await;
    // A hold is not a booking, and a declined card is no revenue.
    app.post(
        "/api/reservations",
        json!({"serviceId": f.paid, "mentorId": f.mentor, "scheduledAt": at(60), "totalAmount": "40"}),
        Some(&f.seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let stats = body(app.get("/api/admin/stats", Some(&f.admin)).await).await;
    assert_eq!(
        (stats["totalBookings"].as_i64(), stats["totalRevenue"].as_str()),
        (Some(3), Some("120.00"))
    );

    app.put(
        &format!("/api/user/bookings/{cancelled}/cancel"),
        json!({"acknowledgePolicy": true}),
        Some(&f.seeker),
    )
    .await
    .assert_status_is_ok();
    app.put(
        &format!("/api/user/bookings/{half}/cancel"),
        json!({"acknowledgePolicy": true}),
        Some(&f.seeker),
    )
    .await
    .assert_status_is_ok();
    let stats = body(app.get("/api/admin/stats", Some(&f.admin)).await).await;
    assert_eq!(stats["totalRevenue"], "120.00", "refunds not paid yet do not count");
    pay_out_refunds(&app).await;
    let stats = body(app.get("/api/admin/stats", Some(&f.admin)).await).await;
    // 3 x 40.00 paid, 40.00 + 20.00 refunded.
    assert_eq!(
        stats,
        json!({"totalUsers": 3, "totalMentors": 1, "totalBookings": 3, "totalRevenue": "60.00"})
    );
    let mentors = body(app.get("/api/admin/mentors", Some(&f.admin)).await).await;
    let m = &mentors[0];
    assert_eq!(m["id"], f.mentor.as_str());
    assert_eq!(m["stats"], json!({"totalBookings": 3, "totalRevenue": "60.00"}));
    assert_eq!(
        (
            m["displayName"].as_str(),
            m["servicesCount"].as_i64(),
            m["isActive"].as_bool()
        ),
        (Some("Mira"), Some(1), Some(true))
    );
    assert_eq!(m["user"]["email"], "mentor@example.com");
    assert_eq!(
        (m["rating"].as_str(), m["totalSessions"].as_i64()),
        (Some("0.00"), Some(0))
    );
    let _ = kept;
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn users_are_filtered_by_role_and_active_flag(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let emails = |v: &Value| {
        v.as_array()
            .unwrap()
            .iter()
            .map(|u| u["email"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let all = body(app.get("/api/admin/users", Some(&f.admin)).await).await;
    assert_eq!(
        emails(&all),
        ["admin@example.com", "seeker@example.com", "mentor@example.com"],
        "newest first"
    );
    let first = &all[1];
    for field in [
        "id",
        "firstName",
        "lastName",
        "email",
        "profileImageUrl",
        "role",
        "isActive",
        "emailVerified",
        "createdAt",
        "stripeSubscriptionId",
    ] {
        assert!(first.get(field).is_some(), "{field} in {first}");
    }
    for (role, want) in [
        ("mentor", "mentor@example.com"),
        ("admin", "admin@example.com"),
        ("user", "seeker@example.com"),
    ] {
        let found = body(app.get(&format!("/api/admin/users?role={role}"), Some(&f.admin)).await).await;
        assert_eq!(emails(&found), [want], "{role}");
    }
    app.put(
        &format!("/api/admin/users/{}/status", f.seeker_id),
        json!({"isActive": false}),
        Some(&f.admin),
    )
    .await
    .assert_status_is_ok();
    let inactive = body(app.get("/api/admin/users?isActive=false", Some(&f.admin)).await).await;
    assert_eq!(emails(&inactive), ["seeker@example.com"]);
    let active_users = body(
        app.get("/api/admin/users?role=user&isActive=true", Some(&f.admin))
            .await,
    )
    .await;
    assert_eq!(emails(&active_users), Vec::<String>::new());
    for (query, message) in [
        ("role=seeker", "Invalid role: use user, mentor or admin"),
        ("isActive=yes", "Invalid isActive: use true or false"),
    ] {
        let r = app.get(&format!("/api/admin/users?{query}"), Some(&f.admin)).await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], message);
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn deactivating_ends_sessions_refuses_sign_in_and_is_audited(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    // Two sessions of the seeker.
    let second = app.login("seeker@example.com", "password1").await;
    let path = format!("/api/admin/users/{}/status", f.seeker_id);

    let r = app
        .put(
            &format!("/api/admin/users/{}/status", f.admin_id),
            json!({"isActive": false}),
            Some(&f.admin),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], "You cannot deactivate your own account");
    app.put(
        &format!("/api/admin/users/{}/status", Uuid::new_v4()),
        json!({"isActive": false}),
        Some(&f.admin),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    app.put(
        "/api/admin/users/not-an-id/status",
        json!({"isActive": false}),
        Some(&f.admin),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    let r = app.put(&path, json!({}), Some(&f.admin)).await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(r).await["message"], "isActive is required (true or false)");

    let r = app.put(&path, json!({"isActive": false}), Some(&f.admin)).await;
    r.assert_status_is_ok();
    let user = body(r).await;
    assert_eq!(
        (user["id"].as_str(), user["isActive"].as_bool()),
        (Some(f.seeker_id.to_string().as_str()), Some(false))
    );
    let sessions: i64 = sqlx::query_scalar("SELECT count(*) FROM sessions WHERE user_id = $1")
        .bind(f.seeker_id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(sessions, 0, "every session ended");
    for sid in [&f.seeker, &second] {
        app.get("/api/auth/user", Some(sid))
            .await
            .assert_status(StatusCode::UNAUTHORIZED);
    }
    let r = app
        .post(
            "/api/login",
            json!({"email": "seeker@example.com", "password": "password1"}),
            None,
        )
        .await;
    r.assert_status(StatusCode::FORBIDDEN);
    assert_eq!(
        body(r).await["message"],
        "Your account has been deactivated. Please contact support."
    );
    // A wrong password says nothing about the account.
    let r = app
        .post(
            "/api/login",
            json!({"email": "seeker@example.com", "password": "wrong-password"}),
            None,
        )
        .await;
    r.assert_status(StatusCode::UNAUTHORIZED);

    app.put(&path, json!({"isActive": true}), Some(&f.admin))
        .await
        .assert_status_is_ok();
    app.login("seeker@example.com", "password1").await;

    let audit: Vec<(Uuid, String, String, String, Value, Value)> =
        sqlx::query_as("SELECT admin_id, action, object_type, object_id, before, after FROM admin_audit ORDER BY created_at, action DESC")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    let seeker = f.seeker_id.to_string();
    assert_eq!(
        audit,
        vec![
            (
                f.admin_id,
                "user.deactivate".into(),
                "user".into(),
                seeker.clone(),
                json!({"isActive": true}),
                json!({"isActive": false})
            ),
            (
                f.admin_id,
                "user.activate".into(),
                "user".into(),
                seeker,
                json!({"isActive": false}),
                json!({"isActive": true})
            ),
        ]
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_deactivated_mentor_disappears_from_browsing_and_slots(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let booked = paid_booking(&app, &f, &f.seeker, 30).await;
    let day = chrono::DateTime::parse_from_rfc3339(&at(50)).unwrap().date_naive();
    let slots = format!("/api/mentors/{}/available-slots?date={day}&timeZone=UTC", f.mentor);
    let listed = |v: &Value| {
        v["mentors"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["id"] == f.mentor.as_str())
    };
    assert!(listed(&body(app.get("/api/mentors", None).await).await));
    app.get(&slots, None).await.assert_status_is_ok();
    let before = body(app.get("/api/highlights", None).await).await;
    app.post(&format!("/api/user/favorites/{}", f.mentor), json!({}), Some(&f.seeker))
        .await;

    app.put(
        &format!("/api/admin/users/{}/status", f.mentor_user),
        json!({"isActive": false}),
        Some(&f.admin),
    )
    .await
    .assert_status_is_ok();
    assert!(!listed(&body(app.get("/api/mentors", None).await).await));
    assert!(!listed(&body(app.get("/api/mentors?search=Mira", None).await).await));
    app.get(&format!("/api/mentors/{}", f.mentor), None)
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.get(&slots, None).await.assert_status(StatusCode::NOT_FOUND);
    app.get(&format!("/api/services/{}", f.paid), None)
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": f.paid, "mentorId": f.mentor, "scheduledAt": at(50), "totalAmount": "40"}),
            Some(&f.seeker),
        )
        .await;
    r.assert_status(StatusCode::NOT_FOUND);
    let after = body(app.get("/api/highlights", None).await).await;
    assert_eq!(
        after["mentorCount"].as_i64().unwrap(),
        before["mentorCount"].as_i64().unwrap() - 1
    );
    assert_eq!(
        body(app.get("/api/user/favorites", Some(&f.seeker)).await).await,
        json!([])
    );
    // Their confirmed booking stays as it was.
    let status: String = sqlx::query_scalar("SELECT status FROM bookings WHERE id = $1::uuid")
        .bind(&booked)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(status, "confirmed");
    let mentors = body(app.get("/api/admin/mentors", Some(&f.admin)).await).await;
    assert_eq!(mentors[0]["isActive"], false);

    app.put(
        &format!("/api/admin/users/{}/status", f.mentor_user),
        json!({"isActive": true}),
        Some(&f.admin),
    )
    .await
    .assert_status_is_ok();
    assert!(listed(&body(app.get("/api/mentors", None).await).await));
    app.get(&slots, None).await.assert_status_is_ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn bookings_are_filtered_and_paged(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let mut ids = Vec::new();
    for hours in [30, 40, 50] {
        ids.push(paid_booking(&app, &f, &f.seeker, hours).await);
    }
    // Known days and creation order: bookings on 2030-01-10, -11 and -12, made in that order.
    for (i, id) in ids.iter().enumerate() {
        sqlx::query(
            "UPDATE bookings SET scheduled_at = $2, ends_at = $2 + interval '1 hour', created_at = now() + $3 * interval '1 second' WHERE id = $1::uuid",
        )
        .bind(id)
        .bind(chrono::DateTime::parse_from_rfc3339(&format!("2030-01-1{}T23:30:00Z", i)).unwrap().to_utc())
        .bind(i as i32)
        .execute(&app.pool)
        .await
        .unwrap();
    }
    app.put(
        &format!("/api/user/bookings/{}/cancel", ids[0]),
        json!({"acknowledgePolicy": true}),
        Some(&f.seeker),
    )
    .await
    .assert_status_is_ok();
    let listed = |v: &Value| {
        v["bookings"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| b["id"].as_str().unwrap().to_string())
            .collect::<Vec<_>>()
    };

    let all = body(app.get("/api/admin/bookings", Some(&f.admin)).await).await;
    assert_eq!(
        listed(&all),
        [ids[2].clone(), ids[1].clone(), ids[0].clone()],
        "newest first"
    );
    assert_eq!(
        (all["total"].as_i64(), all["page"].as_i64(), all["pageSize"].as_i64()),
        (Some(3), Some(1), Some(20))
    );
    let b = &all["bookings"][0];
    assert_eq!(
        (
            b["status"].as_str(),
            b["totalAmount"].as_str(),
            b["paymentStatus"].as_str(),
            b["duration"].as_i64()
        ),
        (Some("confirmed"), Some("40.00"), Some("approved"), Some(60))
    );
    assert_eq!(
        b["user"],
        json!({"id": f.seeker_id, "firstName": "Ann", "lastName": "Lee", "email": "seeker@example.com"})
    );
    assert_eq!(b["mentor"], json!({"id": f.mentor, "displayName": "Mira"}));
    assert_eq!(b["service"], json!({"id": f.paid, "title": "A fine session"}));

    let cancelled = body(app.get("/api/admin/bookings?status=cancelled", Some(&f.admin)).await).await;
    assert_eq!(
        (listed(&cancelled), cancelled["total"].as_i64()),
        (vec![ids[0].clone()], Some(1))
    );
    // Dates are whole UTC days, both ends included.
    let one_day = body(
        app.get(
            "/api/admin/bookings?startDate=2030-01-11&endDate=2030-01-11",
            Some(&f.admin),
        )
        .await,
    )
    .await;
    assert_eq!(listed(&one_day), [ids[1].clone()]);
    let from = body(
        app.get("/api/admin/bookings?startDate=2030-01-11", Some(&f.admin))
            .await,
    )
    .await;
    assert_eq!(listed(&from), [ids[2].clone(), ids[1].clone()]);
    let until = body(
        app.get(
            "/api/admin/bookings?endDate=2030-01-11&status=confirmed",
            Some(&f.admin),
        )
        .await,
    )
    .await;
    assert_eq!(listed(&until), [ids[1].clone()]);

    let page2 = body(app.get("/api/admin/bookings?page=2&pageSize=2", Some(&f.admin)).await).await;
    assert_eq!(
        (
            listed(&page2),
            page2["total"].as_i64(),
            page2["page"].as_i64(),
            page2["pageSize"].as_i64()
        ),
        (vec![ids[0].clone()], Some(3), Some(2), Some(2))
    );
    let past_end = body(app.get("/api/admin/bookings?page=3&pageSize=2", Some(&f.admin)).await).await;
    assert_eq!(listed(&past_end), Vec::<String>::new());

    for (query, message) in [
        ("startDate=2030-02-30", "Invalid startDate: use a date as YYYY-MM-DD"),
        ("endDate=11/01/2030", "Invalid endDate: use a date as YYYY-MM-DD"),
        (
            "startDate=2030-01-12&endDate=2030-01-11",
            "Invalid date range: startDate must be on or before endDate",
        ),
        (
            "status=done",
            "Invalid status: use pending, confirmed, completed or cancelled",
        ),
        ("pageSize=101", "Invalid pageSize: use a whole number from 1 to 100"),
        ("page=0", "Invalid page: use a whole number from 1 to 100000"),
        ("page=x", "Invalid request: page must be a whole number"),
    ] {
        let r = app.get(&format!("/api/admin/bookings?{query}"), Some(&f.admin)).await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], message, "{query}");
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_mentor_cancels_with_a_full_refund(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    // Five hours ahead: a seeker cancelling now would get 50%; the mentor's cancellation refunds all.
    let id = paid_booking(&app, &f, &f.seeker, 5).await;
    let path = format!("/api/mentor/bookings/{id}/cancel");
    app.post(&path, json!({}), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.post(&path, json!({}), Some(&f.seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let (_, other_mentor) = app.mentor("other@example.com", "Orion", "tarot").await;
    app.post(&path, json!({}), Some(&other_mentor))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.post(
        &format!("/api/mentor/bookings/{}/cancel", Uuid::new_v4()),
        json!({}),
        Some(&f.mentor_sid),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    let r = app
        .post(&path, json!({"reason": "x".repeat(501)}), Some(&f.mentor_sid))
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(r).await["message"], "Reason must be at most 500 characters");

    let r = app
        .post(&path, json!({"reason": " I am unwell "}), Some(&f.mentor_sid))
        .await;
    r.assert_status_is_ok();
    let done = body(r).await;
    assert_eq!(
        (done["id"].as_str(), done["status"].as_str()),
        (Some(id.as_str()), Some("cancelled"))
    );
    assert_eq!(
        done["refund"],
        json!({"percentage": 100, "amount": "40.00", "status": "pending"})
    );
    let reason: Option<String> = sqlx::query_scalar("SELECT cancellation_reason FROM bookings WHERE id = $1::uuid")
        .bind(&id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(reason.as_deref(), Some("I am unwell"));
    let email = app.queued("emails").await.last().unwrap().clone();
    assert_eq!(
        (
            email["kind"].as_str(),
            email["by_mentor"].as_bool(),
            email["refund_cents"].as_i64()
        ),
        (Some("booking_cancelled"), Some(true), Some(4000))
    );
    assert_eq!(app.queued("refunds").await.len(), 1);
    app.deliver_notifications().await;
    let notes = body(app.get("/api/notifications", Some(&f.seeker)).await).await;
    let text = notes.to_string();
    assert!(
        text.contains("Your mentor Mira cancelled")
            && text.contains("A refund of $40.00 is on its way. Reason: I am unwell"),
        "{text}"
    );

    let r = app.post(&path, json!({}), Some(&f.mentor_sid)).await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "Only pending or confirmed bookings can be cancelled"
    );
    pay_out_refunds(&app).await;
    let refund: (i16, i64, String) =
        sqlx::query_as("SELECT percentage, amount_cents, status FROM refunds WHERE booking_id = $1::uuid")
            .bind(&id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(refund, (100, 4000, "succeeded".to_string()));
    // A cancelled booking is never completed, so it never enters a payout.
    sqlx::query("UPDATE bookings SET scheduled_at = now() - interval '3 days', ends_at = now() - interval '3 days' + interval '1 hour' WHERE id = $1::uuid").bind(&id).execute(&app.pool).await.unwrap();
    let mut tx = app.pool.begin().await.unwrap();
    let completed = domain::booking::lifecycle::complete_if_due(&mut tx, id.parse().unwrap(), Duration::hours(24))
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert!(completed.is_none());

    // A session that has started cannot be cancelled by its mentor.
    let started = paid_booking(&app, &f, &f.seeker, 30).await;
    sqlx::query("UPDATE bookings SET scheduled_at = now() - interval '10 minutes', ends_at = now() + interval '50 minutes' WHERE id = $1::uuid").bind(&started).execute(&app.pool).await.unwrap();
    let r = app
        .post(
            &format!("/api/mentor/bookings/{started}/cancel"),
            json!({}),
            Some(&f.mentor_sid),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "This session has already started and can no longer be cancelled"
    );
    let _ = f.admin;
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_contact_inbox_lists_messages_and_marks_them_answered(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, admin) = make_admin(&app, "boss@example.com").await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    for (subject, category) in [("Rude mentor", "report"), ("Invoice", "billing")] {
        app.post(
            "/api/contact",
            json!({"name": "Sam", "email": "sam@example.com", "subject": subject, "category": category, "message": "Please help."}),
            None,
        )
        .await
        .assert_status(StatusCode::CREATED);
    }
    let list = |q: &'static str| {
        let app = &app;
        let admin = admin.clone();
        async move {
            let r = app.get(&format!("/api/admin/contact-messages{q}"), Some(&admin)).await;
            r.assert_status_is_ok();
            body(r).await.as_array().unwrap().clone()
        }
    };
    let open = list("?status=open").await;
    assert_eq!(open.len(), 2);
    assert_eq!(open[0]["subject"], "Invoice", "newest first");
    let report = &open[1];
    assert_eq!(
        (&report["category"], &report["categoryLabel"], &report["status"]),
        (&json!("report"), &json!("Report an Issue"), &json!("open"))
    );
    let id = report["id"].as_str().unwrap().to_string();
    let path = format!("/api/admin/contact-messages/{id}/answered");

    // Only admins.
    app.get("/api/admin/contact-messages", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.get("/api/admin/contact-messages", Some(&seeker))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    app.post(&path, json!({}), Some(&seeker))
        .await
        .assert_status(StatusCode::FORBIDDEN);

    let r = app.post(&path, json!({}), Some(&admin)).await;
    r.assert_status_is_ok();
    let answered = body(r).await;
    assert_eq!(answered["status"], "answered");
    assert!(answered["answeredAt"].is_string());
    app.post(&path, json!({}), Some(&admin))
        .await
        .assert_status(StatusCode::CONFLICT);
    app.post(
        &format!("/api/admin/contact-messages/{}/answered", Uuid::new_v4()),
        json!({}),
        Some(&admin),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    assert_eq!(list("?status=open").await.len(), 1);
    assert_eq!(list("?status=answered").await[0]["id"], json!(id));
    assert_eq!(list("").await.len(), 2);
    app.get("/api/admin/contact-messages?status=closed", Some(&admin))
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    let audits: i64 = sqlx::query_scalar("SELECT count(*) FROM admin_audit WHERE action = 'contact_message.answered'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(audits, 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn an_announcement_reaches_each_active_user_of_its_audience_exactly_once(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (admin_id, admin) = make_admin(&app, "boss@example.com").await;
    let (mentor_id, _) = app.mentor("mentor@example.com", "Mira", "astrology").await;
    // More seekers than one batch writes, and one deactivated seeker who gets nothing.
    let batch = domain::announcements::BATCH_SIZE;
    sqlx::query(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified) \
         SELECT 'seeker' || n || '@example.com', 'x', 'S', 'N', true FROM generate_series(1, $1) AS n",
    )
    .bind(batch + 5)
    .execute(&app.pool)
    .await
    .unwrap();
    let inactive: Uuid = sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, is_active) \
         VALUES ('gone@example.com', 'x', 'G', 'O', false) RETURNING id",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();

    for (bad, message) in [
        (
            json!({"audience": "everyone", "title": "Hi", "message": "Hello"}),
            "Audience must be all, seekers or mentors",
        ),
        (
            json!({"audience": "all", "title": "", "message": "Hello"}),
            "Title must be 1 to 100 characters",
        ),
        (
            json!({"audience": "all", "title": "x".repeat(101), "message": "Hello"}),
            "Title must be 1 to 100 characters",
        ),
        (
            json!({"audience": "all", "title": "Hi", "message": "m".repeat(1001)}),
            "Message must be 1 to 1000 characters",
        ),
    ] {
        let r = app.post("/api/admin/announcements", bad, Some(&admin)).await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], message);
    }
    let (_, seeker_sid) = app.signed_in("someone@example.com").await;
    app.post(
        "/api/admin/announcements",
        json!({"audience": "all", "title": "Hi", "message": "Hello"}),
        Some(&seeker_sid),
    )
    .await
    .assert_status(StatusCode::FORBIDDEN);

    let r = app
        .post(
            "/api/admin/announcements",
            json!({"audience": "seekers", "title": "New moon", "message": "Sessions are half price tonight."}),
            Some(&admin),
        )
        .await;
    r.assert_status(StatusCode::ACCEPTED);
    let created = body(r).await;
    assert_eq!(created["deliveredCount"], 0);
    let id: Uuid = created["id"].as_str().unwrap().parse().unwrap();
    assert_eq!(app.queued("announcement_fanout").await.len(), 1);

    // The worker's delivery, twice (a retry): every seeker once, nobody else.
    let first = jobs::announcement_fanout::deliver(&app.pool, id).await.unwrap();
    let again = jobs::announcement_fanout::deliver(&app.pool, id).await.unwrap();
    let seekers: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM users u WHERE u.is_active AND NOT u.is_admin \
         AND NOT EXISTS (SELECT 1 FROM mentors m WHERE m.user_id = u.id)",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert!(seekers > batch);
    assert_eq!((first as i64, again), (seekers, 0));
    let per_user: Vec<(Uuid, i64)> = sqlx::query_as(
        "SELECT user_id, count(*) FROM notifications WHERE type = 'system_announcement' GROUP BY user_id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert_eq!(per_user.len() as i64, seekers);
    assert!(per_user.iter().all(|(_, n)| *n == 1));
    let mentor_user: Uuid = sqlx::query_scalar("SELECT user_id FROM mentors WHERE id = $1::uuid")
        .bind(mentor_id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    for left_out in [admin_id, mentor_user, inactive] {
        assert!(per_user.iter().all(|(u, _)| *u != left_out));
    }
    let listed = body(app.get("/api/admin/announcements", Some(&admin)).await).await;
    assert_eq!(listed[0]["id"], json!(id.to_string()));
    assert_eq!(listed[0]["deliveredCount"], json!(seekers));
    assert!(listed[0]["completedAt"].is_string());
    let audits: i64 = sqlx::query_scalar("SELECT count(*) FROM admin_audit WHERE action = 'announcement.create'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(audits, 1);
}
