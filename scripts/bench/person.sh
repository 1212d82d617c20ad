#!/usr/bin/env bash
# bench/person.sh — person-spring's JMH benchmarks in one command: builds the benchmarks
# module (root reactor, -Pbench), runs JMH with its GC profiler and prints the table of ns/op
# and B/op (± error), the encoded sizes, and PASS/MISS for the mapping targets
# (bench-person-table.py states each).
# Then the memory evidence for RegisterPeople: BENCH_PEOPLE (1,000,000) people through one
# stream into H2 on disk and into a throwaway PostgreSQL, in a JVM with a 128 MB heap.
# Settings (env): BENCH_FORKS (3: one JVM's JIT decisions are not another's, and one fork
# gave errors up to ±80 %), BENCH_WARMUPS (5), BENCH_ITERATIONS (5), each iteration and
# warm-up 1 s; BENCH_FILTER (a JMH regexp, default the mappers and the encoders the targets
# compare); BENCH_PEOPLE; BENCH_MEMORY=0 skips the memory run. The table flags every figure
# whose error is 10 % or more. About 12 minutes on 2 cores.
source "$(dirname "$0")/../lib.sh"
source "$ROOT/scripts/services/lib-postgres.sh"
cd "$ROOT"
module=services/person-spring/benchmarks
out="$ROOT/$module/target"

"$ROOT/scripts/sdk/java.sh" build >/dev/null
"${MVN[@]}" -q -Pbench -pl "$module" -am package \
  "org.apache.maven.plugins:maven-dependency-plugin:$MAVEN_DEPENDENCY_PLUGIN_VERSION:build-classpath" \
  -Dmdep.outputFile=target/classpath.txt -DskipTests
cp="$out/classes:$(cat "$out/classpath.txt")"

java -cp "$cp" com.acme.person.bench.EncodedSizes >"$out/sizes.txt"
filter='MappingBenchmark\.(handToProto|mapstructToProto|handFromProto|mapstructFromProto|protoEncode|jsonEncode|mapAndProtoEncode)$'
java -cp "$cp" org.openjdk.jmh.Main "${BENCH_FILTER:-$filter}" \
  -f "${BENCH_FORKS:-3}" -wi "${BENCH_WARMUPS:-5}" -w 1s -i "${BENCH_ITERATIONS:-5}" -r 1s \
  -prof gc -rf json -rff "$out/jmh.json" >"$out/jmh.log"
python3 "$ROOT/scripts/bench/person-table.py" "$out/jmh.json" "$out/sizes.txt" | tee "$out/table.md"

[[ "${BENCH_MEMORY:-1}" == 1 ]] || exit 0
people="${BENCH_PEOPLE:-1000000}"
memory() { java -Xmx128m -cp "$cp" com.acme.person.bench.RegisterMillionPeople "$people" "$1" 2>"$out/memory-$2.log" | grep '^|'; }
start_throwaway_postgres
{
  echo
  echo "RegisterPeople, one stream, JVM heap limited to 128 MB (service and client in one JVM):"
  echo
  echo "| database | people sent | stored | time | people/s | max heap after GC | heap limit | GCs |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  memory "H2 (file)" h2
  DB_URL="$PG_JDBC_URL" DB_USER="$PG_USER" DB_PASSWORD="$PG_PASSWORD" memory "PostgreSQL 15" postgres
} | tee -a "$out/table.md"
