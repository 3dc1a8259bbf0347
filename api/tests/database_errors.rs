//! Database errors that are the client's doing or nobody's fault never answer 500.

mod support;

use poem::http::StatusCode;
use serde_json::json;
use support::{app, body};

// Found by scripts/fuzz: PostgreSQL refuses NUL in text, which answered 500.
#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_nul_character_in_text_is_bad_input(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let resp = app
        .post(
            "/api/login",
            json!({"email": "a\u{0}b@example.com", "password": "password1"}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(resp).await["message"], domain::error::NUL_IN_TEXT);

    let resp = app.register("nul\u{0}@example.com", "password1").await;
    let status = resp.0.status();
    assert!(status.is_client_error(), "register with NUL: {status}");
}

// A pool that cannot reach its database answers 503 with the plain message, within the acquire timeout.
#[tokio::test]
async fn an_unreachable_database_answers_503() {
    use poem::{EndpointExt, test::TestClient};
    // Nothing listens on port 1: every connection attempt is refused.
    let pool = sqlx::postgres::PgPoolOptions::new()
        .acquire_timeout(std::time::Duration::from_millis(500))
        .connect_lazy("postgres://postgres@127.0.0.1:1/none")
        .unwrap();
    let config = domain::Config::from_lookup(|k| match k {
        "APP_BASE_URL" => Some(support::BASE_URL.into()),
        "WEB_DIST" => Some("/nonexistent".into()),
        _ => None,
    })
    .unwrap();
    let state = api::state::AppState::new(pool, config).unwrap();
    let cli = TestClient::new(api::app::build(state).map_to_response());
    for path in ["/api/mentors", "/api/auth/user"] {
        let resp = cli.get(path).header("cookie", "sid=some-session").send().await;
        resp.assert_status(StatusCode::SERVICE_UNAVAILABLE);
        let json: serde_json::Value = resp.json().await.value().deserialize();
        assert_eq!(json["message"], api::error::SERVICE_UNAVAILABLE, "{path}");
    }
}
