# Sourced by scripts/run and scripts/serve-sfu (the Procfile's `sfu`): the project's own Janus
# (the SFU of group calls), its APIs bound to 127.0.0.1.
#
#   ensure_janus   installs Debian's janus when missing (as root), renders scripts/janus/*.jcfg into
#                  .data/janus/conf with secrets made once (.data/janus/secrets.env, mode 600),
#                  starts it unless it already runs, and exports JANUS_HTTP_URL, JANUS_WS_URL,
#                  JANUS_ADMIN_KEY and JANUS_TOKEN_SECRET for the api.
#   stop_janus     stops it (also: kill "$(cat .data/janus/janus.pid)").
#
# Optional: with JANUS_TURN_SERVER, JANUS_TURN_PORT and JANUS_TURN_SECRET (scripts/lib/turn.sh's
# ensure_turn exports them) Janus relays through that TURN server, with TURN REST credentials
# (`<expiry>:janus`) minted when the config is rendered and valid JANUS_TURN_TTL_SECONDS (30 days;
# restart Janus within that time); with JANUS_NAT_1_1_MAPPING it announces that public address.
#
# Ports (override with the variables): JANUS_HTTP_PORT 18088, JANUS_ADMIN_PORT 17088,
# JANUS_WS_PORT 18188, media on UDP JANUS_RTP_PORTS 20000-20199 (not Janus's stock 8088/8188,
# where the package's own service, with its well-known admin secret, may listen).

# turn_rest_credentials mints Janus's TURN credentials.
[ "$(type -t turn_rest_credentials)" = function ] || source "$ROOT/scripts/lib/turn.sh"

janus_dir() { echo "$ROOT/.data/janus"; }

# Renders the templates of scripts/janus into $1 with the @NAME@ values of the environment.
render_janus_config() {
  local out="$1" file turn_user="" turn_pwd="" enable=()
  mkdir -p "$out"
  if [ -n "${JANUS_TURN_SERVER:-}" ] && [ -n "${JANUS_TURN_SECRET:-}" ]; then
    read -r turn_user turn_pwd < <(turn_rest_credentials "$JANUS_TURN_SECRET" janus "${JANUS_TURN_TTL_SECONDS:-2592000}")
    enable+=(-e "s|#@TURN@ ||")
  fi
  [ -n "${JANUS_NAT_1_1_MAPPING:-}" ] && enable+=(-e "s|#@NAT@ ||")
  for file in "$ROOT"/scripts/janus/*.jcfg; do
    # The admin secret, token secret and TURN password are in these files: only their owner reads them.
    (umask 077 && sed "${enable[@]}" -e "s|@CONFIG_DIR@|$out|g" \
      -e "s|@ADMIN_SECRET@|$JANUS_ADMIN_SECRET|g" \
      -e "s|@TOKEN_SECRET@|$JANUS_TOKEN_SECRET|g" \
      -e "s|@ADMIN_KEY@|$JANUS_ADMIN_KEY|g" \
      -e "s|@HTTP_PORT@|$JANUS_HTTP_PORT|g" \
      -e "s|@ADMIN_PORT@|$JANUS_ADMIN_PORT|g" \
      -e "s|@WS_PORT@|$JANUS_WS_PORT|g" \
      -e "s|@RTP_PORTS@|$JANUS_RTP_PORTS|g" \
      -e "s|@TURN_SERVER@|${JANUS_TURN_SERVER:-}|g" \
      -e "s|@TURN_PORT@|${JANUS_TURN_PORT:-3478}|g" \
      -e "s|@TURN_USER@|$turn_user|g" \
      -e "s|@TURN_PWD@|$turn_pwd|g" \
      -e "s|@NAT_1_1_MAPPING@|${JANUS_NAT_1_1_MAPPING:-}|g" \
      "$file" >"$out/$(basename "$file")")
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
