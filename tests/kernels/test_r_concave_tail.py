"""D, the largest r-concave tail behind the ``"ss-r-concave"`` bound of
:func:`modelmine.operators.pfer_bound` (Shah and Samworth 2013, equation 8), against the
tails of binomial distributions: log-concave, hence r-concave, so D must cover them
(issue 38 item 6; the bound itself is tested in ``tests/operators/test_error_control.py``).
"""

from __future__ import annotations

import math

import pytest
from scipy.stats import binom

from modelmine.operators._bounds import _tail_d


@pytest.mark.parametrize(
    "theta,n,r", [(0.05, 20, -0.25), (0.1, 40, -0.25), (0.01, 20, -0.5), (0.2, 30, -0.5)]
)
def test_r_concave_tail_covers_binomial(theta, n, r):
    # Binomial(n, theta) is log-concave, hence r-concave for every r < 0, with mean
    # n theta: its upper tail must lie under D, the largest r-concave tail.
    k_start = math.ceil(2 * theta * n) + 1
    previous = 1.0
    for which in range(k_start, n + 1):
        d = _tail_d(theta, which, n, r)
        assert binom.sf(which - 1, n, theta) <= d + 1e-9
        assert 0.0 <= d <= previous + 1e-12  # a tail: non-increasing
        previous = d
