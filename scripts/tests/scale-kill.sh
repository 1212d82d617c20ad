#!/usr/bin/env bash
# tests/scale-kill.sh [--running] [WORKERS SECONDS] — replicas killed under load, on `make up
# SCALE=3`: a client registers people (each with a request_id) and checks its token, WORKERS
# at a time for SECONDS, through the balancer (scale-kill.mjs); a quarter of the way in, one
# replica of each service is killed (SIGKILL), half-way another is stopped cleanly (SIGTERM,
# its drain). Then it asserts:
#   - no acknowledged person is lost, none is stored twice, none is stored unacknowledged;
#   - every failed call failed with a status that leaves its outcome unknown to the client
#     (UNAVAILABLE, INTERNAL, UNKNOWN, DEADLINE_EXCEEDED), while a replica was going away
#     (from the kill until the balancer's checks took it out: RECOVERY_SECONDS), and was
#     acknowledged when sent again with the same request_id;
# and prints the figures: calls, failures by status and kill, retries, calls per second before,
# during and after. `make test` runs a smoke on scale.sh's system (--running, 4 × 20 s);
# `make soak-scale` a full run on a system of its own (8 × 120 s).
source "$(dirname "$0")/../lib.sh"
running=""
[[ "${1:-}" == --running ]] && { running=1; shift; }
workers="${1:-8}" seconds="${2:-120}"
# From a kill to the balancer taking the replica out, at worst: 2 failed checks 1 s apart
# (balancer/config.sh), the check's own 3 s timeout, and a second for calls already sent —
# though a failed connection takes it out at once (observe layer4). Kept at the 10 s it had
# before that change until runs under load show how much less holds.
RECOVERY_SECONDS=10
if [[ -z "$running" ]]; then
  export SCALE=3 SYSTEM_NAME="acme-scale-kill-$$" SYSTEM_DIR="$TOOLS/system-scale-kill"
  export AUTH_PORT="$(free_port)" AUTH_REST_PORT="$(free_port)" PERSON_PORT="$(free_port)" PERSON_REST_PORT="$(free_port)"
  export WEB_PROXY_PORT="$(free_port)" WEB_PAGE_PORT="$(free_port)" AUTH_METRICS_PORT="$(free_port)"
  export SCHEMA_REGISTRY_PORT="$(free_port)" BALANCER_STATS_PORT="$(free_port)" POSTGRES_PORT="$(free_port)"
  rm -rf "$SYSTEM_DIR"
  trap '"$ROOT/scripts/system/down.sh" >/dev/null; rm -rf "$SYSTEM_DIR"' EXIT
  "$ROOT/scripts/system/up.sh" >/dev/null
fi
source "$ROOT/scripts/system/lib-system.sh"
(($(system_scale) >= 3)) || die "the kill test needs a system of at least 3 replicas (make up SCALE=3)"

log "replicas killed under load: $workers clients for $seconds s; SIGKILL at $((seconds / 4)) s, a clean stop at $((seconds / 2)) s"
kills="$SYSTEM_DIR/kills.txt" result="$SYSTEM_DIR/kill-result.json"
: >"$kills"
AUTH_URL="http://127.0.0.1:$AUTH_PORT" PERSON_URL="http://127.0.0.1:$PERSON_PORT" \
  ADMIN_USERNAME="$ADMIN_USERNAME" ADMIN_PASSWORD="$(admin_password)" \
  node "$ROOT/scripts/tests/scale-kill.mjs" "$workers" "$seconds" >"$result" &
client=$!
now_ms() { date +%s%3N; }
mapfile -t auth < <(replicas auth)
mapfile -t person < <(replicas person)
sleep $((seconds / 4))
echo "$(now_ms) SIGKILL ${person[1]} ${auth[1]}" >>"$kills"
docker kill -s KILL "${person[1]}" "${auth[1]}" >/dev/null
sleep $((seconds / 4))
echo "$(now_ms) SIGTERM ${person[2]} ${auth[2]}" >>"$kills"
# Both drain side by side, as an orchestrator stops pods.
docker stop -t 30 "${person[2]}" >/dev/null & docker stop -t 30 "${auth[2]}" >/dev/null
wait %1 2>/dev/null || true
wait "$client" || die "the client failed (its output: $result)"

python3 - "$result" "$kills" "$RECOVERY_SECONDS" <<'PY'
import collections, json, statistics, sys
result = json.load(open(sys.argv[1]))
kills = [(int(t), what, rest) for t, what, rest in (line.strip().split(" ", 2) for line in open(sys.argv[2]) if line.strip())]
recovery_ms = int(sys.argv[3]) * 1000
calls = result["calls"]
problems = []
if result["fatal"]:
    problems.append(f"a call failed for good: {result['fatal']}")
for key, what in (("lost", "acknowledged but not stored"), ("duplicated", "stored twice"), ("unacknowledgedStored", "stored but never acknowledged")):
    if result[key]:
        problems.append(f"{len(result[key])} people {what}: {result[key][:3]}")

def kill_of(call):
    for t, what, _ in kills:
        if call["start"] <= t + recovery_ms and call["end"] >= t:
            return what
    return None

failed = [c for c in calls if c["code"] != "ok"]
unknown = {"Unavailable", "Internal", "Unknown", "DeadlineExceeded"}
by = collections.Counter()
for c in failed:
    what = kill_of(c)
    by[(c["rpc"], c["code"], what or "no kill")] += 1
    if c["code"] not in unknown:
        problems.append(f"{c['rpc']} failed with {c['code']} ({c.get('message')}), a status that tells the client the outcome")
    elif what is None:
        problems.append(f"{c['rpc']} failed with {c['code']} ({c.get('message')}) away from every kill")

start = min(c["start"] for c in calls)
per_second = collections.Counter((c["end"] - start) // 1000 for c in calls if c["code"] == "ok")
seconds = max(per_second) + 1
rate = [per_second.get(s, 0) for s in range(seconds)]
first_kill = (kills[0][0] - start) // 1000
before = rate[1:first_kill] or rate[:1]
last_kill = (kills[-1][0] - start) // 1000
after = rate[last_kill + int(sys.argv[3]):seconds - 1]
print(f"calls: {len(calls)} ({sum(c['rpc'] == 'RegisterPerson' for c in calls)} RegisterPerson, {sum(c['rpc'] == 'ValidateToken' for c in calls)} ValidateToken), {len(failed)} failed")
print(f"people: {result['acknowledged']} acknowledged, {result['retried']} of them after a retry with the same request_id; "
      f"lost {len(result['lost'])}, stored twice {len(result['duplicated'])}, stored unacknowledged {len(result['unacknowledgedStored'])}")
for t, what, rest in kills:
    print(f"  {what} at {(t - start) / 1000:.1f} s: {rest}")
for (rpc, code, what), n in sorted(by.items()):
    print(f"  failed: {n} × {rpc} {code}, around the {what}")
print(f"successful calls per second: {statistics.median(before):.0f} before the kills (median), "
      f"{min(rate[first_kill:last_kill + 1] or [0])} at the lowest while replicas went away, "
      f"{statistics.median(after) if after else float('nan'):.0f} after ({int(sys.argv[3])} s after the last kill onwards)")
print("per second: " + " ".join(map(str, rate)))
if problems:
    sys.exit("PROBLEM: " + "; ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""))
print("no acknowledged person lost or stored twice; every failure was a call in flight to a replica going away, and its retry was acknowledged")
PY
