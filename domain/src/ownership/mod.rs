//! People own their account (issue 35): a copy of their data (`data_export`) and deleting the
//! account with a grace period (`deletion`). A leaf above accounts, booking and payouts: it uses
//! their rules (cancellations, refunds, what is still owed) and nothing depends on it.

pub mod data_export;
pub mod deletion;
