#!/usr/bin/env python3
"""Per device, where a traced factorization's time goes: trace_dense's TRACE_EVENTS file (one line
per command: queue in creation order, start and end in ms, then (files from 2026-11-30 on) the
enqueue time, then the name; '# name' starts a run).
Queues 2p and 2p+1 are device p's compute and transfer queues (the library makes them in that
order). For the last run in the file: busy time per queue and per command name, and the time
neither queue ran a kernel or a copy, per eighth of the run (where the devices wait).
  python3 bench/gpu/timeline.py ev.txt"""
import collections
import sys


def union(iv):
    tot, s, e = 0.0, None, None
    for a, b in sorted(iv):
        if e is None or a > e:
            if e is not None:
                tot += e - s
            s, e = a, b
        else:
            e = max(e, b)
    return tot + (e - s if e is not None else 0.0)


def main(path):
    runs, cur = [], None
    for line in open(path):
        if line.startswith('#'):
            cur = (line[1:].strip(), [])
            runs.append(cur)
            continue
        f = line.split()
        q, a, b, name = f[0], f[1], f[2], f[-1]     # (a fourth number, the enqueue time, is not used)
        if cur is None:
            cur = ('run', [])
            runs.append(cur)
        cur[1].append((int(q), float(a), float(b), name.strip()))
    if not runs:
        sys.exit('%s: no events' % path)
    title, ev = runs[-1]
    span = max(b for _, _, b, _ in ev)
    xfer = ('H2D', 'D2H')
    print('%s: %.1f ms from the first command to the last, %d commands' % (title, span, len(ev)))
    for dev in range(max(q for q, _, _, _ in ev) // 2 + 1):
        mine = [e for e in ev if e[0] // 2 == dev]
        work = sorted((a, b) for q, a, b, n in mine if not n.startswith(xfer))
        moves = [(a, b) for q, a, b, n in mine if n.startswith(xfer)]
        busy = union(work)
        print('device %d: kernels and copies %.1f ms, transfers %.1f ms, no kernel or copy %.1f ms'
              % (dev, busy, union(moves), span - busy))
        sums, cnt = collections.defaultdict(float), collections.Counter()
        for q, a, b, n in mine:
            sums[(q % 2, n)] += b - a
            cnt[(q % 2, n)] += 1
        for k in sorted(sums, key=lambda k: -sums[k])[:8]:
            print('   queue %d  %-24s %5d  %8.1f ms' % (k[0], k[1], cnt[k], sums[k]))
        idle, end = [0.0] * 8, work[0][1] if work else 0.0
        for a, b in work[1:]:
            if a > end:
                idle[min(7, int(end / span * 8))] += a - end
            end = max(end, b)
        print('   idle per eighth of the run (ms): ' + ' '.join('%.1f' % x for x in idle))


if __name__ == '__main__':
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
