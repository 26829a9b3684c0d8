"""What ``self_sufficient_itemsets`` reports on real base models (issue 49, item 4).

colon (62 x 2,000) and leukemia (72 x 7,129), each with two selectors, ANOVA F (a
univariate score: correlated genes rise and fall together across bootstraps) and mRMR (which
penalises redundancy), top m = 20 on b = 100 bootstraps, with the real labels and with the
labels permuted (no gene is associated with the class; correlated genes are still scored
alike, so their co-selection is real co-selection, not a false discovery). Per
configuration: the itemsets listed (``--method swap``, the default: every itemset searched
on all the models; ``holdout``: those found on the exploratory half, ``n_candidates``), how
many pass at q <= 0.05 and how many of them are self-sufficient, with
``itemset_significance``'s held-out family beside it (200 randomisations); one row per
self-sufficient itemset with its support (on all the models, or the holdout half), lift
over its worst split and q-value.

Run: ``nice -n 10 .venv/bin/python -u benchmarks/bench_self_sufficient_real.py --out
benchmarks/results/self_sufficient_real.csv > benchmarks/results/self_sufficient_real.log``
(the log is the printed output; ``self_sufficient_real.csv`` is the holdout's, from
before ``--method``).
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from _record import finish, head_commit

import modelmine as mm
from modelmine.diagnostics import itemset_significance, self_sufficient_itemsets


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--datasets", default="colon,leukemia")
    ap.add_argument("--selectors", default="anova,mrmr")
    ap.add_argument("--method", default="swap", choices=["swap", "holdout"])
    ap.add_argument("--out", default=None)
    args = ap.parse_args()
    commit = head_commit()
    rows = []
    for name in args.datasets.split(","):
        X, y, genes = mm.datasets.load(name, return_names=True)
        for selector in args.selectors.split(","):
            for labels in ("real", "permuted"):
                target = y if labels == "real" else np.random.default_rng(0).permutation(y)
                start = time.perf_counter()
                base = mm.bootstrap(X, target, selector=selector, n_bootstraps=100,
                                    n_features=20, feature_names=genes, random_state=0)
                fit = time.perf_counter() - start
                start = time.perf_counter()
                table = self_sufficient_itemsets(base, method=args.method, random_state=0)
                seconds = time.perf_counter() - start
                split = itemset_significance(base, n_randomizations=200, random_state=0)
                common = {"dataset": name, "selector": selector, "labels": labels,
                          "method": args.method,
                          "n_candidates": table.attrs.get("n_candidates", np.nan),
                          "tested": len(table), "passes": int(table["passes"].sum()),
                          "self_sufficient": int(table["self_sufficient"].sum()),
                          "n_strata": table.attrs["n_strata"],
                          "split_passes": int((split["q_value"] <= 0.05).sum()),
                          "split_mean_length": float(split.loc[split["q_value"] <= 0.05,
                                                               "items"].map(len).mean())
                          if (split["q_value"] <= 0.05).any() else np.nan,
                          "fit_seconds": fit, "test_seconds": seconds}
                found = table[table["self_sufficient"]]
                if not len(found):
                    rows.append({**common, "itemset": "", "support": np.nan,
                                 "lift": np.nan, "q_value": np.nan})
                for _, r in found.iterrows():
                    rows.append({**common, "itemset": ";".join(r["itemset"]),
                                 "support": r["support"], "lift": r["lift"],
                                 "q_value": r["q_value"]})
                print(f"# {name} {selector} {labels} done", flush=True)
    finish(rows, args.out, commit)


if __name__ == "__main__":
    main()
