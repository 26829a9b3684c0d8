"""Alternative leukemia signatures with allMed and closedApr, and how much they overlap.

Woznica, Nguyen and Kalousis (KDD 2012, section 4.3, Table 4): on leukemia (72 x 7129),
allMed returns k alternative models that are diverse yet accurate. This script builds base
models, the closedApr consensus signature and k allMed alternatives, and prints them with
their pairwise Jaccard overlap.

    python examples/alternative_signatures.py            # svm-rfe, b = 150, k = 10 (the paper)
    python examples/alternative_signatures.py --fast     # anova, b = 30, k = 4 (test suite)
    python examples/alternative_signatures.py --out DIR  # also write the signatures as CSV
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import pandas as pd

import modelmine as mm


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="small run for the test suite")
    parser.add_argument("--selector", default=None,
                        help="selector of the base models (default: svm-rfe; anova with --fast)")
    parser.add_argument("--out", default=None, help="directory for the signatures as CSV")
    args = parser.parse_args(argv)
    b, k = (30, 4) if args.fast else (150, 10)
    selector = args.selector or ("anova" if args.fast else "svm-rfe")

    X, y, names = mm.datasets.load_leukemia(return_names=True)
    base = mm.bootstrap(X, y, selector=selector, n_bootstraps=b, n_features=20,
                        feature_names=names, random_state=0, n_jobs=2)
    print(base)

    closed = mm.aggregate(base, "closedApr", n_features=20)
    prov = closed.provenance
    print(f"\nclosedApr: {prov['n_itemsets_used']} itemsets, mean size "
          f"{prov['mean_itemset_size']:.1f}, mean support {prov['mean_itemset_support']:.2f}")
    print("  " + " ".join(closed.names))

    alts = mm.aggregate(base, "allMed", n_signatures=k)
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
    if args.out:
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        closed.to_frame().to_csv(out / "closedApr.csv")
        alts.to_frame().to_csv(out / "allMed.csv", index=False)
        pd.DataFrame(sim).to_csv(out / "allMed_overlap.csv")
        print(f"wrote {out}/closedApr.csv, allMed.csv, allMed_overlap.csv")


if __name__ == "__main__":
    main()
