//! Delete my account (issue 35): asked for with the password, it takes effect at once for everyone
//! else (sessions and sockets end, upcoming bookings are cancelled and refunded, holds released,
//! readings in progress ended, the wallet's balance given back to its cards, the mentor unlisted) and the person is removed [`GRACE_PERIOD`] later by a job, unless they keep
//! their account meanwhile. Removal anonymises the row rather than deleting it: messages in other
//! people's conversations, reviews and the financial records stay, without the person.

use std::path::Path;

use chrono::{DateTime, Duration, Utc};
use sqlx::{PgConnection, PgPool};
use uuid::Uuid;

use crate::accounts::{passwords, two_factor::INCORRECT_PASSWORD};
use crate::{
    Error, Result,
    booking::{
        BookingStatus,
        lifecycle::{self, Cancelled},
    },
    group_sessions::{GroupStatus, lifecycle as group_lifecycle},
    job_queue,
    money::PaymentStatus,
    payouts::PayoutStatus,
    readings::{self, ReadingStatus},
    wallet,
};

/// How long after asking the account is removed; until then the user can keep it.
pub const GRACE_PERIOD: Duration = Duration::days(14);
pub const ALREADY_SCHEDULED: &str = "Your account is already scheduled for deletion.";
pub const NOT_SCHEDULED: &str = "Your account is not scheduled for deletion.";
/// The cancellation reason the other side of a booking reads.
pub const SEEKER_LEFT: &str = "The seeker deleted their account";
pub const MENTOR_LEFT: &str = "The mentor deleted their account";
/// What a removed person is called wherever they still appear.
pub const DELETED_FIRST_NAME: &str = "Deleted";
pub const DELETED_LAST_NAME: &str = "user";
pub const DELETED_NAME: &str = "Deleted user";
/// Removed people's addresses end here: `.invalid` is reserved (RFC 2606), so no mail can arrive.
pub const DELETED_EMAIL_DOMAIN: &str = "deleted.invalid";
/// A removed mentor's profile text (the profile must keep 50 to 500 characters).
pub const DELETED_MENTOR_BIO: &str =
    "This mentor has deleted their account. Past sessions and reviews are kept for the records.";
/// No password hashes to this: a removed account cannot sign in.
const NO_PASSWORD: &str = "!deleted";

/// The e-mail address a removed user's row keeps: unique, and unable to receive mail.
pub fn deleted_email(user_id: Uuid) -> String {
    format!("deleted-{}@{DELETED_EMAIL_DOMAIN}", user_id.simple())
}

/// Whether `address` is one [`deleted_email`] made: mail to it is never sent.
pub fn is_removed_address(address: &str) -> bool {
    address
        .rsplit_once('@')
        .is_some_and(|(_, domain)| domain.eq_ignore_ascii_case(DELETED_EMAIL_DOMAIN))
}

/// What asking for deletion did, for the caller to queue the e-mails and refunds of.
pub struct Scheduled {
    pub at: DateTime<Utc>,
    /// Every booking cancelled (the user's as a seeker, and a mentor's with their seekers).
    pub cancelled: Vec<Cancelled>,
    /// The mentor's group sessions cancelled (their seats are in `cancelled`).
    pub group_sessions: Vec<Uuid>,
}

