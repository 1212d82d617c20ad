#!/usr/bin/env bash
# tests/scale-kill.sh [--running] [WORKERS SECONDS] — replicas killed under load, on `make up
# SCALE=3`: the soak's traffic mix — clients register people (each with a request_id), read
# them and check their token, WORKERS at a time for SECONDS — through the balancer, retrying
# by the TypeScript SDK's retry policy only (scale-kill.mjs). After a warm-up of WARMUP_CALLS
# calls, a quarter of the way in, one replica of each service is killed (SIGKILL), half-way
# another is stopped cleanly (SIGTERM, its drain). Then it asserts:
#   - no acknowledged person is lost, none is stored twice, none is stored unacknowledged;
#   - every call was acknowledged through the SDK's policy (none given up on), and every failed
#     attempt failed with UNAVAILABLE or INTERNAL (a refused or a cut stream) — the statuses that
#     leave the outcome unknown and that the policy retries — while a replica was going away
#     (RECOVERY_SECONDS after a kill);
#   - after each kill, successful calls per second are back to NORMAL_SHARE of the rate before
#     the kills within RECOVERY_SECONDS, and stay there every second until the next kill or
#     the end (a window shorter than that must end at the normal rate);
# and prints the figures: attempts, failures by status and kill, retries, each kill's lowest
# second and recovery time, calls per second throughout. `make test` runs a smoke on scale.sh's
# system (--running, 4 × 20 s); `make soak-scale` a full run on a system of its own (8 × 120 s).
source "$(dirname "$0")/../lib.sh"
running=""
[[ "${1:-}" == --running ]] && { running=1; shift; }
workers="${1:-8}" seconds="${2:-120}"
# From a kill to the balancer taking the replica out: at once when a connection to it fails
# (observe layer4, 1 s connect timeout), else 2 failed checks 1 s apart plus the check's own 3 s
# timeout — 5 s at worst, and a second for calls already sent.
RECOVERY_SECONDS=6
# "Normal" throughput after a kill: half the rate before. Two of three replicas of each service
# go away, and the client shares the machine's cores with the system, so the rate before is
# not a promise; half of it, back within RECOVERY_SECONDS, is.
NORMAL_SHARE=0.5
# Traffic before the measured part, for replicas that just started (JIT, connections): on a
# quiet 2-core machine about 5 s of it.
WARMUP_CALLS=1000
if [[ -z "$running" ]]; then
  export SCALE=3 SYSTEM_NAME="acme-scale-kill-$$" SYSTEM_DIR="$TOOLS/system-scale-kill"
  source "$ROOT/scripts/system/lib-system.sh"
  system_own_ports
  rm -rf "$SYSTEM_DIR"
  trap '"$ROOT/scripts/system/down.sh" >/dev/null; rm -rf "$SYSTEM_DIR"' EXIT
  "$ROOT/scripts/system/up.sh" >/dev/null
fi
source "$ROOT/scripts/system/lib-system.sh"
(($(system_scale) >= 3)) || die "the kill test needs a system of at least 3 replicas (make up SCALE=3)"

log "replicas killed under load: $workers clients for $seconds s after a warm-up of $WARMUP_CALLS calls; SIGKILL at $((seconds / 4)) s, a clean stop at $((seconds / 2)) s"
kills="$SYSTEM_DIR/kills.txt" result="$SYSTEM_DIR/kill-result.json" ready="$SYSTEM_DIR/kill-ready"
: >"$kills"
rm -f "$ready"
AUTH_URL="http://127.0.0.1:$AUTH_PORT" PERSON_URL="http://127.0.0.1:$PERSON_PORT" READY_FILE="$ready" \
  ADMIN_USERNAME="$ADMIN_USERNAME" ADMIN_PASSWORD="$(admin_password)" \
  node "$ROOT/scripts/tests/scale-kill.mjs" "$workers" "$seconds" "$WARMUP_CALLS" >"$result" &
client=$!
# The kills are timed from the end of the client's warm-up.
for ((waited = 0; waited < 1200; waited++)); do
  [[ -e "$ready" ]] && break
  kill -0 "$client" 2>/dev/null || die "the client ended during its warm-up (its output: $result)"
  sleep 0.1
done
# A client still warming up is stopped with the test (against a running `make up`, no teardown
# would end it).
[[ -e "$ready" ]] || { kill "$client" 2>/dev/null; die "the client's warm-up did not end in two minutes"; }
now_ms() { date +%s%3N; }
mapfile -t auth < <(replicas auth)
mapfile -t person < <(replicas person)
sleep $((seconds / 4))
echo "$(now_ms) SIGKILL ${person[1]} ${auth[1]}" >>"$kills"
docker kill -s KILL "${person[1]}" "${auth[1]}" >/dev/null
sleep $((seconds / 4))
echo "$(now_ms) SIGTERM ${person[2]} ${auth[2]}" >>"$kills"
# Both drain side by side, as an orchestrator stops pods.
docker stop -t 30 "${person[2]}" >/dev/null &
stopping=$!
docker stop -t 30 "${auth[2]}" >/dev/null
wait "$stopping" || true
wait "$client" || die "the client failed (its output: $result)"

