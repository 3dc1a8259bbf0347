//! Messages: sending (idempotent per sender and client id), reading a thread page by page, and
//! read receipts.

use chrono::{DateTime, Utc};
use serde::Serialize;
use serde_json::json;
use sqlx::{FromRow, PgConnection, PgExecutor};
use uuid::Uuid;

use super::{conversations, viewers};
use crate::{
    Error, Result,
    notifications::{FanOut, Kind, PushSpec},
    push::{self, PushKind},
    realtime::{
        self, Envelope, ServerEvent,
        protocol::{ConversationRead, MessageRead, MessageView},
    },
};

pub const MAX_CHARS: usize = 5000;
pub const EMPTY: &str = "Message cannot be empty";
pub const TOO_LONG: &str = "Message must be at most 5000 characters";
pub const NOT_FOUND: &str = "Message not found";
closed_set! {
    /// What a message holds: only text today.
    pub enum MessageType ("message type") {
        Text = "text",
    }
}

pub const ONLY_TEXT: &str = "Message type must be 'text'";
pub const MAX_CLIENT_ID_CHARS: usize = 100;
pub const BAD_CLIENT_ID: &str = "clientId must be at most 100 characters";
/// A thread loads this many messages per page unless asked otherwise.
pub const DEFAULT_PAGE: i64 = 50;
pub const MAX_PAGE: i64 = 100;
pub const BAD_LIMIT: &str = "limit must be between 1 and 100";
pub const BAD_OFFSET: &str = "offset must be 0 or more";
/// The new-message notification quotes this many characters of the message.
pub const PREVIEW_CHARS: usize = 100;

/// A stored message, in the shape both REST and the socket send.
#[derive(Clone, Debug, FromRow, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub sender_id: Uuid,
    #[serde(skip)]
    pub sender_first_name: String,
    #[serde(skip)]
    pub sender_last_name: String,
    #[serde(skip)]
    pub sender_profile_image_url: Option<String>,
    pub content: String,
    pub message_type: MessageType,
    pub client_id: Option<String>,
    pub is_read: bool,
    pub created_at: DateTime<Utc>,
    /// The chat reading (issue 36) the message was sent in; none outside readings.
    pub instant_session_id: Option<Uuid>,
}

impl Message {
    /// The JSON of `messageReceived`: the REST message with its sender.
    pub fn to_json(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).expect("a message serialises");
        value["sender"] = json!({
            "id": self.sender_id,
            "firstName": self.sender_first_name,
            "lastName": self.sender_last_name,
            "profileImageUrl": self.sender_profile_image_url,
        });
        value
    }
}

/// The content as stored: trimmed, 1 to [`MAX_CHARS`] characters, multi-line text rules.
pub fn content(raw: &str) -> Result<String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err(Error::validation(EMPTY));
    }
    if trimmed.chars().count() > MAX_CHARS {
        return Err(Error::validation(TOO_LONG));
    }
    crate::text::multi_line(trimmed, "Message")?;
    Ok(trimmed.to_owned())
}

/// The message type: only 'text' today (also when absent or blank).
pub fn message_type(raw: Option<&str>) -> Result<MessageType> {
    match raw.map(str::trim) {
        None | Some("") => Ok(MessageType::Text),
        Some(t) => t.parse().map_err(|_| Error::validation(ONLY_TEXT)),
    }
}

/// The sender's own id for a message; blank counts as none.
pub fn client_id(raw: Option<&str>) -> Result<Option<String>> {
    match raw.map(str::trim).filter(|c| !c.is_empty()) {
        None => Ok(None),
        Some(c) if c.chars().count() > MAX_CLIENT_ID_CHARS => Err(Error::validation(BAD_CLIENT_ID)),
        Some(c) => {
            crate::text::single_line(c, "clientId")?;
            Ok(Some(c.to_owned()))
        }
    }
}

