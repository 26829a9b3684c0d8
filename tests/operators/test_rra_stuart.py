"""RRA (Kolde et al. 2012) and Stuart (Stuart et al. 2003) against exact values."""

from __future__ import annotations

import string
from dataclasses import replace
from fractions import Fraction
from math import factorial

import numpy as np
import pytest

from modelmine.operators._registry import OperatorRegistry
from modelmine.operators._univariate import rra_scores, stuart_scores
from modelmine.testing import make_base_models

LISTS = [list("ufcw"), list("hfjyeqpkrv"), list("qefdkcxjmrtz")]
ITEMS = list(string.ascii_lowercase)  # 26 items in all
EXPECTED = {"f": 0.004608557, "e": 0.290168411, "c": 0.405553027}


def normalised():
    n = len(ITEMS)
    r = np.ones((len(LISTS), n))
    for i, lst in enumerate(LISTS):
        for pos, item in enumerate(lst, start=1):
            r[i, ITEMS.index(item)] = pos / n
    return r


def test_rra_issue_values():
    got = rra_scores(normalised())
    for item, value in EXPECTED.items():
        assert got[ITEMS.index(item)] == pytest.approx(value, abs=1e-6)


def test_rra_by_hand_for_f():
    # f at positions 2, 2, 3 of N = 26: Beta CDFs 1-(1-x)^3, 3x^2-2x^3, x^3 at the sorted
    # ranks; rho is the smallest, RRA = 3 rho.
    x = [2 / 26, 2 / 26, 3 / 26]
    rho = min(1 - (1 - x[0]) ** 3, 3 * x[1] ** 2 - 2 * x[1] ** 3, x[2] ** 3)
    assert rra_scores(normalised())[ITEMS.index("f")] == pytest.approx(3 * rho, rel=1e-12)


def test_rra_operator_on_base_models_from_the_lists():
    template = make_base_models(n_models=3, n_features_in=26, n_features=4)
    ranks = np.zeros((3, 26), dtype=int)
    subsets = np.zeros((3, 26), dtype=bool)
    for i, lst in enumerate(LISTS):
        order = [ITEMS.index(c) for c in lst] + [j for j in range(26)
                                                  if ITEMS[j] not in lst]
        ranks[i, order] = np.arange(1, 27)
        subsets[i, [ITEMS.index(c) for c in lst]] = True
    base = replace(template, subsets=subsets, ranks=ranks, scores=None,
                   feature_names=np.array(ITEMS), n_features=None,
                   selector={"name": "lists", "kind": "subset", "params": {}})
    sig = OperatorRegistry(group=None).aggregate(base, "rra", n_features=3, lists="subset")
    assert sig.names.tolist()[0] == "f"
    assert sig.scores[0] == pytest.approx(EXPECTED["f"], abs=1e-6)
    assert sig.score_name == "rra_score"


def stuart_exact(r):
    """Stuart's recursion in exact rational arithmetic."""
    r = sorted(Fraction(x) for x in r)
    n = len(r)
    v = [Fraction(1)]
    for k in range(1, n + 1):
        v.append(sum((-1) ** (i - 1) * v[k - i] * r[n - k] ** i / factorial(i)
                     for i in range(1, k + 1)))
    return factorial(n) * v[n]


@pytest.mark.parametrize("n", [1, 2, 3, 6, 12])
def test_stuart_against_exact_rationals(rng, n):
    r = np.round(rng.random((n, 5)), 3) + 0.001
    exact = [float(stuart_exact(r[:, j].tolist())) for j in range(5)]
    np.testing.assert_allclose(stuart_scores(r), exact, rtol=1e-9, atol=1e-12)


def test_stuart_is_probability_of_order_statistics(rng):
    # Q = P(U_(i) <= r_(i) for all i) for n uniforms: check by simulation (n = 3).
    r = np.array([0.2, 0.5, 0.7])
    u = np.sort(rng.random((200_000, 3)), axis=1)
    mc = np.mean(np.all(u <= r, axis=1))
    assert stuart_scores(r[:, None])[0] == pytest.approx(mc, abs=0.005)
    assert stuart_scores(np.array([[0.3]]))[0] == pytest.approx(0.3)


@pytest.mark.parametrize("b", [150, 400])
def test_stuart_with_many_lists_never_ranks_by_nan(b):
    # With many lists n! overflows and the alternating recursion loses precision: no NaN
    # may reach the ranking, a feature ranked first everywhere comes first, and beyond 200
    # lists (where almost every Q is lost) the operator refuses, pointing to rra.
    rng = np.random.default_rng(0)
    p = 60
    ranks = np.vstack([rng.permutation(np.arange(2, p + 1)) for _ in range(b)])
    ranks = np.column_stack([np.ones(b, dtype=int), ranks])
    template = make_base_models(n_models=b, n_features_in=p, n_features=5)
    base = replace(template, ranks=ranks, subsets=ranks <= 5, scores=None,
                   selector={"name": "lists", "kind": "ranking", "params": {}})
    registry = OperatorRegistry(group=None)
    if b > 200:
        with pytest.raises(ValueError, match=r"'stuart' needs at most 200 base models.*got "
                                             r"400. Use 'rra'"):
            registry.aggregate(base, "stuart", n_features=p)
        return
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sig = registry.aggregate(base, "stuart", n_features=p)
    assert sig.features[0] == 0
    assert not np.isnan(sig.scores).any()
    lost = sig.provenance["n_features_not_computable"]
    assert np.isinf(sig.scores).sum() == lost
    assert (lost > 0) == any("rra" in str(w.message) for w in caught)
    assert not any(issubclass(w.category, RuntimeWarning) for w in caught)


@pytest.mark.parametrize("m", [1, 20, 60])
def test_rra_operator_pruning_is_exact(m):
    # The operator computes exact RRA scores only for features whose lower bound can reach
    # the m best; the chosen features and their scores equal those of the full computation.
    base = make_base_models(n_models=300, n_features_in=400, n_features=20, random_state=3)
    sig = OperatorRegistry(group=None).aggregate(base, "rra", n_features=m)
    full = rra_scores(base.tied_ranks() / 400.0)
    mr = base.tied_ranks().mean(axis=0)
    expected = np.lexsort((np.arange(400), mr, full))[:m]
    assert set(sig.features.tolist()) == set(expected.tolist())
    np.testing.assert_allclose(np.sort(sig.scores), np.sort(full[expected]), rtol=1e-12)
