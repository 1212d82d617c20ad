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
# A test's own web page on this port, when set (the compatibility harness's browser client,
# tests/compat.sh scaled): the browser's way in (auth-node's CORS, web-proxy) allows its origin,
# http://127.0.0.1:TEST_PAGE_PORT, beside the web page's; endpoints.env names it.
TEST_PAGE_PORT="${TEST_PAGE_PORT:-}"
# The schema registry (registry/): Confluent's REST API for the contracts' protobuf schemas.
SCHEMA_REGISTRY_PORT="${SCHEMA_REGISTRY_PORT:-8086}"
# Zipkin, the trace backend both services export their spans to: its UI and HTTP API.
ZIPKIN_PORT="${ZIPKIN_PORT:-9411}"
# TRACING_ZIPKIN_ENDPOINT, when set, is a trace backend of the user's own (Zipkin's span intake,
# http://HOST:9411/api/v2/spans, as the services reach it): make up starts no Zipkin and every
# replica exports there instead. Unset: make up's own Zipkin, on ZIPKIN_PORT.
SYSTEM_TRACING_ENDPOINT="${TRACING_ZIPKIN_ENDPOINT:-}"
# SCALE: how many replicas of each service. 1 (the default) runs one of each on the ports
# above. More runs that many of each behind one L7 balancer (HAProxy, scripts/system/balancer/)
# that takes the ports above and balances every call, and one PostgreSQL that both services keep
# their data in (a database each). The replicas have no host ports of their own.
SCALE="${SCALE:-1}"
# The balancer's statistics page: each replica's health-check state and calls.
BALANCER_STATS_PORT="${BALANCER_STATS_PORT:-8404}"
# The shared PostgreSQL (SCALE > 1): a server of this machine's, its data in SYSTEM_DIR/postgres.
POSTGRES_PORT="${POSTGRES_PORT:-5433}"
# Each replica ends a client connection (the balancer's) after this many seconds, gracefully
# (GOAWAY; calls in flight get the grace to finish), so long-lived clients spread out again.
REPLICA_MAX_CONNECTION_AGE_SECONDS="${REPLICA_MAX_CONNECTION_AGE_SECONDS:-300}"
REPLICA_CONNECTION_AGE_GRACE_SECONDS="${REPLICA_CONNECTION_AGE_GRACE_SECONDS:-60}"
# Every host port above: a test's own system takes free ones (system_own_ports), so a system a
# user has up — or another test's — is left alone.
SYSTEM_PORTS=(AUTH_PORT AUTH_REST_PORT AUTH_METRICS_PORT PERSON_PORT PERSON_REST_PORT WEB_PROXY_PORT WEB_PAGE_PORT
  SCHEMA_REGISTRY_PORT ZIPKIN_PORT BALANCER_STATS_PORT POSTGRES_PORT)
# system_own_ports [NAME…] — also a port for each named variable, chosen with the system's.
system_own_ports() { export_free_ports "${SYSTEM_PORTS[@]}" "$@"; }
ADMIN_USERNAME=admin
# The services' containers are restarted when their process ends with a failure: person-spring
# ends itself (status 70) when its embedded store cannot be reopened and replays its journal on
# the next start; the kernel's OOM killer ends either. Docker's back-off spaces the restarts; a
# container stopped or killed by hand (make down, docker kill) stays down.
SERVICE_RESTART=(--restart on-failure)
# How long make up waits for each part to answer before it gives up and says which.
SYSTEM_START_SECONDS="${SYSTEM_START_SECONDS:-300}"
# How long make demo waits for its traced call's spans to reach Zipkin: each service sends
# about once a second, so a healthy system takes seconds; a loaded 2-core machine, more.
DEMO_TRACE_SECONDS="${DEMO_TRACE_SECONDS:-60}"

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

# The scale the system was started with (SCALE while it is down).
system_scale() {
  cat "$SYSTEM_DIR/scale" 2>/dev/null || echo "$SCALE"
}

# replicas SERVICE — the names of SERVICE's replicas (auth or person) at the system's scale:
# container names in the docker runtime. At scale 1, the one container keeps its name.
replicas() {
  local scale i
  scale="$(system_scale)"
  if ((scale == 1)); then echo "$SYSTEM_NAME-$1"; return; fi
  for ((i = 1; i <= scale; i++)); do echo "$SYSTEM_NAME-$1-$i"; done
}

# replica_alias SERVICE I — replica I's name on the system's network, which the balancer
# reports in each answer's x-acme-replica header (auth-node-2, person-spring-3).
replica_alias() {
  case "$1" in auth) echo "auth-node-$2" ;; person) echo "person-spring-$2" ;; esac
}

# balancer_servers_up — how many of the balancer's servers (a replica in one backend) pass their
# health checks, from its statistics (CSV: the 18th field is the status).
balancer_servers_up() {
  curl -sf "http://127.0.0.1:$BALANCER_STATS_PORT/;csv" | awk -F, '$2 != "FRONTEND" && $2 != "BACKEND" && $18 == "UP"' | wc -l
}