/// `limit` (default [`DEFAULT_PAGE`], 1..=[`MAX_PAGE`]) and `offset` (0 or more).
pub fn page_bounds(limit: Option<i64>, offset: Option<i64>) -> Result<(i64, i64)> {
    let limit = limit.unwrap_or(DEFAULT_PAGE);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(Error::validation(BAD_LIMIT));
    }
    let offset = offset.unwrap_or(0);
    if offset < 0 {
        return Err(Error::validation(BAD_OFFSET));
    }
    Ok((limit, offset))
}

/// A page of a thread counted from the newest message, returned oldest first.
pub async fn page(
    conn: &mut PgConnection,
    me: Uuid,
    conversation: Uuid,
    limit: Option<i64>,
    offset: Option<i64>,
) -> Result<Vec<Message>> {
    let (limit, offset) = page_bounds(limit, offset)?;
    conversations::parties(&mut *conn, me, conversation).await?;
    let mut page = messaging_sql!(
        (as Message)[
            FIELDS
                + " FROM messages x JOIN users u ON u.id = x.sender_id \
                   WHERE x.conversation_id = $1 AND x.hidden_at IS NULL ORDER BY x.created_at DESC, x.id DESC LIMIT $2 OFFSET $3"
        ],
        conversation,
        limit,
        offset,
    )
    .fetch_all(&mut *conn)
    .await?;
    page.reverse();
    Ok(page)
}

async fn by_client_id(db: impl PgExecutor<'_>, sender: Uuid, client_id: &str) -> Result<Option<Message>> {
    Ok(messaging_sql!(
        (as Message)[FIELDS + " FROM messages x JOIN users u ON u.id = x.sender_id WHERE x.sender_id = $1 AND x.client_id = $2"],
        sender,
        client_id,
    )
    .fetch_optional(db)
    .await?)
}

/// What a client sends.
#[derive(Clone, Debug, Default)]
pub struct Outgoing {
    pub content: String,
    pub message_type: Option<String>,
    pub client_id: Option<String>,
}

/// A message just stored, and whether its recipient has the conversation open.
struct Stored {
    message: Message,
    recipient_viewing: bool,
}

pub struct Sent {
    pub message: Message,
    /// False when the sender's client id was already used: the stored message, nothing new.
    pub created: bool,
}

/// Stores a message and, when it is new, delivers it: `messageReceived` to both parties'
/// sockets and a new_message notification for a recipient not viewing the conversation.
/// A repeated client id returns the stored message; `repeat_to` (the sending socket) then gets
/// it again and nobody else does.
pub async fn send(
    conn: &mut PgConnection,
    me: Uuid,
    conversation: Uuid,
    outgoing: Outgoing,
    repeat_to: Option<Uuid>,
) -> Result<Sent> {
    let parties = conversations::parties(&mut *conn, me, conversation).await?;
    let content = content(&outgoing.content)?;
    let kind = message_type(outgoing.message_type.as_deref())?;
    let client_id = client_id(outgoing.client_id.as_deref())?;
    let recipient = parties.other(me);
    // One statement stores it, moves the conversation's last_message_at, reads the sender's public
    // facts and whether the recipient has the conversation open (a chat message is sent often).
    let stored: Option<Stored> = messaging_sql!(
        query[
            "WITH x AS (INSERT INTO messages (conversation_id, sender_id, content, message_type, client_id) VALUES ($1, $2, $3, $4, $5) \
               ON CONFLICT (sender_id, client_id) DO NOTHING RETURNING *), \
             touched AS (UPDATE conversations c SET last_message_at = greatest(c.last_message_at, x.created_at) FROM x WHERE c.id = x.conversation_id) "
                + FIELDS + ", " + VIEWING("x.conversation_id", "$6", "$7")
                + r#" AS "recipient_viewing!" FROM x JOIN users u ON u.id = x.sender_id"#
        ],
        conversation,
        me,
        &content,
        kind as MessageType,
        client_id.as_deref(),
        recipient,
        crate::sql::interval(viewers::STALE_AFTER),
    )
    .fetch_optional(&mut *conn)
    .await?
    .map(|r| Stored {
        message: Message {
            id: r.id,
            conversation_id: r.conversation_id,
            sender_id: r.sender_id,
            sender_first_name: r.sender_first_name,
            sender_last_name: r.sender_last_name,
            sender_profile_image_url: r.sender_profile_image_url,
            content: r.content,
            message_type: r.message_type,
            client_id: r.client_id,
            is_read: r.is_read,
            created_at: r.created_at,
            instant_session_id: r.instant_session_id,
        },
        recipient_viewing: r.recipient_viewing,
    });
    let Some(Stored {
        message,
        recipient_viewing,
    }) = stored
    else {
        // The sender's client id was used before (a resend): the stored message, nothing new.
        let stored = by_client_id(&mut *conn, me, client_id.as_deref().unwrap_or_default())
            .await?
            .ok_or_else(|| anyhow::anyhow!("message with client id vanished"))?;
        return repeated(conn, me, stored, repeat_to).await;
    };
    super::publish(
        conn,
        parties.both(),
        ServerEvent::MessageReceived(MessageView(message.to_json())),
    )
    .await?;
    if !recipient_viewing {
        new_message_notice(recipient, &message).enqueue(conn).await?;
    }
    Ok(Sent { message, created: true })
}

