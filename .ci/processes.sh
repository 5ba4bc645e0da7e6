# Sourced by .ci/run and .ci/smoke-dist: a temp dir ($WORK) and the background processes a script
# starts (their ids in PIDS), all stopped and removed when the script exits, passed or failed.
WORK="$(mktemp -d)"
PIDS=()

stop_all() {
  local pid
  for pid in "${PIDS[@]+"${PIDS[@]}"}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]+"${PIDS[@]}"}"; do
    for _ in $(seq 1 100); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  PIDS=()
}
cleanup() {
  local rc=$?
  stop_all
  rm -rf "$WORK"
  exit "$rc"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
