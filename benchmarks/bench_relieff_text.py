"""Benchmark: issue 15, ReliefF (10 neighbours) sharing each fold's work across bootstraps.

Side by side in one process, CPU time (``time.process_time``, single-threaded):

1. BASEHOCK and PCMAC (sparse word counts), one training fold (a random 90 % of the rows),
   per bootstrap fit:

   * "today": the code before issue 15 (``relieff_scores`` on ``X[rows]`` with its dense
     block weight update, reproduced below from the same distance and neighbour code);
   * "per-resample": ``selector.select(X[rows], y[rows])`` now (sparse weight update);
   * "shared": what ``mm.bootstrap`` now does: ``selector.prepare`` (the fold's mismatch
     counts, once per chunk of bootstraps, amortised over ``--b`` resamples) +
     ``select_rows``.

   Ratio today / shared (target >= 5); "ranks": shared and per-resample ranks identical;
   "ties only": today's ranks differ from the new ones only inside groups of features
   whose weights are equal up to rounding (the largest inversion of today's weights along
   the new ranking is printed; it is a few 1e-16).
2. skrebate on a 400-row sample of the fold (skrebate is too slow for the whole set):
   ``skrebate.ReliefF(n_neighbors=10).fit`` on the sample, against today's code on the
   same sample and against a bootstrap fit of the shared route on resamples of that
   sample (target >= 1,500x; today about 400x in the issue).
3. The microarrays (colon, leukemia, prostate): today against shared per bootstrap fit
   (keep or improve).

Run: ``.venv/bin/python benchmarks/bench_relieff_text.py [--b 20] [--b-ref 2]
[--skrebate-rows 400] [--quick] [--memory-b 150]`` (``--quick``: b = 3, one reference fit,
skrebate on 60 rows, for ``make bench``; ``--memory-b``: only ``mm.bootstrap`` on all of
BASEHOCK, in a fresh process, time per fit and peak RSS).

"relieff" here is scikit-rebate's (``variant="skrebate"``, the selector's default when this
benchmark was written and its logs committed); WEKA's, the default since issue 37, is
timed by ``benchmarks/bench_shared_route.py``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

import numpy as np
import scipy.sparse as sp

import modelmine as mm
from modelmine.selectors import _relieff as rel
from modelmine.selectors._base import ranks_from_scores

SHARED = "/work/shared/datasets"
#: The ReliefF this benchmark times: scikit-rebate's (see the docstring).
SKREBATE = {"variant": "skrebate"}


def today_relieff_scores(X: Any, y: np.ndarray, n_neighbors: int = 10) -> np.ndarray:
    """``relieff_scores`` before issue 15: same feature types, distances and neighbours,
    and the weight update as one dense, cache-blocked product per block of pairs."""
    n, p = X.shape
    n_classes = int(y.max()) + 1
    discrete, mn, rng, std = rel._feature_info(X)
    D = rel._distance_matrix(X, discrete, mn, rng)
    inst, neigh = rel._neighbour_pairs(D, y, n_neighbors, n_classes)
    counts = np.minimum(np.bincount(y, minlength=n_classes), n_neighbors).astype(np.float64)
    n_hits = counts[y]
    n_misses = counts.sum() - n_hits
    yi, yj = y[inst], y[neigh]
    with np.errstate(divide="ignore", invalid="ignore"):
        miss_w = counts[yj] / n_misses[inst] * float(n_classes - 1) / n_misses[inst]
    weights = np.where(yi == yj, -1.0 / n_hits[inst], miss_w)
    mixed = bool(discrete.any() and (~discrete).any())
    threshold = np.where(discrete, 0.0, std)
    safe_rng = np.where(discrete, 1.0, rng)
    plain = not discrete.any()
    scores = np.zeros(p)
    rows: Any = sp.csr_matrix(X) if sp.issparse(X) else X
    chunk = max(1, (1 << 16) // max(1, p))
    for start in range(0, inst.size, chunk):
        sl = slice(start, start + chunk)
        xi: Any = rows[inst[sl]]
        xj: Any = rows[neigh[sl]]
        if sp.issparse(xi):
            xi, xj = xi.toarray(), xj.toarray()
        raw = np.abs(xi - xj)
        if plain:
            scores += weights[sl] @ raw
        elif mixed:
            scores += weights[sl] @ np.where(raw > threshold, 1.0, raw / safe_rng)
        else:
            scores += weights[sl] @ (raw != 0).astype(np.float64)
    if plain:
        scores /= safe_rng
    return scores / float(n)


def _cpu(func: Any, *args: Any, **kwargs: Any) -> tuple[float, Any]:
    t0 = time.process_time()
    out = func(*args, **kwargs)
    return time.process_time() - t0, out


def _codes(y: Any) -> np.ndarray:
    return np.unique(np.asarray(y), return_inverse=True)[1].astype(np.int64)


def _text(name: str) -> tuple[sp.csr_matrix, np.ndarray]:
    data = mm.datasets.read_data(os.path.join(SHARED, f"{name}.mat"))
    return sp.csr_matrix(data.X, dtype=np.float64), _codes(data.y)


def _inversion(today: np.ndarray, new: np.ndarray) -> float:
    """Largest rise of today's weights along the new ranking (0: same order)."""
    t = today[np.argsort(ranks_from_scores(new))]
    return float(max(0.0, (t[1:] - np.minimum.accumulate(t)[:-1]).max(initial=0.0)))