/// One message of a batch, checked as [`send`] checks it (content, type, client id).
#[derive(Clone, Debug)]
pub struct Batched {
    pub sender: Uuid,
    pub conversation: Uuid,
    /// The sending socket: it alone gets the stored message again when the client id was used.
    pub socket: Option<Uuid>,
    pub content: String,
    pub message_type: MessageType,
    pub client_id: Option<String>,
}

impl Batched {
    pub fn new(sender: Uuid, conversation: Uuid, outgoing: &Outgoing, socket: Option<Uuid>) -> Result<Self> {
        Ok(Self {
            sender,
            conversation,
            socket,
            content: content(&outgoing.content)?,
            message_type: message_type(outgoing.message_type.as_deref())?,
            client_id: client_id(outgoing.client_id.as_deref())?,
        })
    }
}

/// What the batch statement says of one message it was given (absent: the sender is not a party).
struct BatchRow {
    n: i64,
    /// None when the sender's client id was already used.
    id: Option<Uuid>,
    created_at: Option<DateTime<Utc>>,
    user_id: Uuid,
    mentor_user_id: Uuid,
    sender_first_name: String,
    sender_last_name: String,
    sender_profile_image_url: Option<String>,
    recipient_viewing: bool,
    instant_session_id: Option<Uuid>,
}

