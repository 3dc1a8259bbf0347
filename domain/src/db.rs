//! The connection pool and the schema migrations in `migrations/`.

use std::time::Duration;

use sqlx::{
    PgPool,
    postgres::{PgConnectOptions, PgPoolOptions},
};

/// How long a request waits for a database connection before it gives up with 503: short, so an
/// outage answers quickly instead of holding every request open.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(3);

pub static MIGRATOR: sqlx::migrate::Migrator = sqlx::migrate!("../migrations");

/// The connection settings of `url` (named `setting` in errors) with the ones every connection needs.
fn connect_options(url: &str, setting: &str) -> anyhow::Result<PgConnectOptions> {
    let options: PgConnectOptions = url
        .parse()
        .map_err(|e| anyhow::anyhow!("{setting} is not a PostgreSQL URL: {e}"))?;
    // Searches match misspelt words with pg_trgm's `%` at this similarity on every connection,
    // without a round trip to set it (catalogue::search).
    Ok(options.options([(
        "pg_trgm.similarity_threshold",
        crate::catalogue::search::TYPO_SIMILARITY,
    )]))
}

/// A pool that connects when first used, so a server that is down at start-up (a replica,
/// `DATABASE_READ_URL`) does not stop the process; it gives up on a connection after `acquire_timeout`.
pub fn connect_later(
    url: &str,
    setting: &str,
    max_connections: u32,
    acquire_timeout: Duration,
) -> anyhow::Result<PgPool> {
    Ok(PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(acquire_timeout)
        .connect_lazy_with(connect_options(url, setting)?))
}

pub async fn connect(database_url: &str, max_connections: u32) -> anyhow::Result<PgPool> {
    let options = connect_options(database_url, "DATABASE_URL")?;
    let pool = PgPoolOptions::new()
        .max_connections(max_connections)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .connect_with(options)
        .await
        .map_err(|e| anyhow::anyhow!("cannot connect to the database at DATABASE_URL: {e}"))?;
    Ok(pool)
}

pub async fn migrate(pool: &PgPool) -> anyhow::Result<()> {
    MIGRATOR.run(pool).await?;
    Ok(())
}
