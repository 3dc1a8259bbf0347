//! Whether an address a user gave us (a push endpoint; a calendar's URL) may be called by our
//! servers: an `https` URL whose host is, after resolution, on the public internet. Refusing
//! loopback, private, link-local and other special ranges keeps the api and the worker from
//! being aimed at internal services (server-side request forgery).
//!
//! Checked twice: when the address is saved ([`check`], which resolves the host) and on every
//! request, by the HTTP client of [`http_client`], whose resolver refuses a non-public answer at
//! connection time (so a name re-pointed after it was saved cannot reach inside either) and
//! which follows no redirects and uses no proxy. A URL with an IP literal never reaches a
//! resolver: [`check_url`] judges its address.
//!
//! [`Policy::allow_local`] (a setting for tests and development) also allows `http` and loopback
//! addresses; every other non-public range stays refused.

use std::{
    net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr},
    sync::Arc,
    time::Duration,
};

use url::{Host, Url};

/// Longest address accepted.
pub const MAX_URL_CHARS: usize = 2048;

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Policy {
    /// `http` and loopback addresses are allowed too (tests and development only).
    pub allow_local: bool,
}

/// Why an address was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("not a URL")]
    Malformed,
    #[error("the URL must use https")]
    Scheme,
    #[error("{0} is not a public address")]
    NotPublic(IpAddr),
    #[error("the host name does not resolve")]
    Unresolved,
}

/// Whether `ip` is on the public internet (or, with `allow_local`, a loopback address).
pub fn allowed_ip(ip: IpAddr, policy: Policy) -> bool {
    is_public(ip) || (policy.allow_local && ip.is_loopback())
}

/// Whether `ip` is a public unicast address: none of the loopback, private, shared (CGNAT),
/// link-local, documentation, benchmarking, multicast, broadcast or reserved ranges, and for IPv6
/// also none of unique-local, link-local, and IPv4 addresses mapped or translated into IPv6
/// unless the IPv4 address is public.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => is_public_v4(v4),
        IpAddr::V6(v6) => is_public_v6(v6),
    }
}

fn is_public_v4(ip: Ipv4Addr) -> bool {
    let [a, b, c, _] = ip.octets();
    !(a == 0
        || a == 10
        || a == 127
        || (a == 100 && (64..128).contains(&b))
        || (a == 169 && b == 254)
        || (a == 172 && (16..32).contains(&b))
        || (a == 192 && b == 0 && c == 0)
        || (a == 192 && b == 0 && c == 2)
        || (a == 192 && b == 88 && c == 99)
        || (a == 192 && b == 168)
        || (a == 198 && (18..20).contains(&b))
        || (a == 198 && b == 51 && c == 100)
        || (a == 203 && b == 0 && c == 113)
        || a >= 224)
}

fn is_public_v6(ip: Ipv6Addr) -> bool {
    if let Some(v4) = ip.to_ipv4_mapped() {
        return is_public_v4(v4);
    }
    let s = ip.segments();
    // NAT64 (64:ff9b::/96) carries an IPv4 address in its last 32 bits.
    if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
        let [a, b] = s[6].to_be_bytes();
        let [c, d] = s[7].to_be_bytes();
        return is_public_v4(Ipv4Addr::new(a, b, c, d));
    }
    !(ip.is_unspecified()
        || ip.is_loopback()
        || ip.is_multicast()
        || (s[0] & 0xfe00) == 0xfc00 // unique local fc00::/7
        || (s[0] & 0xffc0) == 0xfe80 // link-local fe80::/10
        || (s[0] & 0xffc0) == 0xfec0 // site-local (deprecated) fec0::/10
        || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
        || (s[0] == 0x2001 && s[1] < 0x0200) // IETF protocol assignments (Teredo, ORCHID, ...)
        || s[0] == 0x2002 // 6to4 relays
        || s[0..6] == [0, 0, 0, 0, 0, 0]) // IPv4-compatible and other ::/96 addresses
}

/// The URL, its scheme and, for an IP literal, its address; a host name is judged by [`check`]
/// (when saving) and by [`http_client`]'s resolver (on every request).
pub fn check_url(raw: &str, policy: Policy) -> Result<Url, Refusal> {
    let raw = raw.trim();
    if raw.is_empty() || raw.chars().count() > MAX_URL_CHARS {
        return Err(Refusal::Malformed);
    }
    let url = Url::parse(raw).map_err(|_| Refusal::Malformed)?;
    match url.scheme() {
        "https" => {}
        "http" if policy.allow_local => {}
        "http" => return Err(Refusal::Scheme),
        _ => return Err(Refusal::Malformed),
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err(Refusal::Malformed);
    }
    match url.host() {
        None => Err(Refusal::Malformed),
        Some(Host::Ipv4(ip)) if !allowed_ip(IpAddr::V4(ip), policy) => Err(Refusal::NotPublic(IpAddr::V4(ip))),
        Some(Host::Ipv6(ip)) if !allowed_ip(IpAddr::V6(ip), policy) => Err(Refusal::NotPublic(IpAddr::V6(ip))),
        Some(_) => Ok(url),
    }
}

