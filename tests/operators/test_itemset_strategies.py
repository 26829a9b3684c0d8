"""closedApr / maxApr strategies: the literal reading is mostFreq (a theorem), the others
combine multi-feature fragments; each checked against a brute-force reading."""

from __future__ import annotations

import numpy as np
import pytest

import modelmine as mm
from modelmine.testing import base_models_from_subsets, make_base_models

#: The ``strategy`` values of closedApr and maxApr (docs/operators.md).
STRATEGIES = ("area", "fragments", "fit", "literal")

CASES = [("colon", "svm-rfe"), ("colon", "relieff"), ("leukemia", "ig"),
         ("prostate", "anova")]


@pytest.fixture(scope="module", params=CASES, ids=["-".join(c) for c in CASES])
def real_base(request):
    name, selector = request.param
    X, y = getattr(mm.datasets, f"load_{name}")()
    return mm.bootstrap(X, y, selector=selector, n_bootstraps=40, n_features=20,
                        random_state=1)


def test_literal_closed_apr_is_most_freq_up_to_ties(real_base):
    # Theorem (docs/operators.md): the closure of a feature has the feature's frequency and
    # every item of a closed itemset of support s has frequency >= s, so closed itemsets
    # taken by decreasing support add features by decreasing frequency.
    freq = real_base.subsets.mean(axis=0)
    for m in (5, 20):
        lit = mm.aggregate(real_base, "closedApr", n_features=m, strategy="literal")
        mf = mm.aggregate(real_base, "mostFreq", n_features=m)
        assert sorted(freq[lit.features]) == sorted(freq[mf.features])
        boundary = np.sort(freq)[::-1][m - 1]
        differ = set(lit.features) ^ set(mf.features)
        assert all(freq[f] == boundary for f in differ)


def test_area_prefers_large_frequent_groups_and_records_table3():
    # 6 models: {0,1,2,3} in 4 of them, feature 4 in 5, feature 5 in 3 of them.
    # Closed itemsets at support 3: {4} (5), {0,1,2,3,4} (4), {5} (3), {4,5} (?)...
    # area: {0,1,2,3,4} covers 4 x 5 = 20 cells, more than {4} (5) or {5} (3): one
    # itemset gives the 5 features. literal: {4} first (the highest support), then the rest.
    S = np.zeros((6, 10), dtype=bool)
    S[:4, :4] = True
    S[:5, 4] = True
    S[3:, 5] = True
    base = base_models_from_subsets(S)
    sig = mm.aggregate(base, "closedApr", n_features=5, strategy="area", min_support=3)
    assert sorted(sig.features.tolist()) == [0, 1, 2, 3, 4]
    prov = sig.provenance
    assert prov["strategy"] == "area" and prov["n_itemsets_used"] == 1
    assert prov["itemsets"][0]["items"] == [0, 1, 2, 3, 4]
    assert prov["mean_itemset_size"] == 5.0
    assert prov["mean_itemset_support"] == pytest.approx(4 / 6)
    lit = mm.aggregate(base, "closedApr", n_features=5, strategy="literal", min_support=3)
    assert lit.features[0] == 4 and lit.provenance["n_itemsets_used"] == 2


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("operator", ["closedApr", "maxApr"])
def test_every_strategy_gives_m_features_from_frequent_itemsets(real_base, strategy,
                                                                operator):
    m = 20
    sig = mm.aggregate(real_base, operator, n_features=m, strategy=strategy)
    assert len(sig) == m and len(set(sig.features)) == m
    prov = sig.provenance
    assert prov["strategy"] == strategy
    tx = [set(np.flatnonzero(r).tolist()) for r in real_base.subsets]
    for u in prov["itemsets"]:
        # each itemset used has the support it claims, at or above the threshold
        assert sum(set(u["items"]) <= t for t in tx) == u["count"] >= prov["min_count_used"]
        assert set(u["added"]) <= set(u["items"])
    from_itemsets = [f for u in prov["itemsets"] for f in u["added"]]
    assert sorted([*from_itemsets, *prov["filled_by_frequency"]]) == sorted(sig.features)
    sizes = [len(u["items"]) for u in prov["itemsets"]]
    assert prov["mean_itemset_size"] == pytest.approx(np.mean(sizes) if sizes else 0.0)
    if strategy == "fragments":
        assert all(s >= 2 for s in sizes)


