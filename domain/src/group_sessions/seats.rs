//! Taking a seat: a free session books it at once (confirmed); a paid one holds it for the
//! one-to-one hold time while the seeker pays through the one-to-one checkout. The database
//! decides races: `group_sessions_capacity` refuses the seat past the maximum, the partial unique
//! index `bookings_one_seat_per_seeker` keeps one seat per seeker, and `group_sessions_open`
//! refuses seats on a session cancelled or completed meanwhile.

use chrono::{DateTime, Utc};
use sqlx::PgConnection;
use uuid::Uuid;

use super::{
    sessions::{self, GroupSession},
    *,
};
use crate::{
    Error, Result,
    booking::{
        BookingStatus,
        bookings::{self, Booking},
        reservations,
    },
    error::OnConstraint,
    money::{self, PaymentStatus},
};

pub enum Joined {
    /// A free session: the seat is booked and confirmed now.
    Free(Booking),
    /// A paid session: the seat is held until `expires_at`.
    Held {
        booking: Booking,
        expires_at: DateTime<Utc>,
    },
    /// The seeker's seat (held or booked) from before.
    Existing(Booking),
}

/// A seeker's seat in a session, held or booked: the statuses of the partial unique index
/// `bookings (group_session_id, user_id)` (migrations; an ON CONFLICT below names them as the index does).
const SEAT_STATUSES: &[BookingStatus] = &[
    BookingStatus::Reserved,
    BookingStatus::Pending,
    BookingStatus::Confirmed,
    BookingStatus::Completed,
];

async fn existing_seat(tx: &mut PgConnection, session_id: Uuid, user_id: Uuid) -> Result<Option<Booking>> {
    let id: Option<Uuid> = sqlx::query_scalar!(
        "SELECT id FROM bookings WHERE group_session_id = $1 AND user_id = $2 AND status = ANY($3)",
        session_id,
        user_id,
        SEAT_STATUSES as &[BookingStatus],
    )
    .fetch_optional(&mut *tx)
    .await?;
    match id {
        Some(id) => bookings::find(&mut *tx, id).await,
        None => Ok(None),
    }
}

