# Sourced by scripts/lint and scripts/test (after common.sh and node.sh): the gates of issue 20.
#
#   lint_steps          checks: rustfmt, clippy with warnings as errors, Prettier and ESLint over web/ and tests/
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

clippy_gate() {
  local args=(clippy --workspace --all-targets)
  [ "${LOCKED:-0}" = "1" ] && [ -f "$ROOT/Cargo.lock" ] && args+=(--locked)
  if [ "${1:-}" = "--fix" ]; then
    # No -D warnings here: it would stop at the first warning clippy cannot fix itself.
    (cd "$ROOT" && cargo "${args[@]}" --fix --allow-dirty --allow-staged)
  else
    (cd "$ROOT" && cargo "${args[@]}" -- -D warnings)
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
    run_step "cargo clippy (warnings are errors)" clippy_gate
    if have_web; then
      run_step "prettier --check (web/, tests/)" prettier_gate
      run_step "eslint (web/, tests/)" eslint_gate
    fi
  fi
  have_web || note "WARNING: web/package.json not found: Prettier and ESLint skipped"
}
