//! After booking: dashboards, reschedule, cancel with refunds, mentor transitions, reviews and
//! e-mail preferences, in-process on a real PostgreSQL.

mod support;

use chrono::{Duration, DurationRound, Utc};
use poem::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, app, body};

struct Fixture {
    mentor: String,
    mentor_sid: String,
    seeker: String,
    paid: String,
}

async fn fixture(app: &TestApp) -> Fixture {
    let (mentor, mentor_sid) = app.mentor("mentor@example.com", "Mira", "astrology").await;
    // Short notice allowed: the tests book sessions an hour ahead.
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
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    Fixture {
        mentor,
        mentor_sid,
        seeker,
        paid,
    }
}

fn at(hours: i64) -> String {
    at_minutes(hours * 60)
}

/// The half hour at or before `minutes` from now.
fn at_minutes(minutes: i64) -> String {
    (Utc::now() + Duration::minutes(minutes))
        .duration_trunc(Duration::hours(1))
        .unwrap()
        .to_rfc3339()
}

/// Noon (UTC) two days from now: a start whose session, and one half an hour later, stay inside one
/// day's availability whatever the time the test runs (a start `at(40)` is 23:00 when the test runs
/// between 07:00 and 08:00, and half an hour later crosses midnight, where no slot is offered).
fn noon_in_two_days() -> String {
    (Utc::now().date_naive() + chrono::Days::new(2))
        .and_hms_opt(12, 0, 0)
        .unwrap()
        .and_utc()
        .to_rfc3339()
}

/// A paid, confirmed booking `hours` ahead; returns its id.
async fn paid_booking(app: &TestApp, f: &Fixture, hours: i64) -> String {
    paid_booking_at(app, f, &at(hours)).await
}

async fn paid_booking_at(app: &TestApp, f: &Fixture, start: &str) -> String {
    let held = body(
        app.post(
            "/api/reservations",
            json!({"serviceId": f.paid, "mentorId": f.mentor, "scheduledAt": start, "totalAmount": "40"}),
            Some(&f.seeker),
        )
        .await,
    )
    .await;
    let id = held["reservation"]["id"].as_str().unwrap().to_string();
    let paid = body(
        app.post(
            "/api/process-payment-v2",
            json!({"reservationId": id, "cardNumber": "4111111111111111", "expirationDate": "1230", "cardCode": "123", "billingInfo": {"firstName": "A", "lastName": "B", "zip": "1"}}),
            Some(&f.seeker),
        )
        .await,
    )
    .await;
    assert_eq!(paid["success"], true, "{paid}");
    id
}

/// Moves a booking into the past: its session ended an hour ago.
async fn move_into_the_past(app: &TestApp, id: &str) {
    sqlx::query("UPDATE bookings SET scheduled_at = now() - interval '2 hours', ends_at = now() - interval '1 hour' WHERE id = $1::uuid")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
}