/// [`check_url`], then the host's addresses: every one must be allowed.
pub async fn check(raw: &str, policy: Policy) -> Result<Url, Refusal> {
    let url = check_url(raw, policy)?;
    if let Some(Host::Domain(name)) = url.host() {
        resolve(name, policy).await?;
    }
    Ok(url)
}

/// The addresses of `name`, when every one of them is allowed.
pub async fn resolve(name: &str, policy: Policy) -> Result<Vec<SocketAddr>, Refusal> {
    let addrs: Vec<SocketAddr> = tokio::net::lookup_host((name, 0))
        .await
        .map_err(|_| Refusal::Unresolved)?
        .collect();
    if addrs.is_empty() {
        return Err(Refusal::Unresolved);
    }
    if let Some(bad) = addrs.iter().find(|a| !allowed_ip(a.ip(), policy)) {
        return Err(Refusal::NotPublic(bad.ip()));
    }
    Ok(addrs)
}

/// A resolver for reqwest that answers only allowed addresses.
struct CheckedResolver(Policy);

impl reqwest::dns::Resolve for CheckedResolver {
    fn resolve(&self, name: reqwest::dns::Name) -> reqwest::dns::Resolving {
        let policy = self.0;
        let name = name.as_str().to_owned();
        Box::pin(async move {
            let addrs = resolve(&name, policy).await?;
            Ok(Box::new(addrs.into_iter()) as reqwest::dns::Addrs)
        })
    }
}

/// An HTTP client that connects only to allowed addresses (host names resolved through the
/// check; IP literals must have passed [`check_url`]), follows no redirect and uses no proxy.
pub fn http_client(policy: Policy, timeout: Duration) -> reqwest::Result<reqwest::Client> {
    let _ = rustls::crypto::ring::default_provider().install_default();
    reqwest::Client::builder()
        .dns_resolver(Arc::new(CheckedResolver(policy)))
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy()
        .timeout(timeout)
        .build()
}

#[cfg(test)]
mod tests {
    use super::*;

    const STRICT: Policy = Policy { allow_local: false };
    const LOCAL: Policy = Policy { allow_local: true };

    #[test]
    fn only_public_unicast_addresses_are_public() {
        for public in [
            "8.8.8.8",
            "1.1.1.1",
            "172.15.255.255",
            "172.32.0.1",
            "100.63.255.255",
            "2606:4700::1111",
        ] {
            assert!(is_public(public.parse().unwrap()), "{public}");
        }
        for inside in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "172.31.255.255",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "192.0.2.1",
            "::1",
            "::",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "2001:db8::1",
            "ff02::1",
        ] {
            assert!(!is_public(inside.parse().unwrap()), "{inside}");
        }
        assert!(is_public("::ffff:8.8.8.8".parse().unwrap()));
    }

    #[test]
    fn https_on_a_public_address_only_unless_local_is_allowed() {
        assert!(check_url("https://push.example.com/send/abc", STRICT).is_ok());
        assert_eq!(check_url("http://push.example.com/x", STRICT), Err(Refusal::Scheme));
        assert_eq!(
            check_url("https://127.0.0.1:8443/x", STRICT),
            Err(Refusal::NotPublic("127.0.0.1".parse().unwrap()))
        );
        assert!(matches!(
            check_url("https://[::1]/x", STRICT),
            Err(Refusal::NotPublic(_))
        ));
        assert!(check_url("http://127.0.0.1:9000/push/1", LOCAL).is_ok());
        assert!(check_url("https://[::1]/x", LOCAL).is_ok());
        // Allowing local addresses opens loopback only, never the rest of the inside.
        assert!(matches!(
            check_url("http://169.254.169.254/latest", LOCAL),
            Err(Refusal::NotPublic(_))
        ));
        assert!(matches!(
            check_url("https://10.0.0.5/x", LOCAL),
            Err(Refusal::NotPublic(_))
        ));
        for bad in [
            "",
            "push",
            "ftp://push.example.com/x",
            "https://user:pw@push.example.com/x",
            "javascript:alert(1)",
        ] {
            assert!(check_url(bad, LOCAL).is_err(), "{bad}");
        }
        let long = format!("https://push.example.com/{}", "a".repeat(MAX_URL_CHARS));
        assert_eq!(check_url(&long, STRICT), Err(Refusal::Malformed));
        let longest = format!(
            "https://p.example/{}",
            "a".repeat(MAX_URL_CHARS - "https://p.example/".len())
        );
        assert!(check_url(&longest, STRICT).is_ok());
    }

    #[tokio::test]
    async fn names_are_judged_by_what_they_resolve_to() {
        assert!(matches!(check("https://localhost/x", STRICT).await, Err(Refusal::NotPublic(ip)) if ip.is_loopback()));
        assert!(check("http://localhost:9/x", LOCAL).await.is_ok());
        assert_eq!(
            check("https://no-such-host.invalid/x", STRICT).await,
            Err(Refusal::Unresolved)
        );
    }
}
