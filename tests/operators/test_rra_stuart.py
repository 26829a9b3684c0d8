"""RRA (Kolde et al. 2012) and Stuart (Stuart et al. 2003) against exact values."""

from __future__ import annotations

import string
from fractions import Fraction
from math import factorial

import mpmath
import numpy as np
import pytest

from modelmine.base_models import BaseModels
from modelmine.operators import OperatorRegistry
from modelmine.operators._univariate import rra_scores, stuart_scores
from modelmine.testing import make_base_models


def _lists(template, *, subsets, ranks, feature_names, n_features, kind):
    """Base models holding given ranked lists (a selector "lists" of the given kind)."""
    return BaseModels.from_records(
        subsets=subsets, ranks=ranks, scores=None, sample_indices=template.sample_indices,
        feature_names=feature_names, selector={"name": "lists", "kind": kind, "params": {}},
        n_features=n_features, resampling=dict(template.resampling), random_state=0,
        classes=template.classes, n_samples=template.n_samples)

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
    base = _lists(template, subsets=subsets, ranks=ranks, feature_names=np.array(ITEMS),
                  n_features=None, kind="subset")
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


@pytest.mark.parametrize("n", [1, 2, 3, 6, 12, 40])
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


def stuart_mpmath(r, digits):
    """log Q from Stuart's recursion in ``digits``-digit arithmetic (mpmath): the recursion
    cancels, so the precision must exceed the cancellation (about b digits, plus the
    digits of Q itself)."""
    mpmath.mp.dps = digits
    r = sorted(mpmath.mpf(Fraction(x).numerator) / Fraction(x).denominator for x in r)
    n = len(r)
    fact = [mpmath.mpf(1)]
    for i in range(1, n + 1):
        fact.append(fact[-1] * i)
    v = [mpmath.mpf(1)]
    for k in range(1, n + 1):
        x, acc, power = r[n - k], mpmath.mpf(0), mpmath.mpf(1)
        for i in range(1, k + 1):
            power *= x
            term = v[k - i] * power / fact[i]
            acc += term if i % 2 else -term
        v.append(acc)
    return float(mpmath.log(fact[n] * v[n]))


def _rank_columns(rng, b, p=2000):
    """Normalised ranks of three kinds of feature: anywhere, near the top of every list,
    and ties (a few rank values shared by many lists)."""
    anywhere = rng.integers(1, p + 1, b)
    top = rng.integers(1, 20, b)
    ties = rng.choice([1, 2, 5, 40, 900], b)
    return np.column_stack([anywhere, top, ties]) / p


@pytest.mark.parametrize("b", [10, 50, 200])
def test_stuart_equals_high_precision_recursion(b):
    r = _rank_columns(np.random.default_rng(b), b)
    ours = stuart_scores(r, log=True)
    for j in range(r.shape[1]):
        ref = stuart_mpmath(r[:, j].tolist(), digits=2 * b + 60)
        assert abs(ours[j] - ref) <= 1e-9 * max(1.0, abs(ref)), (j, ours[j], ref)


@pytest.mark.slow
def test_stuart_equals_high_precision_recursion_at_400_lists():
    r = _rank_columns(np.random.default_rng(400), 400)[:, :2]
    ours = stuart_scores(r, log=True)
    for j in range(r.shape[1]):
        ref = stuart_mpmath(r[:, j].tolist(), digits=1000)
        assert abs(ours[j] - ref) <= 1e-9 * max(1.0, abs(ref))


@pytest.mark.parametrize("b", [150, 1000])
def test_stuart_with_many_lists_keeps_every_feature(b):
    # The alternating recursion lost Q for most features beyond a few dozen lists; now
    # every feature has its Q, a feature ranked first everywhere comes first, and the
    # order of the others follows their ranks (a feature ranked better than another in
    # every list has the lower Q).
    rng = np.random.default_rng(0)
    p = 60
    ranks = np.vstack([rng.permutation(np.arange(2, p + 1)) for _ in range(b)])
    ranks = np.column_stack([np.ones(b, dtype=int), ranks])
    template = make_base_models(n_models=b, n_features_in=p, n_features=5)
    base = _lists(template, subsets=ranks <= 5, ranks=ranks,
                  feature_names=template.feature_names, n_features=5, kind="ranking")
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        sig = OperatorRegistry(group=None).aggregate(base, "stuart", n_features=p)
    assert sig.features[0] == 0 and sig.score_name == "stuart_log10_q"
    assert np.isfinite(sig.scores).all() and (np.diff(sig.scores) >= 0).all()
    log_q = stuart_scores(ranks / p, log=True)
    better = ranks[:, 1:] - 1  # each feature moved up by one rank in every list
    assert (stuart_scores(np.maximum(better, 1) / p, log=True) <= log_q[1:] + 1e-12).all()


def test_stuart_refuses_ranks_outside_the_unit_interval():
    with pytest.raises(ValueError, match=r"The 'normalised' parameter of stuart_scores must "
                                         r"be normalised ranks in \(0, 1\]"):
        stuart_scores(np.array([[0.0, 0.5]]))


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


@pytest.mark.parametrize(("b", "m"), [(7, 5), (60, 1), (60, 20), (300, 20), (300, 200)])
def test_stuart_operator_pruning_is_exact(b, m):
    # The operator rules out by bounds the features that cannot be among the m best and
    # computes Q exactly for the rest: its features and scores equal those of the exact Q
    # of every feature (the brute-force oracle), ties included.
    p = 200
    base = make_base_models(n_models=b, n_features_in=p, n_features=15, random_state=b)
    sig = OperatorRegistry(group=None).aggregate(base, "stuart", n_features=m)
    full = stuart_scores(base.tied_ranks() / float(p), log=True) / np.log(10.0)
    order = np.argsort(full, kind="stable")
    cut = full[order[m - 1]]
    assert set(order[full[order] < cut].tolist()) <= set(sig.features.tolist())
    assert set(sig.features.tolist()) <= set(np.flatnonzero(full <= cut).tolist())
    np.testing.assert_allclose(sig.scores, full[sig.features], rtol=1e-12)


def test_stuart_bounds_hold_for_every_feature():
    # The vectorised bounds the pruning rests on: a lower and an upper bound of each
    # binomial tail, against scipy's exact tail where it is representable.
    from scipy.stats import binom

    from modelmine.operators._univariate import _log_tail_bounds

    rng = np.random.default_rng(5)
    n = 400
    c = rng.integers(1, n + 1, 5000).astype(float)
    x = rng.uniform(0, 1, 5000) ** rng.uniform(1, 8, 5000)
    lower, upper = _log_tail_bounds(n, c, x)
    exact = binom.logsf(c - 1, n, x)
    ok = exact > -680.0  # scipy's own tail is a subnormal double below
    assert (lower[ok] <= exact[ok] + 1e-7).all() and (upper[ok] >= exact[ok] - 1e-7).all()
    assert (lower <= upper).all()
    # where doubles cannot hold the tail, against 50-digit arithmetic
    for i in np.flatnonzero(~ok)[:60]:
        ref = float(mpmath.log(mpmath.betainc(c[i], n - c[i] + 1, 0, mpmath.mpf(x[i]),
                                              regularized=True)))
        assert lower[i] <= ref + 1e-7 and upper[i] >= ref - 1e-7, (c[i], x[i])
