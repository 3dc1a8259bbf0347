# Sourced by the other scripts: `ensure_database` makes sure a PostgreSQL database is reachable and
# exports DATABASE_URL.
#
# - DATABASE_URL set: use that server; create the database named in the URL when it is missing
#   (connecting to the server's `postgres` database).
# - DATABASE_URL unset: a local cluster under the ignored .data/pg, listening on 127.0.0.1:$LOCAL_PG_PORT
#   (default 54329) with trust auth and its socket inside .data; initialised once, started when it is not
#   running, reused when it is. PostgreSQL refuses to run as root, so as root the cluster belongs to the
#   `postgres` system user and initdb/pg_ctl run through `runuser -u postgres --`.
#   Then DATABASE_URL=postgres://postgres@127.0.0.1:$LOCAL_PG_PORT/mentor.
#
# The role needs CREATEDB (sqlx::test makes a database per test) and the right to create extensions
# (the job storage runs CREATE EXTENSION hstore); the local cluster's `postgres` role is a superuser.
# `stop_local_database` stops the local cluster (scripts/db stop).

_db_root() { cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd; }

_db_log() { echo "[db] $*" >&2; }

# The newest installed PostgreSQL server binaries.
_pg_bindir() {
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
  if [ -z "$d" ] || [ ! -x "$d/pg_ctl" ]; then
    _db_log "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin; install PostgreSQL (apt-get install postgresql) or set DATABASE_URL"
    return 1
  fi
  echo "$d"
}

_psql() {
  local bindir
  bindir="$(_pg_bindir 2>/dev/null || true)"
  if [ -n "$bindir" ] && [ -x "$bindir/psql" ]; then
    "$bindir/psql" "$@"
  else
    psql "$@"
  fi
}

# Runs a command as the owner of the local cluster.
_as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    (cd / && runuser -u postgres -- "$@")
  else
    "$@"
  fi
}

# postgres://user@host:port/name?params -> name ; and the same URL pointing at the `postgres` database.
_db_name_of() {
  local url="${1%%\?*}"
  echo "${url##*/}"
}
_db_admin_url_of() {
  local url="$1" query=""
  case "$url" in *\?*) query="?${url#*\?}"; url="${url%%\?*}";; esac
  echo "${url%/*}/postgres${query}"
}

# Creates the database of URL $1 when it does not exist. Fails when the server does not answer.
_db_create_if_missing() {
  local url="$1" name admin exists
  name="$(_db_name_of "$url")"
  admin="$(_db_admin_url_of "$url")"
  if [ -z "$name" ] || [ "$name" = "$url" ]; then
    _db_log "DATABASE_URL has no database name: $url"
    return 1
  fi
  if ! exists="$(_psql "$admin" -X -q -tA -v ON_ERROR_STOP=1 -c "SELECT 1 FROM pg_database WHERE datname = '${name//\'/\'\'}'" 2>&1)"; then
    _db_log "cannot reach PostgreSQL at $admin:"
    echo "$exists" >&2
    return 1
  fi
  if [ "$exists" != "1" ]; then
    _db_log "creating database $name"
    _psql "$admin" -X -q -v ON_ERROR_STOP=1 -c "CREATE DATABASE \"${name//\"/\"\"}\"" >&2 || return 1
  fi
  # sqlx::test creates databases and the job storage creates the hstore extension.
  local rights
  rights="$(_psql "$url" -X -q -tA -c "SELECT rolsuper::int::text || rolcreatedb::int::text FROM pg_roles WHERE rolname = current_user" 2>/dev/null || true)"
  case "$rights" in
    1*) ;;
    01) _db_log "warning: the role of DATABASE_URL is not a superuser: it needs the right to CREATE EXTENSION hstore (or have an owner create it)";;
    *) _db_log "warning: the role of DATABASE_URL lacks CREATEDB (database tests create their own databases)";;
  esac
}

_pg_ready() { # host port
  local bindir
  bindir="$(_pg_bindir 2>/dev/null || true)"
  if [ -n "$bindir" ] && [ -x "$bindir/pg_isready" ]; then
    "$bindir/pg_isready" -q -h "$1" -p "$2" -U postgres -d postgres
  else
    _psql "postgres://postgres@$1:$2/postgres" -X -q -tA -c 'SELECT 1' >/dev/null 2>&1
  fi
}

