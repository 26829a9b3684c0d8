"""The framework's own cost, and how it scales (issue: scale, items 2 and 5).

2. Overhead: mining (closed + maximal itemsets) + Jaccard distances + k-medoids + every
   registered operator + diagnostics (Nogueira stability with CI, Jaccard stability,
   diversity of the alternatives), as a fraction of generating the base models, for
   b in {150, 1000, 5000} and m in {20, 50}, svm-rfe on leukemia.

   svm-rfe base models are generated for real for b in {150, 1000} (cached under
   benchmarks/results/cache/, which git ignores). For b = 5000 the generation time is the
   measured svm-rfe time per bootstrap times b, and since the framework's cost depends
   only on the subsets (b, p, m), it runs on 5000 real base models of the fast "anova"
   selector with the same m (stated in the output).

5. Scaling: the framework's time against b, m and p (columns of leukemia), saved as
   benchmarks/results/scaling.csv and scaling.png, with the growth order fitted on a
   log-log scale printed (and recorded in docs/performance.md).

Run: ``.venv/bin/python benchmarks/bench_overhead.py [--quick]``.
"""

from __future__ import annotations

import argparse
import contextlib
import dataclasses
import platform
import time
from pathlib import Path

import numpy as np
import pandas as pd

import modelmine as mm
from modelmine import diagnostics
from modelmine.exceptions import NotApplicableError
from modelmine.operators import aggregate
from modelmine.operators import available_operators as available

RESULTS = Path(__file__).parent / "results"


def base_models(selector: str, b: int, m: int, X, y, *, n_jobs: int = 2) -> tuple[
        mm.BaseModels, float]:
    """Base models (cached on disk) and the seconds it took to generate them."""
    cache = RESULTS / "cache"
    cache.mkdir(parents=True, exist_ok=True)
    path = cache / f"base-{selector}-b{b}-m{m}-p{X.shape[1]}.npz"
    if path.exists():
        base = mm.BaseModels.load(path)
        return base, float(base.extra.get("seconds", np.nan))
    start = time.perf_counter()
    base = mm.bootstrap(X, y, selector=selector, n_bootstraps=b, n_features=m,
                        random_state=0, n_jobs=n_jobs, progress=False)
    seconds = time.perf_counter() - start
    base = dataclasses.replace(base, extra={"seconds": seconds})
    base.save(path)
    return base, seconds


def framework(base: mm.BaseModels, m: int, k: int = 10) -> dict[str, float]:
    """Seconds spent in each stage downstream of the base models."""
    out: dict[str, float] = {}
    t = time.perf_counter()
    mm.mine_itemsets(base, itemset_type="closed", min_support=0.2)
    mm.mine_itemsets(base, itemset_type="maximal", min_support=0.2)
    out["mining"] = time.perf_counter() - t
    t = time.perf_counter()
    from modelmine.patterns._distances import jaccard_distances
    from modelmine.patterns._kmedoids import kmedoids

    D = jaccard_distances(base.subsets)
    kmedoids(D, k, random_state=0)
    out["k-medoids"] = time.perf_counter() - t
    t = time.perf_counter()
    alternatives = None
    for _, row in available().iterrows():
        if row["kind"] == "single":
            # refused for these base models, with the reason: score aggregations of a
            # ranking-only selector; the error-controlled operators, which need
            # complementary pairs or artificial features
            with contextlib.suppress(NotApplicableError):
                aggregate(base, row["name"], n_features=m, random_state=0)
        else:
            result = aggregate(base, row["name"], n_signatures=k, random_state=0)
            if row["name"] == "allMed":
                alternatives = result
    out["operators"] = time.perf_counter() - t
    t = time.perf_counter()
    diagnostics.nogueira_stability(base.subsets)
    diagnostics.jaccard_stability(base.subsets)
    if alternatives is not None:
        diagnostics.diversity(alternatives)
    out["diagnostics"] = time.perf_counter() - t
    out["total"] = sum(out.values())
    return out


def overhead(X, y, bs: list[int], ms: list[int]) -> pd.DataFrame:
    rows = []
    for m in ms:
        per_fit = None
        for b in bs:
            if b <= 1000:
                base, gen = base_models("svm-rfe", b, m, X, y)
                per_fit = gen / b
                note = "svm-rfe, generated"
            else:
                assert per_fit is not None
                base, _ = base_models("anova", b, m, X, y)
                gen = per_fit * b
                note = "anova subsets; generation = svm-rfe s/fit x b"
            parts = framework(base, m)
            rows.append({"b": b, "m": m, "generation_s": gen, **{f"{k}_s": v for k, v in
                                                                  parts.items()},
                         "overhead_%": 100 * parts["total"] / gen, "note": note})
            print(f"b={b:5d} m={m:3d}  generation {gen:8.1f} s  framework "
                  f"{parts['total']:7.2f} s  ({100 * parts['total'] / gen:5.1f} %)  "
                  f"[mining {parts['mining']:.2f}, k-medoids {parts['k-medoids']:.2f}, "
                  f"operators {parts['operators']:.2f}, diagnostics "
                  f"{parts['diagnostics']:.2f}]  {note}", flush=True)
    return pd.DataFrame(rows)


