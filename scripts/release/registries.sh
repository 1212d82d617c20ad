#!/usr/bin/env bash
# release/registries.sh up|down|env — `make registries`: on this machine, the package registries
# the SDK releases go to, each a server the ecosystem's users run themselves (registries/):
#   npm    Verdaccio (registries/npm, its lockfile)                 NPM_REGISTRY_PORT   (4873)
#   PyPI   pypiserver (registries/pypi/requirements.txt)            PYPI_REGISTRY_PORT  (4874)
#   Maven  Debian's nginx with its WebDAV module: Maven's HTTP PUT deploys in, files out
#          (registries/maven/nginx.conf)                            MAVEN_REGISTRY_PORT (4875)
# Their data lives in .tmp/registries/ (REGISTRIES_DIR; kept by `down`). One publisher account for all three:
# REGISTRY_USER (publisher) and a password made once and kept in .tmp/registries/password.
# Reading needs no account; publishing does; a published version is never overwritten.
# `up` starts them and waits until each answers; `env` prints what publish.sh and installers
# need: `eval "$(scripts/release/registries.sh env)"`.
source "$(dirname "$0")/../lib.sh"
dir="${REGISTRIES_DIR:-$TOOLS/registries}"
# The servers themselves are tools, installed once for every data folder.
servers="$TOOLS/registry-servers"
NPM_REGISTRY_PORT="${NPM_REGISTRY_PORT:-4873}" PYPI_REGISTRY_PORT="${PYPI_REGISTRY_PORT:-4874}" MAVEN_REGISTRY_PORT="${MAVEN_REGISTRY_PORT:-4875}"
user="${REGISTRY_USER:-publisher}"

password() {
  [[ -s "$dir/password" ]] || (mkdir -p "$dir" && umask 077 && head -c 18 /dev/urandom | base64 | tr -d '/+=' >"$dir/password")
  cat "$dir/password"
}

env_lines() {
  echo "export NPM_REGISTRY_URL=http://127.0.0.1:$NPM_REGISTRY_PORT/"
  echo "export PYPI_REGISTRY_URL=http://127.0.0.1:$PYPI_REGISTRY_PORT/"
  echo "export PYPI_INDEX_URL=http://127.0.0.1:$PYPI_REGISTRY_PORT/simple/"
  echo "export MAVEN_REGISTRY_URL=http://127.0.0.1:$MAVEN_REGISTRY_PORT/maven/"
  echo "export REGISTRY_USER=$user REGISTRY_PASSWORD=$(password)"
}

# fill TEMPLATE OUT NAME=VALUE… — a config file with its @NAME@ placeholders filled in.
fill() {
  local template="$1" out="$2" text; shift 2
  text="$(cat "$template")"
  for pair in "$@"; do text="${text//@${pair%%=*}@/${pair#*=}}"; done
  printf '%s\n' "$text" >"$out"
}

# wait_for WHAT URL — until the URL answers (a minute at most).
wait_for() {
  for _ in $(seq 120); do curl -sf -o /dev/null "$2" && return; sleep 0.5; done
  die "the $1 registry did not answer at $2 (logs in ${dir#"$ROOT/"}/)"
}

