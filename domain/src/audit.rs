//! The administrators' audit trail: one row per change, written in the change's own transaction
//! so a change and its record commit (or roll back) together.

use serde_json::Value;
use sqlx::PgConnection;
use uuid::Uuid;

use crate::Result;

/// What an administrator did to which object.
pub struct AuditEntry<'a> {
    pub admin_id: Uuid,
    /// e.g. `user.deactivate`, `payout.mark_paid`.
    pub action: &'a str,
    /// e.g. `user`, `payout`.
    pub object_type: &'a str,
    pub object_id: String,
    pub before: Option<Value>,
    pub after: Option<Value>,
}

pub async fn record(conn: &mut PgConnection, entry: AuditEntry<'_>) -> Result<()> {
    sqlx::query!(
        "INSERT INTO admin_audit (admin_id, action, object_type, object_id, before, after) \
         VALUES ($1, $2, $3, $4, $5, $6)",
        entry.admin_id,
        entry.action,
        entry.object_type,
        entry.object_id,
        entry.before,
        entry.after,
    )
    .execute(conn)
    .await?;
    Ok(())
}
