#!/usr/bin/env bash
# services/test-person-postgres.sh — person-spring's PostgreSQL profile against a real server: every
# test class marked @PostgresProfile (PersonService, paging, concurrent registrations) again, on
# the "postgres" profile, against a throwaway cluster (scripts/services/lib-postgres.sh) that is
# stopped and deleted afterwards.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/services/lib-postgres.sh"
cd "$ROOT"

start_throwaway_postgres
export PERSON_TEST_POSTGRES_URL="$PG_JDBC_URL" PERSON_TEST_POSTGRES_USER="$PG_USER" \
  PERSON_TEST_POSTGRES_PASSWORD="$PG_PASSWORD"

"$ROOT/scripts/sdk/java.sh" build >/dev/null
classes=(PostgresPersonServiceTest PostgresListPeoplePagingTest PostgresConcurrentRegistrationTest)
"${MVN[@]}" -pl services/person-spring test -Dtest="$(IFS=,; echo "${classes[*]}")" -Dsurefire.failIfNoSpecifiedTests=true

# A skipped test class would pass silently: demand that the PostgreSQL tests really ran.
reports=()
for c in "${classes[@]}"; do reports+=("services/person-spring/target/surefire-reports/TEST-com.acme.person.$c.xml"); done
python3 - "${reports[@]}" <<'PY'
import sys, xml.etree.ElementTree as ET
total = 0
for report in sys.argv[1:]:
    suite = ET.parse(report).getroot()
    tests, skipped = int(suite.get("tests")), int(suite.get("skipped"))
    if tests == 0 or skipped:
        sys.exit(f"PostgreSQL tests of {suite.get('name')}: {tests} run, {skipped} skipped; expected all to run")
    total += tests
print(f"PostgreSQL tests: {total} run against a real server, none skipped")
PY
