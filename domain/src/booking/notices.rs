//! What a booking's in-app notifications say, and the one way they write a session's time.
//! Every booking notification is worded here; the rules only decide when one is sent.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;

use super::bookings::Booking;
use crate::{
    Result, money,
    notifications::{self, Kind},
    time_format::{self, Format},
};

/// How a notification writes a session's start, on the reader's clock, followed by the zone's
/// abbreviation: "Mar 05, 2027 9:30 AM EST", "Mar 05, 2027 2:30 PM UTC".
pub const WHEN_FORMAT: Format = Format::DateTime;
/// Where a notification takes the seeker, and the mentor.
pub const SEEKER_LINK: &str = "/dashboard";
pub const MENTOR_LINK: &str = "/mentor-dashboard";

pub fn when(t: DateTime<Utc>, zone: &str) -> String {
    time_format::in_zone(t, zone, WHEN_FORMAT)
}

/// The session's start as the seeker (`mentor` false) or the mentor reads it.
fn start_for(b: &Booking, mentor: bool) -> String {
    when(b.scheduled_at, b.zone_of(mentor))
}

/// One notification, ready to send to its recipient.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Notice {
    pub kind: Kind,
    pub title: &'static str,
    pub message: String,
    pub link: &'static str,
}

impl Notice {
    fn to_seeker(kind: Kind, title: &'static str, message: String) -> Self {
        Self {
            kind,
            title,
            message,
            link: SEEKER_LINK,
        }
    }

    fn to_mentor(kind: Kind, title: &'static str, message: String) -> Self {
        Self {
            kind,
            title,
            message,
            link: MENTOR_LINK,
        }
    }

    /// The notice for `user_id` as queued for the worker (what [`Notice::send`] queues).
    pub fn fan_out(&self, user_id: uuid::Uuid) -> notifications::FanOut {
        notifications::FanOut::new(&[user_id], self.kind, self.title, &self.message, Some(self.link))
    }

    pub async fn send(&self, tx: &mut PgConnection, user_id: uuid::Uuid) -> Result<()> {
        notifications::notify(&mut *tx, user_id, self.kind, self.title, &self.message, Some(self.link)).await
    }
}

/// The seeker's and the mentor's notices about one event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Both {
    pub seeker: Notice,
    pub mentor: Notice,
}

impl Both {
    pub async fn send(&self, tx: &mut PgConnection, b: &Booking) -> Result<()> {
        self.seeker.send(tx, b.user_id).await?;
        self.mentor.send(tx, b.mentor_user_id).await
    }
}

fn seeker_name(b: &Booking) -> String {
    format!("{} {}", b.user_first_name, b.user_last_name)
}

/// Confirmed; `paid` tells the mentor about the payment rather than a new booking.
pub fn confirmed(b: &Booking, paid: bool) -> Both {
    let (title, service) = ("Booking confirmed", &b.service_title);
    let seeker = Notice::to_seeker(
        Kind::BookingConfirmed,
        title,
        format!(
            "Your session \"{service}\" with {} on {} is confirmed.",
            b.mentor_display_name,
            start_for(b, false)
        ),
    );
    let when = start_for(b, true);
    let mentor = if paid {
        let paid = money::format(b.total_cents);
        Notice::to_mentor(
            Kind::PaymentReceived,
            "Payment received",
            format!("{} paid ${paid} for \"{service}\" on {when}.", seeker_name(b)),
        )
    } else {
        Notice::to_mentor(
            Kind::BookingConfirmed,
            "New booking",
            format!("{} booked \"{service}\" on {when}.", seeker_name(b)),
        )
    };
    Both { seeker, mentor }
}

/// Moved to its current start by the seeker, with their reason when they gave one.
pub fn rescheduled(b: &Booking, reason: Option<&str>) -> Both {
    let (title, service) = ("Booking rescheduled", &b.service_title);
    let why = reason
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| format!(" Reason: {r}"))
        .unwrap_or_default();
    Both {
        seeker: Notice::to_seeker(
            Kind::BookingRescheduled,
            title,
            format!("You moved \"{service}\" to {}.{why}", start_for(b, false)),
        ),
        mentor: Notice::to_mentor(
            Kind::BookingRescheduled,
            title,
            format!("{} moved \"{service}\" to {}.{why}", seeker_name(b), start_for(b, true)),
        ),
    }
}

