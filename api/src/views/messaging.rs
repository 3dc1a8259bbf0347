//! Response shapes of conversations and messages.

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use uuid::Uuid;

use super::catalogue::MentorUserView;
use domain::messaging::{
    conversations::Conversation,
    messages::{Message, MessageType},
};

/// The mentor of a conversation, with its user.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ConversationMentorView {
    pub id: Uuid,
    pub user_id: Uuid,
    pub display_name: String,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
    pub user: MentorUserView,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct LastMessageView {
    pub content: String,
    pub sender_id: Uuid,
    pub created_at: DateTime<Utc>,
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct ConversationView {
    pub id: Uuid,
    pub mentor_id: Uuid,
    /// The client (seeker) of the conversation
    pub user_id: Uuid,
    #[oai(nullable)]
    pub booking_id: Option<Uuid>,
    pub mentor: ConversationMentorView,
    /// The client (seeker)
    pub user: MentorUserView,
    /// Messages from the other party the signed-in user has not read
    pub unread_count: i64,
    #[oai(nullable)]
    pub last_message_at: Option<DateTime<Utc>>,
    #[oai(nullable)]
    pub last_message: Option<LastMessageView>,
    pub created_at: DateTime<Utc>,
}

impl From<Conversation> for ConversationView {
    fn from(c: Conversation) -> Self {
        let last_message = match (c.last_content, c.last_sender_id, c.last_created_at) {
            (Some(content), Some(sender_id), Some(created_at)) => Some(LastMessageView {
                content,
                sender_id,
                created_at,
            }),
            _ => None,
        };
        Self {
            id: c.id,
            mentor_id: c.mentor_id,
            user_id: c.user_id,
            booking_id: c.booking_id,
            mentor: ConversationMentorView {
                id: c.mentor_id,
                user_id: c.mentor_user_id,
                display_name: c.mentor_display_name,
                profile_image_url: c.mentor_profile_image_url,
                user: MentorUserView {
                    id: c.mentor_user_id,
                    first_name: c.mentor_first_name,
                    last_name: c.mentor_last_name,
                    profile_image_url: c.mentor_user_image_url,
                },
            },
            user: MentorUserView {
                id: c.user_id,
                first_name: c.user_first_name,
                last_name: c.user_last_name,
                profile_image_url: c.user_profile_image_url,
            },
            unread_count: c.unread_count,
            last_message_at: c.last_message_at,
            last_message,
            created_at: c.created_at,
        }
    }
}

#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct MessageView {
    pub id: Uuid,
    pub conversation_id: Uuid,
    pub sender_id: Uuid,
    pub sender: MentorUserView,
    pub content: String,
    pub message_type: MessageType,
    /// The sender's own id for the message, when it sent one
    #[oai(nullable)]
    pub client_id: Option<String>,
    pub is_read: bool,
    pub created_at: DateTime<Utc>,
    /// The chat reading (issue 36) it was sent in; null outside readings
    #[oai(nullable)]
    pub instant_session_id: Option<Uuid>,
}

impl From<Message> for MessageView {
    fn from(m: Message) -> Self {
        Self {
            id: m.id,
            conversation_id: m.conversation_id,
            sender_id: m.sender_id,
            sender: MentorUserView {
                id: m.sender_id,
                first_name: m.sender_first_name,
                last_name: m.sender_last_name,
                profile_image_url: m.sender_profile_image_url,
            },
            content: m.content,
            message_type: m.message_type,
            client_id: m.client_id,
            is_read: m.is_read,
            created_at: m.created_at,
            instant_session_id: m.instant_session_id,
        }
    }
}
