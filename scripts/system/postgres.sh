#!/usr/bin/env bash
# system/postgres.sh start RUNTIME|stop — the one PostgreSQL a scaled system (SCALE > 1) shares: a
# server of this machine's (Debian's postgresql, as the PostgreSQL tests use), its data in
# SYSTEM_DIR/postgres so people and users survive make down and make up, on POSTGRES_PORT.
# Each service has its own database and role (auth, person) with a password made once and
# kept beside the data. In the docker runtime it also listens on Docker's bridge, where the
# containers reach it; `start` prints the address they use.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/system/lib-system.sh"
source "$ROOT/scripts/services/lib-postgres.sh"
data="$SYSTEM_DIR/postgres"

# db_password — the services' database password, made once (like the admin's).
db_password() {
  local file="$SYSTEM_DIR/postgres-password"
  [[ -s "$file" ]] || (umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$file")
  cat "$file"
}

case "${1:-}" in
  start)
    listen="127.0.0.1" host=127.0.0.1
    if [[ "${2:-}" == docker ]]; then host="$(docker_bridge_gateway)" listen="127.0.0.1,$host"; fi
    if [[ -z "$(pg_bin)" ]]; then apt_install postgresql || die "could not install PostgreSQL"; fi
    bin="$(pg_bin)" password="$(db_password)"
    if [[ ! -s "$data/PG_VERSION" ]]; then
      as_root install -d -o postgres -g postgres -m 700 "$data"
      as_postgres "$bin/initdb" -D "$data" -U postgres -A trust --no-sync >/dev/null
      # Only the two roles, with their password, from anywhere but this machine's own socket.
      echo "host all auth,person 0.0.0.0/0 scram-sha-256" | as_postgres tee -a "$data/pg_hba.conf" >/dev/null
      fresh=1
    fi
    # Left running by a make up that failed half-way: used as it is.
    as_postgres "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1 ||
    as_postgres "$bin/pg_ctl" -D "$data" -w -l "$data/server.log" \
      -o "-p $POSTGRES_PORT -k $data -c listen_addresses=$listen -c max_connections=200" start >/dev/null \
      || { tail -5 "$data/server.log" >&2; die "PostgreSQL did not start (log: $data/server.log)"; }
    if [[ -n "${fresh:-}" ]]; then
      as_postgres "$bin/psql" -q -h 127.0.0.1 -p "$POSTGRES_PORT" -U postgres -d postgres \
        -c "CREATE ROLE auth LOGIN PASSWORD '$password'" -c "CREATE DATABASE auth OWNER auth" \
        -c "CREATE ROLE person LOGIN PASSWORD '$password'" -c "CREATE DATABASE person OWNER person"
    fi
    # What the services are given: auth-node a URL, person-spring JDBC (credentials apart).
    echo "AUTH_DATABASE_URL=postgres://auth:$password@$host:$POSTGRES_PORT/auth"
    echo "DB_URL=jdbc:postgresql://$host:$POSTGRES_PORT/person?reWriteBatchedInserts=true"
    echo "DB_USER=person"
    echo "DB_PASSWORD=$password"
    ;;
  stop)
    [[ -s "$data/postmaster.pid" ]] || exit 0
    as_postgres "$(pg_bin)/pg_ctl" -D "$data" -m fast -w stop >/dev/null
    ;;
  *) die "usage: postgres.sh start docker|process, or stop" ;;
esac
