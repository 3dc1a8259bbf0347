# Sourced by the other scripts: the repository root, step logging and the Rust build.
#
#   ROOT              the repository root
#   CARGO_TARGET_DIR  exported; defaults to $ROOT/target
#   API_BIN, WORKER_BIN, TOOLS_BIN  exported by build_rust (debug build, or release with PROFILE=release);
#                     TOOLS_BIN is the developer commands (`tools seed`, `tools bench-jobs`)

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$ROOT/target}"
# apalis-postgres's query macros go online when DATABASE_URL is set at build time; never let them.
export SQLX_OFFLINE=true

if [ -t 2 ]; then _BOLD=$'\e[1m'; _RED=$'\e[31m'; _GREEN=$'\e[32m'; _RESET=$'\e[0m'; else _BOLD=; _RED=; _GREEN=; _RESET=; fi

step() { echo "${_BOLD}==> $*${_RESET}" >&2; }
note() { echo "    $*" >&2; }
fail() { echo "${_RED}${_BOLD}FAILED: $*${_RESET}" >&2; exit 1; }

# Runs "$@" as a named step, printing its duration; exits the script on failure.
run_step() {
  local name="$1" start rc
  shift
  step "$name"
  start=$SECONDS
  set +e
  "$@"
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    fail "$name (exit $rc, after $((SECONDS - start)) s)"
  fi
  echo "${_GREEN}    ok: $name ($((SECONDS - start)) s)${_RESET}" >&2
}

# Builds the workspace binaries and exports API_BIN, WORKER_BIN and TOOLS_BIN. With LOCKED=1 (scripts/test)
# the build refuses to change Cargo.lock.
build_rust() {
  local profile="${PROFILE:-debug}" args=(build --workspace)
  [ "${LOCKED:-0}" = "1" ] && [ -f "$ROOT/Cargo.lock" ] && args+=(--locked)
  [ "$profile" = "release" ] && args+=(--release)
  (cd "$ROOT" && cargo "${args[@]}") || return 1
  export API_BIN="$CARGO_TARGET_DIR/$profile/api"
  export WORKER_BIN="$CARGO_TARGET_DIR/$profile/worker"
  export TOOLS_BIN="$CARGO_TARGET_DIR/$profile/tools"
  local bin
  for bin in "$API_BIN" "$WORKER_BIN" "$TOOLS_BIN"; do
    [ -x "$bin" ] || { echo "the build produced no $bin" >&2; return 1; }
  done
}

# True when $1/node_modules is missing or older than $1/package-lock.json.
npm_install_needed() {
  local dir="$1"
  [ "${CI:-}" = "true" ] && return 0
  [ -f "$dir/node_modules/.package-lock.json" ] || return 0
  [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ] && return 0
  [ "$dir/package.json" -nt "$dir/node_modules/.package-lock.json" ] && return 0
  return 1
}

# `npm ci` in $1 unless its node_modules is current (always on CI).
npm_ci() {
  local dir="$1"
  if npm_install_needed "$dir"; then
    (cd "$dir" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund)
  else
    note "$dir/node_modules is current"
  fi
}

# True when the web app has a package.json (the web engineer's part of the tree).
have_web() { [ -f "$ROOT/web/package.json" ]; }

# True when web/dist is missing or older than any web source.
web_build_needed() {
  local stamp="$ROOT/web/dist/index.html"
  [ -f "$stamp" ] || return 0
  [ -n "$(find "$ROOT/web" -path "$ROOT/web/node_modules" -prune -o -path "$ROOT/web/dist" -prune \
        -o -type f -newer "$stamp" -print -quit)" ]
}
