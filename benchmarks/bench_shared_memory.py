"""Benchmark: the memory of the work the resamples share, estimated and measured (issue 37).

``Selector.prepare`` computes once per chunk of bootstraps what every resample of the same
rows reuses; ``Selector.prepare_nbytes`` bounds its peak from the data's shape and
non-zeros before anything is allocated, and ``mm.bootstrap`` fits each resample on its own
rows (the same models, more time) when the workers' copies would take more than half of the
memory available. This script prints, per KDD'12 dataset (a 90 % training fold, loaded as
``examples/reproduce_kdd12.py`` loads it) and per selector that shares work, the estimate
and the peak ``tracemalloc`` traces while ``prepare`` runs (numpy reports its allocations
to it), and their ratio; then the estimates alone for shapes the papers' data do not reach:
sparse counts of 10^4 and 10^5 rows and a dense 10^5 x 2 x 10^4 matrix (never allocated).
An estimate of 0 means nothing shared: scikit-rebate's mismatch counts above their own
budget, the SVM kernel of dense data (each resample computes its own).

Run: ``.venv/bin/python benchmarks/bench_shared_memory.py --out
benchmarks/results/shared_memory.csv | tee benchmarks/results/shared_memory.log``
(``--quick``: colon only).
"""

from __future__ import annotations

import argparse
import sys
import tracemalloc
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "examples"))
from _record import finish, head_commit
from reproduce_kdd12 import load

from modelmine.selectors import get_selector

SELECTORS = [("ig", {}), ("oner", {}), ("cfs", {}), ("relieff", {}),
             ("relieff", {"variant": "skrebate"}), ("svm-rfe", {"scale": "none"})]
DATASETS = ("colon", "leukemia", "prostate", "basehock", "pcmac", "madelon")


def traced(selector, X, y) -> int:
    prepare = type(selector).prepare
    prepare = getattr(prepare, "__wrapped__", prepare)  # the selector's own work
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        prepare(selector, X, y)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def label(name: str, params: dict) -> str:
    return name + "".join(f" {k}={v}" for k, v in params.items())


def measured(name: str) -> list[dict]:
    X, y, _ = load(name)
    rng = np.random.default_rng(0)
    train = np.sort(rng.choice(y.size, round(0.9 * y.size), replace=False))
    X, y = X[train], y[train]
    rows = []
    for sel_name, params in SELECTORS:
        sel = get_selector(sel_name, params)
        estimate = sel.prepare_nbytes(X, y)
        peak = traced(sel, X, y)
        rows.append({"data": name, "shape": f"{X.shape[0]} x {X.shape[1]}",
                     "selector": label(sel_name, params), "estimate_mib": estimate / 2**20,
                     "traced_peak_mib": peak / 2**20,
                     "ratio": estimate / peak if peak else float("nan")})
        print(f"- {name} {label(sel_name, params)}: estimate {estimate / 2**20:.2f} MiB, "
              f"traced {peak / 2**20:.2f} MiB", flush=True)
    return rows


def estimated() -> list[dict]:
    """Estimates alone (nothing prepared): sparse counts with 10^4 and 10^5 rows (built:
    10^6 and 10^7 non-zeros), and a dense 10^5 x 2 x 10^4 matrix that is never allocated
    (one row broadcast: the estimate reads its shape and counts its non-zeros)."""
    rng = np.random.default_rng(0)
    cases = []
    for n in (10_000, 100_000):
        nnz = n * 100  # density 0.005 of 20,000 columns; repeated positions are summed
        X = sp.csr_matrix((rng.integers(1, 20, nnz).astype(np.float64),
                           (rng.integers(0, n, nnz), rng.integers(0, 20_000, nnz))),
                          shape=(n, 20_000))
        cases.append(("sparse counts, density 0.005", X))
    cases.append(("dense continuous (never allocated)",
                  np.broadcast_to(rng.uniform(1.0, 2.0, 20_000), (100_000, 20_000))))
    rows = []
    for what, X in cases:
        y = np.arange(X.shape[0]) % 2
        for sel_name, params in SELECTORS:
            estimate = get_selector(sel_name, params).prepare_nbytes(X, y)
            rows.append({"data": what, "shape": f"{X.shape[0]} x {X.shape[1]}",
                         "selector": label(sel_name, params),
                         "estimate_mib": estimate / 2**20, "traced_peak_mib": float("nan"),
                         "ratio": float("nan")})
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None)
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    commit = head_commit()
    rows = []
    for name in DATASETS[:1] if args.quick else DATASETS:
        rows += measured(name)
    rows += estimated()
    finish([{**r, "estimate_mib": round(r["estimate_mib"], 2),
             "traced_peak_mib": round(r["traced_peak_mib"], 2),
             "ratio": round(r["ratio"], 2)} for r in rows], args.out, commit)


if __name__ == "__main__":
    main()
