//! Reminders before a session: a booking_reminder notification to both sides, recorded in
//! `booking_reminders` so each is sent once per start. The caller queues the e-mail in the same
//! transaction.

use std::collections::HashMap;

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{BookingStatus, bookings::Booking, notices};
use crate::{
    Result, job_queue,
    notifications::{FAN_OUT_MAX_ATTEMPTS, FAN_OUT_QUEUE, PushSpec},
    push::PushKind,
};

closed_set! {
    /// Which reminder: its name in tasks and in `booking_reminders`.
    pub enum ReminderKind ("reminder kind") {
        DayBefore = "24h",
        HourBefore = "1h",
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reminder {
    pub kind: ReminderKind,
    /// How long before the start it is sent.
    pub before: Duration,
    /// How the notification and the e-mail say it.
    pub lead: &'static str,
    /// The Web Push it sends besides (the one-hour reminder only).
    pub push: Option<PushKind>,
}

/// The two reminders, 24 hours and 1 hour before the start.
pub const REMINDERS: [Reminder; 2] = [
    Reminder {
        kind: ReminderKind::DayBefore,
        before: Duration::hours(24),
        lead: "24 hours",
        push: None,
    },
    Reminder {
        kind: ReminderKind::HourBefore,
        before: Duration::hours(1),
        lead: "1 hour",
        push: Some(PushKind::SessionReminder),
    },
];

/// The reminder a task names (a task is text: an unknown kind finds none).
pub fn find(kind: &str) -> Option<&'static Reminder> {
    let kind: ReminderKind = kind.parse().ok()?;
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
        let rows = sqlx::query!(
            "SELECT b.id, b.scheduled_at FROM bookings b WHERE b.status = ANY($3) AND b.scheduled_at > now() \
             AND b.scheduled_at - $1::interval <= now() AND b.updated_at < b.scheduled_at - $1::interval \
             AND NOT EXISTS (SELECT 1 FROM booking_reminders r WHERE r.booking_id = b.id AND r.kind = $2 AND r.scheduled_at = b.scheduled_at)",
            crate::sql::interval(reminder.before),
            reminder.kind as ReminderKind,
            BookingStatus::LIVE as &[BookingStatus],
        )
        .fetch_all(db)
        .await?;
        out.extend(rows.into_iter().map(|r| Due {
            booking_id: r.id,
            reminder,
            start: r.scheduled_at,
        }));
    }
    Ok(out)
}

/// One reminder asked for: a booking's `kind` reminder for the start it was scheduled for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    pub booking_id: Uuid,
    pub kind: String,
    /// Compared in whole seconds with the booking's current start.
    pub start: DateTime<Utc>,
}

/// Sends the `kind` reminder of a booking that still starts at `start` (whole seconds), unless
/// it was cancelled or the reminder was sent already. The reminder's lead when it was sent now.
pub async fn remind(
    tx: &mut PgConnection,
    booking_id: Uuid,
    kind: &str,
    start: DateTime<Utc>,
) -> Result<Option<&'static str>> {
    let asked = Asked {
        booking_id,
        kind: kind.to_string(),
        start,
    };
    Ok(remind_many(tx, std::slice::from_ref(&asked)).await?.remove(0))
}

