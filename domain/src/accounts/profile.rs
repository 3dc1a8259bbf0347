//! A user editing their own profile.

use sqlx::PgConnection;
use uuid::Uuid;

use super::registration::EMAIL_TAKEN;
use super::{
    users::{self, User},
    validation,
};
use crate::{
    Error, Result,
    catalogue::mentors::{changed_image_url, owned_image},
    error::OnConstraint,
    text,
};

pub const MAX_BIO_CHARS: usize = 2000;

#[derive(Default)]
pub struct ProfileChanges {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub bio: Option<String>,
    pub profile_image_url: Option<String>,
}

pub struct Updated {
    pub user: User,
    /// The address changed: it is unverified now and needs a verification mail.
    pub email_changed: bool,
    /// The image this change replaced or cleared, for deletion once nothing shows it.
    pub replaced_image: Option<String>,
}

pub async fn update(tx: &mut PgConnection, user_id: Uuid, changes: ProfileChanges) -> Result<Updated> {
    let current = users::find(&mut *tx, user_id)
        .await?
        .ok_or_else(|| Error::not_found("User not found"))?;
    let first_name = changes
        .first_name
        .as_deref()
        .map(|n| validation::name(n, "First name"))
        .transpose()?
        .unwrap_or(current.first_name);
    let last_name = changes
        .last_name
        .as_deref()
        .map(|n| validation::name(n, "Last name"))
        .transpose()?
        .unwrap_or(current.last_name);
    let email = changes
        .email
        .as_deref()
        .map(validation::email)
        .transpose()?
        .unwrap_or(current.email.clone());
    let email_changed = !email.eq_ignore_ascii_case(&current.email);
    if let Some(b) = changes.bio.as_deref() {
        text::multi_line(b, "Bio")?;
    }
    let bio = match changes.bio.as_deref().map(str::trim) {
        Some("") => None,
        Some(b) if b.chars().count() > MAX_BIO_CHARS => {
            return Err(Error::validation("Bio must be at most 2000 characters"));
        }
        Some(b) => Some(b.to_string()),
        None => current.bio,
    };
    let image = changed_image_url(changes.profile_image_url.as_deref(), current.profile_image_url.clone())?;
    let image = owned_image(&mut *tx, user_id, image, current.profile_image_url.as_deref()).await?;
    let replaced_image = current.profile_image_url.filter(|old| image.as_ref() != Some(old));
    sqlx::query!(
        "UPDATE users SET first_name = $2, last_name = $3, email = $4, bio = $5, profile_image_url = $6, \
         email_verified = email_verified AND NOT $7, updated_at = now() WHERE id = $1",
        user_id,
        first_name,
        last_name,
        &email,
        bio,
        image,
        email_changed,
    )
    .execute(&mut *tx)
    .await
    .on_constraint("users_email_key", || Error::conflict(EMAIL_TAKEN))?;
    let user = users::find(&mut *tx, user_id)
        .await?
        .ok_or_else(|| Error::not_found("User not found"))?;
    Ok(Updated {
        user,
        email_changed,
        replaced_image,
    })
}

/// Sets a freshly uploaded image; returns the image it replaced, if any.
pub async fn set_image(tx: &mut PgConnection, user_id: Uuid, url: &str) -> Result<Option<String>> {
    let replaced: Option<String> =
        sqlx::query_scalar!("SELECT profile_image_url FROM users WHERE id = $1 FOR UPDATE", user_id,)
            .fetch_optional(&mut *tx)
            .await?
            .flatten();
    sqlx::query!(
        "UPDATE users SET profile_image_url = $2, updated_at = now() WHERE id = $1",
        user_id,
        url,
    )
    .execute(&mut *tx)
    .await?;
    Ok(replaced)
}

/// Saves the zone the user's browser reported; returns its canonical name.
pub async fn set_time_zone(db: &sqlx::PgPool, user_id: uuid::Uuid, zone: &str) -> crate::Result<String> {
    let zone = crate::time_zones::validate(zone)?;
    sqlx::query!(
        "UPDATE users SET time_zone = $2 WHERE id = $1 AND time_zone IS DISTINCT FROM $2",
        user_id,
        &zone,
    )
    .execute(db)
    .await?;
    Ok(zone)
}
