"""Mining closed and maximal itemsets of leukemia base models: modelmine vs pyfim vs mlxtend.

Base models are real ``modelmine.bootstrap`` runs on leukemia (72 x 7129): selectors "chi2"
(chi-square on MDL-discretised features) and "svm-rfe", b = 150 and 1 000, m = 20 and 50
(Woznica, Nguyen & Kalousis, KDD 2012, Section 4), plus the ~2-million-closed-itemset case of
issue 3 ("anova", b = 150, m = 50, support 0.04). Subsets are cached as .npz files under
``--cache`` (default /tmp/modelmine-bench; generated once, with n_jobs=2).

For each case it prints counts and median times over ``--repeats`` interleaved runs of:
modelmine's API (``backend="auto"``: its own LCM for closed / maximal itemsets) with its
default ``max_itemsets`` guard and with ``max_itemsets=None``; the same with
``backend="pyfim"`` and the default guard (the route before modelmine had its own miner);
pyfim called directly (``fim.eclat`` and ``fim.fpgrowth``, report='a', as a user would call
them, and fpgrowth with Python's garbage collector paused, as modelmine calls it); and mlxtend
fpgrowth / fpmax + the closure filter (the route a user would otherwise take; skipped when
there are more than ``--mlxtend-cap`` frequent itemsets). Ratios are against the faster of
pyfim's eclat / fpgrowth (gc on) and, in brackets, against fpgrowth with gc paused.

    python benchmarks/bench_mining.py [--quick] [--repeats 3]
"""

from __future__ import annotations

import argparse
import gc
import os
import statistics
import time
from pathlib import Path

import fim
import numpy as np

import modelmine as mm
from modelmine.patterns._mining import closed_mask, mine_itemsets

TARGET = {"closed": "c", "maximal": "m"}


def base_models(selector: str, b: int, m: int, cache: Path) -> np.ndarray:
    """Subsets (b, p) of ``mm.bootstrap`` on leukemia, cached as .npz."""
    path = cache / f"leukemia_{selector}_b{b}_m{m}.npz"
    if path.exists():  # bench_lattice_html.py writes the same base models as "subsets"
        with np.load(path) as f:
            return f["S"] if "S" in f.files else f["subsets"]
    X, y = mm.datasets.load_leukemia()[:2]
    t = time.perf_counter()
    base = mm.bootstrap(
        X, y, selector=selector, n_bootstraps=b, n_features=m, random_state=0, n_jobs=2
    )
    print(f"# generated {path.name} in {time.perf_counter() - t:.0f} s", flush=True)
    cache.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, S=base.subsets)
    return base.subsets


