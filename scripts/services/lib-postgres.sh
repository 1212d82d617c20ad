# services/lib-postgres.sh — sourced (after lib.sh) by scripts that need a real PostgreSQL server:
# start_throwaway_postgres starts a cluster in a temp dir on a free port (initdb/pg_ctl as the
# postgres user), with a database and role "person", exports PG_JDBC_URL, PG_USER and
# PG_PASSWORD, and stops and deletes it when the calling script exits. Installs Debian's
# postgresql package when no server binaries are found.

# as_postgres CMD… — run as the postgres user (we are root here; GitHub's runners go through
# sudo). as_root and apt_install come from lib.sh.
as_postgres() {
  if [[ $EUID -eq 0 ]]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

pg_bin() { find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1; }

start_throwaway_postgres() {
  if [[ -z "$(pg_bin)" ]]; then
    log "installing PostgreSQL (Debian package postgresql)"
    apt_install postgresql || die "could not install PostgreSQL"
  fi
  PG_BIN="$(pg_bin)"
  [[ -x "$PG_BIN/initdb" ]] || die "no PostgreSQL server binaries under /usr/lib/postgresql"

  PG_WORK="$(mktemp -d)"
  chmod 755 "$PG_WORK"
  as_root install -d -o postgres -g postgres -m 700 "$PG_WORK/data"
  local port
  port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
  trap stop_throwaway_postgres EXIT

  log "starting a throwaway PostgreSQL ($("$PG_BIN/postgres" --version | awk '{print $3}')) on port $port"
  as_postgres "$PG_BIN/initdb" -D "$PG_WORK/data" -U postgres -A trust --no-sync >/dev/null
  # fsync off: the cluster lives for one run.
  as_postgres "$PG_BIN/pg_ctl" -D "$PG_WORK/data" -w -l "$PG_WORK/data/server.log" \
    -o "-p $port -k $PG_WORK/data -c listen_addresses=127.0.0.1 -c fsync=off" start >/dev/null
  as_postgres "$PG_BIN/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -c "CREATE ROLE person LOGIN PASSWORD 'person'" -c "CREATE DATABASE person OWNER person"
  export PG_JDBC_URL="jdbc:postgresql://127.0.0.1:$port/person?reWriteBatchedInserts=true"
  export PG_USER=person PG_PASSWORD=person
}

stop_throwaway_postgres() {
  [[ -n "${PG_WORK:-}" ]] || return 0
  as_postgres "$PG_BIN/pg_ctl" -D "$PG_WORK/data" -m immediate stop >/dev/null 2>&1 || true
  as_root rm -rf "$PG_WORK"
}
