"""Reproduce the experiments of KDD'12 (model mining) and PKDD'08 (ensemble selection).

Runs the evaluation protocol of Woznica, Nguyen and Kalousis (KDD 2012, section 3) with the
paper's seven selectors (IG, CHI, SU, ReliefF, SVM-RFE, SVMONE, CFS) on three domains, the
microarrays (colon, leukemia, prostate), the text data (BASEHOCK, PCMAC) and madelon, and
writes, side by side with the published figures (``/work/shared/PAPER_FIGURES.md``, copied
below), one table per domain and their average:

- ``table2_<domain>.{csv,md}`` and ``table2.{csv,md}``: KDD'12 Table 2, points for error
  (McNemar, SVM) and stability (paired t-test on the per-pair Jaccard of the folds'
  signatures) of the paper's nine operators, averaged over the domain's datasets and the
  selectors, once with closedApr / maxApr as the paper defines them (the default,
  ``strategy="literal"``: mostFreq up to ties, docs/operators.md) and once with modelmine's
  structure-seeking reading (``strategy="area"``);
- ``table3_<domain>.{csv,md}``: KDD'12 Table 3, the itemsets closedApr and maxApr used to
  reach m features (number, mean size, mean support) per selector: for both readings, and
  for the paper's also counted the paper's way (every itemset scanned down to the stopping
  support, "scanned");
- ``paired_differences_<domain>.csv``: per dataset and selector, the paired per-sample
  error difference (SVM) closedApr - mostFreq and maxApr - mostFreq (both readings) and
  each aggregation - nobagg, with a 95 % interval and the fraction of folds in which the
  two signatures are identical (``EvaluationResult.paired_differences``);
- ``table4_<domain>.{csv,md}``: KDD'12 Table 4, agreement, error and similarity of the
  k = 10 alternative models of the multi-model operators (``table4.{csv,md}``: leukemia,
  the paper's dataset, beside the published figures);
- ``findings.csv`` and ``findings.md`` (``examples/kdd12_findings.py``): every claim of the
  paper's sections 4.1-4.2 per domain, in the paper's direction, with the difference, its
  p- and Benjamini-Hochberg q-value, the power to see the paper's own effect and the verdict
  (holds, refuted, opposite, untestable);
- ``saeys_table2.{csv,md}``: PKDD'08 Table 2 (robustness: Spearman, Jaccard of the top 5 %
  and 1 %) and the accuracy of the top 1 % features, single selector versus the mean-rank
  ensemble, with their setting (40 bags, SU, ReliefF, SVM-RFE, random forest), on colon
  and leukemia;
- per dataset, the tidy per-fold results and the stability of every operator.

Full setting (the default): b = 150, m = 20, k = 10, 10 folds on the microarrays; on the
text data and madelon (about 2,000 samples, where one fit of IG or CHI takes seconds) the
protocol runs with ``--large-folds`` folds and ``--large-bootstraps`` bootstraps (default 5
and 30), said next to every table, and keeps the words that occur in at least ``--min-df``
documents (default 20: PCMAC 1,045 and BASEHOCK 1,603 words, the paper's text sets had 2,112
and 2,376). madelon is scaled to [0, 1] per feature before the
protocol (its raw values of 0 to 1000 make the SVM selectors' solver crawl, see
docs/selectors_svm_rfe.md; WEKA's SMO, used by the paper, normalises the same way).
``--fast`` is a smoke setting for CI (colon, IG, SVM-RFE and CFS, b = 10, 3 folds): its
numbers are not meant to be compared with the papers.

Every run also writes ``paired_differences.csv`` (the per-domain tables in one, columns
``dataset, selector, operator, strategy, baseline, n_samples, identical_fraction,
error_difference, ci_low, ci_high``; ``--combine`` joins those of separate runs), the
(selector, fold) tasks of each dataset (``<dataset>_tasks.csv``: cached or fitted, seconds)
and appends to a run log (``--log``, default ``OUT/run.log``) the commit, the command, the
machine (CPU model, cores, memory) and each dataset's wall time as it finishes.
``--relieff weka`` runs ReliefF as WEKA 3.6's ReliefFAttributeEval (the papers' tool), the
library's default since issue 37 (so also without ``--relieff``); ``--relieff skrebate``
runs scikit-rebate's, the default before, with which the committed reduced-setting tables
(``docs/kdd12``, ``docs/reproduction.md`` of 2026-11-23) were made.

Run: ``.venv/bin/python examples/reproduce_kdd12.py --out results/kdd12 --cache cache``
(``--domains microarray`` for one domain). With ``--cache``, the base models of each
(selector, fold) are saved as they finish, so a rerun of a killed run refits only what was
not finished (``make reproduce-full``: the papers' full setting in one command).
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import platform
import shlex
import subprocess
import sys
import time
from datetime import datetime
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

import modelmine as mm
from modelmine.evaluation import EvaluationResult, average_points, evaluate
from modelmine.operators import get_operator
from modelmine.report import markdown_table
from modelmine.selectors import get_selector

sys.path.insert(0, str(Path(__file__).resolve().parent))
import kdd12_findings  # examples/kdd12_findings.py: the claims and their tests

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

#: KDD'12 Table 3 ("alt" text data, m = 20): maxApr and closedApr itemsets used to reach m
#: features, their mean size and mean support.
PAPER_TABLE3 = pd.DataFrame(
    [("ig", 12.5, 13.9, 0.38, 60.9, 12.9, 0.52), ("chi2", 12.3, 14.2, 0.41, 64.0, 13.2, 0.56),
     ("su", 16.8, 13.8, 0.35, 159.3, 12.2, 0.51), ("relieff", 32.2, 7.5, 0.37, 118.4, 6.7, 0.46),
     ("svm", 68.9, 7.3, 0.21, 220.7, 6.6, 0.30), ("svm-rfe", 44.4, 6.2, 0.18, 106.2, 5.8, 0.26),
     ("cfs", 31.1, 4.7, 0.17, 164.2, 3.9, 0.28)],
    columns=["selector", "maxApr_n", "maxApr_size", "maxApr_support", "closedApr_n",
             "closedApr_size", "closedApr_support"]).set_index("selector")

PAPER_SINGLE = list(PAPER_TABLE2.index)
PAPER_MULTI = ["allMed", "allClosedApr", "allMedClosedApr"]
#: modelmine's structure-seeking reading of closedApr / maxApr ("area": greedy tiling),
#: evaluated beside the default, the paper's literal reading (issue 25).
AREA = {"closedApr:area": "closedApr", "maxApr:area": "maxApr"}
KDD_SELECTORS = ["ig", "chi2", "su", "relieff", "svm-rfe", "svm", "cfs"]
SAEYS_SELECTORS = ["su", "relieff", "svm-rfe", "random-forest"]
DOMAINS = {"microarray": ["colon", "leukemia", "prostate"], "text": ["basehock", "pcmac"],
           "madelon": ["madelon"]}


def load(name: str, min_df: int = 1) -> tuple[Any, np.ndarray, np.ndarray]:
    """X, y and feature names of a shared dataset.

    madelon is scaled to [0, 1] per feature; the text data keep the words that occur in at
    least ``min_df`` documents (unsupervised, the usual removal of rare terms)."""
    return mm.datasets.load(name, return_names=True,
                            min_df=min_df if name in DOMAINS["text"] else 1,
                            scale="minmax" if name == "madelon" else None)


def settings(fast: bool, folds: int, bootstraps: int, large_folds: int,
             large_bootstraps: int) -> dict[str, dict[str, int]]:
    """Protocol parameters per domain, and of the PKDD'08 runs."""
    if fast:
        small = dict(n_folds=3, n_bootstraps=10, n_features=20, n_signatures=4)
        return {"microarray": small, "text": small, "madelon": small,
                "saeys": dict(n_folds=3, n_bootstraps=8, n_features=20, n_signatures=2)}
    large = dict(n_folds=large_folds, n_bootstraps=large_bootstraps, n_features=20,
                 n_signatures=10)
    return {"microarray": dict(n_folds=folds, n_bootstraps=bootstraps, n_features=20,
                               n_signatures=10),
            "text": large, "madelon": large,
            "saeys": dict(n_folds=10, n_bootstraps=40, n_features=20, n_signatures=2)}


