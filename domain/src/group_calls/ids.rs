//! Numbers Janus knows a room and a participant by, derived from our ids so nothing needs storing.
//! Janus ids are 64-bit, but browsers read JSON numbers as doubles: 48 bits stay exact.

use base64::{Engine, engine::general_purpose::URL_SAFE_NO_PAD};
use hmac::{Hmac, Mac};
use sha1::Sha1;
use uuid::Uuid;

/// The largest id handed to Janus (2^48 - 1): exact in a JavaScript number.
pub const MAX_JANUS_ID: u64 = (1 << 48) - 1;
const _: () = assert!(MAX_JANUS_ID < 1 << 53, "JavaScript numbers are exact up to 2^53");

/// The first six bytes of a UUID v4 (random), never 0.
fn janus_id(id: Uuid) -> u64 {
    let b = id.as_bytes();
    let n = u64::from_be_bytes([0, 0, b[0], b[1], b[2], b[3], b[4], b[5]]);
    n.max(1)
}

/// The room of a group session.
pub fn room_id(session: Uuid) -> u64 {
    janus_id(session)
}

/// A participant's (or the mentor's) publisher id in a room.
pub fn participant_id(user: Uuid) -> u64 {
    janus_id(user)
}

/// The room's moderation secret: derived from the server's secret, never sent to a browser.
pub fn room_secret(server_secret: &str, session: Uuid) -> String {
    let mut mac = Hmac::<Sha1>::new_from_slice(server_secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(b"room-secret:");
    mac.update(session.as_bytes());
    URL_SAFE_NO_PAD.encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_fit_a_javascript_number_and_are_stable() {
        for _ in 0..1000 {
            let id = Uuid::new_v4();
            assert!((1..=MAX_JANUS_ID).contains(&room_id(id)));
            assert_eq!(room_id(id), room_id(id));
        }
    }

    #[test]
    fn ids_at_the_edges_stay_within_one_and_the_maximum() {
        assert_eq!(room_id(Uuid::from_bytes([0xff; 16])), MAX_JANUS_ID);
        assert_eq!(participant_id(Uuid::from_bytes([0xff; 16])), MAX_JANUS_ID);
        assert_eq!(room_id(Uuid::nil()), 1, "0 means 'pick one' to Janus");
        assert_eq!(
            room_id(Uuid::from_bytes([0, 0, 0, 0, 0, 1, 0xff, 0xff, 0, 0, 0, 0, 0, 0, 0, 0])),
            1
        );
    }

    #[test]
    fn room_secrets_differ_by_session_and_by_server_secret() {
        let (a, b) = (Uuid::new_v4(), Uuid::new_v4());
        assert_ne!(room_secret("k", a), room_secret("k", b));
        assert_ne!(room_secret("k", a), room_secret("l", a));
        assert_eq!(room_secret("k", a), room_secret("k", a));
    }
}
