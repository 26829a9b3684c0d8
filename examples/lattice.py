"""Mine the base models of leukemia and export / draw their closed-itemset lattice.

Base models: ``modelmine.bootstrap`` with the "chi2" selector (chi-square on MDL-discretised
expression), top-20 genes on each of b bootstrap resamples (Woznica, Nguyen & Kalousis,
KDD 2012, Section 4: b = 150, m = 20).

    python examples/lattice.py [--fast] [--out DIR]
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import modelmine as mm
from modelmine.patterns import ItemsetLattice, mine_itemsets


def base_models(n_bootstraps: int, n_features: int, seed: int = 0):
    """Real base models: ``modelmine.bootstrap`` with the chi2 selector on leukemia."""
    X, y, names = mm.datasets.load_leukemia(return_names=True)
    return mm.bootstrap(X, y, selector="chi2", n_bootstraps=n_bootstraps,
                        n_features=n_features, random_state=seed, feature_names=names)


def main(argv=None) -> Path:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--fast", action="store_true", help="b = 40 instead of 150")
    parser.add_argument("--out", type=Path, default=None, help="output directory")
    args = parser.parse_args(argv)
    out = args.out or Path(tempfile.mkdtemp(prefix="modelmine-lattice-"))
    out.mkdir(parents=True, exist_ok=True)
    base = base_models(40 if args.fast else 150, 20)
    closed = mine_itemsets(base, itemset_type="closed", min_support=0.3)
    maximal = mine_itemsets(base, itemset_type="maximal", min_support=0.3)
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
