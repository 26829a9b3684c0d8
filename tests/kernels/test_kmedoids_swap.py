"""The swap descent inside :func:`modelmine.patterns.kmedoids` (PAM's SWAP phase, Kaufman
and Rousseeuw 1990), on its own: where it stops, no single swap of a medoid for another
point lowers the loss (every swap tried by brute force). Issue 38 item 6; k-medoids itself
is tested with public names in ``tests/patterns/``.
"""

from __future__ import annotations

import itertools

import numpy as np

from modelmine.patterns import swap_descent


def test_swap_descent_ends_where_no_single_swap_helps():
    rng = np.random.default_rng(3)
    pts = rng.random((30, 2))
    dist = np.sqrt(((pts[:, None] - pts[None]) ** 2).sum(-1))
    med = swap_descent(dist, np.array([0, 1, 2]), max_iter=100)

    def loss(m):
        return dist[:, list(m)].min(axis=1).sum()

    here = loss(med)
    for i, x in itertools.product(range(3), range(30)):  # brute force: every swap
        if x in med:
            continue
        trial = med.copy()
        trial[i] = x
        assert loss(trial) >= here - 1e-12