def _shared(sel: Any, X: Any, y: np.ndarray, resamples: list[np.ndarray]) -> tuple[float, list]:
    t0 = time.process_time()
    prepared = sel.prepare(X, y)
    out = [sel.select_rows(prepared, X, y, r, random_state=0).scores for r in resamples]
    return (time.process_time() - t0) / len(resamples), out


def bench_fold(X: Any, y: np.ndarray, name: str, b: int, b_ref: int, seed: int = 0) -> None:
    rng = np.random.default_rng(seed)
    fold = np.sort(rng.choice(X.shape[0], int(0.9 * X.shape[0]), replace=False))
    Xf, yf = X[fold], y[fold]
    resamples = [rng.choice(Xf.shape[0], Xf.shape[0]) for _ in range(b)]
    sel = mm.selectors.get_selector("relieff", SKREBATE)
    t_shared, shared = _shared(sel, Xf, yf, resamples)
    t_today = t_res = 0.0
    same_ranks, inversion, diff = True, 0.0, 0.0
    for i, r in enumerate(resamples[:b_ref]):
        t, today = _cpu(today_relieff_scores, Xf[r], yf[r])
        t_today += t / b_ref
        t, res = _cpu(sel.select, Xf[r], yf[r], random_state=0)
        t_res += t / b_ref
        same_ranks &= bool(
            np.array_equal(ranks_from_scores(res.scores), ranks_from_scores(shared[i]))
        )
        inversion = max(inversion, _inversion(today, shared[i]))
        diff = max(diff, float(np.abs(today - shared[i]).max()))
    print(
        f"{name:<9}{Xf.shape[0]:>6}{t_today:>8.3f}{t_res:>9.3f}{t_shared:>8.3f}"
        f"{t_today / t_shared:>13.1f}{'':>6}{'yes' if same_ranks else 'NO':>7}"
        f"{inversion:>10.1e}{diff:>10.1e}"
    )


def bench_skrebate(X: Any, y: np.ndarray, name: str, n_rows: int, b: int) -> None:
    from skrebate import ReliefF

    rng = np.random.default_rng(1)
    fold = np.sort(rng.choice(X.shape[0], int(0.9 * X.shape[0]), replace=False))
    sample = np.sort(rng.choice(fold, n_rows, replace=False))
    Xs, ys = X[sample], y[sample]
    if ys.min() == ys.max():
        ys = ys.copy()
        ys[0] = 1 - ys[0]
    t_ref, ref = _cpu(lambda: ReliefF(n_neighbors=10).fit(Xs.toarray(), ys).feature_importances_)
    t_today, _ = _cpu(today_relieff_scores, Xs, ys)
    sel = mm.selectors.get_selector("relieff", SKREBATE)
    resamples = [rng.choice(n_rows, n_rows) for _ in range(b)]
    t_shared, _ = _shared(sel, Xs, ys, resamples)
    ours = sel.select(Xs, ys, random_state=0).scores
    print(
        f"{name:<9}{n_rows:>6}{t_ref:>10.2f}{t_today:>8.3f}{t_shared:>8.4f}"
        f"{t_ref / t_today:>12.0f}{t_ref / t_shared:>12.0f}{'':>9}"
        f"{float(np.abs(ours - ref).max()):>10.1e}"
    )


