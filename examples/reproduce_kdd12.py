"""Reproduce the experiments of KDD'12 (model mining) and PKDD'08 (ensemble selection).

Runs the evaluation protocol of Woznica, Nguyen and Kalousis (KDD 2012, section 3) on the
leukemia and colon microarray data, and writes, side by side with the published figures
(``/work/shared/PAPER_FIGURES.md``, copied below):

- ``table2.{csv,md}``: KDD'12 Table 2, points for error (McNemar, SVM) and stability (paired
  t-test on the per-pair Jaccard of the folds' signatures), averaged over datasets and
  selectors, for the nine operators of the paper;
- ``table4.{csv,md}``: KDD'12 Table 4 on leukemia, agreement, error and similarity of the
  k = 10 alternative models of the multi-model operators;
- ``saeys_table2.{csv,md}``: PKDD'08 Table 2 (robustness: Spearman, Jaccard of the top 5 %
  and 1 %) and the accuracy of the top 1 % features, single selector versus the mean-rank
  ensemble, with their setting (40 bags, SU, ReliefF, SVM-RFE, random forest);
- per dataset, the tidy per-fold results and the stability of every operator.

Full setting (the default, or ``--full``): b = 150, m = 20, k = 10, 10 folds, selectors IG,
ReliefF, SVM-RFE and SVMONE, every registered operator, classifiers SVM (C = 0.5), 1NN and a
decision tree. ``--fast`` is a smoke setting for CI (b = 10, 3 folds): its numbers are not
meant to be compared with the papers.

Run: ``.venv/bin/python examples/reproduce_kdd12.py --out results/kdd12 [--fast]``.
"""

from __future__ import annotations

import argparse
import platform
import time
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd

import modelmine as mm
from modelmine.evaluation import EvaluationResult, average_points, evaluate
from modelmine.report import markdown_table

# ------------------------------------------------------------- published figures
#: KDD'12 Table 2 (average over all datasets and selectors, SVM): error and stability points.
PAPER_TABLE2 = pd.DataFrame(
    [("nobagg", 4.9, 5.3), ("avgRank", 4.4, 6.2), ("mostFreq", 4.9, 6.5),
     ("maxApr", 5.0, 5.3), ("closedApr", 5.6, 6.3), ("medMaxApr", 1.2, 2.2),
     ("medClosedApr", 2.0, 2.1), ("largeMed", 3.8, 0.1), ("mostRep", 4.1, 2.2)],
    columns=["operator", "paper_error_points", "paper_stability_points"],
).set_index("operator")

#: KDD'12 Table 4 (leukemia, k = 10). The paper's multi-model "medClosedApr" is our
#: "allMedClosedApr" (k-medoids over the base models holding a top-k closed itemset).
PAPER_TABLE4 = pd.DataFrame(
    [("allMed", "ig", 0.98, 0.06, 0.93, 0.08, 0.31),
     ("allMed", "relieff", 0.97, 0.06, 0.94, 0.08, 0.34),
     ("allMed", "svm", 0.97, 0.06, 0.95, 0.08, 0.28),
     ("allMed", "svm-rfe", 0.98, 0.03, 0.95, 0.05, 0.21),
     ("allClosedApr", "ig", 0.87, 0.17, 0.89, 0.11, 0.20),
     ("allClosedApr", "relieff", 0.84, 0.16, 0.84, 0.13, 0.23),
     ("allClosedApr", "svm", 0.81, 0.20, 0.78, 0.16, 0.20),
     ("allClosedApr", "svm-rfe", 0.82, 0.22, 0.81, 0.12, 0.16),
     ("allMedClosedApr", "ig", 0.98, 0.06, 0.94, 0.08, 0.32),
     ("allMedClosedApr", "svm-rfe", 0.98, 0.03, 0.96, 0.05, 0.21)],
    columns=["operator", "selector", "paper_svm_agreement", "paper_svm_error",
             "paper_1nn_agreement", "paper_1nn_error", "paper_similarity"],
).set_index(["operator", "selector"])

