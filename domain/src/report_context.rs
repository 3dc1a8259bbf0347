//! What an admin needs to judge a report without opening five pages: the reported thing itself (a
//! review's text and rating, a message with the last lines of its conversation, a profile, a group
//! session), who wrote it and about whom, where it is on the site, who reported it, the earlier
//! reports on the same thing, and outcomes in words.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgPool};
use uuid::Uuid;

use crate::{
    Result,
    reports::{Action, Reason, Report, Status, TargetType},
};

/// A reported message comes with at most this many lines of its conversation, ending with it.
pub const CONVERSATION_LINES: i64 = 5;

/// A report's outcome as the admin page says it ('Review hidden'), never the enum's name.
pub fn outcome(status: Status, action: Option<Action>) -> &'static str {
    match (status, action) {
        (Status::Open, _) => "Open",
        (Status::Dismissed, _) => "Dismissed",
        (Status::Resolved, Some(Action::HideReview)) => "Review hidden",
        (Status::Resolved, Some(Action::HideMessage)) => "Message hidden",
        (Status::Resolved, Some(Action::DeactivateUser)) => "User deactivated",
        (Status::Resolved, Some(Action::None) | None) => "Resolved without action",
    }
}

/// A member as the admin sees them.
#[derive(Clone, Debug, FromRow, PartialEq, Eq)]
pub struct Person {
    pub id: Uuid,
    pub name: String,
    pub email: String,
    pub is_active: bool,
}

/// One line of a reported message's conversation.
#[derive(Clone, Debug, FromRow)]
pub struct Line {
    pub id: Uuid,
    pub sender_id: Uuid,
    pub sender_name: String,
    pub content: String,
    pub sent_at: DateTime<Utc>,
    pub hidden: bool,
}

/// The reported thing as it is now (or as it was, when hidden).
#[derive(Clone, Debug, Default)]
pub struct Target {
    /// One line naming it: 'Review of Luna Starling by Ann Lee'.
    pub summary: String,
    /// The site's page showing it, when there is one.
    pub link: Option<String>,
    /// Who wrote it (a review's or message's author), or whose it is (a profile, a session).
    pub author: Option<Person>,
    /// Whom it is about or addressed to (a review's mentor, a message's other party).
    pub about: Option<Person>,
    /// A review's comment, a message's content, a profile's bio, a session's description.
    pub text: Option<String>,
    /// A review's stars (1 to 5).
    pub rating: Option<i16>,
    /// Already hidden from everyone (a review or message).
    pub hidden: bool,
    /// A group session's start.
    pub scheduled_at: Option<DateTime<Utc>>,
    /// A message's conversation, oldest first, ending with the reported message.
    pub conversation: Vec<Line>,
}

/// An earlier report on the same thing.
#[derive(Clone, Debug, FromRow)]
pub struct Earlier {
    pub id: Uuid,
    pub reason: Reason,
    pub status: Status,
    pub action: Option<Action>,
    pub created_at: DateTime<Utc>,
}

/// Everything around one report.
#[derive(Clone, Debug, Default)]
pub struct Context {
    pub reporter: Option<Person>,
    /// None when the thing is gone.
    pub target: Option<Target>,
    /// Earlier reports on the same thing (by anyone), newest first.
    pub earlier: Vec<Earlier>,
}

async fn person(pool: &PgPool, id: Uuid) -> Result<Option<Person>> {
    Ok(sqlx::query_as!(
        Person,
        r#"SELECT id, trim(first_name || ' ' || last_name) AS "name!", email, is_active FROM users WHERE id = $1"#,
        id
    )
    .fetch_optional(pool)
    .await?)
}

async fn mentor_user(pool: &PgPool, mentor_id: Uuid) -> Result<Option<(Uuid, String)>> {
    Ok(
        sqlx::query!("SELECT user_id, display_name FROM mentors WHERE id = $1", mentor_id)
            .fetch_optional(pool)
            .await?
            .map(|m| (m.user_id, m.display_name)),
    )
}

/// The report's context (a few small queries; the admin's list is short).
pub async fn of(pool: &PgPool, report: &Report) -> Result<Context> {
    Ok(Context {
        reporter: person(pool, report.reporter_id).await?,
        target: target(pool, report.target_type, report.target_id).await?,
        earlier: sqlx::query_as!(
            Earlier,
            r#"SELECT id, reason AS "reason: Reason", status AS "status: Status", action AS "action: Action", created_at
               FROM reports
               WHERE target_type = $1 AND target_id = $2 AND id <> $3 AND created_at <= $4
               ORDER BY created_at DESC, id"#,
            report.target_type as TargetType,
            report.target_id,
            report.id,
            report.created_at,
        )
        .fetch_all(pool)
        .await?,
    })
}

/// A reported message and the two sides of its conversation.
#[derive(FromRow)]
struct ReportedMessage {
    conversation_id: Uuid,
    sender_id: Uuid,
    content: String,
    hidden: bool,
    sent_at: DateTime<Utc>,
    client_id: Uuid,
    mentor_user_id: Uuid,
}