def scaling(X, y, quick: bool) -> pd.DataFrame:
    """Framework time against b, m and p (anova base models, generated for each point)."""
    rows = []
    grid_b = [100, 200, 400, 800] + ([] if quick else [1600, 3200])
    grid_m = [10, 20, 30, 40]  # m = 80 at support 0.2: 38 million closed itemsets
    grid_p = [1000, 2000, 4000, 7129]
    for axis, values in (("b", grid_b), ("m", grid_m), ("p", grid_p)):
        for v in values:
            b, m, p = 400, 20, X.shape[1]
            b, m, p = (v, m, p) if axis == "b" else (b, v, p) if axis == "m" else (b, m, v)
            base, _ = base_models("anova", b, m, X[:, :p], y)
            t = framework(base, m)["total"]
            rows.append({"axis": axis, "value": v, "b": b, "m": m, "p": p, "seconds": t})
            print(f"scaling {axis}={v:5d}: {t:.2f} s", flush=True)
    return pd.DataFrame(rows)


def growth_orders(df: pd.DataFrame) -> dict[str, float]:
    orders = {}
    for axis, part in df.groupby("axis"):
        slope = np.polyfit(np.log(part["value"]), np.log(part["seconds"]), 1)[0]
        orders[str(axis)] = float(slope)
    return orders


def plot(df: pd.DataFrame, orders: dict[str, float], path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, 3, figsize=(12, 3.8), constrained_layout=True)
    for ax, axis in zip(axes, ["b", "m", "p"], strict=True):
        part = df[df["axis"] == axis]
        ax.loglog(part["value"], part["seconds"], "o-")
        ax.set_xlabel({"b": "base models b", "m": "subset size m", "p": "features p"}[axis])
        ax.set_ylabel("framework time (s)")
        ax.set_title(f"time ~ {axis}^{orders[axis]:.2f}")
        ax.grid(True, which="both", alpha=0.3)
    fig.suptitle("modelmine framework time (mining, k-medoids, all operators, diagnostics)")
    fig.savefig(path, dpi=110)


def per_operator(base: mm.BaseModels, m: int, k: int = 10) -> pd.DataFrame:
    """Seconds of each registered operator alone on ``base`` (where the framework's time
    goes), slowest first; the operators these base models cannot serve are left out."""
    rows = []
    for _, row in available().iterrows():
        t = time.perf_counter()
        try:
            if row["kind"] == "single":
                aggregate(base, row["name"], n_features=m, random_state=0)
            else:
                aggregate(base, row["name"], n_signatures=k, random_state=0)
        except NotApplicableError:
            continue
        rows.append({"b": base.n_models, "m": m, "operator": row["name"],
                     "seconds": time.perf_counter() - t})
    return pd.DataFrame(rows).sort_values("seconds", ascending=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="b in {150}, smaller grids")
    parser.add_argument("--bs", type=int, nargs="+", default=None,
                        help="values of b for the overhead table (default 150 1000 5000)")
    parser.add_argument("--skip-scaling", action="store_true",
                        help="only the overhead table (item 2), not the scaling curves")
    args = parser.parse_args()
    X, y = mm.datasets.load_leukemia()
    print(f"modelmine {mm.__version__}, {platform.machine()}, {time.strftime('%Y-%m-%d')}, "
          "leukemia (72 x 7129)")
    bs = args.bs or ([150] if args.quick else [150, 1000, 5000])
    table = overhead(X, y, bs, [20, 50])
    RESULTS.mkdir(exist_ok=True)
    table.to_csv(RESULTS / "overhead.csv", index=False)
    b_max, m0 = max([b for b in bs if b <= 1000] or [min(bs)]), 20
    ops = per_operator(base_models("svm-rfe", b_max, m0, X, y)[0], m0)
    ops.to_csv(RESULTS / "overhead_operators.csv", index=False)
    print(f"operators alone at b = {b_max}, m = {m0} (slowest first):")
    print(ops.head(8).to_string(index=False))
    if args.skip_scaling:
        return
    df = scaling(X, y, args.quick)
    orders = growth_orders(df)
    df.to_csv(RESULTS / "scaling.csv", index=False)
    plot(df, orders, RESULTS / "scaling.png")
    print("fitted growth orders (log-log slope): "
          + ", ".join(f"{k}: {v:.2f}" for k, v in orders.items()))
    print(f"wrote {RESULTS / 'overhead.csv'}, {RESULTS / 'scaling.csv'}, "
          f"{RESULTS / 'scaling.png'}")


if __name__ == "__main__":
    main()
