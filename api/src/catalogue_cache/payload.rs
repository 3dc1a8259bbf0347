//! A JSON response whose bytes are already made: documented in `openapi.yaml` exactly as
//! `Json<T>` (same schema, same content type), sent without serialising again.

use std::marker::PhantomData;

use bytes::Bytes;
use poem::{IntoResponse, Response};
use poem_openapi::{
    ApiResponse,
    payload::{Json, Payload},
    registry::{MetaResponses, MetaSchemaRef, Registry},
    types::{ToJSON, Type},
};

/// What `Json<T>` sends as its content type.
const CONTENT_TYPE: &str = "application/json; charset=utf-8";

pub struct CachedJson<T> {
    body: Bytes,
    _shape: PhantomData<fn() -> T>,
}

impl<T: ToJSON> CachedJson<T> {
    /// The same bytes `Json(value)` would send.
    pub fn new(value: &T) -> Self {
        let body = serde_json::to_vec(&value.to_json()).expect("a JSON value always serialises");
        Self::from_bytes(Bytes::from(body))
    }
}

impl<T> CachedJson<T> {
    pub fn from_bytes(body: Bytes) -> Self {
        Self {
            body,
            _shape: PhantomData,
        }
    }

    pub fn bytes(&self) -> Bytes {
        self.body.clone()
    }
}

impl<T: Type> Payload for CachedJson<T> {
    const CONTENT_TYPE: &'static str = CONTENT_TYPE;

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: Send> IntoResponse for CachedJson<T> {
    fn into_response(self) -> Response {
        Response::builder().content_type(CONTENT_TYPE).body(self.body)
    }
}

impl<T: ToJSON> ApiResponse for CachedJson<T> {
    fn meta() -> MetaResponses {
        <Json<T> as ApiResponse>::meta()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_content_type_is_json_s() {
        assert_eq!(CONTENT_TYPE, <Json<String> as Payload>::CONTENT_TYPE);
    }
}
