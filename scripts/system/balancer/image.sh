#!/usr/bin/env bash
# system/balancer/image.sh — the balancer's image, acme/balancer:$ACME_IMAGE_TAG: Debian's
# haproxy (HAPROXY_VERSION, versions.env; installed on this machine with apt when missing) and
# the shared libraries it links, on the project's base image (make base-images). Built again
# only when the binary, its libraries or this folder change (the image's acme.inputs label).
source "$(dirname "$0")/../../lib.sh"
here="$ROOT/scripts/system/balancer"
image="$BALANCER_IMAGE"
base="${BASE_IMAGE:-acme/jre-base:$JAVA_VERSION}"

installed() { dpkg-query -W -f '${Version}' haproxy 2>/dev/null || true; }
if [[ "$(installed)" != "$HAPROXY_VERSION"-* ]]; then
  log "installing Debian's haproxy $HAPROXY_VERSION"
  candidate="$(apt-cache madison haproxy 2>/dev/null | awk -v v="$HAPROXY_VERSION-" 'index($3, v) == 1 {print $3; exit}')"
  [[ -n "$candidate" ]] || { as_root apt-get update -q >/dev/null; candidate="$(apt-cache madison haproxy | awk -v v="$HAPROXY_VERSION-" 'index($3, v) == 1 {print $3; exit}')"; }
  [[ -n "$candidate" ]] || die "Debian offers no haproxy $HAPROXY_VERSION (apt-cache madison haproxy)"
  # The package's own service is not wanted here: only its binary goes into the image.
  apt_install "haproxy=$candidate" || die "could not install haproxy=$candidate"
fi
binary=/usr/sbin/haproxy
version="$("$binary" -v)" version="${version%%$'\n'*}"
[[ "$version" == *"version $HAPROXY_VERSION-"* ]] || die "$binary is not HAProxy $HAPROXY_VERSION: $version"

[[ "$base" != acme/* ]] || "$ROOT/scripts/setup/base-images.sh" >/dev/null
libs="$(ldd "$binary" | awk '/=> \//{print $3} /^\t\/lib64/{print $1}' | sort -u)"
hash="$(printf '%s\n' "$base" "$(docker image inspect -f '{{.Id}}' "$base")" "$(installed)" \
  $(sha256sum "$binary" $libs "$here"/Dockerfile "$0" | awk '{print $1}') | sha256sum | cut -c1-16)"
up_to_date "$image" "$hash" && exit 0

log "building $image (haproxy $(installed) on $base)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/rootfs/usr/sbin" "$work/rootfs/etc/haproxy"
cp "$binary" "$work/rootfs/usr/sbin/haproxy"
for lib in $libs; do mkdir -p "$work/rootfs$(dirname "$lib")"; cp -L "$lib" "$work/rootfs$lib"; done
cp "$here/Dockerfile" "$work/"
docker build -q --build-arg BASE_IMAGE="$base" --label "acme.inputs=$hash" \
  --label "acme.haproxy=$(installed)" -t "$image" "$work" >/dev/null
log "$image: $(docker run --rm --entrypoint /usr/sbin/haproxy "$image" -v | awk 'NR == 1')"
