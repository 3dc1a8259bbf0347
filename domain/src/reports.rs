//! Reports of abuse: a signed-in user reports a mentor, a user, a message, a review or a group
//! session they can see; admins resolve a report (hiding the review or message, deactivating the
//! user behind it) or dismiss it. Every admin action is audited.

use chrono::{DateTime, Duration, Utc};
use serde_json::json;
use sqlx::{FromRow, PgConnection, PgPool};
use uuid::Uuid;

use crate::{Error, Result, admin::users as admin_users, audit, choice::Choice};

pub const TARGET_NOT_FOUND: &str = "We could not find what you are reporting";
pub const INVALID_TARGET_TYPE: &str =
    "Please choose what you are reporting: mentor, user, message, review or group_session";
pub const INVALID_REASON: &str =
    "Please choose a reason: harassment, scam_or_fraud, inappropriate_content, no_show or other";
pub const DETAILS_REQUIRED: &str = "Please describe the problem";
pub const DETAILS_TOO_LONG: &str = "Details must be at most 2000 characters";
pub const ALREADY_REPORTED: &str = "You have already reported this";
pub const TOO_MANY_REPORTS: &str = "You have sent too many reports today. Please try again tomorrow.";
pub const NOT_FOUND: &str = "Report not found";
pub const ALREADY_HANDLED: &str = "This report has already been handled";
pub const INVALID_STATUS: &str = "Status must be open, resolved or dismissed";
pub const INVALID_ACTION: &str = "Action must be one of none, hide_review, hide_message, deactivate_user";
pub const ACTION_DOES_NOT_FIT: &str = "That action does not fit what was reported";
pub const NOTE_TOO_LONG: &str = "Note must be at most 1000 characters";

pub const MAX_DETAILS_CHARS: usize = 2000;
pub const MAX_NOTE_CHARS: usize = 1000;
/// At most this many reports from one user in any [`REPORT_WINDOW`].
pub const MAX_REPORTS_PER_WINDOW: i64 = 20;
pub const REPORT_WINDOW: Duration = Duration::hours(24);

/// The advisory lock space of a reporter's count (first key of `pg_advisory_xact_lock(int, int)`).
const LOCK_SPACE: i32 = 0x5245_5054; // "REPT"

closed_set! {
    /// What a report is about.
    #[cfg_attr(feature = "openapi", oai(rename = "ReportTargetType"))]
    pub enum TargetType ("report target") {
        Mentor = "mentor",
        User = "user",
        Message = "message",
        Review = "review",
        GroupSession = "group_session",
    }
}

closed_set! {
    /// Why something was reported.
    #[cfg_attr(feature = "openapi", oai(rename = "ReportReason"))]
    pub enum Reason ("report reason") {
        Harassment = "harassment",
        ScamOrFraud = "scam_or_fraud",
        InappropriateContent = "inappropriate_content",
        NoShow = "no_show",
        Other = "other",
    }
}

closed_set! {
    /// Where a report stands.
    #[cfg_attr(feature = "openapi", oai(rename = "ReportStatus"))]
    pub enum Status ("report status") {
        Open = "open",
        Resolved = "resolved",
        Dismissed = "dismissed",
    }
}

closed_set! {
    /// What the admin did when resolving a report.
    #[cfg_attr(feature = "openapi", oai(rename = "ReportAction"))]
    pub enum Action ("report action") {
        None = "none",
        HideReview = "hide_review",
        HideMessage = "hide_message",
        DeactivateUser = "deactivate_user",
    }
}

#[derive(Clone, Debug, FromRow)]
pub struct Report {
    pub id: Uuid,
    pub reporter_id: Uuid,
    pub target_type: TargetType,
    pub target_id: Uuid,
    pub reason: Reason,
    pub details: Option<String>,
    pub status: Status,
    pub action: Option<Action>,
    pub note: Option<String>,
    pub handled_at: Option<DateTime<Utc>>,
    pub created_at: DateTime<Utc>,
}

