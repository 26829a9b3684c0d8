"""Benchmark: ReliefF and SVM-RFE against WEKA 3.6 on the shared microarrays (issue 24).

ReliefF (WEKA's ``ReliefFAttributeEval``, k = 10, all instances): for every feature of
colon, leukemia and prostate (and, as multiclass data, leukemia with its classes split at
random into three and four classes), the number of features whose score differs from WEKA's
beyond its printed precision (6 decimals), the top-20 overlap of the rankings and the time
of one WEKA run (JVM start included) against ours, for

* ``relieff`` (skrebate's ReliefF: the "relieff" selector with ``variant="skrebate"``, its
  default before issue 37) against WEKA's default (equal neighbour influence);
* ``relieff_weka_scores(weight_by_distance=False)`` (the "relieff" selector's default since
  issue 37) against WEKA's default;
* ``relieff_weka_scores()`` (the "relieff" selector with ``weight_by_distance=True``, Pes
  2019) against WEKA's ``-W`` (sigma 2).

SVM-RFE (WEKA's ``SVMAttributeEval -C 0.5 -Y 10 -Z 0``: SMO with C = 0.5 on attributes
normalised to [0, 1], 10 % of the remaining attributes removed per step): our
``svm_rfe_ranking(step=0.1, step_rule="remaining")`` on the same attributes scaled to
[0, 1] by their range (a constant attribute scaled to 0, as WEKA's Normalize), with the
top-20 overlap, the Spearman correlation of the ranks and both times; then with the solver
tolerance 1e-9 (ours is libsvm's 1e-3 by default; SVMAttributeEval runs SMO with ``-T
1e-10``), and with a constant 50 attributes removed per step (``-X 50`` against
``step=50``), which isolates the SVM from WEKA's step rule (WEKA removes
``int(0.1 * (remaining + 1))`` attributes per step: its attribute count includes the class).

Run: ``.venv/bin/python benchmarks/bench_weka_relieff_svm.py [--quick] [--out CSV]``
(``--quick``: the first 500 columns; needs ``java`` and WEKA 3.6's ``weka.jar``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import spearmanr

import modelmine as mm
from modelmine.selectors import relieff_scores, relieff_weka_scores
from modelmine.selectors._svm_rfe import svm_rfe_ranking

WEKA_JAR = os.environ.get("MODELMINE_WEKA_JAR", "/usr/share/java/weka.jar")
RANKER = "weka.attributeSelection.Ranker -T -1.8e308 -N -1"
PRINTED = 0.5e-6 * (1 + 1e-9)


def _write_arff(path: Path, X: np.ndarray, y: np.ndarray) -> None:
    lines = ["@relation d"] + [f"@attribute f{j} numeric" for j in range(X.shape[1])]
    lines.append("@attribute class {" + ",".join(f"c{c}" for c in np.unique(y)) + "}")
    lines.append("@data")
    lines += [",".join(repr(float(v)) for v in row) + f",c{c}" for row, c in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")


def _weka_rank(evaluator: str, options: list[str], arff: Path, p: int):
    """WEKA's printed merit per feature (in feature order) and the wall time of the run."""
    t0 = time.perf_counter()
    out = subprocess.run(
        ["java", "-Xmx2g", "-cp", WEKA_JAR, f"weka.attributeSelection.{evaluator}", *options,
         "-i", str(arff), "-s", RANKER], capture_output=True, text=True, check=True,
        timeout=3600,
    ).stdout
    elapsed = time.perf_counter() - t0
    merit = np.full(p, np.nan)
    for m in re.finditer(r"^\s*(-?[\d.]+(?:E-?\d+)?)\s+\d+\s+f(\d+)\s*$", out, re.MULTILINE):
        merit[int(m.group(2))] = float(m.group(1))
    assert not np.isnan(merit).any(), out[:2000]
    return merit, elapsed


def _timed(func, *args, **kwargs):
    t0 = time.perf_counter()
    result = func(*args, **kwargs)
    return result, time.perf_counter() - t0


