"""Small simulated outcomes with a known truth (features 0 and 1 carry the signal), shared
by the tests of outcome evaluation."""

from __future__ import annotations

import numpy as np

from modelmine.outcomes import SURVIVAL_DTYPE


def regression_data(n, p, seed=0):
    """y = 2 x0 - x1 + N(0, 1) noise on p standard normal features."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    return X, 2 * X[:, 0] - X[:, 1] + rng.normal(size=n)


def survival_data(n, p, seed=0):
    """Exponential times with hazard exp(x0 - x1), censored by independent exponential
    times of mean 2 (scikit-survival's structured array)."""
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, p))
    t = rng.exponential(1.0, n) / np.exp(X[:, 0] - X[:, 1])
    c = rng.exponential(2.0, n)
    y = np.empty(n, dtype=SURVIVAL_DTYPE)
    y["event"], y["time"] = t <= c, np.minimum(t, c)
    return X, y


def assert_harrell_c_equals_scikit_survival(ev, y):
    """Each fold's Harrell's C of an outcome evaluation equals scikit-survival's
    ``concordance_index_censored`` on that fold's test predictions."""
    import pytest
    from sksurv.metrics import concordance_index_censored

    for row in ev.folds.itertuples():
        part = ev.predictions[(ev.predictions.operator == row.operator)
                              & (ev.predictions.fold == row.fold)]
        rows = part["sample"].to_numpy()
        ref = concordance_index_censored(y["event"][rows], y["time"][rows],
                                         part.prediction.to_numpy())[0]
        assert row.harrell_c == pytest.approx(ref, rel=1e-12)
