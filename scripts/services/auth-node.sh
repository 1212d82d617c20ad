#!/usr/bin/env bash
# services/auth-node.sh [build|test|test-postgres|bench|start|image|image-build] — services/auth-node, the auth service on Node.
# Every mode builds first (image-build of an image that is current does nothing): the TypeScript SDK (gen/ts/dist, which the service imports as
# the @acme/contracts workspace package), the service's own code generated from the
# health/reflection/google.rpc protos, then tsc. `test` runs its node:test suite, `bench`
# the benchmarks, `test-postgres` the same suite on PostgreSQL (a throwaway server,
# scripts/services/lib-postgres.sh) with the tests that need a shared store (three replicas,
# the database going away) demanded to run, `start` the service in the foreground, `image` the Docker image
# acme/auth-node (on the local acme/node-base:24 unless AUTH_NODE_BASE_IMAGE names another).
source "$(dirname "$0")/../lib.sh"
mode="${1:-build}"
# A relative AUTH_DATA_DIR means relative to where the command was given (the repository
# root for `make run-auth`), not to the service folder this script works in; unset, the data
# lives in .tmp/auth-data, git-ignored like every other local state (the signing key too).
data_dir="${AUTH_DATA_DIR:-$ROOT/.tmp/auth-data}"
[[ "$data_dir" == /* ]] || data_dir="$PWD/$data_dir"
service="$ROOT/services/auth-node"
cd "$ROOT"

# What the image is made of: the service, the SDK it compiles against, the lockfile that picks
# its dependencies, the pins, this script, and the base image. An image labelled with the same
# hash is current, and `image-build` skips the compile and the docker build (each suite that
# runs the services asks for the images once; rebuilding every time cost each of them ~30 s).
AUTH_NODE_BASE="${AUTH_NODE_BASE_IMAGE:-acme/node-base:24}"
[[ "$AUTH_NODE_BASE" == acme/node-base:* && "$mode" == image* ]] && "$ROOT/scripts/setup/base-images.sh"
if [[ "$mode" == image* ]]; then
  image_inputs="$(inputs_hash services/auth-node gen/ts package.json package-lock.json versions.env scripts/services/auth-node.sh)-$(docker image inspect -f '{{.Id}}' "$AUTH_NODE_BASE" 2>/dev/null | cut -c8-19)"
fi
if [[ "$mode" == image-build ]] && up_to_date "$AUTH_NODE_IMAGE" "$image_inputs"; then
  log "$AUTH_NODE_IMAGE is up to date"
  exit 0
fi

ts_sdk_build
(cd "$service" && buf generate --template buf.gen.yaml "$SERVICE_PROTO_DEPS")
# A clean output folder: a test or module deleted from src/ must not live on in dist/.
rm -rf "$service/dist"
npm run --silent build -w services/auth-node

# stage_image — the image's build context: the compiled service and exactly the production
# dependencies the lockfile resolved (npm ls), copied, so the image build installs nothing.
stage_image() {
  local stage="$TOOLS/auth-node-image" base="$AUTH_NODE_BASE"
  rm -rf "$stage"; mkdir -p "$stage/app/node_modules" "$stage/data"
  mkdir -p "$stage/app/dist" && cp -r "$service/dist/src" "$stage/app/dist/src"
  find "$stage/app/dist" -name '*.map' -delete
  echo '{"name":"@acme/auth-node","private":true,"type":"module"}' >"$stage/app/package.json"
  local dir rel
  while read -r dir; do
    rel="${dir#"$ROOT/node_modules/"}"
    [[ "$rel" == "$dir" || "$rel" == "@acme/auth-node" ]] && continue
    mkdir -p "$stage/app/node_modules/$rel"
    if [[ "$rel" == "@acme/contracts" ]]; then # the workspace SDK: its package, not its sources
      cp -r "$dir/package.json" "$dir/dist" "$stage/app/node_modules/$rel/"
    else
      cp -rL "$dir/." "$stage/app/node_modules/$rel/"
    fi
  done < <(cd "$ROOT" && npm ls --parseable --omit=dev --all -w services/auth-node)
  docker build -q -t "$AUTH_NODE_IMAGE" --label "acme.inputs=$image_inputs" --build-arg "BASE_IMAGE=$base" -f "$service/Dockerfile" "$stage" >/dev/null
  echo "auth-node image: $AUTH_NODE_IMAGE on $base ($(docker image inspect -f '{{.Size}}' "$AUTH_NODE_IMAGE" | numfmt --to=iec))"
}

# image_smoke_test — the image starts, creates its admin, turns healthy (its HEALTHCHECK
# asks /healthz) and stops gracefully on SIGTERM with exit code 0.
image_smoke_test() {
  local status=""
  SMOKE_CID="$(docker run -d -e AUTH_ADMIN_PASSWORD=smoke-test-admin-password "$AUTH_NODE_IMAGE")"
  local cid="$SMOKE_CID"
  trap 'docker rm -f "$SMOKE_CID" >/dev/null 2>&1 || true' EXIT
  # The first health check runs one interval (10 s) after the start.
  for _ in $(seq 80); do
    status="$(docker inspect -f '{{.State.Health.Status}}' "$cid")"
    [[ "$status" == healthy ]] && break
    sleep 0.5
  done
  [[ "$status" == healthy ]] || { docker logs "$cid" >&2; die "container did not turn healthy ($status)"; }
  docker stop -t 15 "$cid" >/dev/null
  [[ "$(docker inspect -f '{{.State.ExitCode}}' "$cid")" == 0 ]] || { docker logs "$cid" >&2; die "container did not stop cleanly"; }
  docker logs "$cid" | grep -q '"msg":"shut down"' || die "container stopped without a graceful shutdown"
  echo "auth-node image: container turned healthy and shut down gracefully"
}

# run_suite — node:test over every test file; its JUnit reports, to count what was skipped. The
# tracing tests export to a Zipkin of the suite's own (AUTH_TEST_ZIPKIN_URL), stopped at the end.
# Two files at a time, one per core: one file's servers and clients share one Node thread, and
# much of the suite waits on timers (idle and age limits, lock-outs, export deadlines), so one
# at a time left a core idle (98 s at 42 % of the CPUs, 60 s two at a time). The files in
# ALONE stop the PostgreSQL server every other file's servers use, so they run after the
# others, by themselves.
ALONE=(dist/test/database-outage.test.js)
run_suite() {
  # (node --test given no file would run its default patterns: every file again.)
  ((${#ALONE[@]})) || die "ALONE names no test file"
  source "$ROOT/scripts/tests/zipkin.sh"
  ZIPKIN_DIR="$(mktemp -d "$TOOLS/auth-node-zipkin.XXXXXX")"
  # Kept beside whatever else is to be stopped at exit (test-postgres's throwaway PostgreSQL).
  local previous
  previous="$(trap -p EXIT)" && previous="${previous#trap -- \'}" && previous="${previous%\' EXIT}"
  trap "zipkin_stop \"\$ZIPKIN_DIR\"; rm -rf \"\$ZIPKIN_DIR\"; $previous" EXIT
  local zipkin_url shared=() file status=0
  zipkin_url="$(zipkin_start "$ZIPKIN_DIR")"
  for file in dist/test/*.test.js; do
    [[ " ${ALONE[*]} " == *" $file "* ]] || shared+=("$file")
  done
  rm -f "$TOOLS/auth-node-tests.xml" "$TOOLS/auth-node-tests-alone.xml"
  AUTH_TEST_ZIPKIN_URL="$zipkin_url" node --test --test-concurrency=2 --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=junit --test-reporter-destination="$TOOLS/auth-node-tests.xml" "${shared[@]}" || status=$?
  AUTH_TEST_ZIPKIN_URL="$zipkin_url" node --test --test-concurrency=1 --test-reporter=spec --test-reporter-destination=stdout \
    --test-reporter=junit --test-reporter-destination="$TOOLS/auth-node-tests-alone.xml" "${ALONE[@]}" || status=$?
  return "$status"
}

# test_on_postgres — the suite against a throwaway PostgreSQL: a role that may create
# databases (each test server gets one of its own) and where its data folder is, for the
# tests that stop and start the server. None of the suite's tests may be skipped there.
test_on_postgres() {
  source "$ROOT/scripts/services/lib-postgres.sh"
  start_throwaway_postgres
  local port="${PG_JDBC_URL#jdbc:postgresql://127.0.0.1:}"
  port="${port%%/*}"
  as_postgres "$PG_BIN/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -c "CREATE ROLE auth LOGIN PASSWORD 'auth' CREATEDB"
  AUTH_TEST_DATABASE_URL="postgres://auth:auth@127.0.0.1:$port/postgres" \
    AUTH_TEST_POSTGRES_DATA="$PG_WORK/data" AUTH_TEST_POSTGRES_BIN="$PG_BIN" run_suite
  python3 - "$TOOLS/auth-node-tests.xml" "$TOOLS/auth-node-tests-alone.xml" <<'PY'
import sys, xml.etree.ElementTree as ET
cases = [case for report in sys.argv[1:] for case in ET.parse(report).getroot().iter("testcase")]
ran, skipped = 0, []
for case in cases:
    ran += 1
    if case.find("skipped") is not None:
        skipped.append(case.get("name"))
if ran == 0 or skipped:
    sys.exit(f"auth-node on PostgreSQL: {ran} tests, skipped: {skipped}; every test must run here")
print(f"auth-node on PostgreSQL: {ran} tests ran against a real server, none skipped")
PY
}

cd "$service"
case "$mode" in
  build) echo "auth-node: built into services/auth-node/dist" ;;
  test) run_suite ;;
  test-postgres) test_on_postgres ;;
  bench)
    node dist/bench/mapping.bench.js
    node dist/bench/login-timing.bench.js
    node dist/bench/protocols.bench.js
    ;;
  start) AUTH_DATA_DIR="$data_dir" exec node dist/src/main.js ;;
  image) stage_image && image_smoke_test ;;
  # The image alone, for the compatibility harness, which proves far more than the smoke test.
  image-build) stage_image ;;
  *) die "usage: auth-node.sh [build|test|test-postgres|bench|start|image|image-build]" ;;
esac
