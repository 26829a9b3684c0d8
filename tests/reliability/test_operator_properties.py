"""Property tests of every registered operator over random base models (hypothesis).

Invariants, whatever the base models: a single-model operator returns one signature of
1..m distinct features of the data (names matching the indices); a multi-model operator
returns 1..k such signatures; the same ``random_state`` gives the same result; and a
signature only holds features some base model selected, except for the operators whose
documentation says otherwise (docs/operators.md): the rank and score aggregations look
at every feature's rank or score, and nobagg is the selector fitted once on all the data.
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from modelmine.exceptions import NotApplicableError
from modelmine.operators import Signature, SignatureSet, aggregate, available_operators
from modelmine.testing import base_models_from_subsets, make_base_models

#: Operators that may choose features no base model selected, and why (their docs say so).
BEYOND_THE_SUBSETS = {
    "avgRank": "mean rank over all p features",
    "meanScore": "mean score over all p features",
    "geomMean": "geometric mean of all scores",
    "l2Norm": "L2 norm of all scores",
    "stuart": "Stuart's rank aggregation over all ranks",
    "rra": "Robust Rank Aggregation over all ranks",
    "nobagg": "the selector fitted once on all the data",
}

OPERATORS = available_operators()[["name", "kind"]].itertuples(index=False)
PROPERTIES = settings(
    max_examples=12, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def base_models(draw):
    """Ranking base models (each of m features) or subset base models (sizes vary)."""
    b = draw(st.integers(4, 16))
    p = draw(st.integers(6, 24))
    if draw(st.booleans()):
        m = draw(st.integers(2, min(8, p - 1)))
        return make_base_models(
            n_models=b, n_features_in=p, n_features=m, random_state=draw(st.integers(0, 10**6))
        ), m
    rng = np.random.default_rng(draw(st.integers(0, 10**6)))
    density = draw(st.floats(0.1, 0.6))
    subsets = rng.random((b, p)) < density
    subsets[np.arange(b), rng.integers(0, p, b)] = True  # no empty model
    m = int(subsets.sum(axis=1).min())  # what aggregate accepts for subsets of these sizes
    return base_models_from_subsets(subsets), m


def _signatures(result) -> list[Signature]:
    return [result] if isinstance(result, Signature) else list(result)


@pytest.mark.parametrize("name, kind", [pytest.param(*row, id=row[0]) for row in OPERATORS])
@PROPERTIES
@given(drawn=base_models(), k=st.integers(1, 5))
def test_operator_invariants(name, kind, drawn, k):
    base, m = drawn
    size = {"n_features": m} if kind == "single" else {"n_signatures": k}
    try:
        result = aggregate(base, name, random_state=0, **size)
    except NotApplicableError:
        return  # documented: the operator does not apply to these base models
    if kind == "single":
        assert isinstance(result, Signature)
    else:
        assert isinstance(result, SignatureSet) and 1 <= len(result) <= k
    selected = base.subsets.any(axis=0)
    for sig in _signatures(result):
        features = np.asarray(sig.features)
        assert features.size >= 1 and np.unique(features).size == features.size
        assert features.min() >= 0 and features.max() < base.n_features_in
        assert list(sig.names) == list(base.feature_names[features])
        if kind == "single":
            assert features.size <= m
        if name not in BEYOND_THE_SUBSETS:
            assert selected[features].all(), (name, features, np.flatnonzero(selected))
    again = aggregate(base, name, random_state=0, **size)
    assert again.to_dict() == result.to_dict()  # deterministic