#: PKDD'08 (Saeys et al.) Table 2 robustness and the top-1 % accuracy (SVM): single / ens.
_SAEYS = {
    ("colon", "spearman"): {"su": (0.61, 0.76), "relieff": (0.62, 0.85),
                            "svm-rfe": (0.70, 0.81), "random-forest": (0.91, 0.99)},
    ("colon", "jc5"): {"su": (0.33, 0.49), "relieff": (0.44, 0.64), "svm-rfe": (0.47, 0.45),
                       "random-forest": (0.44, 0.79)},
    ("colon", "jc1"): {"su": (0.30, 0.55), "relieff": (0.45, 0.56), "svm-rfe": (0.44, 0.50),
                       "random-forest": (0.01, 0.64)},
    ("colon", "accuracy"): {"su": (0.87, 0.89), "relieff": (0.91, 0.91),
                            "svm-rfe": (0.93, 0.96)},
    ("leukemia", "spearman"): {"su": (0.68, 0.76), "relieff": (0.58, 0.79),
                               "svm-rfe": (0.73, 0.79), "random-forest": (0.97, 0.99)},
    ("leukemia", "jc5"): {"su": (0.48, 0.57), "relieff": (0.39, 0.54),
                          "svm-rfe": (0.53, 0.58), "random-forest": (0.80, 0.91)},
    ("leukemia", "jc1"): {"su": (0.54, 0.60), "relieff": (0.44, 0.55),
                          "svm-rfe": (0.49, 0.57), "random-forest": (0.36, 0.80)},
    ("leukemia", "accuracy"): {"su": (0.98, 0.96), "relieff": (0.98, 0.99),
                               "svm-rfe": (1.0, 0.99)},
}

PAPER_SINGLE = list(PAPER_TABLE2.index)
PAPER_MULTI = ["allMed", "allClosedApr", "allMedClosedApr"]
KDD_SELECTORS = ["ig", "relieff", "svm-rfe", "svm"]
SAEYS_SELECTORS = ["su", "relieff", "svm-rfe", "random-forest"]
LOADERS = {"leukemia": mm.datasets.load_leukemia, "colon": mm.datasets.load_colon}


def settings(fast: bool) -> dict[str, dict[str, int]]:
    """Protocol parameters of the KDD'12 and the PKDD'08 runs."""
    if fast:
        return {"kdd": dict(n_folds=3, n_bootstraps=10, n_features=20, n_signatures=4),
                "saeys": dict(n_folds=3, n_bootstraps=8, n_features=20, n_signatures=2)}
    return {"kdd": dict(n_folds=10, n_bootstraps=150, n_features=20, n_signatures=10),
            "saeys": dict(n_folds=10, n_bootstraps=40, n_features=20, n_signatures=2)}


def write(df: pd.DataFrame, out: Path, name: str, title: str) -> None:
    df.to_csv(out / f"{name}.csv")
    (out / f"{name}.md").write_text(f"# {title}\n\n" + markdown_table(df))


