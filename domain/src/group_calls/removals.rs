//! What a removal from a group session's call means beyond the call: the removed participant is
//! told (a notification), and their seat shows as removed wherever their sessions are listed.

use std::collections::HashSet;

use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::{
    Result,
    notifications::{self, Kind},
};

pub const REMOVED_TITLE: &str = "Removed from session";

/// The notification's text: the session's title, and who removed them.
pub fn removed_message(session_title: &str) -> String {
    format!("The mentor removed you from the group session \"{session_title}\".")
}

/// Where the notification leads: the session's call page, which says they were removed.
pub fn removed_link(group_session_id: Uuid) -> String {
    format!("/group-video-call/{group_session_id}")
}

/// Tells `user` that the mentor removed them from `group_session_id`, once the caller's
/// transaction (the one that records the removal) commits. Nothing when the session is unknown.
pub async fn notify_removed(conn: &mut PgConnection, group_session_id: Uuid, user: Uuid) -> Result<()> {
    let title: Option<String> = sqlx::query_scalar("SELECT title FROM group_sessions WHERE id = $1")
        .bind(group_session_id)
        .fetch_optional(&mut *conn)
        .await?;
    let Some(title) = title else { return Ok(()) };
    notifications::notify(
        conn,
        user,
        Kind::RemovedFromSession,
        REMOVED_TITLE,
        &removed_message(&title),
        Some(&removed_link(group_session_id)),
    )
    .await
}

/// Which of `session_ids` the mentor removed `user` from.
pub async fn removed_from(db: impl PgExecutor<'_>, user: Uuid, session_ids: &[Uuid]) -> Result<HashSet<Uuid>> {
    let ids: Vec<Uuid> = sqlx::query_scalar(
        "SELECT group_session_id FROM group_call_removals WHERE user_id = $1 AND group_session_id = ANY($2)",
    )
    .bind(user)
    .bind(session_ids)
    .fetch_all(db)
    .await?;
    Ok(ids.into_iter().collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notice_names_the_session_and_leads_to_its_call_page() {
        assert_eq!(
            removed_message("Full moon circle"),
            "The mentor removed you from the group session \"Full moon circle\"."
        );
        let id = Uuid::nil();
        assert_eq!(removed_link(id), format!("/group-video-call/{id}"));
    }
}
