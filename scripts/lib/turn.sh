# Sourced by scripts/run, scripts/test and scripts/serve-turn: the project's own TURN server
# (Debian's coturn, `turnserver`) for one-to-one and group calls.
#
#   ensure_turn_package  installs Debian's coturn when `turnserver` is missing (as root) and keeps
#                        the package's own service off.
#   ensure_turn          renders scripts/turn/turnserver.conf into .data/turn with a secret made once
#                        (.data/turn/secret.env, mode 600), starts coturn on 127.0.0.1 with loopback
#                        peers allowed (this machine only) unless it already runs, and exports
#                        RTC_TURN_URL and RTC_TURN_SECRET for the api and JANUS_TURN_SERVER,
#                        JANUS_TURN_PORT, JANUS_TURN_SECRET for scripts/lib/janus.sh.
#   stop_turn            stops it when this shell started it (a leftover one:
#                        kill "$(cat .data/turn/turnserver.pid)").
#   render_turn_config OUT  writes the config with the TURN_* values of the environment.
#   turn_rest_credentials SECRET NAME TTL  prints "<expiry>:NAME <base64 HMAC-SHA1>": the TURN REST
#                        credentials `use-auth-secret` accepts (the api mints the same for browsers).
#
# Ports (override with the variables): TURN_PORT 13478 (UDP and TCP; not the stock 3478, where the
# package's own service may listen), relay ports TURN_RELAY_PORTS 20200-20399 (beside Janus's
# 20000-20199).

turn_dir() { echo "$ROOT/.data/turn"; }

ensure_turn_package() {
  if command -v turnserver >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "turnserver is missing; install Debian's coturn package (sudo apt-get install -y coturn)" >&2
    return 1
  fi
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y coturn
  # The package's service runs /etc/turnserver.conf on the stock port: not ours.
  if command -v systemctl >/dev/null 2>&1; then systemctl disable --now coturn >/dev/null 2>&1 || true; fi
}

# Renders scripts/turn/turnserver.conf into the file $1 (mode 600: it holds the secret) from
# TURN_LISTEN_IP, TURN_RELAY_IP, TURN_PORT, TURN_RELAY_PORTS (min-max), RTC_TURN_SECRET,
# TURN_DATA_DIR and TURN_LOG_FILE.
render_turn_config() {
  local out="$1"
  local min="${TURN_RELAY_PORTS%-*}" max="${TURN_RELAY_PORTS#*-}"
  mkdir -p "$(dirname "$out")" "$TURN_DATA_DIR"
  (umask 077 && sed -e "s|@LISTEN_IP@|$TURN_LISTEN_IP|g" \
    -e "s|@RELAY_IP@|$TURN_RELAY_IP|g" \
    -e "s|@PORT@|$TURN_PORT|g" \
    -e "s|@MIN_PORT@|$min|g" \
    -e "s|@MAX_PORT@|$max|g" \
    -e "s|@SECRET@|$RTC_TURN_SECRET|g" \
    -e "s|@DATA_DIR@|$TURN_DATA_DIR|g" \
    -e "s|@LOG_FILE@|$TURN_LOG_FILE|g" \
    "$ROOT/scripts/turn/turnserver.conf" >"$out")
}

turn_rest_credentials() {
  local secret="$1" name="$2" ttl="$3" username
  username="$(($(date +%s) + ttl)):$name"
  printf '%s %s\n' "$username" "$(printf %s "$username" | openssl dgst -sha1 -hmac "$secret" -binary | base64)"
}

ensure_turn() {
  local dir secret_file
  dir="$(turn_dir)"
  secret_file="$dir/secret.env"
  ensure_turn_package || return 1
  mkdir -p "$dir"
  if [ ! -f "$secret_file" ]; then
    (umask 077 && echo "RTC_TURN_SECRET=$(openssl rand -hex 24)" >"$secret_file")
  fi
  set -a
  # shellcheck disable=SC1090
  source "$secret_file"
  set +a
  export TURN_PORT="${TURN_PORT:-13478}" TURN_RELAY_PORTS="${TURN_RELAY_PORTS:-20200-20399}"
  export TURN_LISTEN_IP=127.0.0.1 TURN_RELAY_IP=127.0.0.1 TURN_DATA_DIR="$dir" TURN_LOG_FILE="$dir/turnserver.log"
  export RTC_TURN_URL="turn:127.0.0.1:$TURN_PORT?transport=udp"
  export JANUS_TURN_SERVER=127.0.0.1 JANUS_TURN_PORT="$TURN_PORT" JANUS_TURN_SECRET="$RTC_TURN_SECRET"
  if [ -f "$dir/turnserver.pid" ] && kill -0 "$(cat "$dir/turnserver.pid")" 2>/dev/null; then
    note "coturn already runs (pid $(cat "$dir/turnserver.pid"))"
    return 0
  fi
  rm -f "$dir/turnserver.pid"
  render_turn_config "$dir/turnserver.conf"
  # Loopback peers: every browser and Janus of this machine is on 127.0.0.1. Never in production.
  turnserver -c "$dir/turnserver.conf" --allow-loopback-peers --no-stdout-log >/dev/null 2>&1 &
  TURN_STARTED_PID=$!
  local _
  for _ in $(seq 1 100); do
    # Up once it accepts a TCP connection on its port (it listens on UDP and TCP alike).
    if (exec 3<>"/dev/tcp/127.0.0.1/$TURN_PORT") 2>/dev/null; then
      note "coturn runs: $RTC_TURN_URL (pid $TURN_STARTED_PID, log $TURN_LOG_FILE)"
      return 0
    fi
    if ! kill -0 "$TURN_STARTED_PID" 2>/dev/null; then break; fi
    sleep 0.1
  done
  echo "coturn did not start; see $TURN_LOG_FILE" >&2
  return 1
}

stop_turn() {
  [ -n "${TURN_STARTED_PID:-}" ] || return 0
  kill -TERM "$TURN_STARTED_PID" 2>/dev/null || true
  wait "$TURN_STARTED_PID" 2>/dev/null || true
  TURN_STARTED_PID=
}
