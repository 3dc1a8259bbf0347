//! HTTP handlers grouped by area; each area is one poem-openapi `OpenApi` impl.

mod accounts;
mod health;
mod mentor_profile;
mod passwords;
pub mod views;

use poem_openapi::{OpenApiService, Tags};

#[derive(Tags)]
pub enum Tag {
    /// Liveness
    Health,
    /// Registration, sign-in, sessions and e-mail verification
    Accounts,
    /// Forgotten and changed passwords
    Passwords,
    /// Mentor profiles
    Mentors,
}

pub type Apis = (health::HealthApi, accounts::AccountsApi, passwords::PasswordsApi, mentor_profile::MentorProfileApi);

pub fn service() -> OpenApiService<Apis, ()> {
    OpenApiService::new(
        (health::HealthApi, accounts::AccountsApi, passwords::PasswordsApi, mentor_profile::MentorProfileApi),
        "Mystic Mentors API",
        env!("CARGO_PKG_VERSION"),
    )
}
