"""Quick start: a robust gene signature for colon cancer, with a report to open.

What ``modelmine run embedded:colon --out DIR`` does, step by step in Python
(Woznica, Nguyen and Kalousis, "Model Mining for Robust Feature Selection", KDD 2012):

1. fit SVM-RFE on b = 150 bootstrap samples of the colon data (62 tissues x 2000 genes):
   the base models, each a subset of m = 20 genes;
2. mine them: closedApr joins the closed gene sets of highest support into one consensus
   signature, allMed returns k = 10 alternative signatures (medoids of clusters of models);
3. diagnose: how stable is the selector across bootstrap samples (Nogueira et al. 2018,
   with a 95 % confidence interval), how different are the alternatives;
4. write everything (CSV, JSON, base models) and a self-contained HTML report into DIR.

Run:  python examples/quickstart.py --out colon-report        (about a minute)
      python examples/quickstart.py --fast --out /tmp/quick    (a few seconds)
"""

from __future__ import annotations

import argparse
import sys

import modelmine as mm
from modelmine.cli._commands import run_to_directory
from modelmine.cli._readers import read_data


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="modelmine-demo", help="output directory")
    parser.add_argument("--fast", action="store_true",
                        help="a quick check: ANOVA selector, b = 20 (for the test suite)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--force", action="store_true", help="replace an existing --out")
    args = parser.parse_args(argv)

    selector, b = ("anova", 20) if args.fast else ("svm-rfe", 150)
    data = read_data("embedded:colon")
    print(f"colon data: {data.shape[0]} tissues x {data.shape[1]} genes "
          f"(Alon et al. 1999); selector {selector}, b = {b} bootstrap samples, m = 20")
    record = run_to_directory(data, args.out, selector=selector, n_bootstraps=b,
                              n_features=20, n_signatures=10, seed=args.seed,
                              quiet=False, force=args.force,
                              command=["python", "examples/quickstart.py", *sys.argv[1:]])
    base: mm.BaseModels = record["base_models"]
    diag = record["diagnostics"].set_index("measure")

    print("\nMost frequently selected genes across the base models:")
    top = base.summary(top=10)
    for name, row in top.iterrows():
        bar = "#" * round(row["frequency"] * 30)
        print(f"  {name:>6}  {row['frequency']:5.2f}  {bar}")

    nog = diag.loc["nogueira"]
    print(f"\nStability of {selector} across the {b} bootstrap samples (Nogueira): "
          f"{nog['value']:.2f}  [95% CI {nog['ci_low']:.2f}, {nog['ci_high']:.2f}]"
          f"\n  (1 = same genes every time, 0 = no better than random)")
    for res in record["results"]:
        if res.kind == "single":
            sig = res.signatures[0]
            print(f"\n{res.operator} consensus signature ({len(sig.features)} genes): "
                  + ", ".join(sig.names))
        else:
            print(f"\n{res.operator}: {len(res.signatures)} alternative signatures, mean "
                  f"pairwise Jaccard overlap {diag.loc['diversity (jaccard)', 'value']:.2f}")
            for i, sig in enumerate(res.signatures[:3], start=1):
                print(f"  alternative {i}: " + ", ".join(sig.names[:8]) + " ...")
    print(f"\nOpen {args.out}/report.html in a browser (it works offline and can be e-mailed).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
