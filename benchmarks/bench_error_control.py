"""Benchmark: error-controlled selection on data with known truth (issue 12).

Three parts, each printing a markdown table (docs/error_control.md quotes them):

1. ``simulation``: n = 100 samples, p = 2000 features of which 20 carry signal (class mean
   shift of +-``--effect`` standard deviations, independent Gaussian features), over
   ``--seeds`` seeds. The base models: anova, m = 20, b = ``--b`` complementary-pairs
   halves, with permuted artificial features. Per method: mean number of selected
   features, mean false positives, mean FDP, mean power. Methods: stabilitySelection
   (PFER 1) with the three bounds, stabl (Stabl's rule and fdr = 0.2), mostFreq and
   closedApr at m = 20, the permutation null (q <= 0.05), and Boruta (the ``boruta``
   package, BorutaPy with a random forest) as an outside reference.
2. ``permuted``: colon and leukemia with permuted labels: how many features each
   error-controlled operator selects (the truth is none).
3. ``madelon``: the NIPS 2003 madelon data (2600 x 500, 20 relevant features: found here
   as the features correlated with another feature, |r| > 0.3, which matches the list
   published for the challenge), with relieff and svm-rfe: power and false selections of
   each method. svm-rfe runs on a stratified subsample (``--madelon-n``) to stay short.

Run: ``.venv/bin/python benchmarks/bench_error_control.py [--seeds 20] [--parts ...]``.
"""

from __future__ import annotations

import argparse
import sys
import time
import warnings

import numpy as np

import modelmine as mm
from modelmine.report import markdown_table

SIGNAL = 20