python3 - "$result" "$kills" "$RECOVERY_SECONDS" "$NORMAL_SHARE" <<'PY'
import collections, json, statistics, sys
result = json.load(open(sys.argv[1]))
kills = [(int(t), what, rest) for t, what, rest in (line.strip().split(" ", 2) for line in open(sys.argv[2]) if line.strip())]
recovery_s, normal_share = int(sys.argv[3]), float(sys.argv[4])
# The statuses the SDK's policy retries (the service config's, as the client reported them): the
# call may not have run (a refused stream), or its server went away before its status (a cut
# stream); the request_id makes sending it again safe.
retryable = set(result["retryable"])
warm_up = [c for c in result["calls"] if c["warmUp"]]
calls = [c for c in result["calls"] if not c["warmUp"]]  # one per attempt
problems = []
if result["fatal"]:
    problems.append(f"a call failed for good: {result['fatal']}")
for key, what in (("lost", "acknowledged but not stored"), ("duplicated", "stored twice"), ("unacknowledgedStored", "stored but never acknowledged")):
    if result[key]:
        problems.append(f"{len(result[key])} people {what}: {result[key][:3]}")

def kill_of(call):
    for t, what, _ in kills:
        if call["start"] <= t + recovery_s * 1000 and call["end"] >= t:
            return what
    return None

failed = [c for c in calls if c["code"] != "ok"]
by = collections.Counter()
for c in failed:
    what = kill_of(c)
    by[(c["rpc"], c["code"], what or "no kill")] += 1
    if c["code"] not in retryable:
        problems.append(f"{c['rpc']} failed with {c['code']} ({c.get('message')}), not a status the retry policy retries")
    elif what is None:
        problems.append(f"{c['rpc']} failed with {c['code']} ({c.get('message')}) away from every kill")

if not calls:
    sys.exit("PROBLEM: no call was made after the warm-up; " + "; ".join(problems))
start = min(c["start"] for c in calls)
per_second = collections.Counter((c["end"] - start) // 1000 for c in calls if c["code"] == "ok")
seconds = max(per_second, default=0)  # the last second is cut short by the end of the traffic
rate = [per_second.get(s, 0) for s in range(seconds)]
if not kills or seconds <= (kills[-1][0] - start) // 1000 + 1:
    sys.exit("PROBLEM: the traffic did not outlast the kills; " + "; ".join(problems))
first_kill = (kills[0][0] - start) // 1000
before = statistics.median(rate[1:first_kill] or rate[:1])
if before == 0:
    problems.append("no call succeeded in the median second before the kills")
normal = normal_share * before

def recovery(kill_s, until):
    """Seconds from the kill until every second up to `until` (the next kill, or the end) is
    at the normal rate; None when the last of them is still below it."""
    below = [s for s in range(kill_s, until) if rate[s] < normal]
    if not below:
        return 0
    return None if below[-1] == until - 1 else below[-1] + 1 - kill_s

# A system just started may answer UNAVAILABLE while cold (person-spring's 2 s deadline on its
# auth call): shown, and retried by the same policy, but not judged against the kills.
warm_failed = collections.Counter(c["code"] for c in warm_up if c["code"] != "ok")
print(f"warm-up: {len(warm_up)} attempts, {result['acknowledgedInWarmUp']} people registered; failed attempts: "
      + (", ".join(f"{n} × {code}" for code, n in sorted(warm_failed.items())) or "none"))
for code in warm_failed:
    if code not in retryable:
        problems.append(f"a warm-up attempt failed with {code}, not a status the retry policy retries")
mix = collections.Counter(c["rpc"] for c in calls)
print(f"attempts: {len(calls)} ({', '.join(f'{n} {rpc}' for rpc, n in sorted(mix.items()))}), {len(failed)} failed and retried by the SDK's policy")
print(f"people: {result['acknowledged']} acknowledged, {result['retried']} of them after the policy's retry with the same request_id (at most {result['maxAttempts']} attempts); "
      f"lost {len(result['lost'])}, stored twice {len(result['duplicated'])}, stored unacknowledged {len(result['unacknowledgedStored'])}; "
      f"reads and token checks: {result['reads']}, {result['readsAfterRetry']} after a retry")
for (rpc, code, what), n in sorted(by.items()):
    print(f"  failed attempts: {n} × {rpc} {code}, around the {what}")
print(f"successful calls per second before the kills: {before:.0f} (median); normal from here on means at least {normal:.0f} ({normal_share:.0%}) in every second")
for i, (t, what, rest) in enumerate(kills):
    kill_s = (t - start) // 1000
    until = (kills[i + 1][0] - start) // 1000 if i + 1 < len(kills) else seconds
    back = recovery(kill_s, until)
    lowest = min(rate[kill_s:until] or [0])
    took = f"back to normal {back} s after it, and normal every second after that" if back is not None else \
        f"still below normal in its last second ({until - kill_s} s after it)"
    print(f"  {what} at {(t - start) / 1000:.1f} s ({rest}): lowest {lowest} calls/s, {took}")
    if back is None or back > recovery_s:
        problems.append(f"after the {what}, throughput was not back to {normal:.0f} calls/s within {recovery_s} s ({took})")
print("per second: " + " ".join(map(str, rate)))
if problems:
    sys.exit("PROBLEM: " + "; ".join(problems[:5]) + (f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""))
print(f"no acknowledged person lost or stored twice; every failed attempt was a status the policy retries ({', '.join(sorted(retryable))}) while a replica went away, and the SDK's retry policy got every call acknowledged; throughput back to normal within {recovery_s} s of each kill")
PY
