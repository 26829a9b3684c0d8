"""CFS speed: modelmine's vectorised best-first search vs a plain reference and a
scikit-feature-style greedy loop, on leukemia (72 x 7129) and colon (62 x 2000).

- fast: ``modelmine.selectors._cfs.cfs_search`` (SU with the class once, one vectorised SU
  row per added feature, merits of all children at once);
- reference: the plain best-first search of ``tests/selectors/test_cfs.py`` (Hall's merit
  recomputed from cached pairwise SU), same result;
- skfeature-style: scikit-feature's ``cfs`` loop (greedy forward; every candidate's merit
  recomputed from scratch with every pairwise SU of the subset), timed on its first steps
  and extrapolated to the number of steps the search takes (it is far too slow to finish).
MDL discretisation is shared by all three and excluded. Run:
``python benchmarks/bench_cfs.py [--fast]``.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import modelmine as mm
from modelmine.selectors._cfs import cfs_search
from modelmine.selectors._information import discretize

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "selectors"))
from test_cfs import _reference_cfs, _su_ref


def skfeature_step(codes: np.ndarray, y: np.ndarray, chosen: list[int]) -> int:
    """One step of scikit-feature's cfs: the candidate of best merit, all recomputed."""
    best, best_merit = -1, -np.inf
    for i in range(codes.shape[1]):
        if i in chosen:
            continue
        F = [*chosen, i]
        rcf = sum(_su_ref(codes[:, f], y) for f in F)
        rff = sum(_su_ref(codes[:, F[a]], codes[:, F[b]])
                  for a in range(len(F)) for b in range(a + 1, len(F)))
        merit = rcf / np.sqrt(len(F) + 2 * rff)
        if merit > best_merit:
            best, best_merit = i, merit
    return best


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--fast", action="store_true")
    args = ap.parse_args(argv)
    for ds in (["colon"] if args.fast else ["colon", "leukemia"]):
        X, y = getattr(mm.datasets, f"load_{ds}")()
        if args.fast:
            X = X[:, :300]
        yc = np.unique(y, return_inverse=True)[1]
        codes, levels = discretize(np.asarray(X, dtype=np.float64), yc)
        t0 = time.perf_counter()
        chosen, merit, _ = cfs_search(codes, levels, yc)
        t_fast = time.perf_counter() - t0
        t0 = time.perf_counter()
        ref, ref_merit = _reference_cfs(codes, yc)
        t_ref = time.perf_counter() - t0
        assert ref == chosen and abs(ref_merit - merit) < 1e-9
        steps = 2 if not args.fast else 1
        t0 = time.perf_counter()
        picked: list[int] = []
        for _ in range(steps):
            picked.append(skfeature_step(codes, yc, picked))
        t_step = (time.perf_counter() - t0) / steps
        # its later steps cost more (k^2 pairs per candidate): the first steps' mean is a
        # lower bound of the time per step
        t_sk = t_step * (len(chosen) + 5)
        print(f"{ds} ({X.shape[0]} x {X.shape[1]}): {len(chosen)} features, merit "
              f"{merit:.4f}; fast {t_fast:.3f} s, reference {t_ref:.1f} s "
              f"({t_ref / t_fast:.0f}x), skfeature-style >= {t_sk:.0f} s extrapolated "
              f"from {steps} step(s) ({t_sk / t_fast:.0f}x; target >= 100x on leukemia)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
