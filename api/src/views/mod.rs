//! Response and request shapes shared by several areas.

pub mod booking;
pub mod catalogue;
pub mod messaging;

use chrono::{DateTime, Utc};
use poem_openapi::Object;
use uuid::Uuid;

use domain::accounts::User;

pub use domain::accounts::Role;

/// A signed-in user as the app sees them; never any password data.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct UserView {
    pub id: Uuid,
    pub email: String,
    pub first_name: String,
    pub last_name: String,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
    pub is_admin: bool,
    pub role: Role,
    pub is_active: bool,
    pub email_verified: bool,
    pub created_at: DateTime<Utc>,
    #[oai(nullable)]
    pub stripe_subscription_id: Option<String>,
    /// Whether they have a mentor profile (`GET /api/mentor/profile` answers 404 when not)
    pub is_mentor: bool,
    /// The signed-in user's own sign-in before this session's; null at their first sign-in (the
    /// app says 'Welcome' then, 'Welcome back' after). Null too in lists of other users.
    #[oai(nullable)]
    pub previous_sign_in_at: Option<DateTime<Utc>>,
    /// Whether they sign in with a second factor (an authenticator app's code)
    pub two_factor_enabled: bool,
    /// When the account will be removed: they asked to delete it and can still keep it until then
    /// (`POST /api/user/cancel-deletion`). Null when no deletion is scheduled.
    #[oai(nullable)]
    pub deletion_scheduled_at: Option<DateTime<Utc>>,
}

impl From<User> for UserView {
    fn from(u: User) -> Self {
        let role = u.role;
        Self {
            id: u.id,
            email: u.email,
            first_name: u.first_name,
            last_name: u.last_name,
            profile_image_url: u.profile_image_url,
            is_admin: u.is_admin,
            role,
            is_active: u.is_active,
            email_verified: u.email_verified,
            created_at: u.created_at,
            stripe_subscription_id: u.stripe_subscription_id,
            is_mentor: u.is_mentor,
            previous_sign_in_at: None,
            two_factor_enabled: u.two_factor_enabled,
            deletion_scheduled_at: u.deletion_scheduled_at,
        }
    }
}

/// The signed-in user's own profile: the user plus what only the profile screen needs.
#[derive(Object, Clone, Debug)]
#[oai(rename_all = "camelCase")]
pub struct OwnProfileView {
    #[oai(flatten)]
    pub user: UserView,
    #[oai(nullable)]
    pub bio: Option<String>,
}

impl From<User> for OwnProfileView {
    fn from(u: User) -> Self {
        let bio = u.bio.clone();
        Self { user: u.into(), bio }
    }
}

#[derive(Object, Clone, Debug)]
pub struct MessageResponse {
    pub message: String,
}

impl MessageResponse {
    pub fn new(message: impl Into<String>) -> Self {
        Self {
            message: message.into(),
        }
    }
}

/// Parses a path id; anything that is not a UUID is simply not found.
pub fn parse_id(raw: &str, not_found: &str) -> Result<Uuid, crate::error::ApiError> {
    raw.trim()
        .parse()
        .map_err(|_| crate::error::ApiError::not_found(not_found))
}

/// A request that names only an e-mail address (resend-verification, forgot-password).
#[derive(Object)]
pub struct EmailRequest {
    #[oai(default)]
    pub email: String,
}
