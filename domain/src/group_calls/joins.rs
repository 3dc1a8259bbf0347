//! Who was in a group session's call and when: each join of a member is a row (time in), closed when
//! they leave or their socket closes (time out; none when their api process died). So "the mentor never
//! joined while the session was live" is a fact the state job can read.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgConnection, PgExecutor};
use uuid::Uuid;

use crate::Result;

/// One stay in the call.
#[derive(Clone, Debug, FromRow, PartialEq, Eq)]
pub struct Join {
    pub user_id: Uuid,
    pub joined_at: DateTime<Utc>,
    pub left_at: Option<DateTime<Utc>>,
}

/// `user` took their seat in the call of `session`.
pub async fn joined(db: impl PgExecutor<'_>, session: Uuid, user: Uuid) -> Result<()> {
    sqlx::query!(
        "INSERT INTO group_call_joins (group_session_id, user_id) VALUES ($1, $2)",
        session,
        user
    )
    .execute(db)
    .await?;
    Ok(())
}

/// `user` left the call of `session` (every stay of theirs still open ends now).
pub async fn left(db: impl PgExecutor<'_>, session: Uuid, user: Uuid) -> Result<()> {
    sqlx::query!(
        "UPDATE group_call_joins SET left_at = clock_timestamp() WHERE group_session_id = $1 AND user_id = $2 AND left_at IS NULL",
        session,
        user
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Whether `user` was in the call at some moment from `from` to `to`.
pub async fn was_in_call(
    conn: &mut PgConnection,
    session: Uuid,
    user: Uuid,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM group_call_joins WHERE group_session_id = $1 AND user_id = $2
                          AND joined_at <= $4 AND (left_at IS NULL OR left_at >= $3)) AS "was!""#,
        session,
        user,
        from,
        to,
    )
    .fetch_one(&mut *conn)
    .await?)
}

/// Every stay in the call of `session`, oldest first.
pub async fn of_session(db: impl PgExecutor<'_>, session: Uuid) -> Result<Vec<Join>> {
    Ok(sqlx::query_as!(
        Join,
        "SELECT user_id, joined_at, left_at FROM group_call_joins WHERE group_session_id = $1 ORDER BY joined_at",
        session
    )
    .fetch_all(db)
    .await?)
}
