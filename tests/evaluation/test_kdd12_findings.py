"""The statistics of the KDD'12 findings (examples/kdd12_findings.py, issue 49, item 1):
each power, the paper's effect and McNemar's exact power against an independent truth."""

from __future__ import annotations

import itertools
import runpy
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

KF = runpy.run_path(str(Path(__file__).resolve().parents[2] / "examples" / "kdd12_findings.py"),
                    run_name="kdd12_findings")


def test_the_z_tests_power_is_statsmodels_one_sample_normal_power():
    power = pytest.importorskip("statsmodels.stats.power")
    for n, e in [(62, 0.031), (1993, 0.031), (45, 0.2), (300, 0.0)]:
        ours = KF["z_power"](np.sqrt(n), e)
        theirs = power.NormalIndPower().power(effect_size=e, nobs1=n, alpha=0.05, ratio=0)
        assert ours == pytest.approx(theirs, abs=1e-10)


def test_the_stability_t_tests_net_power_is_statsmodels_paired_t_power():
    """Net power (A declared better minus B declared better) plus twice the wrong-way
    rejections is the two-sided power of statsmodels' one-sample / paired t test."""
    power = pytest.importorskip("statsmodels.stats.power")
    for d in (0.05, 0.2, 0.5):
        t = stats.t.ppf(0.975, 44)
        wrong_way = stats.nct.cdf(-t, 44, d * np.sqrt(45))
        theirs = power.TTestPower().power(effect_size=d, nobs=45, alpha=0.05)
        assert KF["net_stability_power"](d) + 2 * wrong_way == pytest.approx(theirs, abs=1e-9)


def test_the_paper_effect_gives_back_the_papers_points_under_its_own_procedure():
    """"One operator apart": 4.5 x the net probability of a significant win, on the paper's
    eight datasets (Table 1) for error and 45 pairs of folds for stability, is the paper's
    points difference; a difference beyond the model's reach is read as a net 0.99."""
    ns = list(KF["PAPER_N"].values())
    assert ns == [322, 253, 208, 72, 62, 60, 4157, 3237]
    for points in (0.1, 0.7, 2.9):
        e = KF["paper_effect"](points, "error")
        assert 4.5 * KF["net_error_power"](e, ns) == pytest.approx(points, abs=1e-9)
        d = KF["paper_effect"](-points, "stability")
        assert 4.5 * KF["net_stability_power"](d) == pytest.approx(points, abs=1e-9)
    assert KF["net_stability_power"](KF["paper_effect"](5.2, "stability")) == pytest.approx(
        0.99, abs=1e-9)
    assert KF["paper_effect"](0.0, "error") == 0.0


def test_mcnemars_exact_power_is_the_enumeration_of_its_outcomes():
    """Brute force: every (A-only wrong, B-only wrong) count of n samples, weighted by its
    multinomial probability, rejected when scipy's exact binomial test says so."""
    for n, p_disc, delta in [(12, 0.4, 0.2), (20, 0.3, -0.1), (15, 0.1, 0.1)]:
        p10, p01 = (p_disc + delta) / 2, (p_disc - delta) / 2
        truth = 0.0
        for b, c in itertools.product(range(n + 1), repeat=2):
            if b + c > n or b + c == 0:
                continue
            prob = stats.multinomial.pmf([b, c, n - b - c], n, [p10, p01, 1 - p_disc])
            if stats.binomtest(b, b + c, 0.5).pvalue < 0.05:
                truth += prob
        assert KF["mcnemar_exact_power"](n, p_disc, delta) == pytest.approx(truth, abs=1e-12)


def test_mcnemar_needs_six_one_sided_discordant_samples():
    m = KF["min_one_sided_discordant"]()
    assert m == 6
    assert stats.binomtest(m, m, 0.5).pvalue < 0.05 <= stats.binomtest(m - 1, m - 1).pvalue


def test_power_at_the_papers_effect_ignores_the_observed_variance():
    """The plug-in flaw of issue 49: two operators that never disagree on 62-102 samples
    (a zero standard error) do not give power 1; the power at a standardised effect only
    depends on the sample sizes, and McNemar's exact power at the paper's closedApr -
    nobagg effect on 62 samples is under 5 %."""
    e = KF["paper_effect"](0.7, "error")
    k = 3 / np.sqrt(1 / 62 + 1 / 72 + 1 / 102)
    assert KF["z_power"](k, e) < 0.1
    delta = e * np.sqrt(0.1) / np.sqrt(1 + e ** 2)
    assert KF["mcnemar_exact_power"](62, 0.1, delta) < 0.05
    # equivalence by two one-sided tests: no power without samples, full power with many
    assert KF["tost_power"](1.0, 0.05) == 0.0
    assert KF["tost_power"](1e4, 0.05) == pytest.approx(1.0)
