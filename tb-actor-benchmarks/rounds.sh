#!/usr/bin/env bash
# rounds.sh [ROUNDS]: the throughput rows as ROUNDS (default 5) interleaved rounds. A round runs every row once, and
# inside a row every runtime once (one JMH fork each, in an order rotated from round to round), so the runtimes of a
# row meet the same background load; the table printed at the end gives, per row and runtime, the median of the
# rounds in M msg/s with its spread (max/min over the rounds) beside it, then ours against each other runtime and
# each runtime's share of the limit. Run from the project root after building the jar:
#   ./mvnw -B -q package -DskipTests -pl tb-actor-benchmarks -am && tb-actor-benchmarks/rounds.sh 5
# Environment:
#   JAR        the benchmarks jar (default tb-actor-benchmarks/target/benchmarks.jar): runtimes tb, tb-padded (ours with
#              the dispatcher's padded mailboxes), pekko, limit
#   ORIG_JAR   a jar built by ../shared/tb-original-bench/run: adds ThingsBoard's original runtime (tborig)
#   BASE_JAR   a jar of an earlier build of ours: adds it as tb-base (a change's effect, in the same rounds)
#   IMPLS      which of JAR's runtimes to run (default tb,tb-padded,pekko,limit)
#   SHAPES     actors x messages (default 1x1000000,10x100000,1000x1000,100000x10); PRODUCERS (default 1,2)
#   OUT        where JMH's JSON and logs and results.tsv go (default /tmp/tb-rounds; results.tsv is appended to,
#              so a run can be continued, and summarized again with SUMMARY_ONLY=1)
#   WARMUP, ITERATIONS  JMH's warm-up and measurement iterations of 1 s per fork (default 3 and 5)
#   MANY_ACTORS_WARMUP  warm-up iterations of the 100000x10 rows (default 40, Shape.MANY_ACTORS_WARMUP_ITERATIONS)
#   JMH_ARGS   more JMH options for every fork
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
producers=${PRODUCERS:-1,2}
mkdir -p "$out"
results="$out/results.tsv"

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
          # another JMH run on this machine holds JMH's lock: wait for it rather than measure beside it
          for attempt in $(seq 1 120); do
            # shellcheck disable=SC2086 # JMH_ARGS is a list of options
            if java -cp "$j" org.openjdk.jmh.Main ThroughputBenchmark -p impl="$impl" -p shape="$shape" -p producers="$p" \
                -jvmArgsAppend "$fork_flags" "${wi[@]}" ${JMH_ARGS:-} -rf json -rff "$f.json" > "$f.log" 2>&1; then break; fi
            grep -q "Unable to acquire the JMH lock" "$f.log" || break
            sleep 10
          done
          [ -s "$f.json" ] || { echo "failed: $f.log" >&2; continue; }
          python3 - "$f.json" "$r" "$shape" "$p" "$label" >> "$results" <<'PY'
import json, sys
b = json.load(open(sys.argv[1]))[0]
print(sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5],
      f"{1000 / b['primaryMetric']['scorePercentiles']['50.0']:.3f}", sep='\t')
PY
          tail -1 "$results"
        done
      done
    done
  done
  echo "load after: $(uptime)" | tee -a "$out/load.txt"
fi

[ -s "$results" ] || { echo "no results in $results" >&2; exit 1; }
python3 - "$results" <<'PY'
import collections, statistics, sys
runs = collections.defaultdict(list)
labels = []
for line in open(sys.argv[1]):
    r, shape, p, label, mps = line.split('\t')
    runs[(shape, p, label)].append(float(mps))
    if label not in labels:
        labels.append(label)
known = ('tb', 'tb-padded', 'tb-base', 'tborig', 'pekko', 'limit')
order = [l for l in known if l in labels] + [l for l in labels if l not in known]
# ours against every other runtime; ours padded against the runtimes that are not ours
pairs = [('tb', l) for l in order if l != 'tb']
if 'tb-padded' in order:
    pairs += [('tb-padded', l) for l in order if l in ('tborig', 'pekko')]
rows = sorted({(s, p) for s, p, _ in runs}, key=lambda k: (int(k[0].split('x')[0]), k[1]))
med = {k: statistics.median(v) for k, v in runs.items()}
print("M msg/s, median of the rounds (spread = max/min over the rounds, n = rounds)")
print('| row | ' + ' | '.join(order) + ' | ' + ' | '.join(f'{a} / {b}' for a, b in pairs) + ' |')
print('| --- ' * (1 + len(order) + len(pairs)) + '|')
for s, p in rows:
    cells = []
    for l in order:
        v = runs.get((s, p, l))
        cells.append('-' if not v else f'{med[(s, p, l)]:.2f} ({max(v) / min(v):.2f}x, n={len(v)})')
    ratios = []
    for x, y in pairs:
        a, b = med.get((s, p, x)), med.get((s, p, y))
        ratios.append('-' if not a or not b else f'{a / b:.2f}x')
    print(f'| {s}, {p}p | ' + ' | '.join(cells) + ' | ' + ' | '.join(ratios) + ' |')
if 'limit' in order:
    print()
    print("Share of the limit (median / the limit's median)")
    print('| row | ' + ' | '.join(l for l in order if l != 'limit') + ' |')
    print('| --- ' * len(order) + '|')
    for s, p in rows:
        lim = med.get((s, p, 'limit'))
        print(f'| {s}, {p}p | ' + ' | '.join('-' if not lim or (s, p, l) not in med else f'{med[(s, p, l)] / lim:.2f}'
                                               for l in order if l != 'limit') + ' |')
PY
