//! Sessions written back into the mentor's calendar (issue 33 §3): a confirmed one-to-one booking
//! or a scheduled group session becomes a VEVENT in the calendar that receives bookings, under the
//! UID of its invitations (`booking-{id}@mystic-mentors`, `group-session-{id}@mystic-mentors`), at
//! the fixed address `<calendar>/<uid>.ics`; a move updates it, a cancellation deletes it.
//!
//! One durable task per change (`crate::job_queue::calendar_writeback`), queued in the transaction of the change. A task
//! writes the session as it is when it runs (present or absent), under a per-session lock, and
//! records where it wrote (`calendar_written_events`): running it twice, or two tasks of one
//! session in any order, leaves exactly one event, or none, as the session is now.

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use super::{
    caldav::CalDavError,
    feed::group_session_uid,
    store::{self as connection, ConnectionRow},
};
use crate::{
    Config, PRODUCT_NAME, Result,
    booking::{BookingStatus, bookings, notices::MENTOR_LINK},
    group_sessions::{GroupStatus, sessions},
    job_queue::Job,
    mail::calendar::{booking_uid, fold, stamp, text},
};

/// The first key of the advisory lock that serializes one session's writes.
const WRITE_LOCK_NAMESPACE: i32 = 0x6361_6c77; // "calw"

/// Bookings that are in the mentor's calendar: confirmed ones, and completed ones stay.
pub const WRITTEN_BOOKINGS: &[BookingStatus] = &[BookingStatus::Confirmed, BookingStatus::Completed];
pub const WRITTEN_GROUP_SESSIONS: &[GroupStatus] =
    &[GroupStatus::Scheduled, GroupStatus::Active, GroupStatus::Completed];

pub use crate::job_queue::calendar_writeback::{WriteBack, enqueue_booking, enqueue_group_session};

/// The UID of the session a write-back is for.
pub fn uid_of(job: &WriteBack) -> Option<String> {
    match (job.booking_id, job.group_session_id) {
        (Some(b), _) => Some(booking_uid(b)),
        (None, Some(g)) => Some(group_session_uid(g)),
        (None, None) => None,
    }
}

/// The file name of a session's event in the calendar: its UID without the domain.
pub fn file_name(uid: &str) -> String {
    format!("{}.ics", uid.split('@').next().unwrap_or(uid))
}

/// The event's address in the calendar collection at `calendar`.
pub fn event_href(calendar: &str, uid: &str) -> String {
    let base = if calendar.ends_with('/') {
        calendar.to_string()
    } else {
        format!("{calendar}/")
    };
    format!("{base}{}", file_name(uid))
}

/// Queues the write-back of every session of the mentor still to come (on connecting, and when
/// another calendar receives bookings).
pub async fn enqueue_upcoming(conn: &mut PgConnection, mentor_id: Uuid, now: DateTime<Utc>) -> Result<()> {
    let bookings: Vec<Uuid> = sqlx::query_scalar!(
        "SELECT id FROM bookings WHERE mentor_id = $1 AND group_session_id IS NULL AND status = ANY($2) AND ends_at > $3",
        mentor_id,
        WRITTEN_BOOKINGS as &[BookingStatus],
        now,
    )
    .fetch_all(&mut *conn)
    .await?;
    let groups: Vec<Uuid> = sqlx::query_scalar!(
        "SELECT id FROM group_sessions WHERE mentor_id = $1 AND status = ANY($2) AND ends_at > $3",
        mentor_id,
        GroupStatus::HOLDING_TIME as &[GroupStatus],
        now,
    )
    .fetch_all(&mut *conn)
    .await?;
    for id in bookings {
        WriteBack {
            booking_id: Some(id),
            group_session_id: None,
        }
        .enqueue(conn)
        .await?;
    }
    for id in groups {
        WriteBack {
            booking_id: None,
            group_session_id: Some(id),
        }
        .enqueue(conn)
        .await?;
    }
    Ok(())
}

