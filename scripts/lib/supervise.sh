# Sourced by scripts/run (after common.sh): quiet steps and the api + worker supervision.
#
#   quietly NAME CMD...   runs CMD with its output in .data/logs/NAME.log, shown only when it fails
#                         (VERBOSE=1: shown as it comes). For npm's and the web build's notices,
#                         which are meant for developers of those tools.
#   supervise CLEANUP NAME=CMD...
#                         runs each CMD in the background until Ctrl-C / SIGTERM or until one ends,
#                         then stops the others and runs CLEANUP. Ctrl-C, SIGTERM and a process
#                         that ends cleanly (status 0, or 130/143 after the terminal's Ctrl-C
#                         reached it first) read as 'stopping' and exit 0; a failure is named in red
#                         and its status is the script's.

quietly() {
  local name="$1" log rc
  shift
  if [ "${VERBOSE:-0}" = "1" ]; then
    "$@"
    return
  fi
  log="${QUIET_LOG_DIR:-$ROOT/.data/logs}/$name.log"
  mkdir -p "$(dirname "$log")"
  set +e
  "$@" >"$log" 2>&1
  rc=$?
  set -e
  if [ "$rc" -ne 0 ]; then
    tail -n 60 "$log" >&2
    note "the whole output: $log (VERBOSE=1 shows it as it comes)"
  fi
  return "$rc"
}

_sv_pids=()
_sv_names=()
_sv_cleanup=:

_sv_stop_all() {
  trap - INT TERM
  local pid
  for pid in "${_sv_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${_sv_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
  "$_sv_cleanup"
}

_sv_on_signal() {
  echo >&2
  step "stopping"
  _sv_stop_all
  note "stopped"
  exit 0
}

supervise() {
  _sv_cleanup="$1"
  shift
  local spec i status name
  trap _sv_on_signal INT TERM
  for spec in "$@"; do
    _sv_names+=("${spec%%=*}")
    bash -c "${spec#*=}" &
    _sv_pids+=($!)
  done
  # Looks every second (a signal cuts the nap short): `wait -n` misses a process that ended before
  # it was called, which a crash at start-up does.
  set +e
  while :; do
    for i in "${!_sv_pids[@]}"; do
      if ! kill -0 "${_sv_pids[$i]}" 2>/dev/null; then
        wait "${_sv_pids[$i]}"
        status=$?
        name="the ${_sv_names[$i]}"
        break 2
      fi
    done
    sleep 1 &
    wait $! 2>/dev/null
  done
  set -e
  case "$status" in
    0 | 130 | 143)
      step "stopping ($name stopped)"
      _sv_stop_all
      note "stopped"
      exit 0
      ;;
    *)
      echo "${_RED}$name failed with status $status; stopping the rest${_RESET}" >&2
      _sv_stop_all
      exit "$status"
      ;;
  esac
}
