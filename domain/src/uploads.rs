//! Uploaded images: checked by their content, never by name, and stored under `UPLOAD_DIR`
//! (shared by every api process) with a random name.

use std::path::Path;

use crate::{Error, Result};

/// 5 MB, as the spec says.
pub const MAX_IMAGE_BYTES: usize = 5 * 1024 * 1024;
pub const IMAGE_TOO_LARGE: &str = "Image file must be smaller than 5MB";
pub const NOT_AN_IMAGE: &str = "Only image files are allowed";
/// Uploaded files are served under this path.
pub const PUBLIC_PREFIX: &str = "/uploads/";

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
    tokio::fs::write(dir.join(&name), bytes).await.map_err(anyhow::Error::from)?;
    Ok(format!("{PUBLIC_PREFIX}{name}"))
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
        std::fs::remove_dir_all(dir).ok();
    }
}
