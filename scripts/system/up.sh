#!/usr/bin/env bash
# system/up.sh — `make up`: the whole system on this machine, both services wired together as
# in production — person-spring validating every caller's token at auth-node — with their
# data kept under .tmp/system/ across `make down` and `make up`. In containers from the images
# `make` builds (SYSTEM_RUNTIME=docker); where no Docker engine can run, as two processes
# (SYSTEM_RUNTIME=process). Waits until both serve, then prints the endpoints and what to try.
# SYSTEM_AUTH_ENV (NAME=VALUE …) adds settings of auth-node's for one system (a test's);
# SYSTEM_PERSON_ENV the same for person-spring's.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-system.sh"
cd "$ROOT"

[[ -z "$(system_runtime)" ]] || die "the system is already up ($(system_runtime)); 'make down' first"
runtime="${SYSTEM_RUNTIME:-auto}"
if [[ "$runtime" == auto ]]; then
  runtime=process
  "$ROOT/scripts/setup/docker.sh" >/dev/null 2>&1 && runtime=docker
fi
[[ "$SCALE" =~ ^[1-9]$ ]] || die "SCALE must be a number of replicas from 1 to 9, not $SCALE"
((SCALE == 1)) || [[ "$runtime" == docker ]] || die "SCALE=$SCALE needs the docker runtime (replicas behind a balancer in containers)"
password="$(admin_password)"
mkdir -p "$SYSTEM_DIR/auth-data" "$SYSTEM_DIR/person-data" "$SYSTEM_DIR/logs"
echo "$SCALE" >"$SYSTEM_DIR/scale"
# The web page (consumers/web-page) is the only origin the browser's way in allows.
page_origin="http://127.0.0.1:$WEB_PAGE_PORT"
test_page_origin="${TEST_PAGE_PORT:+http://127.0.0.1:$TEST_PAGE_PORT}"
allowed_origins="$page_origin${test_page_origin:+,$test_page_origin}"
# The page calls auth-node itself (its RPC port speaks HTTP/1.1 too, and allows the origin)
# and person-spring, which speaks gRPC only, through web-proxy.
page_routes="acme.person.v1.PersonService=person-spring:9090"
"$ROOT/consumers/web-page/build.sh"

# wait_until WHAT COMMAND… — until the command succeeds, for SYSTEM_START_SECONDS at most
# (lib-system.sh: 300, because on a loaded 2-core machine a JVM's first start has taken over
# two minutes; a healthy part answers in seconds, so the long limit costs nothing then).
wait_until() {
  local what="$1" deadline=$((SECONDS + $SYSTEM_START_SECONDS)); shift
  until "$@" >/dev/null 2>&1; do
    ((SECONDS < deadline)) || die "$what did not come up in $SYSTEM_START_SECONDS s (logs: make down prints where they are)"
    sleep 0.5
  done
}

# Where every replica sends its spans: a backend of the user's own (TRACING_ZIPKIN_ENDPOINT,
# lib-system.sh), else the Zipkin started here — on the system's network in containers, on
# localhost as processes.
tracing_endpoint="$SYSTEM_TRACING_ENDPOINT"
own_zipkin=""
if [[ -z "$tracing_endpoint" ]]; then
  own_zipkin=1
  tracing_endpoint="http://127.0.0.1:$ZIPKIN_PORT/api/v2/spans"
  [[ "$runtime" != docker ]] || tracing_endpoint="http://zipkin:9411/api/v2/spans"
fi
auth_tracing=(-e "AUTH_TRACING_ZIPKIN_ENDPOINT=$tracing_endpoint")
person_tracing=(-e "TRACING_ZIPKIN_ENDPOINT=$tracing_endpoint")

