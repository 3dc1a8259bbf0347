# Radicale, a real CalDAV server for the calendar-connection tests (issue 33 §6). Sourced.
#
#   ensure_radicale_package   installs Debian's radicale when it is missing (as root)
#   start_radicale DIR        starts a private Radicale on a free 127.0.0.1 port with one htpasswd
#                             user (plain passwords), storage under DIR; exports RADICALE_URL,
#                             RADICALE_USER, RADICALE_PASSWORD and RADICALE_PID
#   stop_radicale             stops it
#
# The black-box tests start their own through tests/harness/radicale.mjs (the same command line);
# the package's systemd unit is never used.

ensure_radicale_package() {
  if command -v radicale >/dev/null 2>&1; then
    return 0
  fi
  if [ "$(id -u)" -ne 0 ]; then
    echo "radicale is missing; install Debian's radicale package (sudo apt-get install -y radicale)" >&2
    return 1
  fi
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y radicale
}

start_radicale() {
  local dir="$1"
  ensure_radicale_package || return 1
  mkdir -p "$dir/collections"
  local port
  port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')"
  RADICALE_USER="mentor"
  RADICALE_PASSWORD="$(head -c 18 /dev/urandom | base64 | tr -d '/+=')"
  printf '%s:%s\n' "$RADICALE_USER" "$RADICALE_PASSWORD" >"$dir/users"
  chmod 600 "$dir/users"
  radicale --server-hosts "127.0.0.1:$port" \
    --auth-type htpasswd --auth-htpasswd-filename "$dir/users" --auth-htpasswd-encryption plain \
    --storage-filesystem-folder "$dir/collections" >"$dir/radicale.log" 2>&1 &
  RADICALE_PID=$!
  RADICALE_URL="http://127.0.0.1:$port/"
  local i
  for i in $(seq 1 50); do
    if curl -s -o /dev/null "$RADICALE_URL"; then
      export RADICALE_URL RADICALE_USER RADICALE_PASSWORD RADICALE_PID
      return 0
    fi
    sleep 0.2
  done
  echo "radicale did not start; see $dir/radicale.log" >&2
  return 1
}

stop_radicale() {
  if [ -n "${RADICALE_PID:-}" ]; then
    kill "$RADICALE_PID" 2>/dev/null || true
    wait "$RADICALE_PID" 2>/dev/null || true
    RADICALE_PID=""
  fi
}
