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

With ``--weka``, also against WEKA 3.6's ``SVMAttributeEval`` (the papers' tool: SMO at
its default tolerance ``-T 1e-10``, attributes normalised to [0, 1] on the data it is
given), per resample: the first ``--weka-b`` bootstraps of colon and leukemia written as
ARFF (repeated rows kept), ``-C 0.5 -X 50`` (50 attributes removed per step, which
isolates the SVM from WEKA's percent rule, see ``docs/selectors_svm_rfe.md``) against the
selector with ``step=50``, per (solver, tol); the top-20 overlap with WEKA's
(``svm_tolerance_weka.csv`` beside ``--out``).

Run: ``.venv/bin/python benchmarks/bench_svm_tolerance.py --weka --out
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


WEKA_ROUTES = {"libsvm 1e-3": ("libsvm", 1e-3), "warm 1e-3": ("warm", 1e-3),
               "libsvm 1e-9": ("libsvm", 1e-9), "warm 1e-7": ("warm", 1e-7)}


def against_weka(name: str, b: int) -> list[dict]:
    """Top-20 overlap with WEKA's SVMAttributeEval -C 0.5 -X 50, per bootstrap."""
    import tempfile

    from bench_weka_relieff_svm import _weka_rank, _write_arff

    X, y, _ = load(name)
    train, boots = resamples(y, b)
    X, y = np.asarray(X[train], dtype=np.float64), y[train]
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        arff = Path(tmp, "resample.arff")
        for i, idx in enumerate(boots):
            _write_arff(arff, X[idx], y[idx])
            weka, weka_s = _weka_rank("SVMAttributeEval", ["-C", "0.5", "-X", "50"], arff,
                                      X.shape[1])
            top_weka = set(np.argsort(-weka, kind="stable")[:M].tolist())
            for label, (solver, tol) in WEKA_ROUTES.items():
                sel = get_selector("svm-rfe", {"solver": solver, "tol": tol, "step": 50})
                ranking = sel.select_rows(sel.prepare(X, y), X, y, idx,
                                          random_state=0).ranking
                top = set(np.argsort(ranking, kind="stable")[:M].tolist())
                rows.append({"dataset": name, "resample": i, "route": label,
                             "solver": solver, "tol": tol,
                             "top20_overlap_weka": len(top & top_weka) / M,
                             "weka_seconds": round(weka_s, 2)})
            print(f"- WEKA, {name} resample {i}: " + ", ".join(
                f"{r['route']} {r['top20_overlap_weka']:.2f}" for r in rows[-len(WEKA_ROUTES):]),
                flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", type=int, default=10, help="bootstraps per microarray")
    parser.add_argument("--b-large", type=int, default=4,
                        help="bootstraps per text set and madelon")
    parser.add_argument("--datasets", nargs="+", default=list(DATASETS))
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--weka", action="store_true",
                        help="also against WEKA's SVMAttributeEval (needs java and weka.jar)")
    parser.add_argument("--weka-b", type=int, default=5)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    names = ["colon"] if args.quick else args.datasets
    commit = head_commit()
    print(f"# commit {commit}; command: .venv/bin/python {' '.join(sys.argv)}; "
          f"{platform.machine()}, Python {platform.python_version()}; single-threaded, "
          "CPU seconds")
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
    if args.weka:
        weka_rows: list[dict] = []
        with threadpool_limits(1):
            for name in ("colon", "leukemia"):
                weka_rows += against_weka(name, 2 if args.quick else args.weka_b)
        out = None if args.out is None else args.out.replace(".csv", "_weka.csv")
        weka = finish(weka_rows, out, commit)
        print(weka.groupby(["dataset", "route"], sort=False).top20_overlap_weka.agg(
            ["mean", "min", "size"]).to_string())
    print(f"# benchmark wall time {time.perf_counter() - wall:.0f} s")


if __name__ == "__main__":
    main()