def test_unknown_strategy_lists_them():
    base = make_base_models(n_models=8)
    with pytest.raises(ValueError, match=r"The 'strategy' parameter of closedApr must be one "
                                         r"of 'area', 'fragments', 'fit', 'literal'\. Got "
                                         r"'tiling' instead\."):
        mm.aggregate(base, "closedApr", n_features=3, strategy="tiling")


@pytest.mark.parametrize("operator", ["medClosedApr", "medMaxApr"])
def test_med_apr_starts_from_every_itemset_of_top_support(operator):
    # IS_top (KDD 2012, section 2.1): {0, 1} and {2, 3} both have the top support 3; the
    # group holds the models of both, not only those of the first in itemset order.
    S = np.zeros((6, 8), dtype=bool)
    S[:3, [0, 1]] = True
    S[3:, [2, 3]] = True
    S[np.arange(6), 4 + np.arange(6) % 4] = True  # one noise feature each, support <= 2
    base = base_models_from_subsets(S)
    sig = mm.aggregate(base, operator, n_features=3, min_support=3)
    prov = sig.provenance
    assert sorted(map(sorted, (u["items"] for u in prov["itemsets"]))) == [[0, 1], [2, 3]]
    assert prov["n_models_in_group"] == 6
    # Brute force: the medoid of all six models under Jaccard distance (ties: lower index).
    rows = [set(np.flatnonzero(r)) for r in S]
    total = [sum(1 - len(a & b) / len(a | b) for b in rows) for a in rows]
    medoid = int(np.argmin(total))
    assert set(sig.features.tolist()) == rows[medoid]


def test_literal_max_apr_is_not_most_freq_up_to_ties():
    """docs/cli.md said maxApr's literal reading is "mostFreq up to ties" (issue 39): it is
    not. Five models over four features: {0, 1}, {0}, {1, 2, 3}, {0}, {0}; m = 3. The
    maximal itemsets at the 3rd largest count (1), found by brute force over all 15
    itemsets, are {0, 1} and {1, 2, 3}, both in one model; taken by decreasing support,
    then length (the operators' order), {1, 2, 3} comes first and fills m. Feature 0, in
    4 of the 5 models and the most frequent, is left out."""
    import itertools

    S = np.zeros((5, 4), dtype=bool)
    for i, row in enumerate([(0, 1), (0,), (1, 2, 3), (0,), (0,)]):
        S[i, list(row)] = True
    m = 3
    count = S.sum(axis=0)
    threshold = np.sort(count)[::-1][m - 1]
    frequent = [set(c) for k in range(1, 5) for c in itertools.combinations(range(4), k)
                if S[:, list(c)].all(axis=1).sum() >= threshold]
    maximal = [c for c in frequent if not any(c < d for d in frequent)]
    assert sorted(map(sorted, maximal)) == [[0, 1], [1, 2, 3]]
    ordered = sorted(maximal, key=lambda c: (-S[:, sorted(c)].all(axis=1).sum(), -len(c),
                                             sorted(c)))
    brute: list[int] = []
    for c in ordered:
        brute += [f for f in sorted(c, key=lambda f: (-count[f], f)) if f not in brute]
        if len(brute) >= m:
            break
    brute = brute[:m]
    base = base_models_from_subsets(S)
    max_apr = mm.aggregate(base, "maxApr", n_features=m, strategy="literal")
    most_freq = mm.aggregate(base, "mostFreq", n_features=m)
    assert sorted(max_apr.features.tolist()) == sorted(brute) == [1, 2, 3]
    assert 0 in most_freq.features and count[0] > threshold  # not a tie at the m-th count
