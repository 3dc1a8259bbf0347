//! Group sessions: creation rules, the mentor's time exclusive across one-to-one bookings and
//! sessions, seats that are never oversold, one seat per seeker, holds that lapse, the status
//! moves and a cancellation that refunds each paid seat once.

mod support;

use chrono::{DateTime, Duration, DurationRound, Utc};
use futures::future::join_all;
use poem::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, app, body};

struct Mentor {
    id: String,
    sid: String,
    group: String,
    one_to_one: String,
}

/// A mentor in UTC, available all week, with a group service (60 minutes, `price`) and a
/// one-to-one service (60 minutes, 40.00).
async fn mentor(app: &TestApp, email: &str, price: &str) -> Mentor {
    let (id, sid) = app.mentor(email, "Mira", "astrology").await;
    app.put("/api/mentor/profile", json!({"timeZone": "UTC"}), Some(&sid))
        .await
        .assert_status_is_ok();
    for day in 0..7 {
        app.post(
            "/api/mentor/availability",
            json!({"dayOfWeek": day, "startTime": "00:00", "endTime": "24:00"}),
            Some(&sid),
        )
        .await;
    }
    let r = app
        .post(
            "/api/services",
            json!({"title": "Moon circle", "description": "A group reading for up to eight people.", "serviceType": "tarot",
                   "price": price, "duration": 60, "isGroupSession": true, "maxParticipants": 8}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let group = body(r).await["id"].as_str().unwrap().to_string();
    let one_to_one = app.service(&sid, "astrology", "40").await;
    Mentor {
        id,
        sid,
        group,
        one_to_one,
    }
}

/// A whole hour `hours` ahead.
fn hours_ahead(hours: i64) -> DateTime<Utc> {
    (Utc::now() + Duration::hours(hours))
        .duration_trunc(Duration::hours(1))
        .unwrap()
}

async fn create(app: &TestApp, m: &Mentor, at: DateTime<Utc>, max: Option<i64>) -> Value {
    let mut payload = json!({"serviceId": m.group, "title": "Full moon circle", "description": "We read together.", "scheduledAt": at});
    if let Some(max) = max {
        payload["maxParticipants"] = json!(max);
    }
    let r = app.post("/api/group-sessions", payload, Some(&m.sid)).await;
    r.assert_status(StatusCode::CREATED);
    body(r).await
}

async fn join(app: &TestApp, seeker: &str, session: &str) -> (StatusCode, Value) {
    let r = app
        .post(
            "/api/reservations",
            json!({"groupSessionId": session, "totalAmount": 25, "notes": ""}),
            Some(seeker),
        )
        .await;
    let status = r.0.status();
    (status, body(r).await)
}

fn card(reservation_id: &str) -> Value {
    json!({"reservationId": reservation_id, "cardNumber": "4111111111111111", "expirationDate": "1230", "cardCode": "123",
           "billingInfo": {"firstName": "Ann", "lastName": "Lee", "zip": "10001"}})
}

async fn seats_taken(app: &TestApp, session: &str) -> i32 {
    sqlx::query_scalar("SELECT seats_taken FROM group_sessions WHERE id = $1::uuid")
        .bind(session)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn creation_is_validated(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "25").await;
    let other = mentor(&app, "other@example.com", "25").await;
    let at = hours_ahead(48);
    let cases = [
        (json!({"title": "T", "scheduledAt": at}), "Please select a service"),
        (
            json!({"serviceId": m.one_to_one, "title": "T", "scheduledAt": at}),
            "Please select one of your active group services",
        ),
        (
            json!({"serviceId": other.group, "title": "T", "scheduledAt": at}),
            "Please select one of your active group services",
        ),
        (
            json!({"serviceId": "nonsense", "title": "T", "scheduledAt": at}),
            "Please select one of your active group services",
        ),
        (
            json!({"serviceId": m.group, "title": "  ", "scheduledAt": at}),
            "Title is required",
        ),
        (
            json!({"serviceId": m.group, "title": "T"}),
            "Please select a date and time",
        ),
        (
            json!({"serviceId": m.group, "title": "T", "scheduledAt": Utc::now() - Duration::minutes(1)}),
            "The session must be scheduled in the future",
        ),
        (
            json!({"serviceId": m.group, "title": "T", "scheduledAt": Utc::now() + Duration::days(91)}),
            "The session must be scheduled within the next 90 days",
        ),
        (
            json!({"serviceId": m.group, "title": "T", "scheduledAt": "+200000-01-01T00:00:00Z"}),
            "The session must be scheduled within the next 90 days",
        ),
        (
            json!({"serviceId": m.group, "title": "T", "scheduledAt": at, "maxParticipants": 1}),
            "Max participants must be between 2 and 20",
        ),
        (
            json!({"serviceId": m.group, "title": "T", "scheduledAt": at, "maxParticipants": 21}),
            "Max participants must be between 2 and 20",
        ),
    ];
    for (payload, message) in cases {
        let r = app.post("/api/group-sessions", payload.clone(), Some(&m.sid)).await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], message, "{payload}");
    }
    // A seeker without a mentor profile cannot create one; nor can anybody signed out.
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let payload = json!({"serviceId": m.group, "title": "T", "scheduledAt": at});
    app.post("/api/group-sessions", payload.clone(), Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.post("/api/group-sessions", payload, None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    // An inactive group service cannot be chosen.
    app.put(
        &format!("/api/mentor/services/{}", other.group),
        json!({"isActive": false}),
        Some(&other.sid),
    )
    .await
    .assert_status_is_ok();
    let r = app
        .post(
            "/api/group-sessions",
            json!({"serviceId": other.group, "title": "T", "scheduledAt": at}),
            Some(&other.sid),
        )
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);

    let g = create(&app, &m, at, None).await;
    assert_eq!(g["maxParticipants"], 4, "four by default");
    assert_eq!(g["currentParticipants"], 0);
    assert_eq!(g["status"], "scheduled");
    assert_eq!(g["service"]["duration"], 60, "the service's duration");
    assert_eq!(g["service"]["price"], "25.00");
    assert_eq!(g["mentor"]["id"], m.id.as_str());
    assert!(g["mentor"]["userId"].is_string() && g["service"]["mentor"]["userId"] == g["mentor"]["userId"]);
    let ends: DateTime<Utc> = g["endsAt"].as_str().unwrap().parse().unwrap();
    assert_eq!(ends, at + Duration::minutes(60));
    let twenty = create(&app, &m, at + Duration::hours(2), Some(20)).await;
    assert_eq!(twenty["maxParticipants"], 20);
    let two = create(&app, &m, at + Duration::hours(4), Some(2)).await;
    assert_eq!(two["maxParticipants"], 2);

    // Both steps of the worker are queued with the session.
    let steps = app.queued("group_session_state").await;
    assert_eq!(steps.len(), 6, "a start and an end step per session: {steps:?}");

    // The mentor's list has all three; the public list shows them to a seeker.
    let mine = body(app.get("/api/mentor/group-sessions", Some(&m.sid)).await).await;
    assert_eq!(mine.as_array().unwrap().len(), 3);
    let listed = body(app.get("/api/group-sessions", Some(&seeker)).await).await;
    assert_eq!(listed.as_array().unwrap().len(), 3);
    let by_mentor = body(
        app.get(&format!("/api/group-sessions?mentor={}", other.id), Some(&seeker))
            .await,
    )
    .await;
    assert!(by_mentor.as_array().unwrap().is_empty());
    app.get("/api/group-sessions", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_mentors_time_is_exclusive_across_bookings_and_sessions(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "25").await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let at = hours_ahead(48);

    // A session first: a one-to-one booking overlapping it is refused, and the slot is hidden.
    create(&app, &m, at, None).await;
    let r = app
        .post("/api/reservations", json!({"serviceId": m.one_to_one, "mentorId": m.id, "scheduledAt": at + Duration::minutes(30), "totalAmount": "40"}), Some(&seeker))
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], "This time is no longer available");
    let date = at.format("%Y-%m-%d").to_string();
    let slots = body(
        app.get(
            &format!(
                "/api/mentors/{}/available-slots?date={date}&duration=60&timeZone=UTC",
                m.id
            ),
            Some(&seeker),
        )
        .await,
    )
    .await;
    let slots: Vec<&str> = slots.as_array().unwrap().iter().map(|s| s.as_str().unwrap()).collect();
    let hhmm = |t: DateTime<Utc>| t.format("%H:%M").to_string();
    assert!(!slots.contains(&hhmm(at).as_str()), "{slots:?}");
    assert!(!slots.contains(&hhmm(at - Duration::minutes(30)).as_str()), "{slots:?}");
    // Another session overlapping it is refused too.
    let r = app
        .post(
            "/api/group-sessions",
            json!({"serviceId": m.group, "title": "T", "scheduledAt": at + Duration::minutes(59)}),
            Some(&m.sid),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "You already have a booking or group session at this time"
    );
    // Back to back is fine.
    create(&app, &m, at + Duration::hours(1), None).await;

    // A one-to-one booking first: a session overlapping it is refused.
    let later = at + Duration::hours(24);
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": m.one_to_one, "mentorId": m.id, "scheduledAt": later, "totalAmount": "40"}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let r = app
        .post(
            "/api/group-sessions",
            json!({"serviceId": m.group, "title": "T", "scheduledAt": later - Duration::minutes(30)}),
            Some(&m.sid),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "You already have a booking or group session at this time"
    );

    // Seats of one session do not collide with each other (they share its time).
    let g = create(&app, &m, at + Duration::hours(6), None).await;
    let id = g["id"].as_str().unwrap();
    for n in 0..3 {
        let (_, s) = app.signed_in(&format!("seat{n}@example.com")).await;
        assert_eq!(join(&app, &s, id).await.0, StatusCode::CREATED);
    }
    assert_eq!(seats_taken(&app, id).await, 3);
    // A cancelled session frees the mentor's time.
    let free_at = at + Duration::hours(10);
    let g = create(&app, &m, free_at, None).await;
    app.put(
        &format!("/api/group-sessions/{}", g["id"].as_str().unwrap()),
        json!({"status": "cancelled"}),
        Some(&m.sid),
    )
    .await
    .assert_status_is_ok();
    let (_, another) = app.signed_in("another@example.com").await;
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": m.one_to_one, "mentorId": m.id, "scheduledAt": free_at, "totalAmount": "40"}),
            Some(&another),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn thirty_seekers_joining_at_once_take_exactly_four_seats(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "25").await;
    let g = create(&app, &m, hours_ahead(48), Some(4)).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut seekers = Vec::new();
    for n in 0..30 {
        seekers.push(app.signed_in(&format!("seeker{n}@example.com")).await.1);
    }
    let answers = join_all(seekers.iter().map(|s| join(&app, s, &id))).await;
    let won: Vec<_> = answers.iter().filter(|(s, _)| *s == StatusCode::CREATED).collect();
    let lost: Vec<_> = answers.iter().filter(|(s, _)| *s == StatusCode::CONFLICT).collect();
    assert_eq!((won.len(), lost.len()), (4, 26), "{answers:?}");
    for (_, b) in &lost {
        assert_eq!(
            b["message"],
            "Session Full - This group session is already at capacity."
        );
    }
    for (_, b) in &won {
        assert_eq!(b["freeBooking"], false);
        assert!(b["reservation"]["id"].is_string() && b["expiresAt"].is_string());
    }
    assert_eq!(seats_taken(&app, &id).await, 4);
    let live: i64 =
        sqlx::query_scalar("SELECT count(*) FROM bookings WHERE group_session_id = $1::uuid AND status = 'reserved'")
            .bind(&id)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(live, 4);
    let seen = body(app.get(&format!("/api/group-sessions/{id}"), Some(&seekers[0])).await).await;
    assert_eq!(
        (seen["currentParticipants"].as_i64(), seen["maxParticipants"].as_i64()),
        (Some(4), Some(4))
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn one_seat_per_seeker_and_a_lapsed_hold_frees_its_seat(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "25").await;
    let g = create(&app, &m, hours_ahead(48), Some(2)).await;
    let id = g["id"].as_str().unwrap().to_string();
    let (_, a) = app.signed_in("a@example.com").await;
    let (_, b) = app.signed_in("b@example.com").await;
    let (_, c) = app.signed_in("c@example.com").await;

    // The same seeker five times at once: one seat, the same reservation every time.
    let answers = join_all((0..5).map(|_| join(&app, &a, &id))).await;
    let ids: std::collections::HashSet<_> = answers
        .iter()
        .map(|(_, b)| b["reservation"]["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 1, "{answers:?}");
    assert_eq!(answers.iter().filter(|(s, _)| *s == StatusCode::CREATED).count(), 1);
    assert_eq!(answers.iter().filter(|(s, _)| *s == StatusCode::OK).count(), 4);
    assert_eq!(seats_taken(&app, &id).await, 1);
    let hold_a = ids.into_iter().next().unwrap();

    // A held seat is not a one-to-one hold with the mentor: A can still hold a one-to-one time.
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": m.one_to_one, "mentorId": m.id, "scheduledAt": hours_ahead(30), "totalAmount": "40"}),
            Some(&a),
        )
        .await;
    r.assert_status(StatusCode::CREATED);

    // GET /api/reservations/{id} carries the session.
    let view = body(app.get(&format!("/api/reservations/{hold_a}"), Some(&a)).await).await;
    assert_eq!(view["groupSession"]["title"], "Full moon circle");
    assert_eq!(view["groupSession"]["currentParticipants"], 1);
    assert_eq!(view["groupSession"]["maxParticipants"], 2);
    assert_eq!(view["totalAmount"], "25.00");

    assert_eq!(join(&app, &b, &id).await.0, StatusCode::CREATED);
    let (status, full) = join(&app, &c, &id).await;
    assert_eq!(status, StatusCode::CONFLICT);
    assert_eq!(
        full["message"],
        "Session Full - This group session is already at capacity."
    );

    // A's hold lapses: the sweep releases it and C gets the seat.
    sqlx::query("UPDATE bookings SET hold_expires_at = now() - interval '1 second' WHERE id = $1::uuid")
        .bind(&hold_a)
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(
        domain::booking::reservations::expire_overdue_holds(&app.pool)
            .await
            .unwrap(),
        1
    );
    assert_eq!(seats_taken(&app, &id).await, 1);
    assert_eq!(join(&app, &c, &id).await.0, StatusCode::CREATED);
    // A may come back once there is room again, with a new hold.
    let (status, _) = join(&app, &a, &id).await;
    assert_eq!(status, StatusCode::CONFLICT);

    // The mentor cannot join their own session; nobody joins a cancelled one.
    let (status, own) = join(&app, &m.sid, &id).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(own["message"], "You cannot join your own group session");
    let other = create(&app, &m, hours_ahead(72), None).await;
    let other_id = other["id"].as_str().unwrap();
    app.put(
        &format!("/api/group-sessions/{other_id}"),
        json!({"status": "cancelled"}),
        Some(&m.sid),
    )
    .await
    .assert_status_is_ok();
    assert_eq!(join(&app, &a, other_id).await.0, StatusCode::CONFLICT);
    let (status, _) = join(&app, &a, "00000000-0000-0000-0000-000000000000").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_free_session_books_at_once_and_shows_the_seeker_as_booked(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "0").await;
    let g = create(&app, &m, hours_ahead(48), None).await;
    let id = g["id"].as_str().unwrap();
    let (seeker_id, seeker) = app.signed_in("seeker@example.com").await;
    let r = app
        .post(
            "/api/reservations",
            json!({"groupSessionId": id, "totalAmount": 0, "notes": "hi"}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let joined = body(r).await;
    assert_eq!(joined["freeBooking"], true);
    assert_eq!(joined["booking"]["status"], "confirmed");
    assert_eq!(joined["booking"]["groupSessionId"], id);
    let again = app
        .post(
            "/api/reservations",
            json!({"groupSessionId": id, "totalAmount": 0}),
            Some(&seeker),
        )
        .await;
    again.assert_status(StatusCode::OK);
    assert_eq!(body(again).await["booking"]["id"], joined["booking"]["id"]);

    let seen = body(app.get(&format!("/api/group-sessions/{id}"), Some(&seeker)).await).await;
    assert_eq!(seen["isUserBooked"], true);
    assert_eq!(seen["participants"][0]["id"], seeker_id.to_string());
    assert_eq!(seen["participants"][0]["firstName"], "Ann");
    let (_, other) = app.signed_in("other@example.com").await;
    assert_eq!(
        body(app.get(&format!("/api/group-sessions/{id}"), Some(&other)).await).await["isUserBooked"],
        false
    );
    // The seat is on the seeker's dashboard and the mentor's bookings.
    let dash = body(app.get("/api/user/dashboard", Some(&seeker)).await).await;
    assert_eq!(dash["bookings"][0]["groupSessionId"], id);
    // Named after the session, not its service (card, e-mails, invitations and notifications alike).
    assert_eq!(dash["bookings"][0]["service"]["title"], g["title"]);
    assert_ne!(g["title"], json!("Moon circle"));
    let mentor_bookings = body(app.get("/api/mentor/bookings", Some(&m.sid)).await).await;
    assert_eq!(mentor_bookings.as_array().unwrap().len(), 1);
    // Its reminders and completion are the bookings' own.
    assert_eq!(app.queued("booking_reminders").await.len(), 2);
    assert_eq!(app.queued("booking_completion").await.len(), 1);
    // A seat's reminder goes to its seeker, not to the mentor once per seat.
    let seat = joined["booking"]["id"].as_str().unwrap();
    let start: DateTime<Utc> = g["scheduledAt"].as_str().unwrap().parse().unwrap();
    let mut tx = app.pool.begin().await.unwrap();
    let sent = domain::booking::reminders::remind(&mut tx, seat.parse().unwrap(), "1h", start)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(sent, Some("1 hour"));
    app.deliver_notifications().await;
    let reminded: Vec<uuid::Uuid> =
        sqlx::query_scalar("SELECT user_id FROM notifications WHERE type = 'booking_reminder'")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(reminded, vec![seeker_id]);
    // A seat follows the session's time: it cannot be rescheduled on its own.
    let r = app
        .put(
            &format!("/api/user/bookings/{seat}/reschedule"),
            json!({"scheduledAt": hours_ahead(96)}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn status_moves_follow_the_rules(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "25").await;
    let other = mentor(&app, "other@example.com", "25").await;
    let g = create(&app, &m, hours_ahead(48), None).await;
    let id = g["id"].as_str().unwrap().to_string();
    let put = |status: &'static str, sid: String, id: String| {
        let app = &app;
        async move {
            let r = app
                .put(
                    &format!("/api/group-sessions/{id}"),
                    json!({"status": status}),
                    Some(&sid),
                )
                .await;
            let code = r.0.status();
            (code, body(r).await)
        }
    };
    assert_eq!(put("live", m.sid.clone(), id.clone()).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(
        put("cancelled", other.sid.clone(), id.clone()).await.0,
        StatusCode::NOT_FOUND,
        "another mentor's session"
    );
    let (code, b) = put("active", m.sid.clone(), id.clone()).await;
    assert_eq!(code, StatusCode::CONFLICT, "not before its start: {b}");
    assert_eq!(
        put("completed", m.sid.clone(), id.clone()).await.0,
        StatusCode::CONFLICT,
        "a scheduled session is not ended"
    );

    // In its live window: start, not cancel; then end, once.
    sqlx::query("UPDATE group_sessions SET scheduled_at = now() - interval '5 minutes', ends_at = now() + interval '55 minutes' WHERE id = $1::uuid")
        .bind(&id)
        .execute(&app.pool)
        .await
        .unwrap();
    let seen = body(app.get(&format!("/api/group-sessions/{id}"), Some(&m.sid)).await).await;
    assert_eq!(seen["isLive"], true);
    assert_eq!(
        put("cancelled", m.sid.clone(), id.clone()).await.0,
        StatusCode::CONFLICT
    );
    let (code, started) = put("active", m.sid.clone(), id.clone()).await;
    assert_eq!(code, StatusCode::OK);
    assert_eq!(started["status"], "active");
    assert_eq!(
        put("cancelled", m.sid.clone(), id.clone()).await.0,
        StatusCode::CONFLICT
    );
    let (code, ended) = put("completed", m.sid.clone(), id.clone()).await;
    assert_eq!((code, ended["status"].as_str()), (StatusCode::OK, Some("completed")));
    assert_eq!(
        put("completed", m.sid.clone(), id.clone()).await.0,
        StatusCode::CONFLICT
    );
    assert_eq!(put("active", m.sid.clone(), id.clone()).await.0, StatusCode::CONFLICT);
    // A completed session is no longer listed.
    let listed = body(app.get("/api/group-sessions", Some(&m.sid)).await).await;
    assert!(listed.as_array().unwrap().is_empty());

    // Cancelled is final.
    let g = create(&app, &m, hours_ahead(72), None).await;
    let id = g["id"].as_str().unwrap().to_string();
    assert_eq!(put("cancelled", m.sid.clone(), id.clone()).await.0, StatusCode::OK);
    for to in ["cancelled", "active", "completed"] {
        assert_eq!(
            put(to, m.sid.clone(), id.clone()).await.0,
            StatusCode::CONFLICT,
            "cancelled -> {to}"
        );
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_worker_steps_make_a_session_live_then_complete_it(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "0").await;
    let g = create(&app, &m, hours_ahead(48), None).await;
    let id: uuid::Uuid = g["id"].as_str().unwrap().parse().unwrap();
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    app.post(
        "/api/reservations",
        json!({"groupSessionId": id, "totalAmount": 0}),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let start: DateTime<Utc> = g["scheduledAt"].as_str().unwrap().parse().unwrap();
    use domain::group_sessions::lifecycle;
    // Too early, or for another start: nothing.
    let mut tx = app.pool.begin().await.unwrap();
    assert!(
        lifecycle::go_live(&mut tx, id, start.timestamp(), Utc::now())
            .await
            .unwrap()
            .is_none(),
        "not before its start"
    );
    tx.rollback().await.unwrap();
    sqlx::query("UPDATE group_sessions SET scheduled_at = now() - interval '1 minute', ends_at = now() + interval '59 minutes' WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    let due = lifecycle::due_to_go_live(&app.pool).await.unwrap();
    assert_eq!(due.len(), 1);
    let mut tx = app.pool.begin().await.unwrap();
    assert!(
        lifecycle::go_live(&mut tx, id, start.timestamp(), Utc::now())
            .await
            .unwrap()
            .is_none(),
        "an old start does nothing"
    );
    assert!(
        lifecycle::go_live(&mut tx, id, due[0].1, Utc::now())
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        lifecycle::go_live(&mut tx, id, due[0].1, Utc::now())
            .await
            .unwrap()
            .is_none(),
        "once"
    );
    tx.commit().await.unwrap();
    app.deliver_notifications().await;
    let titles: Vec<String> =
        sqlx::query_scalar("SELECT title FROM notifications WHERE title = 'Group session starting now'")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    assert_eq!(titles.len(), 2, "the participant and the mentor");
    sqlx::query("UPDATE group_sessions SET scheduled_at = now() - interval '61 minutes', ends_at = now() - interval '1 minute' WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    let due = lifecycle::due_to_finish(&app.pool).await.unwrap();
    let mut tx = app.pool.begin().await.unwrap();
    assert!(lifecycle::finish(&mut tx, id, due[0].1, Utc::now()).await.unwrap());
    assert!(!lifecycle::finish(&mut tx, id, due[0].1, Utc::now()).await.unwrap());
    tx.commit().await.unwrap();
    let status: String = sqlx::query_scalar("SELECT status FROM group_sessions WHERE id = $1")
        .bind(id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(status, "completed");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn cancelling_refunds_every_paid_seat_once(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "25").await;
    let g = create(&app, &m, hours_ahead(48), None).await;
    let id = g["id"].as_str().unwrap().to_string();
    let mut paid = Vec::new();
    for n in 0..2 {
        let (_, s) = app.signed_in(&format!("paid{n}@example.com")).await;
        let (_, held) = join(&app, &s, &id).await;
        let reservation = held["reservation"]["id"].as_str().unwrap().to_string();
        let r = body(app.post("/api/process-payment-v2", card(&reservation), Some(&s)).await).await;
        assert_eq!(r["success"], true, "{r}");
        paid.push(reservation);
    }
    let (_, holder) = app.signed_in("holder@example.com").await;
    let (_, held) = join(&app, &holder, &id).await;
    let hold = held["reservation"]["id"].as_str().unwrap().to_string();
    assert_eq!(seats_taken(&app, &id).await, 3);
    let seen = body(app.get(&format!("/api/group-sessions/{id}"), Some(&m.sid)).await).await;
    assert_eq!(seen["participants"].as_array().unwrap().len(), 2, "paid seats only");

    app.put(
        &format!("/api/group-sessions/{id}"),
        json!({"status": "cancelled"}),
        Some(&m.sid),
    )
    .await
    .assert_status_is_ok();
    app.put(
        &format!("/api/group-sessions/{id}"),
        json!({"status": "cancelled"}),
        Some(&m.sid),
    )
    .await
    .assert_status(StatusCode::CONFLICT);

    let refunds: Vec<(String, i16, i64)> =
        sqlx::query_as("SELECT booking_id::text, percentage, amount_cents FROM refunds ORDER BY booking_id")
            .fetch_all(&app.pool)
            .await
            .unwrap();
    let mut expected: Vec<(String, i16, i64)> = paid.iter().map(|b| (b.clone(), 100, 2500)).collect();
    expected.sort();
    assert_eq!(refunds, expected);
    assert_eq!(app.queued("refunds").await.len(), 2, "one refund job per paid seat");
    let statuses: Vec<(String, String)> =
        sqlx::query_as("SELECT id::text, status FROM bookings WHERE group_session_id = $1::uuid ORDER BY id")
            .bind(&id)
            .fetch_all(&app.pool)
            .await
            .unwrap();
    for (booking, status) in statuses {
        assert_eq!(status, if booking == hold { "expired" } else { "cancelled" });
    }
    assert_eq!(seats_taken(&app, &id).await, 0);
    let emails: Vec<Value> = app.queued("emails").await;
    let cancellations = emails
        .iter()
        .filter(|e| e.to_string().contains("BookingCancelled") || e.to_string().contains("booking_cancelled"))
        .count();
    assert_eq!(cancellations, 2, "{emails:?}");
    app.deliver_notifications().await;
    let told: i64 =
        sqlx::query_scalar("SELECT count(DISTINCT user_id) FROM notifications WHERE type = 'booking_cancelled'")
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(told, 3, "both participants and the mentor");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_seeker_cancels_their_seat_by_the_refund_tiers_and_frees_it(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = mentor(&app, "mentor@example.com", "25").await;
    let g = create(&app, &m, hours_ahead(48), Some(2)).await;
    let id = g["id"].as_str().unwrap().to_string();
    let (_, s) = app.signed_in("seeker@example.com").await;
    let (_, held) = join(&app, &s, &id).await;
    let seat = held["reservation"]["id"].as_str().unwrap().to_string();
    let paid = body(app.post("/api/process-payment-v2", card(&seat), Some(&s)).await).await;
    assert_eq!(paid["success"], true, "{paid}");
    assert_eq!(seats_taken(&app, &id).await, 1);
    let r = app
        .put(
            &format!("/api/user/bookings/{seat}/cancel"),
            json!({"acknowledgePolicy": true}),
            Some(&s),
        )
        .await;
    r.assert_status_is_ok();
    let policy = body(r).await;
    assert_eq!(policy["refundPolicy"]["refundPercentage"], 100, "{policy}");
    assert_eq!(policy["refundPolicy"]["refundAmount"], "25.00");
    assert_eq!(seats_taken(&app, &id).await, 0, "the seat is free again");
    assert_eq!(app.queued("refunds").await.len(), 1);
    // The seeker may take a seat again.
    assert_eq!(join(&app, &s, &id).await.0, StatusCode::CREATED);
}
