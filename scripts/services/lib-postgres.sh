# services/lib-postgres.sh — sourced (after lib.sh) by scripts that need a real PostgreSQL server:
# start_throwaway_postgres starts a cluster in a temp dir on a free port (initdb/pg_ctl as the
# postgres user), with a database and role "person", exports PG_JDBC_URL, PG_USER and
# PG_PASSWORD, and stops and deletes it when the calling script exits. Installs Debian's
# postgresql package when no server binaries are found. `start_throwaway_postgres containers`
# also lets the service's container reach it (PG_CONTAINER_JDBC_URL): see below.

# as_postgres CMD… — run as the postgres user (we are root here; GitHub's runners go through
# sudo). as_root and apt_install come from lib.sh.
as_postgres() {
  if [[ $EUID -eq 0 ]]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

pg_bin() { find /usr/lib/postgresql -maxdepth 2 -name bin -type d 2>/dev/null | sort -V | tail -1; }

start_throwaway_postgres() {
  local for_containers="${1:-}"
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
  local listen=127.0.0.1 gateway=""
  if [[ "$for_containers" == containers ]]; then
    # Containers on any Docker network reach the host at the default bridge's gateway address:
    # the cluster listens there too, and the person role logs in from them with its password.
    gateway="$(docker_bridge_gateway)"
    listen="127.0.0.1,$gateway"
    echo "host person person 0.0.0.0/0 scram-sha-256" | as_postgres tee -a "$PG_WORK/data/pg_hba.conf" >/dev/null
  fi
  # fsync off: the cluster lives for one run (PG_FSYNC=on where its figures are measured).
  as_postgres "$PG_BIN/pg_ctl" -D "$PG_WORK/data" -w -l "$PG_WORK/data/server.log" \
    -o "-p $port -k $PG_WORK/data -c listen_addresses=$listen -c fsync=${PG_FSYNC:-off}" start >/dev/null
  as_postgres "$PG_BIN/psql" -q -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -c "CREATE ROLE person LOGIN PASSWORD 'person'" -c "CREATE DATABASE person OWNER person"
  export PG_JDBC_URL="jdbc:postgresql://127.0.0.1:$port/person?reWriteBatchedInserts=true"
  export PG_USER=person PG_PASSWORD=person
  [[ -z "$gateway" ]] || export PG_CONTAINER_JDBC_URL="jdbc:postgresql://$gateway:$port/person?reWriteBatchedInserts=true"
}

# docker_bridge_gateway — the host's address on Docker's default bridge (docker0). Not every
# engine writes it into the network's IPAM config; the interface always has it.
docker_bridge_gateway() {
  local gateway
  gateway="$(docker network inspect bridge -f '{{(index .IPAM.Config 0).Gateway}}' 2>/dev/null || true)"
  [[ -n "$gateway" ]] || gateway="$(ip -4 -o addr show docker0 2>/dev/null | awk '{print $4}' | cut -d/ -f1 | head -1)"
  [[ -n "$gateway" ]] || die "cannot find the host's address on Docker's bridge (docker0)"
  echo "$gateway"
}

stop_throwaway_postgres() {
  [[ -n "${PG_WORK:-}" ]] || return 0
  as_postgres "$PG_BIN/pg_ctl" -D "$PG_WORK/data" -m immediate stop >/dev/null 2>&1 || true
  as_root rm -rf "$PG_WORK"
}
