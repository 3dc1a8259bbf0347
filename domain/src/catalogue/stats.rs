//! The service grid: per service type, how many mentors offer it and from what price.

use sqlx::PgPool;

use super::vocabulary::SERVICE_TYPES;
use crate::Result;

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ServiceStat {
    pub service_type: String,
    pub mentor_count: i64,
    /// The lowest price that is not free; 0 when there is none (the grid says 'Coming Soon').
    pub min_price_cents: i64,
}

pub async fn service_stats(db: &PgPool) -> Result<Vec<ServiceStat>> {
    let rows = sqlx::query_as(
        "SELECT t.service_type, \
                count(DISTINCT m.id) AS mentor_count, \
                coalesce(min(s.price_cents) FILTER (WHERE m.id IS NOT NULL AND s.price_cents > 0), 0)::bigint AS min_price_cents \
         FROM unnest($1::text[]) WITH ORDINALITY AS t(service_type, position) \
         LEFT JOIN services s ON s.service_type = t.service_type AND s.is_active \
         LEFT JOIN mentors m ON m.id = s.mentor_id AND m.is_active \
         GROUP BY t.service_type, t.position ORDER BY t.position",
    )
    .bind(SERVICE_TYPES.as_slice())
    .fetch_all(db)
    .await?;
    Ok(rows)
}
