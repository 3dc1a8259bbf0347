//! What the compile-checked statements (`sqlx::query!` and its kin) bind differently from run-time
//! ones: the macros type each parameter from the statement, so a value is passed as that type.

use sqlx::postgres::types::PgInterval;

/// A duration as the `interval` a compile-checked statement binds (whole microseconds, as sqlx
/// encodes a `chrono::Duration` itself).
pub fn interval(d: chrono::Duration) -> PgInterval {
    PgInterval {
        months: 0,
        days: 0,
        microseconds: d
            .num_microseconds()
            .expect("a duration of this code fits in microseconds"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_interval_is_the_duration_in_microseconds() {
        let i = interval(chrono::Duration::minutes(90));
        assert_eq!((i.months, i.days, i.microseconds), (0, 0, 90 * 60 * 1_000_000));
        assert_eq!(
            interval(chrono::Duration::minutes(90)),
            PgInterval::try_from(chrono::Duration::minutes(90)).unwrap()
        );
    }
}
