//! Uploads belong to their uploader: existing pictures are backfilled as their user's uploads, and
//! a picture (the user's or the mentor profile's) must be an upload of the same user.

use domain::{
    accounts::profile::{self, ProfileChanges},
    catalogue::mentors::{self, INVALID_IMAGE_URL, ProfileInput},
    uploads,
};
use sqlx::PgPool;
use uuid::Uuid;

const MIGRATION: &str = include_str!("../../migrations/20261128110001_uploads.sql");

async fn user(pool: &PgPool, email: &str, image: Option<&str>) -> Uuid {
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name, email_verified, profile_image_url) \
         VALUES ($1, 'x', 'A', 'B', true, $2) RETURNING id",
    )
    .bind(email)
    .bind(image)
    .fetch_one(pool)
    .await
    .unwrap()
}

fn image(n: u8) -> String {
    format!("/uploads/{}.png", format!("{n:x}").repeat(32))
}

fn changes(url: &str) -> ProfileChanges {
    ProfileChanges {
        first_name: None,
        last_name: None,
        email: None,
        bio: None,
        profile_image_url: Some(url.into()),
    }
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn existing_pictures_are_backfilled_as_their_users_uploads(pool: PgPool) {
    // The state before the migration: pictures set, no uploads table.
    sqlx::query("DROP TABLE uploads").execute(&pool).await.unwrap();
    let ann = user(&pool, "ann@example.com", Some(&image(1))).await;
    let bob = user(&pool, "bob@example.com", None).await;
    let mira = user(&pool, "mira@example.com", Some(&image(2))).await;
    sqlx::query(
        "INSERT INTO mentors (user_id, display_name, bio, specialties, base_price_cents, profile_image_url) \
         VALUES ($1, 'Mira', repeat('b', 60), '{Tarot Reading}', 1000, $2)",
    )
    .bind(mira)
    .bind(image(3))
    .execute(&pool)
    .await
    .unwrap();
    sqlx::raw_sql(MIGRATION).execute(&pool).await.unwrap();

    let mut owned: Vec<(Uuid, String)> = sqlx::query_as("SELECT owner, path FROM uploads")
        .fetch_all(&pool)
        .await
        .unwrap();
    owned.sort_by(|a, b| a.1.cmp(&b.1));
    assert_eq!(owned, vec![(ann, image(1)), (mira, image(2)), (mira, image(3))]);
    assert!(uploads::owned_by(&pool, &image(1), ann).await.unwrap());
    assert!(!uploads::owned_by(&pool, &image(1), bob).await.unwrap());
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_picture_must_be_an_upload_of_the_same_user(pool: PgPool) {
    let ann = user(&pool, "ann@example.com", None).await;
    let bob = user(&pool, "bob@example.com", None).await;
    let (anns, bobs) = (image(4), image(5));
    uploads::record(&pool, ann, &anns).await.unwrap();
    uploads::record(&pool, bob, &bobs).await.unwrap();

    let mut tx = pool.begin().await.unwrap();
    let err = profile::update(&mut tx, bob, changes(&anns)).await.err().unwrap();
    assert_eq!(err.to_string(), INVALID_IMAGE_URL);
    drop(tx);
    let mut tx = pool.begin().await.unwrap();
    let updated = profile::update(&mut tx, bob, changes(&bobs)).await.unwrap();
    assert_eq!(updated.user.profile_image_url.as_deref(), Some(bobs.as_str()));
    tx.commit().await.unwrap();

    // A mentor profile too: made with another's upload is refused, with one's own it is fine.
    let input = |url: &str| ProfileInput {
        display_name: Some("Bob".into()),
        bio: Some("b".repeat(60)),
        specialties: Some(vec!["Tarot Reading".into()]),
        base_price: Some("40".into()),
        profile_image_url: Some(url.into()),
        ..ProfileInput::default()
    };
    let err = mentors::create(&pool, bob, input(&anns)).await.err().unwrap();
    assert_eq!(err.to_string(), INVALID_IMAGE_URL);
    let made = mentors::create(&pool, bob, input(&bobs)).await.unwrap();
    let mut tx = pool.begin().await.unwrap();
    let err = mentors::update(&mut tx, made.id, input(&anns)).await.err().unwrap();
    assert_eq!(err.to_string(), INVALID_IMAGE_URL);
}
