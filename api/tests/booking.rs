//! Availability, slots, reservations, payment and notifications in-process on a real PostgreSQL.

mod support;

use chrono::{Duration, DurationRound, Utc};
use poem::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, app, body};

/// A mentor available all day every day (UTC) with a paid (40.00) and a free service.
async fn mentor_with_services(app: &TestApp) -> (String, String, String, String) {
    mentor_named(app, "mentor@example.com").await
}

async fn mentor_named(app: &TestApp, email: &str) -> (String, String, String, String) {
    let (mentor, sid) = app.mentor(email, "Mira", "astrology").await;
    app.put("/api/mentor/profile", json!({"timeZone": "UTC"}), Some(&sid))
        .await
        .assert_status_is_ok();
    for day in 0..7 {
        app.post(
            "/api/mentor/availability",
            json!({"dayOfWeek": day, "startTime": "00:00", "endTime": "24:00"}),
            Some(&sid),
        )
        .await
        .assert_status(StatusCode::CREATED);
    }
    let paid = app.service(&sid, "astrology", "40").await;
    let free = app.service(&sid, "astrology", "0").await;
    (mentor, sid, paid, free)
}

/// A start on the hour, `hours` from now (a 60-minute session starting at 23:30 would cross midnight out of its window).
fn slot_in(hours: i64) -> String {
    let t = (Utc::now() + Duration::hours(hours))
        .duration_trunc(Duration::hours(1))
        .unwrap();
    t.to_rfc3339()
}

fn reservation(service: &str, mentor: &str, at: &str, total: &str) -> Value {
    json!({"serviceId": service, "mentorId": mentor, "scheduledAt": at, "notes": "First time", "totalAmount": total})
}

