//! `api seed`: demo accounts for a developer machine, created idempotently.

use domain::accounts::passwords;
use sqlx::PgPool;

pub struct DemoUser {
    pub email: &'static str,
    pub password: &'static str,
    pub first_name: &'static str,
    pub last_name: &'static str,
    pub is_admin: bool,
}

/// Documented in the README.
pub const DEMO_USERS: &[DemoUser] = &[
    DemoUser { email: "admin@mystic-mentors.test", password: "admin-password", first_name: "Ada", last_name: "Admin", is_admin: true },
    DemoUser { email: "seeker@mystic-mentors.test", password: "seeker-password", first_name: "Sage", last_name: "Seeker", is_admin: false },
    DemoUser { email: "luna@mystic-mentors.test", password: "mentor-password", first_name: "Luna", last_name: "Starling", is_admin: false },
];

pub async fn run(pool: &PgPool) -> anyhow::Result<()> {
    for demo in DEMO_USERS {
        let hash = passwords::hash(demo.password).await?;
        let created = sqlx::query(
            "INSERT INTO users (email, password_hash, first_name, last_name, is_admin, email_verified) \
             VALUES ($1, $2, $3, $4, $5, true) ON CONFLICT ((lower(email))) DO NOTHING",
        )
        .bind(demo.email)
        .bind(&hash)
        .bind(demo.first_name)
        .bind(demo.last_name)
        .bind(demo.is_admin)
        .execute(pool)
        .await?
        .rows_affected();
        println!("{} {}", if created == 1 { "created" } else { "exists " }, demo.email);
    }
    Ok(())
}
