"""McNemar, paired tests and the KDD'12 points ranking against independent truths."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest
import scipy.stats
from hypothesis import given, settings
from hypothesis import strategies as st

from modelmine.diagnostics import (
    mcnemar_test,
    paired_ttest,
    points_ranking,
    wilcoxon_test,
)


def _correctness(n_a_only, n_b_only, n_both=20, n_none=5):
    a = np.r_[np.ones(n_a_only), np.zeros(n_b_only), np.ones(n_both), np.zeros(n_none)]
    b = np.r_[np.zeros(n_a_only), np.ones(n_b_only), np.ones(n_both), np.zeros(n_none)]
    return a.astype(bool), b.astype(bool)


def test_mcnemar_worked_example():
    a, b = _correctness(10, 2)
    exact = mcnemar_test(a, b)
    assert exact.pvalue == pytest.approx(0.0385742, abs=1e-7)
    assert exact.n_a_only == 10 and exact.n_b_only == 2 and exact.n_samples == 37
    chi = mcnemar_test(a, b, method="chi2")
    assert chi.statistic == pytest.approx(4.0833, abs=1e-4)
    assert chi.pvalue == pytest.approx(0.043308, abs=1e-6)
    assert exact.winner() == "a" and mcnemar_test(b, a).winner() == "b"


@pytest.mark.parametrize(("n10", "n01"), [(0, 0), (1, 0), (3, 3), (7, 1), (0, 15), (40, 31)])
def test_mcnemar_exact_against_binomtest_and_brute_force(n10, n01):
    a, b = _correctness(n10, n01)
    res = mcnemar_test(a, b)
    n = n10 + n01
    if n == 0:
        assert res.pvalue == 1.0
        return
    assert res.pvalue == pytest.approx(scipy.stats.binomtest(n10, n, 0.5).pvalue)
    tail = sum(math.comb(n, i) for i in range(min(n10, n01) + 1)) / 2**n
    assert res.pvalue == pytest.approx(min(1.0, 2 * tail))
    chi = mcnemar_test(a, b, method="chi2")
    stat = max(abs(n10 - n01) - 1, 0) ** 2 / n
    assert chi.statistic == pytest.approx(stat)
    assert chi.pvalue == pytest.approx(scipy.stats.chi2.sf(stat, 1))
    # Symmetric in its arguments.
    assert mcnemar_test(b, a).pvalue == pytest.approx(res.pvalue)


def test_mcnemar_from_predictions():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, 50)
    pa = np.where(rng.random(50) < 0.8, y, (y + 1) % 3)
    pb = np.where(rng.random(50) < 0.6, y, (y + 2) % 3)
    assert mcnemar_test(pa, pb, y_true=y) == mcnemar_test(pa == y, pb == y)


def test_mcnemar_bad_input():
    with pytest.raises(ValueError, match=r"The 'b' parameter of mcnemar_test must be an array "
                       r"of the same length as a \(3\)\. Got length 2 instead\."):
        mcnemar_test([True, False, True], [True, False])
    with pytest.raises(ValueError, match=r"'a' parameter of mcnemar_test must be a boolean "
                       r"vector of correct classifications"):
        mcnemar_test([1, 2, 1], [1, 1, 1])
    with pytest.raises(ValueError, match=r"'method' parameter of mcnemar_test must be one of "
                       r"'exact', 'chi2'\. Got 'chi' instead\. Did you mean 'chi2'\?"):
        mcnemar_test([True], [False], method="chi")


def test_paired_tests_against_scipy_and_formula():
    rng = np.random.default_rng(4)
    a = rng.normal(0.8, 0.05, 10)
    b = a - rng.normal(0.03, 0.02, 10)
    t = paired_ttest(a, b)
    d = a - b
    tt = d.mean() / (d.std(ddof=1) / math.sqrt(d.size))
    assert t.statistic == pytest.approx(tt)
    assert t.pvalue == pytest.approx(2 * scipy.stats.t.sf(abs(tt), d.size - 1))
    assert t.mean_difference == pytest.approx(d.mean())
    w = wilcoxon_test(a, b)
    ref = scipy.stats.wilcoxon(a, b)
    assert (w.statistic, w.pvalue) == pytest.approx((ref.statistic, ref.pvalue))
    assert paired_ttest(a, b, alternative="greater").pvalue == pytest.approx(t.pvalue / 2)


def test_paired_tests_degenerate():
    a = np.array([0.1, 0.2, 0.3])
    assert paired_ttest(a, a).pvalue == 1.0
    assert wilcoxon_test(a, a).pvalue == 1.0
    shifted = paired_ttest(a + 0.1, a)
    assert shifted.statistic == math.inf and shifted.pvalue == 0.0
    assert paired_ttest(a + 0.1, a, alternative="less").pvalue == 1.0


def _brute_points(values, test, alpha, higher):
    names = list(values)
    pts = dict.fromkeys(names, 0.0)
    for x, y in itertools.combinations(names, 2):
        if test == "ttest":
            r = scipy.stats.ttest_rel(values[x], values[y])
            p, diff = r.pvalue, np.mean(values[x]) - np.mean(values[y])
            if not higher:
                diff = -diff
        else:
            n10 = int(np.sum(values[x] & ~values[y]))
            n01 = int(np.sum(~values[x] & values[y]))
            p = scipy.stats.binomtest(n10, n10 + n01).pvalue if n10 + n01 else 1.0
            diff = n10 - n01
        if p < alpha and diff != 0:
            pts[x if diff > 0 else y] += 1.0
        else:
            pts[x] += 0.5
            pts[y] += 0.5
    return pts


@pytest.mark.parametrize("higher", [True, False])
def test_points_ranking_ttest_matches_brute_force(higher):
    rng = np.random.default_rng(7)
    values = {name: mu + rng.normal(0, 0.02, 10)
              for name, mu in [("nobagg", 0.70), ("closedApr", 0.78), ("mostFreq", 0.77),
                               ("mostRep", 0.60)]}
    res = points_ranking(values, test="ttest", higher_is_better=higher)
    brute = _brute_points(values, "ttest", 0.05, higher)
    assert res.table["points"].to_dict() == pytest.approx(brute)
    assert res.points.iloc[0] == max(brute.values())
    assert res.points.index[0] == ("closedApr" if higher else "mostRep")
    assert res.table["points"].sum() == pytest.approx(len(values) * (len(values) - 1) / 2)
    assert np.allclose(res.outcome + res.outcome.T, np.where(np.eye(4), np.nan, 1.0),
                       equal_nan=True)
    # DataFrame input (one column per method) gives the same ranking.
    res_df = points_ranking(pd.DataFrame(values), test="ttest", higher_is_better=higher)
    pd.testing.assert_series_equal(res_df.points, res.points)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n_methods=st.integers(2, 5))
def test_points_ranking_mcnemar_matches_brute_force(seed, n_methods):
    rng = np.random.default_rng(seed)
    acc = rng.uniform(0.4, 0.95, n_methods)
    values = {f"m{i}": rng.random(60) < acc[i] for i in range(n_methods)}
    res = points_ranking(values, test="mcnemar")
    assert res.table["points"].to_dict() == pytest.approx(_brute_points(values, "mcnemar",
                                                                        0.05, True))
    assert res.table["points"].sum() == pytest.approx(n_methods * (n_methods - 1) / 2)
    t = res.table
    assert (t["wins"] + t["ties"] + t["losses"] == n_methods - 1).all()


def test_points_ranking_with_predictions_and_nogueira():
    y = np.array([0, 1] * 30)
    good = y.copy()
    bad = np.where(np.arange(60) % 3 == 0, 1 - y, y)
    res = points_ranking({"good": good, "bad": bad}, test="mcnemar", y_true=y)
    assert res.points.to_dict() == {"good": 1.0, "bad": 0.0}
    rng = np.random.default_rng(0)
    stable = np.zeros((10, 30), bool)
    stable[:, :5] = True
    unstable = np.zeros((10, 30), bool)
    for i in range(10):
        unstable[i, rng.choice(30, 5, replace=False)] = True
    res = points_ranking({"unstable": unstable, "stable": stable}, test="nogueira")
    assert res.points.to_dict() == {"stable": 1.0, "unstable": 0.0}
    assert "PointsRanking" in repr(res)


def test_points_ranking_bad_input():
    with pytest.raises(ValueError, match=r"The 'test' parameter of points_ranking must be one "
                       r"of 'mcnemar', .*'nogueira'\. Got 'ttst' instead\. Did you mean "
                       r"'ttest'\?"):
        points_ranking({"a": [1, 2], "b": [1, 2]}, test="ttst")
    with pytest.raises(ValueError, match=r"at least 2 methods\. Got 1 method"):
        points_ranking({"a": [True]})
    with pytest.raises(ValueError, match=r"'b' parameter of paired_ttest must be an array of "
                       r"the same length"):
        points_ranking({"a": [1.0, 2.0, 3.0], "b": [1.0, 2.0]}, test="ttest")
