"""Mine the base models of leukemia and export / draw their closed-itemset lattice.

Base models: the top-20 genes by a chi2 score (on min-max scaled expression) on each of
b bootstrap resamples (Woznica, Nguyen & Kalousis, KDD 2012, Section 4: b = 150, m = 20).
Uses ``modelmine.bootstrap`` when it is available, otherwise builds the same base models here.

    python examples/lattice.py [--fast] [--out DIR]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
from sklearn.feature_selection import chi2
from sklearn.preprocessing import MinMaxScaler

import modelmine as mm
from modelmine.patterns import ItemsetLattice, mine_itemsets


def base_models(n_bootstraps: int, n_features: int, seed: int = 0):
    X, y, names = mm.datasets.load_leukemia(return_names=True)
    Xs = MinMaxScaler().fit_transform(np.asarray(X, float))
    rng = np.random.default_rng(seed)
    subsets = np.zeros((n_bootstraps, Xs.shape[1]), bool)
    for i in range(n_bootstraps):
        idx = rng.integers(0, len(y), len(y))
        scores = np.nan_to_num(chi2(Xs[idx], y[idx])[0], nan=-np.inf)
        subsets[i, np.argsort(-scores, kind="stable")[:n_features]] = True

    class Base:  # duck-typed BaseModels: what mine_itemsets reads
        pass

    base = Base()
    base.subsets, base.feature_names = subsets, np.asarray(names)
    return base


def main(argv=None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fast", action="store_true", help="b = 40 instead of 150")
    parser.add_argument("--out", type=Path, default=None, help="output directory")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="modelmine-lattice-"))
    out.mkdir(parents=True, exist_ok=True)
    base = base_models(40 if args.fast else 150, 20)
    closed = mine_itemsets(base, kind="closed", min_support=0.3)
    maximal = mine_itemsets(base, kind="maximal", min_support=0.3)
    print(f"{len(closed)} closed and {len(maximal)} maximal itemsets at support 0.3")
    print(closed.to_frame().head(10).to_string())
    lattice = ItemsetLattice(closed)
    print(lattice)
    for fmt in ("graphml", "gexf", "json", "dot"):
        print("wrote", lattice.write(out / f"leukemia_lattice.{fmt}"))
    print("wrote", lattice.draw(out / "leukemia_lattice.png", max_nodes=120))
    print("wrote", lattice.draw(out / "leukemia_lattice.svg", max_nodes=120))
    return out


if __name__ == "__main__":
    main()
