//! The admin job console: queues with their figures, tasks by state with their errors and masked
//! payloads, retry and discard (audited, 409 in the wrong state), and the cron schedules.

mod support;

use chrono::{Duration, Utc};
use domain::job_queue::{PushOptions, push};
use poem::http::StatusCode;
use serde_json::{Value, json};
use support::{TestApp, app, body};
use uuid::Uuid;

async fn admin(app: &TestApp) -> (Uuid, String) {
    let id = app.verified_user("admin@example.com", "password1").await;
    sqlx::query("UPDATE users SET is_admin = true WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    (id, app.login("admin@example.com", "password1").await)
}

/// Queues `payload` on `queue` and returns its task id.
async fn queue(app: &TestApp, queue: &str, payload: Value, run_at: Option<chrono::DateTime<Utc>>) -> String {
    let mut conn = app.pool.acquire().await.unwrap();
    let key = Uuid::new_v4().to_string();
    push(
        &mut conn,
        queue,
        &payload,
        PushOptions {
            run_at,
            idempotency_key: Some(key.clone()),
            max_attempts: Some(5),
        },
    )
    .await
    .unwrap();
    sqlx::query_scalar("SELECT id FROM apalis.jobs WHERE idempotency_key = $1")
        .bind(key)
        .fetch_one(&app.pool)
        .await
        .unwrap()
}

async fn set(app: &TestApp, id: &str, sql: &str) {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE apalis.jobs SET {sql} WHERE id = $1"
    )))
    .bind(id)
    .execute(&app.pool)
    .await
    .unwrap();
}

async fn task(app: &TestApp, admin: &str, queue: &str, id: &str) -> Value {
    let page = body(
        app.get(&format!("/api/admin/jobs?queue={queue}&pageSize=200"), Some(admin))
            .await,
    )
    .await;
    page["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("task {id} not listed in {page}"))
}

const PATHS: [&str; 3] = ["/api/admin/jobs/queues", "/api/admin/jobs", "/api/admin/jobs/schedules"];

#[sqlx::test(migrations = "../migrations")]
async fn only_admins_see_and_act(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, seeker) = app.signed_in("seeker@example.com").await;
    let (_, admin) = admin(&app).await;
    let id = queue(&app, "emails", json!({"kind": "verify_email"}), None).await;
    for path in PATHS {
        app.get(path, None).await.assert_status(StatusCode::UNAUTHORIZED);
        app.get(path, Some(&seeker)).await.assert_status(StatusCode::FORBIDDEN);
        app.get(path, Some(&admin)).await.assert_status_is_ok();
    }
    for action in ["retry", "discard"] {
        let path = format!("/api/admin/jobs/{id}/{action}");
        app.post(&path, json!({}), None)
            .await
            .assert_status(StatusCode::UNAUTHORIZED);
        app.post(&path, json!({}), Some(&seeker))
            .await
            .assert_status(StatusCode::FORBIDDEN);
    }
    app.post("/api/admin/jobs/nope/retry", json!({}), Some(&admin))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.get("/api/admin/jobs?state=stuck", Some(&admin))
        .await
        .assert_status(StatusCode::BAD_REQUEST);
}

