#!/usr/bin/env bash
# topology.sh up|down — the harness's topology by hand, for working on a driver without the
# harness: auth-node and person-spring on one network (person-spring reaching auth-node by the
# alias auth-node), ports published on 127.0.0.1. `up` prints the environment a driver needs;
# `eval "$(compatibility-tests/topology.sh up)"`. COMPAT_TOPOLOGY names it (default compat-dev),
# so several can run side by side. The harness itself builds the same topology in Testcontainers.
source "$(dirname "$0")/../scripts/lib.sh"
here="$ROOT/compatibility-tests"
name="${COMPAT_TOPOLOGY:-compat-dev}"
admin_password="compat-admin-password"
case "${1:-}" in
  up)
    docker network create "$name" >/dev/null
    # The same settings the harness uses: the two env files beside this script.
    docker run -d --name "$name-auth" --network "$name" --network-alias auth-node -p 127.0.0.1::50051 \
      --env-file "$here/auth-node.env" -e AUTH_ADMIN_PASSWORD="$admin_password" acme/auth-node:latest >/dev/null
    docker run -d --name "$name-person" --network "$name" -p 127.0.0.1::9090 \
      --env-file "$here/person-spring.env" acme/person-spring:latest >/dev/null
    for _ in $(seq 120); do
      docker logs "$name-person" 2>&1 | grep -q 'Started PersonSpringApplication' && break
      sleep 0.5
    done
    echo "export AUTH_TARGET=$(docker port "$name-auth" 50051/tcp | head -1)"
    echo "export PERSON_TARGET=$(docker port "$name-person" 9090/tcp | head -1)"
    echo "export $(grep '^AUTH_ADMIN_USERNAME=' "$here/auth-node.env") AUTH_ADMIN_PASSWORD=$admin_password"
    echo "export COMPAT_RUN_ID=d$(head -c4 /dev/urandom | od -An -tx1 | tr -d ' \n' | cut -c1-7)"
    echo "export COMPAT_NEXT_DESCRIPTORS=$("$ROOT/compatibility-tests/schema-next/build.sh")"
    ;;
  down)
    docker rm -f "$name-auth" "$name-person" >/dev/null 2>&1 || true
    docker network rm "$name" >/dev/null 2>&1 || true
    ;;
  *) die "usage: topology.sh up|down" ;;
esac
