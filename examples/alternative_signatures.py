"""Alternative leukemia signatures with allMed and closedApr, and how much they overlap.

Woznica, Nguyen and Kalousis (KDD 2012, section 4.3, Table 4): on leukemia (72 x 7129),
allMed returns k alternative models that are diverse yet accurate. This script builds base
models, the closedApr consensus signature and k allMed alternatives, and prints them with
their pairwise Jaccard overlap.

    python examples/alternative_signatures.py            # b = 150, k = 10 (the paper)
    python examples/alternative_signatures.py --fast     # b = 30, k = 4 (test suite)
"""

from __future__ import annotations

import argparse

import numpy as np

import modelmine as mm
from modelmine.operators._registry import aggregate  # mm.aggregate once re-exported


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="small run for the test suite")
    parser.add_argument("--selector", default="anova")
    args = parser.parse_args(argv)
    b, k = (30, 4) if args.fast else (150, 10)

    X, y, names = mm.datasets.load_leukemia(return_names=True)
    base = mm.bootstrap(X, y, selector=args.selector, n_bootstraps=b, n_features=20,
                        feature_names=names, random_state=0)
    print(base)

    closed = aggregate(base, "closedApr", n_features=20)
    prov = closed.provenance
    print(f"\nclosedApr: {prov['n_itemsets_used']} itemsets, mean size "
          f"{prov['mean_itemset_size']:.1f}, mean support {prov['mean_itemset_support']:.2f}")
    print("  " + " ".join(closed.names))

    alts = aggregate(base, "allMed", n_signatures=k)
    print(f"\nallMed: {k} alternative signatures (medoids of k-medoids on Jaccard "
          "distances)")
    for i, sig in enumerate(alts):
        print(f"  [{i}] cluster of {sig.provenance['cluster_size']:3d} models, overlap with "
              f"closedApr {sig.overlap(closed):.2f}: " + " ".join(sig.names[:8]) + " ...")
    sim = alts.overlap()
    np.set_printoptions(precision=2, suppress=True, linewidth=120)
    print("\nPairwise Jaccard overlap among the allMed signatures:")
    print(sim)
    print(f"mean pairwise overlap (KDD 2012 Table 4 'similarity'): {alts.mean_overlap():.2f}")


if __name__ == "__main__":
    main()
