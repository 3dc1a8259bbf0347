//! Demo group sessions: each demo mentor's group service gets two weekly sessions ahead (idempotent:
//! a mentor with a session still ahead gets none), titled and described by that service and its
//! mentor, so no two mentors' sessions share a title. A time the mentor is busy at is skipped.

use chrono::{DateTime, Duration, DurationRound, Utc};
use sqlx::PgPool;
use uuid::Uuid;

/// The title of a service's sessions: the service with the mentor's name (services of one type
/// share titles across mentors). The weekly sessions of one service share it, as a class's do; the
/// cards tell them apart by their dates.
fn title(service_title: &str, mentor_name: &str) -> String {
    format!("{service_title} with {mentor_name}")
}

/// Titles an earlier seed gave the second session ('…: the following week'), read as sentences.
const OLD_SECOND_TITLE: &str = ": the following week";

/// Gives the sessions an earlier seed titled '… with Luna: the following week' their title.
pub(super) async fn fix_old_titles(pool: &PgPool) -> anyhow::Result<u64> {
    Ok(sqlx::query(
        "UPDATE group_sessions SET title = left(title, length(title) - length($1)), updated_at = now() \
         WHERE right(title, length($1)) = $1",
    )
    .bind(OLD_SECOND_TITLE)
    .execute(pool)
    .await?
    .rows_affected())
}

pub(super) async fn ensure_group_sessions(
    pool: &PgPool,
    mentor_id: Uuid,
    i: usize,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
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
    let title = title(&service_title, &mentor_name);
    for n in 0..2 {
        let at = day + Duration::days(2 + (i % 5) as i64 + 7 * n as i64) + Duration::hours(17 + (i % 3) as i64);
        let inserted = sqlx::query(
            "INSERT INTO group_sessions (mentor_id, service_id, title, description, scheduled_at, ends_at, max_participants) \
             VALUES ($1, $2, $3, $4, $5, $5 + make_interval(mins => $6), $7)",
        )
        .bind(mentor_id)
        .bind(service_id)
        .bind(&title)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_session_is_titled_by_its_service_and_mentor() {
        assert_eq!(
            title("Sunday Group Meditation", "Luna Starling"),
            "Sunday Group Meditation with Luna Starling"
        );
        assert!(!title("Circle", "Luna").contains(OLD_SECOND_TITLE));
    }
}
