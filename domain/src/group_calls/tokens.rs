//! Janus signed tokens (`token_auth_secret`): `<expiry>,<realm>,<data>:<base64 HMAC-SHA1>`. The api
//! mints them without calling Janus; Janus checks the signature and the expiry.
//! - a session token lets a client talk to Janus and use the VideoRoom plugin;
//! - a room token lets it join one room (rooms are created with `signed_tokens`).

use base64::{Engine, engine::general_purpose::STANDARD};
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use sha1::Sha1;

pub const VIDEOROOM_PLUGIN: &str = "janus.plugin.videoroom";
/// A caller's tokens last until the session's end plus this: Janus checks the session token on
/// every request of the call (keep-alives too), and a call may run a little over.
pub const TOKEN_GRACE_MINUTES: i64 = 30;

fn sign(secret: &str, data: &str) -> String {
    let mut mac = Hmac::<Sha1>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(data.as_bytes());
    format!("{data}:{}", STANDARD.encode(mac.finalize().into_bytes()))
}

/// Talks to Janus and attaches to the VideoRoom plugin until `expires`.
pub fn session_token(secret: &str, expires: DateTime<Utc>) -> String {
    sign(secret, &format!("{},janus,{VIDEOROOM_PLUGIN}", expires.timestamp()))
}

/// Joins room `room` until `expires`. It names its participant, so each member's token is their
/// own: the room's `allowed` list holds it while they may be there, and loses it when removed.
pub fn room_token(secret: &str, room: u64, participant: u64, expires: DateTime<Utc>) -> String {
    sign(
        secret,
        &format!(
            "{},{VIDEOROOM_PLUGIN},room={room},participant={participant}",
            expires.timestamp()
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_carry_expiry_realm_and_a_base64_hmac_sha1() {
        let at = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let t = session_token("secret", at);
        assert!(t.starts_with("1800000000,janus,janus.plugin.videoroom:"), "{t}");
        let r = room_token("secret", 42, 7, at);
        assert!(
            r.starts_with("1800000000,janus.plugin.videoroom,room=42,participant=7:"),
            "{r}"
        );
        // The signature covers everything before the colon with the shared secret.
        let (data, sig) = r.rsplit_once(':').unwrap();
        let mut mac = Hmac::<Sha1>::new_from_slice(b"secret").unwrap();
        mac.update(data.as_bytes());
        assert_eq!(sig, STANDARD.encode(mac.finalize().into_bytes()));
        assert_ne!(room_token("other", 42, 7, at), r);
        assert_ne!(room_token("secret", 42, 8, at), r);
        assert_eq!(
            room_token("secret", 42, 7, at),
            r,
            "the same member's token is the same: it can be withdrawn"
        );
    }
}
