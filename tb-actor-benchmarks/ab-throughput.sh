#!/usr/bin/env bash
# Focused A/B of our runtime's throughput: runs ThroughputBenchmark (impl=tb) with each benchmarks jar in turn,
# ROUNDS times, alternating, and prints M msg/s from the median round per shape and producer count.
# Usage: tb-actor-benchmarks/ab-throughput.sh ROUNDS base.jar variant.jar [...]
# SHAPES (default 1x1000000,10x100000,1000x1000) picks the shapes; JMH's JSON and log go to OUT (default /tmp/tb-ab);
# JMH_ARGS adds JMH options (for 100000x10 give "-wi 40", the warm-up the report's runner gives that shape);
# FORK_FLAGS the forks' JVM flags (default ThroughputBenchmark.FORK_FLAGS, given to every jar alike).
set -euo pipefail
if [ $# -lt 2 ]; then
  echo "usage: $0 ROUNDS JAR [JAR...]  (ROUNDS >= 1; each JAR a benchmarks.jar built from tb-actor-benchmarks)" >&2
  exit 2
fi
rounds=$1; shift
case "$rounds" in ''|*[!0-9]*) echo "ROUNDS must be a positive whole number, got '$rounds'" >&2; exit 2;; esac
shapes=${SHAPES:-1x1000000,10x100000,1000x1000}
out=${OUT:-/tmp/tb-ab}
fork_flags=${FORK_FLAGS:-"-Xms2g -Xmx2g -Xmn1g -XX:+AlwaysPreTouch -XX:+UseG1GC"}
mkdir -p "$out"
for jar in "$@"; do
  [ -f "$jar" ] || { echo "no such jar: $jar" >&2; exit 2; }
done
for r in $(seq 1 "$rounds"); do
  for jar in "$@"; do
    name=$(basename "$jar" .jar)
    # shellcheck disable=SC2086 # JMH_ARGS is a list of options
    java -cp "$jar" org.openjdk.jmh.Main ThroughputBenchmark -p impl=tb -p shape="$shapes" -jvmArgsAppend "$fork_flags" ${JMH_ARGS:-} \
      -rf json -rff "$out/$name-$r.json" > "$out/$name-$r.log" 2>&1
    python3 - "$out/$name-$r.json" "$name" "$r" <<'PY'
import json, sys
rows = []
for b in json.load(open(sys.argv[1])):
    p = b['params']
    rows.append(f"{p['shape']}/{p['producers']}p={1000 / b['primaryMetric']['scorePercentiles']['50.0']:.1f}")
print(sys.argv[3], sys.argv[2], ' '.join(rows), flush=True)
PY
  done
done
