//! Which e-mail to send, as queued for the worker: the one definition of the `emails` queue's
//! payload. Business rules queue it with [`enqueue`] inside their transaction; the worker's
//! `jobs::email` renders and sends it.

use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use super::Job;
use crate::Result;

/// The worker's e-mail queue; never rename it (queued tasks keep the old one).
pub const QUEUE: &str = "emails";
/// Sends tried (first try plus retries with backoff) before the task is marked failed.
pub const MAX_ATTEMPTS: usize = 5;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum EmailJob {
    VerifyEmail {
        user_id: Uuid,
        /// Where the new user goes after verifying and signing in (a path of this app, e.g.
        /// `/become-mentor`); absent in older jobs and for plain sign-ups.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        next: Option<String>,
    },
    ResetPassword {
        user_id: Uuid,
    },
    /// Someone signed up with an address that already has this account: a verified owner hears
    /// about it (with sign-in and reset links), an unverified one gets a fresh verification link.
    AccountExists {
        user_id: Uuid,
    },
    /// The account was signed in to from a browser and address not used for it lately
    /// (`accounts::sessions::NEW_DEVICE_AFTER`); sent whatever the preferences say.
    NewSignIn {
        user_id: Uuid,
        user_agent: String,
        address: String,
        at: chrono::DateTime<chrono::Utc>,
    },
    /// A contact-form message to the support address.
    Contact {
        message_id: Uuid,
    },
    /// The seeker's booking confirmation and the mentor's new booking, each with a calendar invitation.
    BookingConfirmed {
        booking_id: Uuid,
    },
    /// Both sides: the updated invitation.
    BookingRescheduled {
        booking_id: Uuid,
    },
    /// Both sides: the cancellation, with the seeker's refund.
    BookingCancelled {
        booking_id: Uuid,
        refund_cents: i64,
        /// Who cancelled, so each side reads it from where they stand (absent in older jobs: the seeker).
        #[serde(default)]
        by_mentor: bool,
    },
    /// The seeker the mentor removed from a group session's call: why, and what happens to the
    /// seat's money (`refund_cents` goes back for `other`; nothing for `conduct`).
    RemovedFromSession {
        booking_id: Uuid,
        reason: crate::statuses::RemovalReason,
        refund_cents: i64,
    },
    /// Both sides, 24 hours ("24 hours") or 1 hour ("1 hour") before the start.
    BookingReminder {
        booking_id: Uuid,
        lead: String,
    },
    /// The seeker, after a completed session.
    ReviewRequest {
        booking_id: Uuid,
    },
    /// The mentor: the batch prepared a payout .
    PayoutCreated {
        payout_id: Uuid,
    },
    /// The mentor: an admin marked the payout paid .
    PayoutPaid {
        payout_id: Uuid,
    },
    /// The mentor: their payout destination changed (old and new masked).
    /// Sent whatever the preferences say: the change may not be theirs.
    PayoutDestinationChanged {
        mentor_id: Uuid,
        old: String,
        new: String,
    },
    /// The mentor: an administrator approved their profile.
    MentorApproved {
        mentor_id: Uuid,
    },
    /// The mentor: an administrator rejected their profile, with the reason given then.
    MentorRejected {
        mentor_id: Uuid,
        reason: String,
    },
    /// The seeker: a refund was paid back, with its receipt attached (sent whatever the preferences:
    /// receipts are transactional); the mentor too when the refund was decided about their session.
    RefundIssued {
        refund_id: Uuid,
    },
    /// The mentor: a seeker reported a problem with their session.
    ComplaintOpened {
        complaint_id: Uuid,
    },
    /// Both parties: a complaint's outcome and the amount refunded.
    ComplaintDecided {
        complaint_id: Uuid,
    },
    /// One user: an administrator's announcement, when their "Marketing emails" preference is on
    /// (queued by the announcement fan-out with the user's notification).
    Announcement {
        announcement_id: Uuid,
        user_id: Uuid,
    },
    /// The user: their data export is ready to download (sent whatever the preferences say).
    DataExportReady {
        export_id: Uuid,
    },
    /// The user: their account will be removed on `at` unless they keep it (sent whatever the preferences say).
    AccountDeletionScheduled {
        user_id: Uuid,
        at: chrono::DateTime<chrono::Utc>,
    },
}

impl EmailJob {
    /// Its kind as queued (`booking_cancelled`): the payload's `kind` tag.
    pub fn kind(&self) -> String {
        serde_json::to_value(self)
            .ok()
            .and_then(|v| v.get("kind")?.as_str().map(str::to_string))
            .unwrap_or_default()
    }
}

/// Queues `job` in the caller's transaction: it is sent if and only if the transaction commits.
pub async fn enqueue(conn: &mut PgConnection, job: &EmailJob) -> Result<()> {
    job.enqueue(conn).await
}

impl Job for EmailJob {
    const QUEUE: &'static str = QUEUE;
    const MAX_ATTEMPTS: usize = MAX_ATTEMPTS;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Tasks already queued carry these shapes: a change that breaks one fails here.
    #[test]
    fn queued_tasks_keep_decoding() {
        let id = Uuid::nil();
        for (json, job) in [
            (
                serde_json::json!({"kind": "payout_created", "payout_id": id}),
                EmailJob::PayoutCreated { payout_id: id },
            ),
            (
                serde_json::json!({"kind": "mentor_rejected", "mentor_id": id, "reason": "r"}),
                EmailJob::MentorRejected {
                    mentor_id: id,
                    reason: "r".into(),
                },
            ),
            (
                serde_json::json!({"kind": "booking_reminder", "booking_id": id, "lead": "1 hour"}),
                EmailJob::BookingReminder {
                    booking_id: id,
                    lead: "1 hour".into(),
                },
            ),
        ] {
            assert_eq!(serde_json::to_value(&job).unwrap(), json);
            assert_eq!(serde_json::from_value::<EmailJob>(json).unwrap(), job);
        }
    }

    #[test]
    fn the_kind_is_the_queued_tag() {
        let id = Uuid::nil();
        let cancelled = EmailJob::BookingCancelled {
            booking_id: id,
            refund_cents: 0,
            by_mentor: true,
        };
        assert_eq!(cancelled.kind(), "booking_cancelled");
        assert_eq!(EmailJob::ResetPassword { user_id: id }.kind(), "reset_password");
    }

    /// A cancellation queued before `by_mentor` existed was the seeker's.
    #[test]
    fn an_old_cancellation_without_by_mentor_is_the_seekers() {
        let id = Uuid::nil();
        let old = serde_json::json!({"kind": "booking_cancelled", "booking_id": id, "refund_cents": 2500});
        assert_eq!(
            serde_json::from_value::<EmailJob>(old).unwrap(),
            EmailJob::BookingCancelled {
                booking_id: id,
                refund_cents: 2500,
                by_mentor: false
            }
        );
    }
}
