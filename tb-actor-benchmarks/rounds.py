#!/usr/bin/env python3
"""The arithmetic of rounds.sh, which runs it; tested by RoundsScriptTest.

  rounds.py fork JSON ROUND SHAPE PRODUCERS LABEL MAX_NS   one fork's line of results.tsv
  rounds.py table RESULTS                                  the tables of medians and spreads

A line of results.tsv: round, shape, producers, runtime, M msg/s of the iterations that count ('-' if none),
iterations counted/measured, M msg/s of the iterations set aside ('-' if none), and the placement probes of every
iteration (ns before/after; the forks separated by ';'). An iteration counts when both its probes were at most MAX_NS
('off': every iteration counts); the figure is a million messages over the median round of the iterations that count,
of all the forks in JSON (rounds.sh's FORKS, the forks of one runtime in one round).
"""
import collections
import json
import math
import statistics
import sys


def fork_line(json_path, rnd, shape, producers, label, max_ns):
    results = json.load(open(json_path))
    if not results:
        # JMH writes an empty list when the benchmark failed (a round that did not finish, an exception)
        raise SystemExit(f'{json_path}: the fork has no result: it failed (its .log says why)')
    bench = results[0]
    # one list of iterations per fork: FORKS > 1 runs several forks of a runtime in a round, pooled here
    forks = bench['primaryMetric']['rawDataHistogram']
    probes = bench.get('secondaryMetrics', {})
    none = [[None] * len(iterations) for iterations in forks]
    befores = probes.get('placement.before', {}).get('rawData', none)
    afters = probes.get('placement.after', {}).get('rawData', none)
    if max_ns != 'off' and befores[0][0] is None:
        raise SystemExit(f'{json_path}: no placement probes (run the fork with -prof '
                         'io.tbactors.benchmarks.support.PlacementProfiler, or set PLACEMENT_MAX_NS=off)')
    limit = None if max_ns == 'off' else float(max_ns)
    kept, aside, shown, counted, measured = [], [], [], 0, 0
    for iterations, before, after in zip(forks, befores, afters):
        fork_shown = []
        for histogram, x, y in zip(iterations, before, after):
            samples = [value for value, count in histogram for _ in range(count)]
            near = limit is None or (x <= limit and y <= limit)
            counted += near
            (kept if near else aside).extend(samples)
            fork_shown.append('-' if x is None else f'{x:.0f}/{y:.0f}')
        measured += len(iterations)
        shown.append(','.join(fork_shown))
    return '\t'.join([rnd, shape, producers, label, rate(kept), f'{counted}/{measured}', rate(aside),
                      ';'.join(shown)])


def rate(samples_ms):
    """M msg/s of a round of a million messages taking the median sample (ms)."""
    return f'{1000 / statistics.median(samples_ms):.3f}' if samples_ms else '-'


KNOWN = ('tb', 'tb-padded', 'tb-base', 'tborig', 'pekko', 'limit')


def without_common_speed(rows, order, by_round):
    """The spread of each runtime once what its round's runtimes had in common is taken out: in each round where every
    runtime of the row counted, each figure over the geometric mean of the runtimes' figures (the limit left out, it is
    no runtime). The machine's speed drifts between rounds (its host's other work) and every runtime of a round meets
    it alike; what stays is each runtime's own spread."""
    runtimes = [l for l in order if l != 'limit']
    if len(runtimes) < 2:
        return []
    out = ['', "Spread without the round's common speed (each figure over the geometric mean of its round's runtimes, "
                'the limit left out; n = rounds where every runtime counted)',
           '| row | ' + ' | '.join(runtimes) + ' |', '| --- ' * (1 + len(runtimes)) + '|']
    for s, p in rows:
        rounds = [r for r in by_round[(s, p)].values() if all(l in r for l in runtimes)]
        common = [math.exp(statistics.mean(math.log(r[l]) for l in runtimes)) for r in rounds]
        cells = []
        for l in runtimes:
            relative = [r[l] / speed for r, speed in zip(rounds, common)]
            cells.append('-' if len(relative) < 2 else f'{max(relative) / min(relative):.2f}x (n={len(relative)})')
        out.append(f'| {s}, {p}p | ' + ' | '.join(cells) + ' |')
    return out


