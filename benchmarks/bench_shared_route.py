"""Benchmark: issue 37, work shared by the resamples of one fold, and what a resample costs.

One training fold (a random 90 % of the rows, as in a 10-fold cross-validation) of colon,
leukemia, prostate, BASEHOCK, PCMAC and madelon (the KDD'12 datasets; the text sets with
their whole vocabulary unless ``--min-df``, madelon scaled to [0, 1] as in
``examples/reproduce_kdd12.py``), bootstraps drawn as :func:`modelmine.bootstrap` draws
them. Single-threaded (``threadpool_limits(1)``, as in a worker); CPU seconds
(``time.process_time``) and wall seconds, in one process, the routes interleaved
resample by resample.

1. WEKA's ReliefF (``get_selector("relieff", {"variant": "weka"})``, WEKA's default
   ``-K 10``; ``-W`` costs the same), per resample:

   * "before": the code before issue 37 (frozen below, ``before_relieff_weka_scores``):
     ``pdist`` over the range-scaled columns of ``X[rows]``, a dense block at a time;
   * "select": the per-resample route now, ``selector.select(X[rows], y[rows])``;
   * "shared": what :func:`modelmine.bootstrap` does, ``selector.prepare`` once per fold
     (amortised over the resamples) and ``selector.select_rows``.

   The slow routes run on the first ``--b-slow`` resamples, the shared route on ``--b``;
   "equal" checks that all three give the same floats on the common resamples. Also
   printed: why the distances are not shared across resamples (the fraction of features
   whose range in the resample differs from the fold's, and of the distinct rows holding
   one of them), and the working set of the distances (``working_set_bytes``).
2. The KDD'12 selectors (ig, chi2, su, relieff as scikit-rebate's and as WEKA's, svm-rfe,
   svm, cfs, and oner), each through its default route (``prepare`` once + ``select_rows``
   per resample, as a worker of :func:`modelmine.bootstrap` runs them): seconds per
   resample, prepare included, and the estimate of the full KDD'12 run (10 folds x
   b = 150 per selector and dataset, the seven selectors with WEKA's ReliefF) on two cores.

Run: ``.venv/bin/python benchmarks/bench_shared_route.py --out
benchmarks/results/shared_route.csv | tee benchmarks/results/shared_route.log`` (the
second table goes to ``shared_route_selectors.csv``; ``--quick``: b = 2, one slow
resample, for ``make bench``).
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.sparse as sp
from scipy.spatial.distance import pdist, squareform
from threadpoolctl import threadpool_limits

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _record import finish, head_commit

import modelmine as mm
from modelmine.base_models._resampling import resample_indices
from modelmine.selectors import get_selector
from modelmine.selectors._relieff import _block_width, _column_blocks
from modelmine.selectors._relieff_weka import _weka_sort, working_set_bytes

DATASETS = ["colon", "leukemia", "prostate", "basehock", "pcmac", "madelon"]
WEKA_DATASETS = ["colon", "leukemia", "basehock", "pcmac", "madelon"]
KDD12 = ["ig", "chi2", "su", "relieff", "relieff-weka", "svm-rfe", "svm", "cfs", "oner"]
SEVEN = ["ig", "chi2", "su", "relieff-weka", "svm-rfe", "svm", "cfs"]  # the paper's seven


def before_relieff_weka_scores(X: Any, y: np.ndarray, k: int = 10) -> np.ndarray:
    """``relieff_weka_scores(X, y, weight_by_distance=False)`` before issue 37 (commit
    832506f), for the timing (also the reference of tests/selectors/test_relieff_weka_shared)."""
    n, p = X.shape
    n_classes = int(y.max()) + 1
    mn, rng = np.empty(p), np.empty(p)
    for a, b, block in _column_blocks(X, _block_width(n)):
        mn[a:b] = block.min(axis=0)
        rng[a:b] = block.max(axis=0) - mn[a:b]
    safe = np.where(rng > 0, rng, 1.0)
    dist = np.zeros(n * (n - 1) // 2)
    for a, b, block in _column_blocks(X, _block_width(n)):
        dist += pdist(np.where(rng[a:b] > 0, (block - mn[a:b]) / safe[a:b], 0.0), "cityblock")
    D = squareform(dist)
    slot_d = np.full((n, n_classes, k), np.inf)
    slot_i = np.full((n, n_classes, k), -1, dtype=np.intp)
    everyone = np.arange(n)
    for i in range(n):
        rows, c = everyone[everyone != i], int(y[i])
        d, slots = D[rows, i], slot_d[rows, c]
        worst = np.argmax(slots, axis=1)
        take = d < slots[np.arange(rows.size), worst]
        slot_d[rows[take], c, worst[take]] = d[take]
        slot_i[rows[take], c, worst[take]] = i
    rank = np.zeros((n, n_classes, k), dtype=np.intp)
    filled = (slot_i >= 0).sum(axis=2)
    for r in range(n):
        for c in range(n_classes):
            s = int(filled[r, c])
            rank[r, c, _weka_sort(slot_d[r, c, :s].tolist())] = np.arange(s)
    inst, cls, slot = np.nonzero(slot_i >= 0)
    neigh = slot_i[inst, cls, slot]
    counts = np.bincount(y, minlength=n_classes)
    stored = np.minimum(counts[None, :] - np.eye(n_classes, dtype=np.int64)[y], k)
    yi, yj = y[inst], y[neigh]
    w = 1.0 / stored[inst, yj].astype(np.float64)
    prior = counts / float(n)
    miss = prior[yj] / (1.0 - prior[yi]) if n_classes > 2 else np.ones(yj.size)
    weights = np.where(yi == yj, -w, w * miss)
    rows_of: Any = sp.csr_matrix(X) if sp.issparse(X) else X
    scores = np.zeros(p)
    chunk = max(1, (1 << 16) // p)
    for start in range(0, inst.size, chunk):
        sl = slice(start, start + chunk)
        xi, xj = rows_of[inst[sl]], rows_of[neigh[sl]]
        if sp.issparse(xi):
            xi, xj = xi.toarray(), xj.toarray()
        diff = np.abs((xi - mn) / safe - (xj - mn) / safe)
        diff[:, rng <= 0] = 0.0
        scores += weights[sl] @ diff
    return scores / float(n)


def load(name: str, min_df: int) -> tuple[Any, np.ndarray]:
    text = name in ("basehock", "pcmac")
    X, y = mm.datasets.load(name, min_df=min_df if text else 1,
                            scale="minmax" if name == "madelon" else None)[:2]
    X = sp.csr_matrix(X, dtype=np.float64) if sp.issparse(X) else np.asarray(X, np.float64)
    return X, np.unique(np.asarray(y), return_inverse=True)[1].astype(np.int64)


def fold_and_resamples(X: Any, y: np.ndarray, b: int, seed: int = 0
                       ) -> tuple[Any, np.ndarray, list[np.ndarray]]:
    rng = np.random.default_rng(seed)
    keep = np.sort(rng.choice(X.shape[0], round(0.9 * X.shape[0]), replace=False))
    Xf, yf = X[keep], y[keep]
    rows = [resample_indices(yf, np.random.default_rng([seed, i]), method="bootstrap",
                             fraction=1.0, stratify=False) for i in range(b)]
    return Xf, yf, rows


def timed(fn: Any, *args: Any, **kwargs: Any) -> tuple[Any, float, float]:
    c, w = time.process_time(), time.perf_counter()
    out = fn(*args, **kwargs)
    return out, time.process_time() - c, time.perf_counter() - w


def range_changes(X: Any, rows: np.ndarray) -> tuple[float, float]:
    """Fraction of the features whose min or max over the resample differs from the
    fold's, and fraction of the resample's distinct rows non-zero (sparse) in one of them."""
    def mn_mx(A: Any) -> tuple[np.ndarray, np.ndarray]:
        if sp.issparse(A):
            return A.min(axis=0).toarray().ravel(), A.max(axis=0).toarray().ravel()
        return A.min(axis=0), A.max(axis=0)
    fmn, fmx = mn_mx(X)
    Xu = X[np.unique(rows)]
    mn, mx = mn_mx(Xu)
    changed = (mn != fmn) | (mx != fmx)
    if not changed.any():
        return 0.0, 0.0
    if sp.issparse(Xu):
        touch = np.diff(sp.csr_matrix(Xu[:, np.flatnonzero(changed)]).indptr) > 0
        return float(changed.mean()), float(touch.mean())
    return float(changed.mean()), 1.0


def weka_part(args: argparse.Namespace, rows_out: list[dict]) -> None:
    sel = get_selector("relieff", {"variant": "weka"})
    sel_w = get_selector("relieff", {"weight_by_distance": True})
    for name in WEKA_DATASETS:
        X, y = load(name, args.min_df)
        Xf, yf, resamples = fold_and_resamples(X, y, args.b)
        prepared, prep_cpu, prep_wall = timed(sel.prepare, Xf, yf)
        cpu = {"before": [], "select": [], "shared": [], "shared -W": []}
        wall = {key: [] for key in cpu}
        equal = True
        for i, rows in enumerate(resamples):
            got, c, w = timed(sel.select_rows, prepared, Xf, yf, rows, random_state=0)
            cpu["shared"].append(c)
            wall["shared"].append(w)
            _, c, w = timed(sel_w.select_rows, prepared, Xf, yf, rows, random_state=0)
            cpu["shared -W"].append(c)
            wall["shared -W"].append(w)
            if i < args.b_slow:
                plain, c, w = timed(sel.select, Xf[rows], yf[rows], random_state=0)
                cpu["select"].append(c)
                wall["select"].append(w)
                old, c, w = timed(before_relieff_weka_scores, Xf[rows], yf[rows])
                cpu["before"].append(c)
                wall["before"].append(w)
                equal &= bool(np.array_equal(got.scores, plain.scores)
                              and np.array_equal(got.scores, old))
        m = np.mean([np.unique(r).size for r in resamples])
        changed, touching = np.mean([range_changes(Xf, r) for r in resamples[:3]], axis=0)
        n_f = Xf.shape[0]
        ws = working_set_bytes(n_f, round(float(m)), 2, 10, Xf.shape[1],
                               sparse=sp.issparse(prepared.X))  # PCMAC is held sparse
        shared = (prep_cpu + sum(cpu["shared"])) / len(resamples)
        row = {
            "dataset": name, "n_rows": n_f, "n_features": Xf.shape[1],
            "n_distinct": round(float(m), 1),
            "b_shared": len(resamples), "b_slow": len(cpu["before"]),
            "before_s": round(float(np.mean(cpu["before"])), 4),
            "select_s": round(float(np.mean(cpu["select"])), 4),
            "shared_s": round(shared, 4),
            "shared_W_s": round((prep_cpu + sum(cpu["shared -W"])) / len(resamples), 4),
            "prepare_s": round(prep_cpu, 4),
            "before_over_shared": round(float(np.mean(cpu["before"])) / shared, 1),
            "select_over_shared": round(float(np.mean(cpu["select"])) / shared, 2),
            "before_wall_s": round(float(np.mean(wall["before"])), 4),
            "shared_wall_s": round((prep_wall + sum(wall["shared"])) / len(resamples), 4),
            "equal": equal,
            "range_changed": round(float(changed), 3),
            "rows_touching_changed": round(float(touching), 3),
            "working_set_MB": round(ws / 1e6, 1),
        }
        rows_out.append(row)
        print(f"- WEKA ReliefF, {name} {Xf.shape}: before {row['before_s']:.3f} s, select "
              f"{row['select_s']:.3f} s, shared {row['shared_s']:.3f} s per resample "
              f"(before / shared {row['before_over_shared']}x, select / shared "
              f"{row['select_over_shared']}x), equal {equal}", flush=True)


def selectors_part(args: argparse.Namespace, rows_out: list[dict]) -> None:
    for name in DATASETS:
        X, y = load(name, args.min_df)
        Xf, yf, resamples = fold_and_resamples(X, y, args.b_selectors, seed=1)
        for sname in KDD12:
            # "relieff" is scikit-rebate's (the default before issue 37), "relieff-weka" WEKA's
            sel = (get_selector("relieff", {"variant": "weka"}) if sname == "relieff-weka"
                   else get_selector("relieff", {"variant": "skrebate"}) if sname == "relieff"
                   else get_selector(sname))
            prepared, prep_cpu, prep_wall = timed(sel.prepare, Xf, yf)
            cpu, wall = [], []
            for i, rows in enumerate(resamples):
                _, c, w = timed(sel.select_rows, prepared, Xf, yf, rows, random_state=i)
                cpu.append(c)
                wall.append(w)
            per = (prep_cpu + sum(cpu)) / len(resamples)
            rows_out.append({
                "dataset": name, "selector": sname, "n_rows": Xf.shape[0],
                "n_features": Xf.shape[1], "b": len(resamples),
                "prepare_s": round(prep_cpu, 4), "per_resample_s": round(per, 4),
                "per_resample_wall_s": round((prep_wall + sum(wall)) / len(resamples), 4),
                "shared_route": prepared is not None,
            })
            print(f"- {name}, {sname}: {per:.3f} s per resample", flush=True)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--b", type=int, default=10, help="resamples of the shared route")
    ap.add_argument("--b-slow", type=int, default=3,
                    help="resamples of the per-resample routes (the first of the --b)")
    ap.add_argument("--b-selectors", type=int, default=3,
                    help="resamples per KDD'12 selector and dataset")
    ap.add_argument("--min-df", type=int, default=1,
                    help="text data: words in at least this many documents")
    ap.add_argument("--quick", action="store_true", help="b = 2, one slow resample")
    ap.add_argument("--out", default=None, help="CSV of part 1 (part 2: *_selectors.csv)")
    args = ap.parse_args(argv)
    if args.quick:
        args.b, args.b_slow, args.b_selectors = 2, 1, 1
    commit = head_commit()
    print(f"# commit {commit}; command: .venv/bin/python {Path(sys.argv[0]).as_posix()} "
          f"{' '.join(sys.argv[1:])}")
    print(f"# {platform.node()}, {platform.processor() or platform.machine()}, "
          f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at the start; "
          f"numpy {np.__version__}, scipy {sp.__name__.split('.')[0]} "
          f"{__import__('scipy').__version__}; single-threaded")
    t0 = time.perf_counter()
    weka_rows: list[dict] = []
    sel_rows: list[dict] = []
    with threadpool_limits(limits=1):
        weka_part(args, weka_rows)
        selectors_part(args, sel_rows)
    print("\n## 1. WEKA's ReliefF: CPU seconds per resample, shared route against "
          "per-resample routes")
    finish(weka_rows, args.out, commit)
    print("\n## 2. The KDD'12 selectors, default route: CPU seconds per resample")
    out2 = None if args.out is None else args.out.replace(".csv", "_selectors.csv")
    table = finish(sel_rows, out2, commit)
    per = table.pivot(index="dataset", columns="selector", values="per_resample_s")
    per = per.reindex(index=DATASETS, columns=KDD12)
    print("\n" + per.round(3).to_string())
    seven = per[SEVEN].sum(axis=1)
    skre = per[[s if s != "relieff-weka" else "relieff" for s in SEVEN]].sum(axis=1)
    hours = seven * 10 * 150 / 2 / 3600
    print("\nFull KDD'12 run (10 folds x b = 150, the seven selectors, CPU seconds per "
          "resample as measured here, on 2 cores): hours per dataset")
    print(pd.DataFrame({"seven_s": seven.round(2), "hours_weka_relieff": hours.round(2),
                        "hours_skrebate_relieff": (skre * 10 * 150 / 2 / 3600).round(2)}
                       ).to_string())
    print(f"total: {hours.sum():.1f} h with WEKA's ReliefF, "
          f"{(skre * 10 * 150 / 2 / 3600).sum():.1f} h with scikit-rebate's "
          "(one fit per resample; the fits on the whole folds and the evaluation not counted)")
    print(f"# benchmark wall time {time.perf_counter() - t0:.0f} s")


if __name__ == "__main__":
    main()
