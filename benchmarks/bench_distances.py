"""Jaccard distances between base models: modelmine vs scipy pdist; k-medoids backends.

Side-by-side timings (seconds) and ratios. Base-model-like matrices: b rows of m = 20 of p
features, drawn with a Zipf-like popularity (a few features in most models, most rare), as
real bootstrap subsets are; plus real leukemia base models for k-medoids.

    python benchmarks/bench_distances.py
"""

from __future__ import annotations

import time

import numpy as np
from scipy.spatial.distance import pdist, squareform

import modelmine as mm
from modelmine.patterns._distances import jaccard_distances
from modelmine.patterns._kmedoids import available_backends, kmedoids


def subsets(b: int, p: int, m: int = 20, seed: int = 0) -> np.ndarray:
    rng = np.random.default_rng(seed)
    w = 1.0 / np.arange(1, p + 1) ** 1.1
    w /= w.sum()
    out = np.zeros((b, p), dtype=bool)
    for i in range(b):
        out[i, rng.choice(p, m, replace=False, p=w)] = True
    return out


def best_of(fn, repeat: int = 2) -> float:
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def main() -> None:
    print("Jaccard distances, b x p boolean, m = 20 per row")
    print(f"{'b':>6} {'p':>6} {'modelmine f64':>14} {'modelmine f32':>14} {'scipy pdist':>12} "
          f"{'ratio':>7}")
    for b, p in [(500, 2000), (1000, 7129), (2000, 7129), (5000, 7129)]:
        S = subsets(b, p)
        ours = best_of(lambda S=S: jaccard_distances(S))
        ours32 = best_of(lambda S=S: jaccard_distances(S, dtype=np.float32))
        if b <= 2000:
            theirs = best_of(lambda S=S: squareform(pdist(S, "jaccard")), repeat=1)
            np.testing.assert_allclose(jaccard_distances(S), squareform(pdist(S, "jaccard")),
                                       atol=1e-7)
            shown = f"{theirs:12.3f} {theirs / ours:6.0f}x"
        else:  # pdist is quadratic in b times p: extrapolated from b = 2000
            shown = f"{'~' + format(theirs * (b / 2000) ** 2, '.0f'):>12} " \
                    f"{theirs * (b / 2000) ** 2 / ours:6.0f}x (extrapolated)"
        print(f"{b:6d} {p:6d} {ours:14.3f} {ours32:14.3f} {shown}")

    print("\nk-medoids on real leukemia base models (anova, b = 150, m = 20)")
    X, y = mm.datasets.load_leukemia()
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=150, n_features=20,
                        random_state=0)
    dist = jaccard_distances(base)
    for k in (2, 10, 30):
        row = []
        for backend in available_backends():
            t = best_of(lambda backend=backend, k=k: kmedoids(dist, k, backend=backend,
                                                              compute_silhouette=False))
            res = kmedoids(dist, k, backend=backend)
            row.append(f"{backend}: {t * 1e3:7.1f} ms, loss {res.loss:.4f}")
        print(f"  k = {k:2d}  " + " | ".join(row))


if __name__ == "__main__":
    main()