case "$runtime" in
  docker)
    "$ROOT/scripts/services/images.sh"
    # shellcheck source=../../compatibility-tests/containers.env
    source "$ROOT/compatibility-tests/containers.env"
    # The services run as uid 1000 and write their data here.
    chmod 777 "$SYSTEM_DIR/auth-data" "$SYSTEM_DIR/person-data"
    docker network create "$SYSTEM_NAME" >/dev/null
    # Zipkin first, so the services' first spans find it.
    if [[ -n "$own_zipkin" ]]; then
      "$ROOT/scripts/system/zipkin/image.sh"
      docker run -d --name "$SYSTEM_NAME-zipkin" --network "$SYSTEM_NAME" --network-alias zipkin \
        --memory "$ZIPKIN_MEMORY" -p "127.0.0.1:$ZIPKIN_PORT:9411" "$ZIPKIN_IMAGE" >/dev/null
    fi
    if ((SCALE == 1)); then
      docker run -d --name "$SYSTEM_NAME-auth" --network "$SYSTEM_NAME" --network-alias auth-node \
        --memory "$AUTH_NODE_MEMORY" "${SERVICE_RESTART[@]}" -v "$SYSTEM_DIR/auth-data:/data" \
        -p "127.0.0.1:$AUTH_PORT:50051" -p "127.0.0.1:$AUTH_REST_PORT:8081" -p "127.0.0.1:$AUTH_METRICS_PORT:9464" \
        -e AUTH_ADMIN_USERNAME="$ADMIN_USERNAME" -e AUTH_ADMIN_PASSWORD="$password" -e AUTH_CORS_ALLOWED_ORIGINS="$allowed_origins" \
        "${auth_tracing[@]}" $(for s in ${SYSTEM_AUTH_ENV:-}; do echo "-e $s"; done) "$AUTH_NODE_IMAGE" >/dev/null
      # AUTH_ADDRESS is the image's default: auth-node:50051, the alias above.
      docker run -d --name "$SYSTEM_NAME-person" --network "$SYSTEM_NAME" --network-alias person-spring \
        --memory "$PERSON_SPRING_MEMORY" "${SERVICE_RESTART[@]}" -v "$SYSTEM_DIR/person-data:/data" \
        -p "127.0.0.1:$PERSON_PORT:9090" -p "127.0.0.1:$PERSON_REST_PORT:8080" \
        "${person_tracing[@]}" $(for s in ${SYSTEM_PERSON_ENV:-}; do echo "-e $s"; done) "$PERSON_SPRING_IMAGE" >/dev/null
    else
      source "$ROOT/scripts/system/replicas.sh"
    fi
    docker run -d --name "$SYSTEM_NAME-web-proxy" --network "$SYSTEM_NAME" --memory "$WEB_PROXY_MEMORY" \
      -p "127.0.0.1:$WEB_PROXY_PORT:8088" -e WEB_PROXY_ALLOWED_ORIGINS="$allowed_origins" -e WEB_PROXY_ROUTES="$page_routes" \
      "$WEB_PROXY_IMAGE" >/dev/null
    docker run -d --name "$SYSTEM_NAME-web-page" --user 1000:1000 -v "$ROOT/consumers/web-page:/page:ro" \
      -p "127.0.0.1:$WEB_PAGE_PORT:8089" -e WEB_PAGE_HOST=0.0.0.0 -e WEB_PAGE_AUTH_URL="http://127.0.0.1:$AUTH_PORT" \
      -e WEB_PAGE_PERSON_URL="http://127.0.0.1:$WEB_PROXY_PORT" "acme/node-base:${NODE_VERSION%%.*}" node /page/serve.mjs >/dev/null
    ;;
  process)
    "$ROOT/scripts/services/auth-node.sh" build >/dev/null
    "$ROOT/scripts/sdk/java.sh" build >/dev/null
    "${MVN[@]}" -q -pl services/person-spring package -DskipTests
    if [[ -n "$own_zipkin" ]]; then
      [[ -f "$ZIPKIN_JAR" ]] || die "no Zipkin server at $ZIPKIN_JAR: run make setup"
      # The same settings as the image's (scripts/system/zipkin/Dockerfile).
      STORAGE_TYPE=mem MEM_MAX_SPANS=100000 SELF_TRACING_ENABLED=false QUERY_PORT="$ZIPKIN_PORT" \
        nohup java -Xms64m -Xmx256m -XX:TieredStopAtLevel=1 -jar "$ZIPKIN_JAR" >"$SYSTEM_DIR/logs/zipkin.log" 2>&1 &
      echo $! >"$SYSTEM_DIR/zipkin.pid"
    fi
    (cd services/auth-node && AUTH_DATA_DIR="$SYSTEM_DIR/auth-data" AUTH_PORT="$AUTH_PORT" \
      AUTH_REST_PORT="$AUTH_REST_PORT" AUTH_METRICS_PORT="$AUTH_METRICS_PORT" \
      AUTH_ADMIN_USERNAME="$ADMIN_USERNAME" AUTH_ADMIN_PASSWORD="$password" AUTH_CORS_ALLOWED_ORIGINS="$allowed_origins" \
      AUTH_TRACING_ZIPKIN_ENDPOINT="$tracing_endpoint" nohup env ${SYSTEM_AUTH_ENV:-} node dist/src/main.js >"$SYSTEM_DIR/logs/auth-node.log" 2>&1 & echo $! >"$SYSTEM_DIR/auth.pid")
    PERSON_DATA_DIR="$SYSTEM_DIR/person-data" AUTH_ADDRESS="localhost:$AUTH_PORT" \
      GRPC_PORT="$PERSON_PORT" REST_PORT="$PERSON_REST_PORT" TRACING_ZIPKIN_ENDPOINT="$tracing_endpoint" \
      nohup env ${SYSTEM_PERSON_ENV:-} java -jar services/person-spring/target/person-spring-*-exec.jar \
      >"$SYSTEM_DIR/logs/person-spring.log" 2>&1 &
    echo $! >"$SYSTEM_DIR/person.pid"
    "$ROOT/scripts/services/web-proxy.sh" build
    WEB_PROXY_LISTEN="127.0.0.1:$WEB_PROXY_PORT" \
      WEB_PROXY_ROUTES="acme.person.v1.PersonService=127.0.0.1:$PERSON_PORT" \
      WEB_PROXY_DESCRIPTORS="$TOOLS/web-proxy/image/contracts.binpb" WEB_PROXY_ALLOWED_ORIGINS="$allowed_origins" \
      nohup "$TOOLS/web-proxy/image/web-proxy" >"$SYSTEM_DIR/logs/web-proxy.log" 2>&1 &
    echo $! >"$SYSTEM_DIR/web-proxy.pid"
    WEB_PAGE_PORT="$WEB_PAGE_PORT" WEB_PAGE_AUTH_URL="http://127.0.0.1:$AUTH_PORT" WEB_PAGE_PERSON_URL="http://127.0.0.1:$WEB_PROXY_PORT" \
      nohup node consumers/web-page/serve.mjs >"$SYSTEM_DIR/logs/web-page.log" 2>&1 &
    echo $! >"$SYSTEM_DIR/web-page.pid"
    ;;
  *) die "SYSTEM_RUNTIME must be auto, docker or process, not $runtime" ;;
