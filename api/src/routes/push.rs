//! Web Push: the VAPID public key browsers subscribe with, the user's subscribed browsers and
//! what they want pushed (docs/push.md).

use chrono::{DateTime, Utc};
use poem::{Request, web::Data};
use poem_openapi::{ApiResponse, Object, OpenApi, param::Path, payload::Json};
use uuid::Uuid;

use super::Tag;
use crate::views::{MessageResponse, parse_id};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::push::{
    keys,
    preferences::{self, PushPreferences},
    subscriptions::{self, Device, NewSubscription},
};

pub struct PushApi;

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PublicKey {
    /// The VAPID public key (P-256, uncompressed point, base64url): `applicationServerKey`.
    pub public_key: String,
}

#[derive(Object)]
pub(super) struct SubscriptionKeys {
    pub p256dh: String,
    pub auth: String,
}

/// The browser's `PushSubscription` as JSON.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct SubscriptionRequest {
    pub endpoint: String,
    pub keys: SubscriptionKeys,
    /// Sent by browsers (usually null); not used.
    pub expiration_time: Option<f64>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub struct SubscriptionView {
    pub id: Uuid,
    pub endpoint: String,
    pub created_at: DateTime<Utc>,
}

/// One of the user's subscribed browsers.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PushDevice {
    pub id: Uuid,
    pub endpoint: String,
    /// The browser's `User-Agent` when it subscribed.
    #[oai(nullable)]
    pub user_agent: Option<String>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Subscribed in the session asking (this browser).
    pub current: bool,
}

impl From<Device> for PushDevice {
    fn from(d: Device) -> Self {
        Self {
            id: d.id,
            endpoint: d.endpoint,
            user_agent: d.user_agent,
            created_at: d.created_at,
            updated_at: d.updated_at,
            current: d.current,
        }
    }
}

#[derive(ApiResponse)]
pub enum Subscribed {
    /// A new subscription
    #[oai(status = 201)]
    Created(Json<SubscriptionView>),
    /// The endpoint was known: its row is updated (and moved to this user)
    #[oai(status = 200)]
    Updated(Json<SubscriptionView>),
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PushPreferencesView {
    pub calls: bool,
    pub messages: bool,
    pub bookings: bool,
    pub reminders: bool,
    pub group_sessions: bool,
}

impl From<PushPreferences> for PushPreferencesView {
    fn from(p: PushPreferences) -> Self {
        Self {
            calls: p.calls,
            messages: p.messages,
            bookings: p.bookings,
            reminders: p.reminders,
            group_sessions: p.group_sessions,
        }
    }
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PushPreferencesChange {
    pub calls: Option<bool>,
    pub messages: Option<bool>,
    pub bookings: Option<bool>,
    pub reminders: Option<bool>,
    pub group_sessions: Option<bool>,
}

pub(super) const UNSUBSCRIBED: &str = "Push subscription removed";

#[OpenApi(prefix_path = "/api", tag = "Tag::Notifications")]
impl PushApi {
    /// The key browsers subscribe with (`applicationServerKey`).
    #[oai(path = "/push/public-key", method = "get", operation_id = "getPushPublicKey")]
    async fn public_key(&self, state: Data<&AppState>) -> ApiResult<Json<PublicKey>> {
        Ok(Json(PublicKey {
            public_key: keys::load(&state.pool).await?.public_key(),
        }))
    }

    /// Subscribes this browser; the same endpoint again updates its row.
    #[oai(
        path = "/push/subscriptions",
        method = "post",
        operation_id = "createPushSubscription"
    )]
    async fn subscribe(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        req: &Request,
        body: Json<SubscriptionRequest>,
    ) -> ApiResult<Subscribed> {
        let body = body.0;
        let user_agent = req
            .headers()
            .get(poem::http::header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .map(str::to_owned);
        let new = NewSubscription {
            endpoint: body.endpoint,
            p256dh: body.keys.p256dh,
            auth: body.keys.auth,
            user_agent,
        };
        let (device, created) = subscriptions::save(
            &state.pool,
            auth.0.user.id,
            &auth.0.session_token,
            new,
            state.config.push_policy(),
        )
        .await?;
        let view = SubscriptionView {
            id: device.id,
            endpoint: device.endpoint,
            created_at: device.created_at,
        };
        Ok(if created {
            Subscribed::Created(Json(view))
        } else {
            Subscribed::Updated(Json(view))
        })
    }

    /// The user's subscribed browsers, most recently saved first.
    #[oai(path = "/push/subscriptions", method = "get", operation_id = "listPushSubscriptions")]
    async fn list(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<PushDevice>>> {
        let devices = subscriptions::list(&state.pool, auth.0.user.id, &auth.0.session_token).await?;
        Ok(Json(devices.into_iter().map(Into::into).collect()))
    }

    /// Removes one of the user's subscribed browsers.
    #[oai(
        path = "/push/subscriptions/:id",
        method = "delete",
        operation_id = "deletePushSubscription"
    )]
    async fn delete(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<MessageResponse>> {
        let id = parse_id(&id, subscriptions::NOT_FOUND)?;
        subscriptions::delete(&state.pool, auth.0.user.id, id).await?;
        Ok(Json(MessageResponse::new(UNSUBSCRIBED)))
    }

    /// What the user wants pushed (all on by default).
    #[oai(path = "/user/push-preferences", method = "get", operation_id = "getPushPreferences")]
    async fn preferences(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<PushPreferencesView>> {
        Ok(Json(preferences::get(&state.pool, auth.0.user.id).await?.into()))
    }

    /// Changes the switches sent; the answer has all five.
    #[oai(
        path = "/user/push-preferences",
        method = "put",
        operation_id = "updatePushPreferences"
    )]
    async fn update_preferences(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<PushPreferencesChange>,
    ) -> ApiResult<Json<PushPreferencesView>> {
        let b = body.0;
        let changes = preferences::Changes {
            calls: b.calls,
            messages: b.messages,
            bookings: b.bookings,
            reminders: b.reminders,
            group_sessions: b.group_sessions,
        };
        Ok(Json(
            preferences::update(&state.pool, auth.0.user.id, changes).await?.into(),
        ))
    }
}