def simulate(seed: int, n: int = 100, p: int = 2000, effect: float = 0.5):
    rng = np.random.default_rng(seed)
    y = np.repeat([0, 1], n // 2)
    X = rng.standard_normal((n, p))
    X[:, :SIGNAL] += effect * (2 * y[:, None] - 1)
    return X, y


def _row(rows: dict, method: str, selected, truth: set[int]) -> None:
    sel = set(int(f) for f in selected)
    fp = len(sel - truth)
    rows.setdefault(method, []).append(
        (len(sel), fp, fp / max(1, len(sel)), len(sel & truth) / len(truth)))


def _methods(base, rows, truth, *, m: int, X=None, y=None, null_perms: int = 0,
             seed: int = 0) -> None:
    for bound in ("ss-unimodal", "ss-r-concave", "mb"):
        sig = mm.aggregate(base, "stabilitySelection", pfer=1.0, bound=bound)
        _row(rows, f"stabilitySelection (PFER 1, {bound})", sig.features, truth)
    if base.has_artificial:
        _row(rows, "stabl (Stabl's rule)", mm.aggregate(base, "stabl").features, truth)
        _row(rows, "stabl (fdr 0.2)", mm.aggregate(base, "stabl", fdr=0.2).features, truth)
    _row(rows, f"mostFreq (m = {m})", mm.aggregate(base, "mostFreq", n_features=m).features,
         truth)
    _row(rows, f"closedApr (m = {m})", mm.aggregate(base, "closedApr", n_features=m).features,
         truth)
    if null_perms:
        null = mm.evaluation.selection_null(X, y, base=base, n_permutations=null_perms,
                                             random_state=seed, progress=False)
        _row(rows, f"permutation null (q <= 0.05, {null_perms} perm.)", null.significant(),
             truth)


def _boruta(X, y, seed: int, max_iter: int):
    from boruta import BorutaPy
    from sklearn.ensemble import RandomForestClassifier

    rf = RandomForestClassifier(n_jobs=1, max_depth=5, class_weight="balanced",
                                random_state=seed)
    selector = BorutaPy(rf, n_estimators="auto", max_iter=max_iter, random_state=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        selector.fit(np.asarray(X, dtype=float), np.asarray(y))
    return np.flatnonzero(selector.support_)


def _table(rows: dict) -> str:
    out = []
    for method, vals in rows.items():
        a = np.asarray(vals, dtype=float)
        out.append({"method": method, "runs": len(a), "selected": f"{a[:, 0].mean():.1f}",
                    "false positives": f"{a[:, 1].mean():.2f}",
                    "FDP": f"{a[:, 2].mean():.3f}", "power": f"{a[:, 3].mean():.3f}"})
    import pandas as pd

    return markdown_table(pd.DataFrame(out))


def part_simulation(args) -> None:
    rows: dict = {}
    truth = set(range(SIGNAL))
    boruta_ok = True
    try:
        import boruta  # noqa: F401
    except ImportError:
        boruta_ok = False
    t0 = time.time()
    for seed in range(args.seeds):
        X, y = simulate(seed, effect=args.effect)
        base = mm.bootstrap(X, y, "anova", n_bootstraps=args.b, n_features=20,
                            resampling="complementary-pairs",
                            artificial_features="permutation", random_state=seed,
                            fit_full=False, progress=False, n_jobs=args.jobs)
        _methods(base, rows, truth, m=20, X=X, y=y, null_perms=args.null, seed=seed)
        if boruta_ok and args.boruta_iter:
            _row(rows, "Boruta (boruta package)", _boruta(X, y, seed, args.boruta_iter), truth)
        print(f"seed {seed} done ({time.time() - t0:.0f} s)", file=sys.stderr, flush=True)
    print(f"\n## Simulation: n = 100, p = 2000, {SIGNAL} signal features (effect "
          f"{args.effect}), anova, b = {args.b} complementary-pairs halves, {args.seeds} "
          f"seeds ({time.time() - t0:.0f} s)\n")
    if not boruta_ok:
        print("(Boruta not run: the boruta package is not installed)\n")
    print(_table(rows))


def part_permuted(args) -> None:
    rows = []
    for name in ("colon", "leukemia"):
        X, y = getattr(mm.datasets, f"load_{name}")()
        for seed in range(args.perm_seeds):
            yp = np.random.default_rng(seed).permutation(y)
            base = mm.bootstrap(X, yp, "anova", n_bootstraps=args.b, n_features=20,
                                resampling="complementary-pairs",
                                artificial_features="permutation", random_state=seed,
                                fit_full=False, progress=False, n_jobs=args.jobs)
            rows.append({
                "data": name, "seed": seed,
                "Nogueira": f"{mm.diagnostics.nogueira_stability(base.subsets).value:.3f}",
                "stabilitySelection (PFER 1)": len(mm.aggregate(base, "stabilitySelection",
                                                                pfer=1.0)),
                "stabilitySelection (r-concave)": len(mm.aggregate(
                    base, "stabilitySelection", pfer=1.0, bound="ss-r-concave")),
                "stabl (Stabl's rule)": len(mm.aggregate(base, "stabl")),
                "stabl (fdr 0.2)": len(mm.aggregate(base, "stabl", fdr=0.2)),
            })
    import pandas as pd

    print(f"\n## Permuted labels (truth: nothing to find), anova, b = {args.b}\n")
    print(markdown_table(pd.DataFrame(rows)))


def madelon_truth(X: np.ndarray) -> set[int]:
    C = np.corrcoef(X.T)
    np.fill_diagonal(C, 0.0)
    return set(np.flatnonzero(np.abs(C).max(axis=0) > 0.3).tolist())


def part_madelon(args) -> None:
    data = mm.datasets.read_data("/work/shared/datasets/madelon.mat"
                                 if args.madelon is None else args.madelon)
    X = np.asarray(data.X, dtype=float)
    y = data.y
    truth = madelon_truth(X)
    print(f"\n## Madelon (2600 x 500): {len(truth)} relevant features found by correlation\n")
    # svm-rfe needs standardised features (madelon's raw uint16 values make libsvm crawl)
    Xs = (X - X.mean(axis=0)) / X.std(axis=0)
    sizes = {"relieff": X.shape[0], "svm-rfe": args.madelon_n}
    for selector in args.madelon_selectors:
        n = sizes[selector]
        rng = np.random.default_rng(0)
        idx = np.sort(np.concatenate([rng.choice(np.flatnonzero(y == c), n // 2,
                                                 replace=False) for c in np.unique(y)]))
        rows: dict = {}
        t0 = time.time()
        base = mm.bootstrap(Xs[idx], y[idx], selector, n_bootstraps=args.madelon_b,
                            n_features=20, resampling="complementary-pairs",
                            artificial_features="permutation", random_state=0,
                            fit_full=False, progress=False, n_jobs=args.jobs)
        _methods(base, rows, truth, m=20)
        print(f"### {selector}: n = {len(idx)}, b = {args.madelon_b} "
              f"({time.time() - t0:.0f} s)\n")
        print(_table(rows))
        print()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--parts", nargs="+", default=["simulation", "permuted", "madelon"])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--effect", type=float, default=0.5)
    ap.add_argument("--b", type=int, default=100)
    ap.add_argument("--null", type=int, default=0, help="permutations of the null (0: off)")
    ap.add_argument("--boruta-iter", type=int, default=50, help="0: skip Boruta")
    ap.add_argument("--perm-seeds", type=int, default=3)
    ap.add_argument("--madelon", default=None)
    ap.add_argument("--madelon-b", type=int, default=20)
    ap.add_argument("--madelon-n", type=int, default=600)
    ap.add_argument("--madelon-selectors", nargs="+", default=["relieff", "svm-rfe"])
    ap.add_argument("--jobs", type=int, default=1)
    args = ap.parse_args()
    for part in args.parts:
        {"simulation": part_simulation, "permuted": part_permuted,
         "madelon": part_madelon}[part](args)


if __name__ == "__main__":
    main()
