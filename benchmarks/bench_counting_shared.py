"""Benchmark: the shared routes of the counting selectors (issue 37) against their
per-resample routes.

The selectors whose resamples share the fold's sorted columns
(``_information.sorted_columns``): "oner" (WEKA's OneRAttributeEval, Pes 2019, Section 3.1:
10-fold cross-validation of Holte's rule on each feature), "cfs" (WEKA's CfsSubsetEval with
BestFirst, KDD 2012, Section 5: the resample's MDL codes from counts), "ig", "chi2", "su"
(MDL, KDD 2012) and "gainratio" (MDL, Pes 2019). Per resample of one training fold (a
random 90 %) of each KDD'12 dataset, bootstraps drawn as :func:`modelmine.bootstrap` draws them
(``bench_shared_route.fold_and_resamples``):

* "select": the per-resample route, ``selector.select(X[rows], y[rows])`` (the code of
  before issue 37 for oner and cfs: a sort of each column of the resample);
* "shared": what ``mm.bootstrap`` does now, ``selector.prepare`` once per fold (the
  columns sorted once, amortised over the resamples; its time is printed) and
  ``selector.select_rows`` per resample.

CPU seconds (``time.process_time``), single-threaded, the two routes interleaved resample
by resample; "equal": the two routes' scores are the same floats on every resample.

Run: ``.venv/bin/python benchmarks/bench_counting_shared.py --out
benchmarks/results/counting_shared.csv | tee benchmarks/results/counting_shared.log``
(``--quick``: colon, 2 resamples).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _record import finish, head_commit
from bench_shared_route import DATASETS, fold_and_resamples, load, timed

from modelmine.selectors import get_selector


def measure(name: str, b: int, selectors: list[str]) -> list[dict]:
    """One training fold of ``name`` and its ``b`` bootstraps: per selector, the mean CPU
    seconds of the two routes per resample, ``prepare``'s, and whether every score,
    ranking and subset was equal (``tests/test_published_counting_shared.py`` recomputes
    colon's rows)."""
    X, y = load(name, 1)
    Xf, yf, resamples = fold_and_resamples(X, y, b)
    rows = []
    for selector in selectors:
        sel = get_selector(selector)
        prepared, prep_s, _ = timed(sel.prepare, Xf, yf)
        select_s = shared_s = 0.0
        equal = True
        for i, idx in enumerate(resamples):
            a, s_a, _ = timed(sel.select, Xf[idx], yf[idx], random_state=i)
            c, s_c, _ = timed(sel.select_rows, prepared, Xf, yf, idx, random_state=i)
            select_s += s_a
            shared_s += s_c
            for field in ("scores", "ranking", "support"):
                u, v = getattr(a, field), getattr(c, field)
                equal &= (u is None and v is None) or bool(np.array_equal(u, v))
        rows.append({"dataset": name, "selector": selector, "n_train": Xf.shape[0],
                     "n_features": Xf.shape[1], "b": b,
                     "select_s": round(select_s / b, 4), "shared_s": round(shared_s / b, 4),
                     "prepare_s": round(prep_s, 4),
                     "select_over_shared": round(select_s / shared_s, 2), "equal": equal})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", type=int, default=5)
    parser.add_argument("--selectors", nargs="+",
                        default=["oner", "cfs", "ig", "chi2", "su", "gainratio"])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    names = ["colon"] if args.quick else DATASETS
    b = 2 if args.quick else args.b
    commit = head_commit()
    print(f"# commit {commit}; command: .venv/bin/python {' '.join(sys.argv)}; "
          "single-threaded, CPU seconds")
    wall = time.perf_counter()
    rows = []
    with threadpool_limits(1):
        for name in names:
            for row in measure(name, b, args.selectors):
                rows.append(row)
                print(f"- {name}, {row['selector']}: select {row['select_s']} s, shared "
                      f"{row['shared_s']} s per resample (prepare {row['prepare_s']} s once): "
                      f"{row['select_over_shared']}x, equal {row['equal']}", flush=True)
    finish(rows, args.out, commit)
    print(f"# benchmark wall time {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
