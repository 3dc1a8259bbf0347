//! Changes to what the public catalogue shows are announced on a PostgreSQL channel by triggers
//! (migration `catalogue_changes`) on mentors, services, reviews, availability and the users'
//! names, pictures and active flags; api processes listen to drop what they keep in memory.

/// The channel the triggers notify.
pub const CHANNEL: &str = "catalogue_changed";

#[cfg(test)]
mod tests {
    #[test]
    fn the_channel_is_the_one_the_migration_notifies() {
        let migration = include_str!("../../../migrations/20261125000001_catalogue_changes.sql");
        assert!(migration.contains(&format!("pg_notify('{}'", super::CHANNEL)));
    }
}
