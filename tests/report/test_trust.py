"""trust_warnings and the report's first screen: what not to trust, with the numbers."""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.base_models import BaseModels
from modelmine.diagnostics import nogueira_stability
from modelmine.report import build_report, operator_result, trust_warnings
from modelmine.testing import base_models_from_subsets


def _pairs(base):
    """The same models recorded as complementary pairs of half-samples."""
    return BaseModels.from_records(
        subsets=base.subsets, ranks=base.ranks, scores=base.scores,
        sample_indices=base.sample_indices, feature_names=base.feature_names,
        selector=dict(base.selector), n_features=None,
        resampling={"method": "complementary-pairs", "stratify": False, "fraction": 0.5,
                    "n_pairs": base.n_models // 2},
        random_state=0, classes=base.classes, n_samples=base.n_samples)


def test_stable_and_controlled_gives_no_warning():
    S = np.zeros((20, 30), dtype=bool)
    S[:, :3] = True  # every model selects the same 3 features
    base = _pairs(base_models_from_subsets(S))
    sigs = {
        "mostFreq": mm.aggregate(base, "mostFreq", n_features=3),
        "stabilitySelection": mm.aggregate(base, "stabilitySelection", threshold=0.9),
    }
    assert len(sigs["stabilitySelection"]) == 3
    assert trust_warnings(base, sigs) == []


def test_poor_stability_and_fewer_controlled_features_are_said(not_drawn):
    rng = np.random.default_rng(0)
    S = rng.random((20, 60)) < 0.1
    S[:, 0] = True  # one stable feature among noise
    base = _pairs(base_models_from_subsets(S))
    sigs = {
        "mostFreq": mm.aggregate(base, "mostFreq", n_features=8),
        "stabilitySelection": mm.aggregate(base, "stabilitySelection", threshold=0.9),
    }
    found = trust_warnings(base, sigs)
    value = nogueira_stability(S).value
    assert value < 0.4
    assert any(f"Nogueira stability {value:.2f}" in w and "poor band" in w for w in found)
    assert any(
        w.startswith("Only 1 feature(s) pass stabilitySelection") and "hold 8" in w for w in found
    )
    html = build_report(base, [operator_result(n, s, {}) for n, s in sigs.items()])
    first_screen = html[: html.index('id="data"')]
    assert "poor band" in first_screen and "Only 1 feature(s)" in first_screen


@pytest.mark.parametrize("loader", ["load_colon", "load_leukemia"])
def test_permuted_labels_select_nothing_and_the_report_says_so(loader):
    X, y = getattr(mm.datasets, loader)()
    yp = np.random.default_rng(1).permutation(y)
    base = mm.bootstrap(
        X,
        yp,
        selector="anova",
        n_bootstraps=20,
        n_features=20,
        resampling="complementary-pairs",
        artificial_features="permutation",
        random_state=1,
        progress=False,
        fit_full=False,
    )
    ss = mm.aggregate(base, "stabilitySelection", pfer=1.0)
    st = mm.aggregate(base, "stabl", fdr=0.2)
    assert len(ss) <= 1 and len(st) <= 1
    sigs = {
        "mostFreq": mm.aggregate(base, "mostFreq", n_features=20),
        "stabilitySelection": ss,
        "stabl": st,
    }
    found = trust_warnings(base, sigs)
    assert any("stabilitySelection's error control" in w for w in found)
    assert any("stabl's error control" in w for w in found)
