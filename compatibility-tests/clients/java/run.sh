#!/usr/bin/env bash
# run.sh — runs the Java client built by build.sh with the arguments given (see
# compatibility-tests/README.md); JSON lines on stdout, logs on stderr. Builds nothing.
source "$(dirname "$0")/../../../scripts/lib.sh"
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ -f "$dir/target/compat-client-java.jar" ]] || { echo "error: run $dir/build.sh first" >&2; exit 2; }
exec java "${SHORT_JVM[@]}" -cp "$dir/target/compat-client-java.jar:$dir/target/lib/*" com.acme.compat.Main "$@"
