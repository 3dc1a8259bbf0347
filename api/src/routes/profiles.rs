use chrono::{DateTime, Utc};
use poem::web::Data;
use poem_openapi::{Multipart, Object, OpenApi, param::Path, payload::Json, types::multipart::Upload};
use uuid::Uuid;

use super::Tag;
use crate::views::{
    catalogue::MentorView,
    {OwnProfileView, Role, parse_id},
};
use crate::{
    auth::SessionAuth,
    error::{ApiError, ApiResult},
    state::AppState,
};
use domain::job_queue::email::{self as email_jobs, EmailJob};
use domain::{
    Error,
    accounts::{profile, users},
    catalogue::mentors,
    uploads,
};

pub struct ProfilesApi;

pub(super) const USER_NOT_FOUND: &str = "User not found";
pub(super) const NO_IMAGE: &str = "Please choose an image to upload";

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct TimeZoneRequest {
    /// IANA zone, e.g. "Europe/London"
    pub time_zone: String,
}

/// Only the fields sent change. A new e-mail address must be verified again.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ProfileChangesRequest {
    pub first_name: Option<String>,
    pub last_name: Option<String>,
    pub email: Option<String>,
    pub bio: Option<String>,
    pub profile_image_url: Option<String>,
}

#[derive(Multipart)]
pub(super) struct ProfileImageForm {
    /// JPEG, PNG, GIF or WebP, at most 5 MB
    #[oai(rename = "profileImage")]
    pub profile_image: Option<Upload>,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct ImageUploaded {
    pub image_url: String,
}

/// A user as other signed-in users see them; `email` only for the user themself and admins.
#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct PublicUserView {
    pub id: Uuid,
    pub first_name: String,
    pub last_name: String,
    #[oai(nullable)]
    pub profile_image_url: Option<String>,
    #[oai(nullable)]
    pub bio: Option<String>,
    pub role: Role,
    pub is_admin: bool,
    pub is_active: bool,
    pub email_verified: bool,
    pub created_at: DateTime<Utc>,
    #[oai(nullable)]
    pub stripe_subscription_id: Option<String>,
    #[oai(nullable)]
    pub email: Option<String>,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Profiles")]
impl ProfilesApi {
    /// The signed-in user's own profile, with the bio.
    /// The zone the user's browser is in (IANA): e-mails and notifications state times in it.
    #[oai(path = "/user/time-zone", method = "put", operation_id = "setTimeZone")]
    async fn set_time_zone(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<TimeZoneRequest>,
    ) -> ApiResult<Json<TimeZoneRequest>> {
        let zone = profile::set_time_zone(&state.pool, auth.0.user.id, &body.0.time_zone).await?;
        Ok(Json(TimeZoneRequest { time_zone: zone }))
    }

    #[oai(path = "/user/profile", method = "get", operation_id = "getOwnProfile")]
    async fn own(&self, auth: SessionAuth) -> Json<OwnProfileView> {
        Json(auth.0.user.into())
    }

    /// Edits the signed-in user's profile; a changed e-mail gets a verification link.
    #[oai(path = "/user/profile", method = "put", operation_id = "updateProfile")]
    async fn update(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        body: Json<ProfileChangesRequest>,
    ) -> ApiResult<Json<OwnProfileView>> {
        let body = body.0;
        let user_id = auth.0.user.id;
        let mut tx = state.pool.begin().await?;
        let changes = profile::ProfileChanges {
            first_name: body.first_name,
            last_name: body.last_name,
            email: body.email,
            bio: body.bio,
            profile_image_url: body.profile_image_url,
        };
        let updated = profile::update(&mut tx, user_id, changes).await?;
        if updated.email_changed {
            email_jobs::enqueue(&mut tx, &EmailJob::VerifyEmail { user_id, next: None }).await?;
        }
        if let Some(old) = &updated.replaced_image {
            uploads::queue_deletion(&mut tx, old).await?;
        }
        tx.commit().await?;
        Ok(Json(updated.user.into()))
    }

    /// Uploads a profile image (checked by content) and makes it the user's picture.
    #[oai(path = "/user/profile-image", method = "post", operation_id = "uploadProfileImage")]
    async fn upload_image(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        form: ProfileImageForm,
    ) -> ApiResult<Json<ImageUploaded>> {
        let upload = form.profile_image.ok_or_else(|| Error::validation(NO_IMAGE))?;
        if upload.size() > uploads::MAX_IMAGE_BYTES {
            return Err(Error::validation(uploads::IMAGE_TOO_LARGE).into());
        }
        let bytes = upload
            .into_vec()
            .await
            .map_err(|_| Error::validation(uploads::NOT_AN_IMAGE))?;
        let image_url = uploads::store_image(&state.config.upload_dir, &bytes).await?;
        let mut tx = state.pool.begin().await?;
        uploads::record(&mut *tx, auth.0.user.id, &image_url).await?;
        if let Some(old) = profile::set_image(&mut tx, auth.0.user.id, &image_url).await? {
            uploads::queue_deletion(&mut tx, &old).await?;
        }
        tx.commit().await?;
        Ok(Json(ImageUploaded { image_url }))
    }

    /// A user's public profile.
    #[oai(path = "/users/:id", method = "get", operation_id = "getUser")]
    async fn get(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        id: Path<String>,
    ) -> ApiResult<Json<PublicUserView>> {
        let id = parse_id(&id, USER_NOT_FOUND)?;
        let user = users::find(&state.pool, id)
            .await?
            .ok_or_else(|| ApiError::not_found(USER_NOT_FOUND))?;
        let viewer = &auth.0.user;
        let sees_contact = viewer.id == user.id || viewer.is_admin;
        Ok(Json(PublicUserView {
            id: user.id,
            first_name: user.first_name,
            last_name: user.last_name,
            profile_image_url: user.profile_image_url,
            bio: user.bio,
            role: user.role,
            is_admin: user.is_admin,
            is_active: user.is_active,
            email_verified: user.email_verified,
            created_at: user.created_at,
            stripe_subscription_id: user.stripe_subscription_id,
            email: sees_contact.then_some(user.email),
        }))
    }

    /// The mentor profile of a user; 404 when the user is not a mentor.
    #[oai(path = "/users/:id/mentor", method = "get", operation_id = "getUserMentor")]
    async fn mentor(&self, state: Data<&AppState>, auth: SessionAuth, id: Path<String>) -> ApiResult<Json<MentorView>> {
        let id = parse_id(&id, mentors::PROFILE_NOT_FOUND)?;
        let me = &auth.0.user;
        let mentor = mentors::find_by_user(&state.pool, id)
            .await?
            // An unapproved profile is the mentor's own (and the administrators') to see.
            .filter(|m| m.is_public() || (m.is_active && (m.user_id == me.id || me.is_admin)))
            .ok_or_else(|| ApiError::not_found(mentors::PROFILE_NOT_FOUND))?;
        Ok(Json(
            mentors::with_services(&state.pool, vec![mentor], false)
                .await?
                .remove(0)
                .into(),
        ))
    }
}
