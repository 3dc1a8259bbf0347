//! The ICE servers a browser uses for a call: the configured STUN servers and, when a TURN server
//! is configured, time-limited TURN credentials (the TURN REST scheme of coturn's
//! `use-auth-secret`: username `<expiry unix>:<user id>`, password base64(HMAC-SHA1(secret, username))).

use base64::{Engine, engine::general_purpose::STANDARD};
use chrono::{DateTime, Utc};
use hmac::{Hmac, Mac};
use sha1::Sha1;
use uuid::Uuid;

use crate::config::RtcSettings;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IceServer {
    pub urls: Vec<String>,
    pub username: Option<String>,
    pub credential: Option<String>,
}

pub fn for_user(settings: &RtcSettings, user: Uuid, now: DateTime<Utc>) -> Vec<IceServer> {
    let mut servers = Vec::new();
    if !settings.stun_urls.is_empty() {
        servers.push(IceServer {
            urls: settings.stun_urls.clone(),
            username: None,
            credential: None,
        });
    }
    if let Some(turn) = &settings.turn {
        let username = format!("{}:{user}", (now + turn.ttl).timestamp());
        let credential = turn_credential(&turn.secret, &username);
        servers.push(IceServer {
            urls: turn.urls.clone(),
            username: Some(username),
            credential: Some(credential),
        });
    }
    servers
}

pub fn turn_credential(secret: &str, username: &str) -> String {
    let mut mac = Hmac::<Sha1>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(username.as_bytes());
    STANDARD.encode(mac.finalize().into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::TurnSettings;

    #[test]
    fn the_credential_is_base64_hmac_sha1_of_the_username() {
        // RFC 2202 test case 2: HMAC-SHA1("Jefe", "what do ya want for nothing?").
        let expected = STANDARD.encode([
            0xef, 0xfc, 0xdf, 0x6a, 0xe5, 0xeb, 0x2f, 0xa2, 0xd2, 0x74, 0x16, 0xd5, 0xf1, 0x84, 0xdf, 0x9c, 0x25, 0x9a,
            0x7c, 0x79,
        ]);
        assert_eq!(turn_credential("Jefe", "what do ya want for nothing?"), expected);
    }

    #[test]
    fn turn_usernames_carry_the_expiry_and_the_user() {
        let user = Uuid::new_v4();
        let now = DateTime::from_timestamp(1_800_000_000, 0).unwrap();
        let settings = RtcSettings {
            stun_urls: vec!["stun:s:3478".into()],
            turn: Some(TurnSettings {
                urls: vec!["turn:t:3478".into()],
                secret: "k".into(),
                ttl: chrono::Duration::seconds(86_400),
            }),
        };
        let servers = for_user(&settings, user, now);
        assert_eq!(
            servers[0],
            IceServer {
                urls: vec!["stun:s:3478".into()],
                username: None,
                credential: None
            }
        );
        let username = format!("{}:{user}", 1_800_086_400);
        assert_eq!(servers[1].username.as_deref(), Some(username.as_str()));
        assert_eq!(servers[1].credential, Some(turn_credential("k", &username)));
        assert_eq!(
            for_user(
                &RtcSettings {
                    stun_urls: vec![],
                    turn: None
                },
                user,
                now
            ),
            vec![]
        );
    }
}
