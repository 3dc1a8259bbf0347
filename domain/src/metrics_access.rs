//! Who may read the Prometheus metrics (the api's `GET /metrics` and the worker's listener on
//! `WORKER_METRICS_ADDR`): a request with `Authorization: Bearer $METRICS_TOKEN` when a token is set,
//! or a request from loopback that carries no forwarding header. A proxy on the same host connects
//! over loopback too, so a request it forwarded (any of [`FORWARDING_HEADERS`], whatever client it
//! names) needs the token like any remote scraper.

use std::net::IpAddr;

/// The environment variable whose value, sent as a bearer token, lets any scraper in.
pub const TOKEN_VAR: &str = "METRICS_TOKEN";
/// What a caller who may not read the metrics gets (403).
pub const FORBIDDEN: &str = "Metrics are served to loopback or with the metrics token only";
/// Headers a proxy adds to what it forwards: their presence means the peer is not the client.
pub const FORWARDING_HEADERS: [&str; 5] = [
    "forwarded",
    "x-forwarded-for",
    "x-forwarded-host",
    "x-forwarded-proto",
    "x-real-ip",
];

/// The token of the environment, when one is set.
pub fn token_from_env() -> Option<String> {
    std::env::var(TOKEN_VAR).ok().filter(|t| !t.is_empty())
}

/// Whether a scrape from `peer` with these headers (`header(name)`, lower-case names) may read.
pub fn allowed<'a>(peer: Option<IpAddr>, header: impl Fn(&str) -> Option<&'a str>, token: Option<&str>) -> bool {
    let bearer = token.is_some_and(|token| {
        header("authorization")
            .and_then(|h| h.strip_prefix("Bearer "))
            .is_some_and(|given| constant_time_eq(given.as_bytes(), token.as_bytes()))
    });
    let forwarded = FORWARDING_HEADERS.iter().any(|name| header(name).is_some());
    let loopback = peer.is_some_and(|ip| ip.to_canonical().is_loopback());
    bearer || (loopback && !forwarded)
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ask(peer: &str, headers: &[(&str, &str)], token: Option<&str>) -> bool {
        allowed(
            Some(peer.parse().unwrap()),
            |name| headers.iter().find(|(k, _)| *k == name).map(|(_, v)| *v),
            token,
        )
    }

    #[test]
    fn loopback_without_forwarding_headers_or_the_token() {
        assert!(ask("127.0.0.1", &[], None));
        assert!(ask("::1", &[], None));
        assert!(ask("::ffff:127.0.0.1", &[], None));
        assert!(!ask("203.0.113.9", &[], None));
        for name in FORWARDING_HEADERS {
            assert!(
                !ask("127.0.0.1", &[(name, "127.0.0.1")], None),
                "{name} from a local proxy"
            );
            assert!(!ask("127.0.0.1", &[(name, "203.0.113.9")], Some("t")), "{name}");
            assert!(ask(
                "127.0.0.1",
                &[(name, "203.0.113.9"), ("authorization", "Bearer t")],
                Some("t")
            ));
        }
        assert!(ask("203.0.113.9", &[("authorization", "Bearer t")], Some("t")));
        assert!(!ask("203.0.113.9", &[("authorization", "Bearer u")], Some("t")));
        assert!(!ask("203.0.113.9", &[("authorization", "Bearer ")], None));
    }

    #[test]
    fn tokens_compare_whole() {
        assert!(constant_time_eq(b"abc", b"abc"));
        assert!(!constant_time_eq(b"abc", b"abd"));
        assert!(!constant_time_eq(b"abc", b"ab"));
    }
}
