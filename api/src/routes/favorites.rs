use poem::web::Data;
use poem_openapi::{Object, OpenApi, param::Path, payload::Json};

use super::Tag;
use crate::views::{catalogue::MentorView, parse_id};
use crate::{auth::SessionAuth, error::ApiResult, state::AppState};
use domain::catalogue::{favorites, mentors};

pub struct FavoritesApi;

pub(super) const ADDED: &str = "Added to favorites";
pub(super) const REMOVED: &str = "Removed from favorites";

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct FavoriteStatus {
    pub is_favorited: bool,
}

#[derive(Object)]
#[oai(rename_all = "camelCase")]
pub(super) struct FavoriteChange {
    pub is_favorited: bool,
    pub message: String,
}

#[OpenApi(prefix_path = "/api", tag = "Tag::Favorites")]
impl FavoritesApi {
    /// The signed-in user's favourite mentors, most recently added first.
    #[oai(path = "/user/favorites", method = "get", operation_id = "listFavorites")]
    async fn list(&self, state: Data<&AppState>, auth: SessionAuth) -> ApiResult<Json<Vec<MentorView>>> {
        Ok(Json(
            favorites::list(&state.pool, auth.0.user.id)
                .await?
                .into_iter()
                .map(Into::into)
                .collect(),
        ))
    }

    /// Whether a mentor is among the user's favourites.
    #[oai(
        path = "/user/favorites/check/:mentor_id",
        method = "get",
        operation_id = "checkFavorite"
    )]
    async fn check(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        mentor_id: Path<String>,
    ) -> ApiResult<Json<FavoriteStatus>> {
        let is_favorited = match mentor_id.trim().parse() {
            Ok(id) => favorites::contains(&state.pool, auth.0.user.id, id).await?,
            Err(_) => false,
        };
        Ok(Json(FavoriteStatus { is_favorited }))
    }

    /// Adds a mentor to the favourites (no change when already there).
    #[oai(path = "/user/favorites/:mentor_id", method = "post", operation_id = "addFavorite")]
    async fn add(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        mentor_id: Path<String>,
    ) -> ApiResult<Json<FavoriteChange>> {
        let id = parse_id(&mentor_id, mentors::NOT_FOUND)?;
        favorites::add(&state.pool, auth.0.user.id, id).await?;
        Ok(Json(FavoriteChange {
            is_favorited: true,
            message: ADDED.into(),
        }))
    }

    /// Removes a mentor from the favourites (no change when not there).
    #[oai(
        path = "/user/favorites/:mentor_id",
        method = "delete",
        operation_id = "removeFavorite"
    )]
    async fn remove(
        &self,
        state: Data<&AppState>,
        auth: SessionAuth,
        mentor_id: Path<String>,
    ) -> ApiResult<Json<FavoriteChange>> {
        if let Ok(id) = mentor_id.trim().parse() {
            favorites::remove(&state.pool, auth.0.user.id, id).await?;
        }
        Ok(Json(FavoriteChange {
            is_favorited: false,
            message: REMOVED.into(),
        }))
    }
}