#[sqlx::test(migrations = "../migrations")]
async fn tasks_show_in_their_states_with_errors_and_masked_payloads(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, admin) = admin(&app).await;
    let pending = queue(
        &app,
        "upload_cleanup",
        json!({"kind": "contact", "password": "hunter2", "nested": {"resetToken": "abc"}}),
        None,
    )
    .await;
    set(&app, &pending, "run_at = now() - interval '90 seconds'").await;
    let scheduled = queue(
        &app,
        "upload_cleanup",
        json!({"kind": "a"}),
        Some(Utc::now() + Duration::hours(1)),
    )
    .await;
    // Waiting for its next attempt: it keeps the error of the last one.
    let retrying = queue(&app, "upload_cleanup", json!({"kind": "b"}), None).await;
    set(
        &app,
        &retrying,
        "status = 'Failed', attempts = 2, run_at = now() + interval '1 minute', last_result = '{\"Err\": \"smtp: connection refused\"}'",
    )
    .await;
    let failed = queue(&app, "upload_cleanup", json!({"kind": "c"}), None).await;
    set(
        &app,
        &failed,
        "status = 'Failed', attempts = 5, done_at = now(), last_result = '{\"Err\": \"smtp: connection refused\"}'",
    )
    .await;
    let done = queue(&app, "upload_cleanup", json!({"kind": "d"}), None).await;
    set(
        &app,
        &done,
        "status = 'Done', attempts = 1, done_at = now(), last_result = '{\"Ok\": null}'",
    )
    .await;
    // A row no worker can decode, set aside as the supervisor does.
    sqlx::query("INSERT INTO apalis.jobs (id, job_type, job, status, attempts, max_attempts) VALUES ('bad-id', 'upload_cleanup', '\\x7b7d', 'Pending', 0, 5)")
        .execute(&app.pool)
        .await
        .unwrap();
    assert_eq!(
        jobs::runner::supervision::set_aside_undecodable(&app.pool, "upload_cleanup")
            .await
            .unwrap(),
        1
    );

    let p = task(&app, &admin, "upload_cleanup", &pending).await;
    assert_eq!(p["state"], "pending");
    assert_eq!(
        p["payload"],
        json!({"kind": "contact", "password": "********", "nested": {"resetToken": "********"}})
    );
    assert_eq!((p["attempts"].clone(), p["maxAttempts"].clone()), (json!(0), json!(5)));
    assert_eq!(
        task(&app, &admin, "upload_cleanup", &scheduled).await["state"],
        "scheduled"
    );
    let r = task(&app, &admin, "upload_cleanup", &retrying).await;
    assert_eq!(
        (r["state"].as_str(), r["lastError"].as_str()),
        (Some("scheduled"), Some("smtp: connection refused"))
    );
    let f = task(&app, &admin, "upload_cleanup", &failed).await;
    assert_eq!(
        (f["state"].as_str(), f["lastError"].as_str()),
        (Some("failed"), Some("smtp: connection refused"))
    );
    let d = task(&app, &admin, "upload_cleanup", &done).await;
    assert_eq!(
        (d["state"].as_str(), d["lastError"].clone()),
        (Some("done"), Value::Null)
    );
    assert_eq!(
        task(&app, &admin, "upload_cleanup", "bad-id").await["state"],
        "set_aside"
    );

    let queues = body(app.get("/api/admin/jobs/queues", Some(&admin)).await).await;
    let q = queues
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["queue"] == "upload_cleanup")
        .unwrap();
    assert_eq!(q["pending"], 1);
    assert_eq!(q["scheduled"], 2);
    assert_eq!(q["running"], 0);
    assert_eq!(q["failed"], 1);
    assert_eq!(q["setAside"], 1);
    assert_eq!(q["discarded"], 0);
    assert_eq!(q["succeededLastHour"], 1);
    assert_eq!(q["failedLastHour"], 1);
    assert_eq!(q["workers"], 0);
    let waited = q["oldestDueSeconds"].as_f64().unwrap();
    assert!((90.0..120.0).contains(&waited), "{waited}");
    let refunds = queues
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["queue"] == "refunds")
        .unwrap();
    assert_eq!(
        (refunds["pending"].clone(), refunds["oldestDueSeconds"].as_f64()),
        (json!(0), Some(0.0))
    );

    let failed_only = body(
        app.get("/api/admin/jobs?queue=upload_cleanup&state=failed", Some(&admin))
            .await,
    )
    .await;
    assert_eq!(failed_only["total"], 1);
    assert_eq!(failed_only["items"][0]["id"], failed.as_str());
    let paged = body(
        app.get("/api/admin/jobs?queue=upload_cleanup&page=2&pageSize=2", Some(&admin))
            .await,
    )
    .await;
    assert_eq!(paged["total"], 6);
    assert_eq!(paged["items"].as_array().unwrap().len(), 2);
}

