# Sourced by scripts/run: the project's own Janus (the SFU of group calls), bound to 127.0.0.1.
#
#   ensure_janus   installs Debian's janus when missing (as root), renders scripts/janus/*.jcfg into
#                  .data/janus/conf with secrets made once (.data/janus/secrets.env, mode 600),
#                  starts it unless it already runs, and exports JANUS_HTTP_URL, JANUS_WS_URL,
#                  JANUS_ADMIN_KEY and JANUS_TOKEN_SECRET for the api.
#   stop_janus     stops it (also: kill "$(cat .data/janus/janus.pid)").
#
# Ports (override with the variables): JANUS_HTTP_PORT 18088, JANUS_ADMIN_PORT 17088,
# JANUS_WS_PORT 18188, media on UDP JANUS_RTP_PORTS 20000-20199 (not Janus's stock 8088/8188,
# where the package's own service, with its well-known admin secret, may listen).

janus_dir() { echo "$ROOT/.data/janus"; }

# Renders the templates of scripts/janus into $1 with the @NAME@ values of the environment.
render_janus_config() {
  local out="$1" file
  mkdir -p "$out"
  for file in "$ROOT"/scripts/janus/*.jcfg; do
    sed -e "s|@CONFIG_DIR@|$out|g" \
      -e "s|@ADMIN_SECRET@|$JANUS_ADMIN_SECRET|g" \
      -e "s|@TOKEN_SECRET@|$JANUS_TOKEN_SECRET|g" \
      -e "s|@ADMIN_KEY@|$JANUS_ADMIN_KEY|g" \
      -e "s|@HTTP_PORT@|$JANUS_HTTP_PORT|g" \
      -e "s|@ADMIN_PORT@|$JANUS_ADMIN_PORT|g" \
      -e "s|@WS_PORT@|$JANUS_WS_PORT|g" \
      -e "s|@RTP_PORTS@|$JANUS_RTP_PORTS|g" \
      "$file" >"$out/$(basename "$file")"
  done
}

ensure_janus() {
  local dir secrets
  dir="$(janus_dir)"
  secrets="$dir/secrets.env"
  if ! command -v janus >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then
      echo "janus is missing; install Debian's janus package (sudo apt-get install -y janus)" >&2
      return 1
    fi
    apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y janus
    # The package's service runs the stock config with a well-known admin secret: not ours.
    if command -v systemctl >/dev/null 2>&1; then systemctl disable --now janus >/dev/null 2>&1 || true; fi
  fi
  mkdir -p "$dir"
  if [ ! -f "$secrets" ]; then
    (umask 077 && {
      echo "JANUS_ADMIN_SECRET=$(openssl rand -hex 24)"
      echo "JANUS_TOKEN_SECRET=$(openssl rand -hex 24)"
      echo "JANUS_ADMIN_KEY=$(openssl rand -hex 24)"
    } >"$secrets")
  fi
  set -a
  # shellcheck disable=SC1090
  source "$secrets"
  set +a
  export JANUS_HTTP_PORT="${JANUS_HTTP_PORT:-18088}" JANUS_ADMIN_PORT="${JANUS_ADMIN_PORT:-17088}"
  export JANUS_WS_PORT="${JANUS_WS_PORT:-18188}" JANUS_RTP_PORTS="${JANUS_RTP_PORTS:-20000-20199}"
  export JANUS_HTTP_URL="http://127.0.0.1:$JANUS_HTTP_PORT/janus"
  export JANUS_WS_URL="${JANUS_WS_URL:-ws://127.0.0.1:$JANUS_WS_PORT}"
  if [ -f "$dir/janus.pid" ] && kill -0 "$(cat "$dir/janus.pid")" 2>/dev/null; then
    note "janus already runs (pid $(cat "$dir/janus.pid"))"
    return 0
  fi
  render_janus_config "$dir/conf"
  janus -F "$dir/conf" -p "$dir/janus.pid" --disable-colors -L "$dir/janus.log" >/dev/null 2>&1 &
  local _
  for _ in $(seq 1 100); do
    if curl -fsS "$JANUS_HTTP_URL/info" >/dev/null 2>&1; then
      note "janus runs: $JANUS_HTTP_URL (log $dir/janus.log)"
      return 0
    fi
    sleep 0.1
  done
  echo "janus did not start; see $dir/janus.log" >&2
  return 1
}

stop_janus() {
  local pidfile
  pidfile="$(janus_dir)/janus.pid"
  [ -f "$pidfile" ] && kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
}
