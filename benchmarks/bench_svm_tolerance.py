"""Benchmark: SVM-RFE's signature against the solver's tolerance, and the warm-started SMO.

SVM-RFE (Guyon et al. 2002; the SVMRFE selector of KDD 2012, Section 5) ranks the
features by the weights of an SVM that is unique, but each fit is solved only to a
tolerance (libsvm's ``tol``, 1e-3 by default, as WEKA's SMO ``-L 0.001``). Over the ~50
eliminations of the papers' rule a near-tie decided by solver noise changes which features
remain, so the top of the ranking can depend on the solver and its path, not on the data.

For each KDD'12 dataset (loaded as ``examples/reproduce_kdd12.py`` loads it), one training
fold (a random 90 %) and ``--b`` bootstraps of it, the default "svm-rfe" selector
(min-max scaling in each resample, 10 % of the remaining features per step, C = 0.5) is
run through ``selector.prepare`` / ``selector.select_rows`` (what ``mm.bootstrap`` does)
with each (solver, tol) route:

* "truth": scikit-learn's libsvm (``solver="libsvm"``) at ``tol = 1e-9``, near the exact
  SVM at every step (an independent solver: none of modelmine's SMO code);
* libsvm at 1e-3 (today's default) and 1e-5; modelmine's warm SMO at 1e-3, 1e-5 and 1e-7.

Printed per dataset and route: CPU seconds per resample (``time.process_time``,
single-threaded), and the top-20 (the KDD'12 signature size m) against the truth's: the
mean overlap |S ∩ S*| / 20 and the fraction of resamples with the same 20 features.

Run: ``.venv/bin/python benchmarks/bench_svm_tolerance.py --out
benchmarks/results/svm_tolerance.csv | tee benchmarks/results/svm_tolerance.log``
(``--quick``: colon only, 2 resamples, for ``make bench``).
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from _record import finish, head_commit
from reproduce_kdd12 import load

from modelmine.base_models._resampling import resample_indices
from modelmine.selectors import get_selector

ROUTES = {
    "truth": ("libsvm", 1e-9),
    "libsvm 1e-3": ("libsvm", 1e-3),
    "warm 1e-3": ("warm", 1e-3),
    "libsvm 1e-5": ("libsvm", 1e-5),
    "warm 1e-5": ("warm", 1e-5),
    "warm 1e-7": ("warm", 1e-7),
}
DATASETS = ("colon", "leukemia", "prostate", "basehock", "pcmac", "madelon")
M = 20


def resamples(y: np.ndarray, b: int, seed: int = 0) -> tuple[np.ndarray, list[np.ndarray]]:
    """A 90 % training fold and ``b`` bootstraps of it (row indices into the fold), drawn
    as :func:`modelmine.bootstrap` draws them (as ``bench_shared_route.py``)."""
    rng = np.random.default_rng(seed)
    train = np.sort(rng.choice(y.size, round(0.9 * y.size), replace=False))
    boots = [resample_indices(y[train], np.random.default_rng([seed, i]), method="bootstrap",
                              fraction=1.0, stratify=False) for i in range(b)]
    return train, boots


def measure(name: str, b: int) -> list[dict]:
    X, y, _ = load(name)
    train, boots = resamples(y, b)
    X, y = X[train], y[train]
    rows = []
    tops: dict[str, list[set[int]]] = {}
    for label, (solver, tol) in ROUTES.items():
        sel = get_selector("svm-rfe", {"solver": solver, "tol": tol})
        prepared = sel.prepare(X, y)
        seconds = 0.0
        tops[label] = []
        for idx in boots:
            start = time.process_time()
            ranking = sel.select_rows(prepared, X, y, idx, random_state=0).ranking
            seconds += time.process_time() - start
            tops[label].append(set(np.argsort(ranking, kind="stable")[:M].tolist()))
        overlap = [len(a & t) / M for a, t in zip(tops[label], tops["truth"])]
        same = [a == t for a, t in zip(tops[label], tops["truth"])]
        rows.append({"dataset": name, "n_train": X.shape[0], "n_features": X.shape[1],
                     "route": label, "solver": solver, "tol": tol, "b": b,
                     "seconds_per_resample": round(seconds / b, 4),
                     "top20_overlap": round(float(np.mean(overlap)), 3),
                     "top20_identical": round(float(np.mean(same)), 3)})
        print(f"- {name} {label}: {seconds / b:.3f} s per resample, top-20 overlap with the "
              f"truth {np.mean(overlap):.3f}, identical {np.mean(same):.2f}", flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", type=int, default=10, help="bootstraps per microarray")
    parser.add_argument("--b-large", type=int, default=4,
                        help="bootstraps per text set and madelon")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    names = ["colon"] if args.quick else args.datasets
    commit = head_commit()
    print(f"# commit {commit}; {platform.machine()}, {platform.python_version()}; "
          "single-threaded, CPU seconds")
    wall = time.perf_counter()
    rows: list[dict] = []
    with threadpool_limits(1):
        for name in names:
            small = name in ("colon", "leukemia", "prostate")
            b = 2 if args.quick else (args.b if small else args.b_large)
            rows += measure(name, b)
    table = finish(rows, args.out, commit)
    print(table.pivot(index="dataset", columns="route", values="top20_overlap")
          .reindex(names).to_string())
    print(f"# benchmark wall time {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
