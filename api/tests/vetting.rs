//! Vetting: a new mentor is pending until an administrator approves them; until then nobody else
//! sees, finds or books them. Rejection gives a reason, and the mentor may resubmit.

mod support;

use chrono::{Duration, DurationRound, Utc};
use poem::http::StatusCode;
use serde_json::{Value, json};
use sqlx::Executor;
use support::{TestApp, app, body, mentor_profile};
use uuid::Uuid;

async fn make_admin(app: &TestApp, email: &str) -> (Uuid, String) {
    let id = app.verified_user(email, "password1").await;
    sqlx::query("UPDATE users SET is_admin = true WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    (id, app.login(email, "password1").await)
}

struct Pending {
    id: String,
    sid: String,
    one_to_one: String,
    group: String,
}

/// A mentor who finished onboarding (profile, a one-to-one and a group service, hours all week)
/// through the API, without the test support's approval.
async fn pending_mentor(app: &TestApp) -> Pending {
    let (_, sid) = app.signed_in("nova@example.com").await;
    let r = app
        .post("/api/mentors", mentor_profile("Nova Starling", "astrology"), Some(&sid))
        .await;
    r.assert_status(StatusCode::CREATED);
    let created = body(r).await;
    assert_eq!(created["approvalStatus"], "pending", "{created}");
    let id = created["id"].as_str().unwrap().to_string();
    app.put(
        "/api/mentor/profile",
        json!({"timeZone": "UTC", "minimumNoticeMinutes": 0}),
        Some(&sid),
    )
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
    let one_to_one = app.service(&sid, "astrology", "40").await;
    let r = app
        .post(
            "/api/services",
            json!({"title": "Moon circle", "description": "A group reading for up to eight people.", "serviceType": "tarot",
                   "price": "25", "duration": 60, "isGroupSession": true, "maxParticipants": 8}),
            Some(&sid),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let group = body(r).await["id"].as_str().unwrap().to_string();
    Pending {
        id,
        sid,
        one_to_one,
        group,
    }
}

fn hours_ahead(hours: i64) -> String {
    (Utc::now() + Duration::hours(hours))
        .duration_trunc(Duration::hours(1))
        .unwrap()
        .to_rfc3339()
}

fn ids(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap().to_string())
        .collect()
}

/// What the public (and a seeker) can reach of the mentor: listing, search, page, service,
/// slots, group sessions, booking. `visible` says whether all of it should answer.
async fn assert_public(app: &TestApp, m: &Pending, group_session: &str, seeker: &str, visible: bool) {
    let listed = body(app.get("/api/mentors", None).await).await;
    assert_eq!(ids(&listed["mentors"]).contains(&m.id), visible, "{listed}");
    assert_eq!(listed["total"], if visible { 1 } else { 0 });
    let found = body(app.get("/api/mentors?search=Nova", None).await).await;
    assert_eq!(ids(&found["mentors"]).contains(&m.id), visible, "search: {found}");
    let by_service = body(app.get("/api/mentors?service=astrology&sort=price", None).await).await;
    assert_eq!(ids(&by_service["mentors"]).contains(&m.id), visible);

    let expected = if visible { StatusCode::OK } else { StatusCode::NOT_FOUND };
    for viewer in [None, Some(seeker)] {
        app.get(&format!("/api/mentors/{}", m.id), viewer)
            .await
            .assert_status(expected);
        app.get(&format!("/api/mentors/{}/reviews", m.id), viewer)
            .await
            .assert_status(expected);
        app.get(&format!("/api/services/{}", m.one_to_one), viewer)
            .await
            .assert_status(expected);
        let day = (Utc::now() + Duration::days(2)).format("%Y-%m-%d");
        app.get(
            &format!("/api/mentors/{}/available-slots?date={day}&timeZone=UTC", m.id),
            viewer,
        )
        .await
        .assert_status(expected);
    }
    app.get(&format!("/api/group-sessions/{group_session}"), Some(seeker))
        .await
        .assert_status(expected);
    let sessions = body(app.get("/api/group-sessions", Some(seeker)).await).await;
    assert_eq!(ids(&sessions).contains(&group_session.to_string()), visible);

    let stats = body(app.get("/api/service-stats", None).await).await;
    let astrology = stats
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["serviceType"] == "astrology")
        .unwrap()
        .clone();
    assert_eq!(astrology["mentorCount"], if visible { 1 } else { 0 });
    let highlights = body(app.get("/api/highlights", None).await).await;
    assert_eq!(highlights["mentorCount"], if visible { 1 } else { 0 });

    if !visible {
        let r = app
            .post(
                "/api/reservations",
                json!({"serviceId": m.one_to_one, "mentorId": m.id, "scheduledAt": hours_ahead(5), "totalAmount": "40"}),
                Some(seeker),
            )
            .await;
        r.assert_status(StatusCode::NOT_FOUND);
        let r = app
            .post(
                "/api/reservations",
                json!({"groupSessionId": group_session, "totalAmount": 25, "notes": ""}),
                Some(seeker),
            )
            .await;
        r.assert_status(StatusCode::NOT_FOUND);
        app.post(&format!("/api/user/favorites/{}", m.id), json!({}), Some(seeker))
            .await
            .assert_status(StatusCode::NOT_FOUND);
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_new_mentor_is_hidden_until_approved_and_a_rejection_can_be_resubmitted(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let m = pending_mentor(&app).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let (admin_id, admin) = make_admin(&app, "admin@example.com").await;
    let r = app
        .post(
            "/api/group-sessions",
            json!({"serviceId": m.group, "title": "Full moon circle", "scheduledAt": hours_ahead(30)}),
            Some(&m.sid),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    let group_session = body(r).await["id"].as_str().unwrap().to_string();

    // Pending: the mentor sees their own profile, page and session; nobody else anything.
    let own = body(app.get("/api/mentor/profile", Some(&m.sid)).await).await;
    assert_eq!(own["approvalStatus"], "pending");
    assert_eq!(own["rejectionReason"], Value::Null);
    app.get(&format!("/api/mentors/{}", m.id), Some(&m.sid))
        .await
        .assert_status_is_ok();
    app.get(&format!("/api/mentors/{}", m.id), Some(&admin))
        .await
        .assert_status_is_ok();
    app.get(&format!("/api/group-sessions/{group_session}"), Some(&m.sid))
        .await
        .assert_status_is_ok();
    assert_public(&app, &m, &group_session, &seeker, false).await;

    // The admin list: the status, and a filter by it.
    let all = body(app.get("/api/admin/mentors", Some(&admin)).await).await;
    assert_eq!(all[0]["approvalStatus"], "pending", "{all}");
    let pending = body(app.get("/api/admin/mentors?approvalStatus=pending", Some(&admin)).await).await;
    assert_eq!(ids(&pending), vec![m.id.clone()]);
    let approved = body(
        app.get("/api/admin/mentors?approvalStatus=approved", Some(&admin))
            .await,
    )
    .await;
    assert_eq!(approved, json!([]));
    let r = app.get("/api/admin/mentors?approvalStatus=active", Some(&admin)).await;
    r.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(r).await["message"], domain::catalogue::vetting::INVALID_STATUS);
    let reject = format!("/api/admin/mentors/{}/reject", m.id);
    let approve = format!("/api/admin/mentors/{}/approve", m.id);
    app.post(&approve, json!({}), Some(&seeker))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    app.post(&approve, json!({}), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.post(
        "/api/admin/mentors/00000000-0000-4000-8000-000000000000/approve",
        json!({}),
        Some(&admin),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);

    // Resubmitting is for rejected profiles only.
    let r = app.post("/api/mentor/profile/resubmit", json!({}), Some(&m.sid)).await;
    r.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(r).await["message"], domain::catalogue::vetting::NOT_REJECTED);
    app.post("/api/mentor/profile/resubmit", json!({}), Some(&seeker))
        .await
        .assert_status(StatusCode::NOT_FOUND);

    // Rejecting needs a reason of 1 to 1000 characters.
    for bad in [json!({}), json!({"reason": "   "}), json!({"reason": "r".repeat(1001)})] {
        app.post(&reject, bad.clone(), Some(&admin))
            .await
            .assert_status(StatusCode::BAD_REQUEST);
    }
    let reason = "Please describe your experience in more detail.";
    let r = app.post(&reject, json!({"reason": reason}), Some(&admin)).await;
    r.assert_status_is_ok();
    let rejected = body(r).await;
    assert_eq!(rejected["approvalStatus"], "rejected");
    assert_eq!(rejected["rejectionReason"], reason);
    app.post(&reject, json!({"reason": reason}), Some(&admin))
        .await
        .assert_status(StatusCode::CONFLICT);
    let own = body(app.get("/api/mentor/profile", Some(&m.sid)).await).await;
    assert_eq!(own["approvalStatus"], "rejected");
    assert_eq!(own["rejectionReason"], reason);
    assert_public(&app, &m, &group_session, &seeker, false).await;
    assert_eq!(app.deliver_notifications().await, 1);
    let notes = body(app.get("/api/notifications", Some(&m.sid)).await).await;
    assert_eq!(notes[0]["type"], "mentor_rejected", "{notes}");
    assert!(notes[0]["message"].as_str().unwrap().contains(reason));
    let mails = app.queued("emails").await;
    assert_eq!(
        mails.last().unwrap(),
        &json!({"kind": "mentor_rejected", "mentor_id": m.id, "reason": reason})
    );

    // The mentor edits and resubmits: pending again, still hidden.
    app.put(
        "/api/mentor/profile",
        json!({"bio": "Twenty years of astrology readings for seekers around the world, certified by the guild."}),
        Some(&m.sid),
    )
    .await
    .assert_status_is_ok();
    let r = app.post("/api/mentor/profile/resubmit", json!({}), Some(&m.sid)).await;
    r.assert_status_is_ok();
    let resubmitted = body(r).await;
    assert_eq!(resubmitted["approvalStatus"], "pending");
    assert_eq!(resubmitted["rejectionReason"], Value::Null);
    assert_public(&app, &m, &group_session, &seeker, false).await;

    // Approved: listed, bookable, told by notification and e-mail.
    let r = app.post(&approve, json!({}), Some(&admin)).await;
    r.assert_status_is_ok();
    assert_eq!(body(r).await["approvalStatus"], "approved");
    assert_public(&app, &m, &group_session, &seeker, true).await;
    let r = app
        .post(
            "/api/reservations",
            json!({"serviceId": m.one_to_one, "mentorId": m.id, "scheduledAt": hours_ahead(5), "totalAmount": "40"}),
            Some(&seeker),
        )
        .await;
    r.assert_status(StatusCode::CREATED);
    assert_eq!(app.deliver_notifications().await, 1);
    let notes = body(app.get("/api/notifications", Some(&m.sid)).await).await;
    assert_eq!(notes[0]["type"], "mentor_approved", "{notes}");
    assert_eq!(
        app.queued("emails").await.last().unwrap(),
        &json!({"kind": "mentor_approved", "mentor_id": m.id})
    );
    // Approving again changes nothing and tells nobody.
    app.post(&approve, json!({}), Some(&admin)).await.assert_status_is_ok();
    assert_eq!(app.deliver_notifications().await, 0);

    // Both decisions are audited.
    let audits: Vec<(Uuid, String, String, Value)> = sqlx::query_as(
        "SELECT admin_id, action, object_id, after FROM admin_audit WHERE object_type = 'mentor' ORDER BY created_at, id",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    assert_eq!(audits.len(), 2, "{audits:?}");
    assert_eq!(audits[0].0, admin_id);
    assert_eq!(
        (audits[0].1.as_str(), audits[0].2.as_str()),
        ("mentor.reject", m.id.as_str())
    );
    assert_eq!(audits[0].3["reason"], reason);
    assert_eq!(audits[1].1, "mentor.approve");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_cached_catalogue_forgets_a_mentor_once_rejected(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (id, mentor_sid) = app.mentor("mira@example.com", "Mira", "astrology").await;
    let service = app.service(&mentor_sid, "astrology", "40").await;
    let (_, admin) = make_admin(&app, "admin@example.com").await;
    assert_eq!(body(app.get("/api/mentors", None).await).await["total"], 1);
    app.get(&format!("/api/mentors/{id}"), None).await.assert_status_is_ok();
    app.get(&format!("/api/services/{service}"), None)
        .await
        .assert_status_is_ok();
    app.post(
        &format!("/api/admin/mentors/{id}/reject"),
        json!({"reason": "Your profile photo is not of you."}),
        Some(&admin),
    )
    .await
    .assert_status_is_ok();
    assert_eq!(body(app.get("/api/mentors", None).await).await["total"], 0);
    app.get(&format!("/api/mentors/{id}"), None)
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.get(&format!("/api/services/{service}"), None)
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

/// The migration approves every mentor that exists when it runs; mentors made after it are pending.
#[sqlx::test(migrations = false)]
async fn the_migration_approves_the_mentors_of_today(pool: sqlx::PgPool) {
    let mut conn = pool.acquire().await.unwrap();
    let mut seeded = false;
    for migration in domain::db::MIGRATOR.iter() {
        if migration.description.contains("mentor vetting") && !seeded {
            conn.execute(
                "INSERT INTO users (id, email, password_hash, first_name, last_name) \
                 VALUES ('00000000-0000-4000-8000-000000000001', 'old@example.com', 'x', 'Old', 'Timer'); \
                 INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents) \
                 VALUES ('00000000-0000-4000-8000-000000000001', 'Old Timer', repeat('b', 60), '{Astrology}', 5000);",
            )
            .await
            .unwrap();
            seeded = true;
        }
        sqlx::raw_sql(sqlx::AssertSqlSafe(migration.sql.as_str().to_owned()))
            .execute(&mut *conn)
            .await
            .unwrap();
    }
    assert!(seeded, "the vetting migration was found");
    let status: String = sqlx::query_scalar("SELECT approval_status FROM mentors")
        .fetch_one(&mut *conn)
        .await
        .unwrap();
    assert_eq!(status, "approved");
    sqlx::query(
        "INSERT INTO users (id, email, password_hash, first_name, last_name) \
         VALUES ('00000000-0000-4000-8000-000000000002', 'new@example.com', 'x', 'New', 'Comer')",
    )
    .execute(&mut *conn)
    .await
    .unwrap();
    let status: String = sqlx::query_scalar(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents) \
         VALUES ('00000000-0000-4000-8000-000000000002', 'New Comer', repeat('b', 60), '{Astrology}', 5000) RETURNING approval_status",
    )
    .fetch_one(&mut *conn)
    .await
    .unwrap();
    assert_eq!(status, "pending");
}
