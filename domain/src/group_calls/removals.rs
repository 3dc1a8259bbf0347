//! What a removal from a group session's call means beyond the call: the mentor's reason decides
//! the money (`conduct`: the seat stays paid and completes with the session, so the mentor is
//! paid; `other`: the seat is cancelled and refunded in full), the removed participant is told
//! which (a notification here, an e-mail queued by the caller), and their seat shows as removed
//! wherever their sessions are listed.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::{
    Error, Result,
    booking::{
        BookingStatus,
        completion::COMPLAINT_WINDOW,
        lifecycle::{self, Cancelled},
    },
    money,
    notifications::{self, Kind},
    statuses::RemovalReason,
};

pub const REMOVED_TITLE: &str = "Removed from session";
/// A `remove-participant` without a reason, or with another.
pub const REASON_REQUIRED: &str = "Choose why you are removing this participant: conduct or other";

/// The mentor's reason, which every removal must name.
pub fn reason(raw: Option<RemovalReason>) -> Result<RemovalReason> {
    raw.ok_or_else(|| Error::validation(REASON_REQUIRED))
}

/// What the removed participant is told about their seat's money: the same sentence on their
/// screen, in the notification and in the e-mail. `refund_cents` is what goes back (`other` only).
pub fn money_sentence(reason: RemovalReason, refund_cents: i64) -> String {
    match reason {
        RemovalReason::Other if refund_cents > 0 => format!(
            "Your seat is cancelled and refunded in full: ${} goes back to your card.",
            money::format(refund_cents)
        ),
        RemovalReason::Other => "Your seat is cancelled; it was free, so there is nothing to refund.".to_string(),
        RemovalReason::Conduct => format!(
            "The mentor removed you for conduct, so your seat is not refunded. If you think this was unfair, \
             tell us within {} hours of the session through the contact form.",
            COMPLAINT_WINDOW.num_hours()
        ),
    }
}

/// The notification's text: the session's title, who removed them, and what happens to the money.
pub fn removed_message(session_title: &str, reason: RemovalReason, refund_cents: i64) -> String {
    format!(
        "The mentor removed you from the group session \"{session_title}\". {}",
        money_sentence(reason, refund_cents)
    )
}

/// Where the notification leads: the session's call page, which says they were removed.
pub fn removed_link(group_session_id: Uuid) -> String {
    format!("/group-video-call/{group_session_id}")
}

/// A removal settled: the seat (a booking) and, for `other`, its cancellation with the refund.
pub struct Settled {
    pub booking_id: Option<Uuid>,
    pub reason: RemovalReason,
    /// Cents going back to the seeker (0 for `conduct` or a free seat).
    pub refund_cents: i64,
    /// For `other`: the cancelled seat, with the refund to pay out.
    pub cancelled: Option<Cancelled>,
}

/// Settles the money of a removal the caller just recorded (in its transaction): for `other` the
/// seat is cancelled with a full refund (the caller queues its payout), for `conduct` it stays as
/// it is; either way the removed participant is told which once the transaction commits.
pub async fn settle(
    conn: &mut PgConnection,
    group_session_id: Uuid,
    user: Uuid,
    reason: RemovalReason,
    now: DateTime<Utc>,
) -> Result<Settled> {
    let seat = sqlx::query!(
        "SELECT b.id, g.title FROM bookings b JOIN group_sessions g ON g.id = b.group_session_id
         WHERE b.group_session_id = $1 AND b.user_id = $2 AND b.status = ANY($3) ORDER BY b.created_at DESC LIMIT 1",
        group_session_id,
        user,
        BookingStatus::ADMITTED as &[BookingStatus],
    )
    .fetch_optional(&mut *conn)
    .await?
    .map(|r| (r.id, r.title));
    let Some((booking_id, title)) = seat else {
        return Ok(Settled {
            booking_id: None,
            reason,
            refund_cents: 0,
            cancelled: None,
        });
    };
    let cancelled = match reason {
        RemovalReason::Other => lifecycle::cancel_removed_seat(&mut *conn, booking_id, now).await?,
        RemovalReason::Conduct => None,
    };
    let refund_cents = cancelled.as_ref().map_or(0, |c| c.policy.amount_cents);
    notifications::notify(
        conn,
        user,
        Kind::RemovedFromSession,
        REMOVED_TITLE,
        &removed_message(&title, reason, refund_cents),
        Some(&removed_link(group_session_id)),
    )
    .await?;
    Ok(Settled {
        booking_id: Some(booking_id),
        reason,
        refund_cents,
        cancelled,
    })
}

