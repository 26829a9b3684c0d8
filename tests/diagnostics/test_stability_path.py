"""stability_path: selection frequencies and Nogueira stability along q or a parameter."""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.diagnostics import nogueira_stability, stability_path


@pytest.fixture(scope="module")
def colon_base(colon):
    X, y, names = colon
    return mm.bootstrap(
        X,
        y,
        selector="anova",
        n_bootstraps=12,
        n_features=20,
        feature_names=names,
        random_state=2,
        progress=False,
    )


def test_rank_path_against_subsets(colon_base):
    path = stability_path(colon_base, n_features_grid=[5, 20, 50])
    np.testing.assert_array_equal(path.grid, [5, 20, 50])
    np.testing.assert_array_equal(path.q, [5, 20, 50])
    # at q = m the path is the base models' own frequencies
    np.testing.assert_allclose(path.frequencies[1], colon_base.subsets.mean(axis=0))
    for k, q in enumerate(path.grid):
        truth = nogueira_stability(colon_base.ranks <= q)
        assert path.stability[k] == pytest.approx(truth.value)
        assert (path.ci_low[k], path.ci_high[k]) == pytest.approx(truth.confidence_interval)
    # a feature kept among the top q is kept among the top q' > q
    assert np.all(np.diff(path.frequencies, axis=0) >= 0)
    table = path.frequency_table(3)
    assert table.shape == (3, 3) and table.index.name == "n_features"
    # a short repr, not the (3, 2000) frequencies (issue 52)
    low, high = np.nanmin(path.stability), np.nanmax(path.stability)
    assert repr(path) == ("StabilityPathResult(parameter='n_features', grid=5..50 (3 values), "
                          f"n_features_in=2000, stability={low:.3g}..{high:.3g})")


def test_parameter_path_equals_separate_runs(colon):
    X, y, _ = colon
    kw = dict(n_bootstraps=4, random_state=3, progress=False)
    path = stability_path(X, y, selector="l1-logistic", param="C", values=[0.05, 0.5], **kw)
    for k, c in enumerate([0.05, 0.5]):
        run = mm.bootstrap(
            X, y, "l1-logistic", selector_params={"C": c}, n_features=None, fit_full=False, **kw
        )
        np.testing.assert_allclose(path.frequencies[k], run.subsets.mean(axis=0))
        assert path.q[k] == pytest.approx(run.subset_sizes().mean())


@pytest.mark.parametrize(
    "kwargs,match",
    [
        ({"n_features_grid": [0, 5]}, "'n_features_grid' parameter of stability_path"),
        ({"param": "C"}, "'param' parameter of stability_path must be None with BaseModels"),
    ],
)
def test_bad_input(colon_base, kwargs, match):
    with pytest.raises(ValueError, match=match):
        stability_path(colon_base, **kwargs)


def test_data_form_needs_values(colon):
    X, y, _ = colon
    with pytest.raises(ValueError, match="'values' parameter of stability_path"):
        stability_path(X, y, param="C")


def test_result_is_immutable(colon_base):
    import dataclasses

    path = stability_path(colon_base, n_features_grid=[5])
    with pytest.raises(dataclasses.FrozenInstanceError):
        path.parameter = "x"
    with pytest.raises(ValueError, match="read-only"):
        path.frequencies[0, 0] = 1.0
