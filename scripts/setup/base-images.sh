#!/usr/bin/env bash
# setup/base-images.sh — the two images the services are built on:
#   acme/jre-base:17    a Java 17 runtime in /opt/java/openjdk
#   acme/node-base:24   Node 24 in /usr/local/bin
# BASE_IMAGES chooses where they come from. `official` pulls eclipse-temurin:17-jre and
# node:24-slim and names them so; `local` builds them from this machine's files, for machines
# that reach no container registry: a plain root filesystem loaded with `docker import`, with
# a jlink'd runtime of the JDK in JAVA_HOME (or JDK_HOME, or the one `javac` is) and the
# project's pinned Node, and a static busybox as /bin/sh so `docker exec` and Testcontainers'
# port checks work. `auto` (the default) takes the official images when a registry answers and
# builds locally when none does. Either way the images have the official layout, so nothing
# downstream knows the difference. An image is made again only when its inputs change: its
# `acme.inputs` label holds their hash.
source "$(dirname "$0")/../lib.sh"
"$ROOT/scripts/setup/docker.sh"

JRE_IMAGE="acme/jre-base:$JAVA_VERSION"
NODE_IMAGE="acme/node-base:${NODE_VERSION%%.*}"
JRE_OFFICIAL="eclipse-temurin:$JAVA_VERSION-jre"
NODE_OFFICIAL="node:${NODE_VERSION%%.*}-slim"
mode="${BASE_IMAGES:-auto}"
[[ "$mode" =~ ^(auto|official|local)$ ]] || die "BASE_IMAGES must be auto, official or local, not $mode"
# What Spring Boot, gRPC/Netty, JDBC drivers and JMX need; java.desktop for java.beans.
JRE_MODULES="java.base,java.desktop,java.instrument,java.logging,java.management,java.naming,java.net.http,java.scripting,java.security.jgss,java.security.sasl,java.sql,java.transaction.xa,java.xml,jdk.crypto.ec,jdk.jfr,jdk.management,jdk.naming.dns,jdk.net,jdk.unsupported,jdk.zipfs"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# busybox_deb — the static busybox from Debian's package, unpacked into $work/busybox.
busybox_deb() {
  [[ -x "$work/busybox/bin/busybox" ]] && return
  (cd "$work" && { apt-get download busybox-static >/dev/null 2>&1 \
    || { as_root apt-get update -q >/dev/null && apt-get download busybox-static >/dev/null; }; }) \
    || die "could not download Debian's busybox-static package"
  dpkg-deb -x "$work"/busybox-static_*.deb "$work/busybox"
}

# new_rootfs DIR — the skeleton every base image shares: /bin/sh (busybox), /tmp, users.
new_rootfs() {
  local dir="$1"
  busybox_deb
  mkdir -p "$dir"/{bin,etc,tmp,lib64,lib/x86_64-linux-gnu,usr/local/bin}
  chmod 1777 "$dir/tmp"
  cp "$work/busybox/bin/busybox" "$dir/bin/busybox"
  for applet in sh cat ls ps grep awk nc wget env sleep kill; do ln -sf busybox "$dir/bin/$applet"; done
  printf 'root:x:0:0:root:/root:/bin/sh\napp:x:1000:1000:app:/app:/bin/sh\n' >"$dir/etc/passwd"
  printf 'root:x:0:\napp:x:1000:\n' >"$dir/etc/group"
  printf 'hosts: files dns\n' >"$dir/etc/nsswitch.conf"
  # Trust the same CAs as the host, for services that call out over TLS.
  [[ -f /etc/ssl/certs/ca-certificates.crt ]] && install -D -m 644 /etc/ssl/certs/ca-certificates.crt "$dir/etc/ssl/certs/ca-certificates.crt"
}

# copy_libs DIR BINARY... — the host's shared libraries the binaries link against, and
# the loader. A library ldd cannot find is an error: the image would fail at run time.
copy_libs() {
  local dir="$1" listing; shift
  # The JVM's own libraries find each other at run time through the launcher; let ldd too.
  listing="$(LD_LIBRARY_PATH="$dir/opt/java/openjdk/lib:$dir/opt/java/openjdk/lib/server" ldd "$@" 2>/dev/null || true)"
  if grep -q 'not found' <<<"$listing"; then
    grep 'not found' <<<"$listing" >&2; die "a base-image binary needs a library this machine lacks"
  fi
  awk '/=> \//{print $3} /^\t\/lib64/{print $1}' <<<"$listing" | grep -v "^$dir" | sort -u | while read -r lib; do
    mkdir -p "$dir$(dirname "$lib")"; cp -L "$lib" "$dir$lib"
  done
}