async fn target(pool: &PgPool, kind: TargetType, id: Uuid) -> Result<Option<Target>> {
    match kind {
        TargetType::Mentor => {
            let row = sqlx::query!("SELECT user_id, display_name, bio FROM mentors WHERE id = $1", id)
                .fetch_optional(pool)
                .await?
                .map(|m| (m.user_id, m.display_name, m.bio));
            let Some((user_id, name, bio)) = row else {
                return Ok(None);
            };
            Ok(Some(Target {
                summary: format!("Mentor profile of {name}"),
                link: Some(format!("/mentor/{id}")),
                author: person(pool, user_id).await?,
                text: Some(bio),
                ..Target::default()
            }))
        }
        TargetType::User => {
            let row = sqlx::query_scalar!("SELECT bio FROM users WHERE id = $1", id)
                .fetch_optional(pool)
                .await?;
            let Some(bio) = row else { return Ok(None) };
            let author = person(pool, id).await?;
            Ok(Some(Target {
                summary: format!(
                    "Member profile of {}",
                    author.as_ref().map_or("a member", |p| p.name.as_str())
                ),
                link: Some(format!("/profile/{id}")),
                author,
                text: bio.filter(|b| !b.trim().is_empty()),
                ..Target::default()
            }))
        }
        TargetType::Review => {
            let row = sqlx::query!(
                r#"SELECT mentor_id, user_id, rating, comment, hidden_at IS NOT NULL AS "hidden!" FROM reviews WHERE id = $1"#,
                id
            )
            .fetch_optional(pool)
            .await?
            .map(|r| (r.mentor_id, r.user_id, r.rating, r.comment, r.hidden));
            let Some((mentor_id, user_id, rating, comment, hidden)) = row else {
                return Ok(None);
            };
            let author = person(pool, user_id).await?;
            let mentor = mentor_user(pool, mentor_id).await?;
            let about = match &mentor {
                Some((mentor_user_id, _)) => person(pool, *mentor_user_id).await?,
                None => None,
            };
            Ok(Some(Target {
                summary: format!(
                    "Review of {} by {}",
                    mentor.as_ref().map_or("a mentor", |(_, n)| n.as_str()),
                    author.as_ref().map_or("a member", |p| p.name.as_str())
                ),
                link: Some(format!("/mentor/{mentor_id}")),
                author,
                about,
                text: comment,
                rating: Some(rating),
                hidden,
                ..Target::default()
            }))
        }
        TargetType::Message => {
            let row = sqlx::query_as!(
                ReportedMessage,
                r#"SELECT x.conversation_id, x.sender_id, x.content, x.hidden_at IS NOT NULL AS "hidden!",
                          x.created_at AS sent_at, c.user_id AS client_id, m.user_id AS mentor_user_id
                   FROM messages x JOIN conversations c ON c.id = x.conversation_id
                   JOIN mentors m ON m.id = c.mentor_id WHERE x.id = $1"#,
                id
            )
            .fetch_optional(pool)
            .await?;
            let Some(ReportedMessage {
                conversation_id,
                sender_id,
                content,
                hidden,
                sent_at,
                client_id,
                mentor_user_id,
            }) = row
            else {
                return Ok(None);
            };
            let other = if sender_id == client_id {
                mentor_user_id
            } else {
                client_id
            };
            let author = person(pool, sender_id).await?;
            let about = person(pool, other).await?;
            let mut conversation: Vec<Line> = sqlx::query_as!(
                Line,
                r#"SELECT x.id, x.sender_id, trim(u.first_name || ' ' || u.last_name) AS "sender_name!", x.content,
                          x.created_at AS sent_at, x.hidden_at IS NOT NULL AS "hidden!"
                   FROM messages x JOIN users u ON u.id = x.sender_id
                   WHERE x.conversation_id = $1 AND (x.created_at, x.id) <= ($2, $3)
                   ORDER BY x.created_at DESC, x.id DESC LIMIT $4"#,
                conversation_id,
                sent_at,
                id,
                CONVERSATION_LINES,
            )
            .fetch_all(pool)
            .await?;
            conversation.reverse();
            Ok(Some(Target {
                summary: format!(
                    "Message from {} to {}",
                    author.as_ref().map_or("a member", |p| p.name.as_str()),
                    about.as_ref().map_or("a member", |p| p.name.as_str())
                ),
                link: None,
                author,
                about,
                text: Some(content),
                hidden,
                conversation,
                ..Target::default()
            }))
        }
        TargetType::GroupSession => {
            let row = sqlx::query!(
                "SELECT mentor_id, title, description, scheduled_at FROM group_sessions WHERE id = $1",
                id
            )
            .fetch_optional(pool)
            .await?
            .map(|g| (g.mentor_id, g.title, g.description, g.scheduled_at));
            let Some((mentor_id, title, description, scheduled_at)) = row else {
                return Ok(None);
            };
            let mentor = mentor_user(pool, mentor_id).await?;
            let author = match &mentor {
                Some((user_id, _)) => person(pool, *user_id).await?,
                None => None,
            };
            Ok(Some(Target {
                summary: format!(
                    "Group session \"{title}\" by {}",
                    mentor.as_ref().map_or("a mentor", |(_, n)| n.as_str())
                ),
                link: Some(format!("/group-sessions?mentor={mentor_id}")),
                author,
                text: description,
                scheduled_at: Some(scheduled_at),
                ..Target::default()
            }))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_are_words_not_enum_names() {
        assert_eq!(outcome(Status::Open, None), "Open");
        assert_eq!(outcome(Status::Dismissed, None), "Dismissed");
        assert_eq!(outcome(Status::Resolved, Some(Action::HideReview)), "Review hidden");
        assert_eq!(outcome(Status::Resolved, Some(Action::HideMessage)), "Message hidden");
        assert_eq!(
            outcome(Status::Resolved, Some(Action::DeactivateUser)),
            "User deactivated"
        );
        assert_eq!(outcome(Status::Resolved, Some(Action::None)), "Resolved without action");
    }
}
