#!/usr/bin/env bash
# tests/scale.sh — `make test-scale` (part of `make test`): `make up SCALE=3` as a test, a
# smoke. Its own system (name, data folder, free ports), then:
#   - every replica passes the balancer's gRPC health checks (its statistics);
#   - from the TypeScript SDK with Connect for Node, over ONE connection per protocol, CALLS
#     calls each of gRPC, gRPC-Web, Connect and REST reach all three replicas of each service
#     (the balancer names the replica in x-acme-replica) — person-spring's gRPC-Web and Connect
#     through web-proxy, and person-spring's token checks through the balancer to auth-node;
#   - `make demo` passes through the balancer;
#   - garbage sent to each of the balancer's ports is refused, and afterwards every replica is
#     the same process (not restarted), still healthy, and still gets its share of calls;
#   - a smoke of the kill test (scale-kill.sh): replicas killed under load, nothing lost.
source "$(dirname "$0")/../lib.sh"
export SCALE=3 SYSTEM_NAME="acme-scale-test-$$" SYSTEM_DIR="$TOOLS/system-scale-test"
source "$ROOT/scripts/system/lib-system.sh"
system_own_ports
calls="${1:-12}"
rm -rf "$SYSTEM_DIR"
trap '"$ROOT/scripts/system/down.sh" >/dev/null; rm -rf "$SYSTEM_DIR"' EXIT

"$ROOT/scripts/system/up.sh"

log "the balancer's health checks: every replica UP in each of its 5 backends"
up="$(balancer_servers_up)"
((up == 5 * SCALE)) || die "$up of the balancer's $((5 * SCALE)) servers pass their health checks"
echo "$up of $((5 * SCALE)) UP"

# spread WHEN — CALLS calls per service and protocol; each must have reached every replica.
spread() {
  log "$1: $calls calls per service and protocol, each protocol over one connection"
  AUTH_URL="http://127.0.0.1:$AUTH_PORT" AUTH_REST_URL="http://127.0.0.1:$AUTH_REST_PORT" \
    PERSON_URL="http://127.0.0.1:$PERSON_PORT" PERSON_REST_URL="http://127.0.0.1:$PERSON_REST_PORT" \
    WEB_PROXY_URL="http://127.0.0.1:$WEB_PROXY_PORT" ADMIN_USERNAME="$ADMIN_USERNAME" ADMIN_PASSWORD="$(admin_password)" \
    node "$ROOT/scripts/tests/scale-spread.mjs" "$calls" >"$SYSTEM_DIR/spread.jsonl"
  python3 - "$SYSTEM_DIR/spread.jsonl" "$SCALE" <<'PY'
import json, sys
lines = [json.loads(line) for line in open(sys.argv[1])]
scale = int(sys.argv[2])
problems = []
for r in lines:
    prefix = "auth-node" if r["service"] == "auth-node" else "person-spring"
    want = {f"{prefix}-{i}" for i in range(1, scale + 1)}
    seen = set(r["replicas"])
    print(f'  {r["service"]:14} {r["protocol"]:9} {r["connection"]:20} {r["calls"]} calls, {r["failed"]} failed: '
          + ", ".join(f"{k} {v}" for k, v in sorted(r["replicas"].items())))
    if r["failed"]:
        problems.append(f'{r["service"]} {r["protocol"]}: {r["failed"]} calls failed')
    if seen != want:
        problems.append(f'{r["service"]} {r["protocol"]}: answered by {sorted(seen)}, not by each of {sorted(want)}')
if len(lines) != 8:
    problems.append(f"{len(lines)} service/protocol results, expected 8")
if problems:
    sys.exit("PROBLEM: " + "; ".join(problems))
PY
}
spread "through the balancer"

"$ROOT/scripts/system/demo.sh" >"$SYSTEM_DIR/demo.log" || { tail -20 "$SYSTEM_DIR/demo.log"; die "make demo failed through the balancer"; }
tail -1 "$SYSTEM_DIR/demo.log"

log "garbage to each of the balancer's ports"
# Each replica's process, by when it started: a replica that fell over and was restarted, or
# replaced, would have another.
started() { docker inspect -f '{{.Name}} {{.State.Running}} {{.State.StartedAt}} {{.RestartCount}}' $(replicas auth) $(replicas person); }
before="$(started)"
python3 "$ROOT/scripts/tests/scale-garbage.py" "$AUTH_PORT" "$AUTH_REST_PORT" "$AUTH_METRICS_PORT" "$PERSON_PORT" "$PERSON_REST_PORT" \
  || die "the balancer passed garbage on as a call (above)"
# Two health-check intervals: a replica that went down would be seen as down by now.
sleep 5
[[ "$(started)" == "$before" ]] || die "a replica is not the process it was before the garbage: $(diff <(echo "$before") <(started))"
up="$(balancer_servers_up)"
((up == 5 * SCALE)) || die "after the garbage, $up of the balancer's $((5 * SCALE)) servers pass their health checks"
echo "every replica is the same process as before and healthy ($up of $((5 * SCALE)) UP)"
spread "after the garbage"

# Last, as it leaves two replicas of each service down: the kill test's smoke.
"$ROOT/scripts/tests/scale-kill.sh" --running 4 20
echo "the scaled system passed: $SCALE replicas of each service, every protocol spread over all of them, replicas killed under load"
