"""The installed plugin: discovered through the entry point, conformant, runs end to end."""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.operators import aggregate, get_operator, refresh
from modelmine.operators import available_operators as available
from modelmine.testing import base_models_from_subsets, check_operator, make_base_models


def test_listed_by_available_with_its_origin():
    refresh()
    row = available().set_index("name").loc["stabClosedApr"]
    assert row["origin"] == "modelmine-stabcomb"
    assert row["kind"] == "single"
    assert row["entry_point"] == "stabClosedApr = modelmine_stabcomb:stab_closed_apr"
    assert get_operator("stabClosedApr").is_plugin


def test_conformance():
    check_operator("stabClosedApr")


def test_end_to_end_on_colon():
    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X, y, selector="anova", n_bootstraps=30, n_features=20,
                        random_state=0)
    sig = aggregate(base, "stabClosedApr", n_features=20)
    assert len(sig) == 20 and sig.provenance["origin"] == "modelmine-stabcomb"
    # every chosen itemset is contained in at least support * b base models
    tx = [set(np.flatnonzero(r).tolist()) for r in base.subsets]
    for u in sig.provenance["itemsets"]:
        assert sum(set(u["items"]) <= t for t in tx) == round(u["support"] * base.n_models)


def test_prefers_large_frequent_groups():
    # 6 models: {0,1,2,3} in 4 of them, feature 4 in 5, feature 5 in 3.
    S = np.zeros((6, 10), dtype=bool)
    S[:4, :4] = True
    S[:5, 4] = True
    S[2:5, 5] = True
    S[5, 6:9] = True
    base = base_models_from_subsets(S)
    sig = aggregate(base, "stabClosedApr", n_features=5, min_support=0.5)
    # area of {0,1,2,3,4} = 4 * 5 = 20 beats {4} (5) and {0..3} (16): one itemset suffices
    assert sorted(sig.features.tolist()) == [0, 1, 2, 3, 4]
    assert sig.provenance["n_itemsets_used"] == 1
    closed = aggregate(base, "closedApr", n_features=5, strategy="literal")
    assert closed.provenance["n_itemsets_used"] == 2  # {4} first (support 5/6), then {0..4}


def test_bad_min_support():
    with pytest.raises(ValueError, match=r"The 'min_support' parameter of stabClosedApr"):
        aggregate(make_base_models(), "stabClosedApr", n_features=3, min_support=2.0)


def test_selector_found_through_its_entry_point_and_equal_to_brute_force():
    from modelmine.selectors import available_selectors
    from modelmine.selectors import refresh as refresh_selectors

    refresh_selectors()
    row = available_selectors().set_index("name").loc["fisher"]
    assert row["origin"] == "modelmine-stabcomb" and row["kind"] == "scores"
    assert row["entry_point"] == "fisher = modelmine_stabcomb:FisherScoreSelector"
    X, y = mm.datasets.load_colon()
    base = mm.bootstrap(X, y, selector="fisher", n_bootstraps=3, n_features=10,
                        random_state=0)
    # Brute force on the first resample: the Fisher score of every feature, by loops.
    Xb, yb = X[base.sample_indices[0]].astype(float), np.asarray(y)[base.sample_indices[0]]
    want = np.zeros(X.shape[1])
    for j in range(X.shape[1]):
        col, mu = Xb[:, j], Xb[:, j].mean()
        num = sum((yb == c).sum() * (col[yb == c].mean() - mu) ** 2 for c in np.unique(yb))
        den = sum((yb == c).sum() * col[yb == c].var() for c in np.unique(yb))
        want[j] = num / den if den > 0 else 0.0
    np.testing.assert_allclose(base.scores[0], want, rtol=1e-5)
    assert base.selector["name"] == "fisher"


def test_bad_min_support_uses_the_shared_message():
    base = make_base_models(n_models=8)
    with pytest.raises(ValueError, match=r"The 'min_support' parameter of stabClosedApr must "
                                         r"be a real number in \(0, 1\]\. Got 1\.5 instead\."):
        aggregate(base, "stabClosedApr", n_features=5, min_support=1.5)
