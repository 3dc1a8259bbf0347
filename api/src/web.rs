//! The built React app (`web/dist`), served fast and never stale: hashed assets cached for a year,
//! everything else revalidated, precompressed files when the browser takes them, prerendered pages
//! and a mentor's page filled in from the catalogue. The rules: docs/architecture.md, "Serving the
//! web app".

use std::{
    hash::{DefaultHasher, Hash, Hasher},
    path::{Component, Path, PathBuf},
};

use poem::{
    Body, Endpoint, FromRequest, IntoResponse, Request, Response, Result,
    error::StaticFileError,
    http::{HeaderValue, Method, StatusCode, header},
    web::StaticFileRequest,
};
use uuid::Uuid;

use crate::{routes::public_mentor, state::AppState};

/// Where the web build puts its content-hashed files.
pub const ASSETS_DIR: &str = "assets";
/// A year: the longest lifetime caches honour; hashed names never change content.
pub const IMMUTABLE: &str = "public, max-age=31536000, immutable";
/// Revalidate every time (a cheap 304 while unchanged).
pub const NO_CACHE: &str = "no-cache";
/// The page for a directory, and the prerendered landing page at `/`.
pub const INDEX_FILE: &str = "index.html";
/// The app's frame (header and footer) for every client-side route without a prerendered page.
pub const SHELL_FILE: &str = "shell.html";

/// The frame with a mentor's profile card, whose fields are the markers below
/// (`web/src/features/mentors/mentor-preview.tsx`, written by `web/scripts/prerender.mjs`).
pub const MENTOR_PAGE_FILE: &str = "mentor-page.html";
const MARK_NAME: &str = "%%MENTOR_NAME%%";
const MARK_INITIALS: &str = "%%MENTOR_INITIALS%%";
const MARK_BIO: &str = "%%MENTOR_BIO%%";

/// A precompressed form of a file, in the server's order of preference.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Encoding {
    Brotli,
    Gzip,
}

impl Encoding {
    const PREFERENCE: [Encoding; 2] = [Encoding::Brotli, Encoding::Gzip];

    fn token(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gzip",
        }
    }

    fn suffix(self) -> &'static str {
        match self {
            Encoding::Brotli => "br",
            Encoding::Gzip => "gz",
        }
    }
}

/// The encodings an `Accept-Encoding` value allows (`q=0` refuses one; `*` stands for the rest), best
/// first: the highest q, then brotli before gzip.
pub fn accepted_encodings(accept: &str) -> Vec<Encoding> {
    let mut wildcard = None;
    let mut named: Vec<(&str, f32)> = Vec::new();
    for item in accept.split(',') {
        let mut parts = item.split(';');
        let token = parts.next().unwrap_or("").trim().to_ascii_lowercase();
        let q = parts
            .filter_map(|p| p.trim().strip_prefix("q=").or_else(|| p.trim().strip_prefix("Q=")))
            .find_map(|v| v.trim().parse::<f32>().ok())
            .unwrap_or(1.0);
        if token == "*" {
            wildcard = Some(q);
        } else if let Some(e) = Encoding::PREFERENCE.iter().find(|e| e.token() == token) {
            named.push((e.token(), q));
        }
    }
    let mut out: Vec<(Encoding, f32)> = Encoding::PREFERENCE
        .iter()
        .filter_map(|&e| {
            let q = named
                .iter()
                .find(|(t, _)| *t == e.token())
                .map(|&(_, q)| q)
                .or(wildcard)?;
            (q > 0.0).then_some((e, q))
        })
        .collect();
    // Stable: equal q keeps the server's preference.
    out.sort_by(|a, b| b.1.total_cmp(&a.1));
    out.into_iter().map(|(e, _)| e).collect()
}

/// The `Content-Type` of the files the web build compresses, by extension; other files are never
/// sent encoded.
pub fn compressible_type(path: &Path) -> Option<&'static str> {
    Some(match path.extension()?.to_str()? {
        "html" => "text/html; charset=utf-8",
        "js" | "mjs" => "text/javascript; charset=utf-8",
        "css" => "text/css; charset=utf-8",
        "svg" => "image/svg+xml",
        "json" => "application/json",
        "webmanifest" => "application/manifest+json",
        "txt" => "text/plain; charset=utf-8",
        "xml" => "text/xml; charset=utf-8",
        _ => return None,
    })
}