/// Schedules the user's removal [`GRACE_PERIOD`] from `now`, in the caller's transaction (which
/// also queues the removal). At once: their sessions end (the sessions trigger closes their
/// sockets), their calendar feed stops, their upcoming bookings are cancelled (their own by the
/// cancellation policy; a mentor's with full refunds, group sessions included), open holds are
/// released and a mentor profile is unlisted. A wrong password is 400 'Incorrect password.'.
pub async fn schedule(tx: &mut PgConnection, user_id: Uuid, password: &str, now: DateTime<Utc>) -> Result<Scheduled> {
    let row = sqlx::query!(
        "SELECT password_hash, deletion_scheduled_at FROM users WHERE id = $1 AND deleted_at IS NULL FOR UPDATE",
        user_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::unauthorized("Unauthorized"))?;
    if !passwords::verify(password, &row.password_hash).await? {
        return Err(Error::validation(INCORRECT_PASSWORD));
    }
    if row.deletion_scheduled_at.is_some() {
        return Err(Error::conflict(ALREADY_SCHEDULED));
    }
    // Whole seconds, as the removal task is scheduled (and as the database keeps it exactly).
    let at = job_queue::not_before(now + GRACE_PERIOD);
    let mentor = sqlx::query!(
        "SELECT id, is_active FROM mentors WHERE user_id = $1 FOR UPDATE",
        user_id
    )
    .fetch_optional(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE users SET deletion_scheduled_at = $2, deletion_mentor_was_active = $3, updated_at = now() WHERE id = $1",
        user_id,
        at,
        mentor.as_ref().map(|m| m.is_active),
    )
    .execute(&mut *tx)
    .await?;
    if let Some(m) = &mentor {
        sqlx::query!(
            "UPDATE mentors SET is_active = false, updated_at = now() WHERE id = $1",
            m.id
        )
        .execute(&mut *tx)
        .await?;
    }
    end_access(tx, user_id).await?;
    let mut cancelled = Vec::new();
    let mut group_sessions = Vec::new();
    // The user's own bookings as a seeker: refunded by the policy, as if they cancelled each.
    let own = sqlx::query_scalar!(
        "SELECT id FROM bookings WHERE user_id = $1 AND status = ANY($2) AND scheduled_at > $3 ORDER BY id",
        user_id,
        BookingStatus::LIVE as &[BookingStatus],
        now,
    )
    .fetch_all(&mut *tx)
    .await?;
    for id in own {
        cancelled.push(lifecycle::cancel_by_seeker(tx, user_id, id, true, Some(SEEKER_LEFT), now).await?);
    }
    release_holds(tx, user_id, mentor.as_ref().map(|m| m.id), now).await?;
    if let Some(m) = &mentor {
        // Group sessions first (each cancels and refunds its seats), then one-to-one sessions.
        let sessions = sqlx::query_scalar!(
            "SELECT id FROM group_sessions WHERE mentor_id = $1 AND status = $2 AND scheduled_at > $3 ORDER BY id",
            m.id,
            GroupStatus::Scheduled as GroupStatus,
            now,
        )
        .fetch_all(&mut *tx)
        .await?;
        for id in sessions {
            // A session inside its live window cannot be cancelled; it runs its course.
            match group_lifecycle::move_by_mentor(tx, user_id, id, GroupStatus::Cancelled, now).await {
                Ok(moved) => {
                    cancelled.extend(moved.cancelled_seats);
                    group_sessions.push(id);
                }
                Err(Error::Conflict(_)) => {}
                Err(err) => return Err(err),
            }
        }
        let theirs = sqlx::query_scalar!(
            "SELECT id FROM bookings WHERE mentor_id = $1 AND group_session_id IS NULL AND status = ANY($2)
             AND scheduled_at > $3 ORDER BY id",
            m.id,
            BookingStatus::LIVE as &[BookingStatus],
            now,
        )
        .fetch_all(&mut *tx)
        .await?;
        for id in theirs {
            cancelled.push(lifecycle::cancel_by_mentor(tx, user_id, id, Some(MENTOR_LEFT), now).await?);
        }
    }
    end_readings(tx, user_id, now).await?;
    wallet::refunds::refund_on_deletion(tx, user_id, now).await?;
    job_queue::account::enqueue_removal(tx, user_id, at).await?;
    job_queue::email::enqueue(
        tx,
        &job_queue::email::EmailJob::AccountDeletionScheduled { user_id, at },
    )
    .await?;
    Ok(Scheduled {
        at,
        cancelled,
        group_sessions,
    })
}

/// Ends the user's readings in progress, as seeker or mentor, billed up to this minute, so no
/// minute is charged past the request; readings still waiting for an answer expire by themselves.
async fn end_readings(tx: &mut PgConnection, user_id: Uuid, now: DateTime<Utc>) -> Result<()> {
    let active = sqlx::query_scalar!(
        "SELECT s.id FROM instant_sessions s JOIN mentors m ON m.id = s.mentor_id
         WHERE (s.seeker_id = $1 OR m.user_id = $1) AND s.status = $2 ORDER BY s.id",
        user_id,
        ReadingStatus::Active as ReadingStatus,
    )
    .fetch_all(&mut *tx)
    .await?;
    for id in active {
        readings::end(tx, user_id, id, now).await?;
    }
    Ok(())
}

