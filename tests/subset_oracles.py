"""Double-loop oracles of the subset similarity measures (Kuncheva, Jaccard, Dice, and the
Pearson correlation with Nogueira and Brown's edge cases), shared by the tests of the
stability diagnostics and of their overlap kernels."""

from __future__ import annotations

import itertools
import math

import numpy as np


def brute_pair(a, b, measure, d):
    a, b = set(np.flatnonzero(a)), set(np.flatnonzero(b))
    r, ka, kb = len(a & b), len(a), len(b)
    if measure == "jaccard":
        return 1.0 if ka + kb == 0 else r / len(a | b)
    if measure == "dice":
        return 1.0 if ka + kb == 0 else 2 * r / (ka + kb)
    if measure == "kuncheva":
        return (r - ka * kb / d) / (ka - ka * kb / d)
    # pearson with the Nogueira-Brown edge cases
    deg_a, deg_b = ka in (0, d), kb in (0, d)
    if deg_a and deg_b:
        return 1.0 if ka == kb else 0.0
    if deg_a or deg_b:
        return 0.0
    va = math.sqrt(ka / d * (1 - ka / d))
    vb = math.sqrt(kb / d * (1 - kb / d))
    return (r - ka * kb / d) / (d * va * vb)


def brute_mean(Z, measure):
    M, d = Z.shape
    vals = [brute_pair(Z[i], Z[j], measure, d) for i, j in itertools.combinations(range(M), 2)]
    return float(np.mean(vals))


def random_subsets(rng, M, d, sizes):
    Z = np.zeros((M, d), dtype=bool)
    for i in range(M):
        k = int(rng.choice(sizes))
        Z[i, rng.choice(d, size=k, replace=False)] = True
    return Z
