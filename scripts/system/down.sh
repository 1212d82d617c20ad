#!/usr/bin/env bash
# system/down.sh — `make down`: stops what `make up` started. The data stays in .tmp/system/
# (the next `make up` finds the same users and people); delete that folder to start afresh.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-system.sh"

# The schema registry runs as a process in both runtimes.
pid="$(cat "$SYSTEM_DIR/schema-registry.pid" 2>/dev/null || true)"
[[ -n "$pid" ]] && kill "$pid" 2>/dev/null && while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
rm -f "$SYSTEM_DIR/schema-registry.pid"

case "$(system_runtime)" in
  docker)
    # A graceful stop: person-spring drains its calls, H2 closes its file.
    # With replicas (SCALE > 1), the balancer first, so nothing new reaches them as they stop.
    (($(system_scale) == 1)) || docker stop -t 10 "$SYSTEM_NAME-balancer" >/dev/null 2>&1 || true
    containers=("$SYSTEM_NAME-web-page" "$SYSTEM_NAME-web-proxy")
    (($(system_scale) == 1)) || containers+=("$SYSTEM_NAME-balancer")
    mapfile -t -O "${#containers[@]}" containers < <(replicas person; replicas auth)
    # Zipkin too (make up's own; absent when the services export to a backend of the user's).
    containers+=("$SYSTEM_NAME-zipkin")
    docker stop -t 30 "${containers[@]}" >/dev/null 2>&1 || true
    docker rm -f "${containers[@]}" >/dev/null 2>&1 || true
    (($(system_scale) == 1)) || "$ROOT/scripts/system/postgres.sh" stop
    docker network rm "$SYSTEM_NAME" >/dev/null 2>&1 || true
    ;;
  process)
    for pid_file in "$SYSTEM_DIR/web-page.pid" "$SYSTEM_DIR/web-proxy.pid" "$SYSTEM_DIR/person.pid" "$SYSTEM_DIR/auth.pid" "$SYSTEM_DIR/zipkin.pid"; do
      pid="$(cat "$pid_file" 2>/dev/null || true)"
      [[ -n "$pid" ]] && kill "$pid" 2>/dev/null && while kill -0 "$pid" 2>/dev/null; do sleep 0.2; done
      rm -f "$pid_file"
    done
    echo "their logs: $SYSTEM_DIR/logs/"
    ;;
  "") echo "the system is not up"; exit 0 ;;
esac
rm -f "$SYSTEM_DIR/runtime" "$SYSTEM_DIR/scale" "$SYSTEM_DIR/zipkin-url"
rm -f "$SYSTEM_DIR/endpoints.env"
echo "the system is down; its data stays in ${SYSTEM_DIR#"$ROOT/"}/"