esac
echo "$runtime" >"$SYSTEM_DIR/runtime"
# What demo.sh reads traces from (empty: a backend of the user's own, which it does not query).
if [[ -n "$own_zipkin" ]]; then echo "http://127.0.0.1:$ZIPKIN_PORT" >"$SYSTEM_DIR/zipkin-url"; else rm -f "$SYSTEM_DIR/zipkin-url"; fi
# Where the system answers from this machine, for a test that uses it as it is (the
# compatibility harness's RunningSystem reads this file): one place that knows the ports.
{
  echo "AUTH_TARGET=127.0.0.1:$AUTH_PORT"
  echo "AUTH_REST_TARGET=127.0.0.1:$AUTH_REST_PORT"
  echo "PERSON_TARGET=127.0.0.1:$PERSON_PORT"
  echo "PERSON_REST_TARGET=127.0.0.1:$PERSON_REST_PORT"
  echo "WEB_PROXY_TARGET=127.0.0.1:$WEB_PROXY_PORT"
  echo "PAGE_ORIGIN=$test_page_origin"
  echo "ZIPKIN_TARGET=${own_zipkin:+127.0.0.1:$ZIPKIN_PORT}"
  echo "ADMIN_USERNAME=$ADMIN_USERNAME"
  echo "ADMIN_PASSWORD_FILE=$SYSTEM_DIR/admin-password"
  echo "SCALE=$SCALE"
  # The replicas' shared PostgreSQL, its person database as this machine reaches it.
  if ((SCALE > 1)); then
    echo "PERSON_DATABASE_URL=jdbc:postgresql://127.0.0.1:$POSTGRES_PORT/person"
    echo "PERSON_DATABASE_USER=person"
    echo "PERSON_DATABASE_PASSWORD_FILE=$SYSTEM_DIR/postgres-password"
  fi
} >"$SYSTEM_DIR/endpoints.env"

# The schema registry, a process in both runtimes: it judges with buf and the gate's plugin,
# host tools (.tmp/bin). Filled from this repository's release tags; writes need an admin's
# token from auth-node.
(cd registry && go build -trimpath -o "$BIN/acme-registry" ./cmd/registry)
nohup acme-registry -listen "127.0.0.1:$SCHEMA_REGISTRY_PORT" -db "$SYSTEM_DIR/registry.db" -buf-config "$ROOT/buf.yaml" \
  -fill-from-releases "$ROOT" -auth-url "http://127.0.0.1:$AUTH_REST_PORT" >"$SYSTEM_DIR/logs/schema-registry.log" 2>&1 &
echo $! >"$SYSTEM_DIR/schema-registry.pid"

