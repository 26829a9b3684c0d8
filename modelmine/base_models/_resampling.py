"""Resampling schemes of the base models: bootstrap bags, subsamples, complementary pairs.

Woznica, Nguyen and Kalousis (KDD 2012, section 3) draw b = 150 bootstrap samples; Saeys,
Abeel and Van de Peer (PKDD 2008) and Pes (2019) use bootstrap bags and subsamples without
replacement; Shah and Samworth (2013) split the samples into complementary halves. Every
draw comes from a ``numpy.random.Generator`` seeded per resample (see
:func:`seed_sequence`), so a resample depends only on (seed, i).

With groups (:class:`._design.SampleDesign`), every scheme draws whole groups: the cluster
bootstrap of Davison and Hinkley (1997, section 3.8), Stabl's ``group_bootstrap``. A
resample then holds a varying number of rows (the drawn groups' sizes).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..exceptions import DataError
from ..spec import resolve_seed
from ._design import NO_DESIGN, SampleDesign

__all__ = ["complementary_pair", "resample_indices", "seed_sequence"]

#: Draws of a resample holding too few classes before giving up. Every redraw loop is
#: bounded by it; the settings that make such draws certain or nearly so (weights in one
#: class, a class without weight) are refused at the door (``_checks``).
_MAX_REDRAWS = 1000


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
    stratify: bool, design: SampleDesign = NO_DESIGN, min_classes: int = 2,
    max_per_class: int | None = None,
) -> np.ndarray:
    """Row indices of one resample, sorted ascending.

    ``method="bootstrap"`` draws round(fraction * n) rows with replacement (n by default);
    ``"subsample"`` draws round(fraction * n) rows without replacement. With ``stratify``,
    each class contributes round(fraction * n_c) rows drawn among its own members.
    A resample holding a single class (fewer than ``min_classes``: every class for the
    per-class runs) is drawn again from the same generator, so it stays deterministic.

    With ``design.groups``, the same is done on the G groups: round(fraction * G) groups
    are drawn (with replacement for the bootstrap), stratified by the groups' classes when
    asked, and the resample is the union of their rows (a group drawn twice contributes
    its rows twice). With ``design.weighted_resampling``, rows (or groups, by the sum of
    their rows' weights) are drawn with probability proportional to their weight.
    Without a design, the draws are those of earlier releases, bit for bit.
    ``max_per_class`` caps each class's draws (implying ``stratify``); with groups, the
    rows of a class beyond the cap are left out of the drawn groups' at random.
    """
    if design.grouped:
        idx = _group_resample(y, rng, method=method, fraction=fraction, stratify=stratify,
                              design=design, min_classes=min_classes)
        return idx if max_per_class is None else _cap(y, idx, max_per_class, rng)
    replace = method == "bootstrap"
    n = y.size
    w = design.sample_weight if design.weighted_resampling else None
    # With weights given to the selector, a row of weight 0 does not count: the classes a
    # resample holds are those of its rows of positive weight (else a selector that drops
    # them, SVM-RFE, sees one class after the first fit).
    counts = (None if design.sample_weight is None or design.weighted_resampling
              else design.sample_weight > 0)
    stratify = stratify or max_per_class is not None
    for _ in range(_MAX_REDRAWS):
        if stratify:
            parts = []
            for c in np.unique(y):
                members = np.flatnonzero(y == c)
                size = max(1, round(fraction * members.size))
                if max_per_class is not None:
                    size = min(size, max_per_class)
                parts.append(rng.choice(members, size=size, replace=replace,
                                        p=None if w is None else _prob(w[members])))
            idx = np.concatenate(parts)
        else:
            size = max(2, round(fraction * n))
            idx = rng.choice(n, size=size, replace=replace,
                             p=None if w is None else _prob(w))
        idx = np.sort(idx)
        held = y[idx] if counts is None else y[idx[counts[idx]]]
        if np.unique(held).size >= min_classes:
            return idx
    raise DataError(f"{_MAX_REDRAWS} resamples of the {n} samples in a row held fewer than "
                    f"{min_classes} classes: too few samples (or too little sample weight) "
                    "carry the other classes (stratify=True draws each class among its "
                    "own samples).")


def _cap(y: np.ndarray, idx: np.ndarray, cap: int, rng: np.random.Generator) -> np.ndarray:
    """At most ``cap`` of the resample's rows of each class (drawn without replacement)."""
    keep = []
    for c in np.unique(y[idx]):
        rows = idx[y[idx] == c]
        keep.append(rows if rows.size <= cap else rng.choice(rows, cap, replace=False))
    return np.sort(np.concatenate(keep))


def _prob(w: np.ndarray) -> np.ndarray:
    """Probabilities proportional to ``w`` (divided by the largest first, so weights up
    to 1.8e308 do not overflow their sum)."""
    scaled = w / w.max()
    return scaled / scaled.sum()


def _strata(y: np.ndarray, design: SampleDesign, stratify: bool) -> list[np.ndarray]:
    """The groups to draw from, one array of group codes per stratum."""
    G = design.n_groups
    if not stratify:
        return [np.arange(G)]
    classes = design.group_classes(y)
    assert classes is not None  # checked at the door (check_run_data)
    return [np.flatnonzero(classes == c) for c in np.unique(classes)]


def _rows(design: SampleDesign, drawn: np.ndarray) -> np.ndarray:
    members = design.members()
    return np.sort(np.concatenate([members[g] for g in drawn]))


def _group_resample(y: np.ndarray, rng: np.random.Generator, *, method: str,
                    fraction: float, stratify: bool, design: SampleDesign,
                    min_classes: int = 2) -> np.ndarray:
    replace = method == "bootstrap"
    gw = design.group_weights() if design.weighted_resampling else None
    strata = _strata(y, design, stratify)
    for _ in range(_MAX_REDRAWS):
        drawn = np.concatenate([
            rng.choice(s, size=max(1, round(fraction * s.size)), replace=replace,
                       p=None if gw is None else _prob(gw[s])) for s in strata])
        idx = _rows(design, drawn)
        if np.unique(y[idx]).size >= min_classes:
            return idx
    raise DataError(f"{_MAX_REDRAWS} resamples of the {design.n_groups} groups in a row held "
                    "a single class: too few groups carry the other classes (give more "
                    "groups, stratify=True, or a larger sample_fraction).")


def complementary_pair(
    y: np.ndarray, rng: np.random.Generator, *, stratify: bool,
    design: SampleDesign = NO_DESIGN, min_classes: int = 2,
) -> tuple[np.ndarray, np.ndarray]:
    """Two disjoint halves of the rows, each of size floor(n/2), sorted ascending.

    Shah and Samworth (2013, section 2.1): complementary pairs subsampling splits the n
    samples at random into two disjoint subsets of size floor(n/2) (one sample is left out
    when n is odd). With ``stratify`` each class is split in two halves of floor(n_c/2).
    A split leaving a single class in a half is drawn again from the same generator.
    With ``design.groups`` the G groups are split in two halves of floor(G/2) groups (per
    class of the groups with ``stratify``), and each half holds its groups' rows.
    """
    if design.grouped:
        strata = _strata(y, design, stratify)
        for _ in range(_MAX_REDRAWS):
            first, second = [], []
            for s in strata:
                order = rng.permutation(s)
                half = order.size // 2
                first.append(order[:half])
                second.append(order[half:2 * half])
            a = _rows(design, np.concatenate(first))
            b = _rows(design, np.concatenate(second))
            if np.unique(y[a]).size >= min_classes and np.unique(y[b]).size >= min_classes:
                return a, b
        raise DataError(f"{_MAX_REDRAWS} splits of the {design.n_groups} groups in a row "
                        "left a single class in a half: too few groups carry the other "
                        "classes.")
    for _ in range(_MAX_REDRAWS):
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
        if np.unique(y[a]).size >= min_classes and np.unique(y[b]).size >= min_classes:
            return a, b
    raise DataError(f"{_MAX_REDRAWS} splits of the {y.size} samples in a row left fewer than "
                    f"{min_classes} classes in a half: too few samples carry the other "
                    "classes (stratify=True splits each class in two).")
