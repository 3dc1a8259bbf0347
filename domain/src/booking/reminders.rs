//! Reminders before a session: a booking_reminder notification to both sides, recorded in
//! `booking_reminders` so each is sent once per start. The caller queues the e-mail in the same
//! transaction.

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{bookings, notices};
use crate::Result;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reminder {
    /// Its name in tasks and in `booking_reminders`.
    pub kind: &'static str,
    /// How long before the start it is sent.
    pub before: Duration,
    /// How the notification and the e-mail say it.
    pub lead: &'static str,
}

/// The two reminders, 24 hours and 1 hour before the start.
pub const REMINDERS: [Reminder; 2] = [
    Reminder {
        kind: "24h",
        before: Duration::hours(24),
        lead: "24 hours",
    },
    Reminder {
        kind: "1h",
        before: Duration::hours(1),
        lead: "1 hour",
    },
];

pub fn find(kind: &str) -> Option<&'static Reminder> {
    REMINDERS.iter().find(|r| r.kind == kind)
}

/// The reminders of a session starting at `start` that are still ahead at `now`, with when each is due.
pub fn ahead(start: DateTime<Utc>, now: DateTime<Utc>) -> impl Iterator<Item = (&'static Reminder, DateTime<Utc>)> {
    REMINDERS
        .iter()
        .map(move |r| (r, start - r.before))
        .filter(move |(_, due)| *due > now)
}

/// A reminder that is due for a booking's current start.
#[derive(Clone, Copy, Debug)]
pub struct Due {
    pub booking_id: Uuid,
    pub reminder: &'static Reminder,
    pub start: DateTime<Utc>,
}

/// Every reminder that is due, still ahead of its session, and not sent yet (the sweep's list;
/// a booking moved after its reminder was due is left to the reminders of its new start).
pub async fn overdue(db: &PgPool) -> Result<Vec<Due>> {
    let mut out = Vec::new();
    for reminder in &REMINDERS {
        let rows: Vec<(Uuid, DateTime<Utc>)> = sqlx::query_as(
            "SELECT b.id, b.scheduled_at FROM bookings b WHERE b.status IN ('pending', 'confirmed') AND b.scheduled_at > now() \
             AND b.scheduled_at - $1::interval <= now() AND b.updated_at < b.scheduled_at - $1::interval \
             AND NOT EXISTS (SELECT 1 FROM booking_reminders r WHERE r.booking_id = b.id AND r.kind = $2 AND r.scheduled_at = b.scheduled_at)",
        )
        .bind(reminder.before)
        .bind(reminder.kind)
        .fetch_all(db)
        .await?;
        out.extend(rows.into_iter().map(|(booking_id, start)| Due {
            booking_id,
            reminder,
            start,
        }));
    }
    Ok(out)
}

/// Sends the `kind` reminder of a booking that still starts at `start` (whole seconds), unless
/// it was cancelled or the reminder was sent already. The reminder's lead when it was sent now.
pub async fn remind(
    tx: &mut PgConnection,
    booking_id: Uuid,
    kind: &str,
    start: DateTime<Utc>,
) -> Result<Option<&'static str>> {
    let Some(reminder) = find(kind) else { return Ok(None) };
    let Some(b) = bookings::find(&mut *tx, booking_id).await? else {
        return Ok(None);
    };
    if b.scheduled_at.timestamp() != start.timestamp() || !b.status.is_live() {
        return Ok(None);
    }
    let recorded = sqlx::query(
        "INSERT INTO booking_reminders (booking_id, kind, scheduled_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
    )
    .bind(b.id)
    .bind(kind)
    .bind(b.scheduled_at)
    .execute(&mut *tx)
    .await?
    .rows_affected();
    if recorded == 0 {
        return Ok(None);
    }
    let notices = notices::reminder(&b, reminder.lead);
    if b.group_session_id.is_some() {
        // A group seat reminds its seeker only: the mentor is not reminded once per seat.
        notices.seeker.send(tx, b.user_id).await?;
    } else {
        notices.send(tx, &b).await?;
    }
    Ok(Some(reminder.lead))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_day_and_an_hour_before_the_start() {
        let leads: Vec<_> = REMINDERS.iter().map(|r| (r.kind, r.before, r.lead)).collect();
        assert_eq!(
            leads,
            [
                ("24h", Duration::hours(24), "24 hours"),
                ("1h", Duration::hours(1), "1 hour")
            ]
        );
        assert_eq!(find("1h"), Some(&REMINDERS[1]));
        assert_eq!(find("2h"), None);
    }

    #[test]
    fn only_reminders_still_ahead_are_due() {
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let kinds = |now| ahead(start, now).map(|(r, due)| (r.kind, due)).collect::<Vec<_>>();
        assert_eq!(
            kinds(start - Duration::days(2)),
            [("24h", start - Duration::hours(24)), ("1h", start - Duration::hours(1))]
        );
        assert_eq!(kinds(start - Duration::hours(24)), [("1h", start - Duration::hours(1))]);
        assert!(kinds(start - Duration::minutes(30)).is_empty());
    }
}
