//! The whole HTTP application: `/api` (OpenAPI service behind its guards), the WebSocket at
//! `/api/ws`, and the web app.

use std::{path::Path, sync::Arc};

use poem::{
    Endpoint, EndpointExt, IntoEndpoint, Request, Response, Route,
    endpoint::StaticFilesEndpoint,
    get, handler,
    http::StatusCode,
    middleware::{CatchPanic, CookieJarManager},
    web::Data,
};

use crate::{auth, error, guard, metrics, request_id, routes, security_headers, socket, state::AppState, web};

pub fn build(state: AppState) -> impl Endpoint {
    let table = Arc::new(route_table());
    let api = routes::service()
        .into_endpoint()
        .around(guard::guard)
        .around(move |ep, req| metrics::track(ep, req, table.clone()));
    let web = web_app(&state.config.web_dist);
    let uploads = uploads(&state.config.upload_dir);
    Route::new()
        .at("/api/ws", get(socket::ws))
        .at("/metrics", get(scrape_metrics))
        .nest_no_strip("/api", api)
        .nest("/uploads", uploads)
        .nest("/", web)
        .with(CookieJarManager::new())
        .catch_all_error(error::normalize)
        .around(auth::forget_stale_sign_in)
        .with(CatchPanic::new().with_handler(error::panicked))
        .around(security_headers::apply)
        .around(request_id::apply)
        .around(web::head_as_get)
        .data(state)
}

/// The operations of the API, which label its metrics.
fn route_table() -> metrics::RouteTable {
    metrics::RouteTable::from_openapi(&routes::service().spec())
}

/// `GET /metrics` of this process's pool and the job queues.
#[handler]
async fn scrape_metrics(req: &Request, state: Data<&AppState>) -> Response {
    metrics::scrape(req, &state.pool).await
}

/// The built React app (`web::WebApp`): compressed, cached, prerendered pages and the app's frame
/// for client-side routes.
fn web_app(dist: &Path) -> poem::Route {
    if dist.join(web::INDEX_FILE).is_file() {
        Route::new().nest("/", web::WebApp::new(dist))
    } else {
        tracing::warn!(dir = %dist.display(), "WEB_DIST has no index.html: build the web app (npm run build in web/)");
        Route::new().nest("/", not_built)
    }
}

/// Files users uploaded (shared by every api process through `UPLOAD_DIR`); served with
/// `nosniff` and an empty CSP like every response.
fn uploads(dir: &Path) -> impl Endpoint + use<> {
    if let Err(err) = std::fs::create_dir_all(dir) {
        tracing::warn!(dir = %dir.display(), error = %err, "cannot create UPLOAD_DIR");
    }
    StaticFilesEndpoint::new(dir)
}

#[handler]
fn not_built() -> Response {
    Response::builder()
        .status(StatusCode::SERVICE_UNAVAILABLE)
        .content_type("text/html; charset=utf-8")
        .body("<!doctype html><title>Mystic Mentors</title><p>The web app is not built yet. Run <code>scripts/run</code>, or <code>npm run build</code> in <code>web/</code>.</p>")
}

#[cfg(test)]
mod tests {
    use poem::http::Method;

    use super::*;

    #[test]
    fn the_real_spec_knows_its_routes() {
        let table = route_table();
        assert_eq!(table.label(&Method::GET, "/api/health"), "/api/health");
        assert_eq!(table.label(&Method::GET, "/api/nope/nope"), metrics::UNMATCHED_ROUTE);
    }
}
