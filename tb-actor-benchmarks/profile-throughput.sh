#!/usr/bin/env bash
# Where one throughput scenario spends its CPU, by thread and by method: runs ThroughputBenchmark for one
# implementation, shape and producer count in a JVM that writes a perf map, samples that JVM with `perf record`
# (software clock events, which work in a virtual machine) while it measures, and prints the median round as JMH
# reports it, then perf's split by thread and by thread and symbol.
# Usage: tb-actor-benchmarks/profile-throughput.sh JAR IMPL SHAPE PRODUCERS [OUT]
#   JAR        a benchmarks.jar built from tb-actor-benchmarks (the harness's jar knows IMPL tborig as well)
#   IMPL       tb, pekko, limit (and tborig with the harness's jar)
#   SHAPE      ACTORSxMESSAGES, for example 100000x10
#   PRODUCERS  1 or 2
#   OUT        where the JMH log and perf's data go (default /tmp/tb-profile)
# Needs perf (Debian package linux-perf) and perf_event_paranoid at most 2 (sampling one's own processes).
set -euo pipefail
if [ $# -lt 4 ]; then
  echo "usage: $0 JAR IMPL SHAPE PRODUCERS [OUT]  (for example: $0 tb-actor-benchmarks/target/benchmarks.jar tb 100000x10 2)" >&2
  exit 2
fi
jar=$1 impl=$2 shape=$3 producers=$4 out=${5:-/tmp/tb-profile}
[ -f "$jar" ] || { echo "no such jar: $jar" >&2; exit 2; }
[[ "$shape" =~ ^[0-9]+x[0-9]+$ ]] || { echo "SHAPE must be ACTORSxMESSAGES (for example 100000x10), got '$shape'" >&2; exit 2; }
case "$producers" in 1|2) ;; *) echo "PRODUCERS must be 1 or 2, got '$producers'" >&2; exit 2;; esac
command -v perf > /dev/null || { echo "perf is not installed (Debian: apt-get install linux-perf)" >&2; exit 2; }
mkdir -p "$out"
tag="$impl-$shape-${producers}p"
log="$out/$tag.log"
data="$out/$tag.perf.data"
# 3 warm-up iterations of 1 s (40 for 100K actors or more, as the report's runner gives them: G1 needs that long to
# settle; keep in step with ThroughputBenchmark.WARMUP_ITERATIONS and Shape.MANY_ACTORS_WARMUP_ITERATIONS) and 8
# measurement iterations: perf samples 6 s of the measurement. JMH's -jvmArgsAppend replaces the benchmark's own
# @Fork(jvmArgsAppend), so its heap and collector flags are repeated here.
warmup=3
[ "${shape%%x*}" -ge 100000 ] && warmup=40
java -cp "$jar" org.openjdk.jmh.Main ThroughputBenchmark -p impl="$impl" -p shape="$shape" -p producers="$producers" \
  -wi "$warmup" -i 8 -jvmArgsAppend "-Xms2g -Xmx2g -Xmn1g -XX:+AlwaysPreTouch -XX:+UseG1GC -XX:+UnlockDiagnosticVMOptions -XX:+DumpPerfMapAtExit -XX:+PreserveFramePointer" \
  > "$log" 2>&1 &
jmh=$!
pid=
for _ in $(seq 1 60); do
  pid=$(pgrep -f -n 'org.openjdk.jmh.runner.ForkedMain' || true)
  [ -n "$pid" ] && break
  sleep 0.5
done
[ -n "$pid" ] || { echo "the benchmark's forked JVM did not start; see $log" >&2; kill "$jmh" 2>/dev/null; exit 1; }
# the fork writes its whole heap first (-XX:+AlwaysPreTouch, seconds on a VM), then warms up: sample once the first
# measurement iteration has begun
for _ in $(seq 1 600); do
  grep -q '^Iteration   1' "$log" && break
  kill -0 "$jmh" 2>/dev/null || { echo "the benchmark ended before measuring; see $log" >&2; exit 1; }
  sleep 0.5
done
echo "sampling the benchmark's JVM (pid $pid) for 6 s of its measurement, after $warmup warm-up iterations"
# perf may end by a signal once its 6 s are over (bash then prints "Terminated"); what counts is the data it wrote
perf record -F 1999 -e cpu-clock -p "$pid" -o "$data" -- sleep 6 > "$out/$tag.perf.log" 2>&1 || true
[ -s "$data" ] || { echo "perf wrote no samples; see $out/$tag.perf.log" >&2; exit 1; }
wait "$jmh" || { echo "the benchmark failed; see $log" >&2; exit 1; }
grep -E 'pushAndProcessAll:p0.50' "$log" || { echo "no median in $log" >&2; exit 1; }
echo "--- samples by thread"
perf report -i "$data" --no-children --sort comm 2>/dev/null | grep -v '^#' | grep -v '^$' | head -12
echo "--- samples by thread and symbol"
perf report -i "$data" --no-children --sort comm,sym 2>/dev/null | grep -v '^#' | grep -v '^$' | head -30
