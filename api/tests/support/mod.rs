//! An in-process app on a real database (one per test, from `#[sqlx::test]`).

// Shared by every test file: what one of them leaves unused or private is no fault.
#![allow(unreachable_pub)]
#![allow(dead_code)]

use api::{app, state::AppState};
use domain::Config;
use poem::{
    EndpointExt,
    endpoint::BoxEndpoint,
    test::{TestClient, TestResponse},
};
use serde_json::Value;
use sqlx::PgPool;
use uuid::Uuid;

pub const BASE_URL: &str = "http://localhost:8080";

pub struct TestApp {
    pub cli: TestClient<BoxEndpoint<'static, poem::Response>>,
    pub pool: PgPool,
}

pub async fn app(pool: PgPool) -> TestApp {
    app_with(pool, |_| {}).await
}

pub async fn app_with(pool: PgPool, tweak: impl FnOnce(&mut Config)) -> TestApp {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let mut config = Config::from_lookup(|k| match k {
        "APP_BASE_URL" => Some(BASE_URL.into()),
        "WEB_DIST" => Some("/nonexistent".into()),
        _ => None,
    })
    .unwrap();
    // Every in-process request comes from one address; tests that count sign-ups set their own limit.
    config.limits.registrations_per_address = 10_000;
    tweak(&mut config);
    let state = AppState::new(pool.clone(), config).unwrap();
    TestApp {
        cli: TestClient::new(app::build(state).map_to_response().boxed()),
        pool,
    }
}

impl TestApp {
    pub async fn post(&self, path: &str, body: Value, cookie: Option<&str>) -> TestResponse {
        let mut req = self.cli.post(path).body_json(&body);
        if let Some(c) = cookie {
            req = req.header("cookie", format!("sid={c}"));
        }
        req.send().await
    }

    pub async fn get(&self, path: &str, cookie: Option<&str>) -> TestResponse {
        let mut req = self.cli.get(path);
        if let Some(c) = cookie {
            req = req.header("cookie", format!("sid={c}"));
        }
        req.send().await
    }

    pub async fn register(&self, email: &str, password: &str) -> TestResponse {
        self.post(
            "/api/register",
            serde_json::json!({"email": email, "password": password, "firstName": "Ann", "lastName": "Lee"}),
            None,
        )
        .await
    }

    /// Registers and verifies directly in the database.
    pub async fn verified_user(&self, email: &str, password: &str) -> Uuid {
        self.register(email, password)
            .await
            .assert_status(poem::http::StatusCode::CREATED);
        sqlx::query_scalar("UPDATE users SET email_verified = true WHERE lower(email) = lower($1) RETURNING id")
            .bind(email)
            .fetch_one(&self.pool)
            .await
            .unwrap()
    }

    /// Signs in and returns the session token from the cookie.
    pub async fn login(&self, email: &str, password: &str) -> String {
        let resp = self
            .post(
                "/api/login",
                serde_json::json!({"email": email, "password": password}),
                None,
            )
            .await;
        resp.assert_status_is_ok();
        session_cookie(&resp).expect("login sets the session cookie")
    }

    /// The payloads queued for the worker on `queue`, oldest first.
    pub async fn queued(&self, queue: &str) -> Vec<Value> {
        let rows: Vec<Vec<u8>> =
            sqlx::query_scalar("SELECT job FROM apalis.jobs WHERE job_type = $1 ORDER BY run_at, id")
                .bind(queue)
                .fetch_all(&self.pool)
                .await
                .unwrap();
        rows.iter().map(|r| serde_json::from_slice(r).unwrap()).collect()
    }
}

impl TestApp {
    /// Runs the notification fan-out tasks queued so far, oldest first, as the worker would, and
    /// takes them off the queue; returns how many notifications they wrote.
    pub async fn deliver_notifications(&self) -> usize {
        let tasks: Vec<Vec<u8>> = sqlx::query_scalar(
            "WITH taken AS (DELETE FROM apalis.jobs WHERE job_type = $1 AND status = 'Pending' RETURNING id, job, run_at) \
             SELECT job FROM taken ORDER BY run_at, id",
        )
        .bind(jobs::notification_fanout::QUEUE)
        .fetch_all(&self.pool)
        .await
        .unwrap();
        let mut written = 0;
        for task in tasks {
            let fan_out = serde_json::from_slice(&task).unwrap();
            written += jobs::notification_fanout::deliver(&self.pool, &fan_out)
                .await
                .unwrap()
                .written;
        }
        written
    }
}

pub fn session_cookie(resp: &TestResponse) -> Option<String> {
    resp.0
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| {
            v.strip_prefix("sid=")
                .map(|rest| rest.split(';').next().unwrap_or("").to_string())
        })
        .filter(|v| !v.is_empty())
}

pub fn set_cookie_header(resp: &TestResponse) -> String {
    resp.0
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join("\n")
}

pub async fn body(resp: TestResponse) -> Value {
    resp.0.into_body().into_json().await.unwrap()
}

impl TestApp {
    pub async fn put(&self, path: &str, body: Value, cookie: Option<&str>) -> TestResponse {
        let mut req = self.cli.put(path).body_json(&body);
        if let Some(c) = cookie {
            req = req.header("cookie", format!("sid={c}"));
        }
        req.send().await
    }

    pub async fn delete(&self, path: &str, cookie: Option<&str>) -> TestResponse {
        let mut req = self.cli.delete(path);
        if let Some(c) = cookie {
            req = req.header("cookie", format!("sid={c}"));
        }
        req.send().await
    }

    /// A verified, signed-in user; returns (user id, session).
    pub async fn signed_in(&self, email: &str) -> (Uuid, String) {
        let id = self.verified_user(email, "password1").await;
        (id, self.login(email, "password1").await)
    }

    /// A signed-in mentor with a valid profile; returns (mentor id, session).
    pub async fn mentor(&self, email: &str, display_name: &str, bio_topic: &str) -> (String, String) {
        let (_, sid) = self.signed_in(email).await;
        let resp = self
            .post("/api/mentors", mentor_profile(display_name, bio_topic), Some(&sid))
            .await;
        resp.assert_status(poem::http::StatusCode::CREATED);
        let id = body(resp).await["id"].as_str().unwrap().to_string();
        // Tests of everything after vetting start from a listed, bookable mentor.
        self.approve_mentor(&id).await;
        (id, sid)
    }

    /// Approves a mentor profile straight in the database, as an administrator would.
    pub async fn approve_mentor(&self, mentor_id: &str) {
        sqlx::query("UPDATE mentors SET approval_status = 'approved', rejection_reason = NULL WHERE id = $1")
            .bind(Uuid::parse_str(mentor_id).unwrap())
            .execute(&self.pool)
            .await
            .unwrap();
    }

    pub async fn service(&self, sid: &str, service_type: &str, price: &str) -> String {
        let resp = self
            .post(
                "/api/services",
                serde_json::json!({"title": "A fine session", "description": "Twenty characters or more of description.", "serviceType": service_type, "price": price}),
                Some(sid),
            )
            .await;
        resp.assert_status(poem::http::StatusCode::CREATED);
        body(resp).await["id"].as_str().unwrap().to_string()
    }
}

pub fn mentor_profile(display_name: &str, bio_topic: &str) -> Value {
    serde_json::json!({
        "displayName": display_name,
        "bio": format!("I have practised {bio_topic} for many years and love guiding seekers on their own path."),
        "specialties": ["Astrology"],
        "basePrice": "50.00",
        "profileImageUrl": "",
        "timeZone": "Europe/London"
    })
}
