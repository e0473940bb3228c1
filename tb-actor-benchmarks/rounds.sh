#!/usr/bin/env bash
# rounds.sh [ROUNDS]: the throughput rows as ROUNDS (default 5) interleaved rounds. A round runs every row once, and
# inside a row every runtime once (one JMH fork each, in an order rotated from round to round), so the runtimes of a
# row meet the same background load; the table printed at the end gives, per row and runtime, the median of the
# rounds in M msg/s with its spread (max/min over the rounds) beside it, then ours against each other runtime,
# each runtime's share of the limit, and each runtime's spread once the speed every runtime of a round met alike (the
# machine's drift between rounds) is taken out. Run from the project root after building the jar:
#   ./mvnw -B -q package -DskipTests -pl tb-actor-benchmarks -am && tb-actor-benchmarks/rounds.sh 5
# Environment:
#   JAR        the benchmarks jar (default tb-actor-benchmarks/target/benchmarks.jar): runtimes tb, tb-padded (ours with
#              the dispatcher's padded mailboxes), pekko, limit
#   ORIG_JAR   a jar built by ../shared/tb-original-bench/run: adds ThingsBoard's original runtime (tborig)
#   BASE_JAR   a jar of an earlier build of ours: adds it as tb-base (a change's effect, in the same rounds)
#   IMPLS      which of JAR's runtimes to run (default tb,tb-padded,pekko,limit)
#   SHAPES     actors x messages (default 1x1000000,10x100000,1000x1000,100000x10); PRODUCERS (default 1,2)
#   OUT        where JMH's JSON and logs and results.tsv go (default /tmp/tb-rounds; results.tsv is appended to,
#              so a run can be continued, and summarized again with SUMMARY_ONLY=1). A fork that fails (a round that
#              does not finish, an exception) is listed in failed.txt there and the run goes on; it then exits 1
#              after the table, with the list
#   WARMUP, ITERATIONS  JMH's warm-up and measurement iterations of 1 s per fork (default 3 and 5)
#   FORKS      forks of each runtime in each round, back to back (default 1); a round's figure pools their counted
#              iterations. Forks of a row differ from each other more than the spread of one fork's iterations
#              explains, so a second fork narrows the rounds' spread more than more iterations do
#              (BENCHMARKS.md, "Two forks a round"; the current table runs three, "Three forks a round")
#   MANY_ACTORS_WARMUP  warm-up iterations of the 100000x10 rows (default 40, Shape.MANY_ACTORS_WARMUP_ITERATIONS)
#   JMH_ARGS   more JMH options for every fork
#   PLACEMENT_MAX_NS  an iteration counts only when a cache line's round trip between the two CPUs, probed right before
#              and right after it (PlacementProfiler, from JAR, added to every fork), was at most this many ns (default
#              150): the host moves the virtual CPUs, and while they are far apart (about 300 ns on the benchmark
#              machine, against 65) a row runs up to 2x slower, or for some runtimes faster. A fork where none counts is run
#              again, up to PLACEMENT_RETRIES times (default 3). PLACEMENT_MAX_NS=off counts every iteration.
#   FORK_FLAGS the JVM flags of every fork (default: ThroughputBenchmark.FORK_FLAGS, a fixed heap written in full
#              before the first round). Passed explicitly so that a jar built from other sources (ORIG_JAR, BASE_JAR)
#              runs with the same heap as ours; JMH's -jvmArgsAppend replaces the benchmark's own @Fork flags.
set -euo pipefail
rounds=${1:-5}
case "$rounds" in ''|*[!0-9]*|0) echo "ROUNDS must be a positive whole number, got '$rounds'" >&2; exit 2;; esac
here=$(cd "$(dirname "$0")" && pwd)
jar=${JAR:-$here/target/benchmarks.jar}
out=${OUT:-/tmp/tb-rounds}
fork_flags=${FORK_FLAGS:-"-Xms2g -Xmx2g -Xmn1g -XX:+AlwaysPreTouch -XX:+UseG1GC"}
shapes=${SHAPES:-1x1000000,10x100000,1000x1000,100000x10}
placement=${PLACEMENT_MAX_NS:-150}
case "$placement" in off) ;; ''|*[!0-9]*|0) echo "PLACEMENT_MAX_NS must be a positive number of ns or off, got '$placement'" >&2; exit 2;; esac
retries=${PLACEMENT_RETRIES:-3}
forks=${FORKS:-1}
case "$forks" in ''|*[!0-9]*|0) echo "FORKS must be a positive whole number, got '$forks'" >&2; exit 2;; esac
case "$retries" in ''|*[!0-9]*) echo "PLACEMENT_RETRIES must be a whole number, got '$retries'" >&2; exit 2;; esac
prof=(-prof io.tbactors.benchmarks.support.PlacementProfiler)
[ "$placement" = off ] && prof=()
producers=${PRODUCERS:-1,2}
mkdir -p "$out"
results="$out/results.tsv"
failed="$out/failed.txt"