/// What a session's event says.
pub struct SessionEvent {
    pub uid: String,
    pub mentor_id: Uuid,
    pub start: DateTime<Utc>,
    pub end: DateTime<Utc>,
    pub sequence: i32,
    pub summary: String,
    pub description: String,
}

/// The VEVENT of a session, in a VCALENDAR of its own.
pub fn render(e: &SessionEvent, link: &str, now: DateTime<Utc>) -> String {
    let lines = [
        "BEGIN:VCALENDAR".to_string(),
        "VERSION:2.0".to_string(),
        format!("PRODID:-//{PRODUCT_NAME}//Sessions//EN"),
        "CALSCALE:GREGORIAN".to_string(),
        "BEGIN:VEVENT".to_string(),
        format!("UID:{}", e.uid),
        format!("SEQUENCE:{}", e.sequence),
        format!("DTSTAMP:{}", stamp(now)),
        format!("DTSTART:{}", stamp(e.start)),
        format!("DTEND:{}", stamp(e.end)),
        format!("SUMMARY:{}", text(&e.summary)),
        format!("DESCRIPTION:{}", text(&format!("{} {link}", e.description))),
        format!("URL:{link}"),
        "STATUS:CONFIRMED".to_string(),
        "TRANSP:OPAQUE".to_string(),
        "END:VEVENT".to_string(),
        "END:VCALENDAR".to_string(),
    ];
    lines.iter().map(|l| fold(l)).collect::<Vec<_>>().join("\r\n") + "\r\n"
}

/// The session's event as it should be now, or `None` when it should not be in the calendar.
async fn wanted(conn: &mut PgConnection, job: &WriteBack) -> Result<Option<SessionEvent>> {
    if let Some(id) = job.booking_id {
        let Some(b) = bookings::find(&mut *conn, id).await? else {
            return Ok(None);
        };
        if b.group_session_id.is_some() || !WRITTEN_BOOKINGS.contains(&b.status) {
            return Ok(None);
        }
        let seeker = format!("{} {}", b.user_first_name, b.user_last_name).trim().to_string();
        return Ok(Some(SessionEvent {
            uid: booking_uid(b.id),
            mentor_id: b.mentor_id,
            start: b.scheduled_at,
            end: b.ends_at,
            sequence: b.calendar_sequence,
            summary: format!("{} with {}", b.service_title, seeker),
            description: format!("Your {PRODUCT_NAME} session with {seeker}. Open it from your dashboard:"),
        }));
    }
    if let Some(id) = job.group_session_id {
        let Some(g) = sessions::find(&mut *conn, id).await? else {
            return Ok(None);
        };
        if !WRITTEN_GROUP_SESSIONS.contains(&g.status) {
            return Ok(None);
        }
        return Ok(Some(SessionEvent {
            uid: group_session_uid(g.id),
            mentor_id: g.mentor_id,
            start: g.scheduled_at,
            end: g.ends_at,
            sequence: 0,
            summary: format!("{} (group session)", g.title),
            description: format!("Your {PRODUCT_NAME} group session. Open it from your dashboard:"),
        }));
    }
    Ok(None)
}

/// The mentor of the session, also when it is no longer to be written (to find the connection).
async fn mentor_of(conn: &mut PgConnection, job: &WriteBack) -> Result<Option<Uuid>> {
    Ok(sqlx::query_scalar!(
        r#"SELECT mentor_id AS "mentor_id!" FROM bookings WHERE id = $1 UNION ALL SELECT mentor_id FROM group_sessions WHERE id = $2 LIMIT 1"#,
        job.booking_id,
        job.group_session_id,
    )
    .fetch_optional(&mut *conn)
    .await?)
}

#[derive(Debug, PartialEq, Eq)]
pub enum Applied {
    Written(String),
    Deleted(String),
    Nothing,
}

