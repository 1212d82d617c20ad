#!/usr/bin/env bash
# topology.sh up|down — the services' topology with plain docker, as the harness builds it in
# Testcontainers: auth-node and person-spring on one network (person-spring reaching auth-node
# by the alias auth-node, web-proxy reaching person-spring by the alias person-spring), with
# the settings of auth-node.env, person-spring.env and web-proxy.env and the
# limits of containers.env, every port published on 127.0.0.1. `up` waits until both serve and
# prints the environment a client needs: `env="$(compatibility-tests/topology.sh up)" || die …;
# eval "$env"` (an `eval "$(…)"` would not stop on a topology that did not start).
# COMPAT_TOPOLOGY names it (default compat-dev), so several can run side by side; with
# TOPOLOGY_DATA set, person-spring keeps its H2 database in that folder. TOPOLOGY_AUTH_ENV and
# TOPOLOGY_PERSON_ENV (NAME=VALUE …) override settings of the env files for one use.
# TOPOLOGY_SERVICES_ONLY=1 starts only the two services: no web proxy and no newer schema (what
# pages and the unknown-fields cases need), for a suite that speaks to the services alone.
source "$(dirname "$0")/../scripts/lib.sh"
here="$ROOT/compatibility-tests"
name="${COMPAT_TOPOLOGY:-compat-dev}"
admin_password="compat-admin-password"
# shellcheck source=containers.env
source "$here/containers.env"

# wait_for CONTAINER PATTERN — until the container's log has the line, or it died, or
# TOPOLOGY_START_SECONDS passed (by the clock: on a loaded machine `docker logs` itself is slow).
wait_for() {
  local deadline=$((SECONDS + ${TOPOLOGY_START_SECONDS:-300}))
  while ((SECONDS < deadline)); do
    docker logs "$1" 2>&1 | grep -q "$2" && return
    [[ "$(docker inspect -f '{{.State.Running}}' "$1")" == true ]] || break
    sleep 0.5
  done
  docker logs "$1" 2>&1 | tail -20 >&2
  die "$1 did not start (within ${TOPOLOGY_START_SECONDS:-300} s, or it stopped)"
}

case "${1:-}" in
  up)
    docker network create "$name" >/dev/null
    # The one origin a browser client serves its page from: auth-node and the web proxy allow it.
    page_origin="http://127.0.0.1:$(free_port)"
    docker run -d --name "$name-auth" --network "$name" --network-alias auth-node \
      --memory "$AUTH_NODE_MEMORY" -p 127.0.0.1::50051 -p 127.0.0.1::8081 \
      --env-file "$here/auth-node.env" -e AUTH_ADMIN_PASSWORD="$admin_password" -e AUTH_CORS_ALLOWED_ORIGINS="$page_origin" \
      $(for s in ${TOPOLOGY_AUTH_ENV:-}; do echo "-e $s"; done) "$AUTH_NODE_IMAGE" >/dev/null
    data=()
    if [[ -n "${TOPOLOGY_DATA:-}" ]]; then
      mkdir -p "$TOPOLOGY_DATA" && chmod 777 "$TOPOLOGY_DATA" # the service runs as uid 1000
      data=(-v "$TOPOLOGY_DATA:/data" -e DB_URL=jdbc:h2:file:/data/person)
    fi
    docker run -d --name "$name-person" --network "$name" --network-alias person-spring --memory "$PERSON_SPRING_MEMORY" \
      -p 127.0.0.1::9090 -p 127.0.0.1::8080 "${data[@]}" \
      --env-file "$here/person-spring.env" \
      $(for s in ${TOPOLOGY_PERSON_ENV:-}; do echo "-e $s"; done) "$PERSON_SPRING_IMAGE" >/dev/null
    # The services' web proxy (web-proxy.env), for pages.
    [[ -n "${TOPOLOGY_SERVICES_ONLY:-}" ]] || docker run -d --name "$name-web-proxy" --network "$name" --memory "$WEB_PROXY_MEMORY" -p 127.0.0.1::8088 \
      --env-file "$here/web-proxy.env" -e WEB_PROXY_ALLOWED_ORIGINS="$page_origin" "$WEB_PROXY_IMAGE" >/dev/null
    wait_for "$name-auth" '"auth service listening"'
    wait_for "$name-person" 'Started PersonSpringApplication'
    echo "export AUTH_TARGET=$(docker port "$name-auth" 50051/tcp | head -1)"
    echo "export AUTH_REST_TARGET=$(docker port "$name-auth" 8081/tcp | head -1)"
    echo "export PERSON_TARGET=$(docker port "$name-person" 9090/tcp | head -1)"
    echo "export PERSON_REST_TARGET=$(docker port "$name-person" 8080/tcp | head -1)"
    if [[ -z "${TOPOLOGY_SERVICES_ONLY:-}" ]]; then
      wait_for "$name-web-proxy" '"web proxy listening"'
      # A page reaches person-spring through the web proxy and auth-node directly (features.yaml).
      web="$(docker port "$name-web-proxy" 8088/tcp | head -1)"
      echo "export PERSON_WEB_TARGET=$web AUTH_WEB_TARGET=$(docker port "$name-auth" 50051/tcp | head -1) BROWSER_PAGE_ORIGIN=$page_origin"
    fi
    echo "export AUTH_CONTAINER=$name-auth PERSON_CONTAINER=$name-person"
    echo "export $(grep '^AUTH_ADMIN_USERNAME=' "$here/auth-node.env") AUTH_ADMIN_PASSWORD=$admin_password"
    echo "export COMPAT_RUN_ID=d$(head -c4 /dev/urandom | od -An -tx1 | tr -d ' \n' | cut -c1-7)"
    [[ -n "${TOPOLOGY_SERVICES_ONLY:-}" ]] || echo "export COMPAT_NEXT_DESCRIPTORS=$("$ROOT/compatibility-tests/schema-next/build.sh")"
    ;;
  down)
    docker rm -f "$name-auth" "$name-person" "$name-web-proxy" >/dev/null 2>&1 || true
    docker network rm "$name" >/dev/null 2>&1 || true
    ;;
  *) die "usage: topology.sh up|down" ;;
esac
