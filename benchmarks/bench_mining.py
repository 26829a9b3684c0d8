"""Mining closed and maximal itemsets of leukemia base models: modelmine vs pyfim vs mlxtend.

Base models (KDD 2012 protocol): top-m genes on b bootstrap resamples of leukemia, by a
univariate chi2 score (min-max scaled expression) or by |coef_| of one linear SVC (C = 0.5,
the paper's SVMONE; pass --rfe for RFE(SVC(kernel='linear', C=0.5), step=0.1), much slower).
For each case it prints counts and times of: modelmine's API (with its default max_itemsets
guard and with max_itemsets=None), pyfim called directly (eclat and fpgrowth, report='a'),
and mlxtend fpgrowth + the closure filter (the route a user would otherwise take; skipped when
there are more than --mlxtend-cap frequent itemsets). Ratios are against the faster of pyfim's
two algorithms.

    python benchmarks/bench_mining.py [--quick] [--rfe]
"""

from __future__ import annotations

import argparse
import time

import fim
import numpy as np
from sklearn.feature_selection import RFE, chi2
from sklearn.preprocessing import MinMaxScaler
from sklearn.svm import SVC

import modelmine as mm
from modelmine.patterns._mining import closed_mask, mine_itemsets

TARGET = {"closed": "c", "maximal": "m"}


def base_models(selector: str, b: int, m: int, seed: int = 0) -> np.ndarray:
    X, y = mm.datasets.load_leukemia()[:2]
    X = np.asarray(X, float)
    Xs = MinMaxScaler().fit_transform(X)
    rng = np.random.default_rng(seed)
    out = np.zeros((b, X.shape[1]), bool)
    for i in range(b):
        idx = rng.integers(0, len(y), len(y))
        if selector == "chi2":
            score = np.nan_to_num(chi2(Xs[idx], y[idx])[0], nan=-np.inf)
            top = np.argsort(-score, kind="stable")[:m]
        elif selector == "svm-rfe":
            rfe = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=m, step=0.1)
            top = np.flatnonzero(rfe.fit(X[idx], y[idx]).support_)
        else:  # svm-one
            w = np.abs(SVC(kernel="linear", C=0.5).fit(X[idx], y[idx]).coef_[0])
            top = np.argsort(-w, kind="stable")[:m]
        out[i, top] = True
    return out


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def run(T, kind, supp, mlxtend_cap):
    b = T.shape[0]
    c = max(1, int(np.ceil(round(supp * b, 9))))
    tracts = [np.flatnonzero(r).tolist() for r in T] + [[]]
    pe, te = timed(lambda: fim.eclat(tracts, target=TARGET[kind], supp=-c))
    n_py = len(pe)
    del pe
    pf, tf = timed(lambda: fim.fpgrowth(tracts, target=TARGET[kind], supp=-c))
    del pf
    ours, t_guard = timed(lambda: mine_itemsets(T, kind=kind, min_support=c))
    _, t_free = timed(lambda: mine_itemsets(T, kind=kind, min_support=c, max_itemsets=None))
    assert len(ours) == n_py
    n_freq = sum(fim.fpgrowth(tracts, target="s", supp=-c, report="#").values())
    t_mlx = float("nan")
    if n_freq <= mlxtend_cap:
        import pandas as pd
        from mlxtend.frequent_patterns import fpgrowth, fpmax

        def mlx():
            keep = T.sum(0) >= c
            df = pd.DataFrame(T[:, keep])
            res = (fpmax if kind == "maximal" else fpgrowth)(df, min_support=(c - .5) / b)
            if kind == "closed":
                sets = res["itemsets"].tolist()
                lengths = np.array([len(s) for s in sets])
                flat = np.fromiter((i for s in sets for i in s), np.int32)
                counts = np.rint(res["support"].to_numpy() * b)
                res = res[closed_mask(lengths, flat, counts, T[:, keep])]
            return res

        res, t_mlx = timed(mlx)
        assert len(res) == n_py
    best = min(te, tf)
    return dict(n=n_py, n_freq=n_freq, eclat=te, fpgrowth=tf, ours=t_guard, ours_noguard=t_free,
                mlxtend=t_mlx, ratio=t_guard / best, ratio_noguard=t_free / best,
                ratio_mlx=t_mlx / best)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="b = 150 only, skip the 2M case")
    ap.add_argument("--rfe", action="store_true", help="svm-rfe instead of one linear SVC")
    ap.add_argument("--mlxtend-cap", type=float, default=2e5)
    args = ap.parse_args()
    svm = "svm-rfe" if args.rfe else "svm-one"
    big = [] if args.quick else [0.1]
    cases = [("chi2", 150, 20, [0.1, 0.3]), ("chi2", 150, 50, [0.3, *big]),
             (svm, 150, 20, [0.05, 0.1]), (svm, 150, 50, [0.1])]
    if not args.quick:
        cases += [("chi2", 1000, 20, [0.1, 0.3]), ("chi2", 1000, 50, [0.3]),
                  (svm, 1000, 20, [0.05])]
    head = (f"{'selector':8} {'b':>5} {'m':>3} {'supp':>5} {'kind':8} {'#itemsets':>10} "
            f"{'#frequent':>10} {'eclat s':>8} {'fpgrw s':>8} {'ours s':>8} {'x':>5} "
            f"{'noguard':>8} {'x':>5} {'mlxtend':>8} {'x':>6}")
    print(head)
    for selector, b, m, supports in cases:
        T = base_models(selector, b, m)
        for supp in supports:
            for kind in ("closed", "maximal"):
                r = run(T, kind, supp, args.mlxtend_cap)
                print(f"{selector:8} {b:5d} {m:3d} {supp:5.2f} {kind:8} {r['n']:10d} "
                      f"{r['n_freq']:10.3g} {r['eclat']:8.3f} {r['fpgrowth']:8.3f} "
                      f"{r['ours']:8.3f} {r['ratio']:5.2f} {r['ours_noguard']:8.3f} "
                      f"{r['ratio_noguard']:5.2f} {r['mlxtend']:8.3f} {r['ratio_mlx']:6.1f}",
                      flush=True)


if __name__ == "__main__":
    main()