/// The file a request path names inside `dist`, or `None` when it tries to leave it.
fn resolve(dist: &Path, path: &str) -> Option<PathBuf> {
    let decoded = percent_decode(path)?;
    let mut file = dist.to_path_buf();
    for part in Path::new(decoded.trim_start_matches('/')).components() {
        match part {
            Component::Normal(p) => file.push(p),
            Component::CurDir => {}
            _ => return None,
        }
    }
    Some(file)
}

fn percent_decode(path: &str) -> Option<String> {
    let bytes = path.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The mentor a `/mentor/{id}` path shows: `(id as written, id)` for a UUID in its usual form.
fn mentor_page_id(path: &str) -> Option<(&str, Uuid)> {
    let written = path.strip_prefix("/mentor/")?;
    if written.len() != 36 {
        return None;
    }
    Some((written, Uuid::try_parse(written).ok()?))
}

/// Text as HTML text or an attribute's value.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Up to two initials of a name, as the app's avatar shows them (`initialsOf` in
/// `web/src/components/mentor-avatar.tsx`): 'Luna Starweaver' -> 'LS', 'Luna' -> 'LU', none -> '?'.
pub fn initials_of(name: &str) -> String {
    let words: Vec<&str> = name.split_whitespace().collect();
    let letters: String = match words.as_slice() {
        [] => String::new(),
        [only] => only.chars().take(2).collect(),
        [first, .., last] => first.chars().take(1).chain(last.chars().take(1)).collect(),
    };
    if letters.is_empty() {
        "?".to_string()
    } else {
        letters.to_uppercase()
    }
}

/// The mentor's page from the template: the fields in the card, and `GET {api_path}`'s body in a
/// JSON script after `#root` (`<` written as `\u003c`, so nothing in it can close the script).
pub fn fill_mentor_page(template: &str, api_path: &str, body: &str) -> Option<String> {
    let mentor: serde_json::Value = serde_json::from_str(body).ok()?;
    let name = mentor.get("displayName")?.as_str()?;
    let bio = mentor.get("bio").and_then(|b| b.as_str()).unwrap_or("");
    let data = format!(
        r#"<script type="application/json" data-api-path="{}">{}</script>"#,
        escape_html(api_path),
        body.replace('<', "\\u003c")
    );
    let html = template
        .replace(MARK_NAME, &escape_html(name))
        .replace(MARK_INITIALS, &escape_html(&initials_of(name)))
        .replace(MARK_BIO, &escape_html(bio));
    let end = html.rfind("</body>")?;
    Some(format!("{}{data}{}", &html[..end], &html[end..]))
}

/// A strong validator for a body made per request.
fn etag_of(body: &[u8]) -> String {
    let mut hasher = DefaultHasher::new();
    body.hash(&mut hasher);
    format!("\"m{:016x}{:x}\"", hasher.finish(), body.len())
}

/// The app under `dist`: see the module's comment.
pub struct WebApp {
    dist: PathBuf,
}

impl WebApp {
    pub fn new(dist: impl Into<PathBuf>) -> Self {
        Self { dist: dist.into() }
    }

    /// The file to send for a path: the file itself, a prerendered page, or the frame.
    fn file_for(&self, path: &str) -> Result<PathBuf> {
        let file = resolve(&self.dist, path).ok_or(StaticFileError::Forbidden(path.to_string()))?;
        if file.is_file() {
            return Ok(file);
        }
        if file.join(INDEX_FILE).is_file() {
            return Ok(file.join(INDEX_FILE));
        }
        if file.starts_with(self.dist.join(ASSETS_DIR)) {
            return Err(StaticFileError::NotFound.into());
        }
        let shell = self.dist.join(SHELL_FILE);
        Ok(if shell.is_file() {
            shell
        } else {
            self.dist.join(INDEX_FILE)
        })
    }
}

impl WebApp {
    /// A mentor's page with the mentor in it (see the module's comment); `None` when there is no
    /// template or no approved mentor of that id (the frame alone then, and the app asks the api).
    async fn mentor_page(&self, req: &Request, written: &str, id: Uuid) -> Option<Response> {
        let state = req.data::<AppState>()?;
        let template = tokio::fs::read_to_string(self.dist.join(MENTOR_PAGE_FILE)).await.ok()?;
        let mentor = match public_mentor(state, id, req).await {
            Ok(mentor) => mentor,
            Err(crate::error::ApiError::NotFound(_)) => return None,
            Err(err) => {
                tracing::warn!(%id, error = ?err, "mentor page without its mentor");
                return None;
            }
        };
        let body = mentor.bytes();
        let html = fill_mentor_page(
            &template,
            &format!("/api/mentors/{written}"),
            std::str::from_utf8(&body).ok()?,
        )?;
        let etag = etag_of(html.as_bytes());
        let unchanged = req
            .headers()
            .get(header::IF_NONE_MATCH)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"));
        let resp = if unchanged {
            Response::builder().status(StatusCode::NOT_MODIFIED).finish()
        } else {
            Response::builder().content_type("text/html; charset=utf-8").body(html)
        };
        let mut resp = resp;
        let headers = resp.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(NO_CACHE));
        headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        headers.insert(header::ETAG, HeaderValue::from_str(&etag).ok()?);
        Some(resp)
    }
}

