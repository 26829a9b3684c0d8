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

3. svm-rfe on BASEHOCK and PCMAC (C = 0.5, 10 % per step), one fold, per bootstrap fit:

   * "repeated": the shared route before the distinct-row solve (the resample's kernel
     gathered with its repeated rows, every libsvm fit over all ``n`` rows);
   * "per-resample": ``svm_rfe(X[rows], y[rows])`` today (equal rows merged);
   * "shared": what ``mm.bootstrap`` does now (``linear_kernel`` of the fold once,
     amortised over ``--b`` resamples, then ``svm_rfe_rows`` over the resample's distinct
     rows, weighted by their multiplicities);
   * the reference: ``RFE(SVC(kernel="linear", C=0.5), step=0.1)`` for RFE's own rule (10 %
     of the original features per step) and, for the papers' rule (10 % of the remaining
     features), the same ``SVC(kernel="linear")`` refitted on the survivors with that rule.

   Ratios printed: reference / shared next to the target (>= 5, for both step rules) and
   repeated / shared; "equal": shared and per-resample rankings identical; "same rank":
   fraction of features whose tied rank equals the reference's (the differences are swaps
   within libsvm's tolerance, checked by the test suite).
4. The other selectors' figures on the same fold (no target): svm (SVMONE, shared kernel,
   against ``SVC(kernel="linear", C=0.5).fit(...).coef_``), cfs, anova, random-forest,
   each through ``prepare`` / ``select_rows`` as ``mm.bootstrap`` calls them.

5. ``--sections svm-madelon``: svm, svm-rfe50 and svm-rfe on raw madelon (integer values up
   to 999; one resample of 80 % of the rows, n = 2,080), the selectors with
   ``scale="none"`` (their default since issue 24, ``"minmax"``, scales each resample to
   [0, 1], where libsvm does not stall), one fit each: ours before the fix
   of libsvm's iteration cap (``max(1e5, 3 n^2)``, patched back in) and now, against the
   scikit-learn route with the selector's step rule (``SVC(kernel="linear", C=0.5)``, or
   it refitted on the survivors), whose libsvm is bounded at ``--madelon-ref-iter``
   iterations per fit (">=": it hit the bound, the time is a lower bound). Target: ref /
   ours >= 2. By default svm only at full size (a few minutes); ``--madelon-selectors
   svm,svm-rfe50,svm-rfe`` adds the RFE selectors (svm-rfe, about 60 fits, takes hours with
   its before and reference routes), ``--madelon-rows`` / ``--madelon-cols`` shrink the
   data; ``--quick`` runs all three on a 300 x 40 slice (about a minute).

CPU times (``time.process_time``), single-threaded; the load average is printed with each
table. Run:
``.venv/bin/python benchmarks/bench_text_scale.py [--b 20] [--skip-svm] [--memory-b 150]``
(``--memory-b``: time per fit and peak RSS of ``mm.bootstrap`` on all of BASEHOCK);
``--quick`` runs every part on fewer resamples (a minute or two).
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


