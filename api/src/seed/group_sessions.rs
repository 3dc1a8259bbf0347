//! Demo group sessions: each demo mentor's group service gets two sessions ahead (idempotent: a
//! mentor with a session still ahead gets none), titled and described by that service, so no two
//! mentors' sessions share a title. A time the mentor is busy at is skipped.

use chrono::{DateTime, Duration, DurationRound, Utc};
use sqlx::PgPool;
use uuid::Uuid;

/// The two sessions of a service: its title with the mentor's name (services of one type share
/// titles across mentors), then the same a week later.
fn titles(service_title: &str, mentor_name: &str) -> [String; 2] {
    let first = format!("{service_title} with {mentor_name}");
    let second = format!("{first}: the following week");
    [first, second]
}

pub async fn ensure_group_sessions(pool: &PgPool, mentor_id: Uuid, i: usize, now: DateTime<Utc>) -> anyhow::Result<()> {
    let ahead: bool = sqlx::query_scalar(
        "SELECT EXISTS (SELECT 1 FROM group_sessions WHERE mentor_id = $1 AND status = $3 AND scheduled_at > $2)",
    )
    .bind(mentor_id)
    .bind(now)
    .bind(domain::group_sessions::GroupStatus::Scheduled)
    .fetch_one(pool)
    .await?;
    if ahead {
        return Ok(());
    }
    let service: Option<(Uuid, String, String, i32, Option<i32>, String)> = sqlx::query_as(
        "SELECT s.id, s.title, m.display_name, s.duration_minutes, s.max_participants, s.description \
         FROM services s JOIN mentors m ON m.id = s.mentor_id WHERE s.mentor_id = $1 AND s.is_group_session AND s.is_active \
         ORDER BY s.created_at LIMIT 1",
    )
    .bind(mentor_id)
    .fetch_optional(pool)
    .await?;
    let Some((service_id, service_title, mentor_name, duration, max, description)) = service else {
        return Ok(());
    };
    let day = now.duration_trunc(Duration::days(1))?;
    for (n, title) in titles(&service_title, &mentor_name).iter().enumerate() {
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
