//! Every durable job, once: [`every_job!`](crate::every_job) lists each payload type with its kind
//! (`job`: the code queues it; `sweep`: its cron schedule does). [`QUEUES`], [`sweeps`] and
//! [`schedules`] are made from it here, and the `jobs` crate makes its workers and cron loops from
//! it, so a job listed without a handler there does not compile.

use std::{borrow::Cow, str::FromStr};

use chrono::{DateTime, Utc};

use crate::job_queue::{Job, Sweep};

/// Calls the macro `$then` with every job: `job <payload type>;` or `sweep <payload type>;`.
/// The order is the order of [`QUEUES`]; add a job at the end (docs/adding-a-job.md).
#[macro_export]
macro_rules! every_job {
    ($then:ident) => {
        $then! {
            job $crate::job_queue::email::EmailJob;
            sweep $crate::job_queue::cleanup::Cleanup;
            job $crate::booking::jobs::ExpireHold;
            sweep $crate::booking::jobs::SweepHolds;
            job $crate::booking::jobs::Remind;
            sweep $crate::booking::jobs::SweepReminders;
            job $crate::booking::jobs::Complete;
            sweep $crate::booking::jobs::SweepCompletions;
            job $crate::job_queue::refunds::PayRefund;
            job $crate::uploads::DeleteUpload;
            job $crate::payments::jobs::Reconcile;
            sweep $crate::payments::jobs::SweepAttempts;
            job $crate::notifications::FanOut;
            job $crate::calls::jobs::MissCall;
            job $crate::calls::jobs::EndDroppedCall;
            sweep $crate::payouts::jobs::RunPayouts;
            job $crate::group_sessions::jobs::GroupSessionStep;
            sweep $crate::group_sessions::jobs::SweepGroupSessions;
            job $crate::announcements::Announce;
            job $crate::push::PushTask;
            job $crate::calendars::connection::SyncCalendar;
            sweep $crate::calendars::connection::SweepCalendars;
            job $crate::job_queue::calendar_writeback::WriteBack;
            job $crate::job_queue::account::BuildDataExport;
            sweep $crate::job_queue::account::CleanupExports;
            job $crate::job_queue::account::RemoveAccount;
            sweep $crate::job_queue::account::SweepRemovals;
            job $crate::wallet::jobs::ReconcileTopUp;
            job $crate::wallet::jobs::PayWalletRefund;
            job $crate::presence::jobs::CheckPresence;
            sweep $crate::presence::jobs::SweepPresence;
            job $crate::readings::jobs::ExpireReading;
            job $crate::readings::jobs::ChargeMinute;
        }
    };
}

macro_rules! declare {
    ($($kind:ident $job:ty;)*) => {
        /// Every queue the worker serves (for `/api/health`, the console and the supervisor).
        pub const QUEUES: &[&str] = &[$(<$job as Job>::QUEUE),*];

        /// Every sweep's queue and cron schedule.
        pub fn sweeps() -> Vec<(&'static str, &'static str)> {
            [$(declare!(@sweep $kind $job)),*].into_iter().flatten().collect()
        }

        /// Every sweep's queue and the cron schedule this process runs ([`Sweep::schedule`]).
        pub fn schedules() -> Vec<(&'static str, Cow<'static, str>)> {
            [$(declare!(@schedules $kind $job)),*].into_iter().flatten().collect()
        }

        #[cfg(test)]
        fn attempts() -> Vec<usize> {
            vec![$(<$job as Job>::MAX_ATTEMPTS),*]
        }
    };
    (@sweep job $job:ty) => { None };
    (@sweep sweep $job:ty) => { Some((<$job as Job>::QUEUE, <$job as Sweep>::SCHEDULE)) };
    (@schedules job $job:ty) => { None };
    (@schedules sweep $job:ty) => { Some((<$job as Job>::QUEUE, <$job as Sweep>::schedule())) };
}

crate::every_job!(declare);

/// The first tick of the cron `expression` after `after`; `None` for an invalid expression or
/// one that never ticks again.
pub fn next_run(expression: &str, after: DateTime<Utc>) -> Option<DateTime<Utc>> {
    cron::Schedule::from_str(expression).ok()?.after(&after).next()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Queued tasks carry these names, tries and ticks: they never change.
    #[test]
    fn queues_attempts_and_schedules_stay_as_they_were() {
        assert_eq!(
            QUEUES,
            [
                "emails",
                "cleanup",
                "reservation_expiry",
                "reservation_expiry_sweep",
                "booking_reminders",
                "booking_reminders_sweep",
                "booking_completion",
                "booking_completion_sweep",
                "refunds",
                "upload_cleanup",
                "payment_reconciliation",
                "payment_reconciliation_sweep",
                "notification_fanout",
                "call_timeout",
                "call_reconnect_grace",
                "payout_batch",
                "group_session_state",
                "group_session_state_sweep",
                "announcement_fanout",
                "web_push",
                "calendar_sync",
                "calendar_sync_sweep",
                "calendar_writeback",
                "data_exports",
                "data_exports_cleanup",
                "account_removal",
                "account_removal_sweep",
                "wallet_top_up_reconciliation",
                "wallet_refunds",
                "presence_checks",
                "presence_checks_sweep",
                "instant_session_expiry",
                "instant_session_charges",
            ]
        );
        assert_eq!(
            attempts(),
            [
                5, 3, 10, 3, 5, 3, 5, 3, 8, 5, 20, 3, 10, 5, 5, 3, 5, 3, 10, 5, 3, 3, 8, 4, 3, 10, 3, 20, 8, 5, 3, 10,
                10
            ]
        );
        assert_eq!(
            sweeps(),
            [
                ("cleanup", "0 30 3 * * *"),
                ("reservation_expiry_sweep", "0 * * * * *"),
                ("booking_reminders_sweep", "0 */5 * * * *"),
                ("booking_completion_sweep", "0 0 * * * *"),
                ("payment_reconciliation_sweep", "30 * * * * *"),
                ("payout_batch", "0 0 6 * * Mon"),
                ("group_session_state_sweep", "*/15 * * * * *"),
                ("calendar_sync_sweep", "0 */5 * * * *"),
                ("data_exports_cleanup", "0 0 * * * *"),
                ("account_removal_sweep", "0 15 4 * * *"),
                ("presence_checks_sweep", "15 * * * * *"),
            ]
        );
    }

    #[test]
    fn the_next_run_follows_the_expression() {
        use chrono::TimeZone;
        let monday_noon = Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap();
        assert_eq!(
            next_run("0 0 6 * * Mon", monday_noon),
            Some(Utc.with_ymd_and_hms(2026, 11, 30, 6, 0, 0).unwrap())
        );
        assert_eq!(
            next_run("*/15 * * * * *", monday_noon),
            Some(Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 15).unwrap())
        );
        assert_eq!(next_run("bogus", monday_noon), None);
    }

    #[test]
    fn every_schedule_is_a_valid_cron_expression() {
        for (queue, schedule) in sweeps() {
            assert!(cron::Schedule::from_str(schedule).is_ok(), "{queue}: {schedule}");
        }
    }
}
