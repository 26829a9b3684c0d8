"""Benchmark: issue 15 (speed at text scale), side by side with the reference routes.

1. chi2 / ig / su (MDL discretisation included) on BASEHOCK and PCMAC (sparse word counts),
   one training fold (a random 90 % of the rows), per bootstrap fit:

   * "row-wise": the code before issue 15, each resample discretised by a cut search over
     every row of every sorted column (reproduced here by patching in that search);
   * "per-resample": ``selector.select(X[rows], y[rows])`` today (cut search over distinct
     values, but each resample sorted again);
   * "shared": what ``mm.bootstrap`` now does: ``selector.prepare`` (each column sorted once
     per chunk of bootstraps, amortised over ``--b`` resamples) + ``select_rows``.

   Ratios printed: shared / one ``np.sort(X_dense, axis=0)`` (target <= 0.5) and row-wise /
   shared (target >= 20), with equality of the scores (bit for bit).
2. svm-rfe (C = 0.5, 10 % per step) on raw intensities (leukemia and prostate rescaled to
   [0, 3.4e4]), two and four classes: ours against ``RFE(SVC(kernel="linear", C=0.5),
   step=0.1)`` with the same step rule (target: >= 2x, never slower), the fraction of
   features with the same tied rank, and ours with the papers' rule (10 % of the remaining
   features), which before issue 15 took minutes on such data.

CPU times (``time.process_time``), single-threaded. Run:
``.venv/bin/python benchmarks/bench_text_scale.py [--b 20] [--skip-svm] [--memory-b 150]``
(``--memory-b``: time per fit and peak RSS of ``mm.bootstrap`` on all of BASEHOCK).
"""

from __future__ import annotations

import argparse
import os
import time
import warnings

import numpy as np
import scipy.sparse as sp

import modelmine as mm
from modelmine.selectors import _information as info
from modelmine.selectors._information import _mdl_search

SHARED = "/work/shared/datasets"


def _row_wise_mdl_cuts_block(block, y, n_classes):
    """The cut search before issue 15: every row boundary of every sorted column."""
    n, b = block.shape
    order = np.argsort(block, axis=0, kind="stable")
    xs = np.take_along_axis(block, order, axis=0).T
    ys = y[order].T
    cum = np.zeros((b, n + 1, n_classes))
    cum[:, 1:, :] = np.cumsum(ys[:, :, None] == np.arange(n_classes), axis=1)
    # every row is its own "group"; boundaries between equal values are masked as before
    feat = np.arange(b)
    start = np.zeros(b, dtype=np.intp)
    stop = np.full(b, n, dtype=np.intp)
    cut_feat, cut_val = [], []
    while feat.size:
        n_cand = stop - start - 1
        keep = n_cand >= 1
        feat, start, stop, n_cand = feat[keep], start[keep], stop[keep], n_cand[keep]
        if feat.size == 0:
            break
        offsets = np.cumsum(n_cand) - n_cand
        seg = np.repeat(np.arange(feat.size), n_cand)
        pos = start[seg] + np.arange(seg.size) - offsets[seg]
        f = feat[seg]
        left = cum[f, pos + 1] - cum[f, start[seg]]
        right = cum[f, stop[seg]] - cum[f, pos + 1]
        ent = info._weka_conditional_entropy(left, right)
        ent[~(xs[f, pos] < xs[f, pos + 1])] = np.inf
        seg_min = np.minimum.reduceat(ent, offsets)
        first = np.minimum.reduceat(
            np.where(ent == seg_min[seg], np.arange(seg.size), seg.size), offsets
        )
        first = np.minimum(first, seg.size - 1)
        prior = cum[feat, stop] - cum[feat, start]
        accept = np.isfinite(seg_min) & (seg_min < info._weka_entropy(prior))
        accept &= info._mdl_accepts(
            prior, left[first], right[first], (stop - start).astype(np.float64)
        )
        cpos = pos[first][accept]
        cf = feat[accept]
        cut_feat.append(cf)
        cut_val.append((xs[cf, cpos] + xs[cf, cpos + 1]) / 2.0)
        feat = np.concatenate([cf, cf])
        start = np.concatenate([start[accept], cpos + 1])
        stop = np.concatenate([cpos + 1, stop[accept]])
    if not cut_feat:
        return np.empty(0, dtype=np.intp), np.empty(0)
    return np.concatenate(cut_feat), np.concatenate(cut_val)


assert _mdl_search  # the shared route's search (imported to fail early if renamed)


def _cpu(func, *args, **kwargs):
    t0 = time.process_time()
    out = func(*args, **kwargs)
    return time.process_time() - t0, out


def _text(name):
    path = os.path.join(SHARED, f"{name}.mat")
    data = mm.datasets.read_data(path)
    X = sp.csr_matrix(data.X, dtype=np.float64)
    y = np.unique(np.asarray(data.y), return_inverse=True)[1].astype(np.int64)
    return X, y


