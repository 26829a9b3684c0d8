"""modelmine.testing.check_operator over every built-in, and that it catches broken ones."""

from __future__ import annotations

import numpy as np
import pytest

from modelmine.operators import OperatorRegistry
from modelmine.testing import check_operator

REG = OperatorRegistry(group=None)


@pytest.mark.parametrize("name", REG.names())
def test_check_operator_builtin_synthetic(name):
    done = check_operator(name, registry=REG)
    assert {"sizes", "provenance", "determinism", "feature relabelling equivariance"} <= set(done)
    assert ("base-model order invariance" in done) == REG.get(name).order_invariant


@pytest.mark.parametrize("name", ["avgRank", "mostFreq", "closedApr", "maxApr", "mostRep",
                                  "allMed", "allClosedApr", "rra", "medClosedApr"])
def test_check_operator_builtin_real(real_base, name):
    check_operator(name, real_base, registry=REG, n_features=10, n_signatures=4)


def test_check_operator_catches_label_dependence():
    reg = OperatorRegistry(group=None, builtins=False)

    @reg.register("firstFeatures")
    def first(base, *, n_features):
        return np.arange(n_features)  # depends on feature labels only

    with pytest.raises(AssertionError, match="'feature relabelling equivariance' check"):
        check_operator("firstFeatures", registry=reg)


def test_check_operator_catches_order_dependence():
    reg = OperatorRegistry(group=None, builtins=False)

    @reg.register("firstModel")
    def first_model(base, *, n_features):
        return base.selected(0)[:n_features]

    with pytest.raises(AssertionError, match="'base-model order invariance' check"):
        check_operator("firstModel", registry=reg)


def test_check_operator_catches_nondeterminism():
    reg = OperatorRegistry(group=None, builtins=False)
    state = {"calls": 0}

    @reg.register("drifting", order_invariant=False)
    def drifting(base, *, n_features):
        state["calls"] += 1
        freq = base.subsets.mean(axis=0)
        order = np.argsort(-freq, kind="stable")
        return order[state["calls"] % 2: state["calls"] % 2 + n_features]

    with pytest.raises(AssertionError, match="'determinism' check"):
        check_operator("drifting", registry=reg)