def table(results_path):
    runs = collections.defaultdict(list)
    by_round = collections.defaultdict(dict)
    aside = collections.defaultdict(list)
    iterations = collections.defaultdict(lambda: [0, 0])
    labels = []
    for line in open(results_path):
        cols = line.rstrip('\n').split('\t')
        rnd, shape, p, label, mps = cols[:5]
        key = (shape, p, label)
        if mps != '-':
            runs[key].append(float(mps))
            by_round[(shape, p)].setdefault(rnd, {})[label] = float(mps)
        if len(cols) >= 7:
            counted, measured = map(int, cols[5].split('/'))
            iterations[label][0] += counted
            iterations[label][1] += measured
            if cols[6] != '-':
                aside[key].append(float(cols[6]))
        if label not in labels:
            labels.append(label)
    out = []
    order = [l for l in KNOWN if l in labels] + [l for l in labels if l not in KNOWN]
    # ours against every other runtime; ours padded against the runtimes that are not ours
    pairs = [('tb', l) for l in order if l != 'tb']
    if 'tb-padded' in order:
        pairs += [('tb-padded', l) for l in order if l in ('tborig', 'pekko')]
    rows = sorted({(s, p) for s, p, _ in list(runs) + list(aside)}, key=lambda k: (int(k[0].split('x')[0]), k[1]))
    med = {k: statistics.median(v) for k, v in runs.items()}
    out.append('M msg/s, median of the rounds (spread = max/min over the rounds, n = rounds)')
    out.append('| row | ' + ' | '.join(order) + ' | ' + ' | '.join(f'{a} / {b}' for a, b in pairs) + ' |')
    out.append('| --- ' * (1 + len(order) + len(pairs)) + '|')
    for s, p in rows:
        cells = []
        for l in order:
            v = runs.get((s, p, l))
            cells.append('-' if not v else f'{med[(s, p, l)]:.2f} ({max(v) / min(v):.2f}x, n={len(v)})')
        ratios = []
        for x, y in pairs:
            a, b = med.get((s, p, x)), med.get((s, p, y))
            ratios.append('-' if not a or not b else f'{a / b:.2f}x')
        out.append(f'| {s}, {p}p | ' + ' | '.join(cells) + ' | ' + ' | '.join(ratios) + ' |')
    if 'limit' in order:
        out.append('')
        out.append("Share of the limit (median / the limit's median)")
        out.append('| row | ' + ' | '.join(l for l in order if l != 'limit') + ' |')
        out.append('| --- ' * len(order) + '|')
        for s, p in rows:
            lim = med.get((s, p, 'limit'))
            out.append(f'| {s}, {p}p | ' + ' | '.join(
                '-' if not lim or (s, p, l) not in med else f'{med[(s, p, l)] / lim:.2f}'
                for l in order if l != 'limit') + ' |')
    out.extend(without_common_speed(rows, order, by_round))
    if iterations:
        out.append('')
        out.append('Iterations counted (both placement probes within the bound) / measured: ' + ', '.join(
            f'{l} {iterations[l][0]}/{iterations[l][1]}' for l in order if l in iterations))
    if aside:
        out.append('')
        out.append('M msg/s of the iterations set aside (the CPUs far apart), median over the forks that had any '
                   '(n = forks); for what the placement does, not for comparison')
        out.append('| row | ' + ' | '.join(order) + ' |')
        out.append('| --- ' * (1 + len(order)) + '|')
        for s, p in rows:
            out.append(f'| {s}, {p}p | ' + ' | '.join(
                '-' if (s, p, l) not in aside else f'{statistics.median(aside[(s, p, l)]):.2f} (n={len(aside[(s, p, l)])})'
                for l in order) + ' |')
    return '\n'.join(out)


if __name__ == '__main__':
    if len(sys.argv) == 8 and sys.argv[1] == 'fork':
        print(fork_line(*sys.argv[2:]))
    elif len(sys.argv) == 3 and sys.argv[1] == 'table':
        print(table(sys.argv[2]))
    else:
        raise SystemExit(__doc__)
