"""Error-controlled selection: PFER bounds, stabilitySelection, stabl (issue 12).

Truths: the bounds' formulas computed by hand from Meinshausen and Buehlmann (2010,
Theorem 1) and Shah and Samworth (2013, equation 9), the published outputs of the R
package stabs (its vignette "Using stabs"), a linear scan as stabs does it, brute-force
selections, and simulations with known truth (the r-concave tail D against binomial tails:
``tests/kernels/test_r_concave_tail.py``).
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import pytest

import modelmine as mm
from modelmine.exceptions import NotApplicableError
from modelmine.operators import fdp_plus, pfer_bound, threshold_for_pfer
from modelmine.testing import base_models_from_subsets, check_operator, make_base_models

# ---------------------------------------------------------------- bounds


def test_mb_bound_by_hand():
    # q^2 / ((2 pi - 1) p) = 100 / (0.8 * 1000)
    assert pfer_bound(threshold=0.9, q=10, p=1000) == pytest.approx(0.125)
    # solved for pi: (q^2 / (PFER p) + 1) / 2 = (100 / 500 + 1) / 2
    assert threshold_for_pfer(pfer=0.5, q=10, p=1000) == pytest.approx(0.6)


def test_mb_threshold_stabs_vignette():
    # stabs vignette: stabsel_parameters(q = 3, PFER = 1, p = 10, sampling.type = "MB")
    # prints "Cutoff: 0.95; q: 3; PFER: 1".
    assert threshold_for_pfer(pfer=1, q=3, p=10, method="mb") == pytest.approx(0.95)
    assert pfer_bound(threshold=0.95, q=3, p=10) == pytest.approx(1.0)


def test_mb_unreachable_pfer_is_inf():
    # q^2 / p = 4 > 1: even pi = 1 bounds E[V] by 4 only.
    assert math.isinf(threshold_for_pfer(pfer=1, q=20, p=100))


def test_unimodal_stabs_vignette():
    # stabs vignette, stabsel(bodyfat[, -2] (p = 9), cutoff = 0.75, PFER = 1), B = 50
    # pairs: "Cutoff: 0.75; q: 2; PFER (*): 0.454".
    value = pfer_bound(threshold=0.75, q=2, p=9, method="ss-unimodal", n_pairs=50)
    assert float(f"{value:.3g}") == 0.454
    # by hand: q^2 / p / (2 (2 pi - 1 - 1/(2B))) = (4/9) / 0.98
    assert value == pytest.approx(4 / 9 / 0.98)


def test_unimodal_upper_branch_by_hand():
    # pi > 3/4: q^2 / p * 4 (1 - pi + 1/(2B)) / (1 + 1/B)
    value = pfer_bound(threshold=0.9, q=2, p=9, method="ss-unimodal", n_pairs=50)
    assert value == pytest.approx(4 / 9 * 4 * (0.1 + 0.01) / 1.02)


def test_unimodal_threshold_by_hand():
    # stabs' optimal_cutoff grid 0.52, 0.53, ... above 0.5 + min((2/9)^2, 0.01 + 0.75
    # (2/9)^2) = 0.547; bounds (4/9) / (2 (2 pi - 1.01)): 0.55 -> 2.47, 0.60 -> 1.17,
    # 0.61 -> 1.058, 0.62 -> 0.966 < 1.
    assert threshold_for_pfer(pfer=1, q=2, p=9, method="ss-unimodal") == pytest.approx(0.62)


@pytest.mark.parametrize("q,p,b", [(2, 9, 20), (5, 100, 10), (20, 500, 15)])
def test_r_concave_threshold_equals_stabs_scan(q, p, b):
    # stabs' optimal_cutoff scans k/(2B) from 1 down and keeps the last threshold before
    # the bound first exceeds PFER; the bisection must find the same.
    for target in (0.5, 1.0, 3.0):
        grid = np.arange(2 * b, 0, -1) / (2 * b)
        chosen = math.inf
        for pi in grid[grid >= 0.5]:
            if pfer_bound(threshold=float(pi), q=q, p=p, method="ss-r-concave",
                          n_pairs=b) > target:
                break
            chosen = float(pi)
        assert threshold_for_pfer(pfer=target, q=q, p=p, method="ss-r-concave", n_pairs=b) == chosen


def test_r_concave_q_limit():
    # stabs' maxQ(p = 10, B = 50): q with ceil(20 q) + 1 - 100 < 0, i.e. q <= 4.
    assert pfer_bound(threshold=0.9, q=4, p=10, method="ss-r-concave") <= 10
    with pytest.raises(ValueError, match="'q' parameter of pfer_bound must be at most 4"):
        pfer_bound(threshold=0.9, q=5, p=10, method="ss-r-concave")


@pytest.mark.parametrize(
    "kwargs,match",
    [
        (
            {"threshold": 0.5},
            r"'threshold' parameter of pfer_bound must be a real number in "
            r"\(0.5, 1\]",
        ),
        ({"threshold": 1.2}, "'threshold' parameter"),
        ({"threshold": 0.9, "method": "ss"}, "'method' parameter of pfer_bound must be one of"),
        (
            {"threshold": 0.9, "q": 20},
            r"'q' parameter of pfer_bound must be a real number in "
            r"\(0, 10\]",
        ),
        (
            {"threshold": 0.51, "method": "ss-unimodal"},
            "'threshold' parameter of pfer_bound must be at least",
        ),
    ],
)
def test_pfer_bound_bad_input(kwargs, match):
    args = {"q": 3, "p": 10, **kwargs}
    with pytest.raises(ValueError, match=match):
        pfer_bound(**args)


@pytest.mark.parametrize("pfer", [0, -1.0])
def test_threshold_for_pfer_bad_pfer(pfer):
    with pytest.raises(
        ValueError,
        match=r"'pfer' parameter of threshold_for_pfer must be a "
        r"real number in \(0, inf\)",
    ):
        threshold_for_pfer(pfer=pfer, q=3, p=10)


# ---------------------------------------------------------------- operators


def _with_resampling(base, method, fraction=0.5):
    return dataclasses.replace(base, spec=base.spec.replace(resampling=method,
                                                            sample_fraction=fraction))


def _hand_base():
    rng = np.random.default_rng(3)
    S = rng.random((20, 30)) < np.linspace(0.95, 0.05, 30)
    return _with_resampling(base_models_from_subsets(S), "complementary-pairs")


def test_stability_selection_threshold_brute_force():
    base = _hand_base()
    sig = mm.aggregate(base, "stabilitySelection", threshold=0.8)
    freq = base.subsets.mean(axis=0)
    assert set(sig.features.tolist()) == set(np.flatnonzero(freq >= 0.8).tolist())
    assert list(sig.scores) == sorted(sig.scores, reverse=True)
    prov = sig.provenance
    q = base.subsets.sum(axis=1).mean()
    assert prov["q"] == pytest.approx(q) and prov["p"] == 30
    assert prov["bound"] == "ss-unimodal" and prov["n_pairs"] == 10
    assert prov["pfer_bound"] == pytest.approx(
        pfer_bound(threshold=0.8, q=q, p=30, method="ss-unimodal", n_pairs=10)
    )
    assert "unimodal" in prov["assumptions"]


def test_stability_selection_pfer_threshold_and_cap():
    base = _with_resampling(_hand_base(), "subsample", 0.5)
    q = base.subsets.sum(axis=1).mean()
    sig = mm.aggregate(base, "stabilitySelection", pfer=10.0)
    pi = threshold_for_pfer(pfer=10.0, q=q, p=30, method="mb")
    assert sig.provenance["bound"] == "mb"
    assert sig.provenance["threshold"] == pytest.approx(pi)
    freq = base.subsets.mean(axis=0)
    passing = np.flatnonzero(freq >= pi)
    assert set(sig.features.tolist()) == set(passing.tolist())
    capped = mm.aggregate(base, "stabilitySelection", pfer=10.0, n_features=2)
    assert len(capped) == 2 and capped.provenance["n_passing"] == passing.size
    assert set(capped.features) <= set(passing.tolist())
    assert min(freq[capped.features]) >= max(
        np.delete(freq, capped.features)[
            np.isin(np.delete(np.arange(30), capped.features), passing)
        ],
        default=0,
    )


def test_stability_selection_unreachable_selects_nothing():
    base = _with_resampling(_hand_base(), "subsample", 0.5)
    sig = mm.aggregate(base, "stabilitySelection", pfer=0.01)
    assert len(sig) == 0
    assert sig.provenance["statement"].startswith("No feature selected")


@pytest.mark.parametrize(
    "method,kwargs,param",
    [
        ("bootstrap", {}, "'resampling'"),
        ("subsample", {"bound": "ss-unimodal"}, "'bound'"),
        ("complementary-pairs", {"threshold": 0.4}, "'threshold'"),
        ("complementary-pairs", {"pfer": 0}, "'pfer'"),
        ("complementary-pairs", {"pfer": 1, "threshold": 0.8}, "'threshold'"),
        ("complementary-pairs", {"bound": "bonferroni"}, "'bound'"),
    ],
)
def test_stability_selection_bad_input(method, kwargs, param):
    base = _with_resampling(_hand_base(), method)
    with pytest.raises(ValueError, match=param):
        mm.aggregate(base, "stabilitySelection", **kwargs)


def test_stability_selection_bootstrap_is_not_applicable():
    with pytest.raises(NotApplicableError, match="complementary-pairs"):
        mm.aggregate(make_base_models(), "stabilitySelection")


@pytest.mark.parametrize(
    "params", [{"threshold": 0.6}, {"threshold": 0.8}, {"pfer": 3.0, "bound": "ss-r-concave"}]
)
def test_stability_selection_conformance(params):
    base = make_base_models(resampling="complementary-pairs")
    assert len(mm.aggregate(base, "stabilitySelection", **params)) > 0  # not vacuous
    check_operator("stabilitySelection", base, **params)


def test_fdp_plus_like_stabl_loop():
    rng = np.random.default_rng(0)
    real, art = rng.random(50) ** 3, rng.random(25) ** 6
    expected = []
    for t in np.arange(0.0, 1.0, 0.01):  # Stabl's _compute_FDPplus, proportion 0.5
        num = np.sum((1 / 0.5) * (art > t)) + 1
        expected.append(num / max(1, np.sum(real > t)))
    np.testing.assert_allclose(fdp_plus(real, art), expected)


def test_stabl_brute_force():
    base = make_base_models(resampling="complementary-pairs", artificial=True)
    sig = mm.aggregate(base, "stabl")
    freq, art = base.subsets.mean(axis=0), base.artificial_subsets.mean(axis=0)
    grid = np.arange(0.0, 1.0, 0.01)
    fdp = [((art > t).sum() + 1) / max(1, (freq > t).sum()) for t in grid]
    t = grid[int(np.argmin(fdp))]
    assert sig.provenance["threshold"] == pytest.approx(t)
    assert sig.provenance["fdp_plus"] == pytest.approx(min(fdp))
    assert set(sig.features.tolist()) == set(np.flatnonzero(freq > t).tolist())
    assert len(sig) > 0
    check_operator("stabl", base)
    # a target below the best estimate: nothing, and said so
    none = mm.aggregate(base, "stabl", fdr=min(fdp) / 2)
    assert len(none) == 0 and "No feature selected" in none.provenance["statement"]


@pytest.mark.parametrize("fdr", [0, 1, 1.5, -0.1])
def test_stabl_bad_fdr(fdr):
    base = make_base_models(artificial=True)
    with pytest.raises(
        ValueError,
        match=r"'fdr' parameter of stabl must be a real number in "
        r"\(0, 1\)",
    ):
        mm.aggregate(base, "stabl", fdr=fdr)


def test_stabl_needs_artificial_features():
    with pytest.raises(NotApplicableError, match="artificial_features="):
        mm.aggregate(make_base_models(), "stabl")


# ------------------------------------------------------------- simulation


def _simulate(seed, n=200, p=150, k=10):
    rng = np.random.default_rng(seed)
    X = rng.standard_normal((n, p))
    y = (X[:, :k].sum(axis=1) + 0.3 * rng.standard_normal(n) > 0).astype(int)
    return X, y


@pytest.mark.slow
def test_simulation_error_control_holds():
    # Known truth: features 0..9 carry the signal. The PFER bound (1) must hold on
    # average over seeds (a loose check: 4 seeds), Stabl's FDP stay near its target,
    # and both find true features.
    false_pos, fdp, power = [], [], []
    for seed in range(4):
        X, y = _simulate(seed)
        base = mm.bootstrap(
            X,
            y,
            selector="anova",
            n_bootstraps=40,
            n_features=10,
            resampling="complementary-pairs",
            artificial_features="permutation",
            random_state=seed,
            fit_full=False,
            progress=False,
        )
        ss = mm.aggregate(base, "stabilitySelection", pfer=1.0)
        st = mm.aggregate(base, "stabl", fdr=0.2)
        false_pos.append(int((ss.features >= 10).sum()))
        fdp.append((st.features >= 10).sum() / max(1, len(st)))
        power.append(((ss.features < 10).sum() + (st.features < 10).sum()) / 20)
    print("false positives", false_pos, "stabl FDP", fdp, "power", power)
    assert np.mean(false_pos) <= 1.0
    assert np.mean(fdp) <= 0.3
    assert np.mean(power) >= 0.3
