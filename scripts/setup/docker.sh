#!/usr/bin/env bash
# setup/docker.sh — make sure a Docker engine answers. Machines like CI's may ship only a
# docker client: then Debian's engine package is installed and dockerd is started in the
# background (there is no systemd to do it). Idempotent: an engine that answers is left alone.
source "$(dirname "$0")/../lib.sh"

engine_answers() { docker info >/dev/null 2>&1; }
engine_answers && exit 0
# One start at a time (make test's two lanes may both find no engine): the second waits, then
# finds the first one's engine answering.
mkdir -p "$TOOLS/docker"
exec 9>"$TOOLS/docker/start.lock"
flock 9
engine_answers && exit 0

if ! command -v dockerd >/dev/null; then
  log "installing Debian's Docker engine package (no engine on this machine)"
  apt_install docker.io || die "could not install the Docker engine package"
fi

log "starting dockerd in the background (log: .tmp/docker/dockerd.log)"
# setsid: the daemon must outlive this script and the make/CI step that ran it.
# (9>&-: the daemon must not hold the lock after this script ends.)
as_root setsid nohup dockerd >"$TOOLS/docker/dockerd.log" 2>&1 </dev/null 9>&- &
for _ in $(seq 60); do
  engine_answers && { log "Docker engine ready ($(docker version -f '{{.Server.Version}}'))"; exit 0; }
  sleep 0.5
done
tail -20 "$TOOLS/docker/dockerd.log" >&2
die "dockerd did not answer within 30 s"
