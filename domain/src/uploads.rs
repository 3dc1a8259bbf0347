//! Uploaded images: checked by their content, never by name, and stored under `UPLOAD_DIR`
//! (shared by every api process) with a random name. Each belongs to its uploader (the `uploads`
//! table): only they may show it as a picture.

use std::path::Path;

use sqlx::PgExecutor;
use uuid::Uuid;

use crate::{Error, Result};

/// 5 MB, as the spec says.
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
pub const IMAGE_TOO_LARGE: &str = "Image file must be smaller than 5MB";
pub const NOT_AN_IMAGE: &str = "Only image files are allowed";
/// Uploaded files are served under this path.
pub const PUBLIC_PREFIX: &str = "/uploads/";

/// Extensions [`store_image`] gives its files.
pub const IMAGE_EXTENSIONS: [&str; 4] = ["jpg", "png", "gif", "webp"];
/// Length of the random part of a stored name: a UUID as 32 lowercase hex digits.
pub const NAME_HEX_CHARS: usize = 32;

/// The file name inside `UPLOAD_DIR` when `url` is exactly the public URL of a file
/// [`store_image`] wrote (`/uploads/<32 hex>.<ext>`): no percent-encoding, no dot segments, no
/// extra slashes, no query. Anything else is not one of our uploads.
pub fn own_upload_name(url: &str) -> Option<&str> {
    let name = url.strip_prefix(PUBLIC_PREFIX)?;
    let (stem, ext) = name.split_once('.')?;
    let canonical = stem.len() == NAME_HEX_CHARS
        && stem.bytes().all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
        && IMAGE_EXTENSIONS.contains(&ext);
    canonical.then_some(name)
}

/// Records that `owner` uploaded the file at `url`.
pub async fn record(db: impl PgExecutor<'_>, owner: Uuid, url: &str) -> Result<()> {
    sqlx::query!(
        "INSERT INTO uploads (owner, path) VALUES ($1, $2) ON CONFLICT (path) DO NOTHING",
        owner,
        url
    )
    .execute(db)
    .await?;
    Ok(())
}

/// Whether the file at `url` is an upload of `owner`.
pub async fn owned_by(db: impl PgExecutor<'_>, url: &str, owner: Uuid) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        r#"SELECT EXISTS (SELECT 1 FROM uploads WHERE path = $1 AND owner = $2) AS "owned!""#,
        url,
        owner
    )
    .fetch_one(db)
    .await?)
}

/// Whether any user or mentor still shows the image at `url`.
pub async fn in_use(db: impl PgExecutor<'_>, url: &str) -> Result<bool> {
    Ok(sqlx::query_scalar!(
        "SELECT EXISTS (SELECT 1 FROM users WHERE profile_image_url = $1) \
             OR EXISTS (SELECT 1 FROM mentors WHERE profile_image_url = $1) AS \"used!\"",
        url,
    )
    .fetch_one(db)
    .await?)
}

/// Deletes the uploaded file behind `url`, and its owner's record, once nothing refers to it. Only our own uploads,
/// directly inside `dir`, are ever touched; a file already gone is fine. Returns whether a
/// file was deleted.
pub async fn delete_if_unused(db: &sqlx::PgPool, dir: &Path, url: &str) -> Result<bool> {
    let Some(name) = own_upload_name(url) else {
        return Ok(false);
    };
    if in_use(db, url).await? {
        return Ok(false);
    }
    let deleted = match tokio::fs::remove_file(dir.join(name)).await {
        Ok(()) => true,
        Err(err) if err.kind() == std::io::ErrorKind::NotFound => false,
        Err(err) => return Err(anyhow::Error::from(err).into()),
    };
    forget(db, url).await?;
    Ok(deleted)
}

/// Forgets the owner of a file that is gone.
pub async fn forget(db: impl PgExecutor<'_>, url: &str) -> Result<()> {
    sqlx::query!("DELETE FROM uploads WHERE path = $1", url)
        .execute(db)
        .await?;
    Ok(())
}

/// The file extension for JPEG, PNG, GIF or WebP content, judged by the magic bytes.
pub fn sniff_image(bytes: &[u8]) -> Option<&'static str> {
    match bytes {
        [0xFF, 0xD8, 0xFF, ..] => Some("jpg"),
        [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, ..] => Some("png"),
        [b'G', b'I', b'F', b'8', b'7' | b'9', b'a', ..] => Some("gif"),
        [b'R', b'I', b'F', b'F', _, _, _, _, b'W', b'E', b'B', b'P', ..] => Some("webp"),
        _ => None,
    }
}

