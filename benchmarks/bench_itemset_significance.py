"""Benchmark: is ``itemset_significance``'s default family calibrated? (issue 39, item 2)

Base models are drawn from a Rasch-type model: model i selects feature j with probability
``logistic(a_i + c_j)``, independently, with feature effects ``c_j ~ N(-2.5, 1.2)``
(selection frequencies from under 1 % to over 60 %) and model effects ``a_i ~ N(0, 0.6)``
(model sizes from about 10 to 40 of p = 200): heterogeneous frequencies and sizes and, in
the complete null, no co-selection at all (given both margins every matrix is equally
likely, the curveball null's own hypothesis). With ``--planted``, a group of three
features of frequency about 5 % joins each model with probability ``--rate`` (0.13), so it
is co-selected in 10-16 % of the models, below the former mining support 0.2. The
``near`` null (:func:`near_threshold_models`) puts many pairs just under the mining
support, so that the pairs mined are those co-selected most by chance.

Families compared, each tested with Benjamini-Hochberg at q < 0.05 over
``--randomizations`` curveball draws:

- ``mined``: the default before issue 39: the closed itemsets of two or more features at
  support 0.2, mined on the same models whose supports are tested (selective inference);
- ``split``: the default after: chosen on a random half (closed itemsets at 0.1, the
  ``--n-tested`` furthest above independence there), tested on the other half.

Per run: the number tested, the false discoveries V (itemsets holding fewer than two
features of the planted group: every other itemset's items are independent) and whether
the planted group is found (an itemset with two or more of its features discovered).
Over runs: the family-wise error P(V > 0) (under the complete null also the
FDR), the FDR E[V / max(1, discoveries)], the power, each with its Monte-Carlo standard
error.

Run: ``.venv/bin/python benchmarks/bench_itemset_significance.py --out
benchmarks/results/itemset_significance.csv`` (the log is the printed output, saved as
``.log`` beside it); ``--runs 5`` for a quick look.
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pandas as pd
from _record import finish, head_commit

from modelmine.diagnostics import itemset_significance
from modelmine.patterns import mine_itemsets

P = 200
B = 100
GROUP = (0, 1, 2)
Q = 0.05


def rasch_models(rng: np.random.Generator, *, planted: bool, rate: float) -> np.ndarray:
    c = rng.normal(-2.5, 1.2, P)
    if planted:
        c[list(GROUP)] = -3.0  # about 5 % each on their own
    a = rng.normal(0.0, 0.6, B)
    M = rng.random((B, P)) < 1.0 / (1.0 + np.exp(-(a[:, None] + c[None, :])))
    if planted:
        M[np.ix_(rng.random(B) < rate, list(GROUP))] = True
    return M


def near_threshold_models(rng: np.random.Generator) -> np.ndarray:
    """The ``near`` null: 60 models, 30 features of frequency 0.35 (pairs expected at
    0.35^2 = 0.12, so the pairs mined at 0.2 are those co-selected most by chance) and 60 of
    frequency U(0.01, 0.15), model effects N(0, 0.3); independent selections."""
    f = np.r_[np.full(30, 0.35), rng.uniform(0.01, 0.15, 60)]
    c = np.log(f / (1 - f))
    a = rng.normal(0.0, 0.3, 60)
    return rng.random((60, f.size)) < 1.0 / (1.0 + np.exp(-(a[:, None] + c[None, :])))


def tested(M: np.ndarray, family: str, R: int, seed: int, n_tested: int) -> pd.DataFrame:
    if family == "mined":
        closed = mine_itemsets(M, itemset_type="closed", min_support=0.2)
        items = [s for s in closed.itemsets if len(s) >= 2]
        return itemset_significance(M, items, n_randomizations=R, random_state=seed)
    return itemset_significance(M, n_randomizations=R, n_tested=n_tested, random_state=seed)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=200)
    ap.add_argument("--randomizations", type=int, default=400)
    ap.add_argument("--rate", type=float, default=0.13)
    ap.add_argument("--n-tested", type=int, default=20)
    ap.add_argument("--families", default="mined,split")
    ap.add_argument("--scenarios", default="null,planted")
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    commit = head_commit()
    rows = []
    for scenario in args.scenarios.split(","):
        for run in range(args.runs):
            rng = np.random.default_rng([run, ("null", "planted", "near").index(scenario)])
            if scenario == "near":
                M = near_threshold_models(rng)
            else:
                M = rasch_models(rng, planted=scenario == "planted", rate=args.rate)
            group_support = float(M[:, list(GROUP)].all(axis=1).mean())
            for family in args.families.split(","):
                start = time.perf_counter()
                table = tested(M, family, args.randomizations, run, args.n_tested)
                found = table[table["q_value"] < Q]
                # a true discovery holds two or more features of the planted group (its
                # items are then not independent); any other is false
                planted = scenario == "planted"
                inside = found["items"].map(
                    lambda its, planted=planted: planted and len(set(its) & set(GROUP)) >= 2)
                V = int((~inside).sum()) if len(found) else 0
                rows.append({"scenario": scenario, "run": run, "family": family,
                             "group_support": group_support if scenario == "planted"
                             else np.nan,
                             "tested": len(table), "discoveries": len(found),
                             "false_discoveries": V,
                             "fdp": V / max(1, len(found)),
                             "group_found": bool(inside.any()) if len(found) else False,
                             "seconds": time.perf_counter() - start})
        print(f"# {scenario} done", flush=True)
    table = finish(rows, args.out, commit)
    out = []
    for (scenario, family), g in table.groupby(["scenario", "family"], sort=False):
        n = len(g)
        fwer = float((g["false_discoveries"] > 0).mean())
        fdr = float(g["fdp"].mean())
        power = float(g["group_found"].mean())
        out.append({"scenario": scenario, "family": family, "runs": n,
                    "mean tested": g["tested"].mean(),
                    "FWER P(V>0)": fwer, "FWER SE": np.sqrt(fwer * (1 - fwer) / n),
                    "FDR": fdr, "FDR SE": g["fdp"].std(ddof=1) / np.sqrt(n),
                    "max V": int(g["false_discoveries"].max()),
                    "power": power if scenario == "planted" else np.nan,
                    "power SE": np.sqrt(power * (1 - power) / n)
                    if scenario == "planted" else np.nan,
                    "group support (median)": g["group_support"].median(),
                    "s/run": g["seconds"].mean()})
    with pd.option_context("display.width", 250):
        print(pd.DataFrame(out).to_string(index=False, float_format=lambda v: f"{v:.3f}"))


if __name__ == "__main__":
    main()
