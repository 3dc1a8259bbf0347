//! Every booking on the platform, for the admin console: filtered by status and by the day of the
//! session (UTC), newest first, a page at a time.

use chrono::{DateTime, NaiveDate, Utc};
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use crate::{Error, Result, booking::BookingStatus, choice::Choice, money::PaymentStatus};

/// The admin table shows this many bookings per page unless asked otherwise.
pub const DEFAULT_PAGE_SIZE: i64 = 20;
/// The largest page a caller may ask for.
pub const MAX_PAGE_SIZE: i64 = 100;
/// Pages beyond this are refused before any arithmetic.
pub const MAX_PAGE: i64 = 100_000;
/// The states of a made booking (holds are not listed).
pub const STATUSES: &[BookingStatus] = BookingStatus::MADE;

/// The status filter's value for every status (as no value).
pub const ANY_STATUS: &str = "all";
pub const INVALID_STATUS: &str = "Invalid status: use pending, confirmed, completed or cancelled";
pub const INVALID_START_DATE: &str = "Invalid startDate: use a date as YYYY-MM-DD";
pub const INVALID_END_DATE: &str = "Invalid endDate: use a date as YYYY-MM-DD";
pub const START_AFTER_END: &str = "Invalid date range: startDate must be on or before endDate";
pub const INVALID_PAGE: &str = "Invalid page: use a whole number from 1 to 100000";
pub const INVALID_PAGE_SIZE: &str = "Invalid pageSize: use a whole number from 1 to 100";

/// What the admin asked for, checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Query {
    pub status: Option<BookingStatus>,
    /// Sessions starting at or after this instant (the start date's midnight, UTC).
    pub from: Option<DateTime<Utc>>,
    /// Sessions starting before this instant (the day after the end date, midnight UTC).
    pub until: Option<DateTime<Utc>>,
    pub page: i64,
    pub page_size: i64,
}

fn date(raw: Option<&str>, message: &str) -> Result<Option<NaiveDate>> {
    match raw.map(str::trim).filter(|r| !r.is_empty()) {
        None => Ok(None),
        // Exactly YYYY-MM-DD: chrono alone would also take "2026-1-5".
        Some(r) if r.len() == 10 => NaiveDate::parse_from_str(r, "%Y-%m-%d")
            .map(Some)
            .map_err(|_| Error::validation(message)),
        Some(_) => Err(Error::validation(message)),
    }
}

fn midnight(d: NaiveDate) -> DateTime<Utc> {
    d.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc()
}

