#!/usr/bin/env python3
"""Where a running JVM's threads spend a window of time, read from /proc (nothing attached to the JVM).

Usage: python3 sample-iot-app/thread-cpu.py PID SECONDS

Prints, per group of threads (numbered threads of one pool summed), the share of one core each group ran, and for each
thread of the write-behind queues, the rule dispatcher and the collector's workers how the window split between
running, waiting for a core (runnable) and off the cores (blocked, sleeping, or stopped in a safepoint such as a GC
pause). BENCHMARKS.md quotes it for the device API's bodies phase.
"""
import collections
import os
import re
import sys
import time


def snapshot(pid):
    threads = {}
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            name = open(f'/proc/{pid}/task/{tid}/comm').read().strip()
            stat = open(f'/proc/{pid}/task/{tid}/stat').read()
            running, waiting, _ = open(f'/proc/{pid}/task/{tid}/schedstat').read().split()
        except (OSError, ValueError):
            continue
        fields = stat[stat.rindex(')') + 2:].split()
        threads[tid] = (name, int(fields[11]) + int(fields[12]), int(running), int(waiting))
    return threads


def main():
    if len(sys.argv) != 3 or not sys.argv[1].isdigit():
        sys.exit('usage: thread-cpu.py PID SECONDS (a running process id and a window of at least 1 second)')
    pid, seconds = sys.argv[1], float(sys.argv[2])
    if seconds < 1:
        sys.exit('SECONDS must be at least 1, got ' + sys.argv[2])
    ticks = os.sysconf('SC_CLK_TCK')
    before = snapshot(pid)
    time.sleep(seconds)
    after = snapshot(pid)
    groups = collections.Counter()
    for tid, (name, cpu, _, _) in after.items():
        group = re.sub(r'[0-9#]+$', '', re.sub(r'exec-\d+', 'exec', name))
        groups[group] += cpu - before.get(tid, (name, 0, 0, 0))[1]
    print('total %.1f%% of one core' % (100.0 * sum(groups.values()) / ticks / seconds))
    for group, cpu in groups.most_common(16):
        print('%-28s %6.1f%%' % (group, 100.0 * cpu / ticks / seconds))
    print()
    for tid, (name, _, running, waiting) in sorted(after.items(), key=lambda item: item[1][0]):
        if name.startswith(('write-behind', 'rule-', 'GC Thread')):
            _, _, running0, waiting0 = before.get(tid, (name, 0, 0, 0))
            run = (running - running0) / seconds / 1e7
            wait = (waiting - waiting0) / seconds / 1e7
            print('%-20s running %5.1f%%  waiting for a core %5.1f%%  off the cores %5.1f%%' % (name, run, wait, 100 - run - wait))


if __name__ == '__main__':
    main()
