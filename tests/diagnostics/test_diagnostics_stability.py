"""Stability measures against worked examples, brute-force double loops and simulation."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.spatial.distance import canberra
from subset_oracles import brute_mean, brute_pair, random_subsets

from modelmine.diagnostics import (
    available_measures,
    canberra_stability,
    dice_stability,
    jaccard_stability,
    kuncheva_stability,
    nogueira_compare,
    nogueira_stability,
    nogueira_test,
    pearson_stability,
    score_pearson_stability,
    score_std_stability,
    selection_frequency,
    spearman_stability,
    stability,
)

A1 = np.array([[1, 1, 1, 0, 0], [1, 1, 1, 0, 0], [1, 1, 1, 0, 0]], dtype=bool)
A2 = np.array([[1, 1, 1, 0, 0], [1, 0, 1, 1, 0], [1, 0, 1, 0, 0]], dtype=bool)
Z3 = np.array([[1, 1, 1, 1, 0], [0, 1, 1, 1, 0], [0, 1, 1, 1, 1]], dtype=bool)
ZNEG = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 1]], dtype=bool)


# ---------------------------------------------------------------- worked examples


@pytest.mark.parametrize(
    ("Z", "measure", "expected"),
    [
        (A1, "jaccard", 1.0),
        (A2, "jaccard", 11 / 18),
        (A1, "pearson", 1.0),
        (A2, "pearson", 0.5),
        (A1, "nogueira", 1.0),
        (A2, "nogueira", 0.4642857142857143),
        (Z3, "jaccard", 0.7),
        (Z3, "nogueira", 0.318181818),
        (ZNEG, "nogueira", -0.5),
    ],
)
def test_worked_examples(Z, measure, expected):
    # Nogueira and Brown (2016) A1/A2 and the examples.
    assert float(stability(Z, measure)) == pytest.approx(expected, abs=1e-7)


def test_kuncheva_worked_example():
    # k = 3, r = 2, d = 10: (2 - 0.9) / (3 - 0.9) (Kuncheva 2007).
    res = kuncheva_stability([[0, 1, 2], [1, 2, 3]], 10)
    assert res.value == pytest.approx(0.5238095, abs=1e-7)
    assert res.value == pytest.approx(1.1 / 2.1)


def test_index_arrays_equal_bool_matrix():
    idx = [np.flatnonzero(r) for r in A2]
    for name in ("jaccard", "dice", "pearson", "nogueira"):
        assert float(stability(idx, name, n_features_in=5)) == pytest.approx(
            float(stability(A2, name))
        )
    # 0/1 integer matrices and lists of bool masks are selection matrices too.
    for other in (A2.astype(int), list(A2)):
        np.testing.assert_array_equal(selection_frequency(other).counts, A2.sum(axis=0))
        np.testing.assert_array_equal(jaccard_stability(other, pairwise=True).pairwise,
                                      jaccard_stability(A2, pairwise=True).pairwise)
    # A 2-D integer array with n_features set and values beyond 0/1 holds indices.
    np.testing.assert_array_equal(selection_frequency(np.array([[0, 2], [3, 4]]), 5).counts,
                                  [1, 0, 1, 1, 1])


# ---------------------------------------------------------------- double-loop oracles


@pytest.mark.parametrize("seed", range(5))
def test_kuncheva_matches_double_loop(seed):
    rng = np.random.default_rng(seed)
    Z = random_subsets(rng, 15, 20, [6])
    res = kuncheva_stability(Z, pairwise=True)
    assert res.value == pytest.approx(brute_mean(Z, "kuncheva"), abs=1e-12)
    i, j = 2, 7
    assert res.pairwise[i, j] == pytest.approx(brute_pair(Z[i], Z[j], "kuncheva", 20))


def test_pearson_edge_cases():
    # Nogueira and Brown (2016): 1 when both empty or both full, 0 when exactly one is.
    d = 4
    empty, full = np.zeros(d, bool), np.ones(d, bool)
    some = np.array([1, 1, 0, 0], bool)
    assert pearson_stability([empty, empty]).value == 1.0
    assert pearson_stability([full, full]).value == 1.0
    assert pearson_stability([empty, some]).value == 0.0
    assert pearson_stability([full, some]).value == 0.0
    assert pearson_stability([empty, full]).value == 0.0


# ---------------------------------------------------------------- invariants


@settings(max_examples=60, deadline=None)
@given(
    M=st.integers(2, 12), d=st.integers(2, 15), data=st.data(),
)
def test_constant_cardinality_pearson_kuncheva_nogueira_agree(M, d, data):
    # Nogueira et al. (2018): with one subset size the three coincide.
    k = data.draw(st.integers(1, d - 1))
    seed = data.draw(st.integers(0, 2**32 - 1))
    Z = random_subsets(np.random.default_rng(seed), M, d, [k])
    p = pearson_stability(Z).value
    assert kuncheva_stability(Z).value == pytest.approx(p, abs=1e-9)
    assert nogueira_stability(Z).value == pytest.approx(p, abs=1e-9)


def test_exact_frequencies_design():
    # Cyclic design: every feature selected exactly k/d of the time. The population
    # stability of such a selection is 0 (S = S_max); the unbiased sample estimator
    # gives 1 - M/(M-1) = -1/(M-1) exactly, as do pairwise Pearson and Kuncheva.
    M = d = 15
    k = 6
    Z = np.zeros((M, d), bool)
    for i in range(M):
        Z[i, (i + np.arange(k)) % d] = True
    assert np.allclose(Z.mean(axis=0), k / d)
    assert nogueira_stability(Z).value == pytest.approx(-1 / (M - 1))
    assert pearson_stability(Z).value == pytest.approx(-1 / (M - 1))


def test_random_selection_has_zero_stability():
    # Random 6-of-15 selections: p_f = 6/15 for every feature, population stability 0.
    # The estimator is unbiased: its mean over replications is 0 within Monte Carlo error.
    rng = np.random.default_rng(11)
    vals = [nogueira_stability(random_subsets(rng, 10, 15, [6])).value for _ in range(400)]
    se = np.std(vals) / math.sqrt(len(vals))
    assert abs(np.mean(vals)) < 4 * se
    # And one large collection sits within its own confidence interval of 0.
    big = nogueira_stability(random_subsets(rng, 3000, 15, [6]))
    lo, hi = big.confidence_interval
    assert lo <= 0.0 <= hi and abs(big.value) < 0.01


# ---------------------------------------------------------------- variance and CI


def _mixture(rng, M, d, a, b, pi, eps):
    """Subsets of varying size: the first a features always, features a..b-1 with
    probability 1 - pi (all together), plus independent noise eps on every feature."""
    big = rng.random(M) >= pi
    Z = np.zeros((M, d), bool)
    Z[:, :a] = True
    Z[big, a:b] = True
    Z |= rng.random((M, d)) < eps
    return Z


def _mixture_population_stability(d, a, b, pi, eps):
    base = np.zeros(d)
    base[:a] = 1
    base[a:b] = 1 - pi
    p = base + (1 - base) * eps
    q = p.sum() / d
    return 1 - np.mean(p * (1 - p)) / (q * (1 - q))


def _variance_other_sign(Z):
    """The variance with the cardinality term's sign of the authors' R file."""
    M, d = Z.shape
    Zf = Z.astype(float)
    p, k = Zf.mean(0), Zf.sum(1)
    kbar = p.sum()
    den = kbar / d * (1 - kbar / d)
    v = 1 - M / (M - 1) * np.mean(p * (1 - p)) / den
    phi = (Zf @ p / d - k * kbar / d**2 - v / 2 * (2 * k * kbar / d**2 - k / d - kbar / d + 1))
    phi /= den
    return 4 / M**2 * np.sum((phi - phi.mean()) ** 2)


@pytest.mark.parametrize(
    ("kind", "M", "seed"),
    [("mixture", 100, 5), ("bernoulli", 100, 6)],
)
def test_confidence_interval_coverage(kind, M, seed):
    """Coverage of the 95 % interval on selections with a known population stability,
    and the variance against the Monte Carlo variance of the estimate (varying sizes)."""
    rng = np.random.default_rng(seed)
    print("seed", seed)
    reps = 400
    if kind == "mixture":
        d, a, b, pi, eps = 50, 5, 10, 0.5, 0.05
        truth = _mixture_population_stability(d, a, b, pi, eps)
        draw = lambda: _mixture(rng, M, d, a, b, pi, eps)  # noqa: E731
    else:
        pf = np.r_[np.full(5, 0.9), np.full(15, 0.1)]
        q = pf.mean()
        truth = 1 - np.mean(pf * (1 - pf)) / (q * (1 - q))
        draw = lambda: rng.random((M, pf.size)) < pf  # noqa: E731
    hits, values, variances, other = 0, [], [], []
    for _ in range(reps):
        Z = draw()
        res = nogueira_stability(Z)
        lo, hi = res.confidence_interval
        hits += lo <= truth <= hi
        values.append(res.value)
        variances.append(res.variance)
        other.append(_variance_other_sign(Z))
    coverage = hits / reps
    assert abs(coverage - 0.95) <= 0.03, coverage
    mc_var = np.var(values, ddof=1)
    assert np.mean(variances) == pytest.approx(mc_var, rel=0.25)
    if kind == "mixture":
        # Where sizes vary strongly and kbar/d is far from 1/2, the other sign's variance
        # is several times too large: the check above discriminates between the two.
        assert np.mean(other) > 3 * mc_var


def test_interval_level_and_standard_error():
    res = nogueira_stability(Z3, confidence_level=0.9)
    z = scipy.stats.norm.ppf(0.95)
    assert res.confidence_interval == pytest.approx(
        (res.value - z * math.sqrt(res.variance), res.value + z * math.sqrt(res.variance)))
    assert res.interval(0.9) == pytest.approx(res.confidence_interval)
    wide = res.interval(0.99)
    assert wide[0] < res.confidence_interval[0] and wide[1] > res.confidence_interval[1]


def test_variance_matches_authors_python_formula_on_worked_example():
    # Independent evaluation of the influence-function variance with a Python loop, as in
    # the authors' reference Python implementation (Nogueira et al. 2018).
    Z = A2.astype(float)
    M, d = Z.shape
    p = Z.mean(0)
    kbar = p.sum()
    den = kbar / d * (1 - kbar / d)
    stab = 1 - M / (M - 1) * np.mean(p * (1 - p)) / den
    phi = []
    for i in range(M):
        ki = Z[i].sum()
        phi.append((np.mean(Z[i] * p) - ki * kbar / d**2
                    + stab / 2 * (2 * ki * kbar / d**2 - ki / d - kbar / d + 1)) / den)
    phi = np.array(phi)
    var = 4 / M**2 * np.sum((phi - phi.mean()) ** 2)
    assert nogueira_stability(A2).variance == pytest.approx(var)


# ---------------------------------------------------------------- hypothesis tests


def test_value_test_size_and_statistic():
    rng = np.random.default_rng(21)
    d, a, b, pi, eps = 50, 5, 10, 0.5, 0.05
    truth = _mixture_population_stability(d, a, b, pi, eps)
    rejections = 0
    reps = 300
    for _ in range(reps):
        Z = _mixture(rng, 100, d, a, b, pi, eps)
        r = nogueira_test(Z, truth, alternative="two-sided")
        rejections += r.reject(0.05)
    assert abs(rejections / reps - 0.05) < 0.035
    r = nogueira_test(Z, truth)
    est = r.estimates[0]
    assert r.statistic == pytest.approx((est.value - truth) / est.standard_error)
    assert r.pvalue == pytest.approx(scipy.stats.norm.sf(r.statistic))
    # Far below the estimate: H1 'greater' is accepted, H1 'less' is not.
    assert nogueira_test(Z, truth - 0.5).pvalue < 1e-6
    assert nogueira_test(Z, truth - 0.5, alternative="less").pvalue > 0.99


def test_compare_two_procedures():
    rng = np.random.default_rng(3)
    stable = _mixture(rng, 60, 50, 5, 10, 0.5, 0.02)
    unstable = _mixture(rng, 60, 50, 2, 10, 0.5, 0.2)
    r = nogueira_compare(unstable, stable)
    e1, e2 = r.estimates
    se = math.sqrt(e1.variance + e2.variance)
    assert r.statistic == pytest.approx((e2.value - e1.value) / se)
    assert r.statistic > 0 and r.pvalue < 1e-3 and r.reject()
    # Same procedure twice: rejections at about the nominal rate.
    rej = sum(
        nogueira_compare(_mixture(rng, 80, 50, 5, 10, 0.5, 0.05),
                         _mixture(rng, 80, 50, 5, 10, 0.5, 0.05)).reject()
        for _ in range(200)
    )
    assert rej / 200 < 0.1


# ---------------------------------------------------------------- rankings and scores


def _random_rankings(rng, M, d):
    return np.array([rng.permutation(d) + 1 for _ in range(M)])


@pytest.mark.parametrize("seed", range(3))
def test_rank_and_score_measures_match_scipy(seed):
    rng = np.random.default_rng(seed)
    M, d = 7, 25
    base = rng.normal(size=d)
    S = base + rng.normal(scale=0.7, size=(M, d))
    R = scipy.stats.rankdata(-S, axis=1, method="ordinal").astype(int)
    pairs = list(itertools.combinations(range(M), 2))
    sp_ = spearman_stability(R, pairwise=True)
    assert sp_.value == pytest.approx(
        np.mean([scipy.stats.spearmanr(R[i], R[j])[0] for i, j in pairs]))
    assert sp_.pairwise[1, 4] == pytest.approx(scipy.stats.spearmanr(R[1], R[4])[0])
    ca = canberra_stability(R, pairwise=True)
    raw = np.mean([canberra(R[i], R[j]) for i, j in pairs])
    assert ca.details["mean_distance"] == pytest.approx(raw)
    # Expected Canberra distance of random permutations, by brute force over all pairs.
    a = np.arange(1, d + 1)
    expected = np.sum(np.abs(a[:, None] - a) / (a[:, None] + a)) / d
    assert ca.details["expected_random"] == pytest.approx(expected)
    assert ca.value == pytest.approx(raw / expected)
    assert not ca.higher_is_more_stable
    pe = score_pearson_stability(S)
    C = np.corrcoef(S)
    assert pe.value == pytest.approx(np.mean([C[i, j] for i, j in pairs]))
    std_raw = score_std_stability(S, normalize=False)
    assert std_raw.value == pytest.approx(np.mean(np.std(S, axis=0, ddof=1)))
    mm = (S - S.min(1, keepdims=True)) / np.ptp(S, axis=1, keepdims=True)
    assert score_std_stability(S).value == pytest.approx(np.mean(np.std(mm, axis=0, ddof=1)))


def test_canberra_random_rankings_near_one_identical_zero():
    rng = np.random.default_rng(0)
    R = _random_rankings(rng, 40, 200)
    assert canberra_stability(R).value == pytest.approx(1.0, abs=0.03)
    same = np.tile(np.arange(1, 51), (4, 1))
    assert canberra_stability(same).value == 0.0
    assert spearman_stability(same).value == pytest.approx(1.0)


def test_spearman_of_reversed_rankings():
    r = np.arange(1, 11)
    assert spearman_stability([r, r[::-1]]).value == pytest.approx(-1.0)


def test_selection_frequency():
    rng = np.random.default_rng(1)
    Z = random_subsets(rng, 20, 12, [2, 5])
    res = selection_frequency(Z, feature_names=[f"g{i}" for i in range(12)])
    counts = [sum(Z[i, f] for i in range(20)) for f in range(12)]
    assert res.counts.tolist() == counts
    assert np.allclose(res.frequencies, np.array(counts) / 20)
    s = res.to_series()
    assert s.iloc[0] == res.frequencies.max()
    assert list(res.top(3)) == list(np.argsort(-res.frequencies, kind="stable")[:3])
    with pytest.raises(ValueError):
        res.frequencies[0] = 1.0


# ---------------------------------------------------------------- registry and errors


def test_registry_lists_all_measures():
    assert set(available_measures()["name"]) == {
        "jaccard", "dice", "kuncheva", "pearson", "nogueira", "spearman", "canberra",
        "score_pearson", "score_std",
    }
    R = np.tile(np.arange(1, 6), (3, 1))
    assert stability(R, "spearman").value == pytest.approx(1.0)
    assert stability(R.astype(float), "score_std").value == 0.0


def test_unknown_measure_lists_names_and_closest():
    with pytest.raises(ValueError, match=r"The 'measure' parameter of stability must be one "
                       r"of the available measures \('jaccard', .*'score_std'\)\. Got 'jacard' "
                       r"instead\. Did you mean "
                       r"'jaccard'\?"):
        stability(A2, "jacard")


def test_kuncheva_unequal_sizes_names_nogueira():
    with pytest.raises(ValueError, match=r"The 'subsets' parameter of kuncheva_stability must "
                       r"be subsets of one common size .*'nogueira'.*Got sizes \[2, 3\]"):
        kuncheva_stability(A2)


@pytest.mark.parametrize("func", [jaccard_stability, dice_stability, kuncheva_stability,
                                  pearson_stability, nogueira_stability])
def test_fewer_than_two_subsets(func):
    with pytest.raises(ValueError, match=r"The 'subsets' parameter of \w+ must be a collection "
                       r"of at least 2 subsets\. Got 1 subset\(s\) instead\."):
        func(A2[:1])


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([[0, 1], [2]],), r"'n_features_in' parameter of jaccard_stability must be an integer"),
        (([[0, 7], [2]], 5), r"must be feature indices in \[0, 4\]"),
        (([[0, 0], [2]], 5), r"must be subsets without repeated feature indices"),
        ((np.array([[0, 2, 3]]), 5), r"at least 2 subsets"),
    ],
)
def test_bad_subsets(args, match):
    with pytest.raises(ValueError, match=match):
        jaccard_stability(*args)


def test_bad_rankings_and_confidence_level():
    with pytest.raises(ValueError, match=r"'rankings' parameter of spearman_stability must be "
                       r"rows of ranks in \[1, 3\] \(rank 1 = best; ties sharing their "
                       r"average rank\)"):
        spearman_stability([[1, 2, 2], [1, 2, 3]])
    with pytest.raises(ValueError, match=r"'rankings' parameter of canberra_stability must be "
                       r"rows that are permutations of the ranks 1\.\.3"):
        canberra_stability([[1, 2.5, 2.5], [1, 2, 3]])
    with pytest.raises(ValueError, match=r"'confidence_level' parameter of nogueira_stability"):
        nogueira_stability(A2, confidence_level=1.0)
    with pytest.raises(ValueError, match=r"'subsets_2' parameter of nogueira_compare must be "
                       r"subsets over the same 5 features"):
        nogueira_compare(A2, np.ones((3, 4), bool))


def test_spearman_with_tied_ranks_equals_scipy(rng):
    # Fractional ranks (ties sharing their average rank) give Spearman's tie-corrected rho,
    # which scipy computes from the raw scores.
    scores = rng.integers(0, 4, size=(5, 40)).astype(float)  # many ties
    ranks = scipy.stats.rankdata(-scores, method="average", axis=1)
    expected = np.mean([scipy.stats.spearmanr(scores[i], scores[j]).statistic
                        for i in range(5) for j in range(i + 1, 5)])
    assert spearman_stability(ranks).value == pytest.approx(expected, rel=1e-12)


def test_results_are_frozen_and_readable():
    res = jaccard_stability(A2, pairwise=True)
    assert "jaccard" in repr(res) and "0.611111" in repr(res)
    with pytest.raises(AttributeError):
        res.value = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError):
        res.pairwise[0, 1] = 0.0
    assert "ci95" in repr(nogueira_stability(A2))


@pytest.mark.parametrize("measure", ["jaccard", "dice"])
@pytest.mark.parametrize("n_empty", [5, 3])
def test_ratio_stability_with_empty_subsets_equals_the_pairwise_average(measure, n_empty):
    """Models that select nothing (an l1 fit at a strong penalty) crashed the blocked
    computation when every subset was empty (an assertion in the sparse path). Oracle: the
    average over ordered pairs, two empty subsets counting 1 (the documented convention)."""
    rng = np.random.default_rng(0)
    Z = np.zeros((5, 40), dtype=bool)
    Z[n_empty:] = rng.random((5 - n_empty, 40)) < 0.2
    func = jaccard_stability if measure == "jaccard" else dice_stability

    def pair(a, b):
        if not a.any() and not b.any():
            return 1.0
        r = (a & b).sum()
        return r / (a | b).sum() if measure == "jaccard" else 2 * r / (a.sum() + b.sum())

    expected = np.mean([pair(Z[i], Z[j]) for i in range(5) for j in range(5) if i != j])
    assert func(Z).value == pytest.approx(expected, rel=1e-12)
