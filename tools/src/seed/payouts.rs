//! Demo payouts: payout preferences for most demo mentors, one payout already sent (the first
//! demo mentor's, last week) and one pending (the second's), so /admin/payouts shows real
//! numbers. The other mentors' completed sessions wait for the next batch ("Run payout batch now").
//! Idempotent: nothing is added once any payout exists.

use chrono::Utc;
use sqlx::PgPool;
use uuid::Uuid;

use domain::payouts::{admin, batch, preferences};

/// Every fifth demo mentor has no payout preferences (the admin page's warning).
const WITHOUT_PREFERENCES_EVERY: usize = 5;

pub(super) async fn ensure(pool: &PgPool, admin_id: Uuid) -> anyhow::Result<()> {
    let mentors: Vec<(Uuid, String, String)> = sqlx::query_as(
        "SELECT m.id, u.email, m.display_name FROM mentors m JOIN users u ON u.id = m.user_id \
         WHERE u.email LIKE '%@mystic-mentors.test' AND u.email NOT LIKE 'generated.%' ORDER BY m.created_at, m.id",
    )
    .fetch_all(pool)
    .await?;
    for (i, (mentor_id, email, name)) in mentors.iter().enumerate() {
        if i % WITHOUT_PREFERENCES_EVERY == WITHOUT_PREFERENCES_EVERY - 1
            || preferences::find(pool, *mentor_id).await?.is_some()
        {
            continue;
        }
        let handle = format!(
            "@{}",
            name.to_lowercase().split_whitespace().collect::<Vec<_>>().join("-")
        );
        let method = ["paypal", "venmo", "zelle"][i % 3];
        let input = preferences::Input {
            method: method.parse().ok(),
            paypal_email: (method == "paypal").then(|| email.clone()),
            venmo_username: (method == "venmo").then_some(handle),
            zelle_email: (method == "zelle").then(|| email.clone()),
            minimum_payout: Some(["50.00", "25.00", "100.00"][i % 3].into()),
            notes: None,
        };
        preferences::save(pool, *mentor_id, &input).await?;
    }

    let any: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM payouts)")
        .fetch_one(pool)
        .await?;
    if any || mentors.len() < 2 {
        return Ok(());
    }
    // The first demo mentor: paid last week.
    if let batch::MentorOutcome::Created { payout_id, .. } = batch::for_mentor(pool, mentors[0].0).await? {
        let (method, recipient) = {
            let p = preferences::get(pool, mentors[0].0).await?;
            (
                p.method.and_then(|m| m.as_str().parse().ok()),
                p.recipient().map(str::to_string),
            )
        };
        let booking_ids: Vec<Uuid> = sqlx::query_scalar("SELECT booking_id FROM payout_bookings WHERE payout_id = $1")
            .bind(payout_id)
            .fetch_all(pool)
            .await?;
        let req = admin::MarkPaid {
            mentor_id: mentors[0].0,
            booking_ids,
            reading_ids: Vec::new(),
            method,
            recipient_info: recipient,
            notes: Some("Demo payout".into()),
        };
        admin::mark_paid(pool, admin_id, &req, Utc::now()).await?;
        sqlx::query("UPDATE payouts SET created_at = now() - interval '8 days', paid_at = now() - interval '7 days' WHERE id = $1")
            .bind(payout_id)
            .execute(pool)
            .await?;
    }
    // The second: this week's payout, waiting to be sent.
    batch::for_mentor(pool, mentors[1].0).await?;
    Ok(())
}