/// Cancelled by the mentor or the seeker, each side told who did it from where they stand
/// ("Your mentor Mira cancelled ..." to a seeker), with the reason when one was given;
/// the seeker hears about a refund of `refund_cents`.
pub fn cancelled(b: &Booking, by_mentor: bool, refund_cents: i64, reason: Option<&str>) -> Both {
    let (title, service) = ("Booking cancelled", &b.service_title);
    let refund = if refund_cents > 0 {
        format!(" A refund of ${} is on its way.", money::format(refund_cents))
    } else {
        String::new()
    };
    let why = reason
        .map(str::trim)
        .filter(|r| !r.is_empty())
        .map(|r| format!(" Reason: {r}"))
        .unwrap_or_default();
    let who = |reader_is_mentor: bool| match (by_mentor, reader_is_mentor) {
        (true, true) | (false, false) => "You".to_string(),
        (true, false) => format!("Your mentor {}", b.mentor_display_name),
        (false, true) => seeker_name(b),
    };
    let message = |mentor: bool| format!("{} cancelled \"{service}\" on {}.", who(mentor), start_for(b, mentor));
    Both {
        seeker: Notice::to_seeker(
            Kind::BookingCancelled,
            title,
            format!("{}{refund}{why}", message(false)),
        ),
        mentor: Notice::to_mentor(Kind::BookingCancelled, title, format!("{}{why}", message(true))),
    }
}

/// The session starts in `lead` ("24 hours", "1 hour").
pub fn reminder(b: &Booking, lead: &str) -> Both {
    let message = |mentor: bool| {
        let with = if mentor {
            seeker_name(b)
        } else {
            b.mentor_display_name.clone()
        };
        format!(
            "\"{}\" with {with} starts in {lead} ({}).",
            b.service_title,
            start_for(b, mentor)
        )
    };
    Both {
        seeker: Notice::to_seeker(Kind::BookingReminder, "Session reminder", message(false)),
        mentor: Notice::to_mentor(Kind::BookingReminder, "Session reminder", message(true)),
    }
}