impl Query {
    pub fn parse(
        status: Option<&Choice<BookingStatus>>,
        start_date: Option<&str>,
        end_date: Option<&str>,
        page: Option<i64>,
        page_size: Option<i64>,
    ) -> Result<Self> {
        let status = match status.filter(|s| !s.is_blank() && s.sent() != ANY_STATUS) {
            None => None,
            Some(s) => match s.value(INVALID_STATUS)? {
                s if STATUSES.contains(&s) => Some(s),
                _ => return Err(Error::validation(INVALID_STATUS)),
            },
        };
        let start = date(start_date, INVALID_START_DATE)?;
        let end = date(end_date, INVALID_END_DATE)?;
        if let (Some(s), Some(e)) = (start, end)
            && s > e
        {
            return Err(Error::validation(START_AFTER_END));
        }
        let page = page.unwrap_or(1);
        if !(1..=MAX_PAGE).contains(&page) {
            return Err(Error::validation(INVALID_PAGE));
        }
        let page_size = page_size.unwrap_or(DEFAULT_PAGE_SIZE);
        if !(1..=MAX_PAGE_SIZE).contains(&page_size) {
            return Err(Error::validation(INVALID_PAGE_SIZE));
        }
        Ok(Self {
            status,
            from: start.map(midnight),
            until: end.and_then(|e| e.succ_opt()).map(midnight),
            page,
            page_size,
        })
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct AdminBooking {
    pub id: Uuid,
    pub status: BookingStatus,
    pub scheduled_at: DateTime<Utc>,
    pub duration_minutes: i32,
    pub total_cents: i64,
    /// The booking's settled payment (approved, declined, error) or the attempt in flight
    /// (processing); `None` for a free booking.
    pub payment_status: Option<crate::payments::PaymentStatus>,
    pub created_at: DateTime<Utc>,
    pub user_id: Uuid,
    pub user_first_name: String,
    pub user_last_name: String,
    pub user_email: String,
    pub mentor_id: Uuid,
    pub mentor_display_name: String,
    pub service_id: Uuid,
    pub service_title: String,
}

pub struct Page {
    pub bookings: Vec<AdminBooking>,
    pub total: i64,
    pub page: i64,
    pub page_size: i64,
}

/// `$head` + the list's conditions (made bookings, `$1` a status, `$2`..`$3` the days) + `$tail`,
/// to `admin_sql!` as `$out`.
macro_rules! filtered {
    ($out:tt, $head:literal, $tail:literal $(, $arg:expr)* $(,)?) => {
        admin_sql!(
            $out[
                $head + "b.status IN (" + MADE
                    + ") AND ($1::text IS NULL OR b.status = $1) AND ($2::timestamptz IS NULL OR b.scheduled_at >= $2) \
                       AND ($3::timestamptz IS NULL OR b.scheduled_at < $3)"
                    + $tail
            ]
            $(, $arg)*
        )
    };
}

pub async fn list(db: &PgPool, q: &Query) -> Result<Page> {
    let status = q.status;
    let total = filtered!(
        scalar,
        r#"SELECT count(*) AS "count!" FROM bookings b WHERE "#,
        "",
        status as Option<BookingStatus>,
        q.from,
        q.until,
    )
    .fetch_one(db)
    .await?;
    let bookings = filtered!(
        (as AdminBooking),
        r#"SELECT b.id, b.status AS "status: BookingStatus", b.scheduled_at,
                (extract(epoch FROM b.ends_at - b.scheduled_at) / 60)::int AS "duration_minutes!", b.total_cents,
                (SELECT p.status FROM payments p WHERE p.booking_id = b.id
                  ORDER BY (p.status = 'approved') DESC, p.created_at DESC, p.id LIMIT 1) AS "payment_status: PaymentStatus",
                b.created_at, u.id AS user_id, u.first_name AS user_first_name, u.last_name AS user_last_name, u.email AS user_email,
                m.id AS mentor_id, m.display_name AS mentor_display_name, s.id AS service_id, s.title AS service_title
         FROM bookings b JOIN users u ON u.id = b.user_id JOIN mentors m ON m.id = b.mentor_id JOIN services s ON s.id = b.service_id
         WHERE "#,
        " ORDER BY b.created_at DESC, b.id DESC LIMIT $4 OFFSET $5",
        status as Option<BookingStatus>,
        q.from,
        q.until,
        q.page_size,
        crate::paging::offset(q.page, q.page_size),
    )
    .fetch_all(db)
    .await?;
    Ok(Page {
        bookings,
        total,
        page: q.page,
        page_size: q.page_size,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_shows_twenty_and_at_most_a_hundred() {
        let q = Query::parse(None, None, None, None, None).unwrap();
        assert_eq!(
            (q.page, q.page_size, q.status, q.from, q.until),
            (1, 20, None, None, None)
        );
        assert_eq!(
            Query::parse(None, None, None, Some(1), Some(100)).unwrap().page_size,
            100
        );
        assert_eq!(
            Query::parse(None, None, None, None, Some(101)).unwrap_err().to_string(),
            INVALID_PAGE_SIZE
        );
        assert_eq!(
            Query::parse(None, None, None, None, Some(0)).unwrap_err().to_string(),
            INVALID_PAGE_SIZE
        );
        assert_eq!(
            Query::parse(None, None, None, Some(0), None).unwrap_err().to_string(),
            INVALID_PAGE
        );
        assert_eq!(
            Query::parse(None, None, None, Some(MAX_PAGE + 1), None)
                .unwrap_err()
                .to_string(),
            INVALID_PAGE
        );
        assert_eq!(
            Query::parse(None, None, None, Some(MAX_PAGE), Some(MAX_PAGE_SIZE))
                .unwrap()
                .page,
            MAX_PAGE
        );
    }

    #[test]
    fn dates_are_whole_utc_days_inclusive() {
        let q = Query::parse(None, Some("2026-03-01"), Some("2026-03-31"), None, None).unwrap();
        assert_eq!(q.from.unwrap().to_rfc3339(), "2026-03-01T00:00:00+00:00");
        assert_eq!(
            q.until.unwrap().to_rfc3339(),
            "2026-04-01T00:00:00+00:00",
            "the end day counts in full"
        );
        let one_day = Query::parse(None, Some("2026-03-01"), Some("2026-03-01"), None, None).unwrap();
        assert_eq!(
            one_day.until.unwrap() - one_day.from.unwrap(),
            chrono::Duration::days(1)
        );
    }

    #[test]
    fn bad_dates_name_their_parameter() {
        for bad in [
            "2026-02-30",
            "2026-1-5",
            "01/03/2026",
            "tomorrow",
            "2026-03-01T00:00:00Z",
        ] {
            assert_eq!(
                Query::parse(None, Some(bad), None, None, None).unwrap_err().to_string(),
                INVALID_START_DATE,
                "{bad}"
            );
            assert_eq!(
                Query::parse(None, None, Some(bad), None, None).unwrap_err().to_string(),
                INVALID_END_DATE,
                "{bad}"
            );
        }
        assert_eq!(
            Query::parse(None, Some("2026-03-02"), Some("2026-03-01"), None, None)
                .unwrap_err()
                .to_string(),
            START_AFTER_END
        );
    }

    #[test]
    fn statuses_are_those_of_made_bookings() {
        for s in ["pending", "confirmed", "completed", "cancelled"] {
            assert_eq!(
                Query::parse(Some(&s.parse().unwrap()), None, None, None, None)
                    .unwrap()
                    .status
                    .unwrap()
                    .as_str(),
                s
            );
        }
        assert_eq!(
            Query::parse(Some(&"all".parse().unwrap()), None, None, None, None)
                .unwrap()
                .status,
            None
        );
        for bad in ["reserved", "expired", "Confirmed", "done"] {
            assert_eq!(
                Query::parse(Some(&bad.parse().unwrap()), None, None, None, None)
                    .unwrap_err()
                    .to_string(),
                INVALID_STATUS,
                "{bad}"
            );
        }
    }
}
