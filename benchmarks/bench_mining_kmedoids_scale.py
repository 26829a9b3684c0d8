"""Issue 15, the two gaps left by the first version: the mining guard and k-medoids at scale.

1. Mining with the default ``max_itemsets`` guard against pyfim (target: within 1.5x; the
   guard-free run within 1.31x before issue 15). Leukemia base models (``mm.bootstrap``,
   anova, b = 150, m = 50, random_state 0) at support 0.04: 2.08 million closed itemsets,
   9.3e9 frequent ones, so the guard must count the closed ones (``--quick``: support 0.1).
   CPU seconds (``time.process_time``), median of ``--repeats`` interleaved runs: pyfim's
   eclat and fpgrowth called directly (report='a', the faster is the reference), modelmine
   with the default guard and with ``max_itemsets=None`` (``backend="auto"``: its own LCM,
   which stops at the guard instead of counting first), the same with ``backend="pyfim"``
   (the route before: the guard's exact closed count is an extra pyfim run), and that
   route's counting passes alone (pyfim's pattern spectra, report='#').
2. largeMed (k = 2..10) and allMed (k = 10) on b = 5,000 base models against the time it
   takes to generate them (target: within 10 %). Generation: ``mm.bootstrap`` with the
   default selector (svm-rfe; ``--selector`` for another) on colon, n_features = 20,
   n_jobs = 1, CPU seconds; cached with its time under ``--cache``. Operators: the built-in
   PAM (``backend="auto"``) and scikit-learn-extra's PAM (``backend="sklearn-extra"``, the
   code before issue 15), on the same base models; the signatures must be identical
   (checked). ``--quick``: b = 500.

    python benchmarks/bench_mining_kmedoids_scale.py [--quick] [--repeats 3]
        [--only mining|kmedoids] [--selector svm-rfe] [--no-reference]
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
from modelmine.patterns import mine_itemsets
from modelmine.testing import base_models_from_subsets


def cpu(f, *args, **kwargs):
    t = time.process_time()
    r = f(*args, **kwargs)
    return r, time.process_time() - t


def leukemia_subsets(cache: Path) -> np.ndarray:
    path = cache / "leukemia_anova_b150_m50.npz"  # shared with bench_mining / lattice_html
    if path.exists():
        with np.load(path) as f:
            return f["S"] if "S" in f.files else f["subsets"]
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
        progress=False,
    )
    cache.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, subsets=base.subsets, names=np.asarray(names, dtype=str))
    return base.subsets


def mining(args) -> None:
    S = leukemia_subsets(args.cache)
    support = 0.1 if args.quick else 0.04
    c = int(np.ceil(round(support * S.shape[0], 9)))
    tracts = [np.flatnonzero(r).tolist() for r in S] + [[]]
    kw = {"target": "c", "supp": -c, "report": "a"}
    runs = {
        "eclat": lambda: fim.eclat(tracts, **kw),
        "fpgrowth": lambda: fim.fpgrowth(tracts, **kw),
        "guard": lambda: mine_itemsets(S, "closed", c),
        "none": lambda: mine_itemsets(S, "closed", c, max_itemsets=None),
        "pyfim_guard": lambda: mine_itemsets(S, "closed", c, backend="pyfim"),
        "pyfim_none": lambda: mine_itemsets(S, "closed", c, backend="pyfim", max_itemsets=None),
        "counting": lambda: (
            fim.fpgrowth(tracts, target="s", supp=-c, report="#"),
            fim.fpgrowth(tracts, target="c", supp=-c, report="#"),
        ),
    }
    times: dict[str, list[float]] = {k: [] for k in runs}
    sizes = set()
    for _ in range(args.repeats):
        for name, f in runs.items():
            r, t = cpu(f)
            if name != "counting":
                sizes.add(len(r))
            del r
            gc.collect()
            times[name].append(t)
    assert len(sizes) == 1, sizes
    med = {k: statistics.median(v) for k, v in times.items()}
    ref = min(med["eclat"], med["fpgrowth"])
    print(
        f"## Mining: leukemia anova b = 150, m = 50, closed itemsets at support {support} "
        f"({sizes.pop():,} itemsets), CPU s, median of {args.repeats}"
    )
    print(
        f"pyfim eclat {med['eclat']:.2f}  fpgrowth {med['fpgrowth']:.2f}  "
        f"pyfim route's counting passes alone {med['counting']:.2f}  "
        f"(load average {os.getloadavg()[0]:.1f})"
    )
    print(f"{'':44}{'seconds':>8} {'x pyfim':>8} {'target':>7}")
    rows = [
        ("modelmine (lcm), default guard", "guard", "1.50"),
        ("modelmine (lcm), max_itemsets=None", "none", "1.31"),
        ("modelmine backend='pyfim', default guard", "pyfim_guard", ""),
        ("modelmine backend='pyfim', max_itemsets=None", "pyfim_none", ""),
    ]
    for label, key, target in rows:
        print(f"{label:44}{med[key]:8.2f} {med[key] / ref:8.2f} {target:>7}")


def colon_subsets(b: int, cache: Path, selector: str) -> tuple[np.ndarray, float]:
    path = cache / f"colon_{selector}_b{b}_m20.npz"
    if path.exists():
        with np.load(path) as f:
            return f["subsets"], float(f["cpu"])
    X, y = mm.datasets.load_colon()[:2]
    base, t = cpu(
        mm.bootstrap,
        X,
        y,
        selector,
        n_bootstraps=b,
        n_features=20,
        random_state=0,
        n_jobs=1,
        progress=False,
    )
    cache.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(path, subsets=base.subsets, cpu=t)
    return base.subsets, t


def features(result) -> list[list[int]]:
    sigs = getattr(result, "signatures", [result])
    return [s.features.tolist() for s in sigs]


def kmedoids_section(args) -> None:
    b = 500 if args.quick else 5000
    S, gen = colon_subsets(b, args.cache, args.selector)
    base = base_models_from_subsets(S)
    print(
        f"\n## k-medoids: colon, selector {args.selector}, b = {b:,}, m = 20; "
        f"generation {gen:.1f} CPU s (n_jobs = 1)"
    )
    print(
        f"{'operator':10}{'backend':15}{'CPU s':>8} {'/ generation':>13} {'target':>7} "
        f"{'same as before':>15}"
    )
    for op, kw in (("largeMed", {"n_features": 20}), ("allMed", {"n_signatures": 10})):
        ours, t_ours = cpu(mm.aggregate, base, op, random_state=0, **kw)
        row = f"{op:10}{'auto (pam)':15}{t_ours:8.2f} {100 * t_ours / gen:12.1f}% {'10%':>7}"
        if args.no_reference:
            print(row + f" {'not run':>15}")
            continue
        ref, t_ref = cpu(mm.aggregate, base, op, random_state=0, backend="sklearn-extra", **kw)
        same = features(ours) == features(ref)
        print(row + f" {same!s:>15}")
        print(
            f"{op:10}{'sklearn-extra':15}{t_ref:8.2f} {100 * t_ref / gen:12.1f}%"
            f" {'':>7} {'pam ' + f'{t_ref / t_ours:.1f}x faster':>15}"
        )
        assert same, op


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument(
        "--no-reference",
        action="store_true",
        help="skip scikit-learn-extra's PAM (minutes at b = 5,000)",
    )
    ap.add_argument("--cache", type=Path, default=Path("/tmp/modelmine-bench"))
    ap.add_argument("--selector", default="svm-rfe", help="of the k-medoids base models")
    ap.add_argument("--only", choices=["mining", "kmedoids"], default=None)
    args = ap.parse_args()
    print(
        f"# {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, load average "
        + ", ".join(f"{x:.2f}" for x in os.getloadavg())
    )
    if args.only != "kmedoids":
        mining(args)
    if args.only != "mining":
        kmedoids_section(args)
    print("# load average at the end " + ", ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
