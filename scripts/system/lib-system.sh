# system/lib-system.sh — sourced (after lib.sh) by up.sh, down.sh and demo.sh: where the running
# system keeps its state, and how to reach it. One definition for the three.
# SYSTEM_DIR and SYSTEM_NAME let a test run its own system beside a user's (tests/demo.sh).
SYSTEM_DIR="${SYSTEM_DIR:-$TOOLS/system}"
SYSTEM_NAME="${SYSTEM_NAME:-acme-system}"
# Host ports, each configurable: what a newcomer's grpcurl and curl talk to.
AUTH_PORT="${AUTH_PORT:-50051}"
AUTH_REST_PORT="${AUTH_REST_PORT:-8081}"
# auth-node's /metrics: a port of its own (person-spring's are on its REST port).
AUTH_METRICS_PORT="${AUTH_METRICS_PORT:-9464}"
PERSON_PORT="${PERSON_PORT:-9090}"
PERSON_REST_PORT="${PERSON_REST_PORT:-8080}"
# The browser's way in: person-spring's web proxy (Connect, gRPC-Web) and the web page.
WEB_PROXY_PORT="${WEB_PROXY_PORT:-8088}"
WEB_PAGE_PORT="${WEB_PAGE_PORT:-8089}"
# The schema registry (registry/): Confluent's REST API for the contracts' protobuf schemas.
SCHEMA_REGISTRY_PORT="${SCHEMA_REGISTRY_PORT:-8086}"
ADMIN_USERNAME=admin
# How long make up waits for each part to answer before it gives up and says which.
SYSTEM_START_SECONDS="${SYSTEM_START_SECONDS:-300}"

# The admin's password: made once, kept with the data (a restart keeps the same admin).
admin_password() {
  local file="$SYSTEM_DIR/admin-password"
  if [[ ! -s "$file" ]]; then
    mkdir -p "$SYSTEM_DIR"
    (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$file")
  fi
  cat "$file"
}

# The runtime the system was started with: docker or process (empty when it is down).
system_runtime() {
  cat "$SYSTEM_DIR/runtime" 2>/dev/null || true
}
