"""The scaling wrapper of every selector (``ScaledSelector``), against scikit-learn's scalers
(issue 38 item 6).

Users ask for it with ``scale=`` (:func:`modelmine.bootstrap`, :func:`modelmine.run`,
``modelmine run --scale``); here the wrapper itself is checked: a wrapped selector equals the
plain one on the resample scaled by hand (``StandardScaler``/``MinMaxScaler`` fitted on the
resample's rows only), also on its per-chunk speed path (``prepare``/``select_rows``).
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.preprocessing import MinMaxScaler, StandardScaler

import modelmine as mm
from modelmine.selectors import get_selector
from modelmine.selectors._scaling import ScaledSelector


@pytest.fixture(scope="module")
def colon(colon_raw):
    return colon_raw


def test_scaling_happens_inside_each_resample(colon):
    # (Unscaled SVM-RFE on raw intensities barely converges: libsvm on values in the tens
    # of thousands takes minutes per fit, one more reason for --scale.)
    raw, labels, names, _ = colon
    raw, names = raw[:, :150], names[:150]
    scaled = mm.bootstrap(
        raw,
        labels,
        selector=ScaledSelector(get_selector("svm-rfe"), "standard"),
        n_bootstraps=2,
        n_features=10,
        feature_names=names,
        random_state=0,
    )
    assert scaled.selector["scale"] == "standard"
    # Oracle: the wrapped selector equals the plain one on the resample scaled by hand
    # (the scaler fitted on the resample's rows only).
    rows = scaled.sample_indices[0]
    codes = (labels[rows] == "tumour").astype(np.int64)
    for method, scaler in (("standard", StandardScaler), ("minmax", MinMaxScaler)):
        inner = get_selector("svm-rfe")
        got = ScaledSelector(inner, method).select(raw[rows], codes, random_state=0)
        want = inner.select(scaler().fit_transform(raw[rows]), codes, random_state=0)
        for field in ("scores", "ranking", "support"):
            a, b = getattr(got, field), getattr(want, field)
            assert (a is None) == (b is None)
            if a is not None:
                np.testing.assert_array_equal(a, b)
    # Invariant: the ANOVA F statistic does not change under per-feature affine scaling.
    kwargs = dict(n_bootstraps=3, n_features=10, random_state=1)
    plain = mm.bootstrap(raw, labels, selector="anova", **kwargs)
    zed = mm.bootstrap(
        raw, labels, selector=ScaledSelector(get_selector("anova"), "standard"), **kwargs
    )
    np.testing.assert_array_equal(plain.subsets, zed.subsets)


def test_scaling_with_a_selector_that_prepares_per_chunk(colon):
    """The speed path (Selector.prepare / select_rows, once per chunk on the unscaled X) and
    the scaling inside each resample: the wrapped selector never sees the unscaled data's
    prepared work (MDL's sorted columns), only the resample scaled on its own rows."""
    raw, labels, _, _ = colon
    raw = raw[:, :60]
    inner = get_selector("ig")
    codes = (labels == "tumour").astype(np.int64)
    assert inner.prepare(raw, codes) is not None  # a selector with shared work per chunk
    wrapped = ScaledSelector(inner, "standard")
    assert wrapped.prepare(raw, codes) is None
    rows = np.random.default_rng(0).integers(0, raw.shape[0], raw.shape[0])  # repeats
    got = wrapped.select_rows(wrapped.prepare(raw, codes), raw, codes, rows, random_state=0)
    want = inner.select(StandardScaler().fit_transform(raw[rows]), codes[rows], random_state=0)
    np.testing.assert_array_equal(got.scores, want.scores)
    # Through the bootstrap: each base model is the selector on its resample scaled by hand.
    base = mm.bootstrap(raw, labels, selector=wrapped, n_bootstraps=3, n_features=8, random_state=2)
    for i in range(base.n_models):
        idx = base.sample_indices[i]
        one = inner.select(StandardScaler().fit_transform(raw[idx]), codes[idx], random_state=0)
        top = np.argsort(-one.scores, kind="stable")[:8]
        assert set(np.flatnonzero(base.subsets[i])) == set(top.tolist())
