//! The accounts API in-process against a real PostgreSQL (each test its own database).

mod support;

use domain::accounts::email_links::{self, Purpose};
use poem::http::StatusCode;
use serde_json::json;
use support::{app, app_with, body, session_cookie, set_cookie_header};

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn register_validates_and_queues_the_verification_mail(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let resp = app.register("Ann@Example.com", "password1").await;
    resp.assert_status(StatusCode::CREATED);
    let b = body(resp).await;
    assert_eq!(b["requiresVerification"], true);
    assert!(b["message"].as_str().unwrap().contains("verify"));

    let queued = app.queued("emails").await;
    assert_eq!(queued.len(), 1);
    assert_eq!(queued[0]["kind"], "verify_email");

    let dup = app.register("ann@EXAMPLE.com", "password2").await;
    dup.assert_status(StatusCode::CREATED);
    assert_eq!(body(dup).await, b, "a taken address answers like a new one");
    let queued = app.queued("emails").await;
    assert_eq!(queued.len(), 2);
    assert_eq!(queued[1]["kind"], "account_exists");

    let short = app.register("bo@example.com", "1234567").await;
    short.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(
        body(short).await["message"],
        "Password must be at least 8 characters long"
    );

    let resp = app
        .post(
            "/api/register",
            json!({"email": "cy@example.com", "password": "password1", "firstName": " "}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(resp).await["message"], "First name is required");

    let resp = app.register("not-an-email", "password1").await;
    assert_eq!(body(resp).await["message"], "Please enter a valid email address");

    assert_eq!(
        app.queued("emails").await.len(),
        2,
        "refused registrations queue nothing"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn verify_then_login_then_logout(pool: sqlx::PgPool) {
    let app = app(pool).await;
    app.register("ann@example.com", "password1")
        .await
        .assert_status(StatusCode::CREATED);

    let resp = app
        .post(
            "/api/login",
            json!({"email": "ann@example.com", "password": "password1"}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::FORBIDDEN);
    assert!(
        body(resp).await["message"]
            .as_str()
            .unwrap()
            .contains("verify your email")
    );

    let user_id = sqlx::query_scalar("SELECT id FROM users")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    let token = email_links::issue(&app.pool, user_id, "ann@example.com", Purpose::VerifyEmail)
        .await
        .unwrap();
    app.post("/api/verify-email", json!({"token": token}), None)
        .await
        .assert_status_is_ok();
    let again = app.post("/api/verify-email", json!({"token": token}), None).await;
    again.assert_status(StatusCode::BAD_REQUEST);

    let resp = app
        .post(
            "/api/login",
            json!({"email": "ANN@example.com", "password": "password1"}),
            None,
        )
        .await;
    resp.assert_status_is_ok();
    let cookie = set_cookie_header(&resp);
    assert!(
        cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"),
        "{cookie}"
    );
    assert!(!cookie.contains("Secure"), "plain http has no Secure cookie");
    let sid = session_cookie(&resp).unwrap();
    let user = body(resp).await;
    assert_eq!(user["email"], "ann@example.com");

    let resp = app.get("/api/auth/user", Some(&sid)).await;
    resp.assert_status_is_ok();
    let me = body(resp).await;
    let mut keys: Vec<&str> = me.as_object().unwrap().keys().map(String::as_str).collect();
    keys.sort();
    assert_eq!(
        keys,
        [
            "createdAt",
            // Issue 35: when the account is to be removed (null when no deletion is scheduled).
            "deletionScheduledAt",
            "email",
            "emailVerified",
            "firstName",
            "id",
            "isActive",
            "isAdmin",
            // Beside the spec's fields (issue 24): whether the user has a mentor profile, so the web
            // asks for one only then.
            "isMentor",
            "lastName",
            // Issue 30: the sign-in before this session's (null at the first), for 'Welcome' or 'Welcome back'.
            "previousSignInAt",
            "profileImageUrl",
            "role",
            "stripeSubscriptionId",
            // Issue 35: whether they sign in with a second factor.
            "twoFactorEnabled"
        ],
        "exactly the spec's user fields, isMentor, previousSignInAt, twoFactorEnabled and deletionScheduledAt"
    );
    assert_eq!(me["previousSignInAt"], serde_json::Value::Null, "the first sign-in");
    assert_eq!(me["role"], "user");
    assert_eq!(me["emailVerified"], true);
    assert!(me.to_string().find("password").is_none(), "no password data: {me}");

    app.post("/api/logout", json!({}), Some(&sid))
        .await
        .assert_status_is_ok();
    let resp = app.get("/api/auth/user", Some(&sid)).await;
    resp.assert_status(StatusCode::UNAUTHORIZED);
    assert_eq!(
        body(resp).await,
        json!({"code": "unauthorized", "message": "Unauthorized"})
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn wrong_passwords_and_deactivated_accounts_are_refused(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let id = app.verified_user("ann@example.com", "password1").await;
    let resp = app
        .post(
            "/api/login",
            json!({"email": "ann@example.com", "password": "password2"}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::UNAUTHORIZED);
    assert_eq!(body(resp).await["message"], "Invalid email or password");
    let resp = app
        .post(
            "/api/login",
            json!({"email": "nobody@example.com", "password": "password1"}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::UNAUTHORIZED);

    let sid = app.login("ann@example.com", "password1").await;
    sqlx::query("UPDATE users SET is_active = false WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    let resp = app
        .post(
            "/api/login",
            json!({"email": "ann@example.com", "password": "password1"}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::FORBIDDEN);
    assert!(body(resp).await["message"].as_str().unwrap().contains("deactivated"));
    app.get("/api/auth/user", Some(&sid))
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn failed_logins_are_limited_per_account_and_per_address(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| {
        c.limits.login_failures_per_account = 3;
        c.limits.login_failures_per_address = 5;
    })
    .await;
    app.verified_user("ann@example.com", "password1").await;
    for _ in 0..3 {
        let r = app
            .post(
                "/api/login",
                json!({"email": "ann@example.com", "password": "nope-nope"}),
                None,
            )
            .await;
        r.assert_status(StatusCode::UNAUTHORIZED);
    }
    let locked = app
        .post(
            "/api/login",
            json!({"email": "ann@example.com", "password": "password1"}),
            None,
        )
        .await;
    locked.assert_status(StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        body(locked).await["message"],
        "Too many failed login attempts. Please try again in 15 minutes."
    );

    // Two more failures on other accounts reach the address limit of 5.
    for email in ["bo@example.com", "cy@example.com"] {
        app.post("/api/login", json!({"email": email, "password": "nope-nope"}), None)
            .await
            .assert_status(StatusCode::UNAUTHORIZED);
    }
    let r = app
        .post(
            "/api/login",
            json!({"email": "dee@example.com", "password": "nope-nope"}),
            None,
        )
        .await;
    r.assert_status(StatusCode::TOO_MANY_REQUESTS);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn forgot_password_answers_the_same_and_mails_real_accounts_only(pool: sqlx::PgPool) {
    let app = app(pool).await;
    app.verified_user("ann@example.com", "password1").await;
    let before = app.queued("emails").await.len();
    let unknown = body(
        app.post("/api/forgot-password", json!({"email": "nobody@example.com"}), None)
            .await,
    )
    .await;
    assert_eq!(app.queued("emails").await.len(), before);
    let known = body(
        app.post("/api/forgot-password", json!({"email": "Ann@example.com"}), None)
            .await,
    )
    .await;
    assert_eq!(unknown, known);
    let queued = app.queued("emails").await;
    assert_eq!(queued.last().unwrap()["kind"], "reset_password");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn email_requests_are_limited_per_address(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| c.limits.email_requests_per_address = 2).await;
    for _ in 0..2 {
        app.post("/api/forgot-password", json!({"email": "a@example.com"}), None)
            .await
            .assert_status_is_ok();
        app.post("/api/resend-verification", json!({"email": "a@example.com"}), None)
            .await
            .assert_status_is_ok();
    }
    app.post("/api/forgot-password", json!({"email": "a@example.com"}), None)
        .await
        .assert_status(StatusCode::TOO_MANY_REQUESTS);
    app.post("/api/resend-verification", json!({"email": "a@example.com"}), None)
        .await
        .assert_status(StatusCode::TOO_MANY_REQUESTS);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn resend_verification_queues_only_for_unverified_accounts(pool: sqlx::PgPool) {
    let app = app(pool).await;
    app.register("ann@example.com", "password1").await;
    app.verified_user("bo@example.com", "password1").await;
    app.post("/api/resend-verification", json!({"email": "ann@example.com"}), None)
        .await
        .assert_status_is_ok();
    app.post("/api/resend-verification", json!({"email": "bo@example.com"}), None)
        .await
        .assert_status_is_ok();
    app.post("/api/resend-verification", json!({"email": "zed@example.com"}), None)
        .await
        .assert_status_is_ok();
    // two registrations + one resend
    assert_eq!(app.queued("emails").await.len(), 3);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn reset_password_ends_every_session_and_is_single_use(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let id = app.verified_user("ann@example.com", "password1").await;
    let sid = app.login("ann@example.com", "password1").await;
    let token = email_links::issue(&app.pool, id, "ann@example.com", Purpose::ResetPassword)
        .await
        .unwrap();

    let short = app
        .post(
            "/api/reset-password",
            json!({"token": token, "newPassword": "short"}),
            None,
        )
        .await;
    short.assert_status(StatusCode::BAD_REQUEST);
    app.post(
        "/api/reset-password",
        json!({"token": token, "newPassword": "new-password"}),
        None,
    )
    .await
    .assert_status_is_ok();
    app.get("/api/auth/user", Some(&sid))
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.post(
        "/api/reset-password",
        json!({"token": token, "newPassword": "other-password"}),
        None,
    )
    .await
    .assert_status(StatusCode::BAD_REQUEST);
    app.post(
        "/api/login",
        json!({"email": "ann@example.com", "password": "password1"}),
        None,
    )
    .await
    .assert_status(StatusCode::UNAUTHORIZED);
    app.login("ann@example.com", "new-password").await;
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn change_password_keeps_this_session_and_ends_the_others(pool: sqlx::PgPool) {
    let app = app(pool).await;
    app.verified_user("ann@example.com", "password1").await;
    let here = app.login("ann@example.com", "password1").await;
    let elsewhere = app.login("ann@example.com", "password1").await;

    let wrong = app
        .post(
            "/api/user/change-password",
            json!({"currentPassword": "nope-nope", "newPassword": "password2"}),
            Some(&here),
        )
        .await;
    wrong.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(wrong).await["message"], "Current password is incorrect");
    app.post(
        "/api/user/change-password",
        json!({"currentPassword": "password1", "newPassword": "password2"}),
        None,
    )
    .await
    .assert_status(StatusCode::UNAUTHORIZED);
    app.post(
        "/api/user/change-password",
        json!({"currentPassword": "password1", "newPassword": "password2"}),
        Some(&here),
    )
    .await
    .assert_status_is_ok();
    app.get("/api/auth/user", Some(&here)).await.assert_status_is_ok();
    app.get("/api/auth/user", Some(&elsewhere))
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.login("ann@example.com", "password2").await;
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn cross_site_requests_are_refused(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let resp = app
        .cli
        .post("/api/register")
        .header("origin", "https://evil.example")
        .body_json(&json!({}))
        .send()
        .await;
    resp.assert_status(StatusCode::FORBIDDEN);
    assert_eq!(body(resp).await["message"], "Cross-site requests are not allowed");
    let resp = app
        .cli
        .post("/api/forgot-password")
        .header("origin", support::BASE_URL)
        .body_json(&json!({"email": "a@example.com"}))
        .send()
        .await;
    resp.assert_status_is_ok();
    // Reads are not state changes.
    app.cli
        .get("/api/health")
        .header("origin", "https://evil.example")
        .send()
        .await
        .assert_status_is_ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn bad_requests_get_json_errors(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let resp = app
        .cli
        .post("/api/login")
        .content_type("application/json")
        .body("{not json")
        .send()
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert!(
        body(resp).await["message"]
            .as_str()
            .unwrap()
            .starts_with("Malformed JSON")
    );

    let big = format!("{{\"email\": \"{}\"}}", "a".repeat(2 * 1024 * 1024));
    let resp = app
        .cli
        .post("/api/login")
        .content_type("application/json")
        .body(big)
        .send()
        .await;
    resp.assert_status(StatusCode::PAYLOAD_TOO_LARGE);
    assert_eq!(body(resp).await["message"], "Request body is too large");

    let resp = app.get("/api/does-not-exist", None).await;
    resp.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(body(resp).await, json!({"code": "not_found", "message": "Not found"}));

    let resp = app.get("/api/mentor/profile", None).await;
    resp.assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn browser_navigations_redirect_to_the_auth_screen(pool: sqlx::PgPool) {
    let app = app(pool).await;
    app.verified_user("ann@example.com", "password1").await;
    let sid = app.login("ann@example.com", "password1").await;

    let resp = app.get("/api/login", None).await;
    resp.assert_status(StatusCode::FOUND);
    resp.assert_header("location", "/auth");

    // A GET that is not the browser's own navigation (an <img> on a foreign page, no Sec-Fetch-Site)
    // only redirects: it signs nobody out.
    let resp = app.get("/api/logout", Some(&sid)).await;
    resp.assert_status(StatusCode::FOUND);
    resp.assert_header("location", "/auth");
    assert!(!set_cookie_header(&resp).contains("Max-Age=0"));
    app.get("/api/auth/user", Some(&sid)).await.assert_status_is_ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn mentor_profile_is_404_for_non_mentors(pool: sqlx::PgPool) {
    let app = app(pool).await;
    app.verified_user("ann@example.com", "password1").await;
    let sid = app.login("ann@example.com", "password1").await;
    app.get("/api/mentor/profile", Some(&sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn https_base_url_makes_the_cookie_secure(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| c.app_base_url = "https://mentors.example".parse().unwrap()).await;
    app.verified_user("ann@example.com", "password1").await;
    let resp = app
        .post(
            "/api/login",
            json!({"email": "ann@example.com", "password": "password1"}),
            None,
        )
        .await;
    assert!(set_cookie_header(&resp).contains("Secure"));
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn health_answers_ok(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let resp = app.get("/api/health", None).await;
    resp.assert_status_is_ok();
    let health = body(resp).await;
    assert_eq!(health["status"], "ok");
    // No worker runs in this test: every queue reports that nothing polls it.
    let queues = health["details"]["queues"].as_array().unwrap();
    assert_eq!(queues.len(), domain::jobs::QUEUES.len());
    assert!(queues.iter().all(|q| q["state"] == "not_polling"), "{queues:?}");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_taken_address_creates_nothing_and_keeps_its_password(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let id = app.verified_user("ann@example.com", "password1").await;
    let resp = app.post("/api/register", json!({"email": " ANN@example.com ", "password": "other-password", "firstName": "Eve", "lastName": "Mallory"}), None).await;
    resp.assert_status(StatusCode::CREATED);
    let users: Vec<(uuid::Uuid, String)> = sqlx::query_as("SELECT id, first_name FROM users")
        .fetch_all(&app.pool)
        .await
        .unwrap();
    assert_eq!(
        users,
        [(id, "Ann".to_string())],
        "no second account and no change to the first"
    );
    assert_eq!(app.queued("emails").await.last().unwrap()["kind"], "account_exists");
    app.login("ann@example.com", "password1").await;
    let resp = app
        .post(
            "/api/login",
            json!({"email": "ann@example.com", "password": "other-password"}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn registrations_are_limited_per_address_and_refused_input_is_not_counted(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| c.limits.registrations_per_address = 2).await;
    app.register("bad-address", "password1")
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    app.register("ann@example.com", "password1")
        .await
        .assert_status(StatusCode::CREATED);
    app.register("ann@example.com", "password1")
        .await
        .assert_status(StatusCode::CREATED);
    let resp = app.register("bo@example.com", "password1").await;
    resp.assert_status(StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        body(resp).await["message"],
        "Too many sign-ups from your network. Please try again in 15 minutes."
    );
    let n: i64 = sqlx::query_scalar("SELECT count(*) FROM users")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(n, 1);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn parallel_wrong_passwords_are_evaluated_only_up_to_the_limit(pool: sqlx::PgPool) {
    let app = std::sync::Arc::new(app_with(pool, |c| c.limits.login_failures_per_account = 4).await);
    app.verified_user("ann@example.com", "password1").await;
    let tries: Vec<_> = (0..12)
        .map(|i| {
            let app = app.clone();
            tokio::spawn(async move {
                app.post(
                    "/api/login",
                    json!({"email": "ann@example.com", "password": format!("wrong-{i}-password")}),
                    None,
                )
                .await
                .0
                .status()
            })
        })
        .collect();
    let mut statuses = Vec::new();
    for t in tries {
        statuses.push(t.await.unwrap());
    }
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::UNAUTHORIZED).count(),
        4,
        "{statuses:?}"
    );
    assert_eq!(
        statuses.iter().filter(|s| **s == StatusCode::TOO_MANY_REQUESTS).count(),
        8,
        "{statuses:?}"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_right_password_does_not_count_as_a_failure(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| c.limits.login_failures_per_address = 2).await;
    let id = app.verified_user("ann@example.com", "password1").await;
    for _ in 0..3 {
        app.login("ann@example.com", "password1").await;
    }
    app.register("bo@example.com", "password1").await;
    for _ in 0..2 {
        app.post(
            "/api/login",
            json!({"email": "bo@example.com", "password": "password1"}),
            None,
        )
        .await
        .assert_status(StatusCode::FORBIDDEN);
    }
    sqlx::query("UPDATE users SET is_active = false WHERE id = $1")
        .bind(id)
        .execute(&app.pool)
        .await
        .unwrap();
    app.post(
        "/api/login",
        json!({"email": "ann@example.com", "password": "password1"}),
        None,
    )
    .await
    .assert_status(StatusCode::FORBIDDEN);
    app.post(
        "/api/login",
        json!({"email": "ann@example.com", "password": "nope-nope"}),
        None,
    )
    .await
    .assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_reset_or_a_password_change_voids_every_other_reset_link(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let id = app.verified_user("ann@example.com", "password1").await;
    let first = email_links::issue(&app.pool, id, "ann@example.com", Purpose::ResetPassword)
        .await
        .unwrap();
    let second = email_links::issue(&app.pool, id, "ann@example.com", Purpose::ResetPassword)
        .await
        .unwrap();
    app.post(
        "/api/reset-password",
        json!({"token": second, "newPassword": "new-password"}),
        None,
    )
    .await
    .assert_status_is_ok();
    let resp = app
        .post(
            "/api/reset-password",
            json!({"token": first, "newPassword": "attacker-password"}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(resp).await["message"], email_links::INVALID_RESET_LINK);

    let outstanding = email_links::issue(&app.pool, id, "ann@example.com", Purpose::ResetPassword)
        .await
        .unwrap();
    let sid = app.login("ann@example.com", "new-password").await;
    app.post(
        "/api/user/change-password",
        json!({"currentPassword": "new-password", "newPassword": "newer-password"}),
        Some(&sid),
    )
    .await
    .assert_status_is_ok();
    let resp = app
        .post(
            "/api/reset-password",
            json!({"token": outstanding, "newPassword": "attacker-password"}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(resp).await["message"], email_links::INVALID_RESET_LINK);
    app.login("ann@example.com", "newer-password").await;
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn contact_messages_are_limited_per_address_and_a_refused_form_is_not_counted(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| c.limits.email_requests_per_address = 2).await;
    let message = json!({"name": "Ann", "email": "ann@example.com", "subject": "Hi", "category": "general", "message": "A question."});
    let resp = app
        .post("/api/contact", json!({"name": "Ann", "email": "ann@example.com"}), None)
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    for _ in 0..2 {
        app.post("/api/contact", message.clone(), None)
            .await
            .assert_status(StatusCode::CREATED);
    }
    let resp = app.post("/api/contact", message, None).await;
    resp.assert_status(StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(
        body(resp).await["message"],
        "Too many requests. Please try again in 15 minutes."
    );
}

/// A sign-in attempt from the given client address (`TRUST_PROXY` with `X-Forwarded-For`).
async fn login_from(app: &support::TestApp, address: &str, email: &str, password: &str) -> StatusCode {
    app.cli
        .post("/api/login")
        .header("x-forwarded-for", address)
        .body_json(&json!({"email": email, "password": password}))
        .send()
        .await
        .0
        .status()
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn failures_from_one_address_never_keep_the_right_password_out_from_another(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| c.trust_proxy = true).await;
    app.verified_user("ann@example.com", "password1").await;
    let limit = domain::config::DEFAULT_LOGIN_FAILURES_PER_ACCOUNT;
    for _ in 0..limit {
        assert_eq!(
            login_from(&app, "203.0.113.9", "ann@example.com", "nope-nope").await,
            StatusCode::UNAUTHORIZED
        );
    }
    // The address that failed is refused for this account, even with the right password...
    assert_eq!(
        login_from(&app, "203.0.113.9", "ann@example.com", "password1").await,
        StatusCode::TOO_MANY_REQUESTS
    );
    // ...but may still try other accounts, and the owner signs in from anywhere else.
    assert_eq!(
        login_from(&app, "203.0.113.9", "bo@example.com", "nope-nope").await,
        StatusCode::UNAUTHORIZED
    );
    assert_eq!(
        login_from(&app, "198.51.100.4", "ann@example.com", "password1").await,
        StatusCode::OK
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn guessing_spread_over_many_addresses_is_slowed_not_locked(pool: sqlx::PgPool) {
    let app = app_with(pool, |c| {
        c.trust_proxy = true;
        c.limits.login_slowdown_after_account_failures = 3;
    })
    .await;
    app.verified_user("ann@example.com", "password1").await;
    for i in 0..3 {
        let status = login_from(&app, &format!("203.0.113.{i}"), "ann@example.com", "nope-nope").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    // Past the account-wide threshold every attempt waits, right or wrong, and the right one still works.
    let started = std::time::Instant::now();
    assert_eq!(
        login_from(&app, "203.0.113.50", "ann@example.com", "nope-nope").await,
        StatusCode::UNAUTHORIZED
    );
    assert!(started.elapsed() >= domain::accounts::login::SLOWDOWN_DELAY);
    let started = std::time::Instant::now();
    assert_eq!(
        login_from(&app, "198.51.100.4", "ann@example.com", "password1").await,
        StatusCode::OK
    );
    assert!(started.elapsed() >= domain::accounts::login::SLOWDOWN_DELAY);
}
