"""Resampling schemes of the base models: bootstrap bags, subsamples, complementary pairs.

Woznica, Nguyen and Kalousis (KDD 2012, section 3) draw b = 150 bootstrap samples; Saeys,
Abeel and Van de Peer (PKDD 2008) and Pes (2019) use bootstrap bags and subsamples without
replacement; Shah and Samworth (2013) split the samples into complementary halves. Every
draw comes from a ``numpy.random.Generator`` seeded per resample (see
:func:`seed_sequence`), so a resample depends only on (seed, i).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..spec import resolve_seed

__all__ = ["complementary_pair", "resample_indices", "seed_sequence"]


def seed_sequence(random_state: Any, func: str = "bootstrap") -> np.random.SeedSequence:
    """The root ``SeedSequence`` of a run: ``SeedSequence(resolve_seed(random_state))``.

    ``random_state`` is anything :func:`modelmine.spec.resolve_seed` takes (None, an int, a
    SeedSequence, a RandomState or a Generator); None draws fresh entropy, whose value the
    sequence's ``entropy`` records so the run can be reproduced.
    """
    if isinstance(random_state, np.random.SeedSequence) and not random_state.spawn_key \
            and isinstance(random_state.entropy, int):
        return random_state
    return np.random.SeedSequence(resolve_seed(random_state, func))


def resample_indices(
    y: np.ndarray, rng: np.random.Generator, *, method: str, fraction: float,
    stratify: bool,
) -> np.ndarray:
    """Row indices of one resample, sorted ascending.

    ``method="bootstrap"`` draws round(fraction * n) rows with replacement (n by default);
    ``"subsample"`` draws round(fraction * n) rows without replacement. With ``stratify``,
    each class contributes round(fraction * n_c) rows drawn among its own members.
    A resample holding a single class is drawn again from the same generator, so it stays
    deterministic.
    """
    replace = method == "bootstrap"
    n = y.size
    while True:
        if stratify:
            parts = []
            for c in np.unique(y):
                members = np.flatnonzero(y == c)
                size = max(1, round(fraction * members.size))
                parts.append(rng.choice(members, size=size, replace=replace))
            idx = np.concatenate(parts)
        else:
            size = max(2, round(fraction * n))
            idx = rng.choice(n, size=size, replace=replace)
        idx = np.sort(idx)
        if np.unique(y[idx]).size >= 2:
            return idx


def complementary_pair(
    y: np.ndarray, rng: np.random.Generator, *, stratify: bool,
) -> tuple[np.ndarray, np.ndarray]:
    """Two disjoint halves of the rows, each of size floor(n/2), sorted ascending.

    Shah and Samworth (2013, section 2.1): complementary pairs subsampling splits the n
    samples at random into two disjoint subsets of size floor(n/2) (one sample is left out
    when n is odd). With ``stratify`` each class is split in two halves of floor(n_c/2).
    A split leaving a single class in a half is drawn again from the same generator.
    """
    while True:
        if stratify:
            first, second = [], []
            for c in np.unique(y):
                members = rng.permutation(np.flatnonzero(y == c))
                half = members.size // 2
                first.append(members[:half])
                second.append(members[half:2 * half])
            a, b = np.concatenate(first), np.concatenate(second)
        else:
            order = rng.permutation(y.size)
            half = y.size // 2
            a, b = order[:half], order[half:2 * half]
        a, b = np.sort(a), np.sort(b)
        if np.unique(y[a]).size >= 2 and np.unique(y[b]).size >= 2:
            return a, b