async fn queued_kinds(app: &TestApp, queue: &str) -> Vec<Value> {
    app.queued(queue).await
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_dashboard_lists_bookings_and_figures(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let empty = body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await;
    assert_eq!(
        empty["stats"],
        json!({"totalSessions": 0, "upcomingSessions": 0, "totalSpent": "0.00"})
    );
    let first = paid_booking(&app, &f, 30).await;
    let second = paid_booking(&app, &f, 60).await;
    // A hold is not a booking yet.
    app.post(
        "/api/reservations",
        json!({"serviceId": f.paid, "mentorId": f.mentor, "scheduledAt": at(90), "totalAmount": "40"}),
        Some(&f.seeker),
    )
    .await;
    let d = body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await;
    let ids: Vec<&str> = d["bookings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [second.as_str(), first.as_str()], "newest start first");
    assert_eq!(
        d["stats"],
        json!({"totalSessions": 2, "upcomingSessions": 2, "totalSpent": "80.00"})
    );
    assert_eq!(d["user"]["email"], "seeker@example.com");
    let mentor_side = body(app.get("/api/mentor/bookings", Some(&f.mentor_sid)).await).await;
    assert_eq!(mentor_side.as_array().unwrap().len(), 2);
    let stats = body(app.get("/api/mentor/stats", Some(&f.mentor_sid)).await).await;
    assert_eq!(
        (stats["totalSessions"].as_i64(), stats["totalEarnings"].as_str()),
        (Some(2), Some("0.00"))
    );
}

/// A session in progress (started, not ended) is still upcoming; it stops counting when it ends.
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_session_in_progress_counts_as_upcoming_until_it_ends(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let id = paid_booking(&app, &f, 30).await;
    sqlx::query("UPDATE bookings SET scheduled_at = now() - interval '10 minutes', ends_at = now() + interval '50 minutes' WHERE id = $1::uuid")
        .bind(&id)
        .execute(&app.pool)
        .await
        .unwrap();
    let d = body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await;
    assert_eq!(d["stats"]["upcomingSessions"], 1, "in progress: {}", d["stats"]);
    move_into_the_past(&app, &id).await;
    let d = body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await;
    assert_eq!(d["stats"]["upcomingSessions"], 0, "ended: {}", d["stats"]);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn mentor_stats_show_the_platform_fee_and_the_net_earnings(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let stats = body(app.get("/api/mentor/stats", Some(&f.mentor_sid)).await).await;
    assert_eq!(
        (
            &stats["totalEarnings"],
            &stats["platformFee"],
            &stats["netEarnings"],
            &stats["platformFeePercent"]
        ),
        (&json!("0.00"), &json!("0.00"), &json!("0.00"), &json!(15))
    );

    // Three completed sessions (40.00, 2.50, 2.50) and one still upcoming.
    for (hours, total_cents) in [(30, 4_000), (40, 250), (50, 250)] {
        let id = paid_booking(&app, &f, hours).await;
        sqlx::query("UPDATE bookings SET status = 'completed', total_cents = $2 WHERE id = $1::uuid")
            .bind(&id)
            .bind(total_cents as i64)
            .execute(&app.pool)
            .await
            .unwrap();
    }
    paid_booking(&app, &f, 60).await;
    let stats = body(app.get("/api/mentor/stats", Some(&f.mentor_sid)).await).await;
    // The fee is taken per booking: 6.00 + 0.38 + 0.38 (15% of the 45.00 total would be 6.75).
    assert_eq!(
        (
            stats["totalEarnings"].as_str(),
            stats["platformFee"].as_str(),
            stats["netEarnings"].as_str()
        ),
        (Some("45.00"), Some("6.76"), Some("38.24"))
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn rescheduling_moves_the_booking_and_its_reminders(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let id = paid_booking(&app, &f, 30).await;
    let path = format!("/api/user/bookings/{id}/reschedule");
    let r = app.put(&path, json!({"reason": "busy"}), Some(&f.seeker)).await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(r).await["message"], "Please select a new time");
    let (_, stranger) = app.signed_in("stranger@example.com").await;
    app.put(&path, json!({"scheduledAt": noon_in_two_days()}), Some(&stranger))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let odd = (chrono::DateTime::parse_from_rfc3339(&noon_in_two_days()).unwrap() + Duration::minutes(7)).to_rfc3339();
    app.put(&path, json!({"scheduledAt": odd}), Some(&f.seeker))
        .await
        .assert_status(StatusCode::CONFLICT);

    let new_time = noon_in_two_days();
    let r = app
        .put(
            &path,
            json!({"scheduledAt": new_time, "reason": " busy "}),
            Some(&f.seeker),
        )
        .await;
    r.assert_status_is_ok();
    let moved = body(r).await;
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(moved["booking"]["scheduledAt"].as_str().unwrap()).unwrap(),
        chrono::DateTime::parse_from_rfc3339(&new_time).unwrap()
    );
    let reminders = queued_kinds(&app, "booking_reminders").await;
    let new_start = chrono::DateTime::parse_from_rfc3339(&new_time).unwrap().timestamp();
    assert!(
        reminders.iter().filter(|r| r["start"] == new_start).count() == 2,
        "{reminders:?}"
    );
    let emails = app.queued("emails").await;
    assert_eq!(emails.last().unwrap()["kind"], "booking_rescheduled");
    app.deliver_notifications().await;
    let mentor_notes = body(app.get("/api/notifications", Some(&f.mentor_sid)).await).await;
    assert_eq!(mentor_notes[0]["type"], "booking_rescheduled");

    // To the time it already has: refused, and nobody is told twice.
    let mails_before = app.queued("emails").await.len();
    let r = app.put(&path, json!({"scheduledAt": new_time}), Some(&f.seeker)).await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], "The session is already at this time.");
    assert_eq!(app.queued("emails").await.len(), mails_before);

    // The booking's own time is offered to it, and it can move by half an hour into it.
    let day = chrono::DateTime::parse_from_rfc3339(&new_time).unwrap();
    let slots = |extra: String| {
        format!(
            "/api/mentors/{}/available-slots?date={}&timeZone=UTC{extra}",
            f.mentor,
            day.date_naive()
        )
    };
    let label = json!(day.format("%H:%M").to_string());
    assert!(
        !body(app.get(&slots(String::new()), None).await)
            .await
            .as_array()
            .unwrap()
            .contains(&label)
    );
    assert!(
        body(app.get(&slots(format!("&excludeBooking={id}")), None).await)
            .await
            .as_array()
            .unwrap()
            .contains(&label)
    );
    let half_hour_later = (day + Duration::minutes(30)).to_rfc3339();
    app.put(&path, json!({"scheduledAt": half_hour_later}), Some(&f.seeker))
        .await
        .assert_status_is_ok();

    // Too close to the start.
    let soon = paid_booking(&app, &f, 1).await;
    let r = app
        .put(
            &format!("/api/user/bookings/{soon}/reschedule"),
            json!({"scheduledAt": at(50)}),
            Some(&f.seeker),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "Bookings can be rescheduled up to 2 hours before the start"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn cancelling_refunds_by_the_policy_once(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let early = paid_booking(&app, &f, 30).await;
    let late = paid_booking(&app, &f, 5).await;
    let preview = body(
        app.get(&format!("/api/user/bookings/{early}/refund-preview"), Some(&f.seeker))
            .await,
    )
    .await;
    assert_eq!(preview, json!({"refundPercentage": 100, "refundAmount": "40.00"}));
    let r = app
        .put(
            &format!("/api/user/bookings/{early}/cancel"),
            json!({"reason": "sick"}),
            Some(&f.seeker),
        )
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(r).await["message"], "Please acknowledge the policy");
    let done = body(
        app.put(
            &format!("/api/user/bookings/{early}/cancel"),
            json!({"reason": "sick", "acknowledgePolicy": true}),
            Some(&f.seeker),
        )
        .await,
    )
    .await;
    assert_eq!(
        done["refundPolicy"],
        json!({"refundPercentage": 100, "refundAmount": "40.00"})
    );
    assert_eq!(done["booking"]["status"], "cancelled");
    let half = body(
        app.put(
            &format!("/api/user/bookings/{late}/cancel"),
            json!({"acknowledgePolicy": true}),
            Some(&f.seeker),
        )
        .await,
    )
    .await;
    assert_eq!(
        half["refundPolicy"],
        json!({"refundPercentage": 50, "refundAmount": "20.00"})
    );
    app.put(
        &format!("/api/user/bookings/{early}/cancel"),
        json!({"acknowledgePolicy": true}),
        Some(&f.seeker),
    )
    .await
    .assert_status(StatusCode::CONFLICT);
    assert_eq!(app.queued("refunds").await.len(), 2);
    assert_eq!(app.queued("emails").await.last().unwrap()["kind"], "booking_cancelled");
    let dashboard = body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await;
    assert_eq!(dashboard["stats"]["totalSpent"], "20.00", "paid 80, 60 refunded");
    // Session History shows each cancellation's refund.
    let refund_of = |id: &str| {
        dashboard["bookings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["id"] == id)
            .unwrap()["refund"]
            .clone()
    };
    assert_eq!(
        refund_of(&early),
        json!({"percentage": 100, "amount": "40.00", "status": "pending"})
    );
    assert_eq!(refund_of(&late)["percentage"], 50);

    // The refund job pays out once, however often it runs.
    let refund: uuid::Uuid = sqlx::query_scalar("SELECT id FROM refunds WHERE percentage = 100")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let gateway = domain::payments::test_gateway::TestGateway::new(app.pool.clone(), Default::default());
    for _ in 0..3 {
        domain::payments::refund_payout::pay_out(&app.pool, &gateway, refund)
            .await
            .unwrap();
    }
    let (status, attempts): (String, i32) = sqlx::query_as("SELECT status, attempts FROM refunds WHERE id = $1")
        .bind(refund)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!((status.as_str(), attempts), ("succeeded", 1));
    // The slot is offered again.
    let day = chrono::DateTime::parse_from_rfc3339(&at(30)).unwrap();
    let slots = body(
        app.get(
            &format!(
                "/api/mentors/{}/available-slots?date={}&timeZone=UTC",
                f.mentor,
                day.date_naive()
            ),
            None,
        )
        .await,
    )
    .await;
    assert!(
        slots
            .as_array()
            .unwrap()
            .contains(&json!(day.format("%H:%M").to_string()))
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn mentors_move_bookings_only_along_the_allowed_transitions(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let id = paid_booking(&app, &f, 30).await;
    let path = format!("/api/mentor/bookings/{id}");
    let r = app.put(&path, json!({"status": "pending"}), Some(&f.mentor_sid)).await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], "A confirmed booking cannot become pending");
    app.put(&path, json!({"status": "cancelled"}), Some(&f.mentor_sid))
        .await
        .assert_status(StatusCode::CONFLICT);
    app.put(&path, json!({"status": "completed"}), Some(&f.seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    move_into_the_past(&app, &id).await;
    let done = body(
        app.put(&path, json!({"status": "completed"}), Some(&f.mentor_sid))
            .await,
    )
    .await;
    assert_eq!(done["status"], "completed");
    app.put(&path, json!({"status": "confirmed"}), Some(&f.mentor_sid))
        .await
        .assert_status(StatusCode::CONFLICT);
    let stats = body(app.get("/api/mentor/stats", Some(&f.mentor_sid)).await).await;
    assert_eq!(stats["totalEarnings"], "40.00");
    let m = body(app.get(&format!("/api/mentors/{}", f.mentor), None).await).await;
    assert_eq!(m["totalSessions"], 1);

    // A pending booking can be confirmed or cancelled (with a full refund).
    let pending = paid_booking(&app, &f, 50).await;
    sqlx::query("UPDATE bookings SET status = 'pending' WHERE id = $1::uuid")
        .bind(&pending)
        .execute(&app.pool)
        .await
        .unwrap();
    let c = body(
        app.put(
            &format!("/api/mentor/bookings/{pending}"),
            json!({"status": "cancelled"}),
            Some(&f.mentor_sid),
        )
        .await,
    )
    .await;
    assert_eq!(c["status"], "cancelled");
    let refund: (i16, i64) = sqlx::query_as("SELECT percentage, amount_cents FROM refunds WHERE booking_id = $1::uuid")
        .bind(&pending)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(refund, (100, 4000));
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn rescheduling_later_never_raises_the_refund(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    // 3 to 3.5 hours away: half back.
    let id = paid_booking_at(&app, &f, &at_minutes(210)).await;
    let preview = format!("/api/user/bookings/{id}/refund-preview");
    assert_eq!(
        body(app.get(&preview, Some(&f.seeker)).await).await,
        json!({"refundPercentage": 50, "refundAmount": "20.00"})
    );
    let r = app
        .put(
            &format!("/api/user/bookings/{id}/reschedule"),
            json!({"scheduledAt": at(24 * 7)}),
            Some(&f.seeker),
        )
        .await;
    r.assert_status_is_ok();
    assert_eq!(
        body(app.get(&preview, Some(&f.seeker)).await).await,
        json!({"refundPercentage": 50, "refundAmount": "20.00"}),
        "a week away now, but first booked 3.5 hours ahead"
    );
    let done = body(
        app.put(
            &format!("/api/user/bookings/{id}/cancel"),
            json!({"acknowledgePolicy": true}),
            Some(&f.seeker),
        )
        .await,
    )
    .await;
    assert_eq!(
        done["refundPolicy"],
        json!({"refundPercentage": 50, "refundAmount": "20.00"})
    );
    let refund: (i16, i64) = sqlx::query_as("SELECT percentage, amount_cents FROM refunds WHERE booking_id = $1::uuid")
        .bind(&id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(refund, (50, 2000));

    // Moving a booking earlier lowers the tier for good; moving it back does not restore it.
    let early = paid_booking(&app, &f, 30).await;
    let preview = format!("/api/user/bookings/{early}/refund-preview");
    assert_eq!(
        body(app.get(&preview, Some(&f.seeker)).await).await["refundPercentage"],
        100
    );
    app.put(
        &format!("/api/user/bookings/{early}/reschedule"),
        json!({"scheduledAt": at_minutes(270)}),
        Some(&f.seeker),
    )
    .await
    .assert_status_is_ok();
    assert_eq!(
        body(app.get(&preview, Some(&f.seeker)).await).await["refundPercentage"],
        50
    );
    app.put(
        &format!("/api/user/bookings/{early}/reschedule"),
        json!({"scheduledAt": at(50)}),
        Some(&f.seeker),
    )
    .await
    .assert_status_is_ok();
    assert_eq!(
        body(app.get(&preview, Some(&f.seeker)).await).await["refundPercentage"],
        50
    );
    // A mentor's cancellation still refunds in full.
    let by_mentor = paid_booking_at(&app, &f, &at_minutes(330)).await;
    app.put(
        &format!("/api/user/bookings/{by_mentor}/reschedule"),
        json!({"scheduledAt": at(80)}),
        Some(&f.seeker),
    )
    .await
    .assert_status_is_ok();
    sqlx::query("UPDATE bookings SET status = 'pending' WHERE id = $1::uuid")
        .bind(&by_mentor)
        .execute(&app.pool)
        .await
        .unwrap();
    let c = body(
        app.put(
            &format!("/api/mentor/bookings/{by_mentor}"),
            json!({"status": "cancelled"}),
            Some(&f.mentor_sid),
        )
        .await,
    )
    .await;
    assert_eq!(c["status"], "cancelled");
    let refund: i16 = sqlx::query_scalar("SELECT percentage FROM refunds WHERE booking_id = $1::uuid")
        .bind(&by_mentor)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(refund, 100);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_session_is_completed_only_after_it_has_ended(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let id = paid_booking(&app, &f, 24 * 6).await;
    let path = format!("/api/mentor/bookings/{id}");
    let r = app
        .put(&path, json!({"status": "completed"}), Some(&f.mentor_sid))
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "A session can be marked completed only after it has ended"
    );
    // A session that never happened cannot be reviewed.
    let r = app
        .post(
            &format!("/api/bookings/{id}/review"),
            json!({"rating": 5}),
            Some(&f.seeker),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);

    // Started but not over: still refused.
    sqlx::query("UPDATE bookings SET scheduled_at = now() - interval '30 minutes', ends_at = now() + interval '30 minutes' WHERE id = $1::uuid")
        .bind(&id)
        .execute(&app.pool)
        .await
        .unwrap();
    app.put(&path, json!({"status": "completed"}), Some(&f.mentor_sid))
        .await
        .assert_status(StatusCode::CONFLICT);

    // The completion job waits for the complaint window after the end, too.
    let uuid: uuid::Uuid = id.parse().unwrap();
    let window = Duration::hours(24);
    let mut tx = app.pool.begin().await.unwrap();
    assert!(
        domain::booking::lifecycle::complete_if_due(&mut tx, uuid, window)
            .await
            .unwrap()
            .is_none(),
        "not over yet"
    );
    tx.rollback().await.unwrap();
    move_into_the_past(&app, &id).await;
    let mut tx = app.pool.begin().await.unwrap();
    assert!(
        domain::booking::lifecycle::complete_if_due(&mut tx, uuid, window)
            .await
            .unwrap()
            .is_none(),
        "inside the complaint window"
    );
    tx.rollback().await.unwrap();

    let done = body(
        app.put(&path, json!({"status": "completed"}), Some(&f.mentor_sid))
            .await,
    )
    .await;
    assert_eq!(done["status"], "completed");
    app.post(
        &format!("/api/bookings/{id}/review"),
        json!({"rating": 5}),
        Some(&f.seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn completed_sessions_are_reviewed_once(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let id = paid_booking(&app, &f, 30).await;
    let path = format!("/api/bookings/{id}/review");
    let r = app.post(&path, json!({"rating": 5}), Some(&f.seeker)).await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], "Only completed sessions can be reviewed");
    move_into_the_past(&app, &id).await;
    app.put(
        &format!("/api/mentor/bookings/{id}"),
        json!({"status": "completed"}),
        Some(&f.mentor_sid),
    )
    .await
    .assert_status_is_ok();
    let r = app.post(&path, json!({"rating": 6}), Some(&f.seeker)).await;
    assert_eq!(body(r).await["message"], "Rating must be from 1 to 5");
    let (_, stranger) = app.signed_in("stranger@example.com").await;
    app.post(&path, json!({"rating": 4}), Some(&stranger))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let r = app
        .post(&path, json!({"rating": 4, "comment": " Lovely "}), Some(&f.seeker))
        .await;
    r.assert_status(StatusCode::CREATED);
    assert_eq!(body(r).await["comment"], "Lovely");
    let again = app.post(&path, json!({"rating": 5}), Some(&f.seeker)).await;
    again.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(again).await["message"], "You have already reviewed this session");
    let m = body(app.get(&format!("/api/mentors/{}", f.mentor), None).await).await;
    assert_eq!(
        (m["rating"].as_str(), m["reviewCount"].as_i64()),
        (Some("4.00"), Some(1))
    );
    let d = body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await;
    assert_eq!(d["bookings"][0]["hasReview"], true);
    app.deliver_notifications().await;
    assert_eq!(
        body(app.get("/api/notifications", Some(&f.mentor_sid)).await).await[0]["type"],
        "new_review"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn email_preferences_default_on_but_marketing_and_change_one_at_a_time(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = app.signed_in("ann@example.com").await;
    let defaults = json!({"bookingConfirmations": true, "bookingReminders": true, "marketingEmails": false, "reviewRequests": true});
    assert_eq!(
        body(app.get("/api/user/email-preferences", Some(&sid)).await).await,
        defaults
    );
    let r = body(
        app.put(
            "/api/user/email-preferences",
            json!({"bookingReminders": false}),
            Some(&sid),
        )
        .await,
    )
    .await;
    assert_eq!(
        r,
        json!({"bookingConfirmations": true, "bookingReminders": false, "marketingEmails": false, "reviewRequests": true})
    );
    let r = body(
        app.put(
            "/api/user/email-preferences",
            json!({"marketingEmails": true}),
            Some(&sid),
        )
        .await,
    )
    .await;
    assert_eq!(r["marketingEmails"], true);
    assert_eq!(r["bookingReminders"], false, "other preferences stay");
    app.put("/api/user/email-preferences", json!({}), Some(&sid))
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    app.get("/api/user/email-preferences", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_booking_can_move_back_to_a_time_it_had_before(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let first = at(30);
    let id = paid_booking_at(&app, &f, &first).await;
    let path = format!("/api/user/bookings/{id}/reschedule");
    app.put(&path, json!({"scheduledAt": at(40)}), Some(&f.seeker))
        .await
        .assert_status_is_ok();
    // Its reminders and completion for the first time are queued already: queueing them again
    // must not undo the move.
    app.put(&path, json!({"scheduledAt": first}), Some(&f.seeker))
        .await
        .assert_status_is_ok();
    let d = body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await;
    let start = d["bookings"][0]["scheduledAt"].as_str().unwrap();
    assert_eq!(
        chrono::DateTime::parse_from_rfc3339(start).unwrap(),
        chrono::DateTime::parse_from_rfc3339(&first).unwrap()
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_dashboard_shows_the_seekers_own_review(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let f = fixture(&app).await;
    let id = paid_booking(&app, &f, 30).await;
    sqlx::query("UPDATE bookings SET status = 'completed', completed_at = now() WHERE id = $1::uuid")
        .bind(&id)
        .execute(&app.pool)
        .await
        .unwrap();
    let mine = |dash: serde_json::Value| {
        dash["bookings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["id"] == json!(id))
            .cloned()
            .unwrap()
    };
    let before = mine(body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await);
    assert_eq!((&before["hasReview"], &before["review"]), (&json!(false), &json!(null)));
    app.post(
        &format!("/api/bookings/{id}/review"),
        json!({"rating": 4, "comment": "Lovely"}),
        Some(&f.seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let after = mine(body(app.get("/api/user/dashboard", Some(&f.seeker)).await).await);
    assert_eq!(after["hasReview"], true);
    assert_eq!(after["review"], json!({"rating": 4, "comment": "Lovely"}));
}