impl Endpoint for WebApp {
    type Output = Response;

    async fn call(&self, req: Request) -> Result<Self::Output> {
        if req.method() != Method::GET {
            return Err(StaticFileError::MethodNotAllowed(req.method().clone()).into());
        }
        if let Some((written, id)) = mentor_page_id(req.uri().path())
            && let Some(resp) = self.mentor_page(&req, written, id).await
        {
            return Ok(resp);
        }
        let file = self.file_for(req.uri().path())?;
        let cache = if file.starts_with(self.dist.join(ASSETS_DIR)) {
            IMMUTABLE
        } else {
            NO_CACHE
        };
        let content_type = compressible_type(&file);
        let accept = req
            .headers()
            .get(header::ACCEPT_ENCODING)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        let encoded = content_type.and_then(|_| {
            accepted_encodings(accept).into_iter().find_map(|e| {
                let mut name = file.clone().into_os_string();
                name.push(".");
                name.push(e.suffix());
                let path = PathBuf::from(name);
                path.is_file().then_some((e, path))
            })
        });
        let static_req = StaticFileRequest::from_request_without_body(&req).await?;
        let mut resp = match (&encoded, content_type) {
            (Some((_, path)), Some(ct)) => static_req.create_response(path, true, false)?.with_content_type(ct),
            _ => static_req.create_response(&file, true, false)?,
        }
        .into_response();
        let headers = resp.headers_mut();
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static(cache));
        if content_type.is_some() {
            headers.insert(header::VARY, HeaderValue::from_static("Accept-Encoding"));
        }
        if let Some((e, _)) = encoded {
            headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(e.token()));
        }
        Ok(resp)
    }
}

