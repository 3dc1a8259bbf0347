//! Finding or starting the one conversation of a mentor and a client, and listing a user's
//! conversations with their unread counts and last message.

use chrono::{DateTime, Utc};
use sqlx::{FromRow, PgConnection, PgExecutor};
use uuid::Uuid;

use crate::{
    Error, Result,
    booking::lifecycle,
    catalogue::mentors,
    realtime::{ServerEvent, protocol::UserTyping},
};

pub const NOT_FOUND: &str = "Conversation not found";
pub const USER_NOT_FOUND: &str = "User not found";
pub const NOT_MENTOR_AND_CLIENT: &str = "Conversations are between a mentor and a client";
pub const WITH_YOURSELF: &str = "You cannot start a conversation with yourself";
pub const WHO_REQUIRED: &str = "mentorId or userId is required";

/// A conversation as one of its parties sees it.
#[derive(Clone, Debug, FromRow)]
pub struct Conversation {
    pub id: Uuid,
    pub mentor_id: Uuid,
    pub user_id: Uuid,
    pub booking_id: Option<Uuid>,
    pub created_at: DateTime<Utc>,
    pub last_message_at: Option<DateTime<Utc>>,
    pub mentor_user_id: Uuid,
    pub mentor_display_name: String,
    pub mentor_profile_image_url: Option<String>,
    pub mentor_first_name: String,
    pub mentor_last_name: String,
    pub mentor_user_image_url: Option<String>,
    pub user_first_name: String,
    pub user_last_name: String,
    pub user_profile_image_url: Option<String>,
    /// Messages from the other party that the viewer has not read.
    pub unread_count: i64,
    pub last_content: Option<String>,
    pub last_sender_id: Option<Uuid>,
    pub last_created_at: Option<DateTime<Utc>>,
}

/// One statement for the list and for one conversation: `$1` is the viewer.
macro_rules! query_conversations {
    ($rest:literal $(, $arg:expr)* $(,)?) => {
        sqlx::query_as!(
            Conversation,
            r#"SELECT c.id, c.mentor_id, c.user_id, c.booking_id, c.created_at, c.last_message_at,
                      m.user_id AS mentor_user_id, m.display_name AS mentor_display_name,
                      m.profile_image_url AS mentor_profile_image_url, mu.first_name AS mentor_first_name,
                      mu.last_name AS mentor_last_name, mu.profile_image_url AS mentor_user_image_url,
                      u.first_name AS user_first_name, u.last_name AS user_last_name, u.profile_image_url AS user_profile_image_url,
                      (SELECT count(*) FROM messages x WHERE x.conversation_id = c.id AND x.sender_id <> $1 AND NOT x.is_read
                       AND x.hidden_at IS NULL) AS "unread_count!",
                      lm.content AS "last_content?", lm.sender_id AS "last_sender_id?", lm.created_at AS "last_created_at?"
               FROM conversations c JOIN mentors m ON m.id = c.mentor_id JOIN users mu ON mu.id = m.user_id
               JOIN users u ON u.id = c.user_id
               LEFT JOIN LATERAL (SELECT content, sender_id, created_at FROM messages
                 WHERE conversation_id = c.id AND hidden_at IS NULL ORDER BY created_at DESC, id DESC LIMIT 1) lm ON true
               WHERE (c.user_id = $1 OR m.user_id = $1) "# + $rest
            $(, $arg)*
        )
    };
}

/// The viewer's conversations, the most recent activity first.
pub async fn list(db: impl PgExecutor<'_>, me: Uuid) -> Result<Vec<Conversation>> {
    Ok(
        query_conversations!("ORDER BY coalesce(c.last_message_at, c.created_at) DESC, c.id", me)
            .fetch_all(db)
            .await?,
    )
}

/// One conversation of the viewer's; anyone else's is not found.
pub async fn find(db: impl PgExecutor<'_>, me: Uuid, id: Uuid) -> Result<Conversation> {
    query_conversations!("AND c.id = $2", me, id)
        .fetch_optional(db)
        .await?
        .ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// The two users of a conversation.
#[derive(Clone, Copy, Debug, FromRow)]
pub struct Parties {
    pub id: Uuid,
    pub mentor_id: Uuid,
    /// The mentor's own user.
    pub mentor_user_id: Uuid,
    /// The client (seeker).
    pub user_id: Uuid,
}

impl Parties {
    pub fn includes(&self, user: Uuid) -> bool {
        self.mentor_user_id == user || self.user_id == user
    }

    /// The party that is not `me`.
    pub fn other(&self, me: Uuid) -> Uuid {
        if self.user_id == me {
            self.mentor_user_id
        } else {
            self.user_id
        }
    }

    pub fn both(&self) -> Vec<Uuid> {
        vec![self.user_id, self.mentor_user_id]
    }
}

/// The parties of a conversation `me` takes part in; otherwise not found.
pub async fn parties(db: impl PgExecutor<'_>, me: Uuid, id: Uuid) -> Result<Parties> {
    let parties: Option<Parties> = sqlx::query_as!(
        Parties,
        "SELECT c.id, c.mentor_id, m.user_id AS mentor_user_id, c.user_id FROM conversations c \
         JOIN mentors m ON m.id = c.mentor_id WHERE c.id = $1",
        id,
    )
    .fetch_optional(db)
    .await?;
    parties
        .filter(|p| p.includes(me))
        .ok_or_else(|| Error::not_found(NOT_FOUND))
}

/// Whom to talk to: a mentor profile, or a user (with the booking that brings them together).
#[derive(Clone, Debug, Default)]
pub struct Start {
    pub mentor_id: Option<Uuid>,
    pub user_id: Option<Uuid>,
    pub booking_id: Option<Uuid>,
}

/// Who is the mentor and who the client of a new conversation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Roles {
    pub mentor_id: Uuid,
    pub user_id: Uuid,
}

