//! A mentor's minimum notice: no time inside it is offered, held or moved to.

mod support;

use chrono::{Duration, DurationRound, Utc};
use poem::http::StatusCode;
use serde_json::json;
use support::{app, body};

fn hour_from_now(hours: i64) -> chrono::DateTime<Utc> {
    (Utc::now() + Duration::hours(hours))
        .duration_trunc(Duration::hours(1))
        .unwrap()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn times_inside_the_notice_are_neither_offered_nor_accepted(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, mentor_sid) = app.mentor("mentor@example.com", "Mira", "astrology").await;
    let profile = body(app.get("/api/mentor/profile", Some(&mentor_sid)).await).await;
    assert_eq!(
        profile["minimumNoticeMinutes"], 120,
        "two hours unless the mentor says otherwise"
    );
    for bad in [json!(-1), json!(10_081)] {
        let r = app
            .put(
                "/api/mentor/profile",
                json!({"minimumNoticeMinutes": bad}),
                Some(&mentor_sid),
            )
            .await;
        r.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(
            body(r).await["message"],
            domain::catalogue::mentors::INVALID_MINIMUM_NOTICE
        );
    }
    app.put(
        "/api/mentor/profile",
        json!({"timeZone": "UTC", "minimumNoticeMinutes": 1440}),
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
    let service = app.service(&mentor_sid, "astrology", "0").await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;

    let soon = hour_from_now(5);
    let slots = body(
        app.get(
            &format!(
                "/api/mentors/{mentor}/available-slots?date={}&timeZone=UTC",
                soon.date_naive()
            ),
            None,
        )
        .await,
    )
    .await;
    assert!(
        !slots
            .as_array()
            .unwrap()
            .contains(&json!(soon.format("%H:%M").to_string())),
        "{slots}"
    );
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": service, "scheduledAt": soon.to_rfc3339()}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(
        body(r).await["message"],
        "This mentor needs at least 1 day notice: please choose a later time"
    );

    let later = hour_from_now(26);
    let slots = body(
        app.get(
            &format!(
                "/api/mentors/{mentor}/available-slots?date={}&timeZone=UTC",
                later.date_naive()
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
            .contains(&json!(later.format("%H:%M").to_string())),
        "{slots}"
    );
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": service, "scheduledAt": later.to_rfc3339()}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let created = body(r).await;
    let id = created["reservation"]["id"]
        .as_str()
        .or(created["booking"]["id"].as_str())
        .or(created["id"].as_str())
        .expect("an id")
        .to_string();

    // Moving it into the notice is refused the same way.
    let r = app
        .put(
            &format!("/api/user/bookings/{id}/reschedule"),
            json!({"scheduledAt": hour_from_now(4).to_rfc3339()}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(
        body(r).await["message"],
        "This mentor needs at least 1 day notice: please choose a later time"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_browser_zone_is_saved_for_mails_and_notifications(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (user_id, sid) = app.signed_in("seeker@example.com").await;
    let r = app
        .put("/api/user/time-zone", json!({"timeZone": "Mars/Olympus"}), Some(&sid))
        .await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(r).await["message"], domain::time_zones::INVALID_TIME_ZONE);
    app.put("/api/user/time-zone", json!({"timeZone": "Europe/Paris"}), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    let r = app
        .put("/api/user/time-zone", json!({"timeZone": " Europe/Paris "}), Some(&sid))
        .await;
    r.assert_status_is_ok();
    assert_eq!(body(r).await["timeZone"], "Europe/Paris");
    let saved: Option<String> = sqlx::query_scalar("SELECT time_zone FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(saved.as_deref(), Some("Europe/Paris"));
}