/// `sqlx::query_as!(Report, …)` whose statement names a report's columns between `$head` and `$tail`.
macro_rules! report_query {
    ($head:literal, $tail:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Report,
            $head
                + r#"id, reporter_id, target_type AS "target_type: TargetType", target_id, reason AS "reason: Reason",
                     details, status AS "status: Status", action AS "action: Action", note, handled_at, created_at"#
                + $tail
            $(, $arg)*
        )
    };
}

pub struct NewReport<'a> {
    pub target_type: Option<&'a Choice<TargetType>>,
    pub target_id: &'a str,
    pub reason: Option<&'a Choice<Reason>>,
    pub details: Option<&'a str>,
}

/// Whether `reporter` can see the target: a listed mentor, any user id, a message of a
/// conversation they are in, a review shown on a listed mentor's page, a listed mentor's group session.
/// Every statement is compile-checked (`query_scalar!` counts its parameters), so no two callers can
/// bind different numbers of values to one prepared statement of a connection.
async fn can_see(conn: &mut PgConnection, reporter: Uuid, target: TargetType, id: Uuid) -> Result<bool> {
    let seen = match target {
        TargetType::Mentor => {
            sqlx::query_scalar!(
                r#"SELECT EXISTS (SELECT 1 FROM mentors m JOIN users u ON u.id = m.user_id
                   WHERE m.id = $1 AND m.is_active AND m.approval_status = 'approved' AND u.is_active) AS "seen!""#,
                id
            )
            .fetch_one(conn)
            .await?
        }
        // Any user id: a report of an unknown one is stored like any other, so the answer never
        // tells whether a user exists.
        TargetType::User => true,
        TargetType::Message => {
            sqlx::query_scalar!(
                r#"SELECT EXISTS (SELECT 1 FROM messages x JOIN conversations c ON c.id = x.conversation_id
                   JOIN mentors m ON m.id = c.mentor_id WHERE x.id = $1 AND x.hidden_at IS NULL
                   AND (c.user_id = $2 OR m.user_id = $2)) AS "seen!""#,
                id,
                reporter
            )
            .fetch_one(conn)
            .await?
        }
        TargetType::Review => {
            sqlx::query_scalar!(
                r#"SELECT EXISTS (SELECT 1 FROM reviews r JOIN mentors m ON m.id = r.mentor_id
                   JOIN users u ON u.id = m.user_id WHERE r.id = $1 AND r.hidden_at IS NULL
                   AND m.is_active AND m.approval_status = 'approved' AND u.is_active) AS "seen!""#,
                id
            )
            .fetch_one(conn)
            .await?
        }
        TargetType::GroupSession => {
            sqlx::query_scalar!(
                r#"SELECT EXISTS (SELECT 1 FROM group_sessions g JOIN mentors m ON m.id = g.mentor_id
                   JOIN users u ON u.id = m.user_id WHERE g.id = $1
                   AND m.is_active AND m.approval_status = 'approved' AND u.is_active) AS "seen!""#,
                id
            )
            .fetch_one(conn)
            .await?
        }
    };
    Ok(seen)
}

