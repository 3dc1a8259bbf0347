//! The catalogue API in-process against a real PostgreSQL.

mod support;

use poem::{
    http::StatusCode,
    test::{TestForm, TestFormField},
};
use serde_json::json;
use support::{app, body, mentor_profile};

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn onboarding_validates_with_the_spec_texts(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = app.signed_in("ann@example.com").await;
    let long_bio = "b".repeat(501);
    let cases = [
        (
            json!({"displayName": "A"}),
            "Display name must be at least 2 characters",
        ),
        (
            json!({"displayName": "Ann", "bio": "too short"}),
            "Bio must be at least 50 characters",
        ),
        (
            json!({"displayName": "Ann", "bio": long_bio}),
            "Bio must be less than 500 characters",
        ),
        (
            json!({"displayName": "Ann", "bio": "b".repeat(60), "specialties": []}),
            "Please select at least one specialty",
        ),
        (
            json!({"displayName": "Ann", "bio": "b".repeat(60), "specialties": ["Tarot Reading"]}),
            "Base price is required",
        ),
        (
            json!({"displayName": "Ann", "bio": "b".repeat(60), "specialties": ["Tarot Reading"], "basePrice": "-3"}),
            "Base price must be a valid amount of at least 0",
        ),
        (
            json!({"displayName": "Ann", "bio": "b".repeat(60), "specialties": ["Tarot Reading"], "basePrice": 40, "profileImageUrl": "nope"}),
            "Please enter a valid image URL",
        ),
        (
            json!({"displayName": "Ann", "bio": "b".repeat(60), "specialties": ["Tarot Reading"], "basePrice": 40, "timeZone": "Mars/Base"}),
            "Please choose a valid time zone",
        ),
    ];
    for (payload, message) in cases {
        let resp = app.post("/api/mentors", payload, Some(&sid)).await;
        resp.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(resp).await["message"], message);
    }
    app.post("/api/mentors", mentor_profile("Ann", "tarot"), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn becoming_a_mentor_changes_the_role_once(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = app.signed_in("ann@example.com").await;
    app.get("/api/mentor/profile", Some(&sid))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let resp = app.post("/api/mentors", json!({"displayName": " Ann Lee ", "bio": "b".repeat(60), "specialties": [" Tarot Reading", "tarot reading", "Numerology"], "basePrice": 45.5}), Some(&sid)).await;
    resp.assert_status(StatusCode::CREATED);
    let mentor = body(resp).await;
    assert_eq!(mentor["displayName"], "Ann Lee");
    assert_eq!(mentor["specialties"], json!(["Tarot Reading", "Numerology"]));
    assert_eq!(mentor["basePrice"], "45.50");
    assert_eq!(mentor["rating"], "0.00");
    assert_eq!(mentor["timeZone"], "UTC");
    assert_eq!(mentor["services"], json!([]));
    assert_eq!(
        body(app.get("/api/auth/user", Some(&sid)).await).await["role"],
        "mentor"
    );
    let again = app
        .post("/api/mentors", mentor_profile("Ann", "tarot"), Some(&sid))
        .await;
    again.assert_status(StatusCode::CONFLICT);
    assert_eq!(body(again).await["message"], "You already have a mentor profile");

    let resp = app
        .put(
            "/api/mentor/profile",
            json!({"specialties": ["Reiki Master ", "Reiki Master"], "timeZone": "Asia/Kolkata"}),
            Some(&sid),
        )
        .await;
    resp.assert_status_is_ok();
    let mentor = body(resp).await;
    assert_eq!(mentor["specialties"], json!(["Reiki Master"]));
    assert_eq!(mentor["timeZone"], "Asia/Kolkata");
    assert_eq!(mentor["displayName"], "Ann Lee", "unsent fields stay");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn services_follow_the_dashboard_and_onboarding_payloads(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor_id, sid) = app.mentor("ann@example.com", "Ann", "astrology").await;
    let resp = app
        .post("/api/services", json!({"title": "Intro", "description": "A free twenty-minute introduction call.", "serviceType": "astrology", "price": "0.00"}), Some(&sid))
        .await;
    resp.assert_status(StatusCode::CREATED);
    let free = body(resp).await;
    assert_eq!(free["price"], "0.00");
    assert_eq!(free["duration"], 60, "duration defaults to 60");
    assert_eq!(free["maxParticipants"], json!(null));

    let resp = app
        .post("/api/services", json!({"title": "Circle", "description": "A group reading for up to eight people.", "serviceType": "tarot", "price": 25, "duration": 90, "isGroupSession": true, "maxParticipants": 8, "mentorId": mentor_id}), Some(&sid))
        .await;
    resp.assert_status(StatusCode::CREATED);
    let group = body(resp).await;
    assert_eq!(
        (
            group["price"].as_str(),
            group["maxParticipants"].as_i64(),
            group["duration"].as_i64()
        ),
        (Some("25.00"), Some(8), Some(90))
    );

    let base = json!({"title": "Reading", "description": "Twenty characters or more of description.", "serviceType": "tarot", "price": "10"});
    let cases = [
        (json!({"title": "ab"}), "Service title must be at least 3 characters"),
        (
            json!({"description": "short"}),
            "Description must be at least 20 characters",
        ),
        (json!({"serviceType": "palmistry"}), "Please choose a service type"),
        (json!({"price": null}), "Price is required"),
        (json!({"price": "-1"}), "Price must be a valid amount of at least 0"),
        (json!({"price": "ten"}), "Price must be a valid amount of at least 0"),
        (json!({"duration": 5}), "Duration must be between 15 and 480 minutes"),
        (
            json!({"isGroupSession": true, "maxParticipants": 21}),
            "Group sessions take 2 to 20 participants",
        ),
        (
            json!({"isGroupSession": true, "maxParticipants": 1}),
            "Group sessions take 2 to 20 participants",
        ),
    ];
    for (patch, message) in cases {
        let mut payload = base.clone();
        for (k, v) in patch.as_object().unwrap() {
            payload[k] = v.clone();
        }
        let resp = app.post("/api/services", payload, Some(&sid)).await;
        resp.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(resp).await["message"], message);
    }

    let (other_mentor, _) = app.mentor("bo@example.com", "Bo", "tarot").await;
    let mut foreign = base.clone();
    foreign["mentorId"] = json!(other_mentor);
    app.post("/api/services", foreign, Some(&sid))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    let (_, seeker) = app.signed_in("cy@example.com").await;
    app.post("/api/services", base, Some(&seeker))
        .await
        .assert_status(StatusCode::FORBIDDEN);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn only_the_owner_changes_a_service(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, ann) = app.mentor("ann@example.com", "Ann", "astrology").await;
    let (_, bo) = app.mentor("bo@example.com", "Bo", "tarot").await;
    let id = app.service(&ann, "astrology", "40").await;

    let resp = app
        .put(
            &format!("/api/mentor/services/{id}"),
            json!({"price": "45.5"}),
            Some(&ann),
        )
        .await;
    resp.assert_status_is_ok();
    let s = body(resp).await;
    assert_eq!(
        (s["price"].as_str(), s["title"].as_str()),
        (Some("45.50"), Some("A fine session"))
    );
    app.put(&format!("/api/mentor/services/{id}"), json!({"price": "1"}), Some(&bo))
        .await
        .assert_status(StatusCode::FORBIDDEN);
    app.put(
        "/api/mentor/services/4b4d4a3e-0000-4000-8000-000000000000",
        json!({}),
        Some(&ann),
    )
    .await
    .assert_status(StatusCode::NOT_FOUND);
    app.put("/api/mentor/services/not-an-id", json!({}), Some(&ann))
        .await
        .assert_status(StatusCode::NOT_FOUND);

    app.get(&format!("/api/services/{id}"), None)
        .await
        .assert_status_is_ok();
    let resp = app
        .put(
            &format!("/api/mentor/services/{id}"),
            json!({"isActive": false}),
            Some(&ann),
        )
        .await;
    assert_eq!(body(resp).await["isActive"], false);
    let resp = app.get(&format!("/api/services/{id}"), None).await;
    resp.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(body(resp).await["message"], "Service not found");
    let own = body(app.get("/api/mentor/profile", Some(&ann)).await).await;
    assert_eq!(
        own["services"].as_array().unwrap().len(),
        1,
        "the owner still sees inactive services"
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_service_page_shows_its_mentor(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor_id, sid) = app.mentor("ann@example.com", "Ann", "astrology").await;
    let id = app.service(&sid, "astrology", "40").await;
    let s = body(app.get(&format!("/api/services/{id}"), None).await).await;
    assert_eq!(s["mentor"]["id"], mentor_id.as_str());
    assert_eq!(s["mentor"]["displayName"], "Ann");
    assert_eq!(s["mentor"]["user"]["firstName"], "Ann");
    assert!(s["mentor"].get("services").is_none());
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn service_stats_cover_all_six_types(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, ann) = app.mentor("ann@example.com", "Ann", "astrology").await;
    let (_, bo) = app.mentor("bo@example.com", "Bo", "astrology").await;
    app.service(&ann, "astrology", "40").await;
    app.service(&ann, "astrology", "0").await;
    app.service(&bo, "astrology", "35.5").await;
    let free_tarot = app.service(&bo, "tarot", "0").await;
    let _ = free_tarot;
    let stats = body(app.get("/api/service-stats", None).await).await;
    let types: Vec<&str> = stats
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["serviceType"].as_str().unwrap())
        .collect();
    assert_eq!(
        types,
        [
            "astrology",
            "tarot",
            "energy_healing",
            "mystical_practices",
            "relationship_guidance",
            "meditation"
        ]
    );
    assert_eq!(stats[0]["mentorCount"], 2);
    assert_eq!(stats[0]["minPrice"], "35.50");
    assert_eq!(stats[1]["mentorCount"], 1);
    assert_eq!(stats[1]["minPrice"], "0.00", "free only: Coming Soon");
    assert_eq!(stats[2]["mentorCount"], 0);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn browsing_filters_searches_sorts_and_pages(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (ann, ann_sid) = app
        .mentor(
            "ann@example.com",
            "Ann Astra",
            "astrology and the clairvoyence of stars",
        )
        .await;
    let (bo, bo_sid) = app.mentor("bo@example.com", "Bo Cards", "tarot reading").await;
    let (_, cy_sid) = app.mentor("cy@example.com", "Cy Calm", "meditation").await;
    app.service(&ann_sid, "astrology", "40").await;
    app.service(&bo_sid, "tarot", "30").await;
    let hidden = app.service(&cy_sid, "tarot", "20").await;
    app.put(
        &format!("/api/mentor/services/{hidden}"),
        json!({"isActive": false}),
        Some(&cy_sid),
    )
    .await
    .assert_status_is_ok();
    app.put("/api/mentor/profile", json!({"basePrice": "80"}), Some(&bo_sid))
        .await
        .assert_status_is_ok();

    let names = |v: serde_json::Value| -> Vec<String> {
        v["mentors"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["displayName"].as_str().unwrap().to_string())
            .collect()
    };
    let all = body(app.get("/api/mentors", None).await).await;
    assert_eq!(all["total"], 2, "a mentor without an active service is not listed");
    assert_eq!(
        names(body(app.get("/api/mentors?service=tarot", None).await).await),
        ["Bo Cards"],
        "inactive services do not count"
    );
    // Typo tolerance in both directions: query misspelled, and a misspelled word in a bio.
    assert_eq!(
        names(body(app.get("/api/mentors?search=tarrot", None).await).await),
        ["Bo Cards"]
    );
    assert_eq!(
        names(body(app.get("/api/mentors?search=clairvoyance", None).await).await),
        ["Ann Astra"]
    );
    assert_eq!(
        names(body(app.get("/api/mentors?search=fine%20session", None).await).await).len(),
        2,
        "service titles are searched"
    );
    // Prices are the cheapest active service ("From"), never the base price (Bo's is 80).
    assert_eq!(
        names(body(app.get("/api/mentors?minPrice=35", None).await).await),
        ["Ann Astra"]
    );
    assert_eq!(
        names(body(app.get("/api/mentors?maxPrice=35", None).await).await),
        ["Bo Cards"]
    );
    assert_eq!(
        names(body(app.get("/api/mentors?sort=price", None).await).await),
        ["Bo Cards", "Ann Astra"]
    );
    assert_eq!(body(app.get("/api/mentors?minRating=4", None).await).await["total"], 0);
    let page = body(app.get("/api/mentors?pageSize=1&page=2&sort=price", None).await).await;
    assert_eq!(
        (page["total"].as_i64(), page["page"].as_i64(), page["pageSize"].as_i64()),
        (Some(2), Some(2), Some(1))
    );
    assert_eq!(names(page.clone()), ["Ann Astra"]);
    assert_eq!(page["mentors"][0]["fromPrice"], "40.00");
    let cy = body(app.get("/api/mentor/profile", Some(&cy_sid)).await).await;
    assert_eq!(cy["fromPrice"], serde_json::Value::Null, "no active service: no price");
    app.service(&cy_sid, "meditation", "0").await;
    let cy = body(app.get("/api/mentor/profile", Some(&cy_sid)).await).await;
    assert_eq!(
        cy["fromPrice"], "0.00",
        "a free service makes the mentor free to start with"
    );
    assert_eq!(body(app.get("/api/mentors", None).await).await["total"], 3);
    app.get("/api/mentors?sort=sideways", None)
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    app.get("/api/mentors?service=knitting", None)
        .await
        .assert_status(StatusCode::BAD_REQUEST);

    let one = body(app.get(&format!("/api/mentors/{ann}"), None).await).await;
    assert_eq!(one["services"].as_array().unwrap().len(), 1);
    let _ = bo;
    let missing = app.get("/api/mentors/00000000-0000-4000-8000-000000000000", None).await;
    missing.assert_status(StatusCode::NOT_FOUND);
    assert_eq!(body(missing).await["message"], "Mentor not found");
    app.get("/api/mentors/42", None)
        .await
        .assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn reviews_are_listed_newest_first_and_set_the_rating(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, _) = app.mentor("ann@example.com", "Ann", "astrology").await;
    let (seeker, _) = app.signed_in("bo@example.com").await;
    for (rating, comment, days) in [(5, "old", 3), (4, "new", 1)] {
        sqlx::query("INSERT INTO reviews (mentor_id, user_id, rating, comment, created_at) VALUES ($1::uuid, $2, $3, $4, now() - make_interval(days => $5))")
            .bind(&mentor)
            .bind(seeker)
            .bind(rating as i16)
            .bind(comment)
            .bind(days)
            .execute(&app.pool)
            .await
            .unwrap();
    }
    let reviews = body(app.get(&format!("/api/mentors/{mentor}/reviews"), None).await).await;
    assert_eq!(reviews[0]["comment"], "new");
    assert_eq!(reviews[1]["rating"], 5);
    assert_eq!(reviews[0]["user"], json!({"firstName": "Ann", "lastName": "Lee"}));
    let m = body(app.get(&format!("/api/mentors/{mentor}"), None).await).await;
    assert_eq!(
        (m["rating"].as_str(), m["reviewCount"].as_i64()),
        (Some("4.50"), Some(2))
    );
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn favourites_toggle_idempotently(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (mentor, msid) = app.mentor("ann@example.com", "Ann", "astrology").await;
    app.service(&msid, "astrology", "40").await;
    let (_, sid) = app.signed_in("bo@example.com").await;
    let path = format!("/api/user/favorites/{mentor}");
    app.get("/api/user/favorites", None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    assert_eq!(
        body(
            app.get(&format!("/api/user/favorites/check/{mentor}"), Some(&sid))
                .await
        )
        .await,
        json!({"isFavorited": false})
    );
    for _ in 0..2 {
        let r = body(app.post(&path, json!({}), Some(&sid)).await).await;
        assert_eq!(r["isFavorited"], true);
    }
    let list = body(app.get("/api/user/favorites", Some(&sid)).await).await;
    assert_eq!(list.as_array().unwrap().len(), 1);
    assert_eq!(list[0]["services"].as_array().unwrap().len(), 1);
    assert_eq!(
        body(
            app.get(&format!("/api/user/favorites/check/{mentor}"), Some(&sid))
                .await
        )
        .await["isFavorited"],
        true
    );
    for _ in 0..2 {
        app.delete(&path, Some(&sid)).await.assert_status_is_ok();
    }
    assert_eq!(body(app.get("/api/user/favorites", Some(&sid)).await).await, json!([]));
    let missing = app
        .post(
            "/api/user/favorites/00000000-0000-4000-8000-000000000000",
            json!({}),
            Some(&sid),
        )
        .await;
    missing.assert_status(StatusCode::NOT_FOUND);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn profile_edits_and_a_new_email_needs_verifying(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = app.signed_in("ann@example.com").await;
    app.verified_user("taken@example.com", "password1").await;
    let resp = app
        .put(
            "/api/user/profile",
            json!({"firstName": " Annie ", "bio": "Stargazer."}),
            Some(&sid),
        )
        .await;
    resp.assert_status_is_ok();
    let me = body(resp).await;
    assert_eq!(
        (
            me["firstName"].as_str(),
            me["bio"].as_str(),
            me["emailVerified"].as_bool()
        ),
        (Some("Annie"), Some("Stargazer."), Some(true))
    );
    assert_eq!(
        body(app.get("/api/user/profile", Some(&sid)).await).await["bio"],
        "Stargazer."
    );
    app.put("/api/user/profile", json!({"firstName": ""}), Some(&sid))
        .await
        .assert_status(StatusCode::BAD_REQUEST);
    app.put("/api/user/profile", json!({"email": "TAKEN@example.com"}), Some(&sid))
        .await
        .assert_status(StatusCode::CONFLICT);

    let before = app.queued("emails").await.len();
    let me = body(
        app.put("/api/user/profile", json!({"email": "annie@example.com"}), Some(&sid))
            .await,
    )
    .await;
    assert_eq!(
        (me["email"].as_str(), me["emailVerified"].as_bool()),
        (Some("annie@example.com"), Some(false))
    );
    let queued = app.queued("emails").await;
    assert_eq!(queued.len(), before + 1);
    assert_eq!(queued.last().unwrap()["kind"], "verify_email");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn profile_images_are_checked_by_content(pool: sqlx::PgPool) {
    let dir = std::env::temp_dir().join(format!("uploads-{}", uuid::Uuid::new_v4()));
    let upload_dir = dir.clone();
    let app = support::app_with(pool, move |c| c.upload_dir = upload_dir).await;
    let (_, sid) = app.signed_in("ann@example.com").await;
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0\x1f\x15\xc4\x89".to_vec();
    let send = |bytes: Vec<u8>, name: &'static str| {
        app.cli
            .post("/api/user/profile-image")
            .header("cookie", format!("sid={sid}"))
            .multipart(TestForm::new().field(TestFormField::bytes(bytes).name("profileImage").filename(name)))
            .send()
    };
    let resp = send(png.clone(), "me.txt").await;
    resp.assert_status_is_ok();
    let url = body(resp).await["imageUrl"].as_str().unwrap().to_string();
    assert!(url.starts_with("/uploads/") && url.ends_with(".png"), "{url}");
    let served = app.get(&url, None).await;
    served.assert_status_is_ok();
    assert_eq!(
        body(app.get("/api/auth/user", Some(&sid)).await).await["profileImageUrl"],
        url.as_str()
    );

    let resp = send(b"just text".to_vec(), "fake.png").await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(resp).await["message"], "Only image files are allowed");
    let mut big = png.clone();
    big.resize(5 * 1024 * 1024 + 1, 0);
    let resp = send(big, "big.png").await;
    assert_eq!(body(resp).await["message"], "Image file must be smaller than 5MB");
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn public_profiles_hide_contact_details(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (ann_id, ann) = app.signed_in("ann@example.com").await;
    let (bo_id, bo) = app.signed_in("bo@example.com").await;
    sqlx::query("UPDATE users SET is_admin = true WHERE id = $1")
        .bind(bo_id)
        .execute(&app.pool)
        .await
        .unwrap();
    let (_, cy) = app.signed_in("cy@example.com").await;
    let seen_by_other = body(app.get(&format!("/api/users/{ann_id}"), Some(&cy)).await).await;
    assert_eq!(seen_by_other["email"], json!(null));
    assert_eq!(seen_by_other["role"], "user");
    assert_eq!(
        body(app.get(&format!("/api/users/{ann_id}"), Some(&ann)).await).await["email"],
        "ann@example.com"
    );
    assert_eq!(
        body(app.get(&format!("/api/users/{ann_id}"), Some(&bo)).await).await["email"],
        "ann@example.com"
    );
    app.get(&format!("/api/users/{ann_id}"), None)
        .await
        .assert_status(StatusCode::UNAUTHORIZED);
    app.get("/api/users/00000000-0000-4000-8000-000000000000", Some(&cy))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.get(&format!("/api/users/{ann_id}/mentor"), Some(&cy))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    let created = app
        .post("/api/mentors", mentor_profile("Ann", "astrology"), Some(&ann))
        .await;
    created.assert_status(StatusCode::CREATED);
    let mentor_id = body(created).await["id"].as_str().unwrap().to_string();
    // Awaiting review: only Ann sees it.
    app.get(&format!("/api/users/{ann_id}/mentor"), Some(&cy))
        .await
        .assert_status(StatusCode::NOT_FOUND);
    app.get(&format!("/api/users/{ann_id}/mentor"), Some(&ann))
        .await
        .assert_status_is_ok();
    app.approve_mentor(&mentor_id).await;
    let mentor = body(app.get(&format!("/api/users/{ann_id}/mentor"), Some(&cy)).await).await;
    assert_eq!(mentor["displayName"], "Ann");
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn contact_messages_are_stored_and_mailed_to_support(pool: sqlx::PgPool) {
    let app = support::app_with(pool, |c| c.limits.email_requests_per_address = 2).await;
    let resp = app
        .post(
            "/api/contact",
            json!({"name": "Ann", "email": "ann@example.com", "message": ""}),
            None,
        )
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(resp).await["message"], "Please fill in all required fields.");
    let resp = app
        .post(
            "/api/contact",
            json!({"name": "Ann", "email": "ann@example.com", "message": "Hi", "category": "gossip"}),
            None,
        )
        .await;
    assert_eq!(body(resp).await["message"], "Please choose a valid category");
    let ok = json!({"name": "Ann", "email": "ann@example.com", "subject": "Refund", "category": "billing", "message": "Where is my refund?"});
    app.post("/api/contact", ok.clone(), None)
        .await
        .assert_status(StatusCode::CREATED);
    let stored: (String, String) = sqlx::query_as("SELECT category, subject FROM contact_messages")
        .fetch_one(&app.pool)
        .await
        .unwrap();
    assert_eq!(stored, ("billing".to_string(), "Refund".to_string()));
    assert_eq!(app.queued("emails").await.last().unwrap()["kind"], "contact");
    app.post("/api/contact", ok.clone(), None)
        .await
        .assert_status(StatusCode::CREATED);
    app.post("/api/contact", ok, None)
        .await
        .assert_status(StatusCode::TOO_MANY_REQUESTS);
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn image_urls_are_our_own_uploads_and_replaced_ones_are_queued_for_deletion(pool: sqlx::PgPool) {
    let dir = std::env::temp_dir().join(format!("uploads-{}", uuid::Uuid::new_v4()));
    let upload_dir = dir.clone();
    let app = support::app_with(pool, move |c| c.upload_dir = upload_dir).await;
    let (_, sid) = app.signed_in("ann@example.com").await;
    for bad in [
        "/uploads/%2e%2e/api/logout",
        "/uploads/../api/logout",
        "/api/logout",
        "http://cdn.example/a.png",
        "https://cdn.example/a.png",
        "//evil.example/a.png",
    ] {
        let resp = app
            .put("/api/user/profile", json!({"profileImageUrl": bad}), Some(&sid))
            .await;
        resp.assert_status(StatusCode::BAD_REQUEST);
        assert_eq!(body(resp).await["message"], "Please enter a valid image URL", "{bad}");
    }
    let png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
    let upload = || async {
        let resp = app
            .cli
            .post("/api/user/profile-image")
            .header("cookie", format!("sid={sid}"))
            .multipart(
                TestForm::new().field(
                    TestFormField::bytes(png.clone())
                        .name("profileImage")
                        .filename("me.png"),
                ),
            )
            .send()
            .await;
        resp.assert_status_is_ok();
        body(resp).await["imageUrl"].as_str().unwrap().to_string()
    };
    let first = upload().await;
    assert!(app.queued("upload_cleanup").await.is_empty(), "nothing replaced yet");
    let second = upload().await;
    assert_eq!(app.queued("upload_cleanup").await, vec![json!({"url": first})]);

    // The profile may name its own upload again; clearing it queues that one.
    app.put("/api/user/profile", json!({"profileImageUrl": first}), Some(&sid))
        .await
        .assert_status_is_ok();
    app.put("/api/user/profile", json!({"profileImageUrl": ""}), Some(&sid))
        .await
        .assert_status_is_ok();
    let queued = app.queued("upload_cleanup").await;
    assert_eq!(queued[1..], [json!({"url": second}), json!({"url": first})]);

    // The mentor image too.
    app.post("/api/mentors", mentor_profile("Ann", "astrology"), Some(&sid))
        .await
        .assert_status(StatusCode::CREATED);
    app.put("/api/mentor/profile", json!({"profileImageUrl": second}), Some(&sid))
        .await
        .assert_status_is_ok();
    let resp = app
        .put(
            "/api/mentor/profile",
            json!({"profileImageUrl": "/uploads/%2e%2e/api/logout"}),
            Some(&sid),
        )
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    app.put("/api/mentor/profile", json!({"profileImageUrl": ""}), Some(&sid))
        .await
        .assert_status_is_ok();
    assert_eq!(
        app.queued("upload_cleanup").await.last().unwrap(),
        &json!({"url": second})
    );
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_seeded_avatar_sent_back_unchanged_is_kept(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = app.mentor("luna@example.com", "Luna", "astrology").await;
    let avatar = "/uploads/avatars/luna-moon.svg";
    sqlx::query("UPDATE mentors SET profile_image_url = $1")
        .bind(avatar)
        .execute(&app.pool)
        .await
        .unwrap();
    let resp = app
        .put(
            "/api/mentor/profile",
            json!({"profileImageUrl": avatar, "displayName": "Luna Moon"}),
            Some(&sid),
        )
        .await;
    resp.assert_status_is_ok();
    assert_eq!(body(resp).await["profileImageUrl"], avatar);
    assert!(app.queued("upload_cleanup").await.is_empty());
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn nul_bytes_and_giant_pages_are_plain_400s(pool: sqlx::PgPool) {
    let app = app(pool).await;
    let (_, sid) = app.signed_in("ann@example.com").await;
    let resp = app.get("/api/mentors?page=9223372036854775807", None).await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(body(resp).await["message"], "Page must be at most 10000");
    let resp = app.get("/api/mentors?search=tarot%00", None).await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(
        body(resp).await["message"],
        "Search contains characters that are not allowed"
    );
    let resp = app
        .put("/api/user/profile", json!({"bio": "Hello\u{0}"}), Some(&sid))
        .await;
    resp.assert_status(StatusCode::BAD_REQUEST);
    assert_eq!(
        body(resp).await["message"],
        "Bio contains characters that are not allowed"
    );
    let resp = app
        .put("/api/user/profile", json!({"bio": "Line one\nLine two"}), Some(&sid))
        .await;
    resp.assert_status_is_ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn site_info_serves_the_settings_addresses_and_the_fee(pool: sqlx::PgPool) {
    let app = support::app_with(pool, |c| {
        c.support_email = "help@desk.example".into();
        c.privacy_email = "dpo@legal.example".into();
    })
    .await;
    let r = app.get("/api/site-info", None).await;
    r.assert_status_is_ok();
    assert_eq!(
        body(r).await,
        json!({"supportEmail": "help@desk.example", "privacyEmail": "dpo@legal.example", "platformFeePercent": 15})
    );
}
