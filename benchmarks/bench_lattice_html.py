"""Speed of the lattice explorer in headless Chromium: first paint and filters at 1,000, 20,000
and 100,000 closed itemsets (the last through the level of detail).

Base models: real ``modelmine.bootstrap`` runs on leukemia (72 x 7129, selector "anova",
b = 150, m = 50; Woznica, Nguyen & Kalousis, KDD 2012, Section 4), cached under ``--cache``.
For each target size the minimum support count is the highest whose closed itemsets reach
the target (found by bisection), so the lattices are real ones, not synthetic.

For each size it prints: the Python side (mining + Hasse diagram, writing the page, page
size), then in Chromium (Debian's package, driven by the DevTools protocol as in the tests):
time to the first render and to the first frame since navigation start, the explorer's own
setup + render time, and the median over ``--repeats`` of applying a support filter, a size
filter and a search (filter + render, measured in the page). Ratios are against the 1,000
itemset page, and against the 100 ms a user perceives as instant (Nielsen, Usability
Engineering, 1993, ch. 5).

    python benchmarks/bench_lattice_html.py [--quick] [--repeats 5]

``--quick``: 1,000 and 20,000 itemsets only.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import modelmine as mm
from modelmine.patterns import ItemsetLattice, mine_itemsets

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests" / "report"))
from browser_session import BrowserPage

RESULTS = Path(__file__).parent / "results" / "lattice_html.csv"


def subsets(cache: Path) -> np.ndarray:
    path = cache / "leukemia_anova_b150_m50.npz"
    if path.exists():
        with np.load(path) as f:
            return f["subsets"], f["names"]
    X, y, names = mm.datasets.load_leukemia(return_names=True)
    base = mm.bootstrap(
        X,
        y,
        selector="anova",
        n_bootstraps=150,
        n_features=50,
        random_state=0,
        feature_names=names,
        n_jobs=1,
    )
    cache.mkdir(parents=True, exist_ok=True)
    np.savez(path, subsets=base.subsets, names=np.asarray(base.feature_names, dtype=str))
    return base.subsets, np.asarray(base.feature_names, dtype=str)


def count_for(sub: np.ndarray, target: int) -> int:
    """The highest support count with at least ``target`` closed itemsets (bisection)."""
    lo, hi = 1, sub.shape[0]  # n(lo) >= target > n(hi) is the invariant sought
    while hi - lo > 1:
        mid = (lo + hi) // 2
        n = len(mine_itemsets(sub, itemset_type="closed", min_support=mid))
        lo, hi = (mid, hi) if n >= target else (lo, mid)
    return lo


def measure(page: BrowserPage, path: Path, repeats: int, feature: str) -> dict[str, float]:
    t = time.perf_counter()
    page.open(path)
    page.wait_for("document.getElementById('lattice').dataset.ready === '1'", timeout=120)
    page.wait_for("window.modelmineLattice.frameAt", timeout=30)
    wall = (time.perf_counter() - t) * 1000
    api = page.evaluate(
        "(({renderedAt, frameAt, setupMs, firstPaintMs, view}) => "
        "({renderedAt, frameAt, setupMs, firstPaintMs, drawn: view.drawn}))"
        "(window.modelmineLattice)"
    )
    low = page.evaluate("modelmineLattice.state.minSupport")
    support, size, search = [], [], []
    for _ in range(repeats):
        support.append(page.evaluate("modelmineLattice.filter({minSupport: 0.3})"))
        support.append(page.evaluate(f"modelmineLattice.filter({{minSupport: {low}}})"))
        size.append(page.evaluate("modelmineLattice.filter({lenMin: 3, lenMax: 6})"))
        size.append(page.evaluate("modelmineLattice.filter({lenMin: 0, lenMax: 99})"))
        search.append(page.evaluate(f"modelmineLattice.filter({{query: '{feature}'}})"))
        search.append(page.evaluate("modelmineLattice.filter({query: ''})"))
    assert page.errors() == [], page.errors()
    return {
        "wall_ms": wall,
        "render_ms": api["renderedAt"],
        "frame_ms": api["frameAt"],
        "setup_ms": api["setupMs"],
        "explorer_ms": api["firstPaintMs"],
        "drawn": api["drawn"],
        "support_filter_ms": statistics.median(support),
        "size_filter_ms": statistics.median(size),
        "search_ms": statistics.median(search),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--cache", type=Path, default=Path("/tmp/modelmine-bench"))
    args = parser.parse_args(argv)
    targets = [1_000, 20_000] if args.quick else [1_000, 20_000, 100_000]
    sub, names = subsets(args.cache)
    feature = str(names[np.argmax(sub.sum(axis=0))])  # the most selected gene
    rows = []
    out = Path(tempfile.mkdtemp(prefix="mm-bench-lattice-"))
    with BrowserPage(width=1400, height=900, timeout=120) as page:
        for target in targets:
            count = count_for(sub, target)
            t = time.perf_counter()
            closed = mine_itemsets(sub, itemset_type="closed", min_support=count)
            lattice = ItemsetLattice(closed)
            build = time.perf_counter() - t
            t = time.perf_counter()
            path = lattice.to_html(out / f"lattice_{target}.html")
            write = time.perf_counter() - t
            res = measure(page, path, args.repeats, feature)
            res.update(
                target=target,
                n_itemsets=len(closed),
                min_count=count,
                n_edges=lattice.graph.number_of_edges(),
                build_s=build,
                write_s=write,
                page_mb=path.stat().st_size / 1e6,
            )
            rows.append(res)
            print(
                f"{len(closed):>7,} closed itemsets (support >= {count}/150), "
                f"{res['n_edges']:,} edges: mine + Hasse {build:.1f} s, page "
                f"{write:.2f} s, {res['page_mb']:.1f} MB",
                flush=True,
            )
    ref = rows[0]
    print()
    print(
        f"{'itemsets':>9} {'drawn':>6} {'1st render':>11} {'1st frame':>10} {'explorer':>9} "
        f"{'support f.':>11} {'size f.':>8} {'search':>8}   ratios vs 1k (render, filter)"
    )
    for r in rows:
        print(
            f"{r['n_itemsets']:>9,} {r['drawn']:>6} {r['render_ms']:>9.0f}ms "
            f"{r['frame_ms']:>8.0f}ms {r['explorer_ms']:>7.0f}ms "
            f"{r['support_filter_ms']:>9.1f}ms {r['size_filter_ms']:>6.1f}ms "
            f"{r['search_ms']:>6.1f}ms   x{r['render_ms'] / ref['render_ms']:.1f}, "
            f"x{r['support_filter_ms'] / ref['support_filter_ms']:.1f}"
        )
    worst = max(max(r["support_filter_ms"], r["size_filter_ms"], r["search_ms"]) for r in rows)
    print(
        f"\nslowest filter or search: {worst:.1f} ms = {worst / 100:.2f} x the 100 ms "
        "of an instant response"
    )
    RESULTS.parent.mkdir(exist_ok=True)
    keys = [
        "target",
        "n_itemsets",
        "min_count",
        "n_edges",
        "build_s",
        "write_s",
        "page_mb",
        "wall_ms",
        "render_ms",
        "frame_ms",
        "setup_ms",
        "explorer_ms",
        "drawn",
        "support_filter_ms",
        "size_filter_ms",
        "search_ms",
    ]
    lines = [",".join(keys)] + [
        ",".join(f"{r[k]:.4g}" if isinstance(r[k], float) else str(r[k]) for k in keys)
        for r in rows
    ]
    if not args.quick:
        RESULTS.write_text("\n".join(lines) + "\n")
        print(f"wrote {RESULTS}")


if __name__ == "__main__":
    main()
