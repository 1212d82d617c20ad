#!/usr/bin/env bash
# services/images.sh — both service images, built from their Dockerfiles on the base images
# (build-base-images.sh), for everything that runs the real services in containers: the
# compatibility harness, the fuzz suite, the soak. Starts a Docker engine when none answers.
# Each image is a cache hit when its inputs did not change (the jars are reproducible, the
# legacy builder reuses layers whose content is the same).
source "$(dirname "$0")/../lib.sh"
"$ROOT/scripts/setup/docker.sh"
# The base images first, once: each build below checks them, and two builds making the same
# base image side by side would race for its tag.
if [[ "${BASE_IMAGE:-acme/jre-base:17}" == acme/* || "${AUTH_NODE_BASE_IMAGE:-acme/node-base:24}" == acme/node-base:* ]]; then
  "$ROOT/scripts/setup/base-images.sh"
fi
start=$SECONDS
# The three builds share no output (tsc into the service's dist/, Maven into its target/ and the
# local repository, Go into .tmp/web-proxy), so they run side by side: on two cores a Maven
# build and a tsc build each leave most of the other core idle. A failed build fails the whole.
"$ROOT/scripts/services/auth-node.sh" image-build &
auth=$!
"$ROOT/scripts/services/image-person.sh" build &
person=$!
# and web-proxy's, the browser's way to person-spring (services/web-proxy)
"$ROOT/scripts/services/web-proxy.sh" image &
proxy=$!
failed=()
wait "$auth" || failed+=(auth-node)
wait "$person" || failed+=(person-spring)
wait "$proxy" || failed+=(web-proxy)
((${#failed[@]} == 0)) || die "service images not built: ${failed[*]} (above)"
log "service images ready in $((SECONDS - start)) s"
