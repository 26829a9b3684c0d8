"""Bootstrap throughput by selector, and the memory of a large run (issue: scale, 1 and 3).

1. For each selector, b bootstraps of leukemia (dense, 72 x 7129) and BASEHOCK (sparse,
   1993 x 4862): modelmine serial, modelmine with n_jobs=2, and the loop a user would write
   with scikit-learn / skrebate (a plain Python loop over resamples calling the library).
   Library routes slower than a few seconds per fit are timed on a few fits and
   extrapolated to b (marked "~"). Prints seconds per fit and the ratios side by side.
2. Peak resident memory of ``bootstrap`` with b = 5000 on leukemia (in a fresh process),
   next to the size of the b x p matrices it returns.

Run: ``.venv/bin/python benchmarks/bench_bootstrap.py [--b 150] [--quick]``.
"""

from __future__ import annotations

import argparse
import json
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sp

import modelmine as mm

#: modelmine's parameters per selector, so that both sides compute the same thing: ReliefF
#: as scikit-rebate's (the loop's library; WEKA's is the default since issue 37).
PARAMS: dict[str, dict[str, Any]] = {"relieff": {"variant": "skrebate"}}


def _loop_routes() -> dict[str, Callable[[Any, np.ndarray], Any]]:
    """The route a user would take for each selector without modelmine (one fit)."""
    from sklearn.ensemble import RandomForestClassifier
    from sklearn.feature_selection import RFE, chi2, f_classif, mutual_info_classif
    from sklearn.linear_model import LogisticRegression
    from sklearn.svm import SVC

    def relieff(X, y):
        from skrebate import ReliefF

        Xd = X.toarray() if sp.issparse(X) else X
        return ReliefF(n_neighbors=10, n_jobs=1).fit(Xd, y).feature_importances_

    return {
        "anova": lambda X, y: f_classif(X, y)[0],
        "chi2": lambda X, y: chi2(X, y)[0],  # sklearn's needs non-negative X (counts only)
        "ig": lambda X, y: mutual_info_classif(X, y, random_state=0),
        "su": lambda X, y: mutual_info_classif(X, y, random_state=0),
        "relieff": relieff,
        "svm-rfe": lambda X, y: RFE(SVC(kernel="linear", C=0.5), n_features_to_select=1,
                                    step=0.1).fit(X, y).ranking_,
        "svm": lambda X, y: SVC(kernel="linear", C=0.5).fit(X, y).coef_,
        "l1-logistic": lambda X, y: LogisticRegression(
            C=0.1, l1_ratio=1.0, solver="liblinear").fit(X, y).coef_,
        "random-forest": lambda X, y: RandomForestClassifier(
            n_estimators=100, n_jobs=1, random_state=0).fit(X, y).feature_importances_,
    }


def time_loop(route: Callable[[Any, np.ndarray], Any], X: Any, y: np.ndarray, b: int,
              budget: float) -> tuple[float, bool]:
    """Seconds per fit of the user's loop; extrapolated when the budget runs out."""
    rng = np.random.default_rng(0)
    start = time.perf_counter()
    done = 0
    for _ in range(b):
        idx = rng.choice(y.size, size=y.size, replace=True)
        route(X[idx], y[idx])
        done += 1
        if time.perf_counter() - start > budget and done >= 2:
            break
    return (time.perf_counter() - start) / done, done < b


def time_modelmine(selector: str, X: Any, y: np.ndarray, b: int, n_jobs: int) -> float:
    if n_jobs > 1:  # start the worker processes first: a long-lived session pays it once
        mm.bootstrap(X, y, selector="anova", n_bootstraps=2 * n_jobs, n_features=2,
                     n_jobs=n_jobs, fit_full=False, progress=False)
    start = time.perf_counter()
    mm.bootstrap(X, y, selector=selector, n_bootstraps=b, n_features=20, random_state=0,
                 selector_params=PARAMS.get(selector), n_jobs=n_jobs, fit_full=False,
                 progress=False)
    return (time.perf_counter() - start) / b