def saeys_table(results: dict[str, EvaluationResult]) -> pd.DataFrame:
    rows = []
    for ds, res in results.items():
        rob = res.robustness_table(classifier="svm")
        for measure in ("spearman", "jc5", "jc1", "accuracy"):
            for sel in res.selectors:
                paper = _SAEYS.get((ds, measure), {}).get(sel, (np.nan, np.nan))
                rows.append({"dataset": ds, "measure": measure, "selector": sel,
                             "single": rob.loc[(sel, "single"), measure],
                             "ensemble": rob.loc[(sel, "ensemble"), measure],
                             "paper_single": paper[0], "paper_ensemble": paper[1]})
    return pd.DataFrame(rows).set_index(["dataset", "measure", "selector"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--fast", action="store_true", help="small CI setting")
    mode.add_argument("--full", action="store_true", help="the papers' setting (default)")
    parser.add_argument("--out", type=Path, default=Path("kdd12_results"))
    parser.add_argument("--datasets", nargs="+", default=["leukemia", "colon"],
                        choices=sorted(LOADERS))
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--cache", type=Path, default=None,
                        help="cache directory of the base models (reruns are faster)")
    parser.add_argument("--no-saeys", action="store_true", help="skip the PKDD'08 runs")
    args = parser.parse_args()
    cfg = settings(args.fast)
    args.out.mkdir(parents=True, exist_ok=True)
    log = [f"# Run log\n\n{datetime.now().isoformat(timespec='seconds')}, "
           f"{platform.node()} ({platform.processor() or platform.machine()}), "
           f"setting {'fast' if args.fast else 'full'}: {cfg}\n"]

    kdd: dict[str, EvaluationResult] = {}
    for ds in args.datasets:
        X, y, names = LOADERS[ds](return_names=True)
        t0 = time.perf_counter()
        res = evaluate(X, y, selectors=KDD_SELECTORS, operators=None,
                       classifiers=["svm", "1nn", "tree"], feature_names=names,
                       random_state=0, n_jobs=args.n_jobs, progress=False,
                       cache_dir=None if args.cache is None else args.cache / ds, **cfg["kdd"])
        wall = time.perf_counter() - t0
        kdd[ds] = res
        line = (f"- KDD'12 protocol on {ds} ({X.shape[0]} x {X.shape[1]}): {wall:.0f} s wall, "
                f"{int(res.tasks.cached.sum())}/{len(res.tasks)} (selector, fold) tasks "
                "from the cache")
        print(line, flush=True)
        log.append(line + "\n")
        res.folds.to_csv(args.out / f"{ds}_folds.csv", index=False)
        write(res.stability(), args.out, f"{ds}_stability", f"Stability across folds, {ds}")
        write(res.table2(operators=[o for o in res.operator_kinds
                                    if res.operator_kinds[o] == "single"]),
              args.out, f"{ds}_table2_all_operators",
              f"Points of every single-model operator, {ds} (SVM)")
        if not res.skipped.empty:
            res.skipped.to_csv(args.out / f"{ds}_skipped.csv", index=False)

    # KDD'12 Table 2: the paper's nine operators, averaged over datasets and selectors.
    pts = pd.concat([r.points(operators=PAPER_SINGLE, classifier="svm") for r in kdd.values()],
                    keys=list(kdd), names=["dataset", "row"]).reset_index("dataset")
    table2 = average_points(pts).join(PAPER_TABLE2)
    write(table2, args.out, "table2", "KDD'12 Table 2: points (SVM), ours vs published")
    by_ds = pts.pivot_table(index="operator", columns="dataset",
                            values=["error_points", "stability_points"], sort=False)
    by_ds.columns = [f"{a}_{b}" for a, b in by_ds.columns]
    write(by_ds, args.out, "table2_by_dataset", "KDD'12 Table 2 points per dataset")
    print(markdown_table(table2))

    if "leukemia" in kdd:
        t4 = kdd["leukemia"].table4(operators=PAPER_MULTI)
        cols = {"svm_agreement_mean": "svm_agreement", "svm_error_mean": "svm_error",
                "1nn_agreement_mean": "1nn_agreement", "1nn_error_mean": "1nn_error",
                "similarity_mean": "similarity"}
        table4 = t4[list(cols)].rename(columns=cols).join(PAPER_TABLE4)
        write(table4, args.out, "table4", "KDD'12 Table 4, leukemia: ours vs published")
        write(t4, args.out, "table4_full", "KDD'12 Table 4 layout, leukemia, mean and std")
        print(markdown_table(table4))

    if not args.no_saeys:
        saeys: dict[str, EvaluationResult] = {}
        for ds in args.datasets:
            X, y, names = LOADERS[ds](return_names=True)
            t0 = time.perf_counter()
            saeys[ds] = evaluate(
                X, y, selectors=SAEYS_SELECTORS, operators=["avgRank"], classifiers=["svm"],
                feature_names=names, random_state=0, n_jobs=args.n_jobs, progress=False,
                cache_dir=None if args.cache is None else args.cache / f"saeys_{ds}",
                **cfg["saeys"])
            line = (f"- PKDD'08 protocol on {ds}: {time.perf_counter() - t0:.0f} s wall")
            print(line, flush=True)
            log.append(line + "\n")
        st = saeys_table(saeys)
        write(st, args.out, "saeys_table2", "PKDD'08 Table 2: single vs ensemble, ours vs "
              "published")
        print(markdown_table(st))
    (args.out / "run_log.md").write_text("".join(log))


if __name__ == "__main__":
    main()