# Both health services, through a real outside client.
wait_until "auth-node" grpcurl -plaintext "127.0.0.1:$AUTH_PORT" grpc.health.v1.Health/Check
wait_until "person-spring" grpcurl -plaintext "127.0.0.1:$PERSON_PORT" grpc.health.v1.Health/Check
wait_until "web-proxy" curl -s -o /dev/null "http://127.0.0.1:$WEB_PROXY_PORT/"
wait_until "the web page" curl -sf -o /dev/null "http://127.0.0.1:$WEB_PAGE_PORT/config.json"
wait_until "the schema registry" curl -sf -o /dev/null "http://127.0.0.1:$SCHEMA_REGISTRY_PORT/config"
zipkin_up() { curl -fsS "http://127.0.0.1:$ZIPKIN_PORT/health" | grep -q '"status" *: *"UP"'; }
if [[ -n "$own_zipkin" ]]; then
  wait_until "Zipkin" zipkin_up
  traces="Zipkin UI http://127.0.0.1:$ZIPKIN_PORT/zipkin/   API http://127.0.0.1:$ZIPKIN_PORT/api/v2/ (in memory: kept until make down)"
else
  traces="every replica exports to $tracing_endpoint (TRACING_ZIPKIN_ENDPOINT, yours)"
fi
behind=""
if ((SCALE > 1)); then
  # Every replica passing its health check, in each of the balancer's five backends.
  all_up() { (($(balancer_servers_up) == 5 * SCALE)); }
  wait_until "all $SCALE replicas of each service" all_up
  behind="
  behind the balancer (HAProxy; the addresses above are its own, each call goes to one replica, which
  every answer names in its x-acme-replica header):
    auth-node      $(replica_alias auth 1) … $(replica_alias auth "$SCALE")            gRPC health checks; shared PostgreSQL database auth
    person-spring  $(replica_alias person 1) … $(replica_alias person "$SCALE")    gRPC health checks; shared PostgreSQL database person;
                   their token checks go to auth-node through the balancer, web proxy's calls too
    each replica ends a connection after $REPLICA_MAX_CONNECTION_AGE_SECONDS s ($REPLICA_CONNECTION_AGE_GRACE_SECONDS s grace), so long-lived clients spread out
  balancer       http://127.0.0.1:$BALANCER_STATS_PORT/   each replica's health and calls
  PostgreSQL     127.0.0.1:$POSTGRES_PORT   (data in ${SYSTEM_DIR#"$ROOT/"}/postgres/)"
fi

cat <<TEXT

The system is up ($runtime), its data in ${SYSTEM_DIR#"$ROOT/"}/ (kept by 'make down'):
  auth-node      gRPC, gRPC-Web, Connect  127.0.0.1:$AUTH_PORT     REST  http://127.0.0.1:$AUTH_REST_PORT/api/login
  person-spring  gRPC                     127.0.0.1:$PERSON_PORT      REST  http://127.0.0.1:$PERSON_REST_PORT/api/people
  web proxy      Connect, gRPC-Web        127.0.0.1:$WEB_PROXY_PORT      to person-spring's gRPC, for pages from $page_origin
  web page       $page_origin/   log in, register, list people, see what is refused (in a browser)
  metrics        auth-node http://127.0.0.1:$AUTH_METRICS_PORT/metrics   person-spring http://127.0.0.1:$PERSON_REST_PORT/actuator/prometheus
                 (a Grafana dashboard of both: deploy/grafana/acme-services.json)
  traces         $traces
  schema registry  http://127.0.0.1:$SCHEMA_REGISTRY_PORT   Confluent's API, judged by the gate (registry/README.md); writes need the admin's token
  admin          $ADMIN_USERNAME / $password   (${SYSTEM_DIR#"$ROOT/"}/admin-password)$behind

Try:
  make demo                      the whole scenario, narrated: log in, register, list, and what is refused
  TOKEN=\$(grpcurl -plaintext -d '{"username":"$ADMIN_USERNAME","password":"$password"}' \\
      127.0.0.1:$AUTH_PORT acme.auth.v1.AuthService/Login | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  grpcurl -plaintext -H "authorization: Bearer \$TOKEN" -d '{"request_id":"'\$(python3 -c 'import uuid; print(uuid.uuid4())')'","person":{"name":"Ada","age":36}}' \\
      127.0.0.1:$PERSON_PORT acme.person.v1.PersonService/RegisterPerson
  make down                      stop both (the data stays)
(grpcurl is in .tmp/bin after 'make setup'.)
TEXT
