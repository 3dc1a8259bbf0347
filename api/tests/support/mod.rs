//! An in-process app on a real database (one per test, from `#[sqlx::test]`).

#![allow(dead_code)]

use std::sync::Arc;

use api::{app, state::AppState};
use domain::Config;
use poem::{EndpointExt, endpoint::BoxEndpoint, test::{TestClient, TestResponse}};
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
    jobs::runtime::setup_storage(&pool).await.unwrap();
    let mut config = Config::from_lookup(|k| match k {
        "APP_BASE_URL" => Some(BASE_URL.into()),
        "WEB_DIST" => Some("/nonexistent".into()),
        _ => None,
    })
    .unwrap();
    tweak(&mut config);
    let state = AppState { pool: pool.clone(), config: Arc::new(config) };
    TestApp { cli: TestClient::new(app::build(state).map_to_response().boxed()), pool }
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
        self.post("/api/register", serde_json::json!({"email": email, "password": password, "firstName": "Ann", "lastName": "Lee"}), None).await
    }

    /// Registers and verifies directly in the database.
    pub async fn verified_user(&self, email: &str, password: &str) -> Uuid {
        self.register(email, password).await.assert_status(poem::http::StatusCode::CREATED);
        sqlx::query_scalar("UPDATE users SET email_verified = true WHERE lower(email) = lower($1) RETURNING id")
            .bind(email)
            .fetch_one(&self.pool)
            .await
            .unwrap()
    }

    /// Signs in and returns the session token from the cookie.
    pub async fn login(&self, email: &str, password: &str) -> String {
        let resp = self.post("/api/login", serde_json::json!({"email": email, "password": password}), None).await;
        resp.assert_status_is_ok();
        session_cookie(&resp).expect("login sets the session cookie")
    }

    /// The payloads queued for the worker on `queue`, oldest first.
    pub async fn queued(&self, queue: &str) -> Vec<Value> {
        let rows: Vec<Vec<u8>> = sqlx::query_scalar("SELECT job FROM apalis.jobs WHERE job_type = $1 ORDER BY run_at, id")
            .bind(queue)
            .fetch_all(&self.pool)
            .await
            .unwrap();
        rows.iter().map(|r| serde_json::from_slice(r).unwrap()).collect()
    }
}

pub fn session_cookie(resp: &TestResponse) -> Option<String> {
    resp.0
        .headers()
        .get_all("set-cookie")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .find_map(|v| v.strip_prefix("sid=").map(|rest| rest.split(';').next().unwrap_or("").to_string()))
        .filter(|v| !v.is_empty())
}

pub fn set_cookie_header(resp: &TestResponse) -> String {
    resp.0.headers().get_all("set-cookie").iter().filter_map(|v| v.to_str().ok()).collect::<Vec<_>>().join("\n")
}

pub async fn body(resp: TestResponse) -> Value {
    resp.0.into_body().into_json().await.unwrap()
}
