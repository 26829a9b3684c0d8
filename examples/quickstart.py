"""Quick start: a robust gene signature for colon cancer, with a report to open.

What ``modelmine run embedded:colon --out DIR`` does, in Python with public names only
(Woznica, Nguyen and Kalousis, "Model Mining for Robust Feature Selection", KDD 2012):

1. fit SVM-RFE on b = 150 bootstrap samples of the colon data (62 tissues x 2000 genes):
   the base models, each a subset of m = 20 genes;
2. mine them: closedApr joins the closed gene sets of highest support into one consensus
   signature, allMed returns k = 10 alternative signatures (medoids of clusters of models);
3. diagnose: how stable is the selector across bootstrap samples (Nogueira et al. 2018,
   with a 95 % confidence interval), how different are the alternatives;
4. save everything (CSV, JSON, base models) and a self-contained HTML report into DIR.

Run:  python examples/quickstart.py --out colon-report        (about a minute)
      python examples/quickstart.py --fast --out /tmp/quick    (a few seconds)
"""

from __future__ import annotations

import argparse
import sys

import modelmine as mm


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="modelmine-demo", help="output directory")
    parser.add_argument("--fast", action="store_true",
                        help="a quick check: ANOVA selector, b = 20 (for the test suite)")
    parser.add_argument("--random-state", "--seed", dest="random_state", type=int, default=0)
    parser.add_argument("--force", action="store_true", help="replace an existing --out")
    args = parser.parse_args(argv)

    selector, b = ("anova", 20) if args.fast else ("svm-rfe", 150)
    data = mm.datasets.read_data("embedded:colon")
    print(f"colon data: {data.shape[0]} tissues x {data.shape[1]} genes "
          f"(Alon et al. 1999); selector {selector}, b = {b} bootstrap samples, m = 20")
    run = mm.run(data, selector=selector, operators=["closedApr", "allMed"],
                 n_bootstraps=b, n_features=20, n_signatures=10, random_state=args.random_state,
                 progress=None)
    run.save(args.out, force=args.force)

    print("\nMost frequently selected genes across the base models:")
    for name, row in run.base_models.summary(top=10).iterrows():
        bar = "#" * round(row["frequency"] * 30)
        print(f"  {name:>6}  {row['frequency']:5.2f}  {bar}")

    nog = run.stability()
    low, high = nog.confidence_interval
    print(f"\nStability of {selector} across the {b} bootstrap samples (Nogueira): "
          f"{nog.value:.2f}  [95% CI {low:.2f}, {high:.2f}]"
          f"\n  (1 = same genes every time, 0 = no better than random)")
    consensus = run.signatures["closedApr"]
    print(f"\nclosedApr consensus signature ({len(consensus)} genes): "
          + ", ".join(consensus.names))
    alternatives = run.signatures["allMed"]
    print(f"\nallMed: {len(alternatives)} alternative signatures, mean pairwise Jaccard "
          f"overlap {alternatives.mean_overlap():.2f}")
    for i, sig in enumerate(list(alternatives)[:3], start=1):
        print(f"  alternative {i}: " + ", ".join(sig.names[:8]) + " ...")
    print(f"\nOpen {args.out}/report.html in a browser (it works offline and can be e-mailed).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
