//! The admin console: platform figures, users and their active flag, mentors with their
//! earnings, and every booking with filters and pages. Payouts live in their own module.
//! Callers check the admin role first (the api's `auth.admin()?`).

pub mod bookings;
pub mod jobs;
pub mod mentors;
pub mod stats;
pub mod users;

use crate::money::{PaymentStatus, RefundStatus};

/// Revenue: what seekers paid (approved payments) less what went back to them (refunds the
/// gateway has paid). Used for the platform figure and per mentor, so both always agree.
const REVENUE_CENTS: &str = "(coalesce((SELECT sum(p.amount_cents) FROM payments p WHERE p.status = '{APPROVED}' AND p.booking_id IN (SELECT id FROM bookings WHERE {SCOPE})), 0) \
     - coalesce((SELECT sum(r.amount_cents) FROM refunds r WHERE r.status = '{SUCCEEDED}' AND r.booking_id IN (SELECT id FROM bookings WHERE {SCOPE})), 0))::bigint";

/// [`REVENUE_CENTS`] over the bookings matching `scope` (SQL over the `bookings` table).
pub(crate) fn revenue_sql(scope: &str) -> String {
    REVENUE_CENTS
        .replace("{SCOPE}", scope)
        .replace("{APPROVED}", PaymentStatus::Approved.as_str())
        .replace("{SUCCEEDED}", RefundStatus::Succeeded.as_str())
}