#[derive(FromRow)]
struct BookingParties {
    mentor_id: Uuid,
    mentor_user_id: Uuid,
    user_id: Uuid,
}

async fn booking_parties(conn: &mut PgConnection, id: Uuid) -> Result<Option<BookingParties>> {
    Ok(sqlx::query_as!(
        BookingParties,
        "SELECT b.mentor_id, m.user_id AS mentor_user_id, b.user_id FROM bookings b JOIN mentors m ON m.id = b.mentor_id WHERE b.id = $1",
        id,
    )
        .fetch_optional(&mut *conn)
        .await?)
}

/// Decides the mentor and the client of a conversation `me` starts.
pub async fn roles(conn: &mut PgConnection, me: Uuid, start: &Start) -> Result<Roles> {
    let roles = match (start.mentor_id, start.user_id) {
        (Some(mentor_id), _) => {
            let mentor = mentors::find(&mut *conn, mentor_id)
                .await?
                .filter(|m| m.is_public())
                .ok_or_else(|| Error::not_found(mentors::NOT_FOUND))?;
            if mentor.user_id == me {
                return Err(Error::validation(WITH_YOURSELF));
            }
            Roles { mentor_id, user_id: me }
        }
        (None, Some(other)) => {
            if other == me {
                return Err(Error::validation(WITH_YOURSELF));
            }
            let exists: bool = sqlx::query_scalar!(
                r#"SELECT EXISTS (SELECT 1 FROM users WHERE id = $1 AND is_active) AS "found!""#,
                other
            )
            .fetch_one(&mut *conn)
            .await?;
            if !exists {
                return Err(Error::not_found(USER_NOT_FOUND));
            }
            let from_booking = match start.booking_id {
                Some(id) => booking_parties(conn, id)
                    .await?
                    .filter(|b| {
                        (b.user_id == me && b.mentor_user_id == other) || (b.user_id == other && b.mentor_user_id == me)
                    })
                    .map(|b| Roles {
                        mentor_id: b.mentor_id,
                        user_id: b.user_id,
                    }),
                None => None,
            };
            match from_booking {
                Some(roles) => roles,
                None => match (
                    mentors::find_by_user(&mut *conn, me).await?,
                    mentors::find_by_user(&mut *conn, other).await?,
                ) {
                    (Some(mine), _) => Roles {
                        mentor_id: mine.id,
                        user_id: other,
                    },
                    (None, Some(theirs)) => Roles {
                        mentor_id: theirs.id,
                        user_id: me,
                    },
                    (None, None) => return Err(Error::validation(NOT_MENTOR_AND_CLIENT)),
                },
            }
        }
        (None, None) => return Err(Error::validation(WHO_REQUIRED)),
    };
    if let Some(id) = start.booking_id {
        let belongs = booking_parties(conn, id)
            .await?
            .is_some_and(|b| b.mentor_id == roles.mentor_id && b.user_id == roles.user_id);
        if !belongs {
            return Err(Error::not_found(lifecycle::NOT_FOUND));
        }
    }
    Ok(roles)
}

/// The conversation of the mentor and client `me` names, started when there is none yet.
/// Returns it as `me` sees it and whether it is new.
pub async fn find_or_start(conn: &mut PgConnection, me: Uuid, start: Start) -> Result<(Conversation, bool)> {
    let roles = roles(conn, me, &start).await?;
    let created: Option<Uuid> = sqlx::query_scalar!(
        "INSERT INTO conversations (mentor_id, user_id, booking_id) VALUES ($1, $2, $3) \
         ON CONFLICT (mentor_id, user_id) DO NOTHING RETURNING id",
        roles.mentor_id,
        roles.user_id,
        start.booking_id,
    )
    .fetch_optional(&mut *conn)
    .await?;
    let id = match created {
        Some(id) => id,
        None => sqlx::query_scalar!(
            "UPDATE conversations SET booking_id = coalesce($3, booking_id) WHERE mentor_id = $1 AND user_id = $2 RETURNING id",
            roles.mentor_id,
            roles.user_id,
            start.booking_id,
        )
        .fetch_one(&mut *conn)
        .await?,
    };
    Ok((find(&mut *conn, me, id).await?, created.is_some()))
}

/// `userTyping` to the other party.
pub async fn typing(conn: &mut PgConnection, me: Uuid, id: Uuid, is_typing: bool) -> Result<()> {
    let parties = parties(&mut *conn, me, id).await?;
    let typing = UserTyping {
        conversation_id: id,
        user_id: me,
        is_typing,
    };
    super::publish(conn, vec![parties.other(me)], ServerEvent::UserTyping(typing)).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_other_party_is_whoever_is_not_me() {
        let (mentor_user, user) = (Uuid::new_v4(), Uuid::new_v4());
        let p = Parties {
            id: Uuid::new_v4(),
            mentor_id: Uuid::new_v4(),
            mentor_user_id: mentor_user,
            user_id: user,
        };
        assert_eq!(p.other(user), mentor_user);
        assert_eq!(p.other(mentor_user), user);
        assert!(p.includes(user) && p.includes(mentor_user));
        assert!(!p.includes(Uuid::new_v4()));
    }
}
