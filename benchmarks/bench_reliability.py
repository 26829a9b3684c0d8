"""What the reliability checks cost (issue 14): loading and reading with and without them.

1. ``BaseModels.load`` (schema, checksum, invariants: each ranking a permutation, subsets
   the top m ranks, indices in range, finite scores) against the bare ``np.load`` of the
   same arrays, on base models of leukemia's size (b x 7129) for several b.
2. ``read_data`` of a CSV (the pre-scan for exponents that crash pandas, the header check
   for duplicate names, then pandas) against ``pandas.read_csv`` alone, on leukemia
   exported as CSV and as ``.csv.gz``.

Prints seconds and the ratio (checked / bare) for each. Run:
``.venv/bin/python benchmarks/bench_reliability.py [--quick]``.
"""

from __future__ import annotations

import argparse
import io
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import modelmine as mm
from modelmine.testing import make_base_models


def _best(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def bench_load(tmp: Path, sizes: list[int], repeat: int) -> None:
    print("BaseModels.load (checked) vs np.load (bare), p = 7129, m = 50")
    print(f"{'b':>6} {'file MB':>8} {'bare s':>8} {'checked s':>10} {'ratio':>6}")
    for b in sizes:
        path = make_base_models(n_models=b, n_features_in=7129, n_features=50).save(
            tmp / f"b{b}.npz"
        )

        def bare(path=path):
            with np.load(io.BytesIO(path.read_bytes()), allow_pickle=False) as arch:
                return {k: arch[k] for k in arch.files}

        t_bare = _best(bare, repeat)
        t_checked = _best(lambda path=path: mm.BaseModels.load(path), repeat)
        print(
            f"{b:>6} {path.stat().st_size / 2**20:>8.1f} {t_bare:>8.3f} "
            f"{t_checked:>10.3f} {t_checked / t_bare:>6.2f}"
        )


def bench_read(tmp: Path, repeat: int) -> None:
    X, y, names = mm.datasets.load_leukemia(return_names=True)
    frame = pd.DataFrame(X, columns=names)
    frame["class"] = y
    print("\nread_data (checked) vs pandas.read_csv (bare), leukemia 72 x 7129")
    print(f"{'file':>14} {'MB':>6} {'bare s':>8} {'checked s':>10} {'ratio':>6}")
    for name in ("leukemia.csv", "leukemia.csv.gz"):
        path = tmp / name
        frame.to_csv(path, index=False)
        t_bare = _best(lambda path=path: pd.read_csv(path), repeat)
        t_checked = _best(lambda path=path: mm.datasets.read_data(path, "class"), repeat)
        print(
            f"{name:>14} {path.stat().st_size / 2**20:>6.1f} {t_bare:>8.3f} "
            f"{t_checked:>10.3f} {t_checked / t_bare:>6.2f}"
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller sizes, one repeat")
    args = parser.parse_args()
    sizes = [150, 1000] if args.quick else [150, 1000, 5000]
    repeat = 1 if args.quick else 3
    with tempfile.TemporaryDirectory() as tmp:
        bench_load(Path(tmp), sizes, repeat)
        bench_read(Path(tmp), repeat)


if __name__ == "__main__":
    main()
