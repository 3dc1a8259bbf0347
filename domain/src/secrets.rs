//! Secrets kept at rest (a mentor's CalDAV password): sealed with AES-256-GCM under `SECRETS_KEY`
//! (32 bytes, base64). A sealed value is the 12-byte random nonce followed by the ciphertext and
//! its tag; opening fails on any change to it or with another key. Never logged: [`SecretsKey`]
//! prints nothing of itself.

use aes_gcm::{
    Aes256Gcm, Nonce,
    aead::{Aead, KeyInit},
};
use anyhow::{anyhow, bail};
use base64::Engine;
use rand::RngCore;
use sha2::{Digest, Sha256};

/// Bytes of the key.
pub const KEY_BYTES: usize = 32;
/// Bytes of a sealed value's nonce.
pub const NONCE_BYTES: usize = 12;

pub const MISSING_IN_PRODUCTION: &str =
    "SECRETS_KEY is required in production: 32 random bytes in base64 (openssl rand -base64 32)";

/// The key secrets at rest are sealed with.
#[derive(Clone, PartialEq, Eq)]
pub struct SecretsKey([u8; KEY_BYTES]);

impl std::fmt::Debug for SecretsKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SecretsKey(..)")
    }
}

impl SecretsKey {
    /// `SECRETS_KEY` as base64 of exactly [`KEY_BYTES`] bytes.
    pub fn from_base64(raw: &str) -> anyhow::Result<Self> {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(raw.trim())
            .map_err(|_| anyhow!("SECRETS_KEY must be base64 (openssl rand -base64 32)"))?;
        let key: [u8; KEY_BYTES] = bytes
            .try_into()
            .map_err(|b: Vec<u8>| anyhow!("SECRETS_KEY must be 32 bytes, not {}", b.len()))?;
        Ok(Self(key))
    }

    /// The fixed key of development and tests when `SECRETS_KEY` is unset, the same in the api and
    /// the worker (never accepted with the production profile).
    pub fn development() -> Self {
        Self(Sha256::digest(b"mystic-mentors development secrets key").into())
    }

    /// Setting or default: a missing key is a start-up error in production.
    pub fn from_setting(raw: Option<&str>, production: bool) -> anyhow::Result<Self> {
        match raw {
            Some(raw) => Self::from_base64(raw),
            None if production => bail!(MISSING_IN_PRODUCTION),
            None => Ok(Self::development()),
        }
    }

    fn cipher(&self) -> Aes256Gcm {
        Aes256Gcm::new_from_slice(&self.0).expect("a 32-byte key")
    }

    /// `plain` sealed: a fresh nonce, then ciphertext and tag.
    pub fn seal(&self, plain: &str) -> Vec<u8> {
        let mut nonce = [0u8; NONCE_BYTES];
        rand::rng().fill_bytes(&mut nonce);
        let sealed = self
            .cipher()
            .encrypt(&Nonce::from(nonce), plain.as_bytes())
            .expect("AES-GCM seals any length we store");
        [nonce.as_slice(), &sealed].concat()
    }

    /// The plain text of a value [`SecretsKey::seal`] made with this key.
    pub fn open(&self, sealed: &[u8]) -> anyhow::Result<String> {
        if sealed.len() <= NONCE_BYTES {
            bail!("a sealed secret is too short");
        }
        let (nonce, body) = sealed.split_at(NONCE_BYTES);
        let nonce: [u8; NONCE_BYTES] = nonce.try_into().expect("split at the nonce's length");
        let plain = self
            .cipher()
            .decrypt(&Nonce::from(nonce), body)
            .map_err(|_| anyhow!("a sealed secret does not open with SECRETS_KEY (was the key changed?)"))?;
        String::from_utf8(plain).map_err(|_| anyhow!("a sealed secret is not text"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sealed_values_open_only_with_their_key_and_unchanged() {
        let key = SecretsKey::development();
        let sealed = key.seal("app-password");
        assert!(!sealed.windows(12).any(|w| w == b"app-password"));
        assert_eq!(sealed.len(), NONCE_BYTES + "app-password".len() + 16);
        assert_eq!(key.open(&sealed).unwrap(), "app-password");
        assert_ne!(key.seal("app-password"), sealed, "a fresh nonce every time");
        let other = SecretsKey::from_base64(&base64::engine::general_purpose::STANDARD.encode([7u8; 32])).unwrap();
        assert!(other.open(&sealed).is_err());
        let mut changed = sealed.clone();
        *changed.last_mut().unwrap() ^= 1;
        assert!(key.open(&changed).is_err());
        assert!(key.open(&sealed[..NONCE_BYTES]).is_err());
    }

    #[test]
    fn the_key_is_32_bytes_of_base64_and_required_in_production() {
        let b64 = |n: usize| base64::engine::general_purpose::STANDARD.encode(vec![1u8; n]);
        assert!(SecretsKey::from_base64(&b64(KEY_BYTES)).is_ok());
        assert!(SecretsKey::from_base64(&b64(16)).is_err());
        assert!(SecretsKey::from_base64("not base64!").is_err());
        assert_eq!(
            SecretsKey::from_setting(None, true).unwrap_err().to_string(),
            MISSING_IN_PRODUCTION
        );
        assert_eq!(
            SecretsKey::from_setting(None, false).unwrap(),
            SecretsKey::development()
        );
        assert_eq!(format!("{:?}", SecretsKey::development()), "SecretsKey(..)");
    }
}
