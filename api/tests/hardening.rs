//! HTTP hardening in-process: the session cookie's `Secure` flag behind a proxy, the exact
//! same-origin check, and the security headers on every response.

mod support;

use api::security_headers::{API_CSP, APP_CSP};
use poem::http::StatusCode;
use serde_json::json;
use support::{BASE_URL, app, app_with, set_cookie_header};

async fn login_with(app: &support::TestApp, headers: &[(&str, &str)]) -> String {
    let mut req = app
        .cli
        .post("/api/login")
        .body_json(&json!({"email": "ann@example.com", "password": "password1"}));
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    let resp = req.send().await;
    resp.assert_status_is_ok();
    set_cookie_header(&resp)
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_cookie_is_secure_when_a_trusted_proxy_saw_https(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| c.trust_proxy = true).await;
    app.verified_user("ann@example.com", "password1").await;
    assert!(
        login_with(&app, &[("x-forwarded-proto", "https")])
            .await
            .contains("Secure")
    );
    assert!(
        !login_with(&app, &[("x-forwarded-proto", "https, http")])
            .await
            .contains("Secure"),
        "the entry the trusted proxy appended (the rightmost) counts, not the client's own"
    );
    assert!(
        login_with(&app, &[("x-forwarded-proto", "http, https")])
            .await
            .contains("Secure")
    );
    assert!(
        !login_with(&app, &[("x-forwarded-proto", "http")])
            .await
            .contains("Secure")
    );
    assert!(!login_with(&app, &[]).await.contains("Secure"));

    let sid = support::session_cookie(
        &app.cli
            .post("/api/login")
            .header("x-forwarded-proto", "https")
            .body_json(&json!({"email": "ann@example.com", "password": "password1"}))
            .send()
            .await,
    )
    .unwrap();
    let out = app
        .cli
        .post("/api/logout")
        .header("cookie", format!("sid={sid}"))
        .header("x-forwarded-proto", "https")
        .send()
        .await;
    out.assert_status_is_ok();
    let cleared = set_cookie_header(&out);
    assert!(cleared.contains("Max-Age=0") && cleared.contains("Secure"), "{cleared}");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn an_untrusted_forwarded_proto_changes_nothing(pool: sqlx::PgPool) {
    let app = app(pool).await;
    app.verified_user("ann@example.com", "password1").await;
    assert!(
        !login_with(&app, &[("x-forwarded-proto", "https")])
            .await
            .contains("Secure")
    );
}

async fn logout_from(app: &support::TestApp, headers: &[(&str, &str)]) -> StatusCode {
    let mut req = app.cli.post("/api/logout");
    for (k, v) in headers {
        req = req.header(*k, *v);
    }
    req.send().await.0.status()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_origin_must_match_scheme_host_and_port(pool: sqlx::PgPool) {
    let app = app(pool).await;
    assert_eq!(BASE_URL, "http://localhost:8080");
    for origin in [
        "http://localhost:8080.evil.com",
        "https://localhost:8080",
        "http://localhost:8081",
        "http://localhost",
        "http://evil.example",
        "http://localhost:8080@evil.example",
        "null",
        "localhost:8080",
        "",
    ] {
        assert_eq!(
            logout_from(&app, &[("origin", origin)]).await,
            StatusCode::FORBIDDEN,
            "{origin}"
        );
        // Sent to that very host, a different scheme or port still differs.
        assert_eq!(
            logout_from(&app, &[("origin", origin), ("host", "localhost:8080")]).await,
            StatusCode::FORBIDDEN,
            "{origin}"
        );
    }
    for origin in [
        "http://localhost:8080",
        "http://LOCALHOST:8080/",
        "http://localhost:8080/",
    ] {
        assert_eq!(
            logout_from(&app, &[("origin", origin)]).await,
            StatusCode::OK,
            "{origin}"
        );
    }
    // The host the request was sent to, with default ports normalised.
    assert_eq!(
        logout_from(
            &app,
            &[("origin", "http://mentors.example"), ("host", "mentors.example:80")]
        )
        .await,
        StatusCode::OK
    );
    assert_eq!(
        logout_from(
            &app,
            &[("origin", "http://mentors.example:80"), ("host", "mentors.example")]
        )
        .await,
        StatusCode::OK
    );
    assert_eq!(
        logout_from(
            &app,
            &[("origin", "https://mentors.example"), ("host", "mentors.example")]
        )
        .await,
        StatusCode::FORBIDDEN
    );
    assert_eq!(
        logout_from(
            &app,
            &[
                ("origin", "http://mentors.example.evil.com"),
                ("host", "mentors.example")
            ]
        )
        .await,
        StatusCode::FORBIDDEN
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn behind_a_trusted_https_proxy_the_request_origin_is_https(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| c.trust_proxy = true).await;
    let via_proxy = [
        ("origin", "https://mentors.example"),
        ("host", "mentors.example"),
        ("x-forwarded-proto", "https"),
    ];
    assert_eq!(logout_from(&app, &via_proxy).await, StatusCode::OK);
    let https_to_port_443 = [
        ("origin", "https://mentors.example:443"),
        ("host", "mentors.example"),
        ("x-forwarded-proto", "https"),
    ];
    assert_eq!(logout_from(&app, &https_to_port_443).await, StatusCode::OK);
    let plain = [
        ("origin", "http://mentors.example"),
        ("host", "mentors.example"),
        ("x-forwarded-proto", "https"),
    ];
    assert_eq!(logout_from(&app, &plain).await, StatusCode::FORBIDDEN);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn every_response_carries_the_security_headers(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let cases = [
        ("/api/health", StatusCode::OK, API_CSP),
        ("/api/no-such-route", StatusCode::NOT_FOUND, API_CSP),
        ("/api/auth/user", StatusCode::UNAUTHORIZED, API_CSP),
        ("/uploads/missing.png", StatusCode::NOT_FOUND, API_CSP),
        ("/mentors", StatusCode::SERVICE_UNAVAILABLE, APP_CSP),
    ];
    for (path, status, csp) in cases {
        let resp = app.get(path, None).await;
        resp.assert_status(status);
        resp.assert_header("x-content-type-options", "nosniff");
        resp.assert_header("x-frame-options", "DENY");
        resp.assert_header("referrer-policy", "strict-origin-when-cross-origin");
        resp.assert_header("content-security-policy", csp);
    }
    let refused = app
        .cli
        .post("/api/logout")
        .header("origin", "https://evil.example")
        .send()
        .await;
    refused.assert_status(StatusCode::FORBIDDEN);
    refused.assert_header("content-security-policy", API_CSP);
}
