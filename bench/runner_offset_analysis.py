#!/usr/bin/env python3
"""Reads bench/runner_offset's CSV (gzip): per size, each process's median over its regions and
its empty-kernel window, the spread of the medians across processes (several estimators), the
spread between regions within a process, and how much of the process-to-process spread the
process's own empty window explains; with variants (STREAMS, EVENTS), the spread between a
process's streams and event pairs against the spread between processes. Python 3 standard
library only."""
import csv, gzip, sys, statistics as st, math
from collections import defaultdict
rows = defaultdict(list)
by_variant = defaultdict(list)
for r in csv.reader(gzip.open(sys.argv[1], 'rt')):
    p, n, k, rep, ns = int(r[0]), int(r[1]), int(r[2]), int(r[3]), float(r[4])
    v = int(r[5]) if len(r) > 5 else 0
    rows[(p, n, k)].append(ns)
    by_variant[(p, n, k, v)].append(ns)
def hd_median(xs):
    # Harrell-Davis median: weights from Beta((n+1)/2, (n+1)/2)
    xs = sorted(xs); n = len(xs); a = b = (n + 1) / 2
    from math import lgamma, exp, log
    # regularized incomplete beta via continued fraction
    def betacf(a, b, x):
        qab, qap, qam = a + b, a + 1, a - 1
        c, d = 1.0, 1 - qab * x / qap
        d = 1 / d if abs(d) > 1e-300 else 1e300; h = d
        for m in range(1, 300):
            m2 = 2 * m
            aa = m * (b - m) * x / ((qam + m2) * (a + m2))
            d = 1 + aa * d; d = 1/d if abs(d) > 1e-300 else 1e300
            c = 1 + aa / c if abs(c) > 1e-300 else 1e300
            h *= d * c
            aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
            d = 1 + aa * d; d = 1/d if abs(d) > 1e-300 else 1e300
            c = 1 + aa / c if abs(c) > 1e-300 else 1e300
            de = d * c; h *= de
            if abs(de - 1) < 1e-12: break
        return h
    def ibeta(x):
        if x <= 0: return 0.0
        if x >= 1: return 1.0
        bt = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log(1 - x))
        if x < (a + 1) / (a + b + 2): return bt * betacf(a, b, x) / a
        return 1 - bt * betacf(b, a, 1 - x) / b
    w_prev = 0.0; s = 0.0
    for i in range(n):
        w = ibeta((i + 1) / n); s += (w - w_prev) * xs[i]; w_prev = w
    return s
def iqm(xs):
    xs = sorted(xs); n = len(xs); return st.mean(xs[n // 4: n - n // 4])
procs = sorted({p for p, _, _ in rows}); sizes = sorted({n for _, n, _ in rows})
ticks = set()
for key, xs in rows.items():
    d = sorted(set(xs));
    for a, b in zip(d, d[1:]):
        if b - a > 0.5: ticks.add(round(b - a, 1))
print("smallest gaps between distinct windows:", sorted(ticks)[:8])
for n in sizes:
    print(f"== n={n}")
    per = {}
    for p in procs:
        e = st.median(rows[(p, n, -1)])
        meds = [st.median(rows[(p, n, k)]) for k in range(4)]
        hds = [hd_median(rows[(p, n, k)]) for k in range(4)]
        iq = [iqm(rows[(p, n, k)]) for k in range(4)]
        allx = sum((rows[(p, n, k)] for k in range(4)), [])
        per[p] = dict(empty=e, med=st.median(allx), hd=hd_median(allx), iqm=iqm(allx), meds=meds, hds=hds,
                      med0=meds[0], hd0=hds[0], iqm0=iq[0], sd=st.pstdev(allx))
        print(f"proc {p}: empty {e:7.1f}  regions med {' '.join(f'{m:7.1f}' for m in meds)}  hd {' '.join(f'{m:7.1f}' for m in hds)}  all med {per[p]['med']:.1f} hd {per[p]['hd']:.1f} sd {per[p]['sd']:.0f}")
    for est in ['med0', 'hd0', 'iqm0', 'med', 'hd', 'iqm', 'empty']:
        xs = [per[p][est] for p in procs]
        print(f"  across procs {est:5s}: mean {st.mean(xs):8.1f} sd {st.stdev(xs):6.1f} ns  CV {100*st.stdev(xs)/st.mean(xs):.2f}%")
    within = [st.stdev(per[p]['hds']) for p in procs]
    print(f"  within-proc sd between regions (hd): {st.mean(within):.1f} ns")
    xs = [per[p]['hd'] for p in procs]; es = [per[p]['empty'] for p in procs]
    mx, me = st.mean(xs), st.mean(es)
    cov = sum((a - mx) * (b - me) for a, b in zip(xs, es)) / (len(xs) - 1)
    print(f"  corr(hd, empty) = {cov / (st.stdev(xs) * st.stdev(es)):.2f}; sd of hd-empty {st.stdev([a-b for a,b in zip(xs,es)]):.1f}")

variants = sorted({v for _, _, _, v in by_variant})
if len(variants) > 1:
    print("== variants (stream v / event pair v of one process): HD medians in ns")
    for n in sizes:
        for k, what in ((-1, "empty"), (0, "region 0")):
            print(f"-- n={n} {what}")
            means, within = [], []
            for p in procs:
                hs = [hd_median(by_variant[(p, n, k, v)]) for v in variants]
                means.append(st.mean(hs)); within.append(st.stdev(hs))
                print(f"proc {p}: " + " ".join(f"{h:7.1f}" for h in hs) + f"  mean {means[-1]:7.1f}")
            v0 = [hd_median(by_variant[(p, n, k, variants[0])]) for p in procs]
            print(f"  sd across procs, variant 0 alone: {st.stdev(v0):5.1f} ns; of the mean over variants: "
                  f"{st.stdev(means):5.1f} ns; within a proc between variants (mean sd): {st.mean(within):5.1f} ns")
