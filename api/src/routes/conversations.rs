use poem::web::Data;
use poem_openapi::{
    ApiResponse, Object, OpenApi,
    param::{Path, Query},
    payload::Json,
};

use super::Tag;
use crate::views::{
    messaging::{ConversationView, MessageView},
    parse_id,
};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::{
    booking::lifecycle,
    catalogue::mentors,
    choice::Choice,
    messaging::{
        conversations,
        messages::{self, MessageType},
    },
};

pub struct ConversationsApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct StartConversationRequest {
    /// Talk to this mentor as their client
    pub mentor_id: Option<String>,
    /// Talk to this user (a client of mine, or a mentor)
    pub user_id: Option<String>,
    /// The booking the conversation is about; one of the two parties' bookings
    pub booking_id: Option<String>,
}

#[derive(ApiResponse)]
pub enum ConversationStarted {
    /// A new conversation
    #[oai(status = 201)]
    Created(Json<ConversationView>),
    /// The conversation these two already have
    #[oai(status = 200)]
    Existing(Json<ConversationView>),
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct SendMessageRequest {
    #[oai(default)]
    pub content: String,
    /// 'text' (the default)
    pub message_type: Option<Choice<MessageType>>,
    /// The sender's own id for this message: sending it again returns the stored message
    pub client_id: Option<String>,
}

#[derive(ApiResponse)]
pub enum MessageSent {
    #[oai(status = 201)]
    Created(Json<MessageView>),
    /// The message already sent with this clientId; nothing new was stored
    #[oai(status = 200)]
    Existing(Json<MessageView>),
}

#[derive(Object)]
pub(super) struct Count {
    pub count: i64,
}

fn optional_id(raw: Option<&str>, not_found: &str) -> ApiResult<Option<uuid::Uuid>> {
    raw.map(|id| parse_id(id, not_found)).transpose()
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Messaging")]
impl ConversationsApi {
    /// The signed-in user's conversations, the most recent activity first.
    #[oai(path = "/conversations", method = "get", operation_id = "listConversations")]
    async fn list(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<ConversationView>>> {
        Ok(Json(
            conversations::list(&state.pool, auth.0.user.id)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// Finds or starts the conversation of a mentor and a client.
    #[oai(path = "/conversations", method = "post", operation_id = "startConversation")]
    async fn start(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<StartConversationRequest>,
    ) -> ApiResult<ConversationStarted> {
        let start = conversations::Start {
            mentor_id: optional_id(body.mentor_id.as_deref(), mentors::NOT_FOUND)?,
            user_id: optional_id(body.user_id.as_deref(), conversations::USER_NOT_FOUND)?,
            booking_id: optional_id(body.booking_id.as_deref(), lifecycle::NOT_FOUND)?,
        };
        let mut tx = state.pool.begin().await?;
        let (conversation, created) = conversations::find_or_start(&mut tx, auth.0.user.id, start).await?;
        tx.commit().await?;
        Ok(if created {
            ConversationStarted::Created(Json(conversation.into()))
        } else {
            ConversationStarted::Existing(Json(conversation.into()))
        })
    }

    #[oai(path = "/conversations/:id", method = "get", operation_id = "getConversation")]
    async fn get(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<ConversationView>> {
        let id = parse_id(&id, conversations::NOT_FOUND)?;
        Ok(Json(conversations::find(&state.pool, auth.0.user.id, id).await?.into()))
    }

    /// A page of the thread counted from the newest message, returned oldest first.
    #[oai(path = "/conversations/:id/messages", method = "get", operation_id = "listMessages")]
    async fn messages(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        /// 1 to 100, 50 by default
        limit: Query<Option<i64>>,
        /// Messages to skip from the newest, 0 by default
        offset: Query<Option<i64>>,
    ) -> ApiResult<Json<Vec<MessageView>>> {
        let id = parse_id(&id, conversations::NOT_FOUND)?;
        let mut conn = state.pool.acquire().await?;
        let page = messages::page(&mut conn, auth.0.user.id, id, limit.0, offset.0).await?;
        Ok(Json(page.into_iter().map(Into::into).collect()))
    }

    /// Sends a message (the REST fallback of the socket's sendMessage).
    #[oai(path = "/conversations/:id/messages", method = "post", operation_id = "sendMessage")]
    async fn send(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
        body: Json<SendMessageRequest>,
    ) -> ApiResult<MessageSent> {
        let id = parse_id(&id, conversations::NOT_FOUND)?;
        let body = body.0;
        let outgoing = messages::Outgoing {
            content: body.content,
            message_type: body.message_type.map(|t| t.sent().to_string()),
            client_id: body.client_id,
        };
        let mut tx = state.pool.begin().await?;
        let sent = messages::send(&mut tx, auth.0.user.id, id, outgoing, None).await?;
        tx.commit().await?;
        Ok(if sent.created {
            MessageSent::Created(Json(sent.message.into()))
        } else {
            MessageSent::Existing(Json(sent.message.into()))
        })
    }

    /// Marks the other party's messages read.
    #[oai(
        path = "/conversations/:id/read",
        method = "put",
        operation_id = "markConversationRead"
    )]
    async fn read(&self, state: Data<&AppState>, auth: SessionAuth, id: Path<String>) -> ApiResult<Json<Count>> {
        let id = parse_id(&id, conversations::NOT_FOUND)?;
        let mut tx = state.pool.begin().await?;
        let count = messages::mark_conversation_read(&mut tx, auth.0.user.id, id).await?;
        tx.commit().await?;
        Ok(Json(Count { count }))
    }

    /// Messages to the signed-in user not read yet, in every conversation.
    #[oai(
        path = "/messages/unread-count",
        method = "get",
        operation_id = "getUnreadMessageCount"
    )]
    async fn unread_count(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Count>> {
        Ok(Json(Count {
            count: messages::unread_count(&state.pool, auth.0.user.id).await?,
        }))
    }
}
