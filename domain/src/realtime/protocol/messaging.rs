//! Chat: messages, read receipts and typing.

use chrono::{DateTime, Utc};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use uuid::Uuid;

opaque!(
    /// A stored message, the object `GET /api/conversations/{id}/messages` lists.
    MessageView => "MessageView"
);

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageRead {
    pub message_id: Uuid,
    pub conversation_id: Uuid,
    pub reader_id: Uuid,
    pub read_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationRead {
    pub conversation_id: Uuid,
    pub reader_id: Uuid,
    /// How many messages became read.
    pub count: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserTyping {
    pub conversation_id: Uuid,
    pub user_id: Uuid,
    pub is_typing: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendMessage {
    pub conversation_id: Uuid,
    pub content: String,
    /// Only `text` (the default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_type: Option<String>,
    /// The sender's own id for the message, echoed back so a tab can match its optimistic copy.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_id: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConversationRef {
    pub conversation_id: Uuid,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageRef {
    pub message_id: Uuid,
}
