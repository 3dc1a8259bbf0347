# Sourced by scripts/test: the compile-time-checked SQL's offline cache (domain/.sqlx) must match the
# queries. `check_sqlx_cache` installs sqlx-cli when missing (pinned to the sqlx in Cargo.lock, into
# the ignored .tools/sqlx-cli), migrates a scratch database with the built api (our migrations and the
# job storage's schema, which apalis-postgres's own macros read when they build online), and runs
# `cargo sqlx prepare --check` in domain/ against it. `prepare_sqlx_cache` rewrites the cache the same way
# (scripts/generate). Needs DATABASE_URL (ensure_database) and API_BIN (build_rust).

SQLX_CLI_VERSION=0.9.0

ensure_sqlx_cli() {
  local root="$ROOT/.tools/sqlx-cli"
  if [ -x "$root/bin/cargo-sqlx" ] && "$root/bin/cargo-sqlx" sqlx --version 2>/dev/null | grep -q " $SQLX_CLI_VERSION"; then
    export PATH="$root/bin:$PATH"
    return 0
  fi
  note "installing sqlx-cli $SQLX_CLI_VERSION into .tools/sqlx-cli"
  cargo install sqlx-cli --version "$SQLX_CLI_VERSION" --locked --no-default-features --features postgres,rustls \
    --root "$root" || return 1
  export PATH="$root/bin:$PATH"
}

# A scratch database on the test server, migrated by the api: its URL on stdout.
_sqlx_database() {
  local url admin name
  # one scratch database per checkout, so worktrees can prepare at the same time
  name="sqlx_prepare_$(basename "$ROOT" | tr -c "a-z0-9_\n" "_")"
  admin="$(_db_admin_url_of "$DATABASE_URL")"
  url="${DATABASE_URL%%\?*}"
  url="${url%/*}/$name"
  _psql "$admin" -q -v ON_ERROR_STOP=1 -c "DROP DATABASE IF EXISTS $name" -c "CREATE DATABASE $name" >&2 || return 1
  DATABASE_URL="$url" "$API_BIN" migrate >&2 || return 1
  echo "$url"
}

_sqlx_prepare() {
  local url
  ensure_sqlx_cli || return 1
  url="$(_sqlx_database)" || return 1
  # apalis-postgres's own query! macros land in the cache only when that crate compiles during the prepare:
  # rebuild it every time, so the cache does not depend on what the target folder already held.
  cargo clean -p apalis-postgres >&2 2>/dev/null || true
  (cd "$ROOT/domain" && DATABASE_URL="$url" SQLX_OFFLINE=false cargo sqlx prepare "$@")
}

check_sqlx_cache() { _sqlx_prepare --check; }
prepare_sqlx_cache() { _sqlx_prepare; }