_MEMORY_CHILD = """
import json, resource, sys, time
import modelmine as mm
X, y = mm.datasets.load_leukemia()
b = int(sys.argv[1])
t = time.perf_counter()
base = mm.bootstrap(X, y, selector="anova", n_bootstraps=b, n_features=50, random_state=0,
                    n_jobs=1, progress=False)
elapsed = time.perf_counter() - t
arrays = base.subsets.nbytes + base.ranks.nbytes + base.scores.nbytes + base.sample_indices.nbytes
print(json.dumps({"peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
                  "arrays": arrays, "seconds": elapsed,
                  "float64_arrays": base.subsets.size * (8 + 8 + 8)}))
"""


def memory(b: int) -> dict[str, float]:
    out = subprocess.run([sys.executable, "-c", _MEMORY_CHILD, str(b)], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", type=int, default=150, help="bootstraps per selector")
    parser.add_argument("--quick", action="store_true", help="b = 20 and fewer selectors")
    parser.add_argument("--memory-b", type=int, default=5000)
    parser.add_argument("--budget", type=float, default=20.0,
                        help="seconds per library loop before extrapolating")
    parser.add_argument("--selectors", nargs="+", default=None,
                        help="only these selectors (default: all)")
    parser.add_argument("--datasets", nargs="+", default=["leukemia", "basehock"],
                        choices=["leukemia", "basehock"])
    args = parser.parse_args()
    b = 20 if args.quick else args.b
    routes = _loop_routes()
    selectors = args.selectors or (["anova", "svm-rfe", "relieff"] if args.quick
                                   else list(routes))
    loaders = {"leukemia": mm.datasets.load_leukemia, "basehock": mm.datasets.load_basehock}
    datasets = {name: loaders[name]() for name in args.datasets}
    print(f"modelmine {mm.__version__}, {platform.processor() or platform.machine()}, "
          f"{time.strftime('%Y-%m-%d')}, b = {b}, m = 20")
    header = (f"{'dataset':9} {'selector':14} {'loop s/fit':>11} {'mm s/fit':>9} "
              f"{'mm x2 s/fit':>11} {'loop/mm':>8} {'serial/x2':>9}")
    print(header)
    print("-" * len(header))
    for dname, (X, y) in datasets.items():
        for name in selectors:
            if name == "chi2" and not sp.issparse(X):
                loop_txt = "n/a"  # sklearn's chi2 refuses negative expression values
                loop = None
            else:
                loop, extrapolated = time_loop(routes[name], X, y, b, args.budget)
                loop_txt = ("~" if extrapolated else "") + f"{loop:.4f}"
            serial = time_modelmine(name, X, y, b, 1)
            parallel = time_modelmine(name, X, y, b, 2)
            ratio = f"{loop / serial:8.1f}" if loop else f"{'n/a':>8}"
            print(f"{dname:9} {name:14} {loop_txt:>11} {serial:9.4f} {parallel:11.4f} "
                  f"{ratio} {serial / parallel:9.2f}", flush=True)
    print("\nmm x2 = n_jobs=2, with the two worker processes already started (starting them "
          "costs about a second, once per session).")
    print("'loop' = a Python loop over bootstrap resamples calling the library route: "
          "skrebate ReliefF, mutual_info_classif (for ig/su: a different estimator), "
          "RFE(SVC(linear)), ...; '~' = extrapolated from the fits done within the budget.")
    mem = memory(args.memory_b)
    print(f"\nmemory, b = {args.memory_b} on leukemia (anova, m = 50): peak RSS "
          f"{mem['peak_rss'] / 2**20:.0f} MiB, BaseModels arrays {mem['arrays'] / 2**20:.0f} MiB "
          f"(float64/int64 would be {mem['float64_arrays'] / 2**20:.0f} MiB), "
          f"{mem['seconds']:.1f} s")


if __name__ == "__main__":
    main()