/// Stores several messages in one statement and delivers each as [`send`] does, all in the
/// caller's transaction (so nobody hears of any before it commits). The statement checks that
/// each sender is a party of its conversation: a message that is not is refused alone, with
/// [`send`]'s error, and the others are stored. A used client id answers as in [`send`].
/// Returns each message's outcome, in order.
pub async fn send_batch(conn: &mut PgConnection, batch: &[Batched]) -> Result<Vec<Result<()>>> {
    // Ids are chosen here so that each row the statement returns finds its message.
    let ids: Vec<Uuid> = batch.iter().map(|_| Uuid::new_v4()).collect();
    let senders: Vec<Uuid> = batch.iter().map(|b| b.sender).collect();
    let conversations: Vec<Uuid> = batch.iter().map(|b| b.conversation).collect();
    let contents: Vec<&str> = batch.iter().map(|b| b.content.as_str()).collect();
    let kinds: Vec<MessageType> = batch.iter().map(|b| b.message_type).collect();
    let client_ids: Vec<Option<&str>> = batch.iter().map(|b| b.client_id.as_deref()).collect();
    let rows: Vec<BatchRow> = messaging_sql!(
        (as BatchRow)[
            "WITH input AS (SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::uuid[], $4::text[], $5::text[], $6::text[]) \
               WITH ORDINALITY AS t (id, sender_id, conversation_id, content, message_type, client_id, n)), \
             allowed AS (SELECT i.*, c.user_id, m.user_id AS mentor_user_id, \
               CASE WHEN i.sender_id = c.user_id THEN m.user_id ELSE c.user_id END AS recipient_id \
               FROM input i JOIN conversations c ON c.id = i.conversation_id JOIN mentors m ON m.id = c.mentor_id \
               WHERE i.sender_id IN (c.user_id, m.user_id)), \
             x AS (INSERT INTO messages (id, conversation_id, sender_id, content, message_type, client_id) \
               SELECT id, conversation_id, sender_id, content, message_type, client_id FROM allowed ORDER BY n \
               ON CONFLICT (sender_id, client_id) DO NOTHING RETURNING id, conversation_id, created_at, instant_session_id) "
                + r#"SELECT a.n AS "n!", x.id AS "id?", x.created_at AS "created_at?", a.user_id AS "user_id!",
                   a.mentor_user_id AS "mentor_user_id!", u.first_name AS "sender_first_name!",
                   u.last_name AS "sender_last_name!", u.profile_image_url AS sender_profile_image_url,
                   x.instant_session_id AS "instant_session_id?", "#
                + VIEWING("a.conversation_id", "a.recipient_id", "$7")
                + r#" AS "recipient_viewing!"
                 FROM allowed a JOIN users u ON u.id = a.sender_id LEFT JOIN x ON x.id = a.id ORDER BY a.n"#
        ],
        &ids,
        &senders,
        &conversations,
        &contents as &[&str],
        &kinds as &[MessageType],
        &client_ids as &[Option<&str>],
        crate::sql::interval(viewers::STALE_AFTER),
    )
    .fetch_all(&mut *conn)
    .await?;

    let mut outcomes: Vec<Result<()>> = batch
        .iter()
        .map(|_| Err(Error::not_found(conversations::NOT_FOUND)))
        .collect();
    let mut events = Vec::with_capacity(rows.len());
    let mut unseen = Vec::new();
    let mut repeats = Vec::new();
    let mut latest: std::collections::BTreeMap<Uuid, DateTime<Utc>> = Default::default();
    for row in rows {
        let i = usize::try_from(row.n - 1).map_err(anyhow::Error::from)?;
        let b = batch
            .get(i)
            .ok_or_else(|| anyhow::anyhow!("batch row {} out of range", row.n))?;
        outcomes[i] = Ok(());
        let (Some(id), Some(created_at)) = (row.id, row.created_at) else {
            repeats.push(i);
            continue;
        };
        let message = Message {
            id,
            conversation_id: b.conversation,
            sender_id: b.sender,
            sender_first_name: row.sender_first_name,
            sender_last_name: row.sender_last_name,
            sender_profile_image_url: row.sender_profile_image_url,
            content: b.content.clone(),
            message_type: b.message_type,
            client_id: b.client_id.clone(),
            is_read: false,
            created_at,
            instant_session_id: row.instant_session_id,
        };
        let at = latest.entry(b.conversation).or_insert(created_at);
        *at = (*at).max(created_at);
        let both = vec![row.user_id, row.mentor_user_id];
        let recipient = if row.user_id == b.sender {
            row.mentor_user_id
        } else {
            row.user_id
        };
        events.push(Envelope::to_users(
            both,
            ServerEvent::MessageReceived(MessageView(message.to_json())),
        ));
        if !row.recipient_viewing {
            unseen.push((recipient, message));
        }
    }
    realtime::publish_many(conn, &events).await?;
    let notices: Vec<FanOut> = unseen
        .iter()
        .map(|(recipient, message)| new_message_notice(*recipient, message))
        .collect();
    FanOut::enqueue_all(conn, &notices).await?;
    for i in repeats {
        let b = &batch[i];
        let stored = by_client_id(&mut *conn, b.sender, b.client_id.as_deref().unwrap_or_default())
            .await?
            .ok_or_else(|| anyhow::anyhow!("message with client id vanished"))?;
        repeated(conn, b.sender, stored, b.socket).await?;
    }
    move_last_message_at(conn, &latest).await?;
    Ok(outcomes)
}

