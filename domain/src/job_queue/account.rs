//! The jobs of a person's ownership of their account (issue 35), declared here because
//! `ownership` queues them and the worker's `jobs::data_export` and `jobs::account_removal` run them.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use sqlx::PgConnection;
use uuid::Uuid;

use super::Job;
use crate::Result;

/// Building one data export's zip; an hourly sweep deletes the archives past their 7 days.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildDataExport {
    pub export_id: Uuid,
}

impl Job for BuildDataExport {
    const QUEUE: &'static str = "data_exports";
    const MAX_ATTEMPTS: usize = 4;

    fn idempotency_key(&self, _run_at: Option<DateTime<Utc>>) -> Option<String> {
        Some(format!("data-export:{}", self.export_id))
    }
}

crate::sweep!(
    /// Every hour: expired archives are deleted.
    CleanupExports, queue: "data_exports_cleanup", schedule: "0 0 * * * *"
);

/// Removing a person whose grace period ends at the task's time; a daily sweep removes any whose
/// task was lost.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RemoveAccount {
    pub user_id: Uuid,
}

impl Job for RemoveAccount {
    const QUEUE: &'static str = "account_removal";
    const MAX_ATTEMPTS: usize = 10;

    fn idempotency_key(&self, run_at: Option<DateTime<Utc>>) -> Option<String> {
        let due = run_at.unwrap_or(DateTime::UNIX_EPOCH);
        Some(format!("account-removal:{}:{}", self.user_id, due.timestamp()))
    }
}

crate::sweep!(
    /// Every day at 04:15 UTC.
    SweepRemovals, queue: "account_removal_sweep", schedule: "0 15 4 * * *"
);

/// Queues the build of a new export, in the transaction that records it.
pub async fn enqueue_export(conn: &mut PgConnection, export_id: Uuid) -> Result<()> {
    BuildDataExport { export_id }.enqueue(conn).await
}

/// Queues the removal of a person at the end of their grace period; a cancelled deletion leaves
/// the task to find nothing due.
pub async fn enqueue_removal(conn: &mut PgConnection, user_id: Uuid, due: DateTime<Utc>) -> Result<()> {
    RemoveAccount { user_id }.enqueue_at(conn, due).await
}