def write(df: pd.DataFrame, out: Path, name: str, title: str, note: str = "") -> None:
    df.to_csv(out / f"{name}.csv")
    (out / f"{name}.md").write_text(f"# {title}\n\n" + (note + "\n\n" if note else "")
                                    + markdown_table(df))


def table2(results: dict[str, EvaluationResult]) -> pd.DataFrame:
    """Table 2 points of the paper's nine operators: closedApr / maxApr as the paper defines
    them (the default, "literal") and in modelmine's "area" reading.

    The points of the two readings are computed in two separate nine-operator comparisons
    (the paper's scale: 36 points per selector), and averaged over datasets and selectors."""
    area_ops = [{"closedApr": "closedApr:area", "maxApr": "maxApr:area"}.get(o, o)
                for o in PAPER_SINGLE]
    out = {}
    for label, ops in (("default", PAPER_SINGLE), ("area", area_ops)):
        pts = pd.concat([r.points(operators=ops, classifier="svm") for r in results.values()],
                        keys=list(results), names=["dataset", "row"]).reset_index("dataset")
        out[label] = average_points(pts).rename(index=AREA)
    t = out["default"][["error_points", "stability_points", "error", "stability"]].join(
        out["area"][["error_points", "stability_points"]].rename(
            columns=lambda c: f"area_{c}"))
    t.loc[~t.index.isin(AREA.values()), ["area_error_points",
                                        "area_stability_points"]] = np.nan
    return t.join(PAPER_TABLE2).round(2)