/// Ends every way in: sessions (their sockets close through the sessions trigger), pending
/// two-factor sign-ins, the calendar feed's token and a mentor's calendar connection.
async fn end_access(tx: &mut PgConnection, user_id: Uuid) -> Result<()> {
    sqlx::query!("DELETE FROM sessions WHERE user_id = $1", user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query!("DELETE FROM two_factor_challenges WHERE user_id = $1", user_id)
        .execute(&mut *tx)
        .await?;
    sqlx::query!("DELETE FROM calendar_feeds WHERE user_id = $1", user_id)
        .execute(&mut *tx)
        .await?;
    // A mentor's CalDAV connection goes with its busy times, so their calendar is never read or written again.
    sqlx::query!(
        "DELETE FROM calendar_connections c USING mentors m WHERE c.mentor_id = m.id AND m.user_id = $1",
        user_id
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// Releases the user's open holds and the holds others have on a mentor's time (a hold whose
/// charge is in flight stays: the payment settles it, and a late charge is refunded).
async fn release_holds(
    tx: &mut PgConnection,
    user_id: Uuid,
    mentor_id: Option<Uuid>,
    now: DateTime<Utc>,
) -> Result<()> {
    sqlx::query!(
        "UPDATE bookings SET status = $3, hold_expires_at = least(hold_expires_at, $4), updated_at = now()
         WHERE (user_id = $1 OR mentor_id = $2) AND status = $5
           AND NOT EXISTS (SELECT 1 FROM payments p WHERE p.booking_id = bookings.id AND p.status = $6)",
        user_id,
        mentor_id,
        BookingStatus::Expired as BookingStatus,
        now,
        BookingStatus::Reserved as BookingStatus,
        PaymentStatus::Processing as PaymentStatus,
    )
    .execute(&mut *tx)
    .await?;
    Ok(())
}

/// 'Keep my account': the scheduled deletion is called off and a mentor profile is listed again
/// if it was before (its approval status never changed). 409 when none is scheduled.
pub async fn cancel(tx: &mut PgConnection, user_id: Uuid) -> Result<()> {
    let was_active = sqlx::query_scalar!(
        "SELECT deletion_mentor_was_active FROM users
         WHERE id = $1 AND deleted_at IS NULL AND deletion_scheduled_at IS NOT NULL FOR UPDATE",
        user_id
    )
    .fetch_optional(&mut *tx)
    .await?
    .ok_or_else(|| Error::conflict(NOT_SCHEDULED))?;
    sqlx::query!(
        "UPDATE users SET deletion_scheduled_at = NULL, deletion_mentor_was_active = NULL, updated_at = now() WHERE id = $1",
        user_id
    )
    .execute(&mut *tx)
    .await?;
    if let Some(active) = was_active {
        sqlx::query!(
            "UPDATE mentors SET is_active = $2, updated_at = now() WHERE user_id = $1",
            user_id,
            active
        )
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// What removal left for the caller to delete outside the transaction: uploaded files (public
/// URLs) and data-export archives (names inside `EXPORT_DIR`).
#[derive(Debug, Default)]
pub struct Removed {
    pub upload_urls: Vec<String>,
    pub export_files: Vec<String>,
}

/// Removes the person behind `user_id` when their deletion date has come, in the caller's
/// transaction (one per user). `None` when there is nothing to do: no deletion scheduled (kept),
/// not due yet, or removed already. Safe to run twice.
pub async fn remove_if_due(tx: &mut PgConnection, user_id: Uuid, now: DateTime<Utc>) -> Result<Option<Removed>> {
    let Some(row) = sqlx::query!(
        "SELECT deletion_scheduled_at, deleted_at, profile_image_url FROM users WHERE id = $1 FOR UPDATE",
        user_id
    )
    .fetch_optional(&mut *tx)
    .await?
    else {
        return Ok(None);
    };
    if row.deleted_at.is_some() || row.deletion_scheduled_at.is_none_or(|at| at > now) {
        return Ok(None);
    }
    let mut upload_urls = sqlx::query_scalar!("SELECT path FROM uploads WHERE owner = $1", user_id)
        .fetch_all(&mut *tx)
        .await?;
    upload_urls.extend(row.profile_image_url);
    let export_files = sqlx::query_scalar!(
        r#"SELECT file_name AS "file_name!" FROM data_exports WHERE user_id = $1 AND file_name IS NOT NULL"#,
        user_id
    )
    .fetch_all(&mut *tx)
    .await?;
    let mentor = sqlx::query!(
        "SELECT id, profile_image_url FROM mentors WHERE user_id = $1 FOR UPDATE",
        user_id
    )
    .fetch_optional(&mut *tx)
    .await?;
    sqlx::query!(
        "UPDATE users SET email = $2, first_name = $3, last_name = $4, password_hash = $5, bio = NULL,
         time_zone = NULL, profile_image_url = NULL, stripe_subscription_id = NULL, is_active = false,
         deleted_at = $6, deletion_mentor_was_active = NULL, updated_at = now() WHERE id = $1",
        user_id,
        deleted_email(user_id),
        DELETED_FIRST_NAME,
        DELETED_LAST_NAME,
        NO_PASSWORD,
        now,
    )
    .execute(&mut *tx)
    .await?;
    end_access(tx, user_id).await?;
    // A balance topped up during the grace period goes back to its cards too.
    wallet::refunds::refund_on_deletion(tx, user_id, now).await?;
    sqlx::query!(
        r#"WITH uploads AS (DELETE FROM uploads WHERE owner = $1),
                push_subscriptions AS (DELETE FROM push_subscriptions WHERE user_id = $1),
                push_preferences AS (DELETE FROM push_preferences WHERE user_id = $1),
                favorites AS (DELETE FROM favorites WHERE user_id = $1),
                notifications AS (DELETE FROM notifications WHERE user_id = $1),
                sign_in_devices AS (DELETE FROM sign_in_devices WHERE user_id = $1),
                recovery_codes AS (DELETE FROM two_factor_recovery_codes WHERE user_id = $1),
                two_factor AS (DELETE FROM two_factor WHERE user_id = $1),
                email_tokens AS (DELETE FROM email_tokens WHERE user_id = $1),
                email_preferences AS (DELETE FROM email_preferences WHERE user_id = $1),
                viewers AS (DELETE FROM conversation_viewers WHERE user_id = $1),
                exports AS (DELETE FROM data_exports WHERE user_id = $1)
           SELECT 1 AS "done!""#,
        user_id
    )
    .fetch_one(&mut *tx)
    .await?;
    if let Some(m) = mentor {
        upload_urls.extend(m.profile_image_url);
        sqlx::query!(
            "UPDATE mentors SET display_name = $2, bio = $3, profile_image_url = NULL, is_active = false,
             updated_at = now() WHERE id = $1",
            m.id,
            DELETED_NAME,
            DELETED_MENTOR_BIO,
        )
        .execute(&mut *tx)
        .await?;
        sqlx::query!("DELETE FROM favorites WHERE mentor_id = $1", m.id)
            .execute(&mut *tx)
            .await?;
        // Money still owed goes out with the next batch whatever the mentor's minimum; the details
        // it is sent to stay until then ([`release_payout_details`]).
        sqlx::query!(
            "UPDATE payout_preferences SET minimum_payout_cents = 0, notes = NULL WHERE mentor_id = $1",
            m.id
        )
        .execute(&mut *tx)
        .await?;
        release_payout_details(tx, Some(m.id)).await?;
    }
    upload_urls.sort();
    upload_urls.dedup();
    Ok(Some(Removed {
        upload_urls,
        export_files,
    }))
}

/// Deletes the payout details of removed mentors (of `mentor_id`, or every one) once nothing is
/// owed to them any longer: no payout waits to be marked paid and no paid session waits for a
/// batch. Returns how many went.
pub async fn release_payout_details(conn: &mut PgConnection, mentor_id: Option<Uuid>) -> Result<u64> {
    Ok(sqlx::query!(
        "DELETE FROM payout_preferences pp USING mentors m, users u
         WHERE pp.mentor_id = m.id AND u.id = m.user_id AND u.deleted_at IS NOT NULL
           AND ($1::uuid IS NULL OR m.id = $1)
           AND NOT EXISTS (SELECT 1 FROM payouts po WHERE po.mentor_id = m.id AND po.status <> $2)
           AND NOT EXISTS (SELECT 1 FROM bookings b JOIN payments p ON p.booking_id = b.id AND p.status = $3
                           WHERE b.mentor_id = m.id AND b.status = ANY($4)
                             AND NOT EXISTS (SELECT 1 FROM payout_bookings pb WHERE pb.booking_id = b.id))",
        mentor_id,
        PayoutStatus::Paid as PayoutStatus,
        PaymentStatus::Approved as PaymentStatus,
        &[BookingStatus::Confirmed, BookingStatus::Completed] as &[BookingStatus],
    )
    .execute(conn)
    .await?
    .rows_affected())
}

/// The users whose deletion date has passed but who are not removed (their task was lost).
pub async fn overdue(pool: &PgPool, now: DateTime<Utc>) -> Result<Vec<Uuid>> {
    Ok(sqlx::query_scalar!(
        "SELECT id FROM users WHERE deletion_scheduled_at <= $1 AND deleted_at IS NULL ORDER BY deletion_scheduled_at",
        now
    )
    .fetch_all(pool)
    .await?)
}

/// Deletes the export archives a removal left (see [`Removed::export_files`]).
pub async fn delete_export_files(export_dir: &Path, names: &[String]) -> Result<()> {
    for name in names {
        super::data_export::remove_file(export_dir, name).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fourteen_days_of_grace() {
        assert_eq!(GRACE_PERIOD, Duration::days(14));
    }

    #[test]
    fn a_removed_address_is_unique_and_undeliverable() {
        let a = deleted_email(Uuid::new_v4());
        let b = deleted_email(Uuid::new_v4());
        assert_ne!(a, b);
        assert!(a.ends_with("@deleted.invalid"));
        assert!(is_removed_address(&a));
        assert!(!is_removed_address("ann@example.com"));
        assert!(!is_removed_address("deleted.invalid@example.com"));
        assert!(a.len() <= 254);
        assert_eq!(format!("{DELETED_FIRST_NAME} {DELETED_LAST_NAME}"), DELETED_NAME);
    }

    #[test]
    fn a_removed_mentors_text_fits_the_profile_rules() {
        let n = DELETED_MENTOR_BIO.chars().count();
        assert!((50..=500).contains(&n), "{n}");
    }
}