# label|jar|impl for every runtime of a row
runtimes=()
IFS=, read -r -a impls <<< "${IMPLS:-tb,tb-padded,pekko,limit}"
for impl in "${impls[@]}"; do runtimes+=("$impl|$jar|$impl"); done
[ -n "${ORIG_JAR:-}" ] && runtimes+=("tborig|$ORIG_JAR|tborig")
[ -n "${BASE_JAR:-}" ] && runtimes+=("tb-base|$BASE_JAR|tb")
for rt in "${runtimes[@]}"; do
  j=$(echo "$rt" | cut -d'|' -f2)
  [ -f "$j" ] || { echo "no such jar: $j (build it first, see the header of $0)" >&2; exit 2; }
done

if [ -z "${SUMMARY_ONLY:-}" ]; then
  echo "load before: $(uptime)" | tee -a "$out/load.txt"
  IFS=, read -r -a shape_list <<< "$shapes"
  IFS=, read -r -a producer_list <<< "$producers"
  n=${#runtimes[@]}
  for r in $(seq 1 "$rounds"); do
    for shape in "${shape_list[@]}"; do
      # the 100K-actor rows speed up while G1 settles: the report's runner warms them 40 s too
      wi=(-wi "${WARMUP:-3}" -i "${ITERATIONS:-5}")
      [ "$shape" = "100000x10" ] && wi=(-wi "${MANY_ACTORS_WARMUP:-40}" -i "${ITERATIONS:-5}")
      for p in "${producer_list[@]}"; do
        for k in $(seq 0 $((n - 1))); do
          rt=${runtimes[$(((k + r) % n))]}
          IFS='|' read -r label j impl <<< "$rt"
          f="$out/r$r-$label-$shape-${p}p"
          for try in $(seq 0 "$retries"); do
            # another JMH run on this machine holds JMH's lock: wait for it rather than measure beside it
            for attempt in $(seq 1 120); do
              # JAR after the runtime's jar: the placement probe for a jar built from other sources
              # shellcheck disable=SC2086 # JMH_ARGS is a list of options
              if java -cp "$j:$jar" org.openjdk.jmh.Main ThroughputBenchmark -p impl="$impl" -p shape="$shape" -p producers="$p" \
                  -f "$forks" -jvmArgsAppend "$fork_flags" "${wi[@]}" "${prof[@]}" ${JMH_ARGS:-} -rf json -rff "$f.json" > "$f.log" 2>&1; then break; fi
              grep -q "Unable to acquire the JMH lock" "$f.log" || break
              sleep 10
            done
            # a fork that failed is recorded and the table goes on; the run ends with exit 1 and the list
            if [ ! -s "$f.json" ] || ! line=$(python3 "$here/rounds.py" fork "$f.json" "$r" "$shape" "$p" "$label" "$placement"); then
              why=$(grep -m1 -E 'Exception|Error' "$f.log" || echo "no result")
              echo "round $r, $shape, ${p}p, $label: $why (log: $f.log)" | tee -a "$failed" >&2
              break
            fi
            echo "$line" >> "$results"
            echo "$line"
            [ "$(echo "$line" | cut -f5)" != "-" ] && break
            [ "$try" -lt "$retries" ] && echo "no iteration with the CPUs near each other: running the fork again" >&2
          done
        done
      done
    done
  done
  echo "load after: $(uptime)" | tee -a "$out/load.txt"
fi

[ -s "$results" ] || { echo "no results in $results" >&2; exit 1; }
python3 "$here/rounds.py" table "$results"
if [ -s "$failed" ]; then
  echo; echo "Forks that failed (their cells have fewer rounds, or none):"; cat "$failed"
  exit 1
fi
