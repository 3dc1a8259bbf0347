# Sourced by scripts/cluster: the pieces of a cluster on one machine (a PostgreSQL primary and its
# streaming replica, NATS, HAProxy, several api and worker processes), each kept running by a small
# process manager that starts it again when it dies, as systemd's Restart=always would.
#
#   free_port                     a TCP port nothing listens on (127.0.0.1), never the same twice
#   keep NAME STOP_SIGNAL CMD...  runs CMD in the background, writes its pid to $CLUSTER_RUN/NAME.pid,
#                                 starts it again a second after it ends (noted in
#                                 $CLUSTER_LOGS/restarts.log), until `stop_kept NAME`; its output goes to
#                                 $CLUSTER_LOGS/NAME.log. STOP_SIGNAL is what stops it cleanly (TERM; INT
#                                 for PostgreSQL: a fast shutdown).
#   stop_kept NAME...             stops those (each waits for its process), in the order given
#   pg_server_cmd DATA PORT       sets PG_CMD, the command line of a PostgreSQL server in the foreground
#                                 (as the `postgres` user when we are root: PostgreSQL refuses root)
#   init_primary DATA             initdb once (trust auth on 127.0.0.1, replication allowed)
#   make_replica DATA HOST PORT   a fresh standby of that primary: pg_basebackup -R (streaming)
#   ensure_haproxy                installs Debian's haproxy when missing (as root), its service kept off
#   render_haproxy OUT BIND PORT STATS_PORT API_PORT...   writes the config from scripts/cluster.d/haproxy.cfg
#   wait_tcp NAME PORT [SECONDS]  waits until something accepts on 127.0.0.1:PORT
#   wait_pg NAME PORT [SECONDS]   waits until PostgreSQL accepts connections on 127.0.0.1:PORT
#   wait_http NAME URL [SECONDS]  waits until URL answers 2xx

CLUSTER_DIR="${CLUSTER_DIR:-$ROOT/.data/cluster}"
CLUSTER_RUN="$CLUSTER_DIR/run"
CLUSTER_LOGS="$CLUSTER_DIR/logs"

_cluster_ports=" "

free_port() {
  local p _ lo
  # Below the kernel's ephemeral range: a port there may be the local end of an outgoing connection
  # (or one in TIME-WAIT), which a server then cannot bind.
  read -r lo _ </proc/sys/net/ipv4/ip_local_port_range 2>/dev/null || lo=32768
  [ "$lo" -gt 12000 ] || lo=32768
  for _ in $(seq 1 200); do
    p=$((11000 + (RANDOM * 32768 + RANDOM) % (lo - 11000)))
    case "$_cluster_ports" in *" $p "*) continue ;; esac
    # 20000-21999: the UDP media ranges of Janus and coturn (scripts/run's and the cluster's).
    [ "$p" -ge 20000 ] && [ "$p" -lt 22000 ] && continue
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$p") 2>/dev/null; then
      _cluster_ports+="$p "
      echo "$p"
      return 0
    fi
  done
  echo "no free port found" >&2
  return 1
}

declare -A _kept_pids=()

keep() {
  local name="$1" sig="$2"
  shift 2
  mkdir -p "$CLUSTER_RUN" "$CLUSTER_LOGS"
  (
    set +e
    stopping=0
    child=
    trap 'stopping=1; [ -n "$child" ] && kill -'"$sig"' "$child" 2>/dev/null' TERM
    while [ "$stopping" = 0 ]; do
      # In a session of its own: the terminal's Ctrl-C reaches only scripts/cluster, which stops
      # everything in order (setsid execs, so the pid is the process's own).
      setsid "$@" >>"$CLUSTER_LOGS/$name.log" 2>&1 </dev/null &
      child=$!
      echo "$child" >"$CLUSTER_RUN/$name.pid"
      wait "$child" 2>/dev/null
      rc=$?
      # A trap cuts `wait` short: wait until the process has really ended.
      while kill -0 "$child" 2>/dev/null; do
        wait "$child" 2>/dev/null
        rc=$?
      done
      [ "$stopping" = 1 ] && break
      echo "$(date -u +%FT%TZ) $name (pid $child) ended with status $rc; starting it again" | tee -a "$CLUSTER_LOGS/restarts.log" >&2
      sleep 1
    done
    rm -f "$CLUSTER_RUN/$name.pid"
  ) &
  _kept_pids[$name]=$!
}

stop_kept() {
  local name
  for name in "$@"; do
    [ -n "${_kept_pids[$name]:-}" ] || continue
    kill -TERM "${_kept_pids[$name]}" 2>/dev/null || true
    wait "${_kept_pids[$name]}" 2>/dev/null || true
    unset "_kept_pids[$name]"
  done
}

