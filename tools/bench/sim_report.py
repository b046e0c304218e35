#!/usr/bin/env python3
"""sim_report.py - rows and summary of `make bench-sim` (tools/bench/sim.sh).

  sim_report.py row CASE PROG RANKS ROUTING MAP_JSON SIM_CONS SIM_MAPPED [MODEL=CONS,MAPPED ...]
                    [TRACE=other]
      prints one CSV row (the header is `sim_report.py header`): the simulated
      times (SMPI's default model) of the consecutive and the mapped
      placement, topomap's est_time_s of both (from `map --json`), their
      errors and speed-ups, congestion, whether map fell back to the
      consecutive placement, and the other SimGrid network models' times
      (IB, CM02: n/a when not run).  TRACE=other: the map was made from
      another run's trace (e.g. an mpiP trace of a bigger run), so its
      est_time_s are not this run's times: only the predicted speed-up is
      written (the times and errors are n/a).
  sim_report.py summary RESULTS.csv HOSTNAME
      prints the markdown summary: the table, Spearman's rank correlation of
      the predicted (est_time_s, congestion) against the simulated speed-ups
      over all rows, the placements whose prediction is off by more than
      20 %, the rows where mapped is slower than consecutive (beyond 2 %
      under SMPI, 5 % under the other models), and the spread of the models.
"""
import csv
import json
import sys

MODELS = ('IB', 'CM02')
HEADER = ('case,program,ranks,routing,sim_consecutive_s,sim_mapped_s,sim_speedup,'
          'est_consecutive_s,est_mapped_s,est_speedup,est_error_consecutive_pct,'
          'est_error_mapped_pct,congestion_consecutive,congestion_mapped,congestion_ratio,'
          'fell_back,' + ','.join('%s_consecutive_s,%s_mapped_s,%s_speedup' % (m, m, m)
                                  for m in MODELS))


def ratio(a, b):
    return '%.4g' % (a / b) if a is not None and b else 'n/a'


def err(est, sim):
    return '%+.1f' % (100 * (est - sim) / sim) if est is not None and sim else 'n/a'


def num(x):
    return '%.6g' % x if x is not None else 'n/a'


def row(args):
    name, prog, nranks, routing, js, tc, tm = args[:7]
    other = dict(a.split('=', 1) for a in args[7:])
    d = json.load(open(js))
    c = d['consecutive']
    ec, em = c.get('est_time_s'), d.get('est_time_s')
    tc, tm = float(tc), float(tm)
    speedup = ratio(ec, em)
    if other.pop('TRACE', None) == 'other':
        ec = em = None
    out = [name, prog, nranks, routing, num(tc), num(tm), ratio(tc, tm), num(ec), num(em),
           speedup, err(ec, tc), err(em, tm), num(c['max_congestion']),
           num(d['max_congestion']), ratio(c['max_congestion'], d['max_congestion']),
           str(d.get('fell_back_to_consecutive', False)).lower()]
    for m in MODELS:
        if m in other:
            a, b = (float(x) for x in other[m].split(','))
            out += [num(a), num(b), ratio(a, b)]
        else:
            out += ['n/a'] * 3
    print(','.join(out))


def ranks(v):
    order = sorted(range(len(v)), key=lambda i: v[i])
    r = [0.0] * len(v)
    i = 0
    while i < len(v):
        j = i
        while j + 1 < len(v) and v[order[j + 1]] == v[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def spearman(a, b):
    ra, rb = ranks(a), ranks(b)
    n = len(a)
    ma, mb = sum(ra) / n, sum(rb) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(ra, rb))
    va = sum((x - ma) ** 2 for x in ra) ** 0.5
    vb = sum((y - mb) ** 2 for y in rb) ** 0.5
    return cov / (va * vb) if va and vb else float('nan')


def sign(x):
    return 1 if x > 1.02 else -1 if x < 1 / 1.02 else 0


def ms(x):
    return '%.3g' % (float(x) * 1e3) if x != 'n/a' else 'n/a'


