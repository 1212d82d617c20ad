#!/usr/bin/env bash
# setup/chromium.sh — make sure Debian's Chromium is installed (the browser suites drive it
# with Playwright; Playwright's own browser downloads cannot be fetched here) and print its
# path. Installed with apt when missing (as root, or through sudo), like the Docker engine and
# PostgreSQL. Debian's security updates replace Chromium's version, so it is not pinned: the
# suites need at least CHROMIUM_MIN_MAJOR (versions.env), checked here.
source "$(dirname "$0")/../lib.sh"
chromium="${CHROMIUM:-/usr/bin/chromium}"

if [[ ! -x "$chromium" ]]; then
  log "installing Debian's chromium package (the browser suites run it headless)"
  apt_install chromium || die "could not install Debian's chromium package"
fi
version="$("$chromium" --version 2>/dev/null | grep -oE '[0-9]+(\.[0-9]+)+' | head -1)"
[[ -n "$version" ]] || die "$chromium --version printed no version"
((${version%%.*} >= CHROMIUM_MIN_MAJOR)) || die "Chromium $version is older than $CHROMIUM_MIN_MAJOR (versions.env)"
echo "$chromium"
