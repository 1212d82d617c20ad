#!/usr/bin/env bash
# services/images.sh — both service images, built from their Dockerfiles on the base images
# (build-base-images.sh), for everything that runs the real services in containers: the
# compatibility harness, the fuzz suite, the soak. Starts a Docker engine when none answers.
# Each image is a cache hit when its inputs did not change (the jars are reproducible, the
# legacy builder reuses layers whose content is the same).
source "$(dirname "$0")/../lib.sh"
"$ROOT/scripts/setup/docker.sh"
start=$SECONDS
"$ROOT/scripts/services/auth-node.sh" image-build
"$ROOT/scripts/services/image-person.sh" build
# and web-proxy's, the browser's way to person-spring (services/web-proxy)
"$ROOT/scripts/services/web-proxy.sh" image
log "service images ready in $((SECONDS - start)) s"
