//! `tools seed`: the demo catalogue is bookable and its figures follow from its rows.

mod support;

use chrono::{Duration, Utc};
use uuid::Uuid;

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn every_demo_mentor_can_be_booked_and_their_figures_follow_from_the_data(pool: sqlx::PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let uploads = std::env::temp_dir().join(format!("seed-test-{}", Uuid::new_v4()));
    tools::seed::run(&pool, &uploads, 0).await.unwrap();
    tools::seed::run(&pool, &uploads, 0).await.unwrap();

    let mentors: Vec<(Uuid, i32, i32)> =
        sqlx::query_as("SELECT id, total_sessions, review_count FROM mentors ORDER BY created_at")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(mentors.len(), 26);
    let now = Utc::now();
    for (mentor_id, total_sessions, review_count) in mentors {
        let mut offered = 0;
        for day in 1..=7 {
            let date = (now + Duration::days(day)).format("%Y-%m-%d").to_string();
            offered += domain::booking::open_slots::slots_on(
                &pool,
                mentor_id,
                &date,
                Some(60),
                domain::booking::open_slots::Viewer {
                    zone: Some("UTC"),
                    ..Default::default()
                },
                now,
            )
            .await
            .unwrap()
            .len();
        }
        assert!(offered > 0, "mentor {mentor_id} offers no time in the coming week");

        let stats = domain::booking::dashboards::mentor_stats(&pool, mentor_id, now)
            .await
            .unwrap();
        let completed: i64 =
            sqlx::query_scalar("SELECT count(*) FROM bookings WHERE mentor_id = $1 AND status = 'completed'")
                .bind(mentor_id)
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(
            total_sessions as i64, completed,
            "the profile's session count is the completed bookings"
        );
        assert!(stats.total_sessions >= completed);
        assert_eq!(
            review_count as i64, completed,
            "each seeded review belongs to one completed session"
        );
    }
    // Every demo mentor leads group sessions ahead (seeding twice adds none).
    let sessions: Vec<(Uuid, i64)> =
        sqlx::query_as("SELECT mentor_id, count(*) FROM group_sessions WHERE status = 'scheduled' GROUP BY mentor_id")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(sessions.len(), 26, "{sessions:?}");
    assert!(sessions.iter().all(|(_, n)| (1..=2).contains(n)), "{sessions:?}");
    // Each is titled and described by its own service, so no two mentors' sessions share a title.
    let (mismatched, shared): (i64, i64) = sqlx::query_as(
        "SELECT (SELECT count(*) FROM group_sessions g JOIN services s ON s.id = g.service_id \
                 WHERE NOT starts_with(g.title, s.title) OR g.description IS DISTINCT FROM s.description), \
                (SELECT count(*) FROM (SELECT title FROM group_sessions GROUP BY title \
                                       HAVING count(DISTINCT mentor_id) > 1) t)",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!((mismatched, shared), (0, 0));
    // Issue 30: every title reads '<service> with <mentor>', nothing after the name.
    let odd: Vec<String> = sqlx::query_scalar(
        "SELECT g.title FROM group_sessions g JOIN services s ON s.id = g.service_id JOIN mentors m ON m.id = g.mentor_id \
         WHERE g.title <> s.title || ' with ' || m.display_name",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert!(odd.is_empty(), "{odd:?}");
    // A database an earlier seed titled '…: the following week' is put right by the next seed.
    sqlx::query("UPDATE group_sessions SET title = title || ': the following week' WHERE id = (SELECT min(id::text)::uuid FROM group_sessions)")
        .execute(&pool)
        .await
        .unwrap();
    tools::seed::run(&pool, &uploads, 0).await.unwrap();
    let old: i64 = sqlx::query_scalar("SELECT count(*) FROM group_sessions WHERE title LIKE '%: the following week'")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(old, 0);
    let unpaid: i64 = sqlx::query_scalar(
        "SELECT count(*) FROM bookings b WHERE b.total_cents > 0 AND NOT EXISTS \
         (SELECT 1 FROM payments p WHERE p.booking_id = b.id AND p.status = 'approved')",
    )
    .fetch_one(&pool)
    .await
    .unwrap();
    assert_eq!(unpaid, 0, "every paid seeded booking has its payment");
    let upcoming: i64 =
        sqlx::query_scalar("SELECT count(*) FROM bookings WHERE status = 'confirmed' AND scheduled_at > now()")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(upcoming > 0);

    // Date overrides: three days off next week and one mentor's extra Sunday hours; a day off offers nothing.
    let overrides: Vec<(Uuid, chrono::NaiveDate, bool, String)> = sqlx::query_as(
        "SELECT o.mentor_id, o.date, o.is_day_off, m.time_zone FROM availability_overrides o JOIN mentors m ON m.id = o.mentor_id ORDER BY o.is_day_off",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(overrides.iter().filter(|o| o.2).count(), 3, "{overrides:?}");
    assert_eq!(overrides.iter().filter(|o| !o.2).count(), 1, "{overrides:?}");
    for (mentor_id, date, day_off, zone) in overrides {
        let slots = domain::booking::open_slots::slots_on(
            &pool,
            mentor_id,
            &date.to_string(),
            Some(30),
            domain::booking::open_slots::Viewer {
                zone: Some(&zone),
                ..Default::default()
            },
            now,
        )
        .await
        .unwrap();
        assert_eq!(slots.is_empty(), day_off, "{date}: {slots:?}");
    }

    // Payouts: preferences for most demo mentors, one payout sent and one pending (seeded once),
    // and more completed paid sessions waiting for the next batch.
    let with_preferences: i64 = sqlx::query_scalar("SELECT count(*) FROM payout_preferences")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert!((15..26).contains(&with_preferences), "{with_preferences}");
    let payouts: Vec<(String, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT po.status, po.pending_amount_cents, po.platform_fee_cents, po.mentor_net_cents, \
                (SELECT sum(pb.amount_cents) FROM payout_bookings pb WHERE pb.payout_id = po.id)::bigint \
         FROM payouts po ORDER BY po.created_at",
    )
    .fetch_all(&pool)
    .await
    .unwrap();
    assert_eq!(
        payouts.iter().map(|p| p.0.as_str()).collect::<Vec<_>>(),
        ["paid", "pending"]
    );
    for (_, amount, fee, net, held) in &payouts {
        assert!(*net >= domain::payouts::DEFAULT_MINIMUM_PAYOUT_CENTS / 2);
        assert_eq!((amount - fee, *amount), (*net, *held));
    }
    let history = domain::payouts::admin::history(&pool).await.unwrap();
    assert_eq!(history.len(), 1);
    assert!(history[0].paid_at.unwrap() < now - Duration::days(6));
    let next = domain::payouts::batch::run(&pool).await.unwrap();
    assert!(next.payouts > 5, "the next batch has demo mentors to pay: {next:?}");
    std::fs::remove_dir_all(uploads).ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_landing_figures_are_computed_from_the_catalogue(pool: sqlx::PgPool) {
    let app = support::app(pool.clone()).await;
    let empty = support::body(app.get("/api/highlights", None).await).await;
    assert_eq!(empty["mentorCount"], 0);
    assert_eq!(
        empty["averageRating"],
        serde_json::Value::Null,
        "no reviews: no rating is shown"
    );
    assert_eq!(empty["averageHourlyRate"], serde_json::Value::Null);
    assert_eq!(empty["testimonials"], serde_json::json!([]));

    let uploads = std::env::temp_dir().join(format!("seed-test-{}", Uuid::new_v4()));
    tools::seed::run(&pool, &uploads, 0).await.unwrap();
    let h = support::body(app.get("/api/highlights", None).await).await;
    let listed: i64 =
        sqlx::query_scalar("SELECT count(*) FROM mentors WHERE is_active AND from_price_cents IS NOT NULL")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_eq!(h["mentorCount"], listed);
    let rating: String = sqlx::query_scalar("SELECT round(avg(rating), 2)::text FROM reviews")
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(h["averageRating"], rating.as_str());
    let testimonials = h["testimonials"].as_array().unwrap();
    assert_eq!(testimonials.len(), 3);
    assert!(
        testimonials
            .iter()
            .all(|t| t["rating"].as_i64().unwrap() >= 4 && !t["comment"].as_str().unwrap().is_empty())
    );
    std::fs::remove_dir_all(uploads).ok();
}
