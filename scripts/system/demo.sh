#!/usr/bin/env bash
# system/demo.sh — `make demo`, after `make up`: the scenario this project grew from, played
# with real outside clients against the running system and narrated step by step. A Spring
# service (person-spring) checks every caller's JWT at a Node service (auth-node), across the
# language boundary. grpcurl speaks gRPC (the services' reflection tells it the schema), curl
# the REST twins. Every step states what must come back and fails the demo when it does not,
# so `make test` runs it as a test.
source "$(dirname "$0")/../lib.sh"
source "$(dirname "$0")/lib-system.sh"
[[ -n "$(system_runtime)" ]] || die "the system is not up: 'make up' first"

auth="127.0.0.1:$AUTH_PORT" person="127.0.0.1:$PERSON_PORT"
person_rest="http://127.0.0.1:$PERSON_REST_PORT" auth_rest="http://127.0.0.1:$AUTH_REST_PORT"
out="$(mktemp)"
trap 'rm -f "$out"' EXIT
step=0

say() { step=$((step + 1)); printf '\n\033[1m%d. %s\033[0m\n' "$step" "$*"; }
# show CMD… — print the command as a user would type it, run it, keep its output in $out.
show() {
  local line="" arg
  for arg in "$@"; do
    if [[ "$arg" =~ ^[A-Za-z0-9_./:=@,+-]+$ ]]; then line+="$arg "; else line+="'${arg//\'/\'\\\'\'}' "; fi
  done
  line="${line//"$password"/\$PASSWORD}"
  [[ -z "$token" ]] || line="${line//"$token"/\$TOKEN}"
  printf '   $ %s\n' "$line"
  "$@" >"$out" 2>&1 || true
  sed 's/^/   /' "$out" | cut -c1-160 | head -25
}
# expect TEXT WHY — the last output must contain TEXT.
expect() {
  grep -qF -- "$1" "$out" || die "step $step: expected '$1' ($2)"
  printf '   \033[32m✓ %s\033[0m\n' "$2"
}
json() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))$1)" "$out"; }
uuid() { python3 -c 'import uuid; print(uuid.uuid4())'; }

password="$(admin_password)" token=""
say "Log in at auth-node (Node, Connect) over gRPC: the answer is a signed JWT"
show grpcurl -plaintext -d "{\"username\":\"$ADMIN_USERNAME\",\"password\":\"$password\"}" "$auth" acme.auth.v1.AuthService/Login
expect '"token"' "a token and when it expires"
token="$(json '["token"]')"

say "Register a person at person-spring (Spring, gRPC-Java) with that token; it asks auth-node"
name="Ada Lovelace $(date +%s)"
show grpcurl -plaintext -H "authorization: Bearer $token" \
  -d "{\"request_id\":\"$(uuid)\",\"person\":{\"name\":\"$name\",\"age\":36,\"hobbies\":[\"mathematics\"],\"address\":{\"city\":\"London\",\"zip_code\":\"W1 1AA\"}}}" \
  "$person" acme.person.v1.PersonService/RegisterPerson
expect '"id"' "stored, with the id and created_at the server assigned"
id="$(json '["person"]["id"]')"

say "Read it back over the REST twin with the same token"
show curl -s -H "authorization: Bearer $token" "$person_rest/api/people/$id"
expect "\"$name\"" "the same person, as JSON"

say "Register a second one over REST, then list both as a gRPC server stream"
show curl -s -X POST -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -d "{\"name\":\"$name junior\",\"age\":7}" "$person_rest/api/people"
expect '"id"' "stored (201)"
show grpcurl -plaintext -H "authorization: Bearer $token" -d "{\"name_contains\":\"$name\"}" \
  "$person" acme.person.v1.PersonService/ListPeople
expect "$name junior" "both, one message each, oldest first"

say "No token: refused before anything is read"
show grpcurl -plaintext -d "{\"id\":\"$id\"}" "$person" acme.person.v1.PersonService/GetPerson
expect "Code: Unauthenticated" "UNAUTHENTICATED"

say "A forged token — the real one with its payload edited to another user — fails the signature check"
forged="$(python3 - "$token" <<'PY'
import base64, json, sys
head, payload, signature = sys.argv[1].split(".")
claims = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
claims["sub"] = "mallory"
print(head + "." + base64.urlsafe_b64encode(json.dumps(claims).encode()).decode().rstrip("=") + "." + signature)
PY
)"
show grpcurl -plaintext -H "authorization: Bearer $forged" -d "{\"id\":\"$id\"}" "$person" acme.person.v1.PersonService/GetPerson
expect "Code: Unauthenticated" "UNAUTHENTICATED: auth-node finds the signature does not match"

