#!/usr/bin/env bash
# tests/zipkin.sh start DIR | stop DIR — a Zipkin server for a test suite: the pinned executable
# jar (set-up installs it, versions.env ZIPKIN_SERVER_VERSION), in-memory storage, on a free
# port of localhost, its log, pid and port in DIR. `start` returns once /health answers UP and
# prints the base URL (http://127.0.0.1:PORT); spans go to $URL/api/v2/spans, traces are read
# from $URL/api/v2/trace/ID. `stop` ends that server (only the pid it wrote) and waits for it.
# A suite that sources this file gets the same as functions: zipkin_start DIR, zipkin_stop DIR.
source "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

# How long a start may take: about 20 s on a quiet machine, more on a busy one of 2 cores.
ZIPKIN_START_SECONDS=180

zipkin_start() {
  local dir="$1" port pid
  [[ -f "$ZIPKIN_JAR" ]] || die "no Zipkin server at $ZIPKIN_JAR: run make setup"
  mkdir -p "$dir"
  port="$(free_port)"
  # In-memory storage, bounded, and nothing but the HTTP API (no UI work, no self-tracing).
  STORAGE_TYPE=mem MEM_MAX_SPANS=100000 QUERY_PORT="$port" SELF_TRACING_ENABLED=false \
    java -Xms64m -Xmx256m -XX:TieredStopAtLevel=1 -jar "$ZIPKIN_JAR" >"$dir/zipkin.log" 2>&1 &
  pid=$!
  echo "$pid" >"$dir/pid"
  echo "$port" >"$dir/port"
  for _ in $(seq $((ZIPKIN_START_SECONDS * 2))); do
    if ! kill -0 "$pid" 2>/dev/null; then
      tail -n 30 "$dir/zipkin.log" >&2
      die "Zipkin exited during start (log above, $dir/zipkin.log)"
    fi
    if curl -fsS "http://127.0.0.1:$port/health" 2>/dev/null | grep -q '"status" *: *"UP"'; then
      echo "http://127.0.0.1:$port"
      return 0
    fi
    sleep 0.5
  done
  zipkin_stop "$dir"
  die "Zipkin did not answer /health UP within $ZIPKIN_START_SECONDS s ($dir/zipkin.log)"
}

zipkin_stop() {
  local dir="$1" pid
  [[ -f "$dir/pid" ]] || return 0
  pid="$(cat "$dir/pid")"
  rm -f "$dir/pid"
  kill "$pid" 2>/dev/null || return 0
  for _ in $(seq 40); do kill -0 "$pid" 2>/dev/null || return 0; sleep 0.25; done
  kill -9 "$pid" 2>/dev/null || true
}

if [[ "${BASH_SOURCE[0]}" == "$0" ]]; then
  case "${1:-}" in
    start) zipkin_start "${2:?usage: zipkin.sh start DIR}" ;;
    stop) zipkin_stop "${2:?usage: zipkin.sh stop DIR}" ;;
    *) die "usage: zipkin.sh start DIR | stop DIR" ;;
  esac
fi