/// Checks and writes an image; returns its public URL.
pub async fn store_image(dir: &Path, bytes: &[u8]) -> Result<String> {
    if bytes.len() > MAX_IMAGE_BYTES {
        return Err(Error::validation(IMAGE_TOO_LARGE));
    }
    let ext = sniff_image(bytes).ok_or_else(|| Error::validation(NOT_AN_IMAGE))?;
    let name = format!("{}.{ext}", uuid::Uuid::new_v4().simple());
    tokio::fs::create_dir_all(dir).await.map_err(anyhow::Error::from)?;
    tokio::fs::write(dir.join(&name), bytes)
        .await
        .map_err(anyhow::Error::from)?;
    Ok(format!("{PUBLIC_PREFIX}{name}"))
}

/// Deleting an uploaded image that a user or mentor replaced or cleared, queued in the transaction
/// of that change; the worker's `jobs::upload_cleanup` runs [`delete_if_unused`] for it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct DeleteUpload {
    /// The public URL the image had (`/uploads/<name>`).
    pub url: String,
}

impl crate::job_queue::Job for DeleteUpload {
    const QUEUE: &'static str = "upload_cleanup";
    const MAX_ATTEMPTS: usize = 5;
}

/// Queues the deletion of `url` when it is one of our uploads; other values (seeded avatars,
/// addresses accepted before uploads were the only images) are left alone.
pub async fn queue_deletion(conn: &mut sqlx::PgConnection, url: &str) -> Result<()> {
    use crate::job_queue::Job;
    if own_upload_name(url).is_none() {
        return Ok(());
    }
    DeleteUpload { url: url.to_string() }.enqueue(conn).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn images_are_recognised_by_content() {
        assert_eq!(sniff_image(&[0xFF, 0xD8, 0xFF, 0xE0]), Some("jpg"));
        assert_eq!(sniff_image(b"\x89PNG\r\n\x1a\n...."), Some("png"));
        assert_eq!(sniff_image(b"GIF89a.."), Some("gif"));
        assert_eq!(sniff_image(b"RIFF\0\0\0\0WEBPVP8 "), Some("webp"));
        assert_eq!(sniff_image(b"<svg xmlns=...>"), None);
        assert_eq!(sniff_image(b"%PDF-1.7"), None);
        assert_eq!(sniff_image(b""), None);
    }

    #[test]
    fn only_canonical_upload_urls_are_ours() {
        let name = "0123456789abcdef0123456789abcdef";
        assert_eq!(
            own_upload_name(&format!("/uploads/{name}.png")),
            Some(format!("{name}.png").as_str())
        );
        for ext in IMAGE_EXTENSIONS {
            assert!(own_upload_name(&format!("/uploads/{name}.{ext}")).is_some(), "{ext}");
        }
        assert_eq!(NAME_HEX_CHARS, uuid::Uuid::new_v4().simple().to_string().len());
        for bad in [
            "/uploads/%2e%2e/api/logout".to_string(),
            "/uploads/../api/logout".into(),
            format!("/uploads//{name}.png"),
            format!("/uploads/{name}.png?x=1"),
            format!("/uploads/{name}.png/"),
            format!("/uploads/{name}.svg"),
            format!("/uploads/{name}.png.png"),
            format!("/uploads/{}.png", name.to_uppercase()),
            format!("/uploads/{}.png", &name[1..]),
            format!("/uploads/avatars/{name}.png"),
            format!("/UPLOADS/{name}.png"),
            format!("https://example.com/uploads/{name}.png"),
            format!("//evil.example/uploads/{name}.png"),
            "/api/logout".into(),
            String::new(),
        ] {
            assert_eq!(own_upload_name(&bad), None, "{bad}");
        }
    }

    #[tokio::test]
    async fn oversized_and_non_images_are_refused() {
        let dir = std::env::temp_dir().join(format!("uploads-{}", uuid::Uuid::new_v4()));
        let mut big = b"\x89PNG\r\n\x1a\n".to_vec();
        big.resize(MAX_IMAGE_BYTES + 1, 0);
        assert_eq!(store_image(&dir, &big).await.unwrap_err().to_string(), IMAGE_TOO_LARGE);
        assert_eq!(store_image(&dir, b"hello").await.unwrap_err().to_string(), NOT_AN_IMAGE);
        let mut ok = b"\x89PNG\r\n\x1a\n".to_vec();
        ok.resize(MAX_IMAGE_BYTES, 0);
        let url = store_image(&dir, &ok).await.unwrap();
        assert!(url.starts_with("/uploads/") && url.ends_with(".png"));
        assert!(own_upload_name(&url).is_some(), "what we store is ours: {url}");
        std::fs::remove_dir_all(dir).ok();
    }
}
