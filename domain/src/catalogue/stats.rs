//! The service grid: per service type, how many mentors offer it and from what price.

use sqlx::PgPool;

use super::vocabulary::ServiceType;
use crate::{Result, statuses::BookingStatus};

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct ServiceStat {
    pub service_type: ServiceType,
    pub mentor_count: i64,
    /// The lowest price that is not free; 0 when there is none (the grid says 'Coming Soon').
    pub min_price_cents: i64,
}

pub async fn service_stats(db: &PgPool) -> Result<Vec<ServiceStat>> {
    let rows = sqlx::query_as!(
        ServiceStat,
        "SELECT t.service_type AS \"service_type!: ServiceType\", \
                count(DISTINCT m.id) AS \"mentor_count!\", \
                coalesce(min(s.price_cents) FILTER (WHERE m.id IS NOT NULL AND s.price_cents > 0), 0)::bigint AS \"min_price_cents!\" \
         FROM unnest($1::text[]) WITH ORDINALITY AS t(service_type, position) \
         LEFT JOIN services s ON s.service_type = t.service_type AND s.is_active \
         LEFT JOIN mentors m ON m.id = s.mentor_id AND m.is_active AND m.approval_status = 'approved' AND EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND mu.is_active) \
         GROUP BY t.service_type, t.position ORDER BY t.position",
        ServiceType::ALL as &[ServiceType],
    )
    .fetch_all(db)
    .await?;
    Ok(rows)
}

/// The landing page's figures and testimonials, all computed from the catalogue.
#[derive(Clone, Debug)]
pub struct Highlights {
    /// Active mentors with something to book.
    pub mentor_count: i64,
    /// The average hourly rate of paid one-to-one services, in cents; `None` when there are none.
    pub average_hourly_cents: Option<i64>,
    /// The average of every review, two decimals; `None` before the first review.
    pub average_rating: Option<String>,
    pub review_count: i64,
    pub completed_sessions: i64,
    pub testimonials: Vec<Testimonial>,
}

#[derive(Clone, Debug, sqlx::FromRow)]
pub struct Testimonial {
    pub id: uuid::Uuid,
    pub rating: i16,
    pub comment: String,
    pub reviewer_first_name: String,
    pub reviewer_last_name: String,
    pub mentor_id: uuid::Uuid,
    pub mentor_name: String,
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// Testimonials are the newest reviews with at least this many stars and a comment.
pub const TESTIMONIAL_MIN_RATING: i16 = 4;
pub const TESTIMONIAL_COUNT: i64 = 3;

pub async fn highlights(db: &PgPool) -> Result<Highlights> {
    let row =
        sqlx::query!(
            r#"SELECT (SELECT count(*) FROM mentors m WHERE m.is_active AND m.approval_status = 'approved' AND EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND mu.is_active) AND m.from_price_cents IS NOT NULL) AS "mentor_count!",
                    (SELECT round(avg(s.price_cents * 60.0 / s.duration_minutes))::bigint FROM services s
                       JOIN mentors m ON m.id = s.mentor_id AND m.is_active AND m.approval_status = 'approved' AND EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND mu.is_active)
                      WHERE s.is_active AND s.price_cents > 0 AND NOT s.is_group_session) AS average_hourly_cents,
                    (SELECT round(avg(r.rating), 2)::text FROM reviews r JOIN mentors m ON m.id = r.mentor_id AND m.is_active AND m.approval_status = 'approved' AND EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND mu.is_active) WHERE r.hidden_at IS NULL) AS average_rating,
                    (SELECT count(*) FROM reviews r JOIN mentors m ON m.id = r.mentor_id AND m.is_active AND m.approval_status = 'approved' AND EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND mu.is_active) WHERE r.hidden_at IS NULL) AS "review_count!",
                    (SELECT count(*) FROM bookings WHERE status = $1) AS "completed_sessions!""#,
            BookingStatus::Completed as BookingStatus,
        )
        .fetch_one(db)
        .await?;
    let (mentor_count, average_hourly_cents, average_rating, review_count, completed_sessions) = (
        row.mentor_count,
        row.average_hourly_cents,
        row.average_rating,
        row.review_count,
        row.completed_sessions,
    );
    let testimonials = sqlx::query_as!(
        Testimonial,
        "SELECT r.id, r.rating, r.comment AS \"comment!\", u.first_name AS reviewer_first_name, u.last_name AS reviewer_last_name, \
                m.id AS mentor_id, m.display_name AS mentor_name, r.created_at \
         FROM reviews r JOIN users u ON u.id = r.user_id JOIN mentors m ON m.id = r.mentor_id AND m.is_active AND m.approval_status = 'approved' AND EXISTS (SELECT 1 FROM users mu WHERE mu.id = m.user_id AND mu.is_active) \
         WHERE r.rating >= $1 AND r.hidden_at IS NULL AND btrim(coalesce(r.comment, '')) <> '' \
         ORDER BY r.created_at DESC, r.id LIMIT $2",
        TESTIMONIAL_MIN_RATING,
        TESTIMONIAL_COUNT,
    )
    .fetch_all(db)
    .await?;
    Ok(Highlights {
        mentor_count,
        average_hourly_cents,
        average_rating,
        review_count,
        completed_sessions,
        testimonials,
    })
}