/// How `user` was removed from a session: the reason and what goes back to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Removal {
    pub reason: RemovalReason,
    /// Cents refunded for the seat (0 for `conduct` or a free seat).
    pub refund_cents: i64,
}

/// The removals of `user` among `session_ids`, by session.
pub async fn removed_from(db: impl PgExecutor<'_>, user: Uuid, session_ids: &[Uuid]) -> Result<HashMap<Uuid, Removal>> {
    let rows = sqlx::query!(
        r#"SELECT r.group_session_id, r.reason AS "reason: RemovalReason",
                  coalesce((SELECT sum(rf.amount_cents) FROM refunds rf JOIN bookings b ON b.id = rf.booking_id
                            WHERE b.group_session_id = r.group_session_id AND b.user_id = r.user_id AND rf.reason = $3), 0)::bigint
                    AS "refund_cents!"
           FROM group_call_removals r WHERE r.user_id = $1 AND r.group_session_id = ANY($2)"#,
        user,
        session_ids,
        money::RefundReason::RemovedByMentor as money::RefundReason,
    )
    .fetch_all(db)
    .await?;
    Ok(rows
        .into_iter()
        .map(|r| {
            let removal = Removal {
                reason: r.reason,
                refund_cents: r.refund_cents,
            };
            (r.group_session_id, removal)
        })
        .collect())
}

/// What a settled removal sets off, in its transaction: the e-mail saying what happens to the
/// seat's money and, for a seat refunded, the refund payout.
pub async fn queue_follow_ups(conn: &mut PgConnection, settled: &Settled) -> Result<()> {
    use crate::job_queue::{Job, email::EmailJob, refunds::PayRefund};
    let Some(booking_id) = settled.booking_id else {
        return Ok(());
    };
    EmailJob::RemovedFromSession {
        booking_id,
        reason: settled.reason,
        refund_cents: settled.refund_cents,
    }
    .enqueue(conn)
    .await?;
    if let Some(refund_id) = settled.cancelled.as_ref().and_then(|c| c.refund) {
        PayRefund { refund_id }.enqueue(conn).await?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_notice_names_the_session_says_what_happens_to_the_money_and_leads_to_its_call_page() {
        assert_eq!(
            removed_message("Full moon circle", RemovalReason::Other, 2000),
            "The mentor removed you from the group session \"Full moon circle\". Your seat is cancelled and \
             refunded in full: $20.00 goes back to your card."
        );
        assert_eq!(
            removed_message("Full moon circle", RemovalReason::Other, 0),
            "The mentor removed you from the group session \"Full moon circle\". Your seat is cancelled; it was \
             free, so there is nothing to refund."
        );
        let conduct = removed_message("Full moon circle", RemovalReason::Conduct, 0);
        assert!(
            conduct.contains("for conduct, so your seat is not refunded"),
            "{conduct}"
        );
        assert!(conduct.contains("within 24 hours"), "the complaint window: {conduct}");
        let id = Uuid::nil();
        assert_eq!(removed_link(id), format!("/group-video-call/{id}"));
    }

    #[test]
    fn every_removal_names_its_reason() {
        assert_eq!(reason(None).unwrap_err().to_string(), REASON_REQUIRED);
        assert_eq!(reason(Some(RemovalReason::Other)).unwrap(), RemovalReason::Other);
        assert!(RemovalReason::Other.refunds() && !RemovalReason::Conduct.refunds());
    }
}