def itemset_counts(results: dict[str, EvaluationResult]) -> pd.DataFrame:
    """Table 3's inputs: per dataset, selector, operator, reading and fold, the itemsets
    closedApr / maxApr used to reach m features (``n``, mean ``size``, mean ``support``).

    Read from the signatures' provenance: ``n_itemsets_used``, ``mean_itemset_size``,
    ``mean_itemset_support`` (the itemsets that contributed features) for both readings
    (``strategy`` "literal" and "area"), and for the paper's (literal) reading also the
    paper's count, every itemset scanned down to the stopping support
    (``n_itemsets_scanned``, ``mean_scanned_size``, ``mean_scanned_support``: "scanned").
    Written per dataset as ``<dataset>_itemsets.csv``; :func:`table3_from_counts` makes
    Table 3 from it."""
    rows = []
    for ds, res in results.items():
        for (sel, op, fold), sig in res.signatures.items():
            base_op = AREA.get(op, op)
            if base_op not in ("closedApr", "maxApr"):
                continue
            prov = sig.provenance
            rows.append({"dataset": ds, "selector": sel, "operator": base_op,
                         "strategy": prov["strategy"], "fold": fold,
                         "n": prov["n_itemsets_used"], "size": prov["mean_itemset_size"],
                         "support": prov["mean_itemset_support"]})
            if prov["strategy"] == "literal":
                rows.append({"dataset": ds, "selector": sel, "operator": base_op,
                             "strategy": "scanned", "fold": fold,
                             "n": prov["n_itemsets_scanned"],
                             "size": prov["mean_scanned_size"],
                             "support": prov["mean_scanned_support"]})
    return pd.DataFrame(rows, columns=["dataset", "selector", "operator", "strategy", "fold",
                                       "n", "size", "support"])


