"""Benchmark: ``"1nn"`` (:class:`~modelmine.evaluation.IBkClassifier`, WEKA's IBk to the last
bit) against scikit-learn's 1-NN and WEKA 3.6's ``IBk -K 1`` (issue 49, item 3).

``IBkClassifier`` sums each candidate pair's squared differences attribute by attribute, as
WEKA does, so that exact ties are seen; the candidates come from one matrix product, as in
scikit-learn's brute force. This script times, on the shared text sets and madelon (the
top m features of a 90 % training part by ANOVA F) and on simulated single-cell-like counts
with 10^4-10^5 rows, the fit and prediction of:

- ours (``IBkClassifier()``), and the fractions of test samples with several training
  samples at the nearest distance (``several_nearest``) and with nearest ones of two or more
  classes (``nearest_of_two_classes``), where the tie rule decides;
- scikit-learn's ``MinMaxScaler`` + ``KNeighborsClassifier(n_neighbors=1)`` (the former
  ``"1nn"``), and how many of its predictions differ from ours;
- WEKA (``java weka.classifiers.lazy.IBk -K 1 -t train.arff -T test.arff -p 0``, the JVM's
  start-up included, when ``weka.jar`` and java are present; not for the simulated sets).

Run: ``.venv/bin/python benchmarks/bench_ibk.py [--out CSV]`` (one thread for BLAS is not
forced: the machine's default).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.feature_selection import f_classif
from sklearn.model_selection import train_test_split
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import MinMaxScaler

import modelmine as mm
from modelmine.datasets import write_arff
from modelmine.evaluation import IBkClassifier

WEKA_JAR = os.environ.get("MODELMINE_WEKA_JAR", "/usr/share/java/weka.jar")


def _weka(train: Path, test: Path) -> tuple[np.ndarray, float]:
    t = time.perf_counter()
    out = subprocess.run(["java", "-Xmx4g", "-cp", WEKA_JAR, "weka.classifiers.lazy.IBk",
                          "-K", "1", "-t", str(train), "-T", str(test), "-p", "0"],
                         capture_output=True, text=True, check=True, timeout=3600).stdout
    seconds = time.perf_counter() - t
    return np.array([int(m) - 1 for m in re.findall(r"^\s*\d+\s+\d+:\S+\s+(\d+):", out,
                                                    re.MULTILINE)]), seconds


def _cases(sizes: list[int]):
    for name in ("basehock", "pcmac", "madelon"):
        X, y = mm.datasets.load(name, scale="minmax" if name == "madelon" else None)
        X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
        yield name, X, np.unique(y, return_inverse=True)[1], True
    rng = np.random.default_rng(0)
    for n in sizes:  # negative-binomial counts, cluster labels from three profiles
        y = rng.integers(0, 3, size=n)
        mean = rng.gamma(0.6, 1.5, size=(3, 200))[y]
        X = rng.negative_binomial(2, 2 / (2 + mean)).astype(np.float64)
        yield f"simulated counts {n}", X, y, False


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--m", type=int, default=20, help="features per signature")
    parser.add_argument("--sizes", type=int, nargs="+", default=[10_000, 100_000])
    parser.add_argument("--out", default=None, help="write the rows to this CSV")
    args = parser.parse_args()
    have_weka = Path(WEKA_JAR).is_file() and shutil.which("java") is not None
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, X, y, weka in _cases(args.sizes):
            tr, te = train_test_split(np.arange(y.size), test_size=0.1, stratify=y,
                                      random_state=0)
            F, _ = f_classif(X[tr], y[tr])
            cols = np.argsort(-np.nan_to_num(F, nan=-1.0), kind="stable")[:args.m]
            A, B = X[np.ix_(tr, cols)], X[np.ix_(te, cols)]
            t = time.perf_counter()
            model = IBkClassifier().fit(A, y[tr])
            ours = model.predict(B)
            ours_s = time.perf_counter() - t
            nearest = model._counts(B)  # neighbours per class of each test sample
            t = time.perf_counter()
            knn = make_pipeline(MinMaxScaler(), KNeighborsClassifier(1)).fit(A, y[tr])
            old = knn.predict(B)
            sk_s = time.perf_counter() - t
            row = {"data": name, "n_train": tr.size, "n_test": te.size, "m": args.m,
                   "ours_s": ours_s, "sklearn_s": sk_s, "ours_over_sklearn": ours_s / sk_s,
                   "differ_sklearn": int((old != ours).sum()),
                   "several_nearest": float(np.mean(nearest.sum(axis=1) > 1)),
                   "nearest_of_two_classes": float(np.mean((nearest > 0).sum(axis=1) > 1)),
                   "weka_s": np.nan, "differ_weka": np.nan}
            if weka and have_weka:
                rows_all = np.concatenate([tr, te])
                full = write_arff(Path(tmp, "full.arff"), X[np.ix_(rows_all, cols)],
                                  y[rows_all])
                head, data = full.read_text().split("@data\n")
                lines = data.strip("\n").split("\n")
                Path(tmp, "train.arff").write_text(head + "@data\n"
                                                   + "\n".join(lines[:tr.size]) + "\n")
                Path(tmp, "test.arff").write_text(head + "@data\n"
                                                  + "\n".join(lines[tr.size:]) + "\n")
                pred, row["weka_s"] = _weka(Path(tmp, "train.arff"), Path(tmp, "test.arff"))
                row["differ_weka"] = int((pred != ours).sum())
            rows.append(row)
            print(" ".join(f"{k}={v:.3g}" if isinstance(v, float) else f"{k}={v}"
                           for k, v in row.items()), flush=True)
    df = pd.DataFrame(rows)
    if args.out:
        df.to_csv(args.out, index=False)
    cols = ["data", "n_train", "m", "ours_s", "sklearn_s", "ours_over_sklearn", "weka_s",
            "several_nearest", "nearest_of_two_classes", "differ_sklearn", "differ_weka"]
    print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for r in df[cols].itertuples(index=False):
        print("| " + " | ".join("" if isinstance(v, float) and np.isnan(v) else
                                f"{v:.3g}" if isinstance(v, float) else str(v)
                                for v in r) + " |")


if __name__ == "__main__":
    main()