/// Moves each conversation's `last_message_at` to its newest message of the batch, as the last
/// statement before the commit: the rows stay locked only for the commit, and they are locked in
/// id order, so two batches touching the same conversations (their parties on two api processes)
/// wait for each other briefly instead of deadlocking.
async fn move_last_message_at(
    conn: &mut PgConnection,
    latest: &std::collections::BTreeMap<Uuid, DateTime<Utc>>,
) -> Result<()> {
    if latest.is_empty() {
        return Ok(());
    }
    let (ids, times): (Vec<Uuid>, Vec<DateTime<Utc>>) = latest.iter().map(|(id, at)| (*id, *at)).unzip();
    sqlx::query!(
        "WITH locked AS MATERIALIZED (SELECT id FROM conversations WHERE id = ANY($1) ORDER BY id FOR NO KEY UPDATE) \
         UPDATE conversations c SET last_message_at = greatest(c.last_message_at, v.at) \
         FROM unnest($1::uuid[], $2::timestamptz[]) AS v (id, at), locked WHERE c.id = v.id AND locked.id = v.id",
        &ids,
        &times,
    )
    .execute(&mut *conn)
    .await?;
    Ok(())
}

/// The new_message notification of a recipient not viewing the conversation.
fn new_message_notice(recipient: Uuid, message: &Message) -> FanOut {
    let text = format!(
        "{} {}: {}",
        message.sender_first_name,
        message.sender_last_name,
        preview(&message.content)
    );
    let link = format!("/messages?conversation={}", message.conversation_id);
    // Unread pushes of one conversation collapse: one topic at the push service, one tag on screen.
    let push = PushSpec {
        kind: PushKind::NewMessage,
        topic: Some(push::topic_of(message.conversation_id)),
        tag: Some(format!("conversation-{}", message.conversation_id)),
    };
    FanOut::new(&[recipient], Kind::NewMessage, "New message", &text, Some(&link)).pushed_as(Some(push))
}

async fn repeated(conn: &mut PgConnection, me: Uuid, stored: Message, repeat_to: Option<Uuid>) -> Result<Sent> {
    if let Some(socket) = repeat_to {
        let event = ServerEvent::MessageReceived(MessageView(stored.to_json()));
        super::publish_to_socket(conn, me, socket, event).await?;
    }
    Ok(Sent {
        message: stored,
        created: false,
    })
}

/// The first [`PREVIEW_CHARS`] characters.
pub fn preview(content: &str) -> String {
    content.chars().take(PREVIEW_CHARS).collect()
}

/// Marks one message from the other party read; `messageRead` to both parties when it changes.
pub async fn mark_read(conn: &mut PgConnection, me: Uuid, message: Uuid) -> Result<()> {
    let conversation: Option<Uuid> =
        sqlx::query_scalar!("SELECT conversation_id FROM messages WHERE id = $1", message,)
            .fetch_optional(&mut *conn)
            .await?;
    let conversation = conversation.ok_or_else(|| Error::not_found(NOT_FOUND))?;
    let parties = conversations::parties(&mut *conn, me, conversation)
        .await
        .map_err(|_| Error::not_found(NOT_FOUND))?;
    let read_at: Option<DateTime<Utc>> = sqlx::query_scalar!(
        "UPDATE messages SET is_read = true, read_at = now() WHERE id = $1 AND sender_id <> $2 AND NOT is_read RETURNING read_at AS \"read_at!\"",
        message,
        me,
    )
    .fetch_optional(&mut *conn)
    .await?;
    if let Some(read_at) = read_at {
        let data = MessageRead {
            message_id: message,
            conversation_id: conversation,
            reader_id: me,
            read_at,
        };
        super::publish(conn, parties.both(), ServerEvent::MessageRead(data)).await?;
    }
    Ok(())
}