def bench_text(b: int, b_ref: int) -> None:
    print(
        f"== chi2 / ig / su per bootstrap fit, one fold (90 %), b = {b} "
        f"(row-wise and per-resample timed on {b_ref})"
    )
    head = (
        f"{'data':<9}{'sel':<6}{'row-wise':>9}{'per-res':>9}{'shared':>8}{'sort':>7}"
        f"{'shared/sort':>12}{'(<=0.5)':>8}{'row/shared':>11}{'(>=20)':>7}{'equal':>7}"
    )
    print(head)
    print("-" * len(head))
    for name in ("BASEHOCK", "PCMAC"):
        X, y = _text(name)
        rng = np.random.default_rng(0)
        fold = np.sort(rng.choice(X.shape[0], int(0.9 * X.shape[0]), replace=False))
        Xf, yf = X[fold], y[fold]
        t_sort, _ = _cpu(np.sort, Xf.toarray(), axis=0)
        resamples = [np.sort(rng.choice(Xf.shape[0], Xf.shape[0])) for _ in range(b)]
        for sel_name in ("chi2", "ig", "su"):
            sel = mm.selectors.get_selector(sel_name)
            t0 = time.process_time()
            prepared = sel.prepare(Xf, yf)
            shared = [
                sel.select_rows(prepared, Xf, yf, r, random_state=0).scores for r in resamples
            ]
            t_shared = (time.process_time() - t0) / b
            t_res, equal = 0.0, True
            for i, r in enumerate(resamples[:b_ref]):
                t, out = _cpu(sel.select, Xf[r], yf[r], random_state=0)
                t_res += t / b_ref
                equal &= bool(np.array_equal(out.scores, shared[i]))
            original = info._mdl_cuts_block
            info._mdl_cuts_block = _row_wise_mdl_cuts_block
            try:
                t_row = 0.0
                for i, r in enumerate(resamples[:b_ref]):
                    t, out = _cpu(sel.select, Xf[r], yf[r], random_state=0)
                    t_row += t / b_ref
                    equal &= bool(np.array_equal(out.scores, shared[i]))
            finally:
                info._mdl_cuts_block = original
            print(
                f"{name:<9}{sel_name:<6}{t_row:>9.3f}{t_res:>9.3f}{t_shared:>8.3f}"
                f"{t_sort:>7.3f}{t_shared / t_sort:>12.2f}{'':>8}{t_row / t_shared:>11.1f}"
                f"{'':>7}{'yes' if equal else 'NO':>7}"
            )


def _raw(name, n_classes):
    X, y = getattr(mm.datasets, f"load_{name}")()[:2]
    X = np.asarray(X, dtype=np.float64)
    y = np.unique(y, return_inverse=True)[1]
    X = (X - X.min()) / (X.max() - X.min()) * 3.4e4
    if n_classes == 4:
        brightness = X.mean(axis=1)
        y = y * 2 + (brightness > np.median(brightness)).astype(np.int64)
    return X, y


def bench_svm_raw() -> None:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.feature_selection import RFE
    from sklearn.svm import SVC

    from modelmine.selectors._svm_rfe import svm_rfe

    warnings.simplefilter("ignore", ConvergenceWarning)
    print("\n== svm-rfe on raw intensities (values up to 3.4e4), C = 0.5, step 0.1")
    head = (
        f"{'data':<10}{'classes':>8}{'ours (s)':>10}{'RFE(SVC) (s)':>14}{'lib/ours':>10}"
        f"{'(>=2)':>7}{'same rank':>11}{'ours remaining (s)':>20}"
    )
    print(head)
    print("-" * len(head))
    for name in ("leukemia", "prostate"):
        for n_classes in (2, 4):
            X, y = _raw(name, n_classes)
            t_ours, ours = _cpu(svm_rfe, X, y, C=0.5, step=0.1)
            rfe = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=1, step=0.1)
            t_lib, _ = _cpu(rfe.fit, X, y)
            t_rem, _ = _cpu(svm_rfe, X, y, C=0.5, step=0.1, step_rule="remaining")
            same = np.mean(rfe.ranking_ == ours.ranking_tied)
            print(
                f"{name:<10}{n_classes:>8}{t_ours:>10.3f}{t_lib:>14.3f}"
                f"{t_lib / t_ours:>10.1f}{'':>7}{same:>11.3f}{t_rem:>20.3f}"
            )


def bench_bootstrap_memory(b: int) -> None:
    """Time per fit and peak RSS of ``mm.bootstrap`` on the whole of BASEHOCK."""
    import resource

    X, y = _text("BASEHOCK")
    print(f"\n== mm.bootstrap(BASEHOCK, b = {b}, n_jobs = 1, fit_full = False)")
    for sel_name in ("chi2", "ig", "su"):
        t0 = time.perf_counter()
        mm.bootstrap(
            X,
            y,
            sel_name,
            n_bootstraps=b,
            n_features=20,
            random_state=0,
            fit_full=False,
            n_jobs=1,
            progress=False,
        )
        wall = time.perf_counter() - t0
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{sel_name:<6} {wall / b:.3f} s per fit (wall), peak RSS so far {peak:.0f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", type=int, default=20, help="bootstraps of the shared route")
    parser.add_argument(
        "--b-ref", type=int, default=2, help="bootstraps timed on the slower reference routes"
    )
    parser.add_argument("--skip-svm", action="store_true")
    parser.add_argument(
        "--memory-b",
        type=int,
        default=0,
        help="also run mm.bootstrap on BASEHOCK with this b (peak RSS)",
    )
    args = parser.parse_args()
    if os.path.isdir(SHARED):
        bench_text(args.b, args.b_ref)
    else:
        print(f"{SHARED} not present: text benchmark skipped")
    if not args.skip_svm:
        bench_svm_raw()
    if args.memory_b and os.path.isdir(SHARED):
        bench_bootstrap_memory(args.memory_b)


if __name__ == "__main__":
    main()