def _row_wise_mdl_cuts_block(block, y, n_classes, better_encoding=True):
    """The cut search before issue 15: every row boundary of every sorted column.

    Same signature as today's ``_information._mdl_cuts_block`` (``better_encoding`` of
    issue 24: the MDL cost counts the interval's boundaries between distinct values, not
    its rows - 1), so that it can be patched in for it."""
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
        boundary = xs[f, pos] < xs[f, pos + 1]
        ent[~boundary] = np.inf
        # candidate cut points of each interval: its distinct values - 1 (better encoding)
        n_bound = np.add.reduceat(boundary.astype(np.float64), offsets)
        seg_min = np.minimum.reduceat(ent, offsets)
        first = np.minimum.reduceat(
            np.where(ent == seg_min[seg], np.arange(seg.size), seg.size), offsets
        )
        first = np.minimum(first, seg.size - 1)
        prior = cum[feat, stop] - cum[feat, start]
        accept = np.isfinite(seg_min) & (seg_min < info._weka_entropy(prior))
        with np.errstate(divide="ignore"):  # log(0 candidates): rejected above already
            accept &= info._mdl_accepts(
                prior,
                left[first],
                right[first],
                (stop - start).astype(np.float64),
                n_bound if better_encoding else None,
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


assert callable(_mdl_search)  # the shared route's search (imported to fail early if renamed)


def _scores(result) -> np.ndarray:
    """The scores of a selection result (every selector timed here scores its features)."""
    assert result.scores is not None
    return result.scores


def _cpu(func, *args, **kwargs):
    t0 = time.process_time()
    out = func(*args, **kwargs)
    return time.process_time() - t0, out


def _median(repeats, func, *args, **kwargs):
    """Median CPU time of ``repeats`` calls, and the last result."""
    times, out = [], None
    for _ in range(repeats):
        t, out = _cpu(func, *args, **kwargs)
        times.append(t)
    return float(np.median(times)), out


def _text(name):
    path = os.path.join(SHARED, f"{name}.mat")
    data = mm.datasets.read_data(path)
    X = sp.csr_matrix(data.X, dtype=np.float64)
    y = np.unique(np.asarray(data.y), return_inverse=True)[1].astype(np.int64)
    return X, y


def bench_text(b: int, b_ref: int) -> None:
    print(
        f"== chi2 / ig / su per bootstrap fit, one fold (90 %), b = {b} "
        f"(row-wise and per-resample timed on {b_ref}; sort = median of 3; {_load()})"
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
        t_sort, _ = _median(3, np.sort, Xf.toarray(), axis=0)
        resamples = [np.sort(rng.choice(Xf.shape[0], Xf.shape[0])) for _ in range(b)]
        for sel_name in ("chi2", "ig", "su"):
            sel = mm.selectors.get_selector(sel_name)
            t0 = time.process_time()
            prepared = sel.prepare(Xf, yf)
            shared = [
                _scores(sel.select_rows(prepared, Xf, yf, r, random_state=0)) for r in resamples
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
    print(f"({_load()} at the end)")


def _raw(name, n_classes):
    X, y = getattr(mm.datasets, f"load_{name}")()[:2]
    X = np.asarray(X, dtype=np.float64)
    y = np.unique(y, return_inverse=True)[1]
    X = (X - X.min()) / (X.max() - X.min()) * 3.4e4
    if n_classes == 4:
        brightness = X.mean(axis=1)
        y = y * 2 + (brightness > np.median(brightness)).astype(np.int64)
    return X, y


def bench_svm_raw(repeats: int = 3, names: tuple[str, ...] = ("leukemia", "prostate")) -> None:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.feature_selection import RFE
    from sklearn.svm import SVC

    from modelmine.selectors._svm_rfe import svm_rfe

    warnings.simplefilter("ignore", ConvergenceWarning)
    print(
        f"\n== svm-rfe on raw intensities (values up to 3.4e4), C = 0.5, step 0.1; median "
        f"of {repeats} ({_load()})"
    )
    head = (
        f"{'data':<10}{'classes':>8}{'ours (s)':>10}{'RFE(SVC) (s)':>14}{'lib/ours':>10}"
        f"{'(>=2)':>7}{'same rank':>11}{'ours remaining (s)':>20}"
    )
    print(head)
    print("-" * len(head))
    for name in names:
        for n_classes in (2, 4):
            X, y = _raw(name, n_classes)
            t_ours, ours = _median(repeats, svm_rfe, X, y, C=0.5, step=0.1)
            rfe = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=1, step=0.1)
            # RFE(SVC) on prostate takes 20-90 s: once there, a median elsewhere
            t_lib, _ = _median(1 if name == "prostate" else repeats, rfe.fit, X, y)
            t_rem, _ = _median(repeats, svm_rfe, X, y, C=0.5, step=0.1, step_rule="remaining")
            same = np.mean(rfe.ranking_ == ours.ranking_tied)
            print(
                f"{name:<10}{n_classes:>8}{t_ours:>10.3f}{t_lib:>14.3f}"
                f"{t_lib / t_ours:>10.1f}{'':>7}{same:>11.3f}{t_rem:>20.3f}"
            )


def _old_cap(n: int) -> int:
    """libsvm's iteration cap before the raw-madelon fix: ``max(1e5, 3 n^2)``."""
    return max(100_000, 3 * n * n)


def _svc_reference(X, y, step, step_rule, max_iter):
    """The reference route with a bounded libsvm: ``SVC(kernel="linear", C=0.5)`` (step None)
    or RFE's procedure refitting it on the survivors (``RFE(SVC(...), step=step)`` for the
    "original" rule). Returns (tied ranking or |w|, whether some fit hit ``max_iter``)."""
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.svm import SVC

    capped = False

    def fit(cols):
        nonlocal capped
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always", ConvergenceWarning)
            svc = SVC(kernel="linear", C=0.5, max_iter=max_iter).fit(X[:, cols], y)
        capped |= any(issubclass(w.category, ConvergenceWarning) for w in caught)
        return (np.asarray(svc.coef_) ** 2).sum(axis=0)

    p = X.shape[1]
    alive = np.arange(p)
    if step is None:
        return np.sqrt(fit(alive)), capped
    step_of = np.zeros(p, dtype=np.int64)
    k = 0
    while alive.size > 1:
        imp = fit(alive)
        count = int(max(1, step * p)) if step_rule == "original" else max(1, int(step * alive.size))
        out = np.argsort(imp, kind="stable")[: min(count, alive.size - 1)]
        k += 1
        step_of[alive[out]] = k
        alive = np.delete(alive, out)
    return np.where(step_of == 0, 1, k - step_of + 2), capped


def bench_svm_madelon(n_rows: int, n_cols: int, selectors: list[str], ref_max_iter: int) -> None:
    """svm / svm-rfe / svm-rfe50 on raw madelon (integer values up to 999), one resample of
    80 % of the rows (its first ``n_rows`` and ``n_cols``): ours before the fix (libsvm
    capped at 3 n^2 iterations) and now (n^2 / 3), against the scikit-learn route on the
    same data with the same step rule, its libsvm bounded at ``ref_max_iter`` iterations
    per fit (a time marked ">=" is a lower bound: some fit hit the bound unconverged)."""
    from modelmine.selectors import _svm_solver, get_selector

    X, y = mm.datasets.load("madelon")
    X = np.asarray(X, dtype=np.float64)
    y = np.unique(np.asarray(y), return_inverse=True)[1]
    rows = np.sort(
        np.random.default_rng(0).choice(X.shape[0], int(0.8 * X.shape[0]), replace=False)
    )
    X, y = X[rows][:n_rows, :n_cols], y[rows][:n_rows]
    print(
        f"\n== svm selectors (scale='none') on raw madelon ({X.shape[0]} x {X.shape[1]}, values "
        f"{X.min():.0f}..{X.max():.0f}), C = 0.5, one fit each ({_load()}); reference libsvm "
        f"bounded at {ref_max_iter:,} iterations per fit"
    )
    head = (
        f"{'selector':<11}{'before (s)':>11}{'ours (s)':>10}{'reference (s)':>15}"
        f"{'before/ours':>12}{'ref/ours':>10}{'(>=2)':>7}{'same rank':>11}{'=before':>9}"
    )
    print(head)
    print("-" * len(head))
    # the reference of each selector: SVC.fit, RFE(SVC) with RFE's own rule at 10 %, and
    # the same SVC refitted with the selectors' rule (10 % / 50 % of the remaining features)
    print(
        "(same rank: against the reference when it converged, '-' when it did not; "
        "=before: our ranking identical before and after the fix)"
    )
    routes = {"svm": (None, None), "svm-rfe": (0.1, "remaining"), "svm-rfe50": (0.5, "remaining")}
    for name in selectors:
        # raw values: scale="none" (the default since issue 24, "minmax", scales each
        # resample to [0, 1] as WEKA's SMO, where libsvm does not stall)
        sel = get_selector(name, {"scale": "none"})
        t_ours, ours = _cpu(sel.select, X, y, random_state=0)
        current = _svm_solver._smo_iteration_cap
        _svm_solver._smo_iteration_cap = _old_cap
        try:
            t_before, before = _cpu(sel.select, X, y, random_state=0)
        finally:
            _svm_solver._smo_iteration_cap = current
        step, rule = routes[name]
        t_ref, (ref, capped) = _cpu(_svc_reference, X, y, step, rule, ref_max_iter)
        if step is None:
            # same position in the order of the weights (1.000: the same ranking)
            same = np.mean(np.argsort(-ref, kind="stable") == np.argsort(ours.ranking))
        else:
            same = np.mean(_tied_from_total(ours.ranking, step, rule, X.shape[1]) == ref)
        unchanged = "yes" if np.array_equal(before.ranking, ours.ranking) else "no"
        mark = ">=" if capped else ""
        print(
            f"{name:<11}{t_before:>11.2f}{t_ours:>10.2f}{mark + format(t_ref, '.2f'):>15}"
            f"{t_before / t_ours:>12.1f}{mark + format(t_ref / t_ours, '.1f'):>10}{'':>7}"
            f"{'-' if capped else format(same, '.3f'):>11}{unchanged:>9}"
        )


def _tied_from_total(ranking, step, rule, p):
    """RFE's tied ranking from a total SVM-RFE ranking (1 = best) and the step rule."""
    order = np.argsort(-np.asarray(ranking))  # worst first: elimination order
    tied = np.ones(p, dtype=np.int64)
    alive, pos, sizes = p, 0, []
    while alive > 1:
        count = int(max(1, step * p)) if rule == "original" else max(1, int(step * alive))
        count = min(count, alive - 1)
        sizes.append((pos, count))
        pos += count
        alive -= count
    n_steps = len(sizes)
    for k, (start, count) in enumerate(sizes, start=1):
        tied[order[start : start + count]] = n_steps - k + 2
    return tied


def _load() -> str:
    return "load average {:.1f} / {:.1f} / {:.1f}".format(*os.getloadavg())


def _one_fold(name: str):
    """The fold of :func:`bench_text`: a random 90 % of the rows (seed 0)."""
    X, y = _text(name)
    rng = np.random.default_rng(0)
    fold = np.sort(rng.choice(X.shape[0], int(0.9 * X.shape[0]), replace=False))
    return X[fold], y[fold], rng


def _svc_rfe_tied(X, y, step_rule: str):
    """``RFE(SVC(kernel="linear", C=0.5), step=0.1)``'s procedure with either step rule:
    refit the SVM on the survivors, drop the smallest ``w_j^2`` (stable order); returns the
    scikit-learn-style tied ranking."""
    from sklearn.svm import SVC

    Xc = X.tocsc() if sp.issparse(X) else X
    p = X.shape[1]
    alive = np.arange(p)
    step_of = np.zeros(p, dtype=np.int64)
    k = 0
    while alive.size > 1:
        coef = SVC(kernel="linear", C=0.5).fit(Xc[:, alive], y).coef_
        coef = coef.toarray() if sp.issparse(coef) else np.asarray(coef)
        imp = (coef**2).sum(axis=0)
        count = int(max(1, 0.1 * p)) if step_rule == "original" else max(1, int(0.1 * alive.size))
        out = np.argsort(imp, kind="stable")[: min(count, alive.size - 1)]
        k += 1
        step_of[alive[out]] = k
        alive = np.delete(alive, out)
    return np.where(step_of == 0, 1, k - step_of + 2)


def _rfe_repeated_rows(svm, kernel, X, y, rows, rule):
    """The shared route before the distinct-row solve: the resample's kernel gathered with
    its rows repeated, every libsvm fit over all ``n`` rows (no weights)."""
    from modelmine.selectors import _svm_solver

    with _svm_solver._one_blas_thread(), _svm_solver._fast_sklearn():
        return svm._svm_rfe(X[rows], y[rows], 0.5, 0.1, rule, 1, 1e-3, K0=kernel.of_rows(rows))


def bench_svm_text(b: int, b_ref: int) -> None:
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.feature_selection import RFE
    from sklearn.svm import SVC

    from modelmine.selectors import _svm_rfe as svm
    from modelmine.selectors import _svm_rows

    warnings.simplefilter("ignore", ConvergenceWarning)
    print(
        f"\n== svm-rfe per bootstrap fit on text, one fold (90 %), C = 0.5, step 0.1; shared "
        f"over b = {b}, repeated / per-resample / reference on {b_ref} ({_load()})"
    )
    head = (
        f"{'data':<9}{'rule':<10}{'distinct':>9}{'repeated':>9}{'per-res':>9}{'shared':>8}"
        f"{'ref':>8}{'ref/shared':>11}{'target':>8}{'met':>5}{'repeated/shared':>16}"
        f"{'equal':>7}{'same rank':>10}"
    )
    print(head)
    print("-" * len(head))
    for name in ("BASEHOCK", "PCMAC"):
        Xf, yf, rng = _one_fold(name)
        resamples = [rng.choice(Xf.shape[0], Xf.shape[0]) for _ in range(b)]
        distinct = np.mean([np.unique(r).size / r.size for r in resamples])
        for rule in ("original", "remaining"):
            t0 = time.process_time()
            kernel = _svm_rows.linear_kernel(Xf)
            assert kernel is not None  # the text folds are sparse
            shared = [
                _svm_rows.svm_rfe_rows(kernel, Xf, yf, r, step=0.1, step_rule=rule)
                for r in resamples
            ]
            t_shared = (time.process_time() - t0) / b
            t_res, t_rep, t_ref, equal, same = 0.0, 0.0, 0.0, True, []
            for i, r in enumerate(resamples[:b_ref]):
                t, out = _cpu(svm.svm_rfe, Xf[r], yf[r], step=0.1, step_rule=rule)
                t_res += t / b_ref
                equal &= bool(np.array_equal(out.ranking, shared[i].ranking))
                t, _ = _cpu(_rfe_repeated_rows, svm, kernel, Xf, yf, r, rule)
                t_rep += t / b_ref
                if rule == "original":
                    rfe = RFE(SVC(kernel="linear", C=0.5), n_features_to_select=1, step=0.1)
                    t, fitted = _cpu(rfe.fit, Xf[r], yf[r])
                    tied = fitted.ranking_
                else:
                    t, tied = _cpu(_svc_rfe_tied, Xf[r], yf[r], rule)
                t_ref += t / b_ref
                same.append(np.mean(tied == shared[i].ranking_tied))
            ratio = t_ref / t_shared
            print(
                f"{name:<9}{rule:<10}{distinct:>9.3f}{t_rep:>9.3f}{t_res:>9.3f}{t_shared:>8.3f}"
                f"{t_ref:>8.3f}{ratio:>11.1f}{'>= 5':>8}{'yes' if ratio >= 5 else 'NO':>5}"
                f"{t_rep / t_shared:>16.1f}{'yes' if equal else 'NO':>7}{np.mean(same):>10.3f}"
            )
    print(
        "(ref: RFE(SVC(kernel='linear', C=0.5), step=0.1) for the original rule; the same SVC "
        "refitted on the survivors with the remaining rule. distinct: fraction of distinct rows "
        "in a bootstrap; repeated: the shared kernel with the rows repeated, as before the "
        "distinct-row solve; equal: shared and per-resample rankings identical; same rank: "
        f"fraction of tied ranks equal to the reference's; {_load()} at the end)"
    )


def bench_other_selectors(b: int, cfs_columns: int) -> None:
    from sklearn.svm import SVC

    from modelmine.selectors import get_selector

    print(
        f"\n== other selectors per bootstrap fit on text, one fold (90 %), prepare + "
        f"select_rows over b = {b} ({_load()})"
    )
    head = f"{'data':<9}{'selector':<16}{'s/fit':>8}{'per-res':>9}{'SVC(linear)':>12}{'SVC/fit':>9}"
    print(head)
    print("-" * len(head))
    for name in ("BASEHOCK", "PCMAC"):
        Xf, yf, rng = _one_fold(name)
        resamples = [rng.choice(Xf.shape[0], Xf.shape[0]) for _ in range(b)]
        for sel_name in ("svm", "cfs", "anova", "random-forest"):
            X_sel, label = Xf, sel_name
            if sel_name == "cfs" and cfs_columns < Xf.shape[1]:
                X_sel, label = Xf[:, :cfs_columns], f"cfs ({cfs_columns} col)"
            sel = get_selector(sel_name)
            t0 = time.process_time()
            prepared = sel.prepare(X_sel, yf)
            outs = [
                sel.select_rows(prepared, X_sel, yf, r, random_state=i)
                for i, r in enumerate(resamples)
            ]
            t_fit = (time.process_time() - t0) / b
            extra = ""
            if sel_name == "svm":
                # SVMONE: the shared kernel against our per-resample route and the library's
                # SVC(kernel="linear").fit(...).coef_ on the same resample
                r = resamples[0]
                t_ref, _ = _cpu(SVC(kernel="linear", C=0.5).fit, Xf[r], yf[r])
                t_res, plain = _cpu(sel.select, Xf[r], yf[r], random_state=0)
                assert np.array_equal(plain.scores, _scores(outs[0]))
                extra = f"{t_res:>9.3f}{t_ref:>12.3f}{t_ref / t_fit:>9.1f}"
            print(f"{name:<9}{label:<16}{t_fit:>8.3f}{extra}")


def bench_bootstrap_memory(b: int, selectors: list[str]) -> None:
    """Time per fit and peak RSS of ``mm.bootstrap`` on the whole of BASEHOCK."""
    import resource

    X, y = _text("BASEHOCK")
    print(f"\n== mm.bootstrap(BASEHOCK, b = {b}, n_jobs = 1, fit_full = False)")
    for sel_name in selectors:
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


_SECTIONS = ("mdl", "svm-text", "svm-raw", "other", "svm-madelon")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--b", type=int, default=20, help="bootstraps of the shared route")
    parser.add_argument(
        "--b-ref", type=int, default=2, help="bootstraps timed on the slower reference routes"
    )
    parser.add_argument("--skip-svm", action="store_true", help="skip the raw-intensity part")
    parser.add_argument(
        "--sections",
        default=",".join(_SECTIONS),
        help=f"comma-separated parts to run, among {', '.join(_SECTIONS)}",
    )
    parser.add_argument(
        "--cfs-columns",
        type=int,
        default=10**9,
        help="run cfs on the first this many columns only (default: all)",
    )
    parser.add_argument(
        "--quick", action="store_true", help="few resamples everywhere (a minute or two)"
    )
    parser.add_argument(
        "--memory-b",
        type=int,
        default=0,
        help="also run mm.bootstrap on BASEHOCK with this b (peak RSS)",
    )
    parser.add_argument(
        "--memory-selectors",
        default="chi2,ig,su",
        help="selectors of the --memory-b run (comma-separated)",
    )
    parser.add_argument(
        "--madelon-rows", type=int, default=2080, help="svm-madelon: rows of the resample"
    )
    parser.add_argument(
        "--madelon-cols", type=int, default=500, help="svm-madelon: its first columns"
    )
    parser.add_argument(
        "--madelon-selectors",
        default="svm",
        help="svm-madelon: selectors among svm, svm-rfe50, svm-rfe (comma-separated; at full "
        "size svm takes a few minutes with its references, svm-rfe50 about half an hour, "
        "svm-rfe hours: the default keeps `make bench` usable)",
    )
    parser.add_argument(
        "--madelon-ref-iter",
        type=int,
        default=20_000_000,
        help="svm-madelon: libsvm iterations allowed per fit of the reference route",
    )
    args = parser.parse_args()
    sections = set(args.sections.split(","))
    unknown = sections - set(_SECTIONS)
    if unknown:
        parser.error(f"unknown sections {sorted(unknown)}; choose among {', '.join(_SECTIONS)}")
    b, b_ref, repeats, b_other = args.b, args.b_ref, 3, 3
    if args.quick:
        b, b_ref, repeats, b_other = 3, 1, 1, 1
        args.cfs_columns = min(args.cfs_columns, 1000)
    text = os.path.isdir(SHARED)
    if not text:
        print(f"{SHARED} not present: text benchmarks skipped")
    if text and "mdl" in sections:
        bench_text(b, b_ref)
    if text and "svm-text" in sections:
        bench_svm_text(b, b_ref)
    if "svm-raw" in sections and not args.skip_svm:
        # --quick: leukemia only (RFE(SVC) alone takes 20-100 s on raw prostate)
        bench_svm_raw(repeats, ("leukemia",) if args.quick else ("leukemia", "prostate"))
    if text and "other" in sections:
        bench_other_selectors(b_other, args.cfs_columns)
    if text and "svm-madelon" in sections:
        # --quick: a 300 x 40 slice (the fits stall all the same; a few seconds)
        n_rows, n_cols = (300, 40) if args.quick else (args.madelon_rows, args.madelon_cols)
        bench_svm_madelon(
            n_rows,
            n_cols,
            ["svm", "svm-rfe50", "svm-rfe"] if args.quick else args.madelon_selectors.split(","),
            10**6 if args.quick else args.madelon_ref_iter,
        )
    if args.memory_b and text:
        bench_bootstrap_memory(args.memory_b, args.memory_selectors.split(","))


if __name__ == "__main__":
    main()