/// Marks every message from the other party read; `conversationRead` to both parties.
pub async fn mark_conversation_read(conn: &mut PgConnection, me: Uuid, conversation: Uuid) -> Result<i64> {
    let parties = conversations::parties(&mut *conn, me, conversation).await?;
    let count = sqlx::query!(
        "UPDATE messages SET is_read = true, read_at = now() WHERE conversation_id = $1 AND sender_id <> $2 AND NOT is_read",
        conversation,
        me,
    )
        .execute(&mut *conn)
        .await?
        .rows_affected() as i64;
    let data = ConversationRead {
        conversation_id: conversation,
        reader_id: me,
        count,
    };
    super::publish(conn, parties.both(), ServerEvent::ConversationRead(data)).await?;
    Ok(count)
}

/// Messages to `me` that `me` has not read, in every conversation.
pub async fn unread_count(db: impl PgExecutor<'_>, me: Uuid) -> Result<i64> {
    Ok(sqlx::query_scalar!(
        "SELECT count(*) AS \"count!\" FROM messages x JOIN conversations c ON c.id = x.conversation_id JOIN mentors m ON m.id = c.mentor_id \
         WHERE (c.user_id = $1 OR m.user_id = $1) AND x.sender_id <> $1 AND NOT x.is_read AND x.hidden_at IS NULL",
        me,
    )
    .fetch_one(db)
    .await?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_is_trimmed_and_between_1_and_5000_characters() {
        assert_eq!(content("  hello \n").unwrap(), "hello");
        assert_eq!(content(" \n\t ").unwrap_err().to_string(), EMPTY);
        assert_eq!(content("").unwrap_err().to_string(), EMPTY);
        let most = "é".repeat(5000);
        assert_eq!(content(&format!("  {most}  ")).unwrap(), most);
        assert_eq!(content(&"a".repeat(5001)).unwrap_err().to_string(), TOO_LONG);
    }

    #[test]
    fn content_follows_the_multi_line_text_rules() {
        assert!(content("line one\nline two\ttab").is_ok());
        assert!(content("a\u{0}b").is_err());
        assert!(content("a\u{202E}b").is_err());
        assert!(content("a\rb").is_err());
    }

    #[test]
    fn pages_default_to_50_and_hold_at_most_100() {
        assert_eq!(page_bounds(None, None).unwrap(), (50, 0));
        assert_eq!(page_bounds(Some(1), Some(5)).unwrap(), (1, 5));
        assert_eq!(page_bounds(Some(100), None).unwrap(), (100, 0));
        assert_eq!(page_bounds(Some(0), None).unwrap_err().to_string(), BAD_LIMIT);
        assert_eq!(page_bounds(Some(101), None).unwrap_err().to_string(), BAD_LIMIT);
        assert_eq!(page_bounds(None, Some(-1)).unwrap_err().to_string(), BAD_OFFSET);
        assert_eq!((DEFAULT_PAGE, MAX_PAGE), (50, 100));
    }

    #[test]
    fn only_text_messages_and_short_client_ids() {
        assert_eq!(message_type(None).unwrap(), MessageType::Text);
        assert_eq!(message_type(Some("text")).unwrap(), MessageType::Text);
        assert!(message_type(Some("image")).is_err());
        assert_eq!(client_id(Some("  ")).unwrap(), None);
        assert_eq!(client_id(Some(&"c".repeat(100))).unwrap().unwrap().len(), 100);
        assert!(client_id(Some(&"c".repeat(101))).is_err());
    }

    #[test]
    fn the_notification_quotes_the_first_100_characters() {
        assert_eq!(preview(&"ab".repeat(80)).chars().count(), 100);
        assert_eq!(preview("short"), "short");
    }
}