/// Brings the session's event up to date. A server error is returned for the task to try again.
pub async fn apply(db: &PgPool, config: &Config, job: &WriteBack, now: DateTime<Utc>) -> anyhow::Result<Applied> {
    let Some(uid) = uid_of(job) else {
        return Ok(Applied::Nothing);
    };
    let mut tx = db.begin().await?;
    sqlx::query!(
        "SELECT pg_advisory_xact_lock($1, hashtext($2))",
        WRITE_LOCK_NAMESPACE,
        &uid,
    )
    .execute(&mut *tx)
    .await?;
    let Some(mentor_id) = mentor_of(&mut tx, job).await? else {
        return Ok(Applied::Nothing);
    };
    let Some(c): Option<ConnectionRow> = connection::row_of_mentor(&mut *tx, mentor_id).await? else {
        return Ok(Applied::Nothing);
    };
    let receiving = connection::calendars(&mut *tx, c.id)
        .await?
        .into_iter()
        .find(|cal| cal.receives_bookings);
    let written: Option<String> = sqlx::query_scalar!(
        "SELECT href FROM calendar_written_events WHERE uid = $1 AND connection_id = $2",
        &uid,
        c.id,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let wanted = wanted(&mut tx, job).await?;
    let client = connection::client(config, &c)?;
    let server = |e: CalDavError| anyhow::anyhow!("calendar server: {e}");
    let applied = match (wanted, receiving) {
        (Some(event), Some(calendar)) => {
            let href = event_href(&calendar.href, &uid);
            if let Some(old) = written.as_deref().filter(|old| *old != href) {
                client.delete(old).await.map_err(server)?;
            }
            let link = config.link(MENTOR_LINK, &[]);
            client.put(&href, render(&event, &link, now)).await.map_err(server)?;
            sqlx::query!(
                "INSERT INTO calendar_written_events (uid, connection_id, href, written_at) VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (uid) DO UPDATE SET connection_id = $2, href = $3, written_at = $4",
                &uid,
                c.id,
                &href,
                now,
            )
            .execute(&mut *tx)
            .await?;
            Applied::Written(href)
        }
        _ => match written {
            Some(old) => {
                client.delete(&old).await.map_err(server)?;
                sqlx::query!("DELETE FROM calendar_written_events WHERE uid = $1", &uid,)
                    .execute(&mut *tx)
                    .await?;
                Applied::Deleted(old)
            }
            None => Applied::Nothing,
        },
    };
    tx.commit().await?;
    Ok(applied)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_address_per_session_in_the_calendar() {
        let uid = booking_uid(Uuid::nil());
        assert_eq!(
            event_href("http://127.0.0.1:5232/mentor/work/", &uid),
            "http://127.0.0.1:5232/mentor/work/booking-00000000-0000-0000-0000-000000000000.ics"
        );
        assert_eq!(
            event_href("https://cal.example/work", &group_session_uid(Uuid::nil())),
            "https://cal.example/work/group-session-00000000-0000-0000-0000-000000000000.ics"
        );
    }

    #[test]
    fn a_session_event_carries_its_uid_and_who_it_is_with() {
        let start = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let e = SessionEvent {
            uid: booking_uid(Uuid::nil()),
            mentor_id: Uuid::nil(),
            start,
            end: start + chrono::Duration::hours(1),
            sequence: 2,
            summary: "Tarot, reading with Ada Lovelace".into(),
            description: "Your session.".into(),
        };
        let ics = render(&e, "http://localhost:8080/mentor-dashboard", start);
        assert!(ics.contains("UID:booking-00000000-0000-0000-0000-000000000000@mystic-mentors\r\n"));
        assert!(ics.contains("SUMMARY:Tarot\\, reading with Ada Lovelace\r\n"));
        assert!(ics.contains("SEQUENCE:2\r\n"));
        assert!(ics.contains("DTSTART:20270115T080000Z\r\n"));
        assert_eq!(
            serde_json::to_value(WriteBack {
                booking_id: Some(Uuid::nil()),
                group_session_id: None
            })
            .unwrap(),
            serde_json::json!({ "booking_id": Uuid::nil() })
        );
    }
}
