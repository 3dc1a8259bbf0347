use std::sync::Arc;

use domain::Config;
use sqlx::PgPool;

/// Shared by every request handler.
#[derive(Clone)]
pub struct AppState {
    pub pool: PgPool,
    pub config: Arc<Config>,
}
