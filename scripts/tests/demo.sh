#!/usr/bin/env bash
# tests/demo.sh — `make test-demo` (part of `make test`): the README's three commands as a
# test. Its own system (its own name, data folder and free ports, so a system a user has up is
# left alone): make up, make demo, a schema registered, then down and up again, where the
# people the demo registered and the schema must still be there — the data survives a
# restart — and down.
source "$(dirname "$0")/../lib.sh"
export SYSTEM_NAME="acme-system-test-$$" SYSTEM_DIR="$TOOLS/system-test"
source "$ROOT/scripts/system/lib-system.sh"
system_own_ports
# Its own Zipkin, whatever backend the user's environment names.
unset TRACING_ZIPKIN_ENDPOINT
rm -rf "$SYSTEM_DIR"
trap '"$ROOT/scripts/system/down.sh" >/dev/null; rm -rf "$SYSTEM_DIR"' EXIT
source "$ROOT/scripts/system/lib-system.sh"

"$ROOT/scripts/system/up.sh"
"$ROOT/scripts/system/demo.sh" | tee "$SYSTEM_DIR/demo.log"
log "the demo's trace crosses both services: person-spring's server span, its client span, auth-node's server span under it"
python3 "$ROOT/scripts/tests/demo-trace.py" "$SYSTEM_DIR/demo.log"
log "the dashboard names only metrics the running services export"
python3 "$ROOT/deploy/grafana/check_dashboard.py" "$ROOT/deploy/grafana/acme-services.json" \
  auth_job="http://127.0.0.1:$AUTH_METRICS_PORT/metrics" person_job="http://127.0.0.1:$PERSON_REST_PORT/actuator/prometheus"
if [[ "$(system_runtime)" == docker ]]; then
  log "the services' containers are restarted when their process fails (person-spring's exit 70, an OOM kill)"
  for container in $(replicas auth) $(replicas person); do
    policy="$(docker inspect -f '{{.HostConfig.RestartPolicy.Name}}' "$container")"
    [[ "$policy" == on-failure ]] || die "$container restarts '$policy', not on-failure"
  done
fi
# One restart shows both stores keep what they hold: the people the demo registered and a
# schema the admin registers now.
login() {
  grpcurl -plaintext -d "{\"username\":\"$ADMIN_USERNAME\",\"password\":\"$(admin_password)\"}" \
    "127.0.0.1:$AUTH_PORT" acme.auth.v1.AuthService/Login | python3 -c 'import json,sys; print(json.load(sys.stdin)["token"])'
}
log "the schema registry: a write without a token is refused, the admin's registers"
token="$(login)"
registry="http://127.0.0.1:$SCHEMA_REGISTRY_PORT"
schema="$(python3 -c 'import json,sys; print(json.dumps({"schema": open(sys.argv[1]).read(), "schemaType": "PROTOBUF"}))' "$ROOT/proto/acme/person/v1/person.proto")"
# A subject of its own: the release tags fill the files' own subjects.
subject="demo-person-value"
status="$(curl -s -o /dev/null -w '%{http_code}' -X POST -d "$schema" "$registry/subjects/$subject/versions")"
[[ "$status" == 401 ]] || die "the schema registry answered $status to a write without a token"
id="$(curl -sf -X POST -H "authorization: Bearer $token" -d "$schema" "$registry/subjects/$subject/versions" \
  | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')"

"$ROOT/scripts/system/down.sh"
"$ROOT/scripts/system/up.sh" >/dev/null

log "after a restart: the people the demo registered are still there"
token="$(login)"
name="$(sed -n 's/.*"name": "\(Ada Lovelace [0-9]*\)".*/\1/p' "$SYSTEM_DIR/demo.log" | head -1)"
[[ -n "$name" ]] || die "the demo's log names no person"
listed="$(grpcurl -plaintext -H "authorization: Bearer $token" -d "{\"name_contains\":\"$name\"}" \
  "127.0.0.1:$PERSON_PORT" acme.person.v1.PersonService/ListPeople | grep -c '"id"' || true)"
((listed == 2)) || die "after a restart $listed of the demo's 2 people are listed"
echo "the demo's 2 people are there after a restart (the admin's login too: auth-node kept its users)"
log "after a restart: the schema registry still has what the admin registered"
again="$(curl -sf -X POST -d "$schema" "$registry/subjects/$subject" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')"
[[ "$again" == "$id" ]] || die "after a restart the schema registry gives person.proto id $again, not $id"
echo "the schema registry kept person.proto (id $id) across a restart"
