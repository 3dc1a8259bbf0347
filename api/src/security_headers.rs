//! Security headers on every response: no MIME sniffing, no framing, a strict referrer policy,
//! and a Content-Security-Policy (the web app's own, or one that allows nothing for the API
//! and uploaded files).

use poem::{Endpoint, IntoResponse, Request, Response, http::HeaderValue};

/// What the built React app needs: its own scripts and styles (Tailwind and Radix set inline
/// styles), images from uploads, data: and blob: URLs, and the real-time channel.
pub const APP_CSP: &str = "default-src 'self'; img-src 'self' https: data: blob:; media-src 'self' blob:; \
     connect-src 'self' ws: wss:; style-src 'self' 'unsafe-inline'; script-src 'self'; object-src 'none'; \
     base-uri 'self'; frame-ancestors 'none'";
/// JSON answers and uploaded files are never documents that run or load anything.
pub const API_CSP: &str = "default-src 'none'; frame-ancestors 'none'";
/// The one HTML page the API serves, an e-mail's unsubscribe page: its own inline style, the
/// site's icon, and a form that posts back to itself; still no scripts.
pub const UNSUBSCRIBE_CSP: &str = "default-src 'none'; style-src 'unsafe-inline'; img-src 'self'; \
     form-action 'self'; frame-ancestors 'none'";
pub const REFERRER_POLICY: &str = "strict-origin-when-cross-origin";

/// The policy for a path: the app's for its pages, none at all for `/api` and `/uploads`.
pub fn csp_for(path: &str) -> &'static str {
    let under = |prefix: &str| path == prefix || path.starts_with(&format!("{prefix}/"));
    if path == domain::accounts::unsubscribe::PATH {
        UNSUBSCRIBE_CSP
    } else if under("/api") || under("/uploads") {
        API_CSP
    } else {
        APP_CSP
    }
}

pub async fn apply<E: Endpoint>(next: E, req: Request) -> poem::Result<Response> {
    let csp = csp_for(req.uri().path());
    let mut resp = match next.call(req).await {
        Ok(resp) => resp.into_response(),
        Err(err) => err.into_response(),
    };
    let headers = resp.headers_mut();
    headers.insert("x-content-type-options", HeaderValue::from_static("nosniff"));
    headers.insert("x-frame-options", HeaderValue::from_static("DENY"));
    headers.insert("referrer-policy", HeaderValue::from_static(REFERRER_POLICY));
    headers.insert("content-security-policy", HeaderValue::from_static(csp));
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn api_and_uploads_get_the_empty_policy() {
        assert_eq!(csp_for("/api/mentors"), API_CSP);
        assert_eq!(csp_for("/api"), API_CSP);
        assert_eq!(csp_for("/uploads/a.png"), API_CSP);
        assert_eq!(csp_for("/"), APP_CSP);
        assert_eq!(csp_for("/apis-of-the-app"), APP_CSP);
        assert_eq!(csp_for("/mentors/123"), APP_CSP);
        assert_eq!(csp_for("/api/email/unsubscribe"), UNSUBSCRIBE_CSP);
        assert_eq!(csp_for("/api/email/unsubscribe/x"), API_CSP);
        assert!(UNSUBSCRIBE_CSP.contains("style-src 'unsafe-inline'") && !UNSUBSCRIBE_CSP.contains("script-src"));
        for csp in [APP_CSP, API_CSP, UNSUBSCRIBE_CSP] {
            assert!(csp.contains("frame-ancestors 'none'"));
        }
        assert!(APP_CSP.contains("script-src 'self';") && !APP_CSP.contains("unsafe-eval"));
    }
}
