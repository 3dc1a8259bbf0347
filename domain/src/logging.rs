//! The processes' logs: human-readable lines, or with `LOG_FORMAT=json` one JSON object per line
//! carrying the fields of the spans it happened in (the api's `request_id`, a task's `task_id` and
//! `queue`).

use tracing_subscriber::EnvFilter;

/// `json` for one JSON object per line; anything else (or unset): text.
pub const LOG_FORMAT_VAR: &str = "LOG_FORMAT";

/// Whether `LOG_FORMAT` asks for JSON.
pub fn json_wanted(value: Option<&str>) -> bool {
    value.is_some_and(|v| v.trim().eq_ignore_ascii_case("json"))
}

/// Installs the process's subscriber, to stderr, filtered by `RUST_LOG` or else `default_filter`.
pub fn init(default_filter: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| default_filter.into());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    if json_wanted(std::env::var(LOG_FORMAT_VAR).ok().as_deref()) {
        builder
            .json()
            .flatten_event(true)
            .with_current_span(false)
            .with_span_list(true)
            .init();
    } else {
        builder.init();
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn json_only_when_asked() {
        assert!(super::json_wanted(Some("json")));
        assert!(super::json_wanted(Some("JSON ")));
        assert!(!super::json_wanted(Some("text")));
        assert!(!super::json_wanted(None));
    }
}
