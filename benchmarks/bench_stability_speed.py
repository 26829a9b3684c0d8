"""Speed of the subset stability measures (docs/diagnostics.md, "Speed").

M subsets of m = 20 of d features (default M = 5000, d = 7129, leukemia's width), drawn with
the Zipf-like popularity of ``bench_distances.subsets`` (a few features in most subsets, most
rare, as real bootstrap subsets are; ``--draw uniform``: every feature equally likely).
For each measure of ``modelmine.diagnostics.stability`` it times ``--repeats`` calls and
prints the fastest and the slowest (seconds), plus Jaccard with the full M x M pairwise
matrix.

    python benchmarks/bench_stability_speed.py [--draw zipf|uniform] [--out FILE.csv]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _record import finish, head_commit
from bench_distances import subsets

from modelmine.diagnostics import stability


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--subsets", type=int, default=5000)
    parser.add_argument("--features", type=int, default=7129)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--draw", choices=["zipf", "uniform"], default="zipf")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    if args.draw == "zipf":
        Z = subsets(args.subsets, args.features, m=20, seed=0)
    else:
        rng = np.random.default_rng(0)
        Z = np.zeros((args.subsets, args.features), dtype=bool)
        for row in Z:
            row[rng.choice(args.features, 20, replace=False)] = True
    cases = [(name, {}) for name in ("jaccard", "dice", "pearson", "nogueira", "kuncheva")]
    cases.append(("jaccard", {"pairwise": True}))
    rows = []
    for name, kwargs in cases:
        times = []
        for _ in range(args.repeats):
            t = time.perf_counter()
            value = stability(Z, name, **kwargs).value
            times.append(time.perf_counter() - t)
        rows.append({"draw": args.draw, "measure": name, "pairwise": bool(kwargs),
                     "M": args.subsets, "d": args.features, "m": 20,
                     "value": round(float(value), 6),
                     "min_s": round(min(times), 4), "max_s": round(max(times), 4),
                     "repeats": args.repeats})
    finish(rows, args.out, head_commit())


if __name__ == "__main__":
    main()
