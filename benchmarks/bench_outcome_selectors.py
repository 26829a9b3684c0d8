"""The selectors of continuous and survival outcomes against their references (issue 27).

One fit of each selector on real data, side by side with the reference implementation
computing the same ranking:

- regression, colon (62 x 2,000) with y simulated from 10 genes (R2 = 0.8):
  ``pearson`` against ``scipy.stats.pearsonr`` column by column; ``rrelieff`` against
  WEKA 3.6's ``ReliefFAttributeEval`` (the jar, JVM start included, when installed);
  ``lasso``, ``elastic-net``, ``svr-rfe``, ``random-forest`` against the scikit-learn calls
  they wrap (the ratio is their own overhead: standardising, the entry order);
- survival, scikit-survival's breast cancer set (198 x 78 numeric columns):
  ``cox-score`` against a univariate ``CoxPHSurvivalAnalysis`` fit per feature (the usual
  way to rank features by a Cox model one at a time); ``coxnet`` and ``boosted-cox``
  against the scikit-survival estimators they wrap.

Prints seconds and ratios (ours / reference), best of ``--repeats``; writes
``benchmarks/results/outcome_selectors.csv``.

Run: ``.venv/bin/python benchmarks/bench_outcome_selectors.py [--repeats 3]``.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np
import pandas as pd

import modelmine as mm
from modelmine.selectors import get_selector

RESULTS = Path(__file__).parent / "results"
WEKA = Path("/usr/share/java/weka.jar")


def best(fn, repeats: int) -> float:
    """The fastest of ``repeats`` calls of ``fn``, in seconds."""
    out = np.inf
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out = min(out, time.perf_counter() - t)
    return out


def regression_data() -> tuple[np.ndarray, np.ndarray]:
    """Colon's genes and a response from 10 of them (R2 = 0.8, seed 0)."""
    X = np.asarray(mm.datasets.load_colon()[0], dtype=np.float64)
    rng = np.random.default_rng(0)
    S = rng.choice(X.shape[1], 10, replace=False)
    Z = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1)
    signal = Z[:, S].sum(axis=1)
    y = signal + rng.normal(0, np.sqrt(signal.var() / 4), X.shape[0])
    return X, y


def weka_rrelieff(X: np.ndarray, y: np.ndarray) -> None:
    """WEKA's ReliefFAttributeEval on a numeric class, through the jar (Ranker)."""
    with tempfile.TemporaryDirectory() as tmp:
        arff = Path(tmp) / "d.arff"
        lines = ["@relation r"] + [f"@attribute f{j} numeric" for j in range(X.shape[1])]
        lines += ["@attribute class numeric", "@data"]
        lines += [",".join(repr(float(v)) for v in row) + f",{float(t)!r}"
                  for row, t in zip(X, y)]
        arff.write_text("\n".join(lines) + "\n")
        subprocess.run(["java", "-Xmx2g", "-cp", str(WEKA),
                        "weka.attributeSelection.ReliefFAttributeEval", "-i", str(arff),
                        "-s", "weka.attributeSelection.Ranker -T -1.8e308 -N -1"],
                       check=True, capture_output=True, timeout=900)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    warnings.simplefilter("ignore")
    rows = []

    X, y = regression_data()
    from scipy.stats import pearsonr
    from sklearn.ensemble import RandomForestRegressor
    from sklearn.feature_selection import RFE
    from sklearn.linear_model import enet_path, lars_path
    from sklearn.svm import LinearSVR

    Z = (X - X.mean(0)) / np.where(X.std(0) > 0, X.std(0), 1)
    refs = {
        "pearson": ("scipy pearsonr per column",
                    lambda: [pearsonr(X[:, j], y) for j in range(X.shape[1])
                             if X[:, j].std() > 0]),
        "lasso": ("sklearn lars_path", lambda: lars_path(Z, y - y.mean(), method="lasso")),
        "elastic-net": ("sklearn enet_path",
                        lambda: enet_path(Z, y - y.mean(), l1_ratio=0.5, n_alphas=100)),
        "svr-rfe": ("sklearn RFE(LinearSVR)", lambda: RFE(
            LinearSVR(C=1.0, epsilon=0.0, max_iter=10000, dual=True, random_state=0),
            n_features_to_select=1, step=0.1).fit(Z, (y - y.mean()) / y.std())),
        "random-forest": ("sklearn RandomForestRegressor", lambda: RandomForestRegressor(
            n_estimators=100, max_features="sqrt", random_state=0, n_jobs=1).fit(X, y)),
    }
    if WEKA.is_file() and shutil.which("java"):
        refs["rrelieff"] = ("WEKA 3.6 ReliefFAttributeEval (jar)", lambda: weka_rrelieff(X, y))
    for name, (ref_name, ref) in refs.items():
        sel = get_selector(name).for_outcome("regression")
        ours = best(lambda sel=sel: sel.select(X, y, random_state=0), args.repeats)
        theirs = best(ref, 1 if name == "rrelieff" else args.repeats)
        rows.append({"outcome": "regression", "data": "colon 62 x 2000", "selector": name,
                     "seconds": ours, "reference": ref_name, "reference_seconds": theirs})

    from sksurv.datasets import load_breast_cancer
    from sksurv.ensemble import ComponentwiseGradientBoostingSurvivalAnalysis
    from sksurv.linear_model import CoxnetSurvivalAnalysis, CoxPHSurvivalAnalysis

    frame, ys = load_breast_cancer()
    Xs = frame.select_dtypes("number").to_numpy(dtype=np.float64)
    Zs = (Xs - Xs.mean(0)) / Xs.std(0)
    refs_s = {
        "cox-score": ("sksurv CoxPHSurvivalAnalysis per feature",
                      lambda: [CoxPHSurvivalAnalysis(ties="breslow").fit(Zs[:, [j]], ys)
                               for j in range(Zs.shape[1])]),
        "coxnet": ("sksurv CoxnetSurvivalAnalysis", lambda: CoxnetSurvivalAnalysis(
            l1_ratio=0.9, n_alphas=100, alpha_min_ratio=0.01).fit(Zs, ys)),
        "boosted-cox": ("sksurv ComponentwiseGradientBoostingSurvivalAnalysis",
                        lambda: ComponentwiseGradientBoostingSurvivalAnalysis(
                            loss="coxph", n_estimators=250, learning_rate=0.1,
                            random_state=0).fit(Zs, ys)),
    }
    for name, (ref_name, ref) in refs_s.items():
        sel = get_selector(name)
        ours = best(lambda sel=sel: sel.select(Xs, ys, random_state=0), args.repeats)
        theirs = best(ref, args.repeats)
        rows.append({"outcome": "survival", "data": "breast cancer 198 x 78",
                     "selector": name, "seconds": ours, "reference": ref_name,
                     "reference_seconds": theirs})

    table = pd.DataFrame(rows)
    table["ratio"] = table["seconds"] / table["reference_seconds"]
    RESULTS.mkdir(exist_ok=True)
    table.to_csv(RESULTS / "outcome_selectors.csv", index=False)
    with pd.option_context("display.width", 160, "display.precision", 4):
        print(table.to_string(index=False))
    print(f"wrote {RESULTS / 'outcome_selectors.csv'}")


if __name__ == "__main__":
    main()
