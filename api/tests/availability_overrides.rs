//! Several days' availability at once, and date overrides (days off, extra hours) that slots,
//! holds and reschedules respect.

mod support;

use chrono::{Datelike, Duration, NaiveDate, Utc};
use poem::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, app, body};

/// A mentor in UTC with no notice; returns (mentor id, session).
async fn utc_mentor(app: &TestApp, email: &str) -> (String, String) {
    let (mentor, sid) = app.mentor(email, "Mira", "astrology").await;
    app.put(
        "/api/mentor/profile",
        json!({"timeZone": "UTC", "minimumNoticeMinutes": 0}),
        Some(&sid),
    )
    .await
    .assert_status_is_ok();
    (mentor, sid)
}

async fn slots(app: &TestApp, mentor: &str, date: NaiveDate) -> Value {
    body(
        app.get(
            &format!("/api/mentors/{mentor}/available-slots?date={date}&duration=60&timeZone=UTC"),
            None,
        )
        .await,
    )
    .await
}

fn at(date: NaiveDate, hh_mm: &str) -> String {
    format!("{date}T{hh_mm}:00Z")
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn several_days_get_one_window_each_all_or_none(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = utc_mentor(&app, "mentor@example.com").await;
    let r = app
        .post(
            "/api/mentor/availability/bulk",
            json!({"daysOfWeek": [1, 3, 5, 3], "startTime": "09:00", "endTime": "17:00"}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let made = body(r).await;
    let days: Vec<i64> = made
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["dayOfWeek"].as_i64().unwrap())
        .collect();
    assert_eq!(days, [1, 3, 5], "a day chosen twice counts once");
    assert!(
        made.as_array()
            .unwrap()
            .iter()
            .all(|s| s["startTime"] == "09:00" && s["endTime"] == "17:00" && s["isActive"] == true)
    );

    // Tuesday is free but Wednesday overlaps: nothing is added.
    let r = app
        .post(
            "/api/mentor/availability/bulk",
            json!({"daysOfWeek": [2, 3], "startTime": "16:00", "endTime": "18:00"}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "This time overlaps your availability on that day"
    );
    assert_eq!(
        body(app.get("/api/mentor/availability", Some(&sid)).await)
            .await
            .as_array()
            .unwrap()
            .len(),
        3
    );

    for (payload, message) in [
        (
            json!({"daysOfWeek": [], "startTime": "09:00", "endTime": "10:00"}),
            "Please select at least one day",
        ),
        (
            json!({"daysOfWeek": [0, 7], "startTime": "09:00", "endTime": "10:00"}),
            "Day of week must be from 0 (Sunday) to 6 (Saturday)",
        ),
        (
            json!({"daysOfWeek": [0], "startTime": "10:00", "endTime": "09:00"}),
            "End time must be after start time",
        ),
        (
            json!({"daysOfWeek": [0], "startTime": "09:15", "endTime": "10:00"}),
            "Times must be on the hour or half hour",
        ),
    ] {
        let r = app.post("/api/mentor/availability/bulk", payload, Some(&sid)).await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], message);
    }
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    app.post(
        "/api/mentor/availability/bulk",
        json!({"daysOfWeek": [0], "startTime": "09:00", "endTime": "10:00"}),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    app.post(
        "/api/mentor/availability/bulk",
        json!({"daysOfWeek": [0], "startTime": "09:00", "endTime": "10:00"}),
        None,
    )
    .await
    .assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_day_off_removes_that_days_slots_and_refuses_holds_and_reschedules(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, sid) = utc_mentor(&app, "mentor@example.com").await;
    app.post(
        "/api/mentor/availability/bulk",
        json!({"daysOfWeek": [0, 1, 2, 3, 4, 5, 6], "startTime": "09:00", "endTime": "12:00"}),
        Some(&sid),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let service = app.service(&sid, "astrology", "0").await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let today = Utc::now().date_naive();
    let (day, next) = (today + Duration::days(3), today + Duration::days(4));
    assert_eq!(
        slots(&app, &mentor, day).await,
        json!(["09:00", "09:30", "10:00", "10:30", "11:00"])
    );

    // A booking on the day first: the day off keeps it.
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": service, "scheduledAt": at(day, "10:00")}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let kept = body(r).await["booking"]["id"].as_str().unwrap().to_string();

    let r = app
        .post(
            "/api/mentor/availability/overrides",
            json!({"date": day.to_string(), "isDayOff": true}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let off = body(r).await;
    assert_eq!(off["date"], day.to_string());
    assert_eq!(
        (
            off["isDayOff"].clone(),
            off["startTime"].clone(),
            off["endTime"].clone()
        ),
        (json!(true), Value::Null, Value::Null)
    );

    assert_eq!(slots(&app, &mentor, day).await, json!([]));
    assert_eq!(
        slots(&app, &mentor, next).await,
        json!(["09:00", "09:30", "10:00", "10:30", "11:00"]),
        "only that date"
    );
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": service, "scheduledAt": at(day, "09:00")}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], "This time is no longer available");

    let dashboard = body(app.get("/api/user/dashboard", Some(&seeker)).await).await;
    let statuses: Vec<&Value> = dashboard["bookings"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|b| b["id"] == kept.as_str())
        .map(|b| &b["status"])
        .collect();
    assert_eq!(statuses, [&json!("confirmed")], "the day off cancels nothing");

    // Moving a booking onto the day off is refused; moving it to the next day is not.
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": service, "scheduledAt": at(next, "09:00")}),
            Some(&seeker),
        )
        .await;
    let moving = body(r).await["booking"]["id"].as_str().unwrap().to_string();
    let r = app
        .put(
            &format!("/api/user/bookings/{moving}/reschedule"),
            json!({"scheduledAt": at(day, "11:00")}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    app.put(
        &format!("/api/user/bookings/{moving}/reschedule"),
        json!({"scheduledAt": at(next, "11:00")}),
        Some(&seeker),
    )
    .await
    .assert_status_is_ok();

    // Deleting the day off gives the day back (less the kept booking).
    let id = off["id"].as_str().unwrap();
    app.delete(&format!("/api/mentor/availability/overrides/{id}"), Some(&sid))
        .await
        .assert_status_is_ok();
    assert_eq!(slots(&app, &mentor, day).await, json!(["09:00", "11:00"]));
    app.delete(&format!("/api/mentor/availability/overrides/{id}"), Some(&sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn extra_hours_add_slots_on_that_date(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, sid) = utc_mentor(&app, "mentor@example.com").await;
    let service = app.service(&sid, "astrology", "0").await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let day = Utc::now().date_naive() + Duration::days(5);
    let weekday = day.weekday().num_days_from_sunday();
    app.post(
        "/api/mentor/availability",
        json!({"dayOfWeek": weekday, "startTime": "09:00", "endTime": "10:00"}),
        Some(&sid),
    )
    .await
    .assert_status(StatusCode::CREATED);
    assert_eq!(slots(&app, &mentor, day).await, json!(["09:00"]));

    let r = app
        .post(
            "/api/mentor/availability/overrides",
            json!({"date": day.to_string(), "startTime": "18:00", "endTime": "20:00"}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let extra = body(r).await;
    assert_eq!(
        (
            extra["isDayOff"].clone(),
            extra["startTime"].clone(),
            extra["endTime"].clone()
        ),
        (json!(false), json!("18:00"), json!("20:00"))
    );
    assert_eq!(
        slots(&app, &mentor, day).await,
        json!(["09:00", "18:00", "18:30", "19:00"])
    );
    app.post(
        "/api/reservations",
        json!({"serviceId": service, "scheduledAt": at(day, "18:30")}),
        Some(&seeker),
    )
    .await
    .assert_status(StatusCode::CREATED);

    // A day off with extra hours on another date: only the extra hours.
    let other = day + Duration::days(7);
    app.post(
        "/api/mentor/availability/overrides",
        json!({"date": other.to_string(), "isDayOff": true, "startTime": "13:00", "endTime": "14:00"}),
        Some(&sid),
    )
    .await
    .assert_status(StatusCode::CREATED);
    assert_eq!(slots(&app, &mentor, other).await, json!(["13:00"]));

    let list = body(app.get("/api/mentor/availability/overrides", Some(&sid)).await).await;
    let dates: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|o| o["date"].as_str().unwrap())
        .collect();
    assert_eq!(dates, [day.to_string(), other.to_string()]);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn overrides_are_validated_and_owned(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = utc_mentor(&app, "mentor@example.com").await;
    let today = Utc::now().date_naive();
    let day = (today + Duration::days(2)).to_string();
    for (payload, message) in [
        (
            json!({"date": "next tuesday", "isDayOff": true}),
            "Date must be a valid date (YYYY-MM-DD)",
        ),
        (
            json!({"date": (today - Duration::days(1)).to_string(), "isDayOff": true}),
            "Date must be from today to 90 days ahead",
        ),
        (
            json!({"date": (today + Duration::days(91)).to_string(), "isDayOff": true}),
            "Date must be from today to 90 days ahead",
        ),
        (json!({"date": day}), "Choose a day off, extra hours, or both"),
        (
            json!({"date": day, "startTime": "10:00"}),
            "Extra hours need both a start and an end time",
        ),
        (
            json!({"date": day, "startTime": "10:00", "endTime": "09:00"}),
            "End time must be after start time",
        ),
    ] {
        let r = app
            .post("/api/mentor/availability/overrides", payload.clone(), Some(&sid))
            .await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(r).await["message"], message, "{payload}");
    }
    app.post(
        "/api/mentor/availability/overrides",
        json!({"date": today.to_string(), "isDayOff": true}),
        Some(&sid),
    )
    .await
    .assert_status(StatusCode::CREATED);
    app.post(
        "/api/mentor/availability/overrides",
        json!({"date": (today + Duration::days(90)).to_string(), "isDayOff": true}),
        Some(&sid),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let r = app
        .post(
            "/api/mentor/availability/overrides",
            json!({"date": today.to_string(), "isDayOff": true}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], "That date is already a day off");
    app.post(
        "/api/mentor/availability/overrides",
        json!({"date": day, "startTime": "10:00", "endTime": "12:00"}),
        Some(&sid),
    )
    .await
    .assert_status(StatusCode::CREATED);
    let r = app
        .post(
            "/api/mentor/availability/overrides",
            json!({"date": day, "startTime": "11:00", "endTime": "13:00"}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(
        body(r).await["message"],
        "These hours overlap extra hours you already added on that date"
    );

    let list = body(app.get("/api/mentor/availability/overrides", Some(&sid)).await).await;
    let id = list[0]["id"].as_str().unwrap().to_string();
    let (_, other) = app.mentor("other@example.com", "Orla", "tarot").await;
    app.delete(&format!("/api/mentor/availability/overrides/{id}"), Some(&other))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    assert_eq!(
        body(app.get("/api/mentor/availability/overrides", Some(&other)).await).await,
        json!([])
    );
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    app.get("/api/mentor/availability/overrides", Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.delete(&format!("/api/mentor/availability/overrides/{id}"), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.delete("/api/mentor/availability/overrides/not-a-uuid", Some(&sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.delete(&format!("/api/mentor/availability/overrides/{id}"), Some(&sid))
        .await
        .assert_status_is_ok();
}
