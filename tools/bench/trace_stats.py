#!/usr/bin/env python3
"""trace_stats.py - the structure of a recorded communication matrix.

    trace_stats.py FILE.mtx [--grid PXxPYxPZ [--periodic] | --bisect NXxNYxNZ]
                   [--phases FILE.phases]

FILE.mtx is a Matrix Market `coordinate real general` matrix of bytes sent
(TOPOMAP_RECORD's FILE; docs/mpi.md).  Prints one line each: the tasks, the
directed pairs with bytes (the diagonal left out), the total bytes, the
number of neighbours per task (minimum, median, maximum), and the per-pair
volumes in classes.

With --grid (the application's process grid, rank r at x = r mod PX,
y = (r / PX) mod PY, z = r / (PX PY): LULESH's and CoMD's numbering) the
classes are the pair's offset in the grid: `face` (one coordinate differs by
one), `edge` (two), `corner` (three), `other` (anything farther: the
collectives' patterns); --periodic measures the offsets around the grid
(CoMD's periodic domain).  With --bisect (miniFE's global box of NX x NY x
NZ elements, split among the tasks by miniFE's recursive bisection:
box_partition in its utils/BoxPartition.cpp, halving the tasks and the
axis z, then y, then x, ...) the classes are how the two tasks' boxes touch:
`face` (a face), `edge` (an edge only), `corner` (a corner only), `other`
(not at all).  Otherwise the classes are the volumes' powers of two.  Per
class: pairs, and the minimum, median and maximum bytes.
With --phases, the distinct phases and the sum of their repeat counts.
"""
import argparse
import statistics
import sys


def read_mtx(path):
    """(n, {(i, j): bytes}) without the diagonal; 0-based tasks."""
    n, edges, header = None, {}, True
    with open(path) as f:
        for line in f:
            if line.startswith('%'):
                continue
            a = line.split()
            if not a:
                continue
            if header:
                n, header = int(a[0]), False
                continue
            i, j, w = int(a[0]) - 1, int(a[1]) - 1, float(a[2])
            if i != j and w > 0:
                edges[(i, j)] = edges.get((i, j), 0.0) + w
    return n, edges


def phases_summary(path):
    """(distinct phases, sum of repeats) of a phases file."""
    distinct = runs = 0
    with open(path) as f:
        for line in f:
            if line.startswith('phase '):
                distinct += 1
                runs += int(line.split()[1])
    return distinct, runs


def grid_class(i, j, dims, periodic):
    def coords(r):
        return (r % dims[0], (r // dims[0]) % dims[1], r // (dims[0] * dims[1]))
    off = []
    for a, b, d in zip(coords(i), coords(j), dims):
        k = abs(a - b)
        off.append(min(k, d - k) if periodic else k)
    if max(off) > 1:
        return 'other'
    return {1: 'face', 2: 'edge', 3: 'corner'}.get(sum(off), 'other')


def bisect_boxes(n, size):
    """miniFE's boxes of n tasks in a box of size[0] x size[1] x size[2]
    elements: [[lo, hi] per axis] per task, as its box_partition cuts."""
    boxes = [None] * n

    def part(ip, up, axis, box):
        np_ = up - ip
        if np_ == 1:
            boxes[ip] = box
            return
        length = box[axis][1] - box[axis][0]
        np_low = np_ // 2
        n_upp = int(length * ((np_ - np_low) / np_))
        n_low = length - n_upp
        nxt = (axis + 2) % 3
        low = [list(b) for b in box]
        low[axis][1] = low[axis][0] + n_low
        part(ip, ip + np_low, nxt, low)
        upp = [list(b) for b in box]
        upp[axis][0] += n_low
        upp[axis][1] = upp[axis][0] + n_upp
        part(ip + np_low, up, nxt, upp)

    part(0, n, 2, [[0, size[0]], [0, size[1]], [0, size[2]]])
    return boxes


def box_class(a, b):
    overlap = touch = 0
    for (alo, ahi), (blo, bhi) in zip(a, b):
        if min(ahi, bhi) > max(alo, blo):
            overlap += 1
        elif ahi == blo or bhi == alo:
            touch += 1
    if overlap + touch < 3:
        return 'other'
    return {1: 'face', 2: 'edge', 3: 'corner'}.get(touch, 'other')


def fmt(b):
    return '%d' % b if b == int(b) else '%g' % b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('mtx')
    ap.add_argument('--grid')
    ap.add_argument('--periodic', action='store_true')
    ap.add_argument('--bisect')
    ap.add_argument('--phases')
    o = ap.parse_args()
    n, edges = read_mtx(o.mtx)
    if n is None or not edges:
        sys.exit('%s: no entries' % o.mtx)
    deg = [0] * n
    for (i, _j) in edges:
        deg[i] += 1
    classes = {}
    if o.grid:
        dims = [int(x) for x in o.grid.split('x')]
        if len(dims) != 3 or dims[0] * dims[1] * dims[2] != n:
            sys.exit('--grid %s: not a 3D grid of %d tasks' % (o.grid, n))
        for (i, j), w in edges.items():
            classes.setdefault(grid_class(i, j, dims, o.periodic), []).append(w)
        order = ['face', 'edge', 'corner', 'other']
    elif o.bisect:
        boxes = bisect_boxes(n, [int(x) for x in o.bisect.split('x')])
        for (i, j), w in edges.items():
            classes.setdefault(box_class(boxes[i], boxes[j]), []).append(w)
        order = ['face', 'edge', 'corner', 'other']
    else:
        for w in edges.values():
            k = int(w).bit_length() - 1
            classes.setdefault('2^%d' % k, []).append(w)
        order = sorted(classes, key=lambda c: -int(c[2:]))
    print('tasks %d, pairs %d, bytes %s' % (n, len(edges), fmt(sum(edges.values()))))
    print('neighbours per task: min %d, median %g, max %d'
          % (min(deg), statistics.median(deg), max(deg)))
    for c in order:
        if c in classes:
            v = sorted(classes[c])
            print('  %-7s %6d pairs, bytes min %s, median %s, max %s'
                  % (c, len(v), fmt(v[0]), fmt(statistics.median(v)), fmt(v[-1])))
    if o.phases:
        d, r = phases_summary(o.phases)
        print('phases: %d distinct, %d runs' % (d, r))


if __name__ == '__main__':
    main()
