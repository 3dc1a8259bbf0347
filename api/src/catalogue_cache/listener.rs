//! Hears every process's catalogue changes (`LISTEN catalogue_changed`) and forgets what each
//! can have altered in this process's cache. Without a connection nothing is cached until it is back.

use std::{sync::Arc, time::Duration};

use domain::catalogue::changes::CHANNEL;
use sqlx::{PgPool, postgres::PgListener};

use super::CatalogueCache;

/// Wait between attempts to listen again after the connection failed.
pub const RECONNECT_EVERY: Duration = Duration::from_secs(1);

async fn listen(pool: &PgPool) -> sqlx::Result<PgListener> {
    let mut listener = PgListener::connect_with(pool).await?;
    // A lost connection is reported at once (not after trying to connect again for the pool's
    // acquire timeout, 3 s in which the cache would go on serving what it may no longer know).
    listener.eager_reconnect(false);
    listener.listen(CHANNEL).await?;
    Ok(listener)
}

/// Starts listening, then caching; keeps at it while the process runs.
pub async fn start(pool: PgPool, cache: Arc<CatalogueCache>) -> anyhow::Result<()> {
    let listener = listen(&pool).await?;
    cache.set_listening(true);
    tokio::spawn(super::listed::keep(pool.clone(), cache.clone()));
    tokio::spawn(run(pool, cache, listener));
    Ok(())
}

async fn run(pool: PgPool, cache: Arc<CatalogueCache>, mut listener: PgListener) {
    loop {
        match listener.try_recv().await {
            Ok(Some(notification)) => {
                cache.heard(notification.payload());
                continue;
            }
            Ok(None) => {
                tracing::warn!("catalogue change listener lost its connection; not caching until it listens again")
            }
            Err(err) => {
                tracing::warn!(error = %err, "catalogue change listener failed; not caching until it listens again")
            }
        }
        // What changes while nobody listens goes unheard.
        cache.set_listening(false);
        listener = loop {
            match listen(&pool).await {
                Ok(l) => break l,
                Err(err) => tracing::warn!(error = %err, "cannot listen for catalogue changes yet"),
            }
            tokio::time::sleep(RECONNECT_EVERY).await;
        };
        cache.set_listening(true);
    }
}