say "An invalid person: the answer says which rule each field broke (buf.validate, in the error's details)"
show grpcurl -plaintext -format-error -H "authorization: Bearer $token" \
  -d "{\"request_id\":\"$(uuid)\",\"person\":{\"name\":\"\",\"age\":200}}" "$person" acme.person.v1.PersonService/RegisterPerson
expect '"code": 3' "INVALID_ARGUMENT (code 3)"
expect '"ruleId": "string.min_len"' "the name is too short"
expect '"ruleId": "int32.gte_lte"' "the age is out of range"
show curl -s -X POST -H "authorization: Bearer $token" -H 'content-type: application/json' \
  -d '{"name":"","age":200}' "$person_rest/api/people"
expect '"code":"invalid_argument"' "the REST twin says the same, in the JSON error both twins share"
expect '"ruleId":"int32.gte_lte"' "with the same violations"

say "A wrong password at auth-node's REST twin"
show curl -s -X POST -H 'content-type: application/json' -d "{\"username\":\"$ADMIN_USERNAME\",\"password\":\"wrong\"}" "$auth_rest/api/login"
expect '"code":"unauthenticated"' "UNAUTHENTICATED, in the Connect protocol's JSON error form"

say "Follow one call across the language boundary: its trace, Java → Node → Java"
# A fresh login: person-spring keeps a token's answer for a few seconds (AUTH_CACHE_TTL), and a
# cached answer makes no call to auth-node. Its own trace id, in the W3C traceparent the call
# carries, names the trace to read back (-rpc-header: not on grpcurl's reflection calls too).
show grpcurl -plaintext -d "{\"username\":\"$ADMIN_USERNAME\",\"password\":\"$password\"}" "$auth" acme.auth.v1.AuthService/Login
expect '"token"' "a second token"
fresh="$(json '["token"]')"
[[ "$fresh" != "$token" ]] || die "step $step: the second login gave the same token as the first (issued in the same second?)"
token="$fresh"
trace_id="$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')"
show grpcurl -plaintext -H "authorization: Bearer $token" -rpc-header "traceparent: 00-$trace_id-$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')-01" \
  -d "{\"id\":\"$id\"}" "$person" acme.person.v1.PersonService/GetPerson
expect "\"$name\"" "the person, by a token person-spring has not seen, so it asked auth-node"
zipkin="$(cat "$SYSTEM_DIR/zipkin-url" 2>/dev/null || true)"
if [[ -z "$zipkin" ]]; then
  echo "   the spans went to your trace backend (TRACING_ZIPKIN_ENDPOINT): look up trace $trace_id there"
else
  # Each service sends its finished spans about once a second; both must have arrived.
  crosses() {
    curl -fsS "$zipkin/api/v2/trace/$trace_id" >"$out" 2>/dev/null && python3 - "$out" <<'PY'
import json, sys
spans = json.load(open(sys.argv[1]))
seen = {(s.get("localEndpoint", {}).get("serviceName"), s.get("kind")) for s in spans}
sys.exit(0 if {("person-spring", "SERVER"), ("person-spring", "CLIENT"), ("auth-node", "SERVER")} <= seen else 1)
PY
  }
  deadline=$((SECONDS + DEMO_TRACE_SECONDS))
  until crosses; do
    ((SECONDS < deadline)) || die "step $step: Zipkin at $zipkin has no trace $trace_id with both services' spans after $DEMO_TRACE_SECONDS s"
    sleep 0.5
  done
  printf '   $ %s\n' "python3 scripts/tests/trace-tree.py $zipkin $trace_id"
  python3 "$ROOT/scripts/tests/trace-tree.py" "$zipkin" "$trace_id" | sed 's/^/   /'
  printf '   \033[32m✓ %s\033[0m\n' "one trace: person-spring's server span, its client call, auth-node's server span under it"
  echo "   (in the UI: $zipkin/zipkin/traces/$trace_id)"
fi

printf '\n\033[1mThe demo passed: %d steps.\033[0m People stay in %s/ across make down and make up.\n' "$step" "${SYSTEM_DIR#"$ROOT/"}"
