# system/replicas.sh — sourced by up.sh in the docker runtime when SCALE > 1 (lib-system.sh),
# after the network exists: the shared PostgreSQL (postgres.sh), SCALE replicas of each service
# on it, and the balancer (balancer/) that takes the services' host ports and names on the
# network. person-spring replicas reach auth-node by its usual name, auth-node:50051 — the
# balancer — so their token checks are spread over auth-node's replicas too.
settings="$("$ROOT/scripts/system/postgres.sh" start docker)"
mapfile -t db <<<"$settings"
"$ROOT/scripts/system/balancer/image.sh"
mkdir -p "$SYSTEM_DIR/balancer"
"$ROOT/scripts/system/balancer/config.sh" >"$SYSTEM_DIR/balancer/haproxy.cfg"
auth_db=() person_db=()
for setting in "${db[@]}"; do
  case "$setting" in AUTH_*) auth_db+=(-e "$setting") ;; *) person_db+=(-e "$setting") ;; esac
done

# The balancer first: person-spring resolves auth-node (the balancer) as it starts. It finds the
# replicas by name as they come (Docker's DNS; a replica not there yet is simply down).
docker run -d --name "$SYSTEM_NAME-balancer" --network "$SYSTEM_NAME" \
  --network-alias auth-node --network-alias person-spring --memory "$BALANCER_MEMORY" \
  -v "$SYSTEM_DIR/balancer/haproxy.cfg:/etc/haproxy/haproxy.cfg:ro" \
  -p "127.0.0.1:$AUTH_PORT:50051" -p "127.0.0.1:$AUTH_REST_PORT:8081" -p "127.0.0.1:$AUTH_METRICS_PORT:9464" \
  -p "127.0.0.1:$PERSON_PORT:9090" -p "127.0.0.1:$PERSON_REST_PORT:8080" -p "127.0.0.1:$BALANCER_STATS_PORT:8404" \
  "$BALANCER_IMAGE" >/dev/null

for ((i = 1; i <= SCALE; i++)); do
  docker run -d --name "$SYSTEM_NAME-auth-$i" --network "$SYSTEM_NAME" --network-alias "$(replica_alias auth "$i")" \
    --memory "$AUTH_NODE_MEMORY" "${SERVICE_RESTART[@]}" "${auth_db[@]}" \
    -e AUTH_ADMIN_USERNAME="$ADMIN_USERNAME" -e AUTH_ADMIN_PASSWORD="$password" -e AUTH_CORS_ALLOWED_ORIGINS="$allowed_origins" \
    -e AUTH_MAX_CONNECTION_AGE_SECONDS="$REPLICA_MAX_CONNECTION_AGE_SECONDS" \
    -e AUTH_MAX_CONNECTION_AGE_GRACE_SECONDS="$REPLICA_CONNECTION_AGE_GRACE_SECONDS" \
    "${auth_tracing[@]}" $(for s in ${SYSTEM_AUTH_ENV:-}; do echo "-e $s"; done) "$AUTH_NODE_IMAGE" >/dev/null
  # The first one creates the tables and the admin alone; the others find them.
  ((i > 1)) || wait_until "auth-node 1" sh -c "docker logs '$SYSTEM_NAME-auth-1' 2>&1 | grep -q 'auth service listening'"
done
for ((i = 1; i <= SCALE; i++)); do
  docker run -d --name "$SYSTEM_NAME-person-$i" --network "$SYSTEM_NAME" --network-alias "$(replica_alias person "$i")" \
    --memory "$PERSON_SPRING_MEMORY" "${SERVICE_RESTART[@]}" -e SPRING_PROFILES_ACTIVE=postgres "${person_db[@]}" \
    -e SPRING_GRPC_SERVER_KEEPALIVE_CONNECTION_MAXAGE="${REPLICA_MAX_CONNECTION_AGE_SECONDS}s" \
    -e SPRING_GRPC_SERVER_KEEPALIVE_CONNECTION_GRACEPERIOD="${REPLICA_CONNECTION_AGE_GRACE_SECONDS}s" \
    "${person_tracing[@]}" $(for s in ${SYSTEM_PERSON_ENV:-}; do echo "-e $s"; done) "$PERSON_SPRING_IMAGE" >/dev/null
done
