# Sourced by scripts/lint and scripts/test (after common.sh and node.sh): the gates of issue 20.
#
#   lint_steps          checks: rustfmt, clippy with warnings as errors (SQL against the offline data),
#                       the share of compile-checked SQL, Prettier and ESLint over web/ and tests/
#   lint_steps --fix    fixes what each tool can fix, in the same order
#
# Needs web/node_modules (Prettier, ESLint and its plugins are web's dev dependencies; ESLint lints tests/
# through tests/eslint.config.js, which takes its rules from web/eslint.config.js).

# rustfmt and clippy come with rustup's default profile; a minimal toolchain gets them here.
ensure_rust_lint_tools() {
  if cargo fmt --version >/dev/null 2>&1 && cargo clippy --version >/dev/null 2>&1; then
    note "$(cargo fmt --version), $(cargo clippy --version)"
    return 0
  fi
  command -v rustup >/dev/null 2>&1 || { echo "cargo fmt or cargo clippy is missing and rustup is not there to add them" >&2; return 1; }
  rustup component add rustfmt clippy
}

# SQLX_OFFLINE=true: the query! macros check every statement against the committed offline data
# (domain/.sqlx), never a database, so a statement the cache lacks or that no longer matches fails here.
clippy_gate() {
  local args=(clippy --workspace --all-targets)
  [ "${LOCKED:-0}" = "1" ] && [ -f "$ROOT/Cargo.lock" ] && args+=(--locked)
  if [ "${1:-}" = "--fix" ]; then
    # No -D warnings here: it would stop at the first warning clippy cannot fix itself.
    (cd "$ROOT" && SQLX_OFFLINE=true cargo "${args[@]}" --fix --allow-dirty --allow-staged)
  else
    (cd "$ROOT" && SQLX_OFFLINE=true cargo "${args[@]}" -- -D warnings)
  fi
}

# The share of production SQL statements checked at compile time: `sqlx::query!`/`query_as!`/
# `query_scalar!` against run-time `sqlx::query*(…)` and `QueryBuilder`s, over the crates' sources
# (unit tests, the seed and the benchmarks left out). Prints "SQL compile-checked: N of M (P%)" and
# fails below SQL_CHECKED_MIN_PERCENT.
SQL_CHECKED_MIN_PERCENT=80
SQL_CHECKED_DIRS=(domain/src api/src jobs/src worker/src)
SQL_CHECKED_SKIP='/(seed|bench)/'

# One file's statements as "macros runtime", up to its unit tests.
_sql_statements_of() {
  awk '
    /^#\[cfg\(test\)\]/ { exit }
    {
      line = $0
      macros += gsub(/sqlx::query(_as|_scalar)?!\(/, "", line)
      runtime += gsub(/sqlx::query(_as|_scalar)?(::<[^>]*>)?\(/, "", line)
      runtime += gsub(/QueryBuilder::(<[^>]*>::)?new\(/, "", line)
    }
    END { print macros + 0, runtime + 0 }
  ' "$1"
}

sql_checked_gate() {
  local dir file macros=0 runtime=0 m r
  for dir in "${SQL_CHECKED_DIRS[@]}"; do
    [ -d "$ROOT/$dir" ] || continue
    while IFS= read -r file; do
      [[ "$file" =~ $SQL_CHECKED_SKIP ]] && continue
      read -r m r < <(_sql_statements_of "$file")
      macros=$((macros + m))
      runtime=$((runtime + r))
    done < <(find "$ROOT/$dir" -name '*.rs' | sort)
  done
  local total=$((macros + runtime))
  [ "$total" -gt 0 ] || { echo "no SQL statements found" >&2; return 1; }
  local percent=$((macros * 100 / total))
  echo "SQL compile-checked: $macros of $total ($percent%)"
  if [ "$percent" -lt "$SQL_CHECKED_MIN_PERCENT" ]; then
    echo "below $SQL_CHECKED_MIN_PERCENT%: write statements of a fixed shape with sqlx::query!/query_as!/query_scalar!" >&2
    return 1
  fi
}

# Prettier from the root, so /.prettierrc.json and /.prettierignore (generated client, build output) apply.
prettier_gate() {
  local mode=--check
  [ "${1:-}" = "--fix" ] && mode=--write
  (cd "$ROOT" && web/node_modules/.bin/prettier "$mode" --log-level warn web tests)
}

eslint_gate() {
  local args=(--max-warnings 0)
  [ "${1:-}" = "--fix" ] && args+=(--fix)
  (cd "$ROOT/web" && node_modules/.bin/eslint "${args[@]}" . ../tests)
}

lint_steps() {
  local fix="${1:-}"
  run_step "rustfmt and clippy" ensure_rust_lint_tools
  if [ "$fix" = "--fix" ]; then
    run_step "cargo fmt" bash -c "cd '$ROOT' && cargo fmt --all"
    run_step "cargo clippy --fix" clippy_gate --fix
    if have_web; then
      run_step "prettier --write (web/, tests/)" prettier_gate --fix
      run_step "eslint --fix (web/, tests/)" eslint_gate --fix
    fi
  else
    run_step "cargo fmt --check" bash -c "cd '$ROOT' && cargo fmt --all --check"
    run_step "cargo clippy (warnings are errors; SQL checked offline against domain/.sqlx)" clippy_gate
    run_step "SQL compile-checked (at least $SQL_CHECKED_MIN_PERCENT%)" sql_checked_gate
    if have_web; then
      run_step "prettier --check (web/, tests/)" prettier_gate
      run_step "eslint (web/, tests/)" eslint_gate
    fi
  fi
  have_web || note "WARNING: web/package.json not found: Prettier and ESLint skipped"
}
