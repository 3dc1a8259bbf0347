//! Demo group sessions: each demo mentor's group service gets two sessions ahead (idempotent: a
//! mentor with a session still ahead gets none). A time the mentor is busy at is skipped.

use chrono::{DateTime, Duration, DurationRound, Utc};
use sqlx::PgPool;
use uuid::Uuid;

const TITLES: [&str; 2] = ["New Moon Circle", "Full Moon Gathering"];

pub async fn ensure_group_sessions(pool: &PgPool, mentor_id: Uuid, i: usize, now: DateTime<Utc>) -> anyhow::Result<()> {
    let ahead: bool = sqlx::query_scalar("SELECT EXISTS (SELECT 1 FROM group_sessions WHERE mentor_id = $1 AND status = 'scheduled' AND scheduled_at > $2)")
        .bind(mentor_id)
        .bind(now)
        .fetch_one(pool)
        .await?;
    if ahead {
        return Ok(());
    }
    let service: Option<(Uuid, i32, Option<i32>, String)> = sqlx::query_as(
        "SELECT id, duration_minutes, max_participants, description FROM services WHERE mentor_id = $1 AND is_group_session AND is_active \
         ORDER BY created_at LIMIT 1",
    )
    .bind(mentor_id)
    .fetch_optional(pool)
    .await?;
    let Some((service_id, duration, max, description)) = service else {
        return Ok(());
    };
    let day = now.duration_trunc(Duration::days(1))?;
    for (n, title) in TITLES.iter().enumerate() {
        let at = day + Duration::days(2 + (i % 5) as i64 + 7 * n as i64) + Duration::hours(17 + (i % 3) as i64);
        let inserted = sqlx::query(
            "INSERT INTO group_sessions (mentor_id, service_id, title, description, scheduled_at, ends_at, max_participants) \
             VALUES ($1, $2, $3, $4, $5, $5 + make_interval(mins => $6), $7)",
        )
        .bind(mentor_id)
        .bind(service_id)
        .bind(title)
        .bind(&description)
        .bind(at)
        .bind(duration)
        .bind(max.unwrap_or(domain::group_sessions::DEFAULT_PARTICIPANTS).clamp(2, 20))
        .execute(pool)
        .await;
        if let Err(sqlx::Error::Database(db)) = &inserted
            && db.constraint() == Some("mentor_busy_no_overlap")
        {
            continue;
        }
        inserted?;
    }
    Ok(())
}
