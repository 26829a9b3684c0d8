"""Benchmark: our Shah-Samworth r-concave bound against stabs' way of computing it (issue 25,
item 6).

Shah and Samworth's (2013, section 3.3) r-concave bound maximises, for each k, an expression
in ``a`` over ``[a_(k+1), a_k]`` (stabs' ``D``). stabs calls R's ``optimize`` there, Brent's
golden-section / parabolic search with its default tolerance ``.Machine$double.eps^0.25``
(1.2e-4 in ``a``), and takes the largest value found; modelmine runs a golden-section search
to machine precision and checks both ends of each interval. R is not installable on this
machine (CRAN is unreachable), so stabs' ``optimize`` is emulated by SciPy's
``fminbound``, the same algorithm (Brent 1973, ``localmin``) with the same tolerance rule
``sqrt(eps) |x| + tol / 3``: the figures are those of that emulation.

For B = 50 and 100 pairs, p = 10, 100, 1,000 and 5,000, every q up to stabs' ``maxQ`` in
a few steps and every threshold of the grid k/(2B) above 1/2, it prints how much larger our
bound is (relative; overall, and where stabs' bound is at least 0.1, the range a PFER
target can meet), and for PFER targets 0.5, 1, 2 and 5 by how many grid steps the
threshold chosen (the smallest grid value whose bound meets the target) differs.

Run: ``.venv/bin/python benchmarks/bench_r_concave_stabs.py [--out CSV]``.
"""

from __future__ import annotations

import argparse
import math

import numpy as np
from _record import finish, head_commit
from scipy.optimize import fminbound

from modelmine.operators._bounds import _a_values, _r_concave, _tail_d, max_q_r_concave

R_TOL = np.finfo(float).eps ** 0.25  # R's optimize() default tolerance


def _stabs_d(theta: float, which: int, n: int, r: float) -> float:
    """stabs' ``D`` with R's ``optimize`` emulated (no end points, tolerance 1.2e-4)."""
    s = 1.0 / r
    theta_b = theta * n
    k_start = math.ceil(2 * theta_b) + 1
    if which < k_start:
        return 1.0
    a_vec = _a_values(theta, n, r)
    best = 0.0
    for k in range(k_start, n):
        j_num = np.arange(which, dtype=np.float64)
        j_den = np.arange(k + 1, dtype=np.float64)

        def neg(a: float, k: int = k, j_num: np.ndarray = j_num,
                j_den: np.ndarray = j_den) -> float:
            num = (k + 1 - theta_b) * np.sum((a + j_num) ** s)
            den = np.sum((k + 1 - j_den) * (a + j_den) ** s)
            return -(1.0 - num / den)

        x = fminbound(neg, a_vec[k + 1], a_vec[k], xtol=R_TOL)
        best = max(best, -neg(x))
    return best


def _stabs_bound(q: float, p: int, pi: float, b: int) -> float:
    which = math.ceil(float(f"{pi * 2 * b:.10g}"))
    d1 = _stabs_d(q**2 / p**2, which - b, b, -0.5)
    d2 = _stabs_d(q / p, which, 2 * b, -0.25)
    return min(1.0, d1, d2) * p


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    commit = head_commit()
    rows = []
    for b in (50, 100):
        for p in (10, 100, 1000, 5000):
            top = max_q_r_concave(p, b)
            for q in sorted({1, max(1, top // 4), max(1, top // 2), top}):
                grid = np.arange(b + 1, 2 * b + 1) / (2.0 * b)
                ours = np.array([_r_concave(q, p, float(pi), b, "bench") for pi in grid])
                stabs = np.array([_stabs_bound(q, p, float(pi), b) for pi in grid])
                rel = np.where(stabs > 0, (ours - stabs) / np.where(stabs > 0, stabs, 1), 0.0)
                relevant = stabs >= 0.1  # bounds a PFER target of 0.1 or more can meet
                row = {"n_pairs": b, "p": p, "q": q, "max_rel_excess": float(rel.max()),
                       "max_rel_excess_bound_ge_0.1": float(rel[relevant].max())
                       if relevant.any() else None,
                       "min_rel_excess": float(rel.min())}
                for pfer in (0.5, 1.0, 2.0, 5.0):
                    # the threshold: the smallest grid value whose bound is <= pfer
                    o = grid[ours <= pfer]
                    t = grid[stabs <= pfer]
                    o_pi = float(o.min()) if o.size else float("nan")
                    t_pi = float(t.min()) if t.size else float("nan")
                    steps = (round((o_pi - t_pi) * 2 * b) if np.isfinite(o_pi) and
                             np.isfinite(t_pi) else None)
                    row[f"steps_pfer_{pfer:g}"] = steps
                rows.append(row)
                print(row, flush=True)
    table = finish(rows, args.out, commit)
    print(f"largest excess of ours over the emulated stabs: {table.max_rel_excess.max():.4f} "
          f"(where stabs' bound >= 0.1: "
          f"{table['max_rel_excess_bound_ge_0.1'].max():.4f}); "
          f"threshold differences (grid steps): "
          f"{sorted(set(table.filter(like='steps').stack().dropna().astype(int)))}")


if __name__ == "__main__":
    _ = _tail_d  # the function ours calls (documented above)
    main()
