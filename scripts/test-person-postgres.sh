#!/usr/bin/env bash
# test-person-postgres.sh — person-spring's PostgreSQL profile against a real server: starts
# a throwaway cluster (initdb/pg_ctl as the postgres user, in a temp dir, on a free port),
# runs every PersonService test on the "postgres" profile, then stops and deletes it.
# Installs Debian's postgresql package when no server binaries are found.
source "$(dirname "$0")/lib.sh"
cd "$ROOT"

# as_postgres CMD… — run as the postgres user (root here; sudo on GitHub's runners).
as_postgres() {
  if [[ $EUID -eq 0 ]]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

pg_bin() { find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1; }

if [[ -z "$(pg_bin)" ]]; then
  log "installing PostgreSQL (Debian package postgresql)"
  sudo_=(); [[ $EUID -eq 0 ]] || sudo_=(sudo)
  "${sudo_[@]}" apt-get install -y -q postgresql >/dev/null
fi
PG_BIN="$(pg_bin)"
[[ -x "$PG_BIN/initdb" ]] || die "no PostgreSQL server binaries under /usr/lib/postgresql"

work="$(mktemp -d)"
chmod 755 "$work"
install -d -o postgres -g postgres -m 700 "$work/data"
port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"

stop_cluster() {
  as_postgres "$PG_BIN/pg_ctl" -D "$work/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap stop_cluster EXIT

log "starting a throwaway PostgreSQL ($("$PG_BIN/postgres" --version | awk '{print $3}')) on port $port"
as_postgres "$PG_BIN/initdb" -D "$work/data" -U postgres -A trust --no-sync >/dev/null
# fsync off: the cluster lives for one test run.
as_postgres "$PG_BIN/pg_ctl" -D "$work/data" -w -l "$work/data/server.log" \
  -o "-p $port -k $work/data -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
as_postgres "$PG_BIN/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
  -c "CREATE ROLE person LOGIN PASSWORD 'person'" -c "CREATE DATABASE person OWNER person"

export PERSON_TEST_POSTGRES_URL="jdbc:postgresql://127.0.0.1:$port/person?reWriteBatchedInserts=true"
export PERSON_TEST_POSTGRES_USER=person PERSON_TEST_POSTGRES_PASSWORD=person

"$ROOT/scripts/sdk-java.sh" build >/dev/null
"${MVN[@]}" -pl services/person-spring test -Dtest=PostgresPersonServiceTest -Dsurefire.failIfNoSpecifiedTests=true

# A skipped test class would pass silently: demand that the PostgreSQL tests really ran.
report="services/person-spring/target/surefire-reports/TEST-com.acme.person.PostgresPersonServiceTest.xml"
python3 - "$report" <<'PY'
import sys, xml.etree.ElementTree as ET
suite = ET.parse(sys.argv[1]).getroot()
tests, skipped = int(suite.get("tests")), int(suite.get("skipped"))
if tests == 0 or skipped:
    sys.exit(f"PostgreSQL tests: {tests} run, {skipped} skipped; expected all to run")
print(f"PostgreSQL tests: {tests} run against a real server, none skipped")
PY
