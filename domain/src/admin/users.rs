//! Users as the admin console lists them, and the admin's switch that activates or deactivates one.

use serde_json::json;
use sqlx::{PgConnection, PgExecutor};
use uuid::Uuid;

use crate::{
    Error, Result,
    accounts::{Role, User, users},
    audit::{self, AuditEntry},
    choice::Choice,
};

pub const USER_NOT_FOUND: &str = "User not found";
pub const INVALID_ROLE: &str = "Invalid role: use user, mentor or admin";
pub const INVALID_IS_ACTIVE: &str = "Invalid isActive: use true or false";
pub const CANNOT_DEACTIVATE_SELF: &str = "You cannot deactivate your own account";

/// Filters of the users list; `None` means any.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Filter {
    pub role: Option<Role>,
    pub is_active: Option<bool>,
}

impl Filter {
    /// Reads the query's `role` and `isActive`; an empty value means no filter.
    pub fn parse(role: Option<&Choice<Role>>, is_active: Option<&str>) -> Result<Self> {
        let role = match role.filter(|r| !r.is_blank()) {
            None => None,
            Some(r) => Some(r.value(INVALID_ROLE)?),
        };
        let is_active = match is_active.map(str::trim).filter(|v| !v.is_empty()) {
            None => None,
            Some("true") => Some(true),
            Some("false") => Some(false),
            Some(_) => return Err(Error::validation(INVALID_IS_ACTIVE)),
        };
        Ok(Self { role, is_active })
    }
}

/// Every user matching the filter, newest first.
pub async fn list(db: impl PgExecutor<'_>, filter: &Filter) -> Result<Vec<User>> {
    Ok(crate::accounts::users::query_users!(
        "WHERE ($1::text IS NULL OR role = $1) AND ($2::boolean IS NULL OR is_active = $2) ORDER BY created_at DESC, id DESC",
        filter.role as Option<crate::accounts::Role>,
        filter.is_active,
    )
    .fetch_all(db)
    .await?)
}

/// Activates or deactivates a user, in the caller's transaction: deactivating ends every session
/// of theirs at once (the sessions trigger closes their sockets), and the change is audited.
/// An admin cannot deactivate themself (there would be nobody left to undo it).
pub async fn set_active(tx: &mut PgConnection, admin_id: Uuid, user_id: Uuid, is_active: bool) -> Result<User> {
    if user_id == admin_id && !is_active {
        return Err(Error::conflict(CANNOT_DEACTIVATE_SELF));
    }
    let before: bool = sqlx::query_scalar!("SELECT is_active FROM users WHERE id = $1 FOR UPDATE", user_id,)
        .fetch_optional(&mut *tx)
        .await?
        .ok_or_else(|| Error::not_found(USER_NOT_FOUND))?;
    sqlx::query!("UPDATE users SET is_active = $2 WHERE id = $1", user_id, is_active,)
        .execute(&mut *tx)
        .await?;
    if !is_active {
        sqlx::query!("DELETE FROM sessions WHERE user_id = $1", user_id,)
            .execute(&mut *tx)
            .await?;
    }
    audit::record(
        &mut *tx,
        AuditEntry {
            admin_id,
            action: if is_active { "user.activate" } else { "user.deactivate" },
            object_type: "user",
            object_id: user_id.to_string(),
            before: Some(json!({ "isActive": before })),
            after: Some(json!({ "isActive": is_active })),
        },
    )
    .await?;
    users::find(&mut *tx, user_id)
        .await?
        .ok_or_else(|| Error::not_found(USER_NOT_FOUND))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(sent: &str) -> Choice<Role> {
        sent.parse().unwrap()
    }

    #[test]
    fn filters_accept_the_three_roles_and_booleans() {
        assert_eq!(Filter::parse(None, None).unwrap(), Filter::default());
        assert_eq!(Filter::parse(Some(&choice("")), Some(" ")).unwrap(), Filter::default());
        for &role in Role::ALL {
            assert_eq!(
                Filter::parse(Some(&choice(role.as_str())), None).unwrap().role,
                Some(role)
            );
        }
        assert_eq!(Filter::parse(None, Some("true")).unwrap().is_active, Some(true));
        assert_eq!(Filter::parse(None, Some("false")).unwrap().is_active, Some(false));
    }

    #[test]
    fn filters_refuse_anything_else_with_a_clear_message() {
        for bad in ["Admin", "seeker", "users"] {
            assert_eq!(
                Filter::parse(Some(&choice(bad)), None).unwrap_err().to_string(),
                INVALID_ROLE
            );
        }
        for bad in ["yes", "1", "TRUE"] {
            assert_eq!(
                Filter::parse(None, Some(bad)).unwrap_err().to_string(),
                INVALID_IS_ACTIVE
            );
        }
    }
}
