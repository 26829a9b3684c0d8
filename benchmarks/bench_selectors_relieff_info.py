"""Speed and agreement of modelmine's ReliefF, IG and SU against the library routes.

Run: ``.venv/bin/python benchmarks/bench_selectors_relieff_info.py [--repeats 3]``

On colon and leukemia it times (median of a few repeats):

- ``relieff_scores`` vs ``skrebate.ReliefF(n_neighbors=10).fit`` (max abs difference of the
  weights);
- IG / SU from the same MDL codes: our single-``bincount`` tables vs a per-feature loop of
  ``sklearn.metrics.mutual_info_score`` (+ ``scipy.stats.entropy`` for SU);
- the full ``information_gain`` (MDL discretisation included) vs that loop, and
  ``sklearn.feature_selection.mutual_info_classif`` (a different, k-NN estimator on the raw
  values: only its time is reported, a difference would be meaningless).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from typing import Any

import numpy as np
from scipy.stats import entropy
from sklearn.feature_selection import mutual_info_classif
from sklearn.metrics import mutual_info_score
from skrebate import ReliefF

import modelmine as mm
from modelmine.selectors._information import (
    _ig_and_entropies,
    discretize,
    information_gain,
    symmetrical_uncertainty,
)
from modelmine.selectors._relieff import relieff_scores


def timed(fn: Callable[[], Any], repeats: int) -> tuple[float, Any]:
    times, out = [], None
    for _ in range(repeats):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times), out


def loop_ig(codes: np.ndarray, y: np.ndarray) -> np.ndarray:
    return np.array([mutual_info_score(y, codes[:, j]) for j in range(codes.shape[1])])


def loop_su(codes: np.ndarray, y: np.ndarray) -> np.ndarray:
    h_c = entropy(np.bincount(y))
    out = np.empty(codes.shape[1])
    for j in range(codes.shape[1]):
        ig = mutual_info_score(y, codes[:, j])
        h = h_c + entropy(np.bincount(codes[:, j]))
        out[j] = 2 * ig / h if h > 0 else 0.0
    return out


def su_from_codes(codes: np.ndarray, n_levels: np.ndarray, y: np.ndarray) -> np.ndarray:
    ig, h_c, h_f = _ig_and_entropies(codes, n_levels, y)
    return np.where(h_c + h_f > 0, 2 * ig / (h_c + h_f), 0.0)


def bench_dataset(name: str, r: int) -> list[tuple[Any, ...]]:
    """Rows (data, ours, library, our s, library s, our result, library result)."""
    rows: list[tuple[Any, ...]] = []
    X, y_raw = getattr(mm.datasets, f"load_{name}")()
    y = np.unique(y_raw, return_inverse=True)[1].astype(np.int64)
    codes, n_levels = discretize(X, y)

    t_lib, ref = timed(lambda: ReliefF(n_neighbors=10).fit(X, y_raw).feature_importances_,
                       max(1, r - 1))
    t_our, ours = timed(lambda: relieff_scores(X, y), r)
    rows.append((name, "relieff", "skrebate ReliefF(10)", t_our, t_lib, ours, ref))

    t_lib, ref = timed(lambda: loop_ig(codes, y), r)
    t_our, ours = timed(lambda: _ig_and_entropies(codes, n_levels, y)[0], r)
    rows.append((name, "ig (codes)", "mutual_info_score loop", t_our, t_lib, ours, ref))
    t_our, ours = timed(lambda: information_gain(X, y), r)
    rows.append((name, "ig (MDL+scores)", "mutual_info_score loop", t_our, t_lib, ours, ref))

    t_lib, ref = timed(lambda: loop_su(codes, y), r)
    t_our, ours = timed(lambda: su_from_codes(codes, n_levels, y), r)
    rows.append((name, "su (codes)", "mi_score+entropy loop", t_our, t_lib, ours, ref))
    t_our, ours = timed(lambda: symmetrical_uncertainty(X, y), r)
    rows.append((name, "su (MDL+scores)", "mi_score+entropy loop", t_our, t_lib, ours, ref))

    t_lib, _ = timed(lambda: mutual_info_classif(X, y, random_state=0), max(1, r - 1))
    t_our, _ = timed(lambda: information_gain(X, y), r)
    rows.append((name, "ig (MDL+scores)", "mutual_info_classif", t_our, t_lib, None, None))

    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--datasets", nargs="+", default=["colon", "leukemia"])
    args = parser.parse_args()
    rows = [row for name in args.datasets for row in bench_dataset(name, args.repeats)]
    header = f"{'data':9} {'ours':16} {'library':24} {'ours (s)':>9} {'lib (s)':>9} " \
             f"{'ratio':>8} {'max |diff|':>11}"
    print(header)
    print("-" * len(header))
    for name, what, lib, t_our, t_lib, ours, ref in rows:
        diff = "n/a" if ref is None else f"{np.max(np.abs(ours - ref)):.1e}"
        print(f"{name:9} {what:16} {lib:24} {t_our:9.4f} {t_lib:9.3f} "
              f"{t_lib / t_our:7.0f}x {diff:>11}")


if __name__ == "__main__":
    main()
