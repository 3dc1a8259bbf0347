//! Changes to what the public catalogue shows are announced on a PostgreSQL channel by triggers
//! (migration `catalogue_changes`) on mentors, services, reviews, availability and the users'
//! names, pictures and active flags; api processes listen to drop what they keep in memory.

/// The channel the triggers notify.
pub const CHANNEL: &str = "catalogue_changed";

/// Announces `payload` on [`CHANNEL`] itself (the api's cache barriers), when the statement runs.
pub async fn announce(db: impl sqlx::PgExecutor<'_>, payload: &str) -> sqlx::Result<()> {
    sqlx::query!("SELECT pg_notify($1, $2)", CHANNEL, payload)
        .execute(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_channel_is_the_one_the_migration_notifies() {
        let migration = include_str!("../../../migrations/20261125000001_catalogue_changes.sql");
        assert!(migration.contains(&format!("pg_notify('{}'", super::CHANNEL)));
    }
}
