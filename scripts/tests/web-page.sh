#!/usr/bin/env bash
# tests/web-page.sh — the web page end to end (part of `make test`): a system of its own made by
# `make up`'s own script (its own name, data folder and free ports, so a system a user has up is
# left alone), with tokens that live TOKEN_TTL_SECONDS so that one can expire during the test;
# then consumers/web-page/test/ drives the page in headless Chromium, services/web-proxy/test/
# compares the proxy's refusals with the service's, and the system goes down.
source "$(dirname "$0")/../lib.sh"
export SYSTEM_NAME="acme-web-page-test-$$" SYSTEM_DIR="$TOOLS/system-web-page-test"
source "$ROOT/scripts/system/lib-system.sh"
system_own_ports
TOKEN_TTL_SECONDS=15
# No clock skew: the token is refused the second it expires.
export SYSTEM_AUTH_ENV="AUTH_TOKEN_TTL_SECONDS=$TOKEN_TTL_SECONDS AUTH_CLOCK_SKEW_SECONDS=0"
rm -rf "$SYSTEM_DIR"
trap '"$ROOT/scripts/system/down.sh" >/dev/null; rm -rf "$SYSTEM_DIR"' EXIT

"$ROOT/scripts/setup/chromium.sh" >/dev/null
"$ROOT/scripts/system/up.sh" | tee "$SYSTEM_DIR.up.log"
grep -q "web page       http://127.0.0.1:$WEB_PAGE_PORT/" "$SYSTEM_DIR.up.log" || die "make up did not print the page's address"
rm -f "$SYSTEM_DIR.up.log"
WEB_PAGE_URL="http://127.0.0.1:$WEB_PAGE_PORT/" WEB_PROXY_URL="http://127.0.0.1:$WEB_PROXY_PORT" \
  ADMIN_USERNAME="$ADMIN_USERNAME" ADMIN_PASSWORD="$(admin_password)" TOKEN_TTL_SECONDS="$TOKEN_TTL_SECONDS" \
  node --test --test-reporter=spec "$ROOT"/consumers/web-page/test/*.test.mjs
log "web-proxy refuses what person-spring refuses, with the same codes"
PERSON_TARGET="127.0.0.1:$PERSON_PORT" WEB_PROXY_TARGET="127.0.0.1:$WEB_PROXY_PORT" AUTH_TARGET="127.0.0.1:$AUTH_PORT" \
  ADMIN_USERNAME="$ADMIN_USERNAME" ADMIN_PASSWORD="$(admin_password)" \
  node --test --test-reporter=spec "$ROOT"/services/web-proxy/test/*.test.mjs