def table3_from_counts(df: pd.DataFrame) -> pd.DataFrame:
    """Table 3 from the per-fold itemset counts (:func:`itemset_counts`): the mean over the
    folds, then over the datasets, per selector, operator and reading, beside the paper's."""
    per_ds = df.groupby(["selector", "operator", "strategy", "dataset"], sort=False)[
        ["n", "size", "support"]].mean()
    mean = per_ds.groupby(level=["selector", "operator", "strategy"], sort=False).mean()
    wide = mean.unstack(["operator", "strategy"])
    wide.columns = [f"{op}_{strat}_{col}" for col, op, strat in wide.columns]
    order = [f"{op}_{strat}_{col}" for op in ("maxApr", "closedApr")
             for strat in ("literal", "scanned", "area") for col in ("n", "size", "support")]
    wide = wide[[c for c in order if c in wide.columns]]
    paper = PAPER_TABLE3.rename(columns=lambda c: f"paper_{c}")
    return wide.join(paper).round(2)


def table3(results: dict[str, EvaluationResult]) -> pd.DataFrame:
    """Table 3: itemsets closedApr / maxApr used (number, mean size, mean support) per selector.

    Averaged over the folds and the domain's datasets, for both readings, and for the
    paper's (literal) reading also counted the paper's way ("scanned"):
    :func:`table3_from_counts` of :func:`itemset_counts`."""
    return table3_from_counts(itemset_counts(results))


def wide_predictions(res: EvaluationResult) -> pd.DataFrame:
    """Every test prediction of a run, one row per sample (Table 2's and Table 4's inputs).

    Columns ``sample`` (row of the data), ``fold`` (the fold that tested it), ``y_true``,
    then one column per (selector, operator, classifier, signature) named
    ``selector/operator/classifier/signature`` (signature 0 for a single-model operator,
    0 to k - 1 for a multi-model one) holding the predicted label. McNemar's error points
    and the paired differences follow from it (``tests/test_published_kdd12.py``).
    Written per dataset as ``<dataset>_predictions.csv``."""
    p = res.predictions
    key = (p.selector.astype(str) + "/" + p.operator.astype(str) + "/"
           + p.classifier.astype(str) + "/" + p.signature.astype(str))
    order = list(dict.fromkeys(key))
    wide = p.assign(column=key).pivot(index="sample", columns="column", values="y_pred")
    first = p.drop_duplicates("sample").set_index("sample")[["fold", "y_true"]].sort_index()
    return first.join(wide[order]).reset_index()


def paired(results: dict[str, EvaluationResult]) -> pd.DataFrame:
    """Per-sample paired error differences (SVM) with 95 % intervals (issue 25, item 3):
    closedApr - mostFreq and maxApr - mostFreq in both readings, and each aggregation -
    nobagg, per dataset and selector (:meth:`EvaluationResult.paired_differences`), with
    the fraction of folds whose two signatures are identical."""
    parts = []
    for ds, res in results.items():
        t = res.paired_differences(classifier="svm")
        t.insert(0, "dataset", ds)
        parts.append(t)
    df = pd.concat(parts, ignore_index=True)
    df.insert(3, "strategy", [("area" if op in AREA else "literal")
                              if AREA.get(op, op) in ("closedApr", "maxApr") else ""
                              for op in df.operator])
    df["operator"] = [AREA.get(op, op) for op in df.operator]
    return df


def table4(results: dict[str, EvaluationResult]) -> pd.DataFrame:
    """Table 4 layout averaged over the domain's datasets (mean over folds, then datasets)."""
    cols = {"svm_agreement_mean": "svm_agreement", "svm_error_mean": "svm_error",
            "1nn_agreement_mean": "1nn_agreement", "1nn_error_mean": "1nn_error",
            "similarity_mean": "similarity"}
    parts = [t[[c for c in cols if c in t.columns]].rename(columns=cols)
             for t in (r.to_frame("table4", operators=PAPER_MULTI) for r in results.values())]
    return (pd.concat(parts, keys=list(results), names=["dataset"])
            .groupby(level=["operator", "selector"], sort=False).mean().round(2))


