#!/usr/bin/env bash
# services/test-person-postgres.sh — person-spring's PostgreSQL profile against a real server: every
# PersonService test again, on the "postgres" profile, against a throwaway cluster
# (scripts/services/lib-postgres.sh) that is stopped and deleted afterwards.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/services/lib-postgres.sh"
cd "$ROOT"

start_throwaway_postgres
export PERSON_TEST_POSTGRES_URL="$PG_JDBC_URL" PERSON_TEST_POSTGRES_USER="$PG_USER" \
  PERSON_TEST_POSTGRES_PASSWORD="$PG_PASSWORD"

"$ROOT/scripts/sdk/java.sh" build >/dev/null
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