/// Takes (or returns) the seeker's seat in the session, in the caller's transaction.
pub async fn join(
    tx: &mut PgConnection,
    user_id: Uuid,
    session_id: Uuid,
    total_amount: Option<&str>,
    notes: Option<&str>,
    now: DateTime<Utc>,
) -> Result<Joined> {
    let g: GroupSession = sessions::find(&mut *tx, session_id)
        .await?
        .filter(|g| g.mentor_is_public)
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    if g.mentor_user_id == user_id {
        return Err(Error::validation(OWN_SESSION));
    }
    // A seeker the mentor removed (their seat refunded, or kept for conduct) takes no seat again.
    let removed = sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM group_call_removals WHERE group_session_id = $1 AND user_id = $2) AS "removed!""#,
        session_id,
        user_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    if removed {
        return Err(Error::conflict(REMOVED));
    }
    // The seeker's own lapsed hold (not swept yet) gives its seat back first.
    sqlx::query!(
        "UPDATE bookings SET status = $4, updated_at = now() WHERE group_session_id = $1 AND user_id = $2 \
         AND status = $5 AND hold_expires_at <= $3 \
         AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = bookings.id AND p.status = $6)",
        session_id,
        user_id,
        now,
        BookingStatus::Expired as BookingStatus,
        BookingStatus::Reserved as BookingStatus,
        PaymentStatus::Processing as PaymentStatus,
    )
    .execute(&mut *tx)
    .await?;
    if let Some(seat) = existing_seat(tx, session_id, user_id).await? {
        return Ok(Joined::Existing(seat));
    }
    if !sessions::is_upcoming(&g, now) {
        return Err(Error::conflict(NOT_OPEN));
    }
    if let Some(total) = total_amount.filter(|t| !t.trim().is_empty()) {
        let mismatch = || Error::validation(reservations::total_mismatch(g.service_price_cents));
        if money::parse(total, "").map_err(|_| mismatch())? != g.service_price_cents {
            return Err(mismatch());
        }
    }
    let notes = notes.map(str::trim).filter(|n| !n.is_empty()).map(str::to_string);
    if notes
        .as_deref()
        .is_some_and(|n| n.chars().count() > reservations::MAX_NOTES_CHARS)
    {
        return Err(Error::validation("Notes must be at most 2000 characters"));
    }
    let free = g.service_price_cents == 0;
    if !free {
        reservations::lock_holds_of(&mut *tx, user_id).await?;
    }
    let expires_at = now + SEAT_HOLD;
    let inserted: Option<Uuid> = sqlx::query_scalar!(
        "INSERT INTO bookings (user_id, mentor_id, service_id, status, scheduled_at, ends_at, total_cents, notes, \
         hold_expires_at, confirmed_at, earliest_scheduled_at, group_session_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $5, $11) \
         ON CONFLICT (group_session_id, user_id) \
         WHERE group_session_id IS NOT NULL AND status IN ('reserved', 'pending', 'confirmed', 'completed') DO NOTHING \
         RETURNING id",
        user_id,
        g.mentor_id,
        g.service_id,
        (if free {
            BookingStatus::Confirmed
        } else {
            BookingStatus::Reserved
        }) as BookingStatus,
        g.scheduled_at,
        g.ends_at,
        g.service_price_cents,
        notes,
        (!free).then_some(expires_at),
        free.then_some(now),
        g.id,
    )
    .fetch_optional(&mut *tx)
    .await
    .on_constraint("group_sessions_capacity", || Error::conflict(SESSION_FULL))
    .map_err(|e| match e {
        Error::Internal(inner) if is_constraint(&inner, "group_sessions_open") => Error::conflict(NOT_OPEN),
        other => other,
    })?;
    let Some(id) = inserted else {
        // A parallel request of the same seeker took the seat first.
        let seat = existing_seat(tx, session_id, user_id)
            .await?
            .ok_or_else(|| Error::conflict(SESSION_FULL))?;
        return Ok(Joined::Existing(seat));
    };
    if !free {
        let (total, _) = reservations::live_holds(&mut *tx, user_id, g.mentor_id, now).await?;
        reservations::check_hold_caps(total, 0)?;
    }
    let booking = bookings::find(&mut *tx, id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("seat vanished"))?;
    if free {
        reservations::notify_confirmed(&mut *tx, &booking, false).await?;
        Ok(Joined::Free(booking))
    } else {
        Ok(Joined::Held { booking, expires_at })
    }
}

fn is_constraint(err: &anyhow::Error, name: &str) -> bool {
    matches!(err.downcast_ref::<sqlx::Error>(), Some(sqlx::Error::Database(db)) if db.constraint() == Some(name))
}

/// The seats of a session to cancel with it, locked: live ones (refunded) and holds (released).
pub async fn lock_seats(tx: &mut PgConnection, session_id: Uuid) -> Result<Vec<(Uuid, BookingStatus)>> {
    Ok(sqlx::query!(
        r#"SELECT id, status AS "status: BookingStatus" FROM bookings
           WHERE group_session_id = $1 AND status = ANY($2) ORDER BY id FOR UPDATE"#,
        session_id,
        BookingStatus::HOLDING_TIME as &[BookingStatus],
    )
    .fetch_all(&mut *tx)
    .await?
    .into_iter()
    .map(|r| (r.id, r.status))
    .collect())
}

/// Releases every hold of a cancelled session, even one with a charge in flight: that charge then
/// settles after its hold had gone and is refunded in full.
pub async fn release_holds(tx: &mut PgConnection, session_id: Uuid) -> Result<u64> {
    Ok(sqlx::query!(
        "UPDATE bookings SET status = $2, updated_at = now() WHERE group_session_id = $1 AND status = $3",
        session_id,
        BookingStatus::Expired as BookingStatus,
        BookingStatus::Reserved as BookingStatus,
    )
    .execute(&mut *tx)
    .await?
    .rows_affected())
}