def combine(dirs: list[Path]) -> pd.DataFrame:
    """Table 2 averaged over every domain, from the per-domain tables of separate runs.

    A domain's table averages its (dataset, selector) rows, so the average over every row
    is the domains' tables weighted by their number of (dataset, selector) pairs, read from
    the runs' per-fold results."""
    tables, weights = [], []
    for d in dirs:
        for path in sorted(d.glob("table2_*.csv")):
            dom = path.stem.removeprefix("table2_")
            pairs = sum(pd.read_csv(d / f"{ds}_folds.csv", usecols=["selector"])
                        .selector.nunique() for ds in DOMAINS[dom]
                        if (d / f"{ds}_folds.csv").exists())
            tables.append(pd.read_csv(path, index_col="operator"))
            weights.append(pairs)
    if not tables:
        raise SystemExit(f"--combine: no table2_<domain>.csv in {[str(d) for d in dirs]}")
    ours = [c for c in tables[0].columns if not c.startswith("paper_")]
    total = sum(w * t[ours] for w, t in zip(weights, tables)) / sum(weights)
    return total.join(PAPER_TABLE2).round(2)


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


#: The columns of ``paired_differences.csv`` (issue 37, item 4), with ``baseline``: closedApr
#: and maxApr are compared with mostFreq and, as aggregations, with nobagg too.
PAIRED_COLUMNS = ["dataset", "selector", "operator", "strategy", "baseline", "n_samples",
                  "identical_fraction", "error_difference", "ci_low", "ci_high"]


def combine_paired(dirs: list[Path]) -> pd.DataFrame:
    """The ``paired_differences_<domain>.csv`` of separate runs, in one table."""
    parts = [pd.read_csv(path, keep_default_na=False, na_values=[""])
             for d in dirs for path in sorted(d.glob("paired_differences_*.csv"))]
    if not parts:
        raise SystemExit("--combine: no paired_differences_<domain>.csv in "
                         f"{[str(d) for d in dirs]}")
    return pd.concat(parts, ignore_index=True)[PAIRED_COLUMNS]


def _default_relieff() -> str:
    """What the run log says for ReliefF without ``--relieff``: the library's variant."""
    return f"library default ({get_selector('relieff').get_params()['variant']})"


def selector_specs(names: list[str], relieff: str | None) -> list[Any] | dict[str, Any]:
    """The selectors as ``evaluate`` takes them: ``relieff`` as the chosen variant
    (``"weka"``: WEKA 3.6's ReliefFAttributeEval, the papers' tool) under its own label."""
    if relieff is None or "relieff" not in names:
        return names
    return {n: get_selector("relieff", {"variant": relieff}, func="reproduce_kdd12")
            if n == "relieff" else n for n in names}


def git_commit() -> str:
    """The commit of the working tree this script runs from ("+ changes" when it is dirty)."""
    root = Path(__file__).resolve().parents[1]
    try:
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True,
                              text=True, check=True, timeout=30).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=root, capture_output=True, text=True, check=True,
                               timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        return "unknown (not a git checkout)"
    return head + (" + uncommitted changes" if dirty else "")


def machine() -> str:
    """Host, CPU model, cores and memory, from /proc when there is one."""
    model = platform.processor() or platform.machine()
    memory = "memory unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                memory = f"{int(line.split()[1]) / 2**20:.1f} GiB memory"
                break
    except OSError:
        pass
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    cores = f"{os.cpu_count()} cores" + (f" ({usable} usable)" if usable is not None
                                          and usable != os.cpu_count() else "")
    return f"{platform.node()}, {model}, {cores}, {memory}, {platform.platform()}"