fn card(number: &str, reservation_id: &str) -> Value {
    json!({"reservationId": reservation_id, "cardNumber": number, "expirationDate": "1230", "cardCode": "123",
           "billingInfo": {"firstName": "Ann", "lastName": "Lee", "zip": "10001"}})
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn availability_is_validated_and_owned(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = app.mentor("ann@example.com", "Ann", "astrology").await;
    let cases = [
        (
            json!({"dayOfWeek": 1, "startTime": "10:00", "endTime": "09:00"}),
            StatusCode::BAD_REQUEST,
            "End time must be after start time",
        ),
        (
            json!({"dayOfWeek": 1, "startTime": "10:00", "endTime": "10:00"}),
            StatusCode::BAD_REQUEST,
            "End time must be after start time",
        ),
        (
            json!({"dayOfWeek": 1, "startTime": "10:15", "endTime": "11:00"}),
            StatusCode::BAD_REQUEST,
            "Times must be on the hour or half hour",
        ),
        (
            json!({"dayOfWeek": 7, "startTime": "10:00", "endTime": "11:00"}),
            StatusCode::BAD_REQUEST,
            "Day of week must be from 0 (Sunday) to 6 (Saturday)",
        ),
    ];
    for (payload, status, message) in cases {
        let r = app.post("/api/mentor/availability", payload, Some(&sid)).await;
        r.assert_status(status);
        assert_eq!(body(r).await["message"], message);
    }
    let r = app
        .post(
            "/api/mentor/availability",
            json!({"dayOfWeek": 1, "startTime": "09:00", "endTime": "12:00"}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let slot = body(r).await;
    assert_eq!(
        (
            slot["startTime"].as_str(),
            slot["endTime"].as_str(),
            slot["isActive"].as_bool()
        ),
        (Some("09:00"), Some("12:00"), Some(true))
    );
    let overlap = app
        .post(
            "/api/mentor/availability",
            json!({"dayOfWeek": 1, "startTime": "11:30", "endTime": "13:00"}),
            Some(&sid),
        )
        .await;
    overlap.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(overlap).await["message"],
        "This time overlaps your availability on that day"
    );
    app.post(
        "/api/mentor/availability",
        json!({"dayOfWeek": 1, "startTime": "12:00", "endTime": "13:00"}),
        Some(&sid),
    )
    .await
    .assert_status(StatusCode::CREATED);
    app.post(
        "/api/mentor/availability",
        json!({"dayOfWeek": 0, "startTime": "08:00", "endTime": "09:00"}),
        Some(&sid),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let list = body(app.get("/api/mentor/availability", Some(&sid)).await).await;
    let order: Vec<(i64, &str)> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["dayOfWeek"].as_i64().unwrap(), s["startTime"].as_str().unwrap()))
        .collect();
    assert_eq!(order, [(0, "08:00"), (1, "09:00"), (1, "12:00")]);

    let id = slot["id"].as_str().unwrap();
    let (_, other) = app.mentor("bo@example.com", "Bo", "tarot").await;
    app.put(
        &format!("/api/mentor/availability/{id}"),
        json!({"isActive": false}),
        Some(&other),
    )
    .await
    .assert_status(StatusCode::FORBIDDEN);
    app.delete(&format!("/api/mentor/availability/{id}"), Some(&other))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    let r = app
        .put(
            &format!("/api/mentor/availability/{id}"),
            json!({"isActive": false}),
            Some(&sid),
        )
        .await;
    assert_eq!(body(r).await["isActive"], false);
    app.delete(&format!("/api/mentor/availability/{id}"), Some(&sid))
        .await
        .assert_status_is_ok();
    app.delete(&format!("/api/mentor/availability/{id}"), Some(&sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let (_, seeker) = app.signed_in("cy@example.com").await;
    app.get("/api/mentor/availability", Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn slots_follow_availability_bookings_and_the_90_day_window(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, _, paid, _) = mentor_with_services(&app).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let day = (Utc::now() + Duration::days(3)).date_naive();
    let url = |d: chrono::NaiveDate, tz: &str| {
        format!("/api/mentors/{mentor}/available-slots?date={d}&duration=60&timeZone={tz}")
    };
    let slots = body(app.get(&url(day, "UTC"), None).await).await;
    assert_eq!(
        slots.as_array().unwrap().len(),
        47,
        "every half hour but 23:30, which does not fit 60 minutes"
    );
    assert_eq!(slots[0], "00:00");
    let kolkata = body(app.get(&url(day, "Asia/Kolkata"), None).await).await;
    assert_eq!(kolkata[0], "00:00");
    assert!(kolkata.as_array().unwrap().contains(&json!("05:30")));

    let at = format!("{day}T10:00:00Z");
    app.post(
        "/api/reservations",
        reservation(&paid, &mentor, &at, "40.00"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let after = body(app.get(&url(day, "UTC"), None).await).await;
    for taken in ["09:30", "10:00", "10:30"] {
        assert!(
            !after.as_array().unwrap().contains(&json!(taken)),
            "{taken} overlaps the hold"
        );
    }
    assert!(after.as_array().unwrap().contains(&json!("09:00")) && after.as_array().unwrap().contains(&json!("11:00")));

    let past = (Utc::now() - Duration::days(1)).date_naive();
    assert_eq!(body(app.get(&url(past, "UTC"), None).await).await, json!([]));
    let far = (Utc::now() + Duration::days(92)).date_naive();
    assert_eq!(body(app.get(&url(far, "UTC"), None).await).await, json!([]));
    let r = app
        .get(&format!("/api/mentors/{mentor}/available-slots?date=tomorrow"), None)
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(r).await["message"], "Invalid date");
    app.get(&url(day, "Nowhere/Land"), None)
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    app.get(
        &format!("/api/mentors/00000000-0000-4000-8000-000000000000/available-slots?date={day}"),
        None,
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
}

/// Slots read only the bookings near the day (bounded by the longest service, 480 minutes): one
/// that starts the evening before and runs past midnight still hides the times it covers, and
/// one that ends exactly at midnight hides none.
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_long_booking_from_the_day_before_hides_the_times_it_reaches(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, _, paid, _) = mentor_with_services(&app).await;
    let (seeker, _) = app.signed_in("seeker@example.com").await;
    let day = (Utc::now() + Duration::days(3)).date_naive();
    let next_day = day + Duration::days(1);
    let midnight = |d: chrono::NaiveDate| d.and_hms_opt(0, 0, 0).unwrap().and_utc();
    let bookings = [
        (midnight(day) - Duration::hours(5), midnight(day) + Duration::hours(3)),
        (midnight(next_day) - Duration::hours(2), midnight(next_day)),
    ];
    for (start, end) in bookings {
        sqlx::query(
            "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents) \
             VALUES ($1, $2::uuid, $3::uuid, 'confirmed', $4, $5, 4000)",
        )
        .bind(seeker)
        .bind(&mentor)
        .bind(&paid)
        .bind(start)
        .bind(end)
        .execute(&app.pool)
        .await
        .unwrap();
    }
    let url = |d: chrono::NaiveDate| format!("/api/mentors/{mentor}/available-slots?date={d}&duration=60&timeZone=UTC");
    let covered = body(app.get(&url(day), None).await).await;
    assert_eq!(covered[0], "03:00", "{covered}");
    let after_one_ending_at_midnight = body(app.get(&url(next_day), None).await).await;
    assert_eq!(
        after_one_ending_at_midnight[0], "00:00",
        "{after_one_ending_at_midnight}"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_free_service_is_booked_at_once(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, mentor_sid, _, free) = mentor_with_services(&app).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let r = app
        .post(
            "/api/reservations",
            reservation(&free, &mentor, &slot_in(30), "0.00"),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let result = body(r).await;
    assert_eq!(result["freeBooking"], true);
    assert_eq!(result["booking"]["status"], "confirmed");
    assert_eq!(result["booking"]["totalAmount"], "0.00");
    assert_eq!(result["reservation"], json!(null));
    assert_eq!(app.queued("emails").await.last().unwrap()["kind"], "booking_confirmed");
    assert_eq!(
        app.deliver_notifications().await,
        2,
        "one for each side, written by the worker"
    );
    let mine = body(app.get("/api/notifications", Some(&seeker)).await).await;
    assert_eq!(mine[0]["type"], "booking_confirmed");
    let theirs = body(app.get("/api/notifications", Some(&mentor_sid)).await).await;
    assert_eq!(theirs[0]["type"], "booking_confirmed");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn reservations_are_refused_with_reasons(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, mentor_sid, paid, _) = mentor_with_services(&app).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let at = slot_in(30);
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": paid, "mentorId": mentor, "totalAmount": "40"}),
            Some(&seeker),
        )
        .await;
    assert_eq!(body(r).await["message"], "Please select a date and time");
    let r = app
        .post(
            "/api/reservations",
            reservation(&paid, &mentor, &at, "1.00"),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(
        body(r).await["message"],
        "The total does not match the price of this service ($40.00)"
    );
    let r = app
        .post(
            "/api/reservations",
            reservation(&paid, &mentor, &at, "40"),
            Some(&mentor_sid),
        )
        .await;
    assert_eq!(body(r).await["message"], "You cannot book your own service");
    let odd = (chrono::DateTime::parse_from_rfc3339(&at).unwrap() + Duration::minutes(10)).to_rfc3339();
    let r = app
        .post(
            "/api/reservations",
            reservation(&paid, &mentor, &odd, "40"),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], "This time is no longer available");
    app.post(
        "/api/reservations",
        reservation(&paid, &mentor, &slot_in(-2), "40"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CONFLICT);
    app.post(
        "/api/reservations",
        reservation(&paid, &mentor, &slot_in(24 * 91), "40"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CONFLICT);
    app.post(
        "/api/reservations",
        reservation("nope", &mentor, &at, "40"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    app.post("/api/reservations", reservation(&paid, &mentor, &at, "40"), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.post(
        "/api/reservations",
        reservation(&paid, &mentor, &at, "40"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let (_, other) = app.signed_in("other@example.com").await;
    let r = app
        .post(
            "/api/reservations",
            reservation(&paid, &mentor, &at, "40"),
            Some(&other),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_paid_reservation_is_held_then_paid_once(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, mentor_sid, paid, _) = mentor_with_services(&app).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let r = app
        .post(
            "/api/reservations",
            reservation(&paid, &mentor, &slot_in(30), "40.00"),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let held = body(r).await;
    assert_eq!(held["freeBooking"], false);
    let id = held["reservation"]["id"].as_str().unwrap().to_string();
    let expires = chrono::DateTime::parse_from_rfc3339(held["expiresAt"].as_str().unwrap()).unwrap();
    let minutes = (expires.with_timezone(&Utc) - Utc::now()).num_minutes();
    assert!((58..=60).contains(&minutes), "held for 60 minutes, got {minutes}");
    let job: (String, i64) = sqlx::query_as(
        "SELECT job_type, extract(epoch FROM run_at)::bigint FROM apalis.jobs WHERE job_type = 'reservation_expiry'",
    )
    .fetch_one(&app.pool)
    .await
    .unwrap();
    assert!(job.1 >= expires.timestamp(), "the expiry job never runs early");

    let view = body(app.get(&format!("/api/reservations/{id}"), Some(&seeker)).await).await;
    assert_eq!(
        (view["totalAmount"].as_str(), view["service"]["price"].as_str()),
        (Some("40.00"), Some("40.00"))
    );
    let (_, other) = app.signed_in("other@example.com").await;
    let r = app.get(&format!("/api/reservations/{id}"), Some(&other)).await;
    r.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(body(r).await["message"], "Reservation Not Found");

    let r = app
        .post("/api/process-payment-v2", card("4111111111111112", &id), Some(&seeker))
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(r).await["message"], "Please enter a valid card number");

    let declined = body(
        app.post("/api/process-payment-v2", card("4000000000000002", &id), Some(&seeker))
            .await,
    )
    .await;
    assert_eq!(declined["success"], false);
    assert_eq!(declined["error"], "This transaction has been declined.");
    app.get(&format!("/api/reservations/{id}"), Some(&seeker))
        .await
        .assert_status_is_ok();
    let funds = body(
        app.post("/api/process-payment-v2", card("4000000000009995", &id), Some(&seeker))
            .await,
    )
    .await;
    assert_eq!(funds["error"], "Insufficient funds.");
    let error = body(
        app.post("/api/process-payment-v2", card("4000000000000119", &id), Some(&seeker))
            .await,
    )
    .await;
    assert_eq!(error["success"], false);

    let ok = body(
        app.post("/api/process-payment-v2", card("4111111111111111", &id), Some(&seeker))
            .await,
    )
    .await;
    assert_eq!(ok["success"], true);
    assert_eq!(ok["booking"]["status"], "confirmed");
    let again = body(
        app.post("/api/process-payment-v2", card("4111111111111111", &id), Some(&seeker))
            .await,
    )
    .await;
    assert_eq!(again["success"], true);
    let approved: i64 = sqlx::query_scalar("SELECT count(*) FROM payments WHERE status = 'approved'")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(approved, 1, "charged once");
    let stored: Vec<String> = sqlx::query_scalar("SELECT row_to_json(p)::text FROM payments p")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert!(
        stored
            .iter()
            .all(|row| !row.contains("4111111111111111") && !row.contains("4000000000000002")),
        "no card numbers stored"
    );
    assert!(stored.iter().any(|row| row.contains("\"card_last4\":\"1111\"")));

    app.deliver_notifications().await;
    assert_eq!(
        body(app.get("/api/notifications", Some(&mentor_sid)).await).await[0]["type"],
        "payment_received"
    );
    let seeker_notes = body(app.get("/api/notifications?limit=50", Some(&seeker)).await).await;
    let kinds: Vec<&str> = seeker_notes
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["type"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"booking_confirmed") && kinds.contains(&"payment_failed"),
        "{kinds:?}"
    );
    assert_eq!(app.queued("emails").await.last().unwrap()["kind"], "booking_confirmed");
    app.get(&format!("/api/reservations/{id}"), Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn an_expired_hold_cannot_be_paid_and_frees_the_slot(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, _, paid, _) = mentor_with_services(&app).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let at = slot_in(30);
    let held = body(
        app.post(
            "/api/reservations",
            reservation(&paid, &mentor, &at, "40"),
            Some(&seeker),
        )
        .await,
    )
    .await;
    let id = held["reservation"]["id"].as_str().unwrap();
    sqlx::query("UPDATE bookings SET hold_expires_at = now() - interval '1 second'")
        .execute(&app.pool)
        .await
        .unwrap();
    let r = app
        .post("/api/process-payment-v2", card("4111111111111111", id), Some(&seeker))
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "This reservation has expired. Please choose a time again."
    );
    assert_eq!(
        domain::booking::reservations::expire_overdue_holds(&app.pool)
            .await
            .unwrap(),
        1
    );
    app.post(
        "/api/reservations",
        reservation(&paid, &mentor, &at, "40"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn fifty_concurrent_reservations_of_one_slot_have_one_winner(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, _, paid, _) = mentor_with_services(&app).await;
    let mut seekers = Vec::new();
    for i in 0..10 {
        seekers.push(app.signed_in(&format!("s{i}@example.com")).await.1);
    }
    let base = chrono::DateTime::parse_from_rfc3339(&slot_in(48)).unwrap();
    // The same start, and a start 30 minutes later: every pair of these 60-minute slots overlaps.
    let requests = (0..50).map(|i| {
        let at = (base + Duration::minutes(30 * (i % 2) as i64)).to_rfc3339();
        let sid = seekers[i % seekers.len()].clone();
        let payload = reservation(&paid, &mentor, &at, "40");
        let app = &app;
        async move { app.post("/api/reservations", payload, Some(&sid)).await.0.status() }
    });
    let statuses = futures::future::join_all(requests).await;
    let won = statuses.iter().filter(|s| **s == StatusCode::CREATED).count();
    let lost = statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count();
    assert_eq!((won, lost), (1, 49), "{statuses:?}");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_seeker_holds_one_slot_per_mentor_and_three_in_all(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, _, paid, free) = mentor_with_services(&app).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let day = (Utc::now() + Duration::days(3)).date_naive();
    let mut statuses = Vec::new();
    for hour in 8..18 {
        let r = app
            .post(
                "/api/reservations",
                reservation(&paid, &mentor, &format!("{day}T{hour:02}:00:00Z"), "40"),
                Some(&seeker),
            )
            .await;
        let status = r.0.status();
        let message = body(r).await["message"].clone();
        if status == StatusCode::CONFLICT {
            assert_eq!(
                message,
                "You already have a reservation waiting for payment with this mentor. Complete or release it first."
            );
        }
        statuses.push(status);
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::CREATED).count(),
        1,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count(),
        9,
        "{statuses:?}"
    );
    // Free bookings are not holds.
    app.post(
        "/api/reservations",
        reservation(&free, &mentor, &format!("{day}T20:00:00Z"), "0"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
    // The refused ones left no trace: their times are still offered.
    let slots = body(
        app.get(
            &format!("/api/mentors/{mentor}/available-slots?date={day}&timeZone=UTC"),
            None,
        )
        .await,
    )
    .await;
    assert!(slots.as_array().unwrap().contains(&json!("12:00")));

    // Three mentors more: two more holds, then the total cap.
    let mut others = Vec::new();
    for i in 0..3 {
        others.push(mentor_named(&app, &format!("m{i}@example.com")).await);
    }
    let at = format!("{day}T10:00:00Z");
    for (m, _, service, _) in &others[..2] {
        app.post("/api/reservations", reservation(service, m, &at, "40"), Some(&seeker))
            .await
            .assert_status(StatusCode::CREATED);
    }
    let (fourth, _, fourth_service, _) = &others[2];
    let r = app
        .post(
            "/api/reservations",
            reservation(fourth_service, fourth, &at, "40"),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "You can hold at most 3 unpaid reservations at a time. Complete or release one first."
    );
    // Someone else is not held back.
    let (_, other) = app.signed_in("other@example.com").await;
    app.post(
        "/api/reservations",
        reservation(fourth_service, fourth, &at, "40"),
        Some(&other),
    )
    .await
    .assert_status(StatusCode::CREATED);

    // Releasing a hold (its owner only) makes room at once; an expired hold does not count.
    let held: Vec<uuid::Uuid> = sqlx::query_scalar("SELECT b.id FROM bookings b JOIN users u ON u.id = b.user_id WHERE u.email = 'seeker@example.com' AND b.status = 'reserved' ORDER BY b.created_at")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(held.len(), 3);
    let path = format!("/api/reservations/{}", held[0]);
    app.delete(&path, Some(&other))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.delete(&path, None).await.assert_status(StatusCode::UNAUTHORIZED);
    let r = app.delete(&path, Some(&seeker)).await;
    r.assert_status_is_ok();
    assert_eq!(body(r).await, json!({"message": "Reservation released"}));
    let r = app.delete(&path, Some(&seeker)).await;
    r.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(body(r).await["message"], "Reservation Not Found");
    app.get(&path, Some(&seeker)).await.assert_status(StatusCode::NOT_FOUND);
    let (third, _, third_service, _) = &others[2];
    let later = format!("{day}T12:00:00Z");
    app.post(
        "/api/reservations",
        reservation(&paid, &mentor, &later, "40"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
    app.post(
        "/api/reservations",
        reservation(third_service, third, &later, "40"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CONFLICT);
    sqlx::query("UPDATE bookings SET hold_expires_at = now() - interval '1 second' WHERE id = $1")
        .bind(held[1])
        .execute(&app.pool)
        .await
        .unwrap();
    app.post(
        "/api/reservations",
        reservation(third_service, third, &later, "40"),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn parallel_holds_of_one_seeker_stop_at_three(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let mut mentors = Vec::new();
    for i in 0..10 {
        mentors.push(mentor_named(&app, &format!("m{i}@example.com")).await);
    }
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let at = slot_in(48);
    let requests = mentors.iter().map(|(m, _, service, _)| {
        let payload = reservation(service, m, &at, "40");
        let (app, seeker) = (&app, &seeker);
        async move { app.post("/api/reservations", payload, Some(seeker)).await.0.status() }
    });
    let statuses = futures::future::join_all(requests).await;
    let won = statuses.iter().filter(|s| **s == StatusCode::CREATED).count();
    let lost = statuses.iter().filter(|s| **s == StatusCode::CONFLICT).count();
    assert_eq!((won, lost), (3, 7), "{statuses:?}");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn notifications_are_read_and_deleted_by_their_owner_only(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (ann, ann_sid) = app.signed_in("ann@example.com").await;
    let (_, bo_sid) = app.signed_in("bo@example.com").await;
    let mut conn = app.pool.acquire().await.unwrap();
    for i in 0..12 {
        domain::notifications::notify(
            &mut conn,
            ann,
            domain::notifications::Kind::SystemAnnouncement,
            &format!("Note {i}"),
            "Hello",
            None,
        )
        .await
        .unwrap();
    }
    drop(conn);
    assert_eq!(
        body(app.get("/api/notifications/unread-count", Some(&ann_sid)).await).await,
        json!({"count": 0}),
        "not before the worker ran"
    );
    assert_eq!(app.deliver_notifications().await, 12);
    let list = body(app.get("/api/notifications", Some(&ann_sid)).await).await;
    assert_eq!(list.as_array().unwrap().len(), 10, "the default limit is 10");
    assert_eq!(list[0]["isRead"], false);
    assert_eq!(
        body(app.get("/api/notifications/unread-count", Some(&ann_sid)).await).await,
        json!({"count": 12})
    );
    let id = list[0]["id"].as_str().unwrap();
    app.put(&format!("/api/notifications/{id}/read"), json!({}), Some(&bo_sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.delete(&format!("/api/notifications/{id}"), Some(&bo_sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let read = body(
        app.put(&format!("/api/notifications/{id}/read"), json!({}), Some(&ann_sid))
            .await,
    )
    .await;
    assert_eq!(read["isRead"], true);
    assert_eq!(
        body(app.get("/api/notifications/unread-count", Some(&ann_sid)).await).await["count"],
        11
    );
    let all = body(app.put("/api/notifications/read-all", json!({}), Some(&ann_sid)).await).await;
    assert_eq!(all["count"], 11);
    app.delete(&format!("/api/notifications/{id}"), Some(&ann_sid))
        .await
        .assert_status_is_ok();
    assert_eq!(
        body(app.get("/api/notifications?limit=100", Some(&ann_sid)).await)
            .await
            .as_array()
            .unwrap()
            .len(),
        11
    );
    app.get("/api/notifications", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

/// An abandoned checkout: the hold is listed for its seeker only, its time stays offered to them
/// (never to others), and picking again replaces it in one step (a refusal keeps the old one).
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_seeker_sees_their_own_hold_and_can_pick_again(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, _, paid, _) = mentor_with_services(&app).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let (_, other) = app.signed_in("other@example.com").await;
    let day = (Utc::now() + Duration::days(3)).date_naive();
    let slots_url = format!("/api/mentors/{mentor}/available-slots?date={day}&timeZone=UTC");
    let held = body(
        app.post(
            "/api/reservations",
            reservation(&paid, &mentor, &format!("{day}T10:00:00Z"), "40"),
            Some(&seeker),
        )
        .await,
    )
    .await;
    let held_id = held["reservation"]["id"].as_str().unwrap().to_string();

    // Listed for the seeker, with what the payment step needs; nobody else sees it.
    let mine = body(app.get("/api/user/reservations", Some(&seeker)).await).await;
    assert_eq!(mine.as_array().unwrap().len(), 1, "{mine}");
    assert_eq!(mine[0]["id"], held_id.as_str());
    assert_eq!(mine[0]["service"]["id"], paid.as_str());
    assert_eq!(mine[0]["totalAmount"], "40.00");
    assert_eq!(
        body(app.get("/api/user/reservations", Some(&other)).await).await,
        json!([])
    );
    app.get("/api/user/reservations", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);

    // 10:00 is free for its holder, taken for everyone else.
    let offered = |v: &Value| v.as_array().unwrap().contains(&json!("10:00"));
    assert!(offered(&body(app.get(&slots_url, Some(&seeker)).await).await));
    assert!(!offered(&body(app.get(&slots_url, Some(&other)).await).await));
    assert!(!offered(&body(app.get(&slots_url, None).await).await));

    // Without saying which hold it replaces, a second hold with this mentor is still refused.
    let r = app
        .post(
            "/api/reservations",
            reservation(&paid, &mentor, &format!("{day}T12:00:00Z"), "40"),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);

    // A replacement that is refused (someone else's time) keeps the old hold.
    app.post(
        "/api/reservations",
        reservation(&paid, &mentor, &format!("{day}T14:00:00Z"), "40"),
        Some(&other),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let mut refused = reservation(&paid, &mentor, &format!("{day}T14:00:00Z"), "40");
    refused["replacesReservationId"] = json!(held_id);
    app.post("/api/reservations", refused, Some(&seeker))
        .await
        .assert_status(StatusCode::CONFLICT);
    app.get(&format!("/api/reservations/{held_id}"), Some(&seeker))
        .await
        .assert_status_is_ok();

    // Someone else's hold cannot be replaced.
    let others = body(app.get("/api/user/reservations", Some(&other)).await).await;
    let mut theft = reservation(&paid, &mentor, &format!("{day}T16:00:00Z"), "40");
    theft["replacesReservationId"] = others[0]["id"].clone();
    app.post("/api/reservations", theft, Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);

    // Picking the same time again (its own hold's) replaces the hold in one step.
    let mut again = reservation(&paid, &mentor, &format!("{day}T10:00:00Z"), "40");
    again["replacesReservationId"] = json!(held_id);
    let r = app.post("/api/reservations", again, Some(&seeker)).await;
    r.assert_status(StatusCode::CREATED);
    let new_id = body(r).await["reservation"]["id"].as_str().unwrap().to_string();
    assert_ne!(new_id, held_id);
    app.get(&format!("/api/reservations/{held_id}"), Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let mine = body(app.get("/api/user/reservations", Some(&seeker)).await).await;
    assert_eq!(
        mine.as_array()
            .unwrap()
            .iter()
            .map(|h| h["id"].clone())
            .collect::<Vec<_>>(),
        vec![json!(new_id)]
    );

    // Released from the dashboard: the time is free for everyone again.
    app.delete(&format!("/api/reservations/{new_id}"), Some(&seeker))
        .await
        .assert_status_is_ok();
    assert!(offered(&body(app.get(&slots_url, Some(&other)).await).await));
    assert_eq!(
        body(app.get("/api/user/reservations", Some(&seeker)).await).await,
        json!([])
    );
}