/// Files a report: 404 for what the reporter cannot see (a user id is never refused), 409 for a second report of the same
/// thing, 429 past [`MAX_REPORTS_PER_WINDOW`] in [`REPORT_WINDOW`].
pub async fn create(pool: &PgPool, reporter: Uuid, input: NewReport<'_>) -> Result<Report> {
    let target = Choice::required(input.target_type, INVALID_TARGET_TYPE)?;
    let reason = Choice::required(input.reason, INVALID_REASON)?;
    let details = input.details.map(str::trim).filter(|d| !d.is_empty());
    if reason == Reason::Other && details.is_none() {
        return Err(Error::validation(DETAILS_REQUIRED));
    }
    if details.is_some_and(|d| d.chars().count() > MAX_DETAILS_CHARS) {
        return Err(Error::validation(DETAILS_TOO_LONG));
    }
    let target_id: Uuid = input
        .target_id
        .trim()
        .parse()
        .map_err(|_| Error::not_found(TARGET_NOT_FOUND))?;
    let mut tx = pool.begin().await?;
    if !can_see(&mut tx, reporter, target, target_id).await? {
        return Err(Error::not_found(TARGET_NOT_FOUND));
    }
    // One reporter's reports take turns, so parallel ones cannot all pass the count.
    sqlx::query!(
        "SELECT pg_advisory_xact_lock($1, hashtext($2::uuid::text))",
        LOCK_SPACE,
        reporter,
    )
    .execute(&mut *tx)
    .await?;
    let recent: i64 = sqlx::query_scalar!(
        "SELECT count(*) AS \"count!\" FROM reports WHERE reporter_id = $1 AND created_at > now() - $2::interval",
        reporter,
        crate::sql::interval(REPORT_WINDOW),
    )
    .fetch_one(&mut *tx)
    .await?;
    if recent >= MAX_REPORTS_PER_WINDOW {
        return Err(Error::TooManyRequests(TOO_MANY_REPORTS.into()));
    }
    let report: Option<Report> = report_query!(
        "INSERT INTO reports (reporter_id, target_type, target_id, reason, details) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT ON CONSTRAINT reports_once_per_reporter DO NOTHING RETURNING ",
        "",
        reporter,
        target as TargetType,
        target_id,
        reason as Reason,
        details,
    )
    .fetch_optional(&mut *tx)
    .await?;
    let report = report.ok_or_else(|| Error::conflict(ALREADY_REPORTED))?;
    tx.commit().await?;
    Ok(report)
}

/// Reports of one status (every one without), newest first.
pub async fn list(pool: &PgPool, status: Option<Status>) -> Result<Vec<Report>> {
    Ok(report_query!(
        "SELECT ",
        " FROM reports WHERE $1::text IS NULL OR status = $1 ORDER BY created_at DESC, id",
        status as Option<Status>,
    )
    .fetch_all(pool)
    .await?)
}

fn note(raw: Option<&str>) -> Result<Option<String>> {
    let n = raw.map(str::trim).filter(|n| !n.is_empty());
    if n.is_some_and(|n| n.chars().count() > MAX_NOTE_CHARS) {
        return Err(Error::validation(NOTE_TOO_LONG));
    }
    Ok(n.map(str::to_string))
}

async fn open_report(tx: &mut PgConnection, id: Uuid) -> Result<Report> {
    let report: Report = report_query!("SELECT ", " FROM reports WHERE id = $1 FOR UPDATE", id,)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))?;
    if report.status != Status::Open {
        return Err(Error::conflict(ALREADY_HANDLED));
    }
    Ok(report)
}

/// The user behind a reported thing (the mentor's user, a message's sender, a review's author, a
/// group session's mentor).
async fn user_behind(tx: &mut PgConnection, target: TargetType, id: Uuid) -> Result<Option<Uuid>> {
    let tx = &mut *tx;
    Ok(match target {
        TargetType::User => {
            sqlx::query_scalar!("SELECT id FROM users WHERE id = $1", id)
                .fetch_optional(tx)
                .await?
        }
        TargetType::Mentor => {
            sqlx::query_scalar!("SELECT user_id FROM mentors WHERE id = $1", id)
                .fetch_optional(tx)
                .await?
        }
        TargetType::Message => {
            sqlx::query_scalar!("SELECT sender_id FROM messages WHERE id = $1", id)
                .fetch_optional(tx)
                .await?
        }
        TargetType::Review => {
            sqlx::query_scalar!("SELECT user_id FROM reviews WHERE id = $1", id)
                .fetch_optional(tx)
                .await?
        }
        TargetType::GroupSession => {
            sqlx::query_scalar!(
                "SELECT m.user_id FROM group_sessions g JOIN mentors m ON m.id = g.mentor_id WHERE g.id = $1",
                id
            )
            .fetch_optional(tx)
            .await?
        }
    })
}

