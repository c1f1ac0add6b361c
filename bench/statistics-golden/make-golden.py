"""Golden values for src/statistics and src/python/python-round.ts, from Python's standard library only.

Usage: python3 bench/statistics-golden/make-golden.py > test/fixtures/statistics/golden.json

Nothing here shares code with the TypeScript side:
- generator: words, floats and randrange draws of CPython's own random.Random (MT19937, C implementation);
- mcnemar: exact rationals (math.comb, fractions.Fraction), converted to float once (correctly rounded);
- bootstrap: resampling with random.Random(seed).randrange(n) and statistics.quantiles(method="inclusive");
- spread: statistics.mean / statistics.stdev (exact internally); None where stdev is undefined (n = 1);
- round: the built-in round(x, ndigits).
The output is deterministic; src/statistics/golden.test.ts reruns this script when python3 is present
and compares its output with the stored file.
"""
import json
import math
import random
import statistics
import sys
from fractions import Fraction

SEEDS = [0, 1, 20260720, 2**32 + 5, 2**53 - 1]
WORD_POSITIONS = list(range(0, 8)) + list(range(620, 630)) + list(range(1245, 1250))
BELOW_NS = [1, 2, 7, 10, 490, 1270, 2**31 + 1, 2**32 - 1]


def generator_cases():
    cases = []
    for seed in SEEDS:
        rng = random.Random(seed)
        words = [rng.getrandbits(32) for _ in range(max(WORD_POSITIONS) + 1)]
        rng = random.Random(seed)
        floats = [rng.random() for _ in range(6)]
        below = {}
        for n in BELOW_NS:
            rng = random.Random(seed)
            below[str(n)] = [rng.randrange(n) for _ in range(12)]
        cases.append({
            "seed": seed,
            "words": {str(i): words[i] for i in WORD_POSITIONS},
            "random": floats,
            "below": below,
        })
    return cases


MCNEMAR = [(50, 2), (102, 59), (0, 0), (1, 0), (0, 1), (500, 480), (480, 500), (5, 5), (10, 0), (3, 7),
           (22, 7), (46, 6), (129, 47), (1100, 1000), (1200, 0), (1075, 0), (1076, 0), (2600, 2400)]


def mcnemar(b, c):
    n, k = b + c, min(b, c)
    tail = sum(math.comb(n, i) for i in range(k + 1))
    p = min(Fraction(1), Fraction(2 * tail, 2**n))
    mid = min(Fraction(1), Fraction(2 * tail - math.comb(n, k), 2**n))
    return {"b": b, "c": c, "p": float(p), "midP": float(mid)}


def bootstrap(baseline, patched, resamples, confidence, seed):
    n = len(baseline)
    diffs = [p - b for b, p in zip(baseline, patched)]
    rng = random.Random(seed)
    means = []
    for _ in range(resamples):
        s = 0.0
        for _ in range(n):
            s += diffs[rng.randrange(n)]
        means.append(s / n)
    head = means[:5]
    means.sort()
    cuts = round(2 / (1 - confidence))
    q = statistics.quantiles(means, n=cuts, method="inclusive") if resamples > 1 else [means[0]]
    s = 0.0
    for d in diffs:
        s += d
    return {
        "baseline": baseline, "patched": patched, "resamples": resamples, "confidence": confidence, "seed": seed,
        "delta": s / n, "low": q[0], "high": q[-1], "firstMeans": head,
    }


def counts_to_passes(tasks, base_pass, rescued, regressed):
    cells = [(1, 1, base_pass - regressed), (1, 0, regressed), (0, 1, rescued), (0, 0, tasks - base_pass - rescued)]
    baseline, patched = [], []
    for b, p, k in cells:
        baseline += [b] * k
        patched += [p] * k
    return baseline, patched


def bootstrap_cases():
    make = random.Random(12345)
    cases = []
    base = [int(make.random() < 0.4) for _ in range(40)]
    pat = [b if make.random() < 0.8 else 1 - b for b in base]
    cases.append(bootstrap(base, pat, 2000, 0.95, 0))
    base, pat = counts_to_passes(290, 184, 22, 7)
    cases.append(bootstrap(base, pat, 2000, 0.95, 20260720))
    cases.append(bootstrap(base, pat, 2000, 0.9, 20260720))
    scores_b = [round(make.random(), 3) for _ in range(60)]
    scores_p = [min(1.0, round(s + make.random() * 0.2 - 0.05, 3)) for s in scores_b]
    cases.append(bootstrap(scores_b, scores_p, 1500, 0.99, 7))
    base = [int(make.random() < 0.5) for _ in range(25)]
    pat = [int(make.random() < 0.6) for _ in range(25)]
    cases.append(bootstrap(base, pat, 10000, 0.95, 0))
    cases.append(bootstrap([0], [1], 50, 0.95, 3))
    cases.append(bootstrap([1, 0, 1], [1, 0, 1], 100, 0.95, 4))
    return cases


SPREADS = [[5.0], [1, 2], [2, 2], [106, 135, 99], [-53, -88, -24], [-28, -35, 47],
           [106 / 1270 * 100, 135 / 1270 * 100, 99 / 1270 * 100], [0.1, 0.2, 0.3, 0.4], [-0.5, 1e-9]]


def spread(values):
    return {"values": values, "mean": float(statistics.mean(values)),
            "sd": float(statistics.stdev(values)) if len(values) > 1 else None}


def round_cases():
    make = random.Random(99)
    xs = [0.125, 0.375, 2.675, 1.005, -0.125, -2.5, 2.5, 0.5, 1.5, 8.925, 113.335, 113.325, 1e-9, -1e-9,
          0.0, 14.0, 19.087517736293876, 8.923884514435695, 1 / 3, -2 / 3, 1e15 + 0.125, 123456.785]
    xs += [make.uniform(-200, 200) for _ in range(300)]
    xs += [make.randrange(-40000, 40000) / 8 for _ in range(100)]
    xs += [make.randrange(-40000, 40000) / 200 for _ in range(100)]
    out = []
    for x in xs:
        for nd in (0, 1, 2, 3):
            out.append({"x": x, "digits": nd, "rounded": round(x, nd)})
    return out


def main():
    golden = {
        "python": "%d.%d" % sys.version_info[:2],
        "generator": generator_cases(),
        "mcnemar": [mcnemar(b, c) for b, c in MCNEMAR],
        "bootstrap": bootstrap_cases(),
        "spread": [spread(v) for v in SPREADS],
        "round": round_cases(),
    }
    json.dump(golden, sys.stdout)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
