#!/usr/bin/env bash
# system/up.sh — `make up`: the whole system on this machine, both services wired together as
# in production — person-spring validating every caller's token at auth-node — with their
# data kept under .tmp/system/ across `make down` and `make up`. In containers from the images
# `make` builds (SYSTEM_RUNTIME=docker); where no Docker engine can run, as two processes
# (SYSTEM_RUNTIME=process). Waits until both serve, then prints the endpoints and what to try.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-system.sh"
cd "$ROOT"

[[ -z "$(system_runtime)" ]] || die "the system is already up ($(system_runtime)); 'make down' first"
runtime="${SYSTEM_RUNTIME:-auto}"
if [[ "$runtime" == auto ]]; then
  runtime=process
  "$ROOT/scripts/setup/docker.sh" >/dev/null 2>&1 && runtime=docker
fi
password="$(admin_password)"
mkdir -p "$SYSTEM_DIR/auth-data" "$SYSTEM_DIR/person-data" "$SYSTEM_DIR/logs"

# wait_until WHAT COMMAND… — until the command succeeds (two minutes at most).
wait_until() {
  local what="$1"; shift
  for _ in $(seq 240); do
    "$@" >/dev/null 2>&1 && return
    sleep 0.5
  done
  die "$what did not come up (logs: make down prints where they are)"
}

case "$runtime" in
  docker)
    "$ROOT/scripts/services/images.sh"
    # shellcheck source=../../compatibility-tests/containers.env
    source "$ROOT/compatibility-tests/containers.env"
    # The services run as uid 1000 and write their data here.
    chmod 777 "$SYSTEM_DIR/auth-data" "$SYSTEM_DIR/person-data"
    docker network create "$SYSTEM_NAME" >/dev/null
    docker run -d --name "$SYSTEM_NAME-auth" --network "$SYSTEM_NAME" --network-alias auth-node \
      --memory "$AUTH_NODE_MEMORY" -v "$SYSTEM_DIR/auth-data:/data" \
      -p "127.0.0.1:$AUTH_PORT:50051" -p "127.0.0.1:$AUTH_REST_PORT:8081" \
      -e AUTH_ADMIN_USERNAME="$ADMIN_USERNAME" -e AUTH_ADMIN_PASSWORD="$password" \
      "$AUTH_NODE_IMAGE" >/dev/null
    # AUTH_ADDRESS is the image's default: auth-node:50051, the alias above.
    docker run -d --name "$SYSTEM_NAME-person" --network "$SYSTEM_NAME" \
      --memory "$PERSON_SPRING_MEMORY" -v "$SYSTEM_DIR/person-data:/data" \
      -p "127.0.0.1:$PERSON_PORT:9090" -p "127.0.0.1:$PERSON_REST_PORT:8080" \
      "$PERSON_SPRING_IMAGE" >/dev/null
    ;;
  process)
    "$ROOT/scripts/services/auth-node.sh" build >/dev/null
    "$ROOT/scripts/sdk/java.sh" build >/dev/null
    "${MVN[@]}" -q -pl services/person-spring package -DskipTests
    (cd services/auth-node && AUTH_DATA_DIR="$SYSTEM_DIR/auth-data" AUTH_PORT="$AUTH_PORT" \
      AUTH_REST_PORT="$AUTH_REST_PORT" AUTH_METRICS_PORT="$AUTH_METRICS_PORT" \
      AUTH_ADMIN_USERNAME="$ADMIN_USERNAME" AUTH_ADMIN_PASSWORD="$password" \
      nohup node dist/src/main.js >"$SYSTEM_DIR/logs/auth-node.log" 2>&1 & echo $! >"$SYSTEM_DIR/auth.pid")
    PERSON_DATA_DIR="$SYSTEM_DIR/person-data" AUTH_ADDRESS="localhost:$AUTH_PORT" \
      GRPC_PORT="$PERSON_PORT" REST_PORT="$PERSON_REST_PORT" \
      nohup java -jar services/person-spring/target/person-spring-*-exec.jar \
      >"$SYSTEM_DIR/logs/person-spring.log" 2>&1 &
    echo $! >"$SYSTEM_DIR/person.pid"
    ;;
  *) die "SYSTEM_RUNTIME must be auto, docker or process, not $runtime" ;;
esac
echo "$runtime" >"$SYSTEM_DIR/runtime"

# Both health services, through a real outside client.
wait_until "auth-node" grpcurl -plaintext "127.0.0.1:$AUTH_PORT" grpc.health.v1.Health/Check
wait_until "person-spring" grpcurl -plaintext "127.0.0.1:$PERSON_PORT" grpc.health.v1.Health/Check

cat <<TEXT

The system is up ($runtime), its data in ${SYSTEM_DIR#"$ROOT/"}/ (kept by 'make down'):
  auth-node      gRPC, gRPC-Web, Connect  127.0.0.1:$AUTH_PORT     REST  http://127.0.0.1:$AUTH_REST_PORT/api/login
  person-spring  gRPC                     127.0.0.1:$PERSON_PORT      REST  http://127.0.0.1:$PERSON_REST_PORT/api/people
  admin          $ADMIN_USERNAME / $password   (${SYSTEM_DIR#"$ROOT/"}/admin-password)

Try:
  make demo                      the whole scenario, narrated: log in, register, list, and what is refused
  TOKEN=\$(grpcurl -plaintext -d '{"username":"$ADMIN_USERNAME","password":"$password"}' \\
      127.0.0.1:$AUTH_PORT acme.auth.v1.AuthService/Login | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])')
  grpcurl -plaintext -H "authorization: Bearer \$TOKEN" -d '{"request_id":"'\$(python3 -c 'import uuid; print(uuid.uuid4())')'","person":{"name":"Ada","age":36}}' \\
      127.0.0.1:$PERSON_PORT acme.person.v1.PersonService/RegisterPerson
  make down                      stop both (the data stays)
(grpcurl is in .tmp/bin after 'make setup'.)
TEXT
