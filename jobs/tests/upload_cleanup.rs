mod support;

use apalis::prelude::{Attempt, Data};
use domain::{
    accounts::profile,
    job_queue::Job,
    uploads::{self, DeleteUpload},
};
use jobs::Handler;
use sqlx::PgPool;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR";

async fn user(pool: &PgPool, email: &str) -> uuid::Uuid {
    sqlx::query_scalar(
        "INSERT INTO users (email, password_hash, first_name, last_name) VALUES ($1, 'x', 'A', 'B') RETURNING id",
    )
    .bind(email)
    .fetch_one(pool)
    .await
    .unwrap()
}

/// Stores an upload and makes it the user's image the way the api does: replaced image queued
/// in the same transaction.
async fn upload(pool: &PgPool, dir: &std::path::Path, user_id: uuid::Uuid) -> String {
    let url = uploads::store_image(dir, PNG).await.unwrap();
    let mut tx = pool.begin().await.unwrap();
    if let Some(old) = profile::set_image(&mut tx, user_id, &url).await.unwrap() {
        uploads::queue_deletion(&mut tx, &old).await.unwrap();
    }
    tx.commit().await.unwrap();
    url
}

fn file(dir: &std::path::Path, url: &str) -> std::path::PathBuf {
    dir.join(uploads::own_upload_name(url).unwrap())
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn the_worker_deletes_a_replaced_upload_and_keeps_the_current_one(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let dir = std::env::temp_dir().join(format!("uploads-{}", uuid::Uuid::new_v4()));
    let ann = user(&pool, "ann@example.com").await;
    let first = upload(&pool, &dir, ann).await;
    let second = upload(&pool, &dir, ann).await;
    assert!(file(&dir, &first).exists() && file(&dir, &second).exists());

    let ctx = support::context(&pool, &[("UPLOAD_DIR", dir.display().to_string())]);
    let _workers = support::start_workers(ctx);
    support::eventually(20, || async { (!file(&dir, &first).exists()).then_some(()) }).await;
    assert!(file(&dir, &second).exists(), "the image in use stays");
    support::eventually(10, || async {
        support::job_state(&pool, DeleteUpload::QUEUE)
            .await
            .filter(|(s, _)| s == "Done")
    })
    .await;
    std::fs::remove_dir_all(dir).ok();
}

#[sqlx::test(migrator = "domain::db::MIGRATOR")]
async fn a_file_still_shown_somewhere_or_not_ours_is_left_alone(pool: PgPool) {
    domain::job_queue::storage::setup(&pool).await.unwrap();
    let dir = std::env::temp_dir().join(format!("uploads-{}", uuid::Uuid::new_v4()));
    let ann = user(&pool, "ann@example.com").await;
    let bo = user(&pool, "bo@example.com").await;
    let shared = upload(&pool, &dir, ann).await;
    sqlx::query("UPDATE users SET profile_image_url = $2 WHERE id = $1")
        .bind(bo)
        .bind(&shared)
        .execute(&pool)
        .await
        .unwrap();
    let ctx = support::context(&pool, &[("UPLOAD_DIR", dir.display().to_string())]);
    let run = |url: &str| DeleteUpload { url: url.into() }.handle(Data::new(ctx.clone()), Attempt::new());

    run(&shared).await.unwrap();
    assert!(file(&dir, &shared).exists(), "Bo still shows it");
    sqlx::query("UPDATE users SET profile_image_url = NULL")
        .execute(&pool)
        .await
        .unwrap();
    run(&shared).await.unwrap();
    assert!(!file(&dir, &shared).exists());
    run(&shared).await.unwrap(); // twice is fine: the file is already gone

    let outside = dir.parent().unwrap().join(format!("keep-{}.png", uuid::Uuid::new_v4()));
    std::fs::write(&outside, PNG).unwrap();
    let sneaky = format!("/uploads/../{}", outside.file_name().unwrap().to_str().unwrap());
    run(&sneaky).await.unwrap();
    assert!(outside.exists(), "never a file outside UPLOAD_DIR");
    let mut conn = pool.acquire().await.unwrap();
    uploads::queue_deletion(&mut conn, &sneaky).await.unwrap();
    uploads::queue_deletion(&mut conn, "/uploads/avatars/luna.svg")
        .await
        .unwrap();
    let queued: i64 = sqlx::query_scalar("SELECT count(*) FROM apalis.jobs WHERE job_type = $1")
        .bind(DeleteUpload::QUEUE)
        .fetch_one(&pool)
        .await
        .unwrap();
    assert_eq!(queued, 0, "only our own uploads are queued");
    std::fs::remove_file(outside).ok();
    std::fs::remove_dir_all(dir).ok();
}
