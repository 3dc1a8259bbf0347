//! Vetting: a new mentor profile awaits an administrator's review before anyone else sees or
//! books it. Approving lists it; rejecting gives the mentor the reason, and the mentor may edit
//! the profile and send it for review again.
//!
//! Every decision is audited, and the mentor hears of it by notification and e-mail, all in the
//! decision's own transaction.

use serde_json::json;
use sqlx::PgConnection;
use uuid::Uuid;

use super::mentors::{self, Mentor};
use crate::{
    Error, Result,
    audit::{self, AuditEntry},
    choice::Choice,
    job_queue::email::{self, EmailJob},
    notifications, text,
};

/// The approval statuses belong to the mentor's row (`mentors`); vetting moves between them.
pub use super::mentors::ApprovalStatus;

/// The longest rejection reason kept, in characters.
pub const MAX_REASON_CHARS: usize = 1000;

pub const INVALID_STATUS: &str = "approvalStatus must be pending, approved or rejected";
pub const REASON_REQUIRED: &str = "A reason is required to reject a mentor";
pub const REASON_TOO_LONG: &str = "Reason must be at most 1000 characters";
pub const NOT_REJECTED: &str = "Only a rejected profile can be resubmitted";
pub const ALREADY_REJECTED: &str = "This mentor is already rejected";

/// An `approvalStatus` filter: one of [`ApprovalStatus`], or [`INVALID_STATUS`].
pub fn parse_status(raw: &Choice<ApprovalStatus>) -> Result<ApprovalStatus> {
    raw.value(INVALID_STATUS)
}

/// A rejection's reason: 1 to [`MAX_REASON_CHARS`] characters once trimmed, newlines allowed.
pub fn reason(raw: Option<&str>) -> Result<String> {
    let raw = raw.unwrap_or("");
    text::multi_line(raw, "Reason")?;
    let r = raw.trim();
    if r.is_empty() {
        return Err(Error::validation(REASON_REQUIRED));
    }
    if r.chars().count() > MAX_REASON_CHARS {
        return Err(Error::validation(REASON_TOO_LONG));
    }
    Ok(r.to_string())
}

/// The mentor, locked for a decision.
async fn locked(tx: &mut PgConnection, mentor_id: Uuid) -> Result<Mentor> {
    let found = sqlx::query_scalar!("SELECT id FROM mentors WHERE id = $1 FOR UPDATE", mentor_id)
        .fetch_optional(&mut *tx)
        .await?;
    if found.is_none() {
        return Err(Error::not_found(mentors::NOT_FOUND));
    }
    mentors::find(&mut *tx, mentor_id)
        .await?
        .ok_or_else(|| Error::not_found(mentors::NOT_FOUND))
}

async fn reread(tx: &mut PgConnection, mentor_id: Uuid) -> Result<Mentor> {
    mentors::find(&mut *tx, mentor_id)
        .await?
        .ok_or_else(|| Error::not_found(mentors::NOT_FOUND))
}

/// An administrator approves a pending (or rejected) profile: it is listed from the commit on.
/// Approving an approved profile changes nothing and tells nobody.
pub async fn approve(tx: &mut PgConnection, admin_id: Uuid, mentor_id: Uuid) -> Result<Mentor> {
    let before = locked(tx, mentor_id).await?;
    if before.approval_status == ApprovalStatus::Approved {
        return Ok(before);
    }
    sqlx::query!(
        "UPDATE mentors SET approval_status = $3, rejection_reason = NULL, reviewed_at = now(), \
         reviewed_by = $2, updated_at = now() WHERE id = $1",
        mentor_id,
        admin_id,
        ApprovalStatus::Approved as ApprovalStatus,
    )
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut *tx,
        AuditEntry {
            admin_id,
            action: "mentor.approve",
            object_type: "mentor",
            object_id: mentor_id.to_string(),
            before: Some(json!({ "approvalStatus": before.approval_status })),
            after: Some(json!({ "approvalStatus": ApprovalStatus::Approved })),
        },
    )
    .await?;
    notifications::notify(
        &mut *tx,
        before.user_id,
        notifications::Kind::MentorApproved,
        "Your mentor profile is approved",
        "Your profile is now listed: seekers can find and book you.",
        Some("/mentor-dashboard"),
    )
    .await?;
    email::enqueue(&mut *tx, &EmailJob::MentorApproved { mentor_id }).await?;
    reread(tx, mentor_id).await
}

