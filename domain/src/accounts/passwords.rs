//! argon2id hashing, run on the blocking pool so it never stalls the async threads.

use anyhow::anyhow;
use argon2::{
    Algorithm, Argon2, Params, Version,
    password_hash::{PasswordHasher, PasswordVerifier, phc::PasswordHash},
};

use crate::Result;

/// OWASP's minimum for argon2id: 19 MiB, 2 passes, 1 lane.
const MEMORY_KIB: u32 = 19_456;
const PASSES: u32 = 2;
const LANES: u32 = 1;

fn argon2() -> Argon2<'static> {
    Argon2::new(
        Algorithm::Argon2id,
        Version::V0x13,
        Params::new(MEMORY_KIB, PASSES, LANES, None).expect("valid argon2 params"),
    )
}

pub async fn hash(password: &str) -> Result<String> {
    let password = password.to_owned();
    let hashed = tokio::task::spawn_blocking(move || {
        argon2()
            .hash_password(password.as_bytes())
            .map(|h| h.to_string())
            .map_err(|e| anyhow!("hashing a password failed: {e}"))
    })
    .await
    .map_err(|e| anyhow!("hashing task failed: {e}"))??;
    Ok(hashed)
}

/// False for a wrong password and for a stored value that is not a valid hash.
pub async fn verify(password: &str, stored: &str) -> Result<bool> {
    let password = password.to_owned();
    let stored = stored.to_owned();
    let ok = tokio::task::spawn_blocking(move || match PasswordHash::new(&stored) {
        Ok(parsed) => argon2().verify_password(password.as_bytes(), &parsed).is_ok(),
        Err(_) => false,
    })
    .await
    .map_err(|e| anyhow!("verifying task failed: {e}"))?;
    Ok(ok)
}

/// A hash of a random password: verifying against it costs as much as a real one,
/// so unknown e-mail addresses cannot be told apart by timing.
pub async fn dummy_hash() -> &'static str {
    static DUMMY: tokio::sync::OnceCell<String> = tokio::sync::OnceCell::const_new();
    DUMMY
        .get_or_init(|| async { hash(&crate::tokens::generate()).await.unwrap_or_default() })
        .await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn hashes_are_argon2id_salted_and_verifiable() {
        let a = hash("correct horse").await.unwrap();
        let b = hash("correct horse").await.unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "each hash has its own salt");
        assert!(verify("correct horse", &a).await.unwrap());
        assert!(!verify("wrong horse", &a).await.unwrap());
        assert!(!verify("anything", "not a hash").await.unwrap());
    }
}
