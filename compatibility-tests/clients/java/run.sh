#!/usr/bin/env bash
# run.sh — runs the Java client built by build.sh with the arguments given (see
# compatibility-tests/README.md); JSON lines on stdout, logs on stderr. Builds nothing.
set -euo pipefail
dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
[[ -f "$dir/target/compat-client-java.jar" ]] || { echo "error: run $dir/build.sh first" >&2; exit 2; }
# The client compiler only: a test client lives for one run (scripts/lib.sh, SHORT_JVM).
exec java -XX:TieredStopAtLevel=1 -cp "$dir/target/compat-client-java.jar:$dir/target/lib/*" com.acme.compat.Main "$@"
