//! Every request has an id: the caller's `X-Request-Id` (when it is a plausible id) or a new UUID.
//! It is returned in the response's `X-Request-Id` and is a field of the `request` span, so every
//! log line the request causes carries it (with `LOG_FORMAT=json`, in the line's `spans`).

use poem::{Endpoint, IntoResponse, Request, Response, http::HeaderValue};
use tracing::Instrument;

pub const HEADER: &str = "x-request-id";
/// A caller's id longer than this, or with other characters than `[A-Za-z0-9._-]`, is replaced.
pub const MAX_LEN: usize = 128;

/// The caller's id when it is plausible, else a new one.
pub fn id_for(given: Option<&str>) -> String {
    match given {
        Some(id)
            if !id.is_empty()
                && id.len() <= MAX_LEN
                && id.bytes().all(|b| b.is_ascii_alphanumeric() || b"._-".contains(&b)) =>
        {
            id.to_string()
        }
        _ => uuid::Uuid::new_v4().to_string(),
    }
}

/// Runs the request inside its span and returns its id (poem `around`, outermost).
pub async fn apply<E: Endpoint>(ep: std::sync::Arc<E>, req: Request) -> poem::Result<Response> {
    let id = id_for(req.header(HEADER));
    let span = tracing::info_span!("request", request_id = %id, method = %req.method(), path = %req.uri().path());
    let mut response = async move { ep.call(req).await.map(IntoResponse::into_response) }
        .instrument(span)
        .await
        .unwrap_or_else(|err| err.into_response());
    if let Ok(value) = HeaderValue::from_str(&id) {
        response.headers_mut().insert(HEADER, value);
    }
    Ok(response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plausible_ids_are_kept_others_replaced() {
        assert_eq!(id_for(Some("abc-123_x.y")), "abc-123_x.y");
        for bad in [
            None,
            Some(""),
            Some("a b"),
            Some("a\"b"),
            Some(&*"x".repeat(MAX_LEN + 1)),
        ] {
            let id = id_for(bad);
            assert!(uuid::Uuid::parse_str(&id).is_ok(), "{bad:?} -> {id}");
        }
    }
}