def blas() -> str:
    """The BLAS numpy runs on, its kernels and ``OPENBLAS_CORETYPE``: ReliefF's WEKA scores
    of two genes can tie exactly in exact arithmetic, and the kernel decides the last bit
    of their sums, so which one ranks first (docs/reproduction.md, "Where we differ")."""
    try:
        from threadpoolctl import threadpool_info
        libs = [f"{i.get('internal_api')} {i.get('version')} ({i.get('architecture')} "
                f"kernels)" for i in threadpool_info() if i.get("user_api") == "blas"]
    except Exception:  # threadpoolctl missing or failing: say so rather than stop the run
        libs = []
    core = os.environ.get("OPENBLAS_CORETYPE")
    return (", ".join(libs) or "unknown") + (f", OPENBLAS_CORETYPE={core}" if core
                                             else ", OPENBLAS_CORETYPE unset")


def append_log(path: Path, line: str) -> None:
    """Append one line to the run log at once (a killed run keeps what it logged)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(line + "\n")


def operators() -> tuple[list[Any], dict[str, dict[str, Any]]]:
    """The paper's operators, and closedApr / maxApr in the area reading under their own
    names."""
    ops: list[Any] = PAPER_SINGLE + PAPER_MULTI
    ops += [dataclasses.replace(get_operator(base), name=name) for name, base in AREA.items()]
    return ops, {name: {"strategy": "area"} for name in AREA}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fast", action="store_true", help="small CI setting")
    parser.add_argument("--out", type=Path, default=Path("kdd12_results"))
    parser.add_argument("--domains", nargs="+", default=list(DOMAINS), choices=list(DOMAINS))
    parser.add_argument("--datasets", nargs="+", default=None,
                        choices=[d for ds in DOMAINS.values() for d in ds],
                        help="restrict the domains to these datasets")
    parser.add_argument("--selectors", nargs="+", default=None,
                        help="default: the paper's seven (--fast: ig, svm-rfe, cfs)")
    parser.add_argument("--relieff", choices=["skrebate", "weka"], default=None,
                        help="ReliefF's variant (default: the library's relieff, weka "
                        "since issue 37); weka: WEKA 3.6's ReliefFAttributeEval, the papers' "
                        "tool; skrebate: scikit-rebate's, the default before (the committed "
                        "reduced-setting tables)")
    parser.add_argument("--n-folds", "--folds", dest="folds", type=int, default=10,
                        help="folds on the microarrays (full setting)")
    parser.add_argument("--n-bootstraps", "--bootstraps", dest="bootstraps", type=int,
                        default=150,
                        help="bootstraps on the microarrays (full setting)")
    parser.add_argument("--min-df", type=int, default=20,
                        help="text data: keep the words of at least this many documents")
    parser.add_argument("--large-n-folds", "--large-folds", dest="large_folds", type=int,
                        default=5,
                        help="folds on the text data and madelon (full setting)")
    parser.add_argument("--large-n-bootstraps", "--large-bootstraps", dest="large_bootstraps",
                        type=int, default=30,
                        help="bootstraps on the text data and madelon (full setting)")
    parser.add_argument("--classifiers", nargs="+", default=["svm", "1nn"],
                        choices=["svm", "1nn", "tree"],
                        help="the paper's tables use the SVM (Table 2) and 1NN (Table 4)")
    parser.add_argument("--n-jobs", type=int, default=-1)
    parser.add_argument("--combine", type=Path, nargs="+", default=None,
                        help="only average the table2_<domain>.csv of these output "
                        "directories into --out/table2.{csv,md}")
    parser.add_argument("--cache", type=Path, default=None,
                        help="cache directory of the base models of each (selector, "
                        "fold): a rerun loads them, so a killed run resumes where it stopped")
    parser.add_argument("--require-data", action="store_true",
                        help="stop when a shared dataset is missing (default: skip it)")
    parser.add_argument("--log", type=Path, default=None,
                        help="run log, appended as each dataset finishes (default: "
                        "OUT/run.log): commit, command, machine, wall time per dataset")
    parser.add_argument("--findings", type=Path, default=None,
                        help="only recompute findings.{csv,md} (every claim of the paper's "
                        "sections 4.1-4.2 per domain, with its p- and q-value, power and "
                        "verdict: examples/kdd12_findings.py) from this finished run's "
                        "directory (or docs/kdd12), into --out")
    saeys = parser.add_mutually_exclusive_group()
    saeys.add_argument("--no-saeys", action="store_true", help="skip the PKDD'08 runs")
    saeys.add_argument("--only-saeys", action="store_true",
                       help="run only the PKDD'08 setting (on colon and leukemia)")
    args = parser.parse_args()
    if args.selectors is None:
        args.selectors = ["ig", "svm-rfe", "cfs"] if args.fast else KDD_SELECTORS
    if args.fast and args.datasets is None:
        args.datasets = ["colon"]  # the smoke run: one embedded dataset
    if args.findings:
        kdd12_findings.write_findings(args.findings, args.out)
        return
    if args.combine:
        args.out.mkdir(parents=True, exist_ok=True)
        write(combine(args.combine), args.out, "table2", "KDD'12 Table 2: points (SVM), "
              "average over every dataset and selector of the three domains, ours vs "
              "published", "From " + ", ".join(str(d) for d in args.combine) + ".")
        combine_paired(args.combine).to_csv(args.out / "paired_differences.csv",
                                            index=False)
        return
    cfg = settings(args.fast, args.folds, args.bootstraps, args.large_folds,
                   args.large_bootstraps)
    args.out.mkdir(parents=True, exist_ok=True)
    log_path = args.out / "run.log" if args.log is None else args.log
    started = time.perf_counter()
    append_log(log_path, f"# run started {datetime.now().isoformat(timespec='seconds')}\n"
               f"commit: {git_commit()}\n"
               f"command: {shlex.join([sys.executable, *sys.argv])}\n"
               f"machine: {machine()}\n"
               f"blas: {blas()}\n"
               f"setting: {'fast' if args.fast else 'full'} {cfg}, selectors "
               f"{args.selectors}, relieff {args.relieff or _default_relieff()}, min_df "
               f"{args.min_df}, n_jobs {args.n_jobs}, cache {args.cache}")
    selectors = selector_specs(args.selectors, args.relieff)
    log = [f"# Run log\n\n{datetime.now().isoformat(timespec='seconds')}, "
           f"{platform.node()} ({platform.processor() or platform.machine()}), "
           f"setting {'fast' if args.fast else 'full'}: {cfg}, selectors {args.selectors}\n\n"]
    ops, params = operators()

    results: dict[str, dict[str, EvaluationResult]] = {}
    for dom in [] if args.only_saeys else args.domains:
        for ds in DOMAINS[dom]:
            if args.datasets is not None and ds not in args.datasets:
                continue
            if ds in mm.datasets.SHARED_FILES:
                try:
                    mm.datasets.shared_path(ds)
                except FileNotFoundError as exc:
                    if args.require_data:
                        raise SystemExit(f"--require-data: {ds} is missing: {exc}") from None
                    print(f"- {ds}: skipped, {exc}", flush=True)
                    append_log(log_path, f"- {ds}: skipped, {exc}")
                    continue
            X, y, names = load(ds, args.min_df)
            t0 = time.perf_counter()
            res = evaluate(X, y, selectors=selectors, operators=ops,
                           operator_params=params, classifiers=args.classifiers,
                           feature_names=names, random_state=0, n_jobs=args.n_jobs,
                           progress=False, **cfg[dom],
                           cache_dir=None if args.cache is None else args.cache / ds)
            wall = time.perf_counter() - t0
            results.setdefault(dom, {})[ds] = res
            line = (f"- {dom}, {ds} ({X.shape[0]} x {X.shape[1]}), {cfg[dom]}: {wall:.0f} s "
                    f"wall, {int(res.tasks.cached.sum())}/{len(res.tasks)} (selector, fold) "
                    "tasks from the cache")
            print(line, flush=True)
            log.append(line + "\n")
            append_log(log_path, line)
            res.folds.to_csv(args.out / f"{ds}_folds.csv", index=False)
            wide_predictions(res).to_csv(args.out / f"{ds}_predictions.csv", index=False)
            itemset_counts({ds: res}).to_csv(args.out / f"{ds}_itemsets.csv", index=False)
            res.tasks.to_csv(args.out / f"{ds}_tasks.csv", index=False)
            write(res.stability(), args.out, f"{ds}_stability", f"Stability across folds, {ds}")
            if not res.skipped.empty:
                res.skipped.to_csv(args.out / f"{ds}_skipped.csv", index=False)

    t2s: dict[str, pd.DataFrame] = {}
    pairs: list[pd.DataFrame] = []
    for dom, res in results.items():
        note = (f"Setting: {', '.join(res)}; selectors {', '.join(args.selectors)}; "
                f"{cfg[dom]}.")
        t2s[dom] = table2(res)
        write(t2s[dom], args.out, f"table2_{dom}", f"KDD'12 Table 2, {dom}: points (SVM), "
              "ours (closedApr / maxApr as the paper reads them, and area) vs published", note)
        write(table3(res), args.out, f"table3_{dom}", f"KDD'12 Table 3, {dom}: itemsets "
              "used to reach m features, ours (literal, literal counted as the paper "
              "counts, area) vs published (alt text)",
              note)
        write(table4(res), args.out, f"table4_{dom}", f"KDD'12 Table 4 layout, {dom}", note)
        pairs.append(paired(res))
        pairs[-1].to_csv(args.out / f"paired_differences_{dom}.csv", index=False)
        print(f"\n## {dom}\n" + markdown_table(t2s[dom]), flush=True)
    if pairs:
        pd.concat(pairs, ignore_index=True)[PAIRED_COLUMNS].to_csv(
            args.out / "paired_differences.csv", index=False)
    if len(results) > 1:
        every = {f"{dom}/{ds}": r for dom, rs in results.items() for ds, r in rs.items()}
        t2s["all"] = table2(every)
        write(t2s["all"], args.out, "table2", "KDD'12 Table 2: points (SVM), average over "
              "every dataset and selector, ours vs published")
    leuk = results.get("microarray", {}).get("leukemia")
    if leuk is not None:
        t4 = table4({"leukemia": leuk}).join(PAPER_TABLE4)
        write(t4, args.out, "table4", "KDD'12 Table 4, leukemia: ours vs published")
    if pairs:
        kdd12_findings.write_findings(args.out, args.out)

    saeys_sets = [d for d in ("leukemia", "colon") if "microarray" in args.domains
                  and (args.datasets is None or d in args.datasets)]
    if not args.no_saeys and saeys_sets:
        saeys: dict[str, EvaluationResult] = {}
        for ds in saeys_sets:
            X, y, names = load(ds)
            t0 = time.perf_counter()
            saeys[ds] = evaluate(
                X, y, selectors=SAEYS_SELECTORS, operators=["avgRank"], classifiers=["svm"],
                feature_names=names, random_state=0, n_jobs=args.n_jobs, progress=False,
                cache_dir=None if args.cache is None else args.cache / f"saeys_{ds}",
                **cfg["saeys"])
            line = (f"- PKDD'08 protocol on {ds}: {time.perf_counter() - t0:.0f} s wall")
            print(line, flush=True)
            log.append(line + "\n")
            append_log(log_path, line)
        st = saeys_table(saeys)
        write(st, args.out, "saeys_table2", "PKDD'08 Table 2: single vs ensemble, ours vs "
              "published")
    (args.out / "run_log.md").write_text("".join(log))
    append_log(log_path, f"# run finished, {time.perf_counter() - started:.0f} s wall in all\n")


if __name__ == "__main__":
    main()
