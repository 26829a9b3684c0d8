"""From a signature to biology on the colon data: every gene's effect, a volcano plot, and
the enrichment of gene sets in the signature.

The colon data (Alon et al. 1999; 62 tissues x 2000 genes, embedded in modelmine) carry
column names, not gene symbols, so the gene sets here are made up, and say so: "HELD_OUT_UP"
and "HELD_OUT_DOWN" hold the 40 genes most up / down in class 1 (against -1) on the first
half of the tissues only; the "RANDOM_*" sets are drawn at random. The run is then made on the other
half, so a signature enriched in the held-out sets finds, on new tissues, the genes that
separated the first half (replication), and one enriched in a random set would be chance.
With a real study, pass your platform's annotation (``feature_map=``) and MSigDB's or GO's
GMT file instead (docs/biology.md).

Run:  python examples/biology.py --out colon-biology           (about a minute)
      python examples/biology.py --fast --out /tmp/biology     (a few seconds)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

import modelmine as mm
from modelmine.diagnostics import effect_table
from modelmine.report import plot_volcano


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="colon-biology", help="output directory")
    parser.add_argument("--fast", action="store_true",
                        help="a quick check: ANOVA selector, b = 20 (for the test suite)")
    parser.add_argument("--random-state", "--seed", dest="random_state", type=int, default=0)
    args = parser.parse_args(argv)

    X, y, names = mm.datasets.load_colon(return_names=True)
    names = [str(n) for n in names]
    rng = np.random.default_rng(args.random_state)
    order = rng.permutation(len(y))
    first, second = np.sort(order[: len(y) // 2]), np.sort(order[len(y) // 2:])
    # the held-out sets: the genes most up / down in class 1 on the first half alone
    held = effect_table(X[first], y[first], feature_names=names)
    one = held[held["class"] == held["class"].max()]
    up = one[one.direction == "up"].sort_values("p_value").feature.head(40)
    down = one[one.direction == "down"].sort_values("p_value").feature.head(40)
    sets = {"HELD_OUT_UP": list(up), "HELD_OUT_DOWN": list(down)}
    for i in range(8):
        sets[f"RANDOM_{i + 1}"] = list(rng.choice(names, size=40, replace=False))

    selector, b = ("anova", 20) if args.fast else ("svm-rfe", 150)
    run = mm.run(X[second], y[second], selector=selector, operators=["closedApr", "allMed"],
                 n_bootstraps=b, n_features=20, n_signatures=5, feature_names=names,
                 random_state=args.random_state, progress=False)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    effects = run.effects()
    effects.to_csv(out / "effects.csv", index=False)
    significant = int((effects[effects["class"] == effects["class"].max()].q_value
                       <= 0.05).sum())
    print(f"colon, second half ({len(second)} tissues): {significant} of {len(names)} genes "
          "differ between the classes at q <= 0.05 (Mann-Whitney, Benjamini-Hochberg over all "
          "2000)")
    plot_volcano(effects, {"closedApr": list(run.signatures["closedApr"].names)}).savefig(
        out / "volcano.png", dpi=120)
    table = run.enrichment(sets)
    table.to_csv(out / "enrichment.csv", index=False)
    consensus = table[table.signature == "closedApr"]
    print(consensus[["gene_set", "overlap", "set_size", "universe", "p_value",
                     "q_value"]].head(4).to_string(index=False))
    print(f"wrote {out}/effects.csv, volcano.png and enrichment.csv")
    return 0


if __name__ == "__main__":
    sys.exit(main())