/// [`remind`] for many reminders at once, in the caller's transaction and a fixed number of
/// statements: the bookings read in one, the reminders recorded in one (`ON CONFLICT DO NOTHING`,
/// so each is sent once whoever else sends it at the same time), every notification queued in one.
/// Each asked reminder's lead when it was sent now; one asked twice in `asked` is sent for the
/// first only.
pub async fn remind_many(tx: &mut PgConnection, asked: &[Asked]) -> Result<Vec<Option<&'static str>>> {
    let mut out = vec![None; asked.len()];
    if asked.is_empty() {
        return Ok(out);
    }
    let mut ids: Vec<Uuid> = asked.iter().map(|a| a.booking_id).collect();
    ids.sort_unstable();
    ids.dedup();
    let found: Vec<Booking> = super::bookings::query_bookings!("WHERE b.id = ANY($1)", &ids)
        .fetch_all(&mut *tx)
        .await?;
    let bookings: HashMap<Uuid, Booking> = found.into_iter().map(|b| (b.id, b)).collect();
    // Each reminder still due to its booking's current start, once.
    let mut wanted: HashMap<(Uuid, ReminderKind), usize> = HashMap::new();
    for (i, a) in asked.iter().enumerate() {
        let Some(reminder) = find(&a.kind) else { continue };
        let Some(b) = bookings.get(&a.booking_id) else { continue };
        if b.scheduled_at.timestamp() != a.start.timestamp() || !b.status.is_live() {
            continue;
        }
        wanted.entry((b.id, reminder.kind)).or_insert(i);
    }
    if wanted.is_empty() {
        return Ok(out);
    }
    let (mut booking_ids, mut kinds, mut starts) = (Vec::new(), Vec::new(), Vec::new());
    for &(booking_id, kind) in wanted.keys() {
        booking_ids.push(booking_id);
        kinds.push(kind);
        starts.push(bookings[&booking_id].scheduled_at);
    }
    let recorded = sqlx::query!(
        r#"INSERT INTO booking_reminders (booking_id, kind, scheduled_at)
           SELECT * FROM unnest($1::uuid[], $2::text[], $3::timestamptz[]) ON CONFLICT DO NOTHING
           RETURNING booking_id, kind AS "kind: ReminderKind""#,
        &booking_ids,
        &kinds as &[ReminderKind],
        &starts,
    )
    .fetch_all(&mut *tx)
    .await?;
    let mut fan_outs = Vec::with_capacity(recorded.len() * 2);
    for row in recorded {
        let booking_id = row.booking_id;
        let Some(reminder) = REMINDERS.iter().find(|r| r.kind == row.kind) else {
            continue;
        };
        let Some(&i) = wanted.get(&(booking_id, reminder.kind)) else {
            continue;
        };
        let b = &bookings[&booking_id];
        let notices = notices::reminder(b, reminder.lead);
        let push = reminder.push.map(PushSpec::new);
        fan_outs.push(notices.seeker.fan_out(b.user_id).pushed_as(push.clone()));
        // A group seat reminds its seeker only: the mentor is not reminded once per seat.
        if b.group_session_id.is_none() {
            fan_outs.push(notices.mentor.fan_out(b.mentor_user_id).pushed_as(push));
        }
        out[i] = Some(reminder.lead);
    }
    job_queue::push_all(&mut *tx, FAN_OUT_QUEUE, &fan_outs, FAN_OUT_MAX_ATTEMPTS).await?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_one_hour_reminder_is_pushed() {
        let pushed: Vec<_> = REMINDERS.iter().map(|r| (r.kind, r.push)).collect();
        assert_eq!(
            pushed,
            [
                (ReminderKind::DayBefore, None),
                (ReminderKind::HourBefore, Some(PushKind::SessionReminder))
            ]
        );
    }

    #[test]
    fn a_day_and_an_hour_before_the_start() {
        let leads: Vec<_> = REMINDERS.iter().map(|r| (r.kind, r.before, r.lead)).collect();
        assert_eq!(
            leads,
            [
                (ReminderKind::DayBefore, Duration::hours(24), "24 hours"),
                (ReminderKind::HourBefore, Duration::hours(1), "1 hour")
            ]
        );
        assert_eq!(find("1h"), Some(&REMINDERS[1]));
        assert_eq!(find("2h"), None);
    }

    #[test]
    fn only_reminders_still_ahead_are_due() {
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let kinds = |now| {
            ahead(start, now)
                .map(|(r, due)| (r.kind.as_str(), due))
                .collect::<Vec<_>>()
        };
        assert_eq!(
            kinds(start - Duration::days(2)),
            [("24h", start - Duration::hours(24)), ("1h", start - Duration::hours(1))]
        );
        assert_eq!(kinds(start - Duration::hours(24)), [("1h", start - Duration::hours(1))]);
        assert!(kinds(start - Duration::minutes(30)).is_empty());
    }
}