/// Resolves an open report with `action`, applied in the same transaction (audited).
pub async fn resolve(
    pool: &PgPool,
    admin_id: Uuid,
    id: Uuid,
    action: Option<&Choice<Action>>,
    raw_note: Option<&str>,
) -> Result<Report> {
    let action = Choice::required(action, INVALID_ACTION)?;
    let note = note(raw_note)?;
    let mut tx = pool.begin().await?;
    let report = open_report(&mut tx, id).await?;
    let target = report.target_type;
    match action {
        Action::None => {}
        Action::HideReview | Action::HideMessage => {
            let review = action == Action::HideReview;
            let fits = if review {
                target == TargetType::Review
            } else {
                target == TargetType::Message
            };
            if !fits {
                return Err(Error::validation(ACTION_DOES_NOT_FIT));
            }
            if review {
                // The review's trigger recomputes the mentor's rating without it.
                sqlx::query!(
                    "UPDATE reviews SET hidden_at = coalesce(hidden_at, now()) WHERE id = $1",
                    report.target_id
                )
                .execute(&mut *tx)
                .await?;
            } else {
                sqlx::query!(
                    "UPDATE messages SET hidden_at = coalesce(hidden_at, now()) WHERE id = $1",
                    report.target_id
                )
                .execute(&mut *tx)
                .await?;
            }
        }
        Action::DeactivateUser => {
            let user = user_behind(&mut tx, target, report.target_id)
                .await?
                .ok_or_else(|| Error::validation(ACTION_DOES_NOT_FIT))?;
            admin_users::set_active(&mut tx, admin_id, user, false).await?;
        }
    }
    let report = handle(&mut tx, admin_id, &report, Status::Resolved, Some(action), note).await?;
    tx.commit().await?;
    Ok(report)
}

/// Dismisses an open report (audited).
pub async fn dismiss(pool: &PgPool, admin_id: Uuid, id: Uuid, raw_note: Option<&str>) -> Result<Report> {
    let note = note(raw_note)?;
    let mut tx = pool.begin().await?;
    let report = open_report(&mut tx, id).await?;
    let report = handle(&mut tx, admin_id, &report, Status::Dismissed, None, note).await?;
    tx.commit().await?;
    Ok(report)
}

async fn handle(
    tx: &mut PgConnection,
    admin_id: Uuid,
    report: &Report,
    status: Status,
    action: Option<Action>,
    note: Option<String>,
) -> Result<Report> {
    let updated: Report = report_query!(
        "UPDATE reports SET status = $2, action = $3, note = $4, handled_by = $5, handled_at = now() \
         WHERE id = $1 RETURNING ",
        "",
        report.id,
        status as Status,
        action as Option<Action>,
        note.as_deref(),
        admin_id,
    )
    .fetch_one(&mut *tx)
    .await?;
    audit::record(
        tx,
        audit::AuditEntry {
            admin_id,
            action: if status == Status::Resolved {
                "report.resolve"
            } else {
                "report.dismiss"
            },
            object_type: "report",
            object_id: report.id.to_string(),
            before: Some(json!({"status": Status::Open})),
            after: Some(json!({"status": status, "action": action, "note": note})),
        },
    )
    .await?;
    Ok(updated)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sent<T: std::str::FromStr>(text: &str) -> Choice<T> {
        text.parse().unwrap()
    }

    #[test]
    fn closed_sets_take_their_words_only_with_the_fields_messages() {
        let target = sent::<TargetType>(" group_session ");
        assert_eq!(
            Choice::required(Some(&target), INVALID_TARGET_TYPE).unwrap(),
            TargetType::GroupSession
        );
        let reason = sent::<Reason>("scam_or_fraud");
        assert_eq!(
            Choice::required(Some(&reason), INVALID_REASON).unwrap(),
            Reason::ScamOrFraud
        );
        let booking = sent::<TargetType>("booking");
        assert_eq!(
            Choice::required(Some(&booking), INVALID_TARGET_TYPE)
                .unwrap_err()
                .to_string(),
            INVALID_TARGET_TYPE
        );
        let ban = sent::<Action>("ban");
        assert_eq!(
            Choice::required(Some(&ban), INVALID_ACTION).unwrap_err().to_string(),
            INVALID_ACTION
        );
        assert_eq!(
            Choice::<Action>::required(None, INVALID_ACTION)
                .unwrap_err()
                .to_string(),
            INVALID_ACTION
        );
        assert_eq!(
            sent::<Status>("closed").value(INVALID_STATUS).unwrap_err().to_string(),
            INVALID_STATUS
        );
    }
}