_local_pg_paths() {
  local root
  root="$(_db_root)"
  PG_HOME="$root/.data/pg"
  PG_DATA="$PG_HOME/data"
  PG_SOCKET_DIR="$PG_HOME/run"
  PG_LOG="$PG_HOME/postgres.log"
  PG_PORT="${LOCAL_PG_PORT:-54329}"
}

_start_local_database() {
  local bindir
  bindir="$(_pg_bindir)" || return 1
  _local_pg_paths

  # Something already answers on the port (this checkout's cluster, or another checkout's): reuse it.
  if _pg_ready 127.0.0.1 "$PG_PORT"; then
    return 0
  fi

  mkdir -p "$PG_HOME" "$PG_SOCKET_DIR"
  if [ "$(id -u)" -eq 0 ]; then
    if ! id postgres >/dev/null 2>&1; then
      _db_log "running as root and there is no 'postgres' system user to own the local cluster; create one or set DATABASE_URL"
      return 1
    fi
    chown -R postgres: "$PG_HOME"
    if ! _as_pg test -w "$PG_HOME"; then
      _db_log "the 'postgres' user cannot reach $PG_HOME (a parent folder is not searchable by others); set DATABASE_URL or move the checkout"
      return 1
    fi
  fi

  if [ ! -f "$PG_DATA/PG_VERSION" ]; then
    _db_log "initialising a local PostgreSQL cluster in $PG_DATA"
    rm -rf "$PG_DATA"
    _as_pg "$bindir/initdb" -D "$PG_DATA" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$PG_HOME/initdb.log" 2>&1 \
      || _as_pg "$bindir/initdb" -D "$PG_DATA" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$PG_HOME/initdb.log" 2>&1 \
      || { _db_log "initdb failed:"; cat "$PG_HOME/initdb.log" >&2; return 1; }
  fi

  # Unix socket paths are limited to ~107 bytes; fall back to TCP only for very deep checkouts.
  local sockets="$PG_SOCKET_DIR"
  if [ "$(( ${#PG_SOCKET_DIR} + 20 ))" -gt 100 ]; then sockets=""; fi

  if _as_pg "$bindir/pg_ctl" status -D "$PG_DATA" >/dev/null 2>&1; then
    _db_log "a local cluster runs in $PG_DATA but does not answer on 127.0.0.1:$PG_PORT; restarting it"
    _as_pg "$bindir/pg_ctl" stop -D "$PG_DATA" -m fast -w >/dev/null 2>&1 || true
  fi
  _db_log "starting the local PostgreSQL cluster on 127.0.0.1:$PG_PORT (log: $PG_LOG)"
  # The server must not inherit the start lock (fd 9) or our stdout (a caller may wait for it to close).
  if ! _as_pg "$bindir/pg_ctl" start -D "$PG_DATA" -l "$PG_LOG" -w -t 60 \
      -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -c unix_socket_directories='$sockets' -c fsync=off -c max_connections=200" \
      </dev/null >/dev/null 2>&1 9>&-; then
    _db_log "PostgreSQL did not start; the end of its log:"
    tail -n 30 "$PG_LOG" >&2 || true
    return 1
  fi
  _pg_ready 127.0.0.1 "$PG_PORT"
}

ensure_database() {
  if [ -n "${DATABASE_URL:-}" ]; then
    _db_create_if_missing "$DATABASE_URL" || return 1
    export DATABASE_URL
    return 0
  fi
  _local_pg_paths
  mkdir -p "$(dirname "$PG_HOME")"
  # One starter at a time (several test processes may ask at once).
  if command -v flock >/dev/null 2>&1; then
    ( flock 9 && _start_local_database ) 9>"$(dirname "$PG_HOME")/pg.lock" || return 1
  else
    _start_local_database || return 1
  fi
  export DATABASE_URL="postgres://postgres@127.0.0.1:${PG_PORT}/mentor"
  _db_create_if_missing "$DATABASE_URL" || return 1
}

stop_local_database() {
  local bindir
  bindir="$(_pg_bindir)" || return 1
  _local_pg_paths
  if [ -f "$PG_DATA/PG_VERSION" ] && _as_pg "$bindir/pg_ctl" status -D "$PG_DATA" >/dev/null 2>&1; then
    _as_pg "$bindir/pg_ctl" stop -D "$PG_DATA" -m fast -w
  else
    _db_log "the local cluster in $PG_DATA is not running"
  fi
}