/// To the seeker once the session is completed.
pub fn review_request(b: &Booking) -> Notice {
    Notice::to_seeker(
        Kind::SystemAnnouncement,
        "How was your session?",
        format!(
            "Your session \"{}\" with {} is complete. Leave a review to help other seekers.",
            b.service_title, b.mentor_display_name
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn booking() -> Booking {
        let at = DateTime::parse_from_rfc3339("2027-03-05T14:30:00Z").unwrap().to_utc();
        let id = uuid::Uuid::nil();
        Booking {
            id,
            status: crate::booking::BookingStatus::Confirmed,
            scheduled_at: at,
            ends_at: at + chrono::Duration::hours(1),
            duration_minutes: 60,
            total_cents: 4000,
            notes: None,
            hold_expires_at: None,
            created_at: at,
            service_id: id,
            service_title: "Star reading".into(),
            service_type: crate::catalogue::vocabulary::ServiceType::Astrology,
            user_id: id,
            user_first_name: "Ann".into(),
            user_last_name: "Lee".into(),
            user_email: "ann@example.com".into(),
            mentor_id: id,
            mentor_user_id: id,
            mentor_display_name: "Mira".into(),
            mentor_profile_image_url: None,
            mentor_email: "mira@example.com".into(),
            user_time_zone: None,
            mentor_time_zone: "America/New_York".into(),
            calendar_sequence: 0,
            has_review: false,
            review_rating: None,
            review_comment: None,
            refund_percentage: None,
            refund_cents: None,
            refund_status: None,
            cancellation_reason: None,
            group_session_id: None,
            group_session_status: None,
            removal_reason: None,
            refunds: sqlx::types::Json(Vec::new()),
            refunded_cents: 0,
            complaint: None,
        }
    }

    #[test]
    fn times_read_on_the_readers_clock_with_the_zone() {
        let b = booking();
        assert_eq!(
            start_for(&b, false),
            "Mar 05, 2027 2:30 PM UTC",
            "a seeker whose browser never reported a zone"
        );
        assert_eq!(start_for(&b, true), "Mar 05, 2027 9:30 AM EST");
        let b = Booking {
            user_time_zone: Some("Europe/Paris".into()),
            ..b
        };
        assert_eq!(start_for(&b, false), "Mar 05, 2027 3:30 PM CET");
    }

    #[test]
    fn confirmations_name_the_session_and_the_payment() {
        let b = booking();
        let free = confirmed(&b, false);
        assert_eq!(
            free.seeker.message,
            "Your session \"Star reading\" with Mira on Mar 05, 2027 2:30 PM UTC is confirmed."
        );
        assert_eq!(
            (free.seeker.kind, free.seeker.title, free.seeker.link),
            (Kind::BookingConfirmed, "Booking confirmed", "/dashboard")
        );
        assert_eq!(
            (free.mentor.kind, free.mentor.title),
            (Kind::BookingConfirmed, "New booking")
        );
        assert_eq!(
            free.mentor.message,
            "Ann Lee booked \"Star reading\" on Mar 05, 2027 9:30 AM EST."
        );
        let paid = confirmed(&b, true);
        assert_eq!(
            (paid.mentor.kind, paid.mentor.title, paid.mentor.link),
            (Kind::PaymentReceived, "Payment received", "/mentor-dashboard")
        );
        assert_eq!(
            paid.mentor.message,
            "Ann Lee paid $40.00 for \"Star reading\" on Mar 05, 2027 9:30 AM EST."
        );
    }

    #[test]
    fn a_move_carries_the_reason_when_there_is_one() {
        let b = booking();
        let moved = rescheduled(&b, Some(" busy "));
        assert_eq!(
            moved.seeker.message,
            "You moved \"Star reading\" to Mar 05, 2027 2:30 PM UTC. Reason: busy"
        );
        assert_eq!(
            moved.mentor.message,
            "Ann Lee moved \"Star reading\" to Mar 05, 2027 9:30 AM EST. Reason: busy"
        );
        assert_eq!(
            rescheduled(&b, Some("  ")).seeker.message,
            "You moved \"Star reading\" to Mar 05, 2027 2:30 PM UTC."
        );
    }

    #[test]
    fn a_cancellation_tells_the_seeker_about_the_refund() {
        let b = booking();
        let by_seeker = cancelled(&b, false, 2000, None);
        assert_eq!(
            by_seeker.seeker.message,
            "You cancelled \"Star reading\" on Mar 05, 2027 2:30 PM UTC. A refund of $20.00 is on its way."
        );
        assert_eq!(
            by_seeker.mentor.message,
            "Ann Lee cancelled \"Star reading\" on Mar 05, 2027 9:30 AM EST."
        );
        let by_mentor = cancelled(&b, true, 0, None);
        assert_eq!(
            by_mentor.seeker.message,
            "Your mentor Mira cancelled \"Star reading\" on Mar 05, 2027 2:30 PM UTC."
        );
        assert_eq!(
            by_mentor.mentor.message,
            "You cancelled \"Star reading\" on Mar 05, 2027 9:30 AM EST."
        );
        let with_reason = cancelled(&b, true, 4000, Some(" I am ill "));
        assert_eq!(
            with_reason.seeker.message,
            "Your mentor Mira cancelled \"Star reading\" on Mar 05, 2027 2:30 PM UTC. A refund of $40.00 is on its way. Reason: I am ill"
        );
    }

    #[test]
    fn reminders_and_review_requests() {
        let b = booking();
        let r = reminder(&b, "1 hour");
        assert_eq!(
            r.seeker.message,
            "\"Star reading\" with Mira starts in 1 hour (Mar 05, 2027 2:30 PM UTC)."
        );
        assert_eq!(
            r.mentor.message,
            "\"Star reading\" with Ann Lee starts in 1 hour (Mar 05, 2027 9:30 AM EST)."
        );
        assert_eq!(
            (r.mentor.title, r.mentor.link, r.mentor.kind),
            ("Session reminder", "/mentor-dashboard", Kind::BookingReminder)
        );
        let review = review_request(&b);
        assert_eq!((review.title, review.link), ("How was your session?", "/dashboard"));
        assert_eq!(
            review.message,
            "Your session \"Star reading\" with Mira is complete. Leave a review to help other seekers."
        );
    }
}