def _top20(a: np.ndarray, b: np.ndarray) -> int:
    return len(set(np.argsort(-a, kind="stable")[:20]) & set(np.argsort(-b, kind="stable")[:20]))


def _cases(p: int | None):
    for name in ("colon", "leukemia", "prostate"):
        X, y = mm.datasets.load(name)
        X = np.asarray(X, dtype=np.float64)[:, :p]
        yield name, X, np.unique(y, return_inverse=True)[1]
    X, y = mm.datasets.load("leukemia")
    X = np.asarray(X, dtype=np.float64)[:, :p]
    y = np.unique(y, return_inverse=True)[1]
    rs = np.random.RandomState(0)
    y3 = y.copy()
    y3[(y == 0) & (rs.rand(y.size) < 0.4)] = 2
    yield "leukemia-3class", X, y3
    y4 = y3.copy()
    y4[(y3 == 1) & (rs.rand(y.size) < 0.4)] = 3
    yield "leukemia-4class", X, y4


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="first 500 columns only")
    parser.add_argument("--out", default=None, help="write the table to this CSV")
    args = parser.parse_args()
    p = 500 if args.quick else None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        arff = Path(tmp, "data.arff")
        for name, X, y in _cases(p):
            _write_arff(arff, X, y)
            relief = [
                ("relieff (skrebate)", [], relieff_scores, {}),
                ("relieff_weka_scores", [], relieff_weka_scores, {"weight_by_distance": False}),
                ("relieff weighted (-W)", ["-W"], relieff_weka_scores, {}),
            ]
            for label, opts, func, kw in relief:
                weka, t_weka = _weka_rank("ReliefFAttributeEval", opts, arff, X.shape[1])
                ours, t_ours = _timed(func, X, y, **kw)
                rows.append({"dataset": name, "p": X.shape[1], "method": label,
                             "weka_options": " ".join(opts) or "(default)",
                             "differ": int((np.abs(ours - weka) > PRINTED).sum()),
                             "top20": _top20(ours, weka), "spearman": np.nan,
                             "weka_s": t_weka, "ours_s": t_ours})
            if name.endswith("class"):
                continue
            mn, rng = X.min(axis=0), np.ptp(X, axis=0)
            Xs = np.where(rng > 0, (X - mn) / np.where(rng > 0, rng, 1.0), 0.0)
            for label, opts, kw in (
                    ("svm-rfe on [0, 1], 10 %", ["-C", "0.5", "-Y", "10", "-Z", "0"],
                     {"step": 0.1, "step_rule": "remaining"}),
                    ("svm-rfe on [0, 1], 10 %, tol 1e-9", ["-C", "0.5", "-Y", "10", "-Z", "0"],
                     {"step": 0.1, "step_rule": "remaining", "tol": 1e-9}),
                    ("svm-rfe on [0, 1], 50 per step, tol 1e-9", ["-C", "0.5", "-X", "50"],
                     {"step": 50, "tol": 1e-9})):
                weka, t_weka = _weka_rank("SVMAttributeEval", opts, arff, X.shape[1])
                rank, t_ours = _timed(svm_rfe_ranking, Xs, y, C=0.5, **kw)
                ours = -rank.astype(np.float64)  # WEKA prints p for the best, 1 the worst
                rows.append({"dataset": name, "p": X.shape[1], "method": label,
                             "weka_options": " ".join(opts),
                             "differ": int((ours + X.shape[1] + 1 != weka).sum()),
                             "top20": _top20(ours, weka),
                             "spearman": float(spearmanr(ours, weka)[0]),
                             "weka_s": t_weka, "ours_s": t_ours})
            print(pd.DataFrame(rows[-5:]).to_string(index=False), flush=True)
    df = pd.DataFrame(rows)
    if args.out:
        df.to_csv(args.out, index=False, float_format="%.4g")
    print(df.to_string(index=False))


if __name__ == "__main__":
    main()