/// `HEAD` wherever `GET` is: the GET's status and headers (its `Content-Length` too), no body.
pub async fn head_as_get<E: Endpoint>(next: E, mut req: Request) -> Result<Response> {
    if req.method() != Method::HEAD {
        return next.call(req).await.map(IntoResponse::into_response);
    }
    req.set_method(Method::GET);
    let mut resp = match next.call(req).await {
        Ok(resp) => resp.into_response(),
        Err(err) => err.into_response(),
    };
    if !resp.headers().contains_key(header::CONTENT_LENGTH) && resp.status() != StatusCode::SWITCHING_PROTOCOLS {
        let body = resp.take_body().into_bytes().await.unwrap_or_default();
        resp.headers_mut()
            .insert(header::CONTENT_LENGTH, HeaderValue::from(body.len()));
    }
    resp.set_body(Body::empty());
    Ok(resp)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brotli_is_preferred_at_equal_q() {
        assert_eq!(
            accepted_encodings("gzip, deflate, br"),
            [Encoding::Brotli, Encoding::Gzip]
        );
        assert_eq!(accepted_encodings("gzip"), [Encoding::Gzip]);
        assert_eq!(accepted_encodings("br"), [Encoding::Brotli]);
        assert_eq!(accepted_encodings(""), []);
        assert_eq!(accepted_encodings("identity"), []);
    }

    #[test]
    fn q_orders_and_zero_refuses() {
        assert_eq!(accepted_encodings("br;q=0.5, gzip"), [Encoding::Gzip, Encoding::Brotli]);
        assert_eq!(accepted_encodings("br;q=0, gzip"), [Encoding::Gzip]);
        assert_eq!(accepted_encodings("br;q=0.001"), [Encoding::Brotli]);
        assert_eq!(accepted_encodings("*;q=0"), []);
        assert_eq!(accepted_encodings("*"), [Encoding::Brotli, Encoding::Gzip]);
        assert_eq!(accepted_encodings("gzip;q=0, *"), [Encoding::Brotli]);
        assert_eq!(accepted_encodings("GZIP ; q=1"), [Encoding::Gzip]);
    }

    #[test]
    fn only_text_files_are_sent_encoded() {
        assert_eq!(
            compressible_type(Path::new("a/b.js")),
            Some("text/javascript; charset=utf-8")
        );
        assert_eq!(
            compressible_type(Path::new("index.html")),
            Some("text/html; charset=utf-8")
        );
        assert_eq!(compressible_type(Path::new("notification.mp3")), None);
        assert_eq!(compressible_type(Path::new("logo.png")), None);
        assert_eq!(compressible_type(Path::new("README")), None);
    }

    #[test]
    fn mentor_pages_are_named_by_a_uuid() {
        let id = "0b5a8f5e-6f0c-4a1e-9d55-0e7c2a1b3c4d";
        assert_eq!(
            mentor_page_id(&format!("/mentor/{id}")),
            Some((id, Uuid::parse_str(id).unwrap()))
        );
        assert_eq!(mentor_page_id("/mentor/123"), None);
        assert_eq!(mentor_page_id(&format!("/mentor/{id}/x")), None);
        assert_eq!(mentor_page_id(&format!("/mentors/{id}")), None);
        assert_eq!(mentor_page_id("/mentor/0b5a8f5e6f0c4a1e9d550e7c2a1b3c4d----"), None);
    }

    #[test]
    fn initials_as_the_app_shows_them() {
        assert_eq!(initials_of("Luna Starweaver"), "LS");
        assert_eq!(initials_of("  luna  de la  Star "), "LS");
        assert_eq!(initials_of("Luna"), "LU");
        assert_eq!(initials_of("Ö"), "Ö");
        assert_eq!(initials_of("   "), "?");
    }

    #[test]
    fn the_mentor_page_escapes_what_it_writes() {
        let template = "<html><body><div id=\"root\"><h1>%%MENTOR_NAME%%</h1><span>%%MENTOR_INITIALS%%</span>\
                        <p>%%MENTOR_BIO%%</p></div></body></html>";
        let body = r#"{"displayName":"Ann <b>\"O'Neil\"</b>","bio":"a & b </script><script>x()</script>"}"#;
        let html = fill_mentor_page(template, "/api/mentors/1", body).unwrap();
        assert!(html.contains("<h1>Ann &lt;b&gt;&quot;O&#39;Neil&quot;&lt;/b&gt;</h1><span>A&lt;</span>"));
        assert!(html.contains("<p>a &amp; b &lt;/script&gt;&lt;script&gt;x()&lt;/script&gt;</p>"));
        let data = html
            .split(r#"<script type="application/json" data-api-path="/api/mentors/1">"#)
            .nth(1)
            .unwrap();
        let data = data.strip_suffix("</script></body></html>").unwrap();
        assert!(!data.contains('<'));
        let parsed: serde_json::Value = serde_json::from_str(data).unwrap();
        assert_eq!(parsed, serde_json::from_str::<serde_json::Value>(body).unwrap());
        assert_eq!(fill_mentor_page(template, "/x", "not json"), None);
    }

    #[test]
    fn paths_stay_inside_dist() {
        let dist = Path::new("/srv/dist");
        assert_eq!(
            resolve(dist, "/assets/a.js"),
            Some(PathBuf::from("/srv/dist/assets/a.js"))
        );
        assert_eq!(resolve(dist, "/mentors/"), Some(PathBuf::from("/srv/dist/mentors")));
        assert_eq!(resolve(dist, "/a%20b.txt"), Some(PathBuf::from("/srv/dist/a b.txt")));
        assert_eq!(resolve(dist, "/../etc/passwd"), None);
        assert_eq!(resolve(dist, "/assets/%2e%2e/%2e%2e/etc"), None);
        assert_eq!(resolve(dist, "/%zz"), None);
    }
}
