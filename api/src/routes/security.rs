//! Privacy and security of one's own account: where it is signed in.

use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{Object, OpenApi, param::Path, payload::Json};
use uuid::Uuid;

use super::Tag;
use crate::views::{MessageResponse, parse_id};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::accounts::{sessions, two_factor};

pub struct SecurityApi;

pub(super) const TWO_FACTOR_DISABLED: &str = "Two-factor sign-in is off";

/// What an authenticator app needs to start making codes.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct TwoFactorSetupView {
    /// The base32 secret, for typing in by hand.
    pub secret: String,
    /// The `otpauth://totp/...` URI the QR code holds.
    pub otpauth_uri: String,
    /// The URI as a QR code, an SVG document.
    pub qr_svg: String,
}

#[derive(Object)]
pub(super) struct TwoFactorCodeRequest {
    /// A code from the authenticator app.
    #[oai(default)]
    pub code: String,
}

#[derive(Object)]
pub(super) struct TwoFactorDisableRequest {
    #[oai(default)]
    pub password: String,
    /// A code from the authenticator app, or a recovery code.
    #[oai(default)]
    pub code: String,
}

/// Single-use recovery codes, shown once: each signs in once in place of a code.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct RecoveryCodesView {
    pub recovery_codes: Vec<String>,
}

pub(super) const SESSION_ENDED: &str = "Signed out of that device";
pub(super) const OTHER_SESSIONS_ENDED: &str = "Signed out of every other device";

/// One place the account is signed in.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct SessionView {
    pub id: Uuid,
    /// The session making this request.
    pub current: bool,
    pub created_at: DateTime<Utc>,
    pub last_seen_at: DateTime<Utc>,
    /// The browser's `User-Agent` when it signed in (null when it sent none).
    pub user_agent: Option<String>,
    /// The client's address when it signed in.
    pub address: Option<String>,
}

impl From<sessions::SessionInfo> for SessionView {
    fn from(s: sessions::SessionInfo) -> Self {
        SessionView {
            id: s.id,
            current: s.current,
            created_at: s.created_at,
            last_seen_at: s.last_seen_at,
            user_agent: s.user_agent,
            address: s.address,
        }
    }
}

#[OpenApi(prefix_path = "/api/user", tag = "Tag::Accounts")]
impl SecurityApi {
    /// Where the account is signed in: its live sessions, the current one first.
    #[oai(path = "/sessions", method = "get", operation_id = "listSessions")]
    async fn list(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<SessionView>>> {
        let me = &auth.0;
        let list = sessions::list(&state.pool, me.user.id, &me.session_token).await?;
        Ok(Json(list.into_iter().map(Into::into).collect()))
    }

    /// Ends one of the account's sessions; its sockets close at once. Another user's is not found.
    #[oai(path = "/sessions/:id", method = "delete", operation_id = "endSession")]
    async fn end(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<MessageResponse>> {
        let id = parse_id(&id, sessions::SESSION_NOT_FOUND)?;
        sessions::end_by_id(&state.pool, auth.0.user.id, id).await?;
        Ok(Json(MessageResponse::new(SESSION_ENDED)))
    }

    /// Starts setting up two-factor sign-in: a new secret for the authenticator app, in force once
    /// `enable` confirms a code from it. 409 when two factors are on already.
    #[oai(path = "/two-factor/setup", method = "post", operation_id = "setupTwoFactor")]
    async fn two_factor_setup(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<TwoFactorSetupView>> {
        let me = &auth.0.user;
        let setup = two_factor::setup(&state.pool, me.id, &me.email).await?;
        Ok(Json(TwoFactorSetupView {
            secret: setup.secret,
            otpauth_uri: setup.otpauth_uri,
            qr_svg: setup.qr_svg,
        }))
    }

    /// Turns two-factor sign-in on with a first code from the app; answers the 10 recovery codes.
    #[oai(path = "/two-factor/enable", method = "post", operation_id = "enableTwoFactor")]
    async fn two_factor_enable(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<TwoFactorCodeRequest>,
    ) -> ApiResult<Json<RecoveryCodesView>> {
        let codes = two_factor::enable(&state.pool, auth.0.user.id, &body.code).await?;
        Ok(Json(RecoveryCodesView { recovery_codes: codes }))
    }

    /// Turns two-factor sign-in off, on the password and a code (or a recovery code).
    #[oai(path = "/two-factor/disable", method = "post", operation_id = "disableTwoFactor")]
    async fn two_factor_disable(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<TwoFactorDisableRequest>,
    ) -> ApiResult<Json<MessageResponse>> {
        two_factor::disable(&state.pool, auth.0.user.id, &body.password, &body.code).await?;
        Ok(Json(MessageResponse::new(TWO_FACTOR_DISABLED)))
    }

    /// A new set of recovery codes on a current code; the old ones stop working.
    #[oai(
        path = "/two-factor/recovery-codes",
        method = "post",
        operation_id = "newRecoveryCodes"
    )]
    async fn recovery_codes(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<TwoFactorCodeRequest>,
    ) -> ApiResult<Json<RecoveryCodesView>> {
        let codes = two_factor::regenerate_recovery_codes(&state.pool, auth.0.user.id, &body.code).await?;
        Ok(Json(RecoveryCodesView { recovery_codes: codes }))
    }

    /// Ends every session of the account but the one making the request.
    #[oai(
        path = "/sessions/revoke-others",
        method = "post",
        operation_id = "revokeOtherSessions"
    )]
    async fn revoke_others(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<MessageResponse>> {
        let me = &auth.0;
        sessions::end_all(&state.pool, me.user.id, Some(&me.session_token)).await?;
        Ok(Json(MessageResponse::new(OTHER_SESSIONS_ENDED)))
    }
}