/// An administrator turns a profile down (pending, or approved: it stops being listed), with a
/// reason the mentor reads. A rejected profile cannot be rejected again (409).
pub async fn reject(
    tx: &mut PgConnection,
    admin_id: Uuid,
    mentor_id: Uuid,
    raw_reason: Option<&str>,
) -> Result<Mentor> {
    let reason = reason(raw_reason)?;
    let before = locked(tx, mentor_id).await?;
    if before.approval_status == ApprovalStatus::Rejected {
        return Err(Error::conflict(ALREADY_REJECTED));
    }
    sqlx::query!(
        "UPDATE mentors SET approval_status = $4, rejection_reason = $3, reviewed_at = now(), \
         reviewed_by = $2, updated_at = now() WHERE id = $1",
        mentor_id,
        admin_id,
        &reason,
        ApprovalStatus::Rejected as ApprovalStatus,
    )
    .execute(&mut *tx)
    .await?;
    audit::record(
        &mut *tx,
        AuditEntry {
            admin_id,
            action: "mentor.reject",
            object_type: "mentor",
            object_id: mentor_id.to_string(),
            before: Some(json!({ "approvalStatus": before.approval_status })),
            after: Some(json!({ "approvalStatus": ApprovalStatus::Rejected, "reason": reason })),
        },
    )
    .await?;
    notifications::notify(
        &mut *tx,
        before.user_id,
        notifications::Kind::MentorRejected,
        "Your mentor profile was not approved",
        &format!("Reason: {reason} You can edit your profile and resubmit it for review."),
        Some("/mentor-dashboard"),
    )
    .await?;
    email::enqueue(&mut *tx, &EmailJob::MentorRejected { mentor_id, reason }).await?;
    reread(tx, mentor_id).await
}

/// A rejected mentor sends their (edited) profile for review again: pending from now on.
pub async fn resubmit(tx: &mut PgConnection, user_id: Uuid) -> Result<Mentor> {
    let own = mentors::own(&mut *tx, user_id).await?;
    let mentor = locked(tx, own.id).await?;
    if mentor.approval_status != ApprovalStatus::Rejected {
        return Err(Error::conflict(NOT_REJECTED));
    }
    sqlx::query!(
        "UPDATE mentors SET approval_status = $2, rejection_reason = NULL, submitted_at = now(), \
         updated_at = now() WHERE id = $1",
        mentor.id,
        ApprovalStatus::Pending as ApprovalStatus,
    )
    .execute(&mut *tx)
    .await?;
    reread(tx, mentor.id).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_parse_exactly() {
        let parse = |raw: &str| parse_status(&raw.parse().unwrap());
        assert_eq!(parse("pending").unwrap(), ApprovalStatus::Pending);
        assert_eq!(parse(" approved ").unwrap(), ApprovalStatus::Approved);
        assert_eq!(parse("rejected").unwrap(), ApprovalStatus::Rejected);
        for bad in ["", "Approved", "active", "all"] {
            assert_eq!(parse(bad).unwrap_err().to_string(), INVALID_STATUS, "{bad}");
        }
    }

    #[test]
    fn a_reason_takes_1_to_1000_characters() {
        assert_eq!(reason(None).unwrap_err().to_string(), REASON_REQUIRED);
        assert_eq!(reason(Some("   ")).unwrap_err().to_string(), REASON_REQUIRED);
        assert_eq!(reason(Some(" x ")).unwrap(), "x");
        assert!(reason(Some(&"é".repeat(MAX_REASON_CHARS))).is_ok());
        assert_eq!(
            reason(Some(&"r".repeat(MAX_REASON_CHARS + 1))).unwrap_err().to_string(),
            REASON_TOO_LONG
        );
        assert!(reason(Some("line one\nline two")).is_ok());
        assert!(reason(Some("bad\u{202E}")).is_err());
    }

    #[test]
    fn the_migration_knows_every_status() {
        let migration = include_str!("../../../migrations/20261126000100_mentor_vetting.sql");
        assert!(migration.contains("CHECK (approval_status IN ('pending', 'approved', 'rejected'))"));
        assert!(migration.contains("'mentor_rejected'"));
        // The listing filters on what the covering index holds, so counting stays an index-only scan.
        assert!(
            migration.contains("WHERE is_active AND approval_status = 'approved' AND from_price_cents IS NOT NULL")
        );
        assert!(
            include_str!("search.rs")
                .contains("m.is_active AND m.approval_status = 'approved' AND m.from_price_cents IS NOT NULL")
        );
    }
}
