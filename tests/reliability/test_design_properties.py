"""Property-based tests of the sampling design and the outcomes (issue 40): sample weights,
regression targets and groups drawn by hypothesis, at every scale.

The property is the same everywhere: the run is refused at the door with a one-line
message naming a parameter (a ``ValueError`` or ``TypeError`` from ``param_error``), or it
finishes within a bounded time, and then it keeps the invariants of its settings: a
constant factor on the weights or on y changes no selection, and resamples vary. Never a
hang (each example runs under an alarm), never a library message after the first fit.
Bounded to a few seconds each (``MODELMINE_FUZZ_EXAMPLES`` examples, 10 by default).
"""

from __future__ import annotations

import os
import warnings

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reliability_helpers import no_hang

import modelmine as mm
from modelmine.exceptions import DataError

EXAMPLES = min(10, int(os.environ.get("MODELMINE_FUZZ_EXAMPLES", "10")))
PROPERTY = settings(max_examples=EXAMPLES, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])
SECONDS = 30


def _data(n: int = 24, p: int = 6, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = np.arange(n) % 2
    X = rng.normal(size=(n, p))
    X[:, 3] += 1.5 * y
    return X, y


def _door(exc: BaseException, *names: str) -> None:
    """A refusal at the door: the standard message, naming one of ``names``."""
    assert isinstance(exc, ValueError | TypeError | DataError), repr(exc)
    text = str(exc)
    assert any(f"'{name}'" in text for name in names), text
    assert "\n" not in text.strip(), text


#: Weights from 0 to 1e308, with runs of zeros: exponents drawn, then perhaps zeroed.
weights = st.lists(st.tuples(st.integers(-300, 307), st.booleans()), min_size=24,
                   max_size=24).map(
    lambda pairs: np.array([0.0 if zero else 10.0 ** e for e, zero in pairs]))


@PROPERTY
@given(w=weights, scale=st.sampled_from([1e-300, 1e-7, 1e7, 1e300]),
       resampling=st.booleans(), stratify=st.booleans(),
       selector=st.sampled_from(["anova", "svm-rfe"]))
def test_weights_at_any_scale_are_refused_or_relative(w, scale, resampling, stratify,
                                                      selector):
    X, y = _data()
    w = np.where(np.isfinite(w * scale), w, 0.0)  # the scaled copy must stay finite
    if not (w > 0).any():
        w[0] = 1.0
    kwargs = dict(selector=selector, n_bootstraps=3, n_features=2, sample_weight=w,
                  weighted_resampling=resampling, stratify=stratify, random_state=0)
    with no_hang(SECONDS), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            ref = mm.bootstrap(X, y, **kwargs)
        except Exception as exc:
            _door(exc, "sample_weight", "weighted_resampling", "stratify")
            return
        got = mm.bootstrap(X, y, **{**kwargs, "sample_weight": w * scale})
    np.testing.assert_array_equal(got.sample_indices, ref.sample_indices)
    np.testing.assert_array_equal(got.subsets, ref.subsets)


#: Regression targets: a base vector times 10^k, perhaps with ties and an extreme value.
@PROPERTY
@given(k=st.integers(-300, 300), ties=st.integers(0, 20),
       extreme=st.sampled_from([None, 1e308, -1e308, 1e-308]),
       selector=st.sampled_from(["pearson", "lasso"]))
def test_regression_targets_at_any_scale_are_refused_or_fitted(k, ties, extreme, selector):
    X, _ = _data(n=30, p=6)
    y = X[:, 3] + 0.3 * np.random.default_rng(1).normal(size=30)
    y[:ties] = y[0]  # ties, up to nearly constant
    y = y * 10.0 ** k
    if extreme is not None:
        y[5] = extreme
    with no_hang(SECONDS), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            base = mm.bootstrap(X, y, selector=selector, n_bootstraps=3, n_features=2,
                                outcome="regression", random_state=0)
        except Exception as exc:
            _door(exc, "y")
            return
        factor = 1e-3 if np.abs(y).max() > 1e-290 else 1e3  # y times it stays finite
        again = mm.bootstrap(X, y * factor, selector=selector,
                             n_bootstraps=3, n_features=2, outcome="regression",
                             random_state=0)
    assert np.isfinite(base.full_model.ranks).all()
    np.testing.assert_array_equal(again.subsets, base.subsets)


@PROPERTY
@given(n_groups=st.integers(2, 12), per_class=st.booleans(), stratify=st.booleans(),
       method=st.sampled_from(["bootstrap", "subsample", "complementary-pairs"]),
       fraction=st.sampled_from([None, 0.3, 0.5, 0.74, 0.8]))
def test_groups_are_refused_or_give_resamples_that_vary(n_groups, per_class, stratify,
                                                        method, fraction):
    X, y = _data()
    if per_class:  # each group holds one class
        groups = np.where(y == 0, np.arange(24) % n_groups, n_groups + np.arange(24) %
                          n_groups)
    else:
        groups = np.arange(24) % n_groups
    if method == "subsample" and fraction is None:
        fraction = 0.5
    b = 6
    with no_hang(SECONDS), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            base = mm.bootstrap(X, y, selector="anova", n_bootstraps=b, n_features=2,
                                groups=groups, stratify=stratify, resampling=method,
                                sample_fraction=fraction if method != "complementary-pairs"
                                else None, random_state=0)
        except Exception as exc:
            _door(exc, "groups", "stratify", "sample_fraction", "resampling", "y")
            return
    # whole groups, and not every resample the same (issue 40: stability 1 by design)
    rows = [base.resample(i) for i in range(b)]
    assert len({tuple(r) for r in rows}) > 1
    for r in rows:
        drawn = set(groups[r])
        counts = {g: int((groups[r] == g).sum()) for g in drawn}
        assert all(counts[g] % int((groups == g).sum()) == 0 for g in drawn)