running() { [[ -f "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }

# install_servers — the three servers, each installed again only when its pins changed. One
# install at a time (a lock): two data folders' `up` at once (make test's lanes) would otherwise
# both remove and refill the same server folder.
install_servers() {
  mkdir -p "$servers"
  (
    flock 9
    # npm: Verdaccio, from its lockfile.
    local app="$servers/verdaccio" lock want
    lock="$(sha256sum "$ROOT/registries/npm/package-lock.json" | cut -c1-16)"
    if [[ "$(cat "$app/.installed" 2>/dev/null)" != "$lock" ]]; then
      log "installing Verdaccio (registries/npm)"
      rm -rf "$app" && mkdir -p "$app"
      cp "$ROOT/registries/npm/package.json" "$ROOT/registries/npm/package-lock.json" "$ROOT/registries/npm/.npmrc" "$app/"
      (cd "$app" && npm ci --ignore-scripts --no-audit --no-fund >/dev/null)
      echo "$lock" >"$app/.installed"
    fi
    # PyPI: pypiserver in its own venv.
    want="$(sha256sum "$ROOT/registries/pypi/requirements.txt" | cut -c1-16)"
    if [[ "$(cat "$servers/pypiserver/.installed" 2>/dev/null)" != "$want" ]]; then
      log "installing pypiserver (registries/pypi)"
      rm -rf "$servers/pypiserver" && python3 -m venv "$servers/pypiserver"
      "$servers/pypiserver/bin/pip" install -q --no-deps -r "$ROOT/registries/pypi/requirements.txt"
      echo "$want" >"$servers/pypiserver/.installed"
    fi
    # Maven: nginx with WebDAV (Debian's package).
    command -v nginx >/dev/null || apt_install nginx
  ) 9>"$servers/.install.lock"
}

up() {
  install_servers
  mkdir -p "$dir"/{npm,pypi,maven/repository/maven,maven/tmp}
  # One htpasswd format (Apache MD5) that all three servers read.
  local hash; hash="$(openssl passwd -apr1 "$(password)")"
  for registry in npm pypi maven; do printf '%s:%s\n' "$user" "$hash" >"$dir/$registry/htpasswd"; done

  # npm: Verdaccio; it proxies every other package to the registry npm is configured with, so
  # installing the SDK brings its dependencies.
  if ! running "$dir/npm/pid"; then
    local app="$servers/verdaccio"
    fill "$ROOT/registries/npm/config.yaml" "$dir/npm/config.yaml" "DIR=$dir/npm" "PORT=$NPM_REGISTRY_PORT" \
      "UPSTREAM=$(npm config get registry)"
    # `cd` first, on its own: with `cd && node &` the whole list goes to the background and $!
    # is the subshell's, which `down` would stop while Verdaccio kept running.
    (cd "$dir/npm" || exit 1
      nohup node "$app/node_modules/verdaccio/bin/verdaccio" --config config.yaml >"$dir/npm/stdout.log" 2>&1 &
      echo $! >"$dir/npm/pid")
  fi

  # PyPI: pypiserver in its own venv; uploads need the publisher's password.
  if ! running "$dir/pypi/pid"; then
    mkdir -p "$dir/pypi/packages"
    nohup "$servers/pypiserver/bin/pypi-server" run -i 127.0.0.1 -p "$PYPI_REGISTRY_PORT" -P "$dir/pypi/htpasswd" -a update \
      "$dir/pypi/packages" >"$dir/pypi/server.log" 2>&1 &
    echo $! >"$dir/pypi/pid"
  fi

  # Maven: nginx with WebDAV (Debian's package, installed above).
  if ! running "$dir/maven/nginx.pid"; then
    local user_line=""
    if ((EUID == 0)); then
      user_line="user nobody nogroup;"
      chown -R nobody:nogroup "$dir/maven/repository" "$dir/maven/tmp"
      chmod o+rx "$dir/maven" "$dir/maven/htpasswd"
    fi
    fill "$ROOT/registries/maven/nginx.conf" "$dir/maven/nginx.conf" "DIR=$dir/maven" "PORT=$MAVEN_REGISTRY_PORT" "USER=$user_line"
    nginx -p "$dir/maven" -c "$dir/maven/nginx.conf" -e "$dir/maven/error.log"
  fi

  wait_for npm "http://127.0.0.1:$NPM_REGISTRY_PORT/-/ping"
  wait_for PyPI "http://127.0.0.1:$PYPI_REGISTRY_PORT/simple/"
  wait_for Maven "http://127.0.0.1:$MAVEN_REGISTRY_PORT/maven/"
  log "registries up: npm :$NPM_REGISTRY_PORT, PyPI :$PYPI_REGISTRY_PORT, Maven :$MAVEN_REGISTRY_PORT (data in ${dir#"$ROOT/"}/)"
  env_lines | sed 's/^export /  /'
}

down() {
  [[ -f "$dir/maven/nginx.pid" ]] && nginx -p "$dir/maven" -c "$dir/maven/nginx.conf" -e "$dir/maven/error.log" -s quit 2>/dev/null || true
  local pid
  for pid in "$dir/npm/pid" "$dir/pypi/pid"; do
    if running "$pid"; then
      kill "$(cat "$pid")"
      for _ in $(seq 50); do running "$pid" || break; sleep 0.1; done
    fi
    rm -f "$pid"
  done
  echo "registries stopped; their data stays in ${dir#"$ROOT/"}/"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  env) env_lines ;;
  *) die "usage: registries.sh up|down|env" ;;
esac