def timed(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def fpgrowth_nogc(tracts, **kw):
    gc.disable()
    try:
        return fim.fpgrowth(tracts, **kw)
    finally:
        gc.enable()


def mlxtend_route(T, kind, c):
    import pandas as pd
    from mlxtend.frequent_patterns import fpgrowth, fpmax

    b = T.shape[0]
    keep = T.sum(0) >= c
    df = pd.DataFrame(T[:, keep])
    res = (fpmax if kind == "maximal" else fpgrowth)(df, min_support=(c - 0.5) / b)
    if kind == "closed":
        sets = res["itemsets"].tolist()
        lengths = np.array([len(s) for s in sets])
        flat = np.fromiter((i for s in sets for i in s), np.int32)
        counts = np.rint(res["support"].to_numpy() * b)
        res = res[closed_mask(lengths, flat, counts, T[:, keep])]
    return len(res)


def run(T, kind, c, repeats, mlxtend_cap):
    tracts = [np.flatnonzero(r).tolist() for r in T] + [[]]
    kw = dict(target=TARGET[kind], supp=-c, report="a")
    runs = {
        "eclat": lambda: fim.eclat(tracts, **kw),
        "fpgrowth": lambda: fim.fpgrowth(tracts, **kw),
        "fpgrowth_nogc": lambda: fpgrowth_nogc(tracts, **kw),
        "ours": lambda: mine_itemsets(T, itemset_type=kind, min_support=c),
        "ours_none": lambda: mine_itemsets(T, itemset_type=kind, min_support=c, max_itemsets=None),
        "ours_pyfim": lambda: mine_itemsets(T, itemset_type=kind, min_support=c, backend="pyfim"),
    }
    times: dict[str, list[float]] = {k: [] for k in runs}
    sizes = set()
    for _ in range(repeats):  # interleaved, so that load changes hit every contender
        for name, f in runs.items():
            r, t = timed(f)
            sizes.add(len(r))
            del r
            times[name].append(t)
    assert len(sizes) == 1, sizes
    n = sizes.pop()
    med = {k: statistics.median(v) for k, v in times.items()}
    n_freq = sum(fim.fpgrowth(tracts, target="s", supp=-c, report="#").values())
    med["mlxtend"] = float("nan")
    if n_freq <= mlxtend_cap:
        n_mlx, med["mlxtend"] = timed(lambda: mlxtend_route(T, kind, c))
        assert n_mlx == n
    return n, n_freq, med


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="b = 150 and chi2 only, no 2M case")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--mlxtend-cap", type=float, default=2e5)
    ap.add_argument("--cache", type=Path, default=Path("/tmp/modelmine-bench"))
    args = ap.parse_args()
    cases = [
        ("chi2", 150, 20, [0.1, 0.3]),
        ("chi2", 150, 50, [0.05, 0.1, 0.3]),
        ("svm-rfe", 150, 20, [0.05, 0.1]),
        ("svm-rfe", 150, 50, [0.05, 0.1]),
    ]
    if not args.quick:
        cases += [
            ("chi2", 1000, 20, [0.05, 0.1]),
            ("chi2", 1000, 50, [0.1, 0.3]),
            ("svm-rfe", 1000, 20, [0.02, 0.05]),
            ("svm-rfe", 1000, 50, [0.05]),
            ("anova", 150, 50, [0.04]),
        ]
    print(
        f"{'selector':8} {'b':>5} {'m':>3} {'supp':>5} {'kind':8} {'#itemsets':>10} "
        f"{'#frequent':>9} {'eclat':>7} {'fpgrw':>7} {'nogc':>7} {'ours':>7} "
        f"{'x':>11} {'None':>7} {'x':>11} {'pyfim-be':>8} {'x':>5} {'mlxtend':>8} {'x':>6}"
    )
    print(f"# load average {os.getloadavg()[0]:.1f}; 'ours' = backend='auto' (lcm), guard; "
          "'pyfim-be' = backend='pyfim', guard", flush=True)
    for selector, b, m, supports in cases:
        T = base_models(selector, b, m, args.cache)
        for supp in supports:
            c = max(1, int(np.ceil(round(supp * b, 9))))
            for kind in ("closed", "maximal"):
                n, n_freq, t = run(T, kind, c, args.repeats, args.mlxtend_cap)
                e, g = min(t["eclat"], t["fpgrowth"]), t["fpgrowth_nogc"]
                mlx = (
                    f"{t['mlxtend']:8.2f} {t['mlxtend'] / e:6.1f}"
                    if t["mlxtend"] == t["mlxtend"]
                    else f"skipped (> {args.mlxtend_cap:.0f} frequent itemsets)"
                )
                print(
                    f"{selector:8} {b:5d} {m:3d} {supp:5.2f} {kind:8} {n:10d} "
                    f"{n_freq:9.2g} {t['eclat']:7.3f} {t['fpgrowth']:7.3f} {g:7.3f} "
                    f"{t['ours']:7.3f} {t['ours'] / e:5.2f}({t['ours'] / g:4.2f}) "
                    f"{t['ours_none']:7.3f} {t['ours_none'] / e:5.2f}"
                    f"({t['ours_none'] / g:4.2f}) {t['ours_pyfim']:8.3f} "
                    f"{t['ours_pyfim'] / e:5.2f} {mlx}",
                    flush=True,
                )


if __name__ == "__main__":
    main()