# up_to_date IMAGE HASH: lib.sh.

# official IMAGE OFFICIAL — IMAGE is OFFICIAL, pulled, unless BASE_IMAGES=local; false when no
# registry answered (an error with BASE_IMAGES=official). The pull runs once, not every time.
official() {
  [[ "$mode" != local ]] || return 1
  up_to_date "$1" "official:$2" && { log "$1 is $2, pulled before"; return 0; }
  if timeout 300 docker pull -q "$2" >/dev/null 2>&1; then
    printf 'FROM %s\nLABEL acme.inputs=official:%s\n' "$2" "$2" | docker build -q -t "$1" - >/dev/null
    log "$1 is $2, pulled"
    return 0
  fi
  [[ "$mode" == auto ]] || die "could not pull $2 (BASE_IMAGES=official)"
  return 1
}

# jdk_home — the JDK whose jlink makes the runtime: JDK_HOME, else JAVA_HOME (what setup-java
# sets on a CI runner), else the one javac on PATH belongs to. It must be a JDK $JAVA_VERSION.
jdk_home() {
  local home="${JDK_HOME:-${JAVA_HOME:-}}"
  if [[ -z "$home" ]] && command -v javac >/dev/null; then
    home="$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  fi
  [[ -x "$home/bin/jlink" ]] || die "no JDK with jlink found: set JAVA_HOME to a JDK $JAVA_VERSION"
  "$home/bin/java" -version 2>&1 | grep -q "version \"$JAVA_VERSION[.\"]" \
    || die "$home is not a JDK $JAVA_VERSION: $("$home/bin/java" -version 2>&1 | head -1)"
  echo "$home"
}

build_jre() {
  official "$JRE_IMAGE" "$JRE_OFFICIAL" && return
  local hash JDK_HOME
  JDK_HOME="$(jdk_home)"
  hash="$(printf '%s\n' "$("$JDK_HOME/bin/java" -version 2>&1)" "$JRE_MODULES" "$(sha256sum <"$0")" | sha256sum | cut -c1-16)"
  up_to_date "$JRE_IMAGE" "$hash" && { log "$JRE_IMAGE is up to date"; return; }
  log "building $JRE_IMAGE (jlink of $JDK_HOME)"
  local root="$work/jre"
  new_rootfs "$root"
  # --generate-cds-archive: the official image's default class-data archive of the JDK's own
  # classes, without which a JVM loads them one by one at every start and no application
  # archive (person-spring's image makes one) can be used.
  "$JDK_HOME/bin/jlink" --add-modules "$JRE_MODULES" --strip-debug --no-man-pages --no-header-files \
    --compress=2 --generate-cds-archive --output "$root/opt/java/openjdk"
  # A server runs headless: drop the native libraries that need X11, ALSA or fonts.
  rm -f "$root"/opt/java/openjdk/lib/{libawt_xawt,libjawt,libsplashscreen,libjsound,libfontmanager}.so
  copy_libs "$root" "$root/opt/java/openjdk/bin/java" "$root"/opt/java/openjdk/lib/*.so "$root"/opt/java/openjdk/lib/server/*.so
  tar -C "$root" -c . | docker import \
    --change 'ENV JAVA_HOME=/opt/java/openjdk' \
    --change 'ENV PATH=/opt/java/openjdk/bin:/usr/local/bin:/usr/bin:/bin' \
    --change "LABEL acme.inputs=$hash" \
    - "$JRE_IMAGE" >/dev/null
}

build_node() {
  official "$NODE_IMAGE" "$NODE_OFFICIAL" && return
  local node="$NODE_HOME/bin/node" hash
  hash="$(printf '%s\n' "$("$node" --version)" "$(sha256sum <"$0")" | sha256sum | cut -c1-16)"
  up_to_date "$NODE_IMAGE" "$hash" && { log "$NODE_IMAGE is up to date"; return; }
  log "building $NODE_IMAGE (Node $("$node" --version))"
  local root="$work/node"
  new_rootfs "$root"
  cp "$node" "$root/usr/local/bin/node"
  copy_libs "$root" "$node"
  tar -C "$root" -c . | docker import \
    --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' \
    --change "LABEL acme.inputs=$hash" \
    - "$NODE_IMAGE" >/dev/null
}

build_jre
build_node
docker image ls --format '{{.Repository}}:{{.Tag}}  {{.Size}}' | grep -E "^(${JRE_IMAGE}|${NODE_IMAGE})  "
