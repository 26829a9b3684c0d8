"""Benchmark: the evaluation protocol's classifiers against WEKA 3.6's (issue 24, part 3).

Woznica, Nguyen and Kalousis (KDD 2012, Section 3) train WEKA's SMO (C = 0.5, attributes
normalised to [0, 1]), IBk (k = 1, normalised distances) and J48 (C4.5, confidence 0.25, at
least 2 instances per leaf) on each signature. Ours (:mod:`modelmine.evaluation`) are
``"svm"`` (``RangeScaler`` + ``SVC(kernel="linear", C=0.5)``), ``"1nn"``
(:class:`~modelmine.evaluation.IBkClassifier`, WEKA's distances and tie rule) and ``"tree"``
(CART, entropy, ``min_samples_leaf=2``, no C4.5 pruning).

On the shared microarrays (colon, leukemia, prostate) and the protocol's splits (stratified
10-fold cross-validation, ``StratifiedKFold(shuffle=True, random_state=0)``), each training
fold's signature is its top m features by the ANOVA F score (the classifier comparison does
not depend on which selector made the signature). For every fold and classifier, the same
train/test data go to WEKA (``-t train.arff -T test.arff -p 0``) and to ours; the script
records the per-sample agreement of the predictions and both error rates, one CSV row per
(dataset, m, classifier, fold), and prints the totals. For 1-NN it also records the agreement
of scikit-learn's ``KNeighborsClassifier(n_neighbors=1)`` on ``MinMaxScaler``-scaled data
(``agree_knn``: the ``"1nn"`` before issue 49, which kept whichever tied neighbour its search
met first). ``--datasets`` takes the text sets and madelon too (``basehock pcmac madelon``),
where distance ties are frequent.

Run: ``.venv/bin/python benchmarks/bench_weka_classifiers.py [--quick] [--out CSV]``
(``--quick``: 3 folds, m = 20; needs ``java`` and WEKA 3.6's ``weka.jar``, by default
``/usr/share/java/weka.jar`` or ``$MODELMINE_WEKA_JAR``).
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.feature_selection import f_classif
from sklearn.model_selection import StratifiedKFold
from sklearn.neighbors import KNeighborsClassifier
from sklearn.preprocessing import MinMaxScaler

import modelmine as mm
from modelmine.evaluation._classifiers import make_classifier

WEKA_JAR = os.environ.get("MODELMINE_WEKA_JAR", "/usr/share/java/weka.jar")
WEKA = {
    "svm": ["weka.classifiers.functions.SMO", "-C", "0.5"],  # -N 0 (normalise) by default
    "1nn": ["weka.classifiers.lazy.IBk", "-K", "1"],  # normalised Euclidean by default
    "tree": ["weka.classifiers.trees.J48", "-C", "0.25", "-M", "2"],
}


def _write_arff(path: Path, X: np.ndarray, y: np.ndarray, n_classes: int) -> None:
    lines = ["@relation fold"] + [f"@attribute f{j} numeric" for j in range(X.shape[1])]
    lines.append("@attribute class {" + ",".join(f"c{c}" for c in range(n_classes)) + "}")
    lines.append("@data")
    lines += [",".join(repr(float(v)) for v in row) + f",c{c}" for row, c in zip(X, y)]
    path.write_text("\n".join(lines) + "\n")


def _weka_predict(name: str, train: Path, test: Path) -> np.ndarray:
    out = subprocess.run(
        ["java", "-Xmx1g", "-cp", WEKA_JAR, *WEKA[name], "-t", str(train), "-T", str(test),
         "-p", "0"], capture_output=True, text=True, check=True, timeout=600,
    ).stdout
    rows = re.findall(r"^\s*\d+\s+\d+:c\d+\s+\d+:c(\d+)", out, re.MULTILINE)
    return np.array([int(r) for r in rows], dtype=np.int64)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="3 folds, m = 20")
    parser.add_argument("--folds", type=int, default=10)
    parser.add_argument("--sizes", type=int, nargs="+", default=[20, 50])
    parser.add_argument("--datasets", nargs="+", default=["colon", "leukemia", "prostate"])
    parser.add_argument("--out", default=None, help="write the per-fold rows to this CSV")
    args = parser.parse_args()
    folds, sizes = (3, [20]) if args.quick else (args.folds, args.sizes)
    records = []
    with tempfile.TemporaryDirectory() as tmp:
        train_arff, test_arff = Path(tmp, "train.arff"), Path(tmp, "test.arff")
        for ds in args.datasets:
            X, y_raw = mm.datasets.load(ds)
            X = X.toarray() if sp.issparse(X) else np.asarray(X, dtype=np.float64)
            y = np.unique(y_raw, return_inverse=True)[1].astype(np.int64)
            K = int(y.max()) + 1
            skf = StratifiedKFold(n_splits=folds, shuffle=True, random_state=0)
            for f, (tr, te) in enumerate(skf.split(X, y)):
                F, _ = f_classif(X[tr], y[tr])
                order = np.argsort(-np.nan_to_num(F, nan=-1.0), kind="stable")
                for m in sizes:
                    cols = np.sort(order[:m])
                    _write_arff(train_arff, X[np.ix_(tr, cols)], y[tr], K)
                    _write_arff(test_arff, X[np.ix_(te, cols)], y[te], K)
                    for name in WEKA:
                        est = clone(make_classifier(name)).fit(X[np.ix_(tr, cols)], y[tr])
                        ours = est.predict(X[np.ix_(te, cols)])
                        weka = _weka_predict(name, train_arff, test_arff)
                        assert weka.size == te.size
                        knn = KNeighborsClassifier(n_neighbors=1).fit(
                            MinMaxScaler().fit_transform(X[np.ix_(tr, cols)]), y[tr])
                        old = knn.predict(MinMaxScaler().fit(X[np.ix_(tr, cols)]).transform(
                            X[np.ix_(te, cols)]))
                        records.append({
                            "dataset": ds, "m": m, "classifier": name, "fold": f,
                            "n_test": te.size, "agree": int((ours == weka).sum()),
                            "errors_ours": int((ours != y[te]).sum()),
                            "errors_weka": int((weka != y[te]).sum()),
                            "agree_knn": (int((old == weka).sum()) if name == "1nn"
                                          else None),
                        })
                print(f"{ds} fold {f} done", flush=True)
    df = pd.DataFrame(records)
    if args.out:
        df.to_csv(args.out, index=False)
    tot = df.groupby(["dataset", "m", "classifier"])[
        ["n_test", "agree", "errors_ours", "errors_weka", "agree_knn"]].sum(
            min_count=1).reset_index()
    tot["agreement"] = tot["agree"] / tot["n_test"]
    tot["agreement_knn"] = tot["agree_knn"] / tot["n_test"]
    tot["error_ours"] = tot["errors_ours"] / tot["n_test"]
    tot["error_weka"] = tot["errors_weka"] / tot["n_test"]
    tot["error_diff"] = tot["error_ours"] - tot["error_weka"]
    cols = ["dataset", "m", "classifier", "n_test", "agreement", "error_ours", "error_weka",
            "error_diff", "agreement_knn"]
    print("| " + " | ".join(cols) + " |\n|" + "---|" * len(cols))
    for row in tot[cols].itertuples(index=False):
        print("| " + " | ".join(("" if np.isnan(v) else f"{v:.3f}")
                                if isinstance(v, float) else str(v) for v in row) + " |")


if __name__ == "__main__":
    main()