pg_server_cmd() {
  local data="$1" port="$2" bindir
  bindir="$(_pg_bindir)" || return 1
  PG_CMD=()
  # setpriv execs (the pid stays the server's, unlike runuser's child).
  [ "$(id -u)" -eq 0 ] && PG_CMD=(setpriv --reuid=postgres --regid=postgres --init-groups --)
  # A replica needs max_connections at least the primary's: the same settings for both.
  PG_CMD+=("$bindir/postgres" -D "$data" -p "$port" -c listen_addresses=127.0.0.1 -c unix_socket_directories=
    -c fsync=off -c max_connections=300 -c wal_keep_size=256MB)
}

init_primary() {
  local data="$1" bindir
  bindir="$(_pg_bindir)" || return 1
  mkdir -p "$(dirname "$data")"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$(dirname "$data")"
  if [ -f "$data/PG_VERSION" ]; then return 0; fi
  rm -rf "$data"
  # initdb's pg_hba.conf trusts 127.0.0.1 for connections and for replication.
  _as_pg "$bindir/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$CLUSTER_LOGS/initdb.log" 2>&1 \
    || _as_pg "$bindir/initdb" -D "$data" -U postgres --auth=trust --encoding=UTF8 --no-locale >"$CLUSTER_LOGS/initdb.log" 2>&1 \
    || { echo "initdb failed: $CLUSTER_LOGS/initdb.log" >&2; return 1; }
}

make_replica() {
  local data="$1" host="$2" port="$3" bindir
  bindir="$(_pg_bindir)" || return 1
  rm -rf "$data"
  mkdir -p "$(dirname "$data")"
  [ "$(id -u)" -eq 0 ] && chown postgres: "$(dirname "$data")"
  # -R writes standby.signal and primary_conninfo; -X stream copies the WAL made meanwhile.
  _as_pg "$bindir/pg_basebackup" -h "$host" -p "$port" -U postgres -D "$data" -R -X stream -c fast \
    >"$CLUSTER_LOGS/pg_basebackup.log" 2>&1 || { echo "pg_basebackup failed: $CLUSTER_LOGS/pg_basebackup.log" >&2; return 1; }
}

ensure_haproxy() {
  command -v haproxy >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "haproxy is missing; install Debian's haproxy package (sudo apt-get install -y haproxy)" >&2
    return 1
  fi
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y haproxy
  # The package's service runs /etc/haproxy/haproxy.cfg: not ours.
  if command -v systemctl >/dev/null 2>&1; then systemctl disable --now haproxy >/dev/null 2>&1 || true; fi
  command -v haproxy >/dev/null 2>&1
}

ensure_nats() {
  command -v nats-server >/dev/null 2>&1 && return 0
  if [ "$(id -u)" -ne 0 ]; then
    echo "nats-server is missing; install Debian's nats-server package (sudo apt-get install -y nats-server)" >&2
    return 1
  fi
  apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y nats-server
  if command -v systemctl >/dev/null 2>&1; then systemctl disable --now nats-server >/dev/null 2>&1 || true; fi
  command -v nats-server >/dev/null 2>&1
}

render_haproxy() {
  local out="$1" bind="$2" port="$3" stats="$4" servers="" i=0 p
  shift 4
  for p in "$@"; do
    i=$((i + 1))
    servers+="    server api$i 127.0.0.1:$p"$'\n'
  done
  mkdir -p "$(dirname "$out")"
  awk -v servers="$servers" '/^@SERVERS@$/ { printf "%s", servers; next } { print }' "$ROOT/scripts/cluster.d/haproxy.cfg" \
    | sed -e "s|@RUN_DIR@|$CLUSTER_RUN|g" -e "s|@BIND@|$bind|g" -e "s|@PORT@|$port|g" -e "s|@STATS_PORT@|$stats|g" >"$out"
  haproxy -c -q -f "$out"
}

wait_tcp() {
  local name="$1" port="$2" seconds="${3:-30}" _
  for _ in $(seq 1 $((seconds * 10))); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "$name did not listen on 127.0.0.1:$port within $seconds s (log: $CLUSTER_LOGS/)" >&2
  return 1
}

wait_pg() {
  local name="$1" port="$2" seconds="${3:-60}" _
  for _ in $(seq 1 $((seconds * 5))); do
    if _pg_ready 127.0.0.1 "$port"; then return 0; fi
    sleep 0.2
  done
  echo "$name did not accept connections on 127.0.0.1:$port within $seconds s (log: $CLUSTER_LOGS/)" >&2
  return 1
}

wait_http() {
  local name="$1" url="$2" seconds="${3:-60}" _
  for _ in $(seq 1 $((seconds * 5))); do
    if curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  echo "$name did not answer $url within $seconds s (log: $CLUSTER_LOGS/)" >&2
  return 1
}