#[sqlx::test(migrations = "../migrations")]
async fn retry_and_discard_act_in_the_right_states_and_are_audited(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (admin_id, admin) = admin(&app).await;
    let failed = queue(&app, "refunds", json!({"refund_id": "r"}), None).await;
    set(
        &app,
        &failed,
        "status = 'Failed', attempts = 5, done_at = now(), last_result = '{\"Err\": \"gateway down\"}'",
    )
    .await;
    let pending = queue(&app, "refunds", json!({"refund_id": "p"}), None).await;
    let running = queue(&app, "refunds", json!({"refund_id": "x"}), None).await;
    sqlx::query("INSERT INTO apalis.workers (id, worker_type, storage_name) VALUES ('refunds@1-a', 'refunds', 'pg')")
        .execute(&app.pool)
        .await
        .unwrap();
    set(
        &app,
        &running,
        "status = 'Running', lock_by = 'refunds@1-a', lock_at = now()",
    )
    .await;

    // Only a failed or set-aside task runs again.
    app.post(&format!("/api/admin/jobs/{pending}/retry"), json!({}), Some(&admin))
        .await
        .assert_status(StatusCode::CONFLICT);
    let retried = body(
        app.post(&format!("/api/admin/jobs/{failed}/retry"), json!({}), Some(&admin))
            .await,
    )
    .await;
    assert_eq!(
        (retried["state"].as_str(), retried["attempts"].as_i64()),
        (Some("pending"), Some(0))
    );
    let (status, attempts, due): (String, i32, bool) =
        sqlx::query_as("SELECT status, attempts, run_at <= now() FROM apalis.jobs WHERE id = $1")
            .bind(&failed)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!((status.as_str(), attempts, due), ("Pending", 0, true));

    // A running task is not discarded; a pending one is, and stays listed as discarded.
    app.post(&format!("/api/admin/jobs/{running}/discard"), json!({}), Some(&admin))
        .await
        .assert_status(StatusCode::CONFLICT);
    let discarded = body(
        app.post(&format!("/api/admin/jobs/{pending}/discard"), json!({}), Some(&admin))
            .await,
    )
    .await;
    assert_eq!(discarded["state"], "discarded");
    assert_eq!(task(&app, &admin, "refunds", &pending).await["state"], "discarded");
    app.post(&format!("/api/admin/jobs/{pending}/discard"), json!({}), Some(&admin))
        .await
        .assert_status(StatusCode::CONFLICT);
    app.post(&format!("/api/admin/jobs/{pending}/retry"), json!({}), Some(&admin))
        .await
        .assert_status(StatusCode::CONFLICT);
    // apalis never fetches it again.
    let fetched: i64 =
        sqlx::query_scalar("SELECT count(*) FROM apalis.get_jobs('refunds@1-a', 'refunds', 10) WHERE id = $1")
            .bind(&pending)
            .fetch_one(&app.pool)
            .await
            .unwrap();
    assert_eq!(fetched, 0);
    let refunds = body(app.get("/api/admin/jobs/queues", Some(&admin)).await).await;
    let refunds = refunds
        .as_array()
        .unwrap()
        .iter()
        .find(|q| q["queue"] == "refunds")
        .unwrap()
        .clone();
    assert_eq!(
        (refunds["discarded"].clone(), refunds["workers"].clone()),
        (json!(1), json!(1))
    );

    let audits: Vec<(Uuid, String, String, String, Value)> = sqlx::query_as(
        "SELECT admin_id, action, object_type, object_id, after FROM admin_audit ORDER BY created_at, action DESC",
    )
    .fetch_all(&app.pool)
    .await
    .unwrap();
    let actions: Vec<(&str, &str)> = audits.iter().map(|a| (a.1.as_str(), a.3.as_str())).collect();
    assert_eq!(
        actions,
        [("job.retry", failed.as_str()), ("job.discard", pending.as_str())]
    );
    assert!(audits.iter().all(|a| a.0 == admin_id && a.2 == "job"));
    assert_eq!(audits[1].4["state"], "discarded");
}

#[sqlx::test(migrations = "../migrations")]
async fn schedules_name_their_queue_with_last_and_next_runs(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, admin) = admin(&app).await;
    let tick = Utc::now() - Duration::minutes(3);
    queue(&app, "payout_batch", json!({"tick": tick.timestamp()}), None).await;
    let schedules = body(app.get("/api/admin/jobs/schedules", Some(&admin)).await).await;
    let names: Vec<&str> = schedules
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    let expected: Vec<&str> = domain::jobs::sweeps().iter().map(|(q, _)| *q).collect();
    assert_eq!(names, expected);
    let payouts = schedules
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "payout_batch")
        .unwrap();
    assert_eq!(payouts["expression"], "0 0 6 * * Mon");
    assert!(payouts["lastRunAt"].is_string());
    let next: chrono::DateTime<Utc> = payouts["nextRunAt"].as_str().unwrap().parse().unwrap();
    assert!(next > Utc::now() && next < Utc::now() + Duration::days(7));
    assert_eq!(chrono::Datelike::weekday(&next), chrono::Weekday::Mon);
    let cleanup = schedules
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["name"] == "cleanup")
        .unwrap();
    assert!(cleanup["lastRunAt"].is_null());
}