def summary(path, host):
    rows = list(csv.DictReader(open(path)))
    if not rows:
        print('no rows')
        return
    print('SimGrid SMPI 3.32 on %s, smpi/simulate-computation:no; times in ms; "sim" is the '
          'default network model (SMPI), IB and CM02 the same placements under SimGrid\'s '
          'other models\n' % host)
    print('| case | ranks | program | routing | sim consecutive -> mapped | sim speed-up | '
          'est consecutive -> mapped | est error (cons. / mapped) | est speed-up | '
          'congestion ratio | IB speed-up | CM02 speed-up |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        print('| %s | %s | %s | %s | %s -> %s | %s | %s -> %s | %s %% / %s %% | %s | %s | %s | %s |'
              % (r['case'], r['ranks'], r['program'], r['routing'], ms(r['sim_consecutive_s']),
                 ms(r['sim_mapped_s']), r['sim_speedup'], ms(r['est_consecutive_s']),
                 ms(r['est_mapped_s']), r['est_error_consecutive_pct'],
                 r['est_error_mapped_pct'], r['est_speedup'], r['congestion_ratio'],
                 r['IB_speedup'], r['CM02_speedup']))
    print()
    sets = sorted({r['ranks'] for r in rows}, key=int)
    groups = [(rows, 'all rows')]
    if len(sets) > 1:
        groups += [([r for r in rows if r['ranks'] == n], '%s-rank rows' % n) for n in sets]
    for sub, label in groups:
        sim = [float(r['sim_speedup']) for r in sub]
        for key, what in (('est_speedup', 'est_time_s'), ('congestion_ratio', 'congestion')):
            if len(sub) > 1 and all(r[key] != 'n/a' for r in sub):
                pred = [float(r[key]) for r in sub]
                same = sum(sign(p) == sign(s) for p, s in zip(pred, sim))
                print('Spearman(%s speed-up, simulated speed-up) over %s (%d): %.3f; same sign '
                      '(faster / within 2 %% / slower) in %d/%d'
                      % (what, label, len(sub), spearman(pred, sim), same, len(sub)))
    errs = [(float(r[k]), r['case'], r['program'], k.split('_')[2]) for r in rows
            for k in ('est_error_consecutive_pct', 'est_error_mapped_pct') if r[k] != 'n/a']
    if errs:
        bad = [e for e in errs if abs(e[0]) > 20]
        print('est_time_s within +-20 %% of the simulated time in %d/%d placements (worst %+.1f %%)%s'
              % (len(errs) - len(bad), len(errs), max(errs, key=lambda e: abs(e[0]))[0],
                 ''.join('; off: %s/%s %s %+.1f %%' % (c, p, k, e) for e, c, p, k in bad)))
    print('map --objective time kept the consecutive placement (every candidate predicted '
          'slower, or faster by no more than the time model\'s error): %s' % (', '.join('%s/%s' % (r['case'], r['program']) for r in rows
                                    if r['fell_back'] == 'true') or 'none'))
    slower = [r for r in rows if float(r['sim_speedup']) < 0.98]
    print('mapped slower than consecutive under SMPI (beyond 2 %%): %s' %
          (', '.join('%s/%s %sx' % (r['case'], r['program'], r['sim_speedup'])
                     for r in slower) or 'none'))
    for m in MODELS:
        have = [r for r in rows if r['%s_speedup' % m] != 'n/a']
        if not have:
            continue
        slow = [r for r in have if float(r['%s_speedup' % m]) < 0.95]
        print('mapped slower than consecutive under %s (beyond 5 %%): %s (of %d rows)' %
              (m, ', '.join('%s/%s %sx' % (r['case'], r['program'], r['%s_speedup' % m])
                            for r in slow) or 'none', len(have)))
    have = [r for r in rows if all(r['%s_consecutive_s' % m] != 'n/a' for m in MODELS)]
    if have:
        print('\nThe network models side by side (time relative to SMPI\'s; est = topomap\'s '
              'est_time_s):\n')
        print('| case | program | placement | est / SMPI | ' +
              ' | '.join('%s / SMPI' % m for m in MODELS) + ' | speed-up est, SMPI, ' +
              ', '.join(MODELS) + ' |')
        print('|---|---|---|---|' + '---|' * len(MODELS) + '---|')
        for r in have:
            for pl in ('consecutive', 'mapped'):
                s = float(r['sim_%s_s' % pl])
                print('| %s | %s | %s | %.3f | %s | %s |' % (
                    r['case'], r['program'], pl, float(r['est_%s_s' % pl]) / s,
                    ' | '.join('%.3f' % (float(r['%s_%s_s' % (m, pl)]) / s) for m in MODELS),
                    ', '.join([r['est_speedup'], r['sim_speedup']] +
                              [r['%s_speedup' % m] for m in MODELS])))


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == 'header':
        print(HEADER)
    elif len(sys.argv) >= 9 and sys.argv[1] == 'row':
        row(sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == 'summary':
        summary(sys.argv[2], sys.argv[3])
    else:
        sys.exit(__doc__)


if __name__ == '__main__':
    main()
