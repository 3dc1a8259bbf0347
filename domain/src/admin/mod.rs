//! The admin console: platform figures, users and their active flag, mentors with their
//! earnings, and every booking with filters and pages. Payouts live in their own module.
//! Callers check the admin role first (the api's `auth.admin()?`).

/// The admin's statements checked at compile time: in `[...]`, the SQL as literals joined by `+`,
/// where `REVENUE("scope")` stands for the revenue over the bookings matching `scope` (SQL over the
/// `bookings` table): what seekers paid (approved payments) less what went back to them (refunds
/// the gateway has paid). Used for the platform figure and per mentor, so both always agree.
/// `MADE` stands for the made bookings' statuses as an SQL list ([`BookingStatus::MADE`]).
///
/// [`BookingStatus::MADE`]: crate::booking::BookingStatus::MADE
macro_rules! admin_sql {
    (@go $out:tt [$($done:tt)*] [REVENUE($scope:literal) $($rest:tt)*] $args:tt) => {
        admin_sql!(@go $out [$($done)*
            "(coalesce((SELECT sum(p.amount_cents) FROM payments p WHERE p.status = 'approved' AND p.booking_id IN (SELECT id FROM bookings WHERE "
            + $scope
            + ")), 0) - coalesce((SELECT sum(r.amount_cents) FROM refunds r WHERE r.status = 'succeeded' AND r.booking_id IN (SELECT id FROM bookings WHERE "
            + $scope
            + ")), 0))::bigint"] [$($rest)*] $args)
    };
    (@go $out:tt [$($done:tt)*] [MADE $($rest:tt)*] $args:tt) => {
        admin_sql!(@go $out [$($done)* "'pending', 'confirmed', 'completed', 'cancelled'"] [$($rest)*] $args)
    };
    (@go $out:tt [$($done:tt)*] [$t:tt $($rest:tt)*] $args:tt) => {
        admin_sql!(@go $out [$($done)* $t] [$($rest)*] $args)
    };
    (@go query [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query!($($done)* $($args)*) };
    (@go scalar [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query_scalar!($($done)* $($args)*) };
    (@go (as $ty:path) [$($done:tt)*] [] [$($args:tt)*]) => { sqlx::query_as!($ty, $($done)* $($args)*) };
    ($out:tt [$($sql:tt)*] $($args:tt)*) => { admin_sql!(@go $out [] [$($sql)*] [$($args)*]) };
}

pub mod bookings;
pub mod jobs;
pub mod mentors;
pub mod stats;
pub mod users;

#[cfg(test)]
mod tests {
    use crate::{
        booking::BookingStatus,
        money::{PaymentStatus, RefundStatus},
        statuses::{ComplaintReason, ComplaintStatus},
    };

    /// The statuses `admin_sql!` and the mentors' list spell out in their SQL.
    #[test]
    fn the_statuses_written_into_the_sql_are_the_closed_sets_values() {
        assert_eq!(PaymentStatus::Approved.as_str(), "approved");
        assert_eq!(RefundStatus::Succeeded.as_str(), "succeeded");
        assert_eq!(
            BookingStatus::sql_list(BookingStatus::MADE),
            "'pending', 'confirmed', 'completed', 'cancelled'"
        );
        assert_eq!(ComplaintReason::MentorNoShow.as_str(), "mentor_no_show");
        assert_eq!(ComplaintStatus::Resolved.as_str(), "resolved");
    }
}