def bench_bootstrap_memory(b: int) -> None:
    """Time per fit and peak RSS of ``mm.bootstrap(selector="relieff")`` on all of BASEHOCK."""
    import resource

    X, y = _text("BASEHOCK")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    t0, c0 = time.perf_counter(), time.process_time()
    mm.bootstrap(
        X,
        y,
        "relieff",
        selector_params=SKREBATE,
        n_bootstraps=b,
        n_features=20,
        random_state=0,
        fit_full=False,
        n_jobs=1,
        progress=False,
    )
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\n== mm.bootstrap(BASEHOCK, 'relieff', b = {b}, n_jobs = 1, fit_full = False)")
    print(
        f"{cpu / b:.3f} s CPU ({wall / b:.3f} s wall) per fit; peak RSS {peak:.0f} MiB "
        f"(before the run: {before:.0f} MiB)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--b", type=int, default=20, help="bootstraps of the shared route (a chunk: 19-38)"
    )
    parser.add_argument("--b-ref", type=int, default=2, help="bootstraps timed on today's code")
    parser.add_argument("--skrebate-rows", type=int, default=400)
    parser.add_argument("--quick", action="store_true", help="b = 3, b-ref = 1, 60 rows")
    parser.add_argument(
        "--memory-b",
        type=int,
        default=0,
        help="only run mm.bootstrap on all of BASEHOCK with this b (time per fit, peak RSS)",
    )
    args = parser.parse_args()
    if args.quick:
        args.b, args.b_ref, args.skrebate_rows = 3, 1, 60
    if args.memory_b:
        print(f"load average at start: {os.getloadavg()[0]:.2f}")
        bench_bootstrap_memory(args.memory_b)
        return
    print(
        f"load average at start: {os.getloadavg()[0]:.2f} (2-core machine), "
        f"python {sys.version.split()[0]}, numpy {np.__version__}"
    )
    texts = [n for n in ("BASEHOCK", "PCMAC") if os.path.exists(os.path.join(SHARED, f"{n}.mat"))]
    if not texts:
        print(f"{SHARED} not present: text benchmarks skipped")
    data = {n: _text(n) for n in texts}

    print(
        f"\n== relieff per bootstrap fit, one fold (90 %), b = {args.b} (today and "
        f"per-resample timed on {args.b_ref})"
    )
    head = (
        f"{'data':<9}{'rows':>6}{'today':>8}{'per-res':>9}{'shared':>8}"
        f"{'today/shared':>13}{'(>=5)':>6}{'ranks':>7}{'ties only':>10}{'max diff':>10}"
    )
    print(head + "\n" + "-" * len(head))
    for n in texts:
        bench_fold(*data[n], n, args.b, args.b_ref)

    print(
        f"\n== skrebate on a {args.skrebate_rows}-row sample of the fold "
        f"(shared: per bootstrap of the sample, b = {args.b})"
    )
    head = (
        f"{'data':<9}{'rows':>6}{'skrebate':>10}{'today':>8}{'shared':>8}"
        f"{'skr/today':>12}{'skr/shared':>12}{'(>=1500)':>9}{'max diff':>10}"
    )
    print(head + "\n" + "-" * len(head))
    for n in texts:
        bench_skrebate(*data[n], n, args.skrebate_rows, args.b)

    print(f"\n== microarrays, per bootstrap fit of the whole data, b = {2 * args.b}")
    head = (
        f"{'data':<9}{'rows':>6}{'today':>8}{'per-res':>9}{'shared':>8}"
        f"{'today/shared':>13}{'(>=1)':>6}{'ranks':>7}{'ties only':>10}{'max diff':>10}"
    )
    print(head + "\n" + "-" * len(head))
    for n in ("colon", "leukemia", "prostate"):
        X, y = getattr(mm.datasets, f"load_{n}")()[:2]
        X = np.asarray(X, dtype=np.float64)
        y = _codes(y)
        rng = np.random.default_rng(2)
        resamples = [rng.choice(X.shape[0], X.shape[0]) for _ in range(2 * args.b)]
        sel = mm.selectors.get_selector("relieff", SKREBATE)
        t_shared, shared = _shared(sel, X, y, resamples)
        t_today = t_res = 0.0
        same, inv, diff = True, 0.0, 0.0
        for i, r in enumerate(resamples):
            t, today = _cpu(today_relieff_scores, X[r], y[r])
            t_today += t / len(resamples)
            t, res = _cpu(sel.select, X[r], y[r], random_state=0)
            t_res += t / len(resamples)
            same &= bool(
                np.array_equal(ranks_from_scores(res.scores), ranks_from_scores(shared[i]))
            )
            inv = max(inv, _inversion(today, shared[i]))
            diff = max(diff, float(np.abs(today - shared[i]).max()))
        print(
            f"{n:<9}{X.shape[0]:>6}{t_today:>8.3f}{t_res:>9.3f}{t_shared:>8.3f}"
            f"{t_today / t_shared:>13.1f}{'':>6}{'yes' if same else 'NO':>7}"
            f"{inv:>10.1e}{diff:>10.1e}"
        )
    print(f"\nload average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
