//! Pushing tasks into apalis' Postgres storage, inside the caller's transaction (it lives in
//! `domain::job_queue`, where business rules can queue tasks too).

pub use domain::job_queue::{PushError, PushOptions, not_before, push, push_all};
