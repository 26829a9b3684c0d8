"""Benchmark: the scaled SVM-RFE default against ``RFE(SVC(kernel="linear", C=0.5), step=0.1)``
(issue 24: "whatever the scaling, svm-rfe is never slower than the library route").

On one bootstrap resample of each case, the ``"svm-rfe"`` selector (``select`` on the
resample, its own scaling included in its time) against scikit-learn's RFE on the same
resample scaled the same way (the scaler's time included), for ``scale`` in "minmax" (the
default, WEKA's SMO normalisation), "standard" and "none":

* leukemia and prostate made raw intensities (``2 ** (x + 7)``: values up to ~4e4), two
  classes, and leukemia with its classes split at random into four;
* BASEHOCK and PCMAC word counts (sparse; "minmax" divides by each column's maximum,
  "standard" by its standard deviation, as ``MaxAbsScaler`` / ``StandardScaler(
  with_mean=False)``).

Both eliminate down to one feature (``n_features_to_select=1``); ours removes 10 % of the
remaining features per step (the papers' rule), scikit-learn 10 % of the original number
(more features per step, fewer fits), so ours does more fits. Prints the median CPU seconds
of three runs (``time.process_time``, one BLAS thread) of both, the ratio library / ours,
and the overlap of the two top-20 sets.

Run: ``.venv/bin/python benchmarks/bench_svm_scale.py [--out CSV]``.
"""

from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
import scipy.sparse as sp
from _record import finish, head_commit
from sklearn.feature_selection import RFE
from sklearn.preprocessing import MaxAbsScaler, MinMaxScaler, StandardScaler
from sklearn.svm import SVC

import modelmine as mm
from modelmine.selectors import get_selector


def _cases():
    for name in ("leukemia", "prostate"):
        X, y = mm.datasets.load(name)
        y = np.unique(np.asarray(y), return_inverse=True)[1]
        X = np.exp2(np.asarray(X, dtype=np.float64) + 7.0)
        yield f"{name} raw, 2 classes", X, y
        if name == "leukemia":
            rs = np.random.RandomState(0)
            y4 = y.copy()
            y4[(y == 0) & (rs.rand(y.size) < 0.4)] = 2
            y4[(y == 1) & (rs.rand(y.size) < 0.4)] = 3
            yield "leukemia raw, 4 classes", X, y4
    for name in ("basehock", "pcmac"):
        X, y = mm.datasets.load(name)
        yield f"{name} counts", sp.csr_matrix(X, dtype=np.float64), np.unique(
            np.asarray(y), return_inverse=True)[1]


def _scaler(scale: str, sparse: bool):
    if scale == "minmax":
        return MaxAbsScaler() if sparse else MinMaxScaler()
    return StandardScaler(with_mean=not sparse)


def _cpu(func, *args, repeats: int = 3):
    """The result and the median CPU seconds of ``repeats`` calls."""
    times = []
    for _ in range(repeats):
        t0 = time.process_time()
        out = func(*args)
        times.append(time.process_time() - t0)
    return out, float(np.median(times))


def _ours(Xr, yr, scale: str):
    return get_selector("svm-rfe", {"scale": scale}).select(Xr, yr, random_state=0).ranking


def _library(Xr, yr, scale: str):
    Xs = Xr if scale == "none" else _scaler(scale, sp.issparse(Xr)).fit_transform(Xr)
    return RFE(SVC(kernel="linear", C=0.5), n_features_to_select=1, step=0.1).fit(
        Xs, yr).ranking_


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    commit = head_commit()
    rows = []
    for case, X, y in _cases():
        idx = np.random.default_rng(0).choice(y.size, y.size)
        Xr, yr = X[idx], y[idx]
        for scale in ("minmax", "standard", "none"):
            ours, t_ours = _cpu(_ours, Xr, yr, scale)
            ref, t_ref = _cpu(_library, Xr, yr, scale)
            top = len(set(np.argsort(ours, kind="stable")[:20])
                      & set(np.argsort(ref, kind="stable")[:20]))
            rows.append({"case": case, "n": X.shape[0], "p": X.shape[1], "scale": scale,
                         "ours_cpu_s": round(t_ours, 3), "rfe_svc_cpu_s": round(t_ref, 3),
                         "ratio": round(t_ref / max(t_ours, 1e-9), 2), "top20_overlap": top})
            print(rows[-1], flush=True)
    finish(rows, args.out, commit)


if __name__ == "__main__":
    main()
