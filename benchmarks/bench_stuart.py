"""Benchmark: Stuart's Q computed stably for any number of rank lists (issue 25, item 5).

1. Accuracy: ``stuart_scores(..., log=True)`` against Stuart's recursion evaluated in
   high-precision arithmetic (mpmath; the recursion cancels, so it needs about 2 b digits
   plus those of Q itself) for b = 10, 50, 200 and 1,000 lists, on three kinds of feature
   (ranks anywhere among p = 2,000, near the top of every list, and a few rank values
   shared by many lists): the absolute difference of log Q.
2. What the alternating recursion in double precision (modelmine before issue 25, and R's
   RobustRankAggreg) loses: the number of features out of 2,000 whose Q it cannot compute.
3. Time of ``stuart_scores`` for p = 2,000 features against the old recursion.

Run: ``.venv/bin/python benchmarks/bench_stuart.py [--quick] [--out CSV]`` (``--quick``:
no b = 1,000 accuracy case, which takes minutes in mpmath).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from scipy.special import comb

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "operators"))
from _record import finish, head_commit
from test_rra_stuart import _rank_columns, stuart_mpmath

from modelmine.operators import stuart_scores

P = 2000


def _old_recursion(normalised: np.ndarray) -> np.ndarray:
    """The alternating recursion in double precision (modelmine before issue 25)."""
    r = np.sort(normalised, axis=0)
    n = r.shape[0]
    w = [np.ones(r.shape[1])]
    with np.errstate(over="ignore", invalid="ignore"):
        for k in range(1, n + 1):
            x, acc, power = r[n - k], np.zeros(r.shape[1]), np.ones(r.shape[1])
            for i in range(1, k + 1):
                power = power * x
                acc += (-1.0) ** (i - 1) * comb(k, i) * power * w[k - i]
            w.append(acc)
    q = w[n]
    return np.where(~np.isfinite(q) | (q < -1e-9) | (q > 1 + 1e-9), np.nan, q)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    commit = head_commit()
    rows = []
    for b in ([10, 50, 200] if args.quick else [10, 50, 200, 1000]):
        r = _rank_columns(np.random.default_rng(b), b)
        ours = stuart_scores(r, log=True)
        for j, kind in enumerate(("anywhere", "top", "ties")):
            digits = int(2 * b + abs(ours[j]) / np.log(10) + 60)
            t0 = time.perf_counter()
            ref = stuart_mpmath(r[:, j].tolist(), digits=digits)
            rows.append({"part": "accuracy", "b": b, "kind": kind, "log_q": round(ours[j], 6),
                         "abs_diff_log_q": abs(ours[j] - ref), "mpmath_digits": digits,
                         "mpmath_s": round(time.perf_counter() - t0, 1)})
            print(rows[-1], flush=True)
    rng = np.random.default_rng(0)
    for b in (20, 50, 100, 200, 400, 1000):
        r = np.vstack([rng.permutation(P) + 1 for _ in range(b)]) / P
        t0 = time.perf_counter()
        new = stuart_scores(r, log=True)
        t_new = time.perf_counter() - t0
        t0 = time.perf_counter()
        old = _old_recursion(r) if b <= 400 else None
        t_old = time.perf_counter() - t0
        rows.append({"part": "lost and time", "b": b, "p": P,
                     "lost_old": int(np.isnan(old).sum()) if old is not None else None,
                     "lost_new": int((~np.isfinite(new)).sum()),
                     "new_s": round(t_new, 2), "old_s": round(t_old, 2) if old is not None
                     else None})
        print(rows[-1], flush=True)
    finish(rows, args.out, commit)


if __name__ == "__main__":
    main()
