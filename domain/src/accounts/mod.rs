//! Accounts: registration, sign-in, sessions, e-mail verification and passwords.

pub mod email_links;
pub mod email_preferences;
pub mod login;
pub mod passwords;
pub mod profile;
pub mod registration;
pub mod sessions;
pub mod two_factor;
pub mod unsubscribe;
pub mod users;
pub mod validation;

pub use users::{Role, User};
